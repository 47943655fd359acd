#include "SceneTiming.h"

#include "FabricLayout.h"
#include "FabricScene.h"
#include "FabricView.h"
#include "Metrics.h"
#include "RoutingEngine.h"

#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QtConcurrent/QtConcurrentRun>

namespace weft::cli {

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

SceneTiming SceneBench::run(QSize size) const
{
    SceneTiming timing;
    FabricScene scene;
    FabricView view;
    view.resize(size);
    QElapsedTimer timer;
    timer.start();
    const std::shared_ptr<const Fabric> fabric = m_inputs->fabric;
    FabricLayout layout = QtConcurrent::run([fabric] { return computeFabricLayout(*fabric); }).result();
    scene.setFabric(fabric, std::move(layout));
    scene.setRouting(m_inputs->tables, m_inputs->metrics);
    scene.setLinkColouring(LinkColouring::Load);
    timing.buildSeconds = double(timer.nsecsElapsed()) / 1e9;
    timing.items = std::size_t(scene.items().size());
    view.setFabricScene(&scene);
    view.fitToWindow();
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    timer.restart();
    QPainter painter(&image);
    view.render(&painter);
    painter.end();
    timing.repaintSeconds = double(timer.nsecsElapsed()) / 1e9;
    // One tick of samples: every port's load moved a little, as a measured source would.
    std::vector<double> tick(fabric->ports().size(), 0.0);
    for (const LinkLoad &l : m_inputs->metrics->links)
        if (l.from >= 0 && std::size_t(l.from) < tick.size())
            tick[std::size_t(l.from)] = l.load * (0.8 + 0.05 * double(std::size_t(l.from) % 9));
    timing.aggregated = scene.isAggregated();
    timer.restart();
    scene.setCableLoads(std::move(tick));
    timing.recolourSeconds = double(timer.nsecsElapsed()) / 1e9;
    return timing;
}

}  // namespace weft::cli
