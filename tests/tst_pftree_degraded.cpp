// pftree keeps physical isolation on degraded fat-trees wherever it exists (issue 41): after a
// failed leaf uplink, a failed middle-top link, a failed middle or top switch, a leaf or hosts
// gone, or several of these at once, an oracle of its own decides for random placements of
// phy-isolated tenants the least number k of directed switch links two of them must share over
// every routing the router can give (k = 0: isolation exists), second down paths for cut-off
// senders included; pftree's tables, judged by validateRouting, must share no fewer than k, with
// every pair of a tenant reachable and no loop, and exactly k, saying whether isolation was kept
// or proven impossible (or, in at most one placement in 20, that its budget ran out: then it says
// so). Every shape must show both outcomes. Where the oracle's least routing sends cut-off
// senders down second paths other than the router's (the open gap of issue 41), pftree shares
// more: each such placement is named, must be no worse than the least without chosen second
// paths, and the family is marked an expected failure until the gap is closed.
//
// The oracle (fixtures/IsolationOracle.h) shares nothing with the engine: its own reading of the
// tree, its own walker and second paths, an exhaustive search cut by the cost so far, by choices
// that include another's links, and by symmetries it proves cable by cable on the degraded tree.
//
// Run a family of shapes alone with its function's name (ctest runs each as its own entry).

#include "FabricEdit.h"
#include "FabricGenerator.h"
#include "GeneratedFabrics.h"
#include "IsolationOracle.h"
#include "SharedLinks.h"
#include "PartitionAwareFatTree.h"
#include "RoutingEngine.h"
#include "SampleSize.h"
#include "Validation.h"

#include <QElapsedTimer>
#include <QtTest>

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <set>

using namespace weft;
using namespace weft::test::oracle;

