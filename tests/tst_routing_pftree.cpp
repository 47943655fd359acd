// Partition-aware and weighted fat-tree routing (pftree, pftree-wt, wftree): the golden cases
// of spec 000-pftree.md §7 and spec 003-thesis.md §9 on small hand-built two-level trees, with
// expectations taken from the specs (never from the engine), plus invariants on generated
// fat-trees and the physical-isolation figure against ftree.
//
// Everything measured here is measured independently of the engine: routes are walks through
// the returned LFTs, "via" is where other leaves send a destination, P(l) and the interference
// I are computed from all intra-partition flows (spec §2.3, §4.4).

#include "EffectiveBisection.h"
#include "FabricGenerator.h"
#include "GeneratedFabrics.h"
#include "FatTreeEngine.h"
#include "Metrics.h"
#include "PartitionAwareFatTree.h"
#include "RoutingEngine.h"
#include "TopologyFile.h"

#include <QtTest>

#include <map>
#include <set>

using namespace weft;

namespace {

// ---- small hand-built two-level trees ----------------------------------------------------

// Roots R1..Rr, leaves L1..Ln. Leaf i: hosts on ports 1..k in the given order, then one
// up-link per root; root port i goes to leaf i. GUIDs are chosen so that ftree indexes the
// leaves L1, L2, ... and so that GUID(R1) > GUID(R2) > ... (spec §7 conventions), unless
// rootsAscending (the thesis's S1 < S2 key order). A host's GUID and LID follow its position
// in `hostOrder` (default: order of appearance), so re-cabling keeps them.
struct Tree
{
    Fabric fabric;
    std::map<QString, NodeIndex> node;
    std::map<QString, Guid> portGuid;
    std::map<QString, Lid> lid;
    std::map<QString, QString> leafOf;
    QStringList hosts;
};

Tree buildTree(int roots, const std::vector<QStringList> &leaves, bool rootsAscending = false, QStringList hostOrder = {})
{
    Tree t;
    FabricBuilder b;
    auto check = [](const QString &problem) {
        if (!problem.isEmpty())
            qFatal("test fabric: %s", qPrintable(problem));
    };
    for (const QStringList &leaf : leaves)
        for (const QString &h : leaf)
            if (!hostOrder.contains(h))
                hostOrder << h;
    Lid nextLid = 1;
    std::vector<NodeIndex> rootNodes, leafNodes;
    for (int r = 0; r < roots; ++r) {
        FabricBuilder::NodeSpec spec;
        spec.type = NodeType::Switch;
        spec.guid = 0x0002c90000000040ULL + Guid(rootsAscending ? r : roots - r);
        spec.portCount = int(leaves.size());
        spec.name = QStringLiteral("R%1").arg(r + 1);
        spec.description = spec.name;
        NodeIndex n;
        check(b.addNode(spec, &n));
        check(b.setPortLid(n, 0, nextLid++, 0));
        rootNodes.push_back(n);
        t.node[spec.name] = n;
    }
    for (std::size_t l = 0; l < leaves.size(); ++l) {
        FabricBuilder::NodeSpec spec;
        spec.type = NodeType::Switch;
        spec.guid = 0x0002c90000000010ULL + Guid(l);
        spec.portCount = int(leaves[l].size()) + roots;
        spec.name = QStringLiteral("L%1").arg(l + 1);
        spec.description = spec.name;
        NodeIndex n;
        check(b.addNode(spec, &n));
        check(b.setPortLid(n, 0, nextLid++, 0));
        leafNodes.push_back(n);
        t.node[spec.name] = n;
        for (int r = 0; r < roots; ++r)
            check(b.connect(n, int(leaves[l].size()) + 1 + r, rootNodes[std::size_t(r)], int(l) + 1));
    }
    const Lid firstHostLid = nextLid;
    for (std::size_t l = 0; l < leaves.size(); ++l) {
        for (int p = 0; p < leaves[l].size(); ++p) {
            const QString &h = leaves[l][p];
            const int order = int(hostOrder.indexOf(h));
            FabricBuilder::NodeSpec spec;
            spec.type = NodeType::ChannelAdapter;
            spec.guid = 0x0002c91000000000ULL + 0x100ULL * Guid(order + 1);
            spec.portCount = 1;
            spec.name = h;
            spec.description = h;
            NodeIndex n;
            check(b.addNode(spec, &n));
            const Lid lid = Lid(firstHostLid + order);
            check(b.setPortLid(n, 1, lid, 0));
            check(b.connect(n, 1, leafNodes[l], p + 1));
            t.node[h] = n;
            t.portGuid[h] = spec.guid + 1;
            t.lid[h] = lid;
            t.leafOf[h] = QStringLiteral("L%1").arg(l + 1);
            t.hosts << h;
        }
    }
    Result<Fabric> built = std::move(b).build();
    if (!built)
        qFatal("test fabric: %s", qPrintable(built.error().toString()));
    t.fabric = std::move(built).value();
    return t;
}

struct PartitionSpec
{
    QString name;
    std::uint16_t pkey;
    IsolationPolicy policy;
    QStringList members;  // "A" full, "A:limited" limited
};

Tenancy makeTenancy(const Tree &t, const std::vector<PartitionSpec> &parts, PolicyMode mode = PolicyMode::BestEffort,
                    const std::map<QString, double> &weights = {})
{
    Tenancy tenancy;
    tenancy.mode = mode;
    for (const PartitionSpec &ps : parts) {
        Partition p;
        p.name = ps.name;
        p.pkey = ps.pkey;
        p.policy = ps.policy;
        p.defaultMembership = Membership::Full;
        for (const QString &m : ps.members) {
            PartitionMember member;
            const QStringList bits = m.split(QLatin1Char(':'));
            member.guid = t.portGuid.at(bits.front());
            member.membership = bits.size() > 1 ? Membership::Limited : Membership::Full;
            member.explicitMembership = true;
            p.members.push_back(member);
        }
        tenancy.partitions.push_back(p);
    }
    for (const auto &[host, w] : weights)
        tenancy.nodeWeights[t.portGuid.at(host)] = w;
    return tenancy;
}

// ---- measuring a routing -------------------------------------------------------------------

using DirectedLink = std::pair<NodeIndex, NodeIndex>;

// The switch-to-switch hops of the walk from `from`'s leaf to `to`, or fails the test.
std::vector<DirectedLink> walk(const Fabric &fabric, const ForwardingTables &tables, NodeIndex fromHost, NodeIndex toHost,
                               bool *ok)
{
    *ok = false;
    const Lid lid = fabric.nodeLid(toHost);
    const PortIndex hostPort = fabric.portOf(fromHost, 1);
    NodeIndex at = fabric.port(fabric.port(hostPort).remote).node;
    std::vector<DirectedLink> links;
    for (std::size_t step = 0; step <= fabric.switches().size(); ++step) {
        const SwitchForwardingTable *sw = tables.find(fabric.node(at).guid);
        if (!sw)
            return links;
        const std::uint8_t out = sw->lft.port(lid);
        if (out == kNoRoute || out == 0)
            return links;
        const PortIndex p = fabric.portOf(at, out);
        if (p == kNoIndex || fabric.port(p).remote == kNoIndex)
            return links;
        const NodeIndex next = fabric.port(fabric.port(p).remote).node;
        if (fabric.node(next).type != NodeType::Switch) {
            *ok = next == toHost;
            return links;
        }
        links.push_back({at, next});
        at = next;
    }
    return links;  // a loop
}

struct Sharing
{
    int sharedLinks = 0;
    int interference = 0;                                // I of spec §4.4
    std::map<DirectedLink, std::set<std::uint16_t>> partitionsOn;
    std::map<DirectedLink, std::set<NodeIndex>> destinationsOn;  // effective load (§4.1)
};

Sharing measureSharing(const Fabric &fabric, const ForwardingTables &tables, const Tenancy &tenancy)
{
    Sharing s;
    std::map<DirectedLink, std::map<std::uint16_t, int>> flows;
    for (const Partition &p : tenancy.partitions) {
        std::vector<std::pair<NodeIndex, bool>> members;
        for (const PartitionMember &m : p.members)
            members.push_back({fabric.port(fabric.portByGuid(m.guid)).node, m.membership != Membership::Limited});
        for (const auto &[src, srcFull] : members) {
            for (const auto &[dst, dstFull] : members) {
                if (src == dst || (!srcFull && !dstFull))
                    continue;
                bool ok = false;
                const std::vector<DirectedLink> links = walk(fabric, tables, src, dst, &ok);
                if (!ok)
                    qFatal("no route between partition members");
                for (const DirectedLink &l : links) {
                    s.partitionsOn[l].insert(*p.pkey);
                    s.destinationsOn[l].insert(dst);
                    ++flows[l][*p.pkey];
                }
            }
        }
    }
    for (const auto &[link, parts] : s.partitionsOn) {
        if (parts.size() < 2)
            continue;
        ++s.sharedLinks;
        for (const auto &[pkey, count] : flows[link])
            s.interference += count;
    }
    return s;
}

// The root that every other leaf sends `host`'s LID to (spec §3.2.4 "via"); empty if the
// leaves disagree.
QString via(const Tree &t, const ForwardingTables &tables, const QString &host)
{
    QString root;
    for (const auto &[name, node] : t.node) {
        if (!name.startsWith(QLatin1Char('L')) || name == t.leafOf.at(host))
            continue;
        const std::uint8_t out = tables.find(t.fabric.node(node).guid)->lft.port(t.lid.at(host));
        const PortIndex p = t.fabric.portOf(node, out);
        if (p == kNoIndex || t.fabric.port(p).remote == kNoIndex)
            return QStringLiteral("(none)");
        const QString next = t.fabric.node(t.fabric.port(t.fabric.port(p).remote).node).name;
        if (!root.isEmpty() && root != next)
            return QStringLiteral("(disagree)");
        root = next;
    }
    return root;
}

Result<Routing> runEngine(PartitionAwareFatTreeEngine::Algorithm algorithm, const Fabric &fabric, const Tenancy &tenancy,
                          PartitionAwareOptions options = {}, PartitionRoutingReport *report = nullptr)
{
    PartitionAwareFatTreeEngine engine(algorithm, options);
    if (Status s = engine.prepare(fabric, tenancy, {}); !s)
        return s.error();
    Result<Routing> r = engine.route({});
    if (r && report)
        *report = engine.lastReport();
    return r;
}

using Algo = PartitionAwareFatTreeEngine::Algorithm;
constexpr IsolationPolicy kDef = IsolationPolicy::Default;
constexpr IsolationPolicy kVlane = IsolationPolicy::VirtualLane;
constexpr IsolationPolicy kPhy = IsolationPolicy::Physical;

// ---- the golden cases of spec 000 §7 -----------------------------------------------------

struct GoldenCase
{
    const char *id;
    int roots;
    std::vector<QStringList> leaves;
    std::vector<PartitionSpec> partitions;
    Algo algorithm;
    PolicyMode mode;
    int maxVirtualLanes;
    std::map<QString, double> weights;
    std::map<QString, QString> via;       // host -> root, from the spec
    bool routes;                          // false: strict refusal expected
    int sharedLinks;                      // -1: not stated
    int interference;                     // -1: not stated
    std::map<std::uint16_t, int> vls;     // stated VLs
    QStringList messageMentions;          // in the error (refusal) or in some warning
};

const QStringList kT5L1{QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("C")};
const QStringList kT5L2{QStringLiteral("D"), QStringLiteral("E"), QStringLiteral("F")};
const QStringList kT5L3{QStringLiteral("G"), QStringLiteral("H"), QStringLiteral("I")};

QStringList names(const char *list)
{
    return QString::fromLatin1(list).split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

std::vector<PartitionSpec> t5Partitions(IsolationPolicy p1, IsolationPolicy p2, IsolationPolicy p3)
{
    return {{QStringLiteral("P1"), 1, p1, names("A E")},
            {QStringLiteral("P2"), 2, p2, names("B F I")},
            {QStringLiteral("P3"), 3, p3, names("C D G H")}};
}

std::map<QString, QString> vias(const char *spec)
{
    // "A:R1 B:R2 ..."
    std::map<QString, QString> out;
    for (const QString &item : names(spec)) {
        const QStringList kv = item.split(QLatin1Char(':'));
        out[kv[0]] = kv[1];
    }
    return out;
}

std::vector<GoldenCase> allGoldenCases()
{
    const std::vector<QStringList> t3Leaves{names("a b c d"), names("e f g h")};
    const std::vector<PartitionSpec> t3Parts{{QStringLiteral("P1"), 1, kDef, names("a d g h")},
                                             {QStringLiteral("P2"), 2, kDef, names("b c e f")}};
    const std::vector<QStringList> t5Leaves{kT5L1, kT5L2, kT5L3};
    const std::vector<QStringList> t8Leaves{names("X1 Y1 Z1"), names("X2 Y2 Z2")};
    const std::vector<PartitionSpec> t8Parts{{QStringLiteral("X"), 1, kPhy, names("X1 X2")},
                                             {QStringLiteral("Y"), 2, kPhy, names("Y1 Y2")},
                                             {QStringLiteral("Z"), 3, kPhy, names("Z1 Z2")}};
    const auto be = PolicyMode::BestEffort;
    const auto strict = PolicyMode::Strict;
    return {
        {"T1 pFTree", 2, {names("A B C D"), names("E F G H")},
         {{QStringLiteral("P1"), 1, kDef, names("A B E F")}, {QStringLiteral("P2"), 2, kDef, names("C D G H")}},
         Algo::Base, be, 8, {}, vias("A:R1 B:R1 E:R1 F:R1 C:R2 D:R2 G:R2 H:R2"), true, 0, 0, {{1, 0}, {2, 0}}, {}},
        {"T3 pFTree", 2, t3Leaves, t3Parts, Algo::Base, be, 8, {},
         vias("a:R1 d:R1 g:R1 h:R1 b:R2 c:R2 e:R2 f:R2"), true, 0, 0, {{1, 0}, {2, 0}}, {}},
        {"T3 pFTree-Ext, all def", 2, t3Leaves, t3Parts, Algo::Extended, strict, 8, {},
         vias("a:R1 d:R1 g:R1 h:R1 b:R2 c:R2 e:R2 f:R2"), true, 0, 0, {{1, 0}, {2, 0}}, {}},
        {"T4 pFTree-Wt", 2, t3Leaves, t3Parts, Algo::Weighted, be, 8, {{QStringLiteral("a"), 100.0}},
         vias("a:R1 b:R2 d:R2 c:R2 e:R2 f:R2 g:R1 h:R1"), true, 2, 12, {{1, 1}, {2, 0}}, {}},
        {"T5 pFTree", 2, t5Leaves, t5Partitions(kDef, kDef, kDef), Algo::Base, be, 8, {},
         vias("A:R1 B:R2 C:R1 D:R1 E:R2 F:R2 G:R1 I:R2 H:R1"), true, 4, 14, {{1, 1}, {2, 0}, {3, 0}}, {}},
        {"T6 pFTree-Ext, best-effort", 2, t5Leaves, t5Partitions(kPhy, kDef, kDef), Algo::Extended, be, 8, {},
         vias("A:R1 B:R2 C:R2 E:R1 D:R2 F:R2 G:R2 I:R2 H:R2"), true, 6, 32, {{1, 0}, {2, 0}, {3, 0}}, {}},
        {"T6 pFTree-Ext, strict", 2, t5Leaves, t5Partitions(kPhy, kDef, kDef), Algo::Extended, strict, 8, {},
         vias("A:R1 B:R2 C:R2 E:R1 D:R2 F:R2 G:R2 I:R2 H:R2"), true, 6, 32, {{1, 0}, {2, 0}, {3, 0}}, {}},
        {"T7 pFTree-Ext", 2, t5Leaves, t5Partitions(kVlane, kVlane, kDef), Algo::Extended, strict, 8, {},
         vias("A:R1 B:R2 C:R1 E:R1 F:R2 D:R1 I:R2 G:R1 H:R1"), true, 4, -1, {{1, 1}, {2, 0}, {3, 0}},
         {QStringLiteral("stricter partition")}},
        {"T7 one VL, best-effort", 2, t5Leaves, t5Partitions(kVlane, kVlane, kDef), Algo::Extended, be, 1, {},
         vias("A:R1 B:R2 C:R1 E:R1 F:R2 D:R1 I:R2 G:R1 H:R1"), true, 4, -1, {{1, 0}, {2, 0}, {3, 0}},
         {QStringLiteral("\"P1\" (0x0001) (vlane-isolation: shared on the same VL) meets \"P3\" (0x0003)")}},
        {"T7 one VL, strict", 2, t5Leaves, t5Partitions(kVlane, kVlane, kDef), Algo::Extended, strict, 1, {}, {}, false,
         -1, -1, {}, {QStringLiteral("\"P1\""), QStringLiteral("\"P3\""), QStringLiteral("only one data VL")}},
        {"T8 best-effort", 2, t8Leaves, t8Parts, Algo::Extended, be, 8, {},
         vias("X1:R1 Z1:R1 X2:R1 Z2:R1 Y1:R2 Y2:R2"), true, 4, -1, {},
         {QStringLiteral("\"X\" (0x0001) (phy-isolation: the link is shared) meets \"Z\" (0x0003) on link L1 port 4 -> R1 port 1")}},
        {"T8 strict", 2, t8Leaves, t8Parts, Algo::Extended, strict, 8, {}, {}, false, -1, -1, {},
         {QStringLiteral("\"X\" (0x0001)"), QStringLiteral("\"Z\" (0x0003)"), QStringLiteral("R1 port")}},
    };
}

// ---- generated fat-trees -----------------------------------------------------------------

struct Shape
{
    const char *name;
    FabricShapeKind kind;
    int size;
    int levels;
    int removeLinks;
};

const std::vector<Shape> &shapes()
{
    static const std::vector<Shape> all{
        {"2-ary 2-tree (radix 4)", FabricShapeKind::KaryNTree, 2, 2, 0},
        {"4-ary 2-tree (radix 8)", FabricShapeKind::KaryNTree, 4, 2, 0},
        {"8-ary 2-tree (radix 16)", FabricShapeKind::KaryNTree, 8, 2, 0},
        {"radix 12, 2 levels", FabricShapeKind::SwitchRadix, 12, 2, 0},
        {"2-ary 3-tree (radix 4)", FabricShapeKind::KaryNTree, 2, 3, 0},
        {"4-ary 3-tree (radix 8)", FabricShapeKind::KaryNTree, 4, 3, 0},
        {"radix 8, 3 levels", FabricShapeKind::SwitchRadix, 8, 3, 0},
        {"degraded 4-ary 2-tree", FabricShapeKind::KaryNTree, 4, 2, 3},
        {"degraded 4-ary 3-tree", FabricShapeKind::KaryNTree, 4, 3, 6},
    };
    return all;
}

GeneratedFabric generate(const Shape &shape)
{
    return test::generate({shape.kind, shape.size, shape.levels, shape.removeLinks}, 7);
}

// `count` partitions over the hosts, host h in partition (h + h / hostsPerLeaf) % count so that
// each leaf holds several partitions at shifting positions; one limited member in each.
Tenancy spreadPartitions(const GeneratedFabric &g, int count, const std::vector<IsolationPolicy> &policies, PolicyMode mode,
                         int hostsPerLeaf)
{
    Tenancy tenancy;
    tenancy.mode = mode;
    for (int k = 0; k < count; ++k) {
        Partition p;
        p.name = QStringLiteral("tenant%1").arg(k + 1);
        p.pkey = std::uint16_t(0x10 + k);
        p.policy = policies[std::size_t(k) % policies.size()];
        tenancy.partitions.push_back(p);
    }
    for (std::size_t h = 0; h < g.hosts.size(); ++h) {
        const int k = int((h + h / std::size_t(hostsPerLeaf)) % std::size_t(count));
        PartitionMember m;
        m.guid = g.fabric.port(g.fabric.portOf(g.hosts[h], 1)).guid;
        m.membership = h == std::size_t(k) ? Membership::Limited : Membership::Full;
        tenancy.partitions[std::size_t(k)].members.push_back(m);
    }
    Partition all;
    all.name = QStringLiteral("Default");
    all.pkey = kDefaultPKey;
    PartitionMember everyone;
    everyone.kind = PartitionMember::Kind::All;
    everyone.membership = Membership::Full;
    all.members.push_back(everyone);
    tenancy.partitions.push_back(all);
    return tenancy;
}

}  // namespace

class TestRoutingPftree : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void orderComputeNodes_data();
    void orderComputeNodes();
    void goldenCases_data();
    void goldenCases();
    void t13_metricCalculators_data();
    void t13_metricCalculators();
    void t13_ebbOfT3PartitionP1();
    void ftreeNoLidRefusalNamesTheNode();
    void singleLeafPartitions();
    void orderingVariantRouting_data();
    void orderingVariantRouting();
    void reorderAfterSmallLeaf();
    void phyExcludesPhy();
    void weightedContention();
    void weightedFatTree();
    void weightedFatTreeCablingInvariance();
    void routingPKeyRule();
    void invariants_data();
    void invariants();
    void physicalIsolationAgainstFtree_data();
    void physicalIsolationAgainstFtree();
    void refusals();
    void cancel();
};

