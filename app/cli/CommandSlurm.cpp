// weft slurm topology: Slurm's topology.conf (tree or block plugin) or topology.yaml, from a
// topology file or the live fabric (SlurmTopology.h).

#include "CliSupport.h"
#include "Commands.h"
#include "SlurmTopology.h"
#include "WarningSummary.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>

#include <algorithm>

namespace weft::cli {

namespace {

const QString kSlurmTopologyCommand = QStringLiteral("slurm topology");

// --exclude: role names, "none" for no role.
Result<std::set<NodeRole>> slurmExcludedRoles(const QString &text)
{
    std::set<NodeRole> roles;
    if (text == QLatin1String("none"))
        return roles;
    for (const QString &word : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const std::optional<NodeRole> role = nodeRoleFromName(word.trimmed());
        if (!role)
            return Error{{}, 0, QStringLiteral("--exclude: \"%1\" is no role (compute, service, io; or none)").arg(word)};
        roles.insert(*role);
    }
    return roles;
}

int slurmTopologyCommand(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Writes Slurm's topology of the fabric: topology.conf for the topology/tree plugin (a leaf switch's hosts,\n"
        "`SwitchName=LEAF Nodes=node[01-18]`; each switch above, `SwitchName=SW Switches=...`), for the topology/block\n"
        "plugin (`BlockName=LEAF Nodes=...` per leaf and `BlockSizes=`), or topology.yaml (Slurm 25.05 and later).\n"
        "Leaves are the switches with compute nodes, levels as `weft info` counts them. A host is named by the first\n"
        "word of its CAs' node descriptions (\"node01 HCA-1\", as rdma-ndd sets them), or by --names; a host with\n"
        "several CAs is listed once. Switches keep their names from run to run: --names, else the description when\n"
        "unique and usable, else sw-GUID. The file starts with comments saying what it was made from.\n"
        "Without --topology the fabric is discovered now. The file is replaced atomically (the old kept as FILE.bak).\n"
        "Exit codes: 0 written, 2 bad input or nothing to list, 1 discovery or the write failed."));
    parser.addOption({QStringLiteral("format"), QStringLiteral("tree (topology.conf, topology/tree; the default), block (topology.conf,\n"
                                                               "topology/block) or yaml (topology.yaml, a tree)."),
                      QStringLiteral("FORM"), QStringLiteral("tree")});
    parser.addOption({QStringLiteral("topology"), QStringLiteral("Topology file (ibnetdiscover output, ibsim net file, ...) instead of\n"
                                                                 "the live fabric."),
                      QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("names"), QStringLiteral("Names map: lines `GUID-or-description NAME` (node or port GUID, or a node\n"
                                                              "description, quoted or not; '#' comments) naming hosts and switches."),
                      QStringLiteral("MAP")});
    parser.addOption({QStringLiteral("exclude"), QStringLiteral("End nodes left out by role: compute, service, io, comma-separated, or\n"
                                                                "none (default: service,io)."),
                      QStringLiteral("ROLES"), QStringLiteral("service,io")});
    parser.addOption({{QStringLiteral("o"), QStringLiteral("output")}, QStringLiteral("Where to write it (default: stdout)."), QStringLiteral("FILE")});
    addRoleOptions(parser);
    addLiveOptions(parser, QStringLiteral("SMP"));
    int exitCode = kExitOk;
    if (!parseArguments(parser, kSlurmTopologyCommand, args, &exitCode))
        return exitCode;
    if (!requireOptionsOnly(parser, kSlurmTopologyCommand, {}, &exitCode))
        return exitCode;

    const std::optional<SlurmTopologyForm> form = slurmTopologyFormFromName(parser.value(QStringLiteral("format")));
    if (!form)
        return reportBadInput(kSlurmTopologyCommand, QStringLiteral("--format: \"%1\" is none of tree, block, yaml").arg(parser.value(QStringLiteral("format"))));
    SlurmTopologyOptions options;
    Result<std::set<NodeRole>> excluded = slurmExcludedRoles(parser.value(QStringLiteral("exclude")));
    if (!excluded)
        return reportBadInput(kSlurmTopologyCommand, excluded.error());
    options.excluded = *excluded;
    // The map is read before anything is discovered: a typo in it costs no discovery.
    if (parser.isSet(QStringLiteral("names"))) {
        Result<SlurmNames> names = readSlurmNamesFile(parser.value(QStringLiteral("names")));
        if (!names)
            return reportBadInput(kSlurmTopologyCommand, names.error());
        options.names = std::move(names).value();
    }

