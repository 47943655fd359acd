// Weft's SMP prediction against the real OpenSM: OpenSM runs under ibsim with the `file`
// engine and a partitions.conf; each step writes new tables and/or partitions to the same
// files, sends SIGHUP, waits for the heavy sweep to finish and counts the LinearForwardingTable,
// SwitchInfo and PKeyTable Sets OpenSM sent (its debug log names every SMP it sets). The
// counts must equal what Weft's diff predicts for the same change.

#include "FabricGenerator.h"
#include "Partitions.h"
#include "LftDump.h"
#include "PKeyTables.h"
#include "PartitionsConf.h"
#include "ReconfigurationDiff.h"
#include "RoutingEngine.h"
#include "SafeFile.h"
#include "LabTools.h"
#include "SimulatedFabric.h"
#include "TopologyFile.h"

#include <QtTest>

#include <csignal>
#include <sys/types.h>

using namespace weft;

namespace {

struct SentSmps
{
    int lftBlocks = 0;
    int switchInfo = 0;
    int pkeyBlocks = 0;
};

// Counts the Set SMPs in a stretch of OpenSM's log: at debug level (-D 0x08) it logs every
// SMP it prepares to set, "osm_prepare_req_set: Setting <attribute> (0x<id>), modifier ...".
SentSmps countSets(const QByteArray &log)
{
    SentSmps sent;
    for (const QByteArray &line : log.split('\n')) {
        if (!line.contains("osm_prepare_req_set: Setting "))
            continue;
        if (line.contains("(0x19)"))
            ++sent.lftBlocks;
        else if (line.contains("(0x12)"))
            ++sent.switchInfo;
        else if (line.contains("(0x16)"))
            ++sent.pkeyBlocks;
    }
    return sent;
}

QByteArray readFrom(const QString &path, qint64 offset)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly) || !f.seek(offset))
        return {};
    return f.readAll();
}

Guid hostPortGuid(const GeneratedFabric &g, std::size_t host)
{
    return g.fabric.port(g.fabric.portOf(g.hosts[host], 1)).guid;
}

using test::partition;

}  // namespace

