#pragma once
// Reconfiguration that remembers what is installed (spec 003 §4).
//
// SlimUpdate (§4.4, the MRU principle of §4.3): wFTree in which every routing decision whose
// minimum-load choice is tied (or, with slack τ > 0, nearly tied) goes to the port the installed
// tables already use. Each kept choice is itself a minimum-load choice, so with τ = 0 the load
// balance is wFTree's while far fewer paths move. The installed main path of a destination is
// read back from the installed tables (its "chain" of ancestors, seen from the farthest leaf).
//
// This is not an engine of the registry: it needs the installed tables as an input, so it is a
// reconfiguration function. Every result carries its cost against the installed tables and,
// for comparison, the cost of a full re-route by an ordinary engine from scratch.
//
// Cost metrics (§4.2), old tables A on the old fabric, new tables B on the new fabric:
//   ΔE  entries that differ, summed over switches present in both (a new switch counts every
//       routed entry);
//   ΔB  64-LID blocks that differ = LinearForwardingTable Set SMPs OpenSM sends (a new switch
//       counts all its blocks up to LinearFDBTop);
//   ΔP  ordered pairs of end ports present in both fabrics whose path, the sequence of
//       (switch, out port), differs.

#include "FatTreeLayout.h"
#include "RoutingEngine.h"

#include <QString>

#include <cstdint>
#include <functional>
#include <vector>

namespace weft {

struct ReconfigurationCost
{
    std::uint64_t entryChanges = 0;       // ΔE
    std::uint64_t blockChanges = 0;       // ΔB, one SMP each
    std::uint64_t pathModifications = 0;  // ΔP
    std::uint64_t pairs = 0;              // ordered end-port pairs compared for ΔP
    std::size_t switchesChanged = 0;      // switches with at least one changed block
};

// Installed tables on the fabric they were computed for, against proposed ones on the fabric as
// it is now (the same fabric for a performance-driven change). Switches and end ports are
// matched by GUID, destinations by each fabric's own LIDs.
ReconfigurationCost reconfigurationCost(const Fabric &installedFabric, const ForwardingTables &installed,
                                        const Fabric &fabric, const ForwardingTables &proposed);

// ΔP pair by pair, for a drill-down: calls `changed` with the (source, destination) end ports of
// `fabric` of every compared pair whose path differs, destination by destination in port GUID
// order. Returns the pairs compared (ReconfigurationCost::pairs).
std::uint64_t forEachChangedPath(const Fabric &installedFabric, const ForwardingTables &installed, const Fabric &fabric,
                                 const ForwardingTables &proposed,
                                 const std::function<void(PortIndex source, PortIndex destination)> &changed);

// A proposal and, beside it, what a configuration-oblivious re-route would have cost.
struct Reconfiguration
{
    Routing proposal;
    ReconfigurationCost cost;             // installed -> proposal
    bool hasFullReroute = false;
    Routing fullReroute;                  // the baseline engine from scratch
    ReconfigurationCost fullRerouteCost;  // installed -> full re-route
    QString fullRerouteError;             // why there is none (e.g. ftree refuses a degraded tree)
    std::int64_t proposalNanoseconds = 0;     // time to compute the proposal
    std::int64_t fullRerouteNanoseconds = 0;  // time the baseline engine took
};

struct SlimUpdateOptions
{
    // τ, absolute, in weight units (a node of weight 1 adds 1): an installed choice is kept when
    // its load is at most the least load plus τ. Not scaled by the node's weight (§4.4 (b)).
    double slack = 0;
    // Engine whose from-scratch tables are the comparison; empty for none.
    QString baselineEngine = QStringLiteral("wftree");
    // Keep phy-isolated partitions apart where pftree from scratch does (the installed tables
    // are then a partition-aware engine's): when keeping installed choices alone would share a
    // link, main paths are limited to those pftree gives each leaf's nodes of one membership.
    bool keepIsolation = true;
};

// SlimUpdate on the fabric as it is now (degraded fat-trees accepted), keeping what it can of
// `installed`, which were computed on `installedFabric`. Node weights from the tenancy, as
// wftree reads them; nodes are routed heaviest first, ties by port GUID. With empty installed
// tables the result is wftree's. Within one weight, nodes whose whole installed main path can be
// kept are routed before those displaced by the event.
Result<Reconfiguration> slimUpdate(const Fabric &installedFabric, const ForwardingTables &installed,
                                   const Fabric &fabric, const Tenancy &tenancy,
                                   const SlimUpdateOptions &options = {});
// The same for a change without a topology change (weights, traffic): one fabric.
Result<Reconfiguration> slimUpdate(const Fabric &fabric, const ForwardingTables &installed,
                                   const Tenancy &tenancy, const SlimUpdateOptions &options = {});

namespace routing {

// wftree's climb-and-descend (spec 003 §3.3, §4.4 ASCEND/DESCEND) over a FatTreeLayout, one
// target at a time into a column of per-switch out ports, with an optional preference for
// installed choices. Shared by SlimUpdate and the metabase's path calculation. Loads are in
// 1/1024 weight units so comparisons are exact.
class FatTreeColumnRouter
{
public:
    using Load = std::int64_t;
    static constexpr double kWeightScale = 1024.0;

