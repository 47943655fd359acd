#pragma once
// What a live fabric holds, as the desk takes it from a discovery: the fabric, the forwarding
// tables its switches hold and the P_Key tables of its ports, and the partitions those P_Key
// tables amount to. The tables carry no partition names, so each partition is named by its
// P_Key; OpenSM's own Default partition is left out unless ports other than one (the SM's)
// are its full members, as OpenSM adds it whatever partitions.conf says (PKeyTables.h).

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

// One partition per P_Key found in the tables of CA and router ports and switch port 0 (the
// ports a partitions.conf names; a switch port facing a CA only mirrors the CA's table), each
// port a member as its table says (full-member bit set: full, else limited), in P_Key order.
std::vector<Partition> partitionsHeld(const Fabric &fabric, const PKeyTables &pkeys);

// Gives the partitions of `held` the names that `named` (the partitions.conf OpenSM was given)
// has for their P_Keys; the others keep theirs.
void nameAfter(std::vector<Partition> &held, const std::vector<Partition> &named);

}  // namespace weft
