// The reconfiguration studio in the desk: a what-if link failure picked from the map's context
// menu is planned as the three candidate kinds with the figures `weft reconfigure` gives on the
// same input, and a candidate chosen becomes the proposal the Diff Review shows.

#include "DiffReview.h"
#include "FabricDocument.h"
#include "FabricScene.h"
#include "FabricView.h"
#include "GeneratedFabrics.h"
#include "LftDump.h"
#include "MainWindow.h"
#include "ReconfigurationStudio.h"
#include "RoutingEngine.h"
#include "FabricSession.h"
#include "SafeFile.h"
#include "Screenshots.h"
#include "TopologyFile.h"
#include "WeftRunner.h"

#include <QAction>
#include <QDockWidget>
#include <QPushButton>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace weft;

namespace {

bool writeFile(const QString &path, const QByteArray &data)
{
    return writeFileAtomically(path, data, false).ok();
}

// A desk with a generated fat-tree open and ftree's tables as the installed ones, both also
// written as files for `weft reconfigure`.
struct StudioDesk
{
    QTemporaryDir dir;
    MainWindow window;
    QString topologyPath;
    QString lftsPath;
    ForwardingTables installed;

    bool open(QString *error)
    {
        const Fabric generated = test::generate({FabricShapeKind::KaryNTree, 4, 3}).fabric;
        topologyPath = dir.filePath(QStringLiteral("fabric.topo"));
        if (!writeFile(topologyPath, writeIbnetdiscover(generated)))
            return *error = QStringLiteral("cannot write the topology"), false;
        if (!window.openTopologyFile(topologyPath, error) || !waitForScene(window, 120000))
            return false;
        Result<Routing> routing = routeFabric(QStringLiteral("ftree"), *window.fabric(), window.tenancy());
        if (!routing)
            return *error = routing.error().toString(), false;
        installed = routing.value().tables;
        lftsPath = dir.filePath(QStringLiteral("installed.lfts"));
        if (!writeFile(lftsPath, writeLftDump(installed, window.fabric())))
            return *error = QStringLiteral("cannot write the LFT dump"), false;
        return window.openLftDump(lftsPath, error);
    }
};

// A switch-to-switch cable the map's context menu finds at its middle, and where that is.
std::optional<std::pair<LinkIndex, QPoint>> switchCableOnMap(MainWindow &window)
{
    const Fabric &fabric = *window.fabric();
    FabricScene *scene = window.fabricScene();
    FabricView *view = window.fabricView();
    for (LinkIndex l = 0; l < LinkIndex(fabric.links().size()); ++l) {
        const Link &link = fabric.links()[std::size_t(l)];
        if (fabric.node(fabric.port(link.a).node).type != NodeType::Switch
            || fabric.node(fabric.port(link.b).node).type != NodeType::Switch)
            continue;
        const QPoint viewPos = view->mapFromScene(scene->cableCentre(l));
        if (scene->cableAt(view->mapToScene(viewPos), 6.0 / std::max(view->zoom(), 1e-6)) == l)
            return std::make_pair(l, viewPos);
    }
    return std::nullopt;
}

QJsonArray reconfigureJson(const StudioDesk &desk, const QString &failLink, const QString &candidates)
{
    const test::Run run = test::runWeft({QStringLiteral("reconfigure"), QStringLiteral("--json"), QStringLiteral("--topology"),
                                         desk.topologyPath, QStringLiteral("--lfts"), desk.lftsPath, QStringLiteral("--fail-link"),
                                         failLink, QStringLiteral("--candidates"), candidates});
    if (run.exitCode != 0)
        qWarning("weft reconfigure: exit %d: %s", run.exitCode, run.err.constData());
    const QJsonDocument doc = QJsonDocument::fromJson(run.out);
    return doc.isArray() ? doc.array() : doc.object().value(QStringLiteral("candidates")).toArray();
}

}  // namespace

