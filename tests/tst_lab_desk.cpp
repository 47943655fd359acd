// The operator's whole loop through the GUI on a simulated fabric: ibsim and the real OpenSM
// (`-R file -U -P`, started on ftree tables and a partitions.conf with only the default
// partition) run a generated 4-ary 2-tree; the test runs its own binary as a client of the
// simulation (libumad2sim preloaded, offscreen platform) and there, in the main window, discovers
// the fabric through Fabric > Discover (its dialog, the worker, the tables and partitions the
// fabric holds), makes two partitions in the partition panel and drops the hosts selected on the
// map on them, previews pftree, opens the diff review and clicks Approve against the commit
// target set in the settings. Back outside, the independent tools
// check the result: dump_lfts must show the tables the GUI proposed and the commit installed,
// and `smpquery pkeys` each host's new partition.

#include "CommitTargetSettings.h"
#include "DiffReview.h"
#include "DiscoveryDialog.h"
#include "FabricChangesPanel.h"
#include "FabricCheck.h"
#include "HealthDock.h"
#include "FabricDocument.h"
#include "FabricScene.h"
#include "FabricView.h"
#include "PartitionPanel.h"
#include "PartitionTreeModel.h"
#include "PortsMime.h"
#include "FabricSession.h"
#include "FabricGenerator.h"
#include "LftDump.h"
#include "LiveFabric.h"
#include "MainWindow.h"
#include "Screenshots.h"
#include "PartitionsConf.h"
#include "RoutingEngine.h"
#include "RoutingPreview.h"
#include "SafeFile.h"
#include "DeskDriving.h"
#include "LabChild.h"
#include "LabTools.h"
#include "YesAnswerer.h"
#include "SimulatedFabric.h"
#include "TopologyFile.h"

#include <QApplication>
#include <QDockWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QMimeData>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTreeWidget>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <set>

using namespace weft;

