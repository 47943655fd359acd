// Integration: `weft discover` run as a client of the real ibsim, with the real OpenSM managing
// the subnet, must see what the generator built with the LIDs OpenSM assigned, read the same
// forwarding tables as dump_lfts and the same P_Key tables as `smpquery pkeys`, and notice a
// cable pulled out of the simulator.

#include "FabricCompare.h"
#include "FabricGenerator.h"
#include "GeneratedFabrics.h"
#include "LftDump.h"
#include "LiveFabric.h"
#include "SafeFile.h"
#include "LabTools.h"
#include "SimulatedFabric.h"
#include "TopologyFile.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QThread>
#include "OpenSmLids.h"

#include <QtTest>

#include <map>
#include <memory>
#include <optional>
#include <thread>

using namespace weft;

namespace {

using test::openSmLids;

GeneratedFabric generate(FabricShapeKind shape, int a, int levels, int vfs)
{
    GeneratorOptions options = test::shapeOptions({shape, a, levels});
    options.hypervisors = vfs > 0;
    options.vfsPerHypervisor = vfs;
    options.linkSpeed = LinkSpeed::SDR;  // what ibsim reports
    return test::generateOrFail(options);
}

// A running simulation of `fabric` with the SM on its first host, in `dir`.
std::unique_ptr<SimulatedFabric> startSimulation(const Fabric &fabric, const QTemporaryDir &dir, QString *failure,
                                                 const QString &partitionsConf = {})
{
    const QString net = dir.filePath(QStringLiteral("fabric.net"));
    const NodeIndex smHost = fabric.endNodes().front();
    if (Status s = writeFileAtomically(net, writeIbsimNet(fabric, smHost)); !s) {
        *failure = s.error().toString();
        return nullptr;
    }
    SimulatedFabric::Options options;
    options.netFile = net;
    options.smNode = fabric.node(smHost).name;
    options.partitionsConf = partitionsConf;
    auto sim = std::make_unique<SimulatedFabric>(options);
    if (Status s = sim->start(); !s) {
        *failure = s.error().toString();
        return nullptr;
    }
    return sim;
}

QString weftBinary()
{
    return qEnvironmentVariable("WEFT_BINARY");
}

QString clientFailure(const Result<SimulatedFabric::ClientResult> &run)
{
    if (!run)
        return run.error().toString();
    return QStringLiteral("exit %1: %2").arg(run->exitCode).arg(QString::fromUtf8(run->err));
}

// Weft's P_Key text: "<port GUID> <port> "<description>" <index>:0x<pkey> ...", keyed by
// (GUID, port number), holding index -> P_Key for the non-empty slots.
using PKeyListing = std::map<std::pair<Guid, int>, std::map<int, int>>;

PKeyListing readWeftPKeys(const QString &path)
{
    PKeyListing listing;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return listing;
    static const QRegularExpression line(QStringLiteral("^0x([0-9a-f]{16}) (\\d+) \"[^\"]*\"((?: \\d+:0x[0-9a-f]{4})+)$"));
    static const QRegularExpression entry(QStringLiteral("(\\d+):0x([0-9a-f]{4})"));
    for (const QByteArray &raw : f.readAll().split('\n')) {
        const QString text = QString::fromUtf8(raw);
        if (text.isEmpty() || text.startsWith(QLatin1Char('#')))
            continue;
        const auto m = line.match(text);
        if (!m.hasMatch())
            qFatal("unreadable P_Key line: %s", qPrintable(text));
        auto &table = listing[{m.captured(1).toULongLong(nullptr, 16), m.captured(2).toInt()}];
        for (auto it = entry.globalMatch(m.captured(3)); it.hasNext();) {
            const auto e = it.next();
            table[e.captured(1).toInt()] = e.captured(2).toInt(nullptr, 16);
        }
    }
    return listing;
}

// `smpquery pkeys` output: "   0: 0xffff 0x8001 ..." rows of eight; the non-empty slots.
std::map<int, int> readSmpqueryPKeys(const QByteArray &output)
{
    std::map<int, int> table;
    static const QRegularExpression row(QStringLiteral("^\\s*(\\d+):((?:\\s+0x[0-9a-f]{4})+)\\s*$"));
    for (const QByteArray &raw : output.split('\n')) {
        const auto m = row.match(QString::fromUtf8(raw));
        if (!m.hasMatch())
            continue;
        int index = m.captured(1).toInt();
        for (const QString &value : m.captured(2).split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            const int pkey = value.toInt(nullptr, 16);
            if (pkey & 0x7fff)
                table[index] = pkey;
            ++index;
        }
    }
    return table;
}

bool holds(const std::map<int, int> &table, int pkey)
{
    for (const auto &[index, value] : table)
        if (value == pkey)
            return true;
    return false;
}

// The in-process half of the progress and cancellation checks. It must run with the simulator's
// umad shim preloaded, so the test runs its own binary as a client of the simulation with
// --live-child; this prints "key value" lines for the parent to check.
int liveChild()
{
    QTextStream report(stdout);
    // Discovery on a worker thread, as the GUI runs it, with every progress call kept.
    std::vector<std::pair<int, int>> calls;
    LiveOptions options;
    options.progress = [&](int done, int total) {
        calls.emplace_back(done, total);
        return true;
    };
    std::optional<Result<Fabric>> fabric;
    std::thread worker([&] { fabric.emplace(discoverFabric(options)); });
    worker.join();
    if (!fabric->ok()) {
        report << "error " << fabric->error().toString() << '\n';
        return 1;
    }
    bool ordered = true;
    for (std::size_t i = 1; i < calls.size(); ++i)
        ordered = ordered && calls[i].first >= calls[i - 1].first && calls[i].first <= calls[i].second;
    report << "nodes " << (*fabric)->nodes().size() << '\n'
           << "discovery_progress_calls " << calls.size() << '\n'
           << "discovery_progress_ordered " << (ordered ? 1 : 0) << '\n'
           << "discovery_progress_complete " << (calls.back().first == calls.back().second ? 1 : 0) << '\n';

    LiveOptions cancelAtOnce;
    cancelAtOnce.progress = [](int, int) { return false; };
    const Result<Fabric> cancelled = discoverFabric(cancelAtOnce);
    report << "discovery_cancel " << (cancelled.ok() ? QStringLiteral("not cancelled") : cancelled.error().message) << '\n';

    int tablesRead = 0;
    LiveOptions cancelAfterThree;
    cancelAfterThree.progress = [&](int done, int) {
        tablesRead = done;
        return done < 3;
    };
    const Result<ForwardingTables> partial = readForwardingTables(**fabric, cancelAfterThree);
    report << "lft_cancel " << (partial.ok() ? QStringLiteral("not cancelled") : partial.error().message) << '\n'
           << "lft_cancel_at " << tablesRead << '\n';

    std::optional<Result<ForwardingTables>> tables;
    std::thread reader([&] { tables.emplace(readForwardingTables(**fabric, LiveOptions{})); });
    reader.join();
    report << "lft_switches " << (tables->ok() ? int((*tables)->size()) : -1) << '\n';
    return 0;
}

}  // namespace

