#include "IntentRouting.h"

#include "CommitPlanning.h"
#include "Parallel.h"
#include "SlimUpdate.h"
#include "TrafficModel.h"
#include "UpDownRepair.h"
#include "Validation.h"

#include <QCryptographicHash>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>

#include <algorithm>
#include <atomic>
#include <functional>
#include <cstring>
#include <set>
#include <thread>
#include <unordered_map>
#include <tuple>

namespace weft {

namespace {

// Above this many end ports the full pair-by-pair validation costs more than OpenSM's sweep may
// take; a fat-tree engine's tables on a whole tree are trusted there, and a degraded tree is
// checked by the walk of every switch to every LID (checkWalks).
constexpr std::size_t kFullValidationLimit = 4096;

const QString kOnTopologyChange = QStringLiteral("on_topology_change");
const QString kSlack = QStringLiteral("slack");
const QString kSearchBudget = QStringLiteral("search_budget");
const QString kDrained = QStringLiteral("drained");
const QString kApply = QStringLiteral("apply");

// The line of routing option `key` in a project file's text (the first `"key"` after
// `"options"`), 0 when it is not found or no text is given.
int optionLine(const QByteArray &source, const QString &key)
{
    if (source.isEmpty())
        return 0;
    const qsizetype options = source.indexOf("\"options\"");
    const qsizetype at = source.indexOf(QByteArray("\"") + key.toUtf8() + '"', std::max<qsizetype>(options, 0));
    return at < 0 ? 0 : int(source.left(at).count('\n')) + 1;
}

bool isFatTreeEngine(const QString &engine)
{
    return engine == QLatin1String("ftree") || engine == QLatin1String("pftree") || engine == QLatin1String("pftree-wt")
        || engine == QLatin1String("wftree");
}

// Tables read 64 LIDs at a time: the entries of LIDs from .. from + 63 of each table in
// `entriesOf` (kNoRoute past its end), one 64-byte row per switch of `block`, the next switches'
// lines fetched ahead.
constexpr std::size_t kLidBlock = 64;
void loadLidBlock(const std::vector<const std::vector<std::uint8_t> *> &entriesOf, std::size_t from, std::uint8_t *block)
{
    constexpr std::size_t kAhead = 8;
    for (std::size_t i = 0; i < entriesOf.size(); ++i) {
        if (i + kAhead < entriesOf.size() && entriesOf[i + kAhead]->size() > from)
            __builtin_prefetch(entriesOf[i + kAhead]->data() + from);
        const std::vector<std::uint8_t> &entries = *entriesOf[i];
        std::uint8_t *row = block + i * kLidBlock;
        const std::size_t have = entries.size() > from ? std::min(kLidBlock, entries.size() - from) : 0;
        if (have > 0)
            std::memcpy(row, entries.data() + from, have);
        std::fill(row + have, row + kLidBlock, kNoRoute);
    }
}

// Every host reaches every other by the tables, without a loop: one walk per destination from
// each leaf, each switch visited once (a switch whose next hop is known is not walked again).
// The tables are read 64 LIDs at a time into one block (each switch's 64 entries are one cache
// line), so the walks of a destination do not touch every switch's table in memory: at 39,366
// hosts that is the difference between seconds and a fraction of one.
//
// LIDs the engine vouches for (Routing::reachedFromEverySwitch) are not walked: every switch has
// a table (checked here), and the engine saw every switch of its tables reach them.
QString checkWalks(const Fabric &fabric, const ForwardingTables &tables, const std::vector<char> &vouched = {})
{
    const std::vector<NodeIndex> &switches = fabric.switches();
    const std::size_t switchCount = switches.size();
    std::vector<int> local(fabric.nodes().size(), -1);  // node -> its index among the switches
    std::vector<const std::vector<std::uint8_t> *> entriesOf(switchCount);
    int maxPorts = 0;
    for (std::size_t i = 0; i < switchCount; ++i) {
        const int t = tables.indexOf(fabric.node(switches[i]).guid);
        if (t < 0)
            return QStringLiteral("switch %1 has no table").arg(guidText(fabric.node(switches[i]).guid));
        entriesOf[i] = &tables.at(std::size_t(t)).lft.entries();
        local[std::size_t(switches[i])] = int(i);
        maxPorts = std::max(maxPorts, int(fabric.node(switches[i]).portCount));
    }
    // What is behind each switch port: a switch (its index among the switches), an end node n
    // (-2 - n), or nothing (-1).
    const std::size_t stride = std::size_t(maxPorts) + 1;
    std::vector<int> peer(switchCount * stride, -1);
    for (std::size_t i = 0; i < switchCount; ++i)
        for (int p = 1; p <= fabric.node(switches[i]).portCount; ++p) {
            const PortIndex remote = fabric.port(fabric.portOf(switches[i], p)).remote;
            if (remote == kNoIndex)
                continue;
            const NodeIndex node = fabric.port(remote).node;
            peer[i * stride + std::size_t(p)] = local[std::size_t(node)] >= 0 ? local[std::size_t(node)] : -2 - int(node);
        }
    // From every leaf (a switch with an end node cabled) to every cabled end port's LIDs: every
    // live pair of hosts. Switch LIDs are left out: up/down engines, OpenSM's own among them,
    // leave roots without routes to each other.
    std::vector<Lid> destinations;
    std::vector<int> leaves;
    std::vector<char> isLeaf(switchCount, 0);
    for (const NodeIndex n : fabric.endNodes())
        for (int p = 1; p <= fabric.node(n).portCount; ++p) {
            const Port &port = fabric.port(fabric.portOf(n, p));
            if (port.lid == 0 || port.remote == kNoIndex)
                continue;
            for (int k = 0; k < (1 << port.lmc); ++k) {
                const Lid lid = Lid(port.lid + k);
                if (lid >= vouched.size() || !vouched[lid])
                    destinations.push_back(lid);
            }
            const int leaf = local[std::size_t(fabric.port(port.remote).node)];
            if (leaf >= 0 && !isLeaf[std::size_t(leaf)]) {
                isLeaf[std::size_t(leaf)] = 1;
                leaves.push_back(leaf);
            }
        }
    std::sort(destinations.begin(), destinations.end());

    // The destinations by block of 64 LIDs. Within a block each leaf takes the block's
    // destinations in turn, so its 64 entries (one line) and its cables stay in the first-level
    // cache. Per switch and column: 0 not yet seen, 1 on the current walk, 2 known to reach the
    // column's destination.
    constexpr std::size_t kBlock = kLidBlock;
    struct Column
    {
        std::uint8_t column;
        int target;  // the destination's end node, coded as in `peer`
        Lid lid;
    };
    struct Block
    {
        Lid start;
        std::size_t first, end;  // its columns
    };
    std::vector<Column> columns;
    std::vector<Block> blocks;
    for (const Lid lid : destinations) {
        const PortIndex target = fabric.portByLid(lid);
        if (target == kNoIndex)
            continue;
        const Lid start = Lid(lid - lid % kBlock);
        if (blocks.empty() || blocks.back().start != start)
            blocks.push_back({start, columns.size(), columns.size()});
        columns.push_back({std::uint8_t(lid - start), -2 - int(fabric.port(target).node), lid});
        blocks.back().end = columns.size();
    }
    std::atomic<std::size_t> nextBlock{0};
    auto checkBlocks = [&]() -> QString {
        std::vector<std::uint8_t> block(switchCount * kBlock, kNoRoute);
        std::vector<std::uint8_t> state(switchCount * kBlock);
        std::vector<int> walk;
        for (std::size_t b = nextBlock++; b < blocks.size(); b = nextBlock++) {
            loadLidBlock(entriesOf, blocks[b].start, block.data());
            std::fill(state.begin(), state.end(), std::uint8_t(0));
            for (const int start : leaves) {
                const std::uint8_t *row = block.data() + std::size_t(start) * kBlock;
                const int *cables = peer.data() + std::size_t(start) * stride;
                std::uint8_t *leafState = state.data() + std::size_t(start) * kBlock;
                for (std::size_t k = blocks[b].first; k < blocks[b].end; ++k) {
                    const std::size_t column = columns[k].column;
                    const int targetCode = columns[k].target;
                    // Most walks end at the first hop: into the destination, or into a switch
                    // already known to reach it.
                    if (leafState[column] == 0) {
                        const std::uint8_t out = row[column];
                        if (out != kNoRoute && out != 0 && int(out) <= maxPorts) {
                            const int next = cables[out];
                            if (next == targetCode || (next >= 0 && state[std::size_t(next) * kBlock + column] == 2)) {
                                leafState[column] = 2;
                                continue;
                            }
                        }
                    }
                    walk.clear();
                    int at = start;
                    bool ok = false;
                    while (true) {
                        std::uint8_t &seen = state[std::size_t(at) * kBlock + column];
                        if (seen == 2) {
                            ok = true;
                            break;
                        }
                        if (seen == 1)
                            return QStringLiteral("a forwarding loop towards LID %1 through %2").arg(columns[k].lid).arg(fabric.node(switches[std::size_t(at)]).name);
                        seen = 1;
                        walk.push_back(at);
                        const std::uint8_t out = block[std::size_t(at) * kBlock + column];
                        if (out == kNoRoute || out == 0 || int(out) > maxPorts)
                            break;
                        const int next = peer[std::size_t(at) * stride + out];
                        if (next == targetCode) {
                            ok = true;
                            break;
                        }
                        if (next < 0)
                            break;
                        at = next;
                    }
                    if (!ok)
                        return QStringLiteral("LID %1 is not reached from switch %2").arg(columns[k].lid).arg(fabric.node(switches[std::size_t(start)]).name);
                    for (const int n : walk)
                        state[std::size_t(n) * kBlock + column] = 2;
                }
            }
        }
        return {};
    };
    const std::size_t threads = destinations.size() * switchCount < 1000000
        ? 1
        : std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 4);
    std::vector<QString> problems(threads);
    runOnThreads(threads, [&](std::size_t t) { problems[t] = checkBlocks(); });
    for (const QString &problem : problems)
        if (!problem.isEmpty())
            return problem;
    return {};
}

struct Judgement
{
    bool valid = false;
    std::size_t violations = 0;
    // What pftree's isolation search minimises, first: directed switch links carrying two or
    // more phy-isolated partitions, then those carrying one with any other. The repair, SlimUpdate
    // and a full re-route are weighed by these, then by the violations, so a full pftree that
    // keeps isolation where the tree allows it is never passed over for a routing that does not.
    int phyShared = 0;
    int phyConflicts = 0;
    QString why;
    std::tuple<int, int, std::size_t> isolationCost() const { return {phyShared, phyConflicts, violations}; }
    QString isolationText() const
    {
        return QStringLiteral("%1 isolation violations (%2 link(s) shared by phy-isolated partitions)").arg(violations).arg(phyShared);
    }
};

// What a repaired or SlimUpdated routing kept of phy-isolation, in the words pftree's own
// routing uses (Routing::isolation): empty without phy-isolated partitions, or where the fabric
// is too large to judge pair by pair.
QString isolationOf(const QString &method, const Tenancy &tenancy, const Judgement &j, bool judged)
{
    const bool asked = std::any_of(tenancy.partitions.begin(), tenancy.partitions.end(),
                                   [](const Partition &p) { return p.policy == IsolationPolicy::Physical; });
    if (!asked || !judged)
        return {};
    if (j.phyConflicts == 0)
        return QStringLiteral("%1: phy-isolation kept: no link carries a phy-isolated partition with another").arg(method);
    return QStringLiteral("%1: phy-isolation not kept: %2 link(s) shared between phy-isolated partitions and %3 between one "
                          "and another; a full re-route keeps no more of it")
        .arg(method)
        .arg(j.phyShared)
        .arg(j.phyConflicts);
}

// The phy-isolated partitions' shared links, by the validation's per-partition reports.
void countPhySharing(const ValidationResult &v, Judgement &j)
{
    std::set<PortIndex> shared, conflicts;
    for (const PartitionIsolationReport &p : v.partitions) {
        if (p.policy != IsolationPolicy::Physical)
            continue;
        for (const SharedLinkReport &s : p.shared) {
            conflicts.insert(s.from);
            for (int q : s.others)
                if (v.partitions[std::size_t(q)].policy == IsolationPolicy::Physical)
                    shared.insert(s.from);
        }
    }
    j.phyShared = int(shared.size());
    j.phyConflicts = int(conflicts.size());
}

// Valid (every switch reaches every LID, no loop) by the walks alone: an engine's own tables on
// the fabric it routed, whose up/down or credit-loop freedom the engine guarantees.
Judgement judgeWalks(const Fabric &fabric, const Routing &routing)
{
    Judgement j;
    j.why = checkWalks(fabric, routing.tables, routing.reachedFromEverySwitch);
    j.valid = j.why.isEmpty();
    return j;
}

// Valid and the isolation violations, pair by pair (small fabrics), for tables made by
// repairing or keeping: the credit loops checked too.
Judgement judge(const Fabric &fabric, const Tenancy &tenancy, const Routing &routing)
{
    Judgement j;
    if (fabric.endNodes().size() > kFullValidationLimit) {
        j.why = checkWalks(fabric, routing.tables, routing.reachedFromEverySwitch);
        j.valid = j.why.isEmpty();
        return j;
    }
    LaneAssignment lanes;
    lanes.serviceLevels = routing.serviceLevels;
    ValidationOptions options;
    options.maxReported = 1;
    const ValidationResult v = validateRouting(fabric, tenancy, routing.tables, lanes, options);
    j.violations = v.policyViolations;
    countPhySharing(v, j);
    if (v.unreachablePartitionPairs + v.unreachableOtherPairs > 0)
        j.why = QStringLiteral("%1 pairs of ports are not routed to each other")
                    .arg(v.unreachablePartitionPairs + v.unreachableOtherPairs);
    else if (v.loops > 0)
        j.why = QStringLiteral("%1 forwarding loops").arg(v.loops);
    else if (!v.deadlockFree)
        j.why = QStringLiteral("a credit loop: %1").arg(v.creditLoop.join(QStringLiteral(" -> ")));
    else if (!v.managementProblems.isEmpty())
        j.why = v.managementProblems.first();
    j.valid = j.why.isEmpty();
    return j;
}

using LinkKey = std::tuple<Guid, int, Guid, int>;

std::set<LinkKey> linkKeys(const Fabric &fabric)
{
    std::set<LinkKey> keys;
    for (const Link &link : fabric.links()) {
        const Port &a = fabric.port(link.a);
        const Port &b = fabric.port(link.b);
        LinkKey k{fabric.node(a.node).guid, a.number, fabric.node(b.node).guid, b.number};
        if (std::make_pair(std::get<0>(k), std::get<1>(k)) > std::make_pair(std::get<2>(k), std::get<3>(k)))
            k = LinkKey{std::get<2>(k), std::get<3>(k), std::get<0>(k), std::get<1>(k)};
        keys.insert(k);
    }
    return keys;
}

std::set<std::pair<Guid, Lid>> nodeKeys(const Fabric &fabric)
{
    std::set<std::pair<Guid, Lid>> keys;
    for (NodeIndex n = 0; n < NodeIndex(fabric.nodes().size()); ++n)
        keys.insert({fabric.node(n).guid, fabric.nodeLid(n)});
    return keys;
}

template <typename Set>
std::pair<int, int> difference(const Set &before, const Set &after)
{
    int lost = 0;
    int gained = 0;
    for (const auto &k : before)
        lost += after.count(k) == 0 ? 1 : 0;
    for (const auto &k : after)
        gained += before.count(k) == 0 ? 1 : 0;
    return {lost, gained};
}

// What the up/down repair's phases (UpDownRepair.h) ask of a destination.

// Where a LID is: the port, and the switch it is on or behind (-1: nothing reaches it).
struct Destination
{
    int attach = -1;        // the switch the LID is on or behind; -1: nothing reaches it
    bool onSwitch = false;  // the switch's own LID (port 0)
    int last = -1;          // else the switch's port to it
};

Destination destinationOf(const Fabric &fabric, const repair::UpDownGraph &g, Lid lid)
{
    Destination d;
    const PortIndex target = fabric.portByLid(lid);
    if (target == kNoIndex)
        return d;
    const NodeIndex node = fabric.port(target).node;
    if (fabric.node(node).type == NodeType::Switch) {
        d.attach = g.local[std::size_t(node)];
        d.onSwitch = true;
        return d;
    }
    const PortIndex leafPort = fabric.port(target).remote;
    if (leafPort != kNoIndex) {
        d.attach = g.local[std::size_t(fabric.port(leafPort).node)];
        d.last = fabric.port(leafPort).number;
    }
    return d;
}

// Down: switches with a pure down path to the LID's switch (upwards from it); reach: those
// with an up* then down* path (downwards from the down ones).
void downFrom(const repair::UpDownGraph &g, int attach, std::vector<char> &down, std::vector<int> &work)
{
    std::fill(down.begin(), down.end(), char(0));
    down[std::size_t(attach)] = 1;
    work.assign(1, attach);
    for (std::size_t i = 0; i < work.size(); ++i) {
        const std::size_t t = std::size_t(work[i]);
        for (int u = g.upBegin[t]; u < g.upBegin[t + 1]; ++u) {
            const int peer = g.upPeers[std::size_t(u)];
            if (!down[std::size_t(peer)]) {
                down[std::size_t(peer)] = 1;
                work.push_back(peer);
            }
        }
    }
}

// Whether switch n has an up* path to one of `down` (reach: the up*-down* paths), memoised in
// `stamp` for one `generation`: 2g known to reach, 2g + 1 known not to. Up only, so no cycle:
// a switch being looked at is marked "not" meanwhile.
bool reaches(const repair::UpDownGraph &g, const std::vector<char> &down, std::vector<std::uint32_t> &stamp,
             std::uint32_t generation, int n)
{
    const auto up = [&](auto &&self, int s) -> bool {
        if (down[std::size_t(s)] || stamp[std::size_t(s)] == 2 * generation)
            return true;
        if (stamp[std::size_t(s)] == 2 * generation + 1)
            return false;
        stamp[std::size_t(s)] = 2 * generation + 1;
        for (int u = g.upBegin[std::size_t(s)]; u < g.upBegin[std::size_t(s) + 1]; ++u)
            if (self(self, g.upPeers[std::size_t(u)])) {
                stamp[std::size_t(s)] = 2 * generation;
                return true;
            }
        return false;
    };
    return up(up, n);
}

// Whether `out` at switch t leads the LID on by an up*-down* path.
template <typename ReachOf>
bool usableWith(const repair::UpDownGraph &g, const std::vector<char> &down, ReachOf &&reachOf, std::size_t t, int out,
                const Destination &d)
{
    if (out == 0)
        return d.onSwitch && int(t) == d.attach;
    if (out > g.portCountOf[t])
        return false;
    if (int(t) == d.attach && out == d.last)
        return true;
    const int next = g.peerOf[t * g.stride + std::size_t(out)];
    if (next < 0)
        return false;
    if (down[t])
        return g.rankOf[std::size_t(next)] < g.rankOf[t] && down[std::size_t(next)];
    return g.rankOf[std::size_t(next)] > g.rankOf[t] && reachOf(next);
}

}  // namespace

