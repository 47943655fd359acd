// Issue 4's acceptance: on the degraded fat-trees of the invariant suite, globally balanced
// P-SSSP never gives a lower effective bisection bandwidth than minhop. Both are measured on
// the same seeded bisection patterns, so the comparison is free of sampling noise between them.

#include "EffectiveBisection.h"
#include "FabricGenerator.h"
#include "Metrics.h"
#include "RouteWalk.h"
#include "RoutingEngine.h"
#include "SsspEngine.h"

#include "TinyFabric.h"

#include <QtTest>

#include <map>

using namespace weft;

namespace {

// Spec 002 §8.4 (TC-4), the paper's network X: crossbars A..E, endpoints 0@A, 1@E, 2@C on
// port 5, a K_{2,3} core B–A, B–C, B–E, D–A, D–C, D–E. TinyFabric numbers GUIDs and LIDs in
// order of creation, so node index, GUID and LID orders agree (the pinned tie-breaks rely on it).
Fabric networkX()
{
    test::TinyFabric t;
    for (const char *sw : {"A", "B", "C", "D", "E"})
        t.addSwitch(QLatin1String(sw), 8);
    const std::pair<const char *, const char *> hosts[] = {{"0", "A"}, {"1", "E"}, {"2", "C"}};
    for (const auto &[h, sw] : hosts) {
        t.addHost(QLatin1String(h));
        t.cable(QLatin1String(h), 1, QLatin1String(sw), 5);
    }
    int port = 1;
    for (const char *outer : {"A", "C", "E"}) {
        t.cable(QStringLiteral("B"), port, QLatin1String(outer), 1);
        t.cable(QStringLiteral("D"), port, QLatin1String(outer), 2);
        ++port;
    }
    return t.build();
}

}  // namespace