class TestLabLive : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        const QString openSm = weft::test::openSmVersionProblem();  // once, before any lab starts
        QVERIFY2(openSm.isEmpty(), qPrintable(openSm));
        const QString missing = SimulatedFabric::missingTools();
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("integration tests need: ") + missing));
        QVERIFY2(QFileInfo(weftBinary()).isExecutable(), "WEFT_BINARY must name the weft executable");
    }

    void discoveryMatchesGenerated_data()
    {
        QTest::addColumn<int>("shape");
        QTest::addColumn<int>("a");
        QTest::addColumn<int>("levels");
        QTest::addColumn<int>("vfs");
        QTest::addRow("radix 8, 2 levels") << int(FabricShapeKind::SwitchRadix) << 8 << 2 << 0;
        QTest::addRow("radix 8, 3 levels") << int(FabricShapeKind::SwitchRadix) << 8 << 3 << 0;
        QTest::addRow("2-ary 2-tree, hypervisors with 2 VFs") << int(FabricShapeKind::KaryNTree) << 2 << 2 << 2;
    }

    void discoveryMatchesGenerated()
    {
        QFETCH(int, shape);
        QFETCH(int, a);
        QFETCH(int, levels);
        QFETCH(int, vfs);
        const GeneratedFabric generated = generate(FabricShapeKind(shape), a, levels, vfs);
        const Fabric &expected = generated.fabric;

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString failure;
        std::unique_ptr<SimulatedFabric> sim = startSimulation(expected, dir, &failure);
        QVERIFY2(sim, qPrintable(failure));

        const QString topology = dir.filePath(QStringLiteral("discovered.topo"));
        const auto run = sim->runClient(weftBinary(), {QStringLiteral("discover"), QStringLiteral("-o"), topology});
        QVERIFY2(run && run->exitCode == 0, qPrintable(clientFailure(run)));
        QVERIFY2(run->out.contains("discovered"), run->out.constData());

        Result<Fabric> discovered = readTopologyFile(topology);
        QVERIFY2(discovered, discovered ? "" : qPrintable(discovered.error().toString()));

        // Structure first, so that a wrong cable is reported as such rather than as a LID.
        test::CompareOptions structure;
        structure.lids = false;
        QString diff = test::compareFabrics(expected, *discovered, structure);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));

        // Every LID OpenSM says it assigned, port by port.
        const std::map<Guid, Lid> assigned = openSmLids(sim->workDir() + QStringLiteral("/opensm-subnet.lst"));
        QVERIFY(!assigned.empty());
        for (const auto &[portGuid, lid] : assigned) {
            const PortIndex p = discovered->portByGuid(portGuid);
            QVERIFY2(p != kNoIndex, qPrintable(test::hexGuid(portGuid)));
            QCOMPARE(discovered->port(p).lid, lid);
        }
        QCOMPARE(assigned.size(), expected.switches().size() + expected.channelAdapterCount());
        diff = test::compareFabrics(expected, *discovered);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));

        // Width and speed as the real ibnetdiscover reports them on the same simulation.
        const auto reference = sim->runClient(QStringLiteral("ibnetdiscover"), {});
        QVERIFY2(reference && reference->exitCode == 0, qPrintable(clientFailure(reference)));
        Result<Fabric> theirs = readTopology(reference->out, QStringLiteral("ibnetdiscover output"));
        QVERIFY2(theirs, theirs ? "" : qPrintable(theirs.error().toString()));
        test::CompareOptions everything;
        everything.linkProperties = true;
        diff = test::compareFabrics(*theirs, *discovered, everything);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
    }

    void forwardingTablesEqualDumpLfts_data()
    {
        QTest::addColumn<int>("levels");
        QTest::addRow("radix 8, 2 levels") << 2;
        QTest::addRow("radix 8, 3 levels") << 3;
    }

    void forwardingTablesEqualDumpLfts()
    {
        QFETCH(int, levels);
        const GeneratedFabric generated = generate(FabricShapeKind::SwitchRadix, 8, levels, 0);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString failure;
        std::unique_ptr<SimulatedFabric> sim = startSimulation(generated.fabric, dir, &failure);
        QVERIFY2(sim, qPrintable(failure));

        const QString topology = dir.filePath(QStringLiteral("discovered.topo"));
        const QString lfts = dir.filePath(QStringLiteral("weft.lfts"));
        const auto run = sim->runClient(weftBinary(), {QStringLiteral("discover"), QStringLiteral("-o"), topology, QStringLiteral("--lfts"), lfts});
        QVERIFY2(run && run->exitCode == 0, qPrintable(clientFailure(run)));
        Result<Fabric> discovered = readTopologyFile(topology);
        QVERIFY2(discovered, discovered ? "" : qPrintable(discovered.error().toString()));

        Result<ForwardingTables> ours = readLftDumpFile(lfts, &*discovered);
        QVERIFY2(ours, ours ? "" : qPrintable(ours.error().toString()));
        const auto dump = sim->runClient(QStringLiteral("dump_lfts"), {});
        QVERIFY2(dump && dump->exitCode == 0, qPrintable(clientFailure(dump)));
        Result<ForwardingTables> theirs = readLftDump(dump->out, QStringLiteral("dump_lfts output"), &*discovered);
        QVERIFY2(theirs, theirs ? "" : qPrintable(theirs.error().toString()));

        QCOMPARE(ours->size(), generated.fabric.switches().size());
        QCOMPARE(theirs->size(), ours->size());
        // OpenSM routed every LID it assigned, so no switch table may be empty.
        for (const SwitchForwardingTable &table : ours->switches())
            QVERIFY2(table.lft.routeCount() > 0, qPrintable(table.description));
        for (const SwitchForwardingTable &table : theirs->switches()) {
            const SwitchForwardingTable *mine = ours->find(table.guid);
            QVERIFY2(mine, qPrintable(test::hexGuid(table.guid)));
            QVERIFY2(mine->lft == table.lft, qPrintable(QStringLiteral("switch %1 differs").arg(table.description)));
        }
        QVERIFY(*ours == *theirs);
    }

    void pkeyTablesEqualSmpquery()
    {
        const GeneratedFabric generated = generate(FabricShapeKind::SwitchRadix, 8, 2, 0);
        const Fabric &fabric = generated.fabric;
        // Two tenants: the first half of the hosts in 0x0001, the rest in 0x0002, all full.
        std::vector<PortIndex> hostPorts;
        for (NodeIndex n : fabric.endNodes())
            hostPorts.push_back(fabric.portOf(n, 1));
        const std::size_t half = hostPorts.size() / 2;
        QByteArray conf = "Default=0x7fff : ALL, SELF=full ;\n";
        for (int tenant = 0; tenant < 2; ++tenant) {
            conf += tenant == 0 ? "TenantA=0x0001 :" : "TenantB=0x0002 :";
            const std::size_t from = tenant == 0 ? 0 : half, to = tenant == 0 ? half : hostPorts.size();
            for (std::size_t i = from; i < to; ++i)
                conf += (i == from ? " 0x" : ", 0x") + QByteArray::number(qulonglong(fabric.port(hostPorts[i]).guid), 16) + "=full";
            conf += " ;\n";
        }
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString partitions = dir.filePath(QStringLiteral("partitions.conf"));
        QVERIFY(writeFileAtomically(partitions, conf).ok());
        QString failure;
        std::unique_ptr<SimulatedFabric> sim = startSimulation(fabric, dir, &failure, partitions);
        QVERIFY2(sim, qPrintable(failure));
        // OpenSM programs the P_Key tables late in the sweep; wait for the sweep to finish.
        QVERIFY(sim->waitForOpenSmLog(QStringLiteral("SUBNET UP"), 60000).ok());

        const QString pkeys = dir.filePath(QStringLiteral("weft.pkeys"));
        const QString topology = dir.filePath(QStringLiteral("weft.topo"));
        const QString lfts = dir.filePath(QStringLiteral("weft.lfts"));
        const auto run = sim->runClient(weftBinary(), {QStringLiteral("discover"), QStringLiteral("--pkeys"), pkeys, QStringLiteral("-o"), topology, QStringLiteral("--lfts"), lfts});
        QVERIFY2(run && run->exitCode == 0, qPrintable(clientFailure(run)));
        const PKeyListing ours = readWeftPKeys(pkeys);
        QVERIFY(!ours.empty());

        struct Probe
        {
            QString what;
            Guid guid;
            int port;
            QStringList smpqueryArgs;
            int tenantPKey;  // full-member P_Key the port must hold; 0: none
        };
        std::vector<Probe> probes;
        for (std::size_t i : {std::size_t(0), std::size_t(1), half, hostPorts.size() - 1}) {
            const Port &port = fabric.port(hostPorts[i]);
            probes.push_back({QStringLiteral("host %1").arg(fabric.node(port.node).description), port.guid, port.number,
                              {QStringLiteral("pkeys"), QString::number(port.lid)}, i < half ? 0x8001 : 0x8002});
        }
        // A leaf switch: its own table (port 0), and the enforcement table of the port facing
        // the second host.
        const Port &hostPort = fabric.port(hostPorts[1]);
        const Port &leafPort = fabric.port(hostPort.remote);
        const Node &leaf = fabric.node(leafPort.node);
        const QString leafLid = QString::number(fabric.nodeLid(leafPort.node));
        probes.push_back({QStringLiteral("leaf port 0"), leaf.guid, 0, {QStringLiteral("pkeys"), leafLid, QStringLiteral("0")}, 0});
        probes.push_back({QStringLiteral("leaf port facing a host"), leaf.guid, leafPort.number,
                          {QStringLiteral("pkeys"), leafLid, QString::number(leafPort.number)}, 0x8001});

        for (const Probe &probe : probes) {
            const auto query = sim->runClient(QStringLiteral("smpquery"), probe.smpqueryArgs);
            QVERIFY2(query && query->exitCode == 0, qPrintable(clientFailure(query)));
            const std::map<int, int> theirs = readSmpqueryPKeys(query->out);
            QVERIFY2(!theirs.empty(), qPrintable(probe.what + QStringLiteral(": smpquery shows no P_Key")));
            const auto mine = ours.find({probe.guid, probe.port});
            QVERIFY2(mine != ours.end(), qPrintable(probe.what + QStringLiteral(": not in Weft's listing")));
            QVERIFY2(mine->second == theirs, qPrintable(probe.what + QStringLiteral(": tables differ")));
            if (probe.tenantPKey) {
                QVERIFY2(holds(mine->second, probe.tenantPKey), qPrintable(probe.what));
                QVERIFY2(!holds(mine->second, probe.tenantPKey == 0x8001 ? 0x8002 : 0x8001), qPrintable(probe.what + QStringLiteral(": holds the other tenant's key")));
            }
        }

        // The file is one of Weft's: `weft info` finds every port in the discovered topology and
        // sees the two tenants, and `weft diff` finds nothing to send between the tables and the
        // partitions.conf OpenSM was given (what OpenSM would program moving on from them).
        const auto info = sim->runClient(weftBinary(), {QStringLiteral("info"), QStringLiteral("--json"), QStringLiteral("--topology"), topology, pkeys});
        QVERIFY2(info && info->exitCode == 0, qPrintable(clientFailure(info)));
        const QJsonObject summary = QJsonDocument::fromJson(info->out).object();
        QCOMPARE(summary.value(QStringLiteral("format")).toString(), QStringLiteral("pkeys"));
        QCOMPARE(summary.value(QStringLiteral("ports")).toInt(), int(ours.size()));
        const QJsonArray held = summary.value(QStringLiteral("partitions")).toArray();
        QCOMPARE(held.size(), 2);
        QCOMPARE(held.at(0).toObject().value(QStringLiteral("full")).toInt(), int(half));
        QCOMPARE(held.at(1).toObject().value(QStringLiteral("full")).toInt(), int(hostPorts.size() - half));
        const Guid smPort = fabric.port(fabric.portOf(fabric.endNodes().front(), 1)).guid;
        const auto diff = sim->runClient(weftBinary(), {QStringLiteral("diff"), QStringLiteral("--json"), QStringLiteral("--topology"), topology, QStringLiteral("--from"), lfts, QStringLiteral("--to"), lfts, QStringLiteral("--partitions-from"), pkeys, QStringLiteral("--partitions-to"), partitions, QStringLiteral("--sm-port"), test::hexGuid(smPort)});
        QVERIFY2(diff && diff->exitCode == 0, qPrintable(clientFailure(diff)));
        QCOMPARE(QJsonDocument::fromJson(diff->out).object().value(QStringLiteral("pkey_block_sets")).toInt(), 0);
    }

    void rediscoveryReportsUnlinkedCable()
    {
        const GeneratedFabric generated = generate(FabricShapeKind::SwitchRadix, 8, 2, 0);
        const Fabric &fabric = generated.fabric;
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString failure;
        std::unique_ptr<SimulatedFabric> sim = startSimulation(fabric, dir, &failure);
        QVERIFY2(sim, qPrintable(failure));

        const QString before = dir.filePath(QStringLiteral("before.topo"));
        auto run = sim->runClient(weftBinary(), {QStringLiteral("discover"), QStringLiteral("-o"), before});
        QVERIFY2(run && run->exitCode == 0, qPrintable(clientFailure(run)));

        // Unchanged fabric: nothing to report.
        run = sim->runClient(weftBinary(), {QStringLiteral("discover"), QStringLiteral("--compare"), before});
        QVERIFY2(run && run->exitCode == 0, qPrintable(clientFailure(run)));
        QVERIFY2(run->out.contains("no changes"), run->out.constData());

        // Pull the last uplink of the last leaf switch (a switch-to-switch cable).
        const auto [leaf, uplink] = test::lastUplink(generated);
        QVERIFY(leaf != kNoIndex);
        const Port &pulled = fabric.port(fabric.portOf(leaf, uplink));
        const Node &peer = fabric.node(fabric.port(pulled.remote).node);
        QVERIFY(sim->simulatorCommand(QStringLiteral("Unlink \"%1\"[%2]").arg(fabric.node(leaf).name).arg(uplink)).ok());

        // ibsim takes the command asynchronously: rediscover until the change shows.
        QJsonObject changes;
        for (int attempt = 0; attempt < 20 && changes.value(QStringLiteral("links_gone")).toArray().isEmpty(); ++attempt) {
            if (attempt)
                QThread::msleep(250);
            run = sim->runClient(weftBinary(), {QStringLiteral("discover"), QStringLiteral("--json"), QStringLiteral("--compare"), before});
            QVERIFY2(run && run->exitCode == 0, qPrintable(clientFailure(run)));
            changes = QJsonDocument::fromJson(run->out).object().value(QStringLiteral("changes")).toObject();
        }
        const QJsonArray gone = changes.value(QStringLiteral("links_gone")).toArray();
        QCOMPARE(gone.size(), 1);
        const QString link = gone.first().toString();
        QVERIFY2(link.contains(QStringLiteral("%1[%2]").arg(test::hexGuid(fabric.node(leaf).guid)).arg(uplink)), qPrintable(link));
        QVERIFY2(link.contains(QStringLiteral("%1[%2]").arg(test::hexGuid(peer.guid)).arg(fabric.port(pulled.remote).number)), qPrintable(link));
        QVERIFY(changes.value(QStringLiteral("links_new")).toArray().isEmpty());
        QVERIFY(changes.value(QStringLiteral("nodes_gone")).toArray().isEmpty());
    }

    void progressAndCancellationInProcess()
    {
        const GeneratedFabric generated = generate(FabricShapeKind::SwitchRadix, 8, 2, 0);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString failure;
        std::unique_ptr<SimulatedFabric> sim = startSimulation(generated.fabric, dir, &failure);
        QVERIFY2(sim, qPrintable(failure));
        const auto run = sim->runClient(QCoreApplication::applicationFilePath(), {QStringLiteral("--live-child")});
        QVERIFY2(run && run->exitCode == 0, qPrintable(clientFailure(run) + QString::fromUtf8(run ? run->out : QByteArray())));
        std::map<QString, QString> report;
        for (const QByteArray &line : run->out.split('\n')) {
            const int space = line.indexOf(' ');
            if (space > 0)
                report[QString::fromUtf8(line.left(space))] = QString::fromUtf8(line.mid(space + 1));
        }
        QCOMPARE(report[QStringLiteral("nodes")].toULongLong(), qulonglong(generated.fabric.nodes().size()));
        QVERIFY(report[QStringLiteral("discovery_progress_calls")].toInt() >= 2);
        QCOMPARE(report[QStringLiteral("discovery_progress_ordered")], QStringLiteral("1"));
        QCOMPARE(report[QStringLiteral("discovery_progress_complete")], QStringLiteral("1"));
        QCOMPARE(report[QStringLiteral("discovery_cancel")], QStringLiteral("discovery cancelled"));
        QCOMPARE(report[QStringLiteral("lft_cancel")], QStringLiteral("reading forwarding tables cancelled"));
        QCOMPARE(report[QStringLiteral("lft_cancel_at")], QStringLiteral("3"));
        QCOMPARE(report[QStringLiteral("lft_switches")].toULongLong(), qulonglong(generated.fabric.switches().size()));
    }

    void unknownAdapterIsAPlainError()
    {
        const GeneratedFabric generated = generate(FabricShapeKind::SwitchRadix, 8, 2, 0);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString failure;
        std::unique_ptr<SimulatedFabric> sim = startSimulation(generated.fabric, dir, &failure);
        QVERIFY2(sim, qPrintable(failure));
        const auto run = sim->runClient(weftBinary(), {QStringLiteral("discover"), QStringLiteral("--ca"), QStringLiteral("nosuch_hca")});
        QVERIFY(run.ok());
        QCOMPARE(run->exitCode, 1);
        QVERIFY2(run->err.contains("no InfiniBand adapter named \"nosuch_hca\""), run->err.constData());
    }

    void noAdapterIsAPlainError()
    {
        // This process runs without the simulator's umad shim: on a host without InfiniBand
        // hardware every live read must fail with a reason, not crash or hang.
        if (QDir(QStringLiteral("/sys/class/infiniband")).exists())
            QSKIP("this host has InfiniBand adapters; the no-adapter path cannot be checked here");
        Result<Fabric> fabric = discoverFabric(LiveOptions{});
        QVERIFY(!fabric.ok());
        QVERIFY2(fabric.error().message.contains(QLatin1String("adapter")) || fabric.error().message.contains(QLatin1String("umad")),
                 qPrintable(fabric.error().message));
        Result<ForwardingTables> tables = readForwardingTables(generate(FabricShapeKind::KaryNTree, 2, 2, 0).fabric, LiveOptions{});
        QVERIFY(!tables.ok());
    }
};

int main(int argc, char **argv)
{
    if (argc > 1 && qstrcmp(argv[1], "--live-child") == 0)
        return liveChild();
    QCoreApplication app(argc, argv);
    TestLabLive test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}
#include "tst_lab_live.moc"
