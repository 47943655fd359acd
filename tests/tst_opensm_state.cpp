// OpenSM's options as the commit target's OpenSM holds them (its options file and command line),
// the options that would defeat or distort a file-based commit, and bad lines refused with
// their place. The panel that shows them against the lab's OpenSM is tst_lab_opensm_panel.

#include "OpenSmState.h"
#include "SafeFile.h"

#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

using namespace weft;

namespace {

// The target a lab-style OpenSM is started for: -R file -U lfts -P partitions.
CommitTarget fileTarget(const QString &dir = QStringLiteral("/srv/weft"))
{
    CommitTarget t;
    t.lftsPath = dir + QStringLiteral("/opensm.lfts");
    t.partitionsPath = dir + QStringLiteral("/partitions.conf");
    return t;
}

// A state whose options come from `conf` and then `commandLine`, as readOpenSmState combines them.
OpenSmState stateOf(const QByteArray &conf, const QStringList &commandLine = {})
{
    Result<OpenSmOptions> options = readOpenSmOptions(conf, QStringLiteral("opensm.conf"));
    if (!options)
        qFatal("%s", qPrintable(options.error().toString()));
    Result<OpenSmOptions> applied = applyOpenSmCommandLine(commandLine, *options);
    if (!applied)
        qFatal("%s", qPrintable(applied.error().toString()));
    OpenSmState state;
    state.options = *applied;
    state.running = true;
    return state;
}

// The state of an OpenSM set up exactly as a commit wants it.
const QStringList kGoodCommandLine = {QStringLiteral("-R"), QStringLiteral("file,no_fallback"), QStringLiteral("-U"),
                                      QStringLiteral("/srv/weft/opensm.lfts"), QStringLiteral("-P"),
                                      QStringLiteral("/srv/weft/partitions.conf")};

bool anyContains(const QStringList &lines, const QString &text)
{
    for (const QString &line : lines)
        if (line.contains(text))
            return true;
    return false;
}

}  // namespace

