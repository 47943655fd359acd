#pragma once
// What validation and metrics share: who may talk to whom (partitions resolved to end ports,
// spec 000 §2.3), which lane each partition's traffic takes, which traffic pattern is assumed,
// and how routes are followed through the forwarding tables, one destination at a time.
//
// Following routes per destination rather than per pair is what keeps this fast: for one
// destination LID every switch has exactly one next hop, so a walk from each switch, remembering
// what it found, settles all switches in O(switches); all sources then look up the verdict of the
// switch they hang off. 11,664 hosts and 1,620 switches cost 19 million steps, not 10^11.
//
// Conventions, written down because reports depend on them:
// - End ports are CA and router ports with a LID and a cable. Destinations are their base LIDs
//   (LMC paths beyond the base are not followed).
// - A tenancy without partitions means what OpenSM does without a partitions file: every port a
//   full member of the default partition 0x7fff.
// - The default partition (0x7fff) carries management traffic: it counts for reachability and
//   lanes, never for isolation (sharing, interference, policies).
// - `Both` membership counts as full. Two end ports may talk when they share a partition in
//   which at least one of them is a full member. SELF cannot be resolved without knowing the SM
//   and is ignored.

#include "Fabric.h"
#include "ForwardingTables.h"
#include "Result.h"
#include "RouteWalk.h"
#include "Tenancy.h"

#include <QByteArray>

#include <QString>

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <vector>

namespace weft {

// Which VL each partition's traffic uses: P_Key (low 15 bits) -> SL, as a routing engine gives it,
// then SL -> VL. Nothing given means one lane: everything on VL 0.
struct LaneAssignment
{
    std::map<std::uint16_t, int> serviceLevels;  // absent P_Key: SL 0
    std::vector<int> slToVl;                     // 16 entries; empty: VL = SL

    int serviceLevel(std::uint16_t pkey) const;
    int virtualLane(std::uint16_t pkey) const;  // 0..15
};

enum class TrafficPattern : std::uint8_t {
    PartitionAllToAll,  // every ordered pair that may talk (spec 000 §2.3 intra-partition flows)
    AllToAll,           // every ordered pair of distinct end ports
    UniformRandom,      // every end port sends to one other, drawn uniformly (seeded)
    Shift,              // end port i sends to end port (i + shift) mod N, in LID order
    RandomBisection,    // random halves paired one to one, both directions (seeded)
};

struct TrafficModel
{
    TrafficPattern pattern = TrafficPattern::PartitionAllToAll;
    std::uint64_t seed = 1;
    int shift = 1;

    QString toString() const;  // as parseTrafficModel reads it
};

// "partition-all-to-all", "all-to-all", "uniform-random", "shift" or "shift:K", "bisection";
// nullopt for anything else. The seed is set separately.
std::optional<TrafficModel> parseTrafficModel(const QString &text);
QString trafficModelNames();  // for help texts

// Node weights file: one `KEY WEIGHT` per line, `#` comments and blank lines allowed. KEY is a
// port GUID, a node GUID (every port of that end node), or an end node's description or node id
// (the weight is the last word, so descriptions may contain spaces). WEIGHT is a positive number.
// A description that names several nodes, a switch, an unknown key or a key given twice is an
// error naming the line. Returns port GUID -> weight, as Tenancy::nodeWeights keeps them.
Result<std::map<Guid, double>> readNodeWeights(const QByteArray &data, const QString &fileName, const Fabric &fabric);

// Service level file written next to an LFT dump (`weft route` writes `<dump>.sl`): lines
// `PKEY SL`, P_Key as 0x-prefixed hex (low 15 bits used), SL 0..15; `#` comments allowed.
Result<std::map<std::uint16_t, int>> readServiceLevels(const QByteArray &data, const QString &fileName);
QByteArray writeServiceLevels(const std::map<std::uint16_t, int> &serviceLevels);

// `NAME=phy-isolation|vlane-isolation|def-isolation`: sets the policy of the partition NAME.
// The error says what is wrong (no such partition, unknown policy).
Status setPartitionPolicy(Tenancy &tenancy, const QString &assignment);

// A uniform draw in [0, n) from mt19937_64 without std::uniform_int_distribution, whose
// mapping differs between standard libraries: the same seed gives the same pattern everywhere.
std::uint64_t uniformBelow(std::mt19937_64 &rng, std::uint64_t n);

// The source end ports of each destination end port (indices into PartitionMembership::
// endPorts(), grouped by destination) under a model with explicit pairs: uniform-random, shift
// and bisection, drawn from model.seed as the metrics draw them. Empty lists for the all-pairs
// models, whose pairs follow from the partitions.
std::vector<std::vector<int>> modelSourcesOf(const TrafficModel &model, std::size_t endPorts);

struct EndPort
{
    PortIndex port = kNoIndex;
    NodeIndex node = kNoIndex;
    Lid lid = 0;
    NodeIndex attachedSwitch = kNoIndex;  // the switch its cable leads to; kNoIndex otherwise
    double weight = 1;                    // Tenancy::nodeWeights, 1 when absent
    int membershipClass = 0;              // end ports with the same memberships share a class
};

// Whether an end port sends and receives the modelled traffic. A service node's (a SHArP
// Aggregation Node, a switch's management CA: NodeRole::Service, NodeRoles.h) does not: it is
// routed, and its reachability checked, like any other, but it runs no application, so it is no
// source or destination of a traffic pattern. Compute and I/O nodes are.
bool carriesTraffic(const Fabric &fabric, const EndPort &end);
// modelSourcesOf over the end ports that carry traffic, by index into `ends`; a destination that
// carries none has no sources.
std::vector<std::vector<int>> modelSourcesOf(const TrafficModel &model, const Fabric &fabric, const std::vector<EndPort> &ends);

// Partitions resolved against a fabric.
class PartitionMembership
{
public:
    struct Member
    {
        int partition = 0;  // index into partitions()
        bool full = false;
    };
    struct ResolvedPartition
    {
        QString name;
        std::uint16_t pkey = 0;  // low 15 bits; partitions without a P_Key get none (0)
        bool isDefault = false;  // 0x7fff: management, left out of isolation
        IsolationPolicy policy = IsolationPolicy::Default;
        std::vector<int> members;  // end port indices
        std::vector<bool> full;    // parallel to members
    };

