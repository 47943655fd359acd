// Effective bisection bandwidth (spec 002 §2.6): the exact values of spec §8 by enumerating all
// P! patterns, Monte-Carlo estimates that must contain them, statistics, determinism across
// seeds and thread counts, cancellation, partition restriction, mixed link rates and odd P.
// Expected values are the spec's fractions or derived by hand in the comments, never outputs.

#include "EffectiveBisection.h"
#include "FabricGenerator.h"
#include "RouteWalk.h"
#include "RoutingEngine.h"
#include "Validation.h"

#include "GeneratedFabrics.h"
#include "Partitions.h"
#include "TinyFabric.h"

#include <QElapsedTimer>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <numeric>
#include <random>

using namespace weft;

namespace {

// A TinyFabric with 4x QDR cables unless said otherwise, built with its tables given as a rule
// (switch, destination host) -> out port.
struct HandFabric : test::TinyFabric
{
    HandFabric() { setLinkRate(test::LinkRate{}); }
    void build(const std::function<int(const QString &sw, const QString &host)> &route)
    {
        fabric = TinyFabric::build();
        tables = tablesByRule(route);
    }

    Fabric fabric;
    ForwardingTables tables;
};

QString host(const char *prefix, int i)
{
    return QStringLiteral("%1%2").arg(QLatin1String(prefix)).arg(i);
}

// TC-1 and the odd-P case: P hosts on one switch.
HandFabric crossbar(int p)
{
    HandFabric f;
    f.addSwitch(QStringLiteral("X"), p);
    for (int i = 0; i < p; ++i) {
        f.addHost(host("h", i));
        f.cable(QStringLiteral("X"), i + 1, host("h", i), 1);
    }
    f.build([](const QString &, const QString &h) { return h.mid(1).toInt() + 1; });
    return f;
}

// TC-2/TC-3: switches A and B with k hosts each (ports 1..k) and `cables` parallel cables on
// ports k+1.. ; towards far host i, `balanced` picks cable i mod cables, otherwise cable 0.
// `cableWidth` lanes on the inter-switch cables (hosts are 4x QDR).
HandFabric dumbbell(int k, int cables, bool balanced, int cableWidth = 4)
{
    HandFabric f;
    f.addSwitch(QStringLiteral("A"), k + cables);
    f.addSwitch(QStringLiteral("B"), k + cables);
    for (int i = 0; i < k; ++i) {
        f.addHost(host("a", i));
        f.cable(QStringLiteral("A"), i + 1, host("a", i), 1);
        f.addHost(host("b", i));
        f.cable(QStringLiteral("B"), i + 1, host("b", i), 1);
    }
    for (int c = 0; c < cables; ++c)
        f.cable(QStringLiteral("A"), k + 1 + c, QStringLiteral("B"), k + 1 + c, test::LinkRate{cableWidth});
    f.build([=](const QString &sw, const QString &h) {
        const int i = h.mid(1).toInt();
        if (sw.at(0).toLower() == h.at(0))
            return i + 1;
        return k + 1 + (balanced ? i % cables : 0);
    });
    return f;
}

// TC-5: leaves L0..L3 with hosts 2l, 2l+1 on ports 1, 2; leaf port 3 to T0, 4 to T1; spine
// port l+1 to leaf l. Up-traffic to host d takes T0 (allViaT0) or T(d mod 2).
HandFabric twoLevelTree(bool allViaT0)
{
    HandFabric f;
    for (int l = 0; l < 4; ++l)
        f.addSwitch(host("L", l), 4);
    for (int t = 0; t < 2; ++t)
        f.addSwitch(host("T", t), 4);
    for (int d = 0; d < 8; ++d) {
        f.addHost(host("h", d));
        f.cable(host("L", d / 2), 1 + d % 2, host("h", d), 1);
    }
    for (int l = 0; l < 4; ++l)
        for (int t = 0; t < 2; ++t)
            f.cable(host("L", l), 3 + t, host("T", t), l + 1);
    f.build([=](const QString &sw, const QString &h) {
        const int d = h.mid(1).toInt();
        const int n = sw.mid(1).toInt();
        if (sw.startsWith(QLatin1Char('T')))
            return d / 2 + 1;
        if (n == d / 2)
            return 1 + d % 2;
        return allViaT0 ? 3 : 3 + d % 2;
    });
    return f;
}

// TC-6: network X' — outer switches A, C, E with two hosts each (ports 1, 2) and ports 3 to B,
// 4 to D; B and D reach A, C, E on ports 1, 2, 3. All transit goes through B.
HandFabric networkXPrimeViaB()
{
    HandFabric f;
    const QStringList outer = {QStringLiteral("A"), QStringLiteral("C"), QStringLiteral("E")};
    for (const QString &s : outer)
        f.addSwitch(s, 4);
    f.addSwitch(QStringLiteral("B"), 3);
    f.addSwitch(QStringLiteral("D"), 3);
    for (int i = 0; i < 6; ++i) {
        f.addHost(host("h", i));
        f.cable(outer[i / 2], 1 + i % 2, host("h", i), 1);
    }
    for (int o = 0; o < 3; ++o) {
        f.cable(outer[o], 3, QStringLiteral("B"), o + 1);
        f.cable(outer[o], 4, QStringLiteral("D"), o + 1);
    }
    f.build([=](const QString &sw, const QString &h) {
        const int i = h.mid(1).toInt();
        if (sw == QLatin1String("B") || sw == QLatin1String("D"))
            return i / 2 + 1;
        if (sw == outer[i / 2])
            return 1 + i % 2;
        return 3;
    });
    return f;
}

// Λ as spec 002 §8 defines the exact value: the mean over all P! permutations.
double enumerate(const EffectiveBisection &ebb, BisectionVariant variant)
{
    std::vector<int> order(std::size_t(ebb.participantCount()));
    std::iota(order.begin(), order.end(), 0);
    double sum = 0;
    long count = 0;
    do {
        sum += ebb.patternBandwidth(order, variant);
        ++count;
    } while (std::next_permutation(order.begin(), order.end()));
    return sum / double(count);
}

EffectiveBisection prepared(const HandFabric &f, const EbbModel &model = {}, const Tenancy &tenancy = {})
{
    Result<EffectiveBisection> e = EffectiveBisection::prepare(f.fabric, f.tables, tenancy, model);
    if (!e)
        qFatal("prepare: %s", qPrintable(e.error().toString()));
    return std::move(e).value();
}

struct GeneratedTree
{
    Fabric fabric;
    ForwardingTables tables;
};

// A generated 2-level tree of radix 8 (32 hosts) routed by ftree.
const GeneratedTree &smallTree()
{
    static const GeneratedTree tree = [] {
        const GeneratedFabric g = test::generate({FabricShapeKind::SwitchRadix, 8, 2});
        Result<Routing> r = routeFabric(QStringLiteral("ftree"), g.fabric, Tenancy{});
        if (!r)
            qFatal("route: %s", qPrintable(r.error().toString()));
        return GeneratedTree{g.fabric, r->tables};
    }();
    return tree;
}

// The same fabric with its tables replaced by a routing engine's (the P-SSSP rows of §8).
HandFabric routedBy(HandFabric f, const char *engine)
{
    Result<Routing> routing = routeFabric(QLatin1String(engine), f.fabric, Tenancy{});
    if (!routing)
        qFatal("%s: %s", engine, qPrintable(routing.error().toString()));
    f.tables = std::move(routing->tables);
    return f;
}

EbbResult runOnTree(std::uint64_t seed, int threads, int samples = 2000, BisectionVariant variant = BisectionVariant::OneWay)
{
    const GeneratedTree &tree = smallTree();
    Result<EffectiveBisection> e = EffectiveBisection::prepare(tree.fabric, tree.tables, Tenancy{});
    if (!e)
        qFatal("prepare: %s", qPrintable(e.error().toString()));
    EbbRun run;
    run.seed = seed;
    run.threads = threads;
    run.samples = samples;
    run.variant = variant;
    Result<EbbResult> r = e->run(run);
    if (!r)
        qFatal("run: %s", qPrintable(r.error().toString()));
    return std::move(r).value();
}

}  // namespace

