// Routing engines on generated fabrics: every switch reaches every CA LID without loops,
// fat-tree and up/down routes never turn from down to up, routing is byte-for-byte
// deterministic, ftree balances a full tree exactly, and engines refuse what they cannot route
// with a reason. (Equality with the real OpenSM is tst_lab_routing's job.)

#include "FabricGenerator.h"
#include "GeneratedFabrics.h"
#include "FatTreeEngine.h"
#include "LftDump.h"
#include "TopologyFile.h"
#include "RoutingEngine.h"
#include "UpDownEngine.h"

#include <QtTest>

#include <map>
#include <set>

using namespace weft;

namespace {

using test::Shape;

GeneratedFabric generate(const Shape &shape)
{
    return test::generate(shape, 5);
}

// Per NodeIndex, the LFT of that switch (nullptr for CAs).
std::vector<const LinearForwardingTable *> tablesByNode(const Fabric &fabric, const ForwardingTables &tables)
{
    std::vector<const LinearForwardingTable *> byNode(fabric.nodes().size(), nullptr);
    for (NodeIndex n : fabric.switches()) {
        const SwitchForwardingTable *sw = tables.find(fabric.node(n).guid);
        byNode[std::size_t(n)] = sw ? &sw->lft : nullptr;
    }
    return byNode;
}

// Follows the tables from `from` towards `lid`. Returns the switches visited (from first) or
// an empty vector and a reason.
std::vector<NodeIndex> walk(const Fabric &fabric, const std::vector<const LinearForwardingTable *> &lfts,
                            NodeIndex from, Lid lid, QString *why)
{
    const PortIndex owner = fabric.portByLid(lid);
    std::vector<NodeIndex> path{from};
    NodeIndex at = from;
    for (std::size_t step = 0; step <= fabric.switches().size(); ++step) {
        const LinearForwardingTable *lft = lfts[std::size_t(at)];
        if (!lft) {
            *why = QStringLiteral("no table for %1").arg(fabric.node(at).description);
            return {};
        }
        const std::uint8_t out = lft->port(lid);
        if (out == kNoRoute) {
            *why = QStringLiteral("%1 has no route to LID %2").arg(fabric.node(at).description).arg(lid);
            return {};
        }
        if (out == 0) {
            if (fabric.port(owner).node != at) {
                *why = QStringLiteral("%1 delivers LID %2 to itself").arg(fabric.node(at).description).arg(lid);
                return {};
            }
            return path;
        }
        const PortIndex p = fabric.portOf(at, out);
        if (p == kNoIndex || fabric.port(p).remote == kNoIndex) {
            *why = QStringLiteral("%1 sends LID %2 out of unlinked port %3").arg(fabric.node(at).description).arg(lid).arg(out);
            return {};
        }
        const PortIndex next = fabric.port(p).remote;
        const NodeIndex node = fabric.port(next).node;
        if (fabric.node(node).type != NodeType::Switch) {
            if (next != owner) {
                *why = QStringLiteral("LID %1 delivered to the wrong CA %2").arg(lid).arg(fabric.node(node).description);
                return {};
            }
            return path;
        }
        at = node;
        path.push_back(at);
    }
    *why = QStringLiteral("loop towards LID %1 from %2").arg(lid).arg(fabric.node(from).description);
    return {};
}

std::vector<Lid> caLids(const Fabric &fabric)
{
    std::vector<Lid> lids;
    for (NodeIndex n : fabric.endNodes())
        lids.push_back(fabric.nodeLid(n));
    return lids;
}

void addShapes()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("size");
    QTest::addColumn<int>("levels");
    const int kary = int(FabricShapeKind::KaryNTree);
    const int radix = int(FabricShapeKind::SwitchRadix);
    QTest::addRow("2-ary 2-tree") << kary << 2 << 2;
    QTest::addRow("4-ary 2-tree") << kary << 4 << 2;
    QTest::addRow("8-ary 2-tree") << kary << 8 << 2;
    QTest::addRow("2-ary 3-tree") << kary << 2 << 3;
    QTest::addRow("4-ary 3-tree") << kary << 4 << 3;
    QTest::addRow("3-ary 4-tree") << kary << 3 << 4;
    QTest::addRow("radix 4, 2 levels") << radix << 4 << 2;
    QTest::addRow("radix 10, 2 levels") << radix << 10 << 2;
    QTest::addRow("radix 16, 2 levels") << radix << 16 << 2;
    QTest::addRow("radix 4, 3 levels") << radix << 4 << 3;
    QTest::addRow("radix 8, 3 levels") << radix << 8 << 3;
}

}  // namespace

