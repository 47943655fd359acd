// Integration: `weft monitor` as a client of the real ibsim, with the real OpenSM managing the
// subnet. The counters Weft reads through the PMA must be perfquery's; counters set with ibsim's
// PerformanceSet must show as rates on exactly the ports and directions set; saturated and
// lowered counters and a node that stops answering must give marked gaps, never a negative or
// huge rate, and the polling must go on.

#include "FabricGenerator.h"
#include "GeneratedFabrics.h"
#include "LabTools.h"
#include "LoopbackPort.h"
#include "SafeFile.h"
#include "SimulatedFabric.h"
#include "TopologyFile.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTcpSocket>

#include <QtTest>

#include <map>
#include <memory>
#include <set>

#include <sys/resource.h>

using namespace weft;

namespace {

using PortKey = std::pair<QString, int>;  // node GUID text, port number
using Tick = std::map<PortKey, QJsonObject>;

constexpr quint64 kUnitsPerMad = 72;         // 256-octet MAD with its headers and CRCs, in 4-octet units
constexpr double kLinkBytesPerSecond = 1e9;  // SDR 4x, what ibsim reports
// MADs of the SM and of the tools cross some ports while the tests run; what they add per second
// stays far below this.
constexpr double kNoiseBytesPerSecond = 5e6;

QString weftBinary()
{
    return qEnvironmentVariable("WEFT_BINARY");
}

QStringList monitorArgs(double interval, int count)
{
    return {QStringLiteral("monitor"), QStringLiteral("--json"), QStringLiteral("--counters"),
            QStringLiteral("--interval"), QString::number(interval), QStringLiteral("--count"), QString::number(count),
            QStringLiteral("--timeout"), QStringLiteral("100"), QStringLiteral("--retries"), QStringLiteral("1")};
}

// JSON lines, grouped into ticks of `ports` lines each.
std::vector<Tick> readTicks(const QByteArray &output, std::size_t ports)
{
    std::vector<Tick> ticks;
    for (const QByteArray &line : output.split('\n')) {
        if (line.trimmed().isEmpty())
            continue;
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        if (ticks.empty() || ticks.back().size() == ports)
            ticks.emplace_back();
        ticks.back()[{o.value(QStringLiteral("guid")).toString(), o.value(QStringLiteral("port")).toInt()}] = o;
    }
    return ticks;
}

// "Name:......value" lines of perfquery's output.
std::map<QString, quint64> perfqueryFields(const QByteArray &output)
{
    std::map<QString, quint64> fields;
    static const QRegularExpression line(QStringLiteral("^(\\w+):\\.+(\\d+)$"));
    for (const QByteArray &raw : output.split('\n')) {
        const auto m = line.match(QString::fromUtf8(raw.trimmed()));
        if (m.hasMatch())
            fields[m.captured(1)] = m.captured(2).toULongLong();
    }
    return fields;
}

// ibsim's and perfquery's name of each error counter Weft reports.
const std::map<QString, QString> &perfqueryErrorNames()
{
    static const std::map<QString, QString> names = {
        {QStringLiteral("SymbolError"), QStringLiteral("SymbolErrorCounter")},
        {QStringLiteral("LinkErrorRecovery"), QStringLiteral("LinkErrorRecoveryCounter")},
        {QStringLiteral("LinkDowned"), QStringLiteral("LinkDownedCounter")},
        {QStringLiteral("PortRcvErrors"), QStringLiteral("PortRcvErrors")},
        {QStringLiteral("PortRcvRemotePhysicalErrors"), QStringLiteral("PortRcvRemotePhysicalErrors")},
        {QStringLiteral("PortRcvSwitchRelayErrors"), QStringLiteral("PortRcvSwitchRelayErrors")},
        {QStringLiteral("PortXmitDiscards"), QStringLiteral("PortXmitDiscards")},
        {QStringLiteral("PortXmitConstraintErrors"), QStringLiteral("PortXmitConstraintErrors")},
        {QStringLiteral("PortRcvConstraintErrors"), QStringLiteral("PortRcvConstraintErrors")},
        {QStringLiteral("LocalLinkIntegrityErrors"), QStringLiteral("LocalLinkIntegrityErrors")},
        {QStringLiteral("ExcessiveBufferOverrunErrors"), QStringLiteral("ExcessiveBufferOverrunErrors")},
        {QStringLiteral("VL15Dropped"), QStringLiteral("VL15Dropped")},
    };
    return names;
}

QString nodeIdOf(const Fabric &fabric, const QString &guid)
{
    return fabric.node(fabric.nodeByGuid(guid.toULongLong(nullptr, 16))).name;
}

double rate(const QJsonObject &o, const char *field)
{
    return o.value(QLatin1String(field)).toDouble(-1);
}

}  // namespace

