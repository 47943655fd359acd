// weft bench sm: OpenSM's own sweep with Weft's engine inside it (libweftosm.so) beside the same
// sweep with OpenSM's ftree, on the same generated fat-tree in ibsim, a fresh simulator each;
// then, in each, one leaf uplink unlinked: the time from the Unlink to repaired tables, and the
// LFT blocks (SMPs) the repair changed, read by dump_lfts before and after.

#include "BenchHarness.h"
#include "BenchSm.h"
#include "CliSupport.h"

#include "LftDump.h"
#include "ProjectFile.h"
#include "ReconfigurationDiff.h"
#include "SafeFile.h"
#include "SimulatedFabric.h"
#include "TopologyFile.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTime>

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
    if (const std::optional<int> exitCode = bench.parse(args))
        return *exitCode;
    Result<GeneratedFabric> generated = bench.generateTree();
    if (!generated)
        return bench.fail(generated.error());
    const Fabric &fabric = generated->fabric;
    // The last leaf's first uplink, as ibsim's console names a port.
    QString uplink;
    for (NodeIndex s : fabric.switches())
        for (int p = 1; p <= fabric.node(s).portCount && uplink.isEmpty(); ++p) {
            const Port &port = fabric.port(fabric.portOf(s, p));
            if (port.remote == kNoIndex)
                continue;
            const NodeIndex peer = fabric.port(port.remote).node;
            if (fabric.node(peer).type == NodeType::Switch
                && generated->nodeLevel[std::size_t(peer)] < generated->nodeLevel[std::size_t(s)]
                && generated->nodeLevel[std::size_t(s)] == int(generated->switchesPerLevel.size()) - 1)
                uplink = QStringLiteral("\"%1\"[%2]").arg(fabric.node(s).name).arg(p);
        }
    if (uplink.isEmpty())
        return bench.fail(QStringLiteral("the tree has no leaf uplink"));
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
