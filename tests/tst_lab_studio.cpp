// The reconfiguration studio's whole loop on a simulated fabric: ibsim and the real OpenSM
// (`-R file -U -P`, on ftree tables) run a 4-ary 2-tree; the test runs its own binary as a client
// of the simulation (offscreen), and there, in the main window, discovers the fabric, fails a
// switch-to-switch cable from the map's context menu, chooses the SlimUpdate candidate, reviews
// it and clicks Approve in the Diff Review. Back outside, dump_lfts (an independent tool) must
// read from the switches exactly the candidate's tables.

#include "CommitTargetSettings.h"
#include "DiffReview.h"
#include "FabricDocument.h"
#include "FabricScene.h"
#include "FabricView.h"
#include "LabTables.h"
#include "LabChild.h"
#include "LabTools.h"
#include "YesAnswerer.h"
#include "LftDump.h"
#include "MainWindow.h"
#include "PartitionsConf.h"
#include "ReconfigurationStudio.h"
#include "RoutingEngine.h"
#include "FabricSession.h"
#include "SafeFile.h"
#include "SimulatedFabric.h"
#include "GeneratedFabrics.h"

#include <QAction>
#include <QApplication>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

using namespace weft;

namespace {

const QLatin1String kChildFlag("--studio-child");

QString candidateLftsPath(const QString &labDir)
{
    return QDir(labDir).filePath(QStringLiteral("studio-candidate.lfts"));
}

class StudioChild : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        test::useOwnLabSettings(QStringLiteral("tst_lab_studio"));
    }

    void cleanupTestCase() { QSettings().clear(); }

    void failLinkReviewApprove()
    {
        const QDir lab(test::labChildSetup().labDir);
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy discovered(&window, &MainWindow::discoveryFinished);
        QVERIFY(window.startDiscovery(QString(), 0, false));
        QVERIFY(!discovered.isEmpty() || discovered.wait(120000));
        QVERIFY2(discovered.at(0).at(0).toBool(), qPrintable(discovered.at(0).at(1).toString()));
        if (!window.isSceneReady()) {
            QSignalSpy ready(&window, &MainWindow::sceneReady);
            QVERIFY(ready.wait(60000) || window.isSceneReady());
        }
        const Fabric &fabric = *window.fabric();
        QVERIFY(window.currentTables());

        QSettings settings;
        settings.setValue(QStringLiteral("commit/lftsPath"), lab.filePath(QStringLiteral("opensm.lfts")));
        settings.setValue(QStringLiteral("commit/partitionsPath"), lab.filePath(QStringLiteral("partitions.conf")));
        settings.setValue(QStringLiteral("commit/pidFile"), lab.filePath(QStringLiteral("opensm.pid")));
        settings.setValue(QStringLiteral("commit/logPath"), test::labChildSetup().openSmLog);
        // As the Commit Target dialog does: the session takes the target the settings keep.
        window.document()->session()->setCommitTarget(configuredCommitTarget());

        // A switch-to-switch cable, failed from the map's context menu at the cable's middle.
        ReconfigurationStudio *studio = window.reconfigurationStudio();
        studio->setEngines({QStringLiteral("ftree")});
        studio->setTau(0);
        studio->setMetabasePolicy(SlotPolicy::Sticky);
        window.fabricView()->fitToWindow();
        FabricScene *scene = window.fabricScene();
        FabricView *view = window.fabricView();
        std::unique_ptr<QMenu> menu;
        for (LinkIndex l = 0; l < LinkIndex(fabric.links().size()); ++l) {
            const Link &link = fabric.links()[std::size_t(l)];
            if (fabric.node(fabric.port(link.a).node).type != NodeType::Switch
                || fabric.node(fabric.port(link.b).node).type != NodeType::Switch)
                continue;
            menu.reset(view->whatIfMenuAt(view->mapFromScene(scene->cableCentre(l)), nullptr));
            if (menu && menu->findChild<QAction *>(QStringLiteral("failLinkAction")))
                break;
            menu.reset();
        }
        QVERIFY2(menu, "no cable to fail on the map");
        QSignalSpy planned(studio, &ReconfigurationStudio::finished);
        menu->findChild<QAction *>(QStringLiteral("failLinkAction"))->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(planned.count(), 1, 120000);
        QVERIFY(planned.first().first().toBool());
        QVERIFY(studio->study());
        int slimRow = -1;
        for (int i = 0; i < int(studio->study()->candidates.size()); ++i)
            if (studio->study()->candidates[std::size_t(i)].spec.kind == CandidateKind::SlimUpdate)
                slimRow = i;
        QVERIFY(slimRow >= 0);
        const CandidateResult &slim = studio->study()->candidates[std::size_t(slimRow)];
        QVERIFY2(slim.valid(), qPrintable(slim.error));
        QVERIFY2(slim.changedEntries > 0, "failing a used cable must change some entries");
        QVERIFY(writeFileAtomically(candidateLftsPath(lab.path()), writeLftDump(*slim.tables, &fabric), false).ok());

        // Review, then Approve in the Diff Review; its confirmation answered Yes.
        studio->selectCandidate(slimRow);
        QVERIFY(studio->reviewSelected());
        DiffReview *review = window.diffReview();
        QVERIFY(review->hasPlan());
        QCOMPARE(qlonglong(review->diff().changedEntries), qlonglong(slim.changedEntries));
        test::YesAnswerer answerer;  // the confirmation Approve asks for
        auto *approve = review->findChild<QPushButton *>(QStringLiteral("approveButton"));
        QVERIFY(approve);
        QTRY_VERIFY(approve->isVisible());
        QVERIFY(approve->isEnabled());
        std::optional<CommitOutcome> outcome;
        connect(review, &DiffReview::commitFinished, this, [&outcome](const CommitReport &r) { outcome = r.outcome; });
        QTest::mouseClick(approve, Qt::LeftButton);
        QVERIFY2(answerer.confirmed(), "Approve asked for no confirmation");
        QTRY_VERIFY_WITH_TIMEOUT(outcome.has_value(), 240000);
        auto *report = review->findChild<QPlainTextEdit *>(QStringLiteral("commitReport"));
        QVERIFY2(*outcome == CommitOutcome::Committed, report ? qPrintable(report->toPlainText()) : "no report");
    }
};

