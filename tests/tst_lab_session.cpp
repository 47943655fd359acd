// One session holds the truth (issue 23), through the desk and the real OpenSM: ibsim runs a
// 4-ary 2-tree, OpenSM loads its tables from files (-R file -U -P), and the test's own binary
// runs as a client of the simulation, driving the main window offscreen with real events.
//
// loopTwice: discover through the menu, make two partitions and drop hosts on them, preview
// pftree, Approve; then fail a switch cable from the map's context menu, review the studio's
// SlimUpdate candidate (a pre-emptive plan: valid on the fabric as it is), Approve. Before each
// Approve the review's LFT entries, blocks, P_Key blocks and SMPs, as the review shows them,
// equal the commit report's, and both equal `weft diff` between the tables `weft discover`
// reads before and after. Then a removed host's what-if plan, which cannot hold while the host
// is there, is refused before anything is written. Then Undo: Approve refuses. Then Rediscover: the
// current tables are those read back.
//
// manyDiscoveriesAndCommits: 100 rediscoveries and 100 commits in one desk process (no MAD agent
// may leak, no state may drift); then both still work.
//
// linkDownReachesTheRules: the autopilot watching the sampler's ticks; a host cable unlinked in
// ibsim reaches its rules as link_down.

#include "AutopilotDock.h"
#include "CommitTargetSettings.h"
#include "DeskDriving.h"
#include "DiffReview.h"
#include "FabricDocument.h"
#include "FabricGenerator.h"
#include "FabricScene.h"
#include "FabricSession.h"
#include "FabricView.h"
#include "LabChild.h"
#include "LabTools.h"
#include "LftDump.h"
#include "MainWindow.h"
#include "PartitionPanel.h"
#include "PartitionsConf.h"
#include "ReconfigurationStudio.h"
#include "RoutingEngine.h"
#include "SafeFile.h"
#include "Screenshots.h"
#include "SimulatedFabric.h"
#include "TelemetrySampler.h"
#include "TopologyFile.h"
#include "WeftRunner.h"
#include "YesAnswerer.h"

#include <QAction>
#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <memory>
#include <optional>

using namespace weft;

