#include "AdaptPlanner.h"

#include "NodeQuery.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace weft::adapt {

namespace {

// Per node, the port GUIDs of its end ports (TrafficModel's: a LID and a cable), where its weight
// is kept: the ports whose weight the link loads count.
std::vector<std::vector<Guid>> weightedPorts(const Fabric &fabric)
{
    std::vector<std::vector<Guid>> ports(fabric.nodes().size());
    const PartitionMembership membership(fabric, Tenancy{});
    for (const EndPort &e : membership.endPorts())
        ports[std::size_t(e.node)].push_back(fabric.port(e.port).guid);
    return ports;
}

double weightOf(const std::map<Guid, double> &weights, Guid port)
{
    const auto it = weights.find(port);
    return it == weights.end() ? 1.0 : it->second;
}

// The weight a node's ports have (its first end port's; 1 when none is set).
double nodeWeight(const std::vector<Guid> &ports, const std::map<Guid, double> &weights)
{
    return ports.empty() ? 1.0 : weightOf(weights, ports.front());
}

double quantised(double value, double quantum)
{
    if (!(quantum > 0))
        return value;
    // k / 10 rather than k x 0.1, so that 0.6 is 0.6 and not 0.6000000000000001.
    const double inverse = 1 / quantum;
    const double steps = std::round(value / quantum);
    return std::abs(inverse - std::round(inverse)) < 1e-9 ? steps / std::round(inverse) : steps * quantum;
}

QString engineName(RerouteEngine engine)
{
    switch (engine) {
    case RerouteEngine::Ftree: return QStringLiteral("ftree");
    case RerouteEngine::Wftree: return QStringLiteral("wftree");
    case RerouteEngine::Pftree: return QStringLiteral("pftree");
    case RerouteEngine::Wpftree: return QStringLiteral("pftree-wt");
    case RerouteEngine::Vswitch: return QStringLiteral("vswitch-ftree");
    }
    return QStringLiteral("ftree");
}

bool weightedEngine(RerouteEngine engine)
{
    return engine == RerouteEngine::Wftree || engine == RerouteEngine::Wpftree;
}

// The learning window a reroute asks for; nullopt: static weights.
std::optional<double> learningWindow(const Action &reroute, const PlannerOptions &options)
{
    if (reroute.learnedWeightsWindow)
        return double(*reroute.learnedWeightsWindow);
    if (!reroute.weightsGiven && weightedEngine(reroute.engine))
        return options.learned.defaultWindowSeconds;
    return std::nullopt;
}

// The store's smoothed receive rates, parallel to `fabric`'s end nodes (matched by node GUID, so
// that a store on an earlier snapshot of the fabric still serves); NaN for a node it lacks.
std::vector<double> ratesFor(const Fabric &fabric, const MetricStore &store, double window)
{
    const std::vector<double> measured = store.smoothedReceiveRates(window);
    const Fabric &storeFabric = store.fabric();
    std::vector<double> rates(fabric.endNodes().size(), std::numeric_limits<double>::quiet_NaN());
    if (&storeFabric == &fabric) {
        std::copy_n(measured.begin(), std::min(measured.size(), rates.size()), rates.begin());
        return rates;
    }
    std::unordered_map<Guid, double> byGuid;
    for (std::size_t i = 0; i < measured.size() && i < storeFabric.endNodes().size(); ++i)
        byGuid.emplace(storeFabric.node(storeFabric.endNodes()[i]).guid, measured[i]);
    for (std::size_t i = 0; i < rates.size(); ++i) {
        const auto it = byGuid.find(fabric.node(fabric.endNodes()[i]).guid);
        if (it != byGuid.end())
            rates[i] = it->second;
    }
    return rates;
}

Result<std::vector<NodeIndex>> selectedEndNodes(const Fabric &fabric, const Selector &selector)
{
    if (selector.all)
        return fabric.endNodes();
    const NodeIndex node = NodeQuery(selector.name).find(fabric);
    if (node == kNoIndex)
        return Error{{}, 0, QStringLiteral("set_weight: \"%1\" names no node of the fabric").arg(selector.name)};
    if (fabric.node(node).type == NodeType::Switch)
        return Error{{}, 0, QStringLiteral("set_weight: \"%1\" is a switch; weights belong to end nodes").arg(selector.name)};
    return std::vector<NodeIndex>{node};
}

Partition *findPartition(Tenancy &tenancy, const QString &nameOrPKey)
{
    for (Partition &p : tenancy.partitions)
        if (p.name == nameOrPKey)
            return &p;
    bool ok = false;
    const uint pkey = nameOrPKey.toUInt(&ok, 0);
    if (ok && pkey <= 0xffff)
        for (Partition &p : tenancy.partitions)
            if (p.pkey && (*p.pkey & kPKeyMask) == (pkey & kPKeyMask))
                return &p;
    return nullptr;
}

// LFT blocks the switches hold: what an SMP count is measured against.
double switchBlocksInUse(const Fabric &fabric)
{
    const double blocks = std::floor(double(fabric.maxLid()) / 64) + 1;
    return std::max(1.0, double(fabric.switches().size()) * blocks);
}

double relativeDrop(double before, double after)
{
    return before > 0 ? (before - after) / before : 0;
}

QString scoreText(double score)
{
    return QString::number(score, 'f', 3);
}

}  // namespace

