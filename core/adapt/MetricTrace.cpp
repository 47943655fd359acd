#include "MetricTrace.h"

#include "TelemetryHistory.h"
#include "TextReader.h"

#include <QFile>

#include <cmath>
#include <limits>

namespace weft::adapt {

namespace {

constexpr char kSqliteMagic[] = "SQLite format 3";  // and a NUL: the first 16 bytes of every database

// The fabric port of node `guid`, port `number`; an InputError naming what is not there.
PortIndex tracePort(const Fabric &fabric, Guid guid, int number, int line)
{
    const NodeIndex node = fabric.nodeByGuid(guid);
    if (node == kNoIndex)
        throw InputError{line, QStringLiteral("no node with GUID %1 in the topology").arg(guidText(guid))};
    const PortIndex port = number >= 0 ? fabric.portOf(node, number) : kNoIndex;
    if (port == kNoIndex || !fabric.port(port).present)
        throw InputError{line, QStringLiteral("node %1 (%2) has no port %3").arg(guidText(guid), fabric.node(node).name).arg(number)};
    return port;
}

void addToTicks(std::vector<TraceTick> *ticks, TelemetryRecord record)
{
    if (ticks->empty() || ticks->back().time != record.time)
        ticks->push_back(TraceTick{record.time, {}});
    ticks->back().records.push_back(std::move(record));
}

TelemetryRecord recordAt(const Fabric &fabric, PortIndex port, double time)
{
    TelemetryRecord r;
    r.time = time;
    r.portIndex = port;
    r.guid = fabric.node(fabric.port(port).node).guid;
    r.port = fabric.port(port).number;
    const NodeIndex node = fabric.port(port).node;
    r.lid = fabric.node(node).type == NodeType::Switch ? fabric.nodeLid(node) : fabric.port(port).lid;
    return r;
}

// A CSV field of a rate: empty is a gap (the monitor writes gaps so; why is not recorded).
CounterRate csvRate(const TextReader &reader, std::string_view field, const char *what)
{
    field = text::trimmed(field);
    if (field.empty())
        return CounterRate{0, CounterGap::NoAnswer};
    bool ok = false;
    const double v = QByteArray(field.data(), qsizetype(field.size())).toDouble(&ok);
    if (!ok || !std::isfinite(v) || v < 0)
        reader.fail(QStringLiteral("%1 \"%2\" is not a rate (a number at least 0, or empty for a gap)")
                        .arg(QLatin1String(what), text::toQString(field)));
    return CounterRate{v, CounterGap::None};
}

Result<std::vector<TraceTick>> readCsvTrace(const QString &path, const Fabric &fabric)
{
    Result<QByteArray> data = TextReader::readFile(path);
    if (!data)
        return data.error();
    TextReader reader(std::move(data.value()), path);
    std::vector<TraceTick> ticks;
    try {
        const std::string headerLine = telemetryCsvHeader().toStdString();
        const std::string_view header = text::trimmed(headerLine);
        bool sawHeader = false;
        while (reader.next()) {
            const std::string_view line = text::trimmed(reader.line());
            if (line.empty())
                continue;
            if (!sawHeader) {
                if (line != header)
                    reader.fail(QStringLiteral("not a trace of `weft monitor --csv`: the first line must be \"%1\"")
                                    .arg(text::toQString(header)));
                sawHeader = true;
                continue;
            }
            std::vector<std::string_view> fields;
            std::size_t start = 0;
            for (std::size_t i = 0; i <= line.size(); ++i)
                if (i == line.size() || line[i] == ',') {
                    fields.push_back(line.substr(start, i - start));
                    start = i + 1;
                }
            if (fields.size() != 7)
                reader.fail(QStringLiteral("%1 fields where the header has 7").arg(fields.size()));
            bool ok = false;
            const std::string_view timeField = text::trimmed(fields[0]);
            const double time = QByteArray(timeField.data(), qsizetype(timeField.size())).toDouble(&ok);
            if (!ok || !std::isfinite(time) || time < 0)
                reader.fail(QStringLiteral("time \"%1\" is not seconds since the epoch").arg(text::toQString(timeField)));
            if (!ticks.empty() && time < ticks.back().time)
                reader.fail(QStringLiteral("time %1 is before the previous row's %2: times go backwards")
                                .arg(text::toQString(timeField))
                                .arg(ticks.back().time, 0, 'f', 3));
            const Guid guid = reader.number(text::trimmed(fields[1]), 0, QStringLiteral("GUID"), 0,
                                            std::numeric_limits<std::uint64_t>::max());
            const int number = int(reader.number(text::trimmed(fields[2]), 10, QStringLiteral("port"), 0, 255));
            TelemetryRecord r = recordAt(fabric, tracePort(fabric, guid, number, reader.lineNumber()), time);
            r.rates.xmitBytes = csvRate(reader, fields[3], "xmit_bytes_per_s");
            r.rates.rcvBytes = csvRate(reader, fields[4], "rcv_bytes_per_s");
            r.rates.xmitWait = csvRate(reader, fields[5], "xmit_wait_per_s");
            r.rates.utilisation = csvRate(reader, fields[6], "utilisation");
            addToTicks(&ticks, std::move(r));
        }
        if (!sawHeader)
            return Error{path, 0, QStringLiteral("an empty trace (not even the header of `weft monitor --csv`)")};
    } catch (const InputError &e) {
        return reader.error(e);
    }
    return ticks;
}

Result<std::vector<TraceTick>> readHistoryTrace(const QString &path, const Fabric &fabric)
{
    Result<QString> recorded = telemetryHistoryFabric(path);
    if (!recorded)
        return recorded.error();
    const QString expected = fabricHistoryId(fabric);
    if (*recorded != expected)
        return Error{path, 0, QStringLiteral("a history of fabric %1, but the topology is fabric %2").arg(*recorded, expected)};
    auto history = TelemetryHistory::open(path, expected);
    if (!history)
        return history.error();
    auto points = (*history)->read(0, std::numeric_limits<double>::max());
    if (!points)
        return points.error();
    std::vector<TraceTick> ticks;
    for (const HistoryPoint &p : *points) {
        PortIndex port = kNoIndex;
        try {
            port = tracePort(fabric, p.guid, p.port, 0);
        } catch (const InputError &e) {
            return Error{path, 0, e.message};
        }
        TelemetryRecord r = recordAt(fabric, port, p.time);
        r.rates.xmitBytes = p.xmitBytes;
        r.rates.rcvBytes = p.rcvBytes;
        r.rates.xmitWait = p.xmitWait;
        r.rates.utilisation = p.utilisation;
        addToTicks(&ticks, std::move(r));
    }
    return ticks;
}

}  // namespace

bool isHistoryDatabase(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const QByteArray head = file.read(16);
    return head.size() == 16 && head == QByteArray(kSqliteMagic, 16);
}

Result<std::vector<TraceTick>> readMetricTrace(const QString &path, const Fabric &fabric)
{
    return isHistoryDatabase(path) ? readHistoryTrace(path, fabric) : readCsvTrace(path, fabric);
}

}  // namespace weft::adapt
