// The map of real shapes (issue 43): a director's spines and line cards framed as one chassis
// with its leaves below, tiers counted from the compute nodes (three on the 174-switch director
// fabric), SHArP's Aggregation Nodes drawn small beside their switch in no tier, and the map
// fitted at 1366x768 with the legend over no node (issue 40).

#include "DirectorFabric.h"
#include "FabricItems.h"
#include "FabricLayout.h"
#include "FabricScene.h"
#include "FabricSummary.h"
#include "FabricView.h"
#include "NodeRoles.h"
#include "SwitchGroups.h"
#include "TopologyFile.h"

#include <QDir>
#include <QTest>

#include <memory>
#include <set>

using namespace weft;

namespace {

std::shared_ptr<const Fabric> readOrFail(const QByteArray &text, const char *name)
{
    Result<Fabric> read = readTopology(text, QString::fromLatin1(name));
    if (!read)
        qFatal("%s: %s", name, qPrintable(read.error().toString()));
    return std::make_shared<const Fabric>(std::move(read).value());
}

void saveShot(QWidget &widget, const QString &name)
{
    const QString dir = qEnvironmentVariable("WEFT_SCENE_SHOTS");
    if (!dir.isEmpty())
        QVERIFY(widget.grab().save(QDir(dir).filePath(name)));
}

bool isAggregationNode(const Fabric &f, NodeIndex n)
{
    return f.node(n).description == QLatin1String("Mellanox Technologies Aggregation Node");
}

}  // namespace

class TestSceneMap : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void directorIsOneChassisAboveItsLeaves_data();
    void directorIsOneChassisAboveItsLeaves();
    void aggregationNodesBesideTheirSwitchInNoTier();
    void chassisKeepsItsSwitchesTogether();
    void endNodeAboveTheLeavesBesideItsSwitch();
    void zoomedOutDirectorIsOneBlock();
    void fittedLegendCoversNoNode_data();
    void fittedLegendCoversNoNode();
};

void TestSceneMap::directorIsOneChassisAboveItsLeaves_data()
{
    QTest::addColumn<bool>("grouped");
    QTest::addRow("ibnetdiscover -g chassis") << true;
    QTest::addRow("system image GUID alone") << false;
}

// The fabric of issue 43: 174 switches (a director of 18 spines and 18 two-ASIC line cards,
// 120 leaves) and 1,644 CAs, an Aggregation Node on every switch.
void TestSceneMap::directorIsOneChassisAboveItsLeaves()
{
    QFETCH(bool, grouped);
    QByteArray text = test::directorTopology();
    if (!grouped) {
        // The same file without the chassis header: the shared system image GUID tells.
        const qsizetype at = text.indexOf("Chassis 1 (guid");
        QVERIFY(at >= 0);
        text.remove(at, text.indexOf('\n', at) - at + 1);
        text.replace("Non-Chassis Nodes\n-----------------\n", "");
    }
    const std::shared_ptr<const Fabric> fabric = readOrFail(text, "director.topo");
    QCOMPARE(fabric->nodeGroups().empty(), !grouped);
    const FabricSummary summary = summarize(*fabric);
    QCOMPARE(summary.switches, std::size_t(174));
    QCOMPARE(summary.channelAdapters, std::size_t(1644));
    QCOMPARE(summary.serviceNodes, std::size_t(174));
    QCOMPARE(summary.tiers, 3);

    const FabricLayout layout = computeFabricLayout(*fabric);
    QCOMPARE(layout.topTier, 3);
    QCOMPARE(layout.rows[3].size(), std::size_t(18));   // spines
    QCOMPARE(layout.rows[2].size(), std::size_t(36));   // line-card ASICs
    QCOMPARE(layout.rows[1].size(), std::size_t(120));  // leaves
    QCOMPARE(layout.rows[0].size(), std::size_t(1470)); // hosts, the Aggregation Nodes not among them
    QCOMPARE(layout.chassis.size(), std::size_t(1));
    const FabricLayout::Chassis &chassis = layout.chassis.front();
    QCOMPARE(chassis.name, QStringLiteral("sw-dir01:CS7500"));
    QCOMPARE(chassis.switches.size(), std::size_t(54));
    QCOMPARE(chassis.guid, Guid(0x0002c90300ff0000ULL));
    // Spines first, then line cards in the order of their slots.
    QVERIFY(fabric->node(chassis.switches.front()).description.endsWith(QLatin1String("/S01/U1")));
    QVERIFY(fabric->node(chassis.switches[18]).description.endsWith(QLatin1String("/L01/U1")));
    QVERIFY(fabric->node(chassis.switches[19]).description.endsWith(QLatin1String("/L01/U2")));
    QVERIFY(fabric->node(chassis.switches.back()).description.endsWith(QLatin1String("/L18/U2")));
    std::set<NodeIndex> members(chassis.switches.begin(), chassis.switches.end());
    for (NodeIndex n : chassis.switches) {
        QVERIFY(layout.tiers[std::size_t(n)] >= 2);
        QVERIFY(chassis.bounds.contains(layout.nodeRect(*fabric, n)));
    }
    // The leaves and hosts below the frame, none inside it.
    for (int t = 0; t <= 1; ++t)
        for (NodeIndex n : layout.rows[std::size_t(t)]) {
            QVERIFY(!chassis.bounds.intersects(layout.nodeRect(*fabric, n)));
            QVERIFY(layout.positions[std::size_t(n)].y() > chassis.bounds.bottom());
        }
    QVERIFY(layout.bounds.contains(chassis.bounds));
}

