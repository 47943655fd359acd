#include "PartitionAwareFatTree.h"
#include "PftreePhases.h"

#include "FatTreeLayout.h"
#include "IsolationSearch.h"
#include "LargeBuffer.h"
#include "Parallel.h"
#include "SwitchGraph.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <set>
#include <thread>
#include <unordered_map>

namespace weft {

namespace {

using routing::FatTreeLayout;
using routing::kNoPath;

using Load = std::int64_t;            // weights in 1/1024 units, so comparisons are exact
constexpr double kWeightScale = 1024.0;
constexpr int kNoKey = -1;

int strictness(IsolationPolicy policy)
{
    switch (policy) {
    case IsolationPolicy::Physical: return 3;
    case IsolationPolicy::VirtualLane: return 2;
    case IsolationPolicy::Default: return 1;
    }
    return 1;
}

}  // namespace

namespace routing {

std::vector<int> orderComputeNodes(const std::vector<int> &keys, int upLinks, OrderingVariant variant)
{
    const int n = int(keys.size());
    std::vector<int> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    // Alg. 2 l.6 says `return`; `continue` is meant (erratum 1): such a leaf keeps its order.
    if (n <= upLinks || upLinks <= 0)
        return order;
    std::vector<int> index(std::size_t(n), -1);
    std::vector<char> taken(std::size_t(n), 0);
    std::map<int, int> base;  // partition -> index its next node is placed from
    auto firstFree = [&]() {
        for (int i = 0; i < n; ++i)
            if (!taken[std::size_t(i)])
                return i;
        return n - 1;  // unreachable: one index per node
    };
    int id = 0;
    for (int i = 0; i < n; ++i) {
        auto found = base.find(keys[std::size_t(i)]);
        if (found == base.end()) {
            if (taken[std::size_t(id)])
                id = firstFree();
            base.emplace(keys[std::size_t(i)], id);
        } else {
            id = found->second + upLinks;
            if (id >= n || taken[std::size_t(id)])
                id = firstFree();
            if (variant == OrderingVariant::Chained)
                found->second = id;
        }
        index[std::size_t(i)] = id;
        taken[std::size_t(id)] = 1;
    }
    std::sort(order.begin(), order.end(), [&](int a, int b) { return index[std::size_t(a)] < index[std::size_t(b)]; });
    return order;
}

}  // namespace routing

// The engine's copy of the tree plus the partitions resolved against it. route() works on
// copies of the mutable parts so that it can run again.
struct PartitionAwareFatTreeEngine::Model
{
    struct Cable
    {
        int lower = -1, upper = -1;
        std::uint8_t lowerPort = 0, upperPort = 0;
        int group = -1;
    };

    struct Key  // a routing partition: a real one, or the pseudo-partition 0x7fff
    {
        std::uint16_t pkey = 0;
        QString name;
        IsolationPolicy policy = IsolationPolicy::Default;
        std::vector<std::pair<int, bool>> members;  // compute node, full member
        bool multiLeaf = false;
        bool real = true;
    };

    FatTreeLayout layout;
    std::vector<Cable> cables;
    std::vector<std::vector<int>> upCables;      // per switch
    std::vector<std::vector<int>> downGroups;    // per switch, visiting order
    std::vector<std::vector<int>> groupCables;   // per group
    struct GroupSpan
    {
        int child = -1;                    // the group's lower switch
        int firstCable = 0, endCable = 0;  // its cables: consecutive ids, port order
    };
    std::vector<GroupSpan> groupSpan;  // per group, what the routing loop reads
    // Switches whose down groups lead to the same children share a class: once one of them
    // has gone down towards a target, every child is reached with no more hops than the
    // others could offer, so their walk down would set nothing (the spines of one group, the
    // middle switches of one pod). -1: a switch with no children.
    std::vector<int> downClass;  // per switch
    int downClassCount = 0;
    // The walk down reads, per switch, its down groups in visiting order, and counts per cable:
    // both laid out switch by switch in that order (a "down slot" per cable), so that a switch's
    // walk reads a few consecutive cache lines rather than one per group.
    struct DownEntry
    {
        int child = -1;
        int childClass = -1;             // the child's down class (-1: a leaf)
        int firstSlot = 0, endSlot = 0;  // the group's cables' down slots, port order
    };
    std::vector<int> downBegin;            // per switch, and one past the last: into downEntries
    std::vector<DownEntry> downEntries;
    std::vector<std::uint8_t> slotLowerPort;  // per down slot: the lower switch's port
    std::vector<Guid> cableUpperGuid;         // per cable: its upper switch's GUID (the up choice's tie-break)
    bool parallelCables = false;              // some switch pair is joined by more than one cable
    std::vector<std::vector<int>> dirLinkOfPort; // per switch, by port: directed link id or -1
    std::vector<Key> keys;                       // real partitions by P_Key, then the pseudo one
    std::vector<int> routingKey;                 // per compute node
    std::vector<char> singleLeaf;                // per compute node
    std::vector<Load> weight;                    // per compute node
    QStringList prepareWarnings;
    bool strict = false;  // Tenancy::mode

    int keyCount() const { return int(keys.size()); }
    int realKeyCount() const { return int(keys.size()) - 1; }
    QString linkName(int dirLink) const;
    QString keyName(int k) const
    {
        const Key &key = keys[std::size_t(k)];
        return key.name.isEmpty() ? pkeyText(key.pkey) : QStringLiteral("\"%1\" (%2)").arg(key.name, pkeyText(key.pkey));
    }
};

QString PartitionAwareFatTreeEngine::Model::linkName(int dirLink) const
{
    const Cable &c = cables[std::size_t(dirLink / 2)];
    const bool up = dirLink % 2 == 0;
    auto sw = [this](int s) {
        const FatTreeLayout::Switch &x = layout.switches[std::size_t(s)];
        return x.description.isEmpty() ? guidText(x.guid) : x.description;
    };
    if (up)
        return QStringLiteral("%1 port %2 -> %3 port %4").arg(sw(c.lower)).arg(c.lowerPort).arg(sw(c.upper)).arg(c.upperPort);
    return QStringLiteral("%1 port %2 -> %3 port %4").arg(sw(c.upper)).arg(c.upperPort).arg(sw(c.lower)).arg(c.lowerPort);
}

namespace {

using Model = PartitionAwareFatTreeEngine::Model;
using Algorithm = PartitionAwareFatTreeEngine::Algorithm;

}  // namespace

namespace pftree {

// One routing run: loads, marks, tables.
class Router
{
public:
    // With `owner`, the router writes into the owner's rows (routing other LIDs beside it);
    // without, it owns its rows.
    Router(const Model &model, Algorithm algorithm, const PartitionAwareOptions &options, Router *owner = nullptr)
        : m(model), algo(algorithm), opt(options)
    {
        const std::size_t lids = std::size_t(m.layout.maxLid) + 1;
        const std::size_t switches = m.layout.switches.size();
        if (owner) {
            rows = owner->rows;
            started = owner->started;
            reached = owner->reached;
        } else {
            ownRows = std::make_unique<RowStore>(switches * lids);
            rows = ownRows->data;
            ownStarted.assign(lids, 0);
            started = ownStarted.data();
            ownReached.assign(lids, 0);
            reached = ownReached.data();
        }
        hops.assign(switches, kNoPath);
        loadDown.assign(m.cables.size(), 0);
        loadUp.assign(m.slotLowerPort.size(), 0);
        markDown.assign(switches * std::size_t(m.keyCount()), 0);
        conflicts.assign(switches * std::size_t(m.keyCount()), 0);
        classWalk.assign(std::size_t(m.downClassCount), 0);
        classHops.assign(std::size_t(m.downClassCount), 0);
    }

    void routeTarget(int sw, Lid lid, int key, Load w, bool counted, std::uint8_t ownPort)
    {
        if (!started[lid]) {
            std::memset(rows + std::size_t(lid) * rowLength, kNoPath, rowLength);
            started[lid] = 1;
        }
        std::fill(hops.begin(), hops.end(), kNoPath);
        ++walk;
        lftAt(sw, lid) = ownPort;
        hops[std::size_t(sw)] = ownPort == 0 ? 0 : 1;
        routeDown(sw, -1, lid, key, w, counted);
        // Every entry written above leads to a switch with fewer hops (hop counts only fall, and
        // the first is the target's own port), so each switch with a hop count reaches the LID.
        reached[lid] = std::memchr(hops.data(), kNoPath, hops.size()) == nullptr ? 1 : 0;
    }

    // The part of routeTarget(leaf, ..., counted = true) that later LIDs' routing reads, when no
    // switch pair has parallel cables: up from the leaf along the chosen cables, adding the load
    // and the partition's mark to each (routeDown's counted chain; each switch on it is reached
    // there first, so the chain goes on to the top).
    void climb(int sw, int key, Load w)
    {
        while (!m.upCables[std::size_t(sw)].empty()) {
            const int sel = chooseUpCable(sw, key, true);
            const Model::Cable &c = m.cables[std::size_t(sel)];
            loadDown[std::size_t(sel)] += w;
            if (key != kNoKey)
                ++mark(markDown, c.upper, key);
            sw = c.upper;
        }
    }

