#include "LiveFabric.h"

#include "DirectedRoutes.h"
#include "MadPort.h"
#include "SmpReader.h"
#include "TextReader.h"

#include <infiniband/ibnetdisc.h>
#include <infiniband/mad.h>
#include <infiniband/umad.h>

#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace weft {

namespace {

// PortInfo:CapabilityMask bit IsExtendedSpeedsSupported: LinkSpeedExtActive is meaningful.
constexpr std::uint32_t kCapExtendedSpeeds = 0x4000;
constexpr std::uint32_t kCapIsSm = 0x2;  // PortInfo:CapabilityMask IsSM

Error liveError(const QString &message)
{
    return Error{{}, 0, message};
}

// One libibmad port for SMPs, closed when it goes out of scope.
class MadPort
{
public:
    static Result<std::unique_ptr<MadPort>> open(const LiveOptions &options)
    {
        Result<MadPortHandle> port = openMadPort(options, {IB_SMI_CLASS, IB_SMI_DIRECT_CLASS});
        if (!port)
            return port.error();
        return std::unique_ptr<MadPort>(new MadPort(std::move(*port)));
    }

    // SubnGet(attribute, modifier); false when the node does not answer or answers with an error.
    bool get(ib_portid_t *destination, unsigned attribute, unsigned modifier, std::uint8_t *data) const
    {
        int status = 0;
        std::fill(data, data + IB_SMP_DATA_SIZE, std::uint8_t(0));
        return smp_query_status_via(data, destination, attribute, modifier, 0, &status, m_port.get()) && status == 0;
    }

