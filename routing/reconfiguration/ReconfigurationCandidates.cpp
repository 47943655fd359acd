#include "ReconfigurationCandidates.h"

#include "LftDump.h"
#include "ManagementRoutes.h"
#include "RoutingEngine.h"
#include "SlimUpdate.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QTextStream>

#include <algorithm>
#include <cmath>
#include <queue>

namespace weft {

namespace {

const QString kFull = QStringLiteral("full");
const QString kSlimUpdate = QStringLiteral("slimupdate");
const QString kMetabase = QStringLiteral("metabase");

Error candidateError(const QString &item, const QString &why)
{
    return Error{{}, 0, QStringLiteral("candidate \"%1\": %2").arg(item, why)};
}

bool cancelled(const CandidateProgress *progress)
{
    return progress && progress->cancel.load();
}

// The method alone (routeCandidate adds the management routes).
Result<CandidateRouting> routeByMethod(const CandidateInput &input, const CandidateSpec &spec, Metabase &metabase,
                              CandidateProgress *progress)
{
    CandidateRouting routed;
    QElapsedTimer timer;
    timer.start();
    switch (spec.kind) {
    case CandidateKind::Full: {
        RoutingOptions options;
        options.progress = [progress](int, int) { return !cancelled(progress); };
        Result<Routing> routing = routeFabric(spec.engine, *input.fabric, input.tenancy, options);
        routed.seconds = double(timer.nsecsElapsed()) / 1e9;
        if (!routing)
            return routing.error();
        routed.routing = std::move(routing).value();
        return routed;
    }
    case CandidateKind::SlimUpdate: {
        SlimUpdateOptions options;
        options.slack = spec.tau;
        options.baselineEngine.clear();  // the full re-routes are candidates of their own
        Result<Reconfiguration> r = slimUpdate(*input.installedFabric, *input.installed, *input.fabric, input.tenancy, options);
        if (!r)
            return r.error();
        routed.seconds = double(r->proposalNanoseconds) / 1e9;
        routed.cost = r->cost;
        routed.routing = std::move(r->proposal);
        return routed;
    }
    case CandidateKind::Metabase: {
        MetabaseOptions options;
        options.policy = spec.policy;
        options.slack = spec.tau;
        options.nodeOrder = input.nodeOrder;
        options.priorityNodes = input.priorityNodes;
        options.baselineEngine.clear();
        Result<MetabaseRun> run = metabase.reroute(*input.installedFabric, *input.installed, *input.fabric, input.tenancy, options);
        if (!run)
            return run.error();
        routed.seconds = double(run->calculationNanoseconds + run->assignmentNanoseconds) / 1e9;
        routed.metabaseHit = run->hit;
        routed.metabaseCalculationSeconds = double(run->calculationNanoseconds) / 1e9;
        routed.cost = run->reconfiguration.cost;
        routed.routing = std::move(run->reconfiguration.proposal);
        return routed;
    }
    }
    return Error{{}, 0, QStringLiteral("unknown candidate kind")};
}

EvaluationOptions evaluationOptions(const CandidateInput &input, const CandidateProgress *progress)
{
    EvaluationOptions options;
    options.model = input.model;
    options.ebbSamples = input.ebbSamples;
    options.progress = [progress](EvaluationStage, int, int) { return !cancelled(progress); };
    return options;
}

QString loadText(double load)
{
    return QString::number(load, 'f', 2);
}

}  // namespace

QString CandidateSpec::name() const
{
    switch (kind) {
    case CandidateKind::Full: return QStringLiteral("%1:%2").arg(kFull, engine);
    case CandidateKind::SlimUpdate: return QStringLiteral("%1:%2").arg(kSlimUpdate, QString::number(tau));
    case CandidateKind::Metabase: return QStringLiteral("%1:%2").arg(kMetabase, slotPolicyName(policy));
    }
    return {};
}

Result<std::vector<CandidateSpec>> parseCandidates(const QString &text)
{
    std::vector<CandidateSpec> specs;
    for (const QString &raw : text.split(QLatin1Char(','))) {
        const QString item = raw.trimmed();
        if (item.isEmpty())
            continue;
        const int colon = item.indexOf(QLatin1Char(':'));
        const QString kind = (colon < 0 ? item : item.left(colon)).trimmed().toLower();
        const std::optional<QString> argument = colon < 0 ? std::nullopt : std::optional<QString>(item.mid(colon + 1).trimmed());
        CandidateSpec spec;
        if (kind == kFull) {
            spec.kind = CandidateKind::Full;
            if (!argument || argument->isEmpty())
                return candidateError(item, QStringLiteral("name the engine, full:ENGINE (one of %1)").arg(routingEngineNames().join(QStringLiteral(", "))));
            if (!makeRoutingEngine(*argument))
                return candidateError(item, QStringLiteral("no engine \"%1\" (known: %2)").arg(*argument, routingEngineNames().join(QStringLiteral(", "))));
            spec.engine = *argument;
        } else if (kind == kSlimUpdate) {
            spec.kind = CandidateKind::SlimUpdate;
            if (argument) {
                bool ok = false;
                spec.tau = argument->toDouble(&ok);
                if (!ok || !std::isfinite(spec.tau) || spec.tau < 0)
                    return candidateError(item, QStringLiteral("τ must be a number of 0 or more, not \"%1\"").arg(*argument));
            }
        } else if (kind == kMetabase) {
            spec.kind = CandidateKind::Metabase;
            if (argument) {
                const std::optional<SlotPolicy> policy = slotPolicyFromName(*argument);
                if (!policy)
                    return candidateError(item, QStringLiteral("no slot policy \"%1\" (known: %2)").arg(*argument, slotPolicyNames()));
                spec.policy = *policy;
            }
        } else {
            return candidateError(item, QStringLiteral("unknown kind \"%1\" (known: full:ENGINE, slimupdate[:TAU], metabase[:POLICY])").arg(kind));
        }
        specs.push_back(spec);
    }
    if (specs.empty())
        return Error{{}, 0, QStringLiteral("no candidates named (e.g. full:wftree,slimupdate,metabase:sticky)")};
    return specs;
}

Result<CandidateRouting> routeCandidate(const CandidateInput &input, const CandidateSpec &spec, Metabase &metabase,
                                        CandidateProgress *progress)
{
    if (!input.installed || !input.installedFabric || !input.fabric)
        return Error{{}, 0, QStringLiteral("no installed tables to plan against")};
    Result<CandidateRouting> routed = routeByMethod(input, spec, metabase, progress);
    if (!routed)
        return routed;
    // Entries the installed tables route that a candidate lost, routing down and up the fabric
    // after the event, and that no host's traffic needs, are routed again: every switch keeps the
    // management routes it has (and a what-if plan can go in pre-emptively: it must be valid on
    // the fabric as it is too).
    routed->managementEntriesAdded = routeLostManagementLids(*input.fabric, routed->routing.tables, *input.installed);
    return routed;
}

Result<CandidateStudy> planCandidates(const CandidateInput &input, const std::vector<CandidateSpec> &specs,
                                      CandidateProgress *progress)
{
    if (!input.installed || !input.installedFabric || !input.fabric)
        return Error{{}, 0, QStringLiteral("no installed tables to plan against")};
    if (progress) {
        progress->total = int(specs.size());
        progress->done = 0;
    }
    const Error cancelError{{}, 0, cancelledMessage()};
    CandidateStudy study;
    study.fabric = input.fabric;
    study.event = input.event;

    // "Before": what the installed tables do on the fabric after the event. A failed link leaves
    // some pairs undelivered; that is the point of showing it.
    Result<RoutingEvaluation> before = evaluateRouting(*input.fabric, input.tenancy, *input.installed, evaluationOptions(input, progress));
    if (!before || cancelled(progress))
        return cancelError;
    study.installedEvaluation = std::move(before).value();
    study.installedEvaluation.warnings += lftCoverageWarnings(*input.installed, *input.fabric);

    const std::shared_ptr<Metabase> metabase = input.metabase ? input.metabase : std::make_shared<Metabase>();
    for (const CandidateSpec &spec : specs) {
        if (cancelled(progress))
            return cancelError;
        CandidateResult result;
        result.spec = spec;
        result.name = spec.name();
        result.maxLinkLoadBefore = study.installedEvaluation.metrics->allLoad.max;
        result.meanLinkLoadBefore = study.installedEvaluation.metrics->allLoad.mean;
        Result<CandidateRouting> routed = routeCandidate(input, spec, *metabase, progress);
        if (cancelled(progress))
            return cancelError;
        if (!routed) {
            result.error = routed.error().message;
            study.candidates.push_back(std::move(result));
            if (progress)
                ++progress->done;
            continue;
        }
        result.computeSeconds = routed->seconds;
        result.metabaseHit = routed->metabaseHit;
        result.metabaseCalculationSeconds = routed->metabaseCalculationSeconds;
        result.serviceLevels = routed->routing.serviceLevels;
        result.warnings = routed->routing.warnings;
        if (const std::size_t added = routed->managementEntriesAdded)
            result.warnings << QStringLiteral("%1 switch entries the installed tables route and no down-up path covers after the event "
                                              "(management traffic only) were routed again")
                                   .arg(added);
        auto tables = std::make_shared<const ForwardingTables>(std::move(routed->routing.tables));

        ReconfigurationRequest request;
        request.serviceLevels = result.serviceLevels;
        request.currentPartitions.partitions = input.currentPartitions;
        request.proposedPartitions = PartitionsState{input.tenancy.partitions, std::nullopt, {}};
        auto plan = std::make_shared<const ReconfigurationPlan>(planReconfiguration(*input.fabric, *input.installed, *tables, request));
        result.changedEntries = plan->diff.changedEntries;
        result.changedBlocks = plan->diff.changedBlocks;
        result.smps = plan->diff.smps();

        const ReconfigurationCost cost = routed->cost ? *routed->cost
                                                      : reconfigurationCost(*input.installedFabric, *input.installed, *input.fabric, *tables);
        result.changedPaths = cost.pathModifications;
        result.pairsCompared = cost.pairs;

        EvaluationOptions options = evaluationOptions(input, progress);
        options.lanes.serviceLevels = result.serviceLevels;
        Result<RoutingEvaluation> evaluation = evaluateRouting(*input.fabric, input.tenancy, *tables, options);
        if (!evaluation || cancelled(progress))
            return cancelError;
        result.evaluation = std::move(evaluation).value();
        const ValidationResult &v = result.evaluation.validation;
        result.reachable = v.unreachablePartitionPairs == 0;
        result.loopFree = v.loops == 0;
        result.deadlockFree = v.deadlockFree;
        result.isolationViolations = int(v.policyViolations);
        result.maxLinkLoadAfter = result.evaluation.metrics->allLoad.max;
        result.meanLinkLoadAfter = result.evaluation.metrics->allLoad.mean;
        result.warnings += result.evaluation.warnings;
        result.tables = std::move(tables);
        result.plan = std::move(plan);
        study.candidates.push_back(std::move(result));
        if (progress)
            ++progress->done;
    }
    return study;
}

ChangedPairs changedPairs(const Fabric &installedFabric, const ForwardingTables &installed, const Fabric &fabric,
                          const ForwardingTables &proposed, std::size_t limit)
{
    // The walk goes destination by destination; the first `limit` pairs in (source, destination)
    // order are kept in a max-heap so that a large change never holds every pair.
    using Pair = std::pair<PortIndex, PortIndex>;
    std::priority_queue<Pair> kept;
    ChangedPairs result;
    forEachChangedPath(installedFabric, installed, fabric, proposed, [&](PortIndex source, PortIndex destination) {
        ++result.total;
        if (limit == 0)
            return;
        const Pair pair{source, destination};
        if (kept.size() < limit) {
            kept.push(pair);
        } else if (pair < kept.top()) {
            kept.pop();
            kept.push(pair);
        }
    });
    result.pairs.resize(kept.size());
    for (std::size_t i = kept.size(); i-- > 0;) {
        result.pairs[i] = kept.top();
        kept.pop();
    }
    return result;
}

QJsonObject candidateToJson(const CandidateResult &candidate)
{
    QJsonObject o{{QStringLiteral("name"), candidate.name}};
    if (!candidate.error.isEmpty()) {
        o.insert(QStringLiteral("error"), candidate.error);
        o.insert(QStringLiteral("valid"), false);
        return o;
    }
    o.insert(QStringLiteral("changed_entries"), double(candidate.changedEntries));
    o.insert(QStringLiteral("changed_blocks"), double(candidate.changedBlocks));
    o.insert(QStringLiteral("smps"), double(candidate.smps));
    o.insert(QStringLiteral("changed_paths"), double(candidate.changedPaths));
    o.insert(QStringLiteral("pairs_compared"), double(candidate.pairsCompared));
    o.insert(QStringLiteral("max_link_load"), candidate.maxLinkLoadAfter);
    o.insert(QStringLiteral("max_link_load_before"), candidate.maxLinkLoadBefore);
    o.insert(QStringLiteral("mean_link_load"), candidate.meanLinkLoadAfter);
    o.insert(QStringLiteral("mean_link_load_before"), candidate.meanLinkLoadBefore);
    o.insert(QStringLiteral("isolation_violations"), candidate.isolationViolations);
    o.insert(QStringLiteral("reachable"), candidate.reachable);
    o.insert(QStringLiteral("loop_free"), candidate.loopFree);
    o.insert(QStringLiteral("deadlock_free"), candidate.deadlockFree);
    o.insert(QStringLiteral("valid"), candidate.valid());
    o.insert(QStringLiteral("compute_seconds"), candidate.computeSeconds);
    if (candidate.evaluation.ebb)
        o.insert(QStringLiteral("ebb"), candidate.evaluation.ebb->mean);
    o.insert(QStringLiteral("warnings"), QJsonArray::fromStringList(candidate.warnings));
    return o;
}

QJsonObject studyToJson(const CandidateStudy &study)
{
    const RoutingEvaluation &before = study.installedEvaluation;
    QJsonObject installed{{QStringLiteral("max_link_load"), before.metrics ? before.metrics->allLoad.max : 0.0},
                          {QStringLiteral("mean_link_load"), before.metrics ? before.metrics->allLoad.mean : 0.0},
                          {QStringLiteral("unreachable_pairs"), double(before.validation.unreachablePartitionPairs)},
                          {QStringLiteral("undelivered_flows"), before.metrics ? double(before.metrics->undeliveredFlows) : 0.0},
                          {QStringLiteral("loops"), double(before.validation.loops)},
                          {QStringLiteral("deadlock_free"), before.validation.deadlockFree},
                          {QStringLiteral("isolation_violations"), double(before.validation.policyViolations)},
                          {QStringLiteral("warnings"), QJsonArray::fromStringList(before.warnings)}};
    if (before.ebb)
        installed.insert(QStringLiteral("ebb"), before.ebb->mean);
    QJsonObject fabric;
    if (study.fabric)
        fabric = QJsonObject{{QStringLiteral("switches"), int(study.fabric->switches().size())},
                             {QStringLiteral("end_nodes"), int(study.fabric->endNodes().size())},
                             {QStringLiteral("links"), int(study.fabric->links().size())}};
    QJsonArray candidates;
    for (const CandidateResult &c : study.candidates)
        candidates.append(candidateToJson(c));
    return QJsonObject{{QStringLiteral("event"), study.event},
                       {QStringLiteral("fabric"), fabric},
                       {QStringLiteral("installed"), installed},
                       {QStringLiteral("candidates"), candidates}};
}

QString studyToText(const CandidateStudy &study)
{
    QString text;
    QTextStream s(&text);
    const RoutingEvaluation &before = study.installedEvaluation;
    s << "event: " << (study.event.isEmpty() ? QStringLiteral("none") : study.event) << "\n";
    s << "installed tables: max link load " << loadText(before.metrics ? before.metrics->allLoad.max : 0) << ", mean "
      << loadText(before.metrics ? before.metrics->allLoad.mean : 0) << ", " << before.validation.unreachablePartitionPairs
      << " pairs not delivered\n\n";
    const QStringList header = {QStringLiteral("candidate"), QStringLiteral("entries"), QStringLiteral("blocks"),
                                QStringLiteral("SMPs"), QStringLiteral("paths"), QStringLiteral("max load"),
                                QStringLiteral("mean load"), QStringLiteral("isolation"), QStringLiteral("valid"),
                                QStringLiteral("seconds")};
    std::vector<QStringList> rows{header};
    for (const CandidateResult &c : study.candidates) {
        if (!c.error.isEmpty()) {
            rows.push_back({c.name, QStringLiteral("error: ") + c.error});
            continue;
        }
        QStringList problems;
        if (!c.reachable)
            problems << QStringLiteral("unreachable");
        if (!c.loopFree)
            problems << QStringLiteral("loops");
        if (!c.deadlockFree)
            problems << QStringLiteral("credit loop");
        rows.push_back({c.name, QString::number(c.changedEntries), QString::number(c.changedBlocks), QString::number(c.smps),
                        QStringLiteral("%1/%2").arg(c.changedPaths).arg(c.pairsCompared), loadText(c.maxLinkLoadAfter),
                        loadText(c.meanLinkLoadAfter), QString::number(c.isolationViolations),
                        problems.isEmpty() ? QStringLiteral("yes") : QStringLiteral("no (%1)").arg(problems.join(QStringLiteral(", "))),
                        QString::number(c.computeSeconds, 'f', 3)});
    }
    std::vector<int> width(header.size(), 0);
    for (const QStringList &row : rows)
        if (row.size() == header.size())
            for (int i = 0; i < row.size(); ++i)
                width[std::size_t(i)] = std::max(width[std::size_t(i)], int(row[i].size()));
    for (const QStringList &row : rows) {
        for (int i = 0; i < row.size(); ++i) {
            const bool last = i + 1 == row.size();
            s << (i == 0 || last ? row[i].leftJustified(last ? 0 : width[std::size_t(i)]) : row[i].rightJustified(width[std::size_t(i)]));
            if (!last)
                s << "  ";
        }
        s << "\n";
    }
    for (const CandidateResult &c : study.candidates)
        for (const QString &w : c.warnings)
            s << "warning: " << c.name << ": " << w << "\n";
    s.flush();
    return text;
}

Result<PreviewResult> candidateProposal(const CandidateStudy &study, const CandidateResult &candidate,
                                        std::shared_ptr<const ForwardingTables> installed, const QString &installedName)
{
    if (!candidate.tables || !candidate.evaluation.metrics)
        return Error{{}, 0, QStringLiteral("%1 has no tables to review: %2").arg(candidate.name, candidate.error)};
    PreviewResult result;
    if (installed) {
        RoutingSnapshot current;
        static_cast<RoutingEvaluation &>(current) = study.installedEvaluation;
        current.tables = std::move(installed);
        current.label = QStringLiteral("Current: %1").arg(installedName);
        result.current = std::move(current);
    }
    static_cast<RoutingEvaluation &>(result.proposed) = candidate.evaluation;
    result.proposed.tables = candidate.tables;
    result.proposed.serviceLevels = candidate.serviceLevels;
    result.proposed.warnings += candidate.warnings;
    result.proposed.label = QStringLiteral("Candidate: %1").arg(candidate.name);
    return result;
}

}  // namespace weft
