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

// A label value escaped as the format asks: backslash, double quote and line feed.
QByteArray prometheusLabelValue(const QString &value);

// The exposition of `records` (one tick) of `fabric`. Figures with a gap are NaN, so that every
// port keeps its series; an empty tick gives the metric descriptions alone.
QByteArray prometheusExposition(const Fabric &fabric, const std::vector<TelemetryRecord> &records);

}  // namespace weft
