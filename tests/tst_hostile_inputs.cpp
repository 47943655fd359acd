// Strings an attacker or a careless operator can put into Weft's model (node descriptions a host
// sets for itself, partition names and mgids from a project file) must never change the
// structure of a file Weft writes: every file kind is written from hostile strings and read back
// with Weft's own reader, and is either refused at the model's boundary with a clear error or
// read back equal (up to the documented sanitising).

#include "FabricCompare.h"
#include "FileFormat.h"
#include "LftDump.h"
#include "PKeyTableFile.h"
#include "PartitionsConf.h"
#include "ProjectFile.h"
#include "TextReader.h"
#include "TopologyFile.h"

#include <QtTest>

using namespace weft;

namespace {

const QString kHostileStrings[] = {
    QStringLiteral("line\nSwitch\t4 \"S-00000000000000ee\"\t\t# \"evil\" base port 0 lid 9 lmc 0"),
    QStringLiteral("cr\rnul") + QChar(0) + QStringLiteral("tab\tend"),
    QStringLiteral("quote \" inside \" twice"),
    QStringLiteral("x enhanced port 0 lid 77 lmc 0 y"),
    QStringLiteral("[1]\t\"S-0000000000000010\"[1]"),
    QStringLiteral("# lid 5 lmc 0 \"other\" lid 3 4xSDR"),
    QStringLiteral("ünïcödé ✓"),
};

// A switch with a host on each port, descriptions (and ibsim ids) taken from the hostile list.
Fabric hostileFabric()
{
    FabricBuilder b;
    FabricBuilder::NodeSpec sw;
    sw.type = NodeType::Switch;
    sw.guid = 0x10;
    sw.portCount = 8;
    sw.name = kHostileStrings[0];
    sw.description = kHostileStrings[3];
    NodeIndex s = kNoIndex;
    if (!b.addNode(sw, &s).isEmpty() || !b.setPortLid(s, 0, 1, 0).isEmpty())
        qFatal("switch refused");
    int port = 1;
    for (const QString &text : kHostileStrings) {
        FabricBuilder::NodeSpec ca;
        ca.type = NodeType::ChannelAdapter;
        ca.guid = 0x100 + Guid(port) * 2;
        ca.portCount = 1;
        ca.name = text + QString::number(port);
        ca.description = text;
        NodeIndex c = kNoIndex;
        const QString e = b.addNode(ca, &c);
        if (!e.isEmpty())
            qFatal("%s", qPrintable(e));
        b.setPortGuid(c, 1, ca.guid + 1);
        b.setPortLid(c, 1, Lid(port + 1), 0);
        b.setPortLink(c, 1, 4, LinkSpeed::QDR);
        b.setPortLink(s, port, 4, LinkSpeed::QDR);
        b.setPortState(c, 1, PortState::Active);
        b.setPortState(s, port, PortState::Active);
        if (const QString m = b.connect(s, port, c, 1); !m.isEmpty())
            qFatal("%s", qPrintable(m));
        ++port;
    }
    Result<Fabric> f = std::move(b).build();
    if (!f)
        qFatal("%s", qPrintable(f.error().toString()));
    return std::move(f).value();
}

PartitionMember guidMember(Guid g, Membership m)
{
    PartitionMember member;
    member.guid = g;
    member.membership = m;
    member.explicitMembership = true;
    return member;
}

// The mgid texts a crafted project could carry to add a partition or members.
const QString kInjectedMgids[] = {
    QStringLiteral("ff12::1, sl=1\nEvil=0x7ffe : ALL=full ;"),
    QStringLiteral("ff12::1 : ALL=full ; Evil=0x2 : ALL=full"),
    QStringLiteral("ff12::2;Evil=0x3:ALL=full;"),
    QStringLiteral("ff12::3,ALL=full"),
    QStringLiteral("ff12::4") + QChar(0) + QStringLiteral(" : ALL=full ;"),
    QStringLiteral("fe80::1"),  // valid IPv6, not multicast: OpenSM skips it
};

}  // namespace

