#pragma once
// One port's rates at one moment, named as a user sees them (node GUID, port number, LID), and
// their one CSV form, shared by `weft monitor --csv`, the history's export and the desk's.

#include "Fabric.h"
#include "PortTelemetry.h"

#include <QByteArray>
#include <QString>

#include <vector>

namespace weft {

struct TelemetryRecord
{
    double time = 0;  // seconds since the epoch
    PortIndex portIndex = kNoIndex;
    Guid guid = 0;  // the node's GUID
    int port = 0;   // port number on that node
    Lid lid = 0;    // the LID its PMA answers at (a switch's for all its ports)
    double seconds = 0;  // the interval the rates cover: between this port's two readings (0: none)
    PortRates rates;
};

// Rates of every port read twice: `ports` are fabric port indices; `before`/`now` the samples of
// two passes parallel to them, `beforeAt`/`nowAt` when each was read (monotonic seconds), `time`
// the second pass's wall-clock time. Ports without an earlier sample get NoInterval gaps.
std::vector<TelemetryRecord> telemetryRecords(const Fabric &fabric, const std::vector<PortIndex> &ports,
                                              const std::vector<PortCounterSample> &before,
                                              const std::vector<double> &beforeAt,
                                              const std::vector<PortCounterSample> &now,
                                              const std::vector<double> &nowAt, double time);

// "time,guid,port,xmit_bytes_per_s,rcv_bytes_per_s,xmit_wait_per_s,utilisation\n"
QByteArray telemetryCsvHeader();
// One row in that form; a figure with a gap is an empty field.
QByteArray telemetryCsvRow(double time, Guid guid, int port, const CounterRate &xmitBytes, const CounterRate &rcvBytes,
                           const CounterRate &xmitWait, const CounterRate &utilisation);
QByteArray telemetryCsvRow(const TelemetryRecord &record);

}  // namespace weft
