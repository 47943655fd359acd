#include "MainWindow.h"

#include "CommitJournalDialog.h"

#include "DemoFabric.h"
#include "FabricLayout.h"
#include "FabricScene.h"
#include "FabricView.h"
#include "NodeFilterProxyModel.h"
#include "NodeTableModel.h"
#include "TopologyFile.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDeadlineTimer>
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
#include <QSettings>
#include <QStatusBar>
#include <QTableView>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace weft {

namespace {

// Below this many nodes the layout takes a few milliseconds: do it at once, no worker thread.
constexpr std::size_t kAsyncLayoutNodes = 3000;
constexpr int kMaxRecentFiles = 8;

const QString kRecentFilesKey = QStringLiteral("recentFiles");
const QString kLastDirectoryKey = QStringLiteral("lastDirectory");
const QString kGeometryKey = QStringLiteral("mainWindow/geometry");
const QString kStateKey = QStringLiteral("mainWindow/state");

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

} // namespace

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent)
{
    setObjectName(QStringLiteral("MainWindow"));
    m_scene = new FabricScene(this);
    m_view = new FabricView(this);
    m_view->setObjectName(QStringLiteral("fabricView"));
    m_view->setFabricScene(m_scene);
    setCentralWidget(m_view);

    createDocks();
    createActions();

    m_countsLabel = new QLabel(this);
    m_zoomLabel = new QLabel(this);
    statusBar()->addPermanentWidget(m_countsLabel);
    statusBar()->addPermanentWidget(m_zoomLabel);
    connect(m_view, &FabricView::zoomChanged, this,
            [this](double zoom) { m_zoomLabel->setText(tr("Zoom %1 %").arg(QLocale().toString(zoom * 100, 'f', zoom < 0.1 ? 1 : 0))); });

    connect(m_scene, &FabricScene::nodeSelectionChanged, this, [this](const std::vector<NodeIndex> &nodes) {
        if (!nodes.empty())
            selectTableRow(nodes.front());
    });

    setWindowTitle(tr("Weft"));
    readSettings();
    updateStatus();
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

    m_partitionTree = new QTreeWidget(this);
    m_partitionTree->setObjectName(QStringLiteral("partitionTree"));
    m_partitionTree->setColumnCount(4);
    m_partitionTree->setHeaderLabels({tr("Partition"), tr("P_Key"), tr("Members"), tr("Isolation")});
    m_partitionTree->setRootIsDecorated(false);
    m_partitionTree->setUniformRowHeights(true);
    m_partitionTree->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto *partitionsDock = new QDockWidget(tr("Partitions"), this);
    partitionsDock->setObjectName(QStringLiteral("partitionsDock"));
    partitionsDock->setWidget(m_partitionTree);
    addDockWidget(Qt::RightDockWidgetArea, partitionsDock);
    resizeDocks({summaryDock}, {400}, Qt::Horizontal);
    resizeDocks({nodesDock}, {260}, Qt::Vertical);
}

void MainWindow::createActions()
{
    QMenu *fileMenu = menuBar()->addMenu(tr("&File"));
    QAction *open = fileMenu->addAction(tr("&Open Topology…"), this, &MainWindow::chooseTopologyFile);
    open->setShortcut(QKeySequence::Open);
    fileMenu->addAction(tr("Open &Demo Fabric"), this, &MainWindow::openDemoFabric);
    m_recentMenu = fileMenu->addMenu(tr("Open &Recent"));
    updateRecentFilesMenu();
    fileMenu->addSeparator();
    QAction *quit = fileMenu->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    quit->setMenuRole(QAction::QuitRole);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    QAction *fit = m_viewMenu->addAction(tr("&Fit to Window"), m_view, &FabricView::fitToWindow);
    fit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    QAction *zoomIn = m_viewMenu->addAction(tr("Zoom &In"), m_view, &FabricView::zoomIn);
    zoomIn->setShortcuts({QKeySequence::ZoomIn, QKeySequence(Qt::CTRL | Qt::Key_Equal)});
    QAction *zoomOut = m_viewMenu->addAction(tr("Zoom &Out"), m_view, &FabricView::zoomOut);
    zoomOut->setShortcut(QKeySequence::ZoomOut);
    m_viewMenu->addSeparator();
    for (QDockWidget *dock : findChildren<QDockWidget *>())
        m_viewMenu->addAction(dock->toggleViewAction());

    QMenu *fabricMenu = menuBar()->addMenu(tr("F&abric"));
    fabricMenu->addAction(tr("Commit &Journal…"), this, &MainWindow::showCommitJournal);

    QMenu *helpMenu = menuBar()->addMenu(tr("&Help"));
    QAction *about = helpMenu->addAction(tr("&About Weft"), this, &MainWindow::showAbout);
    about->setMenuRole(QAction::AboutRole);
    QAction *aboutQt = helpMenu->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
    aboutQt->setMenuRole(QAction::AboutQtRole);
}

