// `weft slurm topology` against the real tools: the 3-level fabric discovered live in ibsim
// under OpenSM, its topology.conf written by weft, and Debian's slurmctld (topology/tree) reading
// it: `scontrol show topology` lists every leaf with its hosts and every switch above with its
// children, as Weft computed them. Then `weft serve --slurm-topology --slurm-reconfigure` keeps
// the file in step: a host's cable pulled in ibsim, a rediscovery, and the file is rewritten
// without the host and slurmctld, reconfigured by the service, no longer lists it. slurmctld runs
// in a temporary directory as the user running the test, with auth/none and cred/none (no munge
// daemon), on a free port of the loopback.

#include "FabricGenerator.h"
#include "GeneratedFabrics.h"
#include "LabTools.h"
#include "SafeFile.h"
#include "ServeLab.h"
#include "SimulatedFabric.h"
#include "SlurmTopology.h"
#include "TopologyFile.h"
#include "WeftRunner.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <map>
#include <set>

#include <pwd.h>
#include <unistd.h>

using namespace weft;

namespace {

QString slurmTool(const QString &name)
{
    QString path = QStandardPaths::findExecutable(name);
    if (path.isEmpty())
        path = QStandardPaths::findExecutable(name, {QStringLiteral("/usr/sbin"), QStringLiteral("/sbin")});
    return path;
}

struct ToolRun
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

ToolRun runTool(const QString &program, const QStringList &args, const QProcessEnvironment &env, int timeoutMs = 20000)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2, p.readAllStandardOutput(), p.readAllStandardError()};
}

// `scontrol show topology`: each line's words KEY=VALUE, by switch name.
std::map<QString, std::map<QString, QString>> readShowTopology(const QByteArray &text)
{
    std::map<QString, std::map<QString, QString>> switches;
    for (const QString &line : QString::fromUtf8(text).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        if (line.startsWith(QLatin1Char('#')))
            continue;
        std::map<QString, QString> fields;
        for (const QString &word : line.split(QLatin1Char(' '), Qt::SkipEmptyParts))
            fields[word.section(QLatin1Char('='), 0, 0)] = word.section(QLatin1Char('='), 1);
        switches[fields[QStringLiteral("SwitchName")]] = fields;
    }
    return switches;
}

// A slurmctld of its own: slurm.conf (topology/tree, the hosts at the loopback's address) in
// `dir`, beside the topology.conf it reads; stopped by its PID when this goes.
class Slurmctld
{
public:
    ~Slurmctld()
    {
        if (m_process.state() == QProcess::NotRunning)
            return;
        m_process.terminate();
        if (!m_process.waitForFinished(10000)) {
            m_process.kill();
            m_process.waitForFinished();
        }
    }

