// SlimUpdate and metabase-aided routing (spec 003 §4): the cost metrics (§4.2), the §9 cases
// T-IB-2, T-SU-1..4 and T-MB-1..4 with the values worked out in the spec, and invariants on
// generated fat-trees (valid tables, SlimUpdate never dearer than a full re-route, determinism).

#include "FabricGenerator.h"
#include "FatTreeLayout.h"
#include "GeneratedFabrics.h"
#include "MetabaseRouting.h"
#include "RouteWalk.h"
#include "SlimUpdate.h"
#include "TrafficModel.h"
#include "Validation.h"

#include <QtTest>

#include <map>
#include <numeric>
#include <random>

using namespace weft;

Q_DECLARE_METATYPE(weft::test::Shape)

namespace {

// Spec 003 §9's two-leaf tree (T-WFT-1): spines S1, S2 (GUIDs ascending), leaves L1, L2 with
// four hosts each on ports 1..4, up-links on ports 5 (S1) and 6 (S2). LIDs fixed per name, so
// that a fabric without a host keeps everybody else's LIDs.
struct Tree
{
    Fabric fabric;
    std::map<QString, Guid> portGuid;
    std::map<QString, Lid> lid;
    std::map<QString, Guid> switchGuid;
};

const QStringList kHosts = {QStringLiteral("n1"), QStringLiteral("n2"), QStringLiteral("n3"), QStringLiteral("n4"),
                            QStringLiteral("n5"), QStringLiteral("n6"), QStringLiteral("n7"), QStringLiteral("n8")};

Tree twoLeafTree(const QStringList &absent = {}, bool failL1S1 = false)
{
    Tree t;
    FabricBuilder b;
    auto check = [](const QString &problem) {
        if (!problem.isEmpty())
            qFatal("test fabric: %s", qPrintable(problem));
    };
    std::map<QString, NodeIndex> node;
    auto addSwitch = [&](const QString &name, Guid guid, int ports, Lid lid) {
        FabricBuilder::NodeSpec spec;
        spec.type = NodeType::Switch;
        spec.guid = guid;
        spec.portCount = ports;
        spec.name = spec.description = name;
        check(b.addNode(spec, &node[name]));
        check(b.setPortLid(node[name], 0, lid, 0));
        t.switchGuid[name] = guid;
    };
    addSwitch(QStringLiteral("S1"), 0x0002c90000000040ULL, 2, 1);
    addSwitch(QStringLiteral("S2"), 0x0002c90000000041ULL, 2, 2);
    addSwitch(QStringLiteral("L1"), 0x0002c90000000010ULL, 6, 3);
    addSwitch(QStringLiteral("L2"), 0x0002c90000000011ULL, 6, 4);
    for (int l = 0; l < 2; ++l) {
        const QString leaf = QStringLiteral("L%1").arg(l + 1);
        if (!(failL1S1 && l == 0))
            check(b.connect(node[leaf], 5, node[QStringLiteral("S1")], l + 1));
        check(b.connect(node[leaf], 6, node[QStringLiteral("S2")], l + 1));
    }
    for (int i = 0; i < kHosts.size(); ++i) {
        const QString &h = kHosts[i];
        if (absent.contains(h))
            continue;
        FabricBuilder::NodeSpec spec;
        spec.type = NodeType::ChannelAdapter;
        spec.guid = 0x0002c91000000000ULL + 0x100ULL * Guid(i + 1);
        spec.portCount = 1;
        spec.name = spec.description = h;
        check(b.addNode(spec, &node[h]));
        t.lid[h] = Lid(5 + i);
        check(b.setPortLid(node[h], 1, t.lid[h], 0));
        check(b.connect(node[h], 1, node[i < 4 ? QStringLiteral("L1") : QStringLiteral("L2")], i % 4 + 1));
        t.portGuid[h] = spec.guid + 1;
    }
    Result<Fabric> f = std::move(b).build();
    if (!f)
        qFatal("test fabric: %s", qPrintable(f.error().toString()));
    t.fabric = std::move(f).value();
    return t;
}

Tenancy weighted(const Tree &t, const std::map<QString, double> &weights)
{
    Tenancy tenancy;
    for (const auto &[host, w] : weights)
        tenancy.nodeWeights[t.portGuid.at(host)] = w;
    return tenancy;
}

std::uint8_t entry(const Tree &t, const ForwardingTables &tables, const QString &sw, const QString &host)
{
    const SwitchForwardingTable *table = tables.find(t.switchGuid.at(sw));
    return table ? table->lft.port(t.lid.at(host)) : kNoRoute;
}

// The spine a host of L1 is reached through from L2 (and vice versa): "S1", "S2" or "".
QString via(const Tree &t, const ForwardingTables &tables, const QString &host)
{
    const bool onL1 = kHosts.indexOf(host) < 4;
    const std::uint8_t port = entry(t, tables, onL1 ? QStringLiteral("L2") : QStringLiteral("L1"), host);
    return port == 5 ? QStringLiteral("S1") : port == 6 ? QStringLiteral("S2") : QString();
}

// Weighted down load per spine into L1, as §9 counts it.
std::map<QString, double> downIntoL1(const Tree &t, const ForwardingTables &tables, const std::map<QString, double> &w)
{
    std::map<QString, double> load;
    for (int i = 0; i < 4; ++i) {
        const QString &h = kHosts[i];
        if (!t.lid.count(h))
            continue;
        load[via(t, tables, h)] += w.count(h) ? w.at(h) : 1.0;
    }
    return load;
}

double maxOf(const std::map<QString, double> &load)
{
    double most = 0;
    for (const auto &[k, v] : load)
        most = std::max(most, v);
    return most;
}

// Entries for LIDs first..last that differ, over the switches of `b`.
int changedEntries(const ForwardingTables &a, const ForwardingTables &b, int first, int last)
{
    int changed = 0;
    for (const SwitchForwardingTable &sw : b.switches()) {
        const SwitchForwardingTable *old = a.find(sw.guid);
        for (int lid = first; lid <= last; ++lid)
            changed += !old || old->lft.port(Lid(lid)) != sw.lft.port(Lid(lid));
    }
    return changed;
}

ForwardingTables routed(const QString &engine, const Fabric &fabric, const Tenancy &tenancy = {})
{
    Result<Routing> r = routeFabric(engine, fabric, tenancy);
    if (!r)
        qFatal("%s: %s", qPrintable(engine), qPrintable(r.error().toString()));
    return r->tables;
}

GeneratedFabric generate(int kind, int size, int levels, int removeLinks, std::uint64_t seed = 1)
{
    return test::generate({FabricShapeKind(kind), size, levels, removeLinks}, seed);
}

// A performance-driven change: a seeded tenth of the hosts (at least two) become heavy receivers.
Tenancy heavyReceivers(const Fabric &fabric, std::uint64_t seed)
{
    Tenancy tenancy;
    std::vector<Guid> ports;
    for (NodeIndex n : fabric.endNodes())
        ports.push_back(fabric.port(fabric.portOf(n, 1)).guid);
    std::mt19937_64 random(seed);
    const std::size_t heavy = std::max<std::size_t>(2, ports.size() / 10);
    for (std::size_t i = 0; i < heavy && !ports.empty(); ++i) {
        const std::size_t pick = std::size_t(random() % ports.size());
        tenancy.nodeWeights[ports[pick]] = 10.0;
        ports.erase(ports.begin() + std::ptrdiff_t(pick));
    }
    return tenancy;
}

// ftree's CA order (leaves in ftree index order, ports in order) as port GUIDs, leaf by leaf.
std::vector<std::vector<Guid>> caOrderByLeaf(const Fabric &fabric)
{
    Result<routing::FatTreeLayout> layout = routing::analyseFatTree(fabric, false, QStringLiteral("test"));
    if (!layout)
        qFatal("layout: %s", qPrintable(layout.error().toString()));
    std::vector<std::vector<Guid>> byLeaf;
    for (int leaf : layout->leaves) {
        byLeaf.emplace_back();
        for (int cn : layout->computeNodesOfSwitch[std::size_t(leaf)])
            byLeaf.back().push_back(layout->computeNodes[std::size_t(cn)].portGuid);
    }
    return byLeaf;
}

// A seeded shuffle that draws the same on every standard library.
template <typename T>
void shuffled(std::vector<T> &items, std::mt19937_64 &random)
{
    for (std::size_t i = items.size(); i > 1; --i)
        std::swap(items[i - 1], items[std::size_t(uniformBelow(random, i))]);
}

// Per shift distance d = 1..N-1 of the permutation rank i -> rank (i + d) mod N over `ranks`
// (port GUIDs in rank order): the most of its flows any directed switch-to-switch link carries
// (ORCS's max congestion of that level). Empty if some flow is not delivered.
std::vector<int> shiftCongestion(const Fabric &fabric, const ForwardingTables &tables, const std::vector<Guid> &ranks)
{
    const TablesByNode tableOf(fabric, tables);
    const std::size_t n = ranks.size();
    std::vector<PortIndex> port(n);
    for (std::size_t i = 0; i < n; ++i)
        port[i] = fabric.portByGuid(ranks[i]);
    std::vector<int> worst;
    std::vector<int> flows(fabric.ports().size());
    for (std::size_t d = 1; d < n; ++d) {
        std::fill(flows.begin(), flows.end(), 0);
        for (std::size_t i = 0; i < n; ++i) {
            const PortIndex to = port[(i + d) % n];
            PortIndex arrived = kNoIndex;
            const RouteEnd end = walkRouteFromPort(fabric, tableOf, port[i], fabric.port(to).lid, [&](const RouteHop &hop) {
                if (fabric.node(hop.from).type == NodeType::Switch && hop.intoSwitch)
                    ++flows[std::size_t(hop.out)];
                arrived = hop.remote;
                return true;
            });
            if (end != RouteEnd::AtEndNode || arrived != to)
                return {};
        }
        worst.push_back(*std::max_element(flows.begin(), flows.end()));
    }
    return worst;
}

int sum(const std::vector<int> &values)
{
    return std::accumulate(values.begin(), values.end(), 0);
}

// How many of the destinations `shared` the busiest directed switch-to-switch link carries
// traffic to, from every end port: 1 when their paths share no link.
int mostSharedLink(const Fabric &fabric, const ForwardingTables &tables, const std::vector<Guid> &shared)
{
    const TablesByNode tableOf(fabric, tables);
    std::vector<int> destinations(fabric.ports().size(), 0);
    for (Guid g : shared) {
        const PortIndex to = fabric.portByGuid(g);
        std::vector<char> crossed(fabric.ports().size(), 0);
        for (NodeIndex n : fabric.endNodes()) {
            const PortIndex from = fabric.portOf(n, 1);
            if (from == to)
                continue;
            walkRouteFromPort(fabric, tableOf, from, fabric.port(to).lid, [&](const RouteHop &hop) {
                if (fabric.node(hop.from).type == NodeType::Switch && hop.intoSwitch)
                    crossed[std::size_t(hop.out)] = 1;
                return true;
            });
        }
        for (std::size_t p = 0; p < crossed.size(); ++p)
            destinations[p] += crossed[p];
    }
    return *std::max_element(destinations.begin(), destinations.end());
}

}  // namespace