// T9 (a)-(d): ORDERCOMPUTENODES on one leaf.
void TestRoutingPftree::orderComputeNodes_data()
{
    QTest::addColumn<QString>("nodes");    // "name:partition ...", already policy-sorted
    QTest::addColumn<int>("upLinks");
    QTest::addColumn<int>("variant");
    QTest::addColumn<QString>("expected");
    const int first = int(OrderingVariant::FirstIndex);
    const int chained = int(OrderingVariant::Chained);
    QTest::addRow("T9a leaf 1") << "a:1 b:2 c:2 d:1" << 2 << first << "a b d c";
    QTest::addRow("T9a leaf 2") << "e:2 f:2 g:1 h:1" << 2 << first << "e g f h";
    QTest::addRow("T9b chained") << "x1:1 x2:1 x3:1 y1:2 y2:2 y3:2" << 2 << chained << "x1 y1 x2 y2 x3 y3";
    QTest::addRow("T9b first_index") << "x1:1 x2:1 x3:1 y1:2 y2:2 y3:2" << 2 << first << "x1 x3 x2 y1 y3 y2";
    QTest::addRow("T9c chained") << "p:1 q:2 r:1 s:3 t:2 u:1 v:3" << 3 << chained << "p q s r t v u";
    QTest::addRow("T9c first_index") << "p:1 q:2 r:1 s:3 t:2 u:1 v:3" << 3 << first << "p q s r t u v";
    // (d): P3 phy, P2 vlane; the policy sort (phy, vlane, def, stable) gives s v q t p r u.
    QTest::addRow("T9d chained") << "s:3 v:3 q:2 t:2 p:1 r:1 u:1" << 3 << chained << "s q p v t r u";
    QTest::addRow("T9d first_index") << "s:3 v:3 q:2 t:2 p:1 r:1 u:1" << 3 << first << "s q p v t r u";
    QTest::addRow("no more nodes than up-links") << "a:1 b:2 c:1" << 3 << first << "a b c";
}

