#include "RoutingKeys.h"

#include "TrafficModel.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <set>
#include <tuple>
#include <unordered_map>

namespace weft {

// ---- Shape -------------------------------------------------------------------------------------

KeyTreeShape KeyTreeShape::twoLevel(int tors, int hostsPerTor, int middles)
{
    KeyTreeShape s;
    s.levels = 2;
    s.hostsPerTor = hostsPerTor;
    s.torsPerPod = tors;
    s.pods = 1;
    s.aggsPerPod = middles;
    s.spinesPerSubtree = 0;
    return s;
}

KeyTreeShape KeyTreeShape::xgft3(int m1, int m2, int m3, int w2, int w3)
{
    KeyTreeShape s;
    s.levels = 3;
    s.hostsPerTor = m1;
    s.torsPerPod = m2;
    s.pods = m3;
    s.aggsPerPod = w2;
    s.spinesPerSubtree = w3;
    return s;
}

QString KeyTreeShape::linkText(int link) const
{
    const int torAgg = tors() * aggsPerPod;
    const int aggSpine = aggs() * spinesPerSubtree;
    if (link < torAgg)
        return QStringLiteral("up(%1 → %2)").arg(link / aggsPerPod).arg(aggId(link / aggsPerPod / torsPerPod, link % aggsPerPod));
    link -= torAgg;
    if (link < torAgg)
        return QStringLiteral("dn(%1 → %2)").arg(aggId(link / aggsPerPod / torsPerPod, link % aggsPerPod)).arg(link / aggsPerPod);
    link -= torAgg;
    const bool down = link >= aggSpine;
    if (down)
        link -= aggSpine;
    const int k = link % spinesPerSubtree;
    const int agg = link / spinesPerSubtree;
    const int pod = agg / aggsPerPod;
    const int j = agg % aggsPerPod;
    return down ? QStringLiteral("dn(%1 → %2)").arg(spineId(j, k)).arg(aggId(pod, j))
                : QStringLiteral("up(%1 → %2)").arg(aggId(pod, j)).arg(spineId(j, k));
}

QString KeyTreeShape::toString() const
{
    if (levels == 2)
        return QStringLiteral("TwoLevel(%1 ToRs × %2 hosts, %3 middles)").arg(torsPerPod).arg(hostsPerTor).arg(aggsPerPod);
    return QStringLiteral("XGFT(3; %1,%2,%3; 1,%4,%5)").arg(hostsPerTor).arg(torsPerPod).arg(pods).arg(aggsPerPod).arg(spinesPerSubtree);
}

Result<KeyTreeShape> keyTreeFromXgft(const XgftShape &x)
{
    auto all = [](const std::vector<int> &v) { return std::all_of(v.begin(), v.end(), [](int n) { return n > 0; }); };
    if (int(x.children.size()) != x.height || int(x.parents.size()) != x.height || !all(x.children) || !all(x.parents))
        return Error{{}, 0, QStringLiteral("%1 is not a valid XGFT").arg(x.toString())};
    if (x.parents.back() != 1)
        return Error{{}, 0, QStringLiteral("%1: routing keys need hosts with one parent (last w = 1)").arg(x.toString())};
    if (x.height == 2)
        return KeyTreeShape::twoLevel(x.children[0], x.children[1], x.parents[0]);
    if (x.height == 3)
        return KeyTreeShape::xgft3(x.children[2], x.children[1], x.children[0], x.parents[1], x.parents[0]);
    return Error{{}, 0, QStringLiteral("%1: routing keys handle trees of 2 or 3 switch levels, not %2").arg(x.toString()).arg(x.height)};
}

// ---- Patterns ----------------------------------------------------------------------------------

std::array<int, 3> balancedDims(int ranks)
{
    std::array<int, 3> best{std::max(ranks, 1), 1, 1};
    for (int z = 1; z * z * z <= ranks; ++z) {
        if (ranks % z)
            continue;
        for (int y = z; y * y <= ranks / z; ++y) {
            if ((ranks / z) % y)
                continue;
            const int x = ranks / z / y;
            const auto key = [](const std::array<int, 3> &d) { return std::make_pair(d[0] - d[2], d[0]); };
            const std::array<int, 3> candidate{x, y, z};
            if (key(candidate) < key(best))
                best = candidate;
        }
    }
    return best;
}

std::vector<Phase> cartesianPhases(const std::array<int, 3> &dims)
{
    static const char *const axes[] = {"x", "y", "z"};
    std::vector<Phase> phases;
    const int total = dims[0] * dims[1] * dims[2];
    for (int axis = 0; axis < 3; ++axis) {
        for (int step : {+1, -1}) {
            Phase p;
            p.name = QLatin1String(step > 0 ? "+" : "-") + QLatin1String(axes[axis]);
            if (dims[std::size_t(axis)] > 1) {
                for (int r = 0; r < total; ++r) {
                    std::array<int, 3> c{r / (dims[1] * dims[2]), (r / dims[2]) % dims[1], r % dims[2]};
                    const int size = dims[std::size_t(axis)];
                    c[std::size_t(axis)] = (c[std::size_t(axis)] + step + size) % size;
                    p.flows.push_back({r, (c[0] * dims[1] + c[1]) * dims[2] + c[2]});
                }
            }
            phases.push_back(std::move(p));
        }
    }
    return phases;
}

Phase shiftPhase(int ranks, int shift)
{
    Phase p;
    p.name = QStringLiteral("shift %1").arg(shift);
    if (ranks <= 0)
        return p;
    const int c = ((shift % ranks) + ranks) % ranks;
    if (c == 0)
        return p;
    for (int r = 0; r < ranks; ++r)
        p.flows.push_back({r, (r + c) % ranks});
    return p;
}

std::vector<Phase> ringPhases(int ranks, bool bidirectional)
{
    std::vector<Phase> phases{shiftPhase(ranks, 1)};
    phases.front().name = QStringLiteral("ring +1");
    if (bidirectional) {
        phases.push_back(shiftPhase(ranks, -1));
        phases.back().name = QStringLiteral("ring -1");
    }
    return phases;
}

Result<std::vector<Phase>> recursiveDoublingPhases(int ranks)
{
    if (ranks < 2 || (ranks & (ranks - 1)) != 0)
        return Error{{}, 0, QStringLiteral("recursive doubling needs a power-of-two number of ranks, not %1").arg(ranks)};
    std::vector<Phase> phases;
    for (int bit = 1; bit < ranks; bit <<= 1) {
        Phase p;
        p.name = QStringLiteral("step %1").arg(phases.size());
        for (int r = 0; r < ranks; ++r)
            p.flows.push_back({r, r ^ bit});
        phases.push_back(std::move(p));
    }
    return phases;
}

std::vector<int> contiguousPlacement(int firstHost, int ranks)
{
    std::vector<int> hosts(std::size_t(std::max(ranks, 0)));
    std::iota(hosts.begin(), hosts.end(), firstHost);
    return hosts;
}

std::vector<std::vector<int>> randomPlacement(int hosts, int apps, int ranksPerApp, std::uint64_t seed)
{
    std::vector<int> order(std::size_t(std::max(hosts, 0)));
    std::iota(order.begin(), order.end(), 0);
    std::mt19937_64 rng(seed);
    for (std::size_t i = order.size(); i > 1; --i)
        std::swap(order[i - 1], order[std::size_t(uniformBelow(rng, i))]);
    std::vector<std::vector<int>> placement;
    for (int a = 0; a < apps; ++a) {
        const auto begin = order.begin() + std::ptrdiff_t(a) * ranksPerApp;
        placement.emplace_back(begin, begin + ranksPerApp);
    }
    return placement;
}

// ---- Matching ----------------------------------------------------------------------------------

namespace {

// Hopcroft–Karp on a bipartite multigraph whose edges can be switched off.
class BipartiteMatcher
{
public:
    BipartiteMatcher(int left, int right, const std::vector<std::pair<int, int>> &edges,
                     const std::vector<std::vector<int>> &adjacency, const std::vector<bool> &removed)
        : m_right(right), m_edges(edges), m_adjacency(adjacency), m_removed(removed),
          m_matchLeft(std::size_t(left), -1), m_matchRight(std::size_t(right), -1), m_dist(std::size_t(left))
    {
    }

