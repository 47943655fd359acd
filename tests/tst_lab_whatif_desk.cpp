// What-if events are part of what a plan is made from (issue 40), through the GUI on a simulated
// fabric with the real OpenSM, in both commit modes. In the desk (the test's own binary run as a
// client of the simulation) a spine–leaf cable is failed on the map's what-if menu, then Routing
// Preview runs pftree: the proposal must avoid the cable, the preview and the review name the
// event, and Approve either
// - (OpenSM's file engine) installs it as a pre-emptive plan: dump_lfts, read by the parent,
//   shows the tables the desk proposed, none of them using the cable, and the journal names the
//   event; or
// - (Weft's engine inside OpenSM, which routes the intent on the fabric as it is) is off, with the
//   reason beside it, and nothing is written: the intent file, the journal and dump_lfts are as
//   they were.

#include "CommitJournal.h"
#include "DiffReview.h"
#include "DeskDriving.h"
#include "FabricDocument.h"
#include "FabricGenerator.h"
#include "FabricScene.h"
#include "FabricSession.h"
#include "FabricView.h"
#include "LabChild.h"
#include "LabTools.h"
#include "LftDump.h"
#include "MainWindow.h"
#include "PartitionsConf.h"
#include "ProjectFile.h"
#include "ReconfigurationStudio.h"
#include "RoutingEngine.h"
#include "RoutingPreview.h"
#include "SafeFile.h"
#include "Screenshots.h"
#include "SimulatedFabric.h"
#include "TopologyFile.h"

#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include <memory>

using namespace weft;

namespace {

using test::describe;
using test::readAll;

const QLatin1String kFileChildFlag("--file-engine-child");
const QLatin1String kPluginChildFlag("--plugin-child");

QString labFile(const QString &labDir, const QString &name) { return QDir(labDir).filePath(name); }

// The failed cable as the child names it for the parent: "GUID PORT GUID PORT".
struct FailedCable
{
    Guid a = 0, b = 0;
    int portA = 0, portB = 0;
};

// Entries of `tables` on the two switches at the cable's ends that leave through it.
int entriesThrough(const ForwardingTables &tables, const FailedCable &cable)
{
    int through = 0;
    for (const auto &[guid, port] : {std::pair{cable.a, cable.portA}, std::pair{cable.b, cable.portB}}) {
        const SwitchForwardingTable *table = tables.find(guid);
        if (!table)
            continue;
        for (Lid lid = 1; lid <= table->lft.top(); ++lid)
            if (table->lft.port(lid) == port)
                ++through;
    }
    return through;
}

// ---------------------------------------------------------------------------------------------
// The child: the desk inside the simulation.

class WhatIfChild : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { test::useOwnLabSettings(QStringLiteral("tst_lab_whatif_desk")); }
    void cleanupTestCase() { QSettings().clear(); }

