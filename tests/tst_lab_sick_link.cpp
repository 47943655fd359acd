// The unhealthy-links policy on the real OpenSM in ibsim (issue 46's acceptance): an
// XGFT(2; 4,4; 2,1) (4 leaves, 2 spines, SDR 4x as ibsim reports) under OpenSM with `-R file` on
// Weft's ftree tables, sweeping off. `weft adapt --mode auto --interval 1` runs the rule
//   sick(link[all], window=3s) -> report(link), drain(link, max=1), undrain(link, clean=3s)
// and, after its first tick, ibsim's console sets SymbolErrorCounter on two uplinks of two leaves
// (100 and 50: far over a BER of 1e-12 on a 10 Gb/s link). Then:
// - one of them is drained within two windows (6 ticks) of the errors; dump_lfts (read while the
//   loop runs) shows no entry onto that cable and every pair of ports reaches the other;
// - the other is not drained: the cap of one stops it ("drain-capped", with its counters);
// - once the cable has been clean for 3 s it is undrained: dump_lfts shows routes on it again,
//   every pair reachable;
// - the journal holds "drained" and "undrained" entries with the counters that decided them.

#include "CommitJournal.h"
#include "GeneratedFabrics.h"
#include "LabTools.h"
#include "LftDump.h"
#include "RoutingEngine.h"
#include "SafeFile.h"
#include "SimulatedFabric.h"
#include "Validation.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <set>

using namespace weft;

namespace {

const char *const kRules = "rule sick mode auto when sick(link[all], window=3s) "
                           "then report(link), drain(link, max=1), undrain(link, clean=3s)\n";

// The switch ports whose entries lead onto the cable at `p` (both its ends), as (GUID, port).
int entriesOnto(const Fabric &fabric, const ForwardingTables &held, PortIndex p)
{
    int count = 0;
    for (const PortIndex end : {p, fabric.port(p).remote}) {
        const SwitchForwardingTable *t = held.find(fabric.node(fabric.port(end).node).guid);
        if (!t)
            continue;
        for (Lid lid = 1; lid <= t->lft.top(); ++lid)
            count += t->lft.port(lid) == fabric.port(end).number ? 1 : 0;
    }
    return count;
}

// What the switches hold judged: entries onto the cable, and unreachable pairs or loops.
QString judgeHeld(SimulatedFabric &sim, const Fabric &live, PortIndex cable, int *onto)
{
    Result<ForwardingTables> held = test::installedTables(sim, live);
    if (!held)
        return held.error().toString();
    *onto = entriesOnto(live, *held, cable);
    const ValidationResult v = validateRouting(live, Tenancy{}, *held);
    if (v.unreachablePartitionPairs + v.unreachableOtherPairs > 0 || v.loops > 0)
        return QStringLiteral("%1 + %2 pairs unreachable, %3 loops: %4")
            .arg(v.unreachablePartitionPairs)
            .arg(v.unreachableOtherPairs)
            .arg(v.loops)
            .arg((v.problems + v.managementProblems).join(QStringLiteral("; ")));
    return {};
}

}  // namespace

