// The first GUI: layout, scene, node table and filter, and the main window around them.

#include "CommitJournalDialog.h"
#include "DiffReview.h"
#include "FabricDocument.h"
#include "LftDump.h"
#include "LidAssignment.h"
#include "Metrics.h"
#include "PartitionPanel.h"
#include "QosConfig.h"
#include "PartitionTreeModel.h"
#include "PolicyEditor.h"
#include "PolicyTableModel.h"
#include "PortsMime.h"
#include "RoutingEngine.h"
#include "RoutingPreview.h"
#include "FabricSession.h"
#include "TenantListModel.h"
#include "WeightTable.h"
#include "WeightTableModel.h"
#include "CommitJournalModel.h"
#include "FabricGenerator.h"
#include "GeneratedFabrics.h"
#include "FabricItems.h"
#include "FabricLayout.h"
#include "FabricScene.h"
#include "FabricSummary.h"
#include "FabricView.h"
#include "MainWindow.h"
#include "ProjectFile.h"
#include "ReconfigurationStudio.h"
#include "DeskDocks.h"
#include "Screenshots.h"
#include "NodeFilterProxyModel.h"
#include "NodeTableModel.h"
#include "TopologyFile.h"

#include <QAbstractItemModelTester>
#include <QAbstractButton>
#include <QCheckBox>
#include <QSemaphore>
#include <QStatusBar>
#include <QThreadPool>
#include <QPushButton>
#include <QLineEdit>
#include <QMenu>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QMimeData>
#include <QRegularExpression>
#include <QTableWidget>
#include <QScrollArea>
#include <QTabWidget>
#include <QFileDialog>
#include <QMessageBox>
#include <QTimer>
#include <QApplication>
#include <QAction>
#include <QTreeView>
#include <QDockWidget>
#include <QHeaderView>
#include <QTreeWidget>
#include <QUndoStack>

#include <map>
#include <set>

using namespace weft;

namespace {

Fabric fatTree(int radix, int levels)
{
    return test::generate({FabricShapeKind::SwitchRadix, radix, levels}).fabric;
}

Fabric fixtureFabric()
{
    Result<Fabric> fabric = readTopologyFile(QFINDTESTDATA("data/topology/ibnetdiscover-2sw4hca.txt"));
    if (!fabric)
        qFatal("cannot read the fixture: %s", qPrintable(fabric.error().toString()));
    return std::move(fabric).value();
}

Tenancy twoPartitions(const Fabric &fabric)
{
    Tenancy tenancy;
    Partition all;
    all.name = QStringLiteral("Default");
    all.pkey = 0x7fff;
    all.members.push_back({PartitionMember::Kind::All, 0, Membership::Full, true});
    Partition tenant;
    tenant.name = QStringLiteral("tenant-a");
    tenant.pkey = 0x0010;
    for (std::size_t i = 0; i < 3 && i < fabric.endNodes().size(); ++i) {
        const Node &host = fabric.node(fabric.endNodes()[i]);
        tenant.members.push_back({PartitionMember::Kind::PortGuid, fabric.port(host.firstPort + 1).guid,
                                  Membership::Full, false});
    }
    tenancy.partitions = {all, tenant};
    return tenancy;
}

QString summaryValue(const MainWindow &window, const QString &key)
{
    const auto *tree = window.findChild<QTreeWidget *>(QStringLiteral("summaryTree"));
    if (!tree)
        return QStringLiteral("<no summary tree>");
    for (QTreeWidgetItemIterator it(const_cast<QTreeWidget *>(tree)); *it; ++it)
        if ((*it)->data(0, Qt::UserRole).toString() == key)
            return (*it)->text(1);
    return QStringLiteral("<no row %1>").arg(key);
}

std::vector<NodeIndex> filteredNodes(const MainWindow &window)
{
    std::vector<NodeIndex> nodes;
    const NodeFilterProxyModel *proxy = window.nodeProxy();
    for (int row = 0; row < proxy->rowCount(); ++row)
        nodes.push_back(NodeIndex(proxy->index(row, 0).data(NodeTableModel::NodeIndexRole).toInt()));
    return nodes;
}

bool contains(const std::vector<NodeIndex> &nodes, NodeIndex n)
{
    return std::find(nodes.begin(), nodes.end(), n) != nodes.end();
}

int cabledPorts(const Fabric &fabric, NodeIndex n)
{
    int count = 0;
    const Node &node = fabric.node(n);
    for (int p = 1; p <= node.portCount; ++p)
        count += fabric.port(node.firstPort + p).remote != kNoIndex ? 1 : 0;
    return count;
}

}  // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The journal `weft commit` keeps, as the operator reads it: newest first, every outcome.
    void commitJournalView()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("weft-commits.jsonl"));
        const char *outcomes[] = {"committed", "refused", "rolled-back"};
        for (int i = 0; i < 3; ++i) {
            CommitJournalEntry e;
            e.time = QDateTime(QDate(2026, 11, 21), QTime(10, i), Qt::UTC);
            e.user = QStringLiteral("operator");
            e.planSummary = QStringLiteral("plan %1").arg(i);
            e.smps = 10 * i;
            e.outcome = QLatin1String(outcomes[i]);
            e.details = {QStringLiteral("detail %1").arg(i)};
            QVERIFY(appendJournalEntry(path, e).ok());
        }
        CommitJournalDialog dialog;
        QAbstractItemModelTester tester(dialog.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QString error;
        QVERIFY2(dialog.load(path, &error), qPrintable(error));
        CommitJournalModel *model = dialog.model();
        QCOMPARE(model->rowCount(), 3);
        QCOMPARE(model->index(0, CommitJournalModel::OutcomeColumn).data().toString(), QStringLiteral("rolled-back"));
        QCOMPARE(model->index(2, CommitJournalModel::OutcomeColumn).data().toString(), QStringLiteral("committed"));
        QCOMPARE(model->index(0, CommitJournalModel::SmpsColumn).data().toInt(), 20);
        QCOMPARE(model->index(1, CommitJournalModel::PlanColumn).data().toString(), QStringLiteral("plan 1"));
        QCOMPARE(model->index(0, CommitJournalModel::TimeColumn).data(Qt::ToolTipRole).toString(), QStringLiteral("detail 2"));

        // A damaged journal is named with its line and leaves the view as it was.
        QFile f(path);
        QVERIFY(f.open(QIODevice::Append));
        f.write("not json\n");
        f.close();
        QVERIFY(!dialog.load(path, &error));
        QVERIFY2(error.contains(QStringLiteral(":4")), qPrintable(error));
        QCOMPARE(model->rowCount(), 3);
    }

    void initTestCase();
    void languageIsChosenInTheSettings();
    void windowFitsASmallScreen();
    void everyDockShrinksAndEveryTableShowsFiveRows();
    void projectsKeepTheEngineAndNoEditIsDroppedUnasked();

    void layoutPutsTiersInOrder_data();
    void layoutPutsTiersInOrder();
    void layoutIsDeterministic();
    void layoutKeepsPodsTogether();

    void nodeModelPassesModelTester();
    void filterFindsNode_data();
    void filterFindsNode();

    void windowShowsFabric_data();
    void windowShowsFabric();
    void openTopologyFile();
    void lidLessDesignGetsOpenSmsLids();
    void firstStartFitsTheScreen();
    void malformedFileKeepsPreviousFabric_data();
    void malformedFileKeepsPreviousFabric();
    void demoFabricOpens();

    void selectingNodeHighlightsItsCables();
    void toolTipNamesTheNode();
    void zoomingOutCollapsesRacks();
    void largeFatTreeGetsBatchedScene();
    void messageGivenDuringTheLayoutStays();

    void viewSelectionDropsOntoPartition();
    void tenantDropsOntoPartition();
    void policyAndWeightEditsAreUndoable();
    void previewShowsCoreMetrics_data();
    void previewShowsCoreMetrics();
    void diffReviewWritesPlanFiles();
    void diffReviewShowsPoliciesBeforeApprove();
    void twoHostsShowTheirRouteBothWays_data();
    void twoHostsShowTheirRouteBothWays();
    void loadColouringFollowsMetrics();
    void editsRecolourWithoutRebuilding();
    void findBoxFindsNodes_data();
    void findBoxFindsNodes();
};

void TestMainWindow::initTestCase()
{
    // Keep the user's recent files and window state out of the tests, and the tests' out of theirs.
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("WeftTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_mainwindow"));
}