class TestLabSmp : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        const QString openSm = weft::test::openSmVersionProblem();  // once, before any lab starts
        QVERIFY2(openSm.isEmpty(), qPrintable(openSm));
        const QString missing = SimulatedFabric::missingTools();
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("the lab tests need: ") + missing));
    }

    void predictionEqualsWhatOpenSmSends()
    {
        GeneratorOptions options;
        options.arity = 4;
        options.levels = 2;
        options.linkSpeed = LinkSpeed::SDR;
        Result<GeneratedFabric> generated = generateFabric(options);
        QVERIFY(generated.ok());
        const GeneratedFabric &g = *generated;
        const Fabric &fabric = g.fabric;
        QVERIFY(g.hosts.size() >= 10);

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString net = dir.filePath(QStringLiteral("fabric.net"));
        const QString lftsPath = dir.filePath(QStringLiteral("weft.lfts"));
        const QString partitionsPath = dir.filePath(QStringLiteral("partitions.conf"));
        const NodeIndex smHost = fabric.endNodes().front();
        QVERIFY(writeFileAtomically(net, writeIbsimNet(fabric, smHost)).ok());
        PKeyTableOptions pkeyOptions;
        pkeyOptions.smPortGuid = fabric.port(fabric.portOf(smHost, 1)).guid;

        auto route = [&](const QString &engine, const Fabric &on, const Tenancy &tenancy) {
            Result<Routing> r = routeFabric(engine, on, tenancy);
            if (!r.ok())
                qFatal("%s", qPrintable(r.error().toString()));
            return r->tables;
        };

        ForwardingTables current = route(QStringLiteral("ftree"), fabric, Tenancy{});
        std::vector<Partition> partitions = withExplicitDefault({partition(QStringLiteral("red"), 0x0001,
            {hostPortGuid(g, 1), hostPortGuid(g, 2), hostPortGuid(g, 3)})});
        QVERIFY(writeFileAtomically(lftsPath, writeLftDump(current, &fabric)).ok());
        QVERIFY(writeFileAtomically(partitionsPath, writePartitionsConf(partitions)).ok());
        PKeyTables heldPKeys = computePKeyTables(fabric, partitions, pkeyOptions);

        SimulatedFabric::Options simOptions;
        simOptions.netFile = net;
        simOptions.smNode = fabric.node(smHost).name;
        simOptions.partitionsConf = partitionsPath;
        simOptions.openSmArgs = {QStringLiteral("-R"), QStringLiteral("file"), QStringLiteral("-U"), lftsPath,
                                 QStringLiteral("-D"), QStringLiteral("0x8B")};
        SimulatedFabric sim(simOptions);
        const Status started = sim.start();
        QVERIFY2(started.ok(), started.ok() ? "" : qPrintable(started.error().toString()));
        QVERIFY(sim.waitForOpenSmLog(QStringLiteral("SUBNET UP"), 30000).ok());

        struct Step
        {
            QString name;
            ForwardingTables tables;
            std::vector<Partition> partitions;
            bool realChange = true;  // one of the five cases: must cost something
        };
        std::vector<Step> steps;

        // 1. Node weights: wftree, uniform and then with one heavy host.
        steps.push_back({QStringLiteral("engine ftree -> wftree"), route(QStringLiteral("wftree"), fabric, Tenancy{}), partitions, false});
        Tenancy weighted;
        weighted.nodeWeights[hostPortGuid(g, 0)] = 8.0;
        weighted.nodeWeights[hostPortGuid(g, 5)] = 4.0;
        steps.push_back({QStringLiteral("node weight change (wftree)"), route(QStringLiteral("wftree"), fabric, weighted), partitions});
        // 2. Partitions: a member removed, one added, and a new partition.
        std::vector<Partition> changed = withExplicitDefault({
            partition(QStringLiteral("red"), 0x0001, {hostPortGuid(g, 2), hostPortGuid(g, 3), hostPortGuid(g, 4)}),
            partition(QStringLiteral("blue"), 0x0002, {hostPortGuid(g, 8), hostPortGuid(g, 9)})});
        steps.push_back({QStringLiteral("partition change"), steps.back().tables, changed});
        // 3. Migration-like: host 1's LID now routed as host 9's.
        {
            ForwardingTables moved = steps.back().tables;
            const Lid lid = fabric.nodeLid(g.hosts[1]);
            const Lid like = fabric.nodeLid(g.hosts[9]);
            for (std::size_t i = 0; i < moved.size(); ++i)
                moved.lft(i).setPort(lid, moved.at(i).lft.port(like));
            steps.push_back({QStringLiteral("one LID moved"), moved, changed});
        }
        // 4. Link failure: minhop on the fabric without one link.
        {
            GeneratorOptions broken = options;
            broken.removeRandomLinks = 1;
            broken.seed = 7;
            Result<GeneratedFabric> degraded = generateFabric(broken);
            QVERIFY(degraded.ok());
            steps.push_back({QStringLiteral("link failure (minhop)"), route(QStringLiteral("minhop"), degraded->fabric, Tenancy{}), changed});
        }
        // 5. A full engine switch.
        steps.push_back({QStringLiteral("engine -> sssp"), route(QStringLiteral("sssp"), fabric, Tenancy{}), changed});

        for (const Step &step : steps) {
            ReconfigurationDiff predicted = diffForwardingTables(current, step.tables, &fabric);
            const PKeyTables nextPKeys = computePKeyTables(fabric, step.partitions, pkeyOptions, &heldPKeys);
            addPKeyDiff(predicted, fabric, heldPKeys, nextPKeys);

            const qint64 offset = sim.openSmLogSize();
            QVERIFY(writeFileAtomically(lftsPath, writeLftDump(step.tables, &fabric)).ok());
            QVERIFY(writeFileAtomically(partitionsPath, writePartitionsConf(step.partitions)).ok());
            QCOMPARE(::kill(pid_t(sim.openSmPid()), SIGHUP), 0);
            const Status swept = sim.waitForOpenSmLog(QStringLiteral("SUBNET UP"), 60000, offset);
            QVERIFY2(swept.ok(), swept.ok() ? "" : qPrintable(swept.error().toString()));
            const QByteArray stretch = readFrom(sim.openSmLogPath(), offset);
            if (qEnvironmentVariableIsSet("WEFT_LAB_SMP_LOG")) {
                QFile f(qEnvironmentVariable("WEFT_LAB_SMP_LOG"));
                if (f.open(QIODevice::Append))
                    f.write(stretch);
            }
            const SentSmps sent = countSets(stretch);
            qInfo("%s: predicted %lld LFT + %d SwitchInfo + %d P_Key = %lld SMPs; OpenSM sent %d + %d + %d",
                  qPrintable(step.name), predicted.changedBlocks, predicted.switchInfoSets, int(predicted.pkeyBlocks.size()),
                  predicted.smps(), sent.lftBlocks, sent.switchInfo, sent.pkeyBlocks);
            if (step.realChange)
                QVERIFY2(predicted.smps() > 0, qPrintable(step.name));
            QCOMPARE(sent.lftBlocks, int(predicted.changedBlocks));
            QCOMPARE(sent.switchInfo, predicted.switchInfoSets);
            QCOMPARE(sent.pkeyBlocks, int(predicted.pkeyBlocks.size()));
            current = step.tables;
            heldPKeys = nextPKeys;
        }
        sim.stop();
    }
};

QTEST_GUILESS_MAIN(TestLabSmp)
#include "tst_lab_smp.moc"