class TestLabSickLink : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        const QString problem = test::labToolsProblem();
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QVERIFY2(QFileInfo(qEnvironmentVariable("WEFT_BINARY")).isExecutable(), "WEFT_BINARY must name the weft executable");
    }

    void sickLinkDrainedCappedAndUndrained()
    {
        QElapsedTimer clock;
        clock.start();
        Result<XgftShape> shape = parseXgft(QStringLiteral("2;4,4;2,1"));
        QVERIFY(shape);
        GeneratorOptions options;
        options.shape = FabricShapeKind::Xgft;
        options.xgft = *shape;
        options.linkSpeed = LinkSpeed::SDR;  // what ibsim reports
        const Fabric fabric = test::generateOrFail(options).fabric;
        Result<Routing> ftree = routeFabric(QStringLiteral("ftree"), fabric, Tenancy{});
        QVERIFY(ftree);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Result<test::FileRoutedLab> lab = test::startLabOnTables(dir.path(), fabric, ftree->tables, fabric.endNodes().front(),
                                                                 {QStringLiteral("-s"), QStringLiteral("0")});
        QVERIFY2(lab, lab ? "" : qPrintable(lab.error().toString()));
        const Fabric &live = lab->live;

        // An uplink of each of two leaves, by its leaf end.
        std::vector<PortIndex> uplinks;
        std::set<NodeIndex> leaves;
        for (NodeIndex s : live.switches()) {
            bool leaf = false;
            for (int p = 1; p <= live.node(s).portCount; ++p) {
                const PortIndex x = live.portOf(s, p);
                leaf = leaf || (x != kNoIndex && live.port(x).remote != kNoIndex && live.node(live.port(live.port(x).remote).node).type != NodeType::Switch);
            }
            for (int p = 1; leaf && p <= live.node(s).portCount && uplinks.size() < 2 && !leaves.count(s); ++p) {
                const PortIndex x = live.portOf(s, p);
                if (x != kNoIndex && live.port(x).remote != kNoIndex && live.node(live.port(live.port(x).remote).node).type == NodeType::Switch) {
                    uplinks.push_back(x);
                    leaves.insert(s);
                }
            }
        }
        QCOMPARE(uplinks.size(), std::size_t(2));
        int onto = 0;
        QString judged = judgeHeld(*lab->sim, live, uplinks[0], &onto);
        QVERIFY2(judged.isEmpty() && onto > 0, qPrintable(judged));

        const QString rules = dir.filePath(QStringLiteral("sick.rules"));
        const QString journalPath = dir.filePath(QStringLiteral("journal.jsonl"));
        QVERIFY(writeFileAtomically(rules, kRules, false));
        QProcess adapt;
        adapt.setProcessEnvironment(lab->sim->clientEnvironment());
        adapt.setWorkingDirectory(dir.path());
        adapt.start(qEnvironmentVariable("WEFT_BINARY"),
                    {QStringLiteral("adapt"), QStringLiteral("--rules"), rules, QStringLiteral("--mode"), QStringLiteral("auto"),
                     QStringLiteral("--interval"), QStringLiteral("1"), QStringLiteral("--ticks"), QStringLiteral("20"), QStringLiteral("--json"),
                     QStringLiteral("--journal"), journalPath, QStringLiteral("--opensm-lfts"), lab->lfts, QStringLiteral("--opensm-partitions"),
                     lab->partitions, QStringLiteral("--opensm-pidfile"), lab->pidFile, QStringLiteral("--opensm-log"),
                     lab->sim->openSmLogPath(), QStringLiteral("--timeout"), QStringLiteral("30")});
        QVERIFY(adapt.waitForStarted());

        int ticks = 0, errorsAtTick = -1, drainedAtTick = -1, undrainedAtTick = -1;
        PortIndex drained = kNoIndex;
        QJsonObject drainedRecord, cappedRecord, undrainedRecord;
        QStringList problems;
        QByteArray pending, output;
        QDeadlineTimer deadline(60000);
        auto cableOfLink = [&](const QString &name) {
            for (const PortIndex p : uplinks)
                if (name.contains(portDisplayName(live, p)))
                    return p;
            return kNoIndex;
        };
        while (!deadline.hasExpired() && undrainedAtTick < 0) {
            const bool finished = !adapt.waitForReadyRead(200) && adapt.state() == QProcess::NotRunning;
            const QByteArray got = adapt.readAllStandardOutput();
            pending += got;
            output += got;
            qsizetype newline;
            while ((newline = pending.indexOf('\n')) >= 0) {
                const QByteArray line = pending.left(newline).trimmed();
                pending.remove(0, newline + 1);
                const QJsonObject o = QJsonDocument::fromJson(line).object();
                if (o.contains(QStringLiteral("tick"))) {
                    ++ticks;
                    if (errorsAtTick < 0) {
                        // After the first tick: the errors, at the leaf end of each uplink.
                        const QString at = QStringLiteral("PerformanceSet \"%1\"[%2] PortCounters.SymbolErrorCounter=%3");
                        QStringList commands;
                        for (std::size_t i = 0; i < uplinks.size(); ++i) {
                            const Port &port = live.port(uplinks[i]);
                            const NodeIndex generated = fabric.nodeByGuid(live.node(port.node).guid);
                            commands << at.arg(fabric.node(generated).name).arg(port.number).arg(i == 0 ? 100 : 50);
                        }
                        const Status set = lab->sim->simulatorCommands(commands);
                        QVERIFY2(set.ok(), set.ok() ? "" : qPrintable(set.error().toString()));
                        errorsAtTick = ticks;
                    }
                    continue;
                }
                const QString event = o.value(QStringLiteral("event")).toString();
                if (event == QLatin1String("drained") && drainedAtTick < 0) {
                    drainedAtTick = ticks;
                    drainedRecord = o;
                    const QJsonArray links = o.value(QStringLiteral("details")).toObject().value(QStringLiteral("links")).toArray();
                    QCOMPARE(links.size(), 1);
                    drained = cableOfLink(links.at(0).toObject().value(QStringLiteral("link")).toString());
                    QVERIFY2(drained != kNoIndex, line.constData());
                    // Read while the loop runs, before the clean window has passed.
                    judged = judgeHeld(*lab->sim, live, drained, &onto);
                    if (!judged.isEmpty() || onto != 0)
                        problems << QStringLiteral("after the drain: %1 entries onto the cable; %2").arg(onto).arg(judged);
                } else if (event == QLatin1String("drain-capped") && cappedRecord.isEmpty()) {
                    cappedRecord = o;
                } else if (event == QLatin1String("undrained")) {
                    undrainedAtTick = ticks;
                    undrainedRecord = o;
                } else if (event == QLatin1String("drain-refused") || event == QLatin1String("drain-failed")
                           || event == QLatin1String("undrain-failed") || event == QLatin1String("stale")) {
                    problems << QString::fromUtf8(line);
                }
            }
            if (finished)
                break;
        }
        adapt.terminate();  // SIGTERM: the loop ends its tick and stops
        if (!adapt.waitForFinished(30000))
            adapt.kill();
        const QByteArray stderrText = adapt.readAllStandardError() + "\nexit: " + QByteArray::number(adapt.exitStatus() == QProcess::NormalExit ? adapt.exitCode() : -1) + "\nstdout:\n" + output.right(4000);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n')) + QLatin1Char('\n') + QString::fromUtf8(stderrText)));
        QVERIFY2(drainedAtTick > 0, stderrText.constData());
        QVERIFY2(drainedAtTick - errorsAtTick <= 6, qPrintable(QStringLiteral("drained %1 ticks after the errors").arg(drainedAtTick - errorsAtTick)));
        QVERIFY2(undrainedAtTick > drainedAtTick, stderrText.constData());
        QCOMPARE(adapt.exitCode(), 0);

        // The evidence: the drained cable's counters, the capped one's.
        const QJsonObject drainedLink = drainedRecord.value(QStringLiteral("details")).toObject().value(QStringLiteral("links")).toArray().at(0).toObject();
        QCOMPARE(drainedLink.value(QStringLiteral("symbol_errors")).toInt(), drained == uplinks[0] ? 100 : 50);
        QVERIFY(drainedLink.value(QStringLiteral("ber")).toDouble() > 1e-12);
        QVERIFY2(!cappedRecord.isEmpty(), "the second sick cable was not held back by the cap");
        const QJsonObject capped = cappedRecord.value(QStringLiteral("details")).toObject();
        QCOMPARE(capped.value(QStringLiteral("cap")).toInt(), 1);
        const QString cappedName = capped.value(QStringLiteral("links")).toArray().at(0).toObject().value(QStringLiteral("link")).toString();
        const PortIndex other = cableOfLink(cappedName);
        QVERIFY2(other != kNoIndex && other != drained, qPrintable(cappedName));
        QCOMPARE(undrainedRecord.value(QStringLiteral("details")).toObject().value(QStringLiteral("links")).toArray().at(0).toObject()
                     .value(QStringLiteral("symbol_errors")).toInt(),
                 0);

        // Undrained: routes on the cable again, every pair reachable.
        judged = judgeHeld(*lab->sim, live, drained, &onto);
        QVERIFY2(judged.isEmpty(), qPrintable(judged));
        QVERIFY(onto > 0);

        // The journal tells it with the counters.
        Result<std::vector<CommitJournalEntry>> journal = readJournal(journalPath);
        QVERIFY2(journal, journal ? "" : qPrintable(journal.error().toString()));
        QStringList outcomes;
        int commits = 0;
        for (const CommitJournalEntry &e : *journal) {
            if (e.kind == QLatin1String("adapt"))
                outcomes << e.outcome;
            else
                ++commits;
            if (e.outcome == QLatin1String("drained"))
                QCOMPARE(e.adapt.value(QStringLiteral("links")).toArray().at(0).toObject().value(QStringLiteral("symbol_errors")).toInt(),
                         drainedLink.value(QStringLiteral("symbol_errors")).toInt());
        }
        for (const char *wanted : {"fired", "sick-link", "drain-capped", "drained", "undrained"})
            QVERIFY2(outcomes.contains(QLatin1String(wanted)), qPrintable(QStringLiteral("%1 missing from %2").arg(QLatin1String(wanted), outcomes.join(QLatin1Char(' ')))));
        QVERIFY(commits >= 2);  // the drain's and the undrain's own commit entries
        qInfo("sick link drained %d tick(s) after its errors, undrained %d tick(s) later; %lld ms in all", drainedAtTick - errorsAtTick,
              undrainedAtTick - drainedAtTick, qint64(clock.elapsed()));
    }
};

QTEST_GUILESS_MAIN(TestLabSickLink)
#include "tst_lab_sick_link.moc"
