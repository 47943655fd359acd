#pragma once
// The self-adaptive loop (spec 003 §5.2, MAPE-K): Monitor (ticks of measured rates into the
// metric store), Analyze (the rule engine), Plan (AdaptPlanner), Execute (a commit through the
// verified commit path, done by the caller: the CLI with commitPlan, the desk through its Diff
// Review), Knowledge (the installed tables, tenancy and metabase, updated by what was committed).
// One loop is used from one thread; the desk runs it on the GUI thread with planning on a worker.
//
// Modes: dry-run logs what it would do; approve hands the chosen candidate to an operator and
// commits nothing; auto commits. A firing's effective mode is the most careful of the loop's
// mode, the rule's `mode` and `require_approval` (dry-run > approve > auto). Paused: rules are
// still evaluated and logged, nothing is planned or executed.
//
// Sick links: a fired rule's report(link) logs each cable its sick() terms found with the
// evidence ("sick-link"); drain(link) plans, through the drain plan `weft drain` uses
// (routing/intent/DrainPlan.h: the tables the switches hold repaired around the cables, refused
// when a pair would no longer reach each other), a drain of those the policy does not hold
// drained yet, up to the cap (drain(link, max=N); default the larger of 10 and 0.5 % of the
// cables: the rest are "drain-capped"; cables refused together are tried one by one, each
// refused one reported); undrain(link, clean=D) brings a cable the rule drained
// back once it has been drained and clean (sick() over the last D, default its window) for D,
// the fabric routed again with the cables still drained left out. Each is a PendingChange with
// its LinkChange, executed as any other through the verified commit; records "drain-refused",
// "drained", "undrained", each with the cables' evidence (LinkHealth.h). The operator's marks
// (sick and excluded links) come from loadLinkMarks. While the policy holds links drained, a
// reroute, set_weight or set_isolation firing is not planned ("plan-refused"): its candidates
// are routed on the whole fabric and would put routes back on them.
//
// Audit: every firing, suppression and cooldown record, every plan and decision, every commit
// result and every refused rules file is appended to the commit journal (when a journal path
// is set) as an entry of kind "adapt" (CommitJournalEntry::kind, with the details in its
// `adapt` object), so the journal tells the whole story beside the commits themselves.

#include "AdaptMetrics.h"
#include "AdaptPlanner.h"
#include "Commit.h"
#include "LinkHealth.h"
#include "ProjectFile.h"
#include "WhatIf.h"
#include "RuleEngine.h"
#include "RuleLanguage.h"

#include <QJsonObject>
#include <QString>

#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace weft::adapt {

// clang-format off
enum class MapeStage : std::uint8_t { Monitor, Analyze, Plan, Execute, Knowledge };
// clang-format on
inline constexpr int kMapeStageCount = 5;
QString mapeStageName(MapeStage stage);  // "monitor", "analyze", "plan", "execute", "knowledge"

struct StageState
{
    double time = 0;  // when it last did something (seconds since the epoch); 0: never
    QString text;     // "42 ports, 0.8 s", "2 rules hold", "chosen full:wftree", ...
};

// What the loop says it did, one line of the firing log and one journal entry each.
struct AdaptRecord
{
    double time = 0;
    // "fired", "suppressed", "cooldown", "planned", "no-improvement", "dry-run",
    // "awaiting-approval", "approved", "dismissed", "committed", "commit-failed", "stale",
    // "paused", "notify", "rules-loaded", "rules-refused", "plan-failed", "event";
    // sick links: "plan-refused", "sick-link", "drain-capped", "drain-refused", "undrain-refused", "drained",
    // "undrained", "drain-failed", "undrain-failed", "marks-loaded", "marks-refused";
    // "journal-failed" (the audit could not be written: in the log only, never journalled)
    QString event;
    QString rule;
    QString summary;     // one line for the log
    QJsonObject details; // firing inputs, candidate figures, decision, commit outcome
};

