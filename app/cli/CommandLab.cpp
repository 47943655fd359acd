// weft lab: a private simulated fabric (ibsim + the real OpenSM, routing with Weft's engine
// inside it, or with its file engine under --file-engine) to try discovery and commits on. Weft itself reaches it as an ibsim client: the lab re-runs
// this executable with SimulatedFabric::clientEnvironment(), either as the GUI or, headless,
// for one discover -> route -> diff -> commit -> verify loop.

#include "LabBenchTools.h"
#include "CliSupport.h"
#include "Commands.h"

#include "Commit.h"
#include "CommitJournal.h"
#include "CommitPlanning.h"
#include "FabricSession.h"
#include "FabricGenerator.h"
#include "IntentRouting.h"
#include "LabTrafficDriver.h"
#include "LftDump.h"
#include "LiveFabric.h"
#include "PartitionsConf.h"
#include "ReconfigurationPlan.h"
#include "RoutingEngine.h"
#include "SafeFile.h"
#include "SubnetTarget.h"
#include "SimulatedFabric.h"
#include "TopologyFile.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>

#include <cmath>
#include <csignal>
#include <optional>

namespace weft::cli {

namespace {

// Exit status after a signal, as a shell reports it (130 for SIGINT).
int stopOnSignal(SimulatedFabric &sim, QProcess *client)
{
    err() << "weft lab: " << (stopSignal() == SIGINT ? "interrupted" : "terminated") << "; stopping OpenSM and ibsim" << Qt::endl;
    if (client && client->state() != QProcess::NotRunning) {
        client->terminate();
        if (!client->waitForFinished(5000)) {
            client->kill();
            client->waitForFinished(5000);
        }
    }
    sim.stop();
    return 128 + stopSignal();
}

// The files of a lab, all in its private directory.
struct LabFiles
{
    explicit LabFiles(const QString &dir) : dir(dir) {}
    QString dir;
    QString path(const char *name) const { return QDir(dir).filePath(QLatin1String(name)); }
    QString net() const { return path("fabric.net"); }
    QString lfts() const { return path("opensm.lfts"); }
    QString intent() const { return path("weft-intent.json"); }  // OpenSM's event_plugin_options
    bool pluginMode() const { return QFileInfo::exists(intent()); }
    QString partitions() const { return path("partitions.conf"); }
    QString pidFile() const { return path("opensm.pid"); }
    QString planLfts() const { return path("plan.lfts"); }
    QString planPartitions() const { return path("plan-partitions.conf"); }
    QString journal() const { return path("weft-commits.jsonl"); }
    // With --standby: the standby's own files, as on its own host, and the subnet target naming
    // both OpenSMs (`weft commit --target`, the desk's Commit Target).
    QString standby(const char *name) const { return path("standby/") + QLatin1String(name); }
    QString subnetTarget() const { return path("subnet.json"); }
};

// libweftosm.so where OpenSM's loader finds it by name (the package's place).
bool weftOsmPluginInstalled()
{
    for (const char *dir : {"/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib", "/usr/local/lib"})
        if (QFileInfo::exists(QLatin1String(dir) + QStringLiteral("/libweftosm.so")))
            return true;
    return false;
}

// "kary:K:N" (k-ary n-tree), "radix:R:L" (switches of R ports, L levels) or "xgft:H;M..;W.."
// (parseXgft's form).
Result<GeneratorOptions> parseFabricSpec(const QString &spec)
{
    const QStringList parts = spec.split(QLatin1Char(':'));
    const Error bad{{}, 0, QStringLiteral("--fabric: expected kary:K:N, radix:R:L or xgft:H;M1,..;W1,.., not \"%1\"").arg(spec)};
    if (parts.size() == 2 && parts[0] == QLatin1String("xgft")) {
        Result<XgftShape> shape = parseXgft(parts[1]);
        if (!shape)
            return Error{{}, 0, QStringLiteral("--fabric: ") + shape.error().message};
        GeneratorOptions options;
        options.shape = FabricShapeKind::Xgft;
        options.xgft = *shape;
        options.linkSpeed = LinkSpeed::SDR;  // what ibsim reports whatever the file says
        return options;
    }
    if (parts.size() != 3)
        return bad;
    bool okA = false, okB = false;
    const int a = parts[1].toInt(&okA);
    const int b = parts[2].toInt(&okB);
    if (!okA || !okB || a < 2 || b < 1 || b > 4)
        return bad;
    GeneratorOptions options;
    if (parts[0] == QLatin1String("kary")) {
        options.shape = FabricShapeKind::KaryNTree;
        options.arity = a;
    } else if (parts[0] == QLatin1String("radix")) {
        options.shape = FabricShapeKind::SwitchRadix;
        options.radix = a;
    } else {
        return bad;
    }
    options.levels = b;
    options.linkSpeed = LinkSpeed::SDR;  // what ibsim reports whatever the file says
    return options;
}

// Two demo tenants, interleaved across the leaves so that partition-aware routing has work.
std::vector<Partition> demoPartitions(const GeneratedFabric &g)
{
    std::vector<Partition> partitions;
    const char *names[] = {"tenant-red", "tenant-blue"};
    for (int t = 0; t < 2; ++t) {
        Partition p;
        p.name = QLatin1String(names[t]);
        p.pkey = std::uint16_t(t + 1);
        for (std::size_t h = std::size_t(t); h < g.hosts.size(); h += 2) {
            PartitionMember m;
            m.guid = g.fabric.port(g.fabric.portOf(g.hosts[h], 1)).guid;
            m.membership = Membership::Full;
            m.explicitMembership = true;
            p.members.push_back(m);
        }
        partitions.push_back(p);
    }
    return plannedPartitions(partitions);  // as a commit would install them
}

// The file engine's plan: pftree for the tenants, written where OpenSM's files are not (the
// commit puts them in place).
Status writeFilePlan(const LabFiles &files, const Fabric &fabric, const Tenancy &tenancy, const FabricSession &session,
                     Result<CommitPlan> *plan)
{
    Result<Routing> routing = routeFabric(QStringLiteral("pftree"), fabric, tenancy);
    if (!routing)
        return Error{{}, 0, QStringLiteral("routing failed: %1").arg(routing.error().toString())};
    for (const QString &w : routing->warnings)
        out() << "      warning: " << w << Qt::endl;
    PlanLabel label;
    label.partitionsFileName = files.planPartitions();
    label.summary = QStringLiteral("weft lab: pftree for %1 partitions").arg(tenancy.partitions.size());
    ProposedRouting proposed{std::make_shared<const ForwardingTables>(std::move(routing->tables)), routing->serviceLevels};
    *plan = planFromTenancy(&fabric, proposed, tenancy, label, session.held());
    // Only OpenSM reads it: the compact form, streamed.
    if (const Status written = writeLftDumpFile(files.planLfts(), (*plan)->tables, &fabric, LftDumpForm::Compact); !written)
        return written;
    if (const Status written = writeFileAtomically(files.planPartitions(), (*plan)->partitionsConf); !written)
        return written;
    out() << "      plan: " << files.planLfts() << ", " << files.planPartitions() << Qt::endl;
    return Done{};
}

// Runs inside the simulated fabric (as its client): one whole commit loop, through the session
// (what the fabric holds is what it discovered; the plan is the one builder's).
int runLoop(const LabFiles &files)
{
    FabricSession session;
    CommitTarget target;
    if (files.pluginMode())
        target.intentPath = files.intent();
    else
        target.lftsPath = files.lfts();
    target.partitionsPath = files.partitions();
    target.pidFile = files.pidFile();
    target.logPath = qEnvironmentVariable("WEFT_LAB_OPENSM_LOG");
    // pftree's service levels reach the wire only through OpenSM's QoS options.
    target.optionsPath = qEnvironmentVariable("WEFT_LAB_OPENSM_OPTIONS");
    session.setCommitTarget(target);

    out() << "[1/5] discover" << Qt::endl;
    Result<LiveState> live = session.discoverNow();
    if (!live) {
        err() << "weft lab: discovery failed: " << live.error().toString() << Qt::endl;
        return kExitFailure;
    }
    const Fabric &fabric = *live->fabric;
    out() << "      " << fabric.nodes().size() << " nodes, " << fabric.switches().size() << " switches, " << fabric.links().size()
          << " links" << Qt::endl;

    out() << "[2/5] route: pftree for the tenants in " << files.partitions() << Qt::endl;
    Result<PartitionsConfResult> conf = readPartitionsConfFile(files.partitions());
    if (!conf) {
        err() << "weft lab: " << conf.error().toString() << Qt::endl;
        return kExitFailure;
    }
    Tenancy tenancy;
    tenancy.partitions = conf->partitions;
    Result<CommitPlan> planned = Error{{}, 0, {}};
    if (files.pluginMode()) {
        // The plan is an intent: OpenSM's engine routes it (pftree for the tenants).
        Project intent;
        intent.routingEngine = QStringLiteral("pftree");
        intent.tenancy = tenancy;
        planned = planIntentCommit(fabric, intent, writeProject(intent), files.intent(), session.held());
        if (!planned) {
            err() << "weft lab: " << planned.error().toString() << Qt::endl;
            return kExitFailure;
        }
        out() << "      plan: the intent " << files.intent() << " (" << planned->summary << ")" << Qt::endl;
    } else if (const Status written = writeFilePlan(files, fabric, tenancy, session, &planned); !written) {
        err() << "weft lab: " << written.error().toString() << Qt::endl;
        return kExitFailure;
    }
    const CommitPlan &plan = *planned;

    out() << "[3/5] diff, [4/5] commit, [5/5] verify" << Qt::endl;
    CommitOptions options;
    options.journalPath = files.journal();
    options.progress = [](const QString &line) { out() << "      " << line << Qt::endl; };
    const CommitReport report = session.commitNow(plan, options);
    if (!report.stageTimes.empty())
        out() << "timing: " << report.timingText() << Qt::endl;
    out() << "outcome: " << commitOutcomeName(report.outcome) << Qt::endl;
    for (const QString &reason : report.reasons)
        out() << "  - " << reason << Qt::endl;
    return report.ok() ? kExitOk : kExitFailure;
}

// The lab as a traffic source: the driver runs in this process while the fabric runs, and
// follows the tables the switches hold, so a better routing lowers the hot links from the next
// tick on. With the file engine those are the -U file's (a commit writes it, a rollback restores
// it); with Weft's engine inside OpenSM they are read from the switches (dump_lfts): every
// second for half a minute after the intent changed, and every ten seconds otherwise (OpenSM
// re-routes a fault by itself).
class LabTraffic
{
public:
    struct Settings
    {
        QString workload;
        double flowRate = 0;  // bytes/s per flow; 0: the driver's default
        double tickSeconds = 1;
    };

