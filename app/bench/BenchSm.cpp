// weft bench sm: OpenSM's own sweep with Weft's engine inside it (libweftosm.so) beside the same
// sweep with OpenSM's ftree, on the same generated fat-tree in ibsim, a fresh simulator each;
// then, in each, one leaf uplink unlinked: the time from the Unlink to repaired tables, and the
// LFT blocks (SMPs) the repair changed, read by dump_lfts before and after. With --engine-only:
// no simulator and no OpenSM, the plugin's engine called in-process on the subnet OpenSM would
// hold, for its own time and memory at sizes ibsim cannot hold (the LID limit).

#include "BenchHarness.h"
#include "BenchSm.h"
#include "CliSupport.h"

#include "LftDump.h"
#include "ProjectFile.h"
#include "ReconfigurationDiff.h"
#include "SafeFile.h"
#include "SimulatedFabric.h"
#include "TopologyFile.h"
#include "WeftOsmEngine.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTime>

#include <chrono>
#include <cstring>

namespace weft::cli {

namespace {

// The first log line from byte `from` on that contains `text`; empty if none.
QString firstLogLine(const SimulatedFabric &sim, const QString &text, qint64 from = 0)
{
    QFile log(sim.openSmLogPath());
    if (!log.open(QIODevice::ReadOnly) || !log.seek(from))
        return {};
    for (const QByteArray &raw : log.readAll().split('\n'))
        if (raw.contains(text.toUtf8()))
            return QString::fromUtf8(raw);
    return {};
}

double firstLogTime(const SimulatedFabric &sim, const QString &text, qint64 from = 0)
{
    return openSmLogTime(firstLogLine(sim, text, from));
}

const QString kConfigured = QStringLiteral(" tables configured on all switches");

struct SmRun
{
    QString repairedBy;          // the engine that configured the tables after the Unlink
    double sweepSeconds = -1;    // MASTER to tables configured
    double repairSeconds = -1;   // the Unlink to tables configured again
    long long repairBlocks = 0;  // LFT blocks that differ before and after the repair
    int repairSwitches = 0;
};

Result<ForwardingTables> dumpedTables(SimulatedFabric &sim, const Fabric &fabric)
{
    const auto dump = sim.runClient(QStringLiteral("dump_lfts"), {}, 3600 * 1000);
    if (!dump)
        return dump.error();
    if (dump->exitCode != 0)
        return Error{{}, 0, QStringLiteral("dump_lfts exited with %1: %2").arg(dump->exitCode).arg(QString::fromUtf8(dump->err.left(500)))};
    return readLftDump(dump->out, QStringLiteral("dump_lfts"), &fabric);
}

// One fresh simulator routed by `engine` (OpenSM's own, or "weft" through the plugin).
Result<SmRun> runSm(const GeneratedFabric &generated, const QString &engine, const QString &uplink)
{
    const Fabric &fabric = generated.fabric;
    QTemporaryDir dir;
    if (!dir.isValid())
        return Error{{}, 0, QStringLiteral("cannot create a temporary directory")};
    const QString net = dir.filePath(QStringLiteral("fabric.net"));
    const NodeIndex smHost = generated.hosts.front();
    if (Status s = writeFileAtomically(net, writeIbsimNet(fabric, smHost), false); !s)
        return s.error();
    SimulatedFabric::Options options;
    options.netFile = net;
    options.smNode = fabric.node(smHost).name;
    options.startTimeoutMs = 3600 * 1000;
    if (engine == QLatin1String("weft")) {
        const QString intent = dir.filePath(QStringLiteral("intent.weft"));
        Project project;
        project.routingEngine = QStringLiteral("ftree");
        if (Status s = writeFileAtomically(intent, writeProject(project), false); !s)
            return s.error();
        options.openSmConfig = "event_plugin_name weftosm\nevent_plugin_options " + intent.toUtf8() + "\nrouting_engine weft\n";
        if (const QString plugins = SimulatedFabric::weftOsmPluginDirectory(); !plugins.isEmpty())
            options.openSmEnvironment = {QStringLiteral("LD_LIBRARY_PATH=") + plugins};
    } else {
        options.openSmArgs = {QStringLiteral("-R"), engine};
    }
    SimulatedFabric sim(options);
    if (Status s = sim.start(); !s)
        return s.error();
    const QString configured = QStringLiteral("%1 tables configured on all switches").arg(engine);
    if (Status s = sim.waitForOpenSmLog(configured, 3600 * 1000); !s)
        return s.error();
    SmRun run;
    const double master = firstLogTime(sim, QStringLiteral("Entering MASTER state"));
    const double done = firstLogTime(sim, configured);
    if (master < 0 || done < 0)
        return Error{sim.openSmLogPath(), 0, QStringLiteral("no MASTER or \"%1\" line in OpenSM's log").arg(configured)};
    run.sweepSeconds = done >= master ? done - master : done + 86400 - master;

    Result<ForwardingTables> before = dumpedTables(sim, fabric);
    if (!before)
        return before.error();
    const qint64 offset = sim.openSmLogSize();
    const QTime unlinked = QTime::currentTime();  // OpenSM stamps its log in local time too
    if (Status s = sim.simulatorCommand(QStringLiteral("Unlink %1").arg(uplink)); !s)
        return s.error();
    // OpenSM's own ftree refuses a degraded tree and falls back: whichever engine routes counts.
    if (Status s = sim.waitForOpenSmLog(kConfigured, 3600 * 1000, offset); !s)
        return s.error();
    const QString line = firstLogLine(sim, kConfigured, offset);
    const double repaired = openSmLogTime(line);
    static const QRegularExpression by(QStringLiteral("(\\S+) tables configured"));
    run.repairedBy = by.match(line).captured(1);
    if (engine == QLatin1String("weft")) {
        // Which step of the intent's order routed (repair, slimupdate, an engine).
        static const QRegularExpression step(QStringLiteral("weft: routed .* by (\\S+) in "));
        if (const QString method = step.match(firstLogLine(sim, QStringLiteral("weft: routed"), offset)).captured(1); !method.isEmpty())
            run.repairedBy = method;
    }
    const double start = unlinked.msecsSinceStartOfDay() / 1000.0;
    run.repairSeconds = repaired >= start ? repaired - start : repaired + 86400 - start;
    Result<ForwardingTables> after = dumpedTables(sim, fabric);
    if (!after)
        return after.error();
    const ReconfigurationDiff diff = diffForwardingTables(*before, *after, &fabric);
    run.repairBlocks = diff.changedBlocks;
    run.repairSwitches = int(diff.switchesTouched());
    return run;
}

// The subnet as OpenSM holds it after its sweep, for the engine's entry point: every node, port,
// cable and LID of the fabric, the switches' tables as OpenSM believes they are (none at first).
struct HeldSubnet
{
    std::vector<weft_osm_node> nodes;
    std::vector<std::vector<weft_osm_port>> ports;
    std::vector<std::vector<std::uint8_t>> held, fresh;
    weft_osm_subnet view{};