// Sick links drained or undrained by the policy, with the evidence that decided each.
struct LinkChange
{
    bool drain = true;
    WhatIf elements;                     // the cables, by one end each
    std::vector<LinkEvidence> evidence;  // parallel to elements.failedLinkPorts
    QString what;                        // "link S1[3]–L1[1]"
    QString method;                      // what routed: "repair", the engine, ...
};

// A link the policy holds drained.
struct PolicyDrain
{
    std::pair<Guid, int> end;
    QString name;
    QString rule;
    double since = 0;        // when the drain was committed
    bool awaiting = false;   // an undrain of it awaits approval
};

// A plan the loop wants executed (auto) or approved (approve).
struct PendingChange
{
    quint64 id = 0;
    PlannedChange plan;  // for a link change: the firing and the decision ("drain link ...")
    LinkChange links;    // a drain or undrain by the sick-link policy; empty for a reroute
    bool isLinkChange() const { return !links.evidence.empty(); }
    RuleMode mode = RuleMode::Approve;  // effective: Auto (commit it) or Approve (show it)
    CommitPlan commitPlan;              // ready for commitPlan(): tables, partitions, intent
};

struct AdaptLoopOptions
{
    RuleEngineOptions engine;
    PlannerOptions planner;
    RuleMode mode = RuleMode::DryRun;
    QString journalPath;  // empty: no audit in a journal (the in-memory log still has it)
    QString user;         // for journal entries; empty: currentUserName()
    std::size_t logLimit = 1000;  // records kept in memory
};

class AdaptLoop
{
public:
    // The knowledge's fabric must be set (the metric store names its ports); a null metabase
    // gets a fresh one.
    AdaptLoop(AdaptKnowledge knowledge, AdaptLoopOptions options = {});

    // Parses a rules file. On an error the previous rules stay in force, a "rules-refused" record
    // is logged and the error returned (its message "file:line:column: message", file and line
    // left empty so that toString() prints it as it stands).
    Status loadRules(const QByteArray &text, const QString &fileName);
    const std::vector<Rule> &rules() const { return m_engine.rules(); }
    RuleEngine &engine() { return m_engine; }

    // The operator's link marks file (LinkHealth.h: `sick NODE[PORT]`, `exclude NODE[PORT]`). On
    // an error the previous marks stay, a "marks-refused" record is logged and the error returned.
    Status loadLinkMarks(const QByteArray &text, const QString &fileName);
    // The links the policy holds drained (drained by a rule's drain(link), not undrained since).
    const std::vector<PolicyDrain> &policyDrained() const { return m_policyDrained; }

    void setMode(RuleMode mode);
    RuleMode mode() const { return m_options.mode; }
    void setPaused(bool paused);
    bool paused() const { return m_paused; }

    // A topology or tenancy event seen by the monitor: event(E) terms, and for topology events
    // the metabase is invalidated (AdaptKnowledge::topologyChanged).
    void noteEvent(RuleEvent event);

    // Monitor, Analyze and Plan on one tick of rates. Returns the changes to execute (auto) or
    // to show for approval; dry-run and paused return none. Planning runs here, synchronously.
    // The store keeps max(the rules' longest window, 3 x each reroute's learning window, 60 s).
    // Per firing: its record (fired, suppressed, cooldown, with RuleFiring::toJson); when fired
    // and not paused, a "notify" record per notify action, and for rules that change routing
    // (reroute, set_weight, set_isolation) "planned" (PlannedChange::toJson), then
    // "no-improvement", "dry-run" or, for approve, "awaiting-approval".
    std::vector<PendingChange> tick(double time, std::vector<TelemetryRecord> records,
                                    CandidateProgress *progress = nullptr);

