// Hosts moved between tenants through `weft commit` against the real OpenSM under ibsim, with
// Weft's engine inside OpenSM (the plugin: --project and --opensm-intent) and with OpenSM's file
// engine (--plan-lfts and --plan-partitions). Two tenants are committed, then a host is moved to
// the other tenant and back, a host removed, a partition added and then deleted with its host
// back in its old tenant: P_Keys leave ports and come back, where OpenSM puts them at the index
// it remembers (PKeyTables.h). Every commit must end `committed` (its own read-back matched
// Weft's prediction) and every host port's table, as `smpquery pkeys` reads it index by index,
// must equal the tables computePKeyTables predicts step after step from the start.

#include "FabricGenerator.h"
#include "LabTools.h"
#include "LftDump.h"
#include "PKeyTables.h"
#include "Partitions.h"
#include "PartitionsConf.h"
#include "ProjectFile.h"
#include "ReconfigurationPlan.h"
#include "RoutingEngine.h"
#include "SafeFile.h"
#include "SimulatedFabric.h"
#include "TopologyFile.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace weft;

namespace {

constexpr int kSweepTimeoutMs = 60000;

// A port's P_Key table, index by index, from `smpquery pkeys`: rows "  8: 0x7fff 0x0000 ...", each
// starting at the index it names.
std::vector<std::uint16_t> smpqueryPKeyTable(const QByteArray &output)
{
    std::vector<std::uint16_t> table;
    static const QRegularExpression row(QStringLiteral("^\\s*(\\d+):((?:\\s+0x[0-9a-f]{4})+)\\s*$"));
    for (const QByteArray &raw : output.split('\n')) {
        const auto m = row.match(QString::fromUtf8(raw));
        if (!m.hasMatch())
            continue;
        std::size_t index = m.captured(1).toUInt();
        for (const QString &value : m.captured(2).split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            if (table.size() <= index)
                table.resize(index + 1, 0);
            table[index++] = std::uint16_t(value.toUInt(nullptr, 16));
        }
    }
    return table;
}

std::vector<std::uint16_t> trimmed(std::vector<std::uint16_t> table)
{
    while (!table.empty() && (table.back() & kPKeyMask) == 0)
        table.pop_back();
    return table;
}

QString tableText(const std::vector<std::uint16_t> &table)
{
    QStringList entries;
    for (std::uint16_t e : table)
        entries << QStringLiteral("0x%1").arg(e, 4, 16, QLatin1Char('0'));
    return QLatin1Char('[') + entries.join(QLatin1Char(' ')) + QLatin1Char(']');
}

struct PKeyLab
{
    QTemporaryDir dir;
    GeneratedFabric generated;
    std::unique_ptr<SimulatedFabric> sim;
    Fabric live;
    Guid smPort = 0;
    bool plugin = false;
    QString partitions, pidFile, topology, lfts, intent;

    QString path(const QString &name) const { return dir.filePath(name); }
    Guid host(std::size_t i) const
    {
        const Fabric &f = generated.fabric;
        return f.port(f.portOf(generated.hosts[i], 1)).guid;
    }

