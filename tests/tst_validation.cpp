// Validation on fabrics small enough to know the answer by hand (a forwarding loop, a missing
// entry, a credit loop on a ring that two VLs break, partitions sharing a cable against their
// policy), and on generated fat-trees routed by ftree, which must be valid.

#include "FabricGenerator.h"
#include "RoutingEngine.h"
#include "Validation.h"

#include "TinyFabric.h"

#include <QtTest>

#include <map>

using namespace weft;

namespace {

using test::TinyFabric;

// "S0: H2=3, H3=3" style: switch -> (destination -> out port).
using Routes = std::map<QString, std::map<QString, int>>;

ForwardingTables tablesFor(const TinyFabric &t, const Routes &routes)
{
    ForwardingTables tables;
    for (const auto &[sw, entries] : routes) {
        const int i = tables.addSwitch(t.guid(sw), t.lid(sw), sw);
        tables.lft(std::size_t(i)).setPort(t.lid(sw), 0);
        for (const auto &[destination, port] : entries)
            tables.lft(std::size_t(i)).setPort(t.lid(destination), std::uint8_t(port));
    }
    return tables;
}

Partition partition(const QString &name, std::uint16_t pkey, const std::vector<Guid> &fullMembers,
                    IsolationPolicy policy = IsolationPolicy::Default, const std::vector<Guid> &limitedMembers = {})
{
    Partition p;
    p.name = name;
    p.pkey = pkey;
    p.policy = policy;
    for (Guid g : fullMembers)
        p.members.push_back({PartitionMember::Kind::PortGuid, g, Membership::Full, true});
    for (Guid g : limitedMembers)
        p.members.push_back({PartitionMember::Kind::PortGuid, g, Membership::Limited, true});
    return p;
}

// Two switches joined by cables on ports 3 and 4; H0, H1 on S0 ports 1, 2; H2, H3 on S1.
// S0's port 5 has no cable.
TinyFabric twoSwitches()
{
    TinyFabric t;
    t.addSwitch(QStringLiteral("S0"), 5);
    t.addSwitch(QStringLiteral("S1"), 4);
    for (int h = 0; h < 4; ++h)
        t.addHost(QStringLiteral("H%1").arg(h));
    t.cable(QStringLiteral("S0"), 1, QStringLiteral("H0"), 1);
    t.cable(QStringLiteral("S0"), 2, QStringLiteral("H1"), 1);
    t.cable(QStringLiteral("S1"), 1, QStringLiteral("H2"), 1);
    t.cable(QStringLiteral("S1"), 2, QStringLiteral("H3"), 1);
    t.cable(QStringLiteral("S0"), 3, QStringLiteral("S1"), 3);
    t.cable(QStringLiteral("S0"), 4, QStringLiteral("S1"), 4);
    return t;
}

// Every destination by the cable on port 3, except where `split`: H1 and H3 then use port 4.
Routes twoSwitchRoutes(bool split)
{
    const int other = split ? 4 : 3;
    return {{QStringLiteral("S0"), {{QStringLiteral("H0"), 1}, {QStringLiteral("H1"), 2}, {QStringLiteral("H2"), 3}, {QStringLiteral("H3"), other}}},
            {QStringLiteral("S1"), {{QStringLiteral("H0"), 3}, {QStringLiteral("H1"), other}, {QStringLiteral("H2"), 1}, {QStringLiteral("H3"), 2}}}};
}

// Four switches in a ring (port 2 clockwise, port 3 counter-clockwise), host Hi on Si port 1,
// every destination reached clockwise.
TinyFabric ring(Routes *routes)
{
    TinyFabric t;
    for (int i = 0; i < 4; ++i)
        t.addSwitch(QStringLiteral("S%1").arg(i), 3);
    for (int i = 0; i < 4; ++i) {
        t.addHost(QStringLiteral("H%1").arg(i));
        t.cable(QStringLiteral("S%1").arg(i), 1, QStringLiteral("H%1").arg(i), 1);
        t.cable(QStringLiteral("S%1").arg(i), 2, QStringLiteral("S%1").arg((i + 1) % 4), 3);
    }
    for (int i = 0; i < 4; ++i)
        for (int d = 0; d < 4; ++d)
            (*routes)[QStringLiteral("S%1").arg(i)][QStringLiteral("H%1").arg(d)] = d == i ? 1 : 2;
    return t;
}

GeneratedFabric generate(FabricShapeKind kind, int size, int levels)
{
    GeneratorOptions options;
    options.shape = kind;
    options.arity = size;
    options.radix = size;
    options.levels = levels;
    Result<GeneratedFabric> g = generateFabric(options);
    if (!g)
        qFatal("generator: %s", qPrintable(g.error().toString()));
    return std::move(g).value();
}

} // namespace

