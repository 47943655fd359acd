// LFT dumps: the real outputs of ibroute, dump_fts, dump_lfts and OpenSM (captured from ibsim
// running net.2sw2path4hca and net.2sw2path4hca2port, see data/lfts/README), malformed inputs,
// round trips through the writer, and the table helpers diffs rely on.

#include "Fabric.h"
#include "ForwardingTables.h"
#include "LftDump.h"
#include "SafeFile.h"
#include "TopologyFile.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QHash>
#include <QRegularExpression>
#include <QTest>

using namespace weft;

namespace {

constexpr Guid kSwitch1 = 0x200000;
constexpr Guid kSwitch2 = 0x200001;

QByteArray fixture(const QString &name)
{
    const QString path = QFINDTESTDATA(QStringLiteral("data/lfts/") + name);
    QFile file(path);
    if (path.isEmpty() || !file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

// The routes the real tools printed for net.2sw2path4hca under OpenSM's min-hop routing,
// transcribed from data/lfts/dump_lfts.txt by hand.
ForwardingTables expectedTwoSwitchRoutes()
{
    ForwardingTables tables;
    const int s1 = tables.addSwitch(kSwitch1);
    const int s2 = tables.addSwitch(kSwitch2);
    const std::uint8_t switch1Ports[] = {0, 1, 3, 3, 2, 5};
    const std::uint8_t switch2Ports[] = {3, 3, 0, 1, 5, 2};
    for (Lid lid = 1; lid <= 6; ++lid) {
        tables.lft(std::size_t(s1)).setPort(lid, switch1Ports[lid - 1]);
        tables.lft(std::size_t(s2)).setPort(lid, switch2Ports[lid - 1]);
    }
    return tables;
}

// net.2sw2path4hca as ibsim builds it, with the LIDs OpenSM assigned, as the real ibnetdiscover
// reported it (tests/data/topology).
Fabric twoSwitchFabric()
{
    Result<Fabric> fabric = readTopologyFile(QFINDTESTDATA("data/topology/ibnetdiscover-2sw4hca.txt"));
    if (!fabric)
        qFatal("test fabric: %s", qPrintable(fabric.error().toString()));
    return std::move(fabric).value();
}

const QByteArray kHeader1 = "Unicast lids [0x0-0x6] of switch Lid 1 guid 0x0000000000200000 (Switch1):\n";
const QByteArray kHeader2 = "Unicast lids [0x0-0x6] of switch Lid 3 guid 0x0000000000200001 (Switch2):\n";
const QByteArray kTitles = "  Lid  Out   Destination\n       Port     Info \n";

}  // namespace

class TestLftDump : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void realDumpsGiveTheSameRoutes_data();
    void realDumpsGiveTheSameRoutes();
    void switchMetadataAndFileOrder_data();
    void switchMetadataAndFileOrder();
    void ibrouteLidRange();
    void lmcPathEntries();
    void acceptedVariants_data();
    void acceptedVariants();
    void malformedInput_data();
    void malformedInput();
    void multicastDumpFileIsRefused();
    void missingFileNamesThePath();
    void checkedAgainstFabric_data();
    void checkedAgainstFabric();
    void fabricFillsSwitchLid();
    void roundTrip_data();
    void roundTrip();
    void writtenDumpFollowsOpenSmRules();
    void writerWithoutFabric();
    void compactRoundTrip_data() { roundTrip_data(); }
    void compactRoundTrip();
    void compactDumpFollowsOpenSmRules();
    void streamedWriterGivesTheSameBytes_data();
    void streamedWriterGivesTheSameBytes();
    void largeDumpStreamsInBoundedPieces();
    void rewrittenDumpKeepsThePreviousAsBackup();
    void coverageAgainstFabric();
    void lftTopAndBlocks();
    void lftEqualityIgnoresStorage();
    void blockEqualsComparesOneBlock();
    void forwardingTablesIndex();
};

void TestLftDump::realDumpsGiveTheSameRoutes_data()
{
    QTest::addColumn<QString>("file");
    QTest::addRow("dump_lfts (DR paths, deprecation trailer)") << QStringLiteral("dump_lfts.txt");
    QTest::addRow("dump_lfts -a (unrouted LID 0 listed)") << QStringLiteral("dump_lfts_all.txt");
    QTest::addRow("dump_lfts -n (no destination info)") << QStringLiteral("dump_lfts_brief.txt");
    QTest::addRow("dump_fts") << QStringLiteral("dump_fts.txt");
    QTest::addRow("opensm-lfts.dump") << QStringLiteral("opensm-lfts.dump");
}

void TestLftDump::realDumpsGiveTheSameRoutes()
{
    QFETCH(QString, file);
    const QByteArray data = fixture(file);
    QVERIFY2(!data.isEmpty(), qPrintable(file));
    const Result<ForwardingTables> tables = readLftDump(data, file);
    QVERIFY2(tables.ok(), qPrintable(tables.ok() ? QString() : tables.error().toString()));
    QCOMPARE(tables->size(), std::size_t(2));
    QVERIFY(*tables == expectedTwoSwitchRoutes());
    for (const SwitchForwardingTable &sw : tables->switches()) {
        QCOMPARE(sw.lft.top(), Lid(6));
        QCOMPARE(sw.lft.routeCount(), std::size_t(6));
        QVERIFY(!sw.lft.hasRoute(0));
    }
}

void TestLftDump::switchMetadataAndFileOrder_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<Guid>("firstGuid");
    QTest::addColumn<Lid>("firstLid");
    QTest::addColumn<QString>("firstDescription");
    QTest::addRow("dump_lfts: Switch2 first, reached by DR path") << QStringLiteral("dump_lfts.txt") << kSwitch2
                                                                  << Lid(0) << QStringLiteral("Switch2");
    QTest::addRow("opensm dump: quoted description") << QStringLiteral("opensm-lfts.dump") << kSwitch1 << Lid(1)
                                                     << QStringLiteral("Switch1");
    QTest::addRow("ibroute by LID") << QStringLiteral("ibroute_lid1.txt") << kSwitch1 << Lid(1)
                                    << QStringLiteral("Switch1");
}

