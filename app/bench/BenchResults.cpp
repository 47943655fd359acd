// weft bench results: the seeds' headline results, recomputed. Each section below builds the
// paper's setup (or the product benchmark protocol of spec 003 §6 where the paper gives none)
// from the generator, runs Weft's stages on it and returns rows; nothing here computes a
// routing, a rate or a cost itself. RESULTS.md explains every row.

#include "BenchResults.h"

#include "BenchHarness.h"
#include "CliSupport.h"
#include "Commands.h"
#include "EffectiveBisection.h"
#include "FabricGenerator.h"
#include "FluidThroughput.h"
#include "KeyPlan.h"
#include "Metrics.h"
#include "MetabaseRouting.h"
#include "PartitionAwareFatTree.h"
#include "RoutingEngine.h"
#include "SlimUpdate.h"
#include "VSwitchFatTree.h"
#include "VSwitchMigration.h"
#include "Virtualisation.h"
#include "WhatIf.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>

namespace weft::cli {

namespace {

const QString kSeedPftree = QStringLiteral("000 pFTree");
const QString kSeedVswitch = QStringLiteral("001 vSwitch");
const QString kSeedPsssp = QStringLiteral("002 P-SSSP");
const QString kSeedThesis = QStringLiteral("003 thesis");
const QString kSeedKeys = QStringLiteral("004 routing keys");

// A uniform draw below `bound` from mt19937_64 by our own mapping (the standard distributions
// differ between libraries; the raw engine does not).
std::uint64_t draw(std::mt19937_64 &random, std::uint64_t bound)
{
    return random() % bound;
}

// `count` of `items` picked without replacement, in their original order.
std::vector<int> pick(std::vector<int> items, int count, std::mt19937_64 &random)
{
    for (std::size_t i = items.size(); i > 1; --i)
        std::swap(items[i - 1], items[std::size_t(draw(random, i))]);
    items.resize(std::size_t(count));
    std::sort(items.begin(), items.end());
    return items;
}

Result<GeneratedFabric> xgftFabric(const QString &spec, bool hypervisors = false, int vfs = 0)
{
    Result<XgftShape> shape = parseXgft(spec);
    if (!shape)
        return shape.error();
    GeneratorOptions options;
    options.shape = FabricShapeKind::Xgft;
    options.xgft = *shape;
    options.hypervisors = hypervisors;
    options.vfsPerHypervisor = vfs;
    return generateFabric(options);
}

Result<GeneratedFabric> radixFabric(int radix, int levels, int removeLinks = 0, bool hypervisors = false, int vfs = 0)
{
    GeneratorOptions options;
    options.shape = FabricShapeKind::SwitchRadix;
    options.radix = radix;
    options.levels = levels;
    options.removeRandomLinks = removeLinks;
    options.seed = 1;
    options.hypervisors = hypervisors;
    options.vfsPerHypervisor = vfs;
    return generateFabric(options);
}

PortIndex hostPort(const GeneratedFabric &g, int host)
{
    return g.fabric.portOf(g.hosts[std::size_t(host)], 1);
}

Partition fullPartition(const QString &name, std::uint16_t pkey, IsolationPolicy policy, const GeneratedFabric &g,
                        const std::vector<int> &hosts)
{
    Partition p;
    p.name = name;
    p.pkey = pkey;
    p.policy = policy;
    p.defaultMembership = Membership::Full;
    for (int h : hosts) {
        PartitionMember m;
        m.guid = g.fabric.port(hostPort(g, h)).guid;
        m.membership = Membership::Full;
        m.explicitMembership = true;
        p.members.push_back(m);
    }
    return p;
}

// pFTree as the paper's baseline (Algorithm::Base), pFTree-Ext as `weft route --engine pftree`.
Result<Routing> routeWith(const QString &engine, const Fabric &fabric, const Tenancy &tenancy)
{
    if (engine == QLatin1String("pftree-base")) {
        PartitionAwareFatTreeEngine base(PartitionAwareFatTreeEngine::Algorithm::Base);
        if (Status s = base.prepare(fabric, tenancy, {}); !s)
            return s.error();
        return base.route({});
    }
    return routeFabric(engine, fabric, tenancy);
}

// Σ of the rates of flows [0, count) when all `flows` run together, or with `slowest` the
// least of them (what an all-to-all waits for).
Result<double> rateOfFirst(const Fabric &fabric, const ForwardingTables &tables, const std::vector<FluidFlow> &flows,
                           std::size_t count, bool slowest = false)
{
    Result<FluidThroughput> r = fluidThroughput(fabric, tables, flows);
    if (!r)
        return r.error();
    double sum = 0;
    double least = count ? r->rates[0] : 0;
    for (std::size_t i = 0; i < count; ++i) {
        sum += r->rates[i];
        least = std::min(least, r->rates[i]);
    }
    return slowest ? least : sum;
}

std::vector<FluidFlow> allToAll(const GeneratedFabric &g, const std::vector<int> &hosts)
{
    std::vector<FluidFlow> flows;
    flows.reserve(hosts.size() * hosts.size());
    for (int a : hosts)
        for (int b : hosts)
            if (a != b)
                flows.push_back({hostPort(g, a), hostPort(g, b), 1});
    return flows;
}

// ---- seed 000: pFTree ----------------------------------------------------------------------

// Fig. 5/7: the victim A→E alone, with B→F, with B→F and I→F, as a fraction of its rate alone.
Status pftreeFig7(std::vector<HeadlineRow> &rows, bool /*quick: the paper's tree is small enough*/)
{
    Result<GeneratedFabric> g = xgftFabric(QStringLiteral("2;3,3;2,1"));  // 2 roots, 3 leaves × 3 hosts
    if (!g)
        return g.error();
    enum { A,
           B,
           C,
           D,
           E,
           F,
           G,
           H,
           I };
    const QString setup = QStringLiteral("Fig. 5 tree (2 roots, 3 leaves of A-C, D-F, G-I), 4x QDR; P1 {A,E}, P2 {B,F,I}, "
                                         "P3 {C,D,G,H}; fluid max-min rates");
    const std::vector<FluidFlow> victim{{hostPort(*g, A), hostPort(*g, E), 1}};
    const FluidFlow bf{hostPort(*g, B), hostPort(*g, F), 1};
    const FluidFlow i_f{hostPort(*g, I), hostPort(*g, F), 1};
    struct Variant
    {
        const char *engine;
        IsolationPolicy p1;
        const char *id;
        const char *name;
    };
    const Variant variants[] = {{"pftree-base", IsolationPolicy::Default, "pftree", "pFTree"},
                                {"pftree", IsolationPolicy::Physical, "pftree-ext", "pFTree-Ext (P1 phy)"},
                                {"ftree", IsolationPolicy::Default, "ftree", "ftree"}};
    for (const Variant &v : variants) {
        Tenancy tenancy;
        tenancy.partitions = {fullPartition(QStringLiteral("P1"), 1, v.p1, *g, {A, E}),
                              fullPartition(QStringLiteral("P2"), 2, IsolationPolicy::Default, *g, {B, F, I}),
                              fullPartition(QStringLiteral("P3"), 3, IsolationPolicy::Default, *g, {C, D, G, H})};
        Result<Routing> routing = routeWith(QString::fromLatin1(v.engine), g->fabric, tenancy);
        if (!routing)
            return routing.error();
        Result<double> alone = rateOfFirst(g->fabric, routing->tables, victim, 1);
        Result<double> one = rateOfFirst(g->fabric, routing->tables, {victim[0], bf}, 1);
        Result<double> two = rateOfFirst(g->fabric, routing->tables, {victim[0], bf, i_f}, 1);
        if (!alone || !one || !two)
            return Error{{}, 0, QStringLiteral("fluid model failed on the Fig. 5 tree")};
        const QString engine = QString::fromLatin1(v.name);
        const bool base = QLatin1String(v.id) == QLatin1String("pftree");
        const bool ext = QLatin1String(v.id) == QLatin1String("pftree-ext");
        const QString paperOne = base ? QStringLiteral("0.607 (2270 of 3742 MB/s, measured on 4x QDR, OpenSM 3.3.16)")
            : ext                     ? QStringLiteral("1.0 (3742 MB/s throughout)")
                                      : QStringLiteral("not measured (ftree appears only qualitatively, Fig. 3)");
        const QString paperTwo = base ? QStringLiteral("0.406 (~1518 of 3742 MB/s)")
            : ext                     ? QStringLiteral("1.0 (3742 MB/s throughout)")
                                      : QStringLiteral("not measured");
        rows.push_back({kSeedPftree, QStringLiteral("%1-fig7-victim-with-bf").arg(QLatin1String(v.id)),
                        QStringLiteral("%1: victim A→E's rate with B→F running, ÷ its rate alone").arg(engine), paperOne, setup,
                        *one / *alone, QStringLiteral("fraction"), 0.001, true});
        rows.push_back({kSeedPftree, QStringLiteral("%1-fig7-victim-with-bf-if").arg(QLatin1String(v.id)),
                        QStringLiteral("%1: victim A→E's rate with B→F and I→F running, ÷ its rate alone").arg(engine), paperTwo,
                        setup, *two / *alone, QStringLiteral("fraction"), 0.001, true});
    }
    return Done{};
}

// Table 3 / Fig. 10: a victim partition (25 % of the hosts, spread evenly over the leaves)
// runs all-to-all; the rest run all-to-all as noise. The victim's slowest flow with noise ÷
// without ("null"), per engine: an all-to-all ends when its slowest flow does, so this is the
// inverse of the paper's delay ratio.
Status pftreeTable3(std::vector<HeadlineRow> &rows, bool quick)
{
    // Weft's XGFT notation (roots first): 4:1 trees of Table 3.
    const QString spec = quick ? QStringLiteral("2;4,16;4,1") : QStringLiteral("2;16,64;16,1");
    const QString label = quick ? QStringLiteral("64 nodes, XGFT(2;16,4;1,4), 4:1") : QStringLiteral("1024 nodes, XGFT(2;64,16;1,16), 4:1");
    Result<GeneratedFabric> g = xgftFabric(spec);
    if (!g)
        return g.error();
    const int perLeaf = g->xgft.children.back();
    const int leaves = int(g->hosts.size()) / perLeaf;
    std::mt19937_64 random(1);
    std::vector<int> victims, others;
    for (int leaf = 0; leaf < leaves; ++leaf) {
        std::vector<int> onLeaf;
        for (int i = 0; i < perLeaf; ++i)
            onLeaf.push_back(leaf * perLeaf + i);
        const std::vector<int> chosen = pick(onLeaf, perLeaf / 4, random);
        const std::set<int> chosenSet(chosen.begin(), chosen.end());
        for (int h : onLeaf)
            (chosenSet.count(h) ? victims : others).push_back(h);
    }
    const std::vector<FluidFlow> victimFlows = allToAll(*g, victims);
    std::vector<FluidFlow> noisy = victimFlows;
    const std::vector<FluidFlow> noise = allToAll(*g, others);
    noisy.insert(noisy.end(), noise.begin(), noise.end());
    const QString setup = QStringLiteral("%1; %2 victims (random, %3 per leaf) all-to-all, the other %4 all-to-all as noise; fluid")
                              .arg(label)
                              .arg(victims.size())
                              .arg(perLeaf / 4)
                              .arg(others.size());
    struct Variant
    {
        const char *engine;
        IsolationPolicy victimPolicy;
        const char *id;
        const char *name;
        const char *paper;
    };
    const Variant variants[] = {
        {"pftree-base", IsolationPolicy::Default, "pftree", "pFTree",
         "≈0.5 (Fig. 10: all-to-all victim delay noisy ≈ 2× null on most topologies; ORCS, 1024 nodes 4:1)"},
        {"pftree", IsolationPolicy::Physical, "pftree-ext", "pFTree-Ext (victim phy)",
         "1.0 (Fig. 10: \"no change vs. null\" on all topologies)"},
        {"ftree", IsolationPolicy::Default, "ftree", "ftree", "not in the paper (its baseline is pFTree)"}};
    for (const Variant &v : variants) {
        Tenancy tenancy;
        tenancy.partitions = {fullPartition(QStringLiteral("victim"), 1, v.victimPolicy, *g, victims),
                              fullPartition(QStringLiteral("noise"), 2, IsolationPolicy::Default, *g, others)};
        Result<Routing> routing = routeWith(QString::fromLatin1(v.engine), g->fabric, tenancy);
        if (!routing)
            return routing.error();
        Result<double> null = rateOfFirst(g->fabric, routing->tables, victimFlows, victimFlows.size(), true);
        Result<double> withNoise = rateOfFirst(g->fabric, routing->tables, noisy, victimFlows.size(), true);
        if (!null)
            return null.error();
        if (!withNoise)
            return withNoise.error();
        rows.push_back({kSeedPftree, QStringLiteral("%1-table3-victim-noisy-vs-null").arg(QLatin1String(v.id)),
                        QStringLiteral("%1: victim all-to-all's slowest flow with all-to-all noise ÷ without (1 ÷ delay ratio)").arg(QLatin1String(v.name)),
                        QString::fromUtf8(v.paper), setup, *withNoise / *null, QStringLiteral("fraction"), 0.001, true});
    }
    return Done{};
}

// ---- seed 001: vSwitch ---------------------------------------------------------------------

Status vswitchRows(std::vector<HeadlineRow> &rows, bool quick)
{
    // Table 2's full-RC SMPs: every switch's LFT blocks in use, on the plain tree.
    Result<GeneratedFabric> plain = quick ? xgftFabric(QStringLiteral("2;18,18;18,1")) : radixFabric(36, 3);
    if (!plain)
        return plain.error();
    const QString size = quick ? QStringLiteral("324 nodes, 36 switches") : QStringLiteral("11,664 nodes, 1,620 switches");
    const double fullSmps = double(plain->fabric.switches().size()) * lftBlocksInUse(int(plain->fabric.maxLid()));
    rows.push_back({kSeedVswitch, QStringLiteral("vswitch-table2-full-rc-smps"),
                    QStringLiteral("Table 2: SMPs of a full re-configuration (every switch's LFT blocks in use)"),
                    quick ? QStringLiteral("216 (324 nodes)") : QStringLiteral("336,960 (11,664 nodes)"),
                    QStringLiteral("%1, LIDs switches then hosts (%2)").arg(size, plain->summary), fullSmps, QStringLiteral("SMPs"), 0, true});

    // The same tree as hypervisors (2 VFs, prepopulated LIDs), routed by vswitch-ftree.
    Result<GeneratedFabric> g = quick ? xgftFabric(QStringLiteral("2;18,18;18,1"), true, 2) : radixFabric(36, 3, 0, true, 2);
    if (!g)
        return g.error();
    Result<VirtualisedFabric> virt = findHypervisors(g->fabric);
    if (!virt)
        return virt.error();
    Result<PhysicalTree> tree = buildPhysicalTree(g->fabric, *virt);
    if (!tree)
        return tree.error();
    VSwitchRoutingOptions routingOptions;
    routingOptions.vSwitchTables = false;
    Result<VSwitchRouting> routed = routeVSwitchFatTree(g->fabric, *virt, *tree, routingOptions);
    if (!routed)
        return routed.error();
    const ForwardingTables &tables = routed->routing.tables;
    const int hyps = int(virt->hypervisors.size());
    auto plan = [&](int from, int to, ReconfigurationMethod method) {
        MigrationRequest request;
        request.hypervisor = from;
        request.vf = 0;
        request.destination = to;
        request.destinationVf = 1;
        request.scheme = LidScheme::Prepopulated;
        request.method = method;
        return planMigration(g->fabric, *virt, *tree, tables, request);
    };
    // Worst case: first to last leaf.
    Result<MigrationPlan> itrc = plan(0, hyps - 1, ReconfigurationMethod::ItRC);
    if (!itrc)
        return itrc.error();
    Result<MigrationPlan> minrc = plan(0, hyps - 1, ReconfigurationMethod::FTreeMinRC);
    if (!minrc)
        return minrc.error();
    const QString hypSetup = QStringLiteral("%1 as hypervisors, 2 VFs each, prepopulated LIDs, vswitch-ftree; VM moved from the "
                                            "first to the last hypervisor")
                                 .arg(size);
    rows.push_back({kSeedVswitch, QStringLiteral("vswitch-table2-worst-swap-smps"),
                    QStringLiteral("Table 2: SMPs of a LID swap (ItRC), worst case"),
                    quick ? QStringLiteral("72 (324 nodes)") : QStringLiteral("3,240 (11,664 nodes)"), hypSetup, double(itrc->smps),
                    QStringLiteral("SMPs"), 0, true});
    rows.push_back({kSeedVswitch, QStringLiteral("vswitch-table2-reduction"),
                    QStringLiteral("Table 2: SMP reduction of the worst-case swap against a full re-configuration"),
                    quick ? QStringLiteral("66.7 % (72 of 216)") : QStringLiteral("99.04 % (3,240 of 336,960)"), hypSetup,
                    100.0 * (1.0 - double(itrc->smps) / fullSmps), QStringLiteral("%"), 0.01, true});
    rows.push_back({kSeedVswitch, QStringLiteral("vswitch-table3-marked"),
                    QStringLiteral("Table 3: switches FTreeMinRC marks for an edge-to-edge migration"),
                    quick ? QStringLiteral("20 (spec 001 §6.4's count, 2 leaves + every root, for this 2-level tree; Table 3 has 3-level trees only)")
                          : QStringLiteral("362 (spec 001 §6.4, derived: 2 leaves + 2×18 + 324 roots)"),
                    hypSetup, double(minrc->marked.size()), QStringLiteral("switches"), 0, true});
    rows.push_back({kSeedVswitch, QStringLiteral("vswitch-table3-marking-ms"),
                    QStringLiteral("Table 3: FTreeMinRC's time to mark them (one run, this machine)"),
                    QStringLiteral("3.4 ms (11,664 nodes; 3 ms at 5,832)"), hypSetup, minrc->markingSeconds * 1000,
                    QStringLiteral("ms"), 0, false});

    // Fig. 8(a): switches updated, FTreeMinRC against ItRC, over random single migrations.
    std::mt19937_64 random(7);
    const int migrations = quick ? 64 : 256;
    double minrcSum = 0, itrcSum = 0;
    int minrcMax = 0, itrcMax = 0;
    for (int i = 0; i < migrations; ++i) {
        const int from = int(draw(random, std::uint64_t(hyps)));
        int to = from;
        while (to == from)
            to = int(draw(random, std::uint64_t(hyps)));
        Result<MigrationPlan> a = plan(from, to, ReconfigurationMethod::FTreeMinRC);
        Result<MigrationPlan> b = plan(from, to, ReconfigurationMethod::ItRC);
        if (!a)
            return a.error();
        if (!b)
            return b.error();
        minrcSum += a->switchesTouched;
        itrcSum += b->switchesTouched;
        minrcMax = std::max(minrcMax, a->switchesTouched);
        itrcMax = std::max(itrcMax, b->switchesTouched);
    }
    const QString randomSetup = QStringLiteral("%1 as hypervisors (2 VFs, prepopulated), %2 random migrations from the initial "
                                               "routing (mt19937_64 seed 7)")
                                    .arg(size)
                                    .arg(migrations);
    rows.push_back({kSeedVswitch, QStringLiteral("vswitch-fig8a-ftreeminrc-mean-switches"),
                    QStringLiteral("Fig. 8(a): switches updated per migration, FTreeMinRC, mean"),
                    QStringLiteral("lower mean and max than ItRC (no figure values published)"), randomSetup,
                    minrcSum / migrations, QStringLiteral("switches"), 0.01, true});
    rows.push_back({kSeedVswitch, QStringLiteral("vswitch-fig8a-itrc-mean-switches"),
                    QStringLiteral("Fig. 8(a): switches updated per migration, ItRC, mean"),
                    QStringLiteral("higher than FTreeMinRC (no figure values published)"), randomSetup, itrcSum / migrations,
                    QStringLiteral("switches"), 0.01, true});
    return Done{};
}

// ---- seed 002: P-SSSP ----------------------------------------------------------------------

Status pssspRows(std::vector<HeadlineRow> &rows, bool quick)
{
    const int radix = quick ? 12 : 24;
    const int levels = quick ? 2 : 3;
    const int removed = quick ? 6 : 60;
    const int samples = quick ? 1000 : 4000;
    Result<GeneratedFabric> g = radixFabric(radix, levels, removed);
    if (!g)
        return g.error();
    const QString setup = QStringLiteral("%1; one-way random bisections, %2 samples (seed 1), link rates equal").arg(g->summary).arg(samples);
    double ebb[2] = {0, 0};
    const char *engines[] = {"minhop", "sssp"};
    for (int e = 0; e < 2; ++e) {
        Result<Routing> routing = routeFabric(QString::fromLatin1(engines[e]), g->fabric, {});
        if (!routing)
            return routing.error();
        EbbModel model;
        model.linkRates = false;
        Result<EffectiveBisection> prepared = EffectiveBisection::prepare(g->fabric, routing->tables, {}, model);
        if (!prepared)
            return prepared.error();
        EbbRun run;
        run.samples = samples;
        run.threads = 2;
        Result<EbbResult> r = prepared->run(run);
        if (!r)
            return r.error();
        ebb[e] = r->mean;
    }
    rows.push_back({kSeedPsssp, QStringLiteral("psssp-degraded-ebb-minhop"), QStringLiteral("eBB of minhop on a degraded fat-tree"),
                    QStringLiteral("the baseline (OpenSM 3.2.2's best engine per system)"), setup, ebb[0], QStringLiteral("Λ"), 0.0005, true});
    rows.push_back({kSeedPsssp, QStringLiteral("psssp-degraded-ebb-sssp"), QStringLiteral("eBB of P-SSSP (sssp) on the same fabric"),
                    QStringLiteral("higher than every OpenSM engine (Fig. 4(a), 4(c))"), setup, ebb[1], QStringLiteral("Λ"), 0.0005, true});
    rows.push_back({kSeedPsssp, QStringLiteral("psssp-degraded-ebb-gain"), QStringLiteral("P-SSSP's eBB gain over minhop"),
                    QStringLiteral("+5 % (Odin) to +25 % (Ranger) simulated; +18 % / +40 % measured (Odin 128, Deimos 724 endpoints)"),
                    setup, 100.0 * (ebb[1] / ebb[0] - 1.0), QStringLiteral("%"), 0.1, true});
    return Done{};
}

// ---- seed 003: the thesis ------------------------------------------------------------------

// R1's fabric: a 2-level tree of 36-port switches (the protocol's switch, spec 003 §6), 2:1
// oversubscribed; quick, 12-port leaves.
Result<GeneratedFabric> heavyReceiverFabric(bool quick)
{
    return xgftFabric(quick ? QStringLiteral("2;8,8;4,1") : QStringLiteral("2;36,24;12,1"));
}

// R1's receivers: a quarter of each leaf's hosts, at random (seed 1), per leaf; the other hosts
// in `senders`.
std::vector<std::vector<int>> heavyReceivers(const GeneratedFabric &g, std::vector<std::vector<int>> *senders = nullptr)
{
    const int perLeaf = g.xgft.children.back();
    const int leaves = int(g.hosts.size()) / perLeaf;
    std::mt19937_64 random(1);
    std::vector<std::vector<int>> receivers(static_cast<std::size_t>(leaves));
    if (senders)
        senders->assign(static_cast<std::size_t>(leaves), {});
    for (int leaf = 0; leaf < leaves; ++leaf) {
        std::vector<int> onLeaf;
        for (int i = 0; i < perLeaf; ++i)
            onLeaf.push_back(leaf * perLeaf + i);
        const std::vector<int> chosen = pick(onLeaf, perLeaf / 4, random);
        const std::set<int> chosenSet(chosen.begin(), chosen.end());
        for (int h : onLeaf) {
            if (chosenSet.count(h))
                receivers[std::size_t(leaf)].push_back(h);
            else if (senders)
                (*senders)[std::size_t(leaf)].push_back(h);
        }
    }
    return receivers;
}

// R1: heavy receivers (storage) on R1's fabric, each written to by one host of the next leaf.
// Total fluid throughput, wftree (receivers weighted 100) against ftree.
Status wftreeRows(std::vector<HeadlineRow> &rows, bool quick)
{
    Result<GeneratedFabric> g = heavyReceiverFabric(quick);
    if (!g)
        return g.error();
    const int perLeaf = g->xgft.children.back();
    const int leaves = int(g->hosts.size()) / perLeaf;
    const int heavyPerLeaf = perLeaf / 4;
    std::vector<std::vector<int>> senders;
    const std::vector<std::vector<int>> receivers = heavyReceivers(*g, &senders);
    std::vector<FluidFlow> flows;
    Tenancy weighted;
    int receiverCount = 0;
    for (int leaf = 0; leaf < leaves; ++leaf) {
        const std::vector<int> &to = receivers[std::size_t(leaf)];
        const std::vector<int> &from = senders[std::size_t((leaf + 1) % leaves)];
        for (std::size_t i = 0; i < to.size(); ++i) {
            weighted.nodeWeights[g->fabric.port(hostPort(*g, to[i])).guid] = 100;
            flows.push_back({hostPort(*g, from[i]), hostPort(*g, to[i]), 1});
            ++receiverCount;
        }
    }
    double normalized[2] = {0, 0};
    const char *engines[] = {"ftree", "wftree"};
    for (int e = 0; e < 2; ++e) {
        Result<Routing> routing = routeFabric(QString::fromLatin1(engines[e]), g->fabric, weighted);
        if (!routing)
            return routing.error();
        Result<FluidThroughput> t = fluidThroughput(g->fabric, routing->tables, flows);
        if (!t)
            return t.error();
        normalized[e] = t->normalized;
    }
    const QString setup = QStringLiteral("%1 (2:1); %2 heavy receivers (%3 per leaf, random, weight 100), each written to by "
                                         "one host of the next leaf; fluid max-min")
                              .arg(g->summary)
                              .arg(receiverCount)
                              .arg(heavyPerLeaf);
    rows.push_back({kSeedThesis, QStringLiteral("wftree-heavy-receivers-ftree"), QStringLiteral("R1: normalized throughput, ftree"),
                    QStringLiteral("the baseline (OpenSM ftree)"), setup, normalized[0], QStringLiteral("fraction"), 0.001, true});
    rows.push_back({kSeedThesis, QStringLiteral("wftree-heavy-receivers-wftree"), QStringLiteral("R1: normalized throughput, wFTree"),
                    QStringLiteral("not published (only the gain, below)"), setup, normalized[1], QStringLiteral("fraction"), 0.001, true});
    rows.push_back({kSeedThesis, QStringLiteral("wftree-heavy-receivers-gain"), QStringLiteral("R1: wFTree's throughput gain over ftree"),
                    QStringLiteral("up to +60 % \"for large fat-trees\" (flit-level OMNeT++; sizes and traffic not published)"), setup,
                    100.0 * (normalized[1] / normalized[0] - 1.0), QStringLiteral("%"), 0.1, true});
    return Done{};
}

// R2, the second scenario (Paper IV's own: a performance-driven change): R1's fabric with
// wftree installed for equal weights; R1's receivers become heavy (weight 100). SlimUpdate
// (τ = 0) against wftree from scratch: paths changed and the maximum link load of each.
Status slimUpdateWeightRows(std::vector<HeadlineRow> &rows, bool quick)
{
    Result<GeneratedFabric> g = heavyReceiverFabric(quick);
    if (!g)
        return g.error();
    Result<Routing> installed = routeFabric(QStringLiteral("wftree"), g->fabric, {});
    if (!installed)
        return installed.error();
    Tenancy weighted;
    int heavy = 0;
    for (const std::vector<int> &onLeaf : heavyReceivers(*g))
        for (int h : onLeaf) {
            weighted.nodeWeights[g->fabric.port(hostPort(*g, h)).guid] = 100;
            ++heavy;
        }
    Result<Reconfiguration> slim = slimUpdate(g->fabric, installed->tables, weighted);
    if (!slim)
        return slim.error();
    if (!slim->hasFullReroute)
        return Error{{}, 0, QStringLiteral("no full re-route to compare SlimUpdate with: %1").arg(slim->fullRerouteError)};
    const QString setup = QStringLiteral("%1, wftree installed for equal weights; %2 heavy receivers (R1's, weight 100); "
                                         "SlimUpdate (τ = 0) against wftree from scratch, ΔP over all host pairs, max link "
                                         "load of partition-all-to-all weighted by destination")
                              .arg(g->summary)
                              .arg(heavy);
    const double dpSlim = double(slim->cost.pathModifications);
    const double dpFull = double(slim->fullRerouteCost.pathModifications);
    rows.push_back({kSeedThesis, QStringLiteral("slimupdate-weight-change-path-changes"),
                    QStringLiteral("R2 (weight-change): path modifications, SlimUpdate"), QStringLiteral("not published (only the saving, below)"),
                    setup, dpSlim, QStringLiteral("pairs"), 0, true});
    rows.push_back({kSeedThesis, QStringLiteral("slimupdate-weight-change-path-changes-full"),
                    QStringLiteral("R2 (weight-change): path modifications, full re-route (wftree)"), QStringLiteral("the traditional re-route"),
                    setup, dpFull, QStringLiteral("pairs"), 0, true});
    rows.push_back({kSeedThesis, QStringLiteral("slimupdate-weight-change-saving"),
                    QStringLiteral("R2 (weight-change): fewer path modifications with SlimUpdate"),
                    QStringLiteral("up to 80 % (\"experiments and simulations\", setups not published)"), setup,
                    dpFull > 0 ? 100.0 * (1.0 - dpSlim / dpFull) : 0, QStringLiteral("%"), 0.01, true});
    rows.push_back({kSeedThesis, QStringLiteral("slimupdate-weight-change-max-load"),
                    QStringLiteral("R2 (weight-change): max link load, SlimUpdate"), QStringLiteral("\"without any performance penalty\" (Paper IV's abstract)"),
                    setup, computeMetrics(g->fabric, weighted, slim->proposal.tables).allLoad.max, QStringLiteral("load"), 0, true});
    rows.push_back({kSeedThesis, QStringLiteral("slimupdate-weight-change-max-load-full"),
                    QStringLiteral("R2 (weight-change): max link load, full re-route (wftree)"), QStringLiteral("the traditional re-route"),
                    setup, computeMetrics(g->fabric, weighted, slim->fullReroute.tables).allLoad.max, QStringLiteral("load"), 0, true});
    return Done{};
}

// R2 and R3: SlimUpdate after a link failure, and the metabase on successive runs, each against
// a full ftree re-route of the same change.
Status reconfigurationRows(std::vector<HeadlineRow> &rows, bool quick)
{
    const int radix = quick ? 12 : 36;
    Result<GeneratedFabric> g = radixFabric(radix, 2);
    if (!g)
        return g.error();
    const Fabric &fabric = g->fabric;
    Result<Routing> installed = routeFabric(QStringLiteral("ftree"), fabric, {});
    if (!installed)
        return installed.error();

    // R2, two events: the first leaf's first up-link fails; the first host is removed.
    const NodeIndex leaf = fabric.port(fabric.port(hostPort(*g, 0)).remote).node;
    WhatIf linkFails;
    linkFails.failedLinkPorts.push_back({fabric.node(leaf).guid, radix / 2 + 1});
    WhatIf hostRemoved;
    hostRemoved.removedHosts.push_back(fabric.node(g->hosts.front()).guid);
    struct Scenario
    {
        const char *id;
        const WhatIf *whatIf;
        const char *baseline;
    };
    // ftree refuses the tree with a missing link (OpenSM's then falls back to minhop); wftree
    // with equal weights is ftree's algorithm from scratch on it, the configuration-oblivious
    // re-route. A removed host leaves a tree ftree routes.
    const Scenario scenarios[] = {{"link-failure", &linkFails, "wftree"}, {"host-removal", &hostRemoved, "ftree"}};
    for (const Scenario &sc : scenarios) {
        Result<Fabric> after = applyWhatIf(fabric, *sc.whatIf);
        if (!after)
            return after.error();
        SlimUpdateOptions slimOptions;
        slimOptions.baselineEngine = QString::fromLatin1(sc.baseline);
        Result<Reconfiguration> slim = slimUpdate(fabric, installed->tables, *after, {}, slimOptions);
        if (!slim)
            return slim.error();
        if (!slim->hasFullReroute)
            return Error{{}, 0, QStringLiteral("no full re-route to compare SlimUpdate with: %1").arg(slim->fullRerouteError)};
        const QString baseline = QLatin1String(sc.baseline) == QLatin1String("wftree") ? QStringLiteral("wftree (equal weights)") : QStringLiteral("ftree");
        const QString slimSetup = QStringLiteral("%1, ftree installed; %2; SlimUpdate (τ = 0) against %3 from scratch, "
                                                 "ΔP over all host pairs")
                                      .arg(g->summary, sc.whatIf->describe(fabric), baseline);
        const double dpSlim = double(slim->cost.pathModifications);
        const double dpFull = double(slim->fullRerouteCost.pathModifications);
        const QString id = QString::fromLatin1(sc.id);
        if (!sc.whatIf->failedLinkPorts.empty()) {
            // The paths the failure forces: the installed tables walked on the fabric after it
            // differ from themselves exactly where a path crossed the failed cable.
            const double forced = double(reconfigurationCost(fabric, installed->tables, *after, installed->tables).pathModifications);
            rows.push_back({kSeedThesis, QStringLiteral("slimupdate-%1-forced-paths").arg(id),
                            QStringLiteral("R2 (%1): paths the failure forces (they crossed the failed cable)").arg(id),
                            QStringLiteral("not published"), slimSetup, forced, QStringLiteral("pairs"), 0, true});
            rows.push_back({kSeedThesis, QStringLiteral("slimupdate-%1-max-load").arg(id),
                            QStringLiteral("R2 (%1): max link load, SlimUpdate").arg(id), QStringLiteral("\"without any performance penalty\" (Paper IV's abstract)"),
                            slimSetup, computeMetrics(*after, {}, slim->proposal.tables).allLoad.max, QStringLiteral("load"), 0, true});
            rows.push_back({kSeedThesis, QStringLiteral("slimupdate-%1-max-load-full").arg(id),
                            QStringLiteral("R2 (%1): max link load, full re-route (%2)").arg(id, baseline), QStringLiteral("the baseline (OpenSM ftree)"),
                            slimSetup, computeMetrics(*after, {}, slim->fullReroute.tables).allLoad.max, QStringLiteral("load"), 0, true});
        }
        rows.push_back({kSeedThesis, QStringLiteral("slimupdate-%1-path-changes").arg(id),
                        QStringLiteral("R2 (%1): path modifications, SlimUpdate").arg(id), QStringLiteral("not published (only the saving, below)"), slimSetup, dpSlim,
                        QStringLiteral("pairs"), 0, true});
        rows.push_back({kSeedThesis, QStringLiteral("slimupdate-%1-path-changes-full").arg(id),
                        QStringLiteral("R2 (%1): path modifications, full re-route (%2)").arg(id, baseline),
                        QStringLiteral("the baseline (OpenSM ftree)"), slimSetup, dpFull, QStringLiteral("pairs"), 0, true});
        rows.push_back({kSeedThesis, QStringLiteral("slimupdate-%1-saving").arg(id),
                        QStringLiteral("R2 (%1): fewer path modifications with SlimUpdate").arg(id),
                        QStringLiteral("up to 80 % (\"experiments and simulations\", setups not published)"), slimSetup,
                        dpFull > 0 ? 100.0 * (1.0 - dpSlim / dpFull) : 0, QStringLiteral("%"), 0.01, true});
    }

    if (Status s = slimUpdateWeightRows(rows, quick); !s)
        return s.error();

    // R3: successive runs without a topology change: the first computes and stores phase 1,
    // the second (new weights) reuses it. Routing time against ftree's, measured in one run.
    Metabase metabase;
    MetabaseOptions metaOptions;
    metaOptions.policy = SlotPolicy::Sticky;
    metaOptions.baselineEngine = QStringLiteral("ftree");
    Result<MetabaseRun> first = metabase.reroute(fabric, installed->tables, Tenancy{}, metaOptions);
    if (!first)
        return first.error();
    Tenancy reweighted;
    for (std::size_t h = 0; h < g->hosts.size(); h += 7)
        reweighted.nodeWeights[fabric.port(hostPort(*g, int(h))).guid] = 10;
    // The median of several successive runs, each beside its own ftree re-route.
    std::vector<double> ratios;
    for (int run = 0; run < (quick ? 5 : 9); ++run) {
        Result<MetabaseRun> next = metabase.reroute(fabric, installed->tables, reweighted, metaOptions);
        if (!next)
            return next.error();
        if (!next->hit || !next->reconfiguration.hasFullReroute || next->reconfiguration.fullRerouteNanoseconds <= 0)
            return Error{{}, 0, QStringLiteral("the metabase's successive run did not reuse phase 1 or had no ftree beside it")};
        // The whole proposal: fingerprint, lookup and phase 2 (T_calc is 0 on a hit).
        ratios.push_back(double(next->reconfiguration.proposalNanoseconds) / double(next->reconfiguration.fullRerouteNanoseconds));
    }
    const double ratio = medianOf(ratios);
    rows.push_back({kSeedThesis, QStringLiteral("metabase-successive-routing-time-saving"),
                    QStringLiteral("R3: routing time saved by the metabase on a successive run (no topology change)"),
                    QStringLiteral("up to 85 % of the total routing time"),
                    QStringLiteral("%1, ftree installed; node weights changed; metabase (sticky) phase 2 on a hit against ftree "
                                   "from scratch; median ratio of %2 runs side by side")
                        .arg(g->summary)
                        .arg(ratios.size()),
                    100.0 * (1.0 - ratio), QStringLiteral("%"), 0, false});

    // The same event's path modifications against a re-route that honours the new weights from
    // scratch (wftree; ftree ignores weights and would change nothing).
    MetabaseOptions wftreeBaseline = metaOptions;
    wftreeBaseline.baselineEngine = QStringLiteral("wftree");
    Result<MetabaseRun> reweightedRun = metabase.reroute(fabric, installed->tables, reweighted, wftreeBaseline);
    if (!reweightedRun)
        return reweightedRun.error();
    const Reconfiguration &rc = reweightedRun->reconfiguration;
    if (!rc.hasFullReroute)
        return Error{{}, 0, QStringLiteral("no wftree re-route beside the metabase: %1").arg(rc.fullRerouteError)};
    const QString metaSetup = QStringLiteral("%1, ftree installed; every 7th host's weight set to 10; metabase (sticky) phase 2 "
                                             "against wftree from scratch, ΔP over all host pairs")
                                  .arg(g->summary);
    const double dpMeta = double(rc.cost.pathModifications);
    const double dpWftree = double(rc.fullRerouteCost.pathModifications);
    rows.push_back({kSeedThesis, QStringLiteral("metabase-reweight-path-changes"), QStringLiteral("R3: path modifications, metabase (sticky)"),
                    QStringLiteral("not published (the thesis quantifies routing time only)"), metaSetup, dpMeta, QStringLiteral("pairs"), 0, true});
    rows.push_back({kSeedThesis, QStringLiteral("metabase-reweight-path-changes-full"),
                    QStringLiteral("R3: path modifications, wftree from scratch"), QStringLiteral("the traditional re-route"), metaSetup,
                    dpWftree, QStringLiteral("pairs"), 0, true});
    rows.push_back({kSeedThesis, QStringLiteral("metabase-reweight-saving"), QStringLiteral("R3: fewer path modifications with the metabase"),
                    QStringLiteral("not quantified (the thesis quantifies routing time only)"), metaSetup,
                    dpWftree > 0 ? 100.0 * (1.0 - dpMeta / dpWftree) : 0, QStringLiteral("%"), 0.01, true});
    return Done{};
}

// ---- seed 004: routing keys ----------------------------------------------------------------

Status keysRows(std::vector<HeadlineRow> &rows, bool quick)
{
    // Quick: spec 004's [S] setting, XGFT(3;6,6,6;1,6,6), 6 apps of 36. Full: Fig. 7(a)'s
    // 1,728 hosts, XGFT(3;12,12,12;1,12,12), 2 applications.
    const int k = quick ? 6 : 12;
    const int apps = quick ? 6 : 2;
    const KeyTreeShape shape = KeyTreeShape::xgft3(k, k, k, k, k);
    const int ranks = shape.hosts() / apps;
    KeyPlanRequest request;
    request.placement = randomPlacement(shape.hosts(), apps, ranks, 1);
    request.pattern = KeyPattern::Neighbour;
    double dmodk = 0, keyed[2] = {0, 0};
    int phases = 0;
    const KeyScheme schemes[] = {KeyScheme::Ark, KeyScheme::Nrk};
    for (int s = 0; s < 2; ++s) {
        request.scheme = schemes[s];
        Result<KeyPlan> plan = planKeys(shape, shape.switches(), request);
        if (!plan)
            return plan.error();
        dmodk = 0;
        phases = 0;
        for (const PhaseKeys &p : plan->schedule.phases) {
            if (p.flows == 0)
                continue;
            dmodk += p.dmodk.max;
            keyed[s] += p.keyed.max;
            ++phases;
        }
    }
    const QString setup = QStringLiteral("%1, %2 applications of %3 ranks, random placement (seed 1), 3-D neighbour pattern "
                                         "(%4 phases), all applications in each phase at once")
                              .arg(shape.toString())
                              .arg(apps)
                              .arg(ranks)
                              .arg(phases);
    const QString paperContention = quick ? QStringLiteral("spec 004 [S] reference, phase +x over 30 placements: DmodK 4.00, NRK 2.70")
                                          : QStringLiteral("Fig. 4: DmodK's contention grows with size, NRK's stays low (no values)");
    rows.push_back({kSeedKeys, QStringLiteral("keys-contention-dmodk"), QStringLiteral("H6: mean over phases of the most flows on one link, DmodK"),
                    paperContention, setup, dmodk / phases, QStringLiteral("flows"), 0.001, true});
    rows.push_back({kSeedKeys, QStringLiteral("keys-contention-ark"), QStringLiteral("H6: the same, ARK"), QStringLiteral("between DmodK and NRK (Figs. 6, 7)"),
                    setup, keyed[0] / phases, QStringLiteral("flows"), 0.001, true});
    rows.push_back({kSeedKeys, QStringLiteral("keys-contention-nrk"), QStringLiteral("H6: the same, NRK"), paperContention, setup,
                    keyed[1] / phases, QStringLiteral("flows"), 0.001, true});
    // Fluid communication time: in a phase of equal messages the slowest flow's max-min rate is
    // link rate ÷ the most flows on a link, so the phases' time adds up the per-phase maxima.
    rows.push_back({kSeedKeys, QStringLiteral("keys-commtime-dmodk-over-ark"), QStringLiteral("H3: communication time, DmodK ÷ ARK (fluid)"),
                    QStringLiteral("2.7× (1,728 hosts, 2 apps, 10 % utilization, flit-level, worst app)"), setup, dmodk / keyed[0],
                    QStringLiteral("ratio"), 0.001, true});
    rows.push_back({kSeedKeys, QStringLiteral("keys-commtime-dmodk-over-nrk"), QStringLiteral("H3: communication time, DmodK ÷ NRK (fluid)"),
                    QStringLiteral("2.7× (same setup)"), setup, dmodk / keyed[1], QStringLiteral("ratio"), 0.001, true});
    return Done{};
}

QString formatFigure(double value, const QString &unit)
{
    if (unit == QLatin1String("SMPs") || unit == QLatin1String("switches") || unit == QLatin1String("pairs"))
        if (value == std::floor(value))
            return QString::number(qint64(value));
    if (unit == QLatin1String("ms"))
        return QString::number(value, 'f', 3);
    if (unit == QLatin1String("%"))
        return QString::number(value, 'f', 2);
    return QString::number(value, 'f', 4);
}

}  // namespace

QString headlineCommand(const HeadlineRow &row, bool quick)
{
    return QStringLiteral("weft bench results%1 --only %2").arg(quick ? QStringLiteral(" --quick") : QString(), row.id);
}

Result<std::vector<HeadlineRow>> headlineResults(const HeadlineOptions &options)
{
    // Each section appends its seed's rows, in RESULTS.md's order.
    using Section = Status (*)(std::vector<HeadlineRow> &, bool quick);
    const Section sections[] = {pftreeFig7, pftreeTable3, vswitchRows, pssspRows, wftreeRows, reconfigurationRows, keysRows};
    std::vector<HeadlineRow> rows;
    for (Section section : sections)
        if (Status s = section(rows, options.quick); !s)
            return s.error();
    return rows;
}

QJsonObject headlineResultsToJson(const std::vector<HeadlineRow> &rows, bool quick)
{
    QJsonArray array;
    for (const HeadlineRow &r : rows)
        array.append(QJsonObject{{QStringLiteral("seed"), r.seed},
                                 {QStringLiteral("id"), r.id},
                                 {QStringLiteral("result"), r.result},
                                 {QStringLiteral("paper"), r.paper},
                                 {QStringLiteral("setup"), r.setup},
                                 {QStringLiteral("weft"), r.weft},
                                 {QStringLiteral("unit"), r.unit},
                                 {QStringLiteral("tolerance"), r.checked ? QJsonValue(r.tolerance) : QJsonValue()},
                                 {QStringLiteral("checked"), r.checked},
                                 {QStringLiteral("command"), headlineCommand(r, quick)}});
    return QJsonObject{{QStringLiteral("variant"), quick ? QStringLiteral("quick") : QStringLiteral("full")},
                       {QStringLiteral("rows"), array}};
}

QString headlineResultsToMarkdown(const std::vector<HeadlineRow> &full, const std::vector<HeadlineRow> &quick)
{
    std::map<QString, const HeadlineRow *> fullById;
    for (const HeadlineRow &r : full)
        fullById[r.id] = &r;
    QString text;
    QString seed;
    for (const HeadlineRow &r : quick) {
        if (r.seed != seed) {
            seed = r.seed;
            text += QStringLiteral("\n### %1\n\n| id | result | paper (figure, setup) | Weft, full | Weft, quick | unit | tolerance | command |\n"
                                   "|---|---|---|---|---|---|---|---|\n")
                        .arg(seed);
        }
        const auto f = fullById.find(r.id);
        const HeadlineRow &shown = f != fullById.end() ? *f->second : r;
        text += QStringLiteral("| `%1` | %2 | %3 | %4 | %5 | %6 | %7 | `%8` |\n")
                    .arg(r.id, shown.result, shown.paper,
                         f != fullById.end() ? formatFigure(f->second->weft, r.unit) : QStringLiteral("not run"),
                         formatFigure(r.weft, r.unit), r.unit,
                         r.checked ? QStringLiteral("±%1").arg(r.tolerance) : QStringLiteral("not checked"),
                         headlineCommand(r, false));
    }
    return text;
}

int benchResults(const QStringList &args)
{
    Benchmark bench(QStringLiteral("results"), QStringLiteral("The seeds' headline results recomputed with Weft's stages (RESULTS.md's tables): pFTree's\n"
                                                              "victim throughput, the vSwitch paper's Tables 2 and 3, P-SSSP's eBB gain, wFTree, SlimUpdate\n"
                                                              "and the metabase, routing keys. --quick uses smaller fabrics (seconds, for CI)."));
    bench.parser().addOption({QStringLiteral("quick"), QStringLiteral("Smaller fabrics and fewer samples (RESULTS.md's quick column).")});
    bench.parser().addOption({QStringLiteral("markdown"), QStringLiteral("Print Markdown tables, one per seed.")});
    bench.parser().addOption({QStringLiteral("only"), QStringLiteral("Print only the row with this id (computing all)."), QStringLiteral("ID")});
    if (const std::optional<int> exitCode = bench.parse(args))
        return *exitCode;
    const bool quick = bench.isSet(QStringLiteral("quick"));
    HeadlineOptions options;
    options.quick = quick;
    Result<std::vector<HeadlineRow>> rows = headlineResults(options);
    if (!rows)
        return bench.fail(rows.error());
    // --only ID: that row alone (all are computed: the sections share their fabrics).
    const QString only = bench.value(QStringLiteral("only"));
    auto keepOnly = [&](std::vector<HeadlineRow> &list) {
        if (!only.isEmpty())
            list.erase(std::remove_if(list.begin(), list.end(), [&](const HeadlineRow &r) { return r.id != only; }), list.end());
    };
    keepOnly(*rows);
    if (rows->empty())
        return bench.fail(QStringLiteral("no row \"%1\" (see weft bench results --json for the ids)").arg(only));
    if (bench.isSet(QStringLiteral("markdown"))) {
        // RESULTS.md's tables hold both variants: the quick one is computed too (it takes a second).
        std::vector<HeadlineRow> full;
        if (!quick) {
            full = std::move(*rows);
            Result<std::vector<HeadlineRow>> quickRows = headlineResults(HeadlineOptions{true});
            if (!quickRows)
                return bench.fail(quickRows.error());
            *rows = std::move(*quickRows);
            keepOnly(*rows);
        }
        out() << headlineResultsToMarkdown(full, *rows);
        out().flush();
        return kExitOk;
    }
    return bench.report(headlineResultsToJson(*rows, quick), [&](QTextStream &o) {
        QString seed;
        for (const HeadlineRow &r : *rows) {
            if (r.seed != seed) {
                seed = r.seed;
                o << seed << '\n';
            }
            o << "  " << r.id << ": " << formatFigure(r.weft, r.unit) << ' ' << r.unit << "  (paper: " << r.paper << ")\n";
        }
    });
}

}  // namespace weft::cli