    void fileEngine() { runDesk(false); }
    void plugin() { runDesk(true); }

private:
    void runDesk(bool plugin)
    {
        const QString lab = test::labChildSetup().labDir;
        MainWindow window;
        window.resize(1366, 768);
        QVERIFY(test::discoverThroughTheMenu(window));
        FabricSession *session = window.document()->session();
        CommitTarget target;
        target.partitionsPath = labFile(lab, QStringLiteral("partitions.conf"));
        target.pidFile = labFile(lab, QStringLiteral("opensm.pid"));
        target.logPath = test::labChildSetup().openSmLog;
        if (plugin)
            target.intentPath = labFile(lab, QStringLiteral("intent.weft"));
        else
            target.lftsPath = labFile(lab, QStringLiteral("opensm.lfts"));
        session->setCommitTarget(target);
        QVERIFY(session->hasCommitTarget());
        const Fabric &fabric = *window.fabric();

        // The map's what-if menu on the first spine–leaf cable: "Fail this link".
        FabricView *view = window.fabricView();
        view->fitToWindow();
        FailedCable cable;
        for (LinkIndex l = 0; l < LinkIndex(fabric.links().size()) && !cable.a; ++l) {
            const Link &link = fabric.links()[std::size_t(l)];
            const Port &a = fabric.port(link.a);
            const Port &b = fabric.port(link.b);
            if (fabric.node(a.node).type != NodeType::Switch || fabric.node(b.node).type != NodeType::Switch)
                continue;
            std::unique_ptr<QMenu> menu(view->whatIfMenuAt(view->mapFromScene(window.fabricScene()->cableCentre(l)), nullptr));
            QAction *fail = menu ? menu->findChild<QAction *>(QStringLiteral("failLinkAction")) : nullptr;
            if (!fail)
                continue;
            QSignalSpy planned(window.reconfigurationStudio(), &ReconfigurationStudio::finished);
            fail->trigger();
            QVERIFY(!planned.isEmpty() || planned.wait(120000));
            cable = {fabric.node(a.node).guid, fabric.node(b.node).guid, int(a.number), int(b.number)};
        }
        QVERIFY2(cable.a, "no switch cable could be failed on the map");
        QVERIFY(!session->whatIf().isEmpty());
        const QString event = session->whatIf().describe(fabric);
        // On the map, marked; on the undo stack, a step of its own.
        QCOMPARE(window.fabricScene()->whatIfMarkCount(), std::size_t(1));
        QVERIFY2(window.document()->undoStack()->undoText().contains(QLatin1String("What-if")),
                 qPrintable(window.document()->undoStack()->undoText()));

        // Preview pftree: the fabric routed with the event applied.
        QVERIFY(runPreviewAndWait(window, QStringLiteral("pftree"), 120000));
        const PreviewResult *preview = window.routingPreview()->result();
        QVERIFY(preview && preview->proposed.tables);
        QVERIFY2(preview->proposed.validation.ok, qPrintable(preview->proposed.validation.problems.join(QLatin1Char('\n'))));
        QCOMPARE(entriesThrough(*preview->proposed.tables, cable), 0);
        QVERIFY(session->currentTables());
        QVERIFY2(entriesThrough(*session->currentTables(), cable) > 0, "the tables held must use the cable, or the test proves nothing");
        QVERIFY2(window.routingPreview()->statusText().contains(event), qPrintable(window.routingPreview()->statusText()));
        QVERIFY(session->proposalOrigin().whatIf == session->whatIf());
        QVERIFY2(session->proposalOrigin().name.contains(event), qPrintable(session->proposalOrigin().name));
        QVERIFY(writeFileAtomically(labFile(lab, QStringLiteral("gui-proposed.lfts")), writeLftDump(*preview->proposed.tables, &fabric), false).ok());
        QVERIFY(writeFileAtomically(labFile(lab, QStringLiteral("failed-cable")),
                                    QStringLiteral("%1 %2 %3 %4").arg(guidText(cable.a)).arg(cable.portA).arg(guidText(cable.b)).arg(cable.portB).toUtf8(),
                                    false)
                    .ok());

        // The review names the event.
        DiffReview *review = window.diffReview();
        QVERIFY(review->hasPlan());
        QVERIFY2(review->summaryText().contains(event) && review->summaryText().contains(QLatin1String("pre-emptive")),
                 qPrintable(review->summaryText()));
        auto *beside = review->findChild<QLabel *>(QStringLiteral("diffStale"));
        QVERIFY(beside);
        const QString journal = session->journalPath();
        const QByteArray journalBefore = readAll(journal);

        const QString outcomeFile = labFile(lab, QStringLiteral("outcome"));
        if (!plugin && !review->isApproveEnabled()) {
            // Not valid on the fabric as it is (a route the switches have now would be lost):
            // refused as the plan is made, the reason beside Approve, nothing written.
            const QString refusal = review->approveRefusal();
            QVERIFY2(refusal.contains(QLatin1String("pre-emptive")), qPrintable(refusal));
            QVERIFY(beside->isVisible() && beside->text().contains(refusal));
            QVERIFY(!test::clickApprove(window));
            QCOMPARE(readAll(journal), journalBefore);
            qInfo("refused beside Approve: %s", qPrintable(refusal));
            QVERIFY(writeFileAtomically(outcomeFile, "refused\n", false).ok());
            return;
        }
        if (!plugin) {
            // Valid on the fabric as it is: installed as a pre-emptive plan.
            QVERIFY(writeFileAtomically(outcomeFile, "installed\n", false).ok());
            QVERIFY(beside->isHidden());
            const std::optional<CommitReport> report = test::clickApprove(window);
            QVERIFY(report);
            for (const QString &line : report->toText().split(QLatin1Char('\n')))
                qInfo("report: %s", qPrintable(line));
            QVERIFY2(report->ok(), qPrintable(report->toText()));
            QVERIFY2(report->toText().contains(QLatin1String("pre-emptive plan")), qPrintable(report->toText()));
            const QByteArray journalAfter = readAll(journal);
            QVERIFY2(journalAfter.mid(journalBefore.size()).contains(event.toUtf8()) || journalAfter.mid(journalBefore.size()).contains("what-if"),
                     journalAfter.mid(journalBefore.size()).constData());
            return;
        }

        // Weft's engine inside OpenSM would route the intent on the fabric as it is: refused
        // before anything is written, the reason beside Approve.
        const QByteArray intentBefore = readAll(target.intentPath);
        QVERIFY(!review->isApproveEnabled());
        const QString refusal = review->approveRefusal();
        QVERIFY2(refusal.contains(QLatin1String("what-if")) && refusal.contains(QLatin1String("inside OpenSM")), qPrintable(refusal));
        QVERIFY(beside->isVisible());
        QVERIFY2(beside->text().contains(refusal), qPrintable(beside->text()));
        review->approve();
        const QString report = review->findChild<QPlainTextEdit *>(QStringLiteral("commitReport"))->toPlainText();
        QVERIFY2(report.startsWith(QLatin1String("Approve refused")), qPrintable(report));
        QCOMPARE(readAll(target.intentPath), intentBefore);
        QCOMPARE(readAll(journal), journalBefore);

        // Undo takes the event back first: the plan is stale, and a preview now is a plan of the
        // fabric as it is, which the target takes.
        window.document()->undoStack()->undo();
        QVERIFY(session->whatIf().isEmpty());
        QCOMPARE(window.fabricScene()->whatIfMarkCount(), std::size_t(0));
        QVERIFY2(review->approveRefusal().contains(QLatin1String("what-if")), qPrintable(review->approveRefusal()));
    }
};

