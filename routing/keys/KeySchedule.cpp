#include "KeySchedule.h"

#include <algorithm>

namespace weft {

Result<KeySchedule> scheduleKeys(const KeyTreeShape &shape, const KeyScheduleRequest &request)
{
    const bool nrk = request.scheme == KeyScheme::Nrk;
    const bool ordered = !request.phaseOrders.empty();
    if (ordered) {
        if (request.phaseOrders.size() != request.placement.size())
            return Error{{}, 0, QStringLiteral("%1 phase orders for %2 applications").arg(request.phaseOrders.size()).arg(request.placement.size())};
        for (std::size_t a = 0; a < request.phaseOrders.size(); ++a) {
            std::vector<int> sorted = request.phaseOrders[a];
            std::sort(sorted.begin(), sorted.end());
            bool permutation = sorted.size() == request.phases.size();
            for (std::size_t i = 0; permutation && i < sorted.size(); ++i)
                permutation = sorted[i] == int(i);
            if (!permutation)
                return Error{{}, 0, QStringLiteral("app %1's phase order is not an order of the %2 phases").arg(a).arg(request.phases.size())};
        }
    }
    KeySchedule schedule;
    for (int a = 0; a < int(request.placement.size()); ++a)
        schedule.rotations.push_back(!nrk && !request.arkIdentityMapping ? arkRotation(a, shape.aggsPerPod) : 0);
    for (std::size_t p = 0; p < request.phases.size(); ++p) {
        PhaseKeys r;
        r.phase = ordered ? Phase{QStringLiteral("step %1").arg(p + 1), {}} : request.phases[p];
        r.offset = ordered ? 0 : int(p) + 1;
        // A scheduler per step: one request per application, so NRK never sees a refusal.
        KeyScheduler scheduler(shape);
        std::vector<std::vector<std::vector<int>>> dmodkRoutes, keyedRoutes;
        for (std::size_t a = 0; a < request.placement.size(); ++a) {
            const int phase = ordered ? request.phaseOrders[a][p] : int(p);
            const int offset = phase + 1;
            r.appPhases.push_back(phase);
            RoutingKey key = computeKey(shape, request.placement[a], request.phases[std::size_t(phase)].flows, request.decomposition);
            if (nrk) {
                Result<RoutingKey> shifted = scheduler.request(int(a), phase, offset, key, request.cost);
                if (!shifted)
                    return shifted.error();
                key = std::move(shifted).value();
            } else {
                rotateKey(shape, key, schedule.rotations[a]);
            }
            r.delta = std::max(r.delta, key.delta);
            r.slots = std::max(r.slots, key.slotCount());
            r.contentionFree = r.contentionFree && key.contentionFree;
            for (const QString &w : key.warnings)
                r.warnings << QStringLiteral("app %1: %2").arg(a).arg(w);
            std::vector<std::vector<int>> dmodk, keyed;
            for (const KeyFlow &f : key.flows) {
                dmodk.push_back(dmodkRoute(shape, f.srcHost, f.dstHost));
                keyed.push_back(keyRoute(shape, key, f));
            }
            r.flows += int(key.flows.size());
            dmodkRoutes.push_back(std::move(dmodk));
            keyedRoutes.push_back(std::move(keyed));
            r.keys.push_back(key);
            schedule.realised.push_back({offset, key});
        }
        r.dmodk = loadFigures(shape, dmodkRoutes);
        r.keyed = loadFigures(shape, keyedRoutes);
        schedule.phases.push_back(std::move(r));
    }
    return schedule;
}

}  // namespace weft
