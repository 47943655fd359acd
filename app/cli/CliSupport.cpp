#include "CliSupport.h"

#include "NodeRoles.h"

#include "CommitJournal.h"
#include "Commands.h"
#include "LftDump.h"
#include "PartitionsConf.h"
#include "SafeFile.h"
#include "TextReader.h"
#include "TopologyFile.h"
#include "TrafficModel.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QRegularExpression>

#include <cmath>
#include <csignal>
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

namespace {

// Qt's help text names the program by QCoreApplication::arguments()'s first (the path it was
// started by), whatever list was parsed; a command's usage names it as it is typed.
QString commandHelpText(const QCommandLineParser &parser, const QString &command)
{
    QString help = parser.helpText();
    const QString program = QCoreApplication::instance() ? QCoreApplication::arguments().value(0) : QStringLiteral("<executable_name>");
    const QString usage = QStringLiteral("Usage: ");
    if (help.startsWith(usage + program))
        help.replace(usage.size(), program.size(), QStringLiteral("weft ") + command);
    return help;
}

}  // namespace

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
        out() << commandHelpText(parser, command);
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

QString shellQuoted(const QString &text)
{
    static const QRegularExpression safe(QStringLiteral("^[A-Za-z0-9_./:=+,@%-]+$"));
    if (safe.match(text).hasMatch())
        return text;
    QString quoted = text;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
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

void addRoleOptions(QCommandLineParser &parser)
{
    parser.addOption({QStringLiteral("cn-guids"), QStringLiteral(
        "Compute nodes: a GUID a line (OpenSM's cn_guid_file). Every other end node not recognised as a\n"
        "service node (SHArP Aggregation Node, a switch's own CA) is then an I/O node."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("io-guids"), QStringLiteral("I/O nodes (storage, login, management): a GUID a line (OpenSM's io_guid_file)."),
                      QStringLiteral("FILE")});
}

Result<Fabric> applyRoleOptions(const QCommandLineParser &parser, Fabric fabric)
{
    std::vector<Guid> lists[2];
    const char *options[2] = {"cn-guids", "io-guids"};
    bool any = false;
    for (int i = 0; i < 2; ++i) {
        if (!parser.isSet(QLatin1String(options[i])))
            continue;
        const QString path = parser.value(QLatin1String(options[i]));
        Result<QByteArray> data = TextReader::readFile(path);
        if (!data)
            return data.error();
        Result<std::vector<Guid>> guids = readGuidList(*data, path);
        if (!guids)
            return guids.error();
        lists[i] = std::move(guids).value();
        any = true;
    }
    if (!any)
        return fabric;
    QStringList unknown;
    const NodeRoleChoices choices = roleChoicesFromGuidFiles(fabric, lists[0], lists[1], &unknown);
    for (const QString &guid : unknown)
        err() << "warning: " << guid << " is no end node of the fabric; left out of the node roles" << Qt::endl;
    return fabricWithRoles(fabric, choices);
}

Result<CommandInputs> loadInputs(const QCommandLineParser &parser, const InputOptions &options)
{
    Result<Fabric> fabric = readTopologyFile(parser.value(QStringLiteral("topology")));
    if (!fabric)
        return fabric.error();
    CommandInputs inputs;
    inputs.fabric = std::move(fabric).value();
    if (options.roles) {
        Result<Fabric> withRoles = applyRoleOptions(parser, std::move(inputs.fabric));
        if (!withRoles)
            return withRoles.error();
        inputs.fabric = std::move(withRoles).value();
    }
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

void addCommitTargetOptions(QCommandLineParser &parser)
{
    parser.addOption({QStringLiteral("opensm-lfts"), QStringLiteral("OpenSM's -U file."), QStringLiteral("PATH")});
    parser.addOption({QStringLiteral("opensm-intent"), QStringLiteral("The intent Weft's engine inside OpenSM routes by (its event_plugin_options), instead of\n"
                                                                      "--opensm-lfts: the commit writes the project there."),
                      QStringLiteral("PATH")});
    parser.addOption({QStringLiteral("opensm-partitions"), QStringLiteral("OpenSM's -P file."), QStringLiteral("PATH")});
    parser.addOption({QStringLiteral("opensm-pidfile"), QStringLiteral("File holding OpenSM's process id."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("opensm-log"), QStringLiteral("OpenSM's log file: the end of its sweep is read there "
                                                                  "(without it, the tables are polled)."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("opensm-options"), QStringLiteral("OpenSM's options file (-F): when the plan gives partitions their own SL "
                                                                      "(sl= in partitions.conf), Weft turns QoS on there and maps each SL to its own VL."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("sm-port"), QStringLiteral("Port GUID OpenSM runs on (default: the master SM's port, from the local port's MasterSMLID and SMInfo; else inferred from the P_Key tables)."), QStringLiteral("GUID")});
    parser.addOption({QStringLiteral("journal"), QStringLiteral("Commit journal (JSON lines; default: weft-commits.jsonl beside --opensm-lfts)."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("timeout"), QStringLiteral("Seconds to wait for each OpenSM sweep (default 60)."), QStringLiteral("S"), QStringLiteral("60")});
    parser.addOption({QStringLiteral("ca"), QStringLiteral("Adapter to use (default: the first)."), QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("ca-port"), QStringLiteral("Adapter port (default: the first active one)."), QStringLiteral("N")});
    parser.addOption({QStringLiteral("wait"), QStringLiteral("When another commit runs on the same OpenSM files, wait for it to finish "
                                                            "(default: refuse, naming who holds the commit lock).")});
    parser.addOption({QStringLiteral("accept-violations"), QStringLiteral("Best-effort policy mode: commit although the plan violates "
                                                                         "isolation policies (they are listed). Strict mode refuses them regardless.")});
}

Result<CommitTargetOptions> readCommitTargetOptions(const QCommandLineParser &parser)
{
    CommitTargetOptions o;
    const auto bad = [&parser](const char *option, const QString &what) {
        return Error{{}, 0, QStringLiteral("--%1: %2: \"%3\"").arg(QLatin1String(option), what, parser.value(QLatin1String(option)))};
    };
    bool ok = false;
    o.timeoutText = parser.value(QStringLiteral("timeout"));
    const double timeout = o.timeoutText.toDouble(&ok);
    if (!ok || !(timeout > 0) || timeout > 86400)
        return bad("timeout", QStringLiteral("not a number of seconds"));
    o.options.timeoutMs = int(timeout * 1000);
    if (parser.isSet(QStringLiteral("sm-port"))) {
        o.options.smPortGuid = parser.value(QStringLiteral("sm-port")).toULongLong(&ok, 0);
        if (!ok || !o.options.smPortGuid)
            return bad("sm-port", QStringLiteral("not a GUID"));
    }
    o.live.caName = parser.value(QStringLiteral("ca"));
    if (parser.isSet(QStringLiteral("ca-port"))) {
        o.live.caPort = parser.value(QStringLiteral("ca-port")).toInt(&ok);
        if (!ok || o.live.caPort < 1 || o.live.caPort > 254)
            return bad("ca-port", QStringLiteral("not a port number"));
    }
    o.target.lftsPath = parser.value(QStringLiteral("opensm-lfts"));
    o.target.intentPath = parser.value(QStringLiteral("opensm-intent"));
    if (!o.target.lftsPath.isEmpty() && !o.target.intentPath.isEmpty())
        return Error{{}, 0, QStringLiteral("--opensm-lfts and --opensm-intent exclude each other: OpenSM routes by one of them")};
    o.target.partitionsPath = parser.value(QStringLiteral("opensm-partitions"));
    o.target.pidFile = parser.value(QStringLiteral("opensm-pidfile"));
    o.target.logPath = parser.value(QStringLiteral("opensm-log"));
    o.target.optionsPath = parser.value(QStringLiteral("opensm-options"));
    o.options.journalPath = parser.isSet(QStringLiteral("journal")) ? parser.value(QStringLiteral("journal")) : defaultJournalPath(o.target.routingFile());
    o.options.lockWaitMs = parser.isSet(QStringLiteral("wait")) ? -1 : 0;
    o.options.acceptViolations = parser.isSet(QStringLiteral("accept-violations"));
    return o;
}

int commitExitCode(CommitOutcome outcome)
{
    switch (outcome) {
    case CommitOutcome::Committed: return kExitOk;
    case CommitOutcome::Refused:
    case CommitOutcome::Stale: return kExitBadInput;
    case CommitOutcome::RolledBack:
    case CommitOutcome::RollbackFailed: return kExitFailure;
    }
    return kExitFailure;
}

namespace {
volatile std::sig_atomic_t receivedStopSignal = 0;

extern "C" void onStopSignal(int signal)
{
    receivedStopSignal = signal;
}
}  // namespace

Result<std::map<QString, double>> ruleParameters(const QCommandLineParser &parser)
{
    std::map<QString, double> parameters;
    for (const QString &assignment : parser.values(QStringLiteral("param"))) {
        const qsizetype equals = assignment.indexOf(QLatin1Char('='));
        bool ok = false;
        const double value = equals > 0 ? assignment.mid(equals + 1).trimmed().toDouble(&ok) : 0;
        if (equals <= 0 || !ok || !std::isfinite(value))
            return Error{{}, 0, QStringLiteral("--param: expected NAME=NUMBER, not \"%1\"").arg(assignment)};
        parameters[assignment.left(equals).trimmed()] = value;
    }
    return parameters;
}

void catchStopSignals()
{
    struct sigaction action = {};
    action.sa_handler = onStopSignal;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    for (const int signal : {SIGINT, SIGTERM, SIGHUP, SIGPIPE})
        sigaction(signal, &action, nullptr);
}

int stopSignal()
{
    return receivedStopSignal;
}

}  // namespace weft::cli
