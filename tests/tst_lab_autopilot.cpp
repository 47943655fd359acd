// The desk's Autopilot in approve mode, end to end in the lab (issue 13's acceptance: "in approve
// mode the same firing waits in the Diff Review and nothing is committed until Approve").
// The lab of tst_lab_adapt: an XGFT(2; 4,8; 2,1) in ibsim under OpenSM (`-R file -U -P`, sweeps
// off) on Weft's ftree tables, and the lab's traffic driver in this process with two hot
// receivers of one leaf that ftree sends down the same spine link (offered 120 % of its rate,
// every host cable 77.5 %). The test's own binary runs again as a client of the simulation
// (libumad2sim preloaded, offscreen) and there, in the main window: the commit target is the
// lab's OpenSM, Fabric > Discover, the Autopilot's rules
//   max(link[all].util) > 0.9 for 4s -> reroute(engine=wftree, weights=learned(20s), method=full)
// applied in approve mode, Fabric > Sample Port Counters every 2 s. After each sampler tick the
// child prints a line; the parent then advances the driver by one interval, first taking up the
// -U file's tables when they changed (so each tick's rates cover one interval of the driver).
// The child asserts: the rule fires; the chosen candidate is the document's proposal in the Diff
// Review; the journal has fired, planned and awaiting-approval and no commit; the -U file stays
// as it was, also two ticks later; Approve (answered Yes) commits: the journal's commit entry is
// "committed", the loop logs "approved" and "committed"; once the driver follows the new tables
// the highest utilisation the sampler reads falls from >= 0.99 to < 0.9.

#include "AutopilotDock.h"
#include "CommitJournal.h"
#include "CommitTargetSettings.h"
#include "DiffReview.h"
#include "FabricDocument.h"
#include "HotSpotLab.h"
#include "LabChild.h"
#include "LftDump.h"
#include "MainWindow.h"
#include "FabricSession.h"
#include "SimulatedFabric.h"
#include "TelemetrySampler.h"
#include "YesAnswerer.h"

#include <QAction>
#include <QApplication>
#include <QDeadlineTimer>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cstdio>
#include <optional>

using namespace weft;

namespace {

const QLatin1String kChildFlag("--autopilot-child");
const char *const kTickMarker = "AUTOPILOT-TICK";

constexpr double kIntervalSeconds = 2.0;

// tst_lab_adapt's rule; the loop acts on the more careful of its mode and the rule's: approve.
const char *const kRule = "rule hot priority 10 cooldown 10m mode auto when max(link[all].util) > 0.9 for 4s "
                          "then reroute(engine=wftree, weights=learned(20s), method=full)\n";

// ---------------------------------------------------------------------------------------------
// The child: the desk, inside the simulation.

// The highest utilisation of a tick as the sampler read it; -1 when no port has one.
double maxUtilisation(const std::vector<TelemetryRecord> &records)
{
    double highest = -1;
    for (const TelemetryRecord &r : records)
        if (r.rates.utilisation.ok())
            highest = std::max(highest, r.rates.utilisation.value);
    return highest;
}

int countEvent(const AutopilotDock &dock, const char *event)
{
    const auto &records = dock.records();
    return int(std::count_if(records.begin(), records.end(), [&](const adapt::AdaptRecord &r) { return r.event == QLatin1String(event); }));
}

class AutopilotChild : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { test::useOwnLabSettings(QStringLiteral("tst_lab_autopilot")); }

    void cleanupTestCase() { QSettings().clear(); }