    // Edge indices of a maximum matching.
    std::vector<int> run()
    {
        while (layer()) {
            m_next.assign(m_adjacency.size(), 0);
            for (std::size_t u = 0; u < m_matchLeft.size(); ++u)
                if (m_matchLeft[u] < 0)
                    augment(int(u));
        }
        std::vector<int> matched;
        for (int e : m_matchLeft)
            if (e >= 0)
                matched.push_back(e);
        return matched;
    }

private:
    static constexpr int kInfinity = std::numeric_limits<int>::max();

    int leftOfRight(int v) const
    {
        const int e = m_matchRight[std::size_t(v)];
        return e < 0 ? -1 : m_edges[std::size_t(e)].first;
    }

    bool layer()
    {
        std::deque<int> queue;
        for (std::size_t u = 0; u < m_matchLeft.size(); ++u) {
            m_dist[u] = m_matchLeft[u] < 0 ? 0 : kInfinity;
            if (m_matchLeft[u] < 0)
                queue.push_back(int(u));
        }
        bool found = false;
        while (!queue.empty()) {
            const int u = queue.front();
            queue.pop_front();
            for (int e : m_adjacency[std::size_t(u)]) {
                if (m_removed[std::size_t(e)])
                    continue;
                const int w = leftOfRight(m_edges[std::size_t(e)].second);
                if (w < 0)
                    found = true;
                else if (m_dist[std::size_t(w)] == kInfinity) {
                    m_dist[std::size_t(w)] = m_dist[std::size_t(u)] + 1;
                    queue.push_back(w);
                }
            }
        }
        return found;
    }

    bool augment(int u)
    {
        const auto &adj = m_adjacency[std::size_t(u)];
        for (std::size_t &i = m_next[std::size_t(u)]; i < adj.size(); ++i) {
            const int e = adj[i];
            if (m_removed[std::size_t(e)])
                continue;
            const int v = m_edges[std::size_t(e)].second;
            const int w = leftOfRight(v);
            if (w < 0 || (m_dist[std::size_t(w)] == m_dist[std::size_t(u)] + 1 && augment(w))) {
                m_matchLeft[std::size_t(u)] = e;
                m_matchRight[std::size_t(v)] = e;
                return true;
            }
        }
        m_dist[std::size_t(u)] = kInfinity;
        return false;
    }

