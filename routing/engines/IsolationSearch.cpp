#include "IsolationSearch.h"

#include <algorithm>
#include <chrono>
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

// Where each switch forwards a destination whose down path is `path` (from `leaf`), as the
// engine's router sets it: the down path's switches point down it; every other switch as "route
// up by going down" reaches it (children first reached at the fewest hops keep their parent),
// the down path's switches first, then each one's other parents in cable order, which gives a
// sender cut off from the down path its second one (a switch off the down path takes its
// parents in cable order as well: the router does so for a routing along the search's paths).
// Next hop as a directed link, -1 where nothing reaches.
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
    // The router's walk down from the leaf: `step` is the switch's place on the down path, or -1.
    auto routeDown = [&](auto &&self, int sw, int prev, int step) -> void {
        routeUp(routeUp, sw, prev);
        std::vector<int> ups = p.upGroups[std::size_t(sw)];
        std::sort(ups.begin(), ups.end());  // cable order: cables are numbered group by group
        if (step >= 0 && step < int(path.size())) {
            const int main = path[std::size_t(step)];
            ups.erase(std::find(ups.begin(), ups.end(), main));
            ups.insert(ups.begin(), main);
        }
        for (std::size_t i = 0; i < ups.size(); ++i) {
            const int g = ups[i];
            const int upper = p.groups[std::size_t(g)].upper;
            if (hops[std::size_t(upper)] <= hops[std::size_t(sw)] + 1)
                continue;
            hops[std::size_t(upper)] = hops[std::size_t(sw)] + 1;
            next[std::size_t(upper)] = downLink(g);
            self(self, upper, sw, i == 0 && step >= 0 ? step + 1 : -1);
        }
    };
    hops[std::size_t(leaf)] = 1;
    routeDown(routeDown, leaf, -1, 0);
    return next;
}