void TestMainWindow::layoutPutsTiersInOrder_data()
{
    QTest::addColumn<int>("radix");  // 0: the ibnetdiscover fixture
    QTest::addColumn<int>("levels");
    QTest::addRow("ibnetdiscover fixture, two leaves") << 0 << 0;
    QTest::addRow("2-level fat-tree, radix 12") << 12 << 2;
    QTest::addRow("3-level fat-tree, radix 8") << 8 << 3;
}

void TestMainWindow::layoutPutsTiersInOrder()
{
    QFETCH(int, radix);
    QFETCH(int, levels);
    const Fabric fabric = radix == 0 ? fixtureFabric() : fatTree(radix, levels);
    const FabricLayout layout = computeFabricLayout(fabric);
    const std::vector<int> tiers = nodeTiers(fabric);
    QCOMPARE(layout.positions.size(), fabric.nodes().size());

    // Every node of a higher tier is drawn above every node of a lower one; hosts lowest.
    std::map<int, std::pair<double, double>> yRange;  // tier -> (min y, max y)
    for (std::size_t n = 0; n < fabric.nodes().size(); ++n) {
        const double y = layout.positions[n].y();
        auto it = yRange.find(tiers[n]);
        if (it == yRange.end())
            yRange[tiers[n]] = {y, y};
        else
            it->second = {std::min(it->second.first, y), std::max(it->second.second, y)};
    }
    QVERIFY(yRange.size() >= 2);
    for (auto it = std::next(yRange.begin()); it != yRange.end(); ++it) {
        const auto below = std::prev(it);
        QVERIFY2(it->second.second < below->second.first,
                 qPrintable(QStringLiteral("tier %1 is not above tier %2").arg(it->first).arg(below->first)));
    }

    // Hosts sit in their leaf's rack, centred under the leaf.
    for (const FabricLayout::Rack &rack : layout.racks) {
        QCOMPARE(rack.bounds.center().x(), layout.positions[std::size_t(rack.leaf)].x());
        for (NodeIndex host : rack.hosts) {
            QVERIFY(rack.bounds.contains(layout.nodeRect(fabric, host)));
            const Port &port = fabric.port(fabric.node(host).firstPort + 1);
            QCOMPARE(fabric.port(port.remote).node, rack.leaf);
        }
    }

    // No two boxes overlap (sorted sweep by x keeps this quadratic only within a column).
    std::vector<QRectF> rects;
    for (std::size_t n = 0; n < fabric.nodes().size(); ++n)
        rects.push_back(layout.nodeRect(fabric, NodeIndex(n)));
    std::sort(rects.begin(), rects.end(), [](const QRectF &a, const QRectF &b) { return a.left() < b.left(); });
    for (std::size_t i = 0; i < rects.size(); ++i)
        for (std::size_t j = i + 1; j < rects.size() && rects[j].left() < rects[i].right(); ++j)
            QVERIFY2(!rects[i].intersects(rects[j]), "two node boxes overlap");
    for (const QRectF &r : rects)
        QVERIFY(layout.bounds.contains(r));
}

void TestMainWindow::layoutIsDeterministic()
{
    const Fabric fabric = fatTree(8, 3);
    const FabricLayout first = computeFabricLayout(fabric);
    const FabricLayout second = computeFabricLayout(fatTree(8, 3));
    QCOMPARE(first.positions.size(), second.positions.size());
    for (std::size_t n = 0; n < first.positions.size(); ++n)
        QCOMPARE(first.positions[n], second.positions[n]);
    QCOMPARE(first.bounds, second.bounds);
}

void TestMainWindow::layoutKeepsPodsTogether()
{
    // In a 3-level fat-tree the leaves of one pod share their parents; they must be neighbours.
    const Fabric fabric = fatTree(8, 3);
    const FabricLayout layout = computeFabricLayout(fabric);
    QCOMPARE(layout.topTier, 3);
    const std::vector<NodeIndex> &leaves = layout.rows[1];
    std::map<std::set<NodeIndex>, std::vector<std::size_t>> slotsByParents;
    for (std::size_t slot = 0; slot < leaves.size(); ++slot) {
        std::set<NodeIndex> parents;
        const Node &leaf = fabric.node(leaves[slot]);
        for (int p = 1; p <= leaf.portCount; ++p) {
            const Port &port = fabric.port(leaf.firstPort + p);
            if (port.remote != kNoIndex && layout.tiers[std::size_t(fabric.port(port.remote).node)] == 2)
                parents.insert(fabric.port(port.remote).node);
        }
        slotsByParents[parents].push_back(slot);
    }
    QCOMPARE(slotsByParents.size(), std::size_t(8));  // radix 8: 8 pods
    for (const auto &[parents, slots] : slotsByParents)
        QCOMPARE(slots.back() - slots.front() + 1, slots.size());
}

void TestMainWindow::nodeModelPassesModelTester()
{
    NodeTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const Fabric fabric = fixtureFabric();
    auto shared = std::make_shared<const Fabric>(fabric);
    model.setFabric(shared, nodeTiers(fabric));
    QCOMPARE(model.rowCount(), int(fabric.nodes().size()));
    QCOMPARE(model.columnCount(), int(NodeTableModel::ColumnCount));
    for (int row = 0; row < model.rowCount(); ++row) {
        const Node &node = fabric.node(NodeIndex(row));
        QCOMPARE(model.index(row, NodeTableModel::GuidColumn).data().toString(),
                 QString::asprintf("0x%016llx", static_cast<unsigned long long>(node.guid)));
        const Lid lid = fabric.nodeLid(NodeIndex(row));
        QCOMPARE(model.index(row, NodeTableModel::LidColumn).data(NodeTableModel::SortRole).toInt(), int(lid));
        QCOMPARE(model.index(row, NodeTableModel::PortsColumn).data().toInt(), int(node.portCount));
    }

    // Sorting by LID through the proxy puts LIDs in numeric order.
    NodeFilterProxyModel proxy;
    QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.setSourceModel(&model);
    proxy.sort(NodeTableModel::LidColumn, Qt::AscendingOrder);
    for (int row = 1; row < proxy.rowCount(); ++row)
        QVERIFY(proxy.index(row - 1, NodeTableModel::LidColumn).data(NodeTableModel::SortRole).toInt()
                <= proxy.index(row, NodeTableModel::LidColumn).data(NodeTableModel::SortRole).toInt());

    model.clear();
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(proxy.rowCount(), 0);
}

void TestMainWindow::filterFindsNode_data()
{
    QTest::addColumn<QString>("how");
    QTest::addRow("GUID with 0x") << QStringLiteral("guid0x");
    QTest::addRow("last 6 GUID digits") << QStringLiteral("guidTail");
    QTest::addRow("lid N") << QStringLiteral("lidKeyword");
    QTest::addRow("bare LID number") << QStringLiteral("lidNumber");
    QTest::addRow("description") << QStringLiteral("description");
}

void TestMainWindow::filterFindsNode()
{
    QFETCH(QString, how);
    MainWindow window;
    window.showFabric(fatTree(12, 2), Tenancy(), QStringLiteral("filter test"));
    const Fabric &fabric = *window.fabric();
    // A host deep in the table, so that a match is not an accident of the first rows.
    const NodeIndex target = fabric.endNodes()[fabric.endNodes().size() - 5];
    const Node &node = fabric.node(target);
    const Lid lid = fabric.nodeLid(target);
    QVERIFY(lid != 0);
    const QString guidHex = QString::asprintf("%016llx", static_cast<unsigned long long>(node.guid));

    QString query;
    if (how == QLatin1String("guid0x"))
        query = QStringLiteral("0x") + guidHex.toUpper();
    else if (how == QLatin1String("guidTail"))
        query = guidHex.right(6);
    else if (how == QLatin1String("lidKeyword"))
        query = QStringLiteral("lid %1").arg(lid);
    else if (how == QLatin1String("lidNumber"))
        query = QString::number(lid);
    else
        query = node.description;

    auto *filter = window.findChild<QLineEdit *>(QStringLiteral("nodeFilter"));
    QVERIFY(filter);
    filter->setText(query);
    const std::vector<NodeIndex> found = filteredNodes(window);
    QVERIFY2(contains(found, target), qPrintable(QStringLiteral("\"%1\" does not find the node").arg(query)));
    QVERIFY2(found.size() < fabric.nodes().size() / 4, qPrintable(QStringLiteral("\"%1\" matches too much").arg(query)));
    if (how == QLatin1String("lidKeyword") || how == QLatin1String("guid0x"))
        QCOMPARE(found.size(), std::size_t(1));

    filter->clear();
    QCOMPARE(window.nodeProxy()->rowCount(), int(fabric.nodes().size()));
}

