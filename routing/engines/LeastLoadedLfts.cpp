#include "LeastLoadedLfts.h"

#include "Parallel.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <limits>
#include <thread>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace weft::routing {

int workerCount(int threads)
{
    return threads > 0 ? threads : int(std::max(1u, std::thread::hardware_concurrency()));
}

bool forEachInParallel(int count, int threads, const ProgressFunction &progress,
                       const std::function<void(int worker, int item)> &body)
{
    const int workers = std::max(1, std::min(workerCount(threads), count));
    std::atomic<int> next{0};
    std::atomic<int> done{0};
    std::atomic<bool> cancelled{false};
    auto work = [&](int worker) {
        while (!cancelled.load(std::memory_order_relaxed)) {
            const int item = next.fetch_add(1, std::memory_order_relaxed);
            if (item >= count)
                return;
            body(worker, item);
            const int finished = done.fetch_add(1, std::memory_order_relaxed) + 1;
            // Only the calling thread talks to the caller; the others see the flag.
            if (worker == 0 && progress && !progress(std::min(finished, count), count))
                cancelled.store(true, std::memory_order_relaxed);
        }
    };
    runOnThreads(std::size_t(workers), [&](std::size_t w) { work(int(w)); });
    if (cancelled.load())
        return false;
    return !progress || progress(count, count);
}

ProgressFunction progressPart(const ProgressFunction &progress, int part, int parts)
{
    if (!progress)
        return {};
    // Parts are reported in a fixed unit, so that parts of different sizes (or parts of parts)
    // add up to a count that only grows.
    constexpr std::int64_t kUnit = 10000;
    return [progress, part, parts](int done, int total) {
        const std::int64_t within = total > 0 ? std::int64_t(done) * kUnit / total : kUnit;
        return progress(int(part * kUnit + within), int(parts * kUnit));
    };
}

// Spare counts at the end: masks are read 64 ports at a time, up to 4 words past a switch's
// port 0 (port numbers are bytes).
HopRow::HopRow(const SwitchGraph &graph) : m_graph(&graph), m_data(graph.slots.size() + 4 * 64, kNoPath) {}

void HopRow::clear()
{
    std::fill(m_data.begin(), m_data.end(), kNoPath);
}

namespace {

int maxPortCount(const SwitchGraph &graph)
{
    int most = 0;
    for (const SwitchGraph::Switch &sw : graph.switches)
        most = std::max(most, sw.portCount);
    return most;
}

// Bit i set where counts[i] == count, for i in 0..63.
std::uint64_t portsAtCount(const std::uint8_t *counts, std::uint8_t count)
{
#if defined(__SSE2__)
    const __m128i wanted = _mm_set1_epi8(char(count));
    std::uint64_t bits = 0;
    for (int i = 0; i < 4; ++i) {
        const __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i *>(counts + 16 * i));
        bits |= std::uint64_t(std::uint16_t(_mm_movemask_epi8(_mm_cmpeq_epi8(chunk, wanted)))) << (16 * i);
    }
    return bits;
#else
    std::uint64_t bits = 0;
    for (int i = 0; i < 64; ++i)
        bits |= std::uint64_t(counts[i] == count) << i;
    return bits;
#endif
}

void setBit(std::uint64_t *mask, int port)
{
    mask[port >> 6] |= std::uint64_t(1) << (port & 63);
}

}  // namespace

LeastHopPorts::LeastHopPorts(const SwitchGraph &graph)
    : m_graph(&graph)
    , m_switches(graph.switches.size())
    , m_words(maxPortCount(graph) / 64 + 1)
    , m_cabled(m_switches * std::size_t(m_words), 0)
    , m_bits(new std::uint64_t[m_switches * m_switches * std::size_t(m_words)])
{
    for (std::size_t s = 0; s < m_switches; ++s) {
        for (int p = 1; p <= graph.switches[s].portCount; ++p) {
            if (graph.slot(int(s), p).remote != SwitchGraph::Remote::None)
                setBit(m_cabled.data() + s * std::size_t(m_words), p);
        }
    }
}

