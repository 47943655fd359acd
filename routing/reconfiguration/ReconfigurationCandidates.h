#pragma once
// Reconfiguration candidates side by side (spec 003 §8 "Side-by-side candidates"): for one
// change (a what-if event, new partitions or policies, new weights) every applicable way of
// getting there from the tables the switches hold now, each planned and judged alike:
//   full:ENGINE         a re-route from scratch with any registered engine;
//   slimupdate[:TAU]    SlimUpdate keeping installed choices within τ (weight units);
//   metabase[:POLICY]   metabase phase 2 with a slot policy (port-order, weighted, sticky,
//                       mpi-order, priority).
// `weft reconfigure` and the desk's reconfiguration studio call planCandidates, so they give
// the same figures for the same input.
//
// Figures per candidate, all against the installed tables:
//   changed entries, changed blocks and SMPs: planReconfiguration on the fabric after the event
//   (the Diff Review shows the same figures once the candidate is chosen);
//   changed paths: ΔP (reconfigurationCost), ordered end-port pairs present before and after
//   whose path changed, with changedPairs() for the drill-down;
//   link load before (installed tables on the fabric after the event, as far as they still
//   deliver) and after, max and mean, under the traffic model and tenancy;
//   isolation violations; validity (every pair that may talk is delivered, no forwarding loop,
//   no credit loop); optional eBB; time to compute.

#include "Fabric.h"
#include "ForwardingTables.h"
#include "MetabaseRouting.h"
#include "ReconfigurationPlan.h"
#include "Result.h"
#include "RoutingEvaluation.h"
#include "RoutingProposal.h"
#include "SlimUpdate.h"
#include "Tenancy.h"
#include "TrafficModel.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace weft {

enum class CandidateKind : std::uint8_t { Full, SlimUpdate, Metabase };

struct CandidateSpec
{
    CandidateKind kind = CandidateKind::Full;
    QString engine = QStringLiteral("ftree");  // Full
    double tau = 0;                             // SlimUpdate; Metabase Sticky slack
    SlotPolicy policy = SlotPolicy::Sticky;     // Metabase

    // "full:ftree", "slimupdate:0.5", "metabase:sticky": as parseCandidates reads it, and the
    // candidate's name in the studio, in JSON and for `--out-dir` (NAME.lfts, ':' kept).
    QString name() const;
};

// "full:ENGINE,slimupdate[:TAU],metabase[:POLICY]": a comma-separated list. Fails naming the
// item: unknown kind, engine or policy, a τ that is not a number ≥ 0, an empty list.
Result<std::vector<CandidateSpec>> parseCandidates(const QString &text);

struct CandidateInput
{
    std::shared_ptr<const Fabric> installedFabric;       // the fabric the installed tables are for
    std::shared_ptr<const ForwardingTables> installed;   // what the switches hold; never null
    std::shared_ptr<const Fabric> fabric;                // after the event (may be installedFabric)
    QString event;                                       // WhatIf::describe, or "weights changed"…
    Tenancy tenancy;                                     // partitions, policies, weights as proposed
    std::vector<Partition> currentPartitions;            // what partitions.conf holds now
    TrafficModel model;
    int ebbSamples = 0;                                  // 0: no eBB
    // Metabase inputs for mpi-order (rank order, port GUIDs) and priority (high-priority ports).
    std::vector<Guid> nodeOrder;
    std::vector<Guid> priorityNodes;
    // The metabase the metabase candidates use; shared so that its blueprints survive between
    // studies (the self-adaptive loop's knowledge). Null: a fresh one for this study.
    std::shared_ptr<Metabase> metabase;
};