int runChild(int argc, char **argv)
{
    const bool plugin = kPluginChildFlag == QLatin1String(argv[1]);
    return test::runLabChild<WhatIfChild>(argc, argv, &test::labChildSetup().labDir, &test::labChildSetup().openSmLog,
                                          plugin ? "plugin" : "fileEngine");
}

// ---------------------------------------------------------------------------------------------
// The parent: the lab, and the independent checks.

Result<FailedCable> readFailedCable(const QString &path)
{
    const QStringList words = QString::fromUtf8(readAll(path)).split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (words.size() != 4)
        return Error{path, 0, QStringLiteral("the child named no failed cable")};
    FailedCable cable;
    bool ok[4] = {};
    cable.a = words[0].toULongLong(&ok[0], 16);
    cable.portA = words[1].toInt(&ok[1]);
    cable.b = words[2].toULongLong(&ok[2], 16);
    cable.portB = words[3].toInt(&ok[3]);
    if (!ok[0] || !ok[1] || !ok[2] || !ok[3])
        return Error{path, 1, QStringLiteral("cannot read the failed cable")};
    return cable;
}

GeneratedFabric labTree()
{
    GeneratorOptions o;
    o.arity = 4;
    o.levels = 2;
    o.linkSpeed = LinkSpeed::SDR;  // what ibsim reports
    Result<GeneratedFabric> generated = generateFabric(o);
    if (!generated)
        qFatal("%s", qPrintable(generated.error().toString()));
    return std::move(generated).value();
}

Result<ForwardingTables> dumpLfts(SimulatedFabric &sim, const Fabric &live, const QString &what)
{
    const auto dump = sim.runClient(QStringLiteral("dump_lfts"), {});
    if (!dump || dump->exitCode != 0)
        return Error{what, 0, describe(dump)};
    return readLftDump(dump->out, what, &live);
}

}  // namespace

