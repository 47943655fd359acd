#include "PrometheusHistory.h"

#include "Identifiers.h"
#include "PrometheusExposition.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrlQuery>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace weft {

namespace {

// Prometheus refuses a query_range of more points than this per series.
constexpr double kMaximumPoints = 11000;

enum class Figure : std::uint8_t { XmitBytes,
                                   RcvBytes,
                                   XmitWait,
                                   Utilisation };

const std::pair<const char *, Figure> kFigures[] = {
    {kPrometheusXmitBytesMetric, Figure::XmitBytes},
    {kPrometheusRcvBytesMetric, Figure::RcvBytes},
    {kPrometheusXmitWaitMetric, Figure::XmitWait},
    {kPrometheusUtilisationMetric, Figure::Utilisation},
};

constexpr CounterRate kMissing{0, CounterGap::NoAnswer};

// Go's strconv forms of a sample value: decimals, exponents, NaN, +Inf, -Inf.
CounterRate sampleValue(const QJsonValue &value, bool *ok)
{
    *ok = false;
    if (!value.isString())
        return kMissing;
    const QString text = value.toString();
    const double v = text.toDouble(ok);
    if (!*ok) {
        *ok = text == QLatin1String("NaN") || text == QLatin1String("+Inf") || text == QLatin1String("-Inf");
        return kMissing;
    }
    return std::isfinite(v) ? CounterRate{v, CounterGap::None} : kMissing;
}

QString number(double seconds)
{
    return QString::number(seconds, 'f', 3);
}

}  // namespace

Result<QUrl> prometheusServerUrl(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty())
        return Error{{}, 0, QStringLiteral("no Prometheus server given")};
    QUrl url(trimmed.contains(QLatin1String("://")) ? trimmed : QStringLiteral("http://") + trimmed, QUrl::StrictMode);
    if (!url.isValid() || url.host().isEmpty())
        return Error{trimmed, 0, QStringLiteral("not the URL of a Prometheus server (http://host:port)")};
    if (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))
        return Error{trimmed, 0, QStringLiteral("a Prometheus server is reached by http or https, not %1").arg(url.scheme())};
    if (url.hasQuery() || url.hasFragment())
        return Error{trimmed, 0, QStringLiteral("the server's URL takes no query or fragment")};
    return url;
}

QString prometheusPortSelector(Guid guid, int port)
{
    QStringList names;
    for (const auto &[name, figure] : kFigures)
        names << QString::fromLatin1(name).mid(int(qstrlen("weft_port_")));
    const QString name = QStringLiteral("__name__=~\"weft_port_(%1)\"").arg(names.join(QLatin1Char('|')));
    if (guid == 0)
        return QLatin1Char('{') + name + QLatin1Char('}');
    return QStringLiteral("{%1,%2=\"%3\",%4=\"%5\"}")
        .arg(name, QLatin1String(kPrometheusGuidLabel), guidText(guid), QLatin1String(kPrometheusPortLabel))
        .arg(port);
}

QUrl prometheusQueryRangeEndpoint(const QUrl &server)
{
    QUrl url = server;
    QString path = url.path();
    while (path.endsWith(QLatin1Char('/')))
        path.chop(1);
    url.setPath(path + QStringLiteral("/api/v1/query_range"));
    url.setQuery(QString());
    return url;
}

QUrl prometheusQueryRangeUrl(const QUrl &server, const HistoryQuery &query)
{
    QUrl url = prometheusQueryRangeEndpoint(server);
    // In whole milliseconds, rounded up: never more points than the server takes.
    const double step = std::ceil(std::max({query.step, (query.to - query.from) / kMaximumPoints, 0.001}) * 1000) / 1000;
    QUrlQuery parameters;
    parameters.addQueryItem(QStringLiteral("query"), QString::fromLatin1(QUrl::toPercentEncoding(prometheusPortSelector(query.guid, query.port))));
    parameters.addQueryItem(QStringLiteral("start"), number(query.from));
    parameters.addQueryItem(QStringLiteral("end"), number(query.to));
    parameters.addQueryItem(QStringLiteral("step"), number(step));
    url.setQuery(parameters);
    return url;
}

