// An intent that says how its change is applied (IntentOptions::apply, issue 40): the option read,
// written and refused with the file, line and problem; the intent that installs a studio candidate
// (intentApplying) and its refusals; and the plugin's routing of it (routeIntentAfterChange, as
// Weft's engine inside OpenSM calls it) giving, from the same held tables on the same fabric, the
// studio's candidate tables byte for byte, kept at the sweeps after it.

#include "FabricGenerator.h"
#include "IntentRouting.h"
#include "LftDump.h"
#include "ProjectFile.h"

#include <QCryptographicHash>
#include <QJsonObject>
#include <QtTest>

using namespace weft;

namespace {

GeneratedFabric applyTree()
{
    GeneratorOptions o;
    o.arity = 4;
    o.levels = 2;
    o.linkSpeed = LinkSpeed::SDR;
    Result<GeneratedFabric> generated = generateFabric(o);
    if (!generated)
        qFatal("%s", qPrintable(generated.error().toString()));
    return std::move(*generated);
}

// The first switch-to-switch cable, by its lower end.
std::pair<Guid, int> firstSwitchCable(const Fabric &f)
{
    for (const Link &link : f.links()) {
        const Port &a = f.port(link.a);
        const Port &b = f.port(link.b);
        if (f.node(a.node).type == NodeType::Switch && f.node(b.node).type == NodeType::Switch)
            return {f.node(a.node).guid, a.number};
    }
    return {0, 0};
}

// A project file's text with `apply` as its apply option, and the line the option is on.
QByteArray projectWithApply(const QJsonObject &apply, int *line)
{
    Project p;
    p.routingEngine = QStringLiteral("ftree");
    p.routingOptions[QStringLiteral("apply")] = apply;
    const QByteArray text = writeProject(p);
    *line = int(text.left(text.indexOf("\"apply\"")).count('\n')) + 1;
    return text;
}

}  // namespace

