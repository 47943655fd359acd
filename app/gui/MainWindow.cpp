#include "MainWindow.h"

#include "CommitTargetSettings.h"
#include "ConnectServiceDialog.h"

#include "AutopilotDock.h"
#include "FabricMenu.h"
#include "FileMenu.h"
#include "DiffReview.h"
#include "DrainPlanner.h"
#include "FabricChangesPanel.h"
#include "FabricDocument.h"
#include "FabricSession.h"
#include "FabricView.h"
#include "HealthDock.h"
#include "JobTenants.h"
#include "LftInspector.h"
#include "MapOverlays.h"
#include "MapToolBar.h"
#include "NodePanel.h"
#include "PartitionPanel.h"
#include "PathTrace.h"
#include "ReconfigurationStudio.h"
#include "RoutingKeysPanel.h"
#include "RoutingPreview.h"
#include "SubnetManagersPanel.h"
#include "SummaryPanel.h"
#include "TelemetryDock.h"
#include "TelemetrySampler.h"
#include "VmPanel.h"

#include <QAction>
#include <QCloseEvent>
#include <QComboBox>
#include <QActionGroup>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTableWidget>
#include <QTimer>
#include <QUndoStack>
#include <QtConcurrent>

namespace weft {

namespace {

const QString kGeometryKey = QStringLiteral("mainWindow/geometry");
const QString kStateKey = QStringLiteral("mainWindow/state");

}  // namespace

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent)
{
    setObjectName(QStringLiteral("MainWindow"));
    m_document = new FabricDocument(this);
    m_document->session()->setCommitTarget(configuredCommitTarget());
    // A subnet target that cannot be read now is said once the window is up; the dialog shows it
    // again, with its error, to be mended.
    const Status subnet = m_document->session()->setSubnetTarget(configuredSubnetTargetPath());
    m_scene = new FabricScene(this);
    m_view = new FabricView(this);
    m_view->setObjectName(QStringLiteral("fabricView"));
    m_view->setFabricScene(m_scene);
    m_scene->setDocument(m_document);
    setCentralWidget(m_view);
    m_map = new MapOverlays(m_scene, this);
    m_docks = createDeskDocks(this, m_document, m_map);
    m_toolBar = new MapToolBar(m_map, this);
    addToolBar(m_toolBar);

    m_files = new FileMenu(this, m_document);
    connect(m_files, &FileMenu::statusMessage, statusBar(), &QStatusBar::showMessage);
    connect(m_files, &FileMenu::lftDumpOpened, this, [this] { setShownRouting(ShownRouting::Current); });
    createActions();
    // A fabric served on its SM host: discovered, planned and committed through the service.
    m_services = new remote::ServiceConnections(this, m_document->session(), [this] {
        return m_fabricMenu->startDiscovery(QString(), 0, false);
    });
    m_files->addConnectionActions({m_services->connectAction(), m_services->disconnectAction()});
    connect(m_services, &remote::ServiceConnections::statusMessage, statusBar(), &QStatusBar::showMessage);
    wirePanels();
    wireSession();
    connect(m_document, &FabricDocument::changed, this, &MainWindow::documentChanged);
    connect(m_scene, &FabricScene::fabricShown, this, &MainWindow::sceneShown);
    connect(m_document->undoStack(), &QUndoStack::cleanChanged, this, [this](bool clean) { setWindowModified(!clean); });

    m_countsLabel = new QLabel(this);
    m_zoomLabel = new QLabel(this);
    statusBar()->addPermanentWidget(m_services->switcher());
    statusBar()->addPermanentWidget(m_countsLabel);
    statusBar()->addPermanentWidget(m_zoomLabel);
    connect(m_view, &FabricView::zoomChanged, this,
            [this](double zoom) { m_zoomLabel->setText(tr("Zoom %1 %").arg(QLocale().toString(zoom * 100, 'f', zoom < 0.1 ? 1 : 0))); });

    setWindowTitle(tr("Weft"));
    readSettings();
    updateStatus();
    if (!subnet)
        statusBar()->showMessage(tr("The subnet target cannot be used: %1").arg(subnet.error().toString()), 30000);
    // A commit that a Weft (this desk, another, or the CLI) did not live to finish: said at start.
    QTimer::singleShot(0, this, &MainWindow::offerCommitRecovery);
}