    SlurmTopologyOrigin origin;
    origin.made = QDateTime::currentDateTimeUtc();
    origin.version = QCoreApplication::applicationVersion();
    Fabric fabric;
    if (parser.isSet(QStringLiteral("topology"))) {
        Result<CommandInputs> inputs = loadInputs(parser, InputOptions{});
        if (!inputs)
            return reportBadInput(kSlurmTopologyCommand, inputs.error());
        fabric = std::move(inputs->fabric);
        origin.source = QStringLiteral("topology file %1").arg(QFileInfo(parser.value(QStringLiteral("topology"))).absoluteFilePath());
    } else {
        LiveOptions live;
        if (!readLiveOptions(parser, kSlurmTopologyCommand, &live, &exitCode))
            return exitCode;
        Result<Fabric> discovered = discoverFabric(live);
        if (!discovered) {
            err() << "weft " << kSlurmTopologyCommand << ": " << discovered.error().toString() << Qt::endl;
            return kExitFailure;
        }
        fabric = std::move(discovered).value();
        origin.source = QStringLiteral("the live fabric, discovered through %1 port %2")
                            .arg(live.caName.isEmpty() ? QStringLiteral("the first adapter") : live.caName,
                                 live.caPort ? QString::number(live.caPort) : QStringLiteral("(first active)"));
    }
    Result<Fabric> withRoles = applyRoleOptions(parser, std::move(fabric));
    if (!withRoles)
        return reportBadInput(kSlurmTopologyCommand, withRoles.error());

    const Result<SlurmTopology> topology = slurmTopology(*withRoles, options);
    if (!topology)
        return reportBadInput(kSlurmTopologyCommand, topology.error());
    for (const QString &line : summarizeWarnings(topology->warnings, 3, QString()))
        err() << "weft " << kSlurmTopologyCommand << ": warning: " << line << '\n';
    err().flush();
    if (const Status written = writeOutput(parser.value(QStringLiteral("output")), writeSlurmTopology(*topology, *form, origin)); !written) {
        err() << "weft " << kSlurmTopologyCommand << ": " << written.error().toString() << Qt::endl;
        return kExitFailure;
    }
    // Written to a file: what it holds, on standard output (standard output is the file otherwise).
    if (const QString path = parser.value(QStringLiteral("output")); !path.isEmpty() && path != QLatin1String("-")) {
        const auto leaves = std::count_if(topology->switches.begin(), topology->switches.end(), [](const SlurmSwitch &s) { return s.level == 1; });
        out() << path << ": " << leaves << " leaf switches, " << qsizetype(topology->switches.size()) - leaves << " above them, " << topology->hosts
              << " hosts" << Qt::endl;
    }
    return kExitOk;
}

}  // namespace

int slurm(const QStringList &args)
{
    if (args.value(0) == QLatin1String("topology"))
        return slurmTopologyCommand(args.mid(1));
    const bool help = args.isEmpty() || args.value(0) == QLatin1String("--help") || args.value(0) == QLatin1String("-h");
    (help ? out() : err()) << "Usage: weft slurm topology [options]\n"
                              "Weft's view of the fabric for Slurm.\n\n"
                              "Subcommands:\n"
                              "  topology  Slurm's topology.conf (tree or block plugin) or topology.yaml, from the live fabric or a\n"
                              "            file (weft slurm topology --help)\n";
    (help ? out() : err()).flush();
    if (help)
        return args.isEmpty() ? kExitBadInput : kExitOk;
    return reportBadInput(QStringLiteral("slurm"), QStringLiteral("unknown subcommand \"%1\"").arg(args.value(0)));
}

}  // namespace weft::cli
