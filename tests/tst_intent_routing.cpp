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

}  // namespace

class TestIntentRouting : public QObject
{
    Q_OBJECT

private Q_SLOTS:
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
