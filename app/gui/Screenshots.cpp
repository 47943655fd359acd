#include "Screenshots.h"

#include "DeskDocks.h"

#include "FabricScene.h"
#include "MainWindow.h"
#include "RoutingPreview.h"
#include "FabricDocument.h"
#include "FabricGenerator.h"
#include "RoutingEngine.h"
#include "FabricSession.h"
#include "FabricLayout.h"
#include "FabricView.h"
#include "ReconfigurationStudio.h"
#include "VmPanel.h"
#include "LftInspector.h"
#include "AutopilotDock.h"
#include "TelemetrySampler.h"
#include "TelemetryDock.h"
#include "TelemetryHistory.h"
#include "DiffReview.h"
#include "CommitJournalDialog.h"
#include "SubnetManagersPanel.h"
#include "FabricDesign.h"
#include "FabricEdit.h"
#include "HealthDock.h"
#include "SafeFile.h"

#include <algorithm>
#include <cmath>

#include <QAbstractButton>
#include <QApplication>
#include <QCoreApplication>
#include <QDateTime>
#include <QDeadlineTimer>
#include <QDialog>
#include <QDockWidget>
#include <QEventLoop>
#include <QMessageBox>
#include <QPainter>
#include <QPlainTextEdit>
#include <QPixmap>
#include <QScrollArea>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTimer>