class TestEbb : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void exactBySpec_data();
    void exactBySpec();
    void monteCarloContainsExact_data();
    void monteCarloContainsExact();
    void tc9_statisticsAreConsistent();
    void tc9_rngGoldenAndUniform();
    void sameSeedSameResult_data();
    void sameSeedSameResult();
    void differentSeedDifferentSamples();
    void cancellation_data();
    void cancellation();
    void partitionRestriction();
    void unknownGroupIsNamed();
    void mixedLinkRates_data();
    void mixedLinkRates();
    void tc9_oddParticipantCount_data();
    void tc9_oddParticipantCount();
    void tc7_creditLoopOfFigure1_data();
    void tc7_creditLoopOfFigure1();
    void undeliveredPairIsAnError();
    void bottlenecksOnTheSharedCable();
    void patternsFollowTheSpecDraw_data();
    void patternsFollowTheSpecDraw();
    void figuresMatchAPlainCount_data();
    void figuresMatchAPlainCount();
};

void TestEbb::exactBySpec_data()
{
    QTest::addColumn<std::function<HandFabric()>>("make");
    QTest::addColumn<double>("uni");
    QTest::addColumn<double>("bidir");
    using Make = std::function<HandFabric()>;
    QTest::addRow("TC-1 single crossbar, P=4") << Make([] { return crossbar(4); }) << 1.0 << 1.0;
    QTest::addRow("TC-2 dumbbell k=1") << Make([] { return dumbbell(1, 1, false); }) << 1.0 << 1.0;
    QTest::addRow("TC-2 dumbbell k=2") << Make([] { return dumbbell(2, 1, false); }) << 5.0 / 6 << 2.0 / 3;
    QTest::addRow("TC-2 dumbbell k=3") << Make([] { return dumbbell(3, 1, false); }) << 5.0 / 6 << 11.0 / 15;
    QTest::addRow("TC-2 dumbbell k=4") << Make([] { return dumbbell(4, 1, false); }) << 111.0 / 140 << 23.0 / 35;
    QTest::addRow("TC-3 two cables, balanced") << Make([] { return dumbbell(4, 2, true); }) << 32.0 / 35 << 29.0 / 35;
    QTest::addRow("TC-3 two cables, all over cable 1") << Make([] { return dumbbell(4, 2, false); }) << 111.0 / 140 << 23.0 / 35;
    QTest::addRow("TC-5 fat tree, all up via T0") << Make([] { return twoLevelTree(true); }) << 7.0 / 10 << 4.0 / 7;
    QTest::addRow("TC-5 fat tree, d-mod-k") << Make([] { return twoLevelTree(false); }) << 32.0 / 35 << 29.0 / 35;
    QTest::addRow("TC-6 network X', all transit via B") << Make([] { return networkXPrimeViaB(); }) << 11.0 / 15 << 3.0 / 5;
    QTest::addRow("TC-3 two cables, P-SSSP") << Make([] { return routedBy(dumbbell(4, 2, false), "sssp"); }) << 32.0 / 35 << 29.0 / 35;
    QTest::addRow("TC-5 fat tree, P-SSSP") << Make([] { return routedBy(twoLevelTree(true), "sssp"); }) << 32.0 / 35 << 29.0 / 35;
    QTest::addRow("TC-6 network X', P-SSSP") << Make([] { return routedBy(networkXPrimeViaB(), "sssp"); }) << 14.0 / 15 << 13.0 / 15;
    QTest::addRow("TC-6 network X', P2-SSSP") << Make([] { return routedBy(networkXPrimeViaB(), "sssp2"); }) << 14.0 / 15 << 13.0 / 15;
}

