#pragma once
// Effective bisection bandwidth Λ (spec 002 §2.6, Hoefler et al.): the expected per-stream
// bandwidth of random perfect-matching "bisect" patterns when every stream gets the link
// bandwidth divided by the worst congestion on its path (linear model, ideal flow control).
//
// Conventions, written down because results and tests depend on them:
// - Participants Q are end ports (as PartitionMembership finds them) in ascending port GUID
//   order, so a seed gives the same patterns after an unrelated rediscovery (§2.6.3).
// - Sample k draws its pattern from its own std::mt19937, seeded with the low 32 bits of
//   splitmix64(seed XOR k), with the spec's explicit Fisher–Yates and rejection draw. Patterns,
//   λ_k and every statistic derived from them are therefore the same for any thread count.
//   Per-channel sums are integers in paper mode and thus exact; with node weights they are
//   floating-point sums merged in thread order (same seed and threads: identical).
// - Odd |Q|: each sample first drops one participant drawn uniformly (§2.6.4), so no endpoint
//   is systematically left out.
// - Congestion τ is counted per directed channel (the port a packet leaves by), endpoint
//   channels included (§2.6.2). A stream's bandwidth is min over its channels of
//   rate(c)·w_s/τ(c), normalised by the slower of its two endpoint channels; with uniform rates
//   and unit weights this is the paper's 1/max τ. λ_k is the mean over the streams of sample k.
// - "Bottleneck" counts, per channel, the streams whose normalised bandwidth is below 1 and
//   that this channel limits (all channels attaining the minimum count).
// - Routes are followed through the LFTs from each source to each destination's base LID; a
//   pair the tables do not deliver is an error at prepare(), not a silently skipped stream.

#include "Fabric.h"
#include "ForwardingTables.h"
#include "LargeBuffer.h"
#include "Result.h"
#include "Tenancy.h"

#include <QString>

#include <cstdint>
#include <functional>
#include <vector>

namespace weft {

// `uni` is the paper's pattern: h = ⌊|Q|/2⌋ one-way streams. `bidir` adds the reverse of each
// (Netgauge's exchange), 2h streams; compare with measurements using this one (spec 002 §9.8).
enum class BisectionVariant : std::uint8_t { OneWay, TwoWay };

QString bisectionVariantName(BisectionVariant variant);  // "uni", "bidir"

struct EbbModel
{
    std::vector<Guid> participants;  // port GUIDs; empty: every end port
    bool linkRates = true;           // Port::width × speed; false: every link equal (paper)
    bool nodeWeights = false;        // Tenancy::nodeWeights as stream demands (not in paper)
};

struct EbbRun
{
    int samples = 10000;
    std::uint64_t seed = 1;
    BisectionVariant variant = BisectionVariant::OneWay;
    int threads = 1;  // 0: one per hardware thread
    // Called on the calling thread now and then with samples done; false cancels the run.
    std::function<bool(int done, int total)> progress;
};

// What one directed channel saw, pooled over all samples.
struct EbbChannel
{
    PortIndex from = kNoIndex;  // the port the channel leaves by
    double meanCongestion = 0;  // τ̄: mean over samples of τ (weighted when weights are on)
    double sharedFraction = 0;  // fraction of samples in which two or more streams used it
    std::uint64_t bottleneckStreams = 0;  // streams it limited (see the header comment)
};

struct EbbResult
{
    int samples = 0;
    std::uint64_t seed = 0;
    BisectionVariant variant = BisectionVariant::OneWay;
    int threads = 1;
    int participants = 0;      // |Q|
    int streamsPerSample = 0;  // h or 2h
    bool linkRates = false;    // rates differed and were used
    bool nodeWeights = false;

    double mean = 0;    // Λ, fraction of what the streams could get alone
    double stddev = 0;  // of λ_k, divided by N−1
    double ci95 = 0;    // half-widths: z·s/√N
    double ci99 = 0;
    double min = 0, max = 0;
    double p1 = 0, p5 = 0, p50 = 0, p95 = 0, p99 = 0;  // linear interpolation between ranks
    std::vector<int> histogram;  // 20 bins of width 0.05 on [0,1]; 1.0 falls in the last
    double meanAggregateGbps = 0;  // mean over samples of Σ stream bandwidth (Λ_abs)
    int worstSample = 0;           // argmin λ_k, to replay with samplePattern()

