#include "Screenshots.h"

#include "FabricScene.h"
#include "MainWindow.h"
#include "RoutingPreview.h"
#include "FabricDocument.h"
#include "FabricGenerator.h"
#include "RoutingEngine.h"
#include "RoutingSession.h"
#include "FabricLayout.h"
#include "FabricView.h"
#include "ReconfigurationStudio.h"
#include "VmPanel.h"
#include "LftInspector.h"

#include <algorithm>

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDockWidget>
#include <QEventLoop>
#include <QPixmap>
#include <QTimer>

namespace weft {

namespace {

constexpr int kPreviewTimeoutMs = 60000;
constexpr int kSceneTimeoutMs = 120000;
constexpr int kPreviewDockWidth = 560;  // wide enough for the comparison table's three columns

// "vms": a small hypervisor fabric (the demo is not virtualised), routed by vswitch-ftree, with
// every other hypervisor's last VF shut down so that both kinds of badge show, and one VM's
// migration planned in the Virtual Machines dock.
bool prepareVmScreenshot(MainWindow &window)
{
    GeneratorOptions options;
    options.shape = FabricShapeKind::Xgft;
    Result<XgftShape> shape = parseXgft(QStringLiteral("2;4,4;4,1"));
    if (!shape)
        return false;
    options.xgft = *shape;
    options.hypervisors = true;
    options.vfsPerHypervisor = 3;
    Result<GeneratedFabric> generated = generateFabric(options);
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
    window.resizeDocks({window.studioDock()}, {wideDock ? 900 : kPreviewDockWidth}, Qt::Horizontal);
    return true;
}

}  // namespace

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

bool prepareScreenshot(MainWindow &window, const QString &view)
{
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
    if (view == QLatin1String("vms"))
        return prepareVmScreenshot(window);
    if (view == QLatin1String("studio") || view == QLatin1String("whatif"))
        return prepareStudioScreenshot(window, view == QLatin1String("studio"));
    if (view == QLatin1String("lft"))
        return prepareLftScreenshot(window);
    return view.isEmpty();
}

bool saveScreenshot(MainWindow &window, const QString &path)
{
    if (!waitForScene(window, kSceneTimeoutMs))
        return false;
    QCoreApplication::processEvents();
    const QPixmap picture = window.grab();
    return !picture.isNull() && picture.save(path);
}

}  // namespace weft
