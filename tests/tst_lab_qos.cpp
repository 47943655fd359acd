// Service levels on the wire, against the real OpenSM under ibsim: a pftree plan with two
// vlane-isolated partitions is committed with `weft commit --opensm-options`; the SL2VL tables
// that smpquery reads back keep the two SLs on different VLs, and saquery's PathRecords between
// members carry each partition's SL. A forced failure (an operator's QoS policy file that
// overrides the partitions' SLs, so the SA answers another SL) rolls back: the options file and
// the SL2VL tables are as before.

#include "FabricGenerator.h"
#include "LabTools.h"
#include "LftDump.h"
#include "PartitionsConf.h"
#include "Partitions.h"
#include "ReconfigurationPlan.h"
#include "RoutingEngine.h"
#include "SafeFile.h"
#include "SimulatedFabric.h"
#include "TopologyFile.h"

#include <QtTest>

#include <csignal>

using namespace weft;

namespace {

using test::describe;
using test::readAll;

QString weftBinary() { return qEnvironmentVariable("WEFT_BINARY"); }

// The VL of each SL in `smpquery sl2vl` rows: "ports: in  0, out  0: | 0| 1| ...|".
std::map<QString, std::vector<int>> sl2vlRows(const QByteArray &output)
{
    std::map<QString, std::vector<int>> rows;
    static const QRegularExpression row(QStringLiteral("^ports: (in\\s+\\d+, out\\s+\\d+):((?:\\s*\\|\\s*\\d+)+)\\|\\s*$"));
    for (const QByteArray &raw : output.split('\n')) {
        const auto m = row.match(QString::fromUtf8(raw));
        if (!m.hasMatch())
            continue;
        std::vector<int> vls;
        for (const QString &v : m.captured(2).split(QLatin1Char('|'), Qt::SkipEmptyParts))
            if (!v.trimmed().isEmpty())
                vls.push_back(v.trimmed().toInt());
        rows[m.captured(1).simplified()] = vls;
    }
    return rows;
}

// The SL of saquery's PathRecord dump ("sl......................0x1").
int pathRecordSl(const QByteArray &output)
{
    static const QRegularExpression sl(QStringLiteral("^\\s*sl\\.+(0x[0-9a-f]+)\\s*$"), QRegularExpression::MultilineOption);
    const auto m = sl.match(QString::fromUtf8(output));
    return m.hasMatch() ? m.captured(1).toInt(nullptr, 16) : -1;
}

struct Lab
{
    QTemporaryDir dir;
    GeneratedFabric generated;
    std::unique_ptr<SimulatedFabric> sim;
    Fabric live;
    QString lfts, partitions, pidFile, topology, planLfts, planPartitions, options, policy;
    std::map<std::uint16_t, int> levels;
    std::map<std::uint16_t, std::vector<Lid>> lids;  // members' LIDs per P_Key
    std::vector<std::uint16_t> apart;                 // P_Keys with pairwise different SLs
    Lid switchLid = 0;

    QString path(const char *name) const { return dir.filePath(QLatin1String(name)); }