namespace repair {

Result<UpDownGraph> rankSwitches(const Fabric &fabric)
{
    const std::vector<NodeIndex> &switches = fabric.switches();
    const std::size_t nodeCount = fabric.nodes().size();
    const std::size_t switchCount = switches.size();
    UpDownGraph g;
    // The switches by their index among them, and what is behind each of their ports: a switch
    // (its index), an end port (-2) or nothing (-1).
    g.local.assign(nodeCount, -1);
    g.portCountOf.resize(switchCount);
    int maxPorts = 0;
    for (std::size_t t = 0; t < switchCount; ++t) {
        g.local[std::size_t(switches[t])] = int(t);
        g.portCountOf[t] = fabric.node(switches[t]).portCount;
        maxPorts = std::max(maxPorts, g.portCountOf[t]);
    }
    const std::size_t stride = g.stride = std::size_t(maxPorts) + 1;
    g.peerOf.assign(switchCount * stride, -1);
    for (std::size_t t = 0; t < switchCount; ++t)
        for (int p = 1; p <= g.portCountOf[t]; ++p) {
            const PortIndex remote = fabric.port(fabric.portOf(switches[t], p)).remote;
            if (remote != kNoIndex) {
                const int peer = g.local[std::size_t(fabric.port(remote).node)];
                g.peerOf[t * stride + std::size_t(p)] = peer >= 0 ? peer : -2;
            }
        }

    // Ranks from the leaves up: 0 for a switch with an end node, then by distance.
    std::vector<int> rank(nodeCount, -1);
    std::vector<NodeIndex> queue;
    for (std::size_t t = 0; t < switchCount; ++t)
        for (int p = 1; p <= fabric.node(switches[t]).portCount; ++p)
            if (g.peerOf[t * stride + std::size_t(p)] == -2 && rank[std::size_t(switches[t])] < 0) {
                rank[std::size_t(switches[t])] = 0;
                queue.push_back(switches[t]);
            }
    if (queue.empty())
        return Error{{}, 0, QStringLiteral("no leaf switches")};
    for (std::size_t i = 0; i < queue.size(); ++i) {
        const std::size_t t = std::size_t(g.local[std::size_t(queue[i])]);
        for (int p = 1; p <= fabric.node(queue[i]).portCount; ++p) {
            const int peer = g.peerOf[t * stride + std::size_t(p)];
            if (peer >= 0 && rank[std::size_t(switches[std::size_t(peer)])] < 0) {
                rank[std::size_t(switches[std::size_t(peer)])] = rank[std::size_t(queue[i])] + 1;
                queue.push_back(switches[std::size_t(peer)]);
            }
        }
    }
    for (NodeIndex s : switches)
        if (rank[std::size_t(s)] < 0)
            return Error{{}, 0, QStringLiteral("switch %1 is not connected to a leaf").arg(fabric.node(s).name)};
    g.rankOf.resize(switchCount);
    for (std::size_t t = 0; t < switchCount; ++t)
        g.rankOf[t] = rank[std::size_t(switches[t])];
    // Per switch, the switches above it (higher rank), one flat list.
    g.upBegin.assign(switchCount + 1, 0);
    for (std::size_t t = 0; t < switchCount; ++t) {
        g.upBegin[t] = int(g.upPeers.size());
        for (std::size_t p = 1; p <= std::size_t(g.portCountOf[t]); ++p) {
            const int peer = g.peerOf[t * stride + p];
            if (peer >= 0 && g.rankOf[std::size_t(peer)] > g.rankOf[t])
                g.upPeers.push_back(peer);
        }
    }
    g.upBegin[switchCount] = int(g.upPeers.size());
    g.byRankDown = switches;
    std::sort(g.byRankDown.begin(), g.byRankDown.end(), [&](NodeIndex a, NodeIndex b) { return rank[std::size_t(a)] > rank[std::size_t(b)]; });
    g.byRankUp.assign(g.byRankDown.rbegin(), g.byRankDown.rend());
    return g;
}

Result<RepairTables> installedTables(const Fabric &fabric, const ForwardingTables &installed)
{
    const std::vector<NodeIndex> &switches = fabric.switches();
    const std::size_t switchCount = switches.size();
    RepairTables r;
    ForwardingTables &tables = r.tables;
    tables.reserve(switchCount);
    r.tableOf.assign(switchCount, -1);
    std::vector<const SwitchForwardingTable *> oldOf(switchCount);
    for (std::size_t t = 0; t < switchCount; ++t) {
        const NodeIndex s = switches[t];
        oldOf[t] = installed.find(fabric.node(s).guid);
        if (!oldOf[t])
            return Error{{}, 0, QStringLiteral("no installed table for switch %1").arg(fabric.node(s).name)};
        r.tableOf[t] = tables.addSwitch(oldOf[t]->guid, fabric.nodeLid(s), oldOf[t]->description);
    }
    // Switch by switch on every core: each writes only its own switches' tables.
    forEachOnThreads(switchCount, [&](std::size_t t) { tables.lft(std::size_t(r.tableOf[t])) = oldOf[t]->lft; });
    // LIDs gone from the fabric: no entry anywhere.
    for (const SwitchForwardingTable &sw : tables.switches())
        r.top = std::max(r.top, sw.lft.top());
    for (Lid lid = 1; lid <= r.top; ++lid)
        if (fabric.portByLid(lid) == kNoIndex)
            for (std::size_t t = 0; t < tables.size(); ++t)
                tables.lft(t).clear(lid);
    return r;
}

PartitionBits partitionBits(const Fabric &fabric, const Tenancy &tenancy, Lid top)
{
    PartitionBits b;
    const std::size_t words = b.words = std::max<std::size_t>(1, (tenancy.partitions.size() + 63) / 64);
    using Bits = std::vector<std::uint64_t>;
    b.phy.assign(words, 0);
    std::unordered_map<Guid, Bits> bitsOf;
    for (std::size_t k = 0; k < tenancy.partitions.size(); ++k) {
        const Partition &partition = tenancy.partitions[k];
        if (partition.pkey && (*partition.pkey & kPKeyMask) == kDefaultPKey)
            continue;
        if (std::any_of(partition.members.begin(), partition.members.end(),
                        [](const PartitionMember &m) { return m.kind != PartitionMember::Kind::PortGuid; }))
            continue;
        if (partition.policy == IsolationPolicy::Physical)
            b.phy[k / 64] |= std::uint64_t(1) << (k % 64);
        for (const PartitionMember &m : partition.members) {
            Bits &bits = bitsOf.try_emplace(m.guid, Bits(words, 0)).first->second;
            bits[k / 64] |= std::uint64_t(1) << (k % 64);
        }
    }
    b.lastLid = std::max<Lid>(top, fabric.maxLid());
    // (By LID, one flat array: read for every entry of every switch.)
    b.ofLid.assign((std::size_t(b.lastLid) + 1) * words, 0);
    for (Lid lid = 1; lid <= b.lastLid; ++lid) {
        const PortIndex p = fabric.portByLid(lid);
        const auto found = p == kNoIndex ? bitsOf.end() : bitsOf.find(fabric.port(p).guid);
        if (found != bitsOf.end())
            std::copy(found->second.begin(), found->second.end(), b.ofLid.begin() + std::ptrdiff_t(std::size_t(lid) * words));
    }
    return b;
}

PortUsage portUsage(const UpDownGraph &g, const RepairTables &r, const PartitionBits &b)
{
    // A moved entry is added to its new port; the port it left keeps counting it (most often a
    // cable that is gone), which can only make a port look more used and more shared than it
    // is, never less. (One flat array each, counted switch by switch on every core.)
    const std::size_t switchCount = g.portCountOf.size();
    const std::size_t stride = g.stride;
    const std::size_t words = b.words;
    PortUsage usage;
    std::vector<std::uint64_t> &carriedBits = usage.carriedBits;
    std::vector<int> &uses = usage.uses;
    carriedBits.assign(switchCount * stride * words, 0);
    uses.assign(switchCount * stride, 0);
    forEachOnThreads(switchCount, [&](std::size_t t) {
        const int ports = g.portCountOf[t];
        const std::vector<std::uint8_t> &entries = r.tables.at(std::size_t(r.tableOf[t])).lft.entries();
        const std::size_t end = std::min(entries.size(), std::size_t(b.lastLid) + 1);
        if (words == 1) {
            // Runs of LIDs on one port (the common case) add up in registers.
            std::size_t lid = 1;
            while (lid < end) {
                const std::uint8_t out = entries[lid];
                std::size_t last = lid;
                std::uint64_t bits = 0;
                for (; last < end && entries[last] == out; ++last)
                    bits |= b.ofLid[last];
                if (out != kNoRoute && out <= ports) {
                    uses[t * stride + out] += int(last - lid);
                    carriedBits[t * stride + out] |= bits;
                }
                lid = last;
            }
            return;
        }
        for (std::size_t lid = 1; lid < end; ++lid) {
            const std::uint8_t out = entries[lid];
            if (out == kNoRoute || out > ports)
                continue;
            ++uses[t * stride + out];
            const std::uint64_t *bits = b.of(Lid(lid));
            std::uint64_t *there = &carriedBits[(t * stride + out) * words];
            for (std::size_t w = 0; w < words; ++w)
                there[w] |= bits[w];
        }
    });
    return usage;
}

Failures findFailures(const Fabric &fabric, const UpDownGraph &g, const RepairTables &r, Lid lastLid)
{
    // The tables are read 64 LIDs at a time, the LIDs shared among the cores; reach is found
    // only where an entry goes up (memoised).
    const std::size_t switchCount = g.portCountOf.size();
    Failures result;
    std::vector<Failure> &failures = result.entries;
    std::vector<char> &everySwitchReaches = result.everySwitchReaches;
    everySwitchReaches.assign(std::size_t(lastLid) + 1, 0);
    constexpr std::size_t kBlock = kLidBlock;
    std::vector<const std::vector<std::uint8_t> *> entriesOf(switchCount);
    for (std::size_t t = 0; t < switchCount; ++t)
        entriesOf[t] = &r.tables.at(std::size_t(r.tableOf[t])).lft.entries();
    auto scan = [&](std::size_t firstBlock, std::size_t step, std::vector<Failure> &found) {
        std::vector<std::uint8_t> block(switchCount * kBlock);
        std::vector<char> down(switchCount);
        std::vector<int> work;
        std::vector<std::uint32_t> reachStamp(switchCount, 0);  // 2g: known to reach, 2g + 1: known not to
        std::uint32_t generation = 0;
        const auto reachOf = [&](int n) { return reaches(g, down, reachStamp, generation, n); };
        int lastAttach = -1;
        for (std::size_t b = firstBlock; b * kBlock <= std::size_t(lastLid); b += step) {
            const std::size_t first = b * kBlock;
            loadLidBlock(entriesOf, first, block.data());
            for (std::size_t k = 0; k < kBlock && first + k <= std::size_t(lastLid); ++k) {
                const Lid lid = Lid(first + k);
                if (lid == 0)
                    continue;
                const Destination d = destinationOf(fabric, g, lid);
                if (d.attach < 0)
                    continue;
                if (d.attach != lastAttach) {
                    downFrom(g, d.attach, down, work);
                    ++generation;
                    lastAttach = d.attach;
                }
                bool all = true;
                for (std::size_t t = 0; t < switchCount; ++t) {
                    const std::uint8_t entry = block[t * kBlock + k];
                    // A usable entry leads up to a switch that reaches, or down: the switch
                    // reaches. Only the others ask whether it does.
                    if (entry != kNoRoute && usableWith(g, down, reachOf, t, entry, d))
                        continue;
                    const bool reached = reachOf(int(t));
                    all = all && reached;
                    if (reached || entry != kNoRoute)
                        found.push_back({lid, int(t)});
                }
                everySwitchReaches[lid] = all ? 1 : 0;  // each LID is one thread's
            }
        }
    };
    const std::size_t blocks = std::size_t(lastLid) / kBlock + 1;
    const std::size_t threads = blocks * switchCount < 100000 ? 1 : std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 4);
    std::vector<std::vector<Failure>> found(threads);
    runOnThreads(threads, [&](std::size_t i) { scan(i, threads, found[i]); });
    for (const std::vector<Failure> &part : found)
        failures.insert(failures.end(), part.begin(), part.end());
    std::stable_sort(failures.begin(), failures.end(), [](const Failure &a, const Failure &b) { return a.lid < b.lid; });
    return result;
}