    // The fabric as ibnetdiscover sees it (OpenSM's LIDs, ibsim's node ids), the tables of the
    // -U file, and the first tick: every counter set.
    Status start(SimulatedFabric &sim, const LabFiles &files, const Settings &settings)
    {
        m_sim = &sim;
        m_files = &files;
        m_settings = settings;
        const auto discovered = sim.runClient(QStringLiteral("ibnetdiscover"), {});
        if (!discovered || discovered->exitCode != 0)
            return Error{{}, 0, QStringLiteral("--traffic: ibnetdiscover failed: %1")
                                    .arg(discovered ? QString::fromUtf8(discovered->err).trimmed() : discovered.error().toString())};
        Result<Fabric> fabric = readTopology(discovered->out, QStringLiteral("ibnetdiscover"));
        if (!fabric)
            return fabric.error();
        Result<LabWorkload> workload = parseLabWorkload(settings.workload, *fabric);
        if (!workload)
            return Error{{}, 0, QStringLiteral("--traffic: ") + workload.error().message};
        m_intentStamp = QFileInfo(files.intent()).lastModified();
        Result<ForwardingTables> tables = readTables(*fabric);
        if (!tables)
            return tables.error();
        m_tables = *tables;
        m_driver.emplace(std::move(*fabric), *tables, std::move(*workload), settings.flowRate);
        report(QStringLiteral("traffic"));
        m_sinceTick.start();
        return m_driver->tick(sim, 0);
    }

