// weft commit: install a plan (LFT dump + partitions.conf) on a fabric run by OpenSM with the
// file routing engine, verify it by reading every table back, and roll back when it does not
// hold. The plan files are only read.

#include "CliSupport.h"
#include "Commands.h"
#include "CommitDestinationOptions.h"

#include "Commit.h"
#include "CommitJournal.h"
#include "CommitPlanning.h"
#include "FabricSession.h"
#include "IntentRouting.h"
#include "LftDump.h"
#include "PartitionsConf.h"
#include "SafeFile.h"
#include "ProjectFile.h"
#include "ReconfigurationPlan.h"
#include "SubnetTarget.h"
#include "TextReader.h"
#include "TopologyFile.h"
#include "TrafficModel.h"

#include <QFileInfo>

#include <optional>

namespace weft::cli {

namespace {

// The report as text or JSON; the exit status for its outcome.
int reportCommit(const CommitReport &report, bool json)
{
    if (json) {
        printJson(report.toJson());
    } else {
        if (!report.stageTimes.empty())
            out() << "timing: " << report.timingText() << Qt::endl;
        out() << "outcome: " << commitOutcomeName(report.outcome) << Qt::endl;
        for (const QString &reason : report.reasons)
            out() << "  - " << reason << Qt::endl;
        if (report.ok())
            for (const QString &violation : report.violations)
                out() << "  accepted: " << violation << Qt::endl;
    }
    return commitExitCode(report.outcome);
}

// Plugin mode: the project becomes OpenSM's intent. The plan's tables are what OpenSM's engine
// computes from it for the fabric discovered now (`weft route --project`), and the commit
// verifies that the switches hold exactly those, with the project's partitions on the ports.
// The partitions' service levels are the engine's to answer (path_sl), not partitions.conf's.
int commitIntent(const QCommandLineParser &parser, FabricSession &session, const CommitOptions &options, bool json)
{
    const QString command = QStringLiteral("commit");
    const QString projectPath = parser.value(QStringLiteral("project"));
    Result<QByteArray> bytes = TextReader::readFile(projectPath);
    if (!bytes)
        return reportBadInput(command, bytes.error());
    Result<Project> project = readProject(*bytes, projectPath);
    if (!project)
        return reportBadInput(command, project.error());
    if (const Result<IntentOptions> settings = intentOptions(*project, projectPath, *bytes); !settings)
        return reportBadInput(command, settings.error());
    Result<Fabric> fabric = session.fabricAccess().discover();
    if (!fabric) {
        err() << "weft commit: " << fabric.error().toString() << Qt::endl;
        return kExitFailure;
    }
    QStringList missing;
    Result<CommitPlan> plan = planIntentCommit(*fabric, *project, *bytes, projectPath, HeldTables{}, &missing);
    for (const QString &guid : missing)
        err() << "weft commit: not in the fabric, left out: " << guid << Qt::endl;
    if (!plan)
        return reportBadInput(command, plan.error());
    return reportCommit(session.commitNow(*plan, options), json);
}

}  // namespace

int commit(const QStringList &args)
{
    const QString command = QStringLiteral("commit");
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Installs a plan on a fabric whose OpenSM was started with\n"
        "`-R file -U LFTS -P PARTITIONS`: checks the plan (partitions.conf as OpenSM reads it,\n"
        "reachability, loops, deadlock freedom, isolation; the fabric unchanged since the plan),\n"
        "judging each partition by its policy in --project (strict mode refuses a violation;\n"
        "best-effort lists them and needs --accept-violations),\n"
        "writes both files atomically (previous ones kept as .bak), sends OpenSM SIGHUP, reads\n"
        "every LFT and P_Key table back and compares them with the plan. On a mismatch, a timeout\n"
        "or OpenSM gone it restores the previous files, reloads and verifies them again.\n"
        "Exit status: 0 when the fabric holds the plan; 2 when the plan is refused (unsafe or\n"
        "stale, nothing written) or the input is bad; 1 when the commit failed (see the report).\n"
        "One commit at a time runs on a target (a lock beside --opensm-lfts). Each commit journals\n"
        "its intent before writing and its outcome after; a commit interrupted in between (Weft\n"
        "killed) is found by the next one, which refuses until `weft commit --recover` (with the\n"
        "--opensm-* options and no plan) has verified the fabric against it or rolled it back\n"
        "(--recover --rollback: straight back to the backups, verified).\n"
        "With Weft's engine inside OpenSM (event_plugin_name weftosm, routing_engine weft), give\n"
        "--opensm-intent INTENT (OpenSM's event_plugin_options) instead of --opensm-lfts and the\n"
        "project alone as the plan: `weft commit --project P --opensm-intent INTENT\n"
        "--opensm-partitions PATH --opensm-pidfile F`. The project is written as the intent, and the\n"
        "switches must then hold exactly what `weft route --project P` computes for the fabric\n"
        "discovered now, with the project's partitions."));
    parser.addOption({QStringLiteral("plan-lfts"), QStringLiteral("The planned forwarding tables (LFT dump); the service levels `weft route` wrote beside it (FILE.sl) are part of the plan."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("plan-partitions"), QStringLiteral("The planned partitions.conf (default with --project: the "
                                                                       "project's partitions)."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("project"), QStringLiteral("The Weft project the plan was made for: each partition's isolation "
                                                               "policy and the policy mode are checked (without it every partition "
                                                               "counts as def-isolation)."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("plan-topology"), QStringLiteral("The topology the plan was made for (ibnetdiscover output); "
                                                                     "the commit is refused as stale if the fabric differs."), QStringLiteral("FILE")});
    addCommitDestinationOptions(parser);
    parser.addOption({QStringLiteral("recover"), QStringLiteral("Bring an interrupted commit on the target (journalled, without an outcome) "
                                                               "to a verified state: its plan verified on the fabric, else the backups restored "
                                                               "and verified. No plan options.")});
    parser.addOption({QStringLiteral("rollback"), QStringLiteral("With --recover: restore the backups the journal names and verify them, "
                                                                "without trying the interrupted commit's files.")});
    parser.addOption({QStringLiteral("force"), QStringLiteral("Replace a partitions.conf or intent someone edited since Weft last wrote it "
                                                              "(it is kept as the backup). With --recover: go on although a file or backup is "
                                                              "not what the journal's SHA-256 digests say the interrupted commit wrote or kept.")});
    parser.addOption({QStringLiteral("backups"), QStringLiteral("Backup generations to keep of each file written: FILE.bak, FILE.bak.1, ... "
                                                                "(default 3)."),
                      QStringLiteral("N"), QStringLiteral("3")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print the report as JSON.")});
    int exitCode = kExitOk;
    if (!parseArguments(parser, command, args, &exitCode))
        return exitCode;
    const bool recover = parser.isSet(QStringLiteral("recover"));
    if (recover) {
        for (const char *plan : {"plan-lfts", "plan-partitions", "project", "plan-topology", "accept-violations"})
            if (parser.isSet(QLatin1String(plan)))
                return reportBadInput(command, QStringLiteral("--recover takes no plan (the journal has it): drop --%1").arg(QLatin1String(plan)));
    } else if (parser.isSet(QStringLiteral("rollback"))) {
        return reportBadInput(command, QStringLiteral("--rollback goes with --recover (a commit that fails rolls back by itself)"));
    } else if (!parser.isSet(QStringLiteral("plan-partitions")) && !parser.isSet(QStringLiteral("project"))) {
        return reportBadInput(command, QStringLiteral("--plan-partitions or --project is required"));
    }
    Result<CommitDestinationChoice> destination = readCommitDestinationOptions(parser);
    if (!destination)
        return reportBadInput(command, destination.error());
    const bool subnet = destination->subnet.has_value();
    const bool pluginMode = destination->pluginMode();
    if (pluginMode && !recover && !parser.isSet(QStringLiteral("project")))
        return reportBadInput(command, QStringLiteral("--opensm-intent needs --project: the project is the intent"));
    if (pluginMode && (parser.isSet(QStringLiteral("plan-lfts")) || parser.isSet(QStringLiteral("plan-partitions"))))
        return reportBadInput(command, QStringLiteral("--opensm-intent installs a project (--project), not plan files: OpenSM's engine routes it"));
    for (const char *required : {"plan-lfts", "opensm-lfts", "opensm-partitions", "opensm-pidfile"}) {
        const QLatin1String name(required);
        if (pluginMode && (name == QLatin1String("plan-lfts") || name == QLatin1String("opensm-lfts")))
            continue;
        if (subnet && name.startsWith(QLatin1String("opensm-")))
            continue;
        if (!parser.isSet(name) && !(recover && name == QLatin1String("plan-lfts")))
            return reportBadInput(command, QStringLiteral("--%1 is required").arg(name));
    }

    CommitOptions options = destination->target.options;
    const bool json = parser.isSet(QStringLiteral("json"));
    if (!json)
        options.progress = [](const QString &line) { out() << line << Qt::endl; };
    options.recoverByRollback = parser.isSet(QStringLiteral("rollback"));
    options.recoverChangedFiles = parser.isSet(QStringLiteral("force"));
    options.overwriteEdits = parser.isSet(QStringLiteral("force"));
    bool backupsOk = false;
    const int backups = parser.value(QStringLiteral("backups")).toInt(&backupsOk);
    if (!backupsOk || backups < 1 || backups > 100)
        return reportBadInput(command, QStringLiteral("--backups: not a count from 1 to 100: \"%1\"").arg(parser.value(QStringLiteral("backups"))));
    setBackupGenerations(backups);
    // Every commit and recovery goes through the session, to the destination it chose for the
    // target: a subnet's SMs (the master SIGHUPed, every other SM by its files; the journal beside
    // the target file unless --journal names one) or the one OpenSM.
    FabricSession session;
    setCommitDestination(session, parser, std::move(*destination), &options);
    if (recover)
        return reportCommit(session.recoverNow(options), json);
    if (pluginMode)
        return commitIntent(parser, session, options, json);

    // The plan of files as every front end builds it (CommitPlanning.h): the tables, the
    // partitions (Default made explicit), their service levels and the project's policies.
    const QString lftsFile = parser.value(QStringLiteral("plan-lfts"));
    Result<ForwardingTables> tables = readLftDumpFile(lftsFile);
    if (!tables)
        return reportBadInput(command, tables.error());
    ProposedRouting routing;
    routing.tables = std::make_shared<const ForwardingTables>(std::move(*tables));
    // The service levels `weft route` wrote beside the tables (DUMP.sl) belong to the plan: the
    // planned partitions carry them as sl=, and the commit has OpenSM keep them on separate VLs.
    const QString slFile = lftsFile + QStringLiteral(".sl");
    if (QFileInfo::exists(slFile)) {
        Result<QByteArray> slText = TextReader::readFile(slFile);
        if (!slText)
            return reportBadInput(command, slText.error());
        Result<std::map<std::uint16_t, int>> levels = readServiceLevels(*slText, slFile);
        if (!levels)
            return reportBadInput(command, levels.error());
        routing.serviceLevels = std::move(*levels);
    }
    std::optional<Tenancy> policies;
    if (parser.isSet(QStringLiteral("project"))) {
        Result<Project> project = readProjectFile(parser.value(QStringLiteral("project")));
        if (!project)
            return reportBadInput(command, project.error());
        policies = std::move(project->tenancy);
    }
    // A partitions.conf OpenSM would reject stays in the plan as its text: the commit refuses it,
    // journalled.
    PlanLabel label;
    std::optional<QByteArray> partitionsConf;  // the plan's file; none: the project's partitions
    if (parser.isSet(QStringLiteral("plan-partitions"))) {
        label.partitionsFileName = parser.value(QStringLiteral("plan-partitions"));
        Result<QByteArray> text = TextReader::readFile(label.partitionsFileName);
        if (!text)
            return reportBadInput(command, text.error());
        partitionsConf = std::move(*text);
    } else {
        label.partitionsFileName = parser.value(QStringLiteral("project"));
    }
    std::optional<Fabric> madeFor;
    if (parser.isSet(QStringLiteral("plan-topology"))) {
        Result<Fabric> read = readTopologyFile(parser.value(QStringLiteral("plan-topology")));
        if (!read)
            return reportBadInput(command, read.error());
        madeFor = std::move(*read);
    }
    // Plan files carry no expectation of what the fabric holds: installed over whatever it holds.
    const Fabric *planFor = madeFor ? &*madeFor : nullptr;
    const CommitPlan plan = partitionsConf ? planFromFiles(planFor, routing, *partitionsConf, std::move(policies), label, HeldTables{})
                                           : planFromTenancy(planFor, routing, *policies, label, HeldTables{});
    return reportCommit(session.commitNow(plan, options), json);
}

int reportCommitOutcome(const CommitReport &report, bool json)
{
    return reportCommit(report, json);
}

void addCommitDestinationOptions(QCommandLineParser &parser)
{
    addCommitTargetOptions(parser);
    parser.addOption({QStringLiteral("target"), QStringLiteral("A subnet's commit target (JSON naming each of its OpenSMs and their files; see "
                                                               "`weft target check`) instead of the --opensm-* options: the plan is installed on "
                                                               "every SM, through the master (SIGHUP, read back) and in each standby's files "
                                                               "(read back by content); all staged first, all restored on a failure. The journal "
                                                               "is beside FILE unless --journal."),
                      QStringLiteral("FILE")});
}

Result<CommitDestinationChoice> readCommitDestinationOptions(const QCommandLineParser &parser)
{
    CommitDestinationChoice choice;
    if (parser.isSet(QStringLiteral("target"))) {
        for (const char *own : {"opensm-lfts", "opensm-intent", "opensm-partitions", "opensm-pidfile", "opensm-log", "opensm-options"})
            if (parser.isSet(QLatin1String(own)))
                return Error{{}, 0, QStringLiteral("--target names every SM's files: drop --%1").arg(QLatin1String(own))};
        Result<SubnetTarget> read = readSubnetTargetFile(parser.value(QStringLiteral("target")));
        if (!read)
            return read.error();
        choice.subnet = std::move(*read);
    }
    Result<CommitTargetOptions> targetOptions = readCommitTargetOptions(parser);
    if (!targetOptions)
        return targetOptions.error();
    choice.target = std::move(*targetOptions);
    return choice;
}

void setCommitDestination(FabricSession &session, const QCommandLineParser &parser, CommitDestinationChoice choice,
                          CommitOptions *options)
{
    session.setAdapter(choice.target.live.caName, choice.target.live.caPort);
    if (choice.subnet) {
        if (!parser.isSet(QStringLiteral("journal")))
            options->journalPath.clear();
        session.setSubnetTarget(std::move(*choice.subnet));
    } else {
        session.setCommitTarget(choice.target.target);
    }
}

}  // namespace weft::cli