Status moveFailedEntries(const Fabric &fabric, const UpDownGraph &g, RepairTables &r, const PartitionBits &partitions,
                         PortUsage &usage, const Failures &found)
{
    // Each LID with failures: its cut-off switches lose the entry; the others, in the order that
    // puts every switch after its next hop (those with a down path from the destination's
    // upwards, then the others from the top down), take the port whose way to the destination
    // breaks the fewest phy-isolations, then one this LID's partitions already use, then the
    // least used. A switch's conflicts (the phy-isolations broken on its way on) are found when
    // a later one asks, from its final entry.
    const std::vector<NodeIndex> &switches = fabric.switches();
    const std::size_t switchCount = switches.size();
    const std::size_t stride = g.stride;
    const std::size_t words = partitions.words;
    const std::vector<Failure> &failures = found.entries;
    ForwardingTables &tables = r.tables;
    const std::vector<int> &tableOf = r.tableOf;
    std::vector<int> &uses = usage.uses;
    auto carried = [&](std::size_t t, int out) { return &usage.carriedBits[(t * stride + std::size_t(out)) * words]; };
    std::vector<std::size_t> positionUp(switchCount), positionDown(switchCount);
    for (std::size_t i = 0; i < switchCount; ++i) {
        positionUp[std::size_t(g.local[std::size_t(g.byRankUp[i])])] = i;
        positionDown[std::size_t(g.local[std::size_t(g.byRankDown[i])])] = i;
    }
    std::vector<char> down(switchCount);
    std::vector<int> work;
    std::vector<std::uint32_t> reachStamp(switchCount, 0), conflictStamp(switchCount, 0);
    std::vector<int> conflicts(switchCount, 0);
    std::uint32_t generation = 0;
    std::vector<int> moving;
    for (std::size_t f0 = 0; f0 < failures.size();) {
        const Lid lid = failures[f0].lid;
        std::size_t f1 = f0;
        while (f1 < failures.size() && failures[f1].lid == lid)
            ++f1;
        const Destination d = destinationOf(fabric, g, lid);
        downFrom(g, d.attach, down, work);
        ++generation;
        const auto reachOf = [&](int n) { return reaches(g, down, reachStamp, generation, n); };
        auto usable = [&](std::size_t t, int out) { return usableWith(g, down, reachOf, t, out, d); };
        // A port leads this LID's traffic onto a cable that breaks a phy-isolation when it
        // carries destinations of a partition the LID shares none with, and either side is
        // phy-isolated.
        const std::uint64_t *mine = partitions.of(lid);
        bool minePhy = false, mineAny = false;
        for (std::size_t w = 0; w < words; ++w) {
            minePhy |= (mine[w] & partitions.phy[w]) != 0;
            mineAny |= mine[w] != 0;
        }
        auto breaks = [&](std::size_t t, int out) {
            if (!mineAny || out == 0)
                return 0;
            const std::uint64_t *there = carried(t, out);
            for (std::size_t w = 0; w < words; ++w) {
                const std::uint64_t foreign = there[w] & ~mine[w];
                if ((foreign & partitions.phy[w]) != 0 || (minePhy && foreign != 0))
                    return 1;
            }
            return 0;
        };
        auto nextOf = [&](std::size_t t, int out) {
            if (out == 0 || (int(t) == d.attach && out == d.last))
                return -1;
            return g.peerOf[t * stride + std::size_t(out)];
        };
        // (Along final entries only, each earlier in the order than the switch that asks.)
        const auto conflictsUp = [&](auto &&self, int n) -> int {
            if (conflictStamp[std::size_t(n)] == generation)
                return conflicts[std::size_t(n)];
            const int out = tables.lft(std::size_t(tableOf[std::size_t(n)])).port(lid);
            const int next = nextOf(std::size_t(n), out);
            conflicts[std::size_t(n)] = breaks(std::size_t(n), out) + (next < 0 ? 0 : self(self, next));
            conflictStamp[std::size_t(n)] = generation;
            return conflicts[std::size_t(n)];
        };
        moving.clear();
        for (std::size_t f = f0; f < f1; ++f) {
            const int t = failures[f].sw;
            if (reachOf(t))
                moving.push_back(t);
            else
                tables.lft(std::size_t(tableOf[std::size_t(t)])).clear(lid);
        }
        auto place = [&](int t) { return down[std::size_t(t)] ? positionUp[std::size_t(t)] : switchCount + positionDown[std::size_t(t)]; };
        std::sort(moving.begin(), moving.end(), [&](int a, int b) { return place(a) < place(b); });
        for (const int sw : moving) {
            const std::size_t t = std::size_t(sw);
            LinearForwardingTable &lft = tables.lft(std::size_t(tableOf[t]));
            auto conflictVia = [&](int out) {
                const int next = nextOf(t, out);
                return breaks(t, out) + (next < 0 ? 0 : conflictsUp(conflictsUp, next));
            };
            const auto cost = [&](int out) {
                bool ours = false;
                const std::uint64_t *there = carried(t, out);
                for (std::size_t w = 0; w < words && !ours; ++w)
                    ours = (there[w] & mine[w]) != 0;
                return std::make_tuple(conflictVia(out), !ours, uses[t * stride + std::size_t(out)]);
            };
            int best = -1;
            for (int out = 1; out <= g.portCountOf[t]; ++out) {
                if (!usable(t, out))
                    continue;
                if (best < 0 || cost(out) < cost(best))
                    best = out;
            }
            if (best < 0)
                return Error{{}, 0, QStringLiteral("switch %1 has no port towards LID %2").arg(fabric.node(switches[t]).name).arg(lid)};
            lft.setPort(lid, std::uint8_t(best));
            ++uses[t * stride + std::size_t(best)];
            std::uint64_t *there = carried(t, best);
            for (std::size_t w = 0; w < words; ++w)
                there[w] |= mine[w];
            conflicts[t] = conflictVia(best);
            conflictStamp[t] = generation;
        }
        f0 = f1;
    }
    return Done{};
}

