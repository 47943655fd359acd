#pragma once
// A routing-key plan as `weft keys` and the desk's Routing Keys panel make it: a traffic pattern
// turned into phases, the LID budget for their offsets, and the key schedule (KeySchedule.h),
// with its JSON form and the forwarding tables that realise it. One function for both front
// ends, so that they give the same figures for the same input.

#include "KeySchedule.h"
#include "RoutingKeys.h"

#include <QJsonObject>
#include <QString>

#include <array>
#include <optional>
#include <vector>

namespace weft {

enum class KeyPattern : std::uint8_t { Neighbour,
                                       Shift,
                                       Ring,
                                       RecursiveDoubling };
QString keyPatternName(KeyPattern pattern);  // "neighbour", "shift", "ring", "recursive-doubling"
std::optional<KeyPattern> keyPatternFromName(const QString &name);
const QStringList &keyPatternNames();

struct KeyPlanRequest
{
    std::vector<std::vector<int>> placement;  // per application, its key-tree hosts by rank
    KeyPattern pattern = KeyPattern::Neighbour;
    std::optional<std::array<int, 3>> dims;  // Neighbour: the grid; default balancedDims
    std::optional<int> shift;                // Shift: the one shift; default every 1..P-1
    bool bidirectional = false;              // Ring: also the -1 phase
    KeyScheme scheme = KeyScheme::Ark;
    bool arkIdentityMapping = false;
    ShiftCost cost = ShiftCost::Link;
    Decomposition decomposition = Decomposition::Regularized;
    std::optional<int> lmc;  // for the budget; default the smallest with an offset per phase
    // Per application, the order it runs the phases in (KeyScheduleRequest::phaseOrders); empty:
    // all applications in each phase at once.
    std::vector<std::vector<int>> phaseOrders;
};

struct KeyPlan
{
    KeyTreeShape shape;
    int switches = 0;
    KeyPlanRequest request;
    QString schemeText;   // "ARK (rotation mapping)", "NRK (C_link)"
    QString patternText;  // "neighbour 2x2x2", "ring"
    std::vector<Phase> phases;
    int lmc = 0;
    LidBudget budget;
    bool phasesFit = false;  // budget.offsets ≥ phases
    int maxLmc = 0;
    int staticPaths = 0;  // path-indexed offsets a static scheme would need
    int staticLmc = 0;
    bool staticFits = false;
    KeySchedule schedule;

    int ranks() const { return request.placement.empty() ? 0 : int(request.placement.front().size()); }
};

// Fails with a plain message: no application or no rank, a host outside the tree or given twice,
// dims whose product is not the ranks, a shift ≡ 0, recursive doubling on a rank count that is
// no power of two, an LMC outside 0..7.
Result<KeyPlan> planKeys(const KeyTreeShape &shape, int switches, const KeyPlanRequest &request);

// The LFT dump's tables (keyForwardingTables): fails when the phases need more LID offsets than
// the hosts' LMC gives, naming the LMC to regenerate the fabric with.
Result<ForwardingTables> keyPlanTables(const Fabric &fabric, const KeyTreeFabric &tree, const KeyPlan &plan);

// `weft keys --json`: tree, hosts, switches, scheme, pattern, apps, lid_budget, phases (with
// every key path when `paths`).
QJsonObject keyPlanToJson(const KeyPlan &plan, bool paths = false);

}  // namespace weft