namespace {

const QLatin1String kLoopChild("--loop-child");
const QLatin1String kManyChild("--many-child");
const QLatin1String kLinkDownChild("--link-down-child");

// The four figures a reconfiguration is judged by.
struct Figures
{
    long long entries = -1;
    long long blocks = -1;
    long long pkeyBlocks = -1;
    long long smps = -1;
    bool operator==(const Figures &o) const
    {
        return entries == o.entries && blocks == o.blocks && pkeyBlocks == o.pkeyBlocks && smps == o.smps;
    }
    QString text() const
    {
        return QStringLiteral("%1 entries, %2 blocks, %3 P_Key blocks, %4 SMPs").arg(entries).arg(blocks).arg(pkeyBlocks).arg(smps);
    }
};

Figures figuresOf(const ReconfigurationDiff &diff)
{
    return {diff.changedEntries, diff.changedBlocks, qlonglong(diff.pkeyBlocks.size()), diff.smps()};
}

// As the Diff Review's summary line says them ("… 12 LFT entries in 5 blocks, 2 P_Key blocks;
// OpenSM sends 8 SMPs.").
Figures figuresShown(const DiffReview &review)
{
    static const QRegularExpression line(QStringLiteral("([\\d,.\\s]+) LFT entries in ([\\d,.\\s]+) blocks, ([\\d,.\\s]+) P_Key blocks; "
                                                        "OpenSM sends ([\\d,.\\s]+) SMPs"));
    const QRegularExpressionMatch m = line.match(review.findChild<QLabel *>(QStringLiteral("diffSummary"))->text());
    if (!m.hasMatch())
        return {};
    const auto number = [&m](int i) { return m.captured(i).remove(QRegularExpression(QStringLiteral("[^\\d]"))).toLongLong(); };
    return {number(1), number(2), number(3), number(4)};
}

Figures figuresOfJson(const QJsonObject &diff)
{
    return {qlonglong(diff.value(QStringLiteral("changed_entries")).toDouble()), qlonglong(diff.value(QStringLiteral("changed_blocks")).toDouble()),
            qlonglong(diff.value(QStringLiteral("pkey_blocks")).toArray().size()), qlonglong(diff.value(QStringLiteral("smps")).toDouble())};
}

// What the fabric holds, read by `weft discover` as a script would: topology, LFTs and P_Keys.
struct Dump
{
    QString topology, lfts, pkeys;
};

Result<Dump> dumpFabric(const QDir &dir, const QString &name)
{
    Dump d{dir.filePath(name + QStringLiteral(".topo")), dir.filePath(name + QStringLiteral(".lfts")),
           dir.filePath(name + QStringLiteral(".pkeys"))};
    const test::Run run = test::runWeft({QStringLiteral("discover"), QStringLiteral("-o"), d.topology, QStringLiteral("--lfts"), d.lfts,
                                         QStringLiteral("--pkeys"), d.pkeys});
    if (run.exitCode != 0)
        return Error{{}, 0, QStringLiteral("weft discover: exit %1: %2").arg(run.exitCode).arg(QString::fromUtf8(run.err))};
    return d;
}

// `weft diff` between two dumps, tables and P_Key tables as read.
Result<Figures> weftDiff(const Dump &before, const Dump &after)
{
    const test::Run run = test::runWeft({QStringLiteral("diff"), QStringLiteral("--json"), QStringLiteral("--topology"), before.topology,
                                         QStringLiteral("--from"), before.lfts, QStringLiteral("--to"), after.lfts,
                                         QStringLiteral("--partitions-from"), before.pkeys, QStringLiteral("--partitions-to"), after.pkeys});
    if (run.exitCode != 0)
        return Error{{}, 0, QStringLiteral("weft diff: exit %1: %2").arg(run.exitCode).arg(QString::fromUtf8(run.err))};
    return figuresOfJson(QJsonDocument::fromJson(run.out).object());
}

// The Diff Review's figures, the commit's and `weft diff`'s between what the fabric held before
// and after, for the plan the review shows; and the session's current tables are the read-back.
void approveAndCompare(MainWindow &window, const QDir &lab, const QString &step)
{
    DiffReview *review = window.diffReview();
    QVERIFY2(review->hasPlan(), qPrintable(step));
    const Figures shown = figuresShown(*review);
    QVERIFY2(shown.smps >= 0, qPrintable(review->summaryText()));
    QCOMPARE(shown, figuresOf(review->diff()));
    qInfo("%s: the review shows %s", qPrintable(step), qPrintable(shown.text()));
    Result<Dump> before = dumpFabric(lab, step + QStringLiteral("-before"));
    QVERIFY2(before, before ? "" : qPrintable(before.error().toString()));

    const std::optional<CommitReport> report = test::clickApprove(window);
    QVERIFY2(report, qPrintable(step + QStringLiteral(": no commit report")));
    QVERIFY2(report->ok(), qPrintable(report->toText()));
    const Figures committed = figuresOf(report->diff);
    qInfo("%s: the commit sent %s", qPrintable(step), qPrintable(committed.text()));
    QVERIFY2(committed == shown, qPrintable(QStringLiteral("review %1, commit %2").arg(shown.text(), committed.text())));

    Result<Dump> after = dumpFabric(lab, step + QStringLiteral("-after"));
    QVERIFY2(after, after ? "" : qPrintable(after.error().toString()));
    const Result<Figures> diff = weftDiff(*before, *after);
    QVERIFY2(diff, diff ? "" : qPrintable(diff.error().toString()));
    qInfo("%s: weft diff of what was read before and after: %s", qPrintable(step), qPrintable(diff->text()));
    QVERIFY2(*diff == shown, qPrintable(QStringLiteral("review %1, weft diff %2").arg(shown.text(), diff->text())));

    // What the desk holds now is what was read back.
    const FabricSession *session = window.document()->session();
    Result<ForwardingTables> held = readLftDumpFile(after->lfts, window.fabric());
    QVERIFY2(held, held ? "" : qPrintable(held.error().toString()));
    QVERIFY(session->currentTables());
    QVERIFY2(*session->currentTables() == *held, "the session's tables are not the read-back");
    QVERIFY2(session->currentTablesName().contains(QLatin1String("read back")), qPrintable(session->currentTablesName()));
    // The committed plan is done: Approve refuses it.
    QVERIFY(!review->isApproveEnabled());
}

// The map's what-if menu on the first switch-to-switch cable, its "Fail this link" triggered at
// the cable's middle; the studio plans.
bool failSwitchCableFromTheMap(MainWindow &window)
{
    const Fabric &fabric = *window.fabric();
    FabricView *view = window.fabricView();
    view->fitToWindow();
    for (LinkIndex l = 0; l < LinkIndex(fabric.links().size()); ++l) {
        const Link &link = fabric.links()[std::size_t(l)];
        if (fabric.node(fabric.port(link.a).node).type != NodeType::Switch || fabric.node(fabric.port(link.b).node).type != NodeType::Switch)
            continue;
        std::unique_ptr<QMenu> menu(view->whatIfMenuAt(view->mapFromScene(window.fabricScene()->cableCentre(l)), nullptr));
        QAction *fail = menu ? menu->findChild<QAction *>(QStringLiteral("failLinkAction")) : nullptr;
        if (!fail)
            continue;
        QSignalSpy planned(window.reconfigurationStudio(), &ReconfigurationStudio::finished);
        fail->trigger();
        return (!planned.isEmpty() || planned.wait(120000)) && planned.first().first().toBool();
    }
    return false;
}

// The map's what-if menu on a host (zoomed to it, as its own item), "Remove" triggered.
bool removeHostFromTheMap(MainWindow &window, NodeIndex host)
{
    FabricView *view = window.fabricView();
    view->focusNode(host);
    QCoreApplication::processEvents();
    std::unique_ptr<QMenu> menu(view->whatIfMenuAt(view->mapFromScene(window.fabricScene()->layout().positions[std::size_t(host)]), nullptr));
    QAction *remove = menu ? menu->findChild<QAction *>(QStringLiteral("removeHostAction")) : nullptr;
    if (!remove)
        return false;
    QSignalSpy planned(window.reconfigurationStudio(), &ReconfigurationStudio::finished);
    remove->trigger();
    return (!planned.isEmpty() || planned.wait(120000)) && planned.first().first().toBool();
}

// The studio's SlimUpdate row selected and reviewed.
bool reviewSlimUpdate(MainWindow &window)
{
    ReconfigurationStudio *studio = window.reconfigurationStudio();
    if (!studio->study())
        return false;
    for (int row = 0; row < int(studio->study()->candidates.size()); ++row)
        if (studio->study()->candidates[std::size_t(row)].spec.kind == CandidateKind::SlimUpdate) {
            studio->selectCandidate(row);
            return studio->reviewSelected();
        }
    return false;
}

// Sets the commit target as the Commit Target dialog does: kept in the settings and given to the
// session.
void targetTheLab(MainWindow &window)
{
    const QDir lab(test::labChildSetup().labDir);
    CommitTarget target;
    target.lftsPath = lab.filePath(QStringLiteral("opensm.lfts"));
    target.partitionsPath = lab.filePath(QStringLiteral("partitions.conf"));
    target.pidFile = lab.filePath(QStringLiteral("opensm.pid"));
    target.logPath = test::labChildSetup().openSmLog;
    saveCommitTarget(target);
    window.document()->session()->setCommitTarget(target);
}

class SessionChild : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { test::useOwnLabSettings(QStringLiteral("tst_lab_session")); }
    void cleanupTestCase() { QSettings().clear(); }