namespace weft {

namespace {

constexpr int kPreviewTimeoutMs = 60000;
constexpr int kSceneTimeoutMs = 120000;
constexpr int kPreviewDockWidth = 560;  // wide enough for the comparison table's three columns

// An XGFT written "h;m1,..;w1,.." generated with `options` (hypervisors and the like); an Error
// for a shape the generator refuses.
Result<GeneratedFabric> generateXgft(const QString &text, GeneratorOptions options = {})
{
    Result<XgftShape> shape = parseXgft(text);
    if (!shape)
        return shape.error();
    options.shape = FabricShapeKind::Xgft;
    options.xgft = *shape;
    return generateFabric(options);
}

// "vms": a small hypervisor fabric (the demo is not virtualised), routed by vswitch-ftree, with
// every other hypervisor's last VF shut down so that both kinds of badge show, and one VM's
// migration planned in the Virtual Machines dock.
bool prepareVmScreenshot(MainWindow &window)
{
    GeneratorOptions options;
    options.hypervisors = true;
    options.vfsPerHypervisor = 3;
    Result<GeneratedFabric> generated = generateXgft(QStringLiteral("2;4,4;4,1"), options);
    if (!generated)
        return false;
    Fabric fabric = std::move(generated->fabric);
    Result<Routing> routing = routeFabric(QStringLiteral("vswitch-ftree"), fabric, {});
    if (!routing)
        return false;
    ForwardingTables tables = std::move(routing->tables);
    for (int h = 0;; h += 2) {
        Result<VirtualisedFabric> virt = findHypervisors(fabric);
        if (!virt || h >= int(virt->hypervisors.size()))
            break;
        Result<VmLifecycle> down = shutdownVm(fabric, *virt, tables, h, int(virt->hypervisors[std::size_t(h)].vfs.size()) - 1);
        if (!down)
            return false;
        fabric = std::move(down->fabric);
        tables = std::move(down->tables);
    }
    window.showFabric(std::move(fabric), Tenancy(), QStringLiteral("vSwitch fat-tree"));
    window.document()->session()->setCurrentTables(std::make_shared<const ForwardingTables>(std::move(tables)),
                                                   QStringLiteral("vswitch-ftree"));
    if (!waitForScene(window, kSceneTimeoutMs))
        return false;
    VmPanel *panel = window.vmPanel();
    if (!panel->planMigration(1, 0, 12))  // hyp0012 has a free VF
        return false;
    // Room for the comparison: the bottom docks step aside, the dock takes the height.
    for (QDockWidget *dock : window.findChildren<QDockWidget *>()) {
        if (window.dockWidgetArea(dock) == Qt::BottomDockWidgetArea)
            dock->hide();
    }
    window.vmDock()->show();
    window.vmDock()->raise();
    window.resizeDocks({window.vmDock()}, {kPreviewDockWidth}, Qt::Horizontal);
    window.resizeDocks({window.vmDock()}, {window.height()}, Qt::Vertical);
    return true;
}

// "lft": the demo's switches holding ftree tables, a pftree preview (routes by partition), and the LFT inspector on
// the switch whose table changes in the most blocks (then entries), at its first changed entry.
bool prepareLftScreenshot(MainWindow &window)
{
    if (!waitForScene(window, kSceneTimeoutMs))
        return false;
    Result<Routing> installed = routeFabric(QStringLiteral("ftree"), *window.fabric(), window.tenancy());
    if (!installed)
        return false;
    window.document()->session()->setCurrentTables(std::make_shared<const ForwardingTables>(std::move(installed->tables)),
                                                   QStringLiteral("ftree"));
    if (!runPreviewAndWait(window, QStringLiteral("pftree"), kPreviewTimeoutMs))
        return false;
    window.setLinkColouring(LinkColouring::Load);
    LftInspector *inspector = window.lftInspector();
    const ReconfigurationDiff &diff = inspector->diff();
    const auto busiest = std::max_element(diff.switches.begin(), diff.switches.end(), [](const SwitchLftChange &a, const SwitchLftChange &b) {
        return std::pair(a.changedBlocks.size(), a.changedEntries) < std::pair(b.changedBlocks.size(), b.changedEntries);
    });
    if (busiest == diff.switches.end() || !inspector->showSwitch(busiest->guid))
        return false;
    window.lftInspectorDock()->show();
    window.lftInspectorDock()->raise();
    window.resizeDocks({window.lftInspectorDock()}, {420}, Qt::Vertical);
    return true;
}

// "studio" and "whatif": the demo on ftree tables as the installed ones, the first cable from a
// leaf up failed as the map's context menu fails it, and the candidates planned in the
// Reconfiguration Studio; "studio" gives the dock the room of its table, "whatif" the map (the
// failed cable crossed, the cables by the SlimUpdate candidate's load).
bool prepareStudioScreenshot(MainWindow &window, bool wideDock)
{
    if (!waitForScene(window, kSceneTimeoutMs) || !window.fabric())
        return false;
    const Fabric &fabric = *window.fabric();
    Result<Routing> routing = routeFabric(QStringLiteral("ftree"), fabric, window.tenancy());
    if (!routing)
        return false;
    window.document()->session()->setCurrentTables(std::make_shared<const ForwardingTables>(std::move(routing->tables)),
                                                   QStringLiteral("ftree"));
    const std::vector<int> tiers = nodeTiers(fabric);
    PortIndex uplink = kNoIndex;
    for (const Link &link : fabric.links()) {
        const NodeIndex a = fabric.port(link.a).node;
        const NodeIndex b = fabric.port(link.b).node;
        if (tiers[std::size_t(a)] >= 1 && tiers[std::size_t(b)] >= 1) {
            uplink = tiers[std::size_t(a)] < tiers[std::size_t(b)] ? link.a : link.b;
            break;
        }
    }
    if (uplink == kNoIndex)
        return false;
    ReconfigurationStudio *studio = window.reconfigurationStudio();
    studio->setEngines({QStringLiteral("updn"), QStringLiteral("pftree")});  // ftree refuses a degraded tree
    studio->setTau(1);
    studio->setMetabasePolicy(SlotPolicy::Sticky);
    QEventLoop loop;
    bool ok = false;
    QTimer::singleShot(kPreviewTimeoutMs, &loop, &QEventLoop::quit);
    const auto connection = QObject::connect(studio, &ReconfigurationStudio::finished, &loop, [&](bool success) {
        ok = success;
        loop.quit();
    });
    Q_EMIT window.fabricView()->failLinkRequested(fabric.node(fabric.port(uplink).node).guid, fabric.port(uplink).number);
    if (studio->isRunning())
        loop.exec();
    QObject::disconnect(connection);
    if (!ok && !studio->study())
        return false;
    for (int row = 0; row < int(studio->study()->candidates.size()); ++row)
        if (studio->study()->candidates[std::size_t(row)].spec.kind == CandidateKind::SlimUpdate)
            studio->selectCandidate(row);
    window.studioDock()->show();
    window.studioDock()->raise();
    if (wideDock) {
        // The studio sits under the map: give it most of the height and bring its candidate table
        // into view inside the dock's scroll area.
        window.resizeDocks({window.studioDock()}, {window.height() * 2 / 3}, Qt::Vertical);
        if (auto *area = qobject_cast<QScrollArea *>(window.studioDock()->widget())) {
            QCoreApplication::processEvents();
            area->ensureWidgetVisible(studio->candidateTable());
        }
    }
    return true;
}

// docs/tutorial.md's pictures, of the GUI that `weft lab --gui -- --screenshot PNG
// --screenshot-view tutorial-...` starts on the lab's fabric as discovered: the tutorial's steps
// done, as the operator does them, up to the one named. Each step is what the window's own
// actions do (a drop on a partition is assignPorts; Approve is clicked and its question answered),
// so the pictures show what the tutorial's reader sees.
const QStringList &tutorialSteps()
{
    static const QStringList steps = {
        QStringLiteral("tutorial-discovered"),      // as the lab opens
        QStringLiteral("tutorial-tenants"),         // chem and astro, sharing a leaf, phy-isolated
        QStringLiteral("tutorial-preview-ftree"),   // the routing preview with ftree
        QStringLiteral("tutorial-preview-pftree"),  // ... and with pftree
        QStringLiteral("tutorial-diff"),            // pftree's Diff Review, given the room
        QStringLiteral("tutorial-approve"),         // pftree committed to the lab's OpenSM
        QStringLiteral("tutorial-journal"),         // Fabric > Commit Journal after it
    };
    return steps;
}

QDockWidget *dockNamed(MainWindow &window, const char *name)
{
    return window.findChild<QDockWidget *>(QLatin1String(name));
}

bool prepareTutorialScreenshot(MainWindow &window, const QString &view)
{
    const int step = int(tutorialSteps().indexOf(view));
    if (step < 0 || !waitForScene(window, kSceneTimeoutMs) || !window.fabric())
        return false;
    window.setLinkColouring(LinkColouring::Partition);
    window.setHostColouring(HostColouring::Partition);
    if (step == 0)
        return true;

    // The tenants: the lab's two partitions deleted; chem gets "host 0000" to "host 0009" (the
    // first two leaves and half of the third), astro the rest; both phy-isolated.
    FabricDocument *document = window.document();
    const Fabric &fabric = *window.fabric();
    std::vector<NodeIndex> hosts = fabric.endNodes();
    std::sort(hosts.begin(), hosts.end(), [&](NodeIndex a, NodeIndex b) { return fabric.node(a).name < fabric.node(b).name; });
    std::vector<Guid> chem, astro;
    for (std::size_t i = 0; i < hosts.size(); ++i)
        (i < 10 ? chem : astro).push_back(fabric.port(fabric.portOf(hosts[i], 1)).guid);
    for (const std::uint16_t pkey : {std::uint16_t(0x0001), std::uint16_t(0x0002)})
        document->deletePartition(pkey);
    if (!document->createPartition(QStringLiteral("chem"), 0x0010) || !document->createPartition(QStringLiteral("astro"), 0x0020))
        return false;
    document->assignPorts(chem, 0x0010, Membership::Full);
    document->assignPorts(astro, 0x0020, Membership::Full);
    document->setPolicy(0x0010, IsolationPolicy::Physical);
    document->setPolicy(0x0020, IsolationPolicy::Physical);
    if (step == 1) {
        for (const char *name : {"partitionsDock", "policyDock"})
            if (QDockWidget *dock = dockNamed(window, name)) {
                dock->show();
                dock->raise();
            }
        return true;
    }

    RoutingPreview *preview = window.routingPreview();
    preview->setTrafficPattern(TrafficPattern::UniformRandom);
    preview->setEbbSamples(0);
    if (!runPreviewAndWait(window, step == 2 ? QStringLiteral("ftree") : QStringLiteral("pftree"), kPreviewTimeoutMs))
        return false;
    window.setLinkColouring(LinkColouring::Load);
    for (QDockWidget *dock : {window.previewDock(), window.diffDock()}) {
        dock->show();
        dock->raise();
    }
    // Room for the measures' names beside both columns.
    window.resizeDocks({window.previewDock()}, {580}, Qt::Horizontal);
    if (step <= 3)
        return true;
    // The Diff Review given the height it needs to be read, as a review opens on a laptop: the
    // larger part of the window's height, the map above it.
    QCoreApplication::processEvents();
    window.resizeDocks({window.diffDock()}, {window.height() * 3 / 5}, Qt::Vertical);
    if (step == 4)
        return true;

    DiffReview *review = window.diffReview();
    QEventLoop loop;
    bool committed = false;
    QTimer::singleShot(kPreviewTimeoutMs, &loop, &QEventLoop::quit);
    const auto connection = QObject::connect(review, &DiffReview::commitFinished, &loop, [&](const CommitReport &report) {
        committed = report.ok();
        loop.quit();
    });
    // Approve… as the operator clicks it, answering Yes to its question.
    QTimer answer;
    QObject::connect(&answer, &QTimer::timeout, &loop, [&answer] {
        auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        if (box && box->button(QMessageBox::Yes)) {
            answer.stop();
            box->button(QMessageBox::Yes)->click();
        }
    });
    answer.start(100);
    review->approve();
    if (review->isCommitting())
        loop.exec();
    QObject::disconnect(connection);
    if (!committed)
        return false;
    // The report's end: the read-back's verdict.
    for (QPlainTextEdit *text : review->findChildren<QPlainTextEdit *>())
        if (text->toPlainText().contains(QLatin1String("verified")))
            text->moveCursor(QTextCursor::End);
    if (step == 5)
        return true;
    // Fabric > Commit Journal…, which opens the lab's journal by itself.
    for (QAction *action : window.findChildren<QAction *>())
        if (action->text() == MainWindow::tr("Commit &Journal…")) {
            action->trigger();
            break;
        }
    QCoreApplication::processEvents();
    return window.findChild<CommitJournalDialog *>() != nullptr;
}

// The fabric of the autopilot and telemetry views: 4 leaves of 8 hosts under 4 spines (2:1
// oversubscribed), shown with ftree's tables as the current ones when `withTables`.
bool showOversubscribedTree(MainWindow &window, bool withTables)
{
    Result<GeneratedFabric> generated = generateXgft(QStringLiteral("2;4,8;4,1"));
    if (!generated)
        return false;
    std::shared_ptr<const ForwardingTables> tables;
    if (withTables) {
        Result<Routing> routing = routeFabric(QStringLiteral("ftree"), generated->fabric, {});
        if (!routing)
            return false;
        tables = std::make_shared<const ForwardingTables>(std::move(routing->tables));
    }
    window.showFabric(std::move(generated->fabric), Tenancy(), QStringLiteral("Oversubscribed fat-tree"));
    if (tables)
        window.document()->session()->setCurrentTables(std::move(tables), QStringLiteral("ftree"));
    return waitForScene(window, kSceneTimeoutMs);
}

// "autopilot": an oversubscribed fat-tree (4 leaves of 8 hosts under 4 spines) on ftree tables,
// a hot-spot rule applied in approve mode, and three synthetic ticks of two hot hosts on one
// spine: the rule fires, the wftree candidate with learned weights waits in the Diff Review.
bool prepareAutopilotScreenshot(MainWindow &window)
{
    if (!showOversubscribedTree(window, true))
        return false;
    AutopilotDock *autopilot = window.autopilot();
    autopilot->setRulesText(QStringLiteral("# A host receiving over 20 Gb/s for 20 s: re-route with weights learned\n"
                                           "# from the measured receive rates (wFTree's dynamic weights).\n"
                                           "rule hot_spot priority 5 cooldown 30m\n"
                                           "  when max(node[all].rx_gbps) > 20 for 20s\n"
                                           "  then reroute(engine=wftree, weights=learned(5m)),\n"
                                           "       notify(\"hot spot: re-routing with learned weights\")\n\n"
                                           "# Errors on any port: tell the operator.\n"
                                           "rule errors when max(fabric.errors) > 0 then notify(\"port errors\")\n"),
                            QStringLiteral("hot-spot.rules"));
    if (!autopilot->applyRules() || !autopilot->setMode(adapt::RuleMode::Approve))
        return false;
    const std::set<NodeIndex> hot = hotSpotHosts(*window.fabric());
    const double start = double(QDateTime::currentSecsSinceEpoch());
    for (int t = 0; t <= 20; t += 10) {
        QEventLoop loop;
        QTimer::singleShot(kPreviewTimeoutMs, &loop, &QEventLoop::quit);
        const auto connection = QObject::connect(autopilot, &AutopilotDock::tickFinished, &loop, &QEventLoop::quit);
        window.telemetrySampler()->takeRecords(syntheticTick(*window.fabric(), start + t, hot, 8e9, 5e8));
        if (autopilot->isTicking())
            loop.exec();
        QObject::disconnect(connection);
    }
    if (!autopilot->pendingChange())
        return false;
    // The firing's record selected, its details below; the dock wide beside the map.
    for (int row = 0; row < autopilot->logTable()->rowCount(); ++row)
        if (autopilot->logTable()->item(row, AutopilotDock::LogEventColumn)->text() == QLatin1String("fired"))
            autopilot->logTable()->selectRow(row);
    window.setLinkColouring(LinkColouring::Measured);
    window.autopilotDock()->show();
    window.autopilotDock()->raise();
    window.diffDock()->show();
    window.diffDock()->raise();
    // The dock takes the right-hand column's height, the Diff Review below the map stays short.
    for (QDockWidget *dock : window.findChildren<QDockWidget *>())
        if (window.dockWidgetArea(dock) == Qt::RightDockWidgetArea && !window.tabifiedDockWidgets(window.autopilotDock()).contains(dock)
            && dock != window.autopilotDock())
            dock->hide();
    window.resizeDocks({window.autopilotDock()}, {620}, Qt::Horizontal);
    window.resizeDocks({window.diffDock()}, {260}, Qt::Vertical);
    return true;
}

// "telemetry": the oversubscribed fat-tree coloured by measured load, and the Telemetry dock with
// the busiest cable selected and its last hour read from an embedded history: one synthetic tick a
// minute, the two hot hosts' load rising for half an hour, then falling.
bool prepareTelemetryScreenshot(MainWindow &window)
{
    if (!showOversubscribedTree(window, false))
        return false;
    const Fabric &fabric = *window.fabric();
    const std::set<NodeIndex> hot = hotSpotHosts(fabric);
    static QTemporaryDir dir;  // the history outlives this call: the dock reads it when drawn
    const QString path = dir.filePath(QStringLiteral("telemetry.sqlite"));
    const double now = double(QDateTime::currentSecsSinceEpoch());
    std::vector<TelemetryRecord> last;
    {
        Result<std::unique_ptr<TelemetryHistory>> history = TelemetryHistory::open(path, fabricHistoryId(fabric));
        if (!history)
            return false;
        for (int minute = 59; minute >= 0; --minute) {
            const double rise = 1.0 - std::abs(double(minute) - 30.0) / 30.0;  // 0 .. 1 .. 0
            last = syntheticTick(fabric, now - 60.0 * minute, hot, 1e9 + 2.6e9 * rise, 4e8 + 1e8 * rise);
            if (!(*history)->record(last))
                return false;
        }
    }
    TelemetryDock *dock = window.telemetryDock();
    dock->setHistoryPath(path);
    window.telemetrySampler()->takeRecords(last);
    window.setLinkColouring(LinkColouring::Measured);
    // The busiest cable: a hot host's own.
    if (hot.empty())
        return false;
    const PortIndex hostPort = fabric.portOf(*hot.begin(), 1);
    if (hostPort == kNoIndex || fabric.port(hostPort).link == kNoIndex)
        return false;
    dock->selectLink(fabric.port(hostPort).link);
    window.telemetryDockWidget()->show();
    window.telemetryDockWidget()->raise();
    window.resizeDocks({window.telemetryDockWidget()}, {440}, Qt::Vertical);
    QCoreApplication::processEvents();
    return dock->seriesCount() > 0;
}

}  // namespace

std::set<NodeIndex> hotSpotHosts(const Fabric &fabric)
{
    // The first leaf: the switch the first end node is cabled to; its hosts in port order, and
    // how many up-links it has (ftree gives its i-th host the spine i mod that).
    NodeIndex leaf = kNoIndex;
    std::vector<std::pair<int, NodeIndex>> hosts;
    int upLinks = 0;
    for (NodeIndex host : fabric.endNodes()) {
        const Node &node = fabric.node(host);
        for (int p = 0; p <= node.portCount; ++p) {
            const Port &port = fabric.port(node.firstPort + p);
            if (!port.present || port.remote == kNoIndex)
                continue;
            const Port &facing = fabric.port(port.remote);
            if (leaf == kNoIndex)
                leaf = facing.node;
            if (facing.node == leaf)
                hosts.emplace_back(facing.number, host);
        }
    }
    if (leaf == kNoIndex)
        return {};
    const Node &leafNode = fabric.node(leaf);
    for (int p = 0; p <= leafNode.portCount; ++p) {
        const Port &port = fabric.port(leafNode.firstPort + p);
        if (port.present && port.remote != kNoIndex && fabric.node(fabric.port(port.remote).node).type == NodeType::Switch)
            ++upLinks;
    }
    std::sort(hosts.begin(), hosts.end());
    std::set<NodeIndex> hot;
    if (!hosts.empty())
        hot.insert(hosts.front().second);
    if (upLinks > 0 && std::size_t(upLinks) < hosts.size())
        hot.insert(hosts[std::size_t(upLinks)].second);
    return hot;
}

std::vector<TelemetryRecord> syntheticTick(const Fabric &fabric, double time, const std::set<NodeIndex> &hotHosts,
                                           double hotBytes, double idleBytes)
{
    std::vector<TelemetryRecord> records;
    for (std::size_t p = 0; p < fabric.ports().size(); ++p) {
        const Port &port = fabric.ports()[p];
        if (!port.present || port.remote == kNoIndex)
            continue;
        TelemetryRecord record;
        record.time = time;
        record.portIndex = PortIndex(p);
        record.guid = fabric.node(port.node).guid;
        record.port = port.number;
        const double bytes = hotHosts.count(fabric.port(port.remote).node) > 0 ? hotBytes : idleBytes;
        const double capacity = linkDataBytesPerSecond(port.width, port.speed);
        record.rates.xmitBytes = CounterRate{bytes, CounterGap::None};
        record.rates.rcvBytes = CounterRate{idleBytes, CounterGap::None};
        record.rates.utilisation = CounterRate{capacity > 0 ? std::min(1.0, bytes / capacity) : 0.0, CounterGap::None};
        record.rates.xmitWait = CounterRate{0, CounterGap::None};
        records.push_back(record);
    }
    return records;
}

bool waitForScene(MainWindow &window, int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    while (!window.isSceneReady() && !deadline.hasExpired())
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 50);
    return window.isSceneReady();
}

