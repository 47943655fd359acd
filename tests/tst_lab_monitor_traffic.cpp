// The lab driver read by `weft monitor`: the acceptance measured through Weft's own PMA
// reader rather than perfquery. A 4-ary 2-tree in ibsim under OpenSM with `-R file` on ftree
// tables and sweeping off (`-s 0`: no SM traffic between two readings); the driver sends the
// default hot spot (every host to host 0015). `weft monitor --json --counters` runs as a client
// of ibsim, and the test advances the driver by exactly one tick between two of its passes, so
// that each tick of rates after the first covers one tick of the driver:
// (a) the monitor's hottest switch-to-switch link is the model's, and the counters it read moved
//     by the driver's advance within the monitor's own MADs (a few 4-octet units per MAD), so
//     its utilisation is the model's over the monitor's measured interval;
// (b) after `weft commit` of tables that send each leaf's share through a different spine, with
//     the driver following, the monitor's maximum falls to the spread model's.

#include "GeneratedFabrics.h"
#include "Identifiers.h"
#include "LabTools.h"
#include "LabTrafficDriver.h"
#include "LftDump.h"
#include "PartitionsConf.h"
#include "PortTelemetry.h"
#include "RoutingEngine.h"
#include "SafeFile.h"
#include "SimulatedFabric.h"
#include "TopologyFile.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

#include <map>

using namespace weft;

namespace {

using test::describe;

constexpr double kTickSeconds = 2.0;        // the monitor's interval and the driver's tick
constexpr int kMonitorTicks = 4;            // the first has no driver tick in it: MADs only
constexpr std::uint64_t kUnitsPerMad = 72;  // a 256-octet MAD with headers and CRCs, as ibsim counts it
// The driver sets a counter to its total each tick; the monitor's own MADs that cross the port
// between that setting and the monitor's read add to what it reads. From the second driven tick
// on, both readings follow a setting and one pass's MADs in the same order: they differ by few.
// (The first driven tick's earlier reading also holds the monitor's discovery and first pass.)
constexpr std::uint64_t kMadsTolerated = 4;
// The monitor times each port's reading itself and names the interval (`interval_s`): on a busy
// machine two passes read a port tens of milliseconds more or less than one interval apart. The
// driver's advance is one tick's traffic whenever it lands, so the monitor's utilisation scaled
// to the tick is the model's, give or take the monitor's own MADs; the interval itself only has
// to be about one tick.
constexpr double kIntervalTolerance = 0.01;
constexpr double kIntervalJitter = 0.25;
// Without the driver only MADs cross the links: a whole pass of the monitor's (tens of them on the
// links back to its own host) is far below this.
constexpr double kQuietUtilisation = 1e-3;

QString weftBinary()
{
    return qEnvironmentVariable("WEFT_BINARY");
}

// A port as the monitor's JSON names it.
std::pair<QString, int> portKey(const Fabric &fabric, PortIndex port)
{
    const Port &p = fabric.port(port);
    return {guidText(fabric.node(p.node).guid), p.number};
}

bool switchToSwitch(const Fabric &fabric, PortIndex from)
{
    const Port &p = fabric.port(from);
    return p.remote != kNoIndex && fabric.node(p.node).type == NodeType::Switch
        && fabric.node(fabric.port(p.remote).node).type == NodeType::Switch;
}

// One tick of the monitor: its JSON objects by port, and the driver's PortXmitData totals (by
// fabric port) when the tick's pass read them.
struct MonitorTick
{
    std::map<std::pair<QString, int>, QJsonObject> ports;
    std::vector<std::uint64_t> driverXmitData;
};

struct Lab : test::FileRoutedLab
{
    QTemporaryDir dir;
    std::size_t linkedPorts = 0;

    QString path(const char *name) const { return dir.filePath(QLatin1String(name)); }