namespace {

// What fails in a shape, each one picked by position in the whole tree so that the shape is
// the same on every run. Leaf and column numbers count in the generator's node order.
struct Failure
{
    enum Kind { LeafUplink,
                MiddleTopLink,
                MiddleSwitch,
                TopSwitch,
                Leaf,
                Hosts } kind;
    int which = 0;  // the leaf (uplink, leaf), middle (link, switch) or top switch, by order
    int port = 0;   // the leaf's or middle's up-link, by order; hosts: how many, from the last
};

struct Shape
{
    const char *name;
    int radix;
    int levels;
    std::vector<Failure> failures;
    int maxTenants;
    int maxMembers;
    int placements;
};

using F = Failure;

const std::vector<Shape> &twoLevelShapes()
{
    static const std::vector<Shape> all{
        {"radix 4, 2 levels, whole", 4, 2, {}, 4, 4, 40},
        {"radix 4, 2 levels, a leaf uplink failed", 4, 2, {{F::LeafUplink, 0, 0}}, 4, 4, 100},
        {"radix 6, 2 levels, a leaf uplink failed", 6, 2, {{F::LeafUplink, 2, 1}}, 5, 5, 100},
        {"radix 8, 2 levels, a leaf uplink failed", 8, 2, {{F::LeafUplink, 3, 2}}, 6, 6, 60},
        {"radix 6, 2 levels, two uplinks and a spine failed, hosts gone", 6, 2, {{F::LeafUplink, 0, 0}, {F::LeafUplink, 4, 0}, {F::TopSwitch, 2, 0}, {F::Hosts, 0, 3}}, 4, 5, 100},
        {"radix 8, 2 levels, a leaf gone and an uplink failed", 8, 2, {{F::Leaf, 1, 0}, {F::LeafUplink, 5, 3}}, 6, 5, 60},
    };
    return all;
}

const std::vector<Shape> &threeLevelShapes()
{
    static const std::vector<Shape> all{
        {"radix 4, 3 levels, whole", 4, 3, {}, 4, 4, 40},
        {"radix 4, 3 levels, a leaf uplink failed", 4, 3, {{F::LeafUplink, 1, 0}}, 4, 4, 100},
        {"radix 4, 3 levels, a middle-top link failed", 4, 3, {{F::MiddleTopLink, 2, 1}}, 4, 4, 100},
        {"radix 4, 3 levels, a middle switch failed", 4, 3, {{F::MiddleSwitch, 3, 0}}, 4, 4, 100},
        {"radix 6, 3 levels, a leaf uplink failed", 6, 3, {{F::LeafUplink, 4, 2}}, 4, 4, 100},
        {"radix 6, 3 levels, a middle-top link failed", 6, 3, {{F::MiddleTopLink, 1, 0}}, 4, 4, 100},
        {"radix 6, 3 levels, a middle switch failed", 6, 3, {{F::MiddleSwitch, 2, 0}}, 4, 4, 100},
        {"radix 6, 3 levels, several failures", 6, 3, {{F::LeafUplink, 0, 0}, {F::MiddleTopLink, 4, 2}, {F::TopSwitch, 7, 0}, {F::Leaf, 10, 0}, {F::Hosts, 0, 2}}, 4, 4, 60},
        {"radix 8, 3 levels, a leaf uplink failed", 8, 3, {{F::LeafUplink, 0, 3}}, 3, 4, 60},
        {"radix 8, 3 levels, a middle switch and a middle-top link failed", 8, 3, {{F::MiddleSwitch, 5, 0}, {F::MiddleTopLink, 8, 2}}, 3, 4, 60},
    };
    return all;
}

// ---------------------------------------------------------------------------------------------
// The degraded fabric.

GeneratedFabric degrade(const GeneratedFabric &whole, const Shape &shape)
{
    const Fabric &f = whole.fabric;
    const int leafLevel = shape.levels - 1;
    std::vector<std::vector<NodeIndex>> ofLevel(std::size_t(shape.levels));
    for (NodeIndex sw : f.switches())
        ofLevel[std::size_t(whole.nodeLevel[std::size_t(sw)])].push_back(sw);
    // A switch's cables to the level above, in port order.
    auto upPorts = [&](NodeIndex sw) {
        std::vector<PortIndex> ports;
        for (int n = 1; n <= f.node(sw).portCount; ++n) {
            const PortIndex p = f.portOf(sw, n);
            if (p == kNoIndex || f.port(p).remote == kNoIndex)
                continue;
            const NodeIndex other = f.port(f.port(p).remote).node;
            if (f.node(other).type == NodeType::Switch && whole.nodeLevel[std::size_t(other)] < whole.nodeLevel[std::size_t(sw)])
                ports.push_back(p);
        }
        return ports;
    };
    FabricEdit edit;
    edit.removedNodes.assign(f.nodes().size(), false);
    edit.cutPorts.assign(f.ports().size(), false);
    for (const Failure &fail : shape.failures) {
        switch (fail.kind) {
        case Failure::LeafUplink:
            edit.cutPorts[std::size_t(upPorts(ofLevel[std::size_t(leafLevel)].at(std::size_t(fail.which))).at(std::size_t(fail.port)))] = true;
            break;
        case Failure::MiddleTopLink:
            edit.cutPorts[std::size_t(upPorts(ofLevel[1].at(std::size_t(fail.which))).at(std::size_t(fail.port)))] = true;
            break;
        case Failure::MiddleSwitch:
            edit.removedNodes[std::size_t(ofLevel[1].at(std::size_t(fail.which)))] = true;
            break;
        case Failure::TopSwitch:
            edit.removedNodes[std::size_t(ofLevel[0].at(std::size_t(fail.which)))] = true;
            break;
        case Failure::Leaf: {
            const NodeIndex leaf = ofLevel[std::size_t(leafLevel)].at(std::size_t(fail.which));
            edit.removedNodes[std::size_t(leaf)] = true;
            for (NodeIndex h : whole.hosts)
                if (f.port(f.port(f.portOf(h, 1)).remote).node == leaf)
                    edit.removedNodes[std::size_t(h)] = true;
            break;
        }
        case Failure::Hosts:
            for (int i = 0; i < fail.port; ++i)
                edit.removedNodes[std::size_t(whole.hosts[whole.hosts.size() - 1 - std::size_t(i) * 3])] = true;
            break;
        }
    }
    Result<Fabric> degraded = editedFabric(f, edit);
    if (!degraded)
        qFatal("%s", qPrintable(degraded.error().toString()));
    GeneratedFabric g = whole;
    g.fabric = std::move(degraded).value();
    g.nodeLevel.assign(g.fabric.nodes().size(), 0);
    for (std::size_t n = 0; n < f.nodes().size(); ++n) {
        const NodeIndex there = g.fabric.nodeByGuid(f.node(NodeIndex(n)).guid);
        if (there != kNoIndex)
            g.nodeLevel[std::size_t(there)] = whole.nodeLevel[n];
    }
    g.hosts.clear();
    for (NodeIndex h : whole.hosts)
        if (!edit.removedNodes[std::size_t(h)])
            g.hosts.push_back(g.fabric.nodeByGuid(f.node(h).guid));
    return g;
}

Placement place(const GeneratedFabric &g, const Shape &shape, std::mt19937 &rng)
{
    Placement p;
    std::vector<NodeIndex> hosts = g.hosts;
    std::shuffle(hosts.begin(), hosts.end(), rng);
    std::size_t next = 0;
    const int tenants = 2 + int(rng() % std::uint32_t(shape.maxTenants - 1));
    for (int k = 0; k < tenants; ++k) {
        const int members = 2 + int(rng() % std::uint32_t(shape.maxMembers - 1));
        std::vector<Member> list;
        for (int i = 0; i < members && next < hosts.size(); ++i) {
            // Now and then a host of an earlier tenant (a login host in two tenants): its one down
            // path carries both, so isolation may be impossible.
            NodeIndex host = hosts[next];
            if (k > 0 && rng() % 8 == 0) {
                const NodeIndex earlier = hosts[rng() % next];
                if (std::none_of(list.begin(), list.end(), [&](const Member &m) { return m.host == earlier; }))
                    host = earlier;
            }
            if (host == hosts[next])
                ++next;
            list.push_back({host, i == 0 || rng() % 5 != 0});
        }
        p.push_back(list);
    }
    return p;
}

// ---------------------------------------------------------------------------------------------
// pftree's side.

Tenancy tenancyOf(const GeneratedFabric &g, const Placement &placement, PolicyMode mode)
{
    Tenancy tenancy;
    tenancy.mode = mode;
    for (std::size_t k = 0; k < placement.size(); ++k) {
        Partition p;
        p.name = QStringLiteral("tenant%1").arg(k + 1);
        p.pkey = std::uint16_t(0x30 + k);
        p.policy = IsolationPolicy::Physical;
        for (const Member &m : placement[k]) {
            PartitionMember member;
            member.guid = g.fabric.port(g.fabric.portOf(m.host, 1)).guid;
            member.membership = m.full ? Membership::Full : Membership::Limited;
            member.explicitMembership = true;
            p.members.push_back(member);
        }
        tenancy.partitions.push_back(p);
    }
    return tenancy;
}

void runShapes(const std::vector<Shape> &shapes, int family)
{
    int total = 0;
    QStringList off;  // shapes where pftree is above the oracle's minimum, and in how many placements
    int gaps = 0;
    QElapsedTimer all;
    all.start();
    for (std::size_t s = 0; s < shapes.size(); ++s) {
        const Shape &shape = shapes[s];
        const GeneratedFabric g = degrade(test::generate({FabricShapeKind::SwitchRadix, shape.radix, shape.levels, 0}), shape);
        const Tree tree = readTree(g.fabric, g.nodeLevel, g.hosts, shape.levels);
        int isolated = 0, sharing = 0, strictChecked = 0, searched = 0, gap = 0, unproven = 0;
        std::int64_t oracleNodes = 0;
        QElapsedTimer timer;
        timer.start();
        for (int n = 1; n <= shape.placements; ++n) {
            std::mt19937 rng(std::uint32_t(n * 104729 + int(s) * 31 + family * 7));
            const Placement placement = place(g, shape, rng);
            const Oracle oracle = oracleMinimum(tree, placement);
            oracleNodes += oracle.nodes;
            const int k = oracle.minimum;
            const Tenancy bestEffort = tenancyOf(g, placement, PolicyMode::BestEffort);
            PartitionAwareFatTreeEngine engine(PartitionAwareFatTreeEngine::Algorithm::Extended);
            const Status prepared = engine.prepare(g.fabric, bestEffort, {});
            QVERIFY2(prepared, prepared ? "" : qPrintable(prepared.error().message));
            Result<Routing> routed = engine.route({});
            QVERIFY2(routed, routed ? "" : qPrintable(routed.error().message));
            const ValidationResult v = validateRouting(g.fabric, bestEffort, routed->tables, LaneAssignment{routed->serviceLevels, {}});
            const QString warnings = routed->warnings.join(QStringLiteral("\n"));
            const QByteArray where = QStringLiteral("%1, placement %2: oracle %3\n%4").arg(QString::fromLatin1(shape.name)).arg(n).arg(k).arg(warnings).toUtf8();
            QVERIFY2(v.unreachablePartitionPairs == 0, where.constData());
            QVERIFY2(v.loops == 0, where.constData());
            QVERIFY2(v.deadlockFree, where.constData());
            const int shared = test::sharedLinks(v);
            if (warnings.contains(QStringLiteral("not proven"))) {
                // The search stopped at its budget (6 tenants on the larger trees): it says so,
                // shares no fewer than the minimum, and happens rarely.
                QVERIFY2(warnings.contains(QStringLiteral("stopped at its budget")), where.constData());
                QCOMPARE(engine.lastReport().isolation.outcome, IsolationOutcome::NotProven);
                QVERIFY2(shared >= k, where.constData());
                ++unproven;
                continue;
            }
            // No routing of the router's shares fewer than the oracle's minimum.
            QVERIFY2(shared >= k, QByteArray(where + "\npftree shares " + QByteArray::number(shared)).constData());
            if (shared > k) {
                // The known gap (issue 41, open): the oracle's least routing sends some senders
                // of a class down a second path although the class has a down path they all
                // reach, which the engine's search does not weigh. Then the oracle's narrower
                // space (second down paths only for classes without such a path) shares more, and
                // pftree no more than it. Each one is named; the test marks them an expected
                // failure below.
                const int narrow = oracleMinimum(tree, placement, false).minimum;
                qInfo("%s\npftree shares %d; with second down paths only where a class has no path all its senders "
                      "reach: %d", where.constData(), shared, narrow);
                QVERIFY2(narrow > k && shared <= narrow,
                         QByteArray(where + "\npftree shares " + QByteArray::number(shared) + ", the narrower space's least "
                                    + QByteArray::number(narrow)).constData());
                ++gap;
                continue;
            }
            // The desk and OpenSM's log say which: kept, or proven impossible.
            QCOMPARE(engine.lastReport().isolation.outcome,
                     k == 0 ? IsolationOutcome::Kept : IsolationOutcome::ProvenImpossible);
            searched += warnings.contains(QStringLiteral("assigned per partition")) ? 1 : 0;
            (k == 0 ? isolated : sharing) += 1;
            // Strict mode routes exactly where isolation exists (every fourth placement: it
            // routes again).
            if (n % 4 == 0) {
                ++strictChecked;
                const Tenancy strict = tenancyOf(g, placement, PolicyMode::Strict);
                Result<Routing> strictRouted = routeFabric(QStringLiteral("pftree"), g.fabric, strict);
                QVERIFY2(bool(strictRouted) == (k == 0), where.constData());
            }
        }
        total += shape.placements;
        qInfo("%s: %d placements isolated, %d with a forced minimum, %d above it (second down paths); the search's routing "
              "taken in %d; its budget ran out in %d; oracle %lld nodes, strict checked %d (%lld ms)",
              shape.name, isolated, sharing, gap, searched, unproven, qint64(oracleNodes), strictChecked, qint64(timer.elapsed()));
        if (gap > 0)
            off << QStringLiteral("%1: %2").arg(QString::fromLatin1(shape.name)).arg(gap);
        gaps += gap;
        QVERIFY2(isolated > 0, shape.name);
        QVERIFY2(sharing > 0, shape.name);
        QVERIFY2(searched > 0, shape.name);  // the search is exercised, not only the paper's allocation
        QVERIFY2(unproven * 20 <= shape.placements, shape.name);
    }
    qInfo("%d placements in %lld ms; pftree above the oracle's minimum in %d: %s", total, qint64(all.elapsed()), gaps,
          qPrintable(off.join(QStringLiteral("; "))));
    // pftree shares exactly the oracle's minimum on every placement: not yet where the minimum
    // needs second down paths (the gap above).
    if (gaps > 0)
        QEXPECT_FAIL("", "issue 41: the isolation search does not weigh second down paths for a class that has a path all its senders reach", Continue);
    QCOMPARE(gaps, 0);
}

}  // namespace

