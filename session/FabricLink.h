#pragma once
// The one owner of a session's connection to the fabric. Every piece of MAD work the session
// does (a discovery, a read of tables, a check of the subnet's SMs, a pass over the port
// counters, a commit or a recovery) is a job queued here and run on the link's own thread, one at
// a time, in the order asked. Two of them at once share the adapter's MAD agents and OpenSM's
// files: a discovery that overlapped a commit wedged `weft serve` or crashed it.
//
// Each job has a kind and a deadline. The deadline stops nothing by itself (a commit cut off
// between writing and reading back is worse than a late one): past it the link says the job is
// overdue, and a job that can stop early polls its stop flag, which cancel() and stop() raise.
// Counter passes give way to commits: one asked for while a commit or recovery runs or waits is
// skipped, and its caller told why.
//
// Results come back on the thread that made the link (the session's), through the event loop, and
// only while `context` lives. Another thread (the sampler's, the autopilot's tick) runs a job and
// waits for it through a Caller. stop() refuses new work, tells the callers of queued jobs
// "stopped", raises the running job's stop flag and returns by its deadline whether or not that
// job ends: a job stuck in the fabric is left to itself rather than holding a service's shutdown.

#include "Result.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <type_traits>
#include <utility>

namespace weft {

namespace link_detail {

struct State;  // the queue, the worker and the way back to the owner (FabricLink.cpp)

// A job's result as its caller gets it: a job that returns Result<T> is not wrapped twice.
template <class T>
struct Outcome
{
    using type = Result<T>;
};
template <class T>
struct Outcome<Result<T>>
{
    using type = Result<T>;
};

// Where a waiting thread's result is put, by the link's thread or by stop().
template <class R>
struct Slot
{
    std::mutex mutex;
    std::condition_variable filled;
    std::optional<R> value;

    void fill(R r)
    {
        {
            std::lock_guard<std::mutex> lock(mutex);
            if (!value)
                value.emplace(std::move(r));
        }
        filled.notify_all();
    }
};

}  // namespace link_detail

class FabricLink : public QObject
{
    Q_OBJECT

public:
    enum class Kind : std::uint8_t { Discovery,
                                     TableRead,
                                     SubnetCheck,
                                     CounterPass,
                                     Commit,
                                     Recovery };
    Q_ENUM(Kind)
    // "discovery", "counter pass", ...
    static QString kindName(Kind kind);
    // How long a job of this kind may take before it is reported overdue.
    static std::chrono::milliseconds defaultDeadline(Kind kind);

    using JobId = quint64;

    // Why a job did not give its caller a result; the error's `file` says it ("skipped: a commit
    // is running", "stopped: ...").
    enum class Refusal : std::uint8_t { None,
                                        Skipped,
                                        Cancelled,
                                        Stopped,
                                        Failed };
    static Refusal refusalOf(const Error &error);

    // What a running job sees of itself.
    class Job
    {
    public:
        Kind kind() const { return m_kind; }
        const QString &name() const { return m_name; }
        // Raised by cancel() and stop(): a job that can end early should.
        bool stopRequested() const { return m_stop.load(); }
        // The same flag, for readers that take one (readLiveState's cancel).
        const std::atomic_bool *stopFlag() const { return &m_stop; }
        std::chrono::steady_clock::time_point deadline() const { return m_deadline; }
        bool overdue() const { return std::chrono::steady_clock::now() > m_deadline; }

    private:
        friend struct link_detail::State;
        friend class FabricLink;
        Kind m_kind = Kind::Discovery;
        QString m_name;
        std::atomic_bool m_stop{false};
        std::chrono::milliseconds m_limit{0};
        std::chrono::steady_clock::time_point m_deadline;
    };

    template <class Work>
    using ResultOf = typename link_detail::Outcome<std::decay_t<std::invoke_result_t<Work &, const Job &>>>::type;

    // A thread other than the link's runs a job and waits for it. Copies stay valid after the link
    // is gone (they refuse then, as a stopped link does).
    class Caller
    {
    public:
        Caller() = default;

        // Runs `work` on the link after everything queued, and waits for its result. Returns early
        // with a "stopped" error when the link stops, and with a "cancelled" one (its job dropped
        // if it had not started) once `giveUp` is raised. Never call it on the link's own thread.
        template <class Work>
        ResultOf<Work> call(Kind kind, const QString &name, Work work, const std::atomic_bool *giveUp = nullptr,
                            std::chrono::milliseconds deadline = {}) const
        {
            using R = ResultOf<Work>;
            auto slot = std::make_shared<link_detail::Slot<R>>();
            const JobId id = enqueue(
                m_state, kind, name, deadline,
                [work = std::move(work), slot](const Job &job) mutable { slot->fill(R(work(job))); },
                [slot](const Error &error) { slot->fill(R(error)); }, false);
            std::unique_lock<std::mutex> lock(slot->mutex);
            while (!slot->value) {
                slot->filled.wait_for(lock, std::chrono::milliseconds(50));
                if (slot->value)
                    break;
                if (giveUp && giveUp->load()) {
                    lock.unlock();
                    abandon(m_state, id);
                    return R(refusal(Refusal::Cancelled, QStringLiteral("the caller stopped waiting for the %1").arg(kindName(kind))));
                }
                if (stopping(m_state)) {
                    lock.unlock();
                    return R(refusal(Refusal::Stopped, QStringLiteral("the fabric link stopped before the %1 ended").arg(kindName(kind))));
                }
            }
            return std::move(*slot->value);
        }