std::map<Guid, double> learnedWeights(const Fabric &fabric, const std::vector<double> &smoothedRates,
                                      const std::map<Guid, double> &current, const LearnedWeightOptions &options,
                                      int *changed)
{
    std::map<Guid, double> weights = current;
    int count = 0;
    const std::size_t nodes = std::min(smoothedRates.size(), fabric.endNodes().size());
    auto measured = [&](std::size_t i) { return std::isfinite(smoothedRates[i]) && smoothedRates[i] >= 0; };
    double sum = 0;
    int measuredNodes = 0;
    for (std::size_t i = 0; i < nodes; ++i)
        if (measured(i)) {
            sum += smoothedRates[i];
            ++measuredNodes;
        }
    if (measuredNodes > 0 && sum > 0) {
        const double mean = sum / measuredNodes;
        const std::vector<std::vector<Guid>> portsOf = weightedPorts(fabric);
        for (std::size_t i = 0; i < nodes; ++i) {
            if (!measured(i))
                continue;
            const std::vector<Guid> &ports = portsOf[std::size_t(fabric.endNodes()[i])];
            if (ports.empty())
                continue;
            const double weight = std::max(options.minimumWeight, quantised(smoothedRates[i] / mean, options.quantum));
            const double old = weightOf(current, ports.front());
            if (std::abs(weight - old) <= options.changeThreshold * old)
                continue;  // a small fluctuation: no re-route for it
            for (Guid guid : ports)
                weights[guid] = weight;
            ++count;
        }
    }
    if (changed)
        *changed = count;
    return weights;
}

std::vector<CandidateSpec> candidateSpecsFor(const Action &reroute, const PlannerOptions &options)
{
    CandidateSpec full;
    full.kind = CandidateKind::Full;
    full.engine = engineName(reroute.engine);
    CandidateSpec slim;
    slim.kind = CandidateKind::SlimUpdate;
    slim.tau = reroute.tau.value_or(options.defaultTau);
    CandidateSpec metabase;
    metabase.kind = CandidateKind::Metabase;
    metabase.policy = SlotPolicy::Weighted;
    if (!reroute.method)
        return {full, slim, metabase};
    switch (*reroute.method) {
    case RerouteMethod::Full: return {full};
    case RerouteMethod::SlimUpdate: return {slim};
    case RerouteMethod::Metabase: return {metabase};
    }
    return {full};
}