    void approveWaitsForTheOperator()
    {
        const QDir lab(test::labChildSetup().labDir);
        CommitTarget target;
        target.lftsPath = lab.filePath(QStringLiteral("opensm.lfts"));
        target.partitionsPath = lab.filePath(QStringLiteral("partitions.conf"));
        target.pidFile = lab.filePath(QStringLiteral("opensm.pid"));
        target.logPath = test::labChildSetup().openSmLog;
        saveCommitTarget(target);
        const QString journalPath = defaultJournalPath(target.lftsPath);
        const QByteArray tablesBefore = test::readAll(target.lftsPath);
        QVERIFY(!tablesBefore.isEmpty());

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy discovered(&window, &MainWindow::discoveryFinished);
        QVERIFY(window.startDiscovery(QString(), 0, false));
        QVERIFY(!discovered.isEmpty() || discovered.wait(120000));
        QVERIFY2(discovered.at(0).at(0).toBool(), qPrintable(discovered.at(0).at(1).toString()));
        // The loop models its candidates under the desk's traffic as it opens, nothing chosen:
        // partition-all-to-all, and the lab's partitions.conf names only Default, which the
        // discovered tenancy leaves out, so every host pair (as tst_lab_adapt's `all-to-all`).
        QCOMPARE(window.document()->session()->trafficModel().pattern, TrafficPattern::PartitionAllToAll);
        QVERIFY(window.document()->tenancy().partitions.empty());

        AutopilotDock *dock = window.autopilot();
        QVERIFY2(dock->loop(), qPrintable(dock->statusText()));
        dock->setRulesText(QString::fromUtf8(kRule));
        QVERIFY2(dock->applyRules(), qPrintable(dock->rulesMessage()));
        QVERIFY2(dock->setMode(adapt::RuleMode::Approve), qPrintable(dock->statusText()));

        // Every sampler tick: its highest utilisation kept, and a line for the parent's driver.
        TelemetrySampler *sampler = window.telemetrySampler();
        std::vector<double> maxima;
        QString samplerError;
        connect(sampler, &TelemetrySampler::sampled, this, [&] {
            maxima.push_back(maxUtilisation(sampler->latest()));
            fprintf(stdout, "%s %d %.4f\n", kTickMarker, int(maxima.size()), maxima.back());
            fflush(stdout);
        });
        connect(sampler, &TelemetrySampler::failed, this, [&](const QString &error) { samplerError = error; });
        sampler->setInterval(kIntervalSeconds);
        QVERIFY2(window.telemetryAction()->isEnabled(), qPrintable(window.telemetryAction()->toolTip()));
        window.telemetryAction()->trigger();
        QVERIFY(sampler->isRunning());

        // The rule fires; the chosen candidate waits in the Diff Review.
        QTRY_VERIFY2_WITH_TIMEOUT(dock->pendingChange() || !samplerError.isEmpty(), qPrintable(dock->statusText()), 90000);
        QVERIFY2(samplerError.isEmpty(), qPrintable(samplerError));
        const std::size_t firedAt = maxima.size();
        QCOMPARE(countEvent(*dock, "fired"), 1);
        QVERIFY(countEvent(*dock, "planned") >= 1);
        QVERIFY(countEvent(*dock, "awaiting-approval") >= 1);
        const adapt::PendingChange *pending = dock->pendingChange();
        QCOMPARE(pending->mode, adapt::RuleMode::Approve);
        QCOMPARE(pending->plan.firing.rule, QStringLiteral("hot"));
        const auto *chosen = pending->plan.chosenCandidate();
        QVERIFY(chosen && chosen->tables);
        const std::shared_ptr<const ForwardingTables> chosenTables = chosen->tables;
        const std::shared_ptr<const PreviewResult> proposal = window.document()->session()->proposal();
        QVERIFY(proposal);
        QCOMPARE(proposal->proposed.tables, chosenTables);
        DiffReview *review = window.diffReview();
        QVERIFY(review->hasPlan());
        QVERIFY2(review->diff().changedEntries > 0, qPrintable(review->summaryText()));
        qInfo("fired after %zu ticks; the Diff Review: %s", firedAt, qPrintable(review->summaryText()));

        // Nothing committed until Approve: the journal has the loop's records and no commit, the
        // -U file stands, also two ticks later.
        const auto checkNothingCommitted = [&] {
            Result<std::vector<CommitJournalEntry>> entries = readJournal(journalPath);
            QVERIFY2(entries, qPrintable(entries ? QString() : entries.error().toString()));
            for (const char *event : {"fired", "planned", "awaiting-approval"})
                QVERIFY2(std::any_of(entries->begin(), entries->end(),
                                     [&](const CommitJournalEntry &e) { return e.isAdapt() && e.outcome == QLatin1String(event); }),
                         event);
            QVERIFY(std::none_of(entries->begin(), entries->end(), [](const CommitJournalEntry &e) { return !e.isAdapt(); }));
            QCOMPARE(test::readAll(target.lftsPath), tablesBefore);
            QCOMPARE(countEvent(*dock, "committed"), 0);
        };
        checkNothingCommitted();
        QTRY_VERIFY_WITH_TIMEOUT(maxima.size() >= firedAt + 2 && !dock->isTicking(), 30000);
        checkNothingCommitted();
        QVERIFY(dock->pendingChange());
        QCOMPARE(window.document()->session()->proposal(), proposal);
        QVERIFY(dock->statusText().contains(QLatin1String("approval")));
        const double before = *std::max_element(maxima.begin(), maxima.end());
        QVERIFY2(before >= 0.99, qPrintable(QString::number(before)));

        // Approve, answered Yes: the commit goes through the Diff Review to the lab's OpenSM.
        auto *approve = review->findChild<QPushButton *>(QStringLiteral("approveButton"));
        QVERIFY(approve);
        QTRY_VERIFY(approve->isVisible() && approve->isEnabled());
        std::optional<CommitReport> report;
        connect(review, &DiffReview::commitFinished, this, [&report](const CommitReport &r) { report = r; });
        test::YesAnswerer answerer;
        QTest::mouseClick(approve, Qt::LeftButton);
        QVERIFY2(answerer.confirmed(), "Approve asked for no confirmation");
        QTRY_VERIFY_WITH_TIMEOUT(report.has_value(), 120000);
        QCOMPARE(commitOutcomeName(report->outcome), QStringLiteral("committed"));
        const std::size_t committedAt = maxima.size();
        QTRY_VERIFY_WITH_TIMEOUT(countEvent(*dock, "committed") == 1, 30000);
        QCOMPARE(countEvent(*dock, "approved"), 1);
        QVERIFY(!dock->pendingChange());
        QVERIFY(*window.document()->session()->currentTables() == *chosenTables);  // as read back
        QVERIFY(test::readAll(target.lftsPath) != tablesBefore);
        Result<std::vector<CommitJournalEntry>> entries = readJournal(journalPath);
        QVERIFY2(entries, qPrintable(entries ? QString() : entries.error().toString()));
        const auto commit = std::find_if(entries->begin(), entries->end(), [](const CommitJournalEntry &e) { return !e.isAdapt(); });
        QVERIFY(commit != entries->end());
        QCOMPARE(commit->outcome, QStringLiteral("committed"));

        // The parent's driver takes up the new tables at the first tick after the file changed;
        // the ticks after that one measure the new tables alone.
        QTRY_VERIFY_WITH_TIMEOUT(maxima.size() >= committedAt + 4 || !samplerError.isEmpty(), 60000);
        QVERIFY2(samplerError.isEmpty(), qPrintable(samplerError));
        sampler->stop();
        const double after = std::max(maxima[maxima.size() - 1], maxima[maxima.size() - 2]);
        QStringList all;
        for (double m : maxima)
            all << QString::number(m, 'f', 4);
        QVERIFY2(after >= 0 && after < 0.9, qPrintable(all.join(QLatin1Char(' '))));
        fprintf(stderr,
                "the desk's autopilot, approve mode, on XGFT(2; 4,8; 2,1): highest measured link utilisation %.4f before, %.4f "
                "after the approved commit of %lld SMPs (%s); per tick: %s\n",
                before, after, commit->smps, qPrintable(commit->planSummary), qPrintable(all.join(QLatin1Char(' '))));
    }
};

