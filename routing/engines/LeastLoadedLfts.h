#pragma once
// The second half of OpenSM's minhop and updn engines (osm_ucast_mgr.c): given, per switch and
// destination switch, the ports with the least hop count, pick for every destination LID the
// one that carries the fewest routes so far. Both engines differ only in the hop counts they
// feed in.
//
// Each switch's choices depend on its own port loads only, so switches are filled
// independently, on several threads, with the same tables for any thread count.

#include "SwitchGraph.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace weft::routing {

// Progress as RoutingOptions::progress reports it: work done out of total; false cancels.
using ProgressFunction = std::function<bool(int done, int total)>;

// Runs body(worker, item) for every item in 0..count-1 on `threads` threads (0: one per hardware
// thread; workerCount() tells how many, so that callers can give each worker its scratch). The
// calling thread is one of the workers, and the only one that calls `progress` (items done so
// far, count). Returns false when `progress` cancelled; items not started then are skipped.
int workerCount(int threads);
bool forEachInParallel(int count, int threads, const ProgressFunction &progress,
                       const std::function<void(int worker, int item)> &body);
// `progress` for part `part` (0-based) of `parts` equal parts of a run, in 10,000ths of a part.
ProgressFunction progressPart(const ProgressFunction &progress, int part, int parts);

// The hop counts of every switch port towards one target switch, as OpenSM's per-switch hop
// matrices hold them: port 0 holds the least count ever set (OpenSM's convention), kNoPath
// where unknown. One target at a time: a scratch row per worker.
class HopRow
{
public:
    explicit HopRow(const SwitchGraph &graph);

    std::uint8_t hops(int sw, int port) const { return m_data[index(sw, port)]; }
    std::uint8_t least(int sw) const { return m_data[index(sw, 0)]; }
    // Sets one port's count and lowers the least count if needed (osm_switch_set_hops).
    void set(int sw, int port, std::uint8_t hops) { setSlot(index(sw, port), index(sw, 0), hops); }
    void clear();

    // The same by slot (SwitchGraph::slots), for searches that keep slot numbers at hand.
    std::uint8_t slot(int slot) const { return m_data[std::size_t(slot)]; }
    const std::uint8_t *counts() const { return m_data.data(); }
    std::uint8_t *counts() { return m_data.data(); }
    void setSlot(int slot, int leastSlot, std::uint8_t hops)
    {
        m_data[std::size_t(slot)] = hops;
        std::uint8_t &least = m_data[std::size_t(leastSlot)];
        if (least > hops)
            least = hops;
    }

private:
    int index(int sw, int port) const { return m_graph->switches[std::size_t(sw)].firstSlot + port; }
    const SwitchGraph *m_graph;
    std::vector<std::uint8_t> m_data;
};

// Per (switch, target switch): the ports whose hop count towards the target is the switch's
// least (OpenSM's candidates in osm_switch_recommend_path), as a bit mask of words() 64-bit
// words (bit p for port p). An empty mask means no path. Stored by switch, then target.
class LeastHopPorts
{
public:
    explicit LeastHopPorts(const SwitchGraph &graph);

    int words() const { return m_words; }
    const std::uint64_t *mask(int sw, int target) const { return m_bits.get() + offset(sw, target); }
    std::uint64_t *mask(int sw, int target) { return m_bits.get() + offset(sw, target); }
    bool empty(int sw, int target) const;
    // Sets the masks towards `target` from that target's hop counts.
    void store(int target, const HopRow &row);

private:
    std::size_t offset(int sw, int target) const
    {
        return (std::size_t(sw) * m_switches + std::size_t(target)) * std::size_t(m_words);
    }
    const SwitchGraph *m_graph;
    std::size_t m_switches;
    int m_words;
    std::vector<std::uint64_t> m_cabled;      // per switch: the ports with something at the far end
    std::unique_ptr<std::uint64_t[]> m_bits;  // every mask is written once before it is read
};

// Exact least hop counts, what osm_ucast_mgr_build_lid_matrices converges to with the default
// hop weight of 1, computed one target switch at a time by a breadth-first search.
class MinHopSearch
{
public:
    explicit MinHopSearch(const SwitchGraph &graph);

    // Least hop count of every switch towards `target` (0 for the target, kNoPath where none).
    const std::vector<std::uint8_t> &run(int target);
    // The least-hop ports towards the target of the last run().
    void storeMasks(LeastHopPorts &ports) const;

    // Whether every cable is known from both ends (as in any fabric read whole). Then hop
    // counts are symmetric: a port's count towards a target is its neighbour's distance from
    // the target plus one, and run(target) holds the distances from the target.
    bool symmetric() const { return m_symmetric; }
    // With symmetric(): the least-hop ports of switch `sw` towards every target, from the
    // distances between all switches (row per switch, as run() returns them).
    void storeMasksOf(int sw, const std::uint8_t *distances, LeastHopPorts &ports) const;

private:
    std::vector<int> m_linkStart;  // per switch, into m_links; one past the end at n
    struct Link
    {
        int remote;
        int port;
    };
    std::vector<Link> m_links;  // switch-to-switch cables, loopbacks left out
    bool m_symmetric = true;
    int m_target = -1;
    std::vector<int> m_distance;
    std::vector<int> m_queue;
    std::vector<std::uint8_t> m_least;
};

// Least-hop ports of every switch towards every switch, by MinHopSearch on `threads` threads.
// Returns false if `progress` cancelled.
bool fillMinHopPorts(const SwitchGraph &graph, int threads, const ProgressFunction &progress, LeastHopPorts &ports);

// OpenSM's destination order for these engines: end ports of the switches with the most end
// ports first (a stable sort of switches in map order, then their ports in port order), then
// every other port (switches' port 0 and unattached end ports) in port-GUID map order.
struct Destination
{
    bool isSwitch = false;
    int index = -1;  // switch or end-port index
};
std::vector<Destination> openSmDestinationOrder(const SwitchGraph &graph);

// One LFT per switch (fabric order) on `threads` threads. Fails only if `progress` cancelled.
Result<ForwardingTables> buildLeastLoadedLfts(const SwitchGraph &graph, const LeastHopPorts &ports, int threads,
                                              const QString &engine, const ProgressFunction &progress);

}  // namespace weft::routing
