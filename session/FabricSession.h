#pragma once
// The session: the one owner of what Weft knows of the fabric it manages and of what it plans
// for it. Widget-free (Qt Core), so the desk and the command line share it (and the service
// will).
//
// It holds:
//  - the connection: the adapter and port chosen (every discovery, read-back, counter pass, SM
//    lookup, commit and recovery goes through it) and the commit target: one OpenSM's files, or
//    a subnet target naming every OpenSM of the subnet (core/commit/SubnetTarget.h), then the
//    SMs as the fabric last said they are;
//  - what the fabric holds: its forwarding tables, its ports' P_Key tables and the port OpenSM
//    runs on, as a discovery read them, then as each commit read them back (HeldTables; a
//    generation counts every change). Opened from files, the tables are those of an LFT dump, or
//    none;
//  - the proposal to review, with its origin, and the plan from what the fabric holds to it,
//    with its provenance: the fabric, the held generation, the document revision and the what-if
//    events it was made from. When any of them changes the plan is rebuilt from the inputs as they
//    are now (the review re-plans), and the proposal is stale: Approve refuses and says why;
//  - the telemetry sampler and the autopilot (the self-adaptive loop's runner).
//
// The plan is built by buildCommitPlan and counted by planCommitChange (core/commit), the
// functions the commit itself uses on the tables it reads before writing; the commit is given the
// held state as the plan's expectation, so what the review shows is what Approve installs or the
// commit refuses the plan as stale. After every commit the read-back becomes what the fabric
// holds.
//
// The tenancy being edited belongs to the document (views/document), which tells the session
// each change with its revision (setFabric, followTenancy) and relays the session's changes on
// its one changed() channel. A command sets them directly.
//
// Long work (discovery, metrics of big fabrics, commits, recovery) runs on worker threads; the
// session lives on the thread that made it and announces results there. Whatever reaches the
// fabric (discoveries, SM checks, counter passes, commits, recoveries) goes through the session's
// one FabricLink, one job at a time in the order asked. The blocking forms (discoverNow,
// commitNow) are for commands, which have no event loop to wait in.

#include "Commit.h"
#include "CommitDestination.h"
#include "CommitJournal.h"
#include "DocumentChanges.h"
#include "Fabric.h"
#include "FabricLink.h"
#include "FabricChanges.h"
#include "ForwardingTables.h"
#include "LiveState.h"
#include "LocalAdapters.h"
#include "Metrics.h"
#include "ProjectFile.h"
#include "ReconfigurationCandidates.h"
#include "ReconfigurationPlan.h"
#include "RoutingProposal.h"
#include "SubnetTarget.h"
#include "Tenancy.h"
#include "TrafficModel.h"
#include "WhatIf.h"

#include <QDateTime>
#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace weft {

class Autopilot;
class TelemetrySampler;

// Where a proposal comes from, and what of the desk's state it depends on.
struct ProposalOrigin
{
    QString name;  // "Routing Preview: pftree", "Studio: slimupdate:1", "Autopilot: rule hot (full:wftree)"
    // The tenancy the plan installs. Unset: the document's as edited, followed edit by edit; any
    // edit, undo or redo after the proposal was made leaves it stale.
    std::optional<Tenancy> tenancy;
    // The what-if events it was planned for (the studio's). A plan made for events is approved
    // only as a pre-emptive plan, valid on the fabric as it is (CommitPlan::whatIf).
    WhatIf whatIf;
    bool followsWhatIf = false;  // stale when the studio's events change
    // The intent the proposal routes (the Routing Preview's: its engine and the project's
    // options; the tenancy is the plan's). A target with Weft's engine inside OpenSM
    // (CommitTarget::pluginMode) installs a plan as its intent file, so only a plan with one.
    std::optional<Project> intent;
    // The studio's candidate it is (its method and τ or policy). A target with Weft's engine inside
    // OpenSM installs a SlimUpdate or metabase candidate as the intent in force with that method
    // applied to the tables the switches hold and the what-if's failures drained
    // (IntentRouting.h: intentApplying).
    std::optional<CandidateSpec> candidate;
};

