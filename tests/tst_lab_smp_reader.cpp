// The pipelined SMP reader (core/live/SmpReader) against the standard tools, in ibsim with the real
// OpenSM: on a tree with a failed cable (ibsim's Unlink), `weft discover --lfts --pkeys` must read
// exactly the LFTs that dump_lfts reads and, port by port, the P_Keys `smpquery pkeys` reads; with
// a share of SMPs lost (the reader's drop hook, WEFT_SMP_DROP) it must read the same tables again,
// having resent what was lost; and with every SMP lost it must refuse, naming the switches that did
// not answer, and write no tables.

#include "FabricGenerator.h"
#include "ForwardingTables.h"
#include "GeneratedFabrics.h"
#include "LabTools.h"
#include "LftDump.h"
#include "PKeyTableFile.h"
#include "SafeFile.h"
#include "SimulatedFabric.h"
#include "TopologyFile.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace weft;

namespace {

QString weftBinary()
{
    return qEnvironmentVariable("WEFT_BINARY");
}

struct WeftRead
{
    int exitCode = -1;
    QByteArray out, err;
};

// `weft discover --json -o TOPO --lfts LFTS --pkeys PKEYS` as a client of the lab, with
// WEFT_SMP_DROP set to `drop` (empty: unset).
WeftRead runWeftRead(const SimulatedFabric &sim, const QString &prefix, const QString &drop)
{
    QProcess process;
    QProcessEnvironment env = sim.clientEnvironment();
    if (!drop.isEmpty())
        env.insert(QStringLiteral("WEFT_SMP_DROP"), drop);
    process.setProcessEnvironment(env);
    process.setWorkingDirectory(sim.workDir());
    process.start(weftBinary(), {QStringLiteral("discover"), QStringLiteral("--json"), QStringLiteral("-o"), prefix + QStringLiteral(".topo"),
                                 QStringLiteral("--lfts"), prefix + QStringLiteral(".lfts"), QStringLiteral("--pkeys"), prefix + QStringLiteral(".pkeys")});
    WeftRead read;
    if (!process.waitForFinished(600000))
        return read;
    read.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    read.out = process.readAllStandardOutput();
    read.err = process.readAllStandardError();
    return read;
}

// "N retries" in the table_reads summary of `weft discover --json`.
int retriesIn(const QByteArray &json)
{
    const QString reads = QJsonDocument::fromJson(json).object().value(QStringLiteral("table_reads")).toString();
    static const QRegularExpression pattern(QStringLiteral("(\\d+) retries"));
    const QRegularExpressionMatch m = pattern.match(reads);
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

}  // namespace

class TestLabSmpReader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        if (const QString problem = test::labToolsProblem(); !problem.isEmpty())
            QFAIL(qPrintable(problem));
        QVERIFY2(QFileInfo(weftBinary()).isExecutable(), "WEFT_BINARY must name the weft executable");
        QVERIFY(m_dir.isValid());
        m_generated = test::generate(test::Shape{FabricShapeKind::SwitchRadix, 8, 3, 0});
        const Fabric &fabric = m_generated.fabric;
        const QString net = m_dir.filePath(QStringLiteral("fabric.net"));
        const NodeIndex smHost = fabric.endNodes().front();
        QVERIFY(writeFileAtomically(net, writeIbsimNet(fabric, smHost), false).ok());
        // Partitions beyond the default, so that the P_Key tables differ from port to port.
        const QString partitions = m_dir.filePath(QStringLiteral("partitions.conf"));
        QVERIFY(writeFileAtomically(partitions, "Default=0x7fff, ipoib : ALL=full ;\n"
                                                "switches=0x8001 : ALL_SWITCHES=full ;\n"
                                                "cas=0x8002 : ALL_CAS=limited, ALL_SWITCHES=full ;\n",
                                    false)
                    .ok());
        SimulatedFabric::Options options;
        options.netFile = net;
        options.smNode = fabric.node(smHost).name;
        options.partitionsConf = partitions;
        m_sim = std::make_unique<SimulatedFabric>(options);
        const Status started = m_sim->start();
        QVERIFY2(started.ok(), qPrintable(started ? QString() : started.error().toString()));

