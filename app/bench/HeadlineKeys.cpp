// weft bench results, seed 004: routing keys: the rows RESULTS.md's section of that seed explains.

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

// Per application, a seeded random order of the phases (spec 004 §2.7: each application "runs
// the same phases in a different order").
static std::vector<std::vector<int>> randomPhaseOrders(int apps, int phases, std::uint64_t seed)
{
    std::mt19937_64 random(seed);
    std::vector<std::vector<int>> orders;
    for (int a = 0; a < apps; ++a) {
        std::vector<int> order(std::size_t(phases), 0);
        for (int p = 0; p < phases; ++p)
            order[std::size_t(p)] = p;
        for (std::size_t i = order.size(); i > 1; --i)
            std::swap(order[i - 1], order[std::size_t(draw(random, i))]);
        orders.push_back(std::move(order));
    }
    return orders;
}

// The worst application's total communication time over the steps of a phase-ordered plan, in
// units of one message's time alone: in each step an application waits for its slowest flow,
// which gets the link rate over the most flows on a link of its path (the linear model of
// eBB); its host links carry one flow each, as every phase is a permutation.
static double worstTotal(const KeyPlan &plan, bool dmodk)
{
    std::vector<double> total(plan.request.placement.size(), 0.0);
    for (const PhaseKeys &step : plan.schedule.phases) {
        const LoadFigures &f = dmodk ? step.dmodk : step.keyed;
        for (std::size_t a = 0; a < total.size(); ++a)
            if (!step.keys[a].flows.empty())
                total[a] += double(std::max(1, f.appMax[a]));
    }
    return total.empty() ? 0 : *std::max_element(total.begin(), total.end());
}

namespace {

struct OrderedTimes
{
    double dmodk = 0, ark = 0, nrk = 0;  // the worst application's total, as worstTotal
};

}  // namespace

// `apps` applications placed at random (seed 1) on `shape`, the 3-D neighbour pattern, each
// application in its own random phase order (seed 1); `only` ≥ 0 keeps that application alone.
static Result<OrderedTimes> orderedTimes(const KeyTreeShape &shape, int apps, int only = -1)
{
    KeyPlanRequest request;
    request.placement = randomPlacement(shape.hosts(), apps, shape.hosts() / apps, 1);
    request.pattern = KeyPattern::Neighbour;
    request.phaseOrders = randomPhaseOrders(apps, 6, 1);
    if (only >= 0) {
        request.placement = {request.placement[std::size_t(only)]};
        request.phaseOrders = {request.phaseOrders[std::size_t(only)]};
    }
    OrderedTimes times;
    for (KeyScheme scheme : {KeyScheme::Ark, KeyScheme::Nrk}) {
        request.scheme = scheme;
        Result<KeyPlan> plan = planKeys(shape, shape.switches(), request);
        if (!plan)
            return plan.error();
        times.dmodk = worstTotal(*plan, true);
        (scheme == KeyScheme::Ark ? times.ark : times.nrk) = worstTotal(*plan, false);
    }
    return times;
}