int runChild(int argc, char **argv)
{
    return test::runLabChild<StudioChild>(argc, argv, &test::labChildSetup().labDir, &test::labChildSetup().openSmLog);
}

}  // namespace

class TestLabStudio : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        const QString tools = test::labToolsProblem();
        QVERIFY2(tools.isEmpty(), qPrintable(tools));
    }

    void slimUpdateApprovedInTheStudioIsWhatTheSwitchesHold()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        GeneratorOptions o = test::shapeOptions({FabricShapeKind::KaryNTree, 4, 2});
        o.linkSpeed = LinkSpeed::SDR;  // what ibsim reports
        const GeneratedFabric generated = test::generateOrFail(o);
        const Fabric &fabric = generated.fabric;
        Result<Routing> ftree = routeFabric(QStringLiteral("ftree"), fabric, Tenancy{});
        QVERIFY(ftree);
        Result<test::FileRoutedLab> lab = test::startLabOnTables(dir.path(), fabric, ftree->tables, fabric.endNodes().front());
        QVERIFY2(lab, lab ? "" : qPrintable(lab.error().toString()));
        SimulatedFabric &sim = *lab->sim;

        const auto child = sim.runClient(QCoreApplication::applicationFilePath(), {kChildFlag, dir.path(), sim.openSmLogPath()}, 600000);
        qInfo("%s", child ? child->out.constData() : "");
        QVERIFY2(child && child->exitCode == 0, qPrintable(test::describe(child)));

        Result<ForwardingTables> candidate = readLftDumpFile(candidateLftsPath(dir.path()), &lab->live);
        QVERIFY2(candidate, candidate ? "" : qPrintable(candidate.error().toString()));
        Result<ForwardingTables> held = test::installedTables(sim, lab->live);
        QVERIFY2(held, held ? "" : qPrintable(held.error().toString()));
        const QString differences = test::tableDifferences(*candidate, *held);
        QVERIFY2(differences.isEmpty(), qPrintable(QStringLiteral("the switches vs the studio's candidate:\n") + differences));
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
    TestLabStudio test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_lab_studio.moc"
