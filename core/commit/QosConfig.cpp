#include "QosConfig.h"

#include "Identifiers.h"

#include <QList>

#include <set>

namespace weft {

namespace {

QString tableLabel(const Fabric &fabric, const PortSlToVl &t)
{
    const bool onSwitch = fabric.node(fabric.port(t.port).node).type == NodeType::Switch;
    return onSwitch ? QStringLiteral("%1 from port %2").arg(portDisplayName(fabric, t.port)).arg(t.inPort) : portDisplayName(fabric, t.port);
}

// A line of OpenSM's options file that sets `key` (OpenSM: the first token before white space,
// after cutting at '#').
bool setsKey(const QByteArray &line, const QList<QByteArray> &keys)
{
    QByteArray text = line;
    if (const int hash = text.indexOf('#'); hash >= 0)
        text.truncate(hash);
    const QList<QByteArray> tokens = text.simplified().split(' ');
    return !tokens.isEmpty() && keys.contains(tokens.front());
}

}  // namespace

Result<SlToVl> planSlToVl(const std::map<std::uint16_t, int> &levels, int dataVls)
{
    std::set<int> sls;
    for (const auto &[pkey, sl] : levels) {
        if (sl < 0 || sl >= kServiceLevels - 1)
            return Error{{}, 0, QStringLiteral("partition %1: SL %2 is not a data SL (0 to 14)").arg(pkeyText(pkey)).arg(sl)};
        if (sl != 0)
            sls.insert(sl);
    }
    if (int(sls.size()) > dataVls - 1)
        return Error{{}, 0, QStringLiteral("%1 service levels need %2 data VLs besides VL 0; the ports operate %3")
                                .arg(sls.size()).arg(sls.size()).arg(dataVls)};
    SlToVl table{};
    int vl = 1;
    for (int sl : sls)
        table[std::size_t(sl)] = std::uint8_t(vl++);
    return table;
}

QString slToVlText(const SlToVl &table)
{
    QStringList vls;
    for (std::uint8_t vl : table)
        vls << QString::number(vl);
    return vls.join(QLatin1Char(','));
}

QByteArray withQosOptions(const QByteArray &options, const SlToVl &table)
{
    static const QList<QByteArray> managed = {"qos", "qos_sl2vl", "qos_ca_sl2vl", "qos_sw0_sl2vl", "qos_swe_sl2vl", "qos_rtr_sl2vl"};
    QByteArray out;
    QList<QByteArray> lines = options.split('\n');
    if (!lines.isEmpty() && lines.back().isEmpty())
        lines.removeLast();
    static const QByteArray comment = "# weft: QoS so that each partition's service level travels on its own VL";
    for (const QByteArray &line : lines)
        if (!setsKey(line, managed) && line != comment)
            out += line + '\n';
    out += comment + "\nqos TRUE\n"
           "qos_sl2vl " + slToVlText(table).toLatin1() + '\n';
    return out;
}

QStringList checkSlToVl(const Fabric &fabric, const std::vector<PortSlToVl> &read, const std::map<std::uint16_t, int> &levels,
                        const SlToVl &table, int maxReported)
{
    QStringList problems;
    int total = 0;
    std::set<int> sls;
    for (const auto &[pkey, sl] : levels)
        sls.insert(sl);
    std::set<std::pair<PortIndex, int>> seen;
    for (const PortSlToVl &t : read) {
        seen.insert({t.port, t.inPort});
        QStringList wrong;
        std::map<int, int> slOnVl;
        for (int sl : sls) {
            const int got = t.vls[std::size_t(sl)];
            if (got != table[std::size_t(sl)])
                wrong << QStringLiteral("SL %1 on VL %2, planned VL %3").arg(sl).arg(got).arg(table[std::size_t(sl)]);
            if (const auto other = slOnVl.find(got); other != slOnVl.end())
                wrong << QStringLiteral("SL %1 and SL %2 share VL %3").arg(other->second).arg(sl).arg(got);
            slOnVl.emplace(got, sl);
        }
        if (!wrong.isEmpty() && ++total <= maxReported)
            problems << QStringLiteral("SL2VL of %1: %2").arg(tableLabel(fabric, t), wrong.join(QStringLiteral("; ")));
    }
    // Every linked CA port and every pair of linked switch ports must have been read.
    for (PortIndex p = 0; p < PortIndex(fabric.ports().size()); ++p) {
        const Port &port = fabric.port(p);
        if (!port.present || port.remote == kNoIndex)
            continue;
        const Node &node = fabric.node(port.node);
        std::vector<int> ins{0};
        if (node.type == NodeType::Switch) {
            ins.clear();
            for (int in = 1; in <= node.portCount; ++in)
                if (const PortIndex ip = fabric.portOf(port.node, in); ip != kNoIndex && fabric.port(ip).remote != kNoIndex && in != port.number)
                    ins.push_back(in);
        }
        for (int in : ins)
            if (!seen.count({p, in}) && ++total <= maxReported)
                problems << QStringLiteral("SL2VL of %1 from port %2 was not read").arg(portDisplayName(fabric, p)).arg(in);
    }
    if (total > maxReported)
        problems << QStringLiteral("... and %1 more").arg(total - maxReported);
    return problems;
}

QStringList compareSlToVl(const Fabric &fabric, const std::vector<PortSlToVl> &expected, const std::vector<PortSlToVl> &read,
                          int maxReported)
{
    std::map<std::pair<PortIndex, int>, const PortSlToVl *> byPort;
    for (const PortSlToVl &t : read)
        byPort[{t.port, t.inPort}] = &t;
    QStringList problems;
    int total = 0;
    for (const PortSlToVl &want : expected) {
        const auto it = byPort.find({want.port, want.inPort});
        QString problem;
        if (it == byPort.end())
            problem = QStringLiteral("SL2VL of %1 was not read").arg(tableLabel(fabric, want));
        else if (it->second->vls != want.vls)
            problem = QStringLiteral("SL2VL of %1 is %2, expected %3").arg(tableLabel(fabric, want), slToVlText(it->second->vls), slToVlText(want.vls));
        if (!problem.isEmpty() && ++total <= maxReported)
            problems << problem;
    }
    if (total > maxReported)
        problems << QStringLiteral("... and %1 more").arg(total - maxReported);
    return problems;
}

std::vector<PathProbe> pathProbes(const Fabric &fabric, const std::vector<Partition> &partitions,
                                  const std::map<std::uint16_t, int> &levels)
{
    std::vector<PathProbe> probes;
    for (const auto &[pkey, sl] : levels) {
        std::vector<Lid> lids;
        for (const Partition &p : partitions) {
            if (!p.pkey || (*p.pkey & kPKeyMask) != pkey)
                continue;
            for (const PartitionMember &m : p.members) {
                if (m.kind != PartitionMember::Kind::PortGuid || m.membership == Membership::Limited)
                    continue;
                const PortIndex port = fabric.portByGuid(m.guid);
                if (port != kNoIndex && fabric.port(port).lid != 0)
                    lids.push_back(fabric.port(port).lid);
            }
        }
        if (lids.size() >= 2)
            probes.push_back(PathProbe{pkey, sl, lids.front(), lids.back()});
    }
    return probes;
}

}  // namespace weft
