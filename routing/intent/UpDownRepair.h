#pragma once
// The smallest repair of up/down tables after cables or switches were lost (the intent's step 2
// before SlimUpdate, IntentRouting.h): every entry whose next hop can still reach its
// destination by an up*-down* path is kept; only the others (all of them on paths that crossed
// what was lost) move, to a port that can: the one whose way on to the destination puts its
// partitions on the fewest cables of other partitions where either is phy-isolated, then one
// the destination's partitions already use there, then the least used. Entries for LIDs that
// are gone are cleared. Refused when the fabric has no leaves to rank switches from.
//
// The work is in the entries that move: finding them reads each entry once (a pass shared among
// the cores), and the choices are made for those alone, so a cable lost at 39,366 hosts costs
// about a second, not the minutes a pass over every switch for every LID did.
//
// repairUpDown() is the phases below, in this order, each a function a test can call
// (tests/tst_engine_phases.cpp):
//
//   rankSwitches        the switches ranked from the leaves up, and their cables
//   installedTables     the installed tables in the fabric's switch order, gone LIDs cleared
//   partitionBits       each LID's partitions as bits, and which are phy-isolated
//   portUsage           per switch port: the partitions it leads to, and how many LIDs
//   findFailures        the entries that must move, and the LIDs every switch reaches
//   moveFailedEntries   each failed entry moved to its best usable port, or cleared

#include "Fabric.h"
#include "ForwardingTables.h"
#include "Result.h"
#include "Tenancy.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace weft::repair {

// Switches are numbered by their index in Fabric::switches() ("local" below).
struct UpDownGraph
{
    std::vector<int> local;             // per node: its local switch number, -1 for an end node
    std::vector<int> portCountOf;       // per switch
    std::size_t stride = 1;             // entries per switch in peerOf: the most ports, plus port 0
    std::vector<int> peerOf;            // per switch and port: a switch, an end port (-2), nothing (-1)
    std::vector<int> rankOf;            // per switch: 0 with an end node, then by distance
    std::vector<int> upBegin;           // per switch, and one past the last: into upPeers
    std::vector<int> upPeers;           // the switches of higher rank cabled to each
    std::vector<NodeIndex> byRankDown;  // highest rank first
    std::vector<NodeIndex> byRankUp;    // lowest rank first
};
// Refused when no switch has an end node, or a switch reaches no leaf.
Result<UpDownGraph> rankSwitches(const Fabric &fabric);

struct RepairTables
{
    ForwardingTables tables;   // in the fabric's switch order
    std::vector<int> tableOf;  // per switch: its index in `tables`
    Lid top = 0;               // the highest LID any installed table holds
};
// Refused when a switch of the fabric has no installed table.
Result<RepairTables> installedTables(const Fabric &fabric, const ForwardingTables &installed);

// The partitions of each end port as bit sets; the default partition and those with members
// other than port GUIDs isolate nothing and are left out.
struct PartitionBits
{
    std::size_t words = 1;             // per set
    std::vector<std::uint64_t> phy;    // the phy-isolated partitions
    std::vector<std::uint64_t> ofLid;  // per LID up to lastLid, `words` each
    Lid lastLid = 0;                   // the higher of the tables' top and the fabric's
    const std::uint64_t *of(Lid lid) const { return &ofLid[std::size_t(lid) * words]; }
};
PartitionBits partitionBits(const Fabric &fabric, const Tenancy &tenancy, Lid top);

// Per switch and port (switch * stride + port): the partitions whose destinations the port leads
// to, `words` each, and how many destinations it leads to.
struct PortUsage
{
    std::vector<std::uint64_t> carriedBits;
    std::vector<int> uses;
};
PortUsage portUsage(const UpDownGraph &graph, const RepairTables &tables, const PartitionBits &bits);

struct Failure
{
    Lid lid = 0;
    int sw = 0;  // local switch number
};
struct Failures
{
    std::vector<Failure> entries;          // by LID, then as found
    std::vector<char> everySwitchReaches;  // per LID up to lastLid: by an up*-down* path
};
// The entries that are not usable (their next hop has no up*-down* path on), and those a
// cut-off switch holds; every other entry is kept.
Failures findFailures(const Fabric &fabric, const UpDownGraph &graph, const RepairTables &tables, Lid lastLid);

// Moves each failed entry, LID by LID, switch after its next hop; a cut-off switch's is cleared.
// Refused when a switch that reaches the LID has no usable port (not expected on up*-down*).
Status moveFailedEntries(const Fabric &fabric, const UpDownGraph &graph, RepairTables &tables, const PartitionBits &bits,
                         PortUsage &usage, const Failures &failures);

// The repaired tables, and per LID whether every switch reaches it by them (every entry then
// goes up towards, or down along, an up*-down* path: ranks rise, then fall, so no loop).
struct Repair
{
    ForwardingTables tables;
    std::vector<char> reachedFromEverySwitch;
};
Result<Repair> repairUpDown(const Fabric &fabric, const ForwardingTables &installed, const Tenancy &tenancy);

}  // namespace weft::repair
