// The history read back from a Prometheus server (issue 24): query_range answers as the server
// writes them (several series, empty, refused, malformed) made into the history's points; the
// series asked for named exactly as `weft monitor --prometheus` serves them; the client against
// a tiny HTTP server of the test's own (answers, HTTP errors, no server, no answer in time); and
// the Telemetry dock switched to a server and back.

#include "FabricLayout.h"
#include "FabricScene.h"
#include "GeneratedFabrics.h"
#include "PrometheusExposition.h"
#include "PrometheusHistory.h"
#include "PrometheusHistorySource.h"
#include "TelemetryDock.h"

#include <QComboBox>
#include <QProcess>
#include <QDateTime>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <QUrlQuery>

#include <memory>
#include <optional>

using namespace weft;

namespace {

constexpr Guid kGuid = 0x0002c90300001234ull;
const QString kUrl = QStringLiteral("http://prom.example:9090/api/v1/query_range");

// A series as Prometheus 2.x answers it, with the labels it adds (instance, job) and the lid and
// node labels the monitor writes.
QByteArray series(const char *name, Guid guid, int port, const QByteArray &values, int lid = 3)
{
    return QByteArray("{\"metric\":{\"__name__\":\"") + name + "\",\"guid\":\"" + guidText(guid).toLatin1() + "\",\"instance\":\"127.0.0.1:9464\",\"job\":\"weft\",\"lid\":\""
        + QByteArray::number(lid) + "\",\"node\":\"leaf \\\"1\\\"\",\"port\":\"" + QByteArray::number(port) + "\"},\"values\":[" + values + "]}";
}

QByteArray matrix(const QList<QByteArray> &result)
{
    return "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[" + result.join(',') + "]}}";
}

const QByteArray kRefused =
    "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid parameter \\\"query\\\": 1:1: parse error: unexpected character: '!'\"}";

// One canned HTTP answer to every request; or none at all (`silent`). Keeps the last request's
// target.
class TinyHttpServer : public QTcpServer
{
public:
    int status = 200;
    QByteArray body;
    bool silent = false;
    QByteArray lastTarget;
    int requests = 0;

