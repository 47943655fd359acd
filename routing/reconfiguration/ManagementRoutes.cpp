#include "ManagementRoutes.h"

#include <deque>
#include <limits>
#include <vector>

namespace weft {

namespace {

// One LID to deliver, and the switch that delivers it (its own, or the one a host port hangs on).
struct Destination
{
    Lid lid;
    int deliverer;  // index into fabric.switches()
    bool host;      // a host's LID (else a switch's)
};

}  // namespace

std::size_t routeLostManagementLids(const Fabric &fabric, ForwardingTables &tables, const ForwardingTables &installed)
{
    const std::vector<NodeIndex> &switches = fabric.switches();
    const std::size_t count = switches.size();
    std::vector<int> indexOfNode(fabric.nodes().size(), -1);
    for (std::size_t s = 0; s < count; ++s)
        indexOfNode[std::size_t(switches[s])] = int(s);
    // Per switch: its switch-to-switch neighbours in port order, the neighbour behind each port
    // number (-1: none, or not a switch), and whether an end port hangs on it (its traffic starts
    // there).
    struct Neighbour
    {
        int sw;
        std::uint8_t port;
    };
    std::vector<std::vector<Neighbour>> neighbours(count);
    std::vector<std::vector<int>> behind(count);
    std::vector<bool> hostsBelow(count, false);
    std::vector<Destination> destinations;
    for (std::size_t s = 0; s < count; ++s) {
        const Node &node = fabric.node(switches[s]);
        behind[s].assign(std::size_t(node.portCount) + 1, -1);
        if (const PortIndex port0 = fabric.portOf(switches[s], 0); port0 != kNoIndex && fabric.port(port0).lid != 0)
            for (int i = 0; i < (1 << fabric.port(port0).lmc); ++i)
                destinations.push_back({Lid(fabric.port(port0).lid + i), int(s), false});
        for (int number = 1; number <= node.portCount; ++number) {
            const PortIndex p = fabric.portOf(switches[s], number);
            if (p == kNoIndex || fabric.port(p).remote == kNoIndex)
                continue;
            const Port &remote = fabric.port(fabric.port(p).remote);
            const int remoteSwitch = indexOfNode[std::size_t(remote.node)];
            if (remoteSwitch < 0) {
                hostsBelow[s] = true;
                if (remote.lid != 0)
                    for (int i = 0; i < (1 << remote.lmc); ++i)
                        destinations.push_back({Lid(remote.lid + i), int(s), true});
                continue;
            }
            neighbours[s].push_back({remoteSwitch, std::uint8_t(number)});
            behind[s][std::size_t(number)] = remoteSwitch;
        }
    }
    // The tables' entry of each switch (-1: not listed, left alone), and what it holds now.
    std::vector<int> tableOf(count, -1);
    std::vector<const LinearForwardingTable *> held(count, nullptr);
    for (std::size_t s = 0; s < count; ++s) {
        tableOf[s] = tables.indexOf(fabric.node(switches[s]).guid);
        if (const SwitchForwardingTable *t = installed.find(fabric.node(switches[s]).guid))
            held[s] = &t->lft;
    }
    const auto lost = [&](std::size_t s, Lid lid) {
        return tableOf[s] >= 0 && held[s] && held[s]->hasRoute(lid) && !tables.lft(std::size_t(tableOf[s])).hasRoute(lid);
    };

    enum : std::uint8_t { Unknown,
                          Visiting,
                          Reaches,
                          Broken };
    constexpr int kFar = std::numeric_limits<int>::max();
    std::vector<int> distance(count);
    std::vector<std::uint8_t> state(count);
    std::vector<bool> hostTraffic(count);
    std::vector<int> path;
    std::size_t set = 0;
    for (const Destination &d : destinations) {
        const Lid lid = d.lid;
        const int target = d.deliverer;
        if (tableOf[std::size_t(target)] < 0 || !tables.lft(std::size_t(tableOf[std::size_t(target)])).hasRoute(lid))
            continue;          // the deliverer itself has no entry: the routing left the LID out on purpose
        bool missing = false;  // the common case, nothing lost: nothing to walk
        for (std::size_t s = 0; s < count && !missing; ++s)
            missing = lost(s, lid);
        if (!missing)
            continue;
        const auto next = [&](int at) -> int {
            const int table = tableOf[std::size_t(at)];
            if (table < 0)
                return -1;
            const std::uint8_t out = tables.lft(std::size_t(table)).port(lid);
            return out < behind[std::size_t(at)].size() ? behind[std::size_t(at)][out] : -1;
        };
        // Which switches' entries lead to the deliverer now (one walk each, remembered), and which
        // a host's traffic to the LID passes (a walk from every switch with hosts on it).
        std::fill(state.begin(), state.end(), std::uint8_t(Unknown));
        std::fill(hostTraffic.begin(), hostTraffic.end(), false);
        state[std::size_t(target)] = Reaches;
        for (std::size_t from = 0; from < count; ++from) {
            path.clear();
            int at = int(from);
            while (at >= 0 && state[std::size_t(at)] == Unknown) {
                state[std::size_t(at)] = Visiting;
                path.push_back(at);
                at = next(at);
            }
            const std::uint8_t end = at >= 0 && state[std::size_t(at)] == Reaches ? Reaches : Broken;
            for (int p : path)
                state[std::size_t(p)] = end;
        }
        // (Only hosts talk to hosts through the fabric's data paths; a switch's LID carries
        // management traffic alone, whoever sends it.)
        for (std::size_t from = 0; d.host && from < count; ++from) {
            if (!hostsBelow[from] || hostTraffic[from])
                continue;
            for (int at = int(from); at >= 0 && !hostTraffic[std::size_t(at)]; at = next(at))
                hostTraffic[std::size_t(at)] = true;
        }
        // Breadth first from the deliverer: a switch without an entry that no host's traffic
        // reaches takes the first neighbour one step nearer whose entries already get there.
        std::fill(distance.begin(), distance.end(), kFar);
        distance[std::size_t(target)] = 0;
        std::deque<int> queue{target};
        while (!queue.empty()) {
            const int at = queue.front();
            queue.pop_front();
            for (const Neighbour &n : neighbours[std::size_t(at)])
                if (distance[std::size_t(n.sw)] == kFar) {
                    distance[std::size_t(n.sw)] = distance[std::size_t(at)] + 1;
                    queue.push_back(n.sw);
                }
            // (Once the LID lost an entry, every switch without one is routed to it: a spine the
            // installed tables left without a route to another may be the way back to it.)
            const int table = tableOf[std::size_t(at)];
            if (at == target || table < 0 || hostTraffic[std::size_t(at)] || tables.lft(std::size_t(table)).hasRoute(lid))
                continue;
            LinearForwardingTable &lft = tables.lft(std::size_t(table));
            // The installed choice where its neighbour gets there now, else the first one step nearer.
            const std::uint8_t was = held[std::size_t(at)] ? held[std::size_t(at)]->port(lid) : kNoRoute;
            const int wasNeighbour = was < behind[std::size_t(at)].size() ? behind[std::size_t(at)][was] : -1;
            std::uint8_t port = wasNeighbour >= 0 && state[std::size_t(wasNeighbour)] == Reaches ? was : kNoRoute;
            for (std::size_t k = 0; port == kNoRoute && k < neighbours[std::size_t(at)].size(); ++k) {
                const Neighbour &n = neighbours[std::size_t(at)][k];
                if (distance[std::size_t(n.sw)] == distance[std::size_t(at)] - 1 && state[std::size_t(n.sw)] == Reaches)
                    port = n.port;
            }
            if (port == kNoRoute)
                continue;
            lft.setPort(lid, port);
            state[std::size_t(at)] = Reaches;
            ++set;
        }
    }
    return set;
}

}  // namespace weft
