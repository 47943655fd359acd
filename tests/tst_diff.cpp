// The reconfiguration diff: LFT entries and blocks, full pushes, P_Key tables as OpenSM lays
// them out, the partitions.conf text diff, and `weft diff`.

#include "FabricGenerator.h"
#include "GeneratedFabrics.h"
#include "Partitions.h"
#include "LftDump.h"
#include "PKeyTables.h"
#include "PartitionsConf.h"
#include "ReconfigurationDiff.h"
#include "ReconfigurationPlan.h"
#include "SafeFile.h"
#include "TopologyFile.h"
#include "WeftRunner.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace weft;

namespace {

GeneratedFabric smallTree()
{
    return test::generate({FabricShapeKind::KaryNTree, 4, 3});  // 64 hosts: more than one LFT block
}

// Every switch routes every LID of the fabric out of port 1.
ForwardingTables uniformTables(const Fabric &fabric)
{
    ForwardingTables tables;
    for (NodeIndex n : fabric.switches()) {
        const int i = tables.addSwitch(fabric.node(n).guid, fabric.nodeLid(n));
        for (Lid lid = 1; lid <= fabric.maxLid(); ++lid)
            tables.lft(std::size_t(i)).setPort(lid, 1);
    }
    return tables;
}

Partition fullPartition(std::uint16_t pkey, const std::vector<Guid> &guids)
{
    return test::partition(QStringLiteral("p%1").arg(pkey), pkey, guids);
}

}  // namespace