    explicit HeldSubnet(const Fabric &fabric)
    {
        Lid maxLid = 0;
        for (const Port &port : fabric.ports())
            if (port.present && port.lid)
                maxLid = std::max<Lid>(maxLid, Lid(port.lid + (1 << port.lmc) - 1));
        const std::uint32_t lftSize = (std::uint32_t(maxLid) / 64 + 1) * 64;
        const std::size_t count = fabric.nodes().size();
        nodes.resize(count);
        ports.resize(count);
        held.resize(count);
        fresh.resize(count);
        for (NodeIndex n = 0; n < NodeIndex(count); ++n) {
            const Node &node = fabric.node(n);
            weft_osm_node &w = nodes[std::size_t(n)];
            w.guid = node.guid;
            w.system_guid = node.systemImageGuid;
            w.type = node.type == NodeType::Switch ? 2 : node.type == NodeType::Router ? 3
                                                                                       : 1;
            w.port_count = node.portCount;
            const QByteArray description = node.description.toUtf8().left(64);
            std::memcpy(w.description, description.constData(), std::size_t(description.size()));
            std::vector<weft_osm_port> &slots = ports[std::size_t(n)];
            slots.assign(std::size_t(node.portCount) + 1, weft_osm_port{});
            for (int p = 0; p <= node.portCount; ++p) {
                const Port &port = fabric.port(fabric.portOf(n, p));
                if (!port.present)
                    continue;
                weft_osm_port &slot = slots[std::size_t(p)];
                slot.present = 1;
                slot.state = port.remote != kNoIndex || p == 0 ? 4 : 1;
                slot.lmc = port.lmc;
                slot.lid = port.lid;
                slot.guid = port.guid;
                if (port.remote != kNoIndex) {
                    slot.remote_node = fabric.node(fabric.port(port.remote).node).guid;
                    slot.remote_port = fabric.port(port.remote).number;
                }
            }
            w.ports = slots.data();
            if (w.type == 2) {
                held[std::size_t(n)].assign(lftSize, kNoRoute);
                fresh[std::size_t(n)].assign(lftSize, kNoRoute);
                w.held_lft = held[std::size_t(n)].data();
                w.new_lft = fresh[std::size_t(n)].data();
                w.lft_size = lftSize;
            }
        }
        view.nodes = nodes.data();
        view.node_count = std::uint32_t(count);
    }

