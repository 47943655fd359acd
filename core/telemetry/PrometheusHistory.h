#pragma once
// Reading back from a Prometheus server what it scraped of `weft monitor --prometheus`: the
// query of one port's rates (`/api/v1/query_range`, the metric names and labels exactly as
// PrometheusExposition writes them) and its answer made into the history's points. Pure
// functions of text; the HTTP exchange is a front end's (app/remote/PrometheusHistorySource.h).

#include "HistorySource.h"
#include "Result.h"

#include <QByteArray>
#include <QString>
#include <QUrl>

#include <vector>

namespace weft {

// A server as an operator types it: "http://host:9090", "https://host/prometheus", or
// "host:9090" (then http). An Error saying why when it is none of these.
Result<QUrl> prometheusServerUrl(const QString &text);

// The PromQL selector of one port's rates, the four series the history holds:
// {__name__=~"weft_port_(xmit_bytes_per_second|...)",guid="0x...",port="1"}; every port's when
// `guid` is 0.
QString prometheusPortSelector(Guid guid, int port);

// The server's query_range endpoint (its path kept as a prefix, for a server behind a proxy).
QUrl prometheusQueryRangeEndpoint(const QUrl &server);
// The endpoint with the port's selector, start, end and step; the step is widened where the
// window would exceed the 11,000 points a server evaluates per series.
QUrl prometheusQueryRangeUrl(const QUrl &server, const HistoryQuery &query);

// The points of a query_range answer (`httpStatus` and body), by time then GUID and port: one
// point per evaluation time and port, its figures from the series of the same name (NaN, or a
// series missing at that time: a NoAnswer gap). An Error, whose file is `url`, for an HTTP error
// (with the server's own words when it gave them), `"status":"error"`, or an answer that is not
// a matrix of Weft's series.
Result<std::vector<HistoryPoint>> parsePrometheusQueryRange(const QByteArray &body, const QString &url, int httpStatus = 200);

}  // namespace weft