    PartitionMembership(const Fabric &fabric, const Tenancy &tenancy);

    const std::vector<EndPort> &endPorts() const { return m_endPorts; }
    const std::vector<ResolvedPartition> &partitions() const { return m_partitions; }
    // End port index by its fabric port, -1 if the port is not an end port.
    int endPortOf(PortIndex port) const;

    int classCount() const { return int(m_classes.size()); }
    const std::vector<Member> &classMemberships(int membershipClass) const { return m_classes[std::size_t(membershipClass)]; }
    const std::vector<Member> &memberships(int endPort) const
    {
        return m_classes[std::size_t(m_endPorts[std::size_t(endPort)].membershipClass)];
    }
    // Whether class a may send to class b, and the VLs such traffic may use (bit per VL).
    // Computed for all classes towards one destination class at a time by the callers.
    std::uint16_t sharedLanes(int sourceClass, int destinationClass, const LaneAssignment &lanes) const;
    bool mayTalk(int sourceClass, int destinationClass) const;
    QString partitionLabel(int partition) const;  // `name (0x8001)`

private:
    std::vector<EndPort> m_endPorts;
    std::vector<int> m_endPortByPort;
    std::vector<ResolvedPartition> m_partitions;
    std::vector<std::vector<Member>> m_classes;
};

// Follows forwarding tables towards one destination at a time. For every switch, after
// trace(): whether its packets for that destination arrive, and its next hop.
class RouteTracer
{
public:
    enum class Verdict : std::uint8_t {
        Unknown,
        InProgress,
        Reaches,
        NoTable,     // the switch has no forwarding table at all
        NoRoute,     // no entry for the LID
        DeadPort,    // entry names a port without a cable, or past the switch's ports
        WrongNode,   // delivered to an end node that does not own the LID
        Loop,        // packets circle forever
    };

    RouteTracer(const Fabric &fabric, const ForwardingTables &tables);

    // Settles every switch towards the port owning `lid` (a port index of the fabric).
    void trace(PortIndex destination, Lid lid);
    // For a caller that traces the LIDs of one block of 64 after another: each new block is
    // read whole at its first LID.
    void readInBlocks() { m_inBlocks = true; }

    Verdict verdict(NodeIndex sw) const { return m_verdict[std::size_t(sw)]; }
    // The switch where the failure a switch inherits happened.
    NodeIndex blame(NodeIndex sw) const { return m_blame[std::size_t(sw)]; }
    // The fabric port packets leave `sw` by; kNoIndex where none.
    PortIndex outPort(NodeIndex sw) const { return m_outPort[std::size_t(sw)]; }
    // The next switch, or kNoIndex when the next hop is the destination (or nothing).
    NodeIndex nextSwitch(NodeIndex sw) const { return m_next[std::size_t(sw)]; }
    // Loops found by the last trace(), each as its switches in forwarding order.
    const std::vector<std::vector<NodeIndex>> &loops() const { return m_loops; }

