// weft bench commit: `weft lab --fabric radix:R:L --no-gui` as a whole process (ibsim, OpenSM with
// Weft's engine inside it, one discover -> route -> diff -> commit -> verify loop), its stages
// taken from the `timing:` line it prints; then, on the same lab while it still runs, the tables a
// commit reads (every LFT, the P_Key tables of the ports Weft models) read by the standard tools,
// `dump_lfts` and `smpquery pkeys` once per port, beside `weft discover --lfts --pkeys`, all as
// whole processes. `smpquery` runs over an even sample of the ports by default (a loop over
// thousands of processes takes minutes), its time extrapolated; the output says so.

#include "BenchCommit.h"

#include "BenchHarness.h"
#include "CliSupport.h"

#include "Fabric.h"
#include "LftDump.h"
#include "SafeFile.h"
#include "SimulatedFabric.h"
#include "TopologyFile.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

namespace weft::cli {

int benchCommit(const QStringList &args)
{
    Benchmark bench(QStringLiteral("commit"), QStringLiteral(
        "Runs `weft lab --fabric radix:R:L --no-gui` (ibsim, OpenSM with Weft's engine inside it, one\n"
        "verified commit) as a whole process and reports its stages; then, on the same lab, times\n"
        "`weft discover --lfts --pkeys` beside `dump_lfts` and `smpquery pkeys` per port (the tables a\n"
        "commit reads back), all whole processes, and their ratio."));
    bench.addTreeOptions(24);
    bench.parser().addOption({QStringLiteral("smpquery-sample"), QStringLiteral("Ports the smpquery loop runs over, evenly spread, its time extrapolated to all (default 500; 0: every port)."), QStringLiteral("N"), QStringLiteral("500")});
    if (const std::optional<int> exitCode = bench.parse(args))
        return *exitCode;
    bool ok = false;
    const int sample = bench.value(QStringLiteral("smpquery-sample")).toInt(&ok);
    if (!ok || sample < 0)
        return bench.fail(QStringLiteral("--smpquery-sample: not a count: \"%1\"").arg(bench.value(QStringLiteral("smpquery-sample"))));
    if (const QString missing = SimulatedFabric::missingTools(); !missing.isEmpty())
        return bench.fail(QStringLiteral("this benchmark needs: ") + missing);
    const QString radix = bench.value(QStringLiteral("radix")), levels = bench.value(QStringLiteral("levels"));

    QTemporaryDir dir;
    if (!dir.isValid())
        return bench.fail(QStringLiteral("cannot create a temporary directory"));
    const QString tools = dir.filePath(QStringLiteral("tools.json"));
    QProcess lab;
    lab.setProcessChannelMode(QProcess::MergedChannels);
    QElapsedTimer timer;
    timer.start();
    lab.start(QCoreApplication::applicationFilePath(),
              {QStringLiteral("lab"), QStringLiteral("--fabric"), QStringLiteral("radix:%1:%2").arg(radix, levels), QStringLiteral("--no-gui"),
               QStringLiteral("--dir"), dir.filePath(QStringLiteral("lab")), QStringLiteral("--bench-tools"), tools,
               QStringLiteral("--smpquery-sample"), QString::number(sample)});
    if (!lab.waitForStarted(10000) || !lab.waitForFinished(4 * 3600 * 1000))
        return bench.fail(QStringLiteral("weft lab did not run: ") + lab.errorString());
    const double labSeconds = secondsOf(timer);
    const QString output = QString::fromUtf8(lab.readAll());
    if (lab.exitStatus() != QProcess::NormalExit || lab.exitCode() != 0)
        return bench.fail(QStringLiteral("weft lab failed:\n") + output);

    // "timing: discovery 0.96 s (fabric), ..., verification 0.31 s (fabric); Weft's own work 0.15 s of 5.1 s (3 %)"
    QString timingLine;
    QStringList reads;
    QString fabricLine;
    for (const QString &line : output.split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("timing: ")))
            timingLine = line.mid(8);
        else if (line.trimmed().startsWith(QLatin1String("read ")) && line.contains(QLatin1String("SMPs")))
            reads << line.trimmed();
        else if (line.startsWith(QLatin1String("fabric: ")))
            fabricLine = line.mid(8);
    }
    if (timingLine.isEmpty())
        return bench.fail(QStringLiteral("weft lab printed no timing line:\n") + output);
    QJsonObject stages;
    static const QRegularExpression stage(QStringLiteral("([A-Za-z+ -]+?) ([0-9.]+) s \\((\\w+)\\)"));
    for (auto it = stage.globalMatch(timingLine.section(QLatin1Char(';'), 0, 0)); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        stages.insert(m.captured(1).trimmed(), m.captured(2).toDouble());
    }
    static const QRegularExpression totalPattern(QStringLiteral("of ([0-9.]+) s"));
    const double total = totalPattern.match(timingLine).captured(1).toDouble();
    const double sweep = stages.value(QStringLiteral("OpenSM load and sweep")).toDouble();
    const double readBack = stages.value(QStringLiteral("table read-back")).toDouble();
    const double verification = stages.value(QStringLiteral("verification")).toDouble();

    QFile toolsFile(tools);
    if (!toolsFile.open(QIODevice::ReadOnly))
        return bench.fail(QStringLiteral("weft lab wrote no figures for the standard tools (%1)").arg(tools));
    const QJsonObject t = QJsonDocument::fromJson(toolsFile.readAll()).object();
    const double weftTables = t.value(QStringLiteral("weft_discover_tables_seconds")).toDouble();
    const double dumpLfts = t.value(QStringLiteral("dump_lfts_seconds")).toDouble();
    const double smpquery = t.value(QStringLiteral("smpquery_seconds")).toDouble();
    const double ratio = weftTables > 0 ? (dumpLfts + smpquery) / weftTables : 0;
    const double lftRatio = t.value(QStringLiteral("weft_lft_seconds")).toDouble() > 0 ? dumpLfts / t.value(QStringLiteral("weft_lft_seconds")).toDouble() : 0;
    const bool extrapolated = t.value(QStringLiteral("smpquery_sample")).toDouble() < t.value(QStringLiteral("pkey_ports")).toDouble();

    QJsonObject json{{QStringLiteral("benchmark"), QStringLiteral("commit")},
                     {QStringLiteral("fabric"), fabricLine},
                     {QStringLiteral("lab_seconds"), labSeconds},
                     {QStringLiteral("commit_seconds"), total},
                     {QStringLiteral("stages"), stages},
                     {QStringLiteral("commit_over_sweep_seconds"), total - sweep},
                     {QStringLiteral("reads"), QJsonArray::fromStringList(reads)},
                     {QStringLiteral("tools"), t},
                     {QStringLiteral("ratio_tools_to_weft"), ratio},
                     {QStringLiteral("ratio_dump_lfts_to_weft_lft_read"), lftRatio}};
    return bench.report(json, [&](QTextStream &o) {
        o << "commit: " << fabricLine << " (weft lab --fabric radix:" << radix << ':' << levels << " --no-gui, " << QString::number(labSeconds, 'f', 1) << " s in all)\n"
          << "  timing: " << timingLine << "\n"
          << "  table read-back " << QString::number(readBack, 'f', 2) << " s, verification " << QString::number(verification, 'f', 2)
          << " s; the commit " << QString::number(total, 'f', 2) << " s against OpenSM's sweep " << QString::number(sweep, 'f', 2) << " s (+"
          << QString::number(total - sweep, 'f', 2) << " s)\n";
        for (const QString &r : reads)
            o << "  " << r << "\n";
        o << "  the same tables as whole processes on the same lab:\n"
          << "    weft discover --lfts --pkeys:  " << QString::number(weftTables, 'f', 2) << " s (discovery "
          << QString::number(t.value(QStringLiteral("weft_discovery_seconds")).toDouble(), 'f', 2) << " s, LFTs "
          << QString::number(t.value(QStringLiteral("weft_lft_seconds")).toDouble(), 'f', 2) << " s, P_Keys "
          << QString::number(t.value(QStringLiteral("weft_pkey_seconds")).toDouble(), 'f', 2) << " s)\n"
          << "    dump_lfts:                     " << QString::number(dumpLfts, 'f', 2) << " s (same tables as Weft read: "
          << (t.value(QStringLiteral("lfts_agree")).toBool() ? "yes" : "NO") << ")\n"
          << "    smpquery pkeys, per port:      " << QString::number(smpquery, 'f', 2) << " s for "
          << t.value(QStringLiteral("pkey_ports")).toInt() << " ports"
          << (extrapolated ? QStringLiteral(" (extrapolated from %1 ports, %2 s)").arg(t.value(QStringLiteral("smpquery_sample")).toInt()).arg(t.value(QStringLiteral("smpquery_sample_seconds")).toDouble(), 0, 'f', 2)
                           : QString())
          << "\n"
          << "  ratio (dump_lfts + smpquery) / weft discover --lfts --pkeys: " << QString::number(ratio, 'f', 1) << "x; dump_lfts / Weft's LFT read: "
          << QString::number(lftRatio, 'f', 1) << "x\n";
    });
}

}  // namespace weft::cli
