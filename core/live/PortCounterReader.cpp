#include "PortCounterReader.h"

#include "MadPort.h"

#include <infiniband/mad.h>
#include <infiniband/umad.h>

#include <QDateTime>

#include <algorithm>
#include <array>
#include <chrono>

namespace weft {

namespace {

// ClassPortInfo:CapabilityMask of the performance class (IBA 16.1.3.1), host order.
constexpr std::uint32_t kPmExtendedWidth = 1u << 9;         // IB_PM_EXT_WIDTH_SUPPORTED
constexpr std::uint32_t kPmExtendedWidthNoIetf = 1u << 10;  // IB_PM_EXT_WIDTH_NOIETF_SUP
constexpr std::uint32_t kPmXmitWait = 1u << 12;             // IB_PM_PC_XMIT_WAIT_SUP
// PortCounters:CounterSelect, every counter (what perfquery -R resets), and CounterSelect2's
// PortXmitWait bit as performance_reset_via takes it (above the low 16 bits).
constexpr unsigned kClearAllCounters = 0xffffu;
constexpr unsigned kClearXmitWait = 1u << 16;

// What PortCounters lays out for each PortErrorCounter, in that enum's order.
constexpr MAD_FIELDS kErrorFields[kPortErrorCounterCount] = {
    IB_PC_ERR_SYM_F,
    IB_PC_LINK_RECOVERS_F,
    IB_PC_LINK_DOWNED_F,
    IB_PC_ERR_RCV_F,
    IB_PC_ERR_PHYSRCV_F,
    IB_PC_ERR_SWITCH_REL_F,
    IB_PC_XMT_DISCARDS_F,
    IB_PC_ERR_XMTCONSTR_F,
    IB_PC_ERR_RCVCONSTR_F,
    IB_PC_ERR_LOCALINTEG_F,
    IB_PC_ERR_EXCESS_OVR_F,
    IB_PC_VL15_DROPPED_F,
};

double monotonicSeconds()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The pipeline's transport: libibumad's calls on one MAD port registered for the performance
// class. Answers come back on the port that asked (ibsim's libumad2sim, too, routes them by
// class to one port per process), so one port carries every request of a pass.
class UmadTransport final : public GmpTransport
{
public:
    explicit UmadTransport(MadPortHandle port)
        : m_port(std::move(port)), m_fd(mad_rpc_portid(m_port.get())),
          m_agent(mad_rpc_class_agent(m_port.get(), IB_PERFORMANCE_CLASS)),
          m_sendBuffer(umad_size() + IB_MAD_SIZE), m_receiveBuffer(umad_size() + IB_MAD_SIZE) {}

    bool send(const GmpRequest &request, std::uint32_t tid, int timeoutMs) override
    {
        std::fill(m_sendBuffer.begin(), m_sendBuffer.end(), std::uint8_t(0));
        ib_rpc_t rpc{};
        rpc.mgtclass = IB_PERFORMANCE_CLASS;
        rpc.method = request.method;
        rpc.attr.id = request.attribute;
        rpc.timeout = unsigned(timeoutMs);
        rpc.datasz = IB_PC_DATA_SZ;
        rpc.dataoffs = IB_PC_DATA_OFFS;
        rpc.trid = tid;
        ib_portid_t id{};
        ib_portid_set(&id, request.lid, 1, IB_DEFAULT_QP1_QKEY);
        std::array<std::uint8_t, IB_PC_DATA_SZ> data = request.data;
        if (mad_build_pkt(m_sendBuffer.data(), &rpc, &id, nullptr, data.data()) < 0)
            return false;
        // No retries in the kernel: the pipeline resends, with a new transaction ID.
        return umad_send(m_fd, m_agent, m_sendBuffer.data(), IB_MAD_SIZE, timeoutMs, 0) == 0;
    }

    GmpEvent wait(int waitMs) override
    {
        return receiveGmpEvent(m_fd, m_receiveBuffer, waitMs, IB_PC_DATA_OFFS, IB_MAD_SIZE - IB_PC_DATA_OFFS);
    }

