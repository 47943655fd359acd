// The desk and a subnet with several subnet managers, on the real OpenSM: ibsim runs a 4-ary
// 2-tree with OpenSM `sm1` (priority 10) on the first host and `sm2` (priority 5) on the last,
// each loading its own files (-R file,no_fallback -U LFTS -P PARTITIONS), named in one subnet
// target file; a third, rogue OpenSM (priority 1) runs on a middle host under no name. The test's
// own binary runs as a client of the simulation and drives the desk offscreen:
//
// - the Commit Target dialog reads the subnet target file into its table of SMs; OK gives it to
//   the session, which asks the fabric: the Subnet Managers dock shows sm1 master at 10, sm2
//   standby at 5 and, in red, the rogue's port as an SM the target does not name, under a red
//   banner; Refresh asks again;
// - an edit the target's reader refuses is said with the file and line, and the file stays;
// - two partitions previewed with pftree and approved: the commit goes through sm1 and writes the
//   same plan into sm2's files (the parent compares both SMs' files afterwards).
//
// WEFT_SUBNET_DESK_SCREENSHOT=FILE keeps the picture of the desk with the dock in front (1366x768),
// and the Commit Target dialog's beside it (FILE's name with "-dialog").

#include "CommitTargetDialog.h"
#include "CommitTargetSettings.h"
#include "DeskDriving.h"
#include "DiffReview.h"
#include "FabricDocument.h"
#include "FabricGenerator.h"
#include "FabricSession.h"
#include "LabChild.h"
#include "LabTools.h"
#include "LftDump.h"
#include "MainWindow.h"
#include "PartitionPanel.h"
#include "PartitionsConf.h"
#include "RoutingEngine.h"
#include "TwoSmLab.h"
#include "SafeFile.h"
#include "Screenshots.h"
#include "SimulatedFabric.h"
#include "SubnetManagersPanel.h"
#include "SubnetTarget.h"
#include "TopologyFile.h"
#include "YesAnswerer.h"

#include <QDockWidget>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <memory>
#include <optional>

using namespace weft;

namespace {

const QLatin1String kChild("--subnet-desk-child");
// SMInfo polled once a second and given up on after two misses, as `weft lab --standby` runs them.
const QColor kWarningColour(0xb0, 0x1c, 0x1c);

// The row of the panel's table whose port GUID column says `guid`; -1 if none.
int rowOfPort(const QTableWidget *table, Guid guid)
{
    for (int row = 0; row < table->rowCount(); ++row)
        if (table->item(row, SubnetManagersPanel::PortGuidColumn)->text() == guidText(guid))
            return row;
    return -1;
}

QString cell(const QTableWidget *table, int row, int column)
{
    const QTableWidgetItem *item = table->item(row, column);
    return item ? item->text() : QString();
}

// What the dock shows of the lab's subnet: sm1 master at 10, sm2 standby at 5 on its port, the
// rogue's port in red as not in the target, and the banner warning of it.
void verifyPanel(const SubnetManagersPanel &panel, const QJsonObject &expected)
{
    const QTableWidget *table = panel.table();
    QVERIFY(panel.check().has_value());
    QCOMPARE(table->rowCount(), 3);
    QCOMPARE(cell(table, 0, SubnetManagersPanel::NameColumn), QStringLiteral("sm1"));
    QCOMPARE(cell(table, 0, SubnetManagersPanel::StateColumn), QStringLiteral("master"));
    QCOMPARE(cell(table, 0, SubnetManagersPanel::PriorityColumn), QStringLiteral("10"));
    QCOMPARE(cell(table, 1, SubnetManagersPanel::NameColumn), QStringLiteral("sm2"));
    QCOMPARE(cell(table, 1, SubnetManagersPanel::StateColumn), QStringLiteral("standby"));
    QCOMPARE(cell(table, 1, SubnetManagersPanel::PriorityColumn), QStringLiteral("5"));
    const Guid sm2Port = expected.value(QStringLiteral("sm2")).toString().toULongLong(nullptr, 0);
    QCOMPARE(rowOfPort(table, sm2Port), 1);
    QVERIFY(!cell(table, 1, SubnetManagersPanel::LidColumn).isEmpty());
    const Guid roguePort = expected.value(QStringLiteral("rogue")).toString().toULongLong(nullptr, 0);
    const int rogue = rowOfPort(table, roguePort);
    QVERIFY2(rogue == 2, qPrintable(QStringLiteral("no row names the rogue's port %1").arg(guidText(roguePort))));
    QCOMPARE(cell(table, rogue, SubnetManagersPanel::NameColumn), QStringLiteral("not in the target"));
    QCOMPARE(cell(table, rogue, SubnetManagersPanel::StateColumn), QStringLiteral("standby"));
    QCOMPARE(cell(table, rogue, SubnetManagersPanel::PriorityColumn), QStringLiteral("1"));
    QCOMPARE(table->item(rogue, SubnetManagersPanel::NameColumn)->foreground().color(), kWarningColour);
    QVERIFY2(panel.bannerText().contains(QLatin1String("does not name")), qPrintable(panel.bannerText()));
    QVERIFY2(!panel.bannerText().contains(QLatin1String("master")), qPrintable(panel.bannerText()));
    qInfo("the dock: %s | %s", qPrintable(panel.summaryText()), qPrintable(panel.bannerText()));
}

}  // namespace