void TestSceneMap::aggregationNodesBesideTheirSwitchInNoTier()
{
    for (const QByteArray &text : {test::directorTopology(), test::sharpFatTreeTopology()}) {
        const std::shared_ptr<const Fabric> fabric = readOrFail(text, "sharp.topo");
        const FabricLayout layout = computeFabricLayout(*fabric);
        QCOMPARE(summarize(*fabric).tiers, 3);
        QCOMPARE(layout.topTier, 3);
        std::size_t aggregationNodes = 0;
        const std::set<NodeIndex> hostRow(layout.rows[0].begin(), layout.rows[0].end());
        std::vector<QRectF> besideRects;
        for (NodeIndex n : fabric->endNodes()) {
            if (!isAggregationNode(*fabric, n)) {
                QVERIFY(!layout.isBeside(n));
                continue;
            }
            ++aggregationNodes;
            QCOMPARE(fabric->node(n).role, NodeRole::Service);
            QVERIFY(layout.isBeside(n));
            QVERIFY(!hostRow.count(n));
            const NodeIndex sw = layout.besideOf[std::size_t(n)];
            QCOMPARE(fabric->node(sw).type, NodeType::Switch);
            QCOMPARE(fabric->port(fabric->port(fabric->node(n).firstPort + 1).remote).node, sw);
            // Right of its switch, level with it, and small.
            const QRectF own = layout.nodeRect(*fabric, n);
            const QRectF of = layout.nodeRect(*fabric, sw);
            QVERIFY(own.left() > of.right());
            QVERIFY(own.left() - of.right() < 5);
            QVERIFY(own.center().y() >= of.top() && own.center().y() <= of.bottom());
            QVERIFY(own.width() < of.height());
            besideRects.push_back(own);
        }
        QCOMPARE(aggregationNodes, fabric->switches().size());
        QCOMPARE(layout.beside.size(), aggregationNodes);
        // Beside their own switch, over no other switch.
        for (NodeIndex sw : fabric->switches()) {
            const QRectF r = layout.nodeRect(*fabric, sw);
            for (const QRectF &b : besideRects)
                QVERIFY(!r.intersects(b));
        }
        // Tiers count switches only: every switch in a row of 1..3, the leaves the 72 or 120 with hosts.
        std::size_t inRows = 0;
        for (int t = 1; t <= 3; ++t)
            inRows += layout.rows[std::size_t(t)].size();
        QCOMPARE(inRows, fabric->switches().size());
    }
    // The fat-tree of discrete switches is no chassis.
    const std::shared_ptr<const Fabric> tree = readOrFail(test::sharpFatTreeTopology(), "sharp.topo");
    const FabricLayout layout = computeFabricLayout(*tree);
    QVERIFY(layout.chassis.empty());
    QCOMPARE(layout.rows[1].size(), std::size_t(72));
    QCOMPARE(layout.rows[2].size(), std::size_t(72));
    QCOMPARE(layout.rows[3].size(), std::size_t(36));
}

