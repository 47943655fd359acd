#include "FabricScene.h"

#include "FabricDocument.h"
#include "FabricItems.h"
#include "FabricSummary.h"
#include "NodeQuery.h"
#include "HostRoute.h"
#include "FabricSession.h"
#include "TrafficModel.h"

#include <QGraphicsLineItem>
#include <QGraphicsPathItem>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsSceneHelpEvent>
#include <QPen>
#include <QRegularExpression>
#include <QGraphicsView>
#include <QLocale>
#include <QToolTip>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

namespace weft {

namespace {

constexpr double kRackZCollapsed = 5;
constexpr double kRackZExpanded = 1;
constexpr double kHighlightZ = 6;
constexpr double kHottestBundleZ = 3.6;  // over the other bundles and the blocks
constexpr double kBundleZ = 3.5;
// Below this many nodes the layout takes a few milliseconds: do it at once, no worker thread.
constexpr std::size_t kAsyncLayoutNodes = 3000;
// Items per leaf of the BSP index the scene aims at (see bspDepthFor).
constexpr double kItemsPerBspLeaf = 256;

// The depth of the scene's BSP index for about `items` items. Qt's own choice grows with the
// item count alone (16 levels, 65,536 leaves, for a 39,366-host fat-tree's 44,000 items), but
// the cable layers, row bands, bundles, highlights and marks each span much of the picture and
// are filed in every leaf they cross: at that depth a paint at full zoom-out walks millions of
// leaf entries, and every recolour files the new cable layers in tens of thousands of leaves.
// Leaves of a few hundred nodes keep both short, and a zoomed-in view still looks in a few.
int bspDepthFor(std::size_t items)
{
    const double leaves = std::max(1.0, double(items) / kItemsPerBspLeaf);
    return std::clamp(int(std::ceil(std::log2(leaves))), 4, 10);
}

// Where a cable meets a node's box: the bottom edge towards lower rows, the top edge upwards.
// What a node's box says: its description, shortened the way operators say it. NVIDIA's
// "MF0;sw-edge001:MSB7800/U1" is "sw-edge001"; a chassis's switch is its slot within the chassis
// ("MF0;sw-dir01:CS7500/L05/U2" in chassis "sw-dir01:CS7500" is "L05/U2").
QString mapLabel(const Node &node, const QString &chassisName)
{
    QString text = node.description.isEmpty() ? node.name : node.description;
    static const QRegularExpression managedPrefix(QStringLiteral("^[A-Z]{2}[0-9];"));
    text.remove(managedPrefix);
    if (!chassisName.isEmpty() && text.startsWith(chassisName) && text.size() > chassisName.size()) {
        QString slot = text.mid(chassisName.size());
        while (!slot.isEmpty() && !slot.front().isLetterOrNumber())
            slot.remove(0, 1);
        if (!slot.isEmpty())
            return slot;
    }
    static const QRegularExpression systemAsic(QStringLiteral("^([^:/ ]+):[^/ ]+/U[0-9]+$"));
    const QRegularExpressionMatch m = systemAsic.match(text);
    return m.hasMatch() ? m.captured(1) : text;
}

QPointF cableEnd(const FabricLayout &layout, const Fabric &fabric, NodeIndex node, bool towardsBelow)
{
    const QRectF r = layout.nodeRect(fabric, node);
    return QPointF(r.center().x(), towardsBelow ? r.bottom() : r.top());
}

// How far `pos` is from the segment `line`.
double distanceToSegment(const QPointF &pos, const QLineF &line)
{
    const QPointF d = line.p2() - line.p1();
    const double length2 = d.x() * d.x() + d.y() * d.y();
    const double t = length2 > 0 ? std::clamp(QPointF::dotProduct(pos - line.p1(), d) / length2, 0.0, 1.0) : 0.0;
    return QLineF(pos, line.p1() + t * d).length();
}

}  // namespace

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

FabricScene::~FabricScene()
{
    // QGraphicsScene's destructor removes the items, which changes the selection: by then this
    // object is no longer a FabricScene, so the highlight must not be recomputed.
    disconnect(this, &QGraphicsScene::selectionChanged, this, nullptr);
}

void FabricScene::setDocument(FabricDocument *document)
{
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    m_document = document;
    if (!m_document)
        return;
    connect(m_document, &FabricDocument::changed, this, &FabricScene::documentChanged);
    layOutDocumentFabric();
}

void FabricScene::documentChanged(DocumentChanges what)
{
    if (what & DocumentChange::Fabric) {
        layOutDocumentFabric();
        return;
    }
    if (!m_fabric)
        return;  // a layout is under way; it reads the document when it is done
    if (what & DocumentChange::Partitions)
        setTenancy(m_document->tenancy());
    // The proposal falls back to the current tables when it is cleared.
    const DocumentChanges shown = m_shownRouting == ShownRouting::Proposed
                                      ? DocumentChanges(DocumentChange::Proposal | DocumentChange::CurrentTables | DocumentChange::WhatIf
                                                        | DocumentChange::LiveChanges)
                                      : DocumentChanges(DocumentChange::CurrentTables);
    if (what & shown)
        showDocumentRouting();
    if (what & DocumentChange::LiveChanges)
        markLiveChanges();
}

void FabricScene::markLiveChanges()
{
    delete m_goneMarks;
    delete m_newMarks;
    m_goneMarks = m_newMarks = nullptr;
    m_cablesMarkedGone = m_cablesMarkedNew = 0;
    if (!m_fabric || !m_document)
        return;
    const Fabric &f = *m_fabric;
    const FabricChanges &changes = m_document->session()->liveChanges();
    // Drawn between the two nodes as a cable between their tiers is; a cable to a node the
    // picture does not have (a new node) is only listed.
    const auto paths = [&](const std::vector<FabricChanges::LinkEnds> &links, std::size_t *drawn) {
        std::vector<QLineF> lines;
        for (const FabricChanges::LinkEnds &link : links) {
            const NodeIndex a = f.nodeByGuid(link.nodeA);
            const NodeIndex b = f.nodeByGuid(link.nodeB);
            if (a == kNoIndex || b == kNoIndex)
                continue;
            lines.push_back(cableLineBetween(a, b));
            ++*drawn;
        }
        return lines;
    };
    const auto item = [this](std::vector<QLineF> lines, const QColor &colour, Qt::PenStyle style) {
        auto *marks = new HighlightItem(colour, style, 3.5);
        marks->setLines(std::move(lines));
        marks->setZValue(kHighlightZ + 0.5);  // above a route shown: what is gone must show
        addItem(marks);
        return marks;
    };
    m_goneMarks = item(paths(changes.linksGoneEnds, &m_cablesMarkedGone), goneCableColour(), Qt::DashLine);
    m_newMarks = item(paths(changes.linksNewEnds, &m_cablesMarkedNew), newCableColour(), Qt::SolidLine);
    Q_EMIT coloursChanged();
}

QLineF FabricScene::cableLineBetween(NodeIndex a, NodeIndex b) const
{
    if (m_layout.isBeside(a) || m_layout.isBeside(b)) {
        // A service node's cable: a short level stub from its switch's right edge to it.
        if (m_layout.isBeside(a))
            std::swap(a, b);
        const QRectF sw = m_layout.nodeRect(*m_fabric, a);
        const QRectF node = m_layout.nodeRect(*m_fabric, b);
        const double y = std::clamp(node.center().y(), sw.top(), sw.bottom());
        return QLineF(QPointF(sw.right(), y), QPointF(node.left(), node.center().y()));
    }
    if (m_layout.tiers[std::size_t(a)] < m_layout.tiers[std::size_t(b)])
        std::swap(a, b);
    const bool adjacent = m_layout.tiers[std::size_t(a)] - m_layout.tiers[std::size_t(b)] == 1;
    return QLineF(cableEnd(m_layout, *m_fabric, a, adjacent), cableEnd(m_layout, *m_fabric, b, false));
}

void FabricScene::setWhatIfMarks(const std::vector<LinkIndex> &links, const std::vector<NodeIndex> &nodes)
{
    delete m_whatIfMarks;
    delete m_whatIfShades;
    m_whatIfMarks = nullptr;
    m_whatIfShades = nullptr;
    m_whatIfMarkCount = 0;
    if (!m_fabric || (links.empty() && nodes.empty())) {
        Q_EMIT coloursChanged();
        return;
    }
    const Fabric &f = *m_fabric;
    // A failed cable: dashed red where it runs, crossed at its middle; a failed switch or a
    // removed host: greyed over and crossed. Drawn over everything, the fabric stays as it is.
    QPainterPath crosses;
    std::vector<QLineF> dashes;
    QPainterPath shades;
    const auto cross = [&crosses](const QPointF &centre, double half) {
        crosses.moveTo(centre + QPointF(-half, -half));
        crosses.lineTo(centre + QPointF(half, half));
        crosses.moveTo(centre + QPointF(-half, half));
        crosses.lineTo(centre + QPointF(half, -half));
    };
    for (LinkIndex index : links) {
        if (index < 0 || std::size_t(index) >= f.links().size())
            continue;
        const Link &link = f.links()[std::size_t(index)];
        const QLineF line = cableLineBetween(f.port(link.a).node, f.port(link.b).node);
        dashes.push_back(line);
        cross(cableCentre(index), 6);
        ++m_whatIfMarkCount;
    }
    for (NodeIndex node : nodes) {
        if (node < 0 || std::size_t(node) >= f.nodes().size())
            continue;
        const QRectF r = m_layout.nodeRect(f, node);
        shades.addRect(r);
        cross(r.center(), std::min(r.width(), r.height()) * 0.45);
        ++m_whatIfMarkCount;
    }
    m_whatIfShades = addPath(shades, Qt::NoPen, QColor(0x80, 0x80, 0x80, 0xb0));
    m_whatIfShades->setZValue(kHighlightZ + 0.6);
    QPen crossPen(whatIfColour(), 3, Qt::SolidLine, Qt::RoundCap);
    crossPen.setCosmetic(true);
    m_whatIfMarks = new HighlightItem(whatIfColour(), Qt::DashLine, 2.5, Qt::FlatCap);
    m_whatIfMarks->setLines(std::move(dashes));
    m_whatIfMarks->setZValue(kHighlightZ + 0.7);
    addItem(m_whatIfMarks);
    auto *crossItem = new QGraphicsPathItem(crosses, m_whatIfMarks);
    crossItem->setPen(crossPen);
    Q_EMIT coloursChanged();
}

QPointF FabricScene::cableCentre(LinkIndex link) const
{
    if (!m_fabric || link < 0 || std::size_t(link) >= m_fabric->links().size())
        return {};
    const Link &l = m_fabric->links()[std::size_t(link)];
    return cableLineBetween(m_fabric->port(l.a).node, m_fabric->port(l.b).node).center();
}

QColor FabricScene::whatIfColour()
{
    return QColor(0xc0, 0x10, 0x10);
}

QColor FabricScene::drainedColour()
{
    return QColor(0xd0, 0x80, 0x00);
}

void FabricScene::setDrainedMarks(const std::vector<LinkIndex> &links, const std::vector<NodeIndex> &nodes)
{
    delete m_drainedMarks;
    m_drainedMarks = nullptr;
    m_drainedMarkCount = 0;
    if (!m_fabric || (links.empty() && nodes.empty())) {
        Q_EMIT coloursChanged();
        return;
    }
    const Fabric &f = *m_fabric;
    std::vector<QLineF> dots;
    QPainterPath outlines;
    for (LinkIndex index : links) {
        if (index < 0 || std::size_t(index) >= f.links().size())
            continue;
        const Link &link = f.links()[std::size_t(index)];
        dots.push_back(cableLineBetween(f.port(link.a).node, f.port(link.b).node));
        ++m_drainedMarkCount;
    }
    for (NodeIndex node : nodes) {
        if (node < 0 || std::size_t(node) >= f.nodes().size())
            continue;
        outlines.addRect(m_layout.nodeRect(f, node).adjusted(-3, -3, 3, 3));
        ++m_drainedMarkCount;
    }
    m_drainedMarks = new HighlightItem(drainedColour(), Qt::DotLine, 3, Qt::FlatCap);
    m_drainedMarks->setLines(std::move(dots));
    m_drainedMarks->setZValue(kHighlightZ + 0.5);
    addItem(m_drainedMarks);
    QPen outlinePen(drainedColour(), 3, Qt::DotLine);
    outlinePen.setCosmetic(true);
    auto *outlineItem = new QGraphicsPathItem(outlines, m_drainedMarks);
    outlineItem->setPen(outlinePen);
    Q_EMIT coloursChanged();
}

void FabricScene::setHealthMarks(const HealthMarks &marks)
{
    delete m_healthMarks;
    m_healthMarks = nullptr;
    m_healthMarkCount = 0;
    if (!m_fabric || marks.empty()) {
        Q_EMIT coloursChanged();
        return;
    }
    const Fabric &f = *m_fabric;
    const auto valid = [&f](LinkIndex l) { return l >= 0 && std::size_t(l) < f.links().size(); };
    const auto cableLines = [&](const std::vector<LinkIndex> &links) {
        std::vector<QLineF> lines;
        for (LinkIndex l : links)
            if (valid(l)) {
                const Link &link = f.links()[std::size_t(l)];
                lines.push_back(cableLineBetween(f.port(link.a).node, f.port(link.b).node));
                ++m_healthMarkCount;
            }
        return lines;
    };
    std::vector<QLineF> missing;
    for (const auto &[a, b] : marks.missing)
        if (a >= 0 && b >= 0 && std::size_t(std::max(a, b)) < f.nodes().size()) {
            missing.push_back(cableLineBetween(a, b));
            ++m_healthMarkCount;
        }
    QPainterPath outlines;
    for (NodeIndex node : marks.missingAt)
        if (node >= 0 && std::size_t(node) < f.nodes().size()) {
            outlines.addRect(m_layout.nodeRect(f, node).adjusted(-4, -4, 4, 4));
            ++m_healthMarkCount;
        }
    // Above the drained and what-if marks: a finding is what the operator checked for.
    m_healthMarks = new HighlightItem(missingCableColour(), Qt::DashLine, 3.5, Qt::FlatCap);
    m_healthMarks->setLines(std::move(missing));
    m_healthMarks->setZValue(kHighlightZ + 0.8);
    addItem(m_healthMarks);
    auto *miswired = new HighlightItem(miswiredCableColour(), Qt::SolidLine, 4);
    miswired->setLines(cableLines(marks.miswired));
    miswired->setParentItem(m_healthMarks);
    auto *sick = new HighlightItem(sickCableColour(), Qt::SolidLine, 4);
    sick->setLines(cableLines(marks.sick));
    sick->setParentItem(m_healthMarks);
    QPen outlinePen(missingCableColour(), 3);
    outlinePen.setCosmetic(true);
    auto *outlineItem = new QGraphicsPathItem(outlines, m_healthMarks);
    outlineItem->setPen(outlinePen);
    Q_EMIT coloursChanged();
}

QColor FabricScene::missingCableColour()
{
    return QColor(0xe0, 0x00, 0x00);
}

QColor FabricScene::miswiredCableColour()
{
    return QColor(0xff, 0x8c, 0x00);
}

QColor FabricScene::sickCableColour()
{
    return QColor(0x9c, 0x27, 0xb0);
}

void FabricScene::setEbbBottlenecks(const std::vector<EbbBottleneck> &bottlenecks)
{
    delete m_ebbMarks;
    m_ebbMarks = nullptr;
    m_ebbBottlenecks.clear();
    if (!m_fabric || bottlenecks.empty()) {
        Q_EMIT coloursChanged();
        return;
    }
    const Fabric &f = *m_fabric;
    m_ebbMarks = addPath(QPainterPath(), Qt::NoPen);
    m_ebbMarks->setZValue(kHighlightZ + 0.4);  // below what-if and live marks: those are events
    QPen pen(ebbBottleneckColour(), 5, Qt::SolidLine, Qt::RoundCap);
    pen.setCosmetic(true);
    for (const EbbBottleneck &b : bottlenecks) {
        if (b.from < 0 || std::size_t(b.from) >= f.ports().size() || f.port(b.from).remote == kNoIndex)
            continue;
        const NodeIndex from = f.port(b.from).node;
        const NodeIndex to = f.port(f.port(b.from).remote).node;
        // cableLineBetween puts the higher tier first; the label sits near the sending end, so
        // that the two directions of one cable are told apart.
        QLineF line = cableLineBetween(from, to);
        if (m_layout.tiers[std::size_t(from)] < m_layout.tiers[std::size_t(to)])
            line = QLineF(line.p2(), line.p1());
        const QString share = QLocale().toString(100 * b.share, 'f', 1) + QStringLiteral(" %");
        auto *item = new CableMarkItem(line, m_ebbMarks);
        item->setPen(pen);
        item->setToolTip(tr("eBB bottleneck %1: limits %2 of the sampled streams (%n stream(s)), mean congestion %3", "",
                            int(std::min<std::uint64_t>(b.streams, std::uint64_t(std::numeric_limits<int>::max()))))
                             .arg(directedLinkText(f, b.from).toHtmlEscaped(), share, QLocale().toString(b.meanCongestion, 'f', 2)));
        auto *label = new QGraphicsSimpleTextItem(share, item);
        label->setBrush(ebbBottleneckColour().darker(160));
        label->setFlag(QGraphicsItem::ItemIgnoresTransformations);
        label->setPos(line.pointAt(0.3));
        label->setToolTip(item->toolTip());
        m_ebbBottlenecks.push_back(b);
    }
    Q_EMIT coloursChanged();
}

QStringList FabricScene::ebbBottleneckLabels() const
{
    QStringList labels;
    if (!m_ebbMarks)
        return labels;
    for (QGraphicsItem *line : m_ebbMarks->childItems())
        for (QGraphicsItem *child : line->childItems())
            if (auto *label = dynamic_cast<QGraphicsSimpleTextItem *>(child))
                labels << label->text();
    return labels;
}

QColor FabricScene::ebbBottleneckColour()
{
    return QColor(0xe0, 0x8a, 0x00);  // amber: not the load ramp's, not the what-if red
}

void FabricScene::showRoutingLoads()
{
    takeShownLoads();
    rebuildLinkLayers();
    Q_EMIT coloursChanged();
}

QColor FabricScene::goneCableColour()
{
    return QColor(0xd6, 0x27, 0x28);
}

QColor FabricScene::newCableColour()
{
    return QColor(0x1f, 0x9e, 0x4a);
}

void FabricScene::layOutDocumentFabric()
{
    const quint64 generation = ++m_layoutGeneration;
    clearFabric();
    std::shared_ptr<const Fabric> fabric = m_document->fabric();
    m_layoutPending = fabric != nullptr;
    if (!fabric)
        return;
    if (fabric->nodes().size() < kAsyncLayoutNodes) {
        applyLayout(generation, fabric, computeFabricLayout(*fabric));
        return;
    }
    // The worker reads its own reference to the immutable fabric; the items are made back on
    // the GUI thread, where the scene lives.
    QtConcurrent::run([fabric] { return computeFabricLayout(*fabric); })
        .then(this, [this, generation, fabric](FabricLayout layout) { applyLayout(generation, fabric, std::move(layout)); });
}

void FabricScene::applyLayout(quint64 generation, std::shared_ptr<const Fabric> fabric, FabricLayout layout)
{
    if (generation != m_layoutGeneration || !m_document)
        return;
    // The tenancy first, so that the picture is built in its colours once.
    m_tenancy = m_document->tenancy();
    updatePartitionIndex();
    setFabric(std::move(fabric), std::move(layout));
    showDocumentRouting();
    m_layoutPending = false;
    Q_EMIT coloursChanged();
    Q_EMIT fabricShown();
}

void FabricScene::setShownRouting(ShownRouting routing)
{
    if (routing == m_shownRouting)
        return;
    m_shownRouting = routing;
    showDocumentRouting();
}

void FabricScene::showDocumentRouting()
{
    if (!m_document || !m_fabric)
        return;
    const FabricSession *session = m_document->session();
    // Only a plan that holds is drawn as the proposal: a stale one (the what-if events cleared,
    // the fabric read again, the tenancy edited) is not what Approve would install.
    if (m_shownRouting == ShownRouting::Proposed && session->proposal() && session->proposal()->proposed.tables
        && !session->isProposalStale()) {
        const RoutingSnapshot &proposed = session->proposal()->proposed;
        setRouting(proposed.tables, proposed.metrics);
        return;
    }
    std::shared_ptr<const ForwardingTables> tables = session->currentTables();
    if (!tables) {
        setRouting(nullptr, nullptr);
        return;
    }
    std::shared_ptr<const Metrics> metrics = session->currentMetrics();
    // New metrics are being computed after an edit: keep the colours of the last ones until
    // they come in, rather than flash the cables plain in between.
    if (!metrics && tables == m_tables)
        return;
    setRouting(std::move(tables), std::move(metrics));
}

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
QColor FabricScene::serviceColour() { return QColor(0x9b, 0x8c, 0xc8); }
QColor FabricScene::linkColour() { return QColor(0x70, 0x7a, 0x88, 150); }
QColor FabricScene::selectionColour() { return QColor(0xe8, 0x6a, 0x10); }
QColor FabricScene::returnRouteColour() { return QColor(0xc2, 0x18, 0x7a); }
QColor FabricScene::idleCableColour() { return QColor(0xb8, 0xbe, 0xc6, 120); }
QColor FabricScene::sharedCableColour() { return QColor(0x1a, 0x1a, 0x1a); }
QColor FabricScene::oneEachWayCableColour() { return QColor(0x8a, 0x6d, 0xb0); }

QColor FabricScene::severalPartitionsColour() { return QColor(0x5a, 0x5a, 0x5a); }

QColor FabricScene::loadColour(double fraction)
{
    // Viridis, reversed and without its palest end: idle cables light, the busiest the darkest,
    // which reads as "heavier" on a light background and stays visible at both ends.
    static const QColor stops[] = {QColor(0xb5, 0xde, 0x2b), QColor(0x6e, 0xce, 0x58), QColor(0x35, 0xb7, 0x79),
                                   QColor(0x1f, 0x9e, 0x89), QColor(0x26, 0x82, 0x8e), QColor(0x31, 0x68, 0x8e),
                                   QColor(0x3e, 0x4a, 0x89), QColor(0x48, 0x28, 0x78), QColor(0x44, 0x01, 0x54)};
    constexpr int n = int(sizeof(stops) / sizeof(stops[0]));
    const double x = std::clamp(fraction, 0.0, 1.0) * (n - 1);
    const int i = std::min(n - 2, int(x));
    const double t = x - i;
    const QColor &a = stops[i];
    const QColor &b = stops[i + 1];
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t), float(a.greenF() + (b.greenF() - a.greenF()) * t),
                            float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

QColor FabricScene::partitionColour(int index)
{
    // Tableau's ten, minus its blue (the switches are blue) and grey (idle cables).
    static const QColor hues[] = {QColor(0xf2, 0x8e, 0x2b), QColor(0x59, 0xa1, 0x4f), QColor(0xe1, 0x57, 0x59),
                                  QColor(0xb0, 0x7a, 0xa1), QColor(0x76, 0xb7, 0xb2), QColor(0xed, 0xc9, 0x48),
                                  QColor(0x9c, 0x75, 0x5f), QColor(0xff, 0x9d, 0xa7)};
    constexpr int n = int(sizeof(hues) / sizeof(hues[0]));
    return hues[((index % n) + n) % n];
}

void FabricScene::clearFabric()
{
    clearSelection();
    clear();
    m_nodeItems.clear();
    m_rackItems.clear();
    m_linkLayers.clear();
    m_switchBands.clear();
    m_groups = SwitchGroups();
    m_groupItems.clear();
    m_groupRects.clear();
    m_groupExpanded.clear();
    m_groupOpen.clear();
    m_bundleExpanded.clear();
    m_bundleOfLink.clear();
    m_bundles.clear();
    m_bundleItems.clear();
    m_hottestBundle = -1;
    m_canAggregate = false;
    m_cables.clear();
    m_highlight = nullptr;
    m_returnHighlight = nullptr;
    m_goneMarks = m_newMarks = nullptr;
    m_cablesMarkedGone = m_cablesMarkedNew = 0;
    m_whatIfMarks = nullptr;
    m_whatIfShades = nullptr;
    m_whatIfMarkCount = 0;
    m_drainedMarks = nullptr;
    m_drainedMarkCount = 0;
    m_healthMarks = nullptr;
    m_healthMarkCount = 0;
    m_ebbMarks = nullptr;
    m_ebbBottlenecks.clear();
    m_congestionMarks = m_errorBadges = nullptr;
    m_congestionMarkCount = m_errorBadgeCount = 0;
    m_modelLoadByPort.clear();
    m_measuredLoadByPort.clear();
    m_overlayLoadByPort.clear();
    m_hasLoadOverlay = false;
    m_measuredByPort.clear();
    m_measuredErrors.clear();
    m_fabric.reset();
    m_tables.reset();
    m_metrics.reset();
    m_loadByPort.clear();
    m_partitionsByPort.clear();
    m_maxLoad = 0;
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
    ++m_sceneBuilds;
    const Fabric &f = *m_fabric;
    // Before the first item goes in: a new depth rebuilds the index.
    setBspTreeDepth(bspDepthFor(f.nodes().size() + m_layout.racks.size()));

    m_nodeItems.assign(f.nodes().size(), nullptr);
    std::vector<int> chassisOf(f.nodes().size(), -1);
    for (std::size_t c = 0; c < m_layout.chassis.size(); ++c)
        for (NodeIndex n : m_layout.chassis[c].switches)
            chassisOf[std::size_t(n)] = int(c);
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
        const bool beside = m_layout.isBeside(n);
        if (beside && node.role == NodeRole::Service)
            fill = serviceColour();
        const QString label = mapLabel(node, chassisOf[i] >= 0 ? m_layout.chassis[std::size_t(chassisOf[i])].name : QString());
        auto *item = new NodeItem(n, node.type, m_layout.nodeRect(f, n), fill, label);
        item->setBeside(beside);
        item->setVisible(!m_hostsCollapsed || node.type == NodeType::Switch || beside);  // see showCollapsedHosts
        addItem(item);
        m_nodeItems[i] = item;
    }
    for (std::size_t c = 0; c < m_layout.chassis.size(); ++c) {
        auto *item = new ChassisItem(int(c), m_layout.chassis[c].bounds);
        item->setToolTip(tr("Chassis %1: %n switch(es)", "", int(m_layout.chassis[c].switches.size()))
                             .arg(m_layout.chassis[c].name.toHtmlEscaped()));
        addItem(item);
    }
    for (const FabricLayout::Rack &rack : m_layout.racks) {
        auto *item = new RackItem(rack.leaf, int(rack.hosts.size()), rack.bounds, hostColour());
        item->setZValue(m_hostsCollapsed ? kRackZCollapsed : kRackZExpanded);
        addItem(item);
        m_rackItems.push_back(item);
    }
    buildGroups();
    buildCables();
    rebuildLinkLayers();
    buildRowBands();
    showAggregation();
    updateNodeColours();
    m_highlight = new HighlightItem(selectionColour());
    m_highlight->setZValue(kHighlightZ);
    addItem(m_highlight);
    m_returnHighlight = new HighlightItem(returnRouteColour(), Qt::DashLine);
    m_returnHighlight->setZValue(kHighlightZ + 0.1);
    addItem(m_returnHighlight);
    // Set explicitly: computing it from the items would walk all of them on every change.
    setSceneRect(m_layout.bounds);
}