    const Model &m;
    Algorithm algo;
    PartitionAwareOptions opt;
    // By LID, then switch: routing one LID writes one contiguous row. A row is cleared when its
    // LID's routing starts (in the cache, by the thread that routes it); finishRows() clears
    // the rows of LIDs that were not routed.
    struct RowStore
    {
        explicit RowStore(std::size_t n)
            : data(LargeBufferAllocator<std::uint8_t>().allocate(n)), size(n) {}
        ~RowStore() { LargeBufferAllocator<std::uint8_t>().deallocate(data, size); }
        RowStore(const RowStore &) = delete;
        RowStore &operator=(const RowStore &) = delete;
        std::uint8_t *data;
        std::size_t size;
    };
    std::unique_ptr<RowStore> ownRows;
    std::vector<char> ownStarted;  // per LID: its row was cleared
    std::vector<char> ownReached;  // per LID: every switch reaches it (Routing::reachedFromEverySwitch)
    std::uint8_t *rows = nullptr;
    char *started = nullptr;
    char *reached = nullptr;
    void finishRows()
    {
        for (std::size_t lid = 0; lid <= std::size_t(m.layout.maxLid); ++lid)
            if (!started[lid]) {
                std::memset(rows + lid * rowLength, kNoPath, rowLength);
                started[lid] = 1;
            }
    }
    std::size_t rowLength = m.layout.switches.size();
    std::uint8_t &lftAt(int sw, Lid lid) { return rows[std::size_t(lid) * rowLength + std::size_t(sw)]; }
    std::uint8_t lftAt(int sw, Lid lid) const { return rows[std::size_t(lid) * rowLength + std::size_t(sw)]; }
    std::vector<std::uint8_t> hops;  // per switch, for the target being routed
    std::vector<Load> loadDown;
    std::vector<Load> loadUp;  // per down slot (Model::DownEntry), the cable's up-going count
    std::vector<std::uint32_t> markDown, conflicts;
    // Per switch, the port group the isolation search fixed for the target being routed (-1: free).
    std::vector<int> forcedGroup;
    // Per down class (Model::downClass): the target walk it last went down in, and the fewest
    // hops it went down with then.
    std::vector<std::uint32_t> classWalk;
    std::vector<std::uint8_t> classHops;
    std::uint32_t walk = 0;
    // Whether going down from `sw` with `hops` would set nothing: no children, or its class
    // went down already in this walk with as few hops.
    bool walkDownIsDone(int sw, std::uint8_t hops) const
    {
        const int downSet = m.downClass[std::size_t(sw)];
        return downSet < 0 || (classWalk[std::size_t(downSet)] == walk && classHops[std::size_t(downSet)] <= hops);
    }

private:
    std::uint32_t &mark(std::vector<std::uint32_t> &marks, int sw, int key)
    {
        return marks[std::size_t(sw) * std::size_t(m.keyCount()) + std::size_t(key)];
    }

    bool excluded(int upper, int key) const
    {
        const int mine = strictness(m.keys[std::size_t(key)].policy);
        for (int q = 0; q < m.keyCount(); ++q) {
            if (q == key || markDown[std::size_t(upper) * std::size_t(m.keyCount()) + std::size_t(q)] == 0)
                continue;
            const int theirs = strictness(m.keys[std::size_t(q)].policy);
            if (theirs > mine)
                return true;
            if (opt.phyExcludesPhy && theirs == 3 && mine == 3)
                return true;
        }
        return false;
    }

    Load groupLoadDown(int group) const
    {
        Load sum = 0;
        for (int c : m.groupCables[std::size_t(group)])
            sum += loadDown[std::size_t(c)];
        return sum;
    }

    Load minDownLoadBelow(int sw) const
    {
        Load least = std::numeric_limits<Load>::max();
        for (int g : m.downGroups[std::size_t(sw)])
            least = std::min(least, groupLoadDown(g));
        return least == std::numeric_limits<Load>::max() ? 0 : least;
    }

    // The up-going cable of `sw` that carries `lid`'s down path (spec §3.2.2 resolved; the
    // weighted fat-tree's keys per spec 003 §3.3).
    int chooseUpCable(int sw, int key, bool counted)
    {
        if (!forcedGroup.empty() && forcedGroup[std::size_t(sw)] >= 0) {
            // The isolation search's path: the least loaded cable of its group, then port order.
            int pick = -1;
            for (int c : m.groupCables[std::size_t(forcedGroup[std::size_t(sw)])])
                if (pick < 0 || loadDown[std::size_t(c)] < loadDown[std::size_t(pick)])
                    pick = c;
            return pick;
        }
        // Off the search's path, a walk that counts nothing goes up in cable order, as the
        // search's model of the routing has it (IsolationSearch.cpp, destinationTree): a sender
        // cut off from the path is given the second path the search counted.
        if (!forcedGroup.empty() && !counted)
            return m.upCables[std::size_t(sw)].front();
        const std::vector<int> &ports = m.upCables[std::size_t(sw)];
        if (algo == Algorithm::WeightedFatTree) {
            std::vector<Load> below(ports.size());
            for (std::size_t i = 0; i < ports.size(); ++i)
                below[i] = minDownLoadBelow(m.cables[std::size_t(ports[i])].upper);
            std::vector<std::size_t> idx(ports.size());
            std::iota(idx.begin(), idx.end(), 0);
            std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
                const Model::Cable &ca = m.cables[std::size_t(ports[a])];
                const Model::Cable &cb = m.cables[std::size_t(ports[b])];
                if (loadDown[std::size_t(ports[a])] != loadDown[std::size_t(ports[b])])
                    return loadDown[std::size_t(ports[a])] < loadDown[std::size_t(ports[b])];
                if (below[a] != below[b])
                    return below[a] < below[b];
                const Guid ga = m.layout.switches[std::size_t(ca.upper)].guid;
                const Guid gb = m.layout.switches[std::size_t(cb.upper)].guid;
                if (ga != gb)
                    return ga < gb;
                return ca.lowerPort < cb.lowerPort;
            });
            return ports[idx.front()];
        }
        // The order the choice follows: least loaded, then the higher upper GUID, then the lower
        // port; a total order, so each step below is the first port in it that qualifies, found
        // without sorting (or copying) the ports.
        auto before = [this](int a, int b) {
            if (loadDown[std::size_t(a)] != loadDown[std::size_t(b)])
                return loadDown[std::size_t(a)] < loadDown[std::size_t(b)];
            const Guid ga = m.cableUpperGuid[std::size_t(a)];
            const Guid gb = m.cableUpperGuid[std::size_t(b)];
            if (ga != gb)
                return ga > gb;
            return m.cables[std::size_t(a)].lowerPort < m.cables[std::size_t(b)].lowerPort;
        };
        int front = ports.front();
        for (int p : ports)
            if (before(p, front))
                front = p;
        if (key == kNoKey)
            return front;
        // Among the least loaded, the one whose upper switch carries this partition most.
        int selected = -1;
        std::uint32_t best = 0;
        for (int p : ports) {
            if (loadDown[std::size_t(p)] != loadDown[std::size_t(front)])
                continue;
            const std::uint32_t marks = mark(markDown, m.cables[std::size_t(p)].upper, key);
            if (marks > best || (marks == best && selected >= 0 && before(p, selected))) {
                best = marks;
                selected = p;
            }
        }
        if (selected >= 0)
            return selected;
        int allowed = -1;
        for (int p : ports) {
            if (algo == Algorithm::Extended && excluded(m.cables[std::size_t(p)].upper, key))
                continue;
            if (allowed < 0 || before(p, allowed))
                allowed = p;
        }
        if (allowed >= 0)
            return allowed;
        if (counted)
            ++mark(conflicts, sw, key);
        return front;
    }

    void routeDown(int sw, int prev, Lid lid, int key, Load w, bool counted)
    {
        routeUp(sw, lid, key, w, prev, counted);
        if (m.upCables[std::size_t(sw)].empty())
            return;
        const std::uint8_t here = hops[std::size_t(sw)];
        const int sel = chooseUpCable(sw, key, counted);
        const Model::Cable &c = m.cables[std::size_t(sel)];
        if (counted) {
            loadDown[std::size_t(sel)] += w;
            if (key != kNoKey)
                ++mark(markDown, c.upper, key);
        }
        if (hops[std::size_t(c.upper)] == kNoPath || here + 1 < hops[std::size_t(c.upper)]) {
            lftAt(c.upper, lid) = c.upperPort;
            hops[std::size_t(c.upper)] = std::uint8_t(here + 1);
            routeDown(c.upper, sw, lid, key, w, counted);
        }
        // Secondary entries (as ftree's non-main paths): the other parents learn a min-hop
        // route too, without counting, so switch-originated traffic reaches every LID.
        for (int other : m.upCables[std::size_t(sw)]) {
            const Model::Cable &o = m.cables[std::size_t(other)];
            if (hops[std::size_t(o.upper)] != kNoPath && here + 1 >= hops[std::size_t(o.upper)])
                continue;
            lftAt(o.upper, lid) = o.upperPort;
            hops[std::size_t(o.upper)] = std::uint8_t(here + 1);
            // A root whose walk down is done would set nothing.
            if (!m.upCables[std::size_t(o.upper)].empty() || !walkDownIsDone(o.upper, std::uint8_t(here + 1)))
                routeDown(o.upper, sw, lid, key, w, false);
        }
    }

    void routeUp(int sw, Lid lid, int key, Load w, int exclude, bool counted)
    {
        const std::uint8_t here = hops[std::size_t(sw)];
        if (walkDownIsDone(sw, here))
            return;  // every child was reached already, with as few hops
        const int downSet = m.downClass[std::size_t(sw)];
        const int endEntry = m.downBegin[std::size_t(sw) + 1];
        for (int e = m.downBegin[std::size_t(sw)]; e < endEntry; ++e) {
            const Model::DownEntry &entry = m.downEntries[std::size_t(e)];
            const int child = entry.child;
            if (child == exclude)
                continue;
            if (hops[std::size_t(child)] != kNoPath && hops[std::size_t(child)] <= here + 1)
                continue;
            int best = entry.firstSlot;
            if (entry.endSlot - entry.firstSlot > 1) {
                // Parallel cables: the least used; the count matters only where there is a choice.
                for (int c = entry.firstSlot + 1; c < entry.endSlot; ++c) {
                    if (loadUp[std::size_t(c)] < loadUp[std::size_t(best)])
                        best = c;
                }
                if (counted)
                    loadUp[std::size_t(best)] += w;
            }
            lftAt(child, lid) = m.slotLowerPort[std::size_t(best)];
            hops[std::size_t(child)] = std::uint8_t(here + 1);
            if (entry.childClass >= 0
                && (classWalk[std::size_t(entry.childClass)] != walk || classHops[std::size_t(entry.childClass)] > here + 1))
                routeUp(child, lid, key, w, -1, counted);
        }
        if (classWalk[std::size_t(downSet)] != walk || here < classHops[std::size_t(downSet)]) {
            classWalk[std::size_t(downSet)] = walk;
            classHops[std::size_t(downSet)] = here;
        }
    }
};

