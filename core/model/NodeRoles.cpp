#include "NodeRoles.h"

#include "FabricEdit.h"

#include <QRegularExpression>

namespace weft {

namespace {

constexpr std::uint32_t kMellanoxVendorId = 0x02c9;

// Device IDs of Mellanox/NVIDIA switch ASICs (SwitchX, SwitchX-2, Switch-IB, Switch-IB 2,
// Quantum, Quantum-2, Quantum-3): a CA reporting one is the switch's own CA.
bool isSwitchAsicDevice(std::uint32_t deviceId)
{
    switch (deviceId) {
    case 0xc738:
    case 0xc739:
    case 0xbd36:
    case 0xcb20:
    case 0xcb21:
    case 0xcf08:
    case 0xcf09:
    case 0xd2f0:
    case 0xd2f1:
    case 0xd2f2:
    case 0xd2f3:
    case 0xd2f4:
    case 0xd2f5:
        return true;
    default:
        return false;
    }
}

bool namesAggregationNode(const QString &description)
{
    return description.contains(QLatin1String("Aggregation Node"), Qt::CaseInsensitive);
}

// Every cabled port goes to a switch ASIC of the node's own system (the same system image GUID).
bool insideSwitchSystem(const Fabric &f, const Node &n)
{
    if (n.systemImageGuid == 0)
        return false;
    bool any = false;
    for (int p = 1; p <= n.portCount; ++p) {
        const Port &port = f.port(n.firstPort + p);
        if (port.remote == kNoIndex)
            continue;
        const Node &peer = f.node(f.port(port.remote).node);
        // A switch ASIC's system: a vSwitch shares its HCA's system with the PF and VFs behind it,
        // which are hosts.
        if (peer.type != NodeType::Switch || (peer.systemImageGuid != n.systemImageGuid && peer.guid != n.systemImageGuid)
            || peer.vendorId != kMellanoxVendorId || !isSwitchAsicDevice(peer.deviceId))
            return false;
        any = true;
    }
    return any;
}

QString ioWord(const QString &description)
{
    static const QRegularExpression words(QStringLiteral("[A-Za-z]+[0-9]*"));
    static const char *const kWords[] = {"login", "storage", "lustre", "gpfs", "nsd", "oss", "mds", "mgs", "mgmt", "gateway", "io"};
    for (auto it = words.globalMatch(description); it.hasNext();) {
        const QString word = it.next().captured().toLower();
        for (const char *w : kWords) {
            const QLatin1String key(w);
            if (!word.startsWith(key))
                continue;
            const QStringView rest = QStringView(word).mid(key.size());
            // "oss3", "login", "storage01" but not "io" inside "ionic" or "oss" in "ossify";
            // the longer words stand as prefixes ("loginnode", "lustre-oss").
            if (rest.isEmpty() || rest.front().isDigit() || key.size() >= 5)
                return word;
        }
    }
    return {};
}

}  // namespace

QString nodeRoleReason(const Fabric &fabric, NodeIndex node)
{
    const Node &n = fabric.node(node);
    if (n.type == NodeType::Switch)
        return {};
    if (namesAggregationNode(n.description))
        return QStringLiteral("its description names an Aggregation Node");
    if (n.vendorId == kMellanoxVendorId && isSwitchAsicDevice(n.deviceId))
        return QStringLiteral("its device ID 0x%1 is a switch ASIC's").arg(n.deviceId, 0, 16);
    if (insideSwitchSystem(fabric, n))
        return QStringLiteral("it is cabled only to switches of its own system");
    if (const QString word = ioWord(n.description); !word.isEmpty())
        return QStringLiteral("its description says \"%1\"").arg(word);
    return {};
}

NodeRole classifyNodeRole(const Fabric &fabric, NodeIndex node)
{
    const Node &n = fabric.node(node);
    if (n.type == NodeType::Switch)
        return NodeRole::Compute;
    if (namesAggregationNode(n.description) || (n.vendorId == kMellanoxVendorId && isSwitchAsicDevice(n.deviceId))
        || insideSwitchSystem(fabric, n))
        return NodeRole::Service;
    if (!ioWord(n.description).isEmpty())
        return NodeRole::IO;
    return NodeRole::Compute;
}

Result<std::vector<Guid>> readGuidList(const QByteArray &data, const QString &fileName)
{
    std::vector<Guid> guids;
    const QList<QByteArray> lines = data.split('\n');
    for (int i = 0; i < lines.size(); ++i) {
        QByteArray line = lines[i].trimmed();
        if (i == 0 && line.startsWith("\xEF\xBB\xBF"))
            line = line.mid(3).trimmed();
        if (line.isEmpty() || line.startsWith('#'))
            continue;
        QByteArray word = line.left(line.indexOf(' ') < 0 ? line.size() : line.indexOf(' '));
        word = word.left(word.indexOf('\t') < 0 ? word.size() : word.indexOf('\t'));
        bool ok = false;
        const QByteArray digits = word.startsWith("0x") || word.startsWith("0X") ? word.mid(2) : word;
        const Guid g = digits.size() <= 16 ? digits.toULongLong(&ok, 16) : 0;
        if (!ok || g == 0)
            return Error{fileName, i + 1, QStringLiteral("\"%1\" is not a GUID").arg(QString::fromUtf8(word))};
        guids.push_back(g);
    }
    return guids;
}

namespace {

NodeIndex endNodeOf(const Fabric &fabric, Guid guid)
{
    NodeIndex n = fabric.nodeByGuid(guid);
    if (n == kNoIndex) {
        const PortIndex p = fabric.portByGuid(guid);
        if (p != kNoIndex)
            n = fabric.port(p).node;
    }
    return n != kNoIndex && fabric.node(n).type != NodeType::Switch ? n : kNoIndex;
}

}  // namespace

NodeRoleChoices roleChoicesFromGuidFiles(const Fabric &fabric, const std::vector<Guid> &computeGuids,
                                         const std::vector<Guid> &ioGuids, QStringList *unknown)
{
    NodeRoleChoices choices;
    std::vector<bool> listed(fabric.nodes().size(), false);
    for (Guid g : computeGuids) {
        const NodeIndex n = endNodeOf(fabric, g);
        if (n == kNoIndex) {
            if (unknown)
                *unknown << guidText(g);
            continue;
        }
        listed[std::size_t(n)] = true;
        choices[fabric.node(n).guid] = NodeRole::Compute;
    }
    if (!computeGuids.empty()) {
        for (NodeIndex n : fabric.endNodes())
            if (!listed[std::size_t(n)] && fabric.node(n).role != NodeRole::Service)
                choices[fabric.node(n).guid] = NodeRole::IO;
    }
    for (Guid g : ioGuids) {
        const NodeIndex n = endNodeOf(fabric, g);
        if (n == kNoIndex) {
            if (unknown)
                *unknown << guidText(g);
            continue;
        }
        choices[fabric.node(n).guid] = NodeRole::IO;
    }
    return choices;
}

Result<Fabric> fabricWithRoles(const Fabric &fabric, const NodeRoleChoices &choices, QStringList *unknown)
{
    FabricEdit edit;
    edit.roles.resize(fabric.nodes().size());
    for (std::size_t i = 0; i < fabric.nodes().size(); ++i)
        edit.roles[i] = fabric.nodes()[i].role;
    for (const auto &[guid, role] : choices) {
        const NodeIndex n = endNodeOf(fabric, guid);
        if (n == kNoIndex) {
            if (unknown)
                *unknown << guidText(guid);
            continue;
        }
        edit.roles[std::size_t(n)] = role;
    }
    return editedFabric(fabric, edit);
}

RoleCounts countRoles(const Fabric &fabric)
{
    RoleCounts c;
    for (NodeIndex n : fabric.endNodes()) {
        switch (fabric.node(n).role) {
        case NodeRole::Compute: ++c.compute; break;
        case NodeRole::Service: ++c.service; break;
        case NodeRole::IO: ++c.io; break;
        }
    }
    return c;
}

}  // namespace weft
