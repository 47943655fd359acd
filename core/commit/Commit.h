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
// A commit holds its target's lock (CommitLock) from start to end, so two never interleave; it
// journals its intent before writing and its outcome after, so that one interrupted (Weft killed)
// is found by the next, which refuses until recoverCommit has brought the fabric to a verified
// state.
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

#include <cstdint>
#include <vector>

#include <functional>
#include <map>
#include <memory>
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
    // OpenSM routing by Weft's engine inside it (libweftosm.so, `event_plugin_options INTENT`):
    // the commit writes this intent (a Weft project) instead of an LFT dump, and OpenSM's engine
    // routes it at the sweep the SIGHUP starts. Empty: the file engine and lftsPath.
    QString intentPath;

    bool pluginMode() const { return !intentPath.isEmpty(); }
    // The file that decides the routing: the intent, or the -U dump. Locks, journals and
    // recovery key on it.
    const QString &routingFile() const { return pluginMode() ? intentPath : lftsPath; }

    // A subnet with several subnet managers (SubnetTarget.h): the OpenSM above is the master;
    // every other SM's files get the same plan. All files of all SMs are staged (written whole
    // beside their place) before any is switched in, so one that cannot be written changes no
    // SM; each standby is verified by its files' content, and a rollback restores every SM.
    struct Standby
    {
        QString name;
        QString lftsPath;    // file mode, or
        QString intentPath;  // plugin mode (the target's mode)
        QString partitionsPath;
        QString optionsPath;  // needed when the plan has service levels
        const QString &routingFile() const { return intentPath.isEmpty() ? lftsPath : intentPath; }
    };
    std::vector<Standby> standbys;
    QString name;      // the master SM's name in its subnet target; empty: a single OpenSM
    QString subnet;    // the subnet target's name: its journal entries and unfinished commits
    QString lockPath;  // the subnet's lock, taken before each SM's own; empty: none
};

// What a fabric holds, as a plan is made against it and as a commit finds it: the tables its
// switches hold, the P_Key tables of its ports and the port OpenSM runs on (SELF).
struct HeldTables
{
    std::shared_ptr<const ForwardingTables> lfts;  // null: not known (every switch counted empty)
    std::shared_ptr<const PKeyTables> pkeys;       // null: not known (as OpenSM programs the partitions in force)
    Guid smPort = 0;                               // 0: not known
};

// One subnet manager as the fabric tells of it: SubnGet(SMInfo) at a port whose CapabilityMask
// has IsSM (SubnetTarget.h judges a subnet's SMs by it).
struct SubnetManagerInfo
{
    Guid portGuid = 0;
    Lid lid = 0;
    int priority = 0;  // 0..15
    int state = 0;     // SMInfo:SMState 0 not active, 1 discovering, 2 standby, 3 master
    quint32 activity = 0;
    bool answered = false;    // false: the port says IsSM but its SMInfo did not answer
    QString nodeDescription;  // of the node the port is on
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
    // What the fabric held when the plan was made (CommitPlanning.h: buildCommitPlan), so that
    // what was reviewed is what is installed: the commit refuses the plan as stale when the
    // switches or ports hold anything else when it reads them before writing, or OpenSM runs on
    // another port. Unset: the plan is installed over whatever the fabric holds (`weft commit`
    // with plan files).
    std::optional<HeldTables> expectedHeld;
    // Non-empty: the plan was made for these what-if events (a link or switch failed, a host
    // removed: WhatIf::describe) that have not happened. It is installed only as a pre-emptive
    // plan, valid on the fabric as it is: every pair of ports reachable, switch LIDs included,
    // no loop, no credit loop; otherwise refused before anything is written.
    QString whatIf;
    // Plugin mode (CommitTarget::intentPath): the intent file to install, a Weft project whose
    // routing on the fabric discovered now is `tables` (IntentRouting.h: routeIntent).
    QByteArray intentFile;
    // Plugin mode: `tables` cannot be computed from the intent file alone (an intent that applies
    // a studio candidate's method to the tables the switches hold, IntentRouting.h: `apply`). The
    // commit keeps them beside the journal (journalTablesPath, by the intent's SHA-256) before the
    // intent is switched in, and a recovery verifies the fabric against them.
    bool keepTablesWithJournal = false;
};