class TestLabMonitor : public QObject
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
        QVERIFY2(QFileInfo(weftBinary()).isExecutable(), "WEFT_BINARY must name the weft executable");

        auto started = test::startCounterLab({FabricShapeKind::SwitchRadix, 8, 3});
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

    // (a) Every counter Weft reads equals perfquery's on the same port. Each port first gets
    // counters of its own (data in the billions, errors distinct), so that a port or direction
    // mixed up cannot pass; the data and packet counters may differ by the MADs that cross a
    // port between Weft's reading and perfquery's, and by nothing else.
    void countersEqualPerfquery()
    {
        QStringList commands;
        int i = 0;
        for (const Port &p : m_fabric.ports()) {
            if (!p.present || p.link == kNoIndex)
                continue;
            ++i;
            const QString at = QStringLiteral("PerformanceSet \"%1\"[%2] ").arg(m_fabric.node(p.node).name).arg(p.number);
            commands << at + QStringLiteral("PortCountersExtended.PortXmitData=%1").arg(1000000000ull + i * 1000000ull)
                     << at + QStringLiteral("PortCountersExtended.PortRcvData=%1").arg(3000000000ull + i * 1000000ull)
                     << at + QStringLiteral("PortCounters.SymbolErrorCounter=%1").arg(i)
                     << at + QStringLiteral("PortCounters.PortXmitDiscards=%1").arg(i + 7)
                     << at + QStringLiteral("PortCounters.PortXmitWait=%1").arg(i * 11);
        }
        const Status set = m_sim->simulatorCommands(commands, 120000);
        QVERIFY2(set.ok(), set.ok() ? "" : qPrintable(set.error().toString()));

        const auto run = m_sim->runClient(weftBinary(), monitorArgs(0.2, 1));
        QVERIFY2(run && run->exitCode == 0, qPrintable(test::describe(run)));
        const std::vector<Tick> ticks = readTicks(run->out, m_linkedPorts);
        QCOMPARE(ticks.size(), std::size_t(1));
        QCOMPARE(ticks.front().size(), m_linkedPorts);

        int compared = 0;
        for (const auto &[key, o] : ticks.front()) {
            const QJsonObject counters = o.value(QStringLiteral("counters")).toObject();
            QVERIFY2(counters.value(QStringLiteral("extended")).toBool(), "ibsim's PMA has PortCountersExtended");
            const QString lid = QString::number(o.value(QStringLiteral("lid")).toInt());
            const QString port = QString::number(key.second);
            const auto extended = m_sim->runClient(QStringLiteral("perfquery"), {QStringLiteral("-x"), lid, port});
            const auto basic = m_sim->runClient(QStringLiteral("perfquery"), {lid, port});
            QVERIFY2(extended && extended->exitCode == 0, qPrintable(test::describe(extended)));
            QVERIFY2(basic && basic->exitCode == 0, qPrintable(test::describe(basic)));
            const auto x = perfqueryFields(extended->out);
            const auto b = perfqueryFields(basic->out);
            const QString where = QStringLiteral("%1[%2] (LID %3)").arg(key.first).arg(key.second).arg(lid);
            // perfquery reads later: never less, and what it reads more is MAD traffic that crossed
            // the port in between (ibsim counts 72 units of 4 octets per MAD packet).
            for (const auto &[data, packets] : {std::pair{"PortXmitData", "PortXmitPkts"}, std::pair{"PortRcvData", "PortRcvPkts"}}) {
                for (const char *field : {data, packets})
                    QVERIFY2(x.count(QLatin1String(field)), qPrintable(where + QStringLiteral(": perfquery -x printed no ") + QLatin1String(field)));
                const quint64 ourData = quint64(counters.value(QLatin1String(data)).toDouble());
                const quint64 ourPackets = quint64(counters.value(QLatin1String(packets)).toDouble());
                const quint64 theirData = x.at(QLatin1String(data)), theirPackets = x.at(QLatin1String(packets));
                QVERIFY2(theirData >= ourData && theirPackets >= ourPackets && theirPackets - ourPackets < 5000
                             && theirData - ourData <= kUnitsPerMad * (theirPackets - ourPackets),
                         qPrintable(QStringLiteral("%1 %2/%3: weft %4/%5, perfquery -x %6/%7")
                                        .arg(where, QLatin1String(data), QLatin1String(packets))
                                        .arg(ourData)
                                        .arg(ourPackets)
                                        .arg(theirData)
                                        .arg(theirPackets)));
            }
            QCOMPARE(quint64(counters.value(QStringLiteral("PortXmitWait")).toDouble()), b.at(QStringLiteral("PortXmitWait")));
            for (const auto &[ours, theirs] : perfqueryErrorNames())
                QVERIFY2(quint64(counters.value(ours).toDouble()) == b.at(theirs),
                         qPrintable(QStringLiteral("%1 %2: weft %3, perfquery %4").arg(where, ours).arg(counters.value(ours).toDouble()).arg(b.at(theirs))));
            ++compared;
        }
        QCOMPARE(compared, int(m_linkedPorts));
    }

    // Bad options are refused before any MAD is sent, each with its own message.
    void badOptions_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::addRow("interval 0") << QStringList{QStringLiteral("--interval"), QStringLiteral("0")}
                                    << QStringLiteral("--interval: not a number of seconds");
        QTest::addRow("negative count") << QStringList{QStringLiteral("--count"), QStringLiteral("-1")}
                                        << QStringLiteral("--count: not a count");
        QTest::addRow("bad listen address") << QStringList{QStringLiteral("--prometheus"), QStringLiteral("nowhere:99999")}
                                            << QStringLiteral("--prometheus: not ADDR:PORT or a port");
        QTest::addRow("export without a history") << QStringList{QStringLiteral("--export"), QStringLiteral("x.csv")}
                                                  << QStringLiteral("--export needs --db");
        QTest::addRow("bad timeout") << QStringList{QStringLiteral("--timeout"), QStringLiteral("0")}
                                     << QStringLiteral("--timeout: not a positive number of milliseconds");
    }
    void badOptions()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const auto run = m_sim->runClient(weftBinary(), QStringList{QStringLiteral("monitor")} + args);
        QVERIFY(run);
        QCOMPARE(run->exitCode, 2);
        QVERIFY2(QString::fromUtf8(run->err).startsWith(QStringLiteral("weft monitor: ") + message), run->err.constData());
        QVERIFY(run->out.isEmpty());
    }

    // The first reading only primes the counters, so nothing follows for a whole interval; the
    // monitor says so at once: in the text form on standard output, with --json on standard
    // error, standard output holding nothing but the records.
    void primingIsAnnounced_data()
    {
        QTest::addColumn<bool>("json");
        QTest::addRow("text") << false;
        QTest::addRow("json") << true;
    }
    void primingIsAnnounced()
    {
        QFETCH(bool, json);
        QStringList args{QStringLiteral("monitor"), QStringLiteral("--interval"), QStringLiteral("1"), QStringLiteral("--count"), QStringLiteral("1"),
                         QStringLiteral("--timeout"), QStringLiteral("100"), QStringLiteral("--retries"), QStringLiteral("1")};
        if (json)
            args << QStringLiteral("--json");
        const auto run = m_sim->runClient(weftBinary(), args);
        QVERIFY(run);
        QVERIFY2(run->exitCode == 0, run->err.constData());
        const QByteArray note = "monitoring " + QByteArray::number(qulonglong(m_linkedPorts))
            + " ports every 1 s; priming the counters: the first rates follow in 1 s\n";
        if (!json) {
            QVERIFY2(run->out.startsWith(note), run->out.constData());
            return;
        }
        QVERIFY2(run->err.startsWith("weft monitor: " + note), run->err.constData());
        const QList<QByteArray> lines = run->out.trimmed().split('\n');
        QCOMPARE(std::size_t(lines.size()), m_linkedPorts);
        for (const QByteArray &line : lines)
            QVERIFY2(QJsonDocument::fromJson(line).isObject(), line.constData());
    }

    // The history survives a restart of the monitor: two runs record into one file, and its
    // export holds both runs' ticks in the --csv form.
    void historySurvivesRestart()
    {
        const QString db = m_dir->filePath(QStringLiteral("history.sqlite"));
        const QString csv = m_dir->filePath(QStringLiteral("run.csv"));
        QStringList args = monitorArgs(0.2, 1);
        args << QStringLiteral("--db") << db << QStringLiteral("--csv") << csv;
        for (int run = 0; run < 2; ++run) {
            const auto monitor = m_sim->runClient(weftBinary(), args);
            QVERIFY2(monitor && monitor->exitCode == 0, qPrintable(test::describe(monitor)));
        }
        const QByteArray runCsv = test::readAll(csv);  // the second run's own CSV
        QVERIFY(runCsv.startsWith("time,guid,port,xmit_bytes_per_s,rcv_bytes_per_s,xmit_wait_per_s,utilisation\n"));
        QCOMPARE(std::size_t(runCsv.count('\n')), 1 + m_linkedPorts);

        const QString exported = m_dir->filePath(QStringLiteral("history.csv"));
        const auto exportRun = m_sim->runClient(weftBinary(), {QStringLiteral("monitor"), QStringLiteral("--db"), db, QStringLiteral("--export"), exported});
        QVERIFY2(exportRun && exportRun->exitCode == 0, qPrintable(test::describe(exportRun)));
        const QByteArray all = test::readAll(exported);
        QCOMPARE(std::size_t(all.count('\n')), 1 + 2 * m_linkedPorts);
        // The second run's rows are the history's last ones, byte for byte.
        QVERIFY(all.endsWith(runCsv.mid(runCsv.indexOf('\n') + 1)));

        const auto missing = m_sim->runClient(weftBinary(), {QStringLiteral("monitor"), QStringLiteral("--db"), m_dir->filePath(QStringLiteral("none.sqlite")), QStringLiteral("--export"), exported});
        QVERIFY(missing);
        QCOMPARE(missing->exitCode, 2);
        QVERIFY2(missing->err.contains("none.sqlite: no such telemetry history"), missing->err.constData());
    }

    // `--prometheus`: a scrape on loopback while the monitor runs answers one series per port
    // for each metric, labelled with the port's GUID, number, LID and node description.
    void prometheusScrape()
    {
        const quint16 port = test::freeLoopbackPort();  // for the monitor to listen on
        QVERIFY(port != 0);
        QProcess monitor;
        monitor.setWorkingDirectory(m_sim->workDir());
        monitor.setProcessEnvironment(m_sim->clientEnvironment());
        // Its JSON is not read here: unread, it would fill the pipe and stall the monitor.
        monitor.setStandardOutputFile(QProcess::nullDevice());
        QStringList args = monitorArgs(1.0, 30);
        args << QStringLiteral("--prometheus") << QString::number(port);  // a port alone: loopback
        monitor.start(weftBinary(), args);
        QVERIFY(monitor.waitForStarted());

        // Scrape until a tick has been taken (before it, the descriptions alone are served).
        QByteArray body;
        QElapsedTimer timer;
        timer.start();
        while (!body.contains("\nweft_port_xmit_bytes_per_second{") && timer.elapsed() < 60000) {
            QTest::qWait(200);
            QTcpSocket socket;
            socket.connectToHost(QHostAddress::LocalHost, port);
            if (!socket.waitForConnected(1000))
                continue;
            socket.write("GET /metrics HTTP/1.0\r\nHost: localhost\r\n\r\n");
            QByteArray reply;
            // The monitor answers between passes; a pass may hold the answer back a while. The
            // connection may stay open after the answer: read what Content-Length announces.
            static const QRegularExpression length(QStringLiteral("\r\nContent-Length: *(\\d+)\r\n"),
                                                   QRegularExpression::CaseInsensitiveOption);
            const auto complete = [&] {
                const qsizetype end = reply.indexOf("\r\n\r\n");
                if (end < 0)
                    return false;
                const auto m = length.match(QString::fromLatin1(reply.left(end + 2)));
                return !m.hasMatch() || reply.size() - (end + 4) >= m.captured(1).toLongLong();
            };
            while (!complete() && socket.waitForReadyRead(20000))
                reply += socket.readAll();
            QVERIFY2(reply.startsWith("HTTP/1.") && reply.contains(" 200 "),
                     qPrintable(QStringLiteral("%1 (%2) after %3 ms; the monitor said: %4")
                                    .arg(QString::fromUtf8(reply.left(200)), socket.errorString())
                                    .arg(timer.elapsed())
                                    .arg(QString::fromUtf8(monitor.readAllStandardError().left(1000)))));
            body = reply.mid(reply.indexOf("\r\n\r\n") + 4);
        }
        monitor.kill();
        monitor.waitForFinished();
        QVERIFY2(body.contains("\nweft_port_xmit_bytes_per_second{"), body.left(500).constData());

        std::map<QByteArray, std::set<PortKey>> seriesPerMetric;
        static const QRegularExpression sample(
            QStringLiteral("^(\\w+)\\{guid=\"(0x[0-9a-f]{16})\",port=\"(\\d+)\",lid=\"(\\d+)\",node=\"((?:[^\"\\\\]|\\\\.)*)\"\\} (\\S+)$"));
        for (const QByteArray &line : body.split('\n')) {
            if (line.isEmpty() || line.startsWith('#'))
                continue;
            const auto m = sample.match(QString::fromUtf8(line));
            QVERIFY2(m.hasMatch(), line.constData());
            const PortKey key{m.captured(2), m.captured(3).toInt()};
            QVERIFY2(seriesPerMetric[m.captured(1).toUtf8()].insert(key).second, line.constData());
            const NodeIndex node = m_fabric.nodeByGuid(key.first.toULongLong(nullptr, 16));
            QVERIFY2(node != kNoIndex, line.constData());
            QCOMPARE(m.captured(5), m_fabric.node(node).description);
        }
        QCOMPARE(seriesPerMetric.size(), std::size_t(7));
        for (const auto &[metric, ports] : seriesPerMetric)
            QVERIFY2(ports.size() == m_linkedPorts, metric.constData());
    }

    // 300 half-open connections to the endpoint of a monitor that may open 256 files: the
    // listener caps its connections (the oldest waiting make room), so the monitor keeps its
    // descriptors for the fabric, goes on polling, and still answers a scrape.
    void prometheusSurvivesAFloodOfHalfOpenConnections()
    {
        const quint16 port = test::freeLoopbackPort();  // for the monitor to listen on
        QVERIFY(port != 0);
        QProcess monitor;
        monitor.setWorkingDirectory(m_sim->workDir());
        monitor.setProcessEnvironment(m_sim->clientEnvironment());
        monitor.setChildProcessModifier([] {
            const rlimit few{256, 256};
            setrlimit(RLIMIT_NOFILE, &few);
        });
        QStringList args = monitorArgs(1.0, 0);
        args << QStringLiteral("--prometheus") << QString::number(port);
        monitor.start(weftBinary(), args);
        QVERIFY(monitor.waitForStarted());
        auto finish = qScopeGuard([&] {
            monitor.kill();
            monitor.waitForFinished();
        });
        QByteArray output, errors;
        // (A message argument is evaluated whether or not the check fails: stderr is kept.)
        auto errorsSoFar = [&] {
            errors += monitor.readAllStandardError();
            return errors.constData();
        };
        auto ticksSeen = [&] {
            output += monitor.readAllStandardOutput();
            std::set<QString> times;
            for (const QByteArray &line : output.split('\n'))
                if (const QJsonObject o = QJsonDocument::fromJson(line).object(); o.contains(QStringLiteral("time")))
                    times.insert(QString::number(o.value(QStringLiteral("time")).toDouble(), 'f', 3));
            return times.size();
        };
        QVERIFY2(QTest::qWaitFor([&] { return ticksSeen() >= 1; }, 60000), errorsSoFar());

        std::vector<std::unique_ptr<QTcpSocket>> flood;
        for (int i = 0; i < 300; ++i) {
            auto socket = std::make_unique<QTcpSocket>();
            socket->connectToHost(QHostAddress::LocalHost, port);
            flood.push_back(std::move(socket));
        }
        QTest::qWait(500);
        for (auto &socket : flood)
            if (socket->state() == QAbstractSocket::ConnectedState)
                socket->write("GET /metrics HTTP/1.1\r\nHost: x\r\n");  // and never the blank line
        const std::size_t before = ticksSeen();
        // Three more ticks come while the flood holds on.
        QVERIFY2(QTest::qWaitFor([&] { return ticksSeen() >= before + 3 || monitor.state() != QProcess::Running; }, 60000),
                 errorsSoFar());
        QVERIFY2(monitor.state() == QProcess::Running, errorsSoFar());
        QVERIFY2(ticksSeen() >= before + 3, errorsSoFar());

        // A scrape is answered, flood or not.
        QTcpSocket scraper;
        scraper.connectToHost(QHostAddress::LocalHost, port);
        QVERIFY(QTest::qWaitFor([&] { return scraper.state() == QAbstractSocket::ConnectedState; }, 5000));
        scraper.write("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
        QByteArray reply;
        QVERIFY(QTest::qWaitFor([&] { reply += scraper.readAll(); return reply.contains("\nweft_port_xmit_bytes_per_second{"); }, 20000));
        QVERIFY(reply.startsWith("HTTP/1.1 200 "));
        errorsSoFar();
        // All from one address: it is held to its share of the connections, and the operator told.
        QVERIFY2(errors.contains("127.0.0.1 holds") && errors.contains("the most one address may"), errors.constData());
        QVERIFY2(!errors.contains("no pass") && !errors.contains("no InfiniBand adapter"), errors.constData());
    }

    // (b) and (c): one monitor run. After its first tick of rates: data on chosen ports and
    // directions, PortXmitWait at its 32-bit maximum on one port, a data counter lowered on
    // another, and a host unplugged. The second tick shows each exactly where it was made, with
    // the right rate or the right gap; the third tick comes, with the host still marked.
    void setCountersShowAsRatesAndGaps()
    {
        const double interval = 3.0;
        QProcess monitor;
        monitor.setWorkingDirectory(m_sim->workDir());
        monitor.setProcessEnvironment(m_sim->clientEnvironment());
        monitor.start(weftBinary(), monitorArgs(interval, 3));
        QVERIFY(monitor.waitForStarted());

        QByteArray output;
        QElapsedTimer timer;
        timer.start();
        while (std::size_t(output.count('\n')) < m_linkedPorts && timer.elapsed() < 120000) {
            monitor.waitForReadyRead(100);
            output += monitor.readAllStandardOutput();
        }
        const std::vector<Tick> first = readTicks(output, m_linkedPorts);
        QVERIFY2(!first.empty() && first.front().size() == m_linkedPorts, monitor.readAllStandardError().constData());
        const Tick &tick1 = first.front();

        // Chosen ports: a spine port (transmit), a leaf's up port (receive), a host (wait), and
        // others for the gaps; all distinct nodes.
        const NodeIndex spine = m_fabric.switches().front();
        const NodeIndex leaf = m_fabric.switches().back();
        const std::vector<NodeIndex> &hosts = m_fabric.endNodes();
        const auto key = [&](NodeIndex n, int port) { return PortKey{guidText(m_fabric.node(n).guid), port}; };
        int leafUp = 0;
        for (int p = 1; p <= m_fabric.node(leaf).portCount && !leafUp; ++p) {
            const Port &port = m_fabric.port(m_fabric.portOf(leaf, p));
            if (port.remote != kNoIndex && m_fabric.node(m_fabric.port(port.remote).node).type == NodeType::Switch)
                leafUp = p;
        }
        QVERIFY(leafUp > 0);
        const PortKey xmitPort = key(spine, 2), rcvPort = key(leaf, leafUp), waitPort = key(hosts[5], 1);
        const PortKey saturatedPort = key(hosts[6], 1), loweredPort = key(hosts[7], 1), silentPort = key(hosts[8], 1);
        const quint64 xmitUnits = 50000000, rcvUnits = 20000000, waitTicks = 3000000;  // 2e8 and 8e7 octets
        const auto counter = [&](const PortKey &k, const char *field) {
            return quint64(tick1.at(k).value(QStringLiteral("counters")).toObject().value(QLatin1String(field)).toDouble());
        };
        const auto at = [&](const PortKey &k) {
            return QStringLiteral("PerformanceSet \"%1\"[%2] ").arg(nodeIdOf(m_fabric, k.first)).arg(k.second);
        };
        const QStringList commands = {
            at(xmitPort) + QStringLiteral("PortCountersExtended.PortXmitData=%1").arg(counter(xmitPort, "PortXmitData") + xmitUnits),
            at(rcvPort) + QStringLiteral("PortCountersExtended.PortRcvData=%1").arg(counter(rcvPort, "PortRcvData") + rcvUnits),
            at(waitPort) + QStringLiteral("PortCounters.PortXmitWait=%1").arg(counter(waitPort, "PortXmitWait") + waitTicks),
            at(saturatedPort) + QStringLiteral("PortCounters.PortXmitWait=4294967295"),
            at(saturatedPort) + QStringLiteral("PortCounters.SymbolErrorCounter=65535"),
            at(loweredPort) + QStringLiteral("PortCountersExtended.PortXmitData=1"),
            QStringLiteral("Unlink \"%1\"[1]").arg(nodeIdOf(m_fabric, silentPort.first)),
        };
        const Status set = m_sim->simulatorCommands(commands);
        QVERIFY2(set.ok(), set.ok() ? "" : qPrintable(set.error().toString()));

        QVERIFY2(monitor.waitForFinished(120000), "weft monitor did not finish its three ticks");
        output += monitor.readAllStandardOutput();
        const QByteArray errors = monitor.readAllStandardError();
        QCOMPARE(monitor.exitCode(), 0);
        const std::vector<Tick> ticks = readTicks(output, m_linkedPorts);
        QCOMPARE(ticks.size(), std::size_t(3));
        QVERIFY2(errors.contains("no answer from"), errors.constData());
        // The unplugged host's cable is told as a fabric event, naming both of its ends.
        {
            const Node &silentHost = m_fabric.node(m_fabric.nodeByGuid(silentPort.first.toULongLong(nullptr, 16)));
            const Port &leafEnd = m_fabric.port(m_fabric.port(m_fabric.portOf(m_fabric.nodeByGuid(silentHost.guid), 1)).remote);
            QString told;
            for (const QByteArray &line : errors.split('\n'))
                if (line.contains("cable lost: "))
                    told += QString::fromUtf8(line);
            QVERIFY2(told.contains(QStringLiteral("\"%1\"").arg(silentHost.description))
                         && told.contains(QStringLiteral("[%1] \"%2\"").arg(leafEnd.number).arg(m_fabric.node(leafEnd.node).description)),
                     errors.constData());
        }

        // No negative or huge rate anywhere, in any tick.
        for (const Tick &tick : ticks)
            for (const auto &[k, o] : tick)
                for (const char *field : {"xmit_bytes_per_s", "rcv_bytes_per_s", "xmit_wait_per_s", "utilisation"}) {
                    const QJsonValue v = o.value(QLatin1String(field));
                    QVERIFY2(v.isNull() || (v.toDouble() >= 0 && v.toDouble() <= 1.5 * kLinkBytesPerSecond),
                             qPrintable(QStringLiteral("%1[%2] %3 = %4").arg(k.first).arg(k.second).arg(QLatin1String(field)).arg(v.toDouble())));
                }

        const Tick &tick2 = ticks[1];
        const auto near = [&](double value, double expected) { return qAbs(value - expected) <= 0.1 * expected; };
        // (b) the rates, on exactly those ports and directions.
        const double xmit = rate(tick2.at(xmitPort), "xmit_bytes_per_s");
        QVERIFY2(near(xmit, xmitUnits * 4 / interval), qPrintable(QString::number(xmit)));
        QVERIFY2(near(rate(tick2.at(xmitPort), "utilisation"), xmitUnits * 4 / interval / kLinkBytesPerSecond),
                 qPrintable(QString::number(rate(tick2.at(xmitPort), "utilisation"))));
        const double rcv = rate(tick2.at(rcvPort), "rcv_bytes_per_s");
        QVERIFY2(near(rcv, rcvUnits * 4 / interval), qPrintable(QString::number(rcv)));
        const double wait = rate(tick2.at(waitPort), "xmit_wait_per_s");
        QVERIFY2(near(wait, waitTicks / interval), qPrintable(QString::number(wait)));
        for (const auto &[k, o] : tick2) {
            const QString where = QStringLiteral("%1[%2]").arg(k.first).arg(k.second);
            if (k != xmitPort && k != loweredPort && k != silentPort)
                QVERIFY2(rate(o, "xmit_bytes_per_s") < kNoiseBytesPerSecond, qPrintable(where + QStringLiteral(" transmits")));
            if (k != rcvPort && k != silentPort)
                QVERIFY2(rate(o, "rcv_bytes_per_s") < kNoiseBytesPerSecond, qPrintable(where + QStringLiteral(" receives")));
            if (k != waitPort && k != saturatedPort && k != silentPort)
                QVERIFY2(rate(o, "xmit_wait_per_s") == 0, qPrintable(where + QStringLiteral(" waits")));
        }

        // (c) the gaps, marked.
        const auto gapOf = [](const QJsonObject &o, const char *field) {
            return o.value(QStringLiteral("gaps")).toObject().value(QLatin1String(field)).toString();
        };
        QCOMPARE(gapOf(tick2.at(saturatedPort), "xmit_wait_per_s"), QStringLiteral("saturated"));
        QCOMPARE(gapOf(tick2.at(saturatedPort), "SymbolError"), QStringLiteral("saturated"));
        QVERIFY(tick2.at(saturatedPort).value(QStringLiteral("xmit_wait_per_s")).isNull());
        QCOMPARE(tick2.at(loweredPort).value(QStringLiteral("gap")).toString(), QStringLiteral("cleared"));
        QVERIFY(tick2.at(loweredPort).value(QStringLiteral("xmit_bytes_per_s")).isNull());
        QCOMPARE(tick2.at(silentPort).value(QStringLiteral("gap")).toString(), QStringLiteral("no-answer"));

        // Polling went on: the third tick has every port, the lowered counter counts again from
        // where it was set, and the unplugged host is still marked.
        const Tick &tick3 = ticks[2];
        QCOMPARE(tick3.size(), m_linkedPorts);
        QVERIFY(tick3.at(loweredPort).value(QStringLiteral("xmit_bytes_per_s")).toDouble(-1) >= 0);
        QVERIFY(!tick3.at(loweredPort).contains(QStringLiteral("gap")));
        QCOMPARE(tick3.at(silentPort).value(QStringLiteral("gap")).toString(), QStringLiteral("no-answer"));
        QCOMPARE(gapOf(tick3.at(saturatedPort), "xmit_wait_per_s"), QStringLiteral("saturated"));
        QVERIFY(!tick3.at(xmitPort).contains(QStringLiteral("gap")));
    }

    // `--clear-counters`: a PortXmitWait past 75 % of its 32 bits is cleared by the monitor (as
    // OpenSM's perfmgr does), the rates after it count from zero without a "cleared" gap;
    // without the option nothing is cleared.
    void clearCountersPastThreeQuarters()
    {
        const NodeIndex host = m_fabric.endNodes()[3];
        const PortKey port{guidText(m_fabric.node(host).guid), 1};
        const quint64 high = 0xD0000000u;
        const Status set = m_sim->simulatorCommands(
            {QStringLiteral("PerformanceSet \"%1\"[1] PortCounters.PortXmitWait=%2").arg(m_fabric.node(host).name).arg(high)});
        QVERIFY2(set.ok(), set.ok() ? "" : qPrintable(set.error().toString()));

        const auto plain = m_sim->runClient(weftBinary(), monitorArgs(0.2, 1));
        QVERIFY2(plain && plain->exitCode == 0, qPrintable(test::describe(plain)));
        const std::vector<Tick> plainTicks = readTicks(plain->out, m_linkedPorts);
        QCOMPARE(plainTicks.size(), std::size_t(1));
        const QString lid = QString::number(plainTicks.front().at(port).value(QStringLiteral("lid")).toInt());
        const auto xmitWait = [&]() -> quint64 {
            const auto query = m_sim->runClient(QStringLiteral("perfquery"), {lid, QStringLiteral("1")});
            if (!query || query->exitCode != 0)
                return ~quint64(0);
            const auto fields = perfqueryFields(query->out);
            return fields.count(QStringLiteral("PortXmitWait")) ? fields.at(QStringLiteral("PortXmitWait")) : ~quint64(0);
        };
        QCOMPARE(xmitWait(), high);  // not cleared without the option

        QStringList args = monitorArgs(0.2, 2);
        args << QStringLiteral("--clear-counters");
        const auto run = m_sim->runClient(weftBinary(), args);
        QVERIFY2(run && run->exitCode == 0, qPrintable(test::describe(run)));
        const quint64 after = xmitWait();
        QVERIFY2(after < 0x10000000u, qPrintable(QString::number(after)));
        // The host unplugged by the test before is no longer discovered: fewer ports than linked.
        const std::size_t lines = std::size_t(run->out.count('\n'));
        QVERIFY2(lines > 0 && lines % 2 == 0, qPrintable(test::describe(run)));
        const std::vector<Tick> ticks = readTicks(run->out, lines / 2);
        QCOMPARE(ticks.size(), std::size_t(2));
        for (const Tick &tick : ticks) {
            const QJsonObject &o = tick.at(port);
            const QByteArray text = QJsonDocument(o).toJson(QJsonDocument::Compact);
            QVERIFY2(!text.contains("cleared") && !o.contains(QStringLiteral("gap")), text.constData());
            for (const char *field : {"xmit_bytes_per_s", "rcv_bytes_per_s", "xmit_wait_per_s"}) {
                const QJsonValue v = o.value(QLatin1String(field));
                QVERIFY2(v.isDouble() && v.toDouble() >= 0 && v.toDouble() < kNoiseBytesPerSecond, text.constData());
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestLabMonitor)
#include "tst_lab_monitor.moc"
