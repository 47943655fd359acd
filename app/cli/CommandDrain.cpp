// weft drain / weft undrain: a cable or a switch taken out of the routes for maintenance while it
// stays up, and brought back. With Weft's engine inside OpenSM the intent's drained set changes
// (so OpenSM's engine keeps routing around it at every later sweep); with OpenSM's file engine
// the tables the switches hold are repaired around it. Either way through the verified commit,
// journalled with who asked and what was drained.

#include "CliSupport.h"
#include "Commands.h"
#include "CommitDestinationOptions.h"

#include "CommitJournal.h"
#include "CommitPlanning.h"
#include "DrainPlan.h"
#include "FabricSession.h"
#include "IntentRouting.h"
#include "ProjectFile.h"
#include "TextReader.h"
#include "WhatIf.h"

#include <algorithm>
#include <optional>

namespace weft::cli {

namespace {

// The elements named on the command line, each checked against the fabric discovered now.
Result<WhatIf> namedElements(const QCommandLineParser &parser, const Fabric &fabric)
{
    WhatIf named;
    for (const QString &text : parser.values(QStringLiteral("link"))) {
        Result<std::pair<Guid, int>> end = parseLinkEnd(fabric, text);
        if (!end)
            return end.error();
        const NodeIndex n = fabric.nodeByGuid(end->first);
        const Port &port = fabric.port(fabric.portOf(n, end->second));
        if (fabric.node(n).type != NodeType::Switch || fabric.node(fabric.port(port.remote).node).type != NodeType::Switch)
            return Error{{}, 0, QStringLiteral("link \"%1\" is a host's cable: draining it cuts the host off; drain switch-to-switch cables").arg(text)};
        named.failedLinkPorts.push_back(*end);
    }
    for (const QString &text : parser.values(QStringLiteral("switch"))) {
        Result<Guid> guid = parseWhatIfNode(fabric, text, true);
        if (!guid)
            return guid.error();
        named.failedSwitches.push_back(*guid);
    }
    return named;
}

}  // namespace

static int drainOrUndrain(const QStringList &args, bool drain)
{
    const QString command = drain ? QStringLiteral("drain") : QStringLiteral("undrain");
    QCommandLineParser parser;
    parser.setApplicationDescription(drain ? QStringLiteral(
        "Drains cables or switches for maintenance: a plan that routes around them while they\n"
        "stay up, installed by the verified commit. With Weft's engine inside OpenSM\n"
        "(--opensm-intent, or a --target in plugin mode) the elements join the intent's drained\n"
        "set, so OpenSM's engine routes around them at every later sweep as well; with OpenSM's\n"
        "file engine the tables the switches hold are repaired around them (only the routes on\n"
        "them move). Refused, naming the pairs, when any pair of ports would no longer reach each\n"
        "other. The journal records who drained what. Exit status as `weft commit`.")
                                         : QStringLiteral(
        "Brings drained cables or switches back into the routes: with Weft's engine inside OpenSM\n"
        "they leave the intent's drained set and the intent is routed again; with OpenSM's file\n"
        "engine the fabric is routed again by the project's engine (--project, default ftree).\n"
        "Installed by the verified commit and journalled. Exit status as `weft commit`."));
    parser.addOption({QStringLiteral("link"), QStringLiteral("A switch-to-switch cable, by either end: NODE[PORT] (repeatable)."), QStringLiteral("NODE[PORT]")});
    parser.addOption({QStringLiteral("switch"), QStringLiteral("A switch, by name, description or GUID (repeatable)."), QStringLiteral("NODE")});
    parser.addOption({QStringLiteral("project"), QStringLiteral("File engine: the Weft project whose engine routes and whose partitions' "
                                                               "policies are checked (default: ftree, def-isolation)."),
                      QStringLiteral("FILE")});
    addCommitDestinationOptions(parser);
    parser.addOption({QStringLiteral("force"), QStringLiteral("Replace an intent or partitions.conf someone edited since Weft last wrote it.")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print the report as JSON.")});
    int exitCode = kExitOk;
    if (!parseArguments(parser, command, args, &exitCode))
        return exitCode;
    if (!parser.isSet(QStringLiteral("link")) && !parser.isSet(QStringLiteral("switch")))
        return reportBadInput(command, QStringLiteral("name what to %1: --link NODE[PORT] or --switch NODE").arg(command));
    Result<CommitDestinationChoice> destination = readCommitDestinationOptions(parser);
    if (!destination)
        return reportBadInput(command, destination.error());
    const bool pluginMode = destination->pluginMode();
    if (!destination->subnet) {
        for (const char *required : {"opensm-partitions", "opensm-pidfile"})
            if (!parser.isSet(QLatin1String(required)))
                return reportBadInput(command, QStringLiteral("--%1 is required (or --target FILE)").arg(QLatin1String(required)));
        if (!pluginMode && !parser.isSet(QStringLiteral("opensm-lfts")))
            return reportBadInput(command, QStringLiteral("--opensm-intent or --opensm-lfts is required (or --target FILE)"));
    }
    if (pluginMode && parser.isSet(QStringLiteral("project")))
        return reportBadInput(command, QStringLiteral("--project is for OpenSM's file engine: with Weft's engine the intent in force is the project"));
    std::optional<Project> project;
    if (parser.isSet(QStringLiteral("project"))) {
        Result<Project> read = readProjectFile(parser.value(QStringLiteral("project")));
        if (!read)
            return reportBadInput(command, read.error());
        project = std::move(*read);
    }
    // The intent in force, read before anything is discovered: a bad one changes nothing.
    const QString intentPath = destination->intentPath();
    std::optional<Project> intent;
    WhatIf drainedNow;
    if (pluginMode) {
        Result<QByteArray> bytes = TextReader::readFile(intentPath);
        if (!bytes)
            return reportBadInput(command, bytes.error());
        Result<Project> read = readProject(*bytes, intentPath);
        if (!read)
            return reportBadInput(command, read.error());
        Result<IntentOptions> settings = intentOptions(*read, intentPath);
        if (!settings)
            return reportBadInput(command, settings.error());
        drainedNow = settings->drained;
        intent = std::move(*read);
    }

    const bool json = parser.isSet(QStringLiteral("json"));
    CommitOptions options = destination->target.options;
    if (!json)
        options.progress = [](const QString &line) { out() << line << Qt::endl; };
    options.overwriteEdits = parser.isSet(QStringLiteral("force"));
    FabricSession session;
    setCommitDestination(session, parser, std::move(*destination), &options);
    Result<LiveState> state = session.discoverNow();
    if (!state) {
        err() << "weft " << command << ": " << state.error().toString() << Qt::endl;
        return kExitFailure;
    }
    const Fabric &fabric = *state->fabric;
    Result<WhatIf> named = namedElements(parser, fabric);
    if (!named)
        return reportBadInput(command, named.error());
    const QString what = drainedElementsText(fabric, *named);
    const QString summary = QStringLiteral("%1 %2 (by %3)").arg(command, what, options.user.isEmpty() ? currentUserName() : options.user);

    // The change as OpenSM's engine will route it (plugin mode) or as the tables to install
    // (file mode), checked here so that a refusal names the pairs.
    Project changed;
    if (pluginMode) {
        Result<WhatIf> drained = changeDrainedSet(fabric, drainedNow, *named, drain);
        if (!drained)
            return reportBadInput(command, drained.error());
        changed = withDrained(*intent, *drained, &fabric);
    } else {
        if (!state->held.lfts)
            return reportBadInput(command, QStringLiteral("the switches' tables could not be read"));
        changed = project ? *project : Project{};
        if (!project)
            changed.tenancy.partitions = state->partitions;
    }
    Result<IntentRouting> routed = routeDrainChange(fabric, changed, state->held.lfts.get(), *named, pluginMode, drain);
    if (!routed)
        return reportBadInput(command, routed.error());
    if (const QStringList problems = drainProblems(fabric, changed.tenancy, *routed); !problems.isEmpty()) {
        err() << "weft " << command << ": refused, nothing written: " << what << Qt::endl;
        for (const QString &p : problems)
            err() << "  - " << p << Qt::endl;
        return kExitBadInput;
    }
    CommitPlan plan;
    if (pluginMode) {
        QStringList missing;
        Result<CommitPlan> made = planIntentCommit(fabric, changed, writeProject(changed), intentPath, state->held, &missing);
        for (const QString &guid : missing)
            err() << "weft " << command << ": not in the fabric, left out: " << guid << Qt::endl;
        if (!made)
            return reportBadInput(command, made.error());
        plan = std::move(*made);
    } else {
        ProposedRouting proposed;
        proposed.tables = std::make_shared<const ForwardingTables>(std::move(routed->routing.tables));
        proposed.serviceLevels = routed->routing.serviceLevels;
        const QString partitionsPath = session.destination()->planningTarget().partitionsPath;
        Result<QByteArray> partitions = TextReader::readFile(partitionsPath);
        if (!partitions)
            return reportBadInput(command, partitions.error());
        PlanLabel label;
        label.summary = summary;
        label.partitionsFileName = partitionsPath;
        plan = planFromFiles(&fabric, proposed, *partitions, project ? std::optional<Tenancy>(project->tenancy) : std::nullopt, label,
                             state->held);
    }
    plan.summary = summary;
    if (!json)
        out() << command << ": " << what << Qt::endl;
    return reportCommitOutcome(session.commitNow(plan, options), json);
}

int drain(const QStringList &args)
{
    return drainOrUndrain(args, true);
}

int undrain(const QStringList &args)
{
    return drainOrUndrain(args, false);
}

}  // namespace weft::cli