// Two directors in one file (two fabrics, each a director with its leaves): each chassis's
// switches stay together in their rows, so that the two frames overlap neither each other nor
// a switch of the other.
void TestSceneMap::chassisKeepsItsSwitchesTogether()
{
    test::DirectorOptions first;
    first.spines = 4;
    first.lineCards = 2;
    first.externalPorts = 8;
    first.leaves = 8;
    first.uplinksPerLeaf = 4;
    first.hosts = 16;
    test::DirectorOptions second = first;
    second.chassisName = QStringLiteral("sw-dir02");
    second.chassisNumber = 2;
    second.guidOffset = 0x0000000100000000ULL;
    second.firstLid = 1000;
    const std::shared_ptr<const Fabric> both =
        readOrFail(test::directorTopology(first) + "\n" + test::directorTopology(second), "both.topo");
    QCOMPARE(both->switches().size(), std::size_t(2 * (4 + 4 + 8)));
    const FabricLayout layout = computeFabricLayout(*both);
    QCOMPARE(layout.chassis.size(), std::size_t(2));
    QCOMPARE(layout.chassis[0].name, QStringLiteral("sw-dir01:CS7500"));
    QCOMPARE(layout.chassis[1].name, QStringLiteral("sw-dir02:CS7500"));
    QVERIFY(!layout.chassis[0].bounds.intersects(layout.chassis[1].bounds));
    for (std::size_t c = 0; c < 2; ++c) {
        QCOMPARE(layout.chassis[c].switches.size(), std::size_t(8));
        const std::set<NodeIndex> own(layout.chassis[c].switches.begin(), layout.chassis[c].switches.end());
        for (NodeIndex n : both->switches())
            if (!own.count(n))
                QVERIFY(!layout.chassis[c].bounds.intersects(layout.nodeRect(*both, n)));
    }
}

// A storage node cabled to a spine is no host of a rack (the spine has none): it is drawn beside
// the spine, as a service node is, and the hosts' row holds the compute nodes alone.
void TestSceneMap::endNodeAboveTheLeavesBesideItsSwitch()
{
    test::DirectorOptions small;
    small.spines = 4;
    small.lineCards = 2;
    small.externalPorts = 8;
    small.leaves = 4;
    small.uplinksPerLeaf = 4;
    small.hosts = 8;
    const QByteArray storage = "\nvendid=0x2c9\ndevid=0x1017\ncaguid=0x2c90300e00000\n"
                               "Ca\t1 \"H-0002c90300e00000\"\t\t# \"storage01 HCA-1\"\n"
                               "[1](2c90300e00001) \t\"S-0002c90300a00000\"[20]\t\t# lid 900 lmc 0 "
                               "\"MF0;sw-dir01:CS7500/S01/U1\" lid 1 4xEDR\n";
    const std::shared_ptr<const Fabric> fabric = readOrFail(test::directorTopology(small) + storage, "storage.topo");
    const NodeIndex node = fabric->nodeByGuid(0x0002c90300e00000ULL);
    const NodeIndex spine = fabric->nodeByGuid(0x0002c90300a00000ULL);
    QVERIFY(node != kNoIndex && spine != kNoIndex);
    QCOMPARE(fabric->node(node).role, NodeRole::IO);
    const FabricLayout layout = computeFabricLayout(*fabric);
    QCOMPARE(layout.tiers[std::size_t(spine)], 3);
    QVERIFY(layout.isBeside(node));
    QCOMPARE(layout.besideOf[std::size_t(node)], spine);
    QCOMPARE(layout.rows[0].size(), std::size_t(8));
    // Beside the spine with its Aggregation Node, two a column, overlapping neither.
    std::vector<QRectF> beside;
    for (NodeIndex n : layout.beside)
        if (layout.besideOf[std::size_t(n)] == spine)
            beside.push_back(layout.nodeRect(*fabric, n));
    QCOMPARE(beside.size(), std::size_t(2));
    QVERIFY(!beside[0].intersects(beside[1]));
    for (const QRectF &r : beside) {
        QVERIFY(r.left() > layout.nodeRect(*fabric, spine).right());
        QVERIFY(layout.chassis.front().bounds.contains(r));
    }
}

// Zoomed out, the 174-switch fabric's director is one block (its frame), its leaves in bands of
// about √120, and every bundle runs from the chassis to a band of leaves.
void TestSceneMap::zoomedOutDirectorIsOneBlock()
{
    const std::shared_ptr<const Fabric> fabric = readOrFail(test::directorTopology(), "director.topo");
    FabricScene scene;
    scene.setFabric(fabric, computeFabricLayout(*fabric));
    QVERIFY(scene.canAggregate());
    const SwitchGroups &groups = scene.switchGroups();
    QCOMPARE(groups.groups.front().kind, SwitchGroups::Group::Kind::Chassis);
    QCOMPARE(groups.groups.front().switches.size(), std::size_t(54));
    QCOMPARE(groups.groups.front().lowestTier, 2);
    QCOMPARE(groups.groups.front().highestTier, 3);
    QCOMPARE(scene.groupName(0), QStringLiteral("Chassis sw-dir01:CS7500"));
    std::size_t leafBands = 0;
    for (std::size_t g = 1; g < groups.groups.size(); ++g) {
        QCOMPARE(groups.groups[g].kind, SwitchGroups::Group::Kind::Band);  // no pods of one leaf each
        QCOMPARE(groups.groups[g].highestTier, 1);
        ++leafBands;
    }
    QCOMPARE(leafBands, std::size_t(11));  // 120 leaves in bands of 11
    QCOMPARE(scene.bundles().size(), leafBands);
    for (const FabricScene::Bundle &bundle : scene.bundles())
        QCOMPARE(bundle.upper, 0);
    scene.setAggregated(true);
    QVERIFY(scene.isAggregated());
}