void RouterDeleter::operator()(Router *router) const
{
    delete router;
}

}  // namespace pftree

namespace {

// What the isolation search minimises (IsolationSearch.h), measured on a routing's P(l).
struct IsolationScore
{
    int phyShared = 0;     // links carrying two or more phy partitions
    int phyConflicts = 0;  // links carrying a phy partition and any other
    bool operator<(const IsolationScore &o) const
    {
        return std::tie(phyShared, phyConflicts) < std::tie(o.phyShared, o.phyConflicts);
    }
};

IsolationScore isolationScore(const Model &m, const std::vector<std::vector<int>> &partsOfLink)
{
    IsolationScore score;
    for (const std::vector<int> &parts : partsOfLink) {
        int phy = 0;
        for (int k : parts)
            phy += m.keys[std::size_t(k)].policy == IsolationPolicy::Physical ? 1 : 0;
        score.phyShared += phy >= 2 ? 1 : 0;
        score.phyConflicts += phy >= 1 && parts.size() >= 2 ? 1 : 0;
    }
    return score;
}

// The search's view of the model: partitions are the real keys; a destination class is the
// compute nodes of one leaf that belong to the same multi-leaf partitions with the same
// membership (a node's flows come from every partition it is in, whatever its routing P_Key).
struct SearchInput
{
    routing::IsolationProblem problem;
    std::vector<std::vector<int>> computeNodesOfClass;
};

SearchInput searchInput(const Model &m)
{
    SearchInput in;
    routing::IsolationProblem &p = in.problem;
    const FatTreeLayout &layout = m.layout;
    p.switchCount = int(layout.switches.size());
    for (const FatTreeLayout::Group &g : layout.groups)
        p.groups.push_back({g.lower, g.upper, std::max(1, int(g.cables.size()))});
    for (std::size_t s = 0; s < layout.switches.size(); ++s) {
        p.upGroups.push_back(layout.switches[s].up);
        p.downGroups.push_back(m.downGroups[s]);
    }
    const int realKeys = m.realKeyCount();
    std::vector<std::vector<std::pair<int, bool>>> keysOfCn(layout.computeNodes.size());
    std::vector<std::set<int>> leavesOf{std::size_t(realKeys)}, fullLeavesOf{std::size_t(realKeys)};
    for (int k = 0; k < realKeys; ++k) {
        const Model::Key &key = m.keys[std::size_t(k)];
        p.physical.push_back(key.policy == IsolationPolicy::Physical ? 1 : 0);
        if (!key.multiLeaf)
            continue;
        for (const auto &[cn, full] : key.members) {
            keysOfCn[std::size_t(cn)].push_back({k, full});
            leavesOf[std::size_t(k)].insert(layout.computeNodes[std::size_t(cn)].leaf);
            if (full)
                fullLeavesOf[std::size_t(k)].insert(layout.computeNodes[std::size_t(cn)].leaf);
        }
    }
    std::vector<std::vector<int>> leafList{std::size_t(realKeys)}, fullLeafList{std::size_t(realKeys)};
    for (int k = 0; k < realKeys; ++k) {
        leafList[std::size_t(k)].assign(leavesOf[std::size_t(k)].begin(), leavesOf[std::size_t(k)].end());
        fullLeafList[std::size_t(k)].assign(fullLeavesOf[std::size_t(k)].begin(), fullLeavesOf[std::size_t(k)].end());
    }
    for (int leaf : layout.leaves) {
        std::map<std::vector<std::pair<int, bool>>, int> classOf;
        for (int cn : layout.computeNodesOfSwitch[std::size_t(leaf)]) {
            std::vector<std::pair<int, bool>> signature = keysOfCn[std::size_t(cn)];
            if (signature.empty())
                continue;
            std::sort(signature.begin(), signature.end());
            auto [it, fresh] = classOf.emplace(signature, int(p.classes.size()));
            if (fresh) {
                routing::IsolationProblem::DestinationClass cls;
                cls.leaf = leaf;
                cls.hosts = 0;
                for (const auto &[k, full] : signature) {
                    routing::IsolationProblem::Demand d;
                    d.partition = k;
                    const std::vector<int> &from = full ? leafList[std::size_t(k)] : fullLeafList[std::size_t(k)];
                    d.senderLeaves.reserve(from.size());
                    for (int l : from)
                        if (l != leaf)
                            d.senderLeaves.push_back(l);
                    if (!d.senderLeaves.empty())
                        cls.demands.push_back(std::move(d));
                }
                p.classes.push_back(std::move(cls));
                in.computeNodesOfClass.emplace_back();
            }
            ++p.classes[std::size_t(it->second)].hosts;
            in.computeNodesOfClass[std::size_t(it->second)].push_back(cn);
        }
    }
    return in;
}

std::map<int, std::vector<int>> forcedPaths(const SearchInput &in, const routing::IsolationPlan &plan)
{
    std::map<int, std::vector<int>> paths;
    for (std::size_t c = 0; c < plan.hostPaths.size(); ++c)
        for (std::size_t h = 0; h < plan.hostPaths[c].size(); ++h)
            paths[in.computeNodesOfClass[c][h]] = plan.hostPaths[c][h];
    return paths;
}

}  // namespace

PartitionAwareFatTreeEngine::PartitionAwareFatTreeEngine(Algorithm algorithm, PartitionAwareOptions options)
    : m_algorithm(algorithm), m_options(options)
{
}

PartitionAwareFatTreeEngine::~PartitionAwareFatTreeEngine() = default;

QString PartitionAwareFatTreeEngine::name() const
{
    switch (m_algorithm) {
    case Algorithm::Extended: return QStringLiteral("pftree");
    case Algorithm::Base: return QStringLiteral("pftree-base");
    case Algorithm::Weighted: return QStringLiteral("pftree-wt");
    case Algorithm::WeightedFatTree: return QStringLiteral("wftree");
    }
    return {};
}

QString PartitionAwareFatTreeEngine::description() const
{
    switch (m_algorithm) {
    case Algorithm::Extended:
        return QStringLiteral("Partition-aware fat-tree (pFTree-Ext): isolates partitions by link and VL per their policies");
    case Algorithm::Base:
        return QStringLiteral("Partition-aware fat-tree (base pFTree): balance first, then keep partitions apart");
    case Algorithm::Weighted:
        return QStringLiteral("Weighted partition-aware fat-tree (pFTree-Wt): balances node weights, keeps partitions together on ties");
    case Algorithm::WeightedFatTree:
        return QStringLiteral("Weighted fat-tree (wFTree): balances the traffic each node receives, independent of cabling order");
    }
    return {};
}

