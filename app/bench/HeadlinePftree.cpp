// weft bench results, seed 000: pFTree: the rows RESULTS.md's section of that seed explains.

#include "HeadlineSetups.h"

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

namespace weft::cli::headline {

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

namespace {

// A random order of `items` (Fisher–Yates on the seeded draw).
std::vector<int> shuffled(std::vector<int> items, std::mt19937_64 &random)
{
    for (std::size_t i = items.size(); i > 1; --i)
        std::swap(items[i - 1], items[std::size_t(draw(random, i))]);
    return items;
}

// Table 3's setup on one tree: a quarter of every leaf's hosts (random) in the victim
// partition, so the victims are spread evenly over the leaves, the rest interfering.
struct VictimSetup
{
    GeneratedFabric g;
    std::vector<int> victims, others;
    int perLeaf = 0;
};

Result<VictimSetup> victimSetup(const QString &spec, std::mt19937_64 &random)
{
    Result<GeneratedFabric> g = xgftFabric(spec);
    if (!g)
        return g.error();
    VictimSetup s;
    s.g = std::move(*g);
    s.perLeaf = s.g.xgft.children.back();
    const int leaves = int(s.g.hosts.size()) / s.perLeaf;
    for (int leaf = 0; leaf < leaves; ++leaf) {
        std::vector<int> onLeaf;
        for (int i = 0; i < s.perLeaf; ++i)
            onLeaf.push_back(leaf * s.perLeaf + i);
        const std::vector<int> chosen = pick(onLeaf, s.perLeaf / 4, random);
        const std::set<int> chosenSet(chosen.begin(), chosen.end());
        for (int h : onLeaf)
            (chosenSet.count(h) ? s.victims : s.others).push_back(h);
    }
    return s;
}

// The victim partition (with `policy`) and the interfering one.
Tenancy victimTenancy(const VictimSetup &s, IsolationPolicy policy)
{
    Tenancy tenancy;
    tenancy.partitions = {fullPartition(QStringLiteral("victim"), 1, policy, s.g, s.victims),
                          fullPartition(QStringLiteral("noise"), 2, IsolationPolicy::Default, s.g, s.others)};
    return tenancy;
}

// ORCS's victim patterns (paper §6.3.3), one random draw each: bisect pairs the first half of
// a random order with the second; gather sends from every other member to a random root.
std::vector<FluidFlow> bisectFlows(const GeneratedFabric &g, const std::vector<int> &hosts, std::mt19937_64 &random)
{
    const std::vector<int> order = shuffled(hosts, random);
    const std::size_t half = order.size() / 2;
    std::vector<FluidFlow> flows;
    for (std::size_t i = 0; i < half; ++i)
        flows.push_back({hostPort(g, order[i]), hostPort(g, order[i + half]), 1});
    return flows;
}

std::vector<FluidFlow> gatherFlows(const GeneratedFabric &g, const std::vector<int> &hosts, std::mt19937_64 &random)
{
    const int root = hosts[std::size_t(draw(random, hosts.size()))];
    std::vector<FluidFlow> flows;
    for (int h : hosts)
        if (h != root)
            flows.push_back({hostPort(g, h), hostPort(g, root), 1});
    return flows;
}

// The slowest of `victim`'s flows, without and with `noise` running beside them.
struct NoisyRates
{
    double null = 0;
    double noisy = 0;
};

Result<NoisyRates> noisyRates(const Fabric &fabric, const ForwardingTables &tables, const std::vector<FluidFlow> &victim,
                              const std::vector<FluidFlow> &noise)
{
    std::vector<FluidFlow> all = victim;
    all.insert(all.end(), noise.begin(), noise.end());
    Result<double> null = rateOfFirst(fabric, tables, victim, victim.size(), true);
    if (!null)
        return null.error();
    Result<double> noisy = rateOfFirst(fabric, tables, all, victim.size(), true);
    if (!noisy)
        return noisy.error();
    return NoisyRates{*null, *noisy};
}

// The mean eBB of `hosts` alone (paper mode: every link equal, one-way bisections).
Result<double> groupEbb(const VictimSetup &s, const ForwardingTables &tables, const std::vector<int> &hosts, int samples)
{
    std::vector<Guid> participants;
    for (int h : hosts)
        participants.push_back(s.g.fabric.port(hostPort(s.g, h)).guid);
    return paperEbb(s.g.fabric, tables, samples, participants);
}

struct EngineVariant
{
    const char *engine;
    IsolationPolicy victimPolicy;
    const char *id;
    const char *name;
};
const EngineVariant kPftree{"pftree-base", IsolationPolicy::Default, "pftree", "pFTree"};
const EngineVariant kPftreeExt{"pftree", IsolationPolicy::Physical, "pftree-ext", "pFTree-Ext (victim phy)"};

}  // namespace

// Table 3 / Fig. 10: a victim partition (25 % of the hosts, spread evenly over the leaves)
// runs all-to-all, bisect or gather; the rest run all-to-all as noise. The victim's slowest
// flow with noise ÷ without ("null"), per engine: a pattern ends when its slowest flow does, so
// this is the inverse of the paper's delay ratio. Fig. 11 on the same routings: the noise
// partition's own eBB, what pFTree-Ext's isolation of the victim costs the others.
Status pftreeTable3(std::vector<HeadlineRow> &rows, bool quick)
{
    // Weft's XGFT notation (roots first): 4:1 trees of Table 3.
    const QString spec = quick ? QStringLiteral("2;4,16;4,1") : QStringLiteral("2;16,64;16,1");
    const QString label = quick ? QStringLiteral("64 nodes, XGFT(2;16,4;1,4), 4:1") : QStringLiteral("1024 nodes, XGFT(2;64,16;1,16), 4:1");
    std::mt19937_64 random(1);
    Result<VictimSetup> s = victimSetup(spec, random);
    if (!s)
        return s.error();
    const GeneratedFabric &g = s->g;
    const std::vector<FluidFlow> victimFlows = allToAll(g, s->victims);
    const std::vector<FluidFlow> noise = allToAll(g, s->others);
    const std::vector<FluidFlow> bisect = bisectFlows(g, s->victims, random);
    const std::vector<FluidFlow> gather = gatherFlows(g, s->victims, random);
    const QString setup = QStringLiteral("%1; %2 victims (random, %3 per leaf) all-to-all, the other %4 all-to-all as noise; fluid")
                              .arg(label)
                              .arg(s->victims.size())
                              .arg(s->perLeaf / 4)
                              .arg(s->others.size());
    const QString patternSetup = QStringLiteral("%1; %2 victims (random, %3 per leaf) run %5, the other %4 all-to-all as noise; "
                                                "one random draw (mt19937_64 seed 1); fluid")
                                     .arg(label)
                                     .arg(s->victims.size())
                                     .arg(s->perLeaf / 4)
                                     .arg(s->others.size());
    const int ebbSamples = quick ? 400 : 1000;
    const QString ebbSetup = QStringLiteral("%1; the %2 interfering hosts run random one-way bisections alone (eBB, %3 samples, "
                                            "seed 1, links equal); victims as Table 3")
                                 .arg(label)
                                 .arg(s->others.size())
                                 .arg(ebbSamples);
    struct Variant
    {
        EngineVariant v;
        const char *paper;
    };
    const Variant variants[] = {
        {kPftree, "≈0.5 (Fig. 10: all-to-all victim delay noisy ≈ 2× null on most topologies; ORCS, 1024 nodes 4:1)"},
        {kPftreeExt, "1.0 (Fig. 10: \"no change vs. null\" on all topologies)"},
        {{"ftree", IsolationPolicy::Default, "ftree", "ftree"}, "not in the paper (its baseline is pFTree)"}};
    std::vector<HeadlineRow> bisectRows, gatherRows;
    double noiseEbb[2] = {0, 0};
    for (const Variant &variant : variants) {
        const EngineVariant &v = variant.v;
        const Tenancy tenancy = victimTenancy(*s, v.victimPolicy);
        Result<Routing> routing = routeWith(QString::fromLatin1(v.engine), g.fabric, tenancy);
        if (!routing)
            return routing.error();
        Result<NoisyRates> allRates = noisyRates(g.fabric, routing->tables, victimFlows, noise);
        if (!allRates)
            return allRates.error();
        rows.push_back({kSeedPftree, QStringLiteral("%1-table3-victim-noisy-vs-null").arg(QLatin1String(v.id)),
                        QStringLiteral("%1: victim all-to-all's slowest flow with all-to-all noise ÷ without (1 ÷ delay ratio)").arg(QLatin1String(v.name)),
                        QString::fromUtf8(variant.paper), setup, allRates->noisy / allRates->null, QStringLiteral("fraction"), 0.001, true});
        const bool ext = v.victimPolicy == IsolationPolicy::Physical;
        if (QLatin1String(v.id) == QLatin1String("ftree"))
            continue;  // the paper's Fig. 10 and 11 compare pFTree and pFTree-Ext only
        Result<NoisyRates> bisectRates = noisyRates(g.fabric, routing->tables, bisect, noise);
        if (!bisectRates)
            return bisectRates.error();
        Result<NoisyRates> gatherRates = noisyRates(g.fabric, routing->tables, gather, noise);
        if (!gatherRates)
            return gatherRates.error();
        bisectRows.push_back(
            {kSeedPftree, QStringLiteral("%1-fig10-bisect-victim-noisy-vs-null").arg(QLatin1String(v.id)),
             QStringLiteral("%1: victim bisect's slowest flow with all-to-all noise ÷ without (1 ÷ delay ratio)").arg(QLatin1String(v.name)),
             ext ? QStringLiteral("1.0 (Fig. 10(a): \"no change in the delay when compared to the bisect-null case\")")
                 : QStringLiteral("≈0.004 (Fig. 10(a): null < 10 units, noisy \"up to 2498 units\" at 1024 nodes 4:1; ORCS)"),
             patternSetup.arg(QStringLiteral("one random bisection (%1 flows)").arg(bisect.size())), bisectRates->noisy / bisectRates->null,
             QStringLiteral("fraction"), 0.001, true});
        gatherRows.push_back(
            {kSeedPftree, QStringLiteral("%1-fig10-gather-victim-noisy-vs-null").arg(QLatin1String(v.id)),
             QStringLiteral("%1: victim gather's slowest flow with all-to-all noise ÷ without (1 ÷ delay ratio)").arg(QLatin1String(v.name)),
             ext ? QStringLiteral("1.0 (Fig. 10(b): \"no change in the delay\" for pFTree-Ext)")
                 : QStringLiteral("0.150 (Fig. 10(b): gather delay 255 null → 1696 noisy at 1024 nodes 4:1; 0.836, 127 → 152, at 512 nodes 2:1; ORCS)"),
             patternSetup.arg(QStringLiteral("a gather to one random root (%1 flows)").arg(gather.size())), gatherRates->noisy / gatherRates->null,
             QStringLiteral("fraction"), 0.001, true});
        Result<double> ebb = groupEbb(*s, routing->tables, s->others, ebbSamples);
        if (!ebb)
            return ebb.error();
        noiseEbb[ext ? 1 : 0] = *ebb;
    }
    rows.insert(rows.end(), bisectRows.begin(), bisectRows.end());
    rows.insert(rows.end(), gatherRows.begin(), gatherRows.end());
    rows.push_back({kSeedPftree, QStringLiteral("pftree-fig11-noise-ebb"),
                    QStringLiteral("pFTree: the interfering partition's eBB (Fig. 11(a))"),
                    QStringLiteral("0.62 at 64 nodes 4:1 (0.76 at 32 nodes 2:1); 1024 nodes 4:1 only plotted; ORCS bisect"), ebbSetup,
                    noiseEbb[0], QStringLiteral("Λ"), 0.0005, true});
    rows.push_back({kSeedPftree, QStringLiteral("pftree-ext-fig11-noise-ebb"),
                    QStringLiteral("pFTree-Ext (victim phy): the interfering partition's eBB (Fig. 11(a))"),
                    QStringLiteral("0.37 at 64 nodes 4:1 (the text says \"for the 3:1\"; 0.62 at 2:1); 1024 nodes 4:1 only plotted"), ebbSetup,
                    noiseEbb[1], QStringLiteral("Λ"), 0.0005, true});
    rows.push_back({kSeedPftree, QStringLiteral("pftree-ext-fig11-noise-ebb-share"),
                    QStringLiteral("pFTree-Ext's eBB for the interfering partition as a share of pFTree's (Fig. 11(b))"),
                    QStringLiteral("23.3 % (1024 nodes 4:1); > 70 % at 2:1"), ebbSetup, 100.0 * noiseEbb[1] / noiseEbb[0],
                    QStringLiteral("%"), 0.1, true});
    return Done{};
}

// Table 4: the 8-ary-2 trees of Table 3 (128, 192, 256 nodes at 2:1, 3:1, 4:1; spec 000
// §5.6 reads the table's "64/128" as these), victims as Table 3, all-to-all noise. ORCS's
// delay is a congestion count; Weft's is the nearest fluid figure: the rate a flow gets alone
// ÷ the victim's slowest flow's rate with the noise, i.e. how many flows its bottleneck is
// shared among. Fig. 11(b)'s 2:1 claim on the 2:1 tree's routings.
Status pftreeTable4(std::vector<HeadlineRow> &rows, bool /*quick: the trees are small*/)
{
    // The paper's min / avg / max per engine (pFTree, pFTree-Ext) and pattern (bisect, gather,
    // all-to-all), as printed; empty where Weft has no row.
    struct Tree
    {
        const char *spec;
        const char *ratio;
        const char *label;
        const char *paper[2][3];
    };
    const Tree trees[] = {
        {"2;8,16;8,1", "2to1", "128 nodes, XGFT(2;16,8;1,8), 2:1", {{"1 / 99.9 / 111", "", ""}, {"", "31 / 31 / 31", ""}}},
        {"2;8,24;8,1", "3to1", "192 nodes, XGFT(2;24,8;1,8), 3:1", {{"126 / 275.8 / 291", "", ""}, {"", "47 / 47 / 47", ""}}},
        {"2;8,32;8,1",
         "4to1",
         "256 nodes, XGFT(2;32,8;1,8), 4:1",
         {{"241 / 509.3 / 649", "80 / 254.9 / 560", "480 / 593.3 / 656"}, {"1 / 2.5 / 4", "63 / 63 / 63", "110 / 111.2 / 112"}}}};
    const char *patterns[] = {"bisect", "gather", "all-to-all"};
    std::vector<HeadlineRow> shareRow;  // after Table 4's rows
    for (const Tree &tree : trees) {
        std::mt19937_64 random(1);
        Result<VictimSetup> s = victimSetup(QString::fromLatin1(tree.spec), random);
        if (!s)
            return s.error();
        const GeneratedFabric &g = s->g;
        const std::vector<FluidFlow> noise = allToAll(g, s->others);
        const std::vector<FluidFlow> victim[3] = {bisectFlows(g, s->victims, random), gatherFlows(g, s->victims, random),
                                                  allToAll(g, s->victims)};
        const bool first = QLatin1String(tree.ratio) == QLatin1String("2to1");
        const QString setup = QStringLiteral("%1; %2 victims (random, %3 per leaf) run %5, the other %4 all-to-all as noise; one "
                                             "random draw (mt19937_64 seed 1); fluid")
                                  .arg(QLatin1String(tree.label))
                                  .arg(s->victims.size())
                                  .arg(s->perLeaf / 4)
                                  .arg(s->others.size());
        double noiseEbb[2] = {0, 0};
        for (const EngineVariant *v : {&kPftree, &kPftreeExt}) {
            const bool ext = v == &kPftreeExt;
            Result<Routing> routing = routeWith(QString::fromLatin1(v->engine), g.fabric, victimTenancy(*s, v->victimPolicy));
            if (!routing)
                return routing.error();
            Result<double> alone = rateOfFirst(g.fabric, routing->tables, {victim[0][0]}, 1);
            if (!alone)
                return alone.error();
            for (int p = 0; p < 3; ++p) {
                const char *paper = tree.paper[ext ? 1 : 0][p];
                if (!*paper)
                    continue;
                Result<NoisyRates> rates = noisyRates(g.fabric, routing->tables, victim[p], noise);
                if (!rates)
                    return rates.error();
                rows.push_back({kSeedPftree,
                                QStringLiteral("%1-table4-%2-delay-%3").arg(QLatin1String(v->id), QLatin1String(patterns[p]), QLatin1String(tree.ratio)),
                                QStringLiteral("%1, %2: victim %3 with all-to-all noise, as a delay: a lone flow's rate ÷ the slowest victim flow's")
                                    .arg(QLatin1String(v->name), QString::fromLatin1(tree.label).section(QLatin1Char(','), -1).trimmed(), QLatin1String(patterns[p])),
                                QStringLiteral("%1 (Table 4, min / avg / max, ORCS delay units)").arg(QLatin1String(paper)),
                                setup.arg(QStringLiteral("%1 (%2 flows)").arg(QLatin1String(patterns[p])).arg(victim[p].size())),
                                *alone / rates->noisy, QStringLiteral("flows"), 0.001, true});
            }
            if (first) {
                Result<double> ebb = groupEbb(*s, routing->tables, s->others, 400);
                if (!ebb)
                    return ebb.error();
                noiseEbb[ext ? 1 : 0] = *ebb;
            }
        }
        if (first)
            shareRow.push_back({kSeedPftree, QStringLiteral("pftree-ext-fig11-noise-ebb-share-2to1"),
                                QStringLiteral("pFTree-Ext's eBB for the interfering partition as a share of pFTree's, at 2:1 (Fig. 11(b))"),
                                QStringLiteral("> 70 % on every 2:1 topology"),
                                QStringLiteral("%1; the %2 interfering hosts run random one-way bisections alone (eBB, 400 samples, seed 1, "
                                               "links equal); victims as Table 3")
                                    .arg(QLatin1String(tree.label))
                                    .arg(s->others.size()),
                                100.0 * noiseEbb[1] / noiseEbb[0], QStringLiteral("%"), 0.1, true});
    }
    rows.insert(rows.end(), shareRow.begin(), shareRow.end());
    return Done{};
}

// Figs. 13–15 (pFTree-Wt, §7.1): Table 3's victims, of which r per leaf are receivers (weight
// 100, the rest 1), for several r from one per leaf to every victim; both engines route each
// experiment and the metrics of spec 000 §4.4–4.5 (contention towards the receivers,
// inter-partition interference I) are averaged over the experiments.
Status pftreeWeighted(std::vector<HeadlineRow> &rows, bool quick)
{
    const QString spec = quick ? QStringLiteral("2;4,8;4,1") : QStringLiteral("2;16,64;16,1");
    const QString label = quick ? QStringLiteral("32 nodes, XGFT(2;8,4;1,4), 2:1") : QStringLiteral("1024 nodes, XGFT(2;64,16;1,16), 4:1");
    std::mt19937_64 random(1);
    Result<VictimSetup> s = victimSetup(spec, random);
    if (!s)
        return s.error();
    const int victimsPerLeaf = s->perLeaf / 4;
    const int leaves = int(s->victims.size()) / victimsPerLeaf;
    std::vector<int> receiversPerLeaf;
    for (int r = 1; r <= victimsPerLeaf; r *= 2)
        receiversPerLeaf.push_back(r);
    struct Sums
    {
        double down = 0, up = 0, contendedDown = 0, interference = 0;
    } sum[2];
    for (int r : receiversPerLeaf) {
        Tenancy tenancy = victimTenancy(*s, IsolationPolicy::Default);
        for (int leaf = 0; leaf < leaves; ++leaf) {
            const std::vector<int> onLeaf(s->victims.begin() + leaf * victimsPerLeaf, s->victims.begin() + (leaf + 1) * victimsPerLeaf);
            for (int h : pick(onLeaf, r, random))
                tenancy.nodeWeights[s->g.fabric.port(hostPort(s->g, h)).guid] = 100;
        }
        const char *engines[] = {"pftree-base", "pftree-wt"};
        for (int e = 0; e < 2; ++e) {
            Result<Routing> routing = routeWith(QString::fromLatin1(engines[e]), s->g.fabric, tenancy);
            if (!routing)
                return routing.error();
            const Metrics m = computeMetrics(s->g.fabric, tenancy, routing->tables);
            sum[e].down += double(m.contention.totalDown);
            sum[e].up += double(m.contention.totalUp);
            sum[e].contendedDown += double(m.contention.contendedDown);
            sum[e].interference += double(m.interference);
        }
    }
    const double n = double(receiversPerLeaf.size());
    QStringList counts;
    for (int r : receiversPerLeaf)
        counts << QString::number(r);
    const QString setup = QStringLiteral("%1; %2 victims (random, %3 per leaf), of which %4 per leaf are receivers (weight 100; one "
                                         "experiment each, mean shown); the other %5 interfering; mt19937_64 seed 1")
                              .arg(label)
                              .arg(s->victims.size())
                              .arg(victimsPerLeaf)
                              .arg(counts.join(QStringLiteral(", ")))
                              .arg(s->others.size());
    rows.push_back({kSeedPftree, QStringLiteral("pftree-fig13-down-contention"),
                    QStringLiteral("pFTree: total contention towards the receivers on down links, mean (Fig. 13(a))"),
                    QStringLiteral("2 (32 nodes) to 8.6 (1024 nodes) on average, max 192"), setup, sum[0].down / n,
                    QStringLiteral("flows"), 0.001, true});
    rows.push_back({kSeedPftree, QStringLiteral("pftree-wt-fig13-down-contention"),
                    QStringLiteral("pFTree-Wt: total contention towards the receivers on down links, mean (Fig. 13(a))"),
                    QStringLiteral("0 (\"completely removes the contention in the downward direction\")"), setup, sum[1].down / n,
                    QStringLiteral("flows"), 0.001, true});
    rows.push_back({kSeedPftree, QStringLiteral("pftree-wt-fig13-up-contention-excess"),
                    QStringLiteral("pFTree's total up-link contention above pFTree-Wt's (Fig. 13(b))"),
                    QStringLiteral("+14.64 % (1024 nodes); +10.7 % (768 nodes)"), setup, 100.0 * (sum[0].up / sum[1].up - 1.0),
                    QStringLiteral("%"), 0.1, true});
    rows.push_back({kSeedPftree, QStringLiteral("pftree-fig14-down-contended-links"),
                    QStringLiteral("pFTree: down links carrying routes to two or more receivers, mean (Fig. 14(a))"),
                    QStringLiteral("up to 41.1 on average (max 64) at 1024 nodes; pFTree-Wt 0"), setup, sum[0].contendedDown / n,
                    QStringLiteral("links"), 0.001, true});
    rows.push_back({kSeedPftree, QStringLiteral("pftree-fig15-interference"),
                    QStringLiteral("pFTree: total inter-partition interference I, mean (Fig. 15)"),
                    QStringLiteral("192 (32 nodes)"), setup, sum[0].interference / n, QStringLiteral("flows"), 0.001, true});
    rows.push_back({kSeedPftree, QStringLiteral("pftree-wt-fig15-interference"),
                    QStringLiteral("pFTree-Wt: total inter-partition interference I, mean (Fig. 15)"),
                    QStringLiteral("293 (32 nodes)"), setup, sum[1].interference / n, QStringLiteral("flows"), 0.001, true});
    rows.push_back({kSeedPftree, QStringLiteral("pftree-wt-fig15-interference-increase"),
                    QStringLiteral("pFTree-Wt's interference above pFTree's (Fig. 15)"),
                    QStringLiteral("+86.76 % (1024 nodes); +52 % (32 nodes)"), setup,
                    100.0 * (sum[1].interference / sum[0].interference - 1.0), QStringLiteral("%"), 0.1, true});
    return Done{};
}

}  // namespace weft::cli::headline
