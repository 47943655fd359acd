// Reconfiguration candidates side by side (spec 003 §8): what-if events applied to a fabric and
// their errors, every candidate kind planned against installed tables (issue 12's acceptance on
// degraded fat-trees: every candidate valid, SlimUpdate's changed paths never more than a full
// wFTree re-route's, T-SU-4), and `weft reconfigure` giving the same figures as planCandidates.

#include "GeneratedFabrics.h"
#include "LftDump.h"
#include "ReconfigurationCandidates.h"
#include "RoutingEngine.h"
#include "SafeFile.h"
#include "SlimUpdate.h"
#include "TopologyFile.h"
#include "WeftRunner.h"
#include "WhatIf.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <set>

using namespace weft;

namespace {

ForwardingTables routed(const QString &engine, const Fabric &fabric, const Tenancy &tenancy = {})
{
    Result<Routing> r = routeFabric(engine, fabric, tenancy);
    if (!r)
        qFatal("%s: %s", qPrintable(engine), qPrintable(r.error().toString()));
    return r->tables;
}

NodeIndex nodeNamed(const Fabric &fabric, const QString &description)
{
    for (NodeIndex n = 0; n < NodeIndex(fabric.nodes().size()); ++n)
        if (fabric.node(n).description == description)
            return n;
    qFatal("no node \"%s\"", qPrintable(description));
    return kNoIndex;
}

// Switch-to-switch links, as (lower end's description and port).
std::vector<LinkIndex> switchLinks(const Fabric &fabric)
{
    std::vector<LinkIndex> links;
    for (LinkIndex l = 0; l < LinkIndex(fabric.links().size()); ++l) {
        const Link &link = fabric.links()[std::size_t(l)];
        if (fabric.node(fabric.port(link.a).node).type == NodeType::Switch
            && fabric.node(fabric.port(link.b).node).type == NodeType::Switch)
            links.push_back(l);
    }
    return links;
}

// Whether every end node can still reach every other over the cables (a failure may cut a leaf
// off a degraded tree; then no routing can be valid and the case says nothing).
bool connected(const Fabric &fabric)
{
    std::vector<bool> seen(fabric.nodes().size(), false);
    std::vector<NodeIndex> stack{fabric.switches().front()};
    seen[std::size_t(stack.back())] = true;
    while (!stack.empty()) {
        const NodeIndex n = stack.back();
        stack.pop_back();
        const Node &node = fabric.node(n);
        for (int p = 1; p <= node.portCount; ++p) {
            const PortIndex pi = fabric.portOf(n, p);
            if (pi == kNoIndex || fabric.port(pi).remote == kNoIndex)
                continue;
            const NodeIndex next = fabric.port(fabric.port(pi).remote).node;
            if (!seen[std::size_t(next)] && fabric.node(next).type == NodeType::Switch)
                stack.push_back(next);
            seen[std::size_t(next)] = true;
        }
    }
    for (NodeIndex n : fabric.endNodes())
        if (!seen[std::size_t(n)])
            return false;
    return true;
}

CandidateInput inputFor(const Fabric &installedFabric, const ForwardingTables &installed, const WhatIf &whatIf)
{
    CandidateInput input;
    input.installedFabric = std::make_shared<const Fabric>(installedFabric);
    input.installed = std::make_shared<const ForwardingTables>(installed);
    Result<Fabric> after = applyWhatIf(installedFabric, whatIf);
    if (!after)
        qFatal("what-if: %s", qPrintable(after.error().toString()));
    input.fabric = std::make_shared<const Fabric>(std::move(after).value());
    input.event = whatIf.describe(installedFabric);
    return input;
}

const CandidateResult &candidateNamed(const CandidateStudy &study, const QString &name)
{
    for (const CandidateResult &c : study.candidates)
        if (c.name == name)
            return c;
    qFatal("no candidate %s", qPrintable(name));
    return study.candidates.front();
}

void writeFile(const QString &path, const QByteArray &data)
{
    const Status s = writeFileAtomically(path, data, false);
    if (!s)
        qFatal("%s", qPrintable(s.error().toString()));
}

}  // namespace

