#pragma once
// The graphics items of the fabric scene. Nodes are one item each (the operator hovers and
// selects them); cables are drawn in batches, one item per pair of tiers, because a big
// fat-tree has tens of thousands of them and one item per cable would swamp the scene index.

#include "Fabric.h"

#include <QColor>
#include <QGraphicsItem>
#include <QGraphicsLineItem>
#include <QLineF>
#include <QPainterPath>
#include <QPen>

#include <vector>

namespace weft {

// Zoom levels (levelOfDetailFromTransform) at which the picture changes.
namespace zoom {
constexpr double kCollapseRacksBelow = 0.45;  // hosts of a leaf become one rack box
constexpr double kLabelsAbove = 0.9;          // switch descriptions are drawn in the boxes
constexpr double kHostLabelsAbove = 2.0;      // and host descriptions
constexpr double kPlainBoxesBelow = 0.2;      // no outlines, just filled boxes
constexpr double kAntialiasAbove = 0.6;       // antialiased edges (costly with thousands of cables)
constexpr double kAggregateBelow = 0.1;       // a big fabric's switches become groups, cables bundles
}  // namespace zoom

enum FabricItemType {
    NodeItemType = QGraphicsItem::UserType + 1,
    RackItemType,
    LinkLayerItemType,
    HighlightItemType,
    RowBandItemType,
    GroupItemType,
    BundleItemType,
    MarksItemType,
    ChassisItemType,
};

/** One switch, host or router. */
class NodeItem : public QGraphicsItem
{
public:
    enum { Type = NodeItemType };

    NodeItem(NodeIndex node, NodeType nodeType, const QRectF &rect, const QColor &fill, const QString &label);

    NodeIndex node() const { return m_node; }
    NodeType nodeType() const { return m_type; }
    QColor fill() const { return m_fill; }
    void setFill(const QColor &fill);
    QString label() const { return m_label; }  // drawn in the box when zoomed in
    // A service node drawn small beside its switch: shown at every zoom (no rack stands in for
    // it), never labelled.
    void setBeside(bool beside) { m_beside = beside; }
    bool isBeside() const { return m_beside; }

    int type() const override { return Type; }
    QRectF boundingRect() const override { return m_bounds; }
    QPainterPath shape() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    NodeIndex m_node;
    NodeType m_type;
    QRectF m_rect;
    QRectF m_bounds;  // m_rect with room for the selection outline
    QColor m_fill;
    QString m_label;
    bool m_beside = false;
};

/** The frame around a leaf's hosts; zoomed out, it stands in for them with their count. */
class RackItem : public QGraphicsItem
{
public:
    enum { Type = RackItemType };

    RackItem(NodeIndex leaf, int hostCount, const QRectF &rect, const QColor &fill);

    NodeIndex leaf() const { return m_leaf; }
    int hostCount() const { return m_hostCount; }
    void setFill(const QColor &fill);

    int type() const override { return Type; }
    QRectF boundingRect() const override { return m_rect; }
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    NodeIndex m_leaf;
    int m_hostCount;
    QRectF m_rect;
    QColor m_fill;
};

/** All cables between two adjacent tiers (or all the others), painted as one batch. */
class LinkLayerItem : public QGraphicsItem
{
public:
    enum { Type = LinkLayerItemType };

    // `lines` are straight cables; `curves` are drawn as a path (cables within one row).
    // `width` in pixels: cables that need to stand out (shared by partitions) are drawn wider.
    LinkLayerItem(std::vector<QLineF> lines, QPainterPath curves, const QColor &colour, double width = 0);

    int type() const override { return Type; }
    std::size_t lineCount() const { return m_lines.size(); }
    QRectF boundingRect() const override { return m_bounds; }
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    std::vector<QLineF> m_lines;
    QPainterPath m_curves;
    QRectF m_bounds;
    QColor m_colour;
    double m_width = 0;
    double m_totalLength = 0;  // of all lines, in scene units: how densely the layer is inked
};

/** The frame of a chassis (a director's spines and line cards), behind its switches. Its name
 *  is drawn by the view, at a readable size, where it fits. */
class ChassisItem : public QGraphicsItem
{
public:
    enum { Type = ChassisItemType };

