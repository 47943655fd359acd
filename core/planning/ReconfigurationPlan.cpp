#include "ReconfigurationPlan.h"

#include "PartitionsConf.h"

namespace weft {

std::vector<Partition> plannedPartitions(std::vector<Partition> proposed)
{
    return withExplicitDefault(std::move(proposed));
}

std::map<std::uint16_t, int> partitionServiceLevels(const std::vector<Partition> &partitions)
{
    std::map<std::uint16_t, int> levels;
    for (const Partition &p : partitions)
        if (p.pkey && p.ipoibFlags.sl)
            levels[std::uint16_t(*p.pkey & kPKeyMask)] = *p.ipoibFlags.sl;
    return levels;
}

std::vector<Partition> withServiceLevels(std::vector<Partition> partitions, const std::map<std::uint16_t, int> &levels)
{
    for (Partition &p : partitions) {
        if (!p.pkey)
            continue;
        const auto it = levels.find(std::uint16_t(*p.pkey & kPKeyMask));
        if (it != levels.end())
            p.ipoibFlags.sl = it->second;
    }
    return partitions;
}

namespace {

// `proposed`, with an empty table for each port that `held` has and `proposed` lacks, so that the
// diff sends the blocks that empty it.
PKeyTables withEmptiedPorts(const PKeyTables &proposed, const PKeyTables &held)
{
    std::vector<PortPKeyTable> ports = proposed.ports();
    for (const PortPKeyTable &was : held.ports()) {
        if (proposed.find(was.port))
            continue;
        PortPKeyTable emptied;
        emptied.port = was.port;
        emptied.packed = was.packed;
        emptied.entries.assign(kPKeyBlockSize, 0);
        ports.push_back(std::move(emptied));
    }
    return PKeyTables::fromPorts(std::move(ports));
}

}  // namespace

ReconfigurationPlan planReconfiguration(const Fabric &fabric, const ForwardingTables &current,
                                        const ForwardingTables &proposed, const ReconfigurationRequest &request)
{
    ReconfigurationPlan plan;
    plan.diff = diffForwardingTables(current, proposed, &fabric, request.lfts);
    if (!request.proposedPartitions)
        return plan;

    const PartitionsState &from = request.currentPartitions;
    const PartitionsState &to = *request.proposedPartitions;
    const std::vector<Partition> held = plannedPartitions(from.partitions);
    plan.plannedPartitions = withServiceLevels(plannedPartitions(to.partitions), request.serviceLevels);
    plan.plannedPartitionsConf = writePartitionsConf(plan.plannedPartitions);

    const PKeyTables heldPKeys = request.currentPKeys ? *request.currentPKeys : computePKeyTables(fabric, held, request.pkeys);
    plan.plannedPKeys = request.proposedPKeys ? withEmptiedPorts(*request.proposedPKeys, heldPKeys)
                                              : computePKeyTables(fabric, plan.plannedPartitions, request.pkeys, &heldPKeys);
    addPKeyDiff(plan.diff, fabric, heldPKeys, plan.plannedPKeys);

    const QByteArray fromText = from.conf ? *from.conf : writePartitionsConf(held);
    const QByteArray toText = to.conf ? *to.conf : plan.plannedPartitionsConf;
    plan.diff.partitionsDiff = unifiedDiff(fromText, toText,
                                           from.name.isEmpty() ? QStringLiteral("partitions.conf (current)") : from.name,
                                           to.name.isEmpty() ? QStringLiteral("partitions.conf (proposed)") : to.name);
    return plan;
}

}  // namespace weft