    int m_right;
    const std::vector<std::pair<int, int>> &m_edges;
    const std::vector<std::vector<int>> &m_adjacency;
    const std::vector<bool> &m_removed;
    std::vector<int> m_matchLeft;
    std::vector<int> m_matchRight;
    std::vector<int> m_dist;
    std::vector<std::size_t> m_next;
};

}  // namespace

std::vector<std::vector<int>> decomposeDemand(int leftCount, int rightCount, const std::vector<std::pair<int, int>> &realEdges,
                                              Decomposition mode, std::uint64_t tieBreakSeed)
{
    std::vector<std::vector<int>> slots;
    if (realEdges.empty())
        return slots;
    std::vector<int> degreeLeft(static_cast<std::size_t>(leftCount)), degreeRight(static_cast<std::size_t>(rightCount));
    for (const auto &[l, r] : realEdges) {
        ++degreeLeft[std::size_t(l)];
        ++degreeRight[std::size_t(r)];
    }
    const int delta = std::max(*std::max_element(degreeLeft.begin(), degreeLeft.end()),
                               *std::max_element(degreeRight.begin(), degreeRight.end()));

    std::vector<std::pair<int, int>> edges = realEdges;
    int vertices = std::max(leftCount, rightCount);
    if (mode == Decomposition::Regularized) {
        // Pad to a Δ-regular multigraph: then every round has a perfect matching, which covers
        // every vertex of maximum remaining degree, so Δ rounds suffice (König).
        degreeLeft.resize(std::size_t(vertices));
        degreeRight.resize(std::size_t(vertices));
        int r = 0;
        for (int l = 0; l < vertices; ++l) {
            while (degreeLeft[std::size_t(l)] < delta) {
                while (degreeRight[std::size_t(r)] >= delta)
                    ++r;
                edges.emplace_back(l, r);
                ++degreeLeft[std::size_t(l)];
                ++degreeRight[std::size_t(r)];
            }
        }
    }
    std::vector<std::vector<int>> adjacency(static_cast<std::size_t>(vertices));
    for (std::size_t e = 0; e < edges.size(); ++e)
        adjacency[std::size_t(edges[e].first)].push_back(int(e));
    // Adjacency by (destination, edge order); the caller gives real edges in flow order.
    for (auto &adj : adjacency)
        std::stable_sort(adj.begin(), adj.end(), [&](int a, int b) { return edges[std::size_t(a)].second < edges[std::size_t(b)].second; });
    if (tieBreakSeed != 0) {
        std::mt19937_64 rng(tieBreakSeed);
        for (auto &adj : adjacency)
            for (std::size_t i = adj.size(); i > 1; --i)
                std::swap(adj[i - 1], adj[std::size_t(uniformBelow(rng, i))]);
    }

    std::vector<bool> removed(edges.size(), false);
    std::size_t remainingReal = realEdges.size();
    while (remainingReal > 0) {
        BipartiteMatcher matcher(vertices, vertices, edges, adjacency, removed);
        const std::vector<int> matching = matcher.run();
        std::vector<int> slot;
        for (int e : matching) {
            removed[std::size_t(e)] = true;
            if (std::size_t(e) < realEdges.size()) {
                slot.push_back(e);
                --remainingReal;
            }
        }
        std::sort(slot.begin(), slot.end());
        if (!slot.empty())
            slots.push_back(std::move(slot));
        else if (matching.empty())
            break;  // cannot happen with real edges left; guards against looping forever
    }
    return slots;
}

// ---- Keys --------------------------------------------------------------------------------------

namespace {

int degreeOf(const std::vector<std::pair<int, int>> &edges, int left, int right)
{
    std::vector<int> dl(static_cast<std::size_t>(left)), dr(static_cast<std::size_t>(right));
    int delta = 0;
    for (const auto &[l, r] : edges)
        delta = std::max({delta, ++dl[std::size_t(l)], ++dr[std::size_t(r)]});
    return delta;
}

}  // namespace

RoutingKey computeKey(const KeyTreeShape &shape, const std::vector<int> &placement, const std::vector<RankFlow> &flows,
                      Decomposition mode, std::uint64_t tieBreakSeed)
{
    RoutingKey key;
    for (const RankFlow &f : flows) {
        if (f.srcRank == f.dstRank || f.srcRank < 0 || f.dstRank < 0 || std::size_t(f.srcRank) >= placement.size()
            || std::size_t(f.dstRank) >= placement.size())
            continue;
        KeyFlow k;
        k.srcRank = f.srcRank;
        k.dstRank = f.dstRank;
        k.srcHost = placement[std::size_t(f.srcRank)];
        k.dstHost = placement[std::size_t(f.dstRank)];
        key.flows.push_back(k);
    }
    // Deterministic order: destination ToR, then source and destination rank (§3.2).
    std::stable_sort(key.flows.begin(), key.flows.end(), [&](const KeyFlow &a, const KeyFlow &b) {
        return std::make_tuple(shape.torOf(a.dstHost), a.srcRank, a.dstRank) < std::make_tuple(shape.torOf(b.dstHost), b.srcRank, b.dstRank);
    });

    std::vector<int> inter;
    std::vector<std::pair<int, int>> edges;
    for (std::size_t i = 0; i < key.flows.size(); ++i) {
        const KeyFlow &f = key.flows[i];
        if (shape.torOf(f.srcHost) != shape.torOf(f.dstHost)) {
            inter.push_back(int(i));
            edges.emplace_back(shape.torOf(f.srcHost), shape.torOf(f.dstHost));
        }
    }
    key.delta = degreeOf(edges, shape.tors(), shape.tors());
    const auto slots = decomposeDemand(shape.tors(), shape.tors(), edges, mode, tieBreakSeed);
    if (int(slots.size()) > key.delta)
        key.warnings << QStringLiteral("paper-literal matching used %1 slots where Δ = %2 would do").arg(slots.size()).arg(key.delta);
    if (int(slots.size()) > shape.aggsPerPod) {
        key.contentionFree = false;
        key.warnings << QStringLiteral("not contention-free: %1 slots for %2 %3; folded")
                            .arg(slots.size()).arg(shape.aggsPerPod)
                            .arg(shape.levels == 2 ? QStringLiteral("middles") : QStringLiteral("sub-trees"));
    }
    for (std::size_t i = 0; i < slots.size(); ++i) {
        key.slotSizes.push_back(int(slots[i].size()));
        std::vector<int> members;
        std::vector<std::pair<int, int>> podEdges;
        for (int e : slots[i]) {
            KeyFlow &f = key.flows[std::size_t(inter[std::size_t(e)])];
            f.slot = int(i);
            if (shape.levels == 3 && shape.podOf(f.srcHost) != shape.podOf(f.dstHost)) {
                members.push_back(inter[std::size_t(e)]);
                podEdges.emplace_back(shape.podOf(f.srcHost), shape.podOf(f.dstHost));
            }
        }
        key.delta2.push_back(degreeOf(podEdges, shape.pods, shape.pods));
        const auto subslots = decomposeDemand(shape.pods, shape.pods, podEdges, mode, tieBreakSeed);
        std::vector<int> sizes;
        for (std::size_t k = 0; k < subslots.size(); ++k) {
            sizes.push_back(int(subslots[k].size()));
            for (int e : subslots[k])
                key.flows[std::size_t(members[std::size_t(e)])].subslot = int(k);
        }
        if (int(subslots.size()) > shape.spinesPerSubtree && !subslots.empty()) {
            key.contentionFree = false;
            key.warnings << QStringLiteral("not contention-free: slot %1 needs %2 spine slots, sub-trees have %3 spines; folded")
                                .arg(i).arg(subslots.size()).arg(shape.spinesPerSubtree);
        }
        key.subslotSizes.push_back(std::move(sizes));
    }
    rotateKey(shape, key, 0);
    return key;
}

void rotateKey(const KeyTreeShape &shape, RoutingKey &key, int rotation)
{
    key.subtree.assign(key.slotSizes.size(), 0);
    key.spine.assign(key.slotSizes.size(), {});
    for (std::size_t i = 0; i < key.slotSizes.size(); ++i) {
        key.subtree[i] = int((i + std::size_t(rotation)) % std::size_t(shape.aggsPerPod));
        for (std::size_t k = 0; k < key.subslotSizes[i].size(); ++k)
            key.spine[i].push_back(int((k + std::size_t(rotation)) % std::size_t(shape.spinesPerSubtree)));
    }
}

int arkRotation(int app, int middles)
{
    if (middles <= 0)
        return 0;
    // splitmix64: a fixed, well-spread hash, the same on every platform.
    std::uint64_t z = std::uint64_t(app) + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return int(z % std::uint64_t(middles));
}

namespace {

std::vector<int> routeVia(const KeyTreeShape &s, int srcHost, int dstHost, int j, int k)
{
    const int ts = s.torOf(srcHost), td = s.torOf(dstHost);
    if (ts == td)
        return {};
    const int ps = s.podOf(srcHost), pd = s.podOf(dstHost);
    if (ps == pd)
        return {s.upTorAgg(ts, j), s.downAggTor(j, td)};
    return {s.upTorAgg(ts, j), s.upAggSpine(ps, j, k), s.downSpineAgg(j, k, pd), s.downAggTor(j, td)};
}

}  // namespace

std::vector<int> keyRoute(const KeyTreeShape &shape, const RoutingKey &key, const KeyFlow &f)
{
    if (f.slot < 0)
        return {};
    const int j = key.subtree[std::size_t(f.slot)];
    const int k = f.subslot < 0 ? 0 : key.spine[std::size_t(f.slot)][std::size_t(f.subslot)];
    return routeVia(shape, f.srcHost, f.dstHost, j, k);
}

std::vector<int> dmodkRoute(const KeyTreeShape &shape, int srcHost, int dstHost)
{
    const int j = dstHost % shape.aggsPerPod;
    const int k = shape.spinesPerSubtree > 0 ? (dstHost / shape.aggsPerPod) % shape.spinesPerSubtree : 0;
    return routeVia(shape, srcHost, dstHost, j, k);
}

QStringList keyPaths(const KeyTreeShape &s, const RoutingKey &key, const QString &label)
{
    QStringList lines;
    const QString arrow = QStringLiteral(" → ");
    for (const KeyFlow &f : key.flows) {
        QStringList hops{QString::number(s.torOf(f.srcHost))};
        if (f.slot >= 0) {
            const int j = key.subtree[std::size_t(f.slot)];
            hops << QString::number(s.aggId(s.podOf(f.srcHost), j));
            if (f.subslot >= 0) {
                hops << QString::number(s.spineId(j, key.spine[std::size_t(f.slot)][std::size_t(f.subslot)]));
                hops << QString::number(s.aggId(s.podOf(f.dstHost), j));
            }
            hops << QString::number(s.torOf(f.dstHost));
        }
        lines << QStringLiteral("%1%2: %3%4DLID(%5)").arg(label).arg(f.srcRank + 1).arg(hops.join(arrow), arrow).arg(f.dstHost);
    }
    return lines;
}

bool keyIsUpDown(const KeyTreeShape &s, const RoutingKey &key)
{
    for (const KeyFlow &f : key.flows) {
        const std::vector<int> route = keyRoute(s, key, f);
        const bool sameTor = s.torOf(f.srcHost) == s.torOf(f.dstHost);
        const bool samePod = s.podOf(f.srcHost) == s.podOf(f.dstHost);
        const std::size_t expected = sameTor ? 0 : samePod || s.levels == 2 ? 2 : 4;
        if (route.size() != expected || (!sameTor && f.slot < 0) || (!samePod && s.levels == 3 && f.subslot < 0))
            return false;
        if (route.empty())
            continue;
        // Up links come first, then down links, and consecutive links meet at the same switch.
        const int torAgg = s.tors() * s.aggsPerPod;
        const int ts = s.torOf(f.srcHost), td = s.torOf(f.dstHost);
        if (route.front() / s.aggsPerPod != ts || route.front() >= torAgg)
            return false;
        const int j = route.front() % s.aggsPerPod;
        if (route.back() != s.downAggTor(j, td))
            return false;
        if (route.size() == 4) {
            const int k = key.spine[std::size_t(f.slot)][std::size_t(f.subslot)];
            if (route[1] != s.upAggSpine(s.podOf(f.srcHost), j, k) || route[2] != s.downSpineAgg(j, k, s.podOf(f.dstHost)))
                return false;
        }
        for (int link : route)
            if (link < 0 || link >= s.linkCount())
                return false;
    }
    return true;
}

// ---- Load and NRK ------------------------------------------------------------------------------

NetworkLoad::NetworkLoad(const KeyTreeShape &shape)
    : links(std::size_t(shape.linkCount()), 0), subtreeFlows(std::size_t(shape.aggsPerPod), 0),
      spineFlows(std::size_t(std::max(shape.spines(), 0)), 0)
{
}

void NetworkLoad::addKey(const KeyTreeShape &shape, const RoutingKey &key, int sign)
{
    for (const KeyFlow &f : key.flows) {
        if (f.slot < 0)
            continue;
        for (int link : keyRoute(shape, key, f))
            links[std::size_t(link)] += sign;
        const int j = key.subtree[std::size_t(f.slot)];
        subtreeFlows[std::size_t(j)] += sign;
        if (f.subslot >= 0)
            spineFlows[std::size_t(j * shape.spinesPerSubtree + key.spine[std::size_t(f.slot)][std::size_t(f.subslot)])] += sign;
    }
}

namespace {

using Cost = std::tuple<long long, long long, int>;

// Picks middles for groups of flows, largest group first, each onto the free candidate of lowest
// cost (ties to the lowest index). When groups outnumber candidates the set is refilled: folding.
std::vector<int> greedyAssign(const std::vector<int> &groupSizes, int candidates,
                              const std::function<Cost(int group, int candidate)> &cost)
{
    std::vector<int> order(groupSizes.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return groupSizes[std::size_t(a)] > groupSizes[std::size_t(b)]; });
    std::vector<int> assigned(groupSizes.size(), 0);
    std::vector<bool> used(std::size_t(candidates), false);
    int free = candidates;
    for (int g : order) {
        if (free == 0) {
            used.assign(std::size_t(candidates), false);
            free = candidates;
        }
        int best = -1;
        Cost bestCost;
        for (int m = 0; m < candidates; ++m) {
            if (used[std::size_t(m)])
                continue;
            const Cost c = cost(g, m);
            if (best < 0 || c < bestCost) {
                best = m;
                bestCost = c;
            }
        }
        assigned[std::size_t(g)] = best;
        used[std::size_t(best)] = true;
        --free;
    }
    return assigned;
}

}  // namespace