class TestPftreeDegraded : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void twoLevels() { runShapes(twoLevelShapes(), 2); }
    void threeLevels() { runShapes(threeLevelShapes(), 3); }

    // When the search's budget runs out, the routing says isolation was not proven impossible
    // (a warning the desk and OpenSM's log show), and it never shares more than the paper's
    // per-leaf allocation (a budget of 0: the search does not run).
    void budgetRunsOut()
    {
        const Shape &shape = threeLevelShapes()[7];  // several failures at once
        const GeneratedFabric g = degrade(test::generate({FabricShapeKind::SwitchRadix, shape.radix, shape.levels, 0}), shape);
        auto routeWith = [&](const Tenancy &tenancy, std::int64_t budget, PartitionRoutingReport *report) {
            PartitionAwareOptions options;
            options.isolationSearchBudget = budget;
            options.isolationConstruction = false;  // the branch and bound's own budget
            PartitionAwareFatTreeEngine engine(PartitionAwareFatTreeEngine::Algorithm::Extended, options);
            if (!engine.prepare(g.fabric, tenancy, {}))
                qFatal("prepare failed");
            Result<Routing> routed = engine.route({});
            if (!routed)
                qFatal("%s", qPrintable(routed.error().message));
            *report = engine.lastReport();
            const ValidationResult v = validateRouting(g.fabric, tenancy, routed->tables, LaneAssignment{routed->serviceLevels, {}});
            return std::make_pair(std::move(*routed), test::sharedLinks(v));
        };
        int stopped = 0, placements = 0;
        for (int n = 1; n <= 40; ++n) {
            std::mt19937 rng(std::uint32_t(n * 7 + 1));
            const Tenancy tenancy = tenancyOf(g, place(g, shape, rng), PolicyMode::BestEffort);
            PartitionRoutingReport paperReport, report;
            const auto [paper, paperShared] = routeWith(tenancy, 0, &paperReport);
            if (paperReport.isolation.outcome == IsolationOutcome::Kept)
                continue;  // the search is not needed
            ++placements;
            QCOMPARE(paperReport.isolation.outcome, IsolationOutcome::NotProven);
            QVERIFY2(paper.warnings.join(QLatin1Char('\n')).contains(QStringLiteral("phy-isolation not proven impossible")), qPrintable(paper.isolation));
            for (std::int64_t budget : {5, 20, 100}) {
                const auto [routed, shared] = routeWith(tenancy, budget, &report);
                QVERIFY(shared <= paperShared);
                if (report.isolation.outcome == IsolationOutcome::NotProven) {
                    QVERIFY(routed.warnings.join(QLatin1Char('\n')).contains(QStringLiteral("not proven")));
                    stopped += routed.isolation.contains(QStringLiteral("stopped at its budget")) ? 1 : 0;
                }
            }
        }
        qInfo("%d placements needed the search; its budget ran out in %d runs", placements, stopped);
        QVERIFY(placements > 0);
        QVERIFY(stopped > 0);
    }

    // The oracle test catches a symmetry cut that takes the degraded tree for a whole one
    // (PartitionAwareOptions::assumeSymmetry: every column alike, every top switch of two levels a
    // twin of the others): with it, pftree shares more than the oracle's minimum on placements
    // of the degraded trees where the engine's own cut matches the oracle; on whole trees, where
    // the assumption holds, it changes nothing.
    void assumedSymmetryIsCaught()
    {
        int caught = 0, placements = 0;
        QStringList where;
        for (const std::vector<Shape> *family : {&twoLevelShapes(), &threeLevelShapes()}) {
            for (const Shape &shape : *family) {
                const GeneratedFabric g = degrade(test::generate({FabricShapeKind::SwitchRadix, shape.radix, shape.levels, 0}), shape);
                const Tree tree = readTree(g.fabric, g.nodeLevel, g.hosts, shape.levels);
                for (int n = 1; n <= test::sampleSize(40); ++n) {
                    std::mt19937 rng(std::uint32_t(n * 7919 + shape.radix * 13 + shape.levels));
                    const Placement placement = place(g, shape, rng);
                    const Tenancy tenancy = tenancyOf(g, placement, PolicyMode::BestEffort);
                    auto sharedWith = [&](bool assume) {
                        PartitionAwareOptions options;
                        options.assumeSymmetry = assume;
                        options.isolationConstruction = false;  // the branch and bound alone, whose cut this is
                        PartitionAwareFatTreeEngine engine(PartitionAwareFatTreeEngine::Algorithm::Extended, options);
                        if (!engine.prepare(g.fabric, tenancy, {}))
                            qFatal("prepare failed");
                        Result<Routing> routed = engine.route({});
                        if (!routed)
                            qFatal("%s", qPrintable(routed.error().message));
                        return test::sharedLinks(validateRouting(g.fabric, tenancy, routed->tables, LaneAssignment{routed->serviceLevels, {}}));
                    };
                    const int own = sharedWith(false), assumed = sharedWith(true);
                    if (shape.failures.empty()) {
                        QCOMPARE(assumed, own);  // on a whole tree the assumption holds
                        continue;
                    }
                    ++placements;
                    const int k = oracleMinimum(tree, placement).minimum;
                    if (own == k && assumed > k) {
                        ++caught;
                        where << QStringLiteral("%1, placement %2: oracle %3, pftree %4 with the cut assuming symmetry")
                                     .arg(QString::fromLatin1(shape.name)).arg(n).arg(k).arg(assumed);
                    }
                    QVERIFY(assumed >= k);
                }
            }
        }
        qInfo("the cut assuming symmetry shares more than the oracle's minimum in %d of %d placements where the engine's own "
              "cut does not:\n%s", caught, placements, qPrintable(where.join(QLatin1Char('\n'))));
        QVERIFY(caught > 0);
    }

    // A permutation the oracle would use for a cut must really map the degraded tree onto
    // itself: on a tree with a failed leaf uplink the columns are not alike.
    void symmetriesAreProven()
    {
        Shape shape{"radix 4, 3 levels", 4, 3, {}, 2, 2, 0};
        const GeneratedFabric whole = test::generate({FabricShapeKind::SwitchRadix, 4, 3, 0});
        const Tree intact = readTree(whole.fabric, whole.nodeLevel, whole.hosts, 3);
        shape.failures = {{F::LeafUplink, 0, 0}};
        const GeneratedFabric degraded = degrade(whole, shape);
        const Tree cut = readTree(degraded.fabric, degraded.nodeLevel, degraded.hosts, 3);
        const NodeIndex leaf = *cut.leaves.begin();
        const NodeIndex lost = *std::find_if(intact.up.at(leaf).begin(), intact.up.at(leaf).end(),
                                             [&](NodeIndex m) { return !cut.up.at(leaf).count(m); });
        const NodeIndex kept = *cut.up.at(leaf).begin();
        // Another leaf of the same pod: whole, its paths through both columns are alike.
        NodeIndex sibling = kNoIndex;
        for (NodeIndex l : intact.down.at(kept))
            if (l != leaf)
                sibling = l;
        QVERIFY(sibling != kNoIndex);
        const Path viaLost{lost, *intact.up.at(lost).begin()}, viaKept{kept, *intact.up.at(kept).begin()};
        QVERIFY(symmetryBetween(intact, viaLost, viaKept));
        QVERIFY(!symmetryBetween(cut, viaLost, viaKept));
    }
};

QTEST_GUILESS_MAIN(TestPftreeDegraded)
#include "tst_pftree_degraded.moc"