MainWindow::~MainWindow() = default;

// ---- wiring -------------------------------------------------------------------------------------

void MainWindow::wirePanels()
{
    // The map's selection and the node table follow each other.
    connect(m_docks.nodes, &NodePanel::nodeChosen, this, [this](NodeIndex node) {
        m_syncingSelection = true;
        m_view->focusNode(node);
        m_syncingSelection = false;
    });
    connect(m_scene, &FabricScene::nodeSelectionChanged, this, [this](const std::vector<NodeIndex> &nodes) {
        if (!nodes.empty() && !m_syncingSelection)
            m_docks.nodes->showNode(nodes.front());
        if (nodes.size() == 2 && m_scene->routeHopsShown() > 0)
            statusBar()->showMessage(tr("Route shown both ways: %n hop(s) in all", nullptr, int(m_scene->routeHopsShown())), 8000);
        else if (nodes.size() > 1)
            statusBar()->showMessage(tr("%n nodes selected: drag the hosts onto a partition to add them", nullptr, int(nodes.size())), 8000);
    });

    // One switch's table from the Diff Review or the map; one route from the map's two hosts.
    const auto inspectSwitch = [this](Guid guid) {
        if (m_docks.lftInspector->showSwitch(guid))
            DeskDocks::raise(m_docks.lftInspectorDock);
    };
    connect(m_docks.diffReview->switchTable(), &QTableWidget::cellDoubleClicked, this, [this, inspectSwitch](int row) {
        if (const QTableWidgetItem *item = m_docks.diffReview->switchTable()->item(row, DiffReview::SwitchColumn))
            inspectSwitch(Guid(item->data(Qt::UserRole).toULongLong()));
    });
    connect(m_view, &FabricView::inspectLftRequested, this, inspectSwitch);
    connect(m_scene, &FabricScene::nodeSelectionChanged, m_docks.pathTrace, &PathTrace::setSelectedNodes);
    connect(m_docks.pathTrace, &PathTrace::traced, this,
            [this](NodeIndex from, NodeIndex to, const std::vector<PortIndex> &current, const std::vector<PortIndex> &proposed) {
                m_scene->selectNodes({from, to});
                m_map->showTracedRoutes(m_docks.pathTrace, current, proposed);
            });

    connect(m_docks.vms, &VmPanel::stateChanged, this, [this] {
        if (m_docks.vms->state() && !m_docks.vmDock->isVisible())
            DeskDocks::raise(m_docks.vmDock);
        else if (!m_docks.vms->state())
            m_docks.vmDock->hide();
    });
    const auto selectGuids = [this](const std::vector<Guid> &guids) {
        std::vector<NodeIndex> nodes;
        if (const Fabric *shown = fabric())
            for (Guid guid : guids)
                if (const NodeIndex node = shown->nodeByGuid(guid); node != kNoIndex)
                    nodes.push_back(node);
        if (nodes.empty())
            return;
        m_view->focusNode(nodes.front());  // zooms in on the first; the row's nodes are the selection
        m_scene->selectNodes(nodes);
    };
    connect(m_docks.changes, &FabricChangesPanel::nodesChosen, this, selectGuids);
    connect(m_docks.health, &HealthDock::nodesChosen, this, selectGuids);

    // Slurm's jobs on the service's fabric, as tenants; one chosen selects its hosts on the map
    // and colours the links its hosts' traffic crosses under the tables the switches hold.
    connect(m_services, &remote::ServiceConnections::jobsChanged, m_docks.partitions, &PartitionPanel::setServiceJobs);
    connect(m_docks.partitions, &PartitionPanel::jobChosen, this, [this, selectGuids](const QString &job, const std::vector<Guid> &ports) {
        if (job.isEmpty()) {
            m_map->releaseCableLoads(m_docks.partitions);
            return;
        }
        const std::shared_ptr<const Fabric> shown = m_document->fabric();
        const std::shared_ptr<const ForwardingTables> tables = m_document->session()->currentTables();
        if (!shown)
            return;
        std::vector<Guid> nodes;
        for (Guid port : ports)
            if (const PortIndex p = shown->portByGuid(port); p != kNoIndex)
                nodes.push_back(shown->node(shown->port(p).node).guid);
        selectGuids(nodes);
        // Said after the selection's own hint: a job's hosts are not dragged onto partitions.
        statusBar()->showMessage(tr("Slurm job %1: %n host(s) selected; its partition follows the job", nullptr, int(nodes.size())).arg(job), 8000);
        // The tables are the session's, of the fabric it discovered: the loads are of the picture
        // only when that is the fabric shown.
        if (!tables || shown != m_document->session()->fabric()) {
            statusBar()->showMessage(tr("Slurm job %1: no tables of the fabric shown, so no load of its links").arg(job), 8000);
            return;
        }
        QtConcurrent::run([shown, tables, ports] { return jobLinkLoads(*shown, *tables, ports); })
            .then(this, [this, job, shown](std::vector<double> loads) {
                if (m_docks.partitions->chosenJob() == job && m_document->fabric() == shown)
                    m_map->showCableLoads(m_docks.partitions, std::move(loads));
            });
    });

    // What-if events from the map's context menu: the studio plans the candidates at once.
    const auto planWhatIf = [this] {
        DeskDocks::raise(m_docks.studioDock);
        m_docks.studio->plan();
    };
    connect(m_view, &FabricView::failLinkRequested, this, [this, planWhatIf](Guid node, int port) {
        m_docks.studio->addFailedLink(node, port);
        planWhatIf();
    });
    connect(m_view, &FabricView::failSwitchRequested, this, [this, planWhatIf](Guid node) {
        m_docks.studio->addFailedSwitch(node);
        planWhatIf();
    });
    connect(m_view, &FabricView::removeHostRequested, this, [this, planWhatIf](Guid node) {
        m_docks.studio->addRemovedHost(node);
        planWhatIf();
    });
    // A proposal made anywhere is reviewed in the one Diff Review.
    // ... and opens large: on a laptop's screen the review needs more than its share below the map.
    const auto review = [this] {
        DeskDocks::raise(m_docks.diffDock);
        resizeDocks({m_docks.diffDock}, {height() * 11 / 20}, Qt::Vertical);
    };
    connect(m_docks.studio, &ReconfigurationStudio::reviewed, this, review);
    connect(m_docks.routingKeys, &RoutingKeysPanel::reviewed, this, review);
    connect(m_docks.autopilot, &AutopilotDock::changeProposed, this, review);
    // Drain and Undrain in the same menus: planned for the same review; the map marks what is drained.
    auto *drains = new DrainPlanner(m_document, this);
    drains->connectMap(m_view, m_map);
    connect(drains, &DrainPlanner::planned, this, review);
    connect(drains, &DrainPlanner::failed, this, [this](const QString &why) { statusBar()->showMessage(why, 20000); });
    connect(m_docks.diffReview, &DiffReview::unfinishedCommitFound, this, &MainWindow::offerCommitRecovery);
    connect(m_docks.subnetManagers, &SubnetManagersPanel::editTargetRequested, m_docks.diffReview, &DiffReview::editCommitTarget);
}

