// minhop and updn against a straightforward reference: OpenSM's per-port hop matrices and its
// port-by-port least-loaded choice, written the slow way. The engines keep only least-hop port
// masks and resume each search where the last one stopped; any slip in that bookkeeping (a
// port skipped, a tie broken upwards, a load counted twice) changes some entry, and the tables
// must also be the same for any number of threads.

#include "GeneratedFabrics.h"
#include "LeastLoadedLfts.h"
#include "RoutingEngine.h"
#include "TinyFabric.h"
#include "UpDownEngine.h"

#include <QtTest>

#include <deque>
#include <limits>

using namespace weft;
using routing::kNoPath;
using routing::SwitchGraph;

namespace {

// hops[target][slot], port 0 of each switch holding its least count: OpenSM's matrices.
using HopMatrix = std::vector<std::vector<std::uint8_t>>;

void setHops(const SwitchGraph &graph, std::vector<std::uint8_t> &row, int sw, int port, std::uint8_t hops)
{
    const std::size_t first = std::size_t(graph.switches[std::size_t(sw)].firstSlot);
    row[first + std::size_t(port)] = hops;
    row[first] = std::min(row[first], hops);
}

HopMatrix referenceMinHop(const SwitchGraph &graph)
{
    const int n = int(graph.switches.size());
    HopMatrix hops(std::size_t(n), std::vector<std::uint8_t>(graph.slots.size(), kNoPath));
    for (int target = 0; target < n; ++target) {
        std::vector<int> distance(std::size_t(n), -1);
        distance[std::size_t(target)] = 0;
        std::deque<int> queue{target};
        while (!queue.empty()) {
            const int sw = queue.front();
            queue.pop_front();
            for (int p = 1; p <= graph.switches[std::size_t(sw)].portCount; ++p) {
                const SwitchGraph::Slot &slot = graph.slot(sw, p);
                if (slot.remote == SwitchGraph::Remote::Switch && distance[std::size_t(slot.index)] < 0) {
                    distance[std::size_t(slot.index)] = distance[std::size_t(sw)] + 1;
                    queue.push_back(slot.index);
                }
            }
        }
        setHops(graph, hops[std::size_t(target)], target, 0, 0);
        for (int sw = 0; sw < n; ++sw) {
            for (int p = 1; p <= graph.switches[std::size_t(sw)].portCount; ++p) {
                const SwitchGraph::Slot &slot = graph.slot(sw, p);
                if (slot.remote != SwitchGraph::Remote::Switch || slot.index == sw)
                    continue;
                const int d = distance[std::size_t(slot.index)];
                if (d >= 0 && d + 1 < kNoPath)
                    setHops(graph, hops[std::size_t(target)], sw, p, std::uint8_t(d + 1));
            }
        }
    }
    return hops;
}

// OpenSM's updn_bfs_by_node from every switch, given the engine's ranks.
HopMatrix referenceUpDown(const SwitchGraph &graph, const std::vector<std::uint32_t> &ranks)
{
    auto up = [&](int from, int to) {
        const std::uint32_t a = ranks[std::size_t(from)], b = ranks[std::size_t(to)];
        if (a == 0 && b == 0)
            return true;
        if (a != b)
            return a > b;
        return graph.switches[std::size_t(from)].guid > graph.switches[std::size_t(to)].guid;
    };
    const int n = int(graph.switches.size());
    HopMatrix hops(std::size_t(n), std::vector<std::uint8_t>(graph.slots.size(), kNoPath));
    std::vector<bool> down(std::size_t(n), false), queued(std::size_t(n), false);
    for (int target = 0; target < n; ++target) {
        std::vector<std::uint8_t> &row = hops[std::size_t(target)];
        setHops(graph, row, target, 0, 0);
        down[std::size_t(target)] = false;
        std::deque<int> queue{target};
        while (!queue.empty()) {
            const int sw = queue.front();
            queue.pop_front();
            queued[std::size_t(sw)] = false;
            for (int p = 1; p <= graph.switches[std::size_t(sw)].portCount; ++p) {
                const SwitchGraph::Slot &slot = graph.slot(sw, p);
                if (slot.remote != SwitchGraph::Remote::Switch)
                    continue;
                const bool goesUp = up(sw, slot.index);
                if (down[std::size_t(sw)] && goesUp)
                    continue;
                const int candidate = row[std::size_t(graph.switches[std::size_t(sw)].firstSlot)] + 1;
                const std::size_t far = std::size_t(graph.switches[std::size_t(slot.index)].firstSlot + slot.remotePort);
                if (candidate < row[far]) {
                    setHops(graph, row, slot.index, slot.remotePort, std::uint8_t(candidate));
                    if (!queued[std::size_t(slot.index)]) {
                        down[std::size_t(slot.index)] = !goesUp;
                        queued[std::size_t(slot.index)] = true;
                        queue.push_back(slot.index);
                    }
                }
            }
        }
    }
    return hops;
}

// For every destination in OpenSM's order and every switch, the lowest-numbered least-hop port
// among the least loaded, by looking at every port.
std::vector<std::vector<std::uint8_t>> referenceTables(const SwitchGraph &graph, const HopMatrix &hops)
{
    const std::size_t n = graph.switches.size();
    std::vector<std::vector<std::uint8_t>> lfts(n, std::vector<std::uint8_t>(std::size_t(graph.maxLid) + 1, kNoPath));
    std::vector<std::uint32_t> load(graph.slots.size(), 0);
    for (const routing::Destination &to : routing::openSmDestinationOrder(graph)) {
        const Lid lid = to.isSwitch ? graph.switches[std::size_t(to.index)].lid : graph.endPorts[std::size_t(to.index)].lid;
        if (lid == 0)
            continue;
        for (std::size_t s = 0; s < n; ++s) {
            const int sw = int(s);
            std::uint8_t port = kNoPath;
            int base = to.isSwitch ? to.index : -1;
            if (!to.isSwitch) {
                const SwitchGraph::EndPort &end = graph.endPorts[std::size_t(to.index)];
                if (end.remote == SwitchGraph::Remote::Switch)
                    base = end.remoteIndex;
                if (base == sw)
                    port = end.remotePort;
            } else if (base == sw) {
                port = 0;
            }
            if (base >= 0 && base != sw) {
                const std::vector<std::uint8_t> &row = hops[std::size_t(base)];
                const int first = graph.switches[s].firstSlot;
                const std::uint8_t least = row[std::size_t(first)];
                std::uint32_t best = std::numeric_limits<std::uint32_t>::max();
                for (int p = 1; least != kNoPath && p <= graph.switches[s].portCount; ++p) {
                    if (row[std::size_t(first + p)] != least || graph.slot(sw, p).remote == SwitchGraph::Remote::None)
                        continue;
                    if (load[std::size_t(first + p)] < best) {
                        best = load[std::size_t(first + p)];
                        port = std::uint8_t(p);
                    }
                }
            }
            lfts[s][lid] = port;
            if (port != kNoPath && !to.isSwitch)
                ++load[std::size_t(graph.switches[s].firstSlot + port)];
        }
    }
    return lfts;
}

// Every entry of every switch, LID 0 to the fabric's highest.
bool sameTables(const SwitchGraph &graph, const ForwardingTables &tables, const std::vector<std::vector<std::uint8_t>> &expected)
{
    for (std::size_t s = 0; s < graph.switches.size(); ++s) {
        const SwitchForwardingTable *sw = tables.find(graph.switches[s].guid);
        if (!sw)
            return false;
        for (Lid lid = 0; lid <= graph.maxLid; ++lid) {
            if (sw->lft.port(lid) != expected[s][lid]) {
                qWarning("switch %zu LID %d: port %d, the reference says %d", s, int(lid), int(sw->lft.port(lid)),
                         int(expected[s][lid]));
                return false;
            }
        }
    }
    return true;
}

routing::LeastHopPorts masksOf(const SwitchGraph &graph, const HopMatrix &hops)
{
    routing::LeastHopPorts ports(graph);
    routing::HopRow row(graph);
    for (int target = 0; target < int(graph.switches.size()); ++target) {
        row.clear();
        for (int sw = 0; sw < int(graph.switches.size()); ++sw) {
            for (int p = 0; p <= graph.switches[std::size_t(sw)].portCount; ++p) {
                const std::uint8_t h = hops[std::size_t(target)][std::size_t(graph.switches[std::size_t(sw)].firstSlot + p)];
                if (h != kNoPath)
                    row.set(sw, p, h);
            }
        }
        ports.store(target, row);
    }
    return ports;
}

// A ring of five switches with a chord, two parallel cables, a loopback, and a sixth switch
// cabled to nothing but its host: irregular, with a switch nobody reaches.
Fabric irregularFabric()
{
    test::TinyFabric t;
    for (int s = 0; s < 6; ++s)
        t.addSwitch(QStringLiteral("S%1").arg(s), 8);
    for (int s = 0; s < 6; ++s) {
        for (int h = 0; h < 2; ++h) {
            const QString host = QStringLiteral("H%1_%2").arg(s).arg(h);
            t.addHost(host);
            t.cable(QStringLiteral("S%1").arg(s), 1 + h, host, 1);
        }
    }
    for (int s = 0; s < 5; ++s)
        t.cable(QStringLiteral("S%1").arg(s), 3, QStringLiteral("S%1").arg((s + 1) % 5), 4);
    t.cable(QStringLiteral("S0"), 5, QStringLiteral("S2"), 5);
    t.cable(QStringLiteral("S0"), 6, QStringLiteral("S2"), 6);
    t.cable(QStringLiteral("S3"), 7, QStringLiteral("S3"), 8);
    return t.build();
}

}  // namespace

