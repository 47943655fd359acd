#include "FabricView.h"

#include "FabricItems.h"
#include "FabricScene.h"

#include "PortsMime.h"

#include <QApplication>
#include <QDrag>
#include <QLinearGradient>
#include <QLocale>
#include <QMenu>
#include <QContextMenuEvent>
#include <QPainter>
#include <QMimeData>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace weft {

namespace {

constexpr double kMaxZoom = 12.0;
constexpr double kWheelStep = 1.0015;  // per eighth of a degree: one notch zooms by about 20 %
constexpr double kButtonStep = 1.25;
constexpr double kFocusZoom = 2.0;
constexpr int kLabelGutter = 110;  // pixels left of the fitted picture for the tier labels
constexpr double kMaxFitZoom = 2.0;  // a tiny fabric fitted any larger looks like a toy
constexpr int kLoadScaleHeight = 56;

}  // namespace

FabricView::FabricView(QWidget *parent) : QGraphicsView(parent)
{
    // Left button selects (rubber band), middle or right pans: hosts are picked far more
    // often than the picture needs moving, and the wheel zooms anyway.
    setDragMode(RubberBandDrag);
    setRubberBandSelectionMode(Qt::IntersectsItemShape);
    setTransformationAnchor(AnchorUnderMouse);
    setResizeAnchor(AnchorViewCenter);
    // Cable layers span the whole scene, so any change repaints most of it anyway, and the
    // legend must not be scrolled along with the picture: repaint the viewport as a whole
    // rather than tracking thousands of small regions.
    setViewportUpdateMode(FullViewportUpdate);
    setOptimizationFlags(DontAdjustForAntialiasing);
    setCacheMode(CacheNone);
    setMouseTracking(true);
    setFrameShape(QFrame::NoFrame);
}

void FabricView::setFabricScene(FabricScene *scene)
{
    if (m_scene)
        disconnect(m_scene, &FabricScene::coloursChanged, viewport(), nullptr);
    m_scene = scene;
    setScene(scene);
    // The legend is drawn over the scene, not in it: repaint it when the colours change.
    // A legend grown by new colours keeps its room of its own while the picture follows the fit.
    if (m_scene)
        connect(m_scene, &FabricScene::coloursChanged, viewport(), [this] {
            if (m_followFit)
                fitToWindow();
            viewport()->update();
        });
    m_followFit = true;
    fitToWindow();
}

double FabricView::zoom() const
{
    return transform().m11();
}

double FabricView::fitZoom() const
{
    return bestLegendPlacement().zoom;
}

// Where the legend costs the fitted picture least: in a band across the top (in as many
// columns as fit the width, a short band for a wide picture) or in a column down the right (for
// a tall one). Either way it has room of its own, beside the picture, never over it.
FabricView::LegendPlacement FabricView::bestLegendPlacement() const
{
    LegendPlacement best;
    if (!m_scene)
        return best;
    const QRectF r = m_scene->sceneRect();
    const std::vector<LegendEntry> entries = legendEntries();
    const QRect view = viewport()->rect();
    auto zoomIn = [&](const QRect &v) {
        if (r.width() <= 0 || r.height() <= 0 || v.width() <= 0 || v.height() <= 0)
            return 1.0;
        return std::min(double(v.width()) / r.width(), double(v.height()) / r.height());
    };
    best.zoom = zoomIn(view.adjusted(kLabelGutter, legendHeightFor(entries.size()) + 14, -4, -4));
    if (entries.empty())
        return best;
    const int columnWidth = legendColumnWidth(entries);
    for (int columns = 2; columns <= int(entries.size()) && columns * columnWidth + 20 <= view.width() - kLabelGutter; ++columns) {
        const int rows = (int(entries.size()) + columns - 1) / columns;
        const double z = zoomIn(view.adjusted(kLabelGutter, legendHeightFor(std::size_t(rows)) + 14, -4, -4));
        if (z > best.zoom * 1.02)
            best = {columns, false, z};
    }
    const double right = zoomIn(view.adjusted(kLabelGutter, 4, -(columnWidth + 24), -4));
    if (right > best.zoom * 1.02)
        best = {1, true, right};
    return best;
}

