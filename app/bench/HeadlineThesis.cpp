// weft bench results, seed 003: the thesis (wFTree, SlimUpdate, the metabase): the rows RESULTS.md's section of that seed explains.

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

// R1's fabric: a 2-level tree of 36-port switches (the protocol's switch, spec 003 §6), 2:1
// oversubscribed; quick, 12-port leaves.
static Result<GeneratedFabric> heavyReceiverFabric(bool quick)
{
    return xgftFabric(quick ? QStringLiteral("2;8,8;4,1") : QStringLiteral("2;36,24;12,1"));
}

// R1's receivers: a quarter of each leaf's hosts, at random (seed 1), per leaf; the other hosts
// in `senders`.
static std::vector<std::vector<int>> heavyReceivers(const GeneratedFabric &g, std::vector<std::vector<int>> *senders = nullptr)
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
static Status slimUpdateWeightRows(std::vector<HeadlineRow> &rows, bool quick)
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

// R4 (thesis §3.2.5, spec 003 §4.6): SlimUpdate for an MPI node order, the metabase's phase 2
// with the MpiOrder policy, on the m-port-2-tree with ftree installed. The job is every host; its
// rank order takes whole leaves, as a scheduler allocating by leaf does, but in its own order:
// the leaves and each leaf's hosts shuffled (seed 1). The traffic is every shift permutation over
// the ranks (rank r sends to rank r + s), each alone; the figure is the fluid model's normalized
// throughput, with the installed ftree (blind to the rank order) and with the MPI-order routing.
static Status mpiOrderRows(std::vector<HeadlineRow> &rows, const GeneratedFabric *g, const Routing *installed)
{
    const Fabric &fabric = g->fabric;

    std::map<NodeIndex, std::vector<int>> hostsOfLeaf;
    for (int h = 0; h < int(g->hosts.size()); ++h)
        hostsOfLeaf[fabric.port(fabric.port(hostPort(*g, h)).remote).node].push_back(h);
    std::vector<std::vector<int>> leaves;
    for (const auto &[leaf, hosts] : hostsOfLeaf)
        leaves.push_back(hosts);
    std::mt19937_64 random(1);
    const auto shuffle = [&random](auto &items) {
        for (std::size_t i = items.size(); i > 1; --i)
            std::swap(items[i - 1], items[std::size_t(draw(random, i))]);
    };
    shuffle(leaves);
    std::vector<int> ranks;
    for (std::vector<int> &onLeaf : leaves) {
        shuffle(onLeaf);
        ranks.insert(ranks.end(), onLeaf.begin(), onLeaf.end());
    }

    Metabase metabase;
    MetabaseOptions options;
    options.policy = SlotPolicy::MpiOrder;
    options.baselineEngine = QStringLiteral("ftree");
    for (int h : ranks)
        options.nodeOrder.push_back(fabric.port(hostPort(*g, h)).guid);
    Result<MetabaseRun> run = metabase.reroute(fabric, installed->tables, Tenancy{}, options);
    if (!run)
        return run.error();

    const int n = int(ranks.size());
    const ForwardingTables *tables[] = {&installed->tables, &run->reconfiguration.proposal.tables};
    double meanThroughput[2] = {0, 0};
    int atPeak[2] = {0, 0};
    for (int shift = 1; shift < n; ++shift) {
        std::vector<FluidFlow> flows;
        for (int r = 0; r < n; ++r)
            flows.push_back({hostPort(*g, ranks[std::size_t(r)]), hostPort(*g, ranks[std::size_t((r + shift) % n)]), 1});
        for (int t = 0; t < 2; ++t) {
            Result<FluidThroughput> f = fluidThroughput(fabric, *tables[t], flows);
            if (!f)
                return f.error();
            meanThroughput[t] += f->normalized / double(n - 1);
            atPeak[t] += f->normalized > 1.0 - 1e-9 ? 1 : 0;
        }
    }
    const QString setup = QStringLiteral("%1, ftree installed; one job of every host, its rank order by leaf with the leaves "
                                         "and each leaf's hosts shuffled (seed 1); metabase phase 2, MPI-order policy; each "
                                         "of the %2 shift permutations over the ranks alone, fluid max-min")
                              .arg(g->summary)
                              .arg(n - 1);
    rows.push_back({kSeedThesis, QStringLiteral("slimupdate-r4-installed-shift-throughput"),
                    QStringLiteral("R4: normalized throughput of a shift over the ranks, installed ftree, mean over shifts"),
                    QStringLiteral("not published (routes blind to the rank order)"), setup, meanThroughput[0], QStringLiteral("fraction"), 0.001,
                    true});
    rows.push_back({kSeedThesis, QStringLiteral("slimupdate-r4-mpi-order-shift-throughput"),
                    QStringLiteral("R4: the same, SlimUpdate with the MPI order (metabase, mpi-order)"),
                    QStringLiteral("1.0: \"able to reach the peak bandwidth for a specific communication pattern\""), setup, meanThroughput[1],
                    QStringLiteral("fraction"), 0.001, true});
    rows.push_back({kSeedThesis, QStringLiteral("slimupdate-r4-installed-peak-shifts"), QStringLiteral("R4: shifts at peak throughput, installed ftree"),
                    QStringLiteral("not published"), setup, double(atPeak[0]), QStringLiteral("shifts"), 0, true});
    rows.push_back({kSeedThesis, QStringLiteral("slimupdate-r4-mpi-order-peak-shifts"),
                    QStringLiteral("R4: shifts at peak throughput, SlimUpdate with the MPI order"),
                    QStringLiteral("every shift (the peak bandwidth for the pattern)"), setup, double(atPeak[1]), QStringLiteral("shifts"), 0, true});
    rows.push_back({kSeedThesis, QStringLiteral("slimupdate-r4-mpi-order-path-changes"),
                    QStringLiteral("R4: path modifications of the MPI-order routing against the installed ftree"), QStringLiteral("not published"),
                    setup, double(run->reconfiguration.cost.pathModifications), QStringLiteral("pairs"), 0, true});
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
    return mpiOrderRows(rows, &*g, &*installed);  // R4 on the same tree and installed tables
}

}  // namespace weft::cli::headline
