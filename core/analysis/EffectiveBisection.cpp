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

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// Rare paths kept out of the loops that would otherwise carry them.
#if defined(__GNUC__)
#define WEFT_EBB_NOINLINE __attribute__((noinline))
#else
#define WEFT_EBB_NOINLINE
#endif

namespace weft {

namespace {

constexpr int kHistogramBins = 20;
constexpr std::uint8_t kNoNextPort = 0xFF;
constexpr std::size_t kPrefetchAhead = 16;  // streams: path records are misses in a large table

std::uint64_t splitmix64(std::uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// std::mt19937 (32-bit MT19937 seeded through init_genrand, spec §2.6.3), word for word, but
// producing its 624 words a block at a time in SIMD lanes: the draws are a seventh of a sample.
class Mt19937
{
public:
    void seed(std::uint32_t s)
    {
        m_state[0] = s;
        for (std::uint32_t i = 1; i < kN; ++i)
            m_state[i] = 1812433253u * (m_state[i - 1] ^ (m_state[i - 1] >> 30)) + i;
        m_next = kN;
    }
    std::uint32_t operator()()
    {
        if (m_next == kN)
            refill();
        return m_out[m_next++];
    }
    // The same words through a cursor the caller keeps (in a register): `at` as operator() would
    // have left m_next, handed back with put().
    std::uint32_t next(std::uint32_t &at)
    {
        if (at == kN) {
            refill();
            at = 0;
        }
        return m_out[at++];
    }
    std::uint32_t cursor() const { return m_next; }
    void put(std::uint32_t at) { m_next = at; }

private:
    static constexpr std::uint32_t kN = 624, kM = 397;
    static constexpr std::uint32_t kMatrix = 0x9908b0dfu, kUpper = 0x80000000u, kLower = 0x7fffffffu;

    static std::uint32_t twist(std::uint32_t self, std::uint32_t next, std::uint32_t far)
    {
        const std::uint32_t y = (self & kUpper) | (next & kLower);
        return far ^ (y >> 1) ^ ((y & 1u) ? kMatrix : 0u);
    }
    static std::uint32_t temper(std::uint32_t y)
    {
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c5680u;
        y ^= (y << 15) & 0xefc60000u;
        return y ^ (y >> 18);
    }
    WEFT_EBB_NOINLINE void refill()
    {
        std::uint32_t *x = m_state;
        std::uint32_t i = 0;
#if defined(__SSE2__)
        // Word i depends on words i+1 and i+M (mod N), old, or on word i+M-N, new since 227
        // steps: four lanes at a time read nothing they write.
        const __m128i upper = _mm_set1_epi32(int(kUpper)), lower = _mm_set1_epi32(int(kLower));
        const __m128i matrix = _mm_set1_epi32(int(kMatrix)), one = _mm_set1_epi32(1);
        auto twist4 = [&](std::uint32_t at, std::uint32_t far) {
            const __m128i self = _mm_loadu_si128(reinterpret_cast<const __m128i *>(x + at));
            const __m128i next = _mm_loadu_si128(reinterpret_cast<const __m128i *>(x + at + 1));
            const __m128i y = _mm_or_si128(_mm_and_si128(self, upper), _mm_and_si128(next, lower));
            const __m128i odd = _mm_cmpeq_epi32(_mm_and_si128(y, one), one);
            const __m128i farWords = _mm_loadu_si128(reinterpret_cast<const __m128i *>(x + far));
            _mm_storeu_si128(reinterpret_cast<__m128i *>(x + at),
                             _mm_xor_si128(_mm_xor_si128(farWords, _mm_srli_epi32(y, 1)), _mm_and_si128(odd, matrix)));
        };
        for (; i + 4 <= kN - kM; i += 4)
            twist4(i, i + kM);
        for (; i < kN - kM; ++i)
            x[i] = twist(x[i], x[i + 1], x[i + kM]);
        for (; i + 4 <= kN - 1; i += 4)
            twist4(i, i + kM - kN);
#else
        for (; i < kN - kM; ++i)
            x[i] = twist(x[i], x[i + 1], x[i + kM]);
#endif
        for (; i < kN - 1; ++i)
            x[i] = twist(x[i], x[i + 1], x[i + kM - kN]);
        x[kN - 1] = twist(x[kN - 1], x[0], x[kM - 1]);
#if defined(__SSE2__)
        const __m128i b = _mm_set1_epi32(int(0x9d2c5680u)), c = _mm_set1_epi32(int(0xefc60000u));
        for (std::uint32_t k = 0; k < kN; k += 4) {
            __m128i y = _mm_load_si128(reinterpret_cast<const __m128i *>(x + k));
            y = _mm_xor_si128(y, _mm_srli_epi32(y, 11));
            y = _mm_xor_si128(y, _mm_and_si128(_mm_slli_epi32(y, 7), b));
            y = _mm_xor_si128(y, _mm_and_si128(_mm_slli_epi32(y, 15), c));
            y = _mm_xor_si128(y, _mm_srli_epi32(y, 18));
            _mm_store_si128(reinterpret_cast<__m128i *>(m_out + k), y);
        }
#else
        for (std::uint32_t k = 0; k < kN; ++k)
            m_out[k] = temper(x[k]);
#endif
        m_next = 0;
    }

    alignas(16) std::uint32_t m_state[kN] = {};
    alignas(16) std::uint32_t m_out[kN] = {};
    std::uint32_t m_next = kN;
};

// Per bound d, the multiplier of Lemire's exact a mod d for 32-bit a (⌊(2^64−1)/d⌋ + 1).
std::vector<std::uint64_t> drawMultipliers(std::size_t largestBound)
{
    std::vector<std::uint64_t> m(largestBound + 1, 0);
    for (std::size_t d = 1; d <= largestBound; ++d)
        m[d] = ~std::uint64_t(0) / d + 1;
    return m;
}

std::uint32_t remainder32(std::uint32_t a, std::uint32_t bound, std::uint64_t multiplier)
{
#if defined(__SIZEOF_INT128__)
    return std::uint32_t((unsigned __int128)(multiplier * a) * bound >> 64);
#else
    (void)multiplier;
    return a % bound;
#endif
}

// The spec's draw (§2.6.3): exact rejection on 32-bit words, so every standard library agrees.
// A word is rejected only at or above 2^32 − (2^32 mod bound) > 2^32 − bound: below that it
// is taken without working out the limit; at or above, the full rule decides.
WEFT_EBB_NOINLINE std::uint32_t uniformBelow32Slow(Mt19937 &rng, std::uint32_t &at, std::uint32_t bound, std::uint32_t r)
{
    const std::uint32_t excess = std::uint32_t(0u - bound) % bound;
    while (excess != 0 && r >= 0u - excess)
        r = rng.next(at);
    return r % bound;
}

inline std::uint32_t uniformBelow32(Mt19937 &rng, std::uint32_t &at, std::uint32_t bound, std::uint64_t multiplier)
{
    const std::uint32_t r = rng.next(at);
    return r < 0u - bound ? remainder32(r, bound, multiplier) : uniformBelow32Slow(rng, at, bound, r);
}

// `dropped`: the participant an odd count leaves out, -1 for none.
void drawPattern(std::uint64_t seed, int sample, int participants, const std::vector<std::uint64_t> &multipliers,
                 Mt19937 &rng, std::vector<int> &pattern, int &dropped)
{
    rng.seed(std::uint32_t(splitmix64(seed ^ std::uint64_t(sample))));
    pattern.resize(std::size_t(participants));
    for (int i = 0; i < participants; ++i)
        pattern[std::size_t(i)] = i;
    std::uint32_t at = rng.cursor();
    dropped = -1;
    if (participants % 2 == 1) {
        dropped = int(uniformBelow32(rng, at, std::uint32_t(participants), multipliers[std::size_t(participants)]));
        pattern.erase(pattern.begin() + dropped);
    }
    int *p = pattern.data();
    const std::uint64_t *multiplier = multipliers.data();
    for (std::size_t i = pattern.size() - 1; i > 0; --i)
        std::swap(p[i], p[uniformBelow32(rng, at, std::uint32_t(i + 1), multiplier[i + 1])]);
    rng.put(at);
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
    explicit Workspace(const EffectiveBisection &e)
    {
        if (!e.m_linkMode) {
            const std::size_t ports = e.m_remotePort.size();
            tau.assign(ports, 0.0);
            streams.assign(ports, 0);
            tauSum.assign(ports, 0.0);
            shared.assign(ports, 0);
            bottleneck.assign(ports, 0);
            return;
        }
        links.resize(e.m_linkNext.size());
        for (std::size_t c = 0; c < links.size(); ++c)
            links[c].next = e.m_linkNext[c];
        sums.assign(links.size(), {});
        bottlenecks.assign(links.size(), 0);
        asSource.assign(e.m_ports.size(), 0);
        dropped.assign(e.m_ports.size(), 0);
    }

    std::vector<double> tau;
    std::vector<std::uint32_t> streams;
    std::vector<PortIndex> touched;
    std::vector<PortIndex> path;               // channels of all streams, back to back
    std::vector<std::uint32_t> pathStart;      // per stream, into path; one past the end last
    std::vector<int> pattern;
    Mt19937 rng;

    std::vector<double> tauSum;
    std::vector<std::uint32_t> shared;
    std::vector<std::uint64_t> bottleneck;
    std::vector<std::uint64_t> byMaxCongestion;

    // Link mode (see m_linkNext): the next link's base and the sample's stream count side by
    // side, one cache line per hop; sums per link and per participant.
    struct Link
    {
        std::uint32_t next = 0;
        std::uint32_t streams = 0;
    };
    std::vector<Link> links;
    std::vector<std::uint32_t> linkPath;  // links of all streams, back to back
    std::vector<std::uint32_t> linkTouched;
    // 32-bit sums, small enough to stay cached, moved to the 64-bit totals before they could
    // overflow: `pending` bounds what any of them gained since.
    struct LinkSums
    {
        std::uint32_t tau = 0;     // Σ τ
        std::uint32_t shared = 0;  // samples with τ ≥ 2 (at most the samples run)
    };
    std::vector<LinkSums> sums;
    std::vector<std::uint32_t> bottlenecks;
    std::uint64_t pending = 0;
    std::vector<std::uint64_t> tauTotal, bottleneckTotal;
    void flush()
    {
        tauTotal.resize(sums.size(), 0);
        bottleneckTotal.resize(sums.size(), 0);
        for (std::size_t c = 0; c < sums.size(); ++c) {
            tauTotal[c] += sums[c].tau;
            sums[c].tau = 0;
            bottleneckTotal[c] += bottlenecks[c];
            bottlenecks[c] = 0;
        }
        pending = 0;
    }
    // Per participant: one-way streams it sent, samples it sat out; and the samples run. Every
    // other sample it received (one-way) or both sent and received one stream (two-way).
    std::vector<std::uint32_t> asSource;
    std::vector<std::uint32_t> dropped;
    std::uint32_t samplesRun = 0;
};

Result<EffectiveBisection> EffectiveBisection::prepare(const Fabric &fabric, const ForwardingTables &tables,
                                                        const Tenancy &tenancy, const EbbModel &model)
{
    const PartitionMembership membership(fabric, tenancy);
    const std::vector<EndPort> &ends = membership.endPorts();

    std::vector<int> chosen;  // end port indices
    if (model.participants.empty()) {
        // Every end port that carries traffic: a service node (an Aggregation Node) takes no half.
        for (std::size_t i = 0; i < ends.size(); ++i)
            if (carriesTraffic(fabric, ends[i]))
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
    ebb.m_sourceSlots = sourceSwitches.size();
    ebb.m_sourceSlot.assign(n, -1);
    std::vector<std::size_t> unattached;  // participants cabled to no switch
    {
        std::vector<std::int32_t> slotOfSwitch(fabric.nodes().size(), -1);
        for (std::size_t i = 0; i < sourceSwitches.size(); ++i)
            slotOfSwitch[std::size_t(sourceSwitches[i].sw)] = std::int32_t(i);
        for (std::size_t i = 0; i < n; ++i) {
            const NodeIndex a = ends[std::size_t(chosen[i])].attachedSwitch;
            ebb.m_sourceSlot[i] = a == kNoIndex ? -1 : slotOfSwitch[std::size_t(a)];
            if (a == kNoIndex)
                unattached.push_back(i);
        }
    }
    constexpr std::size_t kPathTableLimit = std::size_t(512) << 20;
    const bool usePaths = n * ebb.m_sourceSlots * kPathStride <= kPathTableLimit;
    if (usePaths) {
        // The samples read random records of this table: LargeVector's huge pages spare a TLB
        // miss per stream.
        ebb.m_paths.assign(n * ebb.m_sourceSlots * kPathStride, 0);
    } else {
        ebb.m_nextPort.assign(n * ebb.m_switchCount, kNoNextPort);
    }

    // Destinations are traced independently, in blocks over threads. The error reported is the
    // first in destination order, as one thread going through them would find it.
    std::atomic<std::size_t> firstFailure{n};
    std::atomic<bool> tooLong{false};  // a route longer than a record: the columns after all
    const auto traceDestinations = [&](std::size_t firstDestination, std::size_t endDestination, bool withChecks, QString &failure) {
        RouteTracer tracer(fabric, tables);
        std::vector<std::uint8_t> scratch(ebb.m_nextPort.empty() ? ebb.m_switchCount : 0);
        for (std::size_t j = firstDestination; j < endDestination && j < firstFailure.load(std::memory_order_relaxed); ++j) {
            const EndPort &destination = ends[std::size_t(chosen[j])];
            tracer.trace(destination.port, destination.lid);
            const auto fail = [&](QString message) {
                failure = std::move(message);
                std::size_t known = firstFailure.load();
                while (j < known && !firstFailure.compare_exchange_weak(known, j)) {
                }
            };
            for (const SourceSwitch &from : sourceSwitches) {
                const NodeIndex sw = from.sw;
                const int source = std::size_t(from.first) == j ? from.second : from.first;
                if (withChecks && source >= 0 && tracer.verdict(sw) != RouteTracer::Verdict::Reaches) {
                    const PortIndex from = ebb.m_ports[std::size_t(source)];
                    const NodeIndex blamed = tracer.blame(sw);
                    const NodeIndex stop = tracer.blame(blamed) == kNoIndex ? blamed : tracer.blame(blamed);
                    fail(QStringLiteral("the forwarding tables do not deliver from %1 (port GUID %2, LID %3) to %4 (port GUID %5, "
                                        "LID %6): the route stops at switch %7 (GUID %8): %9")
                             .arg(portDisplayName(fabric, from), guidText(fabric.port(from).guid))
                             .arg(fabric.port(from).lid)
                             .arg(portDisplayName(fabric, destination.port), guidText(fabric.port(destination.port).guid))
                             .arg(destination.lid)
                             .arg(fabric.node(stop).description.isEmpty() ? fabric.node(stop).name : fabric.node(stop).description,
                                  guidText(fabric.node(stop).guid), tracer.explain(blamed, destination.lid)));
                    return;
                }
            }
            std::uint8_t *column = scratch.empty() ? ebb.m_nextPort.data() + j * ebb.m_switchCount : scratch.data();
            for (std::size_t s = 0; s < ebb.m_switchCount; ++s) {
                const NodeIndex sw = fabric.switches()[s];
                const PortIndex out = tracer.outPort(sw);
                column[s] = tracer.verdict(sw) == RouteTracer::Verdict::Reaches && out != kNoIndex ? fabric.port(out).number : kNoNextPort;
            }
            for (std::size_t slot = 0; !ebb.m_paths.empty() && slot < sourceSwitches.size() && !tooLong.load(std::memory_order_relaxed); ++slot) {
                std::uint8_t *record = ebb.m_paths.data() + (j * ebb.m_sourceSlots + slot) * kPathStride;
                NodeIndex sw = sourceSwitches[slot].sw;
                std::size_t hops = 0;
                while (tracer.verdict(sw) == RouteTracer::Verdict::Reaches) {
                    if (++hops >= kPathStride) {
                        tooLong = true;
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
            for (std::size_t i : unattached) {
                // End ports cabled to each other directly: the cable is the whole route.
                if (withChecks && i != j && fabric.port(ebb.m_ports[i]).remote != destination.port) {
                    fail(QStringLiteral("%1 is not attached to a switch and cannot reach %2")
                             .arg(portDisplayName(fabric, ebb.m_ports[i]), portDisplayName(fabric, destination.port)));
                    return;
                }
            }
        }
    };
    const auto traceAll = [&](bool withChecks) {
        const std::size_t threadCount = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, std::max<std::size_t>(1, n / 64));
        std::vector<QString> failures(threadCount);
        std::vector<std::thread> threads;
        for (std::size_t t = 1; t < threadCount; ++t)
            threads.emplace_back(traceDestinations, n * t / threadCount, n * (t + 1) / threadCount, withChecks, std::ref(failures[t]));
        traceDestinations(0, n / threadCount, withChecks, failures[0]);
        for (std::thread &thread : threads)
            thread.join();
        for (QString &failure : failures)
            if (!failure.isEmpty())
                return failure;  // blocks in destination order; a block stops at its first
        return QString();
    };
    if (const QString failure = traceAll(true); !failure.isEmpty())
        return Error{{}, 0, failure};
    if (tooLong) {
        // Longer than a record holds: walk the columns instead.
        ebb.m_paths.clear();
        ebb.m_paths.shrink_to_fit();
        ebb.m_nextPort.assign(n * ebb.m_switchCount, kNoNextPort);
        traceAll(false);
    }
    ebb.m_drawMultipliers = drawMultipliers(n);

    // Link mode: paper rules, every route a record, every participant an end port on a switch.
    // Then a participant's own channel and the channel into it carry one stream per sample
    // (§2.6.2 note 3): they never decide a stream's share, so the samples count only the
    // channels from switch to switch, numbered by switch and port number, and give the two
    // endpoint channels their one stream per use at the end.
    const bool everyOneOnASwitch = std::all_of(ebb.m_sourceSlot.begin(), ebb.m_sourceSlot.end(), [](std::int32_t s) { return s >= 0; });
    const bool linkMode = ebb.m_uniformRates && !ebb.m_weighted && !ebb.m_paths.empty() && everyOneOnASwitch;
    if (linkMode) {
        // A switch's links are the span of port numbers that lead to switches: the hosts of a
        // leaf usually sit on one side of it and take no numbers.
        std::vector<std::uint32_t> base(ebb.m_switchCount, 0);
        std::uint64_t links = 0;
        auto leadsToSwitch = [&](std::size_t p) {
            const PortIndex remote = ebb.m_remotePort[p];
            return remote != kNoIndex && ebb.m_switchOfPort[std::size_t(remote)] >= 0;
        };
        std::vector<std::pair<int, int>> span(ebb.m_switchCount, {1, 0});
        for (std::size_t s = 0; s < ebb.m_switchCount; ++s) {
            const int ports = fabric.node(fabric.switches()[s]).portCount;
            auto &[low, high] = span[s];
            for (int number = 0; number <= ports; ++number)
                if (leadsToSwitch(std::size_t(ebb.m_switchFirstPort[s]) + std::size_t(number))) {
                    low = std::min(low == 1 && high == 0 ? number : low, number);
                    high = number;
                }
            base[s] = std::uint32_t(links) - std::uint32_t(low);  // modulo 2^32: base + number lands in the span
            if (high >= low)
                links += std::uint64_t(high - low + 1);
        }
        if (links < std::numeric_limits<std::uint32_t>::max()) {
            ebb.m_linkMode = true;
            // 1/τ and B/τ as pass 2 would divide them (the same doubles), for the usual τ.
            for (std::uint32_t tau = 0; tau < 64; ++tau) {
                ebb.m_shareOf.push_back(1.0 / double(tau));
                ebb.m_rateShareOf.push_back(ebb.m_endpointRate.front() / double(tau));
            }
            ebb.m_linkNext.assign(links, 0);
            ebb.m_linkPort.assign(links, kNoIndex);
            for (std::size_t s = 0; s < ebb.m_switchCount; ++s) {
                for (int number = span[s].first; number <= span[s].second; ++number) {
                    const std::size_t p = std::size_t(ebb.m_switchFirstPort[s]) + std::size_t(number);
                    const std::uint32_t link = base[s] + std::uint32_t(number);
                    ebb.m_linkPort[link] = PortIndex(p);
                    if (leadsToSwitch(p))
                        ebb.m_linkNext[link] = base[std::size_t(ebb.m_switchOfPort[std::size_t(ebb.m_remotePort[p])])];
                }
            }
            ebb.m_slotBase.resize(sourceSwitches.size());
            for (std::size_t slot = 0; slot < sourceSwitches.size(); ++slot)
                ebb.m_slotBase[slot] = base[std::size_t(denseSwitch[std::size_t(sourceSwitches[slot].sw)])];
        }
    }
    return ebb;
}

std::vector<int> EffectiveBisection::samplePattern(std::uint64_t seed, int sample) const
{
    Mt19937 rng;
    std::vector<int> pattern;
    int dropped = -1;
    drawPattern(seed, sample, participantCount(), m_drawMultipliers, rng, pattern, dropped);
    return pattern;
}

double EffectiveBisection::patternBandwidth(const std::vector<int> &pattern, BisectionVariant variant) const
{
    Workspace w(*this);
    return evaluate(pattern, variant, w).normalized;
}

EffectiveBisection::SampleOutcome EffectiveBisection::evaluateLinks(const std::vector<int> &pattern, BisectionVariant variant, Workspace &w) const
{
    const std::size_t half = pattern.size() / 2;
    const std::size_t streamCount = variant == BisectionVariant::OneWay ? half : 2 * half;
    // A sample adds at most streamCount to a link's τ sum and to its bottleneck count.
    if (w.pending + streamCount > std::numeric_limits<std::uint32_t>::max())
        w.flush();
    w.pending += streamCount;
    const bool oneWay = variant == BisectionVariant::OneWay;
    const int *ends = pattern.data();
    auto destinationOf = [&](std::size_t s) { return s < half ? ends[s + half] : ends[s - half]; };
    constexpr std::size_t kMostLinks = kPathStride - 2;  // a record's hops but the last
    if (w.linkPath.size() < streamCount * kMostLinks) {
        w.linkPath.resize(streamCount * kMostLinks);
        w.linkTouched.resize(std::min(streamCount * kMostLinks, w.links.size()) + 1);  // one spare for the branch-free append
    }
    if (w.pathStart.size() < streamCount + 1)
        w.pathStart.resize(streamCount + 1);
    Workspace::Link *links = w.links.data();
    std::uint32_t *path = w.linkPath.data();
    std::uint32_t *start = w.pathStart.data();
    std::uint32_t *touched = w.linkTouched.data();
    const std::int32_t *slotOf = m_sourceSlot.data();
    const std::uint8_t *records = m_paths.data();
    auto recordOf = [&](int source, int destination) {
        return records + (std::size_t(destination) * m_sourceSlots + std::size_t(slotOf[source])) * kPathStride;
    };

    // Pass 1: count the streams on each switch-to-switch link.
    std::uint32_t at = 0;
    std::size_t touchedCount = 0;
    for (std::size_t s = 0; s < streamCount; ++s) {
        const int source = ends[s];
        const int destination = destinationOf(s);
        Q_ASSERT(source != destination);
        if (oneWay)
            ++w.asSource[std::size_t(source)];
#if defined(__GNUC__)
        if (s + kPrefetchAhead < streamCount)
            __builtin_prefetch(recordOf(ends[s + kPrefetchAhead], destinationOf(s + kPrefetchAhead)));
#endif
        const std::uint8_t *record = recordOf(source, destination);
        start[s] = at;
        const std::size_t hops = record[0];
        if (hops < 2)
            continue;  // source and destination share a switch
        std::uint32_t link = m_slotBase[std::size_t(slotOf[source])] + record[1];
        for (std::size_t hop = 1;; ++hop) {
            path[at++] = link;
            // Branch-free: whether a link is new to the sample is a coin toss halfway through.
            touched[touchedCount] = link;
            touchedCount += links[link].streams++ == 0 ? 1 : 0;
            if (hop + 1 == hops)
                break;
            link = links[link].next + record[hop + 1];
        }
    }
    start[streamCount] = at;

    // Pass 2: each stream's worst link; the endpoint channels' 1 when it has none.
    double normalizedSum = 0;
    double aggregate = 0;
    const double rate = m_endpointRate.front();
    std::uint32_t *bottlenecks = w.bottlenecks.data();
    for (std::size_t s = 0; s < streamCount; ++s) {
        const std::uint32_t begin = start[s];
        const std::uint32_t end = start[s + 1];
        std::uint32_t tau[kMostLinks];
        std::uint32_t most = 1;
        for (std::uint32_t i = begin; i < end; ++i) {
            tau[i - begin] = links[path[i]].streams;
            most = std::max(most, tau[i - begin]);
        }
        if (most < m_shareOf.size()) {
            normalizedSum += m_shareOf[most];
            aggregate += m_rateShareOf[most];
        } else {
            const double worst = double(most);
            normalizedSum += 1.0 / worst;
            aggregate += rate / worst;
        }
        if (w.byMaxCongestion.size() <= most)
            w.byMaxCongestion.resize(std::size_t(most) + 1, 0);
        ++w.byMaxCongestion[most];
        if (most > 1)
            for (std::uint32_t i = begin; i < end; ++i)
                bottlenecks[path[i]] += tau[i - begin] == most ? 1u : 0u;  // branch-free: a coin toss too
    }

    // Sums and reset: through the touched links, or, when they are many, through all links in
    // order (no misses to wait for, two links a step).
    const std::size_t linkCount = w.links.size();
    Workspace::LinkSums *sums = w.sums.data();
    if (touchedCount * 4 < linkCount) {
        for (std::size_t t = 0; t < touchedCount; ++t) {
            const std::uint32_t link = touched[t];
            const std::uint32_t streams = links[link].streams;
            sums[link].tau += streams;
            sums[link].shared += streams >= 2 ? 1u : 0u;
            links[link].streams = 0;
        }
    } else {
        std::size_t link = 0;
#if defined(__SSE2__)
        static_assert(sizeof(Workspace::Link) == 8 && sizeof(Workspace::LinkSums) == 8);
        const __m128i evenLanes = _mm_set_epi32(0, -1, 0, -1), oddLanes = _mm_set_epi32(-1, 0, -1, 0);
        const __m128i one = _mm_set1_epi32(1);
        for (; link + 2 <= linkCount; link += 2) {
            __m128i *pair = reinterpret_cast<__m128i *>(links + link);  // next, streams, next, streams
            __m128i *total = reinterpret_cast<__m128i *>(sums + link);  // tau, shared, tau, shared
            const __m128i l = _mm_loadu_si128(pair);
            const __m128i streams = _mm_shuffle_epi32(l, _MM_SHUFFLE(3, 3, 1, 1));
            const __m128i sharedNow = _mm_and_si128(_mm_cmpgt_epi32(streams, one), oddLanes);  // −1 where τ ≥ 2
            const __m128i add = _mm_sub_epi32(_mm_and_si128(streams, evenLanes), sharedNow);
            _mm_storeu_si128(total, _mm_add_epi32(_mm_loadu_si128(total), add));
            _mm_storeu_si128(pair, _mm_and_si128(l, evenLanes));
        }
#endif
        for (; link < linkCount; ++link) {
            const std::uint32_t streams = links[link].streams;
            sums[link].tau += streams;
            sums[link].shared += streams >= 2 ? 1u : 0u;
            links[link].streams = 0;
        }
    }
    return {streamCount == 0 ? 1.0 : normalizedSum / double(streamCount), aggregate};
}

EffectiveBisection::SampleOutcome EffectiveBisection::evaluate(const std::vector<int> &pattern, BisectionVariant variant, Workspace &w) const
{
    if (m_linkMode)
        return evaluateLinks(pattern, variant, w);
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
        workspaces.emplace_back(*this);

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
                int dropped = -1;
                drawPattern(options.seed, k, participantCount(), m_drawMultipliers, w.rng, w.pattern, dropped);
                if (m_linkMode) {
                    ++w.samplesRun;
                    if (dropped >= 0)
                        ++w.dropped[std::size_t(dropped)];
                }
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
        if (m_linkMode) {
            // Integers all: the same sums as counting per port.
            for (std::size_t c = 0; c < w.links.size(); ++c) {
                const std::size_t port = std::size_t(m_linkPort[c]);
                const std::uint64_t flushed = w.tauTotal.empty() ? 0 : w.tauTotal[c];
                tauSum[port] += double(flushed + w.sums[c].tau);
                shared[port] += w.sums[c].shared;
                bottleneck[port] += (w.bottleneckTotal.empty() ? 0 : w.bottleneckTotal[c]) + w.bottlenecks[c];
            }
            for (std::size_t i = 0; i < m_ports.size(); ++i) {
                const PortIndex own = m_ports[i];
                const std::uint32_t present = w.samplesRun - w.dropped[i];
                const std::uint32_t sent = options.variant == BisectionVariant::OneWay ? w.asSource[i] : present;
                const std::uint32_t received = options.variant == BisectionVariant::OneWay ? present - sent : present;
                tauSum[std::size_t(own)] += double(sent);
                tauSum[std::size_t(m_remotePort[std::size_t(own)])] += double(received);
            }
        }
        for (std::size_t c = 0; c < w.tauSum.size(); ++c) {
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
