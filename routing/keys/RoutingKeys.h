#pragma once
// Routing keys (spec 004, Samuel/Zahavi/Keslassy): per (application, phase) lists of explicit
// fat-tree paths free of intra-application contention (ARK), shifted at run time to dodge the
// load of other applications (NRK), and realised on InfiniBand as LFT entries for an LMC offset.
//
// The algorithms work on an abstract tree (spec 004 §2.1) and only touch the Fabric to realise
// keys as forwarding tables. Conventions, written down because tests and reports depend on them:
// - A 2-level tree is a 3-level one with a single pod and no spines: its middles are the
//   aggregations of pod 0, its "sub-tree" index j is the middle index.
// - Hosts are numbered h = (pod·m2 + tor)·m1 + port (spec 004 §2.1.2); ToR t = pod·m2 + tor.
// - Switch ids in path strings: ToRs 0..T-1, then Agg(p,j) = T + p·w2 + j, then
//   Spine(j,k) = T + A + j·w3 + k (so the paper's toy prints "0 → 4 → 1").
// - Only switch-to-switch directed links count for contention (§2.2).
// - Keys are deterministic: vertices in switch order, adjacency by (destination ToR, flow order);
//   a non-zero tie-break seed shuffles the adjacency, which is only for fuzzing (T2).
// - DmodK: j = d mod w2 at the ToR, k = ⌊d/w2⌋ mod w3 at the aggregation (§4.3).

#include "Fabric.h"
#include "FabricGenerator.h"
#include "ForwardingTables.h"
#include "Result.h"

#include <QString>
#include <QStringList>

#include <array>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace weft {

struct KeyTreeShape
{
    int levels = 2;            // switch levels: 2 (ToR, middle) or 3 (ToR, Agg, Spine)
    int hostsPerTor = 0;       // m1
    int torsPerPod = 0;        // m2 (2-level: all ToRs)
    int pods = 1;              // m3 (2-level: 1)
    int aggsPerPod = 0;        // w2 (2-level: the middles)
    int spinesPerSubtree = 0;  // w3 (2-level: 0)

    // TwoLevel(L ToRs, H hosts per ToR, M middles) of spec 004 §7.
    static KeyTreeShape twoLevel(int tors, int hostsPerTor, int middles);
    // The paper's XGFT(3; m1,m2,m3; 1,w2,w3).
    static KeyTreeShape xgft3(int m1, int m2, int m3, int w2, int w3);

    int hosts() const { return hostsPerTor * torsPerPod * pods; }
    int tors() const { return torsPerPod * pods; }
    int aggs() const { return aggsPerPod * pods; }
    int spines() const { return aggsPerPod * spinesPerSubtree; }
    int switches() const { return tors() + aggs() + spines(); }
    int torOf(int host) const { return host / hostsPerTor; }
    int podOf(int host) const { return torOf(host) / torsPerPod; }

    // Directed switch-to-switch links, numbered as linkText() names them.
    int linkCount() const { return 2 * tors() * aggsPerPod + 2 * aggs() * spinesPerSubtree; }
    int upTorAgg(int tor, int j) const { return tor * aggsPerPod + j; }
    int downAggTor(int j, int tor) const { return tors() * aggsPerPod + tor * aggsPerPod + j; }
    int upAggSpine(int pod, int j, int k) const
    {
        return 2 * tors() * aggsPerPod + (pod * aggsPerPod + j) * spinesPerSubtree + k;
    }
    int downSpineAgg(int j, int k, int pod) const
    {
        return 2 * tors() * aggsPerPod + aggs() * spinesPerSubtree + (pod * aggsPerPod + j) * spinesPerSubtree + k;
    }
    int aggId(int pod, int j) const { return tors() + pod * aggsPerPod + j; }
    int spineId(int j, int k) const { return tors() + aggs() + j * spinesPerSubtree + k; }
    QString linkText(int link) const;  // "up(3 → 17)" in path-string switch ids
    // "TwoLevel(4 ToRs × 4 hosts, 4 middles)" or "XGFT(3; 6,6,6; 1,6,6)" in the paper's notation.
    QString toString() const;
    bool operator==(const KeyTreeShape &o) const
    {
        return levels == o.levels && hostsPerTor == o.hostsPerTor && torsPerPod == o.torsPerPod && pods == o.pods
            && aggsPerPod == o.aggsPerPod && spinesPerSubtree == o.spinesPerSubtree;
    }
};

// From Weft's XGFT notation (roots at level 0, spec 001 §1.7): XGFT(2; L,H; M,1) is
// TwoLevel(L,H,M) and XGFT(3; m3,m2,m1; w3,w2,1) is the paper's XGFT(3; m1,m2,m3; 1,w2,w3).
Result<KeyTreeShape> keyTreeFromXgft(const XgftShape &xgft);

