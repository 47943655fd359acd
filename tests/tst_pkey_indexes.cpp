// Which index OpenSM 3.3.23 gives each P_Key on a port as partitions change, as computePKeyTables
// predicts it: hosts moved between tenants, a host removed, a partition added and deleted. Each
// expected table is worked out by hand from OpenSM's rule (PKeyTables.h), step by step, and the
// comments say which part of the rule decides each index.

#include "PKeyIndexMemory.h"
#include "PKeyTables.h"
#include "Partitions.h"
#include "TopologyFile.h"

#include <QCoreApplication>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace weft;

namespace {

constexpr Guid kHca1Port = 0x100001;  // OpenSM's port
constexpr Guid kHca2Port = 0x100004;
constexpr Guid kHca3Port = 0x100007;
constexpr Guid kHca4Port = 0x10000a;

Fabric fabricOfTwoSwitches()
{
    Result<Fabric> fabric = readTopologyFile(QFINDTESTDATA("data/topology/ibnetdiscover-2sw4hca.txt"));
    if (!fabric)
        qFatal("test fabric: %s", qPrintable(fabric.error().toString()));
    return std::move(fabric).value();
}

PKeyTableOptions smOnHca1()
{
    PKeyTableOptions options;
    options.smPortGuid = kHca1Port;
    return options;
}

// A port's table as the model writes it: whole 32-entry blocks.
std::vector<std::uint16_t> entries(std::vector<std::uint16_t> e)
{
    e.resize(std::max<std::size_t>(1, (e.size() + kPKeyBlockSize - 1) / kPKeyBlockSize) * kPKeyBlockSize, 0);
    return e;
}

std::vector<std::uint16_t> tableOf(const Fabric &fabric, const PKeyTables &tables, Guid port)
{
    const PortPKeyTable *t = tables.find(fabric.portByGuid(port));
    return t ? t->entries : std::vector<std::uint16_t>{};
}

using test::partition;

}  // namespace