void FabricScene::buildCables()
{
    const Fabric &f = *m_fabric;
    const FabricLayout &layout = m_layout;
    std::vector<NodeIndex> rackLeafOf(f.nodes().size(), kNoIndex);
    std::vector<std::size_t> trunkOf(f.nodes().size(), 0);
    m_cables.clear();
    for (const FabricLayout::Rack &rack : layout.racks) {
        // One trunk per rack stands for the cables of its hosts: drawn one by one, they would
        // only cross the hosts in the rows above.
        const QPointF from = cableEnd(layout, f, rack.leaf, true);
        Cable trunk;
        trunk.line = QLineF(from, QPointF(from.x(), rack.bounds.top()));
        for (NodeIndex host : rack.hosts) {
            rackLeafOf[std::size_t(host)] = rack.leaf;
            trunkOf[std::size_t(host)] = m_cables.size();
        }
        m_cables.push_back(std::move(trunk));
    }
    for (std::size_t i = 0; i < f.links().size(); ++i) {
        const Link &link = f.links()[i];
        NodeIndex a = f.port(link.a).node;
        NodeIndex b = f.port(link.b).node;
        if (rackLeafOf[std::size_t(a)] == b) {
            m_cables[trunkOf[std::size_t(a)]].links.push_back(LinkIndex(i));
            continue;
        }
        if (rackLeafOf[std::size_t(b)] == a) {
            m_cables[trunkOf[std::size_t(b)]].links.push_back(LinkIndex(i));
            continue;
        }
        int ta = layout.tiers[std::size_t(a)];
        int tb = layout.tiers[std::size_t(b)];
        if (ta < tb) {
            std::swap(a, b);
            std::swap(ta, tb);
        }
        Cable cable;
        cable.links.push_back(LinkIndex(i));
        if (layout.isBeside(a) || layout.isBeside(b)) {
            cable.line = cableLineBetween(a, b);
        } else if (ta - tb == 1 && tb >= 0) {
            cable.line = QLineF(cableEnd(layout, f, a, true), cableEnd(layout, f, b, false));
        } else {
            // Same row, skipped tiers or isolated switches: an arc over the row keeps the cable
            // from running through the boxes between its ends.
            const QPointF p1 = cableEnd(layout, f, a, false);
            const QPointF p2 = cableEnd(layout, f, b, false);
            const double lift = std::clamp(std::abs(p2.x() - p1.x()) * 0.35, 20.0, 400.0);
            cable.line = QLineF(p1, p2);
            cable.curved = true;
            cable.control = QPointF((p1.x() + p2.x()) / 2, std::min(p1.y(), p2.y()) - lift);
        }
        m_cables.push_back(std::move(cable));
    }
}

