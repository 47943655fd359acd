// Drains for maintenance in-process (routing/intent/DrainPlan.h, IntentOptions::drained): the
// intent's drained set read, written and refused when malformed; the intent routed around a
// drained cable and a drained switch (no entry onto them, every pair still reachable, by this
// test's own walk); a drain that would cut hosts off not honoured and refused with the pairs
// named; the file engine's drain moving only the entries that used the element; the set changed
// by name with its errors; and the desk's review of a drain.

#include "DrainPlan.h"
#include "FabricGenerator.h"
#include "PathChanges.h"
#include "SharedLinks.h"
#include "ProjectFile.h"
#include "TenantTrees.h"
#include "Validation.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QtTest>

#include <set>

using namespace weft;

namespace {

// Switch ports whose cable leads onto `cable` (both ends) or into `sw`.
std::set<std::pair<Guid, int>> portsOnto(const Fabric &fabric, std::pair<NodeIndex, int> cable, NodeIndex sw)
{
    std::set<std::pair<Guid, int>> into;
    if (cable.first != kNoIndex) {
        const Port &a = fabric.port(fabric.portOf(cable.first, cable.second));
        const Port &b = fabric.port(a.remote);
        into.insert({fabric.node(a.node).guid, a.number});
        into.insert({fabric.node(b.node).guid, b.number});
    }
    if (sw != kNoIndex)
        for (int p = 1; p <= fabric.node(sw).portCount; ++p) {
            const PortIndex port = fabric.portOf(sw, p);
            if (port != kNoIndex && fabric.port(port).remote != kNoIndex) {
                const Port &r = fabric.port(fabric.port(port).remote);
                into.insert({fabric.node(r.node).guid, r.number});
            }
        }
    return into;
}

int entriesOnto(const ForwardingTables &tables, const std::set<std::pair<Guid, int>> &into)
{
    int count = 0;
    for (const SwitchForwardingTable &sw : tables.switches())
        for (Lid lid = 1; lid <= sw.lft.top(); ++lid)
            count += sw.lft.port(lid) != kNoRoute && into.count({sw.guid, sw.lft.port(lid)}) ? 1 : 0;
    return count;
}

struct Elements
{
    std::pair<NodeIndex, int> uplink{kNoIndex, 0};  // a leaf's uplink, from the leaf
    NodeIndex spine = kNoIndex;                      // a top switch not on it
    NodeIndex leaf = kNoIndex;
};

Elements pick(const test::Tree &tree)
{
    const Fabric &f = tree.generated.fabric;
    const std::vector<int> &level = tree.generated.nodeLevel;
    Elements e;
    int bottom = 0;
    for (NodeIndex s : f.switches())
        bottom = std::max(bottom, level[std::size_t(s)]);
    for (NodeIndex s : f.switches()) {
        if (level[std::size_t(s)] != bottom || e.leaf != kNoIndex)
            continue;
        e.leaf = s;
        for (int p = 1; p <= f.node(s).portCount && e.uplink.first == kNoIndex; ++p) {
            const PortIndex port = f.portOf(s, p);
            if (port != kNoIndex && f.port(port).remote != kNoIndex && f.node(f.port(f.port(port).remote).node).type == NodeType::Switch)
                e.uplink = {s, p};
        }
    }
    const NodeIndex upper = f.port(f.port(f.portOf(e.uplink.first, e.uplink.second)).remote).node;
    for (NodeIndex s : f.switches())
        if (level[std::size_t(s)] == 0 && s != upper)
            e.spine = s;
    return e;
}

}  // namespace

