// weft diff: what moving a fabric from one set of tables (and partitions) to another costs,
// entry by entry, block by block, and in SMPs as OpenSM counts them.

#include "CliSupport.h"
#include "Commands.h"

#include "LftDump.h"
#include "PKeyTables.h"
#include "PartitionsConf.h"
#include "ReconfigurationDiff.h"
#include "TopologyFile.h"

#include <QFile>

namespace weft::cli {

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

    const Result<Fabric> fabric = readTopologyFile(parser.value(QStringLiteral("topology")));
    if (!fabric)
        return reportBadInput(command, fabric.error());
    const Result<ForwardingTables> from = readLftDumpFile(parser.value(QStringLiteral("from")), &*fabric);
    if (!from)
        return reportBadInput(command, from.error());
    const Result<ForwardingTables> to = readLftDumpFile(parser.value(QStringLiteral("to")), &*fabric);
    if (!to)
        return reportBadInput(command, to.error());

    ReconfigurationDiffOptions options;
    options.fullPush = parser.isSet(QStringLiteral("full"));
    ReconfigurationDiff diff = diffForwardingTables(*from, *to, &*fabric, options);

    if (partitionsFrom) {
        const QString fromPath = parser.value(QStringLiteral("partitions-from"));
        const QString toPath = parser.value(QStringLiteral("partitions-to"));
        const Result<PartitionsConfResult> before = readPartitionsConfFile(fromPath);
        if (!before)
            return reportBadInput(command, before.error());
        const Result<PartitionsConfResult> after = readPartitionsConfFile(toPath);
        if (!after)
            return reportBadInput(command, after.error());
        const PKeyTables held = computePKeyTables(*fabric, before->partitions, pkeyOptions);
        const PKeyTables next = computePKeyTables(*fabric, after->partitions, pkeyOptions, &held);
        addPKeyDiff(diff, *fabric, held, next);
        QFile a(fromPath), b(toPath);
        if (!a.open(QIODevice::ReadOnly) || !b.open(QIODevice::ReadOnly))
            return reportBadInput(command, QStringLiteral("cannot read the partitions files"));
        diff.partitionsDiff = unifiedDiff(a.readAll(), b.readAll(), fromPath, toPath);
    }

    if (parser.isSet(QStringLiteral("json")))
        printJson(diffToJson(diff));
    else
        out() << diffToText(diff);
    out().flush();
    return kExitOk;
}

} // namespace weft::cli
