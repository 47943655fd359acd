// The commit procedure without a fabric: plans refused before anything is written (unsafe,
// stale, OpenSM not running), the write (atomic, with backups), verification and rollback
// against a stand-in OpenSM that loads the files it is pointed at when it gets SIGHUP, and the
// journal. The real thing, under ibsim and OpenSM, is tst_lab_commit.

#include "Commit.h"
#include "CommitJournal.h"
#include "FileDigest.h"
#include "FabricGenerator.h"
#include "GeneratedFabrics.h"
#include "IntentRouting.h"
#include "LftDump.h"
#include "PKeyTables.h"
#include "PartitionsConf.h"
#include "QosConfig.h"
#include "ReconfigurationPlan.h"
#include "RoutingEngine.h"
#include "SafeFile.h"

#include <QFileInfo>
#include <QtTest>

#include <thread>

#include <sys/stat.h>
#include <unistd.h>

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

// Two tenants spread over both leaves, so that their flows meet on the switch links.
QByteArray crossedTenants(const Fabric &fabric)
{
    auto guid = [&fabric](int host) { return QStringLiteral("0x%1=full").arg(hostPort(fabric, host), 16, 16, QLatin1Char('0')); };
    return "Default=0x7fff : ALL=limited, SELF=full ;\n"
        + QStringLiteral("red=0x0001 : %1, %2 ;\nblue=0x0002 : %3, %4 ;\n").arg(guid(0), guid(3), guid(1), guid(2)).toLatin1();
}

