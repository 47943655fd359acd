// weft bench results, seed 001: vSwitch: the rows RESULTS.md's section of that seed explains.

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
                    QStringLiteral("Table 2: SMPs of a LID swap (ItRC), VM moved from the first to the last hypervisor (edge to edge: "
                                   "FTreeMinRC's worst case, not necessarily ItRC's)"),
                    quick ? QStringLiteral("72 (324 nodes), the bound 2 × switches, not a measured swap")
                          : QStringLiteral("3,240 (11,664 nodes), the bound 2 × switches, not a measured swap"),
                    hypSetup, double(itrc->smps), QStringLiteral("SMPs"), 0, true});
    rows.push_back({kSeedVswitch, QStringLiteral("vswitch-table2-reduction"),
                    QStringLiteral("Table 2: SMP reduction of that swap against a full re-configuration"),
                    quick ? QStringLiteral("66.7 % (72 of 216)") : QStringLiteral("99.04 % (3,240 of 336,960)"), hypSetup,
                    100.0 * (1.0 - double(itrc->smps) / fullSmps), QStringLiteral("%"), 0.01, true});

    // Table 2's maximum is a bound, "in the extreme case that all of the switches will need to be
    // updated with two SMPs each": 2 × switches, and its reduction against the full push.
    const ReconfigurationCostRow cost = reconfigurationCost(std::int64_t(plain->hosts.size()), std::int64_t(plain->fabric.switches().size()));
    const QString boundSetup = QStringLiteral("%1 (plain tree): 2 × switches").arg(size);
    rows.push_back({kSeedVswitch, QStringLiteral("vswitch-table2-max-swap-smps-bound"),
                    QStringLiteral("Table 2: the bound on a swap's SMPs, 2 × switches (\"Max SMPs LID Swap/Copy\")"),
                    quick ? QStringLiteral("72 (324 nodes, 36 switches)") : QStringLiteral("3,240 (11,664 nodes, 1,620 switches)"),
                    boundSetup, double(cost.maxSwapCopySmps), QStringLiteral("SMPs"), 0, true});
    rows.push_back({kSeedVswitch, QStringLiteral("vswitch-table2-bound-reduction"),
                    QStringLiteral("Table 2: the bound's reduction against a full re-configuration"),
                    quick ? QStringLiteral("66.7 %") : QStringLiteral("99.04 %"), boundSetup,
                    100.0 * (1.0 - double(cost.maxSwapCopySmps) / fullSmps), QStringLiteral("%"), 0.01, true});

    // The best case: a move within one leaf, FTreeMinRC (only the leaf is marked), the
    // destination VF chosen so that both LIDs share an LFT block; ItRC on the same move.
    int neighbour = -1;
    for (int h = 1; h < hyps && neighbour < 0; ++h)
        if (virt->hypervisors[std::size_t(h)].leaf == virt->hypervisors[0].leaf)
            neighbour = h;
    if (neighbour < 0)
        return Error{{}, 0, QStringLiteral("no two hypervisors share a leaf")};
    auto planWithin = [&](ReconfigurationMethod method) {
        MigrationRequest request;
        request.hypervisor = 0;
        request.vf = 0;
        request.destination = neighbour;
        request.scheme = LidScheme::Prepopulated;
        request.method = method;
        return planMigration(g->fabric, *virt, *tree, tables, request);
    };
    Result<MigrationPlan> withinMinrc = planWithin(ReconfigurationMethod::FTreeMinRC);
    if (!withinMinrc)
        return withinMinrc.error();
    Result<MigrationPlan> withinItrc = planWithin(ReconfigurationMethod::ItRC);
    if (!withinItrc)
        return withinItrc.error();
    const QString withinSetup = QStringLiteral("%1 as hypervisors, 2 VFs each, prepopulated LIDs, vswitch-ftree; VM moved from the "
                                               "first hypervisor to another on the same leaf, destination VF in the VM LID's block")
                                    .arg(size);
    rows.push_back({kSeedVswitch, QStringLiteral("vswitch-table2-best-case-smps"),
                    QStringLiteral("Table 2: SMPs of a move within one leaf, FTreeMinRC (\"Min SMPs LID Swap/Copy\")"),
                    QStringLiteral("1 (\"only one SMP if the VM is migrated within the same leaf switch\")"), withinSetup,
                    double(withinMinrc->smps), QStringLiteral("SMPs"), 0, true});
    rows.push_back({kSeedVswitch, QStringLiteral("vswitch-table2-intra-leaf-itrc-smps"),
                    QStringLiteral("Table 2: SMPs of the same move within one leaf, ItRC"),
                    QStringLiteral("not given (Fig. 3: ItRC updates 6 of 12 switches for a move within a leaf)"), withinSetup,
                    double(withinItrc->smps), QStringLiteral("SMPs"), 0, true});
    const std::size_t table2End = rows.size();

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
    std::vector<int> swapSmps;  // ItRC's, per migration
    int everySwitch = 0;        // migrations whose ItRC swap touches every physical switch
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
        swapSmps.push_back(b->smps);
        everySwitch += b->switchesTouched == int(virt->physicalSwitches.size()) ? 1 : 0;
    }
    const QString randomSetup = QStringLiteral("%1 as hypervisors (2 VFs, prepopulated), %2 random migrations from the initial "
                                               "routing (mt19937_64 seed 7)")
                                    .arg(size)
                                    .arg(migrations);
    // What swaps really send: ItRC's SMPs over the same random migrations, beside Table 2's bound.
    std::sort(swapSmps.begin(), swapSmps.end());
    const std::size_t mid = swapSmps.size() / 2;
    const double median = swapSmps.size() % 2 ? swapSmps[mid] : (swapSmps[mid - 1] + swapSmps[mid]) / 2.0;
    const QString bound = quick ? QStringLiteral("bound 72 (Table 2)") : QStringLiteral("bound 3,240 (Table 2)");
    const std::vector<HeadlineRow> distribution = {
        {kSeedVswitch, QStringLiteral("vswitch-table2-swap-smps-min"),
         QStringLiteral("Table 2: SMPs of a LID swap (ItRC) over random migrations, least"),
         QStringLiteral("not measured; min 1 (within a leaf)"), randomSetup, double(swapSmps.front()), QStringLiteral("SMPs"), 0, true},
        {kSeedVswitch, QStringLiteral("vswitch-table2-swap-smps-median"),
         QStringLiteral("Table 2: SMPs of a LID swap (ItRC) over random migrations, median"), QStringLiteral("not measured; %1").arg(bound),
         randomSetup, median, QStringLiteral("SMPs"), 0, true},
        {kSeedVswitch, QStringLiteral("vswitch-table2-swap-smps-max"),
         QStringLiteral("Table 2: SMPs of a LID swap (ItRC) over random migrations, most"), QStringLiteral("not measured; %1").arg(bound),
         randomSetup, double(swapSmps.back()), QStringLiteral("SMPs"), 0, true},
        {kSeedVswitch, QStringLiteral("vswitch-table2-swap-every-switch-fraction"),
         QStringLiteral("Table 2: share of those random swaps (ItRC) that update every physical switch"),
         QStringLiteral("not measured (\"the extreme case that all of the switches will need to be updated\")"), randomSetup,
         double(everySwitch) / double(migrations), QStringLiteral("fraction"), 0.0001, true}};
    rows.insert(rows.begin() + std::ptrdiff_t(table2End), distribution.begin(), distribution.end());
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

