#pragma once
// The telemetry history: one SQLite file per fabric (Qt SQL), holding every tick's rates for a
// window (raw), and beyond it one row per port and bucket (a minute by default) with the means
// and maxima of what the raw rows held. It survives a restart: reopening the file continues it.
//
// A history is used from one thread (Qt SQL connections are). A file made for another fabric
// is refused, so that two fabrics' ports never mix.

#include "Fabric.h"
#include "Result.h"
#include "TelemetryRecord.h"

#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace weft {

struct TelemetryHistoryOptions
{
    double rawWindowSeconds = 24 * 3600;  // raw rows younger than this (from the newest) are kept
    int bucketSeconds = 60;               // older ones become one row per port and bucket
    // Buckets older than this (from the newest tick) are deleted, so that the file stops growing:
    // at 20,000 ports a day of buckets is about 29 million rows. 0 keeps them all.
    double bucketWindowSeconds = 90 * 24 * 3600;
};

// One point of a port's history: a raw tick, or a bucket (time = its start) of means with maxima.
struct HistoryPoint
{
    double time = 0;
    Guid guid = 0;
    int port = 0;
    bool downsampled = false;
    int samples = 1;                                                     // raw ticks behind the point
    CounterRate xmitBytes, rcvBytes, xmitWait, utilisation;              // means for a bucket; gaps as NoAnswer
    CounterRate xmitBytesMax, rcvBytesMax, xmitWaitMax, utilisationMax;  // = the value for a raw tick
};

// What names a fabric's history: the lowest node GUID of the fabric, as 16 hex digits.
QString fabricHistoryId(const Fabric &fabric);

// The fabric id a history file was made for; an Error when it is not a history.
Result<QString> telemetryHistoryFabric(const QString &path);

class TelemetryHistory
{
public:
    // Opens or creates the history at `path` for the fabric named `fabricId`. An Error (saying
    // which file and why) when the file is not a history, belongs to another fabric, or cannot
    // be written.
    static Result<std::unique_ptr<TelemetryHistory>> open(const QString &path, const QString &fabricId,
                                                          TelemetryHistoryOptions options = {});
    ~TelemetryHistory();
    TelemetryHistory(const TelemetryHistory &) = delete;
    TelemetryHistory &operator=(const TelemetryHistory &) = delete;

    // Adds one tick (in one transaction), then folds raw rows older than the window into buckets
    // and deletes buckets older than theirs.
    Status record(const std::vector<TelemetryRecord> &records);

    // Points between `from` and `to` (seconds since the epoch, inclusive), by time then GUID and
    // port; only those of one port when `guid` is given.
    Result<std::vector<HistoryPoint>> read(double from, double to, std::optional<Guid> guid = std::nullopt,
                                           int port = 0) const;

    // The whole history as CSV, in telemetryCsvHeader's form (buckets give their means), written
    // atomically to `path`.
    Status exportCsv(const QString &path) const;

    QString path() const { return m_path; }

private:
    TelemetryHistory(QString path, QString connection, TelemetryHistoryOptions options);
    Status downsample(double newest);
    Error error(const QString &message) const;

    QString m_path;
    QString m_connection;
    TelemetryHistoryOptions m_options;
};

}  // namespace weft
