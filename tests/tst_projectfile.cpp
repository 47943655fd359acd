#include "FabricGenerator.h"
#include "FileFormat.h"
#include "ProjectFile.h"

#include <QtTest>

using namespace weft;

namespace {

Project sampleProject()
{
    Project p;
    p.fabricSource = QStringLiteral("test");
    p.routingEngine = QStringLiteral("pftree");
    p.routingOptions = QJsonObject{{QStringLiteral("max_vls"), 4}};
    p.tenancy.mode = PolicyMode::Strict;
    Partition a;
    a.name = QStringLiteral("chem");
    a.pkey = 0x0101;
    a.ipoib = true;
    a.ipoibFlags.mtu = 5;
    a.ipoibFlags.rate = 7;
    a.policy = IsolationPolicy::Physical;
    a.defaultMembership = Membership::Full;
    a.members.push_back(PartitionMember{PartitionMember::Kind::PortGuid, 0x0002c91000000001, Membership::Full, false});
    a.members.push_back(PartitionMember{PartitionMember::Kind::PortGuid, 0x0002c91000000401, Membership::Limited, true});
    a.members.push_back(PartitionMember{PartitionMember::Kind::Self, 0, Membership::Full, true});
    a.multicastGroups.push_back(MulticastGroup{QStringLiteral("ff12:401b::0707"), {}});
    Partition b;
    b.name = QStringLiteral("auto");  // no P_Key: OpenSM generates one
    b.indx0 = true;
    p.tenancy.partitions = {a, b};
    p.tenancy.tenants.push_back(Tenant{QStringLiteral("chemistry"), {0x0002c91000000001, 0x0002c91000000401}});
    p.tenancy.nodeWeights[0x0002c91000000001] = 100.0;
    return p;
}

}  // namespace