void TestEbb::exactBySpec()
{
    QFETCH(std::function<HandFabric()>, make);
    QFETCH(double, uni);
    QFETCH(double, bidir);
    const HandFabric f = make();
    const EffectiveBisection ebb = prepared(f);
    QCOMPARE_LE(std::abs(enumerate(ebb, BisectionVariant::OneWay) - uni), 1e-12);
    QCOMPARE_LE(std::abs(enumerate(ebb, BisectionVariant::TwoWay) - bidir), 1e-12);
}

void TestEbb::monteCarloContainsExact_data()
{
    QTest::addColumn<int>("k");
    QTest::addColumn<int>("cables");
    QTest::addColumn<bool>("balanced");
    QTest::addColumn<bool>("twoWay");
    QTest::addColumn<double>("exact");
    QTest::addRow("TC-3 balanced, uni") << 4 << 2 << true << false << 32.0 / 35;
    QTest::addRow("TC-3 balanced, bidir") << 4 << 2 << true << true << 29.0 / 35;
    QTest::addRow("TC-2 k=4, uni") << 4 << 1 << false << false << 111.0 / 140;
}

void TestEbb::monteCarloContainsExact()
{
    QFETCH(int, k);
    QFETCH(int, cables);
    QFETCH(bool, balanced);
    QFETCH(bool, twoWay);
    QFETCH(double, exact);
    const EffectiveBisection ebb = prepared(dumbbell(k, cables, balanced));
    EbbRun run;
    run.samples = 10000;
    run.seed = 12345;
    run.threads = 2;
    run.variant = twoWay ? BisectionVariant::TwoWay : BisectionVariant::OneWay;
    const Result<EbbResult> r = ebb.run(run);
    QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().toString()));
    QCOMPARE(r->samples, 10000);
    QVERIFY(r->ci99 > 0);
    QVERIFY2(std::abs(r->mean - exact) <= r->ci99, qPrintable(QStringLiteral("%1 ± %2 vs %3").arg(r->mean).arg(r->ci99).arg(exact)));
}

void TestEbb::tc9_statisticsAreConsistent()
{
    const EbbResult r = runOnTree(7, 2, 3000);
    const std::vector<double> &x = r.sampleValues;
    QCOMPARE(x.size(), std::size_t(3000));
    const double mean = std::accumulate(x.begin(), x.end(), 0.0) / double(x.size());
    double squares = 0;
    for (double v : x) {
        QVERIFY(v > 0 && v <= 1);  // §8.9: 0 < λ_k ≤ 1
        squares += (v - mean) * (v - mean);
    }
    const double s = std::sqrt(squares / double(x.size() - 1));
    QCOMPARE_LE(std::abs(r.mean - mean), 1e-12);
    QCOMPARE_LE(std::abs(r.stddev - s), 1e-12);
    QCOMPARE_LE(std::abs(r.ci99 - 2.576 * s / std::sqrt(3000.0)), 1e-12);
    QCOMPARE_LE(std::abs(r.ci95 - 1.96 * s / std::sqrt(3000.0)), 1e-12);
    QCOMPARE(r.min, *std::min_element(x.begin(), x.end()));
    QCOMPARE(r.max, *std::max_element(x.begin(), x.end()));
    QCOMPARE(x[std::size_t(r.worstSample)], r.min);
    QVERIFY(r.min <= r.p1 && r.p1 <= r.p5 && r.p5 <= r.p50 && r.p50 <= r.p95 && r.p95 <= r.p99 && r.p99 <= r.max);
    QCOMPARE(r.histogram.size(), std::size_t(20));
    QCOMPARE(std::accumulate(r.histogram.begin(), r.histogram.end(), 0), 3000);
    // §2.6.5: the pooled mean of 1/maxcong over all streams equals Λ in paper mode.
    double pooled = 0;
    std::uint64_t streams = 0;
    for (std::size_t c = 1; c < r.streamsByMaxCongestion.size(); ++c) {
        pooled += double(r.streamsByMaxCongestion[c]) / double(c);
        streams += r.streamsByMaxCongestion[c];
    }
    QCOMPARE(streams, std::uint64_t(3000) * 16);
    QCOMPARE_LE(std::abs(pooled / double(streams) - r.mean), 1e-9);
    // The worst sample replays: its pattern gives its λ again.
    Result<EffectiveBisection> e = EffectiveBisection::prepare(smallTree().fabric, smallTree().tables, Tenancy{});
    QVERIFY(e.ok());
    QCOMPARE(e->patternBandwidth(e->samplePattern(7, r.worstSample), BisectionVariant::OneWay), r.min);
}

void TestEbb::sameSeedSameResult_data()
{
    QTest::addColumn<int>("threadsA");
    QTest::addColumn<int>("threadsB");
    QTest::addColumn<bool>("twoWay");
    QTest::addRow("1 and 1 threads") << 1 << 1 << false;
    QTest::addRow("2 and 2 threads") << 2 << 2 << false;
    QTest::addRow("1 and 3 threads (thread-count independent)") << 1 << 3 << false;
    QTest::addRow("1 and 4 threads, bidir") << 1 << 4 << true;
}