bool runPreviewAndWait(MainWindow &window, const QString &engine, int timeoutMs)
{
    if (!waitForScene(window, timeoutMs))
        return false;
    RoutingPreview *preview = window.routingPreview();
    preview->setEngine(engine);
    QEventLoop loop;
    bool ok = false;
    bool finished = false;
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    const auto connection = QObject::connect(preview, &RoutingPreview::finished, &loop, [&](bool success) {
        ok = success;
        finished = true;
        loop.quit();
    });
    preview->start();
    // A small fabric can be routed before start() returns (a continuation attached to a finished
    // future runs at once): finished() has then come already, and the loop would wait it out.
    if (!finished)
        loop.exec();
    QObject::disconnect(connection);
    return ok;
}

namespace {

// The Subnet Managers dock at the front of the desk on a 1366x768 screen, after a check of the
// subnet target's SMs (none set: its placeholder).
bool prepareSubnetManagersScreenshot(MainWindow &window)
{
    window.resize(1366, 768);
    DeskDocks::raise(window.subnetManagersDock());
    window.resizeDocks({window.subnetManagersDock()}, {300}, Qt::Vertical);
    FabricSession *session = window.document()->session();
    if (!session->subnetTarget())
        return true;
    QEventLoop loop;
    bool checked = false;
    QTimer::singleShot(kPreviewTimeoutMs, &loop, &QEventLoop::quit);
    const auto connection = QObject::connect(session, &FabricSession::subnetChecked, &loop, [&] {
        checked = true;
        loop.quit();
    });
    window.subnetManagersPanel()->refresh();
    if (!checked)
        loop.exec();
    QObject::disconnect(connection);
    return checked;
}

// The Health dock at the front of the desk on a 1366x768 screen, after a check of the demo
// fabric against its design as a cabling crew's mistakes leave it: two leaf cables of a spine
// swapped (miswired), a spine-to-leaf cable pulled (missing) and one the design has at 12x
// (below the design).
bool prepareHealthScreenshot(MainWindow &window)
{
    window.resize(1366, 768);
    DeskDocks::raise(window.healthDockWidget());
    window.resizeDocks({window.healthDockWidget()}, {300}, Qt::Vertical);
    if (!waitForScene(window, kSceneTimeoutMs) || !window.fabric())
        return false;
    const Fabric designed = *window.fabric();
    FabricDesign design = designOfFabric(designed);
    auto isSwitch = [&designed](Guid guid) { return designed.node(designed.nodeByGuid(guid)).type == NodeType::Switch; };
    std::vector<std::size_t> switchCables;
    for (std::size_t i = 0; i < design.cables.size(); ++i)
        if (isSwitch(design.cables[i].a.guid) && isSwitch(design.cables[i].b.guid))
            switchCables.push_back(i);
    if (switchCables.size() < 8)
        return false;
    // Two cables of one switch, their ports swapped in the design.
    DesignCable &first = design.cables[switchCables[0]];
    auto second = std::find_if(switchCables.begin() + 1, switchCables.end(),
                               [&](std::size_t i) { return design.cables[i].a.guid == first.a.guid; });
    if (second == switchCables.end())
        return false;
    std::swap(first.a.port, design.cables[*second].a.port);
    design.cables[switchCables.back()].width = 12;
    // The fabric without one cable the design has.
    std::size_t middle = switchCables.size() / 2;
    if (switchCables[middle] == *second)
        ++middle;
    const DesignCable &pulled = design.cables[switchCables[middle]];
    FabricEdit edit;
    edit.cutPorts.assign(designed.ports().size(), false);
    edit.cutPorts[std::size_t(designed.portOf(designed.nodeByGuid(pulled.a.guid), pulled.a.port))] = true;
    Result<Fabric> shown = editedFabric(designed, edit);
    if (!shown)
        return false;
    window.showFabric(std::move(*shown), window.tenancy(), QStringLiteral("Demo fabric, as cabled"));
    if (!waitForScene(window, kSceneTimeoutMs))
        return false;
    // A cabling list names devices as the crew reads them: by description (the demo's are unique).
    const auto deviceOf = [](const DesignEnd &end) {
        return end.device.isEmpty() || end.device.contains(QLatin1Char(',')) ? guidText(end.guid) : end.device;
    };
    QByteArray csv = "start device,start port,end device,end port,link type\n";
    for (const DesignCable &c : design.cables)
        csv += QStringLiteral("%1,%2,%3,%4,%5\n").arg(deviceOf(c.a)).arg(c.a.port).arg(deviceOf(c.b)).arg(c.b.port)
                   .arg(linkTypeText(c.width, c.speed)).toUtf8();
    static QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("cabling.csv"));
    if (!dir.isValid() || !writeFileAtomically(path, csv, false).ok())
        return false;
    HealthDock *health = window.healthDock();
    health->setDesignFile(path);
    QEventLoop loop;
    bool ok = false;
    QTimer::singleShot(kPreviewTimeoutMs, &loop, &QEventLoop::quit);
    const auto connection = QObject::connect(health, &HealthDock::checked, &loop, [&](const QString &error) {
        ok = error.isEmpty();
        loop.quit();
    });
    health->check();
    if (health->isChecking())
        loop.exec();
    QObject::disconnect(connection);
    return ok && health->report().has_value();
}

}  // namespace

