// The engines by name (RoutingEngine.h declares it): the one table that makes them, lists them
// and describes them. It lives with the engines, so that the interface's folder includes none of
// them.
#include "RoutingEngine.h"

#include "FatTreeEngine.h"
#include "MinHopEngine.h"
#include "PartitionAwareFatTree.h"
#include "SsspEngine.h"
#include "UpDownEngine.h"
#include "VSwitchFatTree.h"

namespace weft {

namespace {

template <typename Engine, auto... arguments>
std::unique_ptr<RoutingEngine> make()
{
    return std::make_unique<Engine>(arguments...);
}

using PartitionAware = PartitionAwareFatTreeEngine::Algorithm;

}  // namespace

const std::vector<RoutingEngineEntry> &routingEngines()
{
    static const std::vector<RoutingEngineEntry> engines{
        {"ftree", make<FatTreeEngine>},
        {"minhop", make<MinHopEngine>},
        {"updn", make<UpDownEngine>},
        {"pftree", make<PartitionAwareFatTreeEngine, PartitionAware::Extended>},
        {"pftree-wt", make<PartitionAwareFatTreeEngine, PartitionAware::Weighted>},
        {"wftree", make<PartitionAwareFatTreeEngine, PartitionAware::WeightedFatTree>},
        {"sssp", make<SsspEngine, SsspEngine::Variant::PerDestination>},
        {"sssp2", make<SsspEngine, SsspEngine::Variant::PerPair>},
        {"vswitch-ftree", make<VSwitchFatTreeEngine>},
    };
    return engines;
}

std::unique_ptr<RoutingEngine> makeRoutingEngine(const QString &name)
{
    for (const RoutingEngineEntry &entry : routingEngines())
        if (name == QLatin1String(entry.name))
            return entry.make();
    return nullptr;
}

QStringList routingEngineNames()
{
    QStringList names;
    for (const RoutingEngineEntry &entry : routingEngines())
        names << QLatin1String(entry.name);
    return names;
}

QString routingEngineDescription(const QString &name)
{
    const std::unique_ptr<RoutingEngine> engine = makeRoutingEngine(name);
    return engine ? engine->description() : QString();
}

Result<Routing> routeFabric(const QString &engine, const Fabric &fabric, const Tenancy &tenancy,
                            const RoutingOptions &options)
{
    std::unique_ptr<RoutingEngine> e = makeRoutingEngine(engine);
    if (!e)
        return Error{{}, 0, QStringLiteral("unknown routing engine \"%1\" (known: %2)")
                                .arg(engine, routingEngineNames().join(QStringLiteral(", ")))};
    const Status prepared = e->prepare(fabric, tenancy, options);
    if (!prepared)
        return prepared.error();
    return e->route(options);
}

}  // namespace weft