class TestValidation : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void reachability_data()
    {
        QTest::addColumn<int>("breakage");  // 0 none, 1 S1 loops H2 back, 2 S0 lacks H3, 3 S0 sends H3 to a dead port
        QTest::addColumn<bool>("withPartitions");
        QTest::addColumn<quint64>("unreachable");
        QTest::addColumn<quint64>("unreachableOther");
        QTest::addColumn<int>("loops");
        QTest::addColumn<QString>("problem");

        // Without partitions everyone may talk (OpenSM's default partition): 4 * 3 pairs.
        QTest::addRow("correct tables") << 0 << false << quint64(0) << quint64(0) << 0 << QString();
        // S1 sends H2 to S0, which sends it back: H0, H1 and H3 never reach H2.
        QTest::addRow("forwarding loop") << 1 << false << quint64(3) << quint64(0) << 1 << QStringLiteral("forwarding loop for LID");
        QTest::addRow("missing entry") << 2 << false << quint64(2) << quint64(0) << 0 << QStringLiteral("S0 has no route to LID");
        QTest::addRow("entry to a port without cable") << 3 << false << quint64(2) << quint64(0) << 0 << QStringLiteral("which has no cable");
        // With partitions {H0,H2} and {H1,H3}, H0 -> H3 shares nothing: management only.
        QTest::addRow("missing entry between partitions") << 2 << true << quint64(1) << quint64(1) << 0 << QStringLiteral("H1[1]");
    }

    void reachability()
    {
        QFETCH(int, breakage);
        QFETCH(bool, withPartitions);
        QFETCH(quint64, unreachable);
        QFETCH(quint64, unreachableOther);
        QFETCH(int, loops);
        QFETCH(QString, problem);

        TinyFabric t = twoSwitches();
        const Fabric fabric = t.build();
        Routes routes = twoSwitchRoutes(false);
        const QString s0 = QStringLiteral("S0");
        const QString s1 = QStringLiteral("S1");
        if (breakage == 1)
            routes[s1][QStringLiteral("H2")] = 4;
        if (breakage == 2)
            routes[s0].erase(QStringLiteral("H3"));
        if (breakage == 3)
            routes[s0][QStringLiteral("H3")] = 5;
        const ForwardingTables tables = tablesFor(t, routes);
        Tenancy tenancy;
        if (withPartitions) {
            tenancy.partitions.push_back(partition(QStringLiteral("a"), 0x0001, {t.portGuid(QStringLiteral("H0")), t.portGuid(QStringLiteral("H2"))}));
            tenancy.partitions.push_back(partition(QStringLiteral("b"), 0x0002, {t.portGuid(QStringLiteral("H1")), t.portGuid(QStringLiteral("H3"))}));
        }
        const ValidationResult r = validateRouting(fabric, tenancy, tables);
        QCOMPARE(r.endPorts, std::size_t(4));
        QCOMPARE(r.partitionPairs, withPartitions ? quint64(4) : quint64(12));
        QCOMPARE(r.unreachablePartitionPairs, unreachable);
        QCOMPARE(r.unreachableOtherPairs, unreachableOther);
        QCOMPARE(int(r.loops), loops);
        QCOMPARE(r.ok, unreachable == 0 && loops == 0);
        if (!problem.isEmpty())
            QVERIFY2(r.problems.join(QLatin1Char('\n')).contains(problem), qPrintable(r.problems.join(QLatin1Char('\n'))));
        else
            QVERIFY2(r.problems.isEmpty(), qPrintable(r.problems.join(QLatin1Char('\n'))));
        if (unreachableOther)
            QVERIFY(r.managementProblems.join(QLatin1Char('\n')).contains(QStringLiteral("H0[1]")));
    }

    void limitedMembersDoNotCount()
    {
        // H0 and H2 both limited in one partition: they may not talk, so a missing route between
        // them is a management problem, not a partition one.
        TinyFabric t = twoSwitches();
        const Fabric fabric = t.build();
        Routes routes = twoSwitchRoutes(false);
        routes[QStringLiteral("S0")].erase(QStringLiteral("H2"));
        Tenancy tenancy;
        tenancy.partitions.push_back(partition(QStringLiteral("a"), 0x0001, {}, IsolationPolicy::Default,
                                               {t.portGuid(QStringLiteral("H0")), t.portGuid(QStringLiteral("H2"))}));
        const ValidationResult r = validateRouting(fabric, tenancy, tablesFor(t, routes));
        QCOMPARE(r.partitionPairs, quint64(0));
        QCOMPARE(r.unreachablePartitionPairs, quint64(0));
        QCOMPARE(r.unreachableOtherPairs, quint64(2));  // H0 -> H2 and H1 -> H2
        QVERIFY(r.ok);
    }

    void creditLoop_data()
    {
        QTest::addColumn<bool>("twoLanes");
        QTest::addColumn<bool>("deadlockFree");
        QTest::addRow("one VL: the ring's flows close a cycle") << false << false;
        QTest::addRow("a VL per partition: no cycle") << true << true;
    }

    void creditLoop()
    {
        QFETCH(bool, twoLanes);
        QFETCH(bool, deadlockFree);
        Routes routes;
        TinyFabric t = ring(&routes);
        const Fabric fabric = t.build();
        // {H0,H2} depend S0->S1->S2 and S2->S3->S0; {H1,H3} S1->S2->S3 and S3->S0->S1: a cycle
        // over all four clockwise links, but each partition alone has none.
        Tenancy tenancy;
        tenancy.partitions.push_back(partition(QStringLiteral("even"), 0x0001, {t.portGuid(QStringLiteral("H0")), t.portGuid(QStringLiteral("H2"))}));
        tenancy.partitions.push_back(partition(QStringLiteral("odd"), 0x0002, {t.portGuid(QStringLiteral("H1")), t.portGuid(QStringLiteral("H3"))}));
        LaneAssignment lanes;
        if (twoLanes)
            lanes.serviceLevels = {{0x0001, 0}, {0x0002, 1}};
        const ValidationResult r = validateRouting(fabric, tenancy, tablesFor(t, routes), lanes);
        QCOMPARE(r.unreachablePartitionPairs, quint64(0));
        QCOMPARE(r.loops, std::size_t(0));
        QCOMPARE(r.deadlockFree, deadlockFree);
        QCOMPARE(r.ok, deadlockFree);
        QCOMPARE(r.virtualLanes, twoLanes ? 2 : 1);
        QCOMPARE(r.dependencies, quint64(4));
        if (!deadlockFree) {
            QCOMPARE(r.creditLoop.size(), 4);
            for (int i = 0; i < 4; ++i)
                QVERIFY2(r.creditLoop.join(QLatin1Char(' ')).contains(QStringLiteral("S%1[2] -> S%2[3] (VL0)").arg(i).arg((i + 1) % 4)),
                         qPrintable(r.creditLoop.join(QLatin1Char(' '))));
        } else {
            QVERIFY(r.creditLoop.isEmpty());
        }
    }

    void isolationPolicies_data()
    {
        QTest::addColumn<int>("policyA");
        QTest::addColumn<bool>("split");      // partitions on separate cables
        QTest::addColumn<bool>("twoLanes");   // a and b on different VLs
        QTest::addColumn<int>("sharedLinks"); // of partition a
        QTest::addColumn<int>("violations");

        const int phy = int(IsolationPolicy::Physical);
        const int vlane = int(IsolationPolicy::VirtualLane);
        const int def = int(IsolationPolicy::Default);
        QTest::addRow("phy, sharing both directions of a cable") << phy << false << false << 2 << 2;
        QTest::addRow("phy, on its own cable") << phy << true << false << 0 << 0;
        QTest::addRow("phy, sharing even on another VL") << phy << false << true << 2 << 2;
        QTest::addRow("vlane, sharing on the same VL") << vlane << false << false << 2 << 2;
        QTest::addRow("vlane, sharing on another VL") << vlane << false << true << 2 << 0;
        QTest::addRow("def, sharing") << def << false << false << 2 << 0;
    }

    void isolationPolicies()
    {
        QFETCH(int, policyA);
        QFETCH(bool, split);
        QFETCH(bool, twoLanes);
        QFETCH(int, sharedLinks);
        QFETCH(int, violations);
        TinyFabric t = twoSwitches();
        const Fabric fabric = t.build();
        Tenancy tenancy;
        tenancy.partitions.push_back(partition(QStringLiteral("a"), 0x0001, {t.portGuid(QStringLiteral("H0")), t.portGuid(QStringLiteral("H2"))},
                                               IsolationPolicy(policyA)));
        tenancy.partitions.push_back(partition(QStringLiteral("b"), 0x0002, {t.portGuid(QStringLiteral("H1")), t.portGuid(QStringLiteral("H3"))}));
        // The default partition never counts for isolation.
        Partition management = partition(QStringLiteral("Default"), kDefaultPKey, {});
        management.members.push_back({PartitionMember::Kind::All, 0, Membership::Full, true});
        tenancy.partitions.push_back(management);
        LaneAssignment lanes;
        if (twoLanes)
            lanes.serviceLevels = {{0x0002, 1}};
        const ValidationResult r = validateRouting(fabric, tenancy, tablesFor(t, twoSwitchRoutes(split)), lanes);
        QCOMPARE(r.partitions.size(), std::size_t(2));
        const PartitionIsolationReport &a = r.partitions[0];
        QCOMPARE(a.name, QStringLiteral("a"));
        QCOMPARE(a.linksUsed, std::size_t(2));
        QCOMPARE(int(a.shared.size()), sharedLinks);
        QCOMPARE(int(a.violationCount), violations);
        QCOMPARE(a.satisfied(), violations == 0);
        QCOMPARE(int(r.policyViolations), violations);
        QCOMPARE(r.ok, violations == 0);
        if (sharedLinks) {
            QCOMPARE(a.shared.front().others, std::vector<int>{1});
            QVERIFY(a.shared.front().link.contains(QStringLiteral("S0[3] -> S1[3]")));
        }
        if (violations)
            QVERIFY2(a.violations.front().contains(QStringLiteral("shares S0[3] -> S1[3] with b (0x0002)")), qPrintable(a.violations.front()));
        // b is def-isolation: sharing is no violation for it.
        QCOMPARE(r.partitions[1].violationCount, std::size_t(0));
    }

    void generatedFatTreesAreValid_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<int>("shape");
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("levels");
        const int kary = int(FabricShapeKind::KaryNTree);
        const int radix = int(FabricShapeKind::SwitchRadix);
        for (const QString &engine : {QStringLiteral("ftree"), QStringLiteral("minhop"), QStringLiteral("updn")}) {
            QTest::addRow("%s, 2-ary 2-tree", qPrintable(engine)) << engine << kary << 2 << 2;
            QTest::addRow("%s, 4-ary 2-tree", qPrintable(engine)) << engine << kary << 4 << 2;
            QTest::addRow("%s, 3-ary 3-tree", qPrintable(engine)) << engine << kary << 3 << 3;
            QTest::addRow("%s, radix 8, 3 levels", qPrintable(engine)) << engine << radix << 8 << 3;
        }
    }

    void generatedFatTreesAreValid()
    {
        QFETCH(QString, engine);
        QFETCH(int, shape);
        QFETCH(int, size);
        QFETCH(int, levels);
        const GeneratedFabric g = generate(FabricShapeKind(shape), size, levels);
        const Result<Routing> routing = routeFabric(engine, g.fabric, Tenancy{});
        QVERIFY2(routing.ok(), routing.ok() ? "" : qPrintable(routing.error().toString()));
        const ValidationResult r = validateRouting(g.fabric, Tenancy{}, routing->tables);
        const std::uint64_t hosts = g.hosts.size();
        QCOMPARE(r.endPorts, std::size_t(hosts));
        QCOMPARE(r.partitionPairs, hosts * (hosts - 1));
        QCOMPARE(r.unreachablePartitionPairs, quint64(0));
        QCOMPARE(r.unreachableOtherPairs, quint64(0));
        QCOMPARE(r.loops, std::size_t(0));
        QVERIFY2(r.deadlockFree, qPrintable(r.creditLoop.join(QLatin1Char('\n'))));
        QVERIFY(r.dependencies > 0);
        QVERIFY(r.ok);

        // Breaking one entry of a leaf is noticed, and named.
        ForwardingTables broken = routing->tables;
        const NodeIndex leaf = g.fabric.port(g.fabric.port(g.fabric.portOf(g.hosts.back(), 1)).remote).node;
        const Lid victim = g.fabric.nodeLid(g.hosts.front());
        const int i = broken.indexOf(g.fabric.node(leaf).guid);
        QVERIFY(i >= 0);
        broken.lft(std::size_t(i)).clear(victim);
        const ValidationResult b = validateRouting(g.fabric, Tenancy{}, broken);
        QVERIFY(!b.ok);
        QVERIFY(b.unreachablePartitionPairs > 0);
        QVERIFY2(b.problems.front().contains(QStringLiteral("%1 has no route to LID %2").arg(g.fabric.node(leaf).description).arg(victim)),
                 qPrintable(b.problems.front()));
    }
};

QTEST_GUILESS_MAIN(TestValidation)
#include "tst_validation.moc"
