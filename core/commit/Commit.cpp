#include "Commit.h"

#include "CommitEdits.h"
#include "CommitJournal.h"
#include "CommitPlanning.h"
#include "CommitRollback.h"
#include "CommitStaging.h"
#include "CommitSteps.h"
#include "CommitVerification.h"
#include "PKeyIndexMemory.h"
#include "FabricChanges.h"
#include "FileDigest.h"
#include "LftDump.h"
#include "PartitionsConf.h"
#include "ReconfigurationPlan.h"
#include "SafeFile.h"
#include "TextReader.h"
#include "OpenSmSignal.h"
#include "Validation.h"
#include "WarningSummary.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>
#include <QThread>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <set>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/types.h>
#include <unistd.h>

namespace weft {

bool processRunning(qint64 pid)
{
    // EPERM: it runs, as another user (OpenSM as root, weft serve as its own user).
    if (pid <= 0 || (::kill(pid_t(pid), 0) != 0 && errno != EPERM))
        return false;
    // A killed child not yet reaped by its parent still answers kill(0): look at its state.
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (stat.open(QIODevice::ReadOnly)) {
        const QByteArray line = stat.readAll();
        const int close = line.lastIndexOf(')');
        if (close >= 0 && close + 2 < line.size() && (line[close + 2] == 'Z' || line[close + 2] == 'X'))
            return false;
    }
    return true;
}

Status sendHangup(qint64 pid)
{
    if (pid <= 0 || ::kill(pid_t(pid), SIGHUP) != 0) {
        const int error = errno;
        const QString why = QString::fromLocal8Bit(strerror(error));
        if (error == EPERM)
            return Error{{}, 0, QStringLiteral("cannot send SIGHUP to OpenSM (pid %1): %2: this process (uid %3) may not signal it; run Weft "
                                               "as OpenSM's user, or with CAP_KILL (weft-serve.service grants it)")
                                    .arg(pid).arg(why).arg(::getuid())};
        return Error{{}, 0, QStringLiteral("cannot send SIGHUP to OpenSM (pid %1): %2").arg(pid).arg(why)};
    }
    return Done{};
}

namespace {
// Beside the file itself: through a symbolic link to it or to its directory, a second commit
// finds the same lock.
QString lockBeside(const QString &routingFile)
{
    return realFilePath(routingFile) + QStringLiteral(".weft-lock");
}
}  // namespace

QString commitLockPath(const CommitTarget &target)
{
    return lockBeside(target.routingFile());
}

QStringList commitLockPaths(const CommitTarget &target)
{
    QStringList paths;
    if (!target.lockPath.isEmpty())
        paths << realFilePath(target.lockPath);
    paths << commitLockPath(target);
    for (const CommitTarget::Standby &s : target.standbys) {
        const QString path = lockBeside(s.routingFile());
        if (!paths.contains(path))
            paths << path;
    }
    return paths;
}

CommitLock::CommitLock(int fd, QString path, QString staleHolder)
    : m_fd(fd), m_path(std::move(path)), m_staleHolder(std::move(staleHolder))
{
}

CommitLock::~CommitLock()
{
    // Emptied first: a holder named in the file of a free lock is one that died holding it.
    if (::ftruncate(m_fd, 0) == 0)
        ::fsync(m_fd);
    ::flock(m_fd, LOCK_UN);
    ::close(m_fd);
}

QString CommitLock::holderText()
{
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    return QStringLiteral("pid %1 on host %2 since %3 (user %4)")
        .arg(::getpid())
        .arg(QString::fromLocal8Bit(host), QDateTime::currentDateTimeUtc().toString(Qt::ISODate), currentUserName());
}

Result<std::unique_ptr<CommitLock>> CommitLock::acquire(const QString &path, int waitMs)
{
    auto failure = [&path](const char *what) {
        return Error{path, 0, QStringLiteral("cannot %1 the commit lock: %2").arg(QLatin1String(what), QString::fromLocal8Bit(strerror(errno)))};
    };
    // O_NOFOLLOW: a link planted in its place is not followed.
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0)
        return failure("open");
    auto contents = [fd]() {
        QByteArray text(4096, '\0');
        const ssize_t n = ::pread(fd, text.data(), std::size_t(text.size()), 0);
        return QString::fromUtf8(text.left(n > 0 ? qsizetype(n) : 0)).trimmed();
    };
    QDeadlineTimer deadline(waitMs < 0 ? QDeadlineTimer(QDeadlineTimer::Forever) : QDeadlineTimer(waitMs));
    while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno != EWOULDBLOCK && errno != EINTR) {
            const Error e = failure("take");
            ::close(fd);
            return e;
        }
        if (deadline.hasExpired()) {
            QString holder = contents();
            ::close(fd);
            if (holder.isEmpty())
                holder = QStringLiteral("a process that has not said who it is yet");
            return Error{path, 0, QStringLiteral("another commit is running on this target, held by %1; nothing was done "
                                                 "(try again when it has finished, or wait for it: weft commit --wait)").arg(holder)};
        }
        QThread::msleep(100);
    }
    const QString stale = contents();
    const QByteArray holder = holderText().toUtf8() + '\n';
    if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, holder.constData(), std::size_t(holder.size()), 0) != ssize_t(holder.size()) || ::fsync(fd) != 0) {
        const Error e = failure("write");
        ::close(fd);
        return e;
    }
    return std::unique_ptr<CommitLock>(new CommitLock(fd, path, stale));
}

namespace {

// LIDs the fabric assigns, each once, ascending: what a switch must route.
std::vector<Lid> assignedLids(const Fabric &fabric)
{
    std::set<Lid> lids;
    for (const Port &p : fabric.ports()) {
        if (!p.present || p.lid == 0)
            continue;
        const int count = 1 << p.lmc;
        for (int i = 0; i < count; ++i)
            lids.insert(Lid(p.lid + i));
    }
    return {lids.begin(), lids.end()};
}

// OpenSM's own port: the only endpoint port holding full membership of the default partition
// (SELF=full) when the default partition gives everyone else limited membership.
std::optional<Guid> inferSmPort(const Fabric &fabric, const PKeyTables &tables)
{
    std::optional<Guid> found;
    for (const PortPKeyTable &t : tables.ports()) {
        const Port &port = fabric.port(t.port);
        if (fabric.node(port.node).type == NodeType::Switch && port.number != 0)
            continue;
        if (std::find(t.entries.begin(), t.entries.end(), std::uint16_t(kDefaultPKey | kPKeyFullMember)) == t.entries.end())
            continue;
        if (found)
            return std::nullopt;  // several: OpenSM's port cannot be told apart
        found = port.guid;
    }
    return found;
}

}  // namespace

QString smPortText(const Fabric &fabric, Guid portGuid)
{
    const PortIndex port = fabric.portByGuid(portGuid);
    if (port == kNoIndex)
        return guidText(portGuid);
    return QStringLiteral("%1 (port GUID %2, LID %3)").arg(portDisplayName(fabric, port), guidText(portGuid)).arg(fabric.port(port).lid);
}

namespace {

QString planSummaryOf(const ForwardingTables &tables, const std::vector<Partition> &partitions)
{
    QStringList names;
    for (const Partition &p : partitions)
        names << QStringLiteral("%1 (%2)").arg(p.name, p.pkey ? pkeyText(*p.pkey) : QStringLiteral("auto"));
    return QStringLiteral("%1 switch tables; partitions: %2").arg(tables.size()).arg(names.isEmpty() ? QStringLiteral("none") : names.join(QStringLiteral(", ")));
}

}  // namespace

QString commitOutcomeName(CommitOutcome outcome)
{
    switch (outcome) {
    case CommitOutcome::Committed: return QStringLiteral("committed");
    case CommitOutcome::Refused: return QStringLiteral("refused");
    case CommitOutcome::Stale: return QStringLiteral("stale");
    case CommitOutcome::RolledBack: return QStringLiteral("rolled-back");
    case CommitOutcome::RollbackFailed: return QStringLiteral("rollback-failed");
    }
    return {};
}

QString CommitReport::toText() const
{
    QString text;
    for (const QString &s : steps)
        text += QStringLiteral("  %1\n").arg(s);
    if (!stageTimes.empty())
        text += QStringLiteral("timing: %1\n").arg(timingText());
    text += QStringLiteral("outcome: %1\n").arg(commitOutcomeName(outcome));
    for (const QString &r : reasons)
        text += QStringLiteral("  - %1\n").arg(r);
    return text;
}

