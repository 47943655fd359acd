// Metrics on a two-level tree with hand-written tables whose figures are counted by hand
// (routes, flows, weighted load, sharing, interference, contention towards receivers), the
// closed-form all-to-all loads of full k-ary n-trees routed by ftree, and determinism of the
// seeded traffic models.

#include "FabricEdit.h"
#include "FabricGenerator.h"
#include "Metrics.h"
#include "RoutingEngine.h"
#include "RoutingEvaluation.h"
#include "Validation.h"

#include "GeneratedFabrics.h"
#include "Partitions.h"
#include "TinyFabric.h"

#include <QtTest>

#include <cmath>
#include <map>

using namespace weft;

namespace {

using test::TinyFabric;

// Leaves L0 (H0, H1) and L1 (H2, H3), spines S0 and S1; leaf port 3 to S0, 4 to S1; spine port
// 1 to L0, 2 to L1. H1 goes down through S1, everyone else through S0.
struct SmallTree
{
    TinyFabric t;
    Fabric fabric;
    ForwardingTables tables;

    SmallTree()
    {
        for (const char *s : {"L0", "L1"})
            t.addSwitch(QLatin1String(s), 4);
        for (const char *s : {"S0", "S1"})
            t.addSwitch(QLatin1String(s), 2);
        for (int h = 0; h < 4; ++h) {
            t.addHost(QStringLiteral("H%1").arg(h));
            t.cable(QStringLiteral("L%1").arg(h / 2), 1 + h % 2, QStringLiteral("H%1").arg(h), 1);
        }
        for (int l = 0; l < 2; ++l)
            for (int s = 0; s < 2; ++s)
                t.cable(QStringLiteral("L%1").arg(l), 3 + s, QStringLiteral("S%1").arg(s), 1 + l);
        fabric = t.build();
        tables = t.tables({
            {QStringLiteral("L0"), {{QStringLiteral("H0"), 1}, {QStringLiteral("H1"), 2}, {QStringLiteral("H2"), 3}, {QStringLiteral("H3"), 3}}},
            {QStringLiteral("L1"), {{QStringLiteral("H0"), 3}, {QStringLiteral("H1"), 4}, {QStringLiteral("H2"), 1}, {QStringLiteral("H3"), 2}}},
            {QStringLiteral("S0"), {{QStringLiteral("H0"), 1}, {QStringLiteral("H1"), 1}, {QStringLiteral("H2"), 2}, {QStringLiteral("H3"), 2}}},
            {QStringLiteral("S1"), {{QStringLiteral("H0"), 1}, {QStringLiteral("H1"), 1}, {QStringLiteral("H2"), 2}, {QStringLiteral("H3"), 2}}},
        });
    }

    // The directed link leaving `node` by `port`.
    const LinkLoad &link(const Metrics &m, const QString &node, int port) const
    {
        const PortIndex from = fabric.portOf(fabric.nodeByName(node), port);
        for (const LinkLoad &l : m.links)
            if (l.from == from)
                return l;
        qFatal("no link %s[%d]", qPrintable(node), port);
    }

