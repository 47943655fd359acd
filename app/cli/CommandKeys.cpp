// weft keys: the routing-key plan (spec 004) of BSP applications on a fat tree: keys per phase,
// their contention against DmodK, the LID budget, and optionally the LFTs that realise them.

#include "CliSupport.h"
#include "Commands.h"
#include "FabricGenerator.h"
#include "KeyPlan.h"
#include "LftDump.h"

namespace weft::cli {

namespace {

const QString kKeysCommand = QStringLiteral("keys");

Result<int> positive(const QCommandLineParser &parser, const QString &name, int fallback)
{
    if (!parser.isSet(name))
        return fallback;
    bool ok = false;
    const int value = parser.value(name).toInt(&ok);
    if (!ok || value <= 0)
        return Error{{}, 0, QStringLiteral("--%1 \"%2\" is not a positive number").arg(name, parser.value(name))};
    return value;
}

}  // namespace

int keys(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Plans routing keys (spec 004, ARK/NRK) for BSP applications on a full 2- or 3-level fat tree.\n"
        "Each application's communication phases get a key: explicit ToR→Agg(→Spine) choices free of\n"
        "contention inside the application (regularized matchings). ARK fixes each key's middle switches\n"
        "(per-application rotation, or identity); NRK shifts each key, application by application, onto the\n"
        "least loaded middles while all applications run the same phase. Contention counts flows per\n"
        "directed switch-to-switch link, against DmodK on the same placement.\n"
        "InfiniBand: phase i uses LID offset i+1 (DLID = base LID + offset) within LMC; the LID budget is\n"
        "hosts·2^LMC + switches of 49,151 unicast LIDs. --out writes a complete LFT dump: DmodK for every\n"
        "LID, plus the source-ToR (and, across pods, source-Agg) entries each key owns at its offset.\n"
        "Patterns: neighbour (periodic Cartesian ±x/±y/±z on balanced or --dims dimensions), shift\n"
        "(r→r+C for --shift C, else every C in 1..P-1), ring (+1, and -1 with --bidirectional),\n"
        "recursive-doubling (r→r XOR 2^s, P a power of two).\n"
        "JSON keys: tree, hosts, switches, scheme, pattern, apps [{hosts, rotation}], lid_budget {lmc,\n"
        "lids, fits, offsets, phases_fit, max_lmc, static_paths, static_lmc, static_fits}, phases [{name,\n"
        "offset, flows, delta, slots, contention_free, dmodk {max, mean, max_intra}, keyed {...},\n"
        "warnings, paths (with --paths)}].\n"
        "Exit codes: 0 done, 2 bad input (including a fabric that is not a full fat tree)."));
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON.")});
    parser.addOption({QStringLiteral("topology"), QStringLiteral("Topology: ibnetdiscover output or ibsim net file."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("xgft"), QStringLiteral("Expected shape in Weft's notation (roots first), e.g. \"3;6,6,6;6,6,1\"; checked against the inferred one."), QStringLiteral("SPEC")});
    parser.addOption({QStringLiteral("scheme"), QStringLiteral("ark or nrk."), QStringLiteral("SCHEME")});
    parser.addOption({QStringLiteral("pattern"), QStringLiteral("neighbour, shift, ring or recursive-doubling."), QStringLiteral("PATTERN")});
    parser.addOption({QStringLiteral("apps"), QStringLiteral("Applications sharing the fabric (default 1)."), QStringLiteral("N")});
    parser.addOption({QStringLiteral("ranks"), QStringLiteral("Ranks per application (default: hosts / apps)."), QStringLiteral("P")});
    parser.addOption({QStringLiteral("placement"), QStringLiteral("contiguous (default), random, or a comma-separated host list for one application."), QStringLiteral("PLACEMENT")});
    parser.addOption({QStringLiteral("seed"), QStringLiteral("Seed of random placement (default 1)."), QStringLiteral("S"), QStringLiteral("1")});
    parser.addOption({QStringLiteral("dims"), QStringLiteral("Grid of the neighbour pattern, XxYxZ (default balanced)."), QStringLiteral("DIMS")});
    parser.addOption({QStringLiteral("shift"), QStringLiteral("The one shift of the shift pattern."), QStringLiteral("C")});
    parser.addOption({QStringLiteral("bidirectional"), QStringLiteral("Ring pattern: also the -1 phase.")});
    parser.addOption({QStringLiteral("ark-mapping"), QStringLiteral("ARK slot→middle mapping: rotation (default, per application) or identity (paper-literal)."), QStringLiteral("MAPPING")});
    parser.addOption({QStringLiteral("cost"), QStringLiteral("NRK cost: link (default, C_link) or paper (C_paper, flows per middle)."), QStringLiteral("COST")});
    parser.addOption({QStringLiteral("matching"), QStringLiteral("regularized (default) or paper-literal."), QStringLiteral("MODE")});
    parser.addOption({QStringLiteral("lmc"), QStringLiteral("LMC for the budget (default: the smallest with an offset per phase)."), QStringLiteral("L")});
    parser.addOption({QStringLiteral("paths"), QStringLiteral("Also print every key path (\"A1: 0 → 4 → 1 → DLID(4)\").")});
    parser.addOption({QStringLiteral("out"), QStringLiteral("Write the LFT dump realising every key (hosts need LMC for all offsets)."), QStringLiteral("LFTS")});
    int exitCode = kExitOk;
    if (!parseArguments(parser, kKeysCommand, args, &exitCode))
        return exitCode;
    auto bad = [](const QString &message) { return reportBadInput(kKeysCommand, message); };
    if (!parser.positionalArguments().isEmpty())
        return bad(QStringLiteral("unexpected argument \"%1\" (see weft keys --help)").arg(parser.positionalArguments().constFirst()));
    for (const char *required : {"topology", "scheme", "pattern"})
        if (!parser.isSet(QLatin1String(required)))
            return bad(QStringLiteral("--%1 is required (see weft keys --help)").arg(QLatin1String(required)));

    const QString scheme = parser.value(QStringLiteral("scheme"));
    if (scheme != QLatin1String("ark") && scheme != QLatin1String("nrk"))
        return bad(QStringLiteral("unknown scheme \"%1\" (known: ark, nrk)").arg(scheme));
    const bool nrk = scheme == QLatin1String("nrk");
    const QString pattern = parser.value(QStringLiteral("pattern"));
    if (!keyPatternFromName(pattern))
        return bad(QStringLiteral("unknown pattern \"%1\" (known: %2)").arg(pattern, keyPatternNames().join(QStringLiteral(", "))));
    const QString mapping = parser.value(QStringLiteral("ark-mapping"));
    if (!mapping.isEmpty() && mapping != QLatin1String("rotation") && mapping != QLatin1String("identity"))
        return bad(QStringLiteral("unknown ARK mapping \"%1\" (known: rotation, identity)").arg(mapping));
    const QString costName = parser.value(QStringLiteral("cost"));
    if (!costName.isEmpty() && costName != QLatin1String("link") && costName != QLatin1String("paper"))
        return bad(QStringLiteral("unknown cost \"%1\" (known: link, paper)").arg(costName));
    const ShiftCost cost = costName == QLatin1String("paper") ? ShiftCost::Paper : ShiftCost::Link;
    const QString matching = parser.value(QStringLiteral("matching"));
    if (!matching.isEmpty() && matching != QLatin1String("regularized") && matching != QLatin1String("paper-literal"))
        return bad(QStringLiteral("unknown matching \"%1\" (known: regularized, paper-literal)").arg(matching));
    const Decomposition mode = matching == QLatin1String("paper-literal") ? Decomposition::PaperLiteral : Decomposition::Regularized;
    bool seedOk = false;
    const std::uint64_t seed = parser.value(QStringLiteral("seed")).toULongLong(&seedOk, 0);
    if (!seedOk)
        return bad(QStringLiteral("seed \"%1\" is not a number").arg(parser.value(QStringLiteral("seed"))));

    Result<CommandInputs> inputs = loadInputs(parser, {});
    if (!inputs)
        return reportBadInput(kKeysCommand, inputs.error());
    const Fabric &fabric = inputs->fabric;
    Result<KeyTreeFabric> tree = inferKeyTree(fabric);
    if (!tree)
        return bad(QStringLiteral("%1: %2").arg(parser.value(QStringLiteral("topology")), tree.error().message));
    const KeyTreeShape &shape = tree->shape;
    if (parser.isSet(QStringLiteral("xgft"))) {
        Result<XgftShape> xgft = parseXgft(parser.value(QStringLiteral("xgft")));
        if (!xgft)
            return reportBadInput(kKeysCommand, xgft.error());
        Result<KeyTreeShape> expected = keyTreeFromXgft(*xgft);
        if (!expected)
            return reportBadInput(kKeysCommand, expected.error());
        if (!(*expected == shape))
            return bad(QStringLiteral("the topology is %1, not %2 as --xgft says").arg(shape.toString(), expected->toString()));
    }

    // Placement.
    const Result<int> apps = positive(parser, QStringLiteral("apps"), 1);
    if (!apps)
        return reportBadInput(kKeysCommand, apps.error());
    std::vector<std::vector<int>> placement;
    const QString placementText = parser.value(QStringLiteral("placement"));
    if (placementText.isEmpty() || placementText == QLatin1String("contiguous") || placementText == QLatin1String("random")) {
        const Result<int> ranks = positive(parser, QStringLiteral("ranks"), shape.hosts() / *apps);
        if (!ranks)
            return reportBadInput(kKeysCommand, ranks.error());
        if (*ranks < 1 || std::int64_t(*ranks) * *apps > shape.hosts())
            return bad(QStringLiteral("%1 applications of %2 ranks do not fit on %3 hosts").arg(*apps).arg(*ranks).arg(shape.hosts()));
        if (placementText == QLatin1String("random"))
            placement = randomPlacement(shape.hosts(), *apps, *ranks, seed);
        else
            for (int a = 0; a < *apps; ++a)
                placement.push_back(contiguousPlacement(a * *ranks, *ranks));
    } else {
        if (*apps != 1)
            return bad(QStringLiteral("a host list places one application; drop --apps"));
        std::vector<int> hosts;
        std::vector<bool> used(std::size_t(shape.hosts()), false);
        for (const QString &item : placementText.split(QLatin1Char(','))) {
            bool ok = false;
            const int h = item.trimmed().toInt(&ok);
            if (!ok || h < 0 || h >= shape.hosts())
                return bad(QStringLiteral("placement: \"%1\" is not a host index 0..%2").arg(item).arg(shape.hosts() - 1));
            if (used[std::size_t(h)])
                return bad(QStringLiteral("placement: host %1 is given twice").arg(h));
            used[std::size_t(h)] = true;
            hosts.push_back(h);
        }
        placement.push_back(hosts);
    }
    const int ranks = int(placement.front().size());

    KeyPlanRequest request;
    request.placement = placement;
    request.pattern = *keyPatternFromName(pattern);
    if (pattern == QLatin1String("neighbour") && parser.isSet(QStringLiteral("dims"))) {
        const QStringList parts = parser.value(QStringLiteral("dims")).split(QLatin1Char('x'));
        std::array<int, 3> dims{};
        bool ok = parts.size() == 3;
        for (int i = 0; ok && i < 3; ++i) {
            dims[std::size_t(i)] = parts[i].toInt(&ok);
            ok = ok && dims[std::size_t(i)] > 0;
        }
        if (!ok)
            return bad(QStringLiteral("--dims \"%1\" is not XxYxZ with positive sizes").arg(parser.value(QStringLiteral("dims"))));
        request.dims = dims;
    }
    if (pattern == QLatin1String("shift") && parser.isSet(QStringLiteral("shift"))) {
        bool ok = false;
        const int c = parser.value(QStringLiteral("shift")).toInt(&ok);
        if (!ok)
            return bad(QStringLiteral("--shift \"%1\" is not a shift between 1 and %2").arg(parser.value(QStringLiteral("shift"))).arg(ranks - 1));
        request.shift = c;
    }
    request.bidirectional = parser.isSet(QStringLiteral("bidirectional"));
    if (parser.isSet(QStringLiteral("lmc"))) {
        bool ok = false;
        const int lmc = parser.value(QStringLiteral("lmc")).toInt(&ok);
        if (!ok || lmc < 0 || lmc > 7)
            return bad(QStringLiteral("--lmc \"%1\" is not an LMC 0..7").arg(parser.value(QStringLiteral("lmc"))));
        request.lmc = lmc;
    }
    request.scheme = nrk ? KeyScheme::Nrk : KeyScheme::Ark;
    request.arkIdentityMapping = mapping == QLatin1String("identity");
    request.cost = cost;
    request.decomposition = mode;
    const int switches = int(fabric.switches().size());
    Result<KeyPlan> plan = planKeys(shape, switches, request);
    if (!plan)
        return bad(plan.error().message);
    const std::vector<Phase> &phases = plan->phases;
    const int phaseOffsets = int(phases.size());
    const int lmc = plan->lmc;
    const LidBudget &budget = plan->budget;
    const std::vector<int> &rotations = plan->schedule.rotations;
    const std::vector<PhaseKeys> &reports = plan->schedule.phases;

    if (parser.isSet(QStringLiteral("out"))) {
        Result<ForwardingTables> tables = keyPlanTables(fabric, *tree, *plan);
        if (!tables)
            return bad(tables.error().message);
        const Status written = writeLftDumpOutput(parser.value(QStringLiteral("out")), *tables, &fabric, LftDumpForm::Annotated);
        if (!written) {
            err() << "weft keys: " << written.error().toString() << Qt::endl;
            return kExitFailure;
        }
    }

    const QString &schemeText = plan->schemeText;
    const QString &patternText = plan->patternText;
    const QString appLabel = QStringLiteral("A");
    if (parser.isSet(QStringLiteral("json"))) {
        printJson(keyPlanToJson(*plan, parser.isSet(QStringLiteral("paths"))));
        return kExitOk;
    }

    QTextStream &s = out();
    s << "Fabric:    " << shape.toString() << ", " << shape.hosts() << " hosts, " << switches << " switches\n";
    s << "Scheme:    " << schemeText << (mode == Decomposition::PaperLiteral ? ", paper-literal matchings" : ", regularized matchings") << "\n";
    s << "Pattern:   " << patternText << ", " << phases.size() << " phases; " << placement.size() << " application(s) of " << ranks
      << " ranks, " << (placementText.isEmpty() ? QStringLiteral("contiguous") : placementText.contains(QLatin1Char(',')) ? QStringLiteral("listed") : placementText)
      << " placement\n";
    s << "LID budget: LMC " << lmc << " gives " << budget.offsets << " key offsets for " << phaseOffsets << " phases"
      << (budget.offsets >= phaseOffsets ? QString() : QStringLiteral(" (too few: offsets must be reprogrammed between phases)"))
      << "; " << budget.lids << " of 49151 LIDs, " << (budget.fits ? "fits" : "DOES NOT FIT") << "; largest LMC that fits: "
      << plan->maxLmc << "\n";
    s << "Static path-indexed offsets: " << plan->staticPaths << " paths need LMC " << plan->staticLmc << ", "
      << (plan->staticFits ? "fits" : "does not fit") << "\n\n";
    s << QStringLiteral("%1 %2 %3 %4 %5  %6  %7  %8\n")
             .arg(QStringLiteral("phase"), -10).arg(QStringLiteral("offset"), 6).arg(QStringLiteral("flows"), 6)
             .arg(QStringLiteral("Δ"), 4).arg(QStringLiteral("slots"), 5).arg(QStringLiteral("DmodK max/mean"), 15)
             .arg(QStringLiteral("keyed max/mean"), 15).arg(QStringLiteral("intra max"), 9);
    for (const PhaseKeys &r : reports) {
        s << QStringLiteral("%1 %2 %3 %4 %5  %6  %7  %8%9\n")
                 .arg(r.phase.name, -10).arg(r.offset, 6).arg(r.flows, 6).arg(r.delta, 4).arg(r.slots, 5)
                 .arg(QStringLiteral("%1/%2").arg(r.dmodk.max).arg(r.dmodk.mean, 0, 'f', 3), 15)
                 .arg(QStringLiteral("%1/%2").arg(r.keyed.max).arg(r.keyed.mean, 0, 'f', 3), 15)
                 .arg(r.keyed.maxIntra, 9).arg(r.contentionFree ? QString() : QStringLiteral("  not contention-free"));
    }
    s << "\nKeys per application (offset = phase + 1, DLID = base LID + offset):\n";
    for (std::size_t a = 0; a < placement.size(); ++a) {
        QStringList hosts;
        for (int h : placement[a])
            hosts << QString::number(h);
        s << "  app " << a << ": " << phases.size() << " keys, offsets 1.." << phases.size() << ", hosts " << hosts.join(QLatin1Char(','));
        if (!nrk)
            s << ", rotation " << rotations[a];
        s << "\n";
    }
    for (const PhaseKeys &r : reports)
        for (const QString &w : r.warnings)
            s << "warning: " << r.phase.name << ": " << w << "\n";
    if (parser.isSet(QStringLiteral("paths")))
        for (const PhaseKeys &r : reports)
            for (std::size_t a = 0; a < r.keys.size(); ++a) {
                s << "\n" << r.phase.name << ", app " << a << ":\n";
                for (const QString &line : keyPaths(shape, r.keys[a], appLabel))
                    s << "  " << line << "\n";
            }
    s.flush();
    return kExitOk;
}

}  // namespace weft::cli