class TestEbbEngines : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // TC-4 (spec 002 §8.4): every figure the spec gives for network X, σ = (0, 1, 2). Routes are
    // followed with the application's route walk, channel loads are computeMetrics' flows (the
    // default model: every ordered pair of end ports, i.e. the route counts of the spec).
    // "loads" lists every directed switch channel with its route count (absent ones carry 0).
    void tc4_networkX_data()
    {
        QTest::addColumn<int>("variant");
        QTest::addColumn<int>("tieBreak");
        QTest::addColumn<QString>("routes");
        QTest::addColumn<QString>("loads");
        QTest::addColumn<int>("pi");
        QTest::addColumn<QString>("maximal");
        QTest::addRow("P-SSSP, paper-example")
            << int(SsspEngine::Variant::PerDestination) << int(SsspSettings::TieBreak::PaperExample)
            << QStringLiteral("(0,A,B,C,2) (0,A,D,E,1) (1,E,B,A,0) (1,E,D,C,2) (2,C,B,A,0) (2,C,D,E,1)")
            << QStringLiteral("A->B=1 A->D=1 B->A=2 B->C=1 B->E=0 C->B=1 C->D=1 D->A=0 D->C=1 D->E=2 E->B=1 E->D=1") << 2
            << QStringLiteral("B->A D->E");
        QTest::addRow("P2-SSSP, paper-example (the paper's six routes)")
            << int(SsspEngine::Variant::PerPair) << int(SsspSettings::TieBreak::PaperExample)
            << QStringLiteral("(0,A,B,E,1) (0,A,D,C,2) (1,E,B,C,2) (1,E,D,A,0) (2,C,B,A,0) (2,C,D,E,1)")
            << QStringLiteral("A->B=1 A->D=1 B->A=1 B->C=1 B->E=1 C->B=1 C->D=1 D->A=1 D->C=1 D->E=1 E->B=1 E->D=1") << 1
            << QStringLiteral("A->B A->D B->A B->C B->E C->B C->D D->A D->C D->E E->B E->D");
        QTest::addRow("P-SSSP, default tie-break (sensitivity)")
            << int(SsspEngine::Variant::PerDestination) << int(SsspSettings::TieBreak::LowestHead)
            << QStringLiteral("(0,A,B,E,1) (0,A,D,C,2) (1,E,B,A,0) (1,E,D,C,2) (2,C,B,A,0) (2,C,D,E,1)")
            << QStringLiteral("A->B=1 A->D=1 B->A=2 B->C=0 B->E=1 C->B=1 C->D=1 D->A=0 D->C=2 D->E=1 E->B=1 E->D=1") << 2
            << QStringLiteral("B->A D->C");
        QTest::addRow("P2-SSSP, default tie-break (sensitivity)")
            << int(SsspEngine::Variant::PerPair) << int(SsspSettings::TieBreak::LowestHead)
            << QStringLiteral("(0,A,B,E,1) (0,A,D,C,2) (1,E,B,A,0) (1,E,B,C,2) (2,C,B,E,1) (2,C,D,A,0)")
            << QStringLiteral("A->B=1 A->D=1 B->A=1 B->C=1 B->E=2 C->B=1 C->D=1 D->A=1 D->C=1 D->E=0 E->B=2 E->D=0") << 2
            << QStringLiteral("B->E E->B");
    }

    void tc4_networkX()
    {
        QFETCH(int, variant);
        QFETCH(int, tieBreak);
        QFETCH(QString, routes);
        QFETCH(QString, loads);
        QFETCH(int, pi);
        QFETCH(QString, maximal);
        const Fabric fabric = networkX();
        SsspSettings settings;
        settings.tieBreak = SsspSettings::TieBreak(tieBreak);
        SsspEngine engine(SsspEngine::Variant(variant), settings);
        QVERIFY(engine.prepare(fabric, {}, {}));
        Result<Routing> routing = engine.route({});
        QVERIFY2(routing, routing ? "" : qPrintable(routing.error().toString()));

        // Every ordered pair, walked from the source host's port; every route has 4 channels.
        const TablesByGuid tables(fabric, routing->tables);
        QStringList walked;
        for (NodeIndex s : fabric.endNodes())
            for (NodeIndex d : fabric.endNodes()) {
                if (s == d)
                    continue;
                QStringList nodes{fabric.node(s).name};
                const RouteEnd end = walkRouteFromPort(fabric, tables, fabric.portOf(s, 1), fabric.port(fabric.portOf(d, 1)).lid,
                                                       [&](const RouteHop &hop) {
                                                           nodes << fabric.node(hop.next).name;
                                                           return true;
                                                       });
                QCOMPARE(int(end), int(RouteEnd::AtEndNode));
                QCOMPARE(nodes.last(), fabric.node(d).name);
                QCOMPARE(nodes.size(), 5);  // 4 channels: minimal
                walked << QLatin1Char('(') + nodes.join(QLatin1Char(',')) + QLatin1Char(')');
            }
        walked.sort();
        QCOMPARE(walked.join(QLatin1Char(' ')), routes);

        const Metrics m = computeMetrics(fabric, Tenancy{}, routing->tables);
        QStringList switchLoads, top;
        std::uint64_t max = 0;
        for (const LinkLoad &l : m.links) {
            const Node &from = fabric.node(fabric.port(l.from).node);
            const Node &to = fabric.node(fabric.port(l.to).node);
            if (from.type == NodeType::Switch && to.type == NodeType::Switch) {
                switchLoads << QStringLiteral("%1->%2=%3").arg(from.name, to.name).arg(l.flows);
                max = std::max(max, l.flows);
            } else if (from.type == NodeType::Switch) {
                QCOMPARE(l.flows, std::uint64_t(2));  // endpoint channels carry P − 1
            }
        }
        for (const LinkLoad &l : m.links) {
            const Node &from = fabric.node(fabric.port(l.from).node);
            const Node &to = fabric.node(fabric.port(l.to).node);
            if (from.type == NodeType::Switch && to.type == NodeType::Switch && l.flows == max)
                top << from.name + QStringLiteral("->") + to.name;
        }
        switchLoads.sort();
        top.sort();
        QCOMPARE(switchLoads.join(QLatin1Char(' ')), loads);
        QCOMPARE(int(max), pi);
        QCOMPARE(top.join(QLatin1Char(' ')), maximal);
    }

    void ssspNeverBelowMinhop_data()
    {
        QTest::addColumn<int>("shape");
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("levels");
        QTest::addColumn<int>("removed");
        QTest::addColumn<int>("seed");
        QTest::addRow("4-ary 3-tree, 5 links removed") << int(FabricShapeKind::KaryNTree) << 4 << 3 << 5 << 1;
        QTest::addRow("4-ary 3-tree, 10 links removed") << int(FabricShapeKind::KaryNTree) << 4 << 3 << 10 << 2;
        QTest::addRow("radix 8, 3 levels, 6 removed") << int(FabricShapeKind::SwitchRadix) << 8 << 3 << 6 << 3;
        QTest::addRow("radix 8, 3 levels, 12 removed") << int(FabricShapeKind::SwitchRadix) << 8 << 3 << 12 << 4;
        QTest::addRow("radix 12, 2 levels, 8 removed") << int(FabricShapeKind::SwitchRadix) << 12 << 2 << 8 << 5;
        QTest::addRow("radix 16, 2 levels, 16 removed") << int(FabricShapeKind::SwitchRadix) << 16 << 2 << 16 << 6;
    }

    void ssspNeverBelowMinhop()
    {
        QFETCH(int, shape);
        QFETCH(int, size);
        QFETCH(int, levels);
        QFETCH(int, removed);
        QFETCH(int, seed);
        GeneratorOptions o;
        o.shape = FabricShapeKind(shape);
        o.arity = size;
        o.radix = size;
        o.levels = levels;
        o.removeRandomLinks = removed;
        o.seed = std::uint64_t(seed);
        Result<GeneratedFabric> g = generateFabric(o);
        QVERIFY(g.ok());
        const Tenancy none;
        double ebb[2] = {0, 0};
        const QString engines[2] = {QStringLiteral("minhop"), QStringLiteral("sssp")};
        for (int e = 0; e < 2; ++e) {
            Result<Routing> routing = routeFabric(engines[e], g->fabric, none);
            QVERIFY2(routing.ok(), routing.ok() ? "" : qPrintable(routing.error().toString()));
            Result<EffectiveBisection> analysis = EffectiveBisection::prepare(g->fabric, routing->tables, none, EbbModel{});
            QVERIFY2(analysis.ok(), analysis.ok() ? "" : qPrintable(analysis.error().toString()));
            EbbRun run;
            run.samples = 1000;
            run.seed = 11;
            Result<EbbResult> result = analysis->run(run);
            QVERIFY(result.ok());
            ebb[e] = result->mean;
        }
        qInfo("eBB minhop %.4f, sssp %.4f", ebb[0], ebb[1]);
        QVERIFY2(ebb[1] >= ebb[0], qPrintable(QStringLiteral("sssp %1 < minhop %2").arg(ebb[1]).arg(ebb[0])));
    }
};

QTEST_GUILESS_MAIN(TestEbbEngines)
#include "tst_ebb_engines.moc"
