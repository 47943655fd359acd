#include "JobPartitions.h"

#include "Identifiers.h"
#include "SlurmTopologyFile.h"
#include "TextReader.h"

#include <QJsonArray>
#include <QRegularExpression>

#include <algorithm>
#include <set>

namespace weft {

namespace {

const QString kJobPrefix = QStringLiteral("slurm_job_");

std::optional<std::uint16_t> pkeyNumber(const QString &text)
{
    bool ok = false;
    const QString t = text.trimmed();
    const uint value = t.startsWith(QLatin1String("0x"), Qt::CaseInsensitive) ? t.mid(2).toUInt(&ok, 16) : t.toUInt(&ok, 0);
    if (!ok || value > 0xffff)
        return std::nullopt;
    return std::uint16_t(value);
}

// The member port GUIDs of a partition, the ones named by GUID.
std::set<Guid> memberGuids(const Partition &partition)
{
    std::set<Guid> guids;
    for (const PartitionMember &m : partition.members)
        if (m.kind == PartitionMember::Kind::PortGuid)
            guids.insert(m.guid);
    return guids;
}

JobPartitionChange refused(JobPartitionChange::Refusal kind, const QString &why)
{
    JobPartitionChange change;
    change.refusal = kind;
    change.why = why;
    return change;
}

// The plan of `partitions` over the tables the switches hold, judged by each one's policy.
CommitPlan planPartitions(const Fabric &fabric, const HeldTables &held, std::vector<Partition> partitions, const QString &summary)
{
    Tenancy tenancy;
    tenancy.partitions = std::move(partitions);
    PlanLabel label;
    label.summary = summary;
    label.partitionsFileName = QStringLiteral("partitions.conf (planned for Slurm's jobs)");
    return planFromTenancy(&fabric, ProposedRouting{held.lfts, {}}, tenancy, label, held);
}

}  // namespace

Result<JobPKeyPool> parseJobPKeyPool(const QString &text, const QString &what)
{
    const QStringList parts = text.split(QLatin1Char('-'));
    const auto fail = [&](const QString &message) { return Error{what, 0, QStringLiteral("\"%1\": %2").arg(text.left(40), message)}; };
    if (parts.size() > 2)
        return fail(QStringLiteral("expected FIRST-LAST, as 0x2000-0x2fff"));
    const std::optional<std::uint16_t> first = pkeyNumber(parts.constFirst());
    const std::optional<std::uint16_t> last = pkeyNumber(parts.constLast());
    if (!first || !last)
        return fail(QStringLiteral("expected P_Keys FIRST-LAST, as 0x2000-0x2fff"));
    JobPKeyPool pool{std::uint16_t(*first & kPKeyMask), std::uint16_t(*last & kPKeyMask)};
    if (pool.last < pool.first)
        return fail(QStringLiteral("the range runs down"));
    if (pool.first == 0)
        return fail(QStringLiteral("0x0000 is no partition's P_Key"));
    if (pool.contains(0x7fff))
        return fail(QStringLiteral("the pool holds 0x7fff, the Default partition's P_Key"));
    return pool;
}

bool isSlurmJobId(const QString &id)
{
    static const QRegularExpression form(QStringLiteral("^[A-Za-z0-9_]{1,48}$"));
    return form.match(id).hasMatch();
}

Result<SlurmJob> slurmJobFromJson(const QString &id, const QJsonObject &body, IsolationPolicy defaultPolicy)
{
    const QString where = QStringLiteral("request body");
    if (!isSlurmJobId(id))
        return Error{where, 0, QStringLiteral("job \"%1\": a job ID is letters, digits and '_', at most 48").arg(text::withoutControlCharacters(id.left(60)))};
    SlurmJob job;
    job.id = id;
    const QJsonValue nodes = body.value(QStringLiteral("nodes"));
    if (!nodes.isString() || nodes.toString().trimmed().isEmpty())
        return Error{where, 0, QStringLiteral("nodes: the job's hosts as a Slurm host list (SLURM_JOB_NODELIST, \"node[01-04]\")")};
    job.nodes = nodes.toString().trimmed();
    const QJsonValue user = body.value(QStringLiteral("user"));
    if (!user.isUndefined() && !user.isString())
        return Error{where, 0, QStringLiteral("user: a name (SLURM_JOB_USER)")};
    job.user = text::withoutControlCharacters(user.toString().trimmed()).left(64);
    job.policy = defaultPolicy;
    const QJsonValue policy = body.value(QStringLiteral("policy"));
    if (!policy.isUndefined() && !policy.isNull() && !policy.toString().trimmed().isEmpty()) {
        const std::optional<IsolationPolicy> p = policyFromName(policy.toString().trimmed());
        if (!p)
            return Error{where, 0, QStringLiteral("policy: \"%1\" is none of phy-isolation, vlane-isolation, def-isolation").arg(text::withoutControlCharacters(policy.toString().left(40)))};
        job.policy = *p;
    }
    return job;
}

QString jobPartitionName(const QString &jobId)
{
    return kJobPrefix + jobId;
}

QString jobOfPartition(const QString &partitionName)
{
    if (!partitionName.startsWith(kJobPrefix))
        return {};
    const QString id = partitionName.mid(kJobPrefix.size());
    return isSlurmJobId(id) ? id : QString();
}

JobPartitionChange planJobStart(const Fabric &fabric, const HeldTables &held, const PartitionsState &inForce,
                                const SlurmJob &job, const JobPKeyPool &pool, const SlurmTopologyOptions &naming)
{
    using Refusal = JobPartitionChange::Refusal;
    Result<QStringList> hosts = expandHostList(job.nodes, QStringLiteral("nodes"));
    if (!hosts)
        return refused(Refusal::BadRequest, hosts.error().toString());
    if (hosts->isEmpty())
        return refused(Refusal::BadRequest, QStringLiteral("nodes: the host list names no host"));

    // The job's member ports, host by host as `weft slurm topology` names them.
    const std::map<QString, std::vector<NodeIndex>> adapters = slurmHostAdapters(fabric, naming);
    std::set<Guid> members;
    QStringList missing;
    for (const QString &host : *hosts) {
        const auto it = adapters.find(host);
        if (it == adapters.end()) {
            missing << host;
            continue;
        }
        for (NodeIndex n : it->second) {
            const Node &node = fabric.node(n);
            for (int p = 1; p <= node.portCount; ++p)
                if (const Port &port = fabric.port(node.firstPort + p); port.present && port.guid != 0)
                    members.insert(port.guid);
        }
    }
    if (!missing.isEmpty())
        return refused(Refusal::Conflict, QStringLiteral("%1 of the job's hosts are not in the fabric as Slurm names its hosts: %2 "
                                                         "(names from each CA's node description or the names map, --slurm-names)")
                                              .arg(missing.size())
                                              .arg(compressHostList(missing)));
    if (members.empty())
        return refused(Refusal::Conflict, QStringLiteral("the job's hosts have no port in the fabric"));

    JobPartitionChange change;
    change.hosts = *hosts;
    change.ports = int(members.size());
    const QString name = jobPartitionName(job.id);
    std::vector<Partition> partitions = inForce.partitions;
    const auto mine = std::find_if(partitions.begin(), partitions.end(), [&](const Partition &p) { return p.name == name; });
    const QString hostText = compressHostList(*hosts);
    const QString userText = job.user.isEmpty() ? QStringLiteral("an unnamed user") : QStringLiteral("user %1").arg(job.user);

    if (mine != partitions.end() && mine->pkey) {
        change.pkey = std::uint16_t(*mine->pkey & kPKeyMask);
        if (memberGuids(*mine) == members) {
            change.unchanged = true;
            change.summary = QStringLiteral("Slurm job %1 of %2: partition %3 (P_Key %4) in force already on %5")
                                 .arg(job.id, userText, name, pkeyText(change.pkey), hostText);
            return change;
        }
    } else {
        if (mine != partitions.end())
            partitions.erase(mine);  // named for the job without a P_Key: given one now
        std::set<std::uint16_t> used;
        for (const Partition &p : inForce.partitions)
            if (p.pkey)
                used.insert(std::uint16_t(*p.pkey & kPKeyMask));
        for (std::uint32_t k = pool.first; k <= pool.last; ++k)
            if (!used.count(std::uint16_t(k))) {
                change.pkey = std::uint16_t(k);
                break;
            }
        if (change.pkey == 0)
            return refused(Refusal::Conflict, QStringLiteral("every P_Key of the pool %1-%2 is in use: no partition for job %3").arg(pkeyText(pool.first), pkeyText(pool.last), job.id));
    }
    if (!held.lfts)
        return refused(Refusal::Conflict, QStringLiteral("the tables the switches hold are not known yet: discover the fabric first"));

    Partition partition;
    partition.name = name;
    partition.pkey = change.pkey;
    partition.defaultMembership = Membership::Full;
    partition.policy = job.policy;
    for (Guid guid : members) {
        PartitionMember member;
        member.guid = guid;
        member.membership = Membership::Full;
        member.explicitMembership = true;
        partition.members.push_back(member);
    }
    const auto existing = std::find_if(partitions.begin(), partitions.end(), [&](const Partition &p) { return p.name == name; });
    if (existing != partitions.end())
        *existing = std::move(partition);
    else
        partitions.push_back(std::move(partition));
    change.summary = QStringLiteral("Slurm job %1 of %2 starts: partition %3, P_Key %4, %5 (%6 ports), %7")
                         .arg(job.id, userText, name, pkeyText(change.pkey), hostText)
                         .arg(change.ports)
                         .arg(policyName(job.policy));
    change.plan = planPartitions(fabric, held, std::move(partitions), change.summary);
    return change;
}

JobPartitionChange planJobEnd(const Fabric &fabric, const HeldTables &held, const PartitionsState &inForce,
                              const QString &jobId, const QString &user)
{
    using Refusal = JobPartitionChange::Refusal;
    if (!isSlurmJobId(jobId))
        return refused(Refusal::BadRequest, QStringLiteral("job \"%1\": a job ID is letters, digits and '_', at most 48").arg(text::withoutControlCharacters(jobId.left(60))));
    const QString name = jobPartitionName(jobId);
    const QString userText = user.isEmpty() ? QStringLiteral("an unnamed user") : QStringLiteral("user %1").arg(user);
    std::vector<Partition> partitions = inForce.partitions;
    const auto mine = std::find_if(partitions.begin(), partitions.end(), [&](const Partition &p) { return p.name == name; });
    JobPartitionChange change;
    if (mine == partitions.end()) {
        change.unchanged = true;
        change.summary = QStringLiteral("Slurm job %1 of %2 ends: it has no partition").arg(jobId, userText);
        return change;
    }
    if (!held.lfts)
        return refused(Refusal::Conflict, QStringLiteral("the tables the switches hold are not known yet: discover the fabric first"));
    change.pkey = mine->pkey ? std::uint16_t(*mine->pkey & kPKeyMask) : 0;
    change.ports = int(memberGuids(*mine).size());
    partitions.erase(mine);
    change.summary = QStringLiteral("Slurm job %1 of %2 ends: partition %3 (P_Key %4) removed").arg(jobId, userText, name, pkeyText(change.pkey));
    change.plan = planPartitions(fabric, held, std::move(partitions), change.summary);
    return change;
}

QJsonObject jobsInForceJson(const PartitionsState &inForce, const Fabric *fabric, const SlurmTopologyOptions &naming,
                            const std::map<QString, JobStartRecord> &started)
{
    // Each CA's Slurm name, for the members' hosts.
    std::map<NodeIndex, QString> hostOf;
    if (fabric)
        for (const auto &[name, adapters] : slurmHostAdapters(*fabric, naming))
            for (NodeIndex node : adapters)
                hostOf[node] = name;
    QJsonArray jobs;
    for (const Partition &p : inForce.partitions) {
        const QString job = jobOfPartition(p.name);
        if (job.isEmpty())
            continue;
        const std::set<Guid> members = memberGuids(p);
        QJsonArray guids;
        std::set<QString> hosts;
        for (Guid g : members) {
            guids.append(guidText(g));
            const PortIndex port = fabric ? fabric->portByGuid(g) : kNoIndex;
            if (port == kNoIndex)
                continue;
            if (const auto name = hostOf.find(fabric->port(port).node); name != hostOf.end())
                hosts.insert(name->second);
        }
        const auto record = started.find(job);
        const bool known = record != started.end();
        jobs.append(QJsonObject{{QStringLiteral("job"), job},
                                {QStringLiteral("partition"), p.name},
                                {QStringLiteral("pkey"), p.pkey ? pkeyText(std::uint16_t(*p.pkey & kPKeyMask)) : QString()},
                                {QStringLiteral("ports"), int(members.size())},
                                {QStringLiteral("port_guids"), guids},
                                {QStringLiteral("hosts"), QJsonArray::fromStringList(QStringList(hosts.begin(), hosts.end()))},
                                {QStringLiteral("user"), known ? record->second.user : QString()},
                                {QStringLiteral("policy"), known ? policyName(record->second.policy) : QString()},
                                {QStringLiteral("started"), known ? record->second.started.toUTC().toString(Qt::ISODate) : QString()}});
    }
    return QJsonObject{{QStringLiteral("jobs"), jobs}};
}

Result<std::vector<JobTenant>> jobTenantsFromJson(const QJsonObject &answer)
{
    const QJsonValue list = answer.value(QStringLiteral("jobs"));
    if (!list.isArray())
        return Error{{}, 0, QStringLiteral("jobs: not a list")};
    std::vector<JobTenant> jobs;
    for (const QJsonValue &value : list.toArray()) {
        const QJsonObject o = value.toObject();
        JobTenant job;
        job.id = o.value(QStringLiteral("job")).toString();
        if (!isSlurmJobId(job.id))
            return Error{{}, 0, QStringLiteral("jobs: \"%1\" is no job ID").arg(job.id.left(60))};
        job.partition = o.value(QStringLiteral("partition")).toString();
        const QString pkey = o.value(QStringLiteral("pkey")).toString();
        if (!pkey.isEmpty()) {
            const std::optional<std::uint16_t> number = pkeyNumber(pkey);
            if (!number)
                return Error{{}, 0, QStringLiteral("job %1: pkey: not a P_Key: \"%2\"").arg(job.id, pkey.left(20))};
            job.pkey = std::uint16_t(*number & kPKeyMask);
        }
        job.user = o.value(QStringLiteral("user")).toString();
        job.policy = o.value(QStringLiteral("policy")).toString();
        job.started = QDateTime::fromString(o.value(QStringLiteral("started")).toString(), Qt::ISODate);
        for (const QJsonValue &h : o.value(QStringLiteral("hosts")).toArray())
            job.hosts << h.toString();
        for (const QJsonValue &g : o.value(QStringLiteral("port_guids")).toArray()) {
            const QString text = g.toString().trimmed();
            bool ok = false;
            const Guid guid = (text.startsWith(QLatin1String("0x"), Qt::CaseInsensitive) ? text.mid(2) : text).toULongLong(&ok, 16);
            if (!ok)
                return Error{{}, 0, QStringLiteral("job %1: port_guids: not a GUID: \"%2\"").arg(job.id, text.left(40))};
            job.ports.push_back(guid);
        }
        jobs.push_back(std::move(job));
    }
    return jobs;
}

}  // namespace weft
