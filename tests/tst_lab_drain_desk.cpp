// The desk's Drain on a simulated fabric: ibsim and the real OpenSM (`-R file -U -P`, on ftree
// tables) run a 4-ary 2-tree; the test runs its own binary as a client of the simulation
// (offscreen), and there, in the main window, discovers the fabric, drains a switch-to-switch
// cable from the map's context menu ("Drain this link"), reviews the plan and clicks Approve in the
// Diff Review. Back outside, dump_lfts (an independent tool) must show no entry onto the cable and
// every pair of ports still reaching the other.

#include "CommitTargetSettings.h"
#include "DiffReview.h"
#include "FabricDocument.h"
#include "FabricScene.h"
#include "FabricView.h"
#include "LabTables.h"
#include "LabChild.h"
#include "LabTools.h"
#include "YesAnswerer.h"
#include "MainWindow.h"
#include "RoutingEngine.h"
#include "FabricSession.h"
#include "SafeFile.h"
#include "SimulatedFabric.h"
#include "GeneratedFabrics.h"
#include "Validation.h"

#include <QAction>
#include <QApplication>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace weft;

namespace {

const QLatin1String kChildFlag("--drain-child");

// The cable the child drained: "GUID PORT" of one end.
QString drainedCablePath(const QString &labDir)
{
    return QDir(labDir).filePath(QStringLiteral("drained-cable.txt"));
}

class DrainChild : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        test::useOwnLabSettings(QStringLiteral("tst_lab_drain_desk"));
    }

    void cleanupTestCase() { QSettings().clear(); }

    void drainLinkReviewApprove()
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
        window.document()->session()->setCommitTarget(configuredCommitTarget());

        // A switch-to-switch cable that carries routes, drained from the map's context menu.
        window.fabricView()->fitToWindow();
        FabricScene *scene = window.fabricScene();
        FabricView *view = window.fabricView();
        std::unique_ptr<QMenu> menu;
        LinkIndex chosen = kNoIndex;
        for (LinkIndex l = 0; l < LinkIndex(fabric.links().size()); ++l) {
            const Link &link = fabric.links()[std::size_t(l)];
            if (fabric.node(fabric.port(link.a).node).type != NodeType::Switch
                || fabric.node(fabric.port(link.b).node).type != NodeType::Switch)
                continue;
            menu.reset(view->whatIfMenuAt(view->mapFromScene(scene->cableCentre(l)), nullptr));
            if (menu && menu->findChild<QAction *>(QStringLiteral("drainLinkAction"))) {
                chosen = l;
                break;
            }
            menu.reset();
        }
        QVERIFY2(menu, "no cable to drain on the map");
        QAction *drain = menu->findChild<QAction *>(QStringLiteral("drainLinkAction"));
        QCOMPARE(drain->text(), QStringLiteral("Drain this link"));
        const Port &end = fabric.port(fabric.links()[std::size_t(chosen)].a);
        QVERIFY(writeFileAtomically(drainedCablePath(lab.path()),
                                    QStringLiteral("%1 %2").arg(fabric.node(end.node).guid).arg(int(end.number)).toUtf8(), false).ok());
        DiffReview *review = window.diffReview();
        drain->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(review->hasPlan() && window.document()->session()->proposalOrigin().name.startsWith(QStringLiteral("Drain: ")), 120000);
        QVERIFY(review->diff().changedEntries > 0);

        test::YesAnswerer answerer;
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
    return test::runLabChild<DrainChild>(argc, argv, &test::labChildSetup().labDir, &test::labChildSetup().openSmLog);
}

}  // namespace

class TestLabDrainDesk : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        const QString tools = test::labToolsProblem();
        QVERIFY2(tools.isEmpty(), qPrintable(tools));
    }

    void drainedCableCarriesNoRoute()
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

        const QList<QByteArray> words = test::readAll(drainedCablePath(dir.path())).split(' ');
        QCOMPARE(words.size(), 2);
        const Guid guid = words[0].toULongLong();
        const int port = words[1].toInt();
        const Fabric &live = lab->live;
        const NodeIndex node = live.nodeByGuid(guid);
        QVERIFY(node != kNoIndex);
        const Port &remote = live.port(live.port(live.portOf(node, port)).remote);
        const std::set<std::pair<Guid, int>> onto{{guid, port}, {live.node(remote.node).guid, remote.number}};
        auto entriesOnto = [&](const ForwardingTables &tables) {
            int count = 0;
            for (const SwitchForwardingTable &sw : tables.switches())
                for (Lid lid = 1; lid <= sw.lft.top(); ++lid)
                    count += sw.lft.port(lid) != kNoRoute && onto.count({sw.guid, sw.lft.port(lid)}) ? 1 : 0;
            return count;
        };
        QVERIFY(entriesOnto(ftree->tables) > 0);  // the cable carried routes before
        Result<ForwardingTables> held = test::installedTables(sim, live);
        QVERIFY2(held, held ? "" : qPrintable(held.error().toString()));
        QCOMPARE(entriesOnto(*held), 0);
        const ValidationResult v = validateRouting(live, Tenancy{}, *held);
        QCOMPARE(v.unreachablePartitionPairs + v.unreachableOtherPairs, std::uint64_t(0));
        QCOMPARE(v.loops, std::size_t(0));
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
    TestLabDrainDesk test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_lab_drain_desk.moc"
