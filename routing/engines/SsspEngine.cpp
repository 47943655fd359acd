#include "SsspEngine.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <queue>
#include <unordered_set>
#include <utility>

namespace weft {

namespace {

using routing::SwitchGraph;

// A path's cost. `primary` holds (hops << 40 | load) in lexicographic mode and the plain weight
// sum otherwise; `secondary` the both-directions load of the paper-example rule, else 0.
struct PathCost
{
    std::uint64_t primary = 0;
    std::uint64_t secondary = 0;

    friend bool operator<(const PathCost &a, const PathCost &b)
    {
        return a.primary != b.primary ? a.primary < b.primary : a.secondary < b.secondary;
    }
    friend bool operator>(const PathCost &a, const PathCost &b) { return b < a; }
    friend bool operator==(const PathCost &a, const PathCost &b)
    {
        return a.primary == b.primary && a.secondary == b.secondary;
    }
    friend PathCost operator+(const PathCost &a, const PathCost &b)
    {
        return {a.primary + b.primary, a.secondary + b.secondary};
    }
};

constexpr PathCost kUnreached{std::numeric_limits<std::uint64_t>::max(), std::numeric_limits<std::uint64_t>::max()};
constexpr std::uint64_t kHop = std::uint64_t(1) << 40;

// Switch-to-switch channel seen from one end: the switch at the other end, the local port, and
// the channel id (the slot of the channel's out port).
struct Arc
{
    int sw = -1;
    int port = 0;
    int channel = -1;
};

class SsspRouter
{
public:
    SsspRouter(const SwitchGraph &graph, const SsspSettings &settings)
        : m_graph(graph), m_settings(settings)
    {
        const std::size_t switchCount = graph.switches.size();
        m_outStart.assign(switchCount + 1, 0);
        m_inStart.assign(switchCount + 1, 0);
        m_reverse.assign(graph.slots.size(), -1);
        for (std::size_t x = 0; x < switchCount; ++x) {
            const SwitchGraph::Switch &sw = graph.switches[x];
            for (int q = 1; q <= sw.portCount; ++q) {
                const SwitchGraph::Slot &slot = graph.slot(int(x), q);
                if (slot.remote != SwitchGraph::Remote::Switch)
                    continue;
                const int channel = sw.firstSlot + q;
                m_out.push_back({slot.index, q, channel});
                m_reverse[std::size_t(channel)] = graph.switches[std::size_t(slot.index)].firstSlot + slot.remotePort;
            }
            m_outStart[x + 1] = int(m_out.size());
        }
        // Incoming channels of y, in y's port order: the reverse of each of y's out channels.
        for (std::size_t y = 0; y < switchCount; ++y) {
            for (int a = m_outStart[y]; a < m_outStart[y + 1]; ++a) {
                const Arc &out = m_out[std::size_t(a)];
                m_in.push_back({out.sw, graph.slot(int(y), out.port).remotePort, m_reverse[std::size_t(out.channel)]});
            }
            m_inStart[y + 1] = int(m_in.size());
        }

        m_endPortsAt.assign(switchCount, 0);
        for (std::size_t e = 0; e < graph.endPorts.size(); ++e) {
            const SwitchGraph::EndPort &end = graph.endPorts[e];
            if (end.remote != SwitchGraph::Remote::Switch)
                continue;
            m_routable.push_back(int(e));
            ++m_endPortsAt[std::size_t(end.remoteIndex)];
        }
        m_load.assign(graph.slots.size(), 0);
        m_switchLoad.assign(graph.slots.size(), 0);
        m_lfts.assign(switchCount, std::vector<std::uint8_t>(std::size_t(graph.maxLid) + 1, kNoRoute));
        m_dist.assign(switchCount, kUnreached);
        m_parentChannel.assign(switchCount, -1);
        m_parentSwitch.assign(switchCount, -1);
        m_below.assign(switchCount, 0);
        const std::uint64_t p = m_routable.size();
        m_p2 = std::max<std::uint64_t>(p * p, 1);
    }

