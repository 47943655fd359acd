#include "EffectiveBisection.h"

#include "TrafficModel.h"

#include <QElapsedTimer>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <limits>
#include <mutex>
#include <random>
#include <thread>
#include <unordered_map>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace weft {

namespace {

constexpr int kHistogramBins = 20;
constexpr std::uint8_t kNoNextPort = 0xFF;
constexpr std::size_t kPrefetchAhead = 8;  // streams: path records are misses in a large table

std::uint64_t splitmix64(std::uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// The spec's draw (§2.6.3): exact rejection on 32-bit words, so every standard library agrees.
std::uint32_t uniformBelow32(std::mt19937 &rng, std::uint32_t bound)
{
    // In 32-bit arithmetic (a faster division): 2^32 mod bound is (2^32 - bound) mod bound, and a
    // draw is accepted when it lies below 2^32 minus that.
    const std::uint32_t excess = std::uint32_t(0u - bound) % bound;
    for (;;) {
        const std::uint32_t r = std::uint32_t(rng());
        if (excess == 0 || r < 0u - excess)
            return r % bound;
    }
}

void drawPattern(std::uint64_t seed, int sample, int participants, std::mt19937 &rng, std::vector<int> &pattern)
{
    rng.seed(std::uint32_t(splitmix64(seed ^ std::uint64_t(sample))));
    pattern.resize(std::size_t(participants));
    for (int i = 0; i < participants; ++i)
        pattern[std::size_t(i)] = i;
    if (participants % 2 == 1)
        pattern.erase(pattern.begin() + std::ptrdiff_t(uniformBelow32(rng, std::uint32_t(participants))));
    for (std::size_t i = pattern.size() - 1; i > 0; --i)
        std::swap(pattern[i], pattern[uniformBelow32(rng, std::uint32_t(i + 1))]);
}

// Rate of the channel leaving `p`, from what both ends report; 0 when neither knows.
double reportedRate(const Fabric &fabric, PortIndex p)
{
    auto own = [&](PortIndex q) {
        const Port &port = fabric.port(q);
        return port.width > 0 && port.speed != LinkSpeed::Unknown ? port.width * linkSpeedGbps(port.speed) : 0.0;
    };
    const double a = own(p);
    const PortIndex remote = fabric.port(p).remote;
    const double b = remote == kNoIndex ? 0.0 : own(remote);
    if (a > 0 && b > 0)
        return std::min(a, b);
    return std::max(a, b);
}

double percentile(const std::vector<double> &sorted, double p)
{
    const double position = p * double(sorted.size() - 1);
    const std::size_t low = std::size_t(std::floor(position));
    const std::size_t high = std::min(low + 1, sorted.size() - 1);
    const double fraction = position - double(low);
    return sorted[low] + (sorted[high] - sorted[low]) * fraction;
}

}  // namespace

QString bisectionVariantName(BisectionVariant variant)
{
    return variant == BisectionVariant::OneWay ? QStringLiteral("uni") : QStringLiteral("bidir");
}

// Per thread: congestion of the sample in flight, and what the thread's samples add up to.
struct EffectiveBisection::Workspace
{
    explicit Workspace(std::size_t ports) : tau(ports, 0.0), streams(ports, 0), tauSum(ports, 0.0), shared(ports, 0), bottleneck(ports, 0) {}

    std::vector<double> tau;
    std::vector<std::uint32_t> streams;
    std::vector<PortIndex> touched;
    std::vector<PortIndex> path;               // channels of all streams, back to back
    std::vector<std::uint32_t> pathStart;      // per stream, into path; one past the end last
    std::vector<int> pattern;
    std::mt19937 rng;