void TestLftDump::switchMetadataAndFileOrder()
{
    QFETCH(QString, file);
    QFETCH(Guid, firstGuid);
    QFETCH(Lid, firstLid);
    QFETCH(QString, firstDescription);
    const Result<ForwardingTables> tables = readLftDump(fixture(file), file);
    QVERIFY2(tables.ok(), qPrintable(tables.ok() ? QString() : tables.error().toString()));
    QCOMPARE(tables->at(0).guid, firstGuid);
    QCOMPARE(tables->at(0).lid, firstLid);
    QCOMPARE(tables->at(0).description, firstDescription);
    QCOMPARE(tables->indexOf(firstGuid), 0);
}

void TestLftDump::ibrouteLidRange()
{
    const Result<ForwardingTables> tables = readLftDump(fixture(QStringLiteral("ibroute_lid3_range.txt")),
                                                        QStringLiteral("ibroute_lid3_range.txt"));
    QVERIFY2(tables.ok(), qPrintable(tables.ok() ? QString() : tables.error().toString()));
    QCOMPARE(tables->size(), std::size_t(1));
    const LinearForwardingTable &lft = tables->at(0).lft;
    QCOMPARE(tables->at(0).guid, kSwitch2);
    QCOMPARE(tables->at(0).lid, Lid(3));
    QCOMPARE(lft.routeCount(), std::size_t(3));
    QCOMPARE(lft.port(2), std::uint8_t(3));
    QCOMPARE(lft.port(3), std::uint8_t(0));
    QCOMPARE(lft.port(4), std::uint8_t(1));
    QVERIFY(!lft.hasRoute(1));
    QVERIFY(!lft.hasRoute(5));
}

void TestLftDump::lmcPathEntries()
{
    const Result<ForwardingTables> routed = readLftDump(fixture(QStringLiteral("dump_lfts_lmc1.txt")),
                                                        QStringLiteral("dump_lfts_lmc1.txt"));
    const Result<ForwardingTables> all = readLftDump(fixture(QStringLiteral("dump_lfts_lmc1_all.txt")),
                                                     QStringLiteral("dump_lfts_lmc1_all.txt"));
    QVERIFY2(routed.ok(), qPrintable(routed.ok() ? QString() : routed.error().toString()));
    QVERIFY2(all.ok(), qPrintable(all.ok() ? QString() : all.error().toString()));
    QVERIFY(*routed == *all);
    const SwitchForwardingTable *switch1 = routed->find(kSwitch1);
    QVERIFY(switch1);
    QCOMPARE(switch1->lft.routeCount(), std::size_t(10));
    QCOMPARE(switch1->lft.top(), Lid(0xf));
    QCOMPARE(switch1->lft.port(0x9), std::uint8_t(1));   // "path #2 out of 2" of Hca1's first port
    QCOMPARE(switch1->lft.port(0xd), std::uint8_t(5));
    QVERIFY(!switch1->lft.hasRoute(2));  // LMC 1 leaves LIDs 2, 4..7 unassigned
}

void TestLftDump::acceptedVariants_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<Lid>("lid");
    QTest::addColumn<int>("port");   // -1: no route
    QTest::addColumn<int>("routes");

    QTest::addRow("CRLF line ends") << QByteArray(kHeader1 + "0x0002 001 : (Channel Adapter portguid 0x0000000000100001: 'Hca1')\r\n1 valid lids dumped \r\n").replace("):\n", "):\r\n")
                                    << Lid(2) << 1 << 1;
    QTest::addRow("no newline at the end") << QByteArray(kHeader1 + "0x0002 004\n1 valid lids dumped") << Lid(2) << 4 << 1;
    QTest::addRow("brief entry with trailing blanks stripped") << QByteArray(kHeader1 + kTitles + "0x0006 005\n1 valid lids dumped\n")
                                                               << Lid(6) << 5 << 1;
    QTest::addRow("comment and blank lines") << QByteArray("# taken before the change\n\n" + kHeader1 + "  # a note\n0x0003 003\n\n1 valid lids dumped \n")
                                             << Lid(3) << 3 << 1;
    QTest::addRow("port 255 is no route") << QByteArray(kHeader1 + "0x0000 255 : (path #0 - illegal port)\n0x0004 255 : (illegal port)\n0x0005 002\n3 lids dumped \n")
                                          << Lid(4) << -1 << 1;
    QTest::addRow("switch without LID in its header") << QByteArray("Unicast lids [0x0-0x6] of switch guid 0x0000000000200000 (Switch1):\n0x0001 000\n1 valid lids dumped\n")
                                                      << Lid(1) << 0 << 1;
    QTest::addRow("OpenSM unknown destination") << QByteArray("Unicast lids [0-9] of switch Lid 1 guid 0x0000000000200000 ('S'):\n0x0009 007 # unknown node and type\n9 lids dumped\n")
                                                << Lid(9) << 7 << 1;
    QTest::addRow("switch that routes nothing") << QByteArray("Unicast lids [0x0-0x0] of switch Lid 1 guid 0x0000000000200000 (Switch1):\n" + kTitles + "0 valid lids dumped \n")
                                                << Lid(1) << -1 << 0;
    QTest::addRow("description with parentheses") << QByteArray("Unicast lids [0x0-0x6] of switch Lid 1 guid 0x0000000000200000 (MF0;sw(1):SX6036/U1):\n0x0001 000\n1 valid lids dumped\n")
                                                   << Lid(1) << 0 << 1;
}

