// Validation on fabrics small enough to know the answer by hand (a forwarding loop, a missing
// entry, a credit loop on a ring that two VLs break, partitions sharing a cable against their
// policy), and on generated fat-trees routed by ftree, which must be valid.

#include "FabricGenerator.h"
#include "RouteWalk.h"
#include "RoutingEngine.h"
#include "Validation.h"

#include "GeneratedFabrics.h"
#include "Partitions.h"
#include "TinyFabric.h"

#include <QtTest>

#include <map>

using namespace weft;

namespace {

using test::partition;
using test::TinyFabric;
using Routes = TinyFabric::Routes;

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
    return test::generate({kind, size, levels});
}

}  // namespace

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
        const ForwardingTables tables = t.tables(routes, true);
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

    // The one route walker: from H0's port towards H2, where it ends and the hops it took, with
    // the tables looked up once or per hop.
    void routeWalkEnds_data()
    {
        QTest::addColumn<int>("breakage");  // 1 S1 loops H2 back, 2 S0 lacks H2, 3 S0 sends H2 to a dead port, 4 S1 has no table
        QTest::addColumn<int>("end");
        QTest::addColumn<int>("hops");
        QTest::addRow("arrives") << 0 << int(RouteEnd::AtEndNode) << 3;
        // H0 -> S0, then S0 and S1 hand the packet to each other until it has crossed more
        // switches (3) than there are (2).
        QTest::addRow("forwarding loop") << 1 << int(RouteEnd::Loop) << 4;
        QTest::addRow("missing entry") << 2 << int(RouteEnd::NoRoute) << 1;
        QTest::addRow("dead port") << 3 << int(RouteEnd::DeadPort) << 1;
        QTest::addRow("no table") << 4 << int(RouteEnd::NoTable) << 2;
    }

    void routeWalkEnds()
    {
        QFETCH(int, breakage);
        QFETCH(int, end);
        QFETCH(int, hops);
        TinyFabric t = twoSwitches();
        const Fabric fabric = t.build();
        const QString s0 = QStringLiteral("S0");
        const QString s1 = QStringLiteral("S1");
        const QString h2 = QStringLiteral("H2");
        Routes routes = twoSwitchRoutes(false);
        if (breakage == 1)
            routes[s1][h2] = 4;
        if (breakage == 2)
            routes[s0].erase(h2);
        if (breakage == 3)
            routes[s0][h2] = 5;
        if (breakage == 4)
            routes.erase(s1);
        const ForwardingTables tables = t.tables(routes, true);
        const PortIndex from = fabric.portOf(fabric.nodeByName(QStringLiteral("H0")), 1);
        const TablesByNode byNode(fabric, tables);
        const TablesByGuid byGuid(fabric, tables);
        for (int lookup = 0; lookup < 2; ++lookup) {
            std::vector<PortIndex> out;
            const auto visit = [&](const RouteHop &hop) {
                out.push_back(hop.out);
                return true;
            };
            const RouteEnd ended = lookup == 0 ? walkRouteFromPort(fabric, byNode, from, t.lid(h2), visit)
                                               : walkRouteFromPort(fabric, byGuid, from, t.lid(h2), visit);
            QCOMPARE(int(ended), end);
            QCOMPARE(int(out.size()), hops);
            QCOMPARE(out.front(), from);
            if (ended == RouteEnd::AtEndNode)
                QCOMPARE(fabric.port(out.back()).remote, fabric.portOf(fabric.nodeByName(h2), 1));
        }
        // A switch's own LID ends the walk on that switch; a visitor can end it anywhere.
        const auto onward = [](const RouteHop &) { return true; };
        QCOMPARE(int(walkRoute(fabric, byNode, fabric.nodeByName(s0), t.lid(s0), onward)), int(RouteEnd::AtSwitch));
        const auto halt = [](const RouteHop &) { return false; };
        QCOMPARE(int(walkRouteFromPort(fabric, byNode, from, t.lid(h2), halt)), int(RouteEnd::Stopped));
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
        const ValidationResult r = validateRouting(fabric, tenancy, t.tables(routes, true));
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
        const ValidationResult r = validateRouting(fabric, tenancy, t.tables(routes, true), lanes);
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
        const ValidationResult r = validateRouting(fabric, tenancy, t.tables(twoSwitchRoutes(split), true), lanes);
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
