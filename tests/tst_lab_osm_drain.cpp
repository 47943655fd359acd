// Drains for maintenance on the real OpenSM with Weft's engine inside it (libweftosm.so) in
// ibsim: `weft drain` of a cable and of a spine switch, then `weft undrain` of both. What the
// switches hold is read by the real dump_lfts and judged here, never by the engine:
// - after each drain no switch's entry leads onto the drained cable or towards the drained
//   switch, and every pair of ports still reaches the other (this test's walk and validation);
// - OpenSM's own later sweep (a cable unlinked in ibsim) keeps routing around them;
// - a drain that would cut hosts off (their leaf) is refused naming pairs, and nothing changes;
// - undrain brings back exactly the intent's own tables;
// - the journal names both drains and who asked.

#include "CommitJournal.h"
#include "FabricGenerator.h"
#include "IntentRouting.h"
#include "LabTables.h"
#include "LabTools.h"
#include "PathChanges.h"
#include "LftDump.h"
#include "PartitionsConf.h"
#include "ProjectFile.h"
#include "RoutingEngine.h"
#include "SafeFile.h"
#include "SimulatedFabric.h"
#include "TenantTrees.h"
#include "Validation.h"
#include "WeftRunner.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <set>

using namespace weft;

namespace {

constexpr int kSweepTimeoutMs = 60000;
const QString kConfigured = QStringLiteral("weft tables configured on all switches");

struct Lab
{
    std::unique_ptr<SimulatedFabric> sim;
    QString intentPath, partitionsPath, pidFile, journal, topologyPath;
};

Result<Lab> startLab(const QString &dir, const test::Tree &tree)
{
    Lab lab;
    const Fabric &fabric = tree.generated.fabric;
    const NodeIndex smHost = tree.generated.hosts.front();
    lab.intentPath = dir + QStringLiteral("/intent.weft");
    lab.partitionsPath = dir + QStringLiteral("/partitions.conf");
    lab.pidFile = dir + QStringLiteral("/opensm.pid");
    lab.journal = dir + QStringLiteral("/journal.jsonl");
    lab.topologyPath = dir + QStringLiteral("/fabric.topo");
    const QString net = dir + QStringLiteral("/fabric.net");
    for (const auto &[path, data] : {std::pair{net, writeIbsimNet(fabric, smHost)}, std::pair{lab.intentPath, writeProject(tree.intent)},
                                     std::pair{lab.partitionsPath, writePartitionsConf(tree.intent.tenancy.partitions)}})
        if (const Status written = writeFileAtomically(path, data, false); !written)
            return written.error();
    SimulatedFabric::Options options;
    options.netFile = net;
    options.smNode = fabric.node(smHost).name;
    options.partitionsConf = lab.partitionsPath;
    options.openSmConfig = "event_plugin_name weftosm\nevent_plugin_options " + lab.intentPath.toUtf8() + "\nrouting_engine weft\n";
    options.openSmEnvironment = QStringList{QStringLiteral("LD_LIBRARY_PATH=") + test::osmPluginDirectory()};
    lab.sim = std::make_unique<SimulatedFabric>(options);
    if (const Status started = lab.sim->start(); !started)
        return started.error();
    if (const Status pid = writeFileAtomically(lab.pidFile, QByteArray::number(lab.sim->openSmPid()) + '\n', false); !pid)
        return pid.error();
    return lab;
}

// `weft drain`/`undrain` against the lab's OpenSM, as an operator runs it.
test::Run runDrain(const Lab &lab, const QString &command, const QStringList &elements)
{
    QProcess p;
    p.setProcessEnvironment(lab.sim->clientEnvironment());
    p.start(qEnvironmentVariable("WEFT_BINARY"),
            QStringList{command} + elements
                + QStringList{QStringLiteral("--opensm-intent"), lab.intentPath, QStringLiteral("--opensm-partitions"), lab.partitionsPath,
                              QStringLiteral("--opensm-pidfile"), lab.pidFile, QStringLiteral("--opensm-log"), lab.sim->openSmLogPath(),
                              QStringLiteral("--journal"), lab.journal, QStringLiteral("--accept-violations")});
    test::Run run;
    if (!p.waitForFinished(300000)) {
        p.kill();
        p.waitForFinished();
        return run;
    }
    run.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    run.out = p.readAllStandardOutput();
    run.err = p.readAllStandardError();
    return run;
}

// The switch ports whose cable leads onto a drained element: both ends of a drained cable, and
// every port cabled to a drained switch (by node GUID and port number).
using PortKey = std::pair<Guid, int>;
std::set<PortKey> portsInto(const Fabric &fabric, const std::vector<PortKey> &cables, const std::vector<Guid> &switches)
{
    std::set<PortKey> into;
    for (const auto &[guid, number] : cables) {
        const PortIndex p = fabric.portOf(fabric.nodeByGuid(guid), number);
        into.insert({guid, number});
        const Port &remote = fabric.port(fabric.port(p).remote);
        into.insert({fabric.node(remote.node).guid, remote.number});
    }
    for (const Guid guid : switches) {
        const NodeIndex s = fabric.nodeByGuid(guid);
        for (int n = 1; n <= fabric.node(s).portCount; ++n) {
            const PortIndex p = fabric.portOf(s, n);
            if (p == kNoIndex || fabric.port(p).remote == kNoIndex)
                continue;
            const Port &remote = fabric.port(fabric.port(p).remote);
            into.insert({fabric.node(remote.node).guid, remote.number});
        }
    }
    return into;
}

// Entries (switch, LID) that lead onto a drained element, as "switch[port] for LID n" lines; a
// drained switch's own entries count only past its own LID.
QStringList entriesInto(const Fabric &fabric, const ForwardingTables &held, const std::set<PortKey> &into, const std::vector<Guid> &drainedSwitches)
{
    QStringList found;
    for (const SwitchForwardingTable &sw : held.switches()) {
        const bool drained = std::find(drainedSwitches.begin(), drainedSwitches.end(), sw.guid) != drainedSwitches.end();
        for (Lid lid = 1; lid <= sw.lft.top(); ++lid) {
            const int port = sw.lft.port(lid);
            if (port == kNoRoute || port == 0)
                continue;
            if (drained || into.count({sw.guid, port}))
                found << QStringLiteral("%1[%2] for LID %3").arg(guidText(sw.guid)).arg(port).arg(lid);
        }
    }
    return found;
}

}  // namespace

