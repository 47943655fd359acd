#include "ServiceFormat.h"

#include "LftDump.h"
#include "PKeyTableFile.h"
#include "PartitionsConf.h"
#include "ProjectFile.h"
#include "TopologyFile.h"
#include "TrafficModel.h"

#include <QJsonArray>
#include <QJsonDocument>

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