// What a plan was made from; compared with the session's state to tell whether it still holds.
struct PlanProvenance
{
    std::shared_ptr<const Fabric> fabric;
    quint64 heldGeneration = 0;
    quint64 revision = 0;
    WhatIf whatIf;
    QDateTime madeAt;
    quint64 readGeneration = 0;  // the operator's rediscoveries (FabricSession::takeRediscovered)
};

// The plan the review shows and Approve installs.
struct SessionPlan
{
    CommitPlan commit;           // what the commit installs
    ReconfigurationPlan review;  // its cost against what the fabric holds, as the commit counts it
    HeldTables against;          // what the fabric held as far as the session knew
    QString origin;              // ProposalOrigin::name
    bool fromTheFabric = false;  // the held tables were read from the fabric (else a file, or none)
    QString refusal;             // why the commit target cannot take this plan; empty: it can
    // The plan changes nothing the fabric holds (no SMP, partitions.conf as in force, and in plugin
    // mode the intent in force): Approve has nothing to install, sends nothing, journals nothing.
    bool nothingToInstall = false;
};

class FabricSession : public QObject
{
    Q_OBJECT

public:
    explicit FabricSession(QObject *parent = nullptr);
    ~FabricSession() override;  // stops the fabric link (kLinkStopOnDestruction), then its workers end

    // ---- the fabric and the tenancy as edited -------------------------------------------------

    // Another fabric, with the tenancy as opened (its partitions: the current side of diffs until
    // the fabric's own are known) and the document's revision. What it holds is unknown, unless
    // it is the fabric the last discovery read (then its tables, P_Keys and SM port). Announces.
    DocumentChanges setFabric(std::shared_ptr<const Fabric> fabric, const Tenancy &tenancy, quint64 revision);
    // The tenancy after an edit, undo or redo (`what` says which kinds changed). Returns what
    // that changed here (metrics measured anew, the plan rebuilt, the proposal stale), for the
    // caller to announce with it.
    DocumentChanges followTenancy(const Tenancy &tenancy, quint64 revision, DocumentChanges what);
    std::shared_ptr<const Fabric> fabric() const { return m_fabric; }
    const Tenancy &tenancy() const { return m_tenancy; }
    quint64 revision() const { return m_revision; }

    // ---- what the fabric holds ------------------------------------------------------------------

    const HeldTables &held() const { return m_held; }
    // Bumped whenever what the fabric holds changes as far as the session knows.
    quint64 heldGeneration() const { return m_heldGeneration; }
    // The tables the switches hold; null when none are known (every switch starts empty).
    std::shared_ptr<const ForwardingTables> currentTables() const { return m_held.lfts; }
    // "held by the switches", "read back after the commit at 12:03:04", "opensm.lfts".
    QString currentTablesName() const { return m_heldName; }
    // True when the held state was read from the fabric (a discovery, a commit's read-back).
    bool isLive() const { return m_live; }
    // Tables read from an LFT dump become the current tables (the P_Keys and SM port stay unknown).
    void setCurrentTables(std::shared_ptr<const ForwardingTables> tables, const QString &name);
    // The partitions as the fabric was opened, then as the last commit installed them.
    const std::vector<Partition> &baselinePartitions() const { return m_baselinePartitions; }
    // What the last rediscovery found changed in the fabric's topology since it was discovered;
    // while not empty, every plan is stale (discover again, then plan again).
    const FabricChanges &liveChanges() const { return m_liveChanges; }
    // What the last rediscovery found changed in the tables held (one line per kind); empty
    // when they were as the session held them.
    QStringList heldChanges() const { return m_heldChanges; }

    // ---- metrics of the current tables --------------------------------------------------------

    // The current tables measured under the tenancy and trafficModel(); null without tables and
    // while new ones are computed (listeners keep what they showed until CurrentTables says).
    std::shared_ptr<const Metrics> currentMetrics() const { return m_currentMetrics; }
    TrafficModel trafficModel() const { return m_model; }
    void setTrafficModel(const TrafficModel &model);
    bool isMeasuring() const { return m_measuring; }

    // ---- the connection and the commit target -------------------------------------------------

