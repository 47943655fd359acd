#include "VSwitchFatTree.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <numeric>

#include "FatTreeLayout.h"
#include "SwitchGraph.h"

#include <unordered_map>

namespace weft {

namespace {

constexpr std::uint8_t kUnset = 0xFF;

Error refuse(const QString &why)
{
    return Error{{}, 0, QStringLiteral("vswitch-ftree: %1").arg(why)};
}

// One destination LID at a time through the tree, per §2.3, with OpenSM ftree's orderings
// (osm_ucast_ftree.c, as FatTreeEngine reproduces it), which the spec's pseudocode leaves
// open and on which its "identical to ftree" claim (T16) rests:
//  - a switch's parents are tried in order of (downward load, then the parent's order key),
//    the first on the main path and all of them, in that order, for secondary entries;
//  - its children are visited in order of (upward load, then the child's order key);
//  - upward load is counted on every path that reaches a leaf, secondary ones included.
// A group is the set of parallel cables to one neighbour; within it the least-loaded cable
// (first in port order) is used. Loads are scaled integers.
class VSwitchRouter
{
public:
    VSwitchRouter(const PhysicalTree &tree, Lid maxLid, const std::vector<std::vector<int>> &neighbourOrder)
        : m_tree(tree),
          m_lft(tree.switches.size(), std::vector<std::uint8_t>(std::size_t(maxLid) + 1, kUnset)),
          m_hops(tree.switches.size(), kUnset)
    {
        loadDown.assign(std::size_t(tree.cableCount), 0);
        loadUp.assign(std::size_t(tree.cableCount), 0);
        m_groups.resize(tree.switches.size());
        for (std::size_t s = 0; s < tree.switches.size(); ++s) {
            m_groups[s].up = groupsOf(tree.switches[s].up, neighbourOrder[s]);
            m_groups[s].down = groupsOf(tree.switches[s].down, neighbourOrder[s]);
        }
    }

    void routeEndLid(int leaf, std::uint8_t leafPort, Lid lid, std::int64_t weight)
    {
        m_lft[std::size_t(leaf)][lid] = leafPort;
        setHops(leaf, 1);
        downgoingByGoingUp(leaf, -1, lid, weight, true, 1);
        resetHops();
    }

    std::vector<std::vector<std::uint8_t>> &tables() { return m_lft; }

    std::vector<std::int64_t> loadDown;  // per cable
    std::vector<std::int64_t> loadUp;

private:
    struct Group
    {
        int remote = -1;
        std::vector<std::size_t> cables;  // into the switch's up or down list, port order
        int rank = 0;                     // the neighbour's place in ftree's order
    };
    struct Groups
    {
        std::vector<Group> up, down;
    };

    static std::vector<Group> groupsOf(const std::vector<PhysicalTree::Cable> &cables, const std::vector<int> &order)
    {
        std::vector<Group> out;
        for (std::size_t i = 0; i < cables.size(); ++i) {
            auto same = std::find_if(out.begin(), out.end(), [&](const Group &g) { return g.remote == cables[i].remote; });
            if (same != out.end()) {
                same->cables.push_back(i);
                continue;
            }
            const auto at = std::find(order.begin(), order.end(), cables[i].remote);
            out.push_back({cables[i].remote, {i}, int(at - order.begin())});
        }
        return out;
    }

    std::int64_t groupLoad(const std::vector<PhysicalTree::Cable> &cables, const Group &g,
                           const std::vector<std::int64_t> &load) const
    {
        std::int64_t sum = 0;
        for (std::size_t i : g.cables)
            sum += load[std::size_t(cables[i].id)];
        return sum;
    }

    // The first cable of the group with the least load.
    static const PhysicalTree::Cable &leastLoaded(const std::vector<PhysicalTree::Cable> &cables, const Group &g,
                                                  const std::vector<std::int64_t> &load)
    {
        std::size_t best = g.cables.front();
        for (std::size_t i : g.cables) {
            if (load[std::size_t(cables[i].id)] < load[std::size_t(cables[best].id)])
                best = i;
        }
        return cables[best];
    }