    // "LFT of <switch> has no entry for LID 12", and so on, for the switch that failed.
    QString explain(NodeIndex sw, Lid lid) const;

private:
    // Where port `number` of a switch leads; remote kNoIndex for a port without a cable.
    struct Hop
    {
        PortIndex remote = kNoIndex;
        NodeIndex next = kNoIndex;
        std::int32_t nextSlot = -1;  // the next node's slot when it is a switch
    };
    // The switches by slot (their order in Fabric::switches()), with the fabric's and tables'
    // facts a walk needs copied into a few compact arrays: 19 million hops on the 11,664-host
    // tree (69 million on 39,366) would otherwise each miss the cache in the fabric's ports.
    struct SwitchSlot
    {
        NodeIndex node = kNoIndex;
        PortIndex firstPort = kNoIndex;
        std::uint32_t firstHop = 0;  // hops of ports 0 .. portCount
        std::uint8_t portCount = 0;
        const LinearForwardingTable *lft = nullptr;
    };

    void settle(NodeIndex start);
    // m_row: every switch's entry for `lid`, by slot. Callers trace LIDs in order, so a LID
    // right after the last one, or a second LID of its block of 64, copies the whole block from
    // the tables, a line of each, and the rest read it; a LID out of order reads its entry from
    // each table alone.
    void loadRow(Lid lid);

    const Fabric &m_fabric;
    std::vector<SwitchSlot> m_slots;
    std::vector<std::int32_t> m_slotOf;  // by node; -1 for end nodes
    std::vector<Hop> m_hops;
    // The same in four bytes, what a walk reads at every hop: the next switch's slot (>= 0),
    // kStepDead, or kStepEnd for a cable to an end node (m_hops says which port).
    static constexpr std::int32_t kStepDead = -1;
    static constexpr std::int32_t kStepEnd = -2;
    std::vector<std::int32_t> m_steps;
    bool m_destinationOnSwitch = false;  // then every hop's remote port is compared, from m_hops
    std::vector<std::uint8_t> m_block;   // 64 LIDs by slot, LID after LID
    std::vector<std::uint8_t> m_single;  // one LID by slot
    const std::uint8_t *m_row = nullptr;
    int m_loadedBlock = -1;
    int m_lastBlock = -1;
    int m_lastLid = -2;
    bool m_inBlocks = false;
    PortIndex m_destination = kNoIndex;
    NodeIndex m_destinationNode = kNoIndex;
    Lid m_lid = 0;
    std::vector<Verdict> m_verdict;
    std::vector<NodeIndex> m_blame;
    std::vector<PortIndex> m_outPort;
    std::vector<NodeIndex> m_next;
    std::vector<NodeIndex> m_path;
    std::vector<std::vector<NodeIndex>> m_loops;
};

// "L2 leaf 3[5] -> L1 aggr 0[2]" for the directed link leaving `from`.
QString directedLinkText(const Fabric &fabric, PortIndex from);

// Hop distance from the end nodes: CAs and routers 0, switches with end nodes 1, and so on;
// -1 for switches no end node reaches. Link tiers and up/down directions come from this.
std::vector<int> nodeLevels(const Fabric &fabric);

// Flows of each partition per directed switch-to-switch link (spec 000 §2.3, §4.4): for every
// partition but the default, how many of its intra-partition flows (ordered member pairs that
// may talk) cross each directed link between two switches. Fed one destination at a time, right
// after RouteTracer::trace() for it; flows that do not arrive are not counted (validation
// reports them). Keyed by the out port of the link.
class PartitionFlowCounter
{
public:
    PartitionFlowCounter(const Fabric &fabric, const PartitionMembership &membership);

    void addDestination(int destinationEndPort, const RouteTracer &tracer);
    // Adds the flows another counter of the same fabric and membership was fed.
    void merge(const PartitionFlowCounter &other);

    // Per fabric port: (partition, flows) sorted by partition; empty for ports that carry none.
    const std::vector<std::vector<std::pair<int, std::uint64_t>>> &perLink() const { return m_perLink; }

private:
    struct Group
    {
        NodeIndex attachedSwitch = kNoIndex;
        std::uint32_t members = 0;
        std::uint32_t fullMembers = 0;
    };
    const PartitionMembership &m_membership;
    std::vector<std::vector<Group>> m_groups;  // per partition, per switch its members hang off
    std::vector<std::vector<std::pair<int, std::uint64_t>>> m_perLink;
};

}  // namespace weft