    std::uint32_t nextTid() override { return std::uint32_t(mad_trid()); }

private:
    MadPortHandle m_port;
    int m_fd;
    int m_agent;
    std::vector<std::uint8_t> m_sendBuffer;
    std::vector<std::uint8_t> m_receiveBuffer;
};

// A performance-class request for `portNumber` (PortSelect) at `lid`.
GmpRequest pmaRequest(Lid lid, int portNumber, unsigned attribute, std::uint8_t method)
{
    GmpRequest request;
    request.lid = lid;
    request.attribute = std::uint16_t(attribute);
    request.method = method;
    mad_set_field(request.data.data(), 0, IB_PC_PORT_SELECT_F, unsigned(portNumber));
    return request;
}

// The data and packet counters of a PortCountersExtended answer (64 bits) or a PortCounters one
// (32 bits), from its data block.
void takeDataCounters(PortCounterSample &sample, std::uint8_t *data, bool extended)
{
    if (extended) {
        sample.xmitData = mad_get_field64(data, 0, IB_PC_EXT_XMT_BYTES_F);
        sample.rcvData = mad_get_field64(data, 0, IB_PC_EXT_RCV_BYTES_F);
        sample.xmitPackets = mad_get_field64(data, 0, IB_PC_EXT_XMT_PKTS_F);
        sample.rcvPackets = mad_get_field64(data, 0, IB_PC_EXT_RCV_PKTS_F);
    } else {
        sample.xmitData = mad_get_field(data, 0, IB_PC_XMT_BYTES_F);
        sample.rcvData = mad_get_field(data, 0, IB_PC_RCV_BYTES_F);
        sample.xmitPackets = mad_get_field(data, 0, IB_PC_XMT_PKTS_F);
        sample.rcvPackets = mad_get_field(data, 0, IB_PC_RCV_PKTS_F);
    }
}

// The LID a port's PMA answers at: a switch's port 0 for all its ports, a CA port's own.
Lid pmaLid(const Fabric &fabric, PortIndex portIndex)
{
    const Port &port = fabric.port(portIndex);
    return fabric.node(port.node).type == NodeType::Switch ? fabric.nodeLid(port.node) : port.lid;
}

// What a request of a pass is for, kept in its tag with the node or sample it concerns.
enum class Ask : std::uint64_t { ClassInfo,
                                 Counters,
                                 Extended,
                                 Clear };
std::uint64_t tagOf(Ask ask, std::size_t index)
{
    return (std::uint64_t(index) << 2) | std::uint64_t(ask);
}
Ask askOf(std::uint64_t tag)
{
    return Ask(tag & 3u);
}
std::size_t indexOf(std::uint64_t tag)
{
    return std::size_t(tag >> 2);
}

}  // namespace

PortCounterReader::PortCounterReader(const Fabric &fabric, LiveOptions options, int maxInFlight)
    : m_fabric(fabric), m_options(std::move(options)), m_maxInFlight(std::max(1, maxInFlight)),
      m_capabilities(fabric.nodes().size())
{
    for (NodeIndex n = 0; n < NodeIndex(fabric.nodes().size()); ++n) {
        std::vector<std::size_t> samples;
        for (int p = 1; p <= fabric.node(n).portCount; ++p) {
            const PortIndex port = fabric.portOf(n, p);
            if (port == kNoIndex || !fabric.port(port).present || fabric.port(port).link == kNoIndex)
                continue;
            samples.push_back(m_ports.size());
            m_ports.push_back(port);
            m_sampleNode.push_back(m_nodes.size());
        }
        if (!samples.empty()) {
            m_nodes.push_back(n);
            m_nodeSamples.push_back(std::move(samples));
        }
    }
}

PortCounterReader::~PortCounterReader() = default;

bool PortCounterReader::hasExtendedCounters(NodeIndex node) const
{
    return m_capabilities[std::size_t(node)].extended;
}

Result<PortCounterPass> PortCounterReader::read()
{
    PortCounterPass pass;
    pass.wallTime = QDateTime::currentMSecsSinceEpoch() / 1000.0;
    pass.samples.resize(m_ports.size());
    pass.readAt.resize(m_ports.size());

    Result<MadPortHandle> port = openMadPort(m_options, {IB_PERFORMANCE_CLASS});
    if (!port)
        return port.error();
    UmadTransport transport(std::move(*port));
    GmpPipelineOptions pipelineOptions;
    pipelineOptions.maxInFlight = m_maxInFlight;
    pipelineOptions.initialWindow = std::min(m_maxInFlight, 4);
    pipelineOptions.timeoutMs = m_options.timeoutMs;
    pipelineOptions.retries = m_options.retries;
    GmpPipeline pipeline(transport, pipelineOptions, int(m_nodes.size()));

    // Per sample: which of its answers came; a sample is answered once all it needs did.
    constexpr std::uint8_t kCountersIn = 1, kExtendedIn = 2, kRefused = 4;
    std::vector<std::uint8_t> arrived(m_ports.size(), 0);
    std::vector<int> unsettled(m_nodes.size(), 0);  // per node: requests not yet answered or given up
    std::vector<char> answeredAny(m_nodes.size(), 0);
    bool cancelled = false;
    int done = 0;
    const int total = int(m_nodes.size());

    auto settle = [&](std::size_t k, std::size_t requests) {
        unsettled[k] -= int(requests);
        if (unsettled[k] == 0 && m_options.progress && !cancelled && !m_options.progress(++done, total))
            cancelled = true;
    };
    auto wantsExtended = [&](std::size_t k) {
        return m_capabilities[std::size_t(m_nodes[k])].extended && !m_basicCounters;
    };
    auto ask = [&](std::size_t k, Ask what, std::size_t index, const GmpRequest &request) {
        ++unsettled[k];
        pipeline.submit(int(k), request, tagOf(what, index));
    };
    auto askCounters = [&](std::size_t k) {
        for (std::size_t index : m_nodeSamples[k]) {
            const Lid lid = pmaLid(m_fabric, m_ports[index]);
            const int number = m_fabric.port(m_ports[index]).number;
            if (lid == 0)
                continue;
            ask(k, Ask::Counters, index, pmaRequest(lid, number, IB_GSI_PORT_COUNTERS, IB_MAD_METHOD_GET));
            if (wantsExtended(k))
                ask(k, Ask::Extended, index, pmaRequest(lid, number, IB_GSI_PORT_COUNTERS_EXT, IB_MAD_METHOD_GET));
        }
    };
    auto sampleComplete = [&](std::size_t k, std::size_t index) {
        const std::uint8_t needed = kCountersIn | (wantsExtended(k) ? kExtendedIn : 0);
        if ((arrived[index] & (needed | kRefused)) != needed)
            return;
        PortCounterSample &sample = pass.samples[index];
        sample.answered = true;
        answeredAny[k] = 1;
        if (m_clearCounters && portCountersNeedClearing(sample)) {
            const NodeCapabilities &caps = m_capabilities[std::size_t(m_nodes[k])];
            GmpRequest clear = pmaRequest(pmaLid(m_fabric, m_ports[index]), m_fabric.port(m_ports[index]).number,
                                          IB_GSI_PORT_COUNTERS, IB_MAD_METHOD_SET);
            // CounterSelect, and CounterSelect2's PortXmitWait bit (what perfquery -R sets).
            mad_set_field(clear.data.data(), 0, IB_PC_COUNTER_SELECT_F, kClearAllCounters);
            mad_set_field(clear.data.data(), 0, IB_PC_COUNTER_SELECT2_F, caps.xmitWait ? (kClearXmitWait >> 16) : 0u);
            ask(k, Ask::Clear, index, clear);
        }
    };

    pipeline.onAnswer([&](std::uint64_t tag, const GmpEvent &answer) {
        const std::size_t index = indexOf(tag);
        // libibmad reads fields through non-const pointers; nothing here writes.
        auto *data = const_cast<std::uint8_t *>(answer.data.data());
        switch (askOf(tag)) {
        case Ask::ClassInfo: {
            const std::size_t k = index;
            if (answer.madStatus == 0) {
                NodeCapabilities &caps = m_capabilities[std::size_t(m_nodes[k])];
                const std::uint32_t mask = mad_get_field(data, 0, IB_CPI_CAPMASK_F);
                caps.known = true;
                caps.extended = mask & (kPmExtendedWidth | kPmExtendedWidthNoIetf);
                caps.xmitWait = mask & kPmXmitWait;
                askCounters(k);
            }
            settle(k, 1);
            return;
        }
        case Ask::Counters:
        case Ask::Extended: {
            const std::size_t k = m_sampleNode[index];
            const bool extended = askOf(tag) == Ask::Extended;
            if (answer.madStatus != 0) {
                arrived[index] |= kRefused;
            } else {
                PortCounterSample &sample = pass.samples[index];
                if (extended) {
                    sample.extended = true;
                    takeDataCounters(sample, data, true);
                } else {
                    pass.readAt[index] = monotonicSeconds();
                    sample.hasXmitWait = m_capabilities[std::size_t(m_nodes[k])].xmitWait;
                    sample.xmitWait = mad_get_field(data, 0, IB_PC_XMT_WAIT_F);
                    for (int e = 0; e < kPortErrorCounterCount; ++e)
                        sample.errors[std::size_t(e)] = mad_get_field(data, 0, kErrorFields[e]);
                    if (!wantsExtended(k))
                        takeDataCounters(sample, data, false);
                }
                arrived[index] |= extended ? kExtendedIn : kCountersIn;
                sampleComplete(k, index);
            }
            settle(k, 1);
            return;
        }
        case Ask::Clear:
            pass.samples[index].clearedAfter = answer.madStatus == 0;
            settle(m_sampleNode[index], 1);
            return;
        }
    });
    // A request that went unanswered through all its retries: the node is taken as silent for the
    // rest of this pass (what it still had queued is not sent), as a synchronous reader waiting out
    // every port of a dead switch would only take longer to find.
    pipeline.onFailure([&](std::uint64_t tag) {
        const Ask what = askOf(tag);
        const std::size_t k = what == Ask::ClassInfo ? indexOf(tag) : m_sampleNode[indexOf(tag)];
        if (what == Ask::Clear) {
            settle(k, 1);
            return;
        }
        if (what != Ask::ClassInfo)
            arrived[indexOf(tag)] |= kRefused;
        settle(k, 1 + pipeline.dropQueued(int(k)));
    });

    for (std::size_t k = 0; k < m_nodes.size(); ++k) {
        const NodeCapabilities &caps = m_capabilities[std::size_t(m_nodes[k])];
        const Lid classLid = pmaLid(m_fabric, m_ports[m_nodeSamples[k].front()]);
        ++unsettled[k];  // held until its requests are queued, so that it cannot settle early
        if (caps.known)
            askCounters(k);
        else if (classLid != 0)
            ask(k, Ask::ClassInfo, k, pmaRequest(classLid, 0, CLASS_PORT_INFO, IB_MAD_METHOD_GET));
        settle(k, 1);
    }
    const bool finished = !cancelled && pipeline.run([&] { return !cancelled; });
    pass.mads = pipeline.stats();

    if (cancelled)
        return Error{{}, 0, QStringLiteral("reading the port counters was cancelled")};
    if (!finished)
        return Error{{}, 0, QStringLiteral("no port-counter query could be sent through %1").arg(adapterText(m_options))};
    for (std::size_t k = 0; k < m_nodes.size(); ++k)
        if (!answeredAny[k])
            pass.silentNodes.push_back(m_nodes[k]);
    return pass;
}

}  // namespace weft