class TestStudio : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void failLinkFromMapEqualsWeftReconfigure();
    void withoutInstalledTablesPlanIsDisabled();
    void reviewMakesTheCandidateTheProposal();
    void planTheCurrentEditsKeepsTheFabric();
};

void TestStudio::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("weft-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_studio"));
    QVERIFY2(QFileInfo(qEnvironmentVariable("WEFT_BINARY")).isExecutable(), "WEFT_BINARY must name the weft executable");
}

void TestStudio::failLinkFromMapEqualsWeftReconfigure()
{
    StudioDesk desk;
    QString error;
    QVERIFY2(desk.open(&error), qPrintable(error));
    MainWindow &window = desk.window;
    window.resize(1400, 900);
    window.fabricView()->fitToWindow();
    ReconfigurationStudio *studio = window.reconfigurationStudio();
    QVERIFY(studio);
    QVERIFY(studio->canPlan());
    studio->setEngines({QStringLiteral("updn")});  // ftree refuses a fat-tree with a cable missing
    studio->setTau(0);
    studio->setMetabasePolicy(SlotPolicy::Sticky);

    const auto cable = switchCableOnMap(window);
    QVERIFY2(cable, "no switch cable found on the map");
    const Fabric &fabric = *window.fabric();
    const Link &link = fabric.links()[std::size_t(cable->first)];

    // The map's context menu, as a right-click there shows it.
    std::unique_ptr<QMenu> menu(window.fabricView()->whatIfMenuAt(cable->second, nullptr));
    QVERIFY(menu);
    auto *fail = menu->findChild<QAction *>(QStringLiteral("failLinkAction"));
    QVERIFY(fail);
    QVERIFY(!menu->findChild<QAction *>(QStringLiteral("failSwitchAction")));
    // A switch offers "Fail this switch", a host "Remove".
    for (NodeIndex n : {fabric.switches().front(), fabric.endNodes().front()}) {
        window.fabricView()->focusNode(n);
        const QPoint at = window.fabricView()->mapFromScene(window.fabricScene()->layout().nodeRect(fabric, n).center());
        std::unique_ptr<QMenu> nodeMenu(window.fabricView()->whatIfMenuAt(at, nullptr));
        QVERIFY(nodeMenu);
        const bool isSwitch = fabric.node(n).type == NodeType::Switch;
        QCOMPARE(bool(nodeMenu->findChild<QAction *>(QStringLiteral("failSwitchAction"))), isSwitch);
        QCOMPARE(bool(nodeMenu->findChild<QAction *>(QStringLiteral("removeHostAction"))), !isSwitch);
    }

    QSignalSpy finished(studio, &ReconfigurationStudio::finished);
    fail->trigger();
    QVERIFY(window.studioDock()->isVisibleTo(&window));
    QCOMPARE(studio->whatIf().failedLinkPorts.size(), std::size_t(1));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
    QCOMPARE(finished.first().first().toBool(), true);
    // The map marks the failed cable; the document's fabric keeps it.
    QCOMPARE(window.fabricScene()->whatIfMarkCount(), std::size_t(1));
    QCOMPARE(window.fabric()->links().size(), fabric.links().size());
    QCOMPARE(window.fabricScene()->linkColouring(), LinkColouring::Load);

    const CandidateStudy *study = studio->study();
    QVERIFY(study);
    QCOMPARE(study->candidates.size(), std::size_t(3));
    QCOMPARE(studio->candidateTable()->rowCount(), 3);
    QCOMPARE(study->fabric->links().size(), fabric.links().size() - 1);

    // The same event through `weft reconfigure`, naming the link by one of its ends.
    const auto [guid, port] = studio->whatIf().failedLinkPorts.front();
    QCOMPARE(guid, fabric.node(fabric.port(link.a).node).guid);
    QCOMPARE(port, int(fabric.port(link.a).number));
    const QString failLink = QStringLiteral("%1[%2]").arg(guidText(guid)).arg(port);
    const QJsonArray expected = reconfigureJson(desk, failLink, QStringLiteral("full:updn,slimupdate:0,metabase:sticky"));
    QCOMPARE(expected.size(), 3);
    for (int i = 0; i < 3; ++i) {
        const CandidateResult &c = study->candidates[std::size_t(i)];
        const QJsonObject o = expected[i].toObject();
        QCOMPARE(c.name, o.value(QStringLiteral("name")).toString());
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QCOMPARE(double(c.changedEntries), o.value(QStringLiteral("changed_entries")).toDouble());
        QCOMPARE(double(c.changedBlocks), o.value(QStringLiteral("changed_blocks")).toDouble());
        QCOMPARE(double(c.smps), o.value(QStringLiteral("smps")).toDouble());
        QCOMPARE(double(c.changedPaths), o.value(QStringLiteral("changed_paths")).toDouble());
        QCOMPARE(c.maxLinkLoadAfter, o.value(QStringLiteral("max_link_load")).toDouble());
        QCOMPARE(c.valid(), o.value(QStringLiteral("valid")).toBool());
        QVERIFY(c.valid());
        // The table shows them.
        QCOMPARE(studio->candidateTable()->item(i, ReconfigurationStudio::NameColumn)->text(), c.name);
        QCOMPARE(studio->candidateTable()->item(i, ReconfigurationStudio::EntriesColumn)->text(),
                 QLocale().toString(qlonglong(c.changedEntries)));
        QCOMPARE(studio->candidateTable()->item(i, ReconfigurationStudio::ValidColumn)->text(), QStringLiteral("✓"));
    }
    QCOMPARE(study->candidates[0].name, QStringLiteral("full:updn"));
    QVERIFY(study->candidates[1].name.startsWith(QLatin1String("slimupdate")));
    QVERIFY(study->candidates[2].name.startsWith(QLatin1String("metabase")));
    // SlimUpdate changes no more paths than the full re-route.
    QVERIFY(study->candidates[1].changedPaths <= study->candidates[0].changedPaths);

    // The drill-down lists the changed pairs, as many as the figure says (up to its limit).
    const ChangedPairs pairs = studio->changedPairsOf(0);
    QCOMPARE(pairs.total, study->candidates[0].changedPaths);
    QCOMPARE(pairs.pairs.size(), std::min<std::size_t>(1000, std::size_t(pairs.total)));

    // A candidate chosen colours the map by its load; clearing the events drops the marks.
    studio->selectCandidate(1);
    QCOMPARE(studio->selectedCandidate(), 1);
    QVERIFY(window.fabricScene()->maxCableLoad() > 0);
    studio->clearEvents();
    QCOMPARE(window.fabricScene()->whatIfMarkCount(), std::size_t(0));
    QVERIFY(!studio->study());
}