class TestOpenSmState : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void defaultsAreOpenSms()
    {
        const Result<OpenSmOptions> o = readOpenSmOptions("", QStringLiteral("empty.conf"));
        QVERIFY(o.ok());
        QVERIFY(o->routingEngines.isEmpty());
        QCOMPARE(o->lmc, 0);
        QCOMPARE(o->smPriority, 0);
        QCOMPARE(o->sweepIntervalS, quint32(10));
        QVERIFY(!o->useUcastCache);
        QCOMPARE(o->partitionConfigFile, QStringLiteral("/etc/opensm/partitions.conf"));
        QCOMPARE(o->originOf(QStringLiteral("lmc")), QStringLiteral("default"));
    }

    void readsEveryOption()
    {
        const QByteArray conf = "# OpenSM options\n"
                                "routing_engine ftree,updn\n"
                                "lmc 2   # two extra LIDs\n"
                                "sm_priority 0x0f\n"
                                "sweep_interval 0\n"
                                "\n"
                                "use_ucast_cache TRUE\n"
                                "reassign_lids TRUE\n"
                                "force_heavy_sweep TRUE\n"
                                "honor_guid2lid_file TRUE\n"
                                "qos TRUE\n"
                                "partition_config_file \"/etc/opensm/my partitions.conf\"\n"
                                "no_partition_enforcement FALSE\n"
                                "part_enforce in\n"
                                "guid_routing_order_file /etc/opensm/order\n"
                                "lfts_file /tmp/lfts\n"
                                "root_guid_file /etc/opensm/roots\n"
                                "cn_guid_file (null)\n"
                                "log_max_size 0\n"
                                "use_ucast_cahce TRUE\n";
        const Result<OpenSmOptions> o = readOpenSmOptions(conf, QStringLiteral("/etc/opensm/opensm.conf"));
        QVERIFY2(o.ok(), o.ok() ? "" : qPrintable(o.error().toString()));
        QCOMPARE(o->routingEngines, (QStringList{QStringLiteral("ftree"), QStringLiteral("updn")}));
        QCOMPARE(o->lmc, 2);
        QCOMPARE(o->smPriority, 15);
        QCOMPARE(o->sweepIntervalS, quint32(0));
        QVERIFY(o->useUcastCache);
        QVERIFY(o->reassignLids);
        QVERIFY(o->forceHeavySweep);
        QVERIFY(o->honorGuid2Lid);
        QVERIFY(o->qos);
        QCOMPARE(o->partitionConfigFile, QStringLiteral("/etc/opensm/my partitions.conf"));  // quotes trimmed
        QVERIFY(!o->noPartitionEnforcement);
        QCOMPARE(o->partEnforce, QStringLiteral("in"));
        QCOMPARE(o->guidRoutingOrderFile, QStringLiteral("/etc/opensm/order"));
        QCOMPARE(o->lftsFile, QStringLiteral("/tmp/lfts"));
        QCOMPARE(o->rootGuidFile, QStringLiteral("/etc/opensm/roots"));
        QVERIFY(o->cnGuidFile.isEmpty());  // "(null)" is none
        QCOMPARE(o->originOf(QStringLiteral("lmc")), QStringLiteral("opensm.conf:3"));
        QCOMPARE(o->configFile, QStringLiteral("/etc/opensm/opensm.conf"));
        // The misspelt option is skipped by OpenSM: a note with its place, not a value.
        QCOMPARE(o->notes.size(), 1);
        QVERIFY(o->notes.first().startsWith(QLatin1String("/etc/opensm/opensm.conf:20: ")));
        QVERIFY(o->notes.first().contains(QLatin1String("use_ucast_cahce")));
    }

    void commandLineOverridesTheFile()
    {
        const QByteArray conf = "routing_engine minhop\nlmc 1\nsm_priority 3\nsweep_interval 30\npartition_config_file /etc/p.conf\n";
        const OpenSmState s = stateOf(conf, {QStringLiteral("-F"), QStringLiteral("/x/opensm.conf"), QStringLiteral("-f"), QStringLiteral("/x/log"), QStringLiteral("-e"), QStringLiteral("--routing_engine=file"), QStringLiteral("-l"), QStringLiteral("0"), QStringLiteral("-priority"), QStringLiteral("7"), QStringLiteral("-s5"), QStringLiteral("-A"), QStringLiteral("-P"), QStringLiteral("/x/partitions.conf"), QStringLiteral("-U"), QStringLiteral("/x/lfts")});
        QCOMPARE(s.options.routingEngines, QStringList{QStringLiteral("file")});
        QCOMPARE(s.options.lmc, 0);
        QCOMPARE(s.options.smPriority, 7);
        QCOMPARE(s.options.sweepIntervalS, quint32(5));
        QVERIFY(s.options.useUcastCache);
        QCOMPARE(s.options.partitionConfigFile, QStringLiteral("/x/partitions.conf"));
        QCOMPARE(s.options.lftsFile, QStringLiteral("/x/lfts"));
        QCOMPARE(s.options.logFile, QStringLiteral("/x/log"));
        QCOMPARE(s.options.configFile, QStringLiteral("/x/opensm.conf"));
        QCOMPARE(s.options.originOf(QStringLiteral("sm_priority")), QStringLiteral("command line"));
        QCOMPARE(s.options.originOf(QStringLiteral("routing_engine")), QStringLiteral("command line"));
    }

    // Weft's engine is configured by the event plugin's two options, and a standby by its port:
    // read from the file (the last of two lines wins, as OpenSM reads them) and, for the port,
    // from the command line too.
    void pluginAndPortOptions()
    {
        const QByteArray conf = "event_plugin_name weftosm\nevent_plugin_options /etc/opensm/intent.weft\nrouting_engine weft,updn\n"
                                "guid 0x0002c90300a1b2c3\nevent_plugin_options /srv/sm2/intent.weft\n";
        const Result<OpenSmOptions> o = readOpenSmOptions(conf, QStringLiteral("opensm.conf"));
        QVERIFY2(o, o ? "" : qPrintable(o.error().toString()));
        QCOMPARE(o->eventPluginName, QStringLiteral("weftosm"));
        QCOMPARE(o->eventPluginOptions, QStringLiteral("/srv/sm2/intent.weft"));
        QCOMPARE(o->originOf(QStringLiteral("event_plugin_options")), QStringLiteral("opensm.conf:5"));
        QCOMPARE(o->portGuid, quint64(0x0002c90300a1b2c3));
        QVERIFY2(o->notes.isEmpty(), qPrintable(o->notes.join(QLatin1Char('\n'))));
        const Result<OpenSmOptions> cl = applyOpenSmCommandLine({QStringLiteral("-g"), QStringLiteral("0x10")}, *o);
        QVERIFY(cl);
        QCOMPARE(cl->portGuid, quint64(0x10));
    }

    void badLines_data()
    {
        QTest::addColumn<QByteArray>("conf");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("problem");
        QTest::addRow("lmc not a number") << QByteArray("# x\nlmc two\n") << 2 << QStringLiteral("lmc: \"two\" is not a number");
        QTest::addRow("lmc out of range") << QByteArray("lmc 8\n") << 1 << QStringLiteral("lmc: 8 is out of OpenSM's range 0..7");
        QTest::addRow("priority out of range") << QByteArray("\n\nsm_priority 16\n") << 3 << QStringLiteral("sm_priority: 16 is out of OpenSM's range 0..15");
        QTest::addRow("sweep interval beyond 32 bits") << QByteArray("sweep_interval 4294967296\n") << 1 << QStringLiteral("out of OpenSM's range");
        QTest::addRow("lowercase true") << QByteArray("qos FALSE\nuse_ucast_cache true\n") << 2
                                        << QStringLiteral("use_ucast_cache: \"true\" is neither TRUE nor FALSE");
        QTest::addRow("option without value") << QByteArray("routing_engine   # later\n") << 1 << QStringLiteral("routing_engine has no value");
        QTest::addRow("part_enforce unknown") << QByteArray("part_enforce maybe\n") << 1 << QStringLiteral("none of both, in, out, off");
    }
    void badLines()
    {
        QFETCH(QByteArray, conf);
        QFETCH(int, line);
        QFETCH(QString, problem);
        const Result<OpenSmOptions> o = readOpenSmOptions(conf, QStringLiteral("site/opensm.conf"));
        QVERIFY(!o.ok());
        QCOMPARE(o.error().file, QStringLiteral("site/opensm.conf"));
        QCOMPARE(o.error().line, line);
        QVERIFY2(o.error().message.contains(problem), qPrintable(o.error().toString()));
    }

    void badCommandLine()
    {
        const Result<OpenSmOptions> missing = applyOpenSmCommandLine({QStringLiteral("-R")}, {});
        QVERIFY(!missing.ok());
        QVERIFY2(missing.error().toString().contains(QLatin1String("-R has no value")), qPrintable(missing.error().toString()));
        const Result<OpenSmOptions> lmc = applyOpenSmCommandLine({QStringLiteral("-l"), QStringLiteral("9")}, {});
        QVERIFY(!lmc.ok());
        QVERIFY(lmc.error().message.contains(QLatin1String("out of OpenSM's range 0..7")));
    }

    void aGoodTargetHasNoWarnings()
    {
        const OpenSmState s = stateOf("sweep_interval 0\n", kGoodCommandLine);
        // sweep_interval 0 stops only the periodic sweeps: SIGHUP still forces a heavy sweep.
        QCOMPARE(commitWarnings(s, fileTarget()), QStringList());
    }

    void eachWarning_data()
    {
        QTest::addColumn<QByteArray>("conf");
        QTest::addColumn<QStringList>("commandLine");
        QTest::addColumn<QString>("warning");
        const QStringList good = kGoodCommandLine;
        QTest::addRow("ucast cache") << QByteArray("use_ucast_cache TRUE\n") << good << QStringLiteral("use_ucast_cache is on (opensm.conf:1)");
        QTest::addRow("ucast cache flag") << QByteArray() << (good + QStringList{QStringLiteral("-A")})
                                          << QStringLiteral("use_ucast_cache is on (command line)");
        QTest::addRow("no file engine") << QByteArray() << QStringList{QStringLiteral("-P"), QStringLiteral("/srv/weft/partitions.conf")}
                                        << QStringLiteral("no routing_engine is set: OpenSM computes its own routes with minhop");
        QTest::addRow("file not first") << QByteArray()
                                        << QStringList{QStringLiteral("-R"), QStringLiteral("updn,file"), QStringLiteral("-U"),
                                                       QStringLiteral("/srv/weft/opensm.lfts"), QStringLiteral("-P"),
                                                       QStringLiteral("/srv/weft/partitions.conf")}
                                        << QStringLiteral("routes with updn and reads the LFT file only if that fails");
        QTest::addRow("fallback") << QByteArray("routing_engine file\nlfts_file /srv/weft/opensm.lfts\n")
                                  << QStringList{QStringLiteral("-P"), QStringLiteral("/srv/weft/partitions.conf")}
                                  << QStringLiteral("without no_fallback");
        QTest::addRow("lmc with ftree") << QByteArray("lmc 1\nrouting_engine file,ftree,no_fallback\n") << QStringList{QStringLiteral("-U"), QStringLiteral("/srv/weft/opensm.lfts"), QStringLiteral("-P"), QStringLiteral("/srv/weft/partitions.conf")}
                                        << QStringLiteral("lmc is 1 (opensm.conf:1) with ftree");
        QTest::addRow("other lft file") << QByteArray("lfts_file /elsewhere/lfts\n")
                                        << QStringList{QStringLiteral("-R"), QStringLiteral("file,no_fallback"), QStringLiteral("-P"),
                                                       QStringLiteral("/srv/weft/partitions.conf")}
                                        << QStringLiteral("OpenSM reads its LFT file from /elsewhere/lfts (opensm.conf:1)");
        QTest::addRow("other partitions file") << QByteArray("partition_config_file /etc/opensm/partitions.conf\n")
                                               << QStringList{QStringLiteral("-R"), QStringLiteral("file,no_fallback"), QStringLiteral("-U"), QStringLiteral("/srv/weft/opensm.lfts")}
                                               << QStringLiteral("OpenSM reads partitions from /etc/opensm/partitions.conf (opensm.conf:1), but the commit writes /srv/weft/partitions.conf");
        QTest::addRow("no enforcement") << QByteArray("no_partition_enforcement TRUE\n") << good << QStringLiteral("no_partition_enforcement is on");
        QTest::addRow("enforce in only") << QByteArray() << (good + QStringList{QStringLiteral("-Z"), QStringLiteral("in")})
                                         << QStringLiteral("part_enforce is in (command line): switches filter P_Keys only inbound");
        QTest::addRow("reassign lids") << QByteArray() << (good + QStringList{QStringLiteral("-r")}) << QStringLiteral("reassign_lids is on (command line)");
        QTest::addRow("inactive") << QByteArray("sm_inactive TRUE\n") << good << QStringLiteral("sm_inactive is on");
    }
    void eachWarning()
    {
        QFETCH(QByteArray, conf);
        QFETCH(QStringList, commandLine);
        QFETCH(QString, warning);
        const QStringList warnings = commitWarnings(stateOf(conf, commandLine), fileTarget());
        QVERIFY2(anyContains(warnings, warning), qPrintable(warnings.join(QLatin1Char('\n'))));
        QCOMPARE(warnings.size(), 1);  // each case distorts one thing only
    }

    void stateFromTheTarget()
    {
        // The pid file names this test (a process that runs, whose command line is readable);
        // the options file is the target's, and its log says where the SM stands.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        CommitTarget target = fileTarget(dir.path());
        target.pidFile = dir.filePath(QStringLiteral("opensm.pid"));
        target.optionsPath = dir.filePath(QStringLiteral("opensm.conf"));
        target.logPath = dir.filePath(QStringLiteral("opensm.log"));
        QVERIFY(writeFileAtomically(target.pidFile, QByteArray::number(qint64(getpid())) + '\n', false).ok());
        QVERIFY(writeFileAtomically(target.optionsPath, "use_ucast_cache TRUE\nsm_priority 4\n", false).ok());
        QVERIFY(writeFileAtomically(target.logPath, "x: Entering DISCOVERING state\nx: Entering MASTER state\nx: SUBNET UP\nx: SUBNET UP\n", false).ok());
        Result<OpenSmState> s = readOpenSmState(target);
        QVERIFY2(s.ok(), s.ok() ? "" : qPrintable(s.error().toString()));
        QCOMPARE(s->pid, qint64(getpid()));
        QVERIFY(s->running);
        QVERIFY2(s->problems.isEmpty(), qPrintable(s->problems.join(QLatin1Char('\n'))));
        QVERIFY(s->optionsFileRead);
        QCOMPARE(s->options.smPriority, 4);
        QCOMPARE(s->smState, QStringLiteral("MASTER"));
        QCOMPARE(s->subnetUpCount, 2);
        QVERIFY(anyContains(commitWarnings(*s, target), QStringLiteral("use_ucast_cache is on (opensm.conf:1)")));

        // A broken options file is the error, with its place; a missing pid file is a problem.
        QVERIFY(writeFileAtomically(target.optionsPath, "lmc 3\nlmc x\n", false).ok());
        target.pidFile = dir.filePath(QStringLiteral("missing.pid"));
        Result<OpenSmState> bad = readOpenSmState(target);
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().file, target.optionsPath);
        QCOMPARE(bad.error().line, 2);

        Result<OpenSmState> chosen = readOpenSmState(target, dir.filePath(QStringLiteral("none.conf")));
        QVERIFY(chosen.ok());
        QVERIFY(!chosen->optionsFileRead);
        QVERIFY(anyContains(chosen->problems, QStringLiteral("missing.pid")));
        QVERIFY(anyContains(chosen->problems, QStringLiteral("none.conf: no such options file")));
        QVERIFY(anyContains(commitWarnings(*chosen, target), QStringLiteral("OpenSM is not running")));
    }
};

QTEST_GUILESS_MAIN(TestOpenSmState)
#include "tst_opensm_state.moc"
