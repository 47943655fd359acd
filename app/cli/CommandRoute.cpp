// weft route: routes a topology with one of Weft's engines and writes the tables as an LFT dump
// that OpenSM's `file` engine loads (`opensm -R file -U DUMP`), plus the engine's service levels.

#include "CliSupport.h"
#include "Commands.h"
#include "DeliveryCheck.h"
#include "FabricSession.h"
#include "IntentRouting.h"
#include "LftDump.h"
#include "NodeRoles.h"
#include "ProjectFile.h"
#include "RoutingEngine.h"
#include "TrafficModel.h"

#include <QElapsedTimer>
#include <QFile>

#include <sys/stat.h>

namespace weft::cli {

namespace {

const QString kRouteCommand = QStringLiteral("route");

}  // namespace

namespace {

// Writes the tables (and service levels beside them) and the summary: both forms of the command.
int writeRouting(const QCommandLineParser &parser, const Fabric &fabric, const Tenancy &tenancy, const Routing &routing,
                 const QString &method, bool strict)
{
    // What the tables leave undelivered, said before anything is written; --strict refuses it.
    const DeliveryCheck delivery = checkDelivery(fabric, tenancy, routing.tables, LaneAssignment{routing.serviceLevels, {}});
    QStringList warnings = routing.warnings;
    warnings << delivery.warnings();
    if (strict && !delivery.delivers()) {
        QStringList lines = delivery.warnings();
        if (delivery.creditLoop)
            lines.removeLast();
        return reportBadInput(kRouteCommand, QStringLiteral("--strict: %1 leaves pairs undelivered, nothing written: %2")
                                                 .arg(method.isEmpty() ? routing.engine : method, lines.join(QStringLiteral("; "))));
    }
    const QString outPath = parser.value(QStringLiteral("out"));
    const bool toStdout = outPath == QLatin1String("-");
    const LftDumpForm form = parser.isSet(QStringLiteral("annotate")) ? LftDumpForm::Annotated : LftDumpForm::Compact;
    const Status written = writeLftDumpOutput(outPath, routing.tables, &fabric, form);
    if (!written) {
        err() << "weft route: " << written.error().toString() << Qt::endl;
        return kExitFailure;
    }
    QString slPath;
    // Beside a regular file only: not beside stdout or a device such as /dev/null (which
    // QFileInfo counts as a file).
    struct stat outStat
    {
    };
    const bool regularFile = ::stat(QFile::encodeName(outPath).constData(), &outStat) == 0 && S_ISREG(outStat.st_mode);
    if (!routing.serviceLevels.empty() && !toStdout && regularFile) {
        slPath = outPath + QStringLiteral(".sl");
        const Status slWritten = writeOutput(slPath, writeServiceLevels(routing.serviceLevels));
        if (!slWritten) {
            err() << "weft route: " << slWritten.error().toString() << Qt::endl;
            return kExitFailure;
        }
    }

    // The summary goes where the tables do not.
    QTextStream &summary = toStdout ? err() : out();
    std::size_t entries = 0;
    for (const SwitchForwardingTable &sw : routing.tables.switches())
        entries += sw.lft.routeCount();
    summary << "engine: " << (method.isEmpty() ? routing.engine : method) << '\n'
            << "switches: " << routing.tables.size() << '\n'
            << "entries: " << entries << '\n'
            << "service levels: " << routing.serviceLevels.size() << " partitions"
            << (slPath.isEmpty() ? QString() : QStringLiteral(" (written to %1)").arg(slPath)) << '\n'
            << "unreachable pairs: " << delivery.unreachablePairs << " of " << delivery.pairs
            << (delivery.unreachableServicePairs
                    ? QStringLiteral(" (%1 between service nodes, %2 with a compute or I/O node)")
                          .arg(delivery.unreachableServicePairs)
                          .arg(delivery.unreachablePairs - delivery.unreachableServicePairs)
                    : QString())
            << '\n'
            << "loops: " << delivery.loops << (delivery.creditLoop ? " (and a credit loop)" : "") << '\n'
            << "warnings: " << warnings.size() << '\n';
    for (const QString &warning : warnings)
        summary << "  " << warning << '\n';
    if (!toStdout)
        summary << "written: " << outPath << '\n';
    summary.flush();
    return kExitOk;
}

// --search-budget: seconds from 0 (no limit), or -1 where not given.
Result<double> searchBudget(const QCommandLineParser &parser)
{
    if (!parser.isSet(QStringLiteral("search-budget")))
        return -1.0;
    bool ok = false;
    const double seconds = parser.value(QStringLiteral("search-budget")).toDouble(&ok);
    if (!ok || !(seconds >= 0) || seconds > 3600)
        return Error{{}, 0, QStringLiteral("--search-budget must be a number of seconds from 0 (no limit) to 3600, not \"%1\"")
                                .arg(parser.value(QStringLiteral("search-budget")))};
    return seconds;
}

// --project: the intent's routing (IntentRouting.h), of a topology file or of the fabric now.
int routeProject(const QCommandLineParser &parser)
{
    for (const char *other : {"engine", "partitions", "policy", "weights", "strict"})
        if (parser.isSet(QString::fromLatin1(other)))
            return reportBadInput(kRouteCommand, QStringLiteral("--%1 and --project exclude each other: the project holds them").arg(QString::fromLatin1(other)));
    if (!parser.isSet(QStringLiteral("out")))
        return reportBadInput(kRouteCommand, QStringLiteral("--out is required"));
    Result<Project> project = readProjectFile(parser.value(QStringLiteral("project")));
    if (!project)
        return reportBadInput(kRouteCommand, project.error());
    if (const Result<IntentOptions> options = intentOptions(*project, parser.value(QStringLiteral("project"))); !options)
        return reportBadInput(kRouteCommand, options.error());
    const Result<double> budget = searchBudget(parser);  // -1: the intent's, else the default
    if (!budget)
        return reportBadInput(kRouteCommand, budget.error());
    Fabric fabric;
    if (parser.isSet(QStringLiteral("topology"))) {
        InputOptions wanted;
        Result<CommandInputs> inputs = loadInputs(parser, wanted);
        if (!inputs)
            return reportBadInput(kRouteCommand, inputs.error());
        fabric = std::move(inputs->fabric);
    } else {
        LiveOptions live;
        int exitCode = kExitOk;
        if (!readLiveOptions(parser, kRouteCommand, &live, &exitCode))
            return exitCode;
        FabricSession session;
        session.setAdapter(live.caName, live.caPort);
        Result<LiveState> discovered = session.discoverNow();
        if (!discovered) {
            err() << "weft route: " << discovered.error().toString() << Qt::endl;
            return kExitFailure;
        }
        fabric = *discovered->fabric;
    }
    if (!project->nodeRoles.empty()) {
        QStringList unknown;
        Result<Fabric> withRoles = fabricWithRoles(fabric, project->nodeRoles, &unknown);
        if (!withRoles)
            return reportBadInput(kRouteCommand, withRoles.error());
        for (const QString &guid : unknown)
            err() << "weft route: not in the fabric, left out: " << guid << " (node role)" << Qt::endl;
        fabric = std::move(withRoles).value();
    }
    const BoundProject bound = bindProject(*project, fabric);
    for (const QString &missing : bound.missing)
        err() << "weft route: not in the fabric, left out: " << missing << Qt::endl;
    QElapsedTimer clock;
    clock.start();
    RoutingOptions options;
    options.searchBudgetSeconds = *budget;
    const Result<IntentRouting> routed = routeIntent(fabric, bound.project, options);
    if (!routed)
        return reportBadInput(kRouteCommand, routed.error());
    // The part Weft's engine does inside OpenSM at a first sweep (with its checks of the walks),
    // beside the summary (stderr when the tables go to stdout).
    (parser.value(QStringLiteral("out")) == QLatin1String("-") ? err() : out()) << "routing time: " << QString::number(double(clock.nsecsElapsed()) / 1e9, 'f', 3) << " s" << Qt::endl;
    for (const QString &note : routed->notes)
        err() << "weft route: passed over " << note << Qt::endl;
    return writeRouting(parser, fabric, bound.project.tenancy, routed->routing, routed->method, false);
}

}  // namespace

int route(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Routes a topology with one of Weft's engines and writes the forwarding tables as an LFT dump\n"
        "(compact: `0xLID PORT portguid 0x...` per entry; --annotate for ibroute's commented form) that\n"
        "OpenSM loads with `opensm -R file -U DUMP`. The file is\n"
        "replaced atomically; what it replaces is kept as DUMP.bak.\n"
        "Where the engine assigns service levels to partitions, they are written to DUMP.sl, one\n"
        "`0xPKEY SL` line per partition (P_Key low 15 bits in hex, SL 0..15, `#` comments); `weft\n"
        "metrics --sl` reads it. Engines: %1.\n"
        "The summary counts the ordered pairs of end ports the tables leave unreachable and the forwarding\n"
        "loops, and names them as warnings with examples (a credit loop too). Pairs of two service nodes\n"
        "(SHArP Aggregation Nodes, a switch's management CA) that up*/down* cannot join (on switches of\n"
        "different branches) are counted apart: \"(K between service nodes, N with a compute or I/O node)\".\n"
        "Exit codes: 0 routed, 2 bad input or the engine refuses the fabric (the reason on stderr),\n"
        "1 the output could not be written.")
        .arg(routingEngineNames().join(QStringLiteral(", "))));
    parser.addOption({QStringLiteral("engine"), QStringLiteral("Routing engine (%1).").arg(routingEngineNames().join(QStringLiteral(", "))), QStringLiteral("ENGINE")});
    parser.addOption({QStringLiteral("topology"), QStringLiteral("Topology: ibnetdiscover output or ibsim net file."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("partitions"), QStringLiteral("OpenSM partitions.conf."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("policy"), QStringLiteral(
        "Isolation policy of partition NAME: phy-isolation, vlane-isolation or def-isolation. Repeatable."), QStringLiteral("NAME=POLICY")});
    parser.addOption({QStringLiteral("strict"), QStringLiteral("Fail when a policy cannot be met, or when the tables leave a pair of end ports unreachable\n"
                                                               "or a forwarding loop; nothing is written (default: route and warn).")});
    parser.addOption({QStringLiteral("weights"), QStringLiteral(
        "Node weights: lines `GUID-or-description weight` (port or node GUID, node description or id; '#' comments)."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("out"), QStringLiteral("Where to write the LFT dump ('-' for stdout)."), QStringLiteral("LFTS")});
    parser.addOption({QStringLiteral("project"), QStringLiteral("Route as Weft's engine inside OpenSM does with this project as its intent: the project's engine\n"
                                                                "and options, partitions, policies and weights, with the same fall-backs (pftree, then updn)\n"
                                                                "where the engine refuses the fabric or its tables are not valid on it. Instead of --engine,\n"
                                                                "--partitions, --policy and --weights. Without --topology the fabric is discovered now."),
                      QStringLiteral("FILE")});
    addRoleOptions(parser);
    parser.addOption({QStringLiteral("search-budget"), QStringLiteral(
        "Seconds pftree's isolation search may take (0: no limit; default: the project's routing option\n"
        "search_budget, else %1 s, as inside OpenSM). The best routing found by then is written, and the\n"
        "isolation line says whether isolation was kept, proven impossible or not proven in time.").arg(kDefaultSearchBudgetSeconds),
        QStringLiteral("SECONDS")});
    addLiveOptions(parser, QStringLiteral("SMP"));
    parser.addOption({QStringLiteral("annotate"), QStringLiteral(
        "Write the dump for people: ibroute's form, each entry with the destination's type, port GUID and\n"
        "description, and column titles. Default: the compact form (`0xLID PORT portguid 0x...` per entry),\n"
        "all OpenSM's file engine reads.")});
    int exitCode = kExitOk;
    if (!parseArguments(parser, kRouteCommand, args, &exitCode))
        return exitCode;
    if (parser.isSet(QStringLiteral("project")))
        return routeProject(parser);
    if (!requireOptionsOnly(parser, kRouteCommand, {"engine", "topology", "out"}, &exitCode))
        return exitCode;

    const QString engineName = parser.value(QStringLiteral("engine"));
    std::unique_ptr<RoutingEngine> engine = makeRoutingEngine(engineName);
    if (!engine)
        return reportBadInput(kRouteCommand, QStringLiteral("unknown routing engine \"%1\" (known: %2)")
                                            .arg(engineName, routingEngineNames().join(QStringLiteral(", "))));
    InputOptions wanted;
    wanted.partitions = wanted.policies = wanted.weights = wanted.strict = wanted.roles = true;
    Result<CommandInputs> inputs = loadInputs(parser, wanted);
    if (!inputs)
        return reportBadInput(kRouteCommand, inputs.error());
    const Fabric &fabric = inputs->fabric;

    // Progress on stderr, only for runs long enough to wonder about.
    QElapsedTimer clock;
    clock.start();
    int lastTenth = -1;
    const Result<double> budget = searchBudget(parser);
    if (!budget)
        return reportBadInput(kRouteCommand, budget.error());
    RoutingOptions options;
    options.searchBudgetSeconds = *budget < 0 ? kDefaultSearchBudgetSeconds : *budget;
    options.progress = [&](int done, int total) {
        if (total <= 0 || clock.elapsed() < 2000)
            return true;
        const int tenth = int(qint64(done) * 10 / total);
        if (tenth != lastTenth) {
            lastTenth = tenth;
            err() << "routing: " << tenth * 10 << "%" << Qt::endl;
        }
        return true;
    };
    // An engine judges the fabric, not a file: its errors name nodes and LIDs, and the file
    // they came from is the topology's.
    const auto inTopology = [&](Error e) {
        if (e.file.isEmpty())
            e.file = parser.value(QStringLiteral("topology"));
        return e.toString();
    };
    const Status prepared = engine->prepare(fabric, inputs->tenancy, options);
    if (!prepared)
        return reportBadInput(kRouteCommand, QStringLiteral("%1 refuses this fabric: %2").arg(engineName, inTopology(prepared.error())));
    const Result<Routing> routing = engine->route(options);
    if (!routing)
        return reportBadInput(kRouteCommand, QStringLiteral("%1 could not route: %2").arg(engineName, inTopology(routing.error())));

    return writeRouting(parser, fabric, inputs->tenancy, *routing, {}, parser.isSet(QStringLiteral("strict")));
}

}  // namespace weft::cli