QJsonObject PlannedChange::toJson() const
{
    QJsonArray candidates;
    for (std::size_t i = 0; i < study.candidates.size(); ++i) {
        const CandidateResult &c = study.candidates[i];
        QJsonObject o = candidateToJson(c);
        const double score = i < scores.size() ? scores[i] : std::numeric_limits<double>::quiet_NaN();
        o.insert(QStringLiteral("score"), std::isfinite(score) ? QJsonValue(score) : QJsonValue());
        if (c.spec.kind == CandidateKind::Metabase && c.error.isEmpty()) {
            o.insert(QStringLiteral("metabase_hit"), c.metabaseHit);
            o.insert(QStringLiteral("metabase_calculation_seconds"), c.metabaseCalculationSeconds);
        }
        candidates.append(o);
    }
    const CandidateResult *choice = chosenCandidate();
    return QJsonObject{{QStringLiteral("rule"), firing.rule},
                       {QStringLiteral("time"), firing.time},
                       {QStringLiteral("weights_changed"), weightsChanged},
                       {QStringLiteral("metabase_invalidated"), metabaseInvalidated},
                       {QStringLiteral("decision"), decision},
                       {QStringLiteral("notes"), QJsonArray::fromStringList(notes)},
                       {QStringLiteral("chosen"), choice ? QJsonValue(choice->name) : QJsonValue()},
                       {QStringLiteral("candidates"), candidates}};
}