    void loopTwice()
    {
        const QDir lab(test::labChildSetup().labDir);
        MainWindow window;
        window.resize(1366, 768);
        QVERIFY(test::discoverThroughTheMenu(window));
        FabricSession *session = window.document()->session();
        QVERIFY(session->isLive());
        QVERIFY2(session->held().smPort != 0, "the discovery found no SM port");
        targetTheLab(window);

        // Two partitions, the hosts dropped on them from the map.
        PartitionPanel *panel = window.partitionPanel();
        QVERIFY(panel->createPartition(QStringLiteral("red"), QStringLiteral("0x0001")).ok());
        QVERIFY(panel->createPartition(QStringLiteral("blue"), QStringLiteral("0x0002")).ok());
        QVERIFY(test::dropHostsOnPartition(window, test::everyOtherHost(*window.fabric(), 0), 0x0001));
        QVERIFY(test::dropHostsOnPartition(window, test::everyOtherHost(*window.fabric(), 1), 0x0002));

        // 1. Preview pftree, Approve.
        QVERIFY(runPreviewAndWait(window, QStringLiteral("pftree"), 120000));
        DeskDocks::raise(window.diffDock());
        approveAndCompare(window, lab, QStringLiteral("preview"));
        if (QTest::currentTestFailed())
            return;
        QVERIFY(window.diffReview()->approveRefusal().contains(QLatin1String("committed")));

        // 2. A switch cable failed on the map; the studio's SlimUpdate plan, pre-emptive (valid on
        // the fabric as it is: every pair and every switch LID routed), reviewed and approved.
        QVERIFY2(failSwitchCableFromTheMap(window), "no switch cable could be failed on the map");
        QVERIFY(reviewSlimUpdate(window));
        QVERIFY(window.diffReview()->summaryText().contains(QLatin1String("pre-emptive")));
        approveAndCompare(window, lab, QStringLiteral("studio"));
        if (QTest::currentTestFailed())
            return;

        // 3. A host removed on the map: its plan leaves the host's LID unrouted, which cannot hold
        // while the host is there. Approve is off before anything is sent, and says why beside it
        // (the commit's own first step, made as the plan is); nothing is written.
        // (A cable's plan that is not valid on the fabric as it is is refused the same way:
        // tst_session's whatIfPlansArePreEmptiveOnly.)
        window.reconfigurationStudio()->clearEvents();
        QVERIFY2(removeHostFromTheMap(window, window.fabric()->endNodes().back()), "no host could be removed on the map");
        QVERIFY(reviewSlimUpdate(window));
        const QByteArray lftsBefore = test::readAll(lab.filePath(QStringLiteral("opensm.lfts")));
        QVERIFY(!window.diffReview()->isApproveEnabled());
        const QString reasons = window.diffReview()->approveRefusal();
        QVERIFY2(reasons.contains(QLatin1String("what-if")) && reasons.contains(QLatin1String("pre-emptive")), qPrintable(reasons));
        auto *beside = window.diffReview()->findChild<QLabel *>(QStringLiteral("diffStale"));
        QVERIFY(beside && beside->isVisible() && beside->text().contains(reasons));
        QVERIFY(!test::clickApprove(window));
        QCOMPARE(test::readAll(lab.filePath(QStringLiteral("opensm.lfts"))), lftsBefore);
        qInfo("a removed host's what-if plan, refused: %s", qPrintable(reasons));

        // 4. Undo: first the what-if event (a step of its own), then the last drop: the plan is
        // stale each time; Approve is off and refuses, saying why.
        window.reconfigurationStudio()->clearEvents();
        QVERIFY(failSwitchCableFromTheMap(window));
        QVERIFY(reviewSlimUpdate(window));
        // (The cable of step 2: the switches route around it already, so the plan may have nothing
        // to install; it holds all the same.)
        QVERIFY2(!session->isProposalStale(), qPrintable(session->staleReason()));
        QAction *undo = window.findChild<QAction *>(QStringLiteral("undoAction"));
        QVERIFY(undo && undo->isEnabled());
        undo->trigger();
        QVERIFY(session->whatIf().isEmpty());
        QVERIFY(!window.diffReview()->isApproveEnabled());
        QVERIFY2(window.diffReview()->approveRefusal().contains(QLatin1String("what-if")), qPrintable(window.diffReview()->approveRefusal()));
        while (undo->isEnabled() && !window.document()->undoStack()->undoText().startsWith(QLatin1String("Assign")))
            undo->trigger();  // the earlier what-if steps (the host removed, cleared)
        QVERIFY(undo->isEnabled());
        undo->trigger();  // the last drop
        QVERIFY(!window.diffReview()->isApproveEnabled());
        const QString refusal = window.diffReview()->approveRefusal();
        QVERIFY2(refusal.contains(QLatin1String("edited")), qPrintable(refusal));
        window.diffReview()->approve();
        const QString report = window.diffReview()->findChild<QPlainTextEdit *>(QStringLiteral("commitReport"))->toPlainText();
        QVERIFY2(report.startsWith(QLatin1String("Approve refused")), qPrintable(report));

        // 5. Rediscover: the current tables are those the last commit read back, and the
        // session says nothing changed.
        const ForwardingTables lastReadBack = *session->currentTables();
        Result<Dump> now = dumpFabric(lab, QStringLiteral("rediscovered"));
        QVERIFY2(now, now ? "" : qPrintable(now.error().toString()));
        QSignalSpy rediscovered(&window, &MainWindow::discoveryFinished);
        window.rediscoverAction()->trigger();
        QVERIFY(!rediscovered.isEmpty() || rediscovered.wait(120000));
        QVERIFY(rediscovered.first().first().toBool());
        QVERIFY(session->liveChanges().empty());
        QVERIFY2(session->heldChanges().isEmpty(), qPrintable(session->heldChanges().join(QLatin1Char('\n'))));
        QVERIFY(*session->currentTables() == lastReadBack);
        Result<ForwardingTables> read = readLftDumpFile(now->lfts, window.fabric());
        QVERIFY(read);
        QVERIFY(*session->currentTables() == *read);
        QVERIFY(window.grab().save(lab.filePath(QStringLiteral("session.png"))));
    }

