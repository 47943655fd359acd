// Integration: a fabric made by Weft's generator is loaded into the real ibsim, brought up by
// the real OpenSM, discovered by the real ibnetdiscover, and Weft's parse of that output must
// match the generated structure, with the LIDs OpenSM assigned.

#include "FabricCompare.h"
#include "FabricGenerator.h"
#include "SafeFile.h"
#include "LabTools.h"
#include "SimulatedFabric.h"
#include "TopologyFile.h"

#include <QRegularExpression>
#include "OpenSmLids.h"

#include <QtTest>

using namespace weft;

namespace {

using test::openSmLids;

}  // namespace

class TestLabDiscovery : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        const QString openSm = weft::test::openSmVersionProblem();  // once, before any lab starts
        QVERIFY2(openSm.isEmpty(), qPrintable(openSm));
        const QString missing = SimulatedFabric::missingTools();
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("integration tests need: ") + missing));
    }

    void discoveredFabricMatchesGenerated_data()
    {
        QTest::addColumn<int>("shape");
        QTest::addColumn<int>("a");
        QTest::addColumn<int>("levels");
        QTest::addColumn<int>("removeLinks");
        QTest::addColumn<int>("vfs");
        QTest::addRow("radix 8, 2 levels") << int(FabricShapeKind::SwitchRadix) << 8 << 2 << 0 << 0;
        QTest::addRow("radix 8, 3 levels") << int(FabricShapeKind::SwitchRadix) << 8 << 3 << 0 << 0;
        QTest::addRow("4-ary 3-tree, 5 links removed") << int(FabricShapeKind::KaryNTree) << 4 << 3 << 5 << 0;
        QTest::addRow("2-ary 2-tree, hypervisors with 2 VFs") << int(FabricShapeKind::KaryNTree) << 2 << 2 << 0 << 2;
    }

    void discoveredFabricMatchesGenerated()
    {
        QFETCH(int, shape);
        QFETCH(int, a);
        QFETCH(int, levels);
        QFETCH(int, removeLinks);
        QFETCH(int, vfs);

        GeneratorOptions options;
        options.shape = FabricShapeKind(shape);
        options.arity = a;
        options.radix = a;
        options.levels = levels;
        options.removeRandomLinks = removeLinks;
        options.seed = 7;
        options.hypervisors = vfs > 0;
        options.vfsPerHypervisor = vfs;
        options.linkSpeed = LinkSpeed::SDR;  // what ibsim reports
        Result<GeneratedFabric> generated = generateFabric(options);
        QVERIFY2(generated.ok(), generated.ok() ? "" : qPrintable(generated.error().toString()));
        const Fabric &expected = generated->fabric;

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString net = dir.filePath(QStringLiteral("fabric.net"));
        // The subnet manager runs on the first host, as on a real cluster's head node.
        const NodeIndex smHost = expected.endNodes().front();
        QVERIFY(writeFileAtomically(net, writeIbsimNet(expected, smHost)).ok());

        SimulatedFabric::Options simOptions;
        simOptions.netFile = net;
        simOptions.smNode = expected.node(smHost).name;
        SimulatedFabric sim(simOptions);
        const Status started = sim.start();
        QVERIFY2(started.ok(), started.ok() ? "" : qPrintable(started.error().toString()));

        Result<SimulatedFabric::ClientResult> discovery = sim.runClient(QStringLiteral("ibnetdiscover"), {});
        QVERIFY2(discovery.ok(), discovery.ok() ? "" : qPrintable(discovery.error().toString()));
        QCOMPARE(discovery->exitCode, 0);

        Result<Fabric> discovered = readTopology(discovery->out, QStringLiteral("ibnetdiscover output"));
        QVERIFY2(discovered.ok(), discovered.ok() ? "" : qPrintable(discovered.error().toString()));

        // Structure: nodes, GUIDs, descriptions, every cable between the same port numbers.
        test::CompareOptions structure;
        structure.lids = false;
        QString diff = test::compareFabrics(expected, *discovered, structure);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));

        // LIDs: what Weft read must be what OpenSM says it assigned, port by port.
        const std::map<Guid, Lid> assigned = openSmLids(sim.workDir() + QStringLiteral("/opensm-subnet.lst"));
        QVERIFY(!assigned.empty());
        std::size_t checked = 0;
        for (const auto &[portGuid, lid] : assigned) {
            const PortIndex p = discovered->portByGuid(portGuid);
            QVERIFY2(p != kNoIndex, qPrintable(test::hexGuid(portGuid)));
            QCOMPARE(discovered->port(p).lid, lid);
            ++checked;
        }
        QCOMPARE(checked, expected.switches().size() + expected.channelAdapterCount());

        // The generator's LIDs are in the net file and OpenSM keeps valid LIDs it finds, so
        // the discovered fabric carries them exactly.
        diff = test::compareFabrics(expected, *discovered);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
    }
};

QTEST_GUILESS_MAIN(TestLabDiscovery)
#include "tst_lab_discovery.moc"
