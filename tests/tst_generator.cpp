#include "FabricGenerator.h"
#include "GeneratedFabrics.h"

#include <QtTest>

#include <algorithm>
#include <map>
#include <set>

using namespace weft;

Q_DECLARE_METATYPE(weft::GeneratorOptions)

namespace gentest {

// Expected sizes are worked out here from the closed forms of spec 001 §1.7 and 003 Table 2.1,
// independently of the generator's own arithmetic.
struct ExpectedTree
{
    int height = 0;
    std::vector<int> m;  // m_1..m_h
    std::vector<int> w;  // w_1..w_h
    int switchPorts = 0;

    long long nodesAt(int level) const
    {
        long long n = 1;
        for (int j = 1; j <= height; ++j)
            n *= j <= level ? m[std::size_t(j - 1)] : w[std::size_t(j - 1)];
        return n;
    }
    long long switches() const
    {
        long long s = 0;
        for (int l = 0; l < height; ++l)
            s += nodesAt(l);
        return s;
    }
    long long hosts() const { return nodesAt(height); }
    // Every node below the roots has w_l up-links.
    long long links() const
    {
        long long n = 0;
        for (int l = 1; l <= height; ++l)
            n += nodesAt(l) * w[std::size_t(l - 1)];
        return n;
    }
};
}  // namespace gentest
using gentest::ExpectedTree;
Q_DECLARE_METATYPE(gentest::ExpectedTree)

