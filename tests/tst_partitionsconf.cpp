// partitions.conf: every construct OpenSM 3.3.23 accepts, every error it detects, the warnings
// for what it silently reinterprets, and write -> read round trips. Expected models are written
// from OpenSM's grammar and parser behaviour (doc/partition-config.txt, osm_prtn_config.c).

#include "PartitionsConf.h"
#include "WeftRunner.h"

#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace weft;

namespace {

// A compact, independent description of a parsed partition:
//   name=P_Key[,flag...]:member member ... [mgid{flags}]
// members are KEYWORD or 0xGUID, then =F/=L/=B for the membership, '!' when written explicitly.
QString describeFlags(const MulticastFlags &f)
{
    QStringList parts;
    if (f.rate) parts << QStringLiteral("rate=%1").arg(*f.rate);
    if (f.mtu) parts << QStringLiteral("mtu=%1").arg(*f.mtu);
    if (f.sl) parts << QStringLiteral("sl=%1").arg(*f.sl);
    if (f.scope) parts << QStringLiteral("scope=%1").arg(*f.scope);
    if (f.qkey) parts << QStringLiteral("qkey=0x%1").arg(*f.qkey, 0, 16);
    if (f.tclass) parts << QStringLiteral("tclass=%1").arg(*f.tclass);
    if (f.flowLabel) parts << QStringLiteral("flow=0x%1").arg(*f.flowLabel, 0, 16);
    return parts.join(QLatin1Char(','));
}

QString describe(const Partition &p)
{
    QString s = p.name + QLatin1Char('=')
                + (p.pkey ? QStringLiteral("0x%1").arg(*p.pkey, 4, 16, QLatin1Char('0')) : QStringLiteral("auto"));
    if (p.ipoib) s += QStringLiteral(",ipoib");
    if (p.indx0) s += QStringLiteral(",indx0");
    if (p.defaultMembership == Membership::Full) s += QStringLiteral(",def=full");
    if (p.defaultMembership == Membership::Both) s += QStringLiteral(",def=both");
    const QString flags = describeFlags(p.ipoibFlags);
    if (!flags.isEmpty()) s += QLatin1Char(',') + flags;
    s += QLatin1Char(':');
    QStringList members;
    for (const PartitionMember &m : p.members) {
        QString text;
        switch (m.kind) {
        case PartitionMember::Kind::All: text = QStringLiteral("ALL"); break;
        case PartitionMember::Kind::AllCas: text = QStringLiteral("ALL_CAS"); break;
        case PartitionMember::Kind::AllSwitches: text = QStringLiteral("ALL_SWITCHES"); break;
        case PartitionMember::Kind::AllRouters: text = QStringLiteral("ALL_ROUTERS"); break;
        case PartitionMember::Kind::Self: text = QStringLiteral("SELF"); break;
        case PartitionMember::Kind::PortGuid: text = QStringLiteral("0x%1").arg(m.guid, 0, 16); break;
        }
        text += m.membership == Membership::Full ? QStringLiteral("=F")
                : m.membership == Membership::Both ? QStringLiteral("=B") : QStringLiteral("=L");
        if (m.explicitMembership) text += QLatin1Char('!');
        members << text;
    }
    for (const MulticastGroup &g : p.multicastGroups)
        members << QStringLiteral("mgid:%1{%2}").arg(g.mgid, describeFlags(g.flags));
    return s + members.join(QLatin1Char(' '));
}

QString describe(const std::vector<Partition> &partitions)
{
    QStringList all;
    for (const Partition &p : partitions)
        all << describe(p);
    return all.join(QStringLiteral(" ; "));
}

bool anyContains(const QStringList &list, const QString &needle)
{
    for (const QString &s : list)
        if (s.contains(needle))
            return true;
    return false;
}

}  // namespace

class TestPartitionsConf : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void accepts_data();
    void accepts();
    void rejects_data();
    void rejects();
    void warns_data();
    void warns();
    void overlongLine();
    void lineAtTheLimitIsAccepted();
    void fixtures_data();
    void fixtures();
    void roundTrip_data();
    void roundTrip();
    void writerOutputIsStandardSyntax();
    void groupUnderALaterDefinitionSurvives_data();
    void groupUnderALaterDefinitionSurvives();
    void explicitDefault();
    void noPartitionsIsAFileOpenSmTakes();
    void namesWithoutPKeyStayDistinct();
    void counts();
    void infoPrintsWarningsOnStandardError();
};

