// weft monitor: discovers the fabric once through the local adapter, then reads every linked
// port's counters each interval and prints the rates: one JSON object per port per tick, or
// the busiest links; optionally as CSV, into the history database, and for Prometheus.

#include "CliSupport.h"
#include "Commands.h"
#include "FabricChanges.h"
#include "HttpListener.h"

#include "LiveFabric.h"
#include "PortCounterReader.h"
#include "PrometheusExposition.h"
#include "PrometheusHistory.h"
#include "PrometheusHistorySource.h"
#include "SafeFile.h"
#include "TelemetryHistory.h"
#include "TelemetryHistoryWriter.h"
#include "TelemetryRecord.h"

#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QJsonDocument>
#include <QJsonObject>
#include <QEventLoop>
#include <QTimer>

#include <algorithm>
#include <chrono>
#include <optional>
#include <thread>

namespace weft::cli {

namespace {

constexpr int kBusiestShown = 10;

// "ADDR:PORT", "[v6]:PORT", or a port alone (then on loopback). False when it is none of these.
bool parseListenAddress(const QString &text, QHostAddress *address, quint16 *port)
{
    const qsizetype colon = text.lastIndexOf(QLatin1Char(':'));
    QString host = colon < 0 ? QString() : text.left(colon);
    bool ok = false;
    const uint number = text.mid(colon + 1).toUInt(&ok);
    if (!ok || number == 0 || number > 65535)
        return false;
    *port = quint16(number);
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        host = host.mid(1, host.size() - 2);
    if (host.isEmpty()) {
        *address = QHostAddress(QHostAddress::LocalHost);
        return true;
    }
    return address->setAddress(host);
}

// Between two passes at least this long goes to answering scrapes, even when a pass took longer
// than the interval (an HTTP exchange takes a few turns of the event loop).
constexpr int kMinimumServingMs = 50;

// The Prometheus endpoint. It answers on the monitor's own thread, between passes (so the text
// it serves is never half-replaced and nothing needs a lock); a scrape that arrives during a
// pass waits for its end, as for any slow target. The listener's limits keep any client from
// holding the monitor up or using up its descriptors.
class MetricsServer
{
public:
    bool listen(const QHostAddress &address, quint16 port, QString *error)
    {
        m_listener.route("/metrics", [this](const net::HttpRequest &) {
            return net::HttpReply{200, "text/plain; version=0.0.4; charset=utf-8", m_text, {}};
        });
        return m_listener.listen(address, port, error);
    }

