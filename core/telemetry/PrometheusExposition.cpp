#include "PrometheusExposition.h"

#include <cmath>

namespace weft {

namespace {

struct Metric
{
    const char *name;
    const char *help;
    CounterRate (*value)(const TelemetryRecord &);
};

CounterRate errorsOf(const TelemetryRecord &r)
{
    CounterRate sum;
    for (const CounterDelta &d : r.rates.errors) {
        if (!d.ok())
            return {0, d.gap};
        sum.value += double(d.delta);
    }
    return sum;
}

const Metric kMetrics[] = {
    {kPrometheusXmitBytesMetric, "Octets the port transmitted per second over the last interval.",
     [](const TelemetryRecord &r) { return r.rates.xmitBytes; }},
    {kPrometheusRcvBytesMetric, "Octets the port received per second over the last interval.",
     [](const TelemetryRecord &r) { return r.rates.rcvBytes; }},
    {"weft_port_xmit_packets_per_second", "Packets the port transmitted per second over the last interval.",
     [](const TelemetryRecord &r) { return r.rates.xmitPackets; }},
    {"weft_port_rcv_packets_per_second", "Packets the port received per second over the last interval.",
     [](const TelemetryRecord &r) { return r.rates.rcvPackets; }},
    {kPrometheusXmitWaitMetric, "PortXmitWait ticks per second (data to send, no credit): congestion.",
     [](const TelemetryRecord &r) { return r.rates.xmitWait; }},
    {kPrometheusUtilisationMetric, "Transmit side, share of the link's data rate (0..1).",
     [](const TelemetryRecord &r) { return r.rates.utilisation; }},
    {"weft_port_errors", "Error counter increments over the last interval, all PortCounters error fields together.",
     errorsOf},
};

QByteArray number(const CounterRate &rate)
{
    if (!rate.ok() || !std::isfinite(rate.value))
        return QByteArrayLiteral("NaN");
    return QByteArray::number(rate.value, 'g', 17);
}

}  // namespace

QByteArray prometheusLabelValue(const QString &value)
{
    QByteArray escaped;
    const QByteArray utf8 = value.toUtf8();
    escaped.reserve(utf8.size());
    for (char c : utf8) {
        if (c == '\\')
            escaped += "\\\\";
        else if (c == '"')
            escaped += "\\\"";
        else if (c == '\n')
            escaped += "\\n";
        else
            escaped += c;
    }
    return escaped;
}

QByteArray prometheusExposition(const Fabric &fabric, const std::vector<TelemetryRecord> &records)
{
    std::vector<QByteArray> labels;
    labels.reserve(records.size());
    for (const TelemetryRecord &r : records) {
        const QString description = r.portIndex != kNoIndex ? fabric.node(fabric.port(r.portIndex).node).description : QString();
        labels.push_back(QByteArray("{") + kPrometheusGuidLabel + "=\"" + guidText(r.guid).toLatin1() + "\"," + kPrometheusPortLabel + "=\"" + QByteArray::number(r.port) + "\",lid=\""
                         + QByteArray::number(r.lid) + "\",node=\"" + prometheusLabelValue(description) + "\"}");
    }
    QByteArray text;
    for (const Metric &metric : kMetrics) {
        text += QByteArray("# HELP ") + metric.name + ' ' + metric.help + '\n';
        text += QByteArray("# TYPE ") + metric.name + " gauge\n";
        for (std::size_t i = 0; i < records.size(); ++i)
            text += metric.name + labels[i] + ' ' + number(metric.value(records[i])) + '\n';
    }
    return text;
}

}  // namespace weft