    QString slurmConf() const { return m_dir + QStringLiteral("/slurm.conf"); }
    QProcessEnvironment environment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SLURM_CONF"), slurmConf());
        return env;
    }
    QByteArray log() const { return test::readAll(m_dir + QStringLiteral("/slurmctld.log")); }

    // Starts it over `hosts` and waits until `scontrol show topology` answers; the error says why not.
    QString start(const QString &dir, const QStringList &hosts)
    {
        m_dir = dir;
        QTcpServer probe;
        if (!probe.listen(QHostAddress::LocalHost, 0))
            return QStringLiteral("no free port");
        const quint16 port = probe.serverPort();
        probe.close();
        const passwd *user = getpwuid(getuid());
        const QString state = dir + QStringLiteral("/state");
        if (!user || !QDir().mkpath(state))
            return QStringLiteral("no user or state directory");
        const QByteArray text = QStringLiteral(
                                    "ClusterName=weftlab\nSlurmctldHost=localhost(127.0.0.1)\nSlurmctldPort=%1\nSlurmdPort=%2\n"
                                    "AuthType=auth/none\nCredType=cred/none\nSlurmUser=%3\nStateSaveLocation=%4\nSlurmdSpoolDir=%4\n"
                                    "SlurmctldPidFile=%5/slurmctld.pid\nSlurmctldLogFile=%5/slurmctld.log\nMailProg=/bin/true\nMpiDefault=none\n"
                                    "ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\nSelectType=select/cons_tres\n"
                                    "TopologyPlugin=topology/tree\n"
                                    "NodeName=%6 NodeAddr=127.0.0.1 NodeHostname=localhost CPUs=1 State=UNKNOWN\n"
                                    "PartitionName=all Nodes=ALL Default=YES State=UP\n")
                                    .arg(port)
                                    .arg(port + 1)
                                    .arg(QString::fromLocal8Bit(user->pw_name), state, dir, compressHostList(hosts))
                                    .toUtf8();
        if (!writeFileAtomically(slurmConf(), text).ok())
            return QStringLiteral("slurm.conf not written");
        m_process.setProcessEnvironment(environment());
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        m_process.start(slurmTool(QStringLiteral("slurmctld")), {QStringLiteral("-D"), QStringLiteral("-i"), QStringLiteral("-f"), slurmConf()});
        if (!m_process.waitForStarted(10000))
            return QStringLiteral("slurmctld did not start: ") + m_process.errorString();
        QDeadlineTimer deadline(30000);
        ToolRun shown;
        while (!deadline.hasExpired() && m_process.state() == QProcess::Running) {
            shown = showTopology();
            if (shown.exitCode == 0 && !shown.out.isEmpty())
                return {};
            QThread::msleep(200);
        }
        return QStringLiteral("scontrol show topology: %1\nslurmctld: %2\nits log: %3")
            .arg(QString::fromUtf8(shown.err), QString::fromUtf8(m_process.readAll()), QString::fromUtf8(log()));
    }

    ToolRun showTopology() const
    {
        return runTool(slurmTool(QStringLiteral("scontrol")), {QStringLiteral("show"), QStringLiteral("topology")}, environment());
    }
    // A Slurm host list as the names it stands for, as scontrol expands it.
    std::set<QString> expand(const QString &list) const
    {
        const ToolRun r = runTool(slurmTool(QStringLiteral("scontrol")), {QStringLiteral("show"), QStringLiteral("hostnames"), list}, environment());
        const QStringList words = QString::fromUtf8(r.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        return std::set<QString>(words.begin(), words.end());
    }
    // Every host of the leaves' Nodes= in `text` (topology.conf, or scontrol show topology's).
    std::set<QString> leafHosts(const QByteArray &text) const
    {
        std::set<QString> hosts;
        for (const auto &[name, fields] : readShowTopology(text))
            if (fields.count(QStringLiteral("Nodes")) && !fields.count(QStringLiteral("Switches")))
                for (const QString &host : expand(fields.at(QStringLiteral("Nodes"))))
                    hosts.insert(host);
        return hosts;
    }

private:
    QString m_dir;
    QProcess m_process;
};

}  // namespace

