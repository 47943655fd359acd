#pragma once
// Routing by the operator's intent: a Weft project (engine and options, partitions with their
// policies, node weights) applied to the fabric as it is, by one function that `weft route
// --project` and the routing engine Weft runs inside OpenSM (routing/osm) both call, so what the
// switches hold can be checked against what Weft computes for the same fabric.
//
// The order, on every run:
//   1. Nothing changed since the last run (the same cables, LIDs and intent): the installed
//      tables stay as they are.
//   2. The fabric lost cables or switches, and the intent asks for minimal change
//      (`"on_topology_change": "slimupdate"`, the default): SlimUpdate from the tables the
//      switches hold, kept when it is valid on the fabric (every live pair reachable, no loop,
//      no credit loop) and meets the partitions' policies as well as a full re-route does.
//   3. A full re-route with the intent's engine; when the engine refuses the fabric or its
//      tables are not valid on it, pftree (for a fat-tree engine: it routes degraded trees and
//      keeps phy-isolation wherever the tree still allows it), then updn, which routes any
//      topology without credit loops.
// The first start, a repaired fabric (cables or switches back) and a changed intent take 3,
// so a repaired fabric gets back exactly the intent's tables.
#include "Commit.h"
#include "Fabric.h"
#include "ProjectFile.h"
#include "ReconfigurationCandidates.h"
#include "RoutingEngine.h"
#include "WhatIf.h"

#include <QString>
#include <QStringList>

#include <map>
#include <memory>