void TestEbb::sameSeedSameResult()
{
    QFETCH(int, threadsA);
    QFETCH(int, threadsB);
    QFETCH(bool, twoWay);
    const BisectionVariant v = twoWay ? BisectionVariant::TwoWay : BisectionVariant::OneWay;
    const EbbResult a = runOnTree(99, threadsA, 1000, v);
    const EbbResult b = runOnTree(99, threadsB, 1000, v);
    QCOMPARE(a.threads, threadsA);
    QCOMPARE(b.threads, threadsB);
    QCOMPARE(a.sampleValues, b.sampleValues);
    QCOMPARE(a.mean, b.mean);
    QCOMPARE(a.stddev, b.stddev);
    QCOMPARE(a.channels.size(), b.channels.size());
    for (std::size_t i = 0; i < a.channels.size(); ++i) {
        QCOMPARE(a.channels[i].from, b.channels[i].from);
        QCOMPARE(a.channels[i].bottleneckStreams, b.channels[i].bottleneckStreams);
        QCOMPARE(a.channels[i].meanCongestion, b.channels[i].meanCongestion);
    }
}

void TestEbb::differentSeedDifferentSamples()
{
    const EbbResult a = runOnTree(1, 2, 500);
    const EbbResult b = runOnTree(2, 2, 500);
    QVERIFY(a.sampleValues != b.sampleValues);
    Result<EffectiveBisection> e = EffectiveBisection::prepare(smallTree().fabric, smallTree().tables, Tenancy{});
    QVERIFY(e.ok());
    QVERIFY(e->samplePattern(1, 0) != e->samplePattern(2, 0));
    QVERIFY(e->samplePattern(1, 0) != e->samplePattern(1, 1));
    // Each pattern is a permutation of all 32 participants.
    std::vector<int> sorted = e->samplePattern(1, 0);
    std::sort(sorted.begin(), sorted.end());
    std::vector<int> all(32);
    std::iota(all.begin(), all.end(), 0);
    QCOMPARE(sorted, all);
}

void TestEbb::cancellation_data()
{
    QTest::addColumn<bool>("atStart");
    QTest::addRow("refused before the first sample") << true;
    QTest::addRow("cancelled while running") << false;
}

void TestEbb::cancellation()
{
    QFETCH(bool, atStart);
    Result<EffectiveBisection> e = EffectiveBisection::prepare(smallTree().fabric, smallTree().tables, Tenancy{});
    QVERIFY(e.ok());
    EbbRun run;
    run.samples = 50'000'000;  // minutes of work if cancellation did not stop it
    run.threads = 2;
    int calls = 0;
    int lastDone = -1;
    run.progress = [&](int done, int total) {
        ++calls;
        lastDone = done;
        if (total != 50'000'000)
            return true;  // makes the run finish, and the test fail below
        return atStart ? false : done == 0;
    };
    QElapsedTimer clock;
    clock.start();
    const Result<EbbResult> r = e->run(run);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().message, QStringLiteral("cancelled"));
    QVERIFY(calls >= (atStart ? 1 : 2));
    if (!atStart)
        QVERIFY(lastDone > 0);
    QCOMPARE_LT(clock.elapsed(), 20000);
}

void TestEbb::partitionRestriction()
{
    // Unbalanced two-cable dumbbell; the partition holds a0, a1, b0, b1 as full members and b2 as
    // limited. Restricted to the four full members it is TC-2 with k = 2: 5/6 and 2/3.
    const HandFabric f = dumbbell(4, 2, false);
    Tenancy tenancy;
    std::vector<Guid> full;
    for (const char *name : {"a0", "a1", "b0", "b1"})
        full.push_back(f.portGuid(QLatin1String(name)));
    tenancy.partitions.push_back(test::partition(QStringLiteral("job"), 0x0102, full, IsolationPolicy::Default, {f.portGuid(QStringLiteral("b2"))}));
    tenancy.tenants.push_back({QStringLiteral("left"), {f.portGuid(QStringLiteral("a0")), f.portGuid(QStringLiteral("a2"))}});

    for (const QString &name : {QStringLiteral("job"), QStringLiteral("0x0102"), QStringLiteral("0x8102")}) {
        Result<std::vector<Guid>> members = groupMembers(f.fabric, tenancy, name);
        QVERIFY2(members.ok(), qPrintable(name));
        QCOMPARE(members->size(), std::size_t(4));
        EbbModel model;
        model.participants = *members;
        const EffectiveBisection ebb = prepared(f, model, tenancy);
        QCOMPARE(ebb.participantCount(), 4);
        QCOMPARE_LE(std::abs(enumerate(ebb, BisectionVariant::OneWay) - 5.0 / 6), 1e-12);
        QCOMPARE_LE(std::abs(enumerate(ebb, BisectionVariant::TwoWay) - 2.0 / 3), 1e-12);
    }
    // A tenant on one switch never crosses: every sample is 1.
    Result<std::vector<Guid>> left = groupMembers(f.fabric, tenancy, QStringLiteral("left"));
    QVERIFY(left.ok());
    EbbModel model;
    model.participants = *left;
    EbbRun run;
    run.samples = 200;
    const Result<EbbResult> r = prepared(f, model, tenancy).run(run);
    QVERIFY(r.ok());
    QCOMPARE(r->participants, 2);
    QCOMPARE(r->min, 1.0);
}

void TestEbb::unknownGroupIsNamed()
{
    const HandFabric f = dumbbell(2, 1, false);
    Tenancy tenancy;
    tenancy.partitions.push_back(test::partition(QStringLiteral("job"), 0x0102, {}));
    const Result<std::vector<Guid>> r = groupMembers(f.fabric, tenancy, QStringLiteral("jbo"));
    QVERIFY(!r.ok());
    QVERIFY2(r.error().message.contains(QStringLiteral("\"jbo\"")), qPrintable(r.error().message));
    QVERIFY2(r.error().message.contains(QStringLiteral("job")), qPrintable(r.error().message));
    EbbModel model;
    model.participants = {0xdead};
    const Result<EffectiveBisection> e = EffectiveBisection::prepare(f.fabric, f.tables, tenancy, model);
    QVERIFY(!e.ok());
    QVERIFY2(e.error().message.contains(QStringLiteral("0x000000000000dead")), qPrintable(e.error().message));
}

