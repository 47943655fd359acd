#pragma once
// The routing stage: one abstract engine, as OpenSM structures its own (a build step that
// studies the fabric and may refuse it, then a step that fills the forwarding tables).
//
// An engine copies what it needs from the Fabric into compact index arrays in prepare(), never
// changes the fabric, and is deterministic: the same fabric and options give byte-identical
// tables. Failure is a value with a reason; a failed prepare() or route() leaves no partial
// result behind, and route() may be run again after a successful prepare().

#include "Fabric.h"
#include "ForwardingTables.h"
#include "Result.h"
#include "Tenancy.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <vector>

namespace weft {

struct RoutingOptions
{
    // Called now and then during long runs with work done so far out of `total` units (the
    // unit is the engine's: destinations routed, usually). Returning false cancels the run,
    // which then fails with a "cancelled" error. Called on the routing thread.
    std::function<bool(int done, int total)> progress;
    // Seconds an engine's search may take (pftree's isolation search): negative for the
    // engine's default, 0 for no time limit.
    double searchBudgetSeconds = -1;
};

// The search budget `weft route`, the intent (routing option search_budget) and Weft's engine
// inside OpenSM use when nothing says otherwise: well inside OpenSM's default sweep interval of
// 10 s, so that a sweep never waits on the search longer.
constexpr double kDefaultSearchBudgetSeconds = 2.0;

struct Routing
{
    QString engine;                             // the engine's name(), e.g. "ftree"
    ForwardingTables tables;                    // one LFT per switch, in fabric order
    std::map<std::uint16_t, int> serviceLevels; // P_Key (low 15 bits) -> SL, where an engine sets one
    QStringList warnings;                       // routed, but something deserves a look
    // Where the engine judges its phy-isolated partitions (pftree): one line saying whether
    // isolation was kept, proven impossible or not proven; empty otherwise.
    QString isolation;
    // Per LID (indexed by LID; empty when the engine does not say): 1 where the engine saw, as
    // it routed, that every switch reaches the LID by its tables without a loop. A fat-tree
    // engine knows it from its hop counts: every entry it writes leads to a switch with fewer
    // hops to the destination, so a switch with a hop count reaches it. Checked by the walks
    // (IntentRouting) for every LID not vouched for here.
    std::vector<char> reachedFromEverySwitch;
};

class RoutingEngine
{
public:
    virtual ~RoutingEngine() = default;

    // Short name, as OpenSM's -R spells it where OpenSM has the engine: "ftree", "pftree", ...
    virtual QString name() const = 0;
    // One line for a user choosing an engine.
    virtual QString description() const = 0;

    // Checks that the engine can route this fabric and copies what it needs. Refuses with a
    // plain reason (e.g. "not a pure fat-tree: ...") where OpenSM would fall back to another
    // engine. The fabric and tenancy need not outlive the call.
    virtual Status prepare(const Fabric &fabric, const Tenancy &tenancy, const RoutingOptions &options) = 0;

    // Computes the tables for the fabric given to the last successful prepare().
    virtual Result<Routing> route(const RoutingOptions &options) = 0;
};

// The engines a user can name, in the order they are offered (OpenSM's ftree, minhop, updn;
// pftree, pftree-wt, wftree; sssp, sssp2; vswitch-ftree): the one list that the factory, the
// names and the descriptions below are read from. Each engine says its own description(), so the
// table holds no second copy of it.
struct RoutingEngineEntry
{
    const char *name;
    std::unique_ptr<RoutingEngine> (*make)();
};
const std::vector<RoutingEngineEntry> &routingEngines();

// One of routingEngineNames(); nullptr for an unknown name.
std::unique_ptr<RoutingEngine> makeRoutingEngine(const QString &name);
QStringList routingEngineNames();
// The engine's one line for a user choosing it; empty for an unknown name.
QString routingEngineDescription(const QString &name);

// prepare() then route() with a fresh engine of that name.
Result<Routing> routeFabric(const QString &engine, const Fabric &fabric, const Tenancy &tenancy,
                            const RoutingOptions &options = {});

}  // namespace weft
