#include "MainWindow.h"

#include "CommitJournalDialog.h"

#include "DemoFabric.h"
#include "AutopilotDock.h"
#include "DiffReview.h"
#include "DiscoveryDialog.h"
#include "FabricChangesPanel.h"
#include "HeldState.h"
#include "LiveDiscovery.h"
#include "FabricDocument.h"
#include "LftDump.h"
#include "PartitionsConf.h"
#include "PortsMime.h"
#include "PartitionPanel.h"
#include "OpenSmPanel.h"
#include "RoutingKeysPanel.h"
#include "PolicyEditor.h"
#include "ReconfigurationStudio.h"
#include "RoutingPreview.h"
#include "LftInspector.h"
#include "PathTrace.h"
#include "RoutingSession.h"
#include "WeightTable.h"
#include "FabricLayout.h"
#include "FabricScene.h"
#include "FabricView.h"
#include "NodeFilterProxyModel.h"
#include "NodeTableModel.h"
#include "TopologyFile.h"
#include "LiveFabric.h"
#include "TelemetryDock.h"
#include "TelemetryHistory.h"
#include "TelemetrySampler.h"
#include "VmPanel.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QDragEnterEvent>
#include <QMimeData>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>
#include <QUndoView>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QDir>
#include <QMessageBox>
#include <QProgressDialog>
#include <QSettings>
#include <QStatusBar>
#include <QTableView>
#include <QTableWidget>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QStandardItemModel>
#include <QInputDialog>
#include <QStandardPaths>

namespace weft {

namespace {

constexpr int kMaxRecentFiles = 8;

const QString kRecentFilesKey = QStringLiteral("recentFiles");
const QString kLastDirectoryKey = QStringLiteral("lastDirectory");
const QString kGeometryKey = QStringLiteral("mainWindow/geometry");
const QString kStateKey = QStringLiteral("mainWindow/state");
const QString kLinkColouringKey = QStringLiteral("view/linkColouring");
const QString kHostColouringKey = QStringLiteral("view/hostColouring");
const QString kProjectSuffix = QStringLiteral("weft");



// Summary rows carry a key that does not depend on the language, for code that looks them up.
constexpr int kSummaryKeyRole = Qt::UserRole;

QTreeWidgetItem *addSummaryRow(QTreeWidget *tree, QTreeWidgetItem *parent, const QString &key,
                               const QString &label, const QString &value)
{
    auto *item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(tree);
    item->setText(0, label);
    item->setText(1, value);
    item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
    item->setData(0, kSummaryKeyRole, key);
    return item;
}

}  // namespace

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent)
{
    setObjectName(QStringLiteral("MainWindow"));
    m_document = new FabricDocument(this);
    m_scene = new FabricScene(this);
    m_view = new FabricView(this);
    m_view->setObjectName(QStringLiteral("fabricView"));
    m_view->setFabricScene(m_scene);
    m_scene->setDocument(m_document);
    setCentralWidget(m_view);

    createDocks();
    createActions();
    createViewToolBar();
    connect(m_document, &FabricDocument::changed, this, &MainWindow::documentChanged);
    connect(m_scene, &FabricScene::fabricShown, this, &MainWindow::sceneShown);
    connect(m_document->undoStack(), &QUndoStack::cleanChanged, this, [this](bool clean) { setWindowModified(!clean); });

    m_countsLabel = new QLabel(this);
    m_zoomLabel = new QLabel(this);
    statusBar()->addPermanentWidget(m_countsLabel);
    statusBar()->addPermanentWidget(m_zoomLabel);
    connect(m_view, &FabricView::zoomChanged, this,
            [this](double zoom) { m_zoomLabel->setText(tr("Zoom %1 %").arg(QLocale().toString(zoom * 100, 'f', zoom < 0.1 ? 1 : 0))); });

    connect(m_scene, &FabricScene::nodeSelectionChanged, this, [this](const std::vector<NodeIndex> &nodes) {
        if (!nodes.empty())
            selectTableRow(nodes.front());
        if (nodes.size() == 2 && m_scene->routeHopsShown() > 0)
            statusBar()->showMessage(tr("Route shown both ways: %n hop(s) in all", nullptr, int(m_scene->routeHopsShown())), 8000);
        else if (nodes.size() > 1)
            statusBar()->showMessage(tr("%n nodes selected: drag the hosts onto a partition to add them", nullptr, int(nodes.size())), 8000);
    });

    setWindowTitle(tr("Weft"));
    readSettings();
    updateStatus();
    // A commit that a Weft (this desk, another, or the CLI) did not live to finish: said at start.
    QTimer::singleShot(0, this, &MainWindow::offerCommitRecovery);
}

MainWindow::~MainWindow() = default;

