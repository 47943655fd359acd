#include "RoutingEngine.h"

#include "FatTreeEngine.h"
#include "MinHopEngine.h"
#include "PartitionAwareFatTree.h"
#include "SsspEngine.h"
#include "UpDownEngine.h"
#include "VSwitchFatTree.h"

namespace weft {

std::unique_ptr<RoutingEngine> makeRoutingEngine(const QString &name)
{
    if (name == QLatin1String("ftree"))
        return std::make_unique<FatTreeEngine>();
    if (name == QLatin1String("minhop"))
        return std::make_unique<MinHopEngine>();
    if (name == QLatin1String("updn"))
        return std::make_unique<UpDownEngine>();
    if (name == QLatin1String("pftree"))
        return std::make_unique<PartitionAwareFatTreeEngine>(PartitionAwareFatTreeEngine::Algorithm::Extended);
    if (name == QLatin1String("pftree-wt"))
        return std::make_unique<PartitionAwareFatTreeEngine>(PartitionAwareFatTreeEngine::Algorithm::Weighted);
    if (name == QLatin1String("wftree"))
        return std::make_unique<PartitionAwareFatTreeEngine>(PartitionAwareFatTreeEngine::Algorithm::WeightedFatTree);
    if (name == QLatin1String("sssp"))
        return std::make_unique<SsspEngine>(SsspEngine::Variant::PerDestination);
    if (name == QLatin1String("sssp2"))
        return std::make_unique<SsspEngine>(SsspEngine::Variant::PerPair);
    if (name == QLatin1String("vswitch-ftree"))
        return std::make_unique<VSwitchFatTreeEngine>();
    return nullptr;
}

QStringList routingEngineNames()
{
    return {QStringLiteral("ftree"), QStringLiteral("minhop"), QStringLiteral("updn"),
            QStringLiteral("pftree"), QStringLiteral("pftree-wt"), QStringLiteral("wftree"),
            QStringLiteral("sssp"), QStringLiteral("sssp2"), QStringLiteral("vswitch-ftree")};
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