void TestStudio::withoutInstalledTablesPlanIsDisabled()
{
    QTemporaryDir dir;
    MainWindow window;
    const QString path = dir.filePath(QStringLiteral("fabric.topo"));
    QVERIFY(writeFile(path, writeIbnetdiscover(test::generate({FabricShapeKind::KaryNTree, 2, 2}).fabric)));
    QString error;
    QVERIFY2(window.openTopologyFile(path, &error), qPrintable(error));
    QVERIFY(waitForScene(window, 120000));
    ReconfigurationStudio *studio = window.reconfigurationStudio();
    QVERIFY(!studio->canPlan());
    QVERIFY(!studio->findChild<QPushButton *>(QStringLiteral("studioPlanButton"))->isEnabled());
    QVERIFY(studio->statusText().contains(QLatin1String("installed tables are not known")));
    studio->plan();
    QVERIFY(!studio->isRunning());
}

void TestStudio::reviewMakesTheCandidateTheProposal()
{
    StudioDesk desk;
    QString error;
    QVERIFY2(desk.open(&error), qPrintable(error));
    MainWindow &window = desk.window;
    ReconfigurationStudio *studio = window.reconfigurationStudio();
    studio->setEngines({});
    studio->setTau(0);
    studio->setMetabasePolicy(SlotPolicy::Sticky);
    // A cable between two switches fails (as the map's menu asks for it); the studio plans
    // around it without touching the fabric.
    const Fabric &fabric = *window.fabric();
    PortIndex end = kNoIndex;
    for (const Link &link : fabric.links())
        if (fabric.node(fabric.port(link.a).node).type == NodeType::Switch
            && fabric.node(fabric.port(link.b).node).type == NodeType::Switch) {
            end = link.b;
            break;
        }
    QVERIFY(end != kNoIndex);
    QSignalSpy finished(studio, &ReconfigurationStudio::finished);
    Q_EMIT window.fabricView()->failLinkRequested(fabric.node(fabric.port(end).node).guid, fabric.port(end).number);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
    QVERIFY(studio->study());
    QCOMPARE(window.fabricScene()->whatIfMarkCount(), std::size_t(1));
    const CandidateResult &slim = studio->study()->candidates.front();
    QVERIFY2(slim.error.isEmpty(), qPrintable(slim.error));

    studio->selectCandidate(0);
    QSignalSpy reviewed(studio, &ReconfigurationStudio::reviewed);
    QVERIFY(studio->reviewSelected());
    QCOMPARE(reviewed.count(), 1);
    QVERIFY(window.diffDock()->isVisibleTo(&window));
    const FabricSession *session = window.document()->session();
    QVERIFY(session->proposal());
    QVERIFY(session->proposal()->proposed.tables == slim.tables);
    QCOMPARE(session->proposal()->proposed.label, QStringLiteral("Candidate: %1").arg(slim.name));
    QVERIFY(session->proposal()->current->label.startsWith(QLatin1String("Current: ")));
    // Planned on the document's own fabric, from the installed tables: the Diff Review's figures
    // are the candidate's, and nothing marks it stale.
    QVERIFY(!session->isProposalStale());
    QVERIFY(session->plan());
    QVERIFY(window.diffReview()->hasPlan());
    QCOMPARE(qlonglong(session->plan()->review.diff.changedEntries), qlonglong(slim.changedEntries));
    QCOMPARE(qlonglong(session->plan()->review.diff.changedBlocks), qlonglong(slim.changedBlocks));
    QCOMPARE(qlonglong(session->plan()->review.diff.smps()), qlonglong(slim.smps));
}