    QString start()
    {
        GeneratorOptions o;
        o.arity = 4;
        o.levels = 2;
        o.linkSpeed = LinkSpeed::SDR;
        Result<GeneratedFabric> g = generateFabric(o);
        if (!g)
            return g.error().toString();
        generated = std::move(*g);
        const Fabric &fabric = generated.fabric;
        const NodeIndex smHost = fabric.endNodes().front();
        lfts = path("opensm.lfts");
        partitions = path("partitions.conf");
        pidFile = path("opensm.pid");
        topology = path("preview.topo");
        planLfts = path("plan.lfts");
        planPartitions = path("plan-partitions.conf");
        policy = path("qos-policy.conf");
        Result<Routing> ftree = routeFabric(QStringLiteral("ftree"), fabric, Tenancy{});
        if (!ftree)
            return ftree.error().toString();
        writeFileAtomically(lfts, writeLftDump(ftree->tables, &fabric), false);
        writeFileAtomically(partitions, writePartitionsConf(withExplicitDefault({})), false);
        auto started = test::startFileRoutedLab(fabric, smHost, path("fabric.net"), lfts, partitions, pidFile,
                                                {QStringLiteral("-Y"), policy});
        if (!started)
            return started.error().toString();
        sim = std::move(*started);

        // The operator runs OpenSM with QoS on (OpenSM's default SL2VL): then the rollback can
        // put the tables back (QosConfig.h).
        options = sim->workDir() + QStringLiteral("/opensm.conf");
        const QByteArray conf = readAll(options);
        writeFileAtomically(options, conf + "qos TRUE\n", false);
        if (const QString s = resweep(); !s.isEmpty())
            return s;

        Result<Fabric> f = test::discoverWithIbnetdiscover(*sim, topology);
        if (!f)
            return f.error().toString();
        live = std::move(*f);

        std::vector<Partition> tenants;
        // Three tenants over every leaf of a tree with two spines: some links must carry two
        // of them, so pftree gives those their own SLs.
        for (int t = 0; t < 3; ++t) {
            std::vector<Guid> members;
            for (std::size_t h = std::size_t(t); h < generated.hosts.size(); h += 3) {
                const Guid guid = fabric.port(fabric.portOf(generated.hosts[h], 1)).guid;
                members.push_back(guid);
                lids[std::uint16_t(t + 1)].push_back(live.port(live.portByGuid(guid)).lid);
            }
            Partition p = test::partition(QStringLiteral("tenant%1").arg(t + 1), std::uint16_t(t + 1), members);
            p.policy = IsolationPolicy::VirtualLane;
            tenants.push_back(p);
        }
        switchLid = live.nodeLid(live.switches().front());
        Tenancy tenancy;
        tenancy.partitions = withExplicitDefault(tenants);
        Result<Routing> pftree = routeFabric(QStringLiteral("pftree"), live, tenancy);
        if (!pftree)
            return pftree.error().toString();
        levels = pftree->serviceLevels;
        for (const auto &[pkey, level] : levels) {
            const int sl = level;  // a lambda may not capture a structured binding (C++17)
            if (lids[pkey].size() >= 2 && std::none_of(apart.begin(), apart.end(), [&](std::uint16_t k) { return levels.at(k) == sl; }))
                apart.push_back(pkey);
        }
        writeFileAtomically(planLfts, writeLftDump(pftree->tables, &live), false);
        writeFileAtomically(planPartitions, writePartitionsConf(withServiceLevels(tenancy.partitions, levels)), false);
        return {};
    }

    QString resweep()
    {
        const qint64 offset = sim->openSmLogSize();
        ::kill(pid_t(sim->openSmPid()), SIGHUP);
        const Status up = sim->waitForOpenSmLog(QStringLiteral("SUBNET UP"), 60000, offset);
        return up ? QString() : up.error().toString();
    }

    QStringList commitArgs() const
    {
        return {QStringLiteral("commit"), QStringLiteral("--plan-lfts"), planLfts, QStringLiteral("--plan-partitions"), planPartitions,
                QStringLiteral("--plan-topology"), topology, QStringLiteral("--opensm-lfts"), lfts,
                QStringLiteral("--opensm-partitions"), partitions, QStringLiteral("--opensm-pidfile"), pidFile,
                QStringLiteral("--opensm-log"), sim->openSmLogPath(), QStringLiteral("--opensm-options"), options,
                QStringLiteral("--timeout"), QStringLiteral("60"), QStringLiteral("--json")};
    }

    std::map<QString, std::vector<int>> sl2vl(Lid lid, int port = -1) const
    {
        QStringList args{QString::number(lid)};
        if (port >= 0)
            args << QString::number(port);
        const auto run = sim->runClient(QStringLiteral("smpquery"), QStringList{QStringLiteral("sl2vl")} + args);
        return run && run->exitCode == 0 ? sl2vlRows(run->out) : std::map<QString, std::vector<int>>{};
    }

    int pathSl(Lid from, Lid to, std::uint16_t pkey) const
    {
        const auto run = sim->runClient(QStringLiteral("saquery"), {QStringLiteral("-p"), QStringLiteral("--src-to-dst"),
                                                                    QStringLiteral("%1:%2").arg(from).arg(to), QStringLiteral("--pkey"),
                                                                    QStringLiteral("0x%1").arg(pkey | 0x8000, 0, 16)});
        return run && run->exitCode == 0 ? pathRecordSl(run->out) : -1;
    }