namespace {

using test::describe;
using test::readAll;
using test::smpqueryPKeys;

const QLatin1String kChildFlag("--desk-child");
const QLatin1String kRediscoverChildFlag("--rediscover-child");
constexpr std::uint16_t kRedPKey = 0x0001;
constexpr std::uint16_t kBluePKey = 0x0002;

// Files the child leaves in the lab directory for the parent.
QString proposedLftsPath(const QString &labDir) { return QDir(labDir).filePath(QStringLiteral("gui-proposed.lfts")); }



// The hosts' port GUIDs in ascending order; the first, third, ... go to red, the others to
// blue. Parent and child each work this out on their own copy of the fabric.
std::vector<Guid> sortedHostPorts(const Fabric &fabric)
{
    std::vector<Guid> ports;
    for (NodeIndex n : fabric.endNodes())
        if (fabric.node(n).type == NodeType::ChannelAdapter)
            ports.push_back(fabric.port(fabric.portOf(n, 1)).guid);
    std::sort(ports.begin(), ports.end());
    return ports;
}

std::uint16_t tenantPKeyOf(std::size_t sortedIndex) { return sortedIndex % 2 == 0 ? kRedPKey : kBluePKey; }

// ---------------------------------------------------------------------------------------------
// The child: the GUI half, run inside the simulation. Its own QTest run, so that a failure
// names the step; the parent checks its exit code and shows its output.

// Settings of the child's own, so that neither the operator's nor another test's commit target
// leaks in; and no `weft lab` environment to fall back on.
using test::discoverThroughTheMenu;
using test::dropHostsOnPartition;

class DeskChild : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        const QString openSm = weft::test::openSmVersionProblem();  // once, before any lab starts
        QVERIFY2(openSm.isEmpty(), qPrintable(openSm));
        test::useOwnLabSettings(QStringLiteral("tst_lab_desk"));
    }

    void cleanupTestCase() { QSettings().clear(); }

    void operatorLoop()
    {
        const QDir lab(test::labChildSetup().labDir);

        // Fabric > Discover: the dialog with the tools' defaults, Discover, the progress, the
        // fabric with the tables its switches hold and the partitions its ports hold.
        MainWindow window;
        QVERIFY(discoverThroughTheMenu(window));
        const Fabric &fabric = *window.fabric();
        QVERIFY(window.currentTables());
        QCOMPARE(window.currentTables()->size(), fabric.switches().size());
        QCOMPARE(window.document()->session()->currentTablesName(), QStringLiteral("held by the switches"));
        // The lab's partitions.conf names only Default, which OpenSM holds on its own.
        QVERIFY(window.tenancy().partitions.empty());
        const std::vector<Guid> hosts = sortedHostPorts(fabric);
        QVERIFY(hosts.size() >= 4);

        // Two partitions made with the panel; the hosts selected on the map and dropped on them.
        FabricDocument *document = window.document();
        PartitionPanel *panel = window.partitionPanel();
        const Status red = panel->createPartition(QStringLiteral("red"), QStringLiteral("0x0001"));
        QVERIFY2(red.ok(), red.ok() ? "" : qPrintable(red.error().toString()));
        const Status blue = panel->createPartition(QStringLiteral("blue"), QStringLiteral("0x0002"));
        QVERIFY2(blue.ok(), blue.ok() ? "" : qPrintable(blue.error().toString()));
        std::vector<NodeIndex> redHosts, blueHosts;
        for (std::size_t i = 0; i < hosts.size(); ++i)
            (tenantPKeyOf(i) == kRedPKey ? redHosts : blueHosts).push_back(fabric.port(fabric.portByGuid(hosts[i])).node);
        QVERIFY(dropHostsOnPartition(window, redHosts, kRedPKey));
        QVERIFY(dropHostsOnPartition(window, blueHosts, kBluePKey));
        QCOMPARE(document->tenancy().findPartition(kRedPKey)->members.size(), redHosts.size());
        QCOMPARE(document->tenancy().findPartition(kBluePKey)->members.size(), blueHosts.size());
        for (const PartitionMember &m : document->tenancy().findPartition(kRedPKey)->members)
            QCOMPARE(m.membership, Membership::Full);

        // The commit target: the lab's OpenSM files, in the settings where the Commit Target
        // dialog keeps them.
        {
            QSettings settings;
            settings.setValue(QStringLiteral("commit/lftsPath"), lab.filePath(QStringLiteral("opensm.lfts")));
            settings.setValue(QStringLiteral("commit/partitionsPath"), lab.filePath(QStringLiteral("partitions.conf")));
            settings.setValue(QStringLiteral("commit/pidFile"), lab.filePath(QStringLiteral("opensm.pid")));
            settings.setValue(QStringLiteral("commit/logPath"), test::labChildSetup().openSmLog);
        }
        QCOMPARE(configuredCommitTarget().lftsPath, lab.filePath(QStringLiteral("opensm.lfts")));
        // As the Commit Target dialog does: the session takes the target the settings keep.
        window.document()->session()->setCommitTarget(configuredCommitTarget());

        // Routing preview with pftree; its proposal feeds the diff review.
        QVERIFY(runPreviewAndWait(window, QStringLiteral("pftree"), 120000));
        const PreviewResult *preview = window.routingPreview()->result();
        QVERIFY(preview && preview->proposed.tables);
        QVERIFY2(preview->proposed.validation.ok, qPrintable(preview->proposed.validation.problems.join(QLatin1Char('\n'))));
        QVERIFY(writeFileAtomically(proposedLftsPath(lab.path()), writeLftDump(*preview->proposed.tables, &fabric), false).ok());

        auto *diffDock = window.findChild<QDockWidget *>(QStringLiteral("diffDock"));
        QVERIFY(diffDock);
        diffDock->show();
        diffDock->raise();
        DiffReview *review = window.diffReview();
        QVERIFY(review->hasPlan());
        QVERIFY2(review->diff().smps() > 0, qPrintable(review->summaryText()));
        QVERIFY(review->partitionsDiffText().contains(QLatin1String("red")));
        QVERIFY(review->partitionsDiffText().contains(QLatin1String("blue")));
        qInfo("diff review: %s", qPrintable(review->summaryText()));

        // Approve asks for confirmation in a message box: answer Yes when it appears.
        test::YesAnswerer answerer;  // the confirmation Approve asks for
        auto *approve = review->findChild<QPushButton *>(QStringLiteral("approveButton"));
        QVERIFY(approve);
        QVERIFY(approve->isEnabled());
        std::optional<CommitOutcome> outcome;
        connect(review, &DiffReview::commitFinished, this, [&outcome](const CommitReport &r) { outcome = r.outcome; });
        QTRY_VERIFY(approve->isVisible());
        QTest::mouseClick(approve, Qt::LeftButton);
        QVERIFY2(answerer.confirmed(), "Approve asked for no confirmation");

        // The report the operator reads, until the commit is done.
        auto *report = review->findChild<QPlainTextEdit *>(QStringLiteral("commitReport"));
        QVERIFY(report);
        QTRY_VERIFY_WITH_TIMEOUT(outcome.has_value(), 240000);
        qInfo("commit report:\n%s", qPrintable(report->toPlainText()));
        QVERIFY2(report->toPlainText().contains(QLatin1String("outcome: committed")), qPrintable(report->toPlainText()));
        QCOMPARE(commitOutcomeName(*outcome), QStringLiteral("committed"));
        // The plan is installed: Approve has nothing more to do, and says why.
        QVERIFY(!approve->isEnabled());
        QVERIFY2(window.diffReview()->approveRefusal().contains(QLatin1String("committed")), qPrintable(window.diffReview()->approveRefusal()));
    }

    // The other half of the parent's rediscoverInTheDeskMarksAnUnlinkedCable: discover and
    // preview in the desk, let the parent pull a cable (files in the lab directory say when and
    // which), Rediscover, and look at the map, the list and the proposal.
    void unlinkedCableIsMarkedGone()
    {
        const QDir lab(test::labChildSetup().labDir);
        MainWindow window;
        QVERIFY(discoverThroughTheMenu(window));
        QVERIFY(window.rediscoverAction()->isEnabled());
        FabricDocument *document = window.document();
        // (minhop: the lab holds ftree's tables, and a plan of what it holds has nothing to install.)
        QVERIFY(runPreviewAndWait(window, QStringLiteral("minhop"), 120000));
        QVERIFY(document->session()->proposal());
        QVERIFY(!document->session()->isProposalStale());
        auto *approve = window.diffReview()->findChild<QPushButton *>(QStringLiteral("approveButton"));
        QVERIFY(approve && approve->isEnabled());

        // The Health dock's Check, live: a rediscovery through the session's link, then the checks
        // of what the fabric holds, its P_Keys among them. The lab's fabric is built as generated.
        HealthDock *health = window.healthDock();
        QSignalSpy checked(health, &HealthDock::checked);
        health->check();
        QVERIFY(!checked.isEmpty() || checked.wait(120000));
        QCOMPARE(checked.at(0).at(0).toString(), QString());
        QCOMPARE(health->report()->source, QStringLiteral("live"));
        QCOMPARE(health->report()->checks, (QStringList{QStringLiteral("identities"), QStringLiteral("links"), QStringLiteral("tables"),
                                                        QStringLiteral("partitions")}));
        QVERIFY2(health->report()->findings.empty(), qPrintable(checkReportText(*health->report())));

        // The parent pulls a cable now and says which ("GUID[port]").
        QVERIFY(writeFileAtomically(lab.filePath(QStringLiteral("ready-to-unlink")), "ready\n", false).ok());
        const QString unlinked = lab.filePath(QStringLiteral("unlinked"));
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(unlinked), 120000);
        const QString pulled = QString::fromUtf8(readAll(unlinked)).trimmed();
        QVERIFY(!pulled.isEmpty());

        // Fabric > Rediscover, again until ibsim has taken the Unlink (it runs it asynchronously).
        for (int attempt = 0; attempt < 20 && document->session()->liveChanges().linksGone.isEmpty(); ++attempt) {
            if (attempt)
                QTest::qWait(250);
            QSignalSpy finished(&window, &MainWindow::discoveryFinished);
            window.rediscoverAction()->trigger();
            QVERIFY(!finished.isEmpty() || finished.wait(120000));
            QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(1).toString()));
        }
        const FabricChanges &changes = document->session()->liveChanges();
        QCOMPARE(changes.linksGone.size(), 1);
        QVERIFY2(changes.linksGone.front().contains(pulled), qPrintable(changes.linksGone.front() + QStringLiteral(" lacks ") + pulled));
        QVERIFY(changes.linksNew.isEmpty());
        QVERIFY(changes.nodesGone.isEmpty());
        QVERIFY(changes.nodesNew.isEmpty());

        // On the map: the cable drawn gone, nothing new.
        QCOMPARE(window.fabricScene()->cablesMarkedGone(), std::size_t(1));
        QCOMPARE(window.fabricScene()->cablesMarkedNew(), std::size_t(0));
        // The picture, for the operator's eye (and the parent's check that it was made).
        window.setLinkColouring(LinkColouring::Plain);
        window.fabricView()->fitToWindow();
        QTest::qWait(300);
        QVERIFY(window.grab().save(lab.filePath(QStringLiteral("rediscover.png"))));
        // In the list, in front; choosing the row selects the cable's two switches on the map.
        QVERIFY(window.fabricChangesDock()->isVisible());
        FabricChangesPanel *panel = window.fabricChangesPanel();
        QCOMPARE(panel->changeCount(), 1);
        QTreeWidgetItem *row = panel->tree()->topLevelItem(0)->child(0);
        QVERIFY2(row->text(0).contains(pulled), qPrintable(row->text(0)));
        panel->tree()->setCurrentItem(row);
        const std::vector<NodeIndex> selected = window.fabricScene()->selectedNodes();
        QCOMPARE(selected.size(), std::size_t(2));
        for (NodeIndex node : selected)
            QCOMPARE(window.fabric()->node(node).type, NodeType::Switch);

        // The proposal is stale: the preview says so, Approve is off and refuses.
        QVERIFY(document->session()->isProposalStale());
        const QString refusal = document->session()->commitRefusal();
        QVERIFY2(refusal.contains(QLatin1String("links gone: 1")), qPrintable(refusal));
        QVERIFY2(window.routingPreview()->statusText().contains(refusal), qPrintable(window.routingPreview()->statusText()));
        QVERIFY(!approve->isEnabled());

        // A check now would judge the fabric shown, not the one cabled: it says so instead.
        checked.clear();
        health->check();
        QVERIFY(!checked.isEmpty() || checked.wait(120000));
        QVERIFY2(checked.at(0).at(0).toString().contains(QLatin1String("discover it anew")), qPrintable(checked.at(0).at(0).toString()));
    }
};

