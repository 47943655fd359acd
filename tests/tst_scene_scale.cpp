// The map at scale: switches grouped into pods or bands (SwitchGroups), and a big fabric drawn
// zoomed out as blocks and bundles, the hottest bundle in the hottest colour, opened by a
// double-click; a small fabric still drawn cable by cable.

#include "FabricItems.h"
#include "FabricLayout.h"
#include "FabricScene.h"
#include "FabricSummary.h"
#include "FabricView.h"
#include "EbbBottlenecks.h"
#include "GeneratedFabrics.h"
#include "Metrics.h"
#include "Partitions.h"
#include "RoutingEngine.h"
#include "SwitchGroups.h"

#include <QDir>
#include <QImage>
#include <QLocale>
#include <QPainterPath>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <memory>
#include <set>

using namespace weft;

namespace {

std::size_t switchCables(const Fabric &fabric)
{
    return summarize(fabric).switchLinks;
}

// Where the tests leave pictures of what they checked, when asked to.
void saveShot(QWidget &widget, const QString &name)
{
    const QString dir = qEnvironmentVariable("WEFT_SCENE_SHOTS");
    if (!dir.isEmpty())
        QVERIFY(widget.grab().save(QDir(dir).filePath(name)));
}

}  // namespace

class TestSceneScale : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void groupsOfAFatTreeArePods_data();
    void groupsOfAFatTreeArePods();
    void twoTierTreeIsCutIntoBands();
    void smallFabricDrawsEveryCable();
    void hottestBundleAtFullZoomOut();
    void bundlesShowThePartitionsTheyCarry();
    void zoomedOutFramesVisitLittle();
    void marksAreDrawnWhereTheyAreInView();
};

void TestSceneScale::groupsOfAFatTreeArePods_data()
{
    QTest::addColumn<int>("radix");
    QTest::addColumn<int>("pods");
    QTest::addColumn<int>("rootBands");
    QTest::addRow("radix 8") << 8 << 8 << 4;     // 16 roots: bands of 4
    QTest::addRow("radix 12") << 12 << 12 << 6;  // 36 roots: bands of 6
}

void TestSceneScale::groupsOfAFatTreeArePods()
{
    QFETCH(int, radix);
    QFETCH(int, pods);
    QFETCH(int, rootBands);
    const GeneratedFabric g = test::generate({FabricShapeKind::SwitchRadix, radix, 3});
    const Fabric &fabric = g.fabric;
    const std::vector<int> tiers = nodeTiers(fabric);
    const SwitchGroups groups = groupSwitches(fabric);

    QCOMPARE(int(groups.groups.size()), pods + rootBands);
    std::size_t grouped = 0;
    for (std::size_t i = 0; i < groups.groups.size(); ++i) {
        const SwitchGroups::Group &group = groups.groups[i];
        const bool isPod = int(i) < pods;
        QCOMPARE(group.kind, isPod ? SwitchGroups::Group::Kind::Pod : SwitchGroups::Group::Kind::Band);
        QCOMPARE(group.lowestTier, isPod ? 1 : 3);
        QCOMPARE(group.highestTier, isPod ? 2 : 3);
        // A pod of a radix-r tree: r/2 leaves and r/2 aggregation switches.
        QCOMPARE(int(group.switches.size()), isPod ? radix : radix * radix / 4 / rootBands);
        for (NodeIndex n : group.switches)
            QCOMPARE(groups.groupOfNode[std::size_t(n)], int(i));
        grouped += group.switches.size();
    }
    QCOMPARE(grouped, fabric.switches().size());
    for (NodeIndex n : fabric.endNodes())
        QCOMPARE(groups.groupOfNode[std::size_t(n)], -1);
    // A cable between tiers 1 and 2 never leaves its pod.
    for (const Link &link : fabric.links()) {
        const NodeIndex a = fabric.port(link.a).node;
        const NodeIndex b = fabric.port(link.b).node;
        if (std::max(tiers[std::size_t(a)], tiers[std::size_t(b)]) == 2 && std::min(tiers[std::size_t(a)], tiers[std::size_t(b)]) == 1)
            QCOMPARE(groups.groupOfNode[std::size_t(a)], groups.groupOfNode[std::size_t(b)]);
    }
    // The same fabric, the same groups.
    QCOMPARE(groupSwitches(fabric).groupOfNode, groups.groupOfNode);
}

