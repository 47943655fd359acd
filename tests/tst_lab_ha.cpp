// High availability on the real OpenSM: a subnet with a master (priority 10) and a standby
// (priority 5), each with its own files, named in one commit target. `weft commit --target`
// installs a pftree plan with phy-isolated tenants on both; after the master is killed the standby
// takes over and the switches hold `weft route --project` and every tenant's P_Key (Weft's engine
// inside OpenSM, and OpenSM's file engine). A standby whose directory cannot be written stops the
// commit before any SM changes; a third OpenSM the target does not name is reported.

#include "CommitJournal.h"
#include "FileDigest.h"
#include "LabTables.h"
#include "LabTools.h"
#include "LftDump.h"
#include "PartitionsConf.h"
#include "ProjectFile.h"
#include "RoutingEngine.h"
#include "SafeFile.h"
#include "SimulatedFabric.h"
#include "TenantTrees.h"
#include "TwoSmLab.h"
#include "WeftRunner.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <optional>
#include <set>

#include <unistd.h>

using namespace weft;

namespace {

constexpr int kSweepTimeoutMs = 60000;

// `weft ARGS` as a client of the lab (on the master's adapter), optionally inside `wrapper`
// (a shell script that ends by running "$@").
test::Run runLabWeft(const SimulatedFabric &sim, const QStringList &args, const QString &wrapper = {})
{
    QProcess p;
    p.setProcessEnvironment(sim.clientEnvironment());
    p.setWorkingDirectory(sim.workDir());
    if (wrapper.isEmpty())
        p.start(qEnvironmentVariable("WEFT_BINARY"), args);
    else
        p.start(QStringLiteral("unshare"), QStringList{QStringLiteral("-rm"), QStringLiteral("sh"), QStringLiteral("-c"), wrapper, QStringLiteral("sh"), qEnvironmentVariable("WEFT_BINARY")} + args);
    test::Run run;
    if (!p.waitForFinished(300000))
        return run;
    run.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    run.out = p.readAllStandardOutput();
    run.err = p.readAllStandardError() + p.errorString().toUtf8();
    return run;
}

// The lab (TwoSmLab.h) on a 4-ary 2-tree with four tenants in the project to commit (red and blue
// phy-isolated, green and yellow on lanes), sm1 on the first host, sm2 on the last.
struct HaLab : test::TwoSmLab
{
    test::Tree tree;
    QString project, topology;
};

Result<std::unique_ptr<HaLab>> startHaLab(const QString &dir, bool plugin)
{
    auto lab = std::make_unique<HaLab>();
    lab->tree = test::makeTree(FabricShapeKind::KaryNTree, 4, 2);
    Result<test::TwoSmLab> started = test::startTwoSmLab(dir, lab->tree.generated.fabric, lab->tree.generated.hosts.front(),
                                                         lab->tree.generated.hosts.back(), plugin, test::osmPluginDirectory());
    if (!started)
        return started.error();
    static_cast<test::TwoSmLab &>(*lab) = std::move(*started);
    lab->project = dir + QStringLiteral("/tenants.weft");
    if (const Status w = writeFileAtomically(lab->project, writeProject(lab->tree.intent), false); !w)
        return w.error();
    lab->topology = dir + QStringLiteral("/fabric.topo");
    return lab;
}

// The commit's arguments for the lab's plan: the tenants' project (plugin mode), or in the file
// mode also its tables as `weft route --project` wrote them for the fabric discovered now.
Result<QStringList> commitArguments(HaLab &lab, const QString &dir)
{
    QStringList args{QStringLiteral("commit"), QStringLiteral("--target"), lab.target, QStringLiteral("--project"), lab.project,
                     QStringLiteral("--accept-violations")};
    if (lab.plugin)
        return args;
    if (Result<Fabric> live = test::discoverWithIbnetdiscover(*lab.sim, lab.topology); !live)
        return live.error();
    const QString planned = dir + QStringLiteral("/plan.lfts");
    const test::Run routed = test::runWeft({QStringLiteral("route"), QStringLiteral("--project"), lab.project, QStringLiteral("--topology"),
                                            lab.topology, QStringLiteral("--out"), planned});
    if (routed.exitCode != 0)
        return Error{{}, 0, QString::fromUtf8(routed.err)};
    return args << QStringLiteral("--plan-lfts") << planned;
}

// Every problem a `weft target check --json` report lists, one per line.
QString problemsOf(const QJsonObject &report)
{
    QStringList lines;
    for (const QJsonValue &p : report.value(QStringLiteral("problems")).toArray())
        lines << p.toString();
    for (const QJsonValue &sm : report.value(QStringLiteral("sms")).toArray())
        for (const QJsonValue &p : sm.toObject().value(QStringLiteral("problems")).toArray())
            lines << sm.toObject().value(QStringLiteral("name")).toString() + QStringLiteral(": ") + p.toString();
    return lines.join(QLatin1Char('\n'));
}

QString digestOf(const QString &path)
{
    const Result<QString> d = fileSha256(path);
    return d ? *d : QStringLiteral("unreadable: ") + d.error().toString();
}

// A failed commit as a test message: its standard error and the end of its report first (the
// outcome and the reasons), since QtTest cuts a long message short.
QByteArray commitFailure(const test::Run &run)
{
    return "exit " + QByteArray::number(run.exitCode) + "\n" + run.err.right(1500) + "\n...\n" + run.out.right(1500);
}

}  // namespace

