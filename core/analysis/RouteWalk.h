#pragma once
// Following a route hop by hop through the forwarding tables: the one walk behind the
// migration planner's paths, the fabric view's route highlight and the lab's traffic driver.
// (RouteTracer, behind validation and metrics, walks the same way with the same ends on
// compact copies of the tables and ports: it settles 143 million switches on the 39,366-host
// tree.) A
// walk allocates nothing; where it finds a switch's table is the caller's choice (any callable
// NodeIndex -> const LinearForwardingTable *, nullptr for none): callers that walk many routes
// resolve every table once (TablesByNode), while the fabric view follows one route and a
// migration plan a few short ones, where resolving every switch first would cost more than the
// walks (TablesByGuid, or the planner's own index of the tree).

#include "Fabric.h"
#include "ForwardingTables.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace weft {

// One hop: `from` sends by its port `out`, whose cable leads to port `remote` of `next`.
struct RouteHop
{
    NodeIndex from = kNoIndex;
    PortIndex out = kNoIndex;
    PortIndex remote = kNoIndex;
    NodeIndex next = kNoIndex;
    bool intoSwitch = false;  // `next` is a switch: the walk goes on through its table
};

// Why a walk ended; "the switch" is the last one the walk reached.
enum class RouteEnd : std::uint8_t {
    AtEndNode,  // the last hop led to a CA or router: the destination, or a wrong one
    AtSwitch,   // the switch's entry is port 0: the LID is its own (or misrouted to it)
    NoTable,    // the switch has no forwarding table
    NoRoute,    // the switch has no entry for the LID
    DeadPort,   // the entry names a port without a cable, or one past the switch's ports
    Loop,       // more hops through switches than the fabric has switches
    Stopped,    // the caller's visitor stopped the walk
};

// Every switch's table looked up once, for callers that walk many routes.
class TablesByNode
{
public:
    TablesByNode(const Fabric &fabric, const ForwardingTables &tables);
    const LinearForwardingTable *operator()(NodeIndex node) const { return m_tables[std::size_t(node)]; }

private:
    std::vector<const LinearForwardingTable *> m_tables;
};

// A switch's table looked up by its GUID at each hop, for callers that walk a route or two.
class TablesByGuid
{
public:
    TablesByGuid(const Fabric &fabric, const ForwardingTables &tables) : m_fabric(fabric), m_tables(tables) {}
    const LinearForwardingTable *operator()(NodeIndex node) const
    {
        const SwitchForwardingTable *t = m_tables.find(m_fabric.node(node).guid);
        return t ? &t->lft : nullptr;
    }

private:
    const Fabric &m_fabric;
    const ForwardingTables &m_tables;
};

namespace detail {

inline bool leaveBy(const Fabric &fabric, NodeIndex from, PortIndex out, RouteHop &hop)
{
    if (out == kNoIndex || fabric.port(out).remote == kNoIndex)
        return false;
    hop.from = from;
    hop.out = out;
    hop.remote = fabric.port(out).remote;
    hop.next = fabric.port(hop.remote).node;
    hop.intoSwitch = fabric.node(hop.next).type == NodeType::Switch;
    return true;
}

}  // namespace detail

// Walks from switch `start` towards `lid`, calling visit(const RouteHop &) after every hop; a
// visitor returning false stops the walk there.
template <typename TableOf, typename Visit>
RouteEnd walkRoute(const Fabric &fabric, const TableOf &tableOf, NodeIndex start, Lid lid, Visit &&visit)
{
    NodeIndex at = start;
    RouteHop hop;
    // A route that crosses more switches than there are has looped.
    for (std::size_t hops = 0, switches = fabric.switches().size(); hops <= switches; ++hops) {
        const LinearForwardingTable *lft = tableOf(at);
        if (!lft)
            return RouteEnd::NoTable;
        const std::uint8_t number = lft->port(lid);
        if (number == kNoRoute)
            return RouteEnd::NoRoute;
        if (number == 0)
            return RouteEnd::AtSwitch;
        if (!detail::leaveBy(fabric, at, fabric.portOf(at, number), hop))
            return RouteEnd::DeadPort;
        if (!visit(static_cast<const RouteHop &>(hop)))
            return RouteEnd::Stopped;
        if (!hop.intoSwitch)
            return RouteEnd::AtEndNode;
        at = hop.next;
    }
    return RouteEnd::Loop;
}

// The same, leaving by port `out` first: a host's port, whose node needs no table.
template <typename TableOf, typename Visit>
RouteEnd walkRouteFromPort(const Fabric &fabric, const TableOf &tableOf, PortIndex out, Lid lid, Visit &&visit)
{
    RouteHop hop;
    if (!detail::leaveBy(fabric, fabric.port(out).node, out, hop))
        return RouteEnd::DeadPort;
    if (!visit(static_cast<const RouteHop &>(hop)))
        return RouteEnd::Stopped;
    if (!hop.intoSwitch)
        return RouteEnd::AtEndNode;
    return walkRoute(fabric, tableOf, hop.next, lid, visit);
}

}  // namespace weft
