#pragma once
// The lab as a traffic source. ibsim has no data plane: its port counters move only with MAD
// traffic and with its console's PerformanceSet. The driver routes a workload through the tables
// the switches hold, works out the bytes that cross every directed link per second, and each
// tick advances every port's counters by them, through the console, so that the monitor reads a
// fabric under load through the real PMA path.
//
// The model, written down because the lab's figures depend on it:
// - A flow sends `flowRate` bytes/s from its source's end port along its route (RouteWalk.h).
//   A directed link is offered the sum of its flows; it carries at most its active data rate
//   (width x lane data rate after encoding); the rest is the time it waits. Each link is capped
//   on its own: a flow capped upstream still counts in full downstream.
// - Transmit counters go to the sending port, receive counters to the port at the other end of
//   the cable. Data in 4-octet units (PortCountersExtended, 64-bit), packets at a fixed payload
//   of kLabPacketBytes, PortXmitWait (PortCounters, 32-bit, stuck at its maximum as hardware's)
//   in ticks of one microsecond during which the port had data it could not send.
// - Totals are exact 64-bit integers kept here; ibsim is sent absolute values, one command per
//   counter that changed, so MAD traffic between ticks never accumulates into the figures.

#include "Fabric.h"
#include "ForwardingTables.h"
#include "Result.h"
#include "TrafficModel.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

namespace weft {

class SimulatedFabric;

inline constexpr std::uint64_t kLabPacketBytes = 2048;
inline constexpr double kXmitWaitTicksPerSecond = 1e6;

// What the lab sends: a traffic model (every flow at the same rate), or hot spots (every other
// end port sends one flow to each destination).
struct LabWorkload
{
    std::optional<TrafficModel> model;  // empty: the hot spots
    PortIndex hotSpot = kNoIndex;       // the (first) destination end port of the hot spots
    // Every destination, in the order named; empty: hotSpot alone. parseLabWorkload fills both.
    std::vector<PortIndex> hotSpots;

    // hotSpots, or {hotSpot} when it is empty (and nothing without a hot spot).
    std::vector<PortIndex> destinations() const;

    QString toString(const Fabric &fabric) const;
};

// "hotspot" (the last end port in LID order), "hotspot:NODE,NODE,..." (each NODE as NodeQuery
// reads it: node id, description, GUID or LID; every other end port sends to each), or a traffic
// model's name (parseTrafficModel). The error says which names are accepted.
Result<LabWorkload> parseLabWorkload(const QString &text, const Fabric &fabric);
QString labWorkloadNames();  // for help texts

struct LabLinkTraffic
{
    PortIndex from = kNoIndex;  // the sending port
    PortIndex to = kNoIndex;    // the port at the other end
    std::uint64_t flows = 0;
    double capacity = 0;  // bytes/s, linkDataBytesPerSecond (PortTelemetry.h) of `from`
    double offered = 0;   // bytes/s the workload sends into the link
    double carried = 0;   // min(offered, capacity)

    double utilisation() const { return capacity > 0 ? carried / capacity : 0; }
    // The share of time the port had data it could not send.
    double waitFraction() const { return offered > capacity && offered > 0 ? 1 - capacity / offered : 0; }
};

struct LabTrafficLoad
{
    double flowRate = 0;                 // bytes/s per flow
    std::uint64_t flows = 0;             // flows of the workload
    std::uint64_t undeliveredFlows = 0;  // of those, flows whose route does not arrive
    std::vector<LabLinkTraffic> links;   // every cabled directed link, by sending port
    std::vector<int> linkOfPort;         // fabric port -> index into links, -1 where none

    const LabLinkTraffic *link(PortIndex from) const
    {
        const int i = from >= 0 && std::size_t(from) < linkOfPort.size() ? linkOfPort[std::size_t(from)] : -1;
        return i < 0 ? nullptr : &links[std::size_t(i)];
    }
    // The highest utilisation over directed links between two switches (what routing decides).
    double maxSwitchLinkUtilisation(const Fabric &fabric) const;
};

// The workload routed through `tables`: bytes/s per directed link. `flowRate` <= 0 picks the
// fastest rate at which no end port's own link is offered more than its active rate.
LabTrafficLoad computeLabTraffic(const Fabric &fabric, const ForwardingTables &tables, const LabWorkload &workload,
                                 double flowRate = 0);

// Counter totals of one port, as the driver has set them.
struct LabPortCounters
{
    std::uint64_t xmitData = 0;  // 4-octet units
    std::uint64_t rcvData = 0;
    std::uint64_t xmitPackets = 0;
    std::uint64_t rcvPackets = 0;
    std::uint64_t xmitWait = 0;  // PortCounters' 32-bit field gets min(this, 2^32 - 1)
};

class LabTrafficDriver
{
public:
    // `fabric` must carry the LIDs the subnet manager assigned and ibsim's node ids as names.
    LabTrafficDriver(Fabric fabric, const ForwardingTables &tables, LabWorkload workload, double flowRate = 0);

    // The driver follows these tables from the next tick on (after a commit).
    void setTables(const ForwardingTables &tables);

    const Fabric &fabric() const { return m_fabric; }
    const LabWorkload &workload() const { return m_workload; }
    // The model the counters follow: utilisation per directed link under the current tables.
    const LabTrafficLoad &load() const { return m_load; }
    const LabPortCounters &counters(PortIndex port) const { return m_counters[std::size_t(port)]; }

    // Advances every counter by `seconds` of the workload; the console commands for the
    // counters that changed (all of them on the first call). Pure: nothing is sent.
    QStringList advance(double seconds);
    // Console commands setting every counter to its current total.
    QStringList allCommands() const;

    // advance() and send the commands to the simulator, waiting until it has applied them.
    Status tick(SimulatedFabric &sim, double seconds);

private:
    struct Sent
    {
        bool valid = false;
        LabPortCounters values;
    };
    void appendCommands(PortIndex port, const Sent *previous, QStringList &commands) const;

    Fabric m_fabric;
    LabWorkload m_workload;
    double m_requestedRate = 0;
    LabTrafficLoad m_load;
    std::vector<LabPortCounters> m_counters;  // by fabric port
    std::vector<double> m_xmitOwed;           // bytes not yet counted (less than one unit)
    std::vector<double> m_rcvOwed;
    std::vector<double> m_waitOwed;  // ticks not yet counted
    std::vector<Sent> m_sent;
};

}  // namespace weft