Result<std::vector<HistoryPoint>> parsePrometheusQueryRange(const QByteArray &body, const QString &url, int httpStatus)
{
    const auto fail = [&](const QString &message) { return Error{url, 0, message}; };
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(body, &parseError);
    const QJsonObject answer = document.object();
    // Prometheus explains a refused query in JSON, whatever the HTTP status.
    if (answer.value(QStringLiteral("status")).toString() == QLatin1String("error")) {
        const QString type = answer.value(QStringLiteral("errorType")).toString();
        const QString why = answer.value(QStringLiteral("error")).toString();
        QString message = QStringLiteral("Prometheus refused the query");
        if (httpStatus != 200)
            message += QStringLiteral(" (HTTP %1)").arg(httpStatus);
        return fail(message + QStringLiteral(": ") + (type.isEmpty() ? why : type + QStringLiteral(": ") + why));
    }
    if (httpStatus != 200)
        return fail(QStringLiteral("HTTP %1 from the server%2").arg(httpStatus).arg(body.isEmpty() ? QString() : QStringLiteral(": ") + QString::fromUtf8(body.left(200)).simplified()));
    if (parseError.error != QJsonParseError::NoError)
        return fail(QStringLiteral("not a Prometheus API answer: malformed JSON at byte %1 (%2)").arg(parseError.offset).arg(parseError.errorString()));
    if (!document.isObject())
        return fail(QStringLiteral("not a Prometheus API answer: the JSON is not an object"));
    if (answer.value(QStringLiteral("status")).toString() != QLatin1String("success"))
        return fail(QStringLiteral("not a Prometheus API answer: no \"status\": \"success\""));
    const QJsonObject data = answer.value(QStringLiteral("data")).toObject();
    const QString type = data.value(QStringLiteral("resultType")).toString();
    if (type != QLatin1String("matrix"))
        return fail(QStringLiteral("expected a matrix of series from query_range, got \"%1\"").arg(type));
    if (!data.value(QStringLiteral("result")).isArray())
        return fail(QStringLiteral("a matrix answer without a \"result\" array"));

    using Key = std::tuple<qint64, Guid, int>;  // milliseconds, as the server keeps time
    std::map<Key, HistoryPoint> points;
    const QJsonArray result = data.value(QStringLiteral("result")).toArray();
    for (qsizetype s = 0; s < result.size(); ++s) {
        const QJsonObject series = result.at(s).toObject();
        const QJsonObject labels = series.value(QStringLiteral("metric")).toObject();
        const QString name = labels.value(QStringLiteral("__name__")).toString();
        const auto figure = std::find_if(std::begin(kFigures), std::end(kFigures),
                                         [&](const auto &f) { return name == QLatin1String(f.first); });
        if (figure == std::end(kFigures))
            return fail(QStringLiteral("series %1 is not one of Weft's port rates (\"%2\")").arg(s).arg(name));
        const QString guidLabel = labels.value(QLatin1String(kPrometheusGuidLabel)).toString();
        bool guidOk = guidLabel.startsWith(QLatin1String("0x"));
        const Guid guid = guidOk ? guidLabel.mid(2).toULongLong(&guidOk, 16) : 0;
        bool portOk = false;
        const int port = labels.value(QLatin1String(kPrometheusPortLabel)).toString().toInt(&portOk);
        if (!guidOk || !portOk)
            return fail(QStringLiteral("series %1 (%2) has no %3 and %4 labels as `weft monitor` writes them")
                            .arg(s)
                            .arg(name, QLatin1String(kPrometheusGuidLabel), QLatin1String(kPrometheusPortLabel)));
        const QJsonArray values = series.value(QStringLiteral("values")).toArray();
        for (const QJsonValue &v : values) {
            const QJsonArray pair = v.toArray();
            bool valueOk = false;
            const CounterRate rate = pair.size() == 2 ? sampleValue(pair.at(1), &valueOk) : kMissing;
            if (!valueOk || !pair.at(0).isDouble())
                return fail(QStringLiteral("series %1 (%2) holds a sample that is not [time, \"value\"]").arg(s).arg(name));
            const double time = pair.at(0).toDouble();
            const Key key{qint64(std::llround(time * 1000)), guid, port};
            auto [it, added] = points.try_emplace(key);
            HistoryPoint &p = it->second;
            if (added) {
                p.time = time;
                p.guid = guid;
                p.port = port;
                p.xmitBytes = p.rcvBytes = p.xmitWait = p.utilisation = kMissing;
            }
            switch (figure->second) {
            case Figure::XmitBytes: p.xmitBytes = rate; break;
            case Figure::RcvBytes: p.rcvBytes = rate; break;
            case Figure::XmitWait: p.xmitWait = rate; break;
            case Figure::Utilisation: p.utilisation = rate; break;
            }
        }
    }
    std::vector<HistoryPoint> sorted;
    sorted.reserve(points.size());
    for (auto &[key, p] : points) {
        p.xmitBytesMax = p.xmitBytes;
        p.rcvBytesMax = p.rcvBytes;
        p.xmitWaitMax = p.xmitWait;
        p.utilisationMax = p.utilisation;
        sorted.push_back(p);
    }
    return sorted;
}

}  // namespace weft
