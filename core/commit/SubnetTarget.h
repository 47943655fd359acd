#pragma once
// A subnet's subnet managers as one commit target: every OpenSM that may become master, each with
// its own files, so that a commit reaches them all and a failover keeps the operator's intent.
//
// The target file (JSON), as the desk's Commit Target and `weft commit --target` read it:
//   {"subnet": "NAME",
//    "sms": [{"name": "sm1", "options": "/etc/opensm/opensm.conf", "intent": "/etc/opensm/weft-intent.json",
//             "partitions": "/etc/opensm/partitions.conf", "pidfile": "/run/opensm.pid"},
//            {"name": "sm2", "lfts": "...", ...}]}
// Each SM names either "intent" (Weft's engine inside OpenSM) or "lfts" (OpenSM's file engine,
// -U); all SMs of one target route the same way. Optional per SM: "log" (OpenSM's log, where the
// sweep's end is read) and "port_guid" (the port it runs on; else the options file's `guid`, else
// the port its log says it bound to). Relative paths are relative to the target file.
//
// Which SM is master is the fabric's to say (SMInfo of every port whose CapabilityMask has IsSM),
// not the file's: a commit installs on the master through OpenSM and on every other SM by its
// files, and `weft target check` reports each SM's state and any SM the target does not name.

#include "Commit.h"
#include "Identifiers.h"
#include "OpenSmState.h"
#include "Result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace weft {

struct SubnetManagerEntry
{
    QString name;
    QString optionsPath;
    QString intentPath;  // plugin mode, or
    QString lftsPath;    // file mode
    QString partitionsPath;
    QString pidFile;
    QString logPath;    // optional
    Guid portGuid = 0;  // optional in the file

    bool pluginMode() const { return !intentPath.isEmpty(); }
    const QString &routingFile() const { return pluginMode() ? intentPath : lftsPath; }
    // This SM's files as a single-SM commit target.
    CommitTarget commitTarget() const;
};

struct SubnetTarget
{
    QString subnet;
    std::vector<SubnetManagerEntry> sms;
    QString fileName;  // where it was read from (for messages, the lock and the journal)

    bool pluginMode() const { return !sms.empty() && sms.front().pluginMode(); }
    const SubnetManagerEntry *byName(const QString &name) const;
};

// The target file's text read, its relative paths taken from `fileName`'s directory. Errors name
// the file, the line and the problem: not JSON, a missing or unknown field, an SM with both or
// neither of "intent" and "lfts", SMs routing differently, two SMs with one name or one file.
Result<SubnetTarget> readSubnetTarget(const QByteArray &text, const QString &fileName);
Result<SubnetTarget> readSubnetTargetFile(const QString &path);
QByteArray writeSubnetTarget(const SubnetTarget &target);

QString smStateName(int state);  // "not active", "discovering", "standby", "master"

// What `weft target check` reports of one SM of the target.
struct SubnetManagerStatus
{
    QString name;
    QString state;         // "master", "standby", "discovering", "not active", "not running", "unknown"
    int priority = -1;     // from SMInfo; else its options' sm_priority; -1 unknown
    Guid portGuid = 0;     // 0 unknown
    QString portGuidFrom;  // "target", "options", "log", "" unknown
    Lid lid = 0;
    qint64 pid = 0;
    bool running = false;
    QString engine;        // its routing_engine chain, e.g. "weft,updn"
    QStringList problems;  // what would defeat a commit to it, one line each
};

struct SubnetCheck
{
    QString subnet;
    std::vector<SubnetManagerStatus> sms;       // in the target's order
    std::vector<SubnetManagerInfo> unknown;     // SMs on the subnet the target does not name
    QStringList problems;                       // subnet-wide: two masters, no master, unknown SMs
    const SubnetManagerStatus *master() const;  // the one SM of the target that is master, if exactly one
    bool ok() const;                            // no problem anywhere
    QString toText() const;
    QJsonObject toJson() const;
};

// Each SM of `target` judged by what the fabric says (`seen`: SMInfo of every SM port; empty
// when the fabric could not be asked, `fabricError` then says why) and by its files: its OpenSM
// running (pid file), its port (target, options `guid`, or its log's binding), its options
// (readOpenSmState, commitWarnings: the engine the target's mode needs, ucast_cache, ...).
SubnetCheck checkSubnetTarget(const SubnetTarget &target, const std::vector<SubnetManagerInfo> &seen,
                              const QString &fabricError = {});

// The commit target for a subnet as it is now: the master's files (it is SIGHUPed and verified
// by read-back), every other SM's files as standbys (verified by content), the subnet's lock.
// Refused (an Error) without exactly one master named by the target, or with an SM the target
// does not name that is master.
Result<CommitTarget> subnetCommitTarget(const SubnetTarget &target, const SubnetCheck &check);

// The journal of a subnet target: "weft-commits.jsonl" beside the target file.
QString subnetJournalPath(const SubnetTarget &target);

// The subnet as the backend finds it now (discover, then readSubnetManagers; without the latter
// the SMs are judged by their files alone), judged by checkSubnetTarget; `discovered` receives
// the fabric when discovery succeeded. The second form asks the SMs of a fabric just discovered
// (live discovery marks their ports), without discovering it again.
SubnetCheck checkSubnet(const SubnetTarget &target, const CommitBackend &backend, std::optional<Fabric> *discovered = nullptr);
SubnetCheck checkSubnet(const SubnetTarget &target, const Fabric &fabric, const CommitBackend &backend);

// A commit to every SM of the subnet: the check above, then commitPlan through the master it
// finds (subnetCommitTarget), every other SM as a standby, the journal beside the target file
// unless `options` names one. The check's problems are the report's warnings (an SM the target
// does not name is one); refused when there is not exactly one master, named by the target.
CommitReport commitToSubnet(const CommitPlan &plan, const SubnetTarget &target, const CommitBackend &backend,
                            CommitOptions options = {}, SubnetCheck *check = nullptr);
// `weft commit --recover --target`: the subnet's unfinished commit (whichever SM was master
// then) recovered through the SM that is master now, every SM's files covered.
CommitReport recoverSubnetCommit(const SubnetTarget &target, const CommitBackend &backend, CommitOptions options = {});

}  // namespace weft
