#pragma once
// A routing-key plan for BSP applications (spec 004): phase by phase, every application in that
// phase at once (with phase orders: step by step, each application in its own phase), each gets
// its key (ARK: rotated by a fixed per-application mapping; NRK: shifted against the keys the
// other applications hold in that step), with the contention of the keys against DmodK on the
// same placement. `weft keys` prints it.

#include "RoutingKeys.h"

#include <QStringList>

#include <vector>

namespace weft {

enum class KeyScheme : std::uint8_t { Ark, Nrk };

struct KeyScheduleRequest
{
    std::vector<std::vector<int>> placement;  // per application, its hosts by rank
    std::vector<Phase> phases;                // phase i uses LID offset i + 1
    // Per application, the order it runs the phases in (a permutation of their indices): step t
    // then has every application in its own t-th phase at once, each at that phase's offset
    // (spec 004 §2.7: applications "each run the same phases in a different order"). Empty:
    // every application runs phase t at step t.
    std::vector<std::vector<int>> phaseOrders;
    KeyScheme scheme = KeyScheme::Ark;
    bool arkIdentityMapping = false;          // ARK: the paper's identity slot -> middle mapping
    ShiftCost cost = ShiftCost::Link;         // NRK
    Decomposition decomposition = Decomposition::Regularized;
};

struct PhaseKeys
{
    Phase phase;                 // with phase orders: "step N", no flows of its own (see appPhases)
    int offset = 0;              // with phase orders: 0 (each application uses its phase's offset)
    std::vector<int> appPhases;  // per application: the phase it runs at this step
    int flows = 0;
    int delta = 0;  // the largest Δ of the applications' keys
    int slots = 0;
    bool contentionFree = true;
    LoadFigures dmodk;
    LoadFigures keyed;
    std::vector<RoutingKey> keys;  // per application, as shifted
    QStringList warnings;          // "app 1: ..."
};

struct KeySchedule
{
    std::vector<int> rotations;      // per application: ARK's rotation, 0 under NRK or identity
    std::vector<PhaseKeys> phases;   // one per step (per phase without phase orders)
    std::vector<OffsetKey> realised; // every key at its offset, for keyForwardingTables
};

// Fails when phase orders are given but not one permutation of the phases per application,
// and if the NRK scheduler refuses a request, which one request per application and phase
// never makes it do.
Result<KeySchedule> scheduleKeys(const KeyTreeShape &shape, const KeyScheduleRequest &request);

}  // namespace weft