bool LeastHopPorts::empty(int sw, int target) const
{
    const std::uint64_t *m = mask(sw, target);
    return std::all_of(m, m + m_words, [](std::uint64_t word) { return word == 0; });
}

void LeastHopPorts::store(int target, const HopRow &row)
{
    for (std::size_t s = 0; s < m_switches; ++s) {
        std::uint64_t *m = mask(int(s), target);
        const int first = m_graph->switches[s].firstSlot;
        const std::uint8_t least = row.slot(first);
        for (int w = 0; w < m_words; ++w) {
            m[w] = least == kNoPath ? 0
                                    : portsAtCount(row.counts() + first + w * 64, least) &
                                          m_cabled[s * std::size_t(m_words) + std::size_t(w)];
        }
    }
}

MinHopSearch::MinHopSearch(const SwitchGraph &graph)
    : m_distance(graph.switches.size()), m_least(graph.switches.size())
{
    const int n = int(graph.switches.size());
    m_linkStart.reserve(std::size_t(n) + 1);
    for (int sw = 0; sw < n; ++sw) {
        m_linkStart.push_back(int(m_links.size()));
        for (int p = 1; p <= graph.switches[std::size_t(sw)].portCount; ++p) {
            const SwitchGraph::Slot &slot = graph.slot(sw, p);
            // A loopback cable teaches a switch nothing (OpenSM skips it as well).
            if (slot.remote == SwitchGraph::Remote::Switch && slot.index != sw)
                m_links.push_back({slot.index, p});
        }
    }
    m_linkStart.push_back(int(m_links.size()));
    m_queue.reserve(std::size_t(n));
    for (int sw = 0; sw < n && m_symmetric; ++sw) {
        for (int l = m_linkStart[std::size_t(sw)]; l < m_linkStart[std::size_t(sw) + 1]; ++l) {
            const Link &link = m_links[std::size_t(l)];
            const SwitchGraph::Slot &back = graph.slot(link.remote, graph.slot(sw, link.port).remotePort);
            m_symmetric &= back.remote == SwitchGraph::Remote::Switch && back.index == sw && back.remotePort == link.port;
        }
    }
}

const std::vector<std::uint8_t> &MinHopSearch::run(int target)
{
    m_target = target;
    std::fill(m_distance.begin(), m_distance.end(), -1);
    m_distance[std::size_t(target)] = 0;
    m_queue.assign(1, target);
    for (std::size_t head = 0; head < m_queue.size(); ++head) {
        const int sw = m_queue[head];
        const int next = m_distance[std::size_t(sw)] + 1;
        for (int l = m_linkStart[std::size_t(sw)]; l < m_linkStart[std::size_t(sw) + 1]; ++l) {
            int &d = m_distance[std::size_t(m_links[std::size_t(l)].remote)];
            if (d < 0) {
                d = next;
                m_queue.push_back(m_links[std::size_t(l)].remote);
            }
        }
    }
    const int n = int(m_least.size());
    if (m_symmetric) {
        for (int sw = 0; sw < n; ++sw) {
            const int d = m_distance[std::size_t(sw)];
            m_least[std::size_t(sw)] = d >= 0 && d < kNoPath ? std::uint8_t(d) : kNoPath;
        }
        return m_least;
    }
    // A port's count is its neighbour's distance plus one, where that fits in OpenSM's byte.
    for (int sw = 0; sw < n; ++sw) {
        int least = sw == target ? 0 : kNoPath;
        for (int l = m_linkStart[std::size_t(sw)]; l < m_linkStart[std::size_t(sw) + 1]; ++l) {
            const int d = m_distance[std::size_t(m_links[std::size_t(l)].remote)];
            if (d >= 0 && d + 1 < least)
                least = d + 1;
        }
        m_least[std::size_t(sw)] = std::uint8_t(least);
    }
    return m_least;
}

