#pragma once
// The part of a Fabric that unicast routing looks at, in compact index arrays: switches, every
// switch port (CSR: a switch's ports 0..portCount are consecutive slots), and the LID-bearing
// end ports hanging off them. Built once per prepare(); engines keep their own state beside it.

#include "Fabric.h"
#include "ForwardingTables.h"
#include "Result.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace weft::routing {

constexpr std::uint8_t kNoPath = 0xFF;  // OpenSM's OSM_NO_PATH, for ports and hop counts alike

struct SwitchGraph
{
    enum class Remote : std::uint8_t { None, Switch, EndPort };

    struct Switch
    {
        NodeIndex node = kNoIndex;
        Guid guid = 0;
        Guid portGuid = 0;  // of port 0, the switch's own address
        Lid lid = 0;
        int portCount = 0;  // physical ports, numbered 1..portCount
        int firstSlot = 0;  // slot of port 0
        QString description;
    };

    struct Slot
    {
        Remote remote = Remote::None;
        int index = -1;               // switch or end-port index of the far side
        std::uint8_t remotePort = 0;  // port number on the far side
    };

    // A channel adapter (or router) port with a LID and a link.
    struct EndPort
    {
        NodeIndex node = kNoIndex;
        NodeType type = NodeType::ChannelAdapter;
        Guid nodeGuid = 0;
        Guid portGuid = 0;
        std::uint8_t number = 0;
        Lid lid = 0;
        std::uint8_t lmc = 0;
        // A compute node's port (NodeRoles.h); service and I/O nodes are routed all the same,
        // but make no leaf and no root. True for every port when the fabric has no compute node.
        bool compute = true;
        Remote remote = Remote::None;  // what the cable reaches: a switch, another end port
        int remoteIndex = -1;
        std::uint8_t remotePort = 0;
    };

    std::vector<Switch> switches;   // in fabric order
    std::vector<Slot> slots;
    std::vector<EndPort> endPorts;  // in fabric port order
    std::vector<int> switchOfNode;  // NodeIndex -> switch index or -1
    Lid maxLid = 0;
    int maxLmc = 0;
    // Linked CA and router ports left out for having no LID (a topology file written before the
    // SM assigned LIDs): nothing can be routed to them. An engine that finds too few end ports
    // says so, naming the first.
    int endPortsWithoutLid = 0;
    QString firstEndPortWithoutLid;
    QString endPortsWithoutLidText() const;  // "" when there are none

    const Slot &slot(int sw, int port) const { return slots[std::size_t(switches[std::size_t(sw)].firstSlot + port)]; }

    // Refuses fabrics whose switches have no LID: there is nothing to address tables by.
    static Result<SwitchGraph> build(const Fabric &fabric);
};

// OpenSM keeps nodes, switches and ports in maps keyed by the GUID as stored in network byte
// order, compared as a host integer. On the little-endian machines it runs on, that orders by
// the byte-swapped GUID (last byte most significant), and every "for each switch" of OpenSM
// visits switches in that order. This is the key to sort by to reproduce it.
std::uint64_t openSmMapKey(Guid guid);

// Switch indices of `graph` in OpenSM's map order.
std::vector<int> switchesInOpenSmOrder(const SwitchGraph &graph);

// Packs per-switch raw LFTs (indexed by switch, then LID) into ForwardingTables.
ForwardingTables makeTables(const SwitchGraph &graph, const std::vector<std::vector<std::uint8_t>> &lfts);

// What every engine here refuses: no switches, LMC > 0 (not supported yet).
Status checkRoutable(const SwitchGraph &graph, const QString &engine);
// The graph of `fabric`, refused as checkRoutable refuses: every engine's first step.
Result<SwitchGraph> buildRoutableGraph(const Fabric &fabric, const QString &engine);

// The standard cancellation error.
Error cancelledError(const QString &engine);

}  // namespace weft::routing