void TestPartitionsConf::accepts_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("expected");

    QTest::addRow("minimal") << QByteArray("Default=0x7fff : ALL=full ;\n")
                             << QStringLiteral("Default=0x7fff:ALL=F!");
    QTest::addRow("no spaces, no final newline") << QByteArray("Default=0x7fff:ALL=full,SELF=full;")
                                                 << QStringLiteral("Default=0x7fff:ALL=F! SELF=F!");
    QTest::addRow("tabs and spaces around every delimiter")
        << QByteArray("\t P1 \t= \t0x10\t ,\tipoib\t : \t0x1\t = \tfull\t , 0x2 \t;\t\n")
        << QStringLiteral("P1=0x0010,ipoib:0x1=F! 0x2=L");
    QTest::addRow("members over several lines")
        << QByteArray("P=0x10 :\n  0x1,\n  0x2=full\n\n  , 0x3 ;\n")
        << QStringLiteral("P=0x0010:0x1=L 0x2=F! 0x3=L");
    QTest::addRow("two definitions on one line")
        << QByteArray("A=0x1 : ALL ; B=0x2 : SELF=full ;\n")
        << QStringLiteral("A=0x0001:ALL=L ; B=0x0002:SELF=F!");
    QTest::addRow("comments everywhere")
        << QByteArray("# header comment\nA=0x1 : # after the colon\n 0x5 # a member\n , 0x6 ; # done\n#end\n")
        << QStringLiteral("A=0x0001:0x5=L 0x6=L");
    QTest::addRow("';' alone on a line after harmless leftovers")
        << QByteArray("A=0x1 :\n    ALL=full\n    ;\n") << QStringLiteral("A=0x0001:ALL=F!");
    QTest::addRow("all keywords") << QByteArray("K=0x3: ALL, ALL_CAS=full, ALL_SWITCHES=both, ALL_ROUTERS=limited, SELF=full;")
                                  << QStringLiteral("K=0x0003:ALL=L ALL_CAS=F! ALL_SWITCHES=B! ALL_ROUTERS=L! SELF=F!");
    QTest::addRow("keyword prefixes: A is ALL, ALL_ is ALL_CAS, S is SELF")
        << QByteArray("K=0x3: A, ALL_, ALL_S, ALL_R, S;")
        << QStringLiteral("K=0x0003:ALL=L ALL_CAS=L ALL_SWITCHES=L ALL_ROUTERS=L SELF=L");
    QTest::addRow("membership prefixes") << QByteArray("M=0x4: 0x1=f, 0x2=limi, 0x3=b, 0x4=l;")
                                         << QStringLiteral("M=0x0004:0x1=F! 0x2=L! 0x3=B! 0x4=L!");
    QTest::addRow("NONE and its prefixes are skipped")
        << QByteArray("N=0x5: NONE, NO, N=full, 0x7;") << QStringLiteral("N=0x0005:0x7=L");
    QTest::addRow("empty entries between commas") << QByteArray("E=0x6: , 0x1,, 0x2, ;")
                                                  << QStringLiteral("E=0x0006:0x1=L 0x2=L");
    QTest::addRow("decimal GUID") << QByteArray("D=0x7: 1234;") << QStringLiteral("D=0x0007:0x4d2=L");
    QTest::addRow("defmember=full") << QByteArray("F=0x8, defmember=full: 0x1, 0x2=limited;")
                                    << QStringLiteral("F=0x0008,def=full:0x1=F 0x2=L!");
    QTest::addRow("defmember prefix d=lim") << QByteArray("F=0x8, d=lim: 0x1;")
                                            << QStringLiteral("F=0x0008:0x1=L");
    QTest::addRow("indx0 and ipoib prefix i") << QByteArray("I=0x9, indx0, i: ALL;")
                                              << QStringLiteral("I=0x0009,ipoib,indx0:ALL=L");
    QTest::addRow("every mgroup flag in the header")
        << QByteArray("G=0xa, ipoib, rate=7, mtu=5, sl=3, scope=5, Q_Key=0x1234, TClass=8, FlowLabel=0x12345: ALL;")
        << QStringLiteral("G=0x000a,ipoib,rate=7,mtu=5,sl=3,scope=5,qkey=0x1234,tclass=8,flow=0x12345:ALL=L");
    QTest::addRow("flag prefixes: m r s Q T sl F")
        << QByteArray("G=0xa, m=5, r=6, s=8, Q=9, T=1, sl=2, F=3: ALL;")
        << QStringLiteral("G=0x000a,rate=6,mtu=5,sl=2,scope=8,qkey=0x9,tclass=1,flow=0x3:ALL=L");
    QTest::addRow("P_Key in the name position") << QByteArray("0x0b : ALL;") << QStringLiteral("=0x000b:ALL=L");
    QTest::addRow("full bit of the P_Key is dropped") << QByteArray("P=0x8012 : ALL;")
                                                       << QStringLiteral("P=0x0012:ALL=L");
    QTest::addRow("no P_Key: autogenerated") << QByteArray("Auto : ALL;") << QStringLiteral("Auto=auto:ALL=L");
    QTest::addRow("no name") << QByteArray("=0x20 : SELF=full;") << QStringLiteral("=0x0020:SELF=F!");
    QTest::addRow("empty member list") << QByteArray("Empty=0x21 : ;") << QStringLiteral("Empty=0x0021:");
    QTest::addRow("same P_Key merges") << QByteArray("A=0x30 : 0x1;\nB=0x30 : 0x2=full;\n")
                                       << QStringLiteral("A=0x0030:0x1=L 0x2=F!");
    QTest::addRow("same P_Key with another defmember merges explicitly")
        << QByteArray("A=0x30 : 0x1;\nA=0x30, defmember=full : 0x2;\n")
        << QStringLiteral("A=0x0030:0x1=L 0x2=F!");
    QTest::addRow("same name without P_Key merges") << QByteArray("A=0x31 : 0x1;\nA : 0x2;\n")
                                                    << QStringLiteral("A=0x0031:0x1=L 0x2=L");
    QTest::addRow("Default without P_Key is 0x7fff") << QByteArray("Default : ALL=full;")
                                                     << QStringLiteral("Default=0x7fff:ALL=F!");
    QTest::addRow("mgid groups with and without flags")
        << QByteArray("M=0x40, ipoib:\n  mgid=ff12:401b::0707, sl=1\n  mgid=ff12::1,sl=1,Q_Key=0xDEADBEEF,rate=3,mtu=2 #\n  ALL=full;\n")
        << QStringLiteral("M=0x0040,ipoib:ALL=F! mgid:ff12:401b::0707{sl=1} mgid:ff12::1{rate=3,mtu=2,sl=1,qkey=0xdeadbeef}");
    QTest::addRow("IP mgid with the partition's P_Key bits")
        << QByteArray("M=0x41:\n  mgid=ff12:401b:8041::1, scope=5\n  ALL;\n")
        << QStringLiteral("M=0x0041:ALL=L mgid:ff12:401b:8041::1{scope=5}");
    QTest::addRow("mgid eats the rest of its line")
        << QByteArray("M=0x42: 0x1, mgid=ff12::2, sl=1, 0x2\n , 0x3 ;\n")
        << QStringLiteral("M=0x0042:0x1=L 0x3=L mgid:ff12::2{sl=1}");
    QTest::addRow("mgid with flag before ';'") << QByteArray("M=0x43: mgid=ff12::3, sl=2;\n")
                                                << QStringLiteral("M=0x0043:mgid:ff12::3{sl=2}");
    QTest::addRow("mgid then ';' then only a comment") << QByteArray("M=0x44: ALL, mgid=ff12::4;#\n")
                                                        << QStringLiteral("M=0x0044:ALL=L mgid:ff12::4{}");
    QTest::addRow("both is kept") << QByteArray("B=0x50, defmember=both: 0x1, 0x2=full;")
                                  << QStringLiteral("B=0x0050,def=both:0x1=B 0x2=F!");
    QTest::addRow("the pre-partition-manager rule") << QByteArray("Default=0x7fff,ipoib:ALL=full;")
                                                    << QStringLiteral("Default=0x7fff,ipoib:ALL=F!");
    QTest::addRow("definition without ';' at end of file")
        << QByteArray("A=0x1 : ALL=full ;\nB=0x2 : 0x5") << QStringLiteral("A=0x0001:ALL=F! ; B=0x0002:0x5=L");
    QTest::addRow("policy comment") << QByteArray("# weft: policy=phy-isolation\nA=0x1 : ALL ;\n")
                                    << QStringLiteral("A=0x0001:ALL=L");
    // A leading UTF-8 byte-order mark is skipped, not read as part of the first name.
    QTest::addRow("byte-order mark before a definition") << QByteArray("\xEF\xBB\xBF" "Default=0x7fff : ALL=full ;\n")
                                                         << QStringLiteral("Default=0x7fff:ALL=F!");
    QTest::addRow("byte-order mark before a comment") << QByteArray("\xEF\xBB\xBF# note\nA=0x1 : ALL ;\n")
                                                      << QStringLiteral("A=0x0001:ALL=L");
}