    void manyDiscoveriesAndCommits()
    {
        MainWindow window;
        QVERIFY(test::discoverThroughTheMenu(window));
        targetTheLab(window);
        FabricSession *session = window.document()->session();
        constexpr int kRounds = 100;
        for (int i = 0; i < kRounds; ++i) {
            QSignalSpy finished(&window, &MainWindow::discoveryFinished);
            QVERIFY(window.startDiscovery(session->adapterName(), session->adapterPort(), true));
            QVERIFY(!finished.isEmpty() || finished.wait(60000));
            QVERIFY2(finished.first().first().toBool(), qPrintable(QStringLiteral("rediscovery %1: %2").arg(i + 1).arg(finished.first().at(1).toString())));
        }
        // Routings in turn, each previewed and approved. (A plan of what the switches hold already
        // has nothing to install and is not a commit: on the lab's LIDs two engines may route
        // alike, so the next engine is taken then.)
        const QStringList engines{QStringLiteral("minhop"), QStringLiteral("ftree"), QStringLiteral("pftree")};
        int commits = 0;
        for (int i = 0; commits < kRounds && i < 3 * kRounds; ++i) {
            QVERIFY(runPreviewAndWait(window, engines[i % 3], 60000));
            if (window.diffReview()->approveRefusal().startsWith(QLatin1String("nothing to install")))
                continue;
            const std::optional<CommitReport> report = test::clickApprove(window, 60000);
            QVERIFY2(report && report->ok(), report ? qPrintable(QStringLiteral("commit %1: %2").arg(commits + 1).arg(report->toText())) : qPrintable(QStringLiteral("commit %1: no report").arg(commits + 1)));
            ++commits;
        }
        QCOMPARE(commits, kRounds);
        qInfo("%d rediscoveries and %d commits in one desk", kRounds, kRounds);
        // Both still work, and what the desk holds is what the switches hold.
        QSignalSpy finished(&window, &MainWindow::discoveryFinished);
        QVERIFY(window.startDiscovery(QString(), 0, false));
        QVERIFY(!finished.isEmpty() || finished.wait(60000));
        QVERIFY2(finished.first().first().toBool(), qPrintable(finished.first().at(1).toString()));
        QVERIFY(test::waitForScene(window));
        for (const QString &engine : engines) {
            QVERIFY(runPreviewAndWait(window, engine, 60000));
            if (!window.diffReview()->approveRefusal().startsWith(QLatin1String("nothing to install")))
                break;
        }
        const std::optional<CommitReport> last = test::clickApprove(window, 60000);
        QVERIFY(last && last->ok());
    }

