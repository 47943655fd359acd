// The Analyze stage of the self-adaptive loop (spec 003 §5.4, §9 T-SA-1 to T-SA-3): metric
// values from measured port rates, worked out by hand on a small generated fabric; the rule
// engine's for windows, cooldowns, hysteresis, priorities, events, `time in` and parameters;
// recorded traces (monitor CSV, history database); and `weft adapt --replay`.

#include "AdaptMetrics.h"
#include "FabricGenerator.h"
#include "MetricTrace.h"
#include "RuleEngine.h"
#include "RuleLanguage.h"
#include "SafeFile.h"
#include "TelemetryHistory.h"
#include "TopologyFile.h"
#include "WeftRunner.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <cmath>

using namespace weft;
using namespace weft::adapt;
using weft::test::Run;
using weft::test::runWeft;

namespace {

constexpr double kBytesPerGbps = 1e9 / 8;

struct Lab
{
    std::shared_ptr<const Fabric> fabric;
    std::vector<NodeIndex> hosts;

    PortIndex hostPort(int host) const
    {
        const Node &n = fabric->node(hosts[std::size_t(host)]);
        return fabric->portOf(hosts[std::size_t(host)], n.portCount >= 1 ? 1 : 0);
    }
    PortIndex facing(int host) const { return fabric->port(hostPort(host)).remote; }
    Guid portGuid(int host) const { return fabric->port(hostPort(host)).guid; }
    QString name(int host) const { return fabric->node(hosts[std::size_t(host)]).name; }
};

Lab makeLab()
{
    GeneratorOptions options;  // a 2-ary 2-tree: 4 hosts, 4 switches
    Result<GeneratedFabric> generated = generateFabric(options);
    Lab lab;
    if (!generated)
        return lab;
    lab.hosts = generated->hosts;
    lab.fabric = std::make_shared<const Fabric>(std::move(generated->fabric));
    return lab;
}

CounterRate rate(double v)
{
    return CounterRate{v, CounterGap::None};
}

TelemetryRecord record(const Fabric &fabric, PortIndex port, double xmitBytes, double rcvBytes = 0, double util = 0,
                       double wait = 0)
{
    TelemetryRecord r;
    r.portIndex = port;
    r.guid = fabric.node(fabric.port(port).node).guid;
    r.port = fabric.port(port).number;
    r.rates.xmitBytes = rate(xmitBytes);
    r.rates.rcvBytes = rate(rcvBytes);
    r.rates.xmitWait = rate(wait);
    r.rates.utilisation = rate(util);
    return r;
}

// Every host receives `gbps` (from the switch port facing it).
std::vector<TelemetryRecord> everyHostReceives(const Lab &lab, double gbps)
{
    std::vector<TelemetryRecord> records;
    for (int h = 0; h < int(lab.hosts.size()); ++h)
        records.push_back(record(*lab.fabric, lab.facing(h), gbps * kBytesPerGbps));
    return records;
}

Metric metricOf(const QByteArray &expr)
{
    const RuleFile file = parseRules("rule m when " + expr + " > 0 then notify(\"m\")", QStringLiteral("m.rules"));
    if (!file.ok() || file.rules.empty())
        return {};
    return file.rules.front().condition.metric;
}

std::vector<Rule> rulesOf(const QByteArray &text)
{
    const RuleFile file = parseRules(text, QStringLiteral("t.rules"));
    if (!file.ok())
        qWarning() << file.error->toString();
    return file.rules;
}

RuleEngineOptions utc()
{
    RuleEngineOptions options;
    options.timeZone = QTimeZone::utc();
    return options;
}

QStringList names(std::initializer_list<const char *> texts)
{
    QStringList out;
    for (const char *t : texts)
        out << QString::fromUtf8(t);
    return out;
}

QStringList describe(const std::vector<RuleFiring> &firings)
{
    QStringList out;
    for (const RuleFiring &f : firings)
        out << f.rule + QLatin1Char(' ') + firingKindName(f.kind);
    return out;
}

// Feeds `gbps[i]` as every host's receive rate at time `step * i`; returns the firings per tick.
std::vector<std::vector<RuleFiring>> run(const Lab &lab, RuleEngine &engine, const std::vector<double> &gbps, double step,
                                         double start = 0)
{
    MetricStore store(lab.fabric);
    std::vector<std::vector<RuleFiring>> out;
    for (std::size_t i = 0; i < gbps.size(); ++i) {
        store.addTick(start + step * double(i), everyHostReceives(lab, gbps[i]));
        out.push_back(engine.evaluate(store));
    }
    return out;
}

// A minute-by-minute trace of `minutes` ticks: 50 Gb/s for five minutes, then 30 (below 40).
std::vector<double> dropAtMinute5(int minutes)
{
    std::vector<double> trace(std::size_t(minutes), 30.0);
    std::fill(trace.begin(), trace.begin() + 5, 50.0);
    return trace;
}

std::vector<double> firedAt(const std::vector<std::vector<RuleFiring>> &ticks, const QString &rule,
                            FiringKind kind = FiringKind::Fired)
{
    std::vector<double> times;
    for (const auto &tick : ticks)
        for (const RuleFiring &f : tick)
            if (f.rule == rule && f.kind == kind)
                times.push_back(f.time);
    return times;
}

}  // namespace