    Tenancy tenancy(bool withPartitions, bool withWeights) const
    {
        Tenancy tenancy;
        auto add = [&](const QString &name, std::uint16_t pkey, const QString &a, const QString &b) {
            tenancy.partitions.push_back(test::partition(name, pkey, {t.portGuid(a), t.portGuid(b)}));
        };
        if (withPartitions) {
            add(QStringLiteral("a"), 0x0001, QStringLiteral("H0"), QStringLiteral("H2"));
            add(QStringLiteral("b"), 0x0002, QStringLiteral("H1"), QStringLiteral("H3"));
        }
        if (withWeights) {
            tenancy.nodeWeights[t.portGuid(QStringLiteral("H2"))] = 100;
            tenancy.nodeWeights[t.portGuid(QStringLiteral("H3"))] = 100;
        }
        return tenancy;
    }
};

GeneratedFabric generate(int arity, int levels)
{
    return test::generate({FabricShapeKind::KaryNTree, arity, levels});
}

std::uint64_t power(std::uint64_t base, int exponent)
{
    std::uint64_t r = 1;
    while (exponent-- > 0)
        r *= base;
    return r;
}

// The first difference between two results, field by field, doubles to the bit; empty when equal.
QString differences(const Statistics &a, const Statistics &b, const QString &what)
{
    if (a.max != b.max || a.min != b.min || a.mean != b.mean || a.stddev != b.stddev)
        return what;
    return {};
}

QString differences(const Metrics &a, const Metrics &b)
{
    if (a.endPorts != b.endPorts || a.modelFlows != b.modelFlows || a.undeliveredFlows != b.undeliveredFlows)
        return QStringLiteral("flow counts");
    if (a.links.size() != b.links.size())
        return QStringLiteral("link count");
    for (std::size_t i = 0; i < a.links.size(); ++i) {
        const LinkLoad &x = a.links[i];
        const LinkLoad &y = b.links[i];
        if (x.from != y.from || x.to != y.to || x.fromLevel != y.fromLevel || x.toLevel != y.toLevel || x.routes != y.routes
            || x.weightedRoutes != y.weightedRoutes || x.flows != y.flows || x.load != y.load || x.partitions != y.partitions)
            return QStringLiteral("link %1").arg(i);
    }
    if (a.tiers.size() != b.tiers.size())
        return QStringLiteral("tier count");
    for (std::size_t i = 0; i < a.tiers.size(); ++i) {
        const TierBalance &x = a.tiers[i];
        const TierBalance &y = b.tiers[i];
        if (x.name != y.name || x.links != y.links)
            return QStringLiteral("tier %1").arg(x.name);
        for (const QString &d : {differences(x.routes, y.routes, x.name + QLatin1String(" routes")),
                                 differences(x.weightedRoutes, y.weightedRoutes, x.name + QLatin1String(" weighted routes")),
                                 differences(x.flows, y.flows, x.name + QLatin1String(" flows")),
                                 differences(x.load, y.load, x.name + QLatin1String(" load"))})
            if (!d.isEmpty())
                return d;
    }
    for (const QString &d : {differences(a.allRoutes, b.allRoutes, QStringLiteral("all routes")), differences(a.allLoad, b.allLoad, QStringLiteral("all load"))})
        if (!d.isEmpty())
            return d;
    if (a.partitions.size() != b.partitions.size())
        return QStringLiteral("partition count");
    for (std::size_t i = 0; i < a.partitions.size(); ++i) {
        const PartitionSharing &x = a.partitions[i];
        const PartitionSharing &y = b.partitions[i];
        if (x.name != y.name || x.pkey != y.pkey || x.members != y.members || x.linksUsed != y.linksUsed
            || x.sharedLinks != y.sharedLinks || x.flows != y.flows)
            return QStringLiteral("partition %1").arg(x.name);
    }
    if (a.sharedLinks != b.sharedLinks || a.sharedLinksUp != b.sharedLinksUp || a.sharedLinksDown != b.sharedLinksDown
        || a.interference != b.interference || a.interferencePairwise != b.interferencePairwise)
        return QStringLiteral("sharing");
    const ReceiverContention &x = a.contention;
    const ReceiverContention &y = b.contention;
    if (x.receivers != y.receivers || x.totalDown != y.totalDown || x.totalUp != y.totalUp || x.contendedDown != y.contendedDown
        || x.contendedUp != y.contendedUp)
        return QStringLiteral("contention");
    return {};
}

QString differences(const ValidationResult &a, const ValidationResult &b)
{
    if (a.ok != b.ok || a.endPorts != b.endPorts || a.switches != b.switches || a.partitionPairs != b.partitionPairs
        || a.unreachablePartitionPairs != b.unreachablePartitionPairs || a.unreachableOtherPairs != b.unreachableOtherPairs
        || a.loops != b.loops || a.deadlockFree != b.deadlockFree || a.virtualLanes != b.virtualLanes
        || a.dependencies != b.dependencies || a.policyViolations != b.policyViolations)
        return QStringLiteral("counts");
    if (a.creditLoop != b.creditLoop)
        return QStringLiteral("credit loop");
    if (a.problems != b.problems)
        return QStringLiteral("problems: %1 | %2").arg(a.problems.join(QLatin1Char(';')), b.problems.join(QLatin1Char(';')));
    if (a.managementProblems != b.managementProblems)
        return QStringLiteral("management problems");
    if (a.partitions.size() != b.partitions.size())
        return QStringLiteral("partition count");
    for (std::size_t i = 0; i < a.partitions.size(); ++i) {
        const PartitionIsolationReport &x = a.partitions[i];
        const PartitionIsolationReport &y = b.partitions[i];
        if (x.name != y.name || x.pkey != y.pkey || x.virtualLane != y.virtualLane || x.members != y.members
            || x.linksUsed != y.linksUsed || x.violations != y.violations || x.violationCount != y.violationCount
            || x.shared.size() != y.shared.size())
            return QStringLiteral("partition %1").arg(x.name);
        for (std::size_t j = 0; j < x.shared.size(); ++j)
            if (x.shared[j].from != y.shared[j].from || x.shared[j].link != y.shared[j].link || x.shared[j].others != y.shared[j].others)
                return QStringLiteral("partition %1 shared link %2").arg(x.name).arg(j);
    }
    return {};
}

// What the shared-walk tests run on: a 432-host tree (enough destinations for threads).
enum class Damage { None,
                    CutCables,
                    Loops };
enum class Tenants { None,
                     Partitions,
                     OddWeights };

}  // namespace

