#pragma once
// Where commits go, chosen once when the target is set: the OpenSM files of one SM (the file
// engine's -U dump), Weft's engine inside one OpenSM (its intent), every SM of a subnet, or a
// remote fabric's service. Whoever commits (the session for the desk, `weft commit`, `weft lab`,
// `weft adapt` and `weft serve`) holds one destination and makes every call through it: the
// kind is decided in commitDestination() and nowhere else.

#include "Commit.h"
#include "CommitJournal.h"
#include "ReconfigurationPlan.h"
#include "SubnetTarget.h"

#include <QString>

#include <functional>
#include <memory>
#include <optional>

namespace weft {

// A commit target reached through Weft's service (`weft serve`, docs/service-api.md) instead of
// OpenSM's files: the desk connected to a remote fabric. The service plans the same change on
// what the fabric holds there and commits it through its own target; `commit` blocks (call it
// from a worker) and answers with the service's report (no read-back tables: the caller
// rediscovers).
struct RemoteTarget
{
    QString description;      // "subnet lab through the fabric service at sm1:8443"
    QString via;              // "the fabric service at sm1:8443": how the fabric is reached (adapterText)
    bool pluginMode = false;  // the service's target routes with Weft's engine inside OpenSM
    std::function<CommitReport(const CommitPlan &plan, const CommitOptions &options)> commit;
    // The service's unfinished commit, if any (optional).
    std::function<std::optional<CommitJournalEntry>()> unfinished;
    // Its recovery (optional): `weft commit --recover` there.
    std::function<CommitReport(CommitOptions)> recover;
};

class CommitDestination
{
public:
    enum class Kind { OpenSmFiles, OpenSmIntent, Subnet, Service };

    virtual ~CommitDestination() = default;

    virtual Kind kind() const = 0;
    // Plans must be intents (CommitPlan::intentFile): Weft's engine inside OpenSM routes them.
    virtual bool installsIntents() const = 0;

    // ---- planning --------------------------------------------------------------------------------
    // The one OpenSM a plan is made for: its partitions.conf is the one in force, its lock the
    // commit's. `master`: the SM of a subnet last seen as master (empty: its first). Empty for a
    // service (it plans on its own side).
    virtual CommitTarget planningTarget(const QString &master = {}) const = 0;
    // The partitions OpenSM reads now, as a commit's diff counts from them; none when they cannot
    // be read from here (a service's).
    virtual std::optional<PartitionsState> partitionsInForce(const QString &master = {}) const;

    // ---- committing ------------------------------------------------------------------------------
    // Blocking: run it off the GUI thread. `options.journalPath` empty: journalPath().
    virtual CommitReport commit(const CommitPlan &plan, const CommitBackend &access, CommitOptions options) const = 0;
    // The unfinished commit in the journal verified or rolled back (`weft commit --recover`).
    virtual CommitReport recover(const CommitBackend &access, CommitOptions options) const = 0;
    // The report carries the tables read back; else (a service) the caller learns what the fabric
    // holds by discovering it again.
    virtual bool readsBack() const { return true; }

    // ---- the journal -----------------------------------------------------------------------------
    // Where commits and the autopilot's records are journalled; empty: nowhere here (a service
    // keeps its own).
    virtual QString journalPath() const = 0;
    // The commit the journal holds without an outcome, if any.
    virtual std::optional<CommitJournalEntry> unfinished() const = 0;
};

// The destination of one OpenSM's files: its intent when the target names one (Weft's engine
// inside OpenSM), else its -U dump; null when it names neither.
std::shared_ptr<const CommitDestination> commitDestination(const CommitTarget &target);
// Every SM of a subnet, through the master each commit finds.
std::shared_ptr<const CommitDestination> commitDestination(const SubnetTarget &subnet);
// A remote fabric's service.
std::shared_ptr<const CommitDestination> commitDestination(const RemoteTarget &remote);

}  // namespace weft
