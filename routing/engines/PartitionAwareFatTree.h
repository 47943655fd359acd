#pragma once
// Partition-aware and weighted fat-tree routing (spec 000-pftree.md §3, spec 003-thesis.md §3):
//
//   pftree     pFTree-Ext: per leaf, compute nodes ordered so that a partition's nodes take
//              the same up-links; ties go to upper switches already marked with the node's
//              partition; phy/vlane/def policies steer the fallback choice; VLs separate
//              vlane partitions; VALIDATEPOLICIES fails (strict) or warns (best-effort).
//   pftree-wt  pFTree-Wt: loads are sums of destination weights, nodes heavier first; no
//              policies; VLs for every interfering partition (§3.5).
//   wftree     weighted fat-tree: no partitions, nodes routed heaviest first across the whole
//              fabric, ties by GUID, so the result does not depend on leaf cabling order.
//   (Base pFTree, §3.4, is Algorithm::Base; it is not registered under a name of its own.)
//
// The tree analysis (ranks, port groups, leaf order) is ftree's (FatTreeLayout.h). Every
// compute-node and switch LID gets an entry in every switch that can reach it up*/down*, so
// pairs that share no partition (management traffic) are routed too. Partition P_Key 0x7fff is
// ignored; a node in no other partition is routed as pseudo-partition 0x7fff, def-isolation.
//
// pftree then checks the paper's allocation: if a phy-isolated partition shares a link, the
// isolation search (IsolationSearch.h, docs/pftree-isolation.md) assigns top (and, on three
// levels, middle) switches per partition and destination leaf, and its routing replaces the
// paper's when it shares strictly fewer links among phy partitions (then with any other).
// Several partitions per host: the routing P_Key steers the paper's allocation; the search
// routes a host by all its multi-leaf partitions, whose flows all cross its one down path, so a
// phy partition cannot be isolated at a host it shares with another partition that has senders
// on other leaves. Limited members hear and reach only full members.

#include "RoutingEngine.h"

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

namespace weft {

// How Alg. 2 "update pkey_tbl" is read (spec §3.2.1): the partition's first index is kept
// (paper-faithful default), or the index just given is (chained).
enum class OrderingVariant : std::uint8_t { FirstIndex, Chained };

struct PartitionAwareOptions
{
    OrderingVariant ordering = OrderingVariant::FirstIndex;
    // Spec §3.7 #9: a phy node also keeps out of switches marked by another phy partition.
    bool phyExcludesPhy = false;
    // Data VLs usable end to end, VL0 included (spec §3.2.5). The fabric model does not carry
    // VLCap, so this is the operator's figure; 8 is the common hardware limit (spec §2.1).
    int maxVirtualLanes = 8;
    // Accept trees that ftree would refuse as not pure (failed links); routes still up*/down*.
    bool allowDegraded = true;
    // Branch-and-bound nodes the isolation search may visit (IsolationSearch.h) before it stops
    // and says its routing is not proven minimal.
    std::int64_t isolationSearchBudget = 400000;
    // Seconds the isolation search may take in all (0: no limit but the nodes above); a
    // RoutingOptions::searchBudgetSeconds from 0 up replaces it. The default fits in one of
    // OpenSM's sweeps (RoutingEngine.h).
    double isolationSearchSeconds = kDefaultSearchBudgetSeconds;
    // The constructive assignment before the exact search (issue 42); off, only the branch and
    // bound runs (tests of its budget). With a budget of 0 nodes neither runs.
    bool isolationConstruction = true;
    // Where the exact search is not run (at scale) and the construction's routing shares no
    // link, that routing is taken as soon as the paper's first LIDs show a phy conflict, without
    // finishing the paper's routing: the paper's could only lose the comparison (issue 42). Off
    // (tests): the paper's routing is finished and compared; the tables are the same.
    bool constructionFirst = true;
    // Tests only: the isolation search's symmetry cut takes every top switch of a two-level tree
    // as a twin of every other and every column of a three-level tree as alike, as on a whole
    // tree, whatever failed. Wrong on degraded trees: tests/tst_pftree_degraded.cpp shows that
    // its oracle catches it.
    bool assumeSymmetry = false;
};


struct PolicyViolation
{
    std::uint16_t pkey = 0;              // the partition whose policy is unmet
    std::vector<std::uint16_t> others;   // the partitions it meets on the link
    QString link;                        // "L1 port 4 -> R1 port 1"
    QString reason;                      // "phy-isolation: shares the link" / "vlane-isolation: same VL"
};

// Whether pftree gave its phy-isolated partitions links of their own (issue 41), in words the
// desk's report and OpenSM's log both show.
enum class IsolationOutcome : std::uint8_t {
    NotAsked,          // no phy-isolated partition has members on two leaves (or not pftree)
    Kept,              // no directed switch link carries a phy partition with any other
    ProvenImpossible,  // some must: the isolation search proved no routing it covers shares fewer
    NotProven,         // links shared, and the search could not prove that fewer is impossible
};

struct IsolationStatus
{
    IsolationOutcome outcome = IsolationOutcome::NotAsked;
    int phyShared = 0;     // directed links carrying two or more phy partitions
    int phyConflicts = 0;  // directed links carrying a phy partition and any other
    QString text;          // one line: "pftree: phy-isolation kept ..."
};

// What a run decided besides the tables, for tests and the GUI.
struct PartitionRoutingReport
{
    IsolationStatus isolation;
    std::map<Guid, std::uint16_t> routingPKey;     // CN port GUID -> P_Key it was routed as (§2.4)
    std::map<std::uint16_t, int> virtualLanes;     // P_Key -> VL (0 = default lane)
    std::vector<PolicyViolation> violations;
    int sharedLinks = 0;                           // directed switch links with |P(l)| >= 2
    int selectionConflicts = 0;                    // forced up-port choices (§3.2.2)
};

namespace pftree {
struct Run;
}

class PartitionAwareFatTreeEngine : public RoutingEngine
{
public:
    enum class Algorithm : std::uint8_t { Extended, Base, Weighted, WeightedFatTree };

    explicit PartitionAwareFatTreeEngine(Algorithm algorithm, PartitionAwareOptions options = {});
    ~PartitionAwareFatTreeEngine() override;

    QString name() const override;
    QString description() const override;
    Status prepare(const Fabric &fabric, const Tenancy &tenancy, const RoutingOptions &options) override;
    Result<Routing> route(const RoutingOptions &options) override;

    // Of the last successful route().
    const PartitionRoutingReport &lastReport() const { return m_report; }

    struct Model;

private:
    friend struct pftree::Run;  // the phases of route() (PftreePhases.h) read the model and settings

    Algorithm m_algorithm;
    PartitionAwareOptions m_options;
    std::unique_ptr<Model> m_model;
    PartitionRoutingReport m_report;
};

namespace routing {

// Alg. 2 (spec §3.2.1, with its errata) on one leaf: `keys` are the routing partitions of the
// leaf's nodes in their pre-sorted order, `upLinks` the leaf's up-going cables. Returns the
// routing order as positions into `keys`. A leaf with no more nodes than up-links keeps its order.
std::vector<int> orderComputeNodes(const std::vector<int> &keys, int upLinks, OrderingVariant variant);

}  // namespace routing

}  // namespace weft
