// pftree finds physical isolation whenever it exists (issue 14, docs/pftree-isolation.md): an
// exhaustive oracle on small generated fat-trees decides, for random placements of phy-isolated
// partitions, the least number k of directed switch links that two of them must share among
// all routings with one down path per destination (k = 0: an isolating one exists). pftree,
// judged by validateRouting on its tables, must share exactly k links (or more only where its
// search says it stopped at its budget, in at most one placement in 20), and strict mode must
// accept where k = 0. Every shape must show both outcomes. Placements put some hosts in several
// partitions (their one down path carries all of them), and four shapes are degraded trees: a
// top-level switch or two failed, with their cables.
//
// The oracle knows nothing of the engine: it reads the tree from the generator's levels and
// cables, and models a destination's routes directly: on two levels, source leaf -> top ->
// destination leaf; on three, a source leaf in the destination's pod goes up to the down
// path's middle switch, another one up to the top switch's middle switch in its own pod, then
// to the top and down the down path.

#include "FabricEdit.h"
#include "FabricGenerator.h"
#include "GeneratedFabrics.h"
#include "SampleSize.h"
#include "RoutingEngine.h"
#include "Validation.h"

#include <QElapsedTimer>
#include <QtTest>

#include <algorithm>
#include <map>
#include <random>
#include <set>

using namespace weft;