namespace weft {

enum class TopologyChangeMode { SlimUpdate,
                                FullReroute };

// What a project says about routing inside OpenSM, read from its routing options.
struct IntentOptions
{
    TopologyChangeMode onTopologyChange = TopologyChangeMode::SlimUpdate;
    double slack = 0;  // SlimUpdate's τ
    double searchBudgetSeconds = -1;  // routing option search_budget (s); -1: not given
    // Elements drained for maintenance (`"drained": {"links": [{"guid", "port"}], "switches":
    // [GUID]}` in the routing options; `weft drain`): routed around while they stay up, at every
    // run. Only failedLinkPorts (a cable by either end) and failedSwitches are used.
    WhatIf drained;
    // How a change of intent is applied to the tables the switches hold (`"apply": {"method":
    // "slimupdate", "tolerance": τ}` or `{"method": "metabase", "policy": "port-order|weighted|
    // sticky", "tolerance": τ}`; `{"method": "engine"}` or none: a full re-route by the intent's
    // engine, the default). Set, the first run that reads the intent applies the method to the
    // tables OpenSM holds, on the fabric without the drained elements, by routeCandidate: what the
    // studio planned for the same tables (a studio candidate approved in plugin mode). Later runs
    // keep those tables while the fabric stays as it was, handle a lost cable or switch by the
    // usual order (repair, SlimUpdate by `slack`, the engine), and a gained one by the method again
    // from the held tables; a first start (nothing held) routes by the engine.
    std::optional<CandidateSpec> apply;
    // `"from"` in the apply object: heldTablesStamp of the tables the candidate was planned from
    // (the session writes it). The method is applied when the intent is new, and again when the
    // same intent is written again (approved again) while the tables held carry this stamp and
    // were not made by the method from tables of this stamp; empty: not given.
    QString applyFrom;
};

// A stamp of the tables `held` for `fabric`: SHA-256 (first 32 hex digits) over the fabric's
// switches by GUID and, for each, its entry for every LID the fabric assigns (kNoRoute where it
// has no table), so that the session (the tables read from the switches) and the plugin (the
// tables OpenSM holds) stamp the same tables alike, whatever lies past the fabric's LIDs.
QString heldTablesStamp(const Fabric &fabric, const ForwardingTables &held);
// `source`, when given, is the file's text: an error then names the line of the bad option.
Result<IntentOptions> intentOptions(const Project &project, const QString &fileName = {}, const QByteArray &source = {});

// The project with `apply` as how its change is applied (a SlimUpdate or metabase candidate); none
// or a full re-route removes the option.
// `from` (heldTablesStamp), when given, is written as the stamp of the tables it was planned from.
Project withApply(const Project &project, const std::optional<CandidateSpec> &apply, const QString &from = {});

// The intent that installs a studio candidate through Weft's engine inside OpenSM: `inForce` (the
// intent the plugin routes now) with the candidate as its apply method and the what-if `events`'
// failed cables and switches as its drained set, so that the plugin routes from the held tables on
// the fabric the candidate was planned on. Refused, saying why, for a full re-route (a Routing
// Preview's engine is its own intent), a removed host (nothing the SM routes around), elements
// `inForce` drains that the events lack (the candidate was planned with them in use), or a drain
// that would cut off end ports. `heldStamp` (heldTablesStamp of the tables the candidate was
// planned from) goes in as the apply object's `"from"`.
Result<Project> intentApplying(const Project &inForce, const CandidateSpec &candidate, const WhatIf &events, const Fabric &fabric,
                               const QString &heldStamp = {});

// `tables`, routed on `fabric` without the switches `drained` names, with a table for each of
// them that routes only its own LID: what the plugin installs for a drained switch.
ForwardingTables withDrainedSwitchTables(const Fabric &fabric, ForwardingTables tables);

// The project with `drained` as its drained set (replacing the one it had; none removes the
// option) and without an apply method (a drain is the engine's routing). Links are written by
// both ends' names as `fabric` has them, for the reader.
Project withDrained(const Project &project, const WhatIf &drained, const Fabric *fabric = nullptr);
// The cable of (node GUID, port) in `fabric` by both its ends: true when `a` and `b` name the
// same cable (either end), also when `fabric` lacks it (then only the same end matches).
bool sameCable(const Fabric &fabric, const std::pair<Guid, int> &a, const std::pair<Guid, int> &b);

// What was installed by the last run: the fabric it was routed on, and the tables.
struct InstalledRouting
{
    std::shared_ptr<const Fabric> fabric;
    ForwardingTables tables;
    std::map<std::uint16_t, int> serviceLevels;  // P_Key -> SL, as the tables were made with
    QString intentDigest;                        // the intent the tables were made from
    QString appliedFrom;                         // the apply stamp (IntentOptions::applyFrom) the intent's method was applied from, if it was
    // The routing installed under the intent before this one, as it was last installed: when that
    // intent comes back (a failed commit's rollback puts its file back) on the same fabric, an
    // intent with an apply method gets these tables back rather than its method applied to the
    // failed commit's tables. Null: none kept.
    std::shared_ptr<const InstalledRouting> previousIntent;
};

struct IntentRouting
{
    Routing routing;    // in the fabric's switch order
    QString method;     // "kept", "slimupdate", "restored", or the engine or apply method that routed
    QString appliedFrom;  // for InstalledRouting::appliedFrom
    QStringList notes;  // why an earlier step of the order was passed over
    // The fabric the tables were routed on when the intent drains elements of it (the fabric
    // without them; the drained switches' tables route only their own LID); null otherwise.
    std::shared_ptr<const Fabric> routedOn;
};

// The intent's own engine on the fabric (step 3 alone): `weft route --project`.
Result<IntentRouting> routeIntent(const Fabric &fabric, const Project &intent, const RoutingOptions &options = {});

// The commit of an intent (plugin mode): the tables are what OpenSM's engine computes from it for
// `fabric` (routeIntent, the project bound to the fabric), the partitions the project's, and
// `intentFile` the bytes written to OpenSM's event_plugin_options file. The service levels are
// the engine's to answer (path_sl), so partitions.conf carries none. `missing`: the project's
// GUIDs the fabric lacks, left out.
Result<CommitPlan> planIntentCommit(const Fabric &fabric, const Project &intent, const QByteArray &intentFile,
                                    const QString &intentName, const HeldTables &held, QStringList *missing = nullptr);

// A project routed by its own engine as a plan of tables (`POST plans` with a project): the
// project bound to `fabric`, its partitions with the engine's service levels, judged by its
// policies. `projectName` names its partitions in errors.
Result<CommitPlan> planProjectCommit(const Fabric &fabric, const Project &project, const QString &projectName,
                                     const HeldTables &held, QStringList *missing = nullptr);

// An intent file's bytes (a Weft project) routed on `fabric` as Weft's engine inside OpenSM
// routes it at a first sweep: the tables a plugin-mode commit verifies the switches against
// (CommitBackend::routeIntent). The project's GUIDs the fabric lacks are left out. An intent with
// an apply method has no tables of its own (they come from the held ones): `recorded`, the plan's
// tables the commit kept beside the journal, are its tables; without them it is refused.
Result<ForwardingTables> routeIntentFile(const Fabric &fabric, const QByteArray &intent, const QString &fileName,
                                         const ForwardingTables *recorded = nullptr);

// The whole order. `installed` may be null (nothing installed yet), `intentDigest` names the
// intent's content (a changed intent is routed afresh).
Result<IntentRouting> routeIntentAfterChange(const Fabric &fabric, const Project &intent, const QString &intentDigest,
                                             const InstalledRouting *installed, const RoutingOptions &options = {});

// What Weft's engine inside OpenSM will do on its own when `events` happen (the studio's "what the
// SM will do"): its run at the sweep after them, on `fabric` with the events applied, from the
// tables the switches hold now (`held`, routed by `intent` on `fabric`). The service levels of
// the last run are taken as the intent's own routing of `fabric` gives them.
Result<IntentRouting> predictIntentResponse(const Fabric &fabric, const ForwardingTables &held, const Project &intent,
                                            const WhatIf &events);

// What a fabric lost and gained against another: cables by their two (node GUID, port) ends,
// switches by GUID; a LID moved counts as gained.
struct TopologyDelta
{
    int linksLost = 0;
    int linksGained = 0;
    int nodesLost = 0;
    int nodesGained = 0;
    bool same() const { return linksLost == 0 && linksGained == 0 && nodesLost == 0 && nodesGained == 0; }
};
TopologyDelta topologyDelta(const Fabric &before, const Fabric &after);

}  // namespace weft
