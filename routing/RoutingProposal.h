#pragma once
// A routing proposal: route a fabric with one engine, then judge the proposed tables and the
// current ones alike (evaluateRouting: validation, metrics, optional eBB), with progress and
// cancel, on any thread. The routing preview runs it in the background and shows the two sides.

#include "EffectiveBisection.h"
#include "Fabric.h"
#include "ForwardingTables.h"
#include "Result.h"
#include "RoutingEvaluation.h"
#include "Tenancy.h"
#include "TrafficModel.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>

namespace weft {

/** One side of the comparison: a set of tables and what core says about them. */
struct RoutingSnapshot : RoutingEvaluation
{
    QString label;  // for display, set by the front end: "Current: opensm.lfts", "Proposed: ftree"
    std::shared_ptr<const ForwardingTables> tables;
    // The engine's service levels, P_Key (low 15 bits) -> SL; empty for tables read or loaded.
    std::map<std::uint16_t, int> serviceLevels;
    // warnings (from RoutingEvaluation) also holds the engine's, and tables that leave LIDs
    // unrouted
};

struct PreviewRequest
{
    std::shared_ptr<const Fabric> fabric;
    Tenancy tenancy;
    std::shared_ptr<const ForwardingTables> current;  // null: the fabric has no known tables
    QString currentName;
    QString engine = QStringLiteral("ftree");
    TrafficModel model;
    int ebbSamples = 0;  // 0: no eBB
    bool throughput = true;  // the fluid max-min throughput, where the model's flows are few enough
    // Called on the proposed tables after routing and before they are judged, with the engine's
    // warnings to add to; null: none. A what-if preview (`fabric` the fabric after the events)
    // routes again there the entries the current tables route and the engine left without one
    // (routeLostManagementLids), so that the plan stays valid on the fabric as it is.
    std::function<void(ForwardingTables &, QStringList &)> adjustProposed;
};

struct PreviewResult
{
    std::optional<RoutingSnapshot> current;
    RoutingSnapshot proposed;
};

/** What a running preview reports to the GUI thread; written by the worker. */
struct PreviewProgress
{
    std::atomic<int> phase{0};  // PreviewPhase
    std::atomic<int> done{0};
    std::atomic<int> total{0};
    std::atomic<bool> cancel{false};
};

enum PreviewPhase { PhaseRouting = 0, PhaseValidating, PhaseMeasuring, PhaseBisection, PhaseDone };

// The whole computation, on any thread. Fails with the engine's reason, or "cancelled"
// (cancelledMessage()).
Result<PreviewResult> computePreview(const PreviewRequest &request, PreviewProgress *progress = nullptr);

}  // namespace weft
