#pragma once
// Management routes a reconfiguration lost. SlimUpdate and metabase routing route down and up
// the tree; on a fabric with a cable gone (a what-if, or a real failure) a switch may be left
// with no up-down path to a neighbour it only reached over that cable, or to the hosts below it,
// and its entry stays without a route. No host's traffic needs those entries (a host's route never
// passes there), but the switch's own does: its traps to the SM, an SA query's answer, SMPs by
// LID. And a plan made for a what-if is installed only if it is valid on the fabric as it is,
// every switch's entries included.

#include "Fabric.h"
#include "ForwardingTables.h"

#include <cstddef>

namespace weft {

// Every entry `installed` routes (the tables the switches hold, on the fabric before the event)
// routed in `tables` as well, where `tables` left it without a route and, for a host's LID, no
// other host's traffic to it arrives at the switch. For each LID that lost an entry, every
// switch without one gets one (a spine the installed tables leave without a route to another,
// as OpenSM's ftree does, may be the only way back): the neighbour the installed entry goes to
// when that neighbour's entries get there now, else the first neighbour one step nearer (over the
// switch-to-switch cables of `fabric`) whose entries do, towards the switch that delivers the LID
// (the switch itself for a switch LID, the one cabled to the port for a host's). Entries already
// set are kept, so a pair the routing leaves unreachable stays so; a LID that lost nothing is not
// touched. Done in order of distance, each new entry leads to a neighbour whose entries already
// get there, so no loop is made. Returns the number of entries set.
std::size_t routeLostManagementLids(const Fabric &fabric, ForwardingTables &tables, const ForwardingTables &installed);

}  // namespace weft
