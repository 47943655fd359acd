// Spec 000-pftree.md §7 T11 (weights from receive bandwidth, corrected Eq. 1) and T12 (invariants
// on all nine Table 3 topologies: victims 25 % spread evenly over the leaves, victim partition
// phy-isolation, everything else one interfering partition).

#include "FabricGenerator.h"
#include "GeneratedFabrics.h"
#include "NodeWeights.h"
#include "PartitionAwareFatTree.h"
#include "RoutingEngine.h"
#include "Validation.h"

#include <QtTest>

#include <random>

using namespace weft;

namespace {

struct Scenario
{
    GeneratedFabric generated;
    Tenancy tenancy;
};

// Table 3 gives XGFT(2; nodes per leaf, leaves; 1, roots) in the paper's notation; the generator
// takes spec 001's (roots first): XGFT(2; leaves, nodes per leaf; roots, 1).
Scenario table3(int nodesPerLeaf, int leaves, int roots, std::uint64_t seed)
{
    Scenario s;
    GeneratorOptions o;
    o.shape = FabricShapeKind::Xgft;
    o.xgft.height = 2;
    o.xgft.children = {leaves, nodesPerLeaf};
    o.xgft.parents = {roots, 1};
    s.generated = test::generateOrFail(o);
    const Fabric &f = s.generated.fabric;

    // A quarter of each leaf's nodes are victims, at seeded positions within the leaf.
    Partition victim;
    victim.name = QStringLiteral("victim");
    victim.pkey = 0x0001;
    victim.policy = IsolationPolicy::Physical;
    victim.defaultMembership = Membership::Full;
    Partition others;
    others.name = QStringLiteral("interfering");
    others.pkey = 0x0002;
    others.defaultMembership = Membership::Full;
    std::mt19937_64 random(seed);
    const std::size_t perLeaf = std::size_t(nodesPerLeaf);
    for (std::size_t leaf = 0; leaf < std::size_t(leaves); ++leaf) {
        std::vector<std::size_t> positions(perLeaf);
        for (std::size_t i = 0; i < perLeaf; ++i)
            positions[i] = i;
        for (std::size_t i = perLeaf - 1; i > 0; --i)  // Fisher-Yates with our own draws
            std::swap(positions[i], positions[std::size_t(random() % (i + 1))]);
        for (std::size_t i = 0; i < perLeaf; ++i) {
            const NodeIndex host = s.generated.hosts[leaf * perLeaf + positions[i]];
            const Guid port = f.port(f.node(host).firstPort + 1).guid;
            (i < perLeaf / 4 ? victim : others).members.push_back(
                PartitionMember{PartitionMember::Kind::PortGuid, port, Membership::Full, false});
        }
    }
    s.tenancy.partitions = {victim, others};
    return s;
}

std::size_t victimSharedLinks(const ValidationResult &v)
{
    return v.partitions.at(0).shared.size();
}

}  // namespace