class TestReconfigure : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    // What-if events: named as an operator names them, applied without touching the fabric.
    void whatIfLinkSwitchAndHost()
    {
        const GeneratedFabric g = test::generate({FabricShapeKind::KaryNTree, 4, 2, 0});
        const Fabric &fabric = g.fabric;
        const NodeIndex leaf = nodeNamed(fabric, QStringLiteral("L1 leaf 0"));
        // The leaf's first up-link: a port cabled to a switch.
        int upPort = 0;
        for (int p = 1; p <= fabric.node(leaf).portCount && !upPort; ++p) {
            const PortIndex pi = fabric.portOf(leaf, p);
            if (fabric.port(pi).remote != kNoIndex && fabric.node(fabric.port(fabric.port(pi).remote).node).type == NodeType::Switch)
                upPort = p;
        }
        QVERIFY(upPort > 0);
        const PortIndex upPortIndex = fabric.portOf(leaf, upPort);
        const Port &far = fabric.port(fabric.port(upPortIndex).remote);
        const QString farName = fabric.node(far.node).description;

        WhatIf whatIf;
        Result<std::pair<Guid, int>> end = parseLinkEnd(fabric, QStringLiteral("L1 leaf 0[%1]").arg(upPort));
        QVERIFY2(end, qPrintable(end ? QString() : end.error().message));
        QCOMPARE(end->first, fabric.node(leaf).guid);
        QCOMPARE(end->second, upPort);
        // The other end of the cable names the same link; a GUID names the node too.
        Result<std::pair<Guid, int>> other = parseLinkEnd(fabric, QStringLiteral("%1[%2]").arg(guidText(fabric.node(far.node).guid)).arg(far.number));
        QVERIFY(other);
        QCOMPARE(other->first, fabric.node(far.node).guid);
        whatIf.failedLinkPorts.push_back(*end);

        // A spine that is not the far end of the failed link, and a host on another leaf.
        NodeIndex spine = kNoIndex;
        for (NodeIndex s : fabric.switches())
            if (s != far.node && fabric.node(s).description.contains(QStringLiteral("L0")))
                spine = s;
        QVERIFY(spine != kNoIndex);
        Result<Guid> failed = parseWhatIfNode(fabric, fabric.node(spine).description, true);
        QVERIFY(failed);
        whatIf.failedSwitches.push_back(*failed);
        const NodeIndex host = g.hosts.back();
        Result<Guid> removed = parseWhatIfNode(fabric, fabric.node(host).name, false);
        QVERIFY(removed);
        whatIf.removedHosts.push_back(*removed);

        QCOMPARE(whatIf.describe(fabric), QStringLiteral("link L1 leaf 0[%1]–%2[%3] fails; switch \"%4\" fails; host \"%5\" removed").arg(upPort).arg(farName).arg(far.number).arg(fabric.node(spine).description, fabric.node(host).description));

        Result<Fabric> after = applyWhatIf(fabric, whatIf);
        QVERIFY2(after, qPrintable(after ? QString() : after.error().message));
        QCOMPARE(after->switches().size(), fabric.switches().size() - 1);
        QCOMPARE(after->endNodes().size(), fabric.endNodes().size() - 1);
        QCOMPARE(after->nodeByGuid(fabric.node(spine).guid), kNoIndex);
        QCOMPARE(after->nodeByGuid(fabric.node(host).guid), kNoIndex);
        const int spineLinks = [&] {
            int count = 0;
            for (int p = 1; p <= fabric.node(spine).portCount; ++p)
                count += fabric.port(fabric.portOf(spine, p)).remote != kNoIndex;
            return count;
        }();
        QCOMPARE(after->links().size(), fabric.links().size() - 1 - std::size_t(spineLinks) - 1);
        // The failed link's ports stay, unlinked and down; LIDs are kept.
        const NodeIndex leafAfter = after->nodeByGuid(fabric.node(leaf).guid);
        const Port &upAfter = after->port(after->portOf(leafAfter, upPort));
        QVERIFY(upAfter.present);
        QCOMPARE(upAfter.remote, kNoIndex);
        QCOMPARE(upAfter.state, PortState::Down);
        for (NodeIndex n : after->endNodes()) {
            const Node &node = after->node(n);
            const PortIndex p = after->portOf(n, 1);
            QCOMPARE(after->port(p).lid, fabric.port(fabric.portByGuid(after->port(p).guid)).lid);
            QVERIFY(fabric.nodeByGuid(node.guid) != kNoIndex);
        }
        // The fabric itself is untouched.
        QVERIFY(fabric.port(upPortIndex).remote != kNoIndex);
    }

    void whatIfErrors_data()
    {
        QTest::addColumn<QString>("kind");  // link, switch, host
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::addRow("no [PORT]") << "link"
                                   << "L1 leaf 0"
                                   << "not a link end; name it NODE[PORT]";
        QTest::addRow("unknown node") << "link"
                                      << "nowhere[1]"
                                      << "\"nowhere\": no such node";
        QTest::addRow("port out of range") << "link"
                                           << "L1 leaf 0[99]"
                                           << "L1 leaf 0 has ports 1 to 8, not 99";
        QTest::addRow("ambiguous") << "link"
                                   << "leaf[1]"
                                   << "\"leaf\" is ambiguous: 4 nodes match";
        QTest::addRow("switch that is a host") << "switch"
                                               << "host 0001"
                                               << "\"host 0001\" is an end node (host 0001), not a switch";
        QTest::addRow("host that is a switch") << "host"
                                               << "L0 spine 1"
                                               << "\"L0 spine 1\" is a switch (L0 spine 1), not an end node";
        QTest::addRow("empty") << "switch"
                               << "  "
                               << "no node named";
    }
    void whatIfErrors()
    {
        QFETCH(QString, kind);
        QFETCH(QString, text);
        QFETCH(QString, message);
        const GeneratedFabric g = test::generate({FabricShapeKind::KaryNTree, 4, 2, 0});
        QString error;
        if (kind == QLatin1String("link")) {
            Result<std::pair<Guid, int>> r = parseLinkEnd(g.fabric, text);
            QVERIFY(!r);
            error = r.error().message;
        } else {
            Result<Guid> r = parseWhatIfNode(g.fabric, text, kind == QLatin1String("switch"));
            QVERIFY(!r);
            error = r.error().message;
        }
        QVERIFY2(error.contains(message), qPrintable(error));
    }

    void whatIfApplyErrors()
    {
        const GeneratedFabric g = test::generate({FabricShapeKind::KaryNTree, 4, 2, 0});
        const NodeIndex host = g.hosts.front();
        WhatIf unknown;
        unknown.failedSwitches.push_back(0x1234);
        Result<Fabric> r = applyWhatIf(g.fabric, unknown);
        QVERIFY(!r);
        QVERIFY2(r.error().message.contains(QStringLiteral("no node 0x0000000000001234")), qPrintable(r.error().message));
        WhatIf hostAsSwitch;
        hostAsSwitch.failedSwitches.push_back(g.fabric.node(host).guid);
        QVERIFY(!applyWhatIf(g.fabric, hostAsSwitch));
        WhatIf unlinked;
        unlinked.failedLinkPorts.push_back({g.fabric.node(host).guid, 2});
        r = applyWhatIf(g.fabric, unlinked);
        QVERIFY(!r);
        QVERIFY2(r.error().message.contains(QStringLiteral("not cabled")), qPrintable(r.error().message));
        QVERIFY(applyWhatIf(g.fabric, WhatIf{}));
    }

    void parseCandidateList_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("names");  // empty: an error
        QTest::addColumn<QString>("message");
        QTest::addRow("all three") << "full:ftree, slimupdate:0.5,metabase:sticky"
                                   << QStringList{QStringLiteral("full:ftree"), QStringLiteral("slimupdate:0.5"), QStringLiteral("metabase:sticky")} << "";
        QTest::addRow("defaults") << "slimupdate,metabase" << QStringList{QStringLiteral("slimupdate:0"), QStringLiteral("metabase:sticky")} << "";
        QTest::addRow("policy spelling") << "metabase:PORT_ORDER,metabase:mpi-order"
                                         << QStringList{QStringLiteral("metabase:port-order"), QStringLiteral("metabase:mpi-order")} << "";
        QTest::addRow("unknown engine") << "full:nope" << QStringList{} << "candidate \"full:nope\": no engine \"nope\"";
        QTest::addRow("no engine") << "full" << QStringList{} << "name the engine";
        QTest::addRow("negative tau") << "slimupdate:-1" << QStringList{} << "τ must be a number of 0 or more";
        QTest::addRow("unknown policy") << "metabase:random" << QStringList{} << "no slot policy \"random\"";
        QTest::addRow("unknown kind") << "reroute" << QStringList{} << "unknown kind \"reroute\"";
        QTest::addRow("empty") << " , " << QStringList{} << "no candidates named";
    }
    void parseCandidateList()
    {
        QFETCH(QString, text);
        QFETCH(QStringList, names);
        QFETCH(QString, message);
        Result<std::vector<CandidateSpec>> specs = parseCandidates(text);
        if (names.isEmpty()) {
            QVERIFY(!specs);
            QVERIFY2(specs.error().message.contains(message), qPrintable(specs.error().message));
            return;
        }
        QVERIFY(specs);
        QStringList got;
        for (const CandidateSpec &s : *specs)
            got << s.name();
        QCOMPARE(got, names);
        // A name reads back as the same candidate.
        Result<std::vector<CandidateSpec>> again = parseCandidates(got.join(QLatin1Char(',')));
        QVERIFY(again);
        QCOMPARE(again->size(), specs->size());
    }

    // Issue 12's acceptance: link failures of degraded fat-trees, one at a time.
    void degradedTreeLinkFailures_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("levels");
        QTest::addColumn<int>("removed");
        QTest::addColumn<int>("seed");
        for (int seed : {1, 2, 3}) {
            QTest::addRow("4-ary 3-tree less 2 links, seed %d", seed) << int(FabricShapeKind::KaryNTree) << 4 << 3 << 2 << seed;
            QTest::addRow("radix 8, 3 levels less 3 links, seed %d", seed) << int(FabricShapeKind::SwitchRadix) << 8 << 3 << 3 << seed;
        }
        QTest::addRow("radix 12, 2 levels less 2 links") << int(FabricShapeKind::SwitchRadix) << 12 << 2 << 2 << 5;
    }
    void degradedTreeLinkFailures()
    {
        QFETCH(int, kind);
        QFETCH(int, size);
        QFETCH(int, levels);
        QFETCH(int, removed);
        QFETCH(int, seed);
        const GeneratedFabric g = test::generate({FabricShapeKind(kind), size, levels, removed}, std::uint64_t(seed));
        const Fabric &fabric = g.fabric;
        const ForwardingTables installed = routed(QStringLiteral("wftree"), fabric);
        Result<std::vector<CandidateSpec>> specs = parseCandidates(
            QStringLiteral("full:updn,full:minhop,full:wftree,full:ftree,slimupdate,slimupdate:1,metabase:sticky,metabase:weighted"));
        QVERIFY(specs);

        const std::vector<LinkIndex> links = switchLinks(fabric);
        int studied = 0;
        for (std::size_t i = std::size_t(seed) % 3; i < links.size() && studied < 4; i += links.size() / 5 + 1) {
            const Link &link = fabric.links()[links[i]];
            WhatIf whatIf;
            whatIf.failedLinkPorts.push_back({fabric.node(fabric.port(link.a).node).guid, fabric.port(link.a).number});
            CandidateInput input = inputFor(fabric, installed, whatIf);
            if (!connected(*input.fabric))
                continue;
            ++studied;
            Result<CandidateStudy> study = planCandidates(input, *specs);
            QVERIFY(study);
            QCOMPARE(study->candidates.size(), specs->size());
            QCOMPARE(study->event, whatIf.describe(fabric));
            const CandidateResult &slim = candidateNamed(*study, QStringLiteral("slimupdate:0"));
            const CandidateResult &wftree = candidateNamed(*study, QStringLiteral("full:wftree"));
            QVERIFY2(slim.error.isEmpty(), qPrintable(slim.error));
            QVERIFY2(wftree.error.isEmpty(), qPrintable(wftree.error));
            QStringList line;
            for (const CandidateResult &c : study->candidates) {
                if (!c.error.isEmpty()) {
                    // ftree may refuse a degraded tree; nothing else may fail here.
                    QVERIFY2(c.spec.engine == QLatin1String("ftree") && c.spec.kind == CandidateKind::Full,
                             qPrintable(c.name + QStringLiteral(": ") + c.error));
                    continue;
                }
                QVERIFY2(c.valid(), qPrintable(QStringLiteral("%1 on %2, %3: reachable %4, loop-free %5, deadlock-free %6; %7").arg(c.name, g.summary, study->event).arg(c.reachable).arg(c.loopFree).arg(c.deadlockFree).arg(c.evaluation.validation.problems.join(QStringLiteral("; ")))));
                QCOMPARE(c.changedEntries, c.plan->diff.changedEntries);
                QVERIFY(c.tables);
                QVERIFY(c.maxLinkLoadAfter >= c.meanLinkLoadAfter);
                line << QStringLiteral("%1 %2").arg(c.name).arg(c.changedPaths);
            }
            // T-SU-4: ΔP(SlimUpdate) ≤ ΔP(full wFTree).
            QVERIFY2(slim.changedPaths <= wftree.changedPaths,
                     qPrintable(QStringLiteral("%1, %2: slimupdate %3 > wftree %4").arg(g.summary, study->event).arg(slim.changedPaths).arg(wftree.changedPaths)));
            QVERIFY(slim.changedPaths > 0);  // the failed link carried paths
            // …and than any full re-route that plans (the acceptance).
            for (const CandidateResult &c : study->candidates)
                if (c.spec.kind == CandidateKind::Full && c.error.isEmpty())
                    QVERIFY2(slim.changedPaths <= c.changedPaths,
                             qPrintable(QStringLiteral("%1, %2: slimupdate %3 > %4 %5").arg(g.summary, study->event).arg(slim.changedPaths).arg(c.name).arg(c.changedPaths)));
            // The installed tables lose pairs over the failed link: shown, not a failure.
            QCOMPARE(slim.maxLinkLoadBefore, study->installedEvaluation.metrics->allLoad.max);
            qInfo("%s, %s | dP: %s", qPrintable(g.summary), qPrintable(study->event), qPrintable(line.join(QStringLiteral(", "))));
        }
        QVERIFY(studied > 0);
    }

    // The drill-down lists exactly the pairs ΔP counts, in (source, destination) order.
    void changedPairsMatchCost()
    {
        const GeneratedFabric g = test::generate({FabricShapeKind::KaryNTree, 4, 3, 0});
        const ForwardingTables installed = routed(QStringLiteral("ftree"), g.fabric);
        const ForwardingTables other = routed(QStringLiteral("updn"), g.fabric);
        const ReconfigurationCost cost = reconfigurationCost(g.fabric, installed, g.fabric, other);
        QVERIFY(cost.pathModifications > 10);
        const ChangedPairs all = changedPairs(g.fabric, installed, g.fabric, other, 1000000);
        QCOMPARE(all.total, cost.pathModifications);
        QCOMPARE(all.pairs.size(), std::size_t(cost.pathModifications));
        QVERIFY(std::is_sorted(all.pairs.begin(), all.pairs.end()));
        const std::set<std::pair<PortIndex, PortIndex>> distinct(all.pairs.begin(), all.pairs.end());
        QCOMPARE(distinct.size(), all.pairs.size());
        const ChangedPairs few = changedPairs(g.fabric, installed, g.fabric, other, 5);
        QCOMPARE(few.total, cost.pathModifications);
        QCOMPARE(few.pairs.size(), std::size_t(5));
        QVERIFY(std::equal(few.pairs.begin(), few.pairs.end(), all.pairs.begin()));
        QCOMPARE(changedPairs(g.fabric, installed, g.fabric, installed).total, std::uint64_t(0));
    }

    void cancelAndProgress()
    {
        const GeneratedFabric g = test::generate({FabricShapeKind::KaryNTree, 4, 2, 0});
        const ForwardingTables installed = routed(QStringLiteral("ftree"), g.fabric);
        WhatIf whatIf;
        whatIf.removedHosts.push_back(g.fabric.node(g.hosts.front()).guid);
        const CandidateInput input = inputFor(g.fabric, installed, whatIf);
        Result<std::vector<CandidateSpec>> specs = parseCandidates(QStringLiteral("full:ftree,slimupdate,metabase:priority"));
        QVERIFY(specs);
        CandidateProgress progress;
        Result<CandidateStudy> study = planCandidates(input, *specs, &progress);
        QVERIFY(study);
        QCOMPARE(progress.done.load(), 3);
        QCOMPARE(progress.total.load(), 3);
        // A candidate that cannot be planned carries its error; the others stand.
        QVERIFY(candidateNamed(*study, QStringLiteral("full:ftree")).valid());
        QVERIFY(candidateNamed(*study, QStringLiteral("slimupdate:0")).valid());
        QCOMPARE(candidateNamed(*study, QStringLiteral("slimupdate:0")).changedPaths, std::uint64_t(0));
        CandidateProgress cancelled;
        cancelled.cancel = true;
        Result<CandidateStudy> none = planCandidates(input, *specs, &cancelled);
        QVERIFY(!none);
        QCOMPARE(none.error().message, cancelledMessage());
        CandidateInput empty;
        QVERIFY(!planCandidates(empty, *specs));
    }

    // `weft reconfigure` gives planCandidates' figures, and its NAME.lfts are the candidates' tables.
    void cliMatchesInProcess()
    {
        QVERIFY2(QFileInfo(qEnvironmentVariable("WEFT_BINARY")).isExecutable(), "WEFT_BINARY must name the weft executable");
        QVERIFY(m_dir.isValid());
        const GeneratedFabric g = test::generate({FabricShapeKind::KaryNTree, 4, 3, 2}, 2);
        const QString topology = m_dir.filePath(QStringLiteral("degraded.topo"));
        const QString lfts = m_dir.filePath(QStringLiteral("installed.lfts"));
        const QString outDir = m_dir.filePath(QStringLiteral("candidates"));
        writeFile(topology, writeIbnetdiscover(g.fabric));
        Result<Fabric> fabric = readTopologyFile(topology);
        QVERIFY(fabric);
        writeFile(lfts, writeLftDump(routed(QStringLiteral("wftree"), *fabric), &*fabric));
        Result<ForwardingTables> installed = readLftDumpFile(lfts, &*fabric);
        QVERIFY(installed);

        // An aggregation switch's up-link, named by its lower end.
        const NodeIndex aggr = nodeNamed(*fabric, QStringLiteral("L1 aggr 5"));
        int port = 0;
        for (int p = 1; p <= fabric->node(aggr).portCount && !port; ++p) {
            const PortIndex pi = fabric->portOf(aggr, p);
            if (fabric->port(pi).remote != kNoIndex
                && fabric->node(fabric->port(fabric->port(pi).remote).node).description.startsWith(QStringLiteral("L0")))
                port = p;
        }
        QVERIFY(port > 0);
        const QString failLink = QStringLiteral("L1 aggr 5[%1]").arg(port);
        const QString candidates = QStringLiteral("full:updn,full:wftree,slimupdate,slimupdate:2,metabase:sticky");
        const test::Run r = test::runWeft({QStringLiteral("reconfigure"), QStringLiteral("--json"), QStringLiteral("--topology"), topology,
                                           QStringLiteral("--lfts"), lfts, QStringLiteral("--fail-link"), failLink,
                                           QStringLiteral("--candidates"), candidates, QStringLiteral("--out-dir"), outDir});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject json = QJsonDocument::fromJson(r.out).object();
        const QJsonArray rows = json.value(QStringLiteral("candidates")).toArray();

        WhatIf whatIf;
        Result<std::pair<Guid, int>> end = parseLinkEnd(*fabric, failLink);
        QVERIFY(end);
        whatIf.failedLinkPorts.push_back(*end);
        const CandidateInput input = inputFor(*fabric, *installed, whatIf);
        QCOMPARE(json.value(QStringLiteral("event")).toString(), input.event);
        Result<std::vector<CandidateSpec>> specs = parseCandidates(candidates);
        QVERIFY(specs);
        Result<CandidateStudy> study = planCandidates(input, *specs);
        QVERIFY(study);
        QCOMPARE(rows.size(), qsizetype(study->candidates.size()));
        const QJsonObject before = json.value(QStringLiteral("installed")).toObject();
        QCOMPARE(before.value(QStringLiteral("max_link_load")).toDouble(), study->installedEvaluation.metrics->allLoad.max);
        QVERIFY(before.value(QStringLiteral("unreachable_pairs")).toDouble() > 0);  // the failed link's pairs
        for (qsizetype i = 0; i < rows.size(); ++i) {
            const QJsonObject row = rows[i].toObject();
            const CandidateResult &c = study->candidates[std::size_t(i)];
            QCOMPARE(row.value(QStringLiteral("name")).toString(), c.name);
            QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
            QCOMPARE(row.value(QStringLiteral("changed_entries")).toDouble(), double(c.changedEntries));
            QCOMPARE(row.value(QStringLiteral("changed_blocks")).toDouble(), double(c.changedBlocks));
            QCOMPARE(row.value(QStringLiteral("smps")).toDouble(), double(c.smps));
            QCOMPARE(row.value(QStringLiteral("changed_paths")).toDouble(), double(c.changedPaths));
            QCOMPARE(row.value(QStringLiteral("max_link_load")).toDouble(), c.maxLinkLoadAfter);
            QCOMPARE(row.value(QStringLiteral("mean_link_load")).toDouble(), c.meanLinkLoadAfter);
            QCOMPARE(row.value(QStringLiteral("max_link_load_before")).toDouble(), c.maxLinkLoadBefore);
            QCOMPARE(row.value(QStringLiteral("isolation_violations")).toInt(), c.isolationViolations);
            QCOMPARE(row.value(QStringLiteral("valid")).toBool(), c.valid());
            QVERIFY(c.valid());
            for (const char *key : {"reachable", "loop_free", "deadlock_free", "compute_seconds", "pairs_compared"})
                QVERIFY2(row.contains(QLatin1String(key)), key);
            Result<ForwardingTables> written = readLftDumpFile(QDir(outDir).filePath(c.name + QStringLiteral(".lfts")), input.fabric.get());
            QVERIFY2(written, qPrintable(written ? QString() : written.error().toString()));
            QVERIFY(*written == *c.tables);
        }
        // The text form: one row per candidate.
        const test::Run text = test::runWeft({QStringLiteral("reconfigure"), QStringLiteral("--topology"), topology, QStringLiteral("--lfts"), lfts,
                                              QStringLiteral("--fail-link"), failLink, QStringLiteral("--candidates"), candidates});
        QCOMPARE(text.exitCode, 0);
        for (const CandidateResult &c : study->candidates)
            QVERIFY2(text.out.contains(QStringLiteral("\n%1 ").arg(c.name).toUtf8()), text.out.constData());
    }

    // T-SU-2 through the CLI: T-WFT-1's tree (2 spines, 2 leaves of 4 hosts), ftree installed,
    // the first host on L1 leaves. ftree's recompute moves 12 paths, SlimUpdate none.
    void cliNodeRemovalTsu2()
    {
        const QString topology = m_dir.filePath(QStringLiteral("twft1.topo"));
        const QString lfts = m_dir.filePath(QStringLiteral("twft1.lfts"));
        QCOMPARE(test::runWeft({QStringLiteral("gen"), QStringLiteral("--xgft"), QStringLiteral("2;2,4;2,1"), QStringLiteral("-o"), topology}).exitCode, 0);
        QCOMPARE(test::runWeft({QStringLiteral("route"), QStringLiteral("--engine"), QStringLiteral("ftree"), QStringLiteral("--topology"), topology,
                                QStringLiteral("--out"), lfts})
                     .exitCode,
                 0);
        const test::Run r = test::runWeft({QStringLiteral("reconfigure"), QStringLiteral("--json"), QStringLiteral("--topology"), topology,
                                           QStringLiteral("--lfts"), lfts, QStringLiteral("--remove-host"), QStringLiteral("host 0000"),
                                           QStringLiteral("--candidates"), QStringLiteral("full:ftree,slimupdate")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonArray rows = QJsonDocument::fromJson(r.out).object().value(QStringLiteral("candidates")).toArray();
        QCOMPARE(rows.size(), 2);
        const QJsonObject full = rows[0].toObject();
        const QJsonObject slim = rows[1].toObject();
        QCOMPARE(full.value(QStringLiteral("changed_paths")).toInt(), 12);
        QCOMPARE(full.value(QStringLiteral("changed_blocks")).toInt(), 4);
        QVERIFY(full.value(QStringLiteral("changed_entries")).toInt() >= 7);  // 7, and ftree's switch-LID rebalancing
        QCOMPARE(slim.value(QStringLiteral("changed_paths")).toInt(), 0);
        QCOMPARE(slim.value(QStringLiteral("changed_entries")).toInt(), 4);
        QCOMPARE(slim.value(QStringLiteral("changed_blocks")).toInt(), 4);
        QCOMPARE(slim.value(QStringLiteral("max_link_load")).toDouble(), full.value(QStringLiteral("max_link_load")).toDouble());
    }

    void cliBadInput_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QByteArray>("orderFile");  // written to order.txt when not empty
        QTest::addColumn<QString>("message");
        QTest::addRow("link without port") << QStringList{QStringLiteral("--fail-link"), QStringLiteral("L1 leaf 0")} << QByteArray()
                                           << "--fail-link: \"L1 leaf 0\": not a link end; name it NODE[PORT]";
        QTest::addRow("unknown node") << QStringList{QStringLiteral("--fail-link"), QStringLiteral("nowhere[1]")} << QByteArray()
                                      << "--fail-link: link \"nowhere[1]\": \"nowhere\": no such node";
        QTest::addRow("uncabled port") << QStringList{QStringLiteral("--fail-link"), QStringLiteral("host 0001[2]")} << QByteArray()
                                       << "host 0001 has ports 1 to 1, not 2";
        QTest::addRow("host as switch") << QStringList{QStringLiteral("--fail-switch"), QStringLiteral("host 0001")} << QByteArray()
                                        << "--fail-switch: \"host 0001\" is an end node";
        QTest::addRow("bad candidate") << QStringList{} << QByteArray() << "--candidates: candidate \"full:nope\": no engine";
        QTest::addRow("node order: unknown") << QStringList{} << QByteArray("# ranks\nhost 0001\nhost 9999\n")
                                             << "order.txt:3: no end node described or named \"host 9999\"";
        QTest::addRow("node order: twice") << QStringList{} << QByteArray("host 0001\nhost 0002 # rank 1\nhost 0001\n")
                                           << "order.txt:3: port 0x0002c91000000401 is listed already (line 1)";
        QTest::addRow("node order: switch") << QStringList{} << QByteArray("L1 leaf 0\n") << "order.txt:1: \"L1 leaf 0\" is a switch";
    }
    void cliBadInput()
    {
        QFETCH(QStringList, extra);
        QFETCH(QByteArray, orderFile);
        QFETCH(QString, message);
        const GeneratedFabric g = test::generate({FabricShapeKind::KaryNTree, 4, 2, 0});
        const QString topology = m_dir.filePath(QStringLiteral("bad.topo"));
        const QString lfts = m_dir.filePath(QStringLiteral("bad.lfts"));
        writeFile(topology, writeIbnetdiscover(g.fabric));
        writeFile(lfts, writeLftDump(routed(QStringLiteral("ftree"), g.fabric), &g.fabric));
        QStringList args{QStringLiteral("reconfigure"), QStringLiteral("--topology"), topology, QStringLiteral("--lfts"), lfts,
                         QStringLiteral("--out-dir"), m_dir.filePath(QStringLiteral("bad-out")), QStringLiteral("--candidates"),
                         QTest::currentDataTag() == QByteArray("bad candidate") ? QStringLiteral("slimupdate,full:nope")
                                                                                : QStringLiteral("metabase:mpi-order")};
        args += extra;
        if (!orderFile.isEmpty()) {
            writeFile(m_dir.filePath(QStringLiteral("order.txt")), orderFile);
            args << QStringLiteral("--node-order") << m_dir.filePath(QStringLiteral("order.txt"));
        }
        const test::Run r = test::runWeft(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
        QVERIFY(r.out.isEmpty());
        QVERIFY(!QFileInfo::exists(m_dir.filePath(QStringLiteral("bad-out"))));  // nothing written
    }

    // A candidate that cannot be planned: its error in its row, the others planned, exit 1.
    void cliCandidateFailureExitCode()
    {
        const GeneratedFabric g = test::generate({FabricShapeKind::KaryNTree, 4, 2, 1}, 3);
        const QString topology = m_dir.filePath(QStringLiteral("refused.topo"));
        const QString lfts = m_dir.filePath(QStringLiteral("refused.lfts"));
        writeFile(topology, writeIbnetdiscover(g.fabric));
        writeFile(lfts, writeLftDump(routed(QStringLiteral("wftree"), g.fabric), &g.fabric));
        const test::Run r = test::runWeft({QStringLiteral("reconfigure"), QStringLiteral("--json"), QStringLiteral("--topology"), topology,
                                           QStringLiteral("--lfts"), lfts, QStringLiteral("--candidates"), QStringLiteral("full:ftree,slimupdate")});
        QCOMPARE(r.exitCode, 1);
        const QJsonArray rows = QJsonDocument::fromJson(r.out).object().value(QStringLiteral("candidates")).toArray();
        QCOMPARE(rows.size(), 2);
        QVERIFY(rows[0].toObject().value(QStringLiteral("error")).toString().contains(QStringLiteral("not a pure fat-tree")));
        QVERIFY(rows[1].toObject().value(QStringLiteral("valid")).toBool());
        QVERIFY2(r.err.contains("weft reconfigure: full:ftree: "), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestReconfigure)
#include "tst_reconfigure.moc"