Status PartitionAwareFatTreeEngine::prepare(const Fabric &fabric, const Tenancy &tenancy, const RoutingOptions &)
{
    m_model.reset();
    const QString engine = name();
    auto fail = [&engine](const QString &why) { return Error{{}, 0, QStringLiteral("%1: %2").arg(engine, why)}; };
    if (m_options.maxVirtualLanes < 1 || m_options.maxVirtualLanes > 15)
        return fail(QStringLiteral("the number of data VLs must be 1 to 15, not %1").arg(m_options.maxVirtualLanes));

    Result<FatTreeLayout> layout = routing::analyseFatTree(fabric, !m_options.allowDegraded, engine);
    if (!layout)
        return layout.error();
    auto model = std::make_unique<Model>();
    Model &m = *model;
    m.layout = std::move(layout).value();
    m.strict = tenancy.mode == PolicyMode::Strict;
    const std::size_t switchCount = m.layout.switches.size();

    // Cables, both directions numbered: 2c up (lower -> upper), 2c + 1 down.
    m.upCables.resize(switchCount);
    m.downGroups.resize(switchCount);
    m.dirLinkOfPort.resize(switchCount);
    for (std::size_t s = 0; s < switchCount; ++s)
        m.dirLinkOfPort[s].assign(std::size_t(fabric.node(m.layout.switches[s].node).portCount) + 1, -1);
    m.groupCables.resize(m.layout.groups.size());
    for (std::size_t g = 0; g < m.layout.groups.size(); ++g) {
        const FatTreeLayout::Group &group = m.layout.groups[g];
        for (const FatTreeLayout::Cable &cable : group.cables) {
            const int id = int(m.cables.size());
            m.cables.push_back({group.lower, group.upper, cable.lowerPort, cable.upperPort, int(g)});
            m.groupCables[g].push_back(id);
            m.upCables[std::size_t(group.lower)].push_back(id);
            m.dirLinkOfPort[std::size_t(group.lower)][cable.lowerPort] = 2 * id;
            m.dirLinkOfPort[std::size_t(group.upper)][cable.upperPort] = 2 * id + 1;
        }
    }
    // Cables were numbered group by group above, so each group's cables are one id range.
    m.groupSpan.assign(m.layout.groups.size(), {});
    for (std::size_t g = 0; g < m.layout.groups.size(); ++g) {
        const std::vector<int> &ids = m.groupCables[g];
        m.groupSpan[g] = {m.layout.groups[g].lower, ids.empty() ? 0 : ids.front(), ids.empty() ? 0 : ids.back() + 1};
    }
    for (std::size_t s = 0; s < switchCount; ++s) {
        m.downGroups[s] = m.layout.switches[s].down;
        if (m_algorithm == Algorithm::WeightedFatTree) {
            // The weighted fat-tree visits children by GUID, not by cabling-dependent index.
            std::stable_sort(m.downGroups[s].begin(), m.downGroups[s].end(), [&m](int a, int b) {
                return m.layout.switches[std::size_t(m.layout.groups[std::size_t(a)].lower)].guid
                       < m.layout.switches[std::size_t(m.layout.groups[std::size_t(b)].lower)].guid;
            });
        }
    }

    m.downBegin.assign(switchCount + 1, 0);
    m.downEntries.clear();
    m.slotLowerPort.clear();
    for (std::size_t s = 0; s < switchCount; ++s) {
        m.downBegin[s] = int(m.downEntries.size());
        for (int g : m.downGroups[s]) {
            Model::DownEntry entry;
            entry.child = m.groupSpan[std::size_t(g)].child;
            entry.firstSlot = int(m.slotLowerPort.size());
            for (int c : m.groupCables[std::size_t(g)])
                m.slotLowerPort.push_back(m.cables[std::size_t(c)].lowerPort);
            entry.endSlot = int(m.slotLowerPort.size());
            m.downEntries.push_back(entry);
        }
    }
    m.downBegin[switchCount] = int(m.downEntries.size());
    m.cableUpperGuid.clear();
    for (const Model::Cable &c : m.cables)
        m.cableUpperGuid.push_back(m.layout.switches[std::size_t(c.upper)].guid);
    m.downClass.assign(switchCount, -1);
    {
        std::map<std::vector<int>, int> classOf;
        for (std::size_t s = 0; s < switchCount; ++s) {
            if (m.downGroups[s].empty())
                continue;
            std::vector<int> children;
            for (int g : m.downGroups[s])
                children.push_back(m.groupSpan[std::size_t(g)].child);
            std::sort(children.begin(), children.end());
            m.downClass[s] = classOf.emplace(std::move(children), int(classOf.size())).first->second;
        }
        m.downClassCount = int(classOf.size());
    }
    for (Model::DownEntry &entry : m.downEntries) {
        entry.childClass = m.downClass[std::size_t(entry.child)];
        m.parallelCables = m.parallelCables || entry.endSlot - entry.firstSlot > 1;
    }

    const std::vector<FatTreeLayout::ComputeNode> &cns = m.layout.computeNodes;
    std::unordered_map<Guid, int> cnByPortGuid;
    for (std::size_t i = 0; i < cns.size(); ++i)
        cnByPortGuid.emplace(cns[i].portGuid, int(i));

    // Weights (pftree-wt and wftree); everyone else counts routes.
    const bool weighted = m_algorithm == Algorithm::Weighted || m_algorithm == Algorithm::WeightedFatTree;
    m.weight.assign(cns.size(), Load(kWeightScale));
    if (weighted) {
        for (const auto &[guid, w] : tenancy.nodeWeights) {
            if (!std::isfinite(w) || w < 0)
                return fail(QStringLiteral("the weight of port %1 is %2; weights must be finite and not negative")
                                .arg(guidText(guid)).arg(w));
            if (w > 1e12)
                return fail(QStringLiteral("the weight of port %1 is %2, beyond the supported 1e12").arg(guidText(guid)).arg(w));
            auto found = cnByPortGuid.find(guid);
            if (found != cnByPortGuid.end())
                m.weight[std::size_t(found->second)] = Load(std::llround(w * kWeightScale));
        }
    }

    // Partitions, merged by P_Key, resolved to compute nodes. wftree ignores them.
    std::map<std::uint16_t, Model::Key> byPKey;
    if (m_algorithm != Algorithm::WeightedFatTree) {
        for (const Partition &p : tenancy.partitions) {
            if (!p.pkey) {
                m.prepareWarnings << QStringLiteral("%1: partition \"%2\" has no P_Key and is not considered for isolation")
                                         .arg(engine, p.name);
                continue;
            }
            const std::uint16_t pkey = *p.pkey & kPKeyMask;
            if (pkey == kDefaultPKey)
                continue;  // §2.4: the default partition does not steer routing
            Model::Key &key = byPKey[pkey];
            key.pkey = pkey;
            if (key.name.isEmpty())
                key.name = p.name;
            const IsolationPolicy policy = m_algorithm == Algorithm::Extended ? p.policy : IsolationPolicy::Default;
            if (strictness(policy) > strictness(key.policy))
                key.policy = policy;
            std::map<int, bool> members;
            for (const auto &[cn, full] : key.members)
                members[cn] = full;
            auto add = [&members](int cn, Membership ms) {
                const bool full = ms != Membership::Limited;
                bool &slot = members.emplace(cn, full).first->second;
                slot = slot || full;
            };
            for (const PartitionMember &member : p.members) {
                switch (member.kind) {
                case PartitionMember::Kind::PortGuid: {
                    auto found = cnByPortGuid.find(member.guid);
                    if (found != cnByPortGuid.end())
                        add(found->second, member.membership);
                    break;
                }
                case PartitionMember::Kind::All:
                case PartitionMember::Kind::AllCas:
                    for (int cn = 0; cn < int(cns.size()); ++cn)
                        add(cn, member.membership);
                    break;
                case PartitionMember::Kind::AllSwitches:
                case PartitionMember::Kind::AllRouters:
                case PartitionMember::Kind::Self:
                    break;  // no compute nodes among them
                }
            }
            key.members.assign(members.begin(), members.end());
        }
    }
    for (auto &[pkey, key] : byPKey)
        m.keys.push_back(std::move(key));
    Model::Key pseudo;
    pseudo.pkey = kDefaultPKey;
    pseudo.name = QStringLiteral("Default");
    pseudo.real = false;
    m.keys.push_back(pseudo);
    const int pseudoKey = m.keyCount() - 1;

    std::vector<std::vector<int>> keysOfCn(cns.size());
    for (int k = 0; k < m.realKeyCount(); ++k) {
        Model::Key &key = m.keys[std::size_t(k)];
        std::set<int> leaves;
        for (const auto &[cn, full] : key.members) {
            leaves.insert(cns[std::size_t(cn)].leaf);
            keysOfCn[std::size_t(cn)].push_back(k);
        }
        key.multiLeaf = leaves.size() > 1;
    }
    // routing_pkey (§2.4): multi-leaf first, then the strictest policy, then the lowest P_Key
    // (keys are already in P_Key order).
    m.routingKey.assign(cns.size(), pseudoKey);
    for (std::size_t cn = 0; cn < cns.size(); ++cn) {
        int best = -1;
        for (int k : keysOfCn[cn]) {
            if (best < 0)
                best = k;
            const Model::Key &a = m.keys[std::size_t(k)];
            const Model::Key &b = m.keys[std::size_t(best)];
            if (a.multiLeaf != b.multiLeaf) {
                if (a.multiLeaf)
                    best = k;
                continue;
            }
            if (strictness(a.policy) > strictness(b.policy))
                best = k;
        }
        if (best >= 0)
            m.routingKey[cn] = best;
    }
    {
        std::set<int> leaves;
        for (std::size_t cn = 0; cn < cns.size(); ++cn)
            if (m.routingKey[cn] == pseudoKey)
                leaves.insert(cns[cn].leaf);
        m.keys[std::size_t(pseudoKey)].multiLeaf = leaves.size() > 1;
    }
    m.singleLeaf.assign(cns.size(), 0);
    if (m_algorithm != Algorithm::WeightedFatTree) {
        for (std::size_t cn = 0; cn < cns.size(); ++cn)
            m.singleLeaf[cn] = !m.keys[std::size_t(m.routingKey[cn])].multiLeaf;
    }
    m_model = std::move(model);
    return Done{};
}

namespace pftree {

namespace {

// Threads that routing and the sharing walks may use.
std::size_t shareCountOf()
{
    const unsigned cores = std::thread::hardware_concurrency();
    return std::clamp<std::size_t>(cores == 0 ? 1 : cores, 1, 4);
}

}  // namespace

Run::Run(const PartitionAwareFatTreeEngine &owner, const RoutingOptions &routingOptions)
    : model(*owner.m_model), algorithm(owner.m_algorithm), options(owner.m_options), engine(owner.name()),
      progress(routingOptions.progress),
      total(int(model.layout.computeNodes.size()) + int(model.layout.switches.size()) + 1)
{
    if (routingOptions.searchBudgetSeconds >= 0)
        options.isolationSearchSeconds = routingOptions.searchBudgetSeconds;
}

bool Run::tick()
{
    ++done;
    return !(progress && (done % 64 == 0 || done == total) && !progress(done, total));
}

std::vector<Target> routingTargets(const Run &run)
{
    const Model &m = run.model;
    const FatTreeLayout &layout = m.layout;
    const std::vector<FatTreeLayout::ComputeNode> &cns = layout.computeNodes;
    // Compute nodes (counted ones change the loads), then the switches' own LIDs, unbalanced and
    // unmarked, as ftree routes them.
    std::vector<Target> targets;
    targets.reserve(cns.size() + layout.switches.size());
    if (run.algorithm == Algorithm::WeightedFatTree) {
        // Heaviest first across the whole fabric, ties by port GUID (spec 003 §3.3).
        std::vector<int> order(cns.size());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
            if (m.weight[std::size_t(a)] != m.weight[std::size_t(b)])
                return m.weight[std::size_t(a)] > m.weight[std::size_t(b)];
            return cns[std::size_t(a)].portGuid < cns[std::size_t(b)].portGuid;
        });
        for (int cn : order)
            targets.push_back({cn, true, true});
    } else {
        for (int leaf : layout.leaves) {
            std::vector<int> counted, filtered;
            for (int cn : layout.computeNodesOfSwitch[std::size_t(leaf)])
                (m.singleLeaf[std::size_t(cn)] ? filtered : counted).push_back(cn);
            if (run.algorithm == Algorithm::Extended) {
                std::stable_sort(counted.begin(), counted.end(), [&m](int a, int b) {
                    return strictness(m.keys[std::size_t(m.routingKey[std::size_t(a)])].policy)
                        > strictness(m.keys[std::size_t(m.routingKey[std::size_t(b)])].policy);
                });
            } else if (run.algorithm == Algorithm::Weighted) {
                std::stable_sort(counted.begin(), counted.end(),
                                 [&m](int a, int b) { return m.weight[std::size_t(a)] > m.weight[std::size_t(b)]; });
            }
            std::vector<int> keys;
            for (int cn : counted)
                keys.push_back(m.routingKey[std::size_t(cn)]);
            const std::vector<int> order =
                routing::orderComputeNodes(keys, int(m.upCables[std::size_t(leaf)].size()), run.options.ordering);
            for (int i : order)
                targets.push_back({counted[std::size_t(i)], true, true});
            for (int cn : filtered)
                targets.push_back({cn, true, false});
        }
    }
    for (int s = 0; s < int(layout.switches.size()); ++s)
        targets.push_back({s, false, false});
    return targets;
}