namespace {

GeneratorOptions kary(int k, int n)
{
    GeneratorOptions o;
    o.shape = FabricShapeKind::KaryNTree;
    o.arity = k;
    o.levels = n;
    return o;
}

GeneratorOptions radixOptions(int r, int levels)
{
    GeneratorOptions o;
    o.shape = FabricShapeKind::SwitchRadix;
    o.radix = r;
    o.levels = levels;
    return o;
}

GeneratorOptions xgft(int h, std::vector<int> m, std::vector<int> w)
{
    GeneratorOptions o;
    o.shape = FabricShapeKind::Xgft;
    o.xgft.height = h;
    o.xgft.children = std::move(m);
    o.xgft.parents = std::move(w);
    return o;
}

using test::generateOrFail;

std::vector<NodeIndex> neighbours(const Fabric &f, NodeIndex n)
{
    std::vector<NodeIndex> out;
    const Node &node = f.node(n);
    for (int p = 1; p <= node.portCount; ++p) {
        const Port &port = f.port(node.firstPort + p);
        if (port.remote != kNoIndex)
            out.push_back(f.port(port.remote).node);
    }
    return out;
}

int linkedPorts(const Fabric &f, NodeIndex n)
{
    return int(neighbours(f, n).size());
}

// Hops from the nearest channel adapter, by breadth-first search over cables.
std::vector<int> distanceFromHosts(const Fabric &f)
{
    std::vector<int> dist(f.nodes().size(), -1);
    std::vector<NodeIndex> queue;
    for (NodeIndex n : f.endNodes()) {
        dist[std::size_t(n)] = 0;
        queue.push_back(n);
    }
    for (std::size_t head = 0; head < queue.size(); ++head)
        for (NodeIndex m : neighbours(f, queue[head]))
            if (dist[std::size_t(m)] < 0) {
                dist[std::size_t(m)] = dist[std::size_t(queue[head])] + 1;
                queue.push_back(m);
            }
    return dist;
}

// Nodes reachable from `from`.
std::vector<bool> reachableFrom(const Fabric &f, NodeIndex from)
{
    std::vector<bool> seen(f.nodes().size(), false);
    std::vector<NodeIndex> queue{from};
    seen[std::size_t(from)] = true;
    for (std::size_t head = 0; head < queue.size(); ++head)
        for (NodeIndex m : neighbours(f, queue[head]))
            if (!seen[std::size_t(m)]) {
                seen[std::size_t(m)] = true;
                queue.push_back(m);
            }
    return seen;
}

using CableKey = std::pair<std::pair<Guid, int>, std::pair<Guid, int>>;

std::set<CableKey> cables(const Fabric &f)
{
    std::set<CableKey> out;
    for (const Link &l : f.links()) {
        std::pair<Guid, int> a{f.node(f.port(l.a).node).guid, f.port(l.a).number};
        std::pair<Guid, int> b{f.node(f.port(l.b).node).guid, f.port(l.b).number};
        out.insert(a < b ? CableKey{a, b} : CableKey{b, a});
    }
    return out;
}

// Byte-for-byte sameness of two generated fabrics, in array order.
QString sameFabric(const Fabric &a, const Fabric &b)
{
    if (a.nodes().size() != b.nodes().size() || a.ports().size() != b.ports().size() || a.links().size() != b.links().size())
        return QStringLiteral("sizes differ");
    for (std::size_t i = 0; i < a.nodes().size(); ++i) {
        const Node &x = a.nodes()[i];
        const Node &y = b.nodes()[i];
        if (x.guid != y.guid || x.name != y.name || x.description != y.description || x.type != y.type || x.portCount != y.portCount)
            return QStringLiteral("node %1 differs").arg(i);
    }
    for (std::size_t i = 0; i < a.ports().size(); ++i) {
        const Port &x = a.ports()[i];
        const Port &y = b.ports()[i];
        if (x.guid != y.guid || x.lid != y.lid || x.remote != y.remote || x.state != y.state || x.width != y.width
            || x.speed != y.speed)
            return QStringLiteral("port %1 differs").arg(i);
    }
    for (std::size_t i = 0; i < a.links().size(); ++i)
        if (a.links()[i].a != b.links()[i].a || a.links()[i].b != b.links()[i].b)
            return QStringLiteral("link %1 differs").arg(i);
    return {};
}

// Checks a complete (undegraded, hypervisor-free) generated tree against its closed forms and
// the wiring rules; returns the first violation in words.
QString checkTree(const GeneratedFabric &g, const ExpectedTree &e)
{
    const Fabric &f = g.fabric;
    if (qint64(f.switches().size()) != e.switches())
        return QStringLiteral("%1 switches, expected %2").arg(f.switches().size()).arg(e.switches());
    if (qint64(f.channelAdapterCount()) != e.hosts())
        return QStringLiteral("%1 hosts, expected %2").arg(f.channelAdapterCount()).arg(e.hosts());
    if (qint64(f.links().size()) != e.links())
        return QStringLiteral("%1 links, expected %2").arg(f.links().size()).arg(e.links());
    if (g.hosts.size() != f.channelAdapterCount())
        return QStringLiteral("host order lists %1 hosts").arg(g.hosts.size());

    const std::vector<int> dist = distanceFromHosts(f);
    std::vector<int> level(f.nodes().size());
    std::map<int, long long> perLevel;
    for (std::size_t n = 0; n < f.nodes().size(); ++n) {
        if (dist[n] < 0)
            return QStringLiteral("\"%1\" is not connected").arg(f.nodes()[n].description);
        level[n] = e.height - dist[n];
        ++perLevel[level[n]];
        if (g.nodeLevel[n] != level[n])
            return QStringLiteral("\"%1\" reported at level %2, is at %3").arg(f.nodes()[n].description).arg(g.nodeLevel[n]).arg(level[n]);
        if (f.nodes()[n].type == NodeType::Switch
            && !f.nodes()[n].description.startsWith(QStringLiteral("L%1 ").arg(level[n])))
            return QStringLiteral("\"%1\" is at level %2").arg(f.nodes()[n].description).arg(level[n]);
    }
    for (int l = 0; l <= e.height; ++l)
        if (perLevel[l] != e.nodesAt(l))
            return QStringLiteral("%1 nodes at level %2, expected %3").arg(perLevel[l]).arg(l).arg(e.nodesAt(l));
    for (int l = 0; l < e.height; ++l)
        if (g.switchesPerLevel[std::size_t(l)] != e.nodesAt(l))
            return QStringLiteral("switchesPerLevel[%1] = %2").arg(l).arg(g.switchesPerLevel[std::size_t(l)]);

    std::set<std::pair<NodeIndex, NodeIndex>> pairs;
    for (const Link &link : f.links()) {
        const NodeIndex x = f.port(link.a).node;
        const NodeIndex y = f.port(link.b).node;
        if (!pairs.insert({std::min(x, y), std::max(x, y)}).second)
            return QStringLiteral("\"%1\" has parallel links").arg(f.node(x).description);
    }
    for (NodeIndex s : f.switches()) {
        const Node &node = f.node(s);
        if (node.portCount != e.switchPorts)
            return QStringLiteral("\"%1\" has %2 ports, expected %3").arg(node.description).arg(node.portCount).arg(e.switchPorts);
        const int l = level[std::size_t(s)];
        int down = 0;
        int up = 0;
        for (int p = 1; p <= node.portCount; ++p) {
            const Port &port = f.port(node.firstPort + p);
            if (port.remote == kNoIndex)
                continue;
            const NodeIndex other = f.port(port.remote).node;
            const int ol = level[std::size_t(other)];
            if (ol == l + 1) {
                ++down;
                if (p > e.m[std::size_t(l)])  // down-links take the low ports
                    return QStringLiteral("\"%1\" port %2 goes down").arg(node.description).arg(p);
            } else if (ol == l - 1) {
                ++up;
            } else {
                return QStringLiteral("\"%1\" links to level %2").arg(node.description).arg(ol);
            }
        }
        if (down != e.m[std::size_t(l)] || up != (l == 0 ? 0 : e.w[std::size_t(l - 1)]))
            return QStringLiteral("\"%1\" has %2 down and %3 up links").arg(node.description).arg(down).arg(up);
        if (down + up > node.portCount)
            return QStringLiteral("\"%1\" uses more ports than it has").arg(node.description);
    }

    // Hosts: one link each, to a leaf, and in the host order the leaves' ports run in order.
    std::pair<NodeIndex, int> previous{kNoIndex, 0};
    for (NodeIndex h : g.hosts) {
        const Node &host = f.node(h);
        if (host.type != NodeType::ChannelAdapter || linkedPorts(f, h) != 1)
            return QStringLiteral("\"%1\" is not a singly linked CA").arg(host.description);
        const Port &leafPort = f.port(f.port(host.firstPort + 1).remote);
        if (level[std::size_t(leafPort.node)] != e.height - 1)
            return QStringLiteral("\"%1\" hangs off a non-leaf").arg(host.description);
        const std::pair<NodeIndex, int> here{leafPort.node, leafPort.number};
        if (!(previous < here))
            return QStringLiteral("\"%1\" breaks leaf port order").arg(host.description);
        previous = here;
    }

    // GUIDs: node GUIDs and CA port GUIDs are all distinct; LIDs run from 1, switches first.
    std::set<Guid> guids;
    std::size_t guidCount = 0;
    for (const Node &n : f.nodes()) {
        guids.insert(n.guid);
        ++guidCount;
        if (n.type != NodeType::Switch)
            for (int p = 1; p <= n.portCount; ++p, ++guidCount)
                guids.insert(f.port(n.firstPort + p).guid);
    }
    if (guids.size() != guidCount)
        return QStringLiteral("%1 GUIDs repeat").arg(guidCount - guids.size());
    std::vector<Lid> lids;
    Lid maxSwitchLid = 0;
    Lid minHostLid = kMaxUnicastLid;
    for (std::size_t n = 0; n < f.nodes().size(); ++n) {
        const Lid lid = f.nodeLid(NodeIndex(n));
        lids.push_back(lid);
        if (f.nodes()[n].type == NodeType::Switch)
            maxSwitchLid = std::max(maxSwitchLid, lid);
        else
            minHostLid = std::min(minHostLid, lid);
    }
    std::sort(lids.begin(), lids.end());
    for (std::size_t i = 0; i < lids.size(); ++i)
        if (lids[i] != i + 1)
            return QStringLiteral("LIDs are not 1..%1 without gaps").arg(lids.size());
    if (maxSwitchLid >= minHostLid)
        return QStringLiteral("a host LID comes before a switch LID");
    return {};
}

ExpectedTree expectKary(int k, int n)
{
    ExpectedTree e{n, std::vector<int>(std::size_t(n), k), std::vector<int>(std::size_t(n), k), 2 * k};
    e.w.back() = 1;
    return e;
}

ExpectedTree expectRadix(int r, int levels)
{
    ExpectedTree e{levels, std::vector<int>(std::size_t(levels), r / 2), std::vector<int>(std::size_t(levels), r / 2), r};
    e.m.front() = r;
    e.w.back() = 1;
    return e;
}

}  // namespace

