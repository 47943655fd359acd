// The commit procedure without a fabric: plans refused before anything is written (unsafe,
// stale, OpenSM not running), the write (atomic, with backups), verification and rollback
// against a stand-in OpenSM that loads the files it is pointed at when it gets SIGHUP, and the
// journal. The real thing, under ibsim and OpenSM, is tst_lab_commit.

#include "Commit.h"
#include "CommitJournal.h"
#include "FabricGenerator.h"
#include "GeneratedFabrics.h"
#include "LftDump.h"
#include "PKeyTables.h"
#include "PartitionsConf.h"
#include "RoutingEngine.h"
#include "SafeFile.h"

#include <QtTest>

using namespace weft;

namespace {

Fabric makeFabric(std::vector<LinkEndName> removed = {})
{
    GeneratorOptions o;
    o.arity = 2;
    o.levels = 2;
    o.removeLinks = std::move(removed);
    return test::generateOrFail(o).fabric;
}

ForwardingTables route(const Fabric &fabric, const QString &engine = QStringLiteral("ftree"))
{
    Result<Routing> r = routeFabric(engine, fabric, Tenancy{});
    if (!r)
        qFatal("%s", qPrintable(r.error().toString()));
    return r->tables;
}

Guid hostPort(const Fabric &fabric, int host)
{
    return fabric.port(fabric.portOf(fabric.endNodes()[std::size_t(host)], 1)).guid;
}

QByteArray twoTenants(const Fabric &fabric)
{
    QByteArray conf = "Default=0x7fff : ALL=limited, SELF=full ;\n";
    conf += QStringLiteral("red=0x0001 : 0x%1=full, 0x%2=full ;\n").arg(hostPort(fabric, 0), 16, 16, QLatin1Char('0')).arg(hostPort(fabric, 1), 16, 16, QLatin1Char('0')).toLatin1();
    conf += QStringLiteral("blue=0x0002 : 0x%1=full, 0x%2=full ;\n").arg(hostPort(fabric, 2), 16, 16, QLatin1Char('0')).arg(hostPort(fabric, 3), 16, 16, QLatin1Char('0')).toLatin1();
    return conf;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// A stand-in for OpenSM and the switches: on SIGHUP it loads the LFT dump and partitions.conf
// at the target paths (unless told to ignore one, as an OpenSM started on other files would),
// and reads back what it last loaded.
struct FakeOpenSm
{
    Fabric fabric;
    CommitTarget target;
    ForwardingTables held;
    PKeyTables heldPKeys;
    PKeyTableOptions pkeyOptions;
    bool running = true;
    bool ignoreLfts = false;
    bool dieOnReload = false;
    int reloads = 0;

    void load()
    {
        if (!ignoreLfts) {
            Result<ForwardingTables> t = readLftDumpFile(target.lftsPath, &fabric);
            if (t)
                held = *t;
        }
        Result<PartitionsConfResult> p = readPartitionsConfFile(target.partitionsPath);
        if (p)
            heldPKeys = computePKeyTables(fabric, p->partitions, pkeyOptions, &heldPKeys);
    }

    CommitBackend backend()
    {
        CommitBackend b;
        b.discover = [this]() -> Result<Fabric> { return fabric; };
        b.readTables = [this](const Fabric &) -> Result<ForwardingTables> { return held; };
        b.readPKeys = [this](const Fabric &) -> Result<PKeyTables> { return heldPKeys; };
        b.isRunning = [this](qint64) { return running; };
        b.reload = [this](qint64) -> Status {
            ++reloads;
            if (dieOnReload) {
                running = false;
                return Done{};
            }
            load();
            return Done{};
        };
        return b;
    }
};

struct Setup
{
    QTemporaryDir dir;
    Fabric fabric = makeFabric();
    CommitTarget target;
    FakeOpenSm opensm;
    QByteArray previousLfts;
    QByteArray previousPartitions;
    CommitOptions options;

    Setup()
    {
        target.lftsPath = dir.filePath(QStringLiteral("opensm.lfts"));
        target.partitionsPath = dir.filePath(QStringLiteral("partitions.conf"));
        target.pidFile = dir.filePath(QStringLiteral("opensm.pid"));
        previousLfts = writeLftDump(route(fabric, QStringLiteral("minhop")), &fabric);
        previousPartitions = "Default=0x7fff : ALL=limited, SELF=full ;\nred=0x0001 : " + QByteArray("0x")
                             + QByteArray::number(hostPort(fabric, 5), 16).rightJustified(16, '0') + "=full ;\n";
        writeFileAtomically(target.lftsPath, previousLfts, false);
        writeFileAtomically(target.partitionsPath, previousPartitions, false);
        writeFileAtomically(target.pidFile, "4242\n", false);
        opensm.fabric = fabric;
        opensm.target = target;
        opensm.pkeyOptions.smPortGuid = hostPort(fabric, 0);
        opensm.load();
        options.timeoutMs = 1000;
        options.journalPath = dir.filePath(QStringLiteral("journal.jsonl"));
        options.user = QStringLiteral("tester");
    }

    CommitPlan plan(const ForwardingTables &tables, const QByteArray &conf) const
    {
        CommitPlan p;
        p.tables = tables;
        p.partitionsConf = conf;
        p.partitionsFileName = QStringLiteral("plan-partitions.conf");
        return p;
    }

    bool filesUnchanged() const
    {
        return readAll(target.lftsPath) == previousLfts && readAll(target.partitionsPath) == previousPartitions;
    }
};

}  // namespace

class TestCommit : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void unsafePlansAreRefused_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("reason");
        QTest::addRow("partitions.conf OpenSM rejects (no definition)") << 0 << QStringLiteral("would be rejected by OpenSM");
        QTest::addRow("forwarding loop") << 1 << QStringLiteral("forwarding loops");
        QTest::addRow("hosts not routed") << 2 << QStringLiteral("are not routed");
        QTest::addRow("out port the switch does not have") << 3 << QStringLiteral("the switch has");
    }

    void unsafePlansAreRefused()
    {
        QFETCH(int, kind);
        QFETCH(QString, reason);
        const Fabric fabric = makeFabric();
        ForwardingTables tables = route(fabric);
        QByteArray conf = twoTenants(fabric);
        const Lid hostLid = fabric.port(fabric.portOf(fabric.endNodes()[0], 1)).lid;
        if (kind == 0) {
            conf = "# nothing but a comment\n";
        } else if (kind == 1) {
            // Every switch sends host 0's LID up or down to a switch that sends it back.
            for (std::size_t i = 0; i < tables.size(); ++i) {
                const NodeIndex sw = fabric.nodeByGuid(tables.at(i).guid);
                for (int p = 1; p <= fabric.node(sw).portCount; ++p) {
                    const Port &port = fabric.port(fabric.portOf(sw, p));
                    if (port.remote != kNoIndex && fabric.node(fabric.port(port.remote).node).type == NodeType::Switch) {
                        tables.lft(i).setPort(hostLid, std::uint8_t(p));
                        break;
                    }
                }
            }
        } else if (kind == 2) {
            for (std::size_t i = 0; i < tables.size(); ++i)
                tables.lft(i).clear(hostLid);
        } else {
            tables.lft(0).setPort(hostLid, 200);
        }
        std::vector<Partition> partitions;
        const QStringList reasons = checkPlan(fabric, tables, conf, QStringLiteral("plan.conf"), &partitions);
        QVERIFY2(!reasons.isEmpty(), "an unsafe plan passed the check");
        QVERIFY2(reasons.join(QLatin1Char('\n')).contains(reason), qPrintable(reasons.join(QLatin1Char('\n'))));

        // The same plan through commitPlan: refused, nothing written, journal says so.
        Setup s;
        const CommitReport report = commitPlan(s.plan(tables, conf), s.target, s.opensm.backend(), s.options);
        QCOMPARE(commitOutcomeName(report.outcome), QStringLiteral("refused"));
        QVERIFY(!report.written);
        QVERIFY(s.filesUnchanged());
        QVERIFY(!QFileInfo::exists(backupPath(s.target.lftsPath)));
        QCOMPARE(s.opensm.reloads, 0);
        const Result<std::vector<CommitJournalEntry>> journal = readJournal(s.options.journalPath);
        QVERIFY(journal.ok());
        QCOMPARE(journal->size(), std::size_t(1));
        QCOMPARE(journal->front().outcome, QStringLiteral("refused"));
    }

    void safePlanPassesTheCheck()
    {
        const Fabric fabric = makeFabric();
        std::vector<Partition> partitions;
        const QStringList reasons = checkPlan(fabric, route(fabric), twoTenants(fabric), QStringLiteral("plan.conf"), &partitions);
        QVERIFY2(reasons.isEmpty(), qPrintable(reasons.join(QLatin1Char('\n'))));
        QCOMPARE(partitions.size(), std::size_t(3));
    }

    void commitWritesAtomicallyWithBackupsAndVerifies()
    {
        Setup s;
        const ForwardingTables planned = route(s.fabric);
        QVERIFY(planned != s.opensm.held);
        const CommitReport report = commitPlan(s.plan(planned, twoTenants(s.fabric)), s.target, s.opensm.backend(), s.options);
        QVERIFY2(report.ok(), qPrintable(report.toText()));
        QCOMPARE(s.opensm.reloads, 1);
        QVERIFY(s.opensm.held == planned);
        QVERIFY(report.diff.smps() > 0);
        // The previous files are kept as backups; the new ones load as the plan.
        QCOMPARE(readAll(backupPath(s.target.lftsPath)), s.previousLfts);
        QCOMPARE(readAll(backupPath(s.target.partitionsPath)), s.previousPartitions);
        const Result<ForwardingTables> written = readLftDumpFile(s.target.lftsPath, &s.fabric);
        QVERIFY(written.ok());
        QVERIFY(*written == planned);
        const Result<PartitionsConfResult> conf = readPartitionsConfFile(s.target.partitionsPath);
        QVERIFY(conf.ok());
        QVERIFY(conf->partitions.size() == 3);
        const Result<std::vector<CommitJournalEntry>> journal = readJournal(s.options.journalPath);
        QVERIFY(journal.ok());
        QCOMPARE(journal->size(), std::size_t(1));
        QCOMPARE(journal->front().outcome, QStringLiteral("committed"));
        QCOMPARE(journal->front().user, QStringLiteral("tester"));
        QCOMPARE(journal->front().smps, report.diff.smps());
    }

    void failuresRollBack_data()
    {
        QTest::addColumn<bool>("ignoreLfts");
        QTest::addColumn<bool>("dies");
        QTest::addColumn<QString>("outcome");
        QTest::addColumn<QString>("reason");
        QTest::addRow("read-back mismatch") << true << false << QStringLiteral("rolled-back") << QStringLiteral("read-back does not match the plan");
        QTest::addRow("OpenSM dies") << false << true << QStringLiteral("rollback-failed") << QStringLiteral("still hold the previous tables");
    }

    void failuresRollBack()
    {
        QFETCH(bool, ignoreLfts);
        QFETCH(bool, dies);
        QFETCH(QString, outcome);
        QFETCH(QString, reason);
        Setup s;
        s.opensm.ignoreLfts = ignoreLfts;
        s.opensm.dieOnReload = dies;
        const ForwardingTables before = s.opensm.held;
        const CommitReport report = commitPlan(s.plan(route(s.fabric), twoTenants(s.fabric)), s.target, s.opensm.backend(), s.options);
        QCOMPARE(commitOutcomeName(report.outcome), outcome);
        QVERIFY(report.written);
        QVERIFY2(report.reasons.join(QLatin1Char('\n')).contains(reason), qPrintable(report.toText()));
        QVERIFY(s.filesUnchanged());
        QVERIFY(s.opensm.held == before);
        QCOMPARE(s.opensm.reloads, dies ? 1 : 2);
        const Result<std::vector<CommitJournalEntry>> journal = readJournal(s.options.journalPath);
        QVERIFY(journal.ok());
        QCOMPARE(journal->back().outcome, outcome);
    }

    void stalePlanIsRefused()
    {
        Setup s;
        // The plan was made while a host link was still there; it is gone now.
        const Fabric planned = s.fabric;
        s.opensm.fabric = makeFabric({LinkEndName{QStringLiteral("host 0002"), 1}});
        CommitPlan plan = s.plan(route(planned), twoTenants(planned));
        plan.madeFor = planned;
        const CommitReport report = commitPlan(plan, s.target, s.opensm.backend(), s.options);
        QCOMPARE(commitOutcomeName(report.outcome), QStringLiteral("stale"));
        QVERIFY(!report.written);
        QVERIFY(s.filesUnchanged());
    }

    void openSmNotRunningIsRefused()
    {
        Setup s;
        s.opensm.running = false;
        const CommitReport report = commitPlan(s.plan(route(s.fabric), twoTenants(s.fabric)), s.target, s.opensm.backend(), s.options);
        QCOMPARE(commitOutcomeName(report.outcome), QStringLiteral("refused"));
        QVERIFY2(report.reasons.join(QLatin1Char('\n')).contains(QStringLiteral("is not running")), qPrintable(report.toText()));
        QVERIFY(s.filesUnchanged());
    }

    void pidFile_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<qint64>("pid");
        QTest::addRow("pid and newline") << QByteArray("1234\n") << qint64(1234);
        QTest::addRow("not a number") << QByteArray("opensm\n") << qint64(-1);
        QTest::addRow("empty") << QByteArray() << qint64(-1);
    }

    void pidFile()
    {
        QFETCH(QByteArray, content);
        QFETCH(qint64, pid);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("opensm.pid"));
        QVERIFY(writeFileAtomically(path, content, false).ok());
        const Result<qint64> read = readPidFile(path);
        QCOMPARE(read.ok(), pid > 0);
        if (read.ok())
            QCOMPARE(*read, pid);
        else
            QVERIFY(read.error().toString().contains(QStringLiteral("opensm.pid")));
    }

    void journalAppendsAndReads()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("j.jsonl"));
        const Result<std::vector<CommitJournalEntry>> none = readJournal(path);
        QVERIFY(none.ok());
        QVERIFY(none->empty());
        CommitJournalEntry a;
        a.time = QDateTime(QDate(2024, 5, 1), QTime(12, 0), Qt::UTC);
        a.user = QStringLiteral("alice");
        a.planSummary = QStringLiteral("8 switch tables");
        a.smps = 12;
        a.outcome = QStringLiteral("committed");
        CommitJournalEntry b = a;
        b.user = QStringLiteral("bob");
        b.outcome = QStringLiteral("rolled-back");
        b.details = {QStringLiteral("read-back does not match the plan:"), QStringLiteral("switch x: 3 entries differ")};
        QVERIFY(appendJournalEntry(path, a).ok());
        QVERIFY(appendJournalEntry(path, b).ok());
        const Result<std::vector<CommitJournalEntry>> read = readJournal(path);
        QVERIFY(read.ok());
        QCOMPARE(read->size(), std::size_t(2));
        QCOMPARE(read->at(0).time, a.time);
        QCOMPARE(read->at(0).user, QStringLiteral("alice"));
        QCOMPARE(read->at(0).smps, 12LL);
        QCOMPARE(read->at(1).outcome, QStringLiteral("rolled-back"));
        QCOMPARE(read->at(1).details, b.details);
        QCOMPARE(readAll(path).count('\n'), 2);

        QFile f(path);
        QVERIFY(f.open(QIODevice::Append));
        f.write("not json\n");
        f.close();
        const Result<std::vector<CommitJournalEntry>> broken = readJournal(path);
        QVERIFY(!broken.ok());
        QCOMPARE(broken.error().line, 3);
    }
};

QTEST_GUILESS_MAIN(TestCommit)
#include "tst_commit.moc"
