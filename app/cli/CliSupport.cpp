#include "CliSupport.h"

#include "Commands.h"
#include "PartitionsConf.h"
#include "SafeFile.h"
#include "TextReader.h"
#include "TrafficModel.h"

#include <QJsonDocument>

#include <cstdio>

namespace weft::cli {

QTextStream &out()
{
    static QTextStream stream(stdout);
    return stream;
}

QTextStream &err()
{
    static QTextStream stream(stderr);
    return stream;
}

int reportBadInput(const QString &command, const Error &error)
{
    return reportBadInput(command, error.toString());
}

int reportBadInput(const QString &command, const QString &message)
{
    out().flush();
    err() << "weft " << command << ": " << message << Qt::endl;
    return kExitBadInput;
}

bool parseArguments(QCommandLineParser &parser, const QString &command, const QStringList &args, int *exitCode)
{
    parser.addHelpOption();
    QStringList full = args;
    full.prepend(QStringLiteral("weft ") + command);
    if (!parser.parse(full)) {
        *exitCode = reportBadInput(command, parser.errorText() + QStringLiteral(" (see weft %1 --help)").arg(command));
        return false;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out() << parser.helpText();
        out().flush();
        *exitCode = kExitOk;
        return false;
    }
    return true;
}

bool requireOptionsOnly(const QCommandLineParser &parser, const QString &command, std::initializer_list<const char *> required,
                        int *exitCode)
{
    if (!parser.positionalArguments().isEmpty()) {
        *exitCode = reportBadInput(command, QStringLiteral("unexpected argument \"%1\" (see weft %2 --help)")
                                                .arg(parser.positionalArguments().constFirst(), command));
        return false;
    }
    for (const char *option : required) {
        if (!parser.isSet(QLatin1String(option))) {
            *exitCode = reportBadInput(command, QStringLiteral("--%1 is required (see weft %2 --help)").arg(QLatin1String(option), command));
            return false;
        }
    }
    return true;
}

Status writeOutput(const QString &path, const QByteArray &data)
{
    if (path.isEmpty() || path == QLatin1String("-")) {
        out().flush();
        if (std::fwrite(data.constData(), 1, std::size_t(data.size()), stdout) != std::size_t(data.size()))
            return Error{QStringLiteral("stdout"), 0, QStringLiteral("write failed")};
        std::fflush(stdout);
        return Done{};
    }
    return writeFileAtomically(path, data);
}

// Partitions, policies and weights given on the command line, shared by `route` and `metrics`
// (which has no --strict: the policy mode matters only to routing).
Result<Tenancy> tenancyFromArguments(const QCommandLineParser &parser, const Fabric &fabric, bool hasStrictOption)
{
    Tenancy tenancy;
    if (parser.isSet(QStringLiteral("partitions"))) {
        Result<PartitionsConfResult> conf = readPartitionsConfFile(parser.value(QStringLiteral("partitions")));
        if (!conf)
            return conf.error();
        for (const QString &warning : conf->warnings)
            err() << "warning: " << warning << Qt::endl;
        tenancy.partitions = std::move(conf->partitions);
    }
    for (const QString &assignment : parser.values(QStringLiteral("policy"))) {
        const Status set = setPartitionPolicy(tenancy, assignment);
        if (!set)
            return set.error();
    }
    if (hasStrictOption && parser.isSet(QStringLiteral("strict")))
        tenancy.mode = PolicyMode::Strict;
    if (parser.isSet(QStringLiteral("weights"))) {
        const QString path = parser.value(QStringLiteral("weights"));
        Result<QByteArray> data = TextReader::readFile(path);
        if (!data)
            return data.error();
        Result<std::map<Guid, double>> weights = readNodeWeights(*data, path, fabric);
        if (!weights)
            return weights.error();
        tenancy.nodeWeights = std::move(weights).value();
    }
    return tenancy;
}

void printJson(const QJsonObject &object)
{
    out() << QJsonDocument(object).toJson(QJsonDocument::Indented);
    out().flush();
}

} // namespace weft::cli
