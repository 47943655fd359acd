#include "FabricItems.h"

#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <optional>

namespace weft {

namespace {

const QColor kSelectionColour(0xe8, 0x6a, 0x10);
// Cables per pixel a link layer draws at most (LinkLayerItem::paint).
constexpr double kDrawnCoverage = 2.0;

// The part of `line` inside `rect` (Liang and Barsky's clipping), none if it misses.
std::optional<QLineF> clipLine(const QLineF &line, const QRectF &rect)
{
    const double dx = line.dx();
    const double dy = line.dy();
    double t0 = 0;
    double t1 = 1;
    const double p[] = {-dx, dx, -dy, dy};
    const double q[] = {line.x1() - rect.left(), rect.right() - line.x1(), line.y1() - rect.top(), rect.bottom() - line.y1()};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0) {
            if (q[i] < 0)
                return std::nullopt;
            continue;
        }
        const double t = q[i] / p[i];
        if (p[i] < 0)
            t0 = std::max(t0, t);
        else
            t1 = std::min(t1, t);
        if (t0 > t1)
            return std::nullopt;
    }
    return QLineF(line.pointAt(t0), line.pointAt(t1));
}

// `colour` at `alpha` over `background`, as one opaque colour.
QColor overBackground(const QColor &colour, double alpha, const QColor &background)
{
    const double a = std::clamp(alpha, 0.0, 1.0);
    const auto mix = [a](double c, double b) { return float(c * a + b * (1 - a)); };
    return QColor::fromRgbF(mix(colour.redF(), background.redF()), mix(colour.greenF(), background.greenF()),
                            mix(colour.blueF(), background.blueF()));
}

double levelOfDetail(const QPainter *painter, const QStyleOptionGraphicsItem *option)
{
    return option->levelOfDetailFromTransform(painter->worldTransform());
}

QRectF boundsOf(const std::vector<QLineF> &lines)
{
    if (lines.empty())
        return {};
    double left = lines.front().x1(), right = left, top = lines.front().y1(), bottom = top;
    for (const QLineF &l : lines) {
        left = std::min({left, l.x1(), l.x2()});
        right = std::max({right, l.x1(), l.x2()});
        top = std::min({top, l.y1(), l.y2()});
        bottom = std::max({bottom, l.y1(), l.y2()});
    }
    return QRectF(QPointF(left, top), QPointF(right, bottom)).adjusted(-2, -2, 2, 2);
}

// Draws only the lines that cross the exposed area (at high zoom most of a layer is off
// screen), and of those every `stride`-th.
void drawVisibleLines(QPainter *painter, const std::vector<QLineF> &lines, const QRectF &exposed, std::size_t stride)
{
    std::vector<QLineF> visible;
    visible.reserve(lines.size() / stride + 1);
    for (std::size_t i = 0; i < lines.size(); i += stride) {
        const QLineF &l = lines[i];
        const QRectF box = QRectF(l.p1(), l.p2()).normalized();
        if (box.right() >= exposed.left() && box.left() <= exposed.right() && box.bottom() >= exposed.top()
            && box.top() <= exposed.bottom())
            visible.push_back(l);
    }
    if (!visible.empty())
        painter->drawLines(visible.data(), int(visible.size()));
}

}  // namespace

NodeItem::NodeItem(NodeIndex node, NodeType nodeType, const QRectF &rect, const QColor &fill, const QString &label)
    : m_node(node), m_type(nodeType), m_rect(rect), m_bounds(rect.adjusted(-2, -2, 2, 2)), m_fill(fill), m_label(label)
{
    setFlag(ItemIsSelectable);
    setZValue(nodeType == NodeType::Switch ? 3 : 2);
}

void NodeItem::setFill(const QColor &fill)
{
    m_fill = fill;
    update();
}

QPainterPath NodeItem::shape() const
{
    QPainterPath path;
    path.addRect(m_rect);
    return path;
}

void NodeItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    const double lod = levelOfDetail(painter, option);
    const bool selected = option->state & QStyle::State_Selected;
    if (m_type != NodeType::Switch && !m_beside && lod < zoom::kCollapseRacksBelow && !selected)
        return;  // the rack box stands in for the hosts
    if (lod < zoom::kPlainBoxesBelow) {
        painter->fillRect(m_rect, selected ? kSelectionColour : m_fill);
        return;
    }
    painter->setPen(QPen(selected ? kSelectionColour : m_fill.darker(150), selected ? 2.5 : 0.8));
    painter->setBrush(m_fill);
    painter->drawRoundedRect(m_rect, 2, 2);
    const bool isSwitch = m_type == NodeType::Switch;
    if (m_beside || lod < (isSwitch ? zoom::kLabelsAbove : zoom::kHostLabelsAbove) || m_label.isEmpty())
        return;
    QFont font = painter->font();
    font.setPixelSize(isSwitch ? 7 : 5);
    painter->setFont(font);
    painter->setPen(m_fill.lightness() > 140 ? QColor(0x20, 0x24, 0x2a) : QColor(Qt::white));
    const QRectF textRect = m_rect.adjusted(1.5, 0, -1.5, 0);
    // Host descriptions end in what tells them apart ("host 0042"): keep the end.
    const QString text = QFontMetricsF(font).elidedText(m_label, isSwitch ? Qt::ElideMiddle : Qt::ElideLeft,
                                                        textRect.width());
    painter->drawText(textRect, Qt::AlignCenter, text);
}

RackItem::RackItem(NodeIndex leaf, int hostCount, const QRectF &rect, const QColor &fill)
    : m_leaf(leaf), m_hostCount(hostCount), m_rect(rect), m_fill(fill)
{
    setZValue(1);
}

void RackItem::setFill(const QColor &fill)
{
    m_fill = fill;
    update();
}

void RackItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    const double lod = levelOfDetail(painter, option);
    if (lod >= zoom::kCollapseRacksBelow) {
        // Zoomed in: a faint frame groups the hosts of one leaf.
        painter->setPen(QPen(QColor(0xc4, 0xcb, 0xd3), 0.8, Qt::DashLine));
        painter->setBrush(QColor(0xf1, 0xf3, 0xf6));
        painter->drawRoundedRect(m_rect, 3, 3);
        return;
    }
    if (lod < zoom::kPlainBoxesBelow) {
        painter->fillRect(m_rect, m_fill);
        return;
    }
    painter->setPen(QPen(m_fill.darker(150), 0));
    painter->setBrush(m_fill);
    painter->drawRoundedRect(m_rect, 3, 3);
    // The count only where it fits on screen.
    if (m_rect.width() * lod >= 14 && m_rect.height() * lod >= 10) {
        QFont font = painter->font();
        font.setPixelSize(std::max(1, int(std::min(m_rect.width() * 0.32, m_rect.height() * 0.3))));
        painter->setFont(font);
        painter->setPen(QColor(0x20, 0x24, 0x2a));
        painter->drawText(m_rect, Qt::AlignCenter, QString::number(m_hostCount));
    }
}

LinkLayerItem::LinkLayerItem(std::vector<QLineF> lines, QPainterPath curves, const QColor &colour, double width)
    : m_lines(std::move(lines)), m_curves(std::move(curves)), m_colour(colour), m_width(width)
{
    m_bounds = boundsOf(m_lines) | m_curves.boundingRect().adjusted(-2, -2, 2, 2);
    for (const QLineF &l : m_lines)
        m_totalLength += l.length();
    setFlag(ItemUsesExtendedStyleOption);
    setZValue(0);
}

void LinkLayerItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    // Cosmetic pens keep cables one pixel wide at any zoom. Zoomed out, thousands of cables
    // overlap on every pixel; the colour is made fainter by how many, so that the layer reads
    // as a density (where the cables run thick) rather than as a solid block.
    const double lod = levelOfDetail(painter, option);
    const double area = m_bounds.width() * m_bounds.height() * lod;
    const double coverage = area > 0 ? m_totalLength / area : 0;  // inked pixels per pixel
    double fade = coverage > 0.8 ? std::max(0.04, 0.8 / coverage) : 1.0;
    // Past a few cables per pixel, every cable drawn only adds to a wash whose tone the fading
    // sets: only every stride-th is drawn, that much less faded, so that the ink per pixel stays
    // as it was and a pan shows the same cables.
    std::size_t stride = 1;
    if (coverage > kDrawnCoverage) {
        stride = std::size_t(coverage / kDrawnCoverage);
        fade = std::min(1.0, fade * double(stride));
    }
    // The faded colour is drawn opaque, as it looks over the background: the raster engine
    // blends a translucent cable pixel by pixel, some thirty times slower than it fills an
    // opaque one, which at radix 54 made a frame of tens of thousands of cables take half a
    // second. Where cables cross, the denser ink still shows where they run thick.
    const QColor colour = overBackground(m_colour, m_colour.alphaF() * fade, scene() ? scene()->backgroundBrush().color() : QColor(Qt::white));
    QPen pen(colour, m_width);
    pen.setCosmetic(true);
    painter->setPen(pen);
    painter->setBrush(Qt::NoBrush);
    drawVisibleLines(painter, m_lines, option->exposedRect, stride);
    if (!m_curves.isEmpty())
        painter->drawPath(m_curves);
}

