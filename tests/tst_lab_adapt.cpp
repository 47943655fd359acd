// `weft adapt` on a live fabric, end to end (issue 13's lab acceptance). An XGFT(2; 4,8; 2,1)
// (4 leaves of 8 hosts, 2 spines) in ibsim under OpenSM with `-R file` on Weft's ftree tables and
// sweeping off; the lab's traffic driver runs in this process with two hot receivers on one leaf
// that ftree sends down the same spine link: 48 flows offer it 120 % of its rate while every
// host's own cable stays at 77.5 %. `weft adapt --json --interval 2` runs as a client of ibsim;
// the test advances the driver by exactly one interval after each tick line (so each tick's rates
// cover one tick of the driver, as in tst_lab_monitor_traffic) and, when OpenSM's -U file
// changes, has the driver follow the tables the switches hold (dump_lfts) until they are the
// file's; after the auto loop's commit, dump_lfts must read back exactly what it committed. The rule:
//   max(link[all].util) > 0.9 for 4s -> reroute(engine=wftree, weights=learned(20s), method=full)
// (b) approve: the firing is planned, the plan files are written with the `weft commit` command,
//     "awaiting-approval" is journalled, and nothing is committed (the -U file unchanged);
// (c) a rules file with an error written while a loop runs is refused with file:line:column and
//     the loop fires on the rules it had;
// (a) auto: it fires, plans, commits and verifies; the measured maximum utilisation falls from
//     >= 0.99 to < 0.9 (adapt's own tick lines); the journal tells fired, planned, committed and
//     holds the commit itself, committed. The figures and the SMPs are printed.
// Also: bad input refused before the fabric is touched; a second approve/auto loop refused
// naming the first (a dry-run one runs beside it, its ticks as text); T-SA-3 through
// `weft monitor --basic-counters` (a 32-bit PortXmitData near 2^32 read small next: a gap, no
// rate); a host cable cut while a loop runs reaches the rules as link_down and node_removed.
// The approve and dry-run loops run first: they leave the ftree tables in place for auto; the
// cable cut runs last.

#include "CommitJournal.h"
#include "HotSpotLab.h"
#include "LabTrafficDriver.h"
#include "LftDump.h"
#include "PortTelemetry.h"
#include "RoutingEngine.h"
#include "RuleLanguage.h"
#include "SafeFile.h"
#include "SimulatedFabric.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

#include <csignal>

using namespace weft;

namespace {

constexpr double kIntervalSeconds = 2.0;
const char *const kRule = "rule hot priority 10 cooldown 10m mode auto when max(link[all].util) > 0.9 for 4s "
                          "then reroute(engine=wftree, weights=learned(20s), method=full)\n";

QString weftBinary()
{
    return qEnvironmentVariable("WEFT_BINARY");
}

// One run of `weft adapt`: its JSON lines in order, stderr and exit code.
struct AdaptRun
{
    std::vector<QJsonObject> lines;
    QString stderrText;
    int exitCode = -1;

    std::vector<double> maxUtils(std::size_t from = 0, std::size_t to = SIZE_MAX) const
    {
        std::vector<double> utils;
        for (std::size_t i = from; i < std::min(to, lines.size()); ++i)
            if (lines[i].contains(QStringLiteral("tick")))
                utils.push_back(lines[i].value(QStringLiteral("max_util")).toDouble(-1));
        return utils;
    }
    // The first record of `event`, or lines.size().
    std::size_t indexOf(const QString &event) const
    {
        for (std::size_t i = 0; i < lines.size(); ++i)
            if (lines[i].value(QStringLiteral("event")).toString() == event)
                return i;
        return lines.size();
    }
    QString text() const
    {
        QStringList all;
        for (const QJsonObject &o : lines)
            all << QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
        return all.join(QLatin1Char('\n')) + QStringLiteral("\nstderr:\n") + stderrText;
    }
};

struct Lab : test::HotSpotLab
{
    QTemporaryDir dir;

    QString path(const QString &name) const { return dir.filePath(name); }

    QString start()
    {
        Result<test::HotSpotLab> started = test::startHotSpotLab(dir.path());
        if (!started)
            return started.error().toString();
        static_cast<test::HotSpotLab &>(*this) = std::move(*started);
        return {};
    }