// Colour keys: plain cables 0; load buckets 1..kLoadBuckets (idle 0); partitions: hue + 1,
// shared kSharedKey, no partition traffic 0.
namespace {
constexpr int kLoadBuckets = 16;
constexpr int kSharedKey = 1 << 20;
// Partitions on the cable, but each direction carries one only: not shared, as the metrics count
// sharing (one directed port carrying two partitions' traffic).
constexpr int kOneEachWayKey = (1 << 20) + 1;
}  // namespace

bool FabricScene::hasOneEachWayCable() const
{
    if (!m_fabric || m_linkColouring != LinkColouring::Partition)
        return false;
    for (std::size_t l = 0; l < m_fabric->links().size(); ++l)
        if (colourKey({LinkIndex(l)}) == kOneEachWayKey)
            return true;
    return false;
}

bool FabricScene::linkShared(LinkIndex link) const
{
    const Fabric &f = *m_fabric;
    const Link &l = f.links()[std::size_t(link)];
    for (PortIndex p : {l.a, l.b}) {
        const NodeIndex n = f.port(p).node;
        std::vector<int> hues;
        if (f.node(n).type != NodeType::Switch)
            hues = hostPartitions(n);
        else if (!m_partitionsByPort.empty())
            hues = m_partitionsByPort[std::size_t(p)];
        std::sort(hues.begin(), hues.end());
        hues.erase(std::unique(hues.begin(), hues.end()), hues.end());
        if (hues.size() >= 2)
            return true;
    }
    return false;
}