    // Every SL2VL row of a member CA and of the first switch (each of its linked out ports).
    std::map<QString, std::vector<int>> tables() const
    {
        std::map<QString, std::vector<int>> all;
        for (const auto &[pkey, members] : lids)
            for (Lid lid : {members.front()})
            for (const auto &[k, v] : sl2vl(lid))
                all[QStringLiteral("lid %1 %2").arg(lid).arg(k)] = v;
        for (int out = 1; out <= 8; ++out)
            for (const auto &[k, v] : sl2vl(switchLid, out))
                all[QStringLiteral("switch %1").arg(k)] = v;
        return all;
    }
};

}  // namespace

class TestLabQos : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        const QString openSm = weft::test::openSmVersionProblem();  // once, before any lab starts
        QVERIFY2(openSm.isEmpty(), qPrintable(openSm));
        const QString missing = SimulatedFabric::missingTools();
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("the lab tests need: ") + missing));
        QVERIFY2(QFileInfo::exists(weftBinary()), "WEFT_BINARY does not name the weft executable");
    }

    void commitsServiceLevelsOnSeparateVls()
    {
        Lab lab;
        const QString error = lab.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(lab.apart.size() >= 2, "pftree must give two vlane-isolated partitions different SLs here");
        const std::uint16_t red = lab.apart[0], blue = lab.apart[1];
        const int redSl = lab.levels.at(red), blueSl = lab.levels.at(blue);
        QVERIFY(readAll(lab.planPartitions).contains(QStringLiteral("sl=%1").arg(std::max(redSl, blueSl)).toUtf8()));

        const auto run = lab.sim->runClient(weftBinary(), lab.commitArgs());
        QVERIFY2(run && run->exitCode == 0, qPrintable(describe(run)));
        const QJsonObject report = QJsonDocument::fromJson(run->out).object();
        QCOMPARE(report.value(QStringLiteral("outcome")).toString(), QStringLiteral("committed"));
        QVERIFY(readAll(lab.options).contains("qos_sl2vl "));
        QVERIFY(QFileInfo::exists(lab.options + QStringLiteral(".bak")));

        // Independent read-back: every table keeps the two SLs apart.
        const auto tables = lab.tables();
        QVERIFY(tables.size() > 4);
        for (const auto &[where, vls] : tables) {
            QCOMPARE(int(vls.size()), 16);
            QVERIFY2(vls[std::size_t(redSl)] != vls[std::size_t(blueSl)], qPrintable(where));
        }
        // The SA gives each partition's SL.
        QCOMPARE(lab.pathSl(lab.lids.at(red).front(), lab.lids.at(red).back(), red), redSl);
        QCOMPARE(lab.pathSl(lab.lids.at(blue).front(), lab.lids.at(blue).back(), blue), blueSl);
    }

    void rollsBackWhenTheSaAnswersAnotherSl()
    {
        Lab lab;
        const QString error = lab.start();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        int highest = 0;
        for (const auto &[pkey, sl] : lab.levels)
            highest = std::max(highest, sl);
        // An operator's QoS policy whose default level forces an SL that no partition has.
        const int forced = 1 + highest;
        writeFileAtomically(lab.policy, QStringLiteral("qos-ulps\n    default : %1\nend-qos-ulps\n").arg(forced).toUtf8(), false);
        const QByteArray optionsBefore = readAll(lab.options);
        const QByteArray partitionsBefore = readAll(lab.partitions);
        const auto tablesBefore = lab.tables();
        QVERIFY(!tablesBefore.empty());

        const auto run = lab.sim->runClient(weftBinary(), lab.commitArgs());
        QVERIFY2(run, qPrintable(describe(run)));
        const QJsonObject report = QJsonDocument::fromJson(run->out).object();
        QCOMPARE(report.value(QStringLiteral("outcome")).toString(), QStringLiteral("rolled-back"));
        const QString reasons = QString::fromUtf8(QJsonDocument(report.value(QStringLiteral("reasons")).toArray()).toJson());
        QVERIFY2(reasons.contains(QStringLiteral("PathRecord")), qPrintable(reasons));
        QCOMPARE(readAll(lab.options), optionsBefore);
        QCOMPARE(readAll(lab.partitions), partitionsBefore);
        QCOMPARE(lab.tables(), tablesBefore);
    }
};

QTEST_GUILESS_MAIN(TestLabQos)
#include "tst_lab_qos.moc"