void MainWindow::wireSession()
{
    FabricSession *session = m_document->session();
    TelemetrySampler *sampler = session->sampler();
    // The one wiring of the measured rates: the map and the Telemetry dock (the autopilot takes
    // them inside the session).
    connect(sampler, &TelemetrySampler::sampled, this, [this, sampler] {
        m_map->setMeasuredTelemetry(sampler->latest());
        m_docks.telemetry->showRecords(sampler->latest());
    });
    connect(sampler, &TelemetrySampler::failed, this, [this](const QString &error) {
        statusBar()->showMessage(tr("Port counters: %1").arg(error), 15000);
    });
    connect(session, &FabricSession::commitFinished, this, [this](const CommitReport &report) {
        statusBar()->showMessage(tr("Commit: %1").arg(commitOutcomeName(report.outcome)), 15000);
    });
    // An SM the target does not name, or a subnet with two masters or none, is brought to the
    // operator's eyes wherever the check came from (a discovery, a commit, Refresh).
    connect(session, &FabricSession::subnetChecked, this, [this] {
        const QString warning = m_docks.subnetManagers->bannerText();
        if (warning.isEmpty())
            return;
        DeskDocks::raise(m_docks.subnetManagersDock);
        statusBar()->showMessage(tr("Subnet managers: %1").arg(warning.section(QLatin1Char('\n'), 0, 0)), 15000);
    });
}