    // The Execute stage's outcome for a change tick() returned: committed changes become the
    // knowledge (installed tables, tenancy with its weights and policies, the planned partitions
    // as currentPartitions); others are logged ("stale" or "commit-failed", with the report).
    // An Approve change logs "approved" first.
    void executed(const PendingChange &change, const CommitReport &report);
    // Approve mode: the operator approved (then executed() follows) or dismissed a change.
    void dismissed(const PendingChange &change, const QString &why);
    // The installed tables changed behind the loop (an operator's commit): the knowledge follows.
    // A new fabric snapshot starts the metric store afresh (its ticks name the old one's ports),
    // and one of another topology (topologyFingerprint) invalidates the metabase.
    void setInstalled(std::shared_ptr<const Fabric> fabric, std::shared_ptr<const ForwardingTables> installed);
    // The tenancy the switches hold now (partitions, policies, weights) and the partitions of
    // OpenSM's file, after an operator committed them; the loop plans from these from then on.
    // (Edits an operator has not committed are not the loop's business: it plans from what is
    // installed.)
    void setTenancy(Tenancy tenancy, std::vector<Partition> currentPartitions);
    // The traffic model the candidates' link load is modelled with.
    void setTrafficModel(TrafficModel model);

    const AdaptKnowledge &knowledge() const { return m_knowledge; }
    const MetricStore &store() const { return m_store; }
    const StageState &stage(MapeStage stage) const { return m_stages[std::size_t(stage)]; }
    const std::deque<AdaptRecord> &log() const { return m_log; }
    // Called for every record as it is logged (the desk's firing log, the CLI's output).
    void setRecordSink(std::function<void(const AdaptRecord &)> sink) { m_sink = std::move(sink); }

private:
    void record(AdaptRecord record);
    void setStage(MapeStage stage, double time, QString text);
    void planAndDecide(const RuleFiring &firing, std::vector<PendingChange> &changes, CandidateProgress *progress);
    CommitPlan commitPlanFor(const PlannedChange &plan) const;
    void reportSickLinks(const RuleFiring &firing);
    void planDrain(const RuleFiring &firing, const Action &drain, std::vector<PendingChange> &changes);
    void planUndrains(double time, std::vector<PendingChange> &changes);
    void proposeLinkChange(const RuleFiring &firing, RuleMode mode, LinkChange change, std::vector<PendingChange> &changes);
    void linkChangeExecuted(const PendingChange &change, const CommitReport &report);
    Project linkChangeIntent(const LinkChange &change) const;
    QStringList linkChangeProblems(const LinkChange &change) const;
    void recordRefusal(const RuleFiring &firing, const LinkChange &change, const QStringList &problems);
    bool policyHolds(const std::pair<Guid, int> &end) const;

    AdaptKnowledge m_knowledge;
    AdaptLoopOptions m_options;
    MetricStore m_store;
    RuleEngine m_engine;
    bool m_paused = false;
    quint64 m_nextId = 1;
    quint64 m_recordCount = 0;  // journal ids: "adapt-N-<epoch ms>"
    StageState m_stages[kMapeStageCount];
    std::deque<AdaptRecord> m_log;
    std::vector<PolicyDrain> m_policyDrained;
    std::function<void(const AdaptRecord &)> m_sink;
};

// The most careful of two modes (dry-run > approve > auto).
RuleMode carefulMode(RuleMode a, RuleMode b);

// One loop per OpenSM target: an exclusive lock (flock) on "<OpenSM's -U file>.weft-adapt-lock"
// held while a loop runs in approve or auto mode, so that two loops never act on one fabric. The
// refusal names the holder (CommitLock::holderText form). Commits themselves still take the
// commit lock, which keeps a loop and an operator from committing at once.
class AdaptLock
{
public:
    ~AdaptLock();
    AdaptLock(const AdaptLock &) = delete;
    AdaptLock &operator=(const AdaptLock &) = delete;
    static Result<std::unique_ptr<AdaptLock>> acquire(const CommitTarget &target);
    QString path() const { return m_path; }

private:
    // The flock is CommitLock's (one implementation of the lock file and its holder text).
    explicit AdaptLock(std::unique_ptr<CommitLock> lock);
    std::unique_ptr<CommitLock> m_lock;
    QString m_path;
};
QString adaptLockPath(const CommitTarget &target);

}  // namespace weft::adapt