    QStringList commitOptions() const
    {
        // The lab's only partition is OpenSM's default (hosts limited members): the candidates'
        // modelled load is all-to-all, weighted by the learned weights.
        return {QStringLiteral("--traffic"), QStringLiteral("all-to-all"), QStringLiteral("--opensm-lfts"), lfts, QStringLiteral("--opensm-partitions"), partitions, QStringLiteral("--opensm-pidfile"),
                pidFile, QStringLiteral("--opensm-log"), sim->openSmLogPath(), QStringLiteral("--timeout"), QStringLiteral("60")};
    }

    // `weft adapt ARGS --json --interval 2 --ticks N` while the driver runs the hot spots: after
    // each tick line the driver advances one interval, first taking up the -U file's tables when
    // they changed. `onTick(k)` runs after the k-th tick line (1-based).
    AdaptRun runAdapt(const QStringList &args, int ticks, const std::function<void(int)> &onTick = {})
    {
        AdaptRun run;
        Result<ForwardingTables> tables = readLftDumpFile(lfts, &live);
        if (!tables) {
            run.stderrText = tables.error().toString();
            return run;
        }
        QByteArray tablesText = test::readAll(lfts);
        ForwardingTables fileTables = *tables;
        bool following = false;
        LabTrafficDriver driver(live, *tables, hot, test::kHotSpotFlowRate);
        if (const Status s = driver.tick(*sim, 0); !s) {  // every counter set before adapt reads them
            run.stderrText = s.error().toString();
            return run;
        }
        QProcess adapt;
        adapt.setProcessEnvironment(sim->clientEnvironment());
        adapt.setWorkingDirectory(dir.path());
        adapt.start(weftBinary(), QStringList{QStringLiteral("adapt")} + args + commitOptions() + QStringList{QStringLiteral("--json"), QStringLiteral("--interval"), QString::number(kIntervalSeconds), QStringLiteral("--ticks"), QString::number(ticks)});
        QByteArray pending;
        int tickLines = 0;
        QDeadlineTimer deadline(300000);
        while (!deadline.hasExpired()) {
            const bool finished = !adapt.waitForReadyRead(200) && adapt.state() == QProcess::NotRunning;
            pending += adapt.readAllStandardOutput();
            qsizetype newline;
            while ((newline = pending.indexOf('\n')) >= 0) {
                const QByteArray line = pending.left(newline).trimmed();
                pending.remove(0, newline + 1);
                if (line.isEmpty())
                    continue;
                qDebug("weft adapt: %s", line.left(600).constData());
                const QJsonObject o = QJsonDocument::fromJson(line).object();
                run.lines.push_back(o);
                if (!o.contains(QStringLiteral("tick")))
                    continue;
                ++tickLines;
                // When OpenSM's -U file changes, the driver follows the tables the switches hold
                // (dump_lfts), not the file, until they are the file's.
                if (const QByteArray now = test::readAll(lfts); now != tablesText) {
                    tablesText = now;
                    if (Result<ForwardingTables> written = readLftDump(now, lfts, &live)) {
                        fileTables = std::move(*written);
                        following = true;
                    } else {
                        run.stderrText += written.error().toString() + QLatin1Char('\n');
                    }
                }
                if (following) {
                    if (Result<ForwardingTables> held = test::installedTables(*sim, live)) {
                        following = !test::firstRouteDifference(live, fileTables, *held).isEmpty();
                        driver.setTables(*held);
                    } else {
                        run.stderrText += held.error().toString() + QLatin1Char('\n');
                    }
                }
                if (const Status s = driver.tick(*sim, kIntervalSeconds); !s)
                    run.stderrText += s.error().toString() + QLatin1Char('\n');
                if (onTick)
                    onTick(tickLines);
            }
            if (finished)
                break;
        }
        if (adapt.state() != QProcess::NotRunning) {
            adapt.kill();
            adapt.waitForFinished();
            run.stderrText += QStringLiteral("weft adapt did not finish within 300 s\n");
        }
        run.stderrText += QString::fromUtf8(adapt.readAllStandardError());
        if (!run.stderrText.isEmpty())
            qDebug("weft adapt's stderr: %s", qPrintable(run.stderrText));
        run.exitCode = adapt.exitStatus() == QProcess::NormalExit ? adapt.exitCode() : -1;
        return run;
    }

