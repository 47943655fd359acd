#pragma once
// The second half of OpenSM's minhop and updn engines (osm_ucast_mgr.c): given hop counts per
// switch, destination switch and port, pick for every destination LID the least-hop port that
// carries the fewest routes so far. Both engines differ only in the hop counts they feed in.

#include "SwitchGraph.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace weft::routing {

// hops(target switch, switch, port) as OpenSM's per-switch hop matrices hold them: port 0
// holds the least count ever set for that target (OpenSM's convention), kNoPath where unknown.
class HopTable
{
public:
    explicit HopTable(const SwitchGraph &graph);

    std::uint8_t hops(int target, int sw, int port) const { return m_data[index(target, sw, port)]; }
    std::uint8_t least(int target, int sw) const { return m_data[index(target, sw, 0)]; }
    // Sets one port's count and lowers the least count if needed (osm_switch_set_hops).
    void set(int target, int sw, int port, std::uint8_t hops);
    void clear();

private:
    std::size_t index(int target, int sw, int port) const
    {
        return std::size_t(target) * m_slotsPerTarget + std::size_t(m_graph->switches[std::size_t(sw)].firstSlot + port);
    }
    const SwitchGraph *m_graph;
    std::size_t m_slotsPerTarget;
    std::vector<std::uint8_t> m_data;
};

// Exact least hop counts through every port (what osm_ucast_mgr_build_lid_matrices converges
// to with the default hop weight of 1).
void fillMinHopTable(const SwitchGraph &graph, HopTable &table);

// OpenSM's destination order for these engines: end ports of the switches with the most end
// ports first (a stable sort of switches in map order, then their ports in port order), then
// every other port (switches' port 0 and unattached end ports) in port-GUID map order.
struct Destination
{
    bool isSwitch = false;
    int index = -1;  // switch or end-port index
};
std::vector<Destination> openSmDestinationOrder(const SwitchGraph &graph);

// Fills one LFT per switch (indexed by switch, then LID). Returns false if progress cancelled.
bool buildLeastLoadedLfts(const SwitchGraph &graph, const HopTable &table,
                          const std::function<bool(int, int)> &progress,
                          std::vector<std::vector<std::uint8_t>> &lfts);

}  // namespace weft::routing
