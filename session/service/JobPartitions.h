#pragma once
// Partitions that follow Slurm's jobs (`weft serve --job-pkeys`, PUT and DELETE
// /api/v1/jobs/JOBID, docs/slurm.md): at a job's start its hosts get a partition of their own, a
// P_Key from the configured pool, and at its end the partition is removed; both as plans of the
// partitions OpenSM reads now with that one partition added or taken out, over the tables the
// switches hold (planFromTenancy), committed through the session's destination as every other
// plan of the service.
//
// A job's partition is named after it ("slurm_job_1234") in partitions.conf, so the partitions in
// force say which jobs have one, across restarts of the service. Hosts are named as `weft slurm
// topology` names them (slurmHostAdapters: the names map, else the first word of each CA's
// description); every port of every CA of a job's host is a full member.

#include "CommitPlanning.h"
#include "JobTenants.h"
#include "Result.h"
#include "SlurmTopology.h"
#include "Tenancy.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace weft {

// The P_Keys jobs get, first to last (low 15 bits), both included.
struct JobPKeyPool
{
    std::uint16_t first = 0;
    std::uint16_t last = 0;
    bool contains(std::uint16_t pkey) const { return (pkey & kPKeyMask) >= first && (pkey & kPKeyMask) <= last; }
};
// "0x2000-0x2fff" (or one P_Key); an error naming `what` for anything else, for a range that
// runs down, or for one that holds the Default partition's 0x7fff.
Result<JobPKeyPool> parseJobPKeyPool(const QString &text, const QString &what);

// One job as the prolog tells of it.
struct SlurmJob
{
    QString id;     // SLURM_JOB_ID: letters, digits and '_'
    QString user;   // SLURM_JOB_USER
    QString nodes;  // SLURM_JOB_NODELIST, a Slurm host list
    IsolationPolicy policy = IsolationPolicy::Default;
};
// Whether `id` can name a job's partition.
bool isSlurmJobId(const QString &id);
// The job `id` of a PUT jobs body {"nodes": LIST, "user": NAME, "policy": NAME}; policy absent or
// empty: `defaultPolicy`. Errors name the field.
Result<SlurmJob> slurmJobFromJson(const QString &id, const QJsonObject &body, IsolationPolicy defaultPolicy);

// "slurm_job_1234"; the job of a partition so named (empty for any other partition).
QString jobPartitionName(const QString &jobId);
QString jobOfPartition(const QString &partitionName);

// What a job's start or end asks of the fabric.
struct JobPartitionChange
{
    enum class Refusal : std::uint8_t { None,
                                        BadRequest,  // the request itself is wrong
                                        Conflict };  // the fabric or the pool cannot take it now
    Refusal refusal = Refusal::None;
    QString why;
    bool unchanged = false;  // the partitions in force are as asked already: nothing to commit
    std::uint16_t pkey = 0;  // the job's (start: new or kept; end: the one removed, 0 if none)
    QStringList hosts;       // the job's hosts, expanded
    int ports = 0;           // member ports
    QString summary;         // one line for the journal and the log, naming the job and its user
    CommitPlan plan;         // when neither refused nor unchanged
};

// The plan for `job` to start on `fabric` holding `held` while OpenSM reads `inForce`: its
// partition with the lowest P_Key of `pool` no partition in force has; the same P_Key and nothing
// to commit when its partition is in force with these members already; its members replaced when
// they differ. Refused when a host is not in the fabric, the pool is used up, or what the switches
// hold is not known.
JobPartitionChange planJobStart(const Fabric &fabric, const HeldTables &held, const PartitionsState &inForce,
                                const SlurmJob &job, const JobPKeyPool &pool, const SlurmTopologyOptions &naming);

// The plan for job `jobId` of `user` to end: its partition taken out; unchanged when it has none.
JobPartitionChange planJobEnd(const Fabric &fabric, const HeldTables &held, const PartitionsState &inForce,
                              const QString &jobId, const QString &user);

// What the service remembers of a job it was asked to start, for GET jobs (not kept across its
// restarts: a job started before shows no user, policy or start time).
struct JobStartRecord
{
    QString user;
    IsolationPolicy policy = IsolationPolicy::Default;
    QDateTime started;
};

// The jobs with a partition in force: {"job", "partition", "pkey", "ports", "port_guids", "hosts",
// "user", "policy", "started"} each; hosts named by `naming` on `fabric` (none without a fabric),
// user, policy and start from `started` ("" for a job not in it).
QJsonObject jobsInForceJson(const PartitionsState &inForce, const Fabric *fabric, const SlurmTopologyOptions &naming,
                            const std::map<QString, JobStartRecord> &started);
// The desk's side of it: the jobs of a GET jobs answer; an error naming the job and field that
// cannot be read.
Result<std::vector<JobTenant>> jobTenantsFromJson(const QJsonObject &answer);

}  // namespace weft
