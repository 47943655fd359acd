#pragma once
// One host's route to another through one set of tables, hop by hop: what the map's route
// highlight draws and what Trace path lists, walked by RouteWalk from the source host's first
// cabled port.

#include "Fabric.h"
#include "ForwardingTables.h"
#include "RouteWalk.h"

#include <vector>

namespace weft {

struct HostRoute
{
    Lid lid = 0;                 // the destination's LID
    std::vector<RouteHop> hops;  // the source host's hop first
    RouteEnd end = RouteEnd::NoRoute;
    bool arrived = false;  // the last hop reached the destination
    std::vector<PortIndex> outPorts() const;
};

// The route from `from` to `to` (the destination by its node LID); no hops when they are the
// same node, `from` has no cabled port (end DeadPort) or `to` no LID (end DeadPort).
HostRoute traceHostRoute(const Fabric &fabric, const ForwardingTables &tables, NodeIndex from, NodeIndex to);

}  // namespace weft
