// One pipeline, three front ends: `weft diff` (run as a process), the desk (its session's plan as
// the Diff Review shows it, then Approve) and the commit's report count a reconfiguration the
// same way (CommitPlanning.h), so they report the same LFT entries and blocks, SMPs, P_Key
// blocks and partitions.conf changes, whether or not the partitions.conf files list the Default
// partition, with OpenSM's own port among the ports the change touches, and with SELF joining a
// partition. The desk goes its real way: a discovery (of a stand-in fabric) gives the session
// what the fabric holds and OpenSM's port, the partitions come from a project opened, the
// proposal is reviewed, Approve is clicked and answered, and the commit runs against a stand-in
// OpenSM that loads its files on SIGHUP.

#include "Commit.h"
#include "DiffReview.h"
#include "FabricDocument.h"
#include "FabricSession.h"
#include "ProjectFile.h"
#include "YesAnswerer.h"
#include "FabricGenerator.h"
#include "LftDump.h"
#include "PKeyTables.h"
#include "PartitionsConf.h"
#include "ReconfigurationPlan.h"
#include "RoutingEngine.h"
#include "SafeFile.h"
#include "TopologyFile.h"
#include "WeftRunner.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QSignalSpy>
#include <QtTest>

using namespace weft;

namespace {

// What the three front ends must agree on, read from diffToJson (the CLI's --json).
struct Figures
{
    double changedEntries = 0;
    double changedBlocks = 0;
    double switchInfoSets = 0;
    double smps = 0;
    QStringList switches;           // "guid: N entries, blocks B, top T -> U, SwitchInfo S"
    QStringList pkeyBlocks;         // "node port block: from -> to"
    QStringList partitionsChanges;  // the +/- lines of the partitions.conf diff, headers left out
};

Figures figuresOf(const QJsonObject &diff)
{
    Figures f;
    f.changedEntries = diff.value(QStringLiteral("changed_entries")).toDouble();
    f.changedBlocks = diff.value(QStringLiteral("changed_blocks")).toDouble();
    f.switchInfoSets = diff.value(QStringLiteral("switch_info_sets")).toDouble();
    f.smps = diff.value(QStringLiteral("smps")).toDouble();
    const auto list = [](const QJsonValue &v) {
        QStringList items;
        for (const QJsonValue &item : v.toArray())
            items << (item.isString() ? item.toString() : QString::number(item.toInt()));
        return items.join(QLatin1Char(','));
    };
    for (const QJsonValue &v : diff.value(QStringLiteral("switches")).toArray()) {
        const QJsonObject s = v.toObject();
        f.switches << QStringLiteral("%1: %2 entries, blocks %3, top %4 -> %5, SwitchInfo %6")
                          .arg(s.value(QStringLiteral("guid")).toString())
                          .arg(s.value(QStringLiteral("changed_entries")).toInt())
                          .arg(list(s.value(QStringLiteral("changed_blocks"))))
                          .arg(s.value(QStringLiteral("top_from")).toInt())
                          .arg(s.value(QStringLiteral("top_to")).toInt())
                          .arg(s.value(QStringLiteral("switch_info_set")).toBool());
    }
    for (const QJsonValue &v : diff.value(QStringLiteral("pkey_blocks")).toArray()) {
        const QJsonObject p = v.toObject();
        f.pkeyBlocks << QStringLiteral("%1 %2 %3: %4 -> %5")
                            .arg(p.value(QStringLiteral("node_guid")).toString())
                            .arg(p.value(QStringLiteral("port")).toInt())
                            .arg(p.value(QStringLiteral("block")).toInt())
                            .arg(list(p.value(QStringLiteral("from"))), list(p.value(QStringLiteral("to"))));
    }
    const QStringList lines = diff.value(QStringLiteral("partitions_diff")).toString().split(QLatin1Char('\n'));
    for (int i = 2; i < lines.size(); ++i)  // after "--- name" and "+++ name"
        if (lines[i].startsWith(QLatin1Char('+')) || lines[i].startsWith(QLatin1Char('-')))
            f.partitionsChanges << lines[i];
    return f;
}

// QCOMPARE inside: the caller checks QTest::currentTestFailed().
void compareFigures(const Figures &a, const Figures &b)
{
    QCOMPARE(a.changedEntries, b.changedEntries);
    QCOMPARE(a.changedBlocks, b.changedBlocks);
    QCOMPARE(a.switchInfoSets, b.switchInfoSets);
    QCOMPARE(a.smps, b.smps);
    QCOMPARE(a.switches, b.switches);
    QCOMPARE(a.pkeyBlocks, b.pkeyBlocks);
    QCOMPARE(a.partitionsChanges, b.partitionsChanges);
}

Fabric makeFabric()
{
    GeneratorOptions o;
    o.arity = 4;
    o.levels = 2;
    Result<GeneratedFabric> g = generateFabric(o);
    if (!g)
        qFatal("%s", qPrintable(g.error().toString()));
    return std::move(g)->fabric;
}

// Empty when the engine refuses: the tests check for tables.
ForwardingTables route(const Fabric &fabric, const QString &engine)
{
    Result<Routing> routing = routeFabric(engine, fabric, Tenancy{});
    return routing ? std::move(routing)->tables : ForwardingTables();
}

Guid hostPort(const Fabric &fabric, int host)
{
    return fabric.port(fabric.portOf(fabric.endNodes()[std::size_t(host)], 1)).guid;
}

Partition fullPartition(const QString &name, std::uint16_t pkey, const Fabric &fabric, const std::vector<int> &hosts)
{
    Partition p;
    p.name = name;
    p.pkey = pkey;
    for (int h : hosts) {
        PartitionMember m;
        m.guid = hostPort(fabric, h);
        m.membership = Membership::Full;
        m.explicitMembership = true;
        p.members.push_back(m);
    }
    return p;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

std::vector<Partition> partitionsIn(const QString &path)
{
    Result<PartitionsConfResult> conf = readPartitionsConfFile(path);
    if (!conf)
        qFatal("%s", qPrintable(conf.error().toString()));
    return conf->partitions;
}

enum class Change { RoutingOnly, PartitionsWithoutDefault, PartitionsWithDefault, DefaultDroppedFromFile, SelfJoins };

}  // namespace

Q_DECLARE_METATYPE(Change)

class TestPipeline : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void frontEndsAgree_data()
    {
        QTest::addColumn<Change>("change");
        QTest::addRow("routing change only") << Change::RoutingOnly;
        QTest::addRow("routing and partitions, files without Default") << Change::PartitionsWithoutDefault;
        QTest::addRow("routing and partitions, files listing Default") << Change::PartitionsWithDefault;
        QTest::addRow("routing and partitions, Default listed before only") << Change::DefaultDroppedFromFile;
        QTest::addRow("routing and partitions, SELF joins a partition") << Change::SelfJoins;
    }

