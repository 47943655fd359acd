// The first GUI: layout, scene, node table and filter, and the main window around them.

#include "CommitJournalDialog.h"
#include "CommitJournalModel.h"
#include "FabricGenerator.h"
#include "FabricItems.h"
#include "FabricLayout.h"
#include "FabricScene.h"
#include "FabricSummary.h"
#include "FabricView.h"
#include "MainWindow.h"
#include "NodeFilterProxyModel.h"
#include "NodeTableModel.h"
#include "TopologyFile.h"

#include <QAbstractItemModelTester>
#include <QLineEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <map>
#include <set>

using namespace weft;

namespace {

Fabric fatTree(int radix, int levels)
{
    GeneratorOptions options;
    options.shape = FabricShapeKind::SwitchRadix;
    options.radix = radix;
    options.levels = levels;
    Result<GeneratedFabric> generated = generateFabric(options);
    if (!generated)
        qFatal("cannot generate the test fabric: %s", qPrintable(generated.error().toString()));
    return std::move(generated).value().fabric;
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

} // namespace

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
    void malformedFileKeepsPreviousFabric_data();
    void malformedFileKeepsPreviousFabric();
    void demoFabricOpens();

    void selectingNodeHighlightsItsCables();
    void toolTipNamesTheNode();
    void zoomingOutCollapsesRacks();
    void largeFatTreeGetsBatchedScene();
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
    QVERIFY(window.waitForScene(60000));
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

    const auto *partitions = window.findChild<QTreeWidget *>(QStringLiteral("partitionTree"));
    QVERIFY(partitions);
    QCOMPARE(partitions->topLevelItemCount(), int(tenancy.partitions.size()));
    QCOMPARE(partitions->topLevelItem(1)->text(0), QStringLiteral("tenant-a"));
    QCOMPARE(partitions->topLevelItem(1)->text(1), QStringLiteral("0x0010"));
    QCOMPARE(partitions->topLevelItem(1)->text(2), QString::number(tenancy.partitions[1].members.size()));
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
    QVERIFY(window.waitForScene(60000));
    QVERIFY(window.fabric()->switches().size() > 0);
    QCOMPARE(window.nodeModel()->rowCount(), int(window.fabric()->nodes().size()));
    const auto *partitions = window.findChild<QTreeWidget *>(QStringLiteral("partitionTree"));
    QCOMPARE(partitions->topLevelItemCount(), int(window.tenancy().partitions.size()));
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
    QVERIFY(std::size_t(scene->items().size()) <= nodes + scene->rackCount() + scene->linkLayerCount() + rows + 1);
    QVERIFY(fabric.links().size() > std::size_t(scene->items().size()) - nodes);
    // Host cables are drawn as one trunk per rack.
    const FabricSummary summary = summarize(fabric);
    QCOMPARE(scene->linkLinesDrawn(), summary.switchLinks + scene->rackCount());

    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const QImage picture = window.grab().toImage();
    QVERIFY(!picture.isNull());
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
