#include "PrometheusHistorySource.h"

#include "Identifiers.h"
#include "PrometheusHistory.h"

#include <QDateTime>
#include <QNetworkReply>
#include <QNetworkRequest>

#include <algorithm>

namespace weft::remote {

namespace {

QString timeText(double seconds)
{
    return QDateTime::fromMSecsSinceEpoch(qint64(seconds * 1000)).toString(Qt::ISODate);
}

}  // namespace

PrometheusHistorySource::PrometheusHistorySource(QUrl server, int timeoutMs)
    : m_server(std::move(server)), m_timeoutMs(timeoutMs)
{
}

PrometheusHistorySource::~PrometheusHistorySource()
{
    // A read still under way answers no one once its source is gone.
    for (const QPointer<QNetworkReply> &reply : m_pending)
        if (reply) {
            reply->disconnect();
            reply->abort();
        }
}

void PrometheusHistorySource::read(const HistoryQuery &query, QObject *context, HistoryAnswer answer)
{
    QNetworkRequest request(prometheusQueryRangeUrl(m_server, query));
    request.setTransferTimeout(m_timeoutMs);
    request.setRawHeader("Accept", "application/json");
    QNetworkReply *reply = m_network.get(request);
    m_pending.erase(std::remove_if(m_pending.begin(), m_pending.end(), [](const QPointer<QNetworkReply> &r) { return r.isNull(); }),
                    m_pending.end());
    m_pending.emplace_back(reply);
    const QString endpoint = prometheusQueryRangeEndpoint(m_server).toString();
    const int timeoutMs = m_timeoutMs;
    // Deleted once finished, whether or not anyone is left to answer.
    QObject::connect(reply, &QNetworkReply::finished, reply, &QObject::deleteLater);
    QObject::connect(reply, &QNetworkReply::finished, context ? context : reply, [=, answer = std::move(answer)] {
        const QVariant status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
        if (!status.isValid()) {
            // No HTTP answer at all: no server, refused, timed out.
            const QString why = reply->error() == QNetworkReply::OperationCanceledError
                ? QStringLiteral("no answer within %1 s").arg(timeoutMs / 1000.0)
                : reply->errorString();
            answer(Error{endpoint, 0, QStringLiteral("cannot read the history from Prometheus: %1").arg(why)});
            return;
        }
        Result<std::vector<HistoryPoint>> points = parsePrometheusQueryRange(reply->readAll(), endpoint, status.toInt());
        if (points && query.guid != 0) {
            // Only the port asked for, whatever else a server (or a proxy's rewrite) answered.
            points->erase(std::remove_if(points->begin(), points->end(),
                                         [&](const HistoryPoint &p) { return p.guid != query.guid || p.port != query.port; }),
                          points->end());
        }
        if (points && points->empty()) {
            answer(Error{endpoint, 0,
                         QStringLiteral("no samples of %1 between %2 and %3: is the server scraping `weft monitor --prometheus` "
                                        "of this fabric?")
                             .arg(prometheusPortSelector(query.guid, query.port), timeText(query.from), timeText(query.to))});
            return;
        }
        answer(std::move(points));
    });
}

}  // namespace weft::remote
