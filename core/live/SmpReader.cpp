#include "SmpReader.h"

#include "DirectedRoutes.h"
#include "MadPort.h"

#include <infiniband/mad.h>
#include <infiniband/umad.h>

#include <QElapsedTimer>

#include <algorithm>
#include <array>
#include <cstring>
#include <random>

namespace weft {

namespace {

constexpr int kPerNode = 4;      // SMPs outstanding at one node at most, as OpenSM's max_wire_smps
constexpr int kMaxReported = 12;  // nodes named in a refusal
// An SMP unanswered this long (and 8 round trips) no longer holds the window: see GmpPipeline.h.
constexpr int kOverdueAfterMs = 10;

Error readError(const QString &message)
{
    return Error{{}, 0, message};
}

QString nodeText(const Fabric &fabric, NodeIndex node)
{
    const Node &n = fabric.node(node);
    const Lid lid = n.type == NodeType::Switch ? fabric.nodeLid(node) : 0;
    QString text = QStringLiteral("%1 \"%2\" (%3").arg(n.type == NodeType::Switch ? QStringLiteral("switch") : QStringLiteral("node"), n.description, guidText(n.guid));
    if (lid)
        text += QStringLiteral(", LID %1").arg(lid);
    return text + QLatin1Char(')');
}

// A GmpRequest carries an SMP here: `lid` its LID route (0: by directed route), and in `data`
// (which a SubnGet sends as zeros anyway) the attribute modifier and the directed route's index.
GmpRequest smpRequest(Lid lid, unsigned attribute, unsigned modifier, int route)
{
    GmpRequest request;
    request.lid = lid;
    request.attribute = std::uint16_t(attribute);
    request.method = IB_MAD_METHOD_GET;
    const std::uint32_t m = modifier, r = std::uint32_t(route);
    std::memcpy(request.data.data(), &m, sizeof m);
    std::memcpy(request.data.data() + 4, &r, sizeof r);
    return request;
}

// The pipeline's transport for SMPs: libibumad's calls on one MAD port registered for both SMP
// classes; directed routes come from the reader's table.
class SmpTransport final : public GmpTransport
{
public:
    SmpTransport(MadPortHandle port, const std::vector<ib_portid_t> &routes, double dropShare)
        : m_port(std::move(port)), m_fd(mad_rpc_portid(m_port.get())),
          m_lidAgent(mad_rpc_class_agent(m_port.get(), IB_SMI_CLASS)),
          m_directedAgent(mad_rpc_class_agent(m_port.get(), IB_SMI_DIRECT_CLASS)), m_routes(routes),
          m_dropShare(dropShare), m_random(std::random_device{}()),
          m_sendBuffer(umad_size() + IB_MAD_SIZE), m_receiveBuffer(umad_size() + IB_MAD_SIZE) {}

    bool send(const GmpRequest &request, std::uint32_t tid, int timeoutMs) override
    {
        std::uint32_t modifier = 0, route = 0;
        std::memcpy(&modifier, request.data.data(), sizeof modifier);
        std::memcpy(&route, request.data.data() + 4, sizeof route);
        if (m_dropShare > 0 && std::uniform_real_distribution<double>(0, 1)(m_random) < m_dropShare)
            return true;  // lost on the way: the pipeline's deadline finds it
        std::fill(m_sendBuffer.begin(), m_sendBuffer.end(), std::uint8_t(0));
        const bool directed = request.lid == 0;
        ib_rpc_t rpc{};
        rpc.mgtclass = directed ? IB_SMI_DIRECT_CLASS : IB_SMI_CLASS;
        rpc.method = request.method;
        rpc.attr.id = request.attribute;
        rpc.attr.mod = modifier;
        rpc.timeout = unsigned(timeoutMs);
        rpc.datasz = IB_SMP_DATA_SIZE;
        rpc.dataoffs = IB_SMP_DATA_OFFS;
        rpc.trid = tid;
        ib_portid_t id{};
        if (directed) {
            if (route >= m_routes.size())
                return false;
            id = m_routes[route];
        } else {
            ib_portid_set(&id, request.lid, 0, 0);
        }
        std::array<std::uint8_t, IB_SMP_DATA_SIZE> data{};
        if (mad_build_pkt(m_sendBuffer.data(), &rpc, &id, nullptr, data.data()) < 0)
            return false;
        // No retries in the kernel: the pipeline resends, with a new transaction ID.
        return umad_send(m_fd, directed ? m_directedAgent : m_lidAgent, m_sendBuffer.data(), IB_MAD_SIZE, timeoutMs, 0) == 0;
    }