void TestMainWindow::windowShowsFabric_data()
{
    QTest::addColumn<int>("radix");  // 0: the ibnetdiscover fixture
    QTest::addColumn<int>("levels");
    QTest::addRow("ibnetdiscover fixture") << 0 << 0;
    QTest::addRow("2-level fat-tree, radix 12") << 12 << 2;
    QTest::addRow("3-level fat-tree, radix 8") << 8 << 3;
}

void TestMainWindow::windowShowsFabric()
{
    QFETCH(int, radix);
    QFETCH(int, levels);
    const Fabric fabric = radix == 0 ? fixtureFabric() : fatTree(radix, levels);
    const FabricSummary expected = summarize(fabric);
    const Tenancy tenancy = twoPartitions(fabric);

    MainWindow window;
    window.showFabric(fabric, tenancy, QStringLiteral("shown"));
    QVERIFY(waitForScene(window, 60000));
    QVERIFY(window.windowTitle().contains(QLatin1String("shown")));

    QCOMPARE(window.nodeModel()->rowCount(), int(fabric.nodes().size()));
    QCOMPARE(window.fabricScene()->nodeItemCount(), fabric.nodes().size());
    const QLocale locale;
    QCOMPARE(summaryValue(window, QStringLiteral("switches")), locale.toString(qulonglong(expected.switches)));
    QCOMPARE(summaryValue(window, QStringLiteral("hosts")), locale.toString(qulonglong(expected.channelAdapters)));
    QCOMPARE(summaryValue(window, QStringLiteral("cables")), locale.toString(qulonglong(fabric.links().size())));
    QCOMPARE(summaryValue(window, QStringLiteral("tiers")), locale.toString(expected.tiers));
    for (int t = 1; t <= expected.tiers; ++t)
        QCOMPARE(summaryValue(window, QStringLiteral("tier%1").arg(t)),
                 locale.toString(qulonglong(expected.switchesPerTier[std::size_t(t - 1)])));
    QVERIFY(summaryValue(window, QStringLiteral("lidRange")).contains(QString::number(expected.maxLid)));

    const PartitionTreeModel *partitions = window.partitionPanel()->partitionModel();
    QCOMPARE(partitions->rowCount(), int(tenancy.partitions.size()));
    QCOMPARE(partitions->index(1, PartitionTreeModel::NameColumn).data().toString(), QStringLiteral("tenant-a"));
    QCOMPARE(partitions->rowCount(partitions->index(1, 0)), int(tenancy.partitions[1].members.size()));
}

void TestMainWindow::openTopologyFile()
{
    MainWindow window;
    QString error;
    const QString path = QFINDTESTDATA("data/topology/ibnetdiscover-2sw4hca.txt");
    QVERIFY2(window.openTopologyFile(path, &error), qPrintable(error));
    QVERIFY(error.isEmpty());
    QCOMPARE(window.fabric()->nodes().size(), fixtureFabric().nodes().size());
    QVERIFY(window.windowTitle().contains(QLatin1String("ibnetdiscover-2sw4hca.txt")));
}

void TestMainWindow::lidLessDesignGetsOpenSmsLids()
{
    // A design with no LIDs (as a generator or an ibsim net file gives it) opens with the LIDs
    // OpenSM would give at its first sweep, said in the status bar, and routes.
    GeneratorOptions options;
    options.arity = 2;
    options.levels = 2;
    options.assignLids = false;
    Result<GeneratedFabric> g = generateFabric(options);
    QVERIFY(g.ok());
    QCOMPARE(g->fabric.maxLid(), Lid(0));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("design.topo"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(writeIbnetdiscover(g->fabric));
    file.close();

    MainWindow window;
    QString error;
    QVERIFY2(window.openTopologyFile(path, &error), qPrintable(error));
    const Result<Fabric> expected = assignLidsAsOpenSm(g->fabric);
    QVERIFY(expected.ok());
    QCOMPARE(window.fabric()->maxLid(), expected->maxLid());
    QVERIFY(window.fabric()->maxLid() > 0);
    for (std::size_t p = 0; p < expected->ports().size(); ++p)
        QCOMPARE(window.fabric()->port(PortIndex(p)).lid, expected->port(PortIndex(p)).lid);
    const QString said = window.statusBar()->currentMessage();
    QVERIFY2(said.contains(QLatin1String("has no LIDs")) && said.contains(QLatin1String("first sweep")), qPrintable(said));
    QVERIFY(routeFabric(QStringLiteral("ftree"), *window.fabric(), {}).ok());
}

// The first start (no saved geometry) on a small screen: the window fits the screen, whatever the
// minimum its layout had while the docks were being added side by side before they went into tabs
// (in Norwegian, 1,434 px held the window wider than a laptop's 1,366).
void TestMainWindow::firstStartFitsTheScreen()
{
    QSettings().remove(QStringLiteral("mainWindow/geometry"));
    MainWindow window;
    QVERIFY(window.screen());
    const QRect available = window.screen()->availableGeometry();
    qInfo("screen %dx%d, window %dx%d", available.width(), available.height(), window.width(), window.height());
    QVERIFY2(window.width() <= available.width() && window.height() <= available.height(),
             qPrintable(QStringLiteral("%1x%2").arg(window.width()).arg(window.height())));
}

void TestMainWindow::malformedFileKeepsPreviousFabric_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("where");   // ":line:" the message must name; empty: no line
    QTest::addColumn<QString>("reason");  // a word of the message
    QTest::addRow("cable to an undefined node")
        << QByteArray("Switch\t4 \"S-0000000000000010\"\t\t# \"sw\" base port 0 lid 1 lmc 0\n"
                      "[1]\t\"H-0000000000000099\"[1]\t\t# \"nowhere\" lid 2 4xQDR\n")
        << QStringLiteral(":2:") << QStringLiteral("does not define");
    QTest::addRow("unknown keyword") << QByteArray("# a comment\nfrobnicate=3\n") << QStringLiteral(":2:")
                                     << QStringLiteral("frobnicate");
    QTest::addRow("empty file") << QByteArray() << QString() << QStringLiteral("no nodes");
}

void TestMainWindow::malformedFileKeepsPreviousFabric()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, where);
    QFETCH(QString, reason);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("broken.topo"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(content);
    file.close();

    MainWindow window;
    window.showFabric(fatTree(12, 2), Tenancy(), QStringLiteral("before"));
    const Fabric *before = window.fabric();
    const std::size_t nodesBefore = before->nodes().size();
    const QString titleBefore = window.windowTitle();

    QString error;
    QVERIFY(!window.openTopologyFile(path, &error));
    QVERIFY2(error.contains(QLatin1String("broken.topo")), qPrintable(error));
    if (!where.isEmpty())
        QVERIFY2(error.contains(where), qPrintable(error));
    QVERIFY2(error.contains(reason), qPrintable(error));

    QCOMPARE(window.fabric(), before);
    QCOMPARE(window.nodeModel()->rowCount(), int(nodesBefore));
    QCOMPARE(window.fabricScene()->nodeItemCount(), nodesBefore);
    QCOMPARE(window.windowTitle(), titleBefore);

    QVERIFY(!window.openTopologyFile(dir.filePath(QStringLiteral("missing.topo")), &error));
    QVERIFY2(error.contains(QLatin1String("missing.topo")), qPrintable(error));
    QCOMPARE(window.fabric(), before);
}

void TestMainWindow::demoFabricOpens()
{
    MainWindow window;
    QString error;
    QVERIFY2(window.loadDemoFabric(&error), qPrintable(error));
    QVERIFY(waitForScene(window, 60000));
    QVERIFY(window.fabric()->switches().size() > 0);
    QCOMPARE(window.nodeModel()->rowCount(), int(window.fabric()->nodes().size()));
    QCOMPARE(window.partitionPanel()->partitionModel()->rowCount(), int(window.tenancy().partitions.size()));
}