    QString start()
    {
        GeneratorOptions options = test::shapeOptions({FabricShapeKind::KaryNTree, 4, 2});
        options.linkSpeed = LinkSpeed::SDR;  // what ibsim reports
        const Fabric fabric = test::generateOrFail(options).fabric;
        Result<Routing> ftree = routeFabric(QStringLiteral("ftree"), fabric, Tenancy{});
        if (!ftree)
            return ftree.error().toString();
        Result<test::FileRoutedLab> started = test::startLabOnTables(dir.path(), fabric, ftree->tables, fabric.endNodes().front(),
                                                                     {QStringLiteral("-s"), QStringLiteral("0")});
        if (!started)
            return started.error().toString();
        static_cast<test::FileRoutedLab &>(*this) = std::move(*started);
        for (const Port &p : live.ports())
            linkedPorts += p.present && p.link != kNoIndex;
        return {};
    }

    Result<ForwardingTables> installedTables() const { return test::installedTables(*sim, live); }

    // `weft monitor` for kMonitorTicks ticks; after each tick but the last the driver advances
    // one tick, so that it lands between two passes. The ticks, or why not in `error`.
    std::vector<MonitorTick> monitorWhileDriving(LabTrafficDriver &driver, QString *error) const
    {
        const auto driverTotals = [&] {
            std::vector<std::uint64_t> totals;
            for (PortIndex p = 0; p < PortIndex(live.ports().size()); ++p)
                totals.push_back(driver.counters(p).xmitData);
            return totals;
        };
        QProcess monitor;
        monitor.setProcessEnvironment(sim->clientEnvironment());
        monitor.setWorkingDirectory(sim->workDir());
        monitor.start(weftBinary(), {QStringLiteral("monitor"), QStringLiteral("--json"), QStringLiteral("--counters"), QStringLiteral("--interval"), QString::number(kTickSeconds), QStringLiteral("--count"), QString::number(kMonitorTicks), QStringLiteral("--outstanding-mads"), QStringLiteral("1"), QStringLiteral("--timeout"), QStringLiteral("1000")});
        std::vector<MonitorTick> ticks;
        QByteArray pending;
        QDeadlineTimer deadline(120000);
        while (!deadline.hasExpired()) {
            const bool finished = !monitor.waitForReadyRead(200) && monitor.state() == QProcess::NotRunning;
            pending += monitor.readAllStandardOutput();
            qsizetype newline;
            while ((newline = pending.indexOf('\n')) >= 0) {
                const QByteArray line = pending.left(newline).trimmed();
                pending.remove(0, newline + 1);
                if (line.isEmpty())
                    continue;
                const QJsonObject o = QJsonDocument::fromJson(line).object();
                if (ticks.empty() || ticks.back().ports.size() == linkedPorts)
                    ticks.push_back({{}, driverTotals()});
                ticks.back().ports[{o.value(QStringLiteral("guid")).toString(), o.value(QStringLiteral("port")).toInt()}] = o;
                if (ticks.back().ports.size() == linkedPorts && ticks.size() < std::size_t(kMonitorTicks)) {
                    if (const Status s = driver.tick(*sim, kTickSeconds); !s) {
                        *error = s.error().toString();
                        monitor.kill();
                        monitor.waitForFinished();
                        return {};
                    }
                }
            }
            if (finished)
                break;
        }
        if (monitor.state() != QProcess::NotRunning) {
            monitor.kill();
            monitor.waitForFinished();
            *error = QStringLiteral("weft monitor did not finish within 120 s");
            return {};
        }
        if (monitor.exitCode() != 0 || ticks.size() != std::size_t(kMonitorTicks) || ticks.back().ports.size() != linkedPorts)
            *error = QStringLiteral("weft monitor: exit %1, %2 ticks\n%3")
                         .arg(monitor.exitCode())
                         .arg(ticks.size())
                         .arg(QString::fromUtf8(monitor.readAllStandardError()));
        return ticks;
    }
};

double utilisationOf(const MonitorTick &tick, const Fabric &fabric, PortIndex port)
{
    const auto found = tick.ports.find(portKey(fabric, port));
    return found == tick.ports.end() ? -1 : found->second.value(QStringLiteral("utilisation")).toDouble(-1);
}

double intervalOf(const MonitorTick &tick, const Fabric &fabric, PortIndex port)
{
    const auto found = tick.ports.find(portKey(fabric, port));
    return found == tick.ports.end() ? -1 : found->second.value(QStringLiteral("interval_s")).toDouble(-1);
}

quint64 xmitDataOf(const MonitorTick &tick, const Fabric &fabric, PortIndex port)
{
    const auto found = tick.ports.find(portKey(fabric, port));
    return found == tick.ports.end() ? 0
                                     : quint64(found->second.value(QStringLiteral("counters")).toObject().value(QStringLiteral("PortXmitData")).toDouble());
}

// The switch-to-switch port with the highest utilisation in the monitor's tick.
std::pair<PortIndex, double> hottestSwitchLink(const MonitorTick &tick, const Fabric &fabric)
{
    std::pair<PortIndex, double> hottest{kNoIndex, -1};
    for (PortIndex p = 0; p < PortIndex(fabric.ports().size()); ++p)
        if (switchToSwitch(fabric, p))
            if (const double u = utilisationOf(tick, fabric, p); u > hottest.second)
                hottest = {p, u};
    return hottest;
}

}  // namespace