void TestLftDump::acceptedVariants()
{
    QFETCH(QByteArray, text);
    QFETCH(Lid, lid);
    QFETCH(int, port);
    QFETCH(int, routes);
    const Result<ForwardingTables> tables = readLftDump(text, QStringLiteral("variant.txt"));
    QVERIFY2(tables.ok(), qPrintable(tables.ok() ? QString() : tables.error().toString()));
    QCOMPARE(tables->size(), std::size_t(1));
    QCOMPARE(tables->at(0).guid, kSwitch1);
    QCOMPARE(int(tables->at(0).lft.routeCount()), routes);
    QCOMPARE(int(tables->at(0).lft.port(lid)), port < 0 ? int(kNoRoute) : port);
}

void TestLftDump::malformedInput_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("message");

    const QByteArray footer1 = "1 valid lids dumped \n";
    QTest::addRow("multicast header") << QByteArray("Multicast mlids [0xc000-0xc3ff] of switch Lid 1 guid 0x0000000000200000 (Switch1):\n")
                                      << 1 << QStringLiteral("multicast dump, not a unicast LFT dump");
    QTest::addRow("entry before any header") << QByteArray("0x0001 001\n" + kHeader1) << 1
                                             << QStringLiteral("LFT entry before any \"Unicast lids\" switch header");
    QTest::addRow("header cut before the GUID") << QByteArray("Unicast lids [0x0-0x6] of switch Lid 1\n") << 1
                                                << QStringLiteral("no switch GUID");
    QTest::addRow("header cut in the description") << QByteArray("Unicast lids [0x0-0x6] of switch Lid 1 guid 0x0000000000200000 (Swi\n")
                                                   << 1 << QStringLiteral("does not end with \"(description):\"");
    QTest::addRow("header without LID range") << QByteArray("Unicast lids of switch Lid 1 guid 0x0000000000200000 (S):\n")
                                              << 1 << QStringLiteral("no LID range");
    QTest::addRow("LID range past unicast") << QByteArray("Unicast lids [0x0-0xc000] of switch Lid 1 guid 0x0000000000200000 (S):\n")
                                            << 1 << QStringLiteral("goes past the last unicast LID 0xbfff");
    QTest::addRow("bad switch GUID hex") << QByteArray("Unicast lids [0x0-0x6] of switch Lid 1 guid 0x00000000002g0000 (S):\n")
                                         << 1 << QStringLiteral("bad switch GUID \"0x00000000002g0000\"");
    QTest::addRow("bad switch LID") << QByteArray("Unicast lids [0x0-0x6] of switch Lid x1 guid 0x0000000000200000 (S):\n")
                                    << 1 << QStringLiteral("bad switch LID \"x1\"");
    QTest::addRow("switch GUID 0") << QByteArray("Unicast lids [0x0-0x6] of switch Lid 1 guid 0x0000000000000000 (S):\n")
                                   << 1 << QStringLiteral("switch GUID is 0");
    QTest::addRow("multicast LID in entry") << QByteArray("Unicast lids [0x0-0xbfff] of switch Lid 1 guid 0x0000000000200000 (S):\n0xc000 001\n")
                                            << 2 << QStringLiteral("LID 0xc000 is outside the unicast range 0x0001-0xbfff");
    QTest::addRow("LID outside header range") << QByteArray(kHeader1 + "0x0007 001\n")
                                              << 2 << QStringLiteral("LID 0x0007 is outside the switch header's range 0x0000-0x0006");
    QTest::addRow("LID 0 routed") << QByteArray(kHeader1 + "0x0000 001\n")
                                  << 2 << QStringLiteral("LID 0x0000 is reserved and cannot be routed");
    QTest::addRow("port 256") << QByteArray(kHeader1 + "0x0001 256\n")
                              << 2 << QStringLiteral("out port 256 for LID 0x0001 is out of range (0-254, or 255 for no route)");
    QTest::addRow("bad LID hex") << QByteArray(kHeader1 + "0x00g1 001\n") << 2 << QStringLiteral("bad LID \"0x00g1\"");
    QTest::addRow("bad port") << QByteArray(kHeader1 + "0x0001 0a1\n") << 2 << QStringLiteral("bad out port \"0a1\" for LID 0x0001");
    QTest::addRow("entry without port") << QByteArray(kHeader1 + kTitles + "0x0001\n") << 4 << QStringLiteral("entry for LID 0x0001 has no out port");
    QTest::addRow("text after port") << QByteArray(kHeader1 + "0x0001 001 002\n") << 2 << QStringLiteral("unexpected text \"002\"");
    QTest::addRow("bad port GUID") << QByteArray(kHeader1 + "0x0001 001 : (Switch portguid 0x00zz: 'S')\n")
                                   << 2 << QStringLiteral("bad port GUID \"0x00zz:\"");
    QTest::addRow("duplicate LID") << QByteArray(kHeader1 + "0x0002 001\n0x0003 003\n0x0002 002\n")
                                   << 4 << QStringLiteral("LID 0x0002 is listed twice for switch 0x0000000000200000");
    QTest::addRow("duplicate switch") << QByteArray(kHeader1 + "0x0001 000\n" + footer1 + kHeader2 + "0 valid lids dumped\n" + kHeader1)
                                      << 6 << QStringLiteral("switch 0x0000000000200000 appears twice (first at line 1)");
    QTest::addRow("footer count differs") << QByteArray(kHeader1 + "0x0001 000\n2 valid lids dumped \n")
                                          << 3 << QStringLiteral("ends with \"2 lids dumped\" but has 1 entries");
    QTest::addRow("OpenSM footer differs") << QByteArray("Unicast lids [0-6] of switch Lid 1 guid 0x0000000000200000 ('S'):\n0x0001 000 # x\n5 lids dumped\n")
                                           << 3 << QStringLiteral("ends with \"5 lids dumped\" but its header gives LIDs up to 6");
    QTest::addRow("truncated: no footer") << QByteArray(kHeader1 + "0x0001 000\n" + footer1 + kHeader2 + kTitles + "0x0001 003\n")
                                          << 4 << QStringLiteral("switch 0x0000000000200001 has no \"lids dumped\" line after its entries; the dump is truncated");
    QTest::addRow("entry after footer") << QByteArray(kHeader1 + "0x0001 000\n" + footer1 + "0x0002 001\n")
                                        << 4 << QStringLiteral("LFT entry after the \"lids dumped\" line");
    QTest::addRow("footer without header") << QByteArray("3 valid lids dumped\n") << 1
                                           << QStringLiteral("\"lids dumped\" line without a switch header");
    QTest::addRow("unrecognised line") << QByteArray(kHeader1 + "Lid 4 via port 3\n") << 2
                                       << QStringLiteral("unrecognised line \"Lid 4 via port 3\"");
    QTest::addRow("empty file") << QByteArray() << 0 << QStringLiteral("no unicast LFTs");
    QTest::addRow("only comments") << QByteArray("# nothing\n\n") << 0 << QStringLiteral("no unicast LFTs");
    QTest::addRow("NUL byte") << QByteArray(kHeader1 + QByteArray("0x0001 0\0 00\n", 13)) << 2 << QStringLiteral("NUL");
}

