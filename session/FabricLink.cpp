#include "FabricLink.h"

#include <QMetaObject>
#include <QTimer>

#include <algorithm>
#include <deque>
#include <exception>
#include <thread>
#include <vector>

namespace weft {

namespace link_detail {

struct State
{
    struct Entry
    {
        FabricLink::JobId id = 0;
        std::shared_ptr<FabricLink::Job> job = std::make_shared<FabricLink::Job>();
        std::function<void(const FabricLink::Job &)> run;
        std::function<void(const Error &)> refuse;
        bool answerLater = true;  // refusals go through the owner's event loop
        std::chrono::steady_clock::time_point started;
        bool reportedOverdue = false;
    };

    std::mutex mutex;
    std::condition_variable wake;     // the worker: a job came, or stop
    std::condition_variable settled;  // stop(): the worker ended
    std::deque<std::shared_ptr<Entry>> queue;
    std::shared_ptr<Entry> running;
    std::atomic_bool stopping{false};
    bool workerEnded = false;
    FabricLink *owner = nullptr;  // cleared, under the mutex, when the link goes
    FabricLink::JobId nextId = 1;

    // Runs `call` on the owner's thread with the owner, if it is still there by then.
    void post(std::function<void(FabricLink *)> call)
    {
        std::lock_guard<std::mutex> lock(mutex);
        if (!owner)
            return;
        FabricLink *to = owner;
        // An event posted to an object is dropped with it: `to` is alive when this runs.
        QMetaObject::invokeMethod(
            to, [to, call = std::move(call)] { call(to); }, Qt::QueuedConnection);
    }

    void refuse(const std::shared_ptr<Entry> &entry, const Error &error)
    {
        if (!entry->answerLater)
            return entry->refuse(error);
        post([refuse = entry->refuse, error](FabricLink *) { refuse(error); });
    }

    static bool holdsUpPasses(FabricLink::Kind kind)
    {
        return kind == FabricLink::Kind::Commit || kind == FabricLink::Kind::Recovery;
    }

    // Why a counter pass should not run now; the mutex is held.
    QString passRefusalLocked() const
    {
        if (running && holdsUpPasses(running->job->kind()))
            return QStringLiteral("a %1 is running (%2)").arg(FabricLink::kindName(running->job->kind()), running->job->name());
        for (const std::shared_ptr<Entry> &e : queue)
            if (holdsUpPasses(e->job->kind()))
                return QStringLiteral("a %1 is waiting (%2)").arg(FabricLink::kindName(e->job->kind()), e->job->name());
        return {};
    }

