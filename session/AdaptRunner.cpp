#include "AdaptRunner.h"

#include <algorithm>

namespace weft {

using namespace adapt;

bool linkWentDown(const std::vector<TelemetryRecord> &records)
{
    return std::any_of(records.begin(), records.end(), [](const TelemetryRecord &r) {
        const CounterDelta &downed = r.rates.errors[std::size_t(PortErrorCounter::LinkDowned)];
        return downed.ok() && downed.delta > 0;
    });
}

AdaptRunner::AdaptRunner(AdaptKnowledge knowledge, AdaptLoopOptions options, AdaptAccess access)
    : m_loop(std::move(knowledge), std::move(options)), m_access(std::move(access))
{
}

AdaptTick AdaptRunner::tick(double time, std::vector<TelemetryRecord> records, const Fabric *measured, std::size_t silentNodes,
                            CandidateProgress *progress)
{
    AdaptTick outcome;
    ++m_ticks;
    // Rates of another snapshot name other ports: the loop never sees them.
    if (measured != m_loop.knowledge().fabric.get())
        records.clear();
    const bool due = m_rediscoverEvery > 0 && m_ticks % m_rediscoverEvery == 0;
    // A discovery that failed is tried again at the next tick, whatever that tick shows: the
    // change that called for it is still to be learnt.
    if ((silentNodes > 0 || linkWentDown(records) || due || m_rediscoveryFailed) && m_access.rediscover) {
        Result<LiveState> now = m_access.rediscover();
        m_rediscoveryFailed = !now;
        if (!now) {
            outcome.problem = now.error().toString();
        } else if (const std::shared_ptr<const Fabric> &known = m_loop.knowledge().fabric; known) {
            outcome.topology = compareFabrics(*known, *now->fabric);
            if (!outcome.topology.empty()) {
                if (!outcome.topology.linksGone.isEmpty())
                    m_loop.noteEvent(RuleEvent::LinkDown);
                if (!outcome.topology.nodesGone.isEmpty())
                    m_loop.noteEvent(RuleEvent::NodeRemoved);
                if (!outcome.topology.nodesNew.isEmpty())
                    m_loop.noteEvent(RuleEvent::NodeAdded);
                m_loop.noteEvent(RuleEvent::TopologyChange);
                // The knowledge follows the fabric and what its switches hold now; this tick's
                // rates are of the fabric before.
                m_loop.setInstalled(now->fabric, now->held.lfts);
                records.clear();
                outcome.fabricNow = std::make_shared<const LiveState>(std::move(*now));
            }
        }
    }
    outcome.changes = m_loop.tick(time, std::move(records), progress);
    return outcome;
}

CommitReport AdaptRunner::execute(const PendingChange &change)
{
    CommitReport report;
    if (!m_access.commit) {
        report.outcome = CommitOutcome::Refused;
        report.reasons << QStringLiteral("no commit path");
    } else {
        report = m_access.commit(change.commitPlan);
    }
    m_loop.executed(change, report);
    return report;
}

}  // namespace weft