    // SubnSet(attribute, modifier) with `data`; the answer (what the node now holds) replaces it.
    bool set(ib_portid_t *destination, unsigned attribute, unsigned modifier, std::uint8_t *data) const
    {
        int status = 0;
        return smp_set_status_via(data, destination, attribute, modifier, 0, &status, m_port.get()) && status == 0;
    }

private:
    explicit MadPort(MadPortHandle port) : m_port(std::move(port)) {}
    MadPortHandle m_port;
};

LinkSpeed speedFrom(std::uint32_t active, std::uint32_t extended, std::uint32_t fdr10)
{
    switch (extended) {
    case 1: return LinkSpeed::FDR;
    case 2: return LinkSpeed::EDR;
    case 4: return LinkSpeed::HDR;
    case 8: return LinkSpeed::NDR;
    case 16: return LinkSpeed::XDR;
    default: break;
    }
    if (fdr10 & 1)
        return LinkSpeed::FDR10;
    switch (active) {
    case 1: return LinkSpeed::SDR;
    case 2: return LinkSpeed::DDR;
    case 4: return LinkSpeed::QDR;
    default: return LinkSpeed::Unknown;
    }
}

int widthFrom(std::uint32_t active)
{
    switch (active) {
    case 1: return 1;
    case 2: return 4;
    case 4: return 8;
    case 8: return 12;
    case 16: return 2;
    default: return 0;
    }
}

// PortInfo:LinkWidthSupported, a mask of the widths widthFrom decodes: the widest.
int widestWidthOf(std::uint32_t supported)
{
    int widest = 0;
    for (std::uint32_t bit = 1; bit <= 16; bit <<= 1)
        if (supported & bit)
            widest = std::max(widest, widthFrom(bit));
    return widest;
}

// The supported-speed masks (LinkSpeedSupported, LinkSpeedExtSupported, the vendor's FDR10 bit):
// the fastest.
LinkSpeed fastestSpeedOf(std::uint32_t supported, std::uint32_t extended, std::uint32_t fdr10)
{
    LinkSpeed fastest = LinkSpeed::Unknown;
    for (std::uint32_t bit = 1; bit <= 16; bit <<= 1) {
        if (extended & bit)
            fastest = std::max(fastest, speedFrom(0, bit, 0));
        if (bit <= 4 && (supported & bit))
            fastest = std::max(fastest, speedFrom(bit, 0, 0));
    }
    if (fdr10 & 1)
        fastest = std::max(fastest, LinkSpeed::FDR10);
    return fastest;
}

NodeType nodeTypeFrom(int ibType)
{
    return ibType == IB_NODE_SWITCH ? NodeType::Switch : ibType == IB_NODE_ROUTER ? NodeType::Router : NodeType::ChannelAdapter;
}

// Turns libibnetdisc's graph into a Fabric. Builder messages name the node, for they come
// from what the fabric answered, not from a file.
Result<Fabric> buildFabric(ibnd_fabric_t *scanned, const LiveOptions &options)
{
    std::vector<ibnd_node_t *> nodes;
    for (ibnd_node_t *n = scanned->nodes; n; n = n->next)
        nodes.push_back(n);
    // Switches first, then by GUID: the order ibnetdiscover's output suggests, and stable
    // from one discovery to the next whatever order the scan found them in.
    std::sort(nodes.begin(), nodes.end(), [](const ibnd_node_t *a, const ibnd_node_t *b) {
        const bool sa = a->type == IB_NODE_SWITCH, sb = b->type == IB_NODE_SWITCH;
        return sa != sb ? sa : a->guid < b->guid;
    });

    FabricBuilder builder;
    std::size_t portSlots = 0;
    for (const ibnd_node_t *n : nodes)
        portSlots += std::size_t(n->numports) + 1;
    builder.reserve(nodes.size(), portSlots);
    const int total = int(nodes.size()) * 2;
    int done = 0;
    auto fail = [](const ibnd_node_t *n, const QString &message) {
        return liveError(QStringLiteral("node %1 (\"%2\"): %3").arg(guidText(n->guid)).arg(text::withoutControlCharacters(QString::fromUtf8(n->nodedesc)), message));
    };
    auto cancelled = [&]() { return options.progress && !options.progress(done, total); };

    std::unordered_map<const ibnd_node_t *, NodeIndex> indexOf;
    for (ibnd_node_t *n : nodes) {
        FabricBuilder::NodeSpec spec;
        spec.type = nodeTypeFrom(n->type);
        spec.guid = n->guid;
        spec.portCount = n->numports;
        spec.name = liveNodeName(spec.type, n->guid);
        // Any host can set its own description: cleaned here, at the model's boundary, so no file
        // Weft writes (topology, P_Key tables, journal) can be split by a newline in it.
        spec.description = text::withoutControlCharacters(QString::fromUtf8(n->nodedesc, qstrnlen(n->nodedesc, sizeof n->nodedesc)));
        spec.systemImageGuid = mad_get_field64(n->info, 0, IB_NODE_SYSTEM_GUID_F);
        spec.vendorId = mad_get_field(n->info, 0, IB_NODE_VENDORID_F);
        spec.deviceId = mad_get_field(n->info, 0, IB_NODE_DEVID_F);
        spec.enhancedPort0 = spec.type == NodeType::Switch && n->smaenhsp0;
        NodeIndex created = kNoIndex;
        if (QString m = builder.addNode(spec, &created); !m.isEmpty())
            return fail(n, m);
        indexOf[n] = created;

        const ibnd_port_t *port0 = n->ports ? n->ports[0] : nullptr;
        if (spec.type == NodeType::Switch) {
            if (port0 && port0->guid && port0->guid != n->guid)
                if (QString m = builder.setPortGuid(created, 0, port0->guid); !m.isEmpty())
                    return fail(n, m);
            if (QString m = builder.setPortLid(created, 0, Lid(n->smalid), n->smalmc); !m.isEmpty())
                return fail(n, m);
            if (QString m = builder.setPortState(created, 0, PortState::Active); !m.isEmpty())
                return fail(n, m);
        }
        // Extended speeds are reported only where the capability mask says so; a switch
        // answers for its external ports on port 0.
        const std::uint32_t capabilities = port0 ? mad_get_field(const_cast<std::uint8_t *>(port0->info), 0, IB_PORT_CAPMASK_F) : 0;
        // A managed switch may run the subnet manager itself, on its port 0.
        if (spec.type == NodeType::Switch && (capabilities & kCapIsSm))
            if (QString m = builder.setPortSubnetManager(created, 0, true); !m.isEmpty())
                return fail(n, m);
        for (int p = 1; p <= n->numports && n->ports; ++p) {
            const ibnd_port_t *port = n->ports[p];
            if (!port)
                continue;
            std::uint8_t *info = const_cast<std::uint8_t *>(port->info);
            if (spec.type != NodeType::Switch) {
                if (port->guid)
                    if (QString m = builder.setPortGuid(created, p, port->guid); !m.isEmpty())
                        return fail(n, m);
                if (port->base_lid)
                    if (QString m = builder.setPortLid(created, p, port->base_lid, port->lmc); !m.isEmpty())
                        return fail(n, m);
            }
            const std::uint32_t state = mad_get_field(info, 0, IB_PORT_STATE_F);
            if (state >= 1 && state <= 4)
                if (QString m = builder.setPortState(created, p, PortState(state)); !m.isEmpty())
                    return fail(n, m);
            const std::uint32_t ownCaps = spec.type == NodeType::Switch ? capabilities : mad_get_field(info, 0, IB_PORT_CAPMASK_F);
            if (spec.type != NodeType::Switch && (ownCaps & kCapIsSm))
                if (QString m = builder.setPortSubnetManager(created, p, true); !m.isEmpty())
                    return fail(n, m);
            const std::uint32_t extended = (ownCaps & kCapExtendedSpeeds) ? mad_get_field(info, 0, IB_PORT_LINK_SPEED_EXT_ACTIVE_F) : 0;
            const std::uint32_t fdr10 = mad_get_field(const_cast<std::uint8_t *>(port->ext_info), 0, IB_MLNX_EXT_PORT_LINK_SPEED_ACTIVE_F);
            const int width = widthFrom(mad_get_field(info, 0, IB_PORT_LINK_WIDTH_ACTIVE_F));
            if (port->remoteport && width > 0) {
                const LinkSpeed speed = speedFrom(mad_get_field(info, 0, IB_PORT_LINK_SPEED_ACTIVE_F), extended, fdr10);
                if (QString m = builder.setPortLink(created, p, width, speed); !m.isEmpty())
                    return fail(n, m);
                // What the port can run at: supported and enabled (an operator may have limited it).
                const auto both = [info](MAD_FIELDS supported, MAD_FIELDS enabled) {
                    return mad_get_field(info, 0, supported) & mad_get_field(info, 0, enabled);
                };
                auto *ext = const_cast<std::uint8_t *>(port->ext_info);
                const std::uint32_t extendedCan = (ownCaps & kCapExtendedSpeeds)
                    ? both(IB_PORT_LINK_SPEED_EXT_SUPPORTED_F, IB_PORT_LINK_SPEED_EXT_ENABLED_F)
                    : 0;
                const std::uint32_t fdr10Can = mad_get_field(ext, 0, IB_MLNX_EXT_PORT_LINK_SPEED_SUPPORTED_F)
                    & mad_get_field(ext, 0, IB_MLNX_EXT_PORT_LINK_SPEED_ENABLED_F);
                if (QString m = builder.setPortSupported(created, p, widestWidthOf(both(IB_PORT_LINK_WIDTH_SUPPORTED_F, IB_PORT_LINK_WIDTH_ENABLED_F)),
                                                         fastestSpeedOf(both(IB_PORT_LINK_SPEED_SUPPORTED_F, IB_PORT_LINK_SPEED_ENABLED_F),
                                                                        extendedCan, fdr10Can));
                    !m.isEmpty())
                    return fail(n, m);
            }
        }
        ++done;
        if (cancelled())
            return liveError(QStringLiteral("discovery cancelled"));
    }

    for (ibnd_node_t *n : nodes) {
        for (int p = 1; p <= n->numports && n->ports; ++p) {
            const ibnd_port_t *port = n->ports[p];
            if (!port || !port->remoteport || !port->remoteport->node)
                continue;
            const auto remote = indexOf.find(port->remoteport->node);
            if (remote == indexOf.end())
                continue;
            if (QString m = builder.connect(indexOf[n], p, remote->second, port->remoteport->portnum); !m.isEmpty())
                return fail(n, m);
        }
        ++done;
        if (cancelled())
            return liveError(QStringLiteral("discovery cancelled"));
    }
    return std::move(builder).build();
}

// The local node and port, asked of the local SMA itself (a directed route of no hops).
struct LocalEnd
{
    Guid nodeGuid = 0;
    int port = 0;
};

Result<LocalEnd> localEnd(const MadPort &mad, const LiveOptions &options)
{
    ib_portid_t self{};
    std::uint8_t data[IB_SMP_DATA_SIZE];
    if (!mad.get(&self, IB_ATTR_NODE_INFO, 0, data))
        return liveError(QStringLiteral("the local port (%1) does not answer NodeInfo").arg(adapterText(options)));
    return LocalEnd{mad_get_field64(data, 0, IB_NODE_GUID_F), int(mad_get_field(data, 0, IB_NODE_LOCAL_PORT_F))};
}

struct Session
{
    std::unique_ptr<MadPort> mad;
    std::unique_ptr<DirectedRoutes> routes;
    LocalEnd local;
};

Result<Session> openSession(const Fabric &fabric, const LiveOptions &options)
{
    Result<std::unique_ptr<MadPort>> mad = MadPort::open(options);
    if (!mad)
        return mad.error();
    Result<LocalEnd> local = localEnd(**mad, options);
    if (!local)
        return local.error();
    Session session;
    session.mad = std::move(*mad);
    session.local = *local;
    session.routes = std::make_unique<DirectedRoutes>(fabric, local->nodeGuid, local->port);
    session.routes->setLocalPort(local->port);
    return session;
}

QString describeNode(const Fabric &fabric, NodeIndex node)
{
    const Node &n = fabric.node(node);
    return QStringLiteral("\"%1\" (%2)").arg(n.description).arg(guidText(n.guid));
}

}  // namespace