void MinHopSearch::storeMasks(LeastHopPorts &ports) const
{
    const int n = int(m_least.size());
    for (int sw = 0; sw < n; ++sw) {
        std::uint64_t *m = ports.mask(sw, m_target);
        std::fill(m, m + ports.words(), 0);
        const int least = m_least[std::size_t(sw)];
        // The target's own least count (0) is no port's.
        if (least == kNoPath || sw == m_target)
            continue;
        for (int l = m_linkStart[std::size_t(sw)]; l < m_linkStart[std::size_t(sw) + 1]; ++l) {
            if (m_distance[std::size_t(m_links[std::size_t(l)].remote)] + 1 == least)
                setBit(m, m_links[std::size_t(l)].port);
        }
    }
}

void MinHopSearch::storeMasksOf(int sw, const std::uint8_t *distances, LeastHopPorts &ports) const
{
    const std::size_t n = m_least.size();
    const int words = ports.words();
    std::uint64_t *masks = ports.mask(sw, 0);
    std::fill(masks, masks + n * std::size_t(words), 0);
    const std::uint8_t *own = distances + std::size_t(sw) * n;
    // Port p is a least-hop port towards t when its neighbour is one hop nearer to t (a
    // switch's least count towards t is its distance from t, where that fits in a byte).
    for (int l = m_linkStart[std::size_t(sw)]; l < m_linkStart[std::size_t(sw) + 1]; ++l) {
        const Link &link = m_links[std::size_t(l)];
        const std::uint8_t *via = distances + std::size_t(link.remote) * n;
        std::uint64_t *word = masks + link.port / 64;
        const std::uint64_t bit = std::uint64_t(1) << (link.port % 64);
        for (std::size_t t = 0; t < n; ++t) {
            const bool least = own[t] != kNoPath && int(via[t]) + 1 == int(own[t]);
            word[t * std::size_t(words)] |= bit & (std::uint64_t(0) - std::uint64_t(least));
        }
    }
}

bool fillMinHopPorts(const SwitchGraph &graph, int threads, const ProgressFunction &progress, LeastHopPorts &ports)
{
    const int n = int(graph.switches.size());
    const MinHopSearch search(graph);
    std::vector<MinHopSearch> searches(std::size_t(workerCount(threads)), search);
    if (!search.symmetric()) {
        return forEachInParallel(n, threads, progress, [&](int worker, int target) {
            MinHopSearch &search = searches[std::size_t(worker)];
            search.run(target);
            search.storeMasks(ports);
        });
    }
    // Distances between all switches first (n^2 bytes), then each switch's masks in one pass
    // over its own row and its neighbours' rows.
    std::vector<std::uint8_t> distances(std::size_t(n) * std::size_t(n));
    const bool searched = forEachInParallel(n, threads, progressPart(progress, 0, 2), [&](int worker, int from) {
        const std::vector<std::uint8_t> &row = searches[std::size_t(worker)].run(from);
        std::copy(row.begin(), row.end(), distances.begin() + std::ptrdiff_t(from) * n);
    });
    return searched && forEachInParallel(n, threads, progressPart(progress, 1, 2), [&](int, int sw) {
               search.storeMasksOf(sw, distances.data(), ports);
           });
}

std::vector<Destination> openSmDestinationOrder(const SwitchGraph &graph)
{
    std::vector<int> switches = switchesInOpenSmOrder(graph);
    auto endPortLinks = [&](int sw) {
        int count = 0;
        for (int p = 1; p <= graph.switches[std::size_t(sw)].portCount; ++p)
            count += graph.slot(sw, p).remote == SwitchGraph::Remote::EndPort;
        return count;
    };
    std::vector<int> links(graph.switches.size());
    for (std::size_t s = 0; s < links.size(); ++s)
        links[s] = endPortLinks(int(s));
    // glibc's qsort is a merge sort for arrays this size, hence stable.
    std::stable_sort(switches.begin(), switches.end(),
                     [&](int a, int b) { return links[std::size_t(a)] > links[std::size_t(b)]; });

    std::vector<Destination> order;
    order.reserve(graph.switches.size() + graph.endPorts.size());
    std::vector<bool> taken(graph.endPorts.size(), false);
    for (int sw : switches) {
        for (int p = 1; p <= graph.switches[std::size_t(sw)].portCount; ++p) {
            const SwitchGraph::Slot &slot = graph.slot(sw, p);
            if (slot.remote != SwitchGraph::Remote::EndPort || taken[std::size_t(slot.index)])
                continue;
            taken[std::size_t(slot.index)] = true;
            order.push_back({false, slot.index});
        }
    }
    struct Rest
    {
        std::uint64_t key;
        Destination destination;
    };
    std::vector<Rest> rest;
    for (std::size_t s = 0; s < graph.switches.size(); ++s)
        rest.push_back({openSmMapKey(graph.switches[s].portGuid), {true, int(s)}});
    for (std::size_t e = 0; e < graph.endPorts.size(); ++e) {
        if (!taken[e])
            rest.push_back({openSmMapKey(graph.endPorts[e].portGuid), {false, int(e)}});
    }
    std::sort(rest.begin(), rest.end(), [](const Rest &a, const Rest &b) { return a.key < b.key; });
    for (const Rest &r : rest)
        order.push_back(r.destination);
    return order;
}

