#include "FabricLayout.h"

#include "FabricSummary.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <utility>

namespace weft {

namespace {

using namespace layoutmetrics;

constexpr double kSwitchGap = 14;    // between switches of a crowded row
constexpr double kSlotGap = 18;      // between the racks of neighbouring leaves
constexpr double kHostDrop = 56;     // from a leaf's centre down to the top of its rack
constexpr double kMinTierGap = 110;
constexpr double kMargin = 40;
constexpr int kUnattachedColumns = 8;

// The switches cabled to `node` whose tier is `tier`, each once, in index order.
std::vector<NodeIndex> neighboursInTier(const Fabric &fabric, const std::vector<int> &tiers,
                                        NodeIndex node, int tier)
{
    std::vector<NodeIndex> result;
    const Node &n = fabric.node(node);
    for (int p = 1; p <= n.portCount; ++p) {
        const Port &port = fabric.port(n.firstPort + p);
        if (port.remote == kNoIndex)
            continue;
        const NodeIndex peer = fabric.port(port.remote).node;
        if (tiers[std::size_t(peer)] == tier)
            result.push_back(peer);
    }
    std::sort(result.begin(), result.end());
    result.erase(std::unique(result.begin(), result.end()), result.end());
    return result;
}

// Leaves that share their parents (the leaves of one pod of a fat-tree) go side by side, so that
// the cables up to those parents stay within one band instead of crossing the whole picture.
void orderLeaves(const Fabric &fabric, const std::vector<int> &tiers, std::vector<NodeIndex> &leaves)
{
    std::vector<std::pair<std::vector<NodeIndex>, NodeIndex>> keyed;
    keyed.reserve(leaves.size());
    for (NodeIndex leaf : leaves)
        keyed.emplace_back(neighboursInTier(fabric, tiers, leaf, 2), leaf);
    std::sort(keyed.begin(), keyed.end());
    for (std::size_t i = 0; i < leaves.size(); ++i)
        leaves[i] = keyed[i].second;
}

// Barycentre ordering, one sweep from the leaves up: a switch sits above the mean position of
// the switches it serves below. Ties (all roots of a two-level tree) keep discovery order.
void orderByChildren(const Fabric &fabric, const std::vector<int> &tiers,
                     const std::vector<double> &rankBelow, int tier, std::vector<NodeIndex> &row)
{
    std::vector<std::pair<double, NodeIndex>> keyed;
    keyed.reserve(row.size());
    for (NodeIndex n : row) {
        const std::vector<NodeIndex> children = neighboursInTier(fabric, tiers, n, tier - 1);
        double sum = 0;
        for (NodeIndex c : children)
            sum += rankBelow[std::size_t(c)];
        keyed.emplace_back(children.empty() ? 0.0 : sum / double(children.size()), n);
    }
    std::sort(keyed.begin(), keyed.end());
    for (std::size_t i = 0; i < row.size(); ++i)
        row[i] = keyed[i].second;
}

// What the descriptions of a chassis's switches share, as an operator names the chassis:
// "MF0;sw-dir01:CS7500/S01/U1" and "MF0;sw-dir01:CS7500/L05/U2" give "sw-dir01:CS7500". Empty
// when they share nothing worth showing.
QString chassisNameFromDescriptions(const Fabric &fabric, const std::vector<NodeIndex> &switches)
{
    QString common = fabric.node(switches.front()).description;
    for (NodeIndex n : switches) {
        const QString &d = fabric.node(n).description;
        int i = 0;
        while (i < common.size() && i < d.size() && common[i] == d[i])
            ++i;
        common.truncate(i);
    }
    // Cut back to a whole word: "…CS7500/S0" and "…CS7500/L1" share "…CS7500/".
    if (common.size() < fabric.node(switches.front()).description.size()) {
        int cut = common.size();
        while (cut > 0 && common[cut - 1].isLetterOrNumber())
            --cut;
        common.truncate(cut);
    }
    while (!common.isEmpty() && (common.back().isSpace() || common.back() == QLatin1Char('/') || common.back() == QLatin1Char(':')
                                 || common.back() == QLatin1Char('-') || common.back() == QLatin1Char('(')))
        common.chop(1);
    const int semicolon = common.indexOf(QLatin1Char(';'));  // NVIDIA's "MF0;" prefix
    if (semicolon >= 0 && semicolon <= 4)
        common = common.mid(semicolon + 1);
    return common.size() >= 3 ? common : QString();
}

// A director's switches: those of one ibnetdiscover -g chassis, or, without groups, switches
// sharing a system image GUID (spine and line-card ASICs report the chassis's). Two switches or
// more, each reaching an end node (isolated switches stand apart).
std::vector<FabricLayout::Chassis> findLayoutChassis(const Fabric &fabric, const std::vector<int> &tiers)
{
    std::vector<FabricLayout::Chassis> result;
    std::vector<char> taken(fabric.nodes().size(), 0);
    auto add = [&](std::vector<NodeIndex> members, Guid guid, const QString &fallbackName) {
        if (members.size() < 2)
            return;
        FabricLayout::Chassis c;
        c.guid = guid;
        c.switches = std::move(members);
        for (NodeIndex n : c.switches)
            taken[std::size_t(n)] = 1;
        c.name = chassisNameFromDescriptions(fabric, c.switches);
        if (c.name.isEmpty())
            c.name = fallbackName;
        result.push_back(std::move(c));
    };
    auto eligible = [&](NodeIndex n) {
        return fabric.node(n).type == NodeType::Switch && tiers[std::size_t(n)] >= 1 && !taken[std::size_t(n)];
    };
    for (const NodeGroup &group : fabric.nodeGroups()) {
        std::vector<NodeIndex> members;
        for (NodeIndex n : group.nodes)
            if (eligible(n))
                members.push_back(n);
        add(std::move(members), group.guid, group.name);
    }
    std::map<Guid, std::vector<NodeIndex>> bySystem;
    for (NodeIndex n : fabric.switches())
        if (eligible(n) && fabric.node(n).systemImageGuid != 0)
            bySystem[fabric.node(n).systemImageGuid].push_back(n);
    for (auto &[guid, members] : bySystem)
        add(std::move(members), guid, QStringLiteral("0x%1").arg(guid, 16, 16, QLatin1Char('0')));
    return result;
}

// The switches of one chassis side by side in `row`, where their mean position was, in the
// order of their descriptions (a director's "L01/U1", "L01/U2", "L02/U1", ...).
void keepChassisTogetherInRow(const Fabric &fabric, const std::vector<int> &chassisOf, std::vector<NodeIndex> &row)
{
    std::map<int, std::pair<double, int>> sums;
    for (std::size_t i = 0; i < row.size(); ++i) {
        const int c = chassisOf[std::size_t(row[i])];
        if (c >= 0) {
            sums[c].first += double(i);
            ++sums[c].second;
        }
    }
    if (sums.empty())
        return;
    std::vector<std::tuple<double, int, QString, std::size_t, NodeIndex>> keyed;
    keyed.reserve(row.size());
    for (std::size_t i = 0; i < row.size(); ++i) {
        const NodeIndex n = row[i];
        const int c = chassisOf[std::size_t(n)];
        if (c < 0)
            keyed.emplace_back(double(i), -1, QString(), i, n);
        else
            keyed.emplace_back(sums[c].first / sums[c].second, c, fabric.node(n).description, i, n);
    }
    std::sort(keyed.begin(), keyed.end());
    for (std::size_t i = 0; i < row.size(); ++i)
        row[i] = std::get<4>(keyed[i]);
}

}  // namespace

QRectF FabricLayout::nodeRect(const Fabric &fabric, NodeIndex node) const
{
    const QPointF c = positions[std::size_t(node)];
    if (isBeside(node))
        return QRectF(c.x() - kBesideSize / 2, c.y() - kBesideSize / 2, kBesideSize, kBesideSize);
    const bool isSwitch = fabric.node(node).type == NodeType::Switch;
    const double w = isSwitch ? kSwitchWidth : kHostWidth;
    const double h = isSwitch ? kSwitchHeight : kHostHeight;
    return QRectF(c.x() - w / 2, c.y() - h / 2, w, h);
}

FabricLayout computeFabricLayout(const Fabric &fabric)
{
    FabricLayout layout;
    const std::size_t nodeCount = fabric.nodes().size();
    layout.tiers = nodeTiers(fabric);
    layout.positions.assign(nodeCount, QPointF());
    const std::vector<int> &tiers = layout.tiers;

    for (NodeIndex n : fabric.switches())
        layout.topTier = std::max(layout.topTier, tiers[std::size_t(n)]);
    layout.rows.resize(std::size_t(layout.topTier) + 1);
    for (NodeIndex n : fabric.switches()) {
        const int t = tiers[std::size_t(n)];
        if (t >= 1)
            layout.rows[std::size_t(t)].push_back(n);
        else
            layout.isolatedSwitches.push_back(n);
    }

    // Every end node hangs under the switch its first cabled port reaches, in that switch's
    // port order; end nodes cabled to no switch go to one side. Service nodes, and end nodes of
    // a switch above the leaves, are drawn beside their switch instead.
    std::vector<std::vector<std::pair<int, NodeIndex>>> hostsOfLeaf(nodeCount);
    std::vector<std::vector<std::pair<int, NodeIndex>>> besideSwitch(nodeCount);
    layout.besideOf.assign(nodeCount, kNoIndex);
    for (NodeIndex n : fabric.endNodes()) {
        const Node &node = fabric.node(n);
        bool attached = false;
        for (int p = 1; p <= node.portCount && !attached; ++p) {
            const Port &port = fabric.port(node.firstPort + p);
            if (port.remote == kNoIndex)
                continue;
            const Port &remote = fabric.port(port.remote);
            if (fabric.node(remote.node).type != NodeType::Switch)
                continue;
            if (node.role == NodeRole::Service || tiers[std::size_t(remote.node)] != 1) {
                besideSwitch[std::size_t(remote.node)].emplace_back(remote.number, n);
                layout.besideOf[std::size_t(n)] = remote.node;
                layout.beside.push_back(n);
            } else {
                hostsOfLeaf[std::size_t(remote.node)].emplace_back(remote.number, n);
            }
            attached = true;
        }
        if (!attached)
            layout.unattached.push_back(n);
    }

    layout.chassis = findLayoutChassis(fabric, tiers);
    std::vector<int> chassisOf(nodeCount, -1);
    for (std::size_t c = 0; c < layout.chassis.size(); ++c)
        for (NodeIndex n : layout.chassis[c].switches)
            chassisOf[std::size_t(n)] = int(c);

    if (layout.topTier >= 1)
        orderLeaves(fabric, tiers, layout.rows[1]);
    std::vector<double> rank(nodeCount, 0.0);
    for (int t = 1; t <= layout.topTier; ++t) {
        std::vector<NodeIndex> &row = layout.rows[std::size_t(t)];
        if (t >= 2)
            orderByChildren(fabric, tiers, rank, t, row);
        if (!layout.chassis.empty())
            keepChassisTogetherInRow(fabric, chassisOf, row);
        for (std::size_t i = 0; i < row.size(); ++i)
            rank[std::size_t(row[i])] = (double(i) + 0.5) / double(row.size());
    }

    // Racks: a grid a little taller than wide, the same for every leaf so the leaves line up.
    std::size_t mostHosts = 0;
    for (const auto &hosts : hostsOfLeaf)
        mostHosts = std::max(mostHosts, hosts.size());
    const int columns = mostHosts == 0 ? 0
                                       : std::clamp(int(std::ceil(std::sqrt(double(mostHosts) / 2.0))), 1,
                                                    int(mostHosts));
    const double slotWidth = std::max(columns * kHostPitchX, kSwitchWidth) + kSlotGap;
    const double switchPitch = kSwitchWidth + kSwitchGap;

    const std::size_t leafCount = layout.topTier >= 1 ? layout.rows[1].size() : 0;
    double width = double(leafCount) * slotWidth;
    for (int t = 2; t <= layout.topTier; ++t)
        width = std::max(width, double(layout.rows[std::size_t(t)].size()) * switchPitch);
    const double sideWidth =
        double(layout.isolatedSwitches.size()) * switchPitch
        + double(std::min<std::size_t>(layout.unattached.size(), kUnattachedColumns)) * kHostPitchX;
    if (width <= 0 && sideWidth <= 0)
        width = switchPitch;

    // Cables between tiers fan out over the whole width; rows far enough apart keep their
    // angles readable, without making a big fabric a tall thin strip either.
    const double tierGap = std::max(kMinTierGap, width / (3.0 * std::max(1, layout.topTier - 1)));
    layout.rowY.assign(std::size_t(layout.topTier) + 1, 0.0);
    for (int t = layout.topTier; t >= 1; --t)
        layout.rowY[std::size_t(t)] = double(layout.topTier - t) * tierGap;
    const double leafY = layout.topTier >= 1 ? layout.rowY[1] : 0.0;
    const double rackTop = layout.topTier >= 1 ? leafY + kHostDrop : 0.0;
    layout.rowY[0] = rackTop;

    for (int t = 1; t <= layout.topTier; ++t) {
        const std::vector<NodeIndex> &row = layout.rows[std::size_t(t)];
        const double pitch = width / double(row.size());
        for (std::size_t i = 0; i < row.size(); ++i)
            layout.positions[std::size_t(row[i])] = QPointF((double(i) + 0.5) * pitch, layout.rowY[std::size_t(t)]);
    }

    std::vector<NodeIndex> &hostRow = layout.rows[0];
    const double hostTop = rackTop + kRackPadding + kHostHeight / 2;
    for (std::size_t leafSlot = 0; leafSlot < leafCount; ++leafSlot) {
        const NodeIndex leaf = layout.rows[1][leafSlot];
        auto &hosts = hostsOfLeaf[std::size_t(leaf)];
        if (hosts.empty())
            continue;
        std::sort(hosts.begin(), hosts.end());
        FabricLayout::Rack rack;
        rack.leaf = leaf;
        const double centreX = layout.positions[std::size_t(leaf)].x();
        const int rackColumns = std::min(columns, int(hosts.size()));
        const double left = centreX - (rackColumns - 1) * kHostPitchX / 2;
        for (std::size_t i = 0; i < hosts.size(); ++i) {
            const NodeIndex host = hosts[i].second;
            const int col = int(i) % rackColumns;
            const int rowInRack = int(i) / rackColumns;
            layout.positions[std::size_t(host)] = QPointF(left + col * kHostPitchX, hostTop + rowInRack * kHostPitchY);
            rack.hosts.push_back(host);
            hostRow.push_back(host);
        }
        const int rackRows = int((hosts.size() + std::size_t(rackColumns) - 1) / std::size_t(rackColumns));
        rack.bounds = QRectF(left - kHostWidth / 2 - kRackPadding, rackTop,
                             (rackColumns - 1) * kHostPitchX + kHostWidth + 2 * kRackPadding,
                             (rackRows - 1) * kHostPitchY + kHostHeight + 2 * kRackPadding);
        layout.racks.push_back(std::move(rack));
    }

    double sideX = width + switchPitch;
    for (NodeIndex n : layout.isolatedSwitches) {
        layout.positions[std::size_t(n)] = QPointF(sideX, leafY);
        sideX += switchPitch;
    }
    for (std::size_t i = 0; i < layout.unattached.size(); ++i) {
        const NodeIndex n = layout.unattached[i];
        layout.positions[std::size_t(n)] =
            QPointF(sideX + double(i % kUnattachedColumns) * kHostPitchX,
                    hostTop + double(i / kUnattachedColumns) * kHostPitchY);
        hostRow.push_back(n);
    }

    // Beside its switch, to the right: two a column, columns outwards.
    for (NodeIndex sw : fabric.switches()) {
        auto &nodes = besideSwitch[std::size_t(sw)];
        std::sort(nodes.begin(), nodes.end());
        const QPointF at = layout.positions[std::size_t(sw)];
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            const double x = at.x() + kSwitchWidth / 2 + kBesideGap + kBesideSize / 2 + double(i / 2) * (kBesideSize + kBesideGap);
            const double y = at.y() + (i % 2 == 0 ? -1 : 1) * (kBesideSize + kBesideGap) / 2;
            layout.positions[std::size_t(nodes[i].second)] = QPointF(x, nodes.size() == 1 ? at.y() : y);
        }
    }
    std::sort(layout.beside.begin(), layout.beside.end());