    ChassisItem(int chassis, const QRectF &rect);

    int chassis() const { return m_chassis; }
    static QColor frameColour();

    int type() const override { return Type; }
    QRectF boundingRect() const override { return m_rect; }
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    int m_chassis;
    QRectF m_rect;
};

/** A row of nodes too small to see when zoomed far out, drawn as one band of its colour. */
class RowBandItem : public QGraphicsItem
{
public:
    enum { Type = RowBandItemType };

    // `row` spans the nodes' boxes; `reach` how far above and below it the band may grow.
    RowBandItem(const QRectF &row, double reach, const QColor &colour);

    int type() const override { return Type; }
    QRectF boundingRect() const override { return m_bounds; }
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    QRectF m_row;
    QRectF m_bounds;
    QColor m_colour;
};

/** A group of switches (a pod, or a band of one tier) standing in for them when zoomed out. */
class GroupItem : public QGraphicsItem
{
public:
    enum { Type = GroupItemType };

    GroupItem(int group, const QRectF &rect, const QColor &fill, const QString &label);

    int group() const { return m_group; }
    // Rows drawn inside the block (a chassis's spines and line cards), each a band of its colour
    // at least a few pixels tall.
    struct Stripe
    {
        QRectF row;
        QColor colour;
    };
    void setStripes(std::vector<Stripe> stripes) { m_stripes = std::move(stripes); }

    int type() const override { return Type; }
    QRectF boundingRect() const override { return m_rect; }
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    int m_group;
    QRectF m_rect;
    QColor m_fill;
    QString m_label;
    std::vector<Stripe> m_stripes;
};

/** The cables between two groups, drawn as one line whose colour and width say how busy. */
class BundleItem : public QGraphicsItem
{
public:
    enum { Type = BundleItemType };

    BundleItem(int bundle, const QLineF &line);

    int bundle() const { return m_bundle; }
    QLineF line() const { return m_line; }
    QColor colour() const { return m_colour; }
    // `width` in pixels; `outlined` draws a dark halo under it (the hottest bundle).
    void setLook(const QColor &colour, double width, bool outlined);

    int type() const override { return Type; }
    QRectF boundingRect() const override { return m_bounds; }
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    int m_bundle;
    QLineF m_line;
    QRectF m_bounds;
    QColor m_colour;
    double m_width = 1;
    bool m_outlined = false;
};

/** Many small marks of one look (rings, or filled squares), drawn where they are in view. */
class MarksItem : public QGraphicsItem
{
public:
    enum { Type = MarksItemType };
    enum class Shape : std::uint8_t { Ring,
                                      Square };

    // `pen` cosmetic; `fill` for squares.
    MarksItem(std::vector<QRectF> marks, Shape shape, const QPen &pen, const QColor &fill = QColor());
    std::size_t markCount() const { return m_marks.size(); }

    int type() const override { return Type; }
    QRectF boundingRect() const override { return m_bounds; }
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    std::vector<QRectF> m_marks;
    QRectF m_bounds;
    Shape m_shape;
    QPen m_pen;
    QColor m_fill;
};

/** One cable marked over the picture (an eBB bottleneck): only its part in view is stroked. */
class CableMarkItem : public QGraphicsLineItem
{
public:
    CableMarkItem(const QLineF &line, QGraphicsItem *parent);
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;
};

/** The cables of the selected nodes, drawn over everything else; also the marks on cables. */
class HighlightItem : public QGraphicsItem
{
public:
    enum { Type = HighlightItemType };

    // A dashed highlight can lie over a solid one (a route back over the route there) and
    // both stay visible. `width` in pixels.
    explicit HighlightItem(const QColor &colour, Qt::PenStyle style = Qt::SolidLine, double width = 2.5,
                           Qt::PenCapStyle cap = Qt::RoundCap);
    void setLines(std::vector<QLineF> lines);
    std::size_t lineCount() const { return m_lines.size(); }

    int type() const override { return Type; }
    QRectF boundingRect() const override { return m_bounds; }
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    std::vector<QLineF> m_lines;
    QRectF m_bounds;
    QColor m_colour;
    Qt::PenStyle m_style;
    double m_width;
    Qt::PenCapStyle m_cap;
};

}  // namespace weft
