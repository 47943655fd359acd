#pragma once
// Validation and metrics as passes over the destinations, so that one trace of each
// destination's routes serves both (evaluateRouting) and the destinations are shared among
// threads. Each thread traces blocks of destinations with its own RouteTracer into its own
// shard; the shards are merged when all are done. What the passes add up is counts, lane masks
// and sums of node weights: merged in any order they give what one thread gives, the sums of
// weights only where those are exact (MetricsPass::exactInAnyOrder, otherwise one thread).

#include "Fabric.h"
#include "ForwardingTables.h"
#include "Metrics.h"
#include "Parallel.h"
#include "TrafficModel.h"
#include "Validation.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

namespace weft {

// The threads to use for `items` destinations: `asked`, or the machine's cores (at most 4)
// when 0; one below a few hundred destinations.
inline std::size_t destinationThreads(int asked, std::size_t items)
{
    if (items < 256)
        return 1;
    if (asked > 0)
        return std::size_t(asked);
    return std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 4);
}

// work(d, tracer, thread) for every destination d of `ends` (in LID order), right after
// tracer.trace() for it; `thread` numbers the shard, 0 .. threads - 1, and begin(thread) makes
// it on its thread (the shards' pages are touched first in parallel too). A thread takes the
// destinations of one block of 64 LIDs at a time: the block its tracer reads from the tables.
template <typename Begin, typename Work>
void traceDestinations(const Fabric &fabric, const ForwardingTables &tables, const std::vector<EndPort> &ends,
                       std::size_t threads, Begin &&begin, Work &&work)
{
    std::vector<std::size_t> firsts;  // where each block's destinations start
    for (std::size_t d = 0; d < ends.size(); ++d)
        if (d == 0 || ends[d].lid / 64 != ends[d - 1].lid / 64)
            firsts.push_back(d);
    firsts.push_back(ends.size());
    std::atomic<std::size_t> next{0};
    runOnThreads(std::max<std::size_t>(1, threads), [&](std::size_t thread) {
        begin(thread);
        RouteTracer tracer(fabric, tables);
        tracer.readInBlocks();
        for (std::size_t block = next++; block + 1 < firsts.size(); block = next++) {
            for (std::size_t d = firsts[block]; d < firsts[block + 1]; ++d) {
                tracer.trace(ends[d].port, ends[d].lid);
                work(d, static_cast<const RouteTracer &>(tracer), thread);
            }
        }
    });
}

// Every destination traced once on `threads` threads for each of `passes` (pairs of a pass and
// its shards, one shard per thread, each made on its own thread) and for the partition flow
// counter that validation and metrics both read; returns that counter, merged.
template <typename... Pass>
std::unique_ptr<PartitionFlowCounter> tracePasses(const Fabric &fabric, const PartitionMembership &membership,
                                                  const ForwardingTables &tables, std::size_t threads,
                                                  std::pair<const Pass *, typename Pass::Shards *>... passes)
{
    (passes.second->resize(threads), ...);
    std::vector<std::unique_ptr<PartitionFlowCounter>> flows(threads);
    const auto begin = [&](std::size_t thread) {
        (((*passes.second)[thread] = passes.first->shard()), ...);
        flows[thread] = std::make_unique<PartitionFlowCounter>(fabric, membership);
    };
    traceDestinations(fabric, tables, membership.endPorts(), threads, begin,
                      [&](std::size_t d, const RouteTracer &tracer, std::size_t thread) {
                          (passes.first->add(d, tracer, *(*passes.second)[thread]), ...);
                          flows[thread]->addDestination(int(d), tracer);
                      });
    for (std::size_t t = 1; t < threads; ++t)
        flows.front()->merge(*flows[t]);
    return std::move(flows.front());
}

class ValidationPass
{
public:
    // One thread's share, defined where the pass is.
    struct Shard;
    struct ShardDeleter
    {
        void operator()(Shard *shard) const;
    };
    using Shards = std::vector<std::unique_ptr<Shard, ShardDeleter>>;
    using ShardPointer = std::unique_ptr<Shard, ShardDeleter>;

    ValidationPass(const Fabric &fabric, const PartitionMembership &membership, const LaneAssignment &lanes,
                   const ValidationOptions &options);
    ~ValidationPass();

    ShardPointer shard() const;
    void add(std::size_t d, const RouteTracer &tracer, Shard &shard) const;
    // Merges the shards; the examples of problems are found again, in destination order, by
    // tracing the destinations that have any (`tables` are the ones traced).
    ValidationResult finish(Shards shards, const PartitionFlowCounter &flows,
                            const ForwardingTables &tables) const;

private:
    struct Sources;
    void report(std::size_t d, const RouteTracer &tracer, ValidationResult &result) const;

    const Fabric &m_fabric;
    const PartitionMembership &m_membership;
    const LaneAssignment &m_lanes;
    const ValidationOptions &m_options;
    std::unique_ptr<Sources> m_sources;
};

class MetricsPass
{
public:
    struct Shard;
    struct ShardDeleter
    {
        void operator()(Shard *shard) const;
    };
    using Shards = std::vector<std::unique_ptr<Shard, ShardDeleter>>;
    using ShardPointer = std::unique_ptr<Shard, ShardDeleter>;

    MetricsPass(const Fabric &fabric, const PartitionMembership &membership, const TrafficModel &model);
    ~MetricsPass();

    // Whether the sums of node weights come out the same in any order: every weight a whole
    // multiple of a power of two small enough that no sum leaves a double's exact integers.
    bool exactInAnyOrder() const;
    ShardPointer shard() const;
    void add(std::size_t d, const RouteTracer &tracer, Shard &shard) const;
    Metrics finish(Shards shards, const PartitionFlowCounter &flows) const;

private:
    struct Sources;

    const Fabric &m_fabric;
    const PartitionMembership &m_membership;
    const TrafficModel &m_model;
    std::unique_ptr<Sources> m_sources;
};

}  // namespace weft
