#include "TelemetryRecord.h"

namespace weft {

namespace {

QByteArray csvNumber(const CounterRate &rate)
{
    return rate.ok() ? QByteArray::number(rate.value, 'g', 15) : QByteArray();
}

}  // namespace

std::vector<TelemetryRecord> telemetryRecords(const Fabric &fabric, const std::vector<PortIndex> &ports,
                                              const std::vector<PortCounterSample> &before,
                                              const std::vector<double> &beforeAt,
                                              const std::vector<PortCounterSample> &now,
                                              const std::vector<double> &nowAt, double time)
{
    std::vector<TelemetryRecord> records;
    records.reserve(ports.size());
    for (std::size_t i = 0; i < ports.size() && i < now.size(); ++i) {
        const Port &port = fabric.port(ports[i]);
        const Node &node = fabric.node(port.node);
        TelemetryRecord r;
        r.time = time;
        r.portIndex = ports[i];
        r.guid = node.guid;
        r.port = port.number;
        r.lid = node.type == NodeType::Switch ? fabric.nodeLid(port.node) : port.lid;
        const bool hasBefore = i < before.size() && i < beforeAt.size();
        const double seconds = hasBefore && i < nowAt.size() ? nowAt[i] - beforeAt[i] : 0.0;
        r.seconds = seconds;
        r.rates = portRates(hasBefore ? before[i] : PortCounterSample{}, now[i], seconds,
                            linkDataBytesPerSecond(port.width, port.speed));
        if (!hasBefore) {
            // Not "no answer": there was simply nothing to compare with yet.
            for (CounterRate *rate : {&r.rates.xmitBytes, &r.rates.rcvBytes, &r.rates.xmitPackets, &r.rates.rcvPackets,
                                      &r.rates.xmitWait, &r.rates.utilisation})
                rate->gap = CounterGap::NoInterval;
            for (CounterDelta &d : r.rates.errors)
                d.gap = CounterGap::NoInterval;
        }
        records.push_back(r);
    }
    return records;
}

QByteArray telemetryCsvHeader()
{
    return QByteArrayLiteral("time,guid,port,xmit_bytes_per_s,rcv_bytes_per_s,xmit_wait_per_s,utilisation\n");
}

QByteArray telemetryCsvRow(double time, Guid guid, int port, const CounterRate &xmitBytes, const CounterRate &rcvBytes,
                           const CounterRate &xmitWait, const CounterRate &utilisation)
{
    return QByteArray::number(time, 'f', 3) + ',' + guidText(guid).toLatin1() + ',' + QByteArray::number(port) + ','
        + csvNumber(xmitBytes) + ',' + csvNumber(rcvBytes) + ',' + csvNumber(xmitWait) + ',' + csvNumber(utilisation)
        + '\n';
}

QByteArray telemetryCsvRow(const TelemetryRecord &record)
{
    return telemetryCsvRow(record.time, record.guid, record.port, record.rates.xmitBytes, record.rates.rcvBytes,
                           record.rates.xmitWait, record.rates.utilisation);
}

}  // namespace weft