class SubnetDeskChild : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { test::useOwnLabSettings(QStringLiteral("tst_lab_subnet_desk")); }
    void cleanupTestCase() { QSettings().clear(); }

    void subnetManagersOnTheDesk()
    {
        const QDir lab(test::labChildSetup().labDir);
        const QJsonObject expected = QJsonDocument::fromJson(test::readAll(lab.filePath(QStringLiteral("expected.json")))).object();
        const QString target = lab.filePath(QStringLiteral("subnet.json"));
        MainWindow window;
        window.resize(1366, 768);
        QVERIFY(test::discoverThroughTheMenu(window));
        FabricSession *session = window.document()->session();
        SubnetManagersPanel *panel = window.subnetManagersPanel();
        QVERIFY(panel);
        auto *dock = window.findChild<QDockWidget *>(QStringLiteral("subnetManagersDock"));
        QVERIFY(dock && dock->widget() == panel);
        QVERIFY2(panel->summaryText().startsWith(QLatin1String("No subnet target")), qPrintable(panel->summaryText()));
        QVERIFY(!session->checkSubnetManagers());

        // Fabric ▸ Commit Target…: the subnet target file read into the table of SMs; OK gives it
        // to the session and the settings, and the session asks the fabric.
        QSignalSpy checked(session, &FabricSession::subnetChecked);
        {
            CommitTargetDialog dialog(session, &window);
            dialog.setSubnetTargetPath(target);
            QVERIFY2(dialog.errorText().isEmpty(), qPrintable(dialog.errorText()));
            QCOMPARE(dialog.subnetNameEdit()->text(), QStringLiteral("lab"));
            QCOMPARE(dialog.smTable()->rowCount(), 2);
            QCOMPARE(dialog.smTable()->item(0, CommitTargetDialog::SmNameColumn)->text(), QStringLiteral("sm1"));
            QCOMPARE(dialog.smTable()->item(1, CommitTargetDialog::SmNameColumn)->text(), QStringLiteral("sm2"));
            QCOMPARE(dialog.smTable()->horizontalHeaderItem(CommitTargetDialog::SmRoutingColumn)->text(), QStringLiteral("LFT dump (-U)"));
            QVERIFY(dialog.grab().save(lab.filePath(QStringLiteral("commit-target.png"))));
            dialog.accept();
            QVERIFY2(dialog.result() == QDialog::Accepted, qPrintable(dialog.errorText()));
        }
        QCOMPARE(session->subnetTargetPath(), target);
        QCOMPARE(configuredSubnetTargetPath(), target);
        QVERIFY(session->hasCommitTarget());
        QCOMPARE(session->journalPath(), lab.filePath(QStringLiteral("weft-commits.jsonl")));
        const QString label = window.diffReview()->findChild<QLabel *>(QStringLiteral("commitTargetLabel"))->text();
        QVERIFY2(label.startsWith(QLatin1String("Commit target: subnet lab (2 SM(s): sm1, sm2), through ")), qPrintable(label));
        QVERIFY(!checked.isEmpty() || checked.wait(120000));
        verifyPanel(*panel, expected);
        if (QTest::currentTestFailed())
            return;
        // The warning brought the dock to the front.
        QVERIFY(dock->isVisible() && !dock->visibleRegion().isEmpty());

        // Refresh asks again.
        checked.clear();
        QTest::mouseClick(panel->findChild<QPushButton *>(QStringLiteral("subnetManagersRefresh")), Qt::LeftButton);
        QVERIFY(!checked.isEmpty() || checked.wait(120000));
        verifyPanel(*panel, expected);
        if (QTest::currentTestFailed())
            return;
        QCoreApplication::processEvents();
        QVERIFY(window.grab().save(lab.filePath(QStringLiteral("subnet-managers.png"))));

        // An edit the target's reader refuses (sm2 without its pid file): said with the file and
        // the line, and the file is as it was.
        {
            const QByteArray before = test::readAll(target);
            CommitTargetDialog dialog(session, &window);
            QCOMPARE(dialog.smTable()->rowCount(), 2);
            dialog.smTable()->item(1, CommitTargetDialog::SmPidFileColumn)->setText(QString());
            QVERIFY(dialog.isSubnetEdited());
            QVERIFY(!dialog.saveSubnetTarget());
            const QRegularExpression where(QRegularExpression::escape(target) + QStringLiteral(":\\d+: SM \"sm2\": \"pidfile\" is missing"));
            QVERIFY2(where.match(dialog.errorText()).hasMatch(), qPrintable(dialog.errorText()));
            QCOMPARE(test::readAll(target), before);
            // OK refuses as Save does, and leaves the session's target as it was.
            dialog.accept();
            QCOMPARE(dialog.result(), int(QDialog::Rejected));
            QCOMPARE(test::readAll(target), before);
            QCOMPARE(session->subnetTargetPath(), target);
        }

        // Two partitions, previewed with pftree and approved: through sm1, into sm2's files too.
        PartitionPanel *partitions = window.partitionPanel();
        QVERIFY(partitions->createPartition(QStringLiteral("red"), QStringLiteral("0x0001")).ok());
        QVERIFY(partitions->createPartition(QStringLiteral("blue"), QStringLiteral("0x0002")).ok());
        QVERIFY(test::dropHostsOnPartition(window, test::everyOtherHost(*window.fabric(), 0), 0x0001));
        QVERIFY(test::dropHostsOnPartition(window, test::everyOtherHost(*window.fabric(), 1), 0x0002));
        QVERIFY(runPreviewAndWait(window, QStringLiteral("pftree"), 120000));
        DeskDocks::raise(window.diffDock());
        checked.clear();
        const std::optional<CommitReport> report = test::clickApprove(window);
        QVERIFY2(report, "no commit report");
        QVERIFY2(report->ok(), qPrintable(report->toText()));
        const QString steps = report->steps.join(QLatin1Char('\n'));
        QVERIFY2(steps.contains(QLatin1String("standby sm2")), qPrintable(steps));
        const QString warnings = report->warnings.join(QLatin1Char('\n'));
        QVERIFY2(warnings.contains(QLatin1String("does not name")), qPrintable(warnings));
        // The session asks again after the commit.
        QVERIFY(!checked.isEmpty() || checked.wait(120000));
        verifyPanel(*panel, expected);
        Result<SubnetTarget> subnet = readSubnetTargetFile(target);
        QVERIFY(subnet);
        QCOMPARE(test::readAll(subnet->sms[1].partitionsPath), test::readAll(subnet->sms[0].partitionsPath));
        QCOMPARE(test::readAll(subnet->sms[1].lftsPath), test::readAll(subnet->sms[0].lftsPath));
        const Result<std::vector<CommitJournalEntry>> journal = readJournal(session->journalPath());
        QVERIFY2(journal && !journal->empty(), journal ? "empty" : qPrintable(journal.error().toString()));
        QCOMPARE(journal->back().subnet, QStringLiteral("lab"));
        QCOMPARE(journal->back().outcome, QStringLiteral("committed"));
        QVERIFY(!session->unfinishedCommit());
    }
};