    // The rule in MODE's own rules file, journalled to `journalPath`.
    AdaptRun runMode(const QString &mode, const QString &journalPath, int ticks)
    {
        const QString rules = writeRules(mode + QStringLiteral(".rules"), kRule);
        return runAdapt({QStringLiteral("--rules"), rules, QStringLiteral("--mode"), mode, QStringLiteral("--journal"), journalPath}, ticks);
    }

    QString writeRules(const QString &name, const QByteArray &text) const
    {
        const QString file = path(name);
        if (!writeFileAtomically(file, text, false))
            qFatal("cannot write %s", qPrintable(file));
        return file;
    }
};

std::vector<CommitJournalEntry> journal(const QString &path)
{
    Result<std::vector<CommitJournalEntry>> entries = readJournal(path);
    if (!entries)
        qFatal("%s", qPrintable(entries.error().toString()));
    return *entries;
}

bool hasAdaptEntry(const std::vector<CommitJournalEntry> &entries, const char *outcome)
{
    return std::any_of(entries.begin(), entries.end(),
                       [&](const CommitJournalEntry &e) { return e.isAdapt() && e.outcome == QLatin1String(outcome); });
}

}  // namespace

class TestLabAdapt : public QObject
{
    Q_OBJECT

    Lab m_lab;

private Q_SLOTS:
    void initTestCase()
    {
        const QString tools = test::labToolsProblem();
        QVERIFY2(tools.isEmpty(), qPrintable(tools));
        QVERIFY2(QFileInfo(weftBinary()).isExecutable(), "WEFT_BINARY must name the weft executable");
        const QString started = m_lab.start();
        QVERIFY2(started.isEmpty(), qPrintable(started));
    }

    void cleanupTestCase()
    {
        if (m_lab.sim)
            m_lab.sim->stop();
    }

    // The workload as the issue wants it: one spine link offered 120 %, every host cable below 90 %.
    void workloadOffersOneSpineLinkTooMuch()
    {
        Result<ForwardingTables> held = test::installedTables(*m_lab.sim, m_lab.live);
        QVERIFY2(held, qPrintable(held ? QString() : held.error().toString()));
        const LabTrafficLoad load = computeLabTraffic(m_lab.live, *held, m_lab.hot, test::kHotSpotFlowRate);
        const LabLinkTraffic *hotLink = load.link(m_lab.hotLink);
        QVERIFY(hotLink);
        QCOMPARE(hotLink->offered / hotLink->capacity, 1.2);
        for (const LabLinkTraffic &l : load.links)
            if (!test::switchToSwitch(m_lab.live, l.from))
                QVERIFY2(l.offered <= 0.9 * l.capacity, qPrintable(directedLinkText(m_lab.live, l.from)));
    }

