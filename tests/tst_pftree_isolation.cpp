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
// The oracle knows nothing of the engine (fixtures/IsolationOracle.h, the one the degraded-tree
// test uses): it reads the tree from the generator's levels and cables, and models a
// destination's routes directly: on two levels, source leaf -> top -> destination leaf; on
// three, a source leaf in the destination's pod goes up to the down path's middle switch,
// another one up to the top switch's middle switch in its own pod, then to the top and down the
// down path. Its symmetry cuts are proven cable by cable, so they share nothing with the
// engine's.

#include "FabricEdit.h"
#include "FabricGenerator.h"
#include "GeneratedFabrics.h"
#include "IsolationOracle.h"
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

// The least number k, by the oracle of fixtures/IsolationOracle.h, which shares no code and no
// symmetry cut with the engine (its symmetries are proven cable by cable on the tree at hand).
using OracleTree = test::oracle::Tree;

OracleTree readTree(const GeneratedFabric &g, int levels)
{
    return test::oracle::readTree(g.fabric, g.nodeLevel, g.hosts, levels);
}

int oracleMinimum(const OracleTree &t, const Placement &placement)
{
    test::oracle::Placement converted;
    for (const std::vector<Placement::Member> &members : placement.partitions) {
        std::vector<test::oracle::Member> list;
        for (const Placement::Member &m : members)
            list.push_back({m.host, m.full});
        converted.push_back(std::move(list));
    }
    return test::oracle::oracleMinimum(t, converted).minimum;
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
        const OracleTree tree = readTree(g, sh.levels);
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