void FabricView::fitToWindow()
{
    m_followFit = true;
    if (!m_scene)
        return;
    const LegendPlacement placement = bestLegendPlacement();
    m_legendColumns = placement.columns;
    m_legendOnRight = placement.right;
    const double z = std::min(placement.zoom, kMaxFitZoom);
    // The view's own scene rect reaches past the fabric on the left, and at the top or on the
    // right, so that the tier labels and the legend get room of their own instead of covering
    // nodes.
    const QRect legend = legendRect();
    if (m_legendOnRight)
        setSceneRect(m_scene->sceneRect().adjusted(-kLabelGutter / z, 0, (legend.width() + 20) / z, 0));
    else
        setSceneRect(m_scene->sceneRect().adjusted(-kLabelGutter / z, -(legend.height() + 10) / z, 0, 0));
    setTransform(QTransform::fromScale(z, z));
    centerOn(sceneRect().center());
    applyZoomDependentSettings();
}

void FabricView::zoomIn()
{
    const ViewportAnchor anchor = transformationAnchor();
    setTransformationAnchor(AnchorViewCenter);
    zoomBy(kButtonStep);
    setTransformationAnchor(anchor);
}

void FabricView::zoomOut()
{
    const ViewportAnchor anchor = transformationAnchor();
    setTransformationAnchor(AnchorViewCenter);
    zoomBy(1.0 / kButtonStep);
    setTransformationAnchor(anchor);
}

void FabricView::setZoom(double zoom)
{
    const ViewportAnchor anchor = transformationAnchor();
    setTransformationAnchor(AnchorViewCenter);
    zoomBy(zoom / std::max(this->zoom(), 1e-9));
    setTransformationAnchor(anchor);
}

void FabricView::zoomBy(double factor)
{
    const double current = zoom();
    // Never smaller than half the fitted size: past that the fabric is lost in empty space.
    const double target = std::clamp(current * factor, std::min(fitZoom() * 0.5, kMaxZoom), kMaxZoom);
    if (std::abs(target - current) < 1e-9)
        return;
    m_followFit = false;
    scale(target / current, target / current);
    applyZoomDependentSettings();
}

void FabricView::focusNode(NodeIndex node)
{
    if (!m_scene || !m_scene->fabric() || node < 0 || std::size_t(node) >= m_scene->layout().positions.size())
        return;
    if (zoom() < kFocusZoom) {
        m_followFit = false;
        setTransform(QTransform::fromScale(kFocusZoom, kFocusZoom));
        applyZoomDependentSettings();
    }
    centerOn(m_scene->layout().positions[std::size_t(node)]);
    m_scene->selectNode(node);
}

void FabricView::applyZoomDependentSettings()
{
    const double z = zoom();
    // Antialiasing costs a lot with thousands of cables on screen and shows only up close.
    setRenderHint(QPainter::Antialiasing, z >= zoom::kAntialiasAbove);
    setRenderHint(QPainter::TextAntialiasing, true);
    if (m_scene) {
        m_scene->setHostsCollapsed(z < zoom::kCollapseRacksBelow);
        m_scene->setAggregated(z < zoom::kAggregateBelow);
    }
    viewport()->update();
    Q_EMIT zoomChanged(z);
}

void FabricView::wheelEvent(QWheelEvent *event)
{
    const int delta = event->angleDelta().y();
    if (delta == 0) {
        QGraphicsView::wheelEvent(event);
        return;
    }
    zoomBy(std::pow(kWheelStep, delta));
    event->accept();
}

void FabricView::resizeEvent(QResizeEvent *event)
{
    QGraphicsView::resizeEvent(event);
    if (m_followFit)
        fitToWindow();
}

bool FabricView::findAndFocus(const QString &text)
{
    if (!m_scene)
        return false;
    const NodeIndex node = m_scene->findNode(text);
    if (node == kNoIndex)
        return false;
    focusNode(node);
    return true;
}

