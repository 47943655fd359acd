// P_Key table files (`weft discover --pkeys`): the fixtures against what OpenSM programs, tables
// as discovery reads them written and read back, malformed files and ports a fabric lacks refused
// with file:line, the format told apart from a partitions.conf, and the partitions the tables
// amount to with and without the fabric.

#include "FileFormat.h"
#include "PKeyTableFile.h"
#include "PKeyTables.h"
#include "PartitionsConf.h"
#include "TopologyFile.h"

#include <QFile>
#include <QTest>

using namespace weft;

namespace {

constexpr Guid kSwitch1 = 0x200000;
constexpr Guid kHca1Port = 0x100001;  // OpenSM's port
constexpr Guid kHca2Port = 0x100004;
constexpr Guid kHca3Port = 0x100007;

QByteArray fixture(const QString &name)
{
    QFile file(QFINDTESTDATA(QStringLiteral("data/pkeys/") + name));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing fixture %s", qPrintable(name));
    return file.readAll();
}

Fabric twoSwitchFabric()
{
    Result<Fabric> fabric = readTopologyFile(QFINDTESTDATA("data/topology/ibnetdiscover-2sw4hca.txt"));
    if (!fabric)
        qFatal("test fabric: %s", qPrintable(fabric.error().toString()));
    return std::move(fabric).value();
}

std::vector<Partition> partitionsOfConf(const QString &name)
{
    Result<PartitionsConfResult> conf = readPartitionsConf(fixture(name), name);
    if (!conf)
        qFatal("%s", qPrintable(conf.error().toString()));
    return conf->partitions;
}

PKeyTableOptions openSmOnHca1()
{
    PKeyTableOptions options;
    options.smPortGuid = kHca1Port;
    return options;
}

void compareTables(const PKeyTables &actual, const PKeyTables &expected)
{
    QCOMPARE(actual.ports().size(), expected.ports().size());
    for (std::size_t i = 0; i < actual.ports().size(); ++i) {
        QCOMPARE(actual.ports()[i].port, expected.ports()[i].port);
        QCOMPARE(actual.ports()[i].packed, expected.ports()[i].packed);
        QCOMPARE(actual.ports()[i].entries, expected.ports()[i].entries);
    }
}

// A table as discovery reads it: whole 32-entry blocks, at least one.
PortPKeyTable table(PortIndex port, std::vector<std::uint16_t> entries, bool packed = false)
{
    PortPKeyTable t;
    t.port = port;
    t.packed = packed;
    t.entries = std::move(entries);
    t.entries.resize(std::max<std::size_t>(1, (t.entries.size() + kPKeyBlockSize - 1) / kPKeyBlockSize) * kPKeyBlockSize, 0);
    return t;
}

}  // namespace

