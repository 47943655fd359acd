#include "IsolationSearch.h"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <tuple>
#include <utility>

namespace weft::routing {

namespace {

using Problem = IsolationProblem;
using Usage = std::vector<std::pair<int, int>>;  // (directed link, partition), sorted, unique
constexpr int kUnset = std::numeric_limits<int>::max();

int upLink(int group)
{
    return 2 * group;
}
int downLink(int group)
{
    return 2 * group + 1;
}

// Every up path from `leaf` to a root, as group sequences, in ftree's up-port order.
void upPaths(const Problem &p, int sw, std::vector<int> &path, std::vector<std::vector<int>> &out, int cap)
{
    if (int(out.size()) > cap)
        return;
    if (p.upGroups[std::size_t(sw)].empty()) {
        out.push_back(path);
        return;
    }
    for (int g : p.upGroups[std::size_t(sw)]) {
        path.push_back(g);
        upPaths(p, p.groups[std::size_t(g)].upper, path, out, cap);
        path.pop_back();
    }
}

// Where each switch forwards a destination whose down path is `path` (from `leaf`): the down
// path's switches point down it; the others as the engine's "route up by going down" sets them
// (children first reached at the fewest hops keep their parent). Next hop as a directed link.
std::vector<int> destinationTree(const Problem &p, int leaf, const std::vector<int> &path)
{
    std::vector<int> hops(std::size_t(p.switchCount), kUnset);
    std::vector<int> next(std::size_t(p.switchCount), -1);
    auto routeUp = [&](auto &&self, int sw, int exclude) -> void {
        for (int g : p.downGroups[std::size_t(sw)]) {
            const int child = p.groups[std::size_t(g)].lower;
            if (child == exclude || hops[std::size_t(child)] <= hops[std::size_t(sw)] + 1)
                continue;
            hops[std::size_t(child)] = hops[std::size_t(sw)] + 1;
            next[std::size_t(child)] = upLink(g);
            self(self, child, -1);
        }
    };
    hops[std::size_t(leaf)] = 1;
    routeUp(routeUp, leaf, -1);
    int below = leaf;
    for (int g : path) {
        const int upper = p.groups[std::size_t(g)].upper;
        hops[std::size_t(upper)] = hops[std::size_t(below)] + 1;
        next[std::size_t(upper)] = downLink(g);
        routeUp(routeUp, upper, below);
        below = upper;
    }
    return next;
}

// The directed links and partitions of the class's flows when its down path is `path`.
// `complete` is false when some sender's leaf does not reach the path by going up (a failed
// leaf uplink, middle-top link or middle switch in the way): the engine's router then sends
// those flows down another path, through links this model does not see, so such a path
// is no candidate wherever the class has one every sender reaches.
Usage usageOf(const Problem &p, const Problem::DestinationClass &c, const std::vector<int> &path, bool &complete)
{
    const std::vector<int> next = destinationTree(p, c.leaf, path);
    Usage usage;
    complete = true;
    for (const Problem::Demand &d : c.demands) {
        for (int from : d.senderLeaves) {
            int at = from;
            for (int step = 0; at != c.leaf && step <= p.switchCount; ++step) {
                const int link = next[std::size_t(at)];
                if (link < 0) {
                    complete = false;
                    break;
                }
                usage.push_back({link, d.partition});
                const Problem::Group &g = p.groups[std::size_t(link / 2)];
                at = link % 2 == 0 ? g.upper : g.lower;
            }
        }
    }
    std::sort(usage.begin(), usage.end());
    usage.erase(std::unique(usage.begin(), usage.end()), usage.end());
    return usage;
}

// (phy-shared links, phy links shared with anyone, links shared by any two partitions)
using Score = std::tuple<int, int, int>;

class LinkState
{
public:
    LinkState(const Problem &p, int links)
        : m_p(p), m_on(std::size_t(links)), m_touched(std::size_t(p.switchCount), 0) {}

