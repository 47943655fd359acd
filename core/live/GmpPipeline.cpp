#include "GmpPipeline.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace weft {

namespace {

double nowMs()
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

constexpr int kLongestWaitMs = 100;  // between looks at keepGoing when nothing comes
// With overdueAfterMs: outstanding requests in all, in window ceilings. Lost requests wait out
// their deadline: at a loss rate of 5 % and 40,000 requests a second, 600 of them at 200 ms.
constexpr int kOverdueCeilings = 16;

}  // namespace

GmpPipeline::GmpPipeline(GmpTransport &transport, GmpPipelineOptions options, int destinations)
    : m_transport(transport), m_options(options), m_queued(std::size_t(std::max(0, destinations))),
      m_inFlightAt(std::size_t(std::max(0, destinations)), 0), m_inRotation(std::size_t(std::max(0, destinations)), 0)
{
    m_options.maxInFlight = std::max(1, m_options.maxInFlight);
    m_options.perDestination = std::max(1, m_options.perDestination);
    m_options.timeoutMs = std::max(1, m_options.timeoutMs);
    m_options.retries = std::max(0, m_options.retries);
    m_window = std::clamp(double(m_options.initialWindow), 1.0, double(m_options.maxInFlight));
}

void GmpPipeline::submit(int destination, const GmpRequest &request, std::uint64_t tag)
{
    std::size_t job;
    if (!m_freeJobs.empty()) {
        job = m_freeJobs.back();
        m_freeJobs.pop_back();
    } else {
        job = m_jobs.size();
        m_jobs.emplace_back();
    }
    m_jobs[job] = Job{request, tag, destination, 0};
    m_queued[std::size_t(destination)].push_back(job);
    if (!m_inRotation[std::size_t(destination)]) {
        m_inRotation[std::size_t(destination)] = 1;
        m_rotation.push_back(destination);
    }
}

std::size_t GmpPipeline::dropQueued(int destination)
{
    std::deque<std::size_t> &queue = m_queued[std::size_t(destination)];
    const std::size_t dropped = queue.size();
    for (std::size_t job : queue)
        releaseJob(job);
    queue.clear();
    return dropped;
}

void GmpPipeline::releaseJob(std::size_t job)
{
    m_freeJobs.push_back(job);
}

std::size_t GmpPipeline::countedInFlight(double now) const
{
    if (m_options.overdueAfterMs <= 0)
        return m_outstanding.size();
    const double overdue = std::max(double(m_options.overdueAfterMs), 8 * m_smoothedRoundTrip);
    std::size_t counted = 0;
    for (const Outstanding &o : m_outstanding)
        counted += now - o.sentAt <= overdue;
    return counted;
}

bool GmpPipeline::overdueMakesRoom(int destination) const
{
    // As for the window: overdue requests stop counting at their destination, up to twice its limit.
    if (m_options.overdueAfterMs <= 0 || m_inFlightAt[std::size_t(destination)] >= 2 * m_options.perDestination)
        return false;
    const double now = nowMs();
    const double overdue = std::max(double(m_options.overdueAfterMs), 8 * m_smoothedRoundTrip);
    int counted = 0;
    for (const Outstanding &o : m_outstanding)
        counted += m_jobs[o.job].destination == destination && now - o.sentAt <= overdue;
    return counted < m_options.perDestination;
}

bool GmpPipeline::sendOne()
{
    if (m_outstanding.size() >= std::size_t(m_window)) {
        if (m_options.overdueAfterMs <= 0 || m_outstanding.size() >= std::size_t(kOverdueCeilings * m_options.maxInFlight)
            || countedInFlight(nowMs()) >= std::size_t(m_window))
            return false;
    }
    for (std::size_t tries = m_rotation.size(); tries > 0; --tries) {
        const int destination = m_rotation.front();
        m_rotation.pop_front();
        std::deque<std::size_t> &queue = m_queued[std::size_t(destination)];
        if (queue.empty()) {
            m_inRotation[std::size_t(destination)] = 0;
            continue;
        }
        if (m_inFlightAt[std::size_t(destination)] >= m_options.perDestination && !overdueMakesRoom(destination)) {
            m_rotation.push_back(destination);
            continue;
        }
        const std::size_t job = queue.front();
        queue.pop_front();
        if (queue.empty())
            m_inRotation[std::size_t(destination)] = 0;
        else
            m_rotation.push_back(destination);

        const std::uint32_t tid = m_transport.nextTid();
        ++m_jobs[job].attempts;
        if (!m_transport.send(m_jobs[job].request, tid, m_options.timeoutMs)) {
            m_sendFailed = true;
            ++m_stats.failed;
            const std::uint64_t tag = m_jobs[job].tag;
            releaseJob(job);
            if (m_onFailure)
                m_onFailure(tag);
            return true;
        }
        ++m_sends;
        ++m_stats.sent;
        ++m_inFlightAt[std::size_t(destination)];
        // The transport is told the timeout too (a kernel reports the loss itself); the deadline
        // here is the safety net for one that does not.
        const double sentAt = nowMs();
        const double deadline = sentAt + m_options.timeoutMs + std::max(20, m_options.timeoutMs / 2);
        m_outstanding.push_back(Outstanding{job, tid, deadline, m_sends, sentAt});
        m_stats.peakInFlight = std::max(m_stats.peakInFlight, int(m_outstanding.size()));
        return true;
    }
    return false;
}