// The directed links and partitions of the class's flows when its down path is `path`, a
// sender cut off from it (a failed leaf uplink, middle-top link or middle switch in the way)
// taking the second path the router gives it. `complete` is false where some sender is not
// reached at all: its links are then not all counted, so such a path is no candidate wherever
// the class has one whose every flow is.
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
            // Assumed symmetric (a test's wrong cut): on two levels every root is a twin.
            const bool allTwins = p.assumeSymmetry
                && std::all_of(below.begin(), below.end(), [&](int n) { return p.downGroups[std::size_t(n)].empty(); });
            const auto [it, fresh] = twinIds.emplace(allTwins ? std::vector<int>{} : below, int(m_twins.size()));
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
            if (p.assumeSymmetry) {
                t.column = 0;  // every column alike, whatever failed (a test's wrong cut)
                continue;
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
    using Clock = std::chrono::steady_clock;
    const Clock::time_point deadline = Clock::now()
        + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(p.seconds > 0 ? p.seconds : 0));
    const auto pastDeadline = [&] { return p.seconds > 0 && Clock::now() >= deadline; };
    // Candidates per leaf, usages per class and candidate.
    std::vector<std::vector<std::vector<int>>> pathsOfLeaf(std::size_t(p.switchCount));
    std::vector<std::vector<Usage>> usage{std::size_t(classCount)};
    // Per class, the paths it may take: those whose every sender is reached (second paths
    // included), or all where none is.
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
        if (pastDeadline()) {
            plan.outOfTime = true;
            return plan;
        }
        if (candidates[std::size_t(c)].empty()) {
            // Every path leaves some sender reached by nothing the model follows: the search
            // still runs, but proves nothing for this class.
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
        // Every node: its bound below weighs every remaining class's every path, which can take
        // long on a large tree (a clock read is nothing beside it).
        if (pastDeadline()) {
            aborted = true;
            plan.outOfTime = true;
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
            if ((j - i) % 16 == 0 && pastDeadline()) {
                aborted = true;
                plan.outOfTime = true;
                return;
            }
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
        {
            IsolationPlan none;  // the budget ran out before one complete assignment
            none.outOfTime = plan.outOfTime;
            return none;
        }
        state.add(usage[std::size_t(c)][std::size_t(best[std::size_t(c)])], +1);
    }

    // Phase 2: the other classes, greedily; past the deadline each takes its first path (the
    // plan stays whole, its counts what they come to, and says it ran out of time).
    for (int c : easy) {
        const std::vector<std::vector<int>> &paths = pathsOfLeaf[std::size_t(p.classes[std::size_t(c)].leaf)];
        int pick = -1;
        std::tuple<Score, int> pickKey;
        if (!plan.outOfTime && pastDeadline())
            plan.outOfTime = true;
        if (plan.outOfTime)
            pick = candidates[std::size_t(c)].front();
        for (int k : candidates[std::size_t(c)]) {
            if (plan.outOfTime)
                break;
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

    // Phase 3: spread each class's hosts over the paths that change none of the counts; past the
    // deadline the rest keep their class's path (the same counts, less balance).
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
            if (!plan.outOfTime && pastDeadline())
                plan.outOfTime = true;
            for (int k : candidates[std::size_t(c)]) {
                if (plan.outOfTime)
                    break;
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

std::int64_t searchWork(const IsolationProblem &p)
{
    // Up paths per leaf (capped), times the switches of a destination tree and the senders' steps.
    std::vector<std::int64_t> paths(std::size_t(p.switchCount), -1);
    auto countPaths = [&](auto &&self, int sw) -> std::int64_t {
        if (paths[std::size_t(sw)] >= 0)
            return paths[std::size_t(sw)];
        std::int64_t n = p.upGroups[std::size_t(sw)].empty() ? 1 : 0;
        for (int g : p.upGroups[std::size_t(sw)])
            n = std::min<std::int64_t>(n + self(self, p.groups[std::size_t(g)].upper), 1 << 20);
        return paths[std::size_t(sw)] = n;
    };
    std::int64_t work = 0;
    for (const IsolationProblem::DestinationClass &c : p.classes) {
        if (c.demands.empty())
            continue;
        std::int64_t steps = p.switchCount;
        for (const IsolationProblem::Demand &d : c.demands)
            steps += 4 * std::int64_t(d.senderLeaves.size());
        work += countPaths(countPaths, c.leaf) * steps;
        if (work > (std::int64_t(1) << 50))
            break;
    }
    return work;
}

IsolationBound isolationBound(const IsolationProblem &p)
{
    // Per switch: partitions that receive there from elsewhere, and that send from there (each
    // once, by a stamp per partition and switch).
    std::vector<std::vector<int>> into(std::size_t(p.switchCount)), outOf(std::size_t(p.switchCount));
    std::vector<int> sentFrom(std::size_t(p.switchCount), -1), receivedAt(std::size_t(p.switchCount), -1);
    std::vector<std::vector<int>> demandsOf(p.physical.size());
    for (std::size_t c = 0; c < p.classes.size(); ++c)
        for (std::size_t d = 0; d < p.classes[c].demands.size(); ++d)
            demandsOf[std::size_t(p.classes[c].demands[d].partition)].push_back(int(c));
    for (std::size_t k = 0; k < demandsOf.size(); ++k)
        for (int c : demandsOf[k]) {
            const IsolationProblem::DestinationClass &cls = p.classes[std::size_t(c)];
            if (receivedAt[std::size_t(cls.leaf)] != int(k)) {
                receivedAt[std::size_t(cls.leaf)] = int(k);
                into[std::size_t(cls.leaf)].push_back(int(k));
            }
            for (const IsolationProblem::Demand &d : cls.demands) {
                if (d.partition != int(k))
                    continue;
                for (int from : d.senderLeaves)
                    if (sentFrom[std::size_t(from)] != int(k)) {
                        sentFrom[std::size_t(from)] = int(k);
                        outOf[std::size_t(from)].push_back(int(k));
                    }
            }
        }
    IsolationBound bound;
    for (int sw = 0; sw < p.switchCount; ++sw) {
        int cables = 0;
        for (int g : p.upGroups[std::size_t(sw)])
            cables += std::max(1, p.groups[std::size_t(g)].cables);
        for (const std::vector<int> *parts : {&into[std::size_t(sw)], &outOf[std::size_t(sw)]}) {
            int phy = 0;
            for (int k : *parts)
                phy += p.physical[std::size_t(k)] ? 1 : 0;
            const int all = int(parts->size());
            bound.phyShared += phy > cables ? 1 : 0;
            bound.phyConflicts += phy >= 1 && phy + (all > phy ? 1 : 0) > cables ? 1 : 0;
        }
    }
    return bound;
}

IsolationPlan constructIsolation(const IsolationProblem &p)
{
    IsolationPlan plan;
    const int switches = p.switchCount;
    const int partitions = int(p.physical.size());
    std::vector<char> inner(std::size_t(switches), 0);
    for (int sw = 0; sw < switches; ++sw)
        inner[std::size_t(sw)] = p.downGroups[std::size_t(sw)].empty() ? 0 : 1;
    // Roots, and columns: roots and middle switches joined by cables (union-find).
    std::vector<int> rootIndex(std::size_t(switches), -1), roots;
    for (int sw = 0; sw < switches; ++sw)
        if (inner[std::size_t(sw)] && p.upGroups[std::size_t(sw)].empty()) {
            rootIndex[std::size_t(sw)] = int(roots.size());
            roots.push_back(sw);
        }
    if (roots.empty())
        return plan;
    std::vector<int> parent(std::size_t(switches) + 0);
    std::iota(parent.begin(), parent.end(), 0);
    const auto find = [&](int x) {
        while (parent[std::size_t(x)] != x)
            x = parent[std::size_t(x)] = parent[std::size_t(parent[std::size_t(x)])];
        return x;
    };
    for (const IsolationProblem::Group &g : p.groups)
        if (inner[std::size_t(g.lower)] && inner[std::size_t(g.upper)])
            parent[std::size_t(find(g.lower))] = find(g.upper);
    std::map<int, int> columnOfSet;
    std::vector<int> columnOfRoot(roots.size());
    std::vector<std::vector<int>> rootsOfColumn;
    for (std::size_t r = 0; r < roots.size(); ++r) {
        const auto [it, fresh] = columnOfSet.emplace(find(roots[r]), int(rootsOfColumn.size()));
        if (fresh)
            rootsOfColumn.emplace_back();
        rootsOfColumn[std::size_t(it->second)].push_back(int(r));
        columnOfRoot[r] = it->second;
    }
    const int columns = int(rootsOfColumn.size());
    const int rootCount = int(roots.size());

    // Leaves: the switches holding classes or senders. Per leaf and root, the first up group of
    // a path to that root (two levels: the group to it; three: to a middle switch cabled to it).
    std::vector<int> leafIndex(std::size_t(switches), -1), leaves;
    const auto addLeaf = [&](int sw) {
        if (leafIndex[std::size_t(sw)] < 0) {
            leafIndex[std::size_t(sw)] = int(leaves.size());
            leaves.push_back(sw);
        }
    };
    for (const IsolationProblem::DestinationClass &c : p.classes)
        if (!c.demands.empty()) {
            addLeaf(c.leaf);
            for (const IsolationProblem::Demand &d : c.demands)
                for (int from : d.senderLeaves)
                    addLeaf(from);
        }
    if (leaves.empty())
        return plan;
    std::vector<int> firstUp(leaves.size() * roots.size(), -1);
    const auto upTo = [&](int leaf, int root) -> int & { return firstUp[std::size_t(leafIndex[std::size_t(leaf)]) * roots.size() + std::size_t(root)]; };
    for (int leaf : leaves) {
        for (int g : p.upGroups[std::size_t(leaf)]) {
            const int mid = p.groups[std::size_t(g)].upper;
            if (rootIndex[std::size_t(mid)] >= 0) {
                int &at = upTo(leaf, rootIndex[std::size_t(mid)]);
                if (at < 0)
                    at = g;
                continue;
            }
            for (int g2 : p.upGroups[std::size_t(mid)]) {
                const int top = p.groups[std::size_t(g2)].upper;
                if (rootIndex[std::size_t(top)] < 0)
                    return plan;  // more than three levels
                int &at = upTo(leaf, rootIndex[std::size_t(top)]);
                if (at < 0)
                    at = g;
            }
        }
    }
    plan.ran = true;
    plan.exact = true;

    // Per partition: its leaves, hosts, whether it is phy; roots every one of its leaves reaches.
    std::vector<std::vector<int>> leavesOf(std::size_t(partitions) + 0);
    std::vector<std::int64_t> hostsOf(std::size_t(partitions), 0);
    {
        std::vector<int> stamp(leaves.size(), -1);
        std::vector<std::vector<int>> demandsOf(std::size_t(partitions) + 0);
        for (std::size_t c = 0; c < p.classes.size(); ++c)
            for (const IsolationProblem::Demand &d : p.classes[c].demands) {
                demandsOf[std::size_t(d.partition)].push_back(int(c));
                hostsOf[std::size_t(d.partition)] += p.classes[c].hosts;
            }
        for (int k = 0; k < partitions; ++k) {
            const auto add = [&](int leaf) {
                const int l = leafIndex[std::size_t(leaf)];
                if (stamp[std::size_t(l)] != k) {
                    stamp[std::size_t(l)] = k;
                    leavesOf[std::size_t(k)].push_back(l);
                }
            };
            for (int c : demandsOf[std::size_t(k)]) {
                add(p.classes[std::size_t(c)].leaf);
                for (const IsolationProblem::Demand &d : p.classes[std::size_t(c)].demands)
                    if (d.partition == k)
                        for (int from : d.senderLeaves)
                            add(from);
            }
        }
    }
    std::vector<int> active;
    for (int k = 0; k < partitions; ++k)
        if (!leavesOf[std::size_t(k)].empty())
            active.push_back(k);
    // Roots some leaf does not reach (none on a whole tree): those partitions' roots are fewer.
    std::vector<std::vector<int>> partitionsAtLeaf(leaves.size());
    for (int k : active)
        for (int l : leavesOf[std::size_t(k)])
            partitionsAtLeaf[std::size_t(l)].push_back(k);
    std::vector<std::vector<char>> good(std::size_t(partitions) + 0);
    for (int k : active)
        good[std::size_t(k)].assign(roots.size(), 1);
    for (std::size_t l = 0; l < leaves.size(); ++l)
        for (int r = 0; r < rootCount; ++r)
            if (firstUp[l * roots.size() + std::size_t(r)] < 0)
                for (int k : partitionsAtLeaf[l])
                    good[std::size_t(k)][std::size_t(r)] = 0;
    const auto goodInColumn = [&](int k, int col) {
        int n = 0;
        for (int r : rootsOfColumn[std::size_t(col)])
            n += good[std::size_t(k)][std::size_t(r)];
        return n;
    };
    // Leaves two partitions meet on (a dense count per pair; partitions are few).
    const std::size_t activeCount = active.size();
    std::vector<int> activeIndex(std::size_t(partitions), -1);
    for (std::size_t i = 0; i < activeCount; ++i)
        activeIndex[std::size_t(active[i])] = int(i);
    std::vector<int> meet(activeCount * activeCount, 0);
    if (activeCount <= 4096)
        for (const std::vector<int> &here : partitionsAtLeaf)
            for (int a : here)
                for (int b : here)
                    if (a != b)
                        ++meet[std::size_t(activeIndex[std::size_t(a)]) * activeCount + std::size_t(activeIndex[std::size_t(b)])];
    const auto meets = [&](int a, int b) {
        return activeCount <= 4096 ? meet[std::size_t(activeIndex[std::size_t(a)]) * activeCount + std::size_t(activeIndex[std::size_t(b)])] : 1;
    };

    // Columns per phy partition, by its share of the phy hosts; the others' share is kept free.
    std::vector<int> phy, other;
    std::int64_t phyHosts = 0, otherHosts = 0;
    for (int k : active) {
        (p.physical[std::size_t(k)] ? phy : other).push_back(k);
        (p.physical[std::size_t(k)] ? phyHosts : otherHosts) += hostsOf[std::size_t(k)];
    }
    std::stable_sort(phy.begin(), phy.end(), [&](int a, int b) {
        if (leavesOf[std::size_t(a)].size() != leavesOf[std::size_t(b)].size())
            return leavesOf[std::size_t(a)].size() > leavesOf[std::size_t(b)].size();
        return hostsOf[std::size_t(a)] > hostsOf[std::size_t(b)];
    });
    int reserved = 0;
    if (!other.empty() && columns > int(phy.size()))
        reserved = std::clamp(int(std::llround(double(columns) * double(otherHosts) / double(std::max<std::int64_t>(1, phyHosts + otherHosts)))),
                              1, columns - int(phy.size()));
    const int forPhy = columns - reserved;
    std::vector<int> want(std::size_t(partitions), 1);
    if (!phy.empty() && int(phy.size()) <= forPhy) {
        int given = 0;
        for (int k : phy) {
            want[std::size_t(k)] = std::max(1, int(std::int64_t(forPhy) * hostsOf[std::size_t(k)] / std::max<std::int64_t>(1, phyHosts)));
            given += want[std::size_t(k)];
        }
        for (std::size_t i = 0; given < forPhy && !phy.empty(); i = (i + 1) % phy.size(), ++given)
            ++want[std::size_t(phy[i])];
    }
    std::vector<std::vector<int>> ownersOf(std::size_t(columns) + 0);  // phy partitions first
    std::vector<std::vector<int>> columnsOf(std::size_t(partitions) + 0);
    for (int k : phy) {
        struct Option
        {
            int unreachable, conflict, owners, column;
        };
        std::vector<Option> options;
        for (int col = 0; col < columns; ++col) {
            int conflict = 0;
            for (int q : ownersOf[std::size_t(col)])
                conflict += meets(k, q);
            options.push_back({goodInColumn(k, col) > 0 ? 0 : 1, conflict, int(ownersOf[std::size_t(col)].size()), col});
        }
        std::sort(options.begin(), options.end(), [](const Option &a, const Option &b) {
            return std::tie(a.unreachable, a.conflict, a.owners, a.column) < std::tie(b.unreachable, b.conflict, b.owners, b.column);
        });
        for (const Option &o : options) {
            const bool clean = o.unreachable == 0 && o.conflict == 0;
            if (!columnsOf[std::size_t(k)].empty() && (!clean || int(columnsOf[std::size_t(k)].size()) >= want[std::size_t(k)]))
                break;
            columnsOf[std::size_t(k)].push_back(o.column);
            ownersOf[std::size_t(o.column)].push_back(k);
        }
    }
    std::vector<int> phyCount(std::size_t(columns) + 0);
    for (int col = 0; col < columns; ++col)
        phyCount[std::size_t(col)] = int(ownersOf[std::size_t(col)].size());
    for (int k : other) {
        int bestCol = -1;
        std::tuple<int, int, int> bestKey;
        for (int col = 0; col < columns; ++col) {
            int conflict = 0;
            for (int i = 0; i < phyCount[std::size_t(col)]; ++i)
                conflict += meets(k, ownersOf[std::size_t(col)][std::size_t(i)]);
            const std::tuple<int, int, int> key{goodInColumn(k, col) > 0 ? 0 : 1, conflict, phyCount[std::size_t(col)]};
            if (std::get<0>(key) == 0 && conflict == 0) {
                columnsOf[std::size_t(k)].push_back(col);
                ownersOf[std::size_t(col)].push_back(k);
            }
            if (bestCol < 0 || key < bestKey) {
                bestCol = col;
                bestKey = key;
            }
        }
        if (columnsOf[std::size_t(k)].empty()) {
            columnsOf[std::size_t(k)].push_back(bestCol);
            ownersOf[std::size_t(bestCol)].push_back(k);
        }
    }
    // Roots of a column shared by several phy partitions are split among them (the others, as
    // one more share), so that none shares a middle switch's cable up to a root.
    std::vector<std::vector<char>> mine(std::size_t(partitions) + 0);
    for (int k : active)
        mine[std::size_t(k)].assign(roots.size(), 0);
    for (int col = 0; col < columns; ++col) {
        const std::vector<int> &owners = ownersOf[std::size_t(col)];
        const int phyShares = phyCount[std::size_t(col)];
        const int shares = phyShares + (int(owners.size()) > phyShares ? 1 : 0);
        const std::vector<int> &rs = rootsOfColumn[std::size_t(col)];
        for (std::size_t i = 0; i < owners.size(); ++i) {
            const int share = std::min(int(i), phyShares);
            bool any = false;
            for (std::size_t j = 0; j < rs.size(); ++j)
                if (shares <= 1 || int(j % std::size_t(shares)) == share || (rs.size() < std::size_t(shares) && j == std::size_t(share) % rs.size())) {
                    mine[std::size_t(owners[i])][std::size_t(rs[j])] = 1;
                    any = true;
                }
            if (!any)
                mine[std::size_t(owners[i])][std::size_t(rs[std::size_t(share) % rs.size()])] = 1;
        }
    }

    // Each class, host by host: the least loaded root of its leading partition's that its leaf
    // and all its senders reach.
    std::vector<int> load(p.groups.size(), 0);
    plan.hostPaths.assign(p.classes.size(), {});
    std::vector<int> candidates;
    std::vector<std::pair<int, int>> paths;
    for (std::size_t c = 0; c < p.classes.size(); ++c) {
        const IsolationProblem::DestinationClass &cls = p.classes[c];
        if (cls.demands.empty())
            continue;
        int lead = -1;
        for (const IsolationProblem::Demand &d : cls.demands) {
            const int k = d.partition;
            if (lead < 0 || (p.physical[std::size_t(k)] && !p.physical[std::size_t(lead)])
                || (p.physical[std::size_t(k)] == p.physical[std::size_t(lead)] && leavesOf[std::size_t(k)].size() > leavesOf[std::size_t(lead)].size()))
                lead = k;
        }
        const auto reachedByAll = [&](int r) {
            for (const IsolationProblem::Demand &d : cls.demands)
                if (!good[std::size_t(d.partition)][std::size_t(r)])
                    return false;
            return true;
        };
        // Tiers: a root of its own every sender reaches; any root every sender reaches; a root
        // of its own the leaf reaches; any root the leaf reaches. A root some sender does not
        // reach leaves that sender to the router's fall-back down path, so it comes last.
        for (int tier = 0; tier < 4; ++tier) {
            const bool own = tier == 0 || tier == 2, byAll = tier < 2;
            candidates.clear();
            for (int r = 0; r < rootCount; ++r) {
                if (upTo(cls.leaf, r) < 0)
                    continue;
                if (own && !mine[std::size_t(lead)][std::size_t(r)])
                    continue;
                if (byAll && !reachedByAll(r))
                    continue;
                candidates.push_back(r);
            }
            if (!candidates.empty()) {
                plan.exact = plan.exact && byAll;
                break;
            }
        }
        if (candidates.empty())
            return IsolationPlan{};  // a leaf with no way up
        // Per candidate: its groups (the middle switch's cable up to the root on three levels).
        paths.clear();
        for (int r : candidates) {
            const int g = upTo(cls.leaf, r);
            int g2 = -1;
            const int mid = p.groups[std::size_t(g)].upper;
            if (mid != roots[std::size_t(r)])
                for (int up : p.upGroups[std::size_t(mid)])
                    if (p.groups[std::size_t(up)].upper == roots[std::size_t(r)]) {
                        g2 = up;
                        break;
                    }
            paths.push_back({g, g2});
        }
        for (int h = 0; h < cls.hosts; ++h) {
            std::size_t pick = 0;
            int pickLoad = std::numeric_limits<int>::max();
            for (std::size_t i = 0; i < paths.size(); ++i) {
                const int l = std::max(load[std::size_t(paths[i].first)], paths[i].second < 0 ? 0 : load[std::size_t(paths[i].second)]);
                if (l < pickLoad) {
                    pick = i;
                    pickLoad = l;
                }
            }
            std::vector<int> path{paths[pick].first};
            if (paths[pick].second >= 0)
                path.push_back(paths[pick].second);
            for (int g : path)
                ++load[std::size_t(g)];
            plan.hostPaths[c].push_back(std::move(path));
        }
    }
    return plan;
}

}  // namespace weft::routing
