// The unhealthy-links policy below the lab: the rule language's sick(link[...]) condition and its
// link actions (parsed and printed back); each sick condition (flapping, bit errors, unanswered
// counters, the operator's mark) at and around its threshold; the exclusion list; and, in the
// self-adaptive loop on an XGFT(2; 4,4; 2,1) with ftree installed, a drain planned through the
// drain plan (no route left on the cable, every pair reachable), the cap (drain(link, max=1):
// the second sick cable is "drain-capped", with its evidence), a host's cable refused (its host
// would be cut off), an excluded cable left alone, the undrain after a clean window, and a
// reroute held back while the policy holds a link drained.

#include "AdaptLoop.h"
#include "GeneratedFabrics.h"
#include "LinkHealth.h"
#include "RoutingEngine.h"
#include "RuleEngine.h"
#include "RuleLanguage.h"
#include "Validation.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QtTest>

using namespace weft;
using namespace weft::adapt;

namespace {

constexpr double kStart = 1'700'000'000;

struct Lab
{
    std::shared_ptr<const Fabric> fabric;
    std::shared_ptr<const ForwardingTables> ftree;
    std::vector<PortIndex> uplinks;  // leaf ports towards a spine, one per leaf first
    PortIndex hostCable = kNoIndex;  // a leaf's port towards a host
};

const Lab &lab()
{
    static const Lab made = [] {
        GeneratorOptions options;
        options.shape = FabricShapeKind::Xgft;
        Result<XgftShape> shape = parseXgft(QStringLiteral("2;4,4;2,1"));
        if (!shape)
            qFatal("xgft: %s", qPrintable(shape.error().toString()));
        options.xgft = *shape;
        Lab l;
        l.fabric = std::make_shared<const Fabric>(test::generateOrFail(options).fabric);
        Result<Routing> r = routeFabric(QStringLiteral("ftree"), *l.fabric, Tenancy{});
        if (!r)
            qFatal("ftree: %s", qPrintable(r.error().toString()));
        l.ftree = std::make_shared<const ForwardingTables>(std::move(r->tables));
        const Fabric &f = *l.fabric;
        std::vector<PortIndex> second;
        for (NodeIndex leaf : f.switches()) {
            bool first = true;
            for (int p = 1; p <= f.node(leaf).portCount; ++p) {
                const PortIndex port = f.portOf(leaf, p);
                if (port == kNoIndex || f.port(port).remote == kNoIndex)
                    continue;
                const NodeIndex peer = f.port(f.port(port).remote).node;
                if (f.node(peer).type != NodeType::Switch) {
                    if (l.hostCable == kNoIndex)
                        l.hostCable = port;
                    continue;
                }
                // Leaves have hosts; spines do not.
                bool hasHost = false;
                for (int q = 1; q <= f.node(leaf).portCount; ++q) {
                    const PortIndex x = f.portOf(leaf, q);
                    hasHost = hasHost || (x != kNoIndex && f.port(x).remote != kNoIndex && f.node(f.port(f.port(x).remote).node).type != NodeType::Switch);
                }
                if (!hasHost)
                    break;
                (first ? l.uplinks : second).push_back(port);
                first = false;
            }
        }
        l.uplinks.insert(l.uplinks.end(), second.begin(), second.end());
        return l;
    }();
    return made;
}

// Every cabled port read, quiet, one second apart; `change` adds what a test wants.
std::vector<TelemetryRecord> quietTick(const Fabric &f, double time)
{
    std::vector<TelemetryRecord> records;
    for (PortIndex p = 0; p < PortIndex(f.ports().size()); ++p) {
        const Port &port = f.port(p);
        if (!port.present || port.remote == kNoIndex)
            continue;
        TelemetryRecord r;
        r.time = time;
        r.portIndex = p;
        r.guid = f.node(port.node).guid;
        r.port = port.number;
        r.seconds = 1;
        records.push_back(r);
    }
    return records;
}

TelemetryRecord &recordOf(std::vector<TelemetryRecord> &records, PortIndex p)
{
    for (TelemetryRecord &r : records)
        if (r.portIndex == p)
            return r;
    qFatal("port %d has no record", int(p));
}

void setError(std::vector<TelemetryRecord> &records, PortIndex p, PortErrorCounter counter, std::uint64_t delta)
{
    recordOf(records, p).rates.errors[std::size_t(counter)].delta = delta;
}

void setUnanswered(std::vector<TelemetryRecord> &records, PortIndex p)
{
    TelemetryRecord &r = recordOf(records, p);
    r.rates.xmitBytes.gap = r.rates.rcvBytes.gap = CounterGap::NoAnswer;
    for (CounterDelta &d : r.rates.errors)
        d.gap = CounterGap::NoAnswer;
}

SickCriteria criteriaOf(const QByteArray &condition)
{
    const RuleFile file = parseRules("rule r when " + condition + " then report(link)", QStringLiteral("t.rules"));
    if (!file.ok())
        qFatal("%s", qPrintable(file.error->toString()));
    return file.rules.front().condition.sick;
}

QString linkName(const Fabric &f, PortIndex p)
{
    return portDisplayName(f, p);
}

std::vector<const AdaptRecord *> recordsOf(const AdaptLoop &loop, const QString &event)
{
    std::vector<const AdaptRecord *> found;
    for (const AdaptRecord &r : loop.log())
        if (r.event == event)
            found.push_back(&r);
    return found;
}

// Entries of `tables` that send anything onto the cable at `p` (either end).
int entriesOnto(const Fabric &f, const ForwardingTables &tables, PortIndex p)
{
    int count = 0;
    for (const PortIndex end : {p, f.port(p).remote}) {
        const Node &n = f.node(f.port(end).node);
        const SwitchForwardingTable *t = tables.find(n.guid);
        if (!t)
            continue;
        for (Lid lid = 1; lid <= t->lft.top(); ++lid)
            count += t->lft.port(lid) == f.port(end).number ? 1 : 0;
    }
    return count;
}

AdaptKnowledge knowledge()
{
    AdaptKnowledge k;
    k.fabric = lab().fabric;
    k.installed = lab().ftree;
    return k;
}

CommitReport committed()
{
    CommitReport report;
    report.outcome = CommitOutcome::Committed;
    return report;
}

}  // namespace

