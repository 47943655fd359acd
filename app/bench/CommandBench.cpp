// weft bench: speed and memory of Weft's own stages on large fabrics. Benchmarks, not tests:
// they report figures (and ratios against other tools where one exists) and never fail on
// a slow machine.

#include "CliSupport.h"
#include "ReconfigurationDiff.h"
#include "Commands.h"
#include "EffectiveBisection.h"
#include "FabricGenerator.h"
#include "RoutingEngine.h"
#include "SafeFile.h"
#include "SimulatedFabric.h"
#include "TextReader.h"
#include "TopologyFile.h"
#include "VSwitchMigration.h"

#include "FabricLayout.h"
#include "FabricScene.h"
#include "FabricView.h"
#include "Metrics.h"

#include <QApplication>
#include <QCoreApplication>
#include <QImage>
#include <QPainter>
#include <QtConcurrent/QtConcurrentRun>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <algorithm>

namespace weft::cli {

namespace {

// Resident memory figures of this process from /proc, in bytes; 0 where unavailable.
qint64 procStatusBytes(const char *field)
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray key = QByteArray(field) + ':';
    for (const QByteArray &line : status.readAll().split('\n'))
        if (line.startsWith(key))
            return line.mid(key.size()).trimmed().split(' ').value(0).toLongLong() * 1024;
    return 0;
}

// Resets the peak-RSS mark so the next VmHWM reading covers only what follows.
void resetPeakMemory()
{
    QFile clear(QStringLiteral("/proc/self/clear_refs"));
    if (clear.open(QIODevice::WriteOnly))
        clear.write("5");
}

struct Sample
{
    double seconds = 0;
    qint64 peakGrowthBytes = 0;
};

// Every benchmark runs on a generated radix fat-tree chosen with --radix and --levels
// (default: the 36-port 3-level tree, 11,664 hosts).
void addTreeOptions(QCommandLineParser &parser, int defaultRadix = 36)
{
    const QString radix = QString::number(defaultRadix);
    parser.addOption({QStringLiteral("radix"), QStringLiteral("Switch radix of the generated tree (default %1).").arg(radix), QStringLiteral("R"), radix});
    parser.addOption({QStringLiteral("levels"), QStringLiteral("Switch levels of the generated tree (default 3)."), QStringLiteral("N"), QStringLiteral("3")});
}

GeneratorOptions treeOptions(const QCommandLineParser &parser)
{
    GeneratorOptions options;
    options.shape = FabricShapeKind::SwitchRadix;
    options.radix = parser.value(QStringLiteral("radix")).toInt();
    options.levels = parser.value(QStringLiteral("levels")).toInt();
    return options;
}

Result<GeneratedFabric> generateTree(const QCommandLineParser &parser)
{
    return generateFabric(treeOptions(parser));
}

// Sorts the timings (so front() is the minimum) and returns the median.
double medianOf(std::vector<double> &times)
{
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

int benchParse(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Times parsing ibnetdiscover output and measures the memory it takes (peak resident growth).\n"
        "Without FILE, the 3-level fat-tree of the given switch radix is generated and written as\n"
        "ibnetdiscover prints it first (radix 36: 11,664 hosts, 1,620 switches)."));
    addTreeOptions(parser);
    parser.addOption({QStringLiteral("repeat"), QStringLiteral("Runs to time (default 5)."), QStringLiteral("N"), QStringLiteral("5")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON.")});
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("ibnetdiscover output to parse (optional)."));
    int exitCode = kExitOk;
    if (!parseArguments(parser, QStringLiteral("bench parse"), args, &exitCode))
        return exitCode;

    QByteArray text;
    QString source;
    if (!parser.positionalArguments().isEmpty()) {
        source = parser.positionalArguments().constFirst();
        Result<QByteArray> data = TextReader::readFile(source);
        if (!data)
            return reportBadInput(QStringLiteral("bench parse"), data.error());
        text = std::move(data).value();
    } else {
        Result<GeneratedFabric> generated = generateTree(parser);
        if (!generated)
            return reportBadInput(QStringLiteral("bench parse"), generated.error());
        text = writeIbnetdiscover(generated->fabric);
        source = generated->summary;
    }
    const int repeat = std::max(1, parser.value(QStringLiteral("repeat")).toInt());

    std::vector<Sample> samples;
    std::size_t hosts = 0;
    std::size_t switches = 0;
    for (int i = 0; i < repeat; ++i) {
        resetPeakMemory();
        const qint64 before = procStatusBytes("VmRSS");
        QElapsedTimer timer;
        timer.start();
        Result<Fabric> fabric = readTopology(text, source);
        const double seconds = double(timer.nsecsElapsed()) / 1e9;
        const qint64 peak = procStatusBytes("VmHWM");
        if (!fabric)
            return reportBadInput(QStringLiteral("bench parse"), fabric.error());
        hosts = fabric->channelAdapterCount();
        switches = fabric->switches().size();
        samples.push_back({seconds, std::max<qint64>(0, peak - before)});
    }
    std::vector<double> times;
    qint64 peakGrowth = 0;
    for (const Sample &s : samples) {
        times.push_back(s.seconds);
        peakGrowth = std::max(peakGrowth, s.peakGrowthBytes);
    }
    const double median = medianOf(times);
    if (parser.isSet(QStringLiteral("json"))) {
        QJsonArray all;
        for (double t : times)
            all.append(t);
        printJson(QJsonObject{{QStringLiteral("benchmark"), QStringLiteral("parse-ibnetdiscover")},
                              {QStringLiteral("source"), source},
                              {QStringLiteral("bytes"), double(text.size())},
                              {QStringLiteral("hosts"), double(hosts)},
                              {QStringLiteral("switches"), double(switches)},
                              {QStringLiteral("seconds_min"), times.front()},
                              {QStringLiteral("seconds_median"), median},
                              {QStringLiteral("seconds_all"), all},
                              {QStringLiteral("peak_memory_growth_bytes"), double(peakGrowth)}});
        return kExitOk;
    }
    out() << "parse ibnetdiscover output: " << source << '\n'
          << "  input: " << QString::number(double(text.size()) / 1e6, 'f', 1) << " MB, " << hosts << " hosts, " << switches << " switches\n"
          << "  time: min " << QString::number(times.front(), 'f', 3) << " s, median " << QString::number(median, 'f', 3)
          << " s over " << repeat << " runs (one core)\n"
          << "  memory: peak resident growth " << QString::number(double(peakGrowth) / 1e6, 'f', 1) << " MB\n";
    out().flush();
    return kExitOk;
}


// Seconds of day from an OpenSM log line ("Nov 21 14:17:13 583716 [8E1EB6C0] ..."), or -1.
double openSmLogTime(const QString &line)
{
    static const QRegularExpression stamp(QStringLiteral("^\\w+ +\\d+ (\\d\\d):(\\d\\d):(\\d\\d) (\\d{6}) "));
    const auto m = stamp.match(line);
    if (!m.hasMatch())
        return -1;
    return m.captured(1).toInt() * 3600.0 + m.captured(2).toInt() * 60.0 + m.captured(3).toInt() + m.captured(4).toInt() / 1e6;
}

// OpenSM's own routing of the same fabric under ibsim: seconds from "Entering MASTER state" to
// "<engine> tables configured on all switches" in its log (discovery, LID assignment and
// routing of the first master sweep).
Result<double> openSmRoutingSeconds(const Fabric &fabric, const QString &engine)
{
    QTemporaryDir dir;
    if (!dir.isValid())
        return Error{{}, 0, QStringLiteral("cannot create a temporary directory")};
    const QString net = dir.filePath(QStringLiteral("fabric.net"));
    const NodeIndex smHost = fabric.endNodes().front();
    if (Status s = writeFileAtomically(net, writeIbsimNet(fabric, smHost), false); !s)
        return s.error();
    SimulatedFabric::Options options;
    options.netFile = net;
    options.smNode = fabric.node(smHost).name;
    options.openSmArgs = {QStringLiteral("-R"), engine};
    options.startTimeoutMs = 3600 * 1000;
    SimulatedFabric sim(options);
    if (Status s = sim.start(); !s)
        return s.error();
    const QString configured = QStringLiteral("%1 tables configured on all switches").arg(engine);
    if (Status s = sim.waitForOpenSmLog(configured, 600 * 1000); !s)
        return s.error();
    QFile log(sim.openSmLogPath());
    if (!log.open(QIODevice::ReadOnly))
        return Error{sim.openSmLogPath(), 0, QStringLiteral("cannot read OpenSM's log")};
    double master = -1;
    double done = -1;
    for (const QByteArray &raw : log.readAll().split('\n')) {
        const QString line = QString::fromUtf8(raw);
        if (master < 0 && line.contains(QLatin1String("Entering MASTER state")))
            master = openSmLogTime(line);
        if (done < 0 && line.contains(configured))
            done = openSmLogTime(line);
    }
    if (master < 0 || done < 0)
        return Error{sim.openSmLogPath(), 0, QStringLiteral("OpenSM's log lacks the MASTER or tables-configured line")};
    return done >= master ? done - master : done + 86400 - master;
}

int benchRoute(const QStringList &args)
{
    const QString command = QStringLiteral("bench route");
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Times a Weft routing engine on a generated fat-tree (default: the 36-port 3-level tree,\n"
        "11,664 hosts) with the hosts split into equal partitions, and with --opensm routes the same\n"
        "fabric with the real OpenSM under ibsim in the same run, for a side-by-side ratio."));
    parser.addOption({QStringLiteral("engine"), QStringLiteral("Weft engine (default ftree)."), QStringLiteral("ENGINE"), QStringLiteral("ftree")});
    addTreeOptions(parser);
    parser.addOption({QStringLiteral("partitions"), QStringLiteral("Partitions the hosts are split into (default 8)."), QStringLiteral("P"), QStringLiteral("8")});
    parser.addOption({QStringLiteral("policy"), QStringLiteral("Isolation policy of every partition (default def-isolation)."), QStringLiteral("POLICY"), QStringLiteral("def-isolation")});
    parser.addOption({QStringLiteral("repeat"), QStringLiteral("Runs to time (default 3)."), QStringLiteral("N"), QStringLiteral("3")});
    parser.addOption({QStringLiteral("opensm"), QStringLiteral("Also route with the real OpenSM under ibsim, with this engine (e.g. ftree)."), QStringLiteral("ENGINE")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON.")});
    int exitCode = kExitOk;
    if (!parseArguments(parser, command, args, &exitCode))
        return exitCode;

    Result<GeneratedFabric> generated = generateTree(parser);
    if (!generated)
        return reportBadInput(command, generated.error());
    const Fabric &fabric = generated->fabric;
    const auto policy = policyFromName(parser.value(QStringLiteral("policy")));
    if (!policy)
        return reportBadInput(command, QStringLiteral("unknown policy \"%1\"").arg(parser.value(QStringLiteral("policy"))));
    const int partitions = parser.value(QStringLiteral("partitions")).toInt();
    if (partitions < 0 || std::size_t(partitions) > generated->hosts.size())
        return reportBadInput(command, QStringLiteral("--partitions must be between 0 and the number of hosts"));

    // Tenants of equal size in host order, each its own partition, all full members.
    Tenancy tenancy;
    const std::size_t hosts = generated->hosts.size();
    for (int p = 0; p < partitions; ++p) {
        Partition part;
        part.name = QStringLiteral("tenant%1").arg(p + 1);
        part.pkey = std::uint16_t(0x100 + p);
        part.policy = *policy;
        part.defaultMembership = Membership::Full;
        for (std::size_t h = hosts * std::size_t(p) / std::size_t(partitions); h < hosts * std::size_t(p + 1) / std::size_t(partitions); ++h) {
            const Node &n = fabric.node(generated->hosts[h]);
            part.members.push_back(PartitionMember{PartitionMember::Kind::PortGuid, fabric.port(n.firstPort + 1).guid, Membership::Full, false});
        }
        tenancy.partitions.push_back(std::move(part));
    }

    const QString engine = parser.value(QStringLiteral("engine"));
    const int repeat = std::max(1, parser.value(QStringLiteral("repeat")).toInt());
    std::vector<double> times;
    qint64 peakGrowth = 0;
    std::size_t warnings = 0;
    for (int i = 0; i < repeat; ++i) {
        resetPeakMemory();
        const qint64 before = procStatusBytes("VmRSS");
        QElapsedTimer timer;
        timer.start();
        Result<Routing> routing = routeFabric(engine, fabric, tenancy, RoutingOptions{});
        times.push_back(double(timer.nsecsElapsed()) / 1e9);
        peakGrowth = std::max(peakGrowth, procStatusBytes("VmHWM") - before);
        if (!routing)
            return reportBadInput(command, routing.error());
        warnings = std::size_t(routing->warnings.size());
    }
    const double median = medianOf(times);

    double openSm = -1;
    const QString openSmEngine = parser.value(QStringLiteral("opensm"));
    if (!openSmEngine.isEmpty()) {
        err() << "routing the same fabric with OpenSM -R " << openSmEngine << " under ibsim (this takes minutes)..." << Qt::endl;
        Result<double> seconds = openSmRoutingSeconds(fabric, openSmEngine);
        if (!seconds)
            return reportBadInput(command, seconds.error());
        openSm = *seconds;
    }

    if (parser.isSet(QStringLiteral("json"))) {
        QJsonObject o{{QStringLiteral("benchmark"), QStringLiteral("route")},
                      {QStringLiteral("engine"), engine},
                      {QStringLiteral("fabric"), generated->summary},
                      {QStringLiteral("partitions"), partitions},
                      {QStringLiteral("seconds_min"), times.front()},
                      {QStringLiteral("seconds_median"), median},
                      {QStringLiteral("peak_memory_growth_bytes"), double(peakGrowth)},
                      {QStringLiteral("warnings"), double(warnings)}};
        if (openSm >= 0) {
            o[QStringLiteral("opensm_engine")] = openSmEngine;
            o[QStringLiteral("opensm_seconds")] = openSm;
            o[QStringLiteral("ratio_opensm_to_weft")] = openSm / median;
        }
        printJson(o);
        return kExitOk;
    }
    out() << "route " << engine << ": " << generated->summary << ", " << partitions << " partitions ("
          << policyName(*policy) << ")\n"
          << "  Weft: min " << QString::number(times.front(), 'f', 3) << " s, median " << QString::number(median, 'f', 3)
          << " s over " << repeat << " runs; peak resident growth " << QString::number(double(peakGrowth) / 1e6, 'f', 1)
          << " MB; " << warnings << " warnings\n";
    if (openSm >= 0)
        out() << "  OpenSM -R " << openSmEngine << " under ibsim: " << QString::number(openSm, 'f', 3)
              << " s from MASTER to tables configured\n"
              << "  ratio OpenSM / Weft: " << QString::number(openSm / median, 'f', 1) << "x\n";
    out().flush();
    return kExitOk;
}

int benchEbb(const QStringList &args)
{
    const QString command = QStringLiteral("bench ebb");
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Times the effective bisection bandwidth (one-way random bisections) on a generated fat-tree\n"
        "(default: the 36-port 3-level tree, 11,664 hosts) routed by ftree. Preparation (following\n"
        "every route once) and sampling are timed apart."));
    parser.addOption({QStringLiteral("samples"), QStringLiteral("Random bisections (default 10000)."), QStringLiteral("N"), QStringLiteral("10000")});
    parser.addOption({QStringLiteral("threads"), QStringLiteral("Worker threads (default 2)."), QStringLiteral("T"), QStringLiteral("2")});
    addTreeOptions(parser);
    parser.addOption({QStringLiteral("mode"), QStringLiteral("uni (default) or bidir."), QStringLiteral("MODE"), QStringLiteral("uni")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON.")});
    int exitCode = kExitOk;
    if (!parseArguments(parser, command, args, &exitCode))
        return exitCode;
    EbbRun run;
    bool ok = false;
    run.samples = parser.value(QStringLiteral("samples")).toInt(&ok);
    if (!ok || run.samples < 1)
        return reportBadInput(command, QStringLiteral("--samples must be a positive number"));
    run.threads = parser.value(QStringLiteral("threads")).toInt(&ok);
    if (!ok || run.threads < 1)
        return reportBadInput(command, QStringLiteral("--threads must be a positive number"));
    const QString mode = parser.value(QStringLiteral("mode"));
    if (mode != QLatin1String("uni") && mode != QLatin1String("bidir"))
        return reportBadInput(command, QStringLiteral("unknown mode \"%1\" (known: uni, bidir)").arg(mode));
    run.variant = mode == QLatin1String("uni") ? BisectionVariant::OneWay : BisectionVariant::TwoWay;

    Result<GeneratedFabric> generated = generateTree(parser);
    if (!generated)
        return reportBadInput(command, generated.error());
    const Tenancy tenancy;
    Result<Routing> routing = routeFabric(QStringLiteral("ftree"), generated->fabric, tenancy, RoutingOptions{});
    if (!routing)
        return reportBadInput(command, routing.error());

    QElapsedTimer timer;
    timer.start();
    Result<EffectiveBisection> prepared = EffectiveBisection::prepare(generated->fabric, routing->tables, tenancy);
    if (!prepared)
        return reportBadInput(command, prepared.error());
    const double prepareSeconds = double(timer.nsecsElapsed()) / 1e9;
    const Result<EbbResult> result = prepared->run(run);
    if (!result)
        return reportBadInput(command, result.error());
    const double samplesPerSecond = double(result->samples) / result->seconds;

    if (parser.isSet(QStringLiteral("json"))) {
        printJson(QJsonObject{{QStringLiteral("benchmark"), QStringLiteral("ebb")},
                              {QStringLiteral("fabric"), generated->summary},
                              {QStringLiteral("mode"), mode},
                              {QStringLiteral("samples"), result->samples},
                              {QStringLiteral("threads"), result->threads},
                              {QStringLiteral("prepare_seconds"), prepareSeconds},
                              {QStringLiteral("seconds"), result->seconds},
                              {QStringLiteral("samples_per_second"), samplesPerSecond},
                              {QStringLiteral("mean"), result->mean},
                              {QStringLiteral("ci99"), result->ci99}});
        return kExitOk;
    }
    out() << "ebb " << mode << ": " << generated->summary << ", ftree\n"
          << "  prepare " << QString::number(prepareSeconds, 'f', 3) << " s; " << result->samples << " samples on "
          << result->threads << " threads in " << QString::number(result->seconds, 'f', 3) << " s ("
          << QString::number(samplesPerSecond, 'f', 0) << " samples/s)\n"
          << "  eBB " << QString::number(result->mean, 'f', 4) << " ± " << QString::number(result->ci99, 'f', 4) << " (99 % CI)\n";
    out().flush();
    return kExitOk;
}

int benchDiff(const QStringList &args)
{
    const QString command = QStringLiteral("bench diff");
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Times the reconfiguration diff of two full table sets on a generated fat-tree (default: the\n"
        "36-port 3-level tree, 11,664 hosts, 1,620 switches): ftree's tables against a copy in which\n"
        "every switch sends every 7th LID out of another port."));
    addTreeOptions(parser);
    parser.addOption({QStringLiteral("repeat"), QStringLiteral("Runs to time (default 5)."), QStringLiteral("N"), QStringLiteral("5")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON.")});
    int exitCode = kExitOk;
    if (!parseArguments(parser, command, args, &exitCode))
        return exitCode;
    bool ok = false;
    const int repeat = parser.value(QStringLiteral("repeat")).toInt(&ok);
    if (!ok || repeat < 1)
        return reportBadInput(command, QStringLiteral("--repeat must be a positive number"));
    Result<GeneratedFabric> generated = generateTree(parser);
    if (!generated)
        return reportBadInput(command, generated.error());
    const Fabric &fabric = generated->fabric;
    Result<Routing> routing = routeFabric(QStringLiteral("ftree"), fabric, Tenancy{}, RoutingOptions{});
    if (!routing)
        return reportBadInput(command, routing.error());
    ForwardingTables perturbed = routing->tables;
    for (std::size_t i = 0; i < perturbed.size(); ++i) {
        LinearForwardingTable &lft = perturbed.lft(i);
        const int ports = fabric.node(fabric.nodeByGuid(perturbed.at(i).guid)).portCount;
        for (Lid lid = 1; lid <= lft.top(); lid += 7)
            if (lft.hasRoute(lid) && lft.port(lid) != 0)
                lft.setPort(lid, std::uint8_t(lft.port(lid) % ports + 1));
    }
    std::vector<double> times;
    ReconfigurationDiff diff;
    for (int r = 0; r < repeat; ++r) {
        QElapsedTimer timer;
        timer.start();
        diff = diffForwardingTables(routing->tables, perturbed, &fabric);
        times.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    const double median = medianOf(times);
    if (parser.isSet(QStringLiteral("json"))) {
        printJson(QJsonObject{{QStringLiteral("benchmark"), QStringLiteral("diff")},
                              {QStringLiteral("fabric"), generated->summary},
                              {QStringLiteral("ms_min"), times.front()},
                              {QStringLiteral("ms_median"), median},
                              {QStringLiteral("changed_entries"), double(diff.changedEntries)},
                              {QStringLiteral("changed_blocks"), double(diff.changedBlocks)},
                              {QStringLiteral("switches_touched"), diff.switchesTouched()},
                              {QStringLiteral("smps"), double(diff.smps())}});
        return kExitOk;
    }
    out() << "diff: " << generated->summary << ", ftree vs perturbed copy\n"
          << "  " << QString::number(median, 'f', 2) << " ms median (min " << QString::number(times.front(), 'f', 2)
          << " ms) for " << diff.changedEntries << " changed entries, " << diff.changedBlocks << " changed blocks on "
          << diff.switchesTouched() << " switches (" << diff.smps() << " SMPs)\n";
    out().flush();
    return kExitOk;
}

int benchMigrate(const QStringList &args)
{
    const QString command = QStringLiteral("bench migrate");
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Times FTreeMinRC (and ItRC) migration planning on a generated fat-tree of hypervisors\n"
        "(default: the 36-port 3-level tree, 11,664 hypervisors with 1 VF each) routed by vswitch-ftree:\n"
        "the worst case, a VM moved between the first and the last leaf. The paper reports 3 to 79 ms\n"
        "for the marking alone."));
    addTreeOptions(parser);
    parser.addOption({QStringLiteral("vfs"), QStringLiteral("VFs per hypervisor (default 1)."), QStringLiteral("V"), QStringLiteral("1")});
    parser.addOption({QStringLiteral("repeat"), QStringLiteral("Plans per method (default 20); the median is reported."), QStringLiteral("N"), QStringLiteral("20")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON.")});
    int exitCode = kExitOk;
    if (!parseArguments(parser, command, args, &exitCode))
        return exitCode;
    bool ok = false;
    const int repeat = parser.value(QStringLiteral("repeat")).toInt(&ok);
    if (!ok || repeat < 1)
        return reportBadInput(command, QStringLiteral("--repeat must be a positive number"));
    GeneratorOptions options = treeOptions(parser);
    options.hypervisors = true;
    options.vfsPerHypervisor = parser.value(QStringLiteral("vfs")).toInt(&ok);
    if (!ok || options.vfsPerHypervisor < 1)
        return reportBadInput(command, QStringLiteral("--vfs must be a positive number"));
    Result<GeneratedFabric> generated = generateFabric(options);
    if (!generated)
        return reportBadInput(command, generated.error());
    const Fabric &fabric = generated->fabric;
    Result<VirtualisedFabric> virt = findHypervisors(fabric);
    if (!virt)
        return reportBadInput(command, virt.error());
    Result<PhysicalTree> tree = buildPhysicalTree(fabric, *virt);
    if (!tree)
        return reportBadInput(command, tree.error());
    QElapsedTimer timer;
    timer.start();
    VSwitchRoutingOptions routingOptions;
    routingOptions.vSwitchTables = false;  // physical switches only: what the plans read
    Result<VSwitchRouting> routed = routeVSwitchFatTree(fabric, *virt, *tree, routingOptions);
    if (!routed)
        return reportBadInput(command, routed.error());
    const double routeSeconds = double(timer.nsecsElapsed()) / 1e9;

    MigrationRequest request;
    request.hypervisor = 0;
    request.vf = 0;
    request.destination = int(virt->hypervisors.size()) - 1;
    request.destinationVf = 0;
    request.scheme = LidScheme::Prepopulated;
    struct Figures
    {
        double planning = 0, marking = 0;
        MigrationPlan plan;
    };
    auto measure = [&](ReconfigurationMethod method) -> Result<Figures> {
        request.method = method;
        std::vector<double> planning, marking;
        Figures f;
        for (int i = 0; i < repeat; ++i) {
            Result<MigrationPlan> plan = planMigration(fabric, *virt, *tree, routed->routing.tables, request);
            if (!plan)
                return plan.error();
            planning.push_back(plan->planningSeconds);
            marking.push_back(plan->markingSeconds);
            f.plan = std::move(*plan);
        }
        f.planning = medianOf(planning);
        f.marking = medianOf(marking);
        return f;
    };
    Result<Figures> minrc = measure(ReconfigurationMethod::FTreeMinRC);
    if (!minrc)
        return reportBadInput(command, minrc.error());
    Result<Figures> itrc = measure(ReconfigurationMethod::ItRC);
    if (!itrc)
        return reportBadInput(command, itrc.error());

    if (parser.isSet(QStringLiteral("json"))) {
        printJson(QJsonObject{{QStringLiteral("benchmark"), QStringLiteral("migrate")},
                              {QStringLiteral("fabric"), generated->summary},
                              {QStringLiteral("route_seconds"), routeSeconds},
                              {QStringLiteral("ftreeminrc_planning_seconds"), minrc->planning},
                              {QStringLiteral("ftreeminrc_marking_seconds"), minrc->marking},
                              {QStringLiteral("ftreeminrc_marked"), int(minrc->plan.marked.size())},
                              {QStringLiteral("ftreeminrc_switches"), minrc->plan.switchesTouched},
                              {QStringLiteral("ftreeminrc_smps"), minrc->plan.smps},
                              {QStringLiteral("itrc_planning_seconds"), itrc->planning},
                              {QStringLiteral("itrc_switches"), itrc->plan.switchesTouched},
                              {QStringLiteral("itrc_smps"), itrc->plan.smps}});
        return kExitOk;
    }
    out() << "migrate: " << generated->summary << ", vswitch-ftree in " << QString::number(routeSeconds, 'f', 2) << " s\n"
          << "  FTreeMinRC, first to last leaf: plan " << QString::number(minrc->planning * 1000, 'f', 3) << " ms (marking "
          << QString::number(minrc->marking * 1000, 'f', 3) << " ms), " << minrc->plan.marked.size() << " marked, "
          << minrc->plan.switchesTouched << " changed, " << minrc->plan.smps << " SMPs\n"
          << "  ItRC: plan " << QString::number(itrc->planning * 1000, 'f', 3) << " ms, " << itrc->plan.switchesTouched
          << " changed, " << itrc->plan.smps << " SMPs\n"
          << "  (median of " << repeat << "; the paper's marking: 3.4 ms on this tree)\n";
    out().flush();
    return kExitOk;
}

// Weft's discovery (libibnetdisc into a Fabric) beside the real ibnetdiscover on the same
// simulated fabric, both run as clients of ibsim with OpenSM managing the subnet. Whole
// processes are timed, so the figures include each tool's start-up and output.
int benchDiscover(const QStringList &args)
{
    const QString command = QStringLiteral("bench discover");
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Starts a generated fat-tree (default: the 24-port 3-level tree, 3,456 hosts) in ibsim with\n"
        "OpenSM, then times `weft discover -o FILE` and `ibnetdiscover` on it, both as clients of\n"
        "the simulator, and reports both and their ratio."));
    addTreeOptions(parser, 24);
    parser.addOption({QStringLiteral("repeat"), QStringLiteral("Runs of each tool to time (default 3)."), QStringLiteral("N"), QStringLiteral("3")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON.")});
    int exitCode = kExitOk;
    if (!parseArguments(parser, command, args, &exitCode))
        return exitCode;
    bool ok = false;
    const int repeat = parser.value(QStringLiteral("repeat")).toInt(&ok);
    if (!ok || repeat < 1)
        return reportBadInput(command, QStringLiteral("--repeat must be a positive number"));
    if (const QString missing = SimulatedFabric::missingTools(); !missing.isEmpty())
        return reportBadInput(command, QStringLiteral("this benchmark needs: ") + missing);
    Result<GeneratedFabric> generated = generateTree(parser);
    if (!generated)
        return reportBadInput(command, generated.error());
    const Fabric &fabric = generated->fabric;

    QTemporaryDir dir;
    if (!dir.isValid())
        return reportBadInput(command, QStringLiteral("cannot create a temporary directory"));
    const QString net = dir.filePath(QStringLiteral("fabric.net"));
    const NodeIndex smHost = fabric.endNodes().front();
    if (Status s = writeFileAtomically(net, writeIbsimNet(fabric, smHost), false); !s)
        return reportBadInput(command, s.error());
    SimulatedFabric::Options options;
    options.netFile = net;
    options.smNode = fabric.node(smHost).name;
    options.startTimeoutMs = 3600 * 1000;
    SimulatedFabric sim(options);
    QElapsedTimer timer;
    timer.start();
    if (Status s = sim.start(); !s)
        return reportBadInput(command, s.error());
    const double startSeconds = timer.nsecsElapsed() / 1e9;

    const QString weftBinary = QCoreApplication::applicationFilePath();
    const QString topology = dir.filePath(QStringLiteral("weft.topo"));
    const std::size_t expectedNodes = fabric.nodes().size();
    std::vector<double> weftTimes, weftInternal, theirTimes;
    for (int r = 0; r < repeat; ++r) {
        timer.restart();
        Result<SimulatedFabric::ClientResult> ours = sim.runClient(weftBinary, {QStringLiteral("discover"), QStringLiteral("--json"), QStringLiteral("-o"), topology}, 3600 * 1000);
        const double ourSeconds = timer.nsecsElapsed() / 1e9;
        if (!ours)
            return reportBadInput(command, ours.error());
        if (ours->exitCode != 0)
            return reportBadInput(command, QStringLiteral("weft discover failed: ") + QString::fromUtf8(ours->err));
        const QJsonObject figures = QJsonDocument::fromJson(ours->out).object();
        const std::size_t found = std::size_t(figures.value(QStringLiteral("switches")).toDouble() + figures.value(QStringLiteral("channel_adapters")).toDouble());
        if (found != expectedNodes)
            return reportBadInput(command, QStringLiteral("weft discover found %1 nodes, the fabric has %2").arg(found).arg(expectedNodes));
        weftTimes.push_back(ourSeconds);
        weftInternal.push_back(figures.value(QStringLiteral("discovery_seconds")).toDouble());

        timer.restart();
        Result<SimulatedFabric::ClientResult> theirs = sim.runClient(QStringLiteral("ibnetdiscover"), {}, 3600 * 1000);
        const double theirSeconds = timer.nsecsElapsed() / 1e9;
        if (!theirs)
            return reportBadInput(command, theirs.error());
        if (theirs->exitCode != 0)
            return reportBadInput(command, QStringLiteral("ibnetdiscover failed: ") + QString::fromUtf8(theirs->err));
        Result<Fabric> parsed = readTopology(theirs->out, QStringLiteral("ibnetdiscover output"));
        if (!parsed)
            return reportBadInput(command, parsed.error());
        if (parsed->nodes().size() != expectedNodes)
            return reportBadInput(command, QStringLiteral("ibnetdiscover found %1 nodes, the fabric has %2").arg(parsed->nodes().size()).arg(expectedNodes));
        theirTimes.push_back(theirSeconds);
    }
    const double weftMedian = medianOf(weftTimes);
    const double weftInternalMedian = medianOf(weftInternal);
    const double theirMedian = medianOf(theirTimes);
    const double ratio = theirMedian > 0 ? weftMedian / theirMedian : 0;
    if (parser.isSet(QStringLiteral("json"))) {
        printJson(QJsonObject{{QStringLiteral("benchmark"), QStringLiteral("discover")},
                              {QStringLiteral("fabric"), generated->summary},
                              {QStringLiteral("simulation_start_seconds"), startSeconds},
                              {QStringLiteral("weft_seconds_median"), weftMedian},
                              {QStringLiteral("weft_discovery_seconds_median"), weftInternalMedian},
                              {QStringLiteral("ibnetdiscover_seconds_median"), theirMedian},
                              {QStringLiteral("ratio_weft_to_ibnetdiscover"), ratio},
                              {QStringLiteral("repeat"), repeat}});
        return kExitOk;
    }
    out() << "discover: " << generated->summary << " in ibsim + OpenSM (up in " << QString::number(startSeconds, 'f', 1) << " s)\n"
          << "  weft discover -o FILE: " << QString::number(weftMedian, 'f', 3) << " s (library scan and model "
          << QString::number(weftInternalMedian, 'f', 3) << " s)\n"
          << "  ibnetdiscover:         " << QString::number(theirMedian, 'f', 3) << " s\n"
          << "  ratio Weft / ibnetdiscover: " << QString::number(ratio, 'f', 2) << " (median of " << repeat << ", whole processes)\n";
    out().flush();
    return kExitOk;
}

// The fabric view at scale: the scene of the 11,664-host fat-tree built (layout on a worker
// thread as the window does it, items on this one) and a full repaint at full zoom-out into an
// offscreen image, coloured by load of an ftree routing. Needs a QApplication (main makes one
// for this benchmark, on the offscreen platform unless another is set).
int benchScene(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Time the fabric view's scene build and a full repaint at full zoom-out."));
    addTreeOptions(parser);
    parser.addOption({QStringLiteral("repeat"), QStringLiteral("Runs to time (default 5)."), QStringLiteral("N"), QStringLiteral("5")});
    parser.addOption({QStringLiteral("width"), QStringLiteral("Image width in pixels (default 1600)."), QStringLiteral("PX"), QStringLiteral("1600")});
    parser.addOption({QStringLiteral("height"), QStringLiteral("Image height in pixels (default 1000)."), QStringLiteral("PX"), QStringLiteral("1000")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON.")});
    int exitCode = 0;
    if (!parseArguments(parser, QStringLiteral("bench scene"), args, &exitCode))
        return exitCode;
    if (!qobject_cast<QApplication *>(QCoreApplication::instance()))
        return reportBadInput(QStringLiteral("bench scene"), QStringLiteral("needs the GUI libraries (run as `weft bench scene`)"));
    Result<GeneratedFabric> generated = generateTree(parser);
    if (!generated)
        return reportBadInput(QStringLiteral("bench scene"), generated.error());
    auto fabric = std::make_shared<const Fabric>(std::move(generated.value().fabric));
    const int repeat = std::max(1, parser.value(QStringLiteral("repeat")).toInt());
    const QSize size(std::max(200, parser.value(QStringLiteral("width")).toInt()), std::max(200, parser.value(QStringLiteral("height")).toInt()));

    // Colour by load, as an operator looking at the whole fabric would.
    Result<Routing> routing = routeFabric(QStringLiteral("ftree"), *fabric, Tenancy());
    if (!routing)
        return reportBadInput(QStringLiteral("bench scene"), routing.error());
    auto tables = std::make_shared<const ForwardingTables>(routing.value().tables);
    TrafficModel model;
    model.pattern = TrafficPattern::UniformRandom;
    auto metrics = std::make_shared<const Metrics>(computeMetrics(*fabric, Tenancy(), *tables, model));

    std::vector<double> buildTimes;
    std::vector<double> paintTimes;
    std::size_t items = 0;
    for (int run = 0; run < repeat; ++run) {
        FabricScene scene;
        FabricView view;
        view.resize(size);
        QElapsedTimer timer;
        timer.start();
        FabricLayout layout = QtConcurrent::run([fabric] { return computeFabricLayout(*fabric); }).result();
        scene.setFabric(fabric, std::move(layout));
        scene.setRouting(tables, metrics);
        scene.setLinkColouring(LinkColouring::Load);
        buildTimes.push_back(timer.nsecsElapsed() / 1e9);
        items = scene.items().size();
        view.setFabricScene(&scene);
        view.fitToWindow();
        QImage image(size, QImage::Format_ARGB32_Premultiplied);
        timer.restart();
        QPainter painter(&image);
        view.render(&painter);
        painter.end();
        paintTimes.push_back(timer.nsecsElapsed() / 1e9);
    }
    const double buildMedian = medianOf(buildTimes);
    const double paintMedian = medianOf(paintTimes);
    if (parser.isSet(QStringLiteral("json"))) {
        printJson(QJsonObject{{QStringLiteral("benchmark"), QStringLiteral("scene")},
                              {QStringLiteral("fabric"), generated.value().summary},
                              {QStringLiteral("items"), double(items)},
                              {QStringLiteral("build_seconds_median"), buildMedian},
                              {QStringLiteral("build_seconds_min"), buildTimes.front()},
                              {QStringLiteral("repaint_seconds_median"), paintMedian},
                              {QStringLiteral("repaint_seconds_min"), paintTimes.front()}});
        return kExitOk;
    }
    out() << "scene: " << generated.value().summary << ", " << items << " scene items, "
          << size.width() << "x" << size.height() << " px\n"
          << "  build (layout + items + load colours): median " << QString::number(buildMedian, 'f', 3) << " s, min "
          << QString::number(buildTimes.front(), 'f', 3) << " s (target < 2 s)\n"
          << "  full repaint at full zoom-out: median " << QString::number(paintMedian * 1000, 'f', 1) << " ms, min "
          << QString::number(paintTimes.front() * 1000, 'f', 1) << " ms (target < 50 ms) over " << repeat << " runs\n";
    out().flush();
    return kExitOk;
}

} // namespace

int bench(const QStringList &args)
{
    const QString which = args.value(0);
    if (which == QLatin1String("scene"))
        return benchScene(args.mid(1));
    if (which == QLatin1String("parse"))
        return benchParse(args.mid(1));
    if (which == QLatin1String("route"))
        return benchRoute(args.mid(1));
    if (which == QLatin1String("ebb"))
        return benchEbb(args.mid(1));
    if (which == QLatin1String("migrate"))
        return benchMigrate(args.mid(1));
    if (which == QLatin1String("diff"))
        return benchDiff(args.mid(1));
    if (which == QLatin1String("discover"))
        return benchDiscover(args.mid(1));
    if (which.isEmpty() || which == QLatin1String("--help") || which == QLatin1String("-h")) {
        out() << "Usage: weft bench BENCHMARK [options]\n\nBenchmarks:\n"
                 "  parse    parse ibnetdiscover output of a large fat-tree (time, memory)\n"
                 "  route    route a large fat-tree with a Weft engine, optionally beside OpenSM under ibsim\n"
                 "  ebb      effective bisection bandwidth of a large fat-tree routed by ftree (samples/s)\n"
                 "  diff     reconfiguration diff of two full table sets on a large fat-tree (ms)\n"
                 "  discover Weft's live discovery beside ibnetdiscover on a fat-tree in ibsim + OpenSM\n"
                 "  scene    the fabric view: scene build and full repaint at full zoom-out (offscreen)\n";
        out().flush();
        return which.isEmpty() ? kExitBadInput : kExitOk;
    }
    return reportBadInput(QStringLiteral("bench"), QStringLiteral("unknown benchmark \"%1\" (see weft bench --help)").arg(which));
}

} // namespace weft::cli