double FabricScene::linkLoad(LinkIndex link) const
{
    if (m_loadByPort.empty())
        return 0;
    const Link &l = m_fabric->links()[std::size_t(link)];
    return std::max(m_loadByPort[std::size_t(l.a)], m_loadByPort[std::size_t(l.b)]);
}

std::vector<int> FabricScene::linkPartitions(LinkIndex link) const
{
    const Fabric &f = *m_fabric;
    const Link &l = f.links()[std::size_t(link)];
    std::vector<int> hues;
    // Host cables carry their host's partitions; switch cables the partitions routed over them.
    for (PortIndex p : {l.a, l.b}) {
        const NodeIndex n = f.port(p).node;
        if (f.node(n).type != NodeType::Switch) {
            const std::vector<int> own = hostPartitions(n);
            hues.insert(hues.end(), own.begin(), own.end());
        } else if (!m_partitionsByPort.empty()) {
            const std::vector<int> &routed = m_partitionsByPort[std::size_t(p)];
            hues.insert(hues.end(), routed.begin(), routed.end());
        }
    }
    std::sort(hues.begin(), hues.end());
    hues.erase(std::unique(hues.begin(), hues.end()), hues.end());
    return hues;
}

int FabricScene::colourKey(const std::vector<LinkIndex> &links) const
{
    switch (m_linkColouring) {
    case LinkColouring::Plain:
        return 0;
    case LinkColouring::Load:
    case LinkColouring::Measured: {
        if (m_maxLoad <= 0)
            return 0;
        double load = 0;
        for (LinkIndex l : links)
            load = std::max(load, linkLoad(l));
        if (load <= 0)
            return 0;
        return 1 + std::min(kLoadBuckets - 1, int(load / m_maxLoad * kLoadBuckets));
    }
    case LinkColouring::Partition: {
        std::vector<int> hues;
        bool shared = false;
        for (LinkIndex l : links) {
            const std::vector<int> h = linkPartitions(l);
            hues.insert(hues.end(), h.begin(), h.end());
            shared = shared || linkShared(l);
        }
        std::sort(hues.begin(), hues.end());
        hues.erase(std::unique(hues.begin(), hues.end()), hues.end());
        if (hues.empty())
            return 0;
        if (shared)
            return kSharedKey;
        return hues.size() == 1 ? hues.front() + 1 : kOneEachWayKey;
    }
    }
    return 0;
}

QColor FabricScene::keyColour(int key) const
{
    if (m_linkColouring == LinkColouring::Load || m_linkColouring == LinkColouring::Measured)
        return key == 0 ? idleCableColour() : loadColour((key - 0.5) / kLoadBuckets);
    if (m_linkColouring == LinkColouring::Partition)
        return key == kSharedKey ? sharedCableColour() : key == kOneEachWayKey ? oneEachWayCableColour()
            : key == 0                                                          ? idleCableColour()
                                                                                : partitionColour(key - 1);
    return linkColour();
}

double FabricScene::keyWidth(int key) const
{
    if (key == 0 || m_linkColouring == LinkColouring::Plain)
        return 0;
    return m_linkColouring == LinkColouring::Partition && key == kSharedKey ? 2 : 1.5;
}

QColor FabricScene::hottestLoadColour()
{
    return loadColour((kLoadBuckets - 0.5) / kLoadBuckets);
}

void FabricScene::rebuildLinkLayers()
{
    for (LinkLayerItem *layer : m_linkLayers) {
        removeItem(layer);
        delete layer;
    }
    m_linkLayers.clear();
    if (!m_fabric)
        return;
    ++m_linkLayerRebuilds;
    struct Batch
    {
        std::vector<QLineF> lines;
        QPainterPath curves;
    };
    std::map<int, Batch> batches;
    for (const Cable &cable : m_cables) {
        if (cable.links.empty() || !linkDrawnAlone(cable.links.front()))
            continue;  // a trunk's host cables are all drawn alone, or none
        Batch &batch = batches[colourKey(cable.links)];
        if (cable.curved) {
            batch.curves.moveTo(cable.line.p1());
            batch.curves.quadTo(cable.control, cable.line.p2());
        } else {
            batch.lines.push_back(cable.line);
        }
    }
    for (auto &[key, batch] : batches) {
        auto *item = new LinkLayerItem(std::move(batch.lines), std::move(batch.curves), keyColour(key), keyWidth(key));
        // Busier and shared cables on top of idle ones; zoomed out, the cables of what the
        // operator opened over the bundles.
        item->setZValue((key == 0 ? 0 : 0.5) + (isAggregated() ? kBundleZ + 0.2 : 0));
        addItem(item);
        m_linkLayers.push_back(item);
    }
    recolourBundles();
}

QColor FabricScene::cableColour(LinkIndex link) const
{
    for (const Cable &cable : m_cables) {
        if (std::find(cable.links.begin(), cable.links.end(), link) == cable.links.end())
            continue;
        return keyColour(colourKey(cable.links));
    }
    return {};
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
        auto *band = new RowBandItem(row, reach, switchColour(t, layout.topTier));
        addItem(band);
        m_switchBands.push_back(band);
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
    revealSwitches({node});
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
    m_tracedRoutesShown = false;
    const Fabric &f = *m_fabric;
    const std::vector<NodeIndex> selected = selectedNodes();
    const auto centre = [this](NodeIndex n) { return m_layout.positions[std::size_t(n)]; };
    // Two hosts: their route there (solid) and back (dashed), as the tables forward it.
    if (selected.size() == 2 && m_tables && f.node(selected[0]).type != NodeType::Switch
        && f.node(selected[1]).type != NodeType::Switch) {
        for (int direction = 0; direction < 2; ++direction) {
            const NodeIndex from = selected[std::size_t(direction)];
            const NodeIndex to = selected[std::size_t(1 - direction)];
            std::vector<QLineF> lines;
            for (PortIndex p : routePorts(from, to))
                lines.emplace_back(centre(f.port(p).node), centre(f.port(f.port(p).remote).node));
            (direction == 0 ? m_highlight : m_returnHighlight)->setLines(std::move(lines));
        }
        return;
    }
    std::vector<QLineF> lines;
    for (NodeIndex n : selected) {
        const Node &node = f.node(n);
        for (int p = 1; p <= node.portCount; ++p) {
            const Port &port = f.port(node.firstPort + p);
            if (port.remote != kNoIndex)
                lines.emplace_back(centre(n), centre(f.port(port.remote).node));
        }
    }
    m_highlight->setLines(std::move(lines));
    m_returnHighlight->setLines({});
}

std::vector<PortIndex> FabricScene::routePorts(NodeIndex from, NodeIndex to, bool *complete) const
{
    if (complete)
        *complete = false;
    if (!m_fabric || !m_tables)
        return {};
    const HostRoute route = traceHostRoute(*m_fabric, *m_tables, from, to);
    if (complete)
        *complete = route.arrived;
    return route.outPorts();
}

std::size_t FabricScene::routeHopsShown() const
{
    if (!m_returnHighlight || m_returnHighlight->lineCount() == 0)
        return 0;
    return m_highlight->lineCount() + m_returnHighlight->lineCount();
}

void FabricScene::showTracedRoutes(const std::vector<PortIndex> &current, const std::vector<PortIndex> &proposed)
{
    if (!m_highlight || !m_fabric)
        return;
    const Fabric &f = *m_fabric;
    const auto lines = [&](const std::vector<PortIndex> &ports) {
        std::vector<QLineF> drawn;
        for (PortIndex p : ports)
            drawn.emplace_back(m_layout.positions[std::size_t(f.port(p).node)],
                               m_layout.positions[std::size_t(f.port(f.port(p).remote).node)]);
        return drawn;
    };
    m_highlight->setLines(lines(current));
    m_returnHighlight->setLines(lines(proposed));
    m_tracedRoutesShown = true;
    update();  // the legend names the two lines
}

void FabricScene::selectNodes(const std::vector<NodeIndex> &nodes)
{
    revealSwitches(nodes);
    QSignalBlocker blocker(this);
    clearSelection();
    for (NodeIndex n : nodes)
        if (NodeItem *item = nodeItem(n))
            item->setSelected(true);
    blocker.unblock();
    updateHighlight();
    Q_EMIT selectionChanged();
}

std::vector<Guid> FabricScene::selectedPortGuids() const
{
    std::vector<Guid> guids;
    if (!m_fabric)
        return guids;
    const Fabric &f = *m_fabric;
    for (NodeIndex n : selectedNodes()) {
        const Node &node = f.node(n);
        if (node.type == NodeType::Switch)
            continue;
        for (int p = 1; p <= node.portCount; ++p) {
            const Port &port = f.port(node.firstPort + p);
            if (port.present && port.remote != kNoIndex)
                guids.push_back(port.guid);
        }
    }
    return guids;
}

NodeIndex FabricScene::findNode(const QString &text) const
{
    return m_fabric ? NodeQuery(text).find(*m_fabric) : kNoIndex;
}

void FabricScene::setTenancy(const Tenancy &tenancy)
{
    m_tenancy = tenancy;
    updatePartitionIndex();
    if (!m_fabric)
        return;
    updateNodeColours();
    // Hues follow the partitions' order: the partitions routed over each cable take the new one.
    updateRoutedPartitions();
    // Plain and load colours do not depend on who is in which partition.
    if (m_linkColouring == LinkColouring::Partition)
        rebuildLinkLayers();
    Q_EMIT coloursChanged();
}

void FabricScene::updatePartitionIndex()
{
    m_huePKeys.clear();
    m_portPartitions.clear();
    m_portTenant.clear();
    for (const Partition &p : m_tenancy.partitions) {
        if (!p.pkey || (*p.pkey & kPKeyMask) == kDefaultPKey)
            continue;
        const int hue = int(m_huePKeys.size());
        m_huePKeys.push_back(*p.pkey & kPKeyMask);
        for (const PartitionMember &m : p.members)
            if (m.kind == PartitionMember::Kind::PortGuid)
                m_portPartitions[m.guid].push_back(hue);
    }
    for (std::size_t t = 0; t < m_tenancy.tenants.size(); ++t)
        for (Guid g : m_tenancy.tenants[t].members)
            m_portTenant.emplace(g, int(t));
}