void MainWindow::createDocks()
{
    setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);

    // Nodes: the filter line and the table.
    auto *nodesPanel = new QWidget(this);
    auto *nodesLayout = new QVBoxLayout(nodesPanel);
    nodesLayout->setContentsMargins(4, 4, 4, 4);
    nodesLayout->setSpacing(4);
    m_nodeFilter = new QLineEdit(nodesPanel);
    m_nodeFilter->setObjectName(QStringLiteral("nodeFilter"));
    m_nodeFilter->setPlaceholderText(tr("Find a node by name, GUID or LID (\"lid 17\")"));
    m_nodeFilter->setClearButtonEnabled(true);
    m_nodeModel = new NodeTableModel(this);
    m_nodeProxy = new NodeFilterProxyModel(this);
    m_nodeProxy->setSourceModel(m_nodeModel);
    connect(m_nodeFilter, &QLineEdit::textChanged, m_nodeProxy, &NodeFilterProxyModel::setSearchText);
    m_nodeTable = new QTableView(nodesPanel);
    m_nodeTable->setObjectName(QStringLiteral("nodeTable"));
    m_nodeTable->setModel(m_nodeProxy);
    m_nodeTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_nodeTable->setSelectionMode(QAbstractItemView::SingleSelection);
    m_nodeTable->setAlternatingRowColors(true);
    m_nodeTable->setWordWrap(false);
    m_nodeTable->verticalHeader()->hide();
    // Fixed row heights let the view skip measuring thirteen thousand rows.
    m_nodeTable->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_nodeTable->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    QHeaderView *header = m_nodeTable->horizontalHeader();
    header->setSortIndicator(-1, Qt::AscendingOrder);  // discovery order until a column is clicked
    m_nodeTable->setSortingEnabled(true);
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setSectionResizeMode(NodeTableModel::DescriptionColumn, QHeaderView::Stretch);
    const int digit = fontMetrics().horizontalAdvance(QLatin1Char('0'));
    header->resizeSection(NodeTableModel::TypeColumn, digit * 9);
    header->resizeSection(NodeTableModel::GuidColumn, digit * 21);
    header->resizeSection(NodeTableModel::LidColumn, digit * 7);
    header->resizeSection(NodeTableModel::PortsColumn, digit * 6);
    header->resizeSection(NodeTableModel::TierColumn, digit * 6);
    connect(m_nodeTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (m_syncingSelection || !current.isValid())
                    return;
                const NodeIndex node = m_nodeModel->nodeAt(m_nodeProxy->mapToSource(current));
                m_syncingSelection = true;
                m_view->focusNode(node);
                m_syncingSelection = false;
            });
    nodesLayout->addWidget(m_nodeFilter);
    nodesLayout->addWidget(m_nodeTable);

    auto *nodesDock = new QDockWidget(tr("Nodes"), this);
    nodesDock->setObjectName(QStringLiteral("nodesDock"));
    nodesDock->setWidget(nodesPanel);
    addDockWidget(Qt::BottomDockWidgetArea, nodesDock);

    m_summaryTree = new QTreeWidget(this);
    m_summaryTree->setObjectName(QStringLiteral("summaryTree"));
    m_summaryTree->setColumnCount(2);
    m_summaryTree->setHeaderLabels({tr("Fabric"), tr("Count")});
    m_summaryTree->setRootIsDecorated(true);
    m_summaryTree->setUniformRowHeights(true);
    m_summaryTree->header()->setStretchLastSection(false);
    m_summaryTree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_summaryTree->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    auto *summaryDock = new QDockWidget(tr("Summary"), this);
    summaryDock->setObjectName(QStringLiteral("summaryDock"));
    summaryDock->setWidget(m_summaryTree);
    addDockWidget(Qt::RightDockWidgetArea, summaryDock);

    m_partitionPanel = new PartitionPanel(m_document, this);
    m_partitionPanel->setObjectName(QStringLiteral("partitionPanel"));
    auto *partitionsDock = new QDockWidget(tr("Partitions"), this);
    partitionsDock->setObjectName(QStringLiteral("partitionsDock"));
    partitionsDock->setWidget(m_partitionPanel);
    addDockWidget(Qt::RightDockWidgetArea, partitionsDock);

    m_policyEditor = new PolicyEditor(m_document, this);
    auto *policyDock = new QDockWidget(tr("Policies"), this);
    policyDock->setObjectName(QStringLiteral("policyDock"));
    policyDock->setWidget(m_policyEditor);
    addDockWidget(Qt::RightDockWidgetArea, policyDock);
    m_weightTable = new WeightTable(m_document, this);
    auto *weightDock = new QDockWidget(tr("Node Weights"), this);
    weightDock->setObjectName(QStringLiteral("weightDock"));
    weightDock->setWidget(m_weightTable);
    addDockWidget(Qt::RightDockWidgetArea, weightDock);

    m_undoView = new QUndoView(m_document->undoStack(), this);
    m_undoView->setObjectName(QStringLiteral("undoView"));
    m_undoView->setEmptyLabel(tr("Fabric as opened"));
    auto *historyDock = new QDockWidget(tr("History"), this);
    historyDock->setObjectName(QStringLiteral("historyDock"));
    historyDock->setWidget(m_undoView);
    addDockWidget(Qt::RightDockWidgetArea, historyDock);
    tabifyDockWidget(summaryDock, historyDock);
    summaryDock->raise();

    m_preview = new RoutingPreview(m_document, this);
    m_previewDock = new QDockWidget(tr("Routing Preview"), this);
    m_previewDock->setObjectName(QStringLiteral("previewDock"));
    m_previewDock->setWidget(m_preview);
    addDockWidget(Qt::RightDockWidgetArea, m_previewDock);
    tabifyDockWidget(partitionsDock, m_previewDock);
    tabifyDockWidget(summaryDock, policyDock);
    tabifyDockWidget(summaryDock, weightDock);
    summaryDock->raise();
    partitionsDock->raise();

    m_diffReview = new DiffReview(this);
    m_diffReview->setDocument(m_document);
    m_diffDock = new QDockWidget(tr("Diff Review"), this);
    m_diffDock->setObjectName(QStringLiteral("diffDock"));
    m_diffDock->setWidget(m_diffReview);
    addDockWidget(Qt::BottomDockWidgetArea, m_diffDock);
    tabifyDockWidget(nodesDock, m_diffDock);
    nodesDock->raise();
    connect(m_diffReview, &DiffReview::unfinishedCommitFound, this, &MainWindow::offerCommitRecovery);
    connect(m_diffReview, &DiffReview::commitFinished, this, [this](const CommitReport &report) {
        statusBar()->showMessage(tr("Commit: %1").arg(commitOutcomeName(report.outcome)), 15000);
    });

    m_changesPanel = new FabricChangesPanel(m_document, this);
    m_changesDock = new QDockWidget(tr("Fabric Changes"), this);
    m_changesDock->setObjectName(QStringLiteral("fabricChangesDock"));
    m_changesDock->setWidget(m_changesPanel);
    addDockWidget(Qt::BottomDockWidgetArea, m_changesDock);
    tabifyDockWidget(nodesDock, m_changesDock);
    nodesDock->raise();

    // The LFT inspector and Trace path: one switch's table and one route, current beside
    // proposed. A switch comes from the Diff Review (double-click) or the map (Inspect LFT); a
    // route from the map's two selected hosts or the panel's boxes.
    m_lftInspector = new LftInspector(this);
    m_lftInspector->setObjectName(QStringLiteral("lftInspectorPanel"));
    m_lftInspector->setDocument(m_document);
    m_lftInspectorDock = new QDockWidget(tr("LFT Inspector"), this);
    m_lftInspectorDock->setObjectName(QStringLiteral("lftInspector"));
    m_lftInspectorDock->setWidget(m_lftInspector);
    addDockWidget(Qt::BottomDockWidgetArea, m_lftInspectorDock);
    tabifyDockWidget(nodesDock, m_lftInspectorDock);
    m_pathTrace = new PathTrace(this);
    m_pathTrace->setObjectName(QStringLiteral("pathTrace"));
    m_pathTrace->setDocument(m_document);
    m_pathTraceDock = new QDockWidget(tr("Trace Path"), this);
    m_pathTraceDock->setObjectName(QStringLiteral("pathTraceDock"));
    m_pathTraceDock->setWidget(m_pathTrace);
    addDockWidget(Qt::BottomDockWidgetArea, m_pathTraceDock);
    tabifyDockWidget(nodesDock, m_pathTraceDock);
    nodesDock->raise();
    const auto inspectSwitch = [this](Guid guid) {
        if (m_lftInspector->showSwitch(guid)) {
            m_lftInspectorDock->show();
            m_lftInspectorDock->raise();
        }
    };
    connect(m_diffReview->switchTable(), &QTableWidget::cellDoubleClicked, this, [this, inspectSwitch](int row) {
        if (const QTableWidgetItem *item = m_diffReview->switchTable()->item(row, DiffReview::SwitchColumn))
            inspectSwitch(Guid(item->data(Qt::UserRole).toULongLong()));
    });
    connect(m_view, &FabricView::inspectLftRequested, this, inspectSwitch);
    connect(m_scene, &FabricScene::nodeSelectionChanged, m_pathTrace, &PathTrace::setSelectedNodes);
    connect(m_pathTrace, &PathTrace::traced, this,
            [this](NodeIndex from, NodeIndex to, const std::vector<PortIndex> &current, const std::vector<PortIndex> &proposed) {
                m_scene->selectNodes({from, to});
                m_scene->showTracedRoutes(current, proposed);
            });

    m_sampler = new TelemetrySampler(this);
    m_telemetryDock = new TelemetryDock(this);
    m_telemetryDock->setScene(m_scene);
    m_telemetryDock->setDocument(m_document);
    m_telemetryDockWidget = new QDockWidget(tr("Telemetry"), this);
    m_telemetryDockWidget->setObjectName(QStringLiteral("telemetryDock"));
    m_telemetryDockWidget->setWidget(m_telemetryDock);
    addDockWidget(Qt::RightDockWidgetArea, m_telemetryDockWidget);
    tabifyDockWidget(m_previewDock, m_telemetryDockWidget);
    m_telemetryDockWidget->hide();

    // vSwitch fabrics: hypervisors, VMs, the LID space and VM migration on a what-if copy.
    m_vmPanel = new VmPanel(m_document, this);
    m_vmPanel->setObjectName(QStringLiteral("vmPanel"));
    m_vmPanel->setScene(m_scene);
    m_vmDock = new QDockWidget(tr("Virtual Machines"), this);
    m_vmDock->setObjectName(QStringLiteral("vmDock"));
    m_vmDock->setWidget(m_vmPanel);
    addDockWidget(Qt::RightDockWidgetArea, m_vmDock);
    tabifyDockWidget(m_previewDock, m_vmDock);
    m_vmDock->setVisible(m_vmPanel->state() != nullptr);
    connect(m_vmPanel, &VmPanel::stateChanged, this, [this] {
        const bool virtualised = m_vmPanel->state() != nullptr;
        if (virtualised && !m_vmDock->isVisible()) {
            m_vmDock->show();
            m_vmDock->raise();
        } else if (!virtualised) {
            m_vmDock->hide();
        }
    });
    connect(m_sampler, &TelemetrySampler::sampled, this, [this] {
        m_scene->setMeasuredTelemetry(m_sampler->latest());
        m_telemetryDock->showRecords(m_sampler->latest());
    });
    connect(m_sampler, &TelemetrySampler::failed, this, [this](const QString &error) {
        statusBar()->showMessage(tr("Port counters: %1").arg(error), 15000);
    });
    connect(m_sampler, &TelemetrySampler::runningChanged, this, [this](bool running) {
        if (m_telemetryAction)
            m_telemetryAction->setChecked(running);
    });
    connect(m_changesPanel, &FabricChangesPanel::nodesChosen, this, [this](const std::vector<Guid> &guids) {
        const Fabric *shown = fabric();
        if (!shown)
            return;
        std::vector<NodeIndex> nodes;
        for (Guid guid : guids)
            if (const NodeIndex node = shown->nodeByGuid(guid); node != kNoIndex)
                nodes.push_back(node);
        if (nodes.empty())
            return;
        m_view->focusNode(nodes.front());  // zooms in on the first; the row's nodes are the selection
        m_scene->selectNodes(nodes);
    });

    // The reconfiguration studio: what-if events from the map's context menu, candidates side
    // by side, the one chosen reviewed in the Diff Review.
    m_studio = new ReconfigurationStudio(m_document, this);
    m_studio->setScene(m_scene);
    m_studioDock = new QDockWidget(tr("Reconfiguration Studio"), this);
    m_studioDock->setObjectName(QStringLiteral("reconfigurationStudio"));
    m_studioDock->setWidget(m_studio);
    addDockWidget(Qt::RightDockWidgetArea, m_studioDock);
    tabifyDockWidget(m_previewDock, m_studioDock);
    partitionsDock->raise();
    const auto planWhatIf = [this] {
        m_studioDock->show();
        m_studioDock->raise();
        m_studio->plan();
    };
    connect(m_view, &FabricView::failLinkRequested, this, [this, planWhatIf](Guid node, int port) {
        m_studio->addFailedLink(node, port);
        planWhatIf();
    });
    connect(m_view, &FabricView::failSwitchRequested, this, [this, planWhatIf](Guid node) {
        m_studio->addFailedSwitch(node);
        planWhatIf();
    });
    connect(m_view, &FabricView::removeHostRequested, this, [this, planWhatIf](Guid node) {
        m_studio->addRemovedHost(node);
        planWhatIf();
    });
    connect(m_studio, &ReconfigurationStudio::finished, this, [this](bool ok) {
        if (ok)  // the candidates' load is what the map shows next
            setLinkColouring(LinkColouring::Load);
    });
    connect(m_studio, &ReconfigurationStudio::reviewed, this, [this] {
        m_diffDock->show();
        m_diffDock->raise();
    });

    // The commit target's OpenSM: its options and what would defeat a file-based commit.
    m_openSmPanel = new OpenSmPanel(this);
    m_openSmDock = new QDockWidget(tr("OpenSM"), this);
    m_openSmDock->setObjectName(QStringLiteral("openSmPanel"));
    m_openSmDock->setWidget(m_openSmPanel);
    addDockWidget(Qt::BottomDockWidgetArea, m_openSmDock);
    tabifyDockWidget(nodesDock, m_openSmDock);
    nodesDock->raise();

    // Routing keys for a job on the hosts selected on the map; Review feeds the Diff Review.
    m_routingKeysPanel = new RoutingKeysPanel(m_document, this);
    m_routingKeysPanel->setScene(m_scene);
    m_routingKeysDock = new QDockWidget(tr("Routing Keys"), this);
    m_routingKeysDock->setObjectName(QStringLiteral("routingKeysDock"));
    m_routingKeysDock->setWidget(m_routingKeysPanel);
    addDockWidget(Qt::RightDockWidgetArea, m_routingKeysDock);
    tabifyDockWidget(m_previewDock, m_routingKeysDock);
    m_routingKeysDock->hide();
    partitionsDock->raise();  // the first thing to do on a fabric: decide its partitions
    connect(m_routingKeysPanel, &RoutingKeysPanel::reviewed, this, [this] {
        m_diffDock->show();
        m_diffDock->raise();
    });

    // The autopilot: rules over the sampler's ticks; its changes are shown (approve) or committed
    // (auto) through the Diff Review, and its records go into the commit target's journal.
    m_autopilot = new AutopilotDock(m_document, this);
    m_autopilot->setDiffReview(m_diffReview);
    m_autopilotDock = new QDockWidget(tr("Autopilot"), this);
    m_autopilotDock->setObjectName(QStringLiteral("autopilotDock"));
    m_autopilotDock->setWidget(m_autopilot);
    addDockWidget(Qt::RightDockWidgetArea, m_autopilotDock);
    tabifyDockWidget(m_previewDock, m_autopilotDock);
    m_autopilotDock->hide();
    partitionsDock->raise();
    connect(m_autopilot, &AutopilotDock::changeProposed, this, [this] {
        m_diffDock->show();
        m_diffDock->raise();
    });
    connect(m_sampler, &TelemetrySampler::sampled, this, [this] {
        // Rates of another fabric than the one shown name other ports: the loop never sees them.
        if (m_sampler->fabric() && m_sampler->fabric() != m_document->fabric())
            return;
        const std::vector<TelemetryRecord> &records = m_sampler->latest();
        const double time = records.empty() ? double(QDateTime::currentMSecsSinceEpoch()) / 1000 : records.front().time;
        m_autopilot->takeTick(time, records);
    });

    resizeDocks({summaryDock}, {440}, Qt::Horizontal);
    resizeDocks({nodesDock}, {240}, Qt::Vertical);
}

