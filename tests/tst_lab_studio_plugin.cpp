// The reconfiguration studio's SlimUpdate candidate through Weft's engine inside OpenSM, the
// default commit mode (issue 40): ibsim and the real OpenSM with the weftosm plugin (`routing_engine
// weft`, an ftree intent) run a 4-ary 2-tree; the test runs its own binary as a client of the
// simulation (offscreen), and there, in the main window, discovers the fabric, fails a
// switch-to-switch cable from the map's context menu, chooses the SlimUpdate candidate, reviews it
// and clicks Approve in the Diff Review. The session installs it as the intent in force applying
// slimupdate to the tables the switches hold, the cable drained; the commit verifies the switches
// against the studio's tables. Back outside, dump_lfts (an independent tool) must read from the
// switches exactly the studio's tables, none onto the cable, and still so after OpenSM's next
// sweep (SIGHUP), which keeps them. Then a second desk changes the tables another way (the
// metabase candidate for the same cable, approved) and approves the SlimUpdate candidate again,
// planned from the tables held now: its intent carries the stamp of those tables, the plugin
// stamps the tables OpenSM holds alike (its log says nothing of a mismatch) and applies it, and
// dump_lfts reads the studio's tables again.

#include "DiffReview.h"
#include "DeskDriving.h"
#include "FabricDocument.h"
#include "FabricScene.h"
#include "FabricSession.h"
#include "FabricView.h"
#include "IntentRouting.h"
#include "LabChild.h"
#include "LabTables.h"
#include "LabTools.h"
#include "LftDump.h"
#include "MainWindow.h"
#include "PartitionsConf.h"
#include "ProjectFile.h"
#include "ReconfigurationStudio.h"
#include "SafeFile.h"
#include "SimulatedFabric.h"
#include "TopologyFile.h"
#include "GeneratedFabrics.h"

#include <QAction>
#include <QMenu>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <set>

using namespace weft;

namespace {

const QLatin1String kChildFlag("--studio-plugin-child");
constexpr int kSweepTimeoutMs = 60000;
const QString kConfigured = QStringLiteral("weft tables configured on all switches");

QString labFile(const QString &labDir, const QString &name) { return QDir(labDir).filePath(name); }

// Entries of `tables` that leave through either end of the cable "GUID PORT GUID PORT".
int entriesOnto(const ForwardingTables &tables, const std::set<std::pair<Guid, int>> &ends)
{
    int count = 0;
    for (const SwitchForwardingTable &sw : tables.switches())
        for (Lid lid = 1; lid <= sw.lft.top(); ++lid)
            count += sw.lft.port(lid) != kNoRoute && ends.count({sw.guid, sw.lft.port(lid)}) ? 1 : 0;
    return count;
}

// The desk of a child run: discovered through the menu, the lab's OpenSM as its commit target
// (Weft's engine inside it), the studio set for ftree, τ 0 and metabase's sticky policy.
struct StudioDesk
{
    MainWindow window;
    CommitTarget target;
    ReconfigurationStudio *studio = nullptr;

    bool open(const QString &lab)
    {
        window.resize(1366, 768);
        if (!test::discoverThroughTheMenu(window))
            return false;
        target.intentPath = labFile(lab, QStringLiteral("intent.weft"));
        target.partitionsPath = labFile(lab, QStringLiteral("partitions.conf"));
        target.pidFile = labFile(lab, QStringLiteral("opensm.pid"));
        target.logPath = test::labChildSetup().openSmLog;
        window.document()->session()->setCommitTarget(target);
        studio = window.reconfigurationStudio();
        studio->setEngines({QStringLiteral("ftree")});
        studio->setTau(0);
        studio->setMetabasePolicy(SlotPolicy::Sticky);
        window.fabricView()->fitToWindow();
        return window.document()->session()->hasCommitTarget() && window.document()->session()->currentTables();
    }

    // The studio's run for the events as they are, to its end.
    bool planAgain()
    {
        QSignalSpy planned(studio, &ReconfigurationStudio::finished);
        studio->plan();
        return planned.wait(120000) && planned.first().first().toBool() && studio->study();
    }