Result<Repair> repairUpDown(const Fabric &fabric, const ForwardingTables &installed, const Tenancy &tenancy)
{
    const Result<UpDownGraph> graph = rankSwitches(fabric);
    if (!graph)
        return graph.error();
    Result<RepairTables> tables = installedTables(fabric, installed);
    if (!tables)
        return tables.error();
    const PartitionBits bits = partitionBits(fabric, tenancy, tables->top);
    PortUsage usage = portUsage(*graph, *tables, bits);
    Failures failures = findFailures(fabric, *graph, *tables, bits.lastLid);
    const Status moved = moveFailedEntries(fabric, *graph, *tables, bits, usage, failures);
    if (!moved)
        return moved.error();
    return Repair{std::move(tables->tables), std::move(failures.everySwitchReaches)};
}

}  // namespace repair

// The apply option's object read (intentOptions), or the problem with it.
static Result<std::optional<CandidateSpec>> applyOption(const QJsonValue &value, QString *from)
{
    const QString shape = QStringLiteral("routing option %1 must be {\"method\": \"engine\"|\"slimupdate\"|\"metabase\", "
                                         "\"tolerance\": N, \"policy\": \"port-order\"|\"weighted\"|\"sticky\", \"from\": STAMP}")
                              .arg(kApply);
    if (!value.isObject())
        return Error{{}, 0, shape};
    const QJsonObject o = value.toObject();
    for (auto it = o.begin(); it != o.end(); ++it)
        if (it.key() != QLatin1String("method") && it.key() != QLatin1String("tolerance") && it.key() != QLatin1String("policy")
            && it.key() != QLatin1String("from"))
            return Error{{}, 0, QStringLiteral("routing option %1: unknown key \"%2\"; %3").arg(kApply, it.key(), shape)};
    const QJsonValue method = o.value(QStringLiteral("method"));
    if (!method.isString())
        return Error{{}, 0, QStringLiteral("routing option %1 needs a \"method\": \"engine\", \"slimupdate\" or \"metabase\"").arg(kApply)};
    CandidateSpec spec;
    if (method.toString() == QLatin1String("engine")) {
        if (o.size() > 1)
            return Error{{}, 0, QStringLiteral("routing option %1: the method \"engine\" takes no tolerance, policy or stamp").arg(kApply)};
        return std::optional<CandidateSpec>();
    }
    if (method.toString() == QLatin1String("slimupdate"))
        spec.kind = CandidateKind::SlimUpdate;
    else if (method.toString() == QLatin1String("metabase"))
        spec.kind = CandidateKind::Metabase;
    else
        return Error{{}, 0, QStringLiteral("routing option %1: method \"%2\" is not engine, slimupdate or metabase").arg(kApply, method.toString())};
    const QJsonValue tolerance = o.value(QStringLiteral("tolerance"));
    if (!tolerance.isUndefined()) {
        if (!tolerance.isDouble() || !(tolerance.toDouble() >= 0) || tolerance.toDouble() > 1e6)
            return Error{{}, 0, QStringLiteral("routing option %1: tolerance must be a number from 0 to 1000000 (weight units)").arg(kApply)};
        spec.tau = tolerance.toDouble();
    }
    const QJsonValue policy = o.value(QStringLiteral("policy"));
    if (!policy.isUndefined()) {
        if (spec.kind != CandidateKind::Metabase)
            return Error{{}, 0, QStringLiteral("routing option %1: a policy is metabase's; slimupdate takes a tolerance alone").arg(kApply)};
        const std::optional<SlotPolicy> p = slotPolicyFromName(policy.toString());
        if (!policy.isString() || !p)
            return Error{{}, 0, QStringLiteral("routing option %1: policy \"%2\" is not port-order, weighted or sticky").arg(kApply, policy.toString())};
        if (*p == SlotPolicy::MpiOrder || *p == SlotPolicy::Priority)
            return Error{{}, 0, QStringLiteral("routing option %1: policy %2 takes hosts chosen on the map, which an intent does not "
                                               "carry; use port-order, weighted or sticky")
                                    .arg(kApply, policy.toString())};
        spec.policy = *p;
    }
    const QJsonValue stamp = o.value(QStringLiteral("from"));
    if (!stamp.isUndefined()) {
        // heldTablesStamp's form: 32 lower-case hexadecimal digits.
        const QString text = stamp.toString();
        const bool hex = std::all_of(text.begin(), text.end(), [](QChar c) {
            return (c >= QLatin1Char('0') && c <= QLatin1Char('9')) || (c >= QLatin1Char('a') && c <= QLatin1Char('f'));
        });
        if (!stamp.isString() || text.size() != 32 || !hex)
            return Error{{}, 0, QStringLiteral("routing option %1: \"from\" must be the stamp of the tables the candidate was planned "
                                               "from, 32 lower-case hexadecimal digits")
                                    .arg(kApply)};
        *from = text;
    }
    return std::optional<CandidateSpec>(spec);
}

