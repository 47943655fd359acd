#pragma once
// The window onto a FabricScene: wheel zoom around the cursor, rubber-band selection with the
// left button, pan with the middle or right button, hosts dragged out of the selection onto a
// partition (as application/x-weft-ports), fit to window, and a legend (with the load scale
// when cables show load) and tier labels that stay put on screen while the fabric moves.

#include "Fabric.h"

#include <QColor>
#include <QGraphicsView>

#include <functional>
#include <vector>

class QMenu;

namespace weft {

class FabricScene;

class FabricView : public QGraphicsView
{
    Q_OBJECT

public:
    explicit FabricView(QWidget *parent = nullptr);

    void setFabricScene(FabricScene *scene);
    FabricScene *fabricScene() const { return m_scene; }

    double zoom() const;  // scene units to pixels
    // Where the legend is drawn over the picture, in viewport pixels (empty without a fabric).
    // A fitted picture leaves it room of its own: it covers no node.
    QRect legendRect() const;
    // The chassis whose names are drawn now (over their frames, where a name fits), by index
    // into the layout's chassis.
    std::vector<int> chassisLabelsShown() const;

public Q_SLOTS:
    void zoomIn();
    void zoomOut();
    // Zooms to `zoom` around the middle of the view, within the limits the wheel keeps to.
    void setZoom(double zoom);
    // Shows the whole fabric, and keeps doing so on resize until the operator zooms or pans.
    void fitToWindow();
    // Zooms in far enough to read the node, centres it and selects it.
    void focusNode(weft::NodeIndex node);
    // Finds a node by name, GUID or LID and focuses it; false if there is none.
    bool findAndFocus(const QString &text);
    // Centres the hottest bundle of a zoomed-out big fabric and opens it into its cables;
    // false if there is none (no load known, or the fabric is drawn whole).
    bool goToHottestBundle();

    // The what-if menu of the element at `viewPos`, as a right-click (without a drag) shows it:
    // a cable "Fail this link", a switch "Fail this switch", a host "Remove"; null over nothing.
    // Its actions emit the signals below; nothing here changes the fabric.
    QMenu *whatIfMenuAt(const QPoint &viewPos, QWidget *parent);
    // Which switches and cables are drained for maintenance (the intent in force's set): the
    // menu offers Undrain for them, Drain for the others.
    void setDrainedTest(std::function<bool(weft::Guid node, int port)> isDrained) { m_isDrained = std::move(isDrained); }

Q_SIGNALS:
    void zoomChanged(double zoom);
    // What-if events asked for on the map: the link on (node, port) fails, a switch fails, a
    // host is removed.
    void failLinkRequested(weft::Guid node, int port);
    void failSwitchRequested(weft::Guid node);
    void removeHostRequested(weft::Guid node);
    // Maintenance asked for on the map: the cable on (node, port), or a switch (port 0), drained
    // (routed around while it stays up) or undrained.
    void drainRequested(weft::Guid node, int port, bool drain);
    // A switch's forwarding table asked for in the LFT inspector.
    void inspectLftRequested(weft::Guid node);

protected:
    void wheelEvent(QWheelEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    // On a bundle or a block of a zoomed-out big fabric: opens it.
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void drawForeground(QPainter *painter, const QRectF &rect) override;
    // From the keyboard only: a right-click shows the what-if menu on release, once it is
    // clear the button did not pan.
    void contextMenuEvent(QContextMenuEvent *event) override;

private:
    std::function<bool(weft::Guid, int)> m_isDrained;
    void zoomBy(double factor);
    void applyZoomDependentSettings();
    double fitZoom() const;
    struct LegendEntry
    {
        QColor colour;
        QString text;
        bool line = false;  // a cable, not a box
        double width = 0;
    };
    std::vector<LegendEntry> legendEntries() const;
    int legendHeight() const;
    int legendHeightFor(std::size_t rows) const;
    int legendColumnWidth(const std::vector<LegendEntry> &entries) const;
    struct LegendPlacement
    {
        int columns = 1;
        bool right = false;  // a column down the right rather than a band across the top
        double zoom = 1.0;   // the picture's, fitted
    };
    LegendPlacement bestLegendPlacement() const;
    QRect legendRectFor(const std::vector<LegendEntry> &entries) const;
    bool showsLoadScale() const;
    void drawLegend(QPainter *painter, const std::vector<LegendEntry> &entries);
    void drawTierLabels(QPainter *painter);
    // Each chassis's name and switch count above its frame, where there is room for it.
    void drawChassisLabels(QPainter *painter, const QRect &legend);
    struct ChassisLabel
    {
        int chassis = -1;
        QRect box;
        QString text;
    };
    std::vector<ChassisLabel> chassisLabels(const QRect &legend) const;  // clear of `legend`
    void drawLoadScale(QPainter *painter, const QRect &legendBox);
    void startPortsDrag();

    FabricScene *m_scene = nullptr;
    bool m_followFit = true;
    int m_legendColumns = 1;      // as the last fit placed it (bestLegendPlacement)
    bool m_legendOnRight = false;
    bool m_panning = false;
    QPoint m_lastPanPos;
    bool m_dragCandidate = false;  // pressed on a selected host: moving drags the selection
    QPoint m_pressPos;
    NodeIndex m_pressedNode = kNoIndex;
    QPoint m_rightPressPos;  // where a right-button press began: no drag since, a what-if menu
};

}  // namespace weft