void TestPartitionsConf::accepts()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, expected);
    const auto result = readPartitionsConf(text, QStringLiteral("partitions.conf"));
    QVERIFY2(result.ok(), qPrintable(result.ok() ? QString() : result.error().toString()));
    QCOMPARE(describe(result->partitions), expected);
}

void TestPartitionsConf::rejects_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("message");

    QTest::addRow("empty file") << QByteArray() << 0 << QStringLiteral("no partition definition");
    QTest::addRow("only comments") << QByteArray("# nothing\n\n   # here\n") << 0
                                   << QStringLiteral("no partition definition");
    QTest::addRow("header without colon") << QByteArray("A=0x1 : ALL;\nB=0x2 ALL;\n") << 2
                                          << QStringLiteral("no partition definition found");
    QTest::addRow("truncated header at end") << QByteArray("A=0x1 : ALL;\nB=0x2") << 2
                                             << QStringLiteral("no partition definition found");
    QTest::addRow("header split over lines") << QByteArray("A=0x1\n : ALL;\n") << 1
                                             << QStringLiteral("no partition definition found");
    QTest::addRow("garbage after a definition") << QByteArray("A=0x1 : ALL; oops\n") << 1
                                                << QStringLiteral("\"oops\"");
    QTest::addRow("missing ';' runs into the next header")
        << QByteArray("A=0x1 : 0x10\nB=0x2 : 0x11 ;\n") << 2 << QStringLiteral("bad port GUID \"B\"");
    QTest::addRow("bad P_Key") << QByteArray("A=0x1g : ALL;") << 1
                               << QStringLiteral("P_Key \"0x1g\" is not a number");
    QTest::addRow("empty P_Key") << QByteArray("A= : ALL;") << 1 << QStringLiteral("P_Key \"\" is not a number");
    QTest::addRow("digit-leading name") << QByteArray("1st : ALL;") << 1
                                        << QStringLiteral("P_Key \"1st\" is not a number");
    QTest::addRow("octal P_Key with 8") << QByteArray("A=018 : ALL;") << 1
                                        << QStringLiteral("P_Key \"018\" is not a number");
    QTest::addRow("bad GUID") << QByteArray("A=0x1 : 0x12zz ;") << 1 << QStringLiteral("bad port GUID \"0x12zz\"");
    QTest::addRow("octal-looking GUID") << QByteArray("A=0x1 :\n 0002c90300001234 ;") << 2
                                        << QStringLiteral("octal");
    QTest::addRow("GUID zero") << QByteArray("A=0x1 : 0x0 ;") << 1 << QStringLiteral("GUID 0 is not valid");
    QTest::addRow("lower-case keyword") << QByteArray("A=0x1 : all=full ;") << 1
                                        << QStringLiteral("bad port GUID \"all\"");
    QTest::addRow("keyword too long") << QByteArray("A=0x1 : ALL_CASES ;") << 1
                                      << QStringLiteral("bad port GUID \"ALL_CASES\"");
    QTest::addRow("man page ShareIO form") << QByteArray("S=0x80 : defmember=limited : 0x1 ;") << 1
                                           << QStringLiteral("bad port GUID \"defmember\"");
    QTest::addRow("mgid without value") << QByteArray("A=0x1 :\n mgid\n ;") << 2
                                        << QStringLiteral("mgid needs a value");
    QTest::addRow("mgid last before ';'") << QByteArray("A=0x1 : ALL,\n mgid=ff12::1;\n") << 2
                                          << QStringLiteral("past the end of this line");
    QTest::addRow("bad mgid followed by flags and ';'") << QByteArray("A=0x1 : mgid=bogus, sl=1;\n") << 1
                                                        << QStringLiteral("no partition definition found");
    QTest::addRow("comment after mgid;") << QByteArray("A=0x1 : ALL, mgid=ff12::1; # note\n") << 1
                                         << QStringLiteral("\"note\"");
    QTest::addRow("';' alone on the last line reads leftovers")
        << QByteArray("Default=0x7fff :\n    ALL=full,\n    SELF=full\n;\n") << 4
        << QStringLiteral("leftovers of earlier lines, and finds: no partition definition found");
    QTest::addRow("';' first on a line, then a comment") << QByteArray("A=0x1 :\n 0x5\n ; # done\n") << 3
                                                        << QStringLiteral("\"done\"");
    QTest::addRow("Windows line endings") << QByteArray("A=0x1 : ALL=full ;\r\n") << 1
                                          << QStringLiteral("\\r");
    QTest::addRow("Windows line ending inside a list") << QByteArray("A=0x1 :\r\n 0x10\r\n ;\r\n") << 1
                                                       << QStringLiteral("carriage return");
    QTest::addRow("NUL byte") << QByteArray("A=0x1 : ALL;\n\0\n", 16) << 2 << QStringLiteral("NUL");
    // Numbers wider than OpenSM's 32-bit fields are refused, never narrowed (issue 16).
    QTest::addRow("mtu wraps 32 bits") << QByteArray("A=0x1, mtu=4294967300 : ALL ;") << 1
                                       << QStringLiteral("\"mtu=4294967300\" is out of range (mtu is 1-5): OpenSM would truncate it to 4");
    QTest::addRow("mtu wraps 64 bits") << QByteArray("A=0x1 :\n mgid=ff12::1, mtu=99999999999999999999999 #\n ALL ;") << 2
                                       << QStringLiteral("\"mtu=99999999999999999999999\" is out of range (mtu is 1-5)");
    QTest::addRow("rate wraps 32 bits") << QByteArray("A=0x1, rate=0x100000003 : ALL ;") << 1
                                        << QStringLiteral("\"rate=0x100000003\" is out of range (rate is 2-22): OpenSM would truncate it to 3");
    QTest::addRow("scope wraps 32 bits") << QByteArray("A=0x1, scope=4294967298 : ALL ;") << 1
                                         << QStringLiteral("\"scope=4294967298\" is out of range (scope is 1-15)");
    QTest::addRow("sl wraps 32 bits") << QByteArray("A=0x1, sl=4294967297 : ALL ;") << 1
                                      << QStringLiteral("\"sl=4294967297\" is out of range (sl is 0-15)");
    QTest::addRow("FlowLabel wraps 32 bits") << QByteArray("A=0x1, FlowLabel=0x100000001 : ALL ;") << 1
                                             << QStringLiteral("\"FlowLabel=0x100000001\" is out of range (FlowLabel is 0-1048575)");
}

