// weft adapt --rules FILE --mode dry-run|approve|auto: the self-adaptive loop
// (routing/adapt/AdaptLoop.h) on a live fabric run by OpenSM with the file routing engine. It
// discovers the fabric, reads the tables the switches hold and OpenSM's partitions.conf (the
// loop's knowledge), then each interval reads every linked port's counters and hands the rates
// to the loop; what the loop wants done is committed through `weft commit`'s path (auto) or
// written out as a plan with the `weft commit` command that installs it (approve). The replay
// form (--replay) is CommandAdapt.cpp's.

#include "CliSupport.h"
#include "Commands.h"

#include "AdaptLoop.h"
#include "AdaptRunner.h"
#include "Commit.h"
#include "CommitJournal.h"
#include "FabricChanges.h"
#include "FabricSession.h"
#include "Identifiers.h"
#include "LftDump.h"
#include "LiveCommitBackend.h"
#include "LiveFabric.h"
#include "LiveRead.h"
#include "PartitionsConf.h"
#include "PortCounterReader.h"
#include "ProjectFile.h"
#include "LinkHealth.h"
#include "RuleLanguage.h"
#include "SafeFile.h"
#include "SubnetTarget.h"
#include "TelemetryRecord.h"
#include "TextReader.h"
#include "TopologyFile.h"
#include "TrafficModel.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <memory>
#include <optional>
#include <thread>

namespace weft::cli {

namespace {

using namespace adapt;

// A stop signal (catchStopSignals): the loop finishes the tick (and a commit) it is in, then stops.

// Sleeps until `until`, waking for a stop signal.
void sleepUntil(std::chrono::steady_clock::time_point until)
{
    while (!stopSignal() && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(std::chrono::milliseconds(100),
                                                                                  until - std::chrono::steady_clock::now()));
}

// The worse of two exit codes (a failure over bad input over success).
int worseExit(int a, int b)
{
    const auto rank = [](int code) {
        if (code == kExitFailure)
            return 2;
        return code == kExitBadInput ? 1 : 0;
    };
    return rank(b) > rank(a) ? b : a;
}

struct Settings
{
    RuleMode mode = RuleMode::DryRun;
    QString rulesPath;
    QString marksPath;  // --link-marks: links marked sick or excluded by the operator
    double interval = 10;
    int ticks = 0;  // 0: until a stop signal
    int rediscoverEvery = 0;  // ticks; 0: only when a node goes silent or a link reports going down
    bool json = false;
    QString planDir;
    QString projectPath;
    std::optional<Tenancy> projectTenancy;
    TrafficModel model;
    std::map<QString, double> parameters;
    LiveOptions live;
    CommitTarget target;  // with --target: the master's files, the subnet's lock
    std::optional<SubnetTarget> subnet;
    CommitOptions commit;
    QString timeoutText;
};

// The tenancy the loop plans for: the project's, else OpenSM's partitions with default policies.
struct InstalledTenancy
{
    Tenancy tenancy;
    std::vector<Partition> currentPartitions;
};

Result<InstalledTenancy> readInstalledTenancy(const Settings &settings)
{
    Result<PartitionsConfResult> conf = readPartitionsConfFile(settings.target.partitionsPath);
    if (!conf)
        return conf.error();
    InstalledTenancy installed;
    installed.currentPartitions = conf->partitions;
    if (settings.projectTenancy) {
        installed.tenancy = *settings.projectTenancy;
    } else {
        installed.tenancy.partitions = conf->partitions;
    }
    return installed;
}

QJsonObject recordJson(const AdaptRecord &record)
{
    return {{QStringLiteral("time"), record.time}, {QStringLiteral("event"), record.event}, {QStringLiteral("rule"), record.rule}, {QStringLiteral("summary"), record.summary}, {QStringLiteral("details"), record.details}};
}

void printLine(const QJsonObject &object)
{
    out() << QJsonDocument(object).toJson(QJsonDocument::Compact) << Qt::endl;
}

QString timeText(double seconds)
{
    return QDateTime::fromMSecsSinceEpoch(qint64(seconds * 1000), Qt::UTC).toString(Qt::ISODate);
}

// The loop on a live fabric: one pass of the port counters per tick. The fabric events and the
// Execute stage are the runner's (AdaptRunner.h, shared with the desk); the fabric, what it holds
// and the commits are the session's.
class LiveAdapt
{
public:
    explicit LiveAdapt(Settings settings)
        : m_settings(std::move(settings))
    {
        m_session.setAdapter(m_settings.live.caName, m_settings.live.caPort);
        m_session.setCommitTarget(m_settings.target);
        if (m_settings.subnet)
            m_session.setSubnetTarget(*m_settings.subnet);
    }