void FabricView::mousePressEvent(QMouseEvent *event)
{
    // Dragging means the operator is exploring: stop re-fitting on resize.
    m_followFit = false;
    if (event->button() == Qt::MiddleButton || event->button() == Qt::RightButton) {
        if (event->button() == Qt::RightButton)
            m_rightPressPos = event->position().toPoint();
        m_panning = true;
        m_lastPanPos = event->position().toPoint();
        viewport()->setCursor(Qt::ClosedHandCursor);
        event->accept();
        return;
    }
    m_dragCandidate = false;
    m_pressedNode = kNoIndex;
    if (event->button() == Qt::LeftButton && m_scene) {
        const QList<QGraphicsItem *> hit = items(event->position().toPoint());
        for (QGraphicsItem *item : hit) {
            if (item->type() != NodeItem::Type)
                continue;
            auto *node = static_cast<NodeItem *>(item);
            if (node->nodeType() != NodeType::Switch && node->isSelected()
                && !(event->modifiers() & (Qt::ControlModifier | Qt::ShiftModifier))) {
                // Keep the selection as it is: the press may start a drag of all of it.
                m_dragCandidate = true;
                m_pressPos = event->position().toPoint();
                m_pressedNode = node->node();
                event->accept();
                return;
            }
            break;
        }
    }
    QGraphicsView::mousePressEvent(event);
}

void FabricView::mouseMoveEvent(QMouseEvent *event)
{
    if (m_panning) {
        const QPoint delta = event->position().toPoint() - m_lastPanPos;
        m_lastPanPos = event->position().toPoint();
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() - delta.x());
        verticalScrollBar()->setValue(verticalScrollBar()->value() - delta.y());
        event->accept();
        return;
    }
    if (m_dragCandidate) {
        if ((event->position().toPoint() - m_pressPos).manhattanLength() >= QApplication::startDragDistance()) {
            m_dragCandidate = false;
            startPortsDrag();
        }
        event->accept();
        return;
    }
    QGraphicsView::mouseMoveEvent(event);
    // The band selected what it could see; collapsed hosts are hidden, so they are added here.
    if (m_scene && m_scene->hostsCollapsed() && !rubberBandRect().isNull()) {
        QPainterPath band;
        band.addPolygon(mapToScene(rubberBandRect()));
        m_scene->selectHostsIn(band);
    }
}

void FabricView::mouseReleaseEvent(QMouseEvent *event)
{
    if (m_panning) {
        m_panning = false;
        viewport()->unsetCursor();
        event->accept();
        const QPoint pos = event->position().toPoint();
        if (event->button() == Qt::RightButton && (pos - m_rightPressPos).manhattanLength() < QApplication::startDragDistance())
            if (QMenu *menu = whatIfMenuAt(pos, this)) {
                menu->setAttribute(Qt::WA_DeleteOnClose);
                menu->popup(viewport()->mapToGlobal(pos));
            }
        return;
    }
    if (m_dragCandidate) {
        // A click on a selected host without a drag selects that host alone, as anywhere else.
        m_dragCandidate = false;
        if (m_scene)
            m_scene->selectNode(m_pressedNode);
        event->accept();
        return;
    }
    QGraphicsView::mouseReleaseEvent(event);
}

void FabricView::contextMenuEvent(QContextMenuEvent *event)
{
    event->accept();
    if (event->reason() != QContextMenuEvent::Keyboard)
        return;
    const QPoint pos = viewport()->mapFromGlobal(QCursor::pos());
    if (QMenu *menu = whatIfMenuAt(viewport()->rect().contains(pos) ? pos : viewport()->rect().center(), this)) {
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(event->globalPos());
    }
}