class TestSickLinks : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rulesParseAndPrintBack()
    {
        const QByteArray text = "rule sick priority 5 cooldown 1m mode auto\n"
                                "  when sick(link[all], window=2m, flaps=2, ber=1e-09, symbol_errors=5, unanswered=2, passes=4)\n"
                                "  then report(link), drain(link, max=3), undrain(link, clean=30s)\n";
        const RuleFile file = parseRules(text, QStringLiteral("sick.rules"));
        QVERIFY2(file.ok(), file.ok() ? "" : qPrintable(file.error->toString()));
        const Rule &rule = file.rules.front();
        QCOMPARE(rule.condition.kind, Condition::Kind::Sick);
        QCOMPARE(*rule.condition.sick.windowSeconds, std::int64_t(120));
        QCOMPARE(*rule.condition.sick.ber, 1e-9);
        QCOMPARE(*rule.actions[1].maxDrained, 3);
        QCOMPARE(*rule.actions[2].cleanSeconds, std::int64_t(30));
        const QString printed = ruleToText(rule);
        QCOMPARE(printed, QStringLiteral("rule sick priority 5 cooldown 1m mode auto when sick(link[all], window=2m, flaps=2, ber=1e-09, "
                                         "symbol_errors=5, unanswered=2, passes=4) then report(link), drain(link, max=3), undrain(link, clean=30s)"));
        const RuleFile again = parseRules(printed.toUtf8(), QStringLiteral("again"));
        QVERIFY(again.ok());
        QVERIFY(again.rules.front() == rule);
        // Defaults unset, a selector by name.
        const SickCriteria defaults = criteriaOf("sick(link[\"S[1]\"])");
        QVERIFY(!defaults.windowSeconds && !defaults.flaps && !defaults.ber);
        const SickThresholds k = sickThresholds(defaults);
        QCOMPARE(k.windowSeconds, 300.0);
        QCOMPARE(k.flaps, 3);
        QCOMPARE(k.ber, 1e-12);
        QCOMPARE(k.symbolErrors, 10);
        QCOMPARE(k.unanswered, 3);
        QCOMPARE(k.passes, 5);
    }

    void badRulesNameTheProblem_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("error");
        QTest::addRow("drain without sick") << QByteArray("rule r when max(link[all].errors) > 0 then drain(link)")
                                            << QStringLiteral("t.rules:1:44: report(link), drain(link) and undrain(link) act on the links a sick(link[...]) term finds: rule 'r' has none");
        QTest::addRow("unknown option") << QByteArray("rule r when sick(link[all], speed=3) then report(link)")
                                        << QStringLiteral("t.rules:1:29: unknown sick option 'speed': expected window=, flaps=, ber=, symbol_errors=, unanswered= or passes=");
        QTest::addRow("unanswered over passes") << QByteArray("rule r when sick(link[all], unanswered=4, passes=3) then report(link)")
                                                << QStringLiteral("t.rules:1:51: unanswered=4 is more than passes=3");
        QTest::addRow("ber out of range") << QByteArray("rule r when sick(link[all], ber=2) then report(link)")
                                          << QStringLiteral("t.rules:1:33: ber must be above 0 and below 1 (e.g. 1e-12)");
        QTest::addRow("max zero") << QByteArray("rule r when sick(link[all]) then drain(link, max=0)")
                                  << QStringLiteral("t.rules:1:50: max must be at least 1");
        QTest::addRow("clean on drain") << QByteArray("rule r when sick(link[all]) then drain(link, clean=1m)")
                                        << QStringLiteral("t.rules:1:46: unknown or repeated option 'clean' of drain(): expected max=");
    }
    void badRulesNameTheProblem()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, error);
        const RuleFile file = parseRules(text, QStringLiteral("t.rules"));
        QVERIFY(!file.ok());
        QCOMPARE(file.error->toString(), error);
    }

    void conditionsAtTheirThresholds()
    {
        const Fabric &f = *lab().fabric;
        const PortIndex up = lab().uplinks[0];
        const PortIndex far = f.port(up).remote;
        const Selector all;
        MetricStore store(lab().fabric);
        // Five quiet ticks, then the faults of the last three.
        for (int t = 0; t < 5; ++t) {
            std::vector<TelemetryRecord> records = quietTick(f, kStart + t);
            if (t >= 2) {
                // Flapping: one fall per tick at alternating ends, 3 in the window.
                setError(records, t % 2 ? up : far, PortErrorCounter::LinkDowned, 1);
                // Unanswered: the uplink of another leaf went silent in 3 of the 5 ticks.
                setUnanswered(records, lab().uplinks[1]);
            }
            if (t == 4)
                setError(records, lab().uplinks[2], PortErrorCounter::SymbolError, 1000);
            // Two unanswered ticks only: not unresponsive.
            if (t >= 3)
                setUnanswered(records, lab().uplinks[3]);
            store.addTick(kStart + t, std::move(records));
        }
        QStringList problems;
        const std::vector<LinkEvidence> sick = sickLinks(store, all, criteriaOf("sick(link[all])"), {}, &problems);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        QStringList found;
        for (const LinkEvidence &e : sick)
            found << e.text();
        QCOMPARE(sick.size(), std::size_t(3));
        auto byPort = [&](PortIndex p) -> const LinkEvidence * {
            for (const LinkEvidence &e : sick)
                if (e.port == std::min(p, f.port(p).remote))
                    return &e;
            return nullptr;
        };
        const LinkEvidence *flapping = byPort(up);
        QVERIFY2(flapping, qPrintable(found.join(QLatin1Char('\n'))));
        QCOMPARE(flapping->linkDowns, std::uint64_t(3));
        QVERIFY2(flapping->reasons.join(QString()).startsWith(QLatin1String("flapping (link down 3 times")), qPrintable(flapping->text()));
        const LinkEvidence *silent = byPort(lab().uplinks[1]);
        QVERIFY(silent);
        QCOMPARE(silent->unansweredPasses, 3);
        QCOMPARE(silent->passes, 5);
        const LinkEvidence *errors = byPort(lab().uplinks[2]);
        QVERIFY(errors);
        QCOMPARE(errors->symbolErrors, std::uint64_t(1000));
        // Both ends measured 5 s of a 4x QDR link (10 Gb/s a lane): 1000 / (2 x 5 x 4 x 1e10).
        QVERIFY(errors->ber);
        QVERIFY2(qFuzzyCompare(*errors->ber, 2.5e-9), qPrintable(errors->text()));
        QVERIFY(!byPort(lab().uplinks[3]));  // 2 of 5 unanswered: under the default 3

        // Just under each threshold: flaps=4, ber above the rate, unanswered=4.
        const std::vector<LinkEvidence> lenient =
            sickLinks(store, all, criteriaOf("sick(link[all], flaps=4, ber=3e-9, unanswered=4)"), {});
        QVERIFY(lenient.empty());
        // The window: the last two ticks hold one fall and the errors.
        const std::vector<LinkEvidence> recent = sickLinks(store, all, criteriaOf("sick(link[all], window=1s, flaps=1, passes=5)"), {});
        QCOMPARE(recent.size(), std::size_t(3));
        // One cable by name.
        const Selector one{false, linkName(f, lab().uplinks[2])};
        const std::vector<LinkEvidence> named = sickLinks(store, one, {}, {});
        QCOMPARE(named.size(), std::size_t(1));
        QCOMPARE(named.front().port, std::min(lab().uplinks[2], f.port(lab().uplinks[2]).remote));
        QCOMPARE(named.front().toJson().value(QStringLiteral("symbol_errors")).toInt(), 1000);
    }

    void marksAndExclusion()
    {
        const Fabric &f = *lab().fabric;
        MetricStore store(lab().fabric);
        std::vector<TelemetryRecord> records = quietTick(f, kStart);
        setError(records, lab().uplinks[0], PortErrorCounter::SymbolError, 500);
        store.addTick(kStart, std::move(records));
        const QByteArray text = "# operator's marks\n"
                                "sick " + linkName(f, f.port(lab().uplinks[1]).remote).toUtf8() + "   # the far end names the cable too\n"
                                "exclude " + linkName(f, lab().uplinks[0]).toUtf8() + "\n";
        Result<LinkMarks> marks = parseLinkMarks(text, QStringLiteral("marks"));
        QVERIFY2(marks, marks ? "" : qPrintable(marks.error().toString()));
        QCOMPARE(marks->sick.size(), std::size_t(1));
        QCOMPARE(marks->excluded.front().line, 3);
        const std::vector<LinkEvidence> sick = sickLinks(store, Selector{}, {}, *marks);
        QCOMPARE(sick.size(), std::size_t(1));  // the excluded cable's errors are not judged
        QVERIFY(sick.front().marked);
        QCOMPARE(sick.front().port, std::min(lab().uplinks[1], f.port(lab().uplinks[1]).remote));
        QCOMPARE(sick.front().reasons, QStringList{QStringLiteral("marked sick by the operator")});

        Result<LinkMarks> bad = parseLinkMarks("sick S[1]\ndrain S[2]\n", QStringLiteral("marks"));
        QVERIFY(!bad);
        QCOMPARE(bad.error().toString(), QStringLiteral("marks:2: expected 'sick NODE[PORT]' or 'exclude NODE[PORT]', found \"drain S[2]\""));
        Result<LinkMarks> noPort = parseLinkMarks("exclude S\n", QStringLiteral("marks"));
        QVERIFY(!noPort);
        QCOMPARE(noPort.error().line, 1);
        // A mark naming nothing here is a problem the rule's status shows.
        Result<LinkMarks> unknown = parseLinkMarks("sick nosuch[1]\n", QStringLiteral("marks"));
        QVERIFY(unknown);
        QStringList problems;
        QVERIFY(sickLinks(store, Selector{}, {}, *unknown, &problems).size() == 1);
        QCOMPARE(problems.size(), 1);
        QVERIFY2(problems.front().startsWith(QLatin1String("marks:1: ")), qPrintable(problems.front()));
    }

    void defaultCap()
    {
        QCOMPARE(defaultDrainCap(0), 10);
        QCOMPARE(defaultDrainCap(2000), 10);
        QCOMPARE(defaultDrainCap(2001), 11);
        QCOMPARE(defaultDrainCap(40000), 200);
        QCOMPARE(cableCount(*lab().fabric), std::size_t(24));  // 16 host cables, 8 uplinks
    }

    // The loop: drain within the cap, refuse a host's cable, leave an excluded cable, undrain.
    void loopDrainsWithinTheCapAndUndrains()
    {
        const Fabric &f = *lab().fabric;
        AdaptLoopOptions options;
        options.mode = RuleMode::Auto;
        AdaptLoop loop(knowledge(), options);
        QVERIFY(loop.loadRules("rule sick mode auto when sick(link[all], window=3s) then report(link), drain(link, max=1), undrain(link, clean=3s)\n",
                               QStringLiteral("sick.rules")));
        const QByteArray marks = "exclude " + linkName(f, lab().uplinks[3]).toUtf8() + "\n";
        QVERIFY(loop.loadLinkMarks(marks, QStringLiteral("marks")));
        double t = kStart;
        QVERIFY(loop.tick(t, quietTick(f, t)).empty());
        // Two uplinks err (and an excluded one): one drained, the other capped.
        std::vector<TelemetryRecord> records = quietTick(f, ++t);
        setError(records, lab().uplinks[0], PortErrorCounter::SymbolError, 200);
        setError(records, lab().uplinks[1], PortErrorCounter::SymbolError, 100);
        setError(records, lab().uplinks[3], PortErrorCounter::SymbolError, 900);
        std::vector<PendingChange> changes = loop.tick(t, std::move(records));
        QCOMPARE(changes.size(), std::size_t(1));
        const PendingChange &drain = changes.front();
        QVERIFY(drain.isLinkChange() && drain.links.drain);
        QCOMPARE(drain.mode, RuleMode::Auto);
        QCOMPARE(drain.links.evidence.size(), std::size_t(1));
        const LinkEvidence &evidence = drain.links.evidence.front();
        QCOMPARE(evidence.port, std::min(lab().uplinks[0], f.port(lab().uplinks[0]).remote));
        QCOMPARE(evidence.symbolErrors, std::uint64_t(200));
        QCOMPARE(recordsOf(loop, QStringLiteral("sick-link")).size(), std::size_t(2));  // not the excluded one
        const auto capped = recordsOf(loop, QStringLiteral("drain-capped"));
        QCOMPARE(capped.size(), std::size_t(1));
        QCOMPARE(capped.front()->details.value(QStringLiteral("cap")).toInt(), 1);
        const QJsonArray cappedLinks = capped.front()->details.value(QStringLiteral("links")).toArray();
        QCOMPARE(cappedLinks.size(), 1);
        QCOMPARE(cappedLinks.at(0).toObject().value(QStringLiteral("symbol_errors")).toInt(), 100);
        // The drain's tables: nothing onto the cable, every pair reachable; the firing's evidence.
        const ForwardingTables &tables = drain.commitPlan.tables;
        QCOMPARE(entriesOnto(f, *lab().ftree, lab().uplinks[0]) > 0, true);
        QCOMPARE(entriesOnto(f, tables, lab().uplinks[0]), 0);
        const ValidationResult v = validateRouting(f, Tenancy{}, tables);
        QCOMPARE(v.unreachablePartitionPairs + v.unreachableOtherPairs, std::uint64_t(0));
        QCOMPARE(v.loops, std::uint64_t(0));

        loop.executed(drain, committed());
        QCOMPARE(loop.policyDrained().size(), std::size_t(1));
        const auto drained = recordsOf(loop, QStringLiteral("drained"));
        QCOMPARE(drained.size(), std::size_t(1));
        QCOMPARE(drained.front()->details.value(QStringLiteral("links")).toArray().at(0).toObject().value(QStringLiteral("symbol_errors")).toInt(), 200);
        QVERIFY2(drained.front()->summary.contains(QLatin1String("bit errors (200 symbol errors")), qPrintable(drained.front()->summary));

        // Clean ticks: the drained cable comes back once clean for 3 s since its drain (the
        // capped one keeps firing, capped, while its errors are in the window).
        std::vector<PendingChange> undrain;
        const double drainedAt = t;
        for (int i = 0; i < 8 && undrain.empty(); ++i) {
            ++t;
            undrain = loop.tick(t, quietTick(f, t));
        }
        QCOMPARE(t - drainedAt, 4.0);  // the error tick leaves the 3 s window after 4 s
        QCOMPARE(undrain.size(), std::size_t(1));
        QVERIFY(undrain.front().isLinkChange() && !undrain.front().links.drain);
        QCOMPARE(undrain.front().links.evidence.front().symbolErrors, std::uint64_t(0));
        QVERIFY(entriesOnto(f, undrain.front().commitPlan.tables, lab().uplinks[0]) > 0);
        loop.executed(undrain.front(), committed());
        QVERIFY(loop.policyDrained().empty());
        QCOMPARE(recordsOf(loop, QStringLiteral("undrained")).size(), std::size_t(1));
    }

    // A host's cable errs beside an uplink: drained together the host would be cut off, so each
    // is tried alone: the host's cable refused and reported, the uplink drained.
    void aDrainThatCutsAHostOffIsRefused()
    {
        const Fabric &f = *lab().fabric;
        AdaptLoopOptions options;
        options.mode = RuleMode::Auto;
        AdaptLoop loop(knowledge(), options);
        QVERIFY(loop.loadRules("rule sick mode auto when sick(link[all], window=2s) then drain(link)\n", QStringLiteral("sick.rules")));
        QVERIFY(loop.tick(kStart, quietTick(f, kStart)).empty());
        std::vector<TelemetryRecord> records = quietTick(f, kStart + 1);
        setError(records, lab().hostCable, PortErrorCounter::SymbolError, 50);
        setError(records, lab().uplinks[2], PortErrorCounter::SymbolError, 50);
        const std::vector<PendingChange> changes = loop.tick(kStart + 1, std::move(records));
        QCOMPARE(changes.size(), std::size_t(1));
        QCOMPARE(changes.front().links.evidence.size(), std::size_t(1));
        QCOMPARE(changes.front().links.evidence.front().port, std::min(lab().uplinks[2], f.port(lab().uplinks[2]).remote));
        const auto refused = recordsOf(loop, QStringLiteral("drain-refused"));
        QCOMPARE(refused.size(), std::size_t(1));
        QVERIFY2(refused.front()->summary.contains(QLatin1String("would cut off 1 end port(s)")), qPrintable(refused.front()->summary));
        const QJsonArray links = refused.front()->details.value(QStringLiteral("links")).toArray();
        QCOMPARE(links.size(), 1);
        QCOMPARE(links.at(0).toObject().value(QStringLiteral("link")).toString(),
                 linkName(f, std::min(lab().hostCable, f.port(lab().hostCable).remote)) + QStringLiteral("–")
                     + linkName(f, std::max(lab().hostCable, f.port(lab().hostCable).remote)));
    }

    // While the policy holds a link drained, a reroute is not planned: it would route over it.
    void aRerouteWaitsForTheDrainedLinks()
    {
        const Fabric &f = *lab().fabric;
        AdaptLoopOptions options;
        options.mode = RuleMode::Auto;
        AdaptLoop loop(knowledge(), options);
        QVERIFY(loop.loadRules("rule sick mode auto when sick(link[all], window=2s) then drain(link)\n"
                               "rule busy mode auto when max(link[all].util) >= 0 then reroute(engine=ftree, method=full)\n",
                               QStringLiteral("two.rules")));
        QVERIFY(loop.tick(kStart, quietTick(f, kStart)).size() <= 1);
        std::vector<TelemetryRecord> records = quietTick(f, kStart + 1);
        setError(records, lab().uplinks[0], PortErrorCounter::LinkDowned, 5);
        std::vector<PendingChange> changes = loop.tick(kStart + 1, std::move(records));
        const auto drain = std::find_if(changes.begin(), changes.end(), [](const PendingChange &c) { return c.isLinkChange(); });
        QVERIFY(drain != changes.end());
        loop.executed(*drain, committed());
        QCOMPARE(loop.policyDrained().size(), std::size_t(1));
        // The drain rule holds (and wins) while the flaps are in its window; then the other fires.
        double t = kStart + 1;
        while (recordsOf(loop, QStringLiteral("plan-refused")).empty() && t < kStart + 8) {
            ++t;
            QVERIFY(loop.tick(t, quietTick(f, t)).empty());
        }
        const auto refused = recordsOf(loop, QStringLiteral("plan-refused"));
        QVERIFY(!refused.empty());
        QCOMPARE(refused.back()->rule, QStringLiteral("busy"));
        QCOMPARE(refused.back()->details.value(QStringLiteral("drained")).toArray().size(), 1);
    }

    void dryRunDrainsNothing()
    {
        const Fabric &f = *lab().fabric;
        AdaptLoop loop(knowledge(), {});  // the loop's mode: dry-run
        QVERIFY(loop.loadRules("rule sick mode auto when sick(link[all], window=2s) then drain(link)\n", QStringLiteral("sick.rules")));
        QVERIFY(loop.tick(kStart, quietTick(f, kStart)).empty());
        std::vector<TelemetryRecord> records = quietTick(f, kStart + 1);
        setError(records, lab().uplinks[0], PortErrorCounter::LinkDowned, 3);
        QVERIFY(loop.tick(kStart + 1, std::move(records)).empty());
        const auto dry = recordsOf(loop, QStringLiteral("dry-run"));
        QCOMPARE(dry.size(), std::size_t(1));
        QVERIFY2(dry.front()->summary.contains(QLatin1String("would drain")) && dry.front()->summary.contains(QLatin1String("flapping")),
                 qPrintable(dry.front()->summary));
        QVERIFY(loop.policyDrained().empty());
    }
};

QTEST_GUILESS_MAIN(TestSickLinks)
#include "tst_sick_links.moc"
