#pragma once
// A failed commit undone: the files it replaced put back (CommitStaging.h), those no read-back
// shows checked by their SHA-256, OpenSM told to reload them and the fabric read back against the
// previous state (CommitVerification.h). With OpenSM gone there is nothing to reload: the fabric
// is read to say which state it is in, and when OpenSM died mid-sweep and left a mix, Weft writes
// the previous tables back itself through SMPs. The outcome says whether the previous state was
// verified.

#include "Commit.h"
#include "CommitVerification.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace weft {

class CommitStaging;
class CommitSteps;
class OpenSmSignal;

class CommitRollback
{
public:
    struct Input
    {
        const ForwardingTables &previousTables;  // what the fabric held before: to verify it again
        const PKeyTables &previousPKeys;
        const ForwardingTables &plannedTables;  // what it would hold with the failed commit's files
        const PKeyTables &plannedPKeys;
        const CommitServiceLevels &serviceLevels;
        int timeoutMs = 60000;
    };
    struct Outcome
    {
        CommitOutcome outcome = CommitOutcome::RollbackFailed;  // RolledBack or RollbackFailed
        QStringList reasons;                                    // to follow the failure's in the report
        bool standbysRestored = false;                          // the standbys' files were checked and hold what they held
        std::optional<TablesRead> held;                         // the fabric as the rollback's verification last read it
    };

    CommitRollback(const CommitTarget &target, const CommitBackend &backend, const Fabric &fabric, OpenSmSignal &openSm,
                   CommitSteps &steps);
    Outcome run(const CommitStaging &staging, const Input &input);

private:
    QString whatTheFabricHolds(const Input &input, const CommitVerification &verification);
    QString writeBackPrevious(const Input &input, const TablesRead &held, const CommitVerification &verification);

    const CommitTarget &m_target;
    const CommitBackend &m_backend;
    const Fabric &m_fabric;
    OpenSmSignal &m_openSm;
    CommitSteps &m_steps;
};

}  // namespace weft