GroupItem::GroupItem(int group, const QRectF &rect, const QColor &fill, const QString &label)
    : m_group(group), m_rect(rect), m_fill(fill), m_label(label)
{
    setZValue(3.2);
}

void GroupItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    const double lod = levelOfDetail(painter, option);
    QPen pen(m_fill.darker(160), 1.2);
    pen.setCosmetic(true);
    painter->setPen(pen);
    painter->setBrush(m_fill);
    painter->drawRect(m_rect);
    for (const Stripe &stripe : m_stripes) {
        const double half = lod > 0 ? std::max(stripe.row.height(), 4.0 / lod) / 2 : stripe.row.height() / 2;
        painter->fillRect(QRectF(stripe.row.left(), stripe.row.center().y() - half, stripe.row.width(), 2 * half), stripe.colour);
    }
    // The name at a steady size on screen, where it fits across the block.
    if (lod <= 0 || m_label.isEmpty())
        return;
    QFont font = painter->font();
    font.setPixelSize(std::max(1, int(10.0 / lod)));
    const QFontMetricsF metrics(font);
    if (metrics.horizontalAdvance(m_label) > m_rect.width() * 0.95)
        return;
    painter->setFont(font);
    painter->setPen(m_fill.lightness() > 140 ? QColor(0x20, 0x24, 0x2a) : QColor(Qt::white));
    // Between the rows of a striped block, at the top of the others.
    const double y = m_stripes.empty() ? m_rect.top() + 4.0 / lod : m_rect.center().y() - metrics.height() / 2;
    const QRectF top(m_rect.left(), y, m_rect.width(), metrics.height());
    painter->drawText(top, Qt::AlignHCenter | Qt::AlignTop, m_label);
}

BundleItem::BundleItem(int bundle, const QLineF &line)
    : m_bundle(bundle), m_line(line)
{
    // Wide enough for the thickest cosmetic pen at the farthest zoom out.
    m_bounds = QRectF(line.p1(), line.p2()).normalized().adjusted(-400, -400, 400, 400);
    setZValue(3.5);
}

void BundleItem::setLook(const QColor &colour, double width, bool outlined)
{
    m_colour = colour;
    m_width = width;
    m_outlined = outlined;
    update();
}

void BundleItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *)
{
    if (m_outlined) {
        QPen halo(QColor(0x10, 0x10, 0x10), m_width + 3, Qt::SolidLine, Qt::RoundCap);
        halo.setCosmetic(true);
        painter->setPen(halo);
        painter->drawLine(m_line);
    }
    QPen pen(m_colour, m_width, Qt::SolidLine, Qt::RoundCap);
    pen.setCosmetic(true);
    painter->setPen(pen);
    painter->drawLine(m_line);
}

MarksItem::MarksItem(std::vector<QRectF> marks, Shape shape, const QPen &pen, const QColor &fill)
    : m_marks(std::move(marks)), m_shape(shape), m_pen(pen), m_fill(fill)
{
    for (const QRectF &mark : m_marks)
        m_bounds |= mark;
    m_bounds.adjust(-2, -2, 2, 2);
    setFlag(ItemUsesExtendedStyleOption);
}

void MarksItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    // Only the marks in view: a measured tick can mark thousands of ports, and a path of them
    // all would be stroked whole at every frame.
    const double lod = levelOfDetail(painter, option);
    const QRectF exposed = option->exposedRect;
    std::vector<QRectF> visible;
    for (const QRectF &mark : m_marks)
        if (mark.intersects(exposed))
            visible.push_back(mark);
    if (visible.empty())
        return;
    const double pixels = visible.front().width() * lod;
    if (pixels < 4) {
        // Too small to tell a ring from a dot: a dot a few pixels wide, in the mark's colour.
        const double half = 2.0 / std::max(lod, 1e-9);
        for (QRectF &mark : visible)
            mark = QRectF(mark.center() - QPointF(half, half), QSizeF(2 * half, 2 * half));
        painter->setPen(Qt::NoPen);
        painter->setBrush(m_shape == Shape::Ring ? m_pen.color() : m_fill);
        painter->drawRects(visible.data(), int(visible.size()));
        return;
    }
    painter->setPen(m_pen);
    if (m_shape == Shape::Square) {
        painter->setBrush(m_fill);
        painter->drawRects(visible.data(), int(visible.size()));
        return;
    }
    painter->setBrush(Qt::NoBrush);
    for (const QRectF &mark : visible)
        painter->drawEllipse(mark);
}