void TestRoutingPftree::orderComputeNodes()
{
    QFETCH(QString, nodes);
    QFETCH(int, upLinks);
    QFETCH(int, variant);
    QFETCH(QString, expected);
    QStringList labels;
    std::vector<int> keys;
    for (const QString &item : nodes.split(QLatin1Char(' '))) {
        labels << item.section(QLatin1Char(':'), 0, 0);
        keys.push_back(item.section(QLatin1Char(':'), 1, 1).toInt());
    }
    QStringList got;
    for (int i : routing::orderComputeNodes(keys, upLinks, OrderingVariant(variant)))
        got << labels[i];
    QCOMPARE(got.join(QLatin1Char(' ')), expected);
}

void TestRoutingPftree::goldenCases_data()
{
    QTest::addColumn<int>("index");
    const std::vector<GoldenCase> cases = allGoldenCases();
    for (std::size_t i = 0; i < cases.size(); ++i)
        QTest::addRow("%s", cases[i].id) << int(i);
}

void TestRoutingPftree::goldenCases()
{
    QFETCH(int, index);
    const GoldenCase c = allGoldenCases()[std::size_t(index)];
    const Tree t = buildTree(c.roots, c.leaves);
    FatTreeEngine ftree;
    QVERIFY(ftree.prepare(t.fabric, {}, {}));
    const std::vector<Guid> leafOrder = ftree.leafOrder();
    for (std::size_t i = 0; i < leafOrder.size(); ++i)  // the spec's leaf order holds
        QCOMPARE(t.fabric.node(t.fabric.nodeByGuid(leafOrder[i])).name, QStringLiteral("L%1").arg(i + 1));

    const Tenancy tenancy = makeTenancy(t, c.partitions, c.mode, c.weights);
    PartitionAwareOptions options;
    options.maxVirtualLanes = c.maxVirtualLanes;
    PartitionRoutingReport report;
    Result<Routing> routed = runEngine(c.algorithm, t.fabric, tenancy, options, &report);
    if (!c.routes) {
        QVERIFY2(!routed, "strict mode must refuse");
        for (const QString &mention : c.messageMentions)
            QVERIFY2(routed.error().message.contains(mention), qPrintable(routed.error().message));
        return;
    }
    QVERIFY2(routed, routed ? "" : qPrintable(routed.error().message));
    for (const auto &[host, root] : c.via)
        QCOMPARE(via(t, routed->tables, host), root);
    const Sharing sharing = measureSharing(t.fabric, routed->tables, tenancy);
    if (c.sharedLinks >= 0) {
        QCOMPARE(sharing.sharedLinks, c.sharedLinks);
        QCOMPARE(report.sharedLinks, c.sharedLinks);
    }
    if (c.interference >= 0)
        QCOMPARE(sharing.interference, c.interference);
    for (const auto &[pkey, vl] : c.vls) {
        QVERIFY(routed->serviceLevels.count(pkey));
        QCOMPARE(routed->serviceLevels.at(pkey), vl);
    }
    for (const QString &mention : c.messageMentions) {
        bool found = false;
        for (const QString &w : routed->warnings)
            found |= w.contains(mention);
        QVERIFY2(found, qPrintable(QStringLiteral("no warning mentions %1; warnings: %2").arg(mention, routed->warnings.join(QLatin1Char('\n')))));
    }
    // Every pair is routed, whether or not it shares a partition (management traffic).
    for (const QString &a : t.hosts)
        for (const QString &b : t.hosts) {
            bool ok = false;
            walk(t.fabric, routed->tables, t.node.at(a), t.node.at(b), &ok);
            QVERIFY2(a == b || ok, qPrintable(a + QStringLiteral(" -> ") + b));
        }
}

