#pragma once
// The fabric: an immutable snapshot of nodes, ports and links in index-based arrays, cheap
// enough for 50,000 end ports. Built once by FabricBuilder (readers, the generator, discovery)
// and then only read; every later stage (tenancy, routing, metrics, diff) refers to it by index
// or GUID and never changes it.

#include "Identifiers.h"
#include "Result.h"

#include <QHash>
#include <QString>

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace weft {

using NodeIndex = std::int32_t;
using PortIndex = std::int32_t;
using LinkIndex = std::int32_t;
constexpr std::int32_t kNoIndex = -1;

struct QStringHash
{
    std::size_t operator()(const QString &s) const noexcept { return qHash(s); }
};
using Lid = std::uint16_t;
constexpr Lid kMaxUnicastLid = 0xBFFF;

enum class NodeType : std::uint8_t { Switch, ChannelAdapter, Router };

// What an end node is for (NodeRoles.h says how it is recognised). Levels, the fat-tree engines'
// leaves and the traffic models count compute nodes only; every engine still routes every LID.
//   Compute  a host that runs jobs (the default)
//   Service  switch-attached: a SHArP Aggregation Node, a switch's management CA
//   IO       storage, login, management hosts (OpenSM's io_guid_file)
enum class NodeRole : std::uint8_t { Compute, Service, IO };

// PortInfo:PortState, as the IBA numbers it.
enum class PortState : std::uint8_t { NoChange = 0, Down = 1, Init = 2, Armed = 3, Active = 4 };

// Active link speed per lane, in the order the IBA introduced them.
enum class LinkSpeed : std::uint8_t { Unknown, SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR, XDR };

struct Port
{
    NodeIndex node = kNoIndex;
    std::uint8_t number = 0;   // 0 is a switch's management port
    bool present = false;      // false for port slots a node does not have (CA port 0)
    // The widest and fastest the port supports and has enabled (PortInfo:LinkWidthSupported and
    // LinkWidthEnabled, LinkSpeedSupported and LinkSpeedEnabled with their extended and FDR10
    // fields). Known from live discovery only: 0 / Unknown otherwise. (Here, in the padding
    // before the GUID: a port stays 32 bytes.)
    std::uint8_t supportedWidth = 0;
    LinkSpeed supportedSpeed = LinkSpeed::Unknown;
    Guid guid = 0;
    Lid lid = 0;               // base LID; switches carry theirs on port 0
    std::uint8_t lmc = 0;
    PortState state = PortState::NoChange;
    std::uint8_t width = 0;    // active lanes: 1, 2, 4, 8 or 12; 0 unknown
    LinkSpeed speed = LinkSpeed::Unknown;
    // PortInfo:CapabilityMask IsSM: a subnet manager runs behind this port (master, standby or
    // not active; SMInfo tells which). Known from live discovery only: topology files lack it.
    bool subnetManager = false;
    PortIndex remote = kNoIndex;
    LinkIndex link = kNoIndex;
};

struct Node
{
    NodeType type = NodeType::ChannelAdapter;
    Guid guid = 0;
    Guid systemImageGuid = 0;
    std::uint32_t vendorId = 0;
    std::uint32_t deviceId = 0;
    QString name;         // the node id of a topology file: "S-0002c90200400a2c" or "Switch1"
    QString description;  // NodeDescription
    std::uint8_t portCount = 0;  // physical ports, numbered 1..portCount
    bool enhancedPort0 = false;
    NodeRole role = NodeRole::Compute;  // end nodes; a switch's is Compute and means nothing
    PortIndex firstPort = kNoIndex;  // ports of this node are firstPort + 0 .. firstPort + portCount
};

// Nodes a file groups together: a chassis of ibnetdiscover -g (a director's spines and line
// cards), kept as the file names it.
struct NodeGroup
{
    QString name;   // "Chassis 1"
    Guid guid = 0;  // the chassis GUID, 0 when the file gives none
    std::vector<NodeIndex> nodes;
};

// One cable, counted once. a and b are ordered as first seen by the builder.
struct Link
{
    PortIndex a = kNoIndex;
    PortIndex b = kNoIndex;
};

// The node id Weft gives a node found on a live subnet: "S-0002c90200400a2c" for a switch, "H-..."
// for a channel adapter, "R-..." for a router (ibnetdiscover's form, so topology files match).
QString liveNodeName(NodeType type, Guid guid);

class FabricBuilder;

class Fabric
{
public:
    const std::vector<Node> &nodes() const { return m_nodes; }
    const std::vector<Port> &ports() const { return m_ports; }
    const std::vector<Link> &links() const { return m_links; }

    const Node &node(NodeIndex i) const { return m_nodes[std::size_t(i)]; }
    const Port &port(PortIndex i) const { return m_ports[std::size_t(i)]; }

    // The slot of port `number` of `node`; kNoIndex past its port count.
    PortIndex portOf(NodeIndex node, int number) const;

    NodeIndex nodeByGuid(Guid nodeGuid) const;
    // Port GUIDs: a CA port's own GUID, or a switch's GUID for its port 0.
    PortIndex portByGuid(Guid portGuid) const;
    // The port a unicast LID addresses (LMC ranges included); kNoIndex if none.
    PortIndex portByLid(Lid lid) const;
    NodeIndex nodeByName(const QString &name) const;

    // The LID a node is addressed by: port 0 for a switch, the first LID-bearing port otherwise.
    Lid nodeLid(NodeIndex node) const;
    Lid maxLid() const { return m_maxLid; }

    const std::vector<NodeIndex> &switches() const { return m_switches; }
    // Channel adapters and routers: the end nodes that own LIDs besides switches.
    const std::vector<NodeIndex> &endNodes() const { return m_endNodes; }
    std::size_t channelAdapterCount() const;
    // End nodes whose role is Compute: what levels and the fat-tree engines count as hosts.
    // When none is, every end node (a fabric of service nodes alone still has levels).
    std::vector<NodeIndex> computeNodes() const;
    const std::vector<NodeGroup> &nodeGroups() const { return m_groups; }

private:
    friend class FabricBuilder;
    std::vector<Node> m_nodes;
    std::vector<Port> m_ports;
    std::vector<Link> m_links;
    std::vector<NodeIndex> m_switches;
    std::vector<NodeIndex> m_endNodes;
    std::vector<NodeGroup> m_groups;
    std::unordered_map<Guid, NodeIndex> m_nodeByGuid;
    std::unordered_map<Guid, PortIndex> m_portByGuid;
    std::unordered_map<QString, NodeIndex, QStringHash> m_nodeByName;
    std::vector<PortIndex> m_portByLid;
    Lid m_maxLid = 0;
};

// How Weft names a node to an operator: its NodeDescription, else its node id.
QString displayName(const Node &node);
// A port as messages name it: "leaf-3[17]" (the node's display name and the port number).
QString portDisplayName(const Fabric &fabric, PortIndex port);

// Assembles a Fabric and checks it as it goes. Every method returns an empty string on success
// or a plain message saying what is wrong (a reader adds its file and line); after a failure the
// builder may be discarded, nothing is half-built in a Fabric.
class FabricBuilder
{
public:
    struct NodeSpec
    {
        NodeType type = NodeType::ChannelAdapter;
        Guid guid = 0;
        int portCount = 0;
        QString name;
        QString description;
        Guid systemImageGuid = 0;
        std::uint32_t vendorId = 0;
        std::uint32_t deviceId = 0;
        bool enhancedPort0 = false;
        // Unset: recognised when the fabric is built (classifyNodeRole, NodeRoles.h).
        std::optional<NodeRole> role;
    };

    void reserve(std::size_t nodes, std::size_t ports);

    // Adds a node; its ports exist from then on with GUID = node GUID for a switch and
    // node GUID + number for a CA unless setPortGuid says otherwise.
    QString addNode(const NodeSpec &spec, NodeIndex *created = nullptr);

    QString setPortGuid(NodeIndex node, int number, Guid guid);
    QString setPortLid(NodeIndex node, int number, Lid lid, int lmc);
    QString setPortLink(NodeIndex node, int number, int width, LinkSpeed speed);
    QString setPortSupported(NodeIndex node, int number, int width, LinkSpeed speed);
    QString setPortState(NodeIndex node, int number, PortState state);
    QString setPortSubnetManager(NodeIndex node, int number, bool subnetManager);
    // Puts `node` in the group named `name` (made on first use; `guid` kept from the first
    // call that gives one).
    void addToGroup(const QString &name, Guid guid, NodeIndex node);

    // Joins two ports. Stating the same cable again from its other end is accepted; joining a
    // port that is already cabled elsewhere is an error.
    QString connect(NodeIndex a, int portA, NodeIndex b, int portB);

    NodeIndex nodeByName(const QString &name) const;
    NodeIndex nodeByGuid(Guid guid) const;
    const Node &node(NodeIndex i) const { return m_fabric.m_nodes[std::size_t(i)]; }
    const Port &port(NodeIndex node, int number) const
    {
        return m_fabric.m_ports[std::size_t(m_fabric.m_nodes[std::size_t(node)].firstPort + number)];
    }
    std::size_t nodeCount() const { return m_fabric.m_nodes.size(); }

    // Checks GUID and LID uniqueness across ports and indexes everything. On an error,
    // `culprit` (when given) receives the node and port number the message names last, so that
    // a reader can point at the line that stated it.
    struct Culprit
    {
        NodeIndex node = kNoIndex;
        int port = -1;
    };
    Result<Fabric> build(Culprit *culprit = nullptr) &&;

private:
    QString checkPort(NodeIndex node, int number, bool allowPort0) const;
    Fabric m_fabric;
    std::vector<bool> m_roleGiven;  // by node: the spec set its role
};

QString nodeTypeName(NodeType type);
QString nodeRoleName(NodeRole role);  // "compute", "service", "io"
std::optional<NodeRole> nodeRoleFromName(const QString &name);     // "Switch", "Ca", "Rt" as topology files spell them
QString linkSpeedName(LinkSpeed speed);  // "SDR", "QDR", "FDR10", ...
LinkSpeed linkSpeedFromName(const QString &name);  // Unknown if not a speed name
// Per-lane signalling rate in Gb/s, for weighing links of mixed speeds.
double linkSpeedGbps(LinkSpeed speed);
// The bits a link of `width` lanes at `speed` signals in `seconds` (the denominator of a raw bit
// error rate: symbol errors over it); 0 when width or speed is not known.
double linkSignalledBits(int width, LinkSpeed speed, double seconds);

}  // namespace weft