void TestMainWindow::selectingNodeHighlightsItsCables()
{
    FabricScene scene;
    const Fabric fabric = fatTree(12, 2);
    auto shared = std::make_shared<const Fabric>(fabric);
    scene.setFabric(shared, computeFabricLayout(fabric));
    QSignalSpy spy(&scene, &FabricScene::nodeSelectionChanged);

    const NodeIndex leaf = scene.layout().rows[1][3];
    scene.selectNode(leaf);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(scene.selectedNodes(), std::vector<NodeIndex>{leaf});
    QCOMPARE(scene.highlightedCableCount(), std::size_t(cabledPorts(fabric, leaf)));

    scene.selectNode(kNoIndex);
    QVERIFY(scene.selectedNodes().empty());
    QCOMPARE(scene.highlightedCableCount(), std::size_t(0));
}

void TestMainWindow::toolTipNamesTheNode()
{
    FabricScene scene;
    const Fabric fabric = fixtureFabric();
    scene.setFabric(std::make_shared<const Fabric>(fabric), computeFabricLayout(fabric));
    for (std::size_t n = 0; n < fabric.nodes().size(); ++n) {
        const Node &node = fabric.node(NodeIndex(n));
        const QString tip = scene.toolTipFor(NodeIndex(n));
        QVERIFY2(tip.contains(QString::asprintf("0x%016llx", static_cast<unsigned long long>(node.guid))), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("LID %1").arg(fabric.nodeLid(NodeIndex(n)))), qPrintable(tip));
        QVERIFY2(tip.contains(node.description.toHtmlEscaped()), qPrintable(tip));
    }
}

void TestMainWindow::zoomingOutCollapsesRacks()
{
    MainWindow window;
    window.resize(1200, 800);
    // Big enough that the fitted picture is already below the collapse zoom.
    window.showFabric(fatTree(12, 3), Tenancy(), QStringLiteral("zoom"));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    FabricView *view = window.fabricView();
    FabricScene *scene = window.fabricScene();

    view->focusNode(scene->layout().rows[0][0]);
    QVERIFY(view->zoom() >= zoom::kCollapseRacksBelow);
    QVERIFY(!scene->hostsCollapsed());
    QCOMPARE(scene->selectedNodes(), std::vector<NodeIndex>{scene->layout().rows[0][0]});

    for (int i = 0; i < 40 && view->zoom() >= zoom::kCollapseRacksBelow; ++i)
        view->zoomOut();
    QVERIFY(view->zoom() < zoom::kCollapseRacksBelow);
    QVERIFY(scene->hostsCollapsed());

    view->fitToWindow();
    const QImage picture = view->grab().toImage();
    QVERIFY(!picture.isNull());
}

// The picture of a fabric is laid out on a worker thread, and Fabric ▸ Discover says what it
// read ("Discovered N node(s) through …") as the discovery ends, before the picture is ready:
// the picture being ready takes the layout's own message away, not that one (issue 40: at first
// start the status bar had lost it).
void TestMainWindow::messageGivenDuringTheLayoutStays()
{
    // Big enough to be laid out on a worker thread (3,456 hosts, 720 switches). The pool's
    // threads are held until the message is given, so that the layout ends after it, as a
    // discovery's does.
    const Fabric fabric = fatTree(24, 3);
    QThreadPool *pool = QThreadPool::globalInstance();
    QSemaphore hold;
    const auto holdThePool = [pool, &hold] {
        QSemaphore started;
        for (int i = 0; i < pool->maxThreadCount(); ++i)
            pool->start([&started, &hold] {
                started.release();
                hold.acquire();
            });
        started.acquire(pool->maxThreadCount());
    };
    MainWindow window;
    QSignalSpy ready(&window, &MainWindow::sceneReady);
    holdThePool();
    window.showFabric(fabric, Tenancy(), QStringLiteral("first"));
    QVERIFY(!window.isSceneReady());
    QVERIFY2(window.statusBar()->currentMessage().startsWith(QLatin1String("Laying out the fabric")), qPrintable(window.statusBar()->currentMessage()));
    const QString discovered = QStringLiteral("Discovered 4176 node(s) through mlx5_0 port 1; the tables and partitions are those the fabric holds");
    window.statusBar()->showMessage(discovered, 15000);
    hold.release(pool->maxThreadCount());
    QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 60000);
    QCOMPARE(window.statusBar()->currentMessage(), discovered);
    // Alone, the layout's message goes once the picture is ready.
    holdThePool();
    window.showFabric(fabric, Tenancy(), QStringLiteral("second"));
    QVERIFY(window.statusBar()->currentMessage().startsWith(QLatin1String("Laying out the fabric")));
    hold.release(pool->maxThreadCount());
    QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 2, 60000);
    QVERIFY2(window.statusBar()->currentMessage().isEmpty(), qPrintable(window.statusBar()->currentMessage()));
}

void TestMainWindow::largeFatTreeGetsBatchedScene()
{
    // 24 ports, 3 levels: 3,456 hosts and 720 switches, laid out on a worker thread.
    const Fabric fabric = fatTree(24, 3);
    const std::size_t nodes = fabric.nodes().size();
    QVERIFY(nodes > 4000);

    MainWindow window;
    window.resize(1400, 900);
    QSignalSpy ready(&window, &MainWindow::sceneReady);
    window.showFabric(fabric, Tenancy(), QStringLiteral("large"));
    QCOMPARE(window.nodeModel()->rowCount(), int(nodes));  // the table does not wait for the picture
    QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 120000);
    QVERIFY(window.isSceneReady());

    FabricScene *scene = window.fabricScene();
    QCOMPARE(scene->nodeItemCount(), nodes);
    QCOMPARE(scene->rackCount(), window.fabricScene()->layout().rows[1].size());
    // Cables are batched: a handful of layer items, not one item per cable.
    QVERIFY(scene->linkLayerCount() <= std::size_t(scene->layout().topTier + 1));
    // Besides nodes, racks and cable layers: one band per row and the highlight.
    const std::size_t rows = std::size_t(scene->layout().topTier) + 1;
    // Besides nodes, racks and cable layers: one band per row and the two highlights (a route
    // there and back).
    // Every cable drawn as itself (as zoomed in); zoomed out far enough, the fabric is drawn by
    // groups and bundles instead, whose items (one per group and one per bundle, hidden now) stay.
    scene->setAggregated(false);
    const std::size_t aggregates = scene->switchGroups().groups.size() + scene->bundles().size();
    QVERIFY(std::size_t(scene->items().size()) <= nodes + scene->rackCount() + scene->linkLayerCount() + rows + 2 + aggregates);
    QVERIFY(fabric.links().size() > std::size_t(scene->items().size()) - nodes);
    // Host cables are drawn as one trunk per rack.
    const FabricSummary summary = summarize(fabric);
    QCOMPARE(scene->linkLinesDrawn(), summary.switchLinks + scene->rackCount());

    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const QImage picture = window.grab().toImage();
    QVERIFY(!picture.isNull());
}

namespace {

// The row of the partition with this P_Key in the panel's model.
QModelIndex partitionRow(const PartitionTreeModel *model, std::uint16_t pkey)
{
    for (int r = 0; r < model->rowCount(); ++r) {
        const QModelIndex index = model->index(r, 0);
        if (index.data(PartitionTreeModel::PKeyRole).toUInt() == pkey)
            return index;
    }
    return {};
}

Membership membershipOf(const Tenancy &tenancy, std::uint16_t pkey, Guid port, bool *found)
{
    *found = false;
    const Partition *p = tenancy.findPartition(pkey);
    if (p)
        for (const PartitionMember &m : p->members)
            if (m.kind == PartitionMember::Kind::PortGuid && m.guid == port) {
                *found = true;
                return m.membership;
            }
    return Membership::Limited;
}

// The demo fabric's first non-default partition, and two hosts in no partition at all.
struct DemoWindow
{
    MainWindow window;
    std::uint16_t pkey = 0;
    bool load()
    {
        QString error;
        if (!window.loadDemoFabric(&error) || !waitForScene(window, 60000))
            return false;
        for (const Partition &p : window.tenancy().partitions)
            if (p.pkey && (*p.pkey & kPKeyMask) != kDefaultPKey) {
                pkey = *p.pkey & kPKeyMask;
                break;
            }
        return pkey != 0;
    }
};

}  // namespace

