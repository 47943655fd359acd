// `weft check`'s judgements (FabricCheck.h) on hand-made fabrics whose answer is known: duplicate
// identities, links not active or whose ends disagree, a fabric against its design (a moved
// cable, a missing one, a narrower one), cabling lists and error thresholds with their file:line
// errors, counters over thresholds, subnet managers; and the command's exit codes and outputs.

#include "ErrorThresholds.h"
#include "FabricCheck.h"
#include "FabricDesign.h"
#include "LftDump.h"
#include "PKeyTableFile.h"
#include "PKeyTables.h"
#include "SafeFile.h"
#include "TopologyFile.h"
#include "WeftRunner.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <set>

using namespace weft;

namespace {

struct Cable
{
    QString a;
    int portA = 0;
    QString b;
    int portB = 0;
    int width = 4;
    LinkSpeed speed = LinkSpeed::EDR;
    PortState stateA = PortState::Active;
    PortState stateB = PortState::Active;
};

// Two 8-port switches sw1 and sw2, hosts h1..h4; the cables given. GUIDs and LIDs fixed by name.
std::vector<Cable> standardCables()
{
    return {{QStringLiteral("sw1"), 1, QStringLiteral("h1"), 1}, {QStringLiteral("sw1"), 2, QStringLiteral("h2"), 1},
            {QStringLiteral("sw2"), 1, QStringLiteral("h3"), 1}, {QStringLiteral("sw2"), 2, QStringLiteral("h4"), 1},
            {QStringLiteral("sw1"), 5, QStringLiteral("sw2"), 5}, {QStringLiteral("sw1"), 6, QStringLiteral("sw2"), 6}};
}

Guid guidOf(const QString &name)
{
    static const QStringList names{QStringLiteral("sw1"), QStringLiteral("sw2"), QStringLiteral("h1"), QStringLiteral("h2"),
                                   QStringLiteral("h3"), QStringLiteral("h4")};
    return 0x2c90000000100ull + Guid(names.indexOf(name)) * 0x10;
}

Fabric makeFabric(const std::vector<Cable> &cables, const std::map<QString, QString> &descriptions = {},
                  const std::set<QString> &withoutLid = {})
{
    FabricBuilder builder;
    std::map<QString, NodeIndex> index;
    Lid lid = 1;
    for (const QString &name : {QStringLiteral("sw1"), QStringLiteral("sw2"), QStringLiteral("h1"), QStringLiteral("h2"),
                                QStringLiteral("h3"), QStringLiteral("h4")}) {
        FabricBuilder::NodeSpec spec;
        spec.type = name.startsWith(QLatin1String("sw")) ? NodeType::Switch : NodeType::ChannelAdapter;
        spec.guid = guidOf(name);
        spec.portCount = spec.type == NodeType::Switch ? 8 : 1;
        spec.name = name;
        spec.description = descriptions.count(name) ? descriptions.at(name) : name;
        NodeIndex n = kNoIndex;
        if (const QString e = builder.addNode(spec, &n); !e.isEmpty())
            qFatal("node: %s", qPrintable(e));
        index[name] = n;
        const Lid given = lid++;
        if (!withoutLid.count(name))
            builder.setPortLid(n, spec.type == NodeType::Switch ? 0 : 1, given, 0);
    }
    for (const Cable &c : cables) {
        const NodeIndex a = index.at(c.a), b = index.at(c.b);
        for (const QString &e : {builder.connect(a, c.portA, b, c.portB), builder.setPortLink(a, c.portA, c.width, c.speed),
                                 builder.setPortLink(b, c.portB, c.width, c.speed), builder.setPortState(a, c.portA, c.stateA),
                                 builder.setPortState(b, c.portB, c.stateB)})
            if (!e.isEmpty())
                qFatal("cable: %s", qPrintable(e));
    }
    Result<Fabric> built = std::move(builder).build();
    if (!built)
        qFatal("fabric: %s", qPrintable(built.error().toString()));
    return std::move(built).value();
}

std::vector<const CheckFinding *> ofKind(const std::vector<CheckFinding> &findings, const QString &kind)
{
    std::vector<const CheckFinding *> found;
    for (const CheckFinding &f : findings)
        if (f.kind == kind)
            found.push_back(&f);
    return found;
}

QString describe(const std::vector<CheckFinding> &findings)
{
    QStringList lines;
    for (const CheckFinding &f : findings)
        lines << f.kind + QStringLiteral(": ") + f.message;
    return lines.join(QLatin1Char('\n'));
}

// "sw1[2]" for each place of a finding, in order.
QStringList placesOf(const CheckFinding &f)
{
    QStringList places;
    for (const FindingPlace &p : f.places)
        places << (p.port < 0 ? p.node : QStringLiteral("%1[%2]").arg(p.node).arg(p.port));
    return places;
}

QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &data)
{
    const QString path = dir.filePath(name);
    if (Status s = writeFileAtomically(path, data, false); !s)
        qFatal("%s", qPrintable(s.error().toString()));
    return path;
}

QStringList kindsInJson(const QByteArray &json)
{
    QStringList kinds;
    for (const QJsonValue &v : QJsonDocument::fromJson(json).object().value(QStringLiteral("findings")).toArray())
        kinds << v.toObject().value(QStringLiteral("kind")).toString();
    return kinds;
}

}  // namespace