    GmpEvent wait(int waitMs) override
    {
        return receiveGmpEvent(m_fd, m_receiveBuffer, waitMs, IB_SMP_DATA_OFFS, IB_SMP_DATA_SIZE);
    }

    std::uint32_t nextTid() override { return std::uint32_t(mad_trid()); }

private:
    MadPortHandle m_port;
    int m_fd;
    int m_lidAgent;
    int m_directedAgent;
    const std::vector<ib_portid_t> &m_routes;
    double m_dropShare;
    std::mt19937 m_random;
    std::vector<std::uint8_t> m_sendBuffer;
    std::vector<std::uint8_t> m_receiveBuffer;
};

enum class Kind : std::uint8_t { SwitchInfo, NodeInfo, Lft, PKey, SlToVl };

QString kindText(Kind kind, unsigned modifier)
{
    switch (kind) {
    case Kind::SwitchInfo: return QStringLiteral("SwitchInfo");
    case Kind::NodeInfo: return QStringLiteral("NodeInfo");
    case Kind::Lft: return QStringLiteral("LinearForwardingTable block %1").arg(modifier);
    case Kind::PKey:
        return (modifier >> 16) ? QStringLiteral("P_Key table block %1 of port %2").arg(modifier & 0xffff).arg(modifier >> 16)
                                : QStringLiteral("P_Key table block %1").arg(modifier & 0xffff);
    case Kind::SlToVl: return QStringLiteral("SLtoVLMappingTable (in port %1, out port %2)").arg((modifier >> 8) & 0xff).arg(modifier & 0xff);
    }
    return {};
}

thread_local SmpReadCounts t_counts;

// One read: its asks, the tables they fill and the nodes that did not answer.
class Read
{
public:
    Read(const Fabric &fabric, const LiveOptions &options, SmpReadWhat what) : m_fabric(fabric), m_options(options), m_what(what) {}

    Result<SmpReadResult> run(SmpReadCounts &counts);

private:
    struct Ask
    {
        Kind kind;
        NodeIndex node;
        std::size_t slot;  // the table (LFT: switch; P_Key and SL2VL: its slot), or the node for info
        unsigned modifier;
        Lid lid;           // the LID route, 0: none
        int route;         // the directed route's index, -1: none
        bool directed = false;
        std::size_t table;  // for progress: the table it belongs to (kNoTable: the node's info)
    };
    static constexpr std::size_t kNoTable = std::size_t(-1);

    struct SwitchRead
    {
        NodeIndex node = kNoIndex;
        Lid top = 0;
        std::vector<std::uint8_t> ports;
    };
    struct PKeyRead
    {
        PortIndex port = kNoIndex;
        int capacity = -1;
        std::vector<std::uint16_t> entries;
    };
    struct NodeCaps
    {
        int partitionCap = -1;
        int enforceCap = -1;  // switches
        Lid top = 0;
        bool switchInfo = false;
        std::vector<std::size_t> pkeySlots;  // its ports' P_Key tables, read once the caps are in
    };
    struct Silence
    {
        NodeIndex node;
        QString what;  // the SMP it did not answer
        bool refused = false;  // answered with a MAD status
        int status = 0;
        QString routes;  // how it was tried
        std::size_t unread = 0;  // requests it still had queued, not sent
    };

