// weft target check: a subnet's commit target (its subnet managers and their files) against what
// the fabric says of its SMs.

#include "CliSupport.h"
#include "Commands.h"

#include "LiveCommitBackend.h"
#include "SubnetTarget.h"

namespace weft::cli {

int target(const QStringList &args)
{
    const QString command = QStringLiteral("target");
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "weft target check FILE [--json]\n"
        "Reports each subnet manager of the commit target FILE (JSON: {\"subnet\": NAME, \"sms\": [{\"name\",\n"
        "\"options\", \"intent\" or \"lfts\", \"partitions\", \"pidfile\"[, \"log\", \"port_guid\"]}, ...]}):\n"
        "its state as the fabric's SMInfo gives it (master, standby, not active) or not running (its\n"
        "pid file), its priority, its port GUID, its routing engine, and whatever in its options or\n"
        "files would defeat a commit (another engine, Weft's engine not loaded, ucast_cache, OpenSM\n"
        "reading other files than the target names); then any SM on the subnet the target does not\n"
        "name (a rogue or forgotten SM) and two masters.\n"
        "Exit status: 0 when nothing is wrong, 1 when something is (the lines marked !), 2 when the\n"
        "target file cannot be read."));
    parser.addPositionalArgument(QStringLiteral("check"), QStringLiteral("The action: check."));
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("The commit target (JSON)."));
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print the report as JSON.")});
    parser.addOption({QStringLiteral("ca"), QStringLiteral("Adapter to use (default: the first)."), QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("ca-port"), QStringLiteral("Adapter port (default: the first active one)."), QStringLiteral("N")});
    int exitCode = kExitOk;
    if (!parseArguments(parser, command, args, &exitCode))
        return exitCode;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 2 || positional[0] != QLatin1String("check"))
        return reportBadInput(command, QStringLiteral("usage: weft target check FILE [--json]"));
    Result<SubnetTarget> subnet = readSubnetTargetFile(positional[1]);
    if (!subnet)
        return reportBadInput(command, subnet.error());
    LiveOptions live;
    live.caName = parser.value(QStringLiteral("ca"));
    if (parser.isSet(QStringLiteral("ca-port"))) {
        bool ok = false;
        live.caPort = parser.value(QStringLiteral("ca-port")).toInt(&ok);
        if (!ok || live.caPort < 1 || live.caPort > 254)
            return reportBadInput(command, QStringLiteral("--ca-port: not a port number: \"%1\"").arg(parser.value(QStringLiteral("ca-port"))));
    }
    const SubnetCheck check = checkSubnetOnFabric(*subnet, live);
    if (parser.isSet(QStringLiteral("json")))
        printJson(check.toJson());
    else
        out() << check.toText() << Qt::endl;
    return check.ok() ? kExitOk : kExitFailure;
}

}  // namespace weft::cli