void TestPartitionsConf::rejects()
{
    QFETCH(QByteArray, text);
    QFETCH(int, line);
    QFETCH(QString, message);
    const auto result = readPartitionsConf(text, QStringLiteral("partitions.conf"));
    QVERIFY2(!result.ok(), qPrintable(result.ok() ? describe(result->partitions) : QString()));
    QCOMPARE(result.error().file, QStringLiteral("partitions.conf"));
    QCOMPARE(result.error().line, line);
    QVERIFY2(result.error().message.contains(message), qPrintable(result.error().message));
}

void TestPartitionsConf::warns_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("warning");  // "file:line: part of the message"

    QTest::addRow("unknown port flag") << QByteArray("A=0x1 :\n 0x10=ful1 ;")
                                       << QStringLiteral("partitions.conf:2: unknown membership \"ful1\"");
    QTest::addRow("unknown partition flag") << QByteArray("A=0x1, mtux=5 : ALL ;")
                                            << QStringLiteral("partitions.conf:1: unknown partition flag \"mtux\"");
    QTest::addRow("unknown mgroup flag") << QByteArray("A=0x1 :\n mgid=ff12::1, colour=red\n ALL;")
                                         << QStringLiteral("partitions.conf:2: unknown multicast group flag \"colour\"");
    QTest::addRow("mtu out of IBTA range") << QByteArray("A=0x1, mtu=6 : ALL ;")
                                           << QStringLiteral("partitions.conf:1: mtu=6 is not an IBTA mtu code");
    QTest::addRow("rate zero") << QByteArray("A=0x1, rate=0 : ALL ;")
                               << QStringLiteral("partitions.conf:1: rate=0 is not valid");
    QTest::addRow("sl out of range") << QByteArray("A=0x1, sl=16 : ALL ;")
                                     << QStringLiteral("partitions.conf:1: sl needs a value from 0 to 15");
    QTest::addRow("scope out of range") << QByteArray("A=0x1, scope=16 : ALL ;")
                                        << QStringLiteral("partitions.conf:1: scope needs a value from 1 to 15");
    QTest::addRow("FlowLabel out of range") << QByteArray("A=0x1, FlowLabel=0x100000 : ALL ;")
                                            << QStringLiteral("partitions.conf:1: FlowLabel needs a value from 0 to");
    QTest::addRow("TClass too wide") << QByteArray("A=0x1, TClass=300 : ALL ;")
                                     << QStringLiteral("partitions.conf:1: TClass 300 is wider than 8 bits");
    QTest::addRow("suspicious value") << QByteArray("A=0x1, mtu=4k : ALL ;")
                                      << QStringLiteral("partitions.conf:1: suspicious value \"4k\" for mtu");
    QTest::addRow("flag without value") << QByteArray("A=0x1, rate : ALL ;")
                                        << QStringLiteral("partitions.conf:1: rate needs a value");
    QTest::addRow("defmember bad value") << QByteArray("A=0x1, defmember=most : ALL ;")
                                         << QStringLiteral("partitions.conf:1: defmember needs full, limited or both");
    QTest::addRow("both needs allow_both_pkeys") << QByteArray("A=0x1 : 0x5=both ;")
                                                 << QStringLiteral("partitions.conf:1: \"both\" for 0x5");
    QTest::addRow("octal GUID read as octal") << QByteArray("A=0x1 : 0123 ;")
                                              << QStringLiteral("partitions.conf:1: port GUID 0123 starts with 0");
    QTest::addRow("P_Key too wide") << QByteArray("A=0x17fff : ALL ;")
                                    << QStringLiteral("partitions.conf:1: P_Key 0x17fff does not fit in 16 bits; OpenSM uses 0x7fff");
    QTest::addRow("P_Key with only the full bit") << QByteArray("A=0x8000 : ALL ;")
                                                  << QStringLiteral("partitions.conf:1: P_Key 0x8000 has no partition number");
    QTest::addRow("duplicate P_Key") << QByteArray("A=0x1 : 0x5 ;\nB=0x1 : 0x6 ;")
                                     << QStringLiteral("partitions.conf:2: P_Key 0x0001 is already defined at line 1");
    QTest::addRow("duplicate GUID") << QByteArray("A=0x1 : 0x5 ,\n 0x5=full ;")
                                    << QStringLiteral("partitions.conf:2: 0x0000000000000005 is already a member");
    QTest::addRow("missing ';' at end") << QByteArray("A=0x1 : 0x5\n")
                                        << QStringLiteral("partitions.conf:1: the definition of \"A\" (0x0001) begun at line 1 has no closing ';'");
    QTest::addRow("empty partition") << QByteArray("A=0x1 : ;")
                                     << QStringLiteral("partitions.conf:1: partition \"A\" has no members");
    QTest::addRow("mgid not multicast") << QByteArray("A=0x1 :\n mgid=fe80::1\n ALL;")
                                        << QStringLiteral("partitions.conf:2: mgid \"fe80::1\" is not a multicast GID");
    QTest::addRow("IP mgid with another P_Key") << QByteArray("A=0x1 :\n mgid=ff12:401b:8002::1, sl=0\n ALL;")
                                                << QStringLiteral("partitions.conf:2: IP multicast group ff12:401b:8002::1 is skipped");
    QTest::addRow("IP mgid with another mtu") << QByteArray("A=0x1 :\n mgid=ff12:401b::1, mtu=5\n ALL;")
                                              << QStringLiteral("its mtu differs from the partition's (4)");
    QTest::addRow("mgid flags read from its comment") << QByteArray("A=0x1 :\n mgid=ff12::1 # mtu=2\n ALL;")
                                                      << QStringLiteral("partitions.conf:2: OpenSM reads the comment after an mgid");
    QTest::addRow("mgid at end of line without comment")
        << QByteArray("# a comment longer than the next lines\nA=0x1 :\n mgid=ff12::1\n ALL;")
        << QStringLiteral("partitions.conf:3: OpenSM reads the flags of mgid ff12::1 from leftovers");
    QTest::addRow("mgid at end of the longest line") << QByteArray("A=0x1 :\n mgid=ff12::1\n ALL;")
                                                         << QStringLiteral("partitions.conf:2: OpenSM reads the flags of mgid ff12::1 from uninitialized memory");
    QTest::addRow("several scopes") << QByteArray("A=0x1, scope=2, scope=5 : ALL;")
                                    << QStringLiteral("several scopes (2 and 5)");
    QTest::addRow("long name") << QByteArray("AVeryLongPartitionNameThatOpenSMCuts=0x1 : ALL;")
                               << QStringLiteral("longer than 31 characters");
    QTest::addRow("byte-order mark") << QByteArray("\xEF\xBB\xBF" "A=0x1 : ALL;")
                                     << QStringLiteral("partitions.conf:1: the file starts with a UTF-8 byte-order mark");
}