        // A failed cable: the last uplink of the last leaf. OpenSM may route around it or not yet;
        // either way Weft and the tools read the fabric as it is.
        const auto [leaf, uplink] = test::lastUplink(m_generated);
        QVERIFY(leaf != kNoIndex);
        const qint64 logAt = m_sim->openSmLogSize();
        QVERIFY(m_sim->simulatorCommand(QStringLiteral("Unlink \"%1\"[%2]").arg(fabric.node(leaf).name).arg(uplink)).ok());
        // Its sweep after the trap, if it takes one; the reads below do not depend on it.
        (void)m_sim->waitForOpenSmLog(QStringLiteral("SUBNET UP"), 20000, logAt);
    }

    // Exactly what dump_lfts and smpquery read, with and without SMPs lost.
    void readsWhatTheToolsRead_data()
    {
        QTest::addColumn<QString>("drop");
        QTest::newRow("no loss") << QString();
        QTest::newRow("15% of SMPs lost") << QStringLiteral("0.15");
    }

    void readsWhatTheToolsRead()
    {
        QFETCH(QString, drop);
        const QString prefix = m_dir.filePath(drop.isEmpty() ? QStringLiteral("weft") : QStringLiteral("lossy"));
        const WeftRead read = runWeftRead(*m_sim, prefix, drop);
        QVERIFY2(read.exitCode == 0, read.err.constData());
        const int retries = retriesIn(read.out);
        QVERIFY2(retries >= 0, read.out.constData());
        if (!drop.isEmpty())
            QVERIFY2(retries > 0, read.out.constData());  // losses were made up by resending

        Result<Fabric> live = readTopologyFile(prefix + QStringLiteral(".topo"));
        QVERIFY2(live.ok(), qPrintable(live ? QString() : live.error().toString()));
        // The failed cable is not in the fabric Weft read.
        QCOMPARE(live->links().size(), m_generated.fabric.links().size() - 1);

        // Every switch's LFT, as dump_lfts reads it.
        Result<ForwardingTables> ours = readLftDumpFile(prefix + QStringLiteral(".lfts"), &*live);
        QVERIFY2(ours.ok(), qPrintable(ours ? QString() : ours.error().toString()));
        const auto dump = m_sim->runClient(QStringLiteral("dump_lfts"), {});
        QVERIFY2(dump && dump->exitCode == 0, qPrintable(test::describe(dump)));
        Result<ForwardingTables> theirs = readLftDump(dump->out, QStringLiteral("dump_lfts"), &*live);
        QVERIFY2(theirs.ok(), qPrintable(theirs ? QString() : theirs.error().toString()));
        QCOMPARE(ours->size(), live->switches().size());
        QVERIFY2(*ours == *theirs, qPrintable(test::firstRouteDifference(*live, *theirs, *ours)));

        if (!drop.isEmpty()) {
            // The same bytes as the read without loss, which the row before compared with
            // dump_lfts and, port by port, with smpquery.
            const QString clean = m_dir.filePath(QStringLiteral("weft"));
            QCOMPARE(test::readAll(prefix + QStringLiteral(".lfts")), test::readAll(clean + QStringLiteral(".lfts")));
            QCOMPARE(test::readAll(prefix + QStringLiteral(".pkeys")), test::readAll(clean + QStringLiteral(".pkeys")));
            return;
        }

        // Every P_Key table Weft read, port by port, as `smpquery pkeys` reads it.
        Result<PKeyTables> pkeys = readPKeyTableFile(prefix + QStringLiteral(".pkeys"), *live);
        QVERIFY2(pkeys.ok(), qPrintable(pkeys ? QString() : pkeys.error().toString()));
        QVERIFY(pkeys->ports().size() > live->switches().size());
        std::size_t differing = 0, withPartitions = 0;
        for (const PortPKeyTable &table : pkeys->ports()) {
            const Port &port = live->port(table.port);
            const bool onSwitch = live->node(port.node).type == NodeType::Switch;
            QStringList args{QStringLiteral("pkeys"), QString::number(onSwitch ? live->nodeLid(port.node) : port.lid)};
            if (onSwitch)
                args << QString::number(port.number);
            const auto run = m_sim->runClient(QStringLiteral("smpquery"), args);
            QVERIFY2(run && run->exitCode == 0, qPrintable(test::describe(run)));
            const std::set<int> expected = test::smpqueryPKeys(run->out);
            std::set<int> got;
            for (std::uint16_t pkey : table.entries)
                if (pkey & 0x7fff)
                    got.insert(pkey);
            if (got != expected) {
                ++differing;
                qWarning("%s: Weft read %zu P_Keys, smpquery %zu", qPrintable(args.join(QLatin1Char(' '))), got.size(), expected.size());
            }
            withPartitions += got.size() > 1;
        }
        QCOMPARE(differing, std::size_t(0));
        QVERIFY(withPartitions > 0);  // the partitions reached the ports: the comparison compares something
    }

    // Nothing answers: the read refuses, names the switches that did not answer, writes nothing.
    void refusesAndNamesWhatWasMissing()
    {
        const QString prefix = m_dir.filePath(QStringLiteral("silent"));
        const WeftRead read = runWeftRead(*m_sim, prefix, QStringLiteral("1"));
        QVERIFY(read.exitCode != 0);
        const QString message = QString::fromUtf8(read.err);
        QVERIFY2(message.contains(QLatin1String("tables could not be read")), qPrintable(message));
        QVERIFY2(message.contains(QRegularExpression(QStringLiteral("switch \"[^\"]+\" \\(0x[0-9a-f]{16}, LID \\d+\\) did not answer SwitchInfo"))),
                 qPrintable(message));
        QVERIFY(!QFileInfo::exists(prefix + QStringLiteral(".lfts")));
        QVERIFY(!QFileInfo::exists(prefix + QStringLiteral(".pkeys")));
    }

    void cleanupTestCase()
    {
        if (m_sim)
            m_sim->stop();
    }

private:
    QTemporaryDir m_dir;
    GeneratedFabric m_generated;
    std::unique_ptr<SimulatedFabric> m_sim;
};

QTEST_GUILESS_MAIN(TestLabSmpReader)
#include "tst_lab_smp_reader.moc"
