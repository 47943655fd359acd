#pragma once
// A fluid model of throughput: every flow is a steady stream along the route the forwarding
// tables give it, and the rates are max-min fair (progressive filling): all flows grow together
// until some directed cable is full; the flows crossing it are frozen at that rate (it is their
// bottleneck) and the rest grow on. Weighted flows grow in proportion to their weight. The
// result is the unique max-min fair allocation: no flow can gain without taking from a flow that
// has no more than it.
//
// Every directed cable counts, the hosts' own included, at its active data rate
// (linkDataBytesPerSecond). Eligible for scoring candidates: the water-filling runs as a heap
// over links, O(path hops · log links), and a 648-host tree with all-to-all (419,256 flows)
// takes a fraction of a second.
//
// Static, like eBB: no packets, no credits, no head-of-line blocking. It says which cable limits
// which flow under a routing, not what a flit-level simulator would measure.

#include "Fabric.h"
#include "ForwardingTables.h"
#include "Result.h"
#include "Tenancy.h"
#include "TrafficModel.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

class QJsonObject;

namespace weft {

struct FluidFlow
{
    PortIndex source = kNoIndex;       // an end port of the fabric
    PortIndex destination = kNoIndex;  // an end port; its base LID is followed
    double weight = 1;                 // share of the water level: rate = weight × level
};

// The flows of a traffic model among the end ports (PartitionMembership's conventions: the
// partition-all-to-all model only between ports that may talk), each of weight 1.
std::vector<FluidFlow> modelFlows(const Fabric &fabric, const Tenancy &tenancy, const TrafficModel &model);

struct FluidOptions
{
    // Refuse inputs whose routes add up to more hops than this (memory: 8 bytes a hop, twice).
    std::uint64_t maxHops = 200'000'000;
};

struct FluidBottleneck
{
    PortIndex from = kNoIndex;   // the directed cable, by its out port
    PortIndex to = kNoIndex;
    double capacity = 0;         // bytes/s
    std::uint64_t flows = 0;     // flows it limits (their bottleneck)
    double share = 0;            // of all delivered flows
    double rate = 0;             // the rate of those flows, bytes/s each (per unit weight)
};

struct FluidGroupThroughput
{
    QString name;
    std::uint64_t flows = 0;
    double bytesPerSecond = 0;
};

struct FluidThroughput
{
    std::uint64_t flows = 0;                 // asked for
    std::uint64_t undelivered = 0;           // routes that do not arrive: rate 0, left out
    std::vector<double> rates;               // bytes/s, parallel to the flows asked for
    std::vector<PortIndex> bottleneckOf;     // per flow: the out port of its bottleneck cable
    double totalBytesPerSecond = 0;
    double sendersBytesPerSecond = 0;        // Σ of the senders' own link rates, each sender once
    double normalized = 0;                   // total ÷ senders' rates, 0..1
    double minFlowBytesPerSecond = 0;        // over delivered flows
    double meanFlowBytesPerSecond = 0;
    std::vector<FluidBottleneck> bottleneckLinks;  // by flows limited, most first (up to 20)
    std::vector<FluidGroupThroughput> tenants;     // by the source's tenant (Tenancy::tenants)
    std::vector<double> linkRate;            // per fabric port (out): bytes/s carried
    std::vector<double> linkCapacity;        // per fabric port (out): bytes/s, 0 where no cable
    QStringList warnings;                    // link rates that were unknown, and what was assumed
    double seconds = 0;
};

// Fails when a flow names a port that is not an end port, or the routes exceed maxHops.
Result<FluidThroughput> fluidThroughput(const Fabric &fabric, const ForwardingTables &tables,
                                        const std::vector<FluidFlow> &flows, const Tenancy &tenancy = {},
                                        const FluidOptions &options = {});

// The `throughput` object of `weft metrics --json`: flows, undelivered_flows,
// total_bytes_per_s, normalized, min_flow_bytes_per_s, mean_flow_bytes_per_s,
// senders_bytes_per_s, bottleneck_links [{from, to, capacity_bytes_per_s, flows, share,
// rate_bytes_per_s}], tenants [{name, flows, bytes_per_s}], seconds.
QJsonObject fluidThroughputToJson(const Fabric &fabric, const FluidThroughput &result);
QString fluidThroughputToText(const Fabric &fabric, const FluidThroughput &result);

}  // namespace weft