Result<std::vector<LocalAdapter>> listLocalAdapters()
{
    std::lock_guard<std::recursive_mutex> lock(umadMutex());
    Result<QStringList> names = adapterNames();
    if (!names)
        return names.error();
    std::vector<LocalAdapter> adapters;
    for (const QString &name : *names) {
        LocalAdapter adapter;
        adapter.name = name;
        umad_ca_t ca{};
        QByteArray caName = name.toLocal8Bit();
        if (umad_get_ca(caName.data(), &ca) == 0) {
            for (int p = 0; p < UMAD_CA_MAX_PORTS; ++p)
                if (const umad_port_t *port = ca.ports[p])
                    adapter.ports.push_back({port->portnum, port->state == 4, Lid(port->base_lid)});
            umad_release_ca(&ca);
        }
        std::sort(adapter.ports.begin(), adapter.ports.end(),
                  [](const LocalAdapterPort &a, const LocalAdapterPort &b) { return a.number < b.number; });
        adapters.push_back(std::move(adapter));
    }
    return adapters;
}

Result<Fabric> discoverFabric(const LiveOptions &options)
{
    if (options.progress && !options.progress(0, 1))
        return liveError(QStringLiteral("discovery cancelled"));
    ibnd_fabric_t *scanned = nullptr;
    {
        // The check gives a plain reason; the scan opens and closes its own ports (under the
        // same lock, taken by MadPort.cpp's stand-ins for libibumad).
        std::lock_guard<std::recursive_mutex> lock(umadMutex());
        if (Status s = checkAdapter(options); !s)
            return s.error();
    }
    ibnd_config config{};
    config.timeout_ms = unsigned(std::max(1, options.timeoutMs));
    config.retries = unsigned(std::max(1, options.retries));
    config.max_smps = unsigned(std::max(1, options.maxSmpsInFlight));
    QByteArray ca = options.caName.toLocal8Bit();
    madrpc_show_errors(0);
    const UmadRefusalWatch refusals;
    scanned = ibnd_discover_fabric(ca.isEmpty() ? nullptr : ca.data(), options.caPort, nullptr, &config);
    if (!scanned) {
        // libibnetdisc gives no reason; a port it was refused is one that Weft can name.
        if (const QString cause = refusals.cause(options); !cause.isEmpty())
            return liveError(QStringLiteral("discovery through %1 failed: cannot open a MAD port: %2").arg(adapterText(options), cause));
        return liveError(QStringLiteral("discovery through %1 failed: the local port did not answer or the fabric timed out "
                                        "(is the port active and the subnet manager running?)").arg(adapterText(options)));
    }
    std::unique_ptr<ibnd_fabric_t, void (*)(ibnd_fabric_t *)> owned(scanned, ibnd_destroy_fabric);
    Result<Fabric> fabric = buildFabric(scanned, options);
    // With the local port's cable out (or its link down), libibnetdisc "finds" the local adapter
    // alone; that is no fabric, and taking it for one would leave a caller watching nothing.
    if (fabric && fabric->links().empty())
        return liveError(QStringLiteral("discovery through %1 found no link: the local port is down or its cable is out")
                             .arg(adapterText(options)));
    return fabric;
}