    // Ticks when a tick is due, first taking up tables that changed since the last one.
    Status poll()
    {
        if (!m_driver || m_sinceTick.elapsed() < qint64(m_settings.tickSeconds * 1000))
            return Done{};
        const double seconds = double(m_sinceTick.restart()) / 1000.0;
        if (tablesMayHaveChanged()) {
            Result<ForwardingTables> tables = readTables(m_driver->fabric());
            if (!tables)
                return tables.error();
            if (!(*tables == m_tables)) {
                m_tables = *tables;
                m_driver->setTables(*tables);
                report(QStringLiteral("traffic follows the new tables"));
            }
        }
        return m_driver->tick(*m_sim, seconds);
    }

    // For the client: the workload as parseLabWorkload reads it and the rate per flow, so that
    // it can put the driver's model (computeLabTraffic) beside what it measures.
    void describeTo(QProcessEnvironment &env) const
    {
        if (!m_driver)
            return;
        env.insert(QStringLiteral("WEFT_LAB_TRAFFIC"), m_driver->workload().toString(m_driver->fabric()));
        env.insert(QStringLiteral("WEFT_LAB_TRAFFIC_RATE"), QString::number(m_driver->load().flowRate, 'g', 17));
    }

private:
    bool tablesMayHaveChanged()
    {
        if (!m_files->pluginMode())
            return QFileInfo(m_files->lfts()).lastModified() != m_tablesStamp;
        const QDateTime intentStamp = QFileInfo(m_files->intent()).lastModified();
        if (intentStamp != m_intentStamp) {
            m_intentStamp = intentStamp;
            m_intentChanged.start();
        }
        const bool recent = m_intentChanged.isValid() && m_intentChanged.elapsed() < 30000;
        return !m_sinceRead.isValid() || m_sinceRead.elapsed() >= (recent ? 1000 : 10000);
    }

