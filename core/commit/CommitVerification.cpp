#include "CommitVerification.h"

#include "CommitSteps.h"
#include "OpenSmSignal.h"

#include <QThread>

namespace weft {

CommitVerification::CommitVerification(const CommitBackend &backend, const Fabric &fabric, CommitSteps &steps)
    : m_backend(backend), m_fabric(fabric), m_steps(steps)
{
}

Result<TablesRead> CommitVerification::readHeld() const
{
    if (m_backend.readHeldTables) {
        if (m_backend.describeTableReads)
            m_backend.describeTableReads();  // forgets reads made before this one
        Result<std::pair<ForwardingTables, PKeyTables>> both = m_backend.readHeldTables(m_fabric);
        if (m_backend.describeTableReads)
            if (const QString read = m_backend.describeTableReads(); !read.isEmpty())
                m_steps.step(QStringLiteral("read %1").arg(read));
        if (!both)
            return both.error();
        return TablesRead{std::move(both->first), std::move(both->second)};
    }
    Result<ForwardingTables> lfts = m_backend.readTables(m_fabric);
    if (!lfts)
        return lfts.error();
    Result<PKeyTables> pkeys = m_backend.readPKeys(m_fabric);
    if (!pkeys)
        return pkeys.error();
    return TablesRead{std::move(*lfts), std::move(*pkeys)};
}

CommitVerification::ReadBack CommitVerification::reloadAndVerify(OpenSmSignal &openSm, const ForwardingTables &tables,
                                                                 const PKeyTables &pkeys, const QString &what, int timeoutMs,
                                                                 bool timed)
{
    ReadBack result;
    const OpenSmSignal::Sweep sweep = openSm.reload(timeoutMs, timed);
    if (!sweep.failure.isEmpty()) {
        result.mismatches = {sweep.failure};
        return result;
    }
    // With the log, the sweep is known to be over: one read-back decides (a second only if
    // the first could not be read). Without it, poll until the tables hold or time runs out;
    // each read-back opens a MAD port and walks every switch, so not too often.
    for (int attempt = 0;; ++attempt) {
        if (!openSm.runs()) {
            result.mismatches = {QStringLiteral("OpenSM (pid %1) stopped during its sweep").arg(openSm.pid())};
            return result;
        }
        if (timed)
            commitTestStop("during-verify");
        Result<TablesRead> held = readHeld();
        const bool readFailed = !held;
        if (readFailed) {
            result.mismatches = {QStringLiteral("read-back failed: %1").arg(held.error().toString())};
        } else {
            result.mismatches = compareReadBack(m_fabric, tables, held->lfts, pkeys, held->pkeys);
            result.held = std::move(*held);
        }
        if (result.mismatches.isEmpty()) {
            m_steps.step(QStringLiteral("read back every LFT and P_Key table: the fabric holds the %1").arg(what));
            if (timed)  // without OpenSM's log, its sweep is in this figure too
                m_steps.lap(sweep.seen ? QStringLiteral("verification") : QStringLiteral("OpenSM sweep + verification"),
                            sweep.seen ? CommitStageTime::Kind::Fabric : CommitStageTime::Kind::OpenSm);
            return result;
        }
        if (sweep.deadline.hasExpired() || (sweep.seen && (!readFailed || attempt >= 1)))
            break;
        QThread::msleep(1000);
    }
    result.mismatches.prepend(QStringLiteral("read-back does not match the %1:").arg(what));
    return result;
}

QStringList CommitVerification::verifyServiceLevels(const CommitServiceLevels &qos, const std::vector<Partition> &partitions)
{
    if (!qos.on)
        return {};
    Result<std::vector<PortSlToVl>> read = m_backend.readSlToVl(m_fabric);
    if (!read)
        return {QStringLiteral("cannot read the SL2VL tables back: %1").arg(read.error().toString())};
    QStringList problems = checkSlToVl(m_fabric, *read, qos.levels, qos.slToVl);
    if (!problems.isEmpty())
        problems.prepend(QStringLiteral("the SL2VL tables do not keep the planned service levels apart:"));
    else
        m_steps.step(QStringLiteral("read back %1 SL2VL tables: each planned SL on its own VL").arg(read->size()));
    for (const PathProbe &probe : pathProbes(m_fabric, partitions, qos.levels)) {
        const Result<int> sl = m_backend.pathServiceLevel(m_fabric, probe.source, probe.destination, probe.pkey);
        if (!sl)
            problems << QStringLiteral("PathRecord LID %1 -> %2 in %3: %4").arg(probe.source).arg(probe.destination).arg(pkeyText(probe.pkey), sl.error().toString());
        else if (*sl != probe.serviceLevel)
            problems << QStringLiteral("PathRecord LID %1 -> %2 in %3 has SL %4, planned %5").arg(probe.source).arg(probe.destination).arg(pkeyText(probe.pkey)).arg(*sl).arg(probe.serviceLevel);
        else
            m_steps.step(QStringLiteral("PathRecord LID %1 -> %2 in %3: SL %4").arg(probe.source).arg(probe.destination).arg(pkeyText(probe.pkey)).arg(*sl));
    }
    return problems;
}

QStringList CommitVerification::verifySlToVlRestored(const std::vector<PortSlToVl> &before)
{
    Result<std::vector<PortSlToVl>> read = m_backend.readSlToVl(m_fabric);
    if (!read)
        return {QStringLiteral("cannot read the SL2VL tables back: %1").arg(read.error().toString())};
    QStringList problems = compareSlToVl(m_fabric, before, *read);
    if (problems.isEmpty())
        m_steps.step(QStringLiteral("read back every SL2VL table: the ports hold the previous ones"));
    return problems;
}

}  // namespace weft