void TestSceneScale::twoTierTreeIsCutIntoBands()
{
    // Radix 36, two tiers: 36 leaves and 18 roots, no pods; bands of about √n switches.
    const GeneratedFabric g = test::generate({FabricShapeKind::SwitchRadix, 36, 2});
    const SwitchGroups groups = groupSwitches(g.fabric);
    std::map<int, std::vector<std::size_t>> sizesByTier;
    for (const SwitchGroups::Group &group : groups.groups) {
        QCOMPARE(group.kind, SwitchGroups::Group::Kind::Band);
        QCOMPARE(group.lowestTier, group.highestTier);
        sizesByTier[group.highestTier].push_back(group.switches.size());
    }
    QCOMPARE(sizesByTier[1], (std::vector<std::size_t>{6, 6, 6, 6, 6, 6}));
    QCOMPARE(sizesByTier[2], (std::vector<std::size_t>{5, 5, 5, 3}));
}

void TestSceneScale::smallFabricDrawsEveryCable()
{
    // 128 hosts, 256 switch cables: drawn whole at any zoom, as before there were bundles.
    const GeneratedFabric g = test::generate({FabricShapeKind::SwitchRadix, 8, 3});
    auto fabric = std::make_shared<const Fabric>(g.fabric);
    FabricScene scene;
    scene.setFabric(fabric, computeFabricLayout(*fabric));
    FabricView view;
    view.resize(1200, 800);
    view.setFabricScene(&scene);
    view.fitToWindow();
    // Below the aggregation zoom (the view zooms out no further than half the fitted size).
    scene.setAggregated(true);
    QVERIFY(!scene.canAggregate());
    QVERIFY(!scene.isAggregated());
    QVERIFY(scene.bundles().empty());
    QCOMPARE(scene.linkLinesDrawn(), scene.rackCount() + switchCables(*fabric));
    for (std::size_t l = 0; l < fabric->links().size(); ++l)
        QVERIFY(scene.isCableDrawn(LinkIndex(l)));
}