class TestPFTreeTable3 : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void t11WeightsFromBandwidth()
    {
        const std::vector<double> w = weightsFromReceiveBandwidth({10, 20, 30}, 1, 100);
        QCOMPARE(w.size(), std::size_t(3));
        QCOMPARE(w[0], 1.0);
        QCOMPARE(w[1], 50.5);
        QCOMPARE(w[2], 100.0);
        // The printed formula would give 45.55 for the smallest bandwidth.
        QVERIFY(std::abs(w[0] - 45.55) > 1.0);
        for (double x : weightsFromReceiveBandwidth({7, 7, 7}, 1, 100))
            QCOMPARE(x, 1.0);
        QVERIFY(weightsFromReceiveBandwidth({}, 1, 100).empty());
    }

    void t12Table3Invariants_data()
    {
        QTest::addColumn<int>("nodesPerLeaf");
        QTest::addColumn<int>("leaves");
        QTest::addColumn<int>("roots");
        // Spec 000 §5.4, Table 3.
        QTest::addRow("32 nodes, 2:1") << 8 << 4 << 4;
        QTest::addRow("48 nodes, 3:1") << 12 << 4 << 4;
        QTest::addRow("64 nodes, 4:1") << 16 << 4 << 4;
        QTest::addRow("128 nodes, 2:1") << 16 << 8 << 8;
        QTest::addRow("192 nodes, 3:1") << 24 << 8 << 8;
        QTest::addRow("256 nodes, 4:1") << 32 << 8 << 8;
        QTest::addRow("512 nodes, 2:1") << 32 << 16 << 16;
        QTest::addRow("768 nodes, 3:1") << 48 << 16 << 16;
        QTest::addRow("1024 nodes, 4:1") << 64 << 16 << 16;
    }

    void t12Table3Invariants()
    {
        QFETCH(int, nodesPerLeaf);
        QFETCH(int, leaves);
        QFETCH(int, roots);
        for (std::uint64_t seed : {1u, 2u}) {
            const Scenario s = table3(nodesPerLeaf, leaves, roots, seed);
            const Fabric &f = s.generated.fabric;
            QCOMPARE(int(s.generated.hosts.size()), nodesPerLeaf * leaves);

            for (OrderingVariant variant : {OrderingVariant::FirstIndex, OrderingVariant::Chained}) {
                PartitionAwareOptions options;
                options.ordering = variant;
                PartitionAwareFatTreeEngine engine(PartitionAwareFatTreeEngine::Algorithm::Extended, options);
                QVERIFY(engine.prepare(f, s.tenancy, {}).ok());
                Result<Routing> first = engine.route({});
                QVERIFY2(first.ok(), first.ok() ? "" : qPrintable(first.error().toString()));
                // 1. Deterministic: a fresh engine gives the same tables.
                PartitionAwareFatTreeEngine again(PartitionAwareFatTreeEngine::Algorithm::Extended, options);
                QVERIFY(again.prepare(f, s.tenancy, {}).ok());
                Result<Routing> second = again.route({});
                QVERIFY(second.ok());
                QVERIFY(first->tables == second->tables);

                // 2. Every pair reachable, no loops; 4. the victim shares no link.
                LaneAssignment lanes;
                lanes.serviceLevels = first->serviceLevels;
                const ValidationResult v = validateRouting(f, s.tenancy, first->tables, lanes);
                QCOMPARE(v.unreachablePartitionPairs, std::uint64_t(0));
                QCOMPARE(v.unreachableOtherPairs, std::uint64_t(0));
                QCOMPARE(v.loops, std::size_t(0));
                QVERIFY(v.deadlockFree);
                QCOMPARE(victimSharedLinks(v), std::size_t(0));
                QVERIFY2(v.ok, qPrintable(v.problems.join(QStringLiteral("; "))));
            }

            // 5. The partition-blind baseline shares links.
            Result<Routing> ftree = routeFabric(QStringLiteral("ftree"), f, s.tenancy, {});
            QVERIFY(ftree.ok());
            const ValidationResult base = validateRouting(f, s.tenancy, ftree->tables);
            QVERIFY(victimSharedLinks(base) > 0);
            if (seed == 1)
                qInfo("%d nodes: victim shares %zu directed links under ftree, 0 under pftree",
                      nodesPerLeaf * leaves, victimSharedLinks(base));
        }
    }

    // The invariant suite up to the largest radix: 3-level trees of radix 24 and 36 (the latter
    // 11,664 hosts) in 8 partitions, routed by ftree and pftree, validated end to end.
    void largeTreesAreValid_data()
    {
        QTest::addColumn<int>("radix");
        QTest::addColumn<QString>("engine");
        for (int radix : {24, 36})
            for (const char *engine : {"ftree", "pftree"})
                QTest::addRow("radix %d, 3 levels, %s", radix, engine) << radix << QString::fromLatin1(engine);
    }

    void largeTreesAreValid()
    {
        QFETCH(int, radix);
        QFETCH(QString, engine);
        GeneratorOptions o;
        o.shape = FabricShapeKind::SwitchRadix;
        o.radix = radix;
        o.levels = 3;
        Result<GeneratedFabric> g = generateFabric(o);
        QVERIFY(g.ok());
        const Fabric &f = g->fabric;
        Tenancy tenancy;
        const std::size_t hosts = g->hosts.size();
        for (std::size_t p = 0; p < 8; ++p) {
            Partition part;
            part.name = QStringLiteral("t%1").arg(p);
            part.pkey = std::uint16_t(0x100 + p);
            part.defaultMembership = Membership::Full;
            for (std::size_t h = hosts * p / 8; h < hosts * (p + 1) / 8; ++h)
                part.members.push_back(PartitionMember{PartitionMember::Kind::PortGuid,
                                                       f.port(f.node(g->hosts[h]).firstPort + 1).guid, Membership::Full, false});
            tenancy.partitions.push_back(part);
        }
        Result<Routing> routing = routeFabric(engine, f, tenancy, {});
        QVERIFY2(routing.ok(), routing.ok() ? "" : qPrintable(routing.error().toString()));
        LaneAssignment lanes;
        lanes.serviceLevels = routing->serviceLevels;
        const ValidationResult v = validateRouting(f, tenancy, routing->tables, lanes);
        QCOMPARE(v.endPorts, hosts);
        QCOMPARE(v.unreachablePartitionPairs, std::uint64_t(0));
        QCOMPARE(v.unreachableOtherPairs, std::uint64_t(0));
        QCOMPARE(v.loops, std::size_t(0));
        QVERIFY(v.deadlockFree);
    }
};

QTEST_GUILESS_MAIN(TestPFTreeTable3)
#include "tst_pftree_table3.moc"