    const std::vector<int> &routableEndPorts() const { return m_routable; }
    const std::vector<std::uint64_t> &loads() const { return m_load; }
    std::vector<std::vector<std::uint8_t>> &lfts() { return m_lfts; }
    int reverse(int channel) const { return m_reverse[std::size_t(channel)]; }
    int endPortsAt(int sw) const { return m_endPortsAt[std::size_t(sw)]; }

    // One P-SSSP round towards an end port (or, with `endPort` < 0, towards switch `root`'s
    // own LID): Dijkstra, next hops by the tie-break, then route counts along the in-tree.
    void routeDestination(int endPort, int root)
    {
        const bool toSwitch = endPort < 0;
        const Lid lid = toSwitch ? m_graph.switches[std::size_t(root)].lid : m_graph.endPorts[std::size_t(endPort)].lid;
        m_switchPhase = toSwitch;
        dijkstra(root, -1);
        m_lfts[std::size_t(root)][lid] = toSwitch ? 0 : m_graph.endPorts[std::size_t(endPort)].remotePort;
        for (int x : m_settled) {
            if (x == root)
                continue;
            const Arc &chosen = choose(x, -1);
            m_lfts[std::size_t(x)][lid] = std::uint8_t(chosen.port);
            m_parentChannel[std::size_t(x)] = chosen.channel;
            m_parentSwitch[std::size_t(x)] = chosen.sw;
        }
        // Routes per channel: a switch's sources (its end ports, and itself for switch LIDs)
        // plus everything routed through it, pushed towards the root in reverse settle order.
        std::vector<std::uint64_t> &counter = toSwitch ? m_switchLoad : m_load;
        for (int x : m_settled)
            m_below[std::size_t(x)] = std::uint64_t(m_endPortsAt[std::size_t(x)]) + (toSwitch ? 1 : 0);
        for (auto it = m_settled.rbegin(); it != m_settled.rend(); ++it) {
            const int x = *it;
            if (x == root)
                continue;
            counter[std::size_t(m_parentChannel[std::size_t(x)])] += m_below[std::size_t(x)];
            m_below[std::size_t(m_parentSwitch[std::size_t(x)])] += m_below[std::size_t(x)];
        }
        if (!toSwitch) {
            const int last = m_graph.switches[std::size_t(root)].firstSlot + m_graph.endPorts[std::size_t(endPort)].remotePort;
            counter[std::size_t(last)] += m_below[std::size_t(root)] - 1;  // every source but d itself
        }
    }

    // One P²-SSSP step: the route from end port u to end port v, constrained by the entries
    // for v already made. Returns false if u cannot reach v.
    bool routePair(int u, int v)
    {
        const SwitchGraph::EndPort &dest = m_graph.endPorts[std::size_t(v)];
        const int root = dest.remoteIndex;
        const Lid lid = dest.lid;
        m_switchPhase = false;
        m_lfts[std::size_t(root)][lid] = dest.remotePort;
        dijkstra(root, lid);
        int x = m_graph.endPorts[std::size_t(u)].remoteIndex;
        if (m_dist[std::size_t(x)] == kUnreached)
            return false;
        while (x != root) {
            const std::uint8_t entry = m_lfts[std::size_t(x)][lid];
            Arc next;
            if (entry != kNoRoute) {
                const SwitchGraph::Slot &slot = m_graph.slot(x, entry);
                next = {slot.index, entry, m_graph.switches[std::size_t(x)].firstSlot + entry};
            } else {
                next = choose(x, lid);
                m_lfts[std::size_t(x)][lid] = std::uint8_t(next.port);
            }
            ++m_load[std::size_t(next.channel)];
            x = next.sw;
        }
        ++m_load[std::size_t(m_graph.switches[std::size_t(root)].firstSlot + dest.remotePort)];
        return true;
    }

