#pragma once
// Is a routing safe to install? Reads the fabric, the tenancy and the forwarding tables (and the
// lanes, if the routing assigned any), never the engine that made them, so it judges OpenSM's
// tables, a dump from a live fabric and Weft's proposals alike.
//
// Checks, per spec 000 §2.3 and §2.5:
// - reachability of every ordered pair of end ports that may talk (share a partition, not both
//   limited), and apart from that of every other pair, because management traffic needs those
//   routes too (stale routes, spec 000 §2.1);
// - forwarding loops;
// - deadlock freedom: the channel dependency graph over (directed switch-to-switch link, VL)
//   built from the routes of all pairs that may talk, each pair on the VLs of the partitions it
//   shares; a cycle is reported as its links. HCA links cannot close a cycle and are left out;
// - isolation: per partition (the default partition excepted), the directed switch-to-switch
//   links it shares with others, judged against its policy (phy: none; vlane: others only on
//   another VL; def: anything).
//
// See TrafficModel.h for how end ports and memberships are resolved.

#include "Fabric.h"
#include "ForwardingTables.h"
#include "Tenancy.h"
#include "TrafficModel.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace weft {

struct ValidationOptions
{
    int maxReported = 20;  // examples kept per kind of problem; counts are always complete
    // Threads the destinations are shared among: 0, the machine's cores (at most 4). The result
    // is the same with any number.
    int threads = 0;
};

struct SharedLinkReport
{
    PortIndex from = kNoIndex;      // out port of the directed link
    QString link;                   // "L2 leaf 0[19] -> L1 aggr 3[1]"
    std::vector<int> others;        // other partitions on it (indices into partitions)
};

struct PartitionIsolationReport
{
    QString name;
    std::uint16_t pkey = 0;
    IsolationPolicy policy = IsolationPolicy::Default;
    int virtualLane = 0;
    std::size_t members = 0;
    std::size_t linksUsed = 0;              // directed switch-to-switch links its flows cross
    std::vector<SharedLinkReport> shared;   // links it shares, in port order
    QStringList violations;                 // of its policy, the first maxReported; empty when met
    std::size_t violationCount = 0;         // all of them
    bool satisfied() const { return violations.isEmpty(); }
};

struct ValidationResult
{
    // Pairs that may talk all arrive, no loop, no credit loop, every policy met.
    bool ok = false;

    std::size_t endPorts = 0;
    std::size_t switches = 0;
    std::uint64_t partitionPairs = 0;             // ordered pairs that may talk
    std::uint64_t unreachablePartitionPairs = 0;  // of those, pairs whose packets do not arrive
    std::uint64_t unreachableOtherPairs = 0;      // pairs sharing no partition (management only)
    // Of the unreachable pairs (both kinds), those whose two ends are service nodes (NodeRole::
    // Service: SHArP Aggregation Nodes, a switch's management CA). On a fat-tree routed up*/down*,
    // two such nodes on switches of different branches have no legal path at all.
    std::uint64_t unreachableServicePairs = 0;
    std::size_t loops = 0;                        // distinct forwarding loops (per destination)
    bool deadlockFree = true;
    int virtualLanes = 1;                         // distinct VLs in use by partitions
    std::uint64_t dependencies = 0;               // edges of the channel dependency graph
    QStringList creditLoop;                       // one cycle: "A[1] -> B[3] (VL0)" per channel
    std::size_t policyViolations = 0;

    QStringList problems;            // unreachable partition pairs, loops: examples, readable
    QStringList managementProblems;  // unreachable pairs that share no partition: examples
    std::vector<PartitionIsolationReport> partitions;  // in tenancy order, default one excluded
};

ValidationResult validateRouting(const Fabric &fabric, const Tenancy &tenancy, const ForwardingTables &tables,
                                 const LaneAssignment &lanes = {}, const ValidationOptions &options = {});

}  // namespace weft