void TestLftDump::malformedInput()
{
    QFETCH(QByteArray, text);
    QFETCH(int, line);
    QFETCH(QString, message);
    const Result<ForwardingTables> tables = readLftDump(text, QStringLiteral("bad.lfts"));
    QVERIFY(!tables.ok());
    QCOMPARE(tables.error().file, QStringLiteral("bad.lfts"));
    QCOMPARE(tables.error().line, line);
    QVERIFY2(tables.error().message.contains(message), qPrintable(tables.error().toString()));
}

void TestLftDump::multicastDumpFileIsRefused()
{
    const QString path = QFINDTESTDATA("data/lfts/dump_mfts.txt");
    QVERIFY(!path.isEmpty());
    const Result<ForwardingTables> tables = readLftDumpFile(path);
    QVERIFY(!tables.ok());
    QCOMPARE(tables.error().file, path);
    QCOMPARE(tables.error().line, 1);
    QCOMPARE(tables.error().message, QStringLiteral("multicast dump, not a unicast LFT dump"));
}

void TestLftDump::missingFileNamesThePath()
{
    const QString path = QStringLiteral("/nonexistent/weft/lfts.dump");
    const Result<ForwardingTables> tables = readLftDumpFile(path);
    QVERIFY(!tables.ok());
    QCOMPARE(tables.error().file, path);
    QVERIFY(tables.error().message.startsWith(QStringLiteral("cannot open")));
}

void TestLftDump::checkedAgainstFabric_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("line");     // 0: accepted
    QTest::addColumn<QString>("message");

    QTest::addRow("real dump matches") << fixture(QStringLiteral("dump_lfts.txt")) << 0 << QString();
    QTest::addRow("port 0 and the last port") << QByteArray(kHeader1 + "0x0001 000\n0x0002 008\n2 valid lids dumped\n") << 0 << QString();
    QTest::addRow("unknown switch") << QByteArray("Unicast lids [0x0-0x6] of switch Lid 9 guid 0x0000000000abcdef (X):\n")
                                    << 1 << QStringLiteral("unknown switch GUID 0x0000000000abcdef");
    QTest::addRow("channel adapter as switch") << QByteArray("Unicast lids [0x0-0x6] of switch Lid 2 guid 0x0000000000100000 (Hca1):\n")
                                               << 1 << QStringLiteral("GUID 0x0000000000100000 is channel adapter \"Hca1\" in the fabric, not a switch");
    QTest::addRow("port beyond port count") << QByteArray(kHeader1 + kTitles + "0x0002 001\n0x0004 009\n")
                                            << 5 << QStringLiteral("out port 9 for LID 0x0004 is beyond switch 0x0000000000200000 (\"Switch1\"), which has 8 ports");
    QTest::addRow("port GUID the fabric lacks") << QByteArray(kHeader1 + "0x0002 003 : (Channel Adapter portguid 0x00000000001000ff: 'Hca9')\n")
                                                << 2 << QStringLiteral("the entry for LID 0x0002 names port GUID 0x00000000001000ff, which the fabric does not have");
}

void TestLftDump::checkedAgainstFabric()
{
    QFETCH(QByteArray, text);
    QFETCH(int, line);
    QFETCH(QString, message);
    const Fabric fabric = twoSwitchFabric();
    const Result<ForwardingTables> tables = readLftDump(text, QStringLiteral("check.lfts"), &fabric);
    if (line == 0) {
        QVERIFY2(tables.ok(), qPrintable(tables.ok() ? QString() : tables.error().toString()));
        QVERIFY(!tables->isEmpty());
        // Without the fabric the same text must parse too: the checks are the fabric's.
        QVERIFY(readLftDump(text, QStringLiteral("check.lfts")).ok());
    } else {
        QVERIFY(!tables.ok());
        QCOMPARE(tables.error().line, line);
        QVERIFY2(tables.error().message.contains(message), qPrintable(tables.error().toString()));
        // ...and not a complaint the reader would make without it.
        const Result<ForwardingTables> plain = readLftDump(text, QStringLiteral("check.lfts"));
        QVERIFY(plain.ok() || !plain.error().message.contains(message));
    }
}

