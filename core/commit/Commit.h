#pragma once
// Installing a plan (forwarding tables + partitions) on a fabric run by OpenSM, and proving it.
//
// The target is an OpenSM started with `-R file -U LFTS -P PARTITIONS` (mission anchors §2.5:
// those paths cannot change at runtime, so Weft overwrites their contents). A commit:
//  1. checks the plan before touching anything: partitions.conf as OpenSM would accept it (a
//     file "in error" makes OpenSM fall back to ALL=full, removing isolation), reachability,
//     loops, deadlock freedom and isolation (validateRouting), and that the fabric is still the
//     one the plan was made for (rediscovered and compared: else "stale");
//  2. writes the LFT dump and partitions.conf atomically, keeping the previous files as .bak;
//  3. sends SIGHUP to OpenSM (pid from its pid file) and waits for the heavy sweep to finish;
//  4. reads back every switch's LFT and every port's P_Key table over SMPs and compares them
//     with the plan;
//  5. on a mismatch, a timeout or OpenSM gone: puts the previous files back, sends SIGHUP again,
//     reads back again and reports which state the fabric is in.
// Every attempt, refused or not, is appended to the commit journal (CommitJournal.h).
//
// Fabric access goes through CommitBackend so that the procedure can be tested without a
// fabric; liveCommitBackend() (live/LiveCommitBackend.h) is the real one, through libibmad.

#include "Fabric.h"
#include "ForwardingTables.h"
#include "PKeyTables.h"
#include "QosConfig.h"
#include "ReconfigurationDiff.h"
#include "Result.h"
#include "Tenancy.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <map>
#include <optional>

namespace weft {

// Where OpenSM reads its files, and how to reach it.
struct CommitTarget
{
    QString lftsPath;        // OpenSM's -U
    QString partitionsPath;  // OpenSM's -P
    QString pidFile;         // a file holding OpenSM's pid
    QString logPath;         // OpenSM's log (-f); optional: with it the sweep's end is read
                             // from the log ("SUBNET UP"), without it read-back is polled
    QString optionsPath;     // OpenSM's options file (-F); needed when the plan has service levels
                             // (QosConfig.h: its QoS lines are re-read on SIGHUP)
};

struct CommitPlan
{
    ForwardingTables tables;
    QByteArray partitionsConf;       // partitions.conf text as planned
    QString partitionsFileName;      // for error messages
    QString summary;                 // one line for the journal; empty: made from the plan
    std::optional<Fabric> madeFor;   // the fabric the plan was made against, if known
    // P_Key (low 15 bits) -> SL (Routing::serviceLevels): the planned partitions get `sl=`, and
    // when any SL is not 0 the commit also writes OpenSM's QoS options (QosConfig.h), verifies
    // the SL2VL tables and the SL of a PathRecord in each such partition. `sl=` already in
    // partitionsConf counts too.
    std::map<std::uint16_t, int> serviceLevels;
    // The operator's intent beyond partitions.conf (a Weft project's tenancy): each partition's
    // isolation policy, matched to the planned partitions by P_Key (else by name), and the policy
    // mode. Without it every planned partition is judged as def-isolation.
    std::optional<Tenancy> intent;
};

struct CommitOptions
{
    int timeoutMs = 60000;          // for each sweep (commit and rollback)
    Guid smPortGuid = 0;            // OpenSM's port; 0: asked of the fabric (CommitBackend::findSmPort),
                                    // else inferred from the P_Key tables read
    QString journalPath;            // empty: no journal
    QString user;                   // empty: currentUserName()
    bool acceptViolations = false;  // best-effort mode: commit although isolation policies are
                                    // violated (they are listed); strict mode refuses regardless
    std::function<void(const QString &)> progress;  // one line per step, for front ends
};

// What a commit needs from the fabric and from OpenSM.
struct CommitBackend
{
    std::function<Result<Fabric>()> discover;
    std::function<Result<ForwardingTables>(const Fabric &)> readTables;
    std::function<Result<PKeyTables>(const Fabric &)> readPKeys;
    std::function<bool(qint64 pid)> isRunning;  // default: processRunning
    std::function<Status(qint64 pid)> reload;   // default: sendHangup
    // Optional: the port the master SM runs on, asked of the fabric (MasterSMLID, SMInfo). Used
    // when CommitOptions::smPortGuid is 0, before inferring it from the P_Key tables.
    std::function<Result<Guid>(const Fabric &)> findSmPort;
    // Optional: puts tables on the switches and ports without OpenSM (SubnSet SMPs), given what
    // they hold now. Used only when OpenSM died during its sweep and left a mix of old and new.
    std::function<Status(const Fabric &, const ForwardingTables &tables, const ForwardingTables &held,
                         const PKeyTables &pkeys, const PKeyTables &heldPKeys)>
        writeTables;
    // For plans with service levels: every port's SL2VL tables (CA ports; switches per in/out
    // pair), and the SL the SA gives in a PathRecord from one LID to another in a P_Key.
    std::function<Result<std::vector<PortSlToVl>>(const Fabric &)> readSlToVl;
    std::function<Result<int>(const Fabric &, Lid source, Lid destination, std::uint16_t pkey)> pathServiceLevel;
};

// Whether a process runs (kill(pid, 0)), and a SIGHUP to it: how OpenSM is told to reload.
bool processRunning(qint64 pid);
Status sendHangup(qint64 pid);

enum class CommitOutcome : std::uint8_t {
    Committed,       // read-back equals the plan
    Refused,         // unsafe plan or OpenSM not reachable; nothing written
    Stale,           // the fabric changed since the plan was made; nothing written
    RolledBack,      // failed; previous files restored and the previous state verified
    RollbackFailed,  // failed, and the previous state could not be verified: see details
};
QString commitOutcomeName(CommitOutcome outcome);  // "committed", "refused", "stale", ...

struct CommitReport
{
    CommitOutcome outcome = CommitOutcome::Refused;
    QStringList steps;        // what was done, in order, one line each
    QStringList reasons;      // why it was refused or failed; mismatches
    QStringList warnings;     // about the plan, not blocking
    QStringList violations;   // isolation policies the plan breaks (see PlanCheck)
    ReconfigurationDiff diff; // planReconfiguration: from the tables read before writing to the plan
    bool written = false;     // the OpenSM files were changed at some point

