// Integration (issue 24): Debian's Prometheus scrapes `weft monitor --prometheus` on loopback
// while the monitor reads the real ibsim's port counters (some driven through ibsim's console,
// transmit and receive apart, so that a figure or a port mixed up cannot pass). The history read
// back from Prometheus through the desk's source (query_range) then equals, value for value, what
// the monitor served: at every evaluation time each port's four rates are one tick of the
// monitor's own record (its --json lines), the same tick for every port (one scrape serves one
// tick), a tick taken before that time and no more than a few scrapes old.

#include "GeneratedFabrics.h"
#include "LabTools.h"
#include "LoopbackPort.h"
#include "PrometheusHistorySource.h"
#include "SafeFile.h"
#include "SimulatedFabric.h"
#include "TelemetryRecord.h"
#include "TopologyFile.h"
#include "WeftRunner.h"

#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QScopeGuard>
#include <QTimer>
#include <QUrlQuery>

#include <QtTest>

#include <map>
#include <memory>
#include <optional>
#include <set>

using namespace weft;

namespace {

const QString kPrometheus = QStringLiteral("/usr/bin/prometheus");
constexpr double kStep = 0.25;     // evaluation step of the read-back: finer than the scrapes
constexpr int kScrapesWanted = 8;  // samples Prometheus holds of each series before the monitor stops
constexpr int kStalestTicks = 3;   // a value at t comes from a scrape at most a second old, of a tick before it

using PortKey = std::pair<Guid, int>;

struct Rates
{
    std::optional<double> xmit, rcv, wait, utilisation;  // nullopt: a gap (null in JSON, NaN served)
};

struct Tick
{
    double time = 0;
    std::map<PortKey, Rates> ports;
};

std::optional<double> jsonRate(const QJsonObject &o, const char *field)
{
    const QJsonValue v = o.value(QLatin1String(field));
    return v.isDouble() ? std::optional<double>(v.toDouble()) : std::nullopt;
}

std::optional<double> pointRate(const CounterRate &r)
{
    return r.ok() ? std::optional<double>(r.value) : std::nullopt;
}

bool sameRates(const Rates &served, const HistoryPoint &p)
{
    return served.xmit == pointRate(p.xmitBytes) && served.rcv == pointRate(p.rcvBytes) && served.wait == pointRate(p.xmitWait)
        && served.utilisation == pointRate(p.utilisation);
}

QString ratesText(const std::optional<double> &xmit, const std::optional<double> &rcv, const std::optional<double> &wait,
                  const std::optional<double> &u)
{
    const auto t = [](const std::optional<double> &v) { return v ? QString::number(*v, 'g', 17) : QStringLiteral("gap"); };
    return QStringLiteral("xmit %1, rcv %2, wait %3, util %4").arg(t(xmit), t(rcv), t(wait), t(u));
}

// The monitor's --json lines as complete ticks (a tick cut short when it was stopped is left
// out: its exposition was never served).
std::vector<Tick> readTicks(const QByteArray &output, std::size_t ports)
{
    std::map<double, Tick> byTime;
    for (const QByteArray &line : output.split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        if (!o.contains(QStringLiteral("time")))
            continue;
        const double time = o.value(QStringLiteral("time")).toDouble();
        Tick &tick = byTime[time];
        tick.time = time;
        const PortKey key{o.value(QStringLiteral("guid")).toString().mid(2).toULongLong(nullptr, 16), o.value(QStringLiteral("port")).toInt()};
        tick.ports[key] = Rates{jsonRate(o, "xmit_bytes_per_s"), jsonRate(o, "rcv_bytes_per_s"), jsonRate(o, "xmit_wait_per_s"),
                                jsonRate(o, "utilisation")};
    }
    std::vector<Tick> ticks;
    for (auto &[time, tick] : byTime)
        if (tick.ports.size() == ports)
            ticks.push_back(std::move(tick));
    return ticks;
}

// GET of a JSON API answer, within `timeoutMs`; an empty object when there is none.
QJsonObject getJson(QNetworkAccessManager &network, const QUrl &url, int timeoutMs = 5000)
{
    QNetworkRequest request(url);
    request.setTransferTimeout(timeoutMs);
    QNetworkReply *reply = network.get(request);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    reply->deleteLater();
    return QJsonDocument::fromJson(reply->readAll()).object();
}

// Stops a child process by its PID: asked first, then killed.
void stopProcess(QProcess &process)
{
    if (process.state() == QProcess::NotRunning)
        return;
    process.terminate();
    if (!process.waitForFinished(10000)) {
        process.kill();
        process.waitForFinished(10000);
    }
}

}  // namespace