    // The study's candidate of `kind`, -1 when there is none.
    int rowOf(CandidateKind kind) const
    {
        int row = -1;
        for (int i = 0; i < int(studio->study()->candidates.size()); ++i)
            if (studio->study()->candidates[std::size_t(i)].spec.kind == kind)
                row = i;
        return row;
    }
};

class StudioPluginChild : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { test::useOwnLabSettings(QStringLiteral("tst_lab_studio_plugin")); }
    void cleanupTestCase() { QSettings().clear(); }

    void slimUpdateCandidateApproved()
    {
        const QString lab = test::labChildSetup().labDir;
        StudioDesk desk;
        QVERIFY(desk.open(lab));
        MainWindow &window = desk.window;
        FabricSession *session = window.document()->session();
        const CommitTarget &target = desk.target;
        const Fabric &fabric = *window.fabric();

        // A switch-to-switch cable, failed from the map's context menu at the cable's middle: the
        // studio plans its candidates for it.
        ReconfigurationStudio *studio = desk.studio;
        FabricView *view = window.fabricView();
        std::unique_ptr<QMenu> menu;
        LinkIndex chosen = kNoIndex;
        for (LinkIndex l = 0; l < LinkIndex(fabric.links().size()) && !menu; ++l) {
            const Link &link = fabric.links()[std::size_t(l)];
            if (fabric.node(fabric.port(link.a).node).type != NodeType::Switch
                || fabric.node(fabric.port(link.b).node).type != NodeType::Switch)
                continue;
            menu.reset(view->whatIfMenuAt(view->mapFromScene(window.fabricScene()->cableCentre(l)), nullptr));
            if (!menu || !menu->findChild<QAction *>(QStringLiteral("failLinkAction")))
                menu.reset();
            else
                chosen = l;
        }
        QVERIFY2(menu, "no cable to fail on the map");
        QSignalSpy planned(studio, &ReconfigurationStudio::finished);
        menu->findChild<QAction *>(QStringLiteral("failLinkAction"))->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(planned.count(), 1, 120000);
        QVERIFY(planned.first().first().toBool());
        const Port &a = fabric.port(fabric.links()[std::size_t(chosen)].a);
        const Port &b = fabric.port(fabric.links()[std::size_t(chosen)].b);
        QVERIFY(writeFileAtomically(labFile(lab, QStringLiteral("failed-cable")),
                                    QStringLiteral("%1 %2 %3 %4").arg(guidText(fabric.node(a.node).guid)).arg(int(a.number))
                                        .arg(guidText(fabric.node(b.node).guid)).arg(int(b.number)).toUtf8(),
                                    false)
                    .ok());

        // The SlimUpdate candidate, valid and moving entries off the cable.
        QVERIFY(studio->study());
        const int slimRow = desk.rowOf(CandidateKind::SlimUpdate);
        QVERIFY(slimRow >= 0);
        const CandidateResult &slim = studio->study()->candidates[std::size_t(slimRow)];
        QVERIFY2(slim.valid(), qPrintable(slim.error));
        QVERIFY2(slim.changedEntries > 0, "failing a used cable must change some entries");
        QVERIFY(writeFileAtomically(labFile(lab, QStringLiteral("studio.lfts")), writeLftDump(*slim.tables, &fabric), false).ok());
        const QString slimName = slim.name;  // the study goes once the commit changes what the switches hold

        // Review: not refused in plugin mode; the review says what goes in and shows the studio's change.
        studio->selectCandidate(slimRow);
        QVERIFY(studio->reviewSelected());
        DiffReview *review = window.diffReview();
        QVERIFY(review->hasPlan());
        QVERIFY2(review->isApproveEnabled(), qPrintable(review->approveRefusal()));
        QVERIFY2(review->summaryText().contains(QLatin1String("applying ") + slimName), qPrintable(review->summaryText()));
        QCOMPARE(qlonglong(review->diff().changedEntries), qlonglong(slim.changedEntries));
        QVERIFY(session->plan() && !session->plan()->commit.intentFile.isEmpty());

        // Approve: the intent goes in, OpenSM sweeps, the commit verifies the switches entry by entry.
        const std::optional<CommitReport> report = test::clickApprove(window);
        QVERIFY(report);
        for (const QString &line : report->toText().split(QLatin1Char('\n')))
            qInfo("report: %s", qPrintable(line));
        QVERIFY2(report->outcome == CommitOutcome::Committed, qPrintable(report->toText()));

        // The intent in force: the candidate's method, the cable drained.
        Result<Project> inForce = readProjectFile(target.intentPath);
        QVERIFY2(inForce, inForce ? "" : qPrintable(inForce.error().toString()));
        Result<IntentOptions> options = intentOptions(*inForce, target.intentPath);
        QVERIFY(options && options->apply);
        QCOMPARE(options->apply->name(), slimName);
        QCOMPARE(options->drained.failedLinkPorts.size(), std::size_t(1));
        QCOMPARE(options->applyFrom.size(), 32);  // the stamp of the tables it was planned from
    }

