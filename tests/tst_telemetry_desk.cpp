// Telemetry in the desk, headless: ticks of measured rates (synthetic here, fed through the
// sampler's one entry) colour the cables "By measured load", mark congestion and errors, fill
// the Telemetry dock busiest first, and a click on a row selects that cable's ends on the map.
// The sampler reads only a discovered fabric: on any other the menu entry is disabled and says why.

#include "FabricItems.h"
#include "FabricLayout.h"
#include "FabricScene.h"
#include "FabricView.h"
#include "GeneratedFabrics.h"
#include "LiveFabric.h"
#include "MainWindow.h"
#include "Screenshots.h"
#include "TelemetryDock.h"
#include "TelemetryHistory.h"
#include "TelemetrySampler.h"

#include <QAction>
#include <QComboBox>
#include <QDateTime>
#include <QDockWidget>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <map>
#include <memory>
#include <set>

using namespace weft;

namespace {

CounterRate rate(double value)
{
    return CounterRate{value, CounterGap::None};
}

// A tick where every cabled port sends at `idle` utilisation, except those in `hot`.
std::vector<TelemetryRecord> tick(const Fabric &f, double time, double idle, const std::map<PortIndex, double> &hot = {})
{
    std::vector<TelemetryRecord> records;
    for (std::size_t p = 0; p < f.ports().size(); ++p) {
        const Port &port = f.ports()[p];
        if (!port.present || port.remote == kNoIndex)
            continue;
        TelemetryRecord r;
        r.time = time;
        r.portIndex = PortIndex(p);
        r.guid = f.node(port.node).guid;
        r.port = port.number;
        const auto it = hot.find(PortIndex(p));
        const double u = it == hot.end() ? idle : it->second;
        r.rates.utilisation = rate(u);
        r.rates.xmitBytes = rate(u * 12.5e9);
        r.rates.rcvBytes = rate(idle * 12.5e9);
        r.rates.xmitWait = rate(0);
        records.push_back(r);
    }
    return records;
}

// The first switch-to-switch link (or host cable).
LinkIndex firstLink(const Fabric &f, bool switchToSwitch)
{
    for (std::size_t l = 0; l < f.links().size(); ++l) {
        const Link &link = f.links()[l];
        const bool both = f.node(f.port(link.a).node).type == NodeType::Switch
            && f.node(f.port(link.b).node).type == NodeType::Switch;
        if (both == switchToSwitch)
            return LinkIndex(l);
    }
    return kNoIndex;
}

// A generated fat-tree on the map, cables coloured by measured load, and the dock beside it.
struct MeasuredDesk
{
    explicit MeasuredDesk(int radix, int levels)
        : fabric(std::make_shared<const Fabric>(test::generate({FabricShapeKind::SwitchRadix, radix, levels}).fabric))
    {
        scene.setFabric(fabric, computeFabricLayout(*fabric));
        scene.setLinkColouring(LinkColouring::Measured);
        dock.setScene(&scene);
    }
    std::shared_ptr<const Fabric> fabric;
    FabricScene scene;
    TelemetryDock dock;
};

bool waitForScene(MainWindow &window)
{
    if (window.isSceneReady())
        return true;
    QSignalSpy ready(&window, &MainWindow::sceneReady);
    return ready.wait(120000) || window.isSceneReady();
}

}  // namespace

class TestTelemetryDesk : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void measuredColouringAndDock();
    void congestionAndErrorsAreMarked();
    void measuredLoadFlowsIntoBundles();
    void samplerNeedsAFabric();
    void samplerSaysWhyItCannotRead();
    void historyFeedsTheTimeSeries();
    void exportWritesTheMonitorsCsvForm();
    void deskOffersMeasuredLoadOnlyForALiveFabric();
    void screenshotViewReadsTheHistory();
};