namespace {

// A vSwitch fabric as the migrations leave it: its hypervisors, tree and tables.
struct VmState
{
    Fabric fabric;
    VirtualisedFabric virt;
    PhysicalTree tree;
    ForwardingTables tables;
};

Result<VmState> vmState(Fabric fabric, ForwardingTables tables)
{
    Result<VirtualisedFabric> virt = findHypervisors(fabric);
    if (!virt)
        return virt.error();
    Result<PhysicalTree> tree = buildPhysicalTree(fabric, *virt);
    if (!tree)
        return tree.error();
    return VmState{std::move(fabric), std::move(*virt), std::move(*tree), std::move(tables)};
}

// The eBB among the running VMs (paper mode: links equal, one-way bisections).
Result<double> vmEbb(const Fabric &fabric, const VirtualisedFabric &virt, const ForwardingTables &tables, int samples)
{
    std::vector<Guid> participants;
    for (const Hypervisor &h : virt.hypervisors)
        for (const VirtualFunction &vf : h.vfs)
            if (vf.lid)
                participants.push_back(fabric.port(fabric.portOf(vf.node, 1)).guid);
    return paperEbb(fabric, tables, samples, participants);
}

}  // namespace

// Fig. 8(d) and 8(h): routing quality after many migrations. Every hypervisor has 4 VFs
// (Table 4); a uniform start runs `perHypervisor` VMs on each (25 % or 75 % of the VFs; the
// other VFs have no LID: dynamic LIDs), routed by vswitch-ftree; then 2 × hypervisors random
// migrations (a random running VM to a random other hypervisor with a free VF), each
// reconfigured by FTreeMinRC in one copy of the fabric and by ItRC in another. Afterwards the
// eBB among the VMs with each copy's tables, and with a fresh vswitch-ftree routing of the
// final placement (the full re-route the paper compares against).
Status vswitchFig8(std::vector<HeadlineRow> &rows, bool quick)
{
    const QString spec = quick ? QStringLiteral("2;8,4;4,1") : QStringLiteral("2;16,16;16,1");
    const QString label = quick ? QStringLiteral("4-ary-2-full, XGFT(2;8,4;4,1), 32 nodes") : QStringLiteral("16-ary-2, XGFT(2;16,16;16,1), 256 nodes");
    const int samples = quick ? 300 : 1000;
    struct Scenario
    {
        const char *figure;  // "8d"
        int perHypervisor;   // VMs of 4 VFs
        const char *population;
    };
    const Scenario scenarios[] = {{"8d", 1, "25 %"}, {"8h", 3, "75 %"}};
    for (const Scenario &sc : scenarios) {
        Result<GeneratedFabric> g = xgftFabric(spec, true, 4);
        if (!g)
            return g.error();
        Result<VirtualisedFabric> full = findHypervisors(g->fabric);
        if (!full)
            return full.error();
        std::vector<LidChange> free;
        for (const Hypervisor &h : full->hypervisors)
            for (std::size_t vf = std::size_t(sc.perHypervisor); vf < h.vfs.size(); ++vf)
                free.push_back({g->fabric.portOf(h.vfs[vf].node, 1), 0});
        Result<Fabric> start = fabricWithLids(g->fabric, free);
        if (!start)
            return start.error();
        Result<Routing> initial = routeFabric(QStringLiteral("vswitch-ftree"), *start, {});
        if (!initial)
            return initial.error();
        Result<VmState> minrc = vmState(*start, initial->tables);
        if (!minrc)
            return minrc.error();
        Result<VmState> itrc = vmState(*start, initial->tables);
        if (!itrc)
            return itrc.error();
        const int hyps = int(minrc->virt.hypervisors.size());
        const int migrations = 2 * hyps;
        std::mt19937_64 random(7);
        for (int i = 0; i < migrations; ++i) {
            // Both copies place the VMs alike (a dynamic move takes the first free VF), so one
            // request serves both.
            std::vector<std::pair<int, int>> running;
            for (int h = 0; h < hyps; ++h)
                for (int vf = 0; vf < int(minrc->virt.hypervisors[std::size_t(h)].vfs.size()); ++vf)
                    if (minrc->virt.hypervisors[std::size_t(h)].vfs[std::size_t(vf)].lid)
                        running.push_back({h, vf});
            const std::pair<int, int> vm = running[std::size_t(draw(random, running.size()))];
            std::vector<int> destinations;
            for (int h = 0; h < hyps; ++h)
                if (h != vm.first && minrc->virt.hypervisors[std::size_t(h)].freeVfs() > 0)
                    destinations.push_back(h);
            MigrationRequest request;
            request.hypervisor = vm.first;
            request.vf = vm.second;
            request.destination = destinations[std::size_t(draw(random, destinations.size()))];
            request.scheme = LidScheme::Dynamic;
            for (VmState *state : {&*minrc, &*itrc}) {
                request.method = state == &*minrc ? ReconfigurationMethod::FTreeMinRC : ReconfigurationMethod::ItRC;
                Result<MigrationPlan> plan = planMigration(state->fabric, state->virt, state->tree, state->tables, request);
                if (!plan)
                    return plan.error();
                Result<ReconfiguredFabric> after = applyMigration(state->fabric, state->tables, *plan);
                if (!after)
                    return after.error();
                Result<VmState> next = vmState(std::move(after->fabric), std::move(after->tables));
                if (!next)
                    return next.error();
                *state = std::move(*next);
            }
        }
        Result<Routing> fresh = routeFabric(QStringLiteral("vswitch-ftree"), minrc->fabric, {});
        if (!fresh)
            return fresh.error();
        Result<double> ebbMinrc = vmEbb(minrc->fabric, minrc->virt, minrc->tables, samples);
        if (!ebbMinrc)
            return ebbMinrc.error();
        Result<double> ebbItrc = vmEbb(itrc->fabric, itrc->virt, itrc->tables, samples);
        if (!ebbItrc)
            return ebbItrc.error();
        Result<double> ebbFull = vmEbb(minrc->fabric, minrc->virt, fresh->tables, samples);
        if (!ebbFull)
            return ebbFull.error();
        const QString figure = QString::fromLatin1(sc.figure);
        const QString setup = QStringLiteral("%1, 4 VFs per hypervisor, %2 populated (uniform start, dynamic LIDs), vswitch-ftree; %3 "
                                             "random migrations (mt19937_64 seed 7); eBB among the VMs, %4 samples, seed 1, links equal")
                                  .arg(label, QLatin1String(sc.population))
                                  .arg(migrations)
                                  .arg(samples);
        const QString curve = QStringLiteral("Fig. 8(%1): %2 of the VFs, uniform start, random pattern").arg(figure.mid(1), QLatin1String(sc.population));
        rows.push_back({kSeedVswitch, QStringLiteral("vswitch-fig%1-full-reroute-ebb").arg(figure),
                        QStringLiteral("%1: eBB after the migrations, a full vswitch-ftree re-route").arg(curve),
                        QStringLiteral("plotted only (no values in the text)"), setup, *ebbFull, QStringLiteral("Λ"), 0.0005, true});
        rows.push_back({kSeedVswitch, QStringLiteral("vswitch-fig%1-ftreeminrc-ebb").arg(figure),
                        QStringLiteral("%1: eBB after the migrations, FTreeMinRC").arg(curve),
                        QStringLiteral("never above the re-route's; up to \"almost 10%\" below it on uniform↔random"), setup, *ebbMinrc,
                        QStringLiteral("Λ"), 0.0005, true});
        rows.push_back({kSeedVswitch, QStringLiteral("vswitch-fig%1-itrc-ebb").arg(figure),
                        QStringLiteral("%1: eBB after the migrations, ItRC").arg(curve),
                        QStringLiteral("not simulated (Fig. 8(b)–(h) compare FTreeMinRC and vSwitchFatTree)"), setup, *ebbItrc,
                        QStringLiteral("Λ"), 0.0005, true});
        rows.push_back({kSeedVswitch, QStringLiteral("vswitch-fig%1-ftreeminrc-vs-full").arg(figure),
                        QStringLiteral("%1: FTreeMinRC's eBB below the full re-route's").arg(curve),
                        QStringLiteral("≥ 0, up to \"almost 10%\""), setup, 100.0 * (1.0 - *ebbMinrc / *ebbFull), QStringLiteral("%"), 0.1,
                        true});
    }
    return Done{};
}

}  // namespace weft::cli::headline
