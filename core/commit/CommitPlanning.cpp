#include "CommitPlanning.h"

#include "PartitionsConf.h"
#include "TextReader.h"

#include <QFileInfo>

namespace weft {

namespace {

// What is asked to be installed: the one shape every builder fills.
struct ChangeRequest
{
    std::shared_ptr<const ForwardingTables> tables;
    std::vector<Partition> partitions;
    std::optional<Tenancy> intent;  // the policies the commit judges by; unset: def-isolation
    std::map<std::uint16_t, int> serviceLevels;
    PlanLabel label;
};

CommitPlan buildCommitPlan(const Fabric *madeFor, const ChangeRequest &change, const HeldTables &against)
{
    CommitPlan plan;
    if (change.tables)
        plan.tables = *change.tables;
    plan.partitionsConf = writePartitionsConf(withServiceLevels(plannedPartitions(change.partitions), change.serviceLevels));
    plan.partitionsFileName = change.label.partitionsFileName.isEmpty() ? QStringLiteral("partitions.conf (planned)")
                                                                        : change.label.partitionsFileName;
    plan.summary = change.label.summary;
    if (madeFor)
        plan.madeFor = *madeFor;
    plan.serviceLevels = change.serviceLevels;
    plan.intent = change.intent;
    plan.whatIf = change.label.whatIf;
    if (against.lfts || against.pkeys || against.smPort)
        plan.expectedHeld = against;
    return plan;
}

QString routedSummary(const QString &what, const Fabric &fabric, const QString &method, const Tenancy &tenancy)
{
    return QStringLiteral("%1: %2 switches routed by %3, %4 partition(s)")
        .arg(what)
        .arg(fabric.switches().size())
        .arg(method)
        .arg(tenancy.partitions.size());
}

}  // namespace

CommitPlan planFromTenancy(const Fabric *madeFor, const ProposedRouting &routing, const Tenancy &tenancy,
                           const PlanLabel &label, const HeldTables &against)
{
    return buildCommitPlan(madeFor, {routing.tables, tenancy.partitions, tenancy, routing.serviceLevels, label}, against);
}

CommitPlan planFromFiles(const Fabric *madeFor, const ProposedRouting &routing, const QByteArray &partitionsConf,
                         std::optional<Tenancy> policies, const PlanLabel &label, const HeldTables &against)
{
    Result<PartitionsConfResult> conf = readPartitionsConf(partitionsConf, label.partitionsFileName);
    ChangeRequest change{routing.tables, {}, std::move(policies), routing.serviceLevels, label};
    if (conf)
        change.partitions = std::move(conf->partitions);
    CommitPlan plan = buildCommitPlan(madeFor, change, against);
    if (!conf)
        plan.partitionsConf = partitionsConf;
    return plan;
}

CommitPlan planFromProject(const Fabric &fabric, const ProposedRouting &routing, const Tenancy &tenancy,
                           const QString &method, const QString &projectName, const HeldTables &against)
{
    PlanLabel label;
    label.summary = routedSummary(QStringLiteral("project"), fabric, method, tenancy);
    label.partitionsFileName = projectName;
    return planFromTenancy(&fabric, routing, tenancy, label, against);
}

CommitPlan planFromIntent(const Fabric &fabric, const ProposedRouting &routing, const Tenancy &tenancy,
                          const QByteArray &intentFile, const QString &method, const QString &intentName,
                          const HeldTables &against)
{
    PlanLabel label;
    label.summary = routedSummary(QStringLiteral("intent %1").arg(QFileInfo(intentName).fileName()), fabric, method, tenancy);
    label.partitionsFileName = intentName;
    CommitPlan plan = buildCommitPlan(&fabric, {routing.tables, tenancy.partitions, tenancy, {}, label}, against);
    plan.intentFile = intentFile;
    return plan;
}

ReconfigurationPlan planCommitChange(const Fabric &fabric, const HeldTables &held, const PartitionsState &inForce,
                                     const CommitPlan &plan)
{
    static const ForwardingTables noTables;
    ReconfigurationRequest request;
    request.currentPartitions = inForce;
    request.currentPKeys = held.pkeys ? std::optional<PKeyTables>(*held.pkeys) : std::nullopt;
    request.pkeys.smPortGuid = held.smPort;
    request.serviceLevels = plan.serviceLevels;
    const Result<PartitionsConfResult> parsed = readPartitionsConf(plan.partitionsConf, plan.partitionsFileName);
    if (parsed)
        request.proposedPartitions = PartitionsState{plannedPartitions(parsed->partitions), std::nullopt, plan.partitionsFileName};
    return planReconfiguration(fabric, held.lfts ? *held.lfts : noTables, plan.tables, request);
}

PartitionsState partitionsOnTarget(const CommitTarget &target)
{
    PartitionsState state;
    state.name = target.partitionsPath;
    const Result<QByteArray> read = TextReader::readFile(target.partitionsPath);
    const QByteArray text = read ? *read : QByteArray();
    const Result<PartitionsConfResult> parsed = readPartitionsConf(text, target.partitionsPath);
    if (parsed)
        state.partitions = parsed->partitions;
    else
        state.conf = text;
    return state;
}

}  // namespace weft