void TestPartitionsConf::warns()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, warning);
    const auto result = readPartitionsConf(text, QStringLiteral("partitions.conf"));
    QVERIFY2(result.ok(), qPrintable(result.ok() ? QString() : result.error().toString()));
    QVERIFY2(anyContains(result->warnings, warning), qPrintable(result->warnings.join(QLatin1Char('\n'))));
}

void TestPartitionsConf::overlongLine()
{
    QByteArray text = "A=0x1 :\n ";
    text += QByteArray(kPartitionsConfMaxLineLength, ' ') + "0x5\n ;\n";
    const auto result = readPartitionsConf(text, QStringLiteral("p.conf"));
    QVERIFY(!result.ok());
    QCOMPARE(result.error().line, 2);
    QVERIFY2(result.error().message.contains(QString::number(kPartitionsConfMaxLineLength)),
             qPrintable(result.error().message));

    // A carriage return counts: OpenSM's buffer holds it too.
    QByteArray crlf = "A=0x1 :\n" + QByteArray(kPartitionsConfMaxLineLength, ' ') + "\r\n ;\n";
    const auto crlfResult = readPartitionsConf(crlf, QStringLiteral("p.conf"));
    QVERIFY(!crlfResult.ok());
    QCOMPARE(crlfResult.error().line, 2);
}