    std::vector<double> tauSum;
    std::vector<std::uint32_t> shared;
    std::vector<std::uint64_t> bottleneck;
    std::vector<std::uint64_t> byMaxCongestion;
};

Result<EffectiveBisection> EffectiveBisection::prepare(const Fabric &fabric, const ForwardingTables &tables,
                                                        const Tenancy &tenancy, const EbbModel &model)
{
    const PartitionMembership membership(fabric, tenancy);
    const std::vector<EndPort> &ends = membership.endPorts();

    std::vector<int> chosen;  // end port indices
    if (model.participants.empty()) {
        for (std::size_t i = 0; i < ends.size(); ++i)
            chosen.push_back(int(i));
    } else {
        std::unordered_map<Guid, int> byGuid;
        for (std::size_t i = 0; i < ends.size(); ++i)
            byGuid.emplace(fabric.port(ends[i].port).guid, int(i));
        for (Guid g : model.participants) {
            const auto it = byGuid.find(g);
            if (it == byGuid.end())
                return Error{{}, 0, QStringLiteral("port GUID %1 is not an end port with a LID and a cable").arg(guidText(g))};
            chosen.push_back(it->second);
        }
    }
    std::sort(chosen.begin(), chosen.end(), [&](int a, int b) {
        return fabric.port(ends[std::size_t(a)].port).guid < fabric.port(ends[std::size_t(b)].port).guid;
    });
    chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
    if (chosen.size() < 2)
        return Error{{}, 0, QStringLiteral("a bisection needs at least 2 end ports, %1 given").arg(chosen.size())};

    EffectiveBisection ebb;
    const std::size_t portCount = fabric.ports().size();
    ebb.m_remotePort.assign(portCount, kNoIndex);
    ebb.m_nextFirstPort.assign(portCount, kNoIndex);
    ebb.m_switchOfPort.assign(portCount, -1);
    ebb.m_rate.assign(portCount, 0.0);
    ebb.m_switchCount = fabric.switches().size();
    std::vector<std::int32_t> denseSwitch(fabric.nodes().size(), -1);
    for (std::size_t s = 0; s < fabric.switches().size(); ++s) {
        const NodeIndex sw = fabric.switches()[s];
        denseSwitch[std::size_t(sw)] = std::int32_t(s);
        ebb.m_switchFirstPort.push_back(fabric.node(sw).firstPort);
    }
    double slowestKnown = 0;
    for (std::size_t p = 0; p < portCount; ++p) {
        const Port &port = fabric.ports()[p];
        ebb.m_remotePort[p] = port.remote;
        if (port.node != kNoIndex)
            ebb.m_switchOfPort[p] = denseSwitch[std::size_t(port.node)];
        if (port.remote != kNoIndex) {
            const NodeIndex next = fabric.port(port.remote).node;
            if (denseSwitch[std::size_t(next)] >= 0)
                ebb.m_nextFirstPort[p] = fabric.node(next).firstPort;
        }
        if (port.remote != kNoIndex) {
            ebb.m_rate[p] = reportedRate(fabric, PortIndex(p));
            if (ebb.m_rate[p] > 0 && (slowestKnown == 0 || ebb.m_rate[p] < slowestKnown))
                slowestKnown = ebb.m_rate[p];
        }
    }
    // Links nobody reports a rate for are taken at the slowest rate seen: the cautious guess.
    const double fallback = slowestKnown > 0 ? slowestKnown : 1.0;
    for (double &rate : ebb.m_rate)
        if (rate == 0)
            rate = fallback;

    for (int e : chosen) {
        const EndPort &end = ends[std::size_t(e)];
        ebb.m_ports.push_back(end.port);
        ebb.m_weight.push_back(model.nodeWeights ? end.weight : 1.0);
        ebb.m_endpointRate.push_back(ebb.m_rate[std::size_t(end.port)]);
    }
    if (!model.linkRates) {
        // Paper mode: one rate B for every channel; the first participant's sets the unit.
        const double b = ebb.m_endpointRate.front();
        std::fill(ebb.m_rate.begin(), ebb.m_rate.end(), b);
        std::fill(ebb.m_endpointRate.begin(), ebb.m_endpointRate.end(), b);
    }
    ebb.m_uniformRates = true;
    for (std::size_t p = 0; p < portCount && ebb.m_uniformRates; ++p)
        if (ebb.m_remotePort[p] != kNoIndex && ebb.m_rate[p] != ebb.m_endpointRate.front())
            ebb.m_uniformRates = false;
    ebb.m_weighted = std::any_of(ebb.m_weight.begin(), ebb.m_weight.end(), [](double w) { return w != 1.0; });

    // Switches that participants hang off, with up to two participants each: a switch must
    // deliver to a destination when some other participant sends through it.
    struct SourceSwitch
    {
        NodeIndex sw = kNoIndex;
        int first = -1;
        int second = -1;
    };
    std::vector<SourceSwitch> sourceSwitches;
    {
        std::vector<int> slot(fabric.nodes().size(), -1);
        for (std::size_t i = 0; i < chosen.size(); ++i) {
            const NodeIndex a = ends[std::size_t(chosen[i])].attachedSwitch;
            if (a == kNoIndex)
                continue;
            int &at = slot[std::size_t(a)];
            if (at < 0) {
                at = int(sourceSwitches.size());
                sourceSwitches.push_back({a, int(i), -1});
            } else if (sourceSwitches[std::size_t(at)].second < 0) {
                sourceSwitches[std::size_t(at)].second = int(i);
            }
        }
    }

    const std::size_t n = ebb.m_ports.size();
    ebb.m_nextPort.assign(n * ebb.m_switchCount, kNoNextPort);
    ebb.m_sourceSlots = sourceSwitches.size();
    ebb.m_sourceSlot.assign(n, -1);
    {
        std::vector<std::int32_t> slotOfSwitch(fabric.nodes().size(), -1);
        for (std::size_t i = 0; i < sourceSwitches.size(); ++i)
            slotOfSwitch[std::size_t(sourceSwitches[i].sw)] = std::int32_t(i);
        for (std::size_t i = 0; i < n; ++i) {
            const NodeIndex a = ends[std::size_t(chosen[i])].attachedSwitch;
            ebb.m_sourceSlot[i] = a == kNoIndex ? -1 : slotOfSwitch[std::size_t(a)];
        }
    }
    constexpr std::size_t kPathTableLimit = std::size_t(512) << 20;
    bool usePaths = n * ebb.m_sourceSlots * kPathStride <= kPathTableLimit;
    if (usePaths) {
        ebb.m_paths.reserve(n * ebb.m_sourceSlots * kPathStride);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        // The samples read random records of this table: huge pages spare a TLB miss per stream.
        // Advice only; before the pages are first touched.
        const std::uintptr_t begin = (std::uintptr_t(ebb.m_paths.data()) + 4095) & ~std::uintptr_t(4095);
        const std::uintptr_t end = (std::uintptr_t(ebb.m_paths.data()) + ebb.m_paths.capacity()) & ~std::uintptr_t(4095);
        if (end > begin)
            madvise(reinterpret_cast<void *>(begin), end - begin, MADV_HUGEPAGE);
#endif
        ebb.m_paths.assign(n * ebb.m_sourceSlots * kPathStride, 0);
    }
    RouteTracer tracer(fabric, tables);
    for (std::size_t j = 0; j < n; ++j) {
        const EndPort &destination = ends[std::size_t(chosen[j])];
        tracer.trace(destination.port, destination.lid);
        for (const SourceSwitch &from : sourceSwitches) {
            const NodeIndex sw = from.sw;
            const int source = std::size_t(from.first) == j ? from.second : from.first;
            if (source >= 0 && tracer.verdict(sw) != RouteTracer::Verdict::Reaches) {
                return Error{{}, 0, QStringLiteral("the forwarding tables do not deliver from %1 to %2 (LID %3): %4")
                                        .arg(portText(fabric, ebb.m_ports[std::size_t(source)]), portText(fabric, destination.port))
                                        .arg(destination.lid)
                                        .arg(tracer.explain(tracer.blame(sw), destination.lid))};
            }
        }
        std::uint8_t *column = ebb.m_nextPort.data() + j * ebb.m_switchCount;
        for (std::size_t s = 0; s < ebb.m_switchCount; ++s) {
            const NodeIndex sw = fabric.switches()[s];
            const PortIndex out = tracer.outPort(sw);
            if (tracer.verdict(sw) == RouteTracer::Verdict::Reaches && out != kNoIndex)
                column[s] = fabric.port(out).number;
        }
        for (std::size_t slot = 0; usePaths && slot < sourceSwitches.size(); ++slot) {
            std::uint8_t *record = ebb.m_paths.data() + (j * ebb.m_sourceSlots + slot) * kPathStride;
            NodeIndex sw = sourceSwitches[slot].sw;
            std::size_t hops = 0;
            while (tracer.verdict(sw) == RouteTracer::Verdict::Reaches) {
                if (++hops >= kPathStride) {
                    usePaths = false;  // longer than a record holds: walk the columns instead
                    ebb.m_paths.clear();
                    ebb.m_paths.shrink_to_fit();
                    break;
                }
                record[hops] = column[denseSwitch[std::size_t(sw)]];
                record[0] = std::uint8_t(hops);
                const NodeIndex next = tracer.nextSwitch(sw);
                if (next == kNoIndex)
                    break;
                sw = next;
            }
        }
        for (std::size_t i = 0; i < n; ++i) {
            // End ports cabled to each other directly: the cable is the whole route.
            if (i != j && ends[std::size_t(chosen[i])].attachedSwitch == kNoIndex && fabric.port(ebb.m_ports[i]).remote != destination.port)
                return Error{{}, 0, QStringLiteral("%1 is not attached to a switch and cannot reach %2")
                                        .arg(portText(fabric, ebb.m_ports[i]), portText(fabric, destination.port))};
        }
    }
    if (usePaths) {
        ebb.m_nextPort.clear();
        ebb.m_nextPort.shrink_to_fit();
    }
    return ebb;
}

std::vector<int> EffectiveBisection::samplePattern(std::uint64_t seed, int sample) const
{
    std::mt19937 rng;
    std::vector<int> pattern;
    drawPattern(seed, sample, participantCount(), rng, pattern);
    return pattern;
}

double EffectiveBisection::patternBandwidth(const std::vector<int> &pattern, BisectionVariant variant) const
{
    Workspace w(m_remotePort.size());
    return evaluate(pattern, variant, w).normalized;
}

EffectiveBisection::SampleOutcome EffectiveBisection::evaluate(const std::vector<int> &pattern, BisectionVariant variant, Workspace &w) const
{
    const std::size_t half = pattern.size() / 2;
    const std::size_t streamCount = variant == BisectionVariant::OneWay ? half : 2 * half;
    auto streamEnds = [&](std::size_t s) {
        return s < half ? std::pair<int, int>{pattern[s], pattern[s + half]} : std::pair<int, int>{pattern[s], pattern[s - half]};
    };

    // Paper mode (one rate, unit demands): a channel's congestion is its stream count, so pass 1
    // keeps only the 32-bit counters and pass 2 reads them.
    const bool paperMode = m_uniformRates && !m_weighted;

    // Pass 1: walk every stream, remember its channels, count congestion per channel.
    w.path.clear();
    w.pathStart.clear();
    w.touched.clear();
    for (std::size_t s = 0; s < streamCount; ++s) {
        const auto [source, destination] = streamEnds(s);
        Q_ASSERT(source != destination);
        w.pathStart.push_back(std::uint32_t(w.path.size()));
        const double demand = m_weight[std::size_t(source)];
        PortIndex channel = m_ports[std::size_t(source)];
        const std::int32_t slot = m_sourceSlot[std::size_t(source)];
        if (!m_paths.empty() && slot >= 0) {
#if defined(__GNUC__)
            // The records of later streams are independent misses: start them early.
            if (s + kPrefetchAhead < streamCount) {
                const auto [nextSource, nextDestination] = streamEnds(s + kPrefetchAhead);
                const std::int32_t nextSlot = m_sourceSlot[std::size_t(nextSource)];
                if (nextSlot >= 0)
                    __builtin_prefetch(m_paths.data() + (std::size_t(nextDestination) * m_sourceSlots + std::size_t(nextSlot)) * kPathStride);
            }
#endif
            const std::uint8_t *record = m_paths.data() + (std::size_t(destination) * m_sourceSlots + std::size_t(slot)) * kPathStride;
            const std::size_t hops = record[0];
            for (std::size_t hop = 0;; ++hop) {
                w.path.push_back(channel);
                if (!paperMode)
                    w.tau[std::size_t(channel)] += demand;
                if (w.streams[std::size_t(channel)]++ == 0)
                    w.touched.push_back(channel);
                if (hop == hops)
                    break;
                channel = m_nextFirstPort[std::size_t(channel)] + record[hop + 1];
            }
            continue;
        }
        const PortIndex target = m_ports[std::size_t(destination)];
        const std::uint8_t *column = m_nextPort.data() + std::size_t(destination) * m_switchCount;
        for (;;) {
            w.path.push_back(channel);
            if (!paperMode)
                w.tau[std::size_t(channel)] += demand;
            if (w.streams[std::size_t(channel)]++ == 0)
                w.touched.push_back(channel);
            const PortIndex arrival = m_remotePort[std::size_t(channel)];
            if (arrival == target)
                break;
            const std::int32_t sw = m_switchOfPort[std::size_t(arrival)];
            channel = m_switchFirstPort[std::size_t(sw)] + column[std::size_t(sw)];
        }
    }
    w.pathStart.push_back(std::uint32_t(w.path.size()));

    // Pass 2: each stream's share at its worst channel.
    double normalizedSum = 0;
    double aggregate = 0;
    for (std::size_t s = 0; s < streamCount; ++s) {
        const std::uint32_t begin = w.pathStart[s];
        const std::uint32_t end = w.pathStart[s + 1];
        if (paperMode) {
            std::uint32_t most = 0;
            for (std::uint32_t i = begin; i < end; ++i)
                most = std::max(most, w.streams[std::size_t(w.path[i])]);
            const double worst = double(most);
            normalizedSum += 1.0 / worst;
            aggregate += m_endpointRate.front() / worst;
            const std::size_t bucket = std::size_t(worst);
            if (w.byMaxCongestion.size() <= bucket)
                w.byMaxCongestion.resize(bucket + 1, 0);
            ++w.byMaxCongestion[bucket];
            if (most > 1)
                for (std::uint32_t i = begin; i < end; ++i)
                    if (w.streams[std::size_t(w.path[i])] == most)
                        ++w.bottleneck[std::size_t(w.path[i])];
            continue;
        }
        const auto [source, destination] = streamEnds(s);
        const double demand = m_weight[std::size_t(source)];
        double share = std::numeric_limits<double>::infinity();
        for (std::uint32_t i = begin; i < end; ++i) {
            const std::size_t c = std::size_t(w.path[i]);
            share = std::min(share, m_rate[c] * demand / w.tau[c]);
        }
        const double alone = std::min(m_endpointRate[std::size_t(source)], m_endpointRate[std::size_t(destination)]);
        normalizedSum += std::min(1.0, share / alone);
        aggregate += share;
        constexpr double kTolerance = 1e-12;
        if (share < alone * (1 - kTolerance))
            for (std::uint32_t i = begin; i < end; ++i) {
                const std::size_t c = std::size_t(w.path[i]);
                if (m_rate[c] * demand / w.tau[c] <= share * (1 + kTolerance))
                    ++w.bottleneck[c];
            }
    }

    for (PortIndex channel : w.touched) {
        const std::size_t c = std::size_t(channel);
        w.tauSum[c] += paperMode ? double(w.streams[c]) : w.tau[c];
        if (w.streams[c] >= 2)
            ++w.shared[c];
        if (!paperMode)
            w.tau[c] = 0;
        w.streams[c] = 0;
    }
    return {streamCount == 0 ? 1.0 : normalizedSum / double(streamCount), aggregate};
}

Result<EbbResult> EffectiveBisection::run(const EbbRun &options) const
{
    if (options.samples < 1)
        return Error{{}, 0, QStringLiteral("the number of samples must be at least 1, not %1").arg(options.samples)};
    QElapsedTimer clock;
    clock.start();
    const int total = options.samples;
    int threadCount = options.threads > 0 ? options.threads : int(std::max(1u, std::thread::hardware_concurrency()));
    threadCount = std::min(threadCount, total);

    std::vector<double> values(std::size_t(total), 0.0);
    std::vector<double> aggregates(std::size_t(total), 0.0);
    std::vector<Workspace> workspaces;
    workspaces.reserve(std::size_t(threadCount));
    for (int t = 0; t < threadCount; ++t)
        workspaces.emplace_back(m_remotePort.size());

    std::atomic<int> done{0};
    std::atomic<bool> cancelled{false};
    std::mutex mutex;
    std::condition_variable finishedChanged;
    int finished = 0;

    if (options.progress && !options.progress(0, total))
        return Error{{}, 0, QStringLiteral("cancelled")};

    std::vector<std::thread> threads;
    for (int t = 0; t < threadCount; ++t) {
        // Fixed blocks per thread: per-channel sums then merge in the same order on every run.
        const int first = int(std::int64_t(total) * t / threadCount);
        const int last = int(std::int64_t(total) * (t + 1) / threadCount);
        threads.emplace_back([&, t, first, last] {
            Workspace &w = workspaces[std::size_t(t)];
            for (int k = first; k < last && !cancelled.load(std::memory_order_relaxed); ++k) {
                drawPattern(options.seed, k, participantCount(), w.rng, w.pattern);
                const SampleOutcome outcome = evaluate(w.pattern, options.variant, w);
                values[std::size_t(k)] = outcome.normalized;
                aggregates[std::size_t(k)] = outcome.aggregateGbps;
                done.fetch_add(1, std::memory_order_relaxed);
            }
            std::lock_guard<std::mutex> lock(mutex);
            ++finished;
            finishedChanged.notify_all();
        });
    }
    {
        std::unique_lock<std::mutex> lock(mutex);
        while (finished < threadCount) {
            finishedChanged.wait_for(lock, std::chrono::milliseconds(50));
            if (options.progress && finished < threadCount && !cancelled) {
                lock.unlock();
                if (!options.progress(done.load(), total))
                    cancelled = true;
                lock.lock();
            }
        }
    }
    for (std::thread &thread : threads)
        thread.join();
    if (cancelled)
        return Error{{}, 0, QStringLiteral("cancelled")};
    if (options.progress)
        options.progress(total, total);

    EbbResult r;
    r.samples = total;
    r.seed = options.seed;
    r.variant = options.variant;
    r.threads = threadCount;
    r.participants = participantCount();
    r.streamsPerSample = (participantCount() / 2) * (options.variant == BisectionVariant::OneWay ? 1 : 2);
    r.linkRates = !m_uniformRates;
    r.nodeWeights = m_weighted;

    // Neumaier summation in sample order: the same figures whatever the thread count.
    double sum = 0, compensation = 0, aggregateSum = 0;
    for (int k = 0; k < total; ++k) {
        const double x = values[std::size_t(k)];
        const double t = sum + x;
        compensation += std::abs(sum) >= std::abs(x) ? (sum - t) + x : (x - t) + sum;
        sum = t;
        aggregateSum += aggregates[std::size_t(k)];
    }
    r.mean = (sum + compensation) / double(total);
    r.meanAggregateGbps = aggregateSum / double(total);
    double squares = 0;
    for (double x : values)
        squares += (x - r.mean) * (x - r.mean);
    r.stddev = total > 1 ? std::sqrt(squares / double(total - 1)) : 0.0;
    r.ci95 = 1.96 * r.stddev / std::sqrt(double(total));
    r.ci99 = 2.576 * r.stddev / std::sqrt(double(total));
    r.worstSample = int(std::min_element(values.begin(), values.end()) - values.begin());
    std::vector<double> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    r.min = sorted.front();
    r.max = sorted.back();
    r.p1 = percentile(sorted, 0.01);
    r.p5 = percentile(sorted, 0.05);
    r.p50 = percentile(sorted, 0.50);
    r.p95 = percentile(sorted, 0.95);
    r.p99 = percentile(sorted, 0.99);
    r.histogram.assign(kHistogramBins, 0);
    for (double x : values)
        ++r.histogram[std::size_t(std::clamp(int(x * kHistogramBins), 0, kHistogramBins - 1))];

    const std::size_t ports = m_remotePort.size();
    std::vector<double> tauSum(ports, 0.0);
    std::vector<std::uint64_t> shared(ports, 0), bottleneck(ports, 0);
    for (const Workspace &w : workspaces) {
        for (std::size_t c = 0; c < ports; ++c) {
            tauSum[c] += w.tauSum[c];
            shared[c] += w.shared[c];
            bottleneck[c] += w.bottleneck[c];
        }
        if (r.streamsByMaxCongestion.size() < w.byMaxCongestion.size())
            r.streamsByMaxCongestion.resize(w.byMaxCongestion.size(), 0);
        for (std::size_t i = 0; i < w.byMaxCongestion.size(); ++i)
            r.streamsByMaxCongestion[i] += w.byMaxCongestion[i];
    }
    for (std::size_t c = 0; c < ports; ++c)
        if (tauSum[c] > 0)
            r.channels.push_back({PortIndex(c), tauSum[c] / double(total), double(shared[c]) / double(total), bottleneck[c]});
    std::sort(r.channels.begin(), r.channels.end(), [](const EbbChannel &a, const EbbChannel &b) {
        if (a.bottleneckStreams != b.bottleneckStreams)
            return a.bottleneckStreams > b.bottleneckStreams;
        if (a.meanCongestion != b.meanCongestion)
            return a.meanCongestion > b.meanCongestion;
        return a.from < b.from;
    });
    r.sampleValues = std::move(values);
    r.seconds = double(clock.nsecsElapsed()) / 1e9;
    return r;
}

Result<std::vector<Guid>> groupMembers(const Fabric &fabric, const Tenancy &tenancy, const QString &name)
{
    const PartitionMembership membership(fabric, tenancy);
    bool isNumber = false;
    const uint pkey = name.toUInt(&isNumber, 0);
    QStringList known;
    for (const PartitionMembership::ResolvedPartition &p : membership.partitions()) {
        known << (p.name.isEmpty() ? membership.partitionLabel(int(&p - membership.partitions().data())) : p.name);
        if (p.name != name && !(isNumber && (pkey & kPKeyMask) == p.pkey && p.pkey != 0))
            continue;
        std::vector<Guid> members;
        for (std::size_t i = 0; i < p.members.size(); ++i)
            if (p.full[i])
                members.push_back(fabric.port(membership.endPorts()[std::size_t(p.members[i])].port).guid);
        if (members.empty())
            return Error{{}, 0, QStringLiteral("partition \"%1\" has no full members among the end ports").arg(name)};
        return members;
    }
    for (const Tenant &t : tenancy.tenants) {
        known << t.name;
        if (t.name == name) {
            if (t.members.empty())
                return Error{{}, 0, QStringLiteral("tenant \"%1\" has no members").arg(name)};
            return t.members;
        }
    }
    return Error{{}, 0, QStringLiteral("no partition or tenant named \"%1\" (known: %2)")
                            .arg(name, known.isEmpty() ? QStringLiteral("none") : known.join(QStringLiteral(", ")))};
}

}  // namespace weft
