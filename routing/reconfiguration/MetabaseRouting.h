#pragma once
// Metabase-aided two-phase routing (spec 003 §4.5, Paper V).
//
// Phase 1, path calculation, depends on the topology only: every leaf gets K slots (K = the
// most end ports any leaf has, OpenSM's max_cn_per_leaf), and each slot is routed as a dummy
// destination by the fat-tree climb-and-descend with unit weight, leaves in ftree index order,
// slots in order. The result, one column of out ports per slot plus one per switch LID, is the
// blueprint; it is stored in the metabase under the topology fingerprint.
//
// Phase 2, path assignment, runs on every reconfiguration: each end port takes a slot of its
// leaf, and its LFT column is the slot's column (its own leaf's entry is its port). When the
// fingerprint is unchanged (weights or traffic changed, not the topology) phase 1 is skipped.
//
// Policies (§4.5 PHASE2_ASSIGN):
//   PortOrder  a node takes the slot of its rank among its leaf's end ports (ftree's order);
//   Weighted   nodes heaviest first (ties by port GUID) take the free slot of their leaf whose
//              flows cross the least loaded links (max weighted load over the slot's links);
//   Sticky     as Weighted, but a node keeps the slot its installed column matches when that
//              slot is free and its load is within `slack` of the best (SlimUpdate on slots).
// Not done here: MPI_ORDER and PRIORITY.
//
// The fingerprint covers switch GUIDs, switch-to-switch cables (GUIDs and ports), which
// switches have end ports, and K. Any cable or switch change is a miss; a change of weights,
// or of end nodes within K per leaf, is a hit.

#include "SlimUpdate.h"

#include <QByteArray>

#include <map>
#include <memory>

namespace weft {

enum class SlotPolicy : std::uint8_t { PortOrder, Weighted, Sticky };

struct MetabaseOptions
{
    SlotPolicy policy = SlotPolicy::Sticky;
    double slack = 0;  // Sticky: weight units, as SlimUpdateOptions::slack
    QString baselineEngine = QStringLiteral("wftree");
};

struct MetabaseRun
{
    Reconfiguration reconfiguration;  // proposal, its cost, and the full re-route beside it
    QByteArray fingerprint;           // hex
    bool hit = false;                 // phase 1 came from the metabase
    std::int64_t calculationNanoseconds = 0;  // T_calc: phase 1 (0 on a hit)
    std::int64_t assignmentNanoseconds = 0;   // T_assign: phase 2 and the tables
    int slotsPerLeaf = 0;                     // K
    int leaves = 0;
};

class Metabase
{
public:
    Metabase();
    ~Metabase();
    Metabase(Metabase &&) noexcept;
    Metabase &operator=(Metabase &&) noexcept;

    // Phase 1 if this topology is new to the metabase, then phase 2 with `options.policy`.
    // `installed` (on `installedFabric`) is what Sticky keeps and what the costs are measured
    // against; it may be empty.
    Result<MetabaseRun> reroute(const Fabric &installedFabric, const ForwardingTables &installed,
                                const Fabric &fabric, const Tenancy &tenancy, const MetabaseOptions &options = {});
    Result<MetabaseRun> reroute(const Fabric &fabric, const ForwardingTables &installed, const Tenancy &tenancy,
                                const MetabaseOptions &options = {});

    std::size_t size() const;  // stored blueprints
    void clear();

    struct Blueprint;

private:
    std::map<QByteArray, std::shared_ptr<const Blueprint>> m_blueprints;
};

// The fingerprint phase 1 is keyed by (SHA-256, hex).
QByteArray topologyFingerprint(const Fabric &fabric);

}  // namespace weft