QMenu *FabricView::whatIfMenuAt(const QPoint &viewPos, QWidget *parent)
{
    const Fabric *fabric = m_scene ? m_scene->fabric() : nullptr;
    if (!fabric)
        return nullptr;
    const auto name = [fabric](NodeIndex node) {
        const Node &n = fabric->node(node);
        return n.description.isEmpty() ? n.name : n.description;
    };
    NodeIndex hitNode = kNoIndex;
    for (QGraphicsItem *item : items(viewPos))
        if (item->type() == NodeItem::Type && item->isVisible()) {
            hitNode = static_cast<NodeItem *>(item)->node();
            break;
        }
    auto *menu = new QMenu(parent);
    menu->setObjectName(QStringLiteral("whatIfMenu"));
    if (hitNode != kNoIndex) {
        const Node &node = fabric->node(hitNode);
        const Guid guid = node.guid;
        menu->addSection(name(hitNode));
        menu->setMinimumWidth(std::min(menu->fontMetrics().horizontalAdvance(name(hitNode)) + 8 * menu->fontMetrics().averageCharWidth(), 900));
        if (node.type == NodeType::Switch) {
            QAction *fail = menu->addAction(tr("Fail this switch"), this, [this, guid] { Q_EMIT failSwitchRequested(guid); });
            fail->setObjectName(QStringLiteral("failSwitchAction"));
            const bool drained = m_isDrained && m_isDrained(guid, 0);
            QAction *drain = menu->addAction(drained ? tr("Undrain this switch") : tr("Drain this switch"), this,
                                             [this, guid, drained] { Q_EMIT drainRequested(guid, 0, !drained); });
            drain->setObjectName(QStringLiteral("drainSwitchAction"));
            drain->setToolTip(drained ? tr("Plan the routes back through this switch, for review")
                                      : tr("Plan routes around this switch while it stays up (maintenance), for review"));
            QAction *inspect = menu->addAction(tr("Inspect LFT"), this, [this, guid] { Q_EMIT inspectLftRequested(guid); });
            inspect->setObjectName(QStringLiteral("inspectLftAction"));
        } else {
            QAction *remove = menu->addAction(tr("Remove"), this, [this, guid] { Q_EMIT removeHostRequested(guid); });
            remove->setObjectName(QStringLiteral("removeHostAction"));
            remove->setToolTip(tr("Plan the reconfiguration as if this host were removed"));
        }
        return menu;
    }
    const LinkIndex link = m_scene->cableAt(mapToScene(viewPos), 6.0 / std::max(zoom(), 1e-6));
    if (link == kNoIndex) {
        delete menu;
        return nullptr;
    }
    const Link &l = fabric->links()[std::size_t(link)];
    const Port &a = fabric->port(l.a);
    const Port &b = fabric->port(l.b);
    const QString title = tr("%1 [%2] – %3 [%4]").arg(name(a.node)).arg(int(a.number)).arg(name(b.node)).arg(int(b.number));
    menu->addSection(title);
    // A section is as wide as the menu's actions: room for the whole cable's name.
    menu->setMinimumWidth(std::min(menu->fontMetrics().horizontalAdvance(title) + 8 * menu->fontMetrics().averageCharWidth(), 900));
    const Guid guid = fabric->node(a.node).guid;
    const int port = a.number;
    QAction *fail = menu->addAction(tr("Fail this link"), this, [this, guid, port] { Q_EMIT failLinkRequested(guid, port); });
    fail->setObjectName(QStringLiteral("failLinkAction"));
    if (fabric->node(a.node).type == NodeType::Switch && fabric->node(b.node).type == NodeType::Switch) {
        const bool drained = m_isDrained && m_isDrained(guid, port);
        QAction *drain = menu->addAction(drained ? tr("Undrain this link") : tr("Drain this link"), this,
                                         [this, guid, port, drained] { Q_EMIT drainRequested(guid, port, !drained); });
        drain->setObjectName(QStringLiteral("drainLinkAction"));
        drain->setToolTip(drained ? tr("Plan the routes back onto this cable, for review")
                                  : tr("Plan routes around this cable while it stays up (maintenance), for review"));
    }
    return menu;
}