class TestLabSlurm : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        const QString lab = test::labToolsProblem();
        QVERIFY2(lab.isEmpty(), qPrintable(lab));
        QVERIFY2(!slurmTool(QStringLiteral("slurmctld")).isEmpty() && !slurmTool(QStringLiteral("scontrol")).isEmpty(),
                 "slurmctld and scontrol are not installed (Debian's slurmctld and slurm-client; scripts/weft-setup installs them)");
    }

    void slurmctldReadsTheLiveTopology()
    {
        GeneratorOptions generator;
        generator.arity = 2;
        generator.levels = 3;
        generator.linkSpeed = LinkSpeed::SDR;  // what ibsim reports
        const GeneratedFabric generated = test::generateOrFail(generator);
        const Fabric &fabric = generated.fabric;
        QTemporaryDir dir;
        QVERIFY(dir.isValid());

        // The generator's hosts are described "host 0007": a names map names them n0007.
        QByteArray map = "# the lab's hosts\n";
        for (NodeIndex n : fabric.endNodes())
            map += '"' + fabric.node(n).description.toUtf8() + "\" n" + fabric.node(n).description.mid(5).toUtf8() + '\n';
        const QString mapPath = dir.filePath(QStringLiteral("names.map"));
        QVERIFY(writeFileAtomically(mapPath, map).ok());
        Result<SlurmNames> names = readSlurmNames(map, mapPath);
        QVERIFY(names);
        SlurmTopologyOptions options;
        options.names = *names;
        const Result<SlurmTopology> expected = slurmTopology(fabric, options);
        QVERIFY2(expected, qPrintable(expected ? QString() : expected.error().toString()));

        // The fabric discovered live, through the SM's adapter.
        const QString net = dir.filePath(QStringLiteral("fabric.net"));
        QVERIFY(writeFileAtomically(net, writeIbsimNet(fabric, fabric.endNodes().front())).ok());
        SimulatedFabric::Options simOptions;
        simOptions.netFile = net;
        simOptions.smNode = fabric.node(fabric.endNodes().front()).name;
        SimulatedFabric sim(simOptions);
        const Status started = sim.start();
        QVERIFY2(started, qPrintable(started ? QString() : started.error().toString()));
        const QString conf = dir.filePath(QStringLiteral("topology.conf"));
        const auto run = sim.runClient(qEnvironmentVariable("WEFT_BINARY"),
                                       {QStringLiteral("slurm"), QStringLiteral("topology"), QStringLiteral("--names"), mapPath, QStringLiteral("-o"), conf});
        QVERIFY2(run && run->exitCode == 0, qPrintable(run ? QString::fromUtf8(run->err) : run.error().toString()));
        sim.stop();
        const QByteArray written = test::readAll(conf);
        QVERIFY2(written.startsWith("# topology.conf for Slurm's topology/tree plugin, written by weft "), written.constData());
        QVERIFY2(written.contains("\n# made from the live fabric, discovered through the first adapter port (first active) on "), written.constData());
        // What discovery found is what the generator built: the same file, comments aside.
        QCOMPARE(QString::fromUtf8(slurmTopologyBody(written)),
                 QString::fromUtf8(slurmTopologyBody(writeSlurmTopology(*expected, SlurmTopologyForm::Tree, {}))));

        // slurmctld with topology/tree over the hosts, all at the loopback's address.
        QStringList hosts;
        for (const SlurmSwitch &s : expected->switches)
            hosts << s.hosts;
        Slurmctld slurmctld;
        const QString problem = slurmctld.start(dir.path(), hosts);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        const ToolRun shown = slurmctld.showTopology();
        QCOMPARE(shown.exitCode, 0);
        qInfo().noquote() << QStringLiteral("scontrol show topology:\n") + QString::fromUtf8(shown.out);
        const QString log = dir.filePath(QStringLiteral("slurmctld.log"));
        const auto expand = [&slurmctld](const QString &list) { return slurmctld.expand(list); };
        // Every switch Weft wrote, at its level, with its hosts or its children, as Slurm reads them.
        const auto slurm = readShowTopology(shown.out);
        QCOMPARE(slurm.size(), expected->switches.size());
        std::size_t leaves = 0;
        for (const SlurmSwitch &s : expected->switches) {
            QVERIFY2(slurm.count(s.name), qPrintable(s.name + QStringLiteral(" is not in scontrol show topology:\n") + QString::fromUtf8(shown.out)));
            const std::map<QString, QString> &fields = slurm.at(s.name);
            QCOMPARE(fields.at(QStringLiteral("Level")), QString::number(s.level - 1));
            if (s.level == 1) {
                ++leaves;
                QVERIFY(!s.hosts.isEmpty());
                QCOMPARE(expand(fields.at(QStringLiteral("Nodes"))), std::set<QString>(s.hosts.begin(), s.hosts.end()));
                QVERIFY(!fields.count(QStringLiteral("Switches")));
            } else {
                QVERIFY(!s.children.isEmpty());
                QCOMPARE(expand(fields.at(QStringLiteral("Switches"))), std::set<QString>(s.children.begin(), s.children.end()));
            }
        }
        QCOMPARE(leaves, std::size_t(4));
        QCOMPARE(expected->switches.size(), std::size_t(12));
        for (const QByteArray &line : test::readAll(log).split('\n'))
            QVERIFY2(!line.contains("error") || !(line.contains("topology") || line.contains("switch") || line.contains("Switch")), line.constData());
    }
    // The command's answers: a file written with its backup and a summary, bad input named with
    // its file and line (exit 2), a fabric whose descriptions name no host refused (exit 2).
    void commandLine()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const GeneratedFabric generated = test::generate({FabricShapeKind::KaryNTree, 2, 3});
        const QString topology = dir.filePath(QStringLiteral("fabric.topo"));
        QVERIFY(writeFileAtomically(topology, writeIbnetdiscover(generated.fabric)).ok());
        const QString map = dir.filePath(QStringLiteral("names.map"));
        QByteArray text;
        for (NodeIndex n : generated.fabric.endNodes())
            text += '"' + generated.fabric.node(n).description.toUtf8() + "\" n" + generated.fabric.node(n).description.mid(5).toUtf8() + '\n';
        QVERIFY(writeFileAtomically(map, text).ok());
        const QString conf = dir.filePath(QStringLiteral("topology.conf"));
        const QStringList base{QStringLiteral("slurm"), QStringLiteral("topology"), QStringLiteral("--topology"), topology};

        for (int i = 0; i < 2; ++i) {
            const test::Run run = test::runWeft(base + QStringList{QStringLiteral("--names"), map, QStringLiteral("-o"), conf});
            QVERIFY2(run.exitCode == 0, run.err.constData());
            QCOMPARE(run.out, (conf + QStringLiteral(": 4 leaf switches, 8 above them, 8 hosts\n")).toUtf8());
        }
        QVERIFY(QFile::exists(conf + QStringLiteral(".bak")));
        QVERIFY(test::readAll(conf).contains("\nSwitchName=L2-leaf-0 Nodes=n[0000-0001]\n"));
        const test::Run yaml = test::runWeft(base + QStringList{QStringLiteral("--names"), map, QStringLiteral("--format"), QStringLiteral("yaml")});
        QCOMPARE(yaml.exitCode, 0);
        QVERIFY2(yaml.out.contains("\n- topology: default\n  cluster_default: true\n  tree:\n    switches:\n      - switch: L2-leaf-0\n        nodes: n[0000-0001]\n"), yaml.out.constData());

        const test::Run unnamed = test::runWeft(base);
        QCOMPARE(unnamed.exitCode, 2);
        QVERIFY2(unnamed.err.startsWith("weft slurm topology: no host to list: 8 CAs name no host"), unnamed.err.constData());
        QVERIFY(unnamed.out.isEmpty());

        QVERIFY(writeFileAtomically(map, "# hosts\n\"host 0000\" n0\n\"host 0000\" n1\n").ok());
        const test::Run twice = test::runWeft(base + QStringList{QStringLiteral("--names"), map});
        QCOMPARE(twice.exitCode, 2);
        QCOMPARE(twice.err, (QStringLiteral("weft slurm topology: ") + map + QStringLiteral(":3: host 0000 is named already (line 2)\n")).toUtf8());
        for (const QStringList &bad : {QStringList{QStringLiteral("--format"), QStringLiteral("xml")}, QStringList{QStringLiteral("--exclude"), QStringLiteral("gpu")}}) {
            const test::Run refused = test::runWeft(base + bad);
            QCOMPARE(refused.exitCode, 2);
            QVERIFY2(refused.err.contains(bad.constLast().toUtf8()), refused.err.constData());
        }
    }

    // `weft serve --slurm-topology --slurm-reconfigure`: a host's cable pulled, the service
    // rediscovers, rewrites the file without the host and has slurmctld read it again.
    void serveKeepsTheTopologyInStep()
    {
        QElapsedTimer clock;
        clock.start();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // The lab's 4-ary 2-tree describes its hosts "host 0000" to "host 0015".
        QByteArray map;
        for (int i = 0; i < 16; ++i)
            map += QStringLiteral("\"host %1\" n%1\n").arg(i, 4, 10, QLatin1Char('0')).toUtf8();
        const QString mapPath = dir.filePath(QStringLiteral("names.map"));
        QVERIFY(writeFileAtomically(mapPath, map).ok());
        const QString slurmDir = dir.filePath(QStringLiteral("slurm"));
        QVERIFY(QDir().mkpath(slurmDir));
        const QString conf = slurmDir + QStringLiteral("/topology.conf");
        // The service's `scontrol reconfigure` reaches this test's slurmctld.
        qputenv("SLURM_CONF", (slurmDir + QStringLiteral("/slurm.conf")).toUtf8());
        Result<std::unique_ptr<test::ServeLab>> started = test::startServeLab(
            dir.path(), test::osmPluginDirectory(),
            {QStringLiteral("--slurm-topology"), conf, QStringLiteral("--slurm-names"), mapPath, QStringLiteral("--slurm-reconfigure")});
        QVERIFY2(started, qPrintable(started ? QString() : started.error().toString()));
        test::ServeLab &lab = **started;
        const QString serveLog = dir.filePath(QStringLiteral("serve.log"));
        QVERIFY2(QTest::qWaitFor([&] { return QFile::exists(conf); }, 30000), test::readAll(serveLog).constData());

        qInfo("service up and file written after %.1f s", double(clock.elapsed()) / 1000);
        std::set<QString> before;
        for (int i = 0; i < 16; ++i)
            before.insert(QStringLiteral("n%1").arg(i, 4, 10, QLatin1Char('0')));
        Slurmctld slurmctld;
        const QString problem = slurmctld.start(slurmDir, QStringList(before.begin(), before.end()));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QCOMPARE(slurmctld.leafHosts(test::readAll(conf)), before);
        QCOMPARE(slurmctld.leafHosts(slurmctld.showTopology().out), before);
        qInfo("slurmctld up after %.1f s", double(clock.elapsed()) / 1000);

        // Host 0005's cable pulled at its leaf (neither SM's host), then the fabric read again.
        const Fabric &fabric = lab.tree.generated.fabric;
        const NodeIndex host = lab.tree.generated.hosts[5];
        QCOMPARE(fabric.node(host).description, QStringLiteral("host 0005"));
        const PortIndex leafPort = fabric.port(fabric.portOf(host, 1)).remote;
        const QString cut = QStringLiteral("Unlink \"%1\"[%2]").arg(fabric.node(fabric.port(leafPort).node).name).arg(fabric.port(leafPort).number);
        const Status unlinked = lab.sim->simulatorCommands({cut});
        QVERIFY2(unlinked, qPrintable(unlinked ? QString() : unlinked.error().toString()));
        const test::HttpAnswer discover = test::httpsCall(lab.cert, lab.url() + QStringLiteral("/api/v1/discover"), "POST", lab.adminToken, "{}");
        QVERIFY2(discover.status == 200, discover.body.constData());

        std::set<QString> after = before;
        after.erase(QStringLiteral("n0005"));
        QVERIFY2(QTest::qWaitFor([&] { return slurmctld.leafHosts(test::readAll(conf)) == after; }, 60000),
                 (test::readAll(conf) + "\n" + test::readAll(serveLog)).constData());
        QVERIFY2(test::readAll(conf).startsWith("# topology.conf for Slurm's topology/tree plugin, written by weft "), test::readAll(conf).constData());
        QVERIFY(QFile::exists(conf + QStringLiteral(".bak")));  // the file it replaced
        QVERIFY2(QTest::qWaitFor([&] { return slurmctld.leafHosts(slurmctld.showTopology().out) == after; }, 30000),
                 (slurmctld.showTopology().out + "\n" + test::readAll(serveLog)).constData());
        QVERIFY2(test::readAll(serveLog).contains("Slurm topology: scontrol reconfigure done"), test::readAll(serveLog).constData());
        qInfo("rewritten and reread by slurmctld after %.1f s", double(clock.elapsed()) / 1000);
    }
};

QTEST_GUILESS_MAIN(TestLabSlurm)
#include "tst_lab_slurm.moc"