void TestSceneMap::fittedLegendCoversNoNode_data()
{
    QTest::addColumn<QByteArray>("topology");
    QTest::addColumn<bool>("director");
    QTest::addRow("director, 174 switches") << test::directorTopology() << true;
    QTest::addRow("SHArP fat-tree, 180 switches") << test::sharpFatTreeTopology() << false;
    test::DirectorOptions small;
    small.spines = 4;
    small.lineCards = 2;
    small.externalPorts = 8;
    small.leaves = 4;
    small.uplinksPerLeaf = 4;
    small.hosts = 8;
    QTest::addRow("small director") << test::directorTopology(small) << true;
}

// At 1366x768 and at the map's share of a desk that size, fitted: the whole fabric in view, the
// legend over no node, rack, chassis frame or zoomed-out block, with plain cables and with the
// load scale.
void TestSceneMap::fittedLegendCoversNoNode()
{
    QFETCH(QByteArray, topology);
    QFETCH(bool, director);
    const std::shared_ptr<const Fabric> fabric = readOrFail(topology, "map.topo");
    FabricScene scene;
    scene.setFabric(fabric, computeFabricLayout(*fabric));
    for (const QSize size : {QSize(1366, 768), QSize(980, 520)}) {
        FabricView view;
        view.resize(size);
        view.setFabricScene(&scene);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.fitToWindow();
        auto check = [&](const char *what) {
            const QRect legend = view.legendRect();
            QVERIFY2(!legend.isEmpty(), what);
            QVERIFY2(view.viewport()->rect().contains(legend), what);
            std::size_t checked = 0;
            for (QGraphicsItem *item : scene.items()) {
                const int type = item->type();
                if (!item->isVisible()
                    || (type != NodeItem::Type && type != RackItem::Type && type != ChassisItem::Type
                        && type != GroupItem::Type))
                    continue;
                const QRect onScreen = view.mapFromScene(item->sceneBoundingRect()).boundingRect();
                QVERIFY2(!onScreen.intersects(legend), qPrintable(QStringLiteral("%1: the legend %2,%3 %4x%5 covers an item at %6,%7")
                                                                      .arg(QLatin1String(what)).arg(legend.x()).arg(legend.y())
                                                                      .arg(legend.width()).arg(legend.height())
                                                                      .arg(onScreen.x()).arg(onScreen.y())));
                QVERIFY2(view.viewport()->rect().adjusted(-1, -1, 1, 1).contains(onScreen), what);  // all in view
                ++checked;
            }
            QVERIFY(checked >= fabric->switches().size());
        };
        check("plain");
        if (QTest::currentTestFailed())
            return;
        if (director) {
            // The chassis's name where it fits: above its frame at this size.
            QCOMPARE(view.chassisLabelsShown(), std::vector<int>{0});
            // Boxes say what tells switches apart: a chassis's slot, an edge switch's name.
            const FabricLayout &layout = scene.layout();
            QCOMPARE(scene.nodeItem(layout.chassis[0].switches.front())->label(), QStringLiteral("S01/U1"));
            QCOMPARE(scene.nodeItem(layout.rows[1].front())->label().left(14), QStringLiteral("sw-dir01-edge0"));
        }
        saveShot(view, QStringLiteral("map-%1-%2x%3.png").arg(fabric->switches().size()).arg(size.width()).arg(size.height()));
        // Loads bring the load scale into the legend: the fit makes room for it.
        std::vector<double> loads(fabric->ports().size(), 0.0);
        for (std::size_t p = 0; p < loads.size(); ++p)
            loads[p] = double(p % 7);
        scene.setLinkColouring(LinkColouring::Load);
        scene.setCableLoads(std::move(loads));
        check("load");
        if (QTest::currentTestFailed())
            return;
        scene.setLinkColouring(LinkColouring::Plain);
    }
}

QTEST_MAIN(TestSceneMap)
#include "tst_scene_map.moc"
