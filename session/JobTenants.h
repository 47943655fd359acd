#pragma once
// Slurm's jobs as the desk shows them: tenants whose hosts a job's partition holds (`weft serve
// --job-pkeys`, GET /api/v1/jobs), read from the service rather than edited on the desk, and the
// load their traffic puts on the fabric's links under the tables the switches hold.

#include "Fabric.h"
#include "ForwardingTables.h"

#include <QDateTime>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace weft {

struct JobTenant
{
    QString id;         // Slurm's job ID
    QString partition;  // "slurm_job_1234"
    std::uint16_t pkey = 0;
    QString user;             // empty when the service did not start it (it was restarted since)
    QString policy;           // "phy-isolation", ...; empty as the user
    QDateTime started;        // invalid as the user
    QStringList hosts;        // as Slurm names them
    std::vector<Guid> ports;  // the partition's member ports

    bool operator==(const JobTenant &o) const
    {
        return id == o.id && partition == o.partition && pkey == o.pkey && user == o.user && policy == o.policy
            && started == o.started && hosts == o.hosts && ports == o.ports;
    }
    bool operator!=(const JobTenant &o) const { return !(*this == o); }
};

// The load of each directed link (by out port of `fabric`) when the job's member ports talk all
// to all among themselves, and nothing else runs, routed by `tables`: the links a job's traffic
// crosses, as the metrics' traffic model counts them.
std::vector<double> jobLinkLoads(const Fabric &fabric, const ForwardingTables &tables, const std::vector<Guid> &ports);

}  // namespace weft
