#include "JobTenants.h"

#include "Metrics.h"
#include "Tenancy.h"

namespace weft {

std::vector<double> jobLinkLoads(const Fabric &fabric, const ForwardingTables &tables, const std::vector<Guid> &ports)
{
    std::vector<double> loads(fabric.ports().size(), 0.0);
    // The job's partition alone: no other partition, so the traffic model's pairs are the job's.
    Partition job;
    job.name = QStringLiteral("job");
    job.pkey = 0x0001;
    for (Guid guid : ports) {
        if (fabric.portByGuid(guid) == kNoIndex)
            continue;
        PartitionMember member;
        member.guid = guid;
        member.membership = Membership::Full;
        member.explicitMembership = true;
        job.members.push_back(member);
    }
    if (job.members.size() < 2)
        return loads;
    Tenancy tenancy;
    tenancy.partitions.push_back(std::move(job));
    const Metrics metrics = computeMetrics(fabric, tenancy, tables, TrafficModel{}, 1);
    for (const LinkLoad &l : metrics.links)
        if (l.from >= 0 && std::size_t(l.from) < loads.size())
            loads[std::size_t(l.from)] = l.load;
    return loads;
}

}  // namespace weft
