// P-SSSP ("sssp") and P²-SSSP ("sssp2"), spec 002 §3 and §8: the paper's network X routed
// exactly as spec §8.4 lists (both tie-break rules), the balanced channel loads of TC-3, TC-5 and
// TC-6, and on generated fat-trees (pure and degraded): every pair reachable without loops,
// minimal routes, no credit loop, determinism and cancellation. A ring whose routes do have a
// credit loop is layered onto service levels; each layer is checked here independently.

#include "FabricGenerator.h"
#include "GeneratedFabrics.h"
#include "RoutingEngine.h"
#include "SsspEngine.h"
#include "Validation.h"

#include "TinyFabric.h"

#include <QtTest>

#include <map>
#include <queue>
#include <set>

using namespace weft;

namespace {

// test::TinyFabric numbers GUIDs and LIDs in order of creation, so node index, GUID and LID
// orders agree, which the pinned tie-breaks below rely on.
using test::TinyFabric;

// The paper's network X (spec §8.4): crossbars A..E, endpoints 0@A, 1@E, 2@C, a K_{2,3} core
// between {B, D} and {A, C, E}. With `hostsPerSwitch` 2 it is X′ of TC-6 (0,1@A; 2,3@C; 4,5@E).
Fabric networkX(int hostsPerSwitch)
{
    TinyFabric t;
    for (const char *sw : {"A", "B", "C", "D", "E"})
        t.addSwitch(QLatin1String(sw), 8);
    const QStringList outer{QStringLiteral("A"), QStringLiteral("C"), QStringLiteral("E")};
    if (hostsPerSwitch == 1) {
        for (const char *h : {"0", "1", "2"})
            t.addHost(QLatin1String(h));
        t.cable(QStringLiteral("0"), 1, QStringLiteral("A"), 5);
        t.cable(QStringLiteral("1"), 1, QStringLiteral("E"), 5);
        t.cable(QStringLiteral("2"), 1, QStringLiteral("C"), 5);
    } else {
        for (int h = 0; h < 6; ++h) {
            t.addHost(QString::number(h));
            t.cable(QString::number(h), 1, outer[h / 2], 5 + h % 2);
        }
    }
    // B–A, B–C, B–E, D–A, D–C, D–E
    int port = 1;
    for (const QString &o : outer) {
        t.cable(QStringLiteral("B"), port, o, 1);
        t.cable(QStringLiteral("D"), port, o, 2);
        ++port;
    }
    return t.build();
}

struct Walk
{
    std::vector<PortIndex> channels;  // out ports, switch ones only, in order
    QStringList nodes;                // names from source host to destination host
    bool ok = false;
    QString why;
};

Walk walk(const Fabric &fabric, const ForwardingTables &tables, PortIndex sourcePort, Lid lid)
{
    Walk w;
    const PortIndex owner = fabric.portByLid(lid);
    w.nodes << fabric.node(fabric.port(sourcePort).node).name;
    NodeIndex at = fabric.port(fabric.port(sourcePort).remote).node;
    for (std::size_t step = 0; step <= fabric.switches().size() + 1; ++step) {
        w.nodes << fabric.node(at).name;
        const SwitchForwardingTable *sw = tables.find(fabric.node(at).guid);
        if (!sw || !sw->lft.hasRoute(lid)) {
            w.why = QStringLiteral("%1 has no route to LID %2").arg(fabric.node(at).name).arg(lid);
            return w;
        }
        const std::uint8_t out = sw->lft.port(lid);
        const PortIndex p = fabric.portOf(at, out);
        if (p == kNoIndex || fabric.port(p).remote == kNoIndex) {
            w.why = QStringLiteral("%1 port %2 leads nowhere").arg(fabric.node(at).name).arg(out);
            return w;
        }
        const PortIndex far = fabric.port(p).remote;
        if (far == owner) {
            w.nodes << fabric.node(fabric.port(far).node).name;
            w.channels.push_back(p);
            w.ok = true;
            return w;
        }
        if (fabric.node(fabric.port(far).node).type != NodeType::Switch) {
            w.why = QStringLiteral("%1 delivers LID %2 to the wrong node").arg(fabric.node(at).name).arg(lid);
            return w;
        }
        w.channels.push_back(p);
        at = fabric.port(far).node;
    }
    w.why = QStringLiteral("loop towards LID %1").arg(lid);
    return w;
}

std::vector<PortIndex> hostPorts(const Fabric &fabric)
{
    std::vector<PortIndex> ports;
    for (NodeIndex n : fabric.endNodes()) {
        const PortIndex p = fabric.portOf(n, 1);
        if (p != kNoIndex && fabric.port(p).lid != 0 && fabric.port(p).remote != kNoIndex)
            ports.push_back(p);
    }
    return ports;
}

// "(0,A,D,E,1)" for every ordered pair, sorted by source then destination name.
QStringList routesOf(const Fabric &fabric, const ForwardingTables &tables)
{
    QStringList routes;
    for (PortIndex s : hostPorts(fabric))
        for (PortIndex d : hostPorts(fabric))
            if (s != d) {
                const Walk w = walk(fabric, tables, s, fabric.port(d).lid);
                routes << (w.ok ? QLatin1Char('(') + w.nodes.join(QLatin1Char(',')) + QLatin1Char(')') : w.why);
            }
    routes.sort();
    return routes;
}

// Route counts per directed switch channel ("B->A"), counted by walking every pair.
std::map<QString, int> channelLoads(const Fabric &fabric, const ForwardingTables &tables)
{
    std::map<QString, int> loads;
    for (PortIndex s : hostPorts(fabric))
        for (PortIndex d : hostPorts(fabric))
            if (s != d) {
                const Walk w = walk(fabric, tables, s, fabric.port(d).lid);
                for (PortIndex c : w.channels) {
                    const PortIndex far = fabric.port(c).remote;
                    if (fabric.node(fabric.port(far).node).type == NodeType::Switch)
                        ++loads[fabric.node(fabric.port(c).node).name + QStringLiteral("->") + fabric.node(fabric.port(far).node).name];
                }
            }
    return loads;
}

Routing routeWith(SsspEngine &engine, const Fabric &fabric, const RoutingOptions &options = {})
{
    const Status prepared = engine.prepare(fabric, {}, options);
    if (!prepared)
        qFatal("prepare: %s", qPrintable(prepared.error().toString()));
    Result<Routing> routed = engine.route(options);
    if (!routed)
        qFatal("route: %s", qPrintable(routed.error().toString()));
    return std::move(routed).value();
}

GeneratedFabric generate(FabricShapeKind kind, int size, int levels, int removeLinks)
{
    return test::generate({kind, size, levels, removeLinks}, 5);
}

// Unweighted switch-hop distances from every switch, for the minimality check.
std::map<NodeIndex, std::map<NodeIndex, int>> switchDistances(const Fabric &fabric)
{
    std::map<NodeIndex, std::map<NodeIndex, int>> all;
    for (NodeIndex from : fabric.switches()) {
        std::map<NodeIndex, int> &dist = all[from];
        std::queue<NodeIndex> queue;
        dist[from] = 0;
        queue.push(from);
        while (!queue.empty()) {
            const NodeIndex x = queue.front();
            queue.pop();
            for (int n = 1; n <= fabric.node(x).portCount; ++n) {
                const PortIndex p = fabric.portOf(x, n);
                if (p == kNoIndex || fabric.port(p).remote == kNoIndex || fabric.port(p).state == PortState::Down)
                    continue;
                const NodeIndex y = fabric.port(fabric.port(p).remote).node;
                if (fabric.node(y).type != NodeType::Switch || dist.count(y))
                    continue;
                dist[y] = dist[x] + 1;
                queue.push(y);
            }
        }
    }
    return all;
}

}  // namespace