class TestLabWhatIfDesk : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        const QString openSm = test::openSmVersionProblem();
        QVERIFY2(openSm.isEmpty(), qPrintable(openSm));
        const QString missing = SimulatedFabric::missingTools();
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("the lab tests need: ") + missing));
    }

    // OpenSM's file engine: the what-if plan goes in as a pre-emptive plan, and the switches hold
    // the desk's proposal, which avoids the failed cable.
    void fileEngineInstallsAPreEmptivePlan()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const GeneratedFabric generated = labTree();
        Result<Routing> ftree = routeFabric(QStringLiteral("ftree"), generated.fabric, Tenancy{});
        QVERIFY(ftree);
        Result<test::FileRoutedLab> lab = test::startLabOnTables(dir.path(), generated.fabric, ftree->tables, generated.fabric.endNodes().front());
        QVERIFY2(lab, lab ? "" : qPrintable(lab.error().toString()));

        const auto child = lab->sim->runClient(QCoreApplication::applicationFilePath(), {kFileChildFlag, dir.path(), lab->sim->openSmLogPath()}, 600000);
        if (child)
            for (const QByteArray &line : child->out.split('\n'))
                qInfo("child: %s", line.constData());
        QVERIFY2(child && child->exitCode == 0, qPrintable(describe(child)));

        Result<FailedCable> cable = readFailedCable(labFile(dir.path(), QStringLiteral("failed-cable")));
        QVERIFY2(cable, cable ? "" : qPrintable(cable.error().toString()));
        QVERIFY2(entriesThrough(ftree->tables, *cable) > 0, "the tables before used the cable");
        const QByteArray outcome = readAll(labFile(dir.path(), QStringLiteral("outcome"))).trimmed();
        if (outcome == "refused") {
            // Refused before anything was written: the switches hold what they held.
            Result<ForwardingTables> held = dumpLfts(*lab->sim, lab->live, QStringLiteral("dump_lfts after"));
            QVERIFY2(held, held ? "" : qPrintable(held.error().toString()));
            Result<ForwardingTables> before = readLftDumpFile(lab->lfts, &lab->live);
            QVERIFY(before);
            QVERIFY2(test::firstRouteDifference(lab->live, *before, *held).isEmpty(), "a refused plan changed the switches' tables");
            lab->sim->stop();
            return;
        }
        QCOMPARE(outcome, QByteArray("installed"));
        Result<ForwardingTables> proposed = readLftDumpFile(labFile(dir.path(), QStringLiteral("gui-proposed.lfts")), &lab->live);
        QVERIFY2(proposed, proposed ? "" : qPrintable(proposed.error().toString()));
        Result<ForwardingTables> held = dumpLfts(*lab->sim, lab->live, QStringLiteral("dump_lfts after"));
        QVERIFY2(held, held ? "" : qPrintable(held.error().toString()));
        const QString differ = test::firstRouteDifference(lab->live, *proposed, *held);
        QVERIFY2(differ.isEmpty(), qPrintable(QStringLiteral("dump_lfts vs the desk's proposal: ") + differ));
        QCOMPARE(entriesThrough(*held, *cable), 0);
        lab->sim->stop();
    }

    // Weft's engine inside OpenSM (the default): the what-if plan is refused beside Approve and
    // nothing reaches the fabric.
    void pluginModeRefusesBesideApprove()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const GeneratedFabric generated = labTree();
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
        QVERIFY(writeFileAtomically(labFile(dir.path(), QStringLiteral("opensm.pid")), QByteArray::number(sim.openSmPid()) + '\n', false).ok());
        Result<Fabric> live = test::discoverWithIbnetdiscover(sim, labFile(dir.path(), QStringLiteral("lab.topo")));
        QVERIFY2(live, live ? "" : qPrintable(live.error().toString()));
        Result<ForwardingTables> before = dumpLfts(sim, *live, QStringLiteral("dump_lfts before"));
        QVERIFY2(before, before ? "" : qPrintable(before.error().toString()));

        const auto child = sim.runClient(QCoreApplication::applicationFilePath(), {kPluginChildFlag, dir.path(), sim.openSmLogPath()}, 600000);
        QVERIFY2(child && child->exitCode == 0, qPrintable(describe(child)));
        qInfo("%s", child->out.constData());

        Result<FailedCable> cable = readFailedCable(labFile(dir.path(), QStringLiteral("failed-cable")));
        QVERIFY2(cable, cable ? "" : qPrintable(cable.error().toString()));
        Result<ForwardingTables> after = dumpLfts(sim, *live, QStringLiteral("dump_lfts after"));
        QVERIFY2(after, after ? "" : qPrintable(after.error().toString()));
        const QString differ = test::firstRouteDifference(*live, *before, *after);
        QVERIFY2(differ.isEmpty(), qPrintable(QStringLiteral("the switches' tables changed: ") + differ));
        QVERIFY2(entriesThrough(*after, *cable) > 0, "OpenSM's tables use the cable: the refused plan would have changed them");
        QCOMPARE(readAll(intent), writeProject(project));
        sim.stop();
    }
};

int main(int argc, char **argv)
{
    if (argc > 1 && (kFileChildFlag == QLatin1String(argv[1]) || kPluginChildFlag == QLatin1String(argv[1])))
        return runChild(argc, argv);
    if (qEnvironmentVariableIsEmpty("QTEST_FUNCTION_TIMEOUT"))
        qputenv("QTEST_FUNCTION_TIMEOUT", "840000");
    QCoreApplication app(argc, argv);
    TestLabWhatIfDesk test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}
#include "tst_lab_whatif_desk.moc"