    // Paper mode only (uniform rates, no weights): streams pooled over all samples by the
    // congestion of their worst channel; index = max τ (index 0 unused).
    std::vector<std::uint64_t> streamsByMaxCongestion;
    // Every channel that carried traffic, most often limiting first, then by mean congestion.
    std::vector<EbbChannel> channels;
    std::vector<double> sampleValues;  // λ_k in sample order
    double seconds = 0;
};

class EffectiveBisection
{
public:
    // Resolves participants, follows every route once and keeps compact next-hop tables. Fails
    // with a plain message when a participant is unknown or a pair is not delivered. The
    // fabric need not outlive the call.
    static Result<EffectiveBisection> prepare(const Fabric &fabric, const ForwardingTables &tables,
                                              const Tenancy &tenancy, const EbbModel &model = {});

    int participantCount() const { return int(m_ports.size()); }
    PortIndex participantPort(int i) const { return m_ports[std::size_t(i)]; }

    // Participant indices of sample k's pattern: 2h entries, streams pattern[i] -> pattern[i+h].
    std::vector<int> samplePattern(std::uint64_t seed, int sample) const;
    // λ of one pattern (as samplePattern lays it out; any even-length list of distinct
    // participant indices), in [0, 1].
    double patternBandwidth(const std::vector<int> &pattern, BisectionVariant variant) const;

    // N samples over `threads` threads. Fails only when cancelled or asked for no samples.
    Result<EbbResult> run(const EbbRun &options) const;

private:
    struct Workspace;
    struct SampleOutcome
    {
        double normalized = 0;  // λ_k
        double aggregateGbps = 0;
    };
    SampleOutcome evaluate(const std::vector<int> &pattern, BisectionVariant variant, Workspace &w) const;
    SampleOutcome evaluateLinks(const std::vector<int> &pattern, BisectionVariant variant, Workspace &w) const;

    // Routes are kept as the out-port numbers a stream takes at each switch, one fixed-size
    // record per (destination, switch a source hangs off): one cache line per stream where
    // walking per-destination next-hop columns costs a miss per hop. Fabrics whose routes are
    // too long or too many for that fall back to the columns.
    static constexpr std::size_t kPathStride = 8;  // hop count + up to 7 switch hops

    std::vector<PortIndex> m_ports;             // participants, ascending port GUID
    std::vector<double> m_weight;               // per participant
    std::vector<double> m_endpointRate;         // per participant: its channel's rate, Gb/s
    std::vector<std::int32_t> m_sourceSlot;     // per participant: its switch among sources
    std::size_t m_sourceSlots = 0;
    LargeVector<std::uint8_t> m_paths;          // [destination][source slot][kPathStride]
    std::vector<PortIndex> m_remotePort;        // per fabric port
    std::vector<PortIndex> m_nextFirstPort;     // per fabric port: first port of the switch it leads to
    std::vector<std::int32_t> m_switchOfPort;   // per fabric port: dense switch index, -1 otherwise
    std::vector<PortIndex> m_switchFirstPort;   // per dense switch
    std::vector<std::uint8_t> m_nextPort;       // [destination][dense switch]; empty with m_paths
    std::vector<double> m_rate;               // per fabric port: its outgoing channel, Gb/s
    std::size_t m_switchCount = 0;
    std::vector<std::uint64_t> m_drawMultipliers;  // per draw bound 1..|Q| (a fast exact modulo)
    // Link mode (paper rules, routes as records, every participant on a switch): the ports that
    // lead from switch to switch, numbered by switch, then port number, so that a record's port
    // number added to the base of the switch a link leads to gives the next link.
    std::vector<std::uint32_t> m_linkNext;  // per link: base of the switch it leads to
    std::vector<PortIndex> m_linkPort;      // per link: the fabric port
    std::vector<std::uint32_t> m_slotBase;  // per source slot: base of its switch
    bool m_linkMode = false;
    std::vector<double> m_shareOf, m_rateShareOf;  // link mode: 1/τ and B/τ for small τ
    bool m_uniformRates = true;
    bool m_weighted = false;
};

// The participants of a partition (by name or P_Key such as "0x8001"; full members only, since
// limited members may not talk to each other) or of a tenant (by name).
Result<std::vector<Guid>> groupMembers(const Fabric &fabric, const Tenancy &tenancy, const QString &name);

}  // namespace weft
