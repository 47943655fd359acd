#include "FabricSummary.h"

#include <algorithm>

namespace weft {

std::vector<int> nodeTiers(const Fabric &fabric)
{
    std::vector<int> tier(fabric.nodes().size(), -1);
    std::vector<NodeIndex> frontier;
    // Every end node is tier 0, but only compute nodes make leaves: a service node on every
    // switch (SHArP) would otherwise make every switch a leaf.
    for (NodeIndex n : fabric.endNodes())
        tier[std::size_t(n)] = 0;
    frontier = fabric.computeNodes();
    // Breadth-first over switches only: an end node never forwards.
    std::vector<NodeIndex> next;
    for (int level = 1; !frontier.empty(); ++level) {
        next.clear();
        for (NodeIndex n : frontier) {
            const Node &node = fabric.node(n);
            for (int p = 1; p <= node.portCount; ++p) {
                const Port &port = fabric.port(node.firstPort + p);
                if (port.remote == kNoIndex)
                    continue;
                const NodeIndex peer = fabric.port(port.remote).node;
                if (tier[std::size_t(peer)] == -1 && fabric.node(peer).type == NodeType::Switch) {
                    tier[std::size_t(peer)] = level;
                    next.push_back(peer);
                }
            }
        }
        frontier.swap(next);
    }
    return tier;
}

FabricSummary summarize(const Fabric &fabric)
{
    FabricSummary s;
    s.switches = fabric.switches().size();
    s.channelAdapters = fabric.channelAdapterCount();
    s.routers = fabric.endNodes().size() - s.channelAdapters;
    s.links = fabric.links().size();
    for (const Link &l : fabric.links()) {
        const bool aSwitch = fabric.node(fabric.port(l.a).node).type == NodeType::Switch;
        const bool bSwitch = fabric.node(fabric.port(l.b).node).type == NodeType::Switch;
        if (aSwitch && bSwitch)
            ++s.switchLinks;
        else
            ++s.endNodeLinks;
        s.endPorts += std::size_t(!aSwitch) + std::size_t(!bSwitch);
    }
    const std::vector<int> tiers = nodeTiers(fabric);
    for (NodeIndex n : fabric.switches()) {
        const int t = tiers[std::size_t(n)];
        if (t < 1) {
            ++s.isolatedSwitches;
            continue;
        }
        if (std::size_t(t) > s.switchesPerTier.size())
            s.switchesPerTier.resize(std::size_t(t), 0);
        ++s.switchesPerTier[std::size_t(t - 1)];
    }
    s.tiers = int(s.switchesPerTier.size());
    for (const Port &p : fabric.ports()) {
        if (p.lid == 0)
            continue;
        ++s.lidsAssigned;
        s.minLid = s.minLid == 0 ? p.lid : std::min(s.minLid, p.lid);
    }
    s.maxLid = fabric.maxLid();
    for (NodeIndex n : fabric.endNodes()) {
        switch (fabric.node(n).role) {
        case NodeRole::Compute: ++s.computeNodes; break;
        case NodeRole::Service: ++s.serviceNodes; break;
        case NodeRole::IO: ++s.ioNodes; break;
        }
    }
    return s;
}

}  // namespace weft
