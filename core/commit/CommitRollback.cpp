#include "CommitRollback.h"

#include "CommitStaging.h"
#include "CommitSteps.h"
#include "OpenSmSignal.h"

namespace weft {

CommitRollback::CommitRollback(const CommitTarget &target, const CommitBackend &backend, const Fabric &fabric,
                               OpenSmSignal &openSm, CommitSteps &steps)
    : m_target(target), m_backend(backend), m_fabric(fabric), m_openSm(openSm), m_steps(steps)
{
}

CommitRollback::Outcome CommitRollback::run(const CommitStaging &staging, const Input &input)
{
    Outcome result;
    m_steps.step(QStringLiteral("commit failed; restoring the previous files"));
    if (const Status restored = staging.restore(); !restored) {
        result.reasons << QStringLiteral("restoring failed: %1").arg(restored.error().toString());
        return result;
    }
    if (staging.files().empty()) {
        result.outcome = CommitOutcome::RolledBack;
        return result;
    }
    m_steps.step(QStringLiteral("restored %1 and %2").arg(m_target.routingFile(), m_target.partitionsPath)
                 + (m_target.standbys.empty() ? QString() : QStringLiteral(", and the files of the other subnet managers")));
    const CommitStaging::RestoreCheck check = staging.checkRestored();
    if (!check.problems.isEmpty()) {
        result.reasons << QStringLiteral("after restoring the files:") << check.problems;
        return result;
    }
    if (check.checked) {
        m_steps.step(QStringLiteral("the other subnet managers' files hold what they held before the commit (SHA-256)"));
        result.standbysRestored = true;
    }
    CommitVerification verification(m_backend, m_fabric, m_steps);
    if (!m_openSm.runs()) {
        // No OpenSM to reload: say what the fabric holds now, so the state is known.
        result.reasons << QStringLiteral("OpenSM (pid %1) is not running: the restored files take effect when it is started again").arg(m_openSm.pid());
        result.reasons << whatTheFabricHolds(input, verification);
        return result;
    }
    CommitVerification::ReadBack back = verification.reloadAndVerify(m_openSm, input.previousTables, input.previousPKeys,
                                                                     QStringLiteral("previous state"), input.timeoutMs, false);
    result.held = std::move(back.held);
    QStringList problems = std::move(back.mismatches);
    // OpenSM reprograms the SL2VL tables only with QoS on, and keeps QoS on once a re-read turned
    // it on (QosConfig.h): with QoS off before, the tables cannot come back until OpenSM restarts,
    // which is said, not hidden.
    if (problems.isEmpty() && input.serviceLevels.on) {
        if (input.serviceLevels.previouslyOn)
            problems = verification.verifySlToVlRestored(input.serviceLevels.before);
        else
            result.reasons << QStringLiteral("%1 is restored, but OpenSM keeps QoS on and the planned SL2VL tables until it is "
                                             "restarted (it does not turn QoS off when a re-read file no longer says qos TRUE)")
                                  .arg(m_target.optionsPath);
    }
    if (problems.isEmpty()) {
        result.outcome = CommitOutcome::RolledBack;
        return result;
    }
    result.reasons << QStringLiteral("after the rollback:") << problems;
    return result;
}

QString CommitRollback::whatTheFabricHolds(const Input &input, const CommitVerification &verification)
{
    const Result<TablesRead> held = verification.readHeld();
    if (!held)
        return QStringLiteral("the fabric's tables cannot be read back");
    if (compareReadBack(m_fabric, input.previousTables, held->lfts, input.previousPKeys, held->pkeys).isEmpty())
        return QStringLiteral("verified: the switches still hold the previous tables and P_Keys");
    if (compareReadBack(m_fabric, input.plannedTables, held->lfts, input.plannedPKeys, held->pkeys).isEmpty())
        return QStringLiteral("verified: the switches hold the plan's tables and P_Keys");
    return writeBackPrevious(input, *held, verification);
}

// OpenSM died in the middle of its sweep: the switches hold part of the plan. With no subnet
// manager to reload the restored files, Weft writes the previous tables itself and reads
// them back, so that the fabric is as it was and known to be.
QString CommitRollback::writeBackPrevious(const Input &input, const TablesRead &held, const CommitVerification &verification)
{
    const QString neither = QStringLiteral("the switches hold neither the previous tables nor the plan's");
    if (!m_backend.writeTables)
        return neither;
    m_steps.step(QStringLiteral("writing the previous tables back through SMPs (no subnet manager runs)"));
    if (const Status written = m_backend.writeTables(m_fabric, input.previousTables, held.lfts, input.previousPKeys, held.pkeys); !written)
        return neither + QStringLiteral("; writing the previous ones back failed: ") + written.error().toString();
    const Result<TablesRead> after = verification.readHeld();
    if (!after)
        return neither + QStringLiteral("; the tables written back cannot be read");
    const QStringList left = compareReadBack(m_fabric, input.previousTables, after->lfts, input.previousPKeys, after->pkeys);
    if (!left.isEmpty())
        return neither + QStringLiteral("; after writing the previous ones back: ") + left.join(QStringLiteral("; "));
    return QStringLiteral("verified: the switches hold the previous tables and P_Keys again (written back by Weft through SMPs)");
}

}  // namespace weft
