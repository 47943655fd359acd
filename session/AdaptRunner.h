#pragma once
// The self-adaptive loop (routing/adapt/AdaptLoop.h) on a live fabric: the fabric events the
// port counters tell of, and the Execute stage. One runner for `weft adapt` and the desk's
// Autopilot, so that both
//  - discover the fabric again when a port counted its link going down (a cable between two
//    switches that both still answer), when a node stopped answering, or every N ticks, and give
//    the rules what changed as events (link_down, node_removed, node_added, topology_change), the
//    loop's knowledge following the fabric and the tables it holds now;
//  - commit the loop's own plan (AdaptLoop builds it with buildCommitPlan from what it knows is
//    installed and the tenancy committed, never a document's unapproved edits), through the
//    verified commit path, which refuses it as stale when the switches no longer hold what the
//    loop planned from; the knowledge then follows what the commit read back.
//
// Blocking and thread-agnostic: the command line calls it in its own loop, the desk on a worker
// thread one tick at a time (Autopilot.h).

#include "AdaptLoop.h"
#include "FabricChanges.h"
#include "LiveState.h"
#include "TelemetryRecord.h"

#include <functional>
#include <memory>
#include <vector>

namespace weft {

struct AdaptAccess
{
    // The fabric read again: topology and the tables its switches hold (LiveRead.h).
    std::function<Result<LiveState>()> rediscover;
    // The verified commit (FabricSession::commitNow, or the desk's commit path).
    std::function<CommitReport(const CommitPlan &)> commit;
};

struct AdaptTick
{
    std::vector<adapt::PendingChange> changes;  // for execution (auto) or an operator (approve)
    FabricChanges topology;                     // what a rediscovery in this tick found changed
    std::shared_ptr<const LiveState> fabricNow; // the fabric as read again, when it changed
    QString problem;                            // the rediscovery failed (the tick went on without it)
};

class AdaptRunner
{
public:
    AdaptRunner(adapt::AdaptKnowledge knowledge, adapt::AdaptLoopOptions options, AdaptAccess access);

    adapt::AdaptLoop &loop() { return m_loop; }
    const adapt::AdaptLoop &loop() const { return m_loop; }

    // Discover the fabric again every `ticks` ticks as well (0: only on the events above).
    void setRediscoverEvery(int ticks) { m_rediscoverEvery = ticks; }
    int rediscoverEvery() const { return m_rediscoverEvery; }

    // One tick of rates measured on `measured` (whose port indices the records use; rates of
    // another snapshot than the loop's are left out, the events still count) with
    // `silentNodes` nodes that did not answer: the fabric events first, then the loop's
    // Monitor, Analyze and Plan.
    AdaptTick tick(double time, std::vector<TelemetryRecord> records, const Fabric *measured, std::size_t silentNodes,
                   CandidateProgress *progress = nullptr);

    // Execute for an auto change, blocking: the verified commit of the loop's own plan; the loop
    // learns the outcome (and follows what the commit read back).
    CommitReport execute(const adapt::PendingChange &change);

private:
    adapt::AdaptLoop m_loop;
    AdaptAccess m_access;
    int m_rediscoverEvery = 0;
    bool m_rediscoveryFailed = false;  // the last discovery failed: the next tick tries again
    long long m_ticks = 0;
};

// Whether a tick's counters say a link went down (a LinkDowned counter moved).
bool linkWentDown(const std::vector<TelemetryRecord> &records);

}  // namespace weft
