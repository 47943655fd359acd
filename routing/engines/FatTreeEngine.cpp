#include "FatTreeEngine.h"

#include "FatTreeLayout.h"
#include "LargeBuffer.h"
#include "Parallel.h"
#include "SwitchGraph.h"

#include <algorithm>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <array>
#include <cstring>
#include <deque>
#include <limits>
#include <map>
#include <thread>
#include <unordered_map>

namespace weft {

namespace {

using routing::kNoPath;
using routing::SwitchGraph;

constexpr std::uint32_t kUnranked = std::numeric_limits<std::uint32_t>::max();
constexpr int kMinTreeRank = 2;
constexpr int kMaxTreeRank = 8;  // a tuple is 8 bytes: the rank and up to 7 digits
constexpr int kTupleLength = 8;
constexpr std::uint8_t kTupleUnset = 0xFF;

using Tuple = std::array<std::uint8_t, kTupleLength>;

std::uint64_t tupleKey(const Tuple &t)
{
    std::uint64_t key;
    std::memcpy(&key, t.data(), sizeof key);
    return key;
}

QString tupleText(const Tuple &t)
{
    QStringList parts;
    for (std::uint8_t digit : t) {
        if (digit == kTupleUnset)
            break;
        parts << QString::number(digit);
    }
    return parts.join(QLatin1Char('.'));
}

Error refuse(const QString &why)
{
    return Error{{}, 0, QStringLiteral("ftree: %1").arg(why)};
}

}  // namespace

// The engine's private picture of the tree: OpenSM's ftree_sw_t, ftree_hca_t, port groups and
// ports, in index arrays. Switches and CAs are stored in OpenSM's map order, so "for each
// switch" below is OpenSM's iteration order. The counters and per-LID arrays are filled by
// route(), which works on a copy so that it can run again.
struct FatTreeEngine::Model
{
    struct Port
    {
        std::uint8_t number = 0;
        std::uint8_t remoteNumber = 0;
        std::uint32_t counterDown = 0;  // (the up counters are flat: Model::upPortLoad)
    };

    struct Group
    {
        Lid lid = 0;
        Lid remoteLid = 0;
        int owner = -1;            // switch or CA index, as ownerIsSwitch says
        bool ownerIsSwitch = true;
        int remote = -1;           // switch or CA index, as remoteIsSwitch says
        bool remoteIsSwitch = true;
        bool isCn = false;
        std::vector<Port> ports;
        // (The group's counters are flat: Model::upKey and Model::downCount.)
    };

    struct Switch
    {
        int graphIndex = -1;
        Guid guid = 0;
        Lid lid = 0;
        std::uint32_t rank = kUnranked;
        Tuple tuple{};
        std::vector<int> down, up, siblings;  // group indices
        bool isLeaf = false;
        bool counterUpChanged = false;
        bool downAllCas = false;  // every down group leads to a CA and there are no siblings
    };

    struct Ca
    {
        Guid guid = 0;
        std::vector<int> endPorts;  // graph end-port indices, port order
        std::vector<int> up;        // group indices
        int cnCount = 0;
    };

    std::vector<Switch> switches;
    std::vector<Ca> cas;
    std::vector<Group> groups;
    std::vector<int> groupRemoteSwitch;  // per group: the remote switch, or -1 for a CA; the hot loop reads only this
    // Switches whose down groups lead to the same switches (and to nothing else, with no
    // siblings) share a class: once one of them has gone down towards a target, every switch
    // below it is reached with no more hops than the others could offer, so their walk down
    // would change nothing. In a fat-tree, the spines of one group and the middle switches of
    // one pod are such classes, and this skips nine of ten walks. -1: no class.
    std::vector<int> downClass;            // per switch
    // Per switch, what going down into it does before any walk: kNothingBelow (return false),
    // kLeafBelow (every down group a CA, no siblings: return true) or kWalkBelow. Read before
    // the call, so that the walk does not touch a leaf's Switch at all.
    enum : std::uint8_t { kNothingBelow, kLeafBelow, kWalkBelow };
    std::vector<std::uint8_t> below;
    std::vector<std::uint32_t> classWalk;  // per class: the walk it last went down in
    std::vector<std::uint8_t> classHops;   // per class: the fewest hops it went down with in that walk
    std::uint32_t walk = 0;                // one per target routed from its switch
    // Whether going down from `sw` with `hops` would set nothing (see downClass); read before
    // the calls, so that the walk does not even touch such a switch.
    bool walkDownIsDone(int sw, std::uint8_t hops) const
    {
        const int downSet = downClass[std::size_t(sw)];
        return downSet >= 0 && classWalk[std::size_t(downSet)] == walk && classHops[std::size_t(downSet)] <= hops;
    }
    std::vector<std::uint8_t> isRoot;  // per switch: rank 0, where going up ends
    std::vector<int> switchOfGraph;  // graph switch index -> model index
    std::vector<int> leaves;         // REAL leaf range in tuple order
    std::uint32_t leafRank = 0;
    int maxCnPerLeaf = 0;
    int cnCount = 0;
    Lid maxLid = 0;
    std::size_t graphSwitchCount = 0;
    std::vector<QString> descriptions;  // per graph switch, for the tables
    bool requirePure = true;            // false only for analyseFatTree's callers that allow degraded trees

    // Routing state.
    // By LID, then model switch: routing one LID touches one contiguous row.
    LargeVector<std::uint8_t> lft;
    std::vector<std::uint8_t> hops;
    // Per LID: every switch reached it in its walk (Routing::reachedFromEverySwitch). Entries are
    // set only with a hop count one more than the switch they lead to has, and hop counts only
    // fall, so following them from any switch with a count ends at the target's own port.
    std::vector<char> reached;
    std::size_t rowLength = 0;  // switches.size(), kept for the hot loop
    std::uint8_t &lftAt(std::size_t sw, std::size_t lid) { return lft[lid * rowLength + sw]; }
    // Hop counts matter only for the target being routed: one row, reset for each.
    std::uint8_t &hopAt(std::size_t sw) { return hops[sw]; }
    void beginWalk()
    {
        std::fill(hops.begin(), hops.end(), kNoPath);
        ++walk;
    }

    bool tupleLess(int a, int b) const { return switches[std::size_t(a)].tuple < switches[std::size_t(b)].tuple; }
    int groupRemoteSwitchCompare(int ga, int gb) const
    {
        // A switch above the leaves can have CA groups too (a service node, NodeRoles.h): they
        // sort after its switch groups, by group, and have no tuple to compare.
        const bool sa = groups[std::size_t(ga)].remoteIsSwitch, sb = groups[std::size_t(gb)].remoteIsSwitch;
        if (!sa || !sb)
            return sa != sb ? (sa ? -1 : 1) : (ga < gb ? -1 : (gb < ga ? 1 : 0));
        const Tuple &a = switches[std::size_t(groups[std::size_t(ga)].remote)].tuple;
        const Tuple &b = switches[std::size_t(groups[std::size_t(gb)].remote)].tuple;
        return a < b ? -1 : (b < a ? 1 : 0);
    }