Result<PlannedChange> planFiring(const RuleFiring &firing, AdaptKnowledge &knowledge, const MetricStore &store,
                                 const PlannerOptions &options, CandidateProgress *progress)
{
    if (!knowledge.fabric || !knowledge.installed)
        return Error{{}, 0, QStringLiteral("no fabric and installed tables to plan against")};
    const Fabric &fabric = *knowledge.fabric;
    PlannedChange change;
    change.firing = firing;
    change.tenancy = knowledge.tenancy;
    if (!knowledge.metabase)
        knowledge.metabase = std::make_shared<Metabase>();
    if (knowledge.topologyChanged) {
        // Blueprints are of a topology that is no more: phase 1 runs again before phase 2.
        knowledge.metabase->clear();
        knowledge.topologyChanged = false;
        change.metabaseInvalidated = true;
    }

    const Action *reroute = nullptr;
    bool weightsSet = false, isolationSet = false;
    for (const Action &action : firing.actions)
        if (action.kind == Action::Kind::Reroute && !reroute)
            reroute = &action;

    const std::vector<std::vector<Guid>> portsOf = weightedPorts(fabric);
    QStringList what;  // for the study's event text
    if (reroute) {
        if (const std::optional<double> window = learningWindow(*reroute, options)) {
            int changed = 0;
            change.tenancy.nodeWeights = learnedWeights(fabric, ratesFor(fabric, store, *window), change.tenancy.nodeWeights,
                                                        options.learned, &changed);
            change.notes << QStringLiteral("weights learned over %1: %2 nodes changed").arg(durationToText(std::int64_t(*window))).arg(changed);
            what << QStringLiteral("learned weights (%1)").arg(durationToText(std::int64_t(*window)));
        }
    }
    for (const Action &action : firing.actions) {
        switch (action.kind) {
        case Action::Kind::SetWeight: {
            if (!(action.weight > 0))
                return Error{{}, 0, QStringLiteral("set_weight: the weight must be positive, not %1").arg(action.weight)};
            Result<std::vector<NodeIndex>> nodes = selectedEndNodes(fabric, action.node);
            if (!nodes)
                return nodes.error();
            for (NodeIndex node : *nodes)
                for (Guid guid : portsOf[std::size_t(node)])
                    change.tenancy.nodeWeights[guid] = action.weight;
            weightsSet = true;
            change.notes << actionToText(action);
            what << actionToText(action);
            break;
        }
        case Action::Kind::SetIsolation: {
            Partition *partition = findPartition(change.tenancy, action.partition);
            if (!partition)
                return Error{{}, 0, QStringLiteral("set_isolation: no partition named \"%1\" (by name or P_Key)").arg(action.partition)};
            partition->policy = action.policy;
            isolationSet = true;
            change.notes << actionToText(action);
            what << actionToText(action);
            break;
        }
        case Action::Kind::Notify: change.notes << action.text; break;
        case Action::Kind::Reroute:
        case Action::Kind::RequireApproval:
        case Action::Kind::Report:
        case Action::Kind::Drain:
        case Action::Kind::Undrain: break;
        }
    }
    for (NodeIndex node : fabric.endNodes())
        if (nodeWeight(portsOf[std::size_t(node)], knowledge.tenancy.nodeWeights) != nodeWeight(portsOf[std::size_t(node)], change.tenancy.nodeWeights))
            ++change.weightsChanged;

    std::vector<CandidateSpec> specs;
    if (reroute) {
        specs = candidateSpecsFor(*reroute, options);
    } else if (weightsSet || isolationSet) {
        CandidateSpec full;
        full.engine = weightsSet && isolationSet ? QStringLiteral("pftree-wt") : weightsSet ? QStringLiteral("wftree")
                                                                                            : QStringLiteral("pftree");
        specs.push_back(full);
    } else {
        change.decision = QStringLiteral("notify");
        return change;
    }

    CandidateInput input;
    input.installedFabric = knowledge.fabric;
    input.installed = knowledge.installed;
    input.fabric = knowledge.fabric;
    input.event = QStringLiteral("rule %1: %2").arg(firing.rule, what.isEmpty() ? QStringLiteral("re-route") : what.join(QStringLiteral(", ")));
    input.tenancy = change.tenancy;  // before and after are both modelled with the plan's weights
    input.currentPartitions = knowledge.currentPartitions;
    input.model = knowledge.model;
    input.metabase = knowledge.metabase;
    Result<CandidateStudy> study = planCandidates(input, specs, progress);
    if (!study)
        return study.error();
    change.study = std::move(study).value();

    const double blocks = switchBlocksInUse(fabric);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    bool anyEligible = false;
    double best = -std::numeric_limits<double>::infinity();
    int bestIndex = -1;
    for (std::size_t i = 0; i < change.study.candidates.size(); ++i) {
        const CandidateResult &c = change.study.candidates[i];
        const bool eligible = c.valid() && !(change.tenancy.mode == PolicyMode::Strict && c.isolationViolations > 0);
        if (!eligible) {
            change.scores.push_back(nan);
            continue;
        }
        anyEligible = true;
        const double benefit = relativeDrop(c.maxLinkLoadBefore, c.maxLinkLoadAfter)
            + options.meanWeight * relativeDrop(c.meanLinkLoadBefore, c.meanLinkLoadAfter);
        const double cost = options.smpWeight * double(c.smps) / blocks
            + options.pathWeight * (c.pairsCompared ? double(c.changedPaths) / double(c.pairsCompared) : 0.0);
        const double score = benefit - cost;
        change.scores.push_back(score);
        if (score > best) {
            best = score;
            bestIndex = int(i);
        }
    }
    // Tables that no longer deliver (a link went down under them) are no baseline to improve on:
    // the best valid candidate is taken whatever its score.
    const ValidationResult &held = change.study.installedEvaluation.validation;
    const bool installedBroken = held.unreachablePartitionPairs > 0 || held.loops > 0 || !held.deadlockFree;
    if (!anyEligible) {
        change.decision = QStringLiteral("no-valid-candidate");
    } else if (!(best > options.minimumScore) && !installedBroken) {
        change.decision = QStringLiteral("no-improvement");
    } else {
        change.chosen = bestIndex;
        change.decision = QStringLiteral("chosen %1 (score %2%3)")
                              .arg(change.chosenCandidate()->name, scoreText(best),
                                   installedBroken ? QStringLiteral("; the installed tables do not deliver") : QString());
    }
    return change;
}

}  // namespace weft::adapt