class TestRoutingFtree : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void registry()
    {
        QCOMPARE(routingEngineNames(), QStringList({QStringLiteral("ftree"), QStringLiteral("minhop"), QStringLiteral("updn"),
                                                 QStringLiteral("pftree"), QStringLiteral("pftree-wt"), QStringLiteral("wftree"),
                                                 QStringLiteral("sssp"), QStringLiteral("sssp2"), QStringLiteral("vswitch-ftree")}));
        for (const QString &name : routingEngineNames()) {
            std::unique_ptr<RoutingEngine> engine = makeRoutingEngine(name);
            QVERIFY(engine);
            QCOMPARE(engine->name(), name);
            QVERIFY(!engine->description().isEmpty());
        }
        QVERIFY(!makeRoutingEngine(QStringLiteral("lash")));
        const Result<Routing> unknown = routeFabric(QStringLiteral("lash"), generate({FabricShapeKind::KaryNTree, 2, 2, 0}).fabric, {});
        QVERIFY(!unknown.ok());
        QVERIFY2(unknown.error().message.contains(QStringLiteral("unknown routing engine \"lash\"")), qPrintable(unknown.error().message));
    }

    // A topology written before the SM assigned LIDs: when the hosts without a LID leave ftree too
    // few leaves, the refusal says that they have no LID and names the first, not only "not a
    // fat-tree".
    void refusalNamesHostsWithoutLid()
    {
        const Fabric full = generate({FabricShapeKind::KaryNTree, 2, 2, 0}).fabric;
        QVERIFY(routeFabric(QStringLiteral("ftree"), full, {}).ok());
        // Both hosts of one leaf lose their LIDs in the topology file.
        const NodeIndex leaf = full.switches().back();
        QString text = QString::fromUtf8(writeIbnetdiscover(full));
        QStringList hostsOfLeaf;
        for (int number = 1; number <= full.node(leaf).portCount; ++number) {
            const PortIndex p = full.portOf(leaf, number);
            const PortIndex peer = p == kNoIndex ? kNoIndex : full.port(p).remote;
            if (peer == kNoIndex || full.node(full.port(peer).node).type == NodeType::Switch)
                continue;
            hostsOfLeaf << guidText(full.node(full.port(peer).node).guid);
            text.replace(QRegularExpression(QStringLiteral("\\blid %1\\b").arg(full.port(peer).lid)), QStringLiteral("lid 0"));
        }
        QCOMPARE(hostsOfLeaf.size(), 2);
        const Result<Fabric> fabric = readTopology(text.toUtf8(), QStringLiteral("nolid.topo"));
        QVERIFY2(fabric.ok(), qPrintable(fabric.ok() ? QString() : fabric.error().toString()));
        const Result<Routing> refused = routeFabric(QStringLiteral("ftree"), *fabric, {});
        QVERIFY(!refused.ok());
        const QString why = refused.error().message;
        QVERIFY2(why.contains(QStringLiteral("2 linked CA/router port(s) have no LID")), qPrintable(why));
        QVERIFY2(why.contains(hostsOfLeaf[0]) || why.contains(hostsOfLeaf[1]), qPrintable(why));
    }

    // Every engine, pure and degraded trees: each switch reaches each CA LID, without loops,
    // and fat-tree/up-down routes never go up after going down.
    void reachableLoopFreeLegal_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("levels");
        QTest::addColumn<int>("removeLinks");
        const int kary = int(FabricShapeKind::KaryNTree);
        const int radix = int(FabricShapeKind::SwitchRadix);
        const struct
        {
            const char *name;
            int kind, size, levels, remove;
        } shapes[] = {
            {"4-ary 2-tree", kary, 4, 2, 0},       {"2-ary 3-tree", kary, 2, 3, 0},
            {"4-ary 3-tree", kary, 4, 3, 0},       {"radix 12, 2 levels", radix, 12, 2, 0},
            {"radix 8, 3 levels", radix, 8, 3, 0}, {"degraded 4-ary 2-tree", kary, 4, 2, 3},
            {"degraded 4-ary 3-tree", kary, 4, 3, 8}, {"degraded radix 8, 3 levels", radix, 8, 3, 10},
        };
        for (const QString &engine : routingEngineNames()) {
            if (engine == QLatin1String("vswitch-ftree"))
                continue;  // routes hypervisor fabrics only; tst_vswitch covers it
            for (const auto &s : shapes) {
                if (engine == QLatin1String("ftree") && s.remove > 0)
                    continue;  // refused; see refusesDegradedTrees
                QTest::addRow("%s, %s", qPrintable(engine), s.name) << engine << s.kind << s.size << s.levels << s.remove;
            }
        }
    }

    void reachableLoopFreeLegal()
    {
        QFETCH(QString, engine);
        QFETCH(int, kind);
        QFETCH(int, size);
        QFETCH(int, levels);
        QFETCH(int, removeLinks);
        const GeneratedFabric generated = generate({FabricShapeKind(kind), size, levels, removeLinks});
        const Fabric &fabric = generated.fabric;
        QCOMPARE(int(generated.removedLinks.size()), removeLinks);

        std::unique_ptr<RoutingEngine> e = makeRoutingEngine(engine);
        const Status prepared = e->prepare(fabric, {}, {});
        QVERIFY2(prepared.ok(), prepared.ok() ? "" : qPrintable(prepared.error().toString()));
        const Result<Routing> routing = e->route({});
        QVERIFY2(routing.ok(), routing.ok() ? "" : qPrintable(routing.error().toString()));
        QCOMPARE(routing->engine, engine);
        QCOMPARE(routing->tables.size(), fabric.switches().size());

        // "Up" as each deadlock-freedom argument defines it.
        std::map<NodeIndex, std::uint32_t> updnRank;
        if (auto *updn = dynamic_cast<UpDownEngine *>(e.get())) {
            QVERIFY(!updn->roots().empty());
            for (std::size_t i = 0; i < fabric.switches().size(); ++i)
                updnRank[fabric.switches()[i]] = updn->ranks()[i];
        }
        auto goesUp = [&](NodeIndex a, NodeIndex b) {
            if (engine == QLatin1String("updn")) {
                const std::uint32_t ra = updnRank[a], rb = updnRank[b];
                if (ra == 0 && rb == 0)
                    return true;
                return ra != rb ? rb < ra : fabric.node(a).guid > fabric.node(b).guid;
            }
            return generated.nodeLevel[std::size_t(b)] < generated.nodeLevel[std::size_t(a)];
        };
        // Shortest-path engines (minhop, sssp, sssp2) owe no up/down legality.
        const bool checkLegality = engine != QLatin1String("minhop") && !engine.startsWith(QLatin1String("sssp"));

        // Sources: every switch for ftree and minhop. For updn only the switches CAs hang off:
        // under up/down rules a non-root switch far from the roots (a spine that lost links)
        // may have no legal path to some CAs; such entries stay empty, as in OpenSM, and no
        // CA's traffic passes there (the walks below would fail if it did).
        std::vector<NodeIndex> sources;
        for (NodeIndex sw : fabric.switches()) {
            bool holdsCa = false;
            for (int number = 1; number <= fabric.node(sw).portCount; ++number) {
                const PortIndex p = fabric.portOf(sw, number);
                holdsCa |= fabric.port(p).remote != kNoIndex
                           && fabric.node(fabric.port(fabric.port(p).remote).node).type != NodeType::Switch;
            }
            // Engines bound to up/down rules (updn and the fat-tree engines that accept degraded
            // trees) are only required to route from CA-attached switches.
            const bool upDownOnly = engine == QLatin1String("updn") || engine.startsWith(QLatin1String("pftree"))
                                    || engine == QLatin1String("wftree");
            if (holdsCa || !upDownOnly)
                sources.push_back(sw);
        }
        const std::vector<const LinearForwardingTable *> lfts = tablesByNode(fabric, routing->tables);
        std::size_t walks = 0;
        for (NodeIndex sw : sources) {
            for (Lid lid : caLids(fabric)) {
                QString why;
                const std::vector<NodeIndex> path = walk(fabric, lfts, sw, lid, &why);
                QVERIFY2(!path.empty(), qPrintable(why));
                bool wentDown = false;
                for (std::size_t i = 1; i < path.size() && checkLegality; ++i) {
                    const bool up = goesUp(path[i - 1], path[i]);
                    QVERIFY2(!(wentDown && up), qPrintable(QStringLiteral("LID %1 from %2 goes down, then up at %3")
                                                               .arg(lid).arg(fabric.node(sw).description, fabric.node(path[i]).description)));
                    wentDown |= !up;
                }
                ++walks;
            }
        }
        QCOMPARE(walks, sources.size() * fabric.endNodes().size());
        QVERIFY(!sources.empty());
    }

    // The same input gives byte-identical tables, from a fresh engine or a second route().
    void deterministic_data()
    {
        QTest::addColumn<QString>("engine");
        for (const QString &engine : routingEngineNames()) {
            if (engine != QLatin1String("vswitch-ftree"))  // hypervisor fabrics only; tst_vswitch covers it
                QTest::addRow("%s", qPrintable(engine)) << engine;
        }
    }

    void deterministic()
    {
        QFETCH(QString, engine);
        const GeneratedFabric generated = generate({FabricShapeKind::SwitchRadix, 8, 3, 0});
        std::unique_ptr<RoutingEngine> e = makeRoutingEngine(engine);
        QVERIFY(e->prepare(generated.fabric, {}, {}).ok());
        const Result<Routing> first = e->route({});
        const Result<Routing> again = e->route({});
        const Result<Routing> fresh = routeFabric(engine, generated.fabric, {});
        QVERIFY(first.ok() && again.ok() && fresh.ok());
        const QByteArray bytes = writeLftDump(first->tables, &generated.fabric);
        QVERIFY(bytes.size() > 1000);
        QCOMPARE(writeLftDump(again->tables, &generated.fabric), bytes);
        QCOMPARE(writeLftDump(fresh->tables, &generated.fabric), bytes);
    }

    // On a full tree, OpenSM's counters spread the CA destinations evenly: all up-going ports
    // of one level carry the same number of CA LIDs, and so do all down-going ports.
    void ftreeBalancesFullTrees_data() { addShapes(); }

    void ftreeBalancesFullTrees()
    {
        QFETCH(int, kind);
        QFETCH(int, size);
        QFETCH(int, levels);
        const GeneratedFabric generated = generate({FabricShapeKind(kind), size, levels, 0});
        const Fabric &fabric = generated.fabric;
        const Result<Routing> routing = routeFabric(QStringLiteral("ftree"), fabric, {});
        QVERIFY2(routing.ok(), routing.ok() ? "" : qPrintable(routing.error().toString()));

        const std::vector<Lid> lids = caLids(fabric);
        // (level, up?) -> CA LIDs routed per inter-switch port
        std::map<std::pair<int, bool>, std::set<std::size_t>> counts;
        for (NodeIndex sw : fabric.switches()) {
            const LinearForwardingTable &lft = routing->tables.find(fabric.node(sw).guid)->lft;
            std::map<int, std::size_t> perPort;
            for (Lid lid : lids)
                ++perPort[lft.port(lid)];
            const int level = generated.nodeLevel[std::size_t(sw)];
            for (int number = 1; number <= fabric.node(sw).portCount; ++number) {
                const PortIndex p = fabric.portOf(sw, number);
                if (fabric.port(p).remote == kNoIndex)
                    continue;
                const NodeIndex far = fabric.port(fabric.port(p).remote).node;
                if (fabric.node(far).type != NodeType::Switch)
                    continue;
                const bool up = generated.nodeLevel[std::size_t(far)] < level;
                counts[{level, up}].insert(perPort[number]);
            }
        }
        QVERIFY(!counts.empty());
        for (const auto &[key, values] : counts) {
            QVERIFY2(values.size() == 1, qPrintable(QStringLiteral("level %1 %2 ports carry %3 different route counts")
                                                        .arg(key.first).arg(key.second ? QStringLiteral("up") : QStringLiteral("down"))
                                                        .arg(values.size())));
            QVERIFY(*values.begin() > 0);
        }
        // Up-going ports of the leaves carry the CA LIDs of all other leaves, split evenly.
        const std::size_t leafLevel = std::size_t(levels - 1);
        const std::size_t leafHosts = std::size_t(generated.xgft.children.back());
        // XGFT: a level-i node has w_i parents; leaves are level h-1.
        const std::size_t leafUplinks = std::size_t(generated.xgft.parents[std::size_t(levels) - 2]);
        const std::size_t leafUpCount = *counts[std::make_pair(int(leafLevel), true)].begin();
        QCOMPARE(leafUpCount, (lids.size() - leafHosts) / leafUplinks);
    }

    void ftreeIndexesLikeOpenSm()
    {
        // Leaves are routed in index order from the first leaf in OpenSM's switch order; on a
        // generated tree with fewer than 256 switches that is the generator's leaf order.
        const GeneratedFabric generated = generate({FabricShapeKind::KaryNTree, 4, 3, 0});
        FatTreeEngine engine;
        QVERIFY(engine.prepare(generated.fabric, {}, {}).ok());
        const std::vector<int> ranks = engine.switchRanks();
        QCOMPARE(ranks.size(), generated.fabric.switches().size());
        std::vector<Guid> leaves;
        for (std::size_t i = 0; i < ranks.size(); ++i) {
            const NodeIndex n = generated.fabric.switches()[i];
            QCOMPARE(ranks[i], generated.nodeLevel[std::size_t(n)]);
            if (ranks[i] == 2)
                leaves.push_back(generated.fabric.node(n).guid);
        }
        QCOMPARE(engine.leafOrder(), leaves);
    }

    void refusesDegradedTrees_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("levels");
        QTest::addColumn<int>("removeLinks");
        QTest::addRow("4-ary 2-tree, 1 link removed") << int(FabricShapeKind::KaryNTree) << 4 << 2 << 1;
        QTest::addRow("4-ary 3-tree, 5 links removed") << int(FabricShapeKind::KaryNTree) << 4 << 3 << 5;
        QTest::addRow("radix 8, 3 levels, 2 links removed") << int(FabricShapeKind::SwitchRadix) << 8 << 3 << 2;
    }

    void refusesDegradedTrees()
    {
        QFETCH(int, kind);
        QFETCH(int, size);
        QFETCH(int, levels);
        QFETCH(int, removeLinks);
        const GeneratedFabric generated = generate({FabricShapeKind(kind), size, levels, removeLinks});
        FatTreeEngine engine;
        const Status prepared = engine.prepare(generated.fabric, {}, {});
        QVERIFY(!prepared.ok());
        QVERIFY2(prepared.error().message.startsWith(QStringLiteral("ftree: not a pure fat-tree: switch 0x")),
                 qPrintable(prepared.error().message));
        // No partial state: route() after a refusal fails too.
        const Result<Routing> routing = engine.route({});
        QVERIFY(!routing.ok());
        QVERIFY(routing.error().message.contains(QStringLiteral("without a successful prepare()")));
    }

    void refusesWhatItCannotRoute()
    {
        // LMC > 0: OpenSM's ftree refuses it, and so does every engine here for now.
        GeneratorOptions options;
        options.arity = 2;
        options.levels = 2;
        options.lmc = 1;
        const Result<GeneratedFabric> lmc = generateFabric(options);
        QVERIFY(lmc.ok());
        const Result<Routing> ftree = routeFabric(QStringLiteral("ftree"), lmc->fabric, {});
        QVERIFY(!ftree.ok());
        QVERIFY2(ftree.error().message.contains(QStringLiteral("LMC > 0 is not supported by fat-tree routing")), qPrintable(ftree.error().message));
        QVERIFY(!routeFabric(QStringLiteral("minhop"), lmc->fabric, {}).ok());

        // No LIDs: nothing to address tables by.
        options.lmc = 0;
        options.assignLids = false;
        const Result<GeneratedFabric> noLids = generateFabric(options);
        QVERIFY(noLids.ok());
        const Result<Routing> minhop = routeFabric(QStringLiteral("minhop"), noLids->fabric, {});
        QVERIFY(!minhop.ok());
        QVERIFY2(minhop.error().message.contains(QStringLiteral("has no LID")), qPrintable(minhop.error().message));

        // One switch is not a tree.
        options.assignLids = true;
        options.shape = FabricShapeKind::Xgft;
        options.xgft = XgftShape{1, {4}, {1}};
        const Result<GeneratedFabric> single = generateFabric(options);
        QVERIFY2(single.ok(), single.ok() ? "" : qPrintable(single.error().toString()));
        const Result<Routing> one = routeFabric(QStringLiteral("ftree"), single->fabric, {});
        QVERIFY(!one.ok());
        QVERIFY2(one.error().message.contains(QStringLiteral("needs at least 2")), qPrintable(one.error().message));
        // minhop routes it.
        QVERIFY(routeFabric(QStringLiteral("minhop"), single->fabric, {}).ok());
    }

    void progressAndCancel_data()
    {
        QTest::addColumn<QString>("engine");
        for (const QString &engine : routingEngineNames()) {
            if (engine != QLatin1String("vswitch-ftree"))  // hypervisor fabrics only; tst_vswitch covers it
                QTest::addRow("%s", qPrintable(engine)) << engine;
        }
    }

    void progressAndCancel()
    {
        QFETCH(QString, engine);
        const GeneratedFabric generated = generate({FabricShapeKind::SwitchRadix, 8, 3, 0});
        std::unique_ptr<RoutingEngine> e = makeRoutingEngine(engine);
        QVERIFY(e->prepare(generated.fabric, {}, {}).ok());

        int calls = 0;
        int lastDone = -1;
        bool monotone = true;
        bool finished = false;
        RoutingOptions watching;
        watching.progress = [&](int done, int total) {
            ++calls;
            monotone &= done >= lastDone && done <= total;
            lastDone = done;
            finished |= done == total;
            return true;
        };
        QVERIFY(e->route(watching).ok());
        QVERIFY(calls > 1);
        QVERIFY(monotone);
        QVERIFY(finished);

        RoutingOptions cancelling;
        int seen = 0;
        cancelling.progress = [&](int, int) { return ++seen < 2; };
        const Result<Routing> cancelled = e->route(cancelling);
        QVERIFY(!cancelled.ok());
        QCOMPARE(cancelled.error().message, engine + QStringLiteral(" routing cancelled"));
        // The engine is still usable afterwards.
        QVERIFY(e->route({}).ok());
    }
};

QTEST_GUILESS_MAIN(TestRoutingFtree)
#include "tst_routing_ftree.moc"