class TestHostileInputs : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void controlCharactersAreCleaned()
    {
        // The cleaning applied to node descriptions from live discovery (LiveFabric).
        QCOMPARE(text::withoutControlCharacters(QStringLiteral("a\nb\rc") + QChar(0) + QStringLiteral("d\te")),
                 QStringLiteral("a b c d e"));
        QCOMPARE(text::withoutControlCharacters(QStringLiteral("ünïcödé ✓ \"q\"")), QStringLiteral("ünïcödé ✓ \"q\""));
    }

    void topologyFilesReadBackEqual_data()
    {
        QTest::addColumn<bool>("ibsim");
        QTest::addRow("ibnetdiscover") << false;
        QTest::addRow("ibsim net") << true;
    }

    void topologyFilesReadBackEqual()
    {
        QFETCH(bool, ibsim);
        const Fabric original = hostileFabric();
        const QByteArray text = ibsim ? writeIbsimNet(original, kNoIndex) : writeIbnetdiscover(original);
        QCOMPARE(detectFileFormat(text), FileFormat::Topology);
        const Result<Fabric> again = readTopology(text, QStringLiteral("hostile.topo"));
        QVERIFY2(again.ok(), again.ok() ? "" : qPrintable(again.error().toString()));
        test::CompareOptions structure;
        structure.descriptions = false;
        structure.linkProperties = true;
        const QString diff = test::compareFabrics(original, *again, structure);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        QCOMPARE(again->nodes().size(), original.nodes().size());  // no node injected
        for (const Node &n : original.nodes()) {
            const NodeIndex read = again->nodeByGuid(n.guid);
            QVERIFY(read != kNoIndex);
            QCOMPARE(again->node(read).description, text::withoutControlCharacters(n.description));
        }
    }

    // Descriptions in a P_Key table file (`weft discover --pkeys`) end at the line's last quote:
    // quotes, newlines and NULs in them change no port, entry or line count.
    void pkeyTablesReadBackEqual()
    {
        const Fabric fabric = hostileFabric();
        Partition everyone;
        everyone.name = QStringLiteral("everyone");
        everyone.pkey = 0x0042;
        for (NodeIndex n : fabric.endNodes())
            everyone.members.push_back(guidMember(fabric.port(fabric.portOf(n, 1)).guid, Membership::Full));
        const PKeyTables tables = computePKeyTables(fabric, {everyone}, PKeyTableOptions{});
        const QByteArray text = "\xEF\xBB\xBF" + writePKeyTables(tables, fabric);
        QCOMPARE(detectFileFormat(text), FileFormat::PKeyTables);
        const Result<PKeyTableListing> listing = readPKeyTableListing(text, QStringLiteral("hostile.pkeys"));
        QVERIFY2(listing.ok(), listing.ok() ? "" : qPrintable(listing.error().toString()));
        QCOMPARE(listing->ports.size(), tables.ports().size());
        for (const ListedPKeyTable &port : listing->ports) {
            const PortIndex p = fabric.portByGuid(port.guid);
            QVERIFY(p != kNoIndex);
            QCOMPARE(port.description, text::withoutControlCharacters(fabric.node(fabric.port(p).node).description));
        }
        const Result<PKeyTables> read = bindPKeyTables(*listing, fabric);
        QVERIFY2(read.ok(), read.ok() ? "" : qPrintable(read.error().toString()));
        QCOMPARE(read->ports().size(), tables.ports().size());
        for (std::size_t i = 0; i < tables.ports().size(); ++i) {
            QCOMPARE(read->ports()[i].port, tables.ports()[i].port);
            QCOMPARE(read->ports()[i].packed, tables.ports()[i].packed);
            QCOMPARE(read->ports()[i].entries, tables.ports()[i].entries);
        }
    }

    void partitionNamesAreWrittenReadably()
    {
        std::vector<Partition> partitions;
        const QString names[] = {
            QStringLiteral("nul") + QChar(0) + QStringLiteral("byte"),
            QStringLiteral("new\nline"),
            QStringLiteral("cr\rname"),
            QStringLiteral("a:b;c,d=e#f"),
            QStringLiteral("Evil=0x7ffe : ALL=full ;"),
            QString(5000, QLatin1Char('n')),
            QString(3000, QChar(0x00e9)),  // two UTF-8 bytes each: past the line limit in bytes
            QStringLiteral("1starts-with-digit"),
        };
        std::uint16_t pkey = 0x10;
        for (const QString &name : names) {
            Partition p;
            p.name = name;
            if (pkey != 0x17)  // one without a P_Key: OpenSM generates it
                p.pkey = pkey;
            ++pkey;
            p.members = {guidMember(0x100 + pkey, Membership::Full)};
            partitions.push_back(p);
        }
        const QByteArray text = writePartitionsConf(partitions);
        const auto read = readPartitionsConf(text, QStringLiteral("partitions.conf"));
        QVERIFY2(read.ok(), read.ok() ? "" : qPrintable(read.error().toString()));
        QCOMPARE(read->partitions.size(), partitions.size());  // nothing split, nothing added
        for (std::size_t i = 0; i < partitions.size(); ++i) {
            const Partition &got = read->partitions[i];
            QVERIFY(got.pkey == partitions[i].pkey);
            QCOMPARE(got.members.size(), std::size_t(1));
            QCOMPARE(got.members[0].guid, partitions[i].members[0].guid);
            QCOMPARE(got.members[0].membership, Membership::Full);
            QVERIFY2(got.name.toUtf8().size() <= 1024, qPrintable(QString::number(got.name.size())));
            for (QChar c : got.name)
                QVERIFY(!QStringLiteral(",:;#=").contains(c) && c.category() != QChar::Other_Control);
        }
        // Sanitising keeps what it can: the same name is written the same way again.
        QCOMPARE(writePartitionsConf(read->partitions), text);
    }

    void mgidCannotInjectPartitionsOrMembers_data()
    {
        QTest::addColumn<QString>("mgid");
        for (const QString &mgid : kInjectedMgids)
            QTest::addRow("%s", qPrintable(QString(mgid).replace(QLatin1Char('\n'), QLatin1String("\\n")).replace(QChar(0), QLatin1String("\\0"))))
                << mgid;
    }

    void mgidCannotInjectPartitionsOrMembers()
    {
        QFETCH(QString, mgid);
        // Through the model: the writer leaves out every mgid OpenSM would not take.
        Partition tenant;
        tenant.name = QStringLiteral("tenant");
        tenant.pkey = 0x10;
        tenant.members = {guidMember(0x101, Membership::Full), guidMember(0x103, Membership::Limited)};
        tenant.multicastGroups = {MulticastGroup{mgid, {}}, MulticastGroup{QStringLiteral("ff12:401b::1"), {}}};
        const QByteArray text = writePartitionsConf({tenant});
        QVERIFY2(!text.contains("Evil"), text.constData());
        const auto read = readPartitionsConf(text, QStringLiteral("partitions.conf"));
        QVERIFY2(read.ok(), read.ok() ? "" : qPrintable(read.error().toString()));
        QCOMPARE(read->partitions.size(), std::size_t(1));
        const Partition &got = read->partitions[0];
        QVERIFY(got.pkey == tenant.pkey);
        QCOMPARE(got.members.size(), std::size_t(2));
        QCOMPARE(got.members[0].guid, Guid(0x101));
        QCOMPARE(got.members[0].membership, Membership::Full);
        QCOMPARE(got.members[1].guid, Guid(0x103));
        QCOMPARE(got.members[1].membership, Membership::Limited);
        QCOMPARE(got.multicastGroups.size(), std::size_t(1));
        QCOMPARE(got.multicastGroups[0].mgid, QStringLiteral("ff12:401b::1"));
        QVERIFY2(read->warnings.isEmpty(), qPrintable(read->warnings.join(QLatin1Char('\n'))));

        // Through a project file: refused at the model's boundary, naming the JSON path.
        Project crafted;
        crafted.tenancy.partitions = {tenant};
        const Result<Project> project = readProject(writeProject(crafted), QStringLiteral("crafted.weft"));
        QVERIFY(!project.ok());
        QCOMPARE(project.error().file, QStringLiteral("crafted.weft"));
        QVERIFY2(project.error().message.startsWith(QStringLiteral("partitions[0].multicast_groups[0].mgid: \"")),
                 qPrintable(project.error().toString()));
        QVERIFY2(project.error().message.contains(QStringLiteral("is not a multicast GID")), qPrintable(project.error().toString()));
        QVERIFY(!project.error().message.contains(QLatin1Char('\n')));
    }

    void projectWithHostileNamesReadsBackEqual()
    {
        Project p;
        Partition part;
        part.name = QStringLiteral("nul") + QChar(0) + QStringLiteral("\n\"};{\"format\":\"x\"");
        part.pkey = 0x22;
        part.members = {guidMember(0x1, Membership::Full)};
        part.multicastGroups = {MulticastGroup{QStringLiteral("ff15::1:2"), {}}};
        p.tenancy.partitions = {part};
        Tenant t;
        t.name = QStringLiteral("tenant\r\n\t\"x\"");
        t.members = {0x1};
        p.tenancy.tenants = {t};
        const QByteArray text = writeProject(p);
        QCOMPARE(detectFileFormat(text), FileFormat::Project);
        const Result<Project> again = readProject(text, QStringLiteral("hostile.weft"));
        QVERIFY2(again.ok(), again.ok() ? "" : qPrintable(again.error().toString()));
        QCOMPARE(again->tenancy.partitions.size(), std::size_t(1));
        QCOMPARE(again->tenancy.partitions[0].name, part.name);
        QCOMPARE(again->tenancy.tenants[0].name, t.name);
        QCOMPARE(writeProject(*again), text);
        // And its partitions.conf holds exactly that one partition.
        const auto conf = readPartitionsConf(writePartitionsConf(again->tenancy.partitions), QStringLiteral("partitions.conf"));
        QVERIFY2(conf.ok(), conf.ok() ? "" : qPrintable(conf.error().toString()));
        QCOMPARE(conf->partitions.size(), std::size_t(1));
        QCOMPARE(conf->partitions[0].members.size(), std::size_t(1));
    }

    void byteOrderMarkIsAcceptedByTheLftReader()
    {
        ForwardingTables tables;
        const int sw = tables.addSwitch(0x10, 1, QStringLiteral("sw"));
        tables.lft(std::size_t(sw)).setPort(1, 0);
        tables.lft(std::size_t(sw)).setPort(2, 3);
        const QByteArray text = writeLftDump(tables);
        const QByteArray withMark = "\xEF\xBB\xBF" + text;
        QCOMPARE(detectFileFormat(withMark), FileFormat::LftDump);
        const Result<ForwardingTables> read = readLftDump(withMark, QStringLiteral("bom.lfts"));
        QVERIFY2(read.ok(), read.ok() ? "" : qPrintable(read.error().toString()));
        QCOMPARE(read->size(), std::size_t(1));
        QCOMPARE(read->at(0).lft.port(2), std::uint8_t(3));
        // The streaming file reader too.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile file(dir.filePath(QStringLiteral("bom.lfts")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("\xEF\xBB\xBF" + text);
        file.close();
        const Result<ForwardingTables> fromFile = readLftDumpFile(file.fileName());
        QVERIFY2(fromFile.ok(), fromFile.ok() ? "" : qPrintable(fromFile.error().toString()));
        QCOMPARE(fromFile->at(0).lft.port(2), std::uint8_t(3));
        const QByteArray partitions = "\xEF\xBB\xBF" "Default=0x7fff : ALL=full ;\n";
        QCOMPARE(detectFileFormat(partitions), FileFormat::PartitionsConf);
    }
};

QTEST_GUILESS_MAIN(TestHostileInputs)
#include "tst_hostile_inputs.moc"
