// weft diff: what moving a fabric from one set of tables (and partitions) to another costs,
// entry by entry, block by block, and in SMPs as OpenSM counts them.

#include "CliSupport.h"
#include "Commands.h"

#include "FileFormat.h"
#include "PKeyTableFile.h"
#include "PartitionsConf.h"
#include "ReconfigurationPlan.h"
#include "TextReader.h"

namespace weft::cli {

namespace {

// One side of --partitions-from/--partitions-to: a partitions.conf, compared as the file's text
// under its path; or P_Key tables (told apart by content), whose blocks are compared as they are
// and whose partitions (partitionsHeld) give the diff's text.
struct PartitionsSide
{
    PartitionsState state;
    std::optional<PKeyTables> pkeys;
};

Result<PartitionsSide> readPartitionsSide(const QString &path, const Fabric &fabric)
{
    Result<QByteArray> text = TextReader::readFile(path);
    if (!text)
        return text.error();
    PartitionsSide side;
    if (detectFileFormat(*text) == FileFormat::PKeyTables) {
        Result<PKeyTables> tables = readPKeyTableFile(*text, path, fabric);
        if (!tables)
            return tables.error();
        side.state.partitions = partitionsHeld(fabric, *tables);
        side.state.name = QStringLiteral("%1 (the partitions its P_Key tables hold)").arg(path);
        side.pkeys = std::move(tables).value();
        return side;
    }
    Result<PartitionsConfResult> parsed = readPartitionsConf(*text, path);
    if (!parsed)
        return parsed.error();
    side.state = PartitionsState{std::move(parsed->partitions), *text, path};
    return side;
}

}  // namespace

int diff(const QStringList &args)
{
    const QString command = QStringLiteral("diff");
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Compares the forwarding tables a fabric holds now (--from) with proposed ones (--to):\n"
        "changed LFT entries, changed 64-entry blocks, P_Key table blocks, and the SMPs OpenSM\n"
        "would send for the change.\n"
        "Each of --partitions-from and --partitions-to is a partitions.conf or P_Key tables (told apart\n"
        "by content). P_Key tables are compared block by block as they are; a partitions.conf's tables are\n"
        "those OpenSM programs for it (from a fresh start on the from side, moving on from the from side's\n"
        "tables on the to side). The partitions.conf diff shows P_Key tables as the partitions they amount\n"
        "to, named after the other side's partitions.conf where it has their P_Keys."));
    parser.addOption({QStringLiteral("topology"), QStringLiteral("Topology: ibnetdiscover output or ibsim net file."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("from"), QStringLiteral("LFT dump the switches hold now."), QStringLiteral("LFTS")});
    parser.addOption({QStringLiteral("to"), QStringLiteral("Proposed LFT dump."), QStringLiteral("LFTS")});
    parser.addOption({QStringLiteral("partitions-from"), QStringLiteral("partitions.conf in force now, or the P_Key tables the ports hold (weft discover --pkeys)."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("partitions-to"), QStringLiteral("Proposed partitions.conf, or the P_Key tables the ports are to hold."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("sm-port"), QStringLiteral("Port GUID OpenSM runs on (SELF; full member of Default), for a partitions.conf's tables."), QStringLiteral("GUID")});
    parser.addOption({QStringLiteral("full"), QStringLiteral("Count a full push (OpenSM's first master sweep): every block.")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON.")});
    int exitCode = kExitOk;
    if (!parseArguments(parser, command, args, &exitCode))
        return exitCode;
    for (const char *required : {"topology", "from", "to"})
        if (!parser.isSet(QLatin1String(required)))
            return reportBadInput(command, QStringLiteral("--%1 is required").arg(QLatin1String(required)));
    const bool partitionsFrom = parser.isSet(QStringLiteral("partitions-from"));
    if (partitionsFrom != parser.isSet(QStringLiteral("partitions-to")))
        return reportBadInput(command, QStringLiteral("--partitions-from and --partitions-to go together"));
    PKeyTableOptions pkeyOptions;
    if (parser.isSet(QStringLiteral("sm-port"))) {
        bool ok = false;
        pkeyOptions.smPortGuid = parser.value(QStringLiteral("sm-port")).toULongLong(&ok, 0);
        if (!ok || !pkeyOptions.smPortGuid)
            return reportBadInput(command, QStringLiteral("--sm-port: not a GUID: \"%1\"").arg(parser.value(QStringLiteral("sm-port"))));
    }

    InputOptions wanted;
    wanted.tables = {QStringLiteral("from"), QStringLiteral("to")};
    const Result<CommandInputs> inputs = loadInputs(parser, wanted);
    if (!inputs)
        return reportBadInput(command, inputs.error());

    ReconfigurationRequest request;
    request.lfts.fullPush = parser.isSet(QStringLiteral("full"));
    request.pkeys = pkeyOptions;
    if (partitionsFrom) {
        Result<PartitionsSide> before = readPartitionsSide(parser.value(QStringLiteral("partitions-from")), inputs->fabric);
        if (!before)
            return reportBadInput(command, before.error());
        Result<PartitionsSide> after = readPartitionsSide(parser.value(QStringLiteral("partitions-to")), inputs->fabric);
        if (!after)
            return reportBadInput(command, after.error());
        // Tables carry no names: against a partitions.conf, a P_Key it names keeps its name.
        if (before->pkeys && !after->pkeys)
            nameAfter(before->state.partitions, after->state.partitions);
        if (after->pkeys && !before->pkeys)
            nameAfter(after->state.partitions, before->state.partitions);
        request.currentPartitions = std::move(before->state);
        request.currentPKeys = std::move(before->pkeys);
        request.proposedPartitions = std::move(after->state);
        request.proposedPKeys = std::move(after->pkeys);
    }
    const ReconfigurationDiff diff = planReconfiguration(inputs->fabric, inputs->tables[0], inputs->tables[1], request).diff;

    if (parser.isSet(QStringLiteral("json")))
        printJson(diffToJson(diff));
    else
        out() << diffToText(diff);
    out().flush();
    return kExitOk;
}

}  // namespace weft::cli