namespace {

// One destination LID as every switch sees it.
struct Step
{
    int base = -1;               // the switch it hangs off (or is); -1: no route anywhere
    Lid lid = 0;
    std::uint8_t localPort = 0;  // its port on `base`: 0 for the switch itself
    bool counted = false;        // routes to end ports count towards port loads, to switches not
};

// Where to resume the least-loaded search among one mask's ports on one switch. Loads only
// grow, so this stays true: every port of the mask has load >= least, and every port of it
// numbered below `next` has load > least. The first port from `next` on with load == least is
// then the lowest-numbered of the least loaded, which is what OpenSM's strict "<" over ports
// in number order picks.
struct Cursor
{
    std::uint32_t least = 0;
    int next = 0;
    int only = -1;  // the port of a mask of one port: no search at all
};

// The cursors of one switch, one per distinct mask (many destination switches share a mask:
// all of a leaf's uplinks, say).
class CursorTable
{
public:
    CursorTable(std::size_t masks, int words) : m_words(words)
    {
        std::size_t capacity = 16;
        while (capacity < 2 * masks)
            capacity *= 2;
        m_keys.assign(capacity, nullptr);
        m_stamps.assign(capacity, 0);
        m_cursors.resize(capacity);
    }

    // Forgets every cursor (the next switch).
    void reset() { ++m_stamp; }

    Cursor &find(const std::uint64_t *mask)
    {
        std::uint64_t hash = 0;
        for (int w = 0; w < m_words; ++w)
            hash = (hash ^ mask[w]) * 0x9E3779B97F4A7C15ull;
        const std::size_t wrap = m_keys.size() - 1;
        for (std::size_t i = std::size_t(hash >> 20) & wrap;; i = (i + 1) & wrap) {
            if (m_stamps[i] != m_stamp) {
                m_stamps[i] = m_stamp;
                m_keys[i] = mask;
                m_cursors[i] = Cursor{};
                int bits = 0;
                for (int w = 0; w < m_words; ++w) {
                    bits += __builtin_popcountll(mask[w]);
                    if (mask[w] != 0)
                        m_cursors[i].only = w * 64 + __builtin_ctzll(mask[w]);
                }
                if (bits != 1)
                    m_cursors[i].only = -1;
                return m_cursors[i];
            }
            if (m_words == 1 ? *mask == *m_keys[i] : std::equal(mask, mask + m_words, m_keys[i]))
                return m_cursors[i];
        }
    }

private:
    int m_words;
    std::uint32_t m_stamp = 1;
    std::vector<const std::uint64_t *> m_keys;
    std::vector<std::uint32_t> m_stamps;
    std::vector<Cursor> m_cursors;
};

int firstPortAtLoad(const std::uint64_t *mask, int words, int from, std::uint32_t load, const std::uint32_t *loads)
{
    for (int w = from >> 6; w < words; ++w) {
        std::uint64_t bits = mask[w];
        if (w == from >> 6)
            bits &= ~std::uint64_t(0) << (from & 63);
        for (; bits != 0; bits &= bits - 1) {
            const int p = w * 64 + __builtin_ctzll(bits);
            if (loads[p] == load)
                return p;
        }
    }
    return -1;
}

int leastLoadedPort(const std::uint64_t *mask, int words, Cursor &cursor, const std::uint32_t *loads)
{
    if (cursor.only >= 0)
        return cursor.only;
    int port = firstPortAtLoad(mask, words, cursor.next, cursor.least, loads);
    if (port >= 0)
        return port;
    // Every port from `next` on is above the bound: start over from the true least load, the
    // first port with it being the answer (OpenSM's strict "<" in port order).
    std::uint32_t least = std::numeric_limits<std::uint32_t>::max();
    for (int w = 0; w < words; ++w) {
        for (std::uint64_t bits = mask[w]; bits != 0; bits &= bits - 1) {
            const int p = w * 64 + __builtin_ctzll(bits);
            if (loads[p] < least) {
                least = loads[p];
                port = p;
            }
        }
    }
    cursor.least = least;
    cursor.next = port;
    return port;
}

}  // namespace