bool prepareScreenshot(MainWindow &window, const QString &view)
{
    if (view.startsWith(QLatin1String("dock:"))) {
        // One dock in front, by its object name, over a previewed pftree routing so that what
        // reads a routing has one: the picture of each dock at 1366x768.
        QDockWidget *dock = window.findChild<QDockWidget *>(view.mid(5));
        if (!dock)
            return false;
        window.routingPreview()->setTrafficPattern(TrafficPattern::UniformRandom);
        if (!runPreviewAndWait(window, QStringLiteral("pftree"), kPreviewTimeoutMs))
            return false;
        window.setLinkColouring(LinkColouring::Load);
        dock->show();
        DeskDocks::raise(dock);
        if (window.dockWidgetArea(dock) == Qt::BottomDockWidgetArea)
            window.resizeDocks({dock}, {window.height() * 9 / 20}, Qt::Vertical);
        QCoreApplication::processEvents();
        return true;
    }
    if (view == QLatin1String("subnet-managers"))
        return prepareSubnetManagersScreenshot(window);
    if (view == QLatin1String("health"))
        return prepareHealthScreenshot(window);
    if (view == QLatin1String("partitions")) {
        window.setLinkColouring(LinkColouring::Partition);
        window.setHostColouring(HostColouring::Partition);
        if (!runPreviewAndWait(window, QStringLiteral("ftree"), kPreviewTimeoutMs))
            return false;
        // The finished preview switches plain cables to load; these show partitions.
        window.setLinkColouring(LinkColouring::Partition);
        return true;
    }
    // "preview" routes with ftree, "preview-pftree" with pftree: the same picture, so that the
    // README can show what partition-aware routing buys on the demo's policies.
    const bool pftree = view == QLatin1String("preview-pftree");
    const bool previewDocks = view == QLatin1String("preview") || pftree;
    if (view == QLatin1String("load") || previewDocks) {
        RoutingPreview *preview = window.routingPreview();
        preview->setTrafficPattern(TrafficPattern::UniformRandom);
        preview->setEbbSamples(previewDocks ? 2000 : 0);
        if (!runPreviewAndWait(window, pftree ? QStringLiteral("pftree") : QStringLiteral("ftree"), kPreviewTimeoutMs))
            return false;
        window.setLinkColouring(LinkColouring::Load);
        if (previewDocks) {
            for (QDockWidget *dock : {window.previewDock(), window.diffDock()}) {
                dock->show();
                dock->raise();
            }
            window.resizeDocks({window.previewDock()}, {kPreviewDockWidth}, Qt::Horizontal);
        }
        return true;
    }
    if (view == QLatin1String("small-screen")) {
        // The desk on a 1366x768 screen with every dock open: a previewed pftree routing, the
        // Diff Review and Approve in view.
        window.resize(1366, 768);
        for (QDockWidget *dock : window.findChildren<QDockWidget *>())
            dock->show();
        if (!runPreviewAndWait(window, QStringLiteral("pftree"), kPreviewTimeoutMs))
            return false;
        window.setLinkColouring(LinkColouring::Load);
        for (QDockWidget *dock : {window.previewDock(), window.diffDock()})
            DeskDocks::raise(dock);
        QCoreApplication::processEvents();
        return window.size() == QSize(1366, 768);
    }
    if (view == QLatin1String("map")) {
        // The map alone, every dock closed: the window's whole width and height for the picture
        // (a big fabric's tiers, a director's chassis). The map refits as it grows.
        for (QDockWidget *dock : window.findChildren<QDockWidget *>())
            dock->hide();
        QCoreApplication::processEvents();
        return true;
    }
    if (view == QLatin1String("vms"))
        return prepareVmScreenshot(window);
    if (view == QLatin1String("studio") || view == QLatin1String("whatif"))
        return prepareStudioScreenshot(window, view == QLatin1String("studio"));
    if (view == QLatin1String("lft"))
        return prepareLftScreenshot(window);
    if (view == QLatin1String("autopilot"))
        return prepareAutopilotScreenshot(window);
    if (view == QLatin1String("telemetry"))
        return prepareTelemetryScreenshot(window);
    if (view.startsWith(QLatin1String("tutorial-")))
        return prepareTutorialScreenshot(window, view);
    return view.isEmpty();
}

bool saveScreenshot(MainWindow &window, const QString &path)
{
    if (!waitForScene(window, kSceneTimeoutMs))
        return false;
    QCoreApplication::processEvents();
    QPixmap picture = window.grab();
    // A dialog the view opened (the commit journal) drawn over the window where it stands.
    QPainter painter(&picture);
    for (QDialog *dialog : window.findChildren<QDialog *>()) {
        if (!dialog->isVisible())
            continue;
        const QPoint at = dialog->geometry().topLeft() - window.geometry().topLeft();
        painter.drawPixmap(at, dialog->grab());
    }
    painter.end();
    return !picture.isNull() && picture.save(path);
}

}  // namespace weft