void TestLftDump::fabricFillsSwitchLid()
{
    const Fabric fabric = twoSwitchFabric();
    const Result<ForwardingTables> tables = readLftDump(fixture(QStringLiteral("dump_lfts.txt")),
                                                        QStringLiteral("dump_lfts.txt"), &fabric);
    QVERIFY(tables.ok());
    QCOMPARE(tables->find(kSwitch2)->lid, Lid(3));  // the dump addressed it by DR path only
    QCOMPARE(tables->find(kSwitch1)->lid, Lid(1));
}

void TestLftDump::roundTrip_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("withFabric");
    for (const char *name : {"dump_lfts.txt", "dump_lfts_all.txt", "dump_lfts_brief.txt", "opensm-lfts.dump",
                             "ibroute_lid3_range.txt"}) {
        QTest::addRow("%s, no fabric", name) << QString::fromLatin1(name) << false;
        QTest::addRow("%s, with fabric", name) << QString::fromLatin1(name) << true;
    }
    QTest::addRow("dump_lfts_lmc1.txt, no fabric") << QStringLiteral("dump_lfts_lmc1.txt") << false;
    QTest::addRow("dump_lfts_lmc1_all.txt, no fabric") << QStringLiteral("dump_lfts_lmc1_all.txt") << false;
}

void TestLftDump::roundTrip()
{
    QFETCH(QString, file);
    QFETCH(bool, withFabric);
    const Fabric fabric = twoSwitchFabric();
    const Fabric *context = withFabric ? &fabric : nullptr;
    const Result<ForwardingTables> original = readLftDump(fixture(file), file, context);
    QVERIFY2(original.ok(), qPrintable(original.ok() ? QString() : original.error().toString()));

    const QByteArray written = writeLftDump(*original, context);
    const Result<ForwardingTables> reread = readLftDump(written, QStringLiteral("written.lfts"), context);
    QVERIFY2(reread.ok(), qPrintable(reread.ok() ? QString() : reread.error().toString() + QLatin1Char('\n')
                                                       + QString::fromUtf8(written)));
    QVERIFY(*reread == *original);
    for (std::size_t i = 0; i < original->size(); ++i) {
        QCOMPARE(reread->at(i).guid, original->at(i).guid);  // file order kept
        QCOMPARE(reread->at(i).lid, original->at(i).lid);
        QCOMPARE(reread->at(i).description, original->at(i).description);
    }
    // Writing is a function of the tables: a second pass gives the same bytes.
    QCOMPARE(writeLftDump(*reread, context), written);
}

void TestLftDump::writtenDumpFollowsOpenSmRules()
{
    const Fabric fabric = twoSwitchFabric();
    const Result<ForwardingTables> tables = readLftDump(fixture(QStringLiteral("dump_lfts_all.txt")),
                                                        QStringLiteral("dump_lfts_all.txt"), &fabric);
    QVERIFY(tables.ok());
    const QByteArray written = writeLftDump(*tables, &fabric);

    // OpenSM's file engine: the GUID after " guid 0x" ends in a blank; an entry is "0x<lid>"
    // blank, decimal port, blank, and " portguid 0x<hex>" ends in a blank or ':'. It refuses
    // any port >= the switch's port count + 1, so the -a dump's port 255 must not be written.
    const QRegularExpression header(QStringLiteral("^Unicast lids \\[0x0-0x6\\] of switch Lid (\\d) guid 0x([0-9a-f]{16}) \\(Switch\\d\\):$"));
    const QRegularExpression entry(QStringLiteral("^0x([0-9a-f]{4}) (\\d{3}) : \\((Switch|Channel Adapter) portguid 0x([0-9a-f]{16}): '[A-Za-z0-9]+'\\)$"));
    int headers = 0;
    int entries = 0;
    QHash<QString, QString> portGuidOfLid;
    for (const QByteArray &raw : written.split('\n')) {
        const QString line = QString::fromUtf8(raw);
        if (line.startsWith(QStringLiteral("Unicast"))) {
            QVERIFY2(header.match(line).hasMatch(), qPrintable(line));
            ++headers;
        } else if (line.startsWith(QStringLiteral("0x"))) {
            const QRegularExpressionMatch m = entry.match(line);
            QVERIFY2(m.hasMatch(), qPrintable(line));
            QVERIFY(m.captured(2).toInt() <= 8);
            portGuidOfLid.insert(m.captured(1), m.captured(4));
            ++entries;
        }
    }
    QCOMPARE(headers, 2);
    QCOMPARE(entries, 12);
    QVERIFY(!written.contains(" 255 "));
    // Destinations as the fabric (and the real dump) name them.
    QCOMPARE(portGuidOfLid.value(QStringLiteral("0002")), QStringLiteral("0000000000100001"));
    QCOMPARE(portGuidOfLid.value(QStringLiteral("0003")), QStringLiteral("0000000000200001"));
    QCOMPARE(portGuidOfLid.value(QStringLiteral("0006")), QStringLiteral("000000000010000a"));
    QVERIFY(written.contains("Lid 3 guid 0x0000000000200001 (Switch2):\n"));
}

void TestLftDump::writerWithoutFabric()
{
    ForwardingTables tables;
    const int i = tables.addSwitch(0xabc);  // no LID, no description
    tables.lft(std::size_t(i)).setPort(0x41, 7);
    const QByteArray written = writeLftDump(tables);
    QVERIFY2(written.startsWith("Unicast lids [0x0-0x41] of switch guid 0x0000000000000abc ():\n"), written.constData());
    QVERIFY(written.contains("\n0x0041 007 : (unknown node and type)\n1 valid lids dumped \n"));
    const Result<ForwardingTables> reread = readLftDump(written, QStringLiteral("w"));
    QVERIFY(reread.ok());
    QVERIFY(*reread == tables);
    QCOMPARE(reread->at(0).lid, Lid(0));
}