void TestTelemetryDesk::measuredColouringAndDock()
{
    MeasuredDesk desk(8, 3);
    const std::shared_ptr<const Fabric> &fabric = desk.fabric;
    FabricScene &scene = desk.scene;
    TelemetryDock &dock = desk.dock;
    TelemetrySampler sampler;
    connect(&sampler, &TelemetrySampler::sampled, &dock, [&] {
        scene.setMeasuredTelemetry(sampler.latest());
        dock.showRecords(sampler.latest());
    });

    const LinkIndex hot = firstLink(*fabric, true);
    const LinkIndex warm = LinkIndex(fabric->links().size() - 1);
    QVERIFY(hot != kNoIndex && warm != hot);
    const Link &hotLink = fabric->links()[std::size_t(hot)];
    QSignalSpy sampled(&sampler, &TelemetrySampler::sampled);
    sampler.takeRecords(tick(*fabric, 1000, 0.05, {{hotLink.b, 0.8}, {fabric->links()[std::size_t(warm)].a, 0.4}}));
    QCOMPARE(sampled.count(), 1);

    // The busiest link is listed first, then the warm one, with its utilisation.
    QVERIFY(dock.rows().size() >= 2);
    QCOMPARE(dock.rows()[0].link, hot);
    QCOMPARE(dock.rows()[1].link, warm);
    QCOMPARE(dock.table()->rowCount(), int(std::min<std::size_t>(dock.rows().size(), TelemetryDock::kRowsShown)));
    QVERIFY(dock.table()->item(0, 1)->text().contains(QLocale().toString(80.0, 'f', 1)));

    // The map: the busiest cable in the hottest colour, an idle-ish one not.
    QCOMPARE(scene.maxCableLoad(), 0.8);
    QCOMPARE(scene.cableColour(hot), FabricScene::hottestLoadColour());
    QVERIFY(scene.cableColour(warm) != FabricScene::hottestLoadColour());
    // Back to the model's load (none: no routing) and the measured colours go away, then return.
    scene.setLinkColouring(LinkColouring::Load);
    QCOMPARE(scene.maxCableLoad(), 0.0);
    scene.setLinkColouring(LinkColouring::Measured);
    QCOMPARE(scene.cableColour(hot), FabricScene::hottestLoadColour());

    // Clicking the first row selects the cable's two ends on the map.
    dock.resize(600, 500);
    dock.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dock));
    QSignalSpy chosen(&dock, &TelemetryDock::linkSelected);
    const QRect cell = dock.table()->visualItemRect(dock.table()->item(0, 0));
    QTest::mouseClick(dock.table()->viewport(), Qt::LeftButton, {}, cell.center());
    QCOMPARE(chosen.count(), 1);
    QCOMPARE(dock.selectedLink(), hot);
    std::vector<NodeIndex> selected = scene.selectedNodes();
    std::sort(selected.begin(), selected.end());
    std::vector<NodeIndex> ends{fabric->port(hotLink.a).node, fabric->port(hotLink.b).node};
    std::sort(ends.begin(), ends.end());
    QCOMPARE(selected, ends);

    // A new tick where another link is busiest re-orders the table.
    sampler.takeRecords(tick(*fabric, 1010, 0.05, {{fabric->links()[std::size_t(warm)].b, 0.9}}));
    QCOMPARE(dock.rows()[0].link, warm);
    QCOMPARE(scene.cableColour(warm), FabricScene::hottestLoadColour());
    QVERIFY(scene.cableColour(hot) != FabricScene::hottestLoadColour());
}