void fineGrainedShift(const KeyTreeShape &s, RoutingKey &key, const NetworkLoad &load, ShiftCost costKind)
{
    const int slots = key.slotCount();
    std::vector<std::vector<const KeyFlow *>> members(static_cast<std::size_t>(slots));
    for (const KeyFlow &f : key.flows)
        if (f.slot >= 0)
            members[std::size_t(f.slot)].push_back(&f);
    auto linkCost = [&](const std::vector<std::pair<int, int>> &pairs, int m) {
        long long worst = 0, squares = 0;
        for (const auto &[up, down] : pairs) {
            const long long u = load.links[std::size_t(up)] + 1, d = load.links[std::size_t(down)] + 1;
            worst = std::max({worst, u, d});
            squares += u * u + d * d;
        }
        return Cost{worst, squares, m};
    };

    key.subtree = greedyAssign(key.slotSizes, s.aggsPerPod, [&](int slot, int j) {
        if (costKind == ShiftCost::Paper)
            return Cost{load.subtreeFlows[std::size_t(j)], 0, j};
        std::vector<std::pair<int, int>> pairs;
        for (const KeyFlow *f : members[std::size_t(slot)])
            pairs.emplace_back(s.upTorAgg(s.torOf(f->srcHost), j), s.downAggTor(j, s.torOf(f->dstHost)));
        return linkCost(pairs, j);
    });
    key.spine.assign(std::size_t(slots), {});
    for (int slot = 0; slot < slots; ++slot) {
        if (key.subslotSizes[std::size_t(slot)].empty())
            continue;
        const int j = key.subtree[std::size_t(slot)];
        key.spine[std::size_t(slot)] = greedyAssign(key.subslotSizes[std::size_t(slot)], s.spinesPerSubtree, [&](int sub, int k) {
            if (costKind == ShiftCost::Paper)
                return Cost{load.spineFlows[std::size_t(j * s.spinesPerSubtree + k)], 0, k};
            std::vector<std::pair<int, int>> pairs;
            for (const KeyFlow *f : members[std::size_t(slot)])
                if (f->subslot == sub)
                    pairs.emplace_back(s.upAggSpine(s.podOf(f->srcHost), j, k), s.downSpineAgg(j, k, s.podOf(f->dstHost)));
            return linkCost(pairs, k);
        });
    }
}