RouterPtr routeRows(Run &run, const std::vector<Target> &targets, const ForcedPaths *forced)
{
    const Model &m = run.model;
    const FatTreeLayout &layout = m.layout;
    const std::vector<FatTreeLayout::ComputeNode> &cns = layout.computeNodes;
    auto keyOf = [&](int cn) { return run.algorithm == Algorithm::WeightedFatTree ? kNoKey : m.routingKey[std::size_t(cn)]; };
    auto forcePath = [&](Router &router, int cn) {
        const auto path = forced ? forced->find(cn) : ForcedPaths::const_iterator{};
        if (!forced || path == forced->end())
            return false;
        int at = cns[std::size_t(cn)].leaf;
        for (int g : path->second) {
            router.forcedGroup[std::size_t(at)] = g;
            at = layout.groups[std::size_t(g)].upper;
        }
        return true;
    };
    auto routeOne = [&](Router &router, const Target &t) {
        if (!t.computeNode) {
            router.routeTarget(t.index, layout.switches[std::size_t(t.index)].lid, kNoKey, 0, false, 0);
            return;
        }
        const FatTreeLayout::ComputeNode &node = cns[std::size_t(t.index)];
        const bool isForced = forcePath(router, t.index);
        router.routeTarget(node.leaf, node.lid, keyOf(t.index), m.weight[std::size_t(t.index)], t.counted, node.leafPort);
        if (isForced)
            std::fill(router.forcedGroup.begin(), router.forcedGroup.end(), -1);
    };
    auto routeSequentially = [&](Router &router) -> bool {
        for (const Target &t : targets) {
            routeOne(router, t);
            if (!forced && !run.tick())
                return false;
        }
        return true;
    };

    // Routing a LID changes nothing another LID's routing reads but the loads and marks of the
    // cables its own path goes up (Router::climb), unless parallel cables make the walk down count
    // too. So the climbs run first, in order, keeping the loads and marks where each share of the
    // LIDs starts; then the shares are routed side by side, each from its starting state, into
    // their own rows. Each share must end in the state the next one starts from (the check that
    // the walks changed nothing more); otherwise the LIDs are routed again one after another.
    // The tables are the sequential run's, entry for entry.
    const std::size_t shareCount = shareCountOf();
    const bool sideBySide = shareCount > 1 && !m.parallelCables && targets.size() * layout.switches.size() >= 4'000'000;
    auto routeAllRows = [&](Router &router) -> bool {
        if (!sideBySide)
            return routeSequentially(router);
        struct Start
        {
            std::size_t first = 0;
            std::vector<Load> loadDown;
            std::vector<std::uint32_t> markDown;
        };
        std::vector<Start> starts(shareCount);
        const std::size_t per = (targets.size() + shareCount - 1) / shareCount;
        for (std::size_t k = 0; k < shareCount; ++k)
            starts[k].first = std::min(targets.size(), k * per);
        std::size_t next = 0;
        for (std::size_t i = 0; i <= targets.size(); ++i) {
            while (next < shareCount && starts[next].first == i) {
                starts[next].loadDown = router.loadDown;
                starts[next].markDown = router.markDown;
                ++next;
            }
            if (i == targets.size() || !targets[i].counted)
                continue;
            const Target &t = targets[i];
            const bool isForced = forcePath(router, t.index);
            router.climb(cns[std::size_t(t.index)].leaf, keyOf(t.index), m.weight[std::size_t(t.index)]);
            if (isForced)
                std::fill(router.forcedGroup.begin(), router.forcedGroup.end(), -1);
        }
        std::atomic<int> routed{0};
        std::atomic<bool> stop{false};
        std::vector<char> consistent(shareCount, 1);
        auto routeShare = [&](std::size_t k, bool reportsProgress) {
            Router share(m, run.algorithm, run.options, &router);
            share.loadDown = starts[k].loadDown;
            share.markDown = starts[k].markDown;
            share.forcedGroup.assign(router.forcedGroup.size(), -1);
            const bool last = k + 1 == shareCount;
            const std::size_t end = last ? targets.size() : starts[k + 1].first;
            for (std::size_t i = starts[k].first; i < end && !stop.load(std::memory_order_relaxed); ++i) {
                routeOne(share, targets[i]);
                const int now = routed.fetch_add(1, std::memory_order_relaxed) + 1;
                if (reportsProgress && !forced && run.progress && now % 64 == 0 && !run.progress(now, run.total))
                    stop = true;
            }
            consistent[k] = share.loadDown == (last ? router.loadDown : starts[k + 1].loadDown)
                && share.markDown == (last ? router.markDown : starts[k + 1].markDown);
        };
        runOnThreads(shareCount, [&](std::size_t k) { routeShare(k, k == 0); });
        if (stop)
            return false;
        if (std::find(consistent.begin(), consistent.end(), 0) != consistent.end()) {
            std::fill(router.started, router.started + std::size_t(layout.maxLid) + 1, 0);
            Router again(m, run.algorithm, run.options, &router);
            again.forcedGroup.assign(router.forcedGroup.size(), -1);
            if (!routeSequentially(again))
                return false;
            router.loadDown = std::move(again.loadDown);
            router.markDown = std::move(again.markDown);
            router.conflicts = std::move(again.conflicts);
            return true;
        }
        if (forced)
            return true;
        run.done = int(targets.size()) - 1;
        return run.tick();
    };

    RouterPtr router(new Router(m, run.algorithm, run.options));
    if (forced)
        router->forcedGroup.assign(layout.switches.size(), -1);
    const bool finished = routeAllRows(*router);
    router->finishRows();
    if (!finished)
        return nullptr;
    return router;
}

LinkSharing linkSharing(const Run &run, const Router &router, bool untilPhyConflict)
{
    const Model &m = run.model;
    const FatTreeLayout &layout = m.layout;
    const std::vector<FatTreeLayout::ComputeNode> &cns = layout.computeNodes;
    // P(l) per directed switch link (§2.3): walk each partition's allowed flows towards each
    // member, stopping where the destination tree was already walked for that partition.
    const int realKeys = m.realKeyCount();
    // The members' walks are shared out among the cores in runs of one partition's members, each
    // core with its own P(l); the sets are merged at the end.
    struct LeafPresence
    {
        int leaf = -1;
        bool member = false, fullMember = false;
    };
    std::vector<std::vector<LeafPresence>> leavesOfKey(std::size_t(std::max(realKeys, 0)));
    struct WalkRun
    {
        int key = 0;
        std::size_t first = 0, end = 0;  // members of the key
    };
    std::vector<WalkRun> runs;
    std::size_t walkCost = 0;
    for (int k = 0; k < realKeys; ++k) {
        const Model::Key &key = m.keys[std::size_t(k)];
        std::map<int, LeafPresence> onLeaf;
        for (const auto &[cn, full] : key.members) {
            LeafPresence &slot = onLeaf[cns[std::size_t(cn)].leaf];
            slot.leaf = cns[std::size_t(cn)].leaf;
            slot.member = true;
            slot.fullMember = slot.fullMember || full;
        }
        if (onLeaf.size() < 2)
            continue;
        for (const auto &[leaf, presence] : onLeaf)
            leavesOfKey[std::size_t(k)].push_back(presence);
        constexpr std::size_t kRun = 512;
        for (std::size_t first = 0; first < key.members.size(); first += kRun)
            runs.push_back({k, first, std::min(key.members.size(), first + kRun)});
        walkCost += key.members.size() * onLeaf.size();
    }
    std::atomic<bool> conflictFound{false};
    if (untilPhyConflict)  // the partitions' runs interleaved, so that a conflict shows early
        std::stable_sort(runs.begin(), runs.end(), [](const WalkRun &a, const WalkRun &b) { return a.first < b.first; });
    const auto isPhy = [&m](int key) { return m.keys[std::size_t(key)].policy == IsolationPolicy::Physical; };
    // Per directed link, the partitions seen so far: a bit each where they fit in 64 (a link's
    // test and update then touch one word), else a sorted list.
    const bool asBits = realKeys <= 64;
    std::uint64_t phyBits = 0;
    if (asBits)
        for (int k = 0; k < realKeys; ++k)
            if (isPhy(k))
                phyBits |= std::uint64_t(1) << k;
    struct Seen
    {
        std::vector<std::uint64_t> bits;
        std::vector<std::vector<int>> lists;
    };
    auto walkRuns = [&](Seen &seen, std::atomic<std::size_t> &nextRun) {
        int lost = 0;
        std::vector<std::uint32_t> visited(layout.switches.size(), 0);
        std::uint32_t stamp = 0;
        for (std::size_t r = nextRun++; r < runs.size(); r = nextRun++) {
            if (conflictFound.load(std::memory_order_relaxed))
                break;
            const int k = runs[r].key;
            const std::uint64_t bit = asBits ? std::uint64_t(1) << k : 0;
            const std::vector<LeafPresence> &onLeaf = leavesOfKey[std::size_t(k)];
            for (std::size_t i = runs[r].first; i < runs[r].end; ++i) {
                const auto &[cn, full] = m.keys[std::size_t(k)].members[i];
                const FatTreeLayout::ComputeNode &dst = cns[std::size_t(cn)];
                ++stamp;
                visited[std::size_t(dst.leaf)] = stamp;
                for (const LeafPresence &present : onLeaf) {
                    if (present.leaf == dst.leaf || !(full ? present.member : present.fullMember))
                        continue;
                    int at = present.leaf;
                    for (std::size_t step = 0; visited[std::size_t(at)] != stamp; ++step) {
                        visited[std::size_t(at)] = stamp;
                        const std::uint8_t out = router.lftAt(at, dst.lid);
                        const int link = (out == kNoPath || out >= m.dirLinkOfPort[std::size_t(at)].size())
                            ? -1
                            : m.dirLinkOfPort[std::size_t(at)][out];
                        if (link < 0 || step > layout.switches.size()) {
                            ++lost;
                            break;
                        }
                        if (asBits) {
                            std::uint64_t &parts = seen.bits[std::size_t(link)];
                            if (!(parts & bit)) {
                                parts |= bit;
                                if (untilPhyConflict && (parts & (parts - 1)) && (parts & phyBits))
                                    conflictFound.store(true, std::memory_order_relaxed);
                            }
                        } else {
                            std::vector<int> &parts = seen.lists[std::size_t(link)];
                            if (std::find(parts.begin(), parts.end(), k) == parts.end()) {
                                parts.insert(std::upper_bound(parts.begin(), parts.end(), k), k);
                                if (untilPhyConflict && parts.size() >= 2 && std::any_of(parts.begin(), parts.end(), isPhy))
                                    conflictFound.store(true, std::memory_order_relaxed);
                            }
                        }
                        const Model::Cable &c = m.cables[std::size_t(link / 2)];
                        at = link % 2 == 0 ? c.upper : c.lower;
                    }
                }
            }
        }
        return lost;
    };
    const std::size_t links = m.cables.size() * 2;
    const std::size_t threads = walkCost < 200'000 || runs.size() < 2 ? 1 : std::min<std::size_t>(shareCountOf(), runs.size());
    std::vector<Seen> seen(threads);
    for (Seen &s : seen) {
        if (asBits)
            s.bits.assign(links, 0);
        else
            s.lists.assign(links, {});
    }
    std::vector<int> lost(threads, 0);
    std::atomic<std::size_t> nextRun{0};
    runOnThreads(threads, [&](std::size_t t) { lost[t] = walkRuns(seen[t], nextRun); });
    std::vector<std::vector<int>> partsOfLink;
    if (asBits) {
        for (std::size_t t = 1; t < threads; ++t)
            for (std::size_t l = 0; l < links; ++l)
                seen[0].bits[l] |= seen[t].bits[l];
        partsOfLink.resize(links);
        for (std::size_t l = 0; l < links; ++l) {
            std::uint64_t parts = seen[0].bits[l];
            if (!parts)
                continue;
            std::vector<int> &keys = partsOfLink[l];
            keys.reserve(std::size_t(__builtin_popcountll(parts)));
            for (; parts; parts &= parts - 1)
                keys.push_back(__builtin_ctzll(parts));
        }
    } else {
        for (std::size_t t = 1; t < threads; ++t) {
            for (std::size_t l = 0; l < links; ++l) {
                if (seen[t].lists[l].empty())
                    continue;
                std::vector<int> merged;
                std::set_union(seen[0].lists[l].begin(), seen[0].lists[l].end(), seen[t].lists[l].begin(),
                               seen[t].lists[l].end(), std::back_inserter(merged));
                seen[0].lists[l] = std::move(merged);
            }
        }
        partsOfLink = std::move(seen[0].lists);
    }
    LinkSharing sharing;
    sharing.partial = conflictFound.load();
    for (int n : lost)
        sharing.unreachable += n;
    sharing.partsOfLink = std::move(partsOfLink);
    return sharing;
}

