// LFT dumps against the real tools: OpenSM routes a simulated fabric, the real dump_lfts reads
// the switches' tables, Weft parses them, changes them, and writes a dump; a second OpenSM
// loads that dump with its `file` routing engine and the switches must then hold exactly the
// tables Weft wrote, in both forms Weft writes (annotated and compact), LIDs renumbered or not.

#include "Fabric.h"
#include "ForwardingTables.h"
#include "LftDump.h"
#include "LabTools.h"
#include "SimulatedFabric.h"
#include "TopologyFile.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <memory>

using namespace weft;

namespace {

constexpr Guid kSwitch1 = 0x200000;
constexpr Guid kSwitch2 = 0x200001;

// net.2sw2path4hca as ibsim builds it, with the LIDs OpenSM assigned, as the real ibnetdiscover
// reported it (tests/data/topology).
Fabric labFabric()
{
    Result<Fabric> fabric = readTopologyFile(QFINDTESTDATA("data/topology/ibnetdiscover-2sw4hca.txt"));
    if (!fabric)
        qFatal("lab fabric: %s", qPrintable(fabric.error().toString()));
    return std::move(fabric).value();
}

// LID -> destination port GUID, as the real dump names them.
std::map<unsigned, Guid> destinationsInDump(const QByteArray &dump)
{
    static const QRegularExpression entry(QStringLiteral("^0x([0-9a-f]{4}) \\d{3} : \\(.* portguid 0x([0-9a-f]{16}):"));
    std::map<unsigned, Guid> result;
    for (const QByteArray &line : dump.split('\n')) {
        const QRegularExpressionMatch m = entry.match(QString::fromUtf8(line));
        if (m.hasMatch())
            result[m.captured(1).toUInt(nullptr, 16)] = m.captured(2).toULongLong(nullptr, 16);
    }
    return result;
}

QString describe(const ForwardingTables &tables)
{
    QString text;
    for (const SwitchForwardingTable &sw : tables.switches()) {
        text += QStringLiteral("switch 0x%1:").arg(sw.guid, 0, 16);
        for (Lid lid = 0; lid <= sw.lft.top(); ++lid) {
            if (sw.lft.hasRoute(lid))
                text += QStringLiteral(" %1->%2").arg(lid).arg(sw.lft.port(lid));
        }
        text += QLatin1Char('\n');
    }
    return text;
}

}  // namespace

class TestLabLfts : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void openSmLoadsWeftDump_data();
    void openSmLoadsWeftDump();
    void weftDumpFollowsRenumberedLids_data() { openSmLoadsWeftDump_data(); }
    void weftDumpFollowsRenumberedLids();

private:
    Result<ForwardingTables> routeFromWeftDump(const QString &workDir, const QString &what, const QString &lftsPath);

    QString m_netFile;
    Fabric m_fabric;
    QTemporaryDir m_dir;
    ForwardingTables m_routed;    // OpenSM's own routing, as dump_lfts read it
    ForwardingTables m_proposed;  // what Weft wrote to m_lftsPath
    QString m_lftsPath;
    QString m_compactPath;  // the same tables in the compact form, streamed by writeLftDumpFile
};

// The real tool, with the simulator's environment; its output read by Weft.
static Result<ForwardingTables> dumpLfts(const SimulatedFabric &lab, const QString &what, const Fabric &fabric,
                                         QByteArray *text = nullptr)
{
    Result<SimulatedFabric::ClientResult> run = lab.runClient(QStringLiteral("dump_lfts"), {});
    if (!run)
        return run.error();
    if (run->exitCode != 0)
        return Error{{}, 0, QStringLiteral("dump_lfts failed (%1): %2").arg(run->exitCode).arg(QString::fromUtf8(run->err))};
    if (text)
        *text = run->out;
    return readLftDump(run->out, what, &fabric);
}