class TestRoutingMinHop : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sameAsReference_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<int>("radix");
        QTest::addColumn<int>("levels");
        QTest::addColumn<int>("removeLinks");
        for (const char *engine : {"minhop", "updn"}) {
            QTest::addRow("%s radix 12, 3 levels, 20 links removed", engine) << engine << 12 << 3 << 20;
            QTest::addRow("%s radix 12, 3 levels, 60 links removed", engine) << engine << 12 << 3 << 60;
            QTest::addRow("%s radix 8, 3 levels", engine) << engine << 8 << 3 << 0;
            // 80 ports: masks of two words.
            QTest::addRow("%s radix 80, 2 levels, 200 links removed", engine) << engine << 80 << 2 << 200;
        }
        QTest::addRow("minhop irregular") << "minhop" << 0 << 0 << 0;
    }

    void sameAsReference()
    {
        QFETCH(QString, engine);
        QFETCH(int, radix);
        QFETCH(int, levels);
        QFETCH(int, removeLinks);
        const Fabric fabric =
            radix == 0 ? irregularFabric()
                       : test::generate({FabricShapeKind::SwitchRadix, radix, levels, removeLinks}, 7).fabric;
        Result<SwitchGraph> built = routing::buildRoutableGraph(fabric, engine);
        QVERIFY(built.ok());
        const SwitchGraph &graph = *built;

        HopMatrix hops;
        if (engine == QLatin1String("updn")) {
            UpDownEngine updn;
            QVERIFY(updn.prepare(fabric, {}, {}).ok());
            hops = referenceUpDown(graph, updn.ranks());
        } else {
            hops = referenceMinHop(graph);
        }
        const std::vector<std::vector<std::uint8_t>> expected = referenceTables(graph, hops);

        // The engine as users run it.
        const Result<Routing> routed = routeFabric(engine, fabric, {});
        QVERIFY(routed.ok());
        QVERIFY(sameTables(graph, routed->tables, expected));

        // The pick from masks of the reference's hop counts, on 1, 2 and 3 threads.
        const routing::LeastHopPorts ports = masksOf(graph, hops);
        for (int threads : {1, 2, 3}) {
            const Result<ForwardingTables> tables = routing::buildLeastLoadedLfts(graph, ports, threads, engine, {});
            QVERIFY(tables.ok());
            QVERIFY2(sameTables(graph, *tables, expected), qPrintable(QStringLiteral("%1 threads").arg(threads)));
        }

        if (engine == QLatin1String("minhop")) {
            // Both ways of finding least-hop ports (all distances at once, or one target's
            // counts at a time) agree with the reference on every mask, for any thread count.
            routing::MinHopSearch search(graph);
            routing::LeastHopPorts perTarget(graph);
            for (int target = 0; target < int(graph.switches.size()); ++target) {
                search.run(target);
                search.storeMasks(perTarget);
            }
            for (int threads : {1, 2}) {
                routing::LeastHopPorts allPairs(graph);
                QVERIFY(routing::fillMinHopPorts(graph, threads, {}, allPairs));
                for (int sw = 0; sw < int(graph.switches.size()); ++sw) {
                    for (int target = 0; target < int(graph.switches.size()); ++target) {
                        if (sw == target)
                            continue;  // never asked: a switch routes to itself through port 0
                        for (int w = 0; w < ports.words(); ++w) {
                            QCOMPARE(allPairs.mask(sw, target)[w], ports.mask(sw, target)[w]);
                            QCOMPARE(perTarget.mask(sw, target)[w], ports.mask(sw, target)[w]);
                        }
                    }
                }
            }
        }
    }

    void irregularFabricIsIrregular()
    {
        // The fabric above is what its name says: the lone switch has no route to the others,
        // and minhop leaves those entries empty.
        const Fabric fabric = irregularFabric();
        Result<SwitchGraph> built = routing::buildRoutableGraph(fabric, QStringLiteral("minhop"));
        QVERIFY(built.ok());
        const Result<Routing> routed = routeFabric(QStringLiteral("minhop"), fabric, {});
        QVERIFY(routed.ok());
        const SwitchForwardingTable *lone = routed->tables.find(built->switches[5].guid);
        QVERIFY(lone);
        QCOMPARE(lone->lft.port(built->switches[0].lid), kNoRoute);
        QCOMPARE(lone->lft.port(built->switches[5].lid), std::uint8_t(0));
    }

    void cancelledOnAnyThread()
    {
        const Fabric fabric = test::generate({FabricShapeKind::SwitchRadix, 12, 3, 0}).fabric;
        Result<SwitchGraph> built = routing::buildRoutableGraph(fabric, QStringLiteral("minhop"));
        QVERIFY(built.ok());
        routing::LeastHopPorts ports(*built);
        QVERIFY(routing::fillMinHopPorts(*built, 2, {}, ports));
        // Refused at the first report, whichever it is: the calling thread may get any share of
        // the switches (none, on a loaded machine), and the last report comes after them all.
        int calls = 0;
        const Result<ForwardingTables> cancelled =
            routing::buildLeastLoadedLfts(*built, ports, 2, QStringLiteral("minhop"), [&](int, int) {
                ++calls;
                return false;
            });
        QVERIFY(!cancelled.ok());
        QVERIFY(calls >= 1);
        QCOMPARE(cancelled.error().message, QStringLiteral("minhop routing cancelled"));
    }
};

QTEST_GUILESS_MAIN(TestRoutingMinHop)
#include "tst_routing_minhop.moc"
