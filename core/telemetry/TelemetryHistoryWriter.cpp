#include "TelemetryHistoryWriter.h"

#include <chrono>

namespace weft {

Result<std::unique_ptr<TelemetryHistoryWriter>> TelemetryHistoryWriter::open(const QString &path, const QString &fabricId,
                                                                             TelemetryHistoryOptions options, int maxQueued)
{
    std::unique_ptr<TelemetryHistoryWriter> writer(new TelemetryHistoryWriter);
    writer->m_maxQueued = std::size_t(std::max(1, maxQueued));
    writer->m_thread = std::thread(&TelemetryHistoryWriter::run, writer.get(), path, fabricId, options);
    std::unique_lock<std::mutex> lock(writer->m_mutex);
    writer->m_changed.wait(lock, [&] { return writer->m_opened || writer->m_failure; });
    if (writer->m_failure) {
        const Error failure = *writer->m_failure;
        lock.unlock();
        writer->m_thread.join();
        writer->m_thread = {};
        return failure;
    }
    return writer;
}

TelemetryHistoryWriter::~TelemetryHistoryWriter()
{
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stopping = true;
    }
    m_changed.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

void TelemetryHistoryWriter::run(QString path, QString fabricId, TelemetryHistoryOptions options)
{
    Result<std::unique_ptr<TelemetryHistory>> history = TelemetryHistory::open(path, fabricId, options);
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (!history)
            m_failure = history.error();
        else
            m_opened = true;
    }
    m_changed.notify_all();
    if (!history)
        return;
    for (;;) {
        std::vector<TelemetryRecord> tick;
        {
            std::unique_lock<std::mutex> lock(m_mutex);
            m_changed.wait(lock, [&] { return !m_queue.empty() || m_stopping; });
            if (m_queue.empty())
                return;  // stopping, and everything queued is written
            tick = std::move(m_queue.front());
            m_queue.pop_front();
            m_writing = true;
        }
        m_changed.notify_all();  // room in the queue
        const auto start = std::chrono::steady_clock::now();
        const Status written = (*history)->record(tick);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_writing = false;
            m_longestWrite = std::max(m_longestWrite, seconds);
            if (!written) {
                m_failure = written.error();
                m_queue.clear();
            }
        }
        m_changed.notify_all();
        if (!written)
            return;
    }
}

Status TelemetryHistoryWriter::record(std::vector<TelemetryRecord> records)
{
    std::unique_lock<std::mutex> lock(m_mutex);
    m_changed.wait(lock, [&] { return m_queue.size() < m_maxQueued || m_failure; });
    if (m_failure)
        return *m_failure;
    m_queue.push_back(std::move(records));
    lock.unlock();
    m_changed.notify_all();
    return Done{};
}

Status TelemetryHistoryWriter::flush()
{
    std::unique_lock<std::mutex> lock(m_mutex);
    m_changed.wait(lock, [&] { return (m_queue.empty() && !m_writing) || m_failure; });
    if (m_failure)
        return *m_failure;
    return Done{};
}

double TelemetryHistoryWriter::longestWriteSeconds() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_longestWrite;
}

}  // namespace weft