void TestEbb::mixedLinkRates_data()
{
    QTest::addColumn<int>("cableWidth");
    QTest::addColumn<bool>("linkRates");
    QTest::addColumn<double>("uni");
    // Dumbbell k = 2, hosts 4x QDR (40 Gb/s). Local pairs (probability 1/3) get 1. Crossing
    // pairs go the same way (1/2) or opposite ways (1/2).
    // 1x cable (10 Gb/s): alone 10/40 = 1/4, sharing 5/40 = 1/8:
    //   1/3 + 2/3 (1/2 · 1/8 + 1/2 · 1/4) = 11/24.
    QTest::addRow("1x inter-switch cable") << 1 << true << 11.0 / 24;
    // 12x cable (120 Gb/s): two streams get 60 each, more than their 40: never limited.
    QTest::addRow("12x inter-switch cable") << 12 << true << 1.0;
    // Rates ignored (the paper's model): TC-2 again.
    QTest::addRow("1x cable, uniform rates") << 1 << false << 5.0 / 6;
}

void TestEbb::mixedLinkRates()
{
    QFETCH(int, cableWidth);
    QFETCH(bool, linkRates);
    QFETCH(double, uni);
    EbbModel model;
    model.linkRates = linkRates;
    const EffectiveBisection ebb = prepared(dumbbell(2, 1, false, cableWidth), model);
    QCOMPARE_LE(std::abs(enumerate(ebb, BisectionVariant::OneWay) - uni), 1e-12);
}

void TestEbb::tc9_oddParticipantCount_data()
{
    QTest::addColumn<bool>("twoWay");
    QTest::addColumn<int>("streams");
    QTest::addRow("P=5, uni: 2 streams") << false << 2;
    QTest::addRow("P=5, bidir: 4 streams") << true << 4;
}

void TestEbb::tc9_oddParticipantCount()
{
    QFETCH(bool, twoWay);
    QFETCH(int, streams);
    const EffectiveBisection ebb = prepared(crossbar(5));
    EbbRun run;
    run.samples = 500;
    run.variant = twoWay ? BisectionVariant::TwoWay : BisectionVariant::OneWay;
    const Result<EbbResult> r = ebb.run(run);
    QVERIFY(r.ok());
    QCOMPARE(r->streamsPerSample, streams);
    QCOMPARE(r->mean, 1.0);
    QCOMPARE(r->min, 1.0);
    // Every participant is left out in some sample (the drop is drawn per sample).
    std::vector<int> leftOut(5, 0);
    for (int k = 0; k < 100; ++k) {
        const std::vector<int> pattern = ebb.samplePattern(3, k);
        QCOMPARE(pattern.size(), std::size_t(4));
        for (int i = 0; i < 5; ++i)
            if (std::find(pattern.begin(), pattern.end(), i) == pattern.end())
                ++leftOut[std::size_t(i)];
    }
    QCOMPARE(std::accumulate(leftOut.begin(), leftOut.end(), 0), 100);
    for (int n : leftOut)
        QVERIFY(n > 0);
}

// TC-9 (spec 002 §8.9): the draw of §2.6.3 on P = 8. (a) The first ten patterns of seed 5489
// are a golden vector frozen from this implementation (there is no external oracle) and each
// is a permutation of the eight participants; (b) over 8! · 10 samples every permutation turns
// up about equally often: χ² with 8! − 1 degrees of freedom stays below its 0.999 quantile.
void TestEbb::tc9_rngGoldenAndUniform()
{
    const EffectiveBisection ebb = prepared(crossbar(8));
    const std::vector<std::vector<int>> golden{{3, 6, 7, 0, 1, 4, 2, 5}, {1, 6, 5, 7, 4, 2, 3, 0}, {3, 0, 7, 5, 1, 4, 6, 2},
                                                {6, 7, 5, 1, 0, 3, 2, 4}, {5, 1, 0, 6, 4, 7, 3, 2}, {7, 1, 2, 6, 3, 4, 0, 5},
                                                {6, 4, 1, 3, 7, 2, 5, 0}, {3, 5, 4, 6, 7, 2, 1, 0}, {2, 3, 0, 1, 7, 6, 5, 4},
                                                {0, 3, 7, 4, 2, 6, 5, 1}};
    for (int k = 0; k < 10; ++k) {
        const std::vector<int> pattern = ebb.samplePattern(5489, k);
        std::vector<int> sorted = pattern;
        std::sort(sorted.begin(), sorted.end());
        std::vector<int> all(8);
        std::iota(all.begin(), all.end(), 0);
        QCOMPARE(sorted, all);
        QCOMPARE(pattern, golden[std::size_t(k)]);
    }

    constexpr int kCells = 40320;  // 8!
    constexpr int kSamples = kCells * 10;
    std::vector<int> seen(kCells, 0);
    for (int k = 0; k < kSamples; ++k) {
        const std::vector<int> pattern = ebb.samplePattern(5489, k);
        int rank = 0;  // Lehmer code
        for (std::size_t i = 0; i < pattern.size(); ++i) {
            int smaller = 0;
            for (std::size_t j = i + 1; j < pattern.size(); ++j)
                smaller += pattern[j] < pattern[i];
            rank = rank * int(pattern.size() - i) + smaller;
        }
        ++seen[std::size_t(rank)];
    }
    double chi2 = 0;
    for (int n : seen)
        chi2 += (n - 10.0) * (n - 10.0) / 10.0;
    // Wilson–Hilferty: the 0.999 quantile of χ²(ν) ≈ ν (1 − 2/(9ν) + z √(2/(9ν)))³, z = 3.0902.
    const double nu = kCells - 1;
    const double quantile = nu * std::pow(1 - 2 / (9 * nu) + 3.0902 * std::sqrt(2 / (9 * nu)), 3);
    QVERIFY2(chi2 < quantile, qPrintable(QStringLiteral("chi2 %1 >= %2").arg(chi2).arg(quantile)));
}

