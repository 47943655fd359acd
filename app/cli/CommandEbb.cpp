// weft ebb: effective bisection bandwidth (spec 002 §2.6) of a set of forwarding tables.

#include "CliSupport.h"
#include "Commands.h"
#include "EffectiveBisection.h"
#include "TrafficModel.h"

#include <QJsonArray>

#include <algorithm>


namespace weft::cli {

namespace {

const QString kEbbCommand = QStringLiteral("ebb");

QString fraction(double x)
{
    return QString::number(x, 'f', 4);
}

}  // namespace

int ebb(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Effective bisection bandwidth (Hoefler, Schneider, Lumsdaine; spec 002 §2.6): N random\n"
        "bisections of the end ports (a partition's full members with --partition), every stream\n"
        "getting its link rate divided by the worst congestion on its LFT path, congestion counted\n"
        "per link direction. The result is the mean fraction of what the streams could get alone.\n"
        "Modes: uni (the paper's: one stream per pair) or bidir (both directions, as measured).\n"
        "Sample k draws its pattern from its own generator seeded from (seed, k): the same seed\n"
        "gives the same figures for any thread count. An odd number of end ports drops one drawn\n"
        "at random per sample.\n"
        "JSON keys: mean, stddev, ci95, ci99, samples, seed, mode, threads, participants,\n"
        "streams_per_sample, min, max, percentiles {p1, p5, p50, p95, p99}, histogram [{from, to,\n"
        "count}], aggregate_gbps, worst_sample, streams_by_max_congestion, bottleneck_links [{link,\n"
        "bottleneck_streams, mean_congestion, shared_fraction}], link_rates, node_weights,\n"
        "odd_rule, seconds.\n"
        "Exit codes: 0 done, 2 bad input (including tables that do not deliver every pair)."));
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON.")});
    parser.addOption({QStringLiteral("topology"), QStringLiteral("Topology: ibnetdiscover output or ibsim net file."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("lfts"), QStringLiteral("LFT dump (dump_lfts, ibroute, opensm-lfts.dump, weft route)."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("samples"), QStringLiteral("Random bisections (default 10000)."), QStringLiteral("N"), QStringLiteral("10000")});
    parser.addOption({QStringLiteral("seed"), QStringLiteral("Master seed (default 1)."), QStringLiteral("S"), QStringLiteral("1")});
    parser.addOption({QStringLiteral("mode"), QStringLiteral("uni (default) or bidir."), QStringLiteral("MODE"), QStringLiteral("uni")});
    parser.addOption({QStringLiteral("partitions"), QStringLiteral("OpenSM partitions.conf."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("partition"), QStringLiteral("Bisect only the full members of this partition (name or P_Key); needs --partitions."), QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("weights"), QStringLiteral("Node weights as stream demands (not in the paper): lines `GUID-or-description weight`."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("uniform-rates"), QStringLiteral("Treat every link as equally fast (the paper's model) even when rates differ.")});
    parser.addOption({QStringLiteral("threads"), QStringLiteral("Worker threads (default: one per core)."), QStringLiteral("T"), QStringLiteral("0")});
    parser.addOption({QStringLiteral("top"), QStringLiteral("Bottleneck links to list (default 10)."), QStringLiteral("N"), QStringLiteral("10")});
    int exitCode = kExitOk;
    if (!parseArguments(parser, kEbbCommand, args, &exitCode))
        return exitCode;
    if (!requireOptionsOnly(parser, kEbbCommand, {"topology", "lfts"}, &exitCode))
        return exitCode;
    if (parser.isSet(QStringLiteral("partition")) && !parser.isSet(QStringLiteral("partitions")))
        return reportBadInput(kEbbCommand, QStringLiteral("--partition needs --partitions FILE"));

    EbbRun run;
    bool ok = false;
    run.samples = parser.value(QStringLiteral("samples")).toInt(&ok);
    if (!ok || run.samples < 1)
        return reportBadInput(kEbbCommand, QStringLiteral("samples \"%1\" is not a positive number").arg(parser.value(QStringLiteral("samples"))));
    run.seed = parser.value(QStringLiteral("seed")).toULongLong(&ok, 0);
    if (!ok)
        return reportBadInput(kEbbCommand, QStringLiteral("seed \"%1\" is not a number").arg(parser.value(QStringLiteral("seed"))));
    run.threads = parser.value(QStringLiteral("threads")).toInt(&ok);
    if (!ok || run.threads < 0)
        return reportBadInput(kEbbCommand, QStringLiteral("threads \"%1\" is not a number of threads").arg(parser.value(QStringLiteral("threads"))));
    const QString mode = parser.value(QStringLiteral("mode"));
    if (mode == QLatin1String("uni"))
        run.variant = BisectionVariant::OneWay;
    else if (mode == QLatin1String("bidir"))
        run.variant = BisectionVariant::TwoWay;
    else
        return reportBadInput(kEbbCommand, QStringLiteral("unknown mode \"%1\" (known: uni, bidir)").arg(mode));
    const int top = parser.value(QStringLiteral("top")).toInt(&ok);
    if (!ok || top < 0)
        return reportBadInput(kEbbCommand, QStringLiteral("top \"%1\" is not a number").arg(parser.value(QStringLiteral("top"))));

    InputOptions wanted;
    wanted.tables = {QStringLiteral("lfts")};
    wanted.partitions = wanted.weights = true;
    Result<CommandInputs> inputs = loadInputs(parser, wanted);
    if (!inputs)
        return reportBadInput(kEbbCommand, inputs.error());
    const Fabric &fabric = inputs->fabric;
    const Tenancy &tenancy = inputs->tenancy;
    EbbModel model;
    model.linkRates = !parser.isSet(QStringLiteral("uniform-rates"));
    model.nodeWeights = parser.isSet(QStringLiteral("weights"));
    if (parser.isSet(QStringLiteral("partition"))) {
        Result<std::vector<Guid>> members = groupMembers(fabric, tenancy, parser.value(QStringLiteral("partition")));
        if (!members) {
            Error e = members.error();
            e.file = parser.value(QStringLiteral("partitions"));
            return reportBadInput(kEbbCommand, e);
        }
        model.participants = std::move(members).value();
    }

    Result<EffectiveBisection> prepared = EffectiveBisection::prepare(fabric, inputs->tables.front(), tenancy, model);
    if (!prepared) {
        Error e = prepared.error();
        e.file = parser.value(QStringLiteral("lfts"));
        return reportBadInput(kEbbCommand, e);
    }
    const Result<EbbResult> result = prepared->run(run);
    if (!result)
        return reportBadInput(kEbbCommand, result.error());
    const EbbResult &r = *result;
    const int shown = std::min(top, int(r.channels.size()));
    const QString oddRule = r.participants % 2 == 1 ? QStringLiteral("one end port dropped at random per sample") : QStringLiteral("none (even)");

    if (parser.isSet(QStringLiteral("json"))) {
        QJsonArray histogram;
        for (std::size_t b = 0; b < r.histogram.size(); ++b)
            histogram.append(QJsonObject{{QStringLiteral("from"), double(b) / double(r.histogram.size())},
                                         {QStringLiteral("to"), double(b + 1) / double(r.histogram.size())},
                                         {QStringLiteral("count"), r.histogram[b]}});
        QJsonArray byMax;
        for (std::uint64_t n : r.streamsByMaxCongestion)
            byMax.append(double(n));
        QJsonArray links;
        for (int i = 0; i < shown; ++i) {
            const EbbChannel &c = r.channels[std::size_t(i)];
            links.append(QJsonObject{{QStringLiteral("link"), directedLinkText(fabric, c.from)},
                                     {QStringLiteral("bottleneck_streams"), double(c.bottleneckStreams)},
                                     {QStringLiteral("mean_congestion"), c.meanCongestion},
                                     {QStringLiteral("shared_fraction"), c.sharedFraction}});
        }
        printJson(QJsonObject{
            {QStringLiteral("mean"), r.mean},
            {QStringLiteral("stddev"), r.stddev},
            {QStringLiteral("ci95"), r.ci95},
            {QStringLiteral("ci99"), r.ci99},
            {QStringLiteral("samples"), r.samples},
            {QStringLiteral("seed"), QString::number(r.seed)},
            {QStringLiteral("mode"), bisectionVariantName(r.variant)},
            {QStringLiteral("threads"), r.threads},
            {QStringLiteral("participants"), r.participants},
            {QStringLiteral("streams_per_sample"), r.streamsPerSample},
            {QStringLiteral("min"), r.min},
            {QStringLiteral("max"), r.max},
            {QStringLiteral("percentiles"), QJsonObject{{QStringLiteral("p1"), r.p1}, {QStringLiteral("p5"), r.p5},
                                                        {QStringLiteral("p50"), r.p50}, {QStringLiteral("p95"), r.p95},
                                                        {QStringLiteral("p99"), r.p99}}},
            {QStringLiteral("histogram"), histogram},
            {QStringLiteral("aggregate_gbps"), r.meanAggregateGbps},
            {QStringLiteral("worst_sample"), r.worstSample},
            {QStringLiteral("streams_by_max_congestion"), byMax},
            {QStringLiteral("bottleneck_links"), links},
            {QStringLiteral("link_rates"), r.linkRates},
            {QStringLiteral("node_weights"), r.nodeWeights},
            {QStringLiteral("odd_rule"), oddRule},
            {QStringLiteral("seconds"), r.seconds},
        });
        return kExitOk;
    }

    QTextStream &o = out();
    o << "effective bisection bandwidth (" << bisectionVariantName(r.variant) << ", linear congestion model): "
      << fraction(r.mean) << " ± " << fraction(r.ci99) << " (99 % CI), stddev " << fraction(r.stddev) << '\n'
      << "samples " << r.samples << " (seed " << r.seed << ", " << r.threads << " threads, "
      << QString::number(r.seconds, 'f', 2) << " s), end ports " << r.participants << ", streams per sample "
      << r.streamsPerSample << ", odd rule: " << oddRule << '\n'
      << "min " << fraction(r.min) << "  p1 " << fraction(r.p1) << "  p5 " << fraction(r.p5) << "  median " << fraction(r.p50)
      << "  p95 " << fraction(r.p95) << "  p99 " << fraction(r.p99) << "  max " << fraction(r.max) << '\n'
      << "aggregate " << QString::number(r.meanAggregateGbps, 'f', 1) << " Gb/s per sample"
      << (r.linkRates ? " (mixed link rates)" : "") << (r.nodeWeights ? " (node weights as demands)" : "") << '\n'
      << "histogram:";
    for (std::size_t b = 0; b < r.histogram.size(); ++b)
        if (r.histogram[b] > 0)
            o << "  [" << QString::number(double(b) / 20, 'f', 2) << ", " << QString::number(double(b + 1) / 20, 'f', 2)
              << (b + 1 == r.histogram.size() ? "] " : ") ") << r.histogram[b];
    o << '\n';
    if (shown > 0)
        o << "bottleneck links (streams limited, mean congestion, shared in % of samples):\n";
    for (int i = 0; i < shown; ++i) {
        const EbbChannel &c = r.channels[std::size_t(i)];
        o << "  " << directedLinkText(fabric, c.from) << ": " << c.bottleneckStreams << ", "
          << QString::number(c.meanCongestion, 'f', 3) << ", " << QString::number(100 * c.sharedFraction, 'f', 1) << '\n';
    }
    o.flush();
    return kExitOk;
}

}  // namespace weft::cli
