#pragma once
// The monitor's ticks as the rule language sees them (spec 003 §5.3, §5.4): a window of recent
// ticks of measured port rates, kept in memory, from which every metric a rule names is
// computed, and the per-node receive rates that learned weights are made of.
//
// What a metric means (the same live and in replay):
// - node scope, the end nodes (channel adapters) for `node[all]`; `node["X"]` any node by id,
//   description or GUID (NodeQuery);
//     rx_gbps  what the node receives: the transmit rate of the switch port facing each of its
//              ports (PortXmitData, preferred), else its own port's PortRcvData; summed over its
//              ports; bytes/s x 8 / 1e9.
//     tx_gbps  what it sends: its ports' PortXmitData, else the facing switch ports' PortRcvData.
//     util     the busier direction of its busiest cable, 0..1.
//     xmit_wait_rate  PortXmitWait ticks per second, summed over its ports.
//     errors   new error counts this tick (all error counters), summed over its ports.
//     weight   its traffic weight in the tenancy (1 when none is set; a port GUID's weight).
// - link scope, the directed links (each cable twice): `link[all]` or `link["NODE[PORT]"]` (the
//   cable at that port, both directions); util, xmit_wait_rate and errors of the sending port;
//   rx_gbps / tx_gbps the directed link's carried rate (the sender's PortXmitData, x 8 / 1e9).
// - tenant("T") / partition("P"): the node values of the members (a partition's members by
//   port GUID; `ALL` names every end node).
// - fabric: node fields over every end node; util, xmit_wait_rate over every directed link;
//   errors over every port.
// Aggregates: over the entities of the latest tick, or, with `window=D`, over every (entity,
// tick) pair of the ticks at most D seconds older than the latest; `sum` is the mean over those
// ticks of the per-tick sum. Entities with a gap (CounterGap) are left out; a metric with no
// measured entity at all has no value (std::nullopt), and a comparison on it does not hold.
// A node is left out of a tick when one of its cabled ports has neither source of the figure
// (a partial sum would understate it); its util takes whichever direction was measured.
// `p95` is the nearest rank: the smallest sample with at least 95 % of the samples at or below.
// A partition is named by its name or its P_Key ("0x8001"). Lookups per port (its cable's far
// end, a node's cabled ports) are built once per fabric; a tick keeps the nine figures the
// metrics read per port (72 bytes a port), with O(1) lookup by port.

#include "Fabric.h"
#include "RuleLanguage.h"
#include "Tenancy.h"
#include "TelemetryRecord.h"

#include <QString>

#include <deque>
#include <memory>
#include <optional>
#include <vector>

namespace weft::adapt {

// One port's health over a window of ticks, for the sick-link conditions (LinkHealth.h).
struct PortHealthWindow
{
    int ticks = 0;          // ticks in the window
    int measuredTicks = 0;  // of those, ticks with its SymbolErrorCounter read
    double seconds = 0;     // the time those measured ticks' rates cover
    std::uint64_t symbolErrors = 0;  // new SymbolErrorCounter counts in the window
    std::uint64_t linkDowns = 0;     // new LinkDownedCounter counts in the window
    int passes = 0;            // of the latest `passes` ticks, those with a record of the port
    int unansweredPasses = 0;  // of those, ticks in which its counters went unanswered
};

class MetricStore
{
public:
    // `fabric` names the ports the records refer to (TelemetryRecord::portIndex into it).
    explicit MetricStore(std::shared_ptr<const Fabric> fabric, Tenancy tenancy = {});

    // Tenant and partition members, and the weights the `weight` field reads.
    void setTenancy(Tenancy tenancy);
    const Tenancy &tenancy() const { return m_tenancy; }
    const Fabric &fabric() const { return *m_fabric; }
    std::shared_ptr<const Fabric> fabricPtr() const { return m_fabric; }

    // Ticks older than this (from the newest) are dropped; set it to the longest window any rule
    // or learned weight needs. Default one hour.
    void setRetentionSeconds(double seconds);
    double retentionSeconds() const { return m_retention; }

    // One tick of rates at `time` (seconds since the epoch). Ticks must come in time order; one
    // not later than the newest is ignored. Records whose port index is not of the fabric are
    // ignored.
    void addTick(double time, std::vector<TelemetryRecord> records);
    std::size_t tickCount() const { return m_ticks.size(); }
    double latestTime() const;  // 0 with no tick

    // The metric's value now; nullopt when nothing it covers was measured, or the selector names
    // no node (link) of the fabric (selectorError says which).
    std::optional<double> value(const Metric &metric) const;
    // Why a selector, tenant or partition of `metric` names nothing here; empty when it does.
    QString selectorError(const Metric &metric) const;

    // Per end node (fabric().endNodes() order), the receive rate in bytes/s (rx as above)
    // smoothed by an EWMA over the ticks held: r̂ <- a·r + (1 - a)·r̂ with a = 1 - exp(-Δt / D),
    // D = `windowSeconds` (spec 003 §3.4). A node never measured has 0.
    std::vector<double> smoothedReceiveRates(double windowSeconds) const;

    // `port`'s error and answer figures over the ticks at most `windowSeconds` older than the
    // latest, and whether it answered in each of the latest `passes` ticks.
    PortHealthWindow portHealth(PortIndex port, double windowSeconds, int passes) const;

private:
    // Which ports a tick measured, in port order, and each port's slot: consecutive ticks of the
    // same ports share one layout, so a tick holds only its figures.
    struct PortLayout;
    struct Tick
    {
        double time = 0;
        std::shared_ptr<const PortLayout> layout;
        // Per slot: xmit bytes/s, rcv bytes/s, xmit wait/s, utilisation, new errors (NaN for a
        // gap).
        std::vector<double> figures;
    };
    struct Impl;
    std::shared_ptr<const Fabric> m_fabric;
    Tenancy m_tenancy;
    double m_retention = 3600;
    std::deque<Tick> m_ticks;
    std::shared_ptr<Impl> m_impl;  // per-port lookups built once for the fabric
};

}  // namespace weft::adapt
