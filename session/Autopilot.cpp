#include "Autopilot.h"

#include "FabricSession.h"
#include "LiveRead.h"
#include "ReconfigurationCandidates.h"
#include "RuleLanguage.h"
#include "TelemetrySampler.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QtConcurrent/QtConcurrentRun>

namespace weft {

using namespace adapt;

Autopilot::Autopilot(FabricSession *session)
    : QObject(session), m_session(session)
{
    connect(m_session->sampler(), &TelemetrySampler::sampled, this, [this] {
        TelemetrySampler *sampler = m_session->sampler();
        const std::vector<TelemetryRecord> &records = sampler->latest();
        const double time = records.empty() ? double(QDateTime::currentMSecsSinceEpoch()) / 1000 : records.front().time;
        // A sampler without a fabric of its own is fed rates of the session's (a synthetic source).
        const Fabric *measured = sampler->fabric() ? sampler->fabric().get() : m_session->fabric().get();
        takeTick(time, records, measured, sampler->latestSilentNodes().size());
    });
    connect(m_session, &FabricSession::commitFinished, this, &Autopilot::commitFinished);
}

Autopilot::~Autopilot()
{
    // The worker holds the runner (shared), and its record sink writes into a vector it shares too.
    m_tickFuture.waitForFinished();
}

// ---- the session -------------------------------------------------------------------------------

void Autopilot::follow(DocumentChanges what)
{
    if (what & DocumentChange::Fabric) {
        rebuild();
        return;
    }
    if (what & DocumentChange::CurrentTables) {
        const std::shared_ptr<const ForwardingTables> tables = m_session->currentTables();
        if (!m_runner || !tables) {
            if (tables != m_installed)
                rebuild();
        } else if (tables != m_installed) {
            // An operator's commit, a rediscovery, a dump opened: the loop plans from these.
            m_installed = tables;
            withRunner([fabric = m_fabric, tables](AdaptRunner &runner) { runner.loop().setInstalled(fabric, tables); });
        }
        withRunner([model = m_session->trafficModel()](AdaptRunner &runner) { runner.loop().setTrafficModel(model); });
    }
    if ((what & DocumentChange::Proposal) && m_pending && !m_committing && !m_proposing && m_pending->mode == RuleMode::Approve
        && m_session->proposal() != m_pendingProposal && !m_session->isCommitting())
        dismissPending(tr("the operator replaced or dropped the proposal"));
}

void Autopilot::rebuild()
{
    ++m_generation;
    m_runner.reset();
    m_fresh.reset();
    m_pending.reset();
    m_pendingProposal.reset();
    m_committing = false;
    m_deferred.clear();
    m_records.clear();
    m_logged = 0;
    m_fabric = m_session->fabric();
    m_installed = m_session->currentTables();
    if (m_fabric && m_installed) {
        AdaptKnowledge knowledge;
        knowledge.fabric = m_fabric;
        knowledge.installed = m_installed;
        // What is installed, not what an operator is editing: the partitions as the fabric holds
        // them (its P_Keys, or as opened), the policies and weights as they stand.
        knowledge.tenancy = m_session->tenancy();
        knowledge.tenancy.partitions = m_session->baselinePartitions();
        knowledge.currentPartitions = m_session->baselinePartitions();
        knowledge.model = m_session->trafficModel();
        AdaptLoopOptions options;
        options.mode = m_mode;
        options.journalPath = m_session->journalPath();  // the Commit Journal shows both
        AdaptAccess access;
        const LiveOptions live = [this] {
            LiveOptions o;
            o.caName = m_session->adapterName();
            o.caPort = m_session->adapterPort();
            return o;
        }();
        const QString conf = m_session->planningTarget().partitionsPath;
        // The tick runs on a worker thread; its reading of the fabric waits its turn on the
        // session's link like any other discovery (and gives up when the link stops).
        if (m_session->isLive())
            access.rediscover = [link = m_session->link().caller(), name = tr("the autopilot's rediscovery"), live, conf] {
                return link.call(FabricLink::Kind::Discovery, name, [live, conf](const FabricLink::Job &job) {
                    return readLiveState(live, conf, {}, job.stopFlag());
                });
            };
        m_runner = std::make_shared<AdaptRunner>(std::move(knowledge), options, std::move(access));
        m_runner->setRediscoverEvery(m_rediscoverEvery);
        // The sink runs on the tick's worker thread: it writes only into this runner's own
        // vector, which is read here once the tick is over.
        auto fresh = std::make_shared<std::vector<AdaptRecord>>();
        m_fresh = fresh;
        m_runner->loop().setRecordSink([fresh](const AdaptRecord &record) { fresh->push_back(record); });
        m_runner->loop().setPaused(m_paused);
        if (!m_appliedText.isEmpty())
            m_runner->loop().loadRules(m_appliedText.toUtf8(), m_appliedFile);
        collectRecords();
    }
    Q_EMIT changed();
}

void Autopilot::withRunner(std::function<void(AdaptRunner &)> op)
{
    if (!m_runner)
        return;
    if (m_ticking) {
        m_deferred.push_back(std::move(op));
        return;
    }
    op(*m_runner);
    collectRecords();
    Q_EMIT changed();
}

void Autopilot::collectRecords()
{
    if (!m_fresh || m_fresh->empty())
        return;
    std::vector<AdaptRecord> fresh = std::move(*m_fresh);
    m_fresh->clear();
    m_logged += fresh.size();
    m_records.insert(m_records.end(), fresh.begin(), fresh.end());
    if (m_records.size() > kRecordsKept)
        m_records.erase(m_records.begin(), m_records.end() - std::ptrdiff_t(kRecordsKept));
}

// ---- rules, mode, pause --------------------------------------------------------------------------

Status Autopilot::applyRules(const QByteArray &text, const QString &fileName)
{
    const RuleFile parsed = parseRules(text, fileName);
    // The loop logs a refusal (and keeps its rules) as well as taking good rules.
    withRunner([text, fileName](AdaptRunner &runner) { runner.loop().loadRules(text, fileName); });
    if (parsed.error)
        return Error{{}, 0, parsed.error->toString()};
    m_appliedText = QString::fromUtf8(text);
    m_appliedFile = fileName;
    Q_EMIT changed();
    return Done{};
}

int Autopilot::ruleCount() const
{
    if (m_runner && !m_ticking)
        return int(m_runner->loop().rules().size());
    return m_appliedText.isEmpty() ? 0 : int(parseRules(m_appliedText.toUtf8(), m_appliedFile).rules.size());
}

bool Autopilot::setMode(RuleMode mode)
{
    if (mode != RuleMode::DryRun) {
        // With a subnet target, the subnet's lock: one loop per subnet, whichever SM is master.
        const CommitTarget target = m_session->planningTarget();
        if (mode == RuleMode::Auto && target.routingFile().isEmpty()) {
            m_lastProblem = tr("Auto mode needs a commit target (Fabric ▸ Commit Target…).");
            Q_EMIT changed();
            return false;
        }
        if (!target.routingFile().isEmpty() && !m_lock) {
            Result<std::unique_ptr<AdaptLock>> lock = AdaptLock::acquire(target);
            if (!lock) {
                m_lastProblem = tr("The autopilot stays in dry run: %1").arg(lock.error().toString());
                Q_EMIT changed();
                return false;
            }
            m_lock = std::move(lock).value();
        }
    } else {
        m_lock.reset();
    }
    m_lastProblem.clear();
    m_mode = mode;
    withRunner([mode](AdaptRunner &runner) { runner.loop().setMode(mode); });
    if (mode == RuleMode::DryRun && m_pending && !m_committing)
        dismissPending(tr("the autopilot was set to dry run"));
    Q_EMIT changed();
    return true;
}

void Autopilot::setPaused(bool paused)
{
    if (paused == m_paused)
        return;
    m_paused = paused;
    withRunner([paused](AdaptRunner &runner) { runner.loop().setPaused(paused); });
    Q_EMIT changed();
}

void Autopilot::setRediscoverEvery(int ticks)
{
    m_rediscoverEvery = std::max(0, ticks);
    withRunner([ticks = m_rediscoverEvery](AdaptRunner &runner) { runner.setRediscoverEvery(ticks); });
}

// ---- ticks ---------------------------------------------------------------------------------------

void Autopilot::takeTick(double time, std::vector<TelemetryRecord> records, const Fabric *measured, std::size_t silentNodes)
{
    if (!m_runner) {
        Q_EMIT changed();
        return;
    }
    if (m_ticking) {
        ++m_skipped;
        Q_EMIT changed();
        return;
    }
    m_ticking = true;
    ++m_ticks;
    m_lastTickTime = time;
    Q_EMIT changed();
    struct Outcome
    {
        AdaptTick tick;
        double seconds = 0;
    };
    auto outcome = std::make_shared<Outcome>();
    std::shared_ptr<AdaptRunner> runner = m_runner;
    const quint64 generation = m_generation;
    m_tickFuture = QtConcurrent::run([runner, time, records = std::move(records), measured, silentNodes, outcome]() mutable {
        QElapsedTimer timer;
        timer.start();
        outcome->tick = runner->tick(time, std::move(records), measured, silentNodes);
        outcome->seconds = double(timer.nsecsElapsed()) / 1e9;
    });
    // Always back through the event loop, even when the worker was done before this line: a tick
    // is over only once takeTick has returned, so a tick that comes meanwhile is always skipped.
    m_tickFuture.then(this, [this, generation, outcome] {
        QMetaObject::invokeMethod(
            this, [this, generation, outcome] { tickDone(generation, std::move(outcome->tick), outcome->seconds); },
            Qt::QueuedConnection);
    });
}

void Autopilot::tickDone(quint64 generation, AdaptTick outcome, double seconds)
{
    m_ticking = false;
    const bool current = generation == m_generation;
    if (current)
        m_lastTickSeconds = seconds;
    std::vector<std::function<void(AdaptRunner &)>> deferred = std::move(m_deferred);
    m_deferred.clear();
    if (m_runner)
        for (const auto &op : deferred)
            op(*m_runner);
    collectRecords();
    if (current) {
        if (!outcome.problem.isEmpty())
            m_lastProblem = tr("Discovering the fabric again failed: %1").arg(outcome.problem);
        if (outcome.fabricNow)
            m_session->takeRediscovered(*outcome.fabricNow);  // the map marks what changed
        for (PendingChange &change : outcome.changes)
            handOver(std::move(change));
    }
    collectRecords();
    Q_EMIT changed();
    Q_EMIT tickFinished();
}

void Autopilot::handOver(PendingChange change)
{
    const auto dismiss = [this, &change](const QString &why) {
        m_runner->loop().dismissed(change, why);
        m_lastProblem = why;
    };
    if (m_paused || m_mode == RuleMode::DryRun)
        return dismiss(tr("autonomy was paused or set to dry run while the change was planned"));
    const CandidateResult *chosen = change.plan.chosenCandidate();
    if (!chosen && !change.isLinkChange())
        return dismiss(tr("the plan chose no candidate"));
    // A sick link's drain or undrain has no candidate to review beside others: unattended only.
    if (change.isLinkChange() && change.mode != RuleMode::Auto)
        return dismiss(tr("the desk does not review a sick link's %1 yet: set the rule to auto, or use weft drain").arg(change.plan.decision));
    if (m_pending) {
        if (m_committing || m_session->isCommitting())
            return dismiss(tr("an earlier change is still being committed"));
        dismissPending(tr("a newer plan replaced it"));
    }
    const QString origin = tr("Autopilot: rule %1 (%2)").arg(change.plan.firing.rule, chosen ? chosen->name : change.plan.decision);
    if (change.mode == RuleMode::Auto) {
        // The loop's own plan, made from what it knows is installed: never the document's edits.
        QString refusal;
        m_pending = std::move(change);
        m_committing = true;
        if (!m_session->commitChange(m_pending->commitPlan, origin, &refusal)) {
            m_committing = false;
            dismissPending(tr("the unattended commit was refused: %1").arg(refusal));
            m_lastProblem = tr("Unattended commit refused: %1").arg(refusal);
        }
        return;
    }
    Result<PreviewResult> proposal = candidateProposal(change.plan.study, *chosen, m_session->currentTables(), m_session->currentTablesName());
    if (!proposal)
        return dismiss(proposal.error().toString());
    ProposalOrigin from;
    from.name = origin;
    from.tenancy = change.plan.tenancy;
    m_lastProblem.clear();
    m_pending = std::move(change);
    m_proposing = true;  // the session announces the new proposal: it is this one, not a replacement
    m_session->setProposal(std::move(proposal).value(), std::move(from));
    m_proposing = false;
    m_pendingProposal = m_session->proposal();
    Q_EMIT changeProposed();
}

void Autopilot::dismissPending(const QString &why)
{
    if (!m_pending)
        return;
    PendingChange change = std::move(*m_pending);
    m_pending.reset();
    m_pendingProposal.reset();
    withRunner([change = std::move(change), why](AdaptRunner &runner) { runner.loop().dismissed(change, why); });
    Q_EMIT changed();
}

void Autopilot::commitFinished(const CommitReport &report)
{
    const bool ours = m_pending && (m_committing || (m_pendingProposal && m_session->proposal() == m_pendingProposal));
    if (!ours) {
        // An operator's commit: the loop plans from the tenancy committed from now on (the tables
        // it read back reach it as CurrentTables).
        if (report.ok())
            if (const std::shared_ptr<const SessionPlan> plan = m_session->plan(); plan && plan->commit.intent)
                withRunner([tenancy = *plan->commit.intent, partitions = plan->review.plannedPartitions](AdaptRunner &runner) {
                    runner.loop().setTenancy(tenancy, partitions);
                });
        return;
    }
    PendingChange change = std::move(*m_pending);
    m_pending.reset();
    m_pendingProposal.reset();
    m_committing = false;
    if (report.held.lfts)
        m_installed = m_session->currentTables();  // the session took the read-back; the loop knows it (executed)
    withRunner([change = std::move(change), report](AdaptRunner &runner) { runner.loop().executed(change, report); });
    if (!report.ok())
        m_lastProblem = tr("The autopilot's commit: %1").arg(commitOutcomeName(report.outcome));
    Q_EMIT changed();
}

}  // namespace weft