std::vector<int> FabricScene::hostPartitions(NodeIndex host) const
{
    const Fabric &f = *m_fabric;
    const Node &node = f.node(host);
    std::vector<int> hues;
    for (int p = 0; p <= node.portCount; ++p) {
        const Port &port = f.port(node.firstPort + p);
        if (!port.present)
            continue;
        auto it = m_portPartitions.find(port.guid);
        if (it != m_portPartitions.end())
            hues.insert(hues.end(), it->second.begin(), it->second.end());
    }
    std::sort(hues.begin(), hues.end());
    hues.erase(std::unique(hues.begin(), hues.end()), hues.end());
    return hues;
}

int FabricScene::hostTenant(NodeIndex host) const
{
    const Fabric &f = *m_fabric;
    const Node &node = f.node(host);
    for (int p = 0; p <= node.portCount; ++p) {
        const Port &port = f.port(node.firstPort + p);
        auto it = port.present ? m_portTenant.find(port.guid) : m_portTenant.end();
        if (it != m_portTenant.end())
            return it->second;
    }
    return -1;
}

QString FabricScene::partitionLabel(int hue) const
{
    if (hue < 0 || std::size_t(hue) >= m_huePKeys.size())
        return {};
    const Partition *p = m_tenancy.findPartition(m_huePKeys[std::size_t(hue)]);
    return QStringLiteral("%1 (%2)").arg(p ? p->name : QString()).arg(pkeyText(m_huePKeys[std::size_t(hue)]));
}

void FabricScene::updateNodeColours()
{
    if (!m_fabric)
        return;
    const Fabric &f = *m_fabric;
    std::vector<QColor> colours(f.nodes().size());
    for (NodeIndex n : f.endNodes()) {
        QColor fill = f.node(n).type == NodeType::Router ? routerColour() : hostColour();
        if (m_layout.isBeside(n) && f.node(n).role == NodeRole::Service)
            fill = serviceColour();
        if (m_hostColouring == HostColouring::Partition) {
            const std::vector<int> hues = hostPartitions(n);
            if (hues.size() == 1)
                fill = partitionColour(hues.front());
            else if (hues.size() > 1)
                fill = severalPartitionsColour();
        } else if (m_hostColouring == HostColouring::Tenant) {
            const int tenant = hostTenant(n);
            if (tenant >= 0)
                fill = partitionColour(tenant);
        }
        colours[std::size_t(n)] = fill;
        if (NodeItem *item = nodeItem(n))
            item->setFill(fill);
    }
    // A collapsed rack takes the colour most of its hosts have.
    for (std::size_t r = 0; r < m_rackItems.size() && r < m_layout.racks.size(); ++r) {
        std::map<QRgb, int> votes;
        for (NodeIndex h : m_layout.racks[r].hosts)
            ++votes[colours[std::size_t(h)].rgba()];
        QRgb best = hostColour().rgba();
        int most = 0;
        for (const auto &[rgb, count] : votes)
            if (count > most) {
                most = count;
                best = rgb;
            }
        m_rackItems[r]->setFill(QColor::fromRgba(best));
    }
}

void FabricScene::setRouting(std::shared_ptr<const ForwardingTables> tables, std::shared_ptr<const Metrics> metrics)
{
    if (m_fabric && tables == m_tables && metrics == m_metrics)
        return;  // already shown: nothing to recolour
    m_tables = std::move(tables);
    m_metrics = std::move(metrics);
    std::vector<double> loads;
    if (m_fabric && m_metrics) {
        loads.assign(m_fabric->ports().size(), 0.0);
        for (const LinkLoad &l : m_metrics->links)
            if (l.from >= 0 && std::size_t(l.from) < loads.size())
                loads[std::size_t(l.from)] = l.load;
    }
    m_modelLoadByPort = std::move(loads);
    takeShownLoads();
    updateRoutedPartitions();
    rebuildLinkLayers();
    updateHighlight();
    Q_EMIT coloursChanged();
}

void FabricScene::takeCableLoads(std::vector<double> loadByPort)
{
    m_loadByPort = std::move(loadByPort);
    m_maxLoad = 0;
    if (!m_fabric || m_loadByPort.empty()) {
        m_loadByPort.clear();
        return;
    }
    m_loadByPort.resize(m_fabric->ports().size(), 0.0);
    for (double load : m_loadByPort)
        m_maxLoad = std::max(m_maxLoad, load);
}

void FabricScene::takeShownLoads()
{
    if (m_linkColouring == LinkColouring::Measured) {
        // A port under 0.05 % of its link (what the telemetry shows as 0.0 %) is idle: an idle
        // fabric is drawn idle, not as a ramp stretched over the management packets' crumbs.
        constexpr double kIdleUtilisation = 0.0005;
        std::vector<double> loads = m_measuredLoadByPort;
        for (double &load : loads)
            if (load < kIdleUtilisation)
                load = 0;
        takeCableLoads(std::move(loads));
    } else {
        takeCableLoads(m_hasLoadOverlay ? m_overlayLoadByPort : m_modelLoadByPort);
    }
}

void FabricScene::setLoadOverlay(std::vector<double> loadByPort)
{
    m_overlayLoadByPort = std::move(loadByPort);
    m_hasLoadOverlay = true;
    takeShownLoads();
    rebuildLinkLayers();
    Q_EMIT coloursChanged();
}

void FabricScene::clearLoadOverlay()
{
    if (!m_hasLoadOverlay)
        return;
    m_hasLoadOverlay = false;
    m_overlayLoadByPort.clear();
    takeShownLoads();
    rebuildLinkLayers();
    Q_EMIT coloursChanged();
}

void FabricScene::setMeasuredTelemetry(const std::vector<TelemetryRecord> &records)
{
    if (!m_fabric)
        return;
    const std::size_t ports = m_fabric->ports().size();
    m_measuredByPort.assign(ports, MeasuredPort());
    m_measuredErrors.clear();
    m_measuredLoadByPort.assign(ports, 0.0);
    for (const TelemetryRecord &r : records) {
        if (r.portIndex < 0 || std::size_t(r.portIndex) >= ports)
            continue;
        MeasuredPort &measured = m_measuredByPort[std::size_t(r.portIndex)];
        measured.xmitBytes = r.rates.xmitBytes;
        measured.utilisation = r.rates.utilisation;
        measured.xmitWait = r.rates.xmitWait;
        measured.measured = true;
        measured.erred = std::any_of(r.rates.errors.begin(), r.rates.errors.end(), [](const CounterDelta &d) { return d.ok() && d.delta > 0; });
        if (measured.erred)
            m_measuredErrors[r.portIndex] = r.rates.errors;
        if (r.rates.utilisation.ok())
            m_measuredLoadByPort[std::size_t(r.portIndex)] = r.rates.utilisation.value;
    }
    markMeasuredPorts();
    if (m_linkColouring != LinkColouring::Measured)
        return;
    takeShownLoads();
    rebuildLinkLayers();
    Q_EMIT coloursChanged();
}

QColor FabricScene::congestionColour()
{
    return QColor(0xff, 0x7f, 0x0e);
}

QColor FabricScene::errorBadgeColour()
{
    return QColor(0xd6, 0x27, 0x28);
}

void FabricScene::markMeasuredPorts()
{
    delete m_congestionMarks;
    delete m_errorBadges;
    m_congestionMarks = m_errorBadges = nullptr;
    m_congestionMarkCount = m_errorBadgeCount = 0;
    if (!m_fabric || m_measuredByPort.empty())
        return;
    const Fabric &f = *m_fabric;
    std::vector<QRectF> congestion;
    std::vector<QRectF> errors;
    for (std::size_t l = 0; l < f.links().size(); ++l) {
        // A cable folded into a bundle has no end to mark: the bundle's colour speaks for it.
        if (!linkDrawnAlone(LinkIndex(l)))
            continue;
        const Link &link = f.links()[l];
        NodeIndex a = f.port(link.a).node;
        NodeIndex b = f.port(link.b).node;
        PortIndex pa = link.a;
        PortIndex pb = link.b;
        if (m_layout.tiers[std::size_t(a)] < m_layout.tiers[std::size_t(b)]) {
            std::swap(a, b);
            std::swap(pa, pb);
        }
        const bool adjacent = m_layout.tiers[std::size_t(a)] - m_layout.tiers[std::size_t(b)] == 1;
        const QPointF endA = cableEnd(m_layout, f, a, adjacent);
        const QPointF endB = cableEnd(m_layout, f, b, false);
        const double radius = 0.3 * m_layout.nodeRect(f, a).height();
        // The mark sits on the cable just off the end of the port it is about.
        for (const auto &[port, from, to] : {std::tuple{pa, endA, endB}, std::tuple{pb, endB, endA}}) {
            const MeasuredPort &rates = m_measuredByPort[std::size_t(port)];
            if (!rates.measured)
                continue;
            const QPointF at = from + 0.15 * (to - from);
            if (rates.xmitWait.ok() && rates.xmitWait.value > 0) {
                congestion.emplace_back(at - QPointF(radius, radius), QSizeF(2 * radius, 2 * radius));
                ++m_congestionMarkCount;
            }
            if (rates.erred) {
                errors.push_back(QRectF(at - QPointF(radius, radius), QSizeF(2 * radius, 2 * radius)).translated(radius * 1.5, 0));
                ++m_errorBadgeCount;
            }
        }
    }
    const bool shown = m_linkColouring == LinkColouring::Measured;
    QPen pen(congestionColour(), 2.5);
    pen.setCosmetic(true);
    m_congestionMarks = new MarksItem(std::move(congestion), MarksItem::Shape::Ring, pen);
    addItem(m_congestionMarks);
    m_congestionMarks->setZValue(kHighlightZ + 0.4);
    m_congestionMarks->setVisible(shown);
    QPen badgePen(errorBadgeColour().darker(130), 1);
    badgePen.setCosmetic(true);
    m_errorBadges = new MarksItem(std::move(errors), MarksItem::Shape::Square, badgePen, errorBadgeColour());
    addItem(m_errorBadges);
    m_errorBadges->setZValue(kHighlightZ + 0.45);
    m_errorBadges->setVisible(shown);
}

