#pragma once
// The desk's self-adaptive loop (issue 13, spec 003 §8), owned by the session: an AdaptRunner
// over the session's fabric, the tables it holds and the tenancy last committed, fed by the
// session's telemetry sampler. The Autopilot dock (views/adapt) only shows it and sends the
// operator's choices: the rules, the mode, the pause switch.
//
// Each tick runs on a worker thread (its rediscovery, the only part that reads the fabric, a job
// on the session's FabricLink); what the operator does meanwhile (rules applied, mode,
// pause, a commit's outcome, new installed tables) waits for the tick to end, and a tick that
// arrives while one runs is skipped and counted. Fabric events found during a tick reach the
// rules (AdaptRunner) and the session (the map marks what changed).
//
// What a firing's plan becomes: in approve mode the chosen candidate becomes the session's
// proposal with the loop's own tenancy (not the document's edits), so the Diff Review shows it
// and nothing is committed until the operator approves; in auto mode the session commits the
// loop's own plan (FabricSession::commitChange), which the commit refuses as stale when the
// switches no longer hold what the loop planned from. Either way the loop learns the outcome.
// Whatever the fabric holds next (an operator's commit, a rediscovery) becomes the loop's
// knowledge; the tenancy an operator commits becomes the loop's tenancy. Approve and auto hold
// the target's AdaptLock, so two loops never act on one fabric.

#include "AdaptRunner.h"
#include "DocumentChanges.h"
#include "TelemetryRecord.h"

#include <QFuture>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace weft {

class FabricSession;
struct PreviewResult;

class Autopilot : public QObject
{
    Q_OBJECT

public:
    static constexpr std::size_t kRecordsKept = 1000;

    explicit Autopilot(FabricSession *session);
    ~Autopilot() override;  // waits for a running tick (the session stopped its link first: not for long)

    // The rules: refused (the parse error, "file:line:column: message") when they do not parse,
    // and then the rules in force stay (the loop logs the refusal). Without a loop yet, the rules
    // wait for one.
    Status applyRules(const QByteArray &text, const QString &fileName);
    QString appliedRulesText() const { return m_appliedText; }
    int ruleCount() const;

    // Approve and auto take the commit target's AdaptLock (auto needs a target); false, with the
    // reason in lastProblem(), when refused (the mode stays).
    bool setMode(adapt::RuleMode mode);
    adapt::RuleMode mode() const { return m_mode; }
    void setPaused(bool paused);
    bool paused() const { return m_paused; }
    // Discover the fabric again every `ticks` ticks as well as on the counters' events.
    void setRediscoverEvery(int ticks);

    // One tick of rates measured on `measured` with `silentNodes` nodes silent. The session's
    // sampler feeds it; a test may too.
    void takeTick(double time, std::vector<TelemetryRecord> records, const Fabric *measured, std::size_t silentNodes = 0);
    bool isTicking() const { return m_ticking; }
    int ticks() const { return m_ticks; }
    int skippedTicks() const { return m_skipped; }
    double lastTickTime() const { return m_lastTickTime; }
    double lastTickSeconds() const { return m_lastTickSeconds; }

    // The loop; null without a fabric with installed tables. Read it only while no tick runs.
    const adapt::AdaptLoop *loop() const { return m_runner ? &m_runner->loop() : nullptr; }
    // The change waiting in the Diff Review (approve) or being committed (auto), if any.
    const adapt::PendingChange *pendingChange() const { return m_pending ? &*m_pending : nullptr; }
    bool isCommittingChange() const { return m_committing; }
    // The records logged while this loop ran, oldest first (the last kRecordsKept), and how many
    // were logged in all (back to 0 when the loop is rebuilt for another fabric).
    const std::vector<adapt::AdaptRecord> &records() const { return m_records; }
    quint64 recordsLogged() const { return m_logged; }
    // What went wrong last (a refused lock, a refused commit, a rediscovery that failed).
    QString lastProblem() const { return m_lastProblem; }

    // The session's changes (FabricSession calls it with every announcement).
    void follow(DocumentChanges what);

Q_SIGNALS:
    // Records, stages or status changed: the dock redraws.
    void changed();
    void tickFinished();
    // The loop's change is the session's proposal now (approve): the desk shows the Diff Review.
    void changeProposed();

private:
    void rebuild();
    void withRunner(std::function<void(AdaptRunner &)> op);
    void tickDone(quint64 generation, AdaptTick outcome, double seconds);
    void handOver(adapt::PendingChange change);
    void dismissPending(const QString &why);
    void commitFinished(const CommitReport &report);
    void collectRecords();

    FabricSession *m_session;
    std::shared_ptr<AdaptRunner> m_runner;
    std::shared_ptr<const Fabric> m_fabric;                  // the fabric the runner was built for
    std::shared_ptr<const ForwardingTables> m_installed;     // the held tables it knows
    std::unique_ptr<adapt::AdaptLock> m_lock;
    quint64 m_generation = 0;  // a tick of a runner since replaced is dropped
    bool m_ticking = false;
    QFuture<void> m_tickFuture;
    int m_ticks = 0;
    int m_skipped = 0;
    double m_lastTickTime = 0;
    double m_lastTickSeconds = 0;
    int m_rediscoverEvery = 0;
    std::vector<std::function<void(AdaptRunner &)>> m_deferred;  // what waits for the tick
    // Logged since last collected: written by the loop's sink (on the tick's thread), read here
    // between ticks; one per runner, so a replaced runner's late tick writes elsewhere.
    std::shared_ptr<std::vector<adapt::AdaptRecord>> m_fresh;
    std::vector<adapt::AdaptRecord> m_records;
    quint64 m_logged = 0;
    std::optional<adapt::PendingChange> m_pending;
    std::shared_ptr<const PreviewResult> m_pendingProposal;  // the session's proposal it became (approve)
    bool m_committing = false;                               // the session commits the pending change (auto)
    bool m_proposing = false;                                // handing the pending change to the session
    adapt::RuleMode m_mode = adapt::RuleMode::DryRun;
    bool m_paused = false;
    QString m_appliedText;
    QString m_appliedFile;
    QString m_lastProblem;
};

}  // namespace weft