int runChild(int argc, char **argv)
{
    // argv: program --desk-child|--rediscover-child LAB_DIR OPENSM_LOG [QTest options]; each
    // parent test runs its own half.
    const bool rediscover = kRediscoverChildFlag == QLatin1String(argv[1]);
    return test::runLabChild<DeskChild>(argc, argv, &test::labChildSetup().labDir, &test::labChildSetup().openSmLog,
                                        rediscover ? "unlinkedCableIsMarkedGone" : "operatorLoop");
}

// ---------------------------------------------------------------------------------------------
// The parent: the lab, and the independent checks.

// A generated 4-ary 2-tree in ibsim, OpenSM on ftree tables and only the default partition,
// from files it re-reads on SIGHUP (the commit target), with its pid file.
struct DeskLab
{
    QTemporaryDir dir;  // the lab's files
    GeneratedFabric generated;
    QString lfts;
    QString partitions;
    QByteArray initialLfts;
    QByteArray initialPartitions;
    std::unique_ptr<SimulatedFabric> sim;
};

// Empty when the lab runs; else what failed.
QString startDeskLab(DeskLab &desk)
{
    if (!desk.dir.isValid())
        return QStringLiteral("cannot create a temporary directory");
    const QDir lab(desk.dir.path());
    GeneratorOptions o;
    o.arity = 4;
    o.levels = 2;
    o.linkSpeed = LinkSpeed::SDR;  // what ibsim reports
    Result<GeneratedFabric> generated = generateFabric(o);
    if (!generated)
        return generated.error().toString();
    desk.generated = std::move(generated).value();
    const Fabric &fabric = desk.generated.fabric;
    const NodeIndex smHost = fabric.endNodes().front();
    desk.lfts = lab.filePath(QStringLiteral("opensm.lfts"));
    desk.partitions = lab.filePath(QStringLiteral("partitions.conf"));
    Result<Routing> ftree = routeFabric(QStringLiteral("ftree"), fabric, Tenancy{});
    if (!ftree)
        return ftree.error().toString();
    desk.initialLfts = writeLftDump(ftree->tables, &fabric);
    desk.initialPartitions = writePartitionsConf(withExplicitDefault({}));
    for (const auto &[path, data] : {std::pair{desk.lfts, desk.initialLfts}, std::pair{desk.partitions, desk.initialPartitions}})
        if (const Status written = writeFileAtomically(path, data, false); !written)
            return written.error().toString();
    auto started = test::startFileRoutedLab(fabric, smHost, lab.filePath(QStringLiteral("fabric.net")), desk.lfts, desk.partitions,
                                            lab.filePath(QStringLiteral("opensm.pid")));
    if (!started)
        return started.error().toString();
    desk.sim = std::move(*started);
    return {};
}

}  // namespace