    // Discovery, the installed tables and tenancy, the rules, the first (priming) pass.
    Status start(const QByteArray &rulesText)
    {
        Result<LiveState> discovered = m_session.discoverNow();
        if (!discovered)
            return discovered.error();
        Result<InstalledTenancy> tenancy = readInstalledTenancy(m_settings);
        if (!tenancy)
            return tenancy.error();
        AdaptKnowledge knowledge;
        knowledge.fabric = discovered->fabric;
        knowledge.installed = discovered->held.lfts;
        knowledge.tenancy = std::move(tenancy->tenancy);
        knowledge.currentPartitions = std::move(tenancy->currentPartitions);
        knowledge.model = m_settings.model;
        AdaptLoopOptions options;
        options.mode = m_settings.mode;
        options.journalPath = m_settings.commit.journalPath;
        AdaptAccess access;
        access.rediscover = [this] { return readLiveState(m_settings.live, m_settings.target.partitionsPath); };
        access.commit = [this](const CommitPlan &plan) {
            CommitOptions commitOptions = m_settings.commit;
            if (!m_settings.json)
                commitOptions.progress = [](const QString &line) { out() << "      " << line << Qt::endl; };
            return m_session.commitNow(plan, commitOptions);
        };
        m_runner = std::make_unique<AdaptRunner>(std::move(knowledge), options, std::move(access));
        m_runner->setRediscoverEvery(m_settings.rediscoverEvery);
        AdaptLoop &loop = m_runner->loop();
        loop.setRecordSink([this](const AdaptRecord &record) { printRecord(record); });
        for (const auto &[name, value] : m_settings.parameters)
            loop.engine().setParameter(name, value);
        if (const Status loaded = loop.loadRules(rulesText, m_settings.rulesPath); !loaded)
            return loaded.error();
        m_rulesStamp = QFileInfo(m_settings.rulesPath).lastModified();
        if (!m_settings.marksPath.isEmpty()) {
            Result<QByteArray> marks = TextReader::readFile(m_settings.marksPath);
            if (!marks)
                return marks.error();
            if (const Status loaded = loop.loadLinkMarks(*marks, m_settings.marksPath); !loaded)
                return loaded.error();
            m_marksStamp = QFileInfo(m_settings.marksPath).lastModified();
        }
        const Fabric &fabric = *discovered->fabric;
        if (!m_settings.json)
            out() << "adapting " << fabric.switches().size() << " switches, " << fabric.endNodes().size() << " end nodes in "
                  << modeName(m_settings.mode) << " mode, " << loop.rules().size() << " rules, every " << m_settings.interval
                  << " s" << Qt::endl;
        return startReading(discovered->fabric);
    }

