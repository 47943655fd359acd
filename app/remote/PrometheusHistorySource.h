#pragma once
// A Prometheus server that scrapes `weft monitor --prometheus`, as a history source: each read is
// one asynchronous `query_range` (Qt Network, on the calling thread's event loop, within a
// timeout), its answer made into the history's points by core's parsePrometheusQueryRange.
// Errors name the endpoint and the problem: no server, an HTTP error, the server's refusal, an
// answer that is not Weft's series, no samples of the port in the window.

#include "HistorySource.h"

#include <QNetworkAccessManager>
#include <QPointer>
#include <QUrl>

#include <vector>

class QNetworkReply;

namespace weft::remote {

class PrometheusHistorySource : public HistorySource
{
public:
    static constexpr int kDefaultTimeoutMs = 10000;

    // `server` as prometheusServerUrl reads it.
    explicit PrometheusHistorySource(QUrl server, int timeoutMs = kDefaultTimeoutMs);
    ~PrometheusHistorySource() override;
    PrometheusHistorySource(const PrometheusHistorySource &) = delete;
    PrometheusHistorySource &operator=(const PrometheusHistorySource &) = delete;

    QString name() const override { return m_server.toString(); }
    QUrl server() const { return m_server; }
    void read(const HistoryQuery &query, QObject *context, HistoryAnswer answer) override;

private:
    QUrl m_server;
    int m_timeoutMs;
    QNetworkAccessManager m_network;
    std::vector<QPointer<QNetworkReply>> m_pending;
};

}  // namespace weft::remote