void TestStudio::planTheCurrentEditsKeepsTheFabric()
{
    StudioDesk desk;
    QString error;
    QVERIFY2(desk.open(&error), qPrintable(error));
    MainWindow &window = desk.window;
    ReconfigurationStudio *studio = window.reconfigurationStudio();
    studio->setEngines({QStringLiteral("ftree")});
    studio->setTau(0);
    studio->setMetabasePolicy(SlotPolicy::Weighted);
    // A tenancy edit, no topology change: one host weighs four.
    const Fabric &fabric = *window.fabric();
    const Guid heavy = fabric.port(fabric.portOf(fabric.endNodes().front(), 1)).guid;
    window.document()->setNodeWeight(heavy, 4);
    QSignalSpy finished(studio, &ReconfigurationStudio::finished);
    studio->planCurrentEdits();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
    const CandidateStudy *study = studio->study();
    QVERIFY(study);
    QVERIFY(study->fabric == window.document()->fabric());
    QCOMPARE(window.fabricScene()->whatIfMarkCount(), std::size_t(0));
    QCOMPARE(study->candidates.size(), std::size_t(3));
    for (const CandidateResult &c : study->candidates)
        QVERIFY2(c.valid(), qPrintable(c.name + QStringLiteral(": ") + c.error));
    // ftree's own tables again: nothing for the full re-route to change, nor for SlimUpdate at τ 0.
    QCOMPARE(study->candidates[0].changedEntries, 0LL);
    QCOMPARE(study->candidates[0].changedPaths, std::uint64_t(0));
}

QTEST_MAIN(TestStudio)
#include "tst_studio.moc"