class TestLabDesk : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        const QString openSm = weft::test::openSmVersionProblem();  // once, before any lab starts
        QVERIFY2(openSm.isEmpty(), qPrintable(openSm));
        const QString missing = SimulatedFabric::missingTools();
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("the lab tests need: ") + missing));
    }

    // Discover in the desk, pull a cable with ibsim's console, Rediscover: the cable is marked
    // gone on the map and listed, and the proposal is stale. WEFT_DESK_SCREENSHOT=FILE keeps the
    // picture of the result.
    void rediscoverInTheDeskMarksAnUnlinkedCable();

    // `weft --discover` (what `weft lab --gui` starts) opens on the fabric discovered: with
    // --screenshot it exits 0 only once the discovery is shown, 1 when it failed.
    void discoverAtStartOpensOnTheLabFabric()
    {
        DeskLab desk;
        const QString failure = startDeskLab(desk);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        const QDir lab(desk.dir.path());
        const QString weft = qEnvironmentVariable("WEFT_BINARY");
        QVERIFY2(QFileInfo(weft).isExecutable(), "WEFT_BINARY must name the weft executable");
        const QString picture = lab.filePath(QStringLiteral("start.png"));
        const auto run = desk.sim->runClient(weft, {QStringLiteral("--discover"), QStringLiteral("--screenshot"), picture}, 120000);
        QVERIFY2(run && run->exitCode == 0, qPrintable(describe(run)));
        QVERIFY(!QImage(picture).isNull());
        desk.sim->stop();

        // Without the fabric the discovery fails, says so, and no picture is made.
        const QString none = lab.filePath(QStringLiteral("none.png"));
        QProcess alone;
        alone.start(weft, {QStringLiteral("--discover"), QStringLiteral("--screenshot"), none});
        QVERIFY(alone.waitForFinished(60000));
        QCOMPARE(alone.exitCode(), 1);
        QVERIFY2(alone.readAllStandardError().contains("discovery failed"), "no error on stderr");
        QVERIFY(!QFileInfo::exists(none));
    }

    void approveInTheDeskCommitsToTheFabric()
    {
        DeskLab desk;
        const QString failure = startDeskLab(desk);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        const QDir lab(desk.dir.path());
        const Fabric &fabric = desk.generated.fabric;
        SimulatedFabric &sim = *desk.sim;
        const QString &lfts = desk.lfts;
        const QString &partitions = desk.partitions;
        const QByteArray &initialLfts = desk.initialLfts;
        const QByteArray &initialPartitions = desk.initialPartitions;

        // The fabric as the diagnostic tools see it, with OpenSM's LIDs, for reading dumps.
        const auto discovered = sim.runClient(QStringLiteral("ibnetdiscover"), {});
        QVERIFY2(discovered && discovered->exitCode == 0, qPrintable(describe(discovered)));
        Result<Fabric> live = readTopology(discovered->out, QStringLiteral("ibnetdiscover output"));
        QVERIFY2(live.ok(), live.ok() ? "" : qPrintable(live.error().toString()));
        const auto dumpBefore = sim.runClient(QStringLiteral("dump_lfts"), {});
        QVERIFY2(dumpBefore && dumpBefore->exitCode == 0, qPrintable(describe(dumpBefore)));
        Result<ForwardingTables> before = readLftDump(dumpBefore->out, QStringLiteral("dump_lfts before"), &*live);
        QVERIFY2(before.ok(), before.ok() ? "" : qPrintable(before.error().toString()));

        // The GUI half, inside the simulation.
        const auto child = sim.runClient(QCoreApplication::applicationFilePath(), {kChildFlag, lab.path(), sim.openSmLogPath()}, 600000);
        QVERIFY2(child && child->exitCode == 0, qPrintable(describe(child)));
        qInfo("%s", child->out.constData());

        // The commit replaced OpenSM's files (keeping the previous ones) ...
        QCOMPARE(readAll(backupPath(lfts)), initialLfts);
        QCOMPARE(readAll(backupPath(partitions)), initialPartitions);
        QVERIFY(readAll(lab.filePath(QStringLiteral("weft-commits.jsonl"))).contains("\"outcome\":\"committed\""));
        Result<ForwardingTables> installed = readLftDumpFile(lfts, &*live);
        QVERIFY2(installed.ok(), installed.ok() ? "" : qPrintable(installed.error().toString()));
        Result<ForwardingTables> proposed = readLftDumpFile(proposedLftsPath(lab.path()), &*live);
        QVERIFY2(proposed.ok(), proposed.ok() ? "" : qPrintable(proposed.error().toString()));
        QString differ = test::firstRouteDifference(*live, *proposed, *installed);
        QVERIFY2(differ.isEmpty(), qPrintable(QStringLiteral("installed file vs the GUI's proposal: ") + differ));
        QVERIFY2(!test::firstRouteDifference(*live, *before, *proposed).isEmpty(), "the GUI's plan must change the tables");

        // ... and dump_lfts reads those tables back from every switch.
        const auto dumpAfter = sim.runClient(QStringLiteral("dump_lfts"), {});
        QVERIFY2(dumpAfter && dumpAfter->exitCode == 0, qPrintable(describe(dumpAfter)));
        Result<ForwardingTables> after = readLftDump(dumpAfter->out, QStringLiteral("dump_lfts after"), &*live);
        QVERIFY2(after.ok(), after.ok() ? "" : qPrintable(after.error().toString()));
        QCOMPARE(after->size(), live->switches().size());
        differ = test::firstRouteDifference(*live, *installed, *after);
        QVERIFY2(differ.isEmpty(), qPrintable(QStringLiteral("dump_lfts vs the installed file: ") + differ));

        // smpquery pkeys: every host holds its own partition's key, full, and not the other's.
        const std::vector<Guid> hosts = sortedHostPorts(fabric);
        std::set<std::uint16_t> tenantsSeen;
        for (std::size_t i = 0; i < hosts.size(); ++i) {
            const PortIndex port = live->portByGuid(hosts[i]);
            QVERIFY(port != kNoIndex);
            const auto query = sim.runClient(QStringLiteral("smpquery"), {QStringLiteral("pkeys"), QString::number(live->port(port).lid)});
            QVERIFY2(query && query->exitCode == 0, qPrintable(describe(query)));
            const std::set<int> held = smpqueryPKeys(query->out);
            const std::uint16_t own = tenantPKeyOf(i);
            const std::uint16_t other = own == kRedPKey ? kBluePKey : kRedPKey;
            const QString what = QStringLiteral("host port 0x%1 (LID %2): %3").arg(hosts[i], 16, 16, QLatin1Char('0')).arg(live->port(port).lid)
                                     .arg(QString::fromUtf8(query->out.trimmed()));
            QVERIFY2(held.count(0x8000 | own), qPrintable(what));
            QVERIFY2(!held.count(other) && !held.count(0x8000 | other), qPrintable(what));
            tenantsSeen.insert(own);
        }
        QCOMPARE(tenantsSeen.size(), std::size_t(2));
        sim.stop();
    }
};

