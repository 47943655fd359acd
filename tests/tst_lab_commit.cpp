// `weft commit` against the real OpenSM under ibsim (file engine, -U and -P files in a private
// directory): a pftree routing for two tenants is committed and the independent tools
// (dump_lfts, smpquery pkeys) read back exactly the planned tables and P_Keys; and the faults:
// a partitions.conf OpenSM would reject, a link pulled between preview and commit, a forwarding
// table changed on a switch behind Weft's back (a real read-back mismatch), OpenSM killed during
// the commit. In each the fabric ends in a known,
// verified state and the operator's plan files are untouched. Crash safety: a second commit is
// refused while one runs; a commit killed (SIGKILL) after writing, after SIGHUP or during
// verification is found by the next and `weft commit --recover` verifies the fabric. `weft lab
// --no-gui` runs the whole loop once; `weft lab` stops ibsim and OpenSM on SIGINT and SIGTERM.

#include "Commit.h"
#include "CommitJournal.h"
#include "FabricGenerator.h"
#include "LftDump.h"
#include "PKeyTables.h"
#include "PartitionsConf.h"
#include "ProjectFile.h"
#include "Partitions.h"
#include "RoutingEngine.h"
#include "SafeFile.h"
#include "LabTools.h"
#include "SimulatedFabric.h"
#include "TopologyFile.h"
#include "WeftRunner.h"

#include <QtTest>

#include <csignal>
#include <set>

using namespace weft;

namespace {

using test::describe;
using test::readAll;
using test::smpqueryPKeys;

QString weftBinary() { return qEnvironmentVariable("WEFT_BINARY"); }
QString lftPokeBinary() { return qEnvironmentVariable("WEFT_LFT_POKE"); }
QString lftKillLibrary()
{
    return qEnvironmentVariable("WEFT_OSM_LFT_KILL");
}

// A lab: a generated 4-ary 2-tree under ibsim, OpenSM with `-R file -U -P`, started on ftree
// tables and a partitions.conf with only the default partition; a plan (pftree for two
// tenants) made against the fabric as ibnetdiscover sees it.
struct Lab
{
    QTemporaryDir dir;
    GeneratedFabric generated;
    std::unique_ptr<SimulatedFabric> sim;
    Fabric live;          // from ibnetdiscover: the preview
    QString lfts, partitions, pidFile, topology, planLfts, planPartitions;
    QByteArray initialLfts, initialPartitions;
    ForwardingTables planTables;
    std::vector<Partition> planPartitionsModel;
    Guid smPort = 0;

    QString path(const char *name) const { return dir.filePath(QLatin1String(name)); }

    // `initialConf`: OpenSM's partitions.conf at start; empty: the default partition alone,
    // limited for all but OpenSM's own port. `killArm`: OpenSM runs with the LFT kill shim
    // (tests/tools/osm_lft_kill.cpp), armed while that file exists.
    QString start(const QByteArray &initialConf = {}, const QString &killArm = {})
    {
        GeneratorOptions o;
        o.arity = 4;
        o.levels = 2;
        o.linkSpeed = LinkSpeed::SDR;
        Result<GeneratedFabric> g = generateFabric(o);
        if (!g)
            return g.error().toString();
        generated = std::move(*g);
        const Fabric &fabric = generated.fabric;
        const NodeIndex smHost = fabric.endNodes().front();
        smPort = fabric.port(fabric.portOf(smHost, 1)).guid;
        lfts = path("opensm.lfts");
        partitions = path("partitions.conf");
        pidFile = path("opensm.pid");
        topology = path("preview.topo");
        planLfts = path("plan.lfts");
        planPartitions = path("plan-partitions.conf");
        Result<Routing> ftree = routeFabric(QStringLiteral("ftree"), fabric, Tenancy{});
        if (!ftree)
            return ftree.error().toString();
        initialLfts = writeLftDump(ftree->tables, &fabric);
        initialPartitions = initialConf.isEmpty() ? writePartitionsConf(withExplicitDefault({})) : initialConf;
        writeFileAtomically(lfts, initialLfts, false);
        writeFileAtomically(partitions, initialPartitions, false);
        QStringList openSmEnvironment;
        if (!killArm.isEmpty())
            openSmEnvironment << QStringLiteral("LD_PRELOAD=%1:%2").arg(lftKillLibrary(), SimulatedFabric::umad2simLibrary())
                              << QStringLiteral("WEFT_TEST_LFT_KILL_ARM=") + killArm;
        auto started = test::startFileRoutedLab(fabric, smHost, path("fabric.net"), lfts, partitions, pidFile, {}, openSmEnvironment);
        if (!started)
            return started.error().toString();
        sim = std::move(*started);

        // Preview: the fabric as the diagnostic tools see it (OpenSM's LIDs), and a plan on it.
        Result<Fabric> f = test::discoverWithIbnetdiscover(*sim, topology);
        if (!f)
            return f.error().toString();
        live = std::move(*f);

        std::vector<Partition> tenants;
        for (int t = 0; t < 2; ++t) {
            std::vector<Guid> members;
            for (std::size_t h = std::size_t(t); h < generated.hosts.size(); h += 2)
                members.push_back(fabric.port(fabric.portOf(generated.hosts[h], 1)).guid);
            tenants.push_back(test::partition(t ? QStringLiteral("blue") : QStringLiteral("red"), std::uint16_t(t + 1), members));
        }
        planPartitionsModel = withExplicitDefault(tenants);
        Tenancy tenancy;
        tenancy.partitions = planPartitionsModel;
        Result<Routing> pftree = routeFabric(QStringLiteral("pftree"), live, tenancy);
        if (!pftree)
            return pftree.error().toString();
        planTables = pftree->tables;
        writeFileAtomically(planLfts, writeLftDump(planTables, &live), false);
        writeFileAtomically(planPartitions, writePartitionsConf(planPartitionsModel), false);
        return {};
    }

    QStringList commitArgs() const
    {
        return {QStringLiteral("commit"), QStringLiteral("--plan-lfts"), planLfts, QStringLiteral("--plan-partitions"), planPartitions,
                QStringLiteral("--plan-topology"), topology, QStringLiteral("--opensm-lfts"), lfts,
                QStringLiteral("--opensm-partitions"), partitions, QStringLiteral("--opensm-pidfile"), pidFile,
                QStringLiteral("--opensm-log"), sim->openSmLogPath(), QStringLiteral("--timeout"), QStringLiteral("60"),
                QStringLiteral("--json")};
    }