class TestLabPrometheus : public QObject
{
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<SimulatedFabric> m_sim;
    Fabric m_fabric;
    std::size_t m_linkedPorts = 0;

private Q_SLOTS:
    void initTestCase()
    {
        const QString lab = test::labToolsProblem();
        QVERIFY2(lab.isEmpty(), qPrintable(lab));
        QVERIFY2(QFileInfo(qEnvironmentVariable("WEFT_BINARY")).isExecutable(), "WEFT_BINARY must name the weft executable");
        QVERIFY2(QFileInfo(kPrometheus).isExecutable(),
                 "this test needs Debian's prometheus package (/usr/bin/prometheus; scripts/weft-setup installs it)");

        auto started = test::startCounterLab({FabricShapeKind::SwitchRadix, 4, 2});
        QVERIFY2(started, started ? "" : qPrintable(started.error().toString()));
        m_dir = std::move(started->dir);
        m_sim = std::move(started->sim);
        m_fabric = std::move(started->fabric);
        m_linkedPorts = started->linkedPorts;
    }

    void cleanupTestCase()
    {
        if (m_sim)
            m_sim->stop();
    }

    void historyFromPrometheusEqualsTheMonitor()
    {
        const quint16 monitorPort = test::freeLoopbackPort();
        const quint16 prometheusPort = test::freeLoopbackPort();
        QVERIFY(monitorPort != 0 && prometheusPort != 0 && monitorPort != prometheusPort);

        // The monitor, every second, serving its latest tick on loopback.
        QProcess monitor;
        QProcess prometheus;
        QTimer traffic;
        // Both children are stopped however the test ends.
        auto stopBoth = qScopeGuard([&] {
            traffic.stop();
            stopProcess(monitor);
            stopProcess(prometheus);
        });
        QByteArray monitorOut;
        QByteArray monitorErr;
        connect(&monitor, &QProcess::readyReadStandardOutput, this, [&] { monitorOut += monitor.readAllStandardOutput(); });
        connect(&monitor, &QProcess::readyReadStandardError, this, [&] { monitorErr += monitor.readAllStandardError(); });
        monitor.setWorkingDirectory(m_sim->workDir());
        monitor.setProcessEnvironment(m_sim->clientEnvironment());
        monitor.start(qEnvironmentVariable("WEFT_BINARY"),
                      {QStringLiteral("monitor"), QStringLiteral("--json"), QStringLiteral("--interval"), QStringLiteral("1"),
                       QStringLiteral("--timeout"), QStringLiteral("100"), QStringLiteral("--retries"), QStringLiteral("1"),
                       QStringLiteral("--prometheus"), QStringLiteral("127.0.0.1:%1").arg(monitorPort)});
        QVERIFY(monitor.waitForStarted());

        // Traffic of its own on a few ports, transmit and receive at different rates, so that the
        // figures differ from port to port, from direction to direction and from tick to tick.
        std::vector<const Port *> driven;
        for (const Port &p : m_fabric.ports())
            if (p.present && p.link != kNoIndex && driven.size() < 4)
                driven.push_back(&p);
        quint64 round = 0;
        QString trafficProblem;
        connect(&traffic, &QTimer::timeout, this, [&] {
            ++round;
            QStringList commands;
            quint64 i = 0;
            for (const Port *p : driven) {
                ++i;
                const QString at = QStringLiteral("PerformanceSet \"%1\"[%2] ").arg(m_fabric.node(p->node).name).arg(p->number);
                commands << at + QStringLiteral("PortCountersExtended.PortXmitData=%1").arg(1000000000000ull + round * i * 700000ull)
                         << at + QStringLiteral("PortCountersExtended.PortRcvData=%1").arg(1000000000000ull + round * i * 300000ull)
                         << at + QStringLiteral("PortCounters.PortXmitWait=%1").arg(round * i * 1000ull);
            }
            if (const Status set = m_sim->simulatorCommands(commands); !set)
                trafficProblem = set.error().toString();
        });
        traffic.start(300);

        // Prometheus, scraping it every second into a store of the test's own.
        const QString config = m_dir->filePath(QStringLiteral("prometheus.yml"));
        QVERIFY(writeFileAtomically(config, QStringLiteral("global:\n"
                                                           "  scrape_interval: 1s\n"
                                                           "  scrape_timeout: 1s\n"
                                                           "scrape_configs:\n"
                                                           "  - job_name: weft\n"
                                                           "    static_configs:\n"
                                                           "      - targets: ['127.0.0.1:%1']\n")
                                                .arg(monitorPort)
                                                .toUtf8(),
                                    false)
                    .ok());
        const QString prometheusLog = m_dir->filePath(QStringLiteral("prometheus.log"));
        prometheus.setProcessChannelMode(QProcess::MergedChannels);
        prometheus.setStandardOutputFile(prometheusLog);
        prometheus.start(kPrometheus, {QStringLiteral("--config.file=") + config, QStringLiteral("--storage.tsdb.path=") + m_dir->filePath(QStringLiteral("tsdb")), QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(prometheusPort)});
        QVERIFY(prometheus.waitForStarted());
        const auto prometheusSaid = [&] { return QString::fromUtf8(test::readAll(prometheusLog).right(3000)); };

        // Until Prometheus holds several samples of every port's series.
        const QUrl server(QStringLiteral("http://127.0.0.1:%1").arg(prometheusPort));
        QNetworkAccessManager network;
        QUrl count = server;
        count.setPath(QStringLiteral("/api/v1/query"));
        count.setQuery(QUrlQuery{{QStringLiteral("query"), QStringLiteral("min(count_over_time(weft_port_utilisation[5m]))")}});
        int scraped = 0;
        QElapsedTimer waited;
        waited.start();
        while (scraped < kScrapesWanted && waited.elapsed() < 120000 && prometheus.state() == QProcess::Running
               && monitor.state() == QProcess::Running) {
            QTest::qWait(500);
            const QJsonArray result = getJson(network, count).value(QStringLiteral("data")).toObject().value(QStringLiteral("result")).toArray();
            if (!result.isEmpty())
                scraped = result.at(0).toObject().value(QStringLiteral("value")).toArray().at(1).toString().toInt();
        }
        QVERIFY2(monitor.state() == QProcess::Running, monitorErr.constData());
        QVERIFY2(prometheus.state() == QProcess::Running, qPrintable(prometheusSaid()));
        QVERIFY2(scraped >= kScrapesWanted,
                 qPrintable(QStringLiteral("Prometheus holds %1 samples after %2 ms; it said:\n%3").arg(scraped).arg(waited.elapsed()).arg(prometheusSaid())));

        // The monitor stops; what it printed is what it served.
        traffic.stop();
        QVERIFY2(trafficProblem.isEmpty(), qPrintable(trafficProblem));
        const double stoppedAt = double(QDateTime::currentMSecsSinceEpoch()) / 1000;
        stopProcess(monitor);
        monitorOut += monitor.readAllStandardOutput();
        const std::vector<Tick> ticks = readTicks(monitorOut, m_linkedPorts);
        QVERIFY2(ticks.size() >= std::size_t(kScrapesWanted), monitorErr.constData());

        // Read back through the desk's source, port by port, over the whole run.
        remote::PrometheusHistorySource source(server);
        int points = 0;
        std::map<double, std::map<PortKey, const HistoryPoint *>> byTime;
        std::map<PortKey, std::vector<HistoryPoint>> history;
        for (const auto &[key, rates] : ticks.front().ports) {
            std::optional<Result<std::vector<HistoryPoint>>> answer;
            source.read({key.first, key.second, ticks.front().time - 2, stoppedAt, kStep}, this,
                        [&](Result<std::vector<HistoryPoint>> read) { answer = std::move(read); });
            QVERIFY(QTest::qWaitFor([&] { return answer.has_value(); }, 30000));
            QVERIFY2(*answer, qPrintable(*answer ? QString() : answer->error().toString()));
            history[key] = std::move(**answer);
            points += int(history[key].size());
        }
        for (const auto &[key, series] : history)
            for (const HistoryPoint &p : series) {
                QVERIFY(PortKey(p.guid, p.port) == key);
                byTime[p.time][key] = &p;
            }

        // At each evaluation time: every port's values are one tick of the monitor's, the same
        // tick for all ports, taken before that time and not stale.
        std::set<std::size_t> identified;  // ticks a time's values single out
        int asymmetric = 0;
        for (const auto &[time, ports] : byTime) {
            QVERIFY2(ports.size() == m_linkedPorts, qPrintable(QStringLiteral("%1 of %2 ports at %3").arg(ports.size()).arg(m_linkedPorts).arg(time, 0, 'f', 3)));
            std::set<std::size_t> common;
            for (std::size_t j = 0; j < ticks.size(); ++j)
                common.insert(j);
            for (const auto &[key, p] : ports) {
                std::set<std::size_t> matching;
                for (std::size_t j : common)
                    if (sameRates(ticks[j].ports.at(key), *p))
                        matching.insert(j);
                const QString where = QStringLiteral("0x%1[%2] at %3").arg(key.first, 16, 16, QLatin1Char('0')).arg(key.second).arg(time, 0, 'f', 3);
                QVERIFY2(!matching.empty(),
                         qPrintable(where + QStringLiteral(": Prometheus gave %1, which is no tick the monitor served (with the other ports)").arg(ratesText(pointRate(p->xmitBytes), pointRate(p->rcvBytes), pointRate(p->xmitWait), pointRate(p->utilisation)))));
                common = std::move(matching);
                asymmetric += p->xmitBytes.ok() && p->rcvBytes.ok() && p->xmitBytes.value != p->rcvBytes.value;
            }
            std::size_t latestBefore = 0;  // the last tick taken at or before `time`
            while (latestBefore + 1 < ticks.size() && ticks[latestBefore + 1].time <= time)
                ++latestBefore;
            const std::size_t newest = *common.rbegin();
            QVERIFY2(ticks[*common.begin()].time <= time,
                     qPrintable(QStringLiteral("at %1 Prometheus has the tick of %2, taken later").arg(time, 0, 'f', 3).arg(ticks[*common.begin()].time, 0, 'f', 3)));
            QVERIFY2(newest + kStalestTicks >= latestBefore,
                     qPrintable(QStringLiteral("at %1 Prometheus has the tick of %2, %3 ticks old").arg(time, 0, 'f', 3).arg(ticks[newest].time, 0, 'f', 3).arg(latestBefore - newest)));
            if (common.size() == 1)
                identified.insert(*common.begin());
        }
        // The comparison singled out ticks (the figures were not all alike) and saw the run.
        QVERIFY2(identified.size() >= std::size_t(kScrapesWanted / 2),
                 qPrintable(QStringLiteral("%1 ticks singled out by %2 evaluation times").arg(identified.size()).arg(byTime.size())));
        QVERIFY(asymmetric > 0);

        // The command line reads the same server for scripts: `weft monitor --export` of every
        // port's history from it, in the --csv form, holds only rows the monitor served.
        const auto cli = test::runWeft({QStringLiteral("monitor"), QStringLiteral("--export"), QStringLiteral("-"),
                                        QStringLiteral("--from-prometheus"), server.toString(), QStringLiteral("--since"),
                                        QString::number(double(QDateTime::currentMSecsSinceEpoch()) / 1000 - ticks.front().time + 2, 'f', 3),
                                        QStringLiteral("--step"), QString::number(kStep)},
                                       60000);
        QVERIFY2(cli.exitCode == 0, cli.err.constData());
        std::map<PortKey, std::set<QByteArray>> served;  // each port's ticks as CSV rows, less the time
        const auto csvRate = [](const std::optional<double> &v) { return v ? CounterRate{*v, CounterGap::None} : CounterRate{0, CounterGap::NoAnswer}; };
        for (const Tick &tick : ticks)
            for (const auto &[key, r] : tick.ports) {
                const QByteArray row = telemetryCsvRow(0, key.first, key.second, csvRate(r.xmit), csvRate(r.rcv), csvRate(r.wait), csvRate(r.utilisation));
                served[key].insert(row.mid(row.indexOf(',') + 1));
            }
        QList<QByteArray> rows = cli.out.split('\n');
        QCOMPARE(rows.takeFirst(), QByteArray("time,guid,port,xmit_bytes_per_s,rcv_bytes_per_s,xmit_wait_per_s,utilisation"));
        std::set<PortKey> exported;
        for (const QByteArray &row : rows) {
            if (row.isEmpty())
                continue;
            const QList<QByteArray> fields = row.split(',');
            QVERIFY2(fields.size() == 7, row.constData());
            const PortKey key{fields[1].mid(2).toULongLong(nullptr, 16), fields[2].toInt()};
            QVERIFY2(served.count(key) && served[key].count(row.mid(row.indexOf(',') + 1) + '\n'),
                     qPrintable(QStringLiteral("weft monitor --export --from-prometheus: %1 is no row the monitor served").arg(QString::fromUtf8(row))));
            exported.insert(key);
        }
        QCOMPARE(exported.size(), m_linkedPorts);
        qInfo("%d points of %zu ports at %zu times matched %zu of the monitor's %zu ticks", points, m_linkedPorts, byTime.size(),
              identified.size(), ticks.size());
    }
};

QTEST_MAIN(TestLabPrometheus)
#include "tst_lab_prometheus.moc"
