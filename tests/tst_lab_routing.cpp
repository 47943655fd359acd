// Weft's engines against the real OpenSM: a generated fabric is loaded into ibsim, the real
// OpenSM routes it with `-R ftree|minhop|updn`, the real dump_lfts reads every switch's table,
// and Weft's own routing of the same Fabric must be the same, entry for entry.
//
// Why equality is possible at all: OpenSM's engines visit switches, CAs and ports in the order
// of its GUID-keyed maps (byte-swapped GUID on x86, see routing::openSmMapKey) and of port
// numbers, never in discovery order; and OpenSM keeps the LIDs the generator wrote into the
// net file. minhop and updn also honour existing LFT entries, but on the first sweep OpenSM
// ignores them (ignore_existing_lfts), and that sweep is the one whose tables we read.
//
// Where OpenSM refuses an engine it falls back to minhop; Weft's engine refuses the same fabric
// and the test then compares with Weft's minhop.

#include "FabricGenerator.h"
#include "ForwardingTables.h"
#include "LftDump.h"
#include "RoutingEngine.h"
#include "LabTables.h"
#include "LabTools.h"
#include "SimulatedFabric.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <chrono>

using namespace weft;

namespace {

using test::tableDifferences;


}  // namespace

class TestLabRouting : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        const QString openSm = weft::test::openSmVersionProblem();  // once, before any lab starts
        QVERIFY2(openSm.isEmpty(), qPrintable(openSm));
        const QString missing = SimulatedFabric::missingTools();
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("the lab tests need: ") + missing));
    }

    void sameTablesAsOpenSm_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<int>("shape");
        QTest::addColumn<int>("size");    // arity or radix
        QTest::addColumn<int>("levels");
        QTest::addColumn<int>("removeLinks");
        QTest::addColumn<QString>("expectedEngine");  // what OpenSM ends up using

        const int kary = int(FabricShapeKind::KaryNTree);
        const int radix = int(FabricShapeKind::SwitchRadix);
        const QString ftree = QStringLiteral("ftree");
        const QString minhop = QStringLiteral("minhop");
        const QString updn = QStringLiteral("updn");
        QTest::addRow("ftree, 2-ary 2-tree") << ftree << kary << 2 << 2 << 0 << ftree;
        QTest::addRow("ftree, 4-ary 2-tree") << ftree << kary << 4 << 2 << 0 << ftree;
        QTest::addRow("ftree, 2-ary 3-tree") << ftree << kary << 2 << 3 << 0 << ftree;
        QTest::addRow("ftree, 3-ary 3-tree") << ftree << kary << 3 << 3 << 0 << ftree;
        QTest::addRow("ftree, radix 8, 2 levels") << ftree << radix << 8 << 2 << 0 << ftree;
        QTest::addRow("ftree, radix 12, 2 levels") << ftree << radix << 12 << 2 << 0 << ftree;
        QTest::addRow("ftree, radix 6, 3 levels") << ftree << radix << 6 << 3 << 0 << ftree;
        QTest::addRow("ftree, 2-ary 4-tree") << ftree << kary << 2 << 4 << 0 << ftree;
        QTest::addRow("ftree, 4-ary 3-tree") << ftree << kary << 4 << 3 << 0 << ftree;
        QTest::addRow("ftree, radix 16, 2 levels") << ftree << radix << 16 << 2 << 0 << ftree;
        QTest::addRow("ftree, radix 8, 3 levels") << ftree << radix << 8 << 3 << 0 << ftree;
        QTest::addRow("ftree on a degraded 4-ary 2-tree (falls back)") << ftree << kary << 4 << 2 << 3 << minhop;
        QTest::addRow("minhop, 4-ary 2-tree") << minhop << kary << 4 << 2 << 0 << minhop;
        QTest::addRow("minhop, degraded 3-ary 3-tree") << minhop << kary << 3 << 3 << 4 << minhop;
        QTest::addRow("updn, 4-ary 2-tree") << updn << kary << 4 << 2 << 0 << updn;
        QTest::addRow("updn, degraded 3-ary 3-tree") << updn << kary << 3 << 3 << 4 << updn;
        QTest::addRow("updn, degraded radix 8, 2 levels") << updn << radix << 8 << 2 << 3 << updn;
        QTest::addRow("updn, degraded radix 8, 3 levels") << updn << radix << 8 << 3 << 6 << updn;
        QTest::addRow("minhop, degraded radix 8, 3 levels") << minhop << radix << 8 << 3 << 6 << minhop;
        QTest::addRow("updn without roots, radix 8, 3 levels, 12 links removed (falls back)") << updn << radix << 8 << 3 << 12 << minhop;
    }

    void sameTablesAsOpenSm()
    {
        QFETCH(QString, engine);
        QFETCH(int, shape);
        QFETCH(int, size);
        QFETCH(int, levels);
        QFETCH(int, removeLinks);
        QFETCH(QString, expectedEngine);

        GeneratorOptions options;
        options.shape = FabricShapeKind(shape);
        options.arity = size;
        options.radix = size;
        options.levels = levels;
        options.removeRandomLinks = removeLinks;
        options.seed = 11;
        options.linkSpeed = LinkSpeed::SDR;
        Result<GeneratedFabric> generated = generateFabric(options);
        QVERIFY2(generated.ok(), generated.ok() ? "" : qPrintable(generated.error().toString()));
        const Fabric &fabric = generated->fabric;

        // Weft first: which engine it would use is what OpenSM must be seen to use.
        std::unique_ptr<RoutingEngine> weftEngine = makeRoutingEngine(engine);
        QVERIFY(weftEngine);
        const Status prepared = weftEngine->prepare(fabric, Tenancy{}, {});
        QString used = engine;
        if (!prepared) {
            used = QStringLiteral("minhop");
            qInfo("Weft's %s refuses: %s", qPrintable(engine), qPrintable(prepared.error().toString()));
        }
        QCOMPARE(used, expectedEngine);
        const Result<Routing> weft = routeFabric(used, fabric, Tenancy{});
        QVERIFY2(weft.ok(), weft.ok() ? "" : qPrintable(weft.error().toString()));

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // OpenSM says which engine configured the tables: the wait is for that engine's line.
        const Result<ForwardingTables> openSm =
            test::openSmInstalledTables(fabric, dir.path(), {QStringLiteral("-R"), engine}, expectedEngine);
        QVERIFY2(openSm.ok(), openSm.ok() ? "" : qPrintable(openSm.error().toString()));

        QCOMPARE(openSm->size(), fabric.switches().size());
        // Not a vacuous comparison: on these connected fabrics every switch routes every CA
        // LID. (Not every switch LID: up/down rules leave roots without a path to each other.)
        for (const SwitchForwardingTable &sw : openSm->switches()) {
            for (NodeIndex n : fabric.endNodes())
                QVERIFY(sw.lft.hasRoute(fabric.nodeLid(n)));
        }
        QVERIFY2(weft->tables == *openSm, qPrintable(tableDifferences(weft->tables, *openSm)));
    }
};

QTEST_GUILESS_MAIN(TestLabRouting)
#include "tst_lab_routing.moc"