QString CommitReport::timingText() const
{
    if (stageTimes.empty())
        return {};
    QStringList parts;
    double total = 0;
    double own = 0;
    for (const CommitStageTime &t : stageTimes) {
        const char *kind = t.kind == CommitStageTime::Kind::Weft ? "Weft" : t.kind == CommitStageTime::Kind::Fabric ? "fabric" : "OpenSM";
        parts << QStringLiteral("%1 %2 s (%3)").arg(t.stage).arg(t.seconds, 0, 'f', 2).arg(QLatin1String(kind));
        total += t.seconds;
        own += t.kind == CommitStageTime::Kind::Weft ? t.seconds : 0;
    }
    return QStringLiteral("%1; Weft's own work %2 s of %3 s (%4 %)")
        .arg(parts.join(QStringLiteral(", ")))
        .arg(own, 0, 'f', 2)
        .arg(total, 0, 'f', 2)
        .arg(total > 0 ? 100.0 * own / total : 0.0, 0, 'f', 1);
}

QJsonObject CommitReport::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("outcome"), commitOutcomeName(outcome));
    o.insert(QStringLiteral("ok"), ok());
    o.insert(QStringLiteral("written"), written);
    o.insert(QStringLiteral("steps"), QJsonArray::fromStringList(steps));
    o.insert(QStringLiteral("reasons"), QJsonArray::fromStringList(reasons));
    o.insert(QStringLiteral("warnings"), QJsonArray::fromStringList(warnings));
    o.insert(QStringLiteral("violations"), QJsonArray::fromStringList(violations));
    o.insert(QStringLiteral("smps"), double(diff.smps()));
    o.insert(QStringLiteral("diff"), diffToJson(diff));
    QJsonArray stages;
    for (const CommitStageTime &t : stageTimes)
        stages.append(QJsonObject{{QStringLiteral("stage"), t.stage},
                                  {QStringLiteral("seconds"), t.seconds},
                                  {QStringLiteral("kind"), t.kind == CommitStageTime::Kind::Weft     ? QStringLiteral("weft")
                                                           : t.kind == CommitStageTime::Kind::Fabric ? QStringLiteral("fabric")
                                                                                                     : QStringLiteral("opensm")}});
    o.insert(QStringLiteral("stage_times"), stages);
    return o;
}

