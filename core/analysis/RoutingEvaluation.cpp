#include "RoutingEvaluation.h"

#include "DestinationPasses.h"

#include <QElapsedTimer>

namespace weft {

QString cancelledMessage()
{
    return QStringLiteral("cancelled");
}

Result<RoutingEvaluation> evaluateRouting(const Fabric &fabric, const Tenancy &tenancy, const ForwardingTables &tables,
                                          const EvaluationOptions &options)
{
    bool cancelled = false;
    const auto keepGoing = [&](EvaluationStage stage, int done, int total) {
        if (options.progress && !options.progress(stage, done, total))
            cancelled = true;
        return !cancelled;
    };
    const Error cancelledError{{}, 0, cancelledMessage()};

    RoutingEvaluation evaluation;
    QElapsedTimer clock;
    if (!keepGoing(EvaluationStage::Validating, 0, 1))
        return cancelledError;
    clock.start();
    // One trace of each destination's routes serves validation and metrics.
    const PartitionMembership membership(fabric, tenancy);
    ValidationOptions validationOptions;
    validationOptions.threads = options.threads;
    const ValidationPass validation(fabric, membership, options.lanes, validationOptions);
    const MetricsPass metrics(fabric, membership, options.model);
    const std::size_t threads = metrics.exactInAnyOrder() ? destinationThreads(options.threads, membership.endPorts().size()) : 1;
    ValidationPass::Shards validationShards;
    MetricsPass::Shards metricsShards;
    const auto flows = tracePasses(fabric, membership, tables, threads, std::pair{&validation, &validationShards},
                                   std::pair{&metrics, &metricsShards});
    evaluation.validation = validation.finish(std::move(validationShards), *flows, tables);
    evaluation.validationSeconds = double(clock.nsecsElapsed()) / 1e9;

    if (!keepGoing(EvaluationStage::Measuring, 0, 1))
        return cancelledError;
    clock.restart();
    evaluation.metrics = std::make_shared<const Metrics>(metrics.finish(std::move(metricsShards), *flows));
    evaluation.metricsSeconds = double(clock.nsecsElapsed()) / 1e9;

    if (options.throughput) {
        if (evaluation.metrics->modelFlows > options.throughputMaxFlows) {
            evaluation.warnings << QStringLiteral("No fluid throughput: %1 has %2 flows here (at most %3 are rated); choose a sampled traffic model (uniform-random, shift, bisection)")
                                       .arg(options.model.toString()).arg(evaluation.metrics->modelFlows).arg(options.throughputMaxFlows);
        } else if (Result<FluidThroughput> rated = fluidThroughput(fabric, tables, modelFlows(fabric, tenancy, options.model), tenancy)) {
            evaluation.throughput = std::move(rated).value();
        } else {
            evaluation.warnings << QStringLiteral("No fluid throughput: %1").arg(rated.error().message);
        }
        if (!keepGoing(EvaluationStage::Measuring, 1, 1))
            return cancelledError;
    }

    if (options.ebbSamples <= 0)
        return evaluation;
    Result<EffectiveBisection> ebb = EffectiveBisection::prepare(fabric, tables, tenancy);
    if (!ebb) {
        evaluation.warnings << QStringLiteral("No eBB: %1").arg(ebb.error().message);
        return evaluation;
    }
    EbbRun run;
    run.samples = options.ebbSamples;
    run.threads = options.ebbThreads;
    run.progress = [&](int done, int total) { return keepGoing(EvaluationStage::Bisection, done, total); };
    Result<EbbResult> figures = ebb->run(run);
    if (cancelled)
        return cancelledError;
    if (figures)
        evaluation.ebb = std::move(figures).value();
    else
        evaluation.warnings << figures.error().message;
    return evaluation;
}

}  // namespace weft
