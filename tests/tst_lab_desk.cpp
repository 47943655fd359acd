// The operator's whole loop through the GUI on a simulated fabric: ibsim and the real OpenSM
// (`-R file -U -P`, started on ftree tables and a partitions.conf with only the default
// partition) run a generated 4-ary 2-tree; the test runs its own binary as a client of the
// simulation (libumad2sim preloaded, offscreen platform) and there, in the main window, discovers
// the fabric and reads its tables live, makes two partitions and puts the hosts in them through
// the document (as the partition panel does), previews pftree, opens the diff review and clicks
// Approve against the commit target set in the settings. Back outside, the independent tools
// check the result: dump_lfts must show the tables the GUI proposed and the commit installed,
// and `smpquery pkeys` each host's new partition.

#include "DiffReview.h"
#include "FabricDocument.h"
#include "FabricGenerator.h"
#include "LftDump.h"
#include "LiveFabric.h"
#include "MainWindow.h"
#include "Screenshots.h"
#include "PartitionsConf.h"
#include "RoutingEngine.h"
#include "RoutingPreview.h"
#include "SafeFile.h"
#include "LabTools.h"
#include "SimulatedFabric.h"
#include "TopologyFile.h"

#include <QApplication>
#include <QDockWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
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


// "switch S LID L: holds port a, expected b" for the first entry where two sets of tables
// differ on a LID the fabric assigns; empty when they agree everywhere.
QString firstDifference(const Fabric &fabric, const ForwardingTables &expected, const ForwardingTables &actual)
{
    for (NodeIndex sw : fabric.switches()) {
        const Guid guid = fabric.node(sw).guid;
        const SwitchForwardingTable *want = expected.find(guid);
        const SwitchForwardingTable *got = actual.find(guid);
        for (const Port &p : fabric.ports()) {
            if (!p.present || p.lid == 0)
                continue;
            const int a = want ? want->lft.port(p.lid) : kNoRoute;
            const int b = got ? got->lft.port(p.lid) : kNoRoute;
            if (a != b)
                return QStringLiteral("switch %1 LID %2: holds port %3, expected %4").arg(fabric.node(sw).description).arg(p.lid).arg(b).arg(a);
        }
    }
    return {};
}

// ---------------------------------------------------------------------------------------------
// The child: the GUI half, run inside the simulation. Its own QTest run, so that a failure
// names the step; the parent checks its exit code and shows its output.

struct ChildSetup
{
    QString labDir;
    QString openSmLog;
};

ChildSetup &childSetup()
{
    static ChildSetup setup;
    return setup;
}

