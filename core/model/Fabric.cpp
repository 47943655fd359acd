#include "Fabric.h"

#include "NodeRoles.h"

#include <unordered_set>

namespace weft {

QString liveNodeName(NodeType type, Guid guid)
{
    const QChar prefix = type == NodeType::Switch ? QLatin1Char('S') : type == NodeType::Router ? QLatin1Char('R')
                                                                                                : QLatin1Char('H');
    return QStringLiteral("%1-%2").arg(prefix).arg(guidDigits(guid));
}

QString displayName(const Node &node)
{
    return node.description.isEmpty() ? node.name : node.description;
}

QString portDisplayName(const Fabric &fabric, PortIndex port)
{
    const Port &p = fabric.port(port);
    return QStringLiteral("%1[%2]").arg(displayName(fabric.node(p.node))).arg(p.number);
}

PortIndex Fabric::portOf(NodeIndex node, int number) const
{
    if (node < 0 || std::size_t(node) >= m_nodes.size())
        return kNoIndex;
    const Node &n = m_nodes[std::size_t(node)];
    if (number < 0 || number > n.portCount)
        return kNoIndex;
    return n.firstPort + number;
}

NodeIndex Fabric::nodeByGuid(Guid nodeGuid) const
{
    auto it = m_nodeByGuid.find(nodeGuid);
    return it == m_nodeByGuid.end() ? kNoIndex : it->second;
}

PortIndex Fabric::portByGuid(Guid portGuid) const
{
    auto it = m_portByGuid.find(portGuid);
    return it == m_portByGuid.end() ? kNoIndex : it->second;
}

PortIndex Fabric::portByLid(Lid lid) const
{
    return lid < m_portByLid.size() ? m_portByLid[lid] : kNoIndex;
}

NodeIndex Fabric::nodeByName(const QString &name) const
{
    auto it = m_nodeByName.find(name);
    return it == m_nodeByName.end() ? kNoIndex : it->second;
}

Lid Fabric::nodeLid(NodeIndex node) const
{
    const Node &n = m_nodes[std::size_t(node)];
    if (n.type == NodeType::Switch)
        return m_ports[std::size_t(n.firstPort)].lid;
    for (int p = 1; p <= n.portCount; ++p) {
        const Port &port = m_ports[std::size_t(n.firstPort + p)];
        if (port.lid != 0)
            return port.lid;
    }
    return 0;
}

std::size_t Fabric::channelAdapterCount() const
{
    std::size_t count = 0;
    for (NodeIndex i : m_endNodes)
        count += m_nodes[std::size_t(i)].type == NodeType::ChannelAdapter;
    return count;
}

std::vector<NodeIndex> Fabric::computeNodes() const
{
    std::vector<NodeIndex> compute;
    compute.reserve(m_endNodes.size());
    for (NodeIndex i : m_endNodes)
        if (m_nodes[std::size_t(i)].role == NodeRole::Compute)
            compute.push_back(i);
    return compute.empty() ? m_endNodes : compute;
}

void FabricBuilder::addToGroup(const QString &name, Guid guid, NodeIndex node)
{
    for (NodeGroup &g : m_fabric.m_groups) {
        if (g.name == name) {
            if (!g.guid)
                g.guid = guid;
            g.nodes.push_back(node);
            return;
        }
    }
    m_fabric.m_groups.push_back(NodeGroup{name, guid, {node}});
}

void FabricBuilder::reserve(std::size_t nodes, std::size_t ports)
{
    m_fabric.m_nodes.reserve(nodes);
    m_fabric.m_ports.reserve(ports);
    m_fabric.m_nodeByGuid.reserve(nodes);
    m_fabric.m_nodeByName.reserve(nodes);
}

QString FabricBuilder::addNode(const NodeSpec &spec, NodeIndex *created)
{
    if (spec.portCount < 1 || spec.portCount > 254)
        return QStringLiteral("node \"%1\" has %2 ports; a node has 1 to 254").arg(spec.name).arg(spec.portCount);
    if (spec.guid == 0)
        return QStringLiteral("node \"%1\" has GUID 0").arg(spec.name);
    if (m_fabric.m_nodeByGuid.count(spec.guid))
        return QStringLiteral("duplicate node GUID %1 (\"%2\" and \"%3\")")
            .arg(guidText(spec.guid))
            .arg(m_fabric.m_nodes[std::size_t(m_fabric.m_nodeByGuid.at(spec.guid))].name, spec.name);
    if (!spec.name.isEmpty() && m_fabric.m_nodeByName.count(spec.name))
        return QStringLiteral("duplicate node id \"%1\"").arg(spec.name);

    const auto index = NodeIndex(m_fabric.m_nodes.size());
    Node node;
    node.type = spec.type;
    node.guid = spec.guid;
    node.systemImageGuid = spec.systemImageGuid;
    node.vendorId = spec.vendorId;
    node.deviceId = spec.deviceId;
    node.name = spec.name;
    node.description = spec.description;
    node.portCount = std::uint8_t(spec.portCount);
    node.enhancedPort0 = spec.enhancedPort0;
    node.role = spec.role.value_or(NodeRole::Compute);
    m_roleGiven.push_back(spec.role.has_value());
    node.firstPort = PortIndex(m_fabric.m_ports.size());
    m_fabric.m_nodes.push_back(node);

    const bool isSwitch = spec.type == NodeType::Switch;
    for (int p = 0; p <= spec.portCount; ++p) {
        Port port;
        port.node = index;
        port.number = std::uint8_t(p);
        port.present = p > 0 || isSwitch;
        if (port.present)
            port.guid = isSwitch ? spec.guid : spec.guid + Guid(p);
        m_fabric.m_ports.push_back(port);
    }
    m_fabric.m_nodeByGuid.emplace(spec.guid, index);
    if (!spec.name.isEmpty())
        m_fabric.m_nodeByName.emplace(spec.name, index);
    if (created)
        *created = index;
    return {};
}

QString FabricBuilder::checkPort(NodeIndex node, int number, bool allowPort0) const
{
    if (node < 0 || std::size_t(node) >= m_fabric.m_nodes.size())
        return QStringLiteral("no such node");
    const Node &n = m_fabric.m_nodes[std::size_t(node)];
    const bool port0 = allowPort0 && n.type == NodeType::Switch;
    if (number > n.portCount || number < (port0 ? 0 : 1))
        return QStringLiteral("\"%1\" has no port %2 (it has ports 1-%3)").arg(n.name).arg(number).arg(n.portCount);
    return {};
}

QString FabricBuilder::setPortGuid(NodeIndex node, int number, Guid guid)
{
    if (QString e = checkPort(node, number, true); !e.isEmpty())
        return e;
    if (guid == 0)
        return QStringLiteral("port GUID 0 on \"%1\" port %2").arg(m_fabric.m_nodes[std::size_t(node)].name).arg(number);
    m_fabric.m_ports[std::size_t(m_fabric.m_nodes[std::size_t(node)].firstPort + number)].guid = guid;
    return {};
}

QString FabricBuilder::setPortLid(NodeIndex node, int number, Lid lid, int lmc)
{
    if (QString e = checkPort(node, number, true); !e.isEmpty())
        return e;
    if (lid > kMaxUnicastLid)
        return QStringLiteral("LID %1 is not a unicast LID (1-%2)").arg(lid).arg(kMaxUnicastLid);
    if (lmc < 0 || lmc > 7)
        return QStringLiteral("LMC %1 is out of range (0-7)").arg(lmc);
    Port &port = m_fabric.m_ports[std::size_t(m_fabric.m_nodes[std::size_t(node)].firstPort + number)];
    port.lid = lid;
    port.lmc = std::uint8_t(lmc);
    return {};
}

QString FabricBuilder::setPortLink(NodeIndex node, int number, int width, LinkSpeed speed)
{
    if (QString e = checkPort(node, number, false); !e.isEmpty())
        return e;
    Port &port = m_fabric.m_ports[std::size_t(m_fabric.m_nodes[std::size_t(node)].firstPort + number)];
    port.width = std::uint8_t(width);
    port.speed = speed;
    return {};
}

QString FabricBuilder::setPortSupported(NodeIndex node, int number, int width, LinkSpeed speed)
{
    if (QString e = checkPort(node, number, false); !e.isEmpty())
        return e;
    Port &port = m_fabric.m_ports[std::size_t(m_fabric.m_nodes[std::size_t(node)].firstPort + number)];
    port.supportedWidth = std::uint8_t(width);
    port.supportedSpeed = speed;
    return {};
}

QString FabricBuilder::setPortState(NodeIndex node, int number, PortState state)
{
    if (QString e = checkPort(node, number, true); !e.isEmpty())
        return e;
    m_fabric.m_ports[std::size_t(m_fabric.m_nodes[std::size_t(node)].firstPort + number)].state = state;
    return {};
}

QString FabricBuilder::setPortSubnetManager(NodeIndex node, int number, bool subnetManager)
{
    if (QString e = checkPort(node, number, true); !e.isEmpty())
        return e;
    m_fabric.m_ports[std::size_t(m_fabric.m_nodes[std::size_t(node)].firstPort + number)].subnetManager = subnetManager;
    return {};
}

QString FabricBuilder::connect(NodeIndex a, int portA, NodeIndex b, int portB)
{
    if (QString e = checkPort(a, portA, false); !e.isEmpty())
        return e;
    if (QString e = checkPort(b, portB, false); !e.isEmpty())
        return e;
    auto &ports = m_fabric.m_ports;
    const auto &nodes = m_fabric.m_nodes;
    const PortIndex pa = nodes[std::size_t(a)].firstPort + portA;
    const PortIndex pb = nodes[std::size_t(b)].firstPort + portB;
    if (pa == pb)
        return QStringLiteral("\"%1\" port %2 is cabled to itself").arg(nodes[std::size_t(a)].name).arg(portA);
    Port &x = ports[std::size_t(pa)];
    Port &y = ports[std::size_t(pb)];
    if (x.remote == pb && y.remote == pa)
        return {};  // the same cable, stated from its other end
    auto describe = [&](const Port &p) {
        const Port &r = ports[std::size_t(p.remote)];
        return QStringLiteral("\"%1\" port %2 is already cabled to \"%3\" port %4")
            .arg(nodes[std::size_t(p.node)].name).arg(p.number)
            .arg(nodes[std::size_t(r.node)].name).arg(r.number);
    };
    if (x.remote != kNoIndex)
        return describe(x);
    if (y.remote != kNoIndex)
        return describe(y);
    x.remote = pb;
    y.remote = pa;
    x.link = y.link = LinkIndex(m_fabric.m_links.size());
    m_fabric.m_links.push_back(Link{pa, pb});
    return {};
}

NodeIndex FabricBuilder::nodeByName(const QString &name) const
{
    auto it = m_fabric.m_nodeByName.find(name);
    return it == m_fabric.m_nodeByName.end() ? kNoIndex : it->second;
}

NodeIndex FabricBuilder::nodeByGuid(Guid guid) const
{
    auto it = m_fabric.m_nodeByGuid.find(guid);
    return it == m_fabric.m_nodeByGuid.end() ? kNoIndex : it->second;
}

Result<Fabric> FabricBuilder::build(Culprit *culprit) &&
{
    Fabric &f = m_fabric;
    auto blame = [culprit](const Port &p) {
        if (culprit)
            *culprit = Culprit{p.node, p.number};
    };
    // Port GUIDs: a switch's ports all carry the switch GUID, so only port 0 is indexed for it.
    f.m_portByGuid.reserve(f.m_ports.size());
    for (std::size_t i = 0; i < f.m_ports.size(); ++i) {
        const Port &p = f.m_ports[i];
        if (!p.present)
            continue;
        const Node &n = f.m_nodes[std::size_t(p.node)];
        if (n.type == NodeType::Switch && p.number != 0)
            continue;
        auto [it, inserted] = f.m_portByGuid.emplace(p.guid, PortIndex(i));
        if (!inserted) {
            const Port &other = f.m_ports[std::size_t(it->second)];
            blame(p);
            return Error{{}, 0, QStringLiteral("duplicate port GUID %1 (\"%2\" port %3 and \"%4\" port %5)")
                                   .arg(guidText(p.guid), f.m_nodes[std::size_t(other.node)].name).arg(other.number)
                                   .arg(n.name).arg(p.number)};
        }
        // A CA port GUID may equal its own node GUID (ibsim and some HCAs do that), but not
        // another node's GUID.
        auto owner = f.m_nodeByGuid.find(p.guid);
        if (owner != f.m_nodeByGuid.end() && owner->second != p.node) {
            blame(p);
            return Error{{}, 0, QStringLiteral("port GUID %1 of \"%2\" is the node GUID of \"%3\"")
                                   .arg(guidText(p.guid), n.name, f.m_nodes[std::size_t(owner->second)].name)};
        }
    }

    f.m_switches.clear();
    f.m_endNodes.clear();
    Lid maxLid = 0;
    for (std::size_t i = 0; i < f.m_nodes.size(); ++i) {
        const Node &n = f.m_nodes[i];
        (n.type == NodeType::Switch ? f.m_switches : f.m_endNodes).push_back(NodeIndex(i));
        for (int p = 0; p <= n.portCount; ++p) {
            const Port &port = f.m_ports[std::size_t(n.firstPort + p)];
            if (port.lid != 0) {
                const int top = port.lid + (1 << port.lmc) - 1;
                if (top > kMaxUnicastLid) {
                    blame(port);
                    return Error{{}, 0, QStringLiteral("LID range %1-%2 of \"%3\" port %4 leaves the unicast range")
                                           .arg(port.lid).arg(top).arg(n.name).arg(p)};
                }
                maxLid = std::max<Lid>(maxLid, Lid(top));
            }
        }
    }
    f.m_maxLid = maxLid;
    // Roles not given are recognised from what the node says and where it hangs.
    for (NodeIndex n : f.m_endNodes)
        if (std::size_t(n) >= m_roleGiven.size() || !m_roleGiven[std::size_t(n)])
            f.m_nodes[std::size_t(n)].role = classifyNodeRole(f, n);
    f.m_portByLid.assign(std::size_t(maxLid) + 1, kNoIndex);
    for (std::size_t i = 0; i < f.m_ports.size(); ++i) {
        const Port &p = f.m_ports[i];
        if (p.lid == 0)
            continue;
        for (int l = p.lid; l < p.lid + (1 << p.lmc); ++l) {
            PortIndex &slot = f.m_portByLid[std::size_t(l)];
            if (slot != kNoIndex) {
                const Port &other = f.m_ports[std::size_t(slot)];
                blame(p);
                return Error{{}, 0, QStringLiteral("LID %1 is used twice (\"%2\" port %3 and \"%4\" port %5)")
                                       .arg(l).arg(f.m_nodes[std::size_t(other.node)].name).arg(other.number)
                                       .arg(f.m_nodes[std::size_t(p.node)].name).arg(p.number)};
            }
            slot = PortIndex(i);
        }
    }
    return std::move(m_fabric);
}

QString nodeRoleName(NodeRole role)
{
    switch (role) {
    case NodeRole::Compute: return QStringLiteral("compute");
    case NodeRole::Service: return QStringLiteral("service");
    case NodeRole::IO: return QStringLiteral("io");
    }
    return {};
}

std::optional<NodeRole> nodeRoleFromName(const QString &name)
{
    for (NodeRole r : {NodeRole::Compute, NodeRole::Service, NodeRole::IO})
        if (name.compare(nodeRoleName(r), Qt::CaseInsensitive) == 0)
            return r;
    return std::nullopt;
}

QString nodeTypeName(NodeType type)
{
    switch (type) {
    case NodeType::Switch: return QStringLiteral("Switch");
    case NodeType::ChannelAdapter: return QStringLiteral("Ca");
    case NodeType::Router: return QStringLiteral("Rt");
    }
    return {};
}

namespace {
struct SpeedName { LinkSpeed speed; const char *name; double gbps; };
constexpr SpeedName kSpeeds[] = {
    {LinkSpeed::SDR, "SDR", 2.5},     {LinkSpeed::DDR, "DDR", 5.0},
    {LinkSpeed::QDR, "QDR", 10.0},    {LinkSpeed::FDR10, "FDR10", 10.3125},
    {LinkSpeed::FDR, "FDR", 14.0625}, {LinkSpeed::EDR, "EDR", 25.78125},
    {LinkSpeed::HDR, "HDR", 53.125},  {LinkSpeed::NDR, "NDR", 106.25},
    {LinkSpeed::XDR, "XDR", 212.5},
};
}  // namespace

QString linkSpeedName(LinkSpeed speed)
{
    for (const auto &s : kSpeeds)
        if (s.speed == speed)
            return QLatin1String(s.name);
    return QStringLiteral("???");
}

LinkSpeed linkSpeedFromName(const QString &name)
{
    for (const auto &s : kSpeeds)
        if (name == QLatin1String(s.name))
            return s.speed;
    return LinkSpeed::Unknown;
}

double linkSpeedGbps(LinkSpeed speed)
{
    for (const auto &s : kSpeeds)
        if (s.speed == speed)
            return s.gbps;
    return 0.0;
}

double linkSignalledBits(int width, LinkSpeed speed, double seconds)
{
    return width > 0 ? double(width) * linkSpeedGbps(speed) * 1e9 * seconds : 0.0;
}

}  // namespace weft
