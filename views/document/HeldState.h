#pragma once
// What a live fabric holds, as the desk takes it from a discovery: the fabric, the forwarding
// tables its switches hold and the P_Key tables of its ports. The partitions those P_Key tables
// amount to are PKeyTables.h's partitionsHeld (named by nameAfter).

#include "Fabric.h"
#include "ForwardingTables.h"
#include "PKeyTables.h"
#include "Tenancy.h"

#include <vector>

namespace weft {

struct HeldState
{
    Fabric fabric;
    ForwardingTables tables;
    PKeyTables pkeys;
};

}  // namespace weft