Result<ForwardingTables> readForwardingTables(const Fabric &fabric, const LiveOptions &options)
{
    SmpReadCounts counts;
    Result<SmpReadResult> read = readTablesPipelined(fabric, options, SmpReadWhat{true, false, false}, &counts);
    if (!read)
        return counts.cancelled ? liveError(QStringLiteral("reading forwarding tables cancelled")) : read.error();
    return std::move(read->lfts);
}

Result<LiveHeldTables> readHeldTables(const Fabric &fabric, const LiveOptions &options)
{
    Result<SmpReadResult> read = readTablesPipelined(fabric, options, SmpReadWhat{true, true, false});
    if (!read)
        return read.error();
    return LiveHeldTables{std::move(read->lfts), std::move(read->pkeys)};
}

QString takeTableReadSummary()
{
    const SmpReadCounts counts = takeSmpReadCounts();
    return counts.mads.sent ? counts.summary() : QString();
}

Status writeForwardingTableEntry(const Fabric &fabric, Guid switchGuid, Lid lid, std::uint8_t port,
                                 const LiveOptions &options, std::uint8_t *previousPort)
{
    const NodeIndex sw = fabric.nodeByGuid(switchGuid);
    if (sw == kNoIndex || fabric.node(sw).type != NodeType::Switch)
        return liveError(QStringLiteral("%1 is not a switch of the fabric").arg(guidText(switchGuid)));
    if (lid == 0 || lid >= 0xc000)
        return liveError(QStringLiteral("LID %1 is not a unicast LID").arg(lid));
    if (port > fabric.node(sw).portCount && port != kNoRoute)
        return liveError(QStringLiteral("switch %1 has no port %2").arg(describeNode(fabric, sw)).arg(port));
    Result<Session> session = openSession(fabric, options);
    if (!session)
        return session.error();
    ib_portid_t id{};
    if (!session->routes->addressOfNode(sw, &id))
        return liveError(QStringLiteral("switch %1 has neither a directed route nor a LID").arg(describeNode(fabric, sw)));
    const unsigned block = unsigned(lid / kLftBlockSize);
    std::uint8_t data[IB_SMP_DATA_SIZE];
    if (!session->mad->get(&id, IB_ATTR_LINEARFORWTBL, block, data))
        return liveError(QStringLiteral("switch %1 does not answer LinearForwardingTable block %2").arg(describeNode(fabric, sw)).arg(block));
    if (previousPort)
        *previousPort = data[lid % kLftBlockSize];
    data[lid % kLftBlockSize] = port;
    if (!session->mad->set(&id, IB_ATTR_LINEARFORWTBL, block, data))
        return liveError(QStringLiteral("switch %1 refused LinearForwardingTable block %2").arg(describeNode(fabric, sw)).arg(block));
    if (data[lid % kLftBlockSize] != port)
        return liveError(QStringLiteral("switch %1 answered the write of LID %2 with port %3").arg(describeNode(fabric, sw)).arg(lid).arg(data[lid % kLftBlockSize]));
    return Done{};
}