void MainWindow::documentChanged(DocumentChanges what)
{
    if (what & DocumentChange::Fabric) {
        setWindowTitle(tr("%1[*] — Weft").arg(m_document->title()));
        updateStatus();
        if (m_scene->isLayoutPending()) {
            m_layoutMessage = tr("Laying out the fabric (%1 nodes)…").arg(QLocale().toString(qulonglong(fabric()->nodes().size())));
            statusBar()->showMessage(m_layoutMessage);
        }
    }
    if (m_ebbBottlenecksAction->isChecked() && (what & (DocumentChanges(DocumentChange::Proposal) | DocumentChange::CurrentTables)))
        showEbbBottlenecks();
    if (!(what & DocumentChange::Proposal))
        return;
    const bool proposed = m_document->session()->proposal() != nullptr;
    m_toolBar->setProposalAvailable(proposed);
    if (!proposed || shownRouting() == ShownRouting::Proposed) {
        if (!proposed)
            setShownRouting(ShownRouting::Current);
        return;
    }
    // A new proposal: show it, coloured by load.
    setShownRouting(ShownRouting::Proposed);
    if (m_map->linkColouring() == LinkColouring::Plain)
        setLinkColouring(LinkColouring::Load);
}

void MainWindow::showEbbBottlenecks()
{
    if (!m_ebbBottlenecksAction->isChecked()) {
        m_map->release(m_ebbBottlenecksAction);
        return;
    }
    const std::shared_ptr<const PreviewResult> proposal = m_document->session()->proposal();
    const EbbResult *ebb = nullptr;
    if (proposal && proposal->proposed.ebb)
        ebb = &*proposal->proposed.ebb;
    else if (proposal && proposal->current && proposal->current->ebb)
        ebb = &*proposal->current->ebb;
    const std::vector<EbbBottleneck> top = ebb ? topEbbBottlenecks(*ebb) : std::vector<EbbBottleneck>{};
    m_map->showEbbBottlenecks(m_ebbBottlenecksAction, top);
    if (!ebb)
        statusBar()->showMessage(tr("No eBB results to show: run the Routing Preview with eBB on"), 8000);
    else if (top.empty())
        statusBar()->showMessage(tr("No link limits any stream in the eBB samples"), 8000);
}

// ---- menus --------------------------------------------------------------------------------------

