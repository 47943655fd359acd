// A subnet's commit target: the file (each bad one refused with its line), and each SM judged by
// what SMInfo says and by its files (a master, a standby, one not running, an SM the target does
// not name, two masters). The real SMs are tst_lab_ha's.

#include "SafeFile.h"
#include "SubnetTarget.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

using namespace weft;

namespace {

QByteArray twoSms(const QByteArray &secondExtra = {})
{
    return "{\n"
           "  \"subnet\": \"hpc-a\",\n"
           "  \"sms\": [\n"
           "    {\"name\": \"sm1\", \"options\": \"sm1/opensm.conf\", \"intent\": \"sm1/intent.weft\",\n"
           "     \"partitions\": \"sm1/partitions.conf\", \"pidfile\": \"sm1/opensm.pid\", \"port_guid\": \"0x10\"},\n"
           "    {\"name\": \"sm2\", \"options\": \"/srv/sm2/opensm.conf\", \"intent\": \"/srv/sm2/intent.weft\",\n"
           "     \"partitions\": \"/srv/sm2/partitions.conf\", \"pidfile\": \"/srv/sm2/opensm.pid\""
        + secondExtra + "}\n"
                        "  ]\n"
                        "}\n";
}

SubnetManagerInfo smInfo(Guid port, int state, int priority)
{
    SubnetManagerInfo i;
    i.portGuid = port;
    i.lid = Lid(port);
    i.state = state;
    i.priority = priority;
    i.answered = true;
    i.nodeDescription = QStringLiteral("host %1").arg(port);
    return i;
}

}  // namespace

