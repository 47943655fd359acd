// The lab as a traffic source (core/live/LabTrafficDriver.h). Without ibsim: the model of a
// hot spot under ftree on a 4-ary 2-tree, exact totals per tick, the workload names. With the
// real ibsim and OpenSM (sweeping off, so that no MAD but perfquery's own crosses a port
// between the driver's PerformanceSet and perfquery's read): (a) after k ticks `perfquery -x`
// reads exactly the driver's totals; (b) under ftree the hot link's utilisation from two
// perfquery readings one tick apart equals the model's; (c) after a commit of tables that
// spread the hot spot over the spines, the highest switch-to-switch utilisation from the
// counters falls (both figures are printed).

#include "GeneratedFabrics.h"
#include "LabTrafficDriver.h"
#include "LabTools.h"
#include "LftDump.h"
#include "PartitionsConf.h"
#include "PortTelemetry.h"
#include "RouteWalk.h"
#include "RoutingEngine.h"
#include "SafeFile.h"
#include "SimulatedFabric.h"
#include "TopologyFile.h"

#include <QtTest>

#include <map>

using namespace weft;

namespace {

using test::describe;

QString weftBinary()
{
    return qEnvironmentVariable("WEFT_BINARY");
}

// The lab's fabric: a 4-ary 2-tree at the speed ibsim reports.
Fabric kary42()
{
    GeneratorOptions options = test::shapeOptions({FabricShapeKind::KaryNTree, 4, 2});
    options.linkSpeed = LinkSpeed::SDR;
    return test::generateOrFail(options).fabric;
}

// The lab's fabric under Weft's ftree, and the default hot spot (host 0015).
struct HotSpotOnFtree
{
    Fabric fabric;
    ForwardingTables tables;
    LabWorkload hot;
};

HotSpotOnFtree hotSpotOnFtree()
{
    HotSpotOnFtree lab{kary42(), {}, {}};
    Result<Routing> ftree = routeFabric(QStringLiteral("ftree"), lab.fabric, Tenancy{});
    Result<LabWorkload> hot = parseLabWorkload(QStringLiteral("hotspot"), lab.fabric);
    if (!ftree || !hot)
        qFatal("%s", qPrintable(!ftree ? ftree.error().toString() : hot.error().toString()));
    lab.tables = ftree->tables;
    lab.hot = *hot;
    return lab;
}

bool betweenSwitches(const Fabric &fabric, const LabLinkTraffic &l)
{
    return fabric.node(fabric.port(l.from).node).type == NodeType::Switch && fabric.node(fabric.port(l.to).node).type == NodeType::Switch;
}

Lid lidOf(const Fabric &fabric, NodeIndex node)
{
    const Port &p = fabric.port(fabric.portOf(node, fabric.node(node).type == NodeType::Switch ? 0 : 1));
    return p.lid;
}

// A counter listing of perfquery ("PortXmitData:.......123"), by field name.
std::map<QString, quint64> counterFields(const QByteArray &output)
{
    std::map<QString, quint64> fields;
    static const QRegularExpression row(QStringLiteral("^(\\w+):\\.+(\\d+)$"));
    for (const QByteArray &line : output.split('\n'))
        if (const auto m = row.match(QString::fromUtf8(line.trimmed())); m.hasMatch())
            fields[m.captured(1)] = m.captured(2).toULongLong();
    return fields;
}

// The simulated lab: a 4-ary 2-tree under ibsim, OpenSM with `-R file -U -P` on ftree tables and
// sweeping off; the fabric as ibnetdiscover sees it; what the switches hold, by dump_lfts.
struct Lab : test::FileRoutedLab
{
    QTemporaryDir dir;
    PortIndex smPort = kNoIndex;  // OpenSM's and every client's port

    QString path(const char *name) const { return dir.filePath(QLatin1String(name)); }

    QString start()
    {
        const Fabric fabric = kary42();
        const NodeIndex smHost = fabric.endNodes().front();
        Result<Routing> ftree = routeFabric(QStringLiteral("ftree"), fabric, Tenancy{});
        if (!ftree)
            return ftree.error().toString();
        Result<test::FileRoutedLab> started = test::startLabOnTables(dir.path(), fabric, ftree->tables, smHost,
                                                                     {QStringLiteral("-s"), QStringLiteral("0")});
        if (!started)
            return started.error().toString();
        static_cast<test::FileRoutedLab &>(*this) = std::move(*started);
        for (NodeIndex n = 0; n < NodeIndex(live.nodes().size()); ++n)
            if (live.node(n).name == fabric.node(smHost).name)
                smPort = live.portOf(n, 1);
        return smPort == kNoIndex ? QStringLiteral("the SM host is not in the discovered fabric") : QString();
    }

