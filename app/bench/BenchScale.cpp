#include "BenchScale.h"

#include "BenchHarness.h"
#include "CliSupport.h"
#include "Commands.h"
#include "EffectiveBisection.h"
#include "FabricSummary.h"
#include "LftDump.h"
#include "PartitionAwareFatTree.h"
#include "ProjectFile.h"
#include "ReconfigurationDiff.h"
#include "RoutingEngine.h"
#include "RoutingEvaluation.h"
#include "SafeFile.h"
#include "SceneTiming.h"
#include "TopologyFile.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>

#include <memory>

namespace weft::cli {

namespace {

constexpr double kMemoryLimitBytes = 1.5e9;  // every stage, at the LID limit (issue: 1.5 GB)
constexpr double kRoutingLimitSeconds = 2.0;  // every routing engine's compute
constexpr int kScalePartitions = 8;           // pftree's tenants
constexpr int kScaleEbbSamples = 1000;
constexpr int kScaleEbbThreads = 2;

struct Stage
{
    const char *name;   // as --stages and --stage take it
    const char *label;  // as the table shows it
    double limitSeconds = 0;  // 0: no time limit
};

// In the order they run: later stages read what `gen` and `dump-write` wrote.
constexpr Stage kStages[] = {
    {"gen", "gen (generate + write topology)"},
    {"info", "info (parse topology + summary)"},
    {"route-ftree", "route ftree", kRoutingLimitSeconds},
    {"route-updn", "route updn", kRoutingLimitSeconds},
    {"route-minhop", "route minhop", kRoutingLimitSeconds},
    {"route-pftree", "route pftree (8 partitions)", kRoutingLimitSeconds},
    {"route-pftree-scattered2", "route pftree (2 scattered phy)", kRoutingLimitSeconds},
    {"route-pftree-scattered8", "route pftree (8 scattered phy)", kRoutingLimitSeconds},
    {"validate-metrics", "validate + metrics"},
    {"ebb", "eBB (1000 samples, 2 threads)"},
    {"diff", "diff of two table sets"},
    {"dump-write", "LFT dump write (compact)"},
    {"dump-read", "LFT dump read"},
    {"scene", "scene build + full repaint"},
    {"project", "project save + load"},
};

const Stage *findStage(const QString &name)
{
    for (const Stage &stage : kStages)
        if (name == QLatin1String(stage.name))
            return &stage;
    return nullptr;
}

QString topologyPath(const QString &work) { return QDir(work).filePath(QStringLiteral("fabric.topo")); }
QString dumpPath(const QString &work) { return QDir(work).filePath(QStringLiteral("ftree.lft")); }
QString projectPath(const QString &work) { return QDir(work).filePath(QStringLiteral("project.weft")); }

// What one stage measured: seconds of the stage itself, and a word on what it did.
struct StageFigures
{
    double seconds = 0;
    QString detail;
};

Result<Routing> routeTree(const GeneratedFabric &generated, const QString &engine)
{
    const Tenancy tenancy = engine == QLatin1String("pftree")
                                ? equalTenants(generated, kScalePartitions, IsolationPolicy::Default)
                                : Tenancy{};
    return routeFabric(engine, generated.fabric, tenancy, RoutingOptions{});
}

// Runs one stage in this process. Setup a stage needs (the fabric, ftree's tables) is not timed.
Result<StageFigures> runStage(const QString &name, const QString &work, const Benchmark &bench)
{
    StageFigures figures;
    QElapsedTimer timer;
    if (name == QLatin1String("info")) {
        timer.start();
        Result<Fabric> fabric = readTopologyFile(topologyPath(work));
        if (!fabric)
            return fabric.error();
        const FabricSummary summary = summarize(*fabric);
        figures.seconds = secondsOf(timer);
        figures.detail = QStringLiteral("%1 switches, %2 hosts, LIDs up to %3").arg(summary.switches).arg(summary.channelAdapters).arg(summary.maxLid);
        return figures;
    }

    timer.start();
    Result<GeneratedFabric> generated = bench.generateTree();
    if (!generated)
        return generated.error();
    const Fabric &fabric = generated->fabric;
    if (name == QLatin1String("gen")) {
        const Status written = writeFileAtomically(topologyPath(work), writeIbnetdiscover(fabric), false);
        if (!written)
            return written.error();
        figures.seconds = secondsOf(timer);
        figures.detail = generated->summary;
        return figures;
    }

    if (name.startsWith(QLatin1String("route-pftree-scattered"))) {
        // Phy-isolated tenants with hosts where a scheduler put them (seeded): the isolation
        // search's case (issue 42).
        const int tenants = name.mid(int(qstrlen("route-pftree-scattered"))).toInt();
        const Tenancy tenancy = scatteredTenants(*generated, tenants, IsolationPolicy::Physical);
        PartitionAwareFatTreeEngine engine(PartitionAwareFatTreeEngine::Algorithm::Extended);
        timer.restart();
        const Status prepared = engine.prepare(fabric, tenancy, RoutingOptions{});
        if (!prepared)
            return prepared.error();
        Result<Routing> routing = engine.route(RoutingOptions{});
        figures.seconds = secondsOf(timer);
        if (!routing)
            return routing.error();
        const IsolationStatus &isolation = engine.lastReport().isolation;
        const char *outcome = isolation.outcome == IsolationOutcome::Kept                ? "kept"
                              : isolation.outcome == IsolationOutcome::ProvenImpossible ? "proven impossible"
                              : isolation.outcome == IsolationOutcome::NotProven        ? "not proven"
                                                                                        : "not asked";
        figures.detail = QStringLiteral("%1 links shared by phy tenants, %2 by one with another; isolation %3")
                             .arg(isolation.phyShared)
                             .arg(isolation.phyConflicts)
                             .arg(QLatin1String(outcome));
        return figures;
    }

    if (name.startsWith(QLatin1String("route-"))) {
        const QString engine = name.mid(6);
        timer.restart();
        Result<Routing> routing = routeTree(*generated, engine);
        figures.seconds = secondsOf(timer);
        if (!routing)
            return routing.error();
        std::size_t entries = 0;
        for (const SwitchForwardingTable &table : routing->tables.switches())
            entries += table.lft.routeCount();
        figures.detail = QStringLiteral("%1 entries, %2 warnings").arg(entries).arg(routing->warnings.size());
        return figures;
    }

    if (name == QLatin1String("scene")) {
        const SceneBench scene(std::make_shared<const Fabric>(std::move(generated.value().fabric)));
        if (!scene.error().isEmpty())
            return Error{{}, 0, scene.error()};
        const SceneTiming timing = scene.run(QSize(1600, 1000));
        figures.seconds = timing.buildSeconds + timing.repaintSeconds;
        const FrameFigures zoom = frameFigures(timing.zoomFrameSeconds);
        const FrameFigures overlayZoom = frameFigures(timing.overlayZoomFrameSeconds);
        // Every figure here has a target of 50 ms (the zoom sequence's by its 95th percentile).
        figures.detail = QStringLiteral("build %1 s, %2 items; full zoom-out repaint %3 ms, tick of loads %4 ms%5; zoom "
                                        "sequence %6 frames, p95 %7 ms, max %8 ms; with overlays: repaint %9 ms, measured "
                                        "tick %10 ms, zoom p95 %11 ms (targets < 50 ms)")
                             .arg(timing.buildSeconds, 0, 'f', 2)
                             .arg(timing.items)
                             .arg(timing.repaintSeconds * 1e3, 0, 'f', 1)
                             .arg(timing.recolourSeconds * 1e3, 0, 'f', 1)
                             .arg(timing.aggregated ? QStringLiteral(" (aggregated)") : QString())
                             .arg(zoom.frames)
                             .arg(zoom.p95Seconds * 1e3, 0, 'f', 1)
                             .arg(zoom.maxSeconds * 1e3, 0, 'f', 1)
                             .arg(timing.overlayRepaintSeconds * 1e3, 0, 'f', 1)
                             .arg(timing.overlayRecolourSeconds * 1e3, 0, 'f', 1)
                             .arg(overlayZoom.p95Seconds * 1e3, 0, 'f', 1);
        return figures;
    }

    if (name == QLatin1String("project")) {
        // What an operator's project holds at this size: the tenants and a weight per host.
        Project project;
        project.tenancy = equalTenants(*generated, kScalePartitions, IsolationPolicy::Default);
        for (std::size_t h = 0; h < generated->hosts.size(); ++h)
            project.tenancy.nodeWeights[fabric.port(fabric.node(generated->hosts[h]).firstPort + 1).guid] = 1.0 + double(h % 4);
        project.routingEngine = QStringLiteral("pftree");
        project.fabricSource = topologyPath(work);
        timer.restart();
        const Status written = writeFileAtomically(projectPath(work), writeProject(project), false);
        if (!written)
            return written.error();
        Result<Project> read = readProjectFile(projectPath(work));
        if (!read)
            return read.error();
        const BoundProject bound = bindProject(*read, fabric);
        figures.seconds = secondsOf(timer);
        figures.detail = QStringLiteral("%1 MB, %2 partitions, %3 weights, %4 GUIDs missing")
                             .arg(double(QFileInfo(projectPath(work)).size()) / 1e6, 0, 'f', 1)
                             .arg(bound.project.tenancy.partitions.size())
                             .arg(bound.project.tenancy.nodeWeights.size())
                             .arg(bound.missing.size());
        return figures;
    }

    if (name == QLatin1String("dump-read")) {
        timer.restart();
        Result<ForwardingTables> tables = readLftDumpFile(dumpPath(work), &fabric);
        if (!tables)
            return tables.error();
        figures.seconds = secondsOf(timer);
        figures.detail = QStringLiteral("%1 switches from %2 MB").arg(tables->size()).arg(double(QFileInfo(dumpPath(work)).size()) / 1e6, 0, 'f', 0);
        return figures;
    }

    // The rest work on ftree's tables.
    Result<Routing> routing = routeTree(*generated, QStringLiteral("ftree"));
    if (!routing)
        return routing.error();
    const ForwardingTables &tables = routing->tables;
    if (name == QLatin1String("validate-metrics")) {
        timer.restart();
        Result<RoutingEvaluation> evaluation = evaluateRouting(fabric, Tenancy{}, tables);
        if (!evaluation)
            return evaluation.error();
        figures.seconds = secondsOf(timer);
        figures.detail = QStringLiteral("validation %1 s (%2), metrics %3 s")
                             .arg(evaluation->validationSeconds, 0, 'f', 2)
                             .arg(evaluation->validation.ok ? QStringLiteral("valid") : QStringLiteral("not valid"))
                             .arg(evaluation->metricsSeconds, 0, 'f', 2);
        return figures;
    }
    if (name == QLatin1String("ebb")) {
        timer.restart();
        Result<EffectiveBisection> prepared = EffectiveBisection::prepare(fabric, tables, Tenancy{});
        if (!prepared)
            return prepared.error();
        EbbRun run;
        run.samples = kScaleEbbSamples;
        run.threads = kScaleEbbThreads;
        Result<EbbResult> result = prepared->run(run);
        if (!result)
            return result.error();
        figures.seconds = secondsOf(timer);
        figures.detail = QStringLiteral("eBB %1; sampling %2 s").arg(result->mean, 0, 'f', 4).arg(result->seconds, 0, 'f', 2);
        return figures;
    }
    if (name == QLatin1String("diff")) {
        const ForwardingTables perturbed = perturbedTables(tables, fabric);
        timer.restart();
        const ReconfigurationDiff diff = diffForwardingTables(tables, perturbed, &fabric);
        figures.seconds = secondsOf(timer);
        figures.detail = QStringLiteral("%1 changed entries, %2 blocks, %3 SMPs").arg(diff.changedEntries).arg(diff.changedBlocks).arg(diff.smps());
        return figures;
    }
    if (name == QLatin1String("dump-write")) {
        timer.restart();
        const Status written = writeLftDumpFile(dumpPath(work), tables, &fabric, LftDumpForm::Compact);
        if (!written)
            return written.error();
        figures.seconds = secondsOf(timer);
        figures.detail = QStringLiteral("%1 MB").arg(double(QFileInfo(dumpPath(work)).size()) / 1e6, 0, 'f', 0);
        return figures;
    }
    return Error{{}, 0, QStringLiteral("unknown stage \"%1\"").arg(name)};
}

// One row of the table, from a stage's process.
struct StageRow
{
    const Stage *stage = nullptr;
    double seconds = -1;
    qint64 peakBytes = 0;
    QString detail;
    QString error;
    bool withinLimits() const
    {
        return error.isEmpty() && double(peakBytes) <= kMemoryLimitBytes
               && (stage->limitSeconds <= 0 || seconds <= stage->limitSeconds);
    }
};

StageRow runStageProcess(const Stage &stage, const QString &work, const Benchmark &bench)
{
    StageRow row;
    row.stage = &stage;
    QProcess process;
    if (QLatin1String(stage.name) == QLatin1String("scene")) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        if (!env.contains(QStringLiteral("QT_QPA_PLATFORM")))
            env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        process.setProcessEnvironment(env);
    }
    process.start(QCoreApplication::applicationFilePath(),
                  {QStringLiteral("bench"), QStringLiteral("scale"), QStringLiteral("--stage"), QLatin1String(stage.name),
                   QStringLiteral("--work"), work, QStringLiteral("--radix"), bench.value(QStringLiteral("radix")),
                   QStringLiteral("--levels"), bench.value(QStringLiteral("levels")), QStringLiteral("--json")});
    if (!process.waitForStarted() || !process.waitForFinished(30 * 60 * 1000)) {
        process.kill();
        row.error = QStringLiteral("the stage's process did not finish: %1").arg(process.errorString());
        return row;
    }
    const QJsonObject json = QJsonDocument::fromJson(process.readAllStandardOutput()).object();
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != kExitOk || json.isEmpty()) {
        row.error = QString::fromLocal8Bit(process.readAllStandardError()).trimmed();
        if (row.error.isEmpty())
            row.error = QStringLiteral("the stage's process failed (exit %1)").arg(process.exitCode());
        return row;
    }
    row.seconds = json.value(QStringLiteral("seconds")).toDouble();
    row.peakBytes = qint64(json.value(QStringLiteral("peak_resident_bytes")).toDouble());
    row.detail = json.value(QStringLiteral("detail")).toString();
    return row;
}

