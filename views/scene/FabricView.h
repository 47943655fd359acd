#pragma once
// The window onto a FabricScene: wheel zoom around the cursor, rubber-band selection with the
// left button, pan with the middle or right button, hosts dragged out of the selection onto a
// partition (as application/x-weft-ports), fit to window, and a legend (with the load scale
// when cables show load) and tier labels that stay put on screen while the fabric moves.

#include "Fabric.h"

#include <QColor>
#include <QGraphicsView>

#include <vector>

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

public Q_SLOTS:
    void zoomIn();
    void zoomOut();
    // Shows the whole fabric, and keeps doing so on resize until the operator zooms or pans.
    void fitToWindow();
    // Zooms in far enough to read the node, centres it and selects it.
    void focusNode(weft::NodeIndex node);
    // Finds a node by name, GUID or LID and focuses it; false if there is none.
    bool findAndFocus(const QString &text);
    // Centres the hottest bundle of a zoomed-out big fabric and opens it into its cables;
    // false if there is none (no load known, or the fabric is drawn whole).
    bool goToHottestBundle();

Q_SIGNALS:
    void zoomChanged(double zoom);

protected:
    void wheelEvent(QWheelEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    // On a bundle or a block of a zoomed-out big fabric: opens it.
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void drawForeground(QPainter *painter, const QRectF &rect) override;

private:
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
    bool showsLoadScale() const;
    void drawLegend(QPainter *painter);
    void drawTierLabels(QPainter *painter);
    void drawLoadScale(QPainter *painter, const QRect &legendBox);
    void startPortsDrag();

    FabricScene *m_scene = nullptr;
    bool m_followFit = true;
    bool m_panning = false;
    QPoint m_lastPanPos;
    bool m_dragCandidate = false;  // pressed on a selected host: moving drags the selection
    QPoint m_pressPos;
    NodeIndex m_pressedNode = kNoIndex;
};

}  // namespace weft