LoadFigures loadFigures(const KeyTreeShape &shape, const std::vector<std::vector<std::vector<int>>> &routesPerApp)
{
    LoadFigures figures;
    std::vector<int> total(std::size_t(shape.linkCount()), 0);
    for (const auto &app : routesPerApp) {
        std::vector<int> own(total.size(), 0);
        for (const auto &route : app)
            for (int link : route) {
                ++own[std::size_t(link)];
                ++total[std::size_t(link)];
            }
        if (!own.empty())
            figures.maxIntra = std::max(figures.maxIntra, *std::max_element(own.begin(), own.end()));
    }
    long long sum = 0;
    for (int c : total) {
        figures.max = std::max(figures.max, c);
        sum += c;
        figures.sumSquares += std::int64_t(c) * c;
    }
    figures.mean = total.empty() ? 0 : double(sum) / double(total.size());
    for (const auto &app : routesPerApp) {
        int most = 0;
        for (const auto &route : app)
            for (int link : route)
                most = std::max(most, total[std::size_t(link)]);
        figures.appMax.push_back(most);
    }
    return figures;
}

Result<RoutingKey> KeyScheduler::request(int app, int phase, int offset, const RoutingKey &key, ShiftCost cost)
{
    if (m_active.count({app, phase}))
        return Error{{}, 0, QStringLiteral("app %1 phase %2 already holds its key (RODDone first)").arg(app).arg(phase)};
    for (const auto &[id, active] : m_active)
        if (id.first == app && active.offset == offset)
            return Error{{}, 0, QStringLiteral("offset %1 of app %2 is in use by phase %3; it cannot be reprogrammed while active")
                                    .arg(offset).arg(app).arg(id.second)};
    RoutingKey shifted = key;
    fineGrainedShift(m_shape, shifted, m_load, cost);
    m_load.addKey(m_shape, shifted, +1);
    m_active[{app, phase}] = Active{shifted, offset};
    return shifted;
}

