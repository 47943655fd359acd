#pragma once
// The switches of a fabric in groups an operator can take in at a glance, for the zoomed-out
// map: on a fat-tree of three tiers or more its pods (the switches below the top tier that
// reach each other without it: a pod's leaves and aggregation switches), and elsewhere (the top
// tier, trees of two tiers, anything without pods) bands of neighbouring switches of one tier.
// A pure function of the fabric and the order the bands are cut in.

#include "Fabric.h"

#include <cstdint>
#include <vector>

namespace weft {

struct SwitchGroups
{
    struct Group
    {
        enum class Kind : std::uint8_t { Pod,
                                         Band };
        Kind kind = Kind::Band;
        int lowestTier = 0;  // nodeTiers() of its switches; -1: no path to an end node
        int highestTier = 0;
        int ordinal = 0;                  // among the pods, or among the bands of its tier, from 0
        std::vector<NodeIndex> switches;  // in the order given (or index order)
    };
    std::vector<Group> groups;     // pods first, then bands by tier from the top down
    std::vector<int> groupOfNode;  // per NodeIndex; -1 for end nodes
};

// `order` lists the switches in the order bands are cut (the picture's rows, left to right);
// switches it leaves out follow in index order. A band holds about the square root of its tier's
// switch count (at least kMinBandSize), so a tier of n switches shows as about √n groups.
constexpr std::size_t kMinBandSize = 4;
SwitchGroups groupSwitches(const Fabric &fabric, const std::vector<NodeIndex> &order = {});

}  // namespace weft
