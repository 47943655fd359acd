#pragma once
// Port counters of a live fabric through the performance management class (GMPs to each
// node's PMA on QP1, what perfquery sends), read with libibmad.
//
// Per node, ClassPortInfo decides once (the answer is kept for later passes): nodes whose
// CapabilityMask has IsExtendedWidthSupported (or its NoIETF variant) are read with
// PortCountersExtended for the 64-bit data and packet counters (unless setBasicCounters); others
// give them from PortCounters (32 bits). PortXmitWait and the error counters always come from PortCounters.
//
// A pass reads every linked port of every node through one MAD port, many GMPs in flight
// (GmpPipeline.h): the window adapts to losses up to `maxInFlight`, at most 4 are outstanding at
// one node, each answer is matched by transaction ID (no port is counted twice), and a request
// that times out is sent again up to LiveOptions::retries times. A node that does not answer
// through all of them is marked silent for that pass (its samples have answered = false; what it
// still had queued is not sent) and the next pass asks it again.

#include "Fabric.h"
#include "GmpPipeline.h"
#include "LiveFabric.h"
#include "PortTelemetry.h"
#include "Result.h"

#include <vector>

namespace weft {

struct PortCounterPass
{
    // Parallel to PortCounterReader::ports().
    std::vector<PortCounterSample> samples;
    // Per sample: when its counters were read, in seconds of a monotonic clock.
    std::vector<double> readAt;
    std::vector<NodeIndex> silentNodes;  // nodes whose PMA did not answer this pass
    double wallTime = 0;                 // seconds since the epoch when the pass began
    GmpPipelineStats mads;               // requests sent, answered, lost, resent; the window
};

class PortCounterReader
{
public:
    // `fabric` must outlive the reader. `maxInFlight`: the most GMPs in flight (at least 1).
    PortCounterReader(const Fabric &fabric, LiveOptions options, int maxInFlight = kDefaultMadsInFlight);
    static constexpr int kDefaultMadsInFlight = 64;
    ~PortCounterReader();
    PortCounterReader(const PortCounterReader &) = delete;
    PortCounterReader &operator=(const PortCounterReader &) = delete;

    // The ports read: every port with a cable, in fabric order.
    const std::vector<PortIndex> &ports() const { return m_ports; }

    // One pass over all ports. An Error only when no MAD can be sent at all (no adapter, no
    // umad access) or when LiveOptions::progress cancelled it; silent nodes are not errors.
    // progress(nodes done, nodes) is called on the calling thread as each node's last answer comes.
    Result<PortCounterPass> read();

    // Off by default. On: a port whose PortCounters passed 75 % of a counter's range in a reading
    // is cleared (a PMA Set, as perfquery -R) right after it, and its sample says so.
    void setClearCounters(bool on) { m_clearCounters = on; }
    bool clearCounters() const { return m_clearCounters; }

    // Off by default. On: data and packet counters from PortCounters alone (32 bits), as hardware
    // without PortCountersExtended gives them (`weft monitor --basic-counters`): their wrap or
    // saturation shows as a gap, never as a rate.
    void setBasicCounters(bool on) { m_basicCounters = on; }
    bool basicCounters() const { return m_basicCounters; }

    // Whether ClassPortInfo said the node has PortCountersExtended (false until it answered).
    bool hasExtendedCounters(NodeIndex node) const;

private:
    struct NodeCapabilities
    {
        bool known = false;  // ClassPortInfo answered
        bool extended = false;
        bool xmitWait = false;
    };
    const Fabric &m_fabric;
    LiveOptions m_options;
    int m_maxInFlight;
    bool m_clearCounters = false;
    bool m_basicCounters = false;
    std::vector<PortIndex> m_ports;
    std::vector<NodeIndex> m_nodes;                       // nodes with a port read, in order
    std::vector<std::vector<std::size_t>> m_nodeSamples;  // per m_nodes entry: indices into m_ports
    std::vector<std::size_t> m_sampleNode;                // per m_ports entry: its m_nodes entry
    std::vector<NodeCapabilities> m_capabilities;         // per node of the fabric
};

}  // namespace weft