struct CommitOptions
{
    int timeoutMs = 60000;          // for each sweep (commit and rollback)
    Guid smPortGuid = 0;            // OpenSM's port; 0: asked of the fabric (CommitBackend::findSmPort),
                                    // else inferred from the P_Key tables read
    QString journalPath;            // empty: no journal
    QString user;                   // empty: currentUserName()
    int lockWaitMs = 0;             // another commit on the target holds its lock: 0 refuse at once,
                                    // > 0 wait that long, < 0 wait as long as it takes
    bool acceptViolations = false;  // best-effort mode: commit although isolation policies are
                                    // violated (they are listed); strict mode refuses regardless
    // recoverCommit only: put the backups back (and verify them) without first trying the
    // interrupted commit's files (`weft commit --recover --rollback`, the desk's "Roll Back").
    bool recoverByRollback = false;
    // recoverCommit only: recover although a file or backup is not what the journal's digests say
    // the interrupted commit wrote or kept (someone changed it since): `--recover --force`.
    bool recoverChangedFiles = false;
    // A partitions.conf or intent that changed since Weft last wrote it (the journal's digest of
    // it) is someone's edit: the commit refuses, showing the change, unless this is set
    // (`weft commit --force`).
    bool overwriteEdits = false;
    QString recoveredBy;            // who recovers, for the report; empty: `weft commit --recover`
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
    // Plugin mode's recovery: the tables an intent file routes to on a fabric, as OpenSM's engine
    // computes them (routing is not core's: the front end gives routeIntent). `recorded`: the
    // tables a commit kept for this intent beside the journal (CommitPlan::keepTablesWithJournal),
    // null when none are kept; the router decides whether they are the intent's.
    std::function<Result<ForwardingTables>(const Fabric &, const QByteArray &intent, const QString &fileName,
                                           const ForwardingTables *recorded)>
        routeIntent;
    // Optional, for subnet targets (SubnetTarget.h): every SM on the subnet, by SMInfo.
    std::function<Result<std::vector<SubnetManagerInfo>>(const Fabric &)> readSubnetManagers;
    // Optional: LFTs and P_Key tables in one pass (else readTables, then readPKeys), and what the
    // reads since the last call read ("... LFT blocks ..., SMPs, retries"), for the report.
    std::function<Result<std::pair<ForwardingTables, PKeyTables>>(const Fabric &)> readHeldTables;
    std::function<QString()> describeTableReads;
};

// One commit at a time on a target: an exclusive OS lock (flock) on a file beside OpenSM's -U
// file, held for the whole commit, whichever Weft (desk or CLI, this host or another sharing the
// directory) runs it. The file names its holder (pid, host, since when) for the refusal; the
// kernel drops the lock when its holder dies, so the lock of a killed Weft is taken over (and
// said to be) rather than left to block every later commit.
class CommitLock
{
public:
    ~CommitLock();
    CommitLock(const CommitLock &) = delete;
    CommitLock &operator=(const CommitLock &) = delete;

    QString path() const { return m_path; }
    // The holder named in the file when the lock was granted: a Weft that died holding it (its
    // lock went with it); empty if the last holder let go normally.
    QString staleHolder() const { return m_staleHolder; }

    // "pid 1234 on host h since 2026-01-01T12:00:00Z (user alice)"
    static QString holderText();
    // `waitMs`: 0 refuse at once when another holds it, > 0 wait that long, < 0 without limit.
    static Result<std::unique_ptr<CommitLock>> acquire(const QString &path, int waitMs = 0);

private:
    CommitLock(int fd, QString path, QString staleHolder);
    int m_fd = -1;
    QString m_path;
    QString m_staleHolder;
};

// "<OpenSM's -U file>.weft-lock": one lock per target.
QString commitLockPath(const CommitTarget &target);
// Every lock a commit to `target` holds, in the order taken: the subnet's (lockPath), then each
// SM's routing file's (commitLockPath), so that neither a commit to the subnet nor one to any
// of its OpenSMs alone runs beside it.
QStringList commitLockPaths(const CommitTarget &target);

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

// Where a commit's time went, stage by stage: Weft's own work (checking the plan, the diff,
// writing the files), the fabric's management datagrams (discovery, reading tables back), and
// OpenSM's reload and sweep.
struct CommitStageTime
{
    enum class Kind : std::uint8_t { Weft, Fabric, OpenSm };
    QString stage;  // "discovery", "plan check", "table read-back", "diff", "writing",
                    // "OpenSM load and sweep", "verification"
    double seconds = 0;
    Kind kind = Kind::Weft;
};

