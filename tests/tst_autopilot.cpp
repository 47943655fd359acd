// The desk's Autopilot dock, headless: synthetic ticks of measured rates (through the telemetry
// sampler's one entry, takeRecords) make a rule fire on a fabric with installed ftree tables; in
// approve mode the chosen candidate becomes the document's proposal for the Diff Review and
// nothing is committed; a rules text with an error is refused with file:line:column while the
// rules in force stay; paused, nothing is planned; the stage table, the firing log and the commit
// journal (kind "adapt" rows) show the records.

#include "AutopilotDock.h"
#include "CommitJournal.h"
#include "CommitJournalModel.h"
#include "CommitTargetSettings.h"
#include "DiffReview.h"
#include "FabricDocument.h"
#include "FabricGenerator.h"
#include "GeneratedFabrics.h"
#include "MainWindow.h"
#include "RoutingEngine.h"
#include "FabricSession.h"
#include "Screenshots.h"
#include "StandInOpenSm.h"
#include "TelemetrySampler.h"
#include "TextReader.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <memory>
#include <set>

using namespace weft;
using namespace weft::adapt;

namespace {

constexpr double kStart = 1.7e9;    // seconds since the epoch: a tick's time
constexpr double kHotBytes = 8e9;   // 64 Gb/s received
constexpr double kIdleBytes = 5e8;  // 4 Gb/s

// The thesis's hot-spot shape (T-WFT-1): two leaves of four hosts under two spines.
std::shared_ptr<const Fabric> hotSpotFabric()
{
    GeneratorOptions options;
    options.shape = FabricShapeKind::Xgft;
    Result<XgftShape> shape = parseXgft(QStringLiteral("2;2,4;2,1"));
    if (!shape)
        qFatal("%s", qPrintable(shape.error().toString()));
    options.xgft = *shape;
    return std::make_shared<const Fabric>(test::generateOrFail(options).fabric);
}

std::vector<TelemetryRecord> tick(const Fabric &f, double time, const std::set<NodeIndex> &hot)
{
    return syntheticTick(f, time, hot, kHotBytes, kIdleBytes);
}

const QString kHotRule = QStringLiteral(
    "# a host receiving more than 20 Gb/s for 20 s: re-route with learned weights\n"
    "rule hot priority 5 cooldown 1h\n"
    "  when max(node[all].rx_gbps) > 20 for 20s\n"
    "  then reroute(engine=wftree, weights=learned(1m))\n");

// The document with its session, the Diff Review and the dock, as the main window has them;
// ticks come through the session's sampler (the loop is the session's).
struct Desk
{
    Desk()
        : fabric(hotSpotFabric())
    {
        document.session()->setCommitTarget(configuredCommitTarget());
        document.reset(fabric, Tenancy(), QStringLiteral("hot spot"));
        Result<Routing> routing = routeFabric(QStringLiteral("ftree"), *fabric, Tenancy());
        if (!routing)
            qFatal("%s", qPrintable(routing.error().toString()));
        installed = std::make_shared<const ForwardingTables>(std::move(routing->tables));
        document.session()->setCurrentTables(installed, QStringLiteral("ftree"));
        review.setDocument(&document);
        dock = std::make_unique<AutopilotDock>(&document);
    }

    TelemetrySampler *sampler() const { return document.session()->sampler(); }

    // Feeds a tick through the sampler and waits for the loop to finish it.
    bool feed(double time, const std::set<NodeIndex> &hot)
    {
        QSignalSpy done(dock.get(), &AutopilotDock::tickFinished);
        sampler()->takeRecords(tick(*fabric, time, hot));
        return done.count() > 0 || done.wait(60000);
    }

    int count(const QString &event) const
    {
        const auto &records = dock->records();
        return int(std::count_if(records.begin(), records.end(), [&](const AdaptRecord &r) { return r.event == event; }));
    }

    std::shared_ptr<const Fabric> fabric;
    std::shared_ptr<const ForwardingTables> installed;
    FabricDocument document;
    DiffReview review;
    std::unique_ptr<AutopilotDock> dock;
};

}  // namespace

class TestAutopilot : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void approveModeProposesAndCommitsNothing();
    void refusedRulesKeepThoseInForce();
    void pauseStopsPlanning();
    void dryRunPlansNothing();
    void autoModeCommitsThroughTheDiffReview();
    void autoModeCommitsTheLoopsOwnPlan();
    void deskHasTheDock();
};

void TestAutopilot::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("WeftTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_autopilot"));
    QSettings().clear();
    qunsetenv("WEFT_LAB_DIR");
}