    // Per group: the dense rank of its remote switch's tuple among all switches' tuples, so
    // that the load comparisons compare two ints where OpenSM compares two tuples.
    std::vector<int> remoteTupleRank;
    int remoteRankCompare(int ga, int gb) const
    {
        const int a = remoteTupleRank[std::size_t(ga)];
        const int b = remoteTupleRank[std::size_t(gb)];
        return a < b ? -1 : (b < a ? 1 : 0);
    }
    // What going down reads and counts, per group in one small record (the walk touches a group
    // per switch it reaches, so that is one cache line where the Group would be several).
    struct DownGroup
    {
        // OpenSM's counter_up in the high half, remoteTupleRank + 1 in the low half: one compare
        // orders groups by load, then tuple.
        std::uint64_t upKey = 0;
        int remote = -1;               // groupRemoteSwitch
        std::uint32_t portBegin = 0;   // the group's ports in the flat port arrays
        std::uint16_t portCount = 0;
        std::uint8_t firstRemoteNumber = 0;  // a one-port group's only choice
    };
    std::vector<DownGroup> downGroup;            // per group
    std::vector<std::uint8_t> portRemoteNumber;  // flat, group by group, in the group's port order
    std::vector<std::uint32_t> upPortLoad;       // flat: each port's counter_up (read only where a group has two or more)
    static constexpr std::uint64_t kUpKeyCount = std::uint64_t(1) << 32;
    // What going up compares, flat likewise: per group its counter_down and its remote as
    // Group::remote has it; per switch OpenSM's min_counter_down.
    std::vector<std::uint32_t> downCount;
    std::vector<int> groupRemote;
    std::vector<std::uint32_t> minCounterDown;

    Status build(const SwitchGraph &graph);
    void route(const std::function<bool()> &tick);

private:
    Status rank(const SwitchGraph &graph);
    Status populatePorts(const SwitchGraph &graph);
    Status index();
    Status validate() const;
    void classifyDownSets();
    void rankRemoteTuples();
    void flattenUpLoads();
    void addSwitchPort(int sw, std::uint8_t number, std::uint8_t remoteNumber, Lid remoteLid, int remote,
                       bool remoteIsSwitch, int direction);