struct CommitReport
{
    CommitOutcome outcome = CommitOutcome::Refused;
    QStringList steps;        // what was done, in order, one line each
    QStringList reasons;      // why it was refused or failed; mismatches
    QStringList warnings;     // about the plan, not blocking
    QStringList violations;   // isolation policies the plan breaks (see PlanCheck)
    ReconfigurationDiff diff; // planReconfiguration: from the tables read before writing to the plan
    bool written = false;     // the OpenSM files were changed at some point
    std::vector<CommitStageTime> stageTimes;  // in order, as far as the commit went
    // The fabric as the commit discovered it, and what it held when last read: after the
    // verification (the plan), after a verified rollback (the previous state), or before writing
    // when the commit went no further. Null when the commit never read them. A session takes
    // these as the tables the switches hold, so that what it shows next is the read-back.
    std::shared_ptr<const Fabric> fabric;
    HeldTables held;

    // "discovery 0.52 s (fabric), ..., Weft's own work 0.31 s of 9.8 s (3.2 %)"; empty if untimed.
    QString timingText() const;

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

// What OpenSM would do otherwise than a plan of `partitions` says, or cannot do (checkPlan's
// first refusal, so the desk, the CLI, the service and the commit itself refuse alike): a
// partition without a P_Key or with 0x0000 (OpenSM picks one), two names for one P_Key or 0x7fff
// outside Default (OpenSM merges them), and, with `held` P_Key tables read from the fabric, a
// port whose table would grow past its PartitionCap (PartitionEnforcementCap for a switch port).
QStringList partitionLimitProblems(const Fabric &fabric, const std::vector<Partition> &partitions, const HeldTables *held);

// Entries the switches route now (`held`) that `planned` leaves without a route, one line per
// switch: what a pre-emptive plan (one made for a what-if) must not lose. The commit checks it on
// what it reads before writing; the desk's session as the plan is made.
QStringList coverageLost(const Fabric &fabric, const ForwardingTables &held, const ForwardingTables &planned);

// Differences between what a fabric holds and what it should hold: LFT entries of every fabric
// switch for every LID the fabric assigns, and the P_Key tables of `expected` (a packed switch
// port only in the blocks OpenSM writes). Empty when they match. At most `maxReported` lines.
QStringList compareReadBack(const Fabric &fabric, const ForwardingTables &expectedTables,
                            const ForwardingTables &readTables, const PKeyTables &expectedPKeys,
                            const PKeyTables &readPKeys, int maxReported = 20);

// A port for the report: `node[port] (port GUID 0x..., LID n)`, or the GUID alone when the
// fabric does not have it.
QString smPortText(const Fabric &fabric, Guid portGuid);

// The lines of `after` that differ from `before`, as a unified diff's body ("-" removed, "+"
// added) between their common head and tail, at most `maxLines` lines.
QStringList changedLines(const QByteArray &before, const QByteArray &after, int maxLines = 20);

// Where the journal keeps a copy of each small file a commit wrote or replaced (partitions.conf,
// the intent), by SHA-256: "<journal>.files/<digest>". A later commit shows an operator's edit
// of such a file as a diff against it.
QString journalCopyPath(const QString &journalPath, const QString &digest);
// Where the journal keeps the tables of a plugin-mode plan whose intent does not determine them
// (CommitPlan::keepTablesWithJournal), by the intent file's SHA-256: "<journal>.files/<digest>.lfts",
// a compact LFT dump.
QString journalTablesPath(const QString &journalPath, const QString &intentDigest);

// When process `pid` started (field 22 of /proc/PID/stat, in clock ticks since boot); 0 when it
// cannot be read (no such process). Tells a pid that was reused from the process it named.
quint64 processStartTime(qint64 pid);

// The pid in an OpenSM pid file.
Result<qint64> readPidFile(const QString &path);

CommitReport commitPlan(const CommitPlan &plan, const CommitTarget &target, const CommitBackend &backend,
                        const CommitOptions &options = {});

// A commit interrupted (Weft killed or the machine down after its intent was journalled) brought
// to a verified state: with its files all written, OpenSM reloads them and the fabric is read back
// against them (committed); else, or if the fabric does not hold them, the backups the journal
// names go back, OpenSM reloads and the fabric is read back against them (rolled-back, or
// rollback-failed with what it holds); with CommitOptions::recoverByRollback the backups go back
// at once. The outcome completes the commit's journal entry. With no
// unfinished commit on the target: outcome committed, a step saying so, nothing journalled.
// (Service levels: the options file is restored with the others, its SL2VL tables not read back.)
CommitReport recoverCommit(const CommitTarget &target, const CommitBackend &backend, const CommitOptions &options = {});

}  // namespace weft