void TestAutopilot::approveModeProposesAndCommitsNothing()
{
    // The lab's files as the commit target (no OpenSM runs): the loop's journal and lock go there.
    QTemporaryDir lab;
    QVERIFY(lab.isValid());
    qputenv("WEFT_LAB_DIR", lab.path().toUtf8());
    const auto unset = qScopeGuard([] { qunsetenv("WEFT_LAB_DIR"); });
    const QString journal = defaultJournalPath(configuredCommitTarget().lftsPath);

    Desk desk;
    AutopilotDock &dock = *desk.dock;
    QVERIFY(dock.loop());
    dock.setRulesText(kHotRule);
    QVERIFY(dock.applyRules());
    QVERIFY(!dock.rulesMessageIsError());
    QVERIFY(dock.setMode(RuleMode::Approve));
    QCOMPARE(dock.modeBox()->currentData().toInt(), int(RuleMode::Approve));

    const std::set<NodeIndex> hot = hotSpotHosts(*desk.fabric);
    QVERIFY(desk.feed(kStart, hot));
    QVERIFY(desk.feed(kStart + 10, hot));
    QCOMPARE(desk.count(QStringLiteral("fired")), 0);  // held 10 s of 20 s
    // The symptom is active, with its held time and its term's value.
    QCOMPARE(dock.symptomTable()->rowCount(), 1);
    QCOMPARE(dock.symptomTable()->item(0, AutopilotDock::SymptomRuleColumn)->text(), QStringLiteral("hot"));
    QVERIFY(dock.symptomTable()->item(0, AutopilotDock::SymptomTermsColumn)->text().contains(QStringLiteral("rx_gbps")));
    QVERIFY(!desk.document.session()->proposal());

    QVERIFY(desk.feed(kStart + 20, hot));
    QCOMPARE(desk.count(QStringLiteral("fired")), 1);
    // The chosen candidate is the document's proposal, waiting in the Diff Review.
    QVERIFY2(dock.pendingChange(), qPrintable(dock.statusText()));
    QCOMPARE(dock.pendingChange()->mode, RuleMode::Approve);
    const std::shared_ptr<const PreviewResult> proposal = desk.document.session()->proposal();
    QVERIFY(proposal);
    QVERIFY(proposal->proposed.label.startsWith(QStringLiteral("Candidate: ")));
    QCOMPARE(proposal->proposed.tables, dock.pendingChange()->plan.chosenCandidate()->tables);
    QVERIFY(desk.review.hasPlan());
    QVERIFY(desk.review.diff().changedEntries > 0);
    QVERIFY(dock.statusText().contains(QStringLiteral("approval")));
    // Nothing committed: the installed tables stand, and the journal holds no commit.
    QCOMPARE(desk.document.session()->currentTables(), desk.installed);
    Result<std::vector<CommitJournalEntry>> entries = readJournal(journal);
    QVERIFY2(entries, qPrintable(entries ? QString() : entries.error().toString()));
    QVERIFY(!entries->empty());
    QVERIFY(std::none_of(entries->begin(), entries->end(), [](const CommitJournalEntry &e) { return !e.isAdapt(); }));
    QVERIFY(std::any_of(entries->begin(), entries->end(), [](const CommitJournalEntry &e) {
        return e.outcome == QLatin1String("fired") && e.adapt.value(QStringLiteral("rule")).toString() == QLatin1String("hot");
    }));

    // The stage table: every stage did something on the firing tick.
    for (int s = 0; s <= int(MapeStage::Plan); ++s)
        QVERIFY2(!dock.stageTable()->item(s, AutopilotDock::StageTextColumn)->text().isEmpty(), qPrintable(QString::number(s)));
    // The cooldown runs.
    QCOMPARE(dock.cooldownTable()->rowCount(), 1);
    QCOMPARE(dock.cooldownTable()->item(0, AutopilotDock::CooldownRuleColumn)->text(), QStringLiteral("hot"));
    // The firing log, newest first, and the selected record's details as JSON.
    QCOMPARE(dock.logTable()->rowCount(), int(dock.records().size()));
    int firedRow = -1;
    for (int row = 0; row < dock.logTable()->rowCount(); ++row)
        if (dock.logTable()->item(row, AutopilotDock::LogEventColumn)->text() == QLatin1String("fired"))
            firedRow = row;
    QVERIFY(firedRow >= 0);
    QCOMPARE(dock.logTable()->item(firedRow, AutopilotDock::LogRuleColumn)->text(), QStringLiteral("hot"));
    dock.logTable()->selectRow(firedRow);
    QVERIFY(dock.detailsView()->toPlainText().contains(QStringLiteral("\"rule\": \"hot\"")));

    // The Commit Journal dialog's model shows the loop's rows: event as outcome, rule and summary.
    CommitJournalModel model;
    QAbstractItemModelTester tester(&model);
    model.setEntries(*entries);
    bool shown = false;
    for (int row = 0; row < model.rowCount(); ++row) {
        const QString outcome = model.index(row, CommitJournalModel::OutcomeColumn).data().toString();
        const QString plan = model.index(row, CommitJournalModel::PlanColumn).data().toString();
        shown = shown || (outcome == QLatin1String("fired") && plan.contains(QStringLiteral("hot")));
    }
    QVERIFY(shown);

    // The operator drops the proposal: the loop hears that the change was dismissed.
    desk.document.session()->clearProposal();
    QVERIFY(!dock.pendingChange());
    QCOMPARE(desk.count(QStringLiteral("dismissed")), 1);
    QVERIFY(dock.setMode(RuleMode::DryRun));  // releases the target's lock
}