Result<ForwardingTables> buildLeastLoadedLfts(const SwitchGraph &graph, const LeastHopPorts &ports, int threads,
                                              const QString &engine, const ProgressFunction &progress)
{
    std::vector<Step> steps;
    for (const Destination &to : openSmDestinationOrder(graph)) {
        Step step;
        if (to.isSwitch) {
            step.lid = graph.switches[std::size_t(to.index)].lid;
            step.base = to.index;
        } else {
            const SwitchGraph::EndPort &end = graph.endPorts[std::size_t(to.index)];
            step.lid = end.lid;
            if (end.remote == SwitchGraph::Remote::Switch) {
                step.base = end.remoteIndex;
                step.localPort = end.remotePort;
                step.counted = true;
            }
        }
        if (step.lid != 0)
            steps.push_back(step);
    }

    const std::size_t n = graph.switches.size();
    ForwardingTables tables;
    tables.reserve(n);
    std::vector<int> tableOf(n);
    for (std::size_t s = 0; s < n; ++s) {
        const SwitchGraph::Switch &sw = graph.switches[s];
        tableOf[s] = tables.addSwitch(sw.guid, sw.lid, sw.description);
    }
    static_assert(kNoPath == kNoRoute, "the engines' no-path mark is the tables'");

    const int words = ports.words();
    std::vector<CursorTable> cursors(std::size_t(workerCount(threads)), CursorTable(n, words));
    const bool finished = forEachInParallel(int(n), threads, progress, [&](int worker, int sw) {
        if (tableOf[std::size_t(sw)] < 0)
            return;
        std::uint8_t *column = tables.lft(std::size_t(tableOf[std::size_t(sw)])).entriesToFill(graph.maxLid);
        CursorTable &table = cursors[std::size_t(worker)];
        table.reset();
        // Routes through each port so far (OpenSM's port profile).
        std::array<std::uint32_t, 256> loads{};
        int lastBase = -1;
        const std::uint64_t *mask = nullptr;
        Cursor *cursor = nullptr;
        for (const Step &step : steps) {
            std::uint8_t port = kNoPath;
            if (step.base == sw) {
                port = std::uint8_t(step.localPort);
                if (step.counted)
                    ++loads[port];
            } else if (step.base >= 0) {
                // Destinations on one switch come one after another: one look-up for them all.
                if (step.base != lastBase) {
                    lastBase = step.base;
                    mask = ports.mask(sw, step.base);
                    const bool none = words == 1 ? *mask == 0 : ports.empty(sw, step.base);
                    cursor = none ? nullptr : &table.find(mask);
                }
                if (cursor) {
                    const int chosen = leastLoadedPort(mask, words, *cursor, loads.data());
                    port = std::uint8_t(chosen);
                    if (step.counted) {
                        ++loads[std::size_t(chosen)];
                        cursor->next = chosen + 1;
                    } else {
                        cursor->next = chosen;
                    }
                }
            }
            column[step.lid] = port;
        }
    });
    if (!finished)
        return cancelledError(engine);
    return tables;
}

}  // namespace weft::routing
