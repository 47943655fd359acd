#include "CliSupport.h"

#include "Commands.h"
#include "LftDump.h"
#include "PartitionsConf.h"
#include "SafeFile.h"
#include "TextReader.h"
#include "TopologyFile.h"
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

Status writeLftDumpOutput(const QString &path, const ForwardingTables &tables, const Fabric *fabric, LftDumpForm form)
{
    if (!path.isEmpty() && path != QLatin1String("-"))
        return writeLftDumpFile(path, tables, fabric, form);
    out().flush();
    const bool written = writeLftDump(tables, fabric, form, [](const char *data, std::size_t size) {
        return std::fwrite(data, 1, size, stdout) == size;
    });
    std::fflush(stdout);
    if (!written)
        return Error{QStringLiteral("stdout"), 0, QStringLiteral("write failed")};
    return Done{};
}

Result<TrafficModel> trafficOption(const QCommandLineParser &parser)
{
    if (!parser.isSet(QStringLiteral("traffic")))
        return TrafficModel{};
    const QString text = parser.value(QStringLiteral("traffic"));
    const std::optional<TrafficModel> parsed = parseTrafficModel(text);
    if (!parsed)
        return Error{{}, 0, QStringLiteral("unknown traffic model \"%1\" (known: %2)").arg(text, trafficModelNames())};
    return *parsed;
}

Result<CommandInputs> loadInputs(const QCommandLineParser &parser, const InputOptions &options)
{
    Result<Fabric> fabric = readTopologyFile(parser.value(QStringLiteral("topology")));
    if (!fabric)
        return fabric.error();
    CommandInputs inputs;
    inputs.fabric = std::move(fabric).value();
    for (const QString &option : options.tables) {
        Result<ForwardingTables> tables = readLftDumpFile(parser.value(option), &inputs.fabric);
        if (!tables)
            return tables.error();
        inputs.tables.push_back(std::move(tables).value());
    }
    Tenancy &tenancy = inputs.tenancy;
    if (options.partitions && parser.isSet(QStringLiteral("partitions"))) {
        Result<PartitionsConfResult> conf = readPartitionsConfFile(parser.value(QStringLiteral("partitions")));
        if (!conf)
            return conf.error();
        for (const QString &warning : conf->warnings)
            err() << "warning: " << warning << Qt::endl;
        tenancy.partitions = std::move(conf->partitions);
    }
    if (options.policies) {
        for (const QString &assignment : parser.values(QStringLiteral("policy"))) {
            const Status set = setPartitionPolicy(tenancy, assignment);
            if (!set)
                return set.error();
        }
    }
    if (options.strict && parser.isSet(QStringLiteral("strict")))
        tenancy.mode = PolicyMode::Strict;
    if (options.weights && parser.isSet(QStringLiteral("weights"))) {
        const QString path = parser.value(QStringLiteral("weights"));
        Result<QByteArray> data = TextReader::readFile(path);
        if (!data)
            return data.error();
        Result<std::map<Guid, double>> weights = readNodeWeights(*data, path, inputs.fabric);
        if (!weights)
            return weights.error();
        tenancy.nodeWeights = std::move(weights).value();
    }
    return inputs;
}

void printJson(const QJsonObject &object)
{
    out() << QJsonDocument(object).toJson(QJsonDocument::Indented);
    out().flush();
}

void addLiveOptions(QCommandLineParser &parser, const QString &mad)
{
    parser.addOption({QStringLiteral("ca"), QStringLiteral("Adapter to use (default: the first)."), QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("port"), QStringLiteral("Adapter port to use (default: the first active)."), QStringLiteral("N"), QStringLiteral("0")});
    parser.addOption({QStringLiteral("timeout"), QStringLiteral("Milliseconds to wait for each %1 (default 200).").arg(mad), QStringLiteral("MS"), QStringLiteral("200")});
    parser.addOption({QStringLiteral("retries"), QStringLiteral("Retries per %1 (default 3).").arg(mad), QStringLiteral("N"), QStringLiteral("3")});
}

bool readLiveOptions(const QCommandLineParser &parser, const QString &command, LiveOptions *options, int *exitCode)
{
    const auto bad = [&](const QString &message) {
        *exitCode = reportBadInput(command, message);
        return false;
    };
    options->caName = parser.value(QStringLiteral("ca"));
    bool ok = false;
    options->caPort = parser.value(QStringLiteral("port")).toInt(&ok);
    if (!ok || options->caPort < 0 || options->caPort > 254)
        return bad(QStringLiteral("--port: not a port number: \"%1\"").arg(parser.value(QStringLiteral("port"))));
    options->timeoutMs = parser.value(QStringLiteral("timeout")).toInt(&ok);
    if (!ok || options->timeoutMs < 1)
        return bad(QStringLiteral("--timeout: not a positive number of milliseconds: \"%1\"").arg(parser.value(QStringLiteral("timeout"))));
    options->retries = parser.value(QStringLiteral("retries")).toInt(&ok);
    if (!ok || options->retries < 0)
        return bad(QStringLiteral("--retries: not a count: \"%1\"").arg(parser.value(QStringLiteral("retries"))));
    return true;
}

}  // namespace weft::cli
