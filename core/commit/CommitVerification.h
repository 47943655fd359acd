#pragma once
// Proof that the fabric holds what a commit installed: after OpenSM's reload (OpenSmSignal.h),
// every switch's LFT and every port's P_Key table read back and compared (compareReadBack) until
// they hold the tables expected or the time is up; with service levels, the SL2VL tables and the
// SL that the SA gives in a PathRecord. The same proof serves the plan, an interrupted commit's
// files and the previous state after a rollback.

#include "Commit.h"
#include "QosConfig.h"

#include <QString>
#include <QStringList>

#include <map>
#include <optional>
#include <vector>

namespace weft {

class CommitSteps;
class OpenSmSignal;

// Every switch's LFT and every port's P_Key table as the fabric holds them now.
struct TablesRead
{
    ForwardingTables lfts;
    PKeyTables pkeys;
};

// A plan's service levels (QosConfig.h): with any SL other than 0, QoS is part of the commit.
struct CommitServiceLevels
{
    std::map<std::uint16_t, int> levels;  // P_Key -> SL of the planned partitions
    bool on = false;                      // any SL other than 0
    SlToVl slToVl{};                      // the SL2VL table written to OpenSM's options
    std::vector<PortSlToVl> before;       // the ports' SL2VL tables before the commit
    bool previouslyOn = false;            // the options replaced had QoS on: a rollback can be
                                          // verified on the SL2VL tables as well
};

class CommitVerification
{
public:
    CommitVerification(const CommitBackend &backend, const Fabric &fabric, CommitSteps &steps);

    Result<TablesRead> readHeld() const;

    struct ReadBack
    {
        QStringList mismatches;          // empty: the fabric holds what was expected
        std::optional<TablesRead> held;  // the last tables read, matching or not
    };
    // Sends SIGHUP, waits for the sweep and reads back until the fabric holds `tables` and `pkeys`
    // or `timeoutMs` runs out; `what` names them in the report ("plan", "previous state").
    // `timed`: the commit's own reload (OpenSmSignal::reload).
    ReadBack reloadAndVerify(OpenSmSignal &openSm, const ForwardingTables &tables, const PKeyTables &pkeys,
                             const QString &what, int timeoutMs, bool timed);

    // After the sweep: every port's SL2VL tables keep the planned SLs apart, and the SA gives
    // each partition's SL in a PathRecord between two of its members. Empty when both hold.
    QStringList verifyServiceLevels(const CommitServiceLevels &qos, const std::vector<Partition> &partitions);
    // After a rollback's sweep: the ports hold the SL2VL tables they held before. Empty when so.
    QStringList verifySlToVlRestored(const std::vector<PortSlToVl> &before);

private:
    const CommitBackend &m_backend;
    const Fabric &m_fabric;
    CommitSteps &m_steps;
};

}  // namespace weft
