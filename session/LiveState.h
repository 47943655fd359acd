#pragma once
// What a live fabric holds, as one discovery reads it: the topology, the forwarding tables of
// its switches, the P_Key tables of its ports, the port its master SM runs on, and the
// partitions those P_Key tables amount to, named after the partitions.conf OpenSM is given.

#include "Commit.h"
#include "Fabric.h"
#include "Tenancy.h"

#include <QString>

#include <memory>
#include <vector>

namespace weft {

struct LiveState
{
    std::shared_ptr<const Fabric> fabric;
    HeldTables held;                    // all three read (smPort 0 when the SM was not found)
    QString smPortProblem;              // why the SM's port was not found; empty when it was
    std::vector<Partition> partitions;  // partitionsHeld, named after the target's partitions.conf
};

}  // namespace weft