    // The adapter and port every access to the fabric goes through (empty, 0: the first adapter
    // and its first active port, as the diagnostic tools choose).
    void setAdapter(const QString &caName, int caPort);
    QString adapterName() const { return m_caName; }
    int adapterPort() const { return m_caPort; }
    QString adapterText() const;  // "mlx5_0 port 1", "the first adapter"
    // The local adapters, or why there are none.
    static Result<std::vector<LocalAdapter>> localAdapters();
    // The OpenSM the commits go to: its -U dump (the file engine) or its intent (Weft's engine
    // inside it); neither: none (Approve writes plan files).
    void setCommitTarget(const CommitTarget &target);
    const CommitTarget &commitTarget() const { return m_target; }
    bool hasCommitTarget() const { return m_destination != nullptr; }
    // Where every commit, recovery and journal read goes: chosen when any of the targets here is
    // set (a service, else a subnet, else one OpenSM); null without one.
    std::shared_ptr<const CommitDestination> destination() const { return m_destination; }
    // The target's journal (commits and the autopilot's records); empty without a target. With a
    // subnet target: the one beside its file.
    QString journalPath() const;

    // A remote fabric's service as the commit target (RemoteTarget); unset: OpenSM's files as
    // above. While set, every commit and recovery goes to it, the session keeps no journal of its
    // own, and after each commit it rediscovers (through the reader, setLiveReader) to learn what
    // the fabric holds.
    void setRemoteTarget(std::optional<RemoteTarget> remote);
    const std::optional<RemoteTarget> &remoteTarget() const { return m_remote; }
    // The name commits are journalled under (CommitOptions::user); empty: the login name.
    void setCommitUser(const QString &user) { m_commitUser = user; }

    // A subnet with several subnet managers: the target file naming each OpenSM and its files
    // (SubnetTarget.h); empty: none. The file is read now; one that cannot be read or is not a
    // target is the error returned, and nothing changes. While one is set every commit, recovery,
    // journal and unfinished commit goes through it (commitToSubnet, recoverSubnetCommit: through
    // the SM that is master when the commit starts, every other SM by its files); the single
    // target above is kept for when it is cleared.
    Status setSubnetTarget(const QString &path);
    // A subnet target read already (`weft adapt --target`, `weft commit --target`); none: the
    // single target again.
    void setSubnetTarget(std::optional<SubnetTarget> subnet);
    QString subnetTargetPath() const { return m_subnet ? m_subnet->fileName : QString(); }
    const std::optional<SubnetTarget> &subnetTarget() const { return m_subnet; }
    // The subnet's SMs as the fabric says they are (checkSubnet through fabricAccess()), on a
    // worker thread: subnetChecked() follows. Run after every discovery and commit while a subnet
    // target is set. Asked while one runs, another follows it. False without a subnet target.
    bool checkSubnetManagers();
    bool isCheckingSubnet() const { return m_checkingSubnet; }
    // The last check's result, until the subnet target changes.
    const std::optional<SubnetCheck> &lastSubnetCheck() const { return m_subnetCheck; }
    // The recovery of the unfinished commit (recoverCommit, or recoverSubnetCommit), with the
    // target's journal; it holds copies of the target and the fabric access, so a worker may call it.
    std::function<CommitReport(CommitOptions)> recovery() const;
    // The single target a plan is made for: with a subnet target, the SM last seen as master
    // (else its first), whose partitions.conf is the one in force, with the subnet's name and
    // lock (the autopilot's lock is the subnet's too).
    CommitTarget planningTarget() const;
    // "intent /x and /y", "subnet lab (2 SMs: sm1, sm2)": the target in a sentence.
    QString commitTargetText() const;
    // The fabric access of a commit or recovery through the chosen adapter.
    CommitBackend fabricAccess() const;
    // Another fabric access for commits and recoveries (a test's stand-in OpenSM); null: the
    // live fabric through the chosen adapter.
    void setFabricAccess(std::function<CommitBackend()> access) { m_access = std::move(access); }
    // Another reader for discoveries (a test's stand-in fabric), called on the worker thread;
    // null: readLiveState through the chosen adapter.
    void setLiveReader(std::function<Result<LiveState>()> reader) { m_reader = std::move(reader); }

    // ---- discovery ------------------------------------------------------------------------------