    void setText(QByteArray text) { m_text = std::move(text); }
    net::HttpListener &listener() { return m_listener; }

private:
    net::HttpListener m_listener;
    QByteArray m_text;
};

// Whether the pass shows the fabric changing under the monitor: a node that answered before is
// silent now (or the other way round), or a port counted its link going down.
bool fabricMayHaveChanged(const PortCounterPass &before, const PortCounterPass &now)
{
    std::vector<NodeIndex> a = before.silentNodes, b = now.silentNodes;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    if (a != b)
        return true;
    constexpr auto kLinkDowned = std::size_t(PortErrorCounter::LinkDowned);
    for (std::size_t i = 0; i < now.samples.size() && i < before.samples.size(); ++i) {
        const PortCounterSample &a = before.samples[i];
        const PortCounterSample &b = now.samples[i];
        if (a.answered && b.answered && !a.clearedAfter && b.errors[kLinkDowned] > a.errors[kLinkDowned])
            return true;
    }
    return false;
}

// Waits until `until` (at least kMinimumServingMs), answering scrapes meanwhile.
void waitServing(std::chrono::steady_clock::time_point until)
{
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
    QEventLoop loop;
    QTimer::singleShot(std::max<int>(kMinimumServingMs, int(left.count())), &loop, &QEventLoop::quit);
    loop.exec();
}

QJsonValue jsonRate(const CounterRate &rate)
{
    return rate.ok() ? QJsonValue(rate.value) : QJsonValue(QJsonValue::Null);
}

QJsonObject recordJson(const TelemetryRecord &r)
{
    QJsonObject o{{QStringLiteral("time"), r.time},
                  {QStringLiteral("guid"), guidText(r.guid)},
                  {QStringLiteral("port"), r.port},
                  {QStringLiteral("lid"), r.lid},
                  {QStringLiteral("interval_s"), r.seconds > 0 ? QJsonValue(r.seconds) : QJsonValue(QJsonValue::Null)},
                  {QStringLiteral("xmit_bytes_per_s"), jsonRate(r.rates.xmitBytes)},
                  {QStringLiteral("rcv_bytes_per_s"), jsonRate(r.rates.rcvBytes)},
                  {QStringLiteral("xmit_packets_per_s"), jsonRate(r.rates.xmitPackets)},
                  {QStringLiteral("rcv_packets_per_s"), jsonRate(r.rates.rcvPackets)},
                  {QStringLiteral("xmit_wait_per_s"), jsonRate(r.rates.xmitWait)},
                  {QStringLiteral("utilisation"), jsonRate(r.rates.utilisation)}};
    QJsonObject errors;
    QJsonObject gaps;
    auto noteGap = [&](const char *field, CounterGap gap) {
        if (gap != CounterGap::None)
            gaps.insert(QLatin1String(field), counterGapName(gap));
    };
    noteGap("xmit_bytes_per_s", r.rates.xmitBytes.gap);
    noteGap("rcv_bytes_per_s", r.rates.rcvBytes.gap);
    noteGap("xmit_packets_per_s", r.rates.xmitPackets.gap);
    noteGap("rcv_packets_per_s", r.rates.rcvPackets.gap);
    noteGap("xmit_wait_per_s", r.rates.xmitWait.gap);
    noteGap("utilisation", r.rates.utilisation.gap);
    for (int e = 0; e < kPortErrorCounterCount; ++e) {
        const CounterDelta &d = r.rates.errors[std::size_t(e)];
        const QString name = portErrorCounterName(PortErrorCounter(e));
        if (d.ok())
            errors.insert(name, double(d.delta));
        else
            gaps.insert(name, counterGapName(d.gap));
    }
    o.insert(QStringLiteral("errors"), errors);
    if (const CounterGap gap = r.rates.firstGap(); gap != CounterGap::None)
        o.insert(QStringLiteral("gap"), counterGapName(gap));
    if (!gaps.isEmpty())
        o.insert(QStringLiteral("gaps"), gaps);
    return o;
}

// The counters as read, named as perfquery names them.
QJsonObject countersJson(const PortCounterSample &s)
{
    if (!s.answered)
        return {};
    QJsonObject o{{QStringLiteral("extended"), s.extended},
                  {QStringLiteral("PortXmitData"), double(s.xmitData)},
                  {QStringLiteral("PortRcvData"), double(s.rcvData)},
                  {QStringLiteral("PortXmitPkts"), double(s.xmitPackets)},
                  {QStringLiteral("PortRcvPkts"), double(s.rcvPackets)},
                  {QStringLiteral("PortXmitWait"), double(s.xmitWait)}};
    for (int e = 0; e < kPortErrorCounterCount; ++e)
        o.insert(portErrorCounterName(PortErrorCounter(e)), double(s.errors[std::size_t(e)]));
    return o;
}

QString bytesText(const CounterRate &rate)
{
    if (!rate.ok())
        return QStringLiteral("(%1)").arg(counterGapName(rate.gap));
    return QStringLiteral("%1 MB/s").arg(rate.value / 1e6, 0, 'f', 1);
}

void printBusiest(const Fabric &fabric, std::vector<TelemetryRecord> records, const PortCounterPass &pass)
{
    std::stable_sort(records.begin(), records.end(), [](const TelemetryRecord &a, const TelemetryRecord &b) {
        const double ua = a.rates.xmitBytes.ok() ? a.rates.xmitBytes.value : -1;
        const double ub = b.rates.xmitBytes.ok() ? b.rates.xmitBytes.value : -1;
        return ua > ub;
    });
    int gapped = 0;
    for (const TelemetryRecord &r : records)
        gapped += r.rates.firstGap() != CounterGap::None;
    out() << QDateTime::fromMSecsSinceEpoch(qint64(pass.wallTime * 1000)).toString(Qt::ISODate) << ": " << records.size()
          << " ports";
    if (gapped)
        out() << ", " << gapped << " with gaps";
    if (!pass.silentNodes.empty())
        out() << ", " << pass.silentNodes.size() << " nodes not answering";
    out() << "\n";
    const int shown = std::min<int>(kBusiestShown, int(records.size()));
    for (int i = 0; i < shown; ++i) {
        const TelemetryRecord &r = records[std::size_t(i)];
        if (!r.rates.xmitBytes.ok())
            break;
        const Port &port = fabric.port(r.portIndex);
        QString peer;
        if (port.remote != kNoIndex) {
            const Port &remote = fabric.port(port.remote);
            peer = QStringLiteral(" -> \"%1\"[%2]").arg(fabric.node(remote.node).description).arg(remote.number);
        }
        out() << "  \"" << fabric.node(port.node).description << "\"[" << r.port << "]" << peer << "  xmit "
              << bytesText(r.rates.xmitBytes);
        if (r.rates.utilisation.ok())
            out() << " (" << QString::number(r.rates.utilisation.value * 100, 'f', 1) << " %)";
        out() << ", rcv " << bytesText(r.rates.rcvBytes);
        if (r.rates.xmitWait.ok() && r.rates.xmitWait.value > 0)
            out() << ", xmit wait " << QString::number(r.rates.xmitWait.value, 'f', 0) << "/s";
        out() << "\n";
    }
    out().flush();
}

// Prints "weft monitor: <error>" on stderr and returns kExitFailure.
int reportFailure(const Error &error)
{
    err() << "weft monitor: " << error.toString() << Qt::endl;
    return kExitFailure;
}

// Every port's points over `query` from a Prometheus server, read as the desk's Telemetry dock
// reads them, waited for.
Result<std::vector<HistoryPoint>> readFromPrometheus(const QUrl &server, const HistoryQuery &query)
{
    remote::PrometheusHistorySource source(server);
    std::optional<Result<std::vector<HistoryPoint>>> answer;
    QEventLoop loop;
    source.read(query, &loop, [&](Result<std::vector<HistoryPoint>> points) {
        answer = std::move(points);
        loop.quit();
    });
    if (!answer)
        loop.exec();
    return std::move(*answer);
}

}  // namespace

int monitor(const QStringList &args)
{
    const QString command = QStringLiteral("monitor");
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Discovers the fabric through the local InfiniBand adapter once, then reads the port counters\n"
        "of every linked port each interval (PortCountersExtended where the node has them, PortCounters\n"
        "otherwise, as perfquery) and prints the rates per port and direction.\n"
        "The first reading only primes the counters: the first rates are printed one interval later, and\n"
        "a note says so at the start (on standard error with --json, whose standard output is JSON lines only).\n"
        "A figure that cannot be trusted is left out and its reason given (\"gap\": \"cleared\",\n"
        "\"saturated\", \"no-answer\", \"implausible\", ...), never shown as a negative or huge rate.\n"
        "A pass keeps up to --outstanding-mads queries in flight on one MAD port, fewer while they time out;\n"
        "one that times out is sent again (--retries), and a tick with losses says so on standard error, as\n"
        "does a tick that starts more than a fifth of the interval late."));
    addLiveOptions(parser, QStringLiteral("MAD"));
    parser.addOption({QStringLiteral("outstanding-mads"), QStringLiteral("Port counter queries kept in flight at most (default 64); below it the number adapts to timeouts."), QStringLiteral("N"), QStringLiteral("64")});
    parser.addOption({QStringLiteral("interval"), QStringLiteral("Seconds between readings (default 10)."), QStringLiteral("S"), QStringLiteral("10")});
    parser.addOption({QStringLiteral("count"), QStringLiteral("Stop after N ticks of rates (default: run until interrupted)."), QStringLiteral("N"), QStringLiteral("0")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print one JSON object per port per tick.")});
    parser.addOption({QStringLiteral("clear-counters"), QStringLiteral("Clear a port's 32-bit PortCounters once one passes 75 % of its range (a PMA Set, as perfquery -R and OpenSM's perfmgr); off by default.")});
    parser.addOption({QStringLiteral("basic-counters"), QStringLiteral("Read data and packet counters from PortCounters (32 bits) even where PortCountersExtended (64 bits, the default) is there, as on old hardware.")});
    parser.addOption({QStringLiteral("counters"), QStringLiteral("With --json: add the counters as read (\"counters\", perfquery's names).")});
    parser.addOption({QStringLiteral("csv"), QStringLiteral("Also write the samples as CSV (time,guid,port,xmit_bytes_per_s,rcv_bytes_per_s,xmit_wait_per_s,utilisation)."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("prometheus"), QStringLiteral("Serve the latest tick at http://ADDR:PORT/metrics in Prometheus' text format (a port alone: loopback)."), QStringLiteral("ADDR:PORT")});
    parser.addOption({QStringLiteral("db"), QStringLiteral("Record every tick into this history (SQLite, one file per fabric; continued when it exists)."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("raw-window"), QStringLiteral("With --db: seconds of raw ticks kept; older ones become per-minute means and maxima (default 86400)."), QStringLiteral("S"), QStringLiteral("86400")});
    parser.addOption({QStringLiteral("bucket-window"), QStringLiteral("With --db: seconds of per-minute means and maxima kept; older ones are deleted (default 7776000, 90 days; 0: all)."), QStringLiteral("S"), QStringLiteral("7776000")});
    parser.addOption({QStringLiteral("export"), QStringLiteral("With --db: write the history as CSV (the --csv form) and exit, without a fabric."), QStringLiteral("CSV")});
    parser.addOption({QStringLiteral("from-prometheus"), QStringLiteral("With --export: read the history from this Prometheus server (what it scraped of `weft monitor --prometheus`, by its query_range API) instead of --db."), QStringLiteral("URL")});
    parser.addOption({QStringLiteral("since"), QStringLiteral("With --from-prometheus: seconds of history up to now (default 3600)."), QStringLiteral("S"), QStringLiteral("3600")});
    parser.addOption({QStringLiteral("step"), QStringLiteral("With --from-prometheus: seconds between the points the server evaluates (default 15)."), QStringLiteral("S"), QStringLiteral("15")});
    int exitCode = kExitOk;
    if (!parseArguments(parser, command, args, &exitCode))
        return exitCode;
    if (!requireOptionsOnly(parser, command, {}, &exitCode))
        return exitCode;

    LiveOptions options;
    if (!readLiveOptions(parser, command, &options, &exitCode))
        return exitCode;
    bool ok = false;
    const int inFlight = parser.value(QStringLiteral("outstanding-mads")).toInt(&ok);
    if (!ok || inFlight < 1 || inFlight > 256)
        return reportBadInput(command, QStringLiteral("--outstanding-mads: not a count from 1 to 256: \"%1\"").arg(parser.value(QStringLiteral("outstanding-mads"))));
    const double interval = parser.value(QStringLiteral("interval")).toDouble(&ok);
    if (!ok || !(interval > 0) || interval > 86400)
        return reportBadInput(command, QStringLiteral("--interval: not a number of seconds from 0 to 86400: \"%1\"").arg(parser.value(QStringLiteral("interval"))));
    const int count = parser.value(QStringLiteral("count")).toInt(&ok);
    if (!ok || count < 0)
        return reportBadInput(command, QStringLiteral("--count: not a count: \"%1\"").arg(parser.value(QStringLiteral("count"))));
    const bool json = parser.isSet(QStringLiteral("json"));
    const bool withCounters = parser.isSet(QStringLiteral("counters"));
    const QString csvPath = parser.value(QStringLiteral("csv"));

    const QString dbPath = parser.value(QStringLiteral("db"));
    TelemetryHistoryOptions historyOptions;
    historyOptions.rawWindowSeconds = parser.value(QStringLiteral("raw-window")).toDouble(&ok);
    if (!ok || historyOptions.rawWindowSeconds < 0)
        return reportBadInput(command, QStringLiteral("--raw-window: not a number of seconds: \"%1\"").arg(parser.value(QStringLiteral("raw-window"))));
    historyOptions.bucketWindowSeconds = parser.value(QStringLiteral("bucket-window")).toDouble(&ok);
    if (!ok || historyOptions.bucketWindowSeconds < 0)
        return reportBadInput(command, QStringLiteral("--bucket-window: not a number of seconds: \"%1\"").arg(parser.value(QStringLiteral("bucket-window"))));
    if (parser.isSet(QStringLiteral("export")) && parser.isSet(QStringLiteral("from-prometheus"))) {
        const Result<QUrl> server = prometheusServerUrl(parser.value(QStringLiteral("from-prometheus")));
        if (!server)
            return reportBadInput(command, QStringLiteral("--from-prometheus: ") + server.error().toString());
        const double since = parser.value(QStringLiteral("since")).toDouble(&ok);
        if (!ok || !(since > 0))
            return reportBadInput(command, QStringLiteral("--since: not a positive number of seconds: \"%1\"").arg(parser.value(QStringLiteral("since"))));
        const double step = parser.value(QStringLiteral("step")).toDouble(&ok);
        if (!ok || !(step > 0))
            return reportBadInput(command, QStringLiteral("--step: not a positive number of seconds: \"%1\"").arg(parser.value(QStringLiteral("step"))));
        const double now = double(QDateTime::currentMSecsSinceEpoch()) / 1000;
        const Result<std::vector<HistoryPoint>> points = readFromPrometheus(*server, {0, 0, now - since, now, step});
        if (!points)
            return reportFailure(points.error());
        QByteArray csv = telemetryCsvHeader();
        for (const HistoryPoint &p : *points)
            csv += telemetryCsvRow(p.time, p.guid, p.port, p.xmitBytes, p.rcvBytes, p.xmitWait, p.utilisation);
        if (Status s = writeOutput(parser.value(QStringLiteral("export")), csv); !s)
            return reportFailure(s.error());
        return kExitOk;
    }
    if (parser.isSet(QStringLiteral("export"))) {
        if (dbPath.isEmpty())
            return reportBadInput(command, QStringLiteral("--export needs --db, the history to export (or --from-prometheus, a server's)"));
        if (!QFileInfo::exists(dbPath))
            return reportBadInput(command, Error{dbPath, 0, QStringLiteral("no such telemetry history")});
        // The file says which fabric it belongs to; an export does not need to know.
        Result<QString> id = telemetryHistoryFabric(dbPath);
        if (!id)
            return reportBadInput(command, id.error());
        Result<std::unique_ptr<TelemetryHistory>> history = TelemetryHistory::open(dbPath, *id, historyOptions);
        if (!history)
            return reportBadInput(command, history.error());
        if (Status s = (*history)->exportCsv(parser.value(QStringLiteral("export"))); !s)
            return reportFailure(s.error());
        return kExitOk;
    }

    Result<Fabric> fabric = discoverFabric(options);
    if (!fabric)
        return reportFailure(fabric.error());
    QHostAddress listenAddress;
    quint16 listenPort = 0;
    if (parser.isSet(QStringLiteral("prometheus"))
        && !parseListenAddress(parser.value(QStringLiteral("prometheus")), &listenAddress, &listenPort))
        return reportBadInput(command, QStringLiteral("--prometheus: not ADDR:PORT or a port: \"%1\"").arg(parser.value(QStringLiteral("prometheus"))));

    // Written on a thread of its own: a minute's fold of 20,000 ports' raw rows can take longer
    // than a tick.
    std::unique_ptr<TelemetryHistoryWriter> history;
    if (!dbPath.isEmpty()) {
        Result<std::unique_ptr<TelemetryHistoryWriter>> opened = TelemetryHistoryWriter::open(dbPath, fabricHistoryId(*fabric), historyOptions);
        if (!opened)
            return reportBadInput(command, opened.error());
        history = std::move(*opened);
    }
    PortCounterReader reader(*fabric, options, inFlight);
    reader.setClearCounters(parser.isSet(QStringLiteral("clear-counters")));
    reader.setBasicCounters(parser.isSet(QStringLiteral("basic-counters")));
    Result<PortCounterPass> previous = reader.read();
    if (!previous)
        return reportFailure(previous.error());
    // Rates need two readings, so nothing follows for a whole interval: say why. With --json,
    // standard output holds only the records, so the note goes to standard error.
    const QString priming = QStringLiteral("priming the counters: the first rates follow in %1 s").arg(interval);
    if (json)
        err() << "weft " << command << ": monitoring " << reader.ports().size() << " ports every " << interval << " s; " << priming << Qt::endl;
    else
        out() << "monitoring " << reader.ports().size() << " ports every " << interval << " s; " << priming << Qt::endl;

    // The latest tick, as a scrape answers it (before the first tick: the descriptions alone).
    std::unique_ptr<MetricsServer> server;
    if (listenPort != 0) {
        server = std::make_unique<MetricsServer>();
        server->setText(prometheusExposition(*fabric, {}));
        QString why;
        if (!server->listen(listenAddress, listenPort, &why)) {
            err() << "weft " << command << ": cannot listen on " << listenAddress.toString() << " port " << listenPort << ": " << why << Qt::endl;
            return kExitFailure;
        }
        QObject::connect(&server->listener(), &net::HttpListener::problem, [command](const QString &message) {
            err() << "weft " << command << ": --prometheus: " << message << Qt::endl;
        });
    }

    // The fabric as last discovered: a change is told against it, once.
    Fabric seen = *fabric;
    auto tellChanges = [&] {
        Result<Fabric> now = discoverFabric(options);
        if (!now) {
            err() << "weft " << command << ": the fabric changed, but discovering it again failed: " << now.error().toString() << Qt::endl;
            return;
        }
        const FabricChanges changes = compareFabrics(seen, *now);
        QStringList lines;
        for (const QString &link : changes.linksGone)
            lines << QStringLiteral("cable lost: ") + link;
        for (const QString &link : changes.linksNew)
            lines << QStringLiteral("cable back: ") + link;
        for (const QString &node : changes.nodesGone)
            lines << QStringLiteral("node gone: ") + node;
        for (const QString &node : changes.nodesNew)
            lines << QStringLiteral("node back: ") + node;
        // On standard error with --json, which keeps standard output for the records.
        for (const QString &line : lines)
            (json ? err() << "weft " << command << ": " : out()) << line << Qt::endl;
        seen = std::move(*now);
    };

    // The CSV replaces what the path held (atomically, with a backup), then grows by one write of
    // each tick's rows: rewriting it whole each tick would cost more with every tick.
    QFile csv;
    if (!csvPath.isEmpty()) {
        if (Status s = writeOutput(csvPath, telemetryCsvHeader()); !s)
            return reportFailure(s.error());
        const bool toStdout = csvPath == QLatin1String("-");
        if (!toStdout)
            csv.setFileName(csvPath);
        if (!(toStdout ? csv.open(stdout, QIODevice::WriteOnly) : csv.open(QIODevice::WriteOnly | QIODevice::Append)))
            return reportFailure(Error{csvPath, 0, QStringLiteral("cannot append to it: %1").arg(csv.errorString())});
    }
    auto nextAt = std::chrono::steady_clock::now();
    double lastPassSeconds = 0;
    double lastOutputSeconds = 0;
    const auto step = std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(interval));
    for (int tick = 1; count == 0 || tick <= count; ++tick) {
        // A pass longer than the interval delays the next one; it does not queue up a burst.
        const auto due = nextAt + step;
        const auto now = std::chrono::steady_clock::now();
        nextAt = std::max(due, now);
        // Said when a tick starts more than a fifth of the interval late (the last pass and its
        // outputs took longer than the interval), with how late and what took the time.
        if (tick > 1 && now - due > step / 5)
            err() << "weft " << command << ": tick " << tick << " is " << QString::number(std::chrono::duration<double>(now - due).count(), 'f', 2)
                  << " s late: the last tick's pass took " << QString::number(lastPassSeconds, 'f', 2) << " s and its outputs "
                  << QString::number(lastOutputSeconds, 'f', 2) << " s" << Qt::endl;
        if (server)
            waitServing(nextAt);
        else
            std::this_thread::sleep_until(nextAt);
        const auto passStart = std::chrono::steady_clock::now();
        Result<PortCounterPass> pass = reader.read();
        const auto passEnd = std::chrono::steady_clock::now();
        lastPassSeconds = std::chrono::duration<double>(passEnd - passStart).count();
        lastOutputSeconds = 0;
        if (!pass) {
            // A pass that could not be made (the adapter gone a while, out of descriptors) is a
            // gap: said, and the next tick tries again; the rates then span the gap.
            err() << "weft " << command << ": tick " << tick << ": no pass: " << pass.error().toString()
                  << "; trying again in " << interval << " s" << Qt::endl;
            continue;
        }
        if (fabricMayHaveChanged(*previous, *pass))
            tellChanges();
        std::vector<TelemetryRecord> records = telemetryRecords(
            *fabric, reader.ports(), previous->samples, previous->readAt, pass->samples, pass->readAt, pass->wallTime);
        if (json) {
            for (std::size_t i = 0; i < records.size(); ++i) {
                QJsonObject o = recordJson(records[i]);
                if (withCounters)
                    o.insert(QStringLiteral("counters"), countersJson(pass->samples[i]));
                out() << QJsonDocument(o).toJson(QJsonDocument::Compact) << '\n';
            }
            out().flush();
        } else {
            printBusiest(*fabric, records, *pass);
        }
        if (pass->mads.timeouts > 0)
            err() << "weft " << command << ": tick " << tick << ": " << pass->mads.timeouts << " of " << pass->mads.sent
                  << " queries went unanswered in time; " << pass->mads.resent << " sent again, " << pass->mads.failed
                  << " given up" << Qt::endl;
        if (!pass->silentNodes.empty()) {
            QStringList names;
            for (NodeIndex n : pass->silentNodes)
                names << QStringLiteral("\"%1\" (%2)").arg(fabric->node(n).description, guidText(fabric->node(n).guid));
            err() << "weft " << command << ": no answer from " << names.join(QStringLiteral(", ")) << Qt::endl;
        }
        if (csv.isOpen()) {
            QByteArray rows;
            rows.reserve(qsizetype(records.size()) * 64);
            for (const TelemetryRecord &r : records)
                rows += telemetryCsvRow(r);
            out().flush();  // when the CSV goes to standard output too
            if (csv.write(rows) != rows.size() || !csv.flush())
                return reportFailure(Error{csvPath, 0, QStringLiteral("cannot append tick %1: %2").arg(tick).arg(csv.errorString())});
        }
        if (server)
            server->setText(prometheusExposition(*fabric, records));
        if (history) {
            if (Status s = history->record(std::move(records)); !s)
                return reportFailure(s.error());
        }
        lastOutputSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - passEnd).count();
        previous = std::move(pass);
    }
    if (history) {
        if (Status s = history->flush(); !s)
            return reportFailure(s.error());
    }
    return kExitOk;
}

}  // namespace weft::cli
