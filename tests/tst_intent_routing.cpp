// The intent routed after faults, as Weft's engine inside OpenSM routes it at each sweep
// (routeIntentAfterChange), on a 3-level tree with two phy-isolated tenants and two on lanes:
// a leaf uplink lost, then a core link, then a whole aggregation switch. After each, judged by
// the tests' own walker and by validation: every live pair reachable, no entry into a port
// without a cable, no loop, no credit loop, the tenants' isolation as a full pftree of the
// degraded tree keeps it, and no more than 1.25x the forced paths moved (tst_lab_osm_engine
// does the same through the real OpenSM; this one shows the figures in a second).

#include "FabricEdit.h"
#include "FabricGenerator.h"
#include "IntentRouting.h"
#include "PathChanges.h"
#include "TenantTrees.h"
#include "Validation.h"

#include <QtTest>

using namespace weft;

namespace {

ValidationResult validated(const Fabric &fabric, const Tenancy &tenancy, const Routing &routing)
{
    LaneAssignment lanes;
    lanes.serviceLevels = routing.serviceLevels;
    return validateRouting(fabric, tenancy, routing.tables, lanes);
}

QString violationsText(const ValidationResult &v)
{
    QStringList lines;
    for (const PartitionIsolationReport &p : v.partitions)
        for (const QString &violation : p.violations)
            lines << p.name + QStringLiteral(": ") + violation;
    return lines.join(QLatin1Char('\n'));
}

// Whether every switch reaches `lid` by the tables: each walk, followed port by port through
// the fabric's cables, ends at the end node that has the LID, within as many steps as there
// are switches (so no loop). The tests' own walker, independent of the engines and of the
// intent's checks.
bool everySwitchReaches(const Fabric &fabric, const ForwardingTables &tables, Lid lid)
{
    const PortIndex target = fabric.portByLid(lid);
    if (target == kNoIndex)
        return false;
    for (const NodeIndex start : fabric.switches()) {
        NodeIndex at = start;
        bool arrived = at == fabric.port(target).node;  // a switch's own LID
        for (std::size_t step = 0; step <= fabric.switches().size() && !arrived; ++step) {
            const SwitchForwardingTable *table = tables.find(fabric.node(at).guid);
            if (!table)
                return false;
            const int out = table->lft.port(lid);
            if (out < 1 || out > fabric.node(at).portCount)
                return false;
            const PortIndex remote = fabric.port(fabric.portOf(at, out)).remote;
            if (remote == kNoIndex)
                return false;
            at = fabric.port(remote).node;
            arrived = at == fabric.port(target).node;
            if (!arrived && fabric.node(at).type != NodeType::Switch)
                return false;
        }
        if (!arrived)
            return false;
    }
    return true;
}

// The LIDs a routing vouches for, each checked by the walker; how many of them are end ports'.
std::size_t checkVouched(const Fabric &fabric, const Routing &routing, QString *wrong)
{
    std::size_t vouched = 0;
    for (std::size_t lid = 1; lid < routing.reachedFromEverySwitch.size(); ++lid) {
        if (!routing.reachedFromEverySwitch[lid])
            continue;
        const PortIndex port = fabric.portByLid(Lid(lid));
        vouched += port != kNoIndex && fabric.node(fabric.port(port).node).type != NodeType::Switch ? 1 : 0;
        if (wrong->isEmpty() && !everySwitchReaches(fabric, routing.tables, Lid(lid)))
            *wrong = QStringLiteral("LID %1 is vouched for by %2 but not reached from every switch").arg(lid).arg(routing.engine);
    }
    return vouched;
}

std::size_t endPortLids(const Fabric &fabric)
{
    std::size_t count = 0;
    for (const NodeIndex n : fabric.endNodes())
        for (int p = 1; p <= fabric.node(n).portCount; ++p)
            count += fabric.port(fabric.portOf(n, p)).lid != 0 && fabric.port(fabric.portOf(n, p)).remote != kNoIndex ? 1 : 0;
    return count;
}

}  // namespace