namespace {

// The status line of a routing whose phy partitions `score` describes.
IsolationStatus isolationStatus(const Run &run, IsolationOutcome outcome, const IsolationScore &score, const QString &why = {})
{
    IsolationStatus status;
    status.outcome = outcome;
    status.phyShared = score.phyShared;
    status.phyConflicts = score.phyConflicts;
    switch (outcome) {
    case IsolationOutcome::NotAsked:
        break;
    case IsolationOutcome::Kept:
        status.text = QStringLiteral("%1: phy-isolation kept: no link carries a phy-isolated partition with another").arg(run.engine);
        break;
    case IsolationOutcome::ProvenImpossible:
        status.text = QStringLiteral("%1: phy-isolation proven impossible: every routing with one down path per destination "
                                     "shares at least %2; this one shares %3 link(s) between phy-isolated partitions and "
                                     "%4 between one and another")
                          .arg(run.engine, why)
                          .arg(score.phyShared)
                          .arg(score.phyConflicts);
        break;
    case IsolationOutcome::NotProven:
        status.text = QStringLiteral("%1: phy-isolation not proven impossible: %2 link(s) shared between phy-isolated "
                                     "partitions and %3 between one and another, and %4; fewer may exist")
                          .arg(run.engine)
                          .arg(score.phyShared)
                          .arg(score.phyConflicts)
                          .arg(why);
        break;
    }
    return status;
}

// Above this, the exact search's set-up alone takes seconds (a 3,456-host tree with two
// scattered tenants: 150 s); its branch and bound is run on what smaller trees need.
constexpr std::int64_t kSearchWorkLimit = 40'000'000;

// The warning of a routing along per-partition top switches that shares fewer links than the
// paper's per-leaf allocation.
QString perPartitionWarning(const Run &run, const IsolationScore &paper, bool atLeastPaper, const IsolationScore &kept,
                            bool notProven)
{
    const QString atLeast = atLeastPaper ? QStringLiteral("at least ") : QString();
    return QStringLiteral("%1: the per-leaf allocation left %2 link(s) shared by phy-isolated partitions "
                          "and %3 shared by one with another; top switches assigned per partition "
                          "instead: %4 and %5%6")
        .arg(run.engine)
        .arg(atLeast + QString::number(paper.phyShared))
        .arg(atLeast + QString::number(paper.phyConflicts))
        .arg(kept.phyShared)
        .arg(kept.phyConflicts)
        .arg(notProven ? QStringLiteral(" (search stopped at its budget; not proven minimal)") : QString());
}

}  // namespace

IsolationFinding isolationSearch(Run &run, const std::vector<Target> &targets, const LinkSharing &partialPaper,
                                 const Router *paperRows)
{
    const Model &m = run.model;
    IsolationFinding finding;
    if (run.algorithm != Algorithm::Extended)
        return finding;
    bool asked = false;
    for (int k = 0; k < m.realKeyCount(); ++k)
        asked = asked || (m.keys[std::size_t(k)].multiLeaf && m.keys[std::size_t(k)].policy == IsolationPolicy::Physical);
    if (!asked)
        return finding;
    IsolationScore paperScore = isolationScore(m, partialPaper.partsOfLink);
    if (paperScore.phyConflicts <= 0) {
        finding.status = isolationStatus(run, IsolationOutcome::Kept, paperScore);
        return finding;
    }
    using Clock = std::chrono::steady_clock;
    const Clock::time_point started = Clock::now();
    const double seconds = run.options.isolationSearchSeconds;
    // The paper's routing so far: about what routing the search's plan, and finishing after it,
    // take each; the search keeps both inside the budget.
    const double perRouting = std::chrono::duration<double>(started - run.started).count();
    SearchInput input = searchInput(m);
    input.problem.budget = run.options.isolationSearchBudget;
    input.problem.assumeSymmetry = run.options.assumeSymmetry;
    // Issue 42: first the construction (columns per phy partition), measured on its tables
    // against the lower bound; then the exact search where its set-up is small enough to finish
    // in the time budget (at scale the construction alone).
    const routing::IsolationBound bound = routing::isolationBound(input.problem);
    struct Tried
    {
        RouterPtr rows;
        LinkSharing sharing;
        IsolationScore score;
    };
    std::optional<Tried> built;
    const bool construct = run.options.isolationConstruction && run.options.isolationSearchBudget > 0;
    const routing::IsolationPlan construction = construct ? routing::constructIsolation(input.problem) : routing::IsolationPlan{};
    if (construction.ran) {
        const ForcedPaths paths = forcedPaths(input, construction);
        RouterPtr rows = routeRows(run, targets, &paths);
        if (rows) {
            LinkSharing sharing = linkSharing(run, *rows);
            const IsolationScore score = isolationScore(m, sharing.partsOfLink);
            built = Tried{std::move(rows), std::move(sharing), score};
        }
    }
    const auto meetsBound = [&bound](const IsolationScore &s) {
        return s.phyShared <= bound.phyShared && s.phyConflicts <= bound.phyConflicts;
    };
    const bool builtMeetsBound = built && meetsBound(built->score);
    // Where it is small enough, the exact search runs even when the construction meets the bound:
    // it also places the other partitions' destinations by the links they share (the routing
    // before the construction existed, kept on a tie), which the construction does not weigh.
    const std::int64_t work = routing::searchWork(input.problem);
    const bool searchAffordable = work <= kSearchWorkLimit;
    routing::IsolationPlan plan;
    std::optional<Tried> searched;
    bool modelHeld = false;
    if (searchAffordable) {
        const double spent = std::chrono::duration<double>(Clock::now() - run.started).count();
        input.problem.seconds = seconds > 0 ? std::max(0.001, 0.9 * seconds - spent - 2 * perRouting) : 0;
        plan = routing::searchIsolation(input.problem);
        if (plan.ran) {
            const ForcedPaths paths = forcedPaths(input, plan);
            RouterPtr rows = routeRows(run, targets, &paths);
            if (rows) {
                LinkSharing sharing = linkSharing(run, *rows);
                const IsolationScore score = isolationScore(m, sharing.partsOfLink);
                // The search's minimum holds for the tables only where its model saw every flow
                // of the routing it planned (the tables share what the plan counted).
                modelHeld = score.phyShared == plan.phyShared && score.phyConflicts == plan.phyConflicts;
                searched = Tried{std::move(rows), std::move(sharing), score};
            }
        }
    }
    // The exact search's routing on a tie with the construction (it was the routing before the
    // construction existed), the paper's on a tie with either.
    std::optional<Tried> *chosen = nullptr;
    if (searched && (!built || !(built->score < searched->score)))
        chosen = &searched;
    else if (built)
        chosen = &built;
    if (partialPaper.partial && paperRows && !(chosen && (*chosen)->score < paperScore)) {
        // The partial walk counted at most what the paper's routing shares: all of it is needed
        // to compare, and to keep it.
        finding.paperSharing = linkSharing(run, *paperRows);
        paperScore = isolationScore(m, finding.paperSharing->partsOfLink);
    }
    const bool better = chosen && (*chosen)->score < paperScore;
    const IsolationScore kept = better ? (*chosen)->score : paperScore;
    const bool searchProven = plan.ran && plan.proven && plan.exact && modelHeld && plan.leastPhyConflicts > 0;
    if (kept.phyConflicts == 0)
        finding.status = isolationStatus(run, IsolationOutcome::Kept, kept);
    else if (meetsBound(kept) && (bound.phyShared > 0 || bound.phyConflicts > 0))
        finding.status = isolationStatus(run, IsolationOutcome::ProvenImpossible, kept,
                                         bound.phyShared > 0
                                             ? QStringLiteral("%1 link(s) between phy-isolated partitions (more phy partitions on a "
                                                              "leaf than its cables)").arg(bound.phyShared)
                                             : QStringLiteral("%1 link(s) between a phy-isolated partition and another (more "
                                                              "partitions on a leaf than its cables)").arg(bound.phyConflicts));
    else if (searchProven)
        finding.status = isolationStatus(run, IsolationOutcome::ProvenImpossible, kept,
                                         plan.leastPhyShared > 0
                                             ? QStringLiteral("%1 link(s) between phy-isolated partitions").arg(plan.leastPhyShared)
                                             : QStringLiteral("%1 link(s) between a phy-isolated partition and another").arg(plan.leastPhyConflicts));
    else {
        QString why;
        if (construct && !construction.ran && !searchAffordable)
            why = QStringLiteral("the isolation search did not run (the tree is not of two or three levels); this is the "
                                 "per-leaf allocation");
        else if (!searchAffordable && !builtMeetsBound)
            why = QStringLiteral("the columns given per partition stay above the lower bound of %1 and %2 link(s), and the exact "
                                 "search is not run at this size (%3 steps to set up)")
                      .arg(bound.phyShared)
                      .arg(bound.phyConflicts)
                      .arg(work);
        else if (plan.outOfTime)
            why = QStringLiteral("not proven in time: the isolation search stopped at its time budget of %1 s (never more than "
                                 "the per-leaf allocation's)")
                      .arg(seconds);
        else if (!plan.ran)
            why = QStringLiteral("the isolation search did not run (more than %1 up paths from a leaf, or its budget of %2 "
                                 "nodes ran out before a first assignment)")
                      .arg(input.problem.maxCandidates)
                      .arg(input.problem.budget);
        else if (!plan.proven)
            why = QStringLiteral("the isolation search stopped at its budget of %1 nodes (never more than the per-leaf "
                                 "allocation's)")
                      .arg(input.problem.budget);
        else if (!plan.exact)
            why = QStringLiteral("some destination has no down path that every sender reaches on this degraded tree");
        else if (!modelHeld)
            why = QStringLiteral("the tables share more than the isolation search planned");
        else
            why = QStringLiteral("the other partitions' destinations were placed one at a time, not searched");
        finding.status = isolationStatus(run, IsolationOutcome::NotProven, kept, why);
    }
    if (!better)
        return finding;
    const bool fromSearch = chosen == &searched;
    // Where the paper's walks stopped at its first conflict, its counts are those found so far.
    QString warning = perPartitionWarning(run, paperScore, partialPaper.partial && !finding.paperSharing, kept,
                                          fromSearch && !plan.proven);
    finding.routing = IsolatedRouting{std::move((*chosen)->rows), std::move((*chosen)->sharing), std::move(warning)};
    return finding;
}

