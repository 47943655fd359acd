#pragma once
// The window onto a FabricScene: wheel zoom around the cursor, drag to pan, fit to window, and
// a legend and tier labels that stay put on screen while the fabric moves underneath.

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

Q_SIGNALS:
    void zoomChanged(double zoom);

protected:
    void wheelEvent(QWheelEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
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
    };
    std::vector<LegendEntry> legendEntries() const;
    int legendHeight() const;
    void drawLegend(QPainter *painter);
    void drawTierLabels(QPainter *painter);

    FabricScene *m_scene = nullptr;
    bool m_followFit = true;
};

} // namespace weft
