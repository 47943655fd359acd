#include "SceneTiming.h"

#include "BenchHarness.h"
#include "EbbBottlenecks.h"
#include "FabricItems.h"
#include "FabricLayout.h"
#include "FabricScene.h"
#include "FabricView.h"
#include "Metrics.h"
#include "RoutingEngine.h"
#include "TelemetryRecord.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>

namespace weft::cli {

namespace {

// One frame as the view paints it on screen: the viewport's paint event (background, the items
// the index finds in the exposed area, the legend and tier labels over them) into an image,
// after the scene's deferred work (index and dirty items) that the event loop would run first.
void paintViewport(FabricView &view, QImage &image)
{
    QCoreApplication::processEvents();
    view.viewport()->render(&image);
}

// Zooms through `levels` and pans at each: every step is one frame, timed from the zoom or pan
// to the end of the repaint.
std::vector<double> runZoomSequence(FabricView &view, const QRectF &fabricRect, const std::vector<double> &levels)
{
    QImage image(view.viewport()->size(), QImage::Format_ARGB32_Premultiplied);
    const QPointF pans[] = {fabricRect.center(), fabricRect.topLeft(), fabricRect.topRight(), fabricRect.bottomLeft(),
                            fabricRect.bottomRight()};
    std::vector<double> frames;
    QElapsedTimer timer;
    for (double level : levels) {
        view.centerOn(fabricRect.center());
        timer.start();
        view.setZoom(level);
        paintViewport(view, image);
        frames.push_back(secondsOf(timer));
        for (const QPointF &at : pans) {
            timer.restart();
            view.centerOn(at);
            paintViewport(view, image);
            frames.push_back(secondsOf(timer));
        }
    }
    return frames;
}

// A tick of measured rates for every cabled port: utilisation from `loads` (scaled to 0..1),
// PortXmitWait rising on one port in 50 and new errors on one in 500.
std::vector<TelemetryRecord> measuredTick(const Fabric &fabric, const std::vector<double> &loads, double scale)
{
    const double most = std::max(1e-12, *std::max_element(loads.begin(), loads.end()));
    std::vector<TelemetryRecord> records;
    records.reserve(fabric.links().size() * 2);
    for (const Link &link : fabric.links())
        for (PortIndex p : {link.a, link.b}) {
            TelemetryRecord r;
            r.portIndex = p;
            r.port = fabric.port(p).number;
            r.guid = fabric.node(fabric.port(p).node).guid;
            r.seconds = 1;
            r.rates.utilisation.value = std::min(1.0, scale * loads[std::size_t(p)] / most);
            r.rates.xmitBytes.value = r.rates.utilisation.value * 12.5e9;
            r.rates.xmitWait.value = std::size_t(p) % 50 == 0 ? 1000 : 0;
            r.rates.errors[0].delta = std::size_t(p) % 500 == 0 ? 1 : 0;
            records.push_back(r);
        }
    return records;
}

}  // namespace

FrameFigures frameFigures(std::vector<double> frameSeconds)
{
    FrameFigures figures;
    if (frameSeconds.empty())
        return figures;
    std::sort(frameSeconds.begin(), frameSeconds.end());
    const std::size_t n = frameSeconds.size();
    figures.frames = n;
    figures.medianSeconds = n % 2 ? frameSeconds[n / 2] : (frameSeconds[n / 2 - 1] + frameSeconds[n / 2]) / 2;
    figures.p95Seconds = frameSeconds[std::min(n - 1, std::size_t(std::ceil(0.95 * double(n))) - 1)];
    figures.maxSeconds = frameSeconds.back();
    return figures;
}

std::vector<double> zoomSequenceLevels(double fitZoom)
{
    std::vector<double> levels{fitZoom};
    for (double change : {zoom::kAggregateBelow, zoom::kPlainBoxesBelow, zoom::kCollapseRacksBelow, zoom::kAntialiasAbove,
                          zoom::kLabelsAbove, zoom::kHostLabelsAbove})
        for (double side : {0.95, 1.05})
            levels.push_back(change * side);
    for (double close : {0.5 * (fitZoom + zoom::kAggregateBelow), 1.0, 4.0, 8.0})
        levels.push_back(close);
    levels.erase(std::remove_if(levels.begin(), levels.end(), [fitZoom](double z) { return z < fitZoom; }), levels.end());
    std::sort(levels.begin(), levels.end());
    levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
    return levels;
}

struct SceneBench::Inputs
{
    std::shared_ptr<const Fabric> fabric;
    std::shared_ptr<const ForwardingTables> tables;
    std::shared_ptr<const Metrics> metrics;
};

SceneBench::SceneBench(std::shared_ptr<const Fabric> fabric) : m_inputs(std::make_unique<Inputs>())
{
    m_inputs->fabric = std::move(fabric);
    Result<Routing> routing = routeFabric(QStringLiteral("ftree"), *m_inputs->fabric, Tenancy());
    if (!routing) {
        m_error = routing.error().message;
        return;
    }
    m_inputs->tables = std::make_shared<const ForwardingTables>(std::move(routing.value().tables));
    TrafficModel model;
    model.pattern = TrafficPattern::UniformRandom;
    m_inputs->metrics = std::make_shared<const Metrics>(computeMetrics(*m_inputs->fabric, Tenancy(), *m_inputs->tables, model));
}

SceneBench::~SceneBench() = default;

SceneTiming SceneBench::run(QSize size, bool zoomSequence) const
{
    SceneTiming timing;
    FabricScene scene;
    FabricView view;
    view.resize(size);
    // Laid out as on screen (viewport, scroll bars), then hidden again, so that the frames are
    // painted here, once each, rather than also by the event loop.
    view.setAttribute(Qt::WA_DontShowOnScreen);
    view.show();
    QCoreApplication::processEvents();
    view.hide();
    QElapsedTimer timer;
    timer.start();
    const std::shared_ptr<const Fabric> fabric = m_inputs->fabric;
    FabricLayout layout = QtConcurrent::run([fabric] { return computeFabricLayout(*fabric); }).result();
    scene.setFabric(fabric, std::move(layout));
    scene.setRouting(m_inputs->tables, m_inputs->metrics);
    scene.setLinkColouring(LinkColouring::Load);
    timing.buildSeconds = secondsOf(timer);
    timing.items = std::size_t(scene.items().size());
    view.setFabricScene(&scene);
    view.fitToWindow();
    QCoreApplication::processEvents();
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    timer.restart();
    QPainter painter(&image);
    view.render(&painter);
    painter.end();
    timing.repaintSeconds = secondsOf(timer);
    // One tick of samples: every port's load moved a little, as a measured source would.
    std::vector<double> tick(fabric->ports().size(), 0.0);
    for (const LinkLoad &l : m_inputs->metrics->links)
        if (l.from >= 0 && std::size_t(l.from) < tick.size())
            tick[std::size_t(l.from)] = l.load * (0.8 + 0.05 * double(std::size_t(l.from) % 9));
    timing.aggregated = scene.isAggregated();
    timer.restart();
    scene.setCableLoads(tick);
    timing.recolourSeconds = secondsOf(timer);

    const QRectF fabricRect = scene.sceneRect();
    const double fitZoom = view.zoom();
    const std::vector<double> levels = zoomSequenceLevels(fitZoom);
    if (zoomSequence) {
        timing.zoomFrameSeconds = runZoomSequence(view, fabricRect, levels);
        view.fitToWindow();
    }

    // The overlays, all at once: the selection's cables, what-if marks, eBB bottlenecks and the
    // measured load with its congestion rings and error badges.
    const Fabric &f = *fabric;
    const std::vector<NodeIndex> &leaves = scene.layout().rows.size() > 1 ? scene.layout().rows[1] : std::vector<NodeIndex>{};
    if (!leaves.empty())
        scene.selectNode(leaves[leaves.size() / 2]);
    std::vector<LinkIndex> failed;
    for (std::size_t l = 0; l < f.links().size() && failed.size() < 8; l += f.links().size() / 8 + 1)
        failed.push_back(LinkIndex(l));
    scene.setWhatIfMarks(failed, f.switches().empty() ? std::vector<NodeIndex>{} : std::vector<NodeIndex>{f.switches().front()});
    std::vector<EbbBottleneck> bottlenecks;
    for (const LinkLoad &l : m_inputs->metrics->links)
        if (l.from >= 0 && bottlenecks.size() < 10 && f.node(f.port(l.from).node).type == NodeType::Switch)
            bottlenecks.push_back(EbbBottleneck{l.from, 100, 0.01, 1.5});
    scene.setEbbBottlenecks(bottlenecks);
    scene.setLinkColouring(LinkColouring::Measured);
    scene.setMeasuredTelemetry(measuredTick(f, tick, 1.0));
    QCoreApplication::processEvents();
    timer.restart();
    painter.begin(&image);
    view.render(&painter);
    painter.end();
    timing.overlayRepaintSeconds = secondsOf(timer);
    const std::vector<TelemetryRecord> next = measuredTick(f, tick, 0.9);
    timer.restart();
    scene.setMeasuredTelemetry(next);
    timing.overlayRecolourSeconds = secondsOf(timer);
    if (zoomSequence)
        timing.overlayZoomFrameSeconds = runZoomSequence(view, fabricRect, levels);
    return timing;
}

}  // namespace weft::cli