    struct Cable
    {
        int lower = -1, upper = -1;
        std::uint8_t lowerPort = 0, upperPort = 0;
    };

    // What the installed tables say about one target.
    struct Preference
    {
        std::vector<int> chain;              // per rank: the switch the installed main path used, -1 unknown
        std::vector<std::uint8_t> installed; // per switch: installed out port, kNoPath none
        Load slack = 0;
        // Main paths the target may take, each per rank like `chain`; empty for any. A counted
        // climb goes only to an upper switch that continues one of them from the path so far
        // (when none does, to any): how a partition keeps the links an isolating routing gave it.
        std::vector<std::vector<int>> allowedChains;
    };

    FatTreeColumnRouter(const FatTreeLayout &layout, std::size_t columns);

    // Routes target `column` that hangs off switch `sw`: an end port on `ownPort`, or the
    // switch itself (ownPort 0). `counted` targets add `weight` to the loads they cross.
    void route(std::size_t column, int sw, std::uint8_t ownPort, Load weight, bool counted,
               const Preference *preference = nullptr);

    // Whether routing the target now, counted, would keep its whole installed main path: every
    // installed climb still cabled and within the slack of the least loaded choice. A target
    // that would not is displaced; one with nothing installed keeps (there is nothing to lose).
    bool keepsInstalledPath(int sw, const Preference &preference) const;

    std::uint8_t port(int sw, std::size_t column) const { return m_lft[std::size_t(sw)][column]; }
    const std::vector<std::vector<std::uint8_t>> &tables() const { return m_lft; }
    const std::vector<Cable> &cables() const { return m_cables; }
    // Directed link ids: 2·cable going up, 2·cable + 1 going down; -1 for a port that is not a
    // switch-to-switch cable.
    int directedLink(int sw, std::uint8_t port) const;
    // The switch at the far end of `port` of `sw`, or -1.
    int neighbour(int sw, std::uint8_t port) const;

private:
    int chooseUpCable(int sw, bool counted, const Preference *preference) const;
    // The up cables of `sw` a counted climb along `path` (per rank, -1 unknown) may take
    // (allowedChains), or all of them.
    std::vector<int> climbCandidates(int sw, const std::vector<int> &path, const Preference *preference) const;
    // The least loaded of `ports` by wftree's key; -1 for none.
    int leastLoadedUpCable(const std::vector<int> &ports) const;
    // The cable towards the installed main path's next switch up from `sw`, or -1.
    int installedUpCable(int sw, const std::vector<int> &ports, const Preference &preference) const;
    void ascend(int sw, int prev, std::size_t column, Load weight, bool counted, const Preference *preference);
    void descend(int sw, std::size_t column, Load weight, int exclude, bool counted, const Preference *preference);
    Load minDownLoadBelow(int sw) const;

    const FatTreeLayout &m_layout;
    std::vector<Cable> m_cables;
    std::vector<std::vector<int>> m_upCables;    // per switch
    std::vector<std::vector<int>> m_downGroups;  // per switch, children by GUID
    std::vector<std::vector<int>> m_groupCables; // per group
    std::vector<std::vector<int>> m_linkOfPort;  // per switch, by port
    std::vector<std::vector<std::uint8_t>> m_lft; // per switch, per column
    std::vector<std::uint8_t> m_hops;
    std::vector<Load> m_loadDown, m_loadUp;       // per cable
    std::vector<int> m_mainPath;                  // per rank, the counted climb so far
};

// The cabling the installed tables were computed for, in `layout`'s terms: per layout switch and
// port number, the layout switch `installedFabric` cabled there; -1 for none, or for a switch the
// fabric no longer has.
std::vector<std::vector<int>> installedCabling(const FatTreeLayout &layout, const Fabric &installedFabric);

// The installed main path's ancestors of `leaf` towards a target, per rank (§4.4 OLD_CHAIN):
// walked from the leaf whose installed route turns highest; -1 where unknown (broken walk).
// The walk follows the installed tables over the installed cabling (installedCabling), so that a
// failed link does not hide the main path it carried: a detour that only a few switches' own
// secondary entries take would otherwise pass for the main path.
// `from`, when given, limits the walks to those from these leaves (the senders that matter).
std::vector<int> installedChain(const FatTreeLayout &layout, const std::vector<std::vector<int>> &cabling, int leaf,
                                const std::vector<std::uint8_t> &installed, const std::vector<int> *from = nullptr);

// The last step of every partial reconfiguration: the cost of `result.proposal` against what is
// installed, then `baselineEngine` run from scratch on `fabric` for comparison, filling the full
// re-route fields of `result` (or fullRerouteError, also added to the proposal's warnings).
// No comparison for an empty engine name.
void finishReconfiguration(Reconfiguration &result, const QString &baselineEngine, const Fabric &installedFabric,
                           const ForwardingTables &installed, const Fabric &fabric, const Tenancy &tenancy);

}  // namespace routing

}  // namespace weft