    // `weft commit --recover` on this lab's OpenSM files (the JSON report).
    QStringList recoverArgs() const
    {
        return {QStringLiteral("commit"), QStringLiteral("--recover"), QStringLiteral("--opensm-lfts"), lfts, QStringLiteral("--opensm-partitions"),
                partitions, QStringLiteral("--opensm-pidfile"), pidFile, QStringLiteral("--opensm-log"), sim->openSmLogPath(), QStringLiteral("--json")};
    }

    // What the switches hold, by dump_lfts.
    Result<ForwardingTables> installedTables() const { return test::installedTables(*sim, live); }

    // Compares the installed tables with `expected` on every LID the fabric assigns.
    QString tablesDiffer(const ForwardingTables &expected) const
    {
        Result<ForwardingTables> installed = installedTables();
        return installed ? test::firstRouteDifference(live, expected, *installed) : installed.error().toString();
    }

    // Compares every host's P_Key table, by smpquery pkeys, with what `partitions` give it.
    QString pkeysDiffer(const std::vector<Partition> &partitions) const
    {
        const PKeyTables expected = computePKeyTables(live, partitions, PKeyTableOptions{smPort, true});
        int hosts = 0;
        for (const PortPKeyTable &table : expected.ports()) {
            const Port &port = live.port(table.port);
            if (live.node(port.node).type != NodeType::ChannelAdapter)
                continue;
            const auto pkeys = sim->runClient(QStringLiteral("smpquery"), {QStringLiteral("pkeys"), QString::number(port.lid)});
            if (!pkeys || pkeys->exitCode != 0)
                return QStringLiteral("smpquery pkeys %1 failed").arg(port.lid);
            std::set<int> want;
            for (std::uint16_t e : table.entries)
                if (e & kPKeyMask)
                    want.insert(e);
            const std::set<int> got = smpqueryPKeys(pkeys->out);
            if (got != want)
                return QStringLiteral("host %1 (LID %2) holds %3 P_Keys, expected %4").arg(live.node(port.node).description).arg(port.lid).arg(got.size()).arg(want.size());
            ++hosts;
        }
        return hosts == int(generated.hosts.size()) ? QString() : QStringLiteral("%1 hosts read, %2 in the fabric").arg(hosts).arg(generated.hosts.size());
    }

    bool planFilesUntouched(const QByteArray &lftsBefore, const QByteArray &partitionsBefore) const
    {
        return readAll(planLfts) == lftsBefore && readAll(planPartitions) == partitionsBefore;
    }
};

QJsonObject json(const QByteArray &out)
{
    return QJsonDocument::fromJson(out).object();
}

QString reasonsOf(const QJsonObject &report)
{
    return report.value(QStringLiteral("reasons")).toVariant().toStringList().join(QLatin1Char('\n'));
}

// Whether a process is stopped (SIGSTOP), from its state in /proc.
bool processStopped(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray line = stat.readAll();
    const int close = line.lastIndexOf(')');
    return close >= 0 && close + 2 < line.size() && (line[close + 2] == 'T' || line[close + 2] == 't');
}

// `weft commit` started in the lab, stopping itself at `step` (WEFT_COMMIT_TEST_PAUSE_AT).
// True once it has.
bool startPausedCommit(QProcess &weft, const Lab &lab, const QStringList &args, const QString &step)
{
    QProcessEnvironment env = lab.sim->clientEnvironment();
    env.insert(QStringLiteral("WEFT_COMMIT_TEST_PAUSE_AT"), step);
    weft.setProcessEnvironment(env);
    weft.start(weftBinary(), args);
    if (!weft.waitForStarted())
        return false;
    QDeadlineTimer deadline(120000);
    while (!processStopped(weft.processId()) && weft.state() != QProcess::NotRunning && !deadline.hasExpired())
        QThread::msleep(20);
    return processStopped(weft.processId());
}

}  // namespace