    bool ok() const { return outcome == CommitOutcome::Committed; }
    QString toText() const;
    QJsonObject toJson() const;
};

// Step 1 alone: what is wrong with the plan on this fabric (empty: safe). `partitions` receives
// the planned partitions when the text parses; `warnings` what deserves a look but is not
// unsafe (LIDs left unrouted on some switch, e.g. one spine's LID on another: management only;
// end ports that may talk and are not routed are refused through validation).
QStringList checkPlan(const Fabric &fabric, const ForwardingTables &tables, const QByteArray &partitionsConf,
                      const QString &partitionsFileName, std::vector<Partition> *partitions = nullptr,
                      QStringList *warnings = nullptr);

// Step 1 with the whole intent: the plan's partitions.conf, its service levels (CommitPlan::
// serviceLevels and `sl=`, each SL on the VL the commit has OpenSM map it to) and the intent's
// policies and mode. Unsafe plans (unparsable, unroutable, loops, credit loops) are refused in
// every mode; a violated isolation policy is refused in strict mode and, in best-effort mode,
// unless the operator accepts the violations listed.
struct PlanCheck
{
    QStringList reasons;                // unsafe: refused whatever the mode
    QStringList violations;             // "partition red (phy-isolation): ..." one line each
    QStringList warnings;               // not blocking
    std::vector<Partition> partitions;  // as planned, with the intent's policies
    PolicyMode mode = PolicyMode::BestEffort;

    // Why the commit must stop here (empty: it may go on).
    QStringList refusal(bool acceptViolations) const;
};
PlanCheck checkPlan(const Fabric &fabric, const CommitPlan &plan);

// Differences between what a fabric holds and what it should hold: LFT entries of every fabric
// switch for every LID the fabric assigns, and the P_Key tables of `expected` (a packed switch
// port only in the blocks OpenSM writes). Empty when they match. At most `maxReported` lines.
QStringList compareReadBack(const Fabric &fabric, const ForwardingTables &expectedTables,
                            const ForwardingTables &readTables, const PKeyTables &expectedPKeys,
                            const PKeyTables &readPKeys, int maxReported = 20);

// A port for the report: `node[port] (port GUID 0x..., LID n)`, or the GUID alone when the
// fabric does not have it.
QString smPortText(const Fabric &fabric, Guid portGuid);

// The pid in an OpenSM pid file.
Result<qint64> readPidFile(const QString &path);

CommitReport commitPlan(const CommitPlan &plan, const CommitTarget &target, const CommitBackend &backend,
                        const CommitOptions &options = {});

}  // namespace weft