    void linkDownReachesTheRules()
    {
        const QDir lab(test::labChildSetup().labDir);
        MainWindow window;
        QVERIFY(test::discoverThroughTheMenu(window));
        AutopilotDock *dock = window.autopilot();
        dock->setRulesText(QStringLiteral("rule cut priority 5 when event(link_down) then notify(\"a cable went down\")\n"));
        QVERIFY2(dock->applyRules(), qPrintable(dock->rulesMessage()));
        TelemetrySampler *sampler = window.telemetrySampler();
        sampler->setInterval(1);
        window.telemetryAction()->trigger();
        QVERIFY(sampler->isRunning());
        QSignalSpy ticked(dock, &AutopilotDock::tickFinished);
        QVERIFY(ticked.wait(30000));

        // The parent unlinks a host cable now.
        QVERIFY(writeFileAtomically(lab.filePath(QStringLiteral("ready-to-unlink")), "ready\n", false).ok());
        const auto fired = [dock] {
            const auto &records = dock->records();
            return std::any_of(records.begin(), records.end(), [](const adapt::AdaptRecord &r) {
                return r.rule == QLatin1String("cut") && r.event == QLatin1String("fired");
            });
        };
        QTRY_VERIFY_WITH_TIMEOUT(fired(), 120000);
        const auto &records = dock->records();
        const bool event = std::any_of(records.begin(), records.end(), [](const adapt::AdaptRecord &r) {
            return r.event == QLatin1String("event") && r.details.value(QStringLiteral("event")).toString() == QLatin1String("event(link_down)");
        });
        QVERIFY2(event, "no link_down event record");
        // The session took the rediscovery: the map marks the cable gone.
        QTRY_VERIFY_WITH_TIMEOUT(!window.document()->session()->liveChanges().linksGone.isEmpty(), 10000);
        window.telemetryAction()->trigger();
    }
};

