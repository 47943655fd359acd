// The self-adaptive loop's Plan, Execute bookkeeping and Knowledge (spec 003 §5.2, §5.5):
// learned weights from measured receive rates (EWMA window, quantum, w_min, change threshold);
// a hot-spot on an XGFT planned into a wFTree re-route that lowers the modelled max link load;
// T-SA-4 (a link down invalidates the metabase: phase 1 again, then hits); the modes (auto,
// approve without a commit, T-SA-1's "diff without committing", dry-run, paused,
// require_approval); the knowledge after a commit; a refused rules file keeping the previous
// rules; the audit in the commit journal; one loop per target (AdaptLock).

#include "AdaptLoop.h"
#include "AdaptPlanner.h"
#include "CommitJournal.h"
#include "FabricEdit.h"
#include "GeneratedFabrics.h"
#include "RoutingEngine.h"
#include "RoutingEvaluation.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <map>

using namespace weft;
using namespace weft::adapt;

namespace {

constexpr double kHotRate = 3.5e9;   // bytes/s: 28 Gb/s into each hot receiver
constexpr double kColdRate = 0.3e9;  // 2.4 Gb/s into every other host
constexpr double kStart = 1'700'000'000;

// XGFT(2; 4,8; 2,1): 2 spines, 4 leaves of 8 hosts (32), ftree installed, and two hosts of one
// leaf whose LIDs ftree sends down the same spine link: the hot spot.
struct HotSpot
{
    std::shared_ptr<const Fabric> fabric;
    std::shared_ptr<const ForwardingTables> ftree;
    std::vector<NodeIndex> hot;
    NodeIndex hotLeaf = kNoIndex;
    NodeIndex spine = kNoIndex;  // the spine both hot LIDs come down from
};

PortIndex hostPort(const Fabric &fabric, NodeIndex host)
{
    return fabric.portOf(host, 1);
}

NodeIndex leafOf(const Fabric &fabric, NodeIndex host)
{
    return fabric.port(fabric.port(hostPort(fabric, host)).remote).node;
}

std::shared_ptr<const ForwardingTables> routed(const QString &engine, const Fabric &fabric, const Tenancy &tenancy = {})
{
    Result<Routing> r = routeFabric(engine, fabric, tenancy);
    if (!r)
        qFatal("%s: %s", qPrintable(engine), qPrintable(r.error().toString()));
    return std::make_shared<const ForwardingTables>(std::move(r->tables));
}

HotSpot hotSpot()
{
    GeneratorOptions options;
    options.shape = FabricShapeKind::Xgft;
    Result<XgftShape> shape = parseXgft(QStringLiteral("2;4,8;2,1"));
    if (!shape)
        qFatal("xgft: %s", qPrintable(shape.error().toString()));
    options.xgft = *shape;
    HotSpot h;
    h.fabric = std::make_shared<const Fabric>(test::generateOrFail(options).fabric);
    h.ftree = routed(QStringLiteral("ftree"), *h.fabric);
    const Fabric &f = *h.fabric;
    h.hotLeaf = leafOf(f, f.endNodes().front());
    NodeIndex otherLeaf = kNoIndex;
    for (NodeIndex host : f.endNodes())
        if (leafOf(f, host) != h.hotLeaf) {
            otherLeaf = leafOf(f, host);
            break;
        }
    // From another leaf, each of the hot leaf's LIDs goes up to the spine that brings it down.
    const SwitchForwardingTable *table = h.ftree->find(f.node(otherLeaf).guid);
    if (!table)
        qFatal("no table for the other leaf");
    std::map<NodeIndex, std::vector<NodeIndex>> bySpine;
    for (NodeIndex host : f.endNodes()) {
        if (leafOf(f, host) != h.hotLeaf)
            continue;
        const int out = table->lft.port(f.port(hostPort(f, host)).lid);
        const PortIndex up = f.portOf(otherLeaf, out);
        bySpine[f.port(f.port(up).remote).node].push_back(host);
    }
    for (const auto &[spine, hosts] : bySpine)
        if (hosts.size() >= 2) {
            h.spine = spine;
            h.hot = {hosts[0], hosts[1]};
            break;
        }
    if (h.hot.size() != 2)
        qFatal("no two hosts share a spine");
    return h;
}

// One tick as the monitor reads it: the leaf port facing each host transmits what the host
// receives (PortXmitData, the preferred source of rx).
std::vector<TelemetryRecord> tickRecords(const HotSpot &h, double time, double hotRate = kHotRate)
{
    const Fabric &f = *h.fabric;
    std::vector<TelemetryRecord> records;
    for (NodeIndex host : f.endNodes()) {
        const PortIndex facing = f.port(hostPort(f, host)).remote;
        const bool hot = std::find(h.hot.begin(), h.hot.end(), host) != h.hot.end();
        TelemetryRecord r;
        r.time = time;
        r.portIndex = facing;
        r.guid = f.node(f.port(facing).node).guid;
        r.port = f.port(facing).number;
        r.lid = f.nodeLid(f.port(facing).node);
        r.rates.xmitBytes.value = hot ? hotRate : kColdRate;
        r.rates.rcvBytes.value = kColdRate;
        r.rates.utilisation.value = r.rates.xmitBytes.value / 4e9;
        records.push_back(r);
    }
    return records;
}

Guid portGuid(const Fabric &fabric, NodeIndex host)
{
    return fabric.port(hostPort(fabric, host)).guid;
}

double weightOf(const std::map<Guid, double> &weights, Guid guid)
{
    const auto it = weights.find(guid);
    return it == weights.end() ? 1.0 : it->second;
}

// The hot spot's fabric after the cable between the hot spine and the last host's leaf went down.
std::shared_ptr<const Fabric> degradedFabric(const HotSpot &h)
{
    FabricEdit edit;
    edit.cutPorts.assign(h.fabric->ports().size(), false);
    const NodeIndex leaf = leafOf(*h.fabric, h.fabric->endNodes().back());
    for (int n = 1; n <= h.fabric->node(leaf).portCount; ++n) {
        const PortIndex p = h.fabric->portOf(leaf, n);
        if (h.fabric->port(p).remote != kNoIndex && h.fabric->port(h.fabric->port(p).remote).node == h.spine)
            edit.cutPorts[std::size_t(p)] = true;
    }
    Result<Fabric> degraded = editedFabric(*h.fabric, edit);
    if (!degraded)
        qFatal("%s", qPrintable(degraded.error().toString()));
    return std::make_shared<const Fabric>(std::move(degraded).value());
}

AdaptKnowledge knowledgeOf(const HotSpot &h)
{
    AdaptKnowledge k;
    k.fabric = h.fabric;
    k.installed = h.ftree;
    return k;
}

std::vector<Action> actionsOf(const QByteArray &ruleText)
{
    const RuleFile file = parseRules(ruleText, QStringLiteral("test.rules"));
    if (!file.ok())
        qFatal("%s", qPrintable(file.error->toString()));
    return file.rules.front().actions;
}

RuleFiring firingOf(const QByteArray &ruleText, double time)
{
    RuleFiring firing;
    firing.time = time;
    firing.rule = parseRules(ruleText, QStringLiteral("test.rules")).rules.front().name;
    firing.actions = actionsOf(ruleText);
    return firing;
}

const QByteArray kHotRule = "rule hot mode auto when max(node[all].rx_gbps) > 20 for 30s\n"
                            "  then reroute(engine=wftree, weights=learned(5m), method=full)\n";

// Ticks every 10 s from kStart; returns every change the loop handed out.
std::vector<PendingChange> feed(AdaptLoop &loop, const HotSpot &h, int ticks, double from = kStart)
{
    std::vector<PendingChange> changes;
    for (int i = 0; i < ticks; ++i) {
        std::vector<PendingChange> got = loop.tick(from + 10 * i, tickRecords(h, from + 10 * i));
        for (PendingChange &c : got)
            changes.push_back(std::move(c));
    }
    return changes;
}

QStringList events(const AdaptLoop &loop)
{
    QStringList list;
    for (const AdaptRecord &r : loop.log())
        list << r.event;
    return list;
}

const AdaptRecord *lastRecord(const AdaptLoop &loop, const QString &event)
{
    for (auto it = loop.log().rbegin(); it != loop.log().rend(); ++it)
        if (it->event == event)
            return &*it;
    return nullptr;
}

}  // namespace