void MainWindow::createActions()
{
    QMenu *editMenu = menuBar()->addMenu(tr("&Edit"));
    QAction *undo = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    undo->setObjectName(QStringLiteral("undoAction"));
    QAction *redo = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    redo->setObjectName(QStringLiteral("redoAction"));
    editMenu->addAction(undo);
    editMenu->addAction(redo);
    editMenu->addSeparator();
    QAction *find = editMenu->addAction(tr("&Find Node…"), this, [this] {
        m_toolBar->findBox()->setFocus();
        m_toolBar->findBox()->selectAll();
    });
    find->setShortcut(QKeySequence::Find);
    connect(m_toolBar, &MapToolBar::findRequested, this, [this](const QString &text) {
        if (!m_view->findAndFocus(text))
            statusBar()->showMessage(tr("No node matches \"%1\"").arg(text), 5000);
    });

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    QAction *fit = m_viewMenu->addAction(tr("&Fit to Window"), m_view, &FabricView::fitToWindow);
    fit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    QAction *zoomIn = m_viewMenu->addAction(tr("Zoom &In"), m_view, &FabricView::zoomIn);
    zoomIn->setShortcuts({QKeySequence::ZoomIn, QKeySequence(Qt::CTRL | Qt::Key_Equal)});
    QAction *zoomOut = m_viewMenu->addAction(tr("Zoom &Out"), m_view, &FabricView::zoomOut);
    zoomOut->setShortcut(QKeySequence::ZoomOut);
    QAction *hottest = m_viewMenu->addAction(tr("Go to &Hottest Bundle"), this, [this] {
        if (!m_view->goToHottestBundle())
            statusBar()->showMessage(tr("No bundle to go to: zoom a big fabric out, with cables coloured by load"), 5000);
    });
    hottest->setObjectName(QStringLiteral("hottestBundleAction"));
    // eBB bottlenecks of the proposal (or of the current tables), kept up as the proposal changes.
    m_ebbBottlenecksAction = m_viewMenu->addAction(tr("Show &eBB Bottlenecks"));
    m_ebbBottlenecksAction->setObjectName(QStringLiteral("ebbBottlenecksAction"));
    m_ebbBottlenecksAction->setCheckable(true);
    m_ebbBottlenecksAction->setStatusTip(tr("Highlight the links that limit the most streams in the eBB samples, with the share they limit"));
    connect(m_ebbBottlenecksAction, &QAction::toggled, this, &MainWindow::showEbbBottlenecks);
    m_viewMenu->addSeparator();
    for (QDockWidget *dock : findChildren<QDockWidget *>())
        m_viewMenu->addAction(dock->toggleViewAction());
    m_viewMenu->addSeparator();
    createLanguageMenu(m_viewMenu->addMenu(tr("&Language")));

    m_fabricMenu = new FabricMenu(this, m_document, m_docks, m_toolBar, m_files);
    connect(m_fabricMenu, &FabricMenu::statusMessage, statusBar(), &QStatusBar::showMessage);
    connect(m_fabricMenu, &FabricMenu::discoveryFinished, this, &MainWindow::discoveryFinished);

    QMenu *helpMenu = menuBar()->addMenu(tr("&Help"));
    QAction *about = helpMenu->addAction(tr("&About Weft"), this, &MainWindow::showAbout);
    about->setMenuRole(QAction::AboutRole);
    QAction *aboutQt = helpMenu->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
    aboutQt->setMenuRole(QAction::AboutQtRole);
}

// The interface language: the system locale unless one is chosen here (QSettings "language",
// read at start-up by main.cpp, like `--lang`). Qt cannot retranslate every widget in place, so
// the choice applies from the next start.
void MainWindow::createLanguageMenu(QMenu *menu)
{
    auto *group = new QActionGroup(menu);
    const QString current = QSettings().value(QStringLiteral("language")).toString();
    const std::pair<QString, QString> choices[] = {
        {QString(), tr("System Language")},
        {QStringLiteral("en"), QStringLiteral("English")},
        {QStringLiteral("nb"), QStringLiteral("Norsk bokmål")},
    };
    for (const auto &[code, label] : choices) {
        QAction *action = menu->addAction(label);
        action->setCheckable(true);
        action->setChecked(code == current);
        action->setData(code);
        group->addAction(action);
        connect(action, &QAction::triggered, this, [this, code = code] {
            QSettings settings;
            if (settings.value(QStringLiteral("language")).toString() == code)
                return;
            if (code.isEmpty())
                settings.remove(QStringLiteral("language"));
            else
                settings.setValue(QStringLiteral("language"), code);
            statusBar()->showMessage(tr("The new language applies when Weft is started again."), 8000);
        });
    }
}

// ---- what the map shows -------------------------------------------------------------------------

void MainWindow::setLinkColouring(LinkColouring colouring)
{
    m_toolBar->setLinkColouring(colouring);
}

void MainWindow::setHostColouring(HostColouring colouring)
{
    m_toolBar->setHostColouring(colouring);
}

MainWindow::ShownRouting MainWindow::shownRouting() const
{
    return m_toolBar->shownRouting();
}

void MainWindow::setShownRouting(ShownRouting routing)
{
    if (routing == ShownRouting::Proposed && !m_document->session()->proposal())
        routing = ShownRouting::Current;
    m_toolBar->setShownRouting(routing);
}

void MainWindow::sceneShown()
{
    m_view->fitToWindow();
    if (!m_layoutMessage.isEmpty() && statusBar()->currentMessage() == m_layoutMessage)
        statusBar()->clearMessage();
    m_layoutMessage.clear();
    Q_EMIT sceneReady();
}

bool MainWindow::isSceneReady() const
{
    return !m_scene->isLayoutPending();
}

