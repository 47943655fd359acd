// The session (session/FabricSession.h) through the document that feeds it, headless, on a
// stand-in OpenSM (tests/fixtures/StandInOpenSm.h): what it holds after a discovery and after a
// commit, the plan going stale with everything it was made from (an edit, undo, redo, the
// what-if events, a commit, a rediscovery), a commit refused when the fabric no longer holds what
// the plan was made against, and what-if plans installed only as pre-emptive plans. The same
// through the real ibsim and OpenSM: tst_lab_session.

#include "CommitJournal.h"
#include "FabricDocument.h"
#include "FabricGenerator.h"
#include "FabricSession.h"
#include "IntentRouting.h"
#include "GeneratedFabrics.h"
#include "ReconfigurationCandidates.h"
#include "RoutingEngine.h"
#include "StandInOpenSm.h"
#include "TelemetrySampler.h"
#include "TextReader.h"
#include "WhatIf.h"

#include <QFileInfo>
#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>

using namespace weft;

namespace {

Fabric kAryTree()
{
    GeneratorOptions o;
    o.arity = 4;
    o.levels = 2;
    return test::generateOrFail(o).fabric;
}

ForwardingTables route(const Fabric &fabric, const QString &engine)
{
    Result<Routing> routing = routeFabric(engine, fabric, Tenancy{});
    if (!routing)
        qFatal("%s", qPrintable(routing.error().toString()));
    return std::move(routing)->tables;
}

Guid hostPort(const Fabric &fabric, std::size_t host)
{
    return fabric.port(fabric.portOf(fabric.endNodes()[host], 1)).guid;
}

// The desk's document and session on a stand-in OpenSM, discovered.
struct Desk
{
    explicit Desk(const QString &installed = QStringLiteral("ftree"))
        : fabric(kAryTree()), opensm(fabric, route(fabric, installed), {}, hostPort(fabric, 0))
    {
        session = document.session();
        session->setCommitTarget(opensm.target());
        session->setFabricAccess([this] { return opensm.backend(); });
        session->setLiveReader([this] { return opensm.read(); });
    }

    bool discover(bool again = false)
    {
        QSignalSpy finished(session, &FabricSession::discoveryFinished);
        return session->discover(again) && (!finished.isEmpty() || finished.wait(20000)) && finished.first().first().toBool();
    }

    // The proposal of a preview with `engine`, as the Routing Preview hands it over (with its
    // intent), or as another origin would (without one).
    void propose(const QString &engine, bool asIntent = true)
    {
        PreviewResult proposal;
        proposal.proposed.tables = std::make_shared<const ForwardingTables>(route(*document.fabric(), engine));
        ProposalOrigin origin;
        origin.name = QStringLiteral("test: %1").arg(engine);
        if (asIntent) {
            origin.intent = document.project();
            origin.intent->tenancy = {};
            origin.intent->routingEngine = engine;
        }
        session->setProposal(std::move(proposal), std::move(origin));
    }

    std::optional<CommitReport> commit(QString *refusal = nullptr)
    {
        QSignalSpy finished(session, &FabricSession::commitFinished);
        if (!session->commit(false, refusal))
            return std::nullopt;
        if (finished.isEmpty() && !finished.wait(20000))
            return std::nullopt;
        return finished.first().first().value<CommitReport>();
    }

    Fabric fabric;
    test::StandInOpenSm opensm;
    FabricDocument document;
    FabricSession *session = nullptr;
};

}  // namespace