CableMarkItem::CableMarkItem(const QLineF &line, QGraphicsItem *parent)
    : QGraphicsLineItem(line, parent)
{
    setFlag(ItemUsesExtendedStyleOption);
}

void CableMarkItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    // A wide pen is stroked along the whole line, in view or not: zoomed in, that is a polygon
    // hundreds of thousands of pixels long for a few hundred on screen.
    const double lod = levelOfDetail(painter, option);
    const double margin = (pen().widthF() + 2) / std::max(lod, 1e-9);
    const std::optional<QLineF> part = clipLine(line(), option->exposedRect.adjusted(-margin, -margin, margin, margin));
    if (!part)
        return;
    painter->setPen(pen());
    painter->drawLine(*part);
}

HighlightItem::HighlightItem(const QColor &colour, Qt::PenStyle style, double width, Qt::PenCapStyle cap)
    : m_colour(colour), m_style(style), m_width(width), m_cap(cap)
{
    setFlag(ItemUsesExtendedStyleOption);
    setZValue(4);
}

void HighlightItem::setLines(std::vector<QLineF> lines)
{
    prepareGeometryChange();
    m_lines = std::move(lines);
    m_bounds = boundsOf(m_lines);
    update();
}

void HighlightItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    if (m_lines.empty())
        return;
    QPen pen(m_colour, m_width, m_style, m_cap);
    pen.setCosmetic(true);
    // Only the part of each line in view is drawn: zoomed in, a line across the fabric is
    // hundreds of thousands of pixels long, and a dashed pen dashes all of it.
    const double lod = levelOfDetail(painter, option);
    const double margin = (m_width + 2) / std::max(lod, 1e-9);
    const QRectF view = option->exposedRect.adjusted(-margin, -margin, margin, margin);
    const bool solid = m_style == Qt::SolidLine;
    std::vector<QLineF> shown;
    shown.reserve(m_lines.size());
    painter->setPen(pen);
    for (const QLineF &line : m_lines) {
        const std::optional<QLineF> part = clipLine(line, view);
        if (!part)
            continue;
        if (solid) {
            shown.push_back(*part);
            continue;
        }
        // The dashes stay where they were on the whole line, wherever the view cuts it.
        pen.setDashOffset(QLineF(line.p1(), part->p1()).length() * lod / std::max(m_width, 1.0));
        painter->setPen(pen);
        painter->drawLine(*part);
    }
    if (!shown.empty())
        painter->drawLines(shown.data(), int(shown.size()));
}

}  // namespace weft

namespace weft {

ChassisItem::ChassisItem(int chassis, const QRectF &rect) : m_chassis(chassis), m_rect(rect)
{
    setZValue(-1);  // under the cables inside it
}

QColor ChassisItem::frameColour()
{
    return QColor(0x6b, 0x7a, 0x90);
}

void ChassisItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    const double lod = levelOfDetail(painter, option);
    QPen pen(frameColour(), 1.5);
    pen.setCosmetic(true);
    painter->setPen(pen);
    painter->setBrush(QColor(0xe9, 0xed, 0xf3));
    const double radius = std::min(6.0 / std::max(lod, 1e-6), std::min(m_rect.width(), m_rect.height()) / 4);
    painter->drawRoundedRect(m_rect, radius, radius);
}

RowBandItem::RowBandItem(const QRectF &row, double reach, const QColor &colour)
    : m_row(row), m_bounds(row.adjusted(0, -reach, 0, reach)), m_colour(colour)
{
    setZValue(3.5);
}

void RowBandItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    const double lod = levelOfDetail(painter, option);
    if (lod >= zoom::kPlainBoxesBelow)
        return;  // the nodes show themselves
    // At least three pixels tall, however far out.
    const double half = std::min(std::max(m_row.height(), 3.0 / lod) / 2, m_bounds.height() / 2);
    painter->fillRect(QRectF(m_row.left(), m_row.center().y() - half, m_row.width(), 2 * half), m_colour);
}

}  // namespace weft
