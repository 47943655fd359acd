#pragma once
// What core says about one set of forwarding tables: whether it is safe to install
// (validation), how it spreads traffic under a traffic model (metrics) and, when asked, its
// effective bisection bandwidth. One function, so that the routing preview and `weft metrics`
// give the same figures for the same tables, and a proposal and the tables it would replace are
// judged alike.

#include "EffectiveBisection.h"
#include "FluidThroughput.h"
#include "Fabric.h"
#include "ForwardingTables.h"
#include "Metrics.h"
#include "Result.h"
#include "Tenancy.h"
#include "TrafficModel.h"
#include "Validation.h"

#include <QStringList>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

namespace weft {

enum class EvaluationStage : std::uint8_t { Validating, Measuring, Bisection };

struct EvaluationOptions
{
    LaneAssignment lanes;  // the engine's service levels; empty: every partition on VL0
    TrafficModel model;
    int ebbSamples = 0;    // random bisections; 0: no eBB
    int ebbThreads = 0;    // 0: one per hardware thread
    // Threads validation and metrics share the destinations among (0: the machine's cores, at
    // most 4); the figures are the same with any number.
    int threads = 0;
    // Rate the traffic model's flows with the fluid max-min model (FluidThroughput.h), when the
    // model has no more than `throughputMaxFlows` flows (else a warning says why not).
    bool throughput = false;
    std::uint64_t throughputMaxFlows = 2'000'000;
    // Called on the calling thread as each stage starts and now and then during eBB; false
    // cancels the evaluation.
    std::function<bool(EvaluationStage stage, int done, int total)> progress;
};

struct RoutingEvaluation
{
    ValidationResult validation;
    // Shared so that a view can keep the per-link figures without copying them.
    std::shared_ptr<const Metrics> metrics;
    std::optional<EbbResult> ebb;  // when asked for and the tables allow it
    std::optional<FluidThroughput> throughput;  // when asked for and affordable
    QStringList warnings;          // why eBB was asked for and not computed
    // Validation and metrics follow each destination's routes once, together: that time is
    // counted in validationSeconds, metricsSeconds is the metrics' own summing up.
    double validationSeconds = 0;
    double metricsSeconds = 0;
};

// The message of the Error a cancelled evaluation (or routing) fails with.
QString cancelledMessage();

// Fails only when cancelled. Tables on which eBB cannot be prepared (a pair not delivered)
// still get validation and metrics, with the reason as a warning.
Result<RoutingEvaluation> evaluateRouting(const Fabric &fabric, const Tenancy &tenancy, const ForwardingTables &tables,
                                          const EvaluationOptions &options = {});

}  // namespace weft