    // Group indices by (load, order key of the neighbour): OpenSM's compareLoadDown /
    // compareLoadUp. Its remote-switch step in compareLoadDown never decides (the counters it
    // reads are never raised), and the order is total, so OpenSM's persistent bubble-sorted
    // arrays hold exactly this order whenever they are read.
    std::vector<std::size_t> byLoad(const std::vector<PhysicalTree::Cable> &cables, const std::vector<Group> &groups,
                                    const std::vector<std::int64_t> &load) const
    {
        std::vector<std::pair<std::int64_t, int>> keys(groups.size());
        std::vector<std::size_t> order(groups.size());
        for (std::size_t g = 0; g < groups.size(); ++g) {
            keys[g] = {groupLoad(cables, groups[g], load), groups[g].rank};
            order[g] = g;
        }
        std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
        return order;
    }

    void setHops(int s, std::uint8_t h)
    {
        if (m_hops[std::size_t(s)] == kUnset)
            m_touched.push_back(s);
        m_hops[std::size_t(s)] = h;
    }
    void resetHops()
    {
        for (int s : m_touched)
            m_hops[std::size_t(s)] = kUnset;
        m_touched.clear();
    }
    bool hasShorter(int s, int hops) const
    {
        return m_hops[std::size_t(s)] != kUnset && hops >= m_hops[std::size_t(s)];
    }

    // Returns whether a leaf was reached below `s`, which is when OpenSM counts upward load.
    bool upgoingByGoingDown(int s, int cameFrom, Lid lid, std::int64_t w, int hops)
    {
        const PhysicalTree::Switch &sw = m_tree.switches[std::size_t(s)];
        bool reachedLeaf = !sw.hypervisors.empty();
        const std::vector<Group> &groups = m_groups[std::size_t(s)].down;
        for (std::size_t g : byLoad(sw.down, groups, loadUp)) {
            const int child = groups[g].remote;
            if (child == cameFrom || hasShorter(child, hops + 1))
                continue;
            const PhysicalTree::Cable &c = leastLoaded(sw.down, groups[g], loadUp);
            m_lft[std::size_t(child)][lid] = c.remotePort;
            setHops(child, std::uint8_t(hops + 1));
            if (upgoingByGoingDown(child, -1, lid, w, hops + 1)) {
                reachedLeaf = true;
                loadUp[std::size_t(c.id)] += w;
            }
        }
        return reachedLeaf;
    }

    void downgoingByGoingUp(int s, int prev, Lid lid, std::int64_t w, bool main, int hops)
    {
        upgoingByGoingDown(s, prev, lid, w, hops);
        const PhysicalTree::Switch &sw = m_tree.switches[std::size_t(s)];
        if (sw.up.empty())
            return;  // a root (E2)
        const std::vector<Group> &groups = m_groups[std::size_t(s)].up;
        const std::vector<std::size_t> order = byLoad(sw.up, groups, loadDown);
        std::size_t first = 0;
        if (main) {
            const Group &g = groups[order.front()];
            const PhysicalTree::Cable &c = leastLoaded(sw.up, g, loadDown);
            loadDown[std::size_t(c.id)] += w;
            if (!hasShorter(c.remote, hops + 1)) {
                m_lft[std::size_t(c.remote)][lid] = c.remotePort;
                setHops(c.remote, std::uint8_t(hops + 1));
            }
            downgoingByGoingUp(c.remote, s, lid, w, true, hops + 1);
            first = 1;
        }
        for (std::size_t k = first; k < order.size(); ++k) {
            const Group &g = groups[order[k]];
            if (hasShorter(g.remote, hops + 1))
                continue;
            const PhysicalTree::Cable &c = leastLoaded(sw.up, g, loadDown);
            m_lft[std::size_t(c.remote)][lid] = c.remotePort;
            setHops(c.remote, std::uint8_t(hops + 1));
            downgoingByGoingUp(c.remote, s, lid, w, false, hops + 1);
        }
    }