static Result<IntentOptions> readIntentOptions(const Project &project, const QString &fileName)
{
    IntentOptions options;
    const QJsonValue apply = project.routingOptions.value(kApply);
    if (!apply.isUndefined()) {
        Result<std::optional<CandidateSpec>> spec = applyOption(apply, &options.applyFrom);
        if (!spec)
            return Error{fileName, 0, spec.error().message};
        options.apply = *spec;
    }
    const QJsonValue mode = project.routingOptions.value(kOnTopologyChange);
    if (!mode.isUndefined()) {
        if (mode.toString() == QLatin1String("slimupdate"))
            options.onTopologyChange = TopologyChangeMode::SlimUpdate;
        else if (mode.toString() == QLatin1String("full"))
            options.onTopologyChange = TopologyChangeMode::FullReroute;
        else
            return Error{fileName, 0,
                         QStringLiteral("routing option %1 must be \"slimupdate\" or \"full\"").arg(kOnTopologyChange)};
    }
    const QJsonValue slack = project.routingOptions.value(kSlack);
    if (!slack.isUndefined()) {
        if (!slack.isDouble() || !(slack.toDouble() >= 0) || slack.toDouble() > 1e6)
            return Error{fileName, 0, QStringLiteral("routing option %1 must be a number from 0").arg(kSlack)};
        options.slack = slack.toDouble();
    }
    const QJsonValue budget = project.routingOptions.value(kSearchBudget);
    if (!budget.isUndefined()) {
        if (!budget.isDouble() || !(budget.toDouble() >= 0) || budget.toDouble() > 3600)
            return Error{fileName, 0, QStringLiteral("routing option %1 must be a number of seconds from 0 to 3600").arg(kSearchBudget)};
        options.searchBudgetSeconds = budget.toDouble();
    }
    const QJsonValue drained = project.routingOptions.value(kDrained);
    if (!drained.isUndefined()) {
        const QString shape = QStringLiteral("routing option %1 must be {\"links\": [{\"guid\": GUID, \"port\": N}], \"switches\": [GUID]}").arg(kDrained);
        if (!drained.isObject())
            return Error{fileName, 0, shape};
        auto guidOf = [](const QJsonValue &v, Guid *guid) {
            QString text = v.toString().trimmed();
            if (text.startsWith(QLatin1String("0x"), Qt::CaseInsensitive))
                text = text.mid(2);
            bool ok = false;
            *guid = text.toULongLong(&ok, 16);
            return ok && !text.isEmpty() && *guid != 0;
        };
        const QJsonObject o = drained.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            if (it.key() != QLatin1String("links") && it.key() != QLatin1String("switches"))
                return Error{fileName, 0, QStringLiteral("routing option %1: unknown key \"%2\"; %3").arg(kDrained, it.key(), shape)};
        const QJsonValue links = o.value(QStringLiteral("links"));
        const QJsonValue switches = o.value(QStringLiteral("switches"));
        if ((!links.isUndefined() && !links.isArray()) || (!switches.isUndefined() && !switches.isArray()))
            return Error{fileName, 0, shape};
        int k = 0;
        for (const QJsonValue &v : links.toArray()) {
            const QJsonObject link = v.toObject();
            Guid guid = 0;
            const int port = link.value(QStringLiteral("port")).toInt(-1);
            if (!v.isObject() || !guidOf(link.value(QStringLiteral("guid")), &guid) || port < 1 || port > 254)
                return Error{fileName, 0, QStringLiteral("routing option %1: links[%2] needs a node \"guid\" and a \"port\" from 1 to 254").arg(kDrained).arg(k)};
            options.drained.failedLinkPorts.emplace_back(guid, port);
            ++k;
        }
        k = 0;
        for (const QJsonValue &v : switches.toArray()) {
            Guid guid = 0;
            if (!guidOf(v, &guid))
                return Error{fileName, 0, QStringLiteral("routing option %1: switches[%2] is not a node GUID").arg(kDrained).arg(k)};
            options.drained.failedSwitches.push_back(guid);
            ++k;
        }
    }
    return options;
}

Result<IntentOptions> intentOptions(const Project &project, const QString &fileName, const QByteArray &source)
{
    Result<IntentOptions> read = readIntentOptions(project, fileName);
    if (!read && source.size() > 0) {
        // The first option whose text the message names gives the line.
        for (const QString &key : {kApply, kDrained, kSearchBudget, kSlack, kOnTopologyChange})
            if (read.error().message.contains(key))
                return Error{fileName, optionLine(source, key), read.error().message};
    }
    return read;
}