class TestFabricCheck : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cleanFabricHasNoFindings()
    {
        const Fabric fabric = makeFabric(standardCables());
        QVERIFY2(identityFindings(fabric).empty(), qPrintable(describe(identityFindings(fabric))));
        QVERIFY2(linkFindings(fabric).empty(), qPrintable(describe(linkFindings(fabric))));
        const std::vector<CheckFinding> design = designFindings(fabric, designOfFabric(fabric));
        QVERIFY2(design.empty(), qPrintable(describe(design)));
    }

    void duplicateDescriptionsAndLidZero()
    {
        const Fabric fabric = makeFabric(standardCables(), {{QStringLiteral("h2"), QStringLiteral("h1")}}, {QStringLiteral("h3")});
        const std::vector<CheckFinding> found = identityFindings(fabric);
        const auto duplicates = ofKind(found, QStringLiteral("duplicate-description"));
        QCOMPARE(duplicates.size(), std::size_t(1));
        QCOMPARE(duplicates.front()->places.size(), std::size_t(2));
        QCOMPARE(duplicates.front()->places[0].guid, guidOf(QStringLiteral("h1")));
        QCOMPARE(duplicates.front()->places[1].guid, guidOf(QStringLiteral("h2")));
        const auto lidZero = ofKind(found, QStringLiteral("lid-zero"));
        QCOMPARE(lidZero.size(), std::size_t(1));
        QCOMPARE(placesOf(*lidZero.front()), QStringList{QStringLiteral("h3[1]")});
        QCOMPARE(lidZero.front()->severity, CheckSeverity::Error);
    }

    // A Fabric cannot hold a GUID or LID twice: the builder refuses them, and that refusal is
    // the finding.
    void duplicateGuidsAndLidsFromTheBuilder()
    {
        FabricBuilder builder;
        FabricBuilder::NodeSpec spec;
        spec.type = NodeType::ChannelAdapter;
        spec.guid = 0x42;
        spec.portCount = 1;
        spec.name = QStringLiteral("a");
        NodeIndex a = kNoIndex, b = kNoIndex;
        QVERIFY(builder.addNode(spec, &a).isEmpty());
        spec.name = QStringLiteral("b");
        const QString refused = builder.addNode(spec);
        QVERIFY(!refused.isEmpty());
        const std::optional<CheckFinding> guid = identityFindingOf(Error{QStringLiteral("f.topo"), 7, refused});
        QVERIFY2(guid, qPrintable(refused));
        QCOMPARE(guid->kind, QStringLiteral("duplicate-guid"));
        QVERIFY(guid->message.startsWith(QLatin1String("f.topo:7: ")));

        spec.guid = 0x50;
        QVERIFY(builder.addNode(spec, &b).isEmpty());
        QVERIFY(builder.setPortLid(a, 1, 9, 0).isEmpty());
        QVERIFY(builder.setPortLid(b, 1, 9, 0).isEmpty());
        Result<Fabric> built = std::move(builder).build();
        QVERIFY(!built);
        const std::optional<CheckFinding> lid = identityFindingOf(built.error());
        QVERIFY2(lid, qPrintable(built.error().toString()));
        QCOMPARE(lid->kind, QStringLiteral("duplicate-lid"));
        QVERIFY(!identityFindingOf(Error{{}, 0, QStringLiteral("\"x\" has no port 3")}));
        // Discovery names the node it was adding first.
        const std::optional<CheckFinding> live = identityFindingOf(Error{{}, 0, QStringLiteral("node 0x42 (\"b\"): ") + refused});
        QVERIFY(live && live->kind == QLatin1String("duplicate-guid"));
    }

    void linksNotActiveAndEndsThatDisagree()
    {
        std::vector<Cable> cables = standardCables();
        cables[1].stateB = PortState::Init;  // h2[1]
        cables[4].width = 1;                 // sw1[5] -- sw2[5] at 1x both ends: agree
        Fabric fabric = makeFabric(cables);
        std::vector<CheckFinding> found = linkFindings(fabric);
        const auto notActive = ofKind(found, QStringLiteral("link-not-active"));
        QCOMPARE(notActive.size(), std::size_t(1));
        QCOMPARE(placesOf(*notActive.front()), (QStringList{QStringLiteral("sw1[2]"), QStringLiteral("h2[1]")}));
        QVERIFY2(notActive.front()->message.contains(QLatin1String("h2[1] is INIT")), qPrintable(notActive.front()->message));
        QVERIFY(ofKind(found, QStringLiteral("link-ends-disagree")).empty());

        // One end of a cable at 1x, the other at 4x.
        FabricBuilder builder;
        FabricBuilder::NodeSpec spec;
        spec.type = NodeType::Switch;
        spec.portCount = 4;
        NodeIndex s1 = kNoIndex, s2 = kNoIndex;
        spec.guid = 0x10;
        spec.name = QStringLiteral("s1");
        QVERIFY(builder.addNode(spec, &s1).isEmpty());
        spec.guid = 0x20;
        spec.name = QStringLiteral("s2");
        QVERIFY(builder.addNode(spec, &s2).isEmpty());
        QVERIFY(builder.connect(s1, 3, s2, 4).isEmpty());
        QVERIFY(builder.setPortLink(s1, 3, 4, LinkSpeed::EDR).isEmpty());
        QVERIFY(builder.setPortLink(s2, 4, 1, LinkSpeed::EDR).isEmpty());
        Result<Fabric> odd = std::move(builder).build();
        QVERIFY(odd);
        found = linkFindings(*odd);
        const auto disagree = ofKind(found, QStringLiteral("link-ends-disagree"));
        QCOMPARE(disagree.size(), std::size_t(1));
        QCOMPARE(placesOf(*disagree.front()), (QStringList{QStringLiteral("s1[3]"), QStringLiteral("s2[4]")}));
        QVERIFY2(disagree.front()->message.contains(QLatin1String("1xEDR at s2[4]")), qPrintable(disagree.front()->message));
    }

    // The design is the fabric as built; the fabric now has h2 at sw1's port 3 instead of 2, the
    // second switch cable at sw1's port 7 instead of 6, h4's cable gone and the first switch cable
    // at 1x.
    void designWithMovedMissingAndNarrowerCables()
    {
        const FabricDesign design = designOfFabric(makeFabric(standardCables()), QStringLiteral("design.topo"));
        std::vector<Cable> now = standardCables();
        now[1].portA = 3;
        now[5].portA = 7;
        now[4].width = 1;
        now.erase(now.begin() + 3);
        const Fabric fabric = makeFabric(now);
        const std::vector<CheckFinding> found = designFindings(fabric, design);

        const auto miswired = ofKind(found, QStringLiteral("miswired-cable"));
        QCOMPARE(miswired.size(), std::size_t(2));
        QCOMPARE(placesOf(*miswired[0]), (QStringList{QStringLiteral("sw1[2]"), QStringLiteral("h2[1]"), QStringLiteral("sw1[3]"),
                                                      QStringLiteral("h2[1]")}));
        QVERIFY2(miswired[0]->message.contains(QLatin1String("the fabric has sw1[3] -- h2[1]")), qPrintable(miswired[0]->message));
        QCOMPARE(placesOf(*miswired[1]), (QStringList{QStringLiteral("sw1[6]"), QStringLiteral("sw2[6]"), QStringLiteral("sw1[7]"),
                                                      QStringLiteral("sw2[6]")}));
        const auto missing = ofKind(found, QStringLiteral("missing-cable"));
        QCOMPARE(missing.size(), std::size_t(1));
        QCOMPARE(placesOf(*missing.front()), (QStringList{QStringLiteral("sw2[2]"), QStringLiteral("h4[1]")}));
        QCOMPARE(missing.front()->places[1].guid, guidOf(QStringLiteral("h4")));
        const auto narrower = ofKind(found, QStringLiteral("link-below-design"));
        QCOMPARE(narrower.size(), std::size_t(1));
        QCOMPARE(placesOf(*narrower.front()), (QStringList{QStringLiteral("sw1[5]"), QStringLiteral("sw2[5]")}));
        QVERIFY2(narrower.front()->message.contains(QLatin1String("1xEDR; the design has 4xEDR")), qPrintable(narrower.front()->message));
        QVERIFY2(ofKind(found, QStringLiteral("extra-cable")).empty(), qPrintable(describe(found)));
        QCOMPARE(found.size(), std::size_t(4));
    }

    // A cable the design does not have, between nodes whose designed cables are all in place.
    void extraCable()
    {
        std::vector<Cable> design = standardCables();
        std::vector<Cable> now = design;
        now.push_back({QStringLiteral("sw1"), 8, QStringLiteral("sw2"), 8});
        const std::vector<CheckFinding> found = designFindings(makeFabric(now), designOfFabric(makeFabric(design)));
        QCOMPARE(found.size(), std::size_t(1));
        QCOMPARE(found.front().kind, QStringLiteral("extra-cable"));
        QCOMPARE(found.front().severity, CheckSeverity::Warning);
        QCOMPARE(placesOf(found.front()), (QStringList{QStringLiteral("sw1[8]"), QStringLiteral("sw2[8]")}));
    }

    // A cabling list of the switches' cables alone judges those and leaves the hosts' alone.
    void switchOnlyCablingList()
    {
        Result<FabricDesign> design = readCablingList("sw1,5,sw2,5\n", QStringLiteral("spine.csv"));
        QVERIFY(design);
        const std::vector<CheckFinding> found = designFindings(makeFabric(standardCables()), *design);
        QCOMPARE(found.size(), std::size_t(1));
        QCOMPARE(found.front().kind, QStringLiteral("extra-cable"));
        QCOMPARE(placesOf(found.front()), (QStringList{QStringLiteral("sw1[6]"), QStringLiteral("sw2[6]")}));
    }

    void cablingList()
    {
        const QByteArray csv = "# the lab's cabling\n"
                               "Start device,Start port,End device,End port,Link type\n"
                               "sw1,1,h1,1,4xEDR\n"
                               "\"sw1\",2,0x" + QByteArray::number(guidOf(QStringLiteral("h2")), 16) + ",1,4X EDR\n"
                               "sw2,1,h3,1,\n"
                               "sw2,2,h4,1\n"
                               "sw1,5,sw2,5,EDR\n"
                               "sw1,6,sw2,6,4x\n";
        Result<FabricDesign> design = readCablingList(csv, QStringLiteral("cables.csv"));
        QVERIFY2(design, design ? "" : qPrintable(design.error().toString()));
        QCOMPARE(design->cables.size(), std::size_t(6));
        QCOMPARE(design->cables[0].line, 3);
        QCOMPARE(design->cables[1].b.guid, guidOf(QStringLiteral("h2")));
        QCOMPARE(design->cables[1].width, 4);
        QCOMPARE(design->cables[4].speed, LinkSpeed::EDR);
        QCOMPARE(design->cables[5].width, 4);
        const std::vector<CheckFinding> clean = designFindings(makeFabric(standardCables()), *design);
        QVERIFY2(clean.empty(), qPrintable(describe(clean)));

        std::vector<Cable> now = standardCables();
        now[0].speed = LinkSpeed::QDR;
        const std::vector<CheckFinding> slower = designFindings(makeFabric(now), *design);
        QCOMPARE(slower.size(), std::size_t(1));
        QCOMPARE(slower.front().kind, QStringLiteral("link-below-design"));
        QVERIFY2(slower.front().message.contains(QLatin1String("(cables.csv:3)")), qPrintable(slower.front().message));
    }

    void cablingListErrors_data()
    {
        QTest::addColumn<QByteArray>("csv");
        QTest::addColumn<QString>("error");
        QTest::addRow("port not a number") << QByteArray("sw1,1,h1,1\nsw1,x2,h2,1\n") << QStringLiteral("cables.csv:2: start port \"x2\" of \"sw1\" is not a port number (1-254)");
        QTest::addRow("too few fields") << QByteArray("sw1,1,h1\n") << QStringLiteral("cables.csv:1: 3 fields; a cable is: start device, start port, end device, end port[, link type]");
        QTest::addRow("unknown link type") << QByteArray("sw1,1,h1,1,4xWARP\n") << QStringLiteral("cables.csv:1: link type \"4xWARP\" is not a width and speed such as 4xEDR");
        QTest::addRow("odd width") << QByteArray("sw1,1,h1,1,3xEDR\n") << QStringLiteral("cables.csv:1: link type \"3xEDR\": a link is 1x, 2x, 4x, 8x or 12x wide");
        QTest::addRow("port cabled twice") << QByteArray("sw1,1,h1,1\n# spare\nsw1,1,h2,1\n") << QStringLiteral("cables.csv:3: sw1[1] is cabled twice (line 1 cables it too)");
        QTest::addRow("empty device") << QByteArray("sw1,1,,1\n") << QStringLiteral("cables.csv:1: the end device is empty");
        QTest::addRow("quote not closed") << QByteArray("\"sw1,1,h1,1\n") << QStringLiteral("cables.csv:1: a quoted field is not closed");
        QTest::addRow("no cable") << QByteArray("# nothing\n") << QStringLiteral("cables.csv: the cabling list names no cable");
    }

    void cablingListErrors()
    {
        QFETCH(QByteArray, csv);
        QFETCH(QString, error);
        const Result<FabricDesign> design = readCablingList(csv, QStringLiteral("cables.csv"));
        QVERIFY(!design);
        QCOMPARE(design.error().toString(), error);
    }

    void thresholds()
    {
        const Result<ErrorThresholds> read = readErrorThresholds("# site thresholds\n\nSymbolErrorCounter=10\n  LinkDownedCounter = 2\n"
                                                                 "PortRcvErrors=5\nSymbolErrorCounter=12\nPortXmitWait=1000\n",
                                                                 QStringLiteral("error_thresholds"));
        QVERIFY2(read, read ? "" : qPrintable(read.error().toString()));
        QCOMPARE(read->errors[std::size_t(PortErrorCounter::SymbolError)], std::uint64_t(12));  // the later line wins
        QCOMPARE(read->errors[std::size_t(PortErrorCounter::LinkDowned)], std::uint64_t(2));
        QCOMPARE(read->errors[std::size_t(PortErrorCounter::PortRcvErrors)], std::uint64_t(5));
        QCOMPARE(read->errors[std::size_t(PortErrorCounter::VL15Dropped)], std::uint64_t(0));
        QCOMPARE(read->xmitWait.value_or(0), std::uint64_t(1000));
    }

    void thresholdErrors_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("error");
        QTest::addRow("no equals") << QByteArray("# t\nSymbolErrorCounter 10\n") << QStringLiteral("thr:2: \"SymbolErrorCounter 10\" is not CounterName=value");
        QTest::addRow("unknown counter") << QByteArray("SymbolErrors=1\n") << QStringLiteral("thr:1: unknown counter \"SymbolErrors\"");
        QTest::addRow("not a number") << QByteArray("LinkDownedCounter=ten\n") << QStringLiteral("thr:1: LinkDownedCounter \"ten\" is not a number");
        QTest::addRow("no value") << QByteArray("\nPortRcvErrors=\n") << QStringLiteral("thr:2: PortRcvErrors has no value");
        QTest::addRow("negative") << QByteArray("VL15Dropped=-1\n") << QStringLiteral("thr:1: VL15Dropped \"-1\" is not a number");
    }

    void thresholdErrors()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, error);
        const Result<ErrorThresholds> read = readErrorThresholds(text, QStringLiteral("thr"));
        QVERIFY(!read);
        QVERIFY2(read.error().toString().startsWith(error), qPrintable(read.error().toString()));
    }

    void countersOverThresholds()
    {
        const Fabric fabric = makeFabric(standardCables());
        const std::vector<PortIndex> ports{fabric.portOf(fabric.nodeByName(QStringLiteral("sw1")), 1),
                                           fabric.portOf(fabric.nodeByName(QStringLiteral("sw1")), 2),
                                           fabric.portOf(fabric.nodeByName(QStringLiteral("h3")), 1)};
        std::vector<PortCounterSample> before(3), after(3);
        for (PortCounterSample &s : before)
            s.answered = true;
        after = before;
        before[0].errors[std::size_t(PortErrorCounter::SymbolError)] = 100;  // old errors, none new
        after[0].errors[std::size_t(PortErrorCounter::SymbolError)] = 105;
        after[1].errors[std::size_t(PortErrorCounter::SymbolError)] = 11;
        after[1].errors[std::size_t(PortErrorCounter::LinkDowned)] = 1;
        after[2].answered = false;
        ErrorThresholds thresholds;
        thresholds.errors[std::size_t(PortErrorCounter::SymbolError)] = 10;
        std::vector<CheckFinding> found = counterFindings(fabric, ports, before, &after, 2, thresholds);
        const auto errors = ofKind(found, QStringLiteral("port-errors"));
        QCOMPARE(errors.size(), std::size_t(1));
        QCOMPARE(placesOf(*errors.front()), (QStringList{QStringLiteral("sw1[2]"), QStringLiteral("h2[1]")}));
        QCOMPARE(errors.front()->message, QStringLiteral("sw1[2] in 2 s: SymbolErrorCounter 11 > 10, LinkDownedCounter 1 > 0"));
        const auto silent = ofKind(found, QStringLiteral("counters-unanswered"));
        QCOMPARE(silent.size(), std::size_t(1));
        QCOMPARE(placesOf(*silent.front()), QStringList{QStringLiteral("h3[1]")});

        // One reading: the counters as they stand.
        found = counterFindings(fabric, {ports[0]}, {before[0]}, nullptr, 0, thresholds);
        QCOMPARE(found.size(), std::size_t(1));
        QCOMPARE(found.front().message, QStringLiteral("sw1[1]: SymbolErrorCounter 100 > 10"));
    }

    // BER = symbol errors / (width x lane rate x seconds): 4xEDR is 103.125 Gb/s on the wire.
    void symbolErrorRateByLaneSpeed()
    {
        QCOMPARE(symbolErrorRate(103125, 4, LinkSpeed::EDR, 1.0), 1e-6);
        QCOMPARE(symbolErrorRate(10, 1, LinkSpeed::SDR, 4.0), 1e-9);
        QCOMPARE(symbolErrorRate(10, 0, LinkSpeed::SDR, 4.0), 0.0);  // width unknown: no rate
        std::vector<Cable> cables = standardCables();
        cables[1].width = 1;
        cables[1].speed = LinkSpeed::SDR;
        const Fabric fabric = makeFabric(cables);
        const NodeIndex sw1 = fabric.nodeByName(QStringLiteral("sw1"));
        const std::vector<PortIndex> ports{fabric.portOf(sw1, 1), fabric.portOf(sw1, 2), fabric.portOf(sw1, 5)};
        std::vector<PortCounterSample> before(3), after(3);
        for (PortCounterSample &p : before)
            p.answered = true;
        after = before;
        const auto symbol = std::size_t(PortErrorCounter::SymbolError);
        after[0].errors[symbol] = 20;  // 4xEDR, 2 s: 20 / 206.25e9 = 9.7e-11
        after[1].errors[symbol] = 20;  // 1xSDR, 2 s: 20 / 5e9 = 4e-9
        before[2].errors[symbol] = 65535;
        after[2].errors[symbol] = 65535;  // stuck: a lower bound
        std::vector<CheckFinding> found = symbolErrorRateFindings(fabric, ports, before, after, 2.0, 1e-9);
        QCOMPARE(found.size(), std::size_t(2));
        QCOMPARE(placesOf(found[0]), (QStringList{QStringLiteral("sw1[2]"), QStringLiteral("h2[1]")}));
        QCOMPARE(found[0].message, QStringLiteral("sw1[2]: symbol error rate 4.00e-09 > 1.0e-09 (20 symbol errors in 2 s at 1xSDR)"));
        QVERIFY2(found[1].message.startsWith(QLatin1String("sw1[5]: symbol error rate at least ")), qPrintable(found[1].message));
        QCOMPARE(found[0].kind, QStringLiteral("symbol-error-rate"));
        // The default bound, the IBA's 1e-12, takes the EDR port too; one reading gives no rate.
        QCOMPARE(symbolErrorRateFindings(fabric, ports, before, after, 2.0).size(), std::size_t(3));
        QVERIFY(symbolErrorRateFindings(fabric, ports, before, after, 0.0).empty());
    }

    // A link below what both its ends support, as discovery reads PortInfo's supported fields.
    void linkBelowWhatBothEndsSupport()
    {
        FabricBuilder builder;
        NodeIndex sw = kNoIndex, h1 = kNoIndex, h2 = kNoIndex;
        for (auto [type, guid, ports, name, created] : {std::tuple{NodeType::Switch, Guid(0x10), 4, "sw", &sw},
                                                        std::tuple{NodeType::ChannelAdapter, Guid(0x20), 1, "h1", &h1},
                                                        std::tuple{NodeType::ChannelAdapter, Guid(0x30), 1, "h2", &h2}}) {
            FabricBuilder::NodeSpec spec;
            spec.type = type;
            spec.guid = guid;
            spec.portCount = ports;
            spec.name = spec.description = QLatin1String(name);
            QVERIFY(builder.addNode(spec, created).isEmpty());
        }
        builder.setPortLid(sw, 0, 1, 0);
        builder.setPortLid(h1, 1, 2, 0);
        builder.setPortLid(h2, 1, 3, 0);
        QVERIFY(builder.connect(sw, 1, h1, 1).isEmpty());
        QVERIFY(builder.connect(sw, 2, h2, 1).isEmpty());
        for (auto [node, port] : {std::pair{sw, 1}, std::pair{h1, 1}, std::pair{sw, 2}, std::pair{h2, 1}}) {
            QVERIFY(builder.setPortLink(node, port, 4, LinkSpeed::EDR).isEmpty());
            QVERIFY(builder.setPortState(node, port, PortState::Active).isEmpty());
        }
        // sw[1] -- h1: both support 4xHDR, run at 4xEDR. sw[2] -- h2: h2 supports EDR only.
        QVERIFY(builder.setPortSupported(sw, 1, 4, LinkSpeed::HDR).isEmpty());
        QVERIFY(builder.setPortSupported(h1, 1, 4, LinkSpeed::HDR).isEmpty());
        QVERIFY(builder.setPortSupported(sw, 2, 4, LinkSpeed::HDR).isEmpty());
        QVERIFY(builder.setPortSupported(h2, 1, 4, LinkSpeed::EDR).isEmpty());
        Result<Fabric> fabric = std::move(builder).build();
        QVERIFY(fabric);
        const std::vector<CheckFinding> found = linkFindings(*fabric);
        QCOMPARE(found.size(), std::size_t(1));
        QCOMPARE(found[0].kind, QStringLiteral("link-below-supported"));
        QCOMPARE(found[0].message, QStringLiteral("sw[1] -- h1[1] runs at 4xEDR; both ends support 4xHDR"));
    }

    // P_Key tables across switch-to-CA links: the switch port holds the CA's table packed.
    void pkeyTablesThatDisagree()
    {
        const Fabric fabric = makeFabric(standardCables());
        auto port = [&](const char *node, int number) { return fabric.portOf(fabric.nodeByName(QLatin1String(node)), number); };
        auto table = [](PortIndex p, std::vector<std::uint16_t> keys, bool packed, int capacity) {
            keys.resize(kPKeyBlockSize, 0);
            return PortPKeyTable{p, keys, packed, capacity};
        };
        const PKeyTables pkeys = PKeyTables::fromPorts({
            table(port("h1", 1), {0xffff, 0x8001}, false, 128),
            table(port("sw1", 1), {0xffff, 0x8001}, true, 32),          // agrees
            table(port("h2", 1), {0x7fff, 0x8001, 0x0002}, false, 128),
            table(port("sw1", 2), {0x7fff, 0x8001}, true, 32),          // lacks 0x0002: dropped
            table(port("h3", 1), {0x7fff, 0x0001}, false, 128),
            table(port("sw2", 1), {0x7fff, 0x8001, 0x8003}, true, 32),  // full where h3 is limited, admits 0x8003
            table(port("h4", 1), {0x7fff, 0x8005}, false, 128),
            table(port("sw2", 2), {}, true, 0),                         // no enforcement
        });
        const std::vector<CheckFinding> found = pkeyFindings(fabric, pkeys);
        QCOMPARE(found.size(), std::size_t(2));
        QCOMPARE(found[0].severity, CheckSeverity::Error);
        QCOMPARE(placesOf(found[0]), (QStringList{QStringLiteral("sw1[2]"), QStringLiteral("h2[1]")}));
        QVERIFY2(found[0].message.contains(QLatin1String("the switch port lacks 0x0002 that h2[1] holds")), qPrintable(found[0].message));
        QCOMPARE(found[1].severity, CheckSeverity::Warning);
        QCOMPARE(placesOf(found[1]), (QStringList{QStringLiteral("sw2[1]"), QStringLiteral("h3[1]")}));
        QVERIFY2(found[1].message.contains(QLatin1String("admits 0x0003")), qPrintable(found[1].message));
        QVERIFY2(found[1].message.contains(QLatin1String("membership differ for 0x0001")), qPrintable(found[1].message));

        // The same run through checkHeldFabric, with the check named and counted.
        const FabricCheckReport report = checkHeldFabric(fabric, HeldFabricCheck{QStringLiteral("offline"), nullptr, &pkeys, nullptr});
        QCOMPARE(report.checks, (QStringList{QStringLiteral("identities"), QStringLiteral("links"), QStringLiteral("partitions")}));
        QCOMPARE(report.findings.size(), std::size_t(2));
        const QByteArray metrics = healthExposition(report);
        QVERIFY2(metrics.contains("weft_health_findings{severity=\"error\",kind=\"pkey-mismatch\"} 1\n"), metrics.constData());
        QVERIFY2(metrics.contains("weft_health_findings_total{severity=\"warning\"} 1\n"), metrics.constData());
        QVERIFY2(metrics.contains("weft_health_clean 0\n"), metrics.constData());
    }

    // What the map marks: missing cables between nodes, miswired and sick cables.
    void healthMarksOnTheMap()
    {
        const FabricDesign design = designOfFabric(makeFabric(standardCables()), QStringLiteral("design.topo"));
        std::vector<Cable> now = standardCables();
        now[1].portA = 3;                    // h2 moved to sw1[3]
        now[4].stateA = PortState::Init;     // sw1[5] -- sw2[5] not active
        now.erase(now.begin() + 5);          // sw1[6] -- sw2[6] pulled
        const Fabric fabric = makeFabric(now);
        const FabricCheckReport report = checkHeldFabric(fabric, HeldFabricCheck{QStringLiteral("offline"), nullptr, nullptr, &design});
        const HealthMarks marks = healthMarksOf(fabric, report);
        const NodeIndex sw1 = fabric.nodeByName(QStringLiteral("sw1")), sw2 = fabric.nodeByName(QStringLiteral("sw2"));
        QCOMPARE(marks.missing.size(), std::size_t(1));
        QVERIFY(marks.missing[0] == std::pair(std::min(sw1, sw2), std::max(sw1, sw2)));
        QCOMPARE(marks.miswired, std::vector<LinkIndex>{fabric.port(fabric.portOf(sw1, 3)).link});
        QCOMPARE(marks.sick, std::vector<LinkIndex>{fabric.port(fabric.portOf(sw1, 5)).link});
        QVERIFY(marks.missingAt.empty());
    }

    void subnetManagers()
    {
        const SubnetManagerSeen master{0x1, 1, 5, 3, true, QStringLiteral("sm-a")};
        const SubnetManagerSeen standby{0x2, 2, 3, 2, true, QStringLiteral("sm-b")};
        QVERIFY(subnetManagerFindings({master, standby}).empty());
        QCOMPARE(subnetManagerFindings({}).front().kind, QStringLiteral("sm-none"));
        QCOMPARE(subnetManagerFindings({standby}).front().kind, QStringLiteral("sm-none"));
        SubnetManagerSeen second = standby;
        second.state = 3;
        const std::vector<CheckFinding> two = subnetManagerFindings({master, second});
        QCOMPARE(two.size(), std::size_t(1));
        QCOMPARE(two.front().kind, QStringLiteral("sm-several-masters"));
        QCOMPARE(two.front().places.size(), std::size_t(2));
        SubnetManagerSeen higher = standby;
        higher.priority = 9;
        const std::vector<CheckFinding> below = subnetManagerFindings({master, higher});
        QCOMPARE(below.size(), std::size_t(1));
        QCOMPARE(below.front().kind, QStringLiteral("sm-master-priority"));
        QCOMPARE(below.front().severity, CheckSeverity::Warning);
    }

    // The command: exit 0 clean, 1 findings, 2 bad input; JSON, CSV and the saved design.
    void commandExitCodes()
    {
        QVERIFY2(QFileInfo(qEnvironmentVariable("WEFT_BINARY")).isExecutable(), "WEFT_BINARY must name the weft executable");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString built = writeFile(dir, QStringLiteral("built.topo"), writeIbnetdiscover(makeFabric(standardCables())));
        std::vector<Cable> moved = standardCables();
        moved[1].portA = 3;
        const QString now = writeFile(dir, QStringLiteral("now.topo"), writeIbnetdiscover(makeFabric(moved)));

        test::Run run = test::runWeft({QStringLiteral("check"), QStringLiteral("--topology"), built, QStringLiteral("--design"), built});
        QVERIFY2(run.exitCode == 0, run.out + run.err);
        QVERIFY2(run.out.contains("clean: no findings"), run.out);

        run = test::runWeft({QStringLiteral("check"), QStringLiteral("--topology"), now, QStringLiteral("--design"), built, QStringLiteral("--json")});
        QVERIFY2(run.exitCode == 1, run.out + run.err);
        QCOMPARE(kindsInJson(run.out), QStringList{QStringLiteral("miswired-cable")});
        const QJsonObject report = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(report.value(QStringLiteral("clean")).toBool(true), false);
        QCOMPARE(report.value(QStringLiteral("errors")).toInt(), 1);
        const QJsonArray places = report.value(QStringLiteral("findings")).toArray().at(0).toObject().value(QStringLiteral("places")).toArray();
        QCOMPARE(places.size(), 4);
        QCOMPARE(places.at(2).toObject().value(QStringLiteral("node")).toString(), QStringLiteral("sw1"));
        QCOMPARE(places.at(2).toObject().value(QStringLiteral("port")).toInt(), 3);
        QCOMPARE(places.at(2).toObject().value(QStringLiteral("guid")).toString(), guidText(guidOf(QStringLiteral("sw1"))));

        // The same against a cabling list, with one CSV per kind.
        const QString csv = writeFile(dir, QStringLiteral("cables.csv"),
                                      "sw1,1,h1,1\nsw1,2,h2,1\nsw2,1,h3,1\nsw2,2,h4,1\nsw1,5,sw2,5\nsw1,6,sw2,6\n");
        const QString csvDir = dir.filePath(QStringLiteral("report"));
        run = test::runWeft({QStringLiteral("check"), QStringLiteral("--topology"), now, QStringLiteral("--design"), csv, QStringLiteral("--csv"), csvDir});
        QVERIFY2(run.exitCode == 1, run.out + run.err);
        QVERIFY2(run.out.contains("errors (1):\n  miswired-cable: sw1[2] -- h2[1] ("), run.out);
        QFile miswired(QDir(csvDir).filePath(QStringLiteral("miswired-cable.csv")));
        QVERIFY(miswired.open(QIODevice::ReadOnly));
        const QList<QByteArray> rows = miswired.readAll().split('\n');
        QCOMPARE(rows.at(0), QByteArray("severity,node,guid,port,peer_node,peer_guid,peer_port,message"));
        QVERIFY2(rows.at(1).startsWith("error,sw1," + guidText(guidOf(QStringLiteral("sw1"))).toUtf8() + ",2,h2,"), rows.at(1));
        QVERIFY(QFile::exists(QDir(csvDir).filePath(QStringLiteral("missing-cable.csv"))));  // checked, nothing found

        // --save-design: the fabric as an ibnetdiscover topology that it then matches.
        const QString saved = dir.filePath(QStringLiteral("as-built.topo"));
        run = test::runWeft({QStringLiteral("check"), QStringLiteral("--topology"), now, QStringLiteral("--save-design"), saved});
        QVERIFY2(run.exitCode == 0, run.out + run.err);
        run = test::runWeft({QStringLiteral("check"), QStringLiteral("--topology"), now, QStringLiteral("--design"), saved});
        QVERIFY2(run.exitCode == 0, run.out + run.err);

        // Bad input: a cabling list's error with its file and line; live-only options offline.
        const QString bad = writeFile(dir, QStringLiteral("bad.csv"), "sw1,1,h1,1\nsw1,one,h2,1\n");
        run = test::runWeft({QStringLiteral("check"), QStringLiteral("--topology"), now, QStringLiteral("--design"), bad});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(bad.toUtf8() + ":2: start port \"one\""), run.err);
        const QString thresholds = writeFile(dir, QStringLiteral("thr"), "SymbolErrorCounter=1\n");
        run = test::runWeft({QStringLiteral("check"), QStringLiteral("--topology"), now, QStringLiteral("--thresholds"), thresholds});
        QCOMPARE(run.exitCode, 2);
        run = test::runWeft({QStringLiteral("check"), QStringLiteral("--topology"), now, QStringLiteral("--json"), QStringLiteral("--csv"), csvDir});
        QCOMPARE(run.exitCode, 2);

        // Offline P_Keys (--pkeys, a `weft discover --pkeys` file): sw1[2] lacks the P_Key h2 holds.
        {
            const Fabric fabric = makeFabric(standardCables());
            auto table = [&](const char *node, int number, std::vector<std::uint16_t> keys, bool packed) {
                keys.resize(kPKeyBlockSize, 0);
                return PortPKeyTable{fabric.portOf(fabric.nodeByName(QLatin1String(node)), number), keys, packed, 0};
            };
            const PKeyTables pkeys = PKeyTables::fromPorts({table("h1", 1, {0xffff, 0x8001}, false), table("sw1", 1, {0xffff, 0x8001}, true),
                                                           table("h2", 1, {0xffff, 0x8001}, false), table("sw1", 2, {0xffff}, true)});
            const QString pkeyFile = writeFile(dir, QStringLiteral("pkeys.txt"), writePKeyTables(pkeys, fabric));
            run = test::runWeft({QStringLiteral("check"), QStringLiteral("--topology"), built, QStringLiteral("--pkeys"), pkeyFile, QStringLiteral("--json")});
            QVERIFY2(run.exitCode == 1, run.out + run.err);
            QCOMPARE(kindsInJson(run.out), QStringList{QStringLiteral("pkey-mismatch")});
            QVERIFY2(run.out.contains("the switch port lacks 0x0001 that h2[1] holds"), run.out);
            run = test::runWeft({QStringLiteral("check"), QStringLiteral("--pkeys"), pkeyFile});
            QCOMPARE(run.exitCode, 2);  // live, the P_Keys are read from the ports
            run = test::runWeft({QStringLiteral("check"), QStringLiteral("--topology"), built, QStringLiteral("--ber-threshold"), QStringLiteral("1e-9")});
            QCOMPARE(run.exitCode, 2);  // a rate needs the live counters
        }

        // Offline tables (--lfts): sw2 without a route to h2 leaves h3 and h4 without one.
        auto tablesFile = [&](bool complete) {
            const Fabric fabric = makeFabric(standardCables());
            ForwardingTables tables;
            const std::map<QString, std::map<Lid, int>> routes{
                {QStringLiteral("sw1"), {{1, 0}, {2, 5}, {3, 1}, {4, 2}, {5, 5}, {6, 5}}},
                {QStringLiteral("sw2"), {{1, 5}, {2, 0}, {3, 5}, {4, 5}, {5, 1}, {6, 2}}}};
            for (const auto &[sw, entries] : routes) {
                const NodeIndex n = fabric.nodeByName(sw);
                const int i = tables.addSwitch(fabric.node(n).guid, fabric.nodeLid(n), sw);
                for (const auto &[lid, port] : entries)
                    if (complete || sw != QLatin1String("sw2") || lid != 4)
                        tables.lft(std::size_t(i)).setPort(lid, std::uint8_t(port));
            }
            return writeFile(dir, complete ? QStringLiteral("whole.lfts") : QStringLiteral("holed.lfts"), writeLftDump(tables, &fabric));
        };
        run = test::runWeft({QStringLiteral("check"), QStringLiteral("--topology"), built, QStringLiteral("--lfts"), tablesFile(true)});
        QVERIFY2(run.exitCode == 0, run.out + run.err);
        QVERIFY2(run.out.contains("(identities, links, tables)"), run.out);
        run = test::runWeft({QStringLiteral("check"), QStringLiteral("--topology"), built, QStringLiteral("--lfts"), tablesFile(false), QStringLiteral("--json")});
        QVERIFY2(run.exitCode == 1, run.out + run.err);
        QCOMPARE(kindsInJson(run.out), QStringList{QStringLiteral("unreachable-pairs")});
        QVERIFY2(run.out.contains("2 of 12 ordered pairs"), run.out);

        // A GUID twice in a topology file is a finding, not bad input.
        QByteArray twice = writeIbnetdiscover(makeFabric(standardCables()));
        const QByteArray h1 = "caguid=0x" + QByteArray::number(guidOf(QStringLiteral("h1")), 16) + '\n';
        const QByteArray h2 = "caguid=0x" + QByteArray::number(guidOf(QStringLiteral("h2")), 16) + '\n';
        QVERIFY(twice.contains(h2));
        twice.replace(h2, h1);
        const QString dup = writeFile(dir, QStringLiteral("dup.topo"), twice);
        run = test::runWeft({QStringLiteral("check"), QStringLiteral("--topology"), dup, QStringLiteral("--json")});
        QVERIFY2(run.exitCode == 1, run.out + run.err);
        QCOMPARE(kindsInJson(run.out), QStringList{QStringLiteral("duplicate-guid")});
    }
};

QTEST_GUILESS_MAIN(TestFabricCheck)
#include "tst_fabric_check.moc"