void TestLftDump::compactRoundTrip()
{
    QFETCH(QString, file);
    QFETCH(bool, withFabric);
    const Fabric fabric = twoSwitchFabric();
    const Fabric *context = withFabric ? &fabric : nullptr;
    const Result<ForwardingTables> original = readLftDump(fixture(file), file, context);
    QVERIFY(original.ok());

    const QByteArray compact = writeLftDump(*original, context, LftDumpForm::Compact);
    QVERIFY(compact.size() < writeLftDump(*original, context, LftDumpForm::Annotated).size());
    QVERIFY(!compact.contains("Destination"));
    QVERIFY(!compact.contains("unknown node and type"));
    const Result<ForwardingTables> reread = readLftDump(compact, QStringLiteral("compact.lfts"), context);
    QVERIFY2(reread.ok(), qPrintable(reread.ok() ? QString() : reread.error().toString() + QLatin1Char('\n')
                                                       + QString::fromUtf8(compact)));
    QVERIFY(*reread == *original);
    for (std::size_t i = 0; i < original->size(); ++i) {
        QCOMPARE(reread->at(i).guid, original->at(i).guid);
        QCOMPARE(reread->at(i).lid, original->at(i).lid);
        QCOMPARE(reread->at(i).description, original->at(i).description);
    }
    QCOMPARE(writeLftDump(*reread, context, LftDumpForm::Compact), compact);
    // And from the compact form back to the annotated one, the same as from the original.
    QCOMPARE(writeLftDump(*reread, context, LftDumpForm::Annotated), writeLftDump(*original, context));
}

void TestLftDump::compactDumpFollowsOpenSmRules()
{
    const Fabric fabric = twoSwitchFabric();
    const Result<ForwardingTables> tables = readLftDump(fixture(QStringLiteral("dump_lfts_all.txt")),
                                                        QStringLiteral("dump_lfts_all.txt"), &fabric);
    QVERIFY(tables.ok());
    const QByteArray written = writeLftDump(*tables, &fabric, LftDumpForm::Compact);

    // What osm_ucast_file.c reads: "Unicast lids" ... " guid 0x<hex>" and a blank; "0x<lid>",
    // blank, decimal port, blank (the line end counts), " portguid 0x<hex>" ending in a blank.
    const QRegularExpression header(QStringLiteral("^Unicast lids \\[0x0-0x6\\] of switch Lid (\\d) guid 0x([0-9a-f]{16}) \\(Switch\\d\\):$"));
    const QRegularExpression entry(QStringLiteral("^0x([0-9a-f]{4}) (\\d{3}) portguid 0x([0-9a-f]{16})$"));
    const QRegularExpression footer(QStringLiteral("^\\d+ valid lids dumped $"));
    int headers = 0;
    int entries = 0;
    QHash<QString, QString> portGuidOfLid;
    const QList<QByteArray> lines = written.split('\n');
    QVERIFY(lines.last().isEmpty());  // ends with a line end
    for (qsizetype i = 0; i + 1 < lines.size(); ++i) {
        const QString line = QString::fromUtf8(lines[i]);
        if (line.startsWith(QStringLiteral("Unicast"))) {
            QVERIFY2(header.match(line).hasMatch(), qPrintable(line));
            ++headers;
        } else if (const QRegularExpressionMatch m = entry.match(line); m.hasMatch()) {
            QVERIFY(m.captured(2).toInt() <= 8);
            portGuidOfLid.insert(m.captured(1), m.captured(3));
            ++entries;
        } else {
            QVERIFY2(footer.match(line).hasMatch(), qPrintable(line));
        }
    }
    QCOMPARE(headers, 2);
    QCOMPARE(entries, 12);
    QCOMPARE(portGuidOfLid.value(QStringLiteral("0002")), QStringLiteral("0000000000100001"));
    QCOMPARE(portGuidOfLid.value(QStringLiteral("0003")), QStringLiteral("0000000000200001"));
    QCOMPARE(portGuidOfLid.value(QStringLiteral("0006")), QStringLiteral("000000000010000a"));

    // Without a fabric no port GUID is known: just "0xLID PORT".
    ForwardingTables bare;
    bare.lft(std::size_t(bare.addSwitch(0xabc))).setPort(0x41, 7);
    QCOMPARE(writeLftDump(bare, nullptr, LftDumpForm::Compact),
             QByteArray("Unicast lids [0x0-0x41] of switch guid 0x0000000000000abc ():\n0x0041 007\n1 valid lids dumped \n"));
}

void TestLftDump::streamedWriterGivesTheSameBytes_data()
{
    QTest::addColumn<bool>("annotated");
    QTest::addRow("compact") << false;
    QTest::addRow("annotated") << true;
}

void TestLftDump::streamedWriterGivesTheSameBytes()
{
    QFETCH(bool, annotated);
    const LftDumpForm form = annotated ? LftDumpForm::Annotated : LftDumpForm::Compact;
    const Fabric fabric = twoSwitchFabric();
    const Result<ForwardingTables> tables = readLftDump(fixture(QStringLiteral("dump_lfts.txt")), QStringLiteral("d"), &fabric);
    QVERIFY(tables.ok());
    const QByteArray whole = writeLftDump(*tables, &fabric, form);

    QByteArray pieces;
    QVERIFY(writeLftDump(*tables, &fabric, form, [&](const char *data, std::size_t size) {
        pieces.append(data, qsizetype(size));
        return true;
    }));
    QCOMPARE(pieces, whole);
    // A sink that refuses stops the writer, which says so.
    QVERIFY(!writeLftDump(*tables, &fabric, form, [](const char *, std::size_t) { return false; }));

    // To a file: atomically, the replaced content kept as the backup; read back the same.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("out.lfts"));
    QVERIFY(writeLftDumpFile(path, *tables, &fabric, form).ok());
    QVERIFY(writeLftDumpFile(path, *tables, &fabric, form).ok());
    for (const QString &p : {path, backupPath(path)}) {
        QFile file(p);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), whole);
    }
    const Result<ForwardingTables> reread = readLftDumpFile(path, &fabric);
    QVERIFY(reread.ok());
    QVERIFY(*reread == *tables);

    // A failed write changes nothing at the path.
    QVERIFY(!writeLftDumpFile(dir.filePath(QStringLiteral("no/such/dir.lfts")), *tables, &fabric, form).ok());
}