void TestSceneScale::hottestBundleAtFullZoomOut()
{
    // The 11,664-host tree (`weft gen --radix 36 --levels 3`): 36 pods and 18 bands of 18
    // roots; each band reaches each pod by 18 cables, one bundle.
    const GeneratedFabric g = test::generate({FabricShapeKind::SwitchRadix, 36, 3});
    auto fabric = std::make_shared<const Fabric>(g.fabric);
    QCOMPARE(fabric->endNodes().size(), std::size_t(11664));
    FabricScene scene;
    scene.setFabric(fabric, computeFabricLayout(*fabric));
    QVERIFY(scene.canAggregate());
    QCOMPARE(scene.switchGroups().groups.size(), std::size_t(36 + 18));
    QCOMPARE(scene.bundles().size(), std::size_t(18 * 36));
    for (const FabricScene::Bundle &bundle : scene.bundles())
        QCOMPARE(bundle.links.size(), std::size_t(18));

    // A modest load everywhere, and one cable of one bundle far above the rest.
    std::vector<double> loads(fabric->ports().size());
    for (std::size_t p = 0; p < loads.size(); ++p)
        loads[p] = 1.0 + double(p % 7) * 0.1;
    const int hot = 250;
    const LinkIndex hotLink = scene.bundles()[hot].links[5];
    loads[std::size_t(fabric->links()[std::size_t(hotLink)].b)] = 10.0;
    scene.setLinkColouring(LinkColouring::Load);
    scene.setCableLoads(loads);

    FabricView view;
    view.resize(1600, 1000);
    view.setFabricScene(&scene);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.fitToWindow();
    QVERIFY(view.zoom() < zoom::kAggregateBelow);
    QVERIFY(scene.isAggregated());
    QCOMPARE(scene.hottestBundle(), hot);
    QVERIFY(scene.isBundleShown(hot));
    QCOMPARE(scene.bundleColour(hot), FabricScene::hottestLoadColour());
    for (int b = 0; b < int(scene.bundles().size()); ++b)
        if (b != hot)
            QVERIFY(scene.bundleColour(b) != FabricScene::hottestLoadColour());
    QCOMPARE(scene.bundles()[hot].worstLoad, 10.0);
    // Switch cables are in their bundles, not drawn one by one; the racks' trunks still are.
    QVERIFY(!scene.isCableDrawn(hotLink));
    QCOMPARE(scene.linkLinesDrawn(), scene.rackCount());
    const QString tip = scene.bundleToolTip(hot);
    QVERIFY2(tip.contains(QStringLiteral("18 cable")) && tip.contains(QStringLiteral("worst 10")), qPrintable(tip));
    // On screen: the middle of the bundle is painted in the hottest colour.
    const QLineF line = scene.bundles()[hot].line;
    const QPoint middle = view.mapFromScene(line.center());
    const QImage shot = view.viewport()->grab().toImage();
    QCOMPARE(shot.pixel(middle), FabricScene::hottestLoadColour().rgb());
    saveShot(view, QStringLiteral("h4-zoomed-out.png"));

    // A double-click on it opens it: its cables drawn alone, the hot one in the hottest colour.
    const std::size_t before = scene.linkLinesDrawn();
    QTest::mouseDClick(view.viewport(), Qt::LeftButton, {}, middle);
    QVERIFY(!scene.isBundleShown(hot));
    QVERIFY(scene.isBundleExpanded(hot));
    for (LinkIndex l : scene.bundles()[hot].links) {
        QVERIFY(scene.isCableDrawn(l));
        // Between switches now drawn, the blocks they stood behind put away.
        for (PortIndex end : {fabric->links()[std::size_t(l)].a, fabric->links()[std::size_t(l)].b})
            QVERIFY(scene.nodeItem(fabric->port(end).node)->isVisible());
    }
    QVERIFY(scene.areGroupSwitchesShown(scene.bundles()[hot].upper));
    QVERIFY(scene.areGroupSwitchesShown(scene.bundles()[hot].lower));
    // Only this bundle opened: the others stay bundles.
    QCOMPARE(scene.linkLinesDrawn(), before + scene.bundles()[hot].links.size());
    QVERIFY(scene.isBundleShown(hot == 0 ? 1 : 0));
    QCOMPARE(scene.cableColour(hotLink), FabricScene::hottestLoadColour());
    // Close to the aggregation zoom, at the pod's end, where the cables fan out to its switches.
    for (int i = 0; i < 6; ++i)
        view.zoomIn();
    view.centerOn(line.pointAt(0.85));
    QVERIFY(scene.isAggregated());
    saveShot(view, QStringLiteral("h4-expanded.png"));

    // A switch chosen while it is behind its block comes out, selected.
    const int closed = scene.bundles()[hot == 0 ? 1 : 0].upper;
    const NodeIndex hidden = scene.switchGroups().groups[std::size_t(closed)].switches.front();
    QVERIFY(!scene.nodeItem(hidden)->isVisible());
    scene.selectNode(hidden);
    QVERIFY(scene.nodeItem(hidden)->isVisible());
    QCOMPARE(scene.selectedNodes(), std::vector<NodeIndex>{hidden});

    // Zoomed in past the threshold, everything is drawn cable by cable.
    while (view.zoom() < zoom::kAggregateBelow)
        view.zoomIn();
    QVERIFY(!scene.isAggregated());
    QCOMPARE(scene.linkLinesDrawn(), scene.rackCount() + switchCables(*fabric));
    // And zoomed out again, the groups close.
    view.fitToWindow();
    QVERIFY(scene.isAggregated());
    QVERIFY(scene.isBundleShown(hot));
    // View ▸ Go to Hottest Bundle: centred, opened.
    QVERIFY(view.goToHottestBundle());
    QVERIFY(scene.isBundleExpanded(hot));
    QVERIFY(scene.isAggregated());
}