    // Gives every switch that no pair passed an entry for v, hanging it on v's tree.
    void completeDestination(int v)
    {
        const SwitchGraph::EndPort &dest = m_graph.endPorts[std::size_t(v)];
        m_switchPhase = false;
        m_lfts[std::size_t(dest.remoteIndex)][dest.lid] = dest.remotePort;
        dijkstra(dest.remoteIndex, dest.lid);
        for (int x : m_settled) {
            if (m_lfts[std::size_t(x)][dest.lid] == kNoRoute)
                m_lfts[std::size_t(x)][dest.lid] = std::uint8_t(choose(x, dest.lid).port);
        }
    }

private:
    PathCost channelCost(int channel) const
    {
        std::uint64_t load = m_load[std::size_t(channel)];
        std::uint64_t reverseLoad = m_load[std::size_t(m_reverse[std::size_t(channel)])];
        if (m_switchPhase) {
            load += m_switchLoad[std::size_t(channel)];
            reverseLoad += m_switchLoad[std::size_t(m_reverse[std::size_t(channel)])];
        }
        PathCost cost;
        switch (m_settings.cost) {
        case SsspSettings::Cost::Lexicographic: cost.primary = kHop + load; break;
        case SsspSettings::Cost::PaperP2: cost.primary = m_p2 + load; break;
        case SsspSettings::Cost::PaperUnconstrained: cost.primary = 1 + load; break;
        }
        if (m_settings.tieBreak == SsspSettings::TieBreak::PaperExample)
            cost.secondary = load + reverseLoad;
        return cost;
    }

    // A channel x -> far (local port `port`) may carry traffic for `constrainedLid` only if x has
    // no entry for it yet or the entry is that port. -1: no constraint.
    bool allowed(int x, int port, int constrainedLid) const
    {
        if (constrainedLid < 0)
            return true;
        const std::uint8_t entry = m_lfts[std::size_t(x)][std::size_t(constrainedLid)];
        return entry == kNoRoute || entry == port;
    }

    // Single-destination Dijkstra: from the root over the reversed channels. Fills m_dist and
    // m_settled (in settle order, root first).
    void dijkstra(int root, int constrainedLid)
    {
        std::fill(m_dist.begin(), m_dist.end(), kUnreached);
        m_settled.clear();
        using Entry = std::pair<PathCost, int>;
        std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
        m_dist[std::size_t(root)] = PathCost{};
        heap.push({PathCost{}, root});
        m_done.assign(m_dist.size(), 0);
        while (!heap.empty()) {
            const auto [cost, y] = heap.top();
            heap.pop();
            if (m_done[std::size_t(y)])
                continue;
            m_done[std::size_t(y)] = 1;
            m_settled.push_back(y);
            for (int a = m_inStart[std::size_t(y)]; a < m_inStart[std::size_t(y) + 1]; ++a) {
                const Arc &in = m_in[std::size_t(a)];
                if (m_done[std::size_t(in.sw)] || !allowed(in.sw, in.port, constrainedLid))
                    continue;
                const PathCost through = cost + channelCost(in.channel);
                if (through < m_dist[std::size_t(in.sw)]) {
                    m_dist[std::size_t(in.sw)] = through;
                    heap.push({through, in.sw});
                }
            }
        }
    }

    // The tie-break of spec §3.2.2 over every optimal next hop of x: lowest far node index,
    // then lowest port. Applied after Dijkstra so that heap order cannot matter.
    Arc choose(int x, int constrainedLid) const
    {
        Arc best;
        NodeIndex bestNode = std::numeric_limits<NodeIndex>::max();
        for (int a = m_outStart[std::size_t(x)]; a < m_outStart[std::size_t(x) + 1]; ++a) {
            const Arc &out = m_out[std::size_t(a)];
            if (m_dist[std::size_t(out.sw)] == kUnreached || !allowed(x, out.port, constrainedLid))
                continue;
            if (!(m_dist[std::size_t(out.sw)] + channelCost(out.channel) == m_dist[std::size_t(x)]))
                continue;
            const NodeIndex node = m_graph.switches[std::size_t(out.sw)].node;
            if (node < bestNode) {  // ports ascend, so the first of a node is its lowest port
                best = out;
                bestNode = node;
            }
        }
        return best;
    }