// A dump far larger than the writer's buffer: written in pieces no larger than the buffer (what
// bounds the writer's memory: `weft route` on the 36-port 3-level tree peaks at 0.1 GB with it,
// 1.5 GB without), and read back a piece at a time with the same results and line numbers as
// from memory.
// The backup is the file replaced, whatever way it is kept (a second name for it, or a copy
// where that cannot be: a symbolic link): after each write, FILE holds the new dump and FILE.bak
// the one before, and writing again never changes what an earlier backup held.
void TestLftDump::rewrittenDumpKeepsThePreviousAsBackup()
{
    auto tablesWith = [](std::uint8_t port) {
        ForwardingTables tables;
        LinearForwardingTable &lft = tables.lft(std::size_t(tables.addSwitch(Guid(0x77), Lid(1), QStringLiteral("sw"))));
        for (Lid lid = 1; lid <= 300; ++lid)
            lft.setPort(lid, port);
        return tables;
    };
    auto contents = [](const QString &path) {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("(unreadable)");
    };
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("opensm.lfts"));
    QVERIFY(writeLftDumpFile(path, tablesWith(1), nullptr, LftDumpForm::Compact).ok());
    QVERIFY(!QFileInfo::exists(backupPath(path)));
    const QByteArray first = contents(path);
    QVERIFY(writeLftDumpFile(path, tablesWith(2), nullptr, LftDumpForm::Compact).ok());
    const QByteArray second = contents(path);
    QVERIFY(second != first);
    QCOMPARE(contents(backupPath(path)), first);
    QVERIFY(writeLftDumpFile(path, tablesWith(3), nullptr, LftDumpForm::Compact).ok());
    QCOMPARE(contents(backupPath(path)), second);
    QVERIFY(*readLftDumpFile(path) == tablesWith(3));

    // Through a symbolic link: the link stays a link, the file it names gets the new dump.
    const QString real = dir.filePath(QStringLiteral("real.lfts"));
    const QString link = dir.filePath(QStringLiteral("link.lfts"));
    QVERIFY(writeLftDumpFile(real, tablesWith(4), nullptr, LftDumpForm::Compact).ok());
    QVERIFY(QFile::link(real, link));
    const QByteArray fourth = contents(link);
    QVERIFY(writeLftDumpFile(link, tablesWith(5), nullptr, LftDumpForm::Compact).ok());
    QVERIFY(QFileInfo(link).isSymLink());
    QVERIFY(*readLftDumpFile(real) == tablesWith(5));
    QCOMPARE(contents(backupPath(link)), fourth);
}

void TestLftDump::largeDumpStreamsInBoundedPieces()
{
    ForwardingTables tables;
    for (int s = 0; s < 40; ++s) {
        LinearForwardingTable &lft = tables.lft(std::size_t(tables.addSwitch(Guid(0x1000 + s), Lid(s + 1), QStringLiteral("sw %1").arg(s))));
        for (Lid lid = 1; lid <= 12000; ++lid)
            lft.setPort(lid, std::uint8_t(1 + (lid + s) % 36));
    }
    const QByteArray whole = writeLftDump(tables, nullptr, LftDumpForm::Annotated);
    QVERIFY(whole.size() > 3 * (qsizetype(4) << 20));

    int pieceCount = 0;
    std::size_t largest = 0;
    QByteArray joined;
    QVERIFY(writeLftDump(tables, nullptr, LftDumpForm::Annotated, [&](const char *data, std::size_t size) {
        ++pieceCount;
        largest = std::max(largest, size);
        joined.append(data, qsizetype(size));
        return true;
    }));
    QCOMPARE(joined, whole);
    QVERIFY(pieceCount >= 4);
    QVERIFY(largest <= (std::size_t(4) << 20));

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("big.lfts"));
    QVERIFY(writeLftDumpFile(path, tables, nullptr, LftDumpForm::Compact).ok());
    const Result<ForwardingTables> compact = readLftDumpFile(path);
    QVERIFY(compact.ok());
    QVERIFY(*compact == tables);

    // An error far into the file (past the first pieces) names the same line as when read whole.
    QByteArray broken = whole;
    const qsizetype at = broken.indexOf("\n0x", qsizetype(14) << 20) + 1;
    const int line = int(broken.left(at).count('\n')) + 1;
    broken.insert(at, "0x0001 zz\n");
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QCOMPARE(file.write(broken), broken.size());
    }
    const Result<ForwardingTables> fromFile = readLftDumpFile(path);
    const Result<ForwardingTables> fromMemory = readLftDump(broken, path);
    QVERIFY(!fromFile.ok());
    QVERIFY(!fromMemory.ok());
    QCOMPARE(fromFile.error().line, line);
    QCOMPARE(fromFile.error().toString(), fromMemory.error().toString());
    QVERIFY2(fromFile.error().message.contains(QStringLiteral("bad out port")), qPrintable(fromFile.error().toString()));
}