// ---- Traffic: phases of rank-to-rank flows -------------------------------------------------

struct RankFlow
{
    int srcRank = 0;
    int dstRank = 0;
};

struct Phase
{
    QString name;  // "+x", "shift 3", "step 2"
    std::vector<RankFlow> flows;
};

// Balanced non-increasing X ≥ Y ≥ Z with X·Y·Z = ranks and X − Z smallest (then X smallest):
// 36 → 4×3×3, 54 → 6×3×3, 864 → 12×9×8 (spec 004 §2.7).
std::array<int, 3> balancedDims(int ranks);
// The six periodic Cartesian phases +x, −x, +y, −y, +z, −z; rank r = (x·Y + y)·Z + z. A
// dimension of size 1 gives empty phases, size 2 gives +d ≡ −d.
std::vector<Phase> cartesianPhases(const std::array<int, 3> &dims);
Phase shiftPhase(int ranks, int shift);  // r → (r + shift) mod P
std::vector<Phase> ringPhases(int ranks, bool bidirectional);  // shift 1 (and shift −1)
// Phase s = 0..q−1: r → r XOR 2^s; ranks must be a power of two.
Result<std::vector<Phase>> recursiveDoublingPhases(int ranks);

// ---- Placement -------------------------------------------------------------------------------

// Hosts first .. first+ranks−1.
std::vector<int> contiguousPlacement(int firstHost, int ranks);
// Spec 004 §2.8: a uniformly random permutation of all hosts (mt19937_64(seed)), cut into
// `apps` consecutive blocks of `ranksPerApp`.
std::vector<std::vector<int>> randomPlacement(int hosts, int apps, int ranksPerApp, std::uint64_t seed);

// ---- Keys ------------------------------------------------------------------------------------

enum class Decomposition : std::uint8_t {
    Regularized,   // Δ perfect matchings of the Δ-regular padded demand (spec 004 §3.2, default)
    PaperLiteral,  // repeated maximum matchings; may need more than Δ slots (erratum E2)
};

// Splits a bipartite demand multigraph (edges left → right) into matchings; returns edge
// indices per matching. Regularized gives exactly Δ matchings.
std::vector<std::vector<int>> decomposeDemand(int leftCount, int rightCount, const std::vector<std::pair<int, int>> &edges,
                                              Decomposition mode, std::uint64_t tieBreakSeed = 0);

struct KeyFlow
{
    int srcRank = 0;
    int dstRank = 0;
    int srcHost = 0;
    int dstHost = 0;
    int slot = -1;     // level-1 matching; -1 for flows inside one ToR
    int subslot = -1;  // level-2 matching inside the slot; -1 unless the flow crosses pods
};

struct RoutingKey
{
    std::vector<KeyFlow> flows;
    int delta = 0;                           // Δ of the ToR-to-ToR demand
    std::vector<int> slotSizes;              // flows per slot
    std::vector<int> delta2;                 // per slot: Δ of its pod-to-pod demand
    std::vector<std::vector<int>> subslotSizes;
    // The shift: slot → physical middle / sub-tree j, (slot, subslot) → spine k within it.
    std::vector<int> subtree;
    std::vector<std::vector<int>> spine;
    bool contentionFree = true;  // every level fits its switches (Δ1 ≤ w2, every Δ2 ≤ w3)
    QStringList warnings;

    int slotCount() const { return int(slotSizes.size()); }
};

// ARK's compressed key with the identity slot → middle mapping (folded i mod M when there are
// more slots than middles). Flows between ranks on the same host are dropped.
RoutingKey computeKey(const KeyTreeShape &shape, const std::vector<int> &placement, const std::vector<RankFlow> &flows,
                      Decomposition mode = Decomposition::Regularized, std::uint64_t tieBreakSeed = 0);

// Re-labels the middles of a key (spec 004 §3.4): identity rotated by r at both levels.
void rotateKey(const KeyTreeShape &shape, RoutingKey &key, int rotation);
// The per-application rotation of ARK's default mapping (U1): a fixed hash of the app index.
int arkRotation(int app, int middles);

// The directed switch links of a flow of the key, and of DmodK from src to dst host.
std::vector<int> keyRoute(const KeyTreeShape &shape, const RoutingKey &key, const KeyFlow &flow);
std::vector<int> dmodkRoute(const KeyTreeShape &shape, int srcHost, int dstHost);
// "A1: 0 → 4 → 1 → DLID(4)": one line per flow, the source rank counted from 1 after `label`.
QStringList keyPaths(const KeyTreeShape &shape, const RoutingKey &key, const QString &label);
// Every path of the key is a minimal up*/down* path of the tree.
bool keyIsUpDown(const KeyTreeShape &shape, const RoutingKey &key);

// ---- Network state and NRK -------------------------------------------------------------------

