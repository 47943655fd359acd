// weft metrics: validation and load figures of a set of forwarding tables on a topology.

#include "CliSupport.h"
#include "Commands.h"
#include "FluidThroughput.h"
#include "RoutingEvaluation.h"
#include "TextReader.h"

#include <QJsonArray>

namespace weft::cli {

namespace {

const QString kMetricsCommand = QStringLiteral("metrics");

QJsonObject statisticsJson(const Statistics &s)
{
    return {{QStringLiteral("max"), s.max}, {QStringLiteral("min"), s.min}, {QStringLiteral("mean"), s.mean}, {QStringLiteral("stddev"), s.stddev}};
}

QString statisticsText(const Statistics &s)
{
    return QStringLiteral("max %1  min %2  mean %3  stddev %4")
        .arg(s.max).arg(s.min).arg(s.mean, 0, 'f', 2).arg(s.stddev, 0, 'f', 2);
}

}  // namespace

int metrics(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
                                         "Validates forwarding tables against a topology and measures how they spread traffic.\n"
                                         "Validation: every pair of end ports sharing a partition reaches the other (other pairs are\n"
                                         "reported apart: management needs them), no forwarding loop, no cycle in the channel\n"
                                         "dependency graph over (link, VL), and each partition's isolation policy is met.\n"
                                         "Metrics (spec 000 §4): per directed link the routes crossing it (destinations, as ftree counts\n"
                                         "them) and the flows and weighted load of the traffic model; balance per link tier; links\n"
                                         "shared by partitions; inter-partition interference; contention towards receivers (end ports\n"
                                         "weighing more than 1). Traffic models: %1.\n"
                                         "JSON keys: valid, end_ports, switches, partition_pairs, unreachable_pairs (pairs sharing a\n"
                                         "partition), unreachable_other_pairs, loops, deadlock_free, credit_loop (links), virtual_lanes,\n"
                                         "dependencies, policy_violations, problems, management_problems, traffic, seed, flows,\n"
                                         "undelivered_flows, links {switch_links {count, routes, load}, tiers [{name, links, routes,\n"
                                         "weighted_routes, flows, load}]} where each figure is {max, min, mean, stddev}, partitions\n"
                                         "[{name, pkey, policy, vl, members, links_used, shared_links, flows, satisfied, violations}],\n"
                                         "shared_links {total, up, down}, interference, interference_pairwise, contention {receivers,\n"
                                         "total_down, total_up, contended_down, contended_up}, seconds {validation, metrics} (validation and\n"
                                         "metrics follow each destination's routes in one shared walk, counted under validation; metrics\n"
                                         "is what they add after it).\n"
                                         "With --throughput: the flows of the traffic model as steady streams along their routes, rates\n"
                                         "max-min fair (progressive filling), every directed cable at its active data rate; JSON key\n"
                                         "throughput {flows, undelivered_flows, total_bytes_per_s, senders_bytes_per_s, normalized (total\n"
                                         "over the senders' link rates, 0..1), min_flow_bytes_per_s, mean_flow_bytes_per_s,\n"
                                         "bottleneck_links [{from, to, capacity_bytes_per_s, flows, share, rate_bytes_per_s}], tenants\n"
                                         "[{name, flows, bytes_per_s}], warnings, seconds}.\n"
                                         "Exit codes: 0 done (with --check: and valid), 1 with --check: the routing is not valid,\n"
                                         "2 bad input.")
                                         .arg(trafficModelNames()));
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON.")});
    parser.addOption({QStringLiteral("topology"), QStringLiteral("Topology: ibnetdiscover output or ibsim net file."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("lfts"), QStringLiteral("LFT dump (dump_lfts, ibroute, opensm-lfts.dump, weft route)."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("partitions"), QStringLiteral("OpenSM partitions.conf."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("policy"), QStringLiteral("Isolation policy of partition NAME (phy-isolation, vlane-isolation, def-isolation). Repeatable."), QStringLiteral("NAME=POLICY")});
    parser.addOption({QStringLiteral("weights"), QStringLiteral("Node weights: lines `GUID-or-description weight`."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("sl"), QStringLiteral("Service levels per partition (`0xPKEY SL` lines, as weft route writes DUMP.sl); VL = SL. Default: all on VL0."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("traffic"), QStringLiteral("Traffic model (default partition-all-to-all): %1.").arg(trafficModelNames()), QStringLiteral("MODEL")});
    parser.addOption({QStringLiteral("seed"), QStringLiteral("Seed of the random models (default 1)."), QStringLiteral("S"), QStringLiteral("1")});
    parser.addOption({QStringLiteral("check"), QStringLiteral("Exit with 1 when the routing is not valid.")});
    parser.addOption({QStringLiteral("throughput"), QStringLiteral("Also rate the traffic model's flows with the fluid max-min fair model.")});
    int exitCode = kExitOk;
    if (!parseArguments(parser, kMetricsCommand, args, &exitCode))
        return exitCode;
    if (!requireOptionsOnly(parser, kMetricsCommand, {"topology", "lfts"}, &exitCode))
        return exitCode;

    Result<TrafficModel> traffic = trafficOption(parser);
    if (!traffic)
        return reportBadInput(kMetricsCommand, traffic.error());
    TrafficModel model = *traffic;
    bool seedOk = false;
    model.seed = parser.value(QStringLiteral("seed")).toULongLong(&seedOk, 0);
    if (!seedOk)
        return reportBadInput(kMetricsCommand, QStringLiteral("seed \"%1\" is not a number").arg(parser.value(QStringLiteral("seed"))));

    InputOptions wanted;
    wanted.tables = {QStringLiteral("lfts")};
    wanted.partitions = wanted.policies = wanted.weights = true;
    Result<CommandInputs> inputs = loadInputs(parser, wanted);
    if (!inputs)
        return reportBadInput(kMetricsCommand, inputs.error());
    EvaluationOptions evaluation;
    evaluation.model = model;
    if (parser.isSet(QStringLiteral("sl"))) {
        const QString path = parser.value(QStringLiteral("sl"));
        Result<QByteArray> data = TextReader::readFile(path);
        if (!data)
            return reportBadInput(kMetricsCommand, data.error());
        Result<std::map<std::uint16_t, int>> levels = readServiceLevels(*data, path);
        if (!levels)
            return reportBadInput(kMetricsCommand, levels.error());
        evaluation.lanes.serviceLevels = *levels;
    }

    const Result<RoutingEvaluation> evaluated = evaluateRouting(inputs->fabric, inputs->tenancy, inputs->tables.front(), evaluation);
    if (!evaluated)
        return reportBadInput(kMetricsCommand, evaluated.error());  // only on cancel, which nothing here asks for
    const ValidationResult &v = evaluated->validation;
    const Metrics &m = *evaluated->metrics;
    const double validationSeconds = evaluated->validationSeconds;
    const double metricsSeconds = evaluated->metricsSeconds;
    const int result = parser.isSet(QStringLiteral("check")) && !v.ok ? kExitFailure : kExitOk;
    std::optional<FluidThroughput> throughput;
    if (parser.isSet(QStringLiteral("throughput"))) {
        Result<FluidThroughput> rated = fluidThroughput(inputs->fabric, inputs->tables.front(), modelFlows(inputs->fabric, inputs->tenancy, model), inputs->tenancy);
        if (!rated)
            return reportBadInput(kMetricsCommand, rated.error());
        throughput = std::move(*rated);
    }

    if (parser.isSet(QStringLiteral("json"))) {
        QJsonArray tiers;
        for (const TierBalance &t : m.tiers)
            tiers.append(QJsonObject{{QStringLiteral("name"), t.name}, {QStringLiteral("links"), double(t.links)},
                                     {QStringLiteral("routes"), statisticsJson(t.routes)},
                                     {QStringLiteral("weighted_routes"), statisticsJson(t.weightedRoutes)},
                                     {QStringLiteral("flows"), statisticsJson(t.flows)}, {QStringLiteral("load"), statisticsJson(t.load)}});
        QJsonArray partitions;
        for (std::size_t i = 0; i < v.partitions.size(); ++i) {
            const PartitionIsolationReport &p = v.partitions[i];
            const PartitionSharing &s = m.partitions[i];
            partitions.append(QJsonObject{
                {QStringLiteral("name"), p.name}, {QStringLiteral("pkey"), pkeyText(p.pkey)},
                {QStringLiteral("policy"), policyName(p.policy)}, {QStringLiteral("vl"), p.virtualLane},
                {QStringLiteral("members"), double(p.members)}, {QStringLiteral("links_used"), double(s.linksUsed)},
                {QStringLiteral("shared_links"), double(s.sharedLinks)}, {QStringLiteral("flows"), double(s.flows)},
                {QStringLiteral("satisfied"), p.satisfied()}, {QStringLiteral("violation_count"), double(p.violationCount)},
                {QStringLiteral("violations"), QJsonArray::fromStringList(p.violations)}});
        }
        QJsonObject json{
            {QStringLiteral("valid"), v.ok},
            {QStringLiteral("end_ports"), double(v.endPorts)},
            {QStringLiteral("switches"), double(v.switches)},
            {QStringLiteral("partition_pairs"), double(v.partitionPairs)},
            {QStringLiteral("unreachable_pairs"), double(v.unreachablePartitionPairs)},
            {QStringLiteral("unreachable_other_pairs"), double(v.unreachableOtherPairs)},
            {QStringLiteral("loops"), double(v.loops)},
            {QStringLiteral("deadlock_free"), v.deadlockFree},
            {QStringLiteral("credit_loop"), QJsonArray::fromStringList(v.creditLoop)},
            {QStringLiteral("virtual_lanes"), v.virtualLanes},
            {QStringLiteral("dependencies"), double(v.dependencies)},
            {QStringLiteral("policy_violations"), double(v.policyViolations)},
            {QStringLiteral("problems"), QJsonArray::fromStringList(v.problems)},
            {QStringLiteral("management_problems"), QJsonArray::fromStringList(v.managementProblems)},
            {QStringLiteral("traffic"), model.toString()},
            {QStringLiteral("seed"), QString::number(model.seed)},
            {QStringLiteral("flows"), double(m.modelFlows)},
            {QStringLiteral("undelivered_flows"), double(m.undeliveredFlows)},
            {QStringLiteral("links"), QJsonObject{
                {QStringLiteral("switch_links"), QJsonObject{
                    {QStringLiteral("count"), double(std::count_if(m.links.begin(), m.links.end(), [](const LinkLoad &l) { return l.fromLevel > 0 && l.toLevel > 0; }))},
                    {QStringLiteral("routes"), statisticsJson(m.allRoutes)},
                    {QStringLiteral("load"), statisticsJson(m.allLoad)}}},
                {QStringLiteral("tiers"), tiers}}},
            {QStringLiteral("partitions"), partitions},
            {QStringLiteral("shared_links"), QJsonObject{{QStringLiteral("total"), double(m.sharedLinks)},
                                                         {QStringLiteral("up"), double(m.sharedLinksUp)},
                                                         {QStringLiteral("down"), double(m.sharedLinksDown)}}},
            {QStringLiteral("interference"), double(m.interference)},
            {QStringLiteral("interference_pairwise"), double(m.interferencePairwise)},
            {QStringLiteral("contention"), QJsonObject{
                {QStringLiteral("receivers"), double(m.contention.receivers)},
                {QStringLiteral("total_down"), double(m.contention.totalDown)},
                {QStringLiteral("total_up"), double(m.contention.totalUp)},
                {QStringLiteral("contended_down"), double(m.contention.contendedDown)},
                {QStringLiteral("contended_up"), double(m.contention.contendedUp)}}},
            {QStringLiteral("seconds"), QJsonObject{{QStringLiteral("validation"), validationSeconds}, {QStringLiteral("metrics"), metricsSeconds}}},
        };
        if (throughput)
            json.insert(QStringLiteral("throughput"), fluidThroughputToJson(inputs->fabric, *throughput));
        printJson(json);
        return result;
    }

    QTextStream &o = out();
    o << "valid: " << (v.ok ? "yes" : "no") << '\n'
      << "end ports: " << v.endPorts << ", switches: " << v.switches << '\n'
      << "pairs sharing a partition: " << v.partitionPairs << ", unreachable: " << v.unreachablePartitionPairs << '\n'
      << "other pairs unreachable (management): " << v.unreachableOtherPairs << '\n'
      << "forwarding loops: " << v.loops << '\n'
      << "deadlock free: " << (v.deadlockFree ? "yes" : "no") << " (" << v.virtualLanes << " VLs, " << v.dependencies << " channel dependencies)\n";
    if (!v.creditLoop.isEmpty())
        o << "credit loop:\n  " << v.creditLoop.join(QStringLiteral("\n  ")) << '\n';
    for (const QString &p : v.problems)
        o << "problem: " << p << '\n';
    for (const QString &p : v.managementProblems)
        o << "management: " << p << '\n';
    o << "policy violations: " << v.policyViolations << '\n'
      << "traffic: " << model.toString() << " (seed " << model.seed << "), flows " << m.modelFlows
      << ", undelivered " << m.undeliveredFlows << '\n'
      << "switch links: routes " << statisticsText(m.allRoutes) << '\n'
      << "              load   " << statisticsText(m.allLoad) << '\n';
    for (const TierBalance &t : m.tiers)
        o << "tier " << t.name << " (" << t.links << " links): routes " << statisticsText(t.routes) << "; load " << statisticsText(t.load) << '\n';
    o << "shared links: " << m.sharedLinks << " (up " << m.sharedLinksUp << ", down " << m.sharedLinksDown << ")\n"
      << "inter-partition interference: I " << m.interference << ", pairwise I2 " << m.interferencePairwise << '\n'
      << "contention towards " << m.contention.receivers << " receivers: down " << m.contention.totalDown << " on "
      << m.contention.contendedDown << " links, up " << m.contention.totalUp << " on " << m.contention.contendedUp << " links\n";
    for (std::size_t i = 0; i < v.partitions.size(); ++i) {
        const PartitionIsolationReport &p = v.partitions[i];
        o << "partition " << (p.name.isEmpty() ? pkeyText(p.pkey) : p.name) << " " << pkeyText(p.pkey) << ": " << policyName(p.policy)
          << ", VL" << p.virtualLane << ", " << p.members << " members, " << m.partitions[i].linksUsed << " links, "
          << m.partitions[i].sharedLinks << " shared, " << (p.satisfied() ? "policy met" : "POLICY VIOLATED") << '\n';
        for (const QString &violation : p.violations)
            o << "  " << violation << '\n';
        if (p.violationCount > std::size_t(p.violations.size()))
            o << "  ... " << p.violationCount << " violations in all\n";
    }
    if (throughput)
        o << fluidThroughputToText(inputs->fabric, *throughput) << '\n';
    o << "time: validation " << QString::number(validationSeconds, 'f', 2) << " s, metrics " << QString::number(metricsSeconds, 'f', 2) << " s\n";
    o.flush();
    return result;
}

}  // namespace weft::cli
