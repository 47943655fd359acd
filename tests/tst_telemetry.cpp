// Port telemetry: the rates two counter readings imply, and the gaps where they imply none
// (counters stuck at their maximum, cleared by someone else, ports that did not answer).

#include "PortTelemetry.h"
#include "PrometheusExposition.h"
#include "TelemetryHistory.h"
#include "TelemetryHistoryWriter.h"
#include "TelemetryRecord.h"

#include <QtTest>

using namespace weft;

namespace {

PortCounterSample sample(std::uint64_t xmitData, std::uint64_t rcvData, bool extended = true)
{
    PortCounterSample s;
    s.answered = true;
    s.extended = extended;
    s.xmitData = xmitData;
    s.rcvData = rcvData;
    s.xmitPackets = xmitData / 64;
    s.rcvPackets = rcvData / 64;
    s.hasXmitWait = true;
    return s;
}

TelemetryRecord record(double time, Guid guid, int port, double xmit, double utilisation)
{
    TelemetryRecord r;
    r.time = time;
    r.guid = guid;
    r.port = port;
    r.lid = 7;
    r.rates.xmitBytes = {xmit, CounterGap::None};
    r.rates.rcvBytes = {xmit / 2, CounterGap::None};
    r.rates.xmitWait = {0, CounterGap::None};
    r.rates.utilisation = {utilisation, CounterGap::None};
    return r;
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace

Q_DECLARE_METATYPE(weft::PortCounterSample)
Q_DECLARE_METATYPE(weft::CounterGap)
Q_DECLARE_METATYPE(weft::LinkSpeed)

class TestTelemetry : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void linkDataRate_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<LinkSpeed>("speed");
        QTest::addColumn<double>("gbps");  // data, after line encoding
        QTest::addRow("SDR 4x") << 4 << LinkSpeed::SDR << 8.0;
        QTest::addRow("QDR 4x") << 4 << LinkSpeed::QDR << 32.0;
        QTest::addRow("FDR10 4x") << 4 << LinkSpeed::FDR10 << 40.0;
        QTest::addRow("FDR 4x") << 4 << LinkSpeed::FDR << 54.545454;
        QTest::addRow("EDR 4x") << 4 << LinkSpeed::EDR << 100.0;
        QTest::addRow("HDR 4x") << 4 << LinkSpeed::HDR << 200.0;
        QTest::addRow("NDR 4x") << 4 << LinkSpeed::NDR << 400.0;
        QTest::addRow("EDR 1x") << 1 << LinkSpeed::EDR << 25.0;
        QTest::addRow("unknown speed") << 4 << LinkSpeed::Unknown << 0.0;
        QTest::addRow("unknown width") << 0 << LinkSpeed::EDR << 0.0;
    }
    void linkDataRate()
    {
        QFETCH(int, width);
        QFETCH(LinkSpeed, speed);
        QFETCH(double, gbps);
        QVERIFY2(qAbs(linkDataBytesPerSecond(width, speed) * 8 / 1e9 - gbps) < 1e-4,
                 qPrintable(QString::number(linkDataBytesPerSecond(width, speed) * 8 / 1e9)));
    }

    void ratesPerDirection()
    {
        // SDR 4x carries 1e9 octets per second; 2.5e8 units of 4 octets in 2 s is 5e8 B/s, half.
        const double link = linkDataBytesPerSecond(4, LinkSpeed::SDR);
        QCOMPARE(link, 1e9);
        PortCounterSample before = sample(1000, 5000);
        before.xmitWait = 10;
        PortCounterSample after = sample(1000 + 250000000, 5000 + 50000000);
        after.xmitWait = 410;
        const PortRates r = portRates(before, after, 2.0, link);
        QVERIFY(r.xmitBytes.ok());
        QCOMPARE(r.xmitBytes.value, 5e8);
        QCOMPARE(r.rcvBytes.value, 1e8);
        QCOMPARE(r.xmitPackets.value, double(after.xmitPackets - before.xmitPackets) / 2);
        QCOMPARE(r.xmitWait.value, 200.0);
        QCOMPARE(r.utilisation.value, 0.5);
        QCOMPARE(r.firstGap(), CounterGap::None);
    }