Status writeTables(const Fabric &fabric, const ForwardingTables &tables, const ForwardingTables &heldTables,
                   const PKeyTables &pkeys, const PKeyTables &heldPKeys, const LiveOptions &options)
{
    Result<Session> session = openSession(fabric, options);
    if (!session)
        return session.error();
    const MadPort &mad = *session->mad;
    std::uint8_t data[IB_SMP_DATA_SIZE];
    for (const SwitchForwardingTable &table : tables.switches()) {
        const NodeIndex sw = fabric.nodeByGuid(table.guid);
        if (sw == kNoIndex)
            continue;
        ib_portid_t id{};
        if (!session->routes->addressOfNode(sw, &id))
            return liveError(QStringLiteral("switch %1 has neither a directed route nor a LID").arg(describeNode(fabric, sw)));
        const SwitchForwardingTable *held = heldTables.find(table.guid);
        const LinearForwardingTable empty;
        const LinearForwardingTable &before = held ? held->lft : empty;
        const Lid top = std::max(table.lft.top(), before.top());
        for (int block = 0; top > 0 && block <= top / kLftBlockSize; ++block) {
            if (blockEquals(table.lft, before, block))
                continue;
            for (int i = 0; i < kLftBlockSize; ++i)
                data[i] = table.lft.port(Lid(block * kLftBlockSize + i));
            if (!mad.set(&id, IB_ATTR_LINEARFORWTBL, unsigned(block), data))
                return liveError(QStringLiteral("switch %1 refused LinearForwardingTable block %2").arg(describeNode(fabric, sw)).arg(block));
        }
    }
    for (const PortPKeyTable &table : pkeys.ports()) {
        const Port &port = fabric.port(table.port);
        const bool onSwitch = fabric.node(port.node).type == NodeType::Switch;
        const QString where = QStringLiteral("%1 port %2").arg(describeNode(fabric, port.node)).arg(port.number);
        ib_portid_t id{};
        if (!session->routes->addressOfPort(table.port, &id))
            return liveError(QStringLiteral("%1 has neither a directed route nor a LID").arg(where));
        const PortPKeyTable *held = heldPKeys.find(table.port);
        for (int block = 0; block < table.blockCount(); ++block) {
            const auto first = table.entries.begin() + block * kPKeyBlockSize;
            const bool same = held && held->blockCount() > block
                              && std::equal(first, first + kPKeyBlockSize, held->entries.begin() + block * kPKeyBlockSize);
            if (same)
                continue;
            std::fill(data, data + IB_SMP_DATA_SIZE, std::uint8_t(0));
            for (int i = 0; i < kPKeyBlockSize; ++i) {
                data[2 * i] = std::uint8_t(first[i] >> 8);
                data[2 * i + 1] = std::uint8_t(first[i] & 0xff);
            }
            const unsigned modifier = unsigned(block) | (onSwitch ? unsigned(port.number) << 16 : 0u);
            if (!mad.set(&id, IB_ATTR_PKEY_TBL, modifier, data))
                return liveError(QStringLiteral("%1 refused P_Key table block %2").arg(where).arg(block));
        }
    }
    return Done{};
}

