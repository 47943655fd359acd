#include "FabricCompare.h"
#include "FileFormat.h"
#include "TextReader.h"
#include "TopologyFile.h"

#include <QtTest>

using namespace weft;

class TestTopologyFile : public QObject
{
    Q_OBJECT

private:
    static Fabric load(const QString &name)
    {
        const QString path = QFINDTESTDATA(QStringLiteral("data/topology/") + name);
        Result<Fabric> f = readTopologyFile(path);
        if (!f)
            qFatal("%s", qPrintable(f.error().toString()));
        return std::move(f).value();
    }

private Q_SLOTS:
    void readsRealIbnetdiscoverOutput()
    {
        // Captured from the real ibnetdiscover against ibsim running ibsim-2sw2path4hca.net.
        const Fabric f = load(QStringLiteral("ibnetdiscover-2sw4hca.txt"));
        QCOMPARE(f.switches().size(), std::size_t(2));
        QCOMPARE(f.channelAdapterCount(), std::size_t(4));
        QCOMPARE(f.links().size(), std::size_t(6));  // two parallel inter-switch cables + 4 hosts

        const NodeIndex sw2 = f.nodeByGuid(0x200001);
        QVERIFY(sw2 != kNoIndex);
        QCOMPARE(f.node(sw2).description, QStringLiteral("Switch2"));
        QCOMPARE(f.node(sw2).portCount, 8);
        QCOMPARE(f.nodeLid(sw2), Lid(3));

        const PortIndex hca4 = f.portByGuid(0x10000a);
        QVERIFY(hca4 != kNoIndex);
        QCOMPARE(f.port(hca4).lid, Lid(6));
        QCOMPARE(f.port(hca4).width, 4);
        QCOMPARE(f.port(hca4).speed, LinkSpeed::SDR);
        QCOMPARE(f.node(f.port(f.port(hca4).remote).node).guid, Guid(0x200001));
        QCOMPARE(f.port(f.port(hca4).remote).number, 2);
        QCOMPARE(f.portByLid(6), hca4);
        QCOMPARE(f.maxLid(), Lid(6));
    }

    void ibsimNetGetsTheGuidsIbsimGivesIt()
    {
        // The ibnetdiscover fixture is what ibsim reported for this net file, so reading the net
        // file must give the same nodes, GUIDs, descriptions and cables.
        const Fabric net = load(QStringLiteral("ibsim-2sw2path4hca.net"));
        const Fabric discovered = load(QStringLiteral("ibnetdiscover-2sw4hca.txt"));
        test::CompareOptions options;
        options.lids = false;  // the net file has none; OpenSM assigned them
        const QString diff = test::compareFabrics(discovered, net, options);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
    }

    void readsIbsimPortOptions()
    {
        const Fabric f = load(QStringLiteral("ibsim-example.net"));
        QCOMPARE(f.switches().size(), std::size_t(2));
        QCOMPARE(f.links().size(), std::size_t(4));
    }

    // ibnetdiscover prints a loopback cable (port 3 joined to port 4 of one switch) from both
    // ends: that is a fact of the fabric, read as one link.
    void loopbackFromBothEndsIsRead()
    {
        const QByteArray text = "switchguid=0x10\nSwitch\t4 \"S-0000000000000010\"\t\t# \"sw\" base port 0 lid 1 lmc 0\n"
                                "[3]\t\"S-0000000000000010\"[4]\n[4]\t\"S-0000000000000010\"[3]\n";
        const Result<Fabric> f = readTopology(text, QStringLiteral("loop.topo"));
        QVERIFY2(f.ok(), qPrintable(f.ok() ? QString() : f.error().toString()));
        QCOMPARE(f->links().size(), std::size_t(1));
    }