    Result<ForwardingTables> installedTables() const { return test::installedTables(*sim, live); }

    // What the switches hold now and the default hot spot (host 0015); why not otherwise.
    QString heldTablesAndHotSpot(ForwardingTables *held, LabWorkload *hot) const
    {
        Result<ForwardingTables> tables = installedTables();
        Result<LabWorkload> workload = parseLabWorkload(QStringLiteral("hotspot"), live);
        if (!tables || !workload)
            return !tables ? tables.error().toString() : workload.error().toString();
        *held = std::move(*tables);
        *hot = *workload;
        return {};
    }

    // The port by which perfquery's request enters `node` from the SM's host: its receive
    // counters move before the PMA reads them.
    PortIndex ingressPort(const ForwardingTables &tables, NodeIndex node) const
    {
        PortIndex last = kNoIndex;
        walkRouteFromPort(live, TablesByNode(live, tables), smPort, lidOf(live, node), [&](const RouteHop &hop) {
            last = hop.remote;
            return true;
        });
        return last;
    }

    // Every counter set to the driver's totals again, then one port read: the read's own MAD
    // is the only one between the two.
    std::map<QString, quint64> read(LabTrafficDriver &driver, PortIndex port, bool extended, QString *error) const
    {
        if (const Status s = sim->simulatorCommands(driver.allCommands()); !s) {
            *error = s.error().toString();
            return {};
        }
        const Port &p = live.port(port);
        QStringList args;
        if (extended)
            args << QStringLiteral("-x");
        args << QString::number(lidOf(live, p.node)) << QString::number(p.number);
        const auto run = sim->runClient(QStringLiteral("perfquery"), args);
        if (!run || run->exitCode != 0) {
            *error = QStringLiteral("perfquery: ") + describe(run);
            return {};
        }
        return counterFields(run->out);
    }

    // Utilisation of the sending ports of `links` from their PortXmitData one tick apart.
    std::map<PortIndex, double> measure(LabTrafficDriver &driver, const std::vector<PortIndex> &ports, double seconds, QString *error) const
    {
        std::map<PortIndex, quint64> before;
        for (PortIndex p : ports)
            before[p] = read(driver, p, true, error)[QStringLiteral("PortXmitData")];
        if (const Status s = driver.tick(*sim, seconds); !s) {
            *error = s.error().toString();
            return {};
        }
        std::map<PortIndex, double> utilisation;
        for (PortIndex p : ports) {
            const quint64 after = read(driver, p, true, error)[QStringLiteral("PortXmitData")];
            utilisation[p] = double(after - before[p]) * 4 / seconds / linkDataBytesPerSecond(live.port(p).width, live.port(p).speed);
        }
        return utilisation;
    }
};

}  // namespace

class TestLabTraffic : public QObject
{
    Q_OBJECT

    Lab m_lab;
    QString m_labError = QStringLiteral("the lab was not started");