void TestAutopilot::refusedRulesKeepThoseInForce()
{
    Desk desk;
    AutopilotDock &dock = *desk.dock;
    dock.setRulesText(kHotRule);
    QVERIFY(dock.applyRules());
    QCOMPARE(dock.loop()->rules().size(), std::size_t(1));

    // Line 3, after `>`: a number is missing.
    dock.setRulesText(QStringLiteral("# broken\nrule cold\n  when max(node[all].rx_gbps) > for 20s\n  then notify(\"x\")\n"),
                      QStringLiteral("site.rules"));
    QVERIFY(!dock.checkRules());
    QVERIFY(dock.rulesMessageIsError());
    QVERIFY2(dock.rulesMessage().startsWith(QStringLiteral("site.rules:3:")), qPrintable(dock.rulesMessage()));
    const int column = dock.rulesMessage().section(QLatin1Char(':'), 2, 2).toInt();
    QVERIFY(column > 1);
    // The cursor is there, and the line is marked.
    QCOMPARE(dock.rulesEditor()->textCursor().blockNumber(), 2);
    QCOMPARE(dock.rulesEditor()->textCursor().positionInBlock(), column - 1);
    QCOMPARE(dock.rulesEditor()->extraSelections().size(), 1);
    QCOMPARE(dock.rulesEditor()->extraSelections().first().cursor.blockNumber(), 2);

    QVERIFY(!dock.applyRules());
    QVERIFY(dock.rulesMessage().contains(QStringLiteral("site.rules:3:")));
    QVERIFY(dock.rulesMessageIsError());
    QCOMPARE(dock.appliedRulesText(), kHotRule);
    QCOMPARE(dock.loop()->rules().size(), std::size_t(1));
    QCOMPARE(dock.loop()->rules().front().name, QStringLiteral("hot"));
    QCOMPARE(desk.count(QStringLiteral("rules-refused")), 1);

    // The previous rules go on working: the rule still fires on the loop's ticks.
    const std::set<NodeIndex> hot = hotSpotHosts(*desk.fabric);
    for (int t = 0; t <= 20; t += 10)
        QVERIFY(desk.feed(kStart + t, hot));
    QCOMPARE(desk.count(QStringLiteral("fired")), 1);

    // Save and open go through files; an unreadable file says so.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("hot.rules"));
    dock.setRulesText(kHotRule);
    QString error;
    QVERIFY(dock.saveRulesFile(path, &error));
    dock.setRulesText(QString());
    QVERIFY(dock.openRulesFile(path, &error));
    QCOMPARE(dock.rulesEditor()->toPlainText(), kHotRule);
    QCOMPARE(dock.rulesFileName(), path);
    QVERIFY(!dock.rulesMessageIsError());
    QVERIFY(!dock.openRulesFile(dir.filePath(QStringLiteral("missing.rules")), &error));
    QVERIFY(error.contains(QStringLiteral("missing.rules")));
}