class TestIntentApply : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void optionIsReadAndWritten_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<double>("tau");
        QTest::addColumn<int>("policy");
        QTest::addRow("slimupdate") << int(CandidateKind::SlimUpdate) << 0.0 << int(SlotPolicy::Sticky);
        QTest::addRow("slimupdate tolerance 2.5") << int(CandidateKind::SlimUpdate) << 2.5 << int(SlotPolicy::Sticky);
        QTest::addRow("metabase weighted") << int(CandidateKind::Metabase) << 0.0 << int(SlotPolicy::Weighted);
        QTest::addRow("metabase port-order") << int(CandidateKind::Metabase) << 1.0 << int(SlotPolicy::PortOrder);
    }
    void optionIsReadAndWritten()
    {
        QFETCH(int, kind);
        QFETCH(double, tau);
        QFETCH(int, policy);
        CandidateSpec spec;
        spec.kind = CandidateKind(kind);
        spec.tau = tau;
        spec.policy = SlotPolicy(policy);
        Project p;
        p.routingEngine = QStringLiteral("pftree");
        const QByteArray text = writeProject(withApply(p, spec));
        Result<Project> read = readProject(text, QStringLiteral("intent.weft"));
        QVERIFY(read);
        Result<IntentOptions> options = intentOptions(*read, QStringLiteral("intent.weft"), text);
        QVERIFY2(options, options ? "" : qPrintable(options.error().toString()));
        QVERIFY(options->apply);
        QCOMPARE(options->apply->name(), spec.name());
        QCOMPARE(options->apply->tau, tau);
        // None, or a full re-route, is the engine's default: no option written.
        QVERIFY(!withApply(*read, std::nullopt).routingOptions.contains(QStringLiteral("apply")));
        CandidateSpec full;
        QVERIFY(!withApply(*read, full).routingOptions.contains(QStringLiteral("apply")));
        // "engine" reads as none; a drain (withDrained) is the engine's routing and drops it.
        read->routingOptions[QStringLiteral("apply")] = QJsonObject{{QStringLiteral("method"), QStringLiteral("engine")}};
        options = intentOptions(*read);
        QVERIFY(options && !options->apply);
        QVERIFY(!withDrained(withApply(p, spec), WhatIf{}).routingOptions.contains(QStringLiteral("apply")));
        // The stamp of the tables it was planned from, read back as written.
        const QString stamp = QStringLiteral("0123456789abcdef0123456789abcdef");
        const QByteArray stamped = writeProject(withApply(p, spec, stamp));
        QVERIFY(stamped != text);
        read = readProject(stamped, QStringLiteral("intent.weft"));
        QVERIFY(read);
        options = intentOptions(*read, QStringLiteral("intent.weft"), stamped);
        QVERIFY2(options, options ? "" : qPrintable(options.error().toString()));
        QCOMPARE(options->applyFrom, stamp);
        QCOMPARE(options->apply->name(), spec.name());
    }

    void badValuesNameFileLineAndProblem_data()
    {
        QTest::addColumn<QJsonObject>("apply");
        QTest::addColumn<QString>("problem");
        const auto o = [](std::initializer_list<QPair<QString, QJsonValue>> items) { return QJsonObject(items); };
        QTest::addRow("no method") << o({{QStringLiteral("tolerance"), 1}}) << QStringLiteral("needs a \"method\"");
        QTest::addRow("unknown method") << o({{QStringLiteral("method"), QStringLiteral("slimupdat")}}) << QStringLiteral("\"slimupdat\" is not");
        QTest::addRow("negative tolerance") << o({{QStringLiteral("method"), QStringLiteral("slimupdate")}, {QStringLiteral("tolerance"), -1}})
                                            << QStringLiteral("tolerance must be a number");
        QTest::addRow("tolerance as text") << o({{QStringLiteral("method"), QStringLiteral("slimupdate")}, {QStringLiteral("tolerance"), QStringLiteral("1")}})
                                           << QStringLiteral("tolerance must be a number");
        QTest::addRow("policy for slimupdate") << o({{QStringLiteral("method"), QStringLiteral("slimupdate")}, {QStringLiteral("policy"), QStringLiteral("sticky")}})
                                               << QStringLiteral("a policy is metabase's");
        QTest::addRow("unknown policy") << o({{QStringLiteral("method"), QStringLiteral("metabase")}, {QStringLiteral("policy"), QStringLiteral("round-robin")}})
                                        << QStringLiteral("\"round-robin\" is not");
        QTest::addRow("policy with hosts") << o({{QStringLiteral("method"), QStringLiteral("metabase")}, {QStringLiteral("policy"), QStringLiteral("mpi-order")}})
                                           << QStringLiteral("does not carry");
        QTest::addRow("unknown key") << o({{QStringLiteral("method"), QStringLiteral("slimupdate")}, {QStringLiteral("tau"), 1}})
                                     << QStringLiteral("unknown key \"tau\"");
        QTest::addRow("engine with a tolerance") << o({{QStringLiteral("method"), QStringLiteral("engine")}, {QStringLiteral("tolerance"), 1}})
                                                 << QStringLiteral("takes no tolerance");
        QTest::addRow("stamp not hexadecimal") << o({{QStringLiteral("method"), QStringLiteral("slimupdate")}, {QStringLiteral("from"), QStringLiteral("0123456789abcdef0123456789abcdeg")}})
                                               << QStringLiteral("\"from\" must be the stamp");
        QTest::addRow("stamp too short") << o({{QStringLiteral("method"), QStringLiteral("slimupdate")}, {QStringLiteral("from"), QStringLiteral("0123")}})
                                         << QStringLiteral("32 lower-case hexadecimal digits");
        QTest::addRow("stamp as a number") << o({{QStringLiteral("method"), QStringLiteral("metabase")}, {QStringLiteral("from"), 12}})
                                           << QStringLiteral("\"from\" must be the stamp");
        QTest::addRow("engine with a stamp") << o({{QStringLiteral("method"), QStringLiteral("engine")}, {QStringLiteral("from"), QStringLiteral("0123456789abcdef0123456789abcdef")}})
                                             << QStringLiteral("takes no tolerance, policy or stamp");
    }
    void badValuesNameFileLineAndProblem()
    {
        QFETCH(QJsonObject, apply);
        QFETCH(QString, problem);
        int line = 0;
        const QByteArray text = projectWithApply(apply, &line);
        QVERIFY(line > 1);
        Result<Project> read = readProject(text, QStringLiteral("intent.weft"));
        QVERIFY(read);
        const Result<IntentOptions> refused = intentOptions(*read, QStringLiteral("intent.weft"), text);
        QVERIFY(!refused);
        QCOMPARE(refused.error().file, QStringLiteral("intent.weft"));
        QCOMPARE(refused.error().line, line);
        QVERIFY2(refused.error().message.contains(problem), qPrintable(refused.error().message));
        QVERIFY2(refused.error().message.contains(QLatin1String("apply")), qPrintable(refused.error().message));
        // Not an object at all.
        Project p = *read;
        p.routingOptions[QStringLiteral("apply")] = QStringLiteral("slimupdate");
        QVERIFY(!intentOptions(p));
    }

    // The intent that installs a candidate: the candidate's method, the events' failures drained;
    // refused, saying why, where the plugin could not give the candidate's tables.
    void intentApplyingACandidate()
    {
        const GeneratedFabric generated = applyTree();
        const Fabric &f = generated.fabric;
        const std::pair<Guid, int> cable = firstSwitchCable(f);
        QVERIFY(cable.first);
        Project inForce;
        inForce.routingEngine = QStringLiteral("ftree");
        WhatIf events;
        events.failedLinkPorts.push_back(cable);
        CandidateSpec slim;
        slim.kind = CandidateKind::SlimUpdate;
        slim.tau = 1;
        Result<Project> applying = intentApplying(inForce, slim, events, f);
        QVERIFY2(applying, applying ? "" : qPrintable(applying.error().toString()));
        QCOMPARE(applying->routingEngine, QStringLiteral("ftree"));
        Result<IntentOptions> options = intentOptions(*applying);
        QVERIFY(options && options->apply);
        QCOMPARE(options->apply->name(), QStringLiteral("slimupdate:1"));
        QCOMPARE(options->drained.failedLinkPorts, events.failedLinkPorts);

        CandidateSpec full;
        Result<Project> refused = intentApplying(inForce, full, events, f);
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.contains(QLatin1String("full re-route")), qPrintable(refused.error().message));
        WhatIf removed = events;
        removed.removedHosts.push_back(f.node(f.endNodes().front()).guid);
        refused = intentApplying(inForce, slim, removed, f);
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.contains(QLatin1String("removed host")), qPrintable(refused.error().message));
        // The intent in force drains a cable the events leave in use: the candidate was planned with it.
        refused = intentApplying(*applying, slim, WhatIf{}, f);
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.contains(QLatin1String("drains")), qPrintable(refused.error().message));
        // The same cable named by its other end is the same drain.
        const NodeIndex n = f.nodeByGuid(cable.first);
        const Port &other = f.port(f.port(f.portOf(n, cable.second)).remote);
        WhatIf byOtherEnd;
        byOtherEnd.failedLinkPorts.emplace_back(f.node(other.node).guid, other.number);
        QVERIFY(intentApplying(*applying, slim, byOtherEnd, f));
        // A cable to a host: draining it would cut the host off.
        WhatIf hostCable;
        const NodeIndex host = f.endNodes().front();
        hostCable.failedLinkPorts.emplace_back(f.node(host).guid, 1);
        refused = intentApplying(inForce, slim, hostCable, f);
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.contains(QLatin1String("cut off")), qPrintable(refused.error().message));
        // Its tables come from the held ones: `weft commit --project` does not plan it.
        QVERIFY(!planIntentCommit(f, *applying, writeProject(*applying), QStringLiteral("intent.weft"), HeldTables{}));
    }

    // The studio's candidate and the plugin's routing of the intent that applies it: the same
    // held tables and fabric give the same tables, entry for entry; the sweeps after keep them.
    void pluginGivesTheStudiosTables_data()
    {
        QTest::addColumn<QString>("candidate");
        QTest::addColumn<bool>("failSwitch");
        QTest::addRow("slimupdate:0, a cable") << QStringLiteral("slimupdate:0") << false;
        QTest::addRow("slimupdate:3, a cable") << QStringLiteral("slimupdate:3") << false;
        QTest::addRow("metabase:sticky, a cable") << QStringLiteral("metabase:sticky") << false;
        QTest::addRow("metabase:weighted, a cable") << QStringLiteral("metabase:weighted") << false;
        QTest::addRow("slimupdate:0, a spine") << QStringLiteral("slimupdate:0") << true;
    }
    void pluginGivesTheStudiosTables()
    {
        QFETCH(QString, candidate);
        QFETCH(bool, failSwitch);
        const GeneratedFabric generated = applyTree();
        const Fabric &f = generated.fabric;
        auto fabric = std::make_shared<const Fabric>(f);
        // Held: OpenSM's ftree; the failed element carries some of its routes, which the candidate moves.
        Result<Routing> held = routeFabric(QStringLiteral("ftree"), f, Tenancy{});
        QVERIFY(held);
        WhatIf events;
        if (failSwitch) {
            for (NodeIndex sw : f.switches())
                if (generated.nodeLevel[std::size_t(sw)] == 0 && events.failedSwitches.empty())
                    events.failedSwitches.push_back(f.node(sw).guid);  // a spine: no host is cut off
        } else
            events.failedLinkPorts.push_back(firstSwitchCable(f));
        Result<Fabric> after = applyWhatIf(f, events);
        QVERIFY(after);

        CandidateInput input;
        input.installedFabric = fabric;
        input.installed = std::make_shared<const ForwardingTables>(held->tables);
        input.fabric = std::make_shared<const Fabric>(std::move(*after));
        input.event = events.describe(f);
        Result<std::vector<CandidateSpec>> specs = parseCandidates(candidate);
        QVERIFY(specs);
        Result<CandidateStudy> study = planCandidates(input, *specs);
        QVERIFY2(study, study ? "" : qPrintable(study.error().toString()));
        const CandidateResult &c = study->candidates.front();
        QVERIFY2(c.error.isEmpty() && c.tables, qPrintable(c.error));
        QVERIFY(c.valid());
        QVERIFY2(c.changedEntries > 0, "the candidate must change the held tables, or the test proves nothing");

        Project inForce;
        inForce.routingEngine = QStringLiteral("ftree");
        Result<Project> intent = intentApplying(inForce, c.spec, events, f);
        QVERIFY2(intent, intent ? "" : qPrintable(intent.error().toString()));
        const Project bound = bindProject(*readProject(writeProject(*intent), QStringLiteral("intent.weft")), f).project;
        InstalledRouting installed;
        installed.fabric = fabric;
        installed.tables = held->tables;
        installed.intentDigest = QStringLiteral("the intent before");
        Result<IntentRouting> routed = routeIntentAfterChange(f, bound, QStringLiteral("the new intent"), &installed);
        QVERIFY2(routed, routed ? "" : qPrintable(routed.error().toString()));
        QCOMPARE(routed->method, c.name);
        // A drained switch gets a table of its own LID alone, as the session's plan gives it.
        const ForwardingTables expected = withDrainedSwitchTables(f, *c.tables);
        QCOMPARE(expected.switches().size(), f.switches().size());
        QCOMPARE(writeLftDump(routed->routing.tables, &f), writeLftDump(expected, &f));
        QVERIFY(routed->routing.tables == expected);

        // The next sweep, nothing changed: kept as they are, not applied again to its own output.
        InstalledRouting next;
        next.fabric = routed->routedOn ? routed->routedOn : fabric;
        next.tables = routed->routing.tables;
        next.serviceLevels = routed->routing.serviceLevels;
        next.intentDigest = QStringLiteral("the new intent");
        Result<IntentRouting> again = routeIntentAfterChange(f, bound, QStringLiteral("the new intent"), &next);
        QVERIFY(again);
        QCOMPARE(again->method, QStringLiteral("kept"));
        QVERIFY(again->routing.tables == expected);
        // With nothing held (a first start) it is routed by the engine, and says so.
        Result<IntentRouting> fresh = routeIntentAfterChange(f, bound, QStringLiteral("the new intent"), nullptr);
        QVERIFY(fresh);
        QVERIFY(fresh->method != c.name);
        QVERIFY2(fresh->notes.join(QLatin1Char(' ')).contains(QLatin1String("no tables held")), qPrintable(fresh->notes.join(QLatin1Char(' '))));
    }

    // The stamp of the held tables: the same tables give the same stamp whatever lies past the
    // fabric's LIDs and whether a switch that routes nothing has a table; one entry moved changes it.
    void heldTablesStampIsTheEntriesOfTheFabricsLids()
    {
        const GeneratedFabric generated = applyTree();
        const Fabric &f = generated.fabric;
        Result<Routing> held = routeFabric(QStringLiteral("ftree"), f, Tenancy{});
        QVERIFY(held);
        const QString stamp = heldTablesStamp(f, held->tables);
        QCOMPARE(stamp.size(), 32);
        QCOMPARE(heldTablesStamp(f, held->tables), stamp);
        // Entries past every LID the fabric assigns (what a switch's table may hold beyond them).
        ForwardingTables padded = held->tables;
        const Lid past = Lid(padded.lft(0).top() + 40);
        padded.lft(0).setPort(past, 3);
        QVERIFY(!(padded == held->tables));
        QCOMPARE(heldTablesStamp(f, padded), stamp);
        // One entry of one switch moved.
        ForwardingTables moved = held->tables;
        const Lid lid = f.port(f.portOf(f.endNodes().back(), 1)).lid;
        const std::uint8_t port = moved.lft(0).port(lid);
        moved.lft(0).setPort(lid, port == 1 ? 2 : 1);
        QVERIFY(heldTablesStamp(f, moved) != stamp);
        // No tables at all: every switch routes nothing, the same as tables of no entries.
        ForwardingTables empty;
        for (const NodeIndex sw : f.switches())
            empty.addSwitch(f.node(sw).guid, f.nodeLid(sw), f.node(sw).description);
        QCOMPARE(heldTablesStamp(f, ForwardingTables{}), heldTablesStamp(f, empty));
        QVERIFY(heldTablesStamp(f, empty) != stamp);
    }

    // The same candidate approved again, its intent file the same to the byte (issue 40): the
    // plugin applies it again when the tables held are the ones it was planned from (the stamp)
    // and were not made by it from them; it keeps them once they are. A candidate planned from
    // other tables (after another commit) has another stamp, so another file: applied, and gives
    // the studio's tables from those. A rollback that puts the intent before back gets that
    // intent's tables back, not its method applied to the failed commit's tables.
    void sameIntentAgainAndRollback()
    {
        const GeneratedFabric generated = applyTree();
        const Fabric &f = generated.fabric;
        auto fabric = std::make_shared<const Fabric>(f);
        Result<Routing> engine = routeFabric(QStringLiteral("ftree"), f, Tenancy{});
        QVERIFY(engine);
        const ForwardingTables h0 = engine->tables;
        WhatIf events;
        events.failedLinkPorts.push_back(firstSwitchCable(f));
        Result<Fabric> after = applyWhatIf(f, events);
        QVERIFY(after);
        auto afterFabric = std::make_shared<const Fabric>(std::move(*after));
        // The studio's candidate from `held`.
        auto studio = [&](const ForwardingTables &held, const QString &candidate) -> std::optional<CandidateResult> {
            CandidateInput input;
            input.installedFabric = fabric;
            input.installed = std::make_shared<const ForwardingTables>(held);
            input.fabric = afterFabric;
            input.event = events.describe(f);
            Result<CandidateStudy> study = planCandidates(input, *parseCandidates(candidate));
            if (!study || !study->candidates.front().tables || !study->candidates.front().valid())
                return std::nullopt;
            return study->candidates.front();
        };
        Project inForce;
        inForce.routingEngine = QStringLiteral("ftree");
        // What the plugin reads: the file's bytes, and their digest.
        auto bound = [&](const Project &intent) {
            return bindProject(*readProject(writeProject(intent), QStringLiteral("intent.weft")), f).project;
        };
        auto digest = [](const Project &intent) { return QString::fromLatin1(QCryptographicHash::hash(writeProject(intent), QCryptographicHash::Sha256).toHex().left(16)); };
        auto installedBy = [&](const Result<IntentRouting> &routed, const Project &intent) {
            InstalledRouting i;
            i.fabric = routed->routedOn ? routed->routedOn : fabric;
            i.tables = routed->routing.tables;
            i.serviceLevels = routed->routing.serviceLevels;
            i.intentDigest = digest(intent);
            i.appliedFrom = routed->appliedFrom;
            return i;
        };

        // A: SlimUpdate planned from H0, approved; the plugin installs the studio's tables.
        const std::optional<CandidateResult> a = studio(h0, QStringLiteral("slimupdate:0"));
        QVERIFY(a && a->changedEntries > 0);
        Result<Project> intentA = intentApplying(inForce, a->spec, events, f, heldTablesStamp(f, h0));
        QVERIFY(intentA);
        InstalledRouting heldH0;
        heldH0.fabric = fabric;
        heldH0.tables = h0;
        heldH0.intentDigest = digest(inForce);
        Result<IntentRouting> routedA = routeIntentAfterChange(f, bound(*intentA), digest(*intentA), &heldH0);
        QVERIFY(routedA);
        QVERIFY(routedA->routing.tables == *a->tables);
        QCOMPARE(routedA->appliedFrom, heldTablesStamp(f, h0));
        const InstalledRouting installedA = installedBy(routedA, *intentA);
        // The next sweep keeps them.
        Result<IntentRouting> keptA = routeIntentAfterChange(f, bound(*intentA), digest(*intentA), &installedA);
        QVERIFY(keptA);
        QCOMPARE(keptA->method, QStringLiteral("kept"));
        QCOMPARE(keptA->appliedFrom, routedA->appliedFrom);

        // OpenSM started afresh and routed A's intent by its engine, and the tables are H0 again
        // (what A was planned from): A approved again writes the same file to the byte.
        QCOMPARE(writeProject(*intentApplying(inForce, a->spec, events, f, heldTablesStamp(f, h0))), writeProject(*intentA));
        InstalledRouting afresh = heldH0;
        afresh.fabric = installedA.fabric;       // the fabric without the drained cable
        afresh.intentDigest = digest(*intentA);  // routed under A's intent, by the engine
        Result<IntentRouting> again = routeIntentAfterChange(f, bound(*intentA), digest(*intentA), &afresh);
        QVERIFY(again);
        QCOMPARE(again->method, a->name);
        QVERIFY(again->routing.tables == *a->tables);
        // Once made by A from H0 (the stamp recorded), the same tables are kept, not applied to again.
        afresh.appliedFrom = heldTablesStamp(f, h0);
        Result<IntentRouting> stays = routeIntentAfterChange(f, bound(*intentA), digest(*intentA), &afresh);
        QVERIFY(stays);
        QCOMPARE(stays->method, QStringLiteral("kept"));
        // Tables A was not planned from, under A's intent, are not applied to unasked.
        InstalledRouting other = installedA;
        other.appliedFrom.clear();
        Result<IntentRouting> notAgain = routeIntentAfterChange(f, bound(*intentA), digest(*intentA), &other);
        QVERIFY(notAgain);
        QCOMPARE(notAgain->method, QStringLiteral("kept"));

        // B: metabase planned from A's tables, approved; then A again, planned from B's tables:
        // another stamp, another file, and the plugin gives the studio's tables from B's.
        const std::optional<CandidateResult> b = studio(*a->tables, QStringLiteral("metabase:weighted"));
        QVERIFY(b);
        Result<Project> intentB = intentApplying(*intentA, b->spec, events, f, heldTablesStamp(f, *a->tables));
        QVERIFY(intentB);
        Result<IntentRouting> routedB = routeIntentAfterChange(f, bound(*intentB), digest(*intentB), &installedA);
        QVERIFY(routedB);
        QVERIFY(routedB->routing.tables == *b->tables);
        InstalledRouting installedB = installedBy(routedB, *intentB);
        const std::optional<CandidateResult> a2 = studio(*b->tables, QStringLiteral("slimupdate:0"));
        QVERIFY(a2);
        Result<Project> intentA2 = intentApplying(*intentB, a2->spec, events, f, heldTablesStamp(f, *b->tables));
        QVERIFY(intentA2);
        QVERIFY(writeProject(*intentA2) != writeProject(*intentA));
        Result<IntentRouting> routedA2 = routeIntentAfterChange(f, bound(*intentA2), digest(*intentA2), &installedB);
        QVERIFY(routedA2);
        QCOMPARE(routedA2->method, a2->name);
        QVERIFY(routedA2->routing.tables == *a2->tables);

        // B's commit failed and rolled back: A's file is back, and with it A's tables as installed.
        ForwardingTables failed = *b->tables;
        installedB.tables = failed;
        installedB.previousIntent = std::make_shared<const InstalledRouting>(installedA);
        Result<IntentRouting> restored = routeIntentAfterChange(f, bound(*intentA), digest(*intentA), &installedB);
        QVERIFY(restored);
        QCOMPARE(restored->method, QStringLiteral("restored"));
        QVERIFY(restored->routing.tables == *a->tables);
        QCOMPARE(restored->appliedFrom, installedA.appliedFrom);
        // Without the intent before kept (OpenSM restarted since), A is applied to what is held.
        installedB.previousIntent.reset();
        Result<IntentRouting> applied = routeIntentAfterChange(f, bound(*intentA), digest(*intentA), &installedB);
        QVERIFY(applied);
        QCOMPARE(applied->method, a->name);
        QVERIFY2(applied->notes.join(QLatin1Char(' ')).contains(QLatin1String("not what was planned")), qPrintable(applied->notes.join(QLatin1Char(' '))));
    }

    // A recovery's tables of an intent file: an apply intent's are the plan's, kept with the
    // journal; without them it is refused, naming the file.
    void applyIntentFileHasThePlansTables()
    {
        const GeneratedFabric generated = applyTree();
        const Fabric &f = generated.fabric;
        Project p;
        p.routingEngine = QStringLiteral("ftree");
        CandidateSpec slim;
        slim.kind = CandidateKind::SlimUpdate;
        const QByteArray file = writeProject(withApply(p, slim));
        Result<ForwardingTables> refused = routeIntentFile(f, file, QStringLiteral("intent.weft"));
        QVERIFY(!refused);
        QCOMPARE(refused.error().file, QStringLiteral("intent.weft"));
        QVERIFY2(refused.error().message.contains(QLatin1String("no tables of its plan are kept")), qPrintable(refused.error().message));
        Result<Routing> minhop = routeFabric(QStringLiteral("minhop"), f, Tenancy{});
        QVERIFY(minhop);
        Result<ForwardingTables> recorded = routeIntentFile(f, file, QStringLiteral("intent.weft"), &minhop->tables);
        QVERIFY(recorded && *recorded == minhop->tables);
        // An engine's intent is routed by its engine, whatever was recorded.
        Result<ForwardingTables> byEngine = routeIntentFile(f, writeProject(p), QStringLiteral("intent.weft"), &minhop->tables);
        QVERIFY(byEngine);
        QVERIFY(*byEngine == *routeIntentFile(f, writeProject(p), QStringLiteral("intent.weft")));
        QVERIFY(!(*byEngine == minhop->tables));
    }
};

QTEST_GUILESS_MAIN(TestIntentApply)
#include "tst_intent_apply.moc"