void MainWindow::showEbbBottlenecks()
{
    if (!m_ebbBottlenecksAction->isChecked()) {
        m_scene->setEbbBottlenecks({});
        return;
    }
    const RoutingSession *session = m_document->session();
    const std::shared_ptr<const PreviewResult> proposal = session->proposal();
    const EbbResult *ebb = nullptr;
    if (proposal && proposal->proposed.ebb)
        ebb = &*proposal->proposed.ebb;
    else if (proposal && proposal->current && proposal->current->ebb)
        ebb = &*proposal->current->ebb;
    const std::vector<EbbBottleneck> top = ebb ? topEbbBottlenecks(*ebb) : std::vector<EbbBottleneck>{};
    m_scene->setEbbBottlenecks(top);
    if (!ebb)
        statusBar()->showMessage(tr("No eBB results to show: run the Routing Preview with eBB on"), 8000);
    else if (top.empty())
        statusBar()->showMessage(tr("No link limits any stream in the eBB samples"), 8000);
}

void MainWindow::createActions()
{
    QMenu *fileMenu = menuBar()->addMenu(tr("&File"));
    QAction *open = fileMenu->addAction(tr("&Open Topology…"), this, &MainWindow::chooseTopologyFile);
    open->setShortcut(QKeySequence::Open);
    fileMenu->addAction(tr("Open &Demo Fabric"), this, &MainWindow::openDemoFabric);
    QAction *openProject = fileMenu->addAction(tr("Open &Project…"), this, &MainWindow::chooseProjectToOpen);
    openProject->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    QAction *openLfts = fileMenu->addAction(tr("Open &LFT Dump…"), this, &MainWindow::chooseLftDump);
    openLfts->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    openLfts->setStatusTip(tr("Load the forwarding tables the fabric holds now (ibroute, dump_lfts or OpenSM's dump)"));
    m_recentMenu = fileMenu->addMenu(tr("Open &Recent"));
    updateRecentFilesMenu();
    fileMenu->addSeparator();
    QAction *save = fileMenu->addAction(tr("&Save Project"), this, &MainWindow::saveCurrentProject);
    save->setShortcut(QKeySequence::Save);
    QAction *saveAs = fileMenu->addAction(tr("Save Project &As…"), this, [this] { chooseProjectToSave(); });
    saveAs->setShortcut(QKeySequence::SaveAs);
    fileMenu->addSeparator();
    QAction *quit = fileMenu->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    quit->setMenuRole(QAction::QuitRole);

    QMenu *editMenu = menuBar()->addMenu(tr("&Edit"));
    QAction *undo = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction *redo = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    editMenu->addAction(undo);
    editMenu->addAction(redo);
    editMenu->addSeparator();
    QAction *find = editMenu->addAction(tr("&Find Node…"), this, [this] {
        m_findBox->setFocus();
        m_findBox->selectAll();
    });
    find->setShortcut(QKeySequence::Find);

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
    connect(m_document, &FabricDocument::changed, this, [this](DocumentChanges what) {
        if (m_ebbBottlenecksAction->isChecked() && (what & (DocumentChanges(DocumentChange::Proposal) | DocumentChange::CurrentTables)))
            showEbbBottlenecks();
    });
    m_viewMenu->addSeparator();
    for (QDockWidget *dock : findChildren<QDockWidget *>())
        m_viewMenu->addAction(dock->toggleViewAction());
    m_viewMenu->addSeparator();
    createLanguageMenu(m_viewMenu->addMenu(tr("&Language")));

    QMenu *fabricMenu = menuBar()->addMenu(tr("F&abric"));
    m_discoverAction = fabricMenu->addAction(tr("&Discover…"), this, &MainWindow::chooseAdapterAndDiscover);
    m_discoverAction->setObjectName(QStringLiteral("discoverAction"));
    m_discoverAction->setStatusTip(tr("Read the live fabric through a local adapter: topology, forwarding tables and P_Key tables"));
    m_rediscoverAction = fabricMenu->addAction(tr("R&ediscover"), this, [this] { startDiscovery(m_liveCa, m_livePort, true); });
    m_rediscoverAction->setObjectName(QStringLiteral("rediscoverAction"));
    m_rediscoverAction->setStatusTip(tr("Discover again and show what changed since the fabric shown was discovered"));
    m_rediscoverAction->setEnabled(false);
    m_telemetryAction = fabricMenu->addAction(tr("&Sample Port Counters"));
    m_telemetryAction->setObjectName(QStringLiteral("telemetryAction"));
    m_telemetryAction->setCheckable(true);
    connect(m_telemetryAction, &QAction::triggered, this, &MainWindow::setTelemetryRunning);
    QAction *interval = fabricMenu->addAction(tr("Port Counter &Interval…"), this, [this] {
        bool ok = false;
        const double seconds = QInputDialog::getDouble(this, tr("Port Counter Interval"), tr("Seconds between readings:"),
                                                       m_sampler->interval(), 0.5, 86400, 1, &ok);
        if (!ok)
            return;
        const bool running = m_sampler->isRunning();
        m_sampler->stop();
        m_sampler->setInterval(seconds);
        if (running)
            m_sampler->start();
    });
    interval->setObjectName(QStringLiteral("telemetryIntervalAction"));
    QAction *clearCounters = fabricMenu->addAction(tr("&Clear Counters Past 75 %"));
    clearCounters->setObjectName(QStringLiteral("telemetryClearCountersAction"));
    clearCounters->setCheckable(true);
    clearCounters->setStatusTip(tr("Clear a port's 32-bit port counters once one passes 75 % of its range, as OpenSM's perfmgr does"));
    connect(clearCounters, &QAction::toggled, this, [this](bool on) {
        const bool running = m_sampler->isRunning();
        m_sampler->stop();
        m_sampler->setClearCounters(on);
        if (running)
            m_sampler->start();
    });
    updateTelemetryAction();
    fabricMenu->addSeparator();
    QAction *preview = fabricMenu->addAction(tr("&Preview Routing"), this, [this] {
        m_previewDock->show();
        m_previewDock->raise();
        m_preview->start();
    });
    preview->setShortcut(QKeySequence(Qt::Key_F5));
    QAction *review = fabricMenu->addAction(tr("&Review Changes"), this, [this] {
        m_diffDock->show();
        m_diffDock->raise();
    });
    review->setShortcut(QKeySequence(Qt::Key_F6));
    fabricMenu->addAction(tr("&Approve…"), m_diffReview, &DiffReview::approve);
    fabricMenu->addAction(tr("Commit &Target…"), m_diffReview, &DiffReview::editCommitTarget);
    fabricMenu->addSeparator();
    fabricMenu->addAction(tr("Commit &Journal…"), this, &MainWindow::showCommitJournal);
    fabricMenu->addAction(tr("&Recover Unfinished Commit…"), this, [this] {
        if (!offerCommitRecovery())
            statusBar()->showMessage(tr("No unfinished commit on the commit target."), 8000);
    });

    QMenu *helpMenu = menuBar()->addMenu(tr("&Help"));
    QAction *about = helpMenu->addAction(tr("&About Weft"), this, &MainWindow::showAbout);
    about->setMenuRole(QAction::AboutRole);
    QAction *aboutQt = helpMenu->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
    aboutQt->setMenuRole(QAction::AboutQtRole);
}