// The journal of commits made to an OpenSM: under `weft lab` the lab's own, otherwise the last
// one opened, otherwise the operator picks the weft-commits.jsonl beside OpenSM's files.
void MainWindow::showCommitJournal()
{
    QSettings settings;
    const QString lab = qEnvironmentVariable("WEFT_LAB_DIR");
    QString path = lab.isEmpty() ? settings.value(QStringLiteral("journal/path")).toString()
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
    writeSettings();
    event->accept();
}

void MainWindow::showFabric(Fabric fabric, Tenancy tenancy, const QString &title)
{
    auto shared = std::make_shared<const Fabric>(std::move(fabric));
    m_fabric = shared;
    m_tenancy = std::move(tenancy);
    m_title = title;
    m_summary = summarize(*shared);
    m_nodeModel->setFabric(shared, nodeTiers(*shared));
    fillSummary();
    fillPartitions();
    updateStatus();
    setWindowTitle(tr("%1 — Weft").arg(title));

    const quint64 generation = ++m_layoutGeneration;
    m_scene->clearFabric();
    if (shared->nodes().size() < kAsyncLayoutNodes) {
        applyLayout(generation, shared, computeFabricLayout(*shared));
        return;
    }
    m_layoutPending = true;
    statusBar()->showMessage(tr("Laying out the fabric (%1 nodes)…").arg(QLocale().toString(qulonglong(shared->nodes().size()))));
    // The worker reads its own reference to the immutable fabric; the items are made back on
    // the GUI thread, where the scene lives.
    QtConcurrent::run([shared] { return computeFabricLayout(*shared); })
        .then(this, [this, generation, shared](FabricLayout layout) { applyLayout(generation, shared, std::move(layout)); });
}

void MainWindow::applyLayout(quint64 generation, std::shared_ptr<const Fabric> fabric, FabricLayout layout)
{
    if (generation != m_layoutGeneration)
        return;
    m_scene->setFabric(std::move(fabric), std::move(layout));
    m_view->fitToWindow();
    m_layoutPending = false;
    statusBar()->clearMessage();
    Q_EMIT sceneReady();
}

bool MainWindow::waitForScene(int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    while (m_layoutPending && !deadline.hasExpired())
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 50);
    return !m_layoutPending;
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

void MainWindow::fillPartitions()
{
    m_partitionTree->clear();
    for (const Partition &p : m_tenancy.partitions) {
        int guids = 0;
        QStringList groups;
        for (const PartitionMember &m : p.members) {
            switch (m.kind) {
            case PartitionMember::Kind::PortGuid:
                ++guids;
                break;
            case PartitionMember::Kind::All:
                groups << tr("all ports");
                break;
            case PartitionMember::Kind::AllCas:
                groups << tr("all hosts");
                break;
            case PartitionMember::Kind::AllSwitches:
                groups << tr("all switches");
                break;
            case PartitionMember::Kind::AllRouters:
                groups << tr("all routers");
                break;
            case PartitionMember::Kind::Self:
                groups << tr("the SM's port");
                break;
            }
        }
        QString members = guids > 0 || groups.isEmpty() ? QLocale().toString(guids) : QString();
        if (!groups.isEmpty())
            members += (members.isEmpty() ? QString() : QStringLiteral(" + ")) + groups.join(QStringLiteral(", "));
        auto *item = new QTreeWidgetItem(m_partitionTree);
        item->setText(0, p.name);
        item->setText(1, p.pkey ? QStringLiteral("0x%1").arg(*p.pkey, 4, 16, QLatin1Char('0')) : tr("automatic"));
        item->setText(2, members);
        item->setTextAlignment(2, Qt::AlignRight | Qt::AlignVCenter);
        item->setText(3, policyName(p.policy));
    }
}

void MainWindow::updateStatus()
{
    if (!m_fabric) {
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

bool MainWindow::saveScreenshot(const QString &path)
{
    if (!waitForScene(120000))
        return false;
    QCoreApplication::processEvents();
    const QPixmap picture = grab();
    return !picture.isNull() && picture.save(path);
}

} // namespace weft