// The intent behind crossedTenants: both tenants physically isolated.
Tenancy physicalIntent(PolicyMode mode)
{
    Tenancy intent;
    intent.mode = mode;
    for (const auto &[name, pkey] : {std::pair{"red", 1}, std::pair{"blue", 2}}) {
        Partition p;
        p.name = QLatin1String(name);
        p.pkey = std::uint16_t(pkey);
        p.policy = IsolationPolicy::Physical;
        intent.partitions.push_back(p);
    }
    return intent;
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
    bool dieMidSweep = false;  // with dieOnReload: the LFTs are programmed, the P_Keys are not
    bool restartOnReload = false;  // a supervisor restarts it: a new pid in the pid file, the files loaded
    qint64 pid = 4242;
    int reloads = 0;
    int smpWrites = 0;  // writeTables calls (Weft writing tables without OpenSM)

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
        b.isRunning = [this](qint64 asked) { return running && asked == pid; };
        b.writeTables = [this](const Fabric &, const ForwardingTables &tables, const ForwardingTables &, const PKeyTables &pkeys,
                               const PKeyTables &) -> Status {
            ++smpWrites;
            held = tables;
            heldPKeys = pkeys;
            return Done{};
        };
        b.reload = [this](qint64) -> Status {
            ++reloads;
            if (restartOnReload) {
                pid = 4343;
                writeFileAtomically(target.pidFile, "4343\n", false);
                load();
                return Done{};
            }
            if (dieOnReload) {
                if (dieMidSweep)
                    if (Result<ForwardingTables> t = readLftDumpFile(target.lftsPath, &fabric))
                        held = *t;
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
        // The previous file's red partition names a port this fabric does not have (the fabric
        // has four hosts; this used to read a fifth past the end of the host list).
        previousPartitions = "Default=0x7fff : ALL=limited, SELF=full ;\nred=0x0001 : 0x0002c9fffffff005=full ;\n";
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
        QTest::addColumn<bool>("midSweep");
        QTest::addColumn<QString>("outcome");
        QTest::addColumn<QString>("reason");
        QTest::addRow("read-back mismatch") << true << false << false << QStringLiteral("rolled-back") << QStringLiteral("read-back does not match the plan");
        QTest::addRow("OpenSM dies") << false << true << false << QStringLiteral("rollback-failed") << QStringLiteral("still hold the previous tables");
        QTest::addRow("OpenSM dies mid-sweep") << false << true << true << QStringLiteral("rollback-failed")
                                                << QStringLiteral("hold the previous tables and P_Keys again (written back by Weft through SMPs)");
    }

    void failuresRollBack()
    {
        QFETCH(bool, ignoreLfts);
        QFETCH(bool, dies);
        QFETCH(bool, midSweep);
        QFETCH(QString, outcome);
        QFETCH(QString, reason);
        Setup s;
        s.opensm.ignoreLfts = ignoreLfts;
        s.opensm.dieOnReload = dies;
        s.opensm.dieMidSweep = midSweep;
        const ForwardingTables before = s.opensm.held;
        const CommitReport report = commitPlan(s.plan(route(s.fabric), twoTenants(s.fabric)), s.target, s.opensm.backend(), s.options);
        QCOMPARE(commitOutcomeName(report.outcome), outcome);
        QVERIFY(report.written);
        QVERIFY2(report.reasons.join(QLatin1Char('\n')).contains(reason), qPrintable(report.toText()));
        QVERIFY(s.filesUnchanged());
        QVERIFY(s.opensm.held == before);
        QCOMPARE(s.opensm.reloads, dies ? 1 : 2);
        // Weft writes tables itself only to undo a sweep OpenSM left half done.
        QCOMPARE(s.opensm.smpWrites, midSweep ? 1 : 0);
        const Result<std::vector<CommitJournalEntry>> journal = readJournal(s.options.journalPath);
        QVERIFY(journal.ok());
        QCOMPARE(journal->back().outcome, outcome);
    }

    void smPortIsAskedOfTheFabric()
    {
        // Every port a full member of Default: the P_Key tables cannot tell OpenSM's port.
        const QByteArray allFull = "Default=0x7fff, ipoib : ALL=full ;\n";
        for (const bool asked : {false, true}) {
            Setup s;
            QVERIFY(writeFileAtomically(s.target.partitionsPath, allFull, false).ok());
            s.previousPartitions = allFull;
            s.opensm.load();
            CommitBackend backend = s.opensm.backend();
            const Guid sm = hostPort(s.fabric, 0);
            if (asked)
                backend.findSmPort = [sm](const Fabric &) -> Result<Guid> { return sm; };
            const CommitReport report = commitPlan(s.plan(route(s.fabric), twoTenants(s.fabric)), s.target, backend, s.options);
            if (!asked) {
                QCOMPARE(commitOutcomeName(report.outcome), QStringLiteral("refused"));
                QVERIFY2(report.reasons.join(QLatin1Char('\n')).contains(QStringLiteral("cannot tell which port OpenSM runs on")), qPrintable(report.toText()));
                QVERIFY(s.filesUnchanged());
                continue;
            }
            QVERIFY2(report.ok(), qPrintable(report.toText()));
            QVERIFY(report.steps.contains(QStringLiteral("OpenSM runs on %1 (the master SM's port, from MasterSMLID)").arg(smPortText(s.fabric, sm))));
        }
    }

    void policyViolationsFollowTheMode_data()
    {
        QTest::addColumn<bool>("strict");
        QTest::addColumn<bool>("accept");
        QTest::addColumn<QString>("outcome");
        QTest::addColumn<QString>("reason");
        QTest::addRow("strict") << true << false << QStringLiteral("refused") << QStringLiteral("strict policy mode");
        QTest::addRow("strict, accepted") << true << true << QStringLiteral("refused") << QStringLiteral("strict policy mode");
        QTest::addRow("best-effort") << false << false << QStringLiteral("refused") << QStringLiteral("accept the violations");
        QTest::addRow("best-effort, accepted") << false << true << QStringLiteral("committed") << QString();
    }

    void policyViolationsFollowTheMode()
    {
        QFETCH(bool, strict);
        QFETCH(bool, accept);
        QFETCH(QString, outcome);
        QFETCH(QString, reason);
        Setup s;
        // ftree gives each uplink of a leaf one remote host, one tenant; send hosts 2 and 3 up
        // the same uplink of host 0's leaf, so red (0 -> 3) and blue (1 -> 2) meet there.
        ForwardingTables tables = route(s.fabric);
        const NodeIndex leaf = s.fabric.port(s.fabric.port(s.fabric.portOf(s.fabric.endNodes()[0], 1)).remote).node;
        auto lidOf = [&s](int host) { return s.fabric.port(s.fabric.portOf(s.fabric.endNodes()[std::size_t(host)], 1)).lid; };
        for (std::size_t i = 0; i < tables.size(); ++i)
            if (tables.at(i).guid == s.fabric.node(leaf).guid)
                tables.lft(i).setPort(lidOf(2), tables.lft(i).port(lidOf(3)));
        CommitPlan plan = s.plan(tables, crossedTenants(s.fabric));
        // Without the intent every partition is def-isolation: nothing to say.
        const PlanCheck unaware = checkPlan(s.fabric, plan);
        QVERIFY2(unaware.reasons.isEmpty() && unaware.violations.isEmpty(), qPrintable(unaware.violations.join(QLatin1Char('\n'))));

        plan.intent = physicalIntent(strict ? PolicyMode::Strict : PolicyMode::BestEffort);
        const PlanCheck check = checkPlan(s.fabric, plan);
        QVERIFY(check.reasons.isEmpty());
        QVERIFY2(!check.violations.isEmpty(), "red and blue share an uplink");
        QVERIFY(check.violations.join(QLatin1Char('\n')).contains(QStringLiteral("(phy-isolation)")));

        s.options.acceptViolations = accept;
        const CommitReport report = commitPlan(plan, s.target, s.opensm.backend(), s.options);
        QCOMPARE(commitOutcomeName(report.outcome), outcome);
        QCOMPARE(report.violations, check.violations);
        if (outcome == QLatin1String("refused")) {
            QVERIFY2(report.reasons.join(QLatin1Char('\n')).contains(reason), qPrintable(report.toText()));
            for (const QString &v : check.violations)
                QVERIFY(report.reasons.contains(v));
            QVERIFY(!report.written);
            QVERIFY(s.filesUnchanged());
            QVERIFY(!QFileInfo::exists(backupPath(s.target.lftsPath)));
            QCOMPARE(s.opensm.reloads, 0);
        } else {
            QVERIFY2(report.ok(), qPrintable(report.toText()));
            QVERIFY(report.steps.join(QLatin1Char('\n')).contains(QStringLiteral("isolation violations accepted")));
        }
    }

    // QoS (QosConfig.h): the options file keeps everything but the QoS lines Weft manages, the
    // planned SLs get VLs of their own, and read-backs are judged against them.
    void qosOptionsAndSlToVl()
    {
        const Result<SlToVl> table = planSlToVl({{1, 0}, {2, 3}, {3, 5}});
        QVERIFY(table.ok());
        QCOMPARE(slToVlText(*table), QStringLiteral("0,0,0,1,0,2,0,0,0,0,0,0,0,0,0,0"));
        QVERIFY(!planSlToVl({{1, 1}, {2, 2}, {3, 3}}, 3).ok());
        QVERIFY(!planSlToVl({{1, 15}}).ok());

        const QByteArray options = "force_log_flush TRUE\nqos FALSE # off\nqos_ca_sl2vl 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0\nqos_max_vls 4\n";
        const QByteArray written = withQosOptions(options, *table);
        QVERIFY(written.startsWith("force_log_flush TRUE\nqos_max_vls 4\n"));
        QVERIFY(written.contains("\nqos TRUE\nqos_sl2vl 0,0,0,1,0,2,"));
        QVERIFY(!written.contains("qos FALSE") && !written.contains("qos_ca_sl2vl"));
        QCOMPARE(withQosOptions(written, *table), written);

        const Fabric fabric = makeFabric();
        std::vector<PortSlToVl> read;
        for (PortIndex p = 0; p < PortIndex(fabric.ports().size()); ++p) {
            const Port &port = fabric.port(p);
            if (!port.present || port.remote == kNoIndex)
                continue;
            const Node &node = fabric.node(port.node);
            if (node.type != NodeType::Switch) {
                read.push_back(PortSlToVl{p, 0, *table});
                continue;
            }
            for (int in = 1; in <= node.portCount; ++in)
                if (const PortIndex ip = fabric.portOf(port.node, in); in != port.number && ip != kNoIndex && fabric.port(ip).remote != kNoIndex)
                    read.push_back(PortSlToVl{p, in, *table});
        }
        const std::map<std::uint16_t, int> levels{{1, 0}, {2, 3}, {3, 5}};
        QVERIFY(checkSlToVl(fabric, read, levels, *table).isEmpty());
        QVERIFY(compareSlToVl(fabric, read, read).isEmpty());
        std::vector<PortSlToVl> wrong = read;
        wrong.front().vls[5] = 1;  // SL 5 folded onto SL 3's VL
        const QStringList problems = checkSlToVl(fabric, wrong, levels, *table);
        QCOMPARE(problems.size(), 1);
        QVERIFY2(problems.front().contains(QLatin1String("share VL 1")), qPrintable(problems.front()));
        QCOMPARE(compareSlToVl(fabric, read, wrong).size(), 1);
        wrong.pop_back();
        QVERIFY(checkSlToVl(fabric, wrong, levels, *table).join(QLatin1Char(' ')).contains(QLatin1String("was not read")));
    }

    // Vlane-isolated tenants whose flows meet pass the check when the plan gives them their own
    // SLs, and the planned partitions.conf carries them as sl=.
    void serviceLevelsReachThePlannedPartitions()
    {
        const Fabric fabric = makeFabric();
        QByteArray conf = crossedTenants(fabric);
        conf.replace("red=0x0001 :", "red=0x0001, sl=1 :").replace("blue=0x0002 :", "blue=0x0002, sl=2 :");
        std::vector<Partition> partitions;
        QVERIFY(checkPlan(fabric, route(fabric), conf, QStringLiteral("plan.conf"), &partitions).isEmpty());
        QCOMPARE(partitionServiceLevels(partitions), (std::map<std::uint16_t, int>{{1, 1}, {2, 2}}));
        const std::vector<Partition> planned = withServiceLevels(partitions, {{1, 4}});
        const QByteArray written = writePartitionsConf(planned);
        QVERIFY2(written.contains("red=0x0001, sl=4 :") && written.contains("blue=0x0002, sl=2 :"), written.constData());
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
        const QString reasons = report.reasons.join(QLatin1Char('\n'));
        QVERIFY2(reasons.contains(QStringLiteral("the fabric changed since the plan was made")), qPrintable(reasons));
        QVERIFY2(reasons.contains(QStringLiteral("link gone: ")) && reasons.contains(QStringLiteral("host 0002")), qPrintable(reasons));
        QVERIFY(!report.written);
        QVERIFY(s.filesUnchanged());
        QCOMPARE(s.opensm.reloads, 0);
    }

    void secondCommitIsRefusedWhileOneRuns()
    {
        Setup s;
        // Another commit on the same target (here: its lock, held as a running commit holds it).
        Result<std::unique_ptr<CommitLock>> running = CommitLock::acquire(commitLockPath(s.target));
        QVERIFY2(running.ok(), running.ok() ? "" : qPrintable(running.error().toString()));
        const CommitPlan plan = s.plan(route(s.fabric), twoTenants(s.fabric));
        const CommitReport refused = commitPlan(plan, s.target, s.opensm.backend(), s.options);
        QCOMPARE(commitOutcomeName(refused.outcome), QStringLiteral("refused"));
        const QString reasons = refused.reasons.join(QLatin1Char('\n'));
        QVERIFY2(reasons.contains(QStringLiteral("another commit is running on this target, held by pid %1 on host ").arg(QCoreApplication::applicationPid())),
                 qPrintable(reasons));
        QVERIFY2(reasons.contains(QStringLiteral(" since ")), qPrintable(reasons));
        QVERIFY(!refused.written);
        QVERIFY(s.filesUnchanged());
        QCOMPARE(s.opensm.reloads, 0);

        // With a wait, the commit goes ahead once the other lets go.
        s.options.lockWaitMs = 10000;
        std::thread release([&running]() {
            QThread::msleep(300);
            running->reset();
        });
        QElapsedTimer waited;
        waited.start();
        const CommitReport committed = commitPlan(plan, s.target, s.opensm.backend(), s.options);
        release.join();
        QVERIFY2(committed.ok(), qPrintable(committed.toText()));
        QVERIFY(waited.elapsed() >= 250);
        QVERIFY(!committed.steps.join(QLatin1Char('\n')).contains(QStringLiteral("took over")));
        // Released at the end, and said to be free.
        QVERIFY(readAll(commitLockPath(s.target)).isEmpty());
        QVERIFY(CommitLock::acquire(commitLockPath(s.target)).ok());
    }

    // The lock and the journal are the file's, not its spelling's: through a symbolic link to the
    // target's directory and one to its dump, a second commit is refused beside a running one.
    void lockKeysOnTheFileNotItsSpelling()
    {
        Setup s;
        QTemporaryDir other;
        const QString linkedDir = other.filePath(QStringLiteral("opensm-dir"));
        QVERIFY(QFile::link(s.dir.path(), linkedDir));
        const QString linkedFile = other.filePath(QStringLiteral("opensm.lfts"));
        QVERIFY(QFile::link(s.target.lftsPath, linkedFile));
        for (const QString &spelling : {linkedDir + QStringLiteral("/opensm.lfts"), linkedFile,
                                        s.dir.path() + QStringLiteral("/./opensm.lfts")}) {
            CommitTarget through = s.target;
            through.lftsPath = spelling;
            QCOMPARE(commitLockPath(through), commitLockPath(s.target));
            QCOMPARE(defaultJournalPath(through.routingFile()), defaultJournalPath(s.target.routingFile()));
        }
        Result<std::unique_ptr<CommitLock>> running = CommitLock::acquire(commitLockPath(s.target));
        QVERIFY(running.ok());
        CommitTarget through = s.target;
        through.lftsPath = linkedDir + QStringLiteral("/opensm.lfts");
        const CommitReport refused = commitPlan(s.plan(route(s.fabric), twoTenants(s.fabric)), through, s.opensm.backend(), s.options);
        QCOMPARE(commitOutcomeName(refused.outcome), QStringLiteral("refused"));
        QVERIFY2(refused.reasons.join(QLatin1Char('\n')).contains(QStringLiteral("another commit is running on this target")),
                 qPrintable(refused.reasons.join(QLatin1Char('\n'))));
        QVERIFY(s.filesUnchanged());
        // A file not yet there: its directory resolved.
        CommitTarget fresh = s.target;
        fresh.lftsPath = linkedDir + QStringLiteral("/new.lfts");
        QCOMPARE(commitLockPath(fresh), QFileInfo(s.dir.path()).canonicalFilePath() + QStringLiteral("/new.lfts.weft-lock"));
        // The journal too: a commit interrupted through the link is found by the real path (and
        // the other way round), by the directory's identity and the file's name.
        CommitJournalEntry interrupted;
        interrupted.id = QStringLiteral("through-the-link");
        interrupted.outcome = QLatin1String(kJournalWritten);
        interrupted.lftsPath = linkedDir + QStringLiteral("/opensm.lfts");
        interrupted.files = {interrupted.lftsPath};
        QVERIFY(unfinishedCommit({interrupted}, s.target.lftsPath).has_value());
        QVERIFY(unfinishedCommit({interrupted}, s.dir.path() + QStringLiteral("/./opensm.lfts")).has_value());
        QVERIFY(!unfinishedCommit({interrupted}, s.dir.filePath(QStringLiteral("other.lfts"))).has_value());
        QVERIFY(sameFile(linkedDir + QStringLiteral("/partitions.conf"), s.target.partitionsPath));
        QVERIFY(!sameFile(linkedDir + QStringLiteral("/partitions.conf"), s.target.lftsPath));
    }

    // OpenSM restarted by its supervisor while the commit waits for its sweep (a new pid in its
    // pid file, started on the new files): followed, verified, and named in the report.
    void restartedOpenSmIsFollowed()
    {
        Setup s;
        s.opensm.restartOnReload = true;
        const CommitPlan plan = s.plan(route(s.fabric), twoTenants(s.fabric));
        const CommitReport report = commitPlan(plan, s.target, s.opensm.backend(), s.options);
        QVERIFY2(report.ok(), qPrintable(report.toText()));
        QVERIFY2(report.toText().contains(QStringLiteral("OpenSM was restarted while the commit ran: pid 4242 is gone, pid 4343 (from %1) runs")
                                              .arg(s.target.pidFile)),
                 qPrintable(report.toText()));
    }

    // A pid names OpenSM only with the start time it had: a process given the same number later
    // has another (what the commit checks before trusting a pid that still runs).
    void processStartTimeTellsAReusedPid()
    {
        const quint64 self = processStartTime(QCoreApplication::applicationPid());
        QVERIFY(self > 0);
        QCOMPARE(processStartTime(QCoreApplication::applicationPid()), self);
        QProcess later;
        QTest::qWait(20);  // start times count in clock ticks (10 ms)
        later.start(QStringLiteral("sleep"), {QStringLiteral("5")});
        QVERIFY(later.waitForStarted());
        QVERIFY(processStartTime(later.processId()) > self);
        later.kill();
        later.waitForFinished();
        QCOMPARE(processStartTime(-1), quint64(0));
    }

    void staleCommitLockIsTakenOver()
    {
        Setup s;
        // A Weft killed while committing: its lock went with it, its name stayed in the file.
        const QByteArray dead = "pid 999999 on host gone since 2026-01-01T00:00:00Z (user mallory)\n";
        QVERIFY(writeFileAtomically(commitLockPath(s.target), dead, false).ok());
        const CommitReport report = commitPlan(s.plan(route(s.fabric), twoTenants(s.fabric)), s.target, s.opensm.backend(), s.options);
        QVERIFY2(report.ok(), qPrintable(report.toText()));
        QVERIFY2(report.steps.join(QLatin1Char('\n')).contains(QStringLiteral("took over the commit lock %1 from pid 999999 on host gone")
                                                                .arg(commitLockPath(s.target))),
                 qPrintable(report.toText()));
        QVERIFY(readAll(commitLockPath(s.target)).isEmpty());
    }

    void interruptedCommitIsFoundAndRecovered_data()
    {
        QTest::addColumn<QString>("diesAt");
        QTest::addColumn<bool>("fabricLoadsThePlan");
        QTest::addColumn<QString>("outcome");
        QTest::addRow("killed after SIGHUP, plan holds") << QStringLiteral("reload") << true << QStringLiteral("committed");
        QTest::addRow("killed after SIGHUP, plan does not hold") << QStringLiteral("reload") << false << QStringLiteral("rolled-back");
        QTest::addRow("killed while writing") << QStringLiteral("write") << true << QStringLiteral("rolled-back");
    }

    void interruptedCommitIsFoundAndRecovered()
    {
        QFETCH(QString, diesAt);
        QFETCH(bool, fabricLoadsThePlan);
        QFETCH(QString, outcome);
        Setup s;
        const ForwardingTables before = s.opensm.held;
        const ForwardingTables planned = route(s.fabric);
        const CommitPlan plan = s.plan(planned, twoTenants(s.fabric));
        if (diesAt == QLatin1String("reload")) {
            // Weft dies once OpenSM is told to reload (an exception stands in for SIGKILL:
            // nothing after it runs, the journal gets no outcome).
            CommitBackend dying = s.opensm.backend();
            dying.reload = [](qint64) -> Status { throw std::runtime_error("killed"); };
            QVERIFY_THROWS_EXCEPTION(std::runtime_error, commitPlan(plan, s.target, dying, s.options));
            QVERIFY(!s.filesUnchanged());
        } else {
            // Killed while writing: the intent is journalled, the backups made, one file written.
            CommitJournalEntry intent;
            intent.id = QStringLiteral("half-written");
            intent.time = QDateTime::currentDateTimeUtc();
            intent.user = QStringLiteral("tester");
            intent.planSummary = QStringLiteral("by hand");
            intent.outcome = QLatin1String(kJournalInProgress);
            intent.lftsPath = s.target.lftsPath;
            intent.partitionsPath = s.target.partitionsPath;
            intent.files = {s.target.lftsPath, s.target.partitionsPath};
            intent.backups = {backupPath(s.target.lftsPath), backupPath(s.target.partitionsPath)};
            QVERIFY(appendJournalEntry(s.options.journalPath, intent).ok());
            QVERIFY(writeFileAtomically(s.target.partitionsPath, s.previousPartitions).ok());
            QVERIFY(writeFileAtomically(s.target.lftsPath, writeLftDump(planned, &s.fabric)).ok());
        }
        Result<std::vector<CommitJournalEntry>> journal = readJournal(s.options.journalPath);
        QVERIFY(journal.ok());
        const std::optional<CommitJournalEntry> unfinished = unfinishedCommit(*journal, s.target.lftsPath);
        QVERIFY(unfinished.has_value());
        QCOMPARE(unfinished->outcome, QLatin1String(diesAt == QLatin1String("write") ? kJournalInProgress : kJournalWritten));
        QCOMPARE(unfinished->files, (QStringList{s.target.lftsPath, s.target.partitionsPath}));
        QCOMPARE(unfinished->backups, (QStringList{backupPath(s.target.lftsPath), backupPath(s.target.partitionsPath)}));
        // The lock went with the dead commit.
        QVERIFY(CommitLock::acquire(commitLockPath(s.target)).ok());

        // The next commit finds it and refuses until it is recovered.
        const CommitReport next = commitPlan(plan, s.target, s.opensm.backend(), s.options);
        QCOMPARE(commitOutcomeName(next.outcome), QStringLiteral("refused"));
        QVERIFY2(next.reasons.join(QLatin1Char('\n')).contains(QStringLiteral("an unfinished commit is in the journal: started")), qPrintable(next.toText()));
        QVERIFY2(next.reasons.join(QLatin1Char('\n')).contains(QStringLiteral("weft commit --recover")), qPrintable(next.toText()));
        QVERIFY(!next.written);

        s.opensm.ignoreLfts = !fabricLoadsThePlan;
        const int reloads = s.opensm.reloads;
        const CommitReport recovered = recoverCommit(s.target, s.opensm.backend(), s.options);
        QCOMPARE(commitOutcomeName(recovered.outcome), outcome);
        QVERIFY(s.opensm.reloads > reloads);
        if (outcome == QLatin1String("committed")) {
            QVERIFY(s.opensm.held == planned);
            QCOMPARE(readAll(backupPath(s.target.lftsPath)), s.previousLfts);
        } else {
            QVERIFY(s.filesUnchanged());
            QVERIFY(s.opensm.held == before);
            QVERIFY2(recovered.steps.join(QLatin1Char('\n')).contains(QStringLiteral("the fabric holds the previous state")), qPrintable(recovered.toText()));
        }
        // The journal closes the interrupted commit with what happened, under its id.
        journal = readJournal(s.options.journalPath);
        QVERIFY(journal.ok());
        QVERIFY(!unfinishedCommit(*journal, s.target.lftsPath));
        const auto closed = std::find_if(journal->begin(), journal->end(), [&](const CommitJournalEntry &e) { return e.id == unfinished->id; });
        QVERIFY(closed != journal->end());
        QCOMPARE(closed->outcome, outcome);
        QVERIFY2(closed->details.join(QLatin1Char('\n')).contains(QStringLiteral("recovered by `weft commit --recover`")), qPrintable(closed->details.join(QLatin1Char('\n'))));
        // Nothing left to recover; a new commit goes ahead.
        const CommitReport again = recoverCommit(s.target, s.opensm.backend(), s.options);
        QVERIFY2(again.steps.join(QLatin1Char('\n')).contains(QStringLiteral("nothing to recover")), qPrintable(again.toText()));
        s.opensm.ignoreLfts = false;
        QVERIFY2(commitPlan(plan, s.target, s.opensm.backend(), s.options).ok(), "a commit after the recovery");
    }

    // Weft's engine inside OpenSM and an intent that applies a studio candidate's method to the
    // tables the switches hold (IntentRouting.h: `apply`): what it installs is the plan's tables,
    // not what its engine routes. The commit keeps them beside the journal before the intent goes
    // in; the recovery of a commit interrupted after SIGHUP verifies the fabric against them and
    // finds it committed. Without them it cannot know what the intent installs: it says so, and
    // rolls back to the previous intent, verified against what that one routes.
    void interruptedApplyIntentIsVerifiedAgainstThePlansTables_data()
    {
        QTest::addColumn<bool>("tablesKept");
        QTest::addColumn<QString>("outcome");
        QTest::addRow("the plan's tables kept") << true << QStringLiteral("committed");
        QTest::addRow("the plan's tables gone") << false << QStringLiteral("rolled-back");
    }
    void interruptedApplyIntentIsVerifiedAgainstThePlansTables()
    {
        QFETCH(bool, tablesKept);
        QFETCH(QString, outcome);
        Setup s;
        s.target.intentPath = s.dir.filePath(QStringLiteral("intent.weft"));
        Project engine;
        engine.routingEngine = QStringLiteral("ftree");
        const QByteArray previousIntent = writeProject(engine);
        QVERIFY(writeFileAtomically(s.target.intentPath, previousIntent, false).ok());
        const Result<ForwardingTables> before = routeIntentFile(s.fabric, previousIntent, QStringLiteral("intent.weft"));
        QVERIFY(before);
        s.opensm.held = *before;
        s.opensm.ignoreLfts = true;  // OpenSM routes by the intent (below), not by an LFT dump

        // The method's tables from the held ones: not what the intent's engine routes.
        const ForwardingTables planned = route(s.fabric, QStringLiteral("minhop"));
        QVERIFY(planned != *before);
        CandidateSpec slim;
        slim.kind = CandidateKind::SlimUpdate;
        CommitPlan plan = s.plan(planned, twoTenants(s.fabric));
        plan.intentFile = writeProject(withApply(engine, slim, heldTablesStamp(s.fabric, *before)));
        plan.keepTablesWithJournal = true;
        const Result<ForwardingTables> byEngine = routeIntentFile(s.fabric, plan.intentFile, QStringLiteral("intent.weft"));
        QVERIFY2(!byEngine && byEngine.error().message.contains(QLatin1String("no tables of its plan are kept")),
                 "an apply intent's tables are not its engine's");

        // The plugin: on SIGHUP the switches get the plan's tables for the plan's intent, the
        // previous ones for the previous intent.
        CommitBackend backend = s.opensm.backend();
        backend.routeIntent = routeIntentFile;
        backend.reload = [&s, &plan, &planned, &before, load = backend.reload](qint64 pid) -> Status {
            const Status reloaded = load(pid);
            s.opensm.held = readAll(s.target.intentPath) == plan.intentFile ? planned : *before;
            return reloaded;
        };
        CommitBackend dying = backend;
        dying.reload = [](qint64) -> Status { throw std::runtime_error("killed"); };
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, commitPlan(plan, s.target, dying, s.options));
        QCOMPARE(readAll(s.target.intentPath), plan.intentFile);
        const QString kept = journalTablesPath(s.options.journalPath, sha256Hex(plan.intentFile));
        const Result<ForwardingTables> keptTables = readLftDumpFile(kept, &s.fabric);
        QVERIFY2(keptTables, "the commit keeps the plan's tables beside the journal before the intent goes in");
        QVERIFY(*keptTables == planned);
        if (!tablesKept)
            QVERIFY(QFile::remove(kept));

        const CommitReport recovered = recoverCommit(s.target, backend, s.options);
        QCOMPARE(commitOutcomeName(recovered.outcome), outcome);
        if (tablesKept) {
            QVERIFY(s.opensm.held == planned);
            QCOMPARE(readAll(s.target.intentPath), plan.intentFile);
        } else {
            QVERIFY2(recovered.reasons.join(QLatin1Char('\n')).contains(QLatin1String("no tables of its plan are kept")), qPrintable(recovered.toText()));
            QVERIFY(s.opensm.held == *before);
            QCOMPARE(readAll(s.target.intentPath), previousIntent);
        }
    }

    // What the interrupted commit wrote and kept is held to the journal's digests: a file or a
    // backup someone changed after the crash is refused, named; with --force recovery goes on,
    // and what it would verify passes the plan check first.
    void recoveryHoldsTheDiskToTheJournal_data()
    {
        QTest::addColumn<QString>("change");
        QTest::addRow("partitions.conf edited") << QStringLiteral("partitions");
        QTest::addRow("backup of the LFT dump edited") << QStringLiteral("backup");
        QTest::addRow("LFT dump edited, forced: plan check fails") << QStringLiteral("lfts-forced");
    }

    void recoveryHoldsTheDiskToTheJournal()
    {
        QFETCH(QString, change);
        Setup s;
        const ForwardingTables before = s.opensm.held;
        const ForwardingTables planned = route(s.fabric);
        const CommitPlan plan = s.plan(planned, twoTenants(s.fabric));
        CommitBackend dying = s.opensm.backend();
        dying.reload = [](qint64) -> Status { throw std::runtime_error("killed"); };
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, commitPlan(plan, s.target, dying, s.options));
        Result<std::vector<CommitJournalEntry>> journal = readJournal(s.options.journalPath);
        QVERIFY(journal.ok());
        const std::optional<CommitJournalEntry> unfinished = unfinishedCommit(*journal, s.target.lftsPath);
        QVERIFY(unfinished.has_value());
        QCOMPARE(unfinished->replacedDigests.size(), qsizetype(2));
        QCOMPARE(unfinished->writtenDigests.size(), qsizetype(2));
        QCOMPARE(unfinished->writtenDigests[1], sha256Hex(readAll(s.target.partitionsPath)));
        QCOMPARE(unfinished->writtenDigests[0], sha256Hex(readAll(s.target.lftsPath)));
        QCOMPARE(unfinished->replacedDigests[0], sha256Hex(s.previousLfts));

        QString named;
        if (change == QLatin1String("partitions")) {
            // A host added to a partition by hand.
            QVERIFY(writeFileAtomically(s.target.partitionsPath, readAll(s.target.partitionsPath) + "\nBlue=0x0b00 : 0x0002c91000000001 ;\n", false).ok());
            named = s.target.partitionsPath;
        } else if (change == QLatin1String("backup")) {
            QFile backup(backupPath(s.target.lftsPath));
            QVERIFY(backup.open(QIODevice::Append));
            backup.write("# edited\n");
            backup.close();
            named = backupPath(s.target.lftsPath);
        } else {
            // Every switch's table emptied: a dump that routes nothing.
            ForwardingTables empty;
            for (const SwitchForwardingTable &sw : planned.switches())
                empty.addSwitch(sw.guid);
            QVERIFY(writeFileAtomically(s.target.lftsPath, writeLftDump(empty, &s.fabric), false).ok());
            named = s.target.lftsPath;
            s.options.recoverChangedFiles = true;
        }
        const QByteArray lftsNow = readAll(s.target.lftsPath), partitionsNow = readAll(s.target.partitionsPath);
        const int reloads = s.opensm.reloads;
        const CommitReport recovered = recoverCommit(s.target, s.opensm.backend(), s.options);
        const QString text = recovered.toText();
        QVERIFY2(text.contains(named + QStringLiteral(": ")), qPrintable(text));
        if (!s.options.recoverChangedFiles) {
            QCOMPARE(commitOutcomeName(recovered.outcome), QStringLiteral("refused"));
            QVERIFY2(text.contains(QStringLiteral("--force")), qPrintable(text));
            // Nothing was touched, and the commit is still unfinished.
            QCOMPARE(s.opensm.reloads, reloads);
            QCOMPARE(readAll(s.target.lftsPath), lftsNow);
            QCOMPARE(readAll(s.target.partitionsPath), partitionsNow);
            journal = readJournal(s.options.journalPath);
            QVERIFY(journal.ok() && unfinishedCommit(*journal, s.target.lftsPath).has_value());
        } else {
            // Forced past the digests, the edited dump fails the plan check: the backups go back.
            QCOMPARE(commitOutcomeName(recovered.outcome), QStringLiteral("rolled-back"));
            QVERIFY2(text.contains(QStringLiteral("does not pass the plan check")), qPrintable(text));
            QVERIFY2(s.opensm.held == before, qPrintable(text));
        }
    }

    // A partitions.conf edited by hand since Weft wrote it: the next commit refuses, showing the
    // edit as a diff against the copy the journal kept; with --force it replaces it (the edit
    // kept as the backup). Backups come in generations.
    void operatorEditIsRefusedWithItsDiff()
    {
        Setup s;
        const CommitPlan plan = s.plan(route(s.fabric), twoTenants(s.fabric));
        CommitReport first = commitPlan(plan, s.target, s.opensm.backend(), s.options);
        QVERIFY2(first.ok(), qPrintable(first.toText()));
        const QByteArray weftWrote = readAll(s.target.partitionsPath);
        const QByteArray edited = weftWrote + "\nBlue=0x0b00 : 0x0002c91000000001 ;\n";
        QVERIFY(writeFileAtomically(s.target.partitionsPath, edited, false).ok());

        const CommitReport refused = commitPlan(plan, s.target, s.opensm.backend(), s.options);
        const QString text = refused.toText();
        QCOMPARE(commitOutcomeName(refused.outcome), QStringLiteral("refused"));
        QVERIFY2(text.contains(s.target.partitionsPath + QStringLiteral(" changed since Weft last wrote it")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("+Blue=0x0b00 : 0x0002c91000000001 ;")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("--force")), qPrintable(text));
        QVERIFY(!refused.written);
        QCOMPARE(readAll(s.target.partitionsPath), edited);

        s.options.overwriteEdits = true;
        const CommitReport forced = commitPlan(plan, s.target, s.opensm.backend(), s.options);
        QVERIFY2(forced.ok(), qPrintable(forced.toText()));
        QCOMPARE(readAll(s.target.partitionsPath), weftWrote);
        QCOMPARE(readAll(backupPath(s.target.partitionsPath)), edited);
        QCOMPARE(readAll(backupPath(s.target.partitionsPath, 1)), s.previousPartitions);
        // No edit since: the next commit goes ahead without --force.
        s.options.overwriteEdits = false;
        QVERIFY2(commitPlan(plan, s.target, s.opensm.backend(), s.options).ok(), "a commit with nothing edited");
        // Three generations: what Weft wrote, the edit, what was there before Weft; no fourth.
        QCOMPARE(readAll(backupPath(s.target.partitionsPath)), weftWrote);
        QCOMPARE(readAll(backupPath(s.target.partitionsPath, 1)), edited);
        QCOMPARE(readAll(backupPath(s.target.partitionsPath, 2)), s.previousPartitions);
        QVERIFY(!QFileInfo::exists(backupPath(s.target.partitionsPath, 3)));
    }

    void replacedFilesKeepTheirModeAndOwner_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addRow("0600") << 0600;
        QTest::addRow("0640") << 0640;
        QTest::addRow("0664 (wider than the umask)") << 0664;
    }

    void replacedFilesKeepTheirModeAndOwner()
    {
        QFETCH(int, mode);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("opensm.lfts"));
        QVERIFY(writeFileAtomically(path, "old\n", false).ok());
        QCOMPARE(::chmod(QFile::encodeName(path).constData(), mode_t(mode)), 0);
        // A group of the user's other than the file's, where there is one: kept too.
        std::vector<gid_t> groups(std::size_t(std::max(::getgroups(0, nullptr), 0)));
        groups.resize(std::size_t(std::max(::getgroups(int(groups.size()), groups.data()), 0)));
        struct stat before = {};
        QCOMPARE(::stat(QFile::encodeName(path).constData(), &before), 0);
        for (gid_t g : groups)
            if (g != before.st_gid && ::chown(QFile::encodeName(path).constData(), uid_t(-1), g) == 0)
                break;
        QCOMPARE(::stat(QFile::encodeName(path).constData(), &before), 0);
        const mode_t oldMask = ::umask(022);
        const Status written = writeFileAtomically(path, "new\n");
        ::umask(oldMask);
        QVERIFY(written.ok());
        struct stat after = {}, backup = {};
        QCOMPARE(::stat(QFile::encodeName(path).constData(), &after), 0);
        QCOMPARE(::stat(QFile::encodeName(backupPath(path)).constData(), &backup), 0);
        QCOMPARE(int(after.st_mode & 07777), mode);
        QCOMPARE(after.st_uid, before.st_uid);
        QCOMPARE(after.st_gid, before.st_gid);
        QVERIFY(after.st_ino != before.st_ino);  // a new file, renamed over the old one
        QCOMPARE(int(backup.st_mode & 07777), mode);
        QCOMPARE(readAll(path), QByteArray("new\n"));
        QCOMPARE(readAll(backupPath(path)), QByteArray("old\n"));
    }

    void plantedLinkAtTheBackupIsNotFollowed_data()
    {
        QTest::addColumn<bool>("fileIsALink");
        QTest::addRow("backup kept as a hard link") << false;
        QTest::addRow("backup copied (the file is a symbolic link)") << true;
    }

    void plantedLinkAtTheBackupIsNotFollowed()
    {
        QFETCH(bool, fileIsALink);
        QTemporaryDir dir;
        const QString victim = dir.filePath(QStringLiteral("victim"));
        const QString real = dir.filePath(QStringLiteral("real.lfts"));
        const QString path = fileIsALink ? dir.filePath(QStringLiteral("opensm.lfts")) : real;
        QVERIFY(writeFileAtomically(victim, "precious\n", false).ok());
        QVERIFY(writeFileAtomically(real, "old\n", false).ok());
        if (fileIsALink)
            QVERIFY(QFile::link(real, path));
        // Someone with access to the directory plants FILE.bak -> a file of theirs to clobber.
        QVERIFY(QFile::link(victim, backupPath(path)));
        QVERIFY(writeFileAtomically(path, "new\n").ok());
        QCOMPARE(readAll(victim), QByteArray("precious\n"));
        const QFileInfo backup(backupPath(path));
        QVERIFY(!backup.isSymLink());
        QVERIFY(backup.isFile());
        QCOMPARE(readAll(backupPath(path)), QByteArray("old\n"));
        QCOMPARE(readAll(path), QByteArray("new\n"));
    }

    // A subnet's other SM (a standby) gets the plan in its own files: staged with the master's,
    // switched in with them, verified by content; a failed commit restores them too; one that
    // cannot be written stops the commit before any SM changes; an interrupted commit is found
    // by the subnet's name and its recovery covers the standby.
    void standbyFilesFollowTheCommit_data()
    {
        QTest::addColumn<QString>("how");
        QTest::addRow("committed") << QStringLiteral("committed");
        QTest::addRow("read-back fails, rolled back") << QStringLiteral("rolled-back");
        QTest::addRow("standby not writable") << QStringLiteral("unwritable");
        QTest::addRow("interrupted, recovered by rollback") << QStringLiteral("interrupted");
    }

    void standbyFilesFollowTheCommit()
    {
        QFETCH(QString, how);
        Setup s;
        const QString sm2 = s.dir.filePath(QStringLiteral("sm2"));
        QVERIFY(QDir().mkpath(sm2));
        CommitTarget::Standby standby;
        standby.name = QStringLiteral("sm2");
        standby.lftsPath = sm2 + QStringLiteral("/opensm.lfts");
        standby.partitionsPath = (how == QLatin1String("unwritable") ? s.dir.filePath(QStringLiteral("no-such-dir")) : sm2) + QStringLiteral("/partitions.conf");
        QVERIFY(writeFileAtomically(standby.lftsPath, s.previousLfts, false));
        if (how != QLatin1String("unwritable"))
            QVERIFY(writeFileAtomically(standby.partitionsPath, s.previousPartitions, false));
        s.target.standbys = {standby};
        s.target.name = QStringLiteral("sm1");
        s.target.subnet = QStringLiteral("lab");
        s.target.lockPath = s.dir.filePath(QStringLiteral("subnet.json"));
        QVERIFY(commitLockPaths(s.target).size() == 3);
        const ForwardingTables planned = route(s.fabric);
        const CommitPlan plan = s.plan(planned, twoTenants(s.fabric));
        auto standbyUnchanged = [&] {
            return readAll(standby.lftsPath) == s.previousLfts && readAll(standby.partitionsPath) == s.previousPartitions;
        };

        if (how == QLatin1String("unwritable")) {
            const CommitReport report = commitPlan(plan, s.target, s.opensm.backend(), s.options);
            QCOMPARE(commitOutcomeName(report.outcome), QStringLiteral("refused"));
            QVERIFY2(report.reasons.join(QLatin1Char('\n')).contains(QStringLiteral("standby sm2's files cannot be written, so no SM was changed")),
                     qPrintable(report.toText()));
            QVERIFY(!report.written);
            QVERIFY(s.filesUnchanged());
            QCOMPARE(readAll(standby.lftsPath), s.previousLfts);
            QCOMPARE(s.opensm.reloads, 0);
            // The master's file staged beside it is gone again.
            const QStringList left = QDir(s.dir.path()).entryList({QStringLiteral(".*.weft-*")}, QDir::Files | QDir::Hidden);
            QVERIFY2(left.isEmpty(), qPrintable(left.join(QLatin1Char(' '))));
            return;
        }
        if (how == QLatin1String("interrupted")) {
            CommitBackend dying = s.opensm.backend();
            dying.reload = [](qint64) -> Status { throw std::runtime_error("killed"); };
            QVERIFY_THROWS_EXCEPTION(std::runtime_error, commitPlan(plan, s.target, dying, s.options));
            QVERIFY(!standbyUnchanged());
            Result<std::vector<CommitJournalEntry>> journal = readJournal(s.options.journalPath);
            QVERIFY(journal.ok());
            // Found by the subnet's name, whichever SM's files the next commit starts from.
            const std::optional<CommitJournalEntry> unfinished = unfinishedCommit(*journal, QStringLiteral("/elsewhere/opensm.lfts"), QStringLiteral("lab"));
            QVERIFY(unfinished.has_value());
            QVERIFY(unfinished->files.contains(standby.partitionsPath));
            QVERIFY(unfinishedCommit(*journal, QStringLiteral("/elsewhere/opensm.lfts"), QString(), {standby.lftsPath}).has_value());
            CommitOptions rollback = s.options;
            rollback.recoverByRollback = true;
            const CommitReport recovered = recoverCommit(s.target, s.opensm.backend(), rollback);
            QCOMPARE(commitOutcomeName(recovered.outcome), QStringLiteral("rolled-back"));
            QVERIFY(s.filesUnchanged());
            QVERIFY2(standbyUnchanged(), qPrintable(recovered.toText()));
            return;
        }
        s.opensm.ignoreLfts = how == QLatin1String("rolled-back");
        const CommitReport report = commitPlan(plan, s.target, s.opensm.backend(), s.options);
        QCOMPARE(commitOutcomeName(report.outcome), how);
        const Result<std::vector<CommitJournalEntry>> journal = readJournal(s.options.journalPath);
        QVERIFY(journal.ok() && !journal->empty());
        const CommitJournalEntry &entry = journal->back();
        QCOMPARE(entry.subnet, QStringLiteral("lab"));
        QCOMPARE(entry.sms.size(), 2);
        QCOMPARE(entry.sms[0].toObject().value(QStringLiteral("role")).toString(), QStringLiteral("master"));
        QCOMPARE(entry.sms[1].toObject().value(QStringLiteral("name")).toString(), QStringLiteral("sm2"));
        QVERIFY(entry.files.contains(standby.lftsPath) && entry.files.contains(standby.partitionsPath));
        if (how == QLatin1String("committed")) {
            QCOMPARE(readAll(standby.partitionsPath), readAll(s.target.partitionsPath));
            QCOMPARE(readAll(standby.lftsPath), readAll(s.target.lftsPath));
            QCOMPARE(readAll(backupPath(standby.partitionsPath)), s.previousPartitions);
            QVERIFY2(report.steps.join(QLatin1Char('\n')).contains(QStringLiteral("standby sm2: wrote")), qPrintable(report.toText()));
            QCOMPARE(entry.sms[1].toObject().value(QStringLiteral("outcome")).toString(), QStringLiteral("files verified"));
        } else {
            QVERIFY(s.filesUnchanged());
            QVERIFY2(standbyUnchanged(), qPrintable(report.toText()));
            QVERIFY2(report.steps.join(QLatin1Char('\n')).contains(QStringLiteral("the other subnet managers' files hold what they held before")),
                     qPrintable(report.toText()));
            QCOMPARE(entry.sms[1].toObject().value(QStringLiteral("outcome")).toString(), QStringLiteral("restored"));
        }
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