int runChild(int argc, char **argv)
{
    const QLatin1String flag(argv[1]);
    const char *function = flag == kLoopChild ? "loopTwice" : flag == kManyChild ? "manyDiscoveriesAndCommits"
                                                                                 : "linkDownReachesTheRules";
    return test::runLabChild<SessionChild>(argc, argv, &test::labChildSetup().labDir, &test::labChildSetup().openSmLog, function);
}

// The lab: a 4-ary 2-tree in ibsim, OpenSM on ftree tables with only the Default partition,
// reloading its files on SIGHUP.
struct Lab
{
    QTemporaryDir dir;
    GeneratedFabric generated;
    std::optional<test::FileRoutedLab> files;
};

QString startLab(Lab &lab)
{
    if (!lab.dir.isValid())
        return QStringLiteral("cannot create a temporary directory");
    GeneratorOptions o;
    o.arity = 4;
    o.levels = 2;
    o.linkSpeed = LinkSpeed::SDR;  // what ibsim reports
    Result<GeneratedFabric> generated = generateFabric(o);
    if (!generated)
        return generated.error().toString();
    lab.generated = std::move(*generated);
    Result<Routing> ftree = routeFabric(QStringLiteral("ftree"), lab.generated.fabric, Tenancy{});
    if (!ftree)
        return ftree.error().toString();
    Result<test::FileRoutedLab> started = test::startLabOnTables(lab.dir.path(), lab.generated.fabric, ftree->tables,
                                                                 lab.generated.fabric.endNodes().front());
    if (!started)
        return started.error().toString();
    lab.files = std::move(*started);
    return {};
}

}  // namespace