void TestLabDesk::rediscoverInTheDeskMarksAnUnlinkedCable()
{
    DeskLab desk;
    const QString failure = startDeskLab(desk);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    const QDir lab(desk.dir.path());
    const GeneratedFabric &generated = desk.generated;
    const Fabric &fabric = generated.fabric;

    // The cable to pull: the last uplink of the last leaf switch (a switch-to-switch cable).
    const auto [leaf, uplink] = test::lastUplink(generated);
    QVERIFY(leaf != kNoIndex);

    // The desk inside the simulation; it says when to pull the cable.
    QProcess child;
    child.setProcessEnvironment(desk.sim->clientEnvironment());
    child.setWorkingDirectory(lab.path());
    child.setProcessChannelMode(QProcess::MergedChannels);
    child.start(QCoreApplication::applicationFilePath(), {kRediscoverChildFlag, lab.path(), desk.sim->openSmLogPath()});
    QVERIFY(child.waitForStarted(10000));
    const QString ready = lab.filePath(QStringLiteral("ready-to-unlink"));
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(ready) || child.state() == QProcess::NotRunning, 300000);
    QVERIFY2(QFileInfo::exists(ready), child.readAll().constData());
    const Status pulled = desk.sim->simulatorCommand(QStringLiteral("Unlink \"%1\"[%2]").arg(fabric.node(leaf).name).arg(uplink));
    QVERIFY2(pulled.ok(), pulled.ok() ? "" : qPrintable(pulled.error().toString()));
    QVERIFY(writeFileAtomically(lab.filePath(QStringLiteral("unlinked")), QStringLiteral("%1[%2]").arg(guidText(fabric.node(leaf).guid)).arg(uplink).toUtf8(), false).ok());

    QVERIFY(child.waitForFinished(600000));
    const QByteArray output = child.readAll();
    qInfo("%s", output.constData());
    QVERIFY2(child.exitStatus() == QProcess::NormalExit && child.exitCode() == 0, output.constData());
    const QImage picture(lab.filePath(QStringLiteral("rediscover.png")));
    QVERIFY(!picture.isNull());
    QVERIFY(picture.width() > 400 && picture.height() > 300);
    if (const QString keep = qEnvironmentVariable("WEFT_DESK_SCREENSHOT"); !keep.isEmpty()) {
        QFile::remove(keep);
        QVERIFY(QFile::copy(lab.filePath(QStringLiteral("rediscover.png")), keep));
    }
    desk.sim->stop();
}

int main(int argc, char **argv)
{
    if (argc > 1 && (kChildFlag == QLatin1String(argv[1]) || kRediscoverChildFlag == QLatin1String(argv[1])))
        return runChild(argc, argv);
    // Room for the lab and the child's own budget (ctest allows 900 s).
    if (qEnvironmentVariableIsEmpty("QTEST_FUNCTION_TIMEOUT"))
        qputenv("QTEST_FUNCTION_TIMEOUT", "840000");
    QCoreApplication app(argc, argv);
    TestLabDesk test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}
#include "tst_lab_desk.moc"
