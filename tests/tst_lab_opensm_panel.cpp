// The OpenSM panel against the lab's real OpenSM (ibsim + OpenSM 3.3.23, started as the commit
// tests start it: -R file -U LFTS -P PARTITIONS, plus a priority of its own): the panel reads the
// running OpenSM's command line and options file and shows the options as started, the SM state
// from its log, and the one warning such a target deserves; an options file chosen in the panel
// with the unicast cache on adds its warning in red; the main window has the dock.

#include "FabricGenerator.h"
#include "GeneratedFabrics.h"
#include "LabTools.h"
#include "LabChild.h"
#include "MainWindow.h"
#include "OpenSmPanel.h"
#include "RoutingEngine.h"
#include "SafeFile.h"

#include <QDockWidget>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace weft;

class TestLabOpenSmPanel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        const QString openSm = weft::test::openSmVersionProblem();
        QVERIFY2(openSm.isEmpty(), qPrintable(openSm));
        const QString missing = SimulatedFabric::missingTools();
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("the lab tests need: ") + missing));
        test::useOwnLabSettings(QStringLiteral("tst_lab_opensm_panel"));
        qunsetenv("WEFT_LAB_OPENSM_OPTIONS");
    }

    void cleanupTestCase() { QSettings().clear(); }

    void showsTheLabsOpenSmAsStarted()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        GeneratorOptions o;
        o.arity = 2;
        o.levels = 2;
        o.linkSpeed = LinkSpeed::SDR;
        const Fabric fabric = test::generateOrFail(o).fabric;
        Result<Routing> ftree = routeFabric(QStringLiteral("ftree"), fabric, Tenancy{});
        QVERIFY(ftree.ok());
        Result<test::FileRoutedLab> lab = test::startLabOnTables(dir.path(), fabric, ftree->tables, fabric.endNodes().front(),
                                                                 {QStringLiteral("-p"), QStringLiteral("5")});
        QVERIFY2(lab.ok(), lab.ok() ? "" : qPrintable(lab.error().toString()));

        // The commit target as the Commit Target dialog keeps it: no options file named, so the
        // panel finds it in OpenSM's command line (-F).
        {
            QSettings settings;
            settings.setValue(QStringLiteral("commit/lftsPath"), lab->lfts);
            settings.setValue(QStringLiteral("commit/partitionsPath"), lab->partitions);
            settings.setValue(QStringLiteral("commit/pidFile"), lab->pidFile);
            settings.setValue(QStringLiteral("commit/logPath"), lab->sim->openSmLogPath());
        }

        OpenSmPanel panel;
        QSignalSpy refreshed(&panel, &OpenSmPanel::refreshed);
        QTest::mouseClick(panel.findChild<QPushButton *>(QStringLiteral("openSmRefresh")), Qt::LeftButton);
        QCOMPARE(refreshed.count(), 1);
        QVERIFY2(panel.errorText().isEmpty(), qPrintable(panel.errorText()));
        QVERIFY(panel.state().has_value());
        const OpenSmState &state = *panel.state();
        QCOMPARE(state.pid, lab->sim->openSmPid());
        QVERIFY(state.running);
        QVERIFY2(state.commandLine.contains(QStringLiteral("-R")), qPrintable(state.commandLine.join(QLatin1Char(' '))));
        QCOMPARE(panel.valueOf(QStringLiteral("config_file")), lab->sim->workDir() + QStringLiteral("/opensm.conf"));
        QCOMPARE(panel.valueOf(QStringLiteral("routing_engine")), QStringLiteral("file"));
        QCOMPARE(panel.originOf(QStringLiteral("routing_engine")), QStringLiteral("command line"));
        QCOMPARE(panel.valueOf(QStringLiteral("lfts_file")), lab->lfts);
        QCOMPARE(panel.valueOf(QStringLiteral("partition_config_file")), lab->partitions);
        QCOMPARE(panel.valueOf(QStringLiteral("sm_priority")), QStringLiteral("5"));
        QCOMPARE(panel.originOf(QStringLiteral("sm_priority")), QStringLiteral("command line"));
        QCOMPARE(panel.valueOf(QStringLiteral("lmc")), QStringLiteral("0"));
        QCOMPARE(panel.valueOf(QStringLiteral("use_ucast_cache")), QStringLiteral("FALSE"));
        QCOMPARE(panel.valueOf(QStringLiteral("sm_state")), QStringLiteral("MASTER"));
        QVERIFY(state.subnetUpCount >= 1);
        // `-R file` without no_fallback is the one thing to know about the lab's OpenSM.
        QCOMPARE(panel.warnings().size(), 1);
        QVERIFY2(panel.warnings().first().contains(QLatin1String("without no_fallback")), qPrintable(panel.warnings().first()));
        auto *list = panel.findChild<QListWidget *>(QStringLiteral("openSmWarnings"));
        QVERIFY(list && list->count() >= 1);
        QCOMPARE(list->item(0)->text(), panel.warnings().first());
        QCOMPARE(list->item(0)->foreground().color(), QColor(0xb0, 0x1c, 0x1c));

        // An options file chosen in the panel: read under the same command line, which still wins.
        const QString chosen = dir.filePath(QStringLiteral("site-opensm.conf"));
        QVERIFY(writeFileAtomically(chosen, "use_ucast_cache TRUE\nsm_priority 1\nlmc 1\n", false).ok());
        panel.setOptionsFile(chosen);
        QCOMPARE(panel.valueOf(QStringLiteral("config_file")), chosen);
        QCOMPARE(panel.valueOf(QStringLiteral("use_ucast_cache")), QStringLiteral("TRUE"));
        QCOMPARE(panel.valueOf(QStringLiteral("sm_priority")), QStringLiteral("5"));
        QCOMPARE(panel.valueOf(QStringLiteral("lmc")), QStringLiteral("1"));
        QCOMPARE(panel.originOf(QStringLiteral("lmc")), QStringLiteral("site-opensm.conf:3"));
        QCOMPARE(panel.warnings().size(), 2);
        QVERIFY(panel.warnings().first().contains(QLatin1String("use_ucast_cache is on (site-opensm.conf:1)")));
        // A bad line in it: the error with its place, no options shown.
        QVERIFY(writeFileAtomically(chosen, "lmc 9\n", false).ok());
        panel.refresh();
        QVERIFY(!panel.state().has_value());
        QVERIFY2(panel.errorText().startsWith(chosen + QStringLiteral(":1: lmc: 9 is out of OpenSM's range")), qPrintable(panel.errorText()));
        panel.setOptionsFile({});
        QVERIFY(panel.state().has_value());

        // The desk's dock, on the same target.
        MainWindow window;
        auto *dock = window.findChild<QDockWidget *>(QStringLiteral("openSmPanel"));
        QVERIFY(dock);
        auto *docked = qobject_cast<OpenSmPanel *>(dock->widget());
        QVERIFY(docked);
        QCOMPARE(docked->valueOf(QStringLiteral("routing_engine")), QStringLiteral("file"));
        QCOMPARE(docked->valueOf(QStringLiteral("sm_priority")), QStringLiteral("5"));

        lab->sim->stop();
    }
};

QTEST_MAIN(TestLabOpenSmPanel)
#include "tst_lab_opensm_panel.moc"
