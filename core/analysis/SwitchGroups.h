#pragma once
// The switches of a fabric in groups an operator can take in at a glance, for the zoomed-out
// map: each chassis given (a director's spines and line cards) one group; on a fat-tree of three
// tiers or more its pods (the switches below the top tier, outside a chassis, that reach each
// other without it: a pod's leaves and aggregation switches), and elsewhere (the top tier,
// trees of two tiers, anything without pods) bands of neighbouring switches of one tier.
// A pure function of the fabric, the order the bands are cut in and the chassis.

#include "Fabric.h"

#include <cstdint>
#include <vector>

namespace weft {

struct SwitchGroups
{
    struct Group
    {
        enum class Kind : std::uint8_t { Pod,
                                         Band,
                                         Chassis };
        Kind kind = Kind::Band;
        int lowestTier = 0;  // nodeTiers() of its switches; -1: no path to an end node
        int highestTier = 0;
        int ordinal = 0;                  // among the chassis, the pods, or the bands of its tier, from 0
        std::vector<NodeIndex> switches;  // in the order given (or index order)
    };
    std::vector<Group> groups;     // chassis first, then pods, then bands by tier from the top down
    std::vector<int> groupOfNode;  // per NodeIndex; -1 for end nodes
};

// `order` lists the switches in the order bands are cut (the picture's rows, left to right);
// switches it leaves out follow in index order. A band holds about the square root of its tier's
// switch count (at least kMinBandSize), so a tier of n switches shows as about √n groups.
// `chassis` lists switches that are one group each (a switch in two: the first); pods are then
// found among the others, and only where some pod holds two switches or more.
constexpr std::size_t kMinBandSize = 4;
SwitchGroups groupSwitches(const Fabric &fabric, const std::vector<NodeIndex> &order = {},
                           const std::vector<std::vector<NodeIndex>> &chassis = {});

}  // namespace weft