class TestAdaptRules : public QObject
{
    Q_OBJECT

    Lab m_lab;
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        m_lab = makeLab();
        QVERIFY(m_lab.fabric);
        QCOMPARE(m_lab.hosts.size(), std::size_t(4));
        QVERIFY(m_dir.isValid());
    }

    // Hand-computed values on the generated fabric: host 0 receives 10 Gb/s (its switch port's
    // PortXmitData), host 1 20 Gb/s (no switch port record: its own PortRcvData), host 2 has
    // gaps on both sides, host 3 nothing at all: both left out.
    void metricValuesByHand()
    {
        const Fabric &fabric = *m_lab.fabric;
        Tenancy tenancy;
        tenancy.tenants.push_back(Tenant{QStringLiteral("blue"), {m_lab.portGuid(0), m_lab.portGuid(1)}});
        Partition gold;
        gold.name = QStringLiteral("gold");
        gold.pkey = 0x0010;
        gold.members.push_back(PartitionMember{PartitionMember::Kind::PortGuid, m_lab.portGuid(1)});
        tenancy.partitions.push_back(gold);
        tenancy.nodeWeights[m_lab.portGuid(0)] = 3;

        MetricStore store(m_lab.fabric, tenancy);
        QVERIFY(!store.value(metricOf("avg(node[all].rx_gbps)")));  // no tick yet

        std::vector<TelemetryRecord> tick;
        tick.push_back(record(fabric, m_lab.facing(0), 10 * kBytesPerGbps, 0, 0.5, 7));
        tick.push_back(record(fabric, m_lab.hostPort(0), 4 * kBytesPerGbps, 0, 0.25, 3));
        tick.push_back(record(fabric, m_lab.hostPort(1), 0, 20 * kBytesPerGbps));
        TelemetryRecord gapped = record(fabric, m_lab.facing(2), 0);
        gapped.rates.xmitBytes.gap = CounterGap::Cleared;
        tick.push_back(gapped);
        gapped = record(fabric, m_lab.hostPort(2), 0);
        gapped.rates.rcvBytes.gap = CounterGap::Saturated;
        tick.push_back(gapped);
        store.addTick(100, tick);

        QCOMPARE(*store.value(metricOf("avg(node[all].rx_gbps)")), 15.0);
        QCOMPARE(*store.value(metricOf("max(node[all].rx_gbps)")), 20.0);
        QCOMPARE(*store.value(metricOf("min(node[all].rx_gbps)")), 10.0);
        QCOMPARE(*store.value(metricOf("sum(node[all].rx_gbps)")), 30.0);
        QCOMPARE(*store.value(metricOf("sum(fabric.rx_gbps)")), 30.0);
        const QByteArray host0 = "node[\"" + m_lab.name(0).toUtf8() + "\"]";
        QCOMPARE(*store.value(metricOf("avg(" + host0 + ".rx_gbps)")), 10.0);
        QCOMPARE(*store.value(metricOf("avg(" + host0 + ".tx_gbps)")), 4.0);
        QCOMPARE(*store.value(metricOf("avg(" + host0 + ".util)")), 0.5);  // the busier direction
        QCOMPARE(*store.value(metricOf("avg(" + host0 + ".xmit_wait_rate)")), 3.0);
        QVERIFY(!store.value(metricOf("avg(node[\"" + m_lab.name(2).toUtf8() + "\"].rx_gbps)")));  // gaps only
        QVERIFY(!store.value(metricOf("avg(node[\"" + m_lab.name(3).toUtf8() + "\"].rx_gbps)")));  // unmeasured

        // The cable at host 0's port, both directions; the sender's figures.
        const QByteArray link = "link[\"" + m_lab.name(0).toUtf8() + "[1]\"]";
        QCOMPARE(*store.value(metricOf("max(" + link + ".util)")), 0.5);
        QCOMPARE(*store.value(metricOf("min(" + link + ".util)")), 0.25);
        QCOMPARE(*store.value(metricOf("sum(" + link + ".xmit_wait_rate)")), 10.0);
        QCOMPARE(*store.value(metricOf("max(" + link + ".rx_gbps)")), 10.0);
        QCOMPARE(*store.value(metricOf("max(fabric.util)")), 0.5);

        // Tenants, partitions (by name or P_Key) and weights.
        QCOMPARE(*store.value(metricOf("avg(tenant(\"blue\").rx_gbps)")), 15.0);
        QCOMPARE(*store.value(metricOf("avg(partition(\"gold\").rx_gbps)")), 20.0);
        QCOMPARE(*store.value(metricOf("avg(partition(\"0x0010\").rx_gbps)")), 20.0);
        QCOMPARE(*store.value(metricOf("max(tenant(\"blue\").weight)")), 3.0);
        QCOMPARE(*store.value(metricOf("min(tenant(\"blue\").weight)")), 1.0);

        // Selectors naming nothing: no value, and the reason.
        for (const QByteArray &m : {QByteArray("avg(node[\"no-such-node\"].rx_gbps)"),
                                    QByteArray("avg(tenant(\"red\").rx_gbps)"),
                                    QByteArray("avg(partition(\"lead\").rx_gbps)"),
                                    "avg(link[\"" + m_lab.name(0).toUtf8() + "[2]\"].util)"}) {
            QVERIFY2(!store.value(metricOf(m)), m.constData());
            QVERIFY2(!store.selectorError(metricOf(m)).isEmpty(), m.constData());
        }
        QVERIFY(store.selectorError(metricOf("avg(" + link + ".util)")).isEmpty());

        // A window: host 0 at 20 Gb/s ten seconds later, host 1 unmeasured then.
        std::vector<TelemetryRecord> later;
        later.push_back(record(fabric, m_lab.facing(0), 20 * kBytesPerGbps));
        store.addTick(110, later);
        QCOMPARE(*store.value(metricOf("avg(node[all].rx_gbps)")), 20.0);
        QCOMPARE(*store.value(metricOf("avg(node[all].rx_gbps, window=5s)")), 20.0);
        QCOMPARE(*store.value(metricOf("avg(node[all].rx_gbps, window=10s)")), 50.0 / 3);
        QCOMPARE(*store.value(metricOf("sum(node[all].rx_gbps, window=10s)")), 25.0);  // (30 + 20) / 2
        QCOMPARE(store.tickCount(), std::size_t(2));
        store.addTick(105, later);  // not later than the newest: ignored
        QCOMPARE(store.tickCount(), std::size_t(2));
    }

    void p95IsTheNearestRank()
    {
        MetricStore store(m_lab.fabric);
        int v = 0;
        for (int t = 0; t < 5; ++t) {
            std::vector<TelemetryRecord> records;
            for (int h = 0; h < 4; ++h)
                records.push_back(record(*m_lab.fabric, m_lab.facing(h), double(++v) * kBytesPerGbps));
            store.addTick(t, records);
        }
        // 1..20 over the window: the 19th; 17..20 in the latest tick: the 4th.
        QCOMPARE(*store.value(metricOf("p95(node[all].rx_gbps, window=1m)")), 19.0);
        QCOMPARE(*store.value(metricOf("p95(node[all].rx_gbps)")), 20.0);
    }

    void retentionDropsOldTicks()
    {
        MetricStore store(m_lab.fabric);
        store.setRetentionSeconds(60);
        for (int t = 0; t <= 120; t += 10)
            store.addTick(t, everyHostReceives(m_lab, 1));
        QCOMPARE(store.tickCount(), std::size_t(7));  // 60..120
        QCOMPARE(store.latestTime(), 120.0);
    }

    void smoothedReceiveRatesAreAnEwma()
    {
        MetricStore store(m_lab.fabric);
        std::vector<TelemetryRecord> first{record(*m_lab.fabric, m_lab.facing(0), 100)};
        std::vector<TelemetryRecord> second{record(*m_lab.fabric, m_lab.facing(0), 200)};
        store.addTick(0, first);
        store.addTick(10, second);
        const std::vector<double> rates = store.smoothedReceiveRates(10);
        QCOMPARE(rates.size(), m_lab.fabric->endNodes().size());
        const auto at = std::find(m_lab.fabric->endNodes().begin(), m_lab.fabric->endNodes().end(), m_lab.hosts[0])
            - m_lab.fabric->endNodes().begin();
        const double a = 1 - std::exp(-1.0);
        QVERIFY(std::abs(rates[std::size_t(at)] - (a * 200 + (1 - a) * 100)) < 1e-6);
        double others = 0;
        for (std::size_t i = 0; i < rates.size(); ++i)
            if (i != std::size_t(at))
                others += rates[i];
        QCOMPARE(others, 0.0);  // never measured
    }

    // T-SA-1, the thesis's example over a recorded minute-by-minute trace.
    void tsa1FiresOnceAfterItsWindow()
    {
        RuleEngine engine;
        engine.setRules(rulesOf("rule low_tput cooldown 30m when avg(node[all].rx_gbps) < 40 for 10m\n"
                                "  then reroute(engine=wftree, weights=learned(30m), method=metabase)\n"));
        const auto ticks = run(m_lab, engine, dropAtMinute5(61), 60);
        // Held from 5m: fires at 15m; at 25m the next window is full but the cooldown runs (one
        // record); at 45m the cooldown is over; at 55m the next cooldown record.
        QCOMPARE(firedAt(ticks, QStringLiteral("low_tput")), (std::vector<double>{900, 2700}));
        QCOMPARE(firedAt(ticks, QStringLiteral("low_tput"), FiringKind::Cooldown), (std::vector<double>{1500, 3300}));
        const RuleFiring &fired = ticks[15].front();
        QCOMPARE(fired.heldSeconds, 600.0);
        QCOMPARE(fired.inputs.size(), std::size_t(1));
        QCOMPARE(*fired.inputs[0].value, 30.0);
        QCOMPARE(fired.inputs[0].threshold, 40.0);
        QVERIFY(fired.inputs[0].holds);
        QCOMPARE(fired.reason, QString());
        QCOMPARE(ticks[25].front().reason, QStringLiteral("cooldown ends in 20m"));
    }

    void tsa1WithItsWindowedAverage()
    {
        RuleEngine engine;
        engine.setRules(rulesOf("rule low_tput when avg(node[all].rx_gbps, window=5m) < 40 for 10m\n"
                                "  then reroute(engine=wftree, weights=learned(30m), method=metabase)\n"));
        // The 5-minute mean: 46.7 at 5m, 43.3 at 6m, exactly 40 at 7m (not < 40), 36.7 at 8m.
        const auto ticks = run(m_lab, engine, dropAtMinute5(20), 60);
        QCOMPARE(firedAt(ticks, QStringLiteral("low_tput")), (std::vector<double>{1080}));
    }

    void tsa1NotWhileAtOrAboveTheThreshold()
    {
        for (const std::vector<double> &trace : {std::vector<double>(30, 40.0), std::vector<double>(30, 55.0)}) {
            RuleEngine engine;
            engine.setRules(rulesOf("rule low_tput when avg(node[all].rx_gbps) < 40 for 10m then reroute(engine=wftree)\n"));
            const auto ticks = run(m_lab, engine, trace, 60);
            QVERIFY(firedAt(ticks, QStringLiteral("low_tput")).empty());
            QVERIFY(!engine.status().front().holds);
        }
        // Alternating 40 and 45: never below.
        std::vector<double> alternating;
        for (int i = 0; i < 30; ++i)
            alternating.push_back(i % 2 ? 45 : 40);
        RuleEngine engine;
        engine.setRules(rulesOf("rule low_tput when avg(node[all].rx_gbps) < 40 for 10m then reroute(engine=wftree)\n"));
        QVERIFY(firedAt(run(m_lab, engine, alternating, 60), QStringLiteral("low_tput")).empty());
    }

    void forWindowStartsAgainAfterFiring()
    {
        RuleEngine engine;
        engine.setRules(rulesOf("rule busy when max(node[all].rx_gbps) > 1 for 2m then notify(\"busy\")\n"));
        const auto ticks = run(m_lab, engine, std::vector<double>(8, 5.0), 60);
        QCOMPARE(firedAt(ticks, QStringLiteral("busy")), (std::vector<double>{120, 240, 360}));
    }

    // T-SA-2: wftree against ftree; the higher priority wins, the other is suppressed, also
    // while the winner cools down; notify-only rules are never suppressed.
    void tsa2PriorityResolvesConflicts()
    {
        RuleEngine engine;
        engine.setRules(rulesOf("rule ft priority 5 when avg(node[all].rx_gbps) < 40 then reroute(engine=ftree)\n"
                                "rule wf priority 10 cooldown 10m when avg(node[all].rx_gbps) < 40\n"
                                "  then reroute(engine=wftree, weights=learned(30m))\n"
                                "rule tell when avg(node[all].rx_gbps) < 40 then notify(\"low\")\n"));
        const auto ticks = run(m_lab, engine, std::vector<double>(12, 30.0), 60);
        QCOMPARE(describe(ticks[0]), names({"wf fired", "ft suppressed", "tell fired"}));
        QCOMPARE(ticks[0][1].reason, QStringLiteral("by wf (priority 10)"));
        QCOMPARE(describe(ticks[1]), names({"wf cooldown", "ft suppressed", "tell fired"}));
        QCOMPARE(describe(ticks[2]), names({"ft suppressed", "tell fired"}));
        QCOMPARE(describe(ticks[10]), names({"wf fired", "ft suppressed", "tell fired"}));
        QVERIFY(firedAt(ticks, QStringLiteral("ft")).empty());
        QCOMPARE(firedAt(ticks, QStringLiteral("tell")).size(), std::size_t(12));
        const RuleStatus &ft = engine.status()[0];
        QCOMPARE(ft.rule, QStringLiteral("ft"));
        QCOMPARE(ft.suppressed, 12);
        QCOMPARE(engine.status()[1].fired, 2);

        // The JSON of a record.
        const QJsonObject json = ticks[0][1].toJson();
        QCOMPARE(json.value(QLatin1String("time")).toDouble(), 0.0);
        QCOMPARE(json.value(QLatin1String("rule")).toString(), QStringLiteral("ft"));
        QCOMPARE(json.value(QLatin1String("event")).toString(), QStringLiteral("suppressed"));
        QCOMPARE(json.value(QLatin1String("actions")).toArray().first().toString(), QStringLiteral("reroute(engine=ftree)"));
        QCOMPARE(json.value(QLatin1String("priority")).toInt(), 5);
        QCOMPARE(json.value(QLatin1String("mode")).toString(), QStringLiteral("approve"));
        QCOMPARE(json.value(QLatin1String("reason")).toString(), QStringLiteral("by wf (priority 10)"));
        QCOMPARE(json.value(QLatin1String("held_seconds")).toDouble(), 0.0);
        const QJsonObject input = json.value(QLatin1String("inputs")).toArray().first().toObject();
        QCOMPARE(input.value(QLatin1String("term")).toString(), QStringLiteral("avg(node[all].rx_gbps) < 40"));
        QCOMPARE(input.value(QLatin1String("value")).toDouble(), 30.0);
        QCOMPARE(input.value(QLatin1String("threshold")).toDouble(), 40.0);
        QCOMPARE(input.value(QLatin1String("holds")).toBool(), true);
    }

    void unmeasuredValueIsNull()
    {
        RuleEngine engine;
        engine.setRules(rulesOf("rule gone when max(node[all].rx_gbps) < 1 then notify(\"quiet\")\n"));
        MetricStore store(m_lab.fabric);
        store.addTick(0, {});
        QVERIFY(engine.evaluate(store).empty());  // no value: the comparison does not hold
        QVERIFY(!engine.status().front().terms.front().value);
        RuleFiring f;
        f.inputs = engine.status().front().terms;
        QVERIFY(f.toJson().value(QLatin1String("inputs")).toArray().first().toObject().value(QLatin1String("value")).isNull());
    }

    // A value hovering at the threshold holds steadily once it held; without hysteresis it flaps.
    void hysteresisKeepsAHoveringValueSteady()
    {
        const std::vector<double> trace{9.9, 10.1, 9.9, 10.1, 9.8, 10.2, 9.4, 9.9};
        auto holdsPerTick = [&](double fraction) {
            RuleEngineOptions options;
            options.hysteresisFraction = fraction;
            RuleEngine engine(options);
            engine.setRules(rulesOf("rule hot when max(node[all].rx_gbps) > 10 for 10m then notify(\"hot\")\n"));
            MetricStore store(m_lab.fabric);
            QList<bool> holds;
            for (std::size_t i = 0; i < trace.size(); ++i) {
                store.addTick(double(i) * 60, everyHostReceives(m_lab, trace[i]));
                engine.evaluate(store);
                holds << engine.status().front().holds;
            }
            return holds;
        };
        // Margin 0.5: it starts above 10, stops at or below 9.5.
        QCOMPARE(holdsPerTick(0.05), (QList<bool>{false, true, true, true, true, true, false, false}));
        QCOMPARE(holdsPerTick(0), (QList<bool>{false, true, false, true, false, true, false, false}));
    }

    void eventsHoldOnTheNextTickOnly()
    {
        RuleEngine engine;
        engine.setRules(rulesOf("rule down when event(link_down) then notify(\"down\")\n"
                                "rule shape when event(topology_change) then notify(\"shape\")\n"
                                "rule tenants when event(tenant_changed) then notify(\"tenants\")\n"));
        MetricStore store(m_lab.fabric);
        store.addTick(0, {});
        QVERIFY(engine.evaluate(store).empty());
        engine.noteEvent(RuleEvent::LinkDown);
        store.addTick(1, {});
        QCOMPARE(describe(engine.evaluate(store)), names({"down fired", "shape fired"}));
        QVERIFY(engine.evaluate(store).empty());  // the same tick again: nothing new
        store.addTick(2, {});
        QVERIFY(engine.evaluate(store).empty());
        engine.noteEvent(RuleEvent::TenantChanged);
        store.addTick(3, {});
        QCOMPARE(describe(engine.evaluate(store)), names({"tenants fired"}));
    }

    void timeInWrapsAroundMidnight()
    {
        RuleEngine engine(utc());
        engine.setRules(rulesOf("rule night when time in 22:00..06:00 then notify(\"night\")\n"
                                "rule day when time in 08:00..17:30 then notify(\"day\")\n"));
        MetricStore store(m_lab.fabric);
        const double midnight = 1700006400;  // 2023-11-15 00:00 UTC
        auto at = [&](int hour, int minute) {
            store.addTick(midnight + hour * 3600 + minute * 60, {});
            return describe(engine.evaluate(store));
        };
        QCOMPARE(at(0, 30), names({"night fired"}));
        QCOMPARE(at(5, 59), names({"night fired"}));
        QCOMPARE(at(6, 0), QStringList{});
        QCOMPARE(at(8, 0), names({"day fired"}));
        QCOMPARE(at(17, 30), QStringList{});
        QCOMPARE(at(21, 59), QStringList{});
        QCOMPARE(at(22, 0), names({"night fired"}));
        QCOMPARE(at(23, 59), names({"night fired"}));
    }

    void parametersAreComparedAndMissingOnesNamed()
    {
        RuleEngine engine;
        engine.setRules(rulesOf("rule p when max_hot_links > 2 and max(node[all].rx_gbps) > 1 then notify(\"p\")\n"));
        MetricStore store(m_lab.fabric);
        store.addTick(0, everyHostReceives(m_lab, 5));
        QVERIFY(engine.evaluate(store).empty());
        QVERIFY(engine.status().front().problem.contains(QStringLiteral("max_hot_links")));
        engine.setParameter(QStringLiteral("max_hot_links"), 3);
        store.addTick(1, everyHostReceives(m_lab, 5));
        QCOMPARE(describe(engine.evaluate(store)), names({"p fired"}));
        QVERIFY(engine.status().front().problem.isEmpty());
        QCOMPARE(engine.status().front().terms.size(), std::size_t(2));
    }

    void unchangedRulesKeepTheirState()
    {
        RuleEngine engine;
        const QByteArray text = "rule busy cooldown 1h when max(node[all].rx_gbps) > 1 then reroute(engine=wftree)\n";
        engine.setRules(rulesOf(text));
        MetricStore store(m_lab.fabric);
        store.addTick(0, everyHostReceives(m_lab, 5));
        QCOMPARE(describe(engine.evaluate(store)), names({"busy fired"}));
        engine.setRules(rulesOf(text + "rule other when max(node[all].rx_gbps) > 100 then notify(\"x\")\n"));
        store.addTick(60, everyHostReceives(m_lab, 5));
        QCOMPARE(describe(engine.evaluate(store)), names({"busy cooldown"}));  // still cooling down
        QCOMPARE(engine.longestWindowSeconds(), 0.0);
        engine.setRules(rulesOf("rule w when avg(node[all].rx_gbps, window=5m) > 1 for 2m "
                                "then reroute(engine=wftree, weights=learned(30m))\n"));
        QCOMPARE(engine.longestWindowSeconds(), 1800.0);
    }

    // T-SA-3: a 32-bit PortXmitData that wrapped between two polls (0xFFFFFFF0 -> 0x10, not
    // extended) gives a gap, never a negative or huge rate, and a rule on it does not fire.
    void tsa3WrappedCounterGivesAGapAndNoFiring()
    {
        const Fabric &fabric = *m_lab.fabric;
        const std::vector<PortIndex> ports{m_lab.facing(0), m_lab.hostPort(0)};
        PortCounterSample before;
        before.answered = true;
        before.xmitData = 0xFFFFFFF0;
        before.rcvData = 0xFFFFFFF0;
        PortCounterSample now = before;
        now.xmitData = 0x10;
        now.rcvData = 0x10;
        const std::vector<TelemetryRecord> records =
            telemetryRecords(fabric, ports, {before, before}, {0.0, 0.0}, {now, now}, {1.0, 1.0}, 1000);
        QCOMPARE(records.size(), std::size_t(2));
        for (const TelemetryRecord &r : records) {
            QVERIFY(!r.rates.xmitBytes.ok());
            QVERIFY(!r.rates.rcvBytes.ok());
            QVERIFY(r.rates.xmitBytes.value >= 0 && r.rates.xmitBytes.value < 1e12);
        }
        const QByteArray rule =
            "rule hot when max(node[\"" + m_lab.name(0).toUtf8() + "\"].rx_gbps) > 0 then reroute(engine=wftree)\n";
        RuleEngine engine;
        engine.setRules(rulesOf(rule));
        MetricStore store(m_lab.fabric);
        store.addTick(1000, records);
        QVERIFY(engine.evaluate(store).empty());
        QVERIFY(!engine.status().front().terms.front().value);

        // The same wrap on the switch port only: the host's own PortRcvData still counts it.
        PortCounterSample hostBefore = before;
        hostBefore.rcvData = 0;
        PortCounterSample hostNow = hostBefore;
        hostNow.rcvData = 250000000;  // 1 GB in 4-octet units, over 1 s
        store.addTick(1001,
                      telemetryRecords(fabric, ports, {before, hostBefore}, {0.0, 0.0}, {now, hostNow}, {1.0, 1.0}, 1001));
        const std::vector<RuleFiring> fired = engine.evaluate(store);
        QCOMPARE(describe(fired), names({"hot fired"}));
        QCOMPARE(*fired.front().inputs.front().value, 8.0);
    }

    // A tick of 48,000 measured ports (a 20-ary 3-tree) and a 10-minute window over 60 of them:
    // lookups are built once per fabric, so this stays well under a monitor's interval.
    void largeFabricTicksAreCheap()
    {
        GeneratorOptions options;
        options.arity = 20;
        options.levels = 3;
        Result<GeneratedFabric> generated = generateFabric(options);
        QVERIFY(generated);
        auto fabric = std::make_shared<const Fabric>(std::move(generated->fabric));
        std::vector<TelemetryRecord> records;
        for (PortIndex p = 0; p < PortIndex(fabric->ports().size()); ++p)
            if (fabric->port(p).remote != kNoIndex)
                records.push_back(record(*fabric, p, 1e8, 1e8, 0.1, 1));
        QCOMPARE(records.size(), std::size_t(48000));
        QElapsedTimer timer;
        timer.start();
        MetricStore store(fabric);
        for (int t = 0; t < 60; ++t)
            store.addTick(t * 10, records);
        QVERIFY(std::abs(*store.value(metricOf("avg(node[all].rx_gbps, window=10m)")) - 0.8) < 1e-9);
        QCOMPARE(*store.value(metricOf("max(link[all].util, window=10m)")), 0.1);
        QCOMPARE(*store.value(metricOf("sum(fabric.xmit_wait_rate)")), 48000.0);
        QCOMPARE(store.smoothedReceiveRates(300).front(), 1e8);
        QVERIFY2(timer.elapsed() < 10000, qPrintable(QString::number(timer.elapsed())));
    }

    void csvTraceReadsIntoTicks()
    {
        const QString topology = QFINDTESTDATA("data/topology/ibnetdiscover-2sw4hca.txt");
        const QString trace = QFINDTESTDATA("data/adapt/hotspot.csv");
        QVERIFY(!topology.isEmpty() && !trace.isEmpty());
        Result<Fabric> fabric = readTopologyFile(topology);
        QVERIFY(fabric);
        QVERIFY(!isHistoryDatabase(trace));
        Result<std::vector<TraceTick>> ticks = readMetricTrace(trace, *fabric);
        QVERIFY2(ticks, qPrintable(ticks ? QString() : ticks.error().toString()));
        QCOMPARE(ticks->size(), std::size_t(8));
        QCOMPARE(ticks->front().time, 1700000000.0);
        QCOMPARE(ticks->front().records.size(), std::size_t(4));
        const TelemetryRecord &r = ticks->front().records.front();
        QCOMPARE(r.guid, Guid(0x200000));
        QCOMPARE(r.port, 1);
        QCOMPARE(r.portIndex, fabric->portOf(fabric->nodeByGuid(0x200000), 1));
        QCOMPARE(r.rates.xmitBytes.value, 1e8);
        QVERIFY(r.rates.xmitBytes.ok());
    }

    void csvTraceErrorsNameTheLine_data()
    {
        QTest::addColumn<QByteArray>("csv");
        QTest::addColumn<QString>("expected");
        const QByteArray header = "time,guid,port,xmit_bytes_per_s,rcv_bytes_per_s,xmit_wait_per_s,utilisation\n";
        QTest::addRow("not the monitor's header") << QByteArray("time,guid,port\n1,2,3\n") << QStringLiteral(":1: not a trace");
        QTest::addRow("unknown GUID") << header + "5,0x99,1,1,1,1,0\n"
                                      << QStringLiteral(":2: no node with GUID 0x0000000000000099");
        QTest::addRow("port not there") << header + "5,0x200000,9,1,1,1,0\n"
                                        << QStringLiteral(":2: node 0x0000000000200000");
        QTest::addRow("not a number") << header + "5,0x200000,1,lots,1,1,0\n"
                                      << QStringLiteral(":2: xmit_bytes_per_s \"lots\"");
        QTest::addRow("backwards") << header + "5,0x200000,1,1,1,1,0\n4,0x200000,1,1,1,1,0\n"
                                   << QStringLiteral(":3: time 4 is before");
        QTest::addRow("fields") << header + "5,0x200000,1,1,1\n"
                                << QStringLiteral(":2: 5 fields");
    }

    void csvTraceErrorsNameTheLine()
    {
        QFETCH(QByteArray, csv);
        QFETCH(QString, expected);
        Result<Fabric> fabric = readTopologyFile(QFINDTESTDATA("data/topology/ibnetdiscover-2sw4hca.txt"));
        QVERIFY(fabric);
        const QString path = m_dir.filePath(QStringLiteral("bad.csv"));
        QVERIFY(writeFileAtomically(path, csv, false));
        Result<std::vector<TraceTick>> ticks = readMetricTrace(path, *fabric);
        QVERIFY(!ticks);
        QVERIFY2(ticks.error().toString().contains(expected), qPrintable(ticks.error().toString()));
        QVERIFY(ticks.error().toString().startsWith(path));
    }

    void historyDatabaseTrace()
    {
        Result<Fabric> read = readTopologyFile(QFINDTESTDATA("data/topology/ibnetdiscover-2sw4hca.txt"));
        QVERIFY(read);
        const Fabric fabric = std::move(read).value();
        const QString path = m_dir.filePath(QStringLiteral("history.db"));
        {
            auto history = TelemetryHistory::open(path, fabricHistoryId(fabric));
            QVERIFY2(history, qPrintable(history ? QString() : history.error().toString()));
            for (double t : {100.0, 110.0}) {
                TelemetryRecord r = record(fabric, fabric.portOf(fabric.nodeByGuid(0x200000), 1), t * 1e6, 5, 0.1, 2);
                r.time = t;
                QVERIFY((*history)->record({r}));
            }
        }
        QVERIFY(isHistoryDatabase(path));
        Result<std::vector<TraceTick>> ticks = readMetricTrace(path, fabric);
        QVERIFY2(ticks, qPrintable(ticks ? QString() : ticks.error().toString()));
        QCOMPARE(ticks->size(), std::size_t(2));
        QCOMPARE(ticks->back().time, 110.0);
        QCOMPARE(ticks->back().records.front().rates.xmitBytes.value, 110e6);
        QCOMPARE(ticks->back().records.front().portIndex, fabric.portOf(fabric.nodeByGuid(0x200000), 1));

        // Another fabric's history is refused.
        Result<std::vector<TraceTick>> other = readMetricTrace(path, *m_lab.fabric);
        QVERIFY(!other);
        QVERIFY(other.error().toString().contains(QStringLiteral("a history of fabric")));
    }

    void replayCommand()
    {
        const QString topology = QFINDTESTDATA("data/topology/ibnetdiscover-2sw4hca.txt");
        const QString rules = QFINDTESTDATA("data/adapt/hotspot.rules");
        const QString trace = QFINDTESTDATA("data/adapt/hotspot.csv");
        const QStringList base{QStringLiteral("adapt"), QStringLiteral("--rules"), rules,
                               QStringLiteral("--replay"), trace, QStringLiteral("--topology"),
                               topology, QStringLiteral("--utc")};
        const Run json = runWeft(base + QStringList{QStringLiteral("--json")});
        QVERIFY2(json.exitCode == 0, json.err.constData());
        const QList<QByteArray> lines = json.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 4);
        QStringList seen;
        for (const QByteArray &line : lines) {
            QJsonParseError error;
            const QJsonObject o = QJsonDocument::fromJson(line, &error).object();
            QCOMPARE(error.error, QJsonParseError::NoError);
            for (const char *key : {"time", "rule", "event", "actions", "priority", "mode", "reason", "held_seconds", "inputs"})
                QVERIFY2(o.contains(QLatin1String(key)), key);
            seen << QStringLiteral("%1 %2 %3").arg(o.value(QLatin1String("time")).toDouble(), 0, 'f', 0, QLatin1Char(' ')).arg(o.value(QLatin1String("rule")).toString(), o.value(QLatin1String("event")).toString());
        }
        QCOMPARE(seen, names({"1700000040 hot fired", "1700000040 cool suppressed", "1700000060 hot cooldown", "1700000060 cool suppressed"}));
        const QJsonObject first = QJsonDocument::fromJson(lines.front()).object();
        QCOMPARE(first.value(QLatin1String("actions")).toArray().first().toString(),
                 QStringLiteral("reroute(engine=wftree, weights=learned(5m), method=metabase)"));
        QCOMPARE(first.value(QLatin1String("mode")).toString(), QStringLiteral("auto"));
        QCOMPARE(first.value(QLatin1String("inputs")).toArray().first().toObject().value(QLatin1String("value")).toDouble(), 8.0);

        const Run text = runWeft(base);
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.startsWith("2023-11-14T22:14:00"), text.out.constData());
        QVERIFY(text.out.contains(" cool suppressed: reroute(engine=ftree) (by hot (priority 5))\n"));
    }

    void replayRefusesBadInput()
    {
        const QString topology = QFINDTESTDATA("data/topology/ibnetdiscover-2sw4hca.txt");
        const QString badRules = QFINDTESTDATA("data/adapt/bad.rules");
        const QString rules = QFINDTESTDATA("data/adapt/hotspot.rules");
        const QString badTrace = QFINDTESTDATA("data/adapt/unknown-guid.csv");
        // The rules are checked first, even with a bad trace.
        const Run r1 = runWeft({QStringLiteral("adapt"), QStringLiteral("--rules"), badRules, QStringLiteral("--replay"),
                                badTrace, QStringLiteral("--topology"), topology});
        QCOMPARE(r1.exitCode, 2);
        QVERIFY2(r1.err.contains((badRules + QStringLiteral(":2:43: ")).toUtf8()), r1.err.constData());
        QVERIFY(r1.out.isEmpty());

        const Run r2 = runWeft({QStringLiteral("adapt"), QStringLiteral("--rules"), rules, QStringLiteral("--replay"),
                                badTrace, QStringLiteral("--topology"), topology});
        QCOMPARE(r2.exitCode, 2);
        QVERIFY2(r2.err.contains((badTrace + QStringLiteral(":3: no node with GUID 0x0000000000000999")).toUtf8()),
                 r2.err.constData());
        QVERIFY(r2.out.isEmpty());

        const Run r3 = runWeft({QStringLiteral("adapt"), QStringLiteral("--rules"), rules, QStringLiteral("--replay"),
                                QFINDTESTDATA("data/adapt/hotspot.csv"), QStringLiteral("--topology"), topology,
                                QStringLiteral("--param"), QStringLiteral("x")});
        QCOMPARE(r3.exitCode, 2);
        QVERIFY2(r3.err.contains("--param: expected NAME=NUMBER, not \"x\""), r3.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestAdaptRules)
#include "tst_adapt_rules.moc"