Status KeyScheduler::done(int app, int phase)
{
    const auto it = m_active.find({app, phase});
    if (it == m_active.end())
        return Error{{}, 0, QStringLiteral("app %1 phase %2 holds no key").arg(app).arg(phase)};
    m_load.addKey(m_shape, it->second.key, -1);
    m_active.erase(it);
    return Done{};
}

// ---- LIDs --------------------------------------------------------------------------------------

LidBudget lidBudget(int hosts, int switches, int lmc)
{
    LidBudget b;
    b.lmc = lmc;
    b.lids = (std::int64_t(hosts) << lmc) + switches;
    b.fits = b.lids <= kUnicastLids;
    b.offsets = (1 << lmc) - 1;
    return b;
}

int maxLmc(int hosts, int switches)
{
    int best = -1;
    for (int lmc = 0; lmc <= 7; ++lmc)
        if (lidBudget(hosts, switches, lmc).fits)
            best = lmc;
    return best;
}

int lmcForOffsets(int offsets)
{
    for (int lmc = 0; lmc <= 7; ++lmc)
        if ((1 << lmc) - 1 >= offsets)
            return lmc;
    return 8;
}

std::int64_t maxHostsAtLmc(int switches, int lmc)
{
    return std::max<std::int64_t>(0, (kUnicastLids - switches) >> lmc);
}

// ---- Fabric ------------------------------------------------------------------------------------

namespace {

Error notTree(const QString &why)
{
    return Error{{}, 0, QStringLiteral("not a full 2- or 3-level fat tree: %1").arg(why)};
}

// Components of `nodes` joined through their links to nodes of `otherLevel`, in the order of their
// first member; each holds the nodes of both levels, sorted.
std::vector<std::vector<NodeIndex>> components(const std::vector<NodeIndex> &nodes, const std::vector<std::vector<NodeIndex>> &neighbours,
                                               const std::vector<int> &level, int otherLevel)
{
    std::unordered_map<NodeIndex, int> seen;
    std::vector<std::vector<NodeIndex>> result;
    for (NodeIndex start : nodes) {
        if (seen.count(start))
            continue;
        std::vector<NodeIndex> members;
        std::deque<NodeIndex> queue{start};
        seen[start] = int(result.size());
        const int myLevel = level[std::size_t(start)];
        while (!queue.empty()) {
            const NodeIndex n = queue.front();
            queue.pop_front();
            members.push_back(n);
            for (NodeIndex m : neighbours[std::size_t(n)]) {
                const int l = level[std::size_t(m)];
                if ((l == myLevel || l == otherLevel) && !seen.count(m)) {
                    seen[m] = int(result.size());
                    queue.push_back(m);
                }
            }
        }
        std::sort(members.begin(), members.end());
        result.push_back(members);
    }
    return result;
}

}  // namespace