int runChild(int argc, char **argv)
{
    return test::runLabChild<AutopilotChild>(argc, argv, &test::labChildSetup().labDir, &test::labChildSetup().openSmLog);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The parent: the lab (HotSpotLab.h, as tst_lab_adapt's) and its traffic.

class TestLabAutopilot : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void approveInTheDeskWaitsThenCommits()
    {
        const QString tools = test::labToolsProblem();
        QVERIFY2(tools.isEmpty(), qPrintable(tools));

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Result<test::HotSpotLab> lab = test::startHotSpotLab(dir.path());
        QVERIFY2(lab, qPrintable(lab ? QString() : lab.error().toString()));
        SimulatedFabric &sim = *lab->sim;

        // Every counter set before the desk reads them; then one interval after each tick.
        QByteArray tablesText = test::readAll(lab->lfts);
        Result<ForwardingTables> installed = readLftDump(tablesText, lab->lfts, &lab->live);
        QVERIFY2(installed, qPrintable(installed ? QString() : installed.error().toString()));
        LabTrafficDriver driver(lab->live, *installed, lab->hot, test::kHotSpotFlowRate);
        const Status primed = driver.tick(sim, 0);
        QVERIFY2(primed, qPrintable(primed ? QString() : primed.error().toString()));

        QProcess child;
        child.setProcessEnvironment(sim.clientEnvironment());
        child.setWorkingDirectory(dir.path());
        child.start(QCoreApplication::applicationFilePath(), {kChildFlag, dir.path(), sim.openSmLogPath()});
        QVERIFY(child.waitForStarted(10000));
        QByteArray pending, output;
        QString driverErrors;
        int followed = 0;  // the driver's table changes
        QDeadlineTimer deadline(300000);
        while (!deadline.hasExpired()) {
            const bool finished = !child.waitForReadyRead(200) && child.state() == QProcess::NotRunning;
            pending += child.readAllStandardOutput();
            qsizetype newline;
            while ((newline = pending.indexOf('\n')) >= 0) {
                const QByteArray line = pending.left(newline);
                pending.remove(0, newline + 1);
                output += line + '\n';
                if (!line.startsWith(kTickMarker))
                    continue;
                if (const QByteArray now = test::readAll(lab->lfts); now != tablesText) {
                    tablesText = now;
                    if (Result<ForwardingTables> committed = readLftDump(now, lab->lfts, &lab->live)) {
                        driver.setTables(*committed);
                        ++followed;
                    } else {
                        driverErrors += committed.error().toString() + QLatin1Char('\n');
                    }
                }
                if (const Status s = driver.tick(sim, kIntervalSeconds); !s)
                    driverErrors += s.error().toString() + QLatin1Char('\n');
            }
            if (finished)
                break;
        }
        if (child.state() != QProcess::NotRunning) {
            child.kill();
            child.waitForFinished();
        }
        output += pending + child.readAllStandardOutput();
        const QByteArray err = child.readAllStandardError();
        qInfo("%s\n%s", output.constData(), err.constData());
        QVERIFY2(child.exitStatus() == QProcess::NormalExit && child.exitCode() == 0, err.constData());
        QVERIFY2(driverErrors.isEmpty(), qPrintable(driverErrors));
        QCOMPARE(followed, 1);  // the approved commit, and nothing before it
        sim.stop();
    }
};

int main(int argc, char **argv)
{
    if (argc > 1 && kChildFlag == QLatin1String(argv[1]))
        return runChild(argc, argv);
    QCoreApplication app(argc, argv);
    TestLabAutopilot test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_lab_autopilot.moc"