class TestPKeyIndexes : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Two tenants, then a host moved to the other and back, made limited, removed, put in a new
    // partition, and that partition deleted.
    void tenantMovesKeepOpenSmsIndices()
    {
        const Fabric fabric = fabricOfTwoSwitches();
        const PKeyTableOptions options = smOnHca1();

        // 0. red 0x0001 {Hca2, Hca3}, blue 0x0002 {Hca4} on a fresh fabric. Every P_Key is new:
        //    the default P_Key takes index 0, the first other P_Key index 1.
        PKeyTables held = computePKeyTables(fabric, {partition(QStringLiteral("red"), 0x0001, {kHca2Port, kHca3Port}),
                                                     partition(QStringLiteral("blue"), 0x0002, {kHca4Port})}, options);
        QCOMPARE(tableOf(fabric, held, kHca2Port), entries({0x7fff, 0x8001}));
        QCOMPARE(tableOf(fabric, held, kHca3Port), entries({0x7fff, 0x8001}));
        QCOMPARE(tableOf(fabric, held, kHca4Port), entries({0x7fff, 0x8002}));
        QCOMPARE(tableOf(fabric, held, kHca1Port), entries({0xffff}));  // the SM's port: full member of Default

        // 1. Hca3 moved to blue. 0x8002 is new to Hca3: it goes after the highest index OpenSM
        //    has handed out on that port (1), so to 2; 0x8001's index is written 0 but stays
        //    remembered.
        held = computePKeyTables(fabric, {partition(QStringLiteral("red"), 0x0001, {kHca2Port}),
                                          partition(QStringLiteral("blue"), 0x0002, {kHca3Port, kHca4Port})}, options, &held);
        QCOMPARE(tableOf(fabric, held, kHca3Port), entries({0x7fff, 0x0000, 0x8002}));
        QCOMPARE(tableOf(fabric, held, kHca2Port), entries({0x7fff, 0x8001}));
        const PKeyTables afterMove = held;

        // 2. Hca3 moved back to red. The port no longer holds 0x8001, but OpenSM remembers it
        //    at index 1 and puts it back there (not after the highest index, 3); 0x8002's
        //    index 2 is written 0.
        const std::vector<Partition> movedBack = {partition(QStringLiteral("red"), 0x0001, {kHca2Port, kHca3Port}),
                                                  partition(QStringLiteral("blue"), 0x0002, {kHca4Port})};
        held = computePKeyTables(fabric, movedBack, options, &held);
        QCOMPARE(tableOf(fabric, held, kHca3Port), entries({0x7fff, 0x8001, 0x0000}));

        //    Without that memory (a table only read from the fabric) the model can only take
        //    what the port holds as all OpenSM remembers, and puts 0x8001 after 0x8002: what
        //    the lab's rollback saw ("index 1 is 0x8001, expected 0x0000") came from that.
        std::vector<PortPKeyTable> readBack = afterMove.ports();
        for (PortPKeyTable &t : readBack)
            t.remembered.reset();
        const PKeyTables read = PKeyTables::fromPorts(readBack);
        QCOMPARE(tableOf(fabric, computePKeyTables(fabric, movedBack, options, &read), kHca3Port),
                 entries({0x7fff, 0x0000, 0x0000, 0x8001}));

        // 3. Hca3 a limited member of red. The port holds P_Key 1 (full) at index 1: it is
        //    updated where it is, only the membership bit changes. OpenSM now also remembers
        //    0x0001 at index 1, beside 0x8001.
        held = computePKeyTables(fabric, {partition(QStringLiteral("red"), 0x0001, {kHca2Port}, IsolationPolicy::Default, {kHca3Port}),
                                          partition(QStringLiteral("blue"), 0x0002, {kHca4Port})}, options, &held);
        QCOMPARE(tableOf(fabric, held, kHca3Port), entries({0x7fff, 0x0001}));
        const PortPKeyTable *hca3 = held.find(fabric.portByGuid(kHca3Port));
        QVERIFY(hca3 && hca3->remembered);
        const std::map<std::uint16_t, int> remembered{{0x0001, 1}, {0x7fff, 0}, {0x8001, 1}, {0x8002, 2}};
        QCOMPARE(*hca3->remembered, remembered);

        // 4. Hca3 removed from red: only the default P_Key is left; index 1 is written 0.
        const auto hca3Out = std::vector<Partition>{partition(QStringLiteral("red"), 0x0001, {kHca2Port}),
                                                    partition(QStringLiteral("blue"), 0x0002, {kHca4Port})};
        held = computePKeyTables(fabric, hca3Out, options, &held);
        QCOMPARE(tableOf(fabric, held, kHca3Port), entries({0x7fff}));

        // 5. A partition added, green 0x0003 {Hca3, Hca4}. New to both ports, so after the
        //    highest index handed out on each: 3 on Hca3 (2 was 0x8002's), 2 on Hca4.
        held = computePKeyTables(fabric, {partition(QStringLiteral("red"), 0x0001, {kHca2Port}),
                                          partition(QStringLiteral("blue"), 0x0002, {kHca4Port}),
                                          partition(QStringLiteral("green"), 0x0003, {kHca3Port, kHca4Port})}, options, &held);
        QCOMPARE(tableOf(fabric, held, kHca3Port), entries({0x7fff, 0x0000, 0x0000, 0x8003}));
        QCOMPARE(tableOf(fabric, held, kHca4Port), entries({0x7fff, 0x8002, 0x8003}));

        // 6. green and blue deleted, Hca3 and Hca4 full members of red. Hca3 gets 0x8001 back at
        //    its remembered index 1; Hca4 never held P_Key 1, so it goes after its highest index
        //    (2, green's): 3. The switch port facing Hca4 gets Hca4's entries packed.
        held = computePKeyTables(fabric, {partition(QStringLiteral("red"), 0x0001, {kHca2Port, kHca3Port, kHca4Port})}, options, &held);
        QCOMPARE(tableOf(fabric, held, kHca3Port), entries({0x7fff, 0x8001}));
        QCOMPARE(tableOf(fabric, held, kHca4Port), entries({0x7fff, 0x0000, 0x0000, 0x8001}));
        const PortPKeyTable *peer = held.find(fabric.port(fabric.portByGuid(kHca4Port)).remote);
        QVERIFY(peer && peer->packed);
        QCOMPARE(peer->entries, entries({0x7fff, 0x8001}));
    }

    // Past the port's capacity a new P_Key takes the first empty index from 1, and OpenSM
    // forgets what it remembered there; with no empty index left it is not placed at all.
    void fullTableReusesTheFirstEmptyIndex()
    {
        const Fabric fabric = fabricOfTwoSwitches();
        const PortIndex hca3 = fabric.portByGuid(kHca3Port);
        PortPKeyTable t;
        t.port = hca3;
        t.entries = entries({0x7fff, 0x0000, 0x8002, 0x8003});
        t.capacity = 4;
        t.remembered = std::map<std::uint16_t, int>{{0x7fff, 0}, {0x8001, 1}, {0x8002, 2}, {0x8003, 3}};
        const PKeyTables held = PKeyTables::fromPorts({t});

        // 0x8004 would go to 4, past the 4 entries the port holds: it takes index 1 instead.
        const PKeyTables next = computePKeyTables(
            fabric, {partition(QStringLiteral("b"), 0x0002, {kHca3Port}), partition(QStringLiteral("c"), 0x0003, {kHca3Port}),
                     partition(QStringLiteral("d"), 0x0004, {kHca3Port})}, smOnHca1(), &held);
        QCOMPARE(tableOf(fabric, next, kHca3Port), entries({0x7fff, 0x8004, 0x8002, 0x8003}));
        const std::map<std::uint16_t, int> remembered{{0x7fff, 0}, {0x8002, 2}, {0x8003, 3}, {0x8004, 1}};
        QCOMPARE(*next.find(hca3)->remembered, remembered);

        // And 0x8001 (forgotten) on top: no room, left out.
        const PKeyTables full = computePKeyTables(
            fabric, {partition(QStringLiteral("a"), 0x0001, {kHca3Port}), partition(QStringLiteral("b"), 0x0002, {kHca3Port}),
                     partition(QStringLiteral("c"), 0x0003, {kHca3Port}), partition(QStringLiteral("d"), 0x0004, {kHca3Port})},
            smOnHca1(), &next);
        QCOMPARE(tableOf(fabric, full, kHca3Port), entries({0x7fff, 0x8004, 0x8002, 0x8003}));
    }

    // The default P_Key found anywhere but index 0 is moved to 0, and what held index 0 is
    // given a new index after the highest one.
    void defaultPKeyMovesToIndexZero()
    {
        const Fabric fabric = fabricOfTwoSwitches();
        const PortIndex hca3 = fabric.portByGuid(kHca3Port);
        PortPKeyTable t;
        t.port = hca3;
        t.entries = entries({0x8001, 0x7fff});
        const PKeyTables held = PKeyTables::fromPorts({t});
        const PKeyTables next = computePKeyTables(fabric, {partition(QStringLiteral("a"), 0x0001, {kHca3Port})}, smOnHca1(), &held);
        // Both are new: index 0 and 1 forgotten; 0x8001 (first in OpenSM's partition order) goes
        // after the highest index left (none: to 1), the default P_Key to 0.
        QCOMPARE(tableOf(fabric, next, kHca3Port), entries({0x7fff, 0x8001}));
    }

    // What OpenSM remembers, kept between commits in a file for one OpenSM process: read back
    // for that pid, under what the ports hold now; for another pid (OpenSM restarted) nothing.
    void memoryIsKeptForOneOpenSm()
    {
        const Fabric fabric = fabricOfTwoSwitches();
        const PortIndex hca3 = fabric.portByGuid(kHca3Port);
        PKeyTables held = computePKeyTables(fabric, {partition(QStringLiteral("red"), 0x0001, {kHca3Port})}, smOnHca1());
        held = computePKeyTables(fabric, {partition(QStringLiteral("blue"), 0x0002, {kHca3Port})}, smOnHca1(), &held);
        // As read after that sweep: the entries only.
        std::vector<PortPKeyTable> readPorts = held.ports();
        for (PortPKeyTable &t : readPorts)
            t.remembered.reset();
        const PKeyTables read = PKeyTables::fromPorts(readPorts);
        const PKeyTables after = rememberedAfter(held, read);
        const std::map<std::uint16_t, int> remembered{{0x7fff, 0}, {0x8001, 1}, {0x8002, 2}};
        QCOMPARE(*after.find(hca3)->remembered, remembered);

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = pkeyIndexMemoryPath(dir.filePath(QStringLiteral("partitions.conf")));
        QVERIFY(keepRememberedIndices(fabric, after, path, 4242));
        const Result<PKeyTables> same = withRememberedIndices(fabric, read, path, 4242);
        QVERIFY2(same, same ? "" : qPrintable(same.error().toString()));
        QVERIFY(same->find(hca3)->remembered);
        QCOMPARE(*same->find(hca3)->remembered, remembered);
        // So red comes back to index 1 on the next commit.
        const PKeyTables back = computePKeyTables(fabric, {partition(QStringLiteral("red"), 0x0001, {kHca3Port})}, smOnHca1(), &*same);
        QCOMPARE(tableOf(fabric, back, kHca3Port), entries({0x7fff, 0x8001}));

        const Result<PKeyTables> restarted = withRememberedIndices(fabric, read, path, 4243);
        QVERIFY(restarted);
        QVERIFY(!restarted->find(hca3)->remembered);

        // A reader that knows no pid (the desk's review after a rediscovery) takes the memory
        // while the OpenSM it was written for runs, and none once that process is gone.
        QVERIFY(keepRememberedIndices(fabric, after, path, QCoreApplication::applicationPid()));
        const Result<PKeyTables> running = withRememberedIndicesOfRunningOpenSm(fabric, read, path);
        QVERIFY(running);
        QVERIFY(running->find(hca3)->remembered);
        QCOMPARE(*running->find(hca3)->remembered, remembered);
        QProcess gone;
        gone.start(QStringLiteral("sleep"), {QStringLiteral("0.1")});
        QVERIFY(gone.waitForStarted(10000));
        const qint64 gonePid = gone.processId();
        QVERIFY(gonePid > 0);
        QVERIFY(gone.waitForFinished(10000));
        QVERIFY(keepRememberedIndices(fabric, after, path, gonePid));
        const Result<PKeyTables> ended = withRememberedIndicesOfRunningOpenSm(fabric, read, path);
        QVERIFY(ended);
        QVERIFY(!ended->find(hca3)->remembered);

        // A damaged file is an error naming it.
        QFile damaged(path);
        QVERIFY(damaged.open(QIODevice::WriteOnly | QIODevice::Truncate));
        damaged.write("{\"opensm_pid\": 4242, \"ports\": {\"0x0000000000100007\": {\"0x8001\": -3}}}\n");
        damaged.close();
        const Result<PKeyTables> bad = withRememberedIndices(fabric, read, path, 4242);
        QVERIFY(!bad);
        QVERIFY2(bad.error().toString().startsWith(path), qPrintable(bad.error().toString()));
    }
};

QTEST_GUILESS_MAIN(TestPKeyIndexes)
#include "tst_pkey_indexes.moc"
