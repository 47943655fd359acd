#pragma once
// What a routing leaves undelivered, as warnings every front end gives the same way: `weft
// route`, the desk's preview and the OpenSM plugin's log. Unreachable pairs of end ports (every
// ordered pair, those that share a partition and those that do not, since management traffic
// needs them all), forwarding loops and a credit loop, each with its count and a few examples.
// Built on validateRouting (Validation.h).

#include "Fabric.h"
#include "ForwardingTables.h"
#include "Tenancy.h"
#include "TrafficModel.h"

#include <QStringList>

#include <cstdint>

namespace weft {

struct DeliveryCheck
{
    std::size_t endPorts = 0;
    std::uint64_t pairs = 0;             // ordered pairs of distinct end ports
    std::uint64_t unreachablePairs = 0;  // of those, pairs whose packets do not arrive
    // Of those, pairs of two service nodes (SHArP Aggregation Nodes, management CAs inside
    // switches): on a fat-tree routed up*/down*, two on switches of different branches have no
    // legal path (every path between them goes down, then up). Still counted above, and still
    // refused by --strict; the warning says which they are.
    std::uint64_t unreachableServicePairs = 0;
    std::size_t loops = 0;               // distinct forwarding loops
    bool creditLoop = false;             // the channel dependency graph has a cycle
    QStringList unreachableExamples;
    QStringList loopExamples;
    QStringList creditLoopChannels;  // one cycle, channel by channel

    // Nothing unreachable and no forwarding loop (what `--strict` requires).
    bool delivers() const { return unreachablePairs == 0 && loops == 0; }
    // One line per kind found, with its count and examples; empty when there is none.
    QStringList warnings() const;
};

struct ValidationResult;
// The same from a validation already made (evaluateRouting's, the desk's preview).
DeliveryCheck deliveryCheckOf(const ValidationResult &validation, int examples = 3);

DeliveryCheck checkDelivery(const Fabric &fabric, const Tenancy &tenancy, const ForwardingTables &tables,
                            const LaneAssignment &lanes = {}, int examples = 3);

}  // namespace weft