class TestDiff : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void lftBlocks_data()
    {
        QTest::addColumn<QList<int>>("lids");  // LIDs whose entry changes on the first switch
        QTest::addColumn<int>("blocks");
        QTest::addRow("nothing changes") << QList<int>{} << 0;
        QTest::addRow("one entry") << QList<int>{5} << 1;
        QTest::addRow("two entries in one block") << QList<int>{5, 63} << 1;
        QTest::addRow("entries in two blocks") << QList<int>{5, 64} << 2;
        QTest::addRow("LID 0 and the last LID") << QList<int>{0, -1} << 2;
    }

    void lftBlocks()
    {
        QFETCH(QList<int>, lids);
        QFETCH(int, blocks);
        const GeneratedFabric g = smallTree();
        const Fabric &fabric = g.fabric;
        QVERIFY(fabric.maxLid() >= 64);  // so that "two blocks" is possible
        const ForwardingTables from = uniformTables(fabric);
        ForwardingTables to = from;
        for (int lid : lids)
            to.lft(0).setPort(Lid(lid < 0 ? fabric.maxLid() : lid), 2);
        const ReconfigurationDiff diff = diffForwardingTables(from, to, &fabric);
        QCOMPARE(diff.changedEntries, (long long)lids.size());
        QCOMPARE(diff.changedBlocks, (long long)blocks);
        QCOMPARE(diff.switchesTouched(), lids.isEmpty() ? 0 : 1);
        QCOMPARE(diff.switchInfoSets, 0);  // the subnet's highest LID did not move
        QCOMPARE(diff.smps(), (long long)blocks);
    }

    void fullPushSendsEveryBlock()
    {
        const GeneratedFabric g = smallTree();
        const ForwardingTables tables = uniformTables(g.fabric);
        ReconfigurationDiffOptions options;
        options.fullPush = true;
        const ReconfigurationDiff diff = diffForwardingTables(tables, tables, &g.fabric, options);
        const long long perSwitch = g.fabric.maxLid() / 64 + 1;
        QCOMPARE(diff.changedBlocks, (long long)g.fabric.switches().size() * perSwitch);
        QCOMPARE(diff.changedEntries, 0LL);
    }

    void missingSwitchLosesItsRoutes()
    {
        const GeneratedFabric g = smallTree();
        const ForwardingTables from = uniformTables(g.fabric);
        ForwardingTables to;
        for (std::size_t i = 1; i < from.size(); ++i) {
            const int k = to.addSwitch(from.at(i).guid);
            to.lft(std::size_t(k)) = from.at(i).lft;
        }
        const ReconfigurationDiff diff = diffForwardingTables(from, to, &g.fabric);
        QCOMPARE(diff.switchesTouched(), 1);
        QCOMPARE(diff.changedEntries, (long long)from.at(0).lft.routeCount());
        QCOMPARE(diff.changedBlocks, (long long)from.at(0).lft.blockCount());
    }

    void pkeyBlocks_data()
    {
        QTest::addColumn<int>("change");  // 0 same, 1 new partition, 2 member removed
        QTest::addColumn<int>("expectedBlocks");
        // A new partition of two hosts: each host's block 0 and its leaf port's block 0.
        QTest::addRow("unchanged") << 0 << 0;
        QTest::addRow("new partition of two hosts") << 1 << 4;
        QTest::addRow("one member removed") << 2 << 2;
    }

    void pkeyBlocks()
    {
        QFETCH(int, change);
        QFETCH(int, expectedBlocks);
        const GeneratedFabric g = smallTree();
        const Fabric &fabric = g.fabric;
        auto host = [&](std::size_t h) { return fabric.port(fabric.portOf(g.hosts[h], 1)).guid; };
        const std::vector<Partition> before = withExplicitDefault({fullPartition(1, {host(0), host(1), host(2)})});
        std::vector<Partition> after = before;
        if (change == 1)
            after.push_back(fullPartition(2, {host(5), host(6)}));
        if (change == 2)
            after = withExplicitDefault({fullPartition(1, {host(0), host(2)})});
        PKeyTableOptions options;
        options.smPortGuid = host(0);
        const PKeyTables held = computePKeyTables(fabric, before, options);
        const PKeyTables next = computePKeyTables(fabric, after, options, &held);
        ReconfigurationDiff diff;
        addPKeyDiff(diff, fabric, held, next);
        QCOMPARE(int(diff.pkeyBlocks.size()), expectedBlocks);

        // OpenSM's layout: 0x7fff at index 0, red's full key after it; a removed member leaves
        // its slot empty on the host and closes up on the leaf port.
        const PortIndex p1 = fabric.portOf(g.hosts[1], 1);
        QCOMPARE(int(held.find(p1)->entries[0]), 0x7fff);
        QCOMPARE(int(held.find(p1)->entries[1]), 0x8001);
        if (change == 2) {
            QCOMPARE(int(next.find(p1)->entries[1]), 0);
            QCOMPARE(int(next.find(fabric.port(p1).remote)->entries[1]), 0);
        }
        // The SM port is a full member of Default.
        QCOMPARE(int(held.find(fabric.portOf(g.hosts[0], 1))->entries[0]), 0xffff);
    }

    // P_Key tables given for the proposal are compared as they are, not recomputed; a port the
    // current tables have and the proposed lack is emptied, block by block.
    void proposedPKeyTablesAreComparedAsGiven()
    {
        const GeneratedFabric g = smallTree();
        const Fabric &fabric = g.fabric;
        auto host = [&](std::size_t h) { return fabric.port(fabric.portOf(g.hosts[h], 1)).guid; };
        PKeyTableOptions options;
        options.smPortGuid = host(0);
        ReconfigurationRequest request;
        request.pkeys = options;
        request.currentPartitions.partitions = {fullPartition(1, {host(0), host(1)})};
        const PKeyTables held = computePKeyTables(fabric, withExplicitDefault(request.currentPartitions.partitions), options);
        request.currentPKeys = held;
        request.proposedPartitions = request.currentPartitions;
        const ForwardingTables lfts = uniformTables(fabric);

        request.proposedPKeys = held;
        ReconfigurationPlan plan = planReconfiguration(fabric, lfts, lfts, request);
        QCOMPARE(plan.diff.pkeyBlocks.size(), std::size_t(0));

        // Host 1's table emptied by hand (what a partitions.conf could never ask: Default gone
        // too), and host 2's left out: both are sent an empty block 0, nothing else changes.
        std::vector<PortPKeyTable> ports;
        const PortIndex host1 = fabric.portOf(g.hosts[1], 1);
        const PortIndex host2 = fabric.portOf(g.hosts[2], 1);
        for (PortPKeyTable t : held.ports()) {
            if (t.port == host2)
                continue;
            if (t.port == host1)
                std::fill(t.entries.begin(), t.entries.end(), 0);
            ports.push_back(std::move(t));
        }
        request.proposedPKeys = PKeyTables::fromPorts(ports);
        plan = planReconfiguration(fabric, lfts, lfts, request);
        QCOMPARE(plan.diff.pkeyBlocks.size(), std::size_t(2));
        for (const PKeyBlockChange &change : plan.diff.pkeyBlocks) {
            QCOMPARE(change.block, 0);
            QVERIFY(std::all_of(change.to.begin(), change.to.end(), [](std::uint16_t k) { return k == 0; }));
        }
        QVERIFY(plan.plannedPKeys.find(host2));
        QCOMPARE(plan.plannedPKeys.find(host2)->entries, std::vector<std::uint16_t>(kPKeyBlockSize, 0));
    }

    void unifiedDiffOfTexts()
    {
        QCOMPARE(unifiedDiff("a\nb\n", "a\nb\n", QStringLiteral("x"), QStringLiteral("y")), QString());
        const QString d = unifiedDiff("a\nb\nc\n", "a\nB\nc\nd\n", QStringLiteral("x"), QStringLiteral("y"));
        QVERIFY2(d.startsWith(QStringLiteral("--- x\n+++ y\n@@ -1,3 +1,4 @@\n")), qPrintable(d));
        QVERIFY(d.contains(QStringLiteral("\n-b\n+B\n")));
        QVERIFY(d.contains(QStringLiteral("\n+d\n")));
        QVERIFY(d.contains(QStringLiteral("\n a\n")));
    }

    void commandLine()
    {
        const GeneratedFabric g = smallTree();
        const Fabric &fabric = g.fabric;
        QTemporaryDir dir;
        const QString topo = dir.filePath(QStringLiteral("t.topo"));
        const QString a = dir.filePath(QStringLiteral("a.lfts"));
        const QString b = dir.filePath(QStringLiteral("b.lfts"));
        const QString pa = dir.filePath(QStringLiteral("a.conf"));
        const QString pb = dir.filePath(QStringLiteral("b.conf"));
        const ForwardingTables from = uniformTables(fabric);
        ForwardingTables to = from;
        to.lft(1).setPort(3, 2);
        to.lft(1).setPort(70, 2);
        auto host = [&](std::size_t h) { return fabric.port(fabric.portOf(g.hosts[h], 1)).guid; };
        QVERIFY(writeFileAtomically(topo, writeIbnetdiscover(fabric)).ok());
        QVERIFY(writeFileAtomically(a, writeLftDump(from, &fabric)).ok());
        QVERIFY(writeFileAtomically(b, writeLftDump(to, &fabric)).ok());
        QVERIFY(writeFileAtomically(pa, writePartitionsConf(withExplicitDefault({}))).ok());
        QVERIFY(writeFileAtomically(pb, writePartitionsConf(withExplicitDefault({fullPartition(3, {host(2)})}))).ok());
        const test::Run run = test::runWeft({QStringLiteral("diff"), QStringLiteral("--json"), QStringLiteral("--topology"), topo,
                                             QStringLiteral("--from"), a, QStringLiteral("--to"), b,
                                             QStringLiteral("--partitions-from"), pa, QStringLiteral("--partitions-to"), pb});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(o.value(QStringLiteral("changed_entries")).toInt(), 2);
        QCOMPARE(o.value(QStringLiteral("changed_blocks")).toInt(), 2);
        QCOMPARE(o.value(QStringLiteral("switches_touched")).toInt(), 1);
        QCOMPARE(o.value(QStringLiteral("pkey_block_sets")).toInt(), 2);  // host 2 and its leaf port
        QCOMPARE(o.value(QStringLiteral("smps")).toInt(), 4);
        QVERIFY(o.value(QStringLiteral("partitions_diff")).toString().contains(QStringLiteral("+")));

        const test::Run bad = test::runWeft({QStringLiteral("diff"), QStringLiteral("--topology"), topo, QStringLiteral("--from"), a});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(bad.err.contains("--to is required"));
    }

    // `weft diff` with P_Key tables (weft discover --pkeys) on either side, or on both: the
    // fixtures are the tables OpenSM programs for 2sw4hca-tenants.conf and, moving on, for
    // 2sw4hca-moved.conf (Hca3 leaves TenantA and becomes a full member of TenantB), with OpenSM
    // on Hca1's port.
    void commandLineWithPKeyTables_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<int>("pkeyBlocks");
        QTest::addColumn<QString>("partitionsDiff");  // a line the partitions.conf diff holds
        // Hca3 and the leaf port facing it: one block each.
        const QString tables = QStringLiteral("2sw4hca.pkeys");
        const QString moved = QStringLiteral("2sw4hca-moved.pkeys");
        const QString conf = QStringLiteral("2sw4hca-tenants.conf");
        QTest::addRow("tables to tables") << tables << moved << 2 << QStringLiteral("+    0x0000000000100007=full,");
        QTest::addRow("the same tables") << tables << tables << 0 << QString();
        // OpenSM moving on from the tables to a partitions.conf: what it programs is the other fixture.
        QTest::addRow("tables to partitions.conf") << tables << QStringLiteral("2sw4hca-moved.conf") << 2
                                                   << QStringLiteral("+# 2sw4hca-tenants.conf with Hca3 moved into TenantB as a full member.");
        // The tables are what OpenSM programs for that file: nothing to send. The tables' side,
        // written by Weft, shows the Default OpenSM adds.
        QTest::addRow("partitions.conf to its tables") << conf << tables << 0 << QStringLiteral("+Default=0x7fff :");
        QTest::addRow("partitions.conf to other tables") << conf << moved << 2
                                                         << QStringLiteral("+++ %1 (the partitions its P_Key tables hold)").arg(QFINDTESTDATA("data/pkeys/2sw4hca-moved.pkeys"));
    }

    void commandLineWithPKeyTables()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(int, pkeyBlocks);
        QFETCH(QString, partitionsDiff);
        const QString topo = QFINDTESTDATA("data/topology/ibnetdiscover-2sw4hca.txt");
        const QString lfts = QFINDTESTDATA("data/lfts/dump_lfts.txt");
        const test::Run run = test::runWeft({QStringLiteral("diff"), QStringLiteral("--json"), QStringLiteral("--topology"), topo,
                                             QStringLiteral("--from"), lfts, QStringLiteral("--to"), lfts,
                                             QStringLiteral("--partitions-from"), QFINDTESTDATA(QStringLiteral("data/pkeys/") + from),
                                             QStringLiteral("--partitions-to"), QFINDTESTDATA(QStringLiteral("data/pkeys/") + to),
                                             QStringLiteral("--sm-port"), QStringLiteral("0x0000000000100001")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(o.value(QStringLiteral("changed_entries")).toInt(), 0);
        QCOMPARE(o.value(QStringLiteral("pkey_block_sets")).toInt(), pkeyBlocks);
        QCOMPARE(o.value(QStringLiteral("smps")).toInt(), pkeyBlocks);
        const QString text = o.value(QStringLiteral("partitions_diff")).toString();
        if (partitionsDiff.isEmpty())
            QVERIFY2(text.isEmpty(), qPrintable(text));
        else
            QVERIFY2(text.contains(partitionsDiff), qPrintable(text));
        // Against a partitions.conf the tables' partitions take its names for their P_Keys.
        if (from.endsWith(QLatin1String(".conf")) || to.endsWith(QLatin1String(".conf")))
            QVERIFY2(!text.contains(QStringLiteral("pkey-0x")), qPrintable(text));
    }

    void commandLineRefusesPortsTheTopologyLacks()
    {
        QTemporaryDir dir;
        const QString pkeys = dir.filePath(QStringLiteral("other.pkeys"));
        QVERIFY(writeFileAtomically(pkeys, "0x0000000000100004 1 \"Hca2\" 0:0x7fff\n0x00000000000000ee 2 \"gone\" 0:0x7fff\n").ok());
        const QString lfts = QFINDTESTDATA("data/lfts/dump_lfts.txt");
        const test::Run run = test::runWeft({QStringLiteral("diff"), QStringLiteral("--topology"), QFINDTESTDATA("data/topology/ibnetdiscover-2sw4hca.txt"),
                                             QStringLiteral("--from"), lfts, QStringLiteral("--to"), lfts,
                                             QStringLiteral("--partitions-from"), QFINDTESTDATA("data/pkeys/2sw4hca.pkeys"),
                                             QStringLiteral("--partitions-to"), pkeys});
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(QString::fromUtf8(run.err).trimmed(), QStringLiteral("weft diff: %1:2: no port or node with GUID 0x00000000000000ee in the fabric").arg(pkeys));
        QVERIFY(run.out.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestDiff)
#include "tst_diff.moc"
