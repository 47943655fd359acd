#pragma once
// A recorded metric trace for replaying rules without a fabric (`weft adapt --replay`): the CSV
// `weft monitor --csv` writes (telemetryCsvHeader), or a telemetry history database
// (TelemetryHistory: raw ticks and downsampled buckets, a bucket's means at its start time).
// Rows are grouped into ticks by time; each names its port by node GUID and port number, which
// the topology turns into fabric ports. Errors name the file, the line (CSV) and the problem: a
// header that is not the monitor's, a field that is not a number, a GUID or port not in the
// topology, times going backwards.

#include "Fabric.h"
#include "Result.h"
#include "TelemetryRecord.h"

#include <QString>

#include <vector>

namespace weft::adapt {

struct TraceTick
{
    double time = 0;
    std::vector<TelemetryRecord> records;
};

// Whether `path` is a history database (SQLite) rather than CSV, by its first bytes.
bool isHistoryDatabase(const QString &path);

Result<std::vector<TraceTick>> readMetricTrace(const QString &path, const Fabric &fabric);

}  // namespace weft::adapt
