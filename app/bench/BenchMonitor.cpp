// weft bench monitor. Equal work on both sides: reading every linked port's counters once, from
// a process start, as a client of the simulator. Weft's side is one process that loads the
// fabric (as `weft discover` wrote it) and runs one PortCounterReader pass (ClassPortInfo per
// node, then the counters of each port); the other side is `perfquery -x LID PORT` once per port,
// as an exporter polling perfquery does. A loop over every port of a large fabric takes long, so
// by default it runs over an even sample of the ports and is extrapolated (the output says so).

#include "BenchMonitor.h"

#include "BenchHarness.h"
#include "CliSupport.h"
#include "Commands.h"
#include "FabricGenerator.h"
#include "PortCounterReader.h"
#include "SafeFile.h"
#include "SimulatedFabric.h"
#include "TopologyFile.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>

namespace weft::cli {

namespace {

constexpr int kHourMs = 3600 * 1000;
constexpr int kSteadyPasses = 5;  // timed after the first pass, in a client of their own

// The LID a PMA of `port`'s node answers at: a switch's port 0, an end port's own.
Lid pmaLid(const Fabric &fabric, PortIndex port)
{
    const Port &p = fabric.port(port);
    return fabric.node(p.node).type == NodeType::Switch ? fabric.port(fabric.portOf(p.node, 0)).lid : p.lid;
}

// The client side (`--client-pass TOPOLOGY`, run under the simulator's environment): one pass of
// the reader over every linked port, its figures as one JSON line.
int clientPass(Benchmark &bench, const QString &topology, int inFlight, int steadyPasses)
{
    Result<Fabric> fabric = readTopologyFile(topology);
    if (!fabric)
        return bench.fail(fabric.error());
    PortCounterReader reader(*fabric, LiveOptions{}, inFlight);
    QElapsedTimer timer;
    timer.start();
    Result<PortCounterPass> pass = reader.read();
    const double seconds = secondsOf(timer);
    if (!pass)
        return bench.fail(pass.error());
    const auto answered = std::count_if(pass->samples.begin(), pass->samples.end(), [](const PortCounterSample &s) { return s.answered; });
    // The passes after the first, as a monitor ticking every second makes them: ClassPortInfo is
    // known by then, so each is two queries per port.
    std::vector<double> steady;
    GmpPipelineStats mads;  // of the later passes
    for (int i = 0; i < steadyPasses; ++i) {
        timer.restart();
        Result<PortCounterPass> next = reader.read();
        steady.push_back(secondsOf(timer));
        if (!next)
            return bench.fail(next.error());
        const auto nextAnswered = std::count_if(next->samples.begin(), next->samples.end(), [](const PortCounterSample &s) { return s.answered; });
        if (nextAnswered != answered)
            return bench.fail(QStringLiteral("pass %1 had answers from %2 ports, the first from %3").arg(i + 2).arg(nextAnswered).arg(answered));
        mads.sent += next->mads.sent;
        mads.timeouts += next->mads.timeouts;
        mads.resent += next->mads.resent;
        mads.failed += next->mads.failed;
        mads.peakInFlight = std::max(mads.peakInFlight, next->mads.peakInFlight);
    }
    out() << QJsonDocument(QJsonObject{{QStringLiteral("ports"), double(reader.ports().size())},
                                       {QStringLiteral("answered"), double(answered)},
                                       {QStringLiteral("pass_seconds"), seconds},
                                       {QStringLiteral("steady_pass_seconds_median"), steady.empty() ? 0.0 : medianOf(steady)},
                                       {QStringLiteral("mads_sent"), double(mads.sent)},
                                       {QStringLiteral("mads_timeouts"), double(mads.timeouts)},
                                       {QStringLiteral("mads_resent"), double(mads.resent)},
                                       {QStringLiteral("mads_failed"), double(mads.failed)},
                                       {QStringLiteral("peak_in_flight"), mads.peakInFlight}})
                 .toJson(QJsonDocument::Compact)
          << '\n';
    out().flush();
    return kExitOk;
}

}  // namespace

int benchMonitor(const QStringList &args)
{
    Benchmark bench(QStringLiteral("monitor"), QStringLiteral("Starts a generated fat-tree (default: the 24-port 3-level tree, 3,456 hosts) in ibsim with\n"
                                                              "OpenSM, then, as clients of the simulator, times one full pass of Weft's port-counter reader\n"
                                                              "over every linked port (a whole process: load the fabric, ClassPortInfo per node, counters\n"
                                                              "per port) beside a loop of `perfquery -x LID PORT` over the same ports, and reports both and\n"
                                                              "their ratio. Also reports what applying one tick of samples to the fabric view of the\n"
                                                              "11,664-host tree costs (`weft bench scene`'s recolour figure)."));
    bench.addTreeOptions(24);
    bench.parser().addOption({QStringLiteral("perfquery-sample"), QStringLiteral("Ports the perfquery loop runs over, evenly spread, its time extrapolated to all (default 1000; 0: every port)."), QStringLiteral("N"), QStringLiteral("1000")});
    bench.parser().addOption({QStringLiteral("outstanding-mads"), QStringLiteral("Port counter queries Weft keeps in flight at most (default 64, as weft monitor)."), QStringLiteral("N"), QStringLiteral("64")});
    bench.parser().addOption({QStringLiteral("scene-radix"), QStringLiteral("Switch radix of the 3-level tree whose scene is recoloured (default 36: 11,664 hosts; 0: skip)."), QStringLiteral("R"), QStringLiteral("36")});
    bench.parser().addOption({QStringLiteral("hold"), QStringLiteral("Also run `weft monitor --interval 1 --count N --db` for N ticks and report the ticks that started late and the history's size (default 0: skip)."), QStringLiteral("N"), QStringLiteral("0")});
    bench.parser().addOption({QStringLiteral("client-pass"), QStringLiteral("Internal: run one reader pass over TOPOLOGY as a simulator client."), QStringLiteral("TOPOLOGY")});
    bench.parser().addOption({QStringLiteral("client-steady"), QStringLiteral("Internal: with --client-pass, time N more passes after the first."), QStringLiteral("N"), QStringLiteral("0")});
    if (const std::optional<int> exitCode = bench.parse(args))
        return *exitCode;
    bool ok = false;
    const int inFlight = bench.value(QStringLiteral("outstanding-mads")).toInt(&ok);
    if (!ok || inFlight < 1 || inFlight > 256)
        return bench.fail(QStringLiteral("--outstanding-mads: not a count from 1 to 256: \"%1\"").arg(bench.value(QStringLiteral("outstanding-mads"))));
    if (bench.isSet(QStringLiteral("client-pass")))
        return clientPass(bench, bench.value(QStringLiteral("client-pass")), inFlight, std::max(0, bench.value(QStringLiteral("client-steady")).toInt()));
    const int sampleOption = bench.value(QStringLiteral("perfquery-sample")).toInt(&ok);
    if (!ok || sampleOption < 0)
        return bench.fail(QStringLiteral("--perfquery-sample: not a count: \"%1\"").arg(bench.value(QStringLiteral("perfquery-sample"))));
    const int sceneRadix = bench.value(QStringLiteral("scene-radix")).toInt(&ok);
    if (!ok || sceneRadix < 0)
        return bench.fail(QStringLiteral("--scene-radix: not a radix: \"%1\"").arg(bench.value(QStringLiteral("scene-radix"))));
    const int holdTicks = bench.value(QStringLiteral("hold")).toInt(&ok);
    if (!ok || holdTicks < 0)
        return bench.fail(QStringLiteral("--hold: not a count of ticks: \"%1\"").arg(bench.value(QStringLiteral("hold"))));
    if (const QString missing = SimulatedFabric::missingTools(); !missing.isEmpty())
        return bench.fail(QStringLiteral("this benchmark needs: ") + missing);
    Result<GeneratedFabric> generated = bench.generateTree();
    if (!generated)
        return bench.fail(generated.error());

    QTemporaryDir dir;
    if (!dir.isValid())
        return bench.fail(QStringLiteral("cannot create a temporary directory"));
    const QString net = dir.filePath(QStringLiteral("fabric.net"));
    const NodeIndex smHost = generated->fabric.endNodes().front();
    if (Status s = writeFileAtomically(net, writeIbsimNet(generated->fabric, smHost), false); !s)
        return bench.fail(s.error());
    SimulatedFabric::Options options;
    options.netFile = net;
    options.smNode = generated->fabric.node(smHost).name;
    options.startTimeoutMs = kHourMs;
    SimulatedFabric sim(options);
    QElapsedTimer timer;
    timer.start();
    if (Status s = sim.start(); !s)
        return bench.fail(s.error());
    const double startSeconds = secondsOf(timer);

    // The fabric with OpenSM's LIDs, as Weft's discovery sees it (not timed).
    const QString weftBinary = QCoreApplication::applicationFilePath();
    const QString topology = dir.filePath(QStringLiteral("weft.topo"));
    Result<SimulatedFabric::ClientResult> discovered = sim.runClient(weftBinary, {QStringLiteral("discover"), QStringLiteral("-o"), topology}, kHourMs);
    if (!discovered)
        return bench.fail(discovered.error());
    if (discovered->exitCode != 0)
        return bench.fail(QStringLiteral("weft discover failed: ") + QString::fromUtf8(discovered->err));
    Result<Fabric> fabric = readTopologyFile(topology);
    if (!fabric)
        return bench.fail(fabric.error());
    const std::vector<PortIndex> ports = PortCounterReader(*fabric, LiveOptions{}).ports();  // no MAD sent

    // Weft: one whole process, one pass.
    timer.restart();
    Result<SimulatedFabric::ClientResult> pass = sim.runClient(
        weftBinary, {QStringLiteral("bench"), QStringLiteral("monitor"), QStringLiteral("--client-pass"), topology, QStringLiteral("--outstanding-mads"), QString::number(inFlight)},
        kHourMs);
    const double weftSeconds = secondsOf(timer);
    if (!pass)
        return bench.fail(pass.error());
    if (pass->exitCode != 0)
        return bench.fail(QStringLiteral("the reader's pass failed: ") + QString::fromUtf8(pass->err));
    const QJsonObject figures = QJsonDocument::fromJson(pass->out).object();
    const double passSeconds = figures.value(QStringLiteral("pass_seconds")).toDouble();
    const std::size_t answered = std::size_t(figures.value(QStringLiteral("answered")).toDouble());
    if (answered != ports.size())
        return bench.fail(QStringLiteral("Weft's reader had answers from %1 of %2 ports").arg(answered).arg(ports.size()));

    // The passes a monitor makes every tick (ClassPortInfo known), in a client of their own.
    Result<SimulatedFabric::ClientResult> steadyRun = sim.runClient(
        weftBinary, {QStringLiteral("bench"), QStringLiteral("monitor"), QStringLiteral("--client-pass"), topology, QStringLiteral("--outstanding-mads"), QString::number(inFlight), QStringLiteral("--client-steady"), QString::number(kSteadyPasses)},
        kHourMs);
    if (!steadyRun)
        return bench.fail(steadyRun.error());
    if (steadyRun->exitCode != 0)
        return bench.fail(QStringLiteral("the reader's passes failed: ") + QString::fromUtf8(steadyRun->err));
    const QJsonObject steadyFigures = QJsonDocument::fromJson(steadyRun->out).object();
    const double steadySeconds = steadyFigures.value(QStringLiteral("steady_pass_seconds_median")).toDouble();
    auto steadyCount = [&](const char *key) { return qint64(steadyFigures.value(QLatin1String(key)).toDouble()); };

    // perfquery -x: one process per port, over an even sample of the same ports.
    const std::size_t sample = sampleOption == 0 ? ports.size() : std::min(ports.size(), std::size_t(sampleOption));
    double perfquerySampleSeconds = 0;
    for (std::size_t i = 0; i < sample; ++i) {
        const PortIndex port = ports[i * ports.size() / sample];
        const QStringList perfArgs = {QStringLiteral("-x"), QString::number(pmaLid(*fabric, port)), QString::number(fabric->port(port).number)};
        timer.restart();
        Result<SimulatedFabric::ClientResult> run = sim.runClient(QStringLiteral("perfquery"), perfArgs);
        perfquerySampleSeconds += secondsOf(timer);
        if (!run)
            return bench.fail(run.error());
        if (run->exitCode != 0)
            return bench.fail(QStringLiteral("perfquery %1 failed: %2").arg(perfArgs.join(QLatin1Char(' ')), QString::fromUtf8(run->err)));
    }
    const bool extrapolated = sample < ports.size();
    const double perfquerySeconds = sample ? perfquerySampleSeconds * double(ports.size()) / double(sample) : 0;
    const double ratio = weftSeconds > 0 ? perfquerySeconds / weftSeconds : 0;
    // The monitor itself, one pass a second with the history, for --hold ticks: how many ticks
    // started late (it says so on standard error) and how big the history grew. Raw ticks are
    // kept a minute, then downsampled, so that the run exercises the downsampling too.
    int lateTicks = 0;
    QStringList lateLines;  // the first few, as the monitor said them
    double holdSeconds = 0;
    qint64 historyBytes = 0;
    if (holdTicks > 0) {
        const QString db = dir.filePath(QStringLiteral("history.sqlite"));
        timer.restart();
        Result<SimulatedFabric::ClientResult> held = sim.runClient(
            weftBinary, {QStringLiteral("monitor"), QStringLiteral("--interval"), QStringLiteral("1"), QStringLiteral("--count"), QString::number(holdTicks), QStringLiteral("--db"), db, QStringLiteral("--raw-window"), QStringLiteral("60")},
            kHourMs);
        holdSeconds = secondsOf(timer);
        if (!held)
            return bench.fail(held.error());
        if (held->exitCode != 0)
            return bench.fail(QStringLiteral("weft monitor failed: ") + QString::fromUtf8(held->err));
        lateTicks = int(held->err.count(" s late: "));
        for (const QByteArray &line : held->err.split('\n'))
            if (line.contains(" s late: ") && lateLines.size() < 3)
                lateLines << QString::fromUtf8(line);
        for (const QString &suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")})
            historyBytes += QFileInfo(db + suffix).size();
    }
    sim.stop();

    // One tick of samples on the big tree's scene: `weft bench scene`'s recolour figure, in a
    // process of its own (it needs the GUI libraries).
    double recolourSeconds = -1;
    QString sceneFabric;
    if (sceneRadix > 0) {
        QProcess scene;
        scene.start(weftBinary, {QStringLiteral("bench"), QStringLiteral("scene"), QStringLiteral("--radix"), QString::number(sceneRadix), QStringLiteral("--levels"), QStringLiteral("3"), QStringLiteral("--repeat"), QStringLiteral("3"), QStringLiteral("--json")});
        if (!scene.waitForFinished(kHourMs) || scene.exitCode() != 0)
            return bench.fail(QStringLiteral("weft bench scene failed: ") + QString::fromUtf8(scene.readAllStandardError()));
        const QJsonObject sceneFigures = QJsonDocument::fromJson(scene.readAllStandardOutput()).object();
        recolourSeconds = sceneFigures.value(QStringLiteral("recolour_seconds_median")).toDouble(-1);
        sceneFabric = sceneFigures.value(QStringLiteral("fabric")).toString();
    }

    QJsonObject json{{QStringLiteral("benchmark"), QStringLiteral("monitor")},
                     {QStringLiteral("fabric"), generated->summary},
                     {QStringLiteral("simulation_start_seconds"), startSeconds},
                     {QStringLiteral("ports"), double(ports.size())},
                     {QStringLiteral("outstanding_mads"), inFlight},
                     {QStringLiteral("weft_process_seconds"), weftSeconds},
                     {QStringLiteral("weft_pass_seconds"), passSeconds},
                     {QStringLiteral("weft_steady_pass_seconds_median"), steadySeconds},
                     {QStringLiteral("weft_steady_passes"), kSteadyPasses},
                     {QStringLiteral("mads_sent"), double(steadyCount("mads_sent"))},
                     {QStringLiteral("mads_timeouts"), double(steadyCount("mads_timeouts"))},
                     {QStringLiteral("mads_resent"), double(steadyCount("mads_resent"))},
                     {QStringLiteral("peak_in_flight"), double(steadyCount("peak_in_flight"))},
                     {QStringLiteral("perfquery_ports_run"), double(sample)},
                     {QStringLiteral("perfquery_sample_seconds"), perfquerySampleSeconds},
                     {QStringLiteral("perfquery_seconds"), perfquerySeconds},
                     {QStringLiteral("perfquery_extrapolated"), extrapolated},
                     {QStringLiteral("ratio_perfquery_to_weft"), ratio}};
    if (holdTicks > 0) {
        json.insert(QStringLiteral("hold_ticks"), holdTicks);
        json.insert(QStringLiteral("hold_late_ticks"), lateTicks);
        json.insert(QStringLiteral("hold_seconds"), holdSeconds);
        json.insert(QStringLiteral("hold_history_bytes"), double(historyBytes));
    }
    if (sceneRadix > 0) {
        json.insert(QStringLiteral("scene_fabric"), sceneFabric);
        json.insert(QStringLiteral("scene_recolour_seconds_median"), recolourSeconds);
    }
    return bench.report(json, [&](QTextStream &o) {
        o << "monitor: " << generated->summary << " in ibsim + OpenSM (up in " << QString::number(startSeconds, 'f', 1) << " s), "
          << ports.size() << " linked ports\n"
          << "  weft, one full pass (whole process, " << inFlight << " MADs in flight): " << QString::number(weftSeconds, 'f', 3)
          << " s (the pass itself " << QString::number(passSeconds, 'f', 3) << " s)\n"
          << "  weft, each later pass (ClassPortInfo known, as every tick of weft monitor): median "
          << QString::number(steadySeconds, 'f', 3) << " s of " << kSteadyPasses << " (target < 0.5 s at 3,456 hosts, < 2 s at 11,664);\n    in those passes "
          << steadyCount("mads_sent") << " MADs, " << steadyCount("mads_timeouts") << " timed out, " << steadyCount("mads_resent")
          << " resent, at most " << steadyCount("peak_in_flight") << " in flight\n"
          << "  perfquery -x per port (whole processes): " << QString::number(perfquerySeconds, 'f', 3) << " s";
        if (extrapolated)
            o << ", extrapolated from " << sample << " of the " << ports.size() << " ports (" << QString::number(perfquerySampleSeconds, 'f', 3) << " s)";
        o << "\n  ratio perfquery loop / weft: " << QString::number(ratio, 'f', 1) << "\n";
        if (holdTicks > 0)
            o << "  weft monitor --interval 1 --db, " << holdTicks << " ticks: " << lateTicks << " started late, "
              << QString::number(holdSeconds, 'f', 1) << " s in all (discovery and priming included), history "
              << QString::number(double(historyBytes) / 1e6, 'f', 0) << " MB\n";
        for (const QString &line : lateLines)
            o << "    " << line << "\n";
        if (sceneRadix > 0)
            o << "  one tick of samples applied to the scene of " << sceneFabric << ": median "
              << QString::number(recolourSeconds * 1000, 'f', 1) << " ms (target 50 ms; weft bench scene)\n";
    });
}

}  // namespace weft::cli