struct CandidateResult
{
    CandidateSpec spec;
    QString name;                 // spec.name()
    QString error;                // why there is no candidate (an engine's refusal); the rest is empty
    std::shared_ptr<const ForwardingTables> tables;  // on input.fabric
    std::shared_ptr<const ReconfigurationPlan> plan; // installed -> tables, on input.fabric
    long long changedEntries = 0;
    long long changedBlocks = 0;
    long long smps = 0;
    std::uint64_t changedPaths = 0;  // ΔP
    std::uint64_t pairsCompared = 0;
    double maxLinkLoadBefore = 0, maxLinkLoadAfter = 0;
    double meanLinkLoadBefore = 0, meanLinkLoadAfter = 0;
    int isolationViolations = 0;
    bool reachable = false, loopFree = false, deadlockFree = false;
    bool valid() const { return error.isEmpty() && reachable && loopFree && deadlockFree; }
    RoutingEvaluation evaluation;    // of `tables` on input.fabric
    double computeSeconds = 0;       // the candidate's routing alone
    QStringList warnings;
    std::map<std::uint16_t, int> serviceLevels;  // the engine's, P_Key -> SL
    // Metabase candidates: phase 1 came from the metabase (a hit) or was computed (T_calc).
    bool metabaseHit = false;
    double metabaseCalculationSeconds = 0;
};

struct CandidateStudy
{
    std::shared_ptr<const Fabric> fabric;  // input.fabric
    QString event;
    RoutingEvaluation installedEvaluation;  // the installed tables on input.fabric ("before")
    std::vector<CandidateResult> candidates;  // in the order asked for
};

struct CandidateProgress
{
    std::atomic<int> done{0};    // candidates finished
    std::atomic<int> total{0};
    std::atomic<bool> cancel{false};
};

// One candidate's routing from the installed tables: the spec's method on input.fabric (a full
// re-route, SlimUpdate from input.installed on input.installedFabric, metabase phase 2), then the
// management routes the installed tables have and the method lost, routed again
// (routeLostManagementLids). Deterministic: the same fabrics, tables, tenancy and spec give
// byte-identical tables. planCandidates calls it for every candidate, and Weft's engine inside
// OpenSM for an intent that says how a change is applied (IntentRouting.h: IntentOptions::apply),
// so that what the studio planned from the held tables is what the plugin installs from them.
struct CandidateRouting
{
    Routing routing;
    std::optional<ReconfigurationCost> cost;  // when the method measured it already
    double seconds = 0;                       // the method's routing alone
    bool metabaseHit = false;
    double metabaseCalculationSeconds = 0;
    std::size_t managementEntriesAdded = 0;   // entries routed again for management traffic
};
Result<CandidateRouting> routeCandidate(const CandidateInput &input, const CandidateSpec &spec, Metabase &metabase,
                                        CandidateProgress *progress = nullptr);

// Plans every candidate in turn, on any thread. Fails only when cancelled (cancelledMessage())
// or when the input is unusable (no installed tables); a candidate an engine refuses carries
// its error and the others go on.
Result<CandidateStudy> planCandidates(const CandidateInput &input, const std::vector<CandidateSpec> &specs,
                                      CandidateProgress *progress = nullptr);

// The proposal a candidate becomes, for a review and its commit: "Current: INSTALLED" (the
// installed tables as the study judged them) beside "Candidate: NAME" (its tables, evaluation and
// service levels). Fails, saying why, for a candidate without tables (one an engine refused).
Result<PreviewResult> candidateProposal(const CandidateStudy &study, const CandidateResult &candidate,
                                        std::shared_ptr<const ForwardingTables> installed, const QString &installedName);

// The drill-down: up to `limit` ordered end-port pairs (source, destination port indices of
// `fabric`) whose path differs between the installed tables (on installedFabric) and
// `proposed` (on fabric), in source then destination order, and the total count.
struct ChangedPairs
{
    std::vector<std::pair<PortIndex, PortIndex>> pairs;
    std::uint64_t total = 0;
};
ChangedPairs changedPairs(const Fabric &installedFabric, const ForwardingTables &installed, const Fabric &fabric,
                          const ForwardingTables &proposed, std::size_t limit = 1000);

// One object per candidate: name, changed_entries, changed_blocks, smps, changed_paths,
// max_link_load (after), max_link_load_before, mean_link_load, mean_link_load_before,
// isolation_violations, reachable, loop_free, deadlock_free, valid, compute_seconds, ebb (when
// asked), error, warnings.
QJsonObject candidateToJson(const CandidateResult &candidate);
QJsonObject studyToJson(const CandidateStudy &study);
QString studyToText(const CandidateStudy &study);

}  // namespace weft