Project withDrained(const Project &project, const WhatIf &drained, const Fabric *fabric)
{
    Project result = project;
    // A drain is routed by the intent's engine (routeDrainChange): a studio candidate's apply
    // method in force is not applied again to it.
    result.routingOptions.remove(kApply);
    if (drained.failedLinkPorts.empty() && drained.failedSwitches.empty()) {
        result.routingOptions.remove(kDrained);
        return result;
    }
    QJsonArray links, switches;
    for (const auto &[guid, port] : drained.failedLinkPorts) {
        QJsonObject link{{QStringLiteral("guid"), guidText(guid)}, {QStringLiteral("port"), port}};
        if (fabric) {
            const NodeIndex n = fabric->nodeByGuid(guid);
            const PortIndex p = n == kNoIndex ? kNoIndex : fabric->portOf(n, port);
            if (p != kNoIndex) {
                QString name = portDisplayName(*fabric, p);
                if (fabric->port(p).remote != kNoIndex)
                    name += QStringLiteral(" – ") + portDisplayName(*fabric, fabric->port(p).remote);
                link[QStringLiteral("name")] = name;
            }
        }
        links.append(link);
    }
    for (const Guid guid : drained.failedSwitches)
        switches.append(guidText(guid));
    result.routingOptions[kDrained] = QJsonObject{{QStringLiteral("links"), links}, {QStringLiteral("switches"), switches}};
    return result;
}

Project withApply(const Project &project, const std::optional<CandidateSpec> &apply, const QString &from)
{
    Project result = project;
    if (!apply || apply->kind == CandidateKind::Full) {
        result.routingOptions.remove(kApply);
        return result;
    }
    QJsonObject o{{QStringLiteral("method"), apply->kind == CandidateKind::SlimUpdate ? QStringLiteral("slimupdate") : QStringLiteral("metabase")},
                  {QStringLiteral("tolerance"), apply->tau}};
    if (apply->kind == CandidateKind::Metabase)
        o[QStringLiteral("policy")] = slotPolicyName(apply->policy);
    if (!from.isEmpty())
        o[QStringLiteral("from")] = from;
    result.routingOptions[kApply] = o;
    return result;
}

bool sameCable(const Fabric &fabric, const std::pair<Guid, int> &a, const std::pair<Guid, int> &b)
{
    if (a == b)
        return true;
    const NodeIndex n = fabric.nodeByGuid(a.first);
    const PortIndex p = n == kNoIndex ? kNoIndex : fabric.portOf(n, a.second);
    if (p == kNoIndex || fabric.port(p).remote == kNoIndex)
        return false;
    const Port &remote = fabric.port(fabric.port(p).remote);
    return fabric.node(remote.node).guid == b.first && remote.number == b.second;
}

TopologyDelta topologyDelta(const Fabric &before, const Fabric &after)
{
    TopologyDelta d;
    std::tie(d.linksLost, d.linksGained) = difference(linkKeys(before), linkKeys(after));
    std::tie(d.nodesLost, d.nodesGained) = difference(nodeKeys(before), nodeKeys(after));
    return d;
}

static Result<IntentRouting> routeIntentAsIs(const Fabric &fabric, const Project &intent, const RoutingOptions &options)
{
    const QString engine = intent.routingEngine.isEmpty() ? QStringLiteral("ftree") : intent.routingEngine;
    if (!makeRoutingEngine(engine))
        return Error{{}, 0, QStringLiteral("unknown routing engine \"%1\" (%2)").arg(engine, routingEngineNames().join(QStringLiteral(", ")))};
    QStringList order{engine};
    if (isFatTreeEngine(engine) && engine != QLatin1String("pftree"))
        order << QStringLiteral("pftree");
    if (engine != QLatin1String("updn"))
        order << QStringLiteral("updn");

    // The search budget: the caller's, else the intent's, else the default that fits a sweep.
    RoutingOptions settings = options;
    if (settings.searchBudgetSeconds < 0) {
        const Result<IntentOptions> fromIntent = intentOptions(intent);
        settings.searchBudgetSeconds = fromIntent && fromIntent->searchBudgetSeconds >= 0 ? fromIntent->searchBudgetSeconds
                                                                                          : kDefaultSearchBudgetSeconds;
    }
    IntentRouting result;
    for (const QString &name : order) {
        Result<Routing> routed = routeFabric(name, fabric, intent.tenancy, settings);
        if (!routed) {
            result.notes << QStringLiteral("%1: %2").arg(name, routed.error().message);
            if (routed.error().message.contains(QLatin1String("cancelled")))
                return routed.error();
            continue;
        }
        const Judgement j = judgeWalks(fabric, *routed);
        if (!j.valid) {
            result.notes << QStringLiteral("%1: %2").arg(name, j.why);
            continue;
        }
        result.routing = std::move(*routed);
        result.method = name;
        return result;
    }
    return Error{{}, 0, QStringLiteral("no engine routes this fabric: %1").arg(result.notes.join(QStringLiteral("; ")))};
}

namespace {

// The project bound to the fabric (its GUIDs the fabric lacks left out, named in `missing`) and
// routed by its own engine: what both kinds of plan below install.
Result<std::pair<BoundProject, IntentRouting>> routeBoundProject(const Fabric &fabric, const Project &project, QStringList *missing)
{
    BoundProject bound = bindProject(project, fabric);
    if (missing)
        *missing = bound.missing;
    Result<IntentRouting> routed = routeIntent(fabric, bound.project);
    if (!routed)
        return routed.error();
    return std::make_pair(std::move(bound), std::move(*routed));
}

ProposedRouting proposedBy(IntentRouting &routed, bool withServiceLevels)
{
    ProposedRouting routing;
    routing.tables = std::make_shared<const ForwardingTables>(std::move(routed.routing.tables));
    if (withServiceLevels)
        routing.serviceLevels = routed.routing.serviceLevels;
    return routing;
}

}  // namespace

Result<CommitPlan> planIntentCommit(const Fabric &fabric, const Project &intent, const QByteArray &intentFile,
                                    const QString &intentName, const HeldTables &held, QStringList *missing)
{
    // Its tables come from the held ones by the method: only the plan that computed them (a studio
    // candidate's, FabricSession) knows them.
    if (const Result<IntentOptions> settings = intentOptions(intent); settings && settings->apply)
        return Error{intentName, 0, QStringLiteral("routing option %1 (%2) is applied to the tables the switches hold: plan it "
                                                   "from a candidate of the desk's reconfiguration studio")
                                        .arg(kApply, settings->apply->name())};
    Result<std::pair<BoundProject, IntentRouting>> routed = routeBoundProject(fabric, intent, missing);
    if (!routed)
        return routed.error();
    return planFromIntent(fabric, proposedBy(routed->second, false), intent.tenancy, intentFile, routed->second.method,
                          intentName, held);
}

Result<CommitPlan> planProjectCommit(const Fabric &fabric, const Project &project, const QString &projectName,
                                     const HeldTables &held, QStringList *missing)
{
    Result<std::pair<BoundProject, IntentRouting>> routed = routeBoundProject(fabric, project, missing);
    if (!routed)
        return routed.error();
    return planFromProject(fabric, proposedBy(routed->second, true), routed->first.project.tenancy, routed->second.method,
                           projectName, held);
}

Result<ForwardingTables> routeIntentFile(const Fabric &fabric, const QByteArray &intent, const QString &fileName,
                                         const ForwardingTables *recorded)
{
    Result<Project> project = readProject(intent, fileName);
    if (!project)
        return project.error();
    // An intent that applies a method to the held tables: what it installs is the plan's, which
    // the commit kept; routing it by its engine would give other tables.
    const Result<IntentOptions> settings = intentOptions(*project, fileName, intent);
    if (!settings)
        return settings.error();
    if (settings->apply) {
        if (recorded)
            return *recorded;
        return Error{fileName, 0, QStringLiteral("routing option %1 (%2) is applied to the tables the switches held when it was "
                                                 "planned, and no tables of its plan are kept beside the journal: what it installs "
                                                 "cannot be known from the file alone")
                                      .arg(kApply, settings->apply->name())};
    }
    Result<IntentRouting> routed = routeIntent(fabric, bindProject(*project, fabric).project);
    if (!routed)
        return routed.error();
    return std::move(routed->routing.tables);
}

// The intent's apply method (a SlimUpdate or metabase candidate) from `held`, the tables the
// switches hold (for `heldFabric`), onto `fabric`: routeCandidate, the studio's own function, so
// that the same held tables and fabric give the tables the studio planned. Refused when they are
// not valid on `fabric` (a switch that does not reach a LID, a loop).
static Result<IntentRouting> applyToHeld(const Fabric &heldFabric, const InstalledRouting &held, const Fabric &fabric,
                                         const Tenancy &tenancy, const CandidateSpec &method)
{
    // Non-owning views of the caller's values: routeCandidate reads them while this runs.
    CandidateInput input;
    input.installedFabric = std::shared_ptr<const Fabric>(std::shared_ptr<const Fabric>(), &heldFabric);
    input.installed = std::shared_ptr<const ForwardingTables>(std::shared_ptr<const ForwardingTables>(), &held.tables);
    input.fabric = std::shared_ptr<const Fabric>(std::shared_ptr<const Fabric>(), &fabric);
    input.tenancy = tenancy;
    Metabase metabase;
    Result<CandidateRouting> routed = routeCandidate(input, method, metabase);
    if (!routed)
        return Error{{}, 0, QStringLiteral("%1: %2").arg(method.name(), routed.error().message)};
    IntentRouting applied;
    applied.routing = std::move(routed->routing);
    if (applied.routing.serviceLevels.empty())
        applied.routing.serviceLevels = held.serviceLevels;  // the partitions keep their lanes
    applied.routing.engine = method.name();
    applied.method = method.name();
    const Judgement j = judgeWalks(fabric, applied.routing);
    if (!j.valid)
        return Error{{}, 0, QStringLiteral("%1: %2").arg(method.name(), j.why)};
    return applied;
}

