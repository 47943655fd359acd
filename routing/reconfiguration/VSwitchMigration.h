#pragma once
// VM lifecycle on vSwitch fabrics (spec 001 §3): boot and shutdown under dynamic LIDs, and live
// migration reconfigured by ItRC (every switch whose entry differs, §3.3), FTreeMinRC (only the
// skyline of the sub-trees between the two leaves, §3.4) or a full vswitch-ftree re-route.
// Neither ItRC nor FTreeMinRC computes a path: they copy (dynamic: the destination PF's entry)
// or swap (prepopulated: the VM's LID x with the destination VF's LID y) forwarding entries.
//
// Planning never copies the tables, so that it stays in the millisecond range on 11,664-host
// trees; applyMigration makes the new fabric (LIDs moved) and tables.
//
// SMPs count physical switches only (§1.3); the vSwitches' own table changes are listed and
// counted apart, since spec 001 treats a vSwitch as an implicit demux but a Weft fabric (and
// ibsim) gives it a real LFT. Blocks: one per changed switch, two when x and y lie in different
// 64-LID blocks (m' = 2). Marked switches whose entries already match get no SMP (E11); plans
// report both counts.
//
// Update order (§3.5): Safe sorts the switches by hop distance to the destination leaf along
// the new route (so each switch forwards only into switches already updated, or that never
// needed to be), active-route switches first within a distance; ActiveRouteFirst is the
// paper's priority order (active route, then the rest, each by distance).

#include "VSwitchFatTree.h"
#include "Virtualisation.h"

#include <QStringList>

#include <vector>

namespace weft {

enum class ReconfigurationMethod : std::uint8_t { ItRC, FTreeMinRC, Full };
enum class UpdateOrder : std::uint8_t { Safe, ActiveRouteFirst };

QString reconfigurationMethodName(ReconfigurationMethod method);  // "itrc", "ftreeminrc", "full"

// FTreeMinRC's marking (§3.4): climbing from both leaves until the ancestor sets meet.
struct SkylineMarking
{
    int commonLevel = -1;      // l*: level of the lowest common ancestors; the leaf level for one leaf
    std::vector<int> marked;   // dense PhysicalTree indices, by level from the leaves up, then index
};
SkylineMarking markSkyline(const PhysicalTree &tree, int sourceLeaf, int destinationLeaf);

struct MigrationRequest
{
    int hypervisor = -1;        // where the VM runs (VirtualisedFabric index)
    int vf = -1;                // its VF (Hypervisor::vfs index)
    int destination = -1;       // destination hypervisor
    int destinationVf = -1;     // -1: chosen (dynamic: first VF without a LID; prepopulated: first
                                // VF whose LID shares x's block, else the first VF)
    ReconfigurationMethod method = ReconfigurationMethod::FTreeMinRC;
    LidScheme scheme = LidScheme::Dynamic;
    UpdateOrder order = UpdateOrder::Safe;
};

struct SwitchUpdate
{
    NodeIndex node = kNoIndex;
    Guid guid = 0;
    QString description;
    bool vSwitch = false;
    int level = -1;              // physical level (0 roots); -1 for a vSwitch
    bool activeRoute = false;    // on a PF-to-PF path between the two hypervisors
    int distance = -1;           // hops to the destination leaf along the new route
    std::uint8_t oldX = 0, newX = 0;
    std::uint8_t oldY = 0, newY = 0;  // prepopulated only
    std::vector<int> blocks;     // LFT blocks to send
};

struct MigrationPlan
{
    ReconfigurationMethod method = ReconfigurationMethod::FTreeMinRC;
    LidScheme scheme = LidScheme::Dynamic;
    UpdateOrder order = UpdateOrder::Safe;
    int hypervisor = -1, vf = -1, destination = -1, destinationVf = -1;
    QString vm, source, target;   // VF description, hypervisor names
    Lid x = 0;                    // the VM's LID, kept
    Lid y = 0;                    // prepopulated: the destination VF's LID, given to the source VF
    Lid pfDestination = 0;
    int blockX = 0, blockY = 0, mPrime = 1;
    int commonLevel = -1;         // FTreeMinRC: l*
    std::vector<NodeIndex> marked;       // FTreeMinRC: the skyline
    std::vector<NodeIndex> activeRoute;  // switches on the PF-to-PF paths (∩ marked for FTreeMinRC)
    std::vector<SwitchUpdate> updates;   // physical switches in update order, then vSwitches
    int candidateSwitches = 0;    // switches examined: all (ItRC), marked (FTreeMinRC)
    int switchesTouched = 0;      // physical switches with a changed entry (n')
    int entriesChanged = 0;
    int smps = 0;                 // LFT blocks sent to physical switches
    int vSwitchSmps = 0;
    double markingSeconds = 0;
    double planningSeconds = 0;
    std::vector<LidChange> lidChanges;
    ForwardingTables fullTables;  // method Full: the re-routed tables
    QStringList warnings;

