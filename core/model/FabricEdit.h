#pragma once
// A fabric rebuilt from another through FabricBuilder with a few things changed: nodes left out
// (with every cable on them), cables cut, LIDs moved. The snapshot itself never changes; a
// what-if event (WhatIf.h) and a VM's LID moving (fabricWithLids) each make a new one this way.

#include "Fabric.h"
#include "Result.h"

#include <vector>

namespace weft {

struct FabricEdit
{
    std::vector<bool> removedNodes;  // by NodeIndex; empty: none
    std::vector<bool> cutPorts;      // by PortIndex: the cable on this port is gone; empty: none
    std::vector<Lid> lids;           // by PortIndex, the LID each port gets; empty: as they are
    std::vector<std::uint8_t> lmcs;  // by PortIndex, with `lids`: the LMC each port gets; empty: as they are
    std::vector<NodeRole> roles;     // by NodeIndex, the role each node gets; empty: as they are
};

// Ports left without their cable (cut, or the node at the far end removed) are kept, down and
// without a link width, as a switch reports a port whose cable is gone. Everything else (GUIDs,
// names, LIDs unless moved, port states, roles unless changed, node groups) is copied.
Result<Fabric> editedFabric(const Fabric &fabric, const FabricEdit &edit);

}  // namespace weft