class TestLabMonitorTraffic : public QObject
{
    Q_OBJECT

    Lab m_lab;

    // The ticks of rates the driver advanced (the second and later) against the model: the
    // hottest switch-to-switch link of each is as hot in the model as the model's hottest, the
    // counters the monitor read on it moved by the driver's advance (give or take the monitor's
    // own MADs), and its utilisation is the model's; in the first tick, without a driver tick,
    // no switch-to-switch link is busy. The monitor's highest utilisation and its link, or why not.
    QString checkTicks(const std::vector<MonitorTick> &ticks, const LabTrafficDriver &driver, double *highest, PortIndex *hotLink) const
    {
        const Fabric &live = m_lab.live;
        const double modelMax = driver.load().maxSwitchLinkUtilisation(live);
        *highest = -1;
        for (std::size_t k = 0; k < ticks.size(); ++k) {
            const auto [hot, u] = hottestSwitchLink(ticks[k], live);
            if (k == 0) {
                if (!(u >= 0 && u <= kQuietUtilisation))
                    return QStringLiteral("no driver tick, yet %1 at %2").arg(directedLinkText(live, hot)).arg(u);
                continue;
            }
            const double model = driver.load().link(hot)->utilisation();
            const double seconds = intervalOf(ticks[k], live, hot);
            if (qAbs(seconds - kTickSeconds) > kTickSeconds * kIntervalJitter)
                return QStringLiteral("%1: read %2 s after the pass before, the interval is %3 s").arg(directedLinkText(live, hot)).arg(seconds).arg(kTickSeconds);
            const double perTick = u * seconds / kTickSeconds;  // the utilisation over one driver tick
            const qint64 moved = qint64(xmitDataOf(ticks[k], live, hot)) - qint64(xmitDataOf(ticks[k - 1], live, hot));
            const qint64 advanced = qint64(ticks[k].driverXmitData[std::size_t(hot)]) - qint64(ticks[k - 1].driverXmitData[std::size_t(hot)]);
            qInfo("tick %zu: %s utilisation %.6f over %.4f s from weft monitor (%.6f over one tick), model %.6f; its "
                  "PortXmitData moved %lld units, the driver advanced it %lld",
                  k, qPrintable(directedLinkText(live, hot)), u, seconds, perTick, model, moved, advanced);
            if (qAbs(model - modelMax) > 1e-12)
                return QStringLiteral("the monitor's hottest link %1 carries %2 in the model, its hottest %3").arg(directedLinkText(live, hot)).arg(model).arg(modelMax);
            if (advanced <= 0 || (k >= 2 && qAbs(moved - advanced) > qint64(kMadsTolerated * kUnitsPerMad)))
                return QStringLiteral("%1: PortXmitData moved %2 units, the driver advanced it %3").arg(directedLinkText(live, hot)).arg(moved).arg(advanced);
            if (qAbs(perTick - model) > model * kIntervalTolerance)
                return QStringLiteral("%1: utilisation %2 over %3 s, model %4").arg(directedLinkText(live, hot)).arg(u).arg(seconds).arg(model);
            if (perTick > *highest) {
                *highest = perTick;
                *hotLink = hot;
            }
        }
        return {};
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QString tools = test::labToolsProblem();
        QVERIFY2(tools.isEmpty(), qPrintable(tools));
        QVERIFY2(QFileInfo(weftBinary()).isExecutable(), "WEFT_BINARY must name the weft executable");
        const QString started = m_lab.start();
        QVERIFY2(started.isEmpty(), qPrintable(started));
    }

