#pragma once
// The latest tick in the Prometheus text exposition format (version 0.0.4): one gauge series
// per port and metric, labelled with the node GUID, port number, LID and node description, so
// that a site's Prometheus (and Grafana behind it) can use `weft monitor` as its exporter.

#include "Fabric.h"
#include "TelemetryRecord.h"

#include <QByteArray>
#include <QString>

#include <vector>

namespace weft {

// The names the exposition writes, which a reader of what a Prometheus server scraped asks for
// (PrometheusHistory.h). Each series is labelled guid (guidText), port, lid and node.
inline constexpr char kPrometheusXmitBytesMetric[] = "weft_port_xmit_bytes_per_second";
inline constexpr char kPrometheusRcvBytesMetric[] = "weft_port_rcv_bytes_per_second";
inline constexpr char kPrometheusXmitWaitMetric[] = "weft_port_xmit_wait_per_second";
inline constexpr char kPrometheusUtilisationMetric[] = "weft_port_utilisation";
inline constexpr char kPrometheusGuidLabel[] = "guid";
inline constexpr char kPrometheusPortLabel[] = "port";

// A label value escaped as the format asks: backslash, double quote and line feed.
QByteArray prometheusLabelValue(const QString &value);

// The exposition of `records` (one tick) of `fabric`. Figures with a gap are NaN, so that every
// port keeps its series; an empty tick gives the metric descriptions alone.
QByteArray prometheusExposition(const Fabric &fabric, const std::vector<TelemetryRecord> &records);

}  // namespace weft
