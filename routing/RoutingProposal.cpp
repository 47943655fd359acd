#include "RoutingProposal.h"

#include "DeliveryCheck.h"
#include "LftDump.h"
#include "RoutingEngine.h"

namespace weft {

namespace {

bool keepGoing(PreviewProgress *progress, PreviewPhase phase, int done, int total)
{
    if (!progress)
        return true;
    progress->phase = phase;
    progress->done = done;
    progress->total = total;
    return !progress->cancel.load();
}

PreviewPhase phaseOf(EvaluationStage stage)
{
    switch (stage) {
    case EvaluationStage::Validating: return PhaseValidating;
    case EvaluationStage::Measuring: return PhaseMeasuring;
    case EvaluationStage::Bisection: return PhaseBisection;
    }
    return PhaseValidating;
}

Result<RoutingSnapshot> evaluate(const PreviewRequest &request, std::shared_ptr<const ForwardingTables> tables,
                                 const EvaluationOptions &options)
{
    Result<RoutingEvaluation> evaluation = evaluateRouting(*request.fabric, request.tenancy, *tables, options);
    if (!evaluation)
        return evaluation.error();
    RoutingSnapshot snapshot;
    static_cast<RoutingEvaluation &>(snapshot) = std::move(evaluation).value();
    snapshot.tables = std::move(tables);
    return snapshot;
}

}  // namespace

Result<PreviewResult> computePreview(const PreviewRequest &request, PreviewProgress *progress)
{
    if (!request.fabric)
        return Error{{}, 0, QStringLiteral("no fabric to route")};
    RoutingOptions options;
    options.progress = [progress](int done, int total) { return keepGoing(progress, PhaseRouting, done, total); };
    Result<Routing> routing = routeFabric(request.engine, *request.fabric, request.tenancy, options);
    if (!routing)
        return (progress && progress->cancel) ? Error{{}, 0, cancelledMessage()} : routing.error();
    Routing proposed = std::move(routing).value();
    if (request.adjustProposed)
        request.adjustProposed(proposed.tables, proposed.warnings);

    EvaluationOptions evaluation;
    evaluation.model = request.model;
    evaluation.ebbSamples = request.ebbSamples;
    evaluation.throughput = request.throughput;
    evaluation.progress = [progress](EvaluationStage stage, int done, int total) {
        return keepGoing(progress, phaseOf(stage), done, total);
    };
    // The engine's lanes for its own tables; the current tables come without any.
    evaluation.lanes.serviceLevels = proposed.serviceLevels;
    const std::map<std::uint16_t, int> serviceLevels = proposed.serviceLevels;
    PreviewResult result;
    Result<RoutingSnapshot> after = evaluate(request, std::make_shared<const ForwardingTables>(std::move(proposed.tables)), evaluation);
    if (!after)
        return after.error();
    result.proposed = std::move(after).value();
    result.proposed.serviceLevels = serviceLevels;
    result.proposed.warnings = proposed.warnings + result.proposed.warnings;
    // What the tables leave undelivered, counted as `weft route` counts it (DeliveryCheck.h).
    result.proposed.warnings += deliveryCheckOf(result.proposed.validation).warnings();
    // Whether phy-isolation was kept, proven impossible or not proven: the last two are warnings
    // already; a kept one is said too, so the report always answers (issue 41).
    if (!proposed.isolation.isEmpty() && !result.proposed.warnings.contains(proposed.isolation))
        result.proposed.warnings.prepend(proposed.isolation);

    if (request.current) {
        evaluation.lanes = {};
        Result<RoutingSnapshot> before = evaluate(request, request.current, evaluation);
        if (!before)
            return before.error();
        result.current = std::move(before).value();
        result.current->warnings += lftCoverageWarnings(*request.current, *request.fabric);
    }
    keepGoing(progress, PhaseDone, 1, 1);
    return result;
}

}  // namespace weft