    void frontEndsAgree()
    {
        QFETCH(Change, change);
        const Fabric fabric = makeFabric();
        QVERIFY(fabric.endNodes().size() >= 8);
        const ForwardingTables current = route(fabric, QStringLiteral("minhop"));
        const ForwardingTables proposed = route(fabric, QStringLiteral("ftree"));
        QVERIFY(current.size() > 0 && proposed.size() > 0);
        // OpenSM runs on host 3, which the partition changes move into red: its P_Key table is
        // one the change touches (OpenSM's own port is SELF, full member of Default).
        const Guid smPort = hostPort(fabric, 3);

        std::vector<Partition> before = {fullPartition(QStringLiteral("red"), 0x0001, fabric, {0, 1, 2})};
        std::vector<Partition> after = before;
        if (change != Change::RoutingOnly)
            after = {fullPartition(QStringLiteral("red"), 0x0001, fabric, {0, 2, 3}),
                     fullPartition(QStringLiteral("blue"), 0x0002, fabric, {5, 6})};
        if (change == Change::SelfJoins) {
            PartitionMember self;
            self.kind = PartitionMember::Kind::Self;
            self.membership = Membership::Full;
            self.explicitMembership = true;
            after = {fullPartition(QStringLiteral("red"), 0x0001, fabric, {0, 2}),
                     fullPartition(QStringLiteral("blue"), 0x0002, fabric, {5, 6})};
            after[1].members.push_back(self);
        }
        if (change == Change::PartitionsWithDefault || change == Change::DefaultDroppedFromFile)
            before = withExplicitDefault(before);
        if (change == Change::PartitionsWithDefault)
            after = withExplicitDefault(after);

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString topology = dir.filePath(QStringLiteral("fabric.topo"));
        const QString currentLfts = dir.filePath(QStringLiteral("current.lfts"));
        const QString proposedLfts = dir.filePath(QStringLiteral("proposed.lfts"));
        const QString currentConf = dir.filePath(QStringLiteral("current.conf"));
        const QString proposedConf = dir.filePath(QStringLiteral("proposed.conf"));
        QVERIFY(writeFileAtomically(topology, writeIbnetdiscover(fabric)).ok());
        QVERIFY(writeFileAtomically(currentLfts, writeLftDump(current, &fabric)).ok());
        QVERIFY(writeFileAtomically(proposedLfts, writeLftDump(proposed, &fabric)).ok());
        QVERIFY(writeFileAtomically(currentConf, writePartitionsConf(before)).ok());
        QVERIFY(writeFileAtomically(proposedConf, writePartitionsConf(after)).ok());

        // weft diff, as an operator runs it.
        const test::Run run = test::runWeft({QStringLiteral("diff"), QStringLiteral("--json"), QStringLiteral("--topology"), topology,
                                             QStringLiteral("--from"), currentLfts, QStringLiteral("--to"), proposedLfts,
                                             QStringLiteral("--partitions-from"), currentConf, QStringLiteral("--partitions-to"), proposedConf,
                                             QStringLiteral("--sm-port"), QStringLiteral("0x%1").arg(smPort, 16, 16, QLatin1Char('0'))});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const Figures cli = figuresOf(QJsonDocument::fromJson(run.out).object());

        // Per switch, the entries that differ, counted here from the two table sets: what every
        // front end must report switch by switch.
        QStringList ownCount;
        for (const SwitchForwardingTable &to : proposed.switches()) {
            const SwitchForwardingTable *from = current.find(to.guid);
            QVERIFY(from);
            const Lid top = std::max(from->lft.top(), to.lft.top());
            int differing = 0;
            for (Lid lid = 0; lid <= top; ++lid)
                differing += from->lft.port(lid) != to.lft.port(lid) ? 1 : 0;
            if (differing > 0)
                ownCount << QStringLiteral("%1: %2").arg(guidText(to.guid)).arg(differing);
        }
        QStringList cliCount;
        for (const QString &line : cli.switches)
            cliCount << line.section(QStringLiteral(" entries"), 0, 0);
        ownCount.sort();
        cliCount.sort();
        QCOMPARE(cliCount, ownCount);

        // The stand-in OpenSM: it holds the current state and loads its files on SIGHUP.
        CommitTarget target;
        target.lftsPath = dir.filePath(QStringLiteral("opensm.lfts"));
        target.partitionsPath = dir.filePath(QStringLiteral("partitions.conf"));
        target.pidFile = dir.filePath(QStringLiteral("opensm.pid"));
        QVERIFY(writeFileAtomically(target.lftsPath, readAll(currentLfts), false).ok());
        QVERIFY(writeFileAtomically(target.partitionsPath, readAll(currentConf), false).ok());
        QVERIFY(writeFileAtomically(target.pidFile, "4242\n", false).ok());
        PKeyTableOptions openSm;
        openSm.smPortGuid = smPort;
        ForwardingTables heldTables = current;
        PKeyTables heldPKeys = computePKeyTables(fabric, plannedPartitions(before), openSm);
        int reloads = 0;
        CommitBackend backend;
        backend.discover = [&]() -> Result<Fabric> { return fabric; };
        backend.readTables = [&](const Fabric &) -> Result<ForwardingTables> { return heldTables; };
        backend.readPKeys = [&](const Fabric &) -> Result<PKeyTables> { return heldPKeys; };
        backend.findSmPort = [&](const Fabric &) -> Result<Guid> { return smPort; };
        backend.isRunning = [](qint64) { return true; };
        backend.reload = [&](qint64) -> Status {
            ++reloads;
            Result<ForwardingTables> tables = readLftDumpFile(target.lftsPath, &fabric);
            if (!tables)
                return tables.error();
            heldTables = std::move(tables).value();
            heldPKeys = computePKeyTables(fabric, plannedPartitions(partitionsIn(target.partitionsPath)), openSm, &heldPKeys);
            return Done{};
        };

        // The desk: discovered (the stand-in fabric read as a discovery reads it), the project's
        // partitions opened, the proposal reviewed.
        FabricDocument document;
        FabricSession *session = document.session();
        session->setCommitTarget(target);
        session->setFabricAccess([&backend] { return backend; });
        session->setLiveReader([&]() -> Result<LiveState> {
            LiveState state;
            state.fabric = std::make_shared<const Fabric>(fabric);
            state.held = HeldTables{std::make_shared<const ForwardingTables>(heldTables), std::make_shared<const PKeyTables>(heldPKeys), smPort};
            state.partitions = partitionsHeld(fabric, heldPKeys);
            return state;
        });
        DiffReview review;
        review.setDocument(&document);
        QSignalSpy discovered(session, &FabricSession::discoveryFinished);
        QVERIFY(session->discover(false));
        QVERIFY(!discovered.isEmpty() || discovered.wait(20000));
        QVERIFY(session->isLive());
        QCOMPARE(session->held().smPort, smPort);
        Project project;
        project.tenancy.partitions = after;
        const QString projectPath = dir.filePath(QStringLiteral("after.weft"));
        QVERIFY(writeFileAtomically(projectPath, writeProject(project)).ok());
        QVERIFY(document.openProject(projectPath, nullptr).ok());
        PreviewResult proposal;
        proposal.proposed.tables = std::make_shared<const ForwardingTables>(proposed);
        session->setProposal(std::move(proposal));
        QVERIFY(review.hasPlan());
        QVERIFY2(review.isApproveEnabled(), qPrintable(review.approveRefusal()));
        const Figures gui = figuresOf(diffToJson(review.diff()));
        // What the summary says is what it counts.
        QVERIFY2(review.summaryText().contains(QStringLiteral("OpenSM sends %1 SMPs").arg(QLocale().toString(qlonglong(gui.smps)))),
                 qPrintable(review.summaryText()));

        // Approve, answered Yes: the commit the session runs.
        QSignalSpy finished(session, &FabricSession::commitFinished);
        test::YesAnswerer yes;
        review.approve();
        QVERIFY(yes.confirmed());
        QVERIFY(!finished.isEmpty() || finished.wait(20000));
        const CommitReport report = finished.first().first().value<CommitReport>();
        QVERIFY2(report.ok(), qPrintable(report.toText()));
        QCOMPARE(reloads, 1);
        const Figures commit = figuresOf(diffToJson(report.diff));
        // The read-back is what the session holds now, and the plan is done.
        QVERIFY(*session->currentTables() == proposed);
        QVERIFY(!review.isApproveEnabled());

        QVERIFY(cli.changedEntries > 0);
        QVERIFY(cli.smps >= cli.changedBlocks);
        QCOMPARE(cli.pkeyBlocks.isEmpty(), change == Change::RoutingOnly);
        QCOMPARE(gui.partitionsChanges.isEmpty(), change == Change::RoutingOnly);
        compareFigures(gui, commit);
        if (QTest::currentTestFailed())
            QFAIL("the Diff Review and the commit disagree");
        if (change != Change::DefaultDroppedFromFile) {
            compareFigures(cli, gui);
            if (QTest::currentTestFailed())
                QFAIL("weft diff and the Diff Review disagree");
            return;
        }
        // `weft diff` compares the files as they are: the Default rule one of them drops shows
        // as removed text, though OpenSM applies it all the same (no P_Key block differs).
        Figures textOnly = cli;
        QStringList defaultRule;
        for (const QString &line : cli.partitionsChanges)
            if (!gui.partitionsChanges.contains(line))
                defaultRule << line;
        QVERIFY2(!defaultRule.isEmpty() && defaultRule.first().startsWith(QLatin1String("-Default=0x7fff")), qPrintable(defaultRule.join(QLatin1Char('\n'))));
        for (const QString &line : defaultRule) {
            QVERIFY(line.startsWith(QLatin1Char('-')));
            textOnly.partitionsChanges.removeOne(line);
        }
        compareFigures(textOnly, gui);
        if (QTest::currentTestFailed())
            QFAIL("weft diff, but for the Default rule, and the Diff Review disagree");
    }