    // Reads the fabric through the adapter on the fabric link, after whatever it is doing (a
    // commit: the discovery reads what the commit left). A first discovery ends with
    // discovered() (the document takes the fabric; setFabric then takes what it holds); a
    // rediscovery compares it with the fabric shown: a topology change becomes liveChanges(),
    // otherwise the tables and P_Keys read become what the fabric holds. discoveryFinished()
    // follows either way. False while a discovery waits or runs, and once the link stopped.
    bool discover(bool rediscover);
    void cancelDiscovery();
    bool isDiscovering() const { return m_discovering; }
    // The same, blocking, for commands: the live state becomes the session's fabric (tenancy: the
    // partitions its P_Keys amount to) and what it holds.
    Result<LiveState> discoverNow();
    // The fabric as read again by someone else (the autopilot's rediscovery): as a rediscovery's.
    void takeRediscovered(const LiveState &state);

    // ---- what-if events ------------------------------------------------------------------------

    // The studio's events (links or switches failed, hosts removed, not applied to the fabric).
    void setWhatIf(const WhatIf &events);
    const WhatIf &whatIf() const { return m_whatIf; }

    // ---- the proposal and its plan -------------------------------------------------------------

    void setProposal(PreviewResult proposal, ProposalOrigin origin = {});
    void clearProposal();
    std::shared_ptr<const PreviewResult> proposal() const { return m_proposal; }
    const ProposalOrigin &proposalOrigin() const { return m_origin; }
    const PlanProvenance &proposalProvenance() const { return m_made; }
    // Why the proposal no longer holds (the tenancy edited, what the fabric holds changed, the
    // what-if events changed, the fabric changed); empty when it holds.
    QString staleReason() const;
    bool isProposalStale() const { return !staleReason().isEmpty(); }
    // The proposal's plan was committed by this session: the fabric holds it now.
    bool isProposalCommitted() const { return m_proposal && !m_committedProposal.isEmpty(); }
    // From what the fabric holds to the proposal, under the tenancy as it is now; null without a
    // proposal. Rebuilt whenever any input changes, so the review shows what Approve installs.
    std::shared_ptr<const SessionPlan> plan() const { return m_plan; }
    // Why Approve must not commit the plan now (none, stale, a commit running, committed
    // already); empty when it may.
    QString commitRefusal() const;

    // ---- commits ------------------------------------------------------------------------------

    // Commits the plan to the commit target on a worker thread (commitProgress(), then
    // commitFinished()). False, with *refusal, when commitRefusal() or the target says no.
    // `acceptViolations`: an operator accepted the plan's isolation violations (best-effort mode).
    bool commit(bool acceptViolations, QString *refusal = nullptr);
    // The same for a plan of another origin (the autopilot's own plan).
    bool commitChange(CommitPlan plan, const QString &origin, QString *refusal = nullptr, bool acceptViolations = false);
    bool isCommitting() const { return m_committing; }
    // Blocking, for commands: the commit, whose read-back then becomes what the fabric holds.
    CommitReport commitNow(const CommitPlan &plan, CommitOptions options);
    // Blocking, for commands: the recovery of the unfinished commit (recovery()), whose read-back
    // then becomes what the fabric holds.
    CommitReport recoverNow(CommitOptions options);
    // The same on the link, answering on this thread (the service's `POST recover`); the
    // read-back becomes what the fabric holds before `done` is called.
    void recover(CommitOptions options, std::function<void(CommitReport)> done);
    // The unfinished commit in the target's journal, if any.
    std::optional<CommitJournalEntry> unfinishedCommit() const;
    // What a commit or recovery made elsewhere read back becomes what the fabric holds.
    void adoptReadBack(const CommitReport &report);
    // The commit report of the last commit this session made, if any.
    const std::optional<CommitReport> &lastCommit() const { return m_lastCommit; }

    // ---- telemetry and the autopilot ----------------------------------------------------------

    // Port counters of the discovered fabric, through the chosen adapter (null fabric otherwise).
    TelemetrySampler *sampler() const { return m_sampler; }
    // Where the sampler keeps each fabric's history (one SQLite file per fabric); empty: the
    // user's data directory (…/telemetry).
    void setHistoryDirectory(const QString &dir);
    Autopilot *autopilot() const { return m_autopilot; }

    // ---- the fabric link ----------------------------------------------------------------------