class TestMetrics : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void smallTreeLinks_data()
    {
        QTest::addColumn<QString>("node");
        QTest::addColumn<int>("port");
        QTest::addColumn<quint64>("routes");
        QTest::addColumn<double>("weightedRoutes");
        QTest::addColumn<quint64>("flows");   // all-to-all
        QTest::addColumn<double>("load");     // all-to-all, H2 and H3 weigh 100

        QTest::addRow("L0 up to S0 carries H2 and H3") << QStringLiteral("L0") << 3 << quint64(2) << 200.0 << quint64(4) << 400.0;
        QTest::addRow("L0 up to S1 carries nothing") << QStringLiteral("L0") << 4 << quint64(0) << 0.0 << quint64(0) << 0.0;
        QTest::addRow("L1 up to S0 carries H0") << QStringLiteral("L1") << 3 << quint64(1) << 1.0 << quint64(2) << 2.0;
        QTest::addRow("L1 up to S1 carries H1") << QStringLiteral("L1") << 4 << quint64(1) << 1.0 << quint64(2) << 2.0;
        QTest::addRow("S0 down to L1 carries H2 and H3") << QStringLiteral("S0") << 2 << quint64(2) << 200.0 << quint64(4) << 400.0;
        QTest::addRow("S0 down to L0 carries H0") << QStringLiteral("S0") << 1 << quint64(1) << 1.0 << quint64(2) << 2.0;
        QTest::addRow("S1 down to L1 carries nothing") << QStringLiteral("S1") << 2 << quint64(0) << 0.0 << quint64(0) << 0.0;
        QTest::addRow("H0's cable up: three destinations") << QStringLiteral("H0") << 1 << quint64(3) << 201.0 << quint64(3) << 201.0;
        QTest::addRow("H2's cable up: three destinations") << QStringLiteral("H2") << 1 << quint64(3) << 102.0 << quint64(3) << 102.0;
        QTest::addRow("L1 down to H2: one destination, three sources") << QStringLiteral("L1") << 1 << quint64(1) << 100.0 << quint64(3) << 300.0;
    }

    void smallTreeLinks()
    {
        QFETCH(QString, node);
        QFETCH(int, port);
        QFETCH(quint64, routes);
        QFETCH(double, weightedRoutes);
        QFETCH(quint64, flows);
        QFETCH(double, load);
        const SmallTree tree;
        TrafficModel model;
        model.pattern = TrafficPattern::AllToAll;
        const Metrics m = computeMetrics(tree.fabric, tree.tenancy(true, true), tree.tables, model);
        const LinkLoad &l = tree.link(m, node, port);
        QCOMPARE(l.routes, routes);
        QCOMPARE(l.weightedRoutes, weightedRoutes);
        QCOMPARE(l.flows, flows);
        QCOMPARE(l.load, load);
        QCOMPARE(m.modelFlows, quint64(12));
        QCOMPARE(m.undeliveredFlows, quint64(0));
    }

    void smallTreeIsolationAndContention()
    {
        const SmallTree tree;
        const Metrics m = computeMetrics(tree.fabric, tree.tenancy(true, true), tree.tables);
        // Partition all-to-all: H0 <-> H2 and H1 <-> H3 only.
        QCOMPARE(m.modelFlows, quint64(4));
        QCOMPARE(tree.link(m, QStringLiteral("L0"), 3).flows, quint64(2));
        QCOMPARE(tree.link(m, QStringLiteral("L0"), 3).load, 200.0);
        QCOMPARE(tree.link(m, QStringLiteral("H0"), 1).flows, quint64(1));
        QCOMPARE(tree.link(m, QStringLiteral("L1"), 1).flows, quint64(1));  // H0 -> H2 only

        // a and b meet on L0 -> S0 and S0 -> L1, one flow each: I = 2 + 2, I2 = 1 + 1.
        QCOMPARE(m.sharedLinks, std::size_t(2));
        QCOMPARE(m.sharedLinksUp, std::size_t(1));
        QCOMPARE(m.sharedLinksDown, std::size_t(1));
        QCOMPARE(m.interference, quint64(4));
        QCOMPARE(m.interferencePairwise, quint64(2));
        QCOMPARE(m.partitions.size(), std::size_t(2));
        for (const PartitionSharing &p : m.partitions) {
            QCOMPARE(p.linksUsed, std::size_t(4));
            QCOMPARE(p.sharedLinks, std::size_t(2));
            QCOMPARE(p.flows, quint64(2 * 2));  // two flows, two switch-to-switch links each
        }
        QCOMPARE(tree.link(m, QStringLiteral("L0"), 3).partitions, (std::vector<int>{0, 1}));
        QCOMPARE(tree.link(m, QStringLiteral("L1"), 4).partitions, std::vector<int>{1});

        // Receivers H2 and H3 both come through L0 -> S0 -> L1.
        QCOMPARE(m.contention.receivers, std::size_t(2));
        QCOMPARE(m.contention.totalUp, quint64(1));
        QCOMPARE(m.contention.contendedUp, std::size_t(1));
        QCOMPARE(m.contention.totalDown, quint64(1));
        QCOMPARE(m.contention.contendedDown, std::size_t(1));

        // Balance of the four leaf up-links: routes 2, 0, 1, 1.
        const auto tier = std::find_if(m.tiers.begin(), m.tiers.end(), [](const TierBalance &t) { return t.name == QLatin1String("1->2 up"); });
        QVERIFY(tier != m.tiers.end());
        QCOMPARE(tier->links, std::size_t(4));
        QCOMPARE(tier->routes.max, 2.0);
        QCOMPARE(tier->routes.min, 0.0);
        QCOMPARE(tier->routes.mean, 1.0);
        QCOMPARE(tier->routes.stddev, std::sqrt(0.5));
    }

    void fullTreeAllToAllClosedForm_data()
    {
        QTest::addColumn<int>("arity");
        QTest::addColumn<int>("levels");
        QTest::addRow("2-ary 2-tree") << 2 << 2;
        QTest::addRow("4-ary 2-tree") << 4 << 2;
        QTest::addRow("2-ary 3-tree") << 2 << 3;
        QTest::addRow("3-ary 3-tree") << 3 << 3;
        QTest::addRow("2-ary 4-tree") << 2 << 4;
    }

    // In a full k-ary n-tree with N = k^n hosts, the sub-tree below a level-j switch holds
    // k^j hosts and k^j up-links. A balanced routing sends the N - k^j destinations outside it
    // evenly over those links: (N - k^j)/k^j routes and N - k^j all-to-all flows per up-link;
    // each of the k^j destinations inside enters by its own down-link: 1 route, N - k^j flows.
    // Host cables: N - 1 flows each way, N - 1 routes up, 1 down.
    void fullTreeAllToAllClosedForm()
    {
        QFETCH(int, arity);
        QFETCH(int, levels);
        const GeneratedFabric g = generate(arity, levels);
        const Result<Routing> routing = routeFabric(QStringLiteral("ftree"), g.fabric, Tenancy{});
        QVERIFY2(routing.ok(), routing.ok() ? "" : qPrintable(routing.error().toString()));
        TrafficModel model;
        model.pattern = TrafficPattern::AllToAll;
        const Metrics m = computeMetrics(g.fabric, Tenancy{}, routing->tables, model);
        const std::uint64_t n = power(std::uint64_t(arity), levels);
        QCOMPARE(m.endPorts, std::size_t(n));
        QCOMPARE(m.modelFlows, n * (n - 1));
        std::size_t checked = 0;
        for (const LinkLoad &l : m.links) {
            const bool up = l.toLevel > l.fromLevel;
            const int below = up ? l.fromLevel : l.toLevel;  // the level whose sub-tree the link leaves or enters
            const std::uint64_t inside = power(std::uint64_t(arity), below);
            const QString where = directedLinkText(g.fabric, l.from);
            if (below == 0) {
                QVERIFY2(l.flows == n - 1, qPrintable(where));
                QVERIFY2(l.routes == (up ? n - 1 : 1), qPrintable(where));
            } else {
                QVERIFY2(l.flows == n - inside, qPrintable(QStringLiteral("%1: %2 flows").arg(where).arg(l.flows)));
                QVERIFY2(l.routes == (up ? (n - inside) / inside : 1), qPrintable(QStringLiteral("%1: %2 routes").arg(where).arg(l.routes)));
            }
            QCOMPARE(l.load, double(l.flows));
            ++checked;
        }
        QCOMPARE(checked, g.fabric.links().size() * 2);
        // One tier per direction and level pair, perfectly balanced.
        QCOMPARE(int(m.tiers.size()), 2 * levels);
        for (const TierBalance &t : m.tiers) {
            QCOMPARE(t.flows.stddev, 0.0);
            QCOMPARE(t.routes.max, t.routes.min);
        }
    }

    void seededModels_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<quint64>("flows");  // for the 16 hosts of a 4-ary 2-tree
        QTest::addColumn<bool>("seeded");
        QTest::addRow("uniform random") << QStringLiteral("uniform-random") << quint64(16) << true;
        QTest::addRow("bisection") << QStringLiteral("bisection") << quint64(16) << true;
        QTest::addRow("shift by 4") << QStringLiteral("shift:4") << quint64(16) << false;
        QTest::addRow("all-to-all") << QStringLiteral("all-to-all") << quint64(16 * 15) << false;
    }

    void seededModels()
    {
        QFETCH(QString, model);
        QFETCH(quint64, flows);
        QFETCH(bool, seeded);
        const GeneratedFabric g = generate(4, 2);
        const Result<Routing> routing = routeFabric(QStringLiteral("ftree"), g.fabric, Tenancy{});
        QVERIFY(routing.ok());
        std::optional<TrafficModel> parsed = parseTrafficModel(model);
        QVERIFY(parsed);
        parsed->seed = 7;
        const Metrics first = computeMetrics(g.fabric, Tenancy{}, routing->tables, *parsed);
        const Metrics again = computeMetrics(g.fabric, Tenancy{}, routing->tables, *parsed);
        parsed->seed = 8;
        const Metrics other = computeMetrics(g.fabric, Tenancy{}, routing->tables, *parsed);
        QCOMPARE(first.modelFlows, flows);
        QCOMPARE(other.modelFlows, flows);
        bool sameAsAgain = true;
        bool sameAsOther = true;
        std::uint64_t hostCableFlows = 0;
        for (std::size_t i = 0; i < first.links.size(); ++i) {
            sameAsAgain = sameAsAgain && first.links[i].flows == again.links[i].flows && first.links[i].load == again.links[i].load;
            sameAsOther = sameAsOther && first.links[i].flows == other.links[i].flows;
            if (first.links[i].fromLevel == 0)
                hostCableFlows += first.links[i].flows;
        }
        // Every flow leaves its source by the source's own cable.
        QCOMPARE(hostCableFlows, flows);
        QVERIFY(sameAsAgain);
        QCOMPARE(!sameAsOther, seeded);
    }

    // Validation and metrics each on one thread, against both on threads (evaluateRouting's one
    // walk per destination, and each alone): the same figures and the same examples, in order.
    void threadsAndSharedWalk_data()
    {
        QTest::addColumn<int>("damage");
        QTest::addColumn<int>("tenants");
        QTest::addColumn<int>("pattern");
        const auto row = [](const char *name, Damage damage, Tenants tenants, TrafficPattern pattern) {
            QTest::addRow("%s", name) << int(damage) << int(tenants) << int(pattern);
        };
        row("healthy", Damage::None, Tenants::None, TrafficPattern::PartitionAllToAll);
        row("healthy, uniform random", Damage::None, Tenants::None, TrafficPattern::UniformRandom);
        row("cables cut", Damage::CutCables, Tenants::None, TrafficPattern::AllToAll);
        row("loops", Damage::Loops, Tenants::None, TrafficPattern::PartitionAllToAll);
        row("partitions, lanes, weights", Damage::None, Tenants::Partitions, TrafficPattern::PartitionAllToAll);
        row("partitions, cables cut", Damage::CutCables, Tenants::Partitions, TrafficPattern::PartitionAllToAll);
        row("partitions, loops, shift", Damage::Loops, Tenants::Partitions, TrafficPattern::Shift);
        row("weights not in halves (one thread)", Damage::CutCables, Tenants::OddWeights, TrafficPattern::PartitionAllToAll);
    }

    void threadsAndSharedWalk()
    {
        QFETCH(int, damage);
        QFETCH(int, tenants);
        QFETCH(int, pattern);
        const GeneratedFabric g = test::generate({FabricShapeKind::SwitchRadix, 12, 3});
        QCOMPARE(g.hosts.size(), std::size_t(432));
        const Fabric &full = g.fabric;
        const auto guidOf = [&](std::size_t h) { return full.port(full.portOf(g.hosts[h], 1)).guid; };

        Tenancy tenancy;
        LaneAssignment lanes;
        if (Tenants(tenants) == Tenants::Partitions) {
            const IsolationPolicy policies[] = {IsolationPolicy::Physical, IsolationPolicy::VirtualLane, IsolationPolicy::Default,
                                                IsolationPolicy::VirtualLane};
            for (int p = 0; p < 4; ++p) {
                std::vector<Guid> fullMembers, limited;
                for (std::size_t h = 0; h < g.hosts.size(); ++h) {
                    if (int(h % 5) == p)
                        fullMembers.push_back(guidOf(h));
                    else if (h % 37 == std::size_t(p))
                        limited.push_back(guidOf(h));
                }
                tenancy.partitions.push_back(test::partition(QStringLiteral("tenant%1").arg(p), std::uint16_t(0x8001 + p), fullMembers,
                                                             policies[p], limited));
                lanes.serviceLevels[std::uint16_t(0x0001 + p)] = p % 2;
            }
        }
        for (std::size_t h = 0; h < g.hosts.size() && Tenants(tenants) != Tenants::None; ++h)
            tenancy.nodeWeights[guidOf(h)] = Tenants(tenants) == Tenants::OddWeights ? 0.1 * double(1 + h % 7) : 1.0 + 0.5 * double(h % 4);

        Result<Routing> routing = routeFabric(QStringLiteral("ftree"), full, Tenancy{});
        QVERIFY(routing.ok());
        ForwardingTables tables = routing->tables;
        Fabric fabric = full;
        if (Damage(damage) == Damage::CutCables) {
            FabricEdit edit;
            edit.cutPorts.assign(full.ports().size(), false);
            int cut = 0;
            for (NodeIndex sw : full.switches()) {
                const PortIndex p = full.portOf(sw, 1 + cut % 6);
                if (g.nodeLevel[std::size_t(sw)] == 1 && cut++ % 7 == 0 && full.port(p).remote != kNoIndex)
                    edit.cutPorts[std::size_t(p)] = true;
            }
            Result<Fabric> edited = editedFabric(full, edit);
            QVERIFY(edited.ok());
            fabric = std::move(edited).value();
        } else if (Damage(damage) == Damage::Loops) {
            // Some hosts' LIDs bounce between a leaf that is not theirs and the switch above it.
            const NodeIndex leaf = full.port(full.port(full.portOf(g.hosts[0], 1)).remote).node;
            PortIndex up = kNoIndex;
            for (int n = 1; n <= full.node(leaf).portCount && up == kNoIndex; ++n) {
                const PortIndex p = full.portOf(leaf, n);
                if (full.port(p).remote != kNoIndex && full.node(full.port(full.port(p).remote).node).type == NodeType::Switch)
                    up = p;
            }
            QVERIFY(up != kNoIndex);
            const NodeIndex above = full.port(full.port(up).remote).node;
            for (std::size_t h = 100; h < g.hosts.size(); h += 9) {
                const Lid lid = full.port(full.portOf(g.hosts[h], 1)).lid;
                tables.lft(std::size_t(tables.indexOf(full.node(leaf).guid))).setPort(lid, full.port(up).number);
                tables.lft(std::size_t(tables.indexOf(full.node(above).guid))).setPort(lid, full.port(full.port(up).remote).number);
            }
        }

        TrafficModel model;
        model.pattern = TrafficPattern(pattern);
        model.seed = 7;
        model.shift = 5;
        ValidationOptions alone;
        alone.threads = 1;
        const ValidationResult validation = validateRouting(fabric, tenancy, tables, lanes, alone);
        const Metrics metrics = computeMetrics(fabric, tenancy, tables, model, 1);
        if (Damage(damage) != Damage::None) {
            QVERIFY(!validation.ok);
            QVERIFY(!validation.problems.isEmpty());
        }
        if (Damage(damage) == Damage::Loops)
            QVERIFY(validation.loops > 0);
        if (Tenants(tenants) == Tenants::Partitions)
            QVERIFY(validation.partitions.size() == 4 && validation.policyViolations > 0);

        for (int threads : {2, 3}) {
            ValidationOptions shared;
            shared.threads = threads;
            QString d = differences(validation, validateRouting(fabric, tenancy, tables, lanes, shared));
            QVERIFY2(d.isEmpty(), qPrintable(QStringLiteral("validation on %1 threads: %2").arg(threads).arg(d)));
            d = differences(metrics, computeMetrics(fabric, tenancy, tables, model, threads));
            QVERIFY2(d.isEmpty(), qPrintable(QStringLiteral("metrics on %1 threads: %2").arg(threads).arg(d)));

            EvaluationOptions options;
            options.lanes = lanes;
            options.model = model;
            options.threads = threads;
            Result<RoutingEvaluation> evaluation = evaluateRouting(fabric, tenancy, tables, options);
            QVERIFY(evaluation.ok());
            d = differences(validation, evaluation->validation);
            QVERIFY2(d.isEmpty(), qPrintable(QStringLiteral("evaluation's validation on %1 threads: %2").arg(threads).arg(d)));
            d = differences(metrics, *evaluation->metrics);
            QVERIFY2(d.isEmpty(), qPrintable(QStringLiteral("evaluation's metrics on %1 threads: %2").arg(threads).arg(d)));
        }
    }

    void trafficModelNames_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::addRow("shift:3") << QStringLiteral("shift:3") << true;
        QTest::addRow("shift") << QStringLiteral("shift") << true;
        QTest::addRow("shift:0") << QStringLiteral("shift:0") << false;
        QTest::addRow("shift:x") << QStringLiteral("shift:x") << false;
        QTest::addRow("alltoall") << QStringLiteral("alltoall") << false;
        QTest::addRow("partition-all-to-all") << QStringLiteral("partition-all-to-all") << true;
    }

    void trafficModelNames()
    {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QCOMPARE(parseTrafficModel(text).has_value(), valid);
    }
};

QTEST_GUILESS_MAIN(TestMetrics)
#include "tst_metrics.moc"