    Score score() const { return m_score; }
    bool touched(int sw) const { return m_touched[std::size_t(sw)] > 0; }

    void add(const Usage &usage, int sign)
    {
        for (const auto &[link, part] : usage) {
            std::vector<std::pair<int, int>> &on = m_on[std::size_t(link)];
            const Score before = linkScore(on);
            auto it = std::lower_bound(on.begin(), on.end(), std::make_pair(part, std::numeric_limits<int>::min()));
            if (it == on.end() || it->first != part)
                it = on.insert(it, {part, 0});
            it->second += sign;
            if (it->second == 0)
                on.erase(it);
            const Score after = linkScore(on);
            std::get<0>(m_score) += std::get<0>(after) - std::get<0>(before);
            std::get<1>(m_score) += std::get<1>(after) - std::get<1>(before);
            std::get<2>(m_score) += std::get<2>(after) - std::get<2>(before);
            const Problem::Group &g = m_p.groups[std::size_t(link / 2)];
            m_touched[std::size_t(g.upper)] += sign;
        }
    }

    Score delta(const Usage &usage)
    {
        const Score before = m_score;
        add(usage, +1);
        const Score after = m_score;
        add(usage, -1);
        return {std::get<0>(after) - std::get<0>(before), std::get<1>(after) - std::get<1>(before),
                std::get<2>(after) - std::get<2>(before)};
    }

private:
    Score linkScore(const std::vector<std::pair<int, int>> &on) const
    {
        int phy = 0;
        for (const auto &[part, count] : on)
            phy += m_p.physical[std::size_t(part)] ? 1 : 0;
        const int distinct = int(on.size());
        return {phy >= 2 ? 1 : 0, phy >= 1 && distinct >= 2 ? 1 : 0, distinct >= 2 ? 1 : 0};
    }

    const Problem &m_p;
    std::vector<std::vector<std::pair<int, int>>> m_on;  // per link: (partition, flows' classes)
    std::vector<int> m_touched;                          // per switch: usages entering it
    Score m_score{0, 0, 0};
};

bool hasPhysical(const Problem &p, const Problem::DestinationClass &c)
{
    for (const Problem::Demand &d : c.demands)
        if (p.physical[std::size_t(d.partition)])
            return true;
    return false;
}

std::pair<int, int> primary(const Score &s)
{
    return {std::get<0>(s), std::get<1>(s)};
}

// Switches the search may treat as interchangeable while no chosen path touches them. Roots
// with the same switches below are twins: swapping two untouched twins maps the tree, and every
// choice made so far, onto itself. On three levels a column (a set of twin roots and the middle
// switches below them, which lead up only to those roots) can be swapped whole with another
// untouched column of the same shape (as many roots, middle switches with the same leaves below),
// as a failed top switch leaves one column smaller. On a degraded tree the test is the same and
// still sound: a failed leaf uplink changes the leaves below a middle switch, a failed middle-top
// link splits the twins (and leaves the middle switch leading up to a root outside them), a
// failed middle switch leaves its column with fewer; each makes its column unlike every other.
// Options of one class lead to equal minimums, so the branch and bound tries only the first of
// each class.
class Symmetry
{
public:
    explicit Symmetry(const Problem &p)
        : m_p(p), m_twin(std::size_t(p.switchCount), -1)
    {
        std::map<std::vector<int>, int> twinIds;
        for (int sw = 0; sw < p.switchCount; ++sw) {
            if (!p.upGroups[std::size_t(sw)].empty() || p.downGroups[std::size_t(sw)].empty())
                continue;
            const std::vector<int> below = lowerSwitches(sw);
            const auto [it, fresh] = twinIds.emplace(below, int(m_twins.size()));
            if (fresh)
                m_twins.push_back({{}, below, -1});
            m_twins[std::size_t(it->second)].roots.push_back(sw);
            m_twin[std::size_t(sw)] = it->second;
        }
        // Columns: the twins' middle switches must lead up to exactly those roots.
        std::map<std::pair<std::size_t, std::vector<std::vector<int>>>, int> columnIds;
        for (Twins &t : m_twins) {
            std::vector<std::vector<int>> shape;
            bool regular = true;
            for (int mid : t.below) {
                std::vector<int> above;
                for (int g : p.upGroups[std::size_t(mid)])
                    above.push_back(p.groups[std::size_t(g)].upper);
                std::sort(above.begin(), above.end());
                above.erase(std::unique(above.begin(), above.end()), above.end());
                regular = regular && above == t.roots && !p.downGroups[std::size_t(mid)].empty();
                shape.push_back(lowerSwitches(mid));
            }
            if (!regular)
                continue;
            std::sort(shape.begin(), shape.end());
            t.column = columnIds.emplace(std::make_pair(t.roots.size(), shape), int(columnIds.size())).first->second;
        }
    }