class TestAdaptLoop : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void learnedWeightsFromRates()
    {
        const HotSpot h = hotSpot();
        const Fabric &f = *h.fabric;
        QCOMPARE(f.endNodes().size(), std::size_t(32));
        std::vector<double> rates(32, 1.0);
        const std::size_t hotIndex = std::size_t(std::find(f.endNodes().begin(), f.endNodes().end(), h.hot[0]) - f.endNodes().begin());
        std::vector<std::size_t> others;  // three other nodes: next to nothing, unmeasured, average
        for (std::size_t i = 0; i < 32 && others.size() < 3; ++i)
            if (i != hotIndex)
                others.push_back(i);
        const Guid hot = portGuid(f, h.hot[0]);
        const Guid low = portGuid(f, f.endNodes()[others[0]]);
        const Guid unmeasured = portGuid(f, f.endNodes()[others[1]]);
        const Guid average = portGuid(f, f.endNodes()[others[2]]);
        rates[hotIndex] = 10;
        rates[others[0]] = 0.01;          // w_min
        rates[others[1]] = std::nan("");  // keeps its weight, not in the mean
        LearnedWeightOptions options;     // w_min 0.1, quantum 0.1, threshold 0.2
        int changed = -1;
        const std::map<Guid, double> weights = learnedWeights(f, rates, {}, options, &changed);
        // mean over the 31 measured: (10 + 0.01 + 29) / 31 = 1.2584; 10 / mean = 7.947 -> 7.9
        QVERIFY(qFuzzyCompare(weightOf(weights, hot), 7.9));
        QVERIFY(qFuzzyCompare(weightOf(weights, low), 0.1));
        // 1 / mean = 0.795 -> 0.8, a change of 20 %: not more than the threshold, kept at 1
        QCOMPARE(weightOf(weights, average), 1.0);
        QCOMPARE(weights.count(unmeasured), std::size_t(0));
        QCOMPARE(changed, 2);

        // A coarser quantum: multiples of it.
        options.quantum = 0.5;
        const std::map<Guid, double> coarse = learnedWeights(f, rates, {}, options);
        QCOMPARE(weightOf(coarse, hot), 8.0);
        rates[hotIndex] = 9.2;  // 9.2 / 1.2326 = 7.46 -> 7.5
        QCOMPARE(weightOf(learnedWeights(f, rates, {}, options), hot), 7.5);

        // The change threshold keeps small fluctuations out: 8.0 -> 7.9 is 1.3 %.
        options.quantum = 0.1;
        int again = -1;
        rates[hotIndex] = 10;
        QCOMPARE(weightOf(learnedWeights(f, rates, coarse, options), hot), 8.0);
        std::map<Guid, double> near = weights;
        near[hot] = 7.5;  // 7.9 is 5.3 % more
        const std::map<Guid, double> notMoved = learnedWeights(f, rates, near, options, &again);
        QCOMPARE(weightOf(notMoved, hot), 7.5);
        QCOMPARE(again, 0);
        near[hot] = 5;  // 7.9 is 58 % more: that moves
        QVERIFY(qFuzzyCompare(weightOf(learnedWeights(f, rates, near, options, &again), hot), 7.9));
        QCOMPARE(again, 1);
        // Nothing measured at all: nothing changes.
        QCOMPARE(learnedWeights(f, std::vector<double>(32, 0.0), near, options, &again), near);
        QCOMPARE(again, 0);
    }

    void learnedWeightsFollowTheWindow()
    {
        // The EWMA's window: a receiver that just became hot weighs more with a short window.
        const HotSpot h = hotSpot();
        MetricStore store(h.fabric);
        for (int i = 0; i < 30; ++i)
            store.addTick(kStart + 10 * i, tickRecords(h, kStart + 10 * i, kColdRate));
        for (int i = 30; i < 33; ++i)
            store.addTick(kStart + 10 * i, tickRecords(h, kStart + 10 * i, kHotRate));
        const LearnedWeightOptions options;
        const Guid hot = portGuid(*h.fabric, h.hot[0]);
        const double shortWindow = weightOf(learnedWeights(*h.fabric, store.smoothedReceiveRates(10), {}, options), hot);
        const double longWindow = weightOf(learnedWeights(*h.fabric, store.smoothedReceiveRates(3600), {}, options), hot);
        QVERIFY2(shortWindow > 5, qPrintable(QString::number(shortWindow)));
        QVERIFY2(longWindow < shortWindow / 2, qPrintable(QStringLiteral("%1 vs %2").arg(longWindow).arg(shortWindow)));
    }

    void planHotSpotWithLearnedWeights()
    {
        const HotSpot h = hotSpot();
        AdaptKnowledge knowledge = knowledgeOf(h);
        MetricStore store(h.fabric);
        for (int i = 0; i < 4; ++i)
            store.addTick(kStart + 10 * i, tickRecords(h, kStart + 10 * i));
        const RuleFiring firing = firingOf(kHotRule, kStart + 30);
        Result<PlannedChange> plan = planFiring(firing, knowledge, store);
        QVERIFY2(plan, plan ? "" : qPrintable(plan.error().toString()));
        QVERIFY(plan->weightsChanged >= 2);
        QVERIFY(weightOf(plan->tenancy.nodeWeights, portGuid(*h.fabric, h.hot[0])) > 5);
        QVERIFY(knowledge.tenancy.nodeWeights.empty());  // the knowledge changes only when committed
        QCOMPARE(plan->study.candidates.size(), std::size_t(1));
        const CandidateResult *chosen = plan->chosenCandidate();
        QVERIFY2(chosen, qPrintable(plan->decision));
        QCOMPARE(chosen->name, QStringLiteral("full:wftree"));
        QVERIFY(plan->decision.startsWith(QStringLiteral("chosen full:wftree (score ")));
        QVERIFY(plan->scores[0] > 0.01);
        QVERIFY2(chosen->maxLinkLoadAfter < chosen->maxLinkLoadBefore,
                 qPrintable(QStringLiteral("%1 -> %2").arg(chosen->maxLinkLoadBefore).arg(chosen->maxLinkLoadAfter)));
        // The loads are weighted with the learned weights: ftree's hot link carries more than the
        // same tables' unit-weight load.
        Result<RoutingEvaluation> unweighted = evaluateRouting(*h.fabric, Tenancy{}, *h.ftree);
        QVERIFY(unweighted);
        QVERIFY(chosen->maxLinkLoadBefore > 2 * unweighted->metrics->allLoad.max);

        const QJsonObject json = plan->toJson();
        QCOMPARE(json.value(QStringLiteral("rule")).toString(), QStringLiteral("hot"));
        QCOMPARE(json.value(QStringLiteral("chosen")).toString(), QStringLiteral("full:wftree"));
        QVERIFY(json.value(QStringLiteral("candidates")).toArray().at(0).toObject().value(QStringLiteral("score")).isDouble());
        QCOMPARE(json.value(QStringLiteral("weights_changed")).toInt(), plan->weightsChanged);

        // Without a method: full, SlimUpdate and metabase side by side, one of them chosen.
        RuleFiring all = firingOf("rule hot when max(node[all].rx_gbps) > 20 then reroute(engine=wftree, weights=learned(5m))\n", kStart + 30);
        Result<PlannedChange> three = planFiring(all, knowledge, store);
        QVERIFY(three);
        QCOMPARE(three->study.candidates.size(), std::size_t(3));
        QCOMPARE(three->study.candidates[1].name, QStringLiteral("slimupdate:0.5"));
        QCOMPARE(three->study.candidates[2].name, QStringLiteral("metabase:weighted"));
        QVERIFY(three->chosenCandidate());

        // Static unit weights: wFTree is ftree; nothing to gain, nothing chosen.
        RuleFiring still = firingOf("rule hot when max(node[all].rx_gbps) > 20 then reroute(engine=wftree, weights=static, method=full)\n", kStart + 30);
        Result<PlannedChange> none = planFiring(still, knowledge, store);
        QVERIFY(none);
        QCOMPARE(none->decision, QStringLiteral("no-improvement"));
        QVERIFY(!none->chosenCandidate());
        QVERIFY(none->toJson().value(QStringLiteral("chosen")).isNull());
    }

    void setWeightAndIsolation()
    {
        const HotSpot h = hotSpot();
        AdaptKnowledge knowledge = knowledgeOf(h);
        Partition red;
        red.name = QStringLiteral("red");
        red.pkey = 0x0012;
        for (int i = 0; i < 8; ++i)
            red.members.push_back({PartitionMember::Kind::PortGuid, portGuid(*h.fabric, h.fabric->endNodes()[std::size_t(i)]), Membership::Full, true});
        knowledge.tenancy.partitions.push_back(red);
        MetricStore store(h.fabric);
        const QString hotName = h.fabric->node(h.hot[0]).description;
        const RuleFiring weight = firingOf("rule w when max(node[all].rx_gbps) > 20 then set_weight(\"" + hotName.toUtf8() + "\", 6), notify(\"weighted\")\n", kStart);
        Result<PlannedChange> plan = planFiring(weight, knowledge, store);
        QVERIFY2(plan, plan ? "" : qPrintable(plan.error().toString()));
        QCOMPARE(weightOf(plan->tenancy.nodeWeights, portGuid(*h.fabric, h.hot[0])), 6.0);
        QCOMPARE(plan->weightsChanged, 1);
        QCOMPARE(plan->study.candidates.front().name, QStringLiteral("full:wftree"));
        QVERIFY(plan->notes.contains(QStringLiteral("weighted")));

        const RuleFiring isolate = firingOf("rule i when max(node[all].rx_gbps) > 20 then set_isolation(\"0x0012\", phy-isolation)\n", kStart);
        Result<PlannedChange> isolated = planFiring(isolate, knowledge, store);
        QVERIFY2(isolated, isolated ? "" : qPrintable(isolated.error().toString()));
        QCOMPARE(isolated->tenancy.partitions.front().policy, IsolationPolicy::Physical);
        QCOMPARE(isolated->study.candidates.front().name, QStringLiteral("full:pftree"));

        Result<PlannedChange> nobody = planFiring(firingOf("rule w when max(node[all].rx_gbps) > 20 then set_weight(\"no such host\", 2)\n", kStart), knowledge, store);
        QVERIFY(!nobody);
        QVERIFY(nobody.error().message.contains(QStringLiteral("no such host")));
        Result<PlannedChange> noPartition = planFiring(firingOf("rule i when max(node[all].rx_gbps) > 20 then set_isolation(\"blue\", phy-isolation)\n", kStart), knowledge, store);
        QVERIFY(!noPartition);
        QVERIFY(noPartition.error().message.contains(QStringLiteral("blue")));

        Result<PlannedChange> notify = planFiring(firingOf("rule n when max(node[all].rx_gbps) > 20 then notify(\"hot\")\n", kStart), knowledge, store);
        QVERIFY(notify);
        QCOMPARE(notify->decision, QStringLiteral("notify"));
        QVERIFY(notify->study.candidates.empty());
    }

    // T-SA-4: link_down -> metabase invalidated -> phase 1 again before phase 2; no topology
    // change since -> phase 2 alone (a hit).
    void linkDownInvalidatesTheMetabase()
    {
        const HotSpot h = hotSpot();
        AdaptKnowledge knowledge = knowledgeOf(h);
        MetricStore store(h.fabric);
        const QByteArray rule = "rule heal when event(link_down) then reroute(engine=wftree, weights=static, method=metabase)\n";
        Result<PlannedChange> first = planFiring(firingOf(rule, kStart), knowledge, store);
        QVERIFY(first);
        QVERIFY(!first->metabaseInvalidated);
        QCOMPARE(knowledge.metabase->size(), std::size_t(1));

        // A spine-to-leaf cable of the hot spine goes down.
        const auto degraded = degradedFabric(h);
        QCOMPARE(degraded->links().size(), h.fabric->links().size() - 1);
        knowledge.fabric = degraded;
        knowledge.topologyChanged = true;  // what AdaptLoop::noteEvent(LinkDown) sets

        Result<PlannedChange> after = planFiring(firingOf(rule, kStart + 10), knowledge, store);
        QVERIFY2(after, after ? "" : qPrintable(after.error().toString()));
        QVERIFY(after->metabaseInvalidated);
        QVERIFY(!knowledge.topologyChanged);
        const CandidateResult &miss = after->study.candidates.front();
        QVERIFY2(miss.error.isEmpty(), qPrintable(miss.error));
        QVERIFY(!miss.metabaseHit);
        QVERIFY(miss.metabaseCalculationSeconds > 0);
        QVERIFY(miss.valid());
        QCOMPARE(knowledge.metabase->size(), std::size_t(1));  // the old blueprint went
        // ftree's tables lost a cable: whatever the score, the valid candidate is taken.
        QVERIFY(after->study.installedEvaluation.validation.unreachablePartitionPairs > 0);
        QCOMPARE(after->chosen, 0);
        QVERIFY2(after->decision.endsWith(QStringLiteral("; the installed tables do not deliver)")), qPrintable(after->decision));
        QCOMPARE(after->toJson().value(QStringLiteral("candidates")).toArray().at(0).toObject().value(QStringLiteral("metabase_hit")).toBool(true), false);

        Result<PlannedChange> again = planFiring(firingOf(rule, kStart + 20), knowledge, store);
        QVERIFY(again);
        QVERIFY(!again->metabaseInvalidated);
        QVERIFY(again->study.candidates.front().metabaseHit);
        QCOMPARE(again->study.candidates.front().metabaseCalculationSeconds, 0.0);
    }

    void loopNotesTopologyEvents()
    {
        const HotSpot h = hotSpot();
        AdaptLoop loop(knowledgeOf(h));
        loop.noteEvent(RuleEvent::TenantChanged);
        QVERIFY(!loop.knowledge().topologyChanged);
        loop.noteEvent(RuleEvent::LinkDown);
        QVERIFY(loop.knowledge().topologyChanged);
        QCOMPARE(lastRecord(loop, QStringLiteral("event"))->details.value(QStringLiteral("event")).toString(), QStringLiteral("event(link_down)"));

        // T-SA-4 through the loop: the fabric after the cable went down, the event, a rule on it.
        AdaptLoop healing(knowledgeOf(h));
        QVERIFY(healing.loadRules("rule heal when event(link_down) then reroute(engine=wftree, weights=static, method=metabase)\n",
                                  QStringLiteral("heal.rules")));
        QVERIFY(healing.tick(kStart, {}).empty());
        QVERIFY(!lastRecord(healing, QStringLiteral("planned")));
        healing.setInstalled(degradedFabric(h), h.ftree);
        QVERIFY(healing.knowledge().topologyChanged);  // another topology
        healing.noteEvent(RuleEvent::LinkDown);
        QVERIFY(healing.tick(kStart + 10, {}).empty());  // dry-run
        const AdaptRecord *planned = lastRecord(healing, QStringLiteral("planned"));
        QVERIFY(planned);
        QVERIFY(planned->details.value(QStringLiteral("metabase_invalidated")).toBool());
        const QJsonObject candidate = planned->details.value(QStringLiteral("candidates")).toArray().at(0).toObject();
        QCOMPARE(candidate.value(QStringLiteral("name")).toString(), QStringLiteral("metabase:weighted"));
        QCOMPARE(candidate.value(QStringLiteral("metabase_hit")).toBool(true), false);
        QVERIFY(!healing.knowledge().topologyChanged);
        QCOMPARE(healing.stage(MapeStage::Knowledge).text, QStringLiteral("metabase rebuilt: the topology changed"));
        QCOMPARE(mapeStageName(MapeStage::Knowledge), QStringLiteral("knowledge"));
        QVERIFY(lastRecord(healing, QStringLiteral("dry-run")));
    }

    void autoModeCommitsThroughThePlan()
    {
        const HotSpot h = hotSpot();
        QTemporaryDir dir;
        AdaptLoopOptions options;
        options.mode = RuleMode::Auto;
        options.journalPath = dir.filePath(QStringLiteral("weft-commits.jsonl"));
        options.user = QStringLiteral("autopilot-test");
        AdaptLoop loop(knowledgeOf(h), options);
        std::vector<AdaptRecord> sunk;
        loop.setRecordSink([&](const AdaptRecord &r) { sunk.push_back(r); });
        QVERIFY(loop.loadRules(kHotRule, QStringLiteral("hot.rules")));
        std::vector<PendingChange> changes = feed(loop, h, 4);
        QCOMPARE(changes.size(), std::size_t(1));
        const PendingChange &change = changes.front();
        QCOMPARE(change.mode, RuleMode::Auto);
        const CandidateResult *chosen = change.plan.chosenCandidate();
        QVERIFY(chosen);
        QCOMPARE(chosen->name, QStringLiteral("full:wftree"));
        QVERIFY(chosen->maxLinkLoadAfter < chosen->maxLinkLoadBefore);
        QVERIFY(change.commitPlan.summary.startsWith(QStringLiteral("autopilot: rule hot, full:wftree (score ")));
        QVERIFY(change.commitPlan.tables == *chosen->tables);
        QVERIFY(change.commitPlan.intent);
        QVERIFY(change.commitPlan.madeFor);
        const PlanCheck check = checkPlan(*h.fabric, change.commitPlan);
        QVERIFY2(check.refusal(false).isEmpty(), qPrintable(check.refusal(false).join(QLatin1Char('\n'))));
        QVERIFY(loop.knowledge().installed == h.ftree);  // nothing executed yet
        QVERIFY(!loop.stage(MapeStage::Plan).text.isEmpty());
        QCOMPARE(loop.stage(MapeStage::Monitor).time, kStart + 30);

        CommitReport report;
        report.outcome = CommitOutcome::Committed;
        report.diff.changedBlocks = chosen->changedBlocks;
        loop.executed(change, report);
        QVERIFY(loop.knowledge().installed == chosen->tables);
        QCOMPARE(weightOf(loop.knowledge().tenancy.nodeWeights, portGuid(*h.fabric, h.hot[0])),
                 weightOf(change.plan.tenancy.nodeWeights, portGuid(*h.fabric, h.hot[0])));
        const AdaptRecord *committed = lastRecord(loop, QStringLiteral("committed"));
        QVERIFY(committed);
        QCOMPARE(committed->details.value(QStringLiteral("max_link_load_after")).toDouble(), chosen->maxLinkLoadAfter);
        QCOMPARE(committed->details.value(QStringLiteral("smps")).toDouble(), double(chosen->smps));
        QVERIFY(committed->summary.contains(QStringLiteral("SMPs")));
        QCOMPARE(sunk.size(), loop.log().size());

        // The whole story in the journal, as adapt entries that are never unfinished commits.
        Result<std::vector<CommitJournalEntry>> journal = readJournal(options.journalPath);
        QVERIFY(journal);
        QCOMPARE(journal->size(), loop.log().size());
        QStringList outcomes;
        for (const CommitJournalEntry &e : *journal) {
            QVERIFY(e.isAdapt());
            QVERIFY(!e.unfinished());
            QCOMPARE(e.user, QStringLiteral("autopilot-test"));
            outcomes << e.outcome;
        }
        QCOMPARE(outcomes, events(loop));
        for (const char *event : {"rules-loaded", "fired", "planned", "committed"})
            QVERIFY2(outcomes.contains(QLatin1String(event)), qPrintable(outcomes.join(QLatin1Char(','))));
        const CommitJournalEntry &last = journal->back();
        QCOMPARE(last.outcome, QStringLiteral("committed"));
        QCOMPARE(last.adapt.value(QStringLiteral("rule")).toString(), QStringLiteral("hot"));
        QCOMPARE(last.smps, chosen->smps);
        QVERIFY(last.id.startsWith(QStringLiteral("adapt-")));
        QVERIFY(!unfinishedCommit(*journal, QString()));

        // A failed commit changes no knowledge.
        CommitReport stale;
        stale.outcome = CommitOutcome::Stale;
        stale.reasons << QStringLiteral("the fabric changed");
        const auto installed = loop.knowledge().installed;
        loop.executed(change, stale);
        QVERIFY(loop.knowledge().installed == installed);
        QCOMPARE(loop.log().back().event, QStringLiteral("stale"));
    }

    // T-SA-1's approve mode: a diff without committing.
    void approveModeWaits()
    {
        const HotSpot h = hotSpot();
        AdaptLoopOptions options;
        options.mode = RuleMode::Approve;
        AdaptLoop loop(knowledgeOf(h), options);
        QVERIFY(loop.loadRules(kHotRule, QStringLiteral("hot.rules")));  // the rule says auto
        std::vector<PendingChange> changes = feed(loop, h, 4);
        QCOMPARE(changes.size(), std::size_t(1));
        QCOMPARE(changes.front().mode, RuleMode::Approve);
        const CandidateResult *chosen = changes.front().plan.chosenCandidate();
        QVERIFY(chosen && chosen->plan);
        QVERIFY(chosen->plan->diff.smps() > 0);
        QCOMPARE(chosen->smps, chosen->plan->diff.smps());
        QVERIFY(lastRecord(loop, QStringLiteral("awaiting-approval")));
        QVERIFY(!lastRecord(loop, QStringLiteral("committed")));
        QVERIFY(loop.knowledge().installed == h.ftree);
        loop.dismissed(changes.front(), QStringLiteral("not now"));
        QVERIFY(loop.knowledge().installed == h.ftree);
        QCOMPARE(loop.log().back().event, QStringLiteral("dismissed"));

        // An approved change that commits says so first.
        CommitReport report;
        report.outcome = CommitOutcome::Committed;
        loop.executed(changes.front(), report);
        const int n = int(loop.log().size());
        QCOMPARE(loop.log()[std::size_t(n - 2)].event, QStringLiteral("approved"));
        QCOMPARE(loop.log()[std::size_t(n - 1)].event, QStringLiteral("committed"));
    }

    void dryRunPausedAndRequireApproval()
    {
        const HotSpot h = hotSpot();
        {
            AdaptLoop loop(knowledgeOf(h));  // dry-run by default
            QCOMPARE(loop.mode(), RuleMode::DryRun);
            QVERIFY(loop.loadRules(kHotRule, QStringLiteral("hot.rules")));
            QVERIFY(feed(loop, h, 4).empty());
            const AdaptRecord *dry = lastRecord(loop, QStringLiteral("dry-run"));
            QVERIFY(dry);
            QVERIFY(dry->summary.contains(QStringLiteral("would commit full:wftree")));
            QVERIFY(loop.knowledge().installed == h.ftree);
        }
        {
            AdaptLoopOptions options;
            options.mode = RuleMode::Auto;
            AdaptLoop loop(knowledgeOf(h), options);
            loop.setPaused(true);
            QVERIFY(loop.paused());
            QVERIFY(loop.loadRules(kHotRule, QStringLiteral("hot.rules")));
            QVERIFY(feed(loop, h, 4).empty());
            QVERIFY(lastRecord(loop, QStringLiteral("fired")));  // still evaluated and logged
            QVERIFY(lastRecord(loop, QStringLiteral("paused")));
            QVERIFY(!lastRecord(loop, QStringLiteral("planned")));
            loop.setPaused(false);
            loop.setMode(RuleMode::DryRun);
            QCOMPARE(loop.mode(), RuleMode::DryRun);
        }
        {
            AdaptLoopOptions options;
            options.mode = RuleMode::Auto;
            AdaptLoop loop(knowledgeOf(h), options);
            QVERIFY(loop.loadRules("rule hot mode auto when max(node[all].rx_gbps) > 20 for 30s\n"
                                   "  then reroute(engine=wftree, weights=learned(5m), method=full), require_approval, notify(\"hot spot\")\n",
                                   QStringLiteral("hot.rules")));
            std::vector<PendingChange> changes = feed(loop, h, 4);
            QCOMPARE(changes.size(), std::size_t(1));
            QCOMPARE(changes.front().mode, RuleMode::Approve);
            const AdaptRecord *notify = lastRecord(loop, QStringLiteral("notify"));
            QVERIFY(notify);
            QVERIFY(notify->summary.contains(QStringLiteral("hot spot")));
        }
        QCOMPARE(carefulMode(RuleMode::Auto, RuleMode::Approve), RuleMode::Approve);
        QCOMPARE(carefulMode(RuleMode::DryRun, RuleMode::Approve), RuleMode::DryRun);
        QCOMPARE(carefulMode(RuleMode::Auto, RuleMode::Auto), RuleMode::Auto);
    }

    void refusedRulesKeepThePrevious()
    {
        const HotSpot h = hotSpot();
        QTemporaryDir dir;
        AdaptLoopOptions options;
        options.journalPath = dir.filePath(QStringLiteral("weft-commits.jsonl"));
        AdaptLoop loop(knowledgeOf(h), options);
        QVERIFY(loop.loadRules(kHotRule, QStringLiteral("hot.rules")));
        const Status refused = loop.loadRules("# broken\nrule cold when max(node[all].bogus) > 1 then notify(\"x\")\n", QStringLiteral("bad.rules"));
        QVERIFY(!refused);
        QVERIFY2(refused.error().toString().startsWith(QStringLiteral("bad.rules:2:30: ")), qPrintable(refused.error().toString()));
        QCOMPARE(loop.rules().size(), std::size_t(1));
        QCOMPARE(loop.rules().front().name, QStringLiteral("hot"));
        QCOMPARE(loop.log().back().event, QStringLiteral("rules-refused"));
        QCOMPARE(loop.log().back().details.value(QStringLiteral("line")).toInt(), 2);
        // and the loop goes on with them
        QVERIFY(lastRecord(loop, QStringLiteral("rules-refused")));
        feed(loop, h, 4);
        QVERIFY(lastRecord(loop, QStringLiteral("dry-run")));
        Result<std::vector<CommitJournalEntry>> journal = readJournal(options.journalPath);
        QVERIFY(journal);
        QCOMPARE(journal->at(1).outcome, QStringLiteral("rules-refused"));
    }

    void journalFailureIsNotFatal()
    {
        const HotSpot h = hotSpot();
        AdaptLoopOptions options;
        options.journalPath = QStringLiteral("/nonexistent-directory/weft-commits.jsonl");
        AdaptLoop loop(knowledgeOf(h), options);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("autopilot: the journal was not written")));
        QVERIFY(loop.loadRules(kHotRule, QStringLiteral("hot.rules")));
        QCOMPARE(events(loop), (QStringList{QStringLiteral("rules-loaded"), QStringLiteral("journal-failed")}));
        QCOMPARE(loop.rules().size(), std::size_t(1));
    }

    void oneLoopPerTarget()
    {
        QTemporaryDir dir;
        CommitTarget target;
        target.lftsPath = dir.filePath(QStringLiteral("opensm-lfts.dump"));
        QCOMPARE(adaptLockPath(target), target.lftsPath + QStringLiteral(".weft-adapt-lock"));
        Result<std::unique_ptr<AdaptLock>> first = AdaptLock::acquire(target);
        QVERIFY2(first, first ? "" : qPrintable(first.error().toString()));
        QCOMPARE((*first)->path(), adaptLockPath(target));
        Result<std::unique_ptr<AdaptLock>> second = AdaptLock::acquire(target);
        QVERIFY(!second);
        const QString message = second.error().toString();
        QVERIFY2(message.contains(QStringLiteral("pid %1").arg(QCoreApplication::applicationPid())), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("self-adaptive loop")), qPrintable(message));
        // The commit lock is another file: a loop holding its lock does not block commits.
        QVERIFY(CommitLock::acquire(commitLockPath(target), 0));
        first->reset();
        QVERIFY(AdaptLock::acquire(target));
    }
};

QTEST_GUILESS_MAIN(TestAdaptLoop)
#include "tst_adapt_loop.moc"
