#include "KeySchedule.h"

#include <algorithm>

namespace weft {

Result<KeySchedule> scheduleKeys(const KeyTreeShape &shape, const KeyScheduleRequest &request)
{
    const bool nrk = request.scheme == KeyScheme::Nrk;
    KeySchedule schedule;
    for (int a = 0; a < int(request.placement.size()); ++a)
        schedule.rotations.push_back(!nrk && !request.arkIdentityMapping ? arkRotation(a, shape.aggsPerPod) : 0);
    for (std::size_t p = 0; p < request.phases.size(); ++p) {
        PhaseKeys r;
        r.phase = request.phases[p];
        r.offset = int(p) + 1;
        // A scheduler per phase: one request per application, so NRK never sees a refusal.
        KeyScheduler scheduler(shape);
        std::vector<std::vector<std::vector<int>>> dmodkRoutes, keyedRoutes;
        for (std::size_t a = 0; a < request.placement.size(); ++a) {
            RoutingKey key = computeKey(shape, request.placement[a], r.phase.flows, request.decomposition);
            if (nrk) {
                Result<RoutingKey> shifted = scheduler.request(int(a), int(p), r.offset, key, request.cost);
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
            schedule.realised.push_back({r.offset, key});
        }
        r.dmodk = loadFigures(shape, dmodkRoutes);
        r.keyed = loadFigures(shape, keyedRoutes);
        schedule.phases.push_back(std::move(r));
    }
    return schedule;
}

}  // namespace weft
