// pftree finds physical isolation whenever it exists (issue 14, docs/pftree-isolation.md): an
// exhaustive oracle on small generated fat-trees decides, for random placements of phy-isolated
// partitions, the least number k of directed switch links that two of them must share among
// all routings with one down path per destination (k = 0: an isolating one exists). pftree,
// judged by validateRouting on its tables, must share exactly k links, and strict mode must
// accept where k = 0.
//
// The oracle knows nothing of the engine: it reads the tree from the generator's levels and
// cables, and models a destination's routes directly: on two levels, source leaf -> top ->
// destination leaf; on three, a source leaf in the destination's pod goes up to the down
// path's middle switch, another one up to the top switch's middle switch in its own pod, then
// to the top and down the down path.

#include "FabricGenerator.h"
#include "GeneratedFabrics.h"
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
};

const std::vector<Shape> &shapes()
{
    static const std::vector<Shape> all{
        {"radix 4, 2 levels", 4, 2, 4, 4, 150},
        {"radix 6, 2 levels", 6, 2, 4, 6, 150},
        {"radix 8, 2 levels", 8, 2, 4, 8, 150},
        {"radix 4, 3 levels", 4, 3, 4, 4, 150},
        {"radix 6, 3 levels", 6, 3, 4, 5, 100},
        {"radix 8, 3 levels", 8, 3, 3, 4, 60},
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
        for (int i = 0; i < members && next < hosts.size(); ++i)
            list.push_back({hosts[next++], i == 0 || rng() % 4 != 0});
        p.partitions.push_back(list);
    }
    return p;
}

// The least number of directed links carrying two or more partitions, over every choice of
// down path per (partition, leaf); exhaustive, with the obvious cut (a partial cost never drops).
int oracleMinimum(const Tree &t, const Placement &placement)
{
    struct Variable
    {
        int partition;
        std::vector<std::set<Link>> options;
    };
    std::vector<Variable> vars;
    for (std::size_t k = 0; k < placement.partitions.size(); ++k) {
        std::map<NodeIndex, bool> leafHasFull;  // leaf -> a full member there
        std::set<NodeIndex> all, full;
        for (const Placement::Member &m : placement.partitions[k]) {
            all.insert(t.leafOf.at(m.host));
            if (m.full)
                full.insert(t.leafOf.at(m.host));
            leafHasFull[t.leafOf.at(m.host)] |= m.full;
        }
        for (const auto &[leaf, anyFull] : leafHasFull) {
            const std::set<NodeIndex> &senders = anyFull ? all : full;
            if (senders.empty() || (senders.size() == 1 && *senders.begin() == leaf))
                continue;
            Variable v;
            v.partition = int(k);
            for (NodeIndex first : t.parents.at(leaf)) {
                if (t.levels == 2) {
                    std::set<Link> links;
                    linksTowards(t, leaf, {first}, senders, links);
                    v.options.push_back(links);
                    continue;
                }
                for (NodeIndex top : t.parents.at(first)) {
                    std::set<Link> links;
                    linksTowards(t, leaf, {first, top}, senders, links);
                    v.options.push_back(links);
                }
            }
            vars.push_back(v);
        }
    }
    std::map<Link, std::map<int, int>> on;
    int cost = 0;
    int best = std::numeric_limits<int>::max();
    auto add = [&](const std::set<Link> &links, int k, int sign) {
        for (const Link &l : links) {
            std::map<int, int> &parts = on[l];
            const bool before = parts.size() >= 2;
            if ((parts[k] += sign) == 0)
                parts.erase(k);
            cost += int(parts.size() >= 2) - int(before);
        }
    };
    auto dfs = [&](auto &&self, std::size_t i) -> void {
        if (cost >= best)
            return;
        if (i == vars.size()) {
            best = cost;
            return;
        }
        for (const std::set<Link> &option : vars[i].options) {
            add(option, vars[i].partition, +1);
            self(self, i + 1);
            add(option, vars[i].partition, -1);
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
        const GeneratedFabric g = generate(sh.radix, sh.levels);
        const Tree tree = readTree(g, sh.levels);
        int isolated = 0, sharing = 0, searched = 0;
        QElapsedTimer timer;
        timer.start();
        for (int seed = 1; seed <= sh.placements; ++seed) {
            std::mt19937 rng(std::uint32_t(seed * 7919 + shape));
            const Placement placement = place(g, sh, rng);
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
            QCOMPARE(shared, k);
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
        qInfo("%s: %d placements isolated, %d with a forced minimum; the per-leaf allocation was replaced in %d (%lld ms)",
              sh.name, isolated, sharing, searched, qint64(timer.elapsed()));
        QVERIFY(searched > 0);  // the oracle exercises the search, not only the paper's allocation
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
