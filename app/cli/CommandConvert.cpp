// weft convert: between the formats Weft reads, through the same readers and writers.

#include "CliSupport.h"
#include "Commands.h"
#include "FileFormat.h"
#include "LidAssignment.h"
#include "NodeQuery.h"
#include "LftDump.h"
#include "PKeyTableFile.h"
#include "PartitionsConf.h"
#include "ProjectFile.h"
#include "TextReader.h"
#include "TopologyFile.h"

namespace weft::cli {

namespace {

const QStringList kTargets = {QStringLiteral("ibnetdiscover"), QStringLiteral("ibsim"), QStringLiteral("lfts"),
                              QStringLiteral("partitions"), QStringLiteral("project")};

}  // namespace

int convert(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Converts FILE to another format:\n"
        "  topology (ibnetdiscover with or without -g, ibdiagnet's database or .lst, ibsim net) -> ibnetdiscover | ibsim\n"
        "    (--assign-lids: with the LIDs OpenSM gives at its first sweep)\n"
        "  LFT dump (ibroute, dump_lfts, opensm-lfts.dump) -> lfts (the form OpenSM's file engine loads)\n"
        "  partitions.conf -> partitions | project\n"
        "  Weft project -> partitions | project\n"
        "  P_Key tables (weft discover --pkeys) -> partitions | project: the partitions the tables amount to,\n"
        "    one per P_Key, each port a member as its table says, Default explicit (as a commit writes it)\n"
        "The input's format is detected from its content."));
    parser.addOption({{QStringLiteral("t"), QStringLiteral("to")}, QStringLiteral("Output format: %1.").arg(kTargets.join(QStringLiteral(", "))), QStringLiteral("FORMAT")});
    parser.addOption({{QStringLiteral("o"), QStringLiteral("output")}, QStringLiteral("Output file (written atomically, previous kept as FILE.bak); default stdout."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("topology"), QStringLiteral("For LFT dumps: check the dump against this topology and name destinations in the output.\n"
                                                                 "For P_Key tables: find every port in it (without it, a GUID listed with port 0 is taken as a switch's)."),
                      QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("annotate"), QStringLiteral(
        "For --to lfts: write ibroute's commented form for people (destination type, port GUID, description per\n"
        "entry) instead of the compact form OpenSM's file engine reads (`0xLID PORT portguid 0x...`).")});
    parser.addOption({QStringLiteral("assign-lids"), QStringLiteral(
        "For topologies: give every port the LID OpenSM gives it at its first sweep (the SM's port first, then\n"
        "the others in OpenSM's port order; LIDs already in the file are replaced). For designs and ibsim net\n"
        "files, which have none.")});
    parser.addOption({QStringLiteral("sm-port"), QStringLiteral("With --assign-lids: the SM's port (port GUID, or a node: GUID, id or description);\n"
                                                                "default: the first cabled port of the first CA."), QStringLiteral("PORT")});
    parser.addOption({QStringLiteral("lmc"), QStringLiteral("With --assign-lids: OpenSM's LMC (0-7, default 0)."), QStringLiteral("LMC"), QStringLiteral("0")});
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("The file to convert."));
    int exitCode = kExitOk;
    if (!parseArguments(parser, QStringLiteral("convert"), args, &exitCode))
        return exitCode;
    const QString command = QStringLiteral("convert");
    if (parser.positionalArguments().size() != 1)
        return reportBadInput(command, QStringLiteral("expected exactly one FILE (see weft convert --help)"));
    const QString target = parser.value(QStringLiteral("to"));
    if (!kTargets.contains(target))
        return reportBadInput(command, QStringLiteral("--to must be one of %1").arg(kTargets.join(QStringLiteral(", "))));
    const QString path = parser.positionalArguments().constFirst();
    Result<QByteArray> data = TextReader::readFile(path);
    if (!data)
        return reportBadInput(command, data.error());

    const FileFormat format = detectFileFormat(*data);
    QByteArray output;
    auto impossible = [&] {
        return reportBadInput(command, QStringLiteral("cannot convert a %1 file to %2").arg(QLatin1String(fileFormatName(format)), target));
    };
    switch (format) {
    case FileFormat::Topology: {
        if (target != QLatin1String("ibnetdiscover") && target != QLatin1String("ibsim"))
            return impossible();
        Result<Fabric> fabric = readTopology(*data, path);
        if (!fabric)
            return reportBadInput(command, fabric.error());
        if (parser.isSet(QStringLiteral("assign-lids"))) {
            LidAssignmentOptions lids;
            bool ok = false;
            lids.lmc = parser.value(QStringLiteral("lmc")).toInt(&ok);
            if (!ok || lids.lmc < 0 || lids.lmc > 7)
                return reportBadInput(command, QStringLiteral("--lmc \"%1\" is not 0 to 7").arg(parser.value(QStringLiteral("lmc"))));
            if (parser.isSet(QStringLiteral("sm-port"))) {
                const QString text = parser.value(QStringLiteral("sm-port"));
                std::uint64_t guid = 0;
                const QString digits = text.startsWith(QLatin1String("0x"), Qt::CaseInsensitive) ? text.mid(2) : text;
                guid = digits.toULongLong(&ok, 16);
                PortIndex port = ok ? fabric->portByGuid(guid) : kNoIndex;
                if (port == kNoIndex) {
                    // A node (GUID, id or description): its first cabled port, or a switch's port 0.
                    const NodeIndex node = NodeQuery(text).find(*fabric);
                    if (node != kNoIndex) {
                        const Node &n = fabric->node(node);
                        for (int number = n.type == NodeType::Switch ? 0 : 1; number <= n.portCount && port == kNoIndex; ++number)
                            if (number == 0 || fabric->port(n.firstPort + number).remote != kNoIndex)
                                port = n.firstPort + number;
                    }
                }
                if (port == kNoIndex)
                    return reportBadInput(command, QStringLiteral("--sm-port \"%1\": no such port or node in %2").arg(text, path));
                lids.smPort = port;
            }
            Result<Fabric> assigned = assignLidsAsOpenSm(*fabric, lids);
            if (!assigned)
                return reportBadInput(command, Error{path, 0, assigned.error().message});
            fabric = std::move(assigned);
        }
        output = target == QLatin1String("ibsim") ? writeIbsimNet(*fabric) : writeIbnetdiscover(*fabric);
        break;
    }
    case FileFormat::LftDump: {
        if (target != QLatin1String("lfts"))
            return impossible();
        std::optional<Fabric> fabric;
        if (parser.isSet(QStringLiteral("topology"))) {
            Result<Fabric> f = readTopologyFile(parser.value(QStringLiteral("topology")));
            if (!f)
                return reportBadInput(command, f.error());
            fabric = std::move(f).value();
        }
        Result<ForwardingTables> tables = readLftDump(*data, path, fabric ? &*fabric : nullptr);
        if (!tables)
            return reportBadInput(command, tables.error());
        // Streamed: a large dump is never held in memory whole on the way out.
        if (Status s = writeLftDumpOutput(parser.value(QStringLiteral("output")), *tables, fabric ? &*fabric : nullptr,
                                          parser.isSet(QStringLiteral("annotate")) ? LftDumpForm::Annotated : LftDumpForm::Compact);
            !s)
            return reportBadInput(command, s.error());
        return kExitOk;
    }
    case FileFormat::PartitionsConf:
    case FileFormat::Project:
    case FileFormat::PKeyTables: {
        if (target != QLatin1String("partitions") && target != QLatin1String("project"))
            return impossible();
        Project project;
        if (format == FileFormat::PKeyTables) {
            Result<PKeyTableListing> listing = readPKeyTableListing(*data, path);
            if (!listing)
                return reportBadInput(command, listing.error());
            PKeyMemberships memberships;
            if (parser.isSet(QStringLiteral("topology"))) {
                Result<Fabric> fabric = readTopologyFile(parser.value(QStringLiteral("topology")));
                if (!fabric)
                    return reportBadInput(command, fabric.error());
                Result<PKeyTables> tables = bindPKeyTables(*listing, *fabric);
                if (!tables)
                    return reportBadInput(command, tables.error());
                memberships = heldPKeyMemberships(*fabric, *tables);
            } else {
                memberships = listedPKeyMemberships(*listing);
            }
            // Default explicit: a partitions.conf without any definition is one OpenSM finds in error.
            project.tenancy.partitions = withExplicitDefault(partitionsOf(memberships));
            project.fabricSource = parser.value(QStringLiteral("topology"));
        } else if (format == FileFormat::Project) {
            Result<Project> p = readProject(*data, path);
            if (!p)
                return reportBadInput(command, p.error());
            project = std::move(p).value();
        } else {
            Result<PartitionsConfResult> conf = readPartitionsConf(*data, path);
            if (!conf)
                return reportBadInput(command, conf.error());
            for (const QString &w : conf->warnings)
                err() << "warning: " << w << Qt::endl;
            project.tenancy.partitions = std::move(conf->partitions);
            project.fabricSource = path;
        }
        output = target == QLatin1String("project") ? writeProject(project) : writePartitionsConf(project.tenancy.partitions);
        break;
    }
    case FileFormat::OpenSmOptions:
        return impossible();
    case FileFormat::Unknown:
        return reportBadInput(command, Error{path, 0, QStringLiteral("cannot tell what this file is")});
    }
    if (Status s = writeOutput(parser.value(QStringLiteral("output")), output); !s)
        return reportBadInput(command, s.error());
    return kExitOk;
}

}  // namespace weft::cli
