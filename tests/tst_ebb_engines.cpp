// Issue 4's acceptance: on the degraded fat-trees of the invariant suite, globally balanced
// P-SSSP never gives a lower effective bisection bandwidth than minhop. Both are measured on
// the same seeded bisection patterns, so the comparison is free of sampling noise between them.

#include "EffectiveBisection.h"
#include "FabricGenerator.h"
#include "RoutingEngine.h"

#include <QtTest>

using namespace weft;

class TestEbbEngines : public QObject
{
    Q_OBJECT

private Q_SLOTS:
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
