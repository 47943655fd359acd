#include "FabricView.h"

#include "FabricItems.h"
#include "FabricScene.h"

#include <QLocale>
#include <QPainter>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace weft {

namespace {

constexpr double kMaxZoom = 12.0;
constexpr double kWheelStep = 1.0015;  // per eighth of a degree: one notch zooms by about 20 %
constexpr double kButtonStep = 1.25;
constexpr double kAntialiasAbove = 0.6;
constexpr double kFocusZoom = 2.0;
constexpr int kLabelGutter = 110;  // pixels left of the fitted picture for the tier labels
constexpr double kMaxFitZoom = 2.0;  // a tiny fabric fitted any larger looks like a toy

} // namespace

FabricView::FabricView(QWidget *parent) : QGraphicsView(parent)
{
    setDragMode(ScrollHandDrag);
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
    m_scene = scene;
    setScene(scene);
    m_followFit = true;
    fitToWindow();
}

double FabricView::zoom() const
{
    return transform().m11();
}

double FabricView::fitZoom() const
{
    if (!m_scene)
        return 1.0;
    const QRectF r = m_scene->sceneRect();
    const QRect v = viewport()->rect().adjusted(kLabelGutter, legendHeight() + 14, -4, -4);
    if (r.width() <= 0 || r.height() <= 0 || v.width() <= 0 || v.height() <= 0)
        return 1.0;
    return std::min(double(v.width()) / r.width(), double(v.height()) / r.height());
}

void FabricView::fitToWindow()
{
    m_followFit = true;
    if (!m_scene)
        return;
    const double z = std::min(fitZoom(), kMaxFitZoom);
    // The view's own scene rect reaches past the fabric on the left and at the top, so that
    // the tier labels and the legend get room of their own instead of covering nodes.
    setSceneRect(m_scene->sceneRect().adjusted(-kLabelGutter / z, -(legendHeight() + 10) / z, 0, 0));
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
    setRenderHint(QPainter::Antialiasing, z >= kAntialiasAbove);
    setRenderHint(QPainter::TextAntialiasing, true);
    if (m_scene)
        m_scene->setHostsCollapsed(z < zoom::kCollapseRacksBelow);
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

void FabricView::mousePressEvent(QMouseEvent *event)
{
    // Dragging means the operator is exploring: stop re-fitting on resize.
    m_followFit = false;
    QGraphicsView::mousePressEvent(event);
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
    drawLegend(painter);
    painter->restore();
}

void FabricView::drawTierLabels(QPainter *painter)
{
    const FabricLayout &layout = m_scene->layout();
    const QLocale locale;
    QFont font = this->font();
    font.setPointSizeF(font.pointSizeF() * 0.9);
    painter->setFont(font);
    const QFontMetrics metrics(font);
    int previousBottom = -1;  // rows closer than a label's height share the space, stacked
    for (int t = layout.topTier; t >= 0; --t) {
        const std::size_t count = layout.rows[std::size_t(t)].size();
        if (count == 0)
            continue;
        const double rowY = t == 0 && !layout.racks.empty() ? layout.racks.front().bounds.center().y()
                                                             : layout.rowY[std::size_t(t)];
        int y = mapFromScene(QPointF(0, rowY)).y();
        if (y < 0 || y > viewport()->height())
            continue;
        y = std::max(y, previousBottom + metrics.height() / 2 + 5);
        QString name;
        if (t == 0)
            name = tr("Hosts");
        else if (t == 1)
            name = tr("Leaves");
        else if (t == layout.topTier)
            name = tr("Roots");
        else
            name = tr("Tier %1").arg(t);
        const QString text = tr("%1 · %2").arg(name, locale.toString(qulonglong(count)));
        const QRect box(8, y - metrics.height() / 2 - 3, metrics.horizontalAdvance(text) + 12, metrics.height() + 6);
        painter->setPen(Qt::NoPen);
        painter->setBrush(QColor(255, 255, 255, 215));
        painter->drawRoundedRect(box, 4, 4);
        painter->setPen(QColor(0x3a, 0x42, 0x4d));
        painter->drawText(box, Qt::AlignCenter, text);
        previousBottom = box.bottom();
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
    if (hosts)
        entries.push_back({FabricScene::hostColour(), tr("Host")});
    if (routers)
        entries.push_back({FabricScene::routerColour(), tr("Router")});
    entries.push_back({FabricScene::linkColour(), tr("Cable"), true});
    entries.push_back({FabricScene::selectionColour(), tr("Cable of selection"), true});
    return entries;
}

int FabricView::legendHeight() const
{
    const std::size_t entries = legendEntries().size();
    if (entries == 0)
        return 0;
    QFont font = this->font();
    font.setPointSizeF(font.pointSizeF() * 0.9);
    return int(entries) * (QFontMetrics(font).height() + 4) + 12;
}

void FabricView::drawLegend(QPainter *painter)
{
    using Entry = LegendEntry;
    const std::vector<Entry> entries = legendEntries();

    QFont font = this->font();
    font.setPointSizeF(font.pointSizeF() * 0.9);
    painter->setFont(font);
    const QFontMetrics metrics(font);
    int textWidth = 0;
    for (const Entry &e : entries)
        textWidth = std::max(textWidth, metrics.horizontalAdvance(e.text));
    const int lineHeight = metrics.height() + 4;
    const int width = textWidth + 42;
    const int height = int(entries.size()) * lineHeight + 12;
    // Top right: fitted pictures leave room there above the roots, which are fewer than leaves.
    const QRect box(viewport()->width() - width - 10, 10, width, height);
    painter->setPen(QColor(0xd0, 0xd5, 0xdc));
    painter->setBrush(QColor(255, 255, 255, 225));
    painter->drawRoundedRect(box, 5, 5);
    int y = box.top() + 6;
    for (const Entry &e : entries) {
        const QRect swatch(box.left() + 10, y + (lineHeight - 10) / 2, 18, 10);
        if (e.line) {
            QColor c = e.colour;
            c.setAlpha(255);
            painter->setPen(QPen(c, 2));
            painter->drawLine(swatch.left(), swatch.center().y(), swatch.right(), swatch.center().y());
        } else {
            painter->setPen(QPen(e.colour.darker(150), 1));
            painter->setBrush(e.colour);
            painter->drawRoundedRect(swatch, 2, 2);
        }
        painter->setPen(QColor(0x2a, 0x30, 0x38));
        painter->drawText(QRect(swatch.right() + 8, y, textWidth + 4, lineHeight), Qt::AlignVCenter | Qt::AlignLeft, e.text);
        y += lineHeight;
    }
}

} // namespace weft