class TestPKeyTableFile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The fixtures are what OpenSM programs for their partitions.conf (the model the lab tests
    // hold to the real OpenSM), written as discovery writes them.
    void fixturesAreWhatOpenSmPrograms()
    {
        const Fabric fabric = twoSwitchFabric();
        const PKeyTables first = computePKeyTables(fabric, partitionsOfConf(QStringLiteral("2sw4hca-tenants.conf")), openSmOnHca1());
        const PKeyTables moved = computePKeyTables(fabric, partitionsOfConf(QStringLiteral("2sw4hca-moved.conf")), openSmOnHca1(), &first);
        QCOMPARE(writePKeyTables(first, fabric), fixture(QStringLiteral("2sw4hca.pkeys")));
        QCOMPARE(writePKeyTables(moved, fabric), fixture(QStringLiteral("2sw4hca-moved.pkeys")));
    }

    // Read, bound to the fabric and written again: the same bytes, and the same tables as
    // computed (tables cut after their last non-empty block, as discovery reads them).
    void fixturesRoundTrip_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addRow("fresh start") << QStringLiteral("2sw4hca.pkeys");
        QTest::addRow("moved on") << QStringLiteral("2sw4hca-moved.pkeys");
    }

    void fixturesRoundTrip()
    {
        QFETCH(QString, name);
        const Fabric fabric = twoSwitchFabric();
        const QByteArray text = fixture(name);
        const Result<PKeyTables> read = readPKeyTableFile(text, name, fabric);
        QVERIFY2(read, read ? "" : qPrintable(read.error().toString()));
        QCOMPARE(writePKeyTables(*read, fabric), text);
        QCOMPARE(detectFileFormat(text), FileFormat::PKeyTables);
    }

    // Tables as discovery reads them: packed switch ports, an entry in the third block, a hole,
    // a port whose table holds nothing (not written, so not read back).
    void discoveredTablesReadBack()
    {
        const Fabric fabric = twoSwitchFabric();
        const PortIndex hca2 = fabric.portByGuid(kHca2Port);
        const PortIndex hca3 = fabric.portByGuid(kHca3Port);
        std::vector<std::uint16_t> wide(3 * kPKeyBlockSize, 0);
        wide[0] = 0x7fff;
        wide[5] = 0x8001;
        wide[70] = 0x0123;
        std::vector<PortPKeyTable> held = {
            table(hca2, wide),
            table(fabric.port(hca2).remote, {0x7fff, 0x8001, 0x0123}, true),
            table(fabric.portByGuid(kSwitch1), {0x7fff}),
        };
        std::vector<PortPKeyTable> discovered = held;
        discovered.push_back(table(hca3, {}));

        const QByteArray text = writePKeyTables(PKeyTables::fromPorts(discovered), fabric);
        QVERIFY2(text.contains(" 0:0x7fff 5:0x8001 70:0x0123\n"), text.constData());
        QVERIFY(!text.contains("0x0000000000100007"));
        const Result<PKeyTables> read = readPKeyTableFile(text, QStringLiteral("discovered.pkeys"), fabric);
        QVERIFY2(read, read ? "" : qPrintable(read.error().toString()));
        compareTables(*read, PKeyTables::fromPorts(held));
        QCOMPARE(writePKeyTables(*read, fabric), text);
    }

    void malformedFilesNameTheLine_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("error");
        const QByteArray good = "# P_Key tables\n0x0000000000100004 1 \"Hca2\" 0:0x7fff\n";
        QTest::addRow("GUID without 0x") << good + "100004 1 \"Hca2\" 0:0x7fff\n"
                                         << QStringLiteral("f.pkeys:3: expected a port GUID (0x and hex digits), not \"100004\"");
        QTest::addRow("GUID too wide") << good + "0x10000000000000000 1 \"x\" 0:0x7fff\n"
                                       << QStringLiteral("f.pkeys:3: port GUID 0x10000000000000000 is out of range");
        QTest::addRow("no port number") << QByteArray("0x0000000000100004\n") << QStringLiteral("f.pkeys:1: expected a port number after the GUID");
        QTest::addRow("port 255") << QByteArray("0x0000000000100004 255 \"Hca2\" 0:0x7fff\n")
                                  << QStringLiteral("f.pkeys:1: port number 255 is out of range (0-254)");
        QTest::addRow("description unquoted") << QByteArray("0x0000000000100004 1 Hca2 0:0x7fff\n")
                                              << QStringLiteral("f.pkeys:1: expected the node description in quotes");
        QTest::addRow("description unterminated") << QByteArray("0x0000000000100004 1 \"Hca2 0:0x7fff\n")
                                                  << QStringLiteral("f.pkeys:1: expected the node description in quotes");
        QTest::addRow("entry without colon") << QByteArray("0x0000000000100004 1 \"Hca2\" 0x7fff\n")
                                             << QStringLiteral("f.pkeys:1: expected INDEX:0xPKEY, not \"0x7fff\"");
        QTest::addRow("P_Key without 0x") << QByteArray("0x0000000000100004 1 \"Hca2\" 0:7fff\n")
                                          << QStringLiteral("f.pkeys:1: expected INDEX:0xPKEY, not \"0:7fff\"");
        QTest::addRow("index past PartitionCap") << QByteArray("0x0000000000100004 1 \"Hca2\" 65535:0x7fff\n")
                                                 << QStringLiteral("f.pkeys:1: P_Key index 65535 is out of range (0-65534)");
        QTest::addRow("P_Key wider than 16 bits") << QByteArray("0x0000000000100004 1 \"Hca2\" 0:0x17fff\n")
                                                  << QStringLiteral("f.pkeys:1: P_Key 0x17fff is out of range (0-65535)");
        QTest::addRow("empty slot listed") << QByteArray("0x0000000000100004 1 \"Hca2\" 0:0x7fff 1:0x8000\n")
                                           << QStringLiteral("f.pkeys:1: P_Key 0x8000 at index 1 names no partition");
        QTest::addRow("index twice") << QByteArray("0x0000000000100004 1 \"Hca2\" 0:0x7fff 0:0xffff\n")
                                     << QStringLiteral("f.pkeys:1: index 0 is given twice");
        QTest::addRow("no entries") << QByteArray("0x0000000000100004 1 \"Hca2\"\n")
                                    << QStringLiteral("f.pkeys:1: port 0x0000000000100004 1 lists no P_Key");
        QTest::addRow("port twice") << good + "\n0x0000000000100004 1 \"Hca2\" 0:0xffff\n"
                                    << QStringLiteral("f.pkeys:4: port 0x0000000000100004 1 is listed already (line 2)");
        QTest::addRow("NUL byte") << QByteArray("0x0000000000100004 1 \"Hca2") + '\0' + QByteArray("\" 0:0x7fff\n")
                                  << QStringLiteral("f.pkeys:1: line contains a NUL byte");
    }

    void malformedFilesNameTheLine()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, error);
        const Result<PKeyTableListing> read = readPKeyTableListing(text, QStringLiteral("f.pkeys"));
        QVERIFY(!read);
        QVERIFY2(read.error().toString().startsWith(error), qPrintable(read.error().toString()));
        // Read against a fabric, the same error: nothing is bound from a file that does not read.
        const Result<PKeyTables> bound = readPKeyTableFile(text, QStringLiteral("f.pkeys"), twoSwitchFabric());
        QVERIFY(!bound);
        QCOMPARE(bound.error().toString(), read.error().toString());
    }

    void portsTheFabricLacksAreNamed_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QString>("error");
        QTest::addRow("unknown GUID") << QByteArray("0x00000000deadbeef 1 \"ghost\" 0:0x7fff\n")
                                      << QStringLiteral("f.pkeys:2: no port or node with GUID 0x00000000deadbeef in the fabric");
        QTest::addRow("switch port past its count") << QByteArray("0x0000000000200000 9 \"Switch1\" 0:0x7fff\n")
                                                    << QStringLiteral("f.pkeys:2: \"Switch1\" (0x0000000000200000) has no port 9");
        QTest::addRow("CA port GUID with another number") << QByteArray("0x0000000000100004 2 \"Hca2\" 0:0x7fff\n")
                                                          << QStringLiteral("f.pkeys:2: port GUID 0x0000000000100004 is port 1 of \"Hca2\", not port 2");
        QTest::addRow("CA port 0") << QByteArray("0x0000000000100003 0 \"Hca2\" 0:0x7fff\n")
                                   << QStringLiteral("f.pkeys:2: \"Hca2\" (0x0000000000100003) has no port 0");
        // The node GUID and the port GUID of one port: two names, one port.
        QTest::addRow("one port by two GUIDs") << QByteArray("0x0000000000100003 1 \"Hca2\" 0:0x7fff\n")
                                               << QStringLiteral("f.pkeys:2: port 1 of \"Hca2\" is listed already (line 1)");
    }

    void portsTheFabricLacksAreNamed()
    {
        QFETCH(QByteArray, line);
        QFETCH(QString, error);
        const QByteArray text = "0x0000000000100004 1 \"Hca2\" 0:0x7fff\n" + line;
        const Result<PKeyTables> read = readPKeyTableFile(text, QStringLiteral("f.pkeys"), twoSwitchFabric());
        QVERIFY(!read);
        QCOMPARE(read.error().toString(), error);
        // Without a fabric the lines themselves are good.
        QVERIFY(readPKeyTableListing(text, QStringLiteral("f.pkeys")));
    }

    void formatIsDetected_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("format");
        QTest::addRow("fixture") << fixture(QStringLiteral("2sw4hca.pkeys")) << int(FileFormat::PKeyTables);
        QTest::addRow("header only") << QByteArray("# P_Key tables: port GUID, port number, node description, index:P_Key\n") << int(FileFormat::PKeyTables);
        QTest::addRow("no header, tabs") << QByteArray("\n0x0000000000100004\t1\t\"Hca2\" 0:0x7fff\n") << int(FileFormat::PKeyTables);
        // A partitions.conf may start a line with a GUID, never with a number and a quote after it.
        QTest::addRow("partitions.conf") << fixture(QStringLiteral("2sw4hca-tenants.conf")) << int(FileFormat::PartitionsConf);
        QTest::addRow("partitions.conf, GUID first on a line") << QByteArray("A=0x1 :\n0x0000000000100004 ,\n0x0000000000100007 ;\n")
                                                               << int(FileFormat::PartitionsConf);
    }

    void formatIsDetected()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, format);
        QCOMPARE(int(detectFileFormat(text)), format);
    }

    // The partitions the fixture's tables hold are the partitions.conf's, each port a member as
    // its table says; without the fabric (switches told apart by their port 0) the same.
    void partitionsOfTheTables()
    {
        const Fabric fabric = twoSwitchFabric();
        const QByteArray text = fixture(QStringLiteral("2sw4hca.pkeys"));
        const Result<PKeyTableListing> listing = readPKeyTableListing(text, QStringLiteral("2sw4hca.pkeys"));
        QVERIFY(listing);
        const Result<PKeyTables> tables = bindPKeyTables(*listing, fabric);
        QVERIFY(tables);
        QCOMPARE(listedPKeyMemberships(*listing), heldPKeyMemberships(fabric, *tables));
        const std::vector<bool> facingCas = listedSwitchPortsFacingCas(*listing);
        QCOMPARE(int(std::count(facingCas.begin(), facingCas.end(), true)), 4);

        std::vector<Partition> held = partitionsHeld(fabric, *tables);
        QCOMPARE(held.size(), std::size_t(2));  // Default has one full member, OpenSM's port: its own
        QCOMPARE(held[0].name, QStringLiteral("pkey-0x0001"));
        QCOMPARE(countMembers(held[0], Membership::Full), 2);
        QCOMPARE(countMembers(held[1], Membership::Full), 2);
        QCOMPARE(countMembers(held[1], Membership::Limited), 1);
        const std::vector<Partition> named = partitionsOfConf(QStringLiteral("2sw4hca-tenants.conf"));
        nameAfter(held, named);
        QCOMPARE(held[0].name, QStringLiteral("TenantA"));
        QCOMPARE(held[1].name, QStringLiteral("TenantB"));

        // Those partitions, given to OpenSM, program the same tables again.
        const PKeyTables again = computePKeyTables(fabric, withExplicitDefault(held), openSmOnHca1());
        compareTables(again, *tables);
    }
};

QTEST_GUILESS_MAIN(TestPKeyTableFile)
#include "tst_pkeytablefile.moc"