void TestMainWindow::viewSelectionDropsOntoPartition()
{
    DemoWindow demo;
    QVERIFY(demo.load());
    MainWindow &window = demo.window;
    const Fabric &fabric = *window.fabric();
    // Two hosts that are not yet members of the partition.
    std::vector<NodeIndex> hosts;
    for (NodeIndex n : fabric.endNodes()) {
        bool member = false;
        membershipOf(window.tenancy(), demo.pkey, fabric.port(fabric.node(n).firstPort + 1).guid, &member);
        if (!member)
            hosts.push_back(n);
        if (hosts.size() == 2)
            break;
    }
    QCOMPARE(hosts.size(), std::size_t(2));
    window.fabricScene()->selectNodes(hosts);
    const std::vector<Guid> ports = window.fabricScene()->selectedPortGuids();
    QCOMPARE(ports.size(), std::size_t(2));
    // The payload the view's drag carries, dropped on the panel's partition row.
    std::unique_ptr<QMimeData> payload(makePortsMimeData(ports));
    PartitionTreeModel *model = window.partitionPanel()->partitionModel();
    QAbstractItemModelTester tester(model);
    const QModelIndex target = partitionRow(model, demo.pkey);
    QVERIFY(target.isValid());
    QVERIFY(model->canDropMimeData(payload.get(), Qt::CopyAction, -1, -1, target));
    QVERIFY(model->dropMimeData(payload.get(), Qt::CopyAction, -1, -1, target));
    for (Guid g : ports) {
        bool member = false;
        membershipOf(window.tenancy(), demo.pkey, g, &member);
        QVERIFY(member);
    }
    QUndoStack *undo = window.document()->undoStack();
    QCOMPARE(undo->count(), 1);
    undo->undo();
    for (Guid g : ports) {
        bool member = true;
        membershipOf(window.tenancy(), demo.pkey, g, &member);
        QVERIFY(!member);
    }
    undo->redo();
    bool member = false;
    membershipOf(window.tenancy(), demo.pkey, ports.front(), &member);
    QVERIFY(member);
    // The scene follows the document: the host now has its partition's colour.
    QVERIFY(window.fabricScene()->toolTipFor(hosts.front()).contains(QStringLiteral("0x%1").arg(demo.pkey, 4, 16, QLatin1Char('0'))));
}

void TestMainWindow::tenantDropsOntoPartition()
{
    DemoWindow demo;
    QVERIFY(demo.load());
    MainWindow &window = demo.window;
    QVERIFY(!window.tenancy().tenants.empty());
    TenantListModel *tenants = window.partitionPanel()->tenantModel();
    QAbstractItemModelTester tenantTester(tenants);
    // A tenant none of whose hosts is in the target partition yet, if there is one.
    QModelIndex tenantRow;
    std::vector<Guid> members;
    for (int r = 0; r < tenants->rowCount() && !tenantRow.isValid(); ++r) {
        const QModelIndex index = tenants->index(r, 0);
        const QString name = index.data(TenantListModel::TenantRole).toString();
        for (const Tenant &t : window.tenancy().tenants) {
            if (t.name != name)
                continue;
            bool any = false;
            for (Guid g : t.members) {
                bool member = false;
                membershipOf(window.tenancy(), demo.pkey, g, &member);
                any = any || member;
            }
            if (!any) {
                tenantRow = index;
                members = t.members;
            }
        }
    }
    QVERIFY2(tenantRow.isValid(), "the demo has a tenant outside its first partition");
    std::unique_ptr<QMimeData> payload(tenants->mimeData({tenantRow}));
    QVERIFY(payload);
    PartitionTreeModel *model = window.partitionPanel()->partitionModel();
    QVERIFY(model->dropMimeData(payload.get(), Qt::CopyAction, -1, -1, partitionRow(model, demo.pkey)));
    for (Guid g : members) {
        bool member = false;
        membershipOf(window.tenancy(), demo.pkey, g, &member);
        QVERIFY(member);
    }
    QUndoStack *undo = window.document()->undoStack();
    QCOMPARE(undo->count(), 1);
    undo->undo();
    bool member = true;
    membershipOf(window.tenancy(), demo.pkey, members.front(), &member);
    QVERIFY(!member);
    undo->redo();
    membershipOf(window.tenancy(), demo.pkey, members.front(), &member);
    QVERIFY(member);
}

void TestMainWindow::policyAndWeightEditsAreUndoable()
{
    DemoWindow demo;
    QVERIFY(demo.load());
    MainWindow &window = demo.window;
    PolicyTableModel *policies = window.policyEditor()->model();
    QAbstractItemModelTester policyTester(policies);
    int row = -1;
    for (int r = 0; r < policies->rowCount(); ++r)
        if (policies->index(r, PolicyTableModel::KeyColumn).data().toString().contains(QString::number(demo.pkey, 16)))
            row = r;
    QVERIFY(row >= 0);
    const IsolationPolicy before = window.tenancy().findPartition(demo.pkey)->policy;
    const IsolationPolicy after = before == IsolationPolicy::Physical ? IsolationPolicy::VirtualLane : IsolationPolicy::Physical;
    QVERIFY(policies->setData(policies->index(row, PolicyTableModel::PolicyColumn), int(after)));
    QCOMPARE(window.tenancy().findPartition(demo.pkey)->policy, after);

    WeightTableModel *weights = window.weightTable()->model();
    QAbstractItemModelTester weightTester(weights);
    QVERIFY(weights->rowCount() > 0);
    const std::map<Guid, double> weightsBefore = window.tenancy().nodeWeights;
    const double oldWeight = weights->index(0, WeightTableModel::WeightColumn).data(Qt::EditRole).toDouble();
    const double newWeight = oldWeight == 4.5 ? 5.5 : 4.5;
    QVERIFY(weights->setData(weights->index(0, WeightTableModel::WeightColumn), newWeight));
    QVERIFY(window.tenancy().nodeWeights != weightsBefore);
    QCOMPARE(weights->index(0, WeightTableModel::WeightColumn).data(Qt::EditRole).toDouble(), newWeight);

    QUndoStack *undo = window.document()->undoStack();
    QCOMPARE(undo->count(), 2);
    undo->undo();
    QVERIFY(window.tenancy().nodeWeights == weightsBefore);
    undo->undo();
    QCOMPARE(window.tenancy().findPartition(demo.pkey)->policy, before);
    undo->redo();
    undo->redo();
    QCOMPARE(window.tenancy().findPartition(demo.pkey)->policy, after);
    QVERIFY(window.tenancy().nodeWeights != weightsBefore);
}

void TestMainWindow::previewShowsCoreMetrics_data()
{
    QTest::addColumn<QString>("engine");
    QTest::addColumn<QString>("currentEngine");  // tables loaded as the current LFT dump; "" none
    QTest::addRow("ftree, no current tables") << QStringLiteral("ftree") << QString();
    QTest::addRow("minhop over current updn") << QStringLiteral("minhop") << QStringLiteral("updn");
}

