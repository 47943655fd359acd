#pragma once
// Many general management packets (GMPs) in flight on one MAD port, as a port-counter pass needs
// them: tens of thousands of small queries, each answered by a node's agent.
//
// Requests are queued per destination (a node's agent) and sent round robin over the
// destinations, at most `perDestination` outstanding at one, at most the window in all. Each
// answer is matched to its request by transaction ID; an answer to nothing outstanding (late,
// after its request was sent again, or a duplicate) is dropped, so no request completes twice.
// The window adapts as TCP's does: it starts small and doubles each round trip until the first
// loss, then grows by one per window of answers; a loss (a request that timed out, whether the
// transport said so or its deadline passed here) halves it, once per round trip. A request that
// timed out is sent again, with a new transaction ID, up to `retries` times; then it has failed.
//
// The transport is an interface so that the scheduling can be tested without a fabric; the
// port-counter reader gives it libibumad's (umad_send and umad_recv on one port).

#include "Fabric.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

namespace weft {

// What a request carries: a LID-routed GMP of the performance class (PortSelect and the other
// fields in `data`, which lies at the MAD's data offset).
struct GmpRequest
{
    Lid lid = 0;
    std::uint16_t attribute = 0;
    std::uint8_t method = 0;  // Get or Set
    std::array<std::uint8_t, 192> data{};
};

struct GmpEvent
{
    enum class Kind : std::uint8_t {
        None,    // nothing came within the wait
        Answer,  // a response; `data` holds its data block, `madStatus` its MAD status
        Lost,    // the transport gave a request back unanswered (timed out, or dropped on the way)
    };
    Kind kind = Kind::None;
    std::uint32_t tid = 0;
    int madStatus = 0;
    std::array<std::uint8_t, 192> data{};
};

class GmpTransport
{
public:
    virtual ~GmpTransport() = default;
    // Sends `request` under transaction ID `tid`; false if it could not be sent at all.
    virtual bool send(const GmpRequest &request, std::uint32_t tid, int timeoutMs) = 0;
    // The next event, waiting at most `waitMs`.
    virtual GmpEvent wait(int waitMs) = 0;
    // A new transaction ID, never 0.
    virtual std::uint32_t nextTid() = 0;
};

struct GmpPipelineOptions
{
    int maxInFlight = 64;  // the window's ceiling
    int initialWindow = 4;
    int perDestination = 4;  // outstanding at one destination at most
    int timeoutMs = 200;     // per request, before it counts as lost
    int retries = 3;         // sends after the first
    // 0: off. Otherwise a request outstanding longer than this many milliseconds and 8 smoothed
    // round trips is taken as likely lost: it no longer counts against the window (it may still
    // be answered until its deadline, and only the deadline makes it a loss), so that requests
    // lost on the way do not hold the window shut for a whole timeout. At most 16 times the
    // window's ceiling are outstanding in all; at one destination, overdue ones likewise stop counting
    // against perDestination, up to twice it.
    int overdueAfterMs = 0;
    // After a halving the window grows back one per answer (as in slow start) up to where it was,
    // then one per window of answers: for losses that are not congestion (a lossy link, a
    // dropped SMP), which otherwise keep it small. Off: one per window of answers at once.
    bool regrowAfterLoss = false;
};

struct GmpPipelineStats
{
    std::size_t sent = 0;      // requests put on the wire, resends included
    std::size_t answered = 0;  // requests completed by an answer
    std::size_t timeouts = 0;  // losses: given back by the transport or past their deadline
    std::size_t resent = 0;
    std::size_t failed = 0;        // requests given up after all their retries
    std::size_t strayAnswers = 0;  // answers to nothing outstanding (late or duplicated)
    int peakInFlight = 0;
};

class GmpPipeline
{
public:
    // Called for each request once: answered (with its data and MAD status) or failed. They may
    // submit further requests and drop destinations.
    using AnswerFunction = std::function<void(std::uint64_t tag, const GmpEvent &answer)>;
    using FailureFunction = std::function<void(std::uint64_t tag)>;

    GmpPipeline(GmpTransport &transport, GmpPipelineOptions options, int destinations);

    void onAnswer(AnswerFunction f) { m_onAnswer = std::move(f); }
    void onFailure(FailureFunction f) { m_onFailure = std::move(f); }

    // Queues a request to `destination`, told apart by `tag` in the callbacks.
    void submit(int destination, const GmpRequest &request, std::uint64_t tag);
    // Forgets the requests still queued for `destination` (not those in flight); how many.
    std::size_t dropQueued(int destination);

    // Sends and receives until nothing is queued or in flight, or `keepGoing` says stop (asked
    // between events). False when stopped, or when the transport could send nothing at all.
    bool run(const std::function<bool()> &keepGoing = {});
    bool sendFailed() const { return m_sendFailed; }

    const GmpPipelineStats &stats() const { return m_stats; }
    double window() const { return m_window; }

private:
    struct Job
    {
        GmpRequest request;
        std::uint64_t tag = 0;
        int destination = 0;
        int attempts = 0;
    };
    struct Outstanding
    {
        std::size_t job = 0;
        std::uint32_t tid = 0;
        double deadline = 0;
        std::uint64_t sequence = 0;  // when it was sent, in sends
        double sentAt = 0;           // ms
    };
    // Stopped early: nothing more is sent, and what is in flight is waited for (answered, or
    // past its deadline) without its callbacks, so that no answer reaches the port after it is
    // handed back. ibsim's libumad2sim crashed in its own thread when a port was closed and
    // another opened with answers still on their way (a read cancelled, then a new one).
    void drainOutstanding();
    std::size_t countedInFlight(double now) const;
    bool overdueMakesRoom(int destination) const;
    bool sendOne();
    void complete(std::size_t slot, const GmpEvent &event);
    void lose(std::size_t slot);
    std::size_t findOutstanding(std::uint32_t tid) const;
    void releaseJob(std::size_t job);

    GmpTransport &m_transport;
    GmpPipelineOptions m_options;
    AnswerFunction m_onAnswer;
    FailureFunction m_onFailure;
    std::vector<Job> m_jobs;
    std::vector<std::size_t> m_freeJobs;
    std::vector<std::deque<std::size_t>> m_queued;  // per destination
    std::vector<int> m_inFlightAt;                  // per destination
    std::vector<char> m_inRotation;                 // per destination: in m_rotation
    std::deque<int> m_rotation;                     // destinations with something queued
    std::vector<Outstanding> m_outstanding;
    double m_window = 1;
    bool m_slowStart = true;
    std::uint64_t m_sends = 0;
    std::uint64_t m_lastDecrease = 0;  // m_sends when the window last halved
    bool m_sendFailed = false;
    double m_smoothedRoundTrip = 0;  // ms, 0 until the first answer
    double m_regrowTo = 0;           // regrowAfterLoss: the window before the last halving
    GmpPipelineStats m_stats;
};

}  // namespace weft