class DeskChild : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        const QString openSm = weft::test::openSmVersionProblem();  // once, before any lab starts
        QVERIFY2(openSm.isEmpty(), qPrintable(openSm));
        // Settings of their own, so that neither the operator's nor another test's commit
        // target leaks in; and no `weft lab` environment to fall back on.
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("WeftTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_lab_desk"));
        QSettings().clear();
        qunsetenv("WEFT_LAB_DIR");
        qunsetenv("WEFT_LAB_OPENSM_LOG");
    }

    void cleanupTestCase() { QSettings().clear(); }

    void operatorLoop()
    {
        const QDir lab(childSetup().labDir);

        // Discovery and the tables the switches hold, live, as the desk reads them.
        Result<Fabric> fabric = discoverFabric(LiveOptions{});
        QVERIFY2(fabric.ok(), fabric.ok() ? "" : qPrintable(fabric.error().toString()));
        Result<ForwardingTables> held = readForwardingTables(*fabric, LiveOptions{});
        QVERIFY2(held.ok(), held.ok() ? "" : qPrintable(held.error().toString()));
        QCOMPARE(held->size(), fabric->switches().size());
        const std::vector<Guid> hosts = sortedHostPorts(*fabric);
        QVERIFY(hosts.size() >= 4);

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.showFabric(*fabric, Tenancy{}, QStringLiteral("lab fabric"));
        QVERIFY(waitForScene(window, 60000));
        // The tables read go in as the operator's LFT dump does.
        const QString heldPath = lab.filePath(QStringLiteral("gui-held.lfts"));
        QVERIFY(writeFileAtomically(heldPath, writeLftDump(*held, &*fabric), false).ok());
        QString error;
        QVERIFY2(window.openLftDump(heldPath, &error), qPrintable(error));
        QVERIFY(window.currentTables());

        // Two partitions, hosts assigned through the document as the partition panel does.
        FabricDocument *document = window.document();
        const Status red = document->createPartition(QStringLiteral("red"), kRedPKey);
        QVERIFY2(red.ok(), red.ok() ? "" : qPrintable(red.error().toString()));
        const Status blue = document->createPartition(QStringLiteral("blue"), kBluePKey);
        QVERIFY2(blue.ok(), blue.ok() ? "" : qPrintable(blue.error().toString()));
        std::vector<Guid> redPorts, bluePorts;
        for (std::size_t i = 0; i < hosts.size(); ++i)
            (tenantPKeyOf(i) == kRedPKey ? redPorts : bluePorts).push_back(hosts[i]);
        document->assignPorts(redPorts, kRedPKey, Membership::Full);
        document->assignPorts(bluePorts, kBluePKey, Membership::Full);
        QCOMPARE(document->tenancy().findPartition(kRedPKey)->members.size(), redPorts.size());
        QCOMPARE(document->tenancy().findPartition(kBluePKey)->members.size(), bluePorts.size());

        // The commit target: the lab's OpenSM files, in the settings where the Commit Target
        // dialog keeps them.
        {
            QSettings settings;
            settings.setValue(QStringLiteral("commit/lftsPath"), lab.filePath(QStringLiteral("opensm.lfts")));
            settings.setValue(QStringLiteral("commit/partitionsPath"), lab.filePath(QStringLiteral("partitions.conf")));
            settings.setValue(QStringLiteral("commit/pidFile"), lab.filePath(QStringLiteral("opensm.pid")));
            settings.setValue(QStringLiteral("commit/logPath"), childSetup().openSmLog);
        }
        QCOMPARE(configuredCommitTarget().lftsPath, lab.filePath(QStringLiteral("opensm.lfts")));

        // Routing preview with pftree; its proposal feeds the diff review.
        QVERIFY(runPreviewAndWait(window, QStringLiteral("pftree"), 120000));
        const PreviewResult *preview = window.routingPreview()->result();
        QVERIFY(preview && preview->proposed.tables);
        QVERIFY2(preview->proposed.validation.ok, qPrintable(preview->proposed.validation.problems.join(QLatin1Char('\n'))));
        QVERIFY(writeFileAtomically(proposedLftsPath(lab.path()), writeLftDump(*preview->proposed.tables, &*fabric), false).ok());

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
        bool confirmed = false;
        QTimer answerer;
        answerer.setInterval(50);
        connect(&answerer, &QTimer::timeout, this, [&] {
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            if (!box || !box->button(QMessageBox::Yes))
                return;
            confirmed = true;
            answerer.stop();
            box->button(QMessageBox::Yes)->click();
        });
        answerer.start();
        auto *approve = review->findChild<QPushButton *>(QStringLiteral("approveButton"));
        QVERIFY(approve);
        QVERIFY(approve->isEnabled());
        std::optional<CommitOutcome> outcome;
        connect(review, &DiffReview::commitFinished, this, [&outcome](const CommitReport &r) { outcome = r.outcome; });
        QTRY_VERIFY(approve->isVisible());
        QTest::mouseClick(approve, Qt::LeftButton);
        QVERIFY2(confirmed, "Approve asked for no confirmation");

        // The report the operator reads, until the commit is done.
        auto *report = review->findChild<QPlainTextEdit *>(QStringLiteral("commitReport"));
        QVERIFY(report);
        QTRY_VERIFY_WITH_TIMEOUT(outcome.has_value(), 240000);
        qInfo("commit report:\n%s", qPrintable(report->toPlainText()));
        QVERIFY2(report->toPlainText().contains(QLatin1String("outcome: committed")), qPrintable(report->toPlainText()));
        QCOMPARE(commitOutcomeName(*outcome), QStringLiteral("committed"));
        QVERIFY(approve->isEnabled());
    }
};