void TestAutopilot::pauseStopsPlanning()
{
    Desk desk;
    AutopilotDock &dock = *desk.dock;
    dock.setRulesText(kHotRule);
    QVERIFY(dock.applyRules());
    QVERIFY(dock.setMode(RuleMode::Approve));  // no commit target: no lock, nothing to commit to
    dock.pauseButton()->click();
    QVERIFY(dock.paused());
    QVERIFY(dock.loop()->paused());
    QVERIFY(dock.statusText().contains(QStringLiteral("PAUSED")));

    const std::set<NodeIndex> hot = hotSpotHosts(*desk.fabric);
    for (int t = 0; t <= 30; t += 10)
        QVERIFY(desk.feed(kStart + t, hot));
    // Evaluated and logged, never planned nor shown.
    QVERIFY(desk.count(QStringLiteral("fired")) + desk.count(QStringLiteral("paused")) >= 1);
    QCOMPARE(desk.count(QStringLiteral("planned")), 0);
    QCOMPARE(desk.count(QStringLiteral("awaiting-approval")), 0);
    QVERIFY(!dock.pendingChange());
    QVERIFY(!desk.document.session()->proposal());

    // A tick arriving while one runs is skipped and counted.
    const int before = dock.ticks();
    QSignalSpy done(&dock, &AutopilotDock::tickFinished);
    dock.autopilot()->takeTick(kStart + 40, tick(*desk.fabric, kStart + 40, hot), desk.fabric.get());
    QVERIFY(dock.isTicking());  // until the worker's result is back on this thread
    dock.autopilot()->takeTick(kStart + 41, tick(*desk.fabric, kStart + 41, hot), desk.fabric.get());
    QCOMPARE(dock.skippedTicks(), 1);
    QVERIFY(done.count() > 0 || done.wait(60000));
    QCOMPARE(dock.ticks(), before + 1);

    dock.pauseButton()->click();
    QVERIFY(!dock.paused());
    QVERIFY(!dock.loop()->paused());
}

void TestAutopilot::dryRunPlansNothing()
{
    Desk desk;
    AutopilotDock &dock = *desk.dock;
    QCOMPARE(dock.mode(), RuleMode::DryRun);
    dock.setRulesText(kHotRule);
    QVERIFY(dock.applyRules());
    const std::set<NodeIndex> hot = hotSpotHosts(*desk.fabric);
    for (int t = 0; t <= 20; t += 10)
        QVERIFY(desk.feed(kStart + t, hot));
    QCOMPARE(desk.count(QStringLiteral("fired")), 1);
    QVERIFY(!dock.pendingChange());
    QVERIFY(!desk.document.session()->proposal());

    // An operator's commit (new current tables) reaches the loop's knowledge.
    Result<Routing> other = routeFabric(QStringLiteral("minhop"), *desk.fabric, Tenancy());
    QVERIFY(other);
    auto tables = std::make_shared<const ForwardingTables>(std::move(other->tables));
    desk.document.session()->setCurrentTables(tables, QStringLiteral("minhop"));
    QCOMPARE(dock.loop()->knowledge().installed, tables);
}

void TestAutopilot::autoModeCommitsThroughTheDiffReview()
{
    {
        // Without a commit target there is nothing to commit to: auto is refused, dry run stays.
        Desk desk;
        QVERIFY(!desk.dock->setMode(RuleMode::Auto));
        QCOMPARE(desk.dock->mode(), RuleMode::DryRun);
        QCOMPARE(desk.dock->modeBox()->currentData().toInt(), int(RuleMode::DryRun));
        QVERIFY(desk.dock->statusText().contains(QStringLiteral("commit target")));
    }
    // The lab's files as the target, no OpenSM behind them: the change is committed unattended
    // through the Diff Review's commit path, which refuses it; the loop hears the outcome.
    QTemporaryDir lab;
    QVERIFY(lab.isValid());
    qputenv("WEFT_LAB_DIR", lab.path().toUtf8());
    const auto unset = qScopeGuard([] { qunsetenv("WEFT_LAB_DIR"); });
    Desk desk;
    AutopilotDock &dock = *desk.dock;
    dock.setRulesText(QString(kHotRule).replace(QStringLiteral("cooldown 1h"), QStringLiteral("cooldown 1h mode auto")));
    QVERIFY(dock.applyRules());
    QVERIFY(dock.setMode(RuleMode::Auto));
    // A second loop on the same target is refused by the target's adapt lock.
    {
        Desk other;
        QVERIFY(!other.dock->setMode(RuleMode::Approve));
        QVERIFY(other.dock->statusText().contains(QStringLiteral("dry run")));
    }
    QSignalSpy finished(&desk.review, &DiffReview::commitFinished);
    const std::set<NodeIndex> hot = hotSpotHosts(*desk.fabric);
    for (int t = 0; t <= 20; t += 10)
        QVERIFY(desk.feed(kStart + t, hot));
    QCOMPARE(desk.count(QStringLiteral("fired")), 1);
    QVERIFY(finished.count() > 0 || finished.wait(120000));
    const CommitReport report = finished.first().first().value<CommitReport>();
    QVERIFY(report.outcome != CommitOutcome::Committed);
    // The loop accounted for it (its Execute stage), and nothing is waiting any more.
    QVERIFY(!dock.pendingChange());
    QCOMPARE(desk.count(QStringLiteral("committed")), 0);
    QVERIFY2(desk.count(QStringLiteral("commit-failed")) == 1, qPrintable(dock.statusText()));
    QVERIFY(!dock.stageTable()->item(int(MapeStage::Execute), AutopilotDock::StageTextColumn)->text().isEmpty());
    QCOMPARE(desk.document.session()->currentTables(), desk.installed);
}

