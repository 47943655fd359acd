// Spec 001 (vSwitch SR-IOV): LID-space figures, vSwitchFatTree, VM boot/shutdown and live
// migration with ItRC and FTreeMinRC. Expected values come from the spec's text (§8 T1–T20);
// invariants (reachability, the VM's LID at its new home, FTreeMinRC ⊆ ItRC, determinism)
// are checked after every migration of seeded random sequences.

#include "FabricGenerator.h"
#include "GeneratedFabrics.h"
#include "FatTreeEngine.h"
#include "FatTreeLayout.h"
#include "LftDump.h"
#include "RoutingEngine.h"
#include "SampleSize.h"
#include "TinyFabric.h"
#include "VSwitchFatTree.h"
#include "VSwitchMigration.h"
#include "Validation.h"
#include "Virtualisation.h"

#include <QElapsedTimer>
#include <QtTest>

#include <map>
#include <random>
#include <set>
#include <tuple>

using namespace weft;

namespace {

GeneratedFabric generateXgft(const QString &shape, int vfs)
{
    GeneratorOptions o;
    o.shape = FabricShapeKind::Xgft;
    Result<XgftShape> x = parseXgft(shape);
    if (!x)
        qFatal("xgft: %s", qPrintable(x.error().toString()));
    o.xgft = *x;
    o.hypervisors = true;
    o.vfsPerHypervisor = vfs;
    return test::generateOrFail(o);
}

// Fig. 2's shape: roots R1, R2 over leaves L1, L2; each leaf has `perLeaf` vSwitch ports
// (1..perLeaf, vSwitches in the order given) and then its up-links to R1 and R2. A vSwitch "X"
// is "X vSwitch" with "X PF" on its port 2 and "X VF1".. on ports 3.., its port 1 to its leaf.
struct VSwitchSpec
{
    QString name;
    int leaf = 1;
    int vms = 0;
};
test::TinyFabric twoLeafHypervisors(int perLeaf, const std::vector<VSwitchSpec> &vSwitches)
{
    test::TinyFabric t;
    t.addSwitch(QStringLiteral("R1"), 2);
    t.addSwitch(QStringLiteral("R2"), 2);
    t.addSwitch(QStringLiteral("L1"), perLeaf + 2);
    t.addSwitch(QStringLiteral("L2"), perLeaf + 2);
    int used[3] = {0, 0, 0};
    for (const VSwitchSpec &v : vSwitches) {
        const QString vs = v.name + QStringLiteral(" vSwitch");
        t.addSwitch(vs, 1 + 1 + v.vms);
        t.cable(vs, 1, QStringLiteral("L%1").arg(v.leaf), ++used[v.leaf]);
        t.addHost(v.name + QStringLiteral(" PF"));
        t.cable(vs, 2, v.name + QStringLiteral(" PF"), 1);
        for (int f = 0; f < v.vms; ++f) {
            const QString host = v.name + QStringLiteral(" VF%1").arg(f + 1);
            t.addHost(host);
            t.cable(vs, 3 + f, host, 1);
        }
    }
    for (int leaf : {1, 2}) {
        t.cable(QStringLiteral("L%1").arg(leaf), perLeaf + 1, QStringLiteral("R1"), leaf);
        t.cable(QStringLiteral("L%1").arg(leaf), perLeaf + 2, QStringLiteral("R2"), leaf);
    }
    return t;
}

// Everything a migration test needs about one state of the fabric.
struct State
{
    Fabric fabric;
    VirtualisedFabric virt;
    PhysicalTree tree;
    ForwardingTables tables;
};

State analyse(Fabric fabric, ForwardingTables tables)
{
    State s;
    s.fabric = std::move(fabric);
    Result<VirtualisedFabric> virt = findHypervisors(s.fabric);
    if (!virt)
        qFatal("hypervisors: %s", qPrintable(virt.error().toString()));
    s.virt = std::move(*virt);
    Result<PhysicalTree> tree = buildPhysicalTree(s.fabric, s.virt);
    if (!tree)
        qFatal("tree: %s", qPrintable(tree.error().toString()));
    s.tree = std::move(*tree);
    s.tables = std::move(tables);
    return s;
}

State routed(const Fabric &fabric)
{
    Result<Routing> r = routeFabric(QStringLiteral("vswitch-ftree"), fabric, {});
    if (!r)
        qFatal("route: %s", qPrintable(r.error().toString()));
    return analyse(fabric, std::move(r->tables));
}

int denseByDescription(const State &s, const QString &description)
{
    for (int i = 0; i < int(s.tree.switches.size()); ++i) {
        if (s.fabric.node(s.tree.switches[std::size_t(i)].node).description == description)
            return i;
    }
    qFatal("no switch %s", qPrintable(description));
    return -1;
}

// The generator's position of a level-l switch in XGFT(4;2,2,2,2;2,2,2,1) is its tuple
// x1.x2.x3 in binary; the spec writes tuples as "l.x1.x2.x3".
QString describeTuple(const QString &tuple)
{
    const QStringList d = tuple.split(QLatin1Char('.'));
    const int level = d[0].toInt();
    const int position = d[1].toInt() * 4 + d[2].toInt() * 2 + d[3].toInt();
    const QString role = level == 3 ? QStringLiteral("leaf") : level == 0 ? QStringLiteral("spine") : QStringLiteral("aggr");
    return QStringLiteral("L%1 %2 %3").arg(level).arg(role).arg(position);
}

// The switches a packet for `lid` crosses from `start` and where it ends (the node reached
// that is not a switch), or kNoIndex on a loop or a missing entry.
NodeIndex follow(const Fabric &fabric, const ForwardingTables &tables, NodeIndex start, Lid lid)
{
    NodeIndex n = start;
    for (std::size_t hops = 0; hops < fabric.switches().size() + 2; ++hops) {
        if (fabric.node(n).type != NodeType::Switch)
            return n;
        const SwitchForwardingTable *t = tables.find(fabric.node(n).guid);
        if (!t || !t->lft.hasRoute(lid))
            return kNoIndex;
        const std::uint8_t port = t->lft.port(lid);
        if (port == 0)
            return n;
        const PortIndex p = fabric.portOf(n, port);
        if (p == kNoIndex || fabric.port(p).remote == kNoIndex)
            return kNoIndex;
        n = fabric.port(fabric.port(p).remote).node;
    }
    return kNoIndex;
}

// Frees the last VF of every hypervisor so that dynamic migrations have somewhere to go.
State freeLastVfs(State s)
{
    for (int h = 0; h < int(s.virt.hypervisors.size()); ++h) {
        const int vf = int(s.virt.hypervisors[std::size_t(h)].vfs.size()) - 1;
        Result<VmLifecycle> down = shutdownVm(s.fabric, s.virt, s.tables, h, vf);
        if (!down)
            qFatal("shutdown: %s", qPrintable(down.error().toString()));
        s = analyse(std::move(down->fabric), std::move(down->tables));
    }
    return s;
}


// The spec's tuple "l.x1.x2.x3" of a generated XGFT(4;2,2,2,2;2,2,2,1) switch, read from its
// description ("L<level> <role> <position>"; the position is x1.x2.x3 in mixed radix, all 2s).
QString tupleOfSwitch(const Fabric &fabric, NodeIndex n)
{
    const QStringList words = fabric.node(n).description.split(QLatin1Char(' '));
    const int level = words.front().mid(1).toInt();
    const int position = words.back().toInt();
    return QStringLiteral("%1.%2.%3.%4").arg(level).arg(position / 4 % 2).arg(position / 2 % 2).arg(position % 2);
}

// Switch neighbours of `n` one level up (up = true) or down, as spec tuples.
std::set<QString> neighbourTuples(const Fabric &fabric, NodeIndex n, bool up)
{
    std::set<QString> out;
    const int level = tupleOfSwitch(fabric, n).left(1).toInt();
    const Node &node = fabric.node(n);
    for (int p = 1; p <= node.portCount; ++p) {
        const Port &port = fabric.port(node.firstPort + p);
        if (port.remote == kNoIndex)
            continue;
        const NodeIndex r = fabric.port(port.remote).node;
        if (fabric.node(r).type != NodeType::Switch)
            continue;
        const QString t = tupleOfSwitch(fabric, r);
        if (t.left(1).toInt() == level + (up ? -1 : 1))
            out.insert(t);
    }
    return out;
}

// Def. 1: (l, a) and (l+1, b) are linked iff a_i = b_i for every i except i = l+1.
bool linkedByDefinition1(const QString &upper, const QString &lower)
{
    const QStringList a = upper.split(QLatin1Char('.'));
    const QStringList b = lower.split(QLatin1Char('.'));
    const int l = a[0].toInt();
    if (b[0].toInt() != l + 1)
        return false;
    for (int i = 1; i < a.size(); ++i) {
        if (i != l + 1 && a[i] != b[i])
            return false;
    }
    return true;
}

GeneratedFabric generateShape(const XgftShape &shape, bool hypervisors)
{
    GeneratorOptions o;
    o.shape = FabricShapeKind::Xgft;
    o.xgft = shape;
    o.hypervisors = hypervisors;
    o.vfsPerHypervisor = hypervisors ? 1 : 0;
    return test::generateOrFail(o);
}

// T16: where vswitch-ftree on a fabric of one-VM hypervisors and OpenSM's ftree on the same
// switches with plain hosts disagree, VM LID against host LID at the same position.
struct FtreeComparison
{
    std::int64_t compared = 0;
    std::int64_t differing = 0;
    std::map<int, std::int64_t> differingByLevel;  // physical level (0 = roots)
    QString firstDifference;
};

FtreeComparison compareWithFtree(const XgftShape &shape)
{
    const GeneratedFabric plain = generateShape(shape, false);
    const GeneratedFabric virtualised = generateShape(shape, true);
    const Result<Routing> ftree = routeFabric(QStringLiteral("ftree"), plain.fabric, {});
    if (!ftree)
        qFatal("ftree: %s", qPrintable(ftree.error().toString()));
    const VirtualisedFabric virt = *findHypervisors(virtualised.fabric);
    const PhysicalTree tree = *buildPhysicalTree(virtualised.fabric, virt);
    VSwitchRoutingOptions options;
    options.vSwitchTables = false;
    const Result<VSwitchRouting> vswitch = routeVSwitchFatTree(virtualised.fabric, virt, tree, options);
    if (!vswitch)
        qFatal("vswitch-ftree: %s", qPrintable(vswitch.error().toString()));
    FtreeComparison out;
    if (plain.hosts.size() != virtualised.hosts.size())
        qFatal("host counts differ");
    for (const PhysicalTree::Switch &sw : tree.switches) {
        const SwitchForwardingTable *theirs = ftree->tables.find(sw.guid);
        const SwitchForwardingTable *ours = vswitch->routing.tables.find(sw.guid);
        if (!theirs || !ours)
            qFatal("switch %llx missing from a table", static_cast<unsigned long long>(sw.guid));
        for (std::size_t h = 0; h < plain.hosts.size(); ++h) {
            const Lid hostLid = plain.fabric.nodeLid(plain.hosts[h]);
            const Hypervisor &hyp = virt.hypervisors[std::size_t(virt.hypervisorOfNode[std::size_t(virtualised.hosts[h])])];
            const Lid vmLid = hyp.vfs.front().lid;
            ++out.compared;
            if (theirs->lft.port(hostLid) != ours->lft.port(vmLid)) {
                ++out.differingByLevel[sw.level];
                if (out.differing++ == 0) {
                    out.firstDifference = QStringLiteral("%1: host %2 (LID %3) port %4, %5 VF1 (LID %6) port %7")
                                              .arg(plain.fabric.node(sw.node).description)
                                              .arg(h)
                                              .arg(hostLid)
                                              .arg(theirs->lft.port(hostLid))
                                              .arg(hyp.name)
                                              .arg(vmLid)
                                              .arg(ours->lft.port(vmLid));
                }
            }
        }
    }
    return out;
}

}  // namespace