class TestProjectFile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void roundTrip()
    {
        const Project p = sampleProject();
        const QByteArray text = writeProject(p);
        Result<Project> again = readProject(text, QStringLiteral("p.weft"));
        QVERIFY2(again.ok(), again.ok() ? "" : qPrintable(again.error().toString()));
        QCOMPARE(again->routingEngine, p.routingEngine);
        QCOMPARE(again->routingOptions, p.routingOptions);
        QCOMPARE(again->tenancy.mode, PolicyMode::Strict);
        QCOMPARE(again->tenancy.partitions.size(), std::size_t(2));
        const Partition &a = again->tenancy.partitions[0];
        QCOMPARE(a.name, QStringLiteral("chem"));
        QCOMPARE(a.pkey.value(), std::uint16_t(0x0101));
        QCOMPARE(a.policy, IsolationPolicy::Physical);
        QVERIFY(a.ipoibFlags == p.tenancy.partitions[0].ipoibFlags);
        QVERIFY(a.members == p.tenancy.partitions[0].members);
        QCOMPARE(a.multicastGroups.size(), std::size_t(1));
        QVERIFY(!again->tenancy.partitions[1].pkey.has_value());
        QVERIFY(again->tenancy.partitions[1].indx0);
        QCOMPARE(again->tenancy.tenants.size(), std::size_t(1));
        QCOMPARE(again->tenancy.tenants[0].members, p.tenancy.tenants[0].members);
        QCOMPARE(again->tenancy.nodeWeights, p.tenancy.nodeWeights);
        QCOMPARE(writeProject(*again), text);  // stable output
    }

    void rejectsBadProjects_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("message");
        QTest::addRow("not JSON") << QByteArray("{\n \"format\": \"weft-project\",\n oops\n}") << 3 << QStringLiteral("invalid JSON");
        QTest::addRow("array") << QByteArray("[]") << 1 << QStringLiteral("JSON object");
        QTest::addRow("other format") << QByteArray(R"({"format":"x","version":1})") << 0 << QStringLiteral("not a Weft project");
        QTest::addRow("no version") << QByteArray(R"({"format":"weft-project"})") << 0 << QStringLiteral("version");
        QTest::addRow("newer version") << QByteArray(R"({"format":"weft-project","version":99})") << 0 << QStringLiteral("newer Weft");
        QTest::addRow("bad mode") << QByteArray(R"({"format":"weft-project","version":1,"policy_mode":"lax"})") << 0 << QStringLiteral("\"lax\"");
        QTest::addRow("pkey too large")
            << QByteArray(R"({"format":"weft-project","version":1,"partitions":[{"name":"a","pkey":"0x8001"}]})") << 0
            << QStringLiteral("partitions[0].pkey");
        QTest::addRow("pkey not hex")
            << QByteArray(R"({"format":"weft-project","version":1,"partitions":[{"name":"a","pkey":"12"}]})") << 0
            << QStringLiteral("hexadecimal");
        QTest::addRow("duplicate pkey")
            << QByteArray(R"({"format":"weft-project","version":1,"partitions":[{"name":"a","pkey":"0x10"},{"name":"b","pkey":"0x10"}]})")
            << 0 << QStringLiteral("used by another partition");
        QTest::addRow("bad policy")
            << QByteArray(R"({"format":"weft-project","version":1,"partitions":[{"name":"a","policy":"total"}]})") << 0
            << QStringLiteral("partitions[0].policy");
        QTest::addRow("bad membership")
            << QByteArray(R"({"format":"weft-project","version":1,"partitions":[{"name":"a","members":[{"guid":"0x1","membership":"most"}]}]})")
            << 0 << QStringLiteral("partitions[0].members[0].membership");
        QTest::addRow("bad keyword")
            << QByteArray(R"({"format":"weft-project","version":1,"partitions":[{"name":"a","members":[{"keyword":"EVERYONE"}]}]})")
            << 0 << QStringLiteral("unknown keyword");
        QTest::addRow("negative weight")
            << QByteArray(R"({"format":"weft-project","version":1,"weights":[{"guid":"0x1","weight":-2}]})") << 0
            << QStringLiteral("weights[0].weight");
        // Numbers are checked whole and in range before they are narrowed (issue 16).
        const QByteArray group = R"({"format":"weft-project","version":1,"partitions":[{"name":"a","multicast_groups":[{"mgid":"ff12::1",%1}]}]})";
        auto withFlag = [&](const char *flag) { return QByteArray(group).replace("%1", flag); };
        QTest::addRow("qkey 1e300") << withFlag(R"("qkey":1e300)") << 0
                                    << QStringLiteral("partitions[0].multicast_groups[0].qkey: 1.0000000000000001e+300 is out of range: expected a whole number from 0 to 4294967295");
        QTest::addRow("qkey as a hex string") << withFlag(R"("qkey":"0x1234")") << 0
                                              << QStringLiteral("qkey: the string \"0x1234\" is out of range: expected a whole number from 0 to 4294967295");
        QTest::addRow("qkey 2^32") << withFlag(R"("qkey":4294967296)") << 0 << QStringLiteral("qkey: 4294967296 is out of range");
        QTest::addRow("qkey fraction") << withFlag(R"("qkey":1.5)") << 0 << QStringLiteral("qkey: 1.5 is out of range");
        QTest::addRow("flow_label -1") << withFlag(R"("flow_label":-1)") << 0
                                       << QStringLiteral("flow_label: -1 is out of range: expected a whole number from 0 to 1048575");
        QTest::addRow("flow_label 21 bits") << withFlag(R"("flow_label":1048576)") << 0 << QStringLiteral("flow_label: 1048576 is out of range");
        QTest::addRow("mtu 2^32+4") << withFlag(R"("mtu":4294967300)") << 0 << QStringLiteral("mtu: 4294967300 is out of range: expected a whole number from 0 to 255");
        QTest::addRow("sl true") << withFlag(R"("sl":true)") << 0 << QStringLiteral("sl: a JSON boolean is out of range");
        QTest::addRow("ipoib tclass 1e300")
            << QByteArray(R"({"format":"weft-project","version":1,"partitions":[{"name":"a","ipoib_flags":{"tclass":1e300}}]})") << 0
            << QStringLiteral("partitions[0].ipoib_flags.tclass: 1.0000000000000001e+300 is out of range");
        QTest::addRow("version 1.5") << QByteArray(R"({"format":"weft-project","version":1.5})") << 0 << QStringLiteral("version");
        QTest::addRow("weight 1e400") << QByteArray(R"({"format":"weft-project","version":1,"weights":[{"guid":"0x1","weight":1e400}]})") << 1
                                      << QStringLiteral("invalid JSON");
        QTest::addRow("tenant without name")
            << QByteArray(R"({"format":"weft-project","version":1,"tenants":[{"members":[]}]})") << 0 << QStringLiteral("tenants[0].name");
    }

    void rejectsBadProjects()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, line);
        QFETCH(QString, message);
        const Result<Project> p = readProject(text, QStringLiteral("bad.weft"));
        QVERIFY(!p.ok());
        QCOMPARE(p.error().file, QStringLiteral("bad.weft"));
        QCOMPARE(p.error().line, line);
        QVERIFY2(p.error().message.contains(message), qPrintable(p.error().toString()));
    }

    void byteOrderMarkIsAccepted()
    {
        // Editors on some systems start a UTF-8 file with a byte-order mark; it is neither an
        // error nor a reason to take the project for another format.
        const QByteArray text = "\xEF\xBB\xBF" + writeProject(sampleProject());
        QCOMPARE(detectFileFormat(text), FileFormat::Project);
        const Result<Project> p = readProject(text, QStringLiteral("bom.weft"));
        QVERIFY2(p.ok(), p.ok() ? "" : qPrintable(p.error().toString()));
        QCOMPARE(writeProject(*p), writeProject(sampleProject()));
    }

    void bindingKeepsKnownAndReportsMissingGuids()
    {
        GeneratorOptions o;
        o.shape = FabricShapeKind::KaryNTree;
        o.arity = 2;
        o.levels = 2;  // 4 hosts: blocks 0x0002c91000000000 + 0x400 h
        Result<GeneratedFabric> g = generateFabric(o);
        QVERIFY(g.ok());
        Project p = sampleProject();
        p.tenancy.partitions[0].members.push_back(
            PartitionMember{PartitionMember::Kind::PortGuid, 0xdeadbeef, Membership::Full, false});
        p.tenancy.tenants[0].members.push_back(0xdeadbeef);
        p.tenancy.nodeWeights[0xfeed] = 3.0;
        const BoundProject bound = bindProject(p, g->fabric);
        QCOMPARE(bound.missing.size(), 2);  // each unknown GUID named once
        QVERIFY(bound.missing.join(QLatin1Char(' ')).contains(QStringLiteral("0x00000000deadbeef (partition \"chem\")")));
        QVERIFY(bound.missing.join(QLatin1Char(' ')).contains(QStringLiteral("0x000000000000feed (node weight)")));
        QCOMPARE(bound.project.tenancy.partitions[0].members.size(), std::size_t(3));  // 2 GUIDs + SELF kept
        QCOMPARE(bound.project.tenancy.tenants[0].members.size(), std::size_t(2));
        QCOMPARE(bound.project.tenancy.nodeWeights.size(), std::size_t(1));
    }

    void demoProjectFitsDemoFabric()
    {
        // The shipped demo tenancy must name only GUIDs of the generated demo fabric.
        Result<Project> demo = readProjectFile(QFINDTESTDATA("../resources/demo/project.weft"));
        QVERIFY2(demo.ok(), demo.ok() ? "" : qPrintable(demo.error().toString()));
        GeneratorOptions o;
        o.shape = FabricShapeKind::SwitchRadix;
        o.radix = 12;
        o.levels = 2;
        Result<GeneratedFabric> g = generateFabric(o);
        QVERIFY(g.ok());
        const BoundProject bound = bindProject(*demo, g->fabric);
        QVERIFY2(bound.missing.isEmpty(), qPrintable(bound.missing.join(QStringLiteral(", "))));
        QVERIFY(demo->tenancy.partitions.size() >= 4);
        QVERIFY(demo->tenancy.tenants.size() >= 4);
    }
};

QTEST_GUILESS_MAIN(TestProjectFile)
#include "tst_projectfile.moc"