    // What OpenSM does once the new tables are sent: they are what the switches hold. Returns the
    // LFT blocks that changed (one SMP each).
    long long install()
    {
        long long blocks = 0;
        for (std::size_t n = 0; n < nodes.size(); ++n) {
            std::vector<std::uint8_t> &was = held[n];
            const std::vector<std::uint8_t> &now = fresh[n];
            for (std::size_t b = 0; b < was.size(); b += 64)
                if (std::memcmp(&was[b], &now[b], 64) != 0)
                    ++blocks;
            was = now;
        }
        return blocks;
    }

    // A cable unplugged: both ends down, no remote.
    void unlink(Guid node, int port)
    {
        for (std::size_t n = 0; n < nodes.size(); ++n) {
            if (nodes[n].guid != node)
                continue;
            weft_osm_port &end = ports[n][std::size_t(port)];
            for (std::size_t m = 0; m < nodes.size(); ++m)
                if (nodes[m].guid == end.remote_node) {
                    weft_osm_port &other = ports[m][end.remote_port];
                    other.state = 1;
                    other.remote_node = 0;
                    other.remote_port = 0;
                }
            end.state = 1;
            end.remote_node = 0;
            end.remote_port = 0;
        }
    }
};

// Peak resident memory since the last reset, in MB (Linux: VmHWM, reset through clear_refs).
double peakResidentMb(bool reset)
{
    if (reset) {
        QFile refs(QStringLiteral("/proc/self/clear_refs"));
        if (refs.open(QIODevice::WriteOnly))
            refs.write("5");
    }
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n'))
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').front().toDouble() / 1024.0;
    return -1;
}

struct EngineLog
{
    QStringList errors;
    QString method;  // from "routed ... by METHOD in N ms"
    QString isolation;  // the last "phy-isolation ..." line (pftree)
};

void collectEngineLog(void *context, int level, const char *message)
{
    auto *log = static_cast<EngineLog *>(context);
    const QString text = QString::fromUtf8(message);
    if (level == WEFT_OSM_LOG_ERROR)
        log->errors << text;
    if (text.contains(QLatin1String("phy-isolation")))
        log->isolation = text;
    static const QRegularExpression by(QStringLiteral("^routed .* by (\\S+) in "));
    if (const QRegularExpressionMatch m = by.match(text); m.hasMatch())
        log->method = m.captured(1);
}

// The plugin's engine called as OpenSM calls it, in this process, on the subnet OpenSM would hold:
// the first routing, then one cable unlinked and routed again.
int engineOnly(Benchmark &bench, const GeneratedFabric &generated, const QString &uplinkNode, int uplinkPort)
{
    QTemporaryDir dir;
    if (!dir.isValid())
        return bench.fail(QStringLiteral("cannot create a temporary directory"));
    QString intent = bench.value(QStringLiteral("intent"));
    if (intent.isEmpty()) {
        // ftree; with --tenants N, pftree and N tenants of consecutive hosts, phy-isolated and on
        // lanes of their own in turn.
        intent = dir.filePath(QStringLiteral("intent.weft"));
        Project project;
        project.routingEngine = QStringLiteral("ftree");
        const int tenants = bench.value(QStringLiteral("tenants")).toInt();
        const int scattered = bench.value(QStringLiteral("scattered")).toInt();
        if (scattered > 0) {
            // Phy-isolated tenants with hosts where a scheduler put them (seeded): the isolation
            // search's case.
            project.routingEngine = QStringLiteral("pftree");
            project.tenancy = scatteredTenants(generated, scattered, IsolationPolicy::Physical);
        } else if (tenants > 0) {
            const Fabric &f = generated.fabric;
            project.routingEngine = QStringLiteral("pftree");
            const std::size_t per = generated.hosts.size() / std::size_t(tenants);
            for (int k = 0; k < tenants; ++k) {
                Partition tenant;
                tenant.name = QStringLiteral("tenant%1").arg(k);
                tenant.pkey = std::uint16_t(0x10 + k);
                tenant.policy = k % 2 == 0 ? IsolationPolicy::Physical : IsolationPolicy::VirtualLane;
                for (std::size_t h = std::size_t(k) * per; h < std::size_t(k + 1) * per; ++h)
                    tenant.members.push_back({PartitionMember::Kind::PortGuid, f.port(f.portOf(generated.hosts[h], 1)).guid, Membership::Full, true});
                project.tenancy.partitions.push_back(std::move(tenant));
            }
        }
        if (Status s = writeFileAtomically(intent, writeProject(project), false); !s)
            return bench.fail(s.error());
    } else if (bench.isSet(QStringLiteral("tenants")) || bench.isSet(QStringLiteral("scattered"))) {
        return bench.fail(QStringLiteral("--tenants and --scattered make an intent: not with --intent"));
    }
    if (bench.isSet(QStringLiteral("tenants")) && bench.isSet(QStringLiteral("scattered")))
        return bench.fail(QStringLiteral("--tenants and --scattered exclude each other"));
    const Fabric &fabric = generated.fabric;
    HeldSubnet subnet(fabric);
    EngineLog log;
    weft_osm_engine *engine = weft_osm_create(intent.toUtf8().constData(), collectEngineLog, &log);
    if (!engine)
        return bench.fail(QStringLiteral("the engine was not created: %1").arg(log.errors.join(QStringLiteral("; "))));
    auto route = [&](double *seconds, double *peakMb) -> Status {
        peakResidentMb(true);
        const double before = peakResidentMb(false);
        const auto start = std::chrono::steady_clock::now();
        const int status = weft_osm_route(engine, &subnet.view);
        *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        *peakMb = peakResidentMb(false) - before;
        if (status != 0 || !log.errors.isEmpty())
            return Error{intent, 0, QStringLiteral("the engine failed: %1").arg(log.errors.join(QStringLiteral("; ")))};
        return Done{};
    };
    double firstSeconds = 0, firstMb = 0, repairSeconds = 0, repairMb = 0;
    Status first = route(&firstSeconds, &firstMb);
    const QString firstMethod = log.method;
    const QString firstIsolation = log.isolation;
    const long long firstBlocks = subnet.install();
    Status repaired = first;
    if (first) {
        subnet.unlink(fabric.node(fabric.nodeByName(uplinkNode)).guid, uplinkPort);
        repaired = route(&repairSeconds, &repairMb);
    }
    weft_osm_destroy(engine);
    if (!repaired)
        return bench.fail(repaired.error());
    const long long repairBlocks = subnet.install();
    QJsonObject json{{QStringLiteral("benchmark"), QStringLiteral("sm-engine")},
                     {QStringLiteral("fabric"), generated.summary},
                     {QStringLiteral("intent"), QFileInfo(intent).fileName()},
                     {QStringLiteral("tenants"), bench.value(QStringLiteral("tenants")).toInt()},
                     {QStringLiteral("scattered_tenants"), bench.value(QStringLiteral("scattered")).toInt()},
                     {QStringLiteral("engine_route_isolation"), firstIsolation},
                     {QStringLiteral("engine_route_seconds"), firstSeconds},
                     {QStringLiteral("engine_route_peak_mb"), firstMb},
                     {QStringLiteral("engine_routed_by"), firstMethod},
                     {QStringLiteral("engine_route_smps"), double(firstBlocks)},
                     {QStringLiteral("unlinked"), QStringLiteral("%1[%2]").arg(uplinkNode).arg(uplinkPort)},
                     {QStringLiteral("engine_repair_seconds"), repairSeconds},
                     {QStringLiteral("engine_repair_peak_mb"), repairMb},
                     {QStringLiteral("engine_repaired_by"), log.method},
                     {QStringLiteral("engine_repair_smps"), double(repairBlocks)}};
    return bench.report(json, [&](QTextStream &o) {
        o << "sm --engine-only: " << generated.summary << ", intent " << QFileInfo(intent).fileName() << "\n"
          << "  first routing (as OpenSM calls the plugin, without OpenSM): " << QString::number(firstSeconds, 'f', 2) << " s by "
          << firstMethod << ", " << QString::number(firstMb, 'f', 0) << " MB more at its peak, " << firstBlocks << " LFT blocks\n"
          << (firstIsolation.isEmpty() ? QString() : QStringLiteral("  %1\n").arg(firstIsolation))
          << "  " << uplinkNode << "[" << uplinkPort << "] unlinked, routed again: " << QString::number(repairSeconds, 'f', 2) << " s by "
          << log.method << ", " << QString::number(repairMb, 'f', 0) << " MB more at its peak, " << repairBlocks << " LFT blocks changed\n";
    });
}

}  // namespace

int benchSm(const QStringList &args)
{
    Benchmark bench(QStringLiteral("sm"), QStringLiteral("OpenSM's first sweep (MASTER to tables configured) with Weft's engine inside it (the\n"
                                                         "libweftosm.so plugin, routing_engine weft, an ftree intent) beside the same sweep with\n"
                                                         "OpenSM's own engine, on the same generated fat-tree in ibsim, a fresh simulator each (default:\n"
                                                         "the 36-port 3-level tree, 11,664 hosts; --radix 24: 3,456 hosts). Then in each one leaf\n"
                                                         "uplink is unlinked: the seconds from the Unlink to the tables configured again, and the LFT\n"
                                                         "blocks (one SMP each) that changed, read by dump_lfts before and after."));
    bench.addTreeOptions();
    bench.parser().addOption({QStringLiteral("opensm-engine"), QStringLiteral("OpenSM's engine to compare with (default ftree)."), QStringLiteral("ENGINE"), QStringLiteral("ftree")});
    bench.parser().addOption({QStringLiteral("engine-only"), QStringLiteral("No simulator and no OpenSM: the plugin's engine called in this process as OpenSM calls it, on the\n"
                                                                            "subnet OpenSM would hold (the first routing, then the same Unlink): its time and peak memory.")});
    bench.parser().addOption({QStringLiteral("intent"), QStringLiteral("With --engine-only: the intent (a Weft project; default: ftree)."), QStringLiteral("FILE")});
    bench.parser().addOption({QStringLiteral("tenants"), QStringLiteral("With --engine-only: the intent is pftree with N tenants of consecutive hosts, phy-isolated and\n"
                                                                        "on lanes in turn."),
                              QStringLiteral("N")});
    bench.parser().addOption({QStringLiteral("scattered"), QStringLiteral("With --engine-only: the intent is pftree with N phy-isolated tenants, each host given to one\n"
                                                                          "of them at random (seeded), as a scheduler leaves them."),
                              QStringLiteral("N")});
    if (const std::optional<int> exitCode = bench.parse(args))
        return *exitCode;
    Result<GeneratedFabric> generated = bench.generateTree();
    if (!generated)
        return bench.fail(generated.error());
    const Fabric &fabric = generated->fabric;
    // The last leaf's first uplink, as ibsim's console names a port.
    QString uplink, uplinkNode;
    int uplinkPort = 0;
    for (NodeIndex s : fabric.switches())
        for (int p = 1; p <= fabric.node(s).portCount && uplink.isEmpty(); ++p) {
            const Port &port = fabric.port(fabric.portOf(s, p));
            if (port.remote == kNoIndex)
                continue;
            const NodeIndex peer = fabric.port(port.remote).node;
            if (fabric.node(peer).type == NodeType::Switch
                && generated->nodeLevel[std::size_t(peer)] < generated->nodeLevel[std::size_t(s)]
                && generated->nodeLevel[std::size_t(s)] == int(generated->switchesPerLevel.size()) - 1) {
                uplink = QStringLiteral("\"%1\"[%2]").arg(fabric.node(s).name).arg(p);
                uplinkNode = fabric.node(s).name;
                uplinkPort = p;
            }
        }
    if (uplink.isEmpty())
        return bench.fail(QStringLiteral("the tree has no leaf uplink"));
    if (bench.isSet(QStringLiteral("engine-only")))
        return engineOnly(bench, *generated, uplinkNode, uplinkPort);
    if (bench.isSet(QStringLiteral("intent")) || bench.isSet(QStringLiteral("tenants")))
        return bench.fail(QStringLiteral("--intent and --tenants go with --engine-only"));
    if (bench.isSet(QStringLiteral("scattered")))
        return bench.fail(QStringLiteral("--scattered goes with --engine-only"));
    const QString openSmEngine = bench.value(QStringLiteral("opensm-engine"));
    err() << "OpenSM with Weft's engine (the plugin) under ibsim: " << generated->summary << " (this takes minutes)..." << Qt::endl;
    Result<SmRun> weft = runSm(*generated, QStringLiteral("weft"), uplink);
    if (!weft)
        return bench.fail(weft.error());
    err() << "OpenSM with its own " << openSmEngine << "..." << Qt::endl;
    Result<SmRun> own = runSm(*generated, openSmEngine, uplink);
    if (!own)
        return bench.fail(own.error());

    QJsonObject json{{QStringLiteral("benchmark"), QStringLiteral("sm")},
                     {QStringLiteral("fabric"), generated->summary},
                     {QStringLiteral("weft_sweep_seconds"), weft->sweepSeconds},
                     {QStringLiteral("opensm_engine"), openSmEngine},
                     {QStringLiteral("opensm_sweep_seconds"), own->sweepSeconds},
                     {QStringLiteral("ratio_opensm_to_weft_sweep"), own->sweepSeconds / weft->sweepSeconds},
                     {QStringLiteral("unlinked"), uplink},
                     {QStringLiteral("weft_repaired_by"), weft->repairedBy},
                     {QStringLiteral("opensm_repaired_by"), own->repairedBy},
                     {QStringLiteral("weft_repair_seconds"), weft->repairSeconds},
                     {QStringLiteral("weft_repair_smps"), double(weft->repairBlocks)},
                     {QStringLiteral("opensm_repair_seconds"), own->repairSeconds},
                     {QStringLiteral("opensm_repair_smps"), double(own->repairBlocks)}};
    return bench.report(json, [&](QTextStream &o) {
        o << "sm: " << generated->summary << "\n"
          << "  first sweep, MASTER to tables configured: Weft's engine " << QString::number(weft->sweepSeconds, 'f', 2) << " s, OpenSM's "
          << openSmEngine << " " << QString::number(own->sweepSeconds, 'f', 2) << " s (ratio OpenSM / Weft "
          << QString::number(own->sweepSeconds / weft->sweepSeconds, 'f', 2) << "x)\n"
          << "  Unlink " << uplink << ", to tables configured again: Weft (" << weft->repairedBy << ") " << QString::number(weft->repairSeconds, 'f', 2) << " s, "
          << weft->repairBlocks << " LFT blocks on " << weft->repairSwitches << " switches; OpenSM's " << openSmEngine << " "
          << QString::number(own->repairSeconds, 'f', 2) << " s, " << own->repairBlocks << " LFT blocks on " << own->repairSwitches
          << " switches (routed by " << own->repairedBy << ")\n";
    });
}

}  // namespace weft::cli