    void errorDeltas()
    {
        PortCounterSample before = sample(0, 0);
        PortCounterSample after = sample(0, 0);
        after.errors[std::size_t(PortErrorCounter::SymbolError)] = 7;
        before.errors[std::size_t(PortErrorCounter::LinkDowned)] = 3;
        after.errors[std::size_t(PortErrorCounter::LinkDowned)] = 4;
        before.errors[std::size_t(PortErrorCounter::PortXmitDiscards)] = 9;
        after.errors[std::size_t(PortErrorCounter::PortXmitDiscards)] = 2;           // cleared
        after.errors[std::size_t(PortErrorCounter::LocalLinkIntegrityErrors)] = 15;  // 4 bits: stuck
        const PortRates r = portRates(before, after, 1.0, 1e9);
        QCOMPARE(r.errors[std::size_t(PortErrorCounter::SymbolError)].delta, 7u);
        QCOMPARE(r.errors[std::size_t(PortErrorCounter::LinkDowned)].delta, 1u);
        QCOMPARE(r.errors[std::size_t(PortErrorCounter::PortXmitDiscards)].gap, CounterGap::Cleared);
        QCOMPARE(r.errors[std::size_t(PortErrorCounter::LocalLinkIntegrityErrors)].gap, CounterGap::Saturated);
        QCOMPARE(r.errors[std::size_t(PortErrorCounter::VL15Dropped)].delta, 0u);
        QVERIFY(r.errors[std::size_t(PortErrorCounter::VL15Dropped)].ok());
        QCOMPARE(portErrorCounterBits(PortErrorCounter::LinkDowned), 8);
        QCOMPARE(portErrorCounterName(PortErrorCounter::ExcessiveBufferOverrunErrors), QStringLiteral("ExcessiveBufferOverrunErrors"));
    }

    void gaps_data()
    {
        QTest::addColumn<PortCounterSample>("before");
        QTest::addColumn<PortCounterSample>("after");
        QTest::addColumn<double>("seconds");
        QTest::addColumn<CounterGap>("gap");
        QTest::addRow("32-bit counter saturated") << sample(100, 0, false) << sample(0xFFFFFFFFu, 0, false) << 1.0
                                                  << CounterGap::Saturated;
        QTest::addRow("32-bit counter stuck") << sample(0xFFFFFFFFu, 0, false) << sample(0xFFFFFFFFu, 0, false) << 1.0
                                              << CounterGap::Saturated;
        QTest::addRow("counter lowered") << sample(5000, 0) << sample(20, 0) << 1.0 << CounterGap::Cleared;
        PortCounterSample silent;
        QTest::addRow("no answer now") << sample(5, 0) << silent << 1.0 << CounterGap::NoAnswer;
        QTest::addRow("no answer before") << silent << sample(5, 0) << 1.0 << CounterGap::NoAnswer;
        QTest::addRow("no time between") << sample(5, 0) << sample(6, 0) << 0.0 << CounterGap::NoInterval;
        QTest::addRow("attribute changed") << sample(5, 0, false) << sample(6, 0, true) << 1.0 << CounterGap::NoInterval;
        QTest::addRow("more than the link carries") << sample(0, 0) << sample(1'000'000'000'000ull, 0) << 1.0
                                                    << CounterGap::Implausible;
    }
    void gaps()
    {
        QFETCH(PortCounterSample, before);
        QFETCH(PortCounterSample, after);
        QFETCH(double, seconds);
        QFETCH(CounterGap, gap);
        const PortRates r = portRates(before, after, seconds, 1e9);
        QCOMPARE(r.xmitBytes.gap, gap);
        QCOMPARE(r.xmitBytes.value, 0.0);
        QCOMPARE(r.utilisation.gap, gap);
        QCOMPARE(r.firstGap(), gap);
        QVERIFY(!counterGapName(gap).isEmpty());
        // The receive side had nothing wrong unless the whole port did.
        if (gap == CounterGap::NoAnswer || gap == CounterGap::NoInterval)
            QCOMPARE(r.rcvBytes.gap, gap);
        else
            QVERIFY(r.rcvBytes.ok() && r.rcvBytes.value >= 0);
    }