class TestLabHa : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        const QString openSm = test::openSmVersionProblem();
        QVERIFY2(openSm.isEmpty(), qPrintable(openSm));
        const QString missing = SimulatedFabric::missingTools();
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("the lab tests need: ") + missing));
        QVERIFY2(QFile::exists(test::osmPluginDirectory() + QStringLiteral("/libweftosm.so")), qPrintable(test::osmPluginDirectory()));
    }

    void failoverKeepsTheCommittedIntent_data()
    {
        QTest::addColumn<bool>("plugin");
        QTest::addRow("Weft's engine inside OpenSM") << true;
        QTest::addRow("OpenSM's file engine") << false;
    }

    void failoverKeepsTheCommittedIntent()
    {
        QFETCH(bool, plugin);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        auto started = startHaLab(dir.path(), plugin);
        QVERIFY2(started, started ? "" : qPrintable(started.error().toString()));
        HaLab &lab = **started;
        const Fabric &fabric = lab.tree.generated.fabric;

        // The target as the fabric tells it: sm1 master at 10, sm2 standby at 5, each on its port.
        const test::Run checked = runLabWeft(*lab.sim, {QStringLiteral("target"), QStringLiteral("check"), lab.target, QStringLiteral("--json")});
        const QJsonObject report = QJsonDocument::fromJson(checked.out).object();
        QVERIFY2(checked.exitCode == 0, qPrintable(QStringLiteral("exit %1: ").arg(checked.exitCode) + problemsOf(report) + QString::fromUtf8(checked.err)));
        const QJsonArray sms = report.value(QStringLiteral("sms")).toArray();
        QCOMPARE(sms.size(), 2);
        QCOMPARE(sms[0].toObject().value(QStringLiteral("state")).toString(), QStringLiteral("master"));
        QCOMPARE(sms[0].toObject().value(QStringLiteral("priority")).toInt(), 10);
        QCOMPARE(sms[1].toObject().value(QStringLiteral("state")).toString(), QStringLiteral("standby"));
        QCOMPARE(sms[1].toObject().value(QStringLiteral("priority")).toInt(), 5);
        const Guid standbyPort = fabric.port(fabric.portOf(lab.tree.generated.hosts.back(), 1)).guid;
        QCOMPARE(sms[1].toObject().value(QStringLiteral("port_guid")).toString().toULongLong(nullptr, 0), standbyPort);
        QVERIFY(report.value(QStringLiteral("unknown_sms")).toArray().isEmpty());

        // The commit reaches both: through the master, and into the standby's own files.
        const Result<QStringList> args = commitArguments(lab, dir.path());
        QVERIFY2(args, args ? "" : qPrintable(args.error().toString()));
        const test::Run committed = runLabWeft(*lab.sim, *args);
        QVERIFY2(committed.exitCode == 0, commitFailure(committed).constData());
        QVERIFY2(committed.out.contains("outcome: committed"), committed.out.constData());
        QVERIFY2(committed.out.contains("standby sm2: wrote"), committed.out.constData());
        QCOMPARE(test::readAll(lab.sm2.partitions), test::readAll(lab.sm1.partitions));
        QCOMPARE(digestOf(lab.sm2.routing), digestOf(lab.sm1.routing));
        if (plugin)
            QCOMPARE(test::readAll(lab.sm2.routing), test::readAll(lab.project));
        // The journal, beside the target, records both SMs' parts.
        const Result<std::vector<CommitJournalEntry>> journal = readJournal(dir.filePath(QStringLiteral("weft-commits.jsonl")));
        QVERIFY2(journal && !journal->empty(), journal ? "empty" : qPrintable(journal.error().toString()));
        const CommitJournalEntry &entry = journal->back();
        QCOMPARE(entry.outcome, QStringLiteral("committed"));
        QCOMPARE(entry.subnet, QStringLiteral("lab"));
        QCOMPARE(entry.sms.size(), 2);
        QCOMPARE(entry.sms[1].toObject().value(QStringLiteral("outcome")).toString(), QStringLiteral("files verified"));

        // The master dies; the standby takes over and routes from its own files.
        const qint64 before = QFileInfo(lab.sim->standbyLogPath()).size();
        lab.sim->killOpenSm();
        const Status master = lab.sim->waitForStandbyLog(QStringLiteral("Entering MASTER state"), kSweepTimeoutMs, before);
        QVERIFY2(master, qPrintable(QString::fromUtf8(test::readAll(lab.sim->standbyLogPath()).mid(before).right(3000))));
        const Status up = lab.sim->waitForStandbyLog(QStringLiteral("SUBNET UP"), kSweepTimeoutMs, before);
        QVERIFY2(up, qPrintable(QString::fromUtf8(test::readAll(lab.sim->standbyLogPath()).mid(before).right(3000))));

        // dump_lfts equals `weft route --project` on the fabric as it is now.
        Result<Fabric> live = test::discoverWithIbnetdiscover(*lab.sim, lab.topology);
        QVERIFY2(live, live ? "" : qPrintable(live.error().toString()));
        const QString routed = dir.filePath(QStringLiteral("after.lfts"));
        const test::Run run = test::runWeft({QStringLiteral("route"), QStringLiteral("--project"), lab.project, QStringLiteral("--topology"),
                                             lab.topology, QStringLiteral("--out"), routed});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        Result<ForwardingTables> expected = readLftDumpFile(routed, &*live);
        QVERIFY(expected);
        Result<ForwardingTables> held = test::installedTables(*lab.sim, *live);
        QVERIFY2(held, held ? "" : qPrintable(held.error().toString()));
        QVERIFY2(*expected == *held, qPrintable(test::tableDifferences(*expected, *held)));

        // smpquery pkeys: every tenant's P_Key on each of its hosts, and no other tenant's.
        int hostsChecked = 0;
        for (const Partition &tenant : lab.tree.intent.tenancy.partitions) {
            for (const PartitionMember &member : tenant.members) {
                const PortIndex port = live->portByGuid(member.guid);
                QVERIFY(port != kNoIndex);
                const auto pkeys = lab.sim->runClient(QStringLiteral("smpquery"), {QStringLiteral("pkeys"), QString::number(live->port(port).lid)});
                QVERIFY2(pkeys && pkeys->exitCode == 0, qPrintable(test::describe(pkeys)));
                const std::set<int> held_pkeys = test::smpqueryPKeys(pkeys->out);
                for (const Partition &other : lab.tree.intent.tenancy.partitions) {
                    const int pkey = int(*other.pkey | 0x8000);
                    QVERIFY2(held_pkeys.count(pkey) == (&other == &tenant ? 1u : 0u),
                             qPrintable(QStringLiteral("%1 in %2: ").arg(guidText(member.guid), tenant.name) + QString::fromUtf8(pkeys->out)));
                }
                ++hostsChecked;
            }
        }
        QVERIFY(hostsChecked >= 12);
    }

    // One standby's directory cannot be written: the commit stops before any SM changes, and the
    // report names that SM.
    void unwritableStandbyChangesNoSm()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        auto started = startHaLab(dir.path(), true);
        QVERIFY2(started, started ? "" : qPrintable(started.error().toString()));
        HaLab &lab = **started;
        Result<Fabric> live = test::discoverWithIbnetdiscover(*lab.sim, lab.topology);
        QVERIFY(live);
        Result<ForwardingTables> tablesBefore = test::installedTables(*lab.sim, *live);
        QVERIFY(tablesBefore);
        const QStringList files{lab.sm1.routing, lab.sm1.partitions, lab.sm2.routing, lab.sm2.partitions};
        QStringList digests;
        for (const QString &f : files)
            digests << digestOf(f);
        const QStringList sm1Entries = QDir(lab.sm1.dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);

        const Result<QStringList> args = commitArguments(lab, dir.path());
        QVERIFY(args);
        test::Run refused;
        if (::geteuid() != 0) {
            QVERIFY(QFile::setPermissions(lab.sm2.dir, QFileDevice::ReadOwner | QFileDevice::ExeOwner));
            refused = runLabWeft(*lab.sim, *args);
            QFile::setPermissions(lab.sm2.dir, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        } else {
            // Root writes through any mode: sm2's directory is mounted read-only instead, in a
            // private mount namespace the commit runs in.
            const QString wrapper = QStringLiteral("mount --bind '%1' '%1' && mount -o remount,bind,ro '%1' || exit 97\nexec \"$@\"").arg(lab.sm2.dir);
            refused = runLabWeft(*lab.sim, *args, wrapper);
            QVERIFY2(refused.exitCode != 97 && refused.exitCode != -1,
                     qPrintable(QStringLiteral("no private mount namespace to make a directory read-only for root here: ") + QString::fromUtf8(refused.err)));
        }
        QVERIFY2(refused.exitCode == 2, refused.out + refused.err);
        QVERIFY2(refused.out.contains("outcome: refused"), refused.out.constData());
        QVERIFY2(refused.out.contains("standby sm2's files cannot be written, so no SM was changed"), refused.out.constData());
        QVERIFY2(refused.out.contains(lab.sm2.dir.toUtf8()), refused.out.constData());
        for (int i = 0; i < files.size(); ++i)
            QVERIFY2(digestOf(files[i]) == digests[i], qPrintable(files[i] + QStringLiteral(" changed")));
        // Nothing staged is left behind (the lock file beside the routing file may stay).
        QStringList after = QDir(lab.sm1.dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
        after.removeAll(QFileInfo(lab.sm1.routing).fileName() + QStringLiteral(".weft-lock"));
        QCOMPARE(after, sm1Entries);
        Result<ForwardingTables> tablesAfter = test::installedTables(*lab.sim, *live);
        QVERIFY(tablesAfter);
        QVERIFY2(*tablesAfter == *tablesBefore, qPrintable(test::tableDifferences(*tablesBefore, *tablesAfter)));
        QVERIFY(lab.sim->standbyPid() > 0);
    }

    // A third OpenSM on the subnet that the target does not name: `weft target check` names it
    // (its port GUID and state), exits 1, and a commit is told of it.
    void unknownSmIsNamed()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        auto started = startHaLab(dir.path(), true);
        QVERIFY2(started, started ? "" : qPrintable(started.error().toString()));
        HaLab &lab = **started;
        const Fabric &fabric = lab.tree.generated.fabric;
        const NodeIndex rogueHost = lab.tree.generated.hosts[lab.tree.generated.hosts.size() / 2];
        const Guid roguePort = fabric.port(fabric.portOf(rogueHost, 1)).guid;
        const Status rogue = lab.sim->startStandbyOpenSm(fabric.node(rogueHost).name, "sm_priority 1\n", {}, QStringLiteral("rogue"));
        QVERIFY2(rogue, rogue ? "" : qPrintable(rogue.error().toString()));

        const test::Run text = runLabWeft(*lab.sim, {QStringLiteral("target"), QStringLiteral("check"), lab.target});
        QCOMPARE(text.exitCode, 1);
        QVERIFY2(text.out.contains("not in the target: standby on port GUID " + guidText(roguePort).toUtf8()), text.out.constData());
        const test::Run json = runLabWeft(*lab.sim, {QStringLiteral("target"), QStringLiteral("check"), lab.target, QStringLiteral("--json")});
        QCOMPARE(json.exitCode, 1);
        const QJsonObject report = QJsonDocument::fromJson(json.out).object();
        const QJsonArray unknown = report.value(QStringLiteral("unknown_sms")).toArray();
        QCOMPARE(unknown.size(), 1);
        QCOMPARE(unknown[0].toObject().value(QStringLiteral("port_guid")).toString().toULongLong(nullptr, 0), roguePort);
        QCOMPARE(unknown[0].toObject().value(QStringLiteral("state")).toString(), QStringLiteral("standby"));
        QCOMPARE(unknown[0].toObject().value(QStringLiteral("priority")).toInt(), 1);
        QCOMPARE(report.value(QStringLiteral("ok")).toBool(), false);
        // The target's own SMs are judged as before.
        QCOMPARE(report.value(QStringLiteral("sms")).toArray()[0].toObject().value(QStringLiteral("state")).toString(), QStringLiteral("master"));

        // A commit goes through the master it knows, and says what it cannot reach.
        const Result<QStringList> args = commitArguments(lab, dir.path());
        QVERIFY(args);
        const test::Run committed = runLabWeft(*lab.sim, *args);
        QVERIFY2(committed.exitCode == 0, commitFailure(committed).constData());
        QVERIFY2(committed.out.contains("warning: an SM the target does not name runs on port GUID " + guidText(roguePort).toUtf8()),
                 committed.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestLabHa)
#include "tst_lab_ha.moc"