    // ibsim on a 4-ary 2-tree, OpenSM on the first host with `initial` as its partitions.conf.
    QString start(bool withPlugin, const std::vector<Partition> &initial)
    {
        plugin = withPlugin;
        GeneratorOptions o;
        o.arity = 4;
        o.levels = 2;
        o.linkSpeed = LinkSpeed::SDR;
        Result<GeneratedFabric> g = generateFabric(o);
        if (!g)
            return g.error().toString();
        generated = std::move(*g);
        const Fabric &fabric = generated.fabric;
        const NodeIndex smHost = generated.hosts.front();
        smPort = fabric.port(fabric.portOf(smHost, 1)).guid;
        partitions = path(QStringLiteral("partitions.conf"));
        pidFile = path(QStringLiteral("opensm.pid"));
        topology = path(QStringLiteral("lab.topo"));
        lfts = path(QStringLiteral("opensm.lfts"));
        intent = path(QStringLiteral("intent.weft"));
        if (const Status s = writeFileAtomically(partitions, writePartitionsConf(initial), false); !s)
            return s.error().toString();
        if (plugin) {
            const QString net = path(QStringLiteral("fabric.net"));
            Project project;
            project.routingEngine = QStringLiteral("ftree");
            for (const Partition &p : initial)
                if (p.name != QLatin1String("Default"))
                    project.tenancy.partitions.push_back(p);
            for (const auto &[file, data] : {std::pair{net, writeIbsimNet(fabric, smHost)}, std::pair{intent, writeProject(project)}})
                if (const Status s = writeFileAtomically(file, data, false); !s)
                    return s.error().toString();
            SimulatedFabric::Options options;
            options.netFile = net;
            options.smNode = fabric.node(smHost).name;
            options.partitionsConf = partitions;
            options.openSmConfig = "event_plugin_name weftosm\nevent_plugin_options " + intent.toUtf8() + "\nrouting_engine weft\n";
            options.openSmEnvironment = QStringList{QStringLiteral("LD_LIBRARY_PATH=") + test::osmPluginDirectory()};
            sim = std::make_unique<SimulatedFabric>(options);
            if (const Status s = sim->start(); !s)
                return s.error().toString();
            if (const Status s = sim->waitForOpenSmLog(QStringLiteral("weft tables configured on all switches"), kSweepTimeoutMs); !s)
                return s.error().toString();
            if (const Status s = writeFileAtomically(pidFile, QByteArray::number(sim->openSmPid()) + '\n', false); !s)
                return s.error().toString();
        } else {
            Result<Routing> ftree = routeFabric(QStringLiteral("ftree"), fabric, Tenancy{});
            if (!ftree)
                return ftree.error().toString();
            if (const Status s = writeFileAtomically(lfts, writeLftDump(ftree->tables, &fabric), false); !s)
                return s.error().toString();
            auto started = test::startFileRoutedLab(fabric, smHost, path(QStringLiteral("fabric.net")), lfts, partitions, pidFile);
            if (!started)
                return started.error().toString();
            sim = std::move(*started);
        }
        if (const Status s = sim->waitForOpenSmLog(QStringLiteral("SUBNET UP"), kSweepTimeoutMs); !s)
            return s.error().toString();
        Result<Fabric> f = test::discoverWithIbnetdiscover(*sim, topology);
        if (!f)
            return f.error().toString();
        live = std::move(*f);
        return {};
    }

    // `weft commit` of the tenants `proposed` (the Default partition added as Weft adds it); the
    // report's outcome, or why there is none.
    QString commit(const std::vector<Partition> &proposed, int step)
    {
        QStringList args{QStringLiteral("commit")};
        if (plugin) {
            Project project;
            project.routingEngine = QStringLiteral("ftree");
            project.tenancy.partitions = proposed;
            const QString file = path(QStringLiteral("step%1.weft").arg(step));
            if (const Status s = writeFileAtomically(file, writeProject(project), false); !s)
                return s.error().toString();
            args << QStringLiteral("--project") << file << QStringLiteral("--opensm-intent") << intent;
        } else {
            Result<Routing> ftree = routeFabric(QStringLiteral("ftree"), live, Tenancy{});
            if (!ftree)
                return ftree.error().toString();
            const QString planLfts = path(QStringLiteral("step%1.lfts").arg(step));
            const QString planPartitions = path(QStringLiteral("step%1.conf").arg(step));
            if (const Status s = writeFileAtomically(planLfts, writeLftDump(ftree->tables, &live), false); !s)
                return s.error().toString();
            if (const Status s = writeFileAtomically(planPartitions, writePartitionsConf(withExplicitDefault(proposed)), false); !s)
                return s.error().toString();
            args << QStringLiteral("--plan-lfts") << planLfts << QStringLiteral("--plan-partitions") << planPartitions
                 << QStringLiteral("--plan-topology") << topology << QStringLiteral("--opensm-lfts") << lfts;
        }
        args << QStringLiteral("--opensm-partitions") << partitions << QStringLiteral("--opensm-pidfile") << pidFile
             << QStringLiteral("--opensm-log") << sim->openSmLogPath() << QStringLiteral("--timeout") << QStringLiteral("60")
             << QStringLiteral("--json");
        const auto run = sim->runClient(qEnvironmentVariable("WEFT_BINARY"), args, 300000);
        if (!run)
            return run.error().toString();
        const QJsonObject report = QJsonDocument::fromJson(run->out).object();
        const QString outcome = report.value(QStringLiteral("outcome")).toString();
        if (outcome != QLatin1String("committed"))
            return QStringLiteral("outcome %1: %2 %3").arg(outcome, QString::fromUtf8(run->out.right(3000)), QString::fromUtf8(run->err.right(1000)));
        return outcome;
    }

    // Each host port's table as smpquery reads it against `expected`: empty when all equal.
    QString hostTablesDiffer(const PKeyTables &expected) const
    {
        QStringList problems;
        for (NodeIndex n : generated.hosts) {
            const PortIndex p = live.portByGuid(generated.fabric.port(generated.fabric.portOf(n, 1)).guid);
            const auto read = sim->runClient(QStringLiteral("smpquery"), {QStringLiteral("pkeys"), QString::number(live.port(p).lid)});
            if (!read || read->exitCode != 0)
                return test::describe(read);
            const std::vector<std::uint16_t> held = trimmed(smpqueryPKeyTable(read->out));
            const PortPKeyTable *predicted = expected.find(p);
            const std::vector<std::uint16_t> want = predicted ? trimmed(predicted->entries) : std::vector<std::uint16_t>{};
            if (held != want)
                problems << QStringLiteral("%1: holds %2, Weft predicted %3").arg(live.node(n).name, tableText(held), tableText(want));
        }
        return problems.join(QLatin1Char('\n'));
    }
};

using test::partition;

}  // namespace