class TestReconfiguration : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // §4.2 and T-IB-2: entries, blocks, switches.
    void blockAndEntryCounts_data()
    {
        QTest::addColumn<QList<int>>("changedLids");
        QTest::addColumn<int>("entries");
        QTest::addColumn<int>("blocks");
        QTest::addRow("no change") << QList<int>{} << 0 << 0;
        QTest::addRow("LIDs 5 and 6: one block") << QList<int>{5, 6} << 2 << 1;
        QTest::addRow("LIDs 5 and 70: two blocks") << QList<int>{5, 70} << 2 << 2;
        QTest::addRow("LID 0xBFFF: block 767") << QList<int>{0xBFFF} << 1 << 1;
    }
    void blockAndEntryCounts()
    {
        QFETCH(QList<int>, changedLids);
        QFETCH(int, entries);
        QFETCH(int, blocks);
        const Tree t = twoLeafTree();
        const ForwardingTables a = routed(QStringLiteral("ftree"), t.fabric);
        ForwardingTables b = a;
        const int l2 = b.indexOf(t.switchGuid.at(QStringLiteral("L2")));
        for (int lid : changedLids)
            b.lft(std::size_t(l2)).setPort(Lid(lid), b.lft(std::size_t(l2)).port(Lid(lid)) == 1 ? 2 : 1);
        const ReconfigurationCost cost = reconfigurationCost(t.fabric, a, t.fabric, b);
        QCOMPARE(int(cost.entryChanges), entries);
        QCOMPARE(int(cost.blockChanges), blocks);
        QCOMPARE(int(cost.switchesChanged), blocks > 0 ? 1 : 0);
    }

    // A switch the installed tables do not know counts with every block it routes (T-IB-3).
    void newSwitchCountsAllBlocks()
    {
        const Tree t = twoLeafTree();
        const ForwardingTables b = routed(QStringLiteral("ftree"), t.fabric);
        const ReconfigurationCost cost = reconfigurationCost(t.fabric, ForwardingTables{}, t.fabric, b);
        QCOMPARE(int(cost.blockChanges), 4);  // 4 switches, LIDs 1..12 in block 0
        std::uint64_t routes = 0;
        for (const SwitchForwardingTable &s : b.switches())
            routes += s.lft.routeCount();
        QCOMPARE(cost.entryChanges, routes);
        QCOMPARE(int(cost.pairs), 8 * 7);
        QCOMPARE(int(cost.pathModifications), 8 * 7);
    }

    // T-SU-1: nothing changed, nothing moves; on the tiny tree and on generated ones, from
    // ftree's and wftree's tables.
    void idempotence_data()
    {
        QTest::addColumn<QString>("installedBy");
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("levels");
        for (const QString &engine : {QStringLiteral("ftree"), QStringLiteral("wftree")}) {
            QTest::addRow("%s, 4-ary 2-tree", qPrintable(engine)) << engine << int(FabricShapeKind::KaryNTree) << 4 << 2;
            QTest::addRow("%s, 4-ary 3-tree", qPrintable(engine)) << engine << int(FabricShapeKind::KaryNTree) << 4 << 3;
            QTest::addRow("%s, radix 8, 3 levels", qPrintable(engine)) << engine << int(FabricShapeKind::SwitchRadix) << 8 << 3;
        }
    }
    void idempotence()
    {
        QFETCH(QString, installedBy);
        QFETCH(int, kind);
        QFETCH(int, size);
        QFETCH(int, levels);
        const GeneratedFabric g = generate(kind, size, levels, 0);
        const ForwardingTables a = routed(installedBy, g.fabric);
        Result<Reconfiguration> slim = slimUpdate(g.fabric, a, Tenancy{});
        QVERIFY2(slim, qPrintable(slim ? QString() : slim.error().toString()));
        QCOMPARE(int(slim->cost.entryChanges), 0);
        QCOMPARE(int(slim->cost.blockChanges), 0);
        QCOMPARE(int(slim->cost.pathModifications), 0);
    }

    // With nothing installed SlimUpdate has nothing to keep: it is wftree, weights and all.
    void withoutInstalledTablesIsWftree_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("levels");
        QTest::addColumn<int>("removeLinks");
        QTest::addRow("4-ary 2-tree") << int(FabricShapeKind::KaryNTree) << 4 << 2 << 0;
        QTest::addRow("4-ary 3-tree") << int(FabricShapeKind::KaryNTree) << 4 << 3 << 0;
        QTest::addRow("radix 8, 3 levels, 3 links down") << int(FabricShapeKind::SwitchRadix) << 8 << 3 << 3;
    }
    void withoutInstalledTablesIsWftree()
    {
        QFETCH(int, kind);
        QFETCH(int, size);
        QFETCH(int, levels);
        QFETCH(int, removeLinks);
        const GeneratedFabric g = generate(kind, size, levels, removeLinks);
        const Tenancy tenancy = heavyReceivers(g.fabric, 7);
        Result<Reconfiguration> slim = slimUpdate(g.fabric, ForwardingTables{}, tenancy);
        QVERIFY(slim);
        QVERIFY(slim->hasFullReroute);
        QVERIFY(slim->proposal.tables == slim->fullReroute.tables);
    }

    // T-SU-2: n1 leaves. ftree's recompute shifts the order on L1; SlimUpdate keeps everyone.
    void nodeRemoval()
    {
        const Tree before = twoLeafTree();
        const Tree after = twoLeafTree({QStringLiteral("n1")});
        const ForwardingTables a = routed(QStringLiteral("ftree"), before.fabric);
        for (const auto &[host, spine] : std::map<QString, QString>{{QStringLiteral("n1"), QStringLiteral("S1")},
                                                                   {QStringLiteral("n2"), QStringLiteral("S2")},
                                                                   {QStringLiteral("n3"), QStringLiteral("S1")},
                                                                   {QStringLiteral("n4"), QStringLiteral("S2")}})
            QCOMPARE(via(before, a, host), spine);

        SlimUpdateOptions options;
        options.baselineEngine = QStringLiteral("ftree");
        Result<Reconfiguration> r = slimUpdate(before.fabric, a, after.fabric, Tenancy{}, options);
        QVERIFY(r);
        QVERIFY2(r->hasFullReroute, qPrintable(r->fullRerouteError));
        const ForwardingTables &full = r->fullReroute.tables;
        QCOMPARE(via(after, full, QStringLiteral("n2")), QStringLiteral("S1"));
        QCOMPARE(via(after, full, QStringLiteral("n3")), QStringLiteral("S2"));
        QCOMPARE(via(after, full, QStringLiteral("n4")), QStringLiteral("S1"));
        // §9 counts the end-node columns: 7. OpenSM's ftree also re-balances the switch LIDs,
        // whose entries ΔE counts too; those the test counts on its own.
        QCOMPARE(changedEntries(a, full, 5, 12), 7);
        QCOMPARE(int(r->fullRerouteCost.entryChanges), 7 + changedEntries(a, full, 1, 4));
        QCOMPARE(int(r->fullRerouteCost.blockChanges), 4);
        QCOMPARE(int(r->fullRerouteCost.pathModifications), 12);

        const ForwardingTables &slim = r->proposal.tables;
        QCOMPARE(via(after, slim, QStringLiteral("n2")), QStringLiteral("S2"));
        QCOMPARE(via(after, slim, QStringLiteral("n3")), QStringLiteral("S1"));
        QCOMPARE(via(after, slim, QStringLiteral("n4")), QStringLiteral("S2"));
        QCOMPARE(changedEntries(a, slim, 5, 12), 4);
        QCOMPARE(int(r->cost.entryChanges), 4 + changedEntries(a, slim, 1, 4));
        QCOMPARE(changedEntries(a, slim, 1, 4), 0);
        QCOMPARE(int(r->cost.blockChanges), 4);
        QCOMPARE(int(r->cost.pathModifications), 0);
        const std::map<QString, double> load = downIntoL1(after, slim, {});
        QCOMPARE(load.at(QStringLiteral("S1")), 1.0);
        QCOMPARE(load.at(QStringLiteral("S2")), 2.0);
        QVERIFY(validateRouting(after.fabric, Tenancy{}, slim).ok);
    }

    // T-SU-3: n1 and n3 become storage nodes (weight 10).
    void weightChange_data()
    {
        QTest::addColumn<double>("slack");
        QTest::addColumn<int>("paths");
        QTest::addColumn<double>("loadS1");
        QTest::addColumn<double>("loadS2");
        QTest::addRow("tau 0: balanced, same moves as wftree") << 0.0 << 8 << 11.0 << 11.0;
        QTest::addRow("tau 1: one move, a little imbalance") << 1.0 << 4 << 10.0 << 12.0;
    }
    void weightChange()
    {
        QFETCH(double, slack);
        QFETCH(int, paths);
        QFETCH(double, loadS1);
        QFETCH(double, loadS2);
        const Tree t = twoLeafTree();
        const ForwardingTables a = routed(QStringLiteral("ftree"), t.fabric);
        const std::map<QString, double> storage{{QStringLiteral("n1"), 10.0}, {QStringLiteral("n3"), 10.0}};
        SlimUpdateOptions options;
        options.slack = slack;
        Result<Reconfiguration> r = slimUpdate(t.fabric, a, weighted(t, storage), options);
        QVERIFY(r);
        QVERIFY(r->hasFullReroute);
        // Full wFTree: n1->S1, n3->S2, n2->S1, n4->S2; n2 and n3 move.
        const ForwardingTables &full = r->fullReroute.tables;
        QCOMPARE(via(t, full, QStringLiteral("n2")), QStringLiteral("S1"));
        QCOMPARE(via(t, full, QStringLiteral("n3")), QStringLiteral("S2"));
        QCOMPARE(int(r->fullRerouteCost.pathModifications), 8);
        QCOMPARE(maxOf(downIntoL1(t, full, storage)), 11.0);

        QCOMPARE(int(r->cost.pathModifications), paths);
        QVERIFY(r->cost.pathModifications <= r->fullRerouteCost.pathModifications);
        const std::map<QString, double> load = downIntoL1(t, r->proposal.tables, storage);
        QCOMPARE(load.at(QStringLiteral("S1")), loadS1);
        QCOMPARE(load.at(QStringLiteral("S2")), loadS2);
        QCOMPARE(via(t, r->proposal.tables, QStringLiteral("n1")), QStringLiteral("S1"));
        QCOMPARE(via(t, r->proposal.tables, QStringLiteral("n3")), QStringLiteral("S2"));
        QVERIFY(validateRouting(t.fabric, Tenancy{}, r->proposal.tables).ok);
    }

    // T-SU-4: L1-S1 fails. Destinations that did not use the link keep their entries.
    void linkFailure()
    {
        const Tree before = twoLeafTree();
        const Tree after = twoLeafTree({}, true);
        const ForwardingTables a = routed(QStringLiteral("ftree"), before.fabric);
        Result<Reconfiguration> r = slimUpdate(before.fabric, a, after.fabric, Tenancy{});
        QVERIFY(r);
        QVERIFY2(r->hasFullReroute, qPrintable(r->fullRerouteError));
        const ValidationResult valid = validateRouting(after.fabric, Tenancy{}, r->proposal.tables);
        QVERIFY2(valid.ok, qPrintable(valid.problems.join(QStringLiteral("; "))));
        QVERIFY(r->cost.pathModifications <= r->fullRerouteCost.pathModifications);
        QVERIFY(r->cost.pathModifications > 0);
        for (const QString &h : {QStringLiteral("n2"), QStringLiteral("n4")})  // reached through S2 before
            QCOMPARE(entry(after, r->proposal.tables, QStringLiteral("L2"), h), entry(before, a, QStringLiteral("L2"), h));
        for (const QString &h : {QStringLiteral("n6"), QStringLiteral("n8")})
            QCOMPARE(entry(after, r->proposal.tables, QStringLiteral("L1"), h), entry(before, a, QStringLiteral("L1"), h));
        // Whoever went down S1 into L1 now goes through S2.
        for (const QString &h : {QStringLiteral("n1"), QStringLiteral("n3")})
            QCOMPARE(via(after, r->proposal.tables, h), QStringLiteral("S2"));
    }

    // T-MB-1: K = 4 slots per leaf, 8 slot columns; PORT_ORDER reproduces ftree.
    void metabasePortOrderIsFtree()
    {
        const Tree t = twoLeafTree();
        Metabase metabase;
        MetabaseOptions options;
        options.policy = SlotPolicy::PortOrder;
        options.baselineEngine = QStringLiteral("ftree");
        Result<MetabaseRun> run = metabase.reroute(t.fabric, ForwardingTables{}, Tenancy{}, options);
        QVERIFY2(run, qPrintable(run ? QString() : run.error().toString()));
        QCOMPARE(run->slotsPerLeaf, 4);
        QCOMPARE(run->leaves, 2);
        QVERIFY(!run->hit);
        QVERIFY(run->reconfiguration.hasFullReroute);
        QVERIFY(run->reconfiguration.proposal.tables == run->reconfiguration.fullReroute.tables);
    }

    // T-MB-2: same topology -> hit and no phase 1; a link or switch change -> miss.
    void metabaseHitsAndMisses()
    {
        const Tree t = twoLeafTree();
        Metabase metabase;
        Result<MetabaseRun> first = metabase.reroute(t.fabric, ForwardingTables{}, Tenancy{});
        QVERIFY(first);
        QVERIFY(!first->hit);
        QVERIFY(first->calculationNanoseconds > 0);
        const std::map<QString, double> storage{{QStringLiteral("n1"), 10.0}, {QStringLiteral("n3"), 10.0}};
        Result<MetabaseRun> second = metabase.reroute(t.fabric, first->reconfiguration.proposal.tables, weighted(t, storage));
        QVERIFY(second);
        QVERIFY(second->hit);
        QCOMPARE(second->calculationNanoseconds, std::int64_t(0));
        QCOMPARE(second->fingerprint, first->fingerprint);
        QCOMPARE(metabase.size(), std::size_t(1));

        const Tree broken = twoLeafTree({}, true);
        QVERIFY(topologyFingerprint(broken.fabric) != first->fingerprint);
        Result<MetabaseRun> third = metabase.reroute(t.fabric, first->reconfiguration.proposal.tables, broken.fabric, Tenancy{});
        QVERIFY(third);
        QVERIFY(!third->hit);
        QCOMPARE(metabase.size(), std::size_t(2));
        QVERIFY(validateRouting(broken.fabric, Tenancy{}, third->reconfiguration.proposal.tables).ok);
    }

    // T-MB-3 and T-MB-4 on T-WFT-1's weights.
    void metabaseWeightedAndSticky_data()
    {
        QTest::addColumn<int>("policy");
        QTest::addRow("weighted") << int(SlotPolicy::Weighted);
        QTest::addRow("sticky") << int(SlotPolicy::Sticky);
    }
    void metabaseWeightedAndSticky()
    {
        QFETCH(int, policy);
        const Tree t = twoLeafTree();
        const ForwardingTables a = routed(QStringLiteral("ftree"), t.fabric);
        const std::map<QString, double> storage{{QStringLiteral("n1"), 10.0}, {QStringLiteral("n3"), 10.0}};
        Metabase metabase;
        MetabaseOptions options;
        options.policy = SlotPolicy(policy);
        Result<MetabaseRun> run = metabase.reroute(t.fabric, a, weighted(t, storage), options);
        QVERIFY(run);
        const Reconfiguration &r = run->reconfiguration;
        QCOMPARE(maxOf(downIntoL1(t, r.proposal.tables, storage)), 11.0);
        QVERIFY(validateRouting(t.fabric, Tenancy{}, r.proposal.tables).ok);
        if (SlotPolicy(policy) == SlotPolicy::Sticky) {
            QVERIFY(r.hasFullReroute);
            QVERIFY(r.cost.pathModifications <= r.fullRerouteCost.pathModifications);
            // Nothing changed since: sticky keeps every slot.
            Result<MetabaseRun> again = metabase.reroute(t.fabric, r.proposal.tables, weighted(t, storage), options);
            QVERIFY(again);
            QCOMPARE(int(again->reconfiguration.cost.entryChanges), 0);
        }
    }

    // T-MB-5 (§4.6): MPI_ORDER on full-bisection trees. The ranks are ftree's CA order with the
    // ports of each leaf shuffled (and, on two-level trees, the leaves too): PORT_ORDER ignores
    // the rank order and blocks some shift, MPI_ORDER routes as if the ranks were the CA order
    // and every shift distance has max congestion 1, so ORCS's sum_max_cong = N - 1. A job on
    // part of the fabric is reassigned alone; the other ports keep their installed slots.
    void metabaseMpiOrderShiftIsNonBlocking_data()
    {
        QTest::addColumn<test::Shape>("shape");
        QTest::addColumn<bool>("shuffleLeaves");
        QTest::addColumn<int>("jobLeaves");  // 0: every leaf
        QTest::addColumn<std::uint64_t>("seed");
        const test::Shape kary42{FabricShapeKind::KaryNTree, 4, 2}, kary43{FabricShapeKind::KaryNTree, 4, 3};
        const test::Shape radix82{FabricShapeKind::SwitchRadix, 8, 2}, radix83{FabricShapeKind::SwitchRadix, 8, 3};
        QTest::addRow("4-ary 2-tree") << kary42 << false << 0 << std::uint64_t(1);
        QTest::addRow("4-ary 2-tree, leaves shuffled") << kary42 << true << 0 << std::uint64_t(2);
        QTest::addRow("4-ary 3-tree") << kary43 << false << 0 << std::uint64_t(3);
        QTest::addRow("radix 8, 2 levels, leaves shuffled") << radix82 << true << 0 << std::uint64_t(4);
        QTest::addRow("radix 8, 3 levels") << radix83 << false << 0 << std::uint64_t(5);
        QTest::addRow("radix 8, 2 levels, job on 4 of 8 leaves") << radix82 << true << 4 << std::uint64_t(6);
    }
    void metabaseMpiOrderShiftIsNonBlocking()
    {
        QFETCH(test::Shape, shape);
        QFETCH(bool, shuffleLeaves);
        QFETCH(int, jobLeaves);
        QFETCH(std::uint64_t, seed);
        const GeneratedFabric g = test::generate(shape);
        const ForwardingTables installed = routed(QStringLiteral("ftree"), g.fabric);
        std::vector<std::vector<Guid>> byLeaf = caOrderByLeaf(g.fabric);
        std::mt19937_64 random(seed);
        for (std::vector<Guid> &leaf : byLeaf)
            shuffled(leaf, random);
        if (shuffleLeaves)
            shuffled(byLeaf, random);
        if (jobLeaves > 0)
            byLeaf.resize(std::size_t(jobLeaves));
        std::vector<Guid> ranks;
        for (const std::vector<Guid> &leaf : byLeaf)
            ranks.insert(ranks.end(), leaf.begin(), leaf.end());
        const int levelsOfShift = int(ranks.size()) - 1;

        Metabase metabase;
        MetabaseOptions options;
        options.baselineEngine.clear();
        options.policy = SlotPolicy::PortOrder;
        Result<MetabaseRun> portOrder = metabase.reroute(g.fabric, installed, Tenancy{}, options);
        QVERIFY(portOrder);
        const std::vector<int> oblivious = shiftCongestion(g.fabric, portOrder->reconfiguration.proposal.tables, ranks);
        QCOMPARE(int(oblivious.size()), levelsOfShift);
        QVERIFY2(sum(oblivious) > levelsOfShift, "the shuffled rank order should block under PORT_ORDER");

        options.policy = SlotPolicy::MpiOrder;
        options.nodeOrder = ranks;
        Result<MetabaseRun> mpi = metabase.reroute(g.fabric, installed, Tenancy{}, options);
        QVERIFY2(mpi, qPrintable(mpi ? QString() : mpi.error().toString()));
        QVERIFY(mpi->hit);
        const ForwardingTables &tables = mpi->reconfiguration.proposal.tables;
        QVERIFY(mpi->reconfiguration.proposal.warnings.isEmpty());
        const ValidationResult valid = validateRouting(g.fabric, Tenancy{}, tables);
        QVERIFY2(valid.ok, qPrintable(valid.problems.join(QStringLiteral("; "))));
        const std::vector<int> congestion = shiftCongestion(g.fabric, tables, ranks);
        QCOMPARE(int(congestion.size()), levelsOfShift);
        QCOMPARE(*std::max_element(congestion.begin(), congestion.end()), 1);
        QCOMPARE(sum(congestion), levelsOfShift);
        qInfo("%s, %d ranks: sum_max_cong port-order %d, mpi-order %d", qPrintable(g.summary), int(ranks.size()),
              sum(oblivious), sum(congestion));

        // The ports outside the job keep their installed columns (STICKY from ftree's tables).
        std::vector<Guid> job = ranks;
        std::sort(job.begin(), job.end());
        for (NodeIndex n : g.fabric.endNodes()) {
            const Port &port = g.fabric.port(g.fabric.portOf(n, 1));
            if (std::binary_search(job.begin(), job.end(), port.guid))
                continue;
            for (const SwitchForwardingTable &sw : tables.switches())
                QCOMPARE(sw.lft.port(port.lid), installed.find(sw.guid)->lft.port(port.lid));
        }
    }

    // MPI_ORDER needs a rank order of end ports, each once; what is wrong is named.
    void metabaseMpiOrderRejectsBadOrders()
    {
        const Tree t = twoLeafTree();
        const Guid n1 = t.portGuid.at(QStringLiteral("n1"));
        const Guid n2 = t.portGuid.at(QStringLiteral("n2"));
        const Guid l1 = t.switchGuid.at(QStringLiteral("L1"));
        const struct
        {
            std::vector<Guid> order;
            QString expected;
        } cases[] = {
            {{}, QStringLiteral("empty")},
            {{n1, 0x1234ULL}, guidText(0x1234ULL)},
            {{n1, l1}, guidText(l1) + QStringLiteral(" in the node order is a switch")},
            {{n1, n2, n1}, QStringLiteral("port %1 is in the node order twice").arg(guidText(n1))},
            {{n1, n2 - 1 /* n2's node GUID: its port */, n2}, QStringLiteral("port %1 is in the node order twice").arg(guidText(n2))},
        };
        for (const auto &c : cases) {
            MetabaseOptions options;
            options.policy = SlotPolicy::MpiOrder;
            options.nodeOrder = c.order;
            Result<MetabaseRun> run = Metabase().reroute(t.fabric, ForwardingTables{}, Tenancy{}, options);
            QVERIFY(!run);
            QVERIFY2(run.error().message.contains(c.expected), qPrintable(run.error().message));
        }
        MetabaseOptions options;
        options.policy = SlotPolicy::Priority;
        options.priorityNodes = {n1, l1};
        Result<MetabaseRun> run = Metabase().reroute(t.fabric, ForwardingTables{}, Tenancy{}, options);
        QVERIFY(!run);
        QVERIFY2(run.error().message.contains(guidText(l1)), qPrintable(run.error().message));

        // Two ranks of L1 whose CA-order positions both hold slot index 0: one is displaced and
        // the proposal says so.
        options = {};
        options.policy = SlotPolicy::MpiOrder;
        options.nodeOrder = {n1, t.portGuid.at(QStringLiteral("n5")), n2};
        Result<MetabaseRun> displaced = Metabase().reroute(t.fabric, ForwardingTables{}, Tenancy{}, options);
        QVERIFY(displaced);
        QVERIFY2(displaced->reconfiguration.proposal.warnings.join(QLatin1Char('\n')).contains(QStringLiteral("1 of 3 ranks")),
                 qPrintable(displaced->reconfiguration.proposal.warnings.join(QLatin1Char('\n'))));
        QVERIFY(validateRouting(t.fabric, Tenancy{}, displaced->reconfiguration.proposal.tables).ok);
    }

    // PRIORITY: the high-priority ports choose first, each the slot whose links the fewest
    // other priority ports cross; the rest are WEIGHTED.
    void metabasePriority()
    {
        const Tree t = twoLeafTree();
        auto run = [&](SlotPolicy policy, const QStringList &priority, const std::map<QString, double> &weights) {
            MetabaseOptions options;
            options.policy = policy;
            for (const QString &h : priority)
                options.priorityNodes.push_back(t.portGuid.at(h));
            Result<MetabaseRun> r = Metabase().reroute(t.fabric, ForwardingTables{}, weighted(t, weights), options);
            if (!r)
                qFatal("metabase: %s", qPrintable(r.error().toString()));
            return r->reconfiguration.proposal.tables;
        };
        auto guids = [&](const QStringList &hosts) {
            std::vector<Guid> result;
            for (const QString &h : hosts)
                result.push_back(t.portGuid.at(h));
            return result;
        };

        // WEIGHTED puts n2 (6) and n3 (5) behind one spine, as the two lighter of n1's (10)
        // companions; with both high-priority they split, and n1, the heaviest of the rest,
        // joins the lighter priority port, as WEIGHTED places the rest.
        const std::map<QString, double> w{{QStringLiteral("n1"), 10.0}, {QStringLiteral("n2"), 6.0}, {QStringLiteral("n3"), 5.0}, {QStringLiteral("n4"), 1.0}};
        const QStringList pair{QStringLiteral("n2"), QStringLiteral("n3")};
        const ForwardingTables weightedTables = run(SlotPolicy::Weighted, {}, w);
        QCOMPARE(via(t, weightedTables, QStringLiteral("n2")), via(t, weightedTables, QStringLiteral("n3")));
        QCOMPARE(mostSharedLink(t.fabric, weightedTables, guids(pair)), 2);
        const ForwardingTables priorityTables = run(SlotPolicy::Priority, pair, w);
        QVERIFY(via(t, priorityTables, QStringLiteral("n2")) != via(t, priorityTables, QStringLiteral("n3")));
        QCOMPARE(mostSharedLink(t.fabric, priorityTables, guids(pair)), 1);
        QCOMPARE(via(t, priorityTables, QStringLiteral("n1")), via(t, priorityTables, QStringLiteral("n3")));
        QCOMPARE(via(t, priorityTables, QStringLiteral("n4")), via(t, priorityTables, QStringLiteral("n2")));
        QVERIFY(validateRouting(t.fabric, Tenancy{}, priorityTables).ok);

        // Unit weights: PORT_ORDER sends n1 and n3 (and n5 and n7) down one spine; PRIORITY
        // gives each of the four a spine link of its own.
        const QStringList four{QStringLiteral("n1"), QStringLiteral("n3"), QStringLiteral("n5"), QStringLiteral("n7")};
        QCOMPARE(mostSharedLink(t.fabric, run(SlotPolicy::PortOrder, {}, {}), guids(four)), 2);
        const ForwardingTables spread = run(SlotPolicy::Priority, four, {});
        QCOMPARE(mostSharedLink(t.fabric, spread, guids(four)), 1);
        QVERIFY(validateRouting(t.fabric, Tenancy{}, spread).ok);
        // The order the ports are listed in does not matter.
        QVERIFY(run(SlotPolicy::Priority, {four[3], four[1], four[2], four[0]}, {}) == spread);
    }

    // PRIORITY on generated and degraded trees: valid, deterministic, and the priority ports
    // share no more than under PORT_ORDER where PORT_ORDER makes them share.
    void metabasePriorityGenerated_data()
    {
        QTest::addColumn<test::Shape>("shape");
        QTest::addRow("radix 12, 2 levels, 3 links down") << test::Shape{FabricShapeKind::SwitchRadix, 12, 2, 3};
        QTest::addRow("radix 8, 3 levels, 3 links down") << test::Shape{FabricShapeKind::SwitchRadix, 8, 3, 3};
        QTest::addRow("4-ary 3-tree") << test::Shape{FabricShapeKind::KaryNTree, 4, 3, 0};
    }
    void metabasePriorityGenerated()
    {
        QFETCH(test::Shape, shape);
        const GeneratedFabric g = test::generate(shape, 7);
        // The first two ports of every leaf in CA order: PORT_ORDER gives them slots 0 and 1.
        std::vector<Guid> priority;
        for (const std::vector<Guid> &leaf : caOrderByLeaf(g.fabric))
            for (std::size_t i = 0; i < std::min<std::size_t>(2, leaf.size()); ++i)
                priority.push_back(leaf[i]);
        MetabaseOptions options;
        options.baselineEngine.clear();
        options.policy = SlotPolicy::PortOrder;
        Metabase metabase;
        Result<MetabaseRun> portOrder = metabase.reroute(g.fabric, ForwardingTables{}, Tenancy{}, options);
        QVERIFY(portOrder);
        options.policy = SlotPolicy::Priority;
        options.priorityNodes = priority;
        Result<MetabaseRun> first = metabase.reroute(g.fabric, ForwardingTables{}, Tenancy{}, options);
        QVERIFY2(first, qPrintable(first ? QString() : first.error().toString()));
        const ForwardingTables &tables = first->reconfiguration.proposal.tables;
        const ValidationResult valid = validateRouting(g.fabric, Tenancy{}, tables);
        QVERIFY2(valid.ok, qPrintable(valid.problems.join(QStringLiteral("; "))));
        Result<MetabaseRun> again = Metabase().reroute(g.fabric, ForwardingTables{}, Tenancy{}, options);
        QVERIFY(again && again->reconfiguration.proposal.tables == tables);
        const int before = mostSharedLink(g.fabric, portOrder->reconfiguration.proposal.tables, priority);
        const int after = mostSharedLink(g.fabric, tables, priority);
        qInfo("%s: most priority destinations on one link: port-order %d, priority %d", qPrintable(g.summary), before, after);
        QVERIFY(after <= before);
    }

    // Invariants on generated fat-trees, for the thesis's performance-driven and failure
    // reconfigurations: valid tables, SlimUpdate no dearer than a full re-route, determinism.
    void generatedScenarios_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("levels");
        QTest::addColumn<int>("failLinks");  // 0: heavy receivers appear instead
        for (int fail : {0, 1, 3}) {
            const char *what = fail == 0 ? "weights" : fail == 1 ? "1 link fails" : "3 links fail";
            QTest::addRow("4-ary 2-tree, %s", what) << int(FabricShapeKind::KaryNTree) << 4 << 2 << fail;
            QTest::addRow("4-ary 3-tree, %s", what) << int(FabricShapeKind::KaryNTree) << 4 << 3 << fail;
            QTest::addRow("radix 12, 2 levels, %s", what) << int(FabricShapeKind::SwitchRadix) << 12 << 2 << fail;
            QTest::addRow("radix 8, 3 levels, %s", what) << int(FabricShapeKind::SwitchRadix) << 8 << 3 << fail;
        }
    }
    void generatedScenarios()
    {
        QFETCH(int, kind);
        QFETCH(int, size);
        QFETCH(int, levels);
        QFETCH(int, failLinks);
        const GeneratedFabric before = generate(kind, size, levels, 0);
        const GeneratedFabric after = failLinks > 0 ? generate(kind, size, levels, failLinks, 3) : before;
        const Tenancy tenancy = failLinks > 0 ? Tenancy{} : heavyReceivers(before.fabric, 11);
        const ForwardingTables a = routed(QStringLiteral("ftree"), before.fabric);

        Result<Reconfiguration> slim = slimUpdate(before.fabric, a, after.fabric, tenancy);
        QVERIFY(slim);
        QVERIFY(slim->hasFullReroute);
        const ValidationResult valid = validateRouting(after.fabric, tenancy, slim->proposal.tables);
        QVERIFY2(valid.ok, qPrintable(valid.problems.join(QStringLiteral("; "))));
        QVERIFY(slim->cost.pathModifications <= slim->fullRerouteCost.pathModifications);
        Result<Reconfiguration> again = slimUpdate(before.fabric, a, after.fabric, tenancy);
        QVERIFY(again && again->proposal.tables == slim->proposal.tables);

        // The metabase from a state it installed itself (PORT_ORDER), then STICKY.
        Metabase metabase;
        MetabaseOptions initial;
        initial.policy = SlotPolicy::PortOrder;
        initial.baselineEngine.clear();
        Result<MetabaseRun> installedRun = metabase.reroute(before.fabric, ForwardingTables{}, tenancy, initial);
        QVERIFY(installedRun);
        const ForwardingTables &mbInstalled = installedRun->reconfiguration.proposal.tables;
        QVERIFY(mbInstalled == a);  // T-MB-1 beyond the tiny tree: PORT_ORDER reproduces ftree
        Result<MetabaseRun> mb = metabase.reroute(before.fabric, mbInstalled, after.fabric, tenancy);
        QVERIFY(mb);
        QVERIFY(mb->reconfiguration.hasFullReroute);
        QCOMPARE(mb->hit, failLinks == 0);
        // Without a topology change (a metabase hit) it must not be dearer than a full re-route;
        // after a failure phase 1 runs again and no bound is claimed (§4.5 limits).
        if (failLinks == 0)
            QVERIFY(mb->reconfiguration.cost.pathModifications <= mb->reconfiguration.fullRerouteCost.pathModifications);
        const ValidationResult mbValid = validateRouting(after.fabric, tenancy, mb->reconfiguration.proposal.tables);
        QVERIFY2(mbValid.ok, qPrintable(mbValid.problems.join(QStringLiteral("; "))));
        Metabase other;
        QVERIFY(other.reroute(before.fabric, ForwardingTables{}, tenancy, initial));
        Result<MetabaseRun> mbAgain = other.reroute(before.fabric, mbInstalled, after.fabric, tenancy);
        QVERIFY(mbAgain && mbAgain->reconfiguration.proposal.tables == mb->reconfiguration.proposal.tables);

        qInfo("%s: pairs %llu | dP full %llu, slim %llu, metabase %llu (its full %llu) | dE full %llu, slim %llu, metabase %llu"
              " | dB full %llu, slim %llu, metabase %llu",
              qPrintable(after.summary + (installedRun->reconfiguration.proposal.tables == a ? QStringLiteral(" [PORT_ORDER == ftree]")
                                                                                               : QStringLiteral(" [PORT_ORDER != ftree]"))),
              (unsigned long long)slim->cost.pairs,
              (unsigned long long)slim->fullRerouteCost.pathModifications, (unsigned long long)slim->cost.pathModifications,
              (unsigned long long)mb->reconfiguration.cost.pathModifications,
              (unsigned long long)mb->reconfiguration.fullRerouteCost.pathModifications,
              (unsigned long long)slim->fullRerouteCost.entryChanges, (unsigned long long)slim->cost.entryChanges,
              (unsigned long long)mb->reconfiguration.cost.entryChanges,
              (unsigned long long)slim->fullRerouteCost.blockChanges, (unsigned long long)slim->cost.blockChanges,
              (unsigned long long)mb->reconfiguration.cost.blockChanges);
    }

    // Bad input is an error value.
    void rejectsBadInput()
    {
        const Tree t = twoLeafTree();
        SlimUpdateOptions options;
        options.slack = -1;
        Result<Reconfiguration> r = slimUpdate(t.fabric, ForwardingTables{}, Tenancy{}, options);
        QVERIFY(!r);
        QVERIFY2(r.error().message.contains(QStringLiteral("slack")), qPrintable(r.error().message));
        Tenancy bad;
        bad.nodeWeights[t.portGuid.at(QStringLiteral("n1"))] = -3;
        Result<Reconfiguration> w = slimUpdate(t.fabric, ForwardingTables{}, bad);
        QVERIFY(!w);
        QVERIFY2(w.error().message.contains(QStringLiteral("weight")), qPrintable(w.error().message));
        Result<MetabaseRun> m = Metabase().reroute(t.fabric, ForwardingTables{}, bad);
        QVERIFY(!m);
        QVERIFY2(m.error().message.contains(QStringLiteral("weight")), qPrintable(m.error().message));
    }
};

QTEST_GUILESS_MAIN(TestReconfiguration)
#include "tst_reconfiguration.moc"