    // Ticks until --ticks or a stop signal; the exit status.
    int run()
    {
        auto nextAt = std::chrono::steady_clock::now();
        const auto step = std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(m_settings.interval));
        for (int tick = 1; !stopSignal() && (m_settings.ticks == 0 || tick <= m_settings.ticks); ++tick) {
            nextAt = std::max(nextAt + step, std::chrono::steady_clock::now());
            sleepUntil(nextAt);
            if (stopSignal())
                break;
            reloadRulesIfChanged();
            reloadMarksIfChanged();
            // A pass, a discovery or a new reading that fails is a gap in the loop, not its end:
            // said, and tried again at the next tick (a repaired cable can leave a switch
            // unreachable for a sweep or two).
            if (!m_primed) {
                if (const Status reading = prime(); !reading)
                    err() << "weft adapt: tick " << tick << ": " << reading.error().toString() << "; trying again at the next tick" << Qt::endl;
                continue;
            }
            Result<PortCounterPass> pass = m_reader->read();
            if (!pass) {
                err() << "weft adapt: tick " << tick << ": no pass: " << pass.error().toString() << "; trying again at the next tick" << Qt::endl;
                continue;
            }
            const double time = pass->wallTime;
            std::vector<TelemetryRecord> records = telemetryRecords(*m_fabric, m_reader->ports(), m_previous->samples,
                                                                    m_previous->readAt, pass->samples, pass->readAt, time);
            printTick(time, records);
            const std::size_t silent = pass->silentNodes.size();
            m_previous = std::move(*pass);
            // The fabric again when a node went silent, a port counted its link going down, or
            // every --rediscover ticks: what changed reaches the rules as events.
            const AdaptTick outcome = m_runner->tick(time, std::move(records), m_fabric.get(), silent);
            if (!outcome.problem.isEmpty())
                err() << "weft adapt: tick " << tick << ": discovering the fabric again failed: " << outcome.problem << "; trying again at the next tick" << Qt::endl;
            if (outcome.fabricNow) {
                if (!m_settings.json)
                    out() << "the fabric changed:\n" << outcome.topology.toText() << Qt::endl;
                if (const Status reading = startReading(outcome.fabricNow->fabric); !reading)
                    err() << "weft adapt: tick " << tick << ": " << reading.error().toString() << "; trying again at the next tick" << Qt::endl;
            }
            for (const PendingChange &change : outcome.changes) {
                if (change.mode == RuleMode::Auto)
                    execute(change);
                else
                    writeForApproval(change);
                if (m_stopAfterCommit)
                    return m_exit;
            }
        }
        return m_exit;
    }

private:
    Status startReading(std::shared_ptr<const Fabric> fabric)
    {
        m_reader.reset();  // it refers to the fabric it was made for
        m_fabric = std::move(fabric);
        m_reader = std::make_unique<PortCounterReader>(*m_fabric, m_settings.live);
        return prime();
    }

    // The first pass on the current fabric: rates need a reading before them.
    Status prime()
    {
        m_primed = false;
        Result<PortCounterPass> first = m_reader->read();
        if (!first)
            return first.error();
        m_previous = std::move(*first);
        m_primed = true;
        return Done{};
    }

    void printRecord(const AdaptRecord &record)
    {
        if (m_settings.json) {
            printLine(recordJson(record));
            return;
        }
        out() << timeText(record.time) << "  " << record.event;
        if (!record.rule.isEmpty())
            out() << " " << record.rule;
        out() << ": " << record.summary << Qt::endl;
    }

    // {"tick": time, "max_util": the highest measured link utilisation, "ports": n}
    void printTick(double time, const std::vector<TelemetryRecord> &records) const
    {
        const TelemetryRecord *busiest = nullptr;
        for (const TelemetryRecord &r : records)
            if (r.rates.utilisation.ok() && (!busiest || r.rates.utilisation.value > busiest->rates.utilisation.value))
                busiest = &r;
        if (m_settings.json) {
            printLine({{QStringLiteral("tick"), time},
                       {QStringLiteral("max_util"), busiest ? QJsonValue(busiest->rates.utilisation.value) : QJsonValue(QJsonValue::Null)},
                       {QStringLiteral("ports"), qint64(records.size())}});
            return;
        }
        out() << timeText(time) << "  tick: " << records.size() << " ports";
        if (busiest)
            out() << ", highest utilisation " << QString::number(busiest->rates.utilisation.value * 100, 'f', 1) << " % ("
                  << directedLinkText(*m_fabric, busiest->portIndex) << ")";
        out() << Qt::endl;
    }

    // The rules file again when it changed; an error keeps the rules in force.
    void reloadRulesIfChanged()
    {
        const QDateTime stamp = QFileInfo(m_settings.rulesPath).lastModified();
        if (stamp == m_rulesStamp)
            return;
        m_rulesStamp = stamp;
        Result<QByteArray> text = TextReader::readFile(m_settings.rulesPath);
        if (!text) {
            err() << "weft adapt: " << text.error().toString() << " (the previous rules stay in force)" << Qt::endl;
            return;
        }
        // The loop refuses it (file:line:column) and logs it.
        if (const Status loaded = m_runner->loop().loadRules(*text, m_settings.rulesPath); !loaded)
            err() << "weft adapt: " << loaded.error().toString() << " (the previous rules stay in force)" << Qt::endl;
    }

