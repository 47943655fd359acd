// Weft inside OpenSM: the real OpenSM loads libweftosm.so (event_plugin_name weftosm, the intent
// in event_plugin_options, routing_engine weft) on a fabric in ibsim. What the switches hold is
// read by the real dump_lfts and judged by this test's own walker, never by the engine:
// - they hold exactly `weft route --project` of the fabric ibnetdiscover finds, and saquery's
//   PathRecords give each vlane partition its SL;
// - with no Weft process running, cables unlinked in ibsim are routed around at OpenSM's own
//   re-sweep (every live pair reachable, no loop, no entry into a down port, phy-isolation as
//   kept as a full pftree of the degraded tree keeps it, few paths moved), and a relinked
//   fabric gets back the intent's own tables;
// - a corrupted intent leaves the last good one in force, with the error in OpenSM's log;
// - a plugin made to fail leaves OpenSM up on its fall-back engine.

#include "FabricGenerator.h"
#include "LabTables.h"
#include "LabTools.h"
#include "PathChanges.h"
#include "TenantTrees.h"
#include "Partitions.h"
#include "ProjectFile.h"
#include "RoutingEngine.h"
#include "SafeFile.h"
#include "SimulatedFabric.h"
#include "TopologyFile.h"
#include "Validation.h"
#include "WeftRunner.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <map>
#include <optional>
#include <set>

using namespace weft;

namespace {

constexpr int kSweepTimeoutMs = 60000;

// Where the build put libweftosm.so: ctest names it; run by hand, beside the build's tests.
struct PluginLab
{
    std::unique_ptr<SimulatedFabric> sim;
    QString intentPath;
    QString topologyPath;
};

Result<PluginLab> startPluginLab(const QString &dir, const test::Tree &tree, const QString &engines = QStringLiteral("weft"),
                                 const QStringList &environment = {}, const QByteArray &moreConfig = {})
{
    PluginLab lab;
    const Fabric &fabric = tree.generated.fabric;
    const NodeIndex smHost = tree.generated.hosts.front();
    lab.intentPath = dir + QStringLiteral("/intent.weft");
    lab.topologyPath = dir + QStringLiteral("/fabric.topo");
    const QString net = dir + QStringLiteral("/fabric.net");
    const QString partitions = dir + QStringLiteral("/partitions.conf");
    for (const auto &[path, data] : {std::pair{net, writeIbsimNet(fabric, smHost)}, std::pair{lab.intentPath, writeProject(tree.intent)},
                                     std::pair{partitions, writePartitionsConf(tree.intent.tenancy.partitions)}})
        if (const Status written = writeFileAtomically(path, data, false); !written)
            return written.error();
    SimulatedFabric::Options options;
    options.netFile = net;
    options.smNode = fabric.node(smHost).name;
    options.partitionsConf = partitions;
    options.openSmConfig = "event_plugin_name weftosm\nevent_plugin_options " + lab.intentPath.toUtf8() + "\nrouting_engine "
        + engines.toUtf8() + "\n" + moreConfig;
    options.openSmEnvironment = QStringList{QStringLiteral("LD_LIBRARY_PATH=") + test::osmPluginDirectory()} + environment;
    lab.sim = std::make_unique<SimulatedFabric>(options);
    if (const Status started = lab.sim->start(); !started)
        return started.error();
    return lab;
}

// What the switches hold beside `weft route --project` of the fabric discovered now (the dump
// written to `routed`, with its .sl): empty when equal, else the difference or the failure.
QString holdsWeftRoute(const PluginLab &lab, const QString &routed, std::optional<Fabric> *live, QByteArray *summary = nullptr)
{
    Result<Fabric> discovered = test::discoverWithIbnetdiscover(*lab.sim, lab.topologyPath);
    if (!discovered)
        return discovered.error().toString();
    *live = std::move(*discovered);
    const test::Run run = test::runWeft({QStringLiteral("route"), QStringLiteral("--project"), lab.intentPath, QStringLiteral("--topology"),
                                         lab.topologyPath, QStringLiteral("--out"), routed});
    if (run.exitCode != 0)
        return QString::fromUtf8(run.err);
    if (summary)
        *summary = run.out;
    Result<ForwardingTables> expected = readLftDumpFile(routed, &**live);
    if (!expected)
        return expected.error().toString();
    Result<ForwardingTables> held = test::installedTables(*lab.sim, **live);
    if (!held)
        return held.error().toString();
    if (held->size() != (*live)->switches().size())
        return QStringLiteral("%1 tables read for %2 switches").arg(held->size()).arg((*live)->switches().size());
    return *expected == *held ? QString() : test::tableDifferences(*expected, *held);
}

}  // namespace

