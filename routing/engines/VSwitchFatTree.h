#pragma once
// vSwitchFatTree (spec 001 §2.3, the normalised form of the paper's Alg. 1) and the physical
// fat-tree under the hypervisors that it and FTreeMinRC share.
//
// Routing, in this order (tie-breaks written down, so the same input gives the same tables):
//  1. Leaves in OpenSM ftree's order (by tuple, from FatTreeEngine's indexing of the same
//     switches with plain hosts; node order if ftree cannot index the tree); on each, its
//     vSwitches in ascending number of running VMs (ties: leaf port order); vSwitches without
//     VMs are skipped (E6). Each VM LID gets weight 1/num_vms and is routed like an ftree
//     compute node: the leaf forwards it to the vSwitch, each switch climbs through its parent
//     with the least accumulated downward weight (ties: ftree tuple order; E5) and the switches
//     below every switch on that chain forward up towards it, children visited in order of
//     upward weight. The other parents get secondary entries, tried in the same load order,
//     that add no downward weight (E3); upward weight is counted on every path that reaches a
//     leaf, as OpenSM does. No switch is given a path longer than one it already has (the
//     OpenSM guard). With 1 VM per hypervisor this is OpenSM ftree entry for entry (T16).
//  2. The PF LIDs the same way, weight 1, in the same order and on the same counters (E4).
//  3. Each vSwitch LID (Weft gives the vSwitch its own LID) copies its PF's entries: same link.
//  4. Physical switch LIDs by breadth-first minimum hops (lowest port among equals).
//  5. vSwitch tables: own LID port 0, PF and VFs their ports, everything else the up-link.
// Weights are exact: scaled integers, the scale being the LCM of the VM counts (E7).

#include "RoutingEngine.h"
#include "Virtualisation.h"

#include <cstdint>
#include <map>
#include <vector>

namespace weft {

// The physical switches of a virtualised fabric as a fat-tree: levels from the roots (0) down
// to the leaves (the switches holding vSwitches), each switch's parents and children.
struct PhysicalTree
{
    struct Cable
    {
        std::uint8_t port = 0;        // on this switch
        int remote = -1;              // dense switch index
        std::uint8_t remotePort = 0;
        int id = -1;                  // cable number, for loads
    };
    struct Switch
    {
        NodeIndex node = kNoIndex;
        Guid guid = 0;
        Lid lid = 0;
        int level = 0;
        std::vector<Cable> up;    // port order
        std::vector<Cable> down;  // port order; switches only
        std::vector<int> hypervisors;  // on a leaf: indices into VirtualisedFabric::hypervisors, port order
    };
    std::vector<Switch> switches;   // VirtualisedFabric::physicalSwitches order
    std::vector<int> denseOfNode;   // per node: dense switch index, -1 for others
    std::vector<int> leaves;        // dense indices, node order
    int leafLevel = 0;
    int cableCount = 0;
    // A regular fat-tree: every leaf at the bottom level, every link joins adjacent levels and
    // every non-root has a parent. FTreeMinRC's marking is only sound on one (§3.4).
    bool regular = false;
    QString irregularity;           // why not, when not

    int denseOf(NodeIndex node) const { return node >= 0 && std::size_t(node) < denseOfNode.size() ? denseOfNode[std::size_t(node)] : -1; }
};

Result<PhysicalTree> buildPhysicalTree(const Fabric &fabric, const VirtualisedFabric &virt);

struct VSwitchRoutingOptions
{
    bool vSwitchTables = true;  // tables for the vSwitches too (off: physical switches only, to save memory)
    std::int64_t pfWeight = 1;  // w_PF relative to one vSwitch's VM total (E4)
    // vSwitch weights by vSwitch GUID (absent: 1), divided among each vSwitch's VMs by
    // vmWeights (Virtualisation.h). The engine of the registry weighs every vSwitch 1.
    std::map<Guid, double> hypervisorWeights;
};

struct VSwitchRouting
{
    Routing routing;
    // Per cable (PhysicalTree cable id): accumulated weight going down it and going up it, in
    // vSwitch units (a vSwitch's VMs sum to its weight, 1 by default; a PF weighs pfWeight).
    std::vector<double> loadDown;
    std::vector<double> loadUp;
    std::vector<double> loadDownBeforePfPass;
    std::vector<double> loadUpBeforePfPass;
    std::vector<int> vSwitchOrder;  // hypervisor indices in the order their VMs were routed
};

Result<VSwitchRouting> routeVSwitchFatTree(const Fabric &fabric, const VirtualisedFabric &virt, const PhysicalTree &tree,
                                           const VSwitchRoutingOptions &options = {});

class VSwitchFatTreeEngine : public RoutingEngine
{
public:
    QString name() const override { return QStringLiteral("vswitch-ftree"); }
    QString description() const override;
    Status prepare(const Fabric &fabric, const Tenancy &tenancy, const RoutingOptions &options) override;
    Result<Routing> route(const RoutingOptions &options) override;

private:
    std::shared_ptr<const Fabric> m_fabric;
    VirtualisedFabric m_virt;
    PhysicalTree m_tree;
};

}  // namespace weft
