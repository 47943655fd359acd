// weft diff: what moving a fabric from one set of tables (and partitions) to another costs,
// entry by entry, block by block, and in SMPs as OpenSM counts them.

#include "CliSupport.h"
#include "Commands.h"

#include "PartitionsConf.h"
#include "ReconfigurationPlan.h"
#include "TextReader.h"

namespace weft::cli {

namespace {

// A partitions.conf given on the command line: compared as the file's text, under its path.
Result<PartitionsState> readPartitionsState(const QString &path)
{
    Result<QByteArray> text = TextReader::readFile(path);
    if (!text)
        return text.error();
    Result<PartitionsConfResult> parsed = readPartitionsConf(*text, path);
    if (!parsed)
        return parsed.error();
    return PartitionsState{std::move(parsed->partitions), *text, path};
}

}  // namespace

int diff(const QStringList &args)
{
    const QString command = QStringLiteral("diff");
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Compares the forwarding tables a fabric holds now (--from) with proposed ones (--to):\n"
        "changed LFT entries, changed 64-entry blocks, P_Key table blocks, and the SMPs OpenSM\n"
        "would send for the change."));
    parser.addOption({QStringLiteral("topology"), QStringLiteral("Topology: ibnetdiscover output or ibsim net file."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("from"), QStringLiteral("LFT dump the switches hold now."), QStringLiteral("LFTS")});
    parser.addOption({QStringLiteral("to"), QStringLiteral("Proposed LFT dump."), QStringLiteral("LFTS")});
    parser.addOption({QStringLiteral("partitions-from"), QStringLiteral("partitions.conf in force now."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("partitions-to"), QStringLiteral("Proposed partitions.conf."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("sm-port"), QStringLiteral("Port GUID OpenSM runs on (SELF; full member of Default)."), QStringLiteral("GUID")});
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
        Result<PartitionsState> before = readPartitionsState(parser.value(QStringLiteral("partitions-from")));
        if (!before)
            return reportBadInput(command, before.error());
        Result<PartitionsState> after = readPartitionsState(parser.value(QStringLiteral("partitions-to")));
        if (!after)
            return reportBadInput(command, after.error());
        request.currentPartitions = std::move(before).value();
        request.proposedPartitions = std::move(after).value();
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
