// weft bench: speed and memory of Weft's own stages on large fabrics. Benchmarks, not tests:
// they report figures (and ratios against other tools where one exists) and never fail on
// a slow machine.

#include "CliSupport.h"
#include "Commands.h"
#include "FabricGenerator.h"
#include "TextReader.h"
#include "TopologyFile.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>

#include <algorithm>

namespace weft::cli {

namespace {

// Resident memory figures of this process from /proc, in bytes; 0 where unavailable.
qint64 procStatusBytes(const char *field)
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray key = QByteArray(field) + ':';
    for (const QByteArray &line : status.readAll().split('\n'))
        if (line.startsWith(key))
            return line.mid(key.size()).trimmed().split(' ').value(0).toLongLong() * 1024;
    return 0;
}

// Resets the peak-RSS mark so the next VmHWM reading covers only what follows.
void resetPeakMemory()
{
    QFile clear(QStringLiteral("/proc/self/clear_refs"));
    if (clear.open(QIODevice::WriteOnly))
        clear.write("5");
}

struct Sample
{
    double seconds = 0;
    qint64 peakGrowthBytes = 0;
};

int benchParse(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Times parsing ibnetdiscover output and measures the memory it takes (peak resident growth).\n"
        "Without FILE, the 3-level fat-tree of the given switch radix is generated and written as\n"
        "ibnetdiscover prints it first (radix 36: 11,664 hosts, 1,620 switches)."));
    parser.addOption({QStringLiteral("radix"), QStringLiteral("Switch radix of the generated tree (default 36)."), QStringLiteral("R"), QStringLiteral("36")});
    parser.addOption({QStringLiteral("levels"), QStringLiteral("Switch levels of the generated tree (default 3)."), QStringLiteral("N"), QStringLiteral("3")});
    parser.addOption({QStringLiteral("repeat"), QStringLiteral("Runs to time (default 5)."), QStringLiteral("N"), QStringLiteral("5")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON.")});
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("ibnetdiscover output to parse (optional)."));
    int exitCode = kExitOk;
    if (!parseArguments(parser, QStringLiteral("bench parse"), args, &exitCode))
        return exitCode;

    QByteArray text;
    QString source;
    if (!parser.positionalArguments().isEmpty()) {
        source = parser.positionalArguments().constFirst();
        Result<QByteArray> data = TextReader::readFile(source);
        if (!data)
            return reportBadInput(QStringLiteral("bench parse"), data.error());
        text = std::move(data).value();
    } else {
        GeneratorOptions options;
        options.shape = FabricShapeKind::SwitchRadix;
        options.radix = parser.value(QStringLiteral("radix")).toInt();
        options.levels = parser.value(QStringLiteral("levels")).toInt();
        Result<GeneratedFabric> generated = generateFabric(options);
        if (!generated)
            return reportBadInput(QStringLiteral("bench parse"), generated.error());
        text = writeIbnetdiscover(generated->fabric);
        source = generated->summary;
    }
    const int repeat = std::max(1, parser.value(QStringLiteral("repeat")).toInt());

    std::vector<Sample> samples;
    std::size_t hosts = 0;
    std::size_t switches = 0;
    for (int i = 0; i < repeat; ++i) {
        resetPeakMemory();
        const qint64 before = procStatusBytes("VmRSS");
        QElapsedTimer timer;
        timer.start();
        Result<Fabric> fabric = readTopology(text, source);
        const double seconds = double(timer.nsecsElapsed()) / 1e9;
        const qint64 peak = procStatusBytes("VmHWM");
        if (!fabric)
            return reportBadInput(QStringLiteral("bench parse"), fabric.error());
        hosts = fabric->channelAdapterCount();
        switches = fabric->switches().size();
        samples.push_back({seconds, std::max<qint64>(0, peak - before)});
    }
    std::vector<double> times;
    qint64 peakGrowth = 0;
    for (const Sample &s : samples) {
        times.push_back(s.seconds);
        peakGrowth = std::max(peakGrowth, s.peakGrowthBytes);
    }
    std::sort(times.begin(), times.end());
    const double median = times[times.size() / 2];
    if (parser.isSet(QStringLiteral("json"))) {
        QJsonArray all;
        for (double t : times)
            all.append(t);
        printJson(QJsonObject{{QStringLiteral("benchmark"), QStringLiteral("parse-ibnetdiscover")},
                              {QStringLiteral("source"), source},
                              {QStringLiteral("bytes"), double(text.size())},
                              {QStringLiteral("hosts"), double(hosts)},
                              {QStringLiteral("switches"), double(switches)},
                              {QStringLiteral("seconds_min"), times.front()},
                              {QStringLiteral("seconds_median"), median},
                              {QStringLiteral("seconds_all"), all},
                              {QStringLiteral("peak_memory_growth_bytes"), double(peakGrowth)}});
        return kExitOk;
    }
    out() << "parse ibnetdiscover output: " << source << '\n'
          << "  input: " << QString::number(double(text.size()) / 1e6, 'f', 1) << " MB, " << hosts << " hosts, " << switches << " switches\n"
          << "  time: min " << QString::number(times.front(), 'f', 3) << " s, median " << QString::number(median, 'f', 3)
          << " s over " << repeat << " runs (one core)\n"
          << "  memory: peak resident growth " << QString::number(double(peakGrowth) / 1e6, 'f', 1) << " MB\n";
    out().flush();
    return kExitOk;
}

} // namespace

int bench(const QStringList &args)
{
    const QString which = args.value(0);
    if (which == QLatin1String("parse"))
        return benchParse(args.mid(1));
    if (which.isEmpty() || which == QLatin1String("--help") || which == QLatin1String("-h")) {
        out() << "Usage: weft bench BENCHMARK [options]\n\nBenchmarks:\n"
                 "  parse    parse ibnetdiscover output of a large fat-tree (time, memory)\n";
        out().flush();
        return which.isEmpty() ? kExitBadInput : kExitOk;
    }
    return reportBadInput(QStringLiteral("bench"), QStringLiteral("unknown benchmark \"%1\" (see weft bench --help)").arg(which));
}

} // namespace weft::cli