    // The link marks file again when it changed; an error keeps the marks in force.
    void reloadMarksIfChanged()
    {
        if (m_settings.marksPath.isEmpty())
            return;
        const QDateTime stamp = QFileInfo(m_settings.marksPath).lastModified();
        if (stamp == m_marksStamp)
            return;
        m_marksStamp = stamp;
        Result<QByteArray> text = TextReader::readFile(m_settings.marksPath);
        if (!text) {
            err() << "weft adapt: " << text.error().toString() << " (the previous link marks stay in force)" << Qt::endl;
            return;
        }
        if (const Status loaded = m_runner->loop().loadLinkMarks(*text, m_settings.marksPath); !loaded)
            err() << "weft adapt: " << loaded.error().toString() << " (the previous link marks stay in force)" << Qt::endl;
    }

    // Auto: the verified commit of the loop's own plan, which the commit refuses as stale when
    // the switches no longer hold what the loop planned from (the knowledge then follows them).
    void execute(const PendingChange &change)
    {
        const CommitReport report = m_runner->execute(change);
        // A stale plan is the loop's to drop, not a failure of the run.
        if (report.outcome != CommitOutcome::Stale)
            m_exit = worseExit(m_exit, commitExitCode(report.outcome));
        // The fabric's state is not known: no further change on top of it.
        if (report.outcome == CommitOutcome::RollbackFailed) {
            err() << "weft adapt: the rollback could not be verified; stopping (see the journal, then `weft commit --recover`)"
                  << Qt::endl;
            m_stopAfterCommit = true;
        }
    }