namespace {

struct Shape
{
    const char *name;
    int radix;
    int levels;
    int maxPartitions;
    int maxMembers;
    int placements;
    int sharedOneIn;  // a member is a host of an earlier partition about once in this many
    int failedTops;   // top-level switches removed (a degraded tree), the first ones
};

const std::vector<Shape> &shapes()
{
    static const std::vector<Shape> all{
        {"radix 4, 2 levels", 4, 2, 4, 4, 150, 6, 0},
        {"radix 6, 2 levels", 6, 2, 5, 6, 150, 6, 0},
        {"radix 8, 2 levels", 8, 2, 6, 8, 100, 6, 0},
        {"radix 4, 3 levels", 4, 3, 4, 4, 150, 6, 0},
        {"radix 6, 3 levels", 6, 3, 5, 5, 60, 6, 0},
        {"radix 8, 3 levels", 8, 3, 4, 4, 60, 6, 0},
        {"radix 6, 2 levels, a spine failed", 6, 2, 4, 6, 100, 6, 1},
        {"radix 8, 2 levels, two spines failed", 8, 2, 4, 8, 100, 6, 2},
        {"radix 4, 3 levels, a top switch failed", 4, 3, 4, 4, 100, 6, 1},
        {"radix 6, 3 levels, a top switch failed", 6, 3, 4, 5, 40, 6, 1},
    };
    return all;
}

// The tree as the oracle sees it.
struct Tree
{
    const GeneratedFabric *g = nullptr;
    int levels = 2;
    std::map<NodeIndex, std::vector<NodeIndex>> parents, children;  // switches only
    std::map<NodeIndex, NodeIndex> leafOf;                          // host -> leaf
};

Tree readTree(const GeneratedFabric &g, int levels)
{
    Tree t;
    t.g = &g;
    t.levels = levels;
    const Fabric &f = g.fabric;
    for (NodeIndex sw : f.switches()) {
        for (int n = 1; n <= f.node(sw).portCount; ++n) {
            const PortIndex p = f.portOf(sw, n);
            if (p == kNoIndex || f.port(p).remote == kNoIndex)
                continue;
            const NodeIndex other = f.port(f.port(p).remote).node;
            if (f.node(other).type != NodeType::Switch)
                continue;
            if (g.nodeLevel[std::size_t(other)] < g.nodeLevel[std::size_t(sw)])
                t.parents[sw].push_back(other);
            else
                t.children[sw].push_back(other);
        }
    }
    for (NodeIndex h : g.hosts)
        t.leafOf[h] = f.port(f.port(f.portOf(h, 1)).remote).node;
    return t;
}

using Link = std::pair<NodeIndex, NodeIndex>;  // directed: from -> to

// The links a partition's flows from `senders` use towards leaf `leaf` whose down path is `path`
// (the switches above the leaf, bottom up).
void linksTowards(const Tree &t, NodeIndex leaf, const std::vector<NodeIndex> &path, const std::set<NodeIndex> &senders,
                  std::set<Link> &out)
{
    for (NodeIndex from : senders) {
        if (from == leaf)
            continue;
        if (t.levels == 2) {
            out.insert({from, path[0]});
            out.insert({path[0], leaf});
            continue;
        }
        const NodeIndex mid = path[0], top = path[1];
        const std::vector<NodeIndex> &up = t.parents.at(from);
        if (std::find(up.begin(), up.end(), mid) != up.end()) {
            out.insert({from, mid});
            out.insert({mid, leaf});
            continue;
        }
        NodeIndex other = kNoIndex;
        for (NodeIndex m : up) {
            const std::vector<NodeIndex> &tops = t.parents.at(m);
            if (std::find(tops.begin(), tops.end(), top) != tops.end())
                other = m;
        }
        QVERIFY(other != kNoIndex);
        out.insert({from, other});
        out.insert({other, top});
        out.insert({top, mid});
        out.insert({mid, leaf});
    }
}

struct Placement
{
    struct Member
    {
        NodeIndex host;
        bool full;
    };
    std::vector<std::vector<Member>> partitions;
};

Placement place(const GeneratedFabric &g, const Shape &shape, std::mt19937 &rng)
{
    Placement p;
    std::vector<NodeIndex> hosts = g.hosts;
    std::shuffle(hosts.begin(), hosts.end(), rng);
    std::size_t next = 0;
    const int count = 2 + int(rng() % std::uint32_t(shape.maxPartitions - 1));
    for (int k = 0; k < count; ++k) {
        const int members = 2 + int(rng() % std::uint32_t(shape.maxMembers - 1));
        std::vector<Placement::Member> list;
        for (int i = 0; i < members && next < hosts.size(); ++i) {
            // Now and then a host already in an earlier partition (a shared storage or login
            // host): its one down path carries every partition it is in.
            NodeIndex host = hosts[next];
            if (k > 0 && rng() % std::uint32_t(shape.sharedOneIn) == 0) {
                host = hosts[rng() % next];
                if (std::any_of(list.begin(), list.end(), [&](const Placement::Member &m) { return m.host == host; }))
                    host = hosts[next];
            }
            if (host == hosts[next])
                ++next;
            list.push_back({host, i == 0 || rng() % 4 != 0});
        }
        p.partitions.push_back(list);
    }
    return p;
}

// The least number of directed links carrying two or more partitions, over every choice of one
// down path per destination. Destinations on one leaf with the same partitions are one choice
// (where one's flows are a subset of another's, it takes the other's path: that never costs
// more). Exhaustive, with two cuts that keep the answer exact: a partial cost never drops, and
// switches no chosen path touches yet are interchangeable (swapping two such spines, two such
// top switches of one group, or two such groups of a three-level tree maps the tree onto
// itself and every partial choice onto itself), so of such options only the first is tried.
int oracleMinimum(const Tree &t, const Placement &placement)
{
    const std::size_t partitions = placement.partitions.size();
    // Per host: partition -> full member.
    std::map<NodeIndex, std::map<int, bool>> signature;
    std::vector<std::set<NodeIndex>> allLeaves(partitions), fullLeaves(partitions);
    for (std::size_t k = 0; k < partitions; ++k)
        for (const Placement::Member &m : placement.partitions[k]) {
            signature[m.host][int(k)] = signature[m.host][int(k)] || m.full;
            allLeaves[k].insert(t.leafOf.at(m.host));
            if (m.full)
                fullLeaves[k].insert(t.leafOf.at(m.host));
        }
    // Per leaf, the distinct signatures, less those another of the same partitions covers.
    std::map<NodeIndex, std::set<std::map<int, bool>>> byLeaf;
    for (const auto &[host, sig] : signature)
        byLeaf[t.leafOf.at(host)].insert(sig);
    auto covers = [](const std::map<int, bool> &a, const std::map<int, bool> &b) {
        if (a == b || a.size() != b.size())
            return false;
        for (auto i = a.begin(), j = b.begin(); i != a.end(); ++i, ++j)
            if (i->first != j->first || (j->second && !i->second))
                return false;
        return true;
    };

    std::map<Link, int> linkId;
    struct Option
    {
        NodeIndex first = kNoIndex, top = kNoIndex;
        std::vector<std::pair<int, int>> labels;  // (link id, partition)
    };
    std::vector<std::vector<Option>> vars;
    for (const auto &[leaf, sigs] : byLeaf) {
        for (const std::map<int, bool> &sig : sigs) {
            if (std::any_of(sigs.begin(), sigs.end(), [&](const std::map<int, bool> &o) { return covers(o, sig); }))
                continue;
            std::vector<std::pair<std::vector<NodeIndex>, Option>> paths;
            for (NodeIndex first : t.parents.at(leaf)) {
                if (t.levels == 2)
                    paths.push_back({{first}, Option{first, kNoIndex, {}}});
                else
                    for (NodeIndex top : t.parents.at(first))
                        paths.push_back({{first, top}, Option{first, top, {}}});
            }
            std::vector<Option> options;
            for (auto &[path, option] : paths) {
                std::set<std::pair<int, int>> labels;
                for (const auto &[k, full] : sig) {
                    std::set<Link> links;
                    linksTowards(t, leaf, path, full ? allLeaves[std::size_t(k)] : fullLeaves[std::size_t(k)], links);
                    for (const Link &l : links)
                        labels.insert({linkId.emplace(l, int(linkId.size())).first->second, k});
                }
                option.labels.assign(labels.begin(), labels.end());
                if (!option.labels.empty())
                    options.push_back(option);
            }
            if (!options.empty())
                vars.push_back(options);
        }
    }
    // The widest choices first: their cost shows early and cuts more.
    std::stable_sort(vars.begin(), vars.end(), [](const std::vector<Option> &a, const std::vector<Option> &b) {
        return a.front().labels.size() > b.front().labels.size();
    });

    // Interchangeable switches: a spine (two levels), a top switch of its group, or a whole
    // group (its top switches and the middle switches below them), none touched yet.
    std::map<NodeIndex, std::vector<NodeIndex>> groupOf;  // top -> its group's switches
    if (t.levels == 3)
        for (const auto &[sw, ups] : t.parents)
            for (NodeIndex top : ups)
                if (!t.parents.count(top))
                    for (NodeIndex mid : t.children.at(top))
                        for (NodeIndex sameGroup : t.parents.at(mid))
                            groupOf[top].push_back(sameGroup), groupOf[top].push_back(mid);
    std::map<NodeIndex, int> touched;
    auto untouched = [&](NodeIndex n) { return touched[n] == 0; };

    std::vector<int> count(linkId.size() * partitions, 0), distinct(linkId.size(), 0);
    int cost = 0;
    int best = std::numeric_limits<int>::max();
    Link none{kNoIndex, kNoIndex};
    std::vector<Link> byId(linkId.size(), none);
    for (const auto &[l, id] : linkId)
        byId[std::size_t(id)] = l;
    auto apply = [&](const Option &o, int sign) {
        for (const auto &[id, k] : o.labels) {
            int &c = count[std::size_t(id) * partitions + std::size_t(k)];
            const int before = distinct[std::size_t(id)];
            if (sign > 0 && c++ == 0)
                ++distinct[std::size_t(id)];
            if (sign < 0 && --c == 0)
                --distinct[std::size_t(id)];
            cost += int(distinct[std::size_t(id)] >= 2) - int(before >= 2);
            touched[byId[std::size_t(id)].first] += sign;
            touched[byId[std::size_t(id)].second] += sign;
        }
    };
    // The option's class: options of one class are images of each other under a symmetry that
    // fixes every choice made so far.
    auto classOf = [&](const Option &o) -> std::pair<int, NodeIndex> {
        if (t.levels == 2)
            return untouched(o.first) ? std::pair<int, NodeIndex>{0, kNoIndex} : std::pair<int, NodeIndex>{1, o.first};
        const std::vector<NodeIndex> &group = groupOf.at(o.top);
        if (std::all_of(group.begin(), group.end(), untouched))
            return {0, NodeIndex(t.parents.at(o.first).size())};  // groups alike only with as many tops
        if (untouched(o.top))
            return {1, o.first};
        return {2, o.top};
    };
    auto dfs = [&](auto &&self, std::size_t i) -> void {
        if (cost >= best)
            return;
        if (i == vars.size()) {
            best = cost;
            return;
        }
        std::set<std::pair<int, NodeIndex>> tried;
        for (const Option &option : vars[i]) {
            if (!tried.insert(classOf(option)).second)
                continue;
            apply(option, +1);
            self(self, i + 1);
            apply(option, -1);
            if (best == 0)
                return;
        }
    };
    dfs(dfs, 0);
    return best == std::numeric_limits<int>::max() ? 0 : best;
}

Tenancy tenancyOf(const GeneratedFabric &g, const Placement &placement, PolicyMode mode)
{
    Tenancy tenancy;
    tenancy.mode = mode;
    for (std::size_t k = 0; k < placement.partitions.size(); ++k) {
        Partition p;
        p.name = QStringLiteral("tenant%1").arg(k + 1);
        p.pkey = std::uint16_t(0x20 + k);
        p.policy = IsolationPolicy::Physical;
        for (const Placement::Member &m : placement.partitions[k]) {
            PartitionMember member;
            member.guid = g.fabric.port(g.fabric.portOf(m.host, 1)).guid;
            member.membership = m.full ? Membership::Full : Membership::Limited;
            member.explicitMembership = true;
            p.members.push_back(member);
        }
        tenancy.partitions.push_back(p);
    }
    return tenancy;
}

// Directed switch links that two or more phy partitions share, by validateRouting.
int sharedPhyLinks(const ValidationResult &v)
{
    std::set<PortIndex> links;
    for (const PartitionIsolationReport &p : v.partitions) {
        if (p.policy != IsolationPolicy::Physical)
            continue;
        for (const SharedLinkReport &s : p.shared)
            for (int q : s.others)
                if (v.partitions[std::size_t(q)].policy == IsolationPolicy::Physical)
                    links.insert(s.from);
    }
    return int(links.size());
}

GeneratedFabric generate(int radix, int levels)
{
    return test::generate({FabricShapeKind::SwitchRadix, radix, levels, 0});
}

// The shape's tree, less its first `failedTops` top-level switches with their cables: every
// remaining leaf still reaches every remaining top, so one down path per destination still
// routes it, and the oracle's model holds.
GeneratedFabric generate(const Shape &shape)
{
    GeneratedFabric whole = generate(shape.radix, shape.levels);
    if (shape.failedTops == 0)
        return whole;
    FabricEdit edit;
    edit.removedNodes.assign(whole.fabric.nodes().size(), false);
    int removed = 0;
    for (NodeIndex sw : whole.fabric.switches())
        if (whole.nodeLevel[std::size_t(sw)] == 0 && removed < shape.failedTops) {
            edit.removedNodes[std::size_t(sw)] = true;
            ++removed;
        }
    Result<Fabric> degraded = editedFabric(whole.fabric, edit);
    if (!degraded)
        qFatal("%s", qPrintable(degraded.error().toString()));
    GeneratedFabric g = whole;
    g.fabric = std::move(degraded).value();
    g.nodeLevel.assign(g.fabric.nodes().size(), 0);
    for (std::size_t n = 0; n < whole.fabric.nodes().size(); ++n) {
        const NodeIndex there = g.fabric.nodeByGuid(whole.fabric.node(NodeIndex(n)).guid);
        if (there != kNoIndex)
            g.nodeLevel[std::size_t(there)] = whole.nodeLevel[n];
    }
    for (NodeIndex &h : g.hosts)
        h = g.fabric.nodeByGuid(whole.fabric.node(h).guid);
    return g;
}

}  // namespace

