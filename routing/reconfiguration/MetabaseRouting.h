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
//              slot is free and its load is within `slack` of the best (SlimUpdate on slots);
//   MpiOrder   (§4.6) the job's ports, given in MPI rank order, take slots first: the port of
//              rank r takes, on its own leaf, the slot index that ftree's CA order (leaves in
//              ftree index order, ports in order: PortOrder's slots) gives the job's r-th port.
//              A rank order that groups ports by leaf as the CA order does thus gets ftree's
//              routing as if the ranks were the CA order, where the shift permutation is
//              non-blocking on a full fat-tree. A rank whose slot is already taken (two ranks
//              of one leaf want the same index) takes the least loaded free one, and the
//              proposal warns. Every other port is Sticky;
//   Priority   the high-priority ports (heaviest first, ties by port GUID) take slots first,
//              each the free slot of its leaf whose links the fewest priority ports already
//              placed cross (ties: least loaded, then lower slot); every other port Weighted.
// MpiOrder and Priority take port GUIDs (an end node's GUID stands for its one cabled port);
// an unknown GUID, a switch, a port that is not cabled to a leaf, an empty list or a port
// listed twice is an error naming it.
//
// The fingerprint covers switch GUIDs, switch-to-switch cables (GUIDs and ports), which
// switches have end ports, and K. Any cable or switch change is a miss; a change of weights,
// or of end nodes within K per leaf, is a hit.

#include "SlimUpdate.h"

#include <QByteArray>

#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace weft {

enum class SlotPolicy : std::uint8_t { PortOrder, Weighted, Sticky, MpiOrder, Priority };

// "port-order", "weighted", "sticky", "mpi-order", "priority".
QString slotPolicyName(SlotPolicy policy);
// The names above, case-insensitive, '_' accepted for '-'; nullopt for anything else.
std::optional<SlotPolicy> slotPolicyFromName(const QString &name);
QString slotPolicyNames();  // "port-order, weighted, sticky, mpi-order, priority", for help texts

struct MetabaseOptions
{
    SlotPolicy policy = SlotPolicy::Sticky;
    double slack = 0;  // Sticky: weight units, as SlimUpdateOptions::slack
    // MpiOrder: the job's communicator, port GUIDs in rank order (§4.6); its nodes are
    // reassigned, every other node stays Sticky.
    std::vector<Guid> nodeOrder;
    // Priority: the high-priority ports; they choose their slots first.
    std::vector<Guid> priorityNodes;
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
