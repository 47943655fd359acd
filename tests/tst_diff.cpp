// The reconfiguration diff: LFT entries and blocks, full pushes, P_Key tables as OpenSM lays
// them out, the partitions.conf text diff, and `weft diff`.

#include "FabricGenerator.h"
#include "GeneratedFabrics.h"
#include "Partitions.h"
#include "LftDump.h"
#include "PKeyTables.h"
#include "PartitionsConf.h"
#include "ReconfigurationDiff.h"
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
};

QTEST_GUILESS_MAIN(TestDiff)
#include "tst_diff.moc"