// T13: the application's metric calculator (computeMetrics), not this file's own count, gives
// the shared-link counts and the interference I of T3–T7 as the spec states them.
void TestRoutingPftree::t13_metricCalculators_data()
{
    QTest::addColumn<int>("index");
    const std::vector<GoldenCase> cases = allGoldenCases();
    int rows = 0;
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const QString id = QLatin1String(cases[i].id);
        if (cases[i].routes && cases[i].sharedLinks >= 0 && id.size() > 1 && id[0] == QLatin1Char('T')
            && id[1] >= QLatin1Char('3') && id[1] <= QLatin1Char('7')) {
            QTest::addRow("%s", cases[i].id) << int(i);
            ++rows;
        }
    }
    if (rows != 8)
        qFatal("T13 expects the 8 routed golden cases of T3-T7, found %d", rows);
}

void TestRoutingPftree::t13_metricCalculators()
{
    QFETCH(int, index);
    const GoldenCase c = allGoldenCases()[std::size_t(index)];
    const Tree t = buildTree(c.roots, c.leaves);
    const Tenancy tenancy = makeTenancy(t, c.partitions, c.mode, c.weights);
    PartitionAwareOptions options;
    options.maxVirtualLanes = c.maxVirtualLanes;
    Result<Routing> routed = runEngine(c.algorithm, t.fabric, tenancy, options);
    QVERIFY2(routed, routed ? "" : qPrintable(routed.error().message));
    const Metrics m = computeMetrics(t.fabric, tenancy, routed->tables);
    QCOMPARE(m.undeliveredFlows, std::uint64_t(0));
    QCOMPARE(m.sharedLinks, std::size_t(c.sharedLinks));
    QCOMPARE(m.sharedLinksUp + m.sharedLinksDown, m.sharedLinks);
    if (c.interference >= 0)
        QCOMPARE(m.interference, std::uint64_t(c.interference));
    // Per partition: a partition shares a link only where another one crosses it too.
    std::size_t sharedByPartitions = 0;
    for (const PartitionSharing &p : m.partitions) {
        QVERIFY(p.sharedLinks <= p.linksUsed);
        sharedByPartitions += p.sharedLinks;
    }
    QVERIFY(sharedByPartitions >= 2 * m.sharedLinks);
}