Result<PKeyTables> readPKeyTables(const Fabric &fabric, const LiveOptions &options)
{
    SmpReadCounts counts;
    Result<SmpReadResult> read = readTablesPipelined(fabric, options, SmpReadWhat{false, true, false}, &counts);
    if (!read)
        return counts.cancelled ? liveError(QStringLiteral("reading P_Key tables cancelled")) : read.error();
    return std::move(read->pkeys);
}

Result<Guid> findMasterSmPort(const Fabric &fabric, const LiveOptions &options)
{
    Result<Session> session = openSession(fabric, options);
    if (!session)
        return session.error();
    const MadPort &mad = *session->mad;
    ib_portid_t self{};
    std::uint8_t data[IB_SMP_DATA_SIZE];
    if (!mad.get(&self, IB_ATTR_PORT_INFO, unsigned(session->local.port), data))
        return liveError(QStringLiteral("the local port (%1) does not answer PortInfo").arg(adapterText(options)));
    const Lid smLid = Lid(mad_get_field(data, 0, IB_PORT_SMLID_F));
    if (smLid == 0)
        return liveError(QStringLiteral("the local port (%1) knows no master subnet manager (MasterSMLID is 0): is OpenSM running?")
                             .arg(adapterText(options)));
    // The SM itself says which port it is; an SMA-only stack may leave SMInfo unanswered.
    ib_portid_t sm{};
    ib_portid_set(&sm, smLid, 0, 0);
    if (mad.get(&sm, IB_ATTR_SMINFO, 0, data)) {
        const Guid guid = mad_get_field64(data, 0, IB_SMINFO_GUID_F);
        if (guid && fabric.portByGuid(guid) != kNoIndex)
            return guid;
    }
    const PortIndex port = fabric.portByLid(smLid);
    if (port == kNoIndex)
        return liveError(QStringLiteral("the master subnet manager's LID %1 is no port of the fabric").arg(smLid));
    const Port &p = fabric.port(port);
    return p.guid ? p.guid : fabric.node(p.node).guid;
}