// The journal of commits made to an OpenSM: under `weft lab` the lab's own, otherwise the last
// one opened, otherwise the operator picks the weft-commits.jsonl beside OpenSM's files.
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

CommitRecoveryDialog *MainWindow::offerCommitRecovery()
{
    if (auto *open = findChild<CommitRecoveryDialog *>(); open && open->isVisible()) {
        open->raise();
        return open;
    }
    const CommitTarget target = configuredCommitTarget();
    const std::optional<CommitJournalEntry> unfinished = unfinishedCommitOn(target);
    if (!unfinished)
        return nullptr;
    auto *dialog = new CommitRecoveryDialog(target, *unfinished, {}, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &CommitRecoveryDialog::recovered, this, [this](const CommitReport &report) {
        statusBar()->showMessage(tr("Recovery: %1").arg(commitOutcomeName(report.outcome)), 15000);
    });
    dialog->show();
    return dialog;
}

void MainWindow::showCommitJournal()
{
    QSettings settings;
    const QString lab = qEnvironmentVariable("WEFT_LAB_DIR");
    // The commit target's journal holds its commits and the autopilot's records.
    const CommitTarget target = configuredCommitTarget();
    QString path = !target.lftsPath.isEmpty() ? defaultJournalPath(target.lftsPath)
        : lab.isEmpty()                       ? settings.value(QStringLiteral("journal/path")).toString()
                                              : QDir(lab).filePath(QStringLiteral("weft-commits.jsonl"));
    if (path.isEmpty() || !QFileInfo::exists(path)) {
        path = QFileDialog::getOpenFileName(this, tr("Open Commit Journal"), path,
                                            tr("Commit journals (*.jsonl);;All files (*)"));
        if (path.isEmpty())
            return;
    }
    auto *dialog = new CommitJournalDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QString error;
    if (!dialog->load(path, &error)) {
        delete dialog;
        QMessageBox::warning(this, tr("Commit Journal"), tr("Cannot read the commit journal:\n%1").arg(error));
        return;
    }
    settings.setValue(QStringLiteral("journal/path"), path);
    dialog->show();
    offerCommitRecovery();
}

