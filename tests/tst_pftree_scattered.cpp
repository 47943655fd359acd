// pftree isolates scattered phy tenants (issue 42): each host given to one of 2, 3 or 8 tenants
// at random (seeded), as a scheduler leaves them, on generated two- and three-level trees, whole
// and with a failed leaf uplink. Judged by validateRouting (an independent walk of the tables):
// the links it finds shared equal the count the engine reports, every pair of a tenant is
// reachable, there is no loop, and wherever a split of the tree's columns between the tenants
// exists (no more tenants than the columns a leaf reaches in full: on a tree with a failed leaf
// uplink, one fewer) no link is shared and the routing says isolation was kept. The columns are
// counted here from the generator's cables, not by the engine.
//
// A search budget too small for the exact search says "not proven in time", and the tables are
// never worse than the paper's per-leaf allocation.
//
// At 3,456 hosts (no exact search), taking the construction before the paper's routing is
// finished gives the tables that finishing it and comparing gives.

#include "FabricEdit.h"
#include "GeneratedFabrics.h"
#include "PartitionAwareFatTree.h"
#include "PftreePhases.h"
#include "RoutingEngine.h"
#include "SampleSize.h"
#include "SharedLinks.h"
#include "Validation.h"

#include <QtTest>

#include <random>
#include <set>

using namespace weft;

namespace {

struct Tree
{
    GeneratedFabric generated;
    int columns = 0;  // column splits possible: the up cables of the leaf that has the fewest
};

// The leaves' up cables, from the generator's levels: the columns a split can give out.
int fewestUpCables(const GeneratedFabric &g)
{
    const Fabric &f = g.fabric;
    int leafLevel = 0;
    for (NodeIndex sw : f.switches())
        leafLevel = std::max(leafLevel, g.nodeLevel[std::size_t(sw)]);
    int fewest = std::numeric_limits<int>::max();
    for (NodeIndex sw : f.switches()) {
        if (g.nodeLevel[std::size_t(sw)] != leafLevel)
            continue;
        int up = 0;
        for (int n = 1; n <= f.node(sw).portCount; ++n) {
            const PortIndex p = f.portOf(sw, n);
            if (p == kNoIndex || f.port(p).remote == kNoIndex)
                continue;
            const NodeIndex other = f.port(f.port(p).remote).node;
            up += f.node(other).type == NodeType::Switch && g.nodeLevel[std::size_t(other)] < leafLevel ? 1 : 0;
        }
        fewest = std::min(fewest, up);
    }
    return fewest;
}

// The tree, whole or with the first leaf's second uplink cut.
Tree makeTree(int radix, int levels, bool failedCable)
{
    Tree t;
    const GeneratedFabric whole = test::generate({FabricShapeKind::SwitchRadix, radix, levels, 0});
    t.columns = fewestUpCables(whole);
    t.generated = whole;
    if (!failedCable)
        return t;
    const Fabric &f = whole.fabric;
    int leafLevel = 0;
    for (NodeIndex sw : f.switches())
        leafLevel = std::max(leafLevel, whole.nodeLevel[std::size_t(sw)]);
    FabricEdit edit;
    edit.removedNodes.assign(f.nodes().size(), false);
    edit.cutPorts.assign(f.ports().size(), false);
    for (NodeIndex sw : f.switches()) {
        if (whole.nodeLevel[std::size_t(sw)] != leafLevel)
            continue;
        int seen = 0;
        for (int n = 1; n <= f.node(sw).portCount && seen < 2; ++n) {
            const PortIndex p = f.portOf(sw, n);
            if (p == kNoIndex || f.port(p).remote == kNoIndex)
                continue;
            const NodeIndex other = f.port(f.port(p).remote).node;
            if (f.node(other).type == NodeType::Switch && ++seen == 2)
                edit.cutPorts[std::size_t(p)] = true;
        }
        break;
    }
    Result<Fabric> cut = editedFabric(f, edit);
    if (!cut)
        qFatal("%s", qPrintable(cut.error().toString()));
    t.generated.fabric = std::move(cut).value();
    t.generated.nodeLevel.assign(t.generated.fabric.nodes().size(), 0);
    for (std::size_t n = 0; n < f.nodes().size(); ++n) {
        const NodeIndex there = t.generated.fabric.nodeByGuid(f.node(NodeIndex(n)).guid);
        if (there != kNoIndex)
            t.generated.nodeLevel[std::size_t(there)] = whole.nodeLevel[n];
    }
    t.generated.hosts.clear();
    for (NodeIndex h : whole.hosts)
        t.generated.hosts.push_back(t.generated.fabric.nodeByGuid(f.node(h).guid));
    t.columns = fewestUpCables(t.generated);
    return t;
}

Tenancy scattered(const GeneratedFabric &g, int tenants, std::uint32_t seed)
{
    Tenancy tenancy;
    for (int k = 0; k < tenants; ++k) {
        Partition p;
        p.name = QStringLiteral("tenant%1").arg(k + 1);
        p.pkey = std::uint16_t(0x200 + k);
        p.policy = IsolationPolicy::Physical;
        tenancy.partitions.push_back(p);
    }
    std::mt19937 rng(seed);
    for (NodeIndex h : g.hosts) {
        PartitionMember member;
        member.guid = g.fabric.port(g.fabric.portOf(h, 1)).guid;
        member.membership = Membership::Full;
        member.explicitMembership = true;
        tenancy.partitions[std::size_t(rng() % std::uint32_t(tenants))].members.push_back(member);
    }
    return tenancy;
}

struct Outcome
{
    int shared = 0;  // by validateRouting's walk
    PartitionRoutingReport report;
    Routing routing;
};

Outcome routeAndJudge(const GeneratedFabric &g, const Tenancy &tenancy, PartitionAwareOptions options = {},
                      const QByteArray &where = {})
{
    Outcome o;
    PartitionAwareFatTreeEngine engine(PartitionAwareFatTreeEngine::Algorithm::Extended, options);
    const Status prepared = engine.prepare(g.fabric, tenancy, {});
    if (!prepared)
        qFatal("%s: %s", where.constData(), qPrintable(prepared.error().message));
    Result<Routing> routed = engine.route({});
    if (!routed)
        qFatal("%s: %s", where.constData(), qPrintable(routed.error().message));
    const ValidationResult v = validateRouting(g.fabric, tenancy, routed->tables, LaneAssignment{routed->serviceLevels, {}});
    if (v.unreachablePartitionPairs != 0 || v.loops != 0 || !v.deadlockFree)
        qFatal("%s: %llu unreachable pairs, %zu loops", where.constData(), (unsigned long long)v.unreachablePartitionPairs, v.loops);
    o.shared = test::sharedLinks(v);
    o.report = engine.lastReport();
    o.routing = std::move(*routed);
    return o;
}

}  // namespace