    TinyHttpServer()
    {
        connect(this, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = nextPendingConnection()) {
                auto *received = new QByteArray;
                connect(socket, &QObject::destroyed, [received] { delete received; });
                connect(socket, &QTcpSocket::readyRead, socket, [this, socket, received] {
                    *received += socket->readAll();
                    if (!received->contains("\r\n\r\n") || silent)
                        return;
                    ++requests;
                    lastTarget = received->split(' ').value(1);
                    socket->write("HTTP/1.1 " + QByteArray::number(status) + " Whatever\r\nContent-Type: application/json\r\nContent-Length: "
                                  + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
                    socket->disconnectFromHost();
                });
                connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
    }
    QUrl url() const { return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(serverPort())); }
};

// Reads one port through `source` and waits for the answer.
std::optional<Result<std::vector<HistoryPoint>>> readOnce(HistorySource &source, const HistoryQuery &query, int waitMs = 15000)
{
    std::optional<Result<std::vector<HistoryPoint>>> answer;
    QObject context;
    source.read(query, &context, [&](Result<std::vector<HistoryPoint>> points) { answer = std::move(points); });
    (void)QTest::qWaitFor([&] { return answer.has_value(); }, waitMs);
    return answer;
}

QString errorOf(const std::optional<Result<std::vector<HistoryPoint>>> &answer)
{
    if (!answer)
        return QStringLiteral("(no answer)");
    return *answer ? QStringLiteral("(no error)") : answer->error().toString();
}

}  // namespace

class TestPrometheusHistory : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("WeftTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_prometheus_history"));
        QSettings().clear();
    }

    // Several series of two ports, merged into one point per time and port; NaN and a series
    // missing at a time are gaps, never zeros; a changed LID label does not split a port.
    void parsesAMatrixOfSeveralSeries()
    {
        const QByteArray body = matrix({
            series(kPrometheusXmitBytesMetric, kGuid, 1, "[1764340000,\"1250000\"],[1764340015.5,\"2.5e6\"]"),
            series(kPrometheusRcvBytesMetric, kGuid, 1, "[1764340000,\"300\"],[1764340015.5,\"NaN\"]"),
            series(kPrometheusXmitWaitMetric, kGuid, 1, "[1764340000,\"0\"]"),
            series(kPrometheusUtilisationMetric, kGuid, 1, "[1764340000,\"0.00125\"]", 3),
            series(kPrometheusUtilisationMetric, kGuid, 1, "[1764340015.5,\"0.0025\"]", 7),  // the port's LID changed
            series(kPrometheusUtilisationMetric, kGuid + 1, 2, "[1764340000,\"0.5\"]"),
        });
        const Result<std::vector<HistoryPoint>> points = parsePrometheusQueryRange(body, kUrl);
        QVERIFY2(points, qPrintable(points ? QString() : points.error().toString()));
        QCOMPARE(points->size(), std::size_t(3));
        const HistoryPoint &a = (*points)[0];
        const HistoryPoint &b = (*points)[1];
        const HistoryPoint &c = (*points)[2];
        QCOMPARE(a.time, 1764340000.0);
        QCOMPARE(a.guid, kGuid);
        QCOMPARE(a.port, 1);
        QVERIFY(!a.downsampled);
        QCOMPARE(a.xmitBytes.value, 1250000.0);
        QCOMPARE(a.rcvBytes.value, 300.0);
        QVERIFY(a.xmitWait.ok());
        QCOMPARE(a.xmitWait.value, 0.0);
        QCOMPARE(a.utilisation.value, 0.00125);
        QCOMPARE(a.utilisationMax.value, 0.00125);
        QCOMPARE(b.guid, kGuid + 1);  // the same time, the other port, by GUID
        QCOMPARE(b.port, 2);
        QCOMPARE(b.utilisation.value, 0.5);
        QVERIFY(!b.xmitBytes.ok());
        QCOMPARE(c.time, 1764340015.5);
        QCOMPARE(c.xmitBytes.value, 2.5e6);
        QCOMPARE(c.rcvBytes.gap, CounterGap::NoAnswer);  // NaN
        QCOMPARE(c.xmitWait.gap, CounterGap::NoAnswer);  // no sample at that time
        QCOMPARE(c.utilisation.value, 0.0025);           // the series under the new LID
    }

    void answersThatAreNotPoints_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("message");
        QTest::addRow("empty result") << matrix({}) << 200 << QString();
        QTest::addRow("refused") << kRefused << 400
                                 << QStringLiteral("Prometheus refused the query (HTTP 400): bad_data: invalid parameter \"query\"");
        QTest::addRow("error status with 200") << QByteArray("{\"status\":\"error\",\"errorType\":\"timeout\",\"error\":\"query timed out\"}") << 200
                                               << QStringLiteral("Prometheus refused the query: timeout: query timed out");
        QTest::addRow("unavailable") << QByteArray("Service Unavailable") << 503 << QStringLiteral("HTTP 503 from the server: Service Unavailable");
        QTest::addRow("malformed") << QByteArray("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[") << 200
                                   << QStringLiteral("not a Prometheus API answer: malformed JSON at byte");
        QTest::addRow("html") << QByteArray("<html>proxy login</html>") << 200 << QStringLiteral("malformed JSON");
        QTest::addRow("vector") << QByteArray("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}}") << 200
                                << QStringLiteral("expected a matrix of series from query_range, got \"vector\"");
        QTest::addRow("another metric") << matrix({series("node_load1", kGuid, 1, "[1764340000,\"1\"]")}) << 200
                                        << QStringLiteral("series 0 is not one of Weft's port rates (\"node_load1\")");
        QTest::addRow("no guid label") << matrix({QByteArray("{\"metric\":{\"__name__\":\"weft_port_utilisation\",\"port\":\"1\"},\"values\":[[1,\"0\"]]}")}) << 200
                                       << QStringLiteral("has no guid and port labels as `weft monitor` writes them");
        QTest::addRow("sample not a pair") << matrix({series(kPrometheusUtilisationMetric, kGuid, 1, "[1764340000]")}) << 200
                                           << QStringLiteral("holds a sample that is not [time, \"value\"]");
        QTest::addRow("value not a string") << matrix({series(kPrometheusUtilisationMetric, kGuid, 1, "[1764340000,0.5]")}) << 200
                                            << QStringLiteral("holds a sample that is not [time, \"value\"]");
    }
    void answersThatAreNotPoints()
    {
        QFETCH(QByteArray, body);
        QFETCH(int, status);
        QFETCH(QString, message);
        const Result<std::vector<HistoryPoint>> points = parsePrometheusQueryRange(body, kUrl, status);
        if (message.isEmpty()) {
            QVERIFY(points);
            QVERIFY(points->empty());
            return;
        }
        QVERIFY(!points);
        const QString text = points.error().toString();
        QVERIFY2(text.startsWith(kUrl + QStringLiteral(": ")), qPrintable(text));
        QVERIFY2(text.contains(message), qPrintable(text));
    }

    // The selector names the series exactly as the exposition writes them: every line of a
    // tick's exposition of the four rates matches the selector of its own port and no other's.
    void selectorMatchesTheExposition()
    {
        const Fabric fabric = test::generate({FabricShapeKind::SwitchRadix, 4, 2}).fabric;
        std::vector<TelemetryRecord> records;
        for (std::size_t p = 0; p < fabric.ports().size() && records.size() < 6; ++p) {
            const Port &port = fabric.ports()[p];
            if (!port.present || port.remote == kNoIndex)
                continue;
            TelemetryRecord r;
            r.portIndex = PortIndex(p);
            r.guid = fabric.node(port.node).guid;
            r.port = port.number;
            r.lid = port.lid;
            records.push_back(r);
        }
        const QByteArray text = prometheusExposition(fabric, records);
        // The selector's matchers, as Prometheus applies them: a regular expression anchored on
        // the name, equality on the labels.
        const auto matches = [](const QString &selector, const QByteArray &line) {
            static const QRegularExpression parts(QStringLiteral("^\\{__name__=~\"([^\"]+)\",guid=\"([^\"]+)\",port=\"([^\"]+)\"\\}$"));
            const auto m = parts.match(selector);
            static const QRegularExpression sample(QStringLiteral("^(\\w+)\\{(.*)\\} \\S+$"));
            const auto s = sample.match(QString::fromUtf8(line));
            if (!m.hasMatch() || !s.hasMatch())
                return false;
            const QRegularExpression name(QStringLiteral("^(?:%1)$").arg(m.captured(1)));
            return name.match(s.captured(1)).hasMatch()
                && s.captured(2).contains(QStringLiteral("guid=\"%1\"").arg(m.captured(2)))
                && s.captured(2).contains(QStringLiteral("port=\"%1\"").arg(m.captured(3)));
        };
        int matched = 0;
        for (const QByteArray &line : text.split('\n')) {
            if (line.isEmpty() || line.startsWith('#'))
                continue;
            const bool rate = !line.contains("_packets_per_second") && !line.startsWith("weft_port_errors");
            for (const TelemetryRecord &r : records) {
                const bool own = line.contains("guid=\"" + guidText(r.guid).toLatin1() + "\",port=\"" + QByteArray::number(r.port) + "\"");
                QVERIFY2(matches(prometheusPortSelector(r.guid, r.port), line) == (own && rate), line.constData());
                matched += own && rate;
            }
        }
        QCOMPARE(matched, int(4 * records.size()));
    }

    void queryUrl()
    {
        const HistoryQuery query{kGuid, 3, 1764340000, 1764343600, 15};
        const QUrl url = prometheusQueryRangeUrl(QUrl(QStringLiteral("https://mon.example/prometheus/")), query);
        QCOMPARE(url.scheme(), QStringLiteral("https"));
        QCOMPARE(url.path(), QStringLiteral("/prometheus/api/v1/query_range"));
        const QUrlQuery parameters(url);
        QCOMPARE(parameters.queryItemValue(QStringLiteral("query"), QUrl::FullyDecoded),
                 QStringLiteral("{__name__=~\"weft_port_(xmit_bytes_per_second|rcv_bytes_per_second|xmit_wait_per_second|utilisation)\","
                                "guid=\"0x0002c90300001234\",port=\"3\"}"));
        QCOMPARE(parameters.queryItemValue(QStringLiteral("start")), QStringLiteral("1764340000.000"));
        QCOMPARE(parameters.queryItemValue(QStringLiteral("end")), QStringLiteral("1764343600.000"));
        QCOMPARE(parameters.queryItemValue(QStringLiteral("step")), QStringLiteral("15.000"));
        // GUID 0: every port's series.
        QCOMPARE(QUrlQuery(prometheusQueryRangeUrl(QUrl(QStringLiteral("http://h:9090")), {0, 0, 0, 60, 15}))
                     .queryItemValue(QStringLiteral("query"), QUrl::FullyDecoded),
                 QStringLiteral("{__name__=~\"weft_port_(xmit_bytes_per_second|rcv_bytes_per_second|xmit_wait_per_second|utilisation)\"}"));
        // A year at one second would be more points than a server evaluates: the step widens.
        const QUrl year = prometheusQueryRangeUrl(QUrl(QStringLiteral("http://h:9090")), {kGuid, 3, 0, 365 * 86400.0, 1});
        QVERIFY(QUrlQuery(year).queryItemValue(QStringLiteral("step")).toDouble() * 11000 >= 365 * 86400.0);
    }

    void serverUrl_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("url");  // or the error's words
        QTest::addRow("host:port") << QStringLiteral("mon1:9090") << QStringLiteral("http://mon1:9090");
        QTest::addRow("http") << QStringLiteral(" http://127.0.0.1:9090 ") << QStringLiteral("http://127.0.0.1:9090");
        QTest::addRow("https with a path") << QStringLiteral("https://mon/prometheus") << QStringLiteral("https://mon/prometheus");
        QTest::addRow("empty") << QString() << QStringLiteral("no Prometheus server given");
        QTest::addRow("ftp") << QStringLiteral("ftp://mon:21") << QStringLiteral("reached by http or https, not ftp");
        QTest::addRow("a query") << QStringLiteral("http://mon:9090/?x=1") << QStringLiteral("takes no query");
    }
    void serverUrl()
    {
        QFETCH(QString, text);
        QFETCH(QString, url);
        const Result<QUrl> read = prometheusServerUrl(text);
        if (url.contains(QLatin1String("://"))) {
            QVERIFY2(read, qPrintable(read ? QString() : read.error().toString()));
            QCOMPARE(read->toString(), url);
        } else {
            QVERIFY(!read);
            QVERIFY2(read.error().toString().contains(url), qPrintable(read.error().toString()));
        }
    }

    // The client against a server of the test's own: the request it sends, the points it gives.
    void clientReadsAServer()
    {
        TinyHttpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost));
        server.body = matrix({series(kPrometheusUtilisationMetric, kGuid, 2, "[1764340000,\"0.25\"],[1764340015,\"0.5\"]")});
        remote::PrometheusHistorySource source(server.url());
        const auto answer = readOnce(source, {kGuid, 2, 1764340000, 1764340015, 15});
        QVERIFY2(answer && *answer, qPrintable(errorOf(answer)));
        QCOMPARE((*answer)->size(), std::size_t(2));
        QCOMPARE((*answer)->back().utilisation.value, 0.5);
        const QUrl asked(QString::fromLatin1(server.lastTarget));
        QCOMPARE(asked.path(), QStringLiteral("/api/v1/query_range"));
        QCOMPARE(QUrlQuery(asked).queryItemValue(QStringLiteral("query"), QUrl::FullyDecoded), prometheusPortSelector(kGuid, 2));
    }

    // Every way a read fails comes back as an error naming the endpoint and the problem.
    void clientErrors_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("message");
        QTest::addRow("refused query") << QStringLiteral("refused") << QStringLiteral("Prometheus refused the query (HTTP 400): bad_data");
        QTest::addRow("HTTP error") << QStringLiteral("503") << QStringLiteral("HTTP 503 from the server");
        QTest::addRow("malformed") << QStringLiteral("malformed") << QStringLiteral("malformed JSON");
        QTest::addRow("unknown series") << QStringLiteral("empty")
                                        << QStringLiteral("no samples of {__name__=~\"weft_port_(xmit_bytes_per_second");
        QTest::addRow("server down") << QStringLiteral("down") << QStringLiteral("cannot read the history from Prometheus: Connection refused");
        QTest::addRow("no answer") << QStringLiteral("silent") << QStringLiteral("cannot read the history from Prometheus: no answer within 0.3 s");
    }
    void clientErrors()
    {
        QFETCH(QString, kind);
        QFETCH(QString, message);
        TinyHttpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost));
        const QUrl url = server.url();
        if (kind == QLatin1String("refused")) {
            server.status = 400;
            server.body = kRefused;
        } else if (kind == QLatin1String("503")) {
            server.status = 503;
            server.body = "Service Unavailable";
        } else if (kind == QLatin1String("malformed")) {
            server.body = "{\"status\":\"success\",\"data\":{\"resultT";
        } else if (kind == QLatin1String("empty")) {
            server.body = matrix({});
        } else if (kind == QLatin1String("down")) {
            server.close();
        } else {
            server.silent = true;
        }
        remote::PrometheusHistorySource source(url, 300);
        const auto answer = readOnce(source, {kGuid, 1, 1764340000, 1764343600, 15});
        QVERIFY(answer);
        QVERIFY(!*answer);
        const QString text = answer->error().toString();
        QVERIFY2(text.startsWith(url.toString() + QStringLiteral("/api/v1/query_range: ")), qPrintable(text));
        QVERIFY2(text.contains(message), qPrintable(text));
    }

    // `weft monitor --export CSV --from-prometheus URL`: every port's history from the server in
    // the --csv form; a server's refusal is said, naming the endpoint, with exit code 1.
    void commandLineExport_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QByteArray>("expected");  // standard output, or the start of standard error
        QTest::addRow("rows") << 200 << 0
                              << QByteArray("time,guid,port,xmit_bytes_per_s,rcv_bytes_per_s,xmit_wait_per_s,utilisation\n"
                                            "1764340000.000,0x0002c90300001234,1,1250000,,,0.00125\n"
                                            "1764340000.000,0x0002c90300001235,2,,,,0.5\n");
        QTest::addRow("refused") << 400 << 1 << QByteArray("weft monitor: http://127.0.0.1:");
    }
    void commandLineExport()
    {
        QFETCH(int, status);
        QFETCH(int, exitCode);
        QFETCH(QByteArray, expected);
        TinyHttpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost));
        server.status = status;
        server.body = status == 200 ? matrix({series(kPrometheusXmitBytesMetric, kGuid, 1, "[1764340000,\"1250000\"]"),
                                              series(kPrometheusUtilisationMetric, kGuid, 1, "[1764340000,\"0.00125\"]"),
                                              series(kPrometheusUtilisationMetric, kGuid + 1, 2, "[1764340000,\"0.5\"]")})
                                    : kRefused;
        QProcess weft;  // not waited for blocking: the server answers on this thread
        weft.start(qEnvironmentVariable("WEFT_BINARY"), {QStringLiteral("monitor"), QStringLiteral("--export"), QStringLiteral("-"), QStringLiteral("--from-prometheus"), server.url().toString()});
        QVERIFY(weft.waitForStarted());
        QVERIFY(QTest::qWaitFor([&] { return weft.state() == QProcess::NotRunning; }, 60000));
        const QByteArray out = weft.readAllStandardOutput();
        const QByteArray err = weft.readAllStandardError();
        QVERIFY2(weft.exitCode() == exitCode, err.constData());
        if (exitCode == 0) {
            QCOMPARE(out, expected);
        } else {
            QVERIFY2(err.startsWith(expected) && err.contains("/api/v1/query_range: Prometheus refused the query (HTTP 400)"), err.constData());
        }
        const QUrlQuery asked(QUrl(QString::fromLatin1(server.lastTarget)));
        QCOMPARE(asked.queryItemValue(QStringLiteral("query"), QUrl::FullyDecoded), prometheusPortSelector(0, 0));
        QCOMPARE(asked.queryItemValue(QStringLiteral("step")), QStringLiteral("15.000"));
        QCOMPARE(asked.queryItemValue(QStringLiteral("end")).toDouble() - asked.queryItemValue(QStringLiteral("start")).toDouble(), 3600.0);
    }

    // A source destroyed with a read under way answers no one; a context destroyed likewise.
    void noAnswerAfterTheEnd()
    {
        TinyHttpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost));
        server.silent = true;
        bool answered = false;
        {
            remote::PrometheusHistorySource source(server.url(), 5000);
            source.read({kGuid, 1, 0, 60, 15}, nullptr, [&](auto) { answered = true; });
            QTest::qWait(100);
        }
        auto source = std::make_unique<remote::PrometheusHistorySource>(server.url(), 200);
        {
            QObject context;
            source->read({kGuid, 1, 0, 60, 15}, &context, [&](auto) { answered = true; });
        }
        QTest::qWait(600);  // past the timeout: the reply finished, with no one to tell
        QVERIFY(!answered);
    }

    // The dock reads its time series from a server once switched to it (remembered in the
    // settings), shows the server's refusal in the plot's place, and goes back to the embedded
    // history.
    void dockSwitchesToAServerAndBack()
    {
        QSettings().clear();
        const Fabric generated = test::generate({FabricShapeKind::SwitchRadix, 4, 2}).fabric;
        auto fabric = std::make_shared<const Fabric>(generated);
        FabricScene scene;
        scene.setFabric(fabric, computeFabricLayout(*fabric));
        TelemetryDock dock;
        dock.setScene(&scene);
        dock.setPrometheusSourceFactory([](const QUrl &server) -> std::unique_ptr<HistorySource> {
            return std::make_unique<remote::PrometheusHistorySource>(server);
        });
        QCOMPARE(dock.prometheusServer(), QUrl());
        const Link &link = fabric->links().front();
        const Port &a = fabric->port(link.a);
        const Port &b = fabric->port(link.b);
        const double now = double(QDateTime::currentSecsSinceEpoch());
        const auto values = [&](double u) {
            return QStringLiteral("[%1,\"%2\"],[%3,\"%4\"]").arg(qint64(now) - 60).arg(u).arg(qint64(now) - 45).arg(u * 2).toLatin1();
        };
        TinyHttpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost));
        // Both directions' series in one body: each read keeps its own port's points.
        server.body = matrix({series(kPrometheusUtilisationMetric, fabric->node(a.node).guid, a.number, values(0.25)),
                              series(kPrometheusUtilisationMetric, fabric->node(b.node).guid, b.number, values(0.125))});
        dock.setPrometheusServer(server.url());
        QCOMPARE(QSettings().value(QStringLiteral("telemetry/prometheusServer")).toString(), server.url().toString());
        QSignalSpy drawn(&dock, &TelemetryDock::plotUpdated);
        dock.selectLink(LinkIndex(0));
        QVERIFY(dock.plotPending());  // the GUI thread did not wait for the server
        QVERIFY(drawn.wait(10000));
        QCOMPARE(dock.seriesCount(), 2);
        QCOMPARE(dock.seriesPoints(0).size(), std::size_t(2));
        QCOMPARE(dock.seriesPoints(0).back(), QPointF(now - 45, 50.0));
        QCOMPARE(dock.seriesPoints(1).back(), QPointF(now - 45, 25.0));
        QVERIFY2(dock.plotNote().contains(server.url().toString()), qPrintable(dock.plotNote()));
        // Ticks within the server's step do not ask it again; the plot stays.
        const int asked = server.requests;
        dock.showRecords({});
        dock.showRecords({});
        QCOMPARE(server.requests, asked);
        QCOMPARE(dock.serverReadsSpared(), 2);
        QVERIFY(!dock.plotPending());
        QCOMPARE(dock.seriesCount(), 2);

        server.status = 400;
        server.body = kRefused;
        dock.selectLink(LinkIndex(0));
        QVERIFY(drawn.wait(10000));
        QCOMPARE(dock.seriesCount(), 0);
        QVERIFY2(dock.plotNote().contains(QStringLiteral("Prometheus refused the query (HTTP 400)")), qPrintable(dock.plotNote()));

        // A new dock takes the remembered server again; choosing the embedded history forgets it.
        TelemetryDock again;
        again.setPrometheusSourceFactory([](const QUrl &url) -> std::unique_ptr<HistorySource> {
            return std::make_unique<remote::PrometheusHistorySource>(url);
        });
        QCOMPARE(again.prometheusServer(), server.url());
        QCOMPARE(again.findChild<QComboBox *>(QStringLiteral("telemetryHistorySource"))->currentIndex(), 1);
        dock.setPrometheusServer({});
        QCOMPARE(QSettings().value(QStringLiteral("telemetry/prometheusServer")).toString(), QString());
        dock.selectLink(LinkIndex(0));
        QVERIFY(!dock.plotPending());
        QVERIFY2(dock.plotNote().contains(QStringLiteral("No telemetry history is recorded")), qPrintable(dock.plotNote()));
    }
};

QTEST_MAIN(TestPrometheusHistory)
#include "tst_prometheus_history.moc"