    // A second desk on the fabric as the first left it: the same cable failed in the what-if (the
    // intent in force drains it), the metabase candidate approved, then the SlimUpdate candidate
    // again, planned from the tables the metabase commit left.
    void anotherCandidateThenTheFirstAgain()
    {
        const QString lab = test::labChildSetup().labDir;
        StudioDesk desk;
        QVERIFY(desk.open(lab));
        const QStringList words = QString::fromUtf8(test::readAll(labFile(lab, QStringLiteral("failed-cable")))).split(QLatin1Char(' '));
        QCOMPARE(words.size(), 4);
        desk.studio->addFailedLink(words[0].toULongLong(nullptr, 16), words[1].toInt());
        for (const CandidateKind kind : {CandidateKind::Metabase, CandidateKind::SlimUpdate}) {
            QVERIFY(desk.planAgain());
            const int row = desk.rowOf(kind);
            QVERIFY(row >= 0);
            const CandidateResult &c = desk.studio->study()->candidates[std::size_t(row)];
            QVERIFY2(c.valid(), qPrintable(c.error));
            const QString file = kind == CandidateKind::Metabase ? QStringLiteral("studio-metabase.lfts") : QStringLiteral("studio-again.lfts");
            QVERIFY(writeFileAtomically(labFile(lab, file), writeLftDump(*c.tables, desk.window.fabric()), false).ok());
            desk.studio->selectCandidate(row);
            QVERIFY(desk.studio->reviewSelected());
            DiffReview *review = desk.window.diffReview();
            QVERIFY2(review->isApproveEnabled(), qPrintable(review->approveRefusal()));
            const std::optional<CommitReport> report = test::clickApprove(desk.window);
            QVERIFY(report);
            for (const QString &line : report->toText().split(QLatin1Char('\n')))
                qInfo("report: %s", qPrintable(line));
            QVERIFY2(report->outcome == CommitOutcome::Committed, qPrintable(report->toText()));
        }
    }
};

int runChild(int argc, char **argv)
{
    return test::runLabChild<StudioPluginChild>(argc, argv, &test::labChildSetup().labDir, &test::labChildSetup().openSmLog);
}

}  // namespace