class TestRoutingSssp : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Spec §8.4 with the pinned `paper-example` rule and with the default rule (its
    // "Sensitivity" paragraph); σ = (0, 1, 2).
    void paperNetworkX_data()
    {
        QTest::addColumn<int>("variant");
        QTest::addColumn<int>("tieBreak");
        QTest::addColumn<QStringList>("expected");
        QTest::addColumn<int>("pi");
        const auto list = [](const char *text) { return QString::fromLatin1(text).split(QLatin1Char(' ')); };
        QTest::addRow("P-SSSP, paper-example")
            << int(SsspEngine::Variant::PerDestination) << int(SsspSettings::TieBreak::PaperExample)
            << list("(0,A,B,C,2) (0,A,D,E,1) (1,E,B,A,0) (1,E,D,C,2) (2,C,B,A,0) (2,C,D,E,1)") << 2;
        QTest::addRow("P2-SSSP, paper-example (the paper's six routes)")
            << int(SsspEngine::Variant::PerPair) << int(SsspSettings::TieBreak::PaperExample)
            << list("(0,A,B,E,1) (0,A,D,C,2) (1,E,B,C,2) (1,E,D,A,0) (2,C,B,A,0) (2,C,D,E,1)") << 1;
        QTest::addRow("P-SSSP, default tie-break")
            << int(SsspEngine::Variant::PerDestination) << int(SsspSettings::TieBreak::LowestHead)
            << list("(0,A,B,E,1) (0,A,D,C,2) (1,E,B,A,0) (1,E,D,C,2) (2,C,B,A,0) (2,C,D,E,1)") << 2;
        QTest::addRow("P2-SSSP, default tie-break")
            << int(SsspEngine::Variant::PerPair) << int(SsspSettings::TieBreak::LowestHead)
            << list("(0,A,B,E,1) (0,A,D,C,2) (1,E,B,A,0) (1,E,B,C,2) (2,C,B,E,1) (2,C,D,A,0)") << 2;
    }
    void paperNetworkX()
    {
        QFETCH(int, variant);
        QFETCH(int, tieBreak);
        QFETCH(QStringList, expected);
        QFETCH(int, pi);
        const Fabric fabric = networkX(1);
        SsspSettings settings;
        settings.tieBreak = SsspSettings::TieBreak(tieBreak);
        SsspEngine engine(SsspEngine::Variant(variant), settings);
        const Routing routing = routeWith(engine, fabric);
        QCOMPARE(routesOf(fabric, routing.tables), expected);

        const std::map<QString, int> loads = channelLoads(fabric, routing.tables);
        int max = 0;
        for (const auto &[channel, load] : loads)
            max = std::max(max, load);
        QCOMPARE(max, pi);
        // The engine's own counts agree with the walked ones, endpoint channels carry P − 1.
        for (PortIndex p = 0; p < PortIndex(fabric.ports().size()); ++p) {
            const Port &port = fabric.port(p);
            if (fabric.node(port.node).type != NodeType::Switch || port.remote == kNoIndex)
                continue;
            const Node &far = fabric.node(fabric.port(port.remote).node);
            const QString key = fabric.node(port.node).name + QStringLiteral("->") + far.name;
            const std::uint64_t expectedLoad = far.type == NodeType::Switch ? std::uint64_t(loads.count(key) ? loads.at(key) : 0) : 2;
            QCOMPARE(engine.channelLoads()[std::size_t(p)], expectedLoad);
        }
    }

    // The published maxima of the P-SSSP run: exactly (B,A) and (D,E) carry 2.
    void paperNetworkXMaximalEdges()
    {
        const Fabric fabric = networkX(1);
        SsspSettings settings;
        settings.tieBreak = SsspSettings::TieBreak::PaperExample;
        SsspEngine engine(SsspEngine::Variant::PerDestination, settings);
        const std::map<QString, int> loads = channelLoads(fabric, routeWith(engine, fabric).tables);
        QStringList maximal;
        for (const auto &[channel, load] : loads)
            if (load == 2)
                maximal << channel;
        QCOMPARE(maximal, QStringList({QStringLiteral("B->A"), QStringLiteral("D->E")}));
        QCOMPARE(loads.count(QStringLiteral("B->E")), std::size_t(0));
        QCOMPARE(loads.count(QStringLiteral("D->A")), std::size_t(0));
    }

    // TC-6 (X′) and TC-3 (dumbbell, two parallel cables) and TC-5 (2-level fat tree): every
    // inter-switch channel carries the same count.
    void balancedLoads_data()
    {
        QTest::addColumn<QString>("topology");
        QTest::addColumn<int>("variant");
        QTest::addColumn<int>("channels");
        QTest::addColumn<int>("load");
        for (const int variant : {int(SsspEngine::Variant::PerDestination), int(SsspEngine::Variant::PerPair)}) {
            const char *v = variant == int(SsspEngine::Variant::PerPair) ? "sssp2" : "sssp";
            QTest::addRow("TC-6 network X', %s", v) << QStringLiteral("X'") << variant << 12 << 4;
            QTest::addRow("TC-3 dumbbell, two cables, %s", v) << QStringLiteral("dumbbell") << variant << 4 << 8;
            QTest::addRow("TC-5 2-level fat tree, %s", v) << QStringLiteral("tree") << variant << 16 << 6;
        }
    }
    void balancedLoads()
    {
        QFETCH(QString, topology);
        QFETCH(int, variant);
        QFETCH(int, channels);
        QFETCH(int, load);
        Fabric fabric;
        if (topology == QLatin1String("X'")) {
            fabric = networkX(2);
        } else if (topology == QLatin1String("dumbbell")) {
            TinyFabric t;
            t.addSwitch(QStringLiteral("A"), 8);
            t.addSwitch(QStringLiteral("B"), 8);
            for (int h = 0; h < 8; ++h) {
                t.addHost(QString::number(h));
                t.cable(QString::number(h), 1, h < 4 ? QStringLiteral("A") : QStringLiteral("B"), 1 + h % 4);
            }
            t.cable(QStringLiteral("A"), 5, QStringLiteral("B"), 5);
            t.cable(QStringLiteral("A"), 6, QStringLiteral("B"), 6);
            fabric = t.build();
        } else {
            TinyFabric t;
            for (const char *sw : {"L0", "L1", "L2", "L3", "T0", "T1"})
                t.addSwitch(QLatin1String(sw), 4);
            for (int h = 0; h < 8; ++h) {
                t.addHost(QString::number(h));
                t.cable(QString::number(h), 1, QStringLiteral("L%1").arg(h / 2), 1 + h % 2);
            }
            for (int l = 0; l < 4; ++l) {
                t.cable(QStringLiteral("L%1").arg(l), 3, QStringLiteral("T0"), l + 1);
                t.cable(QStringLiteral("L%1").arg(l), 4, QStringLiteral("T1"), l + 1);
            }
            fabric = t.build();
        }
        SsspEngine engine{SsspEngine::Variant(variant)};
        const Routing routing = routeWith(engine, fabric);
        // Counted per out port, so that parallel cables stay apart.
        int counted = 0;
        for (PortIndex p = 0; p < PortIndex(fabric.ports().size()); ++p) {
            const Port &port = fabric.port(p);
            if (fabric.node(port.node).type != NodeType::Switch || port.remote == kNoIndex
                || fabric.node(fabric.port(port.remote).node).type != NodeType::Switch)
                continue;
            ++counted;
            QCOMPARE(engine.channelLoads()[std::size_t(p)], std::uint64_t(load));
        }
        QCOMPARE(counted, channels);
        const ValidationResult valid = validateRouting(fabric, {}, routing.tables);
        QVERIFY2(valid.ok, qPrintable(valid.problems.join(QLatin1Char('\n')) + valid.creditLoop.join(QStringLiteral(", "))));
        QVERIFY(!engine.hadCreditLoops());
    }

    // Generated fat-trees, pure and with links removed: validateRouting finds every pair
    // reachable, no loop and no credit loop (engine SLs: none needed), routes are minimal.
    void generatedTrees_data()
    {
        QTest::addColumn<int>("variant");
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("levels");
        QTest::addColumn<int>("removed");
        const int perDestination = int(SsspEngine::Variant::PerDestination);
        const int perPair = int(SsspEngine::Variant::PerPair);
        QTest::addRow("sssp 2-ary 3-tree") << perDestination << int(FabricShapeKind::KaryNTree) << 2 << 3 << 0;
        QTest::addRow("sssp 4-ary 2-tree") << perDestination << int(FabricShapeKind::KaryNTree) << 4 << 2 << 0;
        QTest::addRow("sssp 4-ary 3-tree") << perDestination << int(FabricShapeKind::KaryNTree) << 4 << 3 << 0;
        QTest::addRow("sssp 4-ary 3-tree, 6 links removed") << perDestination << int(FabricShapeKind::KaryNTree) << 4 << 3 << 6;
        QTest::addRow("sssp radix-8 3-level, 10 links removed") << perDestination << int(FabricShapeKind::SwitchRadix) << 8 << 3 << 10;
        QTest::addRow("sssp2 2-ary 3-tree") << perPair << int(FabricShapeKind::KaryNTree) << 2 << 3 << 0;
        QTest::addRow("sssp2 4-ary 2-tree, 2 links removed") << perPair << int(FabricShapeKind::KaryNTree) << 4 << 2 << 2;
    }
    void generatedTrees()
    {
        QFETCH(int, variant);
        QFETCH(int, kind);
        QFETCH(int, size);
        QFETCH(int, levels);
        QFETCH(int, removed);
        const GeneratedFabric generated = generate(FabricShapeKind(kind), size, levels, removed);
        const Fabric &fabric = generated.fabric;
        SsspEngine engine{SsspEngine::Variant(variant)};
        const Routing routing = routeWith(engine, fabric);
        QCOMPARE(routing.engine, engine.name());

        const ValidationResult valid = validateRouting(fabric, {}, routing.tables);
        QVERIFY2(valid.ok, qPrintable(valid.problems.join(QLatin1Char('\n')) + valid.creditLoop.join(QStringLiteral(", "))));
        QVERIFY(valid.deadlockFree);
        QCOMPARE(valid.unreachablePartitionPairs, std::uint64_t(0));
        QCOMPARE(valid.loops, std::size_t(0));
        QVERIFY(!engine.hadCreditLoops());
        QCOMPARE(engine.serviceLevelsUsed(), 1);

        // Minimal: the switch hops of every route equal the BFS distance (spec §8.11 item 3).
        const auto distances = switchDistances(fabric);
        const std::vector<PortIndex> hosts = hostPorts(fabric);
        std::uint64_t pairs = 0;
        for (PortIndex s : hosts)
            for (PortIndex d : hosts) {
                if (s == d)
                    continue;
                const Walk w = walk(fabric, routing.tables, s, fabric.port(d).lid);
                QVERIFY2(w.ok, qPrintable(w.why));
                const NodeIndex from = fabric.port(fabric.port(s).remote).node;
                const NodeIndex to = fabric.port(fabric.port(d).remote).node;
                QCOMPARE(int(w.channels.size()) - 1, distances.at(from).at(to));
                ++pairs;
            }
        QCOMPARE(pairs, std::uint64_t(hosts.size() * (hosts.size() - 1)));

        // Every switch has an entry for every switch LID too (port 0 for its own).
        for (NodeIndex sw : fabric.switches()) {
            const SwitchForwardingTable *table = routing.tables.find(fabric.node(sw).guid);
            QVERIFY(table);
            QCOMPARE(int(table->lft.port(fabric.nodeLid(sw))), 0);
            for (NodeIndex other : fabric.switches())
                QVERIFY(table->lft.hasRoute(fabric.nodeLid(other)));
        }
    }

    // Same fabric, same settings: byte-identical tables; both destination orders.
    void deterministic_data()
    {
        QTest::addColumn<int>("variant");
        QTest::addColumn<int>("order");
        QTest::addRow("sssp, port GUID order") << int(SsspEngine::Variant::PerDestination) << int(SsspSettings::Order::PortGuid);
        QTest::addRow("sssp, OpenSM order") << int(SsspEngine::Variant::PerDestination) << int(SsspSettings::Order::OpenSm);
        QTest::addRow("sssp2, port GUID order") << int(SsspEngine::Variant::PerPair) << int(SsspSettings::Order::PortGuid);
    }
    void deterministic()
    {
        QFETCH(int, variant);
        QFETCH(int, order);
        const GeneratedFabric generated = generate(FabricShapeKind::KaryNTree, 4, 2, 3);
        SsspSettings settings;
        settings.order = SsspSettings::Order(order);
        SsspEngine first(SsspEngine::Variant(variant), settings);
        SsspEngine second(SsspEngine::Variant(variant), settings);
        const Routing a = routeWith(first, generated.fabric);
        const Routing b = routeWith(second, generated.fabric);
        QVERIFY(a.tables == b.tables);
        // route() again after the same prepare() gives the same again.
        Result<Routing> again = first.route({});
        QVERIFY(again.ok());
        QVERIFY(again.value().tables == a.tables);
        QCOMPARE(first.channelLoads(), second.channelLoads());
    }

    void cancelled_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addRow("sssp") << QStringLiteral("sssp");
        QTest::addRow("sssp2") << QStringLiteral("sssp2");
    }
    void cancelled()
    {
        QFETCH(QString, engine);
        const GeneratedFabric generated = generate(FabricShapeKind::KaryNTree, 4, 2, 0);
        int calls = 0;
        int lastTotal = 0;
        RoutingOptions options;
        options.progress = [&](int done, int total) {
            ++calls;
            lastTotal = total;
            return done < total / 2;
        };
        const Result<Routing> routed = routeFabric(engine, generated.fabric, {}, options);
        QVERIFY(!routed.ok());
        QVERIFY2(routed.error().message.contains(QStringLiteral("cancelled")), qPrintable(routed.error().message));
        QVERIFY(calls > 1);
        QVERIFY(lastTotal > 0);
    }

    // A ring of four switches with two hosts each: minimal routes between opposite switches
    // close a credit loop. The engine finds it and layers pairs onto SLs; each SL's channel
    // dependency graph, rebuilt here from the tables, must be acyclic.
    void ringIsLayered()
    {
        TinyFabric t;
        for (int s = 0; s < 4; ++s)
            t.addSwitch(QStringLiteral("S%1").arg(s), 4);
        for (int h = 0; h < 8; ++h) {
            t.addHost(QString::number(h));
            t.cable(QString::number(h), 1, QStringLiteral("S%1").arg(h / 2), 1 + h % 2);
        }
        for (int s = 0; s < 4; ++s)
            t.cable(QStringLiteral("S%1").arg(s), 3, QStringLiteral("S%1").arg((s + 1) % 4), 4);
        const Fabric fabric = t.build();

        SsspEngine engine;
        const Routing routing = routeWith(engine, fabric);
        QVERIFY(engine.hadCreditLoops());
        QVERIFY(engine.serviceLevelsUsed() >= 2);
        QVERIFY(!routing.warnings.isEmpty());
        // Without layering, validation sees the loop.
        QVERIFY(!validateRouting(fabric, {}, routing.tables).deadlockFree);

        std::map<int, std::set<std::pair<PortIndex, PortIndex>>> dependencies;  // per SL
        const std::vector<PortIndex> hosts = hostPorts(fabric);
        for (PortIndex s : hosts)
            for (PortIndex d : hosts) {
                if (s == d)
                    continue;
                const Walk w = walk(fabric, routing.tables, s, fabric.port(d).lid);
                QVERIFY(w.ok);
                const int sl = engine.serviceLevel(fabric.port(s).lid, fabric.port(d).lid);
                QVERIFY(sl >= 0 && sl < engine.serviceLevelsUsed());
                for (std::size_t i = 0; i + 2 < w.channels.size(); ++i)
                    dependencies[sl].insert({w.channels[i], w.channels[i + 1]});
            }
        for (const auto &[sl, edges] : dependencies) {
            // Peel channels without incoming dependencies; a remainder is a cycle.
            std::map<PortIndex, int> indegree;
            for (const auto &[a, b] : edges) {
                indegree[a];
                ++indegree[b];
            }
            std::vector<PortIndex> ready;
            for (const auto &[c, n] : indegree)
                if (n == 0)
                    ready.push_back(c);
            std::size_t peeled = 0;
            while (!ready.empty()) {
                const PortIndex c = ready.back();
                ready.pop_back();
                ++peeled;
                for (const auto &[a, b] : edges)
                    if (a == c && --indegree[b] == 0)
                        ready.push_back(b);
            }
            QVERIFY2(peeled == indegree.size(), qPrintable(QStringLiteral("SL %1 has a credit loop").arg(sl)));
        }
    }

    void refusesLargeFabricsForPerPair()
    {
        SsspSettings settings;
        settings.perPairEndPortLimit = 10;
        SsspEngine engine(SsspEngine::Variant::PerPair, settings);
        const Status prepared = engine.prepare(generate(FabricShapeKind::KaryNTree, 4, 2, 0).fabric, {}, {});
        QVERIFY(!prepared.ok());
        QVERIFY2(prepared.error().message.contains(QStringLiteral("sssp2: 16 end ports")), qPrintable(prepared.error().message));
        SsspEngine fresh;
        const Result<Routing> early = fresh.route({});
        QVERIFY(!early.ok());
    }
};

QTEST_GUILESS_MAIN(TestRoutingSssp)
#include "tst_routing_sssp.moc"