std::size_t GmpPipeline::findOutstanding(std::uint32_t tid) const
{
    for (std::size_t i = 0; i < m_outstanding.size(); ++i)
        if (m_outstanding[i].tid == tid)
            return i;
    return m_outstanding.size();
}

void GmpPipeline::complete(std::size_t slot, const GmpEvent &event)
{
    const std::size_t job = m_outstanding[slot].job;
    const double roundTrip = nowMs() - m_outstanding[slot].sentAt;
    m_smoothedRoundTrip = m_smoothedRoundTrip > 0 ? 0.875 * m_smoothedRoundTrip + 0.125 * roundTrip : roundTrip;
    m_outstanding[slot] = m_outstanding.back();
    m_outstanding.pop_back();
    --m_inFlightAt[std::size_t(m_jobs[job].destination)];
    ++m_stats.answered;
    const bool regrowing = m_options.regrowAfterLoss && m_window < m_regrowTo;
    m_window = std::min(double(m_options.maxInFlight), m_window + (m_slowStart || regrowing ? 1.0 : 1.0 / m_window));
    const std::uint64_t tag = m_jobs[job].tag;
    releaseJob(job);
    if (m_onAnswer)
        m_onAnswer(tag, event);
}

void GmpPipeline::lose(std::size_t slot)
{
    const Outstanding lost = m_outstanding[slot];
    m_outstanding[slot] = m_outstanding.back();
    m_outstanding.pop_back();
    Job &job = m_jobs[lost.job];
    --m_inFlightAt[std::size_t(job.destination)];
    ++m_stats.timeouts;
    // Once per round trip: losses of requests sent before the last halving do not halve again.
    if (lost.sequence > m_lastDecrease) {
        m_regrowTo = m_window;
        m_window = std::max(1.0, std::floor(m_window / 2));
        m_lastDecrease = m_sends;
        m_slowStart = false;
    }
    if (job.attempts <= m_options.retries) {
        ++m_stats.resent;
        const int destination = job.destination;
        m_queued[std::size_t(destination)].push_front(lost.job);
        if (!m_inRotation[std::size_t(destination)]) {
            m_inRotation[std::size_t(destination)] = 1;
            m_rotation.push_front(destination);
        }
        return;
    }
    ++m_stats.failed;
    const std::uint64_t tag = job.tag;
    releaseJob(lost.job);
    if (m_onFailure)
        m_onFailure(tag);
}

bool GmpPipeline::run(const std::function<bool()> &keepGoing)
{
    for (;;) {
        while (sendOne()) {
        }
        if (m_outstanding.empty()) {
            // Nothing in flight and nothing could be sent: everything queued is done.
            return !(m_sendFailed && m_stats.answered == 0);
        }
        double earliest = m_outstanding.front().deadline;
        for (const Outstanding &o : m_outstanding)
            earliest = std::min(earliest, o.deadline);
        const int waitMs = std::clamp(int(std::ceil(earliest - nowMs())), 0, kLongestWaitMs);
        const GmpEvent event = m_transport.wait(waitMs);
        if (event.kind != GmpEvent::Kind::None) {
            const std::size_t slot = findOutstanding(event.tid);
            if (slot == m_outstanding.size())
                ++m_stats.strayAnswers;
            else if (event.kind == GmpEvent::Kind::Answer)
                complete(slot, event);
            else
                lose(slot);
        }
        const double now = nowMs();
        for (std::size_t i = 0; i < m_outstanding.size();) {
            if (m_outstanding[i].deadline <= now)
                lose(i);  // moves the last one into i
            else
                ++i;
        }
        if (keepGoing && !keepGoing()) {
            drainOutstanding();
            return false;
        }
    }
}

void GmpPipeline::drainOutstanding()
{
    while (!m_outstanding.empty()) {
        double earliest = m_outstanding.front().deadline;
        for (const Outstanding &o : m_outstanding)
            earliest = std::min(earliest, o.deadline);
        const GmpEvent event = m_transport.wait(std::clamp(int(std::ceil(earliest - nowMs())), 0, kLongestWaitMs));
        std::size_t slot = event.kind == GmpEvent::Kind::None ? m_outstanding.size() : findOutstanding(event.tid);
        if (slot < m_outstanding.size()) {
            m_outstanding[slot] = m_outstanding.back();
            m_outstanding.pop_back();
        }
        const double now = nowMs();
        for (std::size_t i = 0; i < m_outstanding.size();) {
            if (m_outstanding[i].deadline <= now) {
                m_outstanding[i] = m_outstanding.back();
                m_outstanding.pop_back();
            } else {
                ++i;
            }
        }
    }
}

}  // namespace weft