class TestLabCommit : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        const QString openSm = weft::test::openSmVersionProblem();  // once, before any lab starts
        QVERIFY2(openSm.isEmpty(), qPrintable(openSm));
        const QString missing = SimulatedFabric::missingTools();
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("the lab tests need: ") + missing));
        QVERIFY2(QFileInfo::exists(weftBinary()), "WEFT_BINARY does not name the weft executable");
        QVERIFY2(QFileInfo::exists(lftPokeBinary()), "WEFT_LFT_POKE does not name the weft_lft_poke executable");
        QVERIFY2(QFileInfo::exists(lftKillLibrary()), "WEFT_OSM_LFT_KILL does not name the weft_osm_lft_kill library");
    }

    void commitsPftreeForTwoTenants()
    {
        Lab lab;
        const QString error = lab.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QByteArray planLfts = readAll(lab.planLfts), planPartitions = readAll(lab.planPartitions);
        QVERIFY2(!lab.tablesDiffer(lab.planTables).isEmpty(), "the plan must change the tables");

        const auto run = lab.sim->runClient(weftBinary(), lab.commitArgs());
        QVERIFY2(run && run->exitCode == 0, qPrintable(describe(run)));
        QCOMPARE(json(run->out).value(QStringLiteral("outcome")).toString(), QStringLiteral("committed"));
        QVERIFY(json(run->out).value(QStringLiteral("smps")).toDouble() > 0);

        // dump_lfts: exactly the planned tables.
        const QString differ = lab.tablesDiffer(lab.planTables);
        QVERIFY2(differ.isEmpty(), qPrintable(differ));
        // smpquery pkeys: every host holds the P_Keys the plan gives it, which are its tenant's
        // and the default partition's.
        const QString pkeysDiffer = lab.pkeysDiffer(lab.planPartitionsModel);
        QVERIFY2(pkeysDiffer.isEmpty(), qPrintable(pkeysDiffer));
        const PKeyTables expected = computePKeyTables(lab.live, lab.planPartitionsModel, PKeyTableOptions{lab.smPort, true});
        for (const PortPKeyTable &table : expected.ports()) {
            if (lab.live.node(lab.live.port(table.port).node).type != NodeType::ChannelAdapter)
                continue;
            const int tenants = int(std::count(table.entries.begin(), table.entries.end(), std::uint16_t(0x8001))
                                    + std::count(table.entries.begin(), table.entries.end(), std::uint16_t(0x8002)));
            QCOMPARE(tenants, 1);
        }
        // Backups of what OpenSM had, the journal, and the plan files as they were.
        QCOMPARE(readAll(backupPath(lab.lfts)), lab.initialLfts);
        QCOMPARE(readAll(backupPath(lab.partitions)), lab.initialPartitions);
        QVERIFY(readAll(lab.path("weft-commits.jsonl")).contains("\"outcome\":\"committed\""));
        QVERIFY(lab.planFilesUntouched(planLfts, planPartitions));
        lab.sim->stop();
    }

    // After a commit an operator adds a host to a partition by hand: the next commit of the same
    // plan refuses (exit 2), shows the edit as a diff and leaves the file and the fabric alone;
    // with --force it goes in, the edit kept as the backup.
    void handEditIsNotOverwrittenSilently()
    {
        Lab lab;
        const QString error = lab.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const auto first = lab.sim->runClient(weftBinary(), lab.commitArgs());
        QVERIFY2(first && first->exitCode == 0, qPrintable(describe(first)));
        const QByteArray weftWrote = readAll(lab.partitions);
        const QByteArray handEdit = weftWrote + "\nBlue=0x0b00 : 0x0002c91000000001 ;\n";
        QVERIFY(writeFileAtomically(lab.partitions, handEdit, false).ok());

        const auto refused = lab.sim->runClient(weftBinary(), lab.commitArgs());
        QVERIFY2(refused && refused->exitCode == 2, qPrintable(describe(refused)));
        const QString why = reasonsOf(json(refused->out));
        QVERIFY2(why.contains(lab.partitions + QStringLiteral(" changed since Weft last wrote it"))
                     && why.contains(QStringLiteral("+Blue=0x0b00 : 0x0002c91000000001 ;")),
                 qPrintable(why));
        QCOMPARE(readAll(lab.partitions), handEdit);
        const QString differ = lab.tablesDiffer(lab.planTables);
        QVERIFY2(differ.isEmpty(), qPrintable(differ));

        const auto forced = lab.sim->runClient(weftBinary(), lab.commitArgs() << QStringLiteral("--force"));
        QVERIFY2(forced && forced->exitCode == 0, qPrintable(describe(forced)));
        QCOMPARE(readAll(lab.partitions), weftWrote);
        QCOMPARE(readAll(backupPath(lab.partitions)), handEdit);
        QCOMPARE(readAll(backupPath(lab.partitions, 1)), lab.initialPartitions);
        lab.sim->stop();
    }

    // OpenSM restarted by its supervisor between the commit's SIGHUP and its verification (a new
    // process, a new pid in the pid file): the commit follows it, verifies the fabric and names
    // the restart in its report.
    void restartedOpenSmIsFollowed()
    {
        Lab lab;
        const QString error = lab.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QProcess commit;
        QVERIFY2(startPausedCommit(commit, lab, lab.commitArgs(), QStringLiteral("after-sighup")), commit.readAllStandardError().constData());
        const qint64 before = lab.sim->openSmPid();
        const Status restarted = lab.sim->restartOpenSm();
        QVERIFY2(restarted.ok(), restarted.ok() ? "" : qPrintable(restarted.error().toString()));
        QVERIFY(lab.sim->openSmPid() != before);
        QVERIFY(writeFileAtomically(lab.pidFile, QByteArray::number(lab.sim->openSmPid()) + '\n', false).ok());
        QCOMPARE(::kill(pid_t(commit.processId()), SIGCONT), 0);
        QVERIFY(commit.waitForFinished(180000));
        const QByteArray printed = commit.readAllStandardOutput();
        const QJsonObject report = json(printed);
        QVERIFY2(report.value(QStringLiteral("outcome")).toString() == QLatin1String("committed"),
                 qPrintable(report.value(QStringLiteral("reasons")).toVariant().toStringList().join(QLatin1Char('\n')).left(900)));
        const QString warnings = report.value(QStringLiteral("warnings")).toVariant().toStringList().join(QLatin1Char('\n'));
        QVERIFY2(warnings.contains(QStringLiteral("OpenSM was restarted while the commit ran: pid %1 is gone, pid %2").arg(before).arg(lab.sim->openSmPid())),
                 qPrintable(warnings));
        const QString differ = lab.tablesDiffer(lab.planTables);
        QVERIFY2(differ.isEmpty(), qPrintable(differ));
        lab.sim->stop();
    }

    // Two spellings of one target (through a symbolic link to its directory) share its lock: a
    // commit through the link, paused after writing, keeps a commit by the real path out.
    void symlinkedDirectoryHoldsTheSameLock()
    {
        Lab lab;
        const QString error = lab.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QString linked = lab.path("linked");
        QVERIFY(QFile::link(QFileInfo(lab.lfts).absolutePath(), linked));
        QStringList viaLink = lab.commitArgs();
        for (QString &arg : viaLink)
            if (arg == lab.lfts || arg == lab.partitions)
                arg = linked + QLatin1Char('/') + QFileInfo(arg).fileName();
        QVERIFY(viaLink != lab.commitArgs());
        QProcess first;
        QVERIFY2(startPausedCommit(first, lab, viaLink, QStringLiteral("after-write")), first.readAllStandardError().constData());
        const auto second = lab.sim->runClient(weftBinary(), lab.commitArgs());
        QVERIFY2(second && second->exitCode == 2, qPrintable(describe(second)));
        QVERIFY2(reasonsOf(json(second->out)).contains(QStringLiteral("another commit is running on this target, held by pid %1").arg(first.processId())),
                 qPrintable(describe(second)));
        QCOMPARE(::kill(pid_t(first.processId()), SIGCONT), 0);
        QVERIFY(first.waitForFinished(180000));
        QCOMPARE(json(first.readAllStandardOutput()).value(QStringLiteral("outcome")).toString(), QStringLiteral("committed"));
        lab.sim->stop();
    }

    void findsTheSmWhenEveryPortIsAFullMember()
    {
        // The commonest partitions.conf: the P_Key tables cannot single out OpenSM's port, so the
        // commit asks the fabric (MasterSMLID, SMInfo) instead; no --sm-port is given.
        Lab lab;
        const QString error = lab.start("Default=0x7fff, ipoib : ALL=full ;\n");
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const auto run = lab.sim->runClient(weftBinary(), lab.commitArgs());
        QVERIFY2(run && run->exitCode == 0, qPrintable(describe(run)));
        const QJsonObject report = json(run->out);
        QCOMPARE(report.value(QStringLiteral("outcome")).toString(), QStringLiteral("committed"));
        const QString steps = report.value(QStringLiteral("steps")).toVariant().toStringList().join(QLatin1Char('\n'));
        const QString found = QStringLiteral("OpenSM runs on %1").arg(smPortText(lab.live, lab.smPort));
        QVERIFY2(steps.contains(found + QStringLiteral(" (the master SM's port, from MasterSMLID)")), qPrintable(steps));
        QCOMPARE(readAll(backupPath(lab.partitions)), QByteArray("Default=0x7fff, ipoib : ALL=full ;\n"));
        const QString differ = lab.tablesDiffer(lab.planTables);
        QVERIFY2(differ.isEmpty(), qPrintable(differ));
        lab.sim->stop();
    }

    void planViolatingPhysicalIsolationIsRefused()
    {
        // ftree's tables with one leaf sending every remote host up one uplink: red and blue,
        // both on that leaf, share it, which their phy-isolation policies (in the project) forbid.
        Lab lab;
        const QString error = lab.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        Project project;
        project.tenancy.partitions = lab.planPartitionsModel;
        for (Partition &p : project.tenancy.partitions)
            if (p.pkey && *p.pkey != kDefaultPKey)
                p.policy = IsolationPolicy::Physical;
        Result<Routing> ftree = routeFabric(QStringLiteral("ftree"), lab.live, project.tenancy);
        QVERIFY(ftree.ok());
        const Fabric &f = lab.live;
        const NodeIndex leaf = f.port(f.port(f.portOf(f.endNodes().front(), 1)).remote).node;
        int uplink = 0;
        for (int p = 1; p <= f.node(leaf).portCount && !uplink; ++p) {
            const PortIndex remote = f.port(f.portOf(leaf, p)).remote;
            if (remote != kNoIndex && f.node(f.port(remote).node).type == NodeType::Switch)
                uplink = p;
        }
        QVERIFY(uplink);
        for (std::size_t i = 0; i < ftree->tables.size(); ++i)
            if (ftree->tables.at(i).guid == f.node(leaf).guid)
                for (NodeIndex host : f.endNodes()) {
                    const Port &port = f.port(f.portOf(host, 1));
                    if (f.port(port.remote).node != leaf)
                        ftree->tables.lft(i).setPort(port.lid, std::uint8_t(uplink));
                }
        QVERIFY(writeFileAtomically(lab.planLfts, writeLftDump(ftree->tables, &lab.live), false).ok());
        CommitPlan plan;
        plan.tables = ftree->tables;
        plan.partitionsConf = readAll(lab.planPartitions);
        plan.intent = project.tenancy;
        QVERIFY2(!checkPlan(lab.live, plan).violations.isEmpty(), "ftree must share links between the tenants");

        for (const PolicyMode mode : {PolicyMode::Strict, PolicyMode::BestEffort}) {
            project.tenancy.mode = mode;
            const QString projectFile = lab.path("project.weft");
            QVERIFY(writeFileAtomically(projectFile, writeProject(project), false).ok());
            const auto run = lab.sim->runClient(weftBinary(), lab.commitArgs() << QStringLiteral("--project") << projectFile);
            QVERIFY2(run && run->exitCode == 2, qPrintable(describe(run)));
            const QJsonObject report = json(run->out);
            QCOMPARE(report.value(QStringLiteral("outcome")).toString(), QStringLiteral("refused"));
            QVERIFY(!report.value(QStringLiteral("written")).toBool());
            const QString reasons = report.value(QStringLiteral("reasons")).toVariant().toStringList().join(QLatin1Char('\n'));
            QVERIFY2(reasons.contains(mode == PolicyMode::Strict ? QStringLiteral("strict policy mode") : QStringLiteral("accept the violations")),
                     qPrintable(reasons));
            QVERIFY2(reasons.contains(QStringLiteral("(phy-isolation)")), qPrintable(reasons));
            QVERIFY(!report.value(QStringLiteral("violations")).toArray().isEmpty());
            // OpenSM's files as they were, and no backup: nothing was written.
            QCOMPARE(readAll(lab.lfts), lab.initialLfts);
            QCOMPARE(readAll(lab.partitions), lab.initialPartitions);
            QVERIFY(!QFileInfo::exists(backupPath(lab.lfts)));
            QVERIFY(!QFileInfo::exists(backupPath(lab.partitions)));
        }
        lab.sim->stop();
    }

    void faultsEndInAKnownVerifiedState_data()
    {
        QTest::addColumn<QString>("fault");
        QTest::addRow("partitions.conf OpenSM would reject") << QStringLiteral("reject");
        QTest::addRow("link pulled between preview and commit") << QStringLiteral("stale");
        QTest::addRow("LFT entry changed behind Weft's back (read-back mismatch)") << QStringLiteral("mismatch");
        QTest::addRow("OpenSM killed during the commit") << QStringLiteral("kill");
    }

    void faultsEndInAKnownVerifiedState()
    {
        QFETCH(QString, fault);
        Lab lab;
        const QString error = lab.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        Result<ForwardingTables> before = lab.installedTables();
        QVERIFY2(before.ok(), before.ok() ? "" : qPrintable(before.error().toString()));
        QStringList args = lab.commitArgs();

        if (fault == QLatin1String("reject")) {
            // A file without a single definition is "in error" to OpenSM, which would then give
            // every port full membership of the default partition.
            QVERIFY(writeFileAtomically(lab.planPartitions, "# Default=0x7fff : ALL=limited, SELF=full ;\n", false).ok());
            QVERIFY(!readPartitionsConfFile(lab.planPartitions).ok());
        }
        Guid pokedSwitch = 0;
        Lid pokedLid = 0;
        int pokedPort = kNoRoute, originalPort = kNoRoute;
        if (fault == QLatin1String("mismatch")) {
            // A plan that changes the partitions and keeps every forwarding table as the switches
            // hold it: OpenSM, which sends an LFT block only where the new one differs from its own
            // cached copy (osm_ucast_mgr.c set_lft_block), sends none of them. Then a second
            // writer changes one entry on one switch by SubnSet. OpenSM does not know, so its
            // sweep leaves the entry as poked, and Weft's read-back must catch it.
            QVERIFY(writeFileAtomically(lab.planLfts, writeLftDump(*before, &lab.live), false).ok());
            // A leaf: a switch with hosts, whose routes to other leaves' hosts go up.
            NodeIndex sw = kNoIndex;
            for (NodeIndex candidate : lab.live.switches())
                for (int number = 1; number <= lab.live.node(candidate).portCount && sw == kNoIndex; ++number) {
                    const PortIndex remote = lab.live.port(lab.live.portOf(candidate, number)).remote;
                    if (remote != kNoIndex && lab.live.node(lab.live.port(remote).node).type == NodeType::ChannelAdapter)
                        sw = candidate;
                }
            QVERIFY(sw != kNoIndex);
            const SwitchForwardingTable *held = before->find(lab.live.node(sw).guid);
            QVERIFY(held);
            for (const Port &p : lab.live.ports()) {
                if (pokedLid || !p.present || p.lid == 0 || p.node == sw || lab.live.node(p.node).type == NodeType::Switch)
                    continue;
                // Another uplink instead of the one OpenSM chose: still a legal up/down route, so
                // the host stays reachable for the LID-routed SMPs below.
                const int current = held->lft.port(p.lid);
                auto leadsToSwitch = [&](int number) {
                    const PortIndex remote = number >= 1 && number <= lab.live.node(sw).portCount ? lab.live.port(lab.live.portOf(sw, number)).remote : kNoIndex;
                    return remote != kNoIndex && lab.live.node(lab.live.port(remote).node).type == NodeType::Switch;
                };
                if (!leadsToSwitch(current))
                    continue;
                for (int candidate = 1; candidate <= lab.live.node(sw).portCount && !pokedLid; ++candidate)
                    if (candidate != current && leadsToSwitch(candidate)) {
                        pokedLid = p.lid;
                        pokedPort = candidate;
                    }
            }
            QVERIFY(pokedLid != 0);
            pokedSwitch = lab.live.node(sw).guid;
            originalPort = held->lft.port(pokedLid);
            const auto poke = lab.sim->runClient(lftPokeBinary(), {QStringLiteral("0x%1").arg(pokedSwitch, 16, 16, QLatin1Char('0')),
                                                                   QString::number(pokedLid), QString::number(pokedPort)});
            QVERIFY2(poke && poke->exitCode == 0, qPrintable(describe(poke)));
            QVERIFY2(poke->out.contains(QStringLiteral("LID %1: port %2 -> %3").arg(pokedLid).arg(originalPort).arg(pokedPort).toUtf8()),
                     poke->out.constData());
            // dump_lfts sees the change; from now on it is the state before the commit.
            Result<ForwardingTables> poked = lab.installedTables();
            QVERIFY2(poked.ok(), poked.ok() ? "" : qPrintable(poked.error().toString()));
            QCOMPARE(int(poked->find(pokedSwitch)->lft.port(pokedLid)), pokedPort);
            before = std::move(poked);
        }
        const QByteArray planLfts = readAll(lab.planLfts), planPartitions = readAll(lab.planPartitions);

        Guid pulledLeaf = 0;
        int pulledPort = 0;
        if (fault == QLatin1String("stale")) {
            const Fabric &fabric = lab.generated.fabric;
            NodeIndex leaf = kNoIndex;
            int uplink = 0;
            for (NodeIndex s : fabric.switches())
                for (int p = 1; p <= fabric.node(s).portCount; ++p) {
                    const Port &port = fabric.port(fabric.portOf(s, p));
                    if (port.remote != kNoIndex && fabric.node(fabric.port(port.remote).node).type == NodeType::Switch
                        && lab.generated.nodeLevel[std::size_t(s)] == 1) {
                        leaf = s;
                        uplink = p;
                    }
                }
            QVERIFY(leaf != kNoIndex);
            pulledLeaf = fabric.node(leaf).guid;
            pulledPort = uplink;
            QVERIFY(lab.sim->simulatorCommand(QStringLiteral("Unlink \"%1\"[%2]").arg(fabric.node(leaf).name).arg(uplink)).ok());
            QTest::qWait(1000);  // ibsim applies console commands asynchronously
        }
        int exitCode = -1;
        QByteArray out;
        qint64 killedOpenSm = 0;  // taken before the kill: once the process is gone it has no pid
        if (fault == QLatin1String("kill")) {
            // Weft stops itself once the files are written; OpenSM is killed; Weft goes on.
            QProcess weft;
            QVERIFY2(startPausedCommit(weft, lab, args, QStringLiteral("after-write")), weft.readAllStandardError().constData());
            QVERIFY2(readAll(lab.lfts) != lab.initialLfts, "weft never wrote the tables");
            killedOpenSm = lab.sim->openSmPid();
            QVERIFY(killedOpenSm > 0);
            QCOMPARE(::kill(pid_t(killedOpenSm), SIGKILL), 0);
            QTRY_VERIFY_WITH_TIMEOUT(!processRunning(killedOpenSm), 10000);
            QCOMPARE(::kill(pid_t(weft.processId()), SIGCONT), 0);
            QVERIFY(weft.waitForFinished(180000));
            QCOMPARE(weft.exitStatus(), QProcess::NormalExit);
            exitCode = weft.exitCode();
            out = weft.readAllStandardOutput();
        } else {
            const auto run = lab.sim->runClient(weftBinary(), args);
            QVERIFY2(run.ok(), qPrintable(describe(run)));
            exitCode = run->exitCode;
            out = run->out;
        }
        const QJsonObject report = json(out);
        const QString outcome = report.value(QStringLiteral("outcome")).toString();
        const QString reasons = QString::fromUtf8(QJsonDocument(report.value(QStringLiteral("reasons")).toArray()).toJson());
        qInfo("%s: exit %d, outcome %s\n%s", qPrintable(fault), exitCode, qPrintable(outcome), qPrintable(reasons));

        if (fault == QLatin1String("reject") || fault == QLatin1String("stale")) {
            QCOMPARE(exitCode, 2);
            QCOMPARE(outcome, fault == QLatin1String("reject") ? QStringLiteral("refused") : QStringLiteral("stale"));
            QVERIFY(!report.value(QStringLiteral("written")).toBool());
            QVERIFY(!QFileInfo::exists(backupPath(lab.lfts)));
            QVERIFY(reasons.contains(fault == QLatin1String("reject") ? QStringLiteral("would be rejected by OpenSM")
                                                                      : QStringLiteral("link")));
            if (fault == QLatin1String("stale")) {
                // It names the change: the very link pulled, by the leaf's GUID and port.
                QVERIFY2(reasons.contains(QStringLiteral("the fabric changed since the plan was made")), qPrintable(reasons));
                QVERIFY2(reasons.contains(QStringLiteral("link gone: ")), qPrintable(reasons));
                QVERIFY2(reasons.contains(QStringLiteral("%1[%2]").arg(guidText(pulledLeaf)).arg(pulledPort)), qPrintable(reasons));
                QVERIFY2(!reasons.contains(QStringLiteral("link new: ")), qPrintable(reasons));
            }
        } else if (fault == QLatin1String("mismatch")) {
            QCOMPARE(exitCode, 1);
            QCOMPARE(outcome, QStringLiteral("rolled-back"));
            QVERIFY(report.value(QStringLiteral("written")).toBool());
            QVERIFY(reasons.contains(QStringLiteral("read-back does not match the plan")));
            // The report names the switch and the poked LID, with what it holds and what the plan says.
            const QString pokedName = lab.live.node(lab.live.nodeByGuid(pokedSwitch)).description;
            const QString mismatch = QStringLiteral("switch %1: 1 LFT entry differs (LID %2 port %3, expected %4)")
                                         .arg(pokedName).arg(pokedLid).arg(pokedPort).arg(originalPort);
            QVERIFY2(report.value(QStringLiteral("reasons")).toVariant().toStringList().contains(mismatch), qPrintable(mismatch));
            const QString steps = report.value(QStringLiteral("steps")).toVariant().toStringList().join(QLatin1Char('\n'));
            QVERIFY(steps.contains(QStringLiteral("restoring the previous files")));
            QCOMPARE(steps.count(QStringLiteral("sent SIGHUP to OpenSM")), 2);
            // The previous state is the switches as read before the commit, the poked entry
            // included: OpenSM's restored files do not mention it and OpenSM does not rewrite it.
            QVERIFY(steps.contains(QStringLiteral("the fabric holds the previous state")));
            // smpquery: the tenants' P_Keys that the plan's sweep installed are gone again.
            for (NodeIndex host : lab.generated.hosts) {
                const Port &port = lab.live.port(lab.live.portOf(lab.live.nodeByGuid(lab.generated.fabric.node(host).guid), 1));
                const auto pkeys = lab.sim->runClient(QStringLiteral("smpquery"), {QStringLiteral("pkeys"), QString::number(port.lid)});
                QVERIFY2(pkeys && pkeys->exitCode == 0, qPrintable(describe(pkeys)));
                for (int pkey : smpqueryPKeys(pkeys->out))
                    QCOMPARE(pkey & kPKeyMask, int(kDefaultPKey));
            }
        } else {
            // OpenSM died after the files were written and before its reload: Weft notices,
            // restores the files, and, with no OpenSM to reload them, says what the switches hold
            // (the previous tables, verified) and that the restored files wait for OpenSM.
            QCOMPARE(exitCode, 1);
            QCOMPARE(outcome, QStringLiteral("rollback-failed"));
            QVERIFY(report.value(QStringLiteral("written")).toBool());
            QVERIFY2(reasons.contains(QStringLiteral("OpenSM (pid %1) is no longer running").arg(killedOpenSm)), qPrintable(reasons));
            QVERIFY2(reasons.contains(QStringLiteral("the restored files take effect when it is started again")), qPrintable(reasons));
            QVERIFY2(reasons.contains(QStringLiteral("verified: the switches still hold the previous tables and P_Keys")), qPrintable(reasons));
        }

        // Known, verified state: the OpenSM files and the switches hold the previous state
        // (or, for a kill that came after the sweep, the plan), by the independent tools.
        const bool holdsPlan = exitCode == 0 || reasons.contains(QStringLiteral("hold the plan's tables"));
        if (exitCode != 0) {
            QCOMPARE(readAll(lab.lfts), lab.initialLfts);
            QCOMPARE(readAll(lab.partitions), lab.initialPartitions);
        }
        const QString differ = lab.tablesDiffer(holdsPlan ? lab.planTables : *before);
        QVERIFY2(differ.isEmpty(), qPrintable(differ));
        QVERIFY(lab.planFilesUntouched(planLfts, planPartitions));
        QVERIFY(readAll(lab.path("weft-commits.jsonl")).contains(QStringLiteral("\"outcome\":\"%1\"").arg(outcome).toUtf8()));
        lab.sim->stop();
    }

    void killedCommitIsRecovered_data()
    {
        QTest::addColumn<QString>("step");
        QTest::addColumn<bool>("rollback");  // `--recover --rollback`: the backups, verified
        // Between the kill and the recovery someone adds a host to a partition by hand: the
        // recovery refuses, naming the file, and goes on only with --force.
        QTest::addColumn<bool>("edited");
        QTest::addRow("after writing") << QStringLiteral("after-write") << false << false;
        QTest::addRow("after SIGHUP") << QStringLiteral("after-sighup") << false << false;
        QTest::addRow("during verification") << QStringLiteral("during-verify") << false << false;
        QTest::addRow("after SIGHUP, rolled back on request") << QStringLiteral("after-sighup") << true << false;
        QTest::addRow("after SIGHUP, partitions.conf edited by hand") << QStringLiteral("after-sighup") << false << true;
    }

    void killedCommitIsRecovered()
    {
        // A commit stops at `step`; a second one is refused by its lock; it is killed (SIGKILL);
        // the next commit finds it unfinished; `weft commit --recover` verifies the fabric.
        QFETCH(QString, step);
        QFETCH(bool, rollback);
        QFETCH(bool, edited);
        Lab lab;
        const QString error = lab.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const Result<ForwardingTables> before = lab.installedTables();
        QVERIFY(before.ok());
        const QString journal = lab.path("weft-commits.jsonl");
        QProcess first;
        QVERIFY2(startPausedCommit(first, lab, lab.commitArgs(), step), first.readAllStandardError().constData());
        QVERIFY(readAll(lab.lfts) != lab.initialLfts);

        const auto second = lab.sim->runClient(weftBinary(), lab.commitArgs());
        QVERIFY2(second && second->exitCode == 2, qPrintable(describe(second)));
        QCOMPARE(json(second->out).value(QStringLiteral("outcome")).toString(), QStringLiteral("refused"));
        const QString held = reasonsOf(json(second->out));
        QVERIFY2(held.contains(QStringLiteral("another commit is running on this target, held by pid %1 on host ").arg(first.processId())), qPrintable(held));
        QVERIFY(!json(second->out).value(QStringLiteral("written")).toBool());

        QCOMPARE(::kill(pid_t(first.processId()), SIGKILL), 0);
        QVERIFY(first.waitForFinished(30000));
        QCOMPARE(first.exitStatus(), QProcess::CrashExit);
        Result<std::vector<CommitJournalEntry>> entries = readJournal(journal);
        QVERIFY(entries.ok());
        const std::optional<CommitJournalEntry> unfinished = unfinishedCommit(*entries, lab.lfts);
        QVERIFY2(unfinished.has_value(), readAll(journal).constData());
        QCOMPARE(unfinished->outcome, QLatin1String(kJournalWritten));
        QCOMPARE(unfinished->backups, (QStringList{backupPath(lab.lfts), backupPath(lab.partitions)}));

        const auto third = lab.sim->runClient(weftBinary(), lab.commitArgs());
        QVERIFY2(third && third->exitCode == 2, qPrintable(describe(third)));
        const QString found = reasonsOf(json(third->out));
        QVERIFY2(found.contains(QStringLiteral("an unfinished commit is in the journal")) && found.contains(unfinished->id)
                     && found.contains(QStringLiteral("weft commit --recover")), qPrintable(found));

        QStringList recoverArgs = lab.recoverArgs();
        if (rollback)
            recoverArgs << QStringLiteral("--rollback");
        if (edited) {
            const QByteArray handEdit = readAll(lab.partitions) + "\nBlue=0x0b00 : 0x0002c91000000001 ;\n";
            QVERIFY(writeFileAtomically(lab.partitions, handEdit, false).ok());
            const auto refused = lab.sim->runClient(weftBinary(), recoverArgs);
            QVERIFY2(refused && refused->exitCode == 2, qPrintable(describe(refused)));
            const QString why = reasonsOf(json(refused->out));
            QVERIFY2(why.contains(lab.partitions + QStringLiteral(": changed since the interrupted commit")) && why.contains(QStringLiteral("--force")),
                     qPrintable(why));
            QCOMPARE(readAll(lab.partitions), handEdit);
            // Told to go on, it verifies the files as they are now (the edit included).
            recoverArgs << QStringLiteral("--force");
        }
        const auto recovered = lab.sim->runClient(weftBinary(), recoverArgs);
        const QString outcome = rollback ? QStringLiteral("rolled-back") : QStringLiteral("committed");
        QVERIFY2(recovered && recovered->exitCode == (rollback ? 1 : 0), qPrintable(describe(recovered)));
        const QJsonObject report = json(recovered->out);
        QCOMPARE(report.value(QStringLiteral("outcome")).toString(), outcome);
        const QString steps = report.value(QStringLiteral("steps")).toVariant().toStringList().join(QLatin1Char('\n'));
        QVERIFY2(steps.contains(QStringLiteral("sent SIGHUP to OpenSM")), qPrintable(steps));
        QVERIFY2(steps.contains(QStringLiteral("match the interrupted commit's plan")) != rollback, qPrintable(steps));
        if (rollback) {
            QVERIFY2(reasonsOf(report).contains(QStringLiteral("rolling back to the backups, as asked")), qPrintable(reasonsOf(report)));
            QCOMPARE(readAll(lab.lfts), lab.initialLfts);
            QCOMPARE(readAll(lab.partitions), lab.initialPartitions);
        }
        // dump_lfts: the plan (or the tables before it); smpquery pkeys: the partitions OpenSM's
        // file now holds (the plan's, the hand edit's, or the ones before); the journal closes
        // the killed commit with what the recovery did.
        const QString differ = lab.tablesDiffer(rollback ? *before : lab.planTables);
        QVERIFY2(differ.isEmpty(), qPrintable(differ));
        Result<PartitionsConfResult> heldPartitions = readPartitionsConfFile(lab.partitions);
        QVERIFY(heldPartitions.ok());
        if (!rollback && !edited)
            QCOMPARE(readAll(lab.partitions), readAll(lab.planPartitions));
        const QString pkeysDiffer = lab.pkeysDiffer(heldPartitions->partitions);
        QVERIFY2(pkeysDiffer.isEmpty(), qPrintable(pkeysDiffer));
        entries = readJournal(journal);
        QVERIFY(entries.ok());
        QVERIFY(!unfinishedCommit(*entries, lab.lfts));
        const auto closed = std::find_if(entries->begin(), entries->end(), [&](const CommitJournalEntry &e) { return e.id == unfinished->id; });
        QVERIFY(closed != entries->end());
        QCOMPARE(closed->outcome, outcome);
        QVERIFY2(closed->details.join(QLatin1Char('\n')).contains(QStringLiteral("recovered by `weft commit --recover`")), qPrintable(closed->details.join(QLatin1Char('\n'))));
        QCOMPARE(readAll(backupPath(lab.lfts)), lab.initialLfts);
        lab.sim->stop();
    }

    // OpenSM killed, and Weft killed with it (the SM host lost): right after Weft's SIGHUP (in
    // the plan's sweep or just after it; the test says which), or with the files written and no
    // SIGHUP sent (the switches still hold the old tables). OpenSM is started
    // again and `weft commit --recover` verifies that the switches hold the plan, LFTs by
    // dump_lfts and P_Keys by smpquery.
    void openSmKilledIsRecovered_data()
    {
        QTest::addColumn<QString>("step");
        QTest::addRow("after the SIGHUP") << QStringLiteral("after-sighup");
        QTest::addRow("before OpenSM read the files") << QStringLiteral("after-write");
        QTest::addRow("in the middle of its sweep") << QStringLiteral("during-sweep");
    }

    void openSmKilledIsRecovered()
    {
        QFETCH(QString, step);
        const bool duringSweep = step == QLatin1String("during-sweep");
        Lab lab;
        // During the sweep: OpenSM kills itself right after the first LFT block it sends once
        // the arm file exists, which the test creates after OpenSM has come up on its tables.
        const QString arm = duringSweep ? lab.path("lft-kill.arm") : QString();
        const QString error = lab.start({}, arm);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        Result<ForwardingTables> before = lab.installedTables();
        QVERIFY2(before, before ? "" : qPrintable(before.error().toString()));
        if (duringSweep)
            QVERIFY(writeFileAtomically(arm, "armed\n", false).ok());
        QProcess commit;
        QVERIFY2(startPausedCommit(commit, lab, lab.commitArgs(), duringSweep ? QStringLiteral("after-sighup") : step),
                 commit.readAllStandardError().constData());
        const qint64 killed = lab.sim->openSmPid();
        QVERIFY(killed > 0);
        if (duringSweep)
            QTRY_VERIFY_WITH_TIMEOUT(readAll(arm).startsWith("killed after 1 LFT blocks"), 30000);
        else
            QCOMPARE(::kill(pid_t(killed), SIGKILL), 0);
        QTRY_VERIFY_WITH_TIMEOUT(!processRunning(killed), 10000);
        if (duringSweep)
            QVERIFY(QFile::remove(arm));  // the restarted OpenSM runs unharmed
        QCOMPARE(::kill(pid_t(commit.processId()), SIGKILL), 0);
        QVERIFY(commit.waitForFinished(30000));
        // Whether OpenSM died before it had set all of the plan (as a rule it had not begun).
        const QString unfinishedTables = lab.tablesDiffer(lab.planTables);
        qInfo("when OpenSM was killed the switches held %s", unfinishedTables.isEmpty() ? "the plan's tables" : qPrintable(QStringLiteral("other tables (%1)").arg(unfinishedTables)));
        if (step == QLatin1String("after-write")) {
            QVERIFY2(!unfinishedTables.isEmpty(), "OpenSM loaded the plan without a SIGHUP");
            QVERIFY(!lab.pkeysDiffer(lab.planPartitionsModel).isEmpty());
        }
        if (duringSweep) {
            // Provably in the middle: one block of the plan is in a switch, the rest is not.
            QVERIFY2(!unfinishedTables.isEmpty(), "OpenSM had set the whole plan before it died");
            const QString changed = lab.tablesDiffer(*before);
            QVERIFY2(!changed.isEmpty(), "no LFT block reached a switch before OpenSM died");
            qInfo("OpenSM died after one LFT block: %s", qPrintable(changed));
        }

        const Status restarted = lab.sim->restartOpenSm();
        QVERIFY2(restarted.ok(), restarted.ok() ? "" : qPrintable(restarted.error().toString()));
        QVERIFY(writeFileAtomically(lab.pidFile, QByteArray::number(lab.sim->openSmPid()) + '\n', false).ok());
        const auto recovered = lab.sim->runClient(weftBinary(), lab.recoverArgs());
        QVERIFY2(recovered && recovered->exitCode == 0, qPrintable(describe(recovered)));
        QCOMPARE(json(recovered->out).value(QStringLiteral("outcome")).toString(), QStringLiteral("committed"));
        const QString differ = lab.tablesDiffer(lab.planTables);
        QVERIFY2(differ.isEmpty(), qPrintable(differ));
        const QString pkeysDiffer = lab.pkeysDiffer(lab.planPartitionsModel);
        QVERIFY2(pkeysDiffer.isEmpty(), qPrintable(pkeysDiffer));
        lab.sim->stop();
    }

    void labStopsItsSimulatorOnSignal_data()
    {
        QTest::addColumn<int>("signal");
        QTest::addRow("SIGINT (Ctrl-C)") << int(SIGINT);
        QTest::addRow("SIGTERM") << int(SIGTERM);
    }

    void labStopsItsSimulatorOnSignal()
    {
        // The GUI (offscreen) as the lab's client runs until it is closed: the signal, sent to
        // `weft lab` alone once it has said its processes' pids, is what ends it.
        QFETCH(int, signal);
        QTemporaryDir dir;
        QProcess lab;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        lab.setProcessEnvironment(env);
        lab.start(weftBinary(), {QStringLiteral("lab"), QStringLiteral("--gui"), QStringLiteral("--dir"), dir.path()});
        QVERIFY(lab.waitForStarted());
        static const QRegularExpression pids(QStringLiteral("OpenSM pid (\\d+), ibsim pid (\\d+)"));
        QByteArray out;
        const QRegularExpressionMatch match = test::waitForOutput(lab, pids, &out);
        QVERIFY2(match.hasMatch(), out.constData());
        const qint64 openSm = match.captured(1).toLongLong(), ibsim = match.captured(2).toLongLong();
        QVERIFY(processRunning(openSm) && processRunning(ibsim));
        QTest::qWait(1000);  // the client is up too
        QCOMPARE(::kill(pid_t(lab.processId()), signal), 0);
        QVERIFY(lab.waitForFinished(60000));
        QCOMPARE(lab.exitStatus(), QProcess::NormalExit);
        QCOMPARE(lab.exitCode(), 128 + signal);
        QVERIFY2(lab.readAllStandardError().contains("stopping OpenSM and ibsim"), "weft lab must say what it does");
        QVERIFY2(!processRunning(openSm), "OpenSM outlived weft lab");
        QVERIFY2(!processRunning(ibsim), "ibsim outlived weft lab");
    }

    // The headless loop in both of the lab's modes: Weft's engine inside OpenSM (the default),
    // whose plan is an intent, and OpenSM's file engine.
    void labRunsTheLoopHeadless_data()
    {
        QTest::addColumn<QStringList>("mode");
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("plan");
        QTest::addRow("Weft's engine inside OpenSM") << QStringList{} << QStringLiteral("commit target: Weft's engine inside OpenSM, intent ")
                                                     << QStringLiteral("plan: the intent ");
        QTest::addRow("the file engine") << QStringList{QStringLiteral("--file-engine")} << QStringLiteral("commit target: -U ")
                                         << QStringLiteral("plan.lfts");
        QTest::addRow("with a standby") << QStringList{QStringLiteral("--standby")} << QStringLiteral("standby OpenSM pid ")
                                        << QStringLiteral("plan: the intent ");
    }

    void labRunsTheLoopHeadless()
    {
        QFETCH(QStringList, mode);
        QFETCH(QString, target);
        QFETCH(QString, plan);
        const test::Run run = test::runWeft(QStringList{QStringLiteral("lab"), QStringLiteral("--no-gui"), QStringLiteral("--fabric"), QStringLiteral("radix:8:2")} + mode, 600000);
        QVERIFY2(run.exitCode == 0, run.out.constData());
        for (const char *step : {"[1/5] discover", "[2/5] route", "[3/5] diff", "verified", "outcome: committed", "stopping OpenSM"})
            QVERIFY2(run.out.contains(step), run.out.constData());
        QVERIFY2(run.out.contains(target.toUtf8()) && run.out.contains(plan.toUtf8()), run.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestLabCommit)
#include "tst_lab_commit.moc"