    void cleanupTestCase()
    {
        if (m_lab.sim)
            m_lab.sim->stop();
    }

    void monitorSeesTheHotLinkAndItsFall()
    {
        const Fabric &live = m_lab.live;
        Result<ForwardingTables> held = m_lab.installedTables();
        QVERIFY2(held, qPrintable(held ? QString() : held.error().toString()));
        Result<LabWorkload> hot = parseLabWorkload(QStringLiteral("hotspot"), live);
        QVERIFY2(hot, qPrintable(hot ? QString() : hot.error().toString()));
        LabTrafficDriver driver(live, *held, *hot);

        // The model's hot link under ftree: a spine down to the hot spot's leaf, 12 of 15 flows.
        const NodeIndex hotLeaf = live.port(live.port(hot->hotSpot).remote).node;
        PortIndex modelHot = kNoIndex;
        for (const LabLinkTraffic &l : driver.load().links)
            if (switchToSwitch(live, l.from) && (modelHot == kNoIndex || l.carried > driver.load().link(modelHot)->carried))
                modelHot = l.from;
        QVERIFY(modelHot != kNoIndex);
        QCOMPARE(live.port(live.port(modelHot).remote).node, hotLeaf);
        const double ftreeModel = driver.load().maxSwitchLinkUtilisation(live);
        QVERIFY(qAbs(ftreeModel - 12.0 / 15) < 1e-12);

        QVERIFY(driver.tick(*m_lab.sim, kTickSeconds));  // every counter set before the monitor starts
        QString error;
        std::vector<MonitorTick> ticks = m_lab.monitorWhileDriving(driver, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        double ftreeMeasured = 0;
        PortIndex ftreeHot = kNoIndex;
        error = checkTicks(ticks, driver, &ftreeMeasured, &ftreeHot);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(ftreeHot, modelHot);

        // Each other leaf sends the hot spot's share up a spine of its own.
        const Lid hotLid = live.port(hot->hotSpot).lid;
        ForwardingTables spread = *held;
        int leafNumber = 0;
        for (NodeIndex sw : live.switches()) {
            if (sw == hotLeaf || !live.node(sw).description.contains(QLatin1String("leaf")))
                continue;
            std::vector<int> uplinks;
            for (int n = 1; n <= live.node(sw).portCount; ++n)
                if (switchToSwitch(live, live.portOf(sw, n)))
                    uplinks.push_back(n);
            const int i = spread.indexOf(live.node(sw).guid);
            QVERIFY(i >= 0 && !uplinks.empty());
            spread.lft(std::size_t(i)).setPort(hotLid, std::uint8_t(uplinks[std::size_t(leafNumber++) % uplinks.size()]));
        }
        const QString planLfts = m_lab.path("plan.lfts"), planPartitions = m_lab.path("plan-partitions.conf");
        QVERIFY(writeFileAtomically(planLfts, writeLftDump(spread, &live), false));
        QVERIFY(writeFileAtomically(planPartitions, writePartitionsConf(withExplicitDefault({})), false));
        const auto commit = m_lab.sim->runClient(
            weftBinary(), {QStringLiteral("commit"), QStringLiteral("--timeout"), QStringLiteral("60"), QStringLiteral("--plan-lfts"), planLfts, QStringLiteral("--plan-partitions"), planPartitions, QStringLiteral("--plan-topology"), m_lab.topology, QStringLiteral("--opensm-lfts"), m_lab.lfts, QStringLiteral("--opensm-partitions"), m_lab.partitions, QStringLiteral("--opensm-pidfile"), m_lab.pidFile, QStringLiteral("--opensm-log"), m_lab.sim->openSmLogPath()});
        QVERIFY2(commit && commit->exitCode == 0, qPrintable(describe(commit)));
        Result<ForwardingTables> after = m_lab.installedTables();
        QVERIFY2(after, qPrintable(after ? QString() : after.error().toString()));
        QVERIFY(*after == spread);

        // The driver follows the switches' tables; the monitor reads the spread load.
        driver.setTables(*after);
        const double spreadModel = driver.load().maxSwitchLinkUtilisation(live);
        QVERIFY(qAbs(spreadModel - 4.0 / 15) < 1e-12);
        QVERIFY(driver.tick(*m_lab.sim, kTickSeconds));
        ticks = m_lab.monitorWhileDriving(driver, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        double spreadMeasured = 0;
        PortIndex spreadHot = kNoIndex;
        error = checkTicks(ticks, driver, &spreadMeasured, &spreadHot);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(qAbs(spreadMeasured - spreadModel) <= spreadModel * kIntervalTolerance + 1e-5,
                 qPrintable(QStringLiteral("after the commit: the monitor's maximum %1, the model's %2").arg(spreadMeasured).arg(spreadModel)));
        QVERIFY(spreadMeasured < ftreeMeasured);
        qInfo("hot spot on %s, read by weft monitor: highest switch-to-switch utilisation %.4f under ftree (model %.4f, "
              "link %s), %.4f after the commit that spreads it (model %.4f)",
              qPrintable(live.node(live.port(hot->hotSpot).node).description), ftreeMeasured, ftreeModel,
              qPrintable(directedLinkText(live, ftreeHot)), spreadMeasured, spreadModel);
    }

    // `weft bench monitor` on a small tree: Weft's pass answered by every linked port, the
    // perfquery loop over a sample said to be extrapolated, both figures and their ratio.
    void benchMonitorReportsBothSides()
    {
        QProcess bench;
        bench.start(weftBinary(), {QStringLiteral("bench"), QStringLiteral("monitor"), QStringLiteral("--radix"), QStringLiteral("8"), QStringLiteral("--levels"), QStringLiteral("2"), QStringLiteral("--perfquery-sample"), QStringLiteral("10"), QStringLiteral("--scene-radix"), QStringLiteral("0"), QStringLiteral("--json")});
        QVERIFY(bench.waitForFinished(600000));
        const QByteArray out = bench.readAllStandardOutput();
        QVERIFY2(bench.exitCode() == 0, qPrintable(QString::fromUtf8(out + bench.readAllStandardError())));
        const QJsonObject figures = QJsonDocument::fromJson(out).object();
        // An 8-port 2-level tree: 8 leaves of 4 hosts and 4 uplinks, 4 spines; every cable's two ends.
        QCOMPARE(figures.value(QStringLiteral("ports")).toInt(), 2 * (8 * 4 + 8 * 4));
        QCOMPARE(figures.value(QStringLiteral("perfquery_ports_run")).toInt(), 10);
        QVERIFY(figures.value(QStringLiteral("perfquery_extrapolated")).toBool());
        QVERIFY(figures.value(QStringLiteral("weft_pass_seconds")).toDouble() > 0);
        QVERIFY(figures.value(QStringLiteral("weft_process_seconds")).toDouble() >= figures.value(QStringLiteral("weft_pass_seconds")).toDouble());
        QVERIFY(figures.value(QStringLiteral("perfquery_seconds")).toDouble() > figures.value(QStringLiteral("perfquery_sample_seconds")).toDouble());
        QVERIFY(figures.value(QStringLiteral("ratio_perfquery_to_weft")).toDouble() > 0);
        QVERIFY(!figures.contains(QStringLiteral("scene_recolour_seconds_median")));
    }
};

QTEST_GUILESS_MAIN(TestLabMonitorTraffic)
#include "tst_lab_monitor_traffic.moc"