enum class ShiftCost : std::uint8_t {
    Link,   // C_link: (max link load + 1, Σ (load+1)², index) — default
    Paper,  // C_paper: flows through the middle switch
};

struct NetworkLoad
{
    std::vector<int> links;        // per directed switch link
    std::vector<int> subtreeFlows; // flows through sub-tree j (2-level: middle j)
    std::vector<int> spineFlows;   // flows through Spine(j,k), j·w3 + k

    explicit NetworkLoad(const KeyTreeShape &shape);
    void addKey(const KeyTreeShape &shape, const RoutingKey &key, int sign);
};

// NRK's fine-grained shift (spec 004 §3.5): slots largest first, each onto the free middle of
// lowest cost, ties to the lowest index; in 3 levels sub-trees first, then spines inside each.
void fineGrainedShift(const KeyTreeShape &shape, RoutingKey &key, const NetworkLoad &load, ShiftCost cost);

struct LoadFigures
{
    int max = 0;           // most flows on one directed switch link
    double mean = 0;       // over all directed switch links
    std::int64_t sumSquares = 0;
    int maxIntra = 0;      // most flows of one application on one link
    // Per application: the most flows, of all applications, on one link its own flows cross
    // (0 when none crosses a switch link): its slowest flow's share of a link.
    std::vector<int> appMax;
};

// Loads of several applications' flows routed together: each inner vector is one app's routes.
LoadFigures loadFigures(const KeyTreeShape &shape, const std::vector<std::vector<std::vector<int>>> &routesPerApp);

// NRK's run-time state: RODRequest shifts a key against the active ones and adds its load;
// RODDone removes exactly that load. A second request for an active (app, phase), or one that
// would reuse an offset the app has active for another phase, is refused (§3.6 item 5).
class KeyScheduler
{
public:
    explicit KeyScheduler(const KeyTreeShape &shape) : m_shape(shape), m_load(shape) {}

    Result<RoutingKey> request(int app, int phase, int offset, const RoutingKey &key, ShiftCost cost = ShiftCost::Link);
    Status done(int app, int phase);
    const NetworkLoad &load() const { return m_load; }
    int activeCount() const { return int(m_active.size()); }

private:
    struct Active
    {
        RoutingKey key;
        int offset = 0;
    };
    KeyTreeShape m_shape;
    NetworkLoad m_load;
    std::map<std::pair<int, int>, Active> m_active;
};

// ---- InfiniBand realisation -------------------------------------------------------------------

// Spec 004 §3.6 item 6: hosts·2^LMC + switches LIDs out of 49,151 unicast LIDs.
struct LidBudget
{
    int lmc = 0;
    std::int64_t lids = 0;
    bool fits = false;
    int offsets = 0;  // key offsets 1 .. 2^LMC − 1
};
constexpr std::int64_t kUnicastLids = 49151;
LidBudget lidBudget(int hosts, int switches, int lmc);
int maxLmc(int hosts, int switches);            // -1 when not even LMC 0 fits
int lmcForOffsets(int offsets);                 // smallest LMC with 2^LMC − 1 ≥ offsets; 8 if none
std::int64_t maxHostsAtLmc(int switches, int lmc);

// A fabric seen as a key tree: fabric nodes at each abstract position.
struct KeyTreeFabric
{
    KeyTreeShape shape;
    std::vector<NodeIndex> hosts;   // by host index
    std::vector<PortIndex> hostPorts;
    std::vector<NodeIndex> tors;    // by ToR index
    std::vector<NodeIndex> aggs;    // pod·w2 + j
    std::vector<NodeIndex> spines;  // j·w3 + k
    int hostLmc = 0;                // smallest LMC among the host ports
};

// Recognises a full 2- or 3-level fat tree: leaves by hop distance, pods as the components of
// the leaf–aggregation links, sub-trees as those of the aggregation–spine links, each in fabric
// order. Refuses anything else with the reason.
Result<KeyTreeFabric> inferKeyTree(const Fabric &fabric);

struct OffsetKey
{
    int offset = 0;      // DLID = base LID + offset
    RoutingKey key;
};

// DmodK for every LID of every switch (switch LIDs by fewest hops, lowest port first), then the
// entries each key owns for its offset: the source ToR's up port and, across pods, the source
// aggregation's up port (§3.6 item 2). Fails when an offset exceeds the hosts' LMC or two keys
// want different ports for one entry.
Result<ForwardingTables> keyForwardingTables(const Fabric &fabric, const KeyTreeFabric &tree, const std::vector<OffsetKey> &keys);

// What moving from one set of tables to another costs (spec 004 §7 T13).
struct LftChange
{
    int entries = 0;
    int switches = 0;
    int blocks = 0;  // distinct (switch, LID/64): one SubnSet(LFT) SMP each
};
LftChange countLftChanges(const ForwardingTables &before, const ForwardingTables &after);

}  // namespace weft
