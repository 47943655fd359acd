#pragma once
// How a routing spreads traffic, computed from the fabric, the tenancy and the forwarding tables
// alone (spec 000 §4), so OpenSM's tables and Weft's proposals are measured the same way.
//
// Per directed link (HCA links included):
// - routes: destinations whose route, from any end port, crosses the link (spec 000 §4.1, the
//   counters OpenSM's ftree balances), and weightedRoutes, the same with each destination
//   counted by its node weight;
// - flows and load under a traffic model (TrafficModel.h): flows of the model crossing the link,
//   and their sum of destination weights.
// Balance per tier (links between the same two levels, in the same direction). Partition sharing
// (§4.3), total inter-partition interference I and I₂ (§4.4) and contention towards receivers
// (§4.5) over directed switch-to-switch links. Receivers are the end ports whose weight exceeds
// 1, the default. Deterministic: the same input and seed give the same figures.

#include "Fabric.h"
#include "ForwardingTables.h"
#include "Tenancy.h"
#include "TrafficModel.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace weft {

struct LinkLoad
{
    PortIndex from = kNoIndex;  // out port
    PortIndex to = kNoIndex;    // the port at the other end
    int fromLevel = 0;          // nodeLevels(): 0 end nodes, 1 leaves, ...
    int toLevel = 0;
    std::uint64_t routes = 0;
    double weightedRoutes = 0;
    std::uint64_t flows = 0;
    double load = 0;
    std::vector<int> partitions;  // P(ℓ) for switch-to-switch links: indices into Metrics::partitions
};

struct Statistics
{
    double max = 0;
    double min = 0;
    double mean = 0;
    double stddev = 0;  // population
};

struct TierBalance
{
    int fromLevel = 0;
    int toLevel = 0;
    QString name;  // "1->2 up", "2->1 down", "0->1 up"
    std::size_t links = 0;
    Statistics routes;
    Statistics weightedRoutes;
    Statistics flows;
    Statistics load;
};

struct PartitionSharing
{
    QString name;
    std::uint16_t pkey = 0;
    IsolationPolicy policy = IsolationPolicy::Default;
    std::size_t members = 0;
    std::size_t linksUsed = 0;    // directed switch-to-switch links its flows cross
    std::size_t sharedLinks = 0;  // of those, links with another partition
    std::uint64_t flows = 0;      // its intra-partition flow crossings, summed over links
};

struct ReceiverContention
{
    std::size_t receivers = 0;
    std::uint64_t totalDown = 0;      // Σ max(0, R(ℓ) - 1) over down links
    std::uint64_t totalUp = 0;
    std::size_t contendedDown = 0;    // links with R(ℓ) >= 2
    std::size_t contendedUp = 0;
};

struct Metrics
{
    TrafficModel model;
    std::size_t endPorts = 0;
    std::uint64_t modelFlows = 0;       // flows of the model (pairs), arriving or not
    std::uint64_t undeliveredFlows = 0; // of those, flows whose packets do not arrive
    std::vector<LinkLoad> links;        // every cabled directed link, by out port
    std::vector<TierBalance> tiers;     // sorted by (fromLevel, toLevel)
    Statistics allRoutes;               // over all switch-to-switch links
    Statistics allLoad;
    std::vector<PartitionSharing> partitions;  // the default partition excluded
    std::size_t sharedLinks = 0;             // switch-to-switch directed links with |P(ℓ)| >= 2
    std::size_t sharedLinksUp = 0;
    std::size_t sharedLinksDown = 0;
    std::uint64_t interference = 0;          // I, spec 000 §4.4
    std::uint64_t interferencePairwise = 0;  // I₂
    ReceiverContention contention;
};

// `threads`: the threads the destinations are shared among; 0, the machine's cores (at most 4).
// The figures are the same with any number (one thread where node weights would make sums
// depend on their order).
Metrics computeMetrics(const Fabric &fabric, const Tenancy &tenancy, const ForwardingTables &tables,
                       const TrafficModel &model = {}, int threads = 0);

}  // namespace weft