// T13's eBB: T3 routed by base pFTree sends every P1 member (a, d on L1; g, h on L2) through
// R1, so P1 alone is TC-2 with k = 2: one channel each way between its two halves. Exhaustive
// over all 4! patterns: Λ_uni = 5/6, Λ_bidir = 2/3 (derivation in spec 002 §8.2).
void TestRoutingPftree::t13_ebbOfT3PartitionP1()
{
    const Tree t = buildTree(2, {names("a b c d"), names("e f g h")});
    const Tenancy tenancy = makeTenancy(t, {{QStringLiteral("P1"), 1, kDef, names("a d g h")},
                                            {QStringLiteral("P2"), 2, kDef, names("b c e f")}});
    Result<Routing> routed = runEngine(Algo::Base, t.fabric, tenancy);
    QVERIFY2(routed, routed ? "" : qPrintable(routed.error().message));
    Result<std::vector<Guid>> members = groupMembers(t.fabric, tenancy, QStringLiteral("P1"));
    QVERIFY2(members, members ? "" : qPrintable(members.error().message));
    EbbModel model;
    model.participants = *members;
    model.linkRates = false;
    Result<EffectiveBisection> ebb = EffectiveBisection::prepare(t.fabric, routed->tables, tenancy, model);
    QVERIFY2(ebb, ebb ? "" : qPrintable(ebb.error().message));
    QCOMPARE(ebb->participantCount(), 4);
    for (const auto &[variant, expected] : {std::pair{BisectionVariant::OneWay, 5.0 / 6}, std::pair{BisectionVariant::TwoWay, 2.0 / 3}}) {
        std::vector<int> order{0, 1, 2, 3};
        double sum = 0;
        int count = 0;
        do {
            sum += ebb->patternBandwidth(order, variant);
            ++count;
        } while (std::next_permutation(order.begin(), order.end()));
        QCOMPARE(count, 24);
        QCOMPARE_LE(std::abs(sum / count - expected), 1e-12);
    }
}

// Issue 16: ftree's refusal of a switch without a LID names the node by description and GUID
// and, for a fabric read from a topology file, as that topology's node. An ibsim net file
// carries no LIDs (OpenSM assigns them); a generated fabric without LIDs is named the same way.
void TestRoutingPftree::ftreeNoLidRefusalNamesTheNode()
{
    const QString path = QFINDTESTDATA("data/topology/ibsim-2sw2path4hca.net");
    const Result<Fabric> fromFile = readTopologyFile(path);
    QVERIFY2(fromFile, fromFile ? "" : qPrintable(fromFile.error().toString()));
    const Result<Routing> refused = routeFabric(QStringLiteral("ftree"), *fromFile, {});
    QVERIFY(!refused);
    NodeIndex first = kNoIndex;  // the switch the refusal is about: the first one without a LID
    for (NodeIndex n : fromFile->switches())
        if (first == kNoIndex && fromFile->nodeLid(n) == 0)
            first = n;
    QVERIFY(first != kNoIndex);
    const Node &sw = fromFile->node(first);
    QCOMPARE(refused.error().message,
             QStringLiteral("switch %1 (%2, the topology's node \"%3\") has no LID; assign LIDs before routing")
                 .arg(guidText(sw.guid), sw.description, sw.name));

    GeneratorOptions options;
    options.arity = 2;
    options.levels = 2;
    options.assignLids = false;
    const Result<GeneratedFabric> generated = generateFabric(options);
    QVERIFY(generated);
    const Result<Routing> noLids = routeFabric(QStringLiteral("ftree"), generated->fabric, {});
    QVERIFY(!noLids);
    const Node &g = generated->fabric.node(generated->fabric.switches().front());
    QVERIFY2(noLids.error().message.contains(guidText(g.guid)) && noLids.error().message.contains(QLatin1Char('"') + g.name + QLatin1Char('"'))
                 && noLids.error().message.contains(QStringLiteral("has no LID")),
             qPrintable(noLids.error().message));
}

// T2: the single-leaf filter. Routes to B and E exist but do not count, so the partitions that
// cross leaves spread over both up-links.
void TestRoutingPftree::singleLeafPartitions()
{
    const Tree t = buildTree(2, {names("A B C"), names("D E F")});
    const Tenancy tenancy = makeTenancy(t, {{QStringLiteral("P1"), 1, kDef, names("B C")},
                                            {QStringLiteral("P2"), 2, kDef, names("A C D F")},
                                            {QStringLiteral("P3"), 3, kDef, names("D E")}});
    Result<Routing> ftree = routeFabric(QStringLiteral("ftree"), t.fabric, tenancy);
    QVERIFY(ftree);
    QCOMPARE(via(t, ftree->tables, QStringLiteral("A")), QStringLiteral("R1"));
    QCOMPARE(via(t, ftree->tables, QStringLiteral("C")), QStringLiteral("R1"));
    QCOMPARE(via(t, ftree->tables, QStringLiteral("B")), QStringLiteral("R2"));
    QCOMPARE(via(t, ftree->tables, QStringLiteral("D")), QStringLiteral("R1"));
    QCOMPARE(via(t, ftree->tables, QStringLiteral("F")), QStringLiteral("R1"));
    QCOMPARE(via(t, ftree->tables, QStringLiteral("E")), QStringLiteral("R2"));
    const Sharing ftreeLoad = measureSharing(t.fabric, ftree->tables, tenancy);
    const DirectedLink p{t.node.at(QStringLiteral("R1")), t.node.at(QStringLiteral("L1"))};
    const DirectedLink q{t.node.at(QStringLiteral("R2")), t.node.at(QStringLiteral("L1"))};
    QCOMPARE(int(ftreeLoad.destinationsOn.count(p) ? ftreeLoad.destinationsOn.at(p).size() : 0), 2);
    QCOMPARE(int(ftreeLoad.destinationsOn.count(q) ? ftreeLoad.destinationsOn.at(q).size() : 0), 0);

    PartitionRoutingReport report;
    Result<Routing> pftree = runEngine(Algo::Base, t.fabric, tenancy, {}, &report);
    QVERIFY(pftree);
    QCOMPARE(report.routingPKey.at(t.portGuid.at(QStringLiteral("C"))), std::uint16_t(2));
    QCOMPARE(report.routingPKey.at(t.portGuid.at(QStringLiteral("D"))), std::uint16_t(2));
    QCOMPARE(report.routingPKey.at(t.portGuid.at(QStringLiteral("B"))), std::uint16_t(1));
    QCOMPARE(report.routingPKey.at(t.portGuid.at(QStringLiteral("E"))), std::uint16_t(3));
    QVERIFY(via(t, pftree->tables, QStringLiteral("A")) != via(t, pftree->tables, QStringLiteral("C")));
    QVERIFY(via(t, pftree->tables, QStringLiteral("D")) != via(t, pftree->tables, QStringLiteral("F")));
    const Sharing load = measureSharing(t.fabric, pftree->tables, tenancy);
    for (const char *root : {"R1", "R2"})
        for (const char *leaf : {"L1", "L2"}) {
            const DirectedLink l{t.node.at(QString::fromLatin1(root)), t.node.at(QString::fromLatin1(leaf))};
            QVERIFY(load.destinationsOn.count(l));
            QCOMPARE(int(load.destinationsOn.at(l).size()), 1);
        }
}

