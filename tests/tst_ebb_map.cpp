// eBB bottlenecks on the map: the links highlighted are exactly the eBB run's top bottlenecks
// (EbbBottlenecks.h), each labelled with the share of the sampled streams it limits; in the desk,
// View ▸ Show eBB Bottlenecks shows those of the Routing Preview's proposal and follows it.

#include "EbbBottlenecks.h"
#include "FabricLayout.h"
#include "FabricScene.h"
#include "GeneratedFabrics.h"
#include "MainWindow.h"
#include "RoutingEngine.h"
#include "SceneReady.h"
#include "RoutingPreview.h"
#include "RoutingProposal.h"

#include <QAction>
#include <QGraphicsLineItem>
#include <QSignalSpy>
#include <QtTest>

using namespace weft;

namespace {

// A 4-ary 2-tree with two switch cables gone: some links must carry more than their share.
Fabric degradedTree()
{
    return test::generateOrFail(test::shapeOptions({FabricShapeKind::KaryNTree, 4, 2, 2}, 3)).fabric;
}

std::vector<PortIndex> portsOf(const std::vector<EbbBottleneck> &bottlenecks)
{
    std::vector<PortIndex> ports;
    for (const EbbBottleneck &b : bottlenecks)
        ports.push_back(b.from);
    return ports;
}

}  // namespace

class TestEbbMap : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void topBottlenecksAreTheRunsMostLimiting()
    {
        const Fabric fabric = degradedTree();
        Result<Routing> routing = routeFabric(QStringLiteral("minhop"), fabric, Tenancy{});
        QVERIFY(routing.ok());
        Result<EffectiveBisection> ebb = EffectiveBisection::prepare(fabric, routing->tables, Tenancy{});
        QVERIFY2(ebb.ok(), ebb.ok() ? "" : qPrintable(ebb.error().toString()));
        EbbRun run;
        run.samples = 400;
        Result<EbbResult> result = ebb->run(run);
        QVERIFY(result.ok());

        const std::vector<EbbBottleneck> top = topEbbBottlenecks(*result, 5);
        QVERIFY(!top.empty());
        QVERIFY(top.size() <= 5);
        const double sampled = double(result->samples) * result->streamsPerSample;
        for (std::size_t i = 0; i < top.size(); ++i) {
            const EbbChannel &c = result->channels[i];  // channels come most limiting first
            QCOMPARE(top[i].from, c.from);
            QCOMPARE(top[i].streams, c.bottleneckStreams);
            QVERIFY(top[i].streams > 0);
            QCOMPARE(top[i].share, double(c.bottleneckStreams) / sampled);
            if (i > 0)
                QVERIFY(top[i].streams <= top[i - 1].streams);
        }

        // The scene highlights exactly those, in that order, with their share as the label.
        FabricScene scene;
        scene.setFabric(std::make_shared<const Fabric>(fabric), computeFabricLayout(fabric));
        scene.setEbbBottlenecks(top);
        QCOMPARE(portsOf(scene.ebbBottlenecks()), portsOf(top));
        const QStringList labels = scene.ebbBottleneckLabels();
        QCOMPARE(labels.size(), int(top.size()));
        for (std::size_t i = 0; i < top.size(); ++i)
            QCOMPARE(labels[int(i)], QLocale().toString(100 * top[i].share, 'f', 1) + QStringLiteral(" %"));
        int highlighted = 0;
        for (QGraphicsItem *item : scene.items())
            if (auto *line = dynamic_cast<QGraphicsLineItem *>(item);
                line && line->pen().color() == FabricScene::ebbBottleneckColour()) {
                ++highlighted;
                QVERIFY(line->toolTip().contains(QLatin1String("of the sampled streams")));
            }
        QCOMPARE(highlighted, int(top.size()));

        scene.setEbbBottlenecks({});
        QVERIFY(scene.ebbBottlenecks().empty());
        QVERIFY(scene.ebbBottleneckLabels().isEmpty());
    }

    void theViewActionShowsThePreviewsBottlenecks()
    {
        const Fabric fabric = degradedTree();
        MainWindow window;
        window.showFabric(fabric, Tenancy{}, QStringLiteral("degraded"));
        QVERIFY(test::waitForScene(window));
        QAction *action = window.ebbBottlenecksAction();
        QVERIFY(action && action->isCheckable());

        // No eBB yet: nothing highlighted.
        action->setChecked(true);
        QVERIFY(window.fabricScene()->ebbBottlenecks().empty());

        // The preview's proposal with eBB: its top bottlenecks appear while the action is on.
        RoutingPreview *preview = window.routingPreview();
        QSignalSpy finished(preview, &RoutingPreview::finished);
        preview->setEngine(QStringLiteral("minhop"));
        preview->setEbbSamples(300);
        preview->start();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QVERIFY(finished.first().first().toBool());
        QVERIFY(preview->result() && preview->result()->proposed.ebb);
        const std::vector<EbbBottleneck> expected = topEbbBottlenecks(*preview->result()->proposed.ebb);
        QVERIFY(!expected.empty());
        QCOMPARE(portsOf(window.fabricScene()->ebbBottlenecks()), portsOf(expected));

        action->setChecked(false);
        QVERIFY(window.fabricScene()->ebbBottlenecks().empty());
        action->setChecked(true);
        QCOMPARE(portsOf(window.fabricScene()->ebbBottlenecks()), portsOf(expected));
    }
};

QTEST_MAIN(TestEbbMap)
#include "tst_ebb_map.moc"
