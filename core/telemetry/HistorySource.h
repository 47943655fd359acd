#pragma once
// Where a port's telemetry history is read from: the embedded SQLite history (the default) or a
// Prometheus server that scraped `weft monitor --prometheus` (PrometheusHistory.h for its
// queries and answers; the HTTP client is a front end's). The dock and, later, the service ask
// one question of either: a port's rates over [from, to].
//
// A read may take a while (a server), so the answer comes through a callback, on the caller's
// thread and never after `context` is gone; the embedded history answers before read() returns.

#include "Result.h"
#include "TelemetryHistory.h"

#include <QString>

#include <functional>
#include <optional>
#include <vector>

class QObject;

namespace weft {

// One port's history over [from, to] (seconds since the epoch, inclusive); every port's when
// `guid` is 0 (no node has GUID 0). `step` is the spacing a server evaluates the series at
// (seconds; the embedded history returns its rows as recorded).
struct HistoryQuery
{
    Guid guid = 0;
    int port = 0;
    double from = 0;
    double to = 0;
    double step = 15;
};

using HistoryAnswer = std::function<void(Result<std::vector<HistoryPoint>>)>;

class HistorySource
{
public:
    virtual ~HistorySource() = default;
    // What the source is, for a note or a message: the history's file, a server's URL.
    virtual QString name() const = 0;
    // Reads `query`; `answer` is called once with the points by time (or an Error naming the
    // source and the problem), unless `context` is destroyed first.
    virtual void read(const HistoryQuery &query, QObject *context, HistoryAnswer answer) = 0;
};

// The SQLite history as a source: answers at once. `history` must outlive it.
class EmbeddedHistorySource : public HistorySource
{
public:
    explicit EmbeddedHistorySource(const TelemetryHistory &history)
        : m_history(history) {}
    QString name() const override { return m_history.path(); }
    void read(const HistoryQuery &query, QObject * /*context*/, HistoryAnswer answer) override
    {
        answer(m_history.read(query.from, query.to, query.guid ? std::optional<Guid>(query.guid) : std::nullopt, query.port));
    }

private:
    const TelemetryHistory &m_history;
};

}  // namespace weft