namespace {

// The lab (TwoSmLab.h, the file engine) on a 4-ary 2-tree: sm1 on the first host, sm2 on the last,
// the subnet target naming them; and a rogue third OpenSM (priority 1) on a middle host.
struct SubnetLab
{
    QTemporaryDir dir;
    GeneratedFabric generated;
    test::TwoSmLab lab;
};

QString startSubnetLab(SubnetLab &subnet)
{
    if (!subnet.dir.isValid())
        return QStringLiteral("cannot create a temporary directory");
    GeneratorOptions o;
    o.arity = 4;
    o.levels = 2;
    o.linkSpeed = LinkSpeed::SDR;  // what ibsim reports
    Result<GeneratedFabric> generated = generateFabric(o);
    if (!generated)
        return generated.error().toString();
    subnet.generated = std::move(*generated);
    const Fabric &fabric = subnet.generated.fabric;
    const QDir dir(subnet.dir.path());
    const NodeIndex smHost = subnet.generated.hosts.front();
    const NodeIndex standbyHost = subnet.generated.hosts.back();
    const NodeIndex rogueHost = subnet.generated.hosts[subnet.generated.hosts.size() / 2];
    Result<test::TwoSmLab> started = test::startTwoSmLab(dir.path(), fabric, smHost, standbyHost, false);
    if (!started)
        return started.error().toString();
    subnet.lab = std::move(*started);
    if (const Status rogue = subnet.lab.sim->startStandbyOpenSm(fabric.node(rogueHost).name, "sm_priority 1\n", {}, QStringLiteral("rogue")); !rogue)
        return rogue.error().toString();
    // What the child is to find: the standby's port and the rogue's.
    const auto portOf = [&fabric](NodeIndex host) { return guidText(fabric.port(fabric.portOf(host, 1)).guid); };
    const QJsonObject expected{{QStringLiteral("sm1"), portOf(smHost)}, {QStringLiteral("sm2"), portOf(standbyHost)}, {QStringLiteral("rogue"), portOf(rogueHost)}};
    if (const Status w = writeFileAtomically(dir.filePath(QStringLiteral("expected.json")), QJsonDocument(expected).toJson(), false); !w)
        return w.error().toString();
    return {};
}

}  // namespace