    void work()
    {
        for (;;) {
            std::shared_ptr<Entry> entry;
            QString skip;
            {
                std::unique_lock<std::mutex> lock(mutex);
                wake.wait(lock, [this] { return stopping.load() || !queue.empty(); });
                if (stopping)
                    break;  // stop() took the queue
                entry = queue.front();
                queue.pop_front();
                // A pass queued before a commit gives way to it: the commit's read-back and
                // OpenSM's sweep matter more than one tick of rates.
                if (entry->job->kind() == FabricLink::Kind::CounterPass)
                    skip = passRefusalLocked();
                if (skip.isEmpty()) {
                    entry->started = std::chrono::steady_clock::now();
                    entry->job->m_deadline = entry->started + entry->job->m_limit;
                    running = entry;
                }
            }
            if (!skip.isEmpty()) {
                refuse(entry, Error{QStringLiteral("skipped"), 0, skip});
                continue;
            }
            const std::chrono::milliseconds limit = entry->job->m_limit;
            post([limit](FabricLink *link) { QTimer::singleShot(limit, Qt::PreciseTimer, link, [link] { link->watch(); }); });
            try {
                entry->run(*entry->job);
            } catch (const std::exception &e) {
                refuse(entry, Error{QStringLiteral("failed"), 0, QString::fromLocal8Bit(e.what())});
            } catch (...) {
                refuse(entry, Error{QStringLiteral("failed"), 0, QStringLiteral("the %1 threw").arg(FabricLink::kindName(entry->job->kind()))});
            }
            {
                std::lock_guard<std::mutex> lock(mutex);
                running.reset();
            }
        }
        {
            std::lock_guard<std::mutex> lock(mutex);
            workerEnded = true;
        }
        settled.notify_all();
    }
};

}  // namespace link_detail

using link_detail::State;

QString FabricLink::kindName(Kind kind)
{
    switch (kind) {
    case Kind::Discovery: return QStringLiteral("discovery");
    case Kind::TableRead: return QStringLiteral("table read");
    case Kind::SubnetCheck: return QStringLiteral("subnet check");
    case Kind::CounterPass: return QStringLiteral("counter pass");
    case Kind::Commit: return QStringLiteral("commit");
    case Kind::Recovery: return QStringLiteral("recovery");
    }
    return {};
}

std::chrono::milliseconds FabricLink::defaultDeadline(Kind kind)
{
    using namespace std::chrono_literals;
    // Generous: a deadline only reports. A discovery of tens of thousands of nodes takes
    // minutes; a commit waits for OpenSM's sweep and reads every table back.
    switch (kind) {
    case Kind::Discovery: return 10min;
    case Kind::TableRead: return 5min;
    case Kind::SubnetCheck: return 1min;
    case Kind::CounterPass: return 1min;
    case Kind::Commit: return 10min;
    case Kind::Recovery: return 10min;
    }
    return 10min;
}

FabricLink::Refusal FabricLink::refusalOf(const Error &error)
{
    if (error.line != 0)
        return Refusal::None;
    if (error.file == QLatin1String("skipped"))
        return Refusal::Skipped;
    if (error.file == QLatin1String("cancelled"))
        return Refusal::Cancelled;
    if (error.file == QLatin1String("stopped"))
        return Refusal::Stopped;
    if (error.file == QLatin1String("failed"))
        return Refusal::Failed;
    return Refusal::None;
}

Error FabricLink::refusal(Refusal why, const QString &message)
{
    switch (why) {
    case Refusal::Skipped: return Error{QStringLiteral("skipped"), 0, message};
    case Refusal::Cancelled: return Error{QStringLiteral("cancelled"), 0, message};
    case Refusal::Stopped: return Error{QStringLiteral("stopped"), 0, message};
    case Refusal::Failed: return Error{QStringLiteral("failed"), 0, message};
    case Refusal::None: break;
    }
    return Error{{}, 0, message};
}

FabricLink::FabricLink(QObject *parent)
    : QObject(parent), m_state(std::make_shared<State>())
{
    m_state->owner = this;
    // The thread holds the state too: a job left running by stop() still has its queue to end in.
    m_worker = std::thread([state = m_state] { state->work(); });
}

FabricLink::~FabricLink()
{
    stop(kStopOnDestruction, false);
    std::lock_guard<std::mutex> lock(m_state->mutex);
    m_state->owner = nullptr;
}

FabricLink::JobId FabricLink::enqueue(const std::shared_ptr<State> &state, Kind kind, const QString &name,
                                      std::chrono::milliseconds deadline, std::function<void(const Job &)> run,
                                      std::function<void(const Error &)> refuse, bool answerLater)
{
    auto entry = std::make_shared<State::Entry>();
    entry->job->m_kind = kind;
    entry->job->m_name = name;
    entry->job->m_limit = deadline.count() > 0 ? deadline : defaultDeadline(kind);
    entry->run = std::move(run);
    entry->refuse = std::move(refuse);
    entry->answerLater = answerLater;
    if (!state) {
        entry->refuse(refusal(Refusal::Stopped, QStringLiteral("no fabric link")));
        return 0;
    }
    std::optional<Error> refused;
    {
        std::lock_guard<std::mutex> lock(state->mutex);
        entry->id = state->nextId++;
        if (state->stopping) {
            refused = refusal(Refusal::Stopped, QStringLiteral("the fabric link is stopped: no %1 runs now").arg(kindName(kind)));
        } else if (kind == Kind::CounterPass) {
            if (const QString why = state->passRefusalLocked(); !why.isEmpty())
                refused = refusal(Refusal::Skipped, why);
        }
        if (!refused)
            state->queue.push_back(entry);
    }
    if (refused)
        state->refuse(entry, *refused);
    else
        state->wake.notify_one();
    return entry->id;
}

void FabricLink::abandon(const std::shared_ptr<State> &state, JobId id)
{
    if (!state)
        return;
    std::lock_guard<std::mutex> lock(state->mutex);
    auto &queue = state->queue;
    const auto it = std::find_if(queue.begin(), queue.end(), [id](const auto &e) { return e->id == id; });
    if (it != queue.end())
        queue.erase(it);
    else if (state->running && state->running->id == id)
        state->running->job->m_stop = true;
}

bool FabricLink::stopping(const std::shared_ptr<State> &state)
{
    return !state || state->stopping.load();
}

std::function<void(std::function<void()>)> FabricLink::poster(const std::shared_ptr<State> &state)
{
    // Weak: a job the link left running must not keep posting into a state nobody reads, nor
    // keep it alive for that.
    return [weak = std::weak_ptr<State>(state)](std::function<void()> call) {
        if (const std::shared_ptr<State> state = weak.lock())
            state->post([call = std::move(call)](FabricLink *) { call(); });
    };
}

QString FabricLink::Caller::skipReason(Kind kind) const
{
    if (kind != Kind::CounterPass || !m_state)
        return {};
    std::lock_guard<std::mutex> lock(m_state->mutex);
    return m_state->passRefusalLocked();
}

bool FabricLink::cancel(JobId id)
{
    std::shared_ptr<State::Entry> dropped;
    {
        std::lock_guard<std::mutex> lock(m_state->mutex);
        auto &queue = m_state->queue;
        const auto it = std::find_if(queue.begin(), queue.end(), [id](const auto &e) { return e->id == id; });
        if (it != queue.end()) {
            dropped = *it;
            queue.erase(it);
        } else if (m_state->running && m_state->running->id == id) {
            m_state->running->job->m_stop = true;
            return true;
        } else {
            return false;
        }
    }
    m_state->refuse(dropped, refusal(Refusal::Cancelled, QStringLiteral("the %1 was cancelled before it ran").arg(kindName(dropped->job->kind()))));
    return true;
}

bool FabricLink::stop(std::chrono::milliseconds deadline, bool tellCallers)
{
    const auto until = std::chrono::steady_clock::now() + deadline;
    std::deque<std::shared_ptr<State::Entry>> dropped;
    {
        std::lock_guard<std::mutex> lock(m_state->mutex);
        m_state->stopping = true;
        dropped.swap(m_state->queue);
        if (m_state->running)
            m_state->running->job->m_stop = true;
    }
    m_state->wake.notify_all();
    for (const std::shared_ptr<State::Entry> &e : dropped) {
        // A waiting thread is always released; an owner's callback only when it asked for it
        // (not from a destructor).
        const Error error = refusal(Refusal::Stopped, QStringLiteral("the fabric link stopped before the %1 ran").arg(kindName(e->job->kind())));
        if (!e->answerLater || tellCallers)
            e->refuse(error);
    }
    if (!m_worker.joinable())
        return m_leftRunning.isEmpty();
    bool ended = false;
    {
        std::unique_lock<std::mutex> lock(m_state->mutex);
        ended = m_state->settled.wait_until(lock, until, [this] { return m_state->workerEnded; });
        if (!ended && m_state->running)
            m_leftRunning = QStringLiteral("%1: %2").arg(kindName(m_state->running->job->kind()), m_state->running->job->name());
        else if (!ended)
            m_leftRunning = QStringLiteral("the fabric link's thread");
    }
    if (ended)
        m_worker.join();
    else
        m_worker.detach();  // it holds the state; whatever it still does ends with the process
    return ended;
}

bool FabricLink::isStopped() const
{
    return m_state->stopping.load();
}

bool FabricLink::isIdle() const
{
    std::lock_guard<std::mutex> lock(m_state->mutex);
    return !m_state->running && m_state->queue.empty();
}

int FabricLink::queuedJobs() const
{
    std::lock_guard<std::mutex> lock(m_state->mutex);
    return int(m_state->queue.size());
}

std::optional<FabricLink::Running> FabricLink::running() const
{
    std::lock_guard<std::mutex> lock(m_state->mutex);
    if (!m_state->running)
        return std::nullopt;
    const State::Entry &e = *m_state->running;
    const auto now = std::chrono::steady_clock::now();
    return Running{e.job->kind(), e.job->name(), std::chrono::duration<double>(now - e.started).count(), now > e.job->deadline()};
}

void FabricLink::watch()
{
    std::optional<Running> late;
    std::chrono::milliseconds again{0};
    {
        std::lock_guard<std::mutex> lock(m_state->mutex);
        const std::shared_ptr<State::Entry> e = m_state->running;
        const auto now = std::chrono::steady_clock::now();
        if (!e || e->reportedOverdue)
            return;
        if (now >= e->job->deadline()) {
            e->reportedOverdue = true;
            late = Running{e->job->kind(), e->job->name(), std::chrono::duration<double>(now - e->started).count(), true};
        } else {
            again = std::chrono::ceil<std::chrono::milliseconds>(e->job->deadline() - now);
        }
    }
    if (late)
        Q_EMIT overdue(late->kind, late->name, late->seconds);
    else
        QTimer::singleShot(again, Qt::PreciseTimer, this, [this] { watch(); });
}

}  // namespace weft