void TestPartitionsConf::lineAtTheLimitIsAccepted()
{
    QByteArray members = " 0x5";
    members += QByteArray(kPartitionsConfMaxLineLength - members.size(), ' ');
    QCOMPARE(members.size(), kPartitionsConfMaxLineLength);
    const auto result = readPartitionsConf("A=0x1 :\n" + members + "\n ;\n", QStringLiteral("p.conf"));
    QVERIFY2(result.ok(), qPrintable(result.ok() ? QString() : result.error().toString()));
    QCOMPARE(describe(result->partitions), QStringLiteral("A=0x0001:0x5=L"));
}

void TestPartitionsConf::fixtures_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("accepted");
    QTest::addColumn<QString>("expected");  // model when accepted, "line:message" when not

    QTest::addRow("doc examples")
        << QStringLiteral("doc-examples.conf") << true
        << QStringLiteral("Default=0x7fff,ipoib:ALL_SWITCHES=F! SELF=F! ALL=F! mgid:ff12:401b::0707{sl=1} "
                          "mgid:ff12:601b::16{} mgid:ff12:401b::16{} mgid:ff12:601b::2{} "
                          "mgid:ff12::1{rate=3,mtu=2,sl=1,qkey=0xdeadbeef} ; "
                          "NewPartition=auto,ipoib:0x123456=F! 0x3456789034=L! 0x2134af2306=L ; "
                          "YetAnotherOne=0x0300:SELF=F! ALL=L! ; "
                          "ShareIO=0x0080,def=full:0x123451=F 0x123452=F 0x123453=L! 0x123454=L! 0x123455=F! "
                          "0x123456=L! 0x123457=L! 0x123458=F! 0x123459=F 0x12345a=F 0x12345b=F "
                          "0x12345c=L! 0x12345d=F");
    QTest::addRow("man page examples") << QStringLiteral("manpage-examples.conf") << false
                                       << QStringLiteral("14:bad port GUID \"defmember\"");
    QTest::addRow("tenants") << QStringLiteral("tenants.conf") << true
                             << QStringLiteral("Default=0x7fff,ipoib,def=full,rate=3,mtu=4,scope=2:"
                                               "ALL_SWITCHES=F! SELF=F! ; "
                                               "TenantA=0x0001,ipoib,def=full,mtu=5:0x2c90000000002=F "
                                               "0x2c90000000004=L! mgid:ff12:401b::1{mtu=5} ; "
                                               "TenantB=0x0002,indx0:0x2c90000000006=F! 0x2c90000000008=L");
}

void TestPartitionsConf::fixtures()
{
    QFETCH(QString, file);
    QFETCH(bool, accepted);
    QFETCH(QString, expected);
    const QString path = QFINDTESTDATA(QStringLiteral("data/partitions/") + file);
    QVERIFY2(!path.isEmpty(), qPrintable(file));
    const auto result = readPartitionsConfFile(path);
    QCOMPARE(result.ok(), accepted);
    if (accepted) {
        QCOMPARE(describe(result->partitions), expected);
    } else {
        QCOMPARE(result.error().file, path);
        QCOMPARE(QStringLiteral("%1:%2").arg(result.error().line).arg(result.error().message.left(expected.size() - 3)),
                 expected);
    }
}

void TestPartitionsConf::roundTrip_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addRow("everything") << QByteArray(
        "# weft: policy=vlane-isolation\n"
        "Default=0x7fff, ipoib, indx0, defmember=both, rate=7, mtu=5, sl=1, scope=5, Q_Key=0x1b, TClass=3, FlowLabel=0x10 :\n"
        "  mgid=ff12:401b::1\n #\n"
        "  mgid=ff15::1234:5678, sl=2, Q_Key=0x99, TClass=1, FlowLabel=7, scope=8\n"
        "  ALL, ALL_CAS=full, ALL_SWITCHES=limited, ALL_ROUTERS=both, SELF=full, 0x0002c90300001234, 077=full ;\n"
        "Auto : 0x5 ;\n"
        "=0x22 : ;\n");
    QTest::addRow("doc examples") << QByteArray("Default=0x7fff:ALL,SELF=full;\nNewPartition,ipoib:0x123456=full,0x3456789034=limi;\n");
}