    // The lab, started by the first test that needs it.
    bool lab()
    {
        if (!m_lab.sim)
            m_labError = m_lab.start();
        return m_labError.isEmpty();
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QString openSm = weft::test::openSmVersionProblem();
        QVERIFY2(openSm.isEmpty(), qPrintable(openSm));
        const QString missing = SimulatedFabric::missingTools();
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("the lab tests need: ") + missing));
        QVERIFY2(QFileInfo::exists(weftBinary()), "WEFT_BINARY does not name the weft executable");
    }

    void workloadNames()
    {
        const Fabric fabric = kary42();
        Result<LabWorkload> hot = parseLabWorkload(QStringLiteral("hotspot"), fabric);
        QVERIFY(hot && !hot->model);
        QCOMPARE(fabric.node(fabric.port(hot->hotSpot).node).description, QStringLiteral("host 0015"));
        Result<LabWorkload> named = parseLabWorkload(QStringLiteral("hotspot:host 0003"), fabric);
        QVERIFY(named);
        QCOMPARE(fabric.node(fabric.port(named->hotSpot).node).description, QStringLiteral("host 0003"));
        Result<LabWorkload> shift = parseLabWorkload(QStringLiteral("shift:3"), fabric);
        QVERIFY(shift && shift->model && shift->model->shift == 3);

        Result<LabWorkload> unknown = parseLabWorkload(QStringLiteral("stampede"), fabric);
        QVERIFY(!unknown);
        QVERIFY2(unknown.error().message.contains(QLatin1String("unknown workload \"stampede\"")), qPrintable(unknown.error().message));
        Result<LabWorkload> missing = parseLabWorkload(QStringLiteral("hotspot:nowhere"), fabric);
        QVERIFY(!missing);
        QCOMPARE(missing.error().message, QStringLiteral("hotspot: no node \"nowhere\" in the fabric"));
        Result<LabWorkload> aSwitch = parseLabWorkload(QStringLiteral("hotspot:L0 spine 0"), fabric);
        QVERIFY(!aSwitch);
        QVERIFY(aSwitch.error().message.contains(QLatin1String("not an end node")));
    }

    // Several hot spots: every other host sends one flow to each; the default rate still fills
    // the busiest host cable (each destination's own, 15 flows) and no more.
    void severalHotSpots()
    {
        const HotSpotOnFtree lab = hotSpotOnFtree();
        const Fabric &fabric = lab.fabric;
        Result<LabWorkload> two = parseLabWorkload(QStringLiteral("hotspot:host 0003, host 0015"), fabric);
        QVERIFY2(two, qPrintable(two ? QString() : two.error().message));
        QCOMPARE(two->hotSpots.size(), std::size_t(2));
        QCOMPARE(two->hotSpot, two->hotSpots.front());
        QCOMPARE(fabric.node(fabric.port(two->hotSpots[1]).node).description, QStringLiteral("host 0015"));
        Result<LabWorkload> again = parseLabWorkload(two->toString(fabric), fabric);
        QVERIFY2(again, qPrintable(two->toString(fabric)));
        QVERIFY(again->hotSpots == two->hotSpots);

        const LabTrafficLoad load = computeLabTraffic(fabric, lab.tables, *two);
        QCOMPARE(load.flows, std::uint64_t(30));
        QCOMPARE(load.undeliveredFlows, std::uint64_t(0));
        QCOMPARE(load.flowRate, 1e9 / 15);
        for (PortIndex spot : two->hotSpots) {
            QCOMPARE(load.link(fabric.port(spot).remote)->flows, std::uint64_t(15));
            QCOMPARE(load.link(spot)->flows, std::uint64_t(1));  // the other hot spot
        }
        const PortIndex sender = fabric.portOf(fabric.endNodes().front(), 1);
        QCOMPARE(load.link(sender)->flows, std::uint64_t(2));

        Result<LabWorkload> twice = parseLabWorkload(QStringLiteral("hotspot:host 0003,host 0003"), fabric);
        QVERIFY(!twice);
        QCOMPARE(twice.error().message, QStringLiteral("hotspot: \"host 0003\" is named twice"));
        Result<LabWorkload> missing = parseLabWorkload(QStringLiteral("hotspot:host 0003,nowhere"), fabric);
        QVERIFY(!missing);
        QCOMPARE(missing.error().message, QStringLiteral("hotspot: no node \"nowhere\" in the fabric"));
    }

    // Under ftree every leaf sends the hot spot's traffic up to the same spine: the 12 remote
    // flows share one spine-to-leaf link. At the default rate the hot spot's own cable is full.
    void hotSpotModelUnderFtree()
    {
        const HotSpotOnFtree lab = hotSpotOnFtree();
        const Fabric &fabric = lab.fabric;
        const LabTrafficLoad load = computeLabTraffic(fabric, lab.tables, lab.hot);
        QCOMPARE(load.flows, std::uint64_t(15));
        QCOMPARE(load.undeliveredFlows, std::uint64_t(0));
        QCOMPARE(load.flowRate, 1e9 / 15);
        const LabLinkTraffic *last = load.link(fabric.port(lab.hot.hotSpot).remote);
        QVERIFY(last);
        QCOMPARE(last->flows, std::uint64_t(15));
        QCOMPARE(last->utilisation(), 1.0);
        QCOMPARE(last->waitFraction(), 0.0);
        QCOMPARE(load.maxSwitchLinkUtilisation(fabric), 12.0 / 15);
        std::uint64_t upFlows = 0;
        for (const LabLinkTraffic &l : load.links)
            if (betweenSwitches(fabric, l))
                upFlows += l.flows;
        QCOMPARE(upFlows, std::uint64_t(12 * 2));  // leaf -> spine and spine -> leaf

        // At 0.1 of the host rate the spine link is offered 1.2 times what it carries.
        const LabTrafficLoad fast = computeLabTraffic(fabric, lab.tables, lab.hot, 1e8);
        QCOMPARE(fast.maxSwitchLinkUtilisation(fabric), 1.0);
        const LabLinkTraffic *hottest = nullptr;
        for (const LabLinkTraffic &l : fast.links)
            if (betweenSwitches(fabric, l) && (!hottest || l.offered > hottest->offered))
                hottest = &l;
        QCOMPARE(hottest->offered, 1.2e9);
        QVERIFY(qAbs(hottest->waitFraction() - (1 - 1 / 1.2)) < 1e-12);

        // A traffic model: shift by one host, one flow per host.
        Result<LabWorkload> shift = parseLabWorkload(QStringLiteral("shift:1"), fabric);
        QVERIFY(shift);
        const LabTrafficLoad shifted = computeLabTraffic(fabric, lab.tables, *shift);
        QCOMPARE(shifted.flows, std::uint64_t(16));
        QCOMPARE(shifted.flowRate, 1e9);
        QCOMPARE(shifted.link(fabric.portOf(fabric.endNodes().front(), 1))->flows, std::uint64_t(1));
    }

    // Whole 4-octet units each tick, the remainder carried: the totals follow rate x time.
    void advanceKeepsExactTotals()
    {
        const HotSpotOnFtree lab = hotSpotOnFtree();
        const Fabric &fabric = lab.fabric;
        LabTrafficDriver driver(fabric, lab.tables, lab.hot, 1e8);
        const QStringList first = driver.advance(0.3);
        QCOMPARE(first.size(), int(driver.load().links.size()) * 5);  // every counter of every cabled port
        QVERIFY2(first.front().startsWith(QLatin1String("PerformanceSet \"")), qPrintable(first.front()));
        const QStringList second = driver.advance(0.3);
        QVERIFY(!second.isEmpty() && second.size() < first.size());  // only what changed
        driver.advance(0.4);

        const PortIndex source = fabric.portOf(fabric.endNodes().front(), 1);
        QCOMPARE(driver.counters(source).xmitData, std::uint64_t(1e8 / 4));  // 1 s at 1e8 bytes/s
        QCOMPARE(driver.counters(source).xmitPackets, std::uint64_t(1e8) / kLabPacketBytes);
        QCOMPARE(driver.counters(fabric.port(source).remote).rcvData, std::uint64_t(1e8 / 4));
        // The hot spot's cable is offered 1.5e9 and carries 1e9: a third of the time waiting.
        const PortIndex last = fabric.port(lab.hot.hotSpot).remote;
        QCOMPARE(driver.counters(last).xmitData, std::uint64_t(1e9 / 4));
        QVERIFY(qAbs(double(driver.counters(last).xmitWait) - kXmitWaitTicksPerSecond / 3) <= 1);
        QCOMPARE(driver.counters(source).xmitWait, std::uint64_t(0));
    }

    // (a) After k ticks every chosen port reads, through the real PMA path, the driver's totals.
    void perfqueryReadsTheDriversTotals()
    {
        QVERIFY2(lab(), qPrintable(m_labError));
        ForwardingTables held;
        LabWorkload hot;
        const QString start = m_lab.heldTablesAndHotSpot(&held, &hot);
        QVERIFY2(start.isEmpty(), qPrintable(start));
        LabTrafficDriver driver(m_lab.live, held, hot, 1e8);
        for (int k = 0; k < 3; ++k) {
            const Status ticked = driver.tick(*m_lab.sim, 0.5);
            QVERIFY2(ticked, qPrintable(ticked ? QString() : ticked.error().toString()));
        }
        // Every cabled port of the hot spot's leaf and of the spines but the one perfquery's
        // request enters by.
        const NodeIndex hotLeaf = m_lab.live.port(m_lab.live.port(hot.hotSpot).remote).node;
        int checked = 0, waiting = 0;
        for (const LabLinkTraffic &l : driver.load().links) {
            const NodeIndex node = m_lab.live.port(l.from).node;
            if (node != hotLeaf && !m_lab.live.node(node).description.contains(QLatin1String("spine")))
                continue;
            if (l.from == m_lab.ingressPort(held, node))
                continue;
            QString error;
            const auto extended = m_lab.read(driver, l.from, true, &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            const LabPortCounters &want = driver.counters(l.from);
            const QString where = portDisplayName(m_lab.live, l.from);
            QVERIFY2(extended.count(QStringLiteral("PortXmitData")) && extended.count(QStringLiteral("PortRcvData"))
                         && extended.count(QStringLiteral("PortXmitPkts")) && extended.count(QStringLiteral("PortRcvPkts")),
                     qPrintable(where));
            QVERIFY2(extended.at(QStringLiteral("PortXmitData")) == want.xmitData, qPrintable(where));
            QVERIFY2(extended.at(QStringLiteral("PortRcvData")) == want.rcvData, qPrintable(where));
            QVERIFY2(extended.at(QStringLiteral("PortXmitPkts")) == want.xmitPackets, qPrintable(where));
            QVERIFY2(extended.at(QStringLiteral("PortRcvPkts")) == want.rcvPackets, qPrintable(where));
            const auto basic = m_lab.read(driver, l.from, false, &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QVERIFY2(basic.count(QStringLiteral("PortXmitWait")), qPrintable(where));
            QVERIFY2(basic.at(QStringLiteral("PortXmitWait")) == want.xmitWait, qPrintable(where));
            ++checked;
            waiting += want.xmitWait > 0 ? 1 : 0;
        }
        QCOMPARE(checked, 8 + 4 * 4 - 5);  // 8 leaf ports, 4 spines of 4 ports, one ingress each
        QCOMPARE(waiting, 2);              // the spine link to the hot leaf, the hot spot's cable
    }

    // (b) and (c): the hot link measured against the model under ftree, then after a commit of
    // tables that send each leaf's share through a different spine.
    void spreadingTheHotSpotLowersTheMeasuredMaximum()
    {
        QVERIFY2(lab(), qPrintable(m_labError));
        ForwardingTables held;
        LabWorkload hot;
        const QString start = m_lab.heldTablesAndHotSpot(&held, &hot);
        QVERIFY2(start.isEmpty(), qPrintable(start));
        const Fabric &live = m_lab.live;
        LabTrafficDriver driver(live, held, hot);
        QVERIFY(driver.tick(*m_lab.sim, 1.0));

        std::vector<PortIndex> switchLinks;
        for (const LabLinkTraffic &l : driver.load().links)
            if (betweenSwitches(live, l))
                switchLinks.push_back(l.from);
        QCOMPARE(switchLinks.size(), std::size_t(32));

        // (b) Under ftree: the hottest link, from the counters, is the model's.
        QString error;
        const double seconds = 1.0;
        std::map<PortIndex, double> measured = m_lab.measure(driver, switchLinks, seconds, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const double unit = 4 / seconds / 1e9;  // one 4-octet unit in a tick, as utilisation
        double ftreeMax = 0, ftreeModelMax = 0;
        PortIndex hotLink = kNoIndex;
        for (const auto &[port, u] : measured) {
            const double model = driver.load().link(port)->utilisation();
            QVERIFY2(qAbs(u - model) <= unit, qPrintable(QStringLiteral("%1: measured %2, model %3").arg(portDisplayName(live, port)).arg(u).arg(model)));
            if (u > ftreeMax) {
                ftreeMax = u;
                hotLink = port;
            }
            ftreeModelMax = std::max(ftreeModelMax, model);
        }
        QVERIFY(qAbs(ftreeModelMax - 12.0 / 15) < 1e-12);
        QVERIFY(qAbs(ftreeMax - ftreeModelMax) <= unit);
        QCOMPARE(live.port(live.port(hotLink).remote).node, live.port(live.port(hot.hotSpot).remote).node);

        // The hot spot's LID through a different spine from each other leaf.
        const Lid hotLid = live.port(hot.hotSpot).lid;
        const NodeIndex hotLeaf = live.port(live.port(hot.hotSpot).remote).node;
        ForwardingTables spread = held;
        int leafNumber = 0;
        for (NodeIndex sw : live.switches()) {
            if (sw == hotLeaf || !live.node(sw).description.contains(QLatin1String("leaf")))
                continue;
            std::vector<int> ups;
            for (int n = 1; n <= live.node(sw).portCount; ++n)
                if (const PortIndex p = live.portOf(sw, n); live.port(p).remote != kNoIndex
                    && live.node(live.port(live.port(p).remote).node).type == NodeType::Switch)
                    ups.push_back(n);
            const int i = spread.indexOf(live.node(sw).guid);
            QVERIFY(i >= 0 && !ups.empty());
            spread.lft(std::size_t(i)).setPort(hotLid, std::uint8_t(ups[std::size_t(leafNumber++) % ups.size()]));
        }
        const double spreadModelMax = computeLabTraffic(live, spread, hot).maxSwitchLinkUtilisation(live);
        QVERIFY(qAbs(spreadModelMax - 4.0 / 15) < 1e-12);

        // Committed as any plan is: `weft commit` against OpenSM's files.
        const QString planLfts = m_lab.path("plan.lfts"), planPartitions = m_lab.path("plan-partitions.conf");
        QVERIFY(writeFileAtomically(planLfts, writeLftDump(spread, &live), false));
        QVERIFY(writeFileAtomically(planPartitions, writePartitionsConf(withExplicitDefault({})), false));
        QStringList commitArgs = {QStringLiteral("commit"), QStringLiteral("--timeout"), QStringLiteral("60")};
        const std::pair<const char *, QString> commitFiles[] = {
            {"--plan-lfts", planLfts},
            {"--plan-partitions", planPartitions},
            {"--plan-topology", m_lab.topology},
            {"--opensm-lfts", m_lab.lfts},
            {"--opensm-partitions", m_lab.partitions},
            {"--opensm-pidfile", m_lab.pidFile},
            {"--opensm-log", m_lab.sim->openSmLogPath()},
        };
        for (const auto &[option, file] : commitFiles)
            commitArgs << QLatin1String(option) << file;
        const auto commit = m_lab.sim->runClient(weftBinary(), commitArgs);
        QVERIFY2(commit && commit->exitCode == 0, qPrintable(describe(commit)));
        Result<ForwardingTables> after = m_lab.installedTables();
        QVERIFY2(after, qPrintable(after ? QString() : after.error().toString()));
        QVERIFY(*after == spread);

        // (c) The driver follows the tables the switches hold now; the counters show it.
        driver.setTables(*after);
        QVERIFY(driver.tick(*m_lab.sim, 1.0));
        measured = m_lab.measure(driver, switchLinks, seconds, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        double spreadMax = 0;
        for (const auto &[port, u] : measured) {
            QVERIFY(qAbs(u - driver.load().link(port)->utilisation()) <= unit);
            spreadMax = std::max(spreadMax, u);
        }
        QVERIFY(qAbs(spreadMax - spreadModelMax) <= unit);
        QVERIFY(spreadMax < ftreeMax);
        qInfo("hot spot on %s: highest switch-to-switch utilisation from the counters %.4f under ftree "
              "(model %.4f, link %s), %.4f after the commit that spreads it (model %.4f)",
              qPrintable(live.node(live.port(hot.hotSpot).node).description), ftreeMax, ftreeModelMax,
              qPrintable(directedLinkText(live, hotLink)), spreadMax, spreadModelMax);
    }

    // `weft lab --traffic`: the driver starts with the lab and says what it drives; a workload
    // the fabric cannot carry is refused before anything starts.
    void labCommandDrivesTraffic()
    {
        QTemporaryDir dir;
        QProcess weft;
        weft.start(weftBinary(), {QStringLiteral("lab"), QStringLiteral("--no-gui"), QStringLiteral("--traffic"), QStringLiteral("hotspot"), QStringLiteral("--tick"), QStringLiteral("0.1"), QStringLiteral("--dir"), dir.path()});
        QVERIFY(weft.waitForFinished(300000));
        const QString out = QString::fromUtf8(weft.readAllStandardOutput());
        QVERIFY2(weft.exitCode() == 0, qPrintable(out + QString::fromUtf8(weft.readAllStandardError())));
        QVERIFY2(out.contains(QLatin1String("traffic: hotspot:H-0002c91000003c00, 15 flows at 66666666 bytes/s each")), qPrintable(out));
        QVERIFY2(out.contains(QLatin1String("busiest switch-to-switch link 80 %")), qPrintable(out));

        QProcess refused;
        refused.start(weftBinary(), {QStringLiteral("lab"), QStringLiteral("--no-gui"), QStringLiteral("--traffic"), QStringLiteral("hotspot:L0 spine 0")});
        QVERIFY(refused.waitForFinished(60000));
        QCOMPARE(refused.exitCode(), 2);
        QCOMPARE(QString::fromUtf8(refused.readAllStandardError()).trimmed(),
                 QStringLiteral("weft lab: --traffic: hotspot: \"L0 spine 0\" is not an end node with a LID and a cable"));
    }

    void cleanupTestCase()
    {
        if (m_lab.sim)
            m_lab.sim->stop();
    }
};

QTEST_GUILESS_MAIN(TestLabTraffic)
#include "tst_lab_traffic.moc"