class TestPftreeScattered : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void isolatesWhereColumnsAllow_data()
    {
        QTest::addColumn<int>("radix");
        QTest::addColumn<int>("levels");
        QTest::addColumn<bool>("failedCable");
        for (int levels : {2, 3})
            for (int radix : {8, 16})
                for (bool failed : {false, true})
                    // Under the sanitizers the 3-level trees of radix 16 are left to the normal
                    // build: radix 8 takes the same phases there.
                    if (test::kLargestRows || levels == 2 || radix == 8)
                        QTest::addRow("radix %d, %d levels%s", radix, levels, failed ? ", a leaf uplink failed" : "")
                            << radix << levels << failed;
    }

    void isolatesWhereColumnsAllow()
    {
        QFETCH(int, radix);
        QFETCH(int, levels);
        QFETCH(bool, failedCable);
        const Tree tree = makeTree(radix, levels, failedCable);
        QVERIFY(tree.columns >= 2);
        int isolated = 0, sharing = 0;
        // The largest tree (1,024 hosts on three levels) one placement per count: each of its
        // routings runs the search to its time budget.
        const std::uint32_t seeds = radix >= 16 && levels == 3 ? 1 : 3;
        for (int tenants : {2, 3, 8}) {
            for (std::uint32_t seed = 1; seed <= seeds; ++seed) {
                const Tenancy tenancy = scattered(tree.generated, tenants, seed * 7919 + std::uint32_t(tenants));
                const QByteArray where = QStringLiteral("%1 tenants, seed %2").arg(tenants).arg(seed).toUtf8();
                const Outcome o = routeAndJudge(tree.generated, tenancy, {}, where);
                const QByteArray detail = where + ": " + o.routing.isolation.toUtf8() + "\n"
                                          + o.routing.warnings.join(QLatin1Char('\n')).toUtf8();
                // The engine's count is the walk's (every tenant phy: links shared are phy-shared).
                QVERIFY2(o.report.isolation.phyShared == o.shared, detail.constData());
                QVERIFY2(o.report.isolation.phyConflicts == o.shared, detail.constData());
                QCOMPARE(o.report.isolation.outcome == IsolationOutcome::Kept, o.shared == 0);
                if (tenants <= tree.columns - (failedCable ? 1 : 0)) {
                    // A split of the columns isolates them: pftree finds it.
                    QVERIFY2(o.shared == 0, detail.constData());
                }
                (o.shared == 0 ? isolated : sharing) += 1;
                if (o.shared > 0) {
                    // Said in words, as the desk and OpenSM's log show it.
                    QVERIFY2(o.report.isolation.outcome == IsolationOutcome::ProvenImpossible
                                 || o.report.isolation.outcome == IsolationOutcome::NotProven,
                             detail.constData());
                    QVERIFY2(o.routing.warnings.contains(o.report.isolation.text), detail.constData());
                }
            }
        }
        qInfo("%d placements isolated, %d sharing (columns %d)", isolated, sharing, tree.columns);
        QVERIFY(isolated > 0);
    }

    // A time budget too short for the exact search: the routing says isolation was not proven in
    // time, its count is still the walk's, and it shares no more than the per-leaf allocation
    // (a budget of 0 nodes: no search at all).
    void budgetInTime()
    {
        const Tree tree = makeTree(8, 3, false);  // 4 columns
        int outOfTime = 0;
        for (std::uint32_t seed = 1; seed <= 6; ++seed) {
            const Tenancy tenancy = scattered(tree.generated, 8, seed);
            PartitionAwareOptions paperOnly;
            paperOnly.isolationSearchBudget = 0;
            const Outcome paper = routeAndJudge(tree.generated, tenancy, paperOnly);
            PartitionAwareOptions hurried;
            hurried.isolationSearchSeconds = 1e-9;
            const Outcome o = routeAndJudge(tree.generated, tenancy, hurried);
            QCOMPARE(o.report.isolation.phyShared, o.shared);
            QVERIFY(o.shared <= paper.shared);
            if (o.report.isolation.text.contains(QStringLiteral("not proven in time"))) {
                QCOMPARE(o.report.isolation.outcome, IsolationOutcome::NotProven);
                QVERIFY(o.routing.warnings.contains(o.report.isolation.text));
                ++outOfTime;
            }
        }
        QVERIFY(outOfTime > 0);
    }

    // Where the exact search is not run (3,456 hosts), the construction's routing is taken
    // before the paper's routing is finished, once the paper's first LIDs share a link with a
    // phy tenant: the same tables, service levels, reach and isolation as finishing the paper's
    // routing and comparing, only the paper's count in the warning being what its first LIDs
    // share ("at least").
    void constructionFirstGivesTheComparedTables_data()
    {
        QTest::addColumn<int>("tenants");
        QTest::newRow("2 tenants") << 2;
        QTest::newRow("8 tenants") << 8;
    }

    void constructionFirstGivesTheComparedTables()
    {
        QFETCH(int, tenants);
        const Tree tree = makeTree(24, 3, false);
        QCOMPARE(tree.generated.hosts.size(), std::size_t(3456));
        const Tenancy tenancy = scattered(tree.generated, tenants, 4242 + std::uint32_t(tenants));
        PartitionAwareOptions compared;
        compared.constructionFirst = false;
        PartitionAwareFatTreeEngine first(PartitionAwareFatTreeEngine::Algorithm::Extended, {});
        PartitionAwareFatTreeEngine whole(PartitionAwareFatTreeEngine::Algorithm::Extended, compared);
        QVERIFY(first.prepare(tree.generated.fabric, tenancy, {}));
        QVERIFY(whole.prepare(tree.generated.fabric, tenancy, {}));

        // The shortcut is taken with the option and not without it.
        pftree::Run run(first, {});
        const std::vector<pftree::Target> targets = pftree::routingTargets(run);
        const std::optional<pftree::IsolationFinding> early = pftree::isolationFirst(run, targets);
        QVERIFY(early && early->routing && early->routing->rows);
        QCOMPARE(early->status.outcome, IsolationOutcome::Kept);
        QVERIFY2(early->routing->warning.contains(QStringLiteral("left at least ")), qPrintable(early->routing->warning));
        pftree::Run wholeRun(whole, {});
        QVERIFY(!pftree::isolationFirst(wholeRun, pftree::routingTargets(wholeRun)));

        int reported = 0;
        RoutingOptions options;
        options.progress = [&reported](int done, int total) {
            reported = done == total ? reported + 1 : reported;
            return true;
        };
        const Result<Routing> a = first.route(options);
        const Result<Routing> b = whole.route({});
        QVERIFY(a && b);
        QCOMPARE(reported, 1);  // the progress still reaches its total, once
        QVERIFY(a->tables == b->tables);
        QCOMPARE(a->serviceLevels, b->serviceLevels);
        QCOMPARE(a->reachedFromEverySwitch, b->reachedFromEverySwitch);
        QCOMPARE(a->isolation, b->isolation);
        QCOMPARE(first.lastReport().isolation.outcome, IsolationOutcome::Kept);
        QCOMPARE(first.lastReport().isolation.phyConflicts, 0);
        QCOMPARE(first.lastReport().sharedLinks, whole.lastReport().sharedLinks);
        QCOMPARE(first.lastReport().virtualLanes, whole.lastReport().virtualLanes);
        // The warnings, line for line, but the paper's count in the construction's.
        QCOMPARE(a->warnings.size(), b->warnings.size());
        int differing = 0;
        for (int i = 0; i < a->warnings.size(); ++i) {
            if (a->warnings[i] == b->warnings[i])
                continue;
            ++differing;
            const QString tail = QStringLiteral("top switches assigned per partition instead: 0 and 0");
            QVERIFY2(a->warnings[i].endsWith(tail) && b->warnings[i].endsWith(tail), qPrintable(a->warnings[i]));
        }
        QVERIFY(differing <= 1);
    }
};

QTEST_GUILESS_MAIN(TestPftreeScattered)
#include "tst_pftree_scattered.moc"