    // T-SA-3 through the monitor: with --basic-counters (PortCounters alone, 32-bit data, as old
    // hardware) a PortXmitData near 2^32 that reads small at the next pass (a wrap, or a clear)
    // is a gap, never a negative or huge rate; by default the 64-bit PortCountersExtended are read.
    void monitorGivesAGapForA32BitWrap()
    {
        const Fabric &live = m_lab.live;
        const PortIndex port = live.portOf(live.endNodes().back(), 1);
        const QString at = QStringLiteral("PerformanceSet \"%1\"[1] ").arg(live.node(live.port(port).node).name);
        const std::uint64_t nearMax = (std::uint64_t(1) << 32) - 100000;
        QVERIFY(m_lab.sim->simulatorCommands({at + QStringLiteral("PortCounters.PortXmitData=%1").arg(nearMax)}));

        const auto monitor = [&](const QStringList &extra, const std::function<void()> &betweenPasses, QString *error) {
            std::vector<std::map<QString, QJsonObject>> ticks;  // "GUID[port]" -> the port's object
            QProcess p;
            p.setProcessEnvironment(m_lab.sim->clientEnvironment());
            p.start(weftBinary(), QStringList{QStringLiteral("monitor"), QStringLiteral("--json"), QStringLiteral("--counters"), QStringLiteral("--interval"), QStringLiteral("2"), QStringLiteral("--count"), QStringLiteral("2")} + extra);
            std::size_t ports = 0;  // the monitor reads every linked port
            for (const Port &port : live.ports())
                ports += port.present && port.link != kNoIndex;
            QByteArray pending;
            QDeadlineTimer deadline(120000);
            while (!deadline.hasExpired()) {
                const bool finished = !p.waitForReadyRead(200) && p.state() == QProcess::NotRunning;
                pending += p.readAllStandardOutput();
                qsizetype newline;
                while ((newline = pending.indexOf('\n')) >= 0) {
                    const QJsonObject o = QJsonDocument::fromJson(pending.left(newline)).object();
                    pending.remove(0, newline + 1);
                    const QString key = QStringLiteral("%1[%2]").arg(o.value(QStringLiteral("guid")).toString()).arg(o.value(QStringLiteral("port")).toInt());
                    if (ticks.empty() || ticks.back().size() == ports)
                        ticks.emplace_back();
                    ticks.back()[key] = o;
                    // Between the first tick's pass and the second's.
                    if (ticks.size() == 1 && ticks.back().size() == ports && betweenPasses)
                        betweenPasses();
                }
                if (finished)
                    break;
            }
            if (p.state() != QProcess::NotRunning) {
                p.kill();
                p.waitForFinished();
            }
            if (p.exitCode() != 0 || ticks.size() != 2)
                *error = QStringLiteral("weft monitor: exit %1, %2 ticks\n%3").arg(p.exitCode()).arg(ticks.size()).arg(QString::fromUtf8(p.readAllStandardError()));
            return ticks;
        };
        const QString key = QStringLiteral("%1[1]").arg(guidText(live.node(live.port(port).node).guid));
        QString error;
        std::vector<std::map<QString, QJsonObject>> basic = monitor(
            {QStringLiteral("--basic-counters")}, [&] {
                QVERIFY(m_lab.sim->simulatorCommands({at + QStringLiteral("PortCounters.PortXmitData=500")}));
            },
            &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(basic[0].count(key) && basic[1].count(key), qPrintable(key));
        const QJsonObject before = basic[0][key].value(QStringLiteral("counters")).toObject();
        const QJsonObject after = basic[1][key].value(QStringLiteral("counters")).toObject();
        QCOMPARE(before.value(QStringLiteral("extended")).toBool(), false);
        QVERIFY2(before.value(QStringLiteral("PortXmitData")).toDouble() >= double(nearMax), QJsonDocument(before).toJson().constData());
        QVERIFY2(after.value(QStringLiteral("PortXmitData")).toDouble() < 1e6, QJsonDocument(after).toJson().constData());
        const QJsonObject wrapped = basic[1][key];
        QVERIFY2(wrapped.value(QStringLiteral("xmit_bytes_per_s")).isNull(), QJsonDocument(wrapped).toJson().constData());
        QVERIFY2(!wrapped.value(QStringLiteral("gaps")).toObject().value(QStringLiteral("xmit_bytes_per_s")).toString().isEmpty(),
                 QJsonDocument(wrapped).toJson().constData());
        // No port of either tick shows a negative or huge rate.
        for (const auto &tick : basic)
            for (const auto &[name, o] : tick)
                for (const char *field : {"xmit_bytes_per_s", "rcv_bytes_per_s"}) {
                    const QJsonValue v = o.value(QLatin1String(field));
                    QVERIFY2(v.isNull() || (v.toDouble() >= 0 && v.toDouble() <= 1.5e9), qPrintable(name));
                }
        qInfo("32-bit PortXmitData of %s read %.0f, then %.0f: rate %s (gap \"%s\")", qPrintable(key),
              before.value(QStringLiteral("PortXmitData")).toDouble(), after.value(QStringLiteral("PortXmitData")).toDouble(),
              qPrintable(wrapped.value(QStringLiteral("xmit_bytes_per_s")).isNull() ? QStringLiteral("none") : QStringLiteral("given")),
              qPrintable(wrapped.value(QStringLiteral("gaps")).toObject().value(QStringLiteral("xmit_bytes_per_s")).toString()));

        // Without the option the 64-bit counters are read.
        std::vector<std::map<QString, QJsonObject>> extended = monitor({}, {}, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(extended[1][key].value(QStringLiteral("counters")).toObject().value(QStringLiteral("extended")).toBool(), true);
    }

    // Bad input is refused (exit 2, the problem named) before the fabric is touched.
    void badInputIsRefused_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("error");
        const QString broken = m_lab.writeRules(QStringLiteral("broken.rules"), "rule x when max(link[all].util) > 0.9 then\n");
        const QString good = m_lab.writeRules(QStringLiteral("good.rules"), kRule);
        QTest::addRow("unknown mode") << QStringList{QStringLiteral("--rules"), good, QStringLiteral("--mode"), QStringLiteral("fast")}
                                      << QStringLiteral("--mode: expected dry-run, approve or auto, not \"fast\"");
        QTest::addRow("rules with an error") << QStringList{QStringLiteral("--rules"), broken, QStringLiteral("--mode"), QStringLiteral("auto")}
                                             << broken + QStringLiteral(":2:1: ");
        QTest::addRow("parameter without a value") << QStringList{QStringLiteral("--rules"), good, QStringLiteral("--mode"), QStringLiteral("auto"), QStringLiteral("--param"), QStringLiteral("budget")}
                                                   << QStringLiteral("--param: expected NAME=NUMBER, not \"budget\"");
    }

    void badInputIsRefused()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, error);
        const auto run = m_lab.sim->runClient(weftBinary(), QStringList{QStringLiteral("adapt")} + args + m_lab.commitOptions());
        QVERIFY2(run && run->exitCode == 2 && QString::fromUtf8(run->err).contains(error), qPrintable(test::describe(run)));
    }

    // (b) Approve: planned and written for an operator, nothing committed.
    void approveWritesThePlanAndCommitsNothing()
    {
        const QString journalPath = m_lab.path(QStringLiteral("journal-approve.jsonl"));
        const QByteArray tablesBefore = test::readAll(m_lab.lfts);
        const AdaptRun run = m_lab.runMode(QStringLiteral("approve"), journalPath, 7);
        QVERIFY2(run.exitCode == 0, qPrintable(run.text()));
        QVERIFY2(run.indexOf(QStringLiteral("fired")) < run.lines.size(), qPrintable(run.text()));
        QVERIFY2(run.indexOf(QStringLiteral("awaiting-approval")) < run.lines.size(), qPrintable(run.text()));
        QVERIFY2(run.indexOf(QStringLiteral("committed")) == run.lines.size(), qPrintable(run.text()));
        const auto approval = std::find_if(run.lines.begin(), run.lines.end(),
                                           [](const QJsonObject &o) { return o.contains(QStringLiteral("approval")); });
        QVERIFY2(approval != run.lines.end(), qPrintable(run.text()));
        const QString planLfts = approval->value(QStringLiteral("plan_lfts")).toString();
        const QString planPartitions = approval->value(QStringLiteral("plan_partitions")).toString();
        QVERIFY2(planLfts.startsWith(m_lab.path(QStringLiteral("weft-adapt-plans/"))), qPrintable(planLfts));
        Result<ForwardingTables> planned = readLftDumpFile(planLfts, &m_lab.live);
        QVERIFY2(planned, qPrintable(planned ? QString() : planned.error().toString()));
        QVERIFY(QFileInfo::exists(planPartitions));
        const QString command = approval->value(QStringLiteral("command")).toString();
        QVERIFY2(command.startsWith(QLatin1String("weft commit --plan-lfts ")) && command.contains(m_lab.lfts), qPrintable(command));

        QCOMPARE(test::readAll(m_lab.lfts), tablesBefore);
        const std::vector<CommitJournalEntry> entries = journal(journalPath);
        QVERIFY(hasAdaptEntry(entries, "fired"));
        QVERIFY(hasAdaptEntry(entries, "awaiting-approval"));
        QVERIFY(std::none_of(entries.begin(), entries.end(), [](const CommitJournalEntry &e) { return !e.isAdapt(); }));
    }

    // (c) A rules file broken while the loop runs: refused with file:line:column, the loop fires
    // on the rules it had.
    void brokenRulesAreRefusedAndTheLoopGoesOn()
    {
        const QString rules = m_lab.writeRules(QStringLiteral("live.rules"), kRule);
        const QByteArray broken = "# edited while the loop runs\nrule hot when max(link[all].util) >\n";
        const adapt::RuleFile parsed = adapt::parseRules(broken, rules);
        QVERIFY(parsed.error);
        const QString expected = parsed.error->toString();
        QVERIFY2(expected.startsWith(rules + QStringLiteral(":3:1: ")), qPrintable(expected));
        const AdaptRun run = m_lab.runAdapt({QStringLiteral("--rules"), rules, QStringLiteral("--mode"), QStringLiteral("dry-run")}, 7,
                                            [&](int tick) {
                                                if (tick == 1)
                                                    m_lab.writeRules(QStringLiteral("live.rules"), broken);
                                            });
        QVERIFY2(run.exitCode == 0, qPrintable(run.text()));
        QVERIFY2(run.stderrText.contains(expected), qPrintable(run.text()));
        const std::size_t refused = run.indexOf(QStringLiteral("rules-refused"));
        QVERIFY2(refused < run.lines.size(), qPrintable(run.text()));
        // Still the loaded rule: it fires after the refusal.
        bool firedAfter = false;
        for (std::size_t i = refused; i < run.lines.size(); ++i)
            firedAfter |= run.lines[i].value(QStringLiteral("event")).toString() == QLatin1String("fired")
                && run.lines[i].value(QStringLiteral("rule")).toString() == QLatin1String("hot");
        QVERIFY2(firedAfter, qPrintable(run.text()));
        QVERIFY(run.indexOf(QStringLiteral("committed")) == run.lines.size());
    }

    // One approve or auto loop per OpenSM: a second is refused (exit 2) naming the first's holder;
    // a dry-run loop takes no lock. Without --json the ticks are lines of text.
    void secondLoopIsRefused()
    {
        const QString rules = m_lab.writeRules(QStringLiteral("lock.rules"), kRule);
        QProcess first;
        first.setProcessEnvironment(m_lab.sim->clientEnvironment());
        first.start(weftBinary(), QStringList{QStringLiteral("adapt"), QStringLiteral("--rules"), rules, QStringLiteral("--mode"), QStringLiteral("approve"), QStringLiteral("--interval"), QStringLiteral("1"), QStringLiteral("--ticks"), QStringLiteral("3")} + m_lab.commitOptions());
        QVERIFY(first.waitForStarted());
        QByteArray firstOut;
        QDeadlineTimer deadline(60000);
        while (!firstOut.contains("tick:") && !deadline.hasExpired() && first.state() == QProcess::Running)
            if (first.waitForReadyRead(200))
                firstOut += first.readAllStandardOutput();
        QVERIFY2(firstOut.contains("tick:"), firstOut.constData());

        const auto second = m_lab.sim->runClient(weftBinary(), QStringList{QStringLiteral("adapt"), QStringLiteral("--rules"), rules, QStringLiteral("--mode"), QStringLiteral("auto"), QStringLiteral("--ticks"), QStringLiteral("1")} + m_lab.commitOptions());
        QVERIFY2(second && second->exitCode == 2, qPrintable(test::describe(second)));
        const QString refusal = QString::fromUtf8(second->err);
        QVERIFY2(refusal.contains(QLatin1String("another self-adaptive loop")) && refusal.contains(QStringLiteral("pid %1").arg(first.processId())),
                 qPrintable(refusal));
        const auto dryRun = m_lab.sim->runClient(weftBinary(), QStringList{QStringLiteral("adapt"), QStringLiteral("--rules"), rules, QStringLiteral("--mode"), QStringLiteral("dry-run"), QStringLiteral("--interval"), QStringLiteral("1"), QStringLiteral("--ticks"), QStringLiteral("1")} + m_lab.commitOptions());
        QVERIFY2(dryRun && dryRun->exitCode == 0 && dryRun->out.contains("tick: 80 ports, highest utilisation"), qPrintable(test::describe(dryRun)));

        QVERIFY(first.waitForFinished(60000));
        QCOMPARE(first.exitCode(), 0);
    }

    // (a) Auto: fired, planned, committed, verified; the measured maximum falls below the threshold.
    void autoReroutesAndTheHotLinkCools()
    {
        const QString journalPath = m_lab.path(QStringLiteral("journal-auto.jsonl"));
        const QByteArray tablesBefore = test::readAll(m_lab.lfts);
        const AdaptRun run = m_lab.runMode(QStringLiteral("auto"), journalPath, 10);
        QVERIFY2(run.exitCode == 0, qPrintable(run.text()));
        const std::size_t fired = run.indexOf(QStringLiteral("fired"));
        const std::size_t planned = run.indexOf(QStringLiteral("planned"));
        const std::size_t committed = run.indexOf(QStringLiteral("committed"));
        QVERIFY2(fired < planned && planned < committed && committed < run.lines.size(), qPrintable(run.text()));
        QVERIFY(test::readAll(m_lab.lfts) != tablesBefore);

        const std::vector<double> before = run.maxUtils(0, committed);
        const std::vector<double> after = run.maxUtils(committed);
        QVERIFY2(!before.empty() && *std::max_element(before.begin(), before.end()) >= 0.99, qPrintable(run.text()));
        // The tick after the commit still holds the driver's last interval on the old tables; the
        // last two are the new tables' alone.
        QVERIFY2(after.size() >= 3, qPrintable(run.text()));
        const double cooled = std::max(after[after.size() - 1], after[after.size() - 2]);
        QVERIFY2(cooled >= 0 && cooled < 0.9, qPrintable(run.text()));

        // The switches hold what the loop committed: dump_lfts against OpenSM's -U file.
        Result<ForwardingTables> held = test::installedTables(*m_lab.sim, m_lab.live);
        QVERIFY2(held, qPrintable(held ? QString() : held.error().toString()));
        Result<ForwardingTables> written = readLftDumpFile(m_lab.lfts, &m_lab.live);
        QVERIFY(written);
        const QString differ = test::firstRouteDifference(m_lab.live, *written, *held);
        QVERIFY2(differ.isEmpty(), qPrintable(QStringLiteral("the switches do not hold the tables weft adapt committed: ") + differ));

        const std::vector<CommitJournalEntry> entries = journal(journalPath);
        QVERIFY(hasAdaptEntry(entries, "fired"));
        QVERIFY(hasAdaptEntry(entries, "planned"));
        QVERIFY(hasAdaptEntry(entries, "committed"));
        const auto commit = std::find_if(entries.begin(), entries.end(), [](const CommitJournalEntry &e) { return !e.isAdapt(); });
        QVERIFY(commit != entries.end());
        QCOMPARE(commit->outcome, QStringLiteral("committed"));
        qInfo("weft adapt --mode auto on %s with two hot receivers (%s, %s): highest measured link utilisation %.4f before, "
              "%.4f after the commit of %lld SMPs (%s)",
              "XGFT(2; 4,8; 2,1)", qPrintable(m_lab.live.node(m_lab.live.port(m_lab.hot.hotSpots[0]).node).description),
              qPrintable(m_lab.live.node(m_lab.live.port(m_lab.hot.hotSpots[1]).node).description),
              *std::max_element(before.begin(), before.end()), cooled, commit->smps, qPrintable(commit->planSummary));
    }

    // A host's cable cut while the loop runs: its PMA goes silent, the loop rediscovers, and the
    // change reaches the rules as events (link_down, node_removed). Last: it changes the lab.
    void aCutCableReachesTheRulesAsEvents()
    {
        const QString rules = m_lab.writeRules(QStringLiteral("events.rules"),
                                               "rule cut priority 5 mode dry-run when event(link_down) then notify(\"a cable went down\")\n"
                                               "rule gone priority 4 mode dry-run when event(node_removed) then notify(\"a node left\")\n");
        const Fabric &live = m_lab.live;
        NodeIndex host = live.endNodes()[live.endNodes().size() / 2];
        if (live.node(host).description == m_lab.smHost)
            host = live.endNodes()[live.endNodes().size() / 2 + 1];
        const PortIndex hostPort = live.portOf(host, 1);
        const Port &leafPort = live.port(live.port(hostPort).remote);
        const QString cut = QStringLiteral("Unlink \"%1\"[%2]").arg(live.node(leafPort.node).name).arg(leafPort.number);
        const AdaptRun run = m_lab.runAdapt({QStringLiteral("--rules"), rules, QStringLiteral("--mode"), QStringLiteral("dry-run")}, 5,
                                            [&](int tick) {
                                                if (tick == 1)
                                                    QVERIFY(m_lab.sim->simulatorCommand(cut));
                                            });
        QVERIFY2(run.exitCode == 0, qPrintable(run.text()));
        QStringList notified;
        for (const QJsonObject &o : run.lines)
            if (o.value(QStringLiteral("event")).toString() == QLatin1String("fired"))
                notified << o.value(QStringLiteral("rule")).toString();
        QVERIFY2(notified.contains(QLatin1String("cut")) && notified.contains(QLatin1String("gone")), qPrintable(run.text()));
    }

    // A cable between the SM's leaf and a spine cut in auto mode, then the SM host's own cable
    // pulled for two ticks: the loop reroutes around the first, and the passes and discoveries
    // that fail while the SM's port is down are gaps it says and tries again, never its end.
    // When the cable is back (and OpenSM has swept), the loop reads the fabric again.
    void lostCablesAreGapsNotTheEnd()
    {
        const QString rules = m_lab.writeRules(QStringLiteral("repair.rules"),
                                               "rule repair priority 5 mode auto when event(link_down) then reroute(engine=ftree)\n");
        const Fabric &live = m_lab.live;
        NodeIndex smNode = kNoIndex;
        for (NodeIndex n : live.endNodes())
            if (live.node(n).description == m_lab.smHost)
                smNode = n;
        QVERIFY(smNode != kNoIndex);
        const Port &smLeafPort = live.port(live.port(live.portOf(smNode, 1)).remote);
        const NodeIndex leaf = smLeafPort.node;
        int upPort = 0;
        for (int p = 1; p <= live.node(leaf).portCount && !upPort; ++p) {
            const Port &port = live.port(live.portOf(leaf, p));
            if (port.remote != kNoIndex && live.node(live.port(port.remote).node).type == NodeType::Switch)
                upPort = p;
        }
        QVERIFY(upPort > 0);
        const QString spineCut = QStringLiteral("Unlink \"%1\"[%2]").arg(live.node(leaf).name).arg(upPort);
        const QString smCable = QStringLiteral("\"%1\"[%2]").arg(live.node(leaf).name).arg(smLeafPort.number);
        constexpr int kTicks = 12;
        int resumedAt = 0;
        const AdaptRun run = m_lab.runAdapt({QStringLiteral("--rules"), rules, QStringLiteral("--mode"), QStringLiteral("auto"),
                                             QStringLiteral("--journal"), m_lab.path(QStringLiteral("journal-cut.jsonl"))},
                                            kTicks, [&](int tick) {
                                                if (tick == 1)
                                                    QVERIFY(m_lab.sim->simulatorCommand(spineCut));
                                                if (tick == 3) {
                                                    // No tick line comes while the SM's port is down: the cable is
                                                    // put back after three intervals, whatever the loop printed.
                                                    QVERIFY(m_lab.sim->simulatorCommand(QStringLiteral("Unlink ") + smCable));
                                                    QTest::qWait(int(3 * kIntervalSeconds * 1000));
                                                    QVERIFY(m_lab.sim->simulatorCommand(QStringLiteral("Relink ") + smCable));
                                                    // Sweeping is off in this lab: a SIGHUP makes OpenSM bring the port up.
                                                    QVERIFY(::kill(pid_t(m_lab.sim->openSmPid()), SIGHUP) == 0);
                                                    resumedAt = tick;
                                                }
                                            });
        QVERIFY2(run.exitCode == 0, qPrintable(run.text()));
        QVERIFY2(run.indexOf(QStringLiteral("fired")) < run.lines.size(), qPrintable(run.text()));
        const int gaps = int(run.stderrText.count(QStringLiteral("trying again at the next tick")));
        QVERIFY2(gaps >= 1, qPrintable(run.text()));
        // The last ticks read the fabric again: rates, with the SM's host answering.
        const std::vector<double> utils = run.maxUtils();
        QVERIFY2(resumedAt > 0 && !utils.empty() && utils.back() >= 0, qPrintable(run.text()));
        qInfo("%s, then the SM host's cable pulled for a tick: %d ticks of rates, %d gaps said and survived",
              qPrintable(spineCut), int(utils.size()), gaps);
    }
};

QTEST_GUILESS_MAIN(TestLabAdapt)
#include "tst_lab_adapt.moc"