QString FabricScene::measuredCableText(const Link &link) const
{
    const Fabric &f = *m_fabric;
    const QLocale locale;
    const auto end = [&f](PortIndex p) {
        const Node &node = f.node(f.port(p).node);
        return QStringLiteral("%1 [%2]").arg((node.description.isEmpty() ? node.name : node.description).toHtmlEscaped()).arg(f.port(p).number);
    };
    const auto figure = [&locale](const CounterRate &rate, double scale, int decimals) {
        return rate.ok() ? locale.toString(rate.value * scale, 'f', decimals) : QStringLiteral("(%1)").arg(counterGapName(rate.gap));
    };
    QString text;
    for (const auto &[from, to] : {std::pair{link.a, link.b}, std::pair{link.b, link.a}}) {
        const MeasuredPort &rates = m_measuredByPort[std::size_t(from)];
        if (!rates.measured)
            continue;
        text += QStringLiteral("<br>") + tr("Measured %1 → %2: %3 MB/s, %4 % of the link, xmit wait %5/s").arg(end(from), end(to), figure(rates.xmitBytes, 1e-6, 1), figure(rates.utilisation, 100, 1), figure(rates.xmitWait, 1, 0));
        const auto deltas = m_measuredErrors.find(from);
        QStringList errors;
        for (int e = 0; deltas != m_measuredErrors.end() && e < kPortErrorCounterCount; ++e) {
            const CounterDelta &d = deltas->second[std::size_t(e)];
            if (d.ok() && d.delta > 0)
                errors << QStringLiteral("%1 +%2").arg(portErrorCounterName(PortErrorCounter(e))).arg(d.delta);
        }
        if (!errors.isEmpty())
            text += QStringLiteral("<br>") + tr("Errors at %1: %2").arg(end(from), errors.join(QStringLiteral(", ")));
    }
    return text;
}

void FabricScene::setCableLoads(std::vector<double> loadByPort)
{
    takeCableLoads(std::move(loadByPort));
    rebuildLinkLayers();
    Q_EMIT coloursChanged();
}

void FabricScene::updateRoutedPartitions()
{
    m_partitionsByPort.clear();
    if (!m_fabric || !m_metrics)
        return;
    m_partitionsByPort.assign(m_fabric->ports().size(), {});
    std::map<int, int> hueOfMetricsPartition;
    for (std::size_t i = 0; i < m_metrics->partitions.size(); ++i) {
        const auto it = std::find(m_huePKeys.begin(), m_huePKeys.end(), m_metrics->partitions[i].pkey & kPKeyMask);
        if (it != m_huePKeys.end())
            hueOfMetricsPartition[int(i)] = int(it - m_huePKeys.begin());
    }
    for (const LinkLoad &l : m_metrics->links) {
        if (l.from < 0 || std::size_t(l.from) >= m_partitionsByPort.size())
            continue;
        for (int p : l.partitions)
            if (auto it = hueOfMetricsPartition.find(p); it != hueOfMetricsPartition.end())
                m_partitionsByPort[std::size_t(l.from)].push_back(it->second);
    }
}

void FabricScene::setLinkColouring(LinkColouring colouring)
{
    if (colouring == m_linkColouring)
        return;
    const bool measuredBefore = m_linkColouring == LinkColouring::Measured;
    m_linkColouring = colouring;
    if (measuredBefore != (colouring == LinkColouring::Measured)) {
        takeShownLoads();
        for (MarksItem *marks : {m_congestionMarks, m_errorBadges})
            if (marks)
                marks->setVisible(colouring == LinkColouring::Measured);
    }
    rebuildLinkLayers();
    Q_EMIT coloursChanged();
}

void FabricScene::setHostColouring(HostColouring colouring)
{
    if (colouring == m_hostColouring)
        return;
    m_hostColouring = colouring;
    updateNodeColours();
    Q_EMIT coloursChanged();
}

std::vector<FabricScene::Swatch> FabricScene::colourSwatches() const
{
    std::vector<Swatch> swatches;
    constexpr std::size_t kMaxHues = 8;  // more than that and the hues repeat anyway
    if (m_hostColouring == HostColouring::Partition || m_linkColouring == LinkColouring::Partition) {
        for (std::size_t i = 0; i < m_huePKeys.size() && i < kMaxHues; ++i)
            swatches.push_back({partitionColour(int(i)), partitionLabel(int(i))});
        if (m_huePKeys.size() > kMaxHues)
            swatches.push_back({QColor(Qt::transparent), tr("… %n more partition(s), hues repeat", nullptr, int(m_huePKeys.size() - kMaxHues))});
    }
    if (m_hostColouring == HostColouring::Partition)
        swatches.push_back({severalPartitionsColour(), tr("Host in several partitions")});
    if (m_hostColouring == HostColouring::Tenant) {
        for (std::size_t i = 0; i < m_tenancy.tenants.size() && i < kMaxHues; ++i)
            swatches.push_back({partitionColour(int(i)), tr("Tenant %1").arg(m_tenancy.tenants[i].name)});
    }
    if (m_hostColouring != HostColouring::Plain)
        swatches.push_back({hostColour(), tr("Host in no partition")});
    if (m_linkColouring == LinkColouring::Partition) {
        swatches.push_back({sharedCableColour(), tr("Cable shared by partitions"), true, 2});
        if (hasOneEachWayCable())
            swatches.push_back({oneEachWayCableColour(), tr("One partition each way (not shared)"), true});
        swatches.push_back({idleCableColour(), tr("Cable without partition traffic"), true});
    }
    if (m_linkColouring == LinkColouring::Load || m_linkColouring == LinkColouring::Measured)
        swatches.push_back({idleCableColour(), tr("Idle cable"), true});
    if (m_linkColouring == LinkColouring::Measured) {
        if (m_maxLoad > 0)
            swatches.push_back({hottestLoadColour(), tr("Busiest: %1 % of the link").arg(QLocale().toString(m_maxLoad * 100, 'f', 1)), true, 2});
        if (m_congestionMarkCount > 0)
            swatches.push_back({congestionColour(), tr("PortXmitWait rising (ring at the port)"), true, 2.5});
        if (m_errorBadgeCount > 0)
            swatches.push_back({errorBadgeColour(), tr("Port with new errors")});
    }
    if (isAggregated()) {
        swatches.push_back({switchColour(1, m_layout.topTier).lighter(165), tr("Pod or group of switches (double-click to open)")});
        if (m_hottestBundle >= 0) {
            const Bundle &hot = m_bundles[std::size_t(m_hottestBundle)];
            swatches.push_back({bundleColour(m_hottestBundle), tr("Hottest bundle: %1 ↔ %2").arg(groupName(hot.upper), groupName(hot.lower)), true, 4});
        }
    }
    if (m_cablesMarkedGone > 0)
        swatches.push_back({goneCableColour(), tr("Cable gone since discovery (dashed)"), true, 2.5});
    if (m_cablesMarkedNew > 0)
        swatches.push_back({newCableColour(), tr("Cable new since discovery"), true, 2.5});
    if (m_whatIfMarkCount > 0)
        swatches.push_back({whatIfColour(), tr("What if: failed or removed (crossed)"), true, 2.5});
    if (m_drainedMarkCount > 0)
        swatches.push_back({drainedColour(), tr("Drained for maintenance: up, no route on it (dotted)"), true, 3});
    return swatches;
}

void FabricScene::setHostsCollapsed(bool collapsed)
{
    if (collapsed == m_hostsCollapsed)
        return;
    m_hostsCollapsed = collapsed;
    showCollapsedHosts();
    for (RackItem *rack : m_rackItems)
        rack->setZValue(collapsed ? kRackZCollapsed : kRackZExpanded);
}

void FabricScene::showCollapsedHosts()
{
    // Collapsed, a host is drawn only when selected (its rack stands in for it otherwise), so
    // the others leave the picture: 39,366 hosts cost a paint each at every frame otherwise,
    // even ones that draw nothing. Hidden items are not in the index's answers.
    if (!m_fabric)
        return;
    for (NodeIndex n : m_fabric->endNodes())
        if (NodeItem *item = nodeItem(n))
            item->setVisible(!m_hostsCollapsed || item->isSelected() || item->isBeside());
}

void FabricScene::selectHostsIn(const QPainterPath &area)
{
    if (!m_fabric)
        return;
    const QRectF bounds = area.boundingRect();
    bool changed = false;
    QSignalBlocker blocker(this);
    for (const FabricLayout::Rack &rack : m_layout.racks) {
        if (!rack.bounds.intersects(bounds))
            continue;
        for (NodeIndex host : rack.hosts) {
            NodeItem *item = nodeItem(host);
            if (!item || item->isSelected() || !area.intersects(m_layout.nodeRect(*m_fabric, host)))
                continue;
            item->setVisible(true);
            item->setSelected(true);
            changed = true;
        }
    }
    blocker.unblock();
    if (changed)
        Q_EMIT selectionChanged();
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
        type = node.role == NodeRole::Service ? tr("Service node") : tr("Host");
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
    QString text = tr("<b>%1</b> (%2)<br>GUID %3<br>LID %4<br>%5 ports, %6 cabled<br>Tier %7")
                       .arg(title, type, guidText(node.guid), lid ? QString::number(lid) : tr("none"))
                       .arg(node.portCount)
                       .arg(cabled)
                       .arg(tier >= 0 ? QString::number(tier) : tr("none (no path to a host)"));
    if (node.type != NodeType::Switch) {
        QStringList names;
        for (int hue : hostPartitions(n))
            names << partitionLabel(hue).toHtmlEscaped();
        text += QStringLiteral("<br>") + tr("Partitions: %1").arg(names.isEmpty() ? tr("none besides the default") : names.join(QStringLiteral(", ")));
        const int tenant = hostTenant(n);
        if (tenant >= 0)
            text += QStringLiteral("<br>") + tr("Tenant: %1").arg(m_tenancy.tenants[std::size_t(tenant)].name.toHtmlEscaped());
    }
    if (!m_loadByPort.empty()) {
        // The node's own cables, busiest direction out and in.
        const QLocale locale;
        for (int p = 1; p <= node.portCount; ++p) {
            const PortIndex port = node.firstPort + p;
            const PortIndex remote = f.port(port).remote;
            if (remote == kNoIndex)
                continue;
            const Node &other = f.node(f.port(remote).node);
            text += QStringLiteral("<br>") + tr("Port %1 → %2: load out %3, in %4")
                                                 .arg(p)
                                                 .arg((other.description.isEmpty() ? other.name : other.description).toHtmlEscaped())
                                                 .arg(locale.toString(m_loadByPort[std::size_t(port)], 'g', 4))
                                                 .arg(locale.toString(m_loadByPort[std::size_t(remote)], 'g', 4));
            if (p >= 8 && node.portCount > 9) {
                text += QStringLiteral("<br>") + tr("… and %n more port(s)", nullptr, node.portCount - p);
                break;
            }
        }
    }
    return text;
}

