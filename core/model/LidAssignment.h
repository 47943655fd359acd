#pragma once
// LIDs for a fabric that has none (a design, a generator's tree, an ibsim net file), given as
// OpenSM 3.3.23 gives them at its first sweep as master (osm_lid_mgr.c), so that tables routed
// on the design hold on the fabric once it is cabled:
//  - the SM's own port first (osm_lid_mgr_process_sm), then every other port in OpenSM's port
//    map order (the port GUID byte-swapped, routing::openSmMapKey's order);
//  - each port takes the lowest free LIDs: 2^LMC of them for a CA or router port, aligned to
//    2^LMC (LIDs skipped to align are never used), one for a switch's port 0 (base or enhanced:
//    OpenSM gives a switch an LMC range only with lmc_esp0, which is off by default);
//  - the ports are those OpenSM discovers: every switch's port 0, every CA and router port with
//    a cable.
// Where OpenSM's order cannot be reproduced from a file: OpenSM keeps a LID a port already holds
// (an ibsim node that kept one from a run before, a fabric swept by another SM), and LIDs it
// finds in its guid2lid file, and a port it discovers only at a later sweep (a link that came
// up late) gets the next free LID then. This assignment is for a fabric none of whose ports
// holds a LID; it replaces any LIDs given (as OpenSM's reassign_lids does at its first sweep).

#include "Fabric.h"
#include "Result.h"

namespace weft {

struct LidAssignmentOptions
{
    PortIndex smPort = kNoIndex;  // the SM's port; kNoIndex: the first cabled port of the first CA
    int lmc = 0;                  // 0..7
};

// `fabric` with the LIDs OpenSM would give it; errors name what is wrong (no CA for the SM, a
// port that is not an end port with a cable or a switch's port 0, LIDs run out).
Result<Fabric> assignLidsAsOpenSm(const Fabric &fabric, const LidAssignmentOptions &options = {});

}  // namespace weft