void MainWindow::readSettings()
{
    QSettings settings;
    if (!restoreGeometry(settings.value(kGeometryKey).toByteArray()))
        resize(1400, 900);
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
    if (!m_document->undoStack()->isClean() && isVisible()) {
        const auto answer = QMessageBox::question(this, tr("Unsaved Changes"), tr("The partitions have unsaved changes. Save them as a project?"),
                                                  QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
        if (answer == QMessageBox::Cancel || (answer == QMessageBox::Save && !chooseProjectToSave())) {
            event->ignore();
            return;
        }
    }
    writeSettings();
    event->accept();
}

void MainWindow::showFabric(Fabric fabric, Tenancy tenancy, const QString &title)
{
    auto shared = std::make_shared<const Fabric>(std::move(fabric));
    m_projectPath.clear();
    m_summary = summarize(*shared);
    m_nodeModel->setFabric(shared, nodeTiers(*shared));
    setWindowTitle(tr("%1[*] — Weft").arg(title));
    // The scene lays the fabric out when the document announces it: at once when it is small,
    // on a worker thread otherwise (sceneShown() then follows).
    m_document->reset(shared, std::move(tenancy), title);
    fillSummary();
    updateStatus();
    if (m_scene->isLayoutPending())
        statusBar()->showMessage(tr("Laying out the fabric (%1 nodes)…").arg(QLocale().toString(qulonglong(shared->nodes().size()))));
}

void MainWindow::chooseAdapterAndDiscover()
{
    if (isDiscovering())
        return;
    auto *dialog = new DiscoveryDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const LiveOptions options = dialog->options();
        startDiscovery(options.caName, options.caPort, false);
    });
    dialog->open();
}

bool MainWindow::isDiscovering() const
{
    return m_discovery && m_discovery->isRunning();
}

bool MainWindow::startDiscovery(const QString &caName, int caPort, bool rediscover)
{
    if (isDiscovering() || (rediscover && !m_document->fabric()))
        return false;
    if (!m_discovery) {
        m_discovery = new LiveDiscovery(this);
        connect(m_discovery, &LiveDiscovery::finished, this, &MainWindow::discoveryDone);
        connect(m_discovery, &LiveDiscovery::progress, this, [this](const QString &step, int done, int total) {
            if (!m_discoveryProgress)
                return;
            m_discoveryProgress->setLabelText(step + QStringLiteral("…"));
            m_discoveryProgress->setRange(0, total);
            m_discoveryProgress->setValue(total > 0 ? done : 0);
        });
    }
    LiveOptions options;
    options.caName = caName;
    options.caPort = caPort;
    m_rediscovering = rediscover;
    m_liveCa = caName;
    m_livePort = caPort;
    m_discoverAction->setEnabled(false);
    m_rediscoverAction->setEnabled(false);
    m_discoveryProgress = new QProgressDialog(rediscover ? tr("Discovering the fabric again…") : tr("Discovering the fabric…"),
                                              tr("Cancel"), 0, 0, this);
    m_discoveryProgress->setObjectName(QStringLiteral("discoveryProgress"));
    m_discoveryProgress->setWindowTitle(tr("Discover"));
    m_discoveryProgress->setAttribute(Qt::WA_DeleteOnClose);
    m_discoveryProgress->setAutoClose(false);
    m_discoveryProgress->setAutoReset(false);
    m_discoveryProgress->setMinimumDuration(0);
    connect(m_discoveryProgress, &QProgressDialog::canceled, m_discovery, &LiveDiscovery::cancel);
    m_discoveryProgress->open();
    m_discovery->start(options);
    return true;
}