void TestPartitionsConf::roundTrip()
{
    QFETCH(QByteArray, text);
    const auto first = readPartitionsConf(text, QStringLiteral("in.conf"));
    QVERIFY2(first.ok(), qPrintable(first.ok() ? QString() : first.error().toString()));
    const QByteArray written = writePartitionsConf(first->partitions);
    const auto second = readPartitionsConf(written, QStringLiteral("out.conf"));
    QVERIFY2(second.ok(), qPrintable(second.ok() ? QString() : second.error().toString() + QLatin1Char('\n') + QString::fromUtf8(written)));
    QCOMPARE(describe(second->partitions), describe(first->partitions));
    QCOMPARE(second->partitions.size(), first->partitions.size());
    for (std::size_t i = 0; i < first->partitions.size(); ++i) {
        QCOMPARE(second->partitions[i].policy, first->partitions[i].policy);
        QVERIFY(second->partitions[i].members == first->partitions[i].members);
        QVERIFY(second->partitions[i].ipoibFlags == first->partitions[i].ipoibFlags);
    }
    // Written files carry no hazards: only the "no members" note may remain.
    for (const QString &w : second->warnings)
        QVERIFY2(w.contains(QStringLiteral("has no members")) || w.contains(QStringLiteral("\"both\""))
                     || w.contains(QStringLiteral("defmember=both")),
                 qPrintable(w));
    // Writing is stable.
    QCOMPARE(writePartitionsConf(second->partitions), written);
}

void TestPartitionsConf::writerOutputIsStandardSyntax()
{
    Partition p;
    p.name = QStringLiteral("bad,name:with;chars#");
    p.pkey = 0x12;
    p.policy = IsolationPolicy::Physical;
    PartitionMember m;
    m.guid = 0x0002c90300001234;
    m.membership = Membership::Full;
    p.members = {m};  // membership differs from defmember without being explicit: written anyway
    const QByteArray written = writePartitionsConf({p});
    QVERIFY2(written.contains("0x0002c90300001234=full"), written.constData());
    QVERIFY2(written.contains("# weft: policy=phy-isolation\n"), written.constData());
    QVERIFY2(!written.contains("phy-isolation,") && !written.contains("policy=phy-isolation :"), written.constData());
    const auto back = readPartitionsConf(written, QStringLiteral("w.conf"));
    QVERIFY2(back.ok(), written.constData());
    QCOMPARE(back->partitions.size(), std::size_t(1));
    QCOMPARE(back->partitions[0].name, QStringLiteral("bad_name_with_chars_"));
    QCOMPARE(back->partitions[0].members[0].membership, Membership::Full);
    QCOMPARE(back->partitions[0].policy, IsolationPolicy::Physical);
}

// Partitions without a P_Key are found again by name. Names that differ only in characters the
// writer replaces (here a backspace and a form feed, both written as '_') must not merge on the
// way back; found by fuzz_partitions (tests/fuzz/regressions/partitions/fuzz-names-collide.conf).
void TestPartitionsConf::namesWithoutPKeyStayDistinct()
{
    const QByteArray text("tenant\bA, defmember=full : 0x123451 ;\n"
                          "tenant\fA : 0x123452 ;\n"
                          "tenant_A_2 : 0x123453 ;\n"
                          "keyed\x01" "A=0x10 : 0x123454 ;\n"
                          "keyed\x7f" "A : 0x123455 ;\n");
    const auto first = readPartitionsConf(text, QStringLiteral("in.conf"));
    QVERIFY2(first.ok(), qPrintable(first.ok() ? QString() : first.error().toString()));
    QCOMPARE(first->partitions.size(), std::size_t(5));
    const QByteArray written = writePartitionsConf(first->partitions);
    const auto second = readPartitionsConf(written, QStringLiteral("out.conf"));
    QVERIFY2(second.ok(), written.constData());
    QCOMPARE(second->partitions.size(), first->partitions.size());
    QSet<QString> names;
    for (std::size_t i = 0; i < first->partitions.size(); ++i) {
        QVERIFY(second->partitions[i].members == first->partitions[i].members);
        names.insert(second->partitions[i].name);
    }
    QCOMPARE(names.size(), 5);
    QCOMPARE(second->partitions[0].name, QStringLiteral("tenant_A"));
    QCOMPARE(writePartitionsConf(second->partitions), written);
}

void TestPartitionsConf::explicitDefault()
{
    Partition a;
    a.name = QStringLiteral("A");
    a.pkey = 0x1;
    const auto withDefault = withExplicitDefault({a});
    QCOMPARE(withDefault.size(), std::size_t(2));
    const auto reread = readPartitionsConf(writePartitionsConf(withDefault), QStringLiteral("d.conf"));
    QVERIFY(reread.ok());
    QCOMPARE(describe(reread->partitions.front()), QStringLiteral("Default=0x7fff:ALL=L! SELF=F!"));

    Partition def;
    def.name = QStringLiteral("Default");
    def.pkey = 0x7fff;
    QCOMPARE(withExplicitDefault({a, def}).size(), std::size_t(2));
}

void TestPartitionsConf::noPartitionsIsAFileOpenSmTakes()
{
    // OpenSM takes a file that defines no partition for one in error and makes every port a full
    // member of 0x7fff: none is written as the Default rule it applies to a file without one.
    const QByteArray text = writePartitionsConf({});
    const auto reread = readPartitionsConf(text, QStringLiteral("none.conf"));
    QVERIFY2(reread.ok(), text.constData());
    QCOMPARE(reread->partitions.size(), std::size_t(1));
    QCOMPARE(describe(reread->partitions.front()), QStringLiteral("Default=0x7fff:ALL=L! SELF=F!"));
}