class TestSession : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void discoveryGivesWhatTheFabricHolds()
    {
        Desk desk;
        QVERIFY(desk.discover());
        FabricSession &s = *desk.session;
        QVERIFY(s.isLive());
        QCOMPARE(desk.document.fabric(), s.fabric());
        QVERIFY(*s.currentTables() == desk.opensm.held());
        QVERIFY(s.held().pkeys && *s.held().pkeys == desk.opensm.heldPKeys());
        QCOMPARE(s.held().smPort, hostPort(desk.fabric, 0));
        QCOMPARE(s.currentTablesName(), QStringLiteral("held by the switches"));
        QVERIFY(s.sampler()->fabric() == s.fabric());  // the counters of this fabric can be read
    }

    void planGoesStaleWithWhatItWasMadeFrom()
    {
        Desk desk;
        QVERIFY(desk.discover());
        FabricSession &s = *desk.session;
        desk.propose(QStringLiteral("minhop"));
        QVERIFY(s.plan());
        QVERIFY2(s.commitRefusal().isEmpty(), qPrintable(s.commitRefusal()));

        // An edit: stale; the plan follows the partitions as they are now.
        QVERIFY(desk.document.createPartition(QStringLiteral("red"), 0x0001).ok());
        desk.document.assignPorts({hostPort(desk.fabric, 1), hostPort(desk.fabric, 2)}, 0x0001, Membership::Full);
        QVERIFY2(s.staleReason().contains(QLatin1String("edited")), qPrintable(s.staleReason()));
        QVERIFY(s.plan()->review.diff.partitionsDiff.contains(QLatin1String("red")));
        QVERIFY(!s.commit(false));
        // Undo all of it: still stale (the proposal was made under another revision), and the
        // plan again installs no partition.
        desk.document.undoStack()->undo();
        desk.document.undoStack()->undo();
        QVERIFY(!s.plan()->review.diff.partitionsDiff.contains(QLatin1String("red")));
        QVERIFY(s.isProposalStale());
        // Preview again: it holds.
        desk.propose(QStringLiteral("minhop"));
        QVERIFY(s.commitRefusal().isEmpty());
        // Redo: stale again.
        desk.document.undoStack()->redo();
        QVERIFY(s.isProposalStale());
        desk.document.undoStack()->undo();
        desk.propose(QStringLiteral("minhop"));

        // The what-if events of a studio plan: stale when they change, as they were again when
        // put back.
        ProposalOrigin studio;
        studio.name = QStringLiteral("studio");
        studio.whatIf.failedLinkPorts.emplace_back(desk.fabric.node(desk.fabric.switches().back()).guid, 1);
        studio.followsWhatIf = true;
        s.setWhatIf(studio.whatIf);
        PreviewResult proposal;
        proposal.proposed.tables = std::make_shared<const ForwardingTables>(route(desk.fabric, QStringLiteral("minhop")));
        s.setProposal(std::move(proposal), studio);
        QVERIFY(!s.isProposalStale());
        s.setWhatIf({});
        QVERIFY2(s.staleReason().contains(QLatin1String("what-if")), qPrintable(s.staleReason()));
        s.setWhatIf(studio.whatIf);
        QVERIFY(!s.isProposalStale());

        // A commit: the read-back is what the session holds, the plan is done.
        desk.propose(QStringLiteral("minhop"));
        const std::optional<CommitReport> report = desk.commit();
        QVERIFY(report && report->ok());
        QVERIFY(*s.currentTables() == desk.opensm.held());
        QVERIFY(s.currentTablesName().startsWith(QLatin1String("read back after the commit")));
        QVERIFY2(s.staleReason().contains(QLatin1String("committed")), qPrintable(s.staleReason()));
        QCOMPARE(s.plan()->review.diff.smps(), 0LL);  // re-planned against the read-back

        // A plan of what the fabric holds already: nothing to install, nothing sent.
        desk.propose(QStringLiteral("minhop"));
        QVERIFY2(s.commitRefusal().startsWith(QLatin1String("nothing to install")), qPrintable(s.commitRefusal()));
        QVERIFY(s.plan()->nothingToInstall);
        const int reloads = desk.opensm.reloads();
        QVERIFY(!desk.commit());
        QCOMPARE(desk.opensm.reloads(), reloads);

        // A rediscovery that reads the same tables: what is held is unchanged, but a plan made
        // before it is stale (it was reviewed against the fabric as read before); one that reads
        // other tables: they are what the session holds, and a plan made before is stale.
        desk.propose(QStringLiteral("ftree"));
        QVERIFY(!s.isProposalStale());
        const quint64 generation = s.heldGeneration();
        QVERIFY(desk.discover(true));
        QCOMPARE(s.heldGeneration(), generation);
        QVERIFY2(s.staleReason().contains(QLatin1String("discovered again")), qPrintable(s.staleReason()));
        desk.propose(QStringLiteral("ftree"));
        QVERIFY(!s.isProposalStale());
        desk.opensm.setHeld(route(desk.fabric, QStringLiteral("ftree")));
        QVERIFY(desk.discover(true));
        QVERIFY(s.heldGeneration() > generation);
        QVERIFY(*s.currentTables() == desk.opensm.held());
        QVERIFY(!s.heldChanges().isEmpty());
        QVERIFY2(s.staleReason().contains(QLatin1String("fabric holds changed")), qPrintable(s.staleReason()));
    }

    // The review is made against what the session holds; when the switches hold something else
    // by the time of the commit (another desk, another SM), nothing is written: stale, and what
    // was read becomes what the session holds, so the review shows the plan against it.
    void commitRefusesWhatWasNotReviewed()
    {
        Desk desk;
        QVERIFY(desk.discover());
        FabricSession &s = *desk.session;
        desk.propose(QStringLiteral("pftree"));
        const long long reviewed = s.plan()->review.diff.smps();
        desk.opensm.setHeld(route(desk.fabric, QStringLiteral("minhop")));  // behind the session's back
        const std::optional<CommitReport> report = desk.commit();
        QVERIFY(report);
        QCOMPARE(report->outcome, CommitOutcome::Stale);
        QVERIFY(!report->written);
        QCOMPARE(desk.opensm.reloads(), 0);
        QVERIFY2(report->reasons.join(QLatin1Char('\n')).contains(QLatin1String("no longer holds what the plan was made against")),
                 qPrintable(report->reasons.join(QLatin1Char('\n'))));
        QVERIFY(*s.currentTables() == desk.opensm.held());
        QVERIFY(s.isProposalStale());
        QCOMPARE(s.plan()->against.lfts, s.currentTables());  // the review re-planned against it
        QVERIFY(s.plan()->review.diff.smps() != reviewed);
        // Planned again against what the switches hold, it goes in, sending what the review shows.
        desk.propose(QStringLiteral("pftree"));
        const long long shown = s.plan()->review.diff.smps();
        const std::optional<CommitReport> again = desk.commit();
        QVERIFY(again && again->ok());
        QCOMPARE(again->diff.smps(), shown);
    }

    // A target with Weft's engine inside OpenSM takes a plan as its intent: the preview's engine
    // with the partitions as edited; a plan without an intent (a studio candidate, the
    // autopilot's) is refused before anything is written, and says why.
    void pluginTargetTakesIntentsOnly()
    {
        Desk desk;
        QVERIFY(desk.discover());
        FabricSession &s = *desk.session;
        CommitTarget target = desk.opensm.target();
        target.intentPath = target.lftsPath + QStringLiteral(".intent.json");
        target.lftsPath.clear();
        s.setCommitTarget(target);
        QVERIFY(s.hasCommitTarget());
        QCOMPARE(s.journalPath(), defaultJournalPath(target.intentPath));

        QVERIFY(desk.document.createPartition(QStringLiteral("chem"), 0x10));
        desk.document.assignPorts({hostPort(desk.fabric, 1), hostPort(desk.fabric, 2)}, 0x10, Membership::Full);
        desk.propose(QStringLiteral("updn"));
        QVERIFY2(s.commitRefusal().isEmpty(), qPrintable(s.commitRefusal()));
        Result<Project> intent = readProject(s.plan()->commit.intentFile, QStringLiteral("intent"));
        QVERIFY2(intent, intent ? "" : qPrintable(intent.error().toString()));
        QCOMPARE(intent->routingEngine, QStringLiteral("updn"));
        QVERIFY(intent->tenancy.findPartition(0x10));
        QCOMPARE(intent->tenancy.findPartition(0x10)->members.size(), std::size_t(2));

        desk.propose(QStringLiteral("updn"), false);
        QVERIFY2(s.commitRefusal().contains(QLatin1String("installs an intent")), qPrintable(s.commitRefusal()));
        QString refusal;
        QVERIFY(!desk.commit(&refusal));
        QVERIFY2(refusal.contains(QLatin1String("installs an intent")), qPrintable(refusal));
        QCOMPARE(desk.opensm.reloads(), 0);
        QVERIFY(!QFileInfo::exists(target.intentPath));
    }

    // Elements drained in the intent in force stay drained: a preview routed without them is
    // refused (approving it would undrain them unasked), one that carries them is not.
    void pluginTargetKeepsTheDrainedSet()
    {
        Desk desk;
        QVERIFY(desk.discover());
        FabricSession &s = *desk.session;
        CommitTarget target = desk.opensm.target();
        target.intentPath = target.lftsPath + QStringLiteral(".intent.json");
        target.lftsPath.clear();
        s.setCommitTarget(target);

        // A switch-to-switch cable, drained in the intent the target holds.
        const Fabric &fabric = *desk.document.fabric();
        WhatIf drained;
        for (NodeIndex sw : fabric.switches()) {
            for (int n = 1; n <= fabric.node(sw).portCount && drained.isEmpty(); ++n) {
                const PortIndex port = fabric.portOf(sw, n);
                if (port != kNoIndex && fabric.port(port).remote != kNoIndex
                    && fabric.node(fabric.port(fabric.port(port).remote).node).type == NodeType::Switch)
                    drained.failedLinkPorts.push_back({fabric.node(sw).guid, n});
            }
        }
        QVERIFY(!drained.isEmpty());
        Project inForce = desk.document.project();
        inForce.routingEngine = QStringLiteral("updn");
        QFile file(target.intentPath);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(writeProject(withDrained(inForce, drained, &fabric)));
        file.close();

        desk.propose(QStringLiteral("updn"));
        QVERIFY2(s.commitRefusal().contains(QLatin1String("undrain")), qPrintable(s.commitRefusal()));
        QVERIFY2(s.commitRefusal().contains(drained.describe(fabric)), qPrintable(s.commitRefusal()));
        QString refusal;
        QVERIFY(!desk.commit(&refusal));
        QCOMPARE(desk.opensm.reloads(), 0);

        // The same preview with the drained set carried: not refused for it.
        PreviewResult proposal;
        proposal.proposed.tables = std::make_shared<const ForwardingTables>(route(fabric, QStringLiteral("updn")));
        ProposalOrigin origin;
        origin.name = QStringLiteral("test: updn, drained");
        origin.intent = withDrained(desk.document.project(), drained, &fabric);
        origin.intent->routingEngine = QStringLiteral("updn");
        s.setProposal(std::move(proposal), std::move(origin));
        QVERIFY2(!s.commitRefusal().contains(QLatin1String("undrain")), qPrintable(s.commitRefusal()));
    }

    // A plan made for a what-if is approved only as a pre-emptive plan that is valid on the
    // fabric as it is: a switch cable's (the candidates keep every switch's management routes)
    // goes in; a host cable's, which leaves the host's LID unrouted, is refused before anything
    // is written.
    void whatIfPlansArePreEmptiveOnly_data()
    {
        QTest::addColumn<bool>("switchCable");
        QTest::addColumn<bool>("installed");
        QTest::addColumn<QString>("engine");  // what the switches hold
        QTest::addRow("a switch cable: valid on the fabric as it is") << true << true << QStringLiteral("pftree");
        QTest::addRow("a host cable: not valid while the host is cabled") << false << false << QStringLiteral("pftree");
        // ftree leaves spines without routes to each other; the leaf's route to the spine it reached
        // over the cable is kept all the same (through another spine, routed for it).
        QTest::addRow("a switch cable under ftree: valid on the fabric as it is") << true << true << QStringLiteral("ftree");
    }
    void whatIfPlansArePreEmptiveOnly()
    {
        QFETCH(bool, switchCable);
        QFETCH(bool, installed);
        QFETCH(QString, engine);
        Desk desk(engine);
        QVERIFY(desk.discover());
        FabricSession &s = *desk.session;
        const Fabric &fabric = *s.fabric();
        // The cable: a leaf's first uplink, or the first host's.
        WhatIf events;
        if (switchCable) {
            for (NodeIndex sw : fabric.switches()) {
                for (int p = 1; p <= fabric.node(sw).portCount && events.isEmpty(); ++p) {
                    const Port &port = fabric.port(fabric.portOf(sw, p));
                    if (port.remote != kNoIndex && fabric.node(fabric.port(port.remote).node).type == NodeType::Switch
                        && fabric.node(sw).description.contains(QLatin1String("leaf")))
                        events.failedLinkPorts.emplace_back(fabric.node(sw).guid, p);
                }
                if (!events.isEmpty())
                    break;
            }
        } else {
            events.failedLinkPorts.emplace_back(fabric.node(fabric.endNodes().front()).guid, 1);
        }
        QVERIFY(!events.isEmpty());
        Result<Fabric> after = applyWhatIf(fabric, events);
        QVERIFY(after);
        CandidateInput input;
        input.installedFabric = s.fabric();
        input.installed = s.currentTables();
        input.fabric = std::make_shared<const Fabric>(std::move(*after));
        input.event = events.describe(fabric);
        input.tenancy = desk.document.tenancy();
        input.currentPartitions = s.baselinePartitions();
        Result<std::vector<CandidateSpec>> specs = parseCandidates(QStringLiteral("slimupdate"));
        QVERIFY(specs);
        Result<CandidateStudy> study = planCandidates(input, *specs);
        QVERIFY(study);
        const CandidateResult &slim = study->candidates.front();
        QVERIFY2(slim.error.isEmpty(), qPrintable(slim.error));
        Result<PreviewResult> proposal = candidateProposal(*study, slim, s.currentTables(), s.currentTablesName());
        QVERIFY(proposal);
        ProposalOrigin origin;
        origin.name = QStringLiteral("studio: slimupdate");
        origin.whatIf = events;
        origin.followsWhatIf = true;
        s.setWhatIf(events);
        s.setProposal(std::move(*proposal), origin);
        QVERIFY(s.plan()->commit.whatIf.contains(QLatin1String("fails")));

        const QByteArray lftsBefore = *TextReader::readFile(desk.opensm.target().lftsPath);
        if (installed) {
            QVERIFY2(s.commitRefusal().isEmpty(), qPrintable(s.commitRefusal()));
            const std::optional<CommitReport> report = desk.commit();
            QVERIFY(report);
            const QString text = report->toText();
            QVERIFY2(report->ok(), qPrintable(text));
            QVERIFY2(text.contains(QLatin1String("pre-emptive plan")), qPrintable(text));
            QVERIFY(desk.opensm.held() == *slim.tables);
        } else {
            // Refused as the plan is made, before Approve: the reason is the commit's own first
            // step's, and nothing is sent, written or reloaded.
            const QString refusal = s.commitRefusal();
            QVERIFY2(refusal.contains(QLatin1String("has not happened")) && refusal.contains(QLatin1String("pre-emptive")), qPrintable(refusal));
            QString why;
            QVERIFY(!desk.commit(&why));
            QCOMPARE(why, refusal);
            QCOMPARE(*TextReader::readFile(desk.opensm.target().lftsPath), lftsBefore);
            QCOMPARE(desk.opensm.reloads(), 0);
        }
    }

    // A pre-emptive plan keeps every route the switches have now: one that would leave a leaf
    // without its route to a spine (what issue 23 saw: a what-if plan installed, and leaf 0 could
    // no longer reach spine 0's LID) is refused, nothing written.
    void preEmptivePlanMayNotLoseARoute()
    {
        Desk desk;
        QVERIFY(desk.discover());
        FabricSession &s = *desk.session;
        const Fabric &fabric = *s.fabric();
        NodeIndex leaf = kNoIndex, spine = kNoIndex;
        for (NodeIndex sw : fabric.switches())
            (fabric.node(sw).description.contains(QLatin1String("leaf")) ? leaf : spine) = sw;
        QVERIFY(leaf != kNoIndex && spine != kNoIndex);
        const Lid spineLid = fabric.port(fabric.portOf(spine, 0)).lid;
        ForwardingTables tables = *s.currentTables();
        const int index = tables.indexOf(fabric.node(leaf).guid);
        QVERIFY(index >= 0 && tables.lft(std::size_t(index)).hasRoute(spineLid));
        tables.lft(std::size_t(index)).clear(spineLid);
        PreviewResult proposal;
        proposal.proposed.tables = std::make_shared<const ForwardingTables>(std::move(tables));
        ProposalOrigin origin;
        origin.name = QStringLiteral("studio");
        origin.whatIf.failedLinkPorts.emplace_back(fabric.node(leaf).guid, 5);
        origin.followsWhatIf = true;
        s.setWhatIf(origin.whatIf);
        s.setProposal(std::move(proposal), origin);
        // Refused as the plan is made (the commit's own check, run by the session), before
        // Approve: nothing is sent, written or reloaded.
        const QString text = s.commitRefusal();
        QVERIFY2(text.contains(QStringLiteral("would lose its routes to 1 LIDs it reaches now (%1)").arg(int(spineLid))), qPrintable(text));
        QVERIFY(!desk.commit());
        QCOMPARE(desk.opensm.reloads(), 0);
        // The same tables without a what-if are judged as any plan: no pair of hosts needs that
        // route, so they would go in (with a warning about the entry).
    }
};

QTEST_MAIN(TestSession)
#include "tst_session.moc"