class TestDrainPlan : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void drainedSetIsReadWrittenAndChecked()
    {
        const test::Tree tree = test::makeTree(FabricShapeKind::KaryNTree, 4, 2);
        const Fabric &f = tree.generated.fabric;
        const Elements e = pick(tree);
        WhatIf set;
        set.failedLinkPorts.emplace_back(f.node(e.uplink.first).guid, e.uplink.second);
        set.failedSwitches.push_back(f.node(e.spine).guid);
        const Project drained = withDrained(tree.intent, set, &f);
        Result<Project> again = readProject(writeProject(drained), QStringLiteral("intent.weft"));
        QVERIFY(again);
        Result<IntentOptions> options = intentOptions(*again, QStringLiteral("intent.weft"));
        QVERIFY2(options, options ? "" : qPrintable(options.error().toString()));
        QCOMPARE(options->drained.failedLinkPorts, set.failedLinkPorts);
        QCOMPARE(options->drained.failedSwitches, set.failedSwitches);
        QVERIFY(!withDrained(*again, {}).routingOptions.contains(QStringLiteral("drained")));

        Project bad = tree.intent;
        bad.routingOptions[QStringLiteral("drained")] = QJsonObject{{QStringLiteral("switches"), QJsonArray{QStringLiteral("spine")}}};
        Result<IntentOptions> refused = intentOptions(bad, QStringLiteral("intent.weft"));
        QVERIFY(!refused);
        QCOMPARE(refused.error().file, QStringLiteral("intent.weft"));
        QVERIFY2(refused.error().message.contains(QStringLiteral("switches[0]")), qPrintable(refused.error().message));
        bad.routingOptions[QStringLiteral("drained")] = QJsonObject{{QStringLiteral("links"), QJsonArray{QJsonObject{{QStringLiteral("guid"), QStringLiteral("0x12")}}}}};
        refused = intentOptions(bad, QStringLiteral("intent.weft"));
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.contains(QStringLiteral("\"port\"")), qPrintable(refused.error().message));

        // Changed by name: a cable matches by either end; errors say why.
        WhatIf otherEnd;
        const Port &up = f.port(f.port(f.portOf(e.uplink.first, e.uplink.second)).remote);
        otherEnd.failedLinkPorts.emplace_back(f.node(up.node).guid, up.number);
        QVERIFY(!changeDrainedSet(f, set, otherEnd, true));
        Result<WhatIf> undrained = changeDrainedSet(f, set, otherEnd, false);
        QVERIFY(undrained);
        QVERIFY(undrained->failedLinkPorts.empty());
        QCOMPARE(undrained->failedSwitches.size(), std::size_t(1));
        Result<WhatIf> notDrained = changeDrainedSet(f, *undrained, otherEnd, false);
        QVERIFY(!notDrained);
        QVERIFY(notDrained.error().message.contains(QStringLiteral("is not drained")));
    }

    void intentRoutesAroundDrainedElements_data()
    {
        QTest::addColumn<int>("levels");
        QTest::addRow("2 levels") << 2;
        QTest::addRow("3 levels") << 3;
    }
    void intentRoutesAroundDrainedElements()
    {
        QFETCH(int, levels);
        const test::Tree tree = test::makeTree(FabricShapeKind::KaryNTree, 4, levels);
        const Fabric &f = tree.generated.fabric;
        const Elements e = pick(tree);
        const std::set<std::pair<Guid, int>> onto = portsOnto(f, e.uplink, e.spine);
        Result<IntentRouting> whole = routeIntent(f, tree.intent);
        QVERIFY(whole);
        QVERIFY(entriesOnto(whole->routing.tables, onto) > 0);  // they carry routes before

        WhatIf set;
        set.failedLinkPorts.emplace_back(f.node(e.uplink.first).guid, e.uplink.second);
        set.failedSwitches.push_back(f.node(e.spine).guid);
        const Project drained = withDrained(tree.intent, set, &f);
        Result<IntentRouting> routed = routeIntent(f, drained);
        QVERIFY2(routed, routed ? "" : qPrintable(routed.error().toString()));
        QVERIFY(routed->routedOn);
        QCOMPARE(entriesOnto(routed->routing.tables, onto), 0);
        // The drained switch's table routes only its own LID.
        const SwitchForwardingTable *own = routed->routing.tables.find(f.node(e.spine).guid);
        QVERIFY(own);
        int routes = 0;
        for (Lid lid = 1; lid <= own->lft.top(); ++lid)
            routes += own->lft.port(lid) != kNoRoute ? 1 : 0;
        QCOMPARE(routes, 1);
        QCOMPARE(own->lft.port(f.nodeLid(e.spine)), 0);
        // Every pair still reaches the other: validation and the tests' own walk.
        const ValidationResult v = validateRouting(f, tree.intent.tenancy, routed->routing.tables);
        QCOMPARE(v.unreachablePartitionPairs + v.unreachableOtherPairs, std::uint64_t(0));
        QCOMPARE(v.loops, std::size_t(0));
        QCOMPARE(test::judgeAfterFault(f, routed->routing.tables, test::allPaths(f, routed->routing.tables)).unreachable, std::size_t(0));
        QVERIFY(drainProblems(f, tree.intent.tenancy, *routed).isEmpty());
        // The same at a later sweep (nothing changed: kept), as the plugin runs it.
        InstalledRouting installed;
        installed.fabric = routed->routedOn;
        installed.tables = routed->routing.tables;
        installed.intentDigest = QStringLiteral("d");
        Result<IntentRouting> later = routeIntentAfterChange(f, drained, QStringLiteral("d"), &installed);
        QVERIFY(later);
        QCOMPARE(later->method, QStringLiteral("kept"));
        QVERIFY(later->routing.tables == routed->routing.tables);
    }

    void drainCuttingHostsOffIsRefused()
    {
        const test::Tree tree = test::makeTree(FabricShapeKind::KaryNTree, 4, 2);
        const Fabric &f = tree.generated.fabric;
        const Elements e = pick(tree);
        WhatIf set;
        set.failedSwitches.push_back(f.node(e.leaf).guid);
        Result<IntentRouting> routed = routeDrainChange(f, withDrained(tree.intent, set, &f), nullptr, set, true, true);
        QVERIFY(routed);
        QVERIFY(!routed->routedOn);  // not honoured: the whole fabric routed
        const QStringList problems = drainProblems(f, tree.intent.tenancy, *routed);
        QVERIFY(!problems.isEmpty());
        QVERIFY2(problems.front().contains(QStringLiteral("cut off")), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    void fileEngineDrainMovesOnlyWhatUsedIt()
    {
        const test::Tree tree = test::makeTree(FabricShapeKind::KaryNTree, 4, 3);
        const Fabric &f = tree.generated.fabric;
        const Elements e = pick(tree);
        Result<IntentRouting> held = routeIntent(f, tree.intent);
        QVERIFY(held);
        WhatIf set;
        set.failedLinkPorts.emplace_back(f.node(e.uplink.first).guid, e.uplink.second);
        Result<IntentRouting> routed = routeDrainChange(f, tree.intent, &held->routing.tables, set, false, true);
        QVERIFY2(routed, routed ? "" : qPrintable(routed.error().toString()));
        const std::set<std::pair<Guid, int>> onto = portsOnto(f, e.uplink, kNoIndex);
        const int before = entriesOnto(held->routing.tables, onto);
        QVERIFY(before > 0);
        QCOMPARE(entriesOnto(routed->routing.tables, onto), 0);
        QVERIFY(drainProblems(f, tree.intent.tenancy, *routed).isEmpty());
        // Only the entries that used the cable, plus the few their moves force, changed.
        const test::Paths was = test::allPaths(f, held->routing.tables);
        QVERIFY(routed->routedOn);  // judged on the fabric without the cable: its paths are the forced ones
        const test::Judged j = test::judgeAfterFault(*routed->routedOn, routed->routing.tables, was);
        QCOMPARE(j.unreachable, std::size_t(0));
        qInfo("file engine drain by %s: %zu forced, %zu paths changed", qPrintable(routed->method), j.forced, j.changed);
        QVERIFY(j.forced > 0);
        if (routed->method == QLatin1String("repair")) {
            QVERIFY2(double(j.changed) <= 1.25 * double(j.forced), qPrintable(QStringLiteral("%1 changed for %2 forced").arg(j.changed).arg(j.forced)));
            return;
        }
        // The repair is passed over only where it would share links the intent's engine keeps
        // apart (the operator's phy isolation): the order says so, the change keeps them apart,
        // and it still moves fewer paths than the engine routing the drained fabric afresh.
        const QString notes = routed->notes.join(QLatin1Char('\n'));
        QVERIFY2(notes.contains(QLatin1String("repair:")) && notes.contains(QLatin1String("isolation violations")), qPrintable(notes));
        const ValidationResult v = validateRouting(*routed->routedOn, tree.intent.tenancy, routed->routing.tables,
                                                   LaneAssignment{routed->routing.serviceLevels, {}});
        QCOMPARE(test::sharedLinks(v), 0);
        Result<IntentRouting> afresh = routeIntent(*routed->routedOn, tree.intent);
        QVERIFY(afresh);
        const test::Judged whole = test::judgeAfterFault(*routed->routedOn, afresh->routing.tables, was);
        QVERIFY2(j.changed < whole.changed, qPrintable(QStringLiteral("%1 changed, %2 by routing afresh").arg(j.changed).arg(whole.changed)));
    }

    void desksReviewOfADrain()
    {
        const test::Tree tree = test::makeTree(FabricShapeKind::KaryNTree, 4, 2);
        auto fabric = std::make_shared<const Fabric>(tree.generated.fabric);
        const Elements e = pick(tree);
        Result<IntentRouting> held = routeIntent(*fabric, tree.intent);
        QVERIFY(held);
        DrainRequest request;
        request.fabric = fabric;
        request.current = std::make_shared<const ForwardingTables>(held->routing.tables);
        request.elements.failedSwitches.push_back(fabric->node(e.spine).guid);
        request.intent = withDrained(tree.intent, request.elements, fabric.get());
        Result<DrainPreview> preview = computeDrainPreview(request);
        QVERIFY2(preview, preview ? "" : qPrintable(preview.error().toString()));
        QVERIFY(preview->problems.isEmpty());
        QVERIFY(preview->preview.current.has_value());
        QVERIFY(preview->preview.proposed.tables);
        QCOMPARE(entriesOnto(*preview->preview.proposed.tables, portsOnto(*fabric, {kNoIndex, 0}, e.spine)), 0);
        QVERIFY(!(*preview->preview.proposed.tables == *request.current));
        QVERIFY(preview->preview.proposed.validation.ok || preview->preview.proposed.validation.policyViolations > 0);
        QCOMPARE(preview->preview.proposed.validation.unreachablePartitionPairs, std::uint64_t(0));
    }
};

QTEST_GUILESS_MAIN(TestDrainPlan)
#include "tst_drain_plan.moc"