LinkIndex FabricScene::cableAt(const QPointF &pos, double reach) const
{
    if (!m_fabric)
        return kNoIndex;
    const Cable *best = nullptr;
    double bestDistance = reach;
    for (const Cable &cable : m_cables) {
        if (cable.links.size() != 1 || cable.curved)
            continue;  // trunks and arcs: their hosts and nodes say more
        if (!linkDrawnAlone(cable.links.front()))
            continue;  // its bundle answers
        const double distance = distanceToSegment(pos, cable.line);
        if (distance < bestDistance) {
            bestDistance = distance;
            best = &cable;
        }
    }
    return best ? best->links.front() : kNoIndex;
}

QString FabricScene::cableToolTipAt(const QPointF &pos, double reach) const
{
    const LinkIndex found = cableAt(pos, reach);
    if (found == kNoIndex)
        return {};
    const Fabric &f = *m_fabric;
    const Link &link = f.links()[std::size_t(found)];
    const auto end = [&f](PortIndex p) {
        const Node &node = f.node(f.port(p).node);
        return QStringLiteral("%1 [%2]").arg((node.description.isEmpty() ? node.name : node.description).toHtmlEscaped()).arg(f.port(p).number);
    };
    QString text = tr("<b>Cable</b> %1 ↔ %2").arg(end(link.a), end(link.b));
    if (!m_loadByPort.empty()) {
        const QLocale locale;
        text += QStringLiteral("<br>") + tr("Load %1 → %2: %3").arg(end(link.a), end(link.b), locale.toString(m_loadByPort[std::size_t(link.a)], 'g', 4));
        text += QStringLiteral("<br>") + tr("Load %1 → %2: %3").arg(end(link.b), end(link.a), locale.toString(m_loadByPort[std::size_t(link.b)], 'g', 4));
    } else {
        text += QStringLiteral("<br>") + tr("No routing to measure load with");
    }
    if (!m_measuredByPort.empty())
        text += measuredCableText(link);
    QStringList names;
    for (int hue : linkPartitions(found))
        names << partitionLabel(hue).toHtmlEscaped();
    text += QStringLiteral("<br>") + tr("Partitions: %1").arg(names.isEmpty() ? tr("none") : names.join(QStringLiteral(", ")));
    return text;
}

void FabricScene::helpEvent(QGraphicsSceneHelpEvent *event)
{
    // Tooltips are made when asked for: thirteen thousand of them up front would cost time and
    // memory for the few the operator ever hovers.
    QString text;
    const QList<QGraphicsItem *> found = items(event->scenePos(), Qt::IntersectsItemShape, Qt::DescendingOrder);
    for (QGraphicsItem *item : found) {
        if (!item->toolTip().isEmpty()) {  // items of other views that carry their own (VM badges)
            text = item->toolTip();
            break;
        }
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
        if (item->type() == GroupItem::Type) {
            text = groupToolTip(static_cast<GroupItem *>(item)->group());
            break;
        }
    }
    if (text.isEmpty()) {
        const auto *view = event->widget() ? qobject_cast<const QGraphicsView *>(event->widget()->parentWidget()) : nullptr;
        const double scale = view ? view->transform().m11() : 1.0;
        const double reach = 5.0 / std::max(scale, 1e-6);
        text = bundleToolTip(bundleAt(event->scenePos(), reach));
        if (text.isEmpty())
            text = cableToolTipAt(event->scenePos(), reach);
    }
    if (text.isEmpty()) {
        QToolTip::hideText();
        event->ignore();
        return;
    }
    QToolTip::showText(event->screenPos(), text, event->widget());
    event->accept();
}

// The zoomed-out picture of a big fabric: groups and bundles (see FabricScene.h).

void FabricScene::buildGroups()
{
    const Fabric &f = *m_fabric;
    if (summarize(f).switchLinks < kAggregateMinCables)
        return;
    // Bands are cut along the picture's rows, so that each is one stretch of its row.
    std::vector<NodeIndex> order;
    for (int t = m_layout.topTier; t >= 1; --t)
        order.insert(order.end(), m_layout.rows[std::size_t(t)].begin(), m_layout.rows[std::size_t(t)].end());
    order.insert(order.end(), m_layout.isolatedSwitches.begin(), m_layout.isolatedSwitches.end());
    std::vector<std::vector<NodeIndex>> chassis;
    for (const FabricLayout::Chassis &c : m_layout.chassis)
        chassis.push_back(c.switches);
    m_groups = groupSwitches(f, order, chassis);
    if (m_groups.groups.size() < 2) {
        m_groups = SwitchGroups();
        return;
    }
    m_canAggregate = true;
    m_groupExpanded.assign(m_groups.groups.size(), 0);
    m_groupOpen.assign(m_groups.groups.size(), 0);
    m_bundleOfLink.assign(f.links().size(), -1);
    std::vector<QRectF> rects;
    for (std::size_t g = 0; g < m_groups.groups.size(); ++g) {
        const SwitchGroups::Group &group = m_groups.groups[g];
        QRectF rect;
        for (NodeIndex n : group.switches)
            rect |= m_layout.nodeRect(f, n);
        rect.adjust(-6, -6, 6, 6);
        if (group.kind == SwitchGroups::Group::Kind::Chassis
            && std::size_t(group.ordinal) < m_layout.chassis.size()) {  // its frame, one block
            rects.push_back(m_layout.chassis[std::size_t(group.ordinal)].bounds);
            continue;
        }
        // A band is one row of boxes, a hairline zoomed out: give it the height of a block,
        // grown away from the racks (leaves) or from the rows above (the others).
        const double blockHeight = m_layout.topTier >= 2 ? 0.15 * (m_layout.rowY[1] - m_layout.rowY[2]) : 0;
        if (rect.height() < blockHeight) {
            if (group.highestTier == 1)
                rect.setTop(rect.bottom() - blockHeight);
            else
                rect.setBottom(rect.top() + blockHeight);
        }
        rects.push_back(rect);
    }
    std::map<std::pair<int, int>, std::size_t> bundleOf;
    for (std::size_t i = 0; i < f.links().size(); ++i) {
        const Link &link = f.links()[i];
        const int ga = m_groups.groupOfNode[std::size_t(f.port(link.a).node)];
        const int gb = m_groups.groupOfNode[std::size_t(f.port(link.b).node)];
        if (ga < 0 || gb < 0 || ga == gb)
            continue;
        const auto key = std::minmax(ga, gb);
        auto [it, added] = bundleOf.emplace(key, m_bundles.size());
        if (added) {
            Bundle bundle;
            const SwitchGroups::Group &first = m_groups.groups[std::size_t(key.first)];
            const SwitchGroups::Group &second = m_groups.groups[std::size_t(key.second)];
            const bool firstAbove = first.highestTier >= second.highestTier;
            bundle.upper = firstAbove ? key.first : key.second;
            bundle.lower = firstAbove ? key.second : key.first;
            const QRectF &up = rects[std::size_t(bundle.upper)];
            const QRectF &low = rects[std::size_t(bundle.lower)];
            bundle.line = up.bottom() <= low.top() ? QLineF(QPointF(up.center().x(), up.bottom()), QPointF(low.center().x(), low.top()))
                                                   : QLineF(up.center(), low.center());
            m_bundles.push_back(std::move(bundle));
        }
        m_bundles[it->second].links.push_back(LinkIndex(i));
        m_bundleOfLink[i] = int(it->second);
    }
    m_bundleExpanded.assign(m_bundles.size(), 0);
    m_groupRects = std::move(rects);
}

void FabricScene::buildAggregateItems()
{
    for (std::size_t g = 0; g < m_groups.groups.size(); ++g) {
        const SwitchGroups::Group &group = m_groups.groups[g];
        const int tier = std::max(1, group.highestTier);
        const QColor fill = group.kind == SwitchGroups::Group::Kind::Chassis
                                ? ChassisItem::frameColour().lighter(150)
                                : switchColour(tier, m_layout.topTier).lighter(group.kind == SwitchGroups::Group::Kind::Pod ? 165 : 130);
        auto *item = new GroupItem(int(g), m_groupRects[g], fill, groupName(int(g)));
        if (group.kind == SwitchGroups::Group::Kind::Chassis) {
            // A chassis block shows its rows: spines over line cards.
            std::map<int, QRectF> rows;
            for (NodeIndex n : group.switches)
                rows[m_layout.tiers[std::size_t(n)]] |= m_layout.nodeRect(*m_fabric, n);
            std::vector<GroupItem::Stripe> stripes;
            for (const auto &[t, row] : rows)
                stripes.push_back({row, switchColour(t, m_layout.topTier)});
            item->setStripes(std::move(stripes));
        }
        addItem(item);
        m_groupItems.push_back(item);
    }
    for (std::size_t b = 0; b < m_bundles.size(); ++b) {
        auto *item = new BundleItem(int(b), m_bundles[b].line);
        item->setZValue(kBundleZ);
        addItem(item);
        m_bundleItems.push_back(item);
    }
    recolourBundles();
}

QString FabricScene::groupName(int group) const
{
    if (group < 0 || std::size_t(group) >= m_groups.groups.size())
        return {};
    const SwitchGroups::Group &g = m_groups.groups[std::size_t(group)];
    if (g.kind == SwitchGroups::Group::Kind::Pod)
        return tr("Pod %1").arg(g.ordinal + 1);
    if (g.kind == SwitchGroups::Group::Kind::Chassis && std::size_t(g.ordinal) < m_layout.chassis.size())
        return tr("Chassis %1").arg(m_layout.chassis[std::size_t(g.ordinal)].name);
    QString tier;
    if (g.highestTier < 1)
        tier = tr("Unreached switches");
    else if (g.highestTier == 1)
        tier = tr("Leaves");
    else if (g.highestTier == m_layout.topTier)
        tier = tr("Roots");
    else
        tier = tr("Tier %1").arg(g.highestTier);
    return tr("%1, group %2").arg(tier).arg(g.ordinal + 1);
}

bool FabricScene::linkDrawnAlone(LinkIndex link) const
{
    if (!isAggregated())
        return true;
    const Link &l = m_fabric->links()[std::size_t(link)];
    const int ga = m_groups.groupOfNode[std::size_t(m_fabric->port(l.a).node)];
    const int gb = m_groups.groupOfNode[std::size_t(m_fabric->port(l.b).node)];
    // Host cables stay (their racks are drawn anyway); switch cables show with an open group.
    return ga < 0 || gb < 0 || m_groupExpanded[std::size_t(ga)] || m_groupExpanded[std::size_t(gb)]
        || isBundleExpanded(m_bundleOfLink[std::size_t(link)]);
}