int runChild(int argc, char **argv)
{
    // argv: program --desk-child LAB_DIR OPENSM_LOG [QTest options]
    if (argc < 4) {
        fprintf(stderr, "usage: %s %s LAB_DIR OPENSM_LOG\n", argv[0], kChildFlag.data());
        return 2;
    }
    childSetup().labDir = QString::fromLocal8Bit(argv[2]);
    childSetup().openSmLog = QString::fromLocal8Bit(argv[3]);
    qputenv("QT_QPA_PLATFORM", "offscreen");
    // Below the parent's wait for this process, so that a step that hangs is reported by name
    // (or with the watchdog's stack trace) rather than the child being killed without a word.
    qputenv("QTEST_FUNCTION_TIMEOUT", "480000");
    QApplication app(argc, argv);
    std::vector<char *> testArgs{argv[0]};
    for (int i = 4; i < argc; ++i)
        testArgs.push_back(argv[i]);
    DeskChild child;
    return QTest::qExec(&child, int(testArgs.size()), testArgs.data());
}

// ---------------------------------------------------------------------------------------------
// The parent: the lab, and the independent checks.

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

    void approveInTheDeskCommitsToTheFabric()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QDir lab(dir.path());
        GeneratorOptions o;
        o.arity = 4;
        o.levels = 2;
        o.linkSpeed = LinkSpeed::SDR;  // what ibsim reports
        Result<GeneratedFabric> generated = generateFabric(o);
        QVERIFY2(generated.ok(), generated.ok() ? "" : qPrintable(generated.error().toString()));
        const Fabric &fabric = generated->fabric;
        const NodeIndex smHost = fabric.endNodes().front();

        // OpenSM on ftree tables and only the default partition, from files it re-reads on SIGHUP.
        const QString lfts = lab.filePath(QStringLiteral("opensm.lfts"));
        const QString partitions = lab.filePath(QStringLiteral("partitions.conf"));
        Result<Routing> ftree = routeFabric(QStringLiteral("ftree"), fabric, Tenancy{});
        QVERIFY2(ftree.ok(), ftree.ok() ? "" : qPrintable(ftree.error().toString()));
        const QByteArray initialLfts = writeLftDump(ftree->tables, &fabric);
        const QByteArray initialPartitions = writePartitionsConf(withExplicitDefault({}));
        QVERIFY(writeFileAtomically(lab.filePath(QStringLiteral("fabric.net")), writeIbsimNet(fabric, smHost), false).ok());
        QVERIFY(writeFileAtomically(lfts, initialLfts, false).ok());
        QVERIFY(writeFileAtomically(partitions, initialPartitions, false).ok());
        SimulatedFabric::Options so;
        so.netFile = lab.filePath(QStringLiteral("fabric.net"));
        so.smNode = fabric.node(smHost).name;
        so.partitionsConf = partitions;
        so.openSmArgs = {QStringLiteral("-R"), QStringLiteral("file"), QStringLiteral("-U"), lfts};
        SimulatedFabric sim(so);
        const Status started = sim.start();
        QVERIFY2(started.ok(), started.ok() ? "" : qPrintable(started.error().toString()));
        QVERIFY(writeFileAtomically(lab.filePath(QStringLiteral("opensm.pid")), QByteArray::number(sim.openSmPid()) + '\n', false).ok());

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
        QString differ = firstDifference(*live, *proposed, *installed);
        QVERIFY2(differ.isEmpty(), qPrintable(QStringLiteral("installed file vs the GUI's proposal: ") + differ));
        QVERIFY2(!firstDifference(*live, *before, *proposed).isEmpty(), "the GUI's plan must change the tables");

        // ... and dump_lfts reads those tables back from every switch.
        const auto dumpAfter = sim.runClient(QStringLiteral("dump_lfts"), {});
        QVERIFY2(dumpAfter && dumpAfter->exitCode == 0, qPrintable(describe(dumpAfter)));
        Result<ForwardingTables> after = readLftDump(dumpAfter->out, QStringLiteral("dump_lfts after"), &*live);
        QVERIFY2(after.ok(), after.ok() ? "" : qPrintable(after.error().toString()));
        QCOMPARE(after->size(), live->switches().size());
        differ = firstDifference(*live, *installed, *after);
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

int main(int argc, char **argv)
{
    if (argc > 1 && kChildFlag == QLatin1String(argv[1]))
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
