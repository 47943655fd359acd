// `weft route` against the real OpenSM: Weft routes a generated fabric (with pftree and two
// partitions when that engine is registered, else ftree), the real OpenSM loads the dump with its
// `file` engine (`-R file -U`), the real dump_lfts reads what the simulated switches hold, and it
// must be exactly what Weft wrote. Then `weft metrics` judges the switches' own tables valid.

#include "FabricGenerator.h"
#include "LftDump.h"
#include "RoutingEngine.h"
#include "SafeFile.h"
#include "LabTables.h"
#include "LabTools.h"
#include "SimulatedFabric.h"
#include "TopologyFile.h"

#include <QJsonDocument>
#include <QJsonObject>
#include "WeftRunner.h"

#include <QtTest>

using namespace weft;

namespace {

using test::Run;
using test::runWeft;


}  // namespace

class TestLabRoute : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        const QString openSm = weft::test::openSmVersionProblem();  // once, before any lab starts
        QVERIFY2(openSm.isEmpty(), qPrintable(openSm));
        const QString missing = SimulatedFabric::missingTools();
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("the lab tests need: ") + missing));
        QVERIFY2(QFileInfo(qEnvironmentVariable("WEFT_BINARY")).isExecutable(), "WEFT_BINARY must name the weft executable");
    }

    void openSmInstallsWeftRouting_data()
    {
        QTest::addColumn<int>("arity");
        QTest::addColumn<int>("levels");
        QTest::addRow("4-ary 2-tree") << 4 << 2;
        QTest::addRow("2-ary 3-tree") << 2 << 3;
    }

    void openSmInstallsWeftRouting()
    {
        QFETCH(int, arity);
        QFETCH(int, levels);
        const bool pftree = routingEngineNames().contains(QStringLiteral("pftree"));
        const QString engine = pftree ? QStringLiteral("pftree") : QStringLiteral("ftree");
        qInfo("routing with %s", qPrintable(engine));

        GeneratorOptions options;
        options.arity = arity;
        options.levels = levels;
        options.linkSpeed = LinkSpeed::SDR;
        Result<GeneratedFabric> g = generateFabric(options);
        QVERIFY(g.ok());
        const Fabric &fabric = g->fabric;
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString topology = dir.filePath(QStringLiteral("fabric.topo"));
        const QString lfts = dir.filePath(QStringLiteral("weft.lfts"));
        const QString partitions = dir.filePath(QStringLiteral("partitions.conf"));
        QVERIFY(writeFileAtomically(topology, writeIbnetdiscover(fabric)).ok());
        // Two tenants, interleaved across leaves so that the partition-aware engine has work.
        QByteArray conf = "Default=0x7fff : ALL=limited, SELF=full ;\n";
        for (int parity = 0; parity < 2; ++parity) {
            QStringList members;
            for (std::size_t h = std::size_t(parity); h < g->hosts.size(); h += 2)
                members << QStringLiteral("0x%1=full").arg(fabric.port(fabric.portOf(g->hosts[h], 1)).guid, 16, 16, QLatin1Char('0'));
            conf += QStringLiteral("%1=0x000%2 : %3 ;\n").arg(parity ? QStringLiteral("blue") : QStringLiteral("red")).arg(parity + 1)
                        .arg(members.join(QStringLiteral(", "))).toLatin1();
        }
        QVERIFY(writeFileAtomically(partitions, conf).ok());

        QStringList args{QStringLiteral("route"), QStringLiteral("--engine"), engine, QStringLiteral("--topology"), topology, QStringLiteral("--out"), lfts};
        if (pftree)
            args << QStringLiteral("--partitions") << partitions << QStringLiteral("--policy") << QStringLiteral("red=vlane-isolation");
        const Run routed = runWeft(args);
        QVERIFY2(routed.exitCode == 0, routed.err.constData());
        QVERIFY(routed.out.contains(QByteArray("engine: ") + engine.toUtf8()));
        const Result<ForwardingTables> written = readLftDumpFile(lfts, &fabric);
        QVERIFY2(written.ok(), written.ok() ? "" : qPrintable(written.error().toString()));
        QCOMPARE(written->size(), fabric.switches().size());

        QByteArray dump;
        const Result<ForwardingTables> installed = test::openSmInstalledTables(
            fabric, dir.path(), {QStringLiteral("-R"), QStringLiteral("file"), QStringLiteral("-U"), lfts}, QStringLiteral("file"), &dump);
        QVERIFY2(installed.ok(), installed.ok() ? "" : qPrintable(installed.error().toString()));
        QVERIFY2(*installed == *written, qPrintable(test::tableDifferences(*written, *installed)));

        // The tables the switches hold are valid by Weft's own judgement.
        const QString installedPath = dir.filePath(QStringLiteral("installed.lfts"));
        QVERIFY(writeFileAtomically(installedPath, dump).ok());
        QStringList metricsArgs{QStringLiteral("metrics"), QStringLiteral("--json"), QStringLiteral("--topology"), topology, QStringLiteral("--lfts"), installedPath};
        if (QFile::exists(lfts + QStringLiteral(".sl")))
            metricsArgs << QStringLiteral("--sl") << lfts + QStringLiteral(".sl");
        const Run metrics = runWeft(metricsArgs);
        QVERIFY2(metrics.exitCode == 0, metrics.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(metrics.out).object();
        QCOMPARE(o.value(QStringLiteral("unreachable_pairs")).toInt(-1), 0);
        QCOMPARE(o.value(QStringLiteral("loops")).toInt(-1), 0);
        QVERIFY(o.value(QStringLiteral("deadlock_free")).toBool());
        QVERIFY(o.value(QStringLiteral("valid")).toBool());
    }
};

QTEST_GUILESS_MAIN(TestLabRoute)
#include "tst_lab_route.moc"