void FabricScene::revealSwitches(const std::vector<NodeIndex> &nodes)
{
    // A collapsed host comes out from behind its rack to be selected (and drawn as selected).
    for (NodeIndex n : nodes)
        if (NodeItem *item = nodeItem(n); item && item->nodeType() != NodeType::Switch)
            item->setVisible(true);
    // A hidden item cannot be selected: a switch chosen elsewhere (the node table) comes out
    // from behind its block.
    bool changed = false;
    for (NodeIndex n : nodes) {
        const int g = m_canAggregate && n >= 0 && std::size_t(n) < m_groups.groupOfNode.size() ? m_groups.groupOfNode[std::size_t(n)] : -1;
        if (g >= 0 && !areGroupSwitchesShown(g)) {
            m_groupOpen[std::size_t(g)] = 1;
            changed = true;
        }
    }
    if (changed)
        showAggregation();
}

bool FabricScene::isCableDrawn(LinkIndex link) const
{
    return m_fabric && link >= 0 && std::size_t(link) < m_fabric->links().size() && linkDrawnAlone(link);
}

bool FabricScene::isGroupExpanded(int group) const
{
    return group >= 0 && std::size_t(group) < m_groupExpanded.size() && m_groupExpanded[std::size_t(group)];
}

bool FabricScene::isBundleExpanded(int bundle) const
{
    return bundle >= 0 && std::size_t(bundle) < m_bundleExpanded.size() && m_bundleExpanded[std::size_t(bundle)];
}

bool FabricScene::areGroupSwitchesShown(int group) const
{
    return !isAggregated() || isGroupExpanded(group) || (group >= 0 && std::size_t(group) < m_groupOpen.size() && m_groupOpen[std::size_t(group)]);
}

bool FabricScene::isBundleShown(int bundle) const
{
    return bundle >= 0 && std::size_t(bundle) < m_bundles.size() && isAggregated() && !m_bundleExpanded[std::size_t(bundle)]
        && !isGroupExpanded(m_bundles[std::size_t(bundle)].upper) && !isGroupExpanded(m_bundles[std::size_t(bundle)].lower);
}

QColor FabricScene::bundleColour(int bundle) const
{
    if (bundle < 0 || std::size_t(bundle) >= m_bundleItems.size())
        return {};
    return m_bundleItems[std::size_t(bundle)]->colour();
}

void FabricScene::showAggregation()
{
    if (!m_canAggregate)
        return;
    const bool aggregated = isAggregated();
    // Made the first time they are needed: a fabric never zoomed out has none.
    if (aggregated && m_groupItems.empty())
        buildAggregateItems();
    for (std::size_t g = 0; g < m_groupItems.size(); ++g)
        m_groupItems[g]->setVisible(!areGroupSwitchesShown(int(g)));
    for (std::size_t b = 0; b < m_bundleItems.size(); ++b)
        m_bundleItems[b]->setVisible(isBundleShown(int(b)));
    for (NodeIndex n : m_fabric->switches()) {
        const int g = m_groups.groupOfNode[std::size_t(n)];
        if (NodeItem *item = nodeItem(n))
            item->setVisible(g < 0 || areGroupSwitchesShown(g));
    }
    for (RowBandItem *band : m_switchBands)
        band->setVisible(!aggregated);
    if (!m_measuredByPort.empty())
        markMeasuredPorts();  // on the cables drawn now
}

void FabricScene::recolourBundles()
{
    m_hottestBundle = -1;
    if (!m_canAggregate)
        return;
    double hottest = 0;
    for (std::size_t b = 0; b < m_bundles.size(); ++b) {
        Bundle &bundle = m_bundles[b];
        double worst = 0;
        double sum = 0;
        for (LinkIndex l : bundle.links) {
            const double load = linkLoad(l);
            worst = std::max(worst, load);
            sum += load;
        }
        bundle.worstLoad = worst;
        bundle.meanLoad = bundle.links.empty() ? 0 : sum / double(bundle.links.size());
        if (worst > hottest) {
            hottest = worst;
            m_hottestBundle = int(b);
        }
    }
    const bool load = (m_linkColouring == LinkColouring::Load || m_linkColouring == LinkColouring::Measured) && m_maxLoad > 0;
    // With something opened, the other bundles step back so that its cables stand out.
    const bool opened = std::find(m_bundleExpanded.begin(), m_bundleExpanded.end(), 1) != m_bundleExpanded.end()
        || std::find(m_groupExpanded.begin(), m_groupExpanded.end(), 1) != m_groupExpanded.end();
    for (std::size_t b = 0; b < m_bundleItems.size(); ++b) {
        const Bundle &bundle = m_bundles[b];
        const int key = colourKey(bundle.links);
        // Wider for busier bundles (load), or for more cables (otherwise): the eye goes there.
        double width = 1.0 + 0.5 * std::log2(double(bundle.links.size()));
        if (load)
            width = key == 0 ? 1.0 : 1.5 + 4.5 * bundle.worstLoad / m_maxLoad;
        else
            width += keyWidth(key) / 2;
        const bool hottestHere = load && int(b) == m_hottestBundle;
        QColor colour = keyColour(key);
        if (opened)
            colour.setAlpha(std::min(colour.alpha(), 70));
        m_bundleItems[b]->setLook(colour, hottestHere ? width + 2 : width, hottestHere);
        m_bundleItems[b]->setZValue(hottestHere ? kHottestBundleZ : kBundleZ);
    }
    if (!load)
        m_hottestBundle = -1;
}

void FabricScene::setAggregated(bool aggregated)
{
    if (aggregated == m_aggregated)
        return;
    m_aggregated = aggregated;
    if (!m_canAggregate)
        return;
    if (aggregated) {
        std::fill(m_groupExpanded.begin(), m_groupExpanded.end(), 0);
        std::fill(m_groupOpen.begin(), m_groupOpen.end(), 0);
        std::fill(m_bundleExpanded.begin(), m_bundleExpanded.end(), 0);
    }
    showAggregation();
    rebuildLinkLayers();
    Q_EMIT coloursChanged();
}

void FabricScene::expandGroup(int group)
{
    if (!isAggregated() || group < 0 || std::size_t(group) >= m_groupExpanded.size() || m_groupExpanded[std::size_t(group)])
        return;
    m_groupExpanded[std::size_t(group)] = 1;
    showAggregation();
    rebuildLinkLayers();
    Q_EMIT coloursChanged();
}

void FabricScene::expandBundle(int bundle)
{
    if (!isAggregated() || bundle < 0 || std::size_t(bundle) >= m_bundles.size())
        return;
    m_bundleExpanded[std::size_t(bundle)] = 1;
    m_groupOpen[std::size_t(m_bundles[std::size_t(bundle)].upper)] = 1;
    m_groupOpen[std::size_t(m_bundles[std::size_t(bundle)].lower)] = 1;
    showAggregation();
    rebuildLinkLayers();
    Q_EMIT coloursChanged();
}

int FabricScene::bundleAt(const QPointF &pos, double reach) const
{
    // The hottest bundle lies on top of the others: where it is drawn, it is what is pointed at.
    if (isBundleShown(m_hottestBundle) && distanceToSegment(pos, m_bundles[std::size_t(m_hottestBundle)].line) <= reach)
        return m_hottestBundle;
    int best = -1;
    double bestDistance = reach;
    for (std::size_t b = 0; b < m_bundles.size(); ++b) {
        if (!isBundleShown(int(b)))
            continue;
        const double distance = distanceToSegment(pos, m_bundles[b].line);
        if (distance < bestDistance) {
            bestDistance = distance;
            best = int(b);
        }
    }
    return best;
}

int FabricScene::groupAt(const QPointF &pos) const
{
    for (std::size_t g = 0; g < m_groupItems.size(); ++g)
        if (m_groupItems[g]->isVisible() && m_groupItems[g]->boundingRect().contains(pos))
            return int(g);
    return -1;
}

QString FabricScene::bundleToolTip(int bundle) const
{
    if (bundle < 0 || std::size_t(bundle) >= m_bundles.size())
        return {};
    const Bundle &b = m_bundles[std::size_t(bundle)];
    const QLocale locale;
    QString text = tr("<b>Bundle</b> %1 ↔ %2").arg(groupName(b.upper).toHtmlEscaped(), groupName(b.lower).toHtmlEscaped());
    text += QStringLiteral("<br>") + tr("%n cable(s)", nullptr, int(b.links.size()));
    if (!m_loadByPort.empty())
        text += QStringLiteral("<br>") + tr("Load: worst %1, mean %2 (busier direction of each cable)").arg(locale.toString(b.worstLoad, 'g', 4), locale.toString(b.meanLoad, 'g', 4));
    if (int(bundle) == m_hottestBundle)
        text += QStringLiteral("<br>") + tr("The hottest bundle");
    std::vector<int> hues;
    for (LinkIndex l : b.links) {
        const std::vector<int> h = linkPartitions(l);
        hues.insert(hues.end(), h.begin(), h.end());
    }
    std::sort(hues.begin(), hues.end());
    hues.erase(std::unique(hues.begin(), hues.end()), hues.end());
    QStringList names;
    for (int hue : hues)
        names << partitionLabel(hue).toHtmlEscaped();
    text += QStringLiteral("<br>") + tr("Partitions: %1").arg(names.isEmpty() ? tr("none") : names.join(QStringLiteral(", ")));
    text += QStringLiteral("<br>") + tr("Double-click to show its cables");
    return text;
}

QString FabricScene::groupToolTip(int group) const
{
    if (group < 0 || std::size_t(group) >= m_groups.groups.size())
        return {};
    const SwitchGroups::Group &g = m_groups.groups[std::size_t(group)];
    std::size_t bundles = 0;
    std::size_t cables = 0;
    for (const Bundle &b : m_bundles)
        if (b.upper == group || b.lower == group) {
            ++bundles;
            cables += b.links.size();
        }
    QString text = QStringLiteral("<b>%1</b><br>").arg(groupName(group).toHtmlEscaped());
    text += g.lowestTier == g.highestTier ? tr("%n switch(es), tier %1", nullptr, int(g.switches.size())).arg(g.highestTier)
                                          : tr("%n switch(es), tiers %1 to %2", nullptr, int(g.switches.size()))
                                                .arg(g.lowestTier)
                                                .arg(g.highestTier);
    text += QStringLiteral("<br>") + tr("%n cable(s) to other groups", nullptr, int(cables)) + QStringLiteral(", ")
        + tr("%n bundle(s)", nullptr, int(bundles));
    text += QStringLiteral("<br>") + tr("Double-click to show its switches");
    return text;
}

}  // namespace weft
