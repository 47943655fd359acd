// weft reconfigure: every candidate way from the installed tables to a change (a what-if
// failure, new partitions, new weights), planned and judged alike, side by side. The planning is
// planCandidates (routing/reconfiguration), the one the desk's reconfiguration studio calls.

#include "CliSupport.h"
#include "Commands.h"
#include "PortList.h"
#include "ReconfigurationCandidates.h"
#include "WhatIf.h"

#include <QDir>

namespace weft::cli {

namespace {

const QString kReconfigureCommand = QStringLiteral("reconfigure");

}  // namespace

int reconfigure(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
                                         "Plans every candidate way from the forwarding tables the switches hold (--lfts) to a change,\n"
                                         "and prints them side by side: changed LFT entries, changed 64-entry blocks, SMPs (as\n"
                                         "weft diff counts them), changed source-destination paths, max and mean link load before and\n"
                                         "after, isolation violations, validity (every pair that may talk delivered, no forwarding loop,\n"
                                         "no credit loop) and the time each took to compute.\n\n"
                                         "The change: failed links (NODE[PORT], either end of the cable), failed switches, removed hosts\n"
                                         "(nodes by description, node id, GUID or LID), and the partitions and weights given. LIDs stay.\n\n"
                                         "Candidates, comma-separated: full:ENGINE (a re-route from scratch: %1), slimupdate[:TAU]\n"
                                         "(SlimUpdate keeping installed choices within TAU weight units, default 0), metabase[:POLICY]\n"
                                         "(metabase phase 2: %2; default sticky).\n\n"
                                         "JSON: {event, fabric, installed: {max_link_load, mean_link_load, unreachable_pairs, ...},\n"
                                         "candidates: [{name, changed_entries, changed_blocks, smps, changed_paths, pairs_compared,\n"
                                         "max_link_load, max_link_load_before, mean_link_load, mean_link_load_before,\n"
                                         "isolation_violations, reachable, loop_free, deadlock_free, valid, compute_seconds, ebb,\n"
                                         "error, warnings}]}.\n"
                                         "--out-dir writes each candidate's tables as NAME.lfts (compact LFT dump).\n"
                                         "Exit codes: 0 every candidate planned and valid, 1 some candidate failed or is not valid,\n"
                                         "2 bad input.")
                                         .arg(routingEngineNames().join(QStringLiteral(", ")), slotPolicyNames()));
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON.")});
    parser.addOption({QStringLiteral("topology"), QStringLiteral("Topology: ibnetdiscover output or ibsim net file."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("lfts"), QStringLiteral("The installed forwarding tables (LFT dump)."), QStringLiteral("LFTS")});
    parser.addOption({QStringLiteral("partitions"), QStringLiteral("OpenSM partitions.conf (in force now and after)."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("weights"), QStringLiteral("Node weights: lines `GUID-or-description weight`."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("fail-link"), QStringLiteral("A link that fails, named by one end: \"NODE[PORT]\". Repeatable."), QStringLiteral("NODE[PORT]")});
    parser.addOption({QStringLiteral("fail-switch"), QStringLiteral("A switch that fails. Repeatable."), QStringLiteral("NODE")});
    parser.addOption({QStringLiteral("remove-host"), QStringLiteral("An end node removed. Repeatable."), QStringLiteral("NODE")});
    parser.addOption({QStringLiteral("candidates"), QStringLiteral("full:ENGINE,slimupdate[:TAU],metabase[:POLICY], comma-separated."), QStringLiteral("LIST")});
    parser.addOption({QStringLiteral("out-dir"), QStringLiteral("Write each candidate's tables to DIR/NAME.lfts."), QStringLiteral("DIR")});
    parser.addOption({QStringLiteral("traffic"), QStringLiteral("Traffic model (default partition-all-to-all): %1.").arg(trafficModelNames()), QStringLiteral("MODEL")});
    parser.addOption({QStringLiteral("ebb-samples"), QStringLiteral("Also measure eBB over N random bisections (default 0: not measured)."), QStringLiteral("N"), QStringLiteral("0")});
    parser.addOption({QStringLiteral("node-order"), QStringLiteral("metabase:mpi-order: the job's ranks, one port GUID or node name a line."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("priority-nodes"), QStringLiteral("metabase:priority: the high-priority nodes, one port GUID or node name a line."), QStringLiteral("FILE")});
    int exitCode = kExitOk;
    if (!parseArguments(parser, kReconfigureCommand, args, &exitCode))
        return exitCode;
    if (!requireOptionsOnly(parser, kReconfigureCommand, {"topology", "lfts", "candidates"}, &exitCode))
        return exitCode;

    Result<std::vector<CandidateSpec>> specs = parseCandidates(parser.value(QStringLiteral("candidates")));
    if (!specs)
        return reportBadInput(kReconfigureCommand, QStringLiteral("--candidates: %1").arg(specs.error().message));
    CandidateInput input;
    Result<TrafficModel> traffic = trafficOption(parser);
    if (!traffic)
        return reportBadInput(kReconfigureCommand, traffic.error());
    input.model = *traffic;
    bool ok = false;
    input.ebbSamples = parser.value(QStringLiteral("ebb-samples")).toInt(&ok);
    if (!ok || input.ebbSamples < 0)
        return reportBadInput(kReconfigureCommand, QStringLiteral("--ebb-samples: not a count: \"%1\"").arg(parser.value(QStringLiteral("ebb-samples"))));

    InputOptions wanted;
    wanted.tables = {QStringLiteral("lfts")};
    wanted.partitions = wanted.weights = true;
    Result<CommandInputs> inputs = loadInputs(parser, wanted);
    if (!inputs)
        return reportBadInput(kReconfigureCommand, inputs.error());
    const Fabric &fabric = inputs->fabric;

    WhatIf whatIf;
    for (const QString &text : parser.values(QStringLiteral("fail-link"))) {
        Result<std::pair<Guid, int>> end = parseLinkEnd(fabric, text);
        if (!end)
            return reportBadInput(kReconfigureCommand, QStringLiteral("--fail-link: %1").arg(end.error().message));
        whatIf.failedLinkPorts.push_back(*end);
    }
    for (const auto &[option, isSwitch] : {std::pair{"fail-switch", true}, std::pair{"remove-host", false}}) {
        for (const QString &text : parser.values(QLatin1String(option))) {
            Result<Guid> node = parseWhatIfNode(fabric, text, isSwitch);
            if (!node)
                return reportBadInput(kReconfigureCommand, QStringLiteral("--%1: %2").arg(QLatin1String(option), node.error().message));
            (isSwitch ? whatIf.failedSwitches : whatIf.removedHosts).push_back(*node);
        }
    }
    for (const auto &[option, list] : {std::pair{"node-order", &input.nodeOrder}, std::pair{"priority-nodes", &input.priorityNodes}}) {
        if (!parser.isSet(QLatin1String(option)))
            continue;
        Result<std::vector<Guid>> ports = readPortListFile(parser.value(QLatin1String(option)), fabric);
        if (!ports)
            return reportBadInput(kReconfigureCommand, ports.error());
        *list = std::move(ports).value();
    }
    Result<Fabric> after = applyWhatIf(fabric, whatIf);
    if (!after)
        return reportBadInput(kReconfigureCommand, after.error());

    input.installedFabric = std::make_shared<const Fabric>(fabric);
    input.installed = std::make_shared<const ForwardingTables>(std::move(inputs->tables.front()));
    input.fabric = whatIf.isEmpty() ? input.installedFabric : std::make_shared<const Fabric>(std::move(after).value());
    QStringList event;
    if (!whatIf.isEmpty())
        event << whatIf.describe(fabric);
    if (parser.isSet(QStringLiteral("partitions")))
        event << QStringLiteral("partitions from %1").arg(parser.value(QStringLiteral("partitions")));
    if (parser.isSet(QStringLiteral("weights")))
        event << QStringLiteral("weights from %1").arg(parser.value(QStringLiteral("weights")));
    input.event = event.join(QStringLiteral("; "));
    input.tenancy = inputs->tenancy;
    input.currentPartitions = inputs->tenancy.partitions;

    Result<CandidateStudy> study = planCandidates(input, *specs);
    if (!study)
        return reportBadInput(kReconfigureCommand, study.error());  // only without tables, which loadInputs rules out

    if (parser.isSet(QStringLiteral("out-dir"))) {
        const QString dir = parser.value(QStringLiteral("out-dir"));
        if (!QDir().mkpath(dir))
            return reportBadInput(kReconfigureCommand, QStringLiteral("--out-dir: cannot create \"%1\"").arg(dir));
        for (const CandidateResult &c : study->candidates) {
            if (!c.tables)
                continue;
            const QString path = QDir(dir).filePath(c.name + QStringLiteral(".lfts"));
            if (Status written = writeLftDumpOutput(path, *c.tables, study->fabric.get(), LftDumpForm::Compact); !written)
                return reportBadInput(kReconfigureCommand, written.error());
        }
    }

    if (parser.isSet(QStringLiteral("json")))
        printJson(studyToJson(*study));
    else
        out() << studyToText(*study);
    out().flush();

    QStringList failed;
    for (const CandidateResult &c : study->candidates)
        if (!c.valid())
            failed << (c.error.isEmpty() ? QStringLiteral("%1 is not valid").arg(c.name) : QStringLiteral("%1: %2").arg(c.name, c.error));
    if (failed.isEmpty())
        return kExitOk;
    for (const QString &f : failed)
        err() << "weft " << kReconfigureCommand << ": " << f << Qt::endl;
    return kExitFailure;
}

}  // namespace weft::cli