    const SwitchGraph &m_graph;
    const SsspSettings &m_settings;
    std::vector<Arc> m_out, m_in;
    std::vector<int> m_outStart, m_inStart;
    std::vector<int> m_reverse;
    std::vector<int> m_endPortsAt;
    std::vector<int> m_routable;
    std::vector<std::uint64_t> m_load, m_switchLoad;
    std::vector<std::vector<std::uint8_t>> m_lfts;
    std::vector<PathCost> m_dist;
    std::vector<std::uint8_t> m_done;
    std::vector<int> m_settled;
    std::vector<int> m_parentChannel, m_parentSwitch;
    std::vector<std::uint64_t> m_below;
    std::uint64_t m_p2 = 1;
    bool m_switchPhase = false;
};

// Destination orders (spec §3.2.2): end ports, then switches.
struct DestinationOrder
{
    std::vector<int> endPorts;
    std::vector<int> switches;
};

DestinationOrder destinationOrder(const SwitchGraph &graph, const SsspRouter &router, SsspSettings::Order order)
{
    DestinationOrder result;
    if (order == SsspSettings::Order::PortGuid) {
        result.endPorts = router.routableEndPorts();
        std::stable_sort(result.endPorts.begin(), result.endPorts.end(), [&](int a, int b) {
            return graph.endPorts[std::size_t(a)].portGuid < graph.endPorts[std::size_t(b)].portGuid;
        });
        result.switches.resize(graph.switches.size());
        std::iota(result.switches.begin(), result.switches.end(), 0);
        std::stable_sort(result.switches.begin(), result.switches.end(), [&](int a, int b) {
            return graph.switches[std::size_t(a)].portGuid < graph.switches[std::size_t(b)].portGuid;
        });
        return result;
    }
    // OpenSM dfsssp: switches in map order, stably sorted by attached end ports (plus port 0)
    // descending; their end ports in port order; the switches' own LIDs last in the same order.
    result.switches = routing::switchesInOpenSmOrder(graph);
    std::stable_sort(result.switches.begin(), result.switches.end(),
                     [&](int a, int b) { return router.endPortsAt(a) > router.endPortsAt(b); });
    for (int sw : result.switches) {
        for (int port = 1; port <= graph.switches[std::size_t(sw)].portCount; ++port) {
            const SwitchGraph::Slot &slot = graph.slot(sw, port);
            if (slot.remote == SwitchGraph::Remote::EndPort)
                result.endPorts.push_back(slot.index);
        }
    }
    return result;
}

// Channel dependency graph over switch-to-switch channels of every end-port pair's route, read
// from the tables. True if it has a cycle.
bool hasCreditLoop(const SwitchGraph &graph, SsspRouter &router)
{
    const std::size_t switchCount = graph.switches.size();
    std::unordered_set<std::uint64_t> edges;
    std::vector<int> parent(switchCount), parentChannel(switchCount);
    std::vector<std::vector<int>> children(switchCount);
    std::vector<std::uint64_t> below(switchCount);
    std::vector<int> order;
    for (int d : router.routableEndPorts()) {
        const SwitchGraph::EndPort &dest = graph.endPorts[std::size_t(d)];
        for (auto &c : children)
            c.clear();
        for (std::size_t x = 0; x < switchCount; ++x) {
            parent[x] = -1;
            const std::uint8_t port = router.lfts()[x][dest.lid];
            if (port == kNoRoute || port == 0 || int(x) == dest.remoteIndex)
                continue;
            const SwitchGraph::Slot &slot = graph.slot(int(x), port);
            if (slot.remote != SwitchGraph::Remote::Switch)
                continue;
            parent[x] = slot.index;
            parentChannel[x] = graph.switches[x].firstSlot + port;
            children[std::size_t(slot.index)].push_back(int(x));
        }
        order.assign(1, dest.remoteIndex);
        for (std::size_t i = 0; i < order.size(); ++i)
            for (int c : children[std::size_t(order[i])])
                order.push_back(c);
        for (int x : order)
            below[std::size_t(x)] = std::uint64_t(router.endPortsAt(x));
        for (auto it = order.rbegin(); it != order.rend(); ++it) {
            const int x = *it;
            const int y = parent[std::size_t(x)];
            if (x == dest.remoteIndex || y < 0)
                continue;
            below[std::size_t(y)] += below[std::size_t(x)];
            if (below[std::size_t(x)] > 0 && y != dest.remoteIndex)
                edges.insert(std::uint64_t(parentChannel[std::size_t(x)]) << 32 | std::uint32_t(parentChannel[std::size_t(y)]));
        }
    }
    // Kahn: a cycle is whatever cannot be peeled.
    std::vector<int> indegree(graph.slots.size(), 0);
    std::vector<std::vector<int>> successors(graph.slots.size());
    for (std::uint64_t e : edges) {
        successors[std::size_t(e >> 32)].push_back(int(e & 0xFFFFFFFFu));
        ++indegree[std::size_t(e & 0xFFFFFFFFu)];
    }
    std::vector<int> ready;
    for (std::size_t c = 0; c < indegree.size(); ++c)
        if (indegree[c] == 0)
            ready.push_back(int(c));
    std::size_t peeled = 0;
    while (!ready.empty()) {
        const int c = ready.back();
        ready.pop_back();
        ++peeled;
        for (int s : successors[std::size_t(c)])
            if (--indegree[std::size_t(s)] == 0)
                ready.push_back(s);
    }
    return peeled != indegree.size();
}

// dfsssp's layering: every pair starts on layer 0; while a layer's dependency graph has a
// cycle, the pairs behind the cycle's least-used dependency move up one layer. Returns the
// layers used, or 0 if more than `maxLayers` would be needed.
int layerPairs(const SwitchGraph &graph, SsspRouter &router, int maxLayers, std::vector<std::uint8_t> &levels)
{
    const std::size_t n = graph.endPorts.size();
    // Every routable pair's switch-to-switch channels, CSR by pair id (source * n + destination).
    std::vector<std::size_t> start(n * n + 1, 0);
    std::vector<int> channels;
    for (std::size_t s = 0; s < n; ++s) {
        for (std::size_t d = 0; d < n; ++d) {
            start[s * n + d] = channels.size();
            const SwitchGraph::EndPort &src = graph.endPorts[s];
            const SwitchGraph::EndPort &dst = graph.endPorts[d];
            if (s == d || src.remote != SwitchGraph::Remote::Switch || dst.remote != SwitchGraph::Remote::Switch)
                continue;
            int x = src.remoteIndex;
            for (std::size_t hop = 0; hop <= graph.switches.size() && x != dst.remoteIndex; ++hop) {
                const std::uint8_t port = router.lfts()[std::size_t(x)][dst.lid];
                if (port == kNoRoute || port == 0)
                    break;
                const SwitchGraph::Slot &slot = graph.slot(x, port);
                if (slot.remote != SwitchGraph::Remote::Switch)
                    break;
                channels.push_back(graph.switches[std::size_t(x)].firstSlot + port);
                x = slot.index;
            }
        }
    }
    start[n * n] = channels.size();
    levels.assign(n * n, 0);

    int used = 1;
    std::vector<std::pair<std::uint64_t, std::uint32_t>> deps;  // (c1 << 32 | c2, pair)
    for (int layer = 0; layer < maxLayers; ++layer) {
        for (;;) {
            deps.clear();
            for (std::size_t p = 0; p < n * n; ++p) {
                if (levels[p] != layer)
                    continue;
                for (std::size_t i = start[p]; i + 1 < start[p + 1]; ++i)
                    deps.push_back({std::uint64_t(channels[i]) << 32 | std::uint32_t(channels[i + 1]), std::uint32_t(p)});
            }
            if (deps.empty())
                return used;
            std::sort(deps.begin(), deps.end());
            // Unique dependencies with their pair ranges, and adjacency by first channel.
            std::vector<std::size_t> firstOf;  // index into deps of each unique dependency
            for (std::size_t i = 0; i < deps.size(); ++i)
                if (i == 0 || deps[i].first != deps[i - 1].first)
                    firstOf.push_back(i);
            firstOf.push_back(deps.size());
            const std::size_t unique = firstOf.size() - 1;
            std::vector<int> adjStart(graph.slots.size() + 1, 0);
            for (std::size_t u = 0; u < unique; ++u)
                ++adjStart[std::size_t(deps[firstOf[u]].first >> 32) + 1];
            for (std::size_t c = 0; c < graph.slots.size(); ++c)
                adjStart[c + 1] += adjStart[c];
            // Dependencies are sorted by first channel, so dependency u sits at position u.

            // Iterative DFS for one cycle: colour 1 on the stack, 2 done.
            std::vector<std::uint8_t> colour(graph.slots.size(), 0);
            std::vector<int> cursor(graph.slots.size(), 0);
            std::vector<int> stack;        // channels
            std::vector<int> viaDep;       // dependency used to enter stack[i] (i >= 1)
            std::vector<int> cycleDeps;
            for (std::size_t root = 0; root < graph.slots.size() && cycleDeps.empty(); ++root) {
                if (colour[root] != 0 || adjStart[root] == adjStart[root + 1])
                    continue;
                stack.assign(1, int(root));
                viaDep.assign(1, -1);
                colour[root] = 1;
                cursor[root] = adjStart[root];
                while (!stack.empty() && cycleDeps.empty()) {
                    const int c = stack.back();
                    if (cursor[std::size_t(c)] == adjStart[std::size_t(c) + 1]) {
                        colour[std::size_t(c)] = 2;
                        stack.pop_back();
                        viaDep.pop_back();
                        continue;
                    }
                    const int dep = cursor[std::size_t(c)]++;
                    const int next = int(deps[firstOf[std::size_t(dep)]].first & 0xFFFFFFFFu);
                    if (colour[std::size_t(next)] == 1) {
                        cycleDeps.push_back(dep);
                        for (std::size_t i = stack.size() - 1; stack[i] != next; --i)
                            cycleDeps.push_back(viaDep[i]);
                    } else if (colour[std::size_t(next)] == 0) {
                        colour[std::size_t(next)] = 1;
                        cursor[std::size_t(next)] = adjStart[std::size_t(next)];
                        stack.push_back(next);
                        viaDep.push_back(dep);
                    }
                }
            }
            if (cycleDeps.empty())
                break;
            if (layer + 1 >= maxLayers)
                return 0;
            int weakest = cycleDeps.front();
            for (int dep : cycleDeps) {
                const std::size_t size = firstOf[std::size_t(dep) + 1] - firstOf[std::size_t(dep)];
                const std::size_t best = firstOf[std::size_t(weakest) + 1] - firstOf[std::size_t(weakest)];
                if (size < best || (size == best && dep < weakest))
                    weakest = dep;
            }
            for (std::size_t i = firstOf[std::size_t(weakest)]; i < firstOf[std::size_t(weakest) + 1]; ++i)
                levels[deps[i].second] = std::uint8_t(layer + 1);
            used = std::max(used, layer + 2);
        }
    }
    return used;
}

}  // namespace

SsspEngine::SsspEngine(Variant variant, SsspSettings settings)
    : m_variant(variant), m_settings(settings)
{
}

QString SsspEngine::name() const
{
    return m_variant == Variant::PerPair ? QStringLiteral("sssp2") : QStringLiteral("sssp");
}

QString SsspEngine::description() const
{
    return m_variant == Variant::PerPair
        ? QStringLiteral("P²-SSSP: weights updated after every source-destination pair (research; small fabrics)")
        : QStringLiteral("P-SSSP: shortest paths balanced globally by route count per link (Hoefler et al.)");
}

Status SsspEngine::prepare(const Fabric &fabric, const Tenancy &, const RoutingOptions &)
{
    m_graph.reset();
    m_slotPort.clear();
    Result<routing::SwitchGraph> graph = routing::buildRoutableGraph(fabric, name());
    if (!graph)
        return graph.error();
    if (m_variant == Variant::PerPair && int(graph->endPorts.size()) > m_settings.perPairEndPortLimit)
        return Error{{}, 0, QStringLiteral("sssp2: %1 end ports is more than the %2 that per-pair routing is allowed (its cost grows with the square); use sssp")
                                .arg(graph->endPorts.size()).arg(m_settings.perPairEndPortLimit)};
    m_slotPort.assign(graph->slots.size(), kNoIndex);
    for (const routing::SwitchGraph::Switch &sw : graph->switches)
        for (int port = 0; port <= sw.portCount; ++port)
            m_slotPort[std::size_t(sw.firstSlot + port)] = fabric.portOf(sw.node, port);
    m_fabricPorts = fabric.ports().size();
    m_graph = std::move(graph).value();
    return Done{};
}

Result<Routing> SsspEngine::route(const RoutingOptions &options)
{
    if (!m_graph)
        return Error{{}, 0, QStringLiteral("%1: route() without a successful prepare()").arg(name())};
    const routing::SwitchGraph &graph = *m_graph;
    SsspRouter router(graph, m_settings);
    const DestinationOrder order = destinationOrder(graph, router, m_settings.order);
    Routing result;
    result.engine = name();

    const int endCount = int(order.endPorts.size());
    const int total = m_variant == Variant::PerPair ? endCount * std::max(endCount - 1, 0) + endCount + int(order.switches.size())
                                                    : endCount + int(order.switches.size());
    int done = 0;
    const auto advance = [&](int units) {
        done += units;
        return !options.progress || options.progress(done, total);
    };

    if (m_variant == Variant::PerDestination) {
        for (int d : order.endPorts) {
            router.routeDestination(d, graph.endPorts[std::size_t(d)].remoteIndex);
            if (!advance(1))
                return routing::cancelledError(name());
        }
    } else {
        std::uint64_t unreachable = 0;
        for (int u : order.endPorts) {
            for (int v : order.endPorts) {
                if (u != v && !router.routePair(u, v))
                    ++unreachable;
            }
            if (!advance(endCount - 1))
                return routing::cancelledError(name());
        }
        for (int v : order.endPorts) {
            router.completeDestination(v);
            if (!advance(1))
                return routing::cancelledError(name());
        }
        if (unreachable > 0)
            result.warnings << QStringLiteral("%1 ordered pairs of end ports have no path").arg(unreachable);
    }
    for (int sw : order.switches) {
        router.routeDestination(-1, sw);
        if (!advance(1))
            return routing::cancelledError(name());
    }

    // Reachability in the partial-fabric sense: end ports on switches Dijkstra never reached.
    const std::size_t unattached = graph.endPorts.size() - router.routableEndPorts().size();
    if (unattached > 0)
        result.warnings << QStringLiteral("%1 end ports are not cabled to a switch and were not routed").arg(unattached);

    m_channelLoads.assign(m_fabricPorts, 0);
    for (std::size_t slot = 0; slot < m_slotPort.size(); ++slot)
        if (m_slotPort[slot] != kNoIndex)
            m_channelLoads[std::size_t(m_slotPort[slot])] = router.loads()[slot];

    m_hadCreditLoops = hasCreditLoop(graph, router);
    m_serviceLevelsUsed = 1;
    m_pairLevels.clear();
    m_endPortOfLid.assign(std::size_t(graph.maxLid) + 1, -1);
    for (std::size_t e = 0; e < graph.endPorts.size(); ++e)
        m_endPortOfLid[graph.endPorts[e].lid] = int(e);
    if (m_hadCreditLoops) {
        if (!m_settings.layerVirtualLanes) {
            result.warnings << QStringLiteral("the routes have credit loops (no service-level layering requested)");
        } else if (int(graph.endPorts.size()) > m_settings.maxLayeredEndPorts) {
            result.warnings << QStringLiteral("the routes have credit loops; %1 end ports are too many to layer them onto service levels (limit %2)")
                                   .arg(graph.endPorts.size()).arg(m_settings.maxLayeredEndPorts);
        } else {
            const int used = layerPairs(graph, router, m_settings.maxServiceLevels, m_pairLevels);
            if (used == 0)
                return Error{{}, 0, QStringLiteral("%1: the routes' credit loops need more than %2 service levels")
                                        .arg(name()).arg(m_settings.maxServiceLevels)};
            m_serviceLevelsUsed = used;
            result.warnings << QStringLiteral("the routes have credit loops, broken by putting source-destination pairs on %1 service levels; "
                                              "this needs per-path SLs (OpenSM -R dfsssp with QoS)")
                                   .arg(used);
        }
    }
    result.tables = routing::makeTables(graph, router.lfts());
    return result;
}

int SsspEngine::serviceLevel(Lid source, Lid destination) const
{
    if (m_pairLevels.empty() || source >= m_endPortOfLid.size() || destination >= m_endPortOfLid.size())
        return 0;
    const int s = m_endPortOfLid[source];
    const int d = m_endPortOfLid[destination];
    if (s < 0 || d < 0)
        return 0;
    return m_pairLevels[std::size_t(s) * m_graph->endPorts.size() + std::size_t(d)];
}

}  // namespace weft