    // The one way to the fabric: every job that sends MADs or touches OpenSM's files.
    FabricLink &link() { return *m_link; }
    const FabricLink &link() const { return *m_link; }
    static constexpr std::chrono::milliseconds kLinkStopOnDestruction{5000};

Q_SIGNALS:
    // What changed here (CurrentTables, Proposal, Plan, LiveChanges, Session, WhatIf).
    void changed(weft::DocumentChanges what);
    void discoveryProgress(const QString &step, int done, int total);
    // A first discovery read `state`: the document takes its fabric and partitions.
    void discovered(std::shared_ptr<const weft::LiveState> state);
    void discoveryFinished(bool ok, const QString &error, bool cancelled);
    void commitProgress(const QString &line);
    void commitFinished(const weft::CommitReport &report);
    // checkSubnetManagers() found the subnet so.
    void subnetChecked(const weft::SubnetCheck &check);

private:
    void announce(DocumentChanges what);
    DocumentChanges adoptHeld(HeldTables held, const QString &name, bool live);
    void adoptCommit(const CommitReport &report, bool operatorsPlan);
    void measureCurrentTables();
    void startMeasuring();
    void replan();
    bool startCommit(CommitPlan plan, bool acceptViolations, const QString &origin, bool operatorsPlan, QString *refusal);
    void updateSampler();
    bool targetPluginMode() const;
    // A commit or recovery (`kind`), named for the link's reports ("plan p3 by alice"), run on
    // the link after whatever is queued there; `done` gets its report on this thread, and is
    // dropped with the session. A link that stopped, or a job it dropped, answers with a refused
    // report saying so (nothing was written).
    void runOnLink(FabricLink::Kind kind, const QString &name, std::function<CommitReport()> work,
                   std::function<void(CommitReport)> done);
    void chooseDestination();
    QString lastMasterName() const;

    std::shared_ptr<const Fabric> m_fabric;
    Tenancy m_tenancy;
    quint64 m_revision = 0;
    std::vector<Partition> m_baselinePartitions;

    HeldTables m_held;
    QString m_heldName;
    quint64 m_heldGeneration = 0;
    bool m_live = false;
    FabricChanges m_liveChanges;
    QStringList m_heldChanges;
    std::shared_ptr<const LiveState> m_discoveredState;  // the last first discovery, until its fabric is set

    std::shared_ptr<const Metrics> m_currentMetrics;
    TrafficModel m_model;
    quint64 m_metricsGeneration = 0;
    bool m_measuring = false;
    bool m_measureRunning = false;

    QString m_caName;
    int m_caPort = 0;
    CommitTarget m_target;
    std::optional<SubnetTarget> m_subnet;
    std::optional<RemoteTarget> m_remote;
    std::shared_ptr<const CommitDestination> m_destination;  // chooseDestination(): from the three above
    QString m_commitUser;
    QString m_historyDir;
    std::optional<SubnetCheck> m_subnetCheck;
    quint64 m_subnetGeneration = 0;  // each subnet target set: a check of an earlier one is dropped
    bool m_checkingSubnet = false;
    bool m_checkSubnetAgain = false;

    bool m_discovering = false;
    bool m_rediscovering = false;
    std::shared_ptr<std::atomic_bool> m_cancelDiscovery;

    WhatIf m_whatIf;
    quint64 m_readGeneration = 0;  // every rediscovery: a plan made before it is stale
    QString m_readAt;              // "read again at 12:03:04": the last rediscovery

    std::shared_ptr<const PreviewResult> m_proposal;
    ProposalOrigin m_origin;
    PlanProvenance m_made;
    std::shared_ptr<const SessionPlan> m_plan;
    QString m_committedProposal;  // why a proposal's plan is done: "committed at 12:03:04"

    bool m_committing = false;
    std::function<CommitBackend()> m_access;
    std::function<Result<LiveState>()> m_reader;
    std::optional<CommitReport> m_lastCommit;

    TelemetrySampler *m_sampler = nullptr;
    Autopilot *m_autopilot = nullptr;

    // The fabric link and the discovery waiting or running on it. Made before the sampler and
    // the autopilot, which reach the fabric through it; stopped first when the session goes, so
    // that a thread of theirs waiting on it is released before they are deleted.
    std::unique_ptr<FabricLink> m_link;
    FabricLink::JobId m_discoveryJob = 0;
};

}  // namespace weft
