// The `weft` executable's headless subcommands, run as a user runs them: exit codes, stdout,
// stderr, files written.

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include "WeftRunner.h"

#include <QtTest>

namespace {

using weft::test::Run;
using weft::test::runWeft;

QJsonObject json(const QByteArray &out)
{
    return QJsonDocument::fromJson(out).object();
}

}  // namespace

class TestCli : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(qEnvironmentVariable("WEFT_BINARY")).isExecutable(), "WEFT_BINARY must name the weft executable");
        QVERIFY(m_dir.isValid());
    }

    // A write onto a full disk: a 16 KB tmpfs (in a private mount namespace of its own, so no
    // privilege is needed) holding the file to be replaced. The command fails naming the file
    // and "No space left on device", and the file, alone in its directory, is as it was.
    // Where no mount namespace can be made, the same is asked of a file-size limit instead.
    void writeOntoAFullDiskChangesNothing()
    {
        const QString topology = m_dir.filePath(QStringLiteral("r16.topo"));
        QVERIFY(runWeft({QStringLiteral("gen"), QStringLiteral("--radix"), QStringLiteral("16"), QStringLiteral("--levels"),
                         QStringLiteral("2"), QStringLiteral("-o"), topology})
                    .exitCode
                == 0);
        const QString mountPoint = m_dir.filePath(QStringLiteral("full"));
        QVERIFY(QDir().mkpath(mountPoint));
        const QString script = QStringLiteral(
            "mount -t tmpfs -o size=16k tmpfs \"$1\" || exit 97\n"
            "printf 'old\\n' > \"$1/out.net\"\n"
            "\"$2\" convert --to ibsim \"$3\" -o \"$1/out.net\"; echo \"exit=$?\"\n"
            "echo \"content=$(cat \"$1/out.net\")\"; echo \"entries=$(ls -A \"$1\" | tr '\\n' ' ')\"\n");
        QProcess shell;
        shell.start(QStringLiteral("unshare"), {QStringLiteral("-rm"), QStringLiteral("sh"), QStringLiteral("-c"), script, QStringLiteral("sh"), mountPoint, qEnvironmentVariable("WEFT_BINARY"), topology});
        const bool ran = shell.waitForFinished(120000) && shell.exitStatus() == QProcess::NormalExit;
        QString out = QString::fromUtf8(shell.readAllStandardOutput());
        QString err = QString::fromUtf8(shell.readAllStandardError()) + shell.errorString();
        QString cause = QStringLiteral("No space left on device");
        if (!ran || shell.exitCode() != 0 || !out.contains(QStringLiteral("exit="))) {
            qWarning("no tmpfs in a private mount namespace here (%s): a file-size limit stands in for the full disk",
                     qPrintable(err.trimmed()));
            const QString plain = m_dir.filePath(QStringLiteral("limited"));
            QVERIFY(QDir().mkpath(plain));
            shell.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("trap '' XFSZ; ulimit -f 16; printf 'old\\n' > \"$1/out.net\"\n"
                                                                                         "\"$2\" convert --to ibsim \"$3\" -o \"$1/out.net\"; echo \"exit=$?\"\n"
                                                                                         "echo \"content=$(cat \"$1/out.net\")\"; echo \"entries=$(ls -A \"$1\" | tr '\\n' ' ')\"\n"),
                                                    QStringLiteral("sh"), plain, qEnvironmentVariable("WEFT_BINARY"), topology});
            QVERIFY(shell.waitForFinished(120000));
            out = QString::fromUtf8(shell.readAllStandardOutput());
            err = QString::fromUtf8(shell.readAllStandardError());
            cause = QStringLiteral("File too large");
        }
        QVERIFY2(out.contains(QStringLiteral("exit=2\n")), qPrintable(out + err));
        QVERIFY2(err.contains(QStringLiteral("out.net: cannot write: ") + cause), qPrintable(err));
        QVERIFY2(out.contains(QStringLiteral("content=old\n")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("entries=out.net \n")), qPrintable(out));
    }

    void helpListsCommands()
    {
        const Run r = runWeft({QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        for (const char *command : {"info", "gen", "convert", "bench"})
            QVERIFY2(r.out.contains(command), command);
        for (const char *command : {"info", "gen", "convert"}) {
            const Run h = runWeft({QLatin1String(command), QStringLiteral("--help")});
            QCOMPARE(h.exitCode, 0);
            QVERIFY(h.out.contains("Usage:"));
        }
    }

    // Every command's usage names it as it is typed (`weft discover`), never the path the
    // program was started by, whether asked as `weft help X` or `weft X --help`.
    void helpNamesTheCommand_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("usage");
        const Run help = runWeft({QStringLiteral("--help")});
        const QString text = QString::fromUtf8(help.out);
        const QString commands = text.mid(text.indexOf(QStringLiteral("Commands:\n")));
        const QStringList lines = commands.left(commands.indexOf(QStringLiteral("\n\n"))).split(QLatin1Char('\n')).mid(1);
        QVERIFY(lines.size() >= 17);
        for (const QString &line : lines) {
            const QString command = line.trimmed().section(QLatin1Char(' '), 0, 0);
            const QString usage = QStringLiteral("Usage: weft %1 ").arg(command);
            QTest::addRow("weft help %s", qPrintable(command)) << QStringList{QStringLiteral("help"), command} << usage;
            QTest::addRow("weft %s --help", qPrintable(command)) << QStringList{command, QStringLiteral("--help")} << usage;
        }
        // A benchmark's own options.
        QTest::addRow("weft bench scale --help") << QStringList{QStringLiteral("bench"), QStringLiteral("scale"), QStringLiteral("--help")}
                                                 << QStringLiteral("Usage: weft bench scale ");
    }

    void helpNamesTheCommand()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, usage);
        const Run r = runWeft(args);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(QString::fromUtf8(r.out).startsWith(usage), r.out.left(200).constData());
        QVERIFY2(!r.out.contains(qgetenv("WEFT_BINARY")), r.out.left(200).constData());
    }

    void genThenInfo_data()
    {
        QTest::addColumn<QStringList>("genArgs");
        QTest::addColumn<int>("switches");
        QTest::addColumn<int>("hosts");
        QTest::addColumn<int>("links");
        QTest::addColumn<int>("levels");
        // Radix r, 2 levels: r leaves with r/2 hosts, r/2 spines; every leaf up-port cabled.
        QTest::addRow("radix 8, 2 levels") << QStringList{QStringLiteral("--radix"), QStringLiteral("8"), QStringLiteral("--levels"), QStringLiteral("2")}
                                           << 12 << 32 << 32 + 32 << 2;
        // k-ary n-tree: n k^(n-1) switches, k^n hosts, n k^n cables.
        QTest::addRow("4-ary 3-tree") << QStringList{QStringLiteral("--kary"), QStringLiteral("4"), QStringLiteral("--levels"), QStringLiteral("3")}
                                      << 48 << 64 << 3 * 64 << 3;
        QTest::addRow("4-ary 3-tree as ibsim net")
            << QStringList{QStringLiteral("--kary"), QStringLiteral("4"), QStringLiteral("--levels"), QStringLiteral("3"), QStringLiteral("--format"), QStringLiteral("ibsim")}
            << 48 << 64 << 3 * 64 << 3;
        QTest::addRow("2-ary 3-tree, 2 links removed")
            << QStringList{QStringLiteral("--kary"), QStringLiteral("2"), QStringLiteral("--levels"), QStringLiteral("3"), QStringLiteral("--remove-links"), QStringLiteral("2"), QStringLiteral("--seed"), QStringLiteral("4")}
            << 12 << 8 << 3 * 8 - 2 << 3;
    }

    void genThenInfo()
    {
        QFETCH(QStringList, genArgs);
        QFETCH(int, switches);
        QFETCH(int, hosts);
        QFETCH(int, links);
        QFETCH(int, levels);
        const QString file = m_dir.filePath(QStringLiteral("%1.topo").arg(QString::fromUtf8(QTest::currentDataTag())));
        const Run g = runWeft(QStringList{QStringLiteral("gen")} + genArgs + QStringList{QStringLiteral("-o"), file});
        QVERIFY2(g.exitCode == 0, g.err.constData());
        const Run i = runWeft({QStringLiteral("info"), QStringLiteral("--json"), file});
        QVERIFY2(i.exitCode == 0, i.err.constData());
        const QJsonObject o = json(i.out);
        QCOMPARE(o.value(QStringLiteral("format")).toString(), QStringLiteral("topology"));
        QCOMPARE(o.value(QStringLiteral("switches")).toInt(), switches);
        QCOMPARE(o.value(QStringLiteral("hosts")).toInt(), hosts);
        QCOMPARE(o.value(QStringLiteral("links")).toInt(), links);
        QCOMPARE(o.value(QStringLiteral("levels")).toInt(), levels);
        QCOMPARE(o.value(QStringLiteral("lid_min")).toInt(), 1);
        QCOMPARE(o.value(QStringLiteral("lid_max")).toInt(), switches + hosts);

        const Run text = runWeft({QStringLiteral("info"), file});
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains("switches: " + QByteArray::number(switches) + '\n'));
        QVERIFY(text.out.contains("hosts: " + QByteArray::number(hosts) + '\n'));
    }

    void infoOnLftDumpAndPartitions()
    {
        const Run l = runWeft({QStringLiteral("info"), QStringLiteral("--json"), QFINDTESTDATA("data/lfts/dump_lfts.txt")});
        QVERIFY2(l.exitCode == 0, l.err.constData());
        QCOMPARE(json(l.out).value(QStringLiteral("format")).toString(), QStringLiteral("lfts"));
        QCOMPARE(json(l.out).value(QStringLiteral("switches")).toInt(), 2);
        QCOMPARE(json(l.out).value(QStringLiteral("entries")).toInt(), 12);  // 6 LIDs on each of 2 switches

        const Run p = runWeft({QStringLiteral("info"), QStringLiteral("--json"), QFINDTESTDATA("data/partitions/tenants.conf")});
        QVERIFY2(p.exitCode == 0, p.err.constData());
        const QJsonArray parts = json(p.out).value(QStringLiteral("partitions")).toArray();
        QCOMPARE(parts.size(), 3);
        QCOMPARE(parts.at(1).toObject().value(QStringLiteral("name")).toString(), QStringLiteral("TenantA"));
        QCOMPARE(parts.at(1).toObject().value(QStringLiteral("pkey")).toString(), QStringLiteral("0x0001"));
        QCOMPARE(parts.at(1).toObject().value(QStringLiteral("full")).toInt(), 1);
        QCOMPARE(parts.at(1).toObject().value(QStringLiteral("limited")).toInt(), 1);
        QCOMPARE(parts.at(2).toObject().value(QStringLiteral("full")).toInt(), 1);
        QCOMPARE(parts.at(2).toObject().value(QStringLiteral("limited")).toInt(), 1);
    }

    void infoChecksAgainstATopology()
    {
        const QString small = QFINDTESTDATA("data/topology/ibnetdiscover-2sw4hca.txt");
        // The LFT dump was taken on that very fabric: it fits.
        Run r = runWeft({QStringLiteral("info"), QStringLiteral("--topology"), small, QFINDTESTDATA("data/lfts/dump_lfts.txt")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        // Against another fabric its switches are unknown.
        const QString other = m_dir.filePath(QStringLiteral("other.topo"));
        QCOMPARE(runWeft({QStringLiteral("gen"), QStringLiteral("--kary"), QStringLiteral("2"), QStringLiteral("--levels"), QStringLiteral("2"), QStringLiteral("-o"), other}).exitCode, 0);
        r = runWeft({QStringLiteral("info"), QStringLiteral("--topology"), other, QFINDTESTDATA("data/lfts/dump_lfts.txt")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("dump_lfts.txt:"), r.err.constData());

        // A project opened against a fabric that lacks its GUIDs names each of them once.
        const QString project = QFINDTESTDATA("../resources/demo/project.weft");
        r = runWeft({QStringLiteral("info"), QStringLiteral("--json"), QStringLiteral("--topology"), small, project});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonArray missing = json(r.out).value(QStringLiteral("missing_guids")).toArray();
        QCOMPARE(missing.size(), 68);  // the demo names 66 tenant hosts and 2 storage hosts
        // Against its own fabric (the demo is the generated radix-12 two-level tree) nothing is missing.
        const QString demo = m_dir.filePath(QStringLiteral("demo.topo"));
        QCOMPARE(runWeft({QStringLiteral("gen"), QStringLiteral("--radix"), QStringLiteral("12"), QStringLiteral("--levels"), QStringLiteral("2"), QStringLiteral("-o"), demo}).exitCode, 0);
        r = runWeft({QStringLiteral("info"), QStringLiteral("--json"), QStringLiteral("--topology"), demo, project});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(json(r.out).value(QStringLiteral("missing_guids")).toArray().size(), 0);
    }

    // The P_Key tables `weft discover --pkeys` writes: summarised alone (switch ports told apart
    // by their port 0 line) and against the topology, with the same figures.
    void infoOnPKeyTables_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::addRow("alone") << QStringList{};
        QTest::addRow("against the topology") << QStringList{QStringLiteral("--topology"), QFINDTESTDATA("data/topology/ibnetdiscover-2sw4hca.txt")};
    }

    void infoOnPKeyTables()
    {
        QFETCH(QStringList, options);
        const QString pkeys = QFINDTESTDATA("data/pkeys/2sw4hca.pkeys");
        const Run r = runWeft(QStringList{QStringLiteral("info"), QStringLiteral("--json")} + options + QStringList{pkeys});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = json(r.out);
        QCOMPARE(o.value(QStringLiteral("format")).toString(), QStringLiteral("pkeys"));
        QCOMPARE(o.value(QStringLiteral("topology")).isNull(), options.isEmpty());
        QCOMPARE(o.value(QStringLiteral("ports")).toInt(), 10);
        QCOMPARE(o.value(QStringLiteral("end_ports")).toInt(), 4);
        QCOMPARE(o.value(QStringLiteral("switch_ports_0")).toInt(), 2);
        QCOMPARE(o.value(QStringLiteral("switch_ports_facing_cas")).toInt(), 4);
        // Default: OpenSM's port full, every other CA port and switch port 0 limited.
        const QJsonArray keys = o.value(QStringLiteral("pkeys")).toArray();
        QCOMPARE(keys.size(), 3);
        QCOMPARE(keys.at(2).toObject(), (QJsonObject{{QStringLiteral("pkey"), QStringLiteral("0x7fff")}, {QStringLiteral("full"), 1}, {QStringLiteral("limited"), 5}}));
        // The two tenants of 2sw4hca-tenants.conf; Default, with OpenSM's port its only full
        // member, is OpenSM's own and no partition of the file.
        const QJsonArray partitions = o.value(QStringLiteral("partitions")).toArray();
        QCOMPARE(partitions.size(), 2);
        QCOMPARE(partitions.at(1).toObject(), (QJsonObject{{QStringLiteral("name"), QStringLiteral("pkey-0x0002")}, {QStringLiteral("pkey"), QStringLiteral("0x0002")}, {QStringLiteral("full"), 2}, {QStringLiteral("limited"), 1}}));

        const Run text = runWeft(QStringList{QStringLiteral("info")} + options + QStringList{pkeys});
        QVERIFY2(text.exitCode == 0, text.err.constData());
        QVERIFY2(text.out.contains("format: P_Key tables\n"), text.out.constData());
        QVERIFY2(text.out.contains("\n  0x0002  full 2  limited 1\n"), text.out.constData());
        QVERIFY2(text.out.contains("\npartitions: 2 (OpenSM's own Default left out: no port but the SM's is its full member)\n"), text.out.constData());
    }

    // The partitions.conf P_Key tables amount to, Default explicit, names the same members.
    void convertPKeyTablesToPartitions()
    {
        const QString conf = m_dir.filePath(QStringLiteral("held.conf"));
        const Run r = runWeft({QStringLiteral("convert"), QStringLiteral("--to"), QStringLiteral("partitions"), QStringLiteral("-o"), conf,
                               QFINDTESTDATA("data/pkeys/2sw4hca-moved.pkeys")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const Run i = runWeft({QStringLiteral("info"), QStringLiteral("--json"), conf});
        QVERIFY2(i.exitCode == 0, i.err.constData());
        const QJsonArray partitions = json(i.out).value(QStringLiteral("partitions")).toArray();
        QCOMPARE(partitions.size(), 3);
        QCOMPARE(partitions.at(0).toObject().value(QStringLiteral("name")).toString(), QStringLiteral("Default"));
        QCOMPARE(partitions.at(0).toObject().value(QStringLiteral("keywords")).toInt(), 2);  // ALL=limited, SELF=full
        QCOMPARE(partitions.at(1).toObject().value(QStringLiteral("full")).toInt(), 1);
        QCOMPARE(partitions.at(2).toObject().value(QStringLiteral("full")).toInt(), 3);
        QCOMPARE(partitions.at(2).toObject().value(QStringLiteral("limited")).toInt(), 0);

        const Run lfts = runWeft({QStringLiteral("convert"), QStringLiteral("--to"), QStringLiteral("lfts"), QFINDTESTDATA("data/pkeys/2sw4hca.pkeys")});
        QCOMPARE(lfts.exitCode, 2);
        QVERIFY2(lfts.err.contains("cannot convert a pkeys file to lfts"), lfts.err.constData());
    }

    // A malformed line, and a port the topology lacks, name the file and the line.
    void badPKeyTablesNameFileAndLine_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<bool>("withTopology");
        QTest::addColumn<QString>("error");
        const QByteArray header = "# P_Key tables: port GUID, port number, node description, index:P_Key (0x8000 = full member)\n"
                                  "0x0000000000100004 1 \"Hca2\" 0:0x7fff 1:0x8002\n";
        QTest::addRow("empty slot listed") << header + "0x0000000000100007 1 \"Hca3\" 0:0x7fff 1:0x8000\n"
                                           << false
                                           << QStringLiteral(":3: P_Key 0x8000 at index 1 names no partition");
        QTest::addRow("port twice") << header + "0x0000000000100004 1 \"Hca2\" 0:0x7fff\n"
                                    << false
                                    << QStringLiteral(":3: port 0x0000000000100004 1 is listed already (line 2)");
        QTest::addRow("GUID the fabric lacks") << header + "0x00000000000000ee 1 \"gone\" 0:0x7fff\n"
                                               << true
                                               << QStringLiteral(":3: no port or node with GUID 0x00000000000000ee in the fabric");
    }

    void badPKeyTablesNameFileAndLine()
    {
        QFETCH(QByteArray, text);
        QFETCH(bool, withTopology);
        QFETCH(QString, error);
        const QString file = m_dir.filePath(QStringLiteral("bad.pkeys"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text);
        f.close();
        QStringList args{QStringLiteral("info"), file};
        if (withTopology)
            args = QStringList{QStringLiteral("info"), QStringLiteral("--topology"), QFINDTESTDATA("data/topology/ibnetdiscover-2sw4hca.txt"), file};
        const Run r = runWeft(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).startsWith(QStringLiteral("weft info: ") + file + error), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }

    void convertRoundTrips()
    {
        const QString topo = QFINDTESTDATA("data/topology/ibnetdiscover-2sw4hca.txt");
        const QString net = m_dir.filePath(QStringLiteral("converted.net"));
        Run r = runWeft({QStringLiteral("convert"), QStringLiteral("--to"), QStringLiteral("ibsim"), QStringLiteral("-o"), net, topo});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const Run a = runWeft({QStringLiteral("info"), QStringLiteral("--json"), topo});
        const Run b = runWeft({QStringLiteral("info"), QStringLiteral("--json"), net});
        QCOMPARE(json(b.out).value(QStringLiteral("links")), json(a.out).value(QStringLiteral("links")));
        QCOMPARE(json(b.out).value(QStringLiteral("lid_max")), json(a.out).value(QStringLiteral("lid_max")));

        const QString project = m_dir.filePath(QStringLiteral("tenants.weft"));
        const QString conf = m_dir.filePath(QStringLiteral("tenants.conf"));
        r = runWeft({QStringLiteral("convert"), QStringLiteral("--to"), QStringLiteral("project"), QStringLiteral("-o"), project,
                  QFINDTESTDATA("data/partitions/tenants.conf")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = runWeft({QStringLiteral("convert"), QStringLiteral("--to"), QStringLiteral("partitions"), QStringLiteral("-o"), conf, project});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const Run before = runWeft({QStringLiteral("info"), QStringLiteral("--json"), QFINDTESTDATA("data/partitions/tenants.conf")});
        const Run after = runWeft({QStringLiteral("info"), QStringLiteral("--json"), conf});
        // Same names, P_Keys and member counts (source lines differ by construction).
        const QJsonArray x = json(before.out).value(QStringLiteral("partitions")).toArray();
        const QJsonArray y = json(after.out).value(QStringLiteral("partitions")).toArray();
        QCOMPARE(y.size(), x.size());
        for (int i = 0; i < x.size(); ++i)
            for (const char *key : {"name", "pkey", "full", "limited", "keywords", "ipoib", "indx0", "defmember"})
                QCOMPARE(y.at(i).toObject().value(QLatin1String(key)), x.at(i).toObject().value(QLatin1String(key)));

        // Writing over an existing file keeps what it replaced.
        r = runWeft({QStringLiteral("convert"), QStringLiteral("--to"), QStringLiteral("ibnetdiscover"), QStringLiteral("-o"), net, topo});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(QFile::exists(net + QStringLiteral(".bak")));
    }

    void badInputExitsTwoWithTheError_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString bad = QFINDTESTDATA("data/topology/ibsim-example.net") + QStringLiteral(".missing");
        QTest::addRow("missing file") << QStringList{QStringLiteral("info"), bad} << QStringLiteral("cannot open");
        QTest::addRow("no file") << QStringList{QStringLiteral("info")} << QStringLiteral("exactly one FILE");
        QTest::addRow("unknown option") << QStringList{QStringLiteral("info"), QStringLiteral("--frob"), bad} << QStringLiteral("frob");
        QTest::addRow("odd radix") << QStringList{QStringLiteral("gen"), QStringLiteral("--radix"), QStringLiteral("7"), QStringLiteral("--levels"), QStringLiteral("2")} << QStringLiteral("radix");
        QTest::addRow("no shape") << QStringList{QStringLiteral("gen")} << QString();
        QTest::addRow("impossible conversion")
            << QStringList{QStringLiteral("convert"), QStringLiteral("--to"), QStringLiteral("lfts"), QFINDTESTDATA("data/topology/ibsim-example.net")}
            << QStringLiteral("cannot convert a topology file to lfts");
        QTest::addRow("unknown target") << QStringList{QStringLiteral("convert"), QStringLiteral("--to"), QStringLiteral("xml"), bad} << QStringLiteral("--to must be one of");
        QTest::addRow("unknown benchmark") << QStringList{QStringLiteral("bench"), QStringLiteral("nothing")} << QStringLiteral("unknown benchmark");
        QTest::addRow("neither command nor file") << QStringList{QStringLiteral("frobnicate")} << QStringLiteral("neither a command nor a file");
    }

    void badInputExitsTwoWithTheError()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run r = runWeft(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
    }

    void malformedFilesNameFileAndLine()
    {
        const QString file = m_dir.filePath(QStringLiteral("broken.topo"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("switchguid=0x10\nSwitch\t4 \"S-0000000000000010\"\n[9]\t\"x\"[1]\n");
        f.close();
        const Run r = runWeft({QStringLiteral("info"), file});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(file.toUtf8() + ":3: "), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }

    void benchParseReportsFigures()
    {
        const Run r = runWeft({QStringLiteral("bench"), QStringLiteral("parse"), QStringLiteral("--radix"), QStringLiteral("8"),
                            QStringLiteral("--levels"), QStringLiteral("3"), QStringLiteral("--repeat"), QStringLiteral("2"), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = json(r.out);
        QCOMPARE(o.value(QStringLiteral("hosts")).toInt(), 128);  // 8^3/4
        QCOMPARE(o.value(QStringLiteral("switches")).toInt(), 80);  // 5*8^2/4
        QVERIFY(o.value(QStringLiteral("seconds_min")).toDouble() > 0);
        QCOMPARE(o.value(QStringLiteral("seconds_all")).toArray().size(), 2);
    }

    // The plugin's engine called as OpenSM calls it, without OpenSM: the first routing (ftree,
    // every block written), then a leaf uplink lost and repaired with a few blocks.
    void benchSmEngineOnly()
    {
        const Run r = runWeft({QStringLiteral("bench"), QStringLiteral("sm"), QStringLiteral("--engine-only"), QStringLiteral("--radix"),
                               QStringLiteral("8"), QStringLiteral("--levels"), QStringLiteral("3"), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = json(r.out);
        QCOMPARE(o.value(QStringLiteral("engine_routed_by")).toString(), QStringLiteral("ftree"));
        QCOMPARE(o.value(QStringLiteral("engine_repaired_by")).toString(), QStringLiteral("repair"));
        QVERIFY(o.value(QStringLiteral("engine_route_seconds")).toDouble() > 0);
        QVERIFY(o.value(QStringLiteral("engine_repair_seconds")).toDouble() > 0);
        const double first = o.value(QStringLiteral("engine_route_smps")).toDouble();
        const double repair = o.value(QStringLiteral("engine_repair_smps")).toDouble();
        QVERIFY2(repair > 0 && repair < first / 2, qPrintable(QStringLiteral("%1 of %2").arg(repair).arg(first)));
        const Run mixed = runWeft({QStringLiteral("bench"), QStringLiteral("sm"), QStringLiteral("--intent"), QStringLiteral("x.weft"),
                                   QStringLiteral("--radix"), QStringLiteral("8")});
        QCOMPARE(mixed.exitCode, 2);
        QVERIFY2(mixed.err.contains("--intent and --tenants go with --engine-only"), mixed.err.constData());
        // pftree with tenants, as OpenSM would run it.
        const Run tenants = runWeft({QStringLiteral("bench"), QStringLiteral("sm"), QStringLiteral("--engine-only"), QStringLiteral("--tenants"),
                                     QStringLiteral("4"), QStringLiteral("--radix"), QStringLiteral("8"), QStringLiteral("--levels"), QStringLiteral("3"),
                                     QStringLiteral("--json")});
        QVERIFY2(tenants.exitCode == 0, tenants.err.constData());
        QCOMPARE(json(tenants.out).value(QStringLiteral("engine_routed_by")).toString(), QStringLiteral("pftree"));
        QCOMPARE(json(tenants.out).value(QStringLiteral("engine_repaired_by")).toString(), QStringLiteral("repair"));
    }

    // Every stage of the scale table, on a small tree: each in its own process, each with its
    // own peak memory, the files one stage writes read by the next; a stage that cannot run
    // says why and the table says it is not within its limits.
    void benchScaleRunsEveryStage()
    {
        QTemporaryDir dir;
        const Run r = runWeft({QStringLiteral("bench"), QStringLiteral("scale"), QStringLiteral("--radix"), QStringLiteral("8"),
                               QStringLiteral("--work"), dir.path(), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = json(r.out);
        QVERIFY(o.value(QStringLiteral("fabric")).toString().contains(QStringLiteral("128 hosts")));
        const QJsonArray stages = o.value(QStringLiteral("stages")).toArray();
        QStringList names;
        for (const QJsonValue &v : stages) {
            const QJsonObject stage = v.toObject();
            names << stage.value(QStringLiteral("stage")).toString();
            QVERIFY2(!stage.contains(QStringLiteral("error")), qPrintable(stage.value(QStringLiteral("error")).toString()));
            QVERIFY(stage.value(QStringLiteral("seconds")).toDouble() >= 0);
            QVERIFY(stage.value(QStringLiteral("peak_resident_bytes")).toDouble() > 1e6);
            QVERIFY(stage.value(QStringLiteral("within_limits")).toBool());
        }
        QCOMPARE(names, (QStringList{QStringLiteral("gen"), QStringLiteral("info"), QStringLiteral("route-ftree"), QStringLiteral("route-updn"),
                                     QStringLiteral("route-minhop"), QStringLiteral("route-pftree"), QStringLiteral("route-pftree-scattered2"),
                                     QStringLiteral("route-pftree-scattered8"), QStringLiteral("validate-metrics"),
                                     QStringLiteral("ebb"), QStringLiteral("diff"), QStringLiteral("dump-write"), QStringLiteral("dump-read"),
                                     QStringLiteral("scene"), QStringLiteral("project")}));
        QVERIFY(o.value(QStringLiteral("within_limits")).toBool());
        QVERIFY(QFileInfo(dir.filePath(QStringLiteral("ftree.lft"))).size() > 0);  // dump-write's, read by dump-read

        // dump-read alone in an empty directory: no dump to read, named as such.
        QTemporaryDir empty;
        const Run alone = runWeft({QStringLiteral("bench"), QStringLiteral("scale"), QStringLiteral("--radix"), QStringLiteral("8"),
                                   QStringLiteral("--work"), empty.path(), QStringLiteral("--stages"), QStringLiteral("dump-read"),
                                   QStringLiteral("--json")});
        QCOMPARE(alone.exitCode, 0);
        const QJsonObject failed = json(alone.out).value(QStringLiteral("stages")).toArray().first().toObject();
        QVERIFY(failed.value(QStringLiteral("error")).toString().contains(QStringLiteral("ftree.lft")));
        QVERIFY(!failed.value(QStringLiteral("within_limits")).toBool());
        QVERIFY(!json(alone.out).value(QStringLiteral("within_limits")).toBool());
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