void TestTelemetryDesk::congestionAndErrorsAreMarked()
{
    MeasuredDesk desk(8, 2);
    const std::shared_ptr<const Fabric> &fabric = desk.fabric;
    FabricScene &scene = desk.scene;
    TelemetryDock &dock = desk.dock;

    const LinkIndex congestedLink = firstLink(*fabric, true);
    const Link &link = fabric->links()[std::size_t(congestedLink)];
    std::vector<TelemetryRecord> records = tick(*fabric, 2000, 0.1);
    for (TelemetryRecord &r : records) {
        if (r.portIndex == link.a)
            r.rates.xmitWait = rate(5000);
        if (r.portIndex == link.b)
            r.rates.errors[std::size_t(PortErrorCounter::SymbolError)] = CounterDelta{3, CounterGap::None};
    }
    scene.setMeasuredTelemetry(records);
    dock.showRecords(records);
    QCOMPARE(scene.congestionMarkCount(), std::size_t(1));
    QCOMPARE(scene.errorBadgeCount(), std::size_t(1));
    bool legendCongestion = false;
    for (const FabricScene::Swatch &s : scene.colourSwatches())
        legendCongestion = legendCongestion || s.colour == FabricScene::congestionColour();
    QVERIFY(legendCongestion);

    // The most congested link first, with its xmit_wait/s and errors.
    dock.setOrder(TelemetryDock::Order::MostCongested);
    QCOMPARE(dock.rows()[0].link, congestedLink);
    QCOMPARE(dock.rows()[0].xmitWait, 5000.0);
    QCOMPARE(dock.rows()[0].errors, std::uint64_t(3));
    QCOMPARE(dock.table()->item(0, 3)->text(), QStringLiteral("3"));

    // Hovering the cable gives both directions' rates and the error deltas.
    const QPointF a = scene.nodeItem(fabric->port(link.a).node)->sceneBoundingRect().center();
    const QPointF b = scene.nodeItem(fabric->port(link.b).node)->sceneBoundingRect().center();
    const QString tip = scene.cableToolTipAt((a + b) / 2, 20);
    QVERIFY2(tip.contains(QLatin1String("xmit wait")), qPrintable(tip));
    QVERIFY2(tip.contains(QLatin1String("SymbolError +3")), qPrintable(tip));
    // The next tick without errors: no error in the tooltip, no badge.
    scene.setMeasuredTelemetry(tick(*fabric, 2010, 0.1));
    QCOMPARE(scene.errorBadgeCount(), std::size_t(0));
    const QString calm = scene.cableToolTipAt((a + b) / 2, 20);
    QVERIFY2(calm.contains(QLatin1String("xmit wait")) && !calm.contains(QLatin1String("SymbolError")), qPrintable(calm));

    // An empty tick clears the marks.
    scene.setMeasuredTelemetry({});
    QCOMPARE(scene.congestionMarkCount(), std::size_t(0));
}

void TestTelemetryDesk::measuredLoadFlowsIntoBundles()
{
    // 2,048 switch cables: zoomed out, drawn as pods and bundles.
    MeasuredDesk desk(16, 3);
    const Fabric &f = *desk.fabric;
    FabricScene &scene = desk.scene;
    QVERIFY(scene.canAggregate());
    scene.setAggregated(true);
    QVERIFY(scene.isAggregated());
    // A cable between two pods' switches: in a bundle, not drawn alone.
    LinkIndex hot = kNoIndex;
    for (std::size_t l = 0; l < f.links().size() && hot == kNoIndex; ++l)
        if (!scene.isCableDrawn(LinkIndex(l)))
            hot = LinkIndex(l);
    QVERIFY(hot != kNoIndex);
    const Link &link = f.links()[std::size_t(hot)];
    std::vector<TelemetryRecord> records = tick(f, 4000, 0.02, {{link.a, 0.95}});
    for (TelemetryRecord &r : records)
        if (r.portIndex == link.a)
            r.rates.xmitWait = rate(100);
    scene.setMeasuredTelemetry(records);

    const int hottest = scene.hottestBundle();
    QVERIFY(hottest >= 0);
    const std::vector<LinkIndex> &carried = scene.bundles()[std::size_t(hottest)].links;
    QVERIFY(std::find(carried.begin(), carried.end(), hot) != carried.end());
    QCOMPARE(scene.bundleColour(hottest), FabricScene::hottestLoadColour());
    // Its congestion shows once the cable is drawn on its own, not while it is bundled.
    QCOMPARE(scene.congestionMarkCount(), std::size_t(0));
    scene.setAggregated(false);
    QCOMPARE(scene.congestionMarkCount(), std::size_t(1));
    QCOMPARE(scene.cableColour(hot), FabricScene::hottestLoadColour());
}

void TestTelemetryDesk::samplerNeedsAFabric()
{
    TelemetrySampler sampler;
    QCOMPARE(sampler.interval(), 10.0);
    QVERIFY(!sampler.start());
    QVERIFY(!sampler.isRunning());
}