class TestLabOsmDrain : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        const QString problem = test::labToolsProblem();
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QVERIFY2(!qEnvironmentVariableIsEmpty("WEFT_BINARY"), "WEFT_BINARY names the weft executable (ctest sets it)");
    }

    void drainCableAndSwitchThenUndrain()
    {
        const test::Tree tree = test::makeTree(FabricShapeKind::KaryNTree, 4, 2);
        const Fabric &fabric = tree.generated.fabric;
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Result<Lab> lab = startLab(dir.path(), tree);
        QVERIFY2(lab, lab ? "" : qPrintable(lab.error().toString()));
        QVERIFY(lab->sim->waitForOpenSmLog(kConfigured, kSweepTimeoutMs));
        Result<Fabric> whole = test::discoverWithIbnetdiscover(*lab->sim, lab->topologyPath);
        QVERIFY2(whole, whole ? "" : qPrintable(whole.error().toString()));
        Result<ForwardingTables> intended = test::installedTables(*lab->sim, *whole);
        QVERIFY2(intended, intended ? "" : qPrintable(intended.error().toString()));

        // A leaf's uplink (leaf side), a spine that is not on it, another uplink for an outage
        // later, and a leaf (its hosts would be cut off).
        const std::vector<int> &level = tree.generated.nodeLevel;
        std::vector<std::pair<NodeIndex, int>> uplinks;
        for (NodeIndex s : fabric.switches())
            for (int p = 1; p <= fabric.node(s).portCount; ++p) {
                const Port &port = fabric.port(fabric.portOf(s, p));
                if (port.remote != kNoIndex && fabric.node(fabric.port(port.remote).node).type == NodeType::Switch
                    && level[std::size_t(fabric.port(port.remote).node)] < level[std::size_t(s)])
                    uplinks.emplace_back(s, p);
            }
        QVERIFY(uplinks.size() >= 4);
        const auto [cableLeaf, cablePort] = uplinks.front();
        const NodeIndex cableSpine = fabric.port(fabric.port(fabric.portOf(cableLeaf, cablePort)).remote).node;
        NodeIndex spine = kNoIndex;
        for (NodeIndex s : fabric.switches())
            if (level[std::size_t(s)] == 0 && s != cableSpine)
                spine = s;
        QVERIFY(spine != kNoIndex);
        std::pair<NodeIndex, int> outage{kNoIndex, 0};
        for (const auto &u : uplinks)
            if (u.first != cableLeaf && fabric.port(fabric.port(fabric.portOf(u.first, u.second)).remote).node != spine)
                outage = u;
        QVERIFY(outage.first != kNoIndex);
        const QString cableText = QStringLiteral("%1[%2]").arg(fabric.node(cableLeaf).name).arg(cablePort);
        const QString spineText = fabric.node(spine).name;
        const std::vector<PortKey> drainedCables{{fabric.node(cableLeaf).guid, cablePort}};
        const std::vector<Guid> drainedSwitches{fabric.node(spine).guid};

        // Cable: drained, routed around, every pair still reachable.
        test::Run run = runDrain(*lab, QStringLiteral("drain"), {QStringLiteral("--link"), cableText});
        QVERIFY2(run.exitCode == 0, (run.out + run.err).constData());
        QVERIFY2(run.out.contains("outcome: committed"), run.out.constData());
        auto check = [&](const std::vector<Guid> &switches, const char *what) -> QString {
            Result<Fabric> live = test::discoverWithIbnetdiscover(*lab->sim, lab->topologyPath);
            if (!live)
                return live.error().toString();
            Result<ForwardingTables> held = test::installedTables(*lab->sim, *live);
            if (!held)
                return held.error().toString();
            const QStringList into = entriesInto(*live, *held, portsInto(*live, drainedCables, switches), switches);
            if (!into.isEmpty())
                return QStringLiteral("%1: %2 entries lead onto a drained element: %3").arg(QLatin1String(what)).arg(into.size()).arg(into.mid(0, 6).join(QStringLiteral(", ")));
            const ValidationResult v = validateRouting(*live, tree.intent.tenancy, *held);
            if (v.unreachablePartitionPairs + v.unreachableOtherPairs > 0 || v.loops > 0)
                return QStringLiteral("%1: %2 + %3 pairs unreachable, %4 loops: %5").arg(QLatin1String(what)).arg(v.unreachablePartitionPairs).arg(v.unreachableOtherPairs).arg(v.loops).arg((v.problems + v.managementProblems).join(QStringLiteral("; ")));
            if (test::judgeAfterFault(*live, *held, test::allPaths(*live, *held)).unreachable != 0)
                return QStringLiteral("%1: the walk finds unreachable pairs").arg(QLatin1String(what));
            return {};
        };
        QString problem = check({}, "cable drained");
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        // Before the drain the cable carried routes: the check above could fail.
        QVERIFY(!entriesInto(*whole, *intended, portsInto(*whole, drainedCables, {}), {}).isEmpty());
        QVERIFY(!entriesInto(*whole, *intended, portsInto(*whole, {}, drainedSwitches), {}).isEmpty());

        // Switch: drained beside the cable.
        run = runDrain(*lab, QStringLiteral("drain"), {QStringLiteral("--switch"), spineText});
        QVERIFY2(run.exitCode == 0, (run.out + run.err).constData());
        problem = check(drainedSwitches, "cable and switch drained");
        QVERIFY2(problem.isEmpty(), qPrintable(problem));

        // A leaf cannot be drained: its hosts would be cut off. Refused naming pairs, nothing written.
        const QByteArray intentBefore = test::readAll(lab->intentPath);
        run = runDrain(*lab, QStringLiteral("drain"), {QStringLiteral("--switch"), fabric.node(cableLeaf).name});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("refused") && run.err.contains("cut off"), run.err.constData());
        QCOMPARE(test::readAll(lab->intentPath), intentBefore);

        // OpenSM's own sweep after an outage (no Weft process): still around the drained ones.
        const QString unlink = QStringLiteral("\"%1\"[%2]").arg(fabric.node(outage.first).name).arg(outage.second);
        qint64 offset = lab->sim->openSmLogSize();
        QVERIFY(lab->sim->simulatorCommands({QStringLiteral("Unlink ") + unlink}));
        QVERIFY(lab->sim->waitForOpenSmLog(kConfigured, kSweepTimeoutMs, offset));
        problem = check(drainedSwitches, "after an outage at OpenSM's sweep");
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        offset = lab->sim->openSmLogSize();
        QVERIFY(lab->sim->simulatorCommands({QStringLiteral("Relink ") + unlink}));
        QVERIFY(lab->sim->waitForOpenSmLog(kConfigured, kSweepTimeoutMs, offset));

        // Undrain both: the intent's own tables again, once the relinked cable is up.
        Result<ForwardingTables> again = Error{{}, 0, QStringLiteral("not read")};
        for (int attempt = 0; attempt < 20; ++attempt) {
            Result<Fabric> live = test::discoverWithIbnetdiscover(*lab->sim, lab->topologyPath);
            QVERIFY(live);
            if (live->links().size() == whole->links().size())
                break;
            QTest::qWait(1000);
        }
        run = runDrain(*lab, QStringLiteral("undrain"), {QStringLiteral("--link"), cableText, QStringLiteral("--switch"), spineText});
        QVERIFY2(run.exitCode == 0, (run.out + run.err).constData());
        Result<Fabric> live = test::discoverWithIbnetdiscover(*lab->sim, lab->topologyPath);
        QVERIFY(live);
        again = test::installedTables(*lab->sim, *live);
        QVERIFY(again);
        QVERIFY2(*again == *intended, qPrintable(test::tableDifferences(*intended, *again)));
        Result<Project> intent = readProjectFile(lab->intentPath);
        QVERIFY(intent);
        QVERIFY(!intent->routingOptions.contains(QStringLiteral("drained")));

        // Undraining what is not drained is bad input.
        run = runDrain(*lab, QStringLiteral("undrain"), {QStringLiteral("--switch"), spineText});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("is not drained"), run.err.constData());

        // The journal: who drained what.
        Result<std::vector<CommitJournalEntry>> journal = readJournal(lab->journal);
        QVERIFY2(journal, journal ? "" : qPrintable(journal.error().toString()));
        QStringList committed;
        for (const CommitJournalEntry &e : *journal)
            if (e.outcome == QLatin1String("committed"))
                committed << e.planSummary + QStringLiteral(" | ") + e.user;
        const QString user = currentUserName();
        const QString joined = committed.join(QLatin1Char('\n'));
        QCOMPARE(committed.size(), 3);
        QVERIFY2(committed[0].startsWith(QStringLiteral("drain link ")) && committed[0].contains(displayName(fabric.node(cableLeaf)))
                     && committed[0].endsWith(QStringLiteral("| ") + user),
                 qPrintable(joined));
        QVERIFY2(committed[1].startsWith(QStringLiteral("drain switch ")) && committed[1].contains(displayName(fabric.node(spine))), qPrintable(joined));
        QVERIFY2(committed[2].startsWith(QStringLiteral("undrain ")) && committed[2].contains(displayName(fabric.node(spine)))
                     && committed[2].contains(displayName(fabric.node(cableLeaf))),
                 qPrintable(joined));
    }

    // OpenSM's file engine (-R file -U): `weft drain` repairs the tables the switches hold
    // around the cable; `weft undrain` routes the fabric again (ftree, no --project).
    void drainWithTheFileEngine()
    {
        const test::Tree tree = test::makeTree(FabricShapeKind::KaryNTree, 4, 2);
        const Fabric &fabric = tree.generated.fabric;
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString lfts = dir.filePath(QStringLiteral("opensm.lfts"));
        const QString partitions = dir.filePath(QStringLiteral("partitions.conf"));
        const QString pidFile = dir.filePath(QStringLiteral("opensm.pid"));
        const QString journal = dir.filePath(QStringLiteral("journal.jsonl"));
        const QString topology = dir.filePath(QStringLiteral("fabric.topo"));
        Result<Routing> ftree = routeFabric(QStringLiteral("ftree"), fabric, Tenancy{});
        QVERIFY(ftree);
        QVERIFY(writeFileAtomically(lfts, writeLftDump(ftree->tables, &fabric), false));
        QVERIFY(writeFileAtomically(partitions, writePartitionsConf(withExplicitDefault({})), false));
        auto started = test::startFileRoutedLab(fabric, tree.generated.hosts.front(), dir.filePath(QStringLiteral("fabric.net")), lfts,
                                                partitions, pidFile);
        QVERIFY2(started, started ? "" : qPrintable(started.error().toString()));
        SimulatedFabric &sim = **started;
        Result<Fabric> live = test::discoverWithIbnetdiscover(sim, topology);
        QVERIFY(live);
        Result<ForwardingTables> before = test::installedTables(sim, *live);
        QVERIFY(before);

        NodeIndex leaf = kNoIndex;
        int port = 0;
        for (NodeIndex s : live->switches())
            for (int p = 1; p <= live->node(s).portCount && leaf == kNoIndex; ++p) {
                const PortIndex at = live->portOf(s, p);
                if (at == kNoIndex || live->port(at).remote == kNoIndex)
                    continue;
                const NodeIndex peer = live->port(live->port(at).remote).node;
                bool hasHost = false;
                for (int q = 1; q <= live->node(s).portCount; ++q) {
                    const PortIndex h = live->portOf(s, q);
                    hasHost = hasHost || (h != kNoIndex && live->port(h).remote != kNoIndex && live->node(live->port(live->port(h).remote).node).type != NodeType::Switch);
                }
                if (hasHost && live->node(peer).type == NodeType::Switch)
                    leaf = s, port = p;
            }
        QVERIFY(leaf != kNoIndex);
        const std::vector<PortKey> cable{{live->node(leaf).guid, port}};
        const std::set<PortKey> onto = portsInto(*live, cable, {});
        QVERIFY(!entriesInto(*live, *before, onto, {}).isEmpty());
        const NodeIndex named = fabric.nodeByGuid(live->node(leaf).guid);
        const QString cableText = QStringLiteral("%1[%2]").arg(fabric.node(named).name).arg(port);
        auto run = [&](const QString &command) {
            QProcess p;
            p.setProcessEnvironment(sim.clientEnvironment());
            p.start(qEnvironmentVariable("WEFT_BINARY"),
                    {command, QStringLiteral("--link"), cableText, QStringLiteral("--opensm-lfts"), lfts, QStringLiteral("--opensm-partitions"),
                     partitions, QStringLiteral("--opensm-pidfile"), pidFile, QStringLiteral("--journal"), journal});
            p.waitForFinished(300000);
            return std::make_pair(p.exitCode(), p.readAllStandardOutput() + p.readAllStandardError());
        };
        auto [code, report] = run(QStringLiteral("drain"));
        QVERIFY2(code == 0, report.constData());
        Result<ForwardingTables> drained = test::installedTables(sim, *live);
        QVERIFY(drained);
        QVERIFY2(entriesInto(*live, *drained, onto, {}).isEmpty(), qPrintable(entriesInto(*live, *drained, onto, {}).join(QStringLiteral(", "))));
        const ValidationResult v = validateRouting(*live, Tenancy{}, *drained);
        QCOMPARE(v.unreachablePartitionPairs + v.unreachableOtherPairs, std::uint64_t(0));
        QCOMPARE(v.loops, std::size_t(0));

        std::tie(code, report) = run(QStringLiteral("undrain"));
        QVERIFY2(code == 0, report.constData());
        Result<ForwardingTables> back = test::installedTables(sim, *live);
        QVERIFY(back);
        Result<Routing> expected = routeFabric(QStringLiteral("ftree"), *live, Tenancy{});
        QVERIFY(expected);
        QVERIFY2(*back == expected->tables, qPrintable(test::tableDifferences(expected->tables, *back)));
        Result<std::vector<CommitJournalEntry>> entries = readJournal(journal);
        QVERIFY(entries);
        QCOMPARE(entries->size(), std::size_t(2));
        QVERIFY(entries->at(0).planSummary.startsWith(QStringLiteral("drain link ")));
        QVERIFY(entries->at(1).planSummary.startsWith(QStringLiteral("undrain link ")));
    }

    // The studio's "what the SM will do" for a cable (predictIntentResponse on what the switches
    // hold) against what OpenSM with the plugin does after an ibsim Unlink of that cable.
    void predictedResponseIsWhatOpenSmDoes_data()
    {
        QTest::addColumn<int>("levels");
        QTest::addColumn<int>("nth");
        QTest::addRow("k-ary 2-tree, first uplink") << 2 << 0;
        QTest::addRow("k-ary 3-tree, a core link") << 3 << 9;
    }
    void predictedResponseIsWhatOpenSmDoes()
    {
        QFETCH(int, levels);
        QFETCH(int, nth);
        const test::Tree tree = test::makeTree(FabricShapeKind::KaryNTree, 4, levels);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Result<Lab> lab = startLab(dir.path(), tree);
        QVERIFY2(lab, lab ? "" : qPrintable(lab.error().toString()));
        QVERIFY(lab->sim->waitForOpenSmLog(kConfigured, kSweepTimeoutMs));
        Result<Fabric> live = test::discoverWithIbnetdiscover(*lab->sim, lab->topologyPath);
        QVERIFY2(live, live ? "" : qPrintable(live.error().toString()));
        Result<ForwardingTables> held = test::installedTables(*lab->sim, *live);
        QVERIFY(held);

        // The nth switch-to-switch cable, from its lower end.
        std::pair<NodeIndex, int> cable{kNoIndex, 0};
        int seen = 0;
        for (NodeIndex s : live->switches())
            for (int p = 1; p <= live->node(s).portCount && cable.first == kNoIndex; ++p) {
                const PortIndex port = live->portOf(s, p);
                if (port == kNoIndex || live->port(port).remote == kNoIndex)
                    continue;
                const NodeIndex peer = live->port(live->port(port).remote).node;
                if (live->node(peer).type == NodeType::Switch && live->node(peer).guid < live->node(s).guid && seen++ == nth)
                    cable = {s, p};
            }
        QVERIFY(cable.first != kNoIndex);
        WhatIf events;
        events.failedLinkPorts.emplace_back(live->node(cable.first).guid, cable.second);
        Result<IntentRouting> predicted = predictIntentResponse(*live, *held, tree.intent, events);
        QVERIFY2(predicted, predicted ? "" : qPrintable(predicted.error().toString()));
        QVERIFY2(!(predicted->routing.tables == *held), "the prediction changed nothing: the cable carried no route");

        // ibsim names nodes as the net file does: the generated fabric's names, found by GUID.
        const Fabric &generated = tree.generated.fabric;
        const NodeIndex named = generated.nodeByGuid(live->node(cable.first).guid);
        QVERIFY(named != kNoIndex);
        const qint64 offset = lab->sim->openSmLogSize();
        QVERIFY(lab->sim->simulatorCommands({QStringLiteral("Unlink \"%1\"[%2]").arg(generated.node(named).name).arg(cable.second)}));
        QVERIFY(lab->sim->waitForOpenSmLog(kConfigured, kSweepTimeoutMs, offset));
        Result<Fabric> after = test::discoverWithIbnetdiscover(*lab->sim, lab->topologyPath);
        QVERIFY(after);
        QCOMPARE(after->links().size() + 1, live->links().size());
        Result<ForwardingTables> done = test::installedTables(*lab->sim, *after);
        QVERIFY(done);
        const QString log = QString::fromUtf8(test::readAll(lab->sim->openSmLogPath()).mid(offset));
        qInfo("predicted by %s; OpenSM: %s", qPrintable(predicted->method),
              qPrintable(log.split(QLatin1Char('\n')).filter(QStringLiteral("weft: routed")).join(QStringLiteral(" | "))));
        QVERIFY2(log.contains(QStringLiteral(" by ") + predicted->method), qPrintable(log.right(2000)));
        QVERIFY2(predicted->routing.tables == *done, qPrintable(test::tableDifferences(predicted->routing.tables, *done)));
    }
};

QTEST_GUILESS_MAIN(TestLabOsmDrain)
#include "tst_lab_osm_drain.moc"