    double estimatedSeconds(double smpSeconds = kDefaultSmpSeconds) const { return reconfigurationSeconds(smps, smpSeconds); }
};

Result<MigrationPlan> planMigration(const Fabric &fabric, const VirtualisedFabric &virt, const PhysicalTree &tree,
                                    const ForwardingTables &tables, const MigrationRequest &request);

struct ReconfiguredFabric
{
    Fabric fabric;
    ForwardingTables tables;
};
// The fabric with the LIDs moved and the tables after every update of the plan.
Result<ReconfiguredFabric> applyMigration(const Fabric &fabric, const ForwardingTables &tables, const MigrationPlan &plan);

// Every intermediate state of a plan's update order (§3.5, T14): after each switch update,
// every physical switch follows LID x. Counts the states with a forwarding loop for x and those
// with a down-then-up turn on some path.
struct TransientReport
{
    int states = 0;
    int statesWithLoop = 0;
    int statesWithDownUpTurn = 0;
};
TransientReport checkTransientStates(const Fabric &newFabric, const PhysicalTree &tree, const ForwardingTables &tables,
                                     const MigrationPlan &plan);

// Boot and shutdown (§3.2, §7.7). Boot under dynamic LIDs gives the VF the lowest free LID
// (keeps B small) unless one is asked for, and copies the hypervisor's PF entry into every
// physical switch; under prepopulated LIDs the VF already has its LID and routes: no SMP.
// Shutdown clears the LID's entries and releases it.
struct VmLifecycle
{
    Lid lid = 0;
    int block = 0;
    int switchesTouched = 0;
    int smps = 0;
    int vSwitchSmps = 0;
    bool raisesTop = false;  // the LID is above some switch's LinearFDBTop: one more SMP there
    Fabric fabric;
    ForwardingTables tables;
};
Result<VmLifecycle> bootVm(const Fabric &fabric, const VirtualisedFabric &virt, const ForwardingTables &tables,
                           int hypervisor, int vf, Lid lid = 0);
Result<VmLifecycle> shutdownVm(const Fabric &fabric, const VirtualisedFabric &virt, const ForwardingTables &tables,
                               int hypervisor, int vf);

// How far tables have drifted from what vswitch-ftree computes for the current placement
// (§5.7, §7.5 "quality drift"): entries and blocks of physical switches that differ, and the
// heaviest cable load under the VM weights (replaying each leaf's route to each VM) in both.
struct RoutingDrift
{
    std::int64_t entriesCompared = 0;
    std::int64_t entriesDiffering = 0;
    int switchesDiffering = 0;
    std::int64_t blocksDiffering = 0;   // SMPs a rebalance would send
    double maxCableLoad = 0;            // current tables
    double maxCableLoadFresh = 0;       // fresh vswitch-ftree
    double differingFraction() const { return entriesCompared ? double(entriesDiffering) / double(entriesCompared) : 0; }
};
Result<RoutingDrift> routingDrift(const Fabric &fabric, const ForwardingTables &tables);

// The paper's simulation grid (§5.7, Table 4; T19): per topology, 3 populations (25, 50, 75%
// of m_c = VFs per hypervisor x hypervisors, 4 VFs in the paper) x 7 (initial distribution,
// pattern) pairs: random, consolidate and grouping from a uniform or a random start, and
// to-uniform from a random start only, 21 in all. The random pattern runs 2 x hypervisors
// migrations; the other patterns run as many as they need (footnote 8: not minimised), so
// their count is left at 0. What the paper leaves open (E19: destination rule of the random
// pattern, group sizes of grouping) is not part of a configuration.
enum class VmDistribution : std::uint8_t { Uniform, Random };
enum class MigrationPattern : std::uint8_t { Random, Consolidate, Grouping, ToUniform };

QString vmDistributionName(VmDistribution distribution);  // "uniform", "random"
QString migrationPatternName(MigrationPattern pattern);    // "random", "consolidate", "grouping", "to-uniform"

struct SimulationConfiguration
{
    VmDistribution initial = VmDistribution::Uniform;
    MigrationPattern pattern = MigrationPattern::Random;
    int populationPercent = 0;
    std::int64_t hypervisors = 0;
    int vfsPerHypervisor = 0;
    std::int64_t vms = 0;              // populationPercent% of hypervisors x vfsPerHypervisor
    std::int64_t randomMigrations = 0; // 2 x hypervisors for the random pattern, else 0
    QString name() const;              // "50%, uniform start, consolidate"
};

// Populations in ascending order; within one, uniform start before random, patterns in the
// order of MigrationPattern. Empty for no hypervisors or VFs.
std::vector<SimulationConfiguration> simulationConfigurations(std::int64_t hypervisors, int vfsPerHypervisor = 4);

}  // namespace weft
