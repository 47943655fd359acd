// What real clusters and their tools hand an operator: ibnetdiscover -g output, ibdiagnet's
// ibnetdiscover-style database and its .lst link listing, OpenSM's options file; fabrics with a
// SHArP Aggregation Node on every switch; LID-less designs; and what a routing leaves unreachable.

#include "DeliveryCheck.h"
#include "DirectorFabric.h"
#include "EffectiveBisection.h"
#include "FabricGenerator.h"
#include "FabricSummary.h"
#include "FileFormat.h"
#include "FluidThroughput.h"
#include "IbdiagnetLinkList.h"
#include "LidAssignment.h"
#include "Metrics.h"
#include "NodeRoles.h"
#include "ProjectFile.h"
#include "RoutingEngine.h"
#include "SafeFile.h"
#include "TopologyFile.h"
#include "Validation.h"

#include <set>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace weft;

namespace {

QByteArray testFile(const QString &name)
{
    QFile f(QFINDTESTDATA(QStringLiteral("data/topology/") + name));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

// A generated fat-tree (one spare port per switch) with a "Mellanox Technologies Aggregation
// Node" CA on the spare port of every switch at `lowestLevel` or below (0: every switch, the
// roots included; the leaves are at levels - 1), written and read back as ibnetdiscover output:
// the shape of every SHArP-enabled NVIDIA fabric.
struct SharpFabric
{
    GeneratedFabric tree;
    Fabric fabric;
    std::size_t aggregationNodes = 0;
};

SharpFabric sharpFabric(GeneratorOptions options, int lowestLevel = 0)
{
    SharpFabric s;
    Result<GeneratedFabric> generated = generateFabric(options);
    if (!generated)
        return s;
    s.tree = std::move(generated).value();
    const Fabric &f = s.tree.fabric;
    QByteArray text = writeIbnetdiscover(f);
    Lid next = Lid(f.maxLid() + 1);
    for (NodeIndex sw : f.switches()) {
        if (s.tree.nodeLevel[std::size_t(sw)] < lowestLevel)
            continue;
        const Node &n = f.node(sw);
        const Guid guid = 0x0002c92000000000ULL + Guid(s.aggregationNodes) * 16;
        text += QStringLiteral("\nvendid=0x2c9\ndevid=0xcf09\ncaguid=0x%1\nCa\t1 \"H-%2\"\t\t# \"Mellanox Technologies Aggregation Node\"\n"
                               "[1](%3) \t\"%4\"[%5]\t\t# lid %6 lmc 0 \"%7\" lid %8 4xEDR\n")
                    .arg(guid, 0, 16)
                    .arg(guid, 16, 16, QLatin1Char('0'))
                    .arg(guid + 1, 0, 16)
                    .arg(n.name)
                    .arg(n.portCount)
                    .arg(next++)
                    .arg(n.description)
                    .arg(f.nodeLid(sw))
                    .toUtf8();
        ++s.aggregationNodes;
    }
    Result<Fabric> read = readTopology(text, QStringLiteral("sharp.topo"));
    if (read)
        s.fabric = std::move(read).value();
    return s;
}

SharpFabric sharpFabric(int arity, int levels, int lowestLevel = 0)
{
    GeneratorOptions options;
    options.arity = arity;
    options.levels = levels;
    options.switchPorts = 2 * arity + 1;
    return sharpFabric(options, lowestLevel);
}

// Every compute node a full member and every other end node a limited one: validation then
// counts the pairs with a compute node as pairs that may talk, and service-to-service pairs apart.
Tenancy computeAndOthers(const Fabric &fabric)
{
    Partition p;
    p.name = QStringLiteral("all");
    p.pkey = 0x7fff;
    for (NodeIndex n : fabric.endNodes()) {
        const Node &node = fabric.node(n);
        PartitionMember m;
        m.guid = fabric.port(node.firstPort + 1).guid;
        m.membership = node.role == NodeRole::Compute ? Membership::Full : Membership::Limited;
        m.explicitMembership = true;
        p.members.push_back(m);
    }
    Tenancy t;
    t.partitions.push_back(p);
    return t;
}

struct Run
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

// The weft command, as ctest names it in WEFT_BINARY.
Run runWeft(const QStringList &args)
{
    QProcess p;
    p.start(qEnvironmentVariable("WEFT_BINARY"), args);
    Run r;
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.exitCode = p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

}  // namespace

class TestRealFabrics : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void groupedOutputKeepsChassisAsGroups()
    {
        const QByteArray data = testFile(QStringLiteral("grouped-g.topo"));
        QVERIFY(!data.isEmpty());
        QCOMPARE(detectFileFormat(data), FileFormat::Topology);
        TopologyFileInfo info;
        Result<Fabric> f = readTopology(data, QStringLiteral("grouped-g.topo"), &info);
        QVERIFY2(f.ok(), f.ok() ? "" : qPrintable(f.error().toString()));
        QCOMPARE(info.form, QStringLiteral("ibnetdiscover -g"));
        QCOMPARE(f->switches().size(), std::size_t(4));
        QCOMPARE(f->links().size(), std::size_t(8));
        QCOMPARE(f->nodeGroups().size(), std::size_t(1));
        const NodeGroup &chassis = f->nodeGroups().front();
        QCOMPARE(chassis.name, QStringLiteral("Chassis 1"));
        QCOMPARE(chassis.guid, Guid(0x8f104004123a0));
        QCOMPARE(chassis.nodes.size(), std::size_t(2));
        for (NodeIndex n : chassis.nodes)
            QCOMPARE(f->node(n).description, QStringLiteral("ISR9288 Voltaire sFB-12D"));
        // Nodes after "Non-Chassis Nodes" are in no group.
        const NodeIndex leaf = f->nodeByGuid(0x2c90000000002);
        QVERIFY(leaf != kNoIndex);
        QVERIFY(std::find(chassis.nodes.begin(), chassis.nodes.end(), leaf) == chassis.nodes.end());
    }

    void ibdiagnetDatabaseTakesTheNodeGuidFromTheId()
    {
        const QByteArray data = testFile(QStringLiteral("ibdiagnet-db.topo"));
        QVERIFY(!data.isEmpty());
        TopologyFileInfo info;
        Result<Fabric> f = readTopology(data, QStringLiteral("ibdiagnet-db.topo"), &info);
        QVERIFY2(f.ok(), f.ok() ? "" : qPrintable(f.error().toString()));
        QCOMPARE(info.form, QStringLiteral("ibdiagnet"));
        QCOMPARE(info.toolVersion, QStringLiteral("ibdiagnet 2.9.0"));
        // Both director switches say switchguid=<the system GUID>; each is known by its own.
        const NodeIndex s1 = f->nodeByGuid(0xb8599f0300aa0001);
        const NodeIndex s2 = f->nodeByGuid(0xb8599f0300aa0002);
        QVERIFY(s1 != kNoIndex && s2 != kNoIndex);
        QCOMPARE(f->node(s1).systemImageGuid, Guid(0xb8599f0300aa0000));
        QCOMPARE(f->links().size(), std::size_t(10));
        const RoleCounts roles = countRoles(*f);
        QCOMPARE(roles.compute, std::size_t(3));
        QCOMPARE(roles.service, std::size_t(2));
        QCOMPARE(roles.io, std::size_t(1));
        const FabricSummary s = summarize(*f);
        QCOMPARE(s.tiers, 2);
    }

    // A label in parentheses is one only when it is the port's own number or a split port's
    // "N/M"; anything else after a port is its GUID, as before.
    void portLabelsAreNotGuids()
    {
        const QByteArray data = "switchguid=0x10\nSwitch\t4 \"S-0000000000000010\"\t\t# \"sw\" base port 0 lid 1 lmc 0\n"
                                "[1](1)\t\"H-0000000000000020\"[1](99) \t\t# \"host\" lid 2 4xSDR\n"
                                "[3](2/1)\t\"H-0000000000000030\"[1](98) \t\t# \"host b\" lid 3 4xSDR\n\n"
                                "caguid=0x20\nCa\t1 \"H-0000000000000020\"\t\t# \"host\"\n[1]\t\"S-0000000000000010\"[1]\n\n"
                                "caguid=0x30\nCa\t1 \"H-0000000000000030\"\t\t# \"host b\"\n[1]\t\"S-0000000000000010\"[3]\n";
        Result<Fabric> f = readTopology(data, QStringLiteral("labels.topo"));
        QVERIFY2(f.ok(), f.ok() ? "" : qPrintable(f.error().toString()));
        // The CAs are stated only from the switch: their port GUIDs come from these lines.
        QVERIFY(f->portByGuid(0x99) != kNoIndex);
        QVERIFY(f->portByGuid(0x98) != kNoIndex);
        QCOMPARE(f->links().size(), std::size_t(2));
    }

    void ibdiagnetLinkListIsRead()
    {
        const QByteArray data = testFile(QStringLiteral("ibdiagnet2.lst"));
        QVERIFY(!data.isEmpty());
        QVERIFY(isIbdiagnetLinkList(data));
        QCOMPARE(detectFileFormat(data), FileFormat::Topology);
        TopologyFileInfo info;
        Result<Fabric> f = readTopology(data, QStringLiteral("ibdiagnet2.lst"), &info);
        QVERIFY2(f.ok(), f.ok() ? "" : qPrintable(f.error().toString()));
        QCOMPARE(info.form, QStringLiteral("ibdiagnet .lst"));
        QCOMPARE(f->switches().size(), std::size_t(3));
        QCOMPARE(f->channelAdapterCount(), std::size_t(3));
        QCOMPARE(f->links().size(), std::size_t(5));  // the DWN link is left out
        const NodeIndex spine = f->nodeByGuid(0x0002c90300688830);
        QVERIFY(spine != kNoIndex);
        QCOMPARE(int(f->node(spine).portCount), 0x24);  // hexadecimal, as every number there
        QCOMPARE(f->nodeLid(spine), Lid(1));
        const NodeIndex leaf1 = f->nodeByGuid(0x0002c90300688840);
        const Port &up = f->port(f->portOf(leaf1, 0x13));
        QVERIFY(up.remote != kNoIndex);
        QCOMPARE(f->port(up.remote).node, spine);
        QCOMPARE(up.speed, LinkSpeed::FDR);
        QCOMPARE(int(up.width), 4);
        QCOMPARE(f->node(f->nodeByGuid(0x0002c90300165e60)).description, QStringLiteral("node01 HCA-1"));
        // A CA without a description is named by its id.
        QCOMPARE(f->node(f->nodeByGuid(0x0002c90300177e00)).description, QStringLiteral("H-0002c90300177e00"));
    }

    // A CA port on a link that is not up (DWN, or a state ibdiagnet did not write) takes no LID
    // from the line: ibnetdiscover output, which states only cabled ports, could not carry it,
    // and written and read back the fabric would differ. Found by fuzz_topology
    // (tests/fuzz/regressions/topology/fuzz-lid-on-a-down-link.lst).
    void downLinksLeaveNoLid()
    {
        QFile file(QFINDTESTDATA(QStringLiteral("fuzz/regressions/topology/fuzz-lid-on-a-down-link.lst")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        Result<Fabric> f = readTopology(file.readAll(), QStringLiteral("down.lst"));
        QVERIFY2(f.ok(), f.ok() ? "" : qPrintable(f.error().toString()));
        const NodeIndex node01 = f->nodeByGuid(0x0002c90300165e60);
        const NodeIndex node02 = f->nodeByGuid(0x0002c90300165e70);
        QVERIFY(node01 != kNoIndex && node02 != kNoIndex);
        QCOMPARE(f->port(f->portOf(node01, 1)).remote, kNoIndex);  // its LOG= is no state
        QCOMPARE(f->port(f->portOf(node01, 1)).lid, Lid(0));
        QCOMPARE(f->port(f->portOf(node02, 1)).lid, Lid(6));  // up: its LID stays
        Result<Fabric> again = readTopology(writeIbnetdiscover(*f), QStringLiteral("again.topo"));
        QVERIFY(again.ok());
        for (const Node &n : f->nodes()) {
            const NodeIndex there = again->nodeByGuid(n.guid);
            QVERIFY(there != kNoIndex);
            for (int p = 0; p <= n.portCount; ++p)
                QCOMPARE(again->port(again->portOf(there, p)).lid, f->port(f->portOf(f->nodeByGuid(n.guid), p)).lid);
        }
        QCOMPARE(writeIbnetdiscover(*again), writeIbnetdiscover(*f));
    }

    // Nor a port GUID: the CA whose one cable is down (here first in the file, so the written
    // topology's "Initiated from" line names its port) keeps the GUID its node GUID gives, as
    // the written file read back does. Found by fuzz_topology
    // (tests/fuzz/regressions/topology/fuzz-port-guid-on-a-down-link.lst).
    void downLinksLeaveNoPortGuid()
    {
        QFile file(QFINDTESTDATA(QStringLiteral("fuzz/regressions/topology/fuzz-port-guid-on-a-down-link.lst")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        Result<Fabric> f = readTopology(file.readAll(), QStringLiteral("down.lst"));
        QVERIFY2(f.ok(), f.ok() ? "" : qPrintable(f.error().toString()));
        const QByteArray written = writeIbnetdiscover(*f);
        Result<Fabric> again = readTopology(written, QStringLiteral("again.topo"));
        QVERIFY(again.ok());
        QCOMPARE(writeIbnetdiscover(*again), written);
        QCOMPARE(f->portByGuid(0x0002c90300165e61), kNoIndex);  // the down port's GUID in the line
    }

    void refusalsNameFileAndLine_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("cause");
        QTest::addRow("bad chassis header") << QByteArray("#\nChassis one\n") << 2 << QStringLiteral("chassis number");
        QTest::addRow("chassis guid unreadable") << QByteArray("Chassis 2 (uid 0x5)\n") << 1 << QStringLiteral("chassis header");
        QTest::addRow("lst bad port count") << QByteArray("{ SW Ports:zz SystemGUID:1 NodeGUID:1 PortGUID:1 VenID:2C9 DevID:C738 Rev:0 LID:0001 PN:01 } "
                                                          "{ SW Ports:24 SystemGUID:2 NodeGUID:2 PortGUID:2 VenID:2C9 DevID:C738 Rev:0 LID:0002 PN:01 } PHY=4x LOG=ACT SPD=14\n")
                                            << 1 << QStringLiteral("port count");
        QTest::addRow("lst port past the count") << QByteArray("# header\n{ SW Ports:04 SystemGUID:1 NodeGUID:1 PortGUID:1 VenID:2C9 DevID:C738 Rev:0 LID:0001 PN:09 } "
                                                               "{ SW Ports:24 SystemGUID:2 NodeGUID:2 PortGUID:2 VenID:2C9 DevID:C738 Rev:0 LID:0002 PN:01 } PHY=4x LOG=ACT SPD=14\n")
                                                 << 2 << QStringLiteral("ports 1-4");
        QTest::addRow("lst unknown speed") << QByteArray("{ SW Ports:04 SystemGUID:1 NodeGUID:1 PortGUID:1 VenID:2C9 DevID:C738 Rev:0 LID:0001 PN:01 } "
                                                         "{ SW Ports:24 SystemGUID:2 NodeGUID:2 PortGUID:2 VenID:2C9 DevID:C738 Rev:0 LID:0002 PN:01 } PHY=4x LOG=ACT SPD=7\n")
                                           << 1 << QStringLiteral("unknown link speed");
        QTest::addRow("lst node changes type") << QByteArray("{ SW Ports:04 SystemGUID:1 NodeGUID:1 PortGUID:1 VenID:2C9 DevID:C738 Rev:0 LID:0001 PN:01 } "
                                                             "{ SW Ports:24 SystemGUID:2 NodeGUID:2 PortGUID:2 VenID:2C9 DevID:C738 Rev:0 LID:0002 PN:01 } PHY=4x LOG=ACT SPD=14\n"
                                                             "{ CA Ports:04 SystemGUID:1 NodeGUID:1 PortGUID:5 VenID:2C9 DevID:C738 Rev:0 LID:0005 PN:02 } "
                                                             "{ SW Ports:24 SystemGUID:2 NodeGUID:2 PortGUID:2 VenID:2C9 DevID:C738 Rev:0 LID:0002 PN:02 } PHY=4x LOG=ACT SPD=14\n")
                                               << 2 << QStringLiteral("line 1");
    }

    void refusalsNameFileAndLine()
    {
        QFETCH(QByteArray, data);
        QFETCH(int, line);
        QFETCH(QString, cause);
        Result<Fabric> f = readTopology(data, QStringLiteral("site.topo"));
        QVERIFY(!f.ok());
        QCOMPARE(f.error().file, QStringLiteral("site.topo"));
        QCOMPARE(f.error().line, line);
        QVERIFY2(f.error().message.contains(cause), qPrintable(f.error().message));
    }

    void openSmOptionsFileIsNotAPartitionsConf()
    {
        const QByteArray options = "#\n# DEVICE ATTRIBUTES OPTIONS\n#\n# The port GUID on which the OpenSM is running\nguid 0x0000000000000000\n\n"
                                   "# M_Key value sent to all ports qualifying all Set(PortInfo)\nm_key 0x0000000000000000\n"
                                   "routing_engine ftree,updn\npartition_config_file /etc/opensm/partitions.conf\n";
        QCOMPARE(detectFileFormat(options), FileFormat::OpenSmOptions);
        QCOMPARE(detectFileFormat("Default=0x7fff, ipoib : ALL=full;\n"), FileFormat::PartitionsConf);
    }

    void aggregationNodesMakeNoLeaves()
    {
        const SharpFabric s = sharpFabric(4, 3);
        QVERIFY(!s.fabric.nodes().empty());
        QCOMPARE(s.aggregationNodes, s.tree.fabric.switches().size());
        QCOMPARE(countRoles(s.fabric).service, s.aggregationNodes);
        FabricSummary summary = summarize(s.fabric);
        QCOMPARE(summary.tiers, 3);
        QCOMPARE(summary.switchesPerTier, (std::vector<std::size_t>{16, 16, 16}));
        // The same fabric with every node taken as a compute node: one level, as before roles.
        NodeRoleChoices allCompute;
        for (NodeIndex n : s.fabric.endNodes())
            allCompute[s.fabric.node(n).guid] = NodeRole::Compute;
        Result<Fabric> flat = fabricWithRoles(s.fabric, allCompute);
        QVERIFY(flat.ok());
        QCOMPARE(summarize(*flat).tiers, 1);
        // And roles set by OpenSM's files win over what is recognised.
        std::vector<Guid> io{s.fabric.port(s.fabric.node(s.fabric.endNodes().front()).firstPort + 1).guid};
        Result<Fabric> withIo = fabricWithRoles(s.fabric, roleChoicesFromGuidFiles(s.fabric, {}, io));
        QVERIFY(withIo.ok());
        QCOMPARE(withIo->node(withIo->endNodes().front()).role, NodeRole::IO);
        QCOMPARE(summarize(*withIo).tiers, 3);
    }

    // The size of the fabric of issue 43 (174 switches there): a 3-level tree of 12-port
    // switches, 180 switches and 432 hosts, with an Aggregation Node on every switch.
    void aggregationNodesOnAFabricOfRealSize()
    {
        GeneratorOptions options;
        options.shape = FabricShapeKind::SwitchRadix;
        options.radix = 12;
        options.levels = 3;
        options.switchPorts = 13;
        const SharpFabric s = sharpFabric(options);
        QCOMPARE(s.fabric.switches().size(), std::size_t(180));
        QCOMPARE(s.aggregationNodes, std::size_t(180));
        const FabricSummary summary = summarize(s.fabric);
        QCOMPARE(summary.tiers, 3);
        QCOMPARE(summary.switchesPerTier, (std::vector<std::size_t>{72, 72, 36}));
        QCOMPARE(summary.serviceNodes, std::size_t(180));
        Result<Routing> ftree = routeFabric(QStringLiteral("ftree"), s.fabric, {});
        QVERIFY2(ftree.ok(), ftree.ok() ? "" : qPrintable(ftree.error().toString()));
        Result<Routing> updn = routeFabric(QStringLiteral("updn"), s.fabric, {});
        QVERIFY2(updn.ok(), updn.ok() ? "" : qPrintable(updn.error().toString()));
        const Tenancy tenancy = computeAndOthers(s.fabric);
        for (const Routing *r : {&*ftree, &*updn}) {
            const ValidationResult v = validateRouting(s.fabric, tenancy, r->tables);
            QCOMPARE(v.unreachablePartitionPairs, std::uint64_t(0));  // every pair with a compute node
            QCOMPARE(v.loops, std::size_t(0));
        }
    }

    // Roles set in the project are kept by the project file and given to the fabric.
    void projectKeepsNodeRoles()
    {
        const SharpFabric s = sharpFabric(2, 2);
        QVERIFY(!s.fabric.nodes().empty());
        Project project;
        const Node &first = s.fabric.node(s.fabric.endNodes().front());
        project.nodeRoles[first.guid] = NodeRole::IO;
        Result<Project> back = readProject(writeProject(project), QStringLiteral("p.weft"));
        QVERIFY2(back.ok(), back.ok() ? "" : qPrintable(back.error().toString()));
        QCOMPARE(back->nodeRoles.size(), std::size_t(1));
        QCOMPARE(back->nodeRoles.at(first.guid), NodeRole::IO);
        Result<Fabric> withRoles = fabricWithRoles(s.fabric, back->nodeRoles);
        QVERIFY(withRoles.ok());
        QCOMPARE(withRoles->node(withRoles->nodeByGuid(first.guid)).role, NodeRole::IO);
        // A role that is none of the three is refused, naming where.
        QByteArray bad = writeProject(project);
        bad.replace("\"io\"", "\"storage\"");
        Result<Project> refused = readProject(bad, QStringLiteral("p.weft"));
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error().message.contains(QStringLiteral("node_roles[0].role")), qPrintable(refused.error().toString()));
    }

    // What is recognised as a service node stays narrow: a vSwitch's PF and VFs share its system
    // image GUID and are hosts; generated hosts are compute nodes.
    void hostsStayComputeNodes()
    {
        GeneratorOptions options;
        options.arity = 2;
        options.levels = 2;
        options.hypervisors = true;
        options.vfsPerHypervisor = 2;
        Result<GeneratedFabric> g = generateFabric(options);
        QVERIFY(g.ok());
        const RoleCounts roles = countRoles(g->fabric);
        QCOMPARE(roles.service, std::size_t(0));
        QCOMPARE(roles.io, std::size_t(0));
        QCOMPARE(roles.compute, g->fabric.endNodes().size());
    }

    void enginesRouteEveryComputePairWithAggregationNodes_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<int>("lowestLevel");
        for (const char *engine : {"updn", "ftree", "minhop"}) {
            QTest::addRow("%s, AN on every switch", engine) << QString::fromLatin1(engine) << 0;
            QTest::addRow("%s, AN below the roots", engine) << QString::fromLatin1(engine) << 1;
            QTest::addRow("%s, AN on the leaves", engine) << QString::fromLatin1(engine) << 2;
        }
    }

    void enginesRouteEveryComputePairWithAggregationNodes()
    {
        QFETCH(QString, engine);
        QFETCH(int, lowestLevel);
        const SharpFabric s = sharpFabric(4, 3, lowestLevel);
        QVERIFY(!s.fabric.nodes().empty());
        Result<Routing> routing = routeFabric(engine, s.fabric, {});
        QVERIFY2(routing.ok(), routing.ok() ? "" : qPrintable(routing.error().toString()));
        const Tenancy tenancy = computeAndOthers(s.fabric);
        const DeliveryCheck check = checkDelivery(s.fabric, tenancy, routing->tables);
        QCOMPARE(check.loops, std::size_t(0));
        // Every pair with a compute node in it arrives: validation counts them as pairs that may talk.
        const DeliveryCheck all = checkDelivery(s.fabric, {}, routing->tables);
        const ValidationResult v = validateRouting(s.fabric, tenancy, routing->tables);
        QVERIFY(v.partitionPairs > 0);
        QCOMPARE(v.unreachablePartitionPairs, std::uint64_t(0));
        if (lowestLevel == 2 || engine == QLatin1String("minhop") || engine == QLatin1String("updn")) {
            // Service nodes on the leaves only, no up/down rule, or updn, which gives a service
            // node that up*/down* cannot reach a turn at one switch, deadlock-free: every pair arrives.
            QCOMPARE(all.unreachablePairs, std::uint64_t(0));
            if (engine == QLatin1String("updn")) {
                QVERIFY(!all.creditLoop);
                QCOMPARE(routing->warnings.join(QLatin1Char('\n')).contains(QLatin1String("one turn")), lowestLevel < 2);
            }
        } else {
            // A service node above the leaves cannot be reached by up*/down* from one on another
            // branch (every path goes down, then up): only such pairs are left, and they are
            // said with a count and examples, never silently.
            QVERIFY(all.unreachablePairs > 0);
            QVERIFY(all.unreachablePairs <= std::uint64_t(s.aggregationNodes) * (s.aggregationNodes - 1));
            // Counted apart as pairs of service nodes, and said so.
            QCOMPARE(all.unreachableServicePairs, all.unreachablePairs);
            QVERIFY(!all.warnings().isEmpty());
            QVERIFY(all.warnings().front().startsWith(QLatin1String("unreachable: ")));
            QVERIFY(all.warnings().front().contains(QLatin1String("all between service nodes")));
        }
    }

    // The shape: a director (spines and line cards in one chassis) with leaves below, an
    // Aggregation Node on every switch. Up*/down* has no path between two spines' Aggregation
    // Nodes (down to a line card, then up); updn gives each such entry one turn at one line card,
    // checked deadlock-free, so that every pair arrives, and says what it added.
    void updnReachesEveryPairOfADirectorWithAggregationNodes()
    {
        test::DirectorOptions options;
        options.spines = 6;
        options.lineCards = 6;
        options.externalPorts = 8;
        options.leaves = 24;
        options.hosts = 240;
        Result<Fabric> fabric = readTopology(test::directorTopology(options), QStringLiteral("director.topo"));
        QVERIFY2(fabric.ok(), fabric.ok() ? "" : qPrintable(fabric.error().toString()));
        QVERIFY(countRoles(*fabric).service > 0);
        Result<Routing> routing = routeFabric(QStringLiteral("updn"), *fabric, {});
        QVERIFY2(routing.ok(), routing.ok() ? "" : qPrintable(routing.error().toString()));
        const DeliveryCheck all = checkDelivery(*fabric, {}, routing->tables);
        QCOMPARE(all.unreachablePairs, std::uint64_t(0));
        QCOMPARE(all.loops, std::size_t(0));
        QVERIFY(!all.creditLoop);
        QVERIFY(routing->warnings.join(QLatin1Char('\n')).contains(QLatin1String("one turn, checked deadlock-free")));
        // The entries added are only those up*/down* leaves out: every other entry is updn's.
        int added = 0;
        for (const QString &w : routing->warnings) {
            static const QRegularExpression count(QStringLiteral("updn: (\\d+) entr"));
            if (const QRegularExpressionMatch m = count.match(w); m.hasMatch())
                added = m.captured(1).toInt();
        }
        QCOMPARE(added, options.spines * (options.spines - 1));  // each spine: the other spines' Aggregation Nodes
    }

    // Service nodes are routed and checked, but no traffic pattern sends to them or from them:
    // an Aggregation Node on every switch adds no flow to the predicted load.
    void trafficModelsUseComputeAndIoNodes_data()
    {
        QTest::addColumn<QString>("pattern");
        for (const char *pattern : {"all-to-all", "partition-all-to-all", "uniform-random", "shift:3", "bisection"})
            QTest::addRow("%s", pattern) << QString::fromLatin1(pattern);
    }

    void trafficModelsUseComputeAndIoNodes()
    {
        QFETCH(QString, pattern);
        const SharpFabric s = sharpFabric(4, 3, 0);
        QVERIFY(s.aggregationNodes > 0);
        Result<Routing> routing = routeFabric(QStringLiteral("minhop"), s.fabric, {});
        QVERIFY(routing.ok());
        const std::optional<TrafficModel> model = parseTrafficModel(pattern);
        QVERIFY(model);
        const Metrics m = computeMetrics(s.fabric, {}, routing->tables, *model, 1);
        const std::uint64_t compute = s.fabric.computeNodes().size();
        const std::uint64_t all = s.fabric.endNodes().size();
        QCOMPARE(all, compute + s.aggregationNodes);
        if (model->pattern == TrafficPattern::AllToAll || model->pattern == TrafficPattern::PartitionAllToAll)
            QCOMPARE(m.modelFlows, compute * (compute - 1));
        else if (model->pattern == TrafficPattern::RandomBisection)
            QCOMPARE(m.modelFlows, compute / 2 * 2);
        else
            QCOMPARE(m.modelFlows, compute);
        QCOMPARE(m.undeliveredFlows, std::uint64_t(0));
        // No cable of an Aggregation Node carries a flow, either way; its routes are still counted.
        std::uint64_t serviceRoutes = 0;
        for (const LinkLoad &link : m.links) {
            const NodeIndex from = s.fabric.port(link.from).node, to = s.fabric.port(link.to).node;
            const bool service = s.fabric.node(from).role == NodeRole::Service || s.fabric.node(to).role == NodeRole::Service;
            if (!service)
                continue;
            QCOMPARE(link.flows, std::uint64_t(0));
            QCOMPARE(link.load, 0.0);
            serviceRoutes += link.routes;
        }
        QVERIFY(serviceRoutes > 0);
        // The effective bisection bandwidth halves the same end ports.
        const Result<EffectiveBisection> ebb = EffectiveBisection::prepare(s.fabric, routing->tables, {});
        QVERIFY(ebb.ok());
        QCOMPARE(std::uint64_t(ebb->participantCount()), compute);
        // The fluid model takes the same flows.
        const std::vector<FluidFlow> fluid = modelFlows(s.fabric, {}, *model);
        QCOMPARE(std::uint64_t(fluid.size()), m.modelFlows);
        for (const FluidFlow &f : fluid) {
            QVERIFY(s.fabric.node(s.fabric.port(f.source).node).role != NodeRole::Service);
            QVERIFY(s.fabric.node(s.fabric.port(f.destination).node).role != NodeRole::Service);
        }
    }

    void assignedLidsFollowOpenSmsOrder()
    {
        GeneratorOptions options;
        options.arity = 2;
        options.levels = 2;
        options.assignLids = false;
        Result<GeneratedFabric> g = generateFabric(options);
        QVERIFY(g.ok());
        const Fabric &f = g->fabric;
        QCOMPARE(f.maxLid(), Lid(0));
        QVERIFY(!routeFabric(QStringLiteral("ftree"), f, {}).ok());  // no LIDs, nothing to route

        for (int lmc : {0, 2}) {
            LidAssignmentOptions lids;
            lids.lmc = lmc;
            Result<Fabric> assigned = assignLidsAsOpenSm(f, lids);
            QVERIFY2(assigned.ok(), assigned.ok() ? "" : qPrintable(assigned.error().toString()));
            // The SM's port (the first CA's) first: LID 1, or the first aligned range.
            const NodeIndex firstCa = assigned->endNodes().front();
            const Port &sm = assigned->port(assigned->node(firstCa).firstPort + 1);
            QCOMPARE(int(sm.lid), lmc == 0 ? 1 : 4);
            QCOMPARE(int(sm.lmc), lmc);
            // Every CA port aligned to 2^LMC, every switch one LID, all distinct.
            std::set<Lid> used;
            for (NodeIndex n : assigned->endNodes()) {
                const Port &p = assigned->port(assigned->node(n).firstPort + 1);
                QCOMPARE(int(p.lid) & ((1 << lmc) - 1), 0);
                for (int l = 0; l < (1 << lmc); ++l)
                    QVERIFY(used.insert(Lid(p.lid + l)).second);
            }
            for (NodeIndex n : assigned->switches())
                QVERIFY(used.insert(assigned->nodeLid(n)).second);
            if (lmc == 0) {
                QCOMPARE(used.size(), f.switches().size() + f.endNodes().size());
                QCOMPARE(int(*used.rbegin()), int(used.size()));  // no gaps without an LMC
                Result<Routing> routed = routeFabric(QStringLiteral("ftree"), *assigned, {});
                QVERIFY2(routed.ok(), routed.ok() ? "" : qPrintable(routed.error().toString()));
                const DeliveryCheck check = checkDelivery(*assigned, {}, routed->tables);
                QCOMPARE(check.unreachablePairs, std::uint64_t(0));
                QCOMPARE(check.loops, std::size_t(0));
            }
        }
        LidAssignmentOptions bad;
        bad.lmc = 8;
        QVERIFY(!assignLidsAsOpenSm(f, bad).ok());
    }

    void routingWarningsCountWhatIsUnreachable()
    {
        GeneratorOptions options;
        options.arity = 2;
        options.levels = 2;
        Result<GeneratedFabric> g = generateFabric(options);
        QVERIFY(g.ok());
        Result<Routing> routing = routeFabric(QStringLiteral("minhop"), g->fabric, {});
        QVERIFY(routing.ok());
        const DeliveryCheck clean = checkDelivery(g->fabric, {}, routing->tables);
        QVERIFY(clean.delivers());
        QCOMPARE(clean.pairs, std::uint64_t(4 * 3));
        // Remove one host's LID from every table: three sources cannot reach it.
        ForwardingTables broken = routing->tables;
        const Lid victim = g->fabric.port(g->fabric.node(g->fabric.endNodes().back()).firstPort + 1).lid;
        for (std::size_t s = 0; s < broken.size(); ++s)
            broken.lft(s).clear(victim);
        const DeliveryCheck check = checkDelivery(g->fabric, {}, broken);
        QCOMPARE(check.unreachablePairs, std::uint64_t(3));
        QVERIFY(!check.delivers());
        QCOMPARE(check.warnings().size(), 1);
        QVERIFY2(check.warnings().front().contains(QStringLiteral("3 of 12")), qPrintable(check.warnings().front()));
    }

    void commandsSayWhatTheyRead()
    {
        QVERIFY2(!qEnvironmentVariable("WEFT_BINARY").isEmpty(), "WEFT_BINARY is not set (run through ctest)");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // weft info names the form, the tool's version, the chassis and the roles.
        Run r = runWeft({QStringLiteral("info"), QFINDTESTDATA("data/topology/ibdiagnet-db.topo")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("form: ibdiagnet\n"), r.out.constData());
        QVERIFY2(r.out.contains("tool: ibdiagnet 2.9.0\n"), r.out.constData());
        QVERIFY2(r.out.contains("roles: compute 3, service 2, I/O 1\n"), r.out.constData());
        r = runWeft({QStringLiteral("info"), QFINDTESTDATA("data/topology/grouped-g.topo")});
        QVERIFY2(r.out.contains("form: ibnetdiscover -g\n") && r.out.contains("node groups: 1 (Chassis 1 (2 nodes))"), r.out.constData());

        // An OpenSM options file: engines, plugins, files, and what would defeat a commit.
        const QString conf = dir.filePath(QStringLiteral("opensm.conf"));
        QFile f(conf);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("# The port GUID on which the OpenSM is running\nguid 0x0000000000000000\n"
                "routing_engine ftree,updn\nuse_ucast_cache TRUE\nevent_plugin_name osmeventplugin\n"
                "event_plugin_options (null)\nqos TRUE\nqos_max_vls 8\npartition_config_file /etc/opensm/partitions.conf\n"
                "lfts_file (null)\n");
        f.close();
        r = runWeft({QStringLiteral("info"), conf});
        QVERIFY2(r.exitCode == 0, (r.out + r.err).constData());
        QVERIFY2(r.out.contains("format: OpenSM options\n"), r.out.constData());
        QVERIFY2(r.out.contains("routing engines: ftree,updn\n"), r.out.constData());
        QVERIFY2(r.out.contains("event plugins: osmeventplugin\n"), r.out.constData());
        QVERIFY2(r.out.contains("qos_max_vls 8"), r.out.constData());
        QVERIFY2(r.out.contains("use_ucast_cache is on"), r.out.constData());
        QVERIFY2(r.out.contains("never reads the LFT"), r.out.constData());

        // A LID-less design: refused by ftree, routed once LIDs are assigned, every pair reached.
        const QString design = dir.filePath(QStringLiteral("design.topo"));
        r = runWeft({QStringLiteral("gen"), QStringLiteral("--kary"), QStringLiteral("2"), QStringLiteral("--levels"), QStringLiteral("3"),
                     QStringLiteral("--no-lids"), QStringLiteral("-o"), design});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString lfts = dir.filePath(QStringLiteral("lfts"));
        r = runWeft({QStringLiteral("route"), QStringLiteral("--engine"), QStringLiteral("ftree"), QStringLiteral("--topology"), design,
                     QStringLiteral("--out"), lfts});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("no LID"), r.err.constData());
        const QString withLids = dir.filePath(QStringLiteral("with-lids.topo"));
        r = runWeft({QStringLiteral("convert"), QStringLiteral("--to"), QStringLiteral("ibnetdiscover"), QStringLiteral("--assign-lids"),
                     QStringLiteral("-o"), withLids, design});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = runWeft({QStringLiteral("route"), QStringLiteral("--engine"), QStringLiteral("ftree"), QStringLiteral("--topology"), withLids,
                     QStringLiteral("--out"), lfts, QStringLiteral("--strict")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("unreachable pairs: 0 of 56\n") && r.out.contains("loops: 0\n") && r.out.contains("warnings: 0\n"), r.out.constData());
        // A check against a topology that passes says so.
        r = runWeft({QStringLiteral("info"), lfts, QStringLiteral("--topology"), withLids});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("checked against the topology: "), r.out.constData());
    }

    void routeNamesWhatItLeavesUnreachable()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const SharpFabric s = sharpFabric(2, 3, 1);
        QVERIFY(!s.fabric.nodes().empty());
        const QString topo = dir.filePath(QStringLiteral("sharp.topo"));
        QVERIFY(writeFileAtomically(topo, writeIbnetdiscover(s.fabric), false).ok());
        const QString lfts = dir.filePath(QStringLiteral("lfts"));
        Run r = runWeft({QStringLiteral("route"), QStringLiteral("--engine"), QStringLiteral("ftree"), QStringLiteral("--topology"), topo,
                         QStringLiteral("--out"), lfts});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("warnings: 1\n") && r.out.contains("  unreachable: "), r.out.constData());
        QVERIFY2(!r.out.contains("unreachable pairs: 0 "), r.out.constData());
        // --strict refuses and writes nothing.
        const QString strictLfts = dir.filePath(QStringLiteral("strict-lfts"));
        r = runWeft({QStringLiteral("route"), QStringLiteral("--engine"), QStringLiteral("ftree"), QStringLiteral("--topology"), topo,
                     QStringLiteral("--out"), strictLfts, QStringLiteral("--strict")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--strict") && r.err.contains("unreachable"), r.err.constData());
        QVERIFY(!QFile::exists(strictLfts));
        // The I/O role from OpenSM's io_guid_file is taken, and levels stay 3.
        const QString io = dir.filePath(QStringLiteral("io.guids"));
        QFile f(io);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("# storage\n" + guidText(s.fabric.port(s.fabric.node(s.fabric.endNodes().front()).firstPort + 1).guid).toUtf8() + "\n");
        f.close();
        r = runWeft({QStringLiteral("info"), topo, QStringLiteral("--io-guids"), io});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("roles: compute 7, service ") && r.out.contains(", I/O 1\n") && r.out.contains("levels: 3 "), r.out.constData());
    }

    // The corpus of real files (tests/data/real/MANIFEST): each is read, given OpenSM's LIDs
    // (the engines route LMC 0 only, and ibsim net files have none) and routed with every pair
    // reached and no loop.
    void realFilesReadAndRoute()
    {
        const QString manifestPath = QFINDTESTDATA("data/real/MANIFEST");
        QFile manifest(manifestPath);
        QVERIFY(manifest.open(QIODevice::ReadOnly));
        QStringList files;
        for (const QByteArray &line : manifest.readAll().split('\n'))
            if (!line.isEmpty() && line[0] != '#' && line[0] != ' ')
                files << QString::fromUtf8(line.trimmed());
        QVERIFY(files.size() >= 2);
        const QDir dir = QFileInfo(manifestPath).dir();
        for (const QString &name : files) {
            QFile in(dir.filePath(name));
            QVERIFY2(in.open(QIODevice::ReadOnly), qPrintable(name + QStringLiteral(": listed but missing")));
            const QByteArray data = in.readAll();
            QCOMPARE(detectFileFormat(data), FileFormat::Topology);
            TopologyFileInfo info;
            Result<Fabric> f = readTopology(data, name, &info);
            QVERIFY2(f.ok(), f.ok() ? "" : qPrintable(f.error().toString()));
            QVERIFY(!f->switches().empty() && !f->endNodes().empty());
            Result<Fabric> withLids = assignLidsAsOpenSm(*f);
            QVERIFY2(withLids.ok(), withLids.ok() ? "" : qPrintable(withLids.error().toString()));
            for (const char *engine : {"minhop", "sssp"}) {
                Result<Routing> routing = routeFabric(QString::fromLatin1(engine), *withLids, {});
                QVERIFY2(routing.ok(), qPrintable(name + QStringLiteral(" ") + QLatin1String(engine) + QStringLiteral(": ") + (routing.ok() ? QString() : routing.error().toString())));
                const DeliveryCheck check = checkDelivery(*withLids, {}, routing->tables);
                QVERIFY2(check.delivers(), qPrintable(name + QStringLiteral(": ") + check.warnings().join(QStringLiteral("; "))));
            }
            if (name.startsWith(QLatin1String("rdma-core"))) {
                QCOMPARE(info.form, QStringLiteral("ibnetdiscover -g"));
                QCOMPARE(f->channelAdapterCount(), std::size_t(4));
                QCOMPARE(int(f->port(f->portByGuid(0x8f10403960985)).lmc), 1);
            } else {
                QCOMPARE(info.form, QStringLiteral("ibsim net file"));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestRealFabrics)
#include "tst_real_fabrics.moc"
