// weft rules check FILE [--json]: reads a file of Weft's rule language (spec 003 §5.4) and
// prints each rule on one line, or the first error as FILE:LINE:COLUMN: message.

#include "CliSupport.h"
#include "Commands.h"
#include "RuleLanguage.h"
#include "TextReader.h"

#include <QJsonArray>

namespace weft::cli {

namespace {

const QString kRulesCommand = QStringLiteral("rules");

QJsonObject ruleJson(const adapt::Rule &rule)
{
    QJsonArray actions;
    for (const adapt::Action &action : rule.actions)
        actions.append(adapt::actionToText(action));
    return QJsonObject{
        {QStringLiteral("name"), rule.name},
        {QStringLiteral("line"), rule.line},
        {QStringLiteral("priority"), rule.priority},
        {QStringLiteral("mode"), adapt::modeName(rule.mode)},
        {QStringLiteral("for_seconds"), double(rule.forSeconds)},
        {QStringLiteral("cooldown_seconds"), double(rule.cooldownSeconds)},
        {QStringLiteral("condition"), adapt::conditionToText(rule.condition)},
        {QStringLiteral("actions"), actions},
        {QStringLiteral("text"), adapt::ruleToText(rule)},
    };
}

int check(const QString &path, bool json)
{
    Result<QByteArray> data = TextReader::readFile(path);
    if (!data)
        return reportBadInput(kRulesCommand, data.error());
    const adapt::RuleFile file = adapt::parseRules(*data, path);
    if (!file.ok()) {
        // Without the command's prefix: the line starts with the place, as a compiler's does.
        out().flush();
        err() << file.error->toString() << Qt::endl;
        return kExitBadInput;
    }
    if (json) {
        QJsonArray rules;
        for (const adapt::Rule &rule : file.rules)
            rules.append(ruleJson(rule));
        printJson(QJsonObject{{QStringLiteral("file"), path}, {QStringLiteral("rules"), rules}});
        return kExitOk;
    }
    for (const adapt::Rule &rule : file.rules) {
        QStringList actions;
        for (const adapt::Action &action : rule.actions)
            actions << adapt::actionToText(action);
        out() << rule.name << ": priority " << rule.priority << ", mode " << adapt::modeName(rule.mode) << ", for "
              << adapt::durationToText(rule.forSeconds) << ", cooldown " << adapt::durationToText(rule.cooldownSeconds) << ", then "
              << actions.join(QStringLiteral(", ")) << '\n';
    }
    out() << file.rules.size() << (file.rules.size() == 1 ? " rule" : " rules") << ", no errors\n";
    return kExitOk;
}

}  // namespace

int rules(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Weft's rule language (spec 003 §5.4): condition -> action rules over the monitor's metrics.\n"
        "Subcommands:\n"
        "  check FILE   parse FILE and print each rule on one line (name, priority, mode, for,\n"
        "               cooldown, actions), or the first error as FILE:LINE:COLUMN: message.\n"
        "JSON keys (--json): file, rules [{name, line, priority, mode, for_seconds,\n"
        "cooldown_seconds, condition, actions, text}].\n"
        "Exit codes: 0 the file is good, 2 bad input (an error in the file, or usage)."));
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON instead of text.")});
    parser.addPositionalArgument(QStringLiteral("SUBCOMMAND"), QStringLiteral("check"));
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("The rules file."));
    int exitCode = kExitOk;
    if (!parseArguments(parser, kRulesCommand, args, &exitCode))
        return exitCode;
    const QStringList positional = parser.positionalArguments();
    if (positional.isEmpty() || positional.constFirst() != QLatin1String("check"))
        return reportBadInput(kRulesCommand, QStringLiteral("expected the subcommand 'check' (see weft rules --help)"));
    if (positional.size() != 2)
        return reportBadInput(kRulesCommand, QStringLiteral("expected exactly one FILE after 'check' (see weft rules --help)"));
    return check(positional.at(1), parser.isSet(QStringLiteral("json")));
}

}  // namespace weft::cli