// TC-7 (spec 002 §8.7): the ring of Fig. 1. Switches A, B, C, D in a ring (port 2 clockwise to
// the next switch's port 3), endpoint 0@A, 1@B, 3@C, 2@D on port 1, and only the three
// routes (2,D,C,B,A,0), (0,A,D,C,3), (1,B,A,D,2). Their channel dependencies close exactly one
// cycle (D→C)→(C→B)→(B→A)→(A→D); dropping any one route leaves the graph acyclic.
void TestEbb::tc7_creditLoopOfFigure1_data()
{
    QTest::addColumn<int>("dropped");  // -1: all three routes
    QTest::addRow("routes 1-3: one credit loop") << -1;
    QTest::addRow("without (2,D,C,B,A,0)") << 0;
    QTest::addRow("without (0,A,D,C,3)") << 1;
    QTest::addRow("without (1,B,A,D,2)") << 2;
}

void TestEbb::tc7_creditLoopOfFigure1()
{
    QFETCH(int, dropped);
    HandFabric f;
    const QStringList ring{QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("C"), QStringLiteral("D")};
    const std::map<QString, QString> hostOn{{QStringLiteral("0"), QStringLiteral("A")}, {QStringLiteral("1"), QStringLiteral("B")},
                                            {QStringLiteral("2"), QStringLiteral("D")}, {QStringLiteral("3"), QStringLiteral("C")}};
    for (const QString &sw : ring)
        f.addSwitch(sw, 3);
    for (const auto &[h, sw] : hostOn) {
        f.addHost(h);
        f.cable(sw, 1, h, 1);
    }
    for (int i = 0; i < 4; ++i)
        f.cable(ring[i], 2, ring[(i + 1) % 4], 3);
    // Counter-clockwise hops (port 3) of each route, by destination; the route's first switch
    // holds the entry that only that route uses.
    const std::map<QString, QStringList> hops{{QStringLiteral("0"), {QStringLiteral("D"), QStringLiteral("C"), QStringLiteral("B")}},
                                              {QStringLiteral("3"), {QStringLiteral("A"), QStringLiteral("D")}},
                                              {QStringLiteral("2"), {QStringLiteral("B"), QStringLiteral("A")}}};
    const QStringList order{QStringLiteral("0"), QStringLiteral("3"), QStringLiteral("2")};
    f.build([&](const QString &sw, const QString &h) {
        if (hostOn.at(h) == sw)
            return 1;
        const auto it = hops.find(h);
        if (it == hops.end() || !it->second.contains(sw))
            return 0;
        if (dropped >= 0 && order[dropped] == h && it->second.first() == sw)
            return 0;
        return 3;
    });
    const ValidationResult v = validateRouting(f.fabric, Tenancy{}, f.tables);
    if (dropped >= 0) {
        QVERIFY2(v.creditLoop.isEmpty(), qPrintable(v.creditLoop.join(QStringLiteral(", "))));
        QVERIFY(v.deadlockFree);
        QCOMPARE(v.dependencies, std::uint64_t(3));
        return;
    }
    QVERIFY(!v.deadlockFree);
    QCOMPARE(v.dependencies, std::uint64_t(4));  // exactly the four CDG edges of the spec
    QStringList cycle = v.creditLoop;
    QCOMPARE(cycle.size(), 4);
    // The reported cycle may start anywhere; rotated to D→C it is the spec's order.
    const QString dc = QStringLiteral("D[3] -> C[2] (VL0)");
    QVERIFY2(cycle.contains(dc), qPrintable(cycle.join(QStringLiteral(", "))));
    while (cycle.first() != dc)
        cycle.append(cycle.takeFirst());
    QCOMPARE(cycle, QStringList({dc, QStringLiteral("C[3] -> B[2] (VL0)"), QStringLiteral("B[3] -> A[2] (VL0)"),
                                 QStringLiteral("A[3] -> D[2] (VL0)")}));
}

void TestEbb::undeliveredPairIsAnError()
{
    HandFabric f;
    f.addSwitch(QStringLiteral("A"), 3);
    f.addSwitch(QStringLiteral("B"), 3);
    for (const char *h : {"a0", "a1"})
        f.addHost(QLatin1String(h));
    f.addHost(QStringLiteral("b0"));
    f.cable(QStringLiteral("A"), 1, QStringLiteral("a0"), 1);
    f.cable(QStringLiteral("A"), 2, QStringLiteral("a1"), 1);
    f.cable(QStringLiteral("B"), 1, QStringLiteral("b0"), 1);
    f.cable(QStringLiteral("A"), 3, QStringLiteral("B"), 3);
    // B has no entry for a1.
    f.build([](const QString &sw, const QString &h) {
        if (sw == QLatin1String("A"))
            return h == QLatin1String("b0") ? 3 : h.mid(1).toInt() + 1;
        return h == QLatin1String("b0") ? 1 : (h == QLatin1String("a0") ? 3 : 0);
    });
    const Result<EffectiveBisection> e = EffectiveBisection::prepare(f.fabric, f.tables, Tenancy{});
    QVERIFY(!e.ok());
    QVERIFY2(e.error().message.contains(QStringLiteral("b0")) && e.error().message.contains(QStringLiteral("a1")),
             qPrintable(e.error().message));
    // The place: source and destination by description, port GUID and LID, and the switch
    // (description and GUID) where the route stops, under the message's usual opening.
    const auto lidOf = [&](const char *h) { return f.fabric.port(f.fabric.portByGuid(f.portGuid(QLatin1String(h)))).lid; };
    NodeIndex b = kNoIndex;
    for (NodeIndex n : f.fabric.switches())
        if (f.fabric.node(n).name == QLatin1String("B"))
            b = n;
    QVERIFY(b != kNoIndex);
    const QString expected = QStringLiteral("the forwarding tables do not deliver from b0[1] (port GUID %1, LID %2) to a1[1] (port GUID %3, LID %4): "
                                            "the route stops at switch B (GUID %5): B has no route to LID %4")
                                 .arg(guidText(f.portGuid(QStringLiteral("b0"))))
                                 .arg(lidOf("b0"))
                                 .arg(guidText(f.portGuid(QStringLiteral("a1"))))
                                 .arg(lidOf("a1"))
                                 .arg(guidText(f.fabric.node(b).guid));
    QVERIFY2(e.error().message.contains(expected), qPrintable(e.error().message + QStringLiteral("\nexpected: ") + expected));
}

