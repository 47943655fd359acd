#pragma once
// What a fabric holds, in the figures an operator asks for first: node and cable counts,
// switch tiers found, LID range. Shared by `weft info` and the GUI's status bar.

#include "Fabric.h"

#include <vector>

namespace weft {

// The tier of every node by hop distance from the compute nodes (Fabric::computeNodes; service
// and I/O nodes are tier 0 but make no leaf): end nodes 0, leaf switches 1,
// the switches above them 2, and so on (in a fat-tree the roots have the highest tier).
// Switches with no path to any end node get -1. Indexed by NodeIndex.
std::vector<int> nodeTiers(const Fabric &fabric);

struct FabricSummary
{
    std::size_t switches = 0;
    std::size_t channelAdapters = 0;
    std::size_t routers = 0;
    std::size_t links = 0;         // cables, each counted once
    std::size_t switchLinks = 0;   // cables between two switches
    std::size_t endNodeLinks = 0;  // cables with an end node on one side
    std::size_t endPorts = 0;      // cabled ports of end nodes
    int tiers = 0;                 // switch tiers found (2 for a two-level fat-tree)
    std::vector<std::size_t> switchesPerTier;  // index 0 = leaves
    std::size_t isolatedSwitches = 0;  // switches with no path to an end node
    Lid minLid = 0;                // 0 when no LIDs are assigned
    Lid maxLid = 0;
    std::size_t lidsAssigned = 0;  // ports with a LID (switch port 0 and end ports)
    std::size_t computeNodes = 0;  // end nodes by role (NodeRoles.h)
    std::size_t serviceNodes = 0;
    std::size_t ioNodes = 0;
};

FabricSummary summarize(const Fabric &fabric);

}  // namespace weft