    // Routing steps, named after OpenSM's functions they mirror.
    bool routeUpgoingByGoingDown(int sw, int prev, Lid target, bool mainPath, std::uint8_t currentHops);
    bool routeDowngoingByGoingUp(int sw, int prev, Lid target, bool mainPath, std::uint8_t currentHops);
    void bubbleSortSiblings(std::vector<int> &array);
    void bubbleSortDown(std::vector<int> &array);
    int compareLoadUp(int g1, int g2) const;
    int compareLoadDown(int g1, int g2) const;
    void recalculateMinCounterDown(int sw);
    std::uint32_t leastLoadedPortUp(int group) const;
    int leastLoadedPortDown(const Group &g) const;
};

Status FatTreeEngine::Model::build(const SwitchGraph &graph)
{
    maxLid = graph.maxLid;
    graphSwitchCount = graph.switches.size();
    for (const SwitchGraph::Switch &s : graph.switches)
        descriptions.push_back(s.description);
    if (graph.switches.size() < 2)
        return refuse(QStringLiteral("the fabric has %1 switch(es); a fat-tree needs at least 2").arg(graph.switches.size()));

    const std::vector<int> order = routing::switchesInOpenSmOrder(graph);
    switchOfGraph.assign(graph.switches.size(), -1);
    for (int g : order) {
        Switch s;
        s.graphIndex = g;
        s.guid = graph.switches[std::size_t(g)].guid;
        s.lid = graph.switches[std::size_t(g)].lid;
        s.tuple.fill(kTupleUnset);
        switchOfGraph[std::size_t(g)] = int(switches.size());
        switches.push_back(s);
    }

    // CAs (routers are not part of the tree, as in OpenSM), in OpenSM's map order.
    std::unordered_map<Guid, int> caByGuid;
    for (std::size_t e = 0; e < graph.endPorts.size(); ++e) {
        const SwitchGraph::EndPort &end = graph.endPorts[e];
        if (end.type != NodeType::ChannelAdapter)
            continue;
        auto [it, added] = caByGuid.emplace(end.nodeGuid, int(cas.size()));
        if (added) {
            Ca ca;
            ca.guid = end.nodeGuid;
            cas.push_back(ca);
        }
        cas[std::size_t(it->second)].endPorts.push_back(int(e));
    }
    if (cas.size() < 2)
        return refuse(QStringLiteral("the fabric has %1 channel adapter(s); a fat-tree needs at least 2").arg(cas.size()) + graph.endPortsWithoutLidText());
    std::sort(cas.begin(), cas.end(), [](const Ca &a, const Ca &b) {
        return routing::openSmMapKey(a.guid) < routing::openSmMapKey(b.guid);
    });

    if (Status s = rank(graph); !s)
        return s;
    if (Status s = populatePorts(graph); !s)
        return s;
    groupRemoteSwitch.resize(groups.size());
    for (std::size_t g = 0; g < groups.size(); ++g)
        groupRemoteSwitch[g] = groups[g].remoteIsSwitch && !groups[g].ports.empty() ? groups[g].remote : -1;
    for (Switch &s : switches) {
        s.downAllCas = !s.down.empty() && s.siblings.empty();
        for (int g : s.down)
            s.downAllCas = s.downAllCas && !groups[std::size_t(g)].remoteIsSwitch;
    }
    classifyDownSets();
    if (cnCount == 0)
        return refuse(QStringLiteral("the fabric has no compute nodes (CA ports linked to switches)") + graph.endPortsWithoutLidText());

    leafRank = 0;
    for (const Switch &s : switches)
        leafRank = std::max(leafRank, s.rank);
    const int treeRank = int(leafRank) + 1;
    if (treeRank < kMinTreeRank || treeRank > kMaxTreeRank)
        return refuse(QStringLiteral("the tree has %1 level(s) of switches; fat-tree routing needs %2 to %3")
                          .arg(treeRank).arg(kMinTreeRank).arg(kMaxTreeRank));

    // Leaves are the switches holding CNs, and they must all sit at the leaf rank.
    for (const Ca &ca : cas) {
        for (int g : ca.up) {
            const Group &group = groups[std::size_t(g)];
            if (!group.isCn)
                continue;  // a service or I/O node makes no leaf (NodeRoles.h)
            Switch &leaf = switches[std::size_t(group.remote)];
            if (leaf.isLeaf)
                continue;
            leaf.isLeaf = true;
            if (leaf.rank != leafRank)
                return refuse(QStringLiteral("not a fat-tree: CA %1 is attached to switch %2 of rank %3, but the leaf rank is %4 "
                                             "(all CAs must hang off the lowest level)")
                                  .arg(guidText(ca.guid), guidText(leaf.guid)).arg(leaf.rank).arg(leafRank));
        }
    }

    if (Status s = index(); !s)
        return s;
    rankRemoteTuples();
    flattenUpLoads();

    // The leaf array: switches of leaf rank in tuple order, from the first to the last one that
    // holds CNs.
    std::vector<int> atLeafRank;
    for (int s = 0; s < int(switches.size()); ++s) {
        if (switches[std::size_t(s)].rank == leafRank)
            atLeafRank.push_back(s);
    }
    std::sort(atLeafRank.begin(), atLeafRank.end(), [this](int a, int b) { return tupleLess(a, b); });
    std::size_t first = atLeafRank.size();
    std::size_t last = 0;
    for (std::size_t i = 0; i < atLeafRank.size(); ++i) {
        if (switches[std::size_t(atLeafRank[i])].isLeaf) {
            first = std::min(first, i);
            last = i;
        }
    }
    if (first >= last)
        return refuse(QStringLiteral("not a fat-tree: fewer than two leaf switches hold compute nodes") + graph.endPortsWithoutLidText());
    leaves.assign(atLeafRank.begin() + std::ptrdiff_t(first), atLeafRank.begin() + std::ptrdiff_t(last) + 1);

    for (int leaf : leaves) {
        int cns = 0;
        for (int g : switches[std::size_t(leaf)].down)
            cns += !groups[std::size_t(g)].remoteIsSwitch && groups[std::size_t(g)].isCn;
        maxCnPerLeaf = std::max(maxCnPerLeaf, cns);
    }
    if (!requirePure)
        return Done{};
    return validate();
}

Status FatTreeEngine::Model::rank(const SwitchGraph &graph)
{
    auto update = [](Switch &s, std::uint32_t rank) {
        if (s.rank != kUnranked && s.rank <= rank)
            return false;
        s.rank = rank;
        return true;
    };
    auto bfs = [&](std::deque<int> &queue) {
        std::uint32_t maxRank = 0;
        while (!queue.empty()) {
            const int s = queue.front();
            queue.pop_front();
            const int g = switches[std::size_t(s)].graphIndex;
            for (int p = 1; p <= graph.switches[std::size_t(g)].portCount; ++p) {
                const SwitchGraph::Slot &slot = graph.slot(g, p);
                if (slot.remote != SwitchGraph::Remote::Switch)
                    continue;
                Switch &remote = switches[std::size_t(switchOfGraph[std::size_t(slot.index)])];
                if (update(remote, switches[std::size_t(s)].rank + 1)) {
                    maxRank = remote.rank;
                    queue.push_back(switchOfGraph[std::size_t(slot.index)]);
                }
            }
        }
        return maxRank;
    };

    // Distance from the CAs, leaves first ...
    std::deque<int> queue;
    for (const Ca &ca : cas) {
        for (int e : ca.endPorts) {
            const SwitchGraph::EndPort &end = graph.endPorts[std::size_t(e)];
            if (end.remote == SwitchGraph::Remote::EndPort) {
                return refuse(QStringLiteral("not a fat-tree: CA %1 is cabled directly to CA %2")
                                  .arg(guidText(ca.guid), guidText(graph.endPorts[std::size_t(end.remoteIndex)].nodeGuid)));
            }
            if (end.remote != SwitchGraph::Remote::Switch || !end.compute)
                continue;  // only compute nodes make leaves (a SHArP node hangs off every switch)
            const int s = switchOfGraph[std::size_t(end.remoteIndex)];
            if (update(switches[std::size_t(s)], 0))
                queue.push_back(s);
        }
    }
    const std::uint32_t maxFromCas = bfs(queue);
    // ... reversed, so that the furthest switches are the roots, then ranked again from them.
    for (Switch &s : switches) {
        if (s.rank != kUnranked)
            s.rank = maxFromCas - s.rank;
    }
    for (int s = 0; s < int(switches.size()); ++s) {
        if (switches[std::size_t(s)].rank == 0)
            queue.push_back(s);
        else
            switches[std::size_t(s)].rank = kUnranked;
    }
    const std::uint32_t maxRank = bfs(queue);
    for (const Switch &s : switches) {
        // OpenSM drops such switches and routes around them; a Weft fabric should not have
        // them, so say so instead.
        if (s.rank == kUnranked)
            return refuse(QStringLiteral("switch %1 (LID %2) is not connected to the tree").arg(guidText(s.guid)).arg(s.lid));
    }
    if (maxRank == 0)
        return refuse(QStringLiteral("not a fat-tree: more than one switch and all of them are roots"));
    return Done{};
}

void FatTreeEngine::Model::addSwitchPort(int sw, std::uint8_t number, std::uint8_t remoteNumber, Lid remoteLid,
                                         int remote, bool remoteIsSwitch, int direction)
{
    Switch &s = switches[std::size_t(sw)];
    std::vector<int> &list = direction > 0 ? s.up : (direction == 0 ? s.siblings : s.down);
    int group = -1;
    for (int g : list) {
        if (groups[std::size_t(g)].remoteLid == remoteLid) {
            group = g;
            break;
        }
    }
    if (group < 0) {
        Group g;
        g.lid = s.lid;
        g.remoteLid = remoteLid;
        g.owner = sw;
        g.ownerIsSwitch = true;
        g.remote = remote;
        g.remoteIsSwitch = remoteIsSwitch;
        group = int(groups.size());
        groups.push_back(std::move(g));
        list.push_back(group);
    }
    std::vector<Port> &ports = groups[std::size_t(group)].ports;
    for (const Port &p : ports) {
        if (p.number == number)
            return;
    }
    Port p;
    p.number = number;
    p.remoteNumber = remoteNumber;
    ports.push_back(p);
}

Status FatTreeEngine::Model::populatePorts(const SwitchGraph &graph)
{
    std::vector<int> caOfEndPort(graph.endPorts.size(), -1);
    for (int c = 0; c < int(cas.size()); ++c) {
        Ca &ca = cas[std::size_t(c)];
        for (int e : ca.endPorts) {
            caOfEndPort[std::size_t(e)] = c;
            const SwitchGraph::EndPort &end = graph.endPorts[std::size_t(e)];
            if (end.remote != SwitchGraph::Remote::Switch)
                continue;
            bool duplicate = false;
            for (int g : ca.up)
                duplicate |= groups[std::size_t(g)].lid == end.lid;
            if (duplicate)
                continue;  // OpenSM logs "Duplicated LID" and ignores the port
            const int sw = switchOfGraph[std::size_t(end.remoteIndex)];
            Group g;
            g.lid = end.lid;
            g.remoteLid = switches[std::size_t(sw)].lid;
            g.owner = c;
            g.ownerIsSwitch = false;
            g.remote = sw;
            g.remoteIsSwitch = true;
            // As with OpenSM's cn_guid_file: compute nodes are CNs, service and I/O nodes not
            // (NodeRoles.h); without either every CA port is a CN.
            g.isCn = end.compute;
            Port p;
            p.number = end.number;
            p.remoteNumber = end.remotePort;
            g.ports.push_back(p);
            ca.up.push_back(int(groups.size()));
            groups.push_back(std::move(g));
            if (end.compute) {
                ++cnCount;
                ++ca.cnCount;
            }
        }
    }
    for (int sw = 0; sw < int(switches.size()); ++sw) {
        const int g = switches[std::size_t(sw)].graphIndex;
        for (int p = 1; p <= graph.switches[std::size_t(g)].portCount; ++p) {
            const SwitchGraph::Slot &slot = graph.slot(g, p);
            if (slot.remote == SwitchGraph::Remote::Switch) {
                const int remote = switchOfGraph[std::size_t(slot.index)];
                if (remote == sw)
                    continue;  // loopback cable
                const std::uint32_t mine = switches[std::size_t(sw)].rank;
                const std::uint32_t theirs = switches[std::size_t(remote)].rank;
                const int direction = mine > theirs ? 1 : (mine == theirs ? 0 : -1);
                addSwitchPort(sw, std::uint8_t(p), slot.remotePort, switches[std::size_t(remote)].lid, remote, true, direction);
            } else if (slot.remote == SwitchGraph::Remote::EndPort) {
                const int ca = caOfEndPort[std::size_t(slot.index)];
                if (ca < 0)
                    continue;  // a router
                addSwitchPort(sw, std::uint8_t(p), slot.remotePort, graph.endPorts[std::size_t(slot.index)].lid, ca, false, -1);
            }
        }
    }
    return Done{};
}

Status FatTreeEngine::Model::index()
{
    std::unordered_map<std::uint64_t, int> byTuple;
    auto assign = [&](int sw, const Tuple &t) {
        switches[std::size_t(sw)].tuple = t;
        byTuple.emplace(tupleKey(t), sw);
    };
    // The first free tuple one rank up or down from `from`, varying the digit at the lower
    // of the two ranks.
    auto newTuple = [&](const Tuple &from, bool down, Tuple &out) {
        Tuple t = from;
        int digit;
        if (down) {
            ++t[0];
            digit = from[0] + 1;
        } else {
            --t[0];
            digit = from[0];
        }
        for (int i = 0; i < 0xFF; ++i) {
            t[std::size_t(digit)] = std::uint8_t(i);
            if (!byTuple.count(tupleKey(t))) {
                out = t;
                return true;
            }
        }
        return false;
    };
    auto byRemoteTuple = [this](int a, int b) { return groupRemoteSwitchCompare(a, b) < 0; };

    int start = -1;
    for (int s = 0; s < int(switches.size()); ++s) {
        if (switches[std::size_t(s)].isLeaf) {
            start = s;
            break;
        }
    }
    Tuple first;
    first.fill(kTupleUnset);
    first[0] = std::uint8_t(switches[std::size_t(start)].rank);
    for (std::uint32_t i = 1; i <= leafRank; ++i)
        first[i] = 0;
    assign(start, first);

    std::deque<int> queue{start};
    while (!queue.empty()) {
        const int sw = queue.front();
        queue.pop_front();
        Switch &s = switches[std::size_t(sw)];
        if (s.rank < leafRank) {
            for (int g : s.down) {
                const Group &group = groups[std::size_t(g)];
                if (!group.remoteIsSwitch || switches[std::size_t(group.remote)].tuple[0] != kTupleUnset)
                    continue;
                Tuple t;
                if (!newTuple(s.tuple, true, t))
                    return refuse(QStringLiteral("more than 255 switches below switch %1").arg(guidText(s.guid)));
                assign(group.remote, t);
                queue.push_back(group.remote);
            }
            std::sort(s.down.begin(), s.down.end(), byRemoteTuple);
        }
        // Indexing started at a leaf, so every non-root switch looks up as well.
        if (s.rank != 0) {
            for (int g : s.up) {
                const Group &group = groups[std::size_t(g)];
                if (switches[std::size_t(group.remote)].tuple[0] != kTupleUnset)
                    continue;
                Tuple t;
                if (!newTuple(s.tuple, false, t))
                    return refuse(QStringLiteral("more than 255 switches above switch %1").arg(guidText(s.guid)));
                assign(group.remote, t);
                queue.push_back(group.remote);
            }
            std::sort(s.up.begin(), s.up.end(), byRemoteTuple);
        }
    }
    for (const Switch &s : switches) {
        if (s.tuple[0] == kTupleUnset)
            return refuse(QStringLiteral("switch %1 could not be indexed from the leaves").arg(guidText(s.guid)));
    }
    return Done{};
}

Status FatTreeEngine::Model::validate() const
{
    auto describe = [](const Switch &s) {
        return QStringLiteral("switch %1 (LID %2, index %3)").arg(guidText(s.guid)).arg(s.lid).arg(tupleText(s.tuple));
    };
    std::vector<int> reference(std::size_t(leafRank) + 1, -1);
    for (int sw = 0; sw < int(switches.size()); ++sw) {
        const Switch &s = switches[std::size_t(sw)];
        int &ref = reference[s.rank];
        if (ref < 0) {
            ref = sw;
            continue;
        }
        const Switch &r = switches[std::size_t(ref)];
        if (r.up.size() != s.up.size())
            return refuse(QStringLiteral("not a pure fat-tree: %1 has %2 up-going port groups, %3 at the same rank has %4")
                              .arg(describe(r)).arg(r.up.size()).arg(describe(s)).arg(s.up.size()));
        if (s.rank != leafRank && r.down.size() != s.down.size())
            return refuse(QStringLiteral("not a pure fat-tree: %1 has %2 down-going port groups, %3 at the same rank has %4")
                              .arg(describe(r)).arg(r.down.size()).arg(describe(s)).arg(s.down.size()));
        if (!r.up.empty()) {
            const std::size_t want = groups[std::size_t(r.up.front())].ports.size();
            for (int g : s.up) {
                if (groups[std::size_t(g)].ports.size() != want)
                    return refuse(QStringLiteral("not a pure fat-tree: %1 has %2 cable(s) per up-going group, %3 has %4")
                                      .arg(describe(r)).arg(want).arg(describe(s)).arg(groups[std::size_t(g)].ports.size()));
            }
        }
        // OpenSM compares only each switch's first down-going group here.
        if (!r.down.empty() && s.rank != leafRank && !s.down.empty()) {
            const std::size_t want = groups[std::size_t(r.down.front())].ports.size();
            const std::size_t have = groups[std::size_t(s.down.front())].ports.size();
            if (have != want)
                return refuse(QStringLiteral("not a pure fat-tree: %1 has %2 cable(s) per down-going group, %3 has %4")
                                  .arg(describe(r)).arg(want).arg(describe(s)).arg(have));
        }
    }
    return Done{};
}

// ---- routing -----------------------------------------------------------------------------

void FatTreeEngine::Model::recalculateMinCounterDown(int sw)
{
    std::uint32_t least = 1u << 30;
    for (int g : switches[std::size_t(sw)].down)
        least = std::min(least, downCount[std::size_t(g)]);
    minCounterDown[std::size_t(sw)] = least;
}

// Load order of up-going groups: fewer down-going routes first; then OpenSM looks at how
// loaded the remote switches are; then lower remote tuple. The middle step is written as
// OpenSM has it: it decides only when the first group's remote is *more* loaded, and falls
// through to the tuple otherwise (with OpenSM's counters the remote loads stay equal on the
// trees it accepts, so the order is effectively (counter_down, tuple)).
int FatTreeEngine::Model::compareLoadDown(int g1, int g2) const
{
    const int diff = int(downCount[std::size_t(g1)] - downCount[std::size_t(g2)]);
    if (diff > 0)
        return 1;
    if (diff < 0)
        return -1;
    const int remoteDiff = int(minCounterDown[std::size_t(groupRemote[std::size_t(g1)])] - minCounterDown[std::size_t(groupRemote[std::size_t(g2)])]);
    if (remoteDiff > 0)
        return 1;
    return remoteRankCompare(g1, g2);
}

int FatTreeEngine::Model::compareLoadUp(int g1, int g2) const
{
    const std::uint64_t a = downGroup[std::size_t(g1)].upKey;
    const std::uint64_t b = downGroup[std::size_t(g2)].upKey;
    return a < b ? -1 : (b < a ? 1 : 0);
}

// OpenSM's bubble sorts, pass for pass: the arrays persist between calls and the order
// of equal elements is part of the result.
// OpenSM bubble-sorts here. Load, then tuple, is a strict weak order, so any stable sort gives
// the bubble sort's result; insertion sort does it in one pass over an array that a walk left
// nearly sorted, where bubble sort needs a pass per place a group moves forward.
void FatTreeEngine::Model::bubbleSortSiblings(std::vector<int> &array)
{
    for (std::size_t i = 1; i < array.size(); ++i) {
        const int g = array[i];
        std::size_t j = i;
        for (; j > 0 && compareLoadUp(g, array[j - 1]) < 0; --j)
            array[j] = array[j - 1];
        array[j] = g;
    }
}

void FatTreeEngine::Model::bubbleSortDown(std::vector<int> &array)
{
    const std::size_t n = array.size();
    bool swapped = true;
    for (std::size_t pass = 0; swapped; ++pass) {
        swapped = false;
        for (std::size_t j = 1; j + pass < n; ++j) {
            if (compareLoadDown(array[j], array[j - 1]) < 0) {
                std::swap(array[j], array[j - 1]);
                swapped = true;
            }
        }
    }
}

// The first port with the lowest counter, in the group's port order: its flat index.
std::uint32_t FatTreeEngine::Model::leastLoadedPortUp(int group) const
{
    const DownGroup &g = downGroup[std::size_t(group)];
    std::uint32_t best = g.portBegin;
    const std::uint32_t end = g.portBegin + g.portCount;
    for (std::uint32_t i = best + 1; i < end; ++i) {
        if (upPortLoad[i] < upPortLoad[best])
            best = i;
    }
    return best;
}

int FatTreeEngine::Model::leastLoadedPortDown(const Group &g) const
{
    int best = 0;
    for (int i = 1; i < int(g.ports.size()); ++i) {
        if (g.ports[std::size_t(i)].counterDown < g.ports[std::size_t(best)].counterDown)
            best = i;
    }
    return best;
}

// Sets up-going entries towards `target` in every switch below `sw` (except the one we came
// up from), choosing in each child group its least-loaded port. Returns whether any route
// towards a CA was created below, which is when counters move.
bool FatTreeEngine::Model::routeUpgoingByGoingDown(int sw, int prev, Lid target, bool mainPath, std::uint8_t currentHops)
{
    Switch &s = switches[std::size_t(sw)];
    if (s.down.empty())
        return false;
    if (s.downAllCas) {
        // A leaf: routes exist below and no counter of this switch moves (OpenSM's loop
        // would only find CA groups).
        return true;
    }
    // (The sorts below may wait: by load, then tuple, they order groups whatever their order
    // was, and only this switch's walks move the loads.)
    if (walkDownIsDone(sw, currentHops))
        return false;  // every switch below was reached already, with as few hops
    const int downSet = downClass[std::size_t(sw)];
    // The owner of the down groups is this switch: resort them when their counters moved.
    if (s.counterUpChanged) {
        bubbleSortSiblings(s.down);
        s.counterUpChanged = false;
    }
    if (!s.siblings.empty())
        bubbleSortSiblings(s.siblings);

    bool createdRoute = false;
    const std::size_t count = s.down.size() + (target != 0 ? s.siblings.size() : 0);
    for (std::size_t k = 0; k < count; ++k) {
        const int gi = k < s.down.size() ? s.down[k] : s.siblings[k - s.down.size()];
        DownGroup &group = downGroup[std::size_t(gi)];
        const int remote = group.remote;
        if (remote < 0) {
            // A CA (or a portless group, which OpenSM skips).
            createdRoute |= !groups[std::size_t(gi)].remoteIsSwitch;
            continue;
        }
        // Not back to where we came from (switch LIDs are unique, so this is OpenSM's LID test).
        if (remote == prev)
            continue;
        const std::uint8_t leastHops = hopAt(std::size_t(remote));
        // Reached already on the way up, by a path no longer than this one.
        if (leastHops != kNoPath && currentHops + 1 >= leastHops)
            continue;
        const bool onePort = group.portCount == 1;
        const std::uint32_t port = onePort ? group.portBegin : leastLoadedPortUp(gi);
        lftAt(std::size_t(remote), target) = onePort ? group.firstRemoteNumber : portRemoteNumber[port];
        hopAt(std::size_t(remote)) = std::uint8_t(currentHops + 1);
        const std::uint8_t walkBelow = below[std::size_t(remote)];
        const bool routed = walkBelow == kWalkBelow
                                ? !walkDownIsDone(remote, std::uint8_t(currentHops + 1))
                                      && routeUpgoingByGoingDown(remote, -1, target, mainPath, std::uint8_t(currentHops + 1))
                                : walkBelow == kLeafBelow;
        createdRoute |= routed;
        if (routed) {
            // (`group` stays valid: the recursion adds no groups.)
            if (!onePort)
                ++upPortLoad[port];
            group.upKey += kUpKeyCount;
            s.counterUpChanged = true;  // the group is this switch's
        }
    }
    if (downSet >= 0 && (classWalk[std::size_t(downSet)] != walk || currentHops < classHops[std::size_t(downSet)])) {
        classWalk[std::size_t(downSet)] = walk;
        classHops[std::size_t(downSet)] = currentHops;
    }
    return createdRoute;
}

// Sets the down-going entry towards `target` in the least-loaded parent of `sw` (counted when
// on the main path) and climbs on from there; the other parents get entries through their
// first least-loaded port without counting, so that every switch can reach the target.
bool FatTreeEngine::Model::routeDowngoingByGoingUp(int sw, int prev, Lid target, bool mainPath, std::uint8_t currentHops)
{
    bool createdRoute = routeUpgoingByGoingDown(sw, prev, target, mainPath, currentHops);
    if (switches[std::size_t(sw)].rank == 0)
        return createdRoute;  // no reverse hops: OpenSM grants them to I/O nodes only

    bubbleSortDown(switches[std::size_t(sw)].up);
    const int minGroup = switches[std::size_t(sw)].up.front();
    const int minPort = leastLoadedPortDown(groups[std::size_t(minGroup)]);
    const int firstRemote = groups[std::size_t(minGroup)].remote;

    if (mainPath) {
        Group &g = groups[std::size_t(minGroup)];
        const std::uint32_t down = ++downCount[std::size_t(minGroup)];
        ++g.ports[std::size_t(minPort)].counterDown;
        if (down == minCounterDown[std::size_t(g.remote)] + 1)
            recalculateMinCounterDown(g.remote);
        if (lftAt(std::size_t(firstRemote), target) == kNoPath || currentHops + 1 < hopAt(std::size_t(firstRemote))) {
            lftAt(std::size_t(firstRemote), target) = g.ports[std::size_t(minPort)].remoteNumber;
            hopAt(std::size_t(firstRemote)) = std::uint8_t(currentHops + 1);
        }
        createdRoute |= routeDowngoingByGoingUp(firstRemote, sw, target, mainPath, std::uint8_t(currentHops + 1));
    }

    const std::size_t upCount = switches[std::size_t(sw)].up.size();
    for (std::size_t i = mainPath ? 1 : 0; i < upCount; ++i) {
        const int gi = switches[std::size_t(sw)].up[i];
        const int remote = groups[std::size_t(gi)].remote;
        if (lftAt(std::size_t(remote), target) != kNoPath && currentHops + 1 >= hopAt(std::size_t(remote)))
            continue;
        if (groups[std::size_t(gi)].ports.empty())
            continue;
        const int port = leastLoadedPortDown(groups[std::size_t(gi)]);
        lftAt(std::size_t(remote), target) = groups[std::size_t(gi)].ports[std::size_t(port)].remoteNumber;
        hopAt(std::size_t(remote)) = std::uint8_t(currentHops + 1);
        // A root whose walk down is done would return at once, having set nothing.
        if (isRoot[std::size_t(remote)] && walkDownIsDone(remote, std::uint8_t(currentHops + 1)))
            continue;
        createdRoute |= routeDowngoingByGoingUp(remote, sw, target, false, std::uint8_t(currentHops + 1));
    }

    // Links within a rank, as OpenSM treats them: like further parents, counted on the main
    // group when they lead to a route.
    if (!switches[std::size_t(sw)].siblings.empty())
        bubbleSortDown(switches[std::size_t(sw)].siblings);
    const std::size_t siblingCount = switches[std::size_t(sw)].siblings.size();
    for (std::size_t i = 0; i < siblingCount; ++i) {
        const int gi = switches[std::size_t(sw)].siblings[i];
        const int remote = groups[std::size_t(gi)].remote;
        if (lftAt(std::size_t(remote), target) != kNoPath && currentHops + 1 >= hopAt(std::size_t(remote)))
            continue;
        const int port = leastLoadedPortDown(groups[std::size_t(gi)]);
        lftAt(std::size_t(remote), target) = groups[std::size_t(gi)].ports[std::size_t(port)].remoteNumber;
        hopAt(std::size_t(remote)) = std::uint8_t(currentHops + 1);
        const bool routed = routeDowngoingByGoingUp(remote, sw, target, false, std::uint8_t(currentHops + 1));
        createdRoute |= routed;
        if (routed) {
            // OpenSM counts this on the main up group and on the sibling's chosen port.
            ++downCount[std::size_t(minGroup)];
            ++groups[std::size_t(gi)].ports[std::size_t(port)].counterDown;
        }
    }
    return createdRoute;
}

void FatTreeEngine::Model::rankRemoteTuples()
{
    std::vector<Tuple> tuples;
    tuples.reserve(switches.size());
    for (const Switch &sw : switches)
        tuples.push_back(sw.tuple);
    std::sort(tuples.begin(), tuples.end());
    tuples.erase(std::unique(tuples.begin(), tuples.end()), tuples.end());
    remoteTupleRank.assign(groups.size(), -1);
    for (std::size_t g = 0; g < groups.size(); ++g) {
        // As the tuple comparison reads it: the remote index taken as a switch's.
        const int remote = groups[g].remote;
        if (remote < 0 || std::size_t(remote) >= switches.size())
            continue;
        const Tuple &t = switches[std::size_t(remote)].tuple;
        remoteTupleRank[g] = int(std::lower_bound(tuples.begin(), tuples.end(), t) - tuples.begin());
    }
}

void FatTreeEngine::Model::flattenUpLoads()
{
    downGroup.assign(groups.size(), DownGroup{});
    portRemoteNumber.clear();
    for (std::size_t g = 0; g < groups.size(); ++g) {
        DownGroup &d = downGroup[g];
        d.upKey = std::uint32_t(remoteTupleRank[g] + 1);
        d.remote = groupRemoteSwitch[g];
        d.portBegin = std::uint32_t(portRemoteNumber.size());
        d.portCount = std::uint16_t(groups[g].ports.size());
        d.firstRemoteNumber = groups[g].ports.empty() ? 0 : groups[g].ports.front().remoteNumber;
        for (const Port &p : groups[g].ports)
            portRemoteNumber.push_back(p.remoteNumber);
    }
    upPortLoad.assign(portRemoteNumber.size(), 0);
    downCount.assign(groups.size(), 0);
    groupRemote.resize(groups.size());
    for (std::size_t g = 0; g < groups.size(); ++g)
        groupRemote[g] = groups[g].remote;
    minCounterDown.assign(switches.size(), 0);
}

void FatTreeEngine::Model::classifyDownSets()
{
    downClass.assign(switches.size(), -1);
    std::map<std::vector<int>, int> classOf;
    std::vector<int> children;
    for (std::size_t sw = 0; sw < switches.size(); ++sw) {
        const Switch &s = switches[sw];
        if (s.down.empty() || !s.siblings.empty())
            continue;
        children.clear();
        for (int g : s.down)
            children.push_back(groupRemoteSwitch[std::size_t(g)]);
        if (std::find(children.begin(), children.end(), -1) != children.end())
            continue;  // CAs (or portless groups) below: the walk's result depends on them
        std::sort(children.begin(), children.end());
        downClass[sw] = classOf.emplace(children, int(classOf.size())).first->second;
    }
    classWalk.assign(classOf.size(), 0);
    isRoot.assign(switches.size(), 0);
    for (std::size_t sw = 0; sw < switches.size(); ++sw)
        isRoot[sw] = switches[sw].rank == 0 ? 1 : 0;
    below.assign(switches.size(), kWalkBelow);
    for (std::size_t sw = 0; sw < switches.size(); ++sw) {
        if (switches[sw].down.empty())
            below[sw] = kNothingBelow;
        else if (switches[sw].downAllCas)
            below[sw] = kLeafBelow;
    }
    classHops.assign(classOf.size(), 0);
    walk = 0;
}

void FatTreeEngine::Model::route(const std::function<bool()> &tick)
{
    const std::size_t lids = std::size_t(maxLid) + 1;
    rowLength = switches.size();
    lft.assign(switches.size() * lids, kNoPath);
    hops.assign(switches.size(), kNoPath);
    reached.assign(lids, 0);

    // Compute nodes, leaf by leaf in index order, each leaf's CAs in port order.
    for (int leaf : leaves) {
        int routedOnLeaf = 0;
        // Live indexing as OpenSM does; the array only reorders if counters move on a leaf.
        for (std::size_t j = 0; j < switches[std::size_t(leaf)].down.size(); ++j) {
            const int gi = switches[std::size_t(leaf)].down[j];
            const Group &group = groups[std::size_t(gi)];
            if (group.remoteIsSwitch || cas[std::size_t(group.remote)].cnCount == 0)
                continue;
            bool isCn = false;
            for (int up : cas[std::size_t(group.remote)].up)
                isCn |= groups[std::size_t(up)].lid == group.remoteLid && groups[std::size_t(up)].isCn;
            if (!isCn)
                continue;
            const Lid lid = group.remoteLid;
            beginWalk();
            lftAt(std::size_t(leaf), lid) = group.ports.front().number;
            hopAt(std::size_t(leaf)) = 1;
            routeDowngoingByGoingUp(leaf, -1, lid, true, 1);
            reached[lid] = std::memchr(hops.data(), kNoPath, hops.size()) == nullptr ? 1 : 0;
            ++routedOnLeaf;
            if (!tick())
                return;
        }
        // Missing CNs are routed to LID 0 so that the counters see a full leaf; their
        // entries are wiped after each.
        for (int j = routedOnLeaf; j < maxCnPerLeaf; ++j) {
            beginWalk();
            hopAt(std::size_t(leaf)) = 1;
            routeDowngoingByGoingUp(leaf, -1, 0, true, 1);
            for (std::size_t s = 0; s < switches.size(); ++s)
                lftAt(s, 0) = kNoPath;
        }
    }
    // Non-CN CA ports (service and I/O nodes), CA by CA in map order, as OpenSM's
    // fabric_route_to_non_cns: from the switch they hang off, on the main path so that the
    // counters see them, after the CNs so that they do not change CN-to-CN routes. (OpenSM
    // allows reverse hops for I/O nodes with max_reverse_hops; Weft allows none, its default.)
    for (const Ca &ca : cas) {
        for (int gi : ca.up) {
            const Group &group = groups[std::size_t(gi)];
            if (group.isCn || !group.remoteIsSwitch)
                continue;
            const int sw = group.remote;
            const Lid lid = group.lid;
            beginWalk();
            lftAt(std::size_t(sw), lid) = group.ports.front().remoteNumber;
            hopAt(std::size_t(sw)) = 1;
            routeDowngoingByGoingUp(sw, -1, lid, true, 1);
            reached[lid] = std::memchr(hops.data(), kNoPath, hops.size()) == nullptr ? 1 : 0;
            if (!tick())
                return;
        }
    }

    // Switches' own LIDs, in map order, on secondary paths only.
    for (int sw = 0; sw < int(switches.size()); ++sw) {
        const Lid lid = switches[std::size_t(sw)].lid;
        beginWalk();
        lftAt(std::size_t(sw), lid) = 0;
        hopAt(std::size_t(sw)) = 0;
        routeDowngoingByGoingUp(sw, -1, lid, false, 0);
        if (!tick())
            return;
    }
}

// ---- the engine --------------------------------------------------------------------------

FatTreeEngine::FatTreeEngine() = default;
FatTreeEngine::~FatTreeEngine() = default;

QString FatTreeEngine::description() const
{
    return QStringLiteral("Fat-tree routing, balanced per port, as OpenSM's ftree computes it");
}

Status FatTreeEngine::prepare(const Fabric &fabric, const Tenancy &, const RoutingOptions &)
{
    m_model.reset();
    Result<SwitchGraph> graph = SwitchGraph::build(fabric);
    if (!graph)
        return graph.error();
    if (graph->maxLmc > 0)
        return refuse(QStringLiteral("LMC > 0 is not supported by fat-tree routing (OpenSM falls back to minhop)"));
    auto model = std::make_unique<Model>();
    if (Status built = model->build(*graph); !built)
        return built;
    m_model = std::move(model);
    return Done{};
}

Result<Routing> FatTreeEngine::route(const RoutingOptions &options)
{
    if (!m_model)
        return Error{{}, 0, QStringLiteral("ftree: route() without a successful prepare()")};
    Model work = *m_model;
    const int total = work.cnCount + int(work.switches.size());
    int done = 0;
    bool cancelled = false;
    auto tick = [&]() {
        ++done;
        if (options.progress && (done % 32 == 0 || done == total) && !options.progress(done, total))
            cancelled = true;
        return !cancelled;
    };
    if (options.progress && !options.progress(0, total))
        return routing::cancelledError(name());
    work.route(tick);
    if (cancelled)
        return routing::cancelledError(name());

    Routing result;
    result.engine = name();
    // Tables in fabric switch order, as the other engines give them.
    ForwardingTables tables;
    tables.reserve(work.switches.size());
    std::vector<int> byGraph(work.graphSwitchCount, -1);
    for (std::size_t s = 0; s < work.switches.size(); ++s)
        byGraph[std::size_t(work.switches[s].graphIndex)] = int(s);
    std::vector<int> tableOfModel(work.switches.size(), -1);
    for (std::size_t g = 0; g < work.graphSwitchCount; ++g) {
        const Model::Switch &sw = work.switches[std::size_t(byGraph[g])];
        const int i = tables.addSwitch(sw.guid, sw.lid, m_model->descriptions[g]);
        tableOfModel[std::size_t(byGraph[g])] = i;
    }
    // LID 0's row was wiped after each missing CN, so skipping it loses nothing.
    routing::copyRowsToTables(work.lft.data(), std::size_t(work.maxLid) + 1, tableOfModel, tables);
    result.tables = std::move(tables);
    result.reachedFromEverySwitch = std::move(work.reached);
    return result;
}

std::vector<int> FatTreeEngine::switchRanks() const
{
    std::vector<int> ranks;
    if (!m_model)
        return ranks;
    ranks.assign(m_model->graphSwitchCount, -1);
    for (const Model::Switch &s : m_model->switches)
        ranks[std::size_t(s.graphIndex)] = int(s.rank);
    return ranks;
}

std::vector<Guid> FatTreeEngine::leafOrder() const
{
    std::vector<Guid> order;
    if (!m_model)
        return order;
    for (int leaf : m_model->leaves)
        order.push_back(m_model->switches[std::size_t(leaf)].guid);
    return order;
}

// ---- the analysis, for other fat-tree engines ----------------------------------------------

namespace routing {

Result<FatTreeLayout> analyseFatTree(const Fabric &fabric, bool requirePure, const QString &engine)
{
    auto renamed = [&engine](const Error &e) {
        Error out = e;
        const QString prefix = QStringLiteral("ftree: ");
        if (out.message.startsWith(prefix))
            out.message = engine + QStringLiteral(": ") + out.message.mid(prefix.size());
        return out;
    };
    Result<SwitchGraph> graph = SwitchGraph::build(fabric);
    if (!graph)
        return renamed(graph.error());
    if (Status ok = checkRoutable(*graph, engine); !ok)
        return ok.error();
    FatTreeEngine::Model model;
    model.requirePure = requirePure;
    if (Status built = model.build(*graph); !built)
        return renamed(built.error());

    FatTreeLayout layout;
    layout.maxLid = graph->maxLid;
    layout.leafRank = int(model.leafRank);
    layout.switches.resize(graph->switches.size());
    for (const FatTreeEngine::Model::Switch &ms : model.switches) {
        FatTreeLayout::Switch &s = layout.switches[std::size_t(ms.graphIndex)];
        const SwitchGraph::Switch &gs = graph->switches[std::size_t(ms.graphIndex)];
        s.node = gs.node;
        s.guid = gs.guid;
        s.lid = gs.lid;
        s.rank = int(ms.rank);
        s.description = gs.description;
    }
    // Groups are exported once, from their lower end; the upper switch lists them in its own
    // (index) order of down groups.
    std::vector<int> exported(model.groups.size(), -1);
    for (const FatTreeEngine::Model::Switch &ms : model.switches) {
        for (int g : ms.up) {
            const FatTreeEngine::Model::Group &mg = model.groups[std::size_t(g)];
            FatTreeLayout::Group group;
            group.lower = ms.graphIndex;
            group.upper = model.switches[std::size_t(mg.remote)].graphIndex;
            for (const FatTreeEngine::Model::Port &p : mg.ports)
                group.cables.push_back({p.number, p.remoteNumber});
            std::sort(group.cables.begin(), group.cables.end(),
                      [](const FatTreeLayout::Cable &a, const FatTreeLayout::Cable &b) { return a.lowerPort < b.lowerPort; });
            exported[std::size_t(g)] = int(layout.groups.size());
            layout.switches[std::size_t(ms.graphIndex)].up.push_back(int(layout.groups.size()));
            layout.groups.push_back(std::move(group));
        }
    }
    for (const FatTreeEngine::Model::Switch &ms : model.switches) {
        for (int g : ms.down) {
            const FatTreeEngine::Model::Group &mg = model.groups[std::size_t(g)];
            if (!mg.remoteIsSwitch)
                continue;
            // The same cables seen from above: find the lower switch's group towards us.
            const FatTreeEngine::Model::Switch &lower = model.switches[std::size_t(mg.remote)];
            for (int ug : lower.up) {
                if (model.groups[std::size_t(ug)].remote == model.switchOfGraph[std::size_t(ms.graphIndex)]) {
                    layout.switches[std::size_t(ms.graphIndex)].down.push_back(exported[std::size_t(ug)]);
                    break;
                }
            }
        }
    }
    layout.computeNodesOfSwitch.resize(graph->switches.size());
    for (int leaf : model.leaves) {
        const int g = model.switches[std::size_t(leaf)].graphIndex;
        layout.leaves.push_back(g);
        for (int p = 1; p <= graph->switches[std::size_t(g)].portCount; ++p) {
            const SwitchGraph::Slot &slot = graph->slot(g, p);
            if (slot.remote != SwitchGraph::Remote::EndPort)
                continue;
            const SwitchGraph::EndPort &end = graph->endPorts[std::size_t(slot.index)];
            if (end.type != NodeType::ChannelAdapter || end.lid == 0)
                continue;
            FatTreeLayout::ComputeNode cn;
            cn.node = end.node;
            cn.nodeGuid = end.nodeGuid;
            cn.portGuid = end.portGuid;
            cn.lid = end.lid;
            cn.leaf = g;
            cn.leafPort = std::uint8_t(p);
            layout.computeNodesOfSwitch[std::size_t(g)].push_back(int(layout.computeNodes.size()));
            layout.computeNodes.push_back(cn);
        }
    }
    return layout;
}

#if defined(__SSE2__)
namespace {

// Rows `from` .. `from` + 15 * stride (16 entries each) become 16 columns: column j gets the
// j-th entry of every row, at columns[j] + at.
inline void transpose16(const std::uint8_t *from, std::size_t stride, std::uint8_t *const *columns, std::size_t at)
{
    __m128i a[16], b[16];
    for (int i = 0; i < 16; ++i)
        a[i] = _mm_loadu_si128(reinterpret_cast<const __m128i *>(from + std::size_t(i) * stride));
    // Bytes of row pairs, then 2-row units of pairs of pairs, 4-row units, 8-row units: each
    // stage doubles the rows a unit holds of one column.
    for (int i = 0; i < 16; i += 2) {
        b[i] = _mm_unpacklo_epi8(a[i], a[i + 1]);
        b[i + 1] = _mm_unpackhi_epi8(a[i], a[i + 1]);
    }
    for (int q = 0; q < 16; q += 4) {
        a[q] = _mm_unpacklo_epi16(b[q], b[q + 2]);
        a[q + 1] = _mm_unpackhi_epi16(b[q], b[q + 2]);
        a[q + 2] = _mm_unpacklo_epi16(b[q + 1], b[q + 3]);
        a[q + 3] = _mm_unpackhi_epi16(b[q + 1], b[q + 3]);
    }
    for (int h = 0; h < 16; h += 8) {
        for (int k = 0; k < 4; ++k) {
            b[h + 2 * k] = _mm_unpacklo_epi32(a[h + k], a[h + 4 + k]);
            b[h + 2 * k + 1] = _mm_unpackhi_epi32(a[h + k], a[h + 4 + k]);
        }
    }
    for (int k = 0; k < 8; ++k) {
        _mm_storeu_si128(reinterpret_cast<__m128i *>(columns[2 * k] + at), _mm_unpacklo_epi64(b[k], b[k + 8]));
        _mm_storeu_si128(reinterpret_cast<__m128i *>(columns[2 * k + 1] + at), _mm_unpackhi_epi64(b[k], b[k + 8]));
    }
}

}  // namespace
#endif

void copyRowsToTables(const std::uint8_t *rows, std::size_t lids, const std::vector<int> &tableOf, ForwardingTables &tables)
{
    const std::size_t count = tableOf.size();
    if (lids == 0 || count == 0)
        return;
    std::vector<std::uint8_t *> columns(count);
    static_assert(kNoPath == kNoRoute, "the rows' no-path mark is the tables'");
    // Tiles of 64 switches by 64 LIDs: the tile's rows stay in the first-level cache while each
    // switch's 64 entries are written in order (one line), where writing one LID to every switch
    // of a band at a time would touch as many pages as there are switches in it.
    constexpr std::size_t kBand = 64;  // switches per band
    constexpr std::size_t kTile = 64;  // LIDs per tile
    const std::size_t bands = (count + kBand - 1) / kBand;
    auto copyBands = [&](std::size_t firstBand, std::size_t step) {
        for (std::size_t band = firstBand; band < bands; band += step) {
            const std::size_t first = band * kBand;
            const std::size_t last = std::min(count, first + kBand);
            for (std::size_t s = first; s < last; ++s)
                columns[s] = tables.lft(std::size_t(tableOf[s])).entriesToFill(Lid(lids - 1));
            for (std::size_t tile = 1; tile < lids; tile += kTile) {
                const std::size_t end = std::min(lids, tile + kTile);
                // The next tile's rows and columns are fetched while this one is copied: the
                // copy is bound by memory latency, not bandwidth.
                const std::size_t nextEnd = std::min(lids, end + kTile);
                for (std::size_t lid = end; lid < nextEnd; ++lid) {
                    __builtin_prefetch(rows + lid * count + first);
                    __builtin_prefetch(rows + lid * count + last - 1);
                }
                if (end < lids)
                    for (std::size_t s = first; s < last; ++s)
                        __builtin_prefetch(columns[s] + end, 1);
                // 16 x 16 blocks transposed in registers; what is left over one entry at a time.
                std::size_t s = first;
#if defined(__SSE2__)
                const std::size_t whole = tile + (end - tile) / 16 * 16;
                for (; s + 16 <= last; s += 16) {
                    for (std::size_t lid = tile; lid < whole; lid += 16)
                        transpose16(rows + lid * count + s, count, &columns[s], lid);
                    for (std::size_t k = s; k < s + 16; ++k)
                        for (std::size_t lid = whole; lid < end; ++lid)
                            columns[k][lid] = rows[lid * count + k];
                }
#endif
                for (; s < last; ++s) {
                    std::uint8_t *column = columns[s];
                    const std::uint8_t *from = rows + s;
                    for (std::size_t lid = tile; lid < end; ++lid)
                        column[lid] = from[lid * count];
                }
            }
        }
    };
    // Bands are disjoint tables (each allocated by the thread that fills it): a second thread
    // halves a copy that is memory-bound on large fabrics (157 M entries at the LID limit).
    const std::size_t threads = bands >= 8 && std::thread::hardware_concurrency() > 1 ? 2 : 1;
    runOnThreads(threads, [&](std::size_t i) { copyBands(i, threads); });
}

ForwardingTables tablesFromRows(const FatTreeLayout &layout, const std::uint8_t *rows, std::size_t lids)
{
    ForwardingTables tables;
    tables.reserve(layout.switches.size());
    std::vector<int> tableOf;
    tableOf.reserve(layout.switches.size());
    for (const FatTreeLayout::Switch &sw : layout.switches)
        tableOf.push_back(tables.addSwitch(sw.guid, sw.lid, sw.description));
    copyRowsToTables(rows, lids, tableOf, tables);
    return tables;
}

ForwardingTables tablesFromColumns(const FatTreeLayout &layout, const std::vector<std::vector<std::uint8_t>> &columns)
{
    ForwardingTables tables;
    tables.reserve(layout.switches.size());
    for (std::size_t s = 0; s < layout.switches.size(); ++s) {
        const FatTreeLayout::Switch &sw = layout.switches[s];
        LinearForwardingTable &lft = tables.lft(std::size_t(tables.addSwitch(sw.guid, sw.lid, sw.description)));
        lft.reserve(layout.maxLid);
        const std::vector<std::uint8_t> &column = columns[s];
        for (std::size_t lid = 1; lid < column.size(); ++lid)
            if (column[lid] != kNoPath)
                lft.setPort(Lid(lid), column[lid]);
    }
    return tables;
}

}  // namespace routing

}  // namespace weft
