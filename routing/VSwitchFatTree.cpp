#include "VSwitchFatTree.h"

#include <algorithm>
#include <deque>
#include <numeric>

#include "SwitchGraph.h"

namespace weft {

namespace {

constexpr std::uint8_t kUnset = 0xFF;

Error refuse(const QString &why)
{
    return Error{{}, 0, QStringLiteral("vswitch-ftree: %1").arg(why)};
}

// One destination LID at a time through the tree, per §2.3. Loads are scaled integers.
class Router
{
public:
    Router(const PhysicalTree &tree, Lid maxLid)
        : m_tree(tree),
          m_lft(tree.switches.size(), std::vector<std::uint8_t>(std::size_t(maxLid) + 1, kUnset)),
          m_hops(tree.switches.size(), kUnset)
    {
        loadDown.assign(std::size_t(tree.cableCount), 0);
        loadUp.assign(std::size_t(tree.cableCount), 0);
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

    void upgoingByGoingDown(int s, int cameFrom, Lid lid, std::int64_t w, bool main, int hops)
    {
        const PhysicalTree::Switch &sw = m_tree.switches[std::size_t(s)];
        const std::uint8_t towards = m_lft[std::size_t(s)][lid];
        std::size_t i = 0;
        while (i < sw.down.size()) {
            // A group: the parallel cables to one child, consecutive in port order or not.
            const int child = sw.down[i].remote;
            int best = -1;
            bool holdsEntry = false;
            for (std::size_t j = 0; j < sw.down.size(); ++j) {
                if (sw.down[j].remote != child)
                    continue;
                holdsEntry |= sw.down[j].port == towards;
                if (best < 0 || loadUp[std::size_t(sw.down[j].id)] < loadUp[std::size_t(sw.down[std::size_t(best)].id)])
                    best = int(j);
            }
            // Visit each child once: at the first of its cables.
            bool first = true;
            for (std::size_t j = 0; j < i; ++j)
                first &= sw.down[j].remote != child;
            ++i;
            if (!first || child == cameFrom || holdsEntry || hasShorter(child, hops + 1))
                continue;
            const PhysicalTree::Cable &c = sw.down[std::size_t(best)];
            m_lft[std::size_t(child)][lid] = c.remotePort;
            setHops(child, std::uint8_t(hops + 1));
            if (main)
                loadUp[std::size_t(c.id)] += w;
            upgoingByGoingDown(child, -1, lid, w, main, hops + 1);
        }
    }

    void downgoingByGoingUp(int s, int prev, Lid lid, std::int64_t w, bool main, int hops)
    {
        upgoingByGoingDown(s, prev, lid, w, main, hops);
        const PhysicalTree::Switch &sw = m_tree.switches[std::size_t(s)];
        if (sw.up.empty())
            return;  // a root (E2)
        int chosen = -1;
        if (main) {
            chosen = 0;
            for (std::size_t j = 1; j < sw.up.size(); ++j) {
                if (loadDown[std::size_t(sw.up[j].id)] < loadDown[std::size_t(sw.up[std::size_t(chosen)].id)])
                    chosen = int(j);
            }
            const PhysicalTree::Cable &c = sw.up[std::size_t(chosen)];
            loadDown[std::size_t(c.id)] += w;
            if (!hasShorter(c.remote, hops + 1)) {
                m_lft[std::size_t(c.remote)][lid] = c.remotePort;
                setHops(c.remote, std::uint8_t(hops + 1));
            }
            downgoingByGoingUp(c.remote, s, lid, w, true, hops + 1);
        }
        for (std::size_t j = 0; j < sw.up.size(); ++j) {
            if (int(j) == chosen)
                continue;
            const PhysicalTree::Cable &c = sw.up[j];
            if (hasShorter(c.remote, hops + 1))
                continue;
            m_lft[std::size_t(c.remote)][lid] = c.remotePort;
            setHops(c.remote, std::uint8_t(hops + 1));
            downgoingByGoingUp(c.remote, s, lid, w, false, hops + 1);
        }
    }

    const PhysicalTree &m_tree;
    std::vector<std::vector<std::uint8_t>> m_lft;
    std::vector<std::uint8_t> m_hops;
    std::vector<int> m_touched;
};

} // namespace

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
    std::int64_t scale = 1;
    for (const Hypervisor &h : virt.hypervisors) {
        const int vms = h.runningVms();
        if (vms > 0)
            scale = std::lcm(scale, std::int64_t(vms));
    }
    Router router(tree, maxLid);
    VSwitchRouting out;

    // Per leaf, its vSwitches by ascending VM count (stable: leaf port order).
    std::vector<std::vector<int>> order(tree.leaves.size());
    for (std::size_t i = 0; i < tree.leaves.size(); ++i) {
        order[i] = tree.switches[std::size_t(tree.leaves[i])].hypervisors;
        std::stable_sort(order[i].begin(), order[i].end(), [&](int a, int b) {
            return virt.hypervisors[std::size_t(a)].runningVms() < virt.hypervisors[std::size_t(b)].runningVms();
        });
    }
    for (std::size_t i = 0; i < tree.leaves.size(); ++i) {
        for (int hi : order[i]) {
            const Hypervisor &h = virt.hypervisors[std::size_t(hi)];
            const int vms = h.runningVms();
            if (vms == 0)
                continue;
            out.vSwitchOrder.push_back(hi);
            for (const VirtualFunction &vf : h.vfs) {
                if (vf.lid != 0)
                    router.routeEndLid(tree.leaves[i], h.leafPort, vf.lid, scale / vms);
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
    for (std::size_t i = 0; i < tree.leaves.size(); ++i) {
        for (int hi : order[i]) {
            const Hypervisor &h = virt.hypervisors[std::size_t(hi)];
            router.routeEndLid(tree.leaves[i], h.leafPort, h.pfLid, scale * options.pfWeight);
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

} // namespace weft