void MainWindow::discoveryDone(std::shared_ptr<const HeldState> held, const QString &error, bool cancelled)
{
    if (m_discoveryProgress) {
        m_discoveryProgress->disconnect(m_discovery);
        m_discoveryProgress->close();
        m_discoveryProgress = nullptr;
    }
    m_discoverAction->setEnabled(true);
    m_rediscoverAction->setEnabled(m_document->fabric() != nullptr);
    if (!held) {
        // Nothing read is kept: the fabric shown stays as it was.
        if (cancelled) {
            statusBar()->showMessage(error, 8000);
        } else {
            auto *box = new QMessageBox(QMessageBox::Warning, tr("Cannot Discover the Fabric"),
                                        tr("The fabric could not be read. What is shown is unchanged."), QMessageBox::Ok, this);
            box->setObjectName(QStringLiteral("discoveryErrorBox"));
            box->setInformativeText(error);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        }
        Q_EMIT discoveryFinished(false, error);
        return;
    }
    const QString through = m_liveCa.isEmpty() ? tr("first adapter") : m_liveCa;
    if (m_rediscovering) {
        FabricChanges changes = compareFabrics(*m_document->fabric(), held->fabric);
        const bool changed = !changes.empty();
        m_document->setLiveChanges(std::move(changes));
        if (changed) {
            m_changesDock->show();
            m_changesDock->raise();
        }
        statusBar()->showMessage(changed ? tr("Rediscovered: the fabric changed (%n change(s)); open proposals are stale", nullptr,
                                              m_changesPanel->changeCount())
                                         : tr("Rediscovered: no change since the fabric was discovered"),
                                 15000);
        Q_EMIT discoveryFinished(true, {});
        return;
    }
    Tenancy tenancy;
    tenancy.partitions = partitionsHeld(held->fabric, held->pkeys);
    // The tables hold no names: those of the partitions.conf the commit target gives OpenSM.
    if (const QString conf = configuredCommitTarget().partitionsPath; !conf.isEmpty())
        if (Result<PartitionsConfResult> read = readPartitionsConfFile(conf))
            nameAfter(tenancy.partitions, read->partitions);
    showFabric(held->fabric, std::move(tenancy), tr("Live fabric (%1)").arg(through));
    m_liveFabric = m_document->fabric();
    updateTelemetryAction();
    m_document->session()->setCurrentTables(std::make_shared<const ForwardingTables>(held->tables), tr("held by the switches"));
    setShownRouting(ShownRouting::Current);
    statusBar()->showMessage(tr("Discovered %n node(s); the tables and partitions are those the fabric holds", nullptr,
                                int(held->fabric.nodes().size())),
                             15000);
    Q_EMIT discoveryFinished(true, {});
}

