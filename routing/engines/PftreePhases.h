#pragma once
// PartitionAwareFatTreeEngine::route() as the phases it runs, in this order, each a function that
// a test can call on its own (tests/tst_engine_phases.cpp):
//
//   routingTargets    what is routed, in the algorithm's order
//   isolationFirst    pftree at scale: the construction's routing, when it shares no link and the
//                     paper's first LIDs already share one (route() then skips to assignLanes)
//   routeRows         the LFT rows, loads and marks of routing every target
//   linkSharing       P(l): the partitions whose flows each directed switch link carries (pftree:
//                     up to the first phy conflict; all of it once the routing is chosen)
//   isolationSearch   pftree only: the isolation search's routing, when it shares fewer links
//   assignLanes       ASSIGN_VIRTUAL_LANES
//   checkPolicies     VALIDATE_POLICIES, forced up-port choices, shared links
//   finishRouting     the tables, service levels and report
//
// route() is these calls and nothing else, so running them in sequence gives its tables,
// warnings and report; the phases share one Run, the prepared model with the run's settings.

#include "PartitionAwareFatTree.h"

#include <QString>
#include <QStringList>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace weft::pftree {

using Model = PartitionAwareFatTreeEngine::Model;
using Algorithm = PartitionAwareFatTreeEngine::Algorithm;

// One run of an engine after a successful prepare(): its model and settings, and the progress
// reported so far (the engine's unit: one per target, one for the checks at the end).
struct Run
{
    Run(const PartitionAwareFatTreeEngine &owner, const RoutingOptions &routingOptions);

    const Model &model;
    Algorithm algorithm;
    PartitionAwareOptions options;
    QString engine;  // name(), the start of every message
    std::function<bool(int done, int total)> progress;
    int done = 0;
    int total = 0;
    // When route() started: the isolation search's time budget counts the whole routing.
    std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();

    // One more unit done; false when the caller cancels.
    bool tick();
};

struct Target
{
    int index = 0;  // compute node, or switch for a switch's LID
    bool computeNode = true;
    bool counted = false;  // changes the loads and marks later targets are routed by
};

// Compute nodes in the algorithm's order (per leaf, Alg. 2, for the partition-aware ones;
// heaviest first across the fabric for wftree), then every switch's own LID.
std::vector<Target> routingTargets(const Run &run);

class Router;  // one routing's LFT rows, loads and marks (PartitionAwareFatTree.cpp)
struct RouterDeleter
{
    void operator()(Router *router) const;
};
using RouterPtr = std::unique_ptr<Router, RouterDeleter>;

// Per compute node, the port groups its route down takes, from its leaf up (IsolationSearch.h).
using ForcedPaths = std::map<int, std::vector<int>>;

// Every target routed, in order (side by side where the fabric is large, with the sequential
// run's tables). nullptr when the caller cancels; a run with `forced` paths does not report
// progress, and is never cancelled.
RouterPtr routeRows(Run &run, const std::vector<Target> &targets, const ForcedPaths *forced = nullptr);

struct LinkSharing
{
    std::vector<std::vector<int>> partsOfLink;  // per directed link (2 * cable + down): keys, ascending
    int unreachable = 0;                        // intra-partition walks that found no route
    bool partial = false;  // stopped at the first link a phy partition shares (untilPhyConflict)
};
// With untilPhyConflict, the walks stop where a link first carries a phy partition with another
// (`partial`; what was walked so far), as the isolation search needs no more to start.
LinkSharing linkSharing(const Run &run, const Router &rows, bool untilPhyConflict = false);

struct IsolatedRouting
{
    RouterPtr rows;
    LinkSharing sharing;
    QString warning;  // what the search improved on the per-leaf allocation
};
struct IsolationFinding
{
    // The routing along the isolation search's paths, when the paper's `sharing` lets a
    // phy-isolated partition share a link and the search's shares strictly fewer; pftree only.
    std::optional<IsolatedRouting> routing;
    // Of the routing route() keeps (the search's when set, else the paper's): whether
    // phy-isolation was kept, proven impossible or not proven.
    IsolationStatus status;
    // The paper's P(l) in full, where `paper` was partial and the search needed all of it.
    std::optional<LinkSharing> paperSharing;
};
// `paper` may be partial (linkSharing's untilPhyConflict); then `paperRows` must be given, and
// the paper's P(l) is walked in full only where the search's routing is not strictly better.
IsolationFinding isolationSearch(Run &run, const std::vector<Target> &targets, const LinkSharing &paper,
                                 const Router *paperRows = nullptr);

// Before the paper's routing (PartitionAwareOptions::constructionFirst): where the exact search
// would not run, the paper's routing is started one LID after another, walking each one's P(l),
// until a link carries a phy partition with another (no more than a sixteenth of the targets);
// then, where the construction's routing shares no link, it is route()'s choice (isolationSearch
// would choose it over the paper's, whose score is above none), returned with its status. Its
// warning counts what the paper's first LIDs share ("at least"). Otherwise nothing, and route()
// runs routeRows, linkSharing and isolationSearch as before.
std::optional<IsolationFinding> isolationFirst(Run &run, const std::vector<Target> &targets);

struct VirtualLanes
{
    std::vector<int> ofKey;  // per key, its VL (0: the default lane)
    QStringList warnings;
};
// Fails in strict mode when the VLs are too few.
Result<VirtualLanes> assignLanes(const Run &run, const LinkSharing &sharing);

struct PolicyCheck
{
    PartitionRoutingReport report;  // violations, shared links and selection conflicts
    QStringList warnings;
};
// Fails in strict mode on any violation.
Result<PolicyCheck> checkPolicies(const Run &run, const Router &rows, const LinkSharing &sharing, const VirtualLanes &lanes);

// The routing result from the chosen rows (whose per-LID reach it takes), completing `report`.
Routing finishRouting(const Run &run, Router &rows, const VirtualLanes &lanes, QStringList warnings,
                      PartitionRoutingReport &report);

}  // namespace weft::pftree