    void defaultPartitionIsImplicit()
    {
        // Listing OpenSM's Default rule or not programs the same P_Key tables.
        const Fabric fabric = makeFabric();
        const std::vector<Partition> red = {fullPartition(QStringLiteral("red"), 0x0001, fabric, {0, 1})};
        PKeyTableOptions options;
        options.smPortGuid = hostPort(fabric, 3);
        const PKeyTables implicit = computePKeyTables(fabric, red, options);
        const PKeyTables listed = computePKeyTables(fabric, withExplicitDefault(red), options);
        QCOMPARE(implicit.ports().size(), listed.ports().size());
        for (std::size_t i = 0; i < implicit.ports().size(); ++i)
            QCOMPARE(implicit.ports()[i].entries, listed.ports()[i].entries);
        const ForwardingTables tables = route(fabric, QStringLiteral("ftree"));
        QVERIFY(tables.size() > 0);
        ReconfigurationRequest request;
        request.currentPartitions.partitions = withExplicitDefault(red);
        request.proposedPartitions = PartitionsState{red, std::nullopt, {}};
        const ReconfigurationPlan plan = planReconfiguration(fabric, tables, tables, request);
        QCOMPARE(plan.diff.smps(), 0LL);
        QVERIFY(plan.diff.partitionsDiff.isEmpty());
        QCOMPARE(plan.plannedPartitionsConf, writePartitionsConf(withExplicitDefault(red)));
    }
};

QTEST_MAIN(TestPipeline)
#include "tst_pipeline.moc"