class TestLabPKeyMoves : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        const QString openSm = test::openSmVersionProblem();
        QVERIFY2(openSm.isEmpty(), qPrintable(openSm));
        const QString missing = SimulatedFabric::missingTools();
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("the lab tests need: ") + missing));
    }

    void tenantMovesCommit_data()
    {
        QTest::addColumn<bool>("plugin");
        QTest::addRow("Weft's engine in OpenSM") << true;
        QTest::addRow("OpenSM's file engine") << false;
    }

    void tenantMovesCommit()
    {
        QFETCH(bool, plugin);
        PKeyLab lab;
        QVERIFY(lab.dir.isValid());
        const std::vector<Partition> initial = withExplicitDefault({});
        const QString error = lab.start(plugin, initial);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const PKeyTableOptions options{lab.smPort, true};
        PKeyTables expected = computePKeyTables(lab.live, plannedPartitions(initial), options);
        QString differ = lab.hostTablesDiffer(expected);
        QVERIFY2(differ.isEmpty(), qPrintable(QStringLiteral("at start:\n") + differ));

        // Hosts 1..8: red 0x0001 the odd ones, blue 0x0002 the even ones.
        std::vector<Guid> red, blue;
        for (std::size_t h = 1; h <= 8; ++h)
            (h % 2 ? red : blue).push_back(lab.host(h));
        auto without = [](std::vector<Guid> v, Guid g) {
            v.erase(std::remove(v.begin(), v.end(), g), v.end());
            return v;
        };
        auto with = [](std::vector<Guid> v, Guid g) {
            v.push_back(g);
            return v;
        };
        const Guid moved = lab.host(1), removed = lab.host(3);
        struct Step
        {
            const char *what;
            std::vector<Partition> partitions;
        };
        const std::vector<Step> steps{
            {"two tenants", {partition(QStringLiteral("red"), 0x0001, red), partition(QStringLiteral("blue"), 0x0002, blue)}},
            {"host 1 moved to blue", {partition(QStringLiteral("red"), 0x0001, without(red, moved)), partition(QStringLiteral("blue"), 0x0002, with(blue, moved))}},
            {"host 1 moved back to red", {partition(QStringLiteral("red"), 0x0001, red), partition(QStringLiteral("blue"), 0x0002, blue)}},
            {"host 3 removed from red", {partition(QStringLiteral("red"), 0x0001, without(red, removed)), partition(QStringLiteral("blue"), 0x0002, blue)}},
            {"partition green added", {partition(QStringLiteral("red"), 0x0001, without(red, removed)), partition(QStringLiteral("blue"), 0x0002, blue),
                                       partition(QStringLiteral("green"), 0x0003, {removed, lab.host(2)})}},
            {"green deleted, host 3 back in red", {partition(QStringLiteral("red"), 0x0001, red), partition(QStringLiteral("blue"), 0x0002, blue)}},
        };
        int n = 0;
        for (const Step &step : steps) {
            ++n;
            const QString outcome = lab.commit(step.partitions, n);
            QVERIFY2(outcome == QLatin1String("committed"), qPrintable(QStringLiteral("%1: %2").arg(QLatin1String(step.what), outcome)));
            // Weft's prediction from the partitions.conf the commit wrote, moving on from the last.
            Result<PartitionsConfResult> written = readPartitionsConf(test::readAll(lab.partitions), lab.partitions);
            QVERIFY2(written, written ? "" : qPrintable(written.error().toString()));
            expected = computePKeyTables(lab.live, plannedPartitions(written->partitions), options, &expected);
            differ = lab.hostTablesDiffer(expected);
            QVERIFY2(differ.isEmpty(), qPrintable(QStringLiteral("%1:\n%2").arg(QLatin1String(step.what), differ)));
            qInfo("%s: committed; every host's P_Key table as predicted", step.what);
        }
        // The returning P_Keys went back to their old indices: host 1 holds red's at index 1, as
        // before it moved, with blue's index 2 emptied.
        const PortPKeyTable *host1 = expected.find(lab.live.portByGuid(moved));
        QVERIFY(host1);
        QCOMPARE(trimmed(host1->entries), (std::vector<std::uint16_t>{0x7fff, 0x8001}));
        lab.sim->stop();
    }
};

QTEST_GUILESS_MAIN(TestLabPKeyMoves)
#include "tst_lab_pkey_moves.moc"