// T9 (b) routed: chained keeps the partitions apart, first_index mixes them on both roots.
void TestRoutingPftree::orderingVariantRouting_data()
{
    QTest::addColumn<int>("variant");
    QTest::addColumn<bool>("isolated");
    QTest::addRow("chained") << int(OrderingVariant::Chained) << true;
    QTest::addRow("first_index") << int(OrderingVariant::FirstIndex) << false;
}

void TestRoutingPftree::orderingVariantRouting()
{
    QFETCH(int, variant);
    QFETCH(bool, isolated);
    const Tree t = buildTree(2, {names("x1 x2 x3 y1 y2 y3"), names("x4 x5 x6 y4 y5 y6")});
    const Tenancy tenancy = makeTenancy(t, {{QStringLiteral("P1"), 1, kDef, names("x1 x2 x3 x4 x5 x6")},
                                            {QStringLiteral("P2"), 2, kDef, names("y1 y2 y3 y4 y5 y6")}});
    PartitionAwareOptions options;
    options.ordering = OrderingVariant(variant);
    Result<Routing> routed = runEngine(Algo::Base, t.fabric, tenancy, options);
    QVERIFY(routed);
    const Sharing sharing = measureSharing(t.fabric, routed->tables, tenancy);
    QCOMPARE(sharing.sharedLinks == 0, isolated);
    if (!isolated) {
        std::set<QString> p1Roots, p2Roots;
        for (const char *x : {"x1", "x2", "x3"})
            p1Roots.insert(via(t, routed->tables, QString::fromLatin1(x)));
        for (const char *y : {"y1", "y2", "y3"})
            p2Roots.insert(via(t, routed->tables, QString::fromLatin1(y)));
        QCOMPARE(int(p1Roots.size()), 2);
        QCOMPARE(int(p2Roots.size()), 2);
    }
}

// T9 (e): a leaf with no more nodes than up-links must not stop the ordering of later leaves
// (erratum 1). Without the reordering, f would take R1, the less loaded root.
void TestRoutingPftree::reorderAfterSmallLeaf()
{
    const Tree t = buildTree(2, {names("a b"), names("e f g h")});
    const Tenancy tenancy = makeTenancy(t, {{QStringLiteral("P1"), 1, kDef, names("a g h")},
                                            {QStringLiteral("P2"), 2, kDef, names("b e f")}});
    Result<Routing> routed = runEngine(Algo::Base, t.fabric, tenancy);
    QVERIFY(routed);
    QCOMPARE(via(t, routed->tables, QStringLiteral("e")), via(t, routed->tables, QStringLiteral("f")));
    QCOMPARE(via(t, routed->tables, QStringLiteral("g")), via(t, routed->tables, QStringLiteral("h")));
    QVERIFY(via(t, routed->tables, QStringLiteral("e")) != via(t, routed->tables, QStringLiteral("g")));
}

// T8 with phy_excludes_phy: a forced conflict is recorded; validation fails either way.
void TestRoutingPftree::phyExcludesPhy()
{
    const Tree t = buildTree(2, {names("X1 Y1 Z1"), names("X2 Y2 Z2")});
    const std::vector<PartitionSpec> parts{{QStringLiteral("X"), 1, kPhy, names("X1 X2")},
                                           {QStringLiteral("Y"), 2, kPhy, names("Y1 Y2")},
                                           {QStringLiteral("Z"), 3, kPhy, names("Z1 Z2")}};
    for (bool on : {false, true}) {
        PartitionAwareOptions options;
        options.phyExcludesPhy = on;
        PartitionRoutingReport report;
        Result<Routing> routed = runEngine(Algo::Extended, t.fabric, makeTenancy(t, parts), options, &report);
        QVERIFY(routed);
        QVERIFY(!report.violations.empty());
        QCOMPARE(report.selectionConflicts > 0, on);
        QVERIFY(!runEngine(Algo::Extended, t.fabric, makeTenancy(t, parts, PolicyMode::Strict), options));
    }
}

// T10: weights move the second heavy receiver off the heavy one's root.
void TestRoutingPftree::weightedContention()
{
    const Tree t = buildTree(2, {names("a b c d"), names("e f g h")});
    const std::vector<PartitionSpec> parts{{QStringLiteral("P1"), 1, kDef, names("a d g h")},
                                           {QStringLiteral("P2"), 2, kDef, names("b c e f")}};
    const std::map<QString, double> weights{{QStringLiteral("a"), 100.0}, {QStringLiteral("d"), 100.0}};
    Result<Routing> base = runEngine(Algo::Base, t.fabric, makeTenancy(t, parts, PolicyMode::BestEffort, weights));
    QVERIFY(base);
    QCOMPARE(via(t, base->tables, QStringLiteral("a")), QStringLiteral("R1"));
    QCOMPARE(via(t, base->tables, QStringLiteral("d")), QStringLiteral("R1"));
    QCOMPARE(measureSharing(t.fabric, base->tables, makeTenancy(t, parts)).interference, 0);

    Result<Routing> wt = runEngine(Algo::Weighted, t.fabric, makeTenancy(t, parts, PolicyMode::BestEffort, weights));
    QVERIFY(wt);
    const std::map<QString, QString> expected = vias("a:R1 b:R2 d:R2 c:R1 e:R1 f:R1 g:R2 h:R2");
    for (const auto &[host, root] : expected)
        QCOMPARE(via(t, wt->tables, host), root);
    QCOMPARE(measureSharing(t.fabric, wt->tables, makeTenancy(t, parts)).interference, 16);
}