std::optional<IsolationFinding> isolationFirst(Run &run, const std::vector<Target> &targets)
{
    const Model &m = run.model;
    const PartitionAwareOptions &o = run.options;
    if (run.algorithm != Algorithm::Extended || !o.constructionFirst || !o.isolationConstruction || o.isolationSearchBudget <= 0)
        return std::nullopt;
    const int realKeys = m.realKeyCount();
    bool asked = false;
    for (int k = 0; k < realKeys; ++k)
        asked = asked || (m.keys[std::size_t(k)].multiLeaf && m.keys[std::size_t(k)].policy == IsolationPolicy::Physical);
    if (!asked)
        return std::nullopt;
    SearchInput input = searchInput(m);
    input.problem.budget = o.isolationSearchBudget;
    input.problem.assumeSymmetry = o.assumeSymmetry;
    // Where the exact search runs, it may place the other partitions' destinations otherwise
    // than the construction: isolationSearch compares them.
    if (routing::searchWork(input.problem) <= kSearchWorkLimit)
        return std::nullopt;

    // The paper's routing, one LID after another as routeRows' sequential run gives it (each
    // LID's row is whole once its target is routed), each LID's P(l) walked as linkSharing walks
    // it, up to the first link that carries a phy partition with another.
    const FatTreeLayout &layout = m.layout;
    const std::vector<FatTreeLayout::ComputeNode> &cns = layout.computeNodes;
    std::vector<std::vector<std::pair<int, bool>>> keysOfCn(cns.size());
    std::vector<std::vector<int>> leavesOfKey(std::size_t(std::max(realKeys, 0)));
    std::vector<std::vector<int>> fullLeavesOfKey(std::size_t(std::max(realKeys, 0)));
    for (int k = 0; k < realKeys; ++k) {
        std::set<int> leaves, fullLeaves;
        for (const auto &[cn, full] : m.keys[std::size_t(k)].members) {
            leaves.insert(cns[std::size_t(cn)].leaf);
            if (full)
                fullLeaves.insert(cns[std::size_t(cn)].leaf);
        }
        if (leaves.size() < 2)
            continue;
        leavesOfKey[std::size_t(k)].assign(leaves.begin(), leaves.end());
        fullLeavesOfKey[std::size_t(k)].assign(fullLeaves.begin(), fullLeaves.end());
        for (const auto &[cn, full] : m.keys[std::size_t(k)].members)
            keysOfCn[std::size_t(cn)].push_back({k, full});
    }
    const auto isPhy = [&m](int key) { return m.keys[std::size_t(key)].policy == IsolationPolicy::Physical; };
    std::vector<std::vector<int>> partsOfLink(m.cables.size() * 2);
    std::vector<std::uint32_t> visited(layout.switches.size(), 0);
    std::uint32_t stamp = 0;
    bool conflict = false;
    Router paper(m, run.algorithm, run.options);
    const std::size_t probed = std::max<std::size_t>(1, targets.size() / 16);
    for (std::size_t i = 0; i < targets.size() && i < probed && !conflict; ++i) {
        const Target &t = targets[i];
        if (!t.computeNode)
            break;
        const FatTreeLayout::ComputeNode &dst = cns[std::size_t(t.index)];
        paper.routeTarget(dst.leaf, dst.lid, m.routingKey[std::size_t(t.index)], m.weight[std::size_t(t.index)], t.counted,
                          dst.leafPort);
        for (const auto &[k, full] : keysOfCn[std::size_t(t.index)]) {
            ++stamp;
            visited[std::size_t(dst.leaf)] = stamp;
            for (int leaf : full ? leavesOfKey[std::size_t(k)] : fullLeavesOfKey[std::size_t(k)]) {
                int at = leaf;
                for (std::size_t step = 0; visited[std::size_t(at)] != stamp && step <= layout.switches.size(); ++step) {
                    visited[std::size_t(at)] = stamp;
                    const std::uint8_t out = paper.lftAt(at, dst.lid);
                    const int link = (out == kNoPath || out >= m.dirLinkOfPort[std::size_t(at)].size())
                        ? -1
                        : m.dirLinkOfPort[std::size_t(at)][out];
                    if (link < 0)
                        break;
                    std::vector<int> &parts = partsOfLink[std::size_t(link)];
                    if (std::find(parts.begin(), parts.end(), k) == parts.end()) {
                        parts.insert(std::upper_bound(parts.begin(), parts.end(), k), k);
                        conflict = conflict || (parts.size() >= 2 && std::any_of(parts.begin(), parts.end(), isPhy));
                    }
                    const Model::Cable &c = m.cables[std::size_t(link / 2)];
                    at = link % 2 == 0 ? c.upper : c.lower;
                }
            }
        }
    }
    if (!conflict)
        return std::nullopt;
    const IsolationScore paperSeen = isolationScore(m, partsOfLink);

    // The paper's routing shares a link with a phy partition: one that shares none is better.
    const routing::IsolationPlan construction = routing::constructIsolation(input.problem);
    if (!construction.ran)
        return std::nullopt;
    const ForcedPaths paths = forcedPaths(input, construction);
    RouterPtr rows = routeRows(run, targets, &paths);
    if (!rows)
        return std::nullopt;
    LinkSharing sharing = linkSharing(run, *rows);
    const IsolationScore score = isolationScore(m, sharing.partsOfLink);
    if (score.phyConflicts > 0)
        return std::nullopt;
    IsolationFinding finding;
    finding.status = isolationStatus(run, IsolationOutcome::Kept, score);
    QString warning = perPartitionWarning(run, paperSeen, true, score, false);
    finding.routing = IsolatedRouting{std::move(rows), std::move(sharing), std::move(warning)};
    return finding;
}

namespace {

Error strictFailure(const Run &run, const QString &why)
{
    return Error{{}, 0, QStringLiteral("%1: routing failed (strict policy mode): %2").arg(run.engine, why)};
}

}  // namespace

