// The routing engines' table (routingEngines(): the factory, the names and the descriptions from
// one list), and the phases of the two longest routings called one by one: pftree's route()
// (PftreePhases.h) and the intent's repair of up/down tables (UpDownRepair.h). The phases run in
// sequence must give what the whole gives, entry for entry and warning for warning, and each
// phase's output keeps the invariant it promises.

#include "FabricEdit.h"
#include "GeneratedFabrics.h"
#include "IntentRouting.h"
#include "PartitionAwareFatTree.h"
#include "PftreePhases.h"
#include "RoutingEngine.h"
#include "TenantTrees.h"
#include "UpDownRepair.h"

#include <QtTest>

#include <algorithm>
#include <functional>
#include <optional>
#include <set>

using namespace weft;

namespace {

using Algo = PartitionAwareFatTreeEngine::Algorithm;

// `count` partitions dealt host by host over the generated hosts, with the given policies in
// turn, so that partitions share leaves and cables.
Tenancy dealtPartitions(const GeneratedFabric &g, int count, const std::vector<IsolationPolicy> &policies, PolicyMode mode)
{
    Tenancy tenancy;
    tenancy.mode = mode;
    for (int k = 0; k < count; ++k) {
        Partition p;
        p.name = QStringLiteral("tenant%1").arg(k + 1);
        p.pkey = std::uint16_t(0x10 + k);
        p.policy = policies[std::size_t(k) % policies.size()];
        tenancy.partitions.push_back(p);
    }
    for (std::size_t h = 0; h < g.hosts.size(); ++h) {
        PartitionMember m;
        m.guid = g.fabric.port(g.fabric.portOf(g.hosts[h], 1)).guid;
        tenancy.partitions[h % std::size_t(count)].members.push_back(m);
    }
    return tenancy;
}

// The first cable from a leaf (a switch with a host) up to another switch.
PortIndex firstLeafUplink(const Fabric &fabric)
{
    const NodeIndex leaf = fabric.port(fabric.port(fabric.portOf(fabric.endNodes().front(), 1)).remote).node;
    for (int p = 1; p <= fabric.node(leaf).portCount; ++p) {
        const Port &port = fabric.port(fabric.portOf(leaf, p));
        if (port.remote != kNoIndex && fabric.node(fabric.port(port.remote).node).type == NodeType::Switch)
            return fabric.portOf(leaf, p);
    }
    return kNoIndex;
}

}  // namespace