class TestLabOsmEngine : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        const QString openSm = test::openSmVersionProblem();
        QVERIFY2(openSm.isEmpty(), qPrintable(openSm));
        const QString missing = SimulatedFabric::missingTools();
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("the lab tests need: ") + missing));
        QVERIFY2(QFile::exists(test::osmPluginDirectory() + QStringLiteral("/libweftosm.so")), qPrintable(test::osmPluginDirectory()));
    }

    void switchesHoldWeftRouteProject_data()
    {
        QTest::addColumn<int>("shape");
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("levels");
        QTest::addColumn<bool>("sharedCables");  // the vlane partitions must meet on a cable
        QTest::addRow("4-ary 2-tree") << int(FabricShapeKind::KaryNTree) << 4 << 2 << false;
        QTest::addRow("radix 8, 3 levels") << int(FabricShapeKind::SwitchRadix) << 8 << 3 << false;
        QTest::addRow("radix 4, 2 levels, tenants on lanes") << int(FabricShapeKind::SwitchRadix) << 4 << 2 << true;
    }

    void switchesHoldWeftRouteProject()
    {
        QFETCH(int, shape);
        QFETCH(int, size);
        QFETCH(int, levels);
        QFETCH(bool, sharedCables);
        const test::Tree tree = test::makeTree(FabricShapeKind(shape), size, levels, sharedCables);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Result<PluginLab> lab = startPluginLab(dir.path(), tree);
        QVERIFY2(lab, lab ? "" : qPrintable(lab.error().toString()));
        const Status configured = lab->sim->waitForOpenSmLog(QStringLiteral("weft tables configured on all switches"), kSweepTimeoutMs);
        QVERIFY2(configured, configured ? "" : qPrintable(configured.error().toString() + QString::fromUtf8(test::readAll(lab->sim->openSmLogPath()).right(3000))));

        const QString routed = dir.filePath(QStringLiteral("weft-route.lfts"));
        std::optional<Fabric> live;
        QByteArray summary;
        const QString differs = holdsWeftRoute(*lab, routed, &live, &summary);
        QVERIFY2(differs.isEmpty(), qPrintable(differs));
        QVERIFY2(summary.contains("engine: pftree"), summary.constData());

        // The vlane partitions' SLs, as `weft route` wrote them beside the tables, in PathRecords
        // (partitions.conf gives them none: the engine answers).
        const QByteArray slText = test::readAll(routed + QStringLiteral(".sl"));
        int onOwnLane = 0;
        for (const Partition &vlane : tree.intent.tenancy.partitions) {
            if (vlane.policy != IsolationPolicy::VirtualLane)
                continue;
            QVERIFY(vlane.members.size() >= 2);
            const QRegularExpression line(QStringLiteral("^0x0*%1\\s+(\\d+)").arg(*vlane.pkey, 0, 16), QRegularExpression::MultilineOption);
            const auto m = line.match(QString::fromUtf8(slText));
            QVERIFY2(m.hasMatch(), slText.constData());
            const int sl = m.captured(1).toInt();
            onOwnLane += sl > 0 ? 1 : 0;
            const Lid a = live->port(live->portByGuid(vlane.members[0].guid)).lid;
            const Lid b = live->port(live->portByGuid(vlane.members[1].guid)).lid;
            const auto pr = lab->sim->runClient(QStringLiteral("saquery"),
                                                {QStringLiteral("-p"), QStringLiteral("--src-to-dst"), QStringLiteral("%1:%2").arg(a).arg(b)});
            QVERIFY2(pr && pr->exitCode == 0, qPrintable(test::describe(pr)));
            const auto slField = QRegularExpression(QStringLiteral("\\bsl\\.+(0x[0-9a-f]+|\\d+)")).match(QString::fromUtf8(pr->out));
            QVERIFY2(slField.hasMatch(), qPrintable(QString::fromUtf8(pr->out + pr->err) + QString::fromUtf8(test::readAll(lab->sim->openSmLogPath())).split(QLatin1Char('\n')).filter(QStringLiteral("ERR")).join(QLatin1Char('\n')).right(1500)));
            QCOMPARE(slField.captured(1).toInt(nullptr, 0), sl);
        }
        if (sharedCables)  // else pftree may keep them apart on cables, and on one lane
            QVERIFY2(onOwnLane > 0, slText.constData());
    }

    // No Weft process: OpenSM's own re-sweeps after cables go, with the plugin routing.
    void faultsAreRoutedAtOpenSmsSweep()
    {
        const test::Tree tree = test::makeTree(FabricShapeKind::SwitchRadix, 8, 3);
        const Fabric &fabric = tree.generated.fabric;
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Result<PluginLab> lab = startPluginLab(dir.path(), tree);
        QVERIFY2(lab, lab ? "" : qPrintable(lab.error().toString()));
        QVERIFY(lab->sim->waitForOpenSmLog(QStringLiteral("weft tables configured on all switches"), kSweepTimeoutMs));
        Result<Fabric> whole = test::discoverWithIbnetdiscover(*lab->sim, lab->topologyPath);
        QVERIFY2(whole, whole ? "" : qPrintable(whole.error().toString()));
        Result<ForwardingTables> intended = test::installedTables(*lab->sim, *whole);
        QVERIFY(intended);

        // A leaf's uplink, then a core link (aggregation to root), then every cable of one
        // aggregation switch: each change with its own re-sweep.
        const std::vector<int> &level = tree.generated.nodeLevel;
        auto cableOf = [&](int upperLevel, int nth) -> std::pair<NodeIndex, int> {
            int seen = 0;
            for (NodeIndex s : fabric.switches())
                for (int p = 1; p <= fabric.node(s).portCount; ++p) {
                    const Port &port = fabric.port(fabric.portOf(s, p));
                    if (port.remote == kNoIndex)
                        continue;
                    const NodeIndex peer = fabric.port(port.remote).node;
                    if (fabric.node(peer).type == NodeType::Switch && level[std::size_t(peer)] == upperLevel
                        && level[std::size_t(s)] == upperLevel + 1 && seen++ == nth)
                        return {s, p};
                }
            return {kNoIndex, 0};
        };
        const auto leafUplink = cableOf(1, 5);
        const auto coreLink = cableOf(0, 3);
        QVERIFY(leafUplink.first != kNoIndex && coreLink.first != kNoIndex);
        NodeIndex aggregation = kNoIndex;
        for (NodeIndex s : fabric.switches())
            if (level[std::size_t(s)] == 1 && s != coreLink.first && s != fabric.port(fabric.port(fabric.portOf(leafUplink.first, leafUplink.second)).remote).node)
                aggregation = s;
        QVERIFY(aggregation != kNoIndex);
        QStringList everyCable;
        for (int p = 1; p <= fabric.node(aggregation).portCount; ++p)
            if (fabric.port(fabric.portOf(aggregation, p)).remote != kNoIndex)
                everyCable << QStringLiteral("Unlink \"%1\"[%2]").arg(fabric.node(aggregation).name).arg(p);
        const std::vector<std::pair<QString, QStringList>> steps = {
            {QStringLiteral("a leaf uplink"), {QStringLiteral("Unlink \"%1\"[%2]").arg(fabric.node(leafUplink.first).name).arg(leafUplink.second)}},
            {QStringLiteral("a core link"), {QStringLiteral("Unlink \"%1\"[%2]").arg(fabric.node(coreLink.first).name).arg(coreLink.second)}},
            {QStringLiteral("every cable of one switch"), everyCable},
        };

        test::Paths before = test::allPaths(*whole, *intended);
        for (const auto &[what, commands] : steps) {
            const qint64 offset = lab->sim->openSmLogSize();
            const Status done = lab->sim->simulatorCommands(commands);
            QVERIFY2(done, done ? "" : qPrintable(done.error().toString()));
            const Status swept = lab->sim->waitForOpenSmLog(QStringLiteral("weft tables configured on all switches"), kSweepTimeoutMs, offset);
            QVERIFY2(swept, qPrintable(what + QStringLiteral(": no re-sweep")));
            // The switches are read when OpenSM has sent the tables; a second read that agrees
            // says the sweep has finished writing.
            Result<Fabric> live = test::discoverWithIbnetdiscover(*lab->sim, lab->topologyPath);
            QVERIFY2(live, live ? "" : qPrintable(live.error().toString()));
            Result<ForwardingTables> held = test::installedTables(*lab->sim, *live);
            QVERIFY2(held, held ? "" : qPrintable(held.error().toString()));

            const test::Judged j = test::judgeAfterFault(*live, *held, before);
            const ValidationResult v = validateRouting(*live, tree.intent.tenancy, *held);
            // The isolation oracle: a full pftree of the degraded tree, from scratch.
            const Result<Routing> oracle = routeFabric(QStringLiteral("pftree"), *live, tree.intent.tenancy);
            QVERIFY2(oracle, oracle ? "" : qPrintable(oracle.error().toString()));
            const ValidationResult best = validateRouting(*live, tree.intent.tenancy, oracle->tables);
            qInfo("%s: %zu pair(s) forced, %zu changed; %zu isolation violation(s) (full pftree: %zu); log: %s", qPrintable(what),
                  j.forced, j.changed, v.policyViolations, best.policyViolations,
                  qPrintable(QString::fromUtf8(test::readAll(lab->sim->openSmLogPath()).mid(offset)).split(QLatin1Char('\n')).filter(QStringLiteral("weft:")).join(QStringLiteral(" | "))));
            QCOMPARE(j.unreachable, std::size_t(0));
            QCOMPARE(j.intoDownPorts, std::size_t(0));
            QCOMPARE(v.loops, std::size_t(0));
            QVERIFY(v.deadlockFree);
            QCOMPARE(v.unreachablePartitionPairs + v.unreachableOtherPairs, std::uint64_t(0));
            QVERIFY2(v.policyViolations <= best.policyViolations, qPrintable(what));
            QVERIFY2(j.forced > 0, qPrintable(what));
            QVERIFY2(double(j.changed) <= 1.25 * double(j.forced),
                     qPrintable(QStringLiteral("%1: %2 paths changed for %3 forced").arg(what).arg(j.changed).arg(j.forced)));
            before = test::allPaths(*live, *held);
        }

        // Every cable back: the intent's own tables again.
        QStringList relink;
        for (const auto &[what, commands] : steps)
            for (QString c : commands)
                relink << c.replace(QStringLiteral("Unlink"), QStringLiteral("Relink"));
        const qint64 offset = lab->sim->openSmLogSize();
        QVERIFY(lab->sim->simulatorCommands(relink));
        QVERIFY(lab->sim->waitForOpenSmLog(QStringLiteral("weft tables configured on all switches"), kSweepTimeoutMs, offset));
        Result<ForwardingTables> again = Error{{}, 0, QStringLiteral("not read")};
        for (int attempt = 0; attempt < 20; ++attempt) {  // the relinked ports come up sweep by sweep
            Result<Fabric> live = test::discoverWithIbnetdiscover(*lab->sim, lab->topologyPath);
            QVERIFY(live);
            again = test::installedTables(*lab->sim, *live);
            QVERIFY(again);
            if (live->links().size() == whole->links().size() && *again == *intended)
                break;
            QTest::qWait(1000);
        }
        QVERIFY2(*again == *intended, qPrintable(test::tableDifferences(*intended, *again)));
    }

    void corruptIntentKeepsTheLastGood()
    {
        const test::Tree tree = test::makeTree(FabricShapeKind::KaryNTree, 4, 2);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Result<PluginLab> lab = startPluginLab(dir.path(), tree);
        QVERIFY2(lab, lab ? "" : qPrintable(lab.error().toString()));
        QVERIFY(lab->sim->waitForOpenSmLog(QStringLiteral("weft tables configured on all switches"), kSweepTimeoutMs));
        Result<Fabric> live = test::discoverWithIbnetdiscover(*lab->sim, lab->topologyPath);
        QVERIFY(live);
        Result<ForwardingTables> before = test::installedTables(*lab->sim, *live);
        QVERIFY(before);

        // Behind Weft's back: an engine that does not exist on line 3... then broken JSON.
        QByteArray text = writeProject(tree.intent);
        text.replace("\"pftree\"", "\"pftree\",,");
        QVERIFY(writeFileAtomically(lab->intentPath, text, false));
        const qint64 offset = lab->sim->openSmLogSize();
        QVERIFY(::kill(pid_t(lab->sim->openSmPid()), SIGHUP) == 0);
        const Status logged = lab->sim->waitForOpenSmLog(QStringLiteral("keeping the last good intent"), kSweepTimeoutMs, offset);
        QVERIFY2(logged, qPrintable(QString::fromUtf8(test::readAll(lab->sim->openSmLogPath()).mid(offset).right(3000))));
        const QString log = QString::fromUtf8(test::readAll(lab->sim->openSmLogPath()).mid(offset));
        QVERIFY2(QRegularExpression(QRegularExpression::escape(lab->intentPath) + QStringLiteral(":\\d+: invalid JSON")).match(log).hasMatch(),
                 qPrintable(log.right(2000)));
        QVERIFY(lab->sim->waitForOpenSmLog(QStringLiteral("weft tables configured on all switches"), kSweepTimeoutMs, offset));
        Result<ForwardingTables> after = test::installedTables(*lab->sim, *live);
        QVERIFY(after);
        QVERIFY2(*after == *before, qPrintable(test::tableDifferences(*before, *after)));
        QVERIFY(lab->sim->isRunning());
    }

    // `weft commit --opensm-intent`: a changed project written as the intent, OpenSM reloaded,
    // and the switches hold exactly `weft route --project` of the new project, the ports the
    // new partitions.
    void commitInPluginMode()
    {
        const test::Tree tree = test::makeTree(FabricShapeKind::KaryNTree, 4, 2);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Result<PluginLab> lab = startPluginLab(dir.path(), tree);
        QVERIFY2(lab, lab ? "" : qPrintable(lab.error().toString()));
        QVERIFY(lab->sim->waitForOpenSmLog(QStringLiteral("weft tables configured on all switches"), kSweepTimeoutMs));
        const QString pidFile = dir.filePath(QStringLiteral("opensm.pid"));
        QVERIFY(writeFileAtomically(pidFile, QByteArray::number(lab->sim->openSmPid()) + '\n', false));

        // The operator's change: blue's hosts join red; green stays on its lane.
        Project changed = tree.intent;
        Partition &red = changed.tenancy.partitions[0];
        Partition &blue = changed.tenancy.partitions[1];
        red.members.insert(red.members.end(), blue.members.begin(), blue.members.end());
        const Guid movedHost = blue.members.front().guid;
        blue.members.erase(blue.members.begin());
        const QString project = dir.filePath(QStringLiteral("changed.weft"));
        QVERIFY(writeFileAtomically(project, writeProject(changed), false));

        QProcess weft;
        weft.setProcessEnvironment(lab->sim->clientEnvironment());
        weft.start(qEnvironmentVariable("WEFT_BINARY"),
                   {QStringLiteral("commit"), QStringLiteral("--project"), project, QStringLiteral("--opensm-intent"), lab->intentPath,
                    QStringLiteral("--opensm-partitions"), dir.filePath(QStringLiteral("partitions.conf")), QStringLiteral("--opensm-pidfile"),
                    pidFile, QStringLiteral("--opensm-log"), lab->sim->openSmLogPath(), QStringLiteral("--accept-violations")});
        QVERIFY(weft.waitForFinished(300000));
        const QByteArray report = weft.readAllStandardOutput() + weft.readAllStandardError();
        QVERIFY2(weft.exitCode() == 0, report.constData());
        QVERIFY2(report.contains("outcome: committed"), report.constData());
        QCOMPARE(test::readAll(lab->intentPath), test::readAll(project));

        Result<Fabric> live = test::discoverWithIbnetdiscover(*lab->sim, lab->topologyPath);
        QVERIFY(live);
        const QString routed = dir.filePath(QStringLiteral("changed.lfts"));
        const test::Run run = test::runWeft({QStringLiteral("route"), QStringLiteral("--project"), project, QStringLiteral("--topology"),
                                             lab->topologyPath, QStringLiteral("--out"), routed});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        Result<ForwardingTables> expected = readLftDumpFile(routed, &*live);
        QVERIFY(expected);
        Result<ForwardingTables> held = test::installedTables(*lab->sim, *live);
        QVERIFY(held);
        QVERIFY2(*expected == *held, qPrintable(test::tableDifferences(*expected, *held)));
        // The moved host holds red's P_Key now, read by smpquery.
        const Lid lid = live->port(live->portByGuid(movedHost)).lid;
        const auto pkeys = lab->sim->runClient(QStringLiteral("smpquery"), {QStringLiteral("pkeys"), QString::number(lid)});
        QVERIFY2(pkeys && pkeys->exitCode == 0, qPrintable(test::describe(pkeys)));
        const std::set<int> held_pkeys = test::smpqueryPKeys(pkeys->out);
        QVERIFY2(held_pkeys.count(0x8010) == 1, pkeys->out.constData());
        QVERIFY2(held_pkeys.count(0x8020) == 0, pkeys->out.constData());
    }

    // The plugin on a standby: the master dies, the standby takes over and routes with Weft's
    // engine from the intent, so the switches hold `weft route --project`, the tenants keep
    // their P_Keys, and the vlane partition's PathRecords come from the new master's engine.
    void standbyTakesOverWithTheIntent()
    {
        const test::Tree tree = test::makeTree(FabricShapeKind::SwitchRadix, 4, 2, true);
        const Fabric &fabric = tree.generated.fabric;
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // Polled once a second, given up on after two misses: the takeover within seconds.
        const QByteArray polling = "sminfo_polling_timeout 1000\npolling_retry_number 2\n";
        Result<PluginLab> lab = startPluginLab(dir.path(), tree, QStringLiteral("weft"), {}, "sm_priority 10\n" + polling);
        QVERIFY2(lab, lab ? "" : qPrintable(lab.error().toString()));
        QVERIFY(lab->sim->waitForOpenSmLog(QStringLiteral("weft tables configured on all switches"), kSweepTimeoutMs));
        const NodeIndex standbyHost = tree.generated.hosts.back();
        QVERIFY(standbyHost != tree.generated.hosts.front());
        const Status standing = lab->sim->startStandbyOpenSm(fabric.node(standbyHost).name, "sm_priority 5\n" + polling);
        QVERIFY2(standing, standing ? "" : qPrintable(standing.error().toString() + QString::fromUtf8(test::readAll(lab->sim->standbyLogPath()).right(2000))));
        // A standby routes nothing.
        QVERIFY(!test::readAll(lab->sim->standbyLogPath()).contains("weft tables configured"));

        const qint64 before = QFileInfo(lab->sim->standbyLogPath()).size();
        lab->sim->killOpenSm();
        const Status master = lab->sim->waitForStandbyLog(QStringLiteral("Entering MASTER state"), kSweepTimeoutMs, before);
        QVERIFY2(master, qPrintable(QString::fromUtf8(test::readAll(lab->sim->standbyLogPath()).mid(before).right(3000))));
        const Status configured = lab->sim->waitForStandbyLog(QStringLiteral("weft tables configured on all switches"), kSweepTimeoutMs, before);
        QVERIFY2(configured, qPrintable(QString::fromUtf8(test::readAll(lab->sim->standbyLogPath()).mid(before).right(3000))));
        QVERIFY2(test::readAll(lab->sim->standbyLogPath()).mid(before).contains("weft: routed"), "the standby's own engine did not route");
        const Status up = lab->sim->waitForStandbyLog(QStringLiteral("SUBNET UP"), kSweepTimeoutMs, before);
        QVERIFY2(up, qPrintable(QString::fromUtf8(test::readAll(lab->sim->standbyLogPath()).mid(before).right(3000))));

        const QString routed = dir.filePath(QStringLiteral("weft-route.lfts"));
        std::optional<Fabric> live;
        const QString differs = holdsWeftRoute(*lab, routed, &live);
        QVERIFY2(differs.isEmpty(), qPrintable(differs));

        // Every tenant's P_Key on its members, from the standby's partitions (the same -P file).
        int checked = 0;
        for (const Partition &tenant : tree.intent.tenancy.partitions) {
            if (!tenant.pkey || (*tenant.pkey & 0x7fff) == 0x7fff)
                continue;
            for (const PartitionMember &member : tenant.members) {
                const PortIndex port = live->portByGuid(member.guid);
                QVERIFY(port != kNoIndex);
                const auto pkeys = lab->sim->runClient(QStringLiteral("smpquery"), {QStringLiteral("pkeys"), QString::number(live->port(port).lid)});
                QVERIFY2(pkeys && pkeys->exitCode == 0, qPrintable(test::describe(pkeys)));
                QVERIFY2(test::smpqueryPKeys(pkeys->out).count(int(*tenant.pkey | 0x8000)) == 1, pkeys->out.constData());
                ++checked;
            }
        }
        QVERIFY(checked > 0);

        // A vlane partition's PathRecord carries the SL the new master's engine gives it.
        const QByteArray slText = test::readAll(routed + QStringLiteral(".sl"));
        for (const Partition &vlane : tree.intent.tenancy.partitions) {
            if (vlane.policy != IsolationPolicy::VirtualLane)
                continue;
            const QRegularExpression line(QStringLiteral("^0x0*%1\\s+(\\d+)").arg(*vlane.pkey, 0, 16), QRegularExpression::MultilineOption);
            const auto m = line.match(QString::fromUtf8(slText));
            QVERIFY2(m.hasMatch(), slText.constData());
            const Lid a = live->port(live->portByGuid(vlane.members[0].guid)).lid;
            const Lid b = live->port(live->portByGuid(vlane.members[1].guid)).lid;
            // Asked from the new master's port: the dead master's port is no longer the SM's, so
            // it is no member of the vlane partition the SA would answer for.
            const auto pr = lab->sim->runClient(QStringLiteral("saquery"), {QStringLiteral("-p"), QStringLiteral("--src-to-dst"), QStringLiteral("%1:%2").arg(a).arg(b)},
                                                120000, fabric.node(standbyHost).name);
            QVERIFY2(pr && pr->exitCode == 0, qPrintable(test::describe(pr)));
            const auto slField = QRegularExpression(QStringLiteral("\\bsl\\.+(0x[0-9a-f]+|\\d+)")).match(QString::fromUtf8(pr->out));
            QVERIFY2(slField.hasMatch(), qPrintable(QStringLiteral("%1:%2: ").arg(a).arg(b) + QString::fromUtf8(pr->out + pr->err)));
            QCOMPARE(slField.captured(1).toInt(nullptr, 0), m.captured(1).toInt());
        }
    }

    void failingPluginLeavesOpenSmUp_data()
    {
        QTest::addColumn<QString>("how");
        QTest::addColumn<QString>("engines");
        QTest::addColumn<QString>("fallback");
        QTest::addRow("an error, chain weft,updn") << QStringLiteral("route") << QStringLiteral("weft,updn") << QStringLiteral("updn");
        QTest::addRow("an exception, weft alone") << QStringLiteral("throw") << QStringLiteral("weft") << QStringLiteral("minhop");
    }

    void failingPluginLeavesOpenSmUp()
    {
        QFETCH(QString, how);
        QFETCH(QString, engines);
        QFETCH(QString, fallback);
        const test::Tree tree = test::makeTree(FabricShapeKind::KaryNTree, 4, 2);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Result<PluginLab> lab = startPluginLab(dir.path(), tree, engines, {QStringLiteral("WEFT_OSM_TEST_FAIL=") + how});
        QVERIFY2(lab, lab ? "" : qPrintable(lab.error().toString()));
        const Status configured = lab->sim->waitForOpenSmLog(fallback + QStringLiteral(" tables configured on all switches"), kSweepTimeoutMs);
        QVERIFY2(configured, qPrintable(QString::fromUtf8(test::readAll(lab->sim->openSmLogPath()).right(3000))));
        const QString log = QString::fromUtf8(test::readAll(lab->sim->openSmLogPath()));
        QVERIFY(log.contains(QStringLiteral("weft: ")));
        QVERIFY(!log.contains(QStringLiteral("weft tables configured")));
        QVERIFY(lab->sim->isRunning());
        Result<Fabric> live = test::discoverWithIbnetdiscover(*lab->sim, lab->topologyPath);
        QVERIFY2(live, live ? "" : qPrintable(live.error().toString()));
    }
};

QTEST_GUILESS_MAIN(TestLabOsmEngine)
#include "tst_lab_osm_engine.moc"
