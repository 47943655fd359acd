// Slurm's topology from the fabric (SlurmTopology.h): host lists compressed as Slurm writes
// them, the names map and its errors, exclusion by role, switch names that stay put, and the
// three forms (tree, block, yaml) on a generated 3-level fat-tree and on real files.

#include "FabricGenerator.h"
#include "FabricSummary.h"
#include "GeneratedFabrics.h"
#include "SlurmTopology.h"
#include "TinyFabric.h"
#include "TopologyFile.h"

#include <QRegularExpression>
#include <QtTest>

#include <map>
#include <set>

using namespace weft;
using weft::test::TinyFabric;

namespace {

const SlurmTopologyOrigin kOrigin{QStringLiteral("topology file test.topo"), QDateTime(QDate(2026, 12, 7), QTime(12, 0), Qt::UTC),
                                  QStringLiteral("0.test")};

// A 4-ary 3-tree (64 hosts described "host 0000".., 48 switches) and a names map "host NNNN" -> nNNNN.
struct ThreeLevel
{
    GeneratedFabric tree;
    SlurmNames names;
};

ThreeLevel threeLevel()
{
    ThreeLevel t;
    t.tree = test::generate({FabricShapeKind::KaryNTree, 4, 3});
    QByteArray map = "# generated hosts\n";
    for (NodeIndex n : t.tree.fabric.endNodes())
        map += "\"" + t.tree.fabric.node(n).description.toUtf8() + "\" n" + t.tree.fabric.node(n).description.mid(5).toUtf8() + '\n';
    Result<SlurmNames> names = readSlurmNames(map, QStringLiteral("names.map"));
    if (!names)
        qFatal("names: %s", qPrintable(names.error().toString()));
    t.names = std::move(names).value();
    return t;
}

// Names written as one line of words.
QStringList words(const char *text)
{
    return QString::fromLatin1(text).split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

// The lines of a written file that are not comments.
QStringList bodyLines(const QByteArray &text)
{
    QStringList lines;
    for (const QString &line : QString::fromUtf8(text).split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        if (!line.startsWith(QLatin1Char('#')))
            lines << line;
    return lines;
}

const SlurmSwitch *findSwitch(const SlurmTopology &t, const QString &name)
{
    for (const SlurmSwitch &s : t.switches)
        if (s.name == name)
            return &s;
    return nullptr;
}

}  // namespace

class TestSlurmTopology : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void compressHostList_data()
    {
        QTest::addColumn<QStringList>("names");
        QTest::addColumn<QString>("expected");
        QTest::addRow("one range with a gap") << words("node03 node01 node02 node04 node07") << QStringLiteral("node[01-04,07]");
        QTest::addRow("one name") << words("login1") << QStringLiteral("login1");
        QTest::addRow("unpadded across a width") << words("n9 n10 n11") << QStringLiteral("n[9-11]");
        QTest::addRow("padded up to the width") << words("n098 n099 n100") << QStringLiteral("n[098-100]");
        QTest::addRow("padding is kept apart") << words("n8 n09 n10") << QStringLiteral("n[8,09-10]");
        QTest::addRow("same number, two widths") << words("n1 n01") << QStringLiteral("n[01,1]");
        QTest::addRow("duplicates dropped") << words("n2 n1 n2") << QStringLiteral("n[1-2]");
        QTest::addRow("prefixes in order") << words("b1 a2 c a1") << QStringLiteral("a[1-2],b1,c");
        QTest::addRow("digits inside the prefix") << words("r1n02 r2n01 r1n01") << QStringLiteral("r1n[01-02],r2n01");
        QTest::addRow("no numbers") << words("beta alpha") << QStringLiteral("alpha,beta");
        QTest::addRow("a name equal to a prefix") << words("node node1 node2") << QStringLiteral("node,node[1-2]");
        QTest::addRow("a number alone") << words("123") << QStringLiteral("123");
    }
    void compressHostList()
    {
        QFETCH(QStringList, names);
        QFETCH(QString, expected);
        QCOMPARE(weft::compressHostList(names), expected);
    }

    void expandHostList_data()
    {
        QTest::addColumn<QString>("list");
        QTest::addColumn<QStringList>("expected");
        QTest::addRow("a range with a gap") << QStringLiteral("node[01-04,07]") << words("node01 node02 node03 node04 node07");
        QTest::addRow("one name") << QStringLiteral("login1") << words("login1");
        QTest::addRow("ranges and names") << QStringLiteral("gpu[1-2],login1,node[08-10]") << words("gpu1 gpu2 login1 node08 node09 node10");
        QTest::addRow("width of the first number") << QStringLiteral("n[098-100]") << words("n098 n099 n100");
        QTest::addRow("unpadded across a width") << QStringLiteral("n[9-11]") << words("n9 n10 n11");
        QTest::addRow("two brackets") << QStringLiteral("r[1-2]n[01-02]") << words("r1n01 r1n02 r2n01 r2n02");
        QTest::addRow("a suffix after the bracket") << QStringLiteral("node[1-2]-ib") << words("node1-ib node2-ib");
        QTest::addRow("duplicates once") << QStringLiteral("n[1-3],n2") << words("n1 n2 n3");
        QTest::addRow("one number in brackets") << QStringLiteral("node[5]") << words("node5");
        QTest::addRow("empty") << QString() << QStringList();
    }
    void expandHostList()
    {
        QFETCH(QString, list);
        QFETCH(QStringList, expected);
        const Result<QStringList> names = weft::expandHostList(list, QStringLiteral("SLURM_JOB_NODELIST"));
        QVERIFY2(names, qPrintable(names ? QString() : names.error().toString()));
        QCOMPARE(*names, expected);
    }

    void expandHostListErrors_data()
    {
        QTest::addColumn<QString>("list");
        QTest::addColumn<QString>("error");
        QTest::addRow("unclosed") << QStringLiteral("node[01-04") << QStringLiteral("a '[' without its ']'");
        QTest::addRow("closed twice") << QStringLiteral("node01]") << QStringLiteral("a ']' without its '['");
        QTest::addRow("nested") << QStringLiteral("node[1[2]]") << QStringLiteral("a '[' inside brackets");
        QTest::addRow("empty bracket") << QStringLiteral("node[]") << QStringLiteral("an empty bracket in \"node[]\"");
        QTest::addRow("runs down") << QStringLiteral("node[04-01]") << QStringLiteral("the range \"04-01\" in \"node[04-01]\" runs down");
        QTest::addRow("not a number") << QStringLiteral("node[a-c]") << QStringLiteral("\"a-c\" in \"node[a-c]\" is neither a number");
        QTest::addRow("empty name") << QStringLiteral("node1,,node2") << QStringLiteral("an empty name between commas");
        QTest::addRow("bad name") << QStringLiteral("node/1") << QStringLiteral("\"node/1\" cannot be a Slurm node name");
        QTest::addRow("too many") << QStringLiteral("n[0-99999]") << QStringLiteral("more than 65536 names");
        QTest::addRow("too many combined") << QStringLiteral("r[0-999]n[0-999]") << QStringLiteral("more than 65536 names");
    }
    void expandHostListErrors()
    {
        QFETCH(QString, list);
        QFETCH(QString, error);
        const Result<QStringList> names = weft::expandHostList(list, QStringLiteral("SLURM_JOB_NODELIST"));
        QVERIFY(!names);
        const QString text = names.error().toString();
        QVERIFY2(text.startsWith(QStringLiteral("SLURM_JOB_NODELIST: the host list \"%1\": ").arg(list)), qPrintable(text));
        QVERIFY2(text.contains(error), qPrintable(text));
    }

    // What compressHostList writes, expandHostList reads back to the same names.
    void hostListRoundTrip()
    {
        const QStringList names = words("node01 node02 node03 node07 gpu9 gpu10 gpu11 login1 r1n01 r1n02 n098 n099 n100");
        const Result<QStringList> back = weft::expandHostList(weft::compressHostList(names), QStringLiteral("list"));
        QVERIFY(back);
        QCOMPARE(std::set<QString>(back->begin(), back->end()), std::set<QString>(names.begin(), names.end()));
        QCOMPARE(back->size(), names.size());
    }

    void namesMapErrors_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("error");
        QTest::addRow("no name") << QByteArray("# hosts\n0x0002c90300001234\n") << QStringLiteral("names.map:2: expected a GUID or node description, then the name");
        QTest::addRow("name Slurm cannot take") << QByteArray("0x1234 node/1\n") << QStringLiteral("names.map:1: \"node/1\" cannot be a Slurm name");
        QTest::addRow("GUID twice") << QByteArray("0x1234 a1\n\n0X0000000000001234 a2\n") << QStringLiteral("names.map:3: 0X0000000000001234 is named already (line 1)");
        QTest::addRow("description twice") << QByteArray("node01 HCA-1 n1\n\"node01 HCA-1\" n2\n") << QStringLiteral("names.map:2: node01 HCA-1 is named already (line 1)");
        QTest::addRow("unclosed quote") << QByteArray("\"node01 HCA-1 n1\n") << QStringLiteral("names.map:1: the description \"node01 HCA-1 lacks its closing quote");
        QTest::addRow("quote inside") << QByteArray("node\"01 n1\n") << QStringLiteral("names.map:1: a quote inside the description");
    }
    void namesMapErrors()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, error);
        const Result<SlurmNames> names = readSlurmNames(text, QStringLiteral("names.map"));
        QVERIFY(!names);
        QVERIFY2(names.error().toString().startsWith(error), qPrintable(names.error().toString()));
    }

    void namesMapReads()
    {
        const Result<SlurmNames> names = readSlurmNames("# comment\n\n0x0002c90300001234   gpu01  # trailing\n"
                                                        "\"node 07 # not a comment\" n07\nnode08 HCA-1\tn08\n0002c90300005678 sw-core\n",
                                                        QStringLiteral("names.map"));
        QVERIFY2(names, qPrintable(names ? QString() : names.error().toString()));
        QCOMPARE(names->byGuid.size(), std::size_t(2));
        QCOMPARE(names->byGuid.at(0x0002c90300001234).name, QStringLiteral("gpu01"));
        QCOMPARE(names->byGuid.at(0x0002c90300001234).line, 3);
        QCOMPARE(names->byGuid.at(0x0002c90300005678).name, QStringLiteral("sw-core"));
        QCOMPARE(names->byDescription.at(QStringLiteral("node 07 # not a comment")).name, QStringLiteral("n07"));
        QCOMPARE(names->byDescription.at(QStringLiteral("node08 HCA-1")).name, QStringLiteral("n08"));
    }

    // The generated 3-level fabric: every host once, under the leaf it is cabled to; every
    // switch above lists exactly the switches one level down it is cabled to.
    void threeLevelTree()
    {
        const ThreeLevel t = threeLevel();
        const Fabric &fabric = t.tree.fabric;
        // The generator's descriptions name no host: refused, saying what to do.
        const Result<SlurmTopology> unnamed = slurmTopology(fabric, {});
        QVERIFY(!unnamed);
        QVERIFY2(unnamed.error().message.startsWith(QLatin1String("no host to list: 64 CAs name no host (CA \"host 0000\""))
                     && unnamed.error().message.contains(QLatin1String("is a word and a number")) && unnamed.error().message.contains(QLatin1String("names map")),
                 qPrintable(unnamed.error().message));

        SlurmTopologyOptions options;
        options.names = t.names;
        const Result<SlurmTopology> topology = slurmTopology(fabric, options);
        QVERIFY2(topology, qPrintable(topology ? QString() : topology.error().toString()));
        QVERIFY2(topology->warnings.isEmpty(), qPrintable(topology->warnings.join(QLatin1Char('\n'))));
        QCOMPARE(topology->hosts, std::size_t(64));
        QCOMPARE(topology->switches.size(), std::size_t(48));
        const std::vector<int> tiers = nodeTiers(fabric);
        std::map<int, int> perLevel;
        std::set<QString> listed;
        for (const SlurmSwitch &s : topology->switches) {
            ++perLevel[s.level];
            QCOMPARE(s.level, tiers[std::size_t(s.node)]);
            QCOMPARE(s.name, QString(fabric.node(s.node).description).replace(QLatin1Char(' '), QLatin1Char('-')));  // "L2 leaf 3" -> "L2-leaf-3"
            std::set<QString> cabledHosts, cabledBelow;
            const Node &node = fabric.node(s.node);
            for (int p = 1; p <= node.portCount; ++p) {
                const PortIndex remote = fabric.port(node.firstPort + p).remote;
                if (remote == kNoIndex)
                    continue;
                const Node &peer = fabric.node(fabric.port(remote).node);
                if (peer.type != NodeType::Switch)
                    cabledHosts.insert(QStringLiteral("n") + peer.description.mid(5));
                else if (tiers[std::size_t(fabric.port(remote).node)] == s.level - 1)
                    cabledBelow.insert(QString(peer.description).replace(QLatin1Char(' '), QLatin1Char('-')));
            }
            if (s.level == 1) {
                QVERIFY(s.children.isEmpty());
                QCOMPARE(std::set<QString>(s.hosts.begin(), s.hosts.end()), cabledHosts);
                for (const QString &h : s.hosts)
                    QVERIFY2(listed.insert(h).second, qPrintable(h + QStringLiteral(" listed twice")));
            } else {
                QVERIFY(s.hosts.isEmpty());
                QCOMPARE(std::set<QString>(s.children.begin(), s.children.end()), cabledBelow);
            }
        }
        QCOMPARE(listed.size(), std::size_t(64));
        QCOMPARE(perLevel, (std::map<int, int>{{1, 16}, {2, 16}, {3, 16}}));

        // The text: leaves first, in the tree's order, each line as Slurm's manual writes it.
        const QStringList lines = bodyLines(writeSlurmTopology(*topology, SlurmTopologyForm::Tree, kOrigin));
        QCOMPARE(lines.size(), 48);
        static const QRegularExpression leafLine(QStringLiteral("^SwitchName=[A-Za-z0-9._-]+ Nodes=n\\[\\d{4}-\\d{4}\\]$"));
        static const QRegularExpression upperLine(QStringLiteral("^SwitchName=[A-Za-z0-9._-]+ Switches=\\S+$"));
        for (int i = 0; i < lines.size(); ++i)
            QVERIFY2((i < 16 ? leafLine : upperLine).match(lines[i]).hasMatch(), qPrintable(lines[i]));
        QVERIFY(lines.contains(QStringLiteral("SwitchName=L2-leaf-0 Nodes=n[0000-0003]")));
        // The first pod's leaves come first (depth first from the roots): the block plugin joins
        // neighbouring blocks.
        const SlurmSwitch *aggr = findSwitch(*topology, QStringLiteral("L1-aggr-0"));
        QVERIFY(aggr);
        QCOMPARE(aggr->children.size(), 4);
        for (int i = 0; i < 4; ++i)
            QVERIFY2(aggr->children.contains(topology->switches[std::size_t(i)].name), qPrintable(topology->switches[std::size_t(i)].name));
    }

    void threeLevelBlockAndYaml()
    {
        const ThreeLevel t = threeLevel();
        SlurmTopologyOptions options;
        options.names = t.names;
        const Result<SlurmTopology> topology = slurmTopology(t.tree.fabric, options);
        QVERIFY(topology);

        // topology/block: one BlockName line per leaf, BlockSizes last (topology.conf(5)).
        const QByteArray block = writeSlurmTopology(*topology, SlurmTopologyForm::Block, kOrigin);
        const QStringList lines = bodyLines(block);
        QCOMPARE(lines.size(), 17);
        static const QRegularExpression blockLine(QStringLiteral("^BlockName=[A-Za-z0-9._-]+ Nodes=n\\[\\d{4}-\\d{4}\\]$"));
        for (int i = 0; i < 16; ++i)
            QVERIFY2(blockLine.match(lines[i]).hasMatch(), qPrintable(lines[i]));
        // In the tree's order, numbers by value: each pod's leaves side by side, leaf-2 before leaf-10.
        for (int i = 0; i < 16; ++i)
            QCOMPARE(lines[i], QStringLiteral("BlockName=L2-leaf-%1 Nodes=n[%2-%3]").arg(i).arg(4 * i, 4, 10, QLatin1Char('0')).arg(4 * i + 3, 4, 10, QLatin1Char('0')));
        // The smallest block's size, then doubled while the 16 blocks make it.
        QCOMPARE(lines.last(), QStringLiteral("BlockSizes=4,8,16,32,64"));
        QVERIFY(block.startsWith("# topology.conf for Slurm's topology/block plugin, written by weft 0.test\n"
                                 "# made from topology file test.topo on 2026-12-07T12:00:00Z\n"));

        // topology.yaml as topology.yaml(5) of Slurm 25.05 gives it: a list of topologies, the
        // name first, then cluster_default, then tree: switches: with switch, and nodes or children.
        const QStringList yaml = bodyLines(writeSlurmTopology(*topology, SlurmTopologyForm::Yaml, kOrigin));
        QCOMPARE(yaml.mid(0, 4), (QString::fromLatin1("- topology: default|  cluster_default: true|  tree:|    switches:").split(QLatin1Char('|'))));
        QCOMPARE(yaml.size(), 4 + 2 * 48);
        static const QRegularExpression switchItem(QStringLiteral("^      - switch: [A-Za-z0-9._-]+$"));
        static const QRegularExpression nodesItem(QStringLiteral("^        nodes: n\\[\\d{4}-\\d{4}\\]$"));
        static const QRegularExpression childrenItem(QStringLiteral("^        children: \\S+$"));
        for (int i = 4; i < yaml.size(); i += 2) {
            QVERIFY2(switchItem.match(yaml[i]).hasMatch(), qPrintable(yaml[i]));
            QVERIFY2((i < 4 + 2 * 16 ? nodesItem : childrenItem).match(yaml[i + 1]).hasMatch(), qPrintable(yaml[i + 1]));
        }
        // A name YAML would read as another type is quoted.
        TinyFabric tiny = TinyFabric::oneSwitch(QStringLiteral("true"), 4, {QStringLiteral("007 HCA-1"), QStringLiteral("n1 HCA-1")});
        const Result<SlurmTopology> odd = slurmTopology(tiny.build(), {});
        QVERIFY(odd);
        const QString oddYaml = QString::fromUtf8(writeSlurmTopology(*odd, SlurmTopologyForm::Yaml, kOrigin));
        QVERIFY2(oddYaml.contains(QLatin1String("- switch: \"true\"\n        nodes: \"007,n1\"\n")), qPrintable(oddYaml));
    }

    // The same fabric gives the same file, whatever order it is read in; a description shared by
    // switches gives way to the GUID, a managed switch's description to its host name.
    void stableNames()
    {
        const ThreeLevel t = threeLevel();
        SlurmTopologyOptions options;
        options.names = t.names;
        const Result<SlurmTopology> first = slurmTopology(t.tree.fabric, options);
        const Result<Fabric> reread = readTopology(writeIbnetdiscover(t.tree.fabric), QStringLiteral("again.topo"));
        QVERIFY(first && reread);
        const Result<SlurmTopology> second = slurmTopology(*reread, options);
        QVERIFY(second);
        for (SlurmTopologyForm form : {SlurmTopologyForm::Tree, SlurmTopologyForm::Block, SlurmTopologyForm::Yaml})
            QCOMPARE(writeSlurmTopology(*second, form, kOrigin), writeSlurmTopology(*first, form, kOrigin));

        TinyFabric tiny;
        tiny.addSwitch(QStringLiteral("MF0;ib-sw01:MSB7800/U1"), 8);
        tiny.addSwitch(QStringLiteral("Mellanox Technologies"), 8);
        tiny.addSwitch(QStringLiteral("Mellanox Technologies "), 8);  // the same description, once trimmed
        for (const char *h : {"a01 HCA-1", "a02 HCA-1", "b01 HCA-1"})
            tiny.addHost(QString::fromLatin1(h));
        tiny.cable(QStringLiteral("Mellanox Technologies"), 1, QStringLiteral("a01 HCA-1"), 1);
        tiny.cable(QStringLiteral("Mellanox Technologies"), 2, QStringLiteral("a02 HCA-1"), 1);
        tiny.cable(QStringLiteral("Mellanox Technologies "), 1, QStringLiteral("b01 HCA-1"), 1);
        tiny.cable(QStringLiteral("MF0;ib-sw01:MSB7800/U1"), 1, QStringLiteral("Mellanox Technologies"), 8);
        tiny.cable(QStringLiteral("MF0;ib-sw01:MSB7800/U1"), 2, QStringLiteral("Mellanox Technologies "), 8);
        const Guid leafA = tiny.guid(QStringLiteral("Mellanox Technologies"));
        const Result<SlurmTopology> named = slurmTopology(tiny.build(), {});
        QVERIFY(named);
        const QString leafAName = QStringLiteral("sw-") + guidDigits(leafA);
        QCOMPARE(QString::fromUtf8(slurmTopologyBody(writeSlurmTopology(*named, SlurmTopologyForm::Tree, kOrigin))),
                 QStringLiteral("SwitchName=%1 Nodes=a[01-02]\nSwitchName=%2 Nodes=b01\nSwitchName=ib-sw01 Switches=%3\n")
                     .arg(leafAName, QStringLiteral("sw-") + guidDigits(leafA + 0x10),
                          weft::compressHostList({leafAName, QStringLiteral("sw-") + guidDigits(leafA + 0x10)})));
    }

    // Service and I/O nodes are left out by default, kept when asked; a host with several CAs is
    // listed once; a CA whose description names no host is left out with a warning.
    void exclusionAndHosts()
    {
        TinyFabric tiny;
        tiny.addSwitch(QStringLiteral("leafA"), 8);
        tiny.addSwitch(QStringLiteral("leafB"), 8);
        tiny.addSwitch(QStringLiteral("spine"), 8);
        for (const char *h : {"node01 HCA-1", "node01 HCA-2", "node02 mlx5_0", "node03 mlx5_0", "node03 mlx5_1", "storage01 HCA-1",
                              "Mellanox Technologies Aggregation Node", "MT4123 ConnectX6 Mellanox Technologies"})
            tiny.addHost(QString::fromLatin1(h));
        tiny.cable(QStringLiteral("leafA"), 1, QStringLiteral("node01 HCA-1"), 1);
        tiny.cable(QStringLiteral("leafA"), 2, QStringLiteral("node01 HCA-2"), 1);
        tiny.cable(QStringLiteral("leafA"), 3, QStringLiteral("node02 mlx5_0"), 1);
        tiny.cable(QStringLiteral("leafA"), 4, QStringLiteral("storage01 HCA-1"), 1);
        tiny.cable(QStringLiteral("leafA"), 5, QStringLiteral("Mellanox Technologies Aggregation Node"), 1);
        tiny.cable(QStringLiteral("leafB"), 1, QStringLiteral("node03 mlx5_1"), 1);
        tiny.cable(QStringLiteral("leafB"), 2, QStringLiteral("MT4123 ConnectX6 Mellanox Technologies"), 1);
        tiny.cable(QStringLiteral("leafA"), 6, QStringLiteral("node03 mlx5_0"), 1);  // node03 on both leaves
        tiny.cable(QStringLiteral("spine"), 1, QStringLiteral("leafA"), 8);
        tiny.cable(QStringLiteral("spine"), 2, QStringLiteral("leafB"), 8);
        const Fabric fabric = tiny.build();

        const Result<SlurmTopology> byDefault = slurmTopology(fabric, {});
        QVERIFY(byDefault);
        QCOMPARE(byDefault->excludedEndNodes, std::size_t(2));  // the Aggregation Node, storage01
        QCOMPARE(byDefault->hosts, std::size_t(3));
        QCOMPARE(findSwitch(*byDefault, QStringLiteral("leafA"))->hosts, (words("node01 node02 node03")));
        QVERIFY(!findSwitch(*byDefault, QStringLiteral("leafB")));  // its one host went to leafA, its other CA is unnamed
        QCOMPARE(findSwitch(*byDefault, QStringLiteral("spine"))->children, words("leafA"));
        QCOMPARE(byDefault->warnings.size(), 2);
        QVERIFY2(byDefault->warnings.filter(QStringLiteral("host node03 is cabled to leaves leafA, leafB: listed once, under leafA")).size() == 1,
                 qPrintable(byDefault->warnings.join(QLatin1Char('\n'))));
        QVERIFY2(byDefault->warnings.filter(QStringLiteral("the adapter's own, naming no host")).size() == 1, qPrintable(byDefault->warnings.join(QLatin1Char('\n'))));

        SlurmTopologyOptions keepIo;
        keepIo.excluded = {NodeRole::Service};
        const Result<SlurmTopology> withIo = slurmTopology(fabric, keepIo);
        QVERIFY(withIo);
        QCOMPARE(findSwitch(*withIo, QStringLiteral("leafA"))->hosts, (words("node01 node02 node03 storage01")));
        QCOMPARE(withIo->excludedEndNodes, std::size_t(1));

        // A names map names the unnamed CA (by its port GUID) and renames a switch (by description).
        const QByteArray map = "0x" + QByteArray::number(tiny.portGuid(QStringLiteral("MT4123 ConnectX6 Mellanox Technologies")), 16)
            + " gpu07\nspine core1\n0x00000000deadbeef ghost\n";
        SlurmTopologyOptions mapped;
        Result<SlurmNames> names = readSlurmNames(map, QStringLiteral("names.map"));
        QVERIFY(names);
        mapped.names = *names;
        const Result<SlurmTopology> withMap = slurmTopology(fabric, mapped);
        QVERIFY(withMap);
        QCOMPARE(findSwitch(*withMap, QStringLiteral("leafB"))->hosts, words("gpu07"));
        QCOMPARE(findSwitch(*withMap, QStringLiteral("core1"))->children, (words("leafA leafB")));
        QVERIFY2(withMap->warnings.contains(QStringLiteral("names.map:3: no node or port 0x00000000deadbeef in the fabric")),
                 qPrintable(withMap->warnings.join(QLatin1Char('\n'))));

        // A first word more CAs share than one host carries names no host.
        QStringList adapters;
        for (int i = 0; i < 17; ++i)
            adapters << QStringLiteral("rack mlx5_%1").arg(i);
        const Result<SlurmTopology> shared = slurmTopology(TinyFabric::oneSwitch(QStringLiteral("leaf"), 20, adapters).build(), {});
        QVERIFY(!shared);
        QVERIFY2(shared.error().message.startsWith(QLatin1String("17 CAs' descriptions begin with \"rack\" (\"rack mlx5_0\"")), qPrintable(shared.error().message));

        // Nothing left: an error, not an empty file.
        SlurmTopologyOptions everything;
        everything.excluded = {NodeRole::Compute, NodeRole::Service, NodeRole::IO};
        QVERIFY(!slurmTopology(fabric, everything));
    }

    void realFiles()
    {
        // rdma-core's ibnetdiscover example: every CA carries the adapter's own description.
        const Result<Fabric> voltaire = readTopologyFile(QFINDTESTDATA("data/real/rdma-core-ibnetdiscover-man-example.topo"));
        QVERIFY(voltaire);
        const Result<SlurmTopology> unnamed = slurmTopology(*voltaire, {});
        QVERIFY(!unnamed);
        QVERIFY2(unnamed.error().message.contains(QLatin1String("no host to list")), qPrintable(unnamed.error().message));
        QByteArray map;
        int i = 1;
        for (NodeIndex n : voltaire->endNodes())
            map += guidText(voltaire->node(n).guid).toUtf8() + " cn" + QByteArray::number(i++) + '\n';
        Result<SlurmNames> names = readSlurmNames(map, QStringLiteral("voltaire.map"));
        QVERIFY(names);
        SlurmTopologyOptions options;
        options.names = *names;
        const Result<SlurmTopology> topology = slurmTopology(*voltaire, options);
        QVERIFY2(topology, qPrintable(topology ? QString() : topology.error().toString()));
        QCOMPARE(topology->hosts, std::size_t(4));
        // Both switches carry hosts: two leaves, no level above; names from their descriptions.
        const QStringList tree = bodyLines(writeSlurmTopology(*topology, SlurmTopologyForm::Tree, kOrigin));
        QCOMPARE(tree.size(), 2);
        QVERIFY2(tree.filter(QRegularExpression(QStringLiteral("^SwitchName=ISR9024-Voltaire Nodes=cn\\[\\d[-,]\\d\\]$"))).size() == 1, qPrintable(tree.join(QLatin1Char('\n'))));
        QVERIFY2(tree.filter(QRegularExpression(QStringLiteral("^SwitchName=SW-6IB4-Voltaire Nodes=cn\\[\\d[-,]\\d\\]$"))).size() == 1, qPrintable(tree.join(QLatin1Char('\n'))));

        // ibsim's example: two-port CAs, both ports on one switch; descriptions are the node ids.
        const Result<Fabric> ibsim = readTopologyFile(QFINDTESTDATA("data/real/ibsim-net.2sw2path4hca2port"));
        QVERIFY(ibsim);
        const Result<SlurmTopology> sim = slurmTopology(*ibsim, {});
        QVERIFY2(sim, qPrintable(sim ? QString() : sim.error().toString()));
        QVERIFY2(sim->warnings.isEmpty(), qPrintable(sim->warnings.join(QLatin1Char('\n'))));
        QCOMPARE(bodyLines(writeSlurmTopology(*sim, SlurmTopologyForm::Tree, kOrigin)),
                 (QString::fromLatin1("SwitchName=Switch1 Nodes=Hca1|SwitchName=Switch2 Nodes=Hca2").split(QLatin1Char('|'))));
        QCOMPARE(bodyLines(writeSlurmTopology(*sim, SlurmTopologyForm::Block, kOrigin)).last(), QStringLiteral("BlockSizes=1,2"));
    }

    void bodyWithoutHeader()
    {
        QCOMPARE(slurmTopologyBody("# a\n# b\nSwitchName=s Nodes=n1\n# c\n"), QByteArray("SwitchName=s Nodes=n1\n# c\n"));
        QCOMPARE(slurmTopologyBody("# only\n"), QByteArray());
    }
};

QTEST_GUILESS_MAIN(TestSlurmTopology)
#include "tst_slurm_topology.moc"