// Spec 003 §9 T-WFT-1 and T-WFT-3.
void TestRoutingPftree::weightedFatTree()
{
    const Tree t = buildTree(2, {names("n1 n2 n3 n4"), names("n5 n6 n7 n8")}, true);
    auto maxDownIntoL1 = [&t](const Routing &r, const std::map<QString, double> &w) {
        std::map<QString, double> load;
        for (const char *n : {"n1", "n2", "n3", "n4"}) {
            const QString host = QString::fromLatin1(n);
            load[via(t, r.tables, host)] += w.count(host) ? w.at(host) : 1.0;
        }
        double most = 0;
        for (const auto &[root, l] : load)
            most = std::max(most, l);
        return most;
    };
    const std::map<QString, double> storage{{QStringLiteral("n1"), 10.0}, {QStringLiteral("n3"), 10.0}};
    Tenancy tenancy = makeTenancy(t, {}, PolicyMode::BestEffort, storage);
    Result<Routing> ftree = routeFabric(QStringLiteral("ftree"), t.fabric, tenancy);
    QVERIFY(ftree);
    QCOMPARE(via(t, ftree->tables, QStringLiteral("n1")), QStringLiteral("R1"));
    QCOMPARE(via(t, ftree->tables, QStringLiteral("n3")), QStringLiteral("R1"));
    QCOMPARE(maxDownIntoL1(*ftree, storage), 20.0);
    Result<Routing> wftree = routeFabric(QStringLiteral("wftree"), t.fabric, tenancy);
    QVERIFY(wftree);
    const std::map<QString, QString> expected = vias("n1:R1 n3:R2 n2:R1 n4:R2");
    for (const auto &[host, root] : expected)
        QCOMPARE(via(t, wftree->tables, host), root);
    QCOMPARE(maxDownIntoL1(*wftree, storage), 11.0);

    // T-WFT-3: a critical node outweighing its leaf owns a down-link.
    const std::map<QString, double> critical{{QStringLiteral("n1"), 10.0}};
    Result<Routing> crit = routeFabric(QStringLiteral("wftree"), t.fabric, makeTenancy(t, {}, PolicyMode::BestEffort, critical));
    QVERIFY(crit);
    const QString own = via(t, crit->tables, QStringLiteral("n1"));
    for (const char *other : {"n2", "n3", "n4"})
        QVERIFY(via(t, crit->tables, QString::fromLatin1(other)) != own);
}

// Spec 003 §9 T-WFT-2: swapping the leaf ports of n1 and n2 changes ftree's mapping but not
// wftree's; wftree's tables differ only in L1's two entries for them.
void TestRoutingPftree::weightedFatTreeCablingInvariance()
{
    const QStringList order = names("n1 n2 n3 n4 n5 n6 n7 n8");
    const Tree a = buildTree(2, {names("n1 n2 n3 n4"), names("n5 n6 n7 n8")}, true, order);
    const Tree b = buildTree(2, {names("n2 n1 n3 n4"), names("n5 n6 n7 n8")}, true, order);
    const std::map<QString, double> storage{{QStringLiteral("n1"), 10.0}, {QStringLiteral("n3"), 10.0}};
    Result<Routing> ftreeA = routeFabric(QStringLiteral("ftree"), a.fabric, makeTenancy(a, {}));
    Result<Routing> ftreeB = routeFabric(QStringLiteral("ftree"), b.fabric, makeTenancy(b, {}));
    QVERIFY(ftreeA && ftreeB);
    QVERIFY(via(a, ftreeA->tables, QStringLiteral("n1")) != via(b, ftreeB->tables, QStringLiteral("n1")));

    Result<Routing> wA = routeFabric(QStringLiteral("wftree"), a.fabric, makeTenancy(a, {}, PolicyMode::BestEffort, storage));
    Result<Routing> wB = routeFabric(QStringLiteral("wftree"), b.fabric, makeTenancy(b, {}, PolicyMode::BestEffort, storage));
    QVERIFY(wA && wB);
    for (const QString &n : order)
        QCOMPARE(via(b, wB->tables, n), via(a, wA->tables, n));
    int differing = 0;
    for (NodeIndex s : a.fabric.switches()) {
        const Guid guid = a.fabric.node(s).guid;
        for (Lid lid = 1; lid <= a.fabric.maxLid(); ++lid)
            differing += wA->tables.find(guid)->lft.port(lid) != wB->tables.find(guid)->lft.port(lid);
    }
    QCOMPARE(differing, 2);
}

// §2.4: multi-leaf partition first, then the strictest policy, then the lowest P_Key; the
// default partition is ignored.
void TestRoutingPftree::routingPKeyRule()
{
    const Tree t = buildTree(2, {names("A B"), names("C D")});
    const std::vector<PartitionSpec> parts{{QStringLiteral("single"), 1, kPhy, names("A B")},
                                           {QStringLiteral("low"), 2, kDef, names("A C")},
                                           {QStringLiteral("strict"), 3, kVlane, names("A D")},
                                           {QStringLiteral("other"), 4, kDef, names("B C:limited")},
                                           {QStringLiteral("Default"), kDefaultPKey, kDef, names("A B C D")}};
    PartitionRoutingReport report;
    QVERIFY(runEngine(Algo::Extended, t.fabric, makeTenancy(t, parts), {}, &report));
    QCOMPARE(report.routingPKey.at(t.portGuid.at(QStringLiteral("A"))), std::uint16_t(3));
    QCOMPARE(report.routingPKey.at(t.portGuid.at(QStringLiteral("B"))), std::uint16_t(4));
    QCOMPARE(report.routingPKey.at(t.portGuid.at(QStringLiteral("C"))), std::uint16_t(2));
    QCOMPARE(report.routingPKey.at(t.portGuid.at(QStringLiteral("D"))), std::uint16_t(3));
    QVERIFY(!report.virtualLanes.count(kDefaultPKey));
    // Under pftree-wt policies do not count: the lowest multi-leaf P_Key wins.
    QVERIFY(runEngine(Algo::Weighted, t.fabric, makeTenancy(t, parts), {}, &report));
    QCOMPARE(report.routingPKey.at(t.portGuid.at(QStringLiteral("A"))), std::uint16_t(2));
}

void TestRoutingPftree::invariants_data()
{
    QTest::addColumn<QString>("engine");
    QTest::addColumn<int>("shape");
    for (const char *engine : {"pftree", "pftree-wt", "wftree"})
        for (std::size_t s = 0; s < shapes().size(); ++s)
            QTest::addRow("%s, %s", engine, shapes()[s].name) << QString::fromLatin1(engine) << int(s);
}

