#include "ServiceFormat.h"

#include "LftDump.h"
#include "PKeyTableFile.h"
#include "PartitionsConf.h"
#include "ProjectFile.h"
#include "TopologyFile.h"
#include "TrafficModel.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <array>
#include <unordered_set>

namespace weft {

namespace {

// A GUID in the form Weft writes it ("0x0002c90300a1b2c3"), or 0 for "".
Result<Guid> guidField(const QJsonObject &object, const QString &key, const QString &where)
{
    const QString text = object.value(key).toString();
    if (text.isEmpty())
        return Guid(0);
    bool ok = false;
    const Guid guid = text.toULongLong(&ok, 0);
    if (!ok)
        return Error{where, 0, QStringLiteral("%1: not a GUID: \"%2\"").arg(key, text.left(40))};
    return guid;
}

QJsonValue rateJson(const CounterRate &rate)
{
    return rate.ok() ? QJsonValue(rate.value) : QJsonValue(counterGapName(rate.gap));
}

CounterRate rateFromJson(const QJsonValue &value)
{
    if (value.isDouble())
        return CounterRate{value.toDouble(), CounterGap::None};
    const QString name = value.toString();
    for (CounterGap gap : {CounterGap::NoAnswer, CounterGap::Cleared, CounterGap::Saturated, CounterGap::NoInterval,
                           CounterGap::Implausible, CounterGap::Unsupported})
        if (counterGapName(gap) == name)
            return CounterRate{0, gap};
    return CounterRate{0, CounterGap::NoAnswer};
}

}  // namespace

QJsonObject fabricCountsJson(const Fabric &fabric)
{
    return QJsonObject{{QStringLiteral("switches"), int(fabric.switches().size())},
                       {QStringLiteral("hosts"), int(fabric.channelAdapterCount())},
                       {QStringLiteral("links"), int(fabric.links().size())}};
}

QJsonObject fabricToJson(const Fabric &fabric, quint64 generation)
{
    QJsonObject json = fabricCountsJson(fabric);
    json.insert(QStringLiteral("fabric_generation"), double(generation));
    json.insert(QStringLiteral("topology"), QString::fromUtf8(writeIbnetdiscover(fabric)));
    return json;
}

QString jsonErrorPlace(const QByteArray &body, qsizetype offset)
{
    const QByteArray before = body.left(offset);
    return QStringLiteral("line %1, column %2").arg(before.count('\n') + 1).arg(offset - (before.lastIndexOf('\n') + 1) + 1);
}

QJsonObject heldToJson(const Fabric &fabric, const HeldTables &held, const QString &name, quint64 generation,
                       const std::vector<Partition> &partitions)
{
    return QJsonObject{
        {QStringLiteral("held_generation"), double(generation)},
        {QStringLiteral("name"), name},
        {QStringLiteral("lfts"), held.lfts ? QString::fromUtf8(writeLftDump(*held.lfts, &fabric, LftDumpForm::Compact)) : QString()},
        {QStringLiteral("pkeys"), held.pkeys ? QString::fromUtf8(writePKeyTables(*held.pkeys, fabric)) : QString()},
        {QStringLiteral("sm_port"), held.smPort ? guidText(held.smPort) : QString()},
        {QStringLiteral("partitions"), QString::fromUtf8(writePartitionsConf(partitions))}};
}

namespace {

// `text` as a JSON string, quotes included.
QByteArray heldJsonString(const QString &text)
{
    const QByteArray array = QJsonDocument(QJsonArray{text}).toJson(QJsonDocument::Compact);
    return array.mid(1, array.size() - 2);
}

// Appends `data` escaped for the inside of a JSON string (UTF-8 passes as it is).
void appendJsonEscaped(QByteArray &out, const char *data, std::size_t size)
{
    static const char hex[] = "0123456789abcdef";
    std::size_t plain = 0;
    for (std::size_t i = 0; i < size; ++i) {
        const unsigned char c = static_cast<unsigned char>(data[i]);
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        out.append(data + plain, qsizetype(i - plain));
        plain = i + 1;
        switch (c) {
        case '"': out.append("\\\"", 2); break;
        case '\\': out.append("\\\\", 2); break;
        case '\n': out.append("\\n", 2); break;
        case '\t': out.append("\\t", 2); break;
        case '\r': out.append("\\r", 2); break;
        default: {
            const char escaped[] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            out.append(escaped, 6);
        }
        }
    }
    out.append(data + plain, qsizetype(size - plain));
}

}  // namespace

QByteArray heldToJsonBytes(const Fabric &fabric, const HeldTables &held, const QString &name, quint64 generation,
                           const std::vector<Partition> &partitions, const QString &instance)
{
    QByteArray out = "{\"held_generation\":" + QByteArray::number(generation) + ",\"instance\":" + heldJsonString(instance)
        + ",\"name\":" + heldJsonString(name) + ",\"lfts\":\"";
    if (held.lfts)
        writeLftDump(*held.lfts, &fabric, LftDumpForm::Compact, [&out](const char *data, std::size_t size) {
            appendJsonEscaped(out, data, size);
            return true;
        });
    out += "\",\"pkeys\":\"";
    if (held.pkeys) {
        const QByteArray pkeys = writePKeyTables(*held.pkeys, fabric);
        appendJsonEscaped(out, pkeys.constData(), std::size_t(pkeys.size()));
    }
    out += "\",\"sm_port\":" + heldJsonString(held.smPort ? guidText(held.smPort) : QString()) + ",\"partitions\":\"";
    const QByteArray conf = writePartitionsConf(partitions);
    appendJsonEscaped(out, conf.constData(), std::size_t(conf.size()));
    out += "\"}\n";
    return out;
}

Result<LiveState> liveStateFromJson(const QJsonObject &fabricJson, const QJsonObject &tablesJson)
{
    const QString topologyName = QStringLiteral("the service's fabric (topology)");
    Result<Fabric> fabric = readTopology(fabricJson.value(QStringLiteral("topology")).toString().toUtf8(), topologyName);
    if (!fabric)
        return fabric.error();
    LiveState state;
    state.fabric = std::make_shared<const Fabric>(std::move(*fabric));
    const QByteArray lfts = tablesJson.value(QStringLiteral("lfts")).toString().toUtf8();
    if (!lfts.isEmpty()) {
        Result<ForwardingTables> tables = readLftDump(lfts, QStringLiteral("the service's tables (lfts)"), state.fabric.get());
        if (!tables)
            return tables.error();
        state.held.lfts = std::make_shared<const ForwardingTables>(std::move(*tables));
    }
    const QByteArray pkeys = tablesJson.value(QStringLiteral("pkeys")).toString().toUtf8();
    if (!pkeys.isEmpty()) {
        Result<PKeyTables> read = readPKeyTableFile(pkeys, QStringLiteral("the service's tables (pkeys)"), *state.fabric);
        if (!read)
            return read.error();
        state.held.pkeys = std::make_shared<const PKeyTables>(std::move(*read));
    }
    Result<Guid> smPort = guidField(tablesJson, QStringLiteral("sm_port"), QStringLiteral("the service's tables"));
    if (!smPort)
        return smPort.error();
    state.held.smPort = *smPort;
    if (!state.held.smPort)
        state.smPortProblem = QStringLiteral("the service does not know the port its master SM runs on");
    // The partitions as the service names them (after its partitions.conf), else as the P_Keys
    // amount to.
    const QByteArray conf = tablesJson.value(QStringLiteral("partitions")).toString().toUtf8();
    if (Result<PartitionsConfResult> named = readPartitionsConf(conf, QStringLiteral("the service's tables (partitions)")); named && !conf.isEmpty())
        state.partitions = std::move(named->partitions);
    else if (state.held.pkeys)
        state.partitions = partitionsHeld(*state.fabric, *state.held.pkeys);
    return state;
}

QJsonObject planRequestJson(const CommitPlan &plan)
{
    if (!plan.intentFile.isEmpty())
        return QJsonDocument::fromJson(plan.intentFile).object();
    QJsonObject body{{QStringLiteral("lfts"), QString::fromUtf8(writeLftDump(plan.tables, plan.madeFor ? &*plan.madeFor : nullptr, LftDumpForm::Compact))},
                     {QStringLiteral("partitions"), QString::fromUtf8(plan.partitionsConf)},
                     {QStringLiteral("summary"), plan.summary}};
    if (!plan.serviceLevels.empty())
        body.insert(QStringLiteral("service_levels"), QString::fromUtf8(writeServiceLevels(plan.serviceLevels)));
    if (plan.intent) {
        Project project;
        project.tenancy = *plan.intent;
        body.insert(QStringLiteral("project"), QJsonDocument::fromJson(writeProject(project)).object());
    }
    if (!plan.whatIf.isEmpty())
        body.insert(QStringLiteral("what_if"), plan.whatIf);
    return body;
}

CommitReport commitReportFromJson(const QJsonObject &json)
{
    CommitReport report;
    const QString outcome = json.value(QStringLiteral("outcome")).toString();
    for (CommitOutcome o : {CommitOutcome::Committed, CommitOutcome::Refused, CommitOutcome::Stale, CommitOutcome::RolledBack,
                            CommitOutcome::RollbackFailed})
        if (commitOutcomeName(o) == outcome)
            report.outcome = o;
    auto strings = [&json](const char *key) {
        QStringList list;
        for (const QJsonValue &v : json.value(QLatin1String(key)).toArray())
            list << v.toString();
        return list;
    };
    report.steps = strings("steps");
    report.reasons = strings("reasons");
    report.warnings = strings("warnings");
    report.violations = strings("violations");
    report.written = json.value(QStringLiteral("written")).toBool();
    const QJsonObject diff = json.value(QStringLiteral("diff")).toObject();
    report.diff.changedEntries = qint64(diff.value(QStringLiteral("changed_entries")).toDouble());
    report.diff.changedBlocks = qint64(diff.value(QStringLiteral("changed_blocks")).toDouble());
    report.diff.switchInfoSets = diff.value(QStringLiteral("switch_info_sets")).toInt();
    for (const QJsonValue &v : diff.value(QStringLiteral("pkey_blocks")).toArray()) {
        PKeyBlockChange change;
        change.nodeGuid = v.toObject().value(QStringLiteral("node_guid")).toString().toULongLong(nullptr, 0);
        change.portNumber = v.toObject().value(QStringLiteral("port")).toInt();
        change.block = v.toObject().value(QStringLiteral("block")).toInt();
        report.diff.pkeyBlocks.push_back(std::move(change));
    }
    for (const QJsonValue &v : json.value(QStringLiteral("stage_times")).toArray()) {
        const QJsonObject t = v.toObject();
        const QString kind = t.value(QStringLiteral("kind")).toString();
        report.stageTimes.push_back(CommitStageTime{t.value(QStringLiteral("stage")).toString(), t.value(QStringLiteral("seconds")).toDouble(),
                                                    kind == QLatin1String("fabric")       ? CommitStageTime::Kind::Fabric
                                                        : kind == QLatin1String("opensm") ? CommitStageTime::Kind::OpenSm
                                                                                          : CommitStageTime::Kind::Weft});
    }
    return report;
}

QJsonObject telemetryToJson(const Fabric &fabric, const std::vector<TelemetryRecord> &records, double time, double interval)
{
    Q_UNUSED(fabric);
    QJsonArray ports;
    for (const TelemetryRecord &r : records)
        ports.append(QJsonObject{{QStringLiteral("guid"), guidText(r.guid)},
                                 {QStringLiteral("port"), r.port},
                                 {QStringLiteral("lid"), r.lid},
                                 {QStringLiteral("time"), r.time},
                                 {QStringLiteral("seconds"), r.seconds},
                                 {QStringLiteral("xmit_bytes"), rateJson(r.rates.xmitBytes)},
                                 {QStringLiteral("rcv_bytes"), rateJson(r.rates.rcvBytes)},
                                 {QStringLiteral("xmit_packets"), rateJson(r.rates.xmitPackets)},
                                 {QStringLiteral("rcv_packets"), rateJson(r.rates.rcvPackets)},
                                 {QStringLiteral("xmit_wait"), rateJson(r.rates.xmitWait)},
                                 {QStringLiteral("utilisation"), rateJson(r.rates.utilisation)}});
    return QJsonObject{{QStringLiteral("time"), time}, {QStringLiteral("interval"), interval}, {QStringLiteral("ports"), ports}};
}

Result<std::vector<TelemetryRecord>> telemetryFromJson(const QJsonObject &tick, const Fabric &fabric)
{
    std::vector<TelemetryRecord> records;
    const QJsonArray ports = tick.value(QStringLiteral("ports")).toArray();
    records.reserve(std::size_t(ports.size()));
    for (qsizetype i = 0; i < ports.size(); ++i) {
        const QJsonObject p = ports[i].toObject();
        const QString where = QStringLiteral("the service's telemetry, ports[%1]").arg(i);
        Result<Guid> guid = guidField(p, QStringLiteral("guid"), where);
        if (!guid)
            return guid.error();
        const NodeIndex node = fabric.nodeByGuid(*guid);
        const int number = p.value(QStringLiteral("port")).toInt(-1);
        const PortIndex index = node == kNoIndex ? kNoIndex : fabric.portOf(node, number);
        if (index == kNoIndex)
            return Error{where, 0, QStringLiteral("port %1 of node %2 is not in the fabric").arg(number).arg(guidText(*guid))};
        TelemetryRecord r;
        r.time = p.value(QStringLiteral("time")).toDouble(tick.value(QStringLiteral("time")).toDouble());
        r.portIndex = index;
        r.guid = *guid;
        r.port = number;
        r.lid = Lid(p.value(QStringLiteral("lid")).toInt());
        r.seconds = p.value(QStringLiteral("seconds")).toDouble();
        r.rates.xmitBytes = rateFromJson(p.value(QStringLiteral("xmit_bytes")));
        r.rates.rcvBytes = rateFromJson(p.value(QStringLiteral("rcv_bytes")));
        r.rates.xmitPackets = rateFromJson(p.value(QStringLiteral("xmit_packets")));
        r.rates.rcvPackets = rateFromJson(p.value(QStringLiteral("rcv_packets")));
        r.rates.xmitWait = rateFromJson(p.value(QStringLiteral("xmit_wait")));
        r.rates.utilisation = rateFromJson(p.value(QStringLiteral("utilisation")));
        records.push_back(r);
    }
    return records;
}

}  // namespace weft