    void extendedCountersDoNotSaturateAt32Bits()
    {
        const PortRates r = portRates(sample(0xFFFFFFF0u, 0), sample(0x100000010ull, 0), 1.0, 1e9);
        QVERIFY(r.xmitBytes.ok());
        QCOMPARE(r.xmitBytes.value, 32.0 * 4);
    }

    // The 75 % mark of OpenSM's perfmgr: 32-bit data counters only where not extended,
    // PortXmitWait, the error counters at their own widths.
    void clearThreshold()
    {
        QVERIFY(!portCountersNeedClearing(sample(0, 0)));
        QVERIFY(!portCountersNeedClearing(sample(0xC0000000u, 0)));  // extended: 64 bits of room
        QVERIFY(portCountersNeedClearing(sample(0xC0000000u, 0, false)));
        QVERIFY(!portCountersNeedClearing(sample(0xBFFFFFF0u, 0, false)));
        PortCounterSample wait = sample(0, 0);
        wait.xmitWait = 0xD0000000u;
        QVERIFY(portCountersNeedClearing(wait));
        wait.hasXmitWait = false;
        QVERIFY(!portCountersNeedClearing(wait));
        PortCounterSample downed = sample(0, 0);
        downed.errors[std::size_t(PortErrorCounter::LinkDowned)] = 190;  // 8 bits: 75 % is 189
        QVERIFY(portCountersNeedClearing(downed));
        downed.errors[std::size_t(PortErrorCounter::LinkDowned)] = 100;
        QVERIFY(!portCountersNeedClearing(downed));
        PortCounterSample silent = sample(0xFFFFFFFFu, 0, false);
        silent.answered = false;
        QVERIFY(!portCountersNeedClearing(silent));
    }

    // The reader's own clear: the tick in which a counter passed 75 % has its rate; the next
    // counts from zero, without a "cleared" gap; a clear by someone else still is one.
    void ownClearCountsFromZero()
    {
        PortCounterSample first = sample(1000, 2000, false);
        first.xmitWait = 0x10000000u;
        PortCounterSample passed = sample(1000 + 4000, 2000 + 400, false);
        passed.xmitWait = 0xD0000000u;
        PortCounterSample cleared = passed;
        cleared.clearedAfter = true;
        const PortRates before = portRates(first, cleared, 2.0, 1e9);
        QVERIFY(before.xmitWait.ok());
        QCOMPARE(before.xmitWait.value, double(0xD0000000u - 0x10000000u) / 2.0);
        QCOMPARE(before.xmitBytes.value, 4000.0 * 4 / 2.0);

        PortCounterSample after = sample(800, 100, false);
        after.xmitWait = 500;
        after.errors[std::size_t(PortErrorCounter::SymbolError)] = 3;
        const PortRates r = portRates(cleared, after, 1.0, 1e9);
        QCOMPARE(r.firstGap(), CounterGap::None);
        QCOMPARE(r.xmitBytes.value, 800.0 * 4);
        QCOMPARE(r.rcvBytes.value, 100.0 * 4);
        QCOMPARE(r.xmitPackets.value, double(800 / 64));
        QVERIFY(r.xmitWait.ok());
        QCOMPARE(r.xmitWait.value, 500.0);
        QVERIFY(r.errors[std::size_t(PortErrorCounter::SymbolError)].ok());
        QCOMPARE(r.errors[std::size_t(PortErrorCounter::SymbolError)].delta, std::uint64_t(3));

        // Without the reader's mark the same pair is someone else's clear.
        QCOMPARE(portRates(passed, after, 1.0, 1e9).xmitWait.gap, CounterGap::Cleared);
        QCOMPARE(portRates(passed, after, 1.0, 1e9).xmitBytes.gap, CounterGap::Cleared);

        // Extended counters the clear did not touch keep their deltas; ones it did count from zero.
        PortCounterSample ext = sample(5000, 5000);
        ext.clearedAfter = true;
        QCOMPARE(portRates(ext, sample(6000, 100), 1.0, 1e9).xmitBytes.value, 1000.0 * 4);
        QCOMPARE(portRates(ext, sample(6000, 100), 1.0, 1e9).rcvBytes.value, 100.0 * 4);
    }