void TestSceneScale::bundlesShowThePartitionsTheyCarry()
{
    // Radix 16, three tiers: 1,024 hosts, 16 pods, 8 bands of 8 roots. One partition holds the
    // hosts of the first and the last pod: between them its traffic crosses the roots, so the
    // bundles of those two pods carry it and no other bundle does.
    const GeneratedFabric g = test::generate({FabricShapeKind::SwitchRadix, 16, 3});
    auto fabric = std::make_shared<const Fabric>(g.fabric);
    FabricScene scene;
    scene.setFabric(fabric, computeFabricLayout(*fabric));
    QVERIFY(scene.canAggregate());
    const SwitchGroups &groups = scene.switchGroups();
    const int pod = groups.groupOfNode[std::size_t(scene.layout().rows[1].front())];
    const int otherPod = groups.groupOfNode[std::size_t(scene.layout().rows[1].back())];
    QCOMPARE(groups.groups[std::size_t(pod)].kind, SwitchGroups::Group::Kind::Pod);
    QVERIFY(otherPod != pod);
    std::vector<Guid> members;
    for (NodeIndex host : fabric->endNodes()) {
        const Port &port = fabric->port(fabric->node(host).firstPort + 1);
        const int group = groups.groupOfNode[std::size_t(fabric->port(port.remote).node)];
        if (group == pod || group == otherPod)
            members.push_back(port.guid);
    }
    QCOMPARE(members.size(), std::size_t(128));
    Tenancy tenancy;
    tenancy.partitions.push_back(test::partition(QStringLiteral("pod-one"), 0x0010, members));
    Result<Routing> routing = routeFabric(QStringLiteral("ftree"), *fabric, tenancy);
    QVERIFY(routing);
    auto tables = std::make_shared<const ForwardingTables>(std::move(routing.value().tables));
    auto metrics = std::make_shared<const Metrics>(computeMetrics(*fabric, tenancy, *tables));
    scene.setTenancy(tenancy);
    scene.setRouting(tables, metrics);
    scene.setLinkColouring(LinkColouring::Partition);
    scene.setAggregated(true);
    QVERIFY(scene.isAggregated());

    std::size_t carrying = 0;
    for (int b = 0; b < int(scene.bundles().size()); ++b) {
        const FabricScene::Bundle &bundle = scene.bundles()[std::size_t(b)];
        const bool ofThePod = bundle.upper == pod || bundle.lower == pod || bundle.upper == otherPod || bundle.lower == otherPod;
        if (ofThePod) {
            QCOMPARE(scene.bundleColour(b), FabricScene::partitionColour(0));
            QVERIFY2(scene.bundleToolTip(b).contains(QStringLiteral("pod-one")), qPrintable(scene.bundleToolTip(b)));
            ++carrying;
        } else {
            QCOMPARE(scene.bundleColour(b), FabricScene::idleCableColour());
        }
    }
    QCOMPARE(carrying, std::size_t(16));  // from each of the two pods, one to each band of roots
}

void TestSceneScale::zoomedOutFramesVisitLittle()
{
    const GeneratedFabric g = test::generate({FabricShapeKind::SwitchRadix, 36, 3});
    auto fabric = std::make_shared<const Fabric>(g.fabric);
    FabricScene scene;
    scene.setFabric(fabric, computeFabricLayout(*fabric));
    // A shallow index: the cable layers span the picture, and are filed in every leaf they
    // cross. Qt would pick 14 levels (16,384 leaves) for these 13,000 items.
    QVERIFY2(scene.bspTreeDepth() >= 4 && scene.bspTreeDepth() <= 10, qPrintable(QString::number(scene.bspTreeDepth())));

    const auto visibleHosts = [&] {
        std::size_t shown = 0;
        for (NodeIndex h : fabric->endNodes())
            shown += scene.nodeItem(h)->isVisible() ? 1 : 0;
        return shown;
    };
    QCOMPARE(visibleHosts(), fabric->endNodes().size());
    const NodeIndex chosen = fabric->endNodes()[100];
    scene.selectNode(chosen);
    // Collapsed: the racks stand in for their hosts, which leave the picture but the selected.
    scene.setHostsCollapsed(true);
    QCOMPARE(visibleHosts(), std::size_t(1));
    QVERIFY(scene.nodeItem(chosen)->isVisible());
    QCOMPARE(scene.selectedNodes(), std::vector<NodeIndex>{chosen});
    // A host chosen elsewhere (the node table) comes out to be selected.
    const NodeIndex other = fabric->endNodes()[5000];
    scene.selectNodes({other});
    QVERIFY(scene.nodeItem(other)->isVisible());
    QCOMPARE(scene.selectedNodes(), std::vector<NodeIndex>{other});
    // A rubber band over a collapsed rack selects its hosts, as it does zoomed in.
    QSignalSpy selection(&scene, &FabricScene::nodeSelectionChanged);
    const FabricLayout::Rack &rack = scene.layout().racks[7];
    QPainterPath band;
    band.addRect(rack.bounds.adjusted(1, 1, -1, -1));
    scene.selectHostsIn(band);
    QCOMPARE(selection.count(), 1);
    std::vector<NodeIndex> expected = rack.hosts;
    expected.push_back(other);
    std::sort(expected.begin(), expected.end());
    QCOMPARE(scene.selectedNodes(), expected);
    for (NodeIndex h : rack.hosts)
        QVERIFY(scene.nodeItem(h)->isVisible());
    // Zoomed in again, every host is back.
    scene.setHostsCollapsed(false);
    QCOMPARE(visibleHosts(), fabric->endNodes().size());
    QCOMPARE(scene.selectedNodes(), expected);

    // A picture built while collapsed starts with its hosts hidden.
    FabricScene collapsed;
    collapsed.setHostsCollapsed(true);
    collapsed.setFabric(fabric, computeFabricLayout(*fabric));
    for (NodeIndex h : fabric->endNodes())
        QVERIFY(!collapsed.nodeItem(h)->isVisible());
    for (NodeIndex s : fabric->switches())
        QVERIFY(collapsed.nodeItem(s)->isVisible());
}

