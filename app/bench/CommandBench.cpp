// weft bench: speed and memory of Weft's own stages on large fabrics. Benchmarks, not tests:
// they report figures (and ratios against other tools where one exists) and never fail on
// a slow machine. BenchHarness holds what they share; each function here says what it times.

#include "BenchHarness.h"
#include "BenchCommit.h"
#include "BenchSm.h"
#include "BenchMonitor.h"
#include "BenchRemote.h"
#include "BenchResults.h"
#include "BenchScale.h"
#include "CliSupport.h"
#include "Commands.h"
#include "EffectiveBisection.h"
#include "FabricGenerator.h"
#include "PartitionsConf.h"
#include "ReconfigurationDiff.h"
#include "RoutingEngine.h"
#include "SafeFile.h"
#include "SceneTiming.h"
#include "SimulatedFabric.h"
#include "TextReader.h"
#include "TopologyFile.h"
#include "VSwitchMigration.h"


#include <QApplication>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QFileInfo>
#include <QProcess>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <algorithm>

namespace weft::cli {

namespace {

int benchParse(const QStringList &args)
{
    Benchmark bench(QStringLiteral("parse"), QStringLiteral(
        "Times parsing ibnetdiscover output and measures the memory it takes (peak resident growth).\n"
        "Without FILE, the 3-level fat-tree of the given switch radix is generated and written as\n"
        "ibnetdiscover prints it first (radix 36: 11,664 hosts, 1,620 switches)."));
    bench.addTreeOptions();
    bench.addRepeatOption(5);
    bench.parser().addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("ibnetdiscover output to parse (optional)."));
    if (const std::optional<int> exitCode = bench.parse(args))
        return *exitCode;

    QByteArray text;
    QString source;
    if (!bench.parser().positionalArguments().isEmpty()) {
        source = bench.parser().positionalArguments().constFirst();
        Result<QByteArray> data = TextReader::readFile(source);
        if (!data)
            return bench.fail(data.error());
        text = std::move(data).value();
    } else {
        Result<GeneratedFabric> generated = bench.generateTree();
        if (!generated)
            return bench.fail(generated.error());
        text = writeIbnetdiscover(generated->fabric);
        source = generated->summary;
    }