void TestMainWindow::previewShowsCoreMetrics()
{
    QFETCH(QString, engine);
    QFETCH(QString, currentEngine);
    DemoWindow demo;
    QVERIFY(demo.load());
    MainWindow &window = demo.window;
    const Fabric &fabric = *window.fabric();
    QTemporaryDir dir;
    std::optional<ForwardingTables> current;
    if (!currentEngine.isEmpty()) {
        Result<Routing> routing = routeFabric(currentEngine, fabric, window.tenancy());
        QVERIFY2(routing, qPrintable(routing ? QString() : routing.error().toString()));
        const QString path = dir.filePath(QStringLiteral("current.lfts"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(writeLftDump(routing.value().tables, &fabric));
        file.close();
        QString error;
        QVERIFY2(window.openLftDump(path, &error), qPrintable(error));
        current = routing.value().tables;
    }
    RoutingPreview *preview = window.routingPreview();
    QSignalSpy finished(preview, &RoutingPreview::finished);
    preview->setEngine(engine);
    preview->start();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
    QCOMPARE(finished.first().first().toBool(), true);
    QVERIFY(preview->result());

    // What `weft metrics` computes for the same tables: core's computeMetrics.
    Result<Routing> expectedRouting = routeFabric(engine, fabric, window.tenancy());
    QVERIFY(expectedRouting);
    QVERIFY(*preview->result()->proposed.tables == expectedRouting.value().tables);
    const Metrics expected = computeMetrics(fabric, window.tenancy(), expectedRouting.value().tables, preview->trafficModel());
    const QTableWidget *table = preview->comparisonTable();
    const auto cell = [table](int row, int column) { return table->item(row, column)->text(); };
    QCOMPARE(cell(RoutingPreview::MaxLoadRow, RoutingPreview::ProposedColumn), RoutingPreview::formatNumber(expected.allLoad.max));
    QCOMPARE(cell(RoutingPreview::MeanLoadRow, RoutingPreview::ProposedColumn), RoutingPreview::formatNumber(expected.allLoad.mean));
    QCOMPARE(cell(RoutingPreview::StddevLoadRow, RoutingPreview::ProposedColumn), RoutingPreview::formatNumber(expected.allLoad.stddev));
    QCOMPARE(cell(RoutingPreview::MaxRoutesRow, RoutingPreview::ProposedColumn), RoutingPreview::formatNumber(expected.allRoutes.max));
    QCOMPARE(cell(RoutingPreview::SharedLinksRow, RoutingPreview::ProposedColumn), RoutingPreview::formatNumber(double(expected.sharedLinks)));
    QCOMPARE(cell(RoutingPreview::InterferenceRow, RoutingPreview::ProposedColumn), RoutingPreview::formatNumber(double(expected.interference)));
    if (current) {
        const Metrics before = computeMetrics(fabric, window.tenancy(), *current, preview->trafficModel());
        QCOMPARE(cell(RoutingPreview::MaxLoadRow, RoutingPreview::CurrentColumn), RoutingPreview::formatNumber(before.allLoad.max));
        QCOMPARE(cell(RoutingPreview::SharedLinksRow, RoutingPreview::CurrentColumn), RoutingPreview::formatNumber(double(before.sharedLinks)));
    } else {
        QCOMPARE(cell(RoutingPreview::MaxLoadRow, RoutingPreview::CurrentColumn), QStringLiteral("—"));
    }
    // The picture now shows the proposal, and the diff review has it.
    QCOMPARE(window.shownRouting(), MainWindow::ShownRouting::Proposed);
    QCOMPARE(window.fabricScene()->maxCableLoad(), std::max(expected.allLoad.max, [&] {
        double m = 0;
        for (const LinkLoad &l : expected.links)
            m = std::max(m, l.load);
        return m;
    }()));
    QVERIFY(window.diffReview()->hasPlan());
    const ReconfigurationDiff diff = diffForwardingTables(current ? *current : ForwardingTables(), expectedRouting.value().tables, &fabric);
    QCOMPARE(window.diffReview()->diff().changedBlocks, diff.changedBlocks);
    QCOMPARE(window.diffReview()->switchTable()->rowCount(), int(diff.switches.size()));
}

void TestMainWindow::diffReviewWritesPlanFiles()
{
    DemoWindow demo;
    QVERIFY(demo.load());
    MainWindow &window = demo.window;
    QVERIFY(runPreviewAndWait(window, QStringLiteral("ftree"), 60000));
    // An edit after the preview: the plan carries the partitions as they are now.
    const IsolationPolicy before = window.tenancy().findPartition(demo.pkey)->policy;
    const IsolationPolicy after = before == IsolationPolicy::Physical ? IsolationPolicy::VirtualLane : IsolationPolicy::Physical;
    window.document()->setPolicy(demo.pkey, after);
    QTemporaryDir dir;
    QString error;
    QVERIFY2(window.diffReview()->writePlanFiles(dir.path(), &error), qPrintable(error));
    Result<ForwardingTables> written = readLftDumpFile(dir.filePath(QStringLiteral("plan.lfts")), window.fabric());
    QVERIFY2(written, qPrintable(written ? QString() : written.error().toString()));
    QVERIFY(written.value() == *window.routingPreview()->result()->proposed.tables);
    QFile conf(dir.filePath(QStringLiteral("partitions.conf")));
    QVERIFY(conf.open(QIODevice::ReadOnly));
    const QByteArray text = conf.readAll();
    QCOMPARE(text, window.diffReview()->plannedPartitionsConf());
    QVERIFY(text.contains(policyName(after).toUtf8()));
    QVERIFY(window.diffReview()->partitionsDiffText().contains(policyName(after)));
}

void TestMainWindow::diffReviewShowsPoliciesBeforeApprove()
{
    DemoWindow demo;
    QVERIFY(demo.load());
    MainWindow &window = demo.window;
    window.document()->setPolicyMode(PolicyMode::BestEffort);
    QVERIFY(runPreviewAndWait(window, QStringLiteral("ftree"), 60000));
    DiffReview *review = window.diffReview();
    const std::vector<PartitionIsolationReport> &reports = window.document()->session()->proposal()->proposed.validation.partitions;
    QVERIFY(!reports.empty());
    const QTableWidget *table = review->policyTable();
    QCOMPARE(table->rowCount(), int(reports.size()));
    // The VL is the SL as the commit has OpenSM map it (SL 0 and unplanned SLs on VL 0).
    std::map<std::uint16_t, int> levels;
    for (const PartitionIsolationReport &r : reports)
        if (r.virtualLane)
            levels[r.pkey] = r.virtualLane;
    const Result<SlToVl> slToVl = planSlToVl(levels);
    int unmet = 0;
    for (int row = 0; row < table->rowCount(); ++row) {
        const PartitionIsolationReport &r = reports[std::size_t(row)];
        QVERIFY(table->item(row, DiffReview::PartitionColumn)->text().startsWith(r.name));
        QCOMPARE(table->item(row, DiffReview::PolicyColumn)->text(), policyName(r.policy));
        QCOMPARE(table->item(row, DiffReview::MetColumn)->text().startsWith(QStringLiteral("yes")), r.satisfied());
        QCOMPARE(table->item(row, DiffReview::SlColumn)->text(), QString::number(r.virtualLane));
        QCOMPARE(table->item(row, DiffReview::VlColumn)->text(), QString::number(slToVl ? (*slToVl)[std::size_t(r.virtualLane)] : r.virtualLane));
        unmet += r.satisfied() ? 0 : 1;
    }
    // ftree on the demo breaks phy-isolation: Approve waits for the violations to be accepted.
    QVERIFY(unmet > 0);
    QVERIFY(!review->violations().isEmpty());
    auto *accept = review->findChild<QCheckBox *>(QStringLiteral("acceptViolations"));
    auto *approve = review->findChild<QPushButton *>(QStringLiteral("approveButton"));
    QVERIFY(accept && approve);
    QVERIFY(!accept->isHidden());
    QVERIFY(accept->isEnabled());
    QVERIFY(!approve->isEnabled());
    accept->setChecked(true);
    QVERIFY(approve->isEnabled());

    // Strict mode: nothing to accept, Approve stays off.
    window.document()->setPolicyMode(PolicyMode::Strict);
    QVERIFY(runPreviewAndWait(window, QStringLiteral("ftree"), 60000));
    QVERIFY(!accept->isEnabled());
    QVERIFY(!approve->isEnabled());
}

void TestMainWindow::twoHostsShowTheirRouteBothWays_data()
{
    QTest::addColumn<int>("radix");
    QTest::addColumn<int>("levels");
    QTest::addColumn<int>("hopsEachWay");  // across the tree: host, levels-1 up, as many down, host
    QTest::addRow("2-level, radix 8") << 8 << 2 << 4;
    QTest::addRow("3-level, radix 8") << 8 << 3 << 6;
}

void TestMainWindow::twoHostsShowTheirRouteBothWays()
{
    QFETCH(int, radix);
    QFETCH(int, levels);
    QFETCH(int, hopsEachWay);
    auto fabric = std::make_shared<const Fabric>(fatTree(radix, levels));
    FabricScene scene;
    scene.setFabric(fabric, computeFabricLayout(*fabric));
    Result<Routing> routing = routeFabric(QStringLiteral("ftree"), *fabric, Tenancy());
    QVERIFY(routing);
    scene.setRouting(std::make_shared<const ForwardingTables>(routing.value().tables), nullptr);
    // The first and the last host hang off leaves in different pods, so the route crosses the roots.
    const NodeIndex a = fabric->endNodes().front();
    const NodeIndex b = fabric->endNodes().back();
    bool complete = false;
    const std::vector<PortIndex> there = scene.routePorts(a, b, &complete);
    QVERIFY(complete);
    QCOMPARE(int(there.size()), hopsEachWay);
    QCOMPARE(fabric->port(fabric->port(there.back()).remote).node, b);
    scene.selectNodes({a, b});
    QCOMPARE(int(scene.routeHopsShown()), 2 * hopsEachWay);
    // One host alone: its cables, no route.
    scene.selectNode(a);
    QCOMPARE(scene.routeHopsShown(), std::size_t(0));
    QCOMPARE(scene.highlightedCableCount(), std::size_t(1));
}

void TestMainWindow::loadColouringFollowsMetrics()
{
    auto fabric = std::make_shared<const Fabric>(fatTree(8, 2));
    FabricScene scene;
    scene.setFabric(fabric, computeFabricLayout(*fabric));
    Result<Routing> routing = routeFabric(QStringLiteral("minhop"), *fabric, Tenancy());
    QVERIFY(routing);
    TrafficModel model;
    model.pattern = TrafficPattern::Shift;
    auto metrics = std::make_shared<const Metrics>(computeMetrics(*fabric, Tenancy(), routing.value().tables, model));
    scene.setRouting(std::make_shared<const ForwardingTables>(routing.value().tables), metrics);
    scene.setLinkColouring(LinkColouring::Load);
    // The busiest switch cable is drawn in the darkest colour, an idle one in the idle colour.
    const LinkLoad *busiest = nullptr;
    for (const LinkLoad &l : metrics->links)
        if (l.fromLevel >= 1 && l.toLevel >= 1 && (!busiest || l.load > busiest->load))
            busiest = &l;
    QVERIFY(busiest && busiest->load > 0);
    const LinkIndex link = fabric->port(busiest->from).link;
    const QColor drawn = scene.cableColour(link);
    QVERIFY2(drawn.lightness() < FabricScene::loadColour(0.5).lightness(), qPrintable(drawn.name()));
    scene.setLinkColouring(LinkColouring::Plain);
    QCOMPARE(scene.cableColour(link), FabricScene::linkColour());
}

// The scene follows the document by kind of change. On the fabric `weft bench scene` draws
// (36 ports, 3 levels), a weight edit makes no new picture and regroups no cables; the cables
// take the weight once the metrics computed under it are in, as one recolour. A partition edit
// recolours the host it touches, again without a new picture.
void TestMainWindow::editsRecolourWithoutRebuilding()
{
    auto fabric = std::make_shared<const Fabric>(fatTree(36, 3));
    QCOMPARE(fabric->endNodes().size(), std::size_t(11664));
    Tenancy tenancy;
    Partition tenant;
    tenant.name = QStringLiteral("tenant-a");
    tenant.pkey = 0x0010;
    tenancy.partitions = {tenant};
    const NodeIndex host = fabric->endNodes()[100];
    const Guid hostPort = fabric->port(fabric->node(host).firstPort + 1).guid;

    FabricDocument document;
    FabricScene scene;
    scene.setLinkColouring(LinkColouring::Load);
    scene.setDocument(&document);
    QSignalSpy shown(&scene, &FabricScene::fabricShown);
    document.reset(fabric, tenancy, QStringLiteral("bench scene"));
    QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 120000);
    Result<Routing> routing = routeFabric(QStringLiteral("ftree"), *fabric, tenancy);
    QVERIFY(routing);
    document.session()->setCurrentTables(std::make_shared<const ForwardingTables>(routing.value().tables),
                                         QStringLiteral("ftree"));
    QTRY_VERIFY_WITH_TIMEOUT(scene.metrics() && scene.metrics() == document.session()->currentMetrics().get(), 120000);
    const Metrics *unweighted = scene.metrics();
    const std::size_t builds = scene.sceneBuilds();
    const std::size_t layers = scene.linkLayerRebuilds();
    QCOMPARE(builds, std::size_t(1));

    document.setNodeWeight(hostPort, 40);
    QCOMPARE(scene.sceneBuilds(), builds);
    QCOMPARE(scene.linkLayerRebuilds(), layers);
    QTRY_VERIFY_WITH_TIMEOUT(scene.metrics() != unweighted && scene.metrics(), 120000);
    QCOMPARE(scene.metrics(), document.session()->currentMetrics().get());
    QCOMPARE(scene.sceneBuilds(), builds);
    QCOMPARE(scene.linkLayerRebuilds(), layers + 1);

    const QColor before = scene.nodeItem(host)->fill();
    document.assignPorts({hostPort}, 0x0010, Membership::Full);
    QCOMPARE(scene.nodeItem(host)->fill(), FabricScene::partitionColour(0));
    QVERIFY(before != scene.nodeItem(host)->fill());
    QVERIFY(scene.toolTipFor(host).contains(QStringLiteral("tenant-a")));
    QCOMPARE(scene.sceneBuilds(), builds);
    document.undoStack()->undo();
    QCOMPARE(scene.nodeItem(host)->fill(), before);
    QCOMPARE(scene.sceneBuilds(), builds);
}

void TestMainWindow::findBoxFindsNodes_data()
{
    QTest::addColumn<QString>("how");
    QTest::addRow("by name") << QStringLiteral("name");
    QTest::addRow("by GUID") << QStringLiteral("guid");
    QTest::addRow("by LID") << QStringLiteral("lid");
}

void TestMainWindow::findBoxFindsNodes()
{
    QFETCH(QString, how);
    auto fabric = std::make_shared<const Fabric>(fixtureFabric());
    FabricScene scene;
    scene.setFabric(fabric, computeFabricLayout(*fabric));
    const NodeIndex wanted = fabric->endNodes().back();
    const Node &node = fabric->node(wanted);
    QString text;
    if (how == QLatin1String("name"))
        text = node.description.isEmpty() ? node.name : node.description;
    else if (how == QLatin1String("guid"))
        text = QStringLiteral("0x%1").arg(node.guid, 16, 16, QLatin1Char('0'));
    else
        text = QStringLiteral("lid %1").arg(fabric->nodeLid(wanted));
    QCOMPARE(scene.findNode(text), wanted);
    QCOMPARE(scene.findNode(QStringLiteral("no such node anywhere")), kNoIndex);
}

// View > Language: the system locale by default, or a choice kept in the settings (read by
// main.cpp at the next start, like --lang).
void TestMainWindow::languageIsChosenInTheSettings()
{
    QSettings().remove(QStringLiteral("language"));
    MainWindow window;
    QMenu *language = nullptr;
    for (QMenu *menu : window.findChildren<QMenu *>())
        for (QAction *a : menu->actions())
            if (a->menu() && a->text().remove(QLatin1Char('&')) == QLatin1String("Language"))
                language = a->menu();
    QVERIFY(language);
    QAction *bokmal = nullptr;
    QAction *system = nullptr;
    for (QAction *a : language->actions()) {
        if (a->data().toString() == QLatin1String("nb"))
            bokmal = a;
        if (a->data().toString().isEmpty())
            system = a;
    }
    QVERIFY(bokmal && system);
    QVERIFY(system->isChecked());
    bokmal->trigger();
    QCOMPARE(QSettings().value(QStringLiteral("language")).toString(), QStringLiteral("nb"));
    QVERIFY(bokmal->isChecked() && !system->isChecked());
    system->trigger();
    QVERIFY(!QSettings().contains(QStringLiteral("language")));
}

// The desk on a 1366x768 screen with every dock open: the window's minimum size fits, so the Diff
// Review and Approve are never off-screen; the preview's measures keep their whole names (tooltips)
// and the studio's candidates show every column at the dock's default width.
void TestMainWindow::windowFitsASmallScreen()
{
    MainWindow window;
    QString error;
    QVERIFY2(window.loadDemoFabric(&error), qPrintable(error));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    for (QDockWidget *dock : window.findChildren<QDockWidget *>())
        dock->show();
    QCoreApplication::processEvents();
    const QSize minimum = window.minimumSizeHint().expandedTo(window.minimumSize());
    qInfo("minimum size with every dock open: %dx%d", minimum.width(), minimum.height());
    QVERIFY2(minimum.width() <= 1366 && minimum.height() <= 768, qPrintable(QStringLiteral("%1x%2").arg(minimum.width()).arg(minimum.height())));
    window.resize(1366, 768);
    QCoreApplication::processEvents();
    QCOMPARE(window.size(), QSize(1366, 768));
    // Every dock on screen (each tab group's front tab) lies inside the window.
    for (QDockWidget *dock : window.findChildren<QDockWidget *>())
        if (dock->isVisible() && !dock->isFloating() && !dock->visibleRegion().isEmpty())
            QVERIFY2(window.rect().contains(QRect(dock->mapTo(&window, QPoint(0, 0)), dock->size())), qPrintable(dock->objectName()));
    // Approve, in its dock, is on the screen.
    DeskDocks::raise(window.diffDock());
    QCoreApplication::processEvents();
    auto *approve = window.diffReview()->findChild<QPushButton *>(QStringLiteral("approveButton"));
    QVERIFY(approve && approve->isVisible());
    QVERIFY(window.rect().contains(QRect(approve->mapTo(&window, QPoint(0, 0)), approve->size())));

    // The preview's measure names: whole in the tooltip of each row's measure cell.
    const QTableWidget *table = window.routingPreview()->comparisonTable();
    for (int row = 0; row < table->rowCount(); ++row)
        if (const QTableWidgetItem *item = table->item(row, RoutingPreview::MeasureColumn); item && !item->text().isEmpty())
            QVERIFY2(!item->toolTip().isEmpty(), qPrintable(item->text()));
    // The studio's candidate table, with candidates in it: every column in view at the dock's
    // default width (none cut, no horizontal scrolling).
    Result<Routing> installed = routeFabric(QStringLiteral("ftree"), *window.fabric(), window.tenancy());
    QVERIFY(installed);
    window.document()->session()->setCurrentTables(std::make_shared<const ForwardingTables>(std::move(installed->tables)), QStringLiteral("ftree"));
    ReconfigurationStudio *studio = window.reconfigurationStudio();
    DeskDocks::raise(window.studioDock());
    QSignalSpy planned(studio, &ReconfigurationStudio::finished);
    studio->planCurrentEdits();
    QVERIFY(!planned.isEmpty() || planned.wait(60000));
    QVERIFY(studio->candidateTable()->rowCount() > 0);
    QCoreApplication::processEvents();
    const QTableWidget *candidates = studio->candidateTable();
    int columns = 0;
    // (Sized to their contents; the last one also stretches to the viewport: its own need counts.)
    for (int c = 0; c + 1 < candidates->columnCount(); ++c)
        columns += candidates->horizontalHeader()->sectionSize(c);
    columns += candidates->horizontalHeader()->sectionSizeHint(candidates->columnCount() - 1);
    qInfo("studio table: %d px of columns in a %d px viewport", columns, candidates->viewport()->width());
    QVERIFY(columns <= candidates->viewport()->width());
}

// At 1366x768 (issue 40): no dock asks for more than the screen (nor for more than a third of
// its height, so that the map keeps its room and a dock group shrinks), and each dock, in front,
// shows every table in it with at least five rows in view (or every row it has, when fewer) and
// no control below the edge of a scrolled area.
void TestMainWindow::everyDockShrinksAndEveryTableShowsFiveRows()
{
    MainWindow window;
    QString error;
    QVERIFY2(window.loadDemoFabric(&error), qPrintable(error));
    window.resize(1366, 768);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCOMPARE(window.size(), QSize(1366, 768));
    QStringList problems;
    for (QDockWidget *dock : window.findChildren<QDockWidget *>()) {
        const QSize minimum = dock->minimumSizeHint().expandedTo(dock->minimumSize());
        if (minimum.width() > 1366 || minimum.height() > 768)
            problems << QStringLiteral("%1 needs %2x%3").arg(dock->objectName()).arg(minimum.width()).arg(minimum.height());
        if (minimum.height() > 768 / 3)
            problems << QStringLiteral("%1 does not shrink below %2 px").arg(dock->objectName()).arg(minimum.height());
    }
    const auto checkDock = [&problems](QDockWidget *dock) {
        for (QAbstractItemView *view : dock->findChildren<QAbstractItemView *>()) {
            if (!view->isVisible() || qobject_cast<QHeaderView *>(view) || !view->model())
                continue;
            const int rows = view->model()->rowCount(view->rootIndex());
            int rowHeight = view->sizeHintForRow(0);
            if (rowHeight <= 0)
                rowHeight = view->fontMetrics().height() + 6;
            const int want = std::min(5, std::max(rows, 5)) * rowHeight;
            // In view: the part of the viewport the dock shows (a scrolled dock may hide some).
            const QRect shown = view->viewport()->visibleRegion().boundingRect();
            if (shown.height() + 2 < want)
                problems << QStringLiteral("%1: %2 shows %3 px of rows, five need %4").arg(dock->objectName(), view->objectName()).arg(shown.height()).arg(want);
        }
        for (QAbstractButton *button : dock->findChildren<QAbstractButton *>()) {
            if (!button->isVisibleTo(dock) || button->parent() == nullptr || qobject_cast<QDockWidget *>(button->parentWidget()))
                continue;  // the dock's own title buttons
            if (button->visibleRegion().isEmpty() && button->isVisible())
                problems << QStringLiteral("%1: \"%2\" is below the edge").arg(dock->objectName(), button->text());
        }
    };
    for (QDockWidget *dock : window.findChildren<QDockWidget *>()) {
        DeskDocks::raise(dock);
        QCoreApplication::processEvents();
        checkDock(dock);
        // A dock's own tabs, each in front in turn.
        for (QTabWidget *tabs : dock->findChildren<QTabWidget *>())
            for (int i = 0; i < tabs->count(); ++i) {
                tabs->setCurrentIndex(i);
                QCoreApplication::processEvents();
                checkDock(dock);
            }
    }
    for (const QString &problem : problems)
        qInfo("%s", qPrintable(problem));
    // The Autopilot's Rules tab, once scrolled to its preferred height (its word-wrapped labels'
    // lines) with Open/Save/Check/Apply below the edge, now fits at its minimum.
    const QStringList autopilot = problems.filter(QStringLiteral("autopilotDock"));
    const QStringList others = QStringList(problems.begin(), problems.end()).filter(QRegularExpression(QStringLiteral("^(?!autopilotDock)")));
    QVERIFY2(others.isEmpty(), qPrintable(QStringLiteral("%1 problem(s), listed above").arg(others.size())));
    QVERIFY2(autopilot.isEmpty(), qPrintable(autopilot.join(QLatin1Char('\n'))));
}

// A project keeps the routing engine chosen; opening one over unsaved edits asks first; a new
// project is saved where projects are kept, not in a lab's temporary directory.
void TestMainWindow::projectsKeepTheEngineAndNoEditIsDroppedUnasked()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("demo.weft"));
    {
        MainWindow window;
        QString error;
        QVERIFY2(window.loadDemoFabric(&error), qPrintable(error));
        window.routingPreview()->setEngine(QStringLiteral("pftree"));
        QVERIFY2(window.saveProject(path, &error), qPrintable(error));
        Result<Project> saved = readProjectFile(path);
        QVERIFY(saved);
        QCOMPARE(saved->routingEngine, QStringLiteral("pftree"));
    }
    MainWindow window;
    QString error;
    QVERIFY2(window.loadDemoFabric(&error), qPrintable(error));
    QCOMPARE(window.routingPreview()->engine(), QStringLiteral("ftree"));
    QVERIFY2(window.openProject(path, &error), qPrintable(error));
    QCOMPARE(window.routingPreview()->engine(), QStringLiteral("pftree"));

    // An edit not saved, then File > Open Project…: asked first; Cancel keeps everything.
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const Guid host = window.fabric()->port(window.fabric()->portOf(window.fabric()->endNodes().front(), 1)).guid;
    window.document()->setNodeWeight(host, 3);
    QVERIFY(window.isWindowModified());
    QAction *openProject = nullptr;
    for (QAction *action : window.findChildren<QAction *>())
        if (action->text() == MainWindow::tr("Open &Project…"))
            openProject = action;
    QVERIFY(openProject);
    QString asked;
    QTimer::singleShot(100, &window, [&asked] {
        if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
            asked = box->text();
            box->button(QMessageBox::Cancel)->click();
        }
    });
    openProject->trigger();
    QVERIFY2(asked.contains(QLatin1String("unsaved changes")), qPrintable(asked));
    QCOMPARE(window.tenancy().nodeWeights.at(host), 3.0);

    // Save Project As… starts where projects are kept (the last one's directory here), whatever
    // the working directory.
    QDir::setCurrent(QDir::tempPath());
    QAction *saveAs = nullptr;
    for (QAction *action : window.findChildren<QAction *>())
        if (action->text() == MainWindow::tr("Save Project &As…"))
            saveAs = action;
    QVERIFY(saveAs);
    QString startedIn;
    QTimer::singleShot(100, &window, [&startedIn] {
        if (auto *dialog = qobject_cast<QFileDialog *>(QApplication::activeModalWidget())) {
            startedIn = dialog->directory().absolutePath();
            dialog->reject();
        }
    });
    saveAs->trigger();
    QCOMPARE(startedIn, QFileInfo(path).absolutePath());
    window.document()->undoStack()->setClean();  // nothing to ask when the test's window closes
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