    // The class of `path` (groups from a leaf up to a root); `index` keeps paths of no class apart.
    std::tuple<int, int, int> classOf(const std::vector<int> &path, int index, const LinkState &state) const
    {
        const auto touched = [&state](int sw) { return state.touched(sw); };
        if (path.empty())
            return {2, index, 0};
        const int root = m_p.groups[std::size_t(path.back())].upper;
        const int twin = m_twin[std::size_t(root)];
        if (twin < 0 || touched(root) || path.size() > 2)
            return {2, index, 0};
        const Twins &t = m_twins[std::size_t(twin)];
        if (path.size() == 1)
            return {0, twin, 0};
        if (t.column >= 0 && std::none_of(t.roots.begin(), t.roots.end(), touched)
            && std::none_of(t.below.begin(), t.below.end(), touched))
            return {0, t.column, 0};
        return {1, twin, m_p.groups[std::size_t(path.front())].upper};
    }

private:
    std::vector<int> lowerSwitches(int sw) const
    {
        std::vector<int> below;
        for (int g : m_p.downGroups[std::size_t(sw)])
            below.push_back(m_p.groups[std::size_t(g)].lower);
        std::sort(below.begin(), below.end());
        below.erase(std::unique(below.begin(), below.end()), below.end());
        return below;
    }

