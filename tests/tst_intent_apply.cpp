// An intent that says how its change is applied (IntentOptions::apply, issue 40): the option read,
// written and refused with the file, line and problem; the intent that installs a studio candidate
// (intentApplying) and its refusals; and the plugin's routing of it (routeIntentAfterChange, as
// Weft's engine inside OpenSM calls it) giving, from the same held tables on the same fabric, the
// studio's candidate tables byte for byte, kept at the sweeps after it.

#include "FabricGenerator.h"
#include "IntentRouting.h"
#include "LftDump.h"
#include "ProjectFile.h"

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
};

QTEST_GUILESS_MAIN(TestIntentApply)
#include "tst_intent_apply.moc"