class TestLabStudioPlugin : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        const QString tools = test::labToolsProblem();
        QVERIFY2(tools.isEmpty(), qPrintable(tools));
    }

    void slimUpdateFromTheStudioIsWhatThePluginInstallsAndKeeps()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        GeneratorOptions o = test::shapeOptions({FabricShapeKind::KaryNTree, 4, 2});
        o.linkSpeed = LinkSpeed::SDR;  // what ibsim reports
        const GeneratedFabric generated = test::generateOrFail(o);
        const Fabric &fabric = generated.fabric;
        const NodeIndex smHost = fabric.endNodes().front();
        const QString intent = labFile(dir.path(), QStringLiteral("intent.weft"));
        const QString partitions = labFile(dir.path(), QStringLiteral("partitions.conf"));
        const QString net = labFile(dir.path(), QStringLiteral("fabric.net"));
        Project project;
        project.routingEngine = QStringLiteral("ftree");
        for (const auto &[path, data] : {std::pair{net, writeIbsimNet(fabric, smHost)}, std::pair{intent, writeProject(project)},
                                         std::pair{partitions, writePartitionsConf(withExplicitDefault({}))}})
            QVERIFY(writeFileAtomically(path, data, false).ok());
        SimulatedFabric::Options options;
        options.netFile = net;
        options.smNode = fabric.node(smHost).name;
        options.partitionsConf = partitions;
        options.openSmConfig = "event_plugin_name weftosm\nevent_plugin_options " + intent.toUtf8() + "\nrouting_engine weft\n";
        options.openSmEnvironment = QStringList{QStringLiteral("LD_LIBRARY_PATH=") + test::osmPluginDirectory()};
        SimulatedFabric sim(options);
        const Status started = sim.start();
        QVERIFY2(started.ok(), started.ok() ? "" : qPrintable(started.error().toString()));
        QVERIFY(sim.waitForOpenSmLog(kConfigured, kSweepTimeoutMs));
        QVERIFY(writeFileAtomically(labFile(dir.path(), QStringLiteral("opensm.pid")), QByteArray::number(sim.openSmPid()) + '\n', false).ok());
        Result<Fabric> live = test::discoverWithIbnetdiscover(sim, labFile(dir.path(), QStringLiteral("lab.topo")));
        QVERIFY2(live, live ? "" : qPrintable(live.error().toString()));
        Result<ForwardingTables> before = test::installedTables(sim, *live);
        QVERIFY2(before, before ? "" : qPrintable(before.error().toString()));

        const qint64 commitLog = sim.openSmLogSize();
        const auto child = sim.runClient(QCoreApplication::applicationFilePath(),
                                         {kChildFlag, dir.path(), sim.openSmLogPath(), QStringLiteral("slimUpdateCandidateApproved")}, 600000);
        if (child)
            for (const QByteArray &line : (child->out + child->err).split('\n'))
                qInfo("child: %s", line.constData());
        QVERIFY2(child && child->exitCode == 0, qPrintable(test::describe(child)));

        // The failed cable, by both ends; it carried routes before.
        const QStringList words = QString::fromUtf8(test::readAll(labFile(dir.path(), QStringLiteral("failed-cable")))).split(QLatin1Char(' '));
        QCOMPARE(words.size(), 4);
        const std::set<std::pair<Guid, int>> ends{{words[0].toULongLong(nullptr, 16), words[1].toInt()},
                                                  {words[2].toULongLong(nullptr, 16), words[3].toInt()}};
        QVERIFY(entriesOnto(*before, ends) > 0);

        // dump_lfts: the studio's tables, entry for entry, none onto the cable.
        Result<ForwardingTables> studio = readLftDumpFile(labFile(dir.path(), QStringLiteral("studio.lfts")), &*live);
        QVERIFY2(studio, studio ? "" : qPrintable(studio.error().toString()));
        Result<ForwardingTables> held = test::installedTables(sim, *live);
        QVERIFY2(held, held ? "" : qPrintable(held.error().toString()));
        QString differences = test::tableDifferences(*studio, *held);
        QVERIFY2(differences.isEmpty(), qPrintable(QStringLiteral("the switches vs the studio's candidate:\n") + differences));
        QVERIFY2(!test::firstRouteDifference(*live, *before, *held).isEmpty(), "the commit changed nothing");
        QCOMPARE(entriesOnto(*held, ends), 0);
        // The plugin applied the method itself (it did not route by its engine).
        const QByteArray commitSweep = test::readAll(sim.openSmLogPath()).mid(commitLog);
        QVERIFY2(commitSweep.contains("by slimupdate:"), commitSweep.right(4000).constData());

        // OpenSM's next sweep (SIGHUP, no Weft process): the plugin keeps the tables.
        const qint64 offset = sim.openSmLogSize();
        QCOMPARE(::kill(pid_t(sim.openSmPid()), SIGHUP), 0);
        QVERIFY(sim.waitForOpenSmLog(kConfigured, kSweepTimeoutMs, offset));
        const QByteArray sweep = test::readAll(sim.openSmLogPath()).mid(offset);
        QVERIFY2(sweep.contains("by kept"), sweep.right(4000).constData());
        held = test::installedTables(sim, *live);
        QVERIFY2(held, held ? "" : qPrintable(held.error().toString()));
        differences = test::tableDifferences(*studio, *held);
        QVERIFY2(differences.isEmpty(), qPrintable(QStringLiteral("after OpenSM's next sweep, the switches vs the studio's candidate:\n") + differences));

        // The tables changed another way (the metabase candidate), then the SlimUpdate candidate
        // approved again, planned from them.
        const qint64 againLog = sim.openSmLogSize();
        const auto again = sim.runClient(QCoreApplication::applicationFilePath(),
                                         {kChildFlag, dir.path(), sim.openSmLogPath(), QStringLiteral("anotherCandidateThenTheFirstAgain")}, 600000);
        if (again)
            for (const QByteArray &line : (again->out + again->err).split('\n'))
                qInfo("child: %s", line.constData());
        QVERIFY2(again && again->exitCode == 0, qPrintable(test::describe(again)));
        Result<ForwardingTables> metabase = readLftDumpFile(labFile(dir.path(), QStringLiteral("studio-metabase.lfts")), &*live);
        QVERIFY2(metabase, metabase ? "" : qPrintable(metabase.error().toString()));
        Result<ForwardingTables> studioAgain = readLftDumpFile(labFile(dir.path(), QStringLiteral("studio-again.lfts")), &*live);
        QVERIFY2(studioAgain, studioAgain ? "" : qPrintable(studioAgain.error().toString()));
        // Each commit changed the tables: the first candidate's, metabase's, the first method's again.
        QVERIFY(!test::tableDifferences(*studio, *metabase).isEmpty());
        QVERIFY(!test::tableDifferences(*metabase, *studioAgain).isEmpty());
        held = test::installedTables(sim, *live);
        QVERIFY2(held, held ? "" : qPrintable(held.error().toString()));
        differences = test::tableDifferences(*studioAgain, *held);
        QVERIFY2(differences.isEmpty(), qPrintable(QStringLiteral("the switches vs the studio's candidate approved again:\n") + differences));
        QCOMPARE(entriesOnto(*held, ends), 0);
        // Its intent: the method again, stamped with the tables the metabase commit left (as
        // dump_lfts reads them here); the plugin stamped what OpenSM holds alike and applied it.
        Result<Project> inForce = readProjectFile(intent);
        QVERIFY(inForce);
        Result<IntentOptions> applied = intentOptions(*inForce, intent);
        QVERIFY(applied && applied->apply && applied->apply->kind == CandidateKind::SlimUpdate);
        QCOMPARE(applied->applyFrom, heldTablesStamp(*live, *metabase));
        const QByteArray againSweeps = test::readAll(sim.openSmLogPath()).mid(againLog);
        QVERIFY2(againSweeps.contains("by metabase") && againSweeps.contains("by slimupdate:"), againSweeps.right(4000).constData());
        QVERIFY2(!againSweeps.contains("stamped"), againSweeps.right(4000).constData());
        sim.stop();
    }
};

int main(int argc, char **argv)
{
    if (argc > 1 && kChildFlag == QLatin1String(argv[1]))
        return runChild(argc, argv);
    if (qEnvironmentVariableIsEmpty("QTEST_FUNCTION_TIMEOUT"))
        qputenv("QTEST_FUNCTION_TIMEOUT", "840000");
    QCoreApplication app(argc, argv);
    TestLabStudioPlugin test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_lab_studio_plugin.moc"
