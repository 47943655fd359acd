#pragma once
// Where each node of a fabric is drawn: switches in rows by tier (roots on top, leaves at the
// bottom of the switch rows; tiers are hops from the compute nodes, so an irregular fabric is
// layered by its distance from the leaves) and the hosts of every leaf in a small grid, the
// leaf's "rack", right under it. A chassis (a director's spines and line cards: the switches of
// one ibnetdiscover -g group, or switches sharing a system image GUID) keeps its switches side
// by side in their rows, framed as one box. Service nodes (a SHArP Aggregation Node, a switch's
// management CA), and end nodes of switches above the leaves, are drawn small beside their
// switch, in no tier. Pure computation on an immutable Fabric, so it runs off the GUI thread,
// and deterministic: the same fabric always gets the same positions.

#include "Fabric.h"

#include <QPointF>
#include <QRectF>
#include <QString>

#include <vector>

namespace weft {

// Sizes in scene units, shared by the layout and the items that draw it.
namespace layoutmetrics {
constexpr double kSwitchWidth = 44;
constexpr double kSwitchHeight = 16;
constexpr double kHostWidth = 20;
constexpr double kHostHeight = 12;
constexpr double kHostPitchX = kHostWidth + 4;
constexpr double kHostPitchY = kHostHeight + 4;
constexpr double kRackPadding = 5;
constexpr double kBesideSize = 7;  // a service node beside its switch, square
constexpr double kBesideGap = 2;
constexpr double kChassisPadding = 10;
}  // namespace layoutmetrics

/** The positions of a fabric's nodes, and the grouping the scene draws. */
struct FabricLayout
{
    struct Rack
    {
        NodeIndex leaf = kNoIndex;    // the switch the hosts are cabled to
        std::vector<NodeIndex> hosts; // in the leaf's port order
        QRectF bounds;                // around the host boxes, padding included
    };

    struct Chassis
    {
        QString name;                    // what its switches' descriptions share ("sw-dir01:CS7500"), or the group's
        Guid guid = 0;                   // the chassis or system image GUID
        std::vector<NodeIndex> switches; // in row order, top row first
        QRectF bounds;                   // around its switches' boxes, padding included
    };

    std::vector<int> tiers;          // nodeTiers(): end nodes 0, leaves 1, ..., -1 isolated
    std::vector<QPointF> positions;  // centre of each node, indexed by NodeIndex
    std::vector<Rack> racks;         // one per leaf with end nodes, in leaf order
    std::vector<NodeIndex> unattached;  // end nodes cabled to no switch, right of the racks
    std::vector<NodeIndex> isolatedSwitches;  // no path to an end node, right of the leaves
    // For every tier t (0 = end nodes, then switch tiers up to topTier): the nodes of that row
    // from left to right, and the row's y (for the end nodes, the top of the racks).
    std::vector<std::vector<NodeIndex>> rows;
    std::vector<double> rowY;
    int topTier = 0;
    std::vector<Chassis> chassis;
    // Per node: the switch an end node is drawn beside (small, in no row), kNoIndex for the others.
    std::vector<NodeIndex> besideOf;
    std::vector<NodeIndex> beside;   // the end nodes drawn beside a switch, in index order
    QRectF bounds;                   // every node, with a margin

    QRectF nodeRect(const Fabric &fabric, NodeIndex node) const;
    bool isBeside(NodeIndex node) const
    {
        return std::size_t(node) < besideOf.size() && besideOf[std::size_t(node)] != kNoIndex;
    }
};

FabricLayout computeFabricLayout(const Fabric &fabric);

}  // namespace weft