void TestTelemetryDesk::samplerSaysWhyItCannotRead()
{
    // The worker thread's first pass fails (there is no such adapter): the error reaches the
    // GUI thread and the sampler stops, nothing is sampled.
    MeasuredDesk desk(4, 2);
    TelemetrySampler sampler;
    LiveOptions options;
    options.caName = QStringLiteral("no-such-adapter");
    sampler.setFabric(desk.fabric, options);
    QSignalSpy failed(&sampler, &TelemetrySampler::failed);
    QSignalSpy sampled(&sampler, &TelemetrySampler::sampled);
    QSignalSpy running(&sampler, &TelemetrySampler::runningChanged);
    QVERIFY(sampler.start());
    QVERIFY(sampler.isRunning());
    QVERIFY(failed.wait(30000));
    QVERIFY2(failed.at(0).at(0).toString().contains(QLatin1String("no-such-adapter")), qPrintable(failed.at(0).at(0).toString()));
    QVERIFY(!sampler.isRunning());
    QCOMPARE(running.count(), 2);
    QCOMPARE(sampled.count(), 0);
    // It can be started again (and fails again), and stopped before its first pass ends.
    QVERIFY(sampler.start());
    sampler.stop();
    QVERIFY(!sampler.isRunning());
}

void TestTelemetryDesk::historyFeedsTheTimeSeries()
{
    MeasuredDesk desk(8, 2);
    const std::shared_ptr<const Fabric> &fabric = desk.fabric;
    TelemetryDock &dock = desk.dock;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("history.sqlite"));
    const LinkIndex l = firstLink(*fabric, true);
    const Link &link = fabric->links()[std::size_t(l)];
    const double now = double(QDateTime::currentSecsSinceEpoch());
    {
        Result<std::unique_ptr<TelemetryHistory>> history = TelemetryHistory::open(path, fabricHistoryId(*fabric));
        QVERIFY2(history, qPrintable(history ? QString() : history.error().toString()));
        for (int i = 0; i < 5; ++i)
            QVERIFY((*history)->record(tick(*fabric, now - 300 + 60 * i, 0.1, {{link.a, 0.1 * i}})));
    }
    dock.setHistoryPath(path);
    dock.showRecords(tick(*fabric, now, 0.1, {{link.a, 0.5}}));
    dock.selectLink(l);
    // Both directions of the link, five points each.
    QCOMPARE(dock.seriesCount(), 2);
    QCOMPARE(dock.seriesPoints(0).size(), std::size_t(5));
    QCOMPARE(dock.seriesPoints(0).back().y(), 40.0);
}

// The dock's Export… writes the history in `weft monitor --csv`'s form; without a history it
// says why and writes nothing.
void TestTelemetryDesk::exportWritesTheMonitorsCsvForm()
{
    MeasuredDesk desk(8, 2);
    QTemporaryDir dir;
    const QString csv = dir.filePath(QStringLiteral("export.csv"));
    const Status none = desk.dock.exportCsv(csv);
    QVERIFY(!none);
    QVERIFY2(none.error().message.contains(QStringLiteral("history")), qPrintable(none.error().toString()));
    QVERIFY(!QFileInfo::exists(csv));

    const QString path = dir.filePath(QStringLiteral("history.sqlite"));
    const double now = double(QDateTime::currentSecsSinceEpoch());
    const std::vector<TelemetryRecord> records = tick(*desk.fabric, now - 60, 0.1);
    const std::vector<TelemetryRecord> later = tick(*desk.fabric, now, 0.2);
    std::set<QByteArray> expected;
    for (const auto *t : {&records, &later})
        for (const TelemetryRecord &r : *t)
            expected.insert(telemetryCsvRow(r).trimmed());
    {
        Result<std::unique_ptr<TelemetryHistory>> history = TelemetryHistory::open(path, fabricHistoryId(*desk.fabric));
        QVERIFY2(history, qPrintable(history ? QString() : history.error().toString()));
        QVERIFY((*history)->record(records));
        QVERIFY((*history)->record(later));
    }
    desk.dock.setHistoryPath(path);
    const Status exported = desk.dock.exportCsv(csv);
    QVERIFY2(exported, qPrintable(exported ? QString() : exported.error().toString()));
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().split('\n');
    QCOMPARE(lines.front(), QByteArray("time,guid,port,xmit_bytes_per_s,rcv_bytes_per_s,xmit_wait_per_s,utilisation"));
    QCOMPARE(std::size_t(lines.size()), 1 + 2 * records.size() + 1);  // header, two ticks, the final newline
    QVERIFY(lines.back().isEmpty());
    QCOMPARE(std::set<QByteArray>(lines.begin() + 1, lines.end() - 1), expected);
    QCOMPARE(lines[1].split(',').size(), 7);
}