const Fabric *MainWindow::fabric() const
{
    return m_document->fabric().get();
}

const Tenancy &MainWindow::tenancy() const
{
    return m_document->tenancy();
}

const ForwardingTables *MainWindow::currentTables() const
{
    return m_document->session()->currentTables().get();
}

const FabricSummary &MainWindow::summary() const
{
    return m_docks.summary->summary();
}

NodeTableModel *MainWindow::nodeModel() const
{
    return m_docks.nodes->model();
}

NodeFilterProxyModel *MainWindow::nodeProxy() const
{
    return m_docks.nodes->proxy();
}

void MainWindow::updateStatus()
{
    if (!m_document->fabric()) {
        m_countsLabel->setText(tr("No fabric"));
        return;
    }
    const QLocale locale;
    const FabricSummary &s = summary();
    m_countsLabel->setText(tr("Switches: %1 · Hosts: %2 · Cables: %3")
                               .arg(locale.toString(qulonglong(s.switches)), locale.toString(qulonglong(s.channelAdapters)),
                                    locale.toString(qulonglong(s.links))));
}

// ---- files --------------------------------------------------------------------------------------

// ---- files, discovery: the menus' ---------------------------------------------------------------

void MainWindow::showFabric(Fabric fabric, Tenancy tenancy, const QString &title)
{
    m_files->showFabric(std::move(fabric), std::move(tenancy), title);
}

bool MainWindow::openTopologyFile(const QString &path, QString *error)
{
    return m_files->openTopologyFile(path, error);
}

bool MainWindow::loadDemoFabric(QString *error)
{
    return m_files->loadDemoFabric(error);
}

void MainWindow::openDemoFabric()
{
    m_files->openDemoFabric();
}

bool MainWindow::openLftDump(const QString &path, QString *error)
{
    return m_files->openLftDump(path, error);
}

bool MainWindow::openProject(const QString &path, QString *error)
{
    return m_files->openProject(path, error);
}

bool MainWindow::saveProject(const QString &path, QString *error)
{
    return m_files->saveProject(path, error);
}

bool MainWindow::startDiscovery(const QString &caName, int caPort, bool rediscover)
{
    return m_fabricMenu->startDiscovery(caName, caPort, rediscover);
}

bool MainWindow::isDiscovering() const
{
    return m_fabricMenu->isDiscovering();
}

CommitRecoveryDialog *MainWindow::offerCommitRecovery()
{
    return m_fabricMenu->offerCommitRecovery();
}

QAction *MainWindow::discoverAction() const
{
    return m_fabricMenu->discoverAction();
}

QAction *MainWindow::rediscoverAction() const
{
    return m_fabricMenu->rediscoverAction();
}

QAction *MainWindow::telemetryAction() const
{
    return m_fabricMenu->telemetryAction();
}

TelemetrySampler *MainWindow::telemetrySampler() const
{
    return m_document->session()->sampler();
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About Weft"),
                       tr("<h3>Weft %1</h3>"
                          "<p>A fabric manager for InfiniBand: topology, partitions and routing, "
                          "previewed before they reach the subnet manager.</p>")
                           .arg(QCoreApplication::applicationVersion()));
}

// ---- settings -----------------------------------------------------------------------------------

void MainWindow::readSettings()
{
    QSettings settings;
    if (!restoreGeometry(settings.value(kGeometryKey).toByteArray())) {
        // The first start: most of the screen, and never more than it. The layout first takes
        // the docks as they are now arranged (in tabs): while they were being added side by side
        // it had set a minimum wider than a laptop's screen (1,434 px in Norwegian), which would
        // otherwise hold the window at that width.
        if (layout())
            layout()->activate();
        const QRect available = screen() ? screen()->availableGeometry() : QRect(0, 0, 1400, 900);
        resize(std::min(1400, available.width()), std::min(900, available.height()));
    }
    restoreState(settings.value(kStateKey).toByteArray());
}

void MainWindow::writeSettings() const
{
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kStateKey, saveState());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!m_files->maySetEditsAside(tr("Weft is closing."))) {
        event->ignore();
        return;
    }
    writeSettings();
    event->accept();
}

}  // namespace weft