static Result<IntentRouting> routeAfterChangeAsIs(const Fabric &fabric, const Fabric &whole, const Project &intent,
                                                  const QString &intentDigest, const InstalledRouting *installed,
                                                  const RoutingOptions &options)
{
    const Result<IntentOptions> settings = intentOptions(intent);
    if (!settings)
        return settings.error();
    QStringList notes;
    // The intent before the one in force is back (a failed commit's rollback put its file back)
    // on the fabric it was installed on: an intent with an apply method gets its tables back as
    // they were; its method applied to the failed commit's tables would give others.
    if (settings->apply && installed && installed->intentDigest != intentDigest && installed->previousIntent
        && installed->previousIntent->intentDigest == intentDigest && installed->previousIntent->fabric
        && !installed->previousIntent->tables.isEmpty() && topologyDelta(*installed->previousIntent->fabric, fabric).same()) {
        const InstalledRouting &previous = *installed->previousIntent;
        IntentRouting restored;
        restored.routing.engine = QStringLiteral("restored");
        restored.routing.tables = previous.tables;
        restored.routing.serviceLevels = previous.serviceLevels;
        restored.method = QStringLiteral("restored");
        restored.appliedFrom = previous.appliedFrom;
        return restored;
    }
    // An intent that says how its change is applied: applied once, when it is new, to the tables
    // the switches hold, and again from them when the fabric gains a cable or switch (a full
    // re-route would undo the change). The held tables are then the previous run's: the fabric
    // they were made for is that run's; a new intent's come from whatever was in force before,
    // on the whole fabric as OpenSM sees it (what the studio plans from).
    if (settings->apply && installed && installed->fabric && !installed->tables.isEmpty()) {
        const bool newIntent = installed->intentDigest != intentDigest;
        const TopologyDelta delta = newIntent ? TopologyDelta{} : topologyDelta(*installed->fabric, fabric);
        // The stamp of the tables held, on the whole fabric as the session stamps what it read:
        // needed only when they may have to be applied from.
        const QString &from = settings->applyFrom;
        const bool stampNeeded = !from.isEmpty() && (newIntent || installed->appliedFrom != from);
        const QString heldStamp = stampNeeded ? heldTablesStamp(whole, installed->tables) : QString();
        // The same intent written again (the same candidate approved again: its file the same to
        // the byte) while the tables held are the ones it was planned from, and were not made by
        // its method from them (OpenSM started afresh and routed by the engine, a rollback): the
        // method is applied, so that the switches get what was planned rather than keeping these.
        const bool approvedAgain = !newIntent && stampNeeded && heldStamp == from;
        if (newIntent || approvedAgain || delta.linksGained > 0 || delta.nodesGained > 0) {
            const bool fromHeldNow = newIntent || approvedAgain;
            Result<IntentRouting> applied = applyToHeld(fromHeldNow ? whole : *installed->fabric, *installed, fabric, intent.tenancy, *settings->apply);
            if (applied) {
                applied->appliedFrom = fromHeldNow ? from : installed->appliedFrom;
                if (newIntent && stampNeeded && heldStamp != from)
                    applied->notes << QStringLiteral("the candidate's tables: %1 was planned from tables stamped %2, and OpenSM holds "
                                                     "tables stamped %3; applied to those, what it gives is not what was planned")
                                          .arg(settings->apply->name(), from, heldStamp);
                return applied;
            }
            notes << applied.error().message;
        }
    } else if (settings->apply) {
        notes << QStringLiteral("%1: no tables held to apply it to; routed by the engine").arg(settings->apply->name());
    }
    if (installed && installed->fabric && installed->intentDigest == intentDigest) {
        const TopologyDelta delta = topologyDelta(*installed->fabric, fabric);
        if (delta.same()) {
            IntentRouting kept;
            kept.routing.engine = QStringLiteral("kept");
            kept.routing.tables = installed->tables;
            kept.routing.serviceLevels = installed->serviceLevels;
            kept.method = QStringLiteral("kept");
            kept.appliedFrom = installed->appliedFrom;
            return kept;
        }
        const bool onlyLost = delta.linksGained == 0 && delta.nodesGained == 0;
        if (onlyLost && settings->onTopologyChange == TopologyChangeMode::SlimUpdate) {
            // First the smallest repair: only entries that lead where the destination can no
            // longer be reached move. Kept when valid and as isolating as a full re-route.
            Result<repair::Repair> repaired = repair::repairUpDown(fabric, installed->tables, intent.tenancy);
            if (!repaired) {
                notes << QStringLiteral("repair: %1").arg(repaired.error().message);
            } else {
                IntentRouting patched;
                patched.routing.engine = QStringLiteral("repair");
                patched.routing.tables = std::move(repaired->tables);
                patched.routing.reachedFromEverySwitch = std::move(repaired->reachedFromEverySwitch);
                patched.routing.serviceLevels = installed->serviceLevels;
                patched.method = QStringLiteral("repair");
                const Judgement j = judge(fabric, intent.tenancy, patched.routing);
                Judgement kept = j;
                bool keep = j.valid;
                if (!j.valid)
                    notes << QStringLiteral("repair: %1").arg(j.why);
                if (keep && j.violations > 0) {
                    Result<IntentRouting> full = routeIntentAsIs(fabric, intent, options);
                    const Judgement f = full ? judge(fabric, intent.tenancy, full->routing) : Judgement{};
                    if (full && f.isolationCost() < j.isolationCost()) {
                        // Partitions on lanes may need other lanes on the repaired routes: the
                        // full routing's lanes with the repaired routes, if that is enough.
                        patched.routing.serviceLevels = full->routing.serviceLevels;
                        const Judgement relaned = judge(fabric, intent.tenancy, patched.routing);
                        if (!relaned.valid || f.isolationCost() < relaned.isolationCost()) {
                            keep = false;
                            notes << QStringLiteral("repair: %1 where %2 keeps %3").arg(relaned.valid ? relaned.isolationText() : j.isolationText(), full->method, f.isolationText());
                        }
                        kept = relaned;
                    }
                }
                if (keep) {
                    patched.notes = notes;
                    patched.appliedFrom = installed->appliedFrom;
                    patched.routing.isolation = isolationOf(patched.method, intent.tenancy, kept,
                                                            fabric.endNodes().size() <= kFullValidationLimit);
                    return patched;
                }
            }
            SlimUpdateOptions slim;
            slim.slack = settings->slack;
            slim.baselineEngine.clear();
            Result<Reconfiguration> r = slimUpdate(*installed->fabric, installed->tables, fabric, intent.tenancy, slim);
            if (r && r->proposal.serviceLevels.empty())
                r->proposal.serviceLevels = installed->serviceLevels;  // the partitions keep their lanes
            if (!r) {
                notes << QStringLiteral("slimupdate: %1").arg(r.error().message);
            } else {
                const Judgement j = judge(fabric, intent.tenancy, r->proposal);
                bool keep = j.valid;
                if (!j.valid)
                    notes << QStringLiteral("slimupdate: %1").arg(j.why);
                // Isolation is the operator's decision: SlimUpdate keeps it or gives way to a full
                // re-route that keeps more of it.
                if (keep && j.violations > 0) {
                    Result<IntentRouting> full = routeIntentAsIs(fabric, intent, options);
                    if (full) {
                        const Judgement f = judge(fabric, intent.tenancy, full->routing);
                        if (f.isolationCost() < j.isolationCost()) {
                            full->notes.prepend(QStringLiteral("slimupdate: %1 where %2 keeps %3")
                                                    .arg(j.isolationText(), full->method, f.isolationText()));
                            full->notes = notes + full->notes;
                            return full;
                        }
                    }
                }
                if (keep) {
                    IntentRouting slimmed;
                    slimmed.routing = std::move(r->proposal);
                    slimmed.routing.engine = QStringLiteral("slimupdate");
                    slimmed.method = QStringLiteral("slimupdate");
                    slimmed.notes = notes;  // why the repair was passed over
                    slimmed.appliedFrom = installed->appliedFrom;
                    slimmed.routing.isolation = isolationOf(slimmed.method, intent.tenancy, j,
                                                            fabric.endNodes().size() <= kFullValidationLimit);
                    return slimmed;
                }
            }
        }
    }
    Result<IntentRouting> full = routeIntentAsIs(fabric, intent, options);
    if (full)
        full->notes = notes + full->notes;
    return full;
}

