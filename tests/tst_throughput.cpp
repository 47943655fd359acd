// The fluid max-min throughput model (core/analysis/FluidThroughput): hand-computed rates on
// small networks, capacity conserved and every flow held by a full cable on which no flow gets
// more (the max-min condition) on generated fat-trees, and `weft metrics --throughput`.

#include "FluidThroughput.h"
#include "GeneratedFabrics.h"
#include "RoutingEngine.h"
#include "RoutingEvaluation.h"
#include "TinyFabric.h"
#include "WeftRunner.h"

#include "LftDump.h"
#include "SafeFile.h"
#include "TopologyFile.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace weft;
using namespace weft::test;

namespace {

constexpr double kGB = 1e9;  // 4x QDR carries 4 GB/s of data; 1x QDR 1 GB/s

PortIndex hostPort(const Fabric &fabric, const TinyFabric &t, const QString &host)
{
    return fabric.portByGuid(t.portGuid(host));
}

bool near(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b)); }

// Capacity holds on every directed cable; every flow whose route arrives (by this test's walk,
// not the model's count) gets a rate above 0, none starved; and every one of them has a full
// bottleneck on which no flow has a larger rate per unit of weight.
void checkMaxMin(const Fabric &fabric, const ForwardingTables &tables, const std::vector<FluidFlow> &flows, const FluidThroughput &r)
{
    for (std::size_t p = 0; p < fabric.ports().size(); ++p)
        QVERIFY2(r.linkRate[p] <= r.linkCapacity[p] * (1 + 1e-9), qPrintable(portDisplayName(fabric, PortIndex(p))));
    // Per bottleneck cable: the largest rate per weight among the flows crossing it.
    std::vector<double> best(fabric.ports().size(), 0);
    TablesByNode byNode(fabric, tables);
    std::vector<std::vector<PortIndex>> paths(flows.size());
    std::uint64_t delivered = 0;
    for (std::size_t f = 0; f < flows.size(); ++f) {
        paths[f].push_back(flows[f].source);
        const Lid lid = fabric.port(flows[f].destination).lid;
        NodeIndex last = kNoIndex;
        const RouteEnd end = walkRouteFromPort(fabric, byNode, flows[f].source, lid, [&](const RouteHop &hop) {
            if (hop.from != fabric.port(flows[f].source).node)
                paths[f].push_back(hop.out);
            last = hop.next;
            return true;
        });
        const bool arrives = end == RouteEnd::AtEndNode && last == fabric.port(flows[f].destination).node;
        if (!arrives) {
            QVERIFY2(r.rates[f] == 0, qPrintable(QStringLiteral("flow %1 does not arrive but is rated %2").arg(f).arg(r.rates[f])));
            continue;
        }
        ++delivered;
        QVERIFY2(r.rates[f] > 0, qPrintable(QStringLiteral("flow %1 arrives but is starved (rate 0)").arg(f)));
        for (PortIndex p : paths[f])
            best[std::size_t(p)] = std::max(best[std::size_t(p)], r.rates[f] / flows[f].weight);
    }
    QCOMPARE(delivered + r.undelivered, std::uint64_t(flows.size()));
    for (std::size_t f = 0; f < flows.size(); ++f) {
        if (r.rates[f] <= 0)
            continue;
        const PortIndex b = r.bottleneckOf[f];
        QVERIFY(std::find(paths[f].begin(), paths[f].end(), b) != paths[f].end());
        QVERIFY2(r.linkRate[std::size_t(b)] >= r.linkCapacity[std::size_t(b)] * (1 - 1e-9), "the bottleneck is not full");
        QVERIFY2(r.rates[f] / flows[f].weight >= best[std::size_t(b)] * (1 - 1e-9), "a flow on the bottleneck gets more");
    }
}

}  // namespace