class TestSubnetTarget : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readsAndWritesTheFile()
    {
        const Result<SubnetTarget> t = readSubnetTarget(twoSms(), QStringLiteral("/etc/weft/subnet.json"));
        QVERIFY2(t, t ? "" : qPrintable(t.error().toString()));
        QCOMPARE(t->subnet, QStringLiteral("hpc-a"));
        QCOMPARE(t->sms.size(), std::size_t(2));
        QVERIFY(t->pluginMode());
        // Relative paths are the target file's directory's.
        QCOMPARE(t->sms[0].intentPath, QStringLiteral("/etc/weft/sm1/intent.weft"));
        QCOMPARE(t->sms[0].portGuid, Guid(0x10));
        QCOMPARE(t->sms[1].partitionsPath, QStringLiteral("/srv/sm2/partitions.conf"));
        QCOMPARE(t->byName(QStringLiteral("sm2"))->pidFile, QStringLiteral("/srv/sm2/opensm.pid"));
        const CommitTarget one = t->sms[1].commitTarget();
        QCOMPARE(one.intentPath, QStringLiteral("/srv/sm2/intent.weft"));
        QCOMPARE(one.name, QStringLiteral("sm2"));
        // Written and read again: the same target.
        const Result<SubnetTarget> again = readSubnetTarget(writeSubnetTarget(*t), QStringLiteral("/etc/weft/subnet.json"));
        QVERIFY(again);
        QCOMPARE(again->sms[0].intentPath, t->sms[0].intentPath);
        QCOMPARE(again->sms[0].portGuid, t->sms[0].portGuid);
        QCOMPARE(again->sms[1].optionsPath, t->sms[1].optionsPath);
    }

    void badFilesNameTheLine_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("problem");
        QTest::addRow("not JSON") << QByteArray("{\n\"subnet\": \"a\",\n\"sms\": [,]\n}") << 3 << QStringLiteral("not JSON");
        QTest::addRow("no subnet") << QByteArray("{\"sms\": []}") << 1 << QStringLiteral("\"subnet\" must name the subnet");
        QTest::addRow("no SMs") << QByteArray("{\"subnet\": \"a\",\n \"sms\": []}") << 2 << QStringLiteral("must list the subnet's subnet managers");
        QTest::addRow("unknown field") << twoSms(",\n     \"partition\": \"x\"") << 8 << QStringLiteral("unknown field \"partition\"");
        QTest::addRow("both engines") << twoSms(", \"lfts\": \"/srv/sm2/opensm.lfts\"") << 6 << QStringLiteral("exactly one of \"intent\"");
        QTest::addRow("file engine beside the plugin")
            << QByteArray("{\"subnet\": \"a\", \"sms\": [\n{\"name\": \"a\", \"intent\": \"/a/i\", \"partitions\": \"/a/p\", \"pidfile\": \"/a/pid\"},\n"
                          "{\"name\": \"b\", \"lfts\": \"/b/l\", \"partitions\": \"/b/p\", \"pidfile\": \"/b/pid\"}]}")
            << 3 << QStringLiteral("every SM of a subnet must route the same way");
        QTest::addRow("one name twice")
            << QByteArray("{\"subnet\": \"a\", \"sms\": [\n{\"name\": \"a\", \"intent\": \"/a/i\", \"partitions\": \"/a/p\", \"pidfile\": \"/a/pid\"},\n"
                          "{\"name\": \"a\", \"intent\": \"/b/i\", \"partitions\": \"/b/p\", \"pidfile\": \"/b/pid\"}]}")
            << 3 << QStringLiteral("a second SM named \"a\"");
        QTest::addRow("one file for two SMs")
            << QByteArray("{\"subnet\": \"a\", \"sms\": [\n{\"name\": \"a\", \"intent\": \"/a/i\", \"partitions\": \"/a/p\", \"pidfile\": \"/a/pid\"},\n"
                          "{\"name\": \"b\", \"intent\": \"/b/i\",\n \"partitions\": \"/a/p\", \"pidfile\": \"/b/pid\"}]}")
            << 4 << QStringLiteral("each SM needs files of its own");
        QTest::addRow("no pid file") << QByteArray("{\"subnet\": \"a\", \"sms\": [\n{\"name\": \"a\", \"intent\": \"/a/i\", \"partitions\": \"/a/p\"}]}") << 2
                                     << QStringLiteral("\"pidfile\" is missing");
        QTest::addRow("bad port GUID") << twoSms(",\n \"port_guid\": \"zz\"") << 8 << QStringLiteral("\"port_guid\" must be a port GUID");
    }

    void badFilesNameTheLine()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, line);
        QFETCH(QString, problem);
        const Result<SubnetTarget> t = readSubnetTarget(text, QStringLiteral("subnet.json"));
        QVERIFY(!t);
        QCOMPARE(t.error().file, QStringLiteral("subnet.json"));
        QVERIFY2(t.error().message.contains(problem), qPrintable(t.error().toString()));
        QCOMPARE(t.error().line, line);
    }

    // Each SM judged: the running master and standby by SMInfo at their ports, an SM that is
    // not running by its pid file, the subnet's other SMs and two masters as problems; the
    // commit goes through the one master the target names.
    void smsAreJudgedBySmInfoAndTheirFiles()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        auto path = [&](const QString &name) { return dir.filePath(name); };
        // sm1 and sm2 "run" (this process's pid); sm3's pid file names no process.
        const QByteArray running = QByteArray::number(qint64(::getpid())) + '\n';
        QByteArray json = "{\"subnet\": \"lab\", \"sms\": [";
        for (int i = 1; i <= 3; ++i) {
            const QString n = QStringLiteral("sm%1").arg(i);
            QVERIFY(QDir().mkpath(path(n)));
            QVERIFY(writeFileAtomically(path(n + QStringLiteral("/opensm.conf")),
                                        QStringLiteral("routing_engine file,no_fallback\nlfts_file %1\npartition_config_file %2\nsm_priority %3\n")
                                            .arg(path(n + QStringLiteral("/opensm.lfts")), path(n + QStringLiteral("/partitions.conf")))
                                            .arg(10 - i)
                                            .toUtf8(),
                                        false));
            QVERIFY(writeFileAtomically(path(n + QStringLiteral("/opensm.pid")), i == 3 ? QByteArray("999999999\n") : running, false));
            json += QStringLiteral("%1{\"name\": \"%2\", \"options\": \"%2/opensm.conf\", \"lfts\": \"%2/opensm.lfts\", \"partitions\": "
                                   "\"%2/partitions.conf\", \"pidfile\": \"%2/opensm.pid\", \"port_guid\": \"0x%3\"}")
                        .arg(i > 1 ? QStringLiteral(",") : QString(), n)
                        .arg(i)
                        .toUtf8();
        }
        json += "]}";
        QVERIFY(writeFileAtomically(path(QStringLiteral("subnet.json")), json, false));
        const Result<SubnetTarget> target = readSubnetTargetFile(path(QStringLiteral("subnet.json")));
        QVERIFY2(target, target ? "" : qPrintable(target.error().toString()));

        SubnetCheck check = checkSubnetTarget(*target, {smInfo(1, 3, 10), smInfo(2, 2, 5)});
        QCOMPARE(check.sms.size(), std::size_t(3));
        QCOMPARE(check.sms[0].state, QStringLiteral("master"));
        QCOMPARE(check.sms[0].priority, 10);
        QCOMPARE(check.sms[0].portGuidFrom, QStringLiteral("target entry"));
        QCOMPARE(check.sms[1].state, QStringLiteral("standby"));
        QCOMPARE(check.sms[1].lid, Lid(2));
        QCOMPARE(check.sms[2].state, QStringLiteral("not running"));
        QCOMPARE(check.sms[2].priority, 7);  // from its options: SMInfo cannot tell
        QVERIFY(check.unknown.empty());
        QVERIFY2(check.problems.isEmpty(), qPrintable(check.problems.join(QLatin1Char('\n'))));
        QVERIFY(check.master() && check.master()->name == QStringLiteral("sm1"));
        Result<CommitTarget> through = subnetCommitTarget(*target, check);
        QVERIFY(through);
        QCOMPARE(through->name, QStringLiteral("sm1"));
        QCOMPARE(through->lftsPath, path(QStringLiteral("sm1/opensm.lfts")));
        QCOMPARE(through->standbys.size(), std::size_t(2));
        QCOMPARE(through->standbys[1].partitionsPath, path(QStringLiteral("sm3/partitions.conf")));
        QCOMPARE(through->subnet, QStringLiteral("lab"));
        QVERIFY(!through->lockPath.isEmpty());
        QVERIFY(check.toText().contains(QStringLiteral("sm2: standby, priority 5")));
        QCOMPARE(check.toJson().value(QStringLiteral("sms")).toArray()[2].toObject().value(QStringLiteral("state")).toString(), QStringLiteral("not running"));

        // After a failover: sm2 is master, the commit goes through it.
        check = checkSubnetTarget(*target, {smInfo(2, 3, 5)});
        QVERIFY(check.master() && check.master()->name == QStringLiteral("sm2"));
        QCOMPARE(subnetCommitTarget(*target, check)->name, QStringLiteral("sm2"));

        // An SM the target does not name, standing by: named, a problem; the commit still goes
        // through the master.
        check = checkSubnetTarget(*target, {smInfo(1, 3, 10), smInfo(2, 2, 5), smInfo(0x77, 2, 1)});
        QCOMPARE(check.unknown.size(), std::size_t(1));
        QCOMPARE(check.unknown[0].portGuid, Guid(0x77));
        QVERIFY(!check.ok());
        QVERIFY(check.toText().contains(QStringLiteral("not in the target: standby on port GUID 0x0000000000000077")));
        QVERIFY(subnetCommitTarget(*target, check));

        // That SM master, or two masters: no commit can tell where to go.
        check = checkSubnetTarget(*target, {smInfo(1, 2, 10), smInfo(0x77, 3, 1)});
        QVERIFY(!check.master());
        QVERIFY(!subnetCommitTarget(*target, check));
        check = checkSubnetTarget(*target, {smInfo(1, 3, 10), smInfo(2, 3, 5)});
        QVERIFY2(check.problems.join(QLatin1Char('\n')).contains(QStringLiteral("the subnet has two masters")), qPrintable(check.toText()));
        const Result<CommitTarget> none = subnetCommitTarget(*target, check);
        QVERIFY(!none);
        QVERIFY2(none.error().message.contains(QStringLiteral("two masters")), qPrintable(none.error().toString()));

        // The fabric unreadable: said, and the SMs judged by their files alone.
        check = checkSubnetTarget(*target, {}, QStringLiteral("no InfiniBand adapter found"));
        QVERIFY(check.problems.join(QLatin1Char('\n')).contains(QStringLiteral("no InfiniBand adapter found")));
        QCOMPARE(check.sms[0].state, QStringLiteral("unknown"));
        QVERIFY(!subnetCommitTarget(*target, check));
    }
};

QTEST_GUILESS_MAIN(TestSubnetTarget)
#include "tst_subnet_target.moc"