void MainWindow::sceneShown()
{
    m_view->fitToWindow();
    statusBar()->clearMessage();
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

void MainWindow::documentChanged(DocumentChanges what)
{
    if (what & DocumentChange::Fabric) {
        m_rediscoverAction->setEnabled(m_document->fabric() && !isDiscovering());
        updateTelemetryAction();
    }
    if (!(what & DocumentChange::Proposal))
        return;
    const bool proposed = m_document->session()->proposal() != nullptr;
    const int proposedIndex = m_shownRouting->findData(int(ShownRouting::Proposed));
    if (auto *model = qobject_cast<QStandardItemModel *>(m_shownRouting->model()))
        model->item(proposedIndex)->setEnabled(proposed);
    if (!proposed) {
        setShownRouting(ShownRouting::Current);
        return;
    }
    // The operator previewed to see the proposal: show it, coloured by load.
    setShownRouting(ShownRouting::Proposed);
    if (m_scene->linkColouring() == LinkColouring::Plain)
        setLinkColouring(LinkColouring::Load);
}

MainWindow::ShownRouting MainWindow::shownRouting() const
{
    return ShownRouting(m_shownRouting->currentData().toInt());
}

void MainWindow::setShownRouting(ShownRouting routing)
{
    if (routing == ShownRouting::Proposed && !m_document->session()->proposal())
        routing = ShownRouting::Current;
    m_shownRouting->setCurrentIndex(m_shownRouting->findData(int(routing)));
    m_scene->setShownRouting(routing);
}

void MainWindow::updateTelemetryAction()
{
    if (!m_telemetryAction)
        return;
    const bool live = m_liveFabric && m_document->fabric() == m_liveFabric;
    if (!live && m_sampler->fabric()) {
        // Another fabric is shown: its ports are not the ones read.
        m_sampler->setFabric(nullptr, LiveOptions());
        m_scene->setMeasuredTelemetry({});
        m_telemetryDock->clear();
        m_telemetryDock->setHistoryPath({});
    }
    m_telemetryAction->setEnabled(live);
    m_telemetryAction->setToolTip(live ? tr("Read every linked port's counters each %1 s and show the rates on the map and in the Telemetry dock")
                                             .arg(m_sampler->interval())
                                       : tr("Port counters can only be read from a live fabric: use Fabric ▸ Discover first"));
    m_telemetryAction->setStatusTip(m_telemetryAction->toolTip());
}

void MainWindow::setTelemetryRunning(bool run)
{
    if (!run) {
        m_sampler->stop();
        return;
    }
    const bool live = m_liveFabric && m_document->fabric() == m_liveFabric;
    if (!live) {
        m_telemetryAction->setChecked(false);
        return;
    }
    if (m_sampler->fabric() != m_liveFabric) {
        LiveOptions options;
        options.caName = m_liveCa;
        options.caPort = m_livePort;
        m_sampler->setFabric(m_liveFabric, options);
        // One history file per fabric, named after it, continued from one session to the next.
        const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/telemetry");
        QString path;
        if (QDir().mkpath(dir))
            path = dir + QStringLiteral("/%1.sqlite").arg(fabricHistoryId(*m_liveFabric));
        m_sampler->setHistoryPath(path);
        m_telemetryDock->setHistoryPath(path);
    }
    m_sampler->start();
    m_telemetryDockWidget->show();
    m_telemetryDockWidget->raise();
    if (m_scene->linkColouring() != LinkColouring::Measured)
        setLinkColouring(LinkColouring::Measured);
    statusBar()->showMessage(tr("Reading port counters every %1 s; the first rates follow one interval after the first reading")
                                 .arg(m_sampler->interval()),
                             10000);
}

void MainWindow::setLinkColouring(LinkColouring colouring)
{
    m_linkColouring->setCurrentIndex(m_linkColouring->findData(int(colouring)));
}

void MainWindow::setHostColouring(HostColouring colouring)
{
    m_hostColouring->setCurrentIndex(m_hostColouring->findData(int(colouring)));
}

void MainWindow::createViewToolBar()
{
    QToolBar *bar = addToolBar(tr("View"));
    bar->setObjectName(QStringLiteral("viewToolBar"));
    bar->setMovable(false);
    m_linkColouring = new QComboBox(bar);
    m_linkColouring->setObjectName(QStringLiteral("linkColouringCombo"));
    m_linkColouring->addItem(tr("Plain"), int(LinkColouring::Plain));
    m_linkColouring->addItem(tr("By load"), int(LinkColouring::Load));
    m_linkColouring->addItem(tr("By measured load"), int(LinkColouring::Measured));
    m_linkColouring->addItem(tr("By partition"), int(LinkColouring::Partition));
    m_hostColouring = new QComboBox(bar);
    m_hostColouring->setObjectName(QStringLiteral("hostColouringCombo"));
    m_hostColouring->addItem(tr("Plain"), int(HostColouring::Plain));
    m_hostColouring->addItem(tr("By partition"), int(HostColouring::Partition));
    m_hostColouring->addItem(tr("By tenant"), int(HostColouring::Tenant));
    m_shownRouting = new QComboBox(bar);
    m_shownRouting->setObjectName(QStringLiteral("shownRoutingCombo"));
    m_shownRouting->addItem(tr("Current tables"), int(ShownRouting::Current));
    m_shownRouting->addItem(tr("Proposed (preview)"), int(ShownRouting::Proposed));
    if (auto *model = qobject_cast<QStandardItemModel *>(m_shownRouting->model()))
        model->item(1)->setEnabled(false);
    m_findBox = new QLineEdit(bar);
    m_findBox->setObjectName(QStringLiteral("findBox"));
    m_findBox->setPlaceholderText(tr("Find node: name, GUID or LID"));
    m_findBox->setClearButtonEnabled(true);
    m_findBox->setMaximumWidth(260);

    bar->addWidget(new QLabel(tr(" Cables: "), bar));
    bar->addWidget(m_linkColouring);
    bar->addWidget(new QLabel(tr("  Hosts: "), bar));
    bar->addWidget(m_hostColouring);
    bar->addWidget(new QLabel(tr("  Routing: "), bar));
    bar->addWidget(m_shownRouting);
    auto *spacer = new QWidget(bar);
    spacer->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    bar->addWidget(spacer);
    bar->addWidget(m_findBox);

    QSettings settings;
    m_linkColouring->setCurrentIndex(std::max(0, m_linkColouring->findData(settings.value(kLinkColouringKey, int(LinkColouring::Partition)).toInt())));
    m_hostColouring->setCurrentIndex(std::max(0, m_hostColouring->findData(settings.value(kHostColouringKey, int(HostColouring::Partition)).toInt())));
    m_scene->setLinkColouring(LinkColouring(m_linkColouring->currentData().toInt()));
    m_scene->setHostColouring(HostColouring(m_hostColouring->currentData().toInt()));
    connect(m_linkColouring, &QComboBox::currentIndexChanged, this, [this] {
        m_scene->setLinkColouring(LinkColouring(m_linkColouring->currentData().toInt()));
        QSettings().setValue(kLinkColouringKey, m_linkColouring->currentData());
    });
    connect(m_hostColouring, &QComboBox::currentIndexChanged, this, [this] {
        m_scene->setHostColouring(HostColouring(m_hostColouring->currentData().toInt()));
        QSettings().setValue(kHostColouringKey, m_hostColouring->currentData());
    });
    connect(m_shownRouting, &QComboBox::currentIndexChanged, this, [this] { m_scene->setShownRouting(shownRouting()); });
    connect(m_findBox, &QLineEdit::returnPressed, this, [this] {
        if (!m_view->findAndFocus(m_findBox->text()))
            statusBar()->showMessage(tr("No node matches \"%1\"").arg(m_findBox->text()), 5000);
    });
}

bool MainWindow::openLftDump(const QString &path, QString *error)
{
    const std::shared_ptr<const Fabric> fabric = m_document->fabric();
    if (!fabric) {
        if (error)
            *error = tr("open a fabric first");
        return false;
    }
    Result<ForwardingTables> read = readLftDumpFile(path, fabric.get());
    if (!read) {
        if (error)
            *error = read.error().toString();
        return false;
    }
    auto tables = std::make_shared<const ForwardingTables>(std::move(read).value());
    const QString name = QFileInfo(path).fileName();
    m_document->session()->setCurrentTables(tables, name);
    setShownRouting(ShownRouting::Current);
    const QStringList coverage = lftCoverageWarnings(*tables, *fabric);
    statusBar()->showMessage(coverage.isEmpty() ? tr("Current tables: %1").arg(name)
                                                : tr("Current tables: %1 (%n switch(es) not fully covered)", nullptr, int(coverage.size())).arg(name),
                             10000);
    return true;
}

void MainWindow::chooseLftDump()
{
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open LFT Dump"), settings.value(kLastDirectoryKey).toString(),
                                                      tr("LFT dumps (*.lfts *.dump *.txt);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue(kLastDirectoryKey, QFileInfo(path).absolutePath());
    QString error;
    if (!openLftDump(path, &error))
        QMessageBox::warning(this, tr("Cannot Open the LFT Dump"), error);
}

bool MainWindow::openProject(const QString &path, QString *error)
{
    if (!m_document->fabric()) {
        if (error)
            *error = tr("open the project's fabric first");
        return false;
    }
    QStringList missing;
    const Status opened = m_document->openProject(path, &missing);
    if (!opened) {
        if (error)
            *error = opened.error().toString();
        return false;
    }
    m_projectPath = path;
    addRecentFile(path);
    if (!missing.isEmpty())
        statusBar()->showMessage(tr("%n GUID(s) of the project are not in this fabric and were left out", nullptr, int(missing.size())), 15000);
    return true;
}

bool MainWindow::saveProject(const QString &path, QString *error)
{
    const Status saved = m_document->saveProject(path);
    if (!saved) {
        if (error)
            *error = saved.error().toString();
        return false;
    }
    m_projectPath = path;
    addRecentFile(path);
    statusBar()->showMessage(tr("Saved %1").arg(QFileInfo(path).fileName()), 5000);
    return true;
}

void MainWindow::chooseProjectToOpen()
{
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Project"), settings.value(kLastDirectoryKey).toString(),
                                                      tr("Weft projects (*.weft);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue(kLastDirectoryKey, QFileInfo(path).absolutePath());
    QString error;
    if (!openProject(path, &error))
        QMessageBox::warning(this, tr("Cannot Open the Project"), error);
}

bool MainWindow::chooseProjectToSave()
{
    QSettings settings;
    QString path = QFileDialog::getSaveFileName(this, tr("Save Project"), m_projectPath.isEmpty() ? settings.value(kLastDirectoryKey).toString() : m_projectPath,
                                                tr("Weft projects (*.weft)"));
    if (path.isEmpty())
        return false;
    if (QFileInfo(path).suffix().isEmpty())
        path += QLatin1Char('.') + kProjectSuffix;
    QString error;
    if (!saveProject(path, &error)) {
        QMessageBox::warning(this, tr("Cannot Save the Project"), error);
        return false;
    }
    return true;
}

void MainWindow::saveCurrentProject()
{
    if (m_projectPath.isEmpty()) {
        chooseProjectToSave();
        return;
    }
    QString error;
    if (!saveProject(m_projectPath, &error))
        QMessageBox::warning(this, tr("Cannot Save the Project"), error);
}

bool MainWindow::openTopologyFile(const QString &path, QString *error)
{
    Result<Fabric> fabric = readTopologyFile(path);
    if (!fabric) {
        if (error)
            *error = fabric.error().toString();
        return false;
    }
    showFabric(std::move(fabric).value(), Tenancy(), QFileInfo(path).fileName());
    addRecentFile(path);
    return true;
}

bool MainWindow::loadDemoFabric(QString *error)
{
    Result<DemoFabric> demo = makeDemoFabric();
    if (!demo) {
        if (error)
            *error = demo.error().toString();
        return false;
    }
    DemoFabric value = std::move(demo).value();
    showFabric(std::move(value.fabric), std::move(value.tenancy), value.title);
    return true;
}

void MainWindow::openDemoFabric()
{
    QString error;
    if (!loadDemoFabric(&error))
        QMessageBox::warning(this, tr("Cannot Open the Demo Fabric"), error);
}

void MainWindow::chooseTopologyFile()
{
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Topology"), settings.value(kLastDirectoryKey).toString(),
        tr("Topology files (ibnetdiscover, ibsim) (*.txt *.net *.topo);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue(kLastDirectoryKey, QFileInfo(path).absolutePath());
    openRecentFile(path);
}

void MainWindow::openRecentFile(const QString &path)
{
    QString error;
    if (QFileInfo(path).suffix() == kProjectSuffix) {
        if (!openProject(path, &error))
            QMessageBox::warning(this, tr("Cannot Open the Project"), error);
        return;
    }
    if (!openTopologyFile(path, &error))
        showOpenError(path, error);
}

void MainWindow::showOpenError(const QString &path, const QString &error)
{
    QMessageBox box(QMessageBox::Warning, tr("Cannot Open Topology"),
                    tr("%1 could not be read. The fabric shown before is unchanged.").arg(QFileInfo(path).fileName()),
                    QMessageBox::Ok, this);
    box.setInformativeText(error);
    box.exec();
}

void MainWindow::addRecentFile(const QString &path)
{
    QSettings settings;
    QStringList files = settings.value(kRecentFilesKey).toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    settings.setValue(kRecentFilesKey, files);
    updateRecentFilesMenu();
}

void MainWindow::updateRecentFilesMenu()
{
    m_recentMenu->clear();
    const QStringList files = QSettings().value(kRecentFilesKey).toStringList();
    for (int i = 0; i < files.size(); ++i) {
        const QString path = files.at(i);
        QAction *action = m_recentMenu->addAction(tr("&%1 %2").arg(i + 1).arg(QFileInfo(path).fileName()),
                                                  this, [this, path] { openRecentFile(path); });
        action->setToolTip(path);
        action->setStatusTip(path);
    }
    if (files.isEmpty()) {
        m_recentMenu->addAction(tr("No Recent Files"))->setEnabled(false);
        return;
    }
    m_recentMenu->addSeparator();
    m_recentMenu->addAction(tr("&Clear List"), this, [this] {
        QSettings().remove(kRecentFilesKey);
        updateRecentFilesMenu();
    });
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About Weft"),
                       tr("<h3>Weft %1</h3>"
                          "<p>A fabric manager for InfiniBand: topology, partitions and routing, "
                          "previewed before they reach the subnet manager.</p>")
                           .arg(QCoreApplication::applicationVersion()));
}

void MainWindow::fillSummary()
{
    const QLocale locale;
    const auto number = [&locale](std::size_t n) { return locale.toString(qulonglong(n)); };
    const FabricSummary &s = m_summary;
    m_summaryTree->clear();
    addSummaryRow(m_summaryTree, nullptr, QStringLiteral("switches"), tr("Switches"), number(s.switches));
    addSummaryRow(m_summaryTree, nullptr, QStringLiteral("hosts"), tr("Hosts (channel adapters)"), number(s.channelAdapters));
    if (s.routers > 0)
        addSummaryRow(m_summaryTree, nullptr, QStringLiteral("routers"), tr("Routers"), number(s.routers));
    QTreeWidgetItem *cables = addSummaryRow(m_summaryTree, nullptr, QStringLiteral("cables"), tr("Cables"), number(s.links));
    addSummaryRow(m_summaryTree, cables, QStringLiteral("switchCables"), tr("Between switches"), number(s.switchLinks));
    addSummaryRow(m_summaryTree, cables, QStringLiteral("endNodeCables"), tr("To hosts and routers"), number(s.endNodeLinks));
    QTreeWidgetItem *tiers = addSummaryRow(m_summaryTree, nullptr, QStringLiteral("tiers"), tr("Switch tiers"), number(std::size_t(s.tiers)));
    for (int t = s.tiers; t >= 1; --t) {
        QString name;
        if (t == 1)
            name = tr("Tier 1 (leaves)");
        else if (t == s.tiers)
            name = tr("Tier %1 (roots)").arg(t);
        else
            name = tr("Tier %1").arg(t);
        addSummaryRow(m_summaryTree, tiers, QStringLiteral("tier%1").arg(t), name, number(s.switchesPerTier[std::size_t(t - 1)]));
    }
    if (s.isolatedSwitches > 0)
        addSummaryRow(m_summaryTree, nullptr, QStringLiteral("isolated"), tr("Switches with no path to a host"), number(s.isolatedSwitches));
    const QString lids = s.lidsAssigned == 0 ? tr("none assigned")
                                             : tr("%1–%2").arg(s.minLid).arg(s.maxLid);
    QTreeWidgetItem *lidRow = addSummaryRow(m_summaryTree, nullptr, QStringLiteral("lidRange"), tr("LID range"), lids);
    addSummaryRow(m_summaryTree, lidRow, QStringLiteral("lidsAssigned"), tr("LIDs assigned"), number(s.lidsAssigned));
    m_summaryTree->expandAll();
}

void MainWindow::updateStatus()
{
    if (!m_document->fabric()) {
        m_countsLabel->setText(tr("No fabric"));
        return;
    }
    const QLocale locale;
    m_countsLabel->setText(tr("Switches: %1 · Hosts: %2 · Cables: %3")
                               .arg(locale.toString(qulonglong(m_summary.switches)),
                                    locale.toString(qulonglong(m_summary.channelAdapters)),
                                    locale.toString(qulonglong(m_summary.links))));
}

void MainWindow::selectTableRow(NodeIndex node)
{
    if (m_syncingSelection)
        return;
    const QModelIndex index = m_nodeProxy->mapFromSource(m_nodeModel->indexOf(node));
    if (!index.isValid())
        return;
    m_syncingSelection = true;
    m_nodeTable->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_nodeTable->scrollTo(index);
    m_syncingSelection = false;
}

}  // namespace weft
