#pragma once
// The Plan stage of the self-adaptive loop (spec 003 §5.5): what a rule's firing changes in the
// knowledge (learned or set weights, isolation policies), the candidate routings that get the
// fabric there from the tables the switches hold, planned through the studio's planner
// (planCandidates, so the figures are the studio's and the Diff Review's), each scored as
// benefit minus cost, and the one chosen.
//
// Learned weights (spec 003 §3.4, wFTree's dynamic weights): per end node the receive rate
// smoothed by MetricStore::smoothedReceiveRates over the action's window; w(n) = max(w_min,
// r̂_n / mean r̂), rounded to the quantum; a node keeps its current weight unless the new one
// differs from it by more than the change threshold (|Δw| / w > threshold), so that small
// fluctuations do not cause re-routes. Weights are per port GUID as in Tenancy::nodeWeights.
//
// Score of a valid candidate, all figures relative so that fabrics of any size compare alike:
//   benefit = (maxBefore - maxAfter) / maxBefore + meanWeight x (meanBefore - meanAfter) / meanBefore
//   cost    = smpWeight x smps / switch blocks in use + pathWeight x changedPaths / pairs compared
//   score   = benefit - cost
// (link loads are the candidate study's: Metrics counts each flow on a link with its
// destination's weight (Tenancy::nodeWeights), and planCandidates evaluates the installed tables
// ("before") and each candidate ("after") with the same tenancy, the plan's; so both sides are
// weighted by the weights the plan uses, which for learned weights are the measured demand, and
// the benefit is a fall in measured-like load, not in unit-weight routes). "Switch blocks in use"
// is switches x (maxLid / 64 + 1). Invalid candidates, and those violating an isolation policy in
// strict mode, are never chosen (score NaN). Nothing is chosen when no candidate's score exceeds
// minimumScore: the firing ends as "no-improvement" ("no-valid-candidate" when none is eligible);
// of equal scores the first in candidate order wins. Except when the installed tables no longer
// deliver on the fabric (unreachable pairs, loops or credit loops, e.g. after a link went down):
// then the best eligible candidate is chosen whatever its score.
//
// Which weights a reroute plans with: weights=learned(D) learns over D; weights=static keeps the
// tenancy's; no weights= option learns over defaultWindowSeconds for the weighted engines
// (wftree, wpftree) and keeps the tenancy's for the others. Engines map to Weft's: ftree,
// wftree, pftree, wpftree -> pftree-wt, vswitch -> vswitch-ftree. Only a rule's first reroute is
// planned. set_weight selects end nodes by NodeQuery (`all`: every end node) and sets the weight
// of each one's end ports; set_isolation finds the partition by name, else by P_Key.

#include "AdaptMetrics.h"
#include "ForwardingTables.h"
#include "MetabaseRouting.h"
#include "ReconfigurationCandidates.h"
#include "Result.h"
#include "RuleEngine.h"
#include "Tenancy.h"
#include "TrafficModel.h"

#include <QJsonObject>
#include <QString>

#include <map>
#include <memory>
#include <vector>

namespace weft::adapt {

struct LearnedWeightOptions
{
    double defaultWindowSeconds = 300;  // a weighted engine's reroute without weights=
    double minimumWeight = 0.1;
    double changeThreshold = 0.2;
    double quantum = 0.1;
};

// New weights from smoothed receive rates (parallel to fabric.endNodes()); `changed` receives
// how many end nodes' weights changed. Nodes with no rate measured (NaN or negative; a shorter
// vector) keep their weight and are left out of the mean; all rates 0 changes nothing. A node's
// current weight is its first end port's (TrafficModel's end ports: a LID and a cable; 1 when
// unset), and the new one is set on all its end ports; entries for other GUIDs are kept.
std::map<Guid, double> learnedWeights(const Fabric &fabric, const std::vector<double> &smoothedRates,
                                      const std::map<Guid, double> &current, const LearnedWeightOptions &options,
                                      int *changed = nullptr);

// What the loop knows (the K of MAPE-K): the fabric as discovered, the tables the switches
// hold, the operator's tenancy (partitions, policies, weights) as installed, and the metabase
// whose blueprints survive between plans until the topology changes.
struct AdaptKnowledge
{
    std::shared_ptr<const Fabric> fabric;
    std::shared_ptr<const ForwardingTables> installed;
    Tenancy tenancy;
    std::vector<Partition> currentPartitions;  // what OpenSM's partitions.conf holds
    TrafficModel model;
    std::shared_ptr<Metabase> metabase = std::make_shared<Metabase>();
    // Set by a topology event (link_down, node_added, node_removed, topology_change): the next
    // plan clears the metabase (phase 1 again before phase 2, T-SA-4) and clears this.
    bool topologyChanged = false;
};

struct PlannerOptions
{
    LearnedWeightOptions learned;
    double meanWeight = 0.5;
    double smpWeight = 0.05;
    double pathWeight = 0.05;
    double minimumScore = 0.01;
    double defaultTau = 0.5;  // slimupdate when the action gives no tau
};

struct PlannedChange
{
    RuleFiring firing;
    Tenancy tenancy;          // what the candidates were planned for (weights, policies changed)
    int weightsChanged = 0;   // end nodes whose weight the firing changed
    bool metabaseInvalidated = false;  // the topology changed: the metabase was cleared first
    CandidateStudy study;
    std::vector<double> scores;  // parallel to study.candidates; NaN where not eligible
    int chosen = -1;             // index into study.candidates; -1: none
    QString decision;            // "chosen CANDIDATE (score S)", "no-improvement", "no-valid-candidate"
    QStringList notes;           // notify texts, weights set, policies set

    const CandidateResult *chosenCandidate() const
    {
        return chosen >= 0 && std::size_t(chosen) < study.candidates.size() ? &study.candidates[std::size_t(chosen)] : nullptr;
    }
    // {rule, time, weights_changed, metabase_invalidated, decision, notes, chosen,
    //  candidates: [candidateToJson + score]}
    QJsonObject toJson() const;
};

// The candidate specs a reroute action asks for: method full -> full:ENGINE; slimupdate ->
// slimupdate:TAU; metabase -> metabase:weighted; no method -> all three.
std::vector<CandidateSpec> candidateSpecsFor(const Action &reroute, const PlannerOptions &options);

// Plans a fired rule's actions against the knowledge. set_weight and set_isolation change the
// tenancy the candidates are planned for; a rule with either but no reroute re-routes with
// full:wftree (weights) or full:pftree (isolation). A rule with only notify plans nothing
// (study empty, decision "notify"). Uses and, after a topology change, clears the knowledge's
// metabase. An Error for a set_weight / set_isolation naming nothing in the fabric, or when
// cancelled.
Result<PlannedChange> planFiring(const RuleFiring &firing, AdaptKnowledge &knowledge, const MetricStore &store,
                                 const PlannerOptions &options = {}, CandidateProgress *progress = nullptr);

}  // namespace weft::adapt