    // A chassis, with its switches in their rows top first, framed around them and their
    // service nodes.
    for (FabricLayout::Chassis &c : layout.chassis) {
        std::stable_sort(c.switches.begin(), c.switches.end(), [&](NodeIndex a, NodeIndex b) {
            const int ta = tiers[std::size_t(a)];
            const int tb = tiers[std::size_t(b)];
            if (ta != tb)
                return ta > tb;
            return layout.positions[std::size_t(a)].x() < layout.positions[std::size_t(b)].x();
        });
        QRectF box;
        for (NodeIndex n : c.switches) {
            box |= layout.nodeRect(fabric, n);
            for (const auto &b : besideSwitch[std::size_t(n)])
                box |= layout.nodeRect(fabric, b.second);
        }
        c.bounds = box.adjusted(-kChassisPadding, -kChassisPadding, kChassisPadding, kChassisPadding);
    }

    QRectF bounds;
    for (std::size_t n = 0; n < nodeCount; ++n)
        bounds |= layout.nodeRect(fabric, NodeIndex(n));
    for (const FabricLayout::Chassis &c : layout.chassis)
        bounds |= c.bounds;
    for (const FabricLayout::Rack &rack : layout.racks)
        bounds |= rack.bounds;
    layout.bounds = bounds.adjusted(-kMargin, -kMargin, kMargin, kMargin);
    return layout;
}

}  // namespace weft
