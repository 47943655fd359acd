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
    const routing::SwitchGraph &graph = *m_graph;
    routing::LeastHopPorts ports(graph);
    if (!routing::fillMinHopPorts(graph, 0, routing::progressPart(options.progress, 0, 2), ports))
        return routing::cancelledError(name());
    Result<ForwardingTables> tables =
        routing::buildLeastLoadedLfts(graph, ports, 0, name(), routing::progressPart(options.progress, 1, 2));
    if (!tables)
        return tables.error();
    Routing result;
    result.engine = name();
    result.tables = std::move(tables).value();
    return result;
}

}  // namespace weft