    const PhysicalTree &m_tree;
    std::vector<Groups> m_groups;
    std::vector<std::vector<std::uint8_t>> m_lft;
    std::vector<std::uint8_t> m_hops;
    std::vector<int> m_touched;
};

// The orders OpenSM's ftree breaks ties by, for the physical tree as ftree would see it with
// each hypervisor a plain host on its leaf port: the leaves, and every switch's neighbours,
// by ftree tuple. Taken from FatTreeEngine's own indexing (analyseFatTree) on such a stand-in
// fabric, so that both engines agree on what the tree is.
struct FtreeOrder
{
    std::vector<int> leaves;                       // dense switch indices
    std::vector<std::vector<int>> neighbours;      // per switch: dense indices, up then down
};

FtreeOrder ftreeOrder(const Fabric &fabric, const VirtualisedFabric &virt, const PhysicalTree &tree)
{
    // Without a usable analysis (a tree ftree would not index): node order everywhere.
    FtreeOrder fallback;
    fallback.leaves = tree.leaves;
    fallback.neighbours.resize(tree.switches.size());
    for (std::size_t s = 0; s < tree.switches.size(); ++s) {
        for (const std::vector<PhysicalTree::Cable> *list : {&tree.switches[s].up, &tree.switches[s].down}) {
            for (const PhysicalTree::Cable &c : *list)
                fallback.neighbours[s].push_back(c.remote);
        }
        std::sort(fallback.neighbours[s].begin(), fallback.neighbours[s].end());
    }

    FabricBuilder builder;
    std::vector<NodeIndex> standIn(tree.switches.size(), kNoIndex);
    for (std::size_t s = 0; s < tree.switches.size(); ++s) {
        const Node &node = fabric.node(tree.switches[s].node);
        FabricBuilder::NodeSpec spec;
        spec.type = NodeType::Switch;
        spec.guid = node.guid;
        spec.portCount = node.portCount;
        spec.name = node.name;
        spec.description = node.description;
        if (!builder.addNode(spec, &standIn[s]).isEmpty() || !builder.setPortLid(standIn[s], 0, tree.switches[s].lid, 0).isEmpty())
            return fallback;
    }
    for (std::size_t s = 0; s < tree.switches.size(); ++s) {
        for (const PhysicalTree::Cable &c : tree.switches[s].down) {
            if (!builder.connect(standIn[s], c.port, standIn[std::size_t(c.remote)], c.remotePort).isEmpty())
                return fallback;
        }
    }
    for (const Hypervisor &h : virt.hypervisors) {
        FabricBuilder::NodeSpec spec;
        spec.type = NodeType::ChannelAdapter;
        spec.guid = h.vSwitchGuid;
        spec.portCount = 1;
        spec.name = h.name;
        NodeIndex host = kNoIndex;
        if (!builder.addNode(spec, &host).isEmpty() || !builder.setPortGuid(host, 1, h.vSwitchGuid).isEmpty()
            || !builder.setPortLid(host, 1, h.pfLid, 0).isEmpty()
            || !builder.connect(host, 1, standIn[std::size_t(tree.denseOf(h.leaf))], h.leafPort).isEmpty())
            return fallback;
    }
    Result<Fabric> plain = std::move(builder).build();
    if (!plain)
        return fallback;
    const Result<routing::FatTreeLayout> layout = routing::analyseFatTree(*plain, false, QStringLiteral("vswitch-ftree"));
    if (!layout)
        return fallback;

    std::unordered_map<Guid, int> denseOfGuid;
    for (std::size_t s = 0; s < tree.switches.size(); ++s)
        denseOfGuid.emplace(tree.switches[s].guid, int(s));
    auto dense = [&](int layoutSwitch) { return denseOfGuid.at(layout->switches[std::size_t(layoutSwitch)].guid); };
    FtreeOrder order;
    order.neighbours.resize(tree.switches.size());
    for (std::size_t i = 0; i < layout->switches.size(); ++i) {
        std::vector<int> &list = order.neighbours[std::size_t(dense(int(i)))];
        for (int g : layout->switches[i].up)
            list.push_back(dense(layout->groups[std::size_t(g)].upper));
        for (int g : layout->switches[i].down)
            list.push_back(dense(layout->groups[std::size_t(g)].lower));
    }
    for (int leaf : layout->leaves) {
        const int s = dense(leaf);
        if (!tree.switches[std::size_t(s)].hypervisors.empty())
            order.leaves.push_back(s);
    }
    if (order.leaves.size() != tree.leaves.size())
        return fallback;
    return order;
}

}  // namespace

Result<PhysicalTree> buildPhysicalTree(const Fabric &fabric, const VirtualisedFabric &virt)
{
    PhysicalTree tree;
    tree.denseOfNode.assign(fabric.nodes().size(), -1);
    for (NodeIndex n : virt.physicalSwitches) {
        tree.denseOfNode[std::size_t(n)] = int(tree.switches.size());
        PhysicalTree::Switch s;
        s.node = n;
        s.guid = fabric.node(n).guid;
        s.lid = fabric.nodeLid(n);
        tree.switches.push_back(s);
    }
    if (tree.switches.empty())
        return refuse(QStringLiteral("the fabric has no physical switches"));
    for (std::size_t h = 0; h < virt.hypervisors.size(); ++h) {
        const int leaf = tree.denseOf(virt.hypervisors[h].leaf);
        if (leaf < 0)
            return refuse(QStringLiteral("hypervisor %1 is not cabled to a physical switch").arg(virt.hypervisors[h].name));
        tree.switches[std::size_t(leaf)].hypervisors.push_back(int(h));
    }
    // Height above the leaves, breadth first; the highest are the roots.
    std::vector<int> height(tree.switches.size(), -1);
    std::deque<int> queue;
    for (int s = 0; s < int(tree.switches.size()); ++s) {
        if (!tree.switches[std::size_t(s)].hypervisors.empty()) {
            height[std::size_t(s)] = 0;
            queue.push_back(s);
            tree.leaves.push_back(s);
        }
    }
    auto neighbours = [&](int s, auto &&visit) {
        const Node &node = fabric.node(tree.switches[std::size_t(s)].node);
        for (int p = 1; p <= node.portCount; ++p) {
            const Port &port = fabric.port(node.firstPort + p);
            if (port.remote == kNoIndex)
                continue;
            const Port &remote = fabric.port(port.remote);
            const int r = tree.denseOf(remote.node);
            if (r >= 0)
                visit(std::uint8_t(p), r, remote.number);
        }
    };
    while (!queue.empty()) {
        const int s = queue.front();
        queue.pop_front();
        neighbours(s, [&](std::uint8_t, int r, std::uint8_t) {
            if (height[std::size_t(r)] < 0) {
                height[std::size_t(r)] = height[std::size_t(s)] + 1;
                queue.push_back(r);
            }
        });
    }
    int top = 0;
    for (std::size_t s = 0; s < height.size(); ++s) {
        if (height[s] < 0)
            return refuse(QStringLiteral("switch %1 is not connected to the tree").arg(fabric.node(tree.switches[s].node).description));
        top = std::max(top, height[s]);
    }
    tree.leafLevel = top;
    tree.regular = true;
    for (int s = 0; s < int(tree.switches.size()); ++s) {
        PhysicalTree::Switch &sw = tree.switches[std::size_t(s)];
        sw.level = top - height[std::size_t(s)];
        neighbours(s, [&](std::uint8_t p, int r, std::uint8_t rp) {
            const int diff = height[std::size_t(r)] - height[std::size_t(s)];
            if (diff == 1)
                sw.up.push_back({p, r, rp, -1});
            else if (diff == -1)
                sw.down.push_back({p, r, rp, -1});
            else if (tree.regular) {
                tree.regular = false;
                tree.irregularity = QStringLiteral("switches %1 and %2 are cabled within one level")
                                        .arg(fabric.node(sw.node).description, fabric.node(tree.switches[std::size_t(r)].node).description);
            }
        });
        if (sw.up.empty() && sw.level != 0 && tree.regular) {
            tree.regular = false;
            tree.irregularity = QStringLiteral("switch %1 at level %2 has no parent").arg(fabric.node(sw.node).description).arg(sw.level);
        }
        if (!sw.hypervisors.empty() && !sw.down.empty() && tree.regular) {
            tree.regular = false;
            tree.irregularity = QStringLiteral("leaf %1 also has switches below it").arg(fabric.node(sw.node).description);
        }
    }
    // Cable ids, numbered from the lower end; the upper end learns the same id.
    for (PhysicalTree::Switch &sw : tree.switches) {
        for (PhysicalTree::Cable &c : sw.up)
            c.id = tree.cableCount++;
    }
    for (int s = 0; s < int(tree.switches.size()); ++s) {
        for (PhysicalTree::Cable &c : tree.switches[std::size_t(s)].down) {
            for (const PhysicalTree::Cable &u : tree.switches[std::size_t(c.remote)].up) {
                if (u.remote == s && u.port == c.remotePort)
                    c.id = u.id;
            }
        }
    }
    if (tree.leafLevel == 0 && tree.switches.size() > 1)
        return refuse(QStringLiteral("every physical switch holds hypervisors; not a fat-tree"));
    return tree;
}

Result<VSwitchRouting> routeVSwitchFatTree(const Fabric &fabric, const VirtualisedFabric &virt, const PhysicalTree &tree,
                                           const VSwitchRoutingOptions &options)
{
    const Lid maxLid = fabric.maxLid();
    for (const auto &[guid, w] : options.hypervisorWeights) {
        if (!std::isfinite(w) || w < 0 || w > 1e6)
            return refuse(QStringLiteral("the weight of vSwitch %1 is %2; weights must be finite, 0 to 1e6").arg(guidText(guid)).arg(w));
        if (virt.findHypervisor(guidText(guid)) < 0)
            return refuse(QStringLiteral("%1 is not the GUID of a vSwitch of this fabric").arg(guidText(guid)));
    }
    // Exact weights: in units of 1/scale of a vSwitch, the scale a multiple of every VM count,
    // so that the default 1/num_vms is an integer (E7); given vSwitch weights are quantised to
    // 1/1024 of that.
    std::int64_t scale = options.hypervisorWeights.empty() ? 1 : 1024;
    for (const Hypervisor &h : virt.hypervisors) {
        const int vms = h.runningVms();
        if (vms > 0)
            scale = std::lcm(scale, std::int64_t(vms));
    }
    const std::map<Guid, double> vmWeight = vmWeights(fabric, virt, options.hypervisorWeights);
    const FtreeOrder ftree = ftreeOrder(fabric, virt, tree);
    VSwitchRouter router(tree, maxLid, ftree.neighbours);
    VSwitchRouting out;

    // Per leaf, its vSwitches by ascending VM count (stable: leaf port order).
    std::vector<std::vector<int>> order(ftree.leaves.size());
    for (std::size_t i = 0; i < ftree.leaves.size(); ++i) {
        order[i] = tree.switches[std::size_t(ftree.leaves[i])].hypervisors;
        std::stable_sort(order[i].begin(), order[i].end(), [&](int a, int b) {
            return virt.hypervisors[std::size_t(a)].runningVms() < virt.hypervisors[std::size_t(b)].runningVms();
        });
    }
    for (std::size_t i = 0; i < ftree.leaves.size(); ++i) {
        for (int hi : order[i]) {
            const Hypervisor &h = virt.hypervisors[std::size_t(hi)];
            const int vms = h.runningVms();
            if (vms == 0)
                continue;
            out.vSwitchOrder.push_back(hi);
            for (const VirtualFunction &vf : h.vfs) {
                if (vf.lid != 0)
                    router.routeEndLid(ftree.leaves[i], h.leafPort, vf.lid,
                                       std::llround(vmWeight.at(fabric.port(fabric.portOf(vf.node, 1)).guid) * double(scale)));
            }
        }
    }
    auto toUnits = [scale](const std::vector<std::int64_t> &v) {
        std::vector<double> d(v.size());
        for (std::size_t i = 0; i < v.size(); ++i)
            d[i] = double(v[i]) / double(scale);
        return d;
    };
    out.loadDownBeforePfPass = toUnits(router.loadDown);
    out.loadUpBeforePfPass = toUnits(router.loadUp);
    for (std::size_t i = 0; i < ftree.leaves.size(); ++i) {
        for (int hi : order[i]) {
            const Hypervisor &h = virt.hypervisors[std::size_t(hi)];
            router.routeEndLid(ftree.leaves[i], h.leafPort, h.pfLid, scale * options.pfWeight);
        }
    }
    out.loadDown = toUnits(router.loadDown);
    out.loadUp = toUnits(router.loadUp);

    std::vector<std::vector<std::uint8_t>> &lft = router.tables();
    for (const Hypervisor &h : virt.hypervisors) {
        if (h.vSwitchLid == 0 || h.vSwitchLid == h.pfLid)
            continue;
        for (std::vector<std::uint8_t> &t : lft)
            t[h.vSwitchLid] = t[h.pfLid];
    }
    // Switch LIDs: breadth-first from each target over the physical switches.
    std::vector<int> dist(tree.switches.size());
    std::deque<int> queue;
    for (int target = 0; target < int(tree.switches.size()); ++target) {
        const Lid lid = tree.switches[std::size_t(target)].lid;
        if (lid == 0)
            continue;
        std::fill(dist.begin(), dist.end(), -1);
        dist[std::size_t(target)] = 0;
        lft[std::size_t(target)][lid] = 0;
        queue.push_back(target);
        while (!queue.empty()) {
            const int s = queue.front();
            queue.pop_front();
            const PhysicalTree::Switch &sw = tree.switches[std::size_t(s)];
            for (const std::vector<PhysicalTree::Cable> *list : {&sw.up, &sw.down}) {
                for (const PhysicalTree::Cable &c : *list) {
                    if (dist[std::size_t(c.remote)] >= 0)
                        continue;
                    dist[std::size_t(c.remote)] = dist[std::size_t(s)] + 1;
                    queue.push_back(c.remote);
                }
            }
        }
        for (int s = 0; s < int(tree.switches.size()); ++s) {
            if (s == target || dist[std::size_t(s)] < 0)
                continue;
            std::uint8_t best = kUnset;
            const PhysicalTree::Switch &sw = tree.switches[std::size_t(s)];
            for (const std::vector<PhysicalTree::Cable> *list : {&sw.up, &sw.down}) {
                for (const PhysicalTree::Cable &c : *list) {
                    if (dist[std::size_t(c.remote)] == dist[std::size_t(s)] - 1 && c.port < best)
                        best = c.port;
                }
            }
            lft[std::size_t(s)][lid] = best;
        }
    }

    std::vector<Lid> assigned;
    for (const Port &port : fabric.ports()) {
        if (port.lid == 0 || !port.present)
            continue;
        for (int k = 0; k < (1 << port.lmc); ++k)
            assigned.push_back(Lid(port.lid + k));
    }
    Routing routing;
    routing.engine = QStringLiteral("vswitch-ftree");
    ForwardingTables tables;
    tables.reserve(fabric.switches().size());
    for (NodeIndex n : fabric.switches()) {
        const Node &node = fabric.node(n);
        const int dense = tree.denseOf(n);
        const int hi = virt.hypervisorOfNode[std::size_t(n)];
        if (dense < 0 && (hi < 0 || !options.vSwitchTables))
            continue;
        const int i = tables.addSwitch(node.guid, fabric.nodeLid(n), node.description);
        LinearForwardingTable &t = tables.lft(std::size_t(i));
        t.reserve(maxLid);
        if (dense >= 0) {
            const std::vector<std::uint8_t> &raw = lft[std::size_t(dense)];
            for (std::size_t lid = 1; lid < raw.size(); ++lid) {
                if (raw[lid] != kUnset)
                    t.setPort(Lid(lid), raw[lid]);
            }
            continue;
        }
        const Hypervisor &h = virt.hypervisors[std::size_t(hi)];
        for (Lid lid : assigned)
            t.setPort(lid, h.upPort);
        t.setPort(h.vSwitchLid, 0);
        t.setPort(h.pfLid, h.pfPort);
        for (const VirtualFunction &vf : h.vfs) {
            if (vf.lid != 0)
                t.setPort(vf.lid, vf.vSwitchPort);
        }
    }
    routing.tables = std::move(tables);
    out.routing = std::move(routing);
    return out;
}

QString VSwitchFatTreeEngine::description() const
{
    return QStringLiteral("vSwitchFatTree: fat-tree routing of each VM LID with weight 1/VMs per vSwitch, then PF LIDs (spec 001)");
}

Status VSwitchFatTreeEngine::prepare(const Fabric &fabric, const Tenancy &, const RoutingOptions &)
{
    m_fabric.reset();
    Result<VirtualisedFabric> virt = findHypervisors(fabric);
    if (!virt)
        return refuse(virt.error().message);
    Result<PhysicalTree> tree = buildPhysicalTree(fabric, *virt);
    if (!tree)
        return tree.error();
    if (!tree->regular)
        return refuse(QStringLiteral("not a regular fat-tree: %1").arg(tree->irregularity));
    m_virt = std::move(*virt);
    m_tree = std::move(*tree);
    m_fabric = std::make_shared<const Fabric>(fabric);
    return Done{};
}

Result<Routing> VSwitchFatTreeEngine::route(const RoutingOptions &options)
{
    if (!m_fabric)
        return refuse(QStringLiteral("route() without a successful prepare()"));
    if (options.progress && !options.progress(0, 1))
        return routing::cancelledError(name());
    Result<VSwitchRouting> r = routeVSwitchFatTree(*m_fabric, m_virt, m_tree);
    if (!r)
        return r.error();
    if (options.progress)
        options.progress(1, 1);
    return std::move(r->routing);
}

}  // namespace weft