void TestPartitionsConf::counts()
{
    const auto result = readPartitionsConf(
        "A=0x1, defmember=full : ALL, SELF, 0x1, 0x2=limited, 0x3=both, 0x4 ;", QStringLiteral("c.conf"));
    QVERIFY(result.ok());
    const PartitionMemberCounts c = countMembers(result->partitions[0]);
    QCOMPARE(c.keywords, 2);
    QCOMPARE(c.full, 3);     // 0x1, 0x3 (both), 0x4
    QCOMPARE(c.limited, 2);  // 0x2, 0x3 (both)
    QCOMPARE(countMembers(result->partitions[0], Membership::Full), 2);
    QCOMPARE(countMembers(result->partitions[0], Membership::Both), 1);
}

void TestPartitionsConf::infoPrintsWarningsOnStandardError()
{
    // `weft info` keeps standard output for the summary: a script reading it must not get
    // warnings mixed in.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("partitions.conf"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("A=0x1, mtu=6 : ALL ;\n");
    file.close();
    const test::Run r = test::runWeft({QStringLiteral("info"), path});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY2(r.out.contains("partitions: 1"), r.out.constData());
    QVERIFY2(!r.out.contains("warning"), r.out.constData());
    QVERIFY2(r.err.contains("warning: " + path.toUtf8() + ":1: mtu=6 is not an IBTA mtu code"), r.err.constData());

    // Warnings that repeat by kind are one line with the count and examples; --verbose lists all.
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write("A=0x1, f1, f2, f3, f4, f5 : ALL ;\nB=0x2, mtu=6 : ALL ;\n");
    file.close();
    const test::Run summary = test::runWeft({QStringLiteral("info"), path});
    QVERIFY2(summary.exitCode == 0, summary.err.constData());
    const QList<QByteArray> lines = summary.err.trimmed().split('\n');
    QCOMPARE(lines.size(), 2);
    QVERIFY2(lines[0].startsWith("warning: 5 alike (weft info --verbose lists them all), e.g. " + path.toUtf8()
                                 + ":1: unknown partition flag \"f1\"; OpenSM ignores it | "),
             lines[0].constData());
    QVERIFY2(lines[0].contains("\"f3\"") && !lines[0].contains("\"f4\""), lines[0].constData());
    QVERIFY2(lines[1].contains(":2: mtu=6"), lines[1].constData());
    const test::Run verbose = test::runWeft({QStringLiteral("info"), QStringLiteral("--verbose"), path});
    QCOMPARE(verbose.err.trimmed().split('\n').size(), 6);
    QVERIFY(verbose.err.contains("\"f5\""));
}

// A later definition of a P_Key, merged by OpenSM into the first, brings an IP group at its own
// mtu: OpenSM takes the group (its mtu is that definition's). Written back, the group keeps a
// definition with its mtu, so the file read again holds it and writes the same text.
void TestPartitionsConf::groupUnderALaterDefinitionSurvives_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addRow("same P_Key") << QByteArray("Tenant=0x0001, ipoib, defmember=full :\n"
                                              "    0x0002c90000000002 ;\n"
                                              "Tenant=0x0001, ipoib, mtu=5 :\n"
                                              "    mgid=ff12:401b::1, mtu=5\n"
                                              "    0x0002c90000000004 ;\n");
    // Without a P_Key the later definition is merged by name, and the generated P_Key (0x0001,
    // the first free one) is the one the group's P_Key bits may name.
    QTest::addRow("same name, no P_Key") << QByteArray("Tenant, ipoib, defmember=full :\n"
                                                       "    0x0002c90000000002 ;\n"
                                                       "Tenant, ipoib, mtu=5 :\n"
                                                       "    mgid=ff12:401b:8001::1, mtu=5\n"
                                                       "    0x0002c90000000004 ;\n");
    // Neither name nor P_Key: the generated 0x0001 is merged with the later definition by P_Key;
    // written back without a P_Key, the later definition can find the first only by a name, so
    // the writer gives it one (found by fuzz_partitions,
    // tests/fuzz/regressions/partitions/fuzz-nameless-merged-ip-group.conf).
    QTest::addRow("no name, no P_Key") << QByteArray(" , ipoib, defmember=full :\n"
                                                     "    0x0002c90000000002 ;\n"
                                                     "Tenant=0x0001, ipoib, mtu=5 :\n"
                                                     "    mgid=ff12:401b::1, mtu=5\n"
                                                     "    0x0002c90000000004 ;\n");
}

void TestPartitionsConf::groupUnderALaterDefinitionSurvives()
{
    QFETCH(QByteArray, text);
    const auto first = readPartitionsConf(text, QStringLiteral("partitions.conf"));
    QVERIFY(first.ok());
    QCOMPARE(first->partitions.size(), std::size_t(1));
    QCOMPARE(first->partitions[0].multicastGroups.size(), std::size_t(1));
    const QByteArray written = writePartitionsConf(first->partitions);
    const auto again = readPartitionsConf(written, QStringLiteral("written.conf"));
    QVERIFY(again.ok());
    QCOMPARE(again->partitions.size(), std::size_t(1));
    QCOMPARE(again->partitions[0].multicastGroups.size(), std::size_t(1));
    QCOMPARE(again->partitions[0].multicastGroups[0].flags.mtu, first->partitions[0].multicastGroups[0].flags.mtu);
    QCOMPARE(again->partitions[0].ipoibFlags.mtu, first->partitions[0].ipoibFlags.mtu);
    QCOMPARE(again->partitions[0].members.size(), std::size_t(2));
    for (const QString &w : again->warnings)
        QVERIFY2(!w.contains(QStringLiteral("skipped")), qPrintable(w));
    QCOMPARE(writePartitionsConf(again->partitions), written);
}

QTEST_GUILESS_MAIN(TestPartitionsConf)
#include "tst_partitionsconf.moc"