void FabricView::mouseDoubleClickEvent(QMouseEvent *event)
{
    if (m_scene && m_scene->isAggregated() && event->button() == Qt::LeftButton) {
        const QPointF pos = mapToScene(event->position().toPoint());
        const int bundle = m_scene->bundleAt(pos, 6.0 / std::max(zoom(), 1e-6));
        const int group = bundle < 0 ? m_scene->groupAt(pos) : -1;
        if (bundle >= 0 || group >= 0) {
            if (bundle >= 0)
                m_scene->expandBundle(bundle);
            else
                m_scene->expandGroup(group);
            event->accept();
            return;
        }
    }
    QGraphicsView::mouseDoubleClickEvent(event);
}

bool FabricView::goToHottestBundle()
{
    if (!m_scene || !m_scene->isAggregated() || m_scene->hottestBundle() < 0)
        return false;
    const int hottest = m_scene->hottestBundle();
    m_followFit = false;
    centerOn(m_scene->bundles()[std::size_t(hottest)].line.center());
    m_scene->expandBundle(hottest);
    return true;
}

void FabricView::startPortsDrag()
{
    const std::vector<Guid> ports = m_scene ? m_scene->selectedPortGuids() : std::vector<Guid>();
    if (ports.empty())
        return;
    auto *drag = new QDrag(this);
    drag->setMimeData(makePortsMimeData(ports));
    // A label that says what is being carried, in the colours of the selection.
    const QString text = tr("%n host port(s)", nullptr, int(ports.size()));
    const QFontMetrics metrics(font());
    QPixmap picture(metrics.horizontalAdvance(text) + 16, metrics.height() + 8);
    picture.fill(Qt::transparent);
    QPainter painter(&picture);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(FabricScene::selectionColour().darker(130));
    painter.setBrush(FabricScene::selectionColour().lighter(160));
    painter.drawRoundedRect(picture.rect().adjusted(0, 0, -1, -1), 5, 5);
    painter.setPen(Qt::black);
    painter.drawText(picture.rect(), Qt::AlignCenter, text);
    painter.end();
    drag->setPixmap(picture);
    drag->setHotSpot(QPoint(-8, picture.height() / 2));
    drag->exec(Qt::CopyAction);
}

void FabricView::drawForeground(QPainter *painter, const QRectF &)
{
    if (!m_scene || !m_scene->fabric())
        return;
    painter->save();
    painter->resetTransform();
    painter->setRenderHint(QPainter::Antialiasing, true);
    painter->setRenderHint(QPainter::TextAntialiasing, true);
    drawTierLabels(painter);
    const std::vector<LegendEntry> entries = legendEntries();
    drawChassisLabels(painter, legendRectFor(entries));
    drawLegend(painter, entries);
    painter->restore();
}

std::vector<FabricView::ChassisLabel> FabricView::chassisLabels(const QRect &legend) const
{
    std::vector<ChassisLabel> labels;
    if (!m_scene || !m_scene->fabric() || m_scene->layout().chassis.empty())
        return labels;
    const FabricLayout &layout = m_scene->layout();
    QFont font = this->font();
    font.setPointSizeF(font.pointSizeF() * 0.9);
    font.setBold(true);
    const QFontMetrics metrics(font);
    const QLocale locale;
    for (std::size_t c = 0; c < layout.chassis.size(); ++c) {
        const FabricLayout::Chassis &chassis = layout.chassis[c];
        const QRect frame = mapFromScene(chassis.bounds).boundingRect();
        const QString text = tr("%1 · %2 switches").arg(chassis.name, locale.toString(qulonglong(chassis.switches.size())));
        const QRect box(frame.left(), frame.top() - metrics.height() - 8, metrics.horizontalAdvance(text) + 12,
                        metrics.height() + 6);
        // Where it fits: as wide as the frame at most, in the window, clear of the legend.
        if (box.width() > frame.width() || !viewport()->rect().contains(box) || box.intersects(legend))
            continue;
        labels.push_back({int(c), box, text});
    }
    return labels;
}