void TestEbb::bottlenecksOnTheSharedCable()
{
    // TC-2 k=4: the only channels two streams can share are the two directions of the cable.
    const HandFabric f = dumbbell(4, 1, false);
    EbbRun run;
    run.samples = 2000;
    const Result<EbbResult> r = prepared(f).run(run);
    QVERIFY(r.ok());
    QVERIFY(r->channels.size() >= 2);
    const NodeIndex a = f.fabric.nodeByName(QStringLiteral("A"));
    const NodeIndex b = f.fabric.nodeByName(QStringLiteral("B"));
    const std::vector<PortIndex> cable = {f.fabric.portOf(a, 5), f.fabric.portOf(b, 5)};
    for (std::size_t i = 0; i < r->channels.size(); ++i) {
        const bool onCable = std::find(cable.begin(), cable.end(), r->channels[i].from) != cable.end();
        QCOMPARE(i < 2, onCable);
        QCOMPARE(r->channels[i].bottleneckStreams > 0, onCable);
        if (!onCable) {
            QCOMPARE_LE(r->channels[i].meanCongestion, 1.0);
            QCOMPARE(r->channels[i].sharedFraction, 0.0);
        }
    }
}

// The generated trees of the last two tests, routed by `engine`, and the GUIDs of their first
// `participants` end ports (all when 0).
struct RoutedTree
{
    Fabric fabric;
    ForwardingTables tables;
    std::vector<Guid> participants;
};

RoutedTree routedTree(int radix, int levels, int removeLinks, const char *engine, int participants)
{
    const GeneratedFabric g = test::generate({FabricShapeKind::SwitchRadix, radix, levels, removeLinks}, 5);
    Result<Routing> r = routeFabric(QLatin1String(engine), g.fabric, Tenancy{});
    if (!r)
        qFatal("route: %s", qPrintable(r.error().toString()));
    RoutedTree tree{g.fabric, r->tables, {}};
    if (participants > 0) {
        const Result<EffectiveBisection> all = EffectiveBisection::prepare(tree.fabric, tree.tables, Tenancy{});
        if (!all)
            qFatal("prepare: %s", qPrintable(all.error().toString()));
        // Every third end port from the last, round and round (3 is prime to the host counts
        // of these trees): no prefix of the GUID order.
        const int count = all->participantCount();
        for (int k = 0; k < participants; ++k)
            tree.participants.push_back(tree.fabric.port(all->participantPort(((count - 1 - 3 * k) % count + count) % count)).guid);
    }
    return tree;
}

void TestEbb::patternsFollowTheSpecDraw_data()
{
    QTest::addColumn<int>("participants");
    // 2-level radix-16 tree: 128 hosts; 3-level radix-16: 1024 hosts (the draws of a sample
    // take the generator's 624-word blocks twice).
    QTest::addColumn<int>("radix");
    QTest::addColumn<int>("levels");
    QTest::addRow("2 of 128") << 2 << 16 << 2;
    QTest::addRow("3 of 128") << 3 << 16 << 2;
    QTest::addRow("127 of 128") << 127 << 16 << 2;
    QTest::addRow("all 128") << 0 << 16 << 2;
    QTest::addRow("all 1024") << 0 << 16 << 3;
    QTest::addRow("1023 of 1024") << 1023 << 16 << 3;
}

void TestEbb::patternsFollowTheSpecDraw()
{
    // Spec 002 §2.6.3 written out with the standard library's mt19937: sample k seeded with the
    // low 32 bits of splitmix64(seed ^ k); an odd count first drops uniform(0..n-1); then
    // Fisher–Yates from the top with uniform(0..i) by rejection below 2^32 - (2^32 mod (i+1)).
    QFETCH(int, participants);
    QFETCH(int, radix);
    QFETCH(int, levels);
    const RoutedTree tree = routedTree(radix, levels, 0, "ftree", participants);
    EbbModel model;
    model.participants = tree.participants;
    const Result<EffectiveBisection> e = EffectiveBisection::prepare(tree.fabric, tree.tables, Tenancy{}, model);
    QVERIFY(e.ok());
    const int n = e->participantCount();
    QCOMPARE(n, participants > 0 ? participants : (radix == 16 && levels == 2 ? 128 : 1024));
    auto splitmix64 = [](std::uint64_t x) {
        x += 0x9e3779b97f4a7c15ULL;
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
        return x ^ (x >> 31);
    };
    for (std::uint64_t seed : {std::uint64_t(1), std::uint64_t(0xdeadbeefcafeULL)}) {
        for (int k : {0, 1, 2, 999, 123456}) {
            std::mt19937 mt(std::uint32_t(splitmix64(seed ^ std::uint64_t(k))));
            auto uniform = [&](std::uint64_t bound) {
                const std::uint64_t limit = (std::uint64_t(1) << 32) - ((std::uint64_t(1) << 32) % bound);
                for (;;) {
                    const std::uint64_t r = mt();
                    if (r < limit)
                        return int(r % bound);
                }
            };
            std::vector<int> expected(static_cast<std::size_t>(n));
            std::iota(expected.begin(), expected.end(), 0);
            if (n % 2 == 1)
                expected.erase(expected.begin() + uniform(std::uint64_t(n)));
            for (std::size_t i = expected.size() - 1; i > 0; --i)
                std::swap(expected[i], expected[std::size_t(uniform(i + 1))]);
            QCOMPARE(e->samplePattern(seed, k), expected);
        }
    }
}