// The paper's comparison (§2.9): the worst application's total communication time when the
// applications run the phases in different orders. H3 on its setting; H5 and H10 over the
// application counts of Figs. 7 and 8; H9's two ends of the utilization axis on Fig. 6's
// setting; H11's message sizes.
static Status orderedKeysRows(std::vector<HeadlineRow> &rows, bool quick)
{
    const int k = quick ? 6 : 12;
    const KeyTreeShape shape = KeyTreeShape::xgft3(k, k, k, k, k);
    const QString model = QStringLiteral("3-D neighbour pattern, random placement (seed 1), each application in its own random "
                                         "phase order (seed 1); worst application's total communication time, each flow at "
                                         "link rate ÷ the most flows on a link of its path");
    const int headlineApps = quick ? 6 : 2;
    const int manyApps = quick ? 27 : 32;
    const int counts[] = {2, 8, manyApps};
    std::map<int, OrderedTimes> byApps;
    for (int apps : {headlineApps, 2, 8, manyApps}) {
        if (byApps.count(apps))
            continue;
        Result<OrderedTimes> t = orderedTimes(shape, apps);
        if (!t)
            return t.error();
        byApps[apps] = *t;
    }
    const auto setupFor = [&](const KeyTreeShape &tree, int apps) {
        return QStringLiteral("%1, %2 applications of %3 ranks, %4").arg(tree.toString()).arg(apps).arg(tree.hosts() / apps).arg(model);
    };
    const OrderedTimes &headline = byApps[headlineApps];
    rows.push_back({kSeedKeys, QStringLiteral("keys-worst-order-commtime-dmodk-over-ark"),
                    QStringLiteral("H3: worst application's communication time, phases in different orders, DmodK ÷ ARK"),
                    QStringLiteral("2.7× (1,728 hosts, 2 apps, 10 % utilization, flit-level, worst app)"), setupFor(shape, headlineApps),
                    headline.dmodk / headline.ark, QStringLiteral("ratio"), 0.001, true});
    rows.push_back({kSeedKeys, QStringLiteral("keys-worst-order-commtime-dmodk-over-nrk"),
                    QStringLiteral("H3: worst application's communication time, phases in different orders, DmodK ÷ NRK"),
                    QStringLiteral("2.7× (same setup)"), setupFor(shape, headlineApps), headline.dmodk / headline.nrk, QStringLiteral("ratio"), 0.001,
                    true});
    for (int apps : counts) {
        const QString count = apps == manyApps ? QStringLiteral("many") : QString::number(apps);
        const QString appsText = apps == manyApps ? QStringLiteral("32 (quick: 27)") : QString::number(apps);
        const OrderedTimes &t = byApps[apps];
        const QString figure = apps == 2 ? QStringLiteral("7(a)") : apps == 8 ? QStringLiteral("7(b)")
                                                                              : QStringLiteral("7(c)");
        rows.push_back({kSeedKeys, QStringLiteral("keys-h5-ark-over-nrk-%1-apps").arg(count),
                        QStringLiteral("H5: worst application's communication time, ARK ÷ NRK, %1 applications").arg(appsText),
                        apps == 2 ? QStringLiteral("≈ 1: \"the improvement of NRK over ARK is negligible\" (Fig. 7(a), 2 apps)")
                                  : QStringLiteral("grows with the applications (Fig. %1, %2 apps; no values)").arg(figure).arg(apps == 8 ? 8 : 32),
                        setupFor(shape, apps), t.ark / t.nrk, QStringLiteral("ratio"), 0.001, true});
    }
    for (int apps : counts) {
        const QString count = apps == manyApps ? QStringLiteral("many") : QString::number(apps);
        const QString appsText = apps == manyApps ? QStringLiteral("32 (quick: 27)") : QString::number(apps);
        const OrderedTimes &t = byApps[apps];
        rows.push_back({kSeedKeys, QStringLiteral("keys-h10-dmodk-over-ark-%1-apps").arg(count),
                        QStringLiteral("H10: worst application's communication time, DmodK ÷ ARK, %1 applications").arg(appsText),
                        QStringLiteral("≈ 1 with 32 KB messages: \"DmodK is comparable to our ARK solution\" (Fig. 8, %1 apps; no values)")
                            .arg(apps == manyApps ? 32 : apps),
                        setupFor(shape, apps), t.dmodk / t.ark, QStringLiteral("ratio"), 0.001, true});
    }

    // H9 on Fig. 6's setting (216 hosts, 6 applications) in both variants: utilization is the
    // share of time the applications communicate, so its two ends are each application alone
    // (near 0: another application's phase hardly ever overlaps) and all at once (near 1).
    const KeyTreeShape fig6 = KeyTreeShape::xgft3(6, 6, 6, 6, 6);
    double aloneDmodk = 0, aloneNrk = 0;
    for (int a = 0; a < 6; ++a) {
        Result<OrderedTimes> t = orderedTimes(fig6, 6, a);
        if (!t)
            return t.error();
        aloneDmodk = std::max(aloneDmodk, t->dmodk);
        aloneNrk = std::max(aloneNrk, t->nrk);
    }
    OrderedTimes together;
    if (quick) {
        together = headline;
    } else {
        Result<OrderedTimes> t = orderedTimes(fig6, 6);
        if (!t)
            return t.error();
        together = *t;
    }
    rows.push_back({kSeedKeys, QStringLiteral("keys-h9-dmodk-over-nrk-apps-alone"),
                    QStringLiteral("H9: worst application's communication time, DmodK ÷ NRK, each application alone (utilization → 0)"),
                    QStringLiteral("NRK best, \"the most significant improvements … at low utilizations\" (Fig. 6; no values)"),
                    QStringLiteral("%1, each of the 6 applications of 36 ranks alone, %2").arg(fig6.toString(), model), aloneDmodk / aloneNrk,
                    QStringLiteral("ratio"), 0.001, true});
    rows.push_back({kSeedKeys, QStringLiteral("keys-h9-dmodk-over-nrk-apps-together"),
                    QStringLiteral("H9: the same, all applications at once (utilization → 1)"),
                    QStringLiteral("NRK best, the improvement smaller than at low utilization (Fig. 6; no values)"), setupFor(fig6, 6),
                    together.dmodk / together.nrk, QStringLiteral("ratio"), 0.001, true});

    // H11: the same data in 16 KB or 256 KB messages (iterations scaled so), NRK on H3's
    // setting. A message's time is its size over its rate, so the static model's total is the
    // data over the rate whatever the message size; it has no per-barrier cost.
    const double data = 256.0 * 1024 * 16;  // bytes per flow over the run
    double total[2] = {0, 0};
    const double sizes[2] = {16.0 * 1024, 256.0 * 1024};
    for (int i = 0; i < 2; ++i)
        total[i] = (data / sizes[i]) * headline.nrk * sizes[i];
    rows.push_back({kSeedKeys, QStringLiteral("keys-h11-commtime-256k-over-16k"),
                    QStringLiteral("H11: communication time, 256 KB ÷ 16 KB messages, equal data (NRK)"),
                    QStringLiteral("below 1: \"we expect the experiments with larger message sizes to run faster\" (Fig. 9; no values)"),
                    setupFor(shape, headlineApps) + QStringLiteral("; the same bytes per flow in 16 KB or 256 KB messages"),
                    total[1] / total[0], QStringLiteral("ratio"), 0.001, true});
    return Done{};
}

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
    return orderedKeysRows(rows, quick);
}

}  // namespace weft::cli::headline
