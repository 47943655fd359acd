#include "MinHopEngine.h"

#include "LeastLoadedLfts.h"

namespace weft {

QString MinHopEngine::description() const
{
    return QStringLiteral("Shortest paths, balanced by route count per port (OpenSM's default)");
}

Status MinHopEngine::prepare(const Fabric &fabric, const Tenancy &, const RoutingOptions &)
{
    m_graph.reset();
    Result<routing::SwitchGraph> graph = routing::buildRoutableGraph(fabric, name());
    if (!graph)
        return graph.error();
    m_graph = std::move(graph).value();
    return Done{};
}

Result<Routing> MinHopEngine::route(const RoutingOptions &options)
{
    if (!m_graph)
        return Error{{}, 0, QStringLiteral("minhop: route() without a successful prepare()")};
    routing::HopTable hops(*m_graph);
    routing::fillMinHopTable(*m_graph, hops);
    std::vector<std::vector<std::uint8_t>> lfts;
    if (!routing::buildLeastLoadedLfts(*m_graph, hops, options.progress, lfts))
        return routing::cancelledError(name());
    Routing result;
    result.engine = name();
    result.tables = routing::makeTables(*m_graph, lfts);
    return result;
}

}  // namespace weft
