// weft adapt: with --replay, the rules evaluated against a recorded metric trace, without a
// fabric (here); otherwise the live loop (CommandAdaptLive.cpp, adaptLive).
//
//   weft adapt --rules FILE --replay TRACE --topology T [--json] [--param NAME=VALUE]...
//              [--project P] [--utc]
//
// Every tick of the trace goes through the same MetricStore and RuleEngine as the live loop; one
// line per firing, suppression or cooldown record. A trace holds no events, so event(...) terms
// never hold in a replay.

#include "AdaptMetrics.h"
#include "CliSupport.h"
#include "Commands.h"
#include "MetricTrace.h"
#include "ProjectFile.h"
#include "RuleEngine.h"
#include "RuleLanguage.h"
#include "TextReader.h"
#include "TopologyFile.h"

#include <QDateTime>
#include <QJsonDocument>

#include <memory>

namespace weft::cli {

namespace {

const QString kAdaptCommand = QStringLiteral("adapt");

bool wantsReplay(const QStringList &args)
{
    for (const QString &a : args)
        if (a == QLatin1String("--replay") || a.startsWith(QLatin1String("--replay=")))
            return true;
    return false;
}

QString firingLine(const adapt::RuleFiring &f, const QTimeZone &zone)
{
    QStringList actions;
    for (const adapt::Action &a : f.actions)
        actions << adapt::actionToText(a);
    const QString time = QDateTime::fromMSecsSinceEpoch(qint64(f.time * 1000), zone).toString(Qt::ISODate);
    QString line = QStringLiteral("%1 %2 %3: %4").arg(time, f.rule, adapt::firingKindName(f.kind), actions.join(QStringLiteral(", ")));
    if (!f.reason.isEmpty())
        line += QStringLiteral(" (%1)").arg(f.reason);
    return line;
}

int replay(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Replays a recorded metric trace through the rules, without a fabric:\n"
        "  weft adapt --rules FILE --replay TRACE --topology T [--json] [--param NAME=VALUE]...\n"
        "             [--project P] [--utc]\n"
        "TRACE is the CSV that `weft monitor --csv` writes, or a telemetry history database\n"
        "(`weft monitor --db`); the topology names its ports and tells hosts from switches. Each\n"
        "tick is evaluated as the live loop does; a trace holds no events, so event(...) terms\n"
        "never hold. Prints one line per record: \"TIME RULE EVENT: actions (reason)\", EVENT being\n"
        "fired, suppressed or cooldown; with --json one object per line with the keys time,\n"
        "rule, event, actions, priority, mode, reason, held_seconds, inputs [{term, value,\n"
        "threshold, holds}].\n"
        "Exit codes: 0 replayed, 2 bad input (the rules file is checked first: FILE:LINE:COLUMN;\n"
        "then the trace: FILE:LINE)."));
    parser.addOption({QStringLiteral("rules"), QStringLiteral("The rules file (Weft's rule language)."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("replay"), QStringLiteral("The recorded trace: monitor CSV or history database."), QStringLiteral("TRACE")});
    parser.addOption({QStringLiteral("topology"), QStringLiteral("The fabric the trace was recorded on."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("project"), QStringLiteral("A Weft project: tenants, partitions and weights for the rules."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("param"), QStringLiteral("A rule parameter, repeatable."), QStringLiteral("NAME=VALUE")});
    parser.addOption({QStringLiteral("utc"), QStringLiteral("Evaluate `time in` (and print times) in UTC rather than local time.")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("One JSON object per line instead of text.")});
    int exitCode = kExitOk;
    if (!parseArguments(parser, kAdaptCommand, args, &exitCode))
        return exitCode;
    if (!requireOptionsOnly(parser, kAdaptCommand, {"rules", "replay", "topology"}, &exitCode))
        return exitCode;

    // The rules first: an error in them is the one a user fixes first.
    const QString rulesPath = parser.value(QStringLiteral("rules"));
    Result<QByteArray> rulesText = TextReader::readFile(rulesPath);
    if (!rulesText)
        return reportBadInput(kAdaptCommand, rulesText.error());
    adapt::RuleFile rules = adapt::parseRules(*rulesText, rulesPath);
    if (!rules.ok()) {
        out().flush();
        err() << rules.error->toString() << Qt::endl;
        return kExitBadInput;
    }

    adapt::RuleEngineOptions options;
    if (parser.isSet(QStringLiteral("utc")))
        options.timeZone = QTimeZone::utc();
    adapt::RuleEngine engine(options);
    Result<std::map<QString, double>> parameters = ruleParameters(parser);
    if (!parameters)
        return reportBadInput(kAdaptCommand, parameters.error());
    for (const auto &[name, value] : *parameters)
        engine.setParameter(name, value);

    Result<Fabric> fabric = readTopologyFile(parser.value(QStringLiteral("topology")));
    if (!fabric)
        return reportBadInput(kAdaptCommand, fabric.error());
    auto shared = std::make_shared<const Fabric>(std::move(fabric).value());
    Tenancy tenancy;
    if (parser.isSet(QStringLiteral("project"))) {
        Result<Project> project = readProjectFile(parser.value(QStringLiteral("project")));
        if (!project)
            return reportBadInput(kAdaptCommand, project.error());
        BoundProject bound = bindProject(*project, *shared);
        for (const QString &missing : bound.missing)
            err() << "warning: " << missing << Qt::endl;
        tenancy = std::move(bound.project.tenancy);
    }
    Result<std::vector<adapt::TraceTick>> trace = adapt::readMetricTrace(parser.value(QStringLiteral("replay")), *shared);
    if (!trace)
        return reportBadInput(kAdaptCommand, trace.error());

    engine.setRules(std::move(rules.rules));
    adapt::MetricStore store(shared, std::move(tenancy));
    store.setRetentionSeconds(engine.longestWindowSeconds());
    const bool json = parser.isSet(QStringLiteral("json"));
    for (adapt::TraceTick &tick : *trace) {
        store.addTick(tick.time, std::move(tick.records));
        for (const adapt::RuleFiring &f : engine.evaluate(store)) {
            if (json)
                out() << QJsonDocument(f.toJson()).toJson(QJsonDocument::Compact) << '\n';
            else
                out() << firingLine(f, options.timeZone) << '\n';
        }
    }
    out().flush();
    return kExitOk;
}

}  // namespace

int adapt(const QStringList &args)
{
    if (wantsReplay(args))
        return replay(args);
    return adaptLive(args);
}

}  // namespace weft::cli