    // Approve: the chosen candidate as plan files in --plan-dir and the command that installs it.
    void writeForApproval(const PendingChange &change)
    {
        const CommitPlan &plan = change.commitPlan;
        const QDir dir(m_settings.planDir);
        if (!QDir().mkpath(dir.absolutePath())) {
            err() << "weft adapt: --plan-dir: cannot create \"" << dir.absolutePath() << "\"" << Qt::endl;
            m_exit = worseExit(m_exit, kExitFailure);
            return;
        }
        const QString stem = QStringLiteral("adapt-%1-%2")
                                 .arg(QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss")))
                                 .arg(change.id);
        const QString lfts = dir.absoluteFilePath(stem + QStringLiteral(".lfts"));
        const QString partitions = dir.absoluteFilePath(stem + QStringLiteral("-partitions.conf"));
        const QString topology = dir.absoluteFilePath(stem + QStringLiteral(".topo"));
        const Fabric &fabric = *m_runner->loop().knowledge().fabric;
        Status written = writeLftDumpFile(lfts, plan.tables, &fabric, LftDumpForm::Compact);
        if (written && !plan.serviceLevels.empty())
            written = writeFileAtomically(lfts + QStringLiteral(".sl"), writeServiceLevels(plan.serviceLevels));
        if (written)
            written = writeFileAtomically(partitions, plan.partitionsConf);
        if (written)
            written = writeFileAtomically(topology, writeIbnetdiscover(plan.madeFor ? *plan.madeFor : fabric));
        if (!written) {
            err() << "weft adapt: " << written.error().toString() << Qt::endl;
            m_exit = worseExit(m_exit, kExitFailure);
            return;
        }
        QStringList words{QStringLiteral("weft"), QStringLiteral("commit"), QStringLiteral("--plan-lfts"), lfts,
                          QStringLiteral("--plan-partitions"), partitions, QStringLiteral("--plan-topology"), topology};
        if (!m_settings.projectPath.isEmpty())
            words << QStringLiteral("--project") << m_settings.projectPath;
        const CommitTarget &target = m_settings.target;
        if (m_settings.subnet) {
            words << QStringLiteral("--target") << m_settings.subnet->fileName;
        } else {
            words << QStringLiteral("--opensm-lfts") << target.lftsPath << QStringLiteral("--opensm-partitions") << target.partitionsPath
                  << QStringLiteral("--opensm-pidfile") << target.pidFile;
            if (!target.logPath.isEmpty())
                words << QStringLiteral("--opensm-log") << target.logPath;
            if (!target.optionsPath.isEmpty())
                words << QStringLiteral("--opensm-options") << target.optionsPath;
        }
        words << QStringLiteral("--journal") << m_settings.commit.journalPath << QStringLiteral("--timeout") << m_settings.timeoutText;
        if (m_settings.commit.smPortGuid)
            words << QStringLiteral("--sm-port") << guidText(m_settings.commit.smPortGuid);
        if (!m_settings.live.caName.isEmpty())
            words << QStringLiteral("--ca") << m_settings.live.caName;
        if (m_settings.live.caPort)
            words << QStringLiteral("--ca-port") << QString::number(m_settings.live.caPort);
        if (m_settings.commit.acceptViolations)
            words << QStringLiteral("--accept-violations");
        QStringList quoted;
        for (const QString &w : words)
            quoted << shellQuoted(w);
        const QString command = quoted.join(QLatin1Char(' '));
        if (m_settings.json) {
            printLine({{QStringLiteral("approval"), qint64(change.id)},
                       {QStringLiteral("rule"), change.plan.firing.rule},
                       {QStringLiteral("plan_lfts"), lfts},
                       {QStringLiteral("plan_partitions"), partitions},
                       {QStringLiteral("plan_topology"), topology},
                       {QStringLiteral("command"), command}});
        } else {
            out() << "awaiting approval: " << change.plan.decision << "; plan in " << lfts << " and " << partitions
                  << "; install it with:\n  " << command << Qt::endl;
        }
    }

    Settings m_settings;
    FabricSession m_session;
    std::unique_ptr<AdaptRunner> m_runner;
    std::shared_ptr<const Fabric> m_fabric;  // what m_reader reads
    std::unique_ptr<PortCounterReader> m_reader;
    std::optional<PortCounterPass> m_previous;
    bool m_primed = false;  // m_previous is a reading of the current fabric
    QDateTime m_rulesStamp;
    QDateTime m_marksStamp;
    int m_exit = kExitOk;
    bool m_stopAfterCommit = false;
};

}  // namespace

int adaptLive(const QStringList &args)
{
    const QString command = QStringLiteral("adapt");
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "The self-adaptive loop: Weft's rules (see `weft rules check`) over the measured load of a fabric.\n"
        "  weft adapt --rules FILE --mode dry-run|approve|auto --opensm-lfts PATH --opensm-partitions PATH\n"
        "             --opensm-pidfile FILE [commit options] [--interval S] [--ticks N] [--json]\n"
        "      on a live fabric run by OpenSM with `-R file -U LFTS -P PARTITIONS`: discovers it, reads the\n"
        "      tables the switches hold and the partitions, then every interval reads every linked port's\n"
        "      counters and evaluates the rules. A rule that fires is planned (its candidates scored; a\n"
        "      sick-link rule's drain(link) and undrain(link) as `weft drain` plans them); in\n"
        "      dry-run mode the decision is only logged; in approve mode the chosen plan is written to\n"
        "      --plan-dir with the `weft commit` command that installs it; in auto mode it is committed as\n"
        "      `weft commit` does (checked, written, read back, rolled back on failure). Every firing,\n"
        "      suppression, plan and commit result goes to the commit journal. One approve or auto loop\n"
        "      runs per OpenSM (a lock beside --opensm-lfts). The rules file is read again when it\n"
        "      changes; one with an error is refused (file:line:column) and the loop keeps its rules.\n"
        "      Stops after --ticks, or on SIGINT, SIGTERM or SIGHUP. Exit status as `weft commit`'s for the worst\n"
        "      commit (0 when none failed); 2 for bad input or a loop already running.\n"
        "  weft adapt --rules FILE --replay TRACE --topology T [--json]\n"
        "      evaluates the rules against a recorded metric trace (the CSV of `weft monitor --csv`, or\n"
        "      its history database) without a fabric: one line per firing or suppression."));
    parser.addOption({QStringLiteral("rules"), QStringLiteral("The rules file."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("link-marks"), QStringLiteral("Links the operator marks for the sick-link rules, one a line: `sick NODE[PORT]` (drained as a sick link) or `exclude NODE[PORT]` (never judged nor drained); read again when it changes."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("mode"), QStringLiteral("dry-run (log only), approve (write the plan for an operator) or auto (commit)."), QStringLiteral("MODE")});
    parser.addOption({QStringLiteral("interval"), QStringLiteral("Seconds between two readings of the counters (default 10)."), QStringLiteral("S"), QStringLiteral("10")});
    parser.addOption({QStringLiteral("ticks"), QStringLiteral("Stop after N ticks of rates (default: run until SIGINT, SIGTERM or SIGHUP)."), QStringLiteral("N"), QStringLiteral("0")});
    parser.addOption({QStringLiteral("rediscover"), QStringLiteral("Discover the fabric again every N ticks, so that changes no port reports reach the rules as events (default 0: only when a node stops answering or a port counts its link going down)."), QStringLiteral("N"), QStringLiteral("0")});
    parser.addOption({QStringLiteral("project"), QStringLiteral("The Weft project: the tenancy planned for and each partition's isolation policy (default: the partitions of OpenSM's -P file, default policies)."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("traffic"), QStringLiteral("Traffic model of the candidates' modelled load, weighted by the nodes' weights (%1; default partition-all-to-all: where the only partition is OpenSM's default with hosts as limited members, use all-to-all).").arg(trafficModelNames()), QStringLiteral("MODEL")});
    parser.addOption({QStringLiteral("param"), QStringLiteral("A parameter the rules compare (repeatable)."), QStringLiteral("NAME=VALUE")});
    parser.addOption({QStringLiteral("plan-dir"), QStringLiteral("Approve mode: where plans are written (default: weft-adapt-plans beside the journal)."), QStringLiteral("DIR")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("One JSON object per record and one per tick ({\"tick\", \"max_util\", \"ports\"}).")});
    addCommitTargetOptions(parser);
    parser.addOption({QStringLiteral("target"), QStringLiteral("A subnet's commit target (see `weft target check`) instead of the --opensm-* options: commits reach every "
                                                               "SM of the subnet, through the one that is master; one approve/auto loop per subnet."),
                      QStringLiteral("FILE")});
    int exitCode = kExitOk;
    if (!parseArguments(parser, command, args, &exitCode))
        return exitCode;
    const bool viaTarget = parser.isSet(QStringLiteral("target"));
    if (viaTarget ? !requireOptionsOnly(parser, command, {"rules", "mode"}, &exitCode)
                  : !requireOptionsOnly(parser, command, {"rules", "mode", "opensm-lfts", "opensm-partitions", "opensm-pidfile"}, &exitCode))
        return exitCode;

    Settings settings;
    // The rule language's own names of the modes.
    const QString mode = parser.value(QStringLiteral("mode"));
    const std::optional<RuleMode> named = modeFromName(mode);
    if (!named)
        return reportBadInput(command, QStringLiteral("--mode: expected dry-run, approve or auto, not \"%1\"").arg(mode));
    settings.mode = *named;
    bool ok = false;
    settings.interval = parser.value(QStringLiteral("interval")).toDouble(&ok);
    if (!ok || !(settings.interval >= 0.1) || settings.interval > 86400)
        return reportBadInput(command, QStringLiteral("--interval: not a number of seconds from 0.1 to 86400: \"%1\"").arg(parser.value(QStringLiteral("interval"))));
    settings.ticks = parser.value(QStringLiteral("ticks")).toInt(&ok);
    if (!ok || settings.ticks < 0)
        return reportBadInput(command, QStringLiteral("--ticks: not a count: \"%1\"").arg(parser.value(QStringLiteral("ticks"))));
    settings.rediscoverEvery = parser.value(QStringLiteral("rediscover")).toInt(&ok);
    if (!ok || settings.rediscoverEvery < 0)
        return reportBadInput(command, QStringLiteral("--rediscover: not a count of ticks: \"%1\"").arg(parser.value(QStringLiteral("rediscover"))));
    settings.json = parser.isSet(QStringLiteral("json"));
    Result<std::map<QString, double>> parameters = ruleParameters(parser);
    if (!parameters)
        return reportBadInput(command, parameters.error());
    settings.parameters = std::move(*parameters);
    Result<TrafficModel> model = trafficOption(parser);
    if (!model)
        return reportBadInput(command, model.error());
    settings.model = *model;

    Result<CommitTargetOptions> targetOptions = readCommitTargetOptions(parser);
    if (!targetOptions)
        return reportBadInput(command, targetOptions.error());
    settings.target = targetOptions->target;
    settings.commit = targetOptions->options;
    settings.live = targetOptions->live;
    settings.timeoutText = targetOptions->timeoutText;
    if (viaTarget) {
        for (const char *own : {"opensm-lfts", "opensm-intent", "opensm-partitions", "opensm-pidfile", "opensm-log", "opensm-options"})
            if (parser.isSet(QLatin1String(own)))
                return reportBadInput(command, QStringLiteral("--target names every SM's files: drop --%1").arg(QLatin1String(own)));
        Result<SubnetTarget> subnet = readSubnetTargetFile(parser.value(QStringLiteral("target")));
        if (!subnet)
            return reportBadInput(command, subnet.error());
        // The partitions in force are the master's; the lock is the subnet's.
        const SubnetCheck check = checkSubnetOnFabric(*subnet, settings.live);
        Result<CommitTarget> through = subnetCommitTarget(*subnet, check);
        if (!through)
            return reportBadInput(command, through.error());
        settings.target = std::move(*through);
        if (!parser.isSet(QStringLiteral("journal")))
            settings.commit.journalPath = subnetJournalPath(*subnet);
        settings.subnet = std::move(*subnet);
    }
    settings.planDir = parser.isSet(QStringLiteral("plan-dir"))
        ? parser.value(QStringLiteral("plan-dir"))
        : QFileInfo(settings.commit.journalPath).absoluteDir().filePath(QStringLiteral("weft-adapt-plans"));
    if (parser.isSet(QStringLiteral("project"))) {
        settings.projectPath = parser.value(QStringLiteral("project"));
        Result<Project> project = readProjectFile(settings.projectPath);
        if (!project)
            return reportBadInput(command, project.error());
        settings.projectTenancy = std::move(project->tenancy);
    }
    settings.rulesPath = parser.value(QStringLiteral("rules"));
    Result<QByteArray> rulesText = TextReader::readFile(settings.rulesPath);
    if (!rulesText)
        return reportBadInput(command, rulesText.error());
    if (const RuleFile parsed = parseRules(*rulesText, settings.rulesPath); parsed.error)
        return reportBadInput(command, parsed.error->toString());
    if (parser.isSet(QStringLiteral("link-marks"))) {
        settings.marksPath = parser.value(QStringLiteral("link-marks"));
        Result<QByteArray> marksText = TextReader::readFile(settings.marksPath);
        if (!marksText)
            return reportBadInput(command, marksText.error());
        if (Result<LinkMarks> marks = parseLinkMarks(*marksText, settings.marksPath); !marks)
            return reportBadInput(command, marks.error());
    }
    if (Result<InstalledTenancy> installed = readInstalledTenancy(settings); !installed)
        return reportBadInput(command, installed.error());

    // Approve and auto act on the fabric: one such loop per OpenSM.
    std::unique_ptr<AdaptLock> lock;
    if (settings.mode != RuleMode::DryRun) {
        Result<std::unique_ptr<AdaptLock>> acquired = AdaptLock::acquire(settings.target);
        if (!acquired)
            return reportBadInput(command, acquired.error());
        lock = std::move(*acquired);
    }

    catchStopSignals();
    LiveAdapt loop(std::move(settings));
    if (const Status started = loop.start(*rulesText); !started) {
        err() << "weft adapt: " << started.error().toString() << Qt::endl;
        return kExitFailure;
    }
    return loop.run();
}

}  // namespace weft::cli