class TestIntentRouting : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // What an engine or the repair vouches for (every switch reaches the LID: the walks of the
    // intent's check are skipped for it) is true by the tests' own walker, on a whole tree and
    // after faults; on a whole tree the fat-tree engines vouch for every host.
    void whatIsVouchedForIsReached()
    {
        const test::Tree tree = test::makeTree(FabricShapeKind::SwitchRadix, 8, 3);
        const Fabric &whole = tree.generated.fabric;
        const std::size_t hosts = endPortLids(whole);
        QVERIFY(hosts > 0);
        for (const QString &engine : {QStringLiteral("ftree"), QStringLiteral("pftree")}) {
            Result<Routing> routed = routeFabric(engine, whole, tree.intent.tenancy);
            QVERIFY2(routed, routed ? "" : qPrintable(routed.error().toString()));
            QString wrong;
            QCOMPARE(checkVouched(whole, *routed, &wrong), hosts);
            QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
        }

        Result<IntentRouting> first = routeIntent(whole, tree.intent);
        QVERIFY(first);
        InstalledRouting installed{std::make_shared<const Fabric>(whole), first->routing.tables, first->routing.serviceLevels,
                                   QStringLiteral("intent")};
        // A leaf's uplinks cut one by one: the repair vouches for what it still can, the engines
        // route the degraded tree; until the leaf is cut off, and then nothing vouched is false.
        const NodeIndex leaf = whole.port(whole.port(whole.portOf(whole.endNodes().front(), 1)).remote).node;
        FabricEdit edit;
        edit.cutPorts.assign(whole.ports().size(), false);
        edit.removedNodes.assign(whole.nodes().size(), false);
        std::size_t repairedVouched = 0;
        for (int p = 1; p <= whole.node(leaf).portCount; ++p) {
            const Port &port = whole.port(whole.portOf(leaf, p));
            if (port.remote == kNoIndex || whole.node(whole.port(port.remote).node).type != NodeType::Switch)
                continue;
            edit.cutPorts[std::size_t(whole.portOf(leaf, p))] = true;
            Result<Fabric> degraded = editedFabric(whole, edit);
            QVERIFY(degraded);
            Result<IntentRouting> after = routeIntentAfterChange(*degraded, tree.intent, installed.intentDigest, &installed);
            if (!after)
                continue;  // the leaf cut off: nothing routes every pair
            QString wrong;
            const std::size_t vouched = checkVouched(*degraded, after->routing, &wrong);
            QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
            if (after->method == QLatin1String("repair"))
                repairedVouched += vouched;
            for (const QString &engine : {QStringLiteral("ftree"), QStringLiteral("pftree")}) {
                Result<Routing> routed = routeFabric(engine, *degraded, tree.intent.tenancy);
                if (!routed)
                    continue;
                QString engineWrong;
                checkVouched(*degraded, *routed, &engineWrong);
                QVERIFY2(engineWrong.isEmpty(), qPrintable(engineWrong));
            }
            installed = InstalledRouting{std::make_shared<const Fabric>(*degraded), after->routing.tables,
                                         after->routing.serviceLevels, installed.intentDigest};
        }
        QVERIFY2(repairedVouched > 0, "the repair vouched for nothing");
    }

    void faultsAreRepairedMinimallyAndIsolated()
    {
        const test::Tree tree = test::makeTree(FabricShapeKind::SwitchRadix, 8, 3);
        const Fabric &whole = tree.generated.fabric;
        const std::vector<int> &level = tree.generated.nodeLevel;
        const Tenancy &tenancy = tree.intent.tenancy;

        Result<IntentRouting> first = routeIntent(whole, tree.intent);
        QVERIFY2(first, first ? "" : qPrintable(first.error().toString()));
        QCOMPARE(first->method, QStringLiteral("pftree"));
        QCOMPARE(validated(whole, tenancy, first->routing).policyViolations, std::size_t(0));
        InstalledRouting installed{std::make_shared<const Fabric>(whole), first->routing.tables, first->routing.serviceLevels,
                                   QStringLiteral("intent")};

        // The n-th cable from a switch of level upper+1 up to one of level `upper` (0: roots).
        auto cableOf = [&](int upper, int nth) -> PortIndex {
            int seen = 0;
            for (NodeIndex s : whole.switches())
                for (int p = 1; p <= whole.node(s).portCount; ++p) {
                    const Port &port = whole.port(whole.portOf(s, p));
                    if (port.remote == kNoIndex)
                        continue;
                    const NodeIndex peer = whole.port(port.remote).node;
                    if (whole.node(peer).type == NodeType::Switch && level[std::size_t(peer)] == upper
                        && level[std::size_t(s)] == upper + 1 && seen++ == nth)
                        return whole.portOf(s, p);
                }
            return kNoIndex;
        };
        const PortIndex leafUplink = cableOf(1, 5);
        const PortIndex coreLink = cableOf(0, 3);
        QVERIFY(leafUplink != kNoIndex && coreLink != kNoIndex);
        NodeIndex aggregation = kNoIndex;  // on neither cable
        for (NodeIndex s : whole.switches())
            if (level[std::size_t(s)] == 1 && s != whole.port(coreLink).node && s != whole.port(whole.port(leafUplink).remote).node)
                aggregation = s;
        QVERIFY(aggregation != kNoIndex);

        FabricEdit edit;
        edit.cutPorts.assign(whole.ports().size(), false);
        edit.removedNodes.assign(whole.nodes().size(), false);
        const std::vector<std::pair<QString, std::function<void()>>> faults = {
            {QStringLiteral("a leaf uplink"), [&] { edit.cutPorts[std::size_t(leafUplink)] = true; }},
            {QStringLiteral("a core link"), [&] { edit.cutPorts[std::size_t(coreLink)] = true; }},
            {QStringLiteral("a whole aggregation switch"), [&] { edit.removedNodes[std::size_t(aggregation)] = true; }},
        };
        test::Paths before = test::allPaths(whole, installed.tables);
        for (const auto &[what, apply] : faults) {
            apply();
            Result<Fabric> degraded = editedFabric(whole, edit);
            QVERIFY2(degraded, degraded ? "" : qPrintable(degraded.error().toString()));
            Result<IntentRouting> routed = routeIntentAfterChange(*degraded, tree.intent, installed.intentDigest, &installed);
            QVERIFY2(routed, routed ? "" : qPrintable(routed.error().toString()));
            const test::Judged j = test::judgeAfterFault(*degraded, routed->routing.tables, before);
            const ValidationResult v = validated(*degraded, tenancy, routed->routing);
            Result<IntentRouting> full = routeIntent(*degraded, tree.intent);
            QVERIFY(full);
            const ValidationResult best = validated(*degraded, tenancy, full->routing);
            qInfo("%s: %zu paths forced, %zu moved, by %s (%s); %zu isolation violation(s), a full %s %zu", qPrintable(what), j.forced,
                  j.changed, qPrintable(routed->method), qPrintable(routed->notes.join(QStringLiteral("; "))), v.policyViolations,
                  qPrintable(full->method), best.policyViolations);
            QVERIFY2(j.forced > 0, qPrintable(what));
            QCOMPARE(j.unreachable, std::size_t(0));
            QCOMPARE(j.intoDownPorts, std::size_t(0));
            QCOMPARE(v.loops, std::size_t(0));
            QVERIFY(v.deadlockFree);
            QVERIFY2(v.policyViolations <= best.policyViolations, qPrintable(what + QLatin1Char('\n') + violationsText(v)));
            QVERIFY2(double(j.changed) <= 1.25 * double(j.forced),
                     qPrintable(QStringLiteral("%1: %2 paths moved for %3 forced").arg(what).arg(j.changed).arg(j.forced)));
            installed = InstalledRouting{std::make_shared<const Fabric>(*degraded), routed->routing.tables,
                                         routed->routing.serviceLevels, installed.intentDigest};
            before = test::allPaths(*degraded, installed.tables);
        }
    }
};

QTEST_GUILESS_MAIN(TestIntentRouting)
#include "tst_intent_routing.moc"