class TestEnginePhases : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void engineTable()
    {
        // Callers (weft route's --help, the preview's list, saved projects) rely on these names
        // in this order.
        const QStringList expected{QStringLiteral("ftree"), QStringLiteral("minhop"), QStringLiteral("updn"),
                                   QStringLiteral("pftree"), QStringLiteral("pftree-wt"), QStringLiteral("wftree"),
                                   QStringLiteral("sssp"), QStringLiteral("sssp2"), QStringLiteral("vswitch-ftree")};
        QCOMPARE(routingEngineNames(), expected);
        QCOMPARE(int(routingEngines().size()), expected.size());
        std::set<QString> seen;
        for (const RoutingEngineEntry &entry : routingEngines()) {
            const QString name = QLatin1String(entry.name);
            QVERIFY2(seen.insert(name).second, qPrintable(name + QStringLiteral(" listed twice")));
            const std::unique_ptr<RoutingEngine> made = entry.make();
            QVERIFY(made);
            QCOMPARE(made->name(), name);
            const std::unique_ptr<RoutingEngine> byName = makeRoutingEngine(name);
            QVERIFY(byName);
            QCOMPARE(byName->name(), name);
            QVERIFY2(!routingEngineDescription(name).trimmed().isEmpty(), qPrintable(name));
            QCOMPARE(routingEngineDescription(name), made->description());
        }
    }

    void unknownEngine()
    {
        const QString unknown = QStringLiteral("ftree2");
        QVERIFY(!makeRoutingEngine(unknown));
        QVERIFY(!makeRoutingEngine(QString()));
        QVERIFY(routingEngineDescription(unknown).isEmpty());
        const GeneratedFabric g = test::generate({FabricShapeKind::KaryNTree, 2, 2, 0});
        const Result<Routing> refused = routeFabric(unknown, g.fabric, {});
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.contains(QStringLiteral("\"ftree2\"")), qPrintable(refused.error().message));
        for (const QString &name : routingEngineNames())
            QVERIFY2(refused.error().message.contains(name), qPrintable(refused.error().message));
    }

    // pftree's phases, called one by one, give route()'s tables, service levels, reach, warnings
    // and report; each phase's output keeps its invariant on the way.
    void pftreePhasesGiveRoute_data()
    {
        QTest::addColumn<int>("algorithm");
        QTest::addColumn<int>("shape");  // 0: the tenants' 3-level tree, 1: a degraded 4-ary 3-tree, 2: a 4-ary 2-tree
        QTest::addColumn<int>("maxVirtualLanes");
        const std::pair<const char *, Algo> algorithms[] = {
            {"pftree", Algo::Extended}, {"pftree-wt", Algo::Weighted}, {"wftree", Algo::WeightedFatTree}, {"pftree-base", Algo::Base}};
        const char *shapes[] = {"tenant tree", "degraded 4-ary 3-tree", "4-ary 2-tree"};
        for (const auto &[name, algorithm] : algorithms)
            for (int shape = 0; shape < 3; ++shape)
                QTest::addRow("%s, %s", name, shapes[shape]) << int(algorithm) << shape << 8;
        QTest::addRow("pftree, 4-ary 2-tree, 2 VLs") << int(Algo::Extended) << 2 << 2;
    }

    void pftreePhasesGiveRoute()
    {
        QFETCH(int, algorithm);
        QFETCH(int, shape);
        QFETCH(int, maxVirtualLanes);
        Fabric fabric;
        Tenancy tenancy;
        if (shape == 0) {
            const test::Tree tree = test::makeTree(FabricShapeKind::SwitchRadix, 8, 3);
            fabric = tree.generated.fabric;
            tenancy = tree.intent.tenancy;
        } else {
            const GeneratedFabric g = shape == 1 ? test::generate({FabricShapeKind::KaryNTree, 4, 3, 6}, 7)
                                                 : test::generate({FabricShapeKind::KaryNTree, 4, 2, 0});
            fabric = g.fabric;
            tenancy = dealtPartitions(g, 5, {IsolationPolicy::Physical, IsolationPolicy::VirtualLane, IsolationPolicy::Default},
                                      PolicyMode::BestEffort);
        }
        PartitionAwareOptions options;
        options.maxVirtualLanes = maxVirtualLanes;
        PartitionAwareFatTreeEngine engine(Algo(algorithm), options);
        const Status prepared = engine.prepare(fabric, tenancy, {});
        QVERIFY2(prepared, prepared ? "" : qPrintable(prepared.error().toString()));
        const Result<Routing> whole = engine.route({});
        QVERIFY2(whole, whole ? "" : qPrintable(whole.error().toString()));
        const PartitionRoutingReport wholeReport = engine.lastReport();

        pftree::Run run(engine, {});
        const std::vector<pftree::Target> targets = pftree::routingTargets(run);
        // Every compute node once, then every switch once, in switch order.
        const std::size_t switches = fabric.switches().size();
        QVERIFY(targets.size() > switches);
        std::set<int> nodes;
        for (std::size_t i = 0; i < targets.size(); ++i) {
            const pftree::Target &t = targets[i];
            if (i < targets.size() - switches) {
                QVERIFY(t.computeNode);
                QVERIFY2(nodes.insert(t.index).second, "a compute node routed twice");
            } else {
                QVERIFY(!t.computeNode && !t.counted);
                QCOMPARE(t.index, int(i - (targets.size() - switches)));
            }
        }
        QCOMPARE(nodes.size(), fabric.endNodes().size());

        // These trees are small enough for the exact search: route() takes no early choice, and
        // runs the phases below.
        QVERIFY(!pftree::isolationFirst(run, targets));
        pftree::RouterPtr rows = pftree::routeRows(run, targets);
        QVERIFY(rows);
        // pftree walks the paper's P(l) only to its first phy conflict (the search walks the rest
        // where it keeps the paper's routing).
        pftree::LinkSharing sharing = pftree::linkSharing(run, *rows, Algo(algorithm) == Algo::Extended);
        QVERIFY(!sharing.partsOfLink.empty());
        pftree::IsolationFinding finding = pftree::isolationSearch(run, targets, sharing, rows.get());
        std::optional<pftree::IsolatedRouting> &isolated = finding.routing;
        QCOMPARE(finding.status.text, whole->isolation);
        if (isolated) {
            QCOMPARE(Algo(algorithm), Algo::Extended);
            QVERIFY(isolated->rows);
            QVERIFY(isolated->warning.startsWith(QStringLiteral("pftree: ")));
            rows = std::move(isolated->rows);
            sharing = std::move(isolated->sharing);
        } else if (finding.paperSharing) {
            sharing = std::move(*finding.paperSharing);
        } else if (sharing.partial) {
            sharing = pftree::linkSharing(run, *rows);
        }
        QVERIFY(!sharing.partial);
        for (const std::vector<int> &parts : sharing.partsOfLink)
            QVERIFY2(std::adjacent_find(parts.begin(), parts.end(), std::greater_equal<int>()) == parts.end(),
                     "a link's partitions are not strictly ascending");

        const Result<pftree::VirtualLanes> lanes = pftree::assignLanes(run, sharing);
        QVERIFY2(lanes, lanes ? "" : qPrintable(lanes.error().toString()));
        for (int vl : lanes->ofKey)
            QVERIFY(vl >= 0 && vl < maxVirtualLanes);
        Result<pftree::PolicyCheck> checked = pftree::checkPolicies(run, *rows, sharing, *lanes);
        QVERIFY(checked);
        int shared = 0;
        for (const std::vector<int> &parts : sharing.partsOfLink)
            shared += parts.size() >= 2 ? 1 : 0;
        QCOMPARE(checked->report.sharedLinks, shared);

        PartitionRoutingReport report = checked->report;
        const Routing phased = pftree::finishRouting(run, *rows, *lanes, whole->warnings, report);
        QVERIFY(phased.tables == whole->tables);
        QCOMPARE(phased.serviceLevels, whole->serviceLevels);
        QCOMPARE(phased.reachedFromEverySwitch, whole->reachedFromEverySwitch);
        QCOMPARE(phased.engine, whole->engine);
        QCOMPARE(report.virtualLanes, wholeReport.virtualLanes);
        QCOMPARE(report.routingPKey, wholeReport.routingPKey);
        QCOMPARE(report.sharedLinks, wholeReport.sharedLinks);
        QCOMPARE(report.selectionConflicts, wholeReport.selectionConflicts);
        QCOMPARE(report.violations.size(), wholeReport.violations.size());

        // route()'s warnings end with the lanes' and the checks', in that order, after the
        // search's (when it was taken) and the note on walks that found no route.
        const QStringList tail = lanes->warnings + checked->warnings;
        QVERIFY(whole->warnings.size() >= tail.size());
        QCOMPARE(whole->warnings.mid(whole->warnings.size() - tail.size()), tail);
        const QStringList before = whole->warnings.mid(0, whole->warnings.size() - tail.size());
        const bool noted = std::any_of(before.begin(), before.end(),
                                       [](const QString &w) { return w.contains(QStringLiteral("intra-partition walk")); });
        QCOMPARE(noted, sharing.unreachable > 0);
        if (isolated)
            QVERIFY(before.contains(isolated->warning));
        QCOMPARE(phased.warnings, whole->warnings);
    }

    // With one data VL and a strict tenancy, the lanes phase alone refuses, with route()'s words.
    void lanesPhaseRefusesAsRouteDoes()
    {
        // Three lane partitions dealt host by host over two spines: some cable carries two.
        test::Tree tree = test::makeTree(FabricShapeKind::SwitchRadix, 4, 2, true);
        tree.intent.tenancy.mode = PolicyMode::Strict;
        PartitionAwareOptions options;
        options.maxVirtualLanes = 1;
        PartitionAwareFatTreeEngine engine(Algo::Extended, options);
        QVERIFY(engine.prepare(tree.generated.fabric, tree.intent.tenancy, {}));
        const Result<Routing> whole = engine.route({});
        QVERIFY2(!whole, "one VL was enough");

        pftree::Run run(engine, {});
        const std::vector<pftree::Target> targets = pftree::routingTargets(run);
        pftree::RouterPtr rows = pftree::routeRows(run, targets);
        QVERIFY(rows);
        const pftree::LinkSharing sharing = pftree::linkSharing(run, *rows);
        QVERIFY(!pftree::isolationSearch(run, targets, sharing).routing);  // no phy partitions
        const Result<pftree::VirtualLanes> lanes = pftree::assignLanes(run, sharing);
        QVERIFY(!lanes);
        QCOMPARE(lanes.error().message, whole.error().message);
        QVERIFY2(lanes.error().message.contains(QStringLiteral("only one data VL")), qPrintable(lanes.error().message));
    }

    // A cancelled run: the rows phase says so with nullptr, as route() fails.
    void rowsPhaseCancels()
    {
        const GeneratedFabric g = test::generate({FabricShapeKind::KaryNTree, 4, 3, 0});
        PartitionAwareFatTreeEngine engine(Algo::Extended);
        QVERIFY(engine.prepare(g.fabric, {}, {}));
        RoutingOptions options;
        options.progress = [](int done, int) { return done < 64; };
        pftree::Run run(engine, options);
        QVERIFY(!pftree::routeRows(run, pftree::routingTargets(run)));
        QVERIFY(!engine.route(options));
    }

    // The repair's phases after a leaf uplink is cut, one by one: the ranks are up/down's, the
    // failures are what the cut broke, the moved tables are repairUpDown's, and a second look
    // finds nothing left to move.
    void repairPhases()
    {
        const test::Tree tree = test::makeTree(FabricShapeKind::SwitchRadix, 8, 3);
        const Fabric &whole = tree.generated.fabric;
        const Result<IntentRouting> first = routeIntent(whole, tree.intent);
        QVERIFY(first);
        const ForwardingTables &installed = first->routing.tables;

        FabricEdit edit;
        edit.cutPorts.assign(whole.ports().size(), false);
        edit.removedNodes.assign(whole.nodes().size(), false);
        const PortIndex uplink = firstLeafUplink(whole);
        QVERIFY(uplink != kNoIndex);
        edit.cutPorts[std::size_t(uplink)] = true;
        const Result<Fabric> cut = editedFabric(whole, edit);
        QVERIFY(cut);
        const Fabric &fabric = *cut;
        const Tenancy &tenancy = tree.intent.tenancy;

        const Result<repair::UpDownGraph> graph = repair::rankSwitches(fabric);
        QVERIFY2(graph, graph ? "" : qPrintable(graph.error().toString()));
        const std::size_t switches = fabric.switches().size();
        QCOMPARE(graph->rankOf.size(), switches);
        QCOMPARE(graph->byRankDown.size(), switches);
        for (std::size_t t = 0; t < switches; ++t) {
            bool hasHost = false;
            for (int p = 1; p <= graph->portCountOf[t]; ++p)
                hasHost = hasHost || graph->peerOf[t * graph->stride + std::size_t(p)] == -2;
            QCOMPARE(graph->rankOf[t] == 0, hasHost);
            for (int u = graph->upBegin[t]; u < graph->upBegin[t + 1]; ++u)
                QVERIFY(graph->rankOf[std::size_t(graph->upPeers[std::size_t(u)])] > graph->rankOf[t]);
        }
        for (std::size_t i = 1; i < switches; ++i)
            QVERIFY(graph->rankOf[std::size_t(graph->local[std::size_t(graph->byRankDown[i - 1])])]
                    >= graph->rankOf[std::size_t(graph->local[std::size_t(graph->byRankDown[i])])]);

        Result<repair::RepairTables> tables = repair::installedTables(fabric, installed);
        QVERIFY(tables);
        QCOMPARE(tables->tables.size(), switches);
        const repair::PartitionBits bits = repair::partitionBits(fabric, tenancy, tables->top);
        QVERIFY(bits.lastLid >= fabric.maxLid());
        QCOMPARE(bits.ofLid.size(), (std::size_t(bits.lastLid) + 1) * bits.words);
        repair::PortUsage usage = repair::portUsage(*graph, *tables, bits);
        const repair::Failures failures = repair::findFailures(fabric, *graph, *tables, bits.lastLid);
        QVERIFY2(!failures.entries.empty(), "a cut uplink broke no entry");
        QVERIFY(std::is_sorted(failures.entries.begin(), failures.entries.end(),
                               [](const repair::Failure &a, const repair::Failure &b) { return a.lid < b.lid; }));
        // The cut leaf's entries that went up the lost cable are among the failures.
        const NodeIndex leaf = whole.port(uplink).node;
        const int leafLocal = graph->local[std::size_t(leaf)];
        const SwitchForwardingTable *leafTable = installed.find(whole.node(leaf).guid);
        QVERIFY(leafTable);
        std::size_t leafEntriesUp = 0, leafFailures = 0;
        for (Lid lid = 1; lid <= leafTable->lft.top(); ++lid)
            leafEntriesUp += leafTable->lft.port(lid) == whole.port(uplink).number ? 1 : 0;
        for (const repair::Failure &f : failures.entries)
            leafFailures += f.sw == leafLocal ? 1 : 0;
        QVERIFY(leafEntriesUp > 0);
        QVERIFY(leafFailures >= leafEntriesUp);

        const Status moved = repair::moveFailedEntries(fabric, *graph, *tables, bits, usage, failures);
        QVERIFY2(moved, moved ? "" : qPrintable(moved.error().toString()));
        const repair::Failures after = repair::findFailures(fabric, *graph, *tables, bits.lastLid);
        QVERIFY2(after.entries.empty(), "entries still to move after the repair");

        const Result<repair::Repair> repaired = repair::repairUpDown(fabric, installed, tenancy);
        QVERIFY(repaired);
        QVERIFY(repaired->tables == tables->tables);
        QCOMPARE(repaired->reachedFromEverySwitch, failures.everySwitchReaches);
        QVERIFY(!(repaired->tables == installed));
    }

    // A switch of the fabric with no installed table: the tables phase refuses, as the repair.
    void repairRefusesMissingTable()
    {
        const test::Tree tree = test::makeTree(FabricShapeKind::SwitchRadix, 8, 2);
        const Fabric &fabric = tree.generated.fabric;
        const Result<IntentRouting> first = routeIntent(fabric, tree.intent);
        QVERIFY(first);
        ForwardingTables partial;
        for (std::size_t t = 1; t < first->routing.tables.size(); ++t) {
            const SwitchForwardingTable &sw = first->routing.tables.switches()[t];
            partial.lft(std::size_t(partial.addSwitch(sw.guid, sw.lid, sw.description))) = sw.lft;
        }
        const Result<repair::RepairTables> tables = repair::installedTables(fabric, partial);
        QVERIFY(!tables);
        QVERIFY2(tables.error().message.startsWith(QStringLiteral("no installed table for switch")), qPrintable(tables.error().message));
        const Result<repair::Repair> repaired = repair::repairUpDown(fabric, partial, tree.intent.tenancy);
        QVERIFY(!repaired);
        QCOMPARE(repaired.error().message, tables.error().message);
    }
};

QTEST_GUILESS_MAIN(TestEnginePhases)
#include "tst_engine_phases.moc"