void TestSceneScale::marksAreDrawnWhereTheyAreInView()
{
    // Zoomed far in on the middle of a long cable: its marks are drawn there, though only a
    // sliver of each is in view (they are cut to the view before they are stroked).
    const GeneratedFabric g = test::generate({FabricShapeKind::SwitchRadix, 16, 3});
    auto fabric = std::make_shared<const Fabric>(g.fabric);
    FabricScene scene;
    scene.setFabric(fabric, computeFabricLayout(*fabric));
    const FabricLayout &layout = scene.layout();
    // The longest cable between the roots and the row below them.
    LinkIndex longest = kNoIndex;
    double length = 0;
    for (std::size_t l = 0; l < fabric->links().size(); ++l) {
        const Link &link = fabric->links()[l];
        const NodeIndex a = fabric->port(link.a).node;
        const NodeIndex b = fabric->port(link.b).node;
        if (std::max(layout.tiers[std::size_t(a)], layout.tiers[std::size_t(b)]) != layout.topTier)
            continue;
        const double d = std::abs(layout.positions[std::size_t(a)].x() - layout.positions[std::size_t(b)].x());
        if (d > length) {
            length = d;
            longest = LinkIndex(l);
        }
    }
    QVERIFY(longest != kNoIndex);
    const Link &link = fabric->links()[std::size_t(longest)];
    const PortIndex from = layout.tiers[std::size_t(fabric->port(link.a).node)] == layout.topTier ? link.a : link.b;
    scene.setEbbBottlenecks({EbbBottleneck{from, 10, 0.5, 2.0}});
    QCOMPARE(scene.ebbBottleneckLabels(), QStringList{QLocale().toString(50.0, 'f', 1) + QStringLiteral(" %")});

    FabricView view;
    view.resize(800, 600);
    view.setFabricScene(&scene);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setZoom(8);
    QCOMPARE(view.zoom(), 8.0);
    const QPointF middle = scene.cableCentre(longest);
    view.centerOn(middle);
    QImage shot = view.viewport()->grab().toImage();
    QCOMPARE(shot.pixelColor(view.mapFromScene(middle)).rgb(), FabricScene::ebbBottleneckColour().rgb());

    // A what-if failure of the same cable: dashed over it, in the what-if colour somewhere
    // along the stretch in view.
    scene.setEbbBottlenecks({});
    scene.setWhatIfMarks({longest}, {});
    QCOMPARE(scene.whatIfMarkCount(), std::size_t(1));
    // A third of the way along, where its cross (at the middle) is out of view.
    NodeIndex upper = fabric->port(link.a).node;
    NodeIndex lower = fabric->port(link.b).node;
    if (layout.tiers[std::size_t(upper)] < layout.tiers[std::size_t(lower)])
        std::swap(upper, lower);
    const QRectF up = layout.nodeRect(*fabric, upper);
    const QRectF low = layout.nodeRect(*fabric, lower);
    const QLineF cable(QPointF(up.center().x(), up.bottom()), QPointF(low.center().x(), low.top()));
    QCOMPARE(cable.center(), scene.cableCentre(longest));
    view.centerOn(cable.pointAt(0.3));
    shot = view.viewport()->grab().toImage();
    std::size_t marked = 0;
    for (int x = 0; x < shot.width(); ++x)
        for (int y = 0; y < shot.height(); ++y)
            marked += shot.pixelColor(x, y).rgb() == FabricScene::whatIfColour().rgb() ? 1 : 0;
    QVERIFY2(marked > 50, qPrintable(QString::number(marked)));
    saveShot(view, QStringLiteral("marks-zoomed-in.png"));
}

QTEST_MAIN(TestSceneScale)
#include "tst_scene_scale.moc"