std::vector<int> FabricView::chassisLabelsShown() const
{
    std::vector<int> shown;
    if (!m_scene || !m_scene->fabric() || m_scene->layout().chassis.empty())
        return shown;
    for (const ChassisLabel &label : chassisLabels(legendRect()))
        shown.push_back(label.chassis);
    return shown;
}

void FabricView::drawChassisLabels(QPainter *painter, const QRect &legend)
{
    if (m_scene->layout().chassis.empty())
        return;
    QFont font = this->font();
    font.setPointSizeF(font.pointSizeF() * 0.9);
    font.setBold(true);
    painter->setFont(font);
    for (const ChassisLabel &label : chassisLabels(legend)) {
        painter->setPen(Qt::NoPen);
        painter->setBrush(ChassisItem::frameColour());
        painter->drawRoundedRect(label.box, 4, 4);
        painter->setPen(Qt::white);
        painter->drawText(label.box, Qt::AlignCenter, label.text);
    }
}

void FabricView::drawTierLabels(QPainter *painter)
{
    const FabricLayout &layout = m_scene->layout();
    const QLocale locale;
    QFont font = this->font();
    font.setPointSizeF(font.pointSizeF() * 0.9);
    painter->setFont(font);
    const QFontMetrics metrics(font);
    struct TierLabel
    {
        int y = 0;
        QString text;
    };
    std::vector<TierLabel> labels;  // top row first
    for (int t = layout.topTier; t >= 0; --t) {
        const std::size_t count = layout.rows[std::size_t(t)].size();
        if (count == 0)
            continue;
        const double rowY = t == 0 && !layout.racks.empty() ? layout.racks.front().bounds.center().y()
                                                             : layout.rowY[std::size_t(t)];
        const int y = mapFromScene(QPointF(0, rowY)).y();
        if (y < 0 || y > viewport()->height())
            continue;
        QString name;
        if (t == 0)
            name = tr("Hosts");
        else if (t == 1)
            name = tr("Leaves");
        else if (t == layout.topTier)
            name = tr("Roots");
        else
            name = tr("Tier %1").arg(t);
        labels.push_back({y, tr("%1 · %2").arg(name, locale.toString(qulonglong(count)))});
    }
    // Rows closer than a label's height share the space, stacked: down from the top, then, where
    // that pushed the last ones out of the window, up from its bottom edge.
    const int pitch = metrics.height() + 8;
    for (std::size_t i = 1; i < labels.size(); ++i)
        labels[i].y = std::max(labels[i].y, labels[i - 1].y + pitch);
    int limit = viewport()->height() - metrics.height() / 2 - 4;
    for (std::size_t i = labels.size(); i-- > 0;) {
        labels[i].y = std::min(labels[i].y, limit);
        limit = labels[i].y - pitch;
    }
    for (const TierLabel &label : labels) {
        const QRect box(8, label.y - metrics.height() / 2 - 3, metrics.horizontalAdvance(label.text) + 12, metrics.height() + 6);
        painter->setPen(Qt::NoPen);
        painter->setBrush(QColor(255, 255, 255, 215));
        painter->drawRoundedRect(box, 4, 4);
        painter->setPen(QColor(0x3a, 0x42, 0x4d));
        painter->drawText(box, Qt::AlignCenter, label.text);
    }
}