Result<VirtualLanes> assignLanes(const Run &run, const LinkSharing &sharing)
{
    // ASSIGN_VIRTUAL_LANES (§3.2.5 resolved, §3.5 for base and weighted).
    const Model &m = run.model;
    const std::vector<std::vector<int>> &partsOfLink = sharing.partsOfLink;
    const int realKeys = m.realKeyCount();
    const bool strict = m.strict;
    VirtualLanes lanes;
    std::vector<int> &vl = lanes.ofKey;
    vl.assign(std::size_t(m.keyCount()), 0);
    std::vector<char> phyViolated(std::size_t(m.keyCount()), 0);
    for (const std::vector<int> &parts : partsOfLink)
        if (parts.size() >= 2)
            for (int p : parts)
                phyViolated[std::size_t(p)] |= m.keys[std::size_t(p)].policy == IsolationPolicy::Physical;
    std::vector<int> byPriority(std::size_t(std::max(realKeys, 0)));
    std::iota(byPriority.begin(), byPriority.end(), 0);
    std::stable_sort(byPriority.begin(), byPriority.end(), [&m](int a, int b) {
        return strictness(m.keys[std::size_t(a)].policy) > strictness(m.keys[std::size_t(b)].policy);
    });
    int inUse = 1;
    const int maxVl = run.options.maxVirtualLanes;
    for (int p : byPriority) {
        const IsolationPolicy policy = m.keys[std::size_t(p)].policy;
        if (run.algorithm == Algorithm::Extended && policy != IsolationPolicy::VirtualLane
            && !(policy == IsolationPolicy::Physical && phyViolated[std::size_t(p)] && !strict))
            continue;
        int witness = -1, other = -1;
        for (std::size_t l = 0; l < partsOfLink.size() && witness < 0; ++l) {
            const std::vector<int> &parts = partsOfLink[l];
            if (std::find(parts.begin(), parts.end(), p) == parts.end())
                continue;
            for (int q : parts)
                if (q != p && vl[std::size_t(q)] == 0) {
                    witness = int(l);
                    other = q;
                    break;
                }
        }
        if (witness < 0)
            continue;
        if (maxVl < 2) {
            const QString why = QStringLiteral("partition %1 needs a VL of its own (it meets %2 on %3) but only one data VL is available")
                                    .arg(m.keyName(p), m.keyName(other), m.linkName(witness));
            if (strict)
                return strictFailure(run, why);
            lanes.warnings << QStringLiteral("%1: %2").arg(run.engine, why);
            continue;
        }
        if (inUse == maxVl) {
            if (strict)
                return strictFailure(run, QStringLiteral("VLs exhausted: partition %1 needs a VL of its own (it meets %2 on %3) and all %4 data VLs are in use")
                                              .arg(m.keyName(p), m.keyName(other), m.linkName(witness)).arg(maxVl));
            inUse = 1;
            lanes.warnings << QStringLiteral("%1: VLs exhausted; VL1 is used again, for partition %2").arg(run.engine, m.keyName(p));
        }
        ++inUse;
        vl[std::size_t(p)] = inUse - 1;
    }
    return lanes;
}

Result<PolicyCheck> checkPolicies(const Run &run, const Router &router, const LinkSharing &sharing, const VirtualLanes &lanes)
{
    const Model &m = run.model;
    const FatTreeLayout &layout = m.layout;
    const std::vector<std::vector<int>> &partsOfLink = sharing.partsOfLink;
    const std::vector<int> &vl = lanes.ofKey;
    const QString &engine = run.engine;
    PolicyCheck check;
    PartitionRoutingReport &report = check.report;
    QStringList &warnings = check.warnings;
    for (const std::vector<int> &parts : partsOfLink)
        report.sharedLinks += parts.size() >= 2;

    // VALIDATE_POLICIES (§3.2.6).
    for (int p = 0; p < m.realKeyCount(); ++p) {
        const Model::Key &key = m.keys[std::size_t(p)];
        if (key.policy == IsolationPolicy::Default)
            continue;
        for (std::size_t l = 0; l < partsOfLink.size(); ++l) {
            const std::vector<int> &parts = partsOfLink[l];
            if (parts.size() < 2 || std::find(parts.begin(), parts.end(), p) == parts.end())
                continue;
            PolicyViolation v;
            v.pkey = key.pkey;
            v.link = m.linkName(int(l));
            for (int q : parts) {
                if (q == p)
                    continue;
                if (key.policy == IsolationPolicy::Physical || vl[std::size_t(q)] == vl[std::size_t(p)])
                    v.others.push_back(m.keys[std::size_t(q)].pkey);
            }
            if (v.others.empty())
                continue;
            v.reason = key.policy == IsolationPolicy::Physical ? QStringLiteral("phy-isolation: the link is shared")
                                                               : QStringLiteral("vlane-isolation: shared on the same VL");
            report.violations.push_back(v);
        }
    }
    auto describe = [&m](const PolicyViolation &v) {
        QStringList others;
        for (std::uint16_t q : v.others)
            for (int k = 0; k < m.realKeyCount(); ++k)
                if (m.keys[std::size_t(k)].pkey == q)
                    others << m.keyName(k);
        int self = 0;
        for (int k = 0; k < m.realKeyCount(); ++k)
            if (m.keys[std::size_t(k)].pkey == v.pkey)
                self = k;
        return QStringLiteral("partition %1 (%2) meets %3 on link %4")
            .arg(m.keyName(self), v.reason, others.join(QStringLiteral(", ")), v.link);
    };
    if (!report.violations.empty()) {
        if (m.strict) {
            QStringList lines;
            for (std::size_t i = 0; i < report.violations.size() && i < 10; ++i)
                lines << describe(report.violations[i]);
            if (report.violations.size() > 10)
                lines << QStringLiteral("and %1 more").arg(report.violations.size() - 10);
            return strictFailure(run, QStringLiteral("%1 policy violation(s): %2").arg(report.violations.size()).arg(lines.join(QStringLiteral("; "))));
        }
        for (const PolicyViolation &v : report.violations)
            warnings << QStringLiteral("%1: %2").arg(engine, describe(v));
    }
    for (std::size_t s = 0; s < layout.switches.size(); ++s) {
        for (int k = 0; k < m.keyCount(); ++k) {
            const std::uint32_t count = router.conflicts[s * std::size_t(m.keyCount()) + std::size_t(k)];
            if (count == 0)
                continue;
            report.selectionConflicts += int(count);
            const FatTreeLayout::Switch &sw = layout.switches[s];
            warnings << QStringLiteral("%1: note: at %2, every up-link leads to a switch marked by a stricter partition; "
                                       "%3 route(s) of partition %4 took the least loaded one anyway")
                            .arg(engine, sw.description.isEmpty() ? guidText(sw.guid) : sw.description)
                            .arg(count).arg(m.keyName(k));
        }
    }
    if (run.algorithm != Algorithm::Extended && report.sharedLinks > 0)
        warnings << QStringLiteral("%1: %2 directed switch link(s) carry flows of more than one partition").arg(engine).arg(report.sharedLinks);
    return check;
}

Routing finishRouting(const Run &run, Router &router, const VirtualLanes &lanes, QStringList warnings,
                      PartitionRoutingReport &report)
{
    const Model &m = run.model;
    const FatTreeLayout &layout = m.layout;
    Routing result;
    result.engine = run.engine;
    for (int k = 0; k < m.realKeyCount(); ++k) {
        result.serviceLevels[m.keys[std::size_t(k)].pkey] = lanes.ofKey[std::size_t(k)];
        report.virtualLanes[m.keys[std::size_t(k)].pkey] = lanes.ofKey[std::size_t(k)];
    }
    for (std::size_t cn = 0; cn < layout.computeNodes.size(); ++cn)
        report.routingPKey[layout.computeNodes[cn].portGuid] = m.keys[std::size_t(m.routingKey[cn])].pkey;
    result.tables = routing::tablesFromRows(layout, router.rows, std::size_t(layout.maxLid) + 1);
    result.reachedFromEverySwitch = std::move(router.ownReached);
    result.warnings = std::move(warnings);
    return result;
}

}  // namespace pftree

Result<Routing> PartitionAwareFatTreeEngine::route(const RoutingOptions &options)
{
    const QString engine = name();
    if (!m_model)
        return Error{{}, 0, QStringLiteral("%1: route() without a successful prepare()").arg(engine)};
    pftree::Run run(*this, options);
    if (run.progress && !run.progress(0, run.total))
        return routing::cancelledError(engine);

    const std::vector<pftree::Target> targets = pftree::routingTargets(run);
    QStringList warnings = m_model->prepareWarnings;
    pftree::RouterPtr rows;
    pftree::LinkSharing sharing;
    pftree::IsolationFinding isolation;
    if (std::optional<pftree::IsolationFinding> first = pftree::isolationFirst(run, targets)) {
        // The paper's routing was beaten before it was finished: the rest of its progress at once.
        isolation = std::move(*first);
        run.done = std::max(run.done, int(targets.size()) - 1);
        if (!run.tick())
            return routing::cancelledError(engine);
    } else {
        rows = pftree::routeRows(run, targets);
        if (!rows)
            return routing::cancelledError(engine);
        // pftree with a phy partition: the paper's P(l) only up to its first phy conflict, which is
        // all the isolation search needs to start (it walks the rest where it keeps the paper's).
        sharing = pftree::linkSharing(run, *rows, m_algorithm == Algorithm::Extended);
        isolation = pftree::isolationSearch(run, targets, sharing, rows.get());
    }
    if (isolation.routing) {
        warnings << isolation.routing->warning;
        rows = std::move(isolation.routing->rows);
        sharing = std::move(isolation.routing->sharing);
    } else if (isolation.paperSharing) {
        sharing = std::move(*isolation.paperSharing);
    } else if (sharing.partial) {
        sharing = pftree::linkSharing(run, *rows);
    }
    // Shared links deserve a look: whether fewer were possible is said with them.
    if (isolation.status.outcome == IsolationOutcome::ProvenImpossible || isolation.status.outcome == IsolationOutcome::NotProven)
        warnings << isolation.status.text;
    if (sharing.unreachable > 0)
        warnings << QStringLiteral("%1: %2 intra-partition walk(s) found no route; the tree is too degraded for some pairs")
                        .arg(engine).arg(sharing.unreachable);
    Result<pftree::VirtualLanes> lanes = pftree::assignLanes(run, sharing);
    if (!lanes)
        return lanes.error();
    warnings << lanes->warnings;
    Result<pftree::PolicyCheck> checked = pftree::checkPolicies(run, *rows, sharing, *lanes);
    if (!checked)
        return checked.error();
    warnings << checked->warnings;
    if (!run.tick())
        return routing::cancelledError(engine);

    PartitionRoutingReport report = std::move(checked->report);
    report.isolation = isolation.status;
    Routing result = pftree::finishRouting(run, *rows, *lanes, std::move(warnings), report);
    result.isolation = report.isolation.text;
    m_report = std::move(report);
    return result;
}

}  // namespace weft
