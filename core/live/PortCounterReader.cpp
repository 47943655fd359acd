#include "PortCounterReader.h"

#include "MadPort.h"

#include <infiniband/mad.h>
#include <infiniband/umad.h>

#include <QDateTime>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

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

constexpr std::size_t kBufferSize = 1024;  // a whole MAD and then some, as perfquery allocates

double monotonicSeconds()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// One libibmad port for the performance class, closed when it goes out of scope.
class PmaPort
{
public:
    static Result<std::unique_ptr<PmaPort>> open(const LiveOptions &options)
    {
        Result<MadPortHandle> port = openMadPort(options, {IB_PERFORMANCE_CLASS});
        if (!port)
            return port.error();
        return std::unique_ptr<PmaPort>(new PmaPort(std::move(*port), options.timeoutMs));
    }

    // PerfGet(attribute) with PortSelect `portNumber`; null when the PMA does not answer.
    std::uint8_t *get(Lid lid, int portNumber, unsigned attribute, std::uint8_t *buffer) const
    {
        ib_portid_t id{};
        ib_portid_set(&id, lid, 1, IB_DEFAULT_QP1_QKEY);
        std::fill(buffer, buffer + kBufferSize, std::uint8_t(0));
        return pma_query_via(buffer, &id, portNumber, unsigned(std::max(1, m_timeoutMs)), attribute, m_port.get());
    }

    // PerfSet(PortCounters) clearing the counters in `mask`; false when the PMA does not answer.
    bool clearPortCounters(Lid lid, int portNumber, unsigned mask, std::uint8_t *buffer) const
    {
        ib_portid_t id{};
        ib_portid_set(&id, lid, 1, IB_DEFAULT_QP1_QKEY);
        std::fill(buffer, buffer + kBufferSize, std::uint8_t(0));
        return performance_reset_via(buffer, &id, portNumber, mask, unsigned(std::max(1, m_timeoutMs)),
                                     IB_GSI_PORT_COUNTERS, m_port.get()) != nullptr;
    }

private:
    PmaPort(MadPortHandle port, int timeoutMs)
        : m_port(std::move(port)), m_timeoutMs(timeoutMs) {}
    MadPortHandle m_port;
    int m_timeoutMs;
};

// The LID a port's PMA answers at: a switch's port 0 for all its ports, a CA port's own.
Lid pmaLid(const Fabric &fabric, PortIndex portIndex)
{
    const Port &port = fabric.port(portIndex);
    return fabric.node(port.node).type == NodeType::Switch ? fabric.nodeLid(port.node) : port.lid;
}

}  // namespace

PortCounterReader::PortCounterReader(const Fabric &fabric, LiveOptions options, int threads)
    : m_fabric(fabric), m_options(std::move(options)), m_threads(std::max(1, threads)),
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
    std::vector<char> silent(m_nodes.size(), 0);

    int workers = std::min<int>(m_threads, std::max<int>(1, int(m_nodes.size())));
    // Under ibsim's libumad2sim the answers to one class's GMPs do not all reach the MAD port
    // that asked when a process has several open (seen as timeouts): one at a time there.
    if (qEnvironmentVariable("LD_PRELOAD").contains(QLatin1String("umad2sim")))
        workers = 1;
    std::vector<std::unique_ptr<PmaPort>> ports;
    for (int w = 0; w < workers; ++w) {
        Result<std::unique_ptr<PmaPort>> port = PmaPort::open(m_options);
        if (!port)
            return port.error();
        ports.push_back(std::move(*port));
    }

    std::atomic<std::size_t> next{0};
    std::atomic<bool> cancelled{false};
    std::mutex progressMutex;
    int done = 0;
    const int total = int(m_nodes.size());

    auto readNode = [&](const PmaPort &pma, std::size_t k) {
        const NodeIndex node = m_nodes[k];
        NodeCapabilities &caps = m_capabilities[std::size_t(node)];
        std::uint8_t buffer[kBufferSize];
        const Lid classLid = pmaLid(m_fabric, m_ports[m_nodeSamples[k].front()]);
        if (!caps.known && classLid != 0 && pma.get(classLid, 0, CLASS_PORT_INFO, buffer)) {
            const std::uint32_t mask = mad_get_field(buffer, 0, IB_CPI_CAPMASK_F);
            caps.known = true;
            caps.extended = mask & (kPmExtendedWidth | kPmExtendedWidthNoIetf);
            caps.xmitWait = mask & kPmXmitWait;
        }
        bool anyAnswer = false;
        for (std::size_t index : m_nodeSamples[k]) {
            PortCounterSample &sample = pass.samples[index];
            const Lid lid = pmaLid(m_fabric, m_ports[index]);
            const int number = m_fabric.port(m_ports[index]).number;
            if (!caps.known || lid == 0 || !pma.get(lid, number, IB_GSI_PORT_COUNTERS, buffer))
                continue;
            pass.readAt[index] = monotonicSeconds();
            sample.hasXmitWait = caps.xmitWait;
            sample.xmitWait = mad_get_field(buffer, 0, IB_PC_XMT_WAIT_F);
            for (int e = 0; e < kPortErrorCounterCount; ++e)
                sample.errors[std::size_t(e)] = mad_get_field(buffer, 0, kErrorFields[e]);
            if (caps.extended && !m_basicCounters) {
                if (!pma.get(lid, number, IB_GSI_PORT_COUNTERS_EXT, buffer))
                    continue;
                sample.extended = true;
                sample.xmitData = mad_get_field64(buffer, 0, IB_PC_EXT_XMT_BYTES_F);
                sample.rcvData = mad_get_field64(buffer, 0, IB_PC_EXT_RCV_BYTES_F);
                sample.xmitPackets = mad_get_field64(buffer, 0, IB_PC_EXT_XMT_PKTS_F);
                sample.rcvPackets = mad_get_field64(buffer, 0, IB_PC_EXT_RCV_PKTS_F);
            } else {
                sample.xmitData = mad_get_field(buffer, 0, IB_PC_XMT_BYTES_F);
                sample.rcvData = mad_get_field(buffer, 0, IB_PC_RCV_BYTES_F);
                sample.xmitPackets = mad_get_field(buffer, 0, IB_PC_XMT_PKTS_F);
                sample.rcvPackets = mad_get_field(buffer, 0, IB_PC_RCV_PKTS_F);
            }
            sample.answered = true;
            anyAnswer = true;
            if (m_clearCounters && portCountersNeedClearing(sample))
                sample.clearedAfter =
                    pma.clearPortCounters(lid, number, kClearAllCounters | (caps.xmitWait ? kClearXmitWait : 0u), buffer);
        }
        if (!anyAnswer)
            silent[k] = 1;
    };

    auto work = [&](const PmaPort &pma) {
        for (;;) {
            if (cancelled.load())
                return;
            const std::size_t k = next.fetch_add(1);
            if (k >= m_nodes.size())
                return;
            readNode(pma, k);
            if (m_options.progress) {
                std::lock_guard<std::mutex> lock(progressMutex);
                if (!m_options.progress(++done, total))
                    cancelled.store(true);
            }
        }
    };

    std::vector<std::thread> threads;
    for (int w = 1; w < workers; ++w)
        threads.emplace_back(work, std::cref(*ports[std::size_t(w)]));
    work(*ports.front());
    for (std::thread &t : threads)
        t.join();

    if (cancelled.load())
        return Error{{}, 0, QStringLiteral("reading the port counters was cancelled")};
    for (std::size_t k = 0; k < m_nodes.size(); ++k)
        if (silent[k])
            pass.silentNodes.push_back(m_nodes[k]);
    return pass;
}

}  // namespace weft