void TestLftDump::lftTopAndBlocks()
{
    LinearForwardingTable lft;
    QCOMPARE(lft.top(), Lid(0));
    QCOMPARE(lft.blockCount(), 0);
    QCOMPARE(lft.routeCount(), std::size_t(0));
    QCOMPARE(lft.port(500), kNoRoute);

    lft.setPort(63, 1);
    QCOMPARE(lft.top(), Lid(63));
    QCOMPARE(lft.blockCount(), 1);
    lft.setPort(64, 2);
    QCOMPARE(lft.top(), Lid(64));
    QCOMPARE(lft.blockCount(), 2);
    lft.setPort(kMaxUnicastLid, 3);
    QCOMPARE(lft.top(), kMaxUnicastLid);
    QCOMPARE(lft.blockCount(), 768);  // 0xC000 LIDs / 64
    QCOMPARE(lft.routeCount(), std::size_t(3));

    lft.clear(kMaxUnicastLid);
    QCOMPARE(lft.top(), Lid(64));
    QCOMPARE(lft.blockCount(), 2);
    QVERIFY(!lft.hasRoute(kMaxUnicastLid));
    lft.clear(9999);  // past the end: nothing to do
    QCOMPARE(lft.routeCount(), std::size_t(2));
}

void TestLftDump::lftEqualityIgnoresStorage()
{
    LinearForwardingTable small;
    small.setPort(5, 1);
    LinearForwardingTable big(Lid(4000));
    QVERIFY(small != big);
    big.setPort(5, 1);
    QVERIFY(small == big);
    QVERIFY(big == small);
    big.setPort(3999, 2);
    QVERIFY(small != big);
    QVERIFY(big != small);
    big.clear(3999);
    QVERIFY(small == big);
    big.setPort(5, 2);
    QVERIFY(small != big);
    QVERIFY(LinearForwardingTable() == LinearForwardingTable(Lid(100)));
}

void TestLftDump::blockEqualsComparesOneBlock()
{
    LinearForwardingTable a(Lid(300));
    LinearForwardingTable b;
    for (Lid lid = 1; lid < 200; ++lid) {
        a.setPort(lid, std::uint8_t(lid % 7));
        b.setPort(lid, std::uint8_t(lid % 7));
    }
    for (int block = 0; block < 6; ++block)
        QVERIFY2(blockEquals(a, b, block), qPrintable(QString::number(block)));

    b.setPort(130, 9);  // block 2 only
    QVERIFY(blockEquals(a, b, 1));
    QVERIFY(!blockEquals(a, b, 2));
    QVERIFY(!blockEquals(b, a, 2));
    QVERIFY(blockEquals(a, b, 3));

    a.setPort(299, 4);  // block 4, beyond b's storage
    QVERIFY(!blockEquals(a, b, 4));
    QVERIFY(blockEquals(a, b, 50));  // nothing stored there in either
    int differing = 0;
    for (int block = 0; block < 10; ++block)
        differing += !blockEquals(a, b, block);
    QCOMPARE(differing, 2);
}

void TestLftDump::forwardingTablesIndex()
{
    ForwardingTables tables;
    QVERIFY(tables.isEmpty());
    QCOMPARE(tables.addSwitch(30, 3, QStringLiteral("c")), 0);
    QCOMPARE(tables.addSwitch(10, 1, QStringLiteral("a")), 1);
    QCOMPARE(tables.addSwitch(30), -1);
    QCOMPARE(tables.size(), std::size_t(2));
    QCOMPARE(tables.at(0).guid, Guid(30));  // insertion order, not GUID order
    QCOMPARE(tables.indexOf(10), 1);
    QCOMPARE(tables.indexOf(20), -1);
    QVERIFY(!tables.find(20));
    QCOMPARE(tables.find(30)->description, QStringLiteral("c"));
    tables.lft(1).setPort(7, 2);
    QCOMPARE(tables.find(10)->lft.port(7), std::uint8_t(2));

    ForwardingTables reordered;
    reordered.addSwitch(10);
    reordered.addSwitch(30, 99, QStringLiteral("other name"));
    QVERIFY(tables != reordered);
    reordered.lft(0).setPort(7, 2);
    QVERIFY(tables == reordered);  // order and metadata are not routing
    reordered.lft(1).setPort(1, 1);
    QVERIFY(tables != reordered);

    ForwardingTables fewer;
    fewer.addSwitch(10);
    fewer.lft(0).setPort(7, 2);
    QVERIFY(tables != fewer);
    QVERIFY(fewer != tables);
}

// Spec 004 T14: a file missing LIDs for a listed switch is flagged, because OpenSM's file
// engine clears that switch's whole table before loading; a switch left out gets no routes.
void TestLftDump::coverageAgainstFabric()
{
    const Fabric fabric = twoSwitchFabric();
    Result<ForwardingTables> full = readLftDump(fixture(QStringLiteral("dump_lfts.txt")), QStringLiteral("full"), &fabric);
    QVERIFY(full.ok());
    QVERIFY(lftCoverageWarnings(*full, fabric).isEmpty());

    // Round trip through the writer keeps full coverage.
    Result<ForwardingTables> again = readLftDump(writeLftDump(*full, &fabric), QStringLiteral("written"), &fabric);
    QVERIFY(again.ok());
    QVERIFY(*again == *full);
    QVERIFY(lftCoverageWarnings(*again, fabric).isEmpty());

    const QByteArray partial = kHeader1 + kTitles + "0x0001 000\n0x0002 001\n2 valid lids dumped\n";
    Result<ForwardingTables> cut = readLftDump(partial, QStringLiteral("partial"), &fabric);
    QVERIFY(cut.ok());
    const QStringList warnings = lftCoverageWarnings(*cut, fabric);
    QCOMPARE(warnings.size(), 2);
    const QString all = warnings.join(QLatin1Char('\n'));
    QVERIFY2(all.contains(QStringLiteral("0x0000000000200000 (\"Switch1\") has no entry for 4 of the fabric's 6 LIDs (3, 4, 5, 6)")),
             qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("0x0000000000200001 (\"Switch2\") is not in the tables")), qPrintable(all));
}

QTEST_GUILESS_MAIN(TestLftDump)
#include "tst_lftdump.moc"
