#include "CommitPlanning.h"

#include "PartitionsConf.h"
#include "TextReader.h"

namespace weft {

CommitPlan buildCommitPlan(const Fabric *madeFor, const ChangeRequest &change, const HeldTables &against)
{
    CommitPlan plan;
    if (change.tables)
        plan.tables = *change.tables;
    plan.partitionsConf = writePartitionsConf(withServiceLevels(plannedPartitions(change.partitions), change.serviceLevels));
    plan.partitionsFileName = change.partitionsFileName.isEmpty() ? QStringLiteral("partitions.conf (planned)") : change.partitionsFileName;
    plan.summary = change.summary;
    if (madeFor)
        plan.madeFor = *madeFor;
    plan.serviceLevels = change.serviceLevels;
    plan.intent = change.intent;
    plan.whatIf = change.whatIf;
    if (against.lfts || against.pkeys || against.smPort)
        plan.expectedHeld = against;
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