class TestThroughput : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // a1, a2 on S1; b1, b2 on S2; one 1x cable between the switches.
    void dumbbell()
    {
        TinyFabric t;
        t.setLinkRate(LinkRate{});
        t.addSwitch(QStringLiteral("S1"), 3);
        t.addSwitch(QStringLiteral("S2"), 3);
        for (const char *h : {"a1", "a2", "b1", "b2"})
            t.addHost(QLatin1String(h));
        t.cable(QStringLiteral("S1"), 1, QStringLiteral("a1"), 1);
        t.cable(QStringLiteral("S1"), 2, QStringLiteral("a2"), 1);
        t.cable(QStringLiteral("S2"), 1, QStringLiteral("b1"), 1);
        t.cable(QStringLiteral("S2"), 2, QStringLiteral("b2"), 1);
        t.cable(QStringLiteral("S1"), 3, QStringLiteral("S2"), 3, LinkRate{1, LinkSpeed::QDR});
        const ForwardingTables tables = t.tablesByRule([](const QString &sw, const QString &host) {
            const bool local = sw.endsWith(QLatin1Char('1')) == host.startsWith(QLatin1Char('a'));
            return local ? host.right(1).toInt() : 3;
        });
        const Fabric fabric = t.build();
        auto port = [&](const char *h) { return hostPort(fabric, t, QLatin1String(h)); };
        std::vector<FluidFlow> flows{{port("a1"), port("b1"), 1}, {port("a2"), port("b2"), 1}, {port("a1"), port("a2"), 1}};
        Result<FluidThroughput> r = fluidThroughput(fabric, tables, flows);
        QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().toString()));
        QVERIFY(near(r->rates[0], 0.5 * kGB));
        QVERIFY(near(r->rates[1], 0.5 * kGB));
        QVERIFY(near(r->rates[2], 3.5 * kGB));  // a1's own cable less what a1 -> b1 takes
        QVERIFY(near(r->totalBytesPerSecond, 4.5 * kGB));
        QCOMPARE(r->undelivered, std::uint64_t(0));
        QVERIFY(near(r->normalized, 4.5 / 8));  // two senders of 4 GB/s
        QCOMPARE(r->bottleneckLinks.front().flows, std::uint64_t(2));
        QCOMPARE(r->bottleneckLinks.front().from, fabric.portOf(fabric.nodeByName(QStringLiteral("S1")), 3));
        checkMaxMin(fabric, tables, flows, *r);

        // Weights share the cable in proportion: 1 : 3.
        flows = {{port("a1"), port("b1"), 1}, {port("a2"), port("b2"), 3}};
        r = fluidThroughput(fabric, tables, flows);
        QVERIFY(r.ok());
        QVERIFY(near(r->rates[0], 0.25 * kGB));
        QVERIFY(near(r->rates[1], 0.75 * kGB));
        checkMaxMin(fabric, tables, flows, *r);
    }

    // S1 - S2 - S3 in a line, 1x then 2x: the first cable holds two flows at 0.5, the second
    // gives its remaining 1.5 to the flow that only crosses it.
    void twoBottleneckChain()
    {
        TinyFabric t;
        t.setLinkRate(LinkRate{});
        for (const char *s : {"S1", "S2", "S3"})
            t.addSwitch(QLatin1String(s), 4);
        for (const char *h : {"h1", "h1b", "h2", "h2b", "h3", "h3b"})
            t.addHost(QLatin1String(h));
        t.cable(QStringLiteral("S1"), 1, QStringLiteral("h1"), 1);
        t.cable(QStringLiteral("S1"), 2, QStringLiteral("h1b"), 1);
        t.cable(QStringLiteral("S2"), 1, QStringLiteral("h2"), 1);
        t.cable(QStringLiteral("S2"), 2, QStringLiteral("h2b"), 1);
        t.cable(QStringLiteral("S3"), 1, QStringLiteral("h3"), 1);
        t.cable(QStringLiteral("S3"), 2, QStringLiteral("h3b"), 1);
        t.cable(QStringLiteral("S1"), 3, QStringLiteral("S2"), 3, LinkRate{1, LinkSpeed::QDR});
        t.cable(QStringLiteral("S2"), 4, QStringLiteral("S3"), 3, LinkRate{2, LinkSpeed::QDR});
        const std::map<QString, int> level{{QStringLiteral("S1"), 1}, {QStringLiteral("S2"), 2}, {QStringLiteral("S3"), 3}};
        const ForwardingTables tables = t.tablesByRule([&](const QString &sw, const QString &host) {
            const int at = level.at(sw), to = host.mid(1, 1).toInt();
            if (at == to)
                return host.endsWith(QLatin1Char('b')) ? 2 : 1;
            if (at == 2)
                return to < at ? 3 : 4;
            return 3;
        });
        const Fabric fabric = t.build();
        auto port = [&](const char *h) { return hostPort(fabric, t, QLatin1String(h)); };
        const std::vector<FluidFlow> flows{{port("h1"), port("h3"), 1}, {port("h1b"), port("h2"), 1}, {port("h2b"), port("h3b"), 1}};
        Result<FluidThroughput> r = fluidThroughput(fabric, tables, flows);
        QVERIFY(r.ok());
        QVERIFY(near(r->rates[0], 0.5 * kGB));
        QVERIFY(near(r->rates[1], 0.5 * kGB));
        QVERIFY(near(r->rates[2], 1.5 * kGB));
        QVERIFY(near(r->minFlowBytesPerSecond, 0.5 * kGB));
        QVERIFY(near(r->totalBytesPerSecond, 2.5 * kGB));
        checkMaxMin(fabric, tables, flows, *r);
    }

    void undeliveredAndBadFlows()
    {
        TinyFabric t = TinyFabric::oneSwitch(QStringLiteral("S"), 3, {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")});
        t.setLinkRate(LinkRate{});
        const ForwardingTables tables = t.tablesByRule([](const QString &, const QString &host) { return host == QLatin1String("c") ? 0 : host == QLatin1String("a") ? 1 : 2; });
        const Fabric fabric = t.build();
        auto port = [&](const char *h) { return hostPort(fabric, t, QLatin1String(h)); };
        Result<FluidThroughput> r = fluidThroughput(fabric, tables, {{port("a"), port("b"), 1}, {port("a"), port("c"), 1}});
        QVERIFY(r.ok());
        QCOMPARE(r->undelivered, std::uint64_t(1));
        QCOMPARE(r->rates[1], 0.0);
        QVERIFY(r->rates[0] > 0);
        QVERIFY(!r->warnings.isEmpty());  // oneSwitch cables carry no rate: assumed, and said so
        const PortIndex switchPort = fabric.portOf(fabric.nodeByName(QStringLiteral("S")), 1);
        QVERIFY(!fluidThroughput(fabric, tables, {{switchPort, port("b"), 1}}).ok());
        QVERIFY(!fluidThroughput(fabric, tables, {{port("a"), port("a"), 1}}).ok());
        QVERIFY(!fluidThroughput(fabric, tables, {{port("a"), port("b"), 0}}).ok());
    }

    void maxMinOnFatTrees_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QString>("traffic");
        QTest::addColumn<int>("removeLinks");
        QTest::addRow("ftree all-to-all") << QStringLiteral("ftree") << QStringLiteral("all-to-all") << 0;
        QTest::addRow("minhop uniform-random") << QStringLiteral("minhop") << QStringLiteral("uniform-random") << 0;
        QTest::addRow("updn bisection, degraded") << QStringLiteral("updn") << QStringLiteral("bisection") << 3;
        QTest::addRow("minhop all-to-all, degraded") << QStringLiteral("minhop") << QStringLiteral("all-to-all") << 2;
    }

    void maxMinOnFatTrees()
    {
        QFETCH(QString, engine);
        QFETCH(QString, traffic);
        QFETCH(int, removeLinks);
        const GeneratedFabric g = generate({FabricShapeKind::SwitchRadix, 8, 3, removeLinks}, 7);
        Result<Routing> routing = routeFabric(engine, g.fabric, Tenancy{});
        QVERIFY2(routing.ok(), qPrintable(routing ? QString() : routing.error().toString()));
        const std::optional<TrafficModel> model = parseTrafficModel(traffic);
        QVERIFY(model);
        const std::vector<FluidFlow> flows = modelFlows(g.fabric, Tenancy{}, *model);
        QVERIFY(!flows.empty());
        Result<FluidThroughput> r = fluidThroughput(g.fabric, routing->tables, flows);
        QVERIFY(r.ok());
        QCOMPARE(r->undelivered, std::uint64_t(0));
        QVERIFY(r->normalized > 0 && r->normalized <= 1);
        checkMaxMin(g.fabric, routing->tables, flows, *r);
    }

    // Flows follow the partitions: partition-all-to-all only between ports that may talk.
    void modelFlowsFollowPartitions()
    {
        const GeneratedFabric g = generate({FabricShapeKind::SwitchRadix, 4, 2});
        const std::size_t n = g.fabric.channelAdapterCount();
        TrafficModel all;
        all.pattern = TrafficPattern::AllToAll;
        QCOMPARE(modelFlows(g.fabric, Tenancy{}, all).size(), n * (n - 1));
        Tenancy tenancy;
        Partition a, b;
        a.name = QStringLiteral("a");
        a.pkey = 0x10;
        b.name = QStringLiteral("b");
        b.pkey = 0x20;
        std::size_t i = 0;
        for (NodeIndex node : g.fabric.endNodes()) {
            PartitionMember m;
            m.guid = g.fabric.port(g.fabric.node(node).firstPort + 1).guid;
            m.membership = Membership::Full;
            (i++ % 2 ? a : b).members.push_back(m);
        }
        tenancy.partitions = {a, b};
        TrafficModel within;  // partition-all-to-all
        const std::size_t half = n / 2;
        QCOMPARE(modelFlows(g.fabric, tenancy, within).size(), 2 * half * (half - 1));
    }

    // The evaluation behind the preview and the studio rates flows when asked, and says why not
    // when the model has too many.
    void evaluationRatesThroughput()
    {
        const GeneratedFabric g = generate({FabricShapeKind::SwitchRadix, 8, 2});
        Result<Routing> routing = routeFabric(QStringLiteral("ftree"), g.fabric, Tenancy{});
        QVERIFY(routing.ok());
        EvaluationOptions options;
        options.throughput = true;
        Result<RoutingEvaluation> rated = evaluateRouting(g.fabric, Tenancy{}, routing->tables, options);
        QVERIFY(rated.ok() && rated->throughput);
        Result<FluidThroughput> direct = fluidThroughput(g.fabric, routing->tables, modelFlows(g.fabric, Tenancy{}, options.model));
        QVERIFY(direct.ok());
        QVERIFY(near(rated->throughput->totalBytesPerSecond, direct->totalBytesPerSecond));
        QCOMPARE(rated->throughput->flows, rated->metrics->modelFlows);
        options.throughputMaxFlows = 10;
        rated = evaluateRouting(g.fabric, Tenancy{}, routing->tables, options);
        QVERIFY(rated.ok() && !rated->throughput);
        QVERIFY(rated->warnings.join(QLatin1Char(' ')).contains(QStringLiteral("No fluid throughput")));
    }

    void metricsCommand()
    {
        QTemporaryDir dir;
        const GeneratedFabric g = generate({FabricShapeKind::SwitchRadix, 8, 2});
        Result<Routing> routing = routeFabric(QStringLiteral("ftree"), g.fabric, Tenancy{});
        QVERIFY(routing.ok());
        const QString topo = dir.filePath(QStringLiteral("t.topo")), lfts = dir.filePath(QStringLiteral("t.lfts"));
        QVERIFY(writeFileAtomically(topo, writeIbnetdiscover(g.fabric)).ok());
        QVERIFY(writeLftDumpFile(lfts, routing->tables, &g.fabric, LftDumpForm::Compact).ok());
        const Run run = runWeft({QStringLiteral("metrics"), QStringLiteral("--json"), QStringLiteral("--throughput"), QStringLiteral("--traffic"),
                                 QStringLiteral("shift:3"), QStringLiteral("--topology"), topo, QStringLiteral("--lfts"), lfts});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject t = QJsonDocument::fromJson(run.out).object().value(QStringLiteral("throughput")).toObject();
        for (const char *key : {"flows", "total_bytes_per_s", "normalized", "min_flow_bytes_per_s", "bottleneck_links"})
            QVERIFY2(t.contains(QLatin1String(key)), key);
        TrafficModel shift;
        shift.pattern = TrafficPattern::Shift;
        shift.shift = 3;
        const std::vector<FluidFlow> flows = modelFlows(g.fabric, Tenancy{}, shift);
        Result<FluidThroughput> r = fluidThroughput(g.fabric, routing->tables, flows);
        QVERIFY(r.ok());
        QCOMPARE(t.value(QStringLiteral("flows")).toDouble(), double(flows.size()));
        QVERIFY(near(t.value(QStringLiteral("total_bytes_per_s")).toDouble(), r->totalBytesPerSecond));
        QVERIFY(near(t.value(QStringLiteral("normalized")).toDouble(), r->normalized));
        QVERIFY(near(t.value(QStringLiteral("min_flow_bytes_per_s")).toDouble(), r->minFlowBytesPerSecond));
    }
};

QTEST_GUILESS_MAIN(TestThroughput)
#include "tst_throughput.moc"
