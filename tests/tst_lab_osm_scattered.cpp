// Weft's engine inside the real OpenSM isolates two scattered phy tenants (issue 42): every host
// but the SM's given to one of them at random (seeded) on a three-level tree of 8-port switches,
// the intent's search budget 1 s. What the switches hold, read back by dump_lfts, is judged by
// this test alone (validateRouting's walk): no link carries both tenants, no pair unreachable, no
// loop; OpenSM's log says isolation was kept, and the sweep's routing took no longer than the
// budget.

#include "FabricGenerator.h"
#include "LabTables.h"
#include "LabTools.h"
#include "Partitions.h"
#include "ProjectFile.h"
#include "SafeFile.h"
#include "SharedLinks.h"
#include "SimulatedFabric.h"
#include "TopologyFile.h"
#include "Validation.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <random>

using namespace weft;

namespace {

constexpr int kSweepTimeoutMs = 60000;
constexpr double kBudgetSeconds = 1.0;

}  // namespace

class TestLabOsmScattered : public QObject
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

    void scatteredTenantsIsolated()
    {
        GeneratorOptions options;
        options.shape = FabricShapeKind::SwitchRadix;
        options.radix = 8;
        options.levels = 3;
        options.linkSpeed = LinkSpeed::SDR;
        Result<GeneratedFabric> generated = generateFabric(options);
        QVERIFY2(generated, generated ? "" : qPrintable(generated.error().toString()));
        const Fabric &fabric = generated->fabric;
        const std::vector<NodeIndex> &hosts = generated->hosts;

        std::vector<std::vector<Guid>> members(2);
        std::mt19937 rng(42);
        for (std::size_t i = 1; i < hosts.size(); ++i)
            members[rng() % 2].push_back(fabric.port(fabric.portOf(hosts[i], 1)).guid);
        Project intent;
        intent.routingEngine = QStringLiteral("pftree");
        intent.routingOptions.insert(QStringLiteral("search_budget"), kBudgetSeconds);
        for (int k = 0; k < 2; ++k)
            intent.tenancy.partitions.push_back(
                test::partition(QStringLiteral("tenant%1").arg(k + 1), std::uint16_t(0x71 + k), members[std::size_t(k)], IsolationPolicy::Physical));

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString intentPath = dir.filePath(QStringLiteral("intent.weft"));
        const QString topologyPath = dir.filePath(QStringLiteral("fabric.topo"));
        const QString net = dir.filePath(QStringLiteral("fabric.net"));
        const QString partitions = dir.filePath(QStringLiteral("partitions.conf"));
        for (const auto &[path, data] : {std::pair{net, writeIbsimNet(fabric, hosts.front())}, std::pair{intentPath, writeProject(intent)},
                                         std::pair{partitions, writePartitionsConf(intent.tenancy.partitions)}}) {
            const Status written = writeFileAtomically(path, data, false);
            QVERIFY2(written, written ? "" : qPrintable(written.error().toString()));
        }
        SimulatedFabric::Options simOptions;
        simOptions.netFile = net;
        simOptions.smNode = fabric.node(hosts.front()).name;
        simOptions.partitionsConf = partitions;
        simOptions.openSmConfig = "event_plugin_name weftosm\nevent_plugin_options " + intentPath.toUtf8() + "\nrouting_engine weft\n";
        simOptions.openSmEnvironment = QStringList{QStringLiteral("LD_LIBRARY_PATH=") + test::osmPluginDirectory()};
        SimulatedFabric sim(simOptions);
        const Status started = sim.start();
        QVERIFY2(started, started ? "" : qPrintable(started.error().toString()));
        const Status swept = sim.waitForOpenSmLog(QStringLiteral("weft tables configured on all switches"), kSweepTimeoutMs);
        QVERIFY2(swept, qPrintable(QString::fromUtf8(test::readAll(sim.openSmLogPath()).right(3000))));

        Result<Fabric> live = test::discoverWithIbnetdiscover(sim, topologyPath);
        QVERIFY2(live, live ? "" : qPrintable(live.error().toString()));
        Result<ForwardingTables> held = test::installedTables(sim, *live);
        QVERIFY2(held, held ? "" : qPrintable(held.error().toString()));
        const ValidationResult v = validateRouting(*live, intent.tenancy, *held);
        const int shared = test::sharedLinks(v);
        const QString log = QString::fromUtf8(test::readAll(sim.openSmLogPath()));
        const QString said = log.split(QLatin1Char('\n')).filter(QStringLiteral("weft:")).join(QStringLiteral(" | "));
        qInfo("%d link(s) shared by the tenants; %llu pair(s) unreachable, %zu loop(s); log: %s", shared,
              qulonglong(v.unreachablePartitionPairs + v.unreachableOtherPairs), v.loops, qPrintable(said));
        QCOMPARE(v.unreachablePartitionPairs + v.unreachableOtherPairs, std::uint64_t(0));
        QCOMPARE(v.loops, std::size_t(0));
        QCOMPARE(shared, 0);
        QVERIFY2(said.contains(QStringLiteral("phy-isolation kept")), qPrintable(said));
        // The sweep's routing, as the engine logs it, within the budget.
        static const QRegularExpression routed(QStringLiteral("routed .* by pftree in (\\d+) ms"));
        const QRegularExpressionMatch m = routed.match(log);
        QVERIFY2(m.hasMatch(), qPrintable(said));
        QVERIFY2(m.captured(1).toDouble() <= kBudgetSeconds * 1000, qPrintable(m.captured(0)));
    }
};

QTEST_GUILESS_MAIN(TestLabOsmScattered)
#include "tst_lab_osm_scattered.moc"