// Auto mode with a partition edit nobody approved in the document: the commit installs the
// loop's own plan (its tables, the partitions the fabric holds), never the edit.
void TestAutopilot::autoModeCommitsTheLoopsOwnPlan()
{
    Desk desk;
    test::StandInOpenSm opensm(*desk.fabric, *desk.installed, {}, desk.fabric->port(desk.fabric->portOf(desk.fabric->endNodes().front(), 1)).guid);
    FabricSession *session = desk.document.session();
    session->setCommitTarget(opensm.target());
    session->setFabricAccess([&opensm] { return opensm.backend(); });
    // The edit, unapproved: a partition with two hosts.
    QVERIFY(desk.document.createPartition(QStringLiteral("unapproved"), 0x0042).ok());
    const Fabric &fabric = *desk.fabric;
    desk.document.assignPorts({fabric.port(fabric.portOf(fabric.endNodes()[1], 1)).guid, fabric.port(fabric.portOf(fabric.endNodes()[2], 1)).guid},
                              0x0042, Membership::Full);
    AutopilotDock &dock = *desk.dock;
    dock.setRulesText(QString(kHotRule).replace(QStringLiteral("cooldown 1h"), QStringLiteral("cooldown 1h mode auto")));
    QVERIFY(dock.applyRules());
    QVERIFY(dock.setMode(RuleMode::Auto));
    QSignalSpy finished(session, &FabricSession::commitFinished);
    const std::set<NodeIndex> hot = hotSpotHosts(fabric);
    for (int t = 0; t <= 20; t += 10)
        QVERIFY(desk.feed(kStart + t, hot));
    QVERIFY(finished.count() > 0 || finished.wait(60000));
    const CommitReport report = finished.first().first().value<CommitReport>();
    QVERIFY2(report.ok(), qPrintable(report.toText()));
    QVERIFY2(report.toText().contains(QLatin1String("autopilot")) || desk.count(QStringLiteral("committed")) == 1, qPrintable(report.toText()));
    QCOMPARE(desk.count(QStringLiteral("committed")), 1);
    // What went in: the loop's tables, and no partition of the edit.
    const QByteArray installed = *TextReader::readFile(opensm.target().partitionsPath);
    QVERIFY2(!installed.contains("unapproved") && !installed.contains("0x0042"), installed.constData());
    QVERIFY(opensm.held() == *session->currentTables());
    QVERIFY(!(opensm.held() == *desk.installed));
    // The edit is still the operator's to review; the session's proposal was never touched.
    QVERIFY(desk.document.tenancy().findPartition(0x0042));
    QVERIFY(!session->proposal());
}

void TestAutopilot::deskHasTheDock()
{
    MainWindow window;
    QString error;
    QVERIFY2(window.loadDemoFabric(&error), qPrintable(error));
    QDockWidget *dockWidget = window.findChild<QDockWidget *>(QStringLiteral("autopilotDock"));
    QVERIFY(dockWidget);
    QCOMPARE(dockWidget, window.autopilotDock());
    bool inViewMenu = false;
    for (QAction *menu : window.menuBar()->actions())
        if (menu->menu())
            inViewMenu = inViewMenu || menu->menu()->actions().contains(dockWidget->toggleViewAction());
    QVERIFY(inViewMenu);
    // Without installed tables there is no loop; with them, the sampler's ticks reach it.
    QVERIFY(!window.autopilot()->loop());
    Result<Routing> routing = routeFabric(QStringLiteral("ftree"), *window.fabric(), window.tenancy());
    QVERIFY(routing);
    window.document()->session()->setCurrentTables(std::make_shared<const ForwardingTables>(std::move(routing->tables)),
                                                   QStringLiteral("ftree"));
    QVERIFY(window.autopilot()->loop());
    QSignalSpy done(window.autopilot(), &AutopilotDock::tickFinished);
    window.telemetrySampler()->takeRecords(tick(*window.fabric(), kStart, {}));
    QVERIFY(done.count() > 0 || done.wait(60000));
    QCOMPARE(window.autopilot()->ticks(), 1);
}

QTEST_MAIN(TestAutopilot)
#include "tst_autopilot.moc"