void TestEbb::figuresMatchAPlainCount_data()
{
    QTest::addColumn<std::function<RoutedTree()>>("make");
    QTest::addColumn<int>("participants");
    QTest::addColumn<bool>("twoWay");
    const auto tree = [](int radix, int levels, int removeLinks, const char *engine, int participants) {
        return std::function<RoutedTree()>([=] { return routedTree(radix, levels, removeLinks, engine, participants); });
    };
    const auto hand = [](HandFabric (*make)(int), int size) {
        return std::function<RoutedTree()>([=] {
            const HandFabric f = make(size);
            return RoutedTree{f.fabric, f.tables, {}};
        });
    };
    for (bool twoWay : {false, true}) {
        const char *mode = twoWay ? ", bidir" : ", uni";
        QTest::addRow("radix 8, 2 levels, ftree%s", mode) << tree(8, 2, 0, "ftree", 0) << 0 << twoWay;
        QTest::addRow("radix 8, 3 levels, 6 links gone, minhop%s", mode) << tree(8, 3, 6, "minhop", 0) << 0 << twoWay;
        QTest::addRow("radix 8, 3 levels, updn, 37 of 128%s", mode) << tree(8, 3, 0, "updn", 37) << 37 << twoWay;
        QTest::addRow("radix 8, 3 levels, ftree, 5 of 128%s", mode) << tree(8, 3, 0, "ftree", 5) << 5 << twoWay;
        QTest::addRow("one switch, 7 hosts%s", mode) << hand(crossbar, 7) << 0 << twoWay;
    }
}

void TestEbb::figuresMatchAPlainCount()
{
    // §2.6.2 as written: every stream walked through the tables, τ per directed channel,
    // endpoint channels included, each stream limited by its worst channel. Every figure of a
    // run must be what this plain count finds for the same patterns, to the last bit.
    QFETCH(std::function<RoutedTree()>, make);
    QFETCH(int, participants);
    QFETCH(bool, twoWay);
    const RoutedTree tree = make();
    EbbModel model;
    model.participants = tree.participants;
    const Result<EffectiveBisection> e = EffectiveBisection::prepare(tree.fabric, tree.tables, Tenancy{}, model);
    QVERIFY(e.ok());
    if (participants > 0)
        QCOMPARE(e->participantCount(), participants);
    EbbRun run;
    run.samples = 300;
    run.seed = 11;
    run.threads = 2;
    run.variant = twoWay ? BisectionVariant::TwoWay : BisectionVariant::OneWay;
    const Result<EbbResult> r = e->run(run);
    QVERIFY(r.ok());

    const TablesByNode tablesOf(tree.fabric, tree.tables);
    const std::size_t ports = tree.fabric.ports().size();
    std::vector<double> tauSum(ports, 0);
    std::vector<std::uint64_t> shared(ports, 0), bottleneck(ports, 0), byMost;
    std::vector<double> values;
    for (int k = 0; k < run.samples; ++k) {
        const std::vector<int> pattern = e->samplePattern(run.seed, k);
        const std::size_t half = pattern.size() / 2;
        std::vector<std::vector<PortIndex>> paths;
        for (std::size_t s = 0; s < (twoWay ? 2 * half : half); ++s) {
            const int source = pattern[s], destination = s < half ? pattern[s + half] : pattern[s - half];
            const PortIndex target = e->participantPort(destination);
            std::vector<PortIndex> path;
            walkRouteFromPort(tree.fabric, tablesOf, e->participantPort(source), tree.fabric.port(target).lid, [&](const RouteHop &hop) {
                path.push_back(hop.out);
                return hop.remote != target;
            });
            QCOMPARE(tree.fabric.port(path.back()).remote, target);
            paths.push_back(std::move(path));
        }
        std::map<PortIndex, std::uint32_t> tau;
        for (const std::vector<PortIndex> &path : paths)
            for (PortIndex c : path)
                ++tau[c];
        double sum = 0;
        for (const std::vector<PortIndex> &path : paths) {
            std::uint32_t most = 0;
            for (PortIndex c : path)
                most = std::max(most, tau[c]);
            sum += 1.0 / double(most);
            if (byMost.size() <= most)
                byMost.resize(most + 1, 0);
            ++byMost[most];
            for (PortIndex c : path)
                if (most > 1 && tau[c] == most)
                    ++bottleneck[std::size_t(c)];
        }
        for (const auto &[c, t] : tau) {
            tauSum[std::size_t(c)] += t;
            shared[std::size_t(c)] += t >= 2 ? 1 : 0;
        }
        values.push_back(sum / double(paths.size()));
    }
    QCOMPARE(r->sampleValues, values);
    QCOMPARE(r->streamsByMaxCongestion, byMost);
    std::size_t used = 0;
    for (std::size_t c = 0; c < ports; ++c)
        used += tauSum[c] > 0 ? 1 : 0;
    QCOMPARE(r->channels.size(), used);
    for (const EbbChannel &channel : r->channels) {
        const std::size_t c = std::size_t(channel.from);
        QCOMPARE(channel.meanCongestion, tauSum[c] / double(run.samples));
        QCOMPARE(channel.sharedFraction, double(shared[c]) / double(run.samples));
        QCOMPARE(channel.bottleneckStreams, bottleneck[c]);
    }
}

QTEST_GUILESS_MAIN(TestEbb)
#include "tst_ebb.moc"