    int routeOf(NodeIndex node, PortIndex port);
    void ask(Kind kind, NodeIndex node, std::size_t slot, unsigned modifier, Lid lid, int route, std::size_t table);
    void answered(std::uint64_t tag, const GmpEvent &answer);
    void failed(std::uint64_t tag, int status);
    void tableStep(std::size_t table);
    void submitPKeyBlocks(NodeIndex node);

    const Fabric &m_fabric;
    const LiveOptions &m_options;
    SmpReadWhat m_what;
    std::unique_ptr<DirectedRoutes> m_routes;
    std::vector<ib_portid_t> m_routeTable;
    std::vector<int> m_routeOfNode, m_routeOfPort;
    GmpPipeline *m_pipeline = nullptr;
    std::vector<Ask> m_asks;
    std::vector<SwitchRead> m_switches;
    std::vector<std::size_t> m_switchSlot;  // node -> slot in m_switches
    std::vector<PKeyRead> m_pkeys;
    std::vector<PortSlToVl> m_slToVl;
    std::vector<NodeCaps> m_caps;
    std::vector<int> m_tableRemaining;
    std::vector<char> m_silent;  // per node
    std::vector<Silence> m_silences;
    int m_tablesDone = 0;
    bool m_cancelled = false;
    SmpReadCounts *m_counts = nullptr;
};

int Read::routeOf(NodeIndex node, PortIndex port)
{
    const bool onSwitch = m_fabric.node(node).type == NodeType::Switch;
    int &cached = onSwitch ? m_routeOfNode[std::size_t(node)] : m_routeOfPort[std::size_t(port)];
    if (cached != -2)
        return cached;
    ib_portid_t id{};
    const bool found = onSwitch ? m_routes->addressOfNode(node, &id) : m_routes->addressOfPort(port, &id);
    if (!found || id.lid != 0) {
        cached = -1;  // no directed route (the LID route is all there is)
    } else {
        cached = int(m_routeTable.size());
        m_routeTable.push_back(id);
    }
    return cached;
}

void Read::ask(Kind kind, NodeIndex node, std::size_t slot, unsigned modifier, Lid lid, int route, std::size_t table)
{
    Ask a{kind, node, slot, modifier, lid, route, false, table};
    // By LID where there is one; by directed route where there is none, and always to the local
    // node (no hops: a LID route to oneself is a loopback some stacks do not take).
    if (route >= 0 && (lid == 0 || m_routeTable[std::size_t(route)].drpath.cnt == 0))
        a.directed = true;
    if (table != kNoTable)
        ++m_tableRemaining[table];
    const std::size_t tag = m_asks.size();
    m_asks.push_back(a);
    m_pipeline->submit(int(node), smpRequest(a.directed ? 0 : lid, unsigned([&] {
                                                 switch (kind) {
                                                 case Kind::SwitchInfo: return IB_ATTR_SWITCH_INFO;
                                                 case Kind::NodeInfo: return IB_ATTR_NODE_INFO;
                                                 case Kind::Lft: return IB_ATTR_LINEARFORWTBL;
                                                 case Kind::PKey: return IB_ATTR_PKEY_TBL;
                                                 case Kind::SlToVl: return IB_ATTR_SLVL_TABLE;
                                                 }
                                                 return IB_ATTR_NODE_INFO;
                                             }()),
                                             modifier, route),
                       tag);
}

void Read::tableStep(std::size_t table)
{
    if (table == kNoTable)
        return;
    if (--m_tableRemaining[table] == 0) {
        ++m_tablesDone;
        if (m_options.progress && !m_cancelled && !m_options.progress(m_tablesDone, int(m_tableRemaining.size())))
            m_cancelled = true;
    }
}

void Read::submitPKeyBlocks(NodeIndex node)
{
    NodeCaps &caps = m_caps[std::size_t(node)];
    const bool onSwitch = m_fabric.node(node).type == NodeType::Switch;
    if (caps.partitionCap < 0 || (onSwitch && caps.enforceCap < 0))
        return;
    for (std::size_t slot : caps.pkeySlots) {
        PKeyRead &read = m_pkeys[slot];
        const Port &port = m_fabric.port(read.port);
        const bool external = onSwitch && port.number != 0;
        read.capacity = external ? caps.enforceCap : caps.partitionCap;
        const int blocks = (read.capacity + kPKeyBlockSize - 1) / kPKeyBlockSize;
        read.entries.assign(std::size_t(blocks) * kPKeyBlockSize, 0);
        const std::size_t table = m_switches.size() + slot;
        const Lid lid = onSwitch ? m_fabric.nodeLid(node) : port.lid;
        const int route = routeOf(node, read.port);
        for (int block = 0; block < blocks; ++block)
            ask(Kind::PKey, node, slot, unsigned(block) | (onSwitch ? unsigned(port.number) << 16 : 0u), lid, route, table);
        if (m_counts)
            m_counts->pkeyBlocks += std::size_t(blocks);
        tableStep(table);  // the hold taken when the table was listed
    }
    caps.pkeySlots.clear();
}

void Read::answered(std::uint64_t tag, const GmpEvent &answer)
{
    if (answer.madStatus != 0) {
        failed(tag, answer.madStatus);
        return;
    }
    const Ask a = m_asks[std::size_t(tag)];
    if (m_silent[std::size_t(a.node)])
        return;  // the read refuses anyway: nothing more is asked of it
    auto *data = const_cast<std::uint8_t *>(answer.data.data());
    switch (a.kind) {
    case Kind::SwitchInfo: {
        NodeCaps &caps = m_caps[std::size_t(a.node)];
        caps.switchInfo = true;
        caps.top = Lid(mad_get_field(data, 0, IB_SW_LINEAR_FDB_TOP_F));
        caps.enforceCap = int(mad_get_field(data, 0, IB_SW_PARTITION_ENFORCE_CAP_F));
        if (m_what.lfts) {
            const std::size_t slot = m_switchSlot[std::size_t(a.node)];
            SwitchRead &sw = m_switches[slot];
            sw.top = caps.top;
            sw.ports.assign(std::size_t(sw.top) + 1, std::uint8_t(kNoRoute));
            const int blocks = sw.top > 0 ? sw.top / kLftBlockSize + 1 : 0;
            for (int block = 0; block < blocks; ++block)
                ask(Kind::Lft, a.node, slot, unsigned(block), a.lid, a.route, slot);
            if (m_counts)
                m_counts->lftBlocks += std::size_t(blocks);
        }
        if (m_what.pkeys)
            submitPKeyBlocks(a.node);
        break;
    }
    case Kind::NodeInfo:
        m_caps[std::size_t(a.node)].partitionCap = int(mad_get_field(data, 0, IB_NODE_PARTITION_CAP_F));
        submitPKeyBlocks(a.node);
        break;
    case Kind::Lft: {
        SwitchRead &sw = m_switches[a.slot];
        for (int i = 0; i < kLftBlockSize; ++i) {
            const int lid = int(a.modifier) * kLftBlockSize + i;
            if (lid > 0 && lid <= sw.top)
                sw.ports[std::size_t(lid)] = data[i];
        }
        break;
    }
    case Kind::PKey: {
        PKeyRead &read = m_pkeys[a.slot];
        const int block = int(a.modifier & 0xffff);
        for (int i = 0; i < kPKeyBlockSize; ++i) {
            const int index = block * kPKeyBlockSize + i;
            if (index < read.capacity)
                read.entries[std::size_t(index)] = std::uint16_t((data[2 * i] << 8) | data[2 * i + 1]);
        }
        break;
    }
    case Kind::SlToVl: {
        PortSlToVl &t = m_slToVl[a.slot];
        for (int sl = 0; sl < kServiceLevels; ++sl)
            t.vls[std::size_t(sl)] = std::uint8_t(sl % 2 ? data[sl / 2] & 0xf : data[sl / 2] >> 4);
        break;
    }
    }
    tableStep(a.table);
}

void Read::failed(std::uint64_t tag, int status)
{
    Ask &a = m_asks[std::size_t(tag)];
    // Lost by LID through all its retries: once more by directed route, its retries anew.
    if (status == 0 && !a.directed && a.route >= 0 && !m_silent[std::size_t(a.node)]) {
        a.directed = true;
        if (m_counts)
            ++m_counts->byDirectedRoute;
        GmpRequest request = smpRequest(0, 0, a.modifier, a.route);
        switch (a.kind) {
        case Kind::SwitchInfo: request.attribute = IB_ATTR_SWITCH_INFO; break;
        case Kind::NodeInfo: request.attribute = IB_ATTR_NODE_INFO; break;
        case Kind::Lft: request.attribute = IB_ATTR_LINEARFORWTBL; break;
        case Kind::PKey: request.attribute = IB_ATTR_PKEY_TBL; break;
        case Kind::SlToVl: request.attribute = IB_ATTR_SLVL_TABLE; break;
        }
        m_pipeline->submit(int(a.node), request, tag);
        return;
    }
    if (!m_silent[std::size_t(a.node)]) {
        m_silent[std::size_t(a.node)] = 1;
        const int tries = m_options.retries + 1;
        const QString routes = !a.directed        ? QStringLiteral("%1 tries by LID").arg(tries)
                               : a.lid == 0 || a.route < 0 || m_routeTable[std::size_t(a.route)].drpath.cnt == 0
                                   ? QStringLiteral("%1 tries by directed route").arg(tries)
                                   : QStringLiteral("%1 tries by LID, then %1 by directed route").arg(tries);
        Silence s{a.node, kindText(a.kind, a.modifier), status != 0, status, routes, 0};
        // What it still had queued is not sent: the read refuses anyway, and a dead node would
        // only cost a timeout per request.
        s.unread = m_pipeline->dropQueued(int(a.node));
        m_silences.push_back(std::move(s));
    }
}

Result<SmpReadResult> Read::run(SmpReadCounts &counts)
{
    m_counts = &counts;
    QElapsedTimer clock;
    clock.start();
    Result<MadPortHandle> port = openMadPort(m_options, {IB_SMI_CLASS, IB_SMI_DIRECT_CLASS});
    if (!port)
        return port.error();
    // The local node and port, asked of the local SMA (a directed route of no hops), for the
    // directed routes.
    ib_portid_t self{};
    std::uint8_t data[IB_SMP_DATA_SIZE] = {};
    int status = 0;
    if (!smp_query_status_via(data, &self, IB_ATTR_NODE_INFO, 0, 0, &status, port->get()) || status != 0)
        return readError(QStringLiteral("the local port (%1) does not answer NodeInfo").arg(adapterText(m_options)));
    const Guid localGuid = mad_get_field64(data, 0, IB_NODE_GUID_F);
    const int localPort = int(mad_get_field(data, 0, IB_NODE_LOCAL_PORT_F));
    m_routes = std::make_unique<DirectedRoutes>(m_fabric, localGuid, localPort);
    m_routes->setLocalPort(localPort);
    m_routeOfNode.assign(m_fabric.nodes().size(), -2);
    m_routeOfPort.assign(m_fabric.ports().size(), -2);
    m_caps.assign(m_fabric.nodes().size(), {});
    m_silent.assign(m_fabric.nodes().size(), 0);
    m_switchSlot.assign(m_fabric.nodes().size(), 0);

    const std::vector<ib_portid_t> &routes = m_routeTable;
    m_routeTable.reserve(m_fabric.nodes().size() * 2);
    SmpTransport transport(std::move(*port), routes, smpDropShare());
    GmpPipelineOptions pipelineOptions;
    pipelineOptions.maxInFlight = std::max(1, m_options.maxTableSmpsInFlight);
    pipelineOptions.initialWindow = std::min(pipelineOptions.maxInFlight, 4);
    pipelineOptions.perDestination = kPerNode;
    pipelineOptions.timeoutMs = m_options.timeoutMs;
    pipelineOptions.retries = m_options.retries;
    pipelineOptions.overdueAfterMs = kOverdueAfterMs;
    pipelineOptions.regrowAfterLoss = true;
    GmpPipeline pipeline(transport, pipelineOptions, int(m_fabric.nodes().size()));
    m_pipeline = &pipeline;
    pipeline.onAnswer([this](std::uint64_t tag, const GmpEvent &answer) { answered(tag, answer); });
    pipeline.onFailure([this](std::uint64_t tag) { failed(tag, 0); });

    // The tables, listed first (their slots fix the order of the result): every switch's LFT,
    // the P_Key tables of the ports computePKeyTables models, the SL2VL tables of linked ports.
    if (m_what.lfts)
        for (NodeIndex s : m_fabric.switches()) {
            m_switchSlot[std::size_t(s)] = m_switches.size();
            m_switches.push_back(SwitchRead{s, 0, {}});
        }
    if (m_what.pkeys)
        for (PortIndex p = 0; p < PortIndex(m_fabric.ports().size()); ++p) {
            const Port &port = m_fabric.port(p);
            if (!port.present)
                continue;
            const bool onSwitch = m_fabric.node(port.node).type == NodeType::Switch;
            bool wanted = false;
            if (onSwitch && port.number == 0)
                wanted = true;
            else if (port.remote != kNoIndex)
                wanted = !onSwitch || m_fabric.node(m_fabric.port(port.remote).node).type != NodeType::Switch;
            if (!wanted)
                continue;
            m_caps[std::size_t(port.node)].pkeySlots.push_back(m_pkeys.size());
            m_pkeys.push_back(PKeyRead{p, -1, {}});
        }
    struct SlAsk
    {
        NodeIndex node;
        PortIndex port;
        unsigned modifier;
    };
    std::vector<SlAsk> slAsks;
    if (m_what.slToVl)
        for (PortIndex p = 0; p < PortIndex(m_fabric.ports().size()); ++p) {
            const Port &port = m_fabric.port(p);
            if (!port.present || port.remote == kNoIndex)
                continue;
            const Node &node = m_fabric.node(port.node);
            if (node.type != NodeType::Switch) {
                m_slToVl.push_back(PortSlToVl{p, 0, {}});
                slAsks.push_back({port.node, p, 0});
                continue;
            }
            for (int in = 1; in <= node.portCount; ++in) {
                const PortIndex ip = m_fabric.portOf(port.node, in);
                if (in == port.number || ip == kNoIndex || m_fabric.port(ip).remote == kNoIndex)
                    continue;
                PortSlToVl t;
                t.port = p;
                t.inPort = in;
                m_slToVl.push_back(t);
                slAsks.push_back({port.node, p, unsigned(in) << 8 | unsigned(port.number)});
            }
        }
    // Every table holds one step until its blocks are asked for.
    m_tableRemaining.assign(m_switches.size() + m_pkeys.size() + m_slToVl.size(), 1);
    counts.switches = m_switches.size();
    counts.pkeyTables = m_pkeys.size();
    counts.slToVlTables = m_slToVl.size();

    auto addressFailure = [&](NodeIndex node, PortIndex port) {
        return readError(QStringLiteral("%1%2 has neither a directed route nor a LID")
                             .arg(nodeText(m_fabric, node), port == kNoIndex ? QString() : QStringLiteral(" port %1").arg(m_fabric.port(port).number)));
    };
    for (NodeIndex n = 0; n < NodeIndex(m_fabric.nodes().size()); ++n) {
        const Node &node = m_fabric.node(n);
        const bool onSwitch = node.type == NodeType::Switch;
        const bool wantsPKeys = !m_caps[std::size_t(n)].pkeySlots.empty();
        if (onSwitch && (m_what.lfts || wantsPKeys)) {
            const Lid lid = m_fabric.nodeLid(n);
            const int route = routeOf(n, kNoIndex);
            if (lid == 0 && route < 0)
                return addressFailure(n, kNoIndex);
            ask(Kind::SwitchInfo, n, std::size_t(n), 0, lid, route, m_what.lfts ? m_switchSlot[std::size_t(n)] : kNoTable);
        }
        if (wantsPKeys) {
            // NodeInfo at the first port listed (a CA answers it at any of its ports).
            const PortIndex first = m_pkeys[m_caps[std::size_t(n)].pkeySlots.front()].port;
            const Lid lid = onSwitch ? m_fabric.nodeLid(n) : m_fabric.port(first).lid;
            const int route = routeOf(n, first);
            if (lid == 0 && route < 0)
                return addressFailure(n, first);
            for (std::size_t slot : m_caps[std::size_t(n)].pkeySlots) {
                const PortIndex p = m_pkeys[slot].port;
                if ((onSwitch ? m_fabric.nodeLid(n) : m_fabric.port(p).lid) == 0 && routeOf(n, p) < 0)
                    return addressFailure(n, p);
            }
            ask(Kind::NodeInfo, n, std::size_t(n), 0, lid, route, kNoTable);
        }
    }
    for (std::size_t slot = 0; slot < slAsks.size(); ++slot) {
        const SlAsk &s = slAsks[slot];
        const bool onSwitch = m_fabric.node(s.node).type == NodeType::Switch;
        const Lid lid = onSwitch ? m_fabric.nodeLid(s.node) : m_fabric.port(s.port).lid;
        const int route = routeOf(s.node, s.port);
        if (lid == 0 && route < 0)
            return addressFailure(s.node, s.port);
        const std::size_t table = m_switches.size() + m_pkeys.size() + slot;
        ask(Kind::SlToVl, s.node, slot, s.modifier, lid, route, table);
        tableStep(table);
    }
    if (m_what.lfts)
        for (std::size_t slot = 0; slot < m_switches.size(); ++slot)
            tableStep(slot);  // each LFT's hold: its SwitchInfo now stands for it

    const bool finished = !m_cancelled && pipeline.run([this] { return !m_cancelled; });
    counts.mads = pipeline.stats();
    counts.seconds = clock.nsecsElapsed() / 1e9;
    m_pipeline = nullptr;
    counts.cancelled = m_cancelled;
    if (m_cancelled)
        return readError(QStringLiteral("reading the tables was cancelled"));
    if (!finished)
        return readError(QStringLiteral("no SMP could be sent through %1").arg(adapterText(m_options)));

    if (!m_silences.empty()) {
        QStringList lines;
        for (std::size_t i = 0; i < m_silences.size() && int(i) < kMaxReported; ++i) {
            const Silence &s = m_silences[i];
            QString line = s.refused ? QStringLiteral("%1 refused %2 (MAD status 0x%3)").arg(nodeText(m_fabric, s.node), s.what).arg(s.status, 4, 16, QLatin1Char('0'))
                                     : QStringLiteral("%1 did not answer %2 (%3)").arg(nodeText(m_fabric, s.node), s.what, s.routes);
            if (s.unread)
                line += QStringLiteral("; %1 more of its SMPs not sent").arg(s.unread);
            lines << line;
        }
        if (int(m_silences.size()) > kMaxReported)
            lines << QStringLiteral("and %1 more nodes").arg(int(m_silences.size()) - kMaxReported);
        std::size_t unreadTables = 0;
        for (int remaining : m_tableRemaining)
            unreadTables += remaining > 0;
        return readError(QStringLiteral("%1 of %2 tables could not be read (%3 SMPs sent, %4 lost): %5")
                             .arg(unreadTables).arg(m_tableRemaining.size()).arg(counts.mads.sent).arg(counts.mads.timeouts)
                             .arg(lines.join(QStringLiteral("; "))));
    }

    SmpReadResult result;
    if (m_what.lfts) {
        result.lfts.reserve(m_switches.size());
        for (const SwitchRead &sw : m_switches) {
            const int index = result.lfts.addSwitch(m_fabric.node(sw.node).guid, m_fabric.nodeLid(sw.node), m_fabric.node(sw.node).description);
            LinearForwardingTable &lft = result.lfts.lft(std::size_t(index));
            if (sw.top > 0)
                lft.reserve(sw.top);
            for (Lid lid = 1; lid <= sw.top; ++lid)
                if (sw.ports[lid] != kNoRoute)
                    lft.setPort(lid, sw.ports[lid]);
        }
    }
    if (m_what.pkeys) {
        std::vector<PortPKeyTable> read;
        read.reserve(m_pkeys.size());
        for (PKeyRead &r : m_pkeys) {
            const Port &port = m_fabric.port(r.port);
            PortPKeyTable table;
            table.port = r.port;
            table.packed = m_fabric.node(port.node).type == NodeType::Switch && port.number != 0;
            table.capacity = r.capacity;
            table.entries = std::move(r.entries);
            // Cut after the last block that holds something, keeping one block at least.
            std::size_t used = 0;
            for (std::size_t i = 0; i < table.entries.size(); ++i)
                if (table.entries[i] & kPKeyMask)
                    used = i + 1;
            const std::size_t keep = std::max<std::size_t>(kPKeyBlockSize, (used + kPKeyBlockSize - 1) / kPKeyBlockSize * kPKeyBlockSize);
            table.entries.resize(keep, 0);
            read.push_back(std::move(table));
        }
        result.pkeys = PKeyTables::fromPorts(std::move(read));
    }
    result.slToVl = std::move(m_slToVl);
    return result;
}

}  // namespace

QString SmpReadCounts::summary() const
{
    QStringList parts;
    if (switches)
        parts << QStringLiteral("%1 LFT blocks of %2 switches").arg(lftBlocks).arg(switches);
    if (pkeyTables)
        parts << QStringLiteral("%1 P_Key tables (%2 blocks)").arg(pkeyTables).arg(pkeyBlocks);
    if (slToVlTables)
        parts << QStringLiteral("%1 SL2VL tables").arg(slToVlTables);
    QString text = parts.join(QStringLiteral(", "));
    text += QStringLiteral(": %1 SMPs, %2 retries").arg(mads.sent).arg(mads.resent);
    // As the counter reader reports a tick with losses.
    if (mads.timeouts)
        text += QStringLiteral(" (%1 of %2 SMPs went unanswered in time; %3 sent again, %4 given up)")
                    .arg(mads.timeouts).arg(mads.sent).arg(mads.resent).arg(mads.failed);
    if (byDirectedRoute)
        text += QStringLiteral(", %1 by directed route after their LID route failed").arg(byDirectedRoute);
    text += QStringLiteral(", %1 s").arg(seconds, 0, 'f', 2);
    return text;
}

SmpReadCounts &SmpReadCounts::operator+=(const SmpReadCounts &o)
{
    switches += o.switches;
    lftBlocks += o.lftBlocks;
    pkeyTables += o.pkeyTables;
    pkeyBlocks += o.pkeyBlocks;
    slToVlTables += o.slToVlTables;
    byDirectedRoute += o.byDirectedRoute;
    mads.sent += o.mads.sent;
    mads.answered += o.mads.answered;
    mads.timeouts += o.mads.timeouts;
    mads.resent += o.mads.resent;
    mads.failed += o.mads.failed;
    mads.strayAnswers += o.mads.strayAnswers;
    mads.peakInFlight = std::max(mads.peakInFlight, o.mads.peakInFlight);
    seconds += o.seconds;
    return *this;
}

double smpDropShare()
{
    bool ok = false;
    const double share = qEnvironmentVariable("WEFT_SMP_DROP").toDouble(&ok);
    return ok ? std::clamp(share, 0.0, 1.0) : 0.0;
}

Result<SmpReadResult> readTablesPipelined(const Fabric &fabric, const LiveOptions &options, SmpReadWhat what, SmpReadCounts *counts)
{
    SmpReadCounts local;
    Read read(fabric, options, what);
    Result<SmpReadResult> result = read.run(local);
    t_counts += local;
    if (counts)
        *counts = local;
    return result;
}

SmpReadCounts takeSmpReadCounts()
{
    SmpReadCounts taken = t_counts;
    t_counts = {};
    return taken;
}

}  // namespace weft
