// weft discover: reads the live fabric through the local adapter (libibnetdisc and libibmad),
// prints what it found, writes it in the formats Weft reads, and says what changed since a
// saved topology.

#include "CliSupport.h"
#include "Commands.h"

#include "FabricSummary.h"
#include "LftDump.h"
#include "LiveFabric.h"
#include "PKeyTableFile.h"
#include "TopologyFile.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonArray>

#include <optional>

namespace weft::cli {

namespace {

int reportFailure(const QString &command, const Error &error)
{
    err() << "weft " << command << ": " << error.toString() << Qt::endl;
    return kExitFailure;
}

QJsonArray jsonList(const QStringList &items)
{
    QJsonArray array;
    for (const QString &item : items)
        array.append(item);
    return array;
}

}  // namespace

int discover(const QStringList &args)
{
    const QString command = QStringLiteral("discover");
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Discovers the fabric through the local InfiniBand adapter, as ibnetdiscover does, and\n"
        "optionally reads every switch's forwarding table and the ports' P_Key tables.\n"
        "P_Key file format: one line per port, \"<port GUID> <port> \\\"<description>\\\" <index>:0x<pkey> ...\"\n"
        "(weft info, weft diff --partitions-from/--partitions-to and weft convert --to partitions read it)."));
    addLiveOptions(parser, QStringLiteral("SMP"));
    parser.addOption({QStringLiteral("outstanding-smps"), QStringLiteral("SMPs the scan keeps in flight (default 4, as OpenSM; ibnetdiscover uses 2)."), QStringLiteral("N"), QStringLiteral("4")});
    parser.addOption({{QStringLiteral("o"), QStringLiteral("output")}, QStringLiteral("Write the topology (ibnetdiscover format)."), QStringLiteral("TOPOLOGY")});
    parser.addOption({QStringLiteral("lfts"), QStringLiteral("Read every switch's LFT and write them (ibroute format)."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("pkeys"), QStringLiteral("Read the ports' P_Key tables and write them."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("compare"), QStringLiteral("Report what changed since this saved topology."), QStringLiteral("TOPOLOGY")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON.")});
    int exitCode = kExitOk;
    if (!parseArguments(parser, command, args, &exitCode))
        return exitCode;

    LiveOptions options;
    if (!readLiveOptions(parser, command, &options, &exitCode))
        return exitCode;
    bool ok = false;
    options.maxSmpsInFlight = parser.value(QStringLiteral("outstanding-smps")).toInt(&ok);
    if (!ok || options.maxSmpsInFlight < 1)
        return reportBadInput(command, QStringLiteral("--outstanding-smps: not a positive count: \"%1\"").arg(parser.value(QStringLiteral("outstanding-smps"))));

    // Read the saved topology first: a typo there should not cost a discovery.
    std::optional<Fabric> saved;
    if (parser.isSet(QStringLiteral("compare"))) {
        Result<Fabric> read = readTopologyFile(parser.value(QStringLiteral("compare")));
        if (!read)
            return reportBadInput(command, read.error());
        saved = std::move(*read);
    }

    QElapsedTimer timer;
    timer.start();
    Result<Fabric> fabric = discoverFabric(options);
    if (!fabric)
        return reportFailure(command, fabric.error());
    const double discoverySeconds = timer.nsecsElapsed() / 1e9;

    if (parser.isSet(QStringLiteral("output"))) {
        TopologyWriteOptions writeOptions;
        writeOptions.generatedBy = QStringLiteral("weft discover, %1").arg(QDateTime::currentDateTime().toString(Qt::ISODate));
        if (Status s = writeOutput(parser.value(QStringLiteral("output")), writeIbnetdiscover(*fabric, writeOptions)); !s)
            return reportFailure(command, s.error());
    }

    std::size_t lftSwitches = 0;
    double lftSeconds = 0;
    if (parser.isSet(QStringLiteral("lfts"))) {
        timer.restart();
        Result<ForwardingTables> tables = readForwardingTables(*fabric, options);
        if (!tables)
            return reportFailure(command, tables.error());
        lftSeconds = timer.nsecsElapsed() / 1e9;
        lftSwitches = tables->size();
        if (Status s = writeLftDumpOutput(parser.value(QStringLiteral("lfts")), *tables, &*fabric, LftDumpForm::Annotated); !s)
            return reportFailure(command, s.error());
    }

    std::size_t pkeyPorts = 0;
    double pkeySeconds = 0;
    if (parser.isSet(QStringLiteral("pkeys"))) {
        timer.restart();
        Result<PKeyTables> tables = readPKeyTables(*fabric, options);
        if (!tables)
            return reportFailure(command, tables.error());
        pkeySeconds = timer.nsecsElapsed() / 1e9;
        pkeyPorts = tables->ports().size();
        if (Status s = writeOutput(parser.value(QStringLiteral("pkeys")), writePKeyTables(*tables, *fabric)); !s)
            return reportFailure(command, s.error());
    }

    std::optional<FabricChanges> changes;
    if (saved)
        changes = compareFabrics(*saved, *fabric);

    const FabricSummary summary = summarize(*fabric);
    if (parser.isSet(QStringLiteral("json"))) {
        QJsonObject o{{QStringLiteral("switches"), double(summary.switches)},
                      {QStringLiteral("channel_adapters"), double(summary.channelAdapters)},
                      {QStringLiteral("routers"), double(summary.routers)},
                      {QStringLiteral("links"), double(summary.links)},
                      {QStringLiteral("min_lid"), summary.minLid},
                      {QStringLiteral("max_lid"), summary.maxLid},
                      {QStringLiteral("discovery_seconds"), discoverySeconds}};
        if (parser.isSet(QStringLiteral("lfts"))) {
            o.insert(QStringLiteral("lft_switches"), double(lftSwitches));
            o.insert(QStringLiteral("lft_seconds"), lftSeconds);
        }
        if (parser.isSet(QStringLiteral("pkeys"))) {
            o.insert(QStringLiteral("pkey_ports"), double(pkeyPorts));
            o.insert(QStringLiteral("pkey_seconds"), pkeySeconds);
        }
        // What the table reads sent: SMPs, retries, LFT blocks, P_Key tables.
        if (const QString reads = takeTableReadSummary(); !reads.isEmpty())
            o.insert(QStringLiteral("table_reads"), reads);
        if (changes) {
            o.insert(QStringLiteral("changes"), QJsonObject{{QStringLiteral("nodes_gone"), jsonList(changes->nodesGone)},
                                                            {QStringLiteral("nodes_new"), jsonList(changes->nodesNew)},
                                                            {QStringLiteral("links_gone"), jsonList(changes->linksGone)},
                                                            {QStringLiteral("links_new"), jsonList(changes->linksNew)},
                                                            {QStringLiteral("lids_changed"), jsonList(changes->lidsChanged)}});
        }
        printJson(o);
        return kExitOk;
    }

    // With the topology on stdout the summary would corrupt it; it goes to stderr then.
    const bool topologyOnStdout = parser.value(QStringLiteral("output")) == QLatin1String("-");
    QTextStream &summaryStream = topologyOnStdout ? err() : out();
    summaryStream << "discovered " << summary.switches << " switches, " << summary.channelAdapters << " channel adapters";
    if (summary.routers)
        summaryStream << ", " << summary.routers << " routers";
    summaryStream << ", " << summary.links << " links, LIDs " << summary.minLid << "-" << summary.maxLid << " in "
                  << QString::number(discoverySeconds, 'f', 3) << " s\n";
    if (parser.isSet(QStringLiteral("lfts")))
        summaryStream << "read the forwarding tables of " << lftSwitches << " switches in " << QString::number(lftSeconds, 'f', 3) << " s\n";
    if (parser.isSet(QStringLiteral("pkeys")))
        summaryStream << "read the P_Key tables of " << pkeyPorts << " ports in " << QString::number(pkeySeconds, 'f', 3) << " s\n";
    if (changes)
        summaryStream << "changes since " << parser.value(QStringLiteral("compare")) << ":\n" << changes->toText();
    summaryStream.flush();
    return kExitOk;
}

}  // namespace weft::cli