quint64 processStartTime(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (pid <= 0 || !stat.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray text = stat.readAll();
    // "pid (comm) state ppid ...": the name may hold spaces and parentheses; fields count from
    // after its last ')'. The start time is field 22, the 20th after the name.
    const qsizetype close = text.lastIndexOf(')');
    if (close < 0)
        return 0;
    const QList<QByteArray> fields = text.mid(close + 2).split(' ');
    return fields.size() > 19 ? fields[19].toULongLong() : 0;
}

Result<qint64> readPidFile(const QString &path)
{
    Result<QByteArray> data = TextReader::readFile(path, 4096);
    if (!data)
        return data.error();
    bool ok = false;
    const qint64 pid = QString::fromLatin1(data->trimmed()).toLongLong(&ok);
    if (!ok || pid <= 0)
        return Error{path, 1, QStringLiteral("not a process id: \"%1\"").arg(QString::fromLatin1(data->trimmed().left(40)))};
    return pid;
}

namespace {

// The planned partitions with the intent's policies: matched by P_Key, else by name.
std::vector<Partition> withIntentPolicies(std::vector<Partition> planned, const Tenancy &intent, QStringList *warnings)
{
    for (Partition &p : planned) {
        const Partition *wanted = p.pkey ? intent.findPartition(*p.pkey) : nullptr;
        for (const Partition &q : intent.partitions)
            if (!wanted && q.name == p.name)
                wanted = &q;
        if (wanted)
            p.policy = wanted->policy;
    }
    for (const Partition &q : intent.partitions) {
        if (q.policy == IsolationPolicy::Default)
            continue;
        const bool present = std::any_of(planned.begin(), planned.end(), [&q](const Partition &p) {
            return (q.pkey && p.pkey && (*q.pkey & kPKeyMask) == (*p.pkey & kPKeyMask)) || p.name == q.name;
        });
        if (!present && warnings)
            *warnings << QStringLiteral("partition %1 (%2) of the intent is not in the planned partitions.conf").arg(q.name, policyName(q.policy));
    }
    return planned;
}

// The planned partitions' SLs: the `sl=` their partitions.conf gives, overridden by the routing's.
std::map<std::uint16_t, int> plannedServiceLevels(const std::vector<Partition> &partitions, const std::map<std::uint16_t, int> &serviceLevels)
{
    std::map<std::uint16_t, int> levels = partitionServiceLevels(partitions);
    for (const auto &[pkey, sl] : serviceLevels)
        levels[std::uint16_t(pkey & kPKeyMask)] = sl;
    return levels;
}

// The lanes the plan's partitions travel on once committed: their service levels, each on the
// VL the commit has OpenSM map it to (planSlToVl; where that cannot be, VL = SL).
LaneAssignment plannedLanes(const std::vector<Partition> &partitions, const std::map<std::uint16_t, int> &serviceLevels)
{
    LaneAssignment lanes;
    lanes.serviceLevels = plannedServiceLevels(partitions, serviceLevels);
    if (const Result<SlToVl> table = planSlToVl(lanes.serviceLevels))
        lanes.slToVl.assign(table->begin(), table->end());
    return lanes;
}

}  // namespace

QStringList PlanCheck::refusal(bool acceptViolations) const
{
    if (!reasons.isEmpty() || violations.isEmpty())
        return reasons;
    if (mode == PolicyMode::Strict)
        return QStringList{QStringLiteral("strict policy mode: the plan violates isolation policies")} + violations;
    if (!acceptViolations)
        return QStringList{QStringLiteral("best-effort policy mode: the plan violates isolation policies; accept the "
                                          "violations to commit it anyway")} + violations;
    return {};
}

namespace {

QString whatIfRefusal(const QString &whatIf)
{
    return QStringLiteral("the plan was made for a what-if (%1) that has not happened on this fabric; it would be installed only "
                          "as a pre-emptive plan valid on the fabric as it is, and it is not")
        .arg(whatIf);
}

}  // namespace

QStringList coverageLost(const Fabric &fabric, const ForwardingTables &held, const ForwardingTables &planned)
{
    QStringList lines;
    const std::vector<Lid> lids = assignedLids(fabric);
    for (NodeIndex sw : fabric.switches()) {
        const Node &node = fabric.node(sw);
        const SwitchForwardingTable *before = held.find(node.guid);
        if (!before)
            continue;
        const SwitchForwardingTable *after = planned.find(node.guid);
        QStringList lost;
        int count = 0;
        for (Lid lid : lids)
            if (before->lft.hasRoute(lid) && (!after || !after->lft.hasRoute(lid)) && ++count <= 4)
                lost << QString::number(lid);
        if (count)
            lines << QStringLiteral("switch %1 (\"%2\") would lose its routes to %3 LIDs it reaches now (%4%5)")
                         .arg(guidText(node.guid), node.description.isEmpty() ? node.name : node.description)
                         .arg(count)
                         .arg(lost.join(QStringLiteral(", ")), count > 4 ? QStringLiteral(", ...") : QString());
    }
    return lines;
}

QStringList changedLines(const QByteArray &before, const QByteArray &after, int maxLines)
{
    const QList<QByteArray> a = before.split('\n');
    const QList<QByteArray> b = after.split('\n');
    qsizetype head = 0;
    while (head < a.size() && head < b.size() && a[head] == b[head])
        ++head;
    qsizetype tailA = a.size(), tailB = b.size();
    while (tailA > head && tailB > head && a[tailA - 1] == b[tailB - 1]) {
        --tailA;
        --tailB;
    }
    QStringList lines;
    if (head < tailA || head < tailB)
        lines << QStringLiteral("@@ line %1 @@").arg(head + 1);
    for (qsizetype i = head; i < tailA; ++i)
        lines << QLatin1Char('-') + QString::fromUtf8(a[i]);
    for (qsizetype i = head; i < tailB; ++i)
        lines << QLatin1Char('+') + QString::fromUtf8(b[i]);
    if (lines.size() > maxLines) {
        const qsizetype more = lines.size() - maxLines;
        lines = lines.mid(0, maxLines);
        lines << QStringLiteral("... and %1 more lines").arg(more);
    }
    return lines;
}

QString journalCopyPath(const QString &journalPath, const QString &digest)
{
    return journalPath + QStringLiteral(".files/") + digest;
}

QString journalTablesPath(const QString &journalPath, const QString &intentDigest)
{
    return journalCopyPath(journalPath, intentDigest) + QStringLiteral(".lfts");
}

QStringList partitionLimitProblems(const Fabric &fabric, const std::vector<Partition> &partitions, const HeldTables *held)
{
    QStringList problems;
    std::map<std::uint16_t, QString> byPKey;
    for (const Partition &p : partitions) {
        const bool isDefault = p.name.compare(QLatin1String("Default"), Qt::CaseInsensitive) == 0;
        // Without a P_Key, OpenSM takes the partition of that name if there is one (Default is).
        const bool named = isDefault || std::any_of(byPKey.begin(), byPKey.end(), [&](const auto &e) { return e.second == p.name; });
        if (!p.pkey && named)
            continue;
        if (!p.pkey || (*p.pkey & 0x7fff) == 0) {
            // (A partitions.conf reads 0x0000 as no P_Key, as OpenSM does.)
            problems << QStringLiteral("partition %1 has no P_Key (none given, or 0x0000, which is none): OpenSM would choose one "
                                       "for it itself, which no plan can foresee; give it one from 0x0001 to 0x7ffe")
                            .arg(p.name);
            continue;
        }
        const std::uint16_t pkey = *p.pkey & 0x7fff;
        if (pkey == 0x7fff && !isDefault)
            problems << QStringLiteral("partition %1 takes P_Key 0x7fff, the Default partition's: OpenSM would merge it into Default").arg(p.name);
        else if (const auto [it, added] = byPKey.emplace(pkey, p.name); !added && it->second != p.name)
            problems << QStringLiteral("partitions %1 and %2 both take P_Key %3: OpenSM would merge them into %1").arg(it->second, p.name, pkeyText(pkey));
    }
    if (!problems.isEmpty() || !held || !held->pkeys)
        return problems;
    // Each port's P_Keys against what the port can hold, as discovery read it. OpenSM places a
    // P_Key past the port's capacity in the first empty index, and drops one for which none is
    // left (PKeyTables.h): the count of P_Keys is what must fit. Laid out here without the held
    // tables, so that nothing is dropped from the count.
    PKeyTableOptions options;
    options.smPortGuid = held->smPort;
    const PKeyTables planned = computePKeyTables(fabric, plannedPartitions(partitions), options, nullptr);
    int over = 0;
    QString first;
    for (const PortPKeyTable &table : planned.ports()) {
        const PortPKeyTable *read = held->pkeys->find(table.port);
        if (!read || read->capacity <= 0)
            continue;
        const int needed = int(std::count_if(table.entries.begin(), table.entries.end(), [](std::uint16_t e) { return (e & 0x7fff) != 0; }));
        if (needed > read->capacity && over++ == 0)
            first = QStringLiteral("%1 would need %2 P_Key entries and holds %3 (%4)")
                        .arg(portDisplayName(fabric, table.port))
                        .arg(needed)
                        .arg(read->capacity)
                        .arg(table.packed ? QStringLiteral("PartitionEnforcementCap") : QStringLiteral("PartitionCap"));
    }
    if (over > 0)
        problems << QStringLiteral("more P_Keys than the ports hold: %1%2; OpenSM could not program them")
                        .arg(first, over > 1 ? QStringLiteral(", and %1 more ports").arg(over - 1) : QString());
    return problems;
}

PlanCheck checkPlan(const Fabric &fabric, const CommitPlan &plan)
{
    PlanCheck check;
    const Result<PartitionsConfResult> parsed = readPartitionsConf(plan.partitionsConf, plan.partitionsFileName);
    if (!parsed) {
        check.reasons << QStringLiteral("partitions.conf would be rejected by OpenSM (which then gives every port full "
                                        "membership of the default partition): %1").arg(parsed.error().toString());
        return check;
    }
    check.partitions = plan.intent ? withIntentPolicies(parsed->partitions, *plan.intent, &check.warnings) : parsed->partitions;
    check.mode = plan.intent ? plan.intent->mode : PolicyMode::BestEffort;
    check.reasons << partitionLimitProblems(fabric, check.partitions, plan.expectedHeld ? &*plan.expectedHeld : nullptr);
    if (!check.reasons.isEmpty())
        return check;

    for (const SwitchForwardingTable &s : plan.tables.switches()) {
        const NodeIndex node = fabric.nodeByGuid(s.guid);
        if (node == kNoIndex || fabric.node(node).type != NodeType::Switch) {
            check.reasons << QStringLiteral("the plan routes switch %1, which is not a switch of the fabric").arg(guidText(s.guid));
            continue;
        }
        const auto &entries = s.lft.entries();
        for (std::size_t lid = 0; lid < entries.size(); ++lid)
            if (entries[lid] != kNoRoute && entries[lid] > fabric.node(node).portCount) {
                check.reasons << QStringLiteral("switch %1: LID %2 leaves by port %3, but the switch has %4 ports")
                                     .arg(guidText(s.guid)).arg(lid).arg(entries[lid]).arg(fabric.node(node).portCount);
                break;
            }
    }
    if (!check.reasons.isEmpty())
        return check;
    check.warnings << lftCoverageWarnings(plan.tables, fabric);

    Tenancy tenancy;
    tenancy.partitions = check.partitions;
    const ValidationResult v = validateRouting(fabric, tenancy, plan.tables, plannedLanes(check.partitions, plan.serviceLevels));
    if (v.unreachablePartitionPairs > 0)
        check.reasons << QStringLiteral("%1 of %2 pairs that may talk are not routed to each other").arg(v.unreachablePartitionPairs).arg(v.partitionPairs);
    if (v.loops > 0)
        check.reasons << QStringLiteral("%1 forwarding loops").arg(v.loops);
    for (const QString &p : v.problems)
        check.reasons << p;
    if (!v.deadlockFree)
        check.reasons << QStringLiteral("credit loop (deadlock possible): %1").arg(v.creditLoop.join(QStringLiteral(" -> ")));
    for (const PartitionIsolationReport &p : v.partitions) {
        const QString partition = QStringLiteral("partition %1 (%2)").arg(p.name, policyName(p.policy));
        for (const QString &violation : p.violations)
            check.violations << QStringLiteral("%1: %2").arg(partition, violation);
        if (p.violationCount > std::size_t(p.violations.size()))
            check.violations << QStringLiteral("%1: ... and %2 more").arg(partition).arg(p.violationCount - p.violations.size());
    }
    if (!v.ok && check.reasons.isEmpty() && check.violations.isEmpty())
        check.reasons << QStringLiteral("the routing does not validate");
    if (!plan.whatIf.isEmpty()) {
        // Made for events that have not happened: it goes in only as a pre-emptive plan, so every
        // pair of ports must reach each other on the fabric as it is, management included (what
        // the switches' own entries must keep is checked against what they hold: coverageLost).
        QStringList incomplete;
        if (v.unreachableOtherPairs > 0)
            incomplete << QStringLiteral("%1 pairs of ports that share no partition are not routed to each other").arg(v.unreachableOtherPairs);
        incomplete << v.managementProblems;
        if (!incomplete.isEmpty() || !check.reasons.isEmpty())
            check.reasons.prepend(whatIfRefusal(plan.whatIf));
        check.reasons << incomplete;
    }
    return check;
}

QStringList checkPlan(const Fabric &fabric, const ForwardingTables &tables, const QByteArray &partitionsConf,
                      const QString &partitionsFileName, std::vector<Partition> *partitionsOut, QStringList *warnings)
{
    CommitPlan plan;
    plan.tables = tables;
    plan.partitionsConf = partitionsConf;
    plan.partitionsFileName = partitionsFileName;
    PlanCheck check = checkPlan(fabric, plan);
    if (partitionsOut)
        *partitionsOut = std::move(check.partitions);
    if (warnings)
        *warnings << check.warnings;
    return check.reasons + check.violations;
}

QStringList compareReadBack(const Fabric &fabric, const ForwardingTables &expectedTables,
                            const ForwardingTables &readTables, const PKeyTables &expectedPKeys,
                            const PKeyTables &readPKeys, int maxReported)
{
    QStringList mismatches;
    std::size_t total = 0;
    auto report = [&](const QString &line) {
        if (int(mismatches.size()) < maxReported)
            mismatches << line;
        ++total;
    };
    const std::vector<Lid> lids = assignedLids(fabric);
    for (NodeIndex sw : fabric.switches()) {
        const Node &node = fabric.node(sw);
        const QString name = node.description.isEmpty() ? node.name : node.description;
        const SwitchForwardingTable *read = readTables.find(node.guid);
        if (!read) {
            report(QStringLiteral("switch %1 (%2): its LFT was not read").arg(name, guidText(node.guid)));
            continue;
        }
        const SwitchForwardingTable *expected = expectedTables.find(node.guid);
        int wrong = 0;
        QStringList examples;
        for (Lid lid : lids) {
            const std::uint8_t want = expected ? expected->lft.port(lid) : kNoRoute;
            const std::uint8_t got = read->lft.port(lid);
            if (want == got)
                continue;
            if (++wrong <= 3)
                examples << QStringLiteral("LID %1 port %2, expected %3").arg(lid).arg(got).arg(want);
        }
        if (wrong)
            report(QStringLiteral("switch %1: %2 (%3)").arg(name, wrong == 1 ? QStringLiteral("1 LFT entry differs") : QStringLiteral("%1 LFT entries differ").arg(wrong)).arg(examples.join(QStringLiteral("; "))));
    }
    for (const PortPKeyTable &want : expectedPKeys.ports()) {
        const PortPKeyTable *got = readPKeys.find(want.port);
        if (!got) {
            report(QStringLiteral("%1: its P_Key table was not read").arg(portDisplayName(fabric, want.port)));
            continue;
        }
        // A packed switch port is only written in the blocks its table fills.
        const std::size_t length = want.packed ? want.entries.size() : std::max(want.entries.size(), got->entries.size());
        for (std::size_t i = 0; i < length; ++i) {
            const std::uint16_t a = i < want.entries.size() ? want.entries[i] : 0;
            const std::uint16_t b = i < got->entries.size() ? got->entries[i] : 0;
            if (a != b) {
                report(QStringLiteral("%1: P_Key index %2 is %3, expected %4").arg(portDisplayName(fabric, want.port)).arg(i).arg(pkeyText(b), pkeyText(a)));
                break;
            }
        }
    }
    if (total > std::size_t(mismatches.size()))
        mismatches << QStringLiteral("... and %1 more").arg(total - mismatches.size());
    return mismatches;
}

namespace {

CommitBackend withDefaults(CommitBackend backend)
{
    if (!backend.isRunning)
        backend.isRunning = processRunning;
    if (!backend.reload)
        backend.reload = sendHangup;
    return backend;
}

// One commit, or one recovery, on one target: its locks, the journal's unfinished commit, the
// plan checked against the fabric as discovered and read, and then the stages in order: the
// files staged and switched in (CommitStaging.h), OpenSM's reload (OpenSmSignal.h), the
// read-back (CommitVerification.h) and on a failure the rollback (CommitRollback.h). The report
// and the journal are kept here.
class CommitRun
{
public:
    CommitRun(const CommitPlan &plan, const CommitTarget &target, const CommitBackend &backend, const CommitOptions &options)
        : m_plan(plan), m_target(target), m_backend(withDefaults(backend)), m_options(options), m_steps(m_report, options.progress),
          m_staging(target), m_openSm(target, m_backend, m_steps)
    {
        m_id = QStringLiteral("%1-%2").arg(QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMddTHHmmss.zzz"))).arg(::getpid());
    }

    CommitReport run()
    {
        execute();
        journal();
        if (m_discovered)
            m_report.fabric = std::make_shared<const Fabric>(std::move(m_fabric));
        return m_report;
    }

    CommitReport recover()
    {
        if (executeRecovery())
            journal();
        if (m_discovered)
            m_report.fabric = std::make_shared<const Fabric>(std::move(m_fabric));
        return m_report;
    }

private:
    void step(const QString &text) { m_steps.step(text); }

    void refuse(CommitOutcome outcome, const QStringList &reasons)
    {
        m_report.outcome = outcome;
        m_report.reasons << reasons;
    }

    bool refused(const Error &error)
    {
        refuse(CommitOutcome::Refused, {error.toString()});
        return false;
    }

    CommitVerification verification() { return CommitVerification(m_backend, m_fabric, m_steps); }

    void execute()
    {
        // One commit at a time on the target, for the whole commit (journal included).
        if (!acquireLocks())
            return;
        // A commit that was interrupted leaves the fabric in a state nobody verified: that comes first.
        if (const std::optional<CommitJournalEntry> unfinished = findUnfinished(); unfinished || !m_report.reasons.isEmpty()) {
            if (unfinished)
                refuse(CommitOutcome::Refused, {unfinishedText(*unfinished) + QStringLiteral("; run `weft commit --recover` (or open the desk) "
                                                                                             "to verify the fabric against it or roll it back to the backups")});
            return;
        }
        m_steps.startClock();
        if (discoverAndCheckPlan() && readHeldAndCount() && writeFiles()) {
            verifyPlan();
            keepPKeyIndices();
        }
    }

    // OpenSM's memory of the P_Key indices it gave (PKeyIndexMemory.h): what the last commit to
    // this OpenSM process left, under the tables just read, so that the plan puts a returning
    // P_Key where OpenSM will.
    void rememberedPKeyIndices()
    {
        if (m_target.partitionsPath.isEmpty())
            return;
        Result<PKeyTables> remembered = withRememberedIndices(m_fabric, m_beforePKeys, pkeyIndexMemoryPath(m_target.partitionsPath), m_openSm.pid());
        if (remembered)
            m_beforePKeys = std::move(*remembered);
        else
            m_report.steps << QStringLiteral("warning: %1; taking the P_Key tables as read for all OpenSM remembers").arg(remembered.error().toString());
    }

    // And what it remembers after this commit's sweeps, for the next commit (and in the tables
    // held, for a session that plans on them).
    void keepPKeyIndices()
    {
        if (m_target.partitionsPath.isEmpty() || !m_report.held.pkeys)
            return;
        auto after = std::make_shared<const PKeyTables>(rememberedAfter(m_expectedPKeys, *m_report.held.pkeys));
        m_report.held.pkeys = after;
        if (const Status kept = keepRememberedIndices(m_fabric, *after, pkeyIndexMemoryPath(m_target.partitionsPath), m_openSm.pid()); !kept)
            m_report.steps << QStringLiteral("warning: %1").arg(kept.error().toString());
    }

    // 1. Before anything is read: the fabric discovered, the plan checked on it, OpenSM running.
    bool discoverAndCheckPlan()
    {
        step(QStringLiteral("discovering the fabric"));
        Result<Fabric> live = m_backend.discover();
        if (!live) {
            refuse(CommitOutcome::Refused, {QStringLiteral("discovery failed: %1").arg(live.error().toString())});
            return false;
        }
        m_steps.lap(QStringLiteral("discovery"), CommitStageTime::Kind::Fabric);
        m_fabric = std::move(*live);
        m_discovered = true;
        step(QStringLiteral("discovered %1 nodes, %2 switches, %3 links").arg(m_fabric.nodes().size()).arg(m_fabric.switches().size()).arg(m_fabric.links().size()));
        if (m_plan.madeFor) {
            const FabricChanges changes = compareFabrics(*m_plan.madeFor, m_fabric);
            if (!changes.empty()) {
                refuse(CommitOutcome::Stale, {QStringLiteral("the fabric changed since the plan was made; make a new plan"), changes.toText()});
                return false;
            }
            step(QStringLiteral("the fabric is the one the plan was made for"));
        }
        PlanCheck check = checkPlan(m_fabric, m_plan);
        m_partitions = std::move(check.partitions);
        m_report.warnings << check.warnings;
        m_report.violations = check.violations;
        // The report and the journal keep them all; the progress summarises each kind that
        // repeats (a plan can warn once per switch) in one line.
        for (const QString &line : summarizeWarnings(m_report.warnings, 3, QStringLiteral(" (all in the commit's report and journal)")))
            step(QStringLiteral("warning: %1").arg(line));
        const QStringList unsafe = check.refusal(m_options.acceptViolations);
        if (!unsafe.isEmpty()) {
            // A plan naming switches the fabric no longer has is stale rather than wrong.
            const bool stale = !m_plan.madeFor && std::any_of(unsafe.begin(), unsafe.end(), [](const QString &r) {
                return r.contains(QLatin1String("not a switch of the fabric"));
            });
            refuse(stale ? CommitOutcome::Stale : CommitOutcome::Refused, unsafe);
            return false;
        }
        m_partitions = plannedPartitions(std::move(m_partitions));
        if (check.violations.isEmpty())
            step(QStringLiteral("plan validated: reachability, loops, deadlock freedom, isolation, partitions.conf"));
        else
            step(QStringLiteral("plan validated: reachability, loops, deadlock freedom, partitions.conf; %1 isolation "
                                "violations accepted (best-effort)")
                     .arg(check.violations.size()));
        if (!planServiceLevels())
            return false;
        // What it is (its origin, when given) and what it holds.
        m_summary = m_plan.summary.isEmpty() ? planSummaryOf(m_plan.tables, m_partitions)
                                             : QStringLiteral("%1; %2").arg(m_plan.summary, planSummaryOf(m_plan.tables, m_partitions));

        Result<qint64> pid = readPidFile(m_target.pidFile);
        if (!pid) {
            refuse(CommitOutcome::Refused, {QStringLiteral("OpenSM's pid file: %1").arg(pid.error().toString())});
            return false;
        }
        m_openSm.adopt(*pid);
        if (!m_backend.isRunning(m_openSm.pid())) {
            refuse(CommitOutcome::Refused, {QStringLiteral("OpenSM (pid %1 from %2) is not running").arg(m_openSm.pid()).arg(m_target.pidFile)});
            return false;
        }
        m_steps.lap(QStringLiteral("plan check"), CommitStageTime::Kind::Weft);
        return true;
    }

    // What the fabric holds now, that the plan must still be made against, and the count of
    // what the plan sends on top of it.
    bool readHeldAndCount()
    {
        step(QStringLiteral("reading the tables the fabric holds now"));
        Result<TablesRead> before = verification().readHeld();
        if (!before) {
            refuse(CommitOutcome::Refused, {QStringLiteral("cannot read the current tables: %1").arg(before.error().toString())});
            return false;
        }
        m_beforeTables = std::move(before->lfts);
        m_beforePKeys = std::move(before->pkeys);

        const std::optional<Guid> sm = smPort();
        if (!sm)
            return false;
        m_smPort = *sm;
        rememberedPKeyIndices();
        keepHeld(m_beforeTables, m_beforePKeys);
        m_steps.lap(QStringLiteral("table read-back"), CommitStageTime::Kind::Fabric);
        if (!stillHeldAsPlanned())
            return false;
        if (!m_plan.whatIf.isEmpty()) {
            // A pre-emptive plan keeps every route the switches have now, theirs included.
            if (const QStringList lost = coverageLost(m_fabric, m_beforeTables, m_plan.tables); !lost.isEmpty()) {
                refuse(CommitOutcome::Refused, QStringList{whatIfRefusal(m_plan.whatIf)} + summarizeWarnings(lost, 3, QString()));
                return false;
            }
            step(QStringLiteral("a pre-emptive plan for a what-if (%1): valid on the fabric as it is, every pair of ports and every "
                                "route the switches have now kept")
                     .arg(m_plan.whatIf));
        }
        // The same count the review made of this plan (CommitPlanning.h), on what was just read.
        const HeldTables held{m_report.held.lfts, m_report.held.pkeys, m_smPort};
        ReconfigurationPlan planned = planCommitChange(m_fabric, held, partitionsOnTarget(m_target), m_plan);
        m_report.diff = std::move(planned.diff);
        m_expectedPKeys = std::move(planned.plannedPKeys);
        m_plannedConf = std::move(planned.plannedPartitionsConf);
        step(QStringLiteral("diff: %1 LFT blocks on %2 switches, %3 P_Key blocks: %4 SMPs")
                 .arg(m_report.diff.changedBlocks).arg(m_report.diff.switchesTouched()).arg(m_report.diff.pkeyBlocks.size()).arg(m_report.diff.smps()));
        m_steps.lap(QStringLiteral("diff"), CommitStageTime::Kind::Weft);
        return true;
    }

    // 2. Every SM's files kept, staged, and switched in with the journal's intent before them.
    bool writeFiles()
    {
        if (const Status kept = m_staging.keepMasterFiles(); !kept)
            return refused(kept.error());
        if (!keepOptionsFile())
            return false;
        if (const Status kept = m_staging.keepStandbyFiles(m_qos.on); !kept)
            return refused(kept.error());
        m_standbyOutcomes = QStringList(qsizetype(m_target.standbys.size()), QStringLiteral("not written"));
        if (const Status digested = m_staging.digestReplaced(); !digested)
            return refused(digested.error());
        if (!noEditsSinceWeftWrote())
            return false;
        // Every file of every SM written whole beside its place first: one that cannot be written
        // (a full disk, a directory not writable) stops the commit before any SM has changed.
        Result<std::vector<StagedFile>> staged = m_staging.stage({m_plan.tables, m_fabric, m_plan.intentFile, m_plannedConf, m_qos.slToVl});
        if (!staged)
            return refused(staged.error());
        if (!m_target.standbys.empty())
            step(QStringLiteral("staged the plan's files for %1 subnet managers (nothing replaced yet)").arg(m_target.standbys.size() + 1));
        if (!keepPlanTables())
            return false;
        // The intent, on disk before the first file is switched in: a Weft killed from here on
        // leaves an unfinished commit that the next one finds.
        if (const Status intent = journalProgress(QLatin1String(kJournalInProgress)); !intent) {
            refuse(CommitOutcome::Refused, {QStringLiteral("cannot record the commit's intent: %1").arg(intent.error().toString())});
            return false;
        }
        const Status installed = m_staging.install(*staged);
        m_report.written = m_staging.anyWritten();
        if (!installed) {
            fail({QStringLiteral("writing failed: %1").arg(installed.error().toString())});
            return false;
        }
        step((m_target.name.isEmpty() ? QString() : subnetManagerName(m_target, -1) + QStringLiteral(": "))
             + QStringLiteral("wrote %1 and %2 (previous versions kept as .bak)").arg(m_target.routingFile(), m_target.partitionsPath));
        if (m_qos.on)
            step(QStringLiteral("wrote %1: qos TRUE, qos_sl2vl %2 (previous version kept as .bak)").arg(m_target.optionsPath, slToVlText(m_qos.slToVl)));
        if (!verifyStandbyFiles())
            return false;
        if (const Status written = journalProgress(QLatin1String(kJournalWritten)); !written)
            step(QStringLiteral("warning: %1").arg(written.error().toString()));
        if (!m_options.journalPath.isEmpty())
            for (const QString &problem : keepJournalCopies(m_staging, m_target, m_options.journalPath, m_plan.intentFile, m_plannedConf))
                step(QStringLiteral("warning: %1").arg(problem));
        commitTestStop("after-write");
        m_steps.lap(QStringLiteral("writing"), CommitStageTime::Kind::Weft);
        return true;
    }

    // A plugin-mode plan whose intent does not determine its tables: the tables beside the
    // journal, under the intent's digest, before anything is switched in, so that a recovery
    // verifies against them. Refused when they cannot be kept (no journal, no recovery to verify).
    bool keepPlanTables()
    {
        if (!m_target.pluginMode() || !m_plan.keepTablesWithJournal || m_options.journalPath.isEmpty())
            return true;
        const QString path = journalTablesPath(m_options.journalPath, sha256Hex(m_plan.intentFile));
        QDir().mkpath(QFileInfo(path).absolutePath());
        if (const Status kept = writeLftDumpFile(path, m_plan.tables, &m_fabric, LftDumpForm::Compact); !kept) {
            refuse(CommitOutcome::Refused, {QStringLiteral("cannot keep the plan's tables beside the journal, which a recovery of this "
                                                           "intent verifies against: %1")
                                                .arg(kept.error().toString())});
            return false;
        }
        step(QStringLiteral("kept the plan's tables beside the journal (%1): the intent applies a method to the tables held").arg(path));
        return true;
    }

    // 3 and 4. Reload and verify; 5. on a failure, roll back.
    void verifyPlan()
    {
        QStringList problems = reloadAndVerify(m_plan.tables, m_expectedPKeys, QStringLiteral("plan"), true);
        if (problems.isEmpty()) {
            m_report.outcome = CommitOutcome::Committed;
            step(QStringLiteral("verified: every switch's LFT and every port's P_Key table match the plan"));
            problems = verification().verifyServiceLevels(m_qos, m_partitions);
            if (problems.isEmpty())
                return;
        }
        fail(problems);
    }

    QStringList reloadAndVerify(const ForwardingTables &tables, const PKeyTables &pkeys, const QString &what, bool timed)
    {
        CommitVerification::ReadBack back = verification().reloadAndVerify(m_openSm, tables, pkeys, what, m_options.timeoutMs, timed);
        if (back.held)
            keepHeld(std::move(back.held->lfts), std::move(back.held->pkeys));
        return back.mismatches;
    }

    void fail(const QStringList &problems)
    {
        m_report.reasons << problems;
        const CommitRollback::Input input{m_beforeTables, m_beforePKeys, m_recovering ? m_recoveredTables : m_plan.tables,
                                          m_expectedPKeys, m_qos, m_options.timeoutMs};
        CommitRollback::Outcome back = CommitRollback(m_target, m_backend, m_fabric, m_openSm, m_steps).run(m_staging, input);
        m_report.outcome = back.outcome;
        m_report.reasons << back.reasons;
        if (back.held)
            keepHeld(std::move(back.held->lfts), std::move(back.held->pkeys));
        if (back.standbysRestored)
            for (QString &o : m_standbyOutcomes)
                if (o != QLatin1String("not written"))
                    o = QStringLiteral("restored");
    }

    // What the fabric was last read to hold, for the report (and the session that adopts it).
    void keepHeld(ForwardingTables lfts, PKeyTables pkeys)
    {
        m_report.held.lfts = std::make_shared<const ForwardingTables>(std::move(lfts));
        m_report.held.pkeys = std::make_shared<const PKeyTables>(std::move(pkeys));
        m_report.held.smPort = m_smPort;
    }

    // A plan made against what the fabric held (CommitPlan::expectedHeld) is installed only over
    // that: otherwise what the review counted is not what would be sent. False (refused as stale)
    // when the switches, the ports or OpenSM's port are not as the plan expects.
    bool stillHeldAsPlanned()
    {
        if (!m_plan.expectedHeld)
            return true;
        const HeldTables &expected = *m_plan.expectedHeld;
        QStringList differences;
        if (expected.smPort && expected.smPort != m_smPort)
            differences << QStringLiteral("OpenSM runs on %1, the plan was made with it on %2").arg(smPortText(m_fabric, m_smPort), smPortText(m_fabric, expected.smPort));
        static const PKeyTables noPKeys;
        if (expected.lfts)
            differences << compareReadBack(m_fabric, *expected.lfts, m_beforeTables, noPKeys, noPKeys);
        if (expected.pkeys)
            differences << compareReadBack(m_fabric, m_beforeTables, m_beforeTables, *expected.pkeys, m_beforePKeys);
        if (differences.isEmpty()) {
            step(QStringLiteral("the fabric holds what the plan was made against"));
            return true;
        }
        differences.prepend(QStringLiteral("the fabric no longer holds what the plan was made against (another commit, or OpenSM "
                                           "changed the tables): nothing was written; review the plan against what it holds now"));
        refuse(CommitOutcome::Stale, differences);
        return false;
    }

    // The port OpenSM runs on (SELF in partitions.conf): as given, else asked of the fabric,
    // else the one port the P_Key tables single out. Refuses when none of them tells.
    std::optional<Guid> smPort()
    {
        if (m_options.smPortGuid)
            return m_options.smPortGuid;
        QString asked;
        if (m_backend.findSmPort) {
            const Result<Guid> found = m_backend.findSmPort(m_fabric);
            if (found) {
                step(QStringLiteral("OpenSM runs on %1 (the master SM's port, from MasterSMLID)").arg(smPortText(m_fabric, *found)));
                return *found;
            }
            asked = found.error().toString();
        }
        if (const std::optional<Guid> inferred = inferSmPort(m_fabric, m_beforePKeys)) {
            step(QStringLiteral("OpenSM runs on %1 (the one port with SELF=full in the P_Key tables)").arg(smPortText(m_fabric, *inferred)));
            return inferred;
        }
        QString reason = QStringLiteral("cannot tell which port OpenSM runs on from the P_Key tables; give its port GUID");
        if (!asked.isEmpty())
            reason += QStringLiteral(" (asking the fabric: %1)").arg(asked);
        refuse(CommitOutcome::Refused, {reason});
        return std::nullopt;
    }

    // The planned partitions' SLs (the plan's and `sl=` already in its partitions.conf). With
    // any SL other than 0, QoS is part of the commit: the SL2VL table to write, and what it
    // needs. False (refused) when that cannot be done.
    bool planServiceLevels()
    {
        m_qos.levels = plannedServiceLevels(m_partitions, m_plan.serviceLevels);
        m_qos.on = std::any_of(m_qos.levels.begin(), m_qos.levels.end(), [](const auto &l) { return l.second != 0; });
        if (!m_qos.on)
            return true;
        QStringList missing;
        if (m_target.optionsPath.isEmpty())
            missing << QStringLiteral("the plan gives partitions their own service levels: OpenSM's options file (its -F) is "
                                      "needed, where Weft turns QoS on and maps each SL to its own VL");
        if (!m_backend.readSlToVl || !m_backend.pathServiceLevel)
            missing << QStringLiteral("the fabric access cannot read SL2VL tables or PathRecords");
        const Result<SlToVl> table = planSlToVl(m_qos.levels);
        if (!table)
            missing << table.error().message;
        if (!missing.isEmpty()) {
            refuse(CommitOutcome::Refused, missing);
            return false;
        }
        m_qos.slToVl = *table;
        QStringList text;
        for (const auto &[pkey, sl] : m_qos.levels)
            text << QStringLiteral("%1 SL %2 -> VL %3").arg(pkeyText(pkey)).arg(sl).arg(m_qos.slToVl[std::size_t(sl)]);
        step(QStringLiteral("service levels: %1").arg(text.join(QStringLiteral(", "))));
        return true;
    }

    // With service levels: OpenSM's options file and the ports' SL2VL tables as they are, before
    // anything is written.
    bool keepOptionsFile()
    {
        if (!m_qos.on)
            return true;
        Result<CommitFile> options = snapshotFile(m_target.optionsPath);
        if (!options)
            return refused(options.error());
        static const QRegularExpression qosOn(QStringLiteral("^\\s*qos\\s+TRUE\\b"), QRegularExpression::MultilineOption);
        m_qos.previouslyOn = QString::fromUtf8(options->content).contains(qosOn);
        Result<std::vector<PortSlToVl>> before = m_backend.readSlToVl(m_fabric);
        if (!before) {
            refuse(CommitOutcome::Refused, {QStringLiteral("cannot read the SL2VL tables: %1").arg(before.error().toString())});
            return false;
        }
        m_qos.before = std::move(*before);
        m_staging.keepOptionsFile(std::move(*options));
        return true;
    }

    // Each standby holds the plan in its files (it routes by them when it becomes master): each
    // read back and its SHA-256 compared with what was written. False: the commit failed.
    bool verifyStandbyFiles()
    {
        for (std::size_t k = 0; k < m_target.standbys.size(); ++k) {
            QStringList written;
            const QStringList problems = m_staging.standbyFilesDiffer(int(k), &written);
            if (!problems.isEmpty()) {
                m_standbyOutcomes[qsizetype(k)] = QStringLiteral("files differ");
                fail(QStringList{QStringLiteral("%1's files do not hold the plan:").arg(subnetManagerName(m_target, int(k)))} + problems);
                return false;
            }
            m_standbyOutcomes[qsizetype(k)] = QStringLiteral("files verified");
            step(QStringLiteral("%1: wrote %2; read back, each holds the plan (SHA-256)").arg(subnetManagerName(m_target, int(k)), written.join(QStringLiteral(", "))));
        }
        return true;
    }

    // The subnet's lock and each SM's (commitLockPaths), all or none. False: refused.
    bool acquireLocks()
    {
        const QStringList paths = commitLockPaths(m_target);
        for (const QString &path : paths) {
            Result<std::unique_ptr<CommitLock>> lock = CommitLock::acquire(path, m_options.lockWaitMs);
            if (!lock) {
                m_locks.clear();
                // A standby's lock that cannot even be made: its directory cannot be written.
                const qsizetype standby = std::find_if(m_target.standbys.begin(), m_target.standbys.end(),
                                                       [&](const CommitTarget::Standby &s) {
                                                           return lockBeside(s.routingFile()) == path;
                                                       })
                    - m_target.standbys.begin();
                if (standby < qsizetype(m_target.standbys.size()) && !QFileInfo(QFileInfo(path).absolutePath()).isWritable())
                    refuse(CommitOutcome::Refused, {QStringLiteral("%1's files cannot be written, so no SM was changed: %2").arg(subnetManagerName(m_target, int(standby)), lock.error().toString())});
                else
                    refuse(CommitOutcome::Refused, {lock.error().toString()});
                return false;
            }
            if (!(*lock)->staleHolder().isEmpty())
                step(QStringLiteral("took over the commit lock %1 from %2, which died holding it").arg((*lock)->path(), (*lock)->staleHolder()));
            m_locks.push_back(std::move(*lock));
        }
        return true;
    }

    // The routing files of every SM of the target: a commit that wrote any of them is this one's.
    QStringList routingFiles() const
    {
        QStringList files{m_target.routingFile()};
        for (const CommitTarget::Standby &s : m_target.standbys)
            files << s.routingFile();
        return files;
    }

    // The journal's unfinished commit on this target, if any. A journal that cannot be read
    // refuses the commit too (its reason in the report): what it holds cannot be known.
    std::optional<CommitJournalEntry> findUnfinished()
    {
        if (m_options.journalPath.isEmpty())
            return std::nullopt;
        const Result<std::vector<CommitJournalEntry>> entries = readJournal(m_options.journalPath);
        if (!entries) {
            refuse(CommitOutcome::Refused, {QStringLiteral("the commit journal cannot be read, so an unfinished commit cannot be ruled out: %1")
                                                .arg(entries.error().toString())});
            return std::nullopt;
        }
        m_journal = *entries;  // for noEditsSinceWeftWrote, later in the same commit
        return unfinishedCommit(m_journal, m_target.routingFile(), m_target.subnet, routingFiles());
    }

    static QString unfinishedText(const CommitJournalEntry &e)
    {
        return QStringLiteral("an unfinished commit is in the journal: started %1 by %2 (%3; commit %4), %5")
            .arg(e.time.toString(Qt::ISODate), e.user, e.planSummary, e.id,
                 e.outcome == QLatin1String(kJournalWritten) ? QStringLiteral("its files were written and never verified")
                                                             : QStringLiteral("it stopped while writing its files"));
    }

    CommitJournalEntry journalEntry(const QString &outcome) const
    {
        CommitJournalEntry e;
        e.id = m_recovering ? m_recovering->id : m_id;
        e.time = QDateTime::currentDateTimeUtc();
        e.user = m_options.user.isEmpty() ? currentUserName() : m_options.user;
        if (m_recovering)
            e.planSummary = m_recovering->planSummary;
        else if (!m_summary.isEmpty())
            e.planSummary = m_summary;
        else
            e.planSummary = m_plan.summary.isEmpty() ? planSummaryOf(m_plan.tables, m_partitions) : m_plan.summary;
        e.smps = m_recovering ? m_recovering->smps : m_report.diff.smps();
        e.outcome = outcome;
        e.lftsPath = m_target.routingFile();
        e.partitionsPath = m_target.partitionsPath;
        e.subnet = m_target.subnet;
        if (!m_target.standbys.empty() && !m_recovering)
            e.sms = smRecords(outcome);
        else if (m_recovering)
            e.sms = m_recovering->sms;
        if (m_recovering) {
            e.files = m_recovering->files;
            e.backups = m_recovering->backups;
            e.replacedDigests = m_recovering->replacedDigests;
            e.writtenDigests = m_recovering->writtenDigests;
        } else {
            for (const CommitFile &f : m_staging.files()) {
                e.files << f.path;
                e.backups << (f.existed ? backupPath(f.path) : QString());
            }
            e.replacedDigests = m_staging.replacedDigests();
            e.writtenDigests = m_staging.writtenDigests();
        }
        return e;
    }

    // Each SM's part of the commit for the journal: its role, its files and how it ended.
    QJsonArray smRecords(const QString &outcome) const
    {
        QJsonArray sms;
        auto record = [&](const QString &name, const QString &role, int sm, const QString &smOutcome) {
            QStringList files;
            for (const CommitFile &f : m_staging.files())
                if (f.sm == sm)
                    files << f.path;
            sms.append(QJsonObject{{QStringLiteral("name"), name},
                                   {QStringLiteral("role"), role},
                                   {QStringLiteral("files"), QJsonArray::fromStringList(files)},
                                   {QStringLiteral("outcome"), smOutcome}});
        };
        record(m_target.name.isEmpty() ? QStringLiteral("master") : m_target.name, QStringLiteral("master"), -1, outcome);
        for (std::size_t k = 0; k < m_target.standbys.size(); ++k)
            record(m_target.standbys[k].name, QStringLiteral("standby"), int(k), m_standbyOutcomes.value(qsizetype(k), QStringLiteral("not written")));
        return sms;
    }

    Status journalProgress(const QString &phase)
    {
        if (m_options.journalPath.isEmpty())
            return Done{};
        CommitJournalEntry e = journalEntry(phase);
        e.details = {phase == QLatin1String(kJournalInProgress) ? QStringLiteral("writing the files; the previous ones are kept as the backups")
                                                                : QStringLiteral("files written; reloading and verifying")};
        return appendJournalEntry(m_options.journalPath, e);
    }

    // The files an operator edits by hand (partitions.conf; the intent in plugin mode) must be
    // what Weft last left there, or the commit would silently undo someone's change: refused,
    // with the change, unless --force.
    bool noEditsSinceWeftWrote()
    {
        if (m_options.journalPath.isEmpty())
            return true;
        // The journal as findUnfinished read it at the start of this commit (under its lock).
        const QStringList edits = editsSinceWeftWrote(m_journal, m_target, m_staging, m_options.journalPath);
        if (edits.isEmpty())
            return true;
        if (m_options.overwriteEdits) {
            for (const QString &line : edits)
                step(QStringLiteral("warning: %1").arg(line));
            step(QStringLiteral("replacing it anyway, as asked (--force); it is kept as the backup"));
            m_report.warnings << edits;
            return true;
        }
        refuse(CommitOutcome::Refused, QStringList{QStringLiteral("someone edited a file this commit would replace; fold the change "
                                                                  "into the plan, or commit with --force to replace it")}
                   + edits);
        return false;
    }

    // Recovery trusts nothing on disk it cannot tell is the interrupted commit's: anything
    // changed since is refused, naming the file, unless told to go on (--force). A journal
    // without digests (an older Weft's) is taken as it is, and the report says so.
    bool filesAsJournalled(const CommitJournalEntry &e)
    {
        const InterruptedFilesCheck check = changedSinceInterrupted(e);
        if (!check.digestsKnown) {
            step(QStringLiteral("the journal has no digests of the files (an older Weft wrote it): they are taken as they are"));
            return true;
        }
        if (check.changed.isEmpty()) {
            step(QStringLiteral("the files and their backups are the ones the interrupted commit wrote and kept (SHA-256)"));
            return true;
        }
        if (m_options.recoverChangedFiles) {
            for (const QString &c : check.changed)
                step(QStringLiteral("warning: %1; recovering anyway, as asked").arg(c));
            m_report.warnings << check.changed;
            return true;
        }
        refuse(CommitOutcome::Refused, QStringList{QStringLiteral("someone changed the commit's files since it was interrupted; look at them, "
                                                                  "then recover with --force to go on regardless")}
                   + check.changed);
        return false;
    }

    // `weft commit --recover`: the journal's unfinished commit on the target brought to a
    // verified state. With its files all written, OpenSM reloads them and the fabric is read back
    // against them; if it does not hold them (or they were not all written), the backups go back,
    // OpenSM reloads, and the fabric is read back against them. False: nothing was done (nothing
    // to recover, or it cannot be done now; the report says why), and nothing is journalled.
    bool executeRecovery()
    {
        if (!acquireLocks())
            return false;
        const std::optional<CommitJournalEntry> unfinished = findUnfinished();
        if (!unfinished) {
            if (m_report.reasons.isEmpty()) {
                m_report.outcome = CommitOutcome::Committed;
                step(QStringLiteral("no unfinished commit on %1 in %2: nothing to recover").arg(m_target.routingFile(), m_options.journalPath));
            }
            return false;
        }
        m_recovering = unfinished;
        step(unfinishedText(*unfinished));
        if (unfinished->files.size() != unfinished->backups.size() || unfinished->files.isEmpty()) {
            refuse(CommitOutcome::Refused, {QStringLiteral("the journal does not say which files the commit wrote")});
            return false;
        }
        if (!filesAsJournalled(*unfinished))
            return false;
        step(QStringLiteral("discovering the fabric"));
        Result<Fabric> live = m_backend.discover();
        if (!live) {
            refuse(CommitOutcome::Refused, {QStringLiteral("discovery failed: %1").arg(live.error().toString())});
            return false;
        }
        m_fabric = std::move(*live);
        m_discovered = true;
        Result<qint64> pid = readPidFile(m_target.pidFile);
        if (!pid || !m_backend.isRunning(*pid)) {
            refuse(CommitOutcome::Refused, {pid ? QStringLiteral("OpenSM (pid %1 from %2) is not running: start it, then recover").arg(*pid).arg(m_target.pidFile)
                                                : QStringLiteral("OpenSM's pid file: %1").arg(pid.error().toString())});
            return false;
        }
        m_openSm.adopt(*pid);
        Result<TablesRead> held = verification().readHeld();
        if (!held) {
            refuse(CommitOutcome::Refused, {QStringLiteral("cannot read the current tables: %1").arg(held.error().toString())});
            return false;
        }
        m_beforePKeys = held->pkeys;  // for smPort()'s inference
        const std::optional<Guid> sm = smPort();
        if (!sm)
            return false;
        m_smPort = *sm;
        if (!keepRecoveredFiles(*unfinished))
            return false;
        const PKeyTableOptions pkeyOptions{*sm, true};
        const std::vector<CommitFile> &previous = m_staging.files();
        Result<Expected> before = expectedFrom(previous[0].content, previous[1].content, unfinished->backups[0], unfinished->backups[1], pkeyOptions, held->pkeys);
        if (!before)
            return refused(before.error());
        m_beforeTables = std::move(before->tables);
        m_beforePKeys = std::move(before->pkeys);
        m_report.written = true;

        if (m_options.recoverByRollback)
            fail({QStringLiteral("rolling back to the backups, as asked, without trying the interrupted commit's files")});
        else if (unfinished->outcome != QLatin1String(kJournalWritten))
            fail({QStringLiteral("the interrupted commit had not finished writing its files")});
        else
            verifyInterruptedPlan(pkeyOptions, held->pkeys);
        const QString by = m_options.recoveredBy.isEmpty() ? QStringLiteral("`weft commit --recover`") : m_options.recoveredBy;
        m_report.reasons.prepend(QStringLiteral("recovered by %1 (%2): %3").arg(by, CommitLock::holderText(), unfinishedText(*unfinished)));
        return true;
    }

    // What the backups hold: the state to roll back to. Every file is the interrupted commit's
    // (written); which SM each is the journal does not say, so every file besides the master's
    // routing file and partitions.conf is checked by its digest once put back.
    bool keepRecoveredFiles(const CommitJournalEntry &unfinished)
    {
        for (qsizetype i = 0; i < unfinished.files.size(); ++i) {
            CommitFile previous;
            previous.path = unfinished.files[i];
            previous.existed = !unfinished.backups[i].isEmpty();
            previous.written = true;
            previous.restoreCheckedByDigest = previous.path != m_target.routingFile() && previous.path != m_target.partitionsPath;
            if (previous.existed) {
                Result<CommitFile> backup = snapshotFile(unfinished.backups[i]);
                if (!backup || !backup->existed) {
                    refuse(CommitOutcome::Refused, {QStringLiteral("the backup %1 is gone: cannot roll back").arg(unfinished.backups[i])});
                    return false;
                }
                previous.content = std::move(backup->content);
            }
            m_staging.keepRecoveredFile(std::move(previous));
        }
        m_staging.replacedDigests() = unfinished.replacedDigests;
        return true;
    }

    // The files the interrupted commit wrote, checked as any plan is before it goes in, then
    // reloaded and read back; rolled back when they do not hold.
    void verifyInterruptedPlan(const PKeyTableOptions &pkeyOptions, const PKeyTables &held)
    {
        Result<CommitFile> lfts = snapshotFile(m_target.routingFile());
        Result<CommitFile> partitions = snapshotFile(m_target.partitionsPath);
        Result<Expected> plan = lfts && partitions ? expectedFrom(lfts->content, partitions->content, m_target.routingFile(), m_target.partitionsPath, pkeyOptions, held)
                                                   : Result<Expected>((lfts ? partitions.error() : lfts.error()));
        if (!plan) {
            fail({QStringLiteral("the files the commit wrote cannot be read: %1").arg(plan.error().toString())});
            return;
        }
        if (const QStringList unsafe = checkPlan(m_fabric, plan->tables, partitions->content, m_target.partitionsPath); !unsafe.isEmpty()) {
            fail(QStringList{QStringLiteral("the interrupted commit's plan does not pass the plan check")} + unsafe);
            return;
        }
        step(QStringLiteral("the interrupted commit's plan passes the plan check: reachability, loops, deadlock freedom, partitions.conf"));
        m_expectedPKeys = plan->pkeys;
        m_recoveredTables = plan->tables;
        step(QStringLiteral("verifying the fabric against the interrupted commit's plan (the files it wrote)"));
        const QStringList problems = reloadAndVerify(plan->tables, plan->pkeys, QStringLiteral("plan"), false);
        if (!problems.isEmpty()) {
            fail(problems);
            return;
        }
        m_report.outcome = CommitOutcome::Committed;
        step(QStringLiteral("verified: every switch's LFT and every port's P_Key table match the interrupted commit's plan"));
    }

    // The tables and P_Keys the fabric holds once OpenSM has loaded these files.
    struct Expected
    {
        ForwardingTables tables;
        PKeyTables pkeys;
    };
    Result<Expected> expectedFrom(const QByteArray &lfts, const QByteArray &partitions, const QString &lftsName,
                                  const QString &partitionsName, const PKeyTableOptions &pkeyOptions, const PKeyTables &held) const
    {
        Result<ForwardingTables> tables = Error{lftsName, 0, QStringLiteral("no router for an intent file")};
        if (!m_target.pluginMode()) {
            tables = readLftDump(lfts, lftsName, &m_fabric);
        } else if (m_backend.routeIntent) {
            // The tables a commit kept for this intent (CommitPlan::keepTablesWithJournal), if any.
            std::optional<ForwardingTables> recorded;
            const QString kept = m_options.journalPath.isEmpty() ? QString() : journalTablesPath(m_options.journalPath, sha256Hex(lfts));
            if (!kept.isEmpty() && QFileInfo::exists(kept)) {
                Result<ForwardingTables> read = readLftDumpFile(kept, &m_fabric);
                if (!read)
                    return read.error();
                recorded = std::move(*read);
            }
            tables = m_backend.routeIntent(m_fabric, lfts, lftsName, recorded ? &*recorded : nullptr);
        }
        if (!tables)
            return tables.error();
        Result<PartitionsConfResult> parsed = readPartitionsConf(partitions, partitionsName);
        if (!parsed)
            return parsed.error();
        return Expected{std::move(*tables), computePKeyTables(m_fabric, plannedPartitions(parsed->partitions), pkeyOptions, &held)};
    }

    void journal()
    {
        if (m_options.journalPath.isEmpty())
            return;
        CommitJournalEntry e = journalEntry(commitOutcomeName(m_report.outcome));
        e.details = m_report.reasons;
        const Status appended = appendJournalEntry(m_options.journalPath, e);
        if (!appended)
            m_report.steps << QStringLiteral("warning: %1").arg(appended.error().toString());
        else
            m_report.steps << QStringLiteral("journal: %1").arg(m_options.journalPath);
    }

    const CommitPlan &m_plan;
    const CommitTarget &m_target;
    const CommitBackend m_backend;
    const CommitOptions &m_options;
    CommitReport m_report;
    CommitSteps m_steps;
    CommitStaging m_staging;
    OpenSmSignal m_openSm;
    std::vector<std::unique_ptr<CommitLock>> m_locks;  // released last, when the run ends
    QString m_id;                                      // this commit's entries in the journal
    std::vector<CommitJournalEntry> m_journal;         // as findUnfinished read it at the start
    std::optional<CommitJournalEntry> m_recovering;    // --recover: the unfinished commit
    ForwardingTables m_recoveredTables;
    Fabric m_fabric;
    bool m_discovered = false;
    Guid m_smPort = 0;
    std::vector<Partition> m_partitions;
    QString m_summary;
    ForwardingTables m_beforeTables;
    PKeyTables m_beforePKeys;
    PKeyTables m_expectedPKeys;
    QByteArray m_plannedConf;
    QStringList m_standbyOutcomes;  // per standby, for the journal: "files verified", "restored", ...
    CommitServiceLevels m_qos;
};

}  // namespace

CommitReport commitPlan(const CommitPlan &plan, const CommitTarget &target, const CommitBackend &backend,
                        const CommitOptions &options)
{
    return CommitRun(plan, target, backend, options).run();
}

CommitReport recoverCommit(const CommitTarget &target, const CommitBackend &backend, const CommitOptions &options)
{
    const CommitPlan none;
    return CommitRun(none, target, backend, options).recover();
}

}  // namespace weft