namespace weft {

namespace {

const QByteArray kCompactMagic = "WEFTTBL1";
const QString kCompactName = QStringLiteral("the service's compact tables");

void compactPutBE(QByteArray &out, quint64 value, int bytes)
{
    for (int i = bytes - 1; i >= 0; --i)
        out.append(char((value >> (8 * i)) & 0xff));
}

quint64 compactGetBE(const char *data, int bytes)
{
    quint64 value = 0;
    for (int i = 0; i < bytes; ++i)
        value = (value << 8) | quint64(quint8(data[i]));
    return value;
}

// One switch's share of the tables' digest: its GUID and routes mixed (splitmix64's finaliser).
quint64 compactMixedDigest(Guid guid, quint64 digest)
{
    quint64 z = guid * 0x9e3779b97f4a7c15ULL ^ digest;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

QString compactDigestText(quint64 digest)
{
    return QStringLiteral("0x%1").arg(digest, 16, 16, QLatin1Char('0'));
}

quint32 gzipCrc32(const QByteArray &data)
{
    static const std::array<quint32, 256> table = [] {
        std::array<quint32, 256> t{};
        for (quint32 i = 0; i < 256; ++i) {
            quint32 c = i;
            for (int k = 0; k < 8; ++k)
                c = (c & 1) ? 0xedb88320U ^ (c >> 1) : c >> 1;
            t[i] = c;
        }
        return t;
    }();
    quint32 crc = 0xffffffffU;
    for (const char byte : data)
        crc = table[(crc ^ quint8(byte)) & 0xff] ^ (crc >> 8);
    return crc ^ 0xffffffffU;
}

}  // namespace

quint64 switchTableDigest(const LinearForwardingTable &lft)
{
    // FNV-1a over the routed range: storage past LinearFDBTop does not count.
    quint64 h = 0xcbf29ce484222325ULL;
    const std::vector<std::uint8_t> &entries = lft.entries();
    const std::size_t used = lft.top() == 0 && !lft.hasRoute(0) ? 0 : std::size_t(lft.top()) + 1;
    for (std::size_t i = 0; i < used && i < entries.size(); ++i) {
        h ^= entries[i];
        h *= 0x100000001b3ULL;
    }
    h ^= used;
    h *= 0x100000001b3ULL;
    return h;
}

QString tablesDigest(const ForwardingTables &tables)
{
    quint64 sum = 0;
    for (const SwitchForwardingTable &s : tables.switches())
        sum += compactMixedDigest(s.guid, switchTableDigest(s.lft));
    return compactDigestText(sum ^ quint64(tables.size()));
}

QByteArray writeCompactTables(QJsonObject header, const ForwardingTables &tables, const std::vector<std::size_t> *only)
{
    const std::size_t records = only ? only->size() : tables.size();
    header.insert(QStringLiteral("switches"), double(records));
    header.insert(QStringLiteral("lfts_switches"), double(tables.size()));
    header.insert(QStringLiteral("lfts_digest"), tablesDigest(tables));
    const QByteArray json = QJsonDocument(header).toJson(QJsonDocument::Compact);
    std::size_t size = std::size_t(kCompactMagic.size()) + 4 + std::size_t(json.size());
    const auto entriesOf = [](const LinearForwardingTable &lft) -> std::size_t {
        return lft.top() == 0 && !lft.hasRoute(0) ? 0 : std::size_t(lft.top()) + 1;
    };
    for (std::size_t k = 0; k < records; ++k)
        size += 14 + entriesOf(tables.at(only ? (*only)[k] : k).lft);
    QByteArray out;
    out.reserve(qsizetype(size));
    out += kCompactMagic;
    compactPutBE(out, quint64(json.size()), 4);
    out += json;
    for (std::size_t k = 0; k < records; ++k) {
        const SwitchForwardingTable &s = tables.at(only ? (*only)[k] : k);
        const std::size_t n = entriesOf(s.lft);
        compactPutBE(out, s.guid, 8);
        compactPutBE(out, s.lid, 2);
        compactPutBE(out, n, 4);
        const std::vector<std::uint8_t> &entries = s.lft.entries();
        const std::size_t stored = std::min(n, entries.size());
        out.append(reinterpret_cast<const char *>(entries.data()), qsizetype(stored));
        if (stored < n)
            out.append(qsizetype(n - stored), char(kNoRoute));
    }
    return out;
}

Result<CompactTables> readCompactTables(const QByteArray &body, const Fabric *fabric)
{
    const auto fail = [](const QString &message) { return Error{kCompactName, 0, message}; };
    if (!body.startsWith(kCompactMagic))
        return fail(QStringLiteral("it does not begin with %1: not the compact form").arg(QString::fromLatin1(kCompactMagic)));
    qsizetype at = kCompactMagic.size();
    if (body.size() < at + 4)
        return fail(QStringLiteral("cut short in its header"));
    const qsizetype jsonSize = qsizetype(compactGetBE(body.constData() + at, 4));
    at += 4;
    if (jsonSize > body.size() - at)
        return fail(QStringLiteral("its header says %1 bytes, %2 follow").arg(jsonSize).arg(body.size() - at));
    QJsonParseError e{};
    const QJsonDocument document = QJsonDocument::fromJson(body.mid(at, jsonSize), &e);
    if (e.error != QJsonParseError::NoError || !document.isObject())
        return fail(QStringLiteral("its header is not a JSON object: %1").arg(e.errorString()));
    at += jsonSize;
    CompactTables read;
    read.header = document.object();
    const double records = read.header.value(QStringLiteral("switches")).toDouble(-1);
    if (records < 0 || records > 1e6)
        return fail(QStringLiteral("its header gives no number of switches"));
    read.lfts.reserve(std::size_t(records));
    for (int k = 0; k < int(records); ++k) {
        if (body.size() - at < 14)
            return fail(QStringLiteral("record %1 of %2 is cut short").arg(k + 1).arg(int(records)));
        const Guid guid = compactGetBE(body.constData() + at, 8);
        const Lid lid = Lid(compactGetBE(body.constData() + at + 8, 2));
        const qsizetype n = qsizetype(compactGetBE(body.constData() + at + 10, 4));
        at += 14;
        if (n > body.size() - at || n > 0xc000)
            return fail(QStringLiteral("record %1 (switch %2) gives %3 entries, more than %4").arg(k + 1).arg(guidText(guid)).arg(n).arg(std::min<qsizetype>(body.size() - at, 0xc000)));
        int portCount = 255;
        QString description;
        if (fabric) {
            const NodeIndex node = fabric->nodeByGuid(guid);
            if (node == kNoIndex || fabric->node(node).type != NodeType::Switch)
                return fail(QStringLiteral("record %1: %2 is not a switch of the fabric").arg(k + 1).arg(guidText(guid)));
            portCount = fabric->node(node).portCount;
            description = fabric->node(node).description;
        }
        const int index = read.lfts.addSwitch(guid, lid, description);
        if (index < 0)
            return fail(QStringLiteral("record %1: switch %2 is given twice").arg(k + 1).arg(guidText(guid)));
        if (n > 0) {
            std::uint8_t *entries = read.lfts.lft(std::size_t(index)).entriesToFill(Lid(n - 1));
            const auto *from = reinterpret_cast<const std::uint8_t *>(body.constData() + at);
            for (qsizetype i = 0; i < n; ++i) {
                if (from[i] != kNoRoute && from[i] > portCount)
                    return fail(QStringLiteral("record %1: switch %2 routes LID %3 to port %4; it has %5").arg(k + 1).arg(guidText(guid)).arg(i).arg(from[i]).arg(portCount));
                entries[i] = from[i];
            }
        }
        at += n;
    }
    if (at != body.size())
        return fail(QStringLiteral("%1 bytes follow the last record").arg(body.size() - at));
    return read;
}

Result<ForwardingTables> applyTablesDelta(const ForwardingTables &base, const CompactTables &delta, const Fabric *fabric)
{
    std::unordered_set<Guid> removed;
    for (const QJsonValue &v : delta.header.value(QStringLiteral("removed")).toArray())
        removed.insert(v.toString().toULongLong(nullptr, 0));
    ForwardingTables merged;
    merged.reserve(base.size() + delta.lfts.size());
    for (const SwitchForwardingTable &s : base.switches()) {
        if (removed.count(s.guid))
            continue;
        const SwitchForwardingTable *changed = delta.lfts.find(s.guid);
        const SwitchForwardingTable &take = changed ? *changed : s;
        const int index = merged.addSwitch(take.guid, take.lid, take.description);
        merged.lft(std::size_t(index)) = take.lft;
    }
    for (const SwitchForwardingTable &s : delta.lfts.switches())
        if (!merged.contains(s.guid)) {
            const int index = merged.addSwitch(s.guid, s.lid, s.description);
            merged.lft(std::size_t(index)) = s.lft;
        }
    if (fabric)
        for (std::size_t i = 0; i < merged.size(); ++i)
            if (const NodeIndex node = fabric->nodeByGuid(merged.at(i).guid); node != kNoIndex) {
                merged.setSwitchDescription(i, fabric->node(node).description);
                if (!merged.at(i).lid)
                    merged.setSwitchLid(i, fabric->nodeLid(node));
            }
    const QString expected = delta.header.value(QStringLiteral("lfts_digest")).toString();
    if (tablesDigest(merged) != expected)
        return Error{kCompactName, 0, QStringLiteral("the tables the delta makes have the digest %1, the service's %2").arg(tablesDigest(merged), expected)};
    return merged;
}

Result<LiveState> liveStateFromCompact(std::shared_ptr<const Fabric> fabric, const QJsonObject &header, std::shared_ptr<const ForwardingTables> lfts)
{
    LiveState state;
    state.fabric = std::move(fabric);
    const QByteArray pkeys = header.value(QStringLiteral("pkeys")).toString().toUtf8();
    if (!pkeys.isEmpty()) {
        Result<PKeyTables> read = readPKeyTableFile(pkeys, QStringLiteral("the service's tables (pkeys)"), *state.fabric);
        if (!read)
            return read.error();
        state.held.pkeys = std::make_shared<const PKeyTables>(std::move(*read));
    }
    if (lfts && !lfts->isEmpty())
        state.held.lfts = std::move(lfts);
    Result<Guid> smPort = guidField(header, QStringLiteral("sm_port"), QStringLiteral("the service's tables"));
    if (!smPort)
        return smPort.error();
    state.held.smPort = *smPort;
    if (!state.held.smPort)
        state.smPortProblem = QStringLiteral("the service does not know the port its master SM runs on");
    const QByteArray conf = header.value(QStringLiteral("partitions")).toString().toUtf8();
    if (Result<PartitionsConfResult> named = readPartitionsConf(conf, QStringLiteral("the service's tables (partitions)")); named && !conf.isEmpty())
        state.partitions = std::move(named->partitions);
    else if (state.held.pkeys)
        state.partitions = partitionsHeld(*state.fabric, *state.held.pkeys);
    return state;
}

QByteArray gzipBytes(const QByteArray &data)
{
    // qCompress: 4 bytes of length, then the zlib format (2 bytes of header, the deflate stream,
    // the Adler-32); gzip wants the same deflate stream between its own header and trailer.
    const QByteArray zlib = qCompress(data, 6);
    QByteArray out("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10);
    out += QByteArrayView(zlib).sliced(6, zlib.size() - 10);
    const quint32 crc = gzipCrc32(data);
    const quint32 size = quint32(quint64(data.size()) & 0xffffffffU);
    for (int i = 0; i < 4; ++i)
        out.append(char((crc >> (8 * i)) & 0xff));
    for (int i = 0; i < 4; ++i)
        out.append(char((size >> (8 * i)) & 0xff));
    return out;
}

QByteArray compressForHttp(const QByteArray &body, const QByteArray &acceptEncoding, QByteArray *encoding)
{
    encoding->clear();
    if (body.size() < 1024)
        return body;
    bool gzip = false, deflate = false;
    for (const QByteArray &item : acceptEncoding.split(',')) {
        const QList<QByteArray> parts = item.split(';');
        const QByteArray name = parts.front().trimmed().toLower();
        bool refused = false;
        for (qsizetype i = 1; i < parts.size(); ++i) {
            const QByteArray p = parts[i].trimmed().toLower();
            if (p.startsWith("q=") && p.mid(2).toDouble() <= 0)
                refused = true;
        }
        if (refused)
            continue;
        gzip = gzip || name == "gzip" || name == "x-gzip";
        deflate = deflate || name == "deflate";
    }
    if (gzip) {
        *encoding = "gzip";
        return gzipBytes(body);
    }
    if (deflate) {
        *encoding = "deflate";
        return qCompress(body, 6).mid(4);
    }
    return body;
}

}  // namespace weft
