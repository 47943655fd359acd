// weft check: the fabric's health (identities, links, tables, port errors, subnet managers) and
// the fabric against its design, as findings with a severity. The checks are core's
// (FabricCheck.h); this reads the fabric, live or from a file, and prints what they found.

#include "CliSupport.h"
#include "Commands.h"

#include "DeliveryCheck.h"
#include "ErrorThresholds.h"
#include "FabricCheck.h"
#include "FabricDesign.h"
#include "LftDump.h"
#include "LiveFabric.h"
#include "PKeyTableFile.h"
#include "PortCounterReader.h"
#include "SafeFile.h"
#include "TopologyFile.h"

#include <QDateTime>
#include <QDir>

#include <chrono>
#include <optional>
#include <thread>

namespace weft::cli {

namespace {

const QString kCheckCommand = QStringLiteral("check");

int reportCheckFailure(const Error &error)
{
    err() << "weft " << kCheckCommand << ": " << error.toString() << Qt::endl;
    return kExitFailure;
}

std::vector<SubnetManagerSeen> checkManagersSeen(const std::vector<SubnetManagerInfo> &managers)
{
    std::vector<SubnetManagerSeen> seen;
    for (const SubnetManagerInfo &m : managers)
        seen.push_back({m.portGuid, m.lid, m.priority, m.state, m.answered, m.nodeDescription});
    return seen;
}

// The report as asked: JSON, or the text (and with --csv, one file per kind as well).
int printCheckReport(const QCommandLineParser &parser, const FabricCheckReport &report)
{
    if (parser.isSet(QStringLiteral("json"))) {
        printJson(checkReportJson(report));
        return report.exitCode();
    }
    out() << checkReportText(report);
    if (parser.isSet(QStringLiteral("csv"))) {
        const QString dir = parser.value(QStringLiteral("csv"));
        if (!QDir().mkpath(dir))
            return reportCheckFailure(Error{dir, 0, QStringLiteral("cannot create the directory")});
        const std::map<QString, QByteArray> files = checkReportCsv(report);
        for (const auto &[name, data] : files)
            if (Status written = writeFileAtomically(QDir(dir).filePath(name), data); !written)
                return reportCheckFailure(written.error());
        out() << "wrote " << files.size() << " CSV files to " << dir << '\n';
    }
    out().flush();
    return report.exitCode();
}

}  // namespace

int check(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Checks the live fabric (or --topology, offline: the checks that need no fabric) and reports\n"
        "findings, each an error or a warning:\n"
        "  identities: duplicate node or port GUIDs and LIDs used twice (refused when the fabric is\n"
        "    read, reported as findings), duplicate node descriptions, LID 0 on a cabled CA port or a\n"
        "    switch's port 0;\n"
        "  links: links not ACTIVE, links whose two ends disagree on width or speed;\n"
        "  design (--design): missing, miswired (at another port or peer) and extra cables by name,\n"
        "    and links narrower or slower than the design;\n"
        "  tables: unreachable pairs, forwarding loops and credit loops of the tables the switches\n"
        "    hold (offline: of --lfts, when given);\n"
        "  partitions: P_Key tables that disagree across a switch-to-CA link where the switch enforces\n"
        "    partitions (offline: of --pkeys, when given);\n"
        "  counters (live): port error counters over the thresholds, as they stand or, with --window,\n"
        "    what they count during the window; with --window, symbol errors as a bit error rate:\n"
        "    errors / (width x lane signalling rate x window), over --ber-threshold;\n"
        "  subnet managers (live): none, several masters, a master below another SM's priority.\n"
        "The design is a topology file (ibnetdiscover, a saved as-built, weft gen's output) or a\n"
        "cabling list: CSV lines \"start device,start port,end device,end port[,link type]\", devices\n"
        "by node description or GUID, link type as 4xEDR (a header line is skipped, # comments).\n"
        "Thresholds: infiniband-diags' error_thresholds form, CounterName=value lines\n"
        "(SymbolErrorCounter=10); counters not named have threshold 0; PortXmitWait only when named.\n"
        "JSON keys: clean, source, design, window_seconds, checks, errors, warnings, findings\n"
        "[{severity, kind, message, places [{node, guid, port}]}].\n"
        "Exit codes: 0 clean, 1 findings (or the fabric could not be read), 2 bad input."));
    addLiveOptions(parser, QStringLiteral("MAD"));
    parser.addOption({QStringLiteral("topology"), QStringLiteral("Check this topology file instead of the live fabric."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("lfts"), QStringLiteral("With --topology: the LFT dump the switches hold, for the tables' checks."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("pkeys"), QStringLiteral("With --topology: the P_Key tables the ports hold (weft discover --pkeys), for the partitions' check."),
                      QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("design"), QStringLiteral("Compare with this design: a topology file or a cabling list (CSV)."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("thresholds"), QStringLiteral("Error counter thresholds (error_thresholds form; default 0 for each)."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("window"), QStringLiteral("Read the counters twice, S seconds apart, and judge what they count in between (default 0: as they stand)."),
                      QStringLiteral("S"), QStringLiteral("0")});
    parser.addOption({QStringLiteral("ber-threshold"), QStringLiteral("With --window: the symbol error rate over which a port is reported (default 1e-12)."),
                      QStringLiteral("RATE"), QStringLiteral("1e-12")});
    parser.addOption({QStringLiteral("save-design"), QStringLiteral("Write the fabric as an ibnetdiscover topology, its as-built design for later checks."),
                      QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON.")});
    parser.addOption({QStringLiteral("csv"), QStringLiteral("Also write one CSV per kind of finding into DIR."), QStringLiteral("DIR")});
    int exitCode = kExitOk;
    if (!parseArguments(parser, kCheckCommand, args, &exitCode))
        return exitCode;
    if (!requireOptionsOnly(parser, kCheckCommand, {}, &exitCode))
        return exitCode;
    if (parser.isSet(QStringLiteral("json")) && parser.isSet(QStringLiteral("csv")))
        return reportBadInput(kCheckCommand, QStringLiteral("--json and --csv exclude each other"));
    const bool offline = parser.isSet(QStringLiteral("topology"));
    if (!offline && (parser.isSet(QStringLiteral("lfts")) || parser.isSet(QStringLiteral("pkeys"))))
        return reportBadInput(kCheckCommand, QStringLiteral("--lfts and --pkeys go with --topology (live, the tables are read from the switches)"));
    bool ok = false;
    const double window = parser.value(QStringLiteral("window")).toDouble(&ok);
    if (!ok || window < 0 || window > 86400)
        return reportBadInput(kCheckCommand, QStringLiteral("--window: not a number of seconds (0-86400): \"%1\"").arg(parser.value(QStringLiteral("window"))));
    if (offline && (parser.isSet(QStringLiteral("thresholds")) || window > 0 || parser.isSet(QStringLiteral("ber-threshold"))))
        return reportBadInput(kCheckCommand, QStringLiteral("--thresholds, --window and --ber-threshold need the live fabric's counters, not --topology"));
    const double berThreshold = parser.value(QStringLiteral("ber-threshold")).toDouble(&ok);
    if (!ok || !(berThreshold >= 0) || berThreshold >= 1)
        return reportBadInput(kCheckCommand,
                              QStringLiteral("--ber-threshold: not a rate between 0 and 1: \"%1\"").arg(parser.value(QStringLiteral("ber-threshold"))));
    LiveOptions live;
    if (!offline && !readLiveOptions(parser, kCheckCommand, &live, &exitCode))
        return exitCode;

    // Every input file first: a typo should not cost a discovery.
    std::optional<FabricDesign> design;
    if (parser.isSet(QStringLiteral("design"))) {
        Result<FabricDesign> read = readDesignFile(parser.value(QStringLiteral("design")));
        if (!read)
            return reportBadInput(kCheckCommand, read.error());
        design = std::move(*read);
    }
    ErrorThresholds thresholds;
    if (parser.isSet(QStringLiteral("thresholds"))) {
        Result<ErrorThresholds> read = readErrorThresholdsFile(parser.value(QStringLiteral("thresholds")));
        if (!read)
            return reportBadInput(kCheckCommand, read.error());
        thresholds = *read;
    }

    FabricCheckReport report;
    report.source = offline ? parser.value(QStringLiteral("topology")) : QStringLiteral("live");
    report.design = design ? design->file : QString();
    report.window = offline ? 0 : window;
    Result<Fabric> fabric = offline ? readTopologyFile(parser.value(QStringLiteral("topology"))) : discoverFabric(live);
    if (!fabric) {
        // A GUID or LID twice is the fabric's fault, not the input's: a finding.
        if (std::optional<CheckFinding> identity = identityFindingOf(fabric.error())) {
            report.add(QStringLiteral("identities"), {*identity});
            return printCheckReport(parser, report);
        }
        return offline ? reportBadInput(kCheckCommand, fabric.error()) : reportCheckFailure(fabric.error());
    }
    std::optional<ForwardingTables> tables;
    if (offline && parser.isSet(QStringLiteral("lfts"))) {
        Result<ForwardingTables> read = readLftDumpFile(parser.value(QStringLiteral("lfts")), &*fabric);
        if (!read)
            return reportBadInput(kCheckCommand, read.error());
        tables = std::move(*read);
    }
    std::optional<PKeyTables> pkeys;
    if (offline && parser.isSet(QStringLiteral("pkeys"))) {
        Result<PKeyTables> read = readPKeyTableFile(parser.value(QStringLiteral("pkeys")), *fabric);
        if (!read)
            return reportBadInput(kCheckCommand, read.error());
        pkeys = std::move(*read);
    }

    if (parser.isSet(QStringLiteral("save-design"))) {
        TopologyWriteOptions writeOptions;
        writeOptions.generatedBy = QStringLiteral("weft check --save-design, %1").arg(QDateTime::currentDateTime().toString(Qt::ISODate));
        if (Status written = writeFileAtomically(parser.value(QStringLiteral("save-design")), writeIbnetdiscover(*fabric, writeOptions)); !written)
            return reportCheckFailure(written.error());
    }

    report.add(QStringLiteral("identities"), identityFindings(*fabric));
    report.add(QStringLiteral("links"), linkFindings(*fabric));
    if (design)
        report.add(QStringLiteral("design"), designFindings(*fabric, *design));

    if (!offline) {
        Result<LiveHeldTables> held = readHeldTables(*fabric, live);
        if (held) {
            tables = std::move(held->lfts);
            pkeys = std::move(held->pkeys);
        } else
            report.add(QStringLiteral("tables"), {{CheckSeverity::Warning, QStringLiteral("tables-unread"), {},
                                                   QStringLiteral("the switches' tables could not be read: %1").arg(held.error().toString())}});
    }
    if (tables)
        report.add(QStringLiteral("tables"), tableFindings(checkDelivery(*fabric, Tenancy{}, *tables)));
    if (pkeys)
        report.add(QStringLiteral("partitions"), pkeyFindings(*fabric, *pkeys));

    if (!offline) {
        PortCounterReader reader(*fabric, live);
        Result<PortCounterPass> before = reader.read();
        if (!before)
            return reportCheckFailure(before.error());
        std::optional<PortCounterPass> after;
        if (window > 0) {
            // Standard error, so that --json's output stays one object; a script can wait for it.
            err() << "weft " << kCheckCommand << ": counters read; reading them again in " << window << " s" << Qt::endl;
            std::this_thread::sleep_for(std::chrono::duration<double>(window));
            Result<PortCounterPass> again = reader.read();
            if (!again)
                return reportCheckFailure(again.error());
            after = std::move(*again);
        }
        std::vector<CheckFinding> counters = counterFindings(*fabric, reader.ports(), before->samples, after ? &after->samples : nullptr,
                                                             window, thresholds);
        // The rate over the time the two readings were actually apart (the window and a pass).
        const double apart = after && !before->readAt.empty() && !after->readAt.empty() ? after->readAt.front() - before->readAt.front() : window;
        if (after)
            for (CheckFinding &f : symbolErrorRateFindings(*fabric, reader.ports(), before->samples, after->samples, apart > 0 ? apart : window,
                                                           berThreshold))
                counters.push_back(std::move(f));
        report.add(QStringLiteral("counters"), std::move(counters));

        Result<std::vector<SubnetManagerInfo>> managers = readSubnetManagers(*fabric, live);
        if (managers)
            report.add(QStringLiteral("subnet-managers"), subnetManagerFindings(checkManagersSeen(*managers)));
        else
            report.add(QStringLiteral("subnet-managers"), {{CheckSeverity::Warning, QStringLiteral("sm-unread"), {},
                                                            QStringLiteral("SMInfo could not be read: %1").arg(managers.error().toString())}});
    }
    return printCheckReport(parser, report);
}

}  // namespace weft::cli
