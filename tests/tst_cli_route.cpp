// `weft route` and `weft metrics` as a user runs them: exit codes, the messages of bad input
// (with file and line), the files written, and the JSON keys --help promises.

#include "FabricGenerator.h"
#include "LftDump.h"
#include "SafeFile.h"
#include "TopologyFile.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include "WeftRunner.h"

#include <QRegularExpression>
#include <QtTest>

using namespace weft;

namespace {

using test::Run;
using test::runWeft;

void writeFile(const QString &path, const QByteArray &data)
{
    const Status s = writeFileAtomically(path, data, false);
    if (!s)
        qFatal("%s", qPrintable(s.error().toString()));
}

}  // namespace

class TestCliRoute : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_topology;   // 4-ary 2-tree
    QString m_degraded;   // the same with three switch links removed: not a fat-tree for ftree
    QString m_partitions;
    Fabric m_fabric;

    QString path(const char *name) const { return m_dir.filePath(QLatin1String(name)); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(qEnvironmentVariable("WEFT_BINARY")).isExecutable(), "WEFT_BINARY must name the weft executable");
        QVERIFY(m_dir.isValid());
        GeneratorOptions options;
        options.arity = 4;
        options.levels = 2;
        Result<GeneratedFabric> g = generateFabric(options);
        QVERIFY(g.ok());
        m_fabric = g->fabric;
        m_topology = path("tree.topo");
        writeFile(m_topology, writeIbnetdiscover(g->fabric));
        options.removeRandomLinks = 3;
        options.seed = 11;
        Result<GeneratedFabric> degraded = generateFabric(options);
        QVERIFY(degraded.ok());
        m_degraded = path("degraded.topo");
        writeFile(m_degraded, writeIbnetdiscover(degraded->fabric));
        // Two small partitions that ftree makes meet: host 4 and host 8 both go down through
        // the first spine, so H0 -> H4 (even) and H1 -> H8 (odd) share leaf 0's first up-link.
        auto guid = [&](int h) {
            return QStringLiteral("0x%1=full").arg(g->fabric.port(g->fabric.portOf(g->hosts[std::size_t(h)], 1)).guid, 16, 16, QLatin1Char('0')).toLatin1();
        };
        const QByteArray conf = "Default=0x7fff : ALL=limited, SELF=full ;\n"
                                "even=0x0001 : " + guid(0) + ", " + guid(4) + " ;\n"
                                "odd=0x0002 : " + guid(1) + ", " + guid(8) + " ;\n";
        m_partitions = path("partitions.conf");
        writeFile(m_partitions, conf);
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("weightsFile");  // written to weights.txt first when not empty
        QTest::addColumn<QString>("message");

        const QString topo = QStringLiteral("TOPO");
        const QString out = QStringLiteral("OUT");
        QTest::addRow("route without --engine") << QStringList{QStringLiteral("route"), QStringLiteral("--topology"), topo, QStringLiteral("--out"), out}
                                                << QString() << QStringLiteral("--engine is required");
        QTest::addRow("route without --out") << QStringList{QStringLiteral("route"), QStringLiteral("--engine"), QStringLiteral("ftree"), QStringLiteral("--topology"), topo}
                                             << QString() << QStringLiteral("--out is required");
        QTest::addRow("unknown engine") << QStringList{QStringLiteral("route"), QStringLiteral("--engine"), QStringLiteral("nope"), QStringLiteral("--topology"), topo, QStringLiteral("--out"), out}
                                        << QString() << QStringLiteral("unknown routing engine \"nope\" (known: ftree, minhop, updn");
        QTest::addRow("missing topology") << QStringList{QStringLiteral("route"), QStringLiteral("--engine"), QStringLiteral("ftree"), QStringLiteral("--topology"), QStringLiteral("/nonexistent/t.topo"), QStringLiteral("--out"), out}
                                          << QString() << QStringLiteral("/nonexistent/t.topo");
        QTest::addRow("policy for an unknown partition") << QStringList{QStringLiteral("route"), QStringLiteral("--engine"), QStringLiteral("ftree"), QStringLiteral("--topology"), topo,
                                                                        QStringLiteral("--partitions"), QStringLiteral("PARTS"), QStringLiteral("--policy"), QStringLiteral("tenant9=phy-isolation"), QStringLiteral("--out"), out}
                                                         << QString() << QStringLiteral("no partition named \"tenant9\" (known: Default, even, odd)");
        QTest::addRow("unknown policy") << QStringList{QStringLiteral("route"), QStringLiteral("--engine"), QStringLiteral("ftree"), QStringLiteral("--topology"), topo,
                                                       QStringLiteral("--partitions"), QStringLiteral("PARTS"), QStringLiteral("--policy"), QStringLiteral("even=walls"), QStringLiteral("--out"), out}
                                        << QString() << QStringLiteral("unknown policy \"walls\"");
        const QStringList withWeights{QStringLiteral("route"), QStringLiteral("--engine"), QStringLiteral("ftree"), QStringLiteral("--topology"), topo,
                                      QStringLiteral("--weights"), QStringLiteral("WEIGHTS"), QStringLiteral("--out"), out};
        QTest::addRow("weight not a number") << withWeights << QStringLiteral("# receivers\nhost 0001 100\nhost 0002 lots\n")
                                             << QStringLiteral("weights.txt:3: weight \"lots\" is not a positive number");
        QTest::addRow("weight for an unknown host") << withWeights << QStringLiteral("host 0099 5\n")
                                                    << QStringLiteral("weights.txt:1: no end node described or named \"host 0099\" in the fabric");
        QTest::addRow("weight for a switch") << withWeights << QStringLiteral("0x0002c90000000000 5\n")
                                             << QStringLiteral("weights.txt:1: 0x0002c90000000000 is a switch");
        QTest::addRow("weight given twice") << withWeights << QStringLiteral("host 0003 5\nhost 0003 6\n")
                                            << QStringLiteral("weights.txt:2: port 0x");
        QTest::addRow("ftree refuses a degraded tree") << QStringList{QStringLiteral("route"), QStringLiteral("--engine"), QStringLiteral("ftree"), QStringLiteral("--topology"), QStringLiteral("DEGRADED"), QStringLiteral("--out"), out}
                                                       << QString() << QStringLiteral("ftree refuses this fabric: ");
        QTest::addRow("metrics without --lfts") << QStringList{QStringLiteral("metrics"), QStringLiteral("--topology"), topo}
                                                << QString() << QStringLiteral("--lfts is required");
        QTest::addRow("metrics with an unknown traffic model") << QStringList{QStringLiteral("metrics"), QStringLiteral("--topology"), topo, QStringLiteral("--lfts"), topo, QStringLiteral("--traffic"), QStringLiteral("storm")}
                                                               << QString() << QStringLiteral("unknown traffic model \"storm\"");
        QTest::addRow("metrics on a file that is no LFT dump") << QStringList{QStringLiteral("metrics"), QStringLiteral("--topology"), topo, QStringLiteral("--lfts"), topo}
                                                               << QString() << QStringLiteral("tree.topo:");
    }

    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, weightsFile);
        QFETCH(QString, message);
        const QString weights = path("weights.txt");
        if (!weightsFile.isEmpty())
            writeFile(weights, weightsFile.toUtf8());
        const QString out = path("bad.lfts");
        QFile::remove(out);
        args.replaceInStrings(QStringLiteral("TOPO"), m_topology);
        args.replaceInStrings(QStringLiteral("DEGRADED"), m_degraded);
        args.replaceInStrings(QStringLiteral("PARTS"), m_partitions);
        args.replaceInStrings(QStringLiteral("WEIGHTS"), weights);
        args.replaceInStrings(QStringLiteral("OUT"), out);
        const Run r = runWeft(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
        QVERIFY(!QFile::exists(out));  // nothing half-written
    }

    void routeThenMetrics_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<bool>("partitions");
        QTest::addRow("ftree") << QStringLiteral("ftree") << false;
        QTest::addRow("ftree with partitions and weights") << QStringLiteral("ftree") << true;
        QTest::addRow("minhop") << QStringLiteral("minhop") << false;
    }

    void routeThenMetrics()
    {
        QFETCH(QString, engine);
        QFETCH(bool, partitions);
        const QString lfts = path("routed.lfts");
        QStringList args{QStringLiteral("route"), QStringLiteral("--engine"), engine, QStringLiteral("--topology"), m_topology, QStringLiteral("--out"), lfts};
        QStringList metricsArgs{QStringLiteral("metrics"), QStringLiteral("--json"), QStringLiteral("--topology"), m_topology, QStringLiteral("--lfts"), lfts};
        if (partitions) {
            const QString weights = path("good-weights.txt");
            writeFile(weights, "# the first two hosts receive a lot\nhost 0000 100\n0x0002c91000000401 50\n");
            const QStringList extra{QStringLiteral("--partitions"), m_partitions, QStringLiteral("--policy"), QStringLiteral("even=vlane-isolation"),
                                    QStringLiteral("--weights"), weights};
            args << extra;
            metricsArgs << extra;
        }
        const Run r = runWeft(args);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains(QByteArray("engine: ") + engine.toUtf8()), r.out.constData());
        QVERIFY(r.out.contains("switches: 8"));
        const Result<ForwardingTables> tables = readLftDumpFile(lfts, &m_fabric);
        QVERIFY2(tables.ok(), tables.ok() ? "" : qPrintable(tables.error().toString()));
        QCOMPARE(tables->size(), std::size_t(8));

        const Run m = runWeft(metricsArgs);
        QVERIFY2(m.exitCode == 0, m.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(m.out).object();
        QCOMPARE(o.value(QStringLiteral("valid")).toBool(), !partitions);  // ftree ignores the vlane policy: even shares VL0 with odd
        QCOMPARE(o.value(QStringLiteral("unreachable_pairs")).toInt(-1), 0);
        QCOMPARE(o.value(QStringLiteral("loops")).toInt(-1), 0);
        QVERIFY(o.value(QStringLiteral("deadlock_free")).toBool());
        const QJsonObject links = o.value(QStringLiteral("links")).toObject().value(QStringLiteral("switch_links")).toObject();
        QCOMPARE(links.value(QStringLiteral("count")).toInt(), 32);
        for (const char *key : {"max", "min", "stddev", "mean"})
            QVERIFY2(links.value(QStringLiteral("routes")).toObject().contains(QLatin1String(key)), key);
        const QJsonArray parts = o.value(QStringLiteral("partitions")).toArray();
        QCOMPARE(parts.size(), partitions ? 2 : 0);
        if (partitions) {
            QCOMPARE(parts[0].toObject().value(QStringLiteral("name")).toString(), QStringLiteral("even"));
            QCOMPARE(parts[0].toObject().value(QStringLiteral("policy")).toString(), QStringLiteral("vlane-isolation"));
            QVERIFY(parts[0].toObject().value(QStringLiteral("shared_links")).toInt() > 0);
            QVERIFY(!parts[0].toObject().value(QStringLiteral("satisfied")).toBool());
            QCOMPARE(o.value(QStringLiteral("contention")).toObject().value(QStringLiteral("receivers")).toInt(), 2);
            // --check turns the verdict into the exit code.
            QCOMPARE(runWeft(QStringList(metricsArgs) << QStringLiteral("--check")).exitCode, 1);
        }
    }

    void routeToStdoutKeepsSummaryApart()
    {
        const Run r = runWeft({QStringLiteral("route"), QStringLiteral("--engine"), QStringLiteral("ftree"), QStringLiteral("--topology"), m_topology, QStringLiteral("--out"), QStringLiteral("-")});
        QCOMPARE(r.exitCode, 0);
        const Result<ForwardingTables> tables = readLftDump(r.out, QStringLiteral("stdout"), &m_fabric);
        QVERIFY2(tables.ok(), tables.ok() ? "" : qPrintable(tables.error().toString()));
        QVERIFY(r.err.contains("engine: ftree"));
    }

    // `weft route --project`: the demo project (pftree, four tenants) routed as the engine inside
    // OpenSM routes it; the routing step's time beside the summary; service levels written
    // beside a file, never beside a device such as /dev/null.
    void projectRoutesWithItsTimeAndServiceLevels()
    {
        const QString demo = path("project.topo");
        QCOMPARE(runWeft({QStringLiteral("gen"), QStringLiteral("--radix"), QStringLiteral("12"), QStringLiteral("--levels"),
                          QStringLiteral("2"), QStringLiteral("-o"), demo})
                     .exitCode,
                 0);
        const QString project = QFINDTESTDATA("../resources/demo/project.weft");
        const QString lfts = path("project.lfts");
        Run r = runWeft({QStringLiteral("route"), QStringLiteral("--project"), project, QStringLiteral("--topology"), demo,
                         QStringLiteral("--out"), lfts});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        static const QRegularExpression time(QStringLiteral("^routing time: \\d+\\.\\d{3} s$"), QRegularExpression::MultilineOption);
        QVERIFY2(time.match(QString::fromUtf8(r.out)).hasMatch(), r.out.constData());
        QVERIFY2(r.out.contains("(written to " + lfts.toUtf8() + ".sl)"), r.out.constData());
        QVERIFY(QFile::exists(lfts + QStringLiteral(".sl")));

        const QString device = QStringLiteral("/dev/null");
        const bool strayBefore = QFile::exists(device + QStringLiteral(".sl"));
        r = runWeft({QStringLiteral("route"), QStringLiteral("--project"), project, QStringLiteral("--topology"), demo,
                     QStringLiteral("--out"), device});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(!r.out.contains("written to /dev/null.sl"), r.out.constData());
        if (!strayBefore)
            QVERIFY(!QFile::exists(device + QStringLiteral(".sl")));

        // To stdout: the dump alone there, the summary and the time on stderr.
        r = runWeft({QStringLiteral("route"), QStringLiteral("--project"), project, QStringLiteral("--topology"), demo,
                     QStringLiteral("--out"), QStringLiteral("-")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(!r.out.contains("routing time"));
        QVERIFY2(time.match(QString::fromUtf8(r.err)).hasMatch(), r.err.constData());
    }

    // The demo project as a new user previews it: ftree breaks the tenants' policies, pftree
    // (with its service levels) meets every one (issue 14). Policies are not in partitions.conf,
    // so they are given as the project states them.
    void demoPoliciesFtreeVersusPftree()
    {
        const QString demo = path("demo.topo");
        QCOMPARE(runWeft({QStringLiteral("gen"), QStringLiteral("--radix"), QStringLiteral("12"), QStringLiteral("--levels"),
                          QStringLiteral("2"), QStringLiteral("-o"), demo}).exitCode, 0);
        const QString conf = path("demo.conf");
        Run r = runWeft({QStringLiteral("convert"), QStringLiteral("--to"), QStringLiteral("partitions"), QStringLiteral("-o"), conf,
                         QFINDTESTDATA("../resources/demo/project.weft")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QStringList policies{QStringLiteral("--policy"), QStringLiteral("chemistry=phy-isolation"),
                                   QStringLiteral("--policy"), QStringLiteral("astro=vlane-isolation"),
                                   QStringLiteral("--policy"), QStringLiteral("genomics=def-isolation"),
                                   QStringLiteral("--policy"), QStringLiteral("ml-lab=phy-isolation")};
        for (const QString &engine : {QStringLiteral("ftree"), QStringLiteral("pftree")}) {
            const QString lfts = path("demo.lfts") + QLatin1Char('.') + engine;
            r = runWeft(QStringList{QStringLiteral("route"), QStringLiteral("--engine"), engine, QStringLiteral("--topology"), demo,
                                    QStringLiteral("--partitions"), conf, QStringLiteral("--out"), lfts}
                        + policies);
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QStringList metrics{QStringLiteral("metrics"), QStringLiteral("--json"), QStringLiteral("--topology"), demo,
                                QStringLiteral("--lfts"), lfts, QStringLiteral("--partitions"), conf};
            if (QFile::exists(lfts + QStringLiteral(".sl")))
                metrics << QStringLiteral("--sl") << lfts + QStringLiteral(".sl");
            r = runWeft(metrics + policies);
            QVERIFY2(r.exitCode == 0, r.err.constData());
            const QJsonObject o = QJsonDocument::fromJson(r.out).object();
            const int violations = o.value(QStringLiteral("policy_violations")).toInt(-1);
            if (engine == QStringLiteral("ftree")) {
                QVERIFY2(violations > 0, r.out.constData());
            } else {
                QCOMPARE(violations, 0);
                QVERIFY(o.value(QStringLiteral("valid")).toBool());
                for (const QJsonValue &p : o.value(QStringLiteral("partitions")).toArray())
                    QVERIFY(p.toObject().value(QStringLiteral("satisfied")).toBool());
            }
        }
    }

    void helpDocumentsFormats()
    {
        const Run route = runWeft({QStringLiteral("route"), QStringLiteral("--help")});
        QCOMPARE(route.exitCode, 0);
        QVERIFY(route.out.contains("DUMP.sl"));
        QVERIFY(route.out.contains("ftree"));
        const Run metrics = runWeft({QStringLiteral("metrics"), QStringLiteral("--help")});
        QCOMPARE(metrics.exitCode, 0);
        for (const char *key : {"valid", "unreachable_pairs", "loops", "deadlock_free", "links", "partitions", "shared_links"})
            QVERIFY2(metrics.out.contains(key), key);
        const Run top = runWeft({QStringLiteral("--help")});
        QVERIFY(top.out.contains("route") && top.out.contains("metrics"));
    }
};

QTEST_GUILESS_MAIN(TestCliRoute)
#include "tst_cli_route.moc"
