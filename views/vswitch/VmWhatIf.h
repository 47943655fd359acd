#pragma once
// The desk's what-if state of a vSwitch fabric (spec 001 §3, §7.5): a fabric, its hypervisors
// and the tables, which migrations, boots and shutdowns change without touching the document.
// The document cannot take a new fabric and tables as one undoable edit (a reset clears the
// undo stack), so the VM panel keeps this copy; every figure comes from routing/ (planMigration,
// applyMigration, routingDrift, bootVm, shutdownVm), nothing is computed here.

#include "VSwitchMigration.h"

#include <memory>
#include <optional>

namespace weft {

struct VmFabricState
{
    std::shared_ptr<const Fabric> fabric;
    VirtualisedFabric virt;
    PhysicalTree tree;
    ForwardingTables tables;
};

// Finds the hypervisors and the physical tree of `fabric`; fails on a fabric that is not
// virtualised (or not a tree vswitch-ftree can route).
Result<VmFabricState> analyseVmFabric(std::shared_ptr<const Fabric> fabric, ForwardingTables tables);

// One method's answer for a migration: the plan, the fabric and tables after it, and how far
// those drift from a fresh vswitch-ftree routing; or why the method cannot plan it.
struct MigrationCandidate
{
    ReconfigurationMethod method = ReconfigurationMethod::ItRC;
    std::optional<MigrationPlan> plan;
    std::optional<ReconfiguredFabric> after;
    std::optional<RoutingDrift> drift;
    QString error;  // set when plan is empty
};

// The methods the desk compares, in the order it shows them.
inline constexpr ReconfigurationMethod kDeskMigrationMethods[] = {ReconfigurationMethod::ItRC,
                                                                  ReconfigurationMethod::FTreeMinRC,
                                                                  ReconfigurationMethod::Full};

// Plans `request` once per method of kDeskMigrationMethods (request.method is ignored).
std::vector<MigrationCandidate> compareMigrationMethods(const VmFabricState &state, MigrationRequest request);

// The state after a candidate, a boot or a shutdown.
Result<VmFabricState> stateAfter(const MigrationCandidate &candidate);
Result<VmFabricState> stateAfter(const VmLifecycle &lifecycle);

}  // namespace weft