Result<std::vector<SubnetManagerInfo>> readSubnetManagers(const Fabric &fabric, const LiveOptions &options)
{
    Result<Session> session = openSession(fabric, options);
    if (!session)
        return session.error();
    const MadPort &mad = *session->mad;
    std::vector<SubnetManagerInfo> found;
    std::uint8_t data[IB_SMP_DATA_SIZE];
    for (PortIndex p = 0; p < PortIndex(fabric.ports().size()); ++p) {
        const Port &port = fabric.port(p);
        if (!port.present || !port.subnetManager)
            continue;
        SubnetManagerInfo info;
        info.portGuid = port.guid ? port.guid : fabric.node(port.node).guid;
        info.lid = port.lid;
        info.nodeDescription = fabric.node(port.node).description;
        ib_portid_t id{};
        if (session->routes->addressOfPort(p, &id) && mad.get(&id, IB_ATTR_SMINFO, 0, data)) {
            info.answered = true;
            if (const Guid said = mad_get_field64(data, 0, IB_SMINFO_GUID_F))
                info.portGuid = said;
            info.priority = int(mad_get_field(data, 0, IB_SMINFO_PRIO_F));
            info.state = int(mad_get_field(data, 0, IB_SMINFO_STATE_F));
            info.activity = mad_get_field(data, 0, IB_SMINFO_ACT_F);
        }
        found.push_back(std::move(info));
    }
    return found;
}

Result<std::vector<PortSlToVl>> readSlToVlTables(const Fabric &fabric, const LiveOptions &options)
{
    Result<SmpReadResult> read = readTablesPipelined(fabric, options, SmpReadWhat{false, false, true});
    if (!read)
        return read.error();
    return std::move(read->slToVl);
}

Result<int> queryPathServiceLevel(Lid source, Lid destination, std::uint16_t pkey, const LiveOptions &options)
{
    // ib_resolve_smlid_via asks the local PortInfo by directed route: both SMP classes.
    Result<MadPortHandle> owned = openMadPort(options, {IB_SMI_CLASS, IB_SMI_DIRECT_CLASS, IB_SA_CLASS});
    if (!owned)
        return owned.error();
    ibmad_port *port = owned->get();
    ib_portid_t sm{};
    if (ib_resolve_smlid_via(&sm, std::max(1, options.timeoutMs), port) < 0)
        return liveError(QStringLiteral("the local port knows no subnet manager (MasterSMLID)"));
    // PathRecord: DLID at byte 40, SLID at 42, P_Key at 50 (IBA 15.2.5.16); component mask
    // bits DLID 4, SLID 5, P_Key 13.
    std::uint8_t data[IB_SA_DATA_SIZE] = {};
    mad_set_field(data, 0, IB_SA_PR_DLID_F, destination);
    mad_set_field(data, 0, IB_SA_PR_SLID_F, source);
    data[50] = std::uint8_t(pkey >> 8);
    data[51] = std::uint8_t(pkey);
    ib_sa_call_t call{};
    call.attrid = IB_SA_ATTR_PATHRECORD;
    call.method = IB_MAD_METHOD_GET;
    call.mask = (1u << 4) | (1u << 5) | (1u << 13);
    if (!sa_rpc_call(port, data, &sm, &call, unsigned(std::max(1, options.timeoutMs) * 5)))
        return liveError(QStringLiteral("the SA (LID %1) gave no PathRecord from LID %2 to LID %3 in P_Key %4")
                             .arg(sm.lid).arg(source).arg(destination).arg(pkeyText(pkey)));
    return int(mad_get_field(data, 0, IB_SA_PR_SL_F));
}

}  // namespace weft