std::vector<FabricView::LegendEntry> FabricView::legendEntries() const
{
    std::vector<LegendEntry> entries;
    if (!m_scene || !m_scene->fabric())
        return entries;
    const FabricLayout &layout = m_scene->layout();
    const Fabric &fabric = *m_scene->fabric();
    if (layout.topTier >= 2)
        entries.push_back({FabricScene::switchColour(layout.topTier, layout.topTier), tr("Root switch")});
    if (layout.topTier >= 3)
        entries.push_back({FabricScene::switchColour((layout.topTier + 1) / 2, layout.topTier), tr("Middle switch")});
    if (layout.topTier >= 1)
        entries.push_back({FabricScene::switchColour(1, layout.topTier), tr("Leaf switch")});
    bool routers = false;
    bool hosts = false;
    for (NodeIndex n : fabric.endNodes()) {
        const bool isRouter = fabric.node(n).type == NodeType::Router;
        routers = routers || isRouter;
        hosts = hosts || !isRouter;
    }
    if (hosts && m_scene->hostColouring() == HostColouring::Plain)
        entries.push_back({FabricScene::hostColour(), tr("Host")});
    const bool serviceBeside = std::any_of(layout.beside.begin(), layout.beside.end(),
                                           [&](NodeIndex n) { return fabric.node(n).role == NodeRole::Service; });
    if (serviceBeside)
        entries.push_back({FabricScene::serviceColour(), tr("Service node (Aggregation Node), beside its switch")});
    if (!layout.chassis.empty())
        entries.push_back({QColor(0xe9, 0xed, 0xf3), tr("Chassis (a director's spines and line cards)")});
    if (routers)
        entries.push_back({FabricScene::routerColour(), tr("Router")});
    if (m_scene->linkColouring() == LinkColouring::Plain)
        entries.push_back({FabricScene::linkColour(), tr("Cable"), true});
    for (const FabricScene::Swatch &swatch : m_scene->colourSwatches())
        entries.push_back({swatch.colour, swatch.text, swatch.line, swatch.width});
    if (m_scene->healthMarkCount() > 0) {  // the Health dock's findings on the map
        entries.push_back({FabricScene::missingCableColour(), tr("Cable missing (health)"), true, 2.5});
        entries.push_back({FabricScene::miswiredCableColour(), tr("Cable miswired (health)"), true, 2.5});
        entries.push_back({FabricScene::sickCableColour(), tr("Cable sick or below design (health)"), true, 2.5});
    }
    if (m_scene->tracedRoutesShown()) {
        entries.push_back({FabricScene::selectionColour(), tr("Traced route, current tables"), true, 2.5});
        entries.push_back({FabricScene::returnRouteColour(), tr("… proposed tables"), true, 2.5});
    } else if (m_scene->tables()) {
        entries.push_back({FabricScene::selectionColour(), tr("Route between two selected hosts, there"), true, 2.5});
        entries.push_back({FabricScene::returnRouteColour(), tr("… and back"), true, 2.5});
    } else {
        entries.push_back({FabricScene::selectionColour(), tr("Cable of selection"), true});
    }
    return entries;
}

int FabricView::legendHeight() const
{
    return legendHeightFor(legendEntries().size());
}

int FabricView::legendHeightFor(std::size_t entries) const
{
    if (entries == 0)
        return 0;
    QFont font = this->font();
    font.setPointSizeF(font.pointSizeF() * 0.9);
    return int(entries) * (QFontMetrics(font).height() + 4) + 12 + (showsLoadScale() ? kLoadScaleHeight : 0);
}

QRect FabricView::legendRect() const
{
    return legendRectFor(legendEntries());
}

QRect FabricView::legendRectFor(const std::vector<LegendEntry> &entries) const
{
    if (entries.empty())
        return {};
    const int columns = std::clamp(m_legendColumns, 1, int(entries.size()));
    const int rows = (int(entries.size()) + columns - 1) / columns;
    const int width = columns * legendColumnWidth(entries);
    // Top right: a fitted picture leaves room there (bestLegendPlacement), above it or beside it.
    return QRect(viewport()->width() - width - 10, 10, width, legendHeightFor(std::size_t(rows)));
}

int FabricView::legendColumnWidth(const std::vector<LegendEntry> &entries) const
{
    QFont font = this->font();
    font.setPointSizeF(font.pointSizeF() * 0.9);
    const QFontMetrics metrics(font);
    int textWidth = 0;
    for (const LegendEntry &e : entries)
        textWidth = std::max(textWidth, metrics.horizontalAdvance(e.text));
    return textWidth + 42;
}