class TestLabSession : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        const QString tools = test::labToolsProblem();
        QVERIFY2(tools.isEmpty(), qPrintable(tools));
        QVERIFY2(QFileInfo(qEnvironmentVariable("WEFT_BINARY")).isExecutable(), "WEFT_BINARY must name the weft executable");
    }

    void loopTwice()
    {
        Lab lab;
        const QString failure = startLab(lab);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        SimulatedFabric &sim = *lab.files->sim;
        const auto child = sim.runClient(QCoreApplication::applicationFilePath(), {kLoopChild, lab.dir.path(), sim.openSmLogPath()}, 900000);
        qInfo("%s", child ? child->out.constData() : "");
        QVERIFY2(child && child->exitCode == 0, qPrintable(test::describe(child)));
        // What the desk last committed is what dump_lfts reads from the switches.
        Result<ForwardingTables> held = test::installedTables(sim, lab.files->live);
        QVERIFY2(held, held ? "" : qPrintable(held.error().toString()));
        Result<ForwardingTables> read = readLftDumpFile(QDir(lab.dir.path()).filePath(QStringLiteral("rediscovered.lfts")), &lab.files->live);
        QVERIFY2(read, read ? "" : qPrintable(read.error().toString()));
        QVERIFY(*held == *read);
        sim.stop();
    }

    void manyDiscoveriesAndCommits()
    {
        Lab lab;
        const QString failure = startLab(lab);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        SimulatedFabric &sim = *lab.files->sim;
        const auto child = sim.runClient(QCoreApplication::applicationFilePath(), {kManyChild, lab.dir.path(), sim.openSmLogPath()}, 900000);
        qInfo("%s", child ? child->out.constData() : "");
        QVERIFY2(child && child->exitCode == 0, qPrintable(test::describe(child)));
        sim.stop();
    }

    void linkDownReachesTheRules()
    {
        Lab lab;
        const QString failure = startLab(lab);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        SimulatedFabric &sim = *lab.files->sim;
        const QDir dir(lab.dir.path());
        QProcess child;
        child.setProcessEnvironment(sim.clientEnvironment());
        child.setWorkingDirectory(dir.path());
        child.setProcessChannelMode(QProcess::MergedChannels);
        child.start(QCoreApplication::applicationFilePath(), {kLinkDownChild, dir.path(), sim.openSmLogPath()});
        QVERIFY(child.waitForStarted());
        // When the child's autopilot watches, unlink the cable of a host that is not the SM's.
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(dir.filePath(QStringLiteral("ready-to-unlink"))) || child.state() == QProcess::NotRunning, 180000);
        QVERIFY2(child.state() == QProcess::Running, child.readAll().constData());
        const Fabric &live = lab.files->live;
        // (Discovery numbers nodes in its own order: the SM's host is found by its GUID.)
        const Guid smHost = lab.generated.fabric.node(lab.generated.fabric.endNodes().front()).guid;
        NodeIndex host = live.endNodes().back();
        if (live.node(host).guid == smHost)
            host = live.endNodes().front();
        QVERIFY(live.node(host).guid != smHost);
        const Port &hostPort = live.port(live.portOf(host, 1));
        const Port &leafPort = live.port(hostPort.remote);
        const Status cut = sim.simulatorCommand(QStringLiteral("Unlink \"%1\"[%2]").arg(live.node(leafPort.node).name).arg(leafPort.number));
        QVERIFY2(cut.ok(), cut.ok() ? "" : qPrintable(cut.error().toString()));
        QVERIFY(child.waitForFinished(300000));
        const QByteArray out = child.readAll();
        qInfo("%s", out.constData());
        QVERIFY2(child.exitStatus() == QProcess::NormalExit && child.exitCode() == 0, out.constData());
        sim.stop();
    }
};

int main(int argc, char **argv)
{
    if (argc > 1 && (kLoopChild == QLatin1String(argv[1]) || kManyChild == QLatin1String(argv[1]) || kLinkDownChild == QLatin1String(argv[1])))
        return runChild(argc, argv);
    if (qEnvironmentVariableIsEmpty("QTEST_FUNCTION_TIMEOUT"))
        qputenv("QTEST_FUNCTION_TIMEOUT", "1500000");
    QCoreApplication app(argc, argv);
    TestLabSession test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_lab_session.moc"
