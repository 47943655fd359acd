#include "UpDownEngine.h"

#include "LeastLoadedLfts.h"

#include <algorithm>
#include <deque>
#include <limits>

namespace weft {

namespace {

constexpr std::uint32_t kUnranked = std::numeric_limits<std::uint32_t>::max();
constexpr int kMaxPathHops = 64;  // IB_SUBNET_PATH_HOPS_MAX

enum class Direction : std::uint8_t { Up, Down };

// OpenSM's updn_get_dir, including its rule that a link between two roots counts as up.
Direction direction(std::uint32_t rank, std::uint32_t remoteRank, Guid id, Guid remoteId)
{
    if (rank == 0 && remoteRank == 0)
        return Direction::Up;
    if (rank < remoteRank)
        return Direction::Down;
    if (rank > remoteRank)
        return Direction::Up;
    return id > remoteId ? Direction::Up : Direction::Down;
}

// Whether the channel dependencies of the tables (every two consecutive switch-to-switch hops
// of a route, from every switch that has one: a superset of what any source's packets make)
// form a cycle. Channels are out ports, by slot.
bool dependenciesCycle(const routing::SwitchGraph &graph, const ForwardingTables &tables, const std::vector<int> &tableOf,
                       const std::vector<Lid> &lids)
{
    const std::size_t channels = graph.slots.size();
    std::vector<std::vector<std::uint32_t>> next(channels);
    for (Lid d : lids) {
        for (std::size_t s = 0; s < graph.switches.size(); ++s) {
            const std::uint8_t p = tables.at(std::size_t(tableOf[s])).lft.port(d);
            if (p == kNoRoute || p == 0 || p > graph.switches[s].portCount)
                continue;
            const routing::SwitchGraph::Slot &out = graph.slot(int(s), p);
            if (out.remote != routing::SwitchGraph::Remote::Switch)
                continue;
            const std::uint8_t q = tables.at(std::size_t(tableOf[std::size_t(out.index)])).lft.port(d);
            if (q == kNoRoute || q == 0 || q > graph.switches[std::size_t(out.index)].portCount)
                continue;
            if (graph.slot(out.index, q).remote != routing::SwitchGraph::Remote::Switch)
                continue;
            next[std::size_t(graph.switches[s].firstSlot + p)].push_back(std::uint32_t(graph.switches[std::size_t(out.index)].firstSlot + q));
        }
    }
    for (std::vector<std::uint32_t> &list : next) {
        std::sort(list.begin(), list.end());
        list.erase(std::unique(list.begin(), list.end()), list.end());
    }
    // Depth first, iteratively: 0 unseen, 1 on the path, 2 done.
    std::vector<std::uint8_t> state(channels, 0);
    std::vector<std::pair<std::uint32_t, std::size_t>> stack;
    for (std::size_t start = 0; start < channels; ++start) {
        if (state[start] || next[start].empty())
            continue;
        stack.push_back({std::uint32_t(start), 0});
        state[start] = 1;
        while (!stack.empty()) {
            auto &[at, i] = stack.back();
            if (i == next[at].size()) {
                state[at] = 2;
                stack.pop_back();
                continue;
            }
            const std::uint32_t to = next[at][i++];
            if (state[to] == 1)
                return true;
            if (state[to] == 0) {
                state[to] = 1;
                stack.push_back({to, 0});
            }
        }
    }
    return false;
}

// OpenSM's updn leaves a destination without a route at a switch that has no up*/down* path to
// it: on a SHArP fabric, an Aggregation Node on one spine of a director seen from another spine
// (every path between them goes down, then up). For a service or I/O node's LID, such a switch is
// given an entry toward one turn switch that routes every such destination. Kept only when the
// channel dependencies stay acyclic (the routing stays deadlock-free) and no forwarding loop
// appears; otherwise nothing is added. Returns the entries added.
std::size_t reachWithOneTurn(const routing::SwitchGraph &graph, ForwardingTables &tables)
{
    const std::size_t n = graph.switches.size();
    std::vector<int> tableOf(n, -1);
    for (std::size_t s = 0; s < n; ++s) {
        tableOf[s] = tables.indexOf(graph.switches[s].guid);
        if (tableOf[s] < 0)
            return 0;
    }
    // Every LID counts for the dependencies; only service and I/O nodes' LIDs are filled. Where
    // OpenSM's updn leaves another LID unreachable (a spine's own LID from another spine), its
    // tables stay OpenSM's, entry for entry.
    std::vector<Lid> lids;
    std::vector<Lid> toFill;
    for (const routing::SwitchGraph::Switch &sw : graph.switches)
        if (sw.lid)
            lids.push_back(sw.lid);
    for (const routing::SwitchGraph::EndPort &e : graph.endPorts)
        if (e.lid && e.remote == routing::SwitchGraph::Remote::Switch)
            for (int k = 0; k < (1 << e.lmc); ++k) {
                lids.push_back(Lid(e.lid + k));
                if (!e.compute)
                    toFill.push_back(Lid(e.lid + k));
            }
    std::sort(lids.begin(), lids.end());
    lids.erase(std::unique(lids.begin(), lids.end()), lids.end());
    std::sort(toFill.begin(), toFill.end());
    toFill.erase(std::unique(toFill.begin(), toFill.end()), toFill.end());

    // One turn switch for every destination: the lowest switch that routes all of them, which
    // the others reach by their own up*/down* routes to its LID. Every filled path goes down into
    // it and up from it, so the turns are all there: a director's spines turn at its first line
    // card, the roots and middle switches of a three-level tree at the first leaf.
    std::vector<std::pair<int, Lid>> added;  // (table, LID)
    int turn = -1;
    for (std::size_t t = 0; t < n && turn < 0; ++t) {
        const LinearForwardingTable &lft = tables.at(std::size_t(tableOf[t])).lft;
        if (graph.switches[t].lid && std::all_of(toFill.begin(), toFill.end(), [&](Lid d) { return lft.hasRoute(d); }))
            turn = int(t);
    }
    if (turn < 0)
        return 0;
    const Lid turnLid = graph.switches[std::size_t(turn)].lid;
    for (Lid d : toFill) {
        for (std::size_t u = 0; u < n; ++u) {
            LinearForwardingTable &lft = tables.lft(std::size_t(tableOf[u]));
            if (lft.hasRoute(d) || !lft.hasRoute(turnLid))
                continue;
            // Toward the turn switch: a switch on the way that routes the destination takes
            // the packets on by its own route (never back through a switch without one).
            lft.setPort(d, lft.port(turnLid));
            added.push_back({tableOf[u], d});
        }
    }
    if (added.empty())
        return 0;
    if (dependenciesCycle(graph, tables, tableOf, lids)) {
        for (const auto &[table, d] : added)
            tables.lft(std::size_t(table)).clear(d);
        return 0;
    }
    return added.size();
}

}  // namespace

QString UpDownEngine::description() const
{
    return QStringLiteral("Up*/Down*: shortest legal paths, deadlock-free on any topology (OpenSM's updn)");
}

Status UpDownEngine::prepare(const Fabric &fabric, const Tenancy &, const RoutingOptions &)
{
    m_graph.reset();
    m_roots.clear();
    m_ranks.clear();
    Result<routing::SwitchGraph> built = routing::buildRoutableGraph(fabric, name());
    if (!built)
        return built.error();
    const routing::SwitchGraph &graph = *built;

    // End ports per switch, and the distance histogram of each switch towards them (least
    // counts only: a search from every switch with end ports).
    const std::size_t n = graph.switches.size();
    std::vector<unsigned> endPortsOn(n, 0);
    unsigned endPorts = 0;
    for (const routing::SwitchGraph::EndPort &e : graph.endPorts) {
        // Roots are found from the compute nodes: a service node on every switch (SHArP) would
        // put an end port at distance 0 of every switch and leave no switch dominant.
        if (e.remote == routing::SwitchGraph::Remote::Switch && e.compute) {
            ++endPortsOn[std::size_t(e.remoteIndex)];
            ++endPorts;
        }
    }
    std::vector<int> targets;
    for (std::size_t t = 0; t < n; ++t) {
        if (endPortsOn[t] > 0)
            targets.push_back(int(t));
    }
    const int workers = routing::workerCount(0);
    const routing::MinHopSearch search(graph);
    std::vector<routing::MinHopSearch> searches(std::size_t(workers), search);
    std::vector<std::vector<unsigned>> histograms(std::size_t(workers), std::vector<unsigned>(n * kMaxPathHops, 0));
    routing::forEachInParallel(int(targets.size()), 0, {}, [&](int worker, int item) {
        const int t = targets[std::size_t(item)];
        const std::vector<std::uint8_t> &least = searches[std::size_t(worker)].run(t);
        std::vector<unsigned> &histogram = histograms[std::size_t(worker)];
        for (std::size_t sw = 0; sw < n; ++sw) {
            if (least[sw] < kMaxPathHops)
                histogram[sw * kMaxPathHops + least[sw]] += endPortsOn[std::size_t(t)];
        }
    });
    const double dominant = endPorts * 0.9;
    const double noticeable = endPorts * 0.05;
    std::vector<std::uint32_t> ranks(n, kUnranked);
    for (std::size_t sw = 0; sw < n; ++sw) {
        unsigned histogram[kMaxPathHops] = {};
        for (const std::vector<unsigned> &part : histograms) {
            for (int h = 0; h < kMaxPathHops; ++h)
                histogram[h] += part[sw * kMaxPathHops + std::size_t(h)];
        }
        int overDominant = 0;
        int overNoticeable = 0;
        for (unsigned count : histogram) {
            overDominant += count > dominant;
            overNoticeable += count > noticeable;
        }
        if (overDominant == 1 && overNoticeable == 1) {
            ranks[sw] = 0;
            m_roots.push_back(int(sw));
        }
    }
    if (m_roots.empty())
        return Error{{}, 0, QStringLiteral("updn: no root switches found (no switch sees more than 90% of the "
                                           "channel adapters at one distance); OpenSM would fall back to minhop")};

    // Rank by distance from the nearest root.
    std::deque<int> queue;
    for (int sw : routing::switchesInOpenSmOrder(graph)) {
        if (ranks[std::size_t(sw)] == 0)
            queue.push_back(sw);
    }
    while (!queue.empty()) {
        const int sw = queue.front();
        queue.pop_front();
        for (int p = 1; p <= graph.switches[std::size_t(sw)].portCount; ++p) {
            const routing::SwitchGraph::Slot &slot = graph.slot(sw, p);
            if (slot.remote != routing::SwitchGraph::Remote::Switch)
                continue;
            if (ranks[std::size_t(slot.index)] > ranks[std::size_t(sw)] + 1) {
                ranks[std::size_t(slot.index)] = ranks[std::size_t(sw)] + 1;
                queue.push_back(slot.index);
            }
        }
    }
    m_ranks = std::move(ranks);
    m_graph = std::move(built).value();
    return Done{};
}

Result<Routing> UpDownEngine::route(const RoutingOptions &options)
{
    if (!m_graph)
        return Error{{}, 0, QStringLiteral("updn: route() without a successful prepare()")};
    const routing::SwitchGraph &graph = *m_graph;
    const std::size_t n = graph.switches.size();

    // Hop counts along legal paths only: a breadth-first search from every switch that never
    // steps up after it has stepped down. Literal to OpenSM's updn_bfs_by_node, including
    // which port's count gets set and when a switch is queued again, since the tables depend
    // on which ports end up with the least count. Each target's search is its own, so targets
    // run in parallel, each on its worker's scratch.
    struct Link
    {
        int remote;
        int remoteSlot;       // the far port's slot
        int remoteLeastSlot;  // the far switch's port 0
        Direction direction;
    };
    // Per switch, its cables in port order, then again only those going down: all that a
    // search that has stepped down may take (same order, so the same search).
    std::vector<int> linkStart;
    std::vector<Link> links;
    linkStart.reserve(2 * n + 1);
    for (std::size_t sw = 0; sw < n; ++sw) {
        linkStart.push_back(int(links.size()));
        const std::size_t all = links.size();
        for (int p = 1; p <= graph.switches[sw].portCount; ++p) {
            const routing::SwitchGraph::Slot &slot = graph.slot(int(sw), p);
            if (slot.remote != routing::SwitchGraph::Remote::Switch)
                continue;
            const routing::SwitchGraph::Switch &remote = graph.switches[std::size_t(slot.index)];
            links.push_back({slot.index, remote.firstSlot + slot.remotePort, remote.firstSlot,
                             direction(m_ranks[sw], m_ranks[std::size_t(slot.index)], graph.switches[sw].guid, remote.guid)});
        }
        const std::size_t down = links.size();
        linkStart.push_back(int(down));
        for (std::size_t l = all; l < down; ++l) {
            if (links[l].direction == Direction::Down)
                links.push_back(links[l]);
        }
    }
    linkStart.push_back(int(links.size()));

    struct Scratch
    {
        routing::HopRow hops;
        std::vector<Direction> dir;
        std::vector<char> queued;
        std::vector<int> queue;
    };
    std::vector<Scratch> scratch(std::size_t(routing::workerCount(0)),
                                 Scratch{routing::HopRow(graph), std::vector<Direction>(n, Direction::Up),
                                         std::vector<char>(n, false), std::vector<int>(n)});
    routing::LeastHopPorts ports(graph);
    const bool searched = routing::forEachInParallel(
        int(n), 0, routing::progressPart(options.progress, 0, 2), [&](int worker, int target) {
            Scratch &s = scratch[std::size_t(worker)];
            s.hops.clear();
            s.hops.set(target, 0, 0);
            // Plain pointers: stores into the byte row would otherwise reload every vector.
            std::uint8_t *hops = s.hops.counts();
            Direction *dir = s.dir.data();
            char *queued = s.queued.data();
            int *queue = s.queue.data();
            const int *starts = linkStart.data();
            const Link *all = links.data();
            // A switch is queued at most once at a time: a ring of n holds the queue.
            std::size_t head = 0;
            std::size_t size = 1;
            queue[0] = target;
            dir[target] = Direction::Up;
            while (size > 0) {
                const int sw = queue[head];
                head = head + 1 == n ? 0 : head + 1;
                --size;
                queued[sw] = false;
                const Direction current = dir[sw];
                // Setting a count never lowers this switch's least one (a loopback's count
                // is one more than it), so one read serves every cable.
                const int candidate = int(hops[graph.switches[std::size_t(sw)].firstSlot]) + 1;
                const std::size_t from = 2 * std::size_t(sw) + (current == Direction::Down ? 1 : 0);
                for (const Link *link = all + starts[from], *end = all + starts[from + 1]; link != end; ++link) {
                    if (candidate < int(hops[link->remoteSlot])) {
                        hops[link->remoteSlot] = std::uint8_t(candidate);
                        std::uint8_t &least = hops[link->remoteLeastSlot];
                        if (least > candidate)
                            least = std::uint8_t(candidate);
                        if (!queued[link->remote]) {
                            dir[link->remote] = link->direction;
                            queued[link->remote] = true;
                            const std::size_t tail = head + size;
                            queue[tail >= n ? tail - n : tail] = link->remote;
                            ++size;
                        }
                    }
                }
            }
            ports.store(target, s.hops);
        });
    if (!searched)
        return routing::cancelledError(name());

    Result<ForwardingTables> tables =
        routing::buildLeastLoadedLfts(graph, ports, 0, name(), routing::progressPart(options.progress, 1, 2));
    if (!tables)
        return tables.error();
    Routing result;
    result.engine = name();
    result.tables = std::move(tables).value();
    if (const std::size_t added = reachWithOneTurn(graph, result.tables))
        result.warnings << QStringLiteral("updn: %n entr(ies) added where up*/down* has no path (service nodes on switches of "
                                          "different branches, such as a director's spines), each through one turn, checked "
                                          "deadlock-free; OpenSM's updn leaves them unreachable").replace(QLatin1String("%n"), QString::number(added));
    return result;
}

}  // namespace weft
