#include "KeyPlan.h"

#include <QJsonArray>

#include <algorithm>

namespace weft {

namespace {

QJsonObject figuresJson(const LoadFigures &f)
{
    return {{QStringLiteral("max"), f.max}, {QStringLiteral("mean"), f.mean}, {QStringLiteral("max_intra"), f.maxIntra}};
}

}  // namespace

const QStringList &keyPatternNames()
{
    static const QStringList names{QStringLiteral("neighbour"), QStringLiteral("shift"), QStringLiteral("ring"),
                                   QStringLiteral("recursive-doubling")};
    return names;
}

QString keyPatternName(KeyPattern pattern)
{
    return keyPatternNames().at(int(pattern));
}

std::optional<KeyPattern> keyPatternFromName(const QString &name)
{
    const qsizetype i = keyPatternNames().indexOf(name);
    return i < 0 ? std::nullopt : std::optional<KeyPattern>(KeyPattern(i));
}

Result<KeyPlan> planKeys(const KeyTreeShape &shape, int switches, const KeyPlanRequest &request)
{
    const auto fail = [](const QString &message) { return Error{{}, 0, message}; };
    if (request.placement.empty() || request.placement.front().empty())
        return fail(QStringLiteral("no application to place: choose its hosts"));
    std::vector<bool> used(std::size_t(std::max(0, shape.hosts())), false);
    for (const std::vector<int> &app : request.placement)
        for (int h : app) {
            if (h < 0 || h >= shape.hosts())
                return fail(QStringLiteral("host %1 is not one of the tree's hosts 0..%2").arg(h).arg(shape.hosts() - 1));
            if (used[std::size_t(h)])
                return fail(QStringLiteral("host %1 is placed twice").arg(h));
            used[std::size_t(h)] = true;
        }

    KeyPlan plan;
    plan.shape = shape;
    plan.switches = switches;
    plan.request = request;
    const int ranks = plan.ranks();
    plan.patternText = keyPatternName(request.pattern);
    switch (request.pattern) {
    case KeyPattern::Neighbour: {
        const std::array<int, 3> dims = request.dims.value_or(balancedDims(ranks));
        if (dims[0] <= 0 || dims[1] <= 0 || dims[2] <= 0 || dims[0] * dims[1] * dims[2] != ranks)
            return fail(QStringLiteral("dims %1x%2x%3 have %4 ranks, the applications have %5")
                            .arg(dims[0])
                            .arg(dims[1])
                            .arg(dims[2])
                            .arg(dims[0] * dims[1] * dims[2])
                            .arg(ranks));
        plan.phases = cartesianPhases(dims);
        plan.patternText += QStringLiteral(" %1x%2x%3").arg(dims[0]).arg(dims[1]).arg(dims[2]);
        break;
    }
    case KeyPattern::Shift:
        if (request.shift) {
            if (*request.shift % ranks == 0)
                return fail(QStringLiteral("shift %1 is not a shift between 1 and %2").arg(*request.shift).arg(ranks - 1));
            plan.phases.push_back(shiftPhase(ranks, *request.shift));
        } else {
            for (int c = 1; c < ranks; ++c)
                plan.phases.push_back(shiftPhase(ranks, c));
        }
        break;
    case KeyPattern::Ring:
        plan.phases = ringPhases(ranks, request.bidirectional);
        break;
    case KeyPattern::RecursiveDoubling: {
        Result<std::vector<Phase>> rd = recursiveDoublingPhases(ranks);
        if (!rd)
            return rd.error();
        plan.phases = std::move(rd).value();
        break;
    }
    }

    const int phaseOffsets = int(plan.phases.size());
    plan.lmc = request.lmc.value_or(std::min(lmcForOffsets(phaseOffsets), 7));
    if (plan.lmc < 0 || plan.lmc > 7)
        return fail(QStringLiteral("LMC %1 is not an LMC 0..7").arg(plan.lmc));
    plan.budget = lidBudget(shape.hosts(), switches, plan.lmc);
    plan.phasesFit = plan.budget.offsets >= phaseOffsets;
    plan.maxLmc = maxLmc(shape.hosts(), switches);
    plan.staticPaths = shape.levels == 2 ? shape.aggsPerPod : shape.aggsPerPod * shape.spinesPerSubtree;
    plan.staticLmc = lmcForOffsets(plan.staticPaths);
    plan.staticFits = plan.staticLmc <= 7 && lidBudget(shape.hosts(), switches, plan.staticLmc).fits;
    const bool nrk = request.scheme == KeyScheme::Nrk;
    plan.schemeText = nrk ? QStringLiteral("NRK (%1)").arg(request.cost == ShiftCost::Link ? QStringLiteral("C_link") : QStringLiteral("C_paper"))
                          : QStringLiteral("ARK (%1 mapping)").arg(request.arkIdentityMapping ? QStringLiteral("identity") : QStringLiteral("rotation"));

    KeyScheduleRequest schedule;
    schedule.placement = request.placement;
    schedule.phases = plan.phases;
    schedule.scheme = request.scheme;
    schedule.arkIdentityMapping = request.arkIdentityMapping;
    schedule.cost = request.cost;
    schedule.decomposition = request.decomposition;
    schedule.phaseOrders = request.phaseOrders;
    Result<KeySchedule> keys = scheduleKeys(shape, schedule);
    if (!keys)
        return keys.error();
    plan.schedule = std::move(keys).value();
    return plan;
}

Result<ForwardingTables> keyPlanTables(const Fabric &fabric, const KeyTreeFabric &tree, const KeyPlan &plan)
{
    const int phaseOffsets = int(plan.phases.size());
    if (phaseOffsets > (1 << tree.hostLmc) - 1)
        return Error{{}, 0, QStringLiteral("%1 phases need LID offsets 1..%1, but the topology gives hosts LMC %2 (%3 offsets); regenerate it with LMC %4").arg(phaseOffsets).arg(tree.hostLmc).arg((1 << tree.hostLmc) - 1).arg(lmcForOffsets(phaseOffsets))};
    return keyForwardingTables(fabric, tree, plan.schedule.realised);
}

QJsonObject keyPlanToJson(const KeyPlan &plan, bool paths)
{
    QJsonArray appsJson;
    for (std::size_t a = 0; a < plan.request.placement.size(); ++a) {
        QJsonArray hosts;
        for (int h : plan.request.placement[a])
            hosts.append(h);
        appsJson.append(QJsonObject{{QStringLiteral("hosts"), hosts}, {QStringLiteral("rotation"), plan.schedule.rotations[a]}});
    }
    QJsonArray phasesJson;
    for (const PhaseKeys &r : plan.schedule.phases) {
        QJsonObject o{{QStringLiteral("name"), r.phase.name}, {QStringLiteral("offset"), r.offset}, {QStringLiteral("flows"), r.flows}, {QStringLiteral("delta"), r.delta}, {QStringLiteral("slots"), r.slots}, {QStringLiteral("contention_free"), r.contentionFree}, {QStringLiteral("dmodk"), figuresJson(r.dmodk)}, {QStringLiteral("keyed"), figuresJson(r.keyed)}, {QStringLiteral("warnings"), QJsonArray::fromStringList(r.warnings)}};
        if (paths) {
            QJsonArray keyPathsJson;
            for (const RoutingKey &key : r.keys)
                keyPathsJson.append(QJsonArray::fromStringList(keyPaths(plan.shape, key, QStringLiteral("A"))));
            o.insert(QStringLiteral("paths"), keyPathsJson);
        }
        phasesJson.append(o);
    }
    return QJsonObject{
        {QStringLiteral("tree"), plan.shape.toString()},
        {QStringLiteral("hosts"), plan.shape.hosts()},
        {QStringLiteral("switches"), plan.switches},
        {QStringLiteral("scheme"), plan.schemeText},
        {QStringLiteral("pattern"), plan.patternText},
        {QStringLiteral("apps"), appsJson},
        {QStringLiteral("lid_budget"), QJsonObject{{QStringLiteral("lmc"), plan.lmc}, {QStringLiteral("lids"), double(plan.budget.lids)}, {QStringLiteral("fits"), plan.budget.fits}, {QStringLiteral("offsets"), plan.budget.offsets}, {QStringLiteral("phases_fit"), plan.phasesFit}, {QStringLiteral("max_lmc"), plan.maxLmc}, {QStringLiteral("static_paths"), plan.staticPaths}, {QStringLiteral("static_lmc"), plan.staticLmc}, {QStringLiteral("static_fits"), plan.staticFits}}},
        {QStringLiteral("phases"), phasesJson}};
}

}  // namespace weft
