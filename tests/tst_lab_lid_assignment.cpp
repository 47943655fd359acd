// `weft convert --assign-lids` against the real OpenSM under ibsim: a LID-less generated tree is
// written as an ibsim net file (the SM's CA first, as ibsim attaches the SM there), OpenSM sweeps
// it once, and every port's LID as ibnetdiscover then reports it must be the one Weft assigned.

#include "FabricGenerator.h"
#include "FileFormat.h"
#include "LabTools.h"
#include "LidAssignment.h"
#include "SimulatedFabric.h"
#include "TopologyFile.h"

#include <QProcess>
#include <QStandardPaths>
#include <QtTest>

using namespace weft;

class TestLabLidAssignment : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        const QString problem = weft::test::labToolsProblem();
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void sameLidsAsOpenSmsFirstSweep_data()
    {
        QTest::addColumn<int>("arity");
        QTest::addColumn<int>("levels");
        QTest::addColumn<int>("lmc");
        QTest::addColumn<int>("smCa");  // which CA (in fabric order) the SM runs on
        QTest::addRow("2-ary 3-tree, SM on the first CA") << 2 << 3 << 0 << 0;
        QTest::addRow("3-ary 2-tree, SM on the last CA") << 3 << 2 << 0 << -1;
        QTest::addRow("2-ary 2-tree, LMC 2") << 2 << 2 << 2 << 0;
    }

    void sameLidsAsOpenSmsFirstSweep()
    {
        QFETCH(int, arity);
        QFETCH(int, levels);
        QFETCH(int, lmc);
        QFETCH(int, smCa);
        GeneratorOptions options;
        options.arity = arity;
        options.levels = levels;
        options.assignLids = false;
        Result<GeneratedFabric> generated = generateFabric(options);
        QVERIFY(generated.ok());
        const Fabric &design = generated->fabric;
        QCOMPARE(design.maxLid(), Lid(0));
        const NodeIndex sm = smCa < 0 ? design.endNodes().back() : design.endNodes()[std::size_t(smCa)];

        LidAssignmentOptions lids;
        lids.lmc = lmc;
        lids.smPort = design.node(sm).firstPort + 1;
        Result<Fabric> assigned = assignLidsAsOpenSm(design, lids);
        QVERIFY2(assigned.ok(), assigned.ok() ? "" : qPrintable(assigned.error().toString()));

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString net = dir.filePath(QStringLiteral("design.net"));
        QVERIFY(writeFileAtomically(net, writeIbsimNet(design, sm), false).ok());
        SimulatedFabric::Options simOptions;
        simOptions.netFile = net;
        simOptions.smNode = design.node(sm).name;
        simOptions.workDir = dir.filePath(QStringLiteral("lab"));
        if (lmc)
            simOptions.openSmArgs = {QStringLiteral("-l"), QString::number(lmc)};
        SimulatedFabric sim(simOptions);
        const Status started = sim.start();
        QVERIFY2(started.ok(), started.ok() ? "" : qPrintable(started.error().toString()));
        Result<Fabric> live = weft::test::discoverWithIbnetdiscover(sim, dir.filePath(QStringLiteral("live.topo")));
        sim.stop();
        QVERIFY2(live.ok(), live.ok() ? "" : qPrintable(live.error().toString()));

        int compared = 0;
        for (const Port &p : assigned->ports()) {
            if (p.lid == 0)
                continue;
            const PortIndex there = live->portByGuid(p.guid);
            QVERIFY2(there != kNoIndex, qPrintable(QStringLiteral("port %1 not discovered").arg(guidText(p.guid))));
            QVERIFY2(live->port(there).lid == p.lid,
                     qPrintable(QStringLiteral("%1: OpenSM gave LID %2, Weft %3")
                                    .arg(portDisplayName(*assigned, PortIndex(&p - assigned->ports().data())))
                                    .arg(live->port(there).lid)
                                    .arg(p.lid)));
            QCOMPARE(int(live->port(there).lmc), int(p.lmc));
            ++compared;
        }
        QCOMPARE(std::size_t(compared), design.switches().size() + design.endNodes().size());
    }

    // The options file the real OpenSM writes (`opensm -c FILE`) is recognised as one, never as a
    // partitions.conf, and summarised with what would defeat a commit.
    void openSmsOwnOptionsFileIsRecognised()
    {
        QString opensm = QStandardPaths::findExecutable(QStringLiteral("opensm"));
        if (opensm.isEmpty())
            opensm = QStandardPaths::findExecutable(QStringLiteral("opensm"), {QStringLiteral("/usr/sbin"), QStringLiteral("/sbin")});
        QVERIFY(!opensm.isEmpty());
        QTemporaryDir dir;
        const QString conf = dir.filePath(QStringLiteral("opensm.conf"));
        QProcess create;
        create.start(opensm, {QStringLiteral("-c"), conf});
        QVERIFY(create.waitForFinished(30000));
        const QByteArray data = weft::test::readAll(conf);
        QVERIFY2(data.contains("routing_engine"), "opensm -c wrote no options file");
        QCOMPARE(detectFileFormat(data), FileFormat::OpenSmOptions);
        QProcess info;
        info.start(qEnvironmentVariable("WEFT_BINARY"), {QStringLiteral("info"), conf});
        QVERIFY(info.waitForFinished(60000));
        const QByteArray out = info.readAllStandardOutput();
        QCOMPARE(info.exitCode(), 0);
        QVERIFY2(out.contains("format: OpenSM options\n") && out.contains("routing engines: minhop (default)\n")
                     && out.contains("partitions file: /etc/opensm/partitions.conf\n") && out.contains("a commit needs `-R file`"),
                 out.constData());
    }
};

QTEST_GUILESS_MAIN(TestLabLidAssignment)
#include "tst_lab_lid_assignment.moc"