    void unknownLinkRate()
    {
        const PortRates r = portRates(sample(0, 0), sample(100, 0), 1.0, 0.0);
        QVERIFY(r.xmitBytes.ok());
        QCOMPARE(r.utilisation.gap, CounterGap::Unsupported);
    }

    void csvForm()
    {
        QCOMPARE(telemetryCsvHeader(), QByteArray("time,guid,port,xmit_bytes_per_s,rcv_bytes_per_s,xmit_wait_per_s,utilisation\n"));
        TelemetryRecord r = record(1700000000.5, 0x2c90000000001ull, 3, 250, 0.25);
        r.rates.xmitWait.gap = CounterGap::Saturated;
        QCOMPARE(telemetryCsvRow(r), QByteArray("1700000000.500,0x0002c90000000001,3,250,125,,0.25\n"));
    }

    // Written, closed, reopened: the ticks are still there, in order, gaps kept.
    void historySurvivesRestart()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("fabric.sqlite"));
        {
            auto history = TelemetryHistory::open(path, QStringLiteral("0002c90000000000"));
            QVERIFY2(history, history ? "" : qPrintable(history.error().toString()));
            TelemetryRecord silent = record(1010, 0xa, 2, 0, 0);
            silent.rates.xmitBytes.gap = silent.rates.rcvBytes.gap = silent.rates.utilisation.gap = CounterGap::NoAnswer;
            QVERIFY((*history)->record({record(1000, 0xa, 1, 100, 0.1), record(1000, 0xa, 2, 200, 0.2)}).ok());
            QVERIFY((*history)->record({record(1010, 0xa, 1, 300, 0.3), silent}).ok());
        }
        auto reopened = TelemetryHistory::open(path, QStringLiteral("0002c90000000000"));
        QVERIFY2(reopened, reopened ? "" : qPrintable(reopened.error().toString()));
        const auto points = (*reopened)->read(0, 2000);
        QVERIFY(points);
        QCOMPARE(points->size(), std::size_t(4));
        QCOMPARE(points->at(0).xmitBytes.value, 100.0);
        QCOMPARE(points->at(2).utilisation.value, 0.3);
        QCOMPARE(points->at(3).xmitBytes.gap, CounterGap::NoAnswer);
        const auto onePort = (*reopened)->read(0, 2000, Guid(0xa), 1);
        QVERIFY(onePort);
        QCOMPARE(onePort->size(), std::size_t(2));
        // Another ticks on after the restart.
        QVERIFY((*reopened)->record({record(1020, 0xa, 1, 500, 0.5)}).ok());
        QCOMPARE((*reopened)->read(0, 2000, Guid(0xa), 1)->size(), std::size_t(3));
    }

    // Beyond the raw window, ticks become one row per port and minute: means and maxima.
    void historyDownsamples()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("fabric.sqlite"));
        TelemetryHistoryOptions options;
        options.rawWindowSeconds = 120;
        options.bucketSeconds = 60;
        auto history = TelemetryHistory::open(path, QStringLiteral("1"), options);
        QVERIFY(history);
        // Six ticks in the minute from 6000, then one at 6200: that minute leaves the window.
        for (int i = 0; i < 6; ++i)
            QVERIFY((*history)->record({record(6000 + 10 * i, 0xb, 1, 100 * (i + 1), 0.1 * (i + 1))}).ok());
        QVERIFY((*history)->record({record(6200, 0xb, 1, 50, 0.05)}).ok());
        const auto points = (*history)->read(0, 1e9);
        QVERIFY(points);
        QCOMPARE(points->size(), std::size_t(2));
        const HistoryPoint &minute = points->front();
        QVERIFY(minute.downsampled);
        QCOMPARE(minute.time, 6000.0);
        QCOMPARE(minute.samples, 6);
        QCOMPARE(minute.xmitBytes.value, 350.0);
        QCOMPARE(minute.xmitBytesMax.value, 600.0);
        QVERIFY(qAbs(minute.utilisationMax.value - 0.6) < 1e-9);
        QVERIFY(!points->back().downsampled);

        // Buckets past their window are deleted as the next minute is folded.
        {
            TelemetryHistoryOptions short_ = options;
            short_.bucketWindowSeconds = 150;
            auto bounded = TelemetryHistory::open(dir.filePath(QStringLiteral("bounded.sqlite")), QStringLiteral("1"), short_);
            QVERIFY(bounded);
            for (int i = 0; i < 8; ++i)
                QVERIFY((*bounded)->record({record(6000 + 60 * i, 0xb, 1, 10, 0.1)}).ok());
            const auto kept = (*bounded)->read(0, 1e9);
            QVERIFY(kept);
            // Newest 6420: raw from 6300 on (6300..6420), buckets from 6270 on (6300 is raw, so none).
            QCOMPARE(kept->size(), std::size_t(3));
            QCOMPARE(kept->front().time, 6300.0);
            short_.bucketWindowSeconds = 0;  // all kept
            auto unbounded = TelemetryHistory::open(dir.filePath(QStringLiteral("unbounded.sqlite")), QStringLiteral("1"), short_);
            QVERIFY(unbounded);
            for (int i = 0; i < 8; ++i)
                QVERIFY((*unbounded)->record({record(6000 + 60 * i, 0xb, 1, 10, 0.1)}).ok());
            QCOMPARE((*unbounded)->read(0, 1e9)->size(), std::size_t(8));
        }

        // The export: the same form as `weft monitor --csv`, buckets as their means.
        const QString csv = dir.filePath(QStringLiteral("history.csv"));
        QVERIFY((*history)->exportCsv(csv).ok());
        QCOMPARE(readFile(csv), telemetryCsvHeader() + "6000.000,0x000000000000000b,1,350,175,0,0.35\n" + "6200.000,0x000000000000000b,1,50,25,0,0.05\n");
    }

    // The writer on its own thread: every tick queued is in the file once it is flushed (or
    // gone), in order, with the fold done there; a file it may not take is refused at open.
    void historyWriterKeepsEveryTick()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("fabric.sqlite"));
        TelemetryHistoryOptions options;
        options.rawWindowSeconds = 120;
        {
            auto writer = TelemetryHistoryWriter::open(path, QStringLiteral("1"), options, 2);
            QVERIFY2(writer, writer ? "" : qPrintable(writer.error().toString()));
            // More ticks than the queue holds: record waits for room rather than dropping any.
            for (int i = 0; i < 40; ++i)
                QVERIFY((*writer)->record({record(6000 + 10 * i, 0xb, 1, 100 * (i + 1), 0.01 * i), record(6000 + 10 * i, 0xb, 2, 1, 0)}).ok());
            QVERIFY((*writer)->flush().ok());
            QVERIFY((*writer)->longestWriteSeconds() > 0);
            QVERIFY((*writer)->record({record(6400, 0xb, 1, 7, 0)}).ok());  // written as the writer closes
        }
        auto history = TelemetryHistory::open(path, QStringLiteral("1"), options);
        QVERIFY(history);
        const auto points = (*history)->read(0, 1e9, Guid(0xb), 1);
        QVERIFY(points);
        // Minutes 6000-6240 folded (6 ticks each, the first 1), 6300-6390 raw, and the last one.
        int samples = 0;
        for (const HistoryPoint &p : *points)
            samples += p.samples;
        QCOMPARE(samples, 41);
        QVERIFY(points->front().downsampled);
        QCOMPARE(points->back().time, 6400.0);
        QCOMPARE(points->back().xmitBytes.value, 7.0);

        const auto other = TelemetryHistoryWriter::open(path, QStringLiteral("2"));
        QVERIFY(!other);
        QVERIFY2(other.error().toString().startsWith(path + QStringLiteral(": the history of another fabric")),
                 qPrintable(other.error().toString()));
    }

    void historyRefusesOtherFiles()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("fabric.sqlite"));
        QVERIFY(TelemetryHistory::open(path, QStringLiteral("aaaa")));
        const auto other = TelemetryHistory::open(path, QStringLiteral("bbbb"));
        QVERIFY(!other);
        QVERIFY2(other.error().toString().startsWith(path + QStringLiteral(": the history of another fabric")),
                 qPrintable(other.error().toString()));

        const QString text = dir.filePath(QStringLiteral("notes.txt"));
        QFile f(text);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(4096, 'x'));
        f.close();
        const auto notHistory = TelemetryHistory::open(text, QStringLiteral("aaaa"));
        QVERIFY(!notHistory);
        QVERIFY2(notHistory.error().toString().startsWith(text + QStringLiteral(": ")), qPrintable(notHistory.error().toString()));
        QCOMPARE(readFile(text), QByteArray(4096, 'x'));  // left as it was
    }

    void prometheusOneSeriesPerPortAndMetric()
    {
        FabricBuilder builder;
        FabricBuilder::NodeSpec a;
        a.guid = 0x10;
        a.portCount = 1;
        a.name = QStringLiteral("H-a");
        a.description = QStringLiteral("rack \"7\" \\ host\nA");
        FabricBuilder::NodeSpec b = a;
        b.guid = 0x20;
        b.name = QStringLiteral("H-b");
        b.description = QStringLiteral("host B");
        NodeIndex na = kNoIndex, nb = kNoIndex;
        QVERIFY(builder.addNode(a, &na).isEmpty());
        QVERIFY(builder.addNode(b, &nb).isEmpty());
        QVERIFY(builder.connect(na, 1, nb, 1).isEmpty());
        Result<Fabric> fabric = std::move(builder).build();
        QVERIFY2(fabric, fabric ? "" : qPrintable(fabric.error().toString()));

        TelemetryRecord ra = record(1, 0x10, 1, 1000, 0.5);
        ra.portIndex = fabric->portOf(0, 1);
        ra.lid = 3;
        TelemetryRecord rb = record(1, 0x20, 1, 0, 0);
        rb.portIndex = fabric->portOf(1, 1);
        rb.rates.xmitBytes.gap = CounterGap::Cleared;
        const QByteArray text = prometheusExposition(*fabric, {ra, rb});
        QVERIFY2(text.contains("# TYPE weft_port_xmit_bytes_per_second gauge\n"), text.constData());
        QVERIFY2(text.contains("weft_port_xmit_bytes_per_second{guid=\"0x0000000000000010\",port=\"1\",lid=\"3\","
                               "node=\"rack \\\"7\\\" \\\\ host\\nA\"} 1000\n"),
                 text.constData());
        QVERIFY2(text.contains("weft_port_xmit_bytes_per_second{guid=\"0x0000000000000020\",port=\"1\",lid=\"7\",node=\"host B\"} NaN\n"),
                 text.constData());
        // Every sample line belongs to one of the two ports, and each metric has both.
        int samples = 0;
        for (const QByteArray &line : text.split('\n'))
            if (!line.isEmpty() && !line.startsWith('#'))
                ++samples;
        QCOMPARE(samples, 2 * 7);
        QCOMPARE(text.count("# TYPE "), 7);
    }

    void xmitWaitUnsupported()
    {
        PortCounterSample before = sample(0, 0), after = sample(10, 0);
        before.hasXmitWait = after.hasXmitWait = false;
        QCOMPARE(portRates(before, after, 1.0, 1e9).xmitWait.gap, CounterGap::Unsupported);
    }
};

QTEST_GUILESS_MAIN(TestTelemetry)
#include "tst_telemetry.moc"