    Result<ForwardingTables> readTables(const Fabric &fabric)
    {
        m_sinceRead.start();
        if (m_files->pluginMode()) {
            const auto dump = m_sim->runClient(QStringLiteral("dump_lfts"), {});
            if (!dump || dump->exitCode != 0)
                return Error{{}, 0, QStringLiteral("dump_lfts: %1").arg(dump ? QString::fromUtf8(dump->err).trimmed() : dump.error().toString())};
            return readLftDump(dump->out, QStringLiteral("dump_lfts"), &fabric);
        }
        m_tablesStamp = QFileInfo(m_files->lfts()).lastModified();
        return readLftDumpFile(m_files->lfts(), &fabric);
    }

    void report(const QString &what) const
    {
        const LabTrafficLoad &load = m_driver->load();
        const Fabric &fabric = m_driver->fabric();
        const LabLinkTraffic *hottest = nullptr;
        for (const LabLinkTraffic &l : load.links)
            if (!hottest || l.offered > hottest->offered)
                hottest = &l;
        out() << what << ": " << m_driver->workload().toString(fabric) << ", " << load.flows << " flows at "
              << qint64(load.flowRate) << " bytes/s each, every " << m_settings.tickSeconds << " s; busiest switch-to-switch link "
              << qRound(load.maxSwitchLinkUtilisation(fabric) * 100) << " %";
        if (hottest)
            out() << "; busiest link " << directedLinkText(fabric, hottest->from) << " offered "
                  << qRound(hottest->offered / std::max(hottest->capacity, 1.0) * 100) << " %";
        out() << Qt::endl;
    }