class TestVSwitch : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // T1.
    void lidConstants()
    {
        QCOMPARE(kUnicastLidCount, int(0xBFFF));
        QCOMPARE(lftBlockOf(63), 0);
        QCOMPARE(lftBlockOf(64), 1);
        QCOMPARE(lftBlockOf(49151), 767);
        QCOMPARE(kFullLftBlocks, 768);
        QCOMPARE(lftBlocksInUse(49151), 768);
    }

    // T2: one switch, two nodes; a single high LID costs 768 SMPs instead of 1.
    void fullPushSmps_data()
    {
        QTest::addColumn<int>("highLid");
        QTest::addColumn<int>("smps");
        QTest::addRow("LIDs 1..3") << 3 << 1;
        QTest::addRow("one node at 49151") << 49151 << 768;
    }
    void fullPushSmps()
    {
        QFETCH(int, highLid);
        QFETCH(int, smps);
        LinearForwardingTable lft;
        lft.setPort(1, 0);
        lft.setPort(2, 1);
        lft.setPort(Lid(highLid), 2);
        QCOMPARE(lft.blockCount(), smps);
        QCOMPARE(lftBlocksInUse(lft.top()), smps);
    }

    // T3: Table 2.
    void table2_data()
    {
        QTest::addColumn<int>("nodes");
        QTest::addColumn<int>("switches");
        QTest::addColumn<int>("lids");
        QTest::addColumn<int>("blocks");
        QTest::addColumn<int>("full");
        QTest::addColumn<int>("maxSwap");
        QTest::addRow("324 nodes") << 324 << 36 << 360 << 6 << 216 << 72;
        QTest::addRow("648 nodes") << 648 << 54 << 702 << 11 << 594 << 108;
        QTest::addRow("5832 nodes") << 5832 << 972 << 6804 << 107 << 104004 << 1944;
        QTest::addRow("11664 nodes") << 11664 << 1620 << 13284 << 208 << 336960 << 3240;
    }
    void table2()
    {
        QFETCH(int, nodes);
        QFETCH(int, switches);
        const ReconfigurationCostRow row = reconfigurationCost(nodes, switches);
        QTEST(int(row.lids), "lids");
        QTEST(int(row.blocksPerSwitch), "blocks");
        QTEST(int(row.fullSmps), "full");
        QTEST(int(row.maxSwapCopySmps), "maxSwap");
        QCOMPARE(int(row.minSwapCopySmps), 1);
    }
    void table2Reductions()
    {
        QVERIFY(qAbs(reconfigurationCost(324, 36).reduction() - 0.667) < 0.001);
        QVERIFY(qAbs(reconfigurationCost(11664, 1620).reduction() - 0.9904) < 0.0001);
    }

    // T4: k fitted to Fig. 7.
    void timingModel()
    {
        QVERIFY(qAbs(reconfigurationSeconds(4608) - 0.300) <= 0.030);
        QVERIFY(qAbs(reconfigurationSeconds(3240) - 0.210) <= 0.021);
    }

    // T18 and §1.4, in the spec's model and in Weft's (vSwitch LID of its own).
    void lidCapacity()
    {
        QCOMPARE(maxVfsPerHypervisor(LidModel::Spec, 1620, 11664), std::int64_t(3));
        QCOMPARE(lidsNeeded(LidScheme::Prepopulated, LidModel::Spec, 1620, 11664, 3, 0), std::int64_t(48276));
        QCOMPARE(lidsNeeded(LidScheme::Prepopulated, LidModel::Spec, 1620, 11664, 4, 0), std::int64_t(59940));
        QCOMPARE(maxRunningVms(LidModel::Spec, 1620, 11664), std::int64_t(35867));
        QCOMPARE(maxHypervisors(LidModel::Spec, 1620, 3), std::int64_t((49151 - 1620) / 4));
        // Weft: one more LID per hypervisor.
        QCOMPARE(maxVfsPerHypervisor(LidModel::Weft, 1620, 11664), std::int64_t(2));
        QCOMPARE(maxRunningVms(LidModel::Weft, 1620, 11664), std::int64_t(35867 - 11664));
        QCOMPARE(lidsNeeded(LidScheme::Dynamic, LidModel::Weft, 1620, 11664, 4, 100), std::int64_t(1620 + 2 * 11664 + 100));
        // 18-bit LIDs: the legacy 16-bit space (pLIDs) plus the vLIDs of the secondary LFT is
        // 2^18, and that LFT is 3,072 blocks of 64 (spec 001 §1.2).
        QCOMPARE(65536 + kExtendedVLidCount, 1 << 18);
        QCOMPARE(kExtendedVLidCount / 64, 3072);
        QCOMPARE(kExtendedVLidCount % 64, 0);
    }

    // A generated hypervisor fabric uses what the Weft model says.
    void generatedFabricLidCount()
    {
        const GeneratedFabric g = generateXgft(QStringLiteral("2;4,4;4,1"), 3);
        const VirtualisedFabric virt = *findHypervisors(g.fabric);
        QCOMPARE(int(virt.hypervisors.size()), 16);
        QCOMPARE(int(virt.physicalSwitches.size()), 8);
        QCOMPARE(virt.scheme, LidScheme::Prepopulated);
        QCOMPARE(std::int64_t(g.fabric.maxLid()), lidsNeeded(LidScheme::Prepopulated, LidModel::Weft, 8, 16, 3, 0));
        QCOMPARE(virt.hypervisors[5].name, QStringLiteral("hyp0005"));
        QCOMPARE(virt.findHypervisor(QStringLiteral("hyp0005")), 5);
        int h = -1, vf = -1;
        QVERIFY(virt.findVf(g.fabric, QStringLiteral("hyp0003 VF2"), &h, &vf));
        QCOMPARE(h, 3);
        QCOMPARE(vf, 1);
        QVERIFY(!virt.findVf(g.fabric, QStringLiteral("hyp0003 VF9"), &h, &vf));
        QVERIFY(!findHypervisors(generateFabric(GeneratorOptions{}).value().fabric).ok());
    }

    // T7, T8: marking on Fig. 4's XGFT(4;2,2,2,2;2,2,2,1).
    void markingFig4_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<int>("commonLevel");
        QTest::addColumn<QStringList>("expected");  // tuples; empty: check the count only
        QTest::addColumn<int>("count");
        QTest::addRow("Fig. 5: 3.0.0.0 to 3.0.1.1")
            << "3.0.0.0" << "3.0.1.1" << 1
            << QString(QStringLiteral("3.0.0.0 3.0.1.1 2.0.0.0 2.0.0.1 2.0.1.0 2.0.1.1 1.0.0.0 1.0.0.1 1.0.1.0 1.0.1.1")).split(QLatin1Char(' ')) << 10;
        QTest::addRow("same leaf") << "3.0.1.0" << "3.0.1.0" << 3 << QString(QStringLiteral("3.0.1.0")).split(QLatin1Char(' ')) << 1;
        QTest::addRow("3.0.0.0 to 3.0.0.1") << "3.0.0.0" << "3.0.0.1" << 2
                                            << QString(QStringLiteral("3.0.0.0 3.0.0.1 2.0.0.0 2.0.0.1")).split(QLatin1Char(' ')) << 4;
        QTest::addRow("3.0.0.0 to 3.1.1.0") << "3.0.0.0" << "3.1.1.0" << 0 << QStringList{} << 22;
    }
    void markingFig4()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QStringList, expected);
        const State s = analyse(generateXgft(QStringLiteral("4;2,2,2,2;2,2,2,1"), 1).fabric, {});
        QCOMPARE(int(s.tree.switches.size()), 32);
        QCOMPARE(s.tree.leafLevel, 3);
        QVERIFY(s.tree.regular);
        const SkylineMarking m = markSkyline(s.tree, denseByDescription(s, describeTuple(from)), denseByDescription(s, describeTuple(to)));
        QTEST(m.commonLevel, "commonLevel");
        QTEST(int(m.marked.size()), "count");
        if (!expected.isEmpty()) {
            std::set<int> want;
            for (const QString &t : expected)
                want.insert(denseByDescription(s, describeTuple(t)));
            QCOMPARE(std::set<int>(m.marked.begin(), m.marked.end()), want);
        }
        // 3.1.x.x: every root is marked.
        if (m.commonLevel == 0) {
            int roots = 0;
            for (int i : m.marked)
                roots += s.tree.switches[std::size_t(i)].level == 0;
            QCOMPARE(roots, 8);
        }
    }

    // Table 3 [D]: a migration between the edges of the 11,664-host tree marks 362 switches.
    void markingWorstCase11664()
    {
        GeneratorOptions o;
        o.shape = FabricShapeKind::SwitchRadix;
        o.radix = 36;
        o.levels = 3;
        o.hypervisors = true;
        o.vfsPerHypervisor = 0;
        const State s = analyse(generateFabric(o).value().fabric, {});
        QCOMPARE(int(s.tree.switches.size()), 1620);
        QCOMPARE(int(s.tree.leaves.size()), 648);
        const SkylineMarking m = markSkyline(s.tree, s.tree.leaves.front(), s.tree.leaves.back());
        QCOMPARE(m.commonLevel, 0);
        QCOMPARE(int(m.marked.size()), 362);
    }

    // T15 and T17: Fig. 2.
    void fig2()
    {
        test::TinyFabric t = twoLeafHypervisors(2, {{QStringLiteral("vSw1"), 1, 2}, {QStringLiteral("vSw2"), 1, 2},
                                                    {QStringLiteral("vSw3"), 2, 3}, {QStringLiteral("vSw4"), 2, 1}});
        const Fabric fabric = t.build();
        const VirtualisedFabric virt = *findHypervisors(fabric);
        const PhysicalTree tree = *buildPhysicalTree(fabric, virt);
        const Result<VSwitchRouting> r = routeVSwitchFatTree(fabric, virt, tree);
        QVERIFY(r.ok());
        const ForwardingTables &tables = r->routing.tables;
        auto port = [&](const char *sw, const QString &host) {
            return int(tables.find(t.guid(QLatin1String(sw)))->lft.port(t.lid(host)));
        };
        // Down-link choice at the root = the up-link the other leaf uses (3: R1, 4: R2).
        const struct { const char *vm; const char *otherLeaf; int upPort; } expected[] = {
            {"vSw1 VF1", "L2", 3}, {"vSw1 VF2", "L2", 4}, {"vSw2 VF1", "L2", 3}, {"vSw2 VF2", "L2", 4},
            {"vSw4 VF1", "L1", 3}, {"vSw3 VF1", "L1", 4}, {"vSw3 VF2", "L1", 4}, {"vSw3 VF3", "L1", 4},
        };
        for (const auto &e : expected)
            QCOMPARE(port(e.otherLeaf, QLatin1String(e.vm)), e.upPort);
        QCOMPARE(port("R1", QStringLiteral("vSw1 VF1")), 1);
        QCOMPARE(port("R2", QStringLiteral("vSw3 VF1")), 2);
        // vSw4 (1 VM) before vSw3 (3 VMs).
        QCOMPARE(fabric.node(virt.hypervisors[std::size_t(r->vSwitchOrder[2])].vSwitch).description, QStringLiteral("vSw4 vSwitch"));
        // Every cable carries 1.0 each way before the PF pass; a leaf's up-links sum to its
        // vSwitches with VMs (T17).
        for (const PhysicalTree::Switch &sw : tree.switches) {
            double down = 0;
            for (const PhysicalTree::Cable &c : sw.up) {
                QCOMPARE(r->loadDownBeforePfPass[std::size_t(c.id)], 1.0);
                QCOMPARE(r->loadUpBeforePfPass[std::size_t(c.id)], 1.0);
                down += r->loadDownBeforePfPass[std::size_t(c.id)];
            }
            if (!sw.hypervisors.empty())
                QCOMPARE(down, 2.0);
        }
        QVERIFY(validateRouting(fabric, {}, tables).ok);
    }

    // T-WFT-4 (spec 003 §3.2.6): vSwitch A with 4 VMs and B with 1, both weight 1: A's VMs
    // weigh 0.25, B's 1.0, and each vSwitch 1 in total, in vmWeights and in what
    // vswitch-ftree routes (the down weight into each leaf before the PF pass). A given vSwitch
    // weight is divided the same way.
    void vmWeightsT_WFT_4()
    {
        test::TinyFabric t = twoLeafHypervisors(1, {{QStringLiteral("vSwA"), 1, 4}, {QStringLiteral("vSwB"), 2, 1}});
        const Fabric fabric = t.build();
        const VirtualisedFabric virt = *findHypervisors(fabric);
        const PhysicalTree tree = *buildPhysicalTree(fabric, virt);
        const Guid a = t.guid(QStringLiteral("vSwA vSwitch"));

        auto check = [&](const std::map<Guid, double> &hypervisorWeights, double weightA) {
            const std::map<Guid, double> w = vmWeights(fabric, virt, hypervisorWeights);
            QCOMPARE(int(w.size()), 5);  // VMs only: no PF, no vSwitch
            double sumA = 0;
            for (int f = 1; f <= 4; ++f) {
                const double vm = w.at(t.portGuid(QStringLiteral("vSwA VF%1").arg(f)));
                QCOMPARE(vm, weightA / 4);
                sumA += vm;
            }
            QCOMPARE(sumA, weightA);
            QCOMPARE(w.at(t.portGuid(QStringLiteral("vSwB VF1"))), 1.0);

            VSwitchRoutingOptions options;
            options.hypervisorWeights = hypervisorWeights;
            const Result<VSwitchRouting> r = routeVSwitchFatTree(fabric, virt, tree, options);
            QVERIFY2(r, qPrintable(r ? QString() : r.error().toString()));
            // The VMs of a leaf's vSwitch come down the cables into that leaf.
            for (const PhysicalTree::Switch &sw : tree.switches) {
                if (sw.hypervisors.empty())
                    continue;
                double down = 0;
                for (const PhysicalTree::Cable &c : sw.up)
                    down += r->loadDownBeforePfPass[std::size_t(c.id)];
                const bool isA = virt.hypervisors[std::size_t(sw.hypervisors.front())].vSwitchGuid == a;
                QCOMPARE(down, isA ? weightA : 1.0);
            }
            QVERIFY(validateRouting(fabric, {}, r->routing.tables).ok);
        };
        check({}, 1.0);
        check({{a, 2.0}}, 2.0);
        // Without weights, the default: the engine's tables are unchanged by an explicit 1.
        VSwitchRoutingOptions unit;
        unit.hypervisorWeights = {{a, 1.0}};
        QVERIFY(routeVSwitchFatTree(fabric, virt, tree, unit)->routing.tables == routeVSwitchFatTree(fabric, virt, tree)->routing.tables);

        // Bad weights are refused, naming the vSwitch.
        VSwitchRoutingOptions bad;
        bad.hypervisorWeights = {{a, -1.0}};
        Result<VSwitchRouting> refused = routeVSwitchFatTree(fabric, virt, tree, bad);
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.contains(guidText(a)), qPrintable(refused.error().message));
        bad.hypervisorWeights = {{t.guid(QStringLiteral("L1")), 1.0}};
        refused = routeVSwitchFatTree(fabric, virt, tree, bad);
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.contains(QStringLiteral("not the GUID of a vSwitch")), qPrintable(refused.error().message));
    }

    // The engine through the registry: valid and byte-identical on a second run.
    void engineValidAndDeterministic_data()
    {
        QTest::addColumn<QString>("shape");
        QTest::addColumn<int>("vfs");
        QTest::addRow("XGFT(2;4,4;4,1), 2 VFs") << "2;4,4;4,1" << 2;
        QTest::addRow("XGFT(3;2,2,2;2,2,1), 3 VFs") << "3;2,2,2;2,2,1" << 3;
        QTest::addRow("XGFT(3;4,2,2;2,2,1), 1 VF") << "3;4,2,2;2,2,1" << 1;
    }
    void engineValidAndDeterministic()
    {
        QFETCH(QString, shape);
        QFETCH(int, vfs);
        const GeneratedFabric g = generateXgft(shape, vfs);
        const Result<Routing> a = routeFabric(QStringLiteral("vswitch-ftree"), g.fabric, {});
        const Result<Routing> b = routeFabric(QStringLiteral("vswitch-ftree"), g.fabric, {});
        QVERIFY2(a.ok(), a.ok() ? "" : qPrintable(a.error().toString()));
        QCOMPARE(a->tables.size(), g.fabric.switches().size());
        QCOMPARE(writeLftDump(a->tables, &g.fabric), writeLftDump(b->tables, &g.fabric));
        const ValidationResult v = validateRouting(g.fabric, {}, a->tables);
        QVERIFY2(v.ok, qPrintable(v.problems.join(QLatin1Char('\n'))));
        QVERIFY(lftCoverageWarnings(a->tables, g.fabric).isEmpty());
    }

    // T9/T10: within one leaf FTreeMinRC marks only the leaf; ItRC touches every switch where
    // the two PFs' entries differ (the paper's Fig. 3 reports 6 of 12).
    void intraLeaf_data()
    {
        QTest::addColumn<int>("scheme");
        QTest::addRow("dynamic") << int(LidScheme::Dynamic);
        QTest::addRow("prepopulated") << int(LidScheme::Prepopulated);
    }
    void intraLeaf()
    {
        QFETCH(int, scheme);
        State s = routed(generateXgft(QStringLiteral("3;2,2,2;2,2,1"), 2).fabric);
        QCOMPARE(int(s.tree.switches.size()), 12);
        if (LidScheme(scheme) == LidScheme::Dynamic)
            s = freeLastVfs(std::move(s));
        MigrationRequest req;
        req.hypervisor = 0;
        req.vf = 0;
        req.destination = 1;  // same leaf
        req.scheme = LidScheme(scheme);
        req.method = ReconfigurationMethod::FTreeMinRC;
        const Result<MigrationPlan> minrc = planMigration(s.fabric, s.virt, s.tree, s.tables, req);
        QVERIFY2(minrc.ok(), minrc.ok() ? "" : qPrintable(minrc.error().toString()));
        QCOMPARE(minrc->marked.size(), std::size_t(1));
        QCOMPARE(minrc->candidateSwitches, 1);
        QCOMPARE(minrc->switchesTouched, 1);
        QCOMPARE(minrc->smps, minrc->mPrime);
        req.method = ReconfigurationMethod::ItRC;
        const Result<MigrationPlan> itrc = planMigration(s.fabric, s.virt, s.tree, s.tables, req);
        QVERIFY(itrc.ok());
        // ItRC's n' from the LFTs: switches whose entries for the old and new route differ.
        const Lid a = s.virt.hypervisors[0].vfs[0].lid;
        const Lid b = LidScheme(scheme) == LidScheme::Dynamic ? s.virt.hypervisors[1].pfLid : itrc->y;
        int differing = 0;
        for (const PhysicalTree::Switch &sw : s.tree.switches)
            differing += s.tables.find(sw.guid)->lft.port(a) != s.tables.find(sw.guid)->lft.port(b);
        QCOMPARE(itrc->switchesTouched, differing);
        QVERIFY(itrc->switchesTouched >= minrc->switchesTouched);
        if (itrc->switchesTouched != 6)
            qInfo("ItRC touched %d of 12 switches (the paper's Fig. 3 reports 6; its LFTs are not given)", itrc->switchesTouched);
        const ReconfiguredFabric after = *applyMigration(s.fabric, s.tables, *minrc);
        QVERIFY(validateRouting(after.fabric, {}, after.tables).ok);
    }

    // T11: swap and m'.
    void swapBlocks()
    {
        QCOMPARE(lftBlockOf(70) == lftBlockOf(100) ? 1 : 2, 1);
        QCOMPARE(lftBlockOf(63) == lftBlockOf(64) ? 1 : 2, 2);
        const State s = routed(generateXgft(QStringLiteral("2;4,4;4,1"), 3).fabric);
        // hyp0000 VF1 has LID 11 (8 switches, then vSwitch, PF, VF1..3 per hypervisor); pick a
        // destination VF in another block.
        MigrationRequest req;
        req.hypervisor = 0;
        req.vf = 0;
        req.destination = 15;
        req.destinationVf = 2;
        req.scheme = LidScheme::Prepopulated;
        req.method = ReconfigurationMethod::ItRC;
        const MigrationPlan plan = *planMigration(s.fabric, s.virt, s.tree, s.tables, req);
        QCOMPARE(plan.x, Lid(11));
        QCOMPARE(plan.y, s.virt.hypervisors[15].vfs[2].lid);
        QCOMPARE(plan.mPrime, 2);
        QCOMPARE(plan.smps, 2 * plan.switchesTouched);
        const ReconfiguredFabric after = *applyMigration(s.fabric, s.tables, plan);
        for (const PhysicalTree::Switch &sw : s.tree.switches) {
            const LinearForwardingTable &before = s.tables.find(sw.guid)->lft;
            const LinearForwardingTable &now = after.tables.find(sw.guid)->lft;
            QCOMPARE(now.port(plan.x), before.port(plan.y));
            QCOMPARE(now.port(plan.y), before.port(plan.x));
        }
        QCOMPARE(after.fabric.nodeLid(s.virt.hypervisors[15].vfs[2].node), plan.x);
        QCOMPARE(after.fabric.nodeLid(s.virt.hypervisors[0].vfs[0].node), plan.y);
        QVERIFY(validateRouting(after.fabric, {}, after.tables).ok);
    }

    // T12: copy semantics, and boot costs one SMP per physical switch.
    void copyAndBoot()
    {
        State s = freeLastVfs(routed(generateXgft(QStringLiteral("2;4,4;4,1"), 2).fabric));
        QCOMPARE(s.virt.scheme, LidScheme::Dynamic);
        MigrationRequest req;
        req.hypervisor = 2;
        req.vf = 0;
        req.destination = 9;
        req.method = ReconfigurationMethod::ItRC;
        const MigrationPlan plan = *planMigration(s.fabric, s.virt, s.tree, s.tables, req);
        QCOMPARE(plan.smps, plan.switchesTouched);
        const ReconfiguredFabric after = *applyMigration(s.fabric, s.tables, plan);
        for (const PhysicalTree::Switch &sw : s.tree.switches)
            QCOMPARE(after.tables.find(sw.guid)->lft.port(plan.x), s.tables.find(sw.guid)->lft.port(s.virt.hypervisors[9].pfLid));

        // Boot a VM on a free VF: the lowest free LID, one SMP on every physical switch.
        const Lid freed = s.virt.hypervisors[0].vfs[1].lid == 0 ? Lid(0) : Lid(1);
        QCOMPARE(freed, Lid(0));
        const Result<VmLifecycle> boot = bootVm(s.fabric, s.virt, s.tables, 4, 1);
        QVERIFY(boot.ok());
        QCOMPARE(boot->smps, int(s.tree.switches.size()));
        QVERIFY(s.fabric.portByLid(boot->lid) == kNoIndex);
        QVERIFY(validateRouting(boot->fabric, {}, boot->tables).ok);
        const Result<VmLifecycle> again = bootVm(boot->fabric, *findHypervisors(boot->fabric), boot->tables, 4, 1);
        QCOMPARE(again->smps, 0);  // it has a LID now: nothing to do
    }

    // T13, T14 and the invariants: seeded random sequences of migrations.
    void randomMigrations_data()
    {
        QTest::addColumn<QString>("shape");
        QTest::addColumn<int>("method");
        QTest::addColumn<int>("scheme");
        for (const char *shape : {"3;2,2,2;2,2,1", "3;4,2,2;2,2,1"}) {
            for (int m : {int(ReconfigurationMethod::ItRC), int(ReconfigurationMethod::FTreeMinRC)}) {
                for (int sc : {int(LidScheme::Dynamic), int(LidScheme::Prepopulated)}) {
                    QTest::addRow("%s, %s, %s", shape, qPrintable(reconfigurationMethodName(ReconfigurationMethod(m))),
                                  qPrintable(lidSchemeName(LidScheme(sc))))
                        << QString::fromLatin1(shape) << m << sc;
                }
            }
        }
    }
    void randomMigrations()
    {
        QFETCH(QString, shape);
        QFETCH(int, method);
        QFETCH(int, scheme);
        State s = routed(generateXgft(shape, 2).fabric);
        if (LidScheme(scheme) == LidScheme::Dynamic)
            s = freeLastVfs(std::move(s));
        std::mt19937_64 random(7);
        const int hyps = int(s.virt.hypervisors.size());
        const int migrations = 2 * hyps;  // 2·nodes, as the paper runs
        int performed = 0;
        for (int i = 0; i < migrations; ++i) {
            MigrationRequest req;
            req.scheme = LidScheme(scheme);
            req.method = ReconfigurationMethod(method);
            do {
                req.hypervisor = int(random() % std::uint64_t(hyps));
                req.vf = int(random() % 2);
            } while (s.virt.hypervisors[std::size_t(req.hypervisor)].vfs[std::size_t(req.vf)].lid == 0
                     || (LidScheme(scheme) == LidScheme::Prepopulated && req.vf != 0));
            do {
                req.destination = int(random() % std::uint64_t(hyps));
            } while (req.destination == req.hypervisor);
            if (LidScheme(scheme) == LidScheme::Prepopulated)
                req.destinationVf = 1;  // VF2s stay unoccupied: the free slots
            else if (s.virt.hypervisors[std::size_t(req.destination)].freeVfs() == 0)
                continue;
            const Result<MigrationPlan> plan = planMigration(s.fabric, s.virt, s.tree, s.tables, req);
            QVERIFY2(plan.ok(), plan.ok() ? "" : qPrintable(plan.error().toString()));
            // FTreeMinRC never touches more switches than ItRC.
            MigrationRequest other = req;
            other.method = ReconfigurationMethod(method) == ReconfigurationMethod::ItRC ? ReconfigurationMethod::FTreeMinRC
                                                                                       : ReconfigurationMethod::ItRC;
            const Result<MigrationPlan> otherPlan = planMigration(s.fabric, s.virt, s.tree, s.tables, other);
            QVERIFY(otherPlan.ok());
            const MigrationPlan &minrc = ReconfigurationMethod(method) == ReconfigurationMethod::FTreeMinRC ? *plan : *otherPlan;
            const MigrationPlan &itrc = ReconfigurationMethod(method) == ReconfigurationMethod::FTreeMinRC ? *otherPlan : *plan;
            QVERIFY(minrc.switchesTouched <= itrc.switchesTouched);
            QVERIFY(itrc.smps <= 2 * int(s.tree.switches.size()));
            // Determinism.
            const MigrationPlan again = *planMigration(s.fabric, s.virt, s.tree, s.tables, req);
            QCOMPARE(again.updates.size(), plan->updates.size());
            for (std::size_t u = 0; u < again.updates.size(); ++u)
                QCOMPARE(again.updates[u].guid, plan->updates[u].guid);

            Result<ReconfiguredFabric> after = applyMigration(s.fabric, s.tables, *plan);
            QVERIFY2(after.ok(), after.ok() ? "" : qPrintable(after.error().toString()));
            // Safe order: no transient loop, no down-up turn.
            const TransientReport transient = checkTransientStates(after->fabric, s.tree, s.tables, *plan);
            QCOMPARE(transient.states, 1 + plan->switchesTouched);
            QCOMPARE(transient.statesWithLoop, 0);
            QCOMPARE(transient.statesWithDownUpTurn, 0);
            // Every pair still reachable, and the VM's LID ends at its VF on the destination.
            const ValidationResult v = validateRouting(after->fabric, {}, after->tables);
            QVERIFY2(v.ok, qPrintable(QStringLiteral("migration %1: ").arg(i) + v.problems.join(QLatin1Char('\n'))));
            const NodeIndex vfNode = s.virt.hypervisors[std::size_t(req.destination)].vfs[std::size_t(plan->destinationVf)].node;
            QCOMPARE(after->fabric.nodeLid(vfNode), plan->x);
            for (int leaf : s.tree.leaves)
                QCOMPARE(follow(after->fabric, after->tables, s.tree.switches[std::size_t(leaf)].node, plan->x), vfNode);
            s = analyse(std::move(after->fabric), std::move(after->tables));
            ++performed;
        }
        QVERIFY2(performed >= hyps, qPrintable(QStringLiteral("only %1 migrations").arg(performed)));
        // Drift against a fresh route is measurable, and a full re-route has none.
        const RoutingDrift drift = *routingDrift(s.fabric, s.tables);
        QVERIFY(drift.entriesCompared > 0);
        QVERIFY(drift.maxCableLoadFresh > 0);
        const Result<Routing> fresh = routeFabric(QStringLiteral("vswitch-ftree"), s.fabric, {});
        QCOMPARE(routingDrift(s.fabric, fresh->tables)->entriesDiffering, std::int64_t(0));
    }

    // The full method re-routes: no drift, and the SMPs are its block diff.
    void fullMethod()
    {
        State s = freeLastVfs(routed(generateXgft(QStringLiteral("2;4,4;4,1"), 2).fabric));
        MigrationRequest req;
        req.hypervisor = 0;
        req.vf = 0;
        req.destination = 12;
        req.method = ReconfigurationMethod::Full;
        const MigrationPlan plan = *planMigration(s.fabric, s.virt, s.tree, s.tables, req);
        QVERIFY(plan.smps >= 1);
        const ReconfiguredFabric after = *applyMigration(s.fabric, s.tables, plan);
        QCOMPARE(routingDrift(after.fabric, after.tables)->entriesDiffering, std::int64_t(0));
        QVERIFY(validateRouting(after.fabric, {}, after.tables).ok);
    }

    // T6: Fig. 4's XGFT(4;2,2,2,2;2,2,2,1): the spec's tuple facts, Def. 1 on every pair of
    // adjacent-level switches, and OpenSM ftree's ranks and leaf indexing on the same tree.
    void tuplesFig4_data()
    {
        QTest::addColumn<QString>("tuple");
        QTest::addColumn<QStringList>("up");    // empty: roots
        QTest::addColumn<QStringList>("down");  // empty: leaves (hosts only)
        QTest::addRow("2.0.0.1") << "2.0.0.1" << QStringList{QStringLiteral("1.0.0.1"), QStringLiteral("1.0.1.1")}
                                 << QStringList{QStringLiteral("3.0.0.0"), QStringLiteral("3.0.0.1")};
        QTest::addRow("1.0.1.1") << "1.0.1.1" << QStringList{QStringLiteral("0.0.1.1"), QStringLiteral("0.1.1.1")}
                                 << QStringList{QStringLiteral("2.0.0.1"), QStringLiteral("2.0.1.1")};
    }
    void tuplesFig4()
    {
        QFETCH(QString, tuple);
        QFETCH(QStringList, up);
        QFETCH(QStringList, down);
        const GeneratedFabric g = generateShape(*parseXgft(QStringLiteral("4;2,2,2,2;2,2,2,1")), false);
        const Fabric &f = g.fabric;
        QCOMPARE(int(f.switches().size()), 32);
        QCOMPARE(g.switchesPerLevel, (std::vector<int>{8, 8, 8, 8}));
        // Sw_{1_3}: the fourth switch of row 1.
        QCOMPARE(f.node(f.switches()[8 + 3]).description, QStringLiteral("L1 aggr 3"));
        QCOMPARE(tupleOfSwitch(f, f.switches()[8 + 3]), QStringLiteral("1.0.1.1"));

        NodeIndex sw = kNoIndex;
        for (NodeIndex n : f.switches()) {
            if (tupleOfSwitch(f, n) == tuple)
                sw = n;
        }
        QVERIFY(sw != kNoIndex);
        QCOMPARE(neighbourTuples(f, sw, true), std::set<QString>(up.begin(), up.end()));
        QCOMPARE(neighbourTuples(f, sw, false), std::set<QString>(down.begin(), down.end()));

        // Def. 1 on every pair of adjacent levels; 2 children per root, 2 parents per non-root.
        for (NodeIndex a : f.switches()) {
            const QString ta = tupleOfSwitch(f, a);
            const int level = ta.left(1).toInt();
            const std::set<QString> children = neighbourTuples(f, a, false);
            const std::set<QString> parents = neighbourTuples(f, a, true);
            if (level == 0)
                QCOMPARE(children.size(), std::size_t(2));
            else
                QCOMPARE(parents.size(), std::size_t(2));
            for (NodeIndex b : f.switches()) {
                const QString tb = tupleOfSwitch(f, b);
                if (tb.left(1).toInt() == level + 1)
                    QCOMPARE(children.count(tb) == 1, linkedByDefinition1(ta, tb));
            }
        }

        // OpenSM ftree's view of the same tree: its rank is the Def. 1 level, its groups give
        // 2 children per root and 2 parents per non-root, and its leaf order (by OpenSM tuple)
        // keeps each level-l sub-tree's leaves together, which is Def. 1's prefix rule.
        FatTreeEngine ftree;
        QVERIFY(ftree.prepare(f, {}, {}).ok());
        const std::vector<int> ranks = ftree.switchRanks();
        QCOMPARE(ranks.size(), f.switches().size());
        for (std::size_t i = 0; i < ranks.size(); ++i)
            QCOMPARE(ranks[i], tupleOfSwitch(f, f.switches()[i]).left(1).toInt());
        const Result<routing::FatTreeLayout> layout = routing::analyseFatTree(f, true, QStringLiteral("ftree"));
        QVERIFY(layout.ok());
        QCOMPARE(layout->leafRank, 3);
        for (const routing::FatTreeLayout::Switch &s : layout->switches) {
            if (s.rank == 0)
                QCOMPARE(s.down.size(), std::size_t(2));
            else
                QCOMPARE(s.up.size(), std::size_t(2));
        }
        std::vector<QString> leafTuples;
        for (Guid guid : ftree.leafOrder())
            leafTuples.push_back(tupleOfSwitch(f, f.nodeByGuid(guid)));
        QCOMPARE(leafTuples.size(), std::size_t(8));
        for (int level = 1; level <= 2; ++level) {
            const std::size_t block = std::size_t(8 >> level);  // leaves per level-l sub-tree
            for (std::size_t i = 0; i < leafTuples.size(); ++i) {
                for (std::size_t j = 0; j < leafTuples.size(); ++j) {
                    // Leaves share level-l ancestors iff x_1..x_l agree (§1.7 tuple semantics).
                    const bool sameBlock = i / block == j / block;
                    const bool samePrefix = leafTuples[i].mid(2, 2 * level - 1) == leafTuples[j].mid(2, 2 * level - 1);
                    QCOMPARE(samePrefix, sameBlock);
                }
            }
        }
    }

    // T16: with one VM per hypervisor, vswitch-ftree's VM entries are OpenSM ftree's host
    // entries (§2.2, the paper's §7 claim), on the Table 4 and Table 2 topologies.
    void ftreeEquivalence_data()
    {
        QTest::addColumn<QString>("shape");
        QTest::addRow("Table 4: 4-ary-2-full") << "2;8,4;4,1";
        QTest::addRow("Table 4: 8-ary-2") << "2;8,8;8,1";
        QTest::addRow("Table 4: 4-ary-3-full") << "3;8,4,4;4,4,1";
        QTest::addRow("Table 4: 16-ary-2") << "2;16,16;16,1";
        QTest::addRow("Table 4: 8-ary-3") << "3;8,8,8;8,8,1";
        QTest::addRow("Table 4: 8-ary-3-full") << "3;16,8,8;8,8,1";
        QTest::addRow("Table 2: 324 nodes") << "2;18,18;18,1";
        QTest::addRow("Table 2: 648 nodes") << "2;36,18;18,1";
        if (test::kLargestRows)  // the normal build; under the sanitizers the rows above
            QTest::addRow("Table 2: 5832 nodes") << "3;18,18,18;18,18,1";
    }
    void ftreeEquivalence()
    {
        QFETCH(QString, shape);
        const XgftShape xgft = *parseXgft(shape);
        QElapsedTimer timer;
        timer.start();
        const FtreeComparison c = compareWithFtree(xgft);
        qInfo("%s: %lld of %lld entries differ (%lld ms)%s", qPrintable(xgft.toString()), static_cast<long long>(c.differing),
              static_cast<long long>(c.compared), static_cast<long long>(timer.elapsed()),
              qPrintable(c.firstDifference.isEmpty() ? QString() : QStringLiteral("; first: ") + c.firstDifference));
        for (const auto &[level, count] : c.differingByLevel)
            qInfo("  level %d: %lld differ", level, static_cast<long long>(count));
        QCOMPARE(c.compared, std::int64_t(xgft.switchCount() * xgft.hostCount()));
        QVERIFY2(c.differing == 0, qPrintable(c.firstDifference));
    }

    // T19: the simulation grid of Table 4, with the VM counts and random-migration counts of
    // the spec's derived table (§6.5).
    void simulationGrid_data()
    {
        QTest::addColumn<QString>("shape");
        QTest::addColumn<QList<int>>("vms");  // at 25, 50, 75%
        QTest::addColumn<int>("migrations");
        QTest::addRow("4-ary-2-full") << "2;8,4;4,1" << QList<int>{32, 64, 96} << 64;
        QTest::addRow("8-ary-2") << "2;8,8;8,1" << QList<int>{64, 128, 192} << 128;
        QTest::addRow("4-ary-3-full") << "3;8,4,4;4,4,1" << QList<int>{128, 256, 384} << 256;
        QTest::addRow("16-ary-2") << "2;16,16;16,1" << QList<int>{256, 512, 768} << 512;
        QTest::addRow("8-ary-3") << "3;8,8,8;8,8,1" << QList<int>{512, 1024, 1536} << 1024;
        QTest::addRow("8-ary-3-full") << "3;16,8,8;8,8,1" << QList<int>{1024, 2048, 3072} << 2048;
    }
    void simulationGrid()
    {
        QFETCH(QString, shape);
        QFETCH(QList<int>, vms);
        QFETCH(int, migrations);
        const XgftShape xgft = *parseXgft(shape);
        const std::vector<SimulationConfiguration> grid = simulationConfigurations(std::int64_t(xgft.hostCount()));
        QCOMPARE(int(grid.size()), 21);
        std::set<std::tuple<int, int, int>> distinct;
        std::map<int, int> perPopulation;
        std::map<int, int> perPattern;
        for (const SimulationConfiguration &c : grid) {
            distinct.insert({c.populationPercent, int(c.initial), int(c.pattern)});
            ++perPopulation[c.populationPercent];
            ++perPattern[int(c.pattern)];
            QCOMPARE(c.vfsPerHypervisor, 4);
            QCOMPARE(c.vms, std::int64_t(vms[c.populationPercent / 25 - 1]));
            QVERIFY(!(c.pattern == MigrationPattern::ToUniform && c.initial == VmDistribution::Uniform));
            QCOMPARE(c.randomMigrations, c.pattern == MigrationPattern::Random ? std::int64_t(migrations) : std::int64_t(0));
        }
        QCOMPARE(int(distinct.size()), 21);
        QCOMPARE(perPopulation, (std::map<int, int>{{25, 7}, {50, 7}, {75, 7}}));
        QCOMPARE(perPattern, (std::map<int, int>{{int(MigrationPattern::Random), 6},
                                                 {int(MigrationPattern::Consolidate), 6},
                                                 {int(MigrationPattern::Grouping), 6},
                                                 {int(MigrationPattern::ToUniform), 3}}));
        QCOMPARE(grid[8].name(), QStringLiteral("50%, uniform start, consolidate"));
        QVERIFY(simulationConfigurations(0).empty());
    }
    void simulationGridLargest()
    {
        std::int64_t largest = 0;
        for (const char *shape : {"2;8,4;4,1", "2;8,8;8,1", "3;8,4,4;4,4,1", "2;16,16;16,1", "3;8,8,8;8,8,1", "3;16,8,8;8,8,1"}) {
            for (const SimulationConfiguration &c : simulationConfigurations(std::int64_t(parseXgft(QLatin1String(shape))->hostCount())))
                largest = std::max(largest, c.vms);
        }
        QCOMPARE(largest, std::int64_t(3072));
    }

    void badRequests()
    {
        State s = routed(generateXgft(QStringLiteral("2;4,4;4,1"), 1).fabric);
        MigrationRequest req;
        req.hypervisor = 0;
        req.vf = 0;
        req.destination = 3;
        req.scheme = LidScheme::Dynamic;  // every VF has a LID: none is free
        const Result<MigrationPlan> full = planMigration(s.fabric, s.virt, s.tree, s.tables, req);
        QVERIFY(!full.ok());
        QVERIFY2(full.error().message.contains(QStringLiteral("hyp0003 has no free VF")), qPrintable(full.error().message));
        s = freeLastVfs(std::move(s));
        const Result<MigrationPlan> noVm = planMigration(s.fabric, s.virt, s.tree, s.tables, req);
        QVERIFY(!noVm.ok());
        QVERIFY2(noVm.error().message.contains(QStringLiteral("hyp0000 VF1 runs no VM")), qPrintable(noVm.error().message));
        req.destination = 99;
        QVERIFY(!planMigration(s.fabric, s.virt, s.tree, s.tables, req).ok());
        QVERIFY(!shutdownVm(s.fabric, s.virt, s.tables, 0, 0).ok());
    }
};

QTEST_GUILESS_MAIN(TestVSwitch)
#include "tst_vswitch.moc"
