#include "LeastLoadedLfts.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <numeric>

namespace weft::routing {

HopTable::HopTable(const SwitchGraph &graph)
    : m_graph(&graph)
    , m_slotsPerTarget(graph.slots.size())
    , m_data(graph.switches.size() * graph.slots.size(), kNoPath)
{
}

void HopTable::set(int target, int sw, int port, std::uint8_t hops)
{
    m_data[index(target, sw, port)] = hops;
    std::uint8_t &least = m_data[index(target, sw, 0)];
    if (least > hops)
        least = hops;
}

void HopTable::clear()
{
    std::fill(m_data.begin(), m_data.end(), kNoPath);
}

void fillMinHopTable(const SwitchGraph &graph, HopTable &table)
{
    const int n = int(graph.switches.size());
    std::vector<int> distance(static_cast<std::size_t>(n));
    std::deque<int> queue;
    for (int target = 0; target < n; ++target) {
        std::fill(distance.begin(), distance.end(), -1);
        distance[std::size_t(target)] = 0;
        queue.assign(1, target);
        while (!queue.empty()) {
            const int sw = queue.front();
            queue.pop_front();
            for (int p = 1; p <= graph.switches[std::size_t(sw)].portCount; ++p) {
                const SwitchGraph::Slot &slot = graph.slot(sw, p);
                if (slot.remote == SwitchGraph::Remote::Switch && distance[std::size_t(slot.index)] < 0) {
                    distance[std::size_t(slot.index)] = distance[std::size_t(sw)] + 1;
                    queue.push_back(slot.index);
                }
            }
        }
        table.set(target, target, 0, 0);
        for (int sw = 0; sw < n; ++sw) {
            for (int p = 1; p <= graph.switches[std::size_t(sw)].portCount; ++p) {
                const SwitchGraph::Slot &slot = graph.slot(sw, p);
                // A loopback cable teaches a switch nothing (OpenSM skips it as well).
                if (slot.remote != SwitchGraph::Remote::Switch || slot.index == sw)
                    continue;
                const int d = distance[std::size_t(slot.index)];
                if (d >= 0 && d + 1 < kNoPath)
                    table.set(target, sw, p, std::uint8_t(d + 1));
            }
        }
    }
}

std::vector<Destination> openSmDestinationOrder(const SwitchGraph &graph)
{
    std::vector<int> switches = switchesInOpenSmOrder(graph);
    auto endPortLinks = [&](int sw) {
        int count = 0;
        for (int p = 1; p <= graph.switches[std::size_t(sw)].portCount; ++p)
            count += graph.slot(sw, p).remote == SwitchGraph::Remote::EndPort;
        return count;
    };
    std::vector<int> links(graph.switches.size());
    for (std::size_t s = 0; s < links.size(); ++s)
        links[s] = endPortLinks(int(s));
    // glibc's qsort is a merge sort for arrays this size, hence stable.
    std::stable_sort(switches.begin(), switches.end(),
                     [&](int a, int b) { return links[std::size_t(a)] > links[std::size_t(b)]; });

    std::vector<Destination> order;
    order.reserve(graph.switches.size() + graph.endPorts.size());
    std::vector<bool> taken(graph.endPorts.size(), false);
    for (int sw : switches) {
        for (int p = 1; p <= graph.switches[std::size_t(sw)].portCount; ++p) {
            const SwitchGraph::Slot &slot = graph.slot(sw, p);
            if (slot.remote != SwitchGraph::Remote::EndPort || taken[std::size_t(slot.index)])
                continue;
            taken[std::size_t(slot.index)] = true;
            order.push_back({false, slot.index});
        }
    }
    struct Rest
    {
        std::uint64_t key;
        Destination destination;
    };
    std::vector<Rest> rest;
    for (std::size_t s = 0; s < graph.switches.size(); ++s)
        rest.push_back({openSmMapKey(graph.switches[s].portGuid), {true, int(s)}});
    for (std::size_t e = 0; e < graph.endPorts.size(); ++e) {
        if (!taken[e])
            rest.push_back({openSmMapKey(graph.endPorts[e].portGuid), {false, int(e)}});
    }
    std::sort(rest.begin(), rest.end(), [](const Rest &a, const Rest &b) { return a.key < b.key; });
    for (const Rest &r : rest)
        order.push_back(r.destination);
    return order;
}

bool buildLeastLoadedLfts(const SwitchGraph &graph, const HopTable &table,
                          const std::function<bool(int, int)> &progress,
                          std::vector<std::vector<std::uint8_t>> &lfts)
{
    const std::vector<Destination> order = openSmDestinationOrder(graph);
    const std::size_t switchCount = graph.switches.size();
    lfts.assign(switchCount, std::vector<std::uint8_t>(std::size_t(graph.maxLid) + 1, kNoPath));
    // Routes through each port so far (OpenSM's port profile), per switch.
    std::vector<std::uint32_t> load(graph.slots.size(), 0);

    // Ports are tried in number order and a strictly lower load wins, so the lowest-numbered
    // of equally loaded least-hop ports is chosen (no port shifting, no scattering: the
    // defaults).
    auto recommend = [&](int sw, const Destination &to) -> std::uint8_t {
        int base = -1;
        if (to.isSwitch) {
            if (to.index == sw)
                return 0;
            base = to.index;
        } else {
            const SwitchGraph::EndPort &end = graph.endPorts[std::size_t(to.index)];
            if (end.remote != SwitchGraph::Remote::Switch)
                return kNoPath;
            if (end.remoteIndex == sw)
                return end.remotePort;
            base = end.remoteIndex;
        }
        const std::uint8_t least = table.least(base, sw);
        if (least == kNoPath)
            return kNoPath;
        const SwitchGraph::Switch &s = graph.switches[std::size_t(sw)];
        std::uint32_t best = std::numeric_limits<std::uint32_t>::max();
        std::uint8_t bestPort = kNoPath;
        for (int p = 1; p <= s.portCount; ++p) {
            if (table.hops(base, sw, p) != least || graph.slot(sw, p).remote == SwitchGraph::Remote::None)
                continue;
            const std::uint32_t used = load[std::size_t(s.firstSlot + p)];
            if (used < best) {
                best = used;
                bestPort = std::uint8_t(p);
            }
        }
        return bestPort;
    };

    const int total = int(order.size());
    for (int i = 0; i < total; ++i) {
        if (progress && i % 64 == 0 && !progress(i, total))
            return false;
        const Destination &to = order[std::size_t(i)];
        const Lid lid = to.isSwitch ? graph.switches[std::size_t(to.index)].lid : graph.endPorts[std::size_t(to.index)].lid;
        if (lid == 0)
            continue;
        for (std::size_t sw = 0; sw < switchCount; ++sw) {
            const std::uint8_t port = recommend(int(sw), to);
            lfts[sw][lid] = port;
            // Routes to switches are not counted (port_profile_switch_nodes is off by default).
            if (port != kNoPath && !to.isSwitch)
                ++load[std::size_t(graph.switches[sw].firstSlot + port)];
        }
    }
    if (progress && !progress(total, total))
        return false;
    return true;
}

}  // namespace weft::routing
