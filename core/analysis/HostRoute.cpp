#include "HostRoute.h"

namespace weft {

std::vector<PortIndex> HostRoute::outPorts() const
{
    std::vector<PortIndex> ports;
    ports.reserve(hops.size());
    for (const RouteHop &hop : hops)
        ports.push_back(hop.out);
    return ports;
}

HostRoute traceHostRoute(const Fabric &fabric, const ForwardingTables &tables, NodeIndex from, NodeIndex to)
{
    HostRoute route;
    if (from == kNoIndex || to == kNoIndex || from == to)
        return route;
    route.lid = fabric.nodeLid(to);
    const Node &source = fabric.node(from);
    PortIndex out = kNoIndex;
    for (int p = 0; p <= source.portCount && out == kNoIndex; ++p) {
        const PortIndex port = source.firstPort + p;
        if (fabric.port(port).present && fabric.port(port).remote != kNoIndex)
            out = port;
    }
    if (route.lid == 0 || out == kNoIndex) {
        route.end = RouteEnd::DeadPort;
        return route;
    }
    route.end = walkRouteFromPort(fabric, TablesByGuid(fabric, tables), out, route.lid, [&](const RouteHop &hop) {
        route.hops.push_back(hop);
        route.arrived = hop.next == to;
        return !route.arrived;
    });
    if (route.arrived)
        route.end = RouteEnd::AtEndNode;
    return route;
}

}  // namespace weft