    void roundTrip_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addRow("ibnetdiscover output") << QStringLiteral("ibnetdiscover-2sw4hca.txt");
        QTest::addRow("ibsim net") << QStringLiteral("ibsim-2sw2path4hca.net");
    }

    void roundTrip()
    {
        QFETCH(QString, file);
        const Fabric original = load(file);
        test::CompareOptions all;
        all.linkProperties = true;
        for (const QByteArray &text : {writeIbnetdiscover(original), writeIbsimNet(original)}) {
            Result<Fabric> again = readTopology(text, QStringLiteral("written"));
            QVERIFY2(again.ok(), again.ok() ? "" : qPrintable(again.error().toString()));
            const QString diff = test::compareFabrics(original, *again, all);
            QVERIFY2(diff.isEmpty(), qPrintable(diff));
        }
    }

    void byteOrderMarkIsAccepted_data() { roundTrip_data(); }

    void byteOrderMarkIsAccepted()
    {
        // A leading UTF-8 byte-order mark is skipped: before, it made the first line an
        // "unknown keyword" (or a header nobody recognised).
        QFETCH(QString, file);
        const Fabric original = load(file);
        QFile in(QFINDTESTDATA(QStringLiteral("data/topology/") + file));
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray text = "\xEF\xBB\xBF" + in.readAll();
        QCOMPARE(detectFileFormat(text), FileFormat::Topology);
        Result<Fabric> again = readTopology(text, QStringLiteral("bom.topo"));
        QVERIFY2(again.ok(), again.ok() ? "" : qPrintable(again.error().toString()));
        test::CompareOptions all;
        all.linkProperties = true;
        const QString diff = test::compareFabrics(original, *again, all);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        // Line numbers still count the first line as line 1.
        const Result<Fabric> bad = readTopology("\xEF\xBB\xBF" "frobnicate=3\n", QStringLiteral("bom.topo"));
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().toString(), QStringLiteral("bom.topo:1: unknown keyword \"frobnicate\""));
    }

    void writesIbnetdiscoverLayout()
    {
        // Byte-level form of the lines, as the real tool prints them (bar the date line).
        const Fabric f = load(QStringLiteral("ibnetdiscover-2sw4hca.txt"));
        const QByteArray out = writeIbnetdiscover(f);
        QFile real(QFINDTESTDATA("data/topology/ibnetdiscover-2sw4hca.txt"));
        QVERIFY(real.open(QIODevice::ReadOnly));
        const QList<QByteArray> realLines = real.readAll().split('\n');
        const QList<QByteArray> ourLines = out.split('\n');
        for (const char *line : {"switchguid=0x200001(200001)",
                                 "Switch\t8 \"S-0000000000200001\"\t\t# \"Switch2\" base port 0 lid 3 lmc 0",
                                 "[1]\t\"H-0000000000100003\"[1](100004) \t\t# \"Hca2\" lid 4 4xSDR",
                                 "[3]\t\"S-0000000000200000\"[3]\t\t# \"Switch1\" lid 1 4xSDR",
                                 "caguid=0x100009",
                                 "Ca\t2 \"H-0000000000100009\"\t\t# \"Hca4\"",
                                 "[1](10000a) \t\"S-0000000000200001\"[2]\t\t# lid 6 lmc 0 \"Switch2\" lid 3 4xSDR"}) {
            QVERIFY2(realLines.contains(line), line);  // the expectation itself is the real tool's
            QVERIFY2(ourLines.contains(line), line);
        }
    }

    void rejectsBadInput_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("message");

        const QByteArray sw = "switchguid=0x10\nSwitch\t4 \"S-0000000000000010\"\t\t# \"sw\" base port 0 lid 1 lmc 0\n";
        const QByteArray ca = "caguid=0x20\nCa\t1 \"H-0000000000000020\"\t\t# \"host\"\n";
        QTest::addRow("empty") << QByteArray() << 0 << QStringLiteral("no nodes");
        QTest::addRow("comments only") << QByteArray("# nothing\n\n") << 0 << QStringLiteral("no nodes");
        QTest::addRow("truncated after guid") << QByteArray("switchguid=0x10\n") << 1 << QStringLiteral("truncated");
        QTest::addRow("unknown keyword") << QByteArray("frobnicate=3\n") << 1 << QStringLiteral("unknown keyword \"frobnicate\"");
        QTest::addRow("garbage line") << QByteArray("hello world\n") << 1 << QStringLiteral("unknown keyword \"hello\"");
        QTest::addRow("bad guid") << QByteArray("switchguid=0xZZ\n") << 1 << QStringLiteral("not a 64-bit hexadecimal GUID");
        QTest::addRow("guid too long") << QByteArray("caguid=0x11112222333344445\n") << 1 << QStringLiteral("not a 64-bit");
        QTest::addRow("zero guid") << QByteArray("caguid=0x0\n") << 1 << QStringLiteral("GUID 0");
        QTest::addRow("port count zero") << QByteArray("Switch\t0 \"a\"\n") << 1 << QStringLiteral("1 to 254 ports");
        QTest::addRow("port count huge") << QByteArray("Switch\t300 \"a\"\n") << 1 << QStringLiteral("1 to 254 ports");
        QTest::addRow("port count word") << QByteArray("Switch\tmany \"a\"\n") << 1 << QStringLiteral("port count \"many\"");
        QTest::addRow("unquoted id") << QByteArray("Switch\t4 sw1\n") << 1 << QStringLiteral("quoted node id");
        QTest::addRow("unterminated id") << QByteArray("Switch\t4 \"sw1\n") << 1 << QStringLiteral("unterminated node id");
        QTest::addRow("port before node") << QByteArray("[1]\t\"x\"[1]\n") << 1 << QStringLiteral("before any node header");
        QTest::addRow("port beyond count") << sw + "[5]\t\"H-0000000000000020\"[1]\n" + ca << 3 << QStringLiteral("has no port 5");
        QTest::addRow("port zero") << sw + "[0]\t\"H-0000000000000020\"[1]\n" + ca << 3 << QStringLiteral("has no port 0");
        QTest::addRow("dangling link") << sw + "[1]\t\"H-00000000000000ff\"[1]\n" << 3 << QStringLiteral("which the file does not define");
        QTest::addRow("remote port beyond count") << sw + "[1]\t\"H-0000000000000020\"[2]\n" + ca << 3 << QStringLiteral("which has 1 ports");
        QTest::addRow("port cabled twice")
            << sw + "[1]\t\"H-0000000000000020\"[1]\n[2]\t\"H-0000000000000020\"[1]\n" + ca << 4 << QStringLiteral("already cabled");
        QTest::addRow("loopback stated from one end") << sw + "[1]\t\"S-0000000000000010\"[2]\n"
                                                      << 3
                                                      << QStringLiteral("port 1 is cabled to port 2 of its own node \"S-0000000000000010\", and port 2 is not stated cabled back");
        QTest::addRow("loopback to the same port") << sw + "[1]\t\"S-0000000000000010\"[1]\n"
                                                   << 3 << QStringLiteral("\"S-0000000000000010\" port 1 is cabled to itself");
        QTest::addRow("duplicate port guid")
            << sw + "[1]\t\"H-0000000000000020\"[1]\n[2]\t\"H-0000000000000030\"[1]\n"
                    "caguid=0x20\nCa\t1 \"H-0000000000000020\"\t\t# \"host\"\n[1](99)\t\"S-0000000000000010\"[1]\n"
                    "caguid=0x30\nCa\t1 \"H-0000000000000030\"\t\t# \"host2\"\n[1](99)\t\"S-0000000000000010\"[2]\n"
            << 10 << QStringLiteral("duplicate port GUID 0x0000000000000099");
        QTest::addRow("port guid of a switch")
            << sw + "[1]\t\"H-0000000000000020\"[1]\ncaguid=0x20\nCa\t1 \"H-0000000000000020\"\t\t# \"host\"\n[1](10)\t\"S-0000000000000010\"[1]\n"
            << 6 << QStringLiteral("GUID 0x0000000000000010");
        QTest::addRow("duplicate guid") << sw + "switchguid=0x10\nSwitch\t4 \"other\"\n" << 4 << QStringLiteral("duplicate node GUID");
        QTest::addRow("duplicate id") << sw + "switchguid=0x11\nSwitch\t4 \"S-0000000000000010\"\n" << 4 << QStringLiteral("duplicate node id");
        QTest::addRow("bad width") << sw + "[1]\t\"H-0000000000000020\"[1](21) \t\t# \"host\" lid 2 3xSDR\n" + ca << 3 << QStringLiteral("3x");
        QTest::addRow("bad speed") << sw + "[1]\t\"H-0000000000000020\"[1](21) \t\t# \"host\" lid 2 4xWARP\n" + ca << 3 << QStringLiteral("unknown link speed \"WARP\"");
        QTest::addRow("lid not a number") << QByteArray("switchguid=0x10\nSwitch\t4 \"S-0000000000000010\"\t\t# \"sw\" base port 0 lid x lmc 0\n") << 2 << QStringLiteral("LID \"x\"");
        QTest::addRow("lid beyond unicast") << QByteArray("switchguid=0x10\nSwitch\t4 \"S-0000000000000010\"\t\t# \"sw\" base port 0 lid 50000 lmc 0\n") << 2 << QStringLiteral("not a unicast LID");
        // Numbers are range-checked in their full width, never narrowed first (issue 16).
        QTest::addRow("lid wraps 16 bits") << QByteArray("switchguid=0x10\nSwitch\t4 \"S-0000000000000010\"\t\t# \"sw\" base port 0 lid 65537 lmc 0\n") << 2 << QStringLiteral("LID 65537 is out of range (0-65535)");
        QTest::addRow("lid wraps 64 bits") << QByteArray("switchguid=0x10\nSwitch\t4 \"S-0000000000000010\"\t\t# \"sw\" base port 0 lid 18446744073709551617 lmc 0\n") << 2 << QStringLiteral("LID 18446744073709551617 is out of range (0-65535)");
        QTest::addRow("lid hex wraps") << QByteArray("switchguid=0x10\nSwitch\t4 \"S-0000000000000010\"\t\t# \"sw\" base port 0 lid 0x10001 lmc 0\n") << 2 << QStringLiteral("LID 0x10001 is out of range (0-65535)");
        QTest::addRow("lmc wraps 32 bits") << QByteArray("switchguid=0x10\nSwitch\t4 \"S-0000000000000010\"\t\t# \"sw\" base port 0 lid 1 lmc 4294967296\n") << 2 << QStringLiteral("LMC 4294967296 is out of range (0-7)");
        QTest::addRow("lmc 8") << QByteArray("switchguid=0x10\nSwitch\t4 \"S-0000000000000010\"\t\t# \"sw\" base port 0 lid 1 lmc 8\n") << 2 << QStringLiteral("LMC 8 is out of range (0-7)");
        QTest::addRow("port wraps 32 bits") << sw + "[4294967297]\t\"H-0000000000000020\"[1]\n" + ca << 3 << QStringLiteral("port number 4294967297 is out of range (0-254)");
        QTest::addRow("port 255") << sw + "[255]\t\"H-0000000000000020\"[1]\n" + ca << 3 << QStringLiteral("port number 255 is out of range (0-254)");
        QTest::addRow("remote port wraps") << sw + "[1]\t\"H-0000000000000020\"[4294967297]\n" + ca << 3 << QStringLiteral("remote port number 4294967297 is out of range (1-254)");
        QTest::addRow("port count wraps") << QByteArray("Switch\t4294967300 \"a\"\n") << 1 << QStringLiteral("1 to 254 ports, not 4294967300");
        QTest::addRow("ca port lid wraps") << sw + "[1]\t\"H-0000000000000020\"[1]\n" + "caguid=0x20\nCa\t1 \"H-0000000000000020\"\t\t# \"host\"\n[1](21) \t\"S-0000000000000010\"[1]\t\t# lid 65538 lmc 0 \"sw\" lid 1 4xSDR\n" << 6 << QStringLiteral("LID 65538 is out of range");
        QTest::addRow("peer lid wraps") << sw + "[1]\t\"H-0000000000000020\"[1](21) \t\t# \"host\" lid 65538 4xSDR\n" + ca << 3 << QStringLiteral("LID 65538 is out of range");
        QTest::addRow("vendid wider than 24 bits") << QByteArray("vendid=0x100000002c9\n") << 1 << QStringLiteral("vendid 0x100000002c9 is out of range (0-16777215)");
        QTest::addRow("devid wider than 16 bits") << QByteArray("devid=0x1673c\n") << 1 << QStringLiteral("devid 0x1673c is out of range (0-65535)");
        QTest::addRow("duplicate lid")
            << QByteArray("switchguid=0x10\nSwitch\t4 \"a\"\t\t# \"a\" base port 0 lid 7 lmc 0\n"
                          "switchguid=0x11\nSwitch\t4 \"b\"\t\t# \"b\" base port 0 lid 7 lmc 0\n") << 4 << QStringLiteral("LID 7 is used twice: by \"a\" port 0 (line 2) and by \"b\" port 0");
        QTest::addRow("lid ranges overlap")
            << QByteArray("switchguid=0x10\nSwitch\t4 \"a\"\t\t# \"a\" base port 0 lid 8 lmc 2\n"
                          "switchguid=0x11\nSwitch\t4 \"b\"\t\t# \"b\" base port 0 lid 10 lmc 0\n") << 4 << QStringLiteral("LID 10 is used twice: by \"a\" port 0 (line 2) and by \"b\" port 0");
        QTest::addRow("lid range leaves unicast")
            << QByteArray("switchguid=0x10\nSwitch\t4 \"a\"\t\t# \"a\" base port 0 lid 49150 lmc 2\n") << 2
            << QStringLiteral("LID range 49150-49153 of \"a\" port 0 leaves the unicast range (1-49151)");
        QTest::addRow("trailing junk on port") << sw + "[1]\t\"H-0000000000000020\"[1] junk\n" + ca << 3 << QStringLiteral("unexpected text \"junk\"");
        QTest::addRow("overlong line") << QByteArray("# ") + QByteArray(5000, 'x') + "\n" << 1 << QStringLiteral("at most 4096");
        QTest::addRow("binary") << QByteArray("Switch\t4 \"a\0b\"\n", 16) << 1 << QStringLiteral("NUL byte");
    }

    void rejectsBadInput()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, line);
        QFETCH(QString, message);
        const Result<Fabric> f = readTopology(text, QStringLiteral("bad.topo"));
        QVERIFY(!f.ok());
        QCOMPARE(f.error().file, QStringLiteral("bad.topo"));
        QCOMPARE(f.error().line, line);
        QVERIFY2(f.error().message.contains(message), qPrintable(f.error().toString()));
    }

    void missingFileIsAnError()
    {
        const Result<Fabric> f = readTopologyFile(QStringLiteral("/nonexistent/weft.topo"));
        QVERIFY(!f.ok());
        QVERIFY(f.error().toString().startsWith(QStringLiteral("/nonexistent/weft.topo: cannot open")));
    }
};

QTEST_GUILESS_MAIN(TestTopologyFile)
#include "tst_topologyfile.moc"