void TestTelemetryDesk::deskOffersMeasuredLoadOnlyForALiveFabric()
{
    MainWindow window;
    QString error;
    QVERIFY2(window.loadDemoFabric(&error), qPrintable(error));
    QVERIFY(waitForScene(window));
    QAction *action = window.telemetryAction();
    QVERIFY(action);
    QVERIFY(!action->isEnabled());
    QVERIFY2(action->toolTip().contains(QLatin1String("Discover")), qPrintable(action->toolTip()));
    auto *combo = window.findChild<QComboBox *>(QStringLiteral("linkColouringCombo"));
    QVERIFY(combo);
    QVERIFY(combo->findData(int(LinkColouring::Measured)) >= 0);
    QCOMPARE(combo->itemText(combo->findData(int(LinkColouring::Measured))), QStringLiteral("By measured load"));

    // The desk's wiring: a tick through the sampler reaches the map and the dock.
    window.setLinkColouring(LinkColouring::Measured);
    const Fabric &f = *window.fabric();
    const LinkIndex hot = firstLink(f, true);
    window.telemetrySampler()->takeRecords(tick(f, 3000, 0.05, {{f.links()[std::size_t(hot)].a, 0.7}}));
    QCOMPARE(window.telemetryDock()->rows().front().link, hot);
    QCOMPARE(window.fabricScene()->cableColour(hot), FabricScene::hottestLoadColour());

    if (const QString shot = qEnvironmentVariable("WEFT_TELEMETRY_SHOT"); !shot.isEmpty()) {
        window.telemetryDockWidget()->show();
        window.telemetryDockWidget()->raise();
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.fabricView()->fitToWindow();
        window.telemetryDock()->selectLink(hot);
        QTest::qWait(300);
        QVERIFY(window.grab().save(shot));
    }
}

// `--screenshot-view telemetry`: the map by measured load, the busiest cable selected, and its
// hour read back from the history the view wrote: a point a minute in each direction.
void TestTelemetryDesk::screenshotViewReadsTheHistory()
{
    MainWindow window;
    QVERIFY(prepareScreenshot(window, QStringLiteral("telemetry")));
    TelemetryDock *dock = window.telemetryDock();
    QCOMPARE(window.fabricScene()->linkColouring(), LinkColouring::Measured);
    QVERIFY(!window.telemetryDockWidget()->isHidden());
    QCOMPARE(dock->seriesCount(), 2);
    QCOMPARE(dock->seriesPoints(0).size(), std::size_t(60));
    QCOMPARE(dock->seriesPoints(1).size(), std::size_t(60));
    // The hot host's own cable peaks half an hour ago, well above where it ends.
    const std::vector<QPointF> points = dock->seriesPoints(0);
    const auto peak = std::max_element(points.begin(), points.end(), [](const QPointF &a, const QPointF &b) { return a.y() < b.y(); });
    QVERIFY(peak - points.begin() > 20 && peak - points.begin() < 40);
    QVERIFY(peak->y() > 2 * points.back().y());
    QVERIFY2(dock->plotNote().contains(QLatin1String("embedded history")), qPrintable(dock->plotNote()));
}

QTEST_MAIN(TestTelemetryDesk)
#include "tst_telemetry_desk.moc"
