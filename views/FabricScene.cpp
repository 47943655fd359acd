#include "FabricScene.h"

#include "FabricItems.h"

#include <QGraphicsSceneHelpEvent>
#include <QLocale>
#include <QToolTip>

#include <algorithm>
#include <map>

namespace weft {

namespace {

constexpr double kRackZCollapsed = 5;
constexpr double kRackZExpanded = 1;
constexpr double kHighlightZ = 6;

QString guidText(Guid guid)
{
    return QStringLiteral("0x%1").arg(guid, 16, 16, QLatin1Char('0'));
}

// Where a cable meets a node's box: the bottom edge towards lower rows, the top edge upwards.
QPointF cableEnd(const FabricLayout &layout, const Fabric &fabric, NodeIndex node, bool towardsBelow)
{
    const QRectF r = layout.nodeRect(fabric, node);
    return QPointF(r.center().x(), towardsBelow ? r.bottom() : r.top());
}

} // namespace

FabricScene::FabricScene(QObject *parent) : QGraphicsScene(parent)
{
    // The default BSP index suits a picture that is built once and then only looked at.
    setItemIndexMethod(BspTreeIndex);
    setBackgroundBrush(QColor(0xfb, 0xfc, 0xfd));
    connect(this, &QGraphicsScene::selectionChanged, this, [this] {
        updateHighlight();
        Q_EMIT nodeSelectionChanged(selectedNodes());
    });
}

FabricScene::~FabricScene() = default;

QColor FabricScene::switchColour(int tier, int topTier)
{
    // Leaves a lighter blue, the roots the deepest: the eye reads the hierarchy from the shade.
    const QColor leaf(0x6c, 0x9b, 0xd8);
    const QColor root(0x26, 0x4a, 0x82);
    if (topTier <= 1 || tier < 1)
        return tier < 1 ? QColor(0x8a, 0x8f, 0x98) : leaf;
    const double f = double(tier - 1) / double(topTier - 1);
    return QColor::fromRgbF(float(leaf.redF() + (root.redF() - leaf.redF()) * f),
                            float(leaf.greenF() + (root.greenF() - leaf.greenF()) * f),
                            float(leaf.blueF() + (root.blueF() - leaf.blueF()) * f));
}

QColor FabricScene::hostColour() { return QColor(0x8c, 0xc7, 0xa5); }
QColor FabricScene::routerColour() { return QColor(0xe3, 0xa8, 0x3b); }
QColor FabricScene::linkColour() { return QColor(0x70, 0x7a, 0x88, 150); }
QColor FabricScene::selectionColour() { return QColor(0xe8, 0x6a, 0x10); }

void FabricScene::clearFabric()
{
    clearSelection();
    clear();
    m_nodeItems.clear();
    m_rackItems.clear();
    m_linkLayers.clear();
    m_highlight = nullptr;
    m_fabric.reset();
    m_layout = FabricLayout();
    setSceneRect(QRectF(0, 0, 1, 1));
}

void FabricScene::setFabric(std::shared_ptr<const Fabric> fabric, FabricLayout layout)
{
    clearFabric();
    m_fabric = std::move(fabric);
    m_layout = std::move(layout);
    if (!m_fabric)
        return;
    const Fabric &f = *m_fabric;

    m_nodeItems.assign(f.nodes().size(), nullptr);
    for (std::size_t i = 0; i < f.nodes().size(); ++i) {
        const NodeIndex n = NodeIndex(i);
        const Node &node = f.node(n);
        QColor fill;
        switch (node.type) {
        case NodeType::Switch:
            fill = switchColour(m_layout.tiers[i], m_layout.topTier);
            break;
        case NodeType::ChannelAdapter:
            fill = hostColour();
            break;
        case NodeType::Router:
            fill = routerColour();
            break;
        }
        const QString label = node.description.isEmpty() ? node.name : node.description;
        auto *item = new NodeItem(n, node.type, m_layout.nodeRect(f, n), fill, label);
        addItem(item);
        m_nodeItems[i] = item;
    }
    for (const FabricLayout::Rack &rack : m_layout.racks) {
        auto *item = new RackItem(rack.leaf, int(rack.hosts.size()), rack.bounds, hostColour());
        item->setZValue(m_hostsCollapsed ? kRackZCollapsed : kRackZExpanded);
        addItem(item);
        m_rackItems.push_back(item);
    }
    buildLinkLayers();
    buildRowBands();
    m_highlight = new HighlightItem(selectionColour());
    m_highlight->setZValue(kHighlightZ);
    addItem(m_highlight);
    // Set explicitly: computing it from the items would walk all of them on every change.
    setSceneRect(m_layout.bounds);
}

void FabricScene::buildLinkLayers()
{
    const Fabric &f = *m_fabric;
    const FabricLayout &layout = m_layout;
    std::vector<NodeIndex> rackLeafOf(f.nodes().size(), kNoIndex);
    for (const FabricLayout::Rack &rack : layout.racks)
        for (NodeIndex host : rack.hosts)
            rackLeafOf[std::size_t(host)] = rack.leaf;

    // Layer t holds the cables between tier t and tier t - 1; layer 1 the host cables.
    std::map<int, std::vector<QLineF>> lines;
    QPainterPath curves;
    for (const FabricLayout::Rack &rack : layout.racks) {
        // One trunk per rack stands for the cables of its hosts: drawn one by one, they would
        // only cross the hosts in the rows above.
        const QPointF from = cableEnd(layout, f, rack.leaf, true);
        lines[1].emplace_back(from, QPointF(from.x(), rack.bounds.top()));
    }
    for (const Link &link : f.links()) {
        NodeIndex a = f.port(link.a).node;
        NodeIndex b = f.port(link.b).node;
        if (rackLeafOf[std::size_t(a)] == b || rackLeafOf[std::size_t(b)] == a)
            continue;  // drawn by the trunk
        int ta = layout.tiers[std::size_t(a)];
        int tb = layout.tiers[std::size_t(b)];
        if (ta < tb) {
            std::swap(a, b);
            std::swap(ta, tb);
        }
        if (ta - tb == 1 && tb >= 0) {
            lines[ta].emplace_back(cableEnd(layout, f, a, true), cableEnd(layout, f, b, false));
            continue;
        }
        // Same row, skipped tiers or isolated switches: an arc over the row keeps the cable
        // from running through the boxes between its ends.
        const QPointF p1 = cableEnd(layout, f, a, false);
        const QPointF p2 = cableEnd(layout, f, b, false);
        const double lift = std::clamp(std::abs(p2.x() - p1.x()) * 0.35, 20.0, 400.0);
        curves.moveTo(p1);
        curves.quadTo(QPointF((p1.x() + p2.x()) / 2, std::min(p1.y(), p2.y()) - lift), p2);
    }
    for (auto &[tier, tierLines] : lines) {
        auto *item = new LinkLayerItem(std::move(tierLines), QPainterPath(), linkColour());
        addItem(item);
        m_linkLayers.push_back(item);
    }
    if (!curves.isEmpty()) {
        auto *item = new LinkLayerItem({}, curves, linkColour());
        addItem(item);
        m_linkLayers.push_back(item);
    }
}

void FabricScene::buildRowBands()
{
    const Fabric &f = *m_fabric;
    const FabricLayout &layout = m_layout;
    for (int t = 1; t <= layout.topTier; ++t) {
        QRectF row;
        for (NodeIndex n : layout.rows[std::size_t(t)])
            row |= layout.nodeRect(f, n);
        if (row.isEmpty())
            continue;
        const double reach = t < layout.topTier ? (layout.rowY[std::size_t(t)] - layout.rowY[std::size_t(t + 1)]) / 6
                                                : (layout.rowY[1] - layout.rowY[std::size_t(t)]) / 12 + 20;
        addItem(new RowBandItem(row, reach, switchColour(t, layout.topTier)));
    }
    QRectF racks;
    for (const FabricLayout::Rack &rack : layout.racks)
        racks |= rack.bounds;
    if (!racks.isEmpty())
        addItem(new RowBandItem(racks, racks.height() + 40, hostColour()));
}

std::size_t FabricScene::linkLinesDrawn() const
{
    std::size_t total = 0;
    for (const LinkLayerItem *layer : m_linkLayers)
        total += layer->lineCount();
    return total;
}

std::size_t FabricScene::highlightedCableCount() const
{
    return m_highlight ? m_highlight->lineCount() : 0;
}

NodeItem *FabricScene::nodeItem(NodeIndex node) const
{
    if (node < 0 || std::size_t(node) >= m_nodeItems.size())
        return nullptr;
    return m_nodeItems[std::size_t(node)];
}

void FabricScene::selectNode(NodeIndex node)
{
    NodeItem *item = nodeItem(node);
    // One selectionChanged for the pair of changes, not two.
    QSignalBlocker blocker(this);
    clearSelection();
    if (item)
        item->setSelected(true);
    blocker.unblock();
    updateHighlight();
    Q_EMIT selectionChanged();
}

std::vector<NodeIndex> FabricScene::selectedNodes() const
{
    std::vector<NodeIndex> nodes;
    for (QGraphicsItem *item : selectedItems())
        if (item->type() == NodeItem::Type)
            nodes.push_back(static_cast<NodeItem *>(item)->node());
    std::sort(nodes.begin(), nodes.end());
    return nodes;
}

void FabricScene::updateHighlight()
{
    if (!m_highlight || !m_fabric)
        return;
    const Fabric &f = *m_fabric;
    std::vector<QLineF> lines;
    for (NodeIndex n : selectedNodes()) {
        const Node &node = f.node(n);
        const QPointF centre = m_layout.positions[std::size_t(n)];
        for (int p = 1; p <= node.portCount; ++p) {
            const Port &port = f.port(node.firstPort + p);
            if (port.remote != kNoIndex)
                lines.emplace_back(centre, m_layout.positions[std::size_t(f.port(port.remote).node)]);
        }
    }
    m_highlight->setLines(std::move(lines));
}

void FabricScene::setHostsCollapsed(bool collapsed)
{
    if (collapsed == m_hostsCollapsed)
        return;
    m_hostsCollapsed = collapsed;
    for (RackItem *rack : m_rackItems)
        rack->setZValue(collapsed ? kRackZCollapsed : kRackZExpanded);
}

QString FabricScene::toolTipFor(NodeIndex n) const
{
    if (!m_fabric || n < 0 || std::size_t(n) >= m_fabric->nodes().size())
        return {};
    const Fabric &f = *m_fabric;
    const Node &node = f.node(n);
    QString type;
    switch (node.type) {
    case NodeType::Switch:
        type = tr("Switch");
        break;
    case NodeType::ChannelAdapter:
        type = tr("Host");
        break;
    case NodeType::Router:
        type = tr("Router");
        break;
    }
    const int tier = m_layout.tiers[std::size_t(n)];
    const Lid lid = f.nodeLid(n);
    int cabled = 0;
    for (int p = 1; p <= node.portCount; ++p)
        cabled += f.port(node.firstPort + p).remote != kNoIndex ? 1 : 0;
    const QString title = (node.description.isEmpty() ? node.name : node.description).toHtmlEscaped();
    return tr("<b>%1</b> (%2)<br>GUID %3<br>LID %4<br>%5 ports, %6 cabled<br>Tier %7")
        .arg(title, type, guidText(node.guid), lid ? QString::number(lid) : tr("none"))
        .arg(node.portCount)
        .arg(cabled)
        .arg(tier >= 0 ? QString::number(tier) : tr("none (no path to a host)"));
}

void FabricScene::helpEvent(QGraphicsSceneHelpEvent *event)
{
    // Tooltips are made when asked for: thirteen thousand of them up front would cost time and
    // memory for the few the operator ever hovers.
    QString text;
    const QList<QGraphicsItem *> found = items(event->scenePos(), Qt::IntersectsItemShape, Qt::DescendingOrder);
    for (QGraphicsItem *item : found) {
        if (item->type() == NodeItem::Type) {
            text = toolTipFor(static_cast<NodeItem *>(item)->node());
            break;
        }
        if (item->type() == RackItem::Type && m_hostsCollapsed) {
            const auto *rack = static_cast<RackItem *>(item);
            const Node &leaf = m_fabric->node(rack->leaf());
            text = tr("Hosts under %1: %2")
                       .arg((leaf.description.isEmpty() ? leaf.name : leaf.description).toHtmlEscaped())
                       .arg(rack->hostCount());
            break;
        }
    }
    if (text.isEmpty()) {
        QToolTip::hideText();
        event->ignore();
        return;
    }
    QToolTip::showText(event->screenPos(), text, event->widget());
    event->accept();
}

} // namespace weft