    SimulatedFabric *m_sim = nullptr;
    const LabFiles *m_files = nullptr;
    Settings m_settings;
    std::optional<LabTrafficDriver> m_driver;
    ForwardingTables m_tables;  // what the driver follows
    QDateTime m_tablesStamp;    // the -U file's when read (the file engine)
    QDateTime m_intentStamp;    // the intent's when last seen (Weft's engine)
    QElapsedTimer m_intentChanged, m_sinceRead;
    QElapsedTimer m_sinceTick;
};

}  // namespace

int lab(const QStringList &args)
{
    const QString command = QStringLiteral("lab");
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
                                         "Starts a private simulated fabric: ibsim on a generated fat tree and the real OpenSM\n"
                                         "routing with Weft's engine inside it (event_plugin_name weftosm, routing_engine weft,updn;\n"
                                         "the intent weft-intent.json: ftree, and two demo tenants in partitions.conf), in a private\n"
                                         "directory, and stops both on exit. With --file-engine OpenSM routes with its file engine\n"
                                         "instead (initial tables: ftree routing written by Weft to opensm.lfts), as at a site that\n"
                                         "cannot load Weft's engine.\n"
                                         "  --fabric kary:K:N   a K-ary N-tree (switches of 2K ports), e.g. kary:4:2 (the default)\n"
                                         "  --fabric radix:R:L  L levels of switches with R ports, e.g. radix:8:2\n"
                                         "  --fabric xgft:H;M1,..;W1,..  an XGFT, e.g. \"xgft:2;4,8;2,1\"\n"
                                         "With --gui (the default) Weft's GUI is started as a client of the fabric. With --no-gui\n"
                                         "one loop runs headless: discover, route (pftree for the two tenants), diff, commit,\n"
                                         "verify; the exit status is 0 when the fabric holds the plan.\n"
                                         "With --traffic the lab is a traffic source: every --tick seconds it advances each\n"
                                         "port's counters (PortCountersExtended data and packets, PortXmitWait where a link is\n"
                                         "offered more than its active rate) by the bytes the workload sends across it, routed\n"
                                         "through the tables the switches hold, and follows them after each commit. Workloads:\n"
                                         "  hotspot, hotspot:NODE[,NODE...]  every other host sends to each (default: the last\n"
                                         "                         by LID)\n"
                                         "  a traffic model        %1\n"
                                         "--traffic-rate is per flow; by default the fastest rate at which no host's own link is\n"
                                         "offered more than it carries.\n"
                                         "The lab prints the environment under which the standard tools (ibnetdiscover, dump_lfts,\n"
                                         "smpquery, saquery, ...) reach it. Arguments after -- go to the GUI, e.g. -- --lang nb.")
                                         .arg(trafficModelNames()));
    parser.addOption({QStringLiteral("fabric"), QStringLiteral("Fabric to simulate (see above)."), QStringLiteral("SPEC"), QStringLiteral("kary:4:2")});
    parser.addOption({QStringLiteral("gui"), QStringLiteral("Start the GUI on the lab fabric (default).")});
    parser.addOption({QStringLiteral("no-gui"), QStringLiteral("Run one commit loop headless and exit.")});
    parser.addOption({QStringLiteral("dir"), QStringLiteral("Keep the lab's files in DIR (default: a temporary directory, removed on exit)."), QStringLiteral("DIR")});
    parser.addOption({QStringLiteral("traffic"), QStringLiteral("Drive the port counters with WORKLOAD (see above)."), QStringLiteral("WORKLOAD")});
    parser.addOption({QStringLiteral("traffic-rate"), QStringLiteral("Bytes per second of each flow of --traffic."), QStringLiteral("R")});
    parser.addOption({QStringLiteral("tick"), QStringLiteral("Seconds between two updates of the counters (default 1)."), QStringLiteral("S"), QStringLiteral("1")});
    parser.addOption({QStringLiteral("file-engine"), QStringLiteral("OpenSM routes with its file engine from the tables Weft writes (-U), "
                                                                    "as at a site that cannot load Weft's engine. Default: Weft's engine "
                                                                    "inside OpenSM (libweftosm.so) routes the lab's intent.")});
    parser.addOption({QStringLiteral("standby"), QStringLiteral("Start a second OpenSM as a standby on the last host (priority 5; the master on the first "
                                                                "host gets 10), with the same options, engine and files, polling the "
                                                                "master every second.")});
    QCommandLineOption loopOption(QStringLiteral("run-loop"), QStringLiteral("Internal: the loop, run inside the fabric."), QStringLiteral("DIR"));
    loopOption.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOption(loopOption);
    QCommandLineOption benchToolsOption(QStringLiteral("bench-tools"), QStringLiteral("Internal (weft bench commit): time the standard tools after the loop."), QStringLiteral("FILE"));
    benchToolsOption.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOption(benchToolsOption);
    QCommandLineOption sampleOption(QStringLiteral("smpquery-sample"), QStringLiteral("Internal (weft bench commit): ports smpquery runs over."), QStringLiteral("N"), QStringLiteral("500"));
    sampleOption.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOption(sampleOption);
    int exitCode = kExitOk;
    if (!parseArguments(parser, command, args, &exitCode))
        return exitCode;
    if (parser.isSet(loopOption))
        return runLoop(LabFiles(parser.value(loopOption)));
    if (parser.isSet(QStringLiteral("gui")) && parser.isSet(QStringLiteral("no-gui")))
        return reportBadInput(command, QStringLiteral("--gui and --no-gui exclude each other"));
    const bool gui = !parser.isSet(QStringLiteral("no-gui"));
    if (!gui && !parser.positionalArguments().isEmpty())
        return reportBadInput(command, QStringLiteral("unexpected argument \"%1\": arguments after -- go to the GUI, and --no-gui has none").arg(parser.positionalArguments().constFirst()));
    LabTraffic::Settings trafficSettings;
    trafficSettings.workload = parser.value(QStringLiteral("traffic"));
    if (trafficSettings.workload.isEmpty() && (parser.isSet(QStringLiteral("traffic-rate")) || parser.isSet(QStringLiteral("tick"))))
        return reportBadInput(command, QStringLiteral("--traffic-rate and --tick need --traffic"));
    bool numberOk = true;
    if (parser.isSet(QStringLiteral("traffic-rate"))) {
        trafficSettings.flowRate = parser.value(QStringLiteral("traffic-rate")).toDouble(&numberOk);
        if (!numberOk || !(trafficSettings.flowRate > 0) || !std::isfinite(trafficSettings.flowRate))
            return reportBadInput(command, QStringLiteral("--traffic-rate: expected bytes per second above 0, not \"%1\"")
                                               .arg(parser.value(QStringLiteral("traffic-rate"))));
    }
    trafficSettings.tickSeconds = parser.value(QStringLiteral("tick")).toDouble(&numberOk);
    if (!numberOk || !(trafficSettings.tickSeconds >= 0.1 && trafficSettings.tickSeconds <= 3600))
        return reportBadInput(command, QStringLiteral("--tick: expected seconds from 0.1 to 3600, not \"%1\"").arg(parser.value(QStringLiteral("tick"))));

    const QString missing = SimulatedFabric::missingTools();
    if (!missing.isEmpty()) {
        err() << "weft lab: needs " << missing << Qt::endl;
        return kExitFailure;
    }
    Result<GeneratorOptions> shape = parseFabricSpec(parser.value(QStringLiteral("fabric")));
    if (!shape)
        return reportBadInput(command, shape.error());
    Result<GeneratedFabric> generated = generateFabric(*shape);
    if (!generated)
        return reportBadInput(command, generated.error());
    const Fabric &fabric = generated->fabric;
    out() << "fabric: " << generated->summary << Qt::endl;
    if (!trafficSettings.workload.isEmpty())
        if (Result<LabWorkload> workload = parseLabWorkload(trafficSettings.workload, fabric); !workload)
            return reportBadInput(command, QStringLiteral("--traffic: ") + workload.error().message);

    std::unique_ptr<QTemporaryDir> tempDir;
    QString dir = parser.value(QStringLiteral("dir"));
    if (dir.isEmpty()) {
        tempDir = std::make_unique<QTemporaryDir>();
        if (!tempDir->isValid()) {
            err() << "weft lab: cannot create a temporary directory" << Qt::endl;
            return kExitFailure;
        }
        dir = tempDir->path();
    } else if (!QDir().mkpath(dir)) {
        return reportBadInput(command, QStringLiteral("--dir: cannot create \"%1\"").arg(dir));
    }
    const LabFiles files(QDir(dir).absolutePath());
    const NodeIndex smHost = fabric.endNodes().front();
    const bool fileEngine = parser.isSet(QStringLiteral("file-engine"));
    SimulatedFabric::Options simOptions;
    if (fileEngine) {
        QFile::remove(files.intent());  // a kept --dir's earlier intent would say otherwise
        Result<Routing> initial = routeFabric(QStringLiteral("ftree"), fabric, Tenancy{});
        if (!initial) {
            err() << "weft lab: " << initial.error().toString() << Qt::endl;
            return kExitFailure;
        }
        if (const Status written = writeLftDumpFile(files.lfts(), initial->tables, &fabric, LftDumpForm::Compact); !written) {
            err() << "weft lab: " << written.error().toString() << Qt::endl;
            return kExitFailure;
        }
        simOptions.openSmArgs = {QStringLiteral("-R"), QStringLiteral("file"), QStringLiteral("-U"), files.lfts()};
    } else {
        // Weft's engine inside OpenSM, from the build (beside this executable) or installed where
        // OpenSM's loader finds it; the first intent: ftree (which equals OpenSM's) with the demo
        // tenants' partitions.
        const QString pluginDir = SimulatedFabric::weftOsmPluginDirectory();
        if (pluginDir.isEmpty() && !weftOsmPluginInstalled()) {
            err() << "weft lab: Weft's engine for OpenSM (libweftosm.so) is neither beside this build nor installed; "
                     "install the package, or run the lab with --file-engine"
                  << Qt::endl;
            return kExitFailure;
        }
        Project intent;
        intent.routingEngine = QStringLiteral("ftree");
        intent.tenancy.partitions = demoPartitions(*generated);
        if (const Status written = writeFileAtomically(files.intent(), writeProject(intent), false); !written) {
            err() << "weft lab: " << written.error().toString() << Qt::endl;
            return kExitFailure;
        }
        simOptions.openSmConfig = "event_plugin_name weftosm\nevent_plugin_options " + files.intent().toUtf8() + "\nrouting_engine weft,updn\n";
        if (!pluginDir.isEmpty())
            simOptions.openSmEnvironment = {QStringLiteral("LD_LIBRARY_PATH=") + pluginDir};
    }
    for (const auto &[path, data] : {std::pair{files.net(), writeIbsimNet(fabric, smHost)},
                                     std::pair{files.partitions(), writePartitionsConf(demoPartitions(*generated))}}) {
        const Status written = writeFileAtomically(path, data, false);
        if (!written) {
            err() << "weft lab: " << written.error().toString() << Qt::endl;
            return kExitFailure;
        }
    }

    // With a standby: priorities, and SMInfo polled every second, given up after two misses, so
    // that a takeover is seconds, not OpenSM's default 40 s.
    const bool standby = parser.isSet(QStringLiteral("standby"));
    const QByteArray polling = "sminfo_polling_timeout 1000\npolling_retry_number 2\n";
    if (standby)
        simOptions.openSmConfig += "sm_priority 10\n" + polling;
    simOptions.netFile = files.net();
    simOptions.smNode = fabric.node(smHost).name;
    simOptions.partitionsConf = files.partitions();
    SimulatedFabric sim(simOptions);
    out() << "starting ibsim and OpenSM in " << files.dir << Qt::endl;
    catchStopSignals();
    const Status started = sim.start();
    if (stopSignal())
        return stopOnSignal(sim, nullptr);
    if (!started) {
        err() << "weft lab: " << started.error().toString() << Qt::endl;
        return kExitFailure;
    }
    // OpenSM runs in the foreground here, so it writes no pid file of its own.
    const Status pidWritten = writeFileAtomically(files.pidFile(), QByteArray::number(sim.openSmPid()) + '\n', false);
    if (!pidWritten) {
        err() << "weft lab: " << pidWritten.error().toString() << Qt::endl;
        return kExitFailure;
    }
    out() << "OpenSM pid " << sim.openSmPid() << ", ibsim pid " << sim.ibsimPid() << "; commit target: ";
    if (fileEngine)
        out() << "-U " << files.lfts();
    else
        out() << "Weft's engine inside OpenSM, intent " << files.intent();
    out() << " -P " << files.partitions() << " pid file " << files.pidFile() << Qt::endl;
    if (standby) {
        const NodeIndex standbyHost = generated->hosts.back();
        // Its own copies of the master's files, in a directory of its own, as on its own host.
        const QString ownRouting = fileEngine ? files.standby("opensm.lfts") : files.standby("weft-intent.json");
        QStringList standbyArgs{QStringLiteral("-P"), files.standby("partitions.conf")};
        QByteArray standbyConfig = "sm_priority 5\n" + polling;
        if (fileEngine)
            standbyArgs << QStringLiteral("-R") << QStringLiteral("file") << QStringLiteral("-U") << ownRouting;
        else
            standbyConfig += "event_plugin_options " + ownRouting.toUtf8() + "\n";
        QString copyError;
        QDir().mkpath(files.path("standby"));
        for (const auto &[from, to] : {std::pair{fileEngine ? files.lfts() : files.intent(), ownRouting}, std::pair{files.partitions(), files.standby("partitions.conf")}}) {
            QFile::remove(to);
            if (!QFile::copy(from, to))
                copyError = QStringLiteral("cannot copy %1 to %2").arg(from, to);
        }
        if (!copyError.isEmpty()) {
            err() << "weft lab: " << copyError << Qt::endl;
            sim.stop();
            return kExitFailure;
        }
        const Status standing = sim.startStandbyOpenSm(fabric.node(standbyHost).name, standbyConfig, standbyArgs);
        if (!standing) {
            err() << "weft lab: the standby OpenSM: " << standing.error().toString() << Qt::endl;
            sim.stop();
            return kExitFailure;
        }
        // Under load the master OpenSM (3.3.23, ibsim) was seen to sweep no more after the
        // standby's first trap, however often signalled, and every commit then waited for a
        // sweep that never came: the lab asks it for one and starts it again if none comes.
        for (int attempt = 1;; ++attempt) {
            const qint64 from = sim.openSmLogSize();
            if (sendHangup(sim.openSmPid()) && sim.waitForOpenSmLog(QStringLiteral("SUBNET UP"), 15000, from).ok())
                break;
            if (attempt == 3) {
                err() << "weft lab: the master OpenSM does not sweep when asked since the standby came up (log "
                      << sim.openSmLogPath() << ")" << Qt::endl;
                sim.stop();
                return kExitFailure;
            }
            err() << "weft lab: the master OpenSM did not sweep when asked once the standby came up; starting it again" << Qt::endl;
            if (const Status restarted = sim.restartOpenSm(); !restarted) {
                err() << "weft lab: " << restarted.error().toString() << Qt::endl;
                sim.stop();
                return kExitFailure;
            }
            if (const Status written = writeFileAtomically(files.pidFile(), QByteArray::number(sim.openSmPid()) + '\n', false); !written) {
                err() << "weft lab: " << written.error().toString() << Qt::endl;
                sim.stop();
                return kExitFailure;
            }
        }
        out() << "standby OpenSM pid " << sim.standbyPid() << " on " << fabric.node(standbyHost).name << " (priority 5; the master 10), log "
              << sim.standbyLogPath() << Qt::endl;
        SubnetTarget subnet;
        subnet.subnet = QStringLiteral("lab");
        for (const bool master : {true, false}) {
            SubnetManagerEntry sm;
            sm.name = master ? QStringLiteral("sm1") : QStringLiteral("sm2");
            sm.optionsPath = master ? sim.workDir() + QStringLiteral("/opensm.conf") : sim.workDir() + QStringLiteral("/standby/opensm.conf");
            (fileEngine ? sm.lftsPath : sm.intentPath) = master ? (fileEngine ? files.lfts() : files.intent()) : ownRouting;
            sm.partitionsPath = master ? files.partitions() : files.standby("partitions.conf");
            sm.pidFile = master ? files.pidFile() : files.standby("opensm.pid");
            sm.logPath = master ? sim.openSmLogPath() : sim.standbyLogPath();
            subnet.sms.push_back(sm);
        }
        for (const auto &[path, data] : {std::pair{files.standby("opensm.pid"), QByteArray::number(sim.standbyPid()) + '\n'},
                                         std::pair{files.subnetTarget(), writeSubnetTarget(subnet)}}) {
            if (const Status written = writeFileAtomically(path, data, false); !written) {
                err() << "weft lab: " << written.error().toString() << Qt::endl;
                sim.stop();
                return kExitFailure;
            }
        }
        out() << "subnet target naming both OpenSMs: " << files.subnetTarget() << " (weft target check / weft commit --target)" << Qt::endl;
    }
    // The standard tools reach the lab as Weft does, with this environment in front of them.
    const QProcessEnvironment toolEnv = sim.clientEnvironment();
    out() << "standard tools as clients of the lab (while it runs): env";
    for (const char *name : {"LD_PRELOAD", "IBSIM_SOCKNAME", "SIM_HOST"})
        if (toolEnv.contains(QLatin1String(name)))
            out() << ' ' << name << '=' << shellQuoted(toolEnv.value(QLatin1String(name)));
    out() << " TOOL [ARGS]" << Qt::endl;
    LabTraffic traffic;
    if (!trafficSettings.workload.isEmpty()) {
        if (const Status started = traffic.start(sim, files, trafficSettings); !started) {
            err() << "weft lab: " << started.error().toString() << Qt::endl;
            sim.stop();
            return kExitFailure;
        }
    }

    QProcessEnvironment env = sim.clientEnvironment();
    env.insert(QStringLiteral("WEFT_LAB_DIR"), files.dir);
    traffic.describeTo(env);
    env.insert(QStringLiteral("WEFT_LAB_OPENSM_LOG"), sim.openSmLogPath());
    env.insert(QStringLiteral("WEFT_LAB_OPENSM_OPTIONS"), sim.workDir() + QStringLiteral("/opensm.conf"));
    if (standby)
        env.insert(QStringLiteral("WEFT_LAB_SUBNET_TARGET"), files.subnetTarget());
    QProcess client;
    client.setProcessEnvironment(env);
    client.setProcessChannelMode(QProcess::ForwardedChannels);
    client.setWorkingDirectory(files.dir);
    // The GUI opens on the lab's fabric as Fabric > Discover reads it.
    const QStringList clientArgs = gui ? QStringList{QStringLiteral("--discover")} + parser.positionalArguments() : QStringList{QStringLiteral("lab"), QStringLiteral("--run-loop"), files.dir};
    client.start(QCoreApplication::applicationFilePath(), clientArgs);
    if (!client.waitForStarted(10000)) {
        err() << "weft lab: cannot start " << QCoreApplication::applicationFilePath() << ": " << client.errorString() << Qt::endl;
        sim.stop();
        return kExitFailure;
    }
    while (!client.waitForFinished(100)) {
        if (stopSignal() || client.state() == QProcess::NotRunning)
            break;
        // A tick that fails (ibsim gone) is said once; the lab goes on without traffic.
        if (const Status ticked = traffic.poll(); !ticked) {
            err() << "weft lab: traffic stopped: " << ticked.error().toString() << Qt::endl;
            traffic = LabTraffic();
        }
    }
    if (stopSignal())
        return stopOnSignal(sim, &client);
    int result = client.exitStatus() == QProcess::NormalExit ? client.exitCode() : kExitFailure;
    // `weft bench commit`: the standard tools on the same lab, after the commit.
    if (result == kExitOk && parser.isSet(benchToolsOption)) {
        out() << "timing the standard tools on the lab" << Qt::endl;
        if (const Status timed = runBenchTools(sim, files.dir, parser.value(benchToolsOption), parser.value(sampleOption).toInt()); !timed) {
            err() << "weft lab: " << timed.error().toString() << Qt::endl;
            result = kExitFailure;
        }
    }
    out() << "stopping OpenSM and ibsim" << Qt::endl;
    sim.stop();
    return result;
}

}  // namespace weft::cli