Result<KeyTreeFabric> inferKeyTree(const Fabric &fabric)
{
    const std::vector<int> level = nodeLevels(fabric);
    std::vector<std::vector<NodeIndex>> neighbours(fabric.nodes().size());
    std::vector<std::vector<std::pair<int, NodeIndex>>> portNeighbours(fabric.nodes().size());
    for (const Link &l : fabric.links()) {
        const Port &a = fabric.port(l.a), &b = fabric.port(l.b);
        neighbours[std::size_t(a.node)].push_back(b.node);
        neighbours[std::size_t(b.node)].push_back(a.node);
        portNeighbours[std::size_t(a.node)].emplace_back(a.number, b.node);
        portNeighbours[std::size_t(b.node)].emplace_back(b.number, a.node);
    }
    int height = 0;
    for (NodeIndex sw : fabric.switches()) {
        if (level[std::size_t(sw)] < 0)
            return notTree(QStringLiteral("switch %1 reaches no host").arg(fabric.node(sw).description));
        height = std::max(height, level[std::size_t(sw)]);
    }
    if (height != 2 && height != 3)
        return notTree(QStringLiteral("it has %1 switch levels").arg(height));
    std::vector<std::vector<NodeIndex>> byLevel(std::size_t(height + 1));
    for (NodeIndex sw : fabric.switches())
        byLevel[std::size_t(level[std::size_t(sw)])].push_back(sw);
    for (auto &nodes : byLevel)
        std::sort(nodes.begin(), nodes.end());

    KeyTreeFabric tree;
    std::vector<std::vector<NodeIndex>> pods{byLevel[1]};
    if (height == 3) {
        pods = components(byLevel[1], neighbours, level, 2);
        for (auto &pod : pods)
            pod.erase(std::remove_if(pod.begin(), pod.end(), [&](NodeIndex n) { return level[std::size_t(n)] != 1; }), pod.end());
    }
    const auto subtrees = height == 3 ? components(byLevel[2], neighbours, level, 3) : std::vector<std::vector<NodeIndex>>{};
    std::unordered_map<NodeIndex, int> subtreeOf;
    for (std::size_t j = 0; j < subtrees.size(); ++j)
        for (NodeIndex n : subtrees[j])
            if (level[std::size_t(n)] == 2)
                subtreeOf[n] = int(j);

    KeyTreeShape &s = tree.shape;
    s.levels = height;
    s.pods = int(pods.size());
    s.torsPerPod = int(pods.front().size());
    s.aggsPerPod = height == 3 ? int(subtrees.size()) : int(byLevel[2].size());
    s.spinesPerSubtree = height == 3 ? int(byLevel[3].size() / std::max<std::size_t>(subtrees.size(), 1)) : 0;
    s.hostsPerTor = -1;

    auto linksBetween = [&](NodeIndex a, NodeIndex b) {
        int n = 0;
        for (const auto &pn : portNeighbours[std::size_t(a)])
            n += pn.second == b;
        return n;
    };
    int lmc = 7;
    for (std::size_t p = 0; p < pods.size(); ++p) {
        if (int(pods[p].size()) != s.torsPerPod)
            return notTree(QStringLiteral("pods of %1 and %2 leaves").arg(s.torsPerPod).arg(pods[p].size()));
        std::vector<NodeIndex> aggs(std::size_t(s.aggsPerPod), kNoIndex);
        if (height == 2) {
            aggs = byLevel[2];
        } else {
            for (NodeIndex tor : pods[p])
                for (NodeIndex n : neighbours[std::size_t(tor)])
                    if (level[std::size_t(n)] == 2) {
                        NodeIndex &slot = aggs[std::size_t(subtreeOf.at(n))];
                        if (slot != kNoIndex && slot != n)
                            return notTree(QStringLiteral("pod %1 has two aggregations in one sub-tree").arg(p));
                        slot = n;
                    }
            if (std::count(aggs.begin(), aggs.end(), kNoIndex))
                return notTree(QStringLiteral("pod %1 misses an aggregation of some sub-tree").arg(p));
        }
        for (NodeIndex tor : pods[p]) {
            for (NodeIndex agg : aggs)
                if (linksBetween(tor, agg) != 1)
                    return notTree(QStringLiteral("leaf %1 and %2 are joined by %3 links, not 1")
                                       .arg(fabric.node(tor).description, fabric.node(agg).description).arg(linksBetween(tor, agg)));
            std::vector<std::pair<int, NodeIndex>> hostPorts;
            for (const auto &pn : portNeighbours[std::size_t(tor)])
                if (level[std::size_t(pn.second)] == 0)
                    hostPorts.push_back(pn);
            std::sort(hostPorts.begin(), hostPorts.end());
            if (s.hostsPerTor < 0)
                s.hostsPerTor = int(hostPorts.size());
            if (int(hostPorts.size()) != s.hostsPerTor || s.hostsPerTor == 0)
                return notTree(QStringLiteral("leaves with %1 and %2 hosts").arg(s.hostsPerTor).arg(hostPorts.size()));
            tree.tors.push_back(tor);
            for (const auto &[number, host] : hostPorts) {
                PortIndex hostPort = kNoIndex;
                for (const auto &pn : portNeighbours[std::size_t(host)])
                    if (pn.second == tor)
                        hostPort = fabric.portOf(host, pn.first);
                if (std::count(tree.hosts.begin(), tree.hosts.end(), host))
                    return notTree(QStringLiteral("host %1 has two cables").arg(fabric.node(host).description));
                tree.hosts.push_back(host);
                tree.hostPorts.push_back(hostPort);
                lmc = std::min<int>(lmc, fabric.port(hostPort).lmc);
            }
        }
        tree.aggs.insert(tree.aggs.end(), aggs.begin(), aggs.end());
    }
    if (height == 3) {
        for (std::size_t j = 0; j < subtrees.size(); ++j) {
            std::vector<NodeIndex> spines;
            for (NodeIndex n : subtrees[j])
                if (level[std::size_t(n)] == 3)
                    spines.push_back(n);
            std::sort(spines.begin(), spines.end());
            if (int(spines.size()) != s.spinesPerSubtree || spines.empty())
                return notTree(QStringLiteral("sub-trees of %1 and %2 spines").arg(s.spinesPerSubtree).arg(spines.size()));
            for (int p = 0; p < s.pods; ++p)
                for (NodeIndex spine : spines)
                    if (linksBetween(tree.aggs[std::size_t(p * s.aggsPerPod) + j], spine) != 1)
                        return notTree(QStringLiteral("aggregation %1 is not joined once to spine %2")
                                           .arg(fabric.node(tree.aggs[std::size_t(p * s.aggsPerPod) + j]).description,
                                                fabric.node(spine).description));
            tree.spines.insert(tree.spines.end(), spines.begin(), spines.end());
        }
    }
    if (tree.hosts.size() + fabric.switches().size() != fabric.nodes().size())
        return notTree(QStringLiteral("some end nodes hang off non-leaf switches"));
    tree.hostLmc = tree.hosts.empty() ? 0 : lmc;
    return tree;
}

namespace {

std::uint8_t portToward(const Fabric &fabric, NodeIndex from, NodeIndex to)
{
    const Node &n = fabric.node(from);
    for (int p = 1; p <= n.portCount; ++p) {
        const Port &port = fabric.port(n.firstPort + p);
        if (port.remote != kNoIndex && fabric.port(port.remote).node == to)
            return std::uint8_t(p);
    }
    return kNoRoute;
}

}  // namespace

