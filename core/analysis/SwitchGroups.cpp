#include "SwitchGroups.h"

#include "FabricSummary.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace weft {

SwitchGroups groupSwitches(const Fabric &fabric, const std::vector<NodeIndex> &order,
                           const std::vector<std::vector<NodeIndex>> &chassis)
{
    SwitchGroups result;
    result.groupOfNode.assign(fabric.nodes().size(), -1);
    const std::vector<int> tiers = nodeTiers(fabric);

    // The switches in the order given, then the rest in index order.
    std::vector<NodeIndex> sequence;
    std::vector<char> listed(fabric.nodes().size(), 0);
    for (NodeIndex n : order)
        if (n >= 0 && std::size_t(n) < listed.size() && fabric.node(n).type == NodeType::Switch && !listed[std::size_t(n)]) {
            listed[std::size_t(n)] = 1;
            sequence.push_back(n);
        }
    for (NodeIndex n : fabric.switches())
        if (!listed[std::size_t(n)])
            sequence.push_back(n);
    int topTier = 0;
    for (NodeIndex n : sequence)
        topTier = std::max(topTier, tiers[std::size_t(n)]);

    // Each chassis one group, its switches in the order given.
    std::vector<int> chassisOf(fabric.nodes().size(), -1);
    for (std::size_t c = 0; c < chassis.size(); ++c)
        for (NodeIndex n : chassis[c])
            if (n >= 0 && std::size_t(n) < chassisOf.size() && fabric.node(n).type == NodeType::Switch
                && chassisOf[std::size_t(n)] < 0)
                chassisOf[std::size_t(n)] = int(c);
    std::vector<int> chassisGroup(chassis.size(), -1);
    for (NodeIndex n : sequence) {
        const int c = chassisOf[std::size_t(n)];
        if (c < 0)
            continue;
        if (chassisGroup[std::size_t(c)] < 0) {
            chassisGroup[std::size_t(c)] = int(result.groups.size());
            SwitchGroups::Group g;
            g.kind = SwitchGroups::Group::Kind::Chassis;
            g.ordinal = int(result.groups.size());
            g.lowestTier = tiers[std::size_t(n)];
            g.highestTier = tiers[std::size_t(n)];
            result.groups.push_back(std::move(g));
        }
        SwitchGroups::Group &g = result.groups[std::size_t(chassisGroup[std::size_t(c)])];
        g.switches.push_back(n);
        g.lowestTier = std::min(g.lowestTier, tiers[std::size_t(n)]);
        g.highestTier = std::max(g.highestTier, tiers[std::size_t(n)]);
        result.groupOfNode[std::size_t(n)] = chassisGroup[std::size_t(c)];
    }
    const int firstPod = int(result.groups.size());

    // Pods: components of the switches below the top tier, over cables among them. A tree of
    // two tiers has none worth the name (each leaf would be its own), nor has a fabric whose
    // lower tiers hang together in one piece.
    std::vector<int> component(fabric.nodes().size(), -1);
    int components = 0;
    if (topTier >= 3) {
        const auto inPodTiers = [&](NodeIndex n) {
            const int t = tiers[std::size_t(n)];
            return fabric.node(n).type == NodeType::Switch && t >= 1 && t < topTier && chassisOf[std::size_t(n)] < 0;
        };
        std::vector<NodeIndex> stack;
        for (NodeIndex start : sequence) {
            if (!inPodTiers(start) || component[std::size_t(start)] >= 0)
                continue;
            component[std::size_t(start)] = components;
            stack.push_back(start);
            while (!stack.empty()) {
                const NodeIndex n = stack.back();
                stack.pop_back();
                const Node &node = fabric.node(n);
                for (int p = 1; p <= node.portCount; ++p) {
                    const PortIndex remote = fabric.port(node.firstPort + p).remote;
                    if (remote == kNoIndex)
                        continue;
                    const NodeIndex peer = fabric.port(remote).node;
                    if (inPodTiers(peer) && component[std::size_t(peer)] < 0) {
                        component[std::size_t(peer)] = components;
                        stack.push_back(peer);
                    }
                }
            }
            ++components;
        }
    }
    // Under a chassis, the edge switches may each be a component of their own: no pods then.
    std::size_t inComponents = 0;
    for (NodeIndex n : sequence)
        inComponents += component[std::size_t(n)] >= 0 ? 1 : 0;
    const bool pods = components >= 2 && std::size_t(components) < inComponents;
    if (pods) {
        result.groups.resize(std::size_t(firstPod + components));
        for (int c = 0; c < components; ++c) {
            SwitchGroups::Group &g = result.groups[std::size_t(firstPod + c)];
            g.kind = SwitchGroups::Group::Kind::Pod;
            g.ordinal = c;
            g.lowestTier = topTier;
            g.highestTier = 0;
        }
        for (NodeIndex n : sequence) {
            const int c = component[std::size_t(n)];
            if (c < 0)
                continue;
            SwitchGroups::Group &g = result.groups[std::size_t(firstPod + c)];
            g.switches.push_back(n);
            g.lowestTier = std::min(g.lowestTier, tiers[std::size_t(n)]);
            g.highestTier = std::max(g.highestTier, tiers[std::size_t(n)]);
            result.groupOfNode[std::size_t(n)] = firstPod + c;
        }
    }

    // Bands: what no pod holds, tier by tier from the top, cut in runs of about √n.
    std::map<int, std::vector<NodeIndex>, std::greater<>> byTier;
    for (NodeIndex n : sequence)
        if (result.groupOfNode[std::size_t(n)] < 0)
            byTier[tiers[std::size_t(n)]].push_back(n);
    for (const auto &[tier, switches] : byTier) {
        const std::size_t size = std::max(kMinBandSize, std::size_t(std::ceil(std::sqrt(double(switches.size())))));
        for (std::size_t first = 0; first < switches.size(); first += size) {
            SwitchGroups::Group g;
            g.kind = SwitchGroups::Group::Kind::Band;
            g.lowestTier = g.highestTier = tier;
            g.ordinal = int(first / size);
            g.switches.assign(switches.begin() + std::ptrdiff_t(first),
                              switches.begin() + std::ptrdiff_t(std::min(switches.size(), first + size)));
            for (NodeIndex n : g.switches)
                result.groupOfNode[std::size_t(n)] = int(result.groups.size());
            result.groups.push_back(std::move(g));
        }
    }
    return result;
}

}  // namespace weft