class TestLabSubnetDesk : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        const QString tools = test::labToolsProblem();
        QVERIFY2(tools.isEmpty(), qPrintable(tools));
    }

    void subnetManagersOnTheDesk()
    {
        SubnetLab subnet;
        const QString failure = startSubnetLab(subnet);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        const test::TwoSmLab &lab = subnet.lab;
        SimulatedFabric &sim = *lab.sim;
        const QDir dir(subnet.dir.path());
        const QByteArray sm2Before = test::readAll(lab.sm2.partitions);
        const auto child = sim.runClient(QCoreApplication::applicationFilePath(), {kChild, dir.path(), sim.openSmLogPath()}, 900000);
        qInfo("%s", child ? child->out.constData() : "");
        QVERIFY2(child && child->exitCode == 0, qPrintable(test::describe(child)));
        if (const QString keep = qEnvironmentVariable("WEFT_SUBNET_DESK_SCREENSHOT"); !keep.isEmpty()) {
            const QFileInfo kept(keep);
            const QString dialog = kept.dir().filePath(kept.completeBaseName() + QStringLiteral("-dialog.") + kept.suffix());
            for (const auto &[from, to] : {std::pair{QStringLiteral("subnet-managers.png"), keep}, std::pair{QStringLiteral("commit-target.png"), dialog}}) {
                QFile::remove(to);
                QVERIFY(QFile::copy(dir.filePath(from), to));
            }
        }
        // Both SMs hold the desk's plan in their files: the same partitions and tables.
        const QByteArray partitions = test::readAll(lab.sm1.partitions);
        QVERIFY2(partitions.contains("red") && partitions.contains("blue"), partitions.constData());
        QVERIFY(test::readAll(lab.sm2.partitions) != sm2Before);
        QCOMPARE(test::readAll(lab.sm2.partitions), partitions);
        QCOMPARE(test::readAll(lab.sm2.routing), test::readAll(lab.sm1.routing));
        sim.stop();
    }
};

int main(int argc, char **argv)
{
    if (argc > 1 && kChild == QLatin1String(argv[1]))
        return test::runLabChild<SubnetDeskChild>(argc, argv, &test::labChildSetup().labDir, &test::labChildSetup().openSmLog,
                                                  "subnetManagersOnTheDesk");
    if (qEnvironmentVariableIsEmpty("QTEST_FUNCTION_TIMEOUT"))
        qputenv("QTEST_FUNCTION_TIMEOUT", "1200000");
    QCoreApplication app(argc, argv);
    TestLabSubnetDesk test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_lab_subnet_desk.moc"
