#include "VmWhatIf.h"

namespace weft {

Result<VmFabricState> analyseVmFabric(std::shared_ptr<const Fabric> fabric, ForwardingTables tables)
{
    if (!fabric)
        return Error{{}, 0, QStringLiteral("no fabric")};
    Result<VirtualisedFabric> virt = findHypervisors(*fabric);
    if (!virt)
        return virt.error();
    Result<PhysicalTree> tree = buildPhysicalTree(*fabric, *virt);
    if (!tree)
        return tree.error();
    VmFabricState state;
    state.fabric = std::move(fabric);
    state.virt = std::move(*virt);
    state.tree = std::move(*tree);
    state.tables = std::move(tables);
    return state;
}

std::vector<MigrationCandidate> compareMigrationMethods(const VmFabricState &state, MigrationRequest request)
{
    std::vector<MigrationCandidate> candidates;
    for (ReconfigurationMethod method : kDeskMigrationMethods) {
        MigrationCandidate c;
        c.method = method;
        request.method = method;
        Result<MigrationPlan> plan = planMigration(*state.fabric, state.virt, state.tree, state.tables, request);
        if (!plan) {
            c.error = plan.error().message;
            candidates.push_back(std::move(c));
            continue;
        }
        Result<ReconfiguredFabric> after = applyMigration(*state.fabric, state.tables, *plan);
        if (!after) {
            c.error = after.error().message;
            candidates.push_back(std::move(c));
            continue;
        }
        Result<RoutingDrift> drift = routingDrift(after->fabric, after->tables);
        if (drift)
            c.drift = *drift;
        else
            plan->warnings << drift.error().message;
        c.plan = std::move(*plan);
        c.after = std::move(*after);
        candidates.push_back(std::move(c));
    }
    return candidates;
}

Result<VmFabricState> stateAfter(const MigrationCandidate &candidate)
{
    if (!candidate.after)
        return Error{{}, 0, candidate.error};
    return analyseVmFabric(std::make_shared<const Fabric>(candidate.after->fabric), candidate.after->tables);
}

Result<VmFabricState> stateAfter(const VmLifecycle &lifecycle)
{
    return analyseVmFabric(std::make_shared<const Fabric>(lifecycle.fabric), lifecycle.tables);
}

}  // namespace weft
