#pragma once
// A telemetry history written on a thread of its own, so that a monitor ticking every second
// keeps its ticks while SQLite takes its time: a tick's rows go in one transaction, and once a
// minute a whole bucket of raw rows is folded (TelemetryHistory::record), which at 20,000 ports
// can take longer than the interval. Ticks queue up to a bound; past it `record` waits, so memory
// stays bounded and the caller sees the wait as a late tick.

#include "TelemetryHistory.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace weft {

class TelemetryHistoryWriter
{
public:
    // Opens the history (on the writer's thread, which then owns it); the Error of
    // TelemetryHistory::open when it cannot.
    static Result<std::unique_ptr<TelemetryHistoryWriter>> open(const QString &path, const QString &fabricId,
                                                                TelemetryHistoryOptions options = {}, int maxQueued = 8);
    ~TelemetryHistoryWriter();  // writes what is queued, then closes
    TelemetryHistoryWriter(const TelemetryHistoryWriter &) = delete;
    TelemetryHistoryWriter &operator=(const TelemetryHistoryWriter &) = delete;

    // Queues one tick, waiting while `maxQueued` are queued. Once a write has failed, its Error
    // (and nothing more is written).
    Status record(std::vector<TelemetryRecord> records);
    // Waits until every queued tick is written; the first failure, if any.
    Status flush();

    // The longest one tick took to write (its fold included), in seconds.
    double longestWriteSeconds() const;

private:
    TelemetryHistoryWriter() = default;
    void run(QString path, QString fabricId, TelemetryHistoryOptions options);

    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<std::vector<TelemetryRecord>> m_queue;
    bool m_writing = false;  // a tick taken off the queue, not yet written
    bool m_stopping = false;
    bool m_opened = false;
    std::optional<Error> m_failure;
    std::size_t m_maxQueued = 8;
    double m_longestWrite = 0;
    std::thread m_thread;
};

}  // namespace weft