Result<ForwardingTables> keyForwardingTables(const Fabric &fabric, const KeyTreeFabric &tree, const std::vector<OffsetKey> &keys)
{
    const KeyTreeShape &s = tree.shape;
    ForwardingTables tables;
    std::unordered_map<NodeIndex, int> tableOf;
    for (NodeIndex sw : fabric.switches()) {
        tableOf[sw] = tables.addSwitch(fabric.node(sw).guid, fabric.nodeLid(sw), fabric.node(sw).description);
        tables.lft(std::size_t(tableOf[sw])).reserve(fabric.maxLid());
    }
    auto set = [&](NodeIndex sw, int lid, NodeIndex toward) {
        tables.lft(std::size_t(tableOf.at(sw))).setPort(Lid(lid), portToward(fabric, sw, toward));
    };

    // Host LIDs, every offset: DmodK over the host index.
    for (int h = 0; h < s.hosts(); ++h) {
        const Port &hp = fabric.port(tree.hostPorts[std::size_t(h)]);
        const int t = s.torOf(h), p = s.podOf(h);
        const int j = h % s.aggsPerPod;
        const int k = s.spinesPerSubtree > 0 ? (h / s.aggsPerPod) % s.spinesPerSubtree : 0;
        for (int o = 0; o < (1 << hp.lmc); ++o) {
            const int lid = hp.lid + o;
            for (int tor = 0; tor < s.tors(); ++tor)
                set(tree.tors[std::size_t(tor)], lid, tor == t ? tree.hosts[std::size_t(h)] : tree.aggs[std::size_t((tor / s.torsPerPod) * s.aggsPerPod + j)]);
            for (int pod = 0; pod < s.pods; ++pod)
                for (int jj = 0; jj < s.aggsPerPod; ++jj)
                    set(tree.aggs[std::size_t(pod * s.aggsPerPod + jj)], lid,
                        pod == p ? tree.tors[std::size_t(t)] : tree.spines[std::size_t(jj * s.spinesPerSubtree + k)]);
            for (int jj = 0; jj < s.aggsPerPod; ++jj)
                for (int kk = 0; kk < s.spinesPerSubtree; ++kk)
                    set(tree.spines[std::size_t(jj * s.spinesPerSubtree + kk)], lid, tree.aggs[std::size_t(p * s.aggsPerPod + jj)]);
        }
    }
    // Switch LIDs: fewest hops, lowest port first; switches answer their own LID on port 0.
    for (NodeIndex target : fabric.switches()) {
        const Lid lid = fabric.nodeLid(target);
        if (lid == 0)
            continue;
        std::unordered_map<NodeIndex, int> dist{{target, 0}};
        std::deque<NodeIndex> queue{target};
        while (!queue.empty()) {
            const NodeIndex n = queue.front();
            queue.pop_front();
            const Node &node = fabric.node(n);
            for (int p = 1; p <= node.portCount; ++p) {
                const Port &port = fabric.port(node.firstPort + p);
                if (port.remote == kNoIndex)
                    continue;
                const NodeIndex m = fabric.port(port.remote).node;
                if (fabric.node(m).type == NodeType::Switch && !dist.count(m)) {
                    dist[m] = dist[n] + 1;
                    queue.push_back(m);
                }
            }
        }
        for (NodeIndex sw : fabric.switches()) {
            LinearForwardingTable &lft = tables.lft(std::size_t(tableOf.at(sw)));
            if (sw == target) {
                lft.setPort(lid, 0);
                continue;
            }
            if (!dist.count(sw))
                continue;
            const Node &node = fabric.node(sw);
            for (int p = 1; p <= node.portCount; ++p) {
                const Port &port = fabric.port(node.firstPort + p);
                if (port.remote == kNoIndex)
                    continue;
                const auto it = dist.find(fabric.port(port.remote).node);
                if (it != dist.end() && it->second == dist[sw] - 1) {
                    lft.setPort(lid, std::uint8_t(p));
                    break;
                }
            }
        }
    }

    // The entries each key owns.
    std::map<std::pair<NodeIndex, int>, std::uint8_t> owned;
    auto own = [&](NodeIndex sw, int lid, NodeIndex toward) -> Status {
        const std::uint8_t port = portToward(fabric, sw, toward);
        const auto [it, inserted] = owned.emplace(std::make_pair(sw, lid), port);
        if (!inserted && it->second != port)
            return Error{{}, 0, QStringLiteral("two keys need different ports at %1 for LID %2 (many-to-one flows sharing a switch): use another offset")
                                    .arg(fabric.node(sw).description).arg(lid)};
        set(sw, lid, toward);
        return Done{};
    };
    for (const OffsetKey &ok : keys) {
        if (ok.offset < 1 || ok.offset >= (1 << tree.hostLmc))
            return Error{{}, 0, QStringLiteral("offset %1 needs LMC %2 but the hosts have LMC %3")
                                    .arg(ok.offset).arg(lmcForOffsets(ok.offset)).arg(tree.hostLmc)};
        for (const KeyFlow &f : ok.key.flows) {
            if (f.slot < 0)
                continue;
            const int lid = fabric.port(tree.hostPorts[std::size_t(f.dstHost)]).lid + ok.offset;
            const int j = ok.key.subtree[std::size_t(f.slot)];
            const int ps = s.podOf(f.srcHost);
            const NodeIndex agg = tree.aggs[std::size_t(ps * s.aggsPerPod + j)];
            if (Status st = own(tree.tors[std::size_t(s.torOf(f.srcHost))], lid, agg); !st)
                return st.error();
            if (f.subslot >= 0) {
                const int k = ok.key.spine[std::size_t(f.slot)][std::size_t(f.subslot)];
                if (Status st = own(agg, lid, tree.spines[std::size_t(j * s.spinesPerSubtree + k)]); !st)
                    return st.error();
            }
        }
    }
    return tables;
}

LftChange countLftChanges(const ForwardingTables &before, const ForwardingTables &after)
{
    LftChange change;
    auto compare = [&](const SwitchForwardingTable *a, const SwitchForwardingTable *b) {
        static const LinearForwardingTable empty;
        const LinearForwardingTable &la = a ? a->lft : empty, &lb = b ? b->lft : empty;
        const std::size_t top = std::max(la.entries().size(), lb.entries().size());
        std::set<std::size_t> blocks;
        int entries = 0;
        for (std::size_t lid = 0; lid < top; ++lid)
            if (la.port(Lid(lid)) != lb.port(Lid(lid))) {
                ++entries;
                blocks.insert(lid / kLftBlockSize);
            }
        change.entries += entries;
        change.blocks += int(blocks.size());
        change.switches += entries > 0;
    };
    for (const SwitchForwardingTable &sw : after.switches())
        compare(before.find(sw.guid), &sw);
    for (const SwitchForwardingTable &sw : before.switches())
        if (!after.contains(sw.guid))
            compare(&sw, nullptr);
    return change;
}

}  // namespace weft