void TestLabLfts::initTestCase()
{
    const QString openSm = weft::test::openSmVersionProblem();  // once, before any lab starts
    QVERIFY2(openSm.isEmpty(), qPrintable(openSm));
    const QString missing = SimulatedFabric::missingTools();
    if (!missing.isEmpty())
        QFAIL(qPrintable(QStringLiteral("the lab tests need ibsim and OpenSM: missing %1").arg(missing)));
    m_netFile = QFINDTESTDATA("data/lfts/net.2sw2path4hca");
    QVERIFY(!m_netFile.isEmpty());
    QVERIFY(m_dir.isValid());
    m_fabric = labFabric();

    // OpenSM's own routing, read back by the real dump_lfts.
    {
        SimulatedFabric::Options options;
        options.netFile = m_netFile;
        SimulatedFabric lab(options);
        const Status started = lab.start();
        QVERIFY2(started.ok(), qPrintable(started.ok() ? QString() : started.error().toString()));
        QByteArray text;
        const Result<ForwardingTables> parsed = dumpLfts(lab, QStringLiteral("dump_lfts (OpenSM routing)"), m_fabric, &text);
        QVERIFY2(parsed.ok(), qPrintable(parsed.ok() ? QString() : parsed.error().toString()));
        m_routed = *parsed;

        // The hand-made fabric must agree with the live one about who owns each LID, or the
        // port GUIDs Weft writes below would be wrong.
        const std::map<unsigned, Guid> destinations = destinationsInDump(text);
        QCOMPARE(destinations.size(), std::size_t(6));
        for (const auto &[lid, guid] : destinations) {
            const PortIndex port = m_fabric.portByLid(Lid(lid));
            QVERIFY2(port != kNoIndex, qPrintable(QString::number(lid)));
            QCOMPARE(m_fabric.port(port).guid, guid);
        }
        lab.stop();
    }
    QCOMPARE(m_routed.size(), std::size_t(2));
    for (const SwitchForwardingTable &sw : m_routed.switches())
        QCOMPARE(sw.lft.routeCount(), std::size_t(6));

    // A routing OpenSM would not choose by itself: the two inter-switch cables (ports 3 and 5
    // on both switches) trade their traffic. Still minimal and loop-free.
    m_proposed = m_routed;
    for (std::size_t i = 0; i < m_proposed.size(); ++i) {
        LinearForwardingTable &lft = m_proposed.lft(i);
        for (Lid lid = 1; lid <= lft.top(); ++lid) {
            if (lft.port(lid) == 3)
                lft.setPort(lid, 5);
            else if (lft.port(lid) == 5)
                lft.setPort(lid, 3);
        }
    }
    QVERIFY(m_proposed != m_routed);

    m_lftsPath = m_dir.filePath(QStringLiteral("weft.lfts"));
    QFile file(m_lftsPath);
    QVERIFY(file.open(QIODevice::WriteOnly));
    const QByteArray written = writeLftDump(m_proposed, &m_fabric);
    QCOMPARE(file.write(written), qint64(written.size()));
    file.close();
    // Weft reads its own file back unchanged, checked against the fabric.
    const Result<ForwardingTables> reread = readLftDumpFile(m_lftsPath, &m_fabric);
    QVERIFY2(reread.ok(), qPrintable(reread.ok() ? QString() : reread.error().toString()));
    QVERIFY(*reread == m_proposed);

    m_compactPath = m_dir.filePath(QStringLiteral("weft-compact.lfts"));
    const Status compactWritten = writeLftDumpFile(m_compactPath, m_proposed, &m_fabric, LftDumpForm::Compact);
    QVERIFY2(compactWritten.ok(), qPrintable(compactWritten.ok() ? QString() : compactWritten.error().toString()));
    const Result<ForwardingTables> compact = readLftDumpFile(m_compactPath, &m_fabric);
    QVERIFY2(compact.ok(), qPrintable(compact.ok() ? QString() : compact.error().toString()));
    QVERIFY(*compact == m_proposed);
}

void TestLabLfts::openSmLoadsWeftDump_data()
{
    QTest::addColumn<bool>("compact");
    QTest::addRow("annotated") << false;
    QTest::addRow("compact") << true;
}