QString megabytes(qint64 bytes) { return QString::number(double(bytes) / 1e6, 'f', 0) + QStringLiteral(" MB"); }

}  // namespace

bool benchScaleNeedsGui(const QStringList &benchArgs)
{
    if (benchArgs.value(0) != QLatin1String("scale"))
        return false;
    const int at = benchArgs.indexOf(QStringLiteral("--stage"));
    return at >= 0 && benchArgs.value(at + 1) == QLatin1String("scene");
}

int benchScale(const QStringList &args)
{
    QStringList stageNames;
    for (const Stage &stage : kStages)
        stageNames << QLatin1String(stage.name);
    Benchmark bench(QStringLiteral("scale"), QStringLiteral(
        "Runs every stage of Weft on one generated fat-tree (default: the 36-port 3-level tree, 11,664\n"
        "hosts; --radix 54: 39,366 hosts, 43,011 LIDs, near the unicast LID limit) and prints the time\n"
        "and peak resident memory of each. Each stage runs in its own `weft` process, so its peak is\n"
        "its own (setup included: the fabric, and ftree's tables for the stages that read tables);\n"
        "the time is the stage's alone. Limits checked: every stage within 1.5 GB, every routing\n"
        "engine within 2 s. Stages: %1.").arg(stageNames.join(QStringLiteral(", "))));
    bench.addTreeOptions();
    bench.parser().addOption({QStringLiteral("stages"), QStringLiteral("Only these stages, comma-separated (later stages need `gen`, dump-read needs dump-write)."), QStringLiteral("LIST")});
    bench.parser().addOption({QStringLiteral("work"), QStringLiteral("Directory for the files the stages write (default: a temporary one, removed at the end)."), QStringLiteral("DIR")});
    bench.parser().addOption({QStringLiteral("stage"), QStringLiteral("Run one stage in this process and print its figures (what the table's processes do)."), QStringLiteral("NAME")});
    if (const std::optional<int> exitCode = bench.parse(args))
        return *exitCode;

    if (bench.isSet(QStringLiteral("stage"))) {
        if (!bench.isSet(QStringLiteral("work")))
            return bench.fail(QStringLiteral("--stage needs --work"));
        const QString name = bench.value(QStringLiteral("stage"));
        if (!findStage(name))
            return bench.fail(QStringLiteral("unknown stage \"%1\" (known: %2)").arg(name, stageNames.join(QStringLiteral(", "))));
        Result<StageFigures> figures = runStage(name, bench.value(QStringLiteral("work")), bench);
        if (!figures)
            return bench.fail(figures.error());
        return bench.report(QJsonObject{{QStringLiteral("stage"), name},
                                        {QStringLiteral("seconds"), figures->seconds},
                                        {QStringLiteral("peak_resident_bytes"), double(peakResidentBytes())},
                                        {QStringLiteral("detail"), figures->detail}},
                            [&](QTextStream &o) {
                                o << name << ": " << QString::number(figures->seconds, 'f', 3) << " s, peak "
                                  << megabytes(peakResidentBytes()) << "; " << figures->detail << '\n';
                            });
    }

    std::vector<const Stage *> chosen;
    if (bench.isSet(QStringLiteral("stages"))) {
        for (const QString &name : bench.value(QStringLiteral("stages")).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const Stage *stage = findStage(name.trimmed());
            if (!stage)
                return bench.fail(QStringLiteral("unknown stage \"%1\" (known: %2)").arg(name, stageNames.join(QStringLiteral(", "))));
            chosen.push_back(stage);
        }
    } else {
        for (const Stage &stage : kStages)
            chosen.push_back(&stage);
    }

    QTemporaryDir temporary;
    QString work = bench.value(QStringLiteral("work"));
    if (work.isEmpty()) {
        if (!temporary.isValid())
            return bench.fail(QStringLiteral("cannot create a temporary directory: %1").arg(temporary.errorString()));
        work = temporary.path();
    } else if (!QDir().mkpath(work)) {
        return bench.fail(QStringLiteral("%1: cannot create the directory").arg(work));
    }

    const bool json = bench.isSet(QStringLiteral("json"));
    const GeneratorOptions shape = bench.treeOptions();
    if (!json)
        err() << "bench scale: " << shape.radix << "-port " << shape.levels << "-level fat-tree, " << chosen.size()
              << " stages, each in its own process..." << Qt::endl;
    std::vector<StageRow> rows;
    QString fabricSummary;
    for (const Stage *stage : chosen) {
        rows.push_back(runStageProcess(*stage, work, bench));
        const StageRow &row = rows.back();
        if (QLatin1String(stage->name) == QLatin1String("gen") && row.error.isEmpty())
            fabricSummary = row.detail;
        if (!json)
            err() << "  " << stage->name << ": " << (row.error.isEmpty() ? QString::number(row.seconds, 'f', 2) + QStringLiteral(" s") : row.error) << Qt::endl;
    }

    int over = 0;
    QJsonArray stagesJson;
    for (const StageRow &row : rows) {
        over += row.withinLimits() ? 0 : 1;
        QJsonObject o{{QStringLiteral("stage"), QLatin1String(row.stage->name)},
                      {QStringLiteral("seconds"), row.seconds},
                      {QStringLiteral("peak_resident_bytes"), double(row.peakBytes)},
                      {QStringLiteral("limit_bytes"), kMemoryLimitBytes},
                      {QStringLiteral("within_limits"), row.withinLimits()},
                      {QStringLiteral("detail"), row.detail}};
        if (row.stage->limitSeconds > 0)
            o[QStringLiteral("limit_seconds")] = row.stage->limitSeconds;
        if (!row.error.isEmpty())
            o[QStringLiteral("error")] = row.error;
        stagesJson.append(o);
    }
    return bench.report(QJsonObject{{QStringLiteral("benchmark"), QStringLiteral("scale")},
                                    {QStringLiteral("fabric"), fabricSummary},
                                    {QStringLiteral("stages"), stagesJson},
                                    {QStringLiteral("within_limits"), over == 0}},
                        [&](QTextStream &o) {
                            o << "scale: " << (fabricSummary.isEmpty() ? QStringLiteral("(gen not run)") : fabricSummary) << '\n'
                              << QStringLiteral("  %1 %2 %3  %4\n").arg(QStringLiteral("stage"), -34).arg(QStringLiteral("seconds"), 8)
                                     .arg(QStringLiteral("peak RSS"), 9).arg(QStringLiteral("limits"));
                            for (const StageRow &row : rows) {
                                if (!row.error.isEmpty()) {
                                    o << QStringLiteral("  %1 failed: %2\n").arg(QLatin1String(row.stage->label), -34).arg(row.error);
                                    continue;
                                }
                                QString limits = QStringLiteral("1.5 GB");
                                if (row.stage->limitSeconds > 0)
                                    limits = QStringLiteral("%1 s, ").arg(row.stage->limitSeconds, 0, 'f', 0) + limits;
                                o << QStringLiteral("  %1 %2 %3  %4 %5  %6\n")
                                         .arg(QLatin1String(row.stage->label), -34)
                                         .arg(row.seconds, 8, 'f', 2)
                                         .arg(megabytes(row.peakBytes), 9)
                                         .arg(limits, -12)
                                         .arg(row.withinLimits() ? QStringLiteral("ok") : QStringLiteral("OVER"), -4)
                                         .arg(row.detail);
                            }
                            o << (over == 0 ? QStringLiteral("every stage within its limits\n")
                                            : QStringLiteral("%1 stage(s) over their limits or failed\n").arg(over));
                        });
}

}  // namespace weft::cli