class TestPftreeIsolation : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void oracle_data()
    {
        QTest::addColumn<int>("shape");
        for (std::size_t s = 0; s < shapes().size(); ++s)
            QTest::addRow("%s", shapes()[s].name) << int(s);
    }

    void oracle()
    {
        QFETCH(int, shape);
        const Shape &sh = shapes()[std::size_t(shape)];
        const GeneratedFabric g = generate(sh);
        const Tree tree = readTree(g, sh.levels);
        int isolated = 0, sharing = 0, searched = 0, sharedHosts = 0, unproven = 0;
        QElapsedTimer timer;
        timer.start();
        const int placements = test::sampleSize(sh.placements);
        for (int seed = 1; seed <= placements; ++seed) {
            std::mt19937 rng(std::uint32_t(seed * 7919 + shape));
            const Placement placement = place(g, sh, rng);
            std::map<NodeIndex, int> partitionsOf;
            for (const auto &members : placement.partitions)
                for (const Placement::Member &m : members)
                    ++partitionsOf[m.host];
            sharedHosts += std::any_of(partitionsOf.begin(), partitionsOf.end(), [](const auto &h) { return h.second > 1; }) ? 1 : 0;
            const int k = oracleMinimum(tree, placement);
            const Tenancy bestEffort = tenancyOf(g, placement, PolicyMode::BestEffort);
            Result<Routing> routed = routeFabric(QStringLiteral("pftree"), g.fabric, bestEffort);
            QVERIFY2(routed, routed ? "" : qPrintable(routed.error().message));
            const ValidationResult v = validateRouting(g.fabric, bestEffort, routed->tables, LaneAssignment{routed->serviceLevels, {}});
            QVERIFY(v.deadlockFree);
            QCOMPARE(v.unreachablePartitionPairs, std::uint64_t(0));
            const int shared = sharedPhyLinks(v);
            for (const QString &w : routed->warnings)
                searched += w.contains(QStringLiteral("top switches assigned per partition")) ? 1 : 0;
            if (shared != k)
                qWarning("seed %d: pftree shares %d, oracle minimum %d; warnings: %s", seed, shared, k,
                         qPrintable(routed->warnings.join(QStringLiteral(" | "))));
            // pftree shares exactly the minimum, unless its search ran out of budget and says so.
            if (shared != k) {
                QVERIFY(shared > k);
                QVERIFY(routed->warnings.join(QLatin1Char('\n')).contains(QStringLiteral("not proven minimal")));
                ++unproven;
                continue;
            }
            const Tenancy strict = tenancyOf(g, placement, PolicyMode::Strict);
            Result<Routing> strictRouted = routeFabric(QStringLiteral("pftree"), g.fabric, strict);
            if (k == 0) {
                ++isolated;
                QVERIFY2(strictRouted, strictRouted ? "" : qPrintable(strictRouted.error().message));
                QCOMPARE(validateRouting(g.fabric, strict, strictRouted->tables, LaneAssignment{strictRouted->serviceLevels, {}}).policyViolations,
                         std::size_t(0));
            } else {
                ++sharing;
                QVERIFY(!strictRouted);
            }
        }
        qInfo("%s: %d placements isolated, %d with a forced minimum (%d with a host in several partitions); the "
              "per-leaf allocation was replaced in %d; pftree's search stopped at its budget above the minimum in %d "
              "(%lld ms)",
              sh.name, isolated, sharing, sharedHosts, searched, unproven, qint64(timer.elapsed()));
        // Both outcomes on every shape: pftree isolates where the oracle can, and shares exactly
        // the forced minimum where it cannot.
        QVERIFY(isolated > 0);
        QVERIFY(sharing > 0);
        QVERIFY(sharedHosts > 0);
        QVERIFY(searched > 0);  // the oracle exercises the search, not only the paper's allocation
        QVERIFY2(unproven * 20 <= placements, "pftree's search ran out of budget in more than one placement in 20");
    }

    // The example: three phy tenants spread over every leaf of a two-level tree with
    // four spines. The per-leaf allocation shares links; a spine per tenant isolates them.
    void threeTenantsOverAllLeaves()
    {
        const GeneratedFabric g = generate(8, 2);
        Placement placement;
        placement.partitions.resize(3);
        const int perLeaf = g.xgft.children.back();
        for (std::size_t h = 0; h < g.hosts.size(); ++h) {
            const int slot = int(h) % perLeaf;
            const int leaf = int(h) / perLeaf;
            placement.partitions[std::size_t(slot < 3 ? slot : leaf % 3)].push_back({g.hosts[h], true});
        }
        QCOMPARE(oracleMinimum(readTree(g, 2), placement), 0);
        const Tenancy strict = tenancyOf(g, placement, PolicyMode::Strict);
        Result<Routing> routed = routeFabric(QStringLiteral("pftree"), g.fabric, strict);
        QVERIFY2(routed, routed ? "" : qPrintable(routed.error().message));
        const ValidationResult v = validateRouting(g.fabric, strict, routed->tables, LaneAssignment{routed->serviceLevels, {}});
        QVERIFY(v.ok);
        QCOMPARE(sharedPhyLinks(v), 0);
        // Balanced within each tenant: every tenant uses more than one spine's links where it can.
        for (const PartitionIsolationReport &p : v.partitions)
            QVERIFY(p.linksUsed > 0);
    }

    // A host in several partitions has one down path: as a (limited) member of two phy tenants
    // with members on other leaves, it carries both, whatever the routing; best-effort names
    // the shared links, strict refuses. In def/vlane partitions only, the phy tenants isolate.
    void sharedHostAcrossPartitions()
    {
        const GeneratedFabric g = generate(8, 2);
        const int perLeaf = g.xgft.children.back();
        Placement placement;
        placement.partitions.resize(3);
        for (int leaf = 0; leaf < 6; ++leaf) {
            placement.partitions[0].push_back({g.hosts[std::size_t(leaf * perLeaf)], true});
            placement.partitions[1].push_back({g.hosts[std::size_t(leaf * perLeaf + 1)], true});
        }
        const NodeIndex storage = g.hosts.back();
        placement.partitions[0].push_back({storage, false});
        placement.partitions[1].push_back({storage, false});
        placement.partitions[2] = {{g.hosts[2], true}, {g.hosts[std::size_t(perLeaf + 2)], true}};
        Tenancy tenancy = tenancyOf(g, placement, PolicyMode::BestEffort);
        Result<Routing> routed = routeFabric(QStringLiteral("pftree"), g.fabric, tenancy);
        QVERIFY(routed);
        ValidationResult v = validateRouting(g.fabric, tenancy, routed->tables, LaneAssignment{routed->serviceLevels, {}});
        QVERIFY(sharedPhyLinks(v) > 0);
        const QString storageLeaf = g.fabric.node(readTree(g, 2).leafOf.at(storage)).description;
        bool named = false;
        for (const QString &w : routed->warnings)
            named |= w.contains(QStringLiteral("phy-isolation")) && w.contains(storageLeaf);
        QVERIFY2(named, qPrintable(routed->warnings.join(QLatin1Char('\n'))));
        tenancy.mode = PolicyMode::Strict;
        Result<Routing> refused = routeFabric(QStringLiteral("pftree"), g.fabric, tenancy);
        QVERIFY(!refused);
        QVERIFY(refused.error().message.contains(QStringLiteral("phy-isolation")));

        // The storage host only in a def partition of its own, with the phy tenants' members
        // not in it: every phy tenant isolated, strict accepts.
        placement.partitions[0].pop_back();
        placement.partitions[1].pop_back();
        placement.partitions[2].push_back({storage, true});
        tenancy = tenancyOf(g, placement, PolicyMode::Strict);
        tenancy.partitions[2].policy = IsolationPolicy::Default;
        routed = routeFabric(QStringLiteral("pftree"), g.fabric, tenancy);
        QVERIFY2(routed, routed ? "" : qPrintable(routed.error().message));
        v = validateRouting(g.fabric, tenancy, routed->tables, LaneAssignment{routed->serviceLevels, {}});
        QCOMPARE(v.policyViolations, std::size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestPftreeIsolation)
#include "tst_pftree_isolation.moc"