    const Result<Timed<Fabric>> parsed = bench.time([&] { return readTopology(text, source); }, PeakMemory::Measure);
    if (!parsed)
        return bench.fail(parsed.error());
    const Timings &t = parsed->timings;
    const std::size_t hosts = parsed->last.channelAdapterCount();
    const std::size_t switches = parsed->last.switches().size();
    QJsonArray all;
    for (double s : t.seconds)
        all.append(s);
    return bench.report(QJsonObject{{QStringLiteral("benchmark"), QStringLiteral("parse-ibnetdiscover")},
                                    {QStringLiteral("source"), source},
                                    {QStringLiteral("bytes"), double(text.size())},
                                    {QStringLiteral("hosts"), double(hosts)},
                                    {QStringLiteral("switches"), double(switches)},
                                    {QStringLiteral("seconds_min"), t.min()},
                                    {QStringLiteral("seconds_median"), t.median()},
                                    {QStringLiteral("seconds_all"), all},
                                    {QStringLiteral("peak_memory_growth_bytes"), double(t.peakGrowthBytes)}},
                        [&](QTextStream &o) {
                            o << "parse ibnetdiscover output: " << source << '\n'
                              << "  input: " << QString::number(double(text.size()) / 1e6, 'f', 1) << " MB, " << hosts << " hosts, " << switches << " switches\n"
                              << "  time: min " << QString::number(t.min(), 'f', 3) << " s, median " << QString::number(t.median(), 'f', 3)
                              << " s over " << bench.repeat() << " runs (one core)\n"
                              << "  memory: peak resident growth " << QString::number(double(t.peakGrowthBytes) / 1e6, 'f', 1) << " MB\n";
                        });
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

// The whole `weft route` process on the fabric, as an operator runs it: parse the topology and
// partitions.conf, route, write the compact dump. Wall-clock seconds of each run, and the dump's size.
struct ProcessTimings
{
    std::vector<double> seconds;
    qint64 dumpBytes = 0;
};

Result<ProcessTimings> weftRouteProcessSeconds(const Fabric &fabric, const Tenancy &tenancy, const QString &engine, int runs)
{
    QTemporaryDir dir;
    if (!dir.isValid())
        return Error{{}, 0, QStringLiteral("cannot create a temporary directory")};
    const QString topology = dir.filePath(QStringLiteral("fabric.topo"));
    const QString partitions = dir.filePath(QStringLiteral("partitions.conf"));
    const QString dump = dir.filePath(QStringLiteral("weft.lfts"));
    if (Status s = writeFileAtomically(topology, writeIbnetdiscover(fabric), false); !s)
        return s.error();
    if (Status s = writeFileAtomically(partitions, writePartitionsConf(tenancy.partitions), false); !s)
        return s.error();
    ProcessTimings timings;
    for (int run = 0; run < runs; ++run) {
        QFile::remove(dump);
        QFile::remove(backupPath(dump));
        QProcess process;
        QElapsedTimer timer;
        timer.start();
        process.start(QCoreApplication::applicationFilePath(),
                      {QStringLiteral("route"), QStringLiteral("--engine"), engine, QStringLiteral("--topology"), topology,
                       QStringLiteral("--partitions"), partitions, QStringLiteral("--out"), dump});
        if (!process.waitForStarted() || !process.waitForFinished(600 * 1000))
            return Error{{}, 0, QStringLiteral("weft route did not finish: %1").arg(process.errorString())};
        timings.seconds.push_back(double(timer.nsecsElapsed()) / 1e9);
        if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != kExitOk)
            return Error{{}, 0, QStringLiteral("weft route failed: %1").arg(QString::fromLocal8Bit(process.readAllStandardError()).trimmed())};
    }
    timings.dumpBytes = QFileInfo(dump).size();
    medianOf(timings.seconds);
    return timings;
}

int benchRoute(const QStringList &args)
{
    Benchmark bench(QStringLiteral("route"), QStringLiteral(
        "Times a Weft routing engine on a generated fat-tree (default: the 36-port 3-level tree,\n"
        "11,664 hosts) with the hosts split into equal partitions, and with --opensm routes the same\n"
        "fabric with the real OpenSM under ibsim in the same run, for a side-by-side ratio."));
    bench.parser().addOption({QStringLiteral("engine"), QStringLiteral("Weft engine (default ftree)."), QStringLiteral("ENGINE"), QStringLiteral("ftree")});
    bench.addTreeOptions();
    bench.parser().addOption({QStringLiteral("partitions"), QStringLiteral("Partitions the hosts are split into (default 8)."), QStringLiteral("P"), QStringLiteral("8")});
    bench.parser().addOption({QStringLiteral("policy"), QStringLiteral("Isolation policy of every partition (default def-isolation)."), QStringLiteral("POLICY"), QStringLiteral("def-isolation")});
    bench.addRepeatOption(3);
    bench.parser().addOption({QStringLiteral("opensm"), QStringLiteral("Also route with the real OpenSM under ibsim, with this engine (e.g. ftree)."), QStringLiteral("ENGINE")});
    if (const std::optional<int> exitCode = bench.parse(args))
        return *exitCode;

    Result<GeneratedFabric> generated = bench.generateTree();
    if (!generated)
        return bench.fail(generated.error());
    const Fabric &fabric = generated->fabric;
    const auto policy = policyFromName(bench.value(QStringLiteral("policy")));
    if (!policy)
        return bench.fail(QStringLiteral("unknown policy \"%1\"").arg(bench.value(QStringLiteral("policy"))));
    const int partitions = bench.value(QStringLiteral("partitions")).toInt();
    if (partitions < 0 || std::size_t(partitions) > generated->hosts.size())
        return bench.fail(QStringLiteral("--partitions must be between 0 and the number of hosts"));

    const Tenancy tenancy = equalTenants(*generated, partitions, *policy);

    const QString engine = bench.value(QStringLiteral("engine"));
    const Result<Timed<Routing>> routed = bench.time([&] { return routeFabric(engine, fabric, tenancy, RoutingOptions{}); }, PeakMemory::Measure);
    if (!routed)
        return bench.fail(routed.error());
    const Timings &t = routed->timings;
    const std::size_t warnings = std::size_t(routed->last.warnings.size());

    double openSm = -1;
    ProcessTimings process;
    const QString openSmEngine = bench.value(QStringLiteral("opensm"));
    if (!openSmEngine.isEmpty()) {
        err() << "timing the whole `weft route --engine " << engine << "` process (parse, route, write the compact dump)..." << Qt::endl;
        Result<ProcessTimings> timed = weftRouteProcessSeconds(fabric, tenancy, engine, bench.repeat());
        if (!timed)
            return bench.fail(timed.error());
        process = std::move(timed).value();
        err() << "routing the same fabric with OpenSM -R " << openSmEngine << " under ibsim (this takes minutes)..." << Qt::endl;
        Result<double> seconds = openSmRoutingSeconds(fabric, openSmEngine);
        if (!seconds)
            return bench.fail(seconds.error());
        openSm = *seconds;
    }

    QJsonObject json{{QStringLiteral("benchmark"), QStringLiteral("route")},
                     {QStringLiteral("engine"), engine},
                     {QStringLiteral("fabric"), generated->summary},
                     {QStringLiteral("partitions"), partitions},
                     {QStringLiteral("seconds_min"), t.min()},
                     {QStringLiteral("seconds_median"), t.median()},
                     {QStringLiteral("peak_memory_growth_bytes"), double(t.peakGrowthBytes)},
                     {QStringLiteral("warnings"), double(warnings)}};
    if (openSm >= 0) {
        json[QStringLiteral("opensm_engine")] = openSmEngine;
        json[QStringLiteral("opensm_seconds")] = openSm;
        json[QStringLiteral("ratio_opensm_to_weft")] = openSm / t.median();
        const double processMedian = process.seconds[process.seconds.size() / 2];
        json[QStringLiteral("process_seconds_median")] = processMedian;
        json[QStringLiteral("process_seconds_min")] = process.seconds.front();
        json[QStringLiteral("dump_bytes")] = double(process.dumpBytes);
        json[QStringLiteral("ratio_opensm_to_weft_process")] = openSm / processMedian;
    }
    return bench.report(json, [&](QTextStream &o) {
        o << "route " << engine << ": " << generated->summary << ", " << partitions << " partitions ("
          << policyName(*policy) << ")\n"
          << "  Weft: min " << QString::number(t.min(), 'f', 3) << " s, median " << QString::number(t.median(), 'f', 3)
          << " s over " << bench.repeat() << " runs; peak resident growth " << QString::number(double(t.peakGrowthBytes) / 1e6, 'f', 1)
          << " MB; " << warnings << " warnings\n";
        if (openSm >= 0) {
            const double processMedian = process.seconds[process.seconds.size() / 2];
            o << "  whole `weft route` process (parse, route, write the compact dump of "
              << QString::number(double(process.dumpBytes) / 1e6, 'f', 0) << " MB): median " << QString::number(processMedian, 'f', 3)
              << " s, min " << QString::number(process.seconds.front(), 'f', 3) << " s\n"
              << "  OpenSM -R " << openSmEngine << " under ibsim: " << QString::number(openSm, 'f', 3)
              << " s from MASTER to tables configured\n"
              << "  ratio OpenSM / Weft: " << QString::number(openSm / processMedian, 'f', 1) << "x whole process, "
              << QString::number(openSm / t.median(), 'f', 1) << "x routing compute\n";
        }
    });
}

int benchEbb(const QStringList &args)
{
    Benchmark bench(QStringLiteral("ebb"), QStringLiteral(
        "Times the effective bisection bandwidth (one-way random bisections) on a generated fat-tree\n"
        "(default: the 36-port 3-level tree, 11,664 hosts) routed by ftree. Preparation (following\n"
        "every route once) and sampling are timed apart."));
    bench.parser().addOption({QStringLiteral("samples"), QStringLiteral("Random bisections (default 10000)."), QStringLiteral("N"), QStringLiteral("10000")});
    bench.parser().addOption({QStringLiteral("threads"), QStringLiteral("Worker threads (default 2)."), QStringLiteral("T"), QStringLiteral("2")});
    bench.addTreeOptions();
    bench.parser().addOption({QStringLiteral("mode"), QStringLiteral("uni (default) or bidir."), QStringLiteral("MODE"), QStringLiteral("uni")});
    if (const std::optional<int> exitCode = bench.parse(args))
        return *exitCode;
    EbbRun run;
    bool ok = false;
    run.samples = bench.value(QStringLiteral("samples")).toInt(&ok);
    if (!ok || run.samples < 1)
        return bench.fail(QStringLiteral("--samples must be a positive number"));
    run.threads = bench.value(QStringLiteral("threads")).toInt(&ok);
    if (!ok || run.threads < 1)
        return bench.fail(QStringLiteral("--threads must be a positive number"));
    const QString mode = bench.value(QStringLiteral("mode"));
    if (mode != QLatin1String("uni") && mode != QLatin1String("bidir"))
        return bench.fail(QStringLiteral("unknown mode \"%1\" (known: uni, bidir)").arg(mode));
    run.variant = mode == QLatin1String("uni") ? BisectionVariant::OneWay : BisectionVariant::TwoWay;

    Result<GeneratedFabric> generated = bench.generateTree();
    if (!generated)
        return bench.fail(generated.error());
    const Tenancy tenancy;
    Result<Routing> routing = routeFabric(QStringLiteral("ftree"), generated->fabric, tenancy, RoutingOptions{});
    if (!routing)
        return bench.fail(routing.error());

    // One preparation, then the sampling EffectiveBisection times itself.
    const Result<Timed<EffectiveBisection>> prepared =
        bench.time([&] { return EffectiveBisection::prepare(generated->fabric, routing->tables, tenancy); });
    if (!prepared)
        return bench.fail(prepared.error());
    const double prepareSeconds = prepared->timings.min();
    const Result<EbbResult> result = prepared->last.run(run);
    if (!result)
        return bench.fail(result.error());
    const double samplesPerSecond = double(result->samples) / result->seconds;

    return bench.report(QJsonObject{{QStringLiteral("benchmark"), QStringLiteral("ebb")},
                                    {QStringLiteral("fabric"), generated->summary},
                                    {QStringLiteral("mode"), mode},
                                    {QStringLiteral("samples"), result->samples},
                                    {QStringLiteral("threads"), result->threads},
                                    {QStringLiteral("prepare_seconds"), prepareSeconds},
                                    {QStringLiteral("seconds"), result->seconds},
                                    {QStringLiteral("samples_per_second"), samplesPerSecond},
                                    {QStringLiteral("mean"), result->mean},
                                    {QStringLiteral("ci99"), result->ci99}},
                        [&](QTextStream &o) {
                            o << "ebb " << mode << ": " << generated->summary << ", ftree\n"
                              << "  prepare " << QString::number(prepareSeconds, 'f', 3) << " s; " << result->samples << " samples on "
                              << result->threads << " threads in " << QString::number(result->seconds, 'f', 3) << " s ("
                              << QString::number(samplesPerSecond, 'f', 0) << " samples/s)\n"
                              << "  eBB " << QString::number(result->mean, 'f', 4) << " ± " << QString::number(result->ci99, 'f', 4) << " (99 % CI)\n";
                        });
}

int benchDiff(const QStringList &args)
{
    Benchmark bench(QStringLiteral("diff"), QStringLiteral(
        "Times the reconfiguration diff of two full table sets on a generated fat-tree (default: the\n"
        "36-port 3-level tree, 11,664 hosts, 1,620 switches): ftree's tables against a copy in which\n"
        "every switch sends every 7th LID out of another port."));
    bench.addTreeOptions();
    bench.addRepeatOption(5);
    if (const std::optional<int> exitCode = bench.parse(args))
        return *exitCode;
    Result<GeneratedFabric> generated = bench.generateTree();
    if (!generated)
        return bench.fail(generated.error());
    const Fabric &fabric = generated->fabric;
    Result<Routing> routing = routeFabric(QStringLiteral("ftree"), fabric, Tenancy{}, RoutingOptions{});
    if (!routing)
        return bench.fail(routing.error());
    const ForwardingTables perturbed = perturbedTables(routing->tables, fabric);
    const Result<Timed<ReconfigurationDiff>> diffed =
        bench.time([&] { return Result<ReconfigurationDiff>(diffForwardingTables(routing->tables, perturbed, &fabric)); });
    if (!diffed)
        return bench.fail(diffed.error());
    const double msMin = diffed->timings.min() * 1e3;
    const double msMedian = diffed->timings.median() * 1e3;
    const ReconfigurationDiff &diff = diffed->last;
    return bench.report(QJsonObject{{QStringLiteral("benchmark"), QStringLiteral("diff")},
                                    {QStringLiteral("fabric"), generated->summary},
                                    {QStringLiteral("ms_min"), msMin},
                                    {QStringLiteral("ms_median"), msMedian},
                                    {QStringLiteral("changed_entries"), double(diff.changedEntries)},
                                    {QStringLiteral("changed_blocks"), double(diff.changedBlocks)},
                                    {QStringLiteral("switches_touched"), diff.switchesTouched()},
                                    {QStringLiteral("smps"), double(diff.smps())}},
                        [&](QTextStream &o) {
                            o << "diff: " << generated->summary << ", ftree vs perturbed copy\n"
                              << "  " << QString::number(msMedian, 'f', 2) << " ms median (min " << QString::number(msMin, 'f', 2)
                              << " ms) for " << diff.changedEntries << " changed entries, " << diff.changedBlocks << " changed blocks on "
                              << diff.switchesTouched() << " switches (" << diff.smps() << " SMPs)\n";
                        });
}

int benchMigrate(const QStringList &args)
{
    Benchmark bench(QStringLiteral("migrate"), QStringLiteral(
        "Times FTreeMinRC (and ItRC) migration planning on a generated fat-tree of hypervisors\n"
        "(default: the 36-port 3-level tree, 11,664 hypervisors with 1 VF each) routed by vswitch-ftree:\n"
        "the worst case, a VM moved between the first and the last leaf. The paper reports 3 to 79 ms\n"
        "for the marking alone."));
    bench.addTreeOptions();
    bench.parser().addOption({QStringLiteral("vfs"), QStringLiteral("VFs per hypervisor (default 1)."), QStringLiteral("V"), QStringLiteral("1")});
    bench.addRepeatOption(20, QStringLiteral("Plans per method (default %1); the median is reported."));
    if (const std::optional<int> exitCode = bench.parse(args))
        return *exitCode;
    bool ok = false;
    GeneratorOptions options = bench.treeOptions();
    options.hypervisors = true;
    options.vfsPerHypervisor = bench.value(QStringLiteral("vfs")).toInt(&ok);
    if (!ok || options.vfsPerHypervisor < 1)
        return bench.fail(QStringLiteral("--vfs must be a positive number"));
    Result<GeneratedFabric> generated = generateFabric(options);
    if (!generated)
        return bench.fail(generated.error());
    const Fabric &fabric = generated->fabric;
    Result<VirtualisedFabric> virt = findHypervisors(fabric);
    if (!virt)
        return bench.fail(virt.error());
    Result<PhysicalTree> tree = buildPhysicalTree(fabric, *virt);
    if (!tree)
        return bench.fail(tree.error());
    QElapsedTimer timer;
    timer.start();
    VSwitchRoutingOptions routingOptions;
    routingOptions.vSwitchTables = false;  // physical switches only: what the plans read
    Result<VSwitchRouting> routed = routeVSwitchFatTree(fabric, *virt, *tree, routingOptions);
    if (!routed)
        return bench.fail(routed.error());
    const double routeSeconds = double(timer.nsecsElapsed()) / 1e9;

    MigrationRequest request;
    request.hypervisor = 0;
    request.vf = 0;
    request.destination = int(virt->hypervisors.size()) - 1;
    request.destinationVf = 0;
    request.scheme = LidScheme::Prepopulated;
    // Planning times itself (without the caller's overhead), so the plans' own figures count.
    struct Figures
    {
        double planning = 0, marking = 0;
        MigrationPlan plan;
    };
    auto measure = [&](ReconfigurationMethod method) -> Result<Figures> {
        request.method = method;
        std::vector<double> planning, marking;
        Figures f;
        for (int i = 0; i < bench.repeat(); ++i) {
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
        return bench.fail(minrc.error());
    Result<Figures> itrc = measure(ReconfigurationMethod::ItRC);
    if (!itrc)
        return bench.fail(itrc.error());

    return bench.report(QJsonObject{{QStringLiteral("benchmark"), QStringLiteral("migrate")},
                                    {QStringLiteral("fabric"), generated->summary},
                                    {QStringLiteral("route_seconds"), routeSeconds},
                                    {QStringLiteral("ftreeminrc_planning_seconds"), minrc->planning},
                                    {QStringLiteral("ftreeminrc_marking_seconds"), minrc->marking},
                                    {QStringLiteral("ftreeminrc_marked"), int(minrc->plan.marked.size())},
                                    {QStringLiteral("ftreeminrc_switches"), minrc->plan.switchesTouched},
                                    {QStringLiteral("ftreeminrc_smps"), minrc->plan.smps},
                                    {QStringLiteral("itrc_planning_seconds"), itrc->planning},
                                    {QStringLiteral("itrc_switches"), itrc->plan.switchesTouched},
                                    {QStringLiteral("itrc_smps"), itrc->plan.smps}},
                        [&](QTextStream &o) {
                            o << "migrate: " << generated->summary << ", vswitch-ftree in " << QString::number(routeSeconds, 'f', 2) << " s\n"
                              << "  FTreeMinRC, first to last leaf: plan " << QString::number(minrc->planning * 1000, 'f', 3) << " ms (marking "
                              << QString::number(minrc->marking * 1000, 'f', 3) << " ms), " << minrc->plan.marked.size() << " marked, "
                              << minrc->plan.switchesTouched << " changed, " << minrc->plan.smps << " SMPs\n"
                              << "  ItRC: plan " << QString::number(itrc->planning * 1000, 'f', 3) << " ms, " << itrc->plan.switchesTouched
                              << " changed, " << itrc->plan.smps << " SMPs\n"
                              << "  (median of " << bench.repeat() << "; the paper's marking: 3.4 ms on this tree)\n";
                        });
}

// Weft's discovery (libibnetdisc into a Fabric) beside the real ibnetdiscover on the same
// simulated fabric, both run as clients of ibsim with OpenSM managing the subnet. Whole
// processes are timed, so the figures include each tool's start-up and output.
int benchDiscover(const QStringList &args)
{
    Benchmark bench(QStringLiteral("discover"), QStringLiteral(
        "Starts a generated fat-tree (default: the 24-port 3-level tree, 3,456 hosts) in ibsim with\n"
        "OpenSM, then times `weft discover -o FILE` and `ibnetdiscover` on it, both as clients of\n"
        "the simulator, and reports both and their ratio."));
    bench.addTreeOptions(24);
    bench.addRepeatOption(3, QStringLiteral("Runs of each tool to time (default %1)."));
    if (const std::optional<int> exitCode = bench.parse(args))
        return *exitCode;
    if (const QString missing = SimulatedFabric::missingTools(); !missing.isEmpty())
        return bench.fail(QStringLiteral("this benchmark needs: ") + missing);
    Result<GeneratedFabric> generated = bench.generateTree();
    if (!generated)
        return bench.fail(generated.error());
    const Fabric &fabric = generated->fabric;

    QTemporaryDir dir;
    if (!dir.isValid())
        return bench.fail(QStringLiteral("cannot create a temporary directory"));
    const QString net = dir.filePath(QStringLiteral("fabric.net"));
    const NodeIndex smHost = fabric.endNodes().front();
    if (Status s = writeFileAtomically(net, writeIbsimNet(fabric, smHost), false); !s)
        return bench.fail(s.error());
    SimulatedFabric::Options options;
    options.netFile = net;
    options.smNode = fabric.node(smHost).name;
    options.startTimeoutMs = 3600 * 1000;
    SimulatedFabric sim(options);
    QElapsedTimer timer;
    timer.start();
    if (Status s = sim.start(); !s)
        return bench.fail(s.error());
    const double startSeconds = timer.nsecsElapsed() / 1e9;

    const QString weftBinary = QCoreApplication::applicationFilePath();
    const QString topology = dir.filePath(QStringLiteral("weft.topo"));
    const std::size_t expectedNodes = fabric.nodes().size();
    std::vector<double> weftTimes, weftInternal, theirTimes;
    for (int r = 0; r < bench.repeat(); ++r) {
        timer.restart();
        Result<SimulatedFabric::ClientResult> ours = sim.runClient(weftBinary, {QStringLiteral("discover"), QStringLiteral("--json"), QStringLiteral("-o"), topology}, 3600 * 1000);
        const double ourSeconds = timer.nsecsElapsed() / 1e9;
        if (!ours)
            return bench.fail(ours.error());
        if (ours->exitCode != 0)
            return bench.fail(QStringLiteral("weft discover failed: ") + QString::fromUtf8(ours->err));
        const QJsonObject figures = QJsonDocument::fromJson(ours->out).object();
        const std::size_t found = std::size_t(figures.value(QStringLiteral("switches")).toDouble() + figures.value(QStringLiteral("channel_adapters")).toDouble());
        if (found != expectedNodes)
            return bench.fail(QStringLiteral("weft discover found %1 nodes, the fabric has %2").arg(found).arg(expectedNodes));
        weftTimes.push_back(ourSeconds);
        weftInternal.push_back(figures.value(QStringLiteral("discovery_seconds")).toDouble());

        timer.restart();
        Result<SimulatedFabric::ClientResult> theirs = sim.runClient(QStringLiteral("ibnetdiscover"), {}, 3600 * 1000);
        const double theirSeconds = timer.nsecsElapsed() / 1e9;
        if (!theirs)
            return bench.fail(theirs.error());
        if (theirs->exitCode != 0)
            return bench.fail(QStringLiteral("ibnetdiscover failed: ") + QString::fromUtf8(theirs->err));
        Result<Fabric> parsed = readTopology(theirs->out, QStringLiteral("ibnetdiscover output"));
        if (!parsed)
            return bench.fail(parsed.error());
        if (parsed->nodes().size() != expectedNodes)
            return bench.fail(QStringLiteral("ibnetdiscover found %1 nodes, the fabric has %2").arg(parsed->nodes().size()).arg(expectedNodes));
        theirTimes.push_back(theirSeconds);
    }
    const double weftMedian = medianOf(weftTimes);
    const double weftInternalMedian = medianOf(weftInternal);
    const double theirMedian = medianOf(theirTimes);
    const double ratio = theirMedian > 0 ? weftMedian / theirMedian : 0;
    return bench.report(QJsonObject{{QStringLiteral("benchmark"), QStringLiteral("discover")},
                                    {QStringLiteral("fabric"), generated->summary},
                                    {QStringLiteral("simulation_start_seconds"), startSeconds},
                                    {QStringLiteral("weft_seconds_median"), weftMedian},
                                    {QStringLiteral("weft_discovery_seconds_median"), weftInternalMedian},
                                    {QStringLiteral("ibnetdiscover_seconds_median"), theirMedian},
                                    {QStringLiteral("ratio_weft_to_ibnetdiscover"), ratio},
                                    {QStringLiteral("repeat"), bench.repeat()}},
                        [&](QTextStream &o) {
                            o << "discover: " << generated->summary << " in ibsim + OpenSM (up in " << QString::number(startSeconds, 'f', 1) << " s)\n"
                              << "  weft discover -o FILE: " << QString::number(weftMedian, 'f', 3) << " s (library scan and model "
                              << QString::number(weftInternalMedian, 'f', 3) << " s)\n"
                              << "  ibnetdiscover:         " << QString::number(theirMedian, 'f', 3) << " s\n"
                              << "  ratio Weft / ibnetdiscover: " << QString::number(ratio, 'f', 2) << " (median of " << bench.repeat() << ", whole processes)\n";
                        });
}

// The fabric view at scale: the scene of the 11,664-host fat-tree built (layout on a worker
// thread as the window does it, items on this one) and a full repaint at full zoom-out into an
// offscreen image, coloured by load of an ftree routing; a tick of new loads; then the zoom
// sequence, and all of it again with the overlays on. Needs a QApplication (main makes one
// for this benchmark, on the offscreen platform unless another is set).
int benchScene(const QStringList &args)
{
    Benchmark bench(QStringLiteral("scene"),
                    QStringLiteral("Time the fabric view: scene build, a full repaint at full zoom-out, a tick of new loads, and a zoom "
                                   "sequence from full zoom-out through every level of detail to 8:1, panned to the middle and the four "
                                   "corners at each level. Each frame of the sequence is the zoom or pan itself (the switch to or from "
                                   "groups and bundles included) and the viewport's paint event rendered into an offscreen image, as the "
                                   "window paints it (legend and tier labels included). All of it is timed again with the overlays on: a "
                                   "selected switch's cables, what-if marks, eBB bottlenecks, and cables by measured load with congestion "
                                   "rings and error badges (the tick is then a whole measured tick). Target: every figure < 50 ms."));
    bench.addTreeOptions();
    bench.addRepeatOption(5);
    bench.parser().addOption({QStringLiteral("width"), QStringLiteral("Image width in pixels (default 1600)."), QStringLiteral("PX"), QStringLiteral("1600")});
    bench.parser().addOption({QStringLiteral("height"), QStringLiteral("Image height in pixels (default 1000)."), QStringLiteral("PX"), QStringLiteral("1000")});
    if (const std::optional<int> exitCode = bench.parse(args))
        return *exitCode;
    if (!qobject_cast<QApplication *>(QCoreApplication::instance()))
        return bench.fail(QStringLiteral("needs the GUI libraries (run as `weft bench scene`)"));
    Result<GeneratedFabric> generated = bench.generateTree();
    if (!generated)
        return bench.fail(generated.error());
    auto fabric = std::make_shared<const Fabric>(std::move(generated.value().fabric));
    const QSize size(std::max(200, bench.value(QStringLiteral("width")).toInt()), std::max(200, bench.value(QStringLiteral("height")).toInt()));

    const SceneBench scene(fabric);
    if (!scene.error().isEmpty())
        return bench.fail(scene.error());
    // Several figures per run (build, then repaint of what was built), so the runs are timed here.
    std::vector<double> buildTimes;
    std::vector<double> paintTimes;
    std::vector<double> recolourTimes;
    std::vector<double> overlayPaintTimes;
    std::vector<double> overlayRecolourTimes;
    std::vector<double> frames;
    std::vector<double> overlayFrames;
    std::size_t items = 0;
    bool aggregated = false;
    for (int run = 0; run < bench.repeat(); ++run) {
        const SceneTiming timing = scene.run(size);
        buildTimes.push_back(timing.buildSeconds);
        paintTimes.push_back(timing.repaintSeconds);
        recolourTimes.push_back(timing.recolourSeconds);
        overlayPaintTimes.push_back(timing.overlayRepaintSeconds);
        overlayRecolourTimes.push_back(timing.overlayRecolourSeconds);
        frames.insert(frames.end(), timing.zoomFrameSeconds.begin(), timing.zoomFrameSeconds.end());
        overlayFrames.insert(overlayFrames.end(), timing.overlayZoomFrameSeconds.begin(), timing.overlayZoomFrameSeconds.end());
        items = timing.items;
        aggregated = timing.aggregated;
    }
    const double recolourMedian = medianOf(recolourTimes);
    const double buildMedian = medianOf(buildTimes);
    const double paintMedian = medianOf(paintTimes);
    const double overlayPaintMedian = medianOf(overlayPaintTimes);
    const double overlayRecolourMedian = medianOf(overlayRecolourTimes);
    const FrameFigures zoom = frameFigures(frames);
    const FrameFigures overlayZoom = frameFigures(overlayFrames);
    const auto ms = [](double seconds) { return QString::number(seconds * 1000, 'f', 1); };
    const auto frameLine = [&ms](const FrameFigures &f) {
        return QStringLiteral("%1 frames, median %2 ms, 95th percentile %3 ms, max %4 ms (target: 95th percentile < 50 ms)")
            .arg(f.frames)
            .arg(ms(f.medianSeconds), ms(f.p95Seconds), ms(f.maxSeconds));
    };
    return bench.report(QJsonObject{{QStringLiteral("benchmark"), QStringLiteral("scene")},
                                    {QStringLiteral("fabric"), generated.value().summary},
                                    {QStringLiteral("items"), double(items)},
                                    {QStringLiteral("aggregated_at_full_zoom_out"), aggregated},
                                    {QStringLiteral("build_seconds_median"), buildMedian},
                                    {QStringLiteral("build_seconds_min"), buildTimes.front()},
                                    {QStringLiteral("repaint_seconds_median"), paintMedian},
                                    {QStringLiteral("repaint_seconds_min"), paintTimes.front()},
                                    {QStringLiteral("recolour_seconds_median"), recolourMedian},
                                    {QStringLiteral("overlay_repaint_seconds_median"), overlayPaintMedian},
                                    {QStringLiteral("overlay_recolour_seconds_median"), overlayRecolourMedian},
                                    {QStringLiteral("zoom_frames"), double(zoom.frames)},
                                    {QStringLiteral("zoom_frame_median_seconds"), zoom.medianSeconds},
                                    {QStringLiteral("zoom_frame_p95_seconds"), zoom.p95Seconds},
                                    {QStringLiteral("zoom_frame_max_seconds"), zoom.maxSeconds},
                                    {QStringLiteral("overlay_zoom_frames"), double(overlayZoom.frames)},
                                    {QStringLiteral("overlay_zoom_frame_median_seconds"), overlayZoom.medianSeconds},
                                    {QStringLiteral("overlay_zoom_frame_p95_seconds"), overlayZoom.p95Seconds},
                                    {QStringLiteral("overlay_zoom_frame_max_seconds"), overlayZoom.maxSeconds},
                                    {QStringLiteral("target_seconds"), 0.05}},
                        [&](QTextStream &o) {
                            o << "scene: " << generated.value().summary << ", " << items << " scene items, "
                              << size.width() << "x" << size.height() << " px\n"
                              << "  build (layout + items + load colours): median " << QString::number(buildMedian, 'f', 3) << " s, min "
                              << QString::number(buildTimes.front(), 'f', 3) << " s (target < 2 s)\n"
                              << "  full repaint at full zoom-out" << (aggregated ? " (aggregated)" : "") << ": median " << ms(paintMedian)
                              << " ms, min " << ms(paintTimes.front()) << " ms (target < 50 ms) over " << bench.repeat() << " runs\n"
                              << "  recolour for a new per-port load vector: median " << ms(recolourMedian) << " ms (target < 50 ms)\n"
                              << "  zoom sequence: " << frameLine(zoom) << "\n"
                              << "  with overlays (selection, what-if, eBB, measured load with congestion and error marks):\n"
                              << "    full repaint at full zoom-out: median " << ms(overlayPaintMedian) << " ms (target < 50 ms)\n"
                              << "    measured tick: median " << ms(overlayRecolourMedian) << " ms (target < 50 ms)\n"
                              << "    zoom sequence: " << frameLine(overlayZoom) << "\n";
                        });
}

}  // namespace

int bench(const QStringList &args)
{
    const QString which = args.value(0);
    const std::pair<const char *, int (*)(const QStringList &)> benchmarks[] = {
        {"scene", benchScene},
        {"parse", benchParse},
        {"route", benchRoute},
        {"ebb", benchEbb},
        {"migrate", benchMigrate},
        {"diff", benchDiff},
        {"discover", benchDiscover},
        {"scale", benchScale},
        {"monitor", benchMonitor},
        {"results", benchResults},
        {"sm", benchSm},
        {"commit", benchCommit},
        {"remote", benchRemote},
    };
    for (const auto &[name, run] : benchmarks)
        if (which == QLatin1String(name))
            return run(args.mid(1));
    if (which.isEmpty() || which == QLatin1String("--help") || which == QLatin1String("-h")) {
        out() << "Usage: weft bench BENCHMARK [options]\n\nBenchmarks:\n"
                 "  parse    parse ibnetdiscover output of a large fat-tree (time, memory)\n"
                 "  route    route a large fat-tree with a Weft engine, optionally beside OpenSM under ibsim\n"
                 "  ebb      effective bisection bandwidth of a large fat-tree routed by ftree (samples/s)\n"
                 "  diff     reconfiguration diff of two full table sets on a large fat-tree (ms)\n"
                 "  discover Weft's live discovery beside ibnetdiscover on a fat-tree in ibsim + OpenSM\n"
                 "  monitor  one full pass of Weft's port-counter reader beside perfquery -x per port, in ibsim + OpenSM\n"
                 "  scene    the fabric view: scene build, full repaint at full zoom-out, a tick of loads, a zoom sequence (offscreen)\n"
                 "  scale    every stage (gen .. project save/load), each in its own process: time and peak memory\n"
                 "  results  the seeds' headline results recomputed (RESULTS.md's tables; --quick for CI)\n"
                 "  sm       OpenSM's sweep and a cable repair with Weft's engine inside it, beside OpenSM's own, in ibsim\n"
                 "  commit   one verified commit in a lab by stage, and its tables read beside dump_lfts and smpquery, in ibsim\n"
                 "  remote   a desk's first open and a refresh of a running weft serve's fabric: time, bytes on the wire\n";
        out().flush();
        return which.isEmpty() ? kExitBadInput : kExitOk;
    }
    return reportBadInput(QStringLiteral("bench"), QStringLiteral("unknown benchmark \"%1\" (see weft bench --help)").arg(which));
}

}  // namespace weft::cli