        // Why a job of `kind` would be skipped now (a counter pass while a commit runs or
        // waits); empty when it would run.
        QString skipReason(Kind kind) const;
        bool isStopped() const { return !m_state || stopping(m_state); }

    private:
        friend class FabricLink;
        explicit Caller(std::shared_ptr<link_detail::State> state) : m_state(std::move(state)) {}
        std::shared_ptr<link_detail::State> m_state;
    };

    explicit FabricLink(QObject *parent = nullptr);
    // Stops (kStopOnDestruction) without calling back anyone: the owner is going too.
    ~FabricLink() override;

    static constexpr std::chrono::milliseconds kStopOnDestruction{5000};

    // Queues `work` (called on the link's thread with its Job) and hands its result, or the
    // reason it did not run, to `done` on this thread, while `context` lives. `deadline` {}: the
    // kind's default. A link that stopped, or a counter pass a commit holds up, answers at once
    // (through the event loop, never from inside submit).
    template <class Work, class Done>
    JobId submit(Kind kind, const QString &name, QObject *context, Work work, Done done, std::chrono::milliseconds deadline = {})
    {
        using R = ResultOf<Work>;
        // Created here and read only on this thread: whether the caller still lives.
        auto receiver = std::make_shared<QPointer<QObject>>(context);
        auto callback = std::make_shared<std::function<void(R)>>(std::move(done));
        auto back = std::make_shared<std::function<void(std::function<void()>)>>(poster(m_state));
        return enqueue(
            m_state, kind, name, deadline,
            [work = std::move(work), receiver, callback, back](const Job &job) mutable {
                auto result = std::make_shared<R>(work(job));
                (*back)([receiver, callback, result] {
                    if (*receiver)
                        (*callback)(std::move(*result));
                });
            },
            [receiver, callback](const Error &error) {
                if (*receiver)
                    (*callback)(R(error));
            },
            true);
    }

    // The same, waiting for the result (commands, and threads other than this one).
    template <class Work>
    ResultOf<Work> call(Kind kind, const QString &name, Work work, std::chrono::milliseconds deadline = {}) const
    {
        return caller().call(kind, name, std::move(work), nullptr, deadline);
    }

    Caller caller() const { return Caller(m_state); }

    // A queued job is dropped (its caller told "cancelled" through the event loop); a running one
    // has its stop flag raised. False when the job is neither.
    bool cancel(JobId id);

    // Refuses new work, drops what is queued (each caller told "stopped", now, on this thread,
    // unless `tellCallers` is false), raises the running job's stop flag and waits for the link's
    // thread up to `deadline`. True when it ended; false when a job was still running and was
    // left to itself (leftRunning() names it).
    bool stop(std::chrono::milliseconds deadline, bool tellCallers = true);
    bool isStopped() const;
    // No job runs or waits.
    bool isIdle() const;
    int queuedJobs() const;
    // The running job, if any: its kind, name and seconds since it started.
    struct Running
    {
        Kind kind;
        QString name;
        double seconds = 0;
        bool overdue = false;
    };
    std::optional<Running> running() const;
    QString skipReason(Kind kind) const { return caller().skipReason(kind); }
    // What stop() left running ("commit: plan p3 by alice"); empty when nothing.
    QString leftRunning() const { return m_leftRunning; }

Q_SIGNALS:
    // A job ran past its deadline (once per job).
    void overdue(weft::FabricLink::Kind kind, const QString &name, double seconds);

private:
    friend struct link_detail::State;
    static JobId enqueue(const std::shared_ptr<link_detail::State> &state, Kind kind, const QString &name,
                         std::chrono::milliseconds deadline, std::function<void(const Job &)> run,
                         std::function<void(const Error &)> refuse, bool answerLater);
    static void abandon(const std::shared_ptr<link_detail::State> &state, JobId id);
    static bool stopping(const std::shared_ptr<link_detail::State> &state);
    static std::function<void(std::function<void()>)> poster(const std::shared_ptr<link_detail::State> &state);
    static Error refusal(Refusal why, const QString &message);
    // Reports the running job once it is past its deadline, or looks again when it will be.
    void watch();

    std::shared_ptr<link_detail::State> m_state;
    std::thread m_worker;
    QString m_leftRunning;
};

}  // namespace weft