    struct Twins
    {
        std::vector<int> roots;  // sorted
        std::vector<int> below;  // the switches below them, sorted
        int column = -1;         // the column's shape, or -1: not a column that can be swapped
    };
    const Problem &m_p;
    std::vector<int> m_twin;  // per switch: its twins, or -1 (not a root)
    std::vector<Twins> m_twins;
};

}  // namespace

IsolationPlan searchIsolation(const IsolationProblem &p)
{
    IsolationPlan plan;
    const int classCount = int(p.classes.size());
    // Candidates per leaf, usages per class and candidate.
    std::vector<std::vector<std::vector<int>>> pathsOfLeaf(std::size_t(p.switchCount));
    std::vector<std::vector<Usage>> usage{std::size_t(classCount)};
    // Per class, the paths it may take: those every sender reaches, or all where none does.
    std::vector<std::vector<int>> candidates{std::size_t(classCount)};
    plan.exact = true;
    for (int c = 0; c < classCount; ++c) {
        const Problem::DestinationClass &cls = p.classes[std::size_t(c)];
        if (cls.demands.empty())
            continue;
        std::vector<std::vector<int>> &paths = pathsOfLeaf[std::size_t(cls.leaf)];
        if (paths.empty()) {
            std::vector<int> path;
            upPaths(p, cls.leaf, path, paths, p.maxCandidates);
            if (paths.empty() || int(paths.size()) > p.maxCandidates)
                return plan;
        }
        std::vector<int> incomplete;
        for (int k = 0; k < int(paths.size()); ++k) {
            bool complete = true;
            usage[std::size_t(c)].push_back(usageOf(p, cls, paths[std::size_t(k)], complete));
            (complete ? candidates[std::size_t(c)] : incomplete).push_back(k);
        }
        if (candidates[std::size_t(c)].empty()) {
            // Every path leaves some sender to the router's other down paths, which the model
            // does not count: the search still runs, but proves nothing for this class.
            candidates[std::size_t(c)] = std::move(incomplete);
            plan.exact = false;
        }
    }
    plan.ran = true;

    LinkState state(p, int(p.groups.size()) * 2);
    std::vector<int> downLoad(p.groups.size(), 0);
    auto loadOf = [&](const std::vector<int> &path) {
        int most = 0;
        for (int g : path)
            most = std::max(most, downLoad[std::size_t(g)]);
        return most;
    };
    const Symmetry symmetry(p);

    // Phase 1: classes with a phy partition, by branch and bound. Partitions spread over more
    // leaves first (they are the hardest to place), then partition, then leaf order.
    std::vector<int> spread(p.physical.size(), 0);
    for (const Problem::DestinationClass &cls : p.classes)
        for (const Problem::Demand &d : cls.demands)
            spread[std::size_t(d.partition)] = std::max(spread[std::size_t(d.partition)], int(d.senderLeaves.size()) + 1);
    std::vector<int> hard, easy;
    for (int c = 0; c < classCount; ++c) {
        if (p.classes[std::size_t(c)].demands.empty())
            continue;
        (hasPhysical(p, p.classes[std::size_t(c)]) ? hard : easy).push_back(c);
    }
    auto leading = [&](int c) {
        int best = -1;
        for (const Problem::Demand &d : p.classes[std::size_t(c)].demands)
            if (p.physical[std::size_t(d.partition)] && (best < 0 || spread[std::size_t(d.partition)] > spread[std::size_t(best)]))
                best = d.partition;
        return best;
    };
    std::stable_sort(hard.begin(), hard.end(), [&](int a, int b) {
        const int pa = leading(a), pb = leading(b);
        if (spread[std::size_t(pa)] != spread[std::size_t(pb)])
            return spread[std::size_t(pa)] > spread[std::size_t(pb)];
        return pa < pb;
    });

    std::vector<int> chosen(std::size_t(classCount), -1);
    std::vector<int> best(std::size_t(classCount), -1);
    std::pair<int, int> bestScore{kUnset, kUnset};
    bool aborted = false;
    auto search = [&](auto &&self, std::size_t i) -> void {
        if (aborted || bestScore == std::make_pair(0, 0))
            return;
        if (++plan.nodes > p.budget) {
            aborted = true;
            return;
        }
        const std::pair<int, int> now = primary(state.score());
        if (i == hard.size()) {
            if (now < bestScore) {
                bestScore = now;
                best = chosen;
            }
            return;
        }
        // Lower bound: every remaining class must be placed somewhere.
        for (std::size_t j = i + 1; j < hard.size(); ++j) {
            std::pair<int, int> least{kUnset, kUnset};
            for (int k : candidates[std::size_t(hard[j])])
                least = std::min(least, primary(state.delta(usage[std::size_t(hard[j])][std::size_t(k)])));
            if (std::make_pair(now.first + least.first, now.second + least.second) >= bestScore)
                return;
        }
        const int c = hard[i];
        const std::vector<std::vector<int>> &paths = pathsOfLeaf[std::size_t(p.classes[std::size_t(c)].leaf)];
        struct Option
        {
            std::pair<int, int> delta;
            int load;
            int index;
        };
        std::vector<Option> options;
        std::vector<std::tuple<int, int, int>> tried;  // the classes tried at this node
        for (int k : candidates[std::size_t(c)])
            options.push_back({primary(state.delta(usage[std::size_t(c)][std::size_t(k)])), loadOf(paths[std::size_t(k)]), k});
        std::stable_sort(options.begin(), options.end(), [](const Option &a, const Option &b) {
            return std::tie(a.delta, a.load, a.index) < std::tie(b.delta, b.load, b.index);
        });
        for (const Option &o : options) {
            if (std::make_pair(now.first + o.delta.first, now.second + o.delta.second) >= bestScore)
                break;
            const std::vector<int> &path = paths[std::size_t(o.index)];
            const std::tuple<int, int, int> kind = symmetry.classOf(path, o.index, state);
            if (std::find(tried.begin(), tried.end(), kind) != tried.end())
                continue;
            tried.push_back(kind);
            chosen[std::size_t(c)] = o.index;
            state.add(usage[std::size_t(c)][std::size_t(o.index)], +1);
            for (int g : path)
                downLoad[std::size_t(g)] += p.classes[std::size_t(c)].hosts;
            self(self, i + 1);
            for (int g : path)
                downLoad[std::size_t(g)] -= p.classes[std::size_t(c)].hosts;
            state.add(usage[std::size_t(c)][std::size_t(o.index)], -1);
            chosen[std::size_t(c)] = -1;
            if (aborted || bestScore == std::make_pair(0, 0))
                return;
        }
    };
    search(search, 0);
    plan.proven = !aborted;
    plan.leastPhyShared = bestScore.first;
    plan.leastPhyConflicts = bestScore.second;
    for (int c : hard) {
        if (best[std::size_t(c)] < 0)
            return IsolationPlan{};  // the budget ran out before one complete assignment
        state.add(usage[std::size_t(c)][std::size_t(best[std::size_t(c)])], +1);
    }

    // Phase 2: the other classes, greedily.
    for (int c : easy) {
        const std::vector<std::vector<int>> &paths = pathsOfLeaf[std::size_t(p.classes[std::size_t(c)].leaf)];
        int pick = -1;
        std::tuple<Score, int> pickKey;
        for (int k : candidates[std::size_t(c)]) {
            const std::tuple<Score, int> key = std::make_tuple(state.delta(usage[std::size_t(c)][std::size_t(k)]), loadOf(paths[std::size_t(k)]));
            if (pick < 0 || key < pickKey) {
                pick = k;
                pickKey = key;
            }
        }
        best[std::size_t(c)] = pick;
        state.add(usage[std::size_t(c)][std::size_t(pick)], +1);
        for (int g : paths[std::size_t(pick)])
            downLoad[std::size_t(g)] += p.classes[std::size_t(c)].hosts;
    }

    // Phase 3: spread each class's hosts over the paths that change none of the counts.
    std::fill(downLoad.begin(), downLoad.end(), 0);
    plan.hostPaths.assign(std::size_t(classCount), {});
    for (int c = 0; c < classCount; ++c) {
        const Problem::DestinationClass &cls = p.classes[std::size_t(c)];
        if (cls.demands.empty())
            continue;
        const std::vector<std::vector<int>> &paths = pathsOfLeaf[std::size_t(cls.leaf)];
        for (int h = 0; h < cls.hosts; ++h) {
            int pick = best[std::size_t(c)];
            int pickLoad = loadOf(paths[std::size_t(pick)]);
            for (int k : candidates[std::size_t(c)]) {
                if (k == pick || state.delta(usage[std::size_t(c)][std::size_t(k)]) != Score{0, 0, 0})
                    continue;
                const int load = loadOf(paths[std::size_t(k)]);
                if (load < pickLoad || (load == pickLoad && k < pick)) {
                    pick = k;
                    pickLoad = load;
                }
            }
            state.add(usage[std::size_t(c)][std::size_t(pick)], +1);
            for (int g : paths[std::size_t(pick)])
                ++downLoad[std::size_t(g)];
            plan.hostPaths[std::size_t(c)].push_back(paths[std::size_t(pick)]);
        }
    }
    plan.phyShared = std::get<0>(state.score());
    plan.phyConflicts = std::get<1>(state.score());
    return plan;
}

}  // namespace weft::routing