// Every CA reaches every CA LID from every switch without a loop, never turning from down to
// up, and the same input gives the same tables.
void TestRoutingPftree::invariants()
{
    QFETCH(QString, engine);
    QFETCH(int, shape);
    const Shape &sh = shapes()[std::size_t(shape)];
    const GeneratedFabric g = generate(sh);
    const Fabric &fabric = g.fabric;
    const int hostsPerLeaf = g.xgft.children.back();
    Tenancy tenancy = spreadPartitions(g, 3, {kPhy, kVlane, kDef}, PolicyMode::BestEffort, hostsPerLeaf);
    for (std::size_t h = 0; h < g.hosts.size(); h += 5)
        tenancy.nodeWeights[fabric.port(fabric.portOf(g.hosts[h], 1)).guid] = double(1 + h % 7);

    Result<Routing> first = routeFabric(engine, fabric, tenancy);
    QVERIFY2(first, first ? "" : qPrintable(first.error().message));
    Result<Routing> second = routeFabric(engine, fabric, tenancy);
    QVERIFY(second);
    QVERIFY(first->tables == second->tables);
    QCOMPARE(first->serviceLevels, second->serviceLevels);
    QCOMPARE(first->warnings, second->warnings);

    // Sources: every switch of a full tree. In a degraded one, a spine that lost its link to a
    // leaf has no up*/down* path to that leaf's hosts at all, so only the switches the CAs
    // hang off are sources there (no CA traffic passes such a spine towards them: the walks
    // from the leaves would fail if it did).
    std::vector<NodeIndex> sources;
    for (NodeIndex sw : fabric.switches())
        if (sh.removeLinks == 0 || g.nodeLevel[std::size_t(sw)] == g.xgft.height - 1)
            sources.push_back(sw);
    QVERIFY(!sources.empty());
    int pairs = 0;
    for (NodeIndex src : sources) {
        for (NodeIndex dst : g.hosts) {
            const Lid lid = fabric.nodeLid(dst);
            NodeIndex at = src;
            bool wentDown = false;
            bool arrived = false;
            for (std::size_t step = 0; step <= fabric.switches().size() && !arrived; ++step) {
                const std::uint8_t out = first->tables.find(fabric.node(at).guid)->lft.port(lid);
                QVERIFY2(out != kNoRoute && out != 0,
                         qPrintable(QStringLiteral("%1 has no route to %2").arg(fabric.node(at).description, fabric.node(dst).description)));
                const PortIndex p = fabric.portOf(at, out);
                QVERIFY(p != kNoIndex && fabric.port(p).remote != kNoIndex);
                const NodeIndex next = fabric.port(fabric.port(p).remote).node;
                if (fabric.node(next).type != NodeType::Switch) {
                    QCOMPARE(next, dst);
                    arrived = true;
                    break;
                }
                const bool down = g.nodeLevel[std::size_t(next)] > g.nodeLevel[std::size_t(at)];
                QVERIFY2(!(wentDown && !down), "a route turns from down to up");
                wentDown |= down;
                at = next;
            }
            QVERIFY2(arrived, "loop");
            ++pairs;
        }
    }
    QCOMPARE(pairs, int(sources.size() * g.hosts.size()));
}

void TestRoutingPftree::physicalIsolationAgainstFtree_data()
{
    QTest::addColumn<int>("radix");
    QTest::addColumn<int>("levels");
    QTest::addColumn<int>("partitions");
    QTest::addColumn<bool>("expectIsolated");
    QTest::addRow("radix 8, 2 levels, 2 phy partitions") << 8 << 2 << 2 << true;
    QTest::addRow("radix 16, 2 levels, 4 phy partitions") << 16 << 2 << 4 << true;
    QTest::addRow("radix 8, 3 levels, 2 phy partitions") << 8 << 3 << 2 << true;
}

// Where the roots suffice to give every partition its own, pftree with phy-isolation leaves
// no switch link shared; ftree, blind to partitions, shares many.
void TestRoutingPftree::physicalIsolationAgainstFtree()
{
    QFETCH(int, radix);
    QFETCH(int, levels);
    QFETCH(int, partitions);
    QFETCH(bool, expectIsolated);
    GeneratorOptions options;
    options.shape = FabricShapeKind::SwitchRadix;
    options.radix = radix;
    options.levels = levels;
    Result<GeneratedFabric> g = generateFabric(options);
    QVERIFY(g);
    const int hostsPerLeaf = g->xgft.children.back();
    Tenancy tenancy = spreadPartitions(*g, partitions, {kPhy}, PolicyMode::Strict, hostsPerLeaf);
    tenancy.partitions.pop_back();  // the default partition plays no part in sharing
    Result<Routing> ftree = routeFabric(QStringLiteral("ftree"), g->fabric, tenancy);
    QVERIFY(ftree);
    const int ftreeShared = measureSharing(g->fabric, ftree->tables, tenancy).sharedLinks;
    Result<Routing> pftree = routeFabric(QStringLiteral("pftree"), g->fabric, tenancy);
    int pftreeShared = -1;
    if (pftree)
        pftreeShared = measureSharing(g->fabric, pftree->tables, tenancy).sharedLinks;
    else {
        tenancy.mode = PolicyMode::BestEffort;
        Result<Routing> bestEffort = routeFabric(QStringLiteral("pftree"), g->fabric, tenancy);
        QVERIFY(bestEffort);
        pftreeShared = measureSharing(g->fabric, bestEffort->tables, tenancy).sharedLinks;
    }
    qInfo("%s, %d hosts, %d phy partitions: directed switch links shared by 2+ partitions: pftree %d, ftree %d",
          qPrintable(g->xgft.toString()), int(g->hosts.size()), partitions, pftreeShared, ftreeShared);
    QVERIFY(ftreeShared > 0);
    if (expectIsolated) {
        QVERIFY2(pftree, pftree ? "" : qPrintable(pftree.error().message));
        QCOMPARE(pftreeShared, 0);
    } else {
        QVERIFY(pftreeShared < ftreeShared);
    }
}

void TestRoutingPftree::refusals()
{
    const Tree t = buildTree(2, {names("A B"), names("C D")});
    Tenancy negative = makeTenancy(t, {}, PolicyMode::BestEffort, {{QStringLiteral("A"), -1.0}});
    Result<Routing> r = routeFabric(QStringLiteral("pftree-wt"), t.fabric, negative);
    QVERIFY(!r);
    QVERIFY(r.error().message.contains(QStringLiteral("negative")));

    FabricBuilder b;
    FabricBuilder::NodeSpec sw;
    sw.type = NodeType::Switch;
    sw.guid = 0x10;
    sw.portCount = 4;
    sw.name = QStringLiteral("lonely");
    NodeIndex n;
    QVERIFY(b.addNode(sw, &n).isEmpty());
    QVERIFY(b.setPortLid(n, 0, 1, 0).isEmpty());
    Result<Fabric> single = std::move(b).build();
    QVERIFY(single);
    for (const char *engine : {"pftree", "pftree-wt", "wftree"}) {
        Result<Routing> refused = routeFabric(QString::fromLatin1(engine), *single, {});
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.startsWith(QString::fromLatin1(engine) + QStringLiteral(": ")),
                 qPrintable(refused.error().message));
    }
    PartitionAwareFatTreeEngine unprepared(Algo::Extended);
    QVERIFY(!unprepared.route({}));
}

void TestRoutingPftree::cancel()
{
    const Tree t = buildTree(2, {names("A B"), names("C D")});
    PartitionAwareFatTreeEngine engine(Algo::Extended);
    QVERIFY(engine.prepare(t.fabric, {}, {}));
    RoutingOptions options;
    int calls = 0;
    options.progress = [&calls](int, int) { return ++calls < 2; };
    Result<Routing> r = engine.route(options);
    QVERIFY(!r);
    QVERIFY(r.error().message.contains(QStringLiteral("cancelled")));
    QVERIFY(engine.route({}));  // and it can run again
}

QTEST_GUILESS_MAIN(TestRoutingPftree)
#include "tst_routing_pftree.moc"