void FabricView::drawLegend(QPainter *painter, const std::vector<LegendEntry> &entries)
{
    using Entry = LegendEntry;

    QFont font = this->font();
    font.setPointSizeF(font.pointSizeF() * 0.9);
    painter->setFont(font);
    const QFontMetrics metrics(font);
    int textWidth = 0;
    for (const Entry &e : entries)
        textWidth = std::max(textWidth, metrics.horizontalAdvance(e.text));
    const int lineHeight = metrics.height() + 4;
    const bool scale = showsLoadScale();
    if (scale)
        textWidth = std::max(textWidth, 190);
    const QRect box = legendRectFor(entries);
    const int columns = std::clamp(m_legendColumns, 1, std::max(1, int(entries.size())));
    const int rows = (int(entries.size()) + columns - 1) / columns;
    const int columnWidth = box.width() / columns;
    painter->setPen(QColor(0xd0, 0xd5, 0xdc));
    painter->setBrush(QColor(255, 255, 255, 225));
    painter->drawRoundedRect(box, 5, 5);
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const Entry &e = entries[i];
        const int left = box.left() + int(i) / rows * columnWidth;
        const int y = box.top() + 6 + int(i) % rows * lineHeight;
        const QRect swatch(left + 10, y + (lineHeight - 10) / 2, 18, 10);
        if (e.line) {
            QColor c = e.colour;
            c.setAlpha(255);
            painter->setPen(QPen(c, std::max(2.0, e.width), e.colour == FabricScene::returnRouteColour() ? Qt::DashLine : Qt::SolidLine));
            painter->drawLine(swatch.left(), swatch.center().y(), swatch.right(), swatch.center().y());
        } else {
            painter->setPen(QPen(e.colour.darker(150), 1));
            painter->setBrush(e.colour);
            painter->drawRoundedRect(swatch, 2, 2);
        }
        painter->setPen(QColor(0x2a, 0x30, 0x38));
        painter->drawText(QRect(swatch.right() + 8, y, textWidth + 4, lineHeight), Qt::AlignVCenter | Qt::AlignLeft, e.text);
    }
    if (scale)
        drawLoadScale(painter, QRect(box.left(), box.top() + 6 + rows * lineHeight, std::min(box.width(), columnWidth), kLoadScaleHeight));
}

bool FabricView::showsLoadScale() const
{
    // Loads set without a routing (measured ones) have a scale too.
    return m_scene && m_scene->linkColouring() == LinkColouring::Load && (m_scene->metrics() || m_scene->maxCableLoad() > 0);
}

void FabricView::drawLoadScale(QPainter *painter, const QRect &area)
{
    // "Cable load": the ramp from idle to the busiest cable, with its figures at the ends.
    const QFontMetrics metrics(painter->font());
    const QLocale locale;
    const Metrics *m = m_scene->metrics();
    painter->setPen(QColor(0x2a, 0x30, 0x38));
    const QRect title(area.left() + 10, area.top(), area.width() - 20, metrics.height());
    painter->drawText(title, Qt::AlignLeft | Qt::AlignVCenter,
                      m ? tr("Cable load (%1)").arg(m->model.toString()) : tr("Cable load"));
    const QRect bar(area.left() + 10, title.bottom() + 4, area.width() - 20, 12);
    QLinearGradient gradient(bar.topLeft(), bar.topRight());
    for (int i = 0; i <= 8; ++i)
        gradient.setColorAt(i / 8.0, FabricScene::loadColour(i / 8.0));
    painter->setPen(Qt::NoPen);
    painter->setBrush(gradient);
    painter->drawRect(bar);
    painter->setPen(QColor(0x2a, 0x30, 0x38));
    const QRect labels(bar.left(), bar.bottom() + 2, bar.width(), metrics.height());
    painter->drawText(labels, Qt::AlignLeft | Qt::AlignVCenter, locale.toString(0));
    painter->drawText(labels, Qt::AlignHCenter | Qt::AlignVCenter, locale.toString(m_scene->maxCableLoad() / 2, 'g', 4));
    painter->drawText(labels, Qt::AlignRight | Qt::AlignVCenter, locale.toString(m_scene->maxCableLoad(), 'g', 4));
}

}  // namespace weft