namespace {

// The intent's drained elements applied to `fabric`: the fabric without those it has (cables cut,
// switches left out), or null when it has none of them. `why` says what was ignored and why.
struct DrainedFabric
{
    std::shared_ptr<const Fabric> fabric;  // null: nothing to drain here
    QString description;                   // "link A[1] – B[2] fails; switch \"S\" fails"
};

Result<DrainedFabric> drainFabric(const Fabric &fabric, const Project &intent)
{
    const Result<IntentOptions> settings = intentOptions(intent);
    if (!settings)
        return settings.error();
    WhatIf present;
    for (const auto &[guid, port] : settings->drained.failedLinkPorts) {
        const NodeIndex n = fabric.nodeByGuid(guid);
        const PortIndex p = n == kNoIndex ? kNoIndex : fabric.portOf(n, port);
        if (p != kNoIndex && fabric.port(p).remote != kNoIndex)
            present.failedLinkPorts.emplace_back(guid, port);
    }
    for (const Guid guid : settings->drained.failedSwitches) {
        const NodeIndex n = fabric.nodeByGuid(guid);
        if (n != kNoIndex && fabric.node(n).type == NodeType::Switch)
            present.failedSwitches.push_back(guid);
    }
    DrainedFabric result;
    if (present.isEmpty())
        return result;
    Result<Fabric> edited = applyWhatIf(fabric, present);
    if (!edited)
        return edited.error();
    result.description = present.describe(fabric).replace(QLatin1String(" fails"), QString());
    // An end port the drain would leave without its cable: not a drain but an outage.
    QStringList cutOff;
    for (const NodeIndex n : fabric.endNodes())
        for (int p = 1; p <= fabric.node(n).portCount; ++p) {
            const PortIndex port = fabric.portOf(n, p);
            if (port == kNoIndex || fabric.port(port).remote == kNoIndex)
                continue;
            const NodeIndex there = edited->nodeByGuid(fabric.node(n).guid);
            const PortIndex after = there == kNoIndex ? kNoIndex : edited->portOf(there, p);
            if (after == kNoIndex || edited->port(after).remote == kNoIndex)
                cutOff << portDisplayName(fabric, port);
        }
    if (!cutOff.isEmpty())
        return Error{{}, 0, QStringLiteral("draining %1 would cut off %2 end port(s): %3").arg(result.description).arg(cutOff.size()).arg(cutOff.mid(0, 8).join(QStringLiteral(", ")) + (cutOff.size() > 8 ? QStringLiteral(", ...") : QString()))};
    result.fabric = std::make_shared<const Fabric>(std::move(*edited));
    return result;
}

// Tables routed on the drained fabric, for the whole one: a drained switch gets a table that
// routes only its own LID (to its management port), so that no route runs through it.
void addDrainedSwitchTables(const Fabric &whole, IntentRouting &routed)
{
    routed.routing.tables = withDrainedSwitchTables(whole, std::move(routed.routing.tables));
    routed.routing.reachedFromEverySwitch.clear();  // a drained switch reaches nothing
}

// Routing by the intent with its drained elements routed around: `route` on the drained
// fabric, or on the whole one (with a note) when the drain cannot be honoured.
template<typename Route>
Result<IntentRouting> routeDrained(const Fabric &fabric, const Project &intent, Route &&route)
{
    Result<DrainedFabric> drained = drainFabric(fabric, intent);
    if (drained && !drained->fabric)
        return route(fabric);
    if (drained) {
        Result<IntentRouting> routed = route(*drained->fabric);
        if (routed) {
            addDrainedSwitchTables(fabric, *routed);
            routed->routedOn = drained->fabric;
            routed->notes << QStringLiteral("drained: %1").arg(drained->description);
            return routed;
        }
        if (routed.error().message.contains(QLatin1String("cancelled")))
            return routed;
        drained = routed.error();
    }
    Result<IntentRouting> whole = route(fabric);
    if (whole)
        whole->notes << QStringLiteral("drained elements not routed around: %1").arg(drained.error().message);
    return whole;
}

}  // namespace

Result<IntentRouting> routeIntent(const Fabric &fabric, const Project &intent, const RoutingOptions &options)
{
    return routeDrained(fabric, intent, [&](const Fabric &f) { return routeIntentAsIs(f, intent, options); });
}

Result<IntentRouting> routeIntentAfterChange(const Fabric &fabric, const Project &intent, const QString &intentDigest,
                                             const InstalledRouting *installed, const RoutingOptions &options)
{
    return routeDrained(fabric, intent, [&](const Fabric &f) { return routeAfterChangeAsIs(f, fabric, intent, intentDigest, installed, options); });
}

Result<IntentRouting> predictIntentResponse(const Fabric &fabric, const ForwardingTables &held, const Project &intent,
                                            const WhatIf &events)
{
    // The plugin's last run as it remembers it: the fabric it routed (drained elements left out),
    // the tables the switches hold, the lanes of its routing, the intent unchanged since.
    const QString digest = QStringLiteral("in force");
    const Project bound = bindProject(intent, fabric).project;
    Result<DrainedFabric> drained = drainFabric(fabric, bound);
    InstalledRouting installed;
    installed.fabric = drained && drained->fabric ? drained->fabric : std::make_shared<const Fabric>(fabric);
    installed.tables = held;
    installed.intentDigest = digest;
    if (Result<IntentRouting> first = routeIntent(fabric, bound))
        installed.serviceLevels = first->routing.serviceLevels;
    Result<Fabric> after = applyWhatIf(fabric, events);
    if (!after)
        return after.error();
    return routeIntentAfterChange(*after, bindProject(intent, *after).project, digest, &installed);
}

ForwardingTables withDrainedSwitchTables(const Fabric &fabric, ForwardingTables tables)
{
    for (const NodeIndex s : fabric.switches()) {
        const Node &node = fabric.node(s);
        if (tables.contains(node.guid))
            continue;
        const Lid lid = fabric.nodeLid(s);
        const int t = tables.addSwitch(node.guid, lid, node.description);
        if (t >= 0 && lid != 0)
            tables.lft(std::size_t(t)).setPort(lid, 0);
    }
    return tables;
}

QString heldTablesStamp(const Fabric &fabric, const ForwardingTables &held)
{
    std::set<Lid> lids;
    for (const Port &p : fabric.ports()) {
        if (!p.present || p.lid == 0)
            continue;
        for (int i = 0; i < (1 << p.lmc); ++i)
            lids.insert(Lid(p.lid + i));
    }
    std::vector<Guid> switches;
    for (const NodeIndex s : fabric.switches())
        switches.push_back(fabric.node(s).guid);
    std::sort(switches.begin(), switches.end());
    QCryptographicHash hash(QCryptographicHash::Sha256);
    auto addNumber = [&hash](std::uint64_t value, int bytes) {
        char big[8];
        for (int i = 0; i < bytes; ++i)
            big[i] = char((value >> (8 * (bytes - 1 - i))) & 0xff);
        hash.addData(QByteArrayView(big, bytes));
    };
    addNumber(lids.size(), 4);
    for (const Lid lid : lids)
        addNumber(lid, 2);
    QByteArray row(qsizetype(lids.size()), char(kNoRoute));
    for (const Guid guid : switches) {
        addNumber(guid, 8);
        if (const SwitchForwardingTable *table = held.find(guid)) {
            qsizetype i = 0;
            for (const Lid lid : lids)
                row[i++] = char(table->lft.port(lid));
        } else {
            row.fill(char(kNoRoute));
        }
        hash.addData(row);
    }
    return QString::fromLatin1(hash.result().toHex().left(32));
}

Result<Project> intentApplying(const Project &inForce, const CandidateSpec &candidate, const WhatIf &events, const Fabric &fabric,
                               const QString &heldStamp)
{
    if (candidate.kind == CandidateKind::Full)
        return Error{{}, 0, QStringLiteral("%1 is a full re-route: preview the engine (a Routing Preview), whose intent Weft's engine inside "
                                           "OpenSM routes, or choose a SlimUpdate or metabase candidate")
                                .arg(candidate.name())};
    if (candidate.kind == CandidateKind::Metabase && (candidate.policy == SlotPolicy::MpiOrder || candidate.policy == SlotPolicy::Priority))
        return Error{{}, 0, QStringLiteral("%1 takes hosts chosen on the map, which an intent does not carry").arg(candidate.name())};
    if (!events.removedHosts.empty())
        return Error{{}, 0, QStringLiteral("a removed host is not something Weft's engine inside OpenSM routes around; plan the candidate "
                                           "without it")};
    const Result<IntentOptions> now = intentOptions(inForce);
    if (!now)
        return now.error();
    // The candidate was planned with every element the events leave in use: the intent in force's
    // drained elements must be among the events, or the plugin would route on another fabric.
    QStringList inUse;
    for (const auto &end : now->drained.failedLinkPorts)
        if (std::none_of(events.failedLinkPorts.begin(), events.failedLinkPorts.end(),
                         [&](const std::pair<Guid, int> &e) { return sameCable(fabric, end, e); }))
            inUse << QStringLiteral("%1[%2]").arg(guidText(end.first)).arg(end.second);
    for (const Guid guid : now->drained.failedSwitches)
        if (std::find(events.failedSwitches.begin(), events.failedSwitches.end(), guid) == events.failedSwitches.end())
            inUse << guidText(guid);
    if (!inUse.isEmpty())
        return Error{{}, 0, QStringLiteral("the intent in force drains %1, and the candidate was planned with them in use; fail them in "
                                           "the what-if too (or undrain them), then plan again")
                                .arg(inUse.join(QStringLiteral(", ")))};
    WhatIf drained;
    drained.failedLinkPorts = events.failedLinkPorts;
    drained.failedSwitches = events.failedSwitches;
    Project result = withApply(withDrained(inForce, drained, &fabric), candidate, heldStamp);
    const Result<DrainedFabric> check = drainFabric(fabric, result);
    if (!check)
        return check.error();
    return result;
}

}  // namespace weft