// Starts a fresh subnet whose OpenSM routes from Weft's file and returns what the switches hold.
Result<ForwardingTables> TestLabLfts::routeFromWeftDump(const QString &workDir, const QString &what, const QString &lftsPath)
{
    SimulatedFabric::Options options;
    options.netFile = m_netFile;
    options.openSmArgs = {QStringLiteral("-R"), QStringLiteral("file"), QStringLiteral("-U"), lftsPath};
    options.workDir = workDir;
    SimulatedFabric lab(options);
    const Status started = lab.start();
    if (!started)
        return started.error();
    Result<ForwardingTables> loaded = dumpLfts(lab, what, m_fabric);

    QFile log(lab.openSmLogPath());
    const QByteArray logText = log.open(QIODevice::ReadOnly) ? log.readAll() : QByteArray();
    lab.stop();
    for (const char *complaint : {"PARSE ERROR", "ERR 6302", "Invalid port", "cannot find port guid"}) {
        if (logText.contains(complaint))
            return Error{lab.openSmLogPath(), 0, QStringLiteral("OpenSM complained about Weft's dump: %1")
                                                     .arg(QString::fromUtf8(logText.right(2000)))};
    }
    return loaded;
}

void TestLabLfts::openSmLoadsWeftDump()
{
    QFETCH(bool, compact);
    const Result<ForwardingTables> loaded = routeFromWeftDump({}, QStringLiteral("dump_lfts (file routing)"), compact ? m_compactPath : m_lftsPath);
    QVERIFY2(loaded.ok(), qPrintable(loaded.ok() ? QString() : loaded.error().toString()));
    QVERIFY2(*loaded == m_proposed, qPrintable(QStringLiteral("switches hold:\n%1Weft wrote:\n%2")
                                                    .arg(describe(*loaded), describe(m_proposed))));
    // The real tool's output of Weft's routing survives Weft's writer too.
    const Result<ForwardingTables> again = readLftDump(writeLftDump(*loaded, &m_fabric), QStringLiteral("rewritten"), &m_fabric);
    QVERIFY(again.ok());
    QVERIFY(*again == *loaded);
}

void TestLabLfts::weftDumpFollowsRenumberedLids()
{
    // OpenSM keeps the LIDs it finds in its guid2lid cache: give every port a new one, so the
    // dump's LIDs are all stale and only its port GUIDs can say where each entry belongs.
    constexpr Lid kShift = 0x20;
    QFETCH(bool, compact);
    const QString workDir = m_dir.filePath(compact ? QStringLiteral("renumbered-compact") : QStringLiteral("renumbered"));
    QVERIFY(QDir().mkpath(workDir));
    QByteArray guid2lid;
    std::map<Lid, Lid> newLid;
    for (const Port &port : m_fabric.ports()) {
        if (!port.present || port.lid == 0)
            continue;
        const Lid lid = Lid(port.lid + kShift);
        newLid[port.lid] = lid;
        guid2lid += QStringLiteral("0x%1 0x%2 0x%2\n\n").arg(port.guid, 16, 16, QLatin1Char('0')).arg(lid, 4, 16, QLatin1Char('0')).toLatin1();
    }
    QCOMPARE(newLid.size(), std::size_t(6));
    QFile cache(workDir + QStringLiteral("/guid2lid"));
    QVERIFY(cache.open(QIODevice::WriteOnly));
    QCOMPARE(cache.write(guid2lid), qint64(guid2lid.size()));
    cache.close();

    ForwardingTables expected;
    for (const SwitchForwardingTable &sw : m_proposed.switches()) {
        const int i = expected.addSwitch(sw.guid);
        for (const auto &[oldLid, lid] : newLid)
            expected.lft(std::size_t(i)).setPort(lid, sw.lft.port(oldLid));
    }

    const Result<ForwardingTables> loaded = routeFromWeftDump(workDir, QStringLiteral("dump_lfts (renumbered LIDs)"),
                                                              compact ? m_compactPath : m_lftsPath);
    QVERIFY2(loaded.ok(), qPrintable(loaded.ok() ? QString() : loaded.error().toString()));
    // The cache was honoured: nothing is routed to the old LIDs any more.
    QVERIFY(!loaded->find(kSwitch1)->lft.hasRoute(2));
    QVERIFY2(*loaded == expected, qPrintable(QStringLiteral("switches hold:\n%1expected:\n%2")
                                                  .arg(describe(*loaded), describe(expected))));
}

QTEST_GUILESS_MAIN(TestLabLfts)
#include "tst_lab_lfts.moc"