class TestGenerator : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void karyNTree_data()
    {
        QTest::addColumn<int>("k");
        QTest::addColumn<int>("n");
        for (int k = 2; k <= 8; ++k)
            for (int n = 1; n <= 3; ++n)
                QTest::addRow("%d-ary %d-tree", k, n) << k << n;
    }
    void karyNTree()
    {
        QFETCH(int, k);
        QFETCH(int, n);
        const GeneratedFabric g = generateOrFail(kary(k, n));
        long long kn = 1;
        for (int i = 0; i < n; ++i)
            kn *= k;
        // Spec: k^n end nodes, n·k^(n-1) switches of 2k ports, and n·k^n cables.
        QCOMPARE(qint64(g.fabric.channelAdapterCount()), kn);
        QCOMPARE(qint64(g.fabric.switches().size()), n * kn / k);
        QCOMPARE(qint64(g.fabric.links().size()), n * kn);
        const QString problem = checkTree(g, expectKary(k, n));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        // T-TOP-4: roots have no up-links, so half their ports are unused.
        for (NodeIndex s : g.fabric.switches())
            if (g.nodeLevel[std::size_t(s)] == 0)
                QCOMPARE(linkedPorts(g.fabric, s), k);
    }

    void radixTree_data()
    {
        QTest::addColumn<int>("radix");
        QTest::addColumn<int>("levels");
        for (int r = 4; r <= 36; r += 2)
            for (int levels = 2; levels <= 3; ++levels)
                QTest::addRow("radix %d, %d levels", r, levels) << r << levels;
    }
    void radixTree()
    {
        QFETCH(int, radix);
        QFETCH(int, levels);
        const GeneratedFabric g = generateOrFail(radixOptions(radix, levels));
        const long long half = radix / 2;
        // 2 levels: r leaves of r/2 hosts, r/2 spines. 3 levels: r pods of r/2 leaves and r/2
        // aggregation switches, (r/2)^2 cores.
        const long long hosts = levels == 2 ? radix * half : radix * half * half;
        const long long switches = levels == 2 ? radix + half : radix * radix + half * half;
        QCOMPARE(qint64(g.fabric.channelAdapterCount()), hosts);
        QCOMPARE(qint64(g.fabric.switches().size()), switches);
        const QString problem = checkTree(g, expectRadix(radix, levels));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        // Full bisection: every switch port is in use except none; leaves split half and half.
        for (NodeIndex s : g.fabric.switches())
            QCOMPARE(linkedPorts(g.fabric, s), radix);
    }

    void radix36ThreeLevelsIsThePapersLargestTree()
    {
        QElapsedTimer timer;
        timer.start();
        const GeneratedFabric g = generateOrFail(radixOptions(36, 3));
        const qint64 ms = timer.elapsed();
        QCOMPARE(g.fabric.channelAdapterCount(), std::size_t(11664));
        QCOMPARE(g.fabric.switches().size(), std::size_t(1620));
        QCOMPARE(g.switchesPerLevel, (std::vector<int>{324, 648, 648}));
        QCOMPARE(g.fabric.maxLid(), Lid(11664 + 1620));
        QVERIFY2(ms < 1000, qPrintable(QStringLiteral("took %1 ms").arg(ms)));
    }

    void xgftShapes_data()
    {
        QTest::addColumn<GeneratorOptions>("options");
        QTest::addColumn<ExpectedTree>("expected");
        QTest::addColumn<int>("switches");
        QTest::addColumn<int>("hosts");
        // Literal sizes from the specs (001 §1.7 Fig. 4, 001 Table 4, 003 T-TOP-3, 000 Table 3).
        QTest::addRow("Fig. 4 XGFT(4;2,2,2,2;2,2,2,1)")
            << xgft(4, {2, 2, 2, 2}, {2, 2, 2, 1}) << ExpectedTree{4, {2, 2, 2, 2}, {2, 2, 2, 1}, 4} << 32 << 16;
        QTest::addRow("Table 4 XGFT(2;8,4;4,1)")
            << xgft(2, {8, 4}, {4, 1}) << ExpectedTree{2, {8, 4}, {4, 1}, 8} << 12 << 32;
        QTest::addRow("Table 4 XGFT(2;8,8;8,1)")
            << xgft(2, {8, 8}, {8, 1}) << ExpectedTree{2, {8, 8}, {8, 1}, 16} << 16 << 64;
        QTest::addRow("Table 4 XGFT(3;8,4,4;4,4,1)")
            << xgft(3, {8, 4, 4}, {4, 4, 1}) << ExpectedTree{3, {8, 4, 4}, {4, 4, 1}, 8} << 80 << 128;
        QTest::addRow("Table 4 XGFT(3;8,8,8;8,8,1)")
            << xgft(3, {8, 8, 8}, {8, 8, 1}) << ExpectedTree{3, {8, 8, 8}, {8, 8, 1}, 16} << 192 << 512;
        QTest::addRow("Table 4 XGFT(3;16,8,8;8,8,1)")
            << xgft(3, {16, 8, 8}, {8, 8, 1}) << ExpectedTree{3, {16, 8, 8}, {8, 8, 1}, 16} << 320 << 1024;
        QTest::addRow("T-TOP-3 XGFT(2;4,4;2,1)")
            << xgft(2, {4, 4}, {2, 1}) << ExpectedTree{2, {4, 4}, {2, 1}, 6} << 6 << 16;
        // 000 Table 3 writes XGFT(2;12,4;1,4) in Öhring's order; reversed: 4 leaves + 4 roots.
        QTest::addRow("oversubscribed 3:1 XGFT(2;4,12;4,1)")
            << xgft(2, {4, 12}, {4, 1}) << ExpectedTree{2, {4, 12}, {4, 1}, 16} << 8 << 48;
        QTest::addRow("single switch XGFT(1;5;1)")
            << xgft(1, {5}, {1}) << ExpectedTree{1, {5}, {1}, 5} << 1 << 5;
        GeneratorOptions wide = xgft(2, {4, 4}, {2, 1});
        wide.switchPorts = 36;
        QTest::addRow("XGFT(2;4,4;2,1) on 36-port switches") << wide << ExpectedTree{2, {4, 4}, {2, 1}, 36} << 6 << 16;
    }
    void xgftShapes()
    {
        QFETCH(GeneratorOptions, options);
        QFETCH(ExpectedTree, expected);
        QFETCH(int, switches);
        QFETCH(int, hosts);
        QCOMPARE(expected.switches(), qint64(switches));
        QCOMPARE(expected.hosts(), qint64(hosts));
        const GeneratedFabric g = generateOrFail(options);
        QCOMPARE(g.xgft, options.xgft);
        const QString problem = checkTree(g, expected);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void karyAndRadixAreTheirXgfts()
    {
        // 2-ary 4-tree is Fig. 4's XGFT: the same fabric, node for node.
        const GeneratedFabric a = generateOrFail(kary(2, 4));
        const GeneratedFabric b = generateOrFail(xgft(4, {2, 2, 2, 2}, {2, 2, 2, 1}));
        QCOMPARE(a.xgft, b.xgft);
        QCOMPARE(sameFabric(a.fabric, b.fabric), QString());
        QCOMPARE(generateOrFail(radixOptions(8, 3)).xgft.toString(), QStringLiteral("XGFT(3; 8,4,4; 4,4,1)"));
    }

    void descriptionsAndGuids()
    {
        const GeneratedFabric g = generateOrFail(radixOptions(4, 3));
        const Fabric &f = g.fabric;
        const NodeIndex spine = f.nodeByGuid(0x0002c90000000000ULL);
        QVERIFY(spine != kNoIndex);
        QCOMPARE(f.node(spine).description, QStringLiteral("L0 spine 0"));
        QCOMPARE(f.node(spine).name, QStringLiteral("S-0002c90000000000"));
        QCOMPARE(f.node(g.hosts[3]).description, QStringLiteral("host 0003"));
        QCOMPARE(f.port(f.node(g.hosts[3]).firstPort + 1).guid, f.node(g.hosts[3]).guid + 1);
        QVERIFY(f.node(f.switches().back()).description.startsWith(QStringLiteral("L2 leaf ")));
        QVERIFY(f.node(f.switches()[4]).description.startsWith(QStringLiteral("L1 aggr ")));
        // Defaults: 4x QDR on cabled ports, Active; others Down.
        const Port &hostPort = f.port(f.node(g.hosts[0]).firstPort + 1);
        QCOMPARE(int(hostPort.width), 4);
        QCOMPARE(hostPort.speed, LinkSpeed::QDR);
        QCOMPARE(hostPort.state, PortState::Active);
    }

    void determinism_data()
    {
        QTest::addColumn<GeneratorOptions>("options");
        QTest::addRow("3-ary 3-tree") << kary(3, 3);
        GeneratorOptions degraded = radixOptions(8, 3);
        degraded.removeRandomLinks = 17;
        degraded.seed = 99;
        QTest::addRow("radix 8, 3 levels, 17 links removed") << degraded;
        GeneratorOptions hyp = kary(4, 2);
        hyp.hypervisors = true;
        hyp.vfsPerHypervisor = 3;
        QTest::addRow("4-ary 2-tree of hypervisors") << hyp;
    }
    void determinism()
    {
        QFETCH(GeneratorOptions, options);
        const GeneratedFabric a = generateOrFail(options);
        const GeneratedFabric b = generateOrFail(options);
        QCOMPARE(sameFabric(a.fabric, b.fabric), QString());
        QCOMPARE(a.summary, b.summary);
        QCOMPARE(a.removedLinks.size(), b.removedLinks.size());
        for (std::size_t i = 0; i < a.removedLinks.size(); ++i)
            QCOMPARE(a.removedLinks[i].toString(), b.removedLinks[i].toString());
    }

    void randomDegradation_data()
    {
        QTest::addColumn<GeneratorOptions>("options");
        QTest::addColumn<int>("remove");
        for (int n : {1, 5, 15}) {
            QTest::addRow("4-ary 3-tree minus %d", n) << kary(4, 3) << n;
            QTest::addRow("radix 8, 3 levels minus %d", n) << radixOptions(8, 3) << n;
            QTest::addRow("Fig. 4 XGFT minus %d", n) << xgft(4, {2, 2, 2, 2}, {2, 2, 2, 1}) << n;
        }
        // 2-ary 2-tree: 4 switch cables, 4 switches, so one cable can go without a split.
        QTest::addRow("2-ary 2-tree minus its only spare cable") << kary(2, 2) << 1;
    }
    void randomDegradation()
    {
        QFETCH(GeneratorOptions, options);
        QFETCH(int, remove);
        const GeneratedFabric full = generateOrFail(options);
        options.removeRandomLinks = remove;
        options.seed = 7;
        const GeneratedFabric cut = generateOrFail(options);
        options.seed = 8;
        const GeneratedFabric other = generateOrFail(options);

        QCOMPARE(cut.fabric.links().size() + std::size_t(remove), full.fabric.links().size());
        QCOMPARE(cut.removedLinks.size(), std::size_t(remove));
        const std::set<CableKey> before = cables(full.fabric);
        const std::set<CableKey> after = cables(cut.fabric);
        QVERIFY(std::includes(before.begin(), before.end(), after.begin(), after.end()));

        // The reported links are the ones missing, and none is a host cable.
        std::set<QString> missing;
        for (const CableKey &c : before)
            if (!after.count(c)) {
                const Node &x = full.fabric.node(full.fabric.nodeByGuid(c.first.first));
                const Node &y = full.fabric.node(full.fabric.nodeByGuid(c.second.first));
                QCOMPARE(x.type, NodeType::Switch);
                QCOMPARE(y.type, NodeType::Switch);
                missing.insert(QStringLiteral("%1[%2]").arg(x.description).arg(c.first.second));
                missing.insert(QStringLiteral("%1[%2]").arg(y.description).arg(c.second.second));
            }
        for (const RemovedLink &r : cut.removedLinks) {
            QVERIFY2(missing.count(QStringLiteral("%1[%2]").arg(r.nodeA).arg(r.portA)), qPrintable(r.toString()));
            QVERIFY2(missing.count(QStringLiteral("%1[%2]").arg(r.nodeB).arg(r.portB)), qPrintable(r.toString()));
        }

        // Everything stays connected: every host reaches every other.
        const std::vector<bool> seen = reachableFrom(cut.fabric, cut.hosts.front());
        for (NodeIndex n = 0; n < NodeIndex(cut.fabric.nodes().size()); ++n)
            QVERIFY2(seen[std::size_t(n)], qPrintable(cut.fabric.node(n).description));
        QVERIFY(cut.warnings.isEmpty());

        // Another seed picks other links, where there is a choice.
        if (full.fabric.switches().size() > 4)
            QVERIFY(cables(other.fabric) != after);
    }

    void tooManyRandomRemovals()
    {
        // Fig. 4's tree: 32 switches, 48 switch cables; a spanning tree keeps 31, so 17 can go.
        GeneratorOptions o = xgft(4, {2, 2, 2, 2}, {2, 2, 2, 1});
        o.removeRandomLinks = 17;
        QVERIFY(generateFabric(o).ok());
        o.removeRandomLinks = 18;
        const Result<GeneratedFabric> r = generateFabric(o);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QStringLiteral("at most 17")), qPrintable(r.error().message));
    }

    void namedRemoval_data()
    {
        QTest::addColumn<QString>("node");
        QTest::addColumn<int>("port");
        QTest::addColumn<QString>("peer");
        // 2-ary 2-tree: leaves have hosts on ports 1-2 and spines on 3-4.
        QTest::addRow("by description") << QStringLiteral("L1 leaf 0") << 3 << QStringLiteral("L0 spine 0[1]");
        QTest::addRow("by node id") << QStringLiteral("S-0002c90000000003") << 4 << QStringLiteral("L0 spine 1[2]");
        QTest::addRow("from the spine end") << QStringLiteral("L0 spine 1") << 1 << QStringLiteral("L1 leaf 0[4]");
    }
    void namedRemoval()
    {
        QFETCH(QString, node);
        QFETCH(int, port);
        QFETCH(QString, peer);
        GeneratorOptions o = kary(2, 2);
        o.removeLinks.push_back(LinkEndName{node, port});
        const GeneratedFabric g = generateOrFail(o);
        QCOMPARE(g.fabric.links().size(), std::size_t(7));
        QCOMPARE(g.removedLinks.size(), std::size_t(1));
        QCOMPARE(QStringLiteral("%1[%2]").arg(g.removedLinks[0].nodeB).arg(g.removedLinks[0].portB), peer);
        NodeIndex n = g.fabric.nodeByName(node);
        if (n == kNoIndex)
            for (NodeIndex i = 0; i < NodeIndex(g.fabric.nodes().size()); ++i)
                if (g.fabric.node(i).description == node)
                    n = i;
        QVERIFY(n != kNoIndex);
        const Port &p = g.fabric.port(g.fabric.portOf(n, port));
        QCOMPARE(p.remote, kNoIndex);
        QCOMPARE(p.state, PortState::Down);
        QVERIFY(g.warnings.isEmpty());
    }

    void namedHostRemovalWarns()
    {
        GeneratorOptions o = kary(2, 2);
        o.removeLinks.push_back(LinkEndName{QStringLiteral("host 0002"), 1});
        const GeneratedFabric g = generateOrFail(o);
        QCOMPARE(g.fabric.links().size(), std::size_t(7));
        QCOMPARE(g.warnings.size(), 1);
        QVERIFY2(g.warnings[0].contains(QStringLiteral("host 0002")), qPrintable(g.warnings[0]));
    }

    void hypervisors_data()
    {
        QTest::addColumn<GeneratorOptions>("options");
        QTest::addColumn<int>("vfs");
        for (int v : {0, 1, 4}) {
            QTest::addRow("2-ary 3-tree, %d VFs", v) << kary(2, 3) << v;
            QTest::addRow("radix 6, 2 levels, %d VFs", v) << radixOptions(6, 2) << v;
        }
    }
    void hypervisors()
    {
        QFETCH(GeneratorOptions, options);
        QFETCH(int, vfs);
        const GeneratedFabric plain = generateOrFail(options);
        options.hypervisors = true;
        options.vfsPerHypervisor = vfs;
        const GeneratedFabric g = generateOrFail(options);
        const Fabric &f = g.fabric;
        const std::size_t hyps = plain.fabric.channelAdapterCount();
        QCOMPARE(g.hosts.size(), hyps);
        QCOMPARE(f.switches().size(), plain.fabric.switches().size() + hyps);
        QCOMPARE(f.channelAdapterCount(), hyps * std::size_t(1 + vfs));
        QCOMPARE(f.links().size(), plain.fabric.links().size() + hyps * std::size_t(1 + vfs));
        // Every node gets a LID of its own: switches, vSwitches, PFs and VFs.
        QCOMPARE(std::size_t(f.maxLid()), f.nodes().size());

        const int leafLevel = g.xgft.height - 1;
        for (std::size_t h = 0; h < hyps; ++h) {
            const NodeIndex vs = g.hosts[h];
            const Node &vswitch = f.node(vs);
            const QString prefix = QStringLiteral("hyp%1").arg(h, 4, 10, QLatin1Char('0'));
            QCOMPARE(vswitch.type, NodeType::Switch);
            QCOMPARE(vswitch.description, prefix + QStringLiteral(" vSwitch"));
            QCOMPARE(int(vswitch.portCount), 2 + vfs);
            const Port &up = f.port(vswitch.firstPort + 1);
            QVERIFY(up.remote != kNoIndex);
            QCOMPARE(g.nodeLevel[std::size_t(f.port(up.remote).node)], leafLevel);
            // The vSwitch's only upward link is port 1; the rest are its functions.
            for (int p = 2; p <= vswitch.portCount; ++p) {
                const Port &port = f.port(vswitch.firstPort + p);
                QVERIFY(port.remote != kNoIndex);
                const Node &fn = f.node(f.port(port.remote).node);
                QCOMPARE(fn.type, NodeType::ChannelAdapter);
                QCOMPARE(int(fn.portCount), 1);
                QCOMPARE(fn.description, prefix + (p == 2 ? QStringLiteral(" PF") : QStringLiteral(" VF%1").arg(p - 2)));
                QCOMPARE(fn.systemImageGuid, vswitch.guid);
                QVERIFY(f.nodeLid(f.port(port.remote).node) != 0);
            }
        }
    }

    void hypervisorLidSpace()
    {
        // The 36-port 3-level tree: 1,620 switches + 11,664 hypervisors. With a LID per
        // vSwitch as well as per function, 2 VFs fit (48,276 LIDs) and 3 do not (59,940).
        GeneratorOptions o = radixOptions(36, 3);
        o.hypervisors = true;
        o.vfsPerHypervisor = 2;
        const Result<GeneratedFabric> fits = generateFabric(o);
        QVERIFY2(fits.ok(), fits.ok() ? "" : qPrintable(fits.error().message));
        QCOMPARE(fits->fabric.maxLid(), Lid(48276));
        o.vfsPerHypervisor = 3;
        const Result<GeneratedFabric> tooMany = generateFabric(o);
        QVERIFY(!tooMany.ok());
        QVERIFY2(tooMany.error().message.contains(QStringLiteral("59940")), qPrintable(tooMany.error().message));
    }

    void lidOptions()
    {
        GeneratorOptions o = kary(2, 2);
        o.lmc = 2;
        o.firstLid = 10;
        const GeneratedFabric g = generateOrFail(o);
        for (NodeIndex n : g.fabric.switches())
            QVERIFY(g.fabric.nodeLid(n) >= 10 && g.fabric.nodeLid(n) < 14);
        for (NodeIndex n : g.hosts) {
            const Port &p = g.fabric.port(g.fabric.node(n).firstPort + 1);
            QCOMPARE(p.lmc, std::uint8_t(2));
            QCOMPARE(p.lid % 4, 0);
        }
        o.assignLids = false;
        const GeneratedFabric none = generateOrFail(o);
        QCOMPARE(none.fabric.maxLid(), Lid(0));
    }

    void badOptions_data()
    {
        QTest::addColumn<GeneratorOptions>("options");
        QTest::addColumn<QString>("message");
        QTest::addRow("odd radix") << radixOptions(35, 2) << QStringLiteral("odd");
        QTest::addRow("zero radix") << radixOptions(0, 2) << QStringLiteral("radix 0");
        QTest::addRow("radix over 254") << radixOptions(256, 2) << QStringLiteral("254");
        QTest::addRow("radix tree of 0 levels") << radixOptions(8, 0) << QStringLiteral("0 levels");
        QTest::addRow("zero arity") << kary(0, 2) << QStringLiteral("arity 0");
        QTest::addRow("128-ary tree needs 256 ports") << kary(128, 1) << QStringLiteral("arity 128");
        QTest::addRow("too many LIDs") << radixOptions(36, 4) << QStringLiteral("LIDs");
        QTest::addRow("LID space overflow with many levels") << kary(8, 16) << QStringLiteral("LIDs");
        QTest::addRow("XGFT with two-port hosts") << xgft(2, {4, 4}, {2, 2}) << QStringLiteral("w2 = 2");
        QTest::addRow("XGFT counts mismatch") << xgft(3, {4, 4}, {2, 1}) << QStringLiteral("3 child counts");
        QTest::addRow("XGFT zero children") << xgft(2, {0, 4}, {2, 1}) << QStringLiteral("m1 = 0");
        QTest::addRow("XGFT switch over 254 ports") << xgft(2, {200, 200}, {100, 1}) << QStringLiteral("300 ports");
        GeneratorOptions o = kary(2, 2);
        o.vfsPerHypervisor = 2;
        QTest::addRow("VFs without hypervisors") << o << QStringLiteral("not hypervisors");
        o.hypervisors = true;
        o.vfsPerHypervisor = 253;
        QTest::addRow("253 VFs") << o << QStringLiteral("253 VFs");
        o = kary(2, 2);
        o.linkWidth = 3;
        QTest::addRow("width 3x") << o << QStringLiteral("3x");
        o = kary(2, 2);
        o.lmc = 8;
        QTest::addRow("LMC 8") << o << QStringLiteral("LMC 8");
        o = kary(2, 2);
        o.firstLid = 0;
        QTest::addRow("first LID 0") << o << QStringLiteral("first LID 0");
        o = kary(4, 2);
        o.switchPorts = 6;
        QTest::addRow("switch ports too few") << o << QStringLiteral("needs 8");
        o = kary(2, 2);
        o.removeLinks.push_back(LinkEndName{QStringLiteral("L7 leaf 9"), 1});
        QTest::addRow("unknown named node") << o << QStringLiteral("\"L7 leaf 9\"");
        o = kary(2, 2);
        o.removeLinks.push_back(LinkEndName{QStringLiteral("L0 spine 0"), 3});
        QTest::addRow("named port without cable") << o << QStringLiteral("no cable");
        o = kary(2, 2);
        o.removeLinks.push_back(LinkEndName{QStringLiteral("L0 spine 0"), 9});
        QTest::addRow("named port out of range") << o << QStringLiteral("ports 1-4");
        o = kary(2, 2);
        o.removeLinks.push_back(LinkEndName{QStringLiteral("L0 spine 0"), 1});
        o.removeLinks.push_back(LinkEndName{QStringLiteral("L1 leaf 0"), 3});
        QTest::addRow("same cable named twice") << o << QStringLiteral("already removed");
        o = kary(3, 1);
        o.removeRandomLinks = 1;
        QTest::addRow("random removal on a single switch") << o << QStringLiteral("at most 0");
        o = kary(8, 3);
        o.lmc = 7;
        QTest::addRow("LMC too big for the LID space") << o << QStringLiteral("LIDs");
    }
    void badOptions()
    {
        QFETCH(GeneratorOptions, options);
        QFETCH(QString, message);
        const Result<GeneratedFabric> r = generateFabric(options);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(message), qPrintable(r.error().message));
    }

    void parseXgft_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("shape");  // toString() of the parse, or an error fragment
        QTest::addColumn<bool>("ok");
        QTest::addRow("plain") << QStringLiteral("4;2,2,2,2;2,2,2,1") << QStringLiteral("XGFT(4; 2,2,2,2; 2,2,2,1)") << true;
        QTest::addRow("wrapped, spaced") << QStringLiteral(" XGFT(2; 8, 4; 4, 1) ") << QStringLiteral("XGFT(2; 8,4; 4,1)") << true;
        QTest::addRow("two parts") << QStringLiteral("2;8,4") << QStringLiteral("three parts") << false;
        QTest::addRow("short list") << QStringLiteral("3;8,4;4,4,1") << QStringLiteral("needs 3 child counts") << false;
        QTest::addRow("not a number") << QStringLiteral("2;8,x;4,1") << QStringLiteral("\"x\"") << false;
        QTest::addRow("zero height") << QStringLiteral("0;;") << QStringLiteral("height") << false;
        QTest::addRow("unclosed") << QStringLiteral("XGFT(2;8,4;4,1") << QStringLiteral("expected XGFT(") << false;
    }
    void parseXgft()
    {
        QFETCH(QString, text);
        QFETCH(QString, shape);
        QFETCH(bool, ok);
        const Result<XgftShape> r = weft::parseXgft(text);
        QCOMPARE(r.ok(), ok);
        if (ok)
            QCOMPARE(r->toString(), shape);
        else
            QVERIFY2(r.error().message.contains(shape), qPrintable(r.error().message));
    }

    void parseLinkEnd_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("node");
        QTest::addColumn<int>("port");
        QTest::addRow("description") << QStringLiteral("L1 leaf 3[5]") << QStringLiteral("L1 leaf 3") << 5;
        QTest::addRow("node id") << QStringLiteral("S-0002c90000000004[12]") << QStringLiteral("S-0002c90000000004") << 12;
        QTest::addRow("brackets in name") << QStringLiteral("odd[1] name[2]") << QStringLiteral("odd[1] name") << 2;
        QTest::addRow("no port") << QStringLiteral("L1 leaf 3") << QString() << 0;
        QTest::addRow("empty port") << QStringLiteral("L1 leaf 3[]") << QString() << 0;
        QTest::addRow("no node") << QStringLiteral("[4]") << QString() << 0;
    }
    void parseLinkEnd()
    {
        QFETCH(QString, text);
        QFETCH(QString, node);
        QFETCH(int, port);
        const Result<LinkEndName> r = weft::parseLinkEnd(text);
        QCOMPARE(r.ok(), !node.isEmpty());
        if (r.ok()) {
            QCOMPARE(r->node, node);
            QCOMPARE(r->port, port);
        } else {
            QVERIFY(r.error().message.contains(text));
        }
    }
};

QTEST_GUILESS_MAIN(TestGenerator)
#include "tst_generator.moc"
