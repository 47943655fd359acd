#include "UpDownEngine.h"

#include "LeastLoadedLfts.h"

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

    routing::HopTable hops(graph);
    routing::fillMinHopTable(graph, hops);

    // End ports per switch, and the distance histogram of each switch towards them.
    const std::size_t n = graph.switches.size();
    std::vector<unsigned> endPortsOn(n, 0);
    unsigned endPorts = 0;
    for (const routing::SwitchGraph::EndPort &e : graph.endPorts) {
        if (e.remote == routing::SwitchGraph::Remote::Switch) {
            ++endPortsOn[std::size_t(e.remoteIndex)];
            ++endPorts;
        }
    }
    const double dominant = endPorts * 0.9;
    const double noticeable = endPorts * 0.05;
    std::vector<std::uint32_t> ranks(n, kUnranked);
    for (std::size_t sw = 0; sw < n; ++sw) {
        unsigned histogram[kMaxPathHops] = {};
        for (std::size_t t = 0; t < n; ++t) {
            if (endPortsOn[t] == 0)
                continue;
            const std::uint8_t h = hops.least(int(t), int(sw));
            if (h < kMaxPathHops)
                histogram[h] += endPortsOn[t];
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
    // on which ports end up with the least count.
    routing::HopTable hops(graph);
    std::vector<Direction> dir(n, Direction::Up);
    std::vector<bool> queued(n, false);
    std::deque<int> queue;
    int done = 0;
    for (int target : routing::switchesInOpenSmOrder(graph)) {
        if (options.progress && done % 64 == 0 && !options.progress(done, int(2 * n)))
            return routing::cancelledError(name());
        ++done;
        hops.set(target, target, 0, 0);
        dir[std::size_t(target)] = Direction::Up;
        queue.assign(1, target);
        while (!queue.empty()) {
            const int sw = queue.front();
            queue.pop_front();
            queued[std::size_t(sw)] = false;
            const Direction current = dir[std::size_t(sw)];
            for (int p = 1; p <= graph.switches[std::size_t(sw)].portCount; ++p) {
                const routing::SwitchGraph::Slot &slot = graph.slot(sw, p);
                if (slot.remote != routing::SwitchGraph::Remote::Switch)
                    continue;
                const int remote = slot.index;
                const Direction next = direction(m_ranks[std::size_t(sw)], m_ranks[std::size_t(remote)],
                                                 graph.switches[std::size_t(sw)].guid,
                                                 graph.switches[std::size_t(remote)].guid);
                if (current == Direction::Down && next == Direction::Up)
                    continue;
                const int candidate = int(hops.least(target, sw)) + 1;
                if (candidate < int(hops.hops(target, remote, slot.remotePort))) {
                    hops.set(target, remote, slot.remotePort, std::uint8_t(candidate));
                    if (!queued[std::size_t(remote)]) {
                        dir[std::size_t(remote)] = next;
                        queued[std::size_t(remote)] = true;
                        queue.push_back(remote);
                    }
                }
            }
        }
    }

    std::vector<std::vector<std::uint8_t>> lfts;
    auto progress = [&](int d, int total) {
        return !options.progress || options.progress(int(n) + int(std::int64_t(d) * int(n) / std::max(total, 1)), int(2 * n));
    };
    if (!routing::buildLeastLoadedLfts(graph, hops, progress, lfts))
        return routing::cancelledError(name());
    Routing result;
    result.engine = name();
    result.tables = routing::makeTables(graph, lfts);
    return result;
}

}  // namespace weft
