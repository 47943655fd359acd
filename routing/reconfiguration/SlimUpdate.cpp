#include "SlimUpdate.h"

#include "SwitchGraph.h"
#include "TrafficModel.h"
#include "Validation.h"

#include <QElapsedTimer>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <unordered_map>

namespace weft {

namespace {

using routing::FatTreeColumnRouter;
using routing::FatTreeLayout;
using routing::kNoPath;
using Load = FatTreeColumnRouter::Load;

// One fabric's view for path walks: per switch node, its table; per port, where it leads.
struct PathWalker
{
    const Fabric &fabric;
    std::vector<const LinearForwardingTable *> lftOfNode;  // by NodeIndex, switches only

    PathWalker(const Fabric &f, const ForwardingTables &tables) : fabric(f), lftOfNode(f.nodes().size(), nullptr)
    {
        for (NodeIndex s : f.switches())
            if (const SwitchForwardingTable *t = tables.find(f.node(s).guid))
                lftOfNode[std::size_t(s)] = &t->lft;
    }

    std::uint8_t out(NodeIndex sw, Lid lid) const
    {
        const LinearForwardingTable *t = lftOfNode[std::size_t(sw)];
        return t ? t->port(lid) : kNoRoute;
    }

    // The node at the far end of `port` of `node`, or kNoIndex.
    NodeIndex next(NodeIndex node, int port) const
    {
        const PortIndex p = fabric.portOf(node, port);
        if (p == kNoIndex || fabric.port(p).remote == kNoIndex)
            return kNoIndex;
        return fabric.port(fabric.port(p).remote).node;
    }
};

struct EndPortRef
{
    NodeIndex node = kNoIndex;
    int port = 0;
    Lid lid = 0;
    NodeIndex attached = kNoIndex;  // the switch it is cabled to
};

std::unordered_map<Guid, EndPortRef> endPortsByGuid(const Fabric &fabric)
{
    std::unordered_map<Guid, EndPortRef> result;
    for (NodeIndex n : fabric.endNodes()) {
        const Node &node = fabric.node(n);
        for (int number = 1; number <= node.portCount; ++number) {
            const PortIndex p = fabric.portOf(n, number);
            if (p == kNoIndex || !fabric.port(p).present || fabric.port(p).lid == 0)
                continue;
            EndPortRef ref{n, number, fabric.port(p).lid, kNoIndex};
            if (fabric.port(p).remote != kNoIndex) {
                const NodeIndex remote = fabric.port(fabric.port(p).remote).node;
                if (fabric.node(remote).type == NodeType::Switch)
                    ref.attached = remote;
            }
            result.emplace(fabric.port(p).guid, ref);
        }
    }
    return result;
}

// ΔP: per destination, memoised per switch of the new fabric: is the rest of the path from
// here the same in both? Same out port, then the same next node (by GUID), recursively.
// Calls changed(source, destination), end ports of `fabric`, for each pair whose path differs;
// returns the pairs compared.
template <typename Changed>
std::uint64_t walkPathChanges(const Fabric &installedFabric, const ForwardingTables &installed, const Fabric &fabric,
                              const ForwardingTables &proposed, Changed &&changed)
{
    std::uint64_t pairs = 0;
    const PathWalker was(installedFabric, installed);
    const PathWalker now(fabric, proposed);
    const std::unordered_map<Guid, EndPortRef> oldEnds = endPortsByGuid(installedFabric);
    const std::unordered_map<Guid, EndPortRef> newEnds = endPortsByGuid(fabric);
    std::vector<std::pair<EndPortRef, EndPortRef>> common;  // (old, new), in new-fabric GUID order
    std::vector<Guid> guids;
    for (const auto &[guid, ref] : newEnds)
        if (oldEnds.count(guid))
            guids.push_back(guid);
    std::sort(guids.begin(), guids.end());
    for (Guid g : guids)
        common.emplace_back(oldEnds.at(g), newEnds.at(g));

    std::vector<NodeIndex> oldOfNew(fabric.nodes().size(), kNoIndex);
    for (NodeIndex s : fabric.switches())
        oldOfNew[std::size_t(s)] = installedFabric.nodeByGuid(fabric.node(s).guid);

    enum : std::uint8_t { Unknown, Walking, Same, Differs };
    std::vector<std::uint8_t> state(fabric.nodes().size(), Unknown);
    for (const auto &ends : common) {
        // Named references, not a structured binding: lambdas below use them (C++17 does not
        // let a lambda capture a structured binding, and clang refuses it).
        const auto &oldDst = ends.first;
        const auto &newDst = ends.second;
        std::fill(state.begin(), state.end(), Unknown);
        const Guid dstGuid = fabric.node(newDst.node).guid;
        // Iterative, so a long or looping walk cannot overflow the stack.
        auto sameFrom = [&](NodeIndex start) {
            std::vector<NodeIndex> stack;
            NodeIndex at = start;
            std::uint8_t verdict = Differs;
            while (true) {
                if (state[std::size_t(at)] == Same || state[std::size_t(at)] == Differs) {
                    verdict = state[std::size_t(at)];
                    break;
                }
                if (state[std::size_t(at)] == Walking) {  // a loop: not a path
                    verdict = Differs;
                    break;
                }
                state[std::size_t(at)] = Walking;
                stack.push_back(at);
                const NodeIndex oldAt = oldOfNew[std::size_t(at)];
                const std::uint8_t pa = oldAt == kNoIndex ? kNoRoute : was.out(oldAt, oldDst.lid);
                const std::uint8_t pb = now.out(at, newDst.lid);
                if (oldAt == kNoIndex || pa != pb) {
                    verdict = Differs;
                    break;
                }
                if (pb == kNoRoute) {  // both drop here: the same (broken) path
                    verdict = Same;
                    break;
                }
                const NodeIndex na = was.next(oldAt, pa);
                const NodeIndex nb = now.next(at, pb);
                if (na == kNoIndex || nb == kNoIndex) {
                    verdict = na == nb ? Same : Differs;
                    break;
                }
                if (installedFabric.node(na).guid != fabric.node(nb).guid) {
                    verdict = Differs;
                    break;
                }
                if (fabric.node(nb).type != NodeType::Switch) {
                    verdict = fabric.node(nb).guid == dstGuid ? Same : Differs;
                    break;
                }
                at = nb;
            }
            for (NodeIndex s : stack)
                state[std::size_t(s)] = verdict;
            return verdict == Same;
        };
        for (const auto &[oldSrc, newSrc] : common) {
            if (newSrc.node == newDst.node && newSrc.port == newDst.port)
                continue;
            ++pairs;
            const bool sameStart = newSrc.attached != kNoIndex && oldSrc.attached != kNoIndex
                                   && installedFabric.node(oldSrc.attached).guid == fabric.node(newSrc.attached).guid;
            // Neither attached: no path either way; one attached or another switch: the path moved.
            const bool moved = sameStart ? !sameFrom(newSrc.attached)
                                         : !(newSrc.attached == kNoIndex && oldSrc.attached == kNoIndex);
            if (moved)
                changed(fabric.portOf(newSrc.node, newSrc.port), fabric.portOf(newDst.node, newDst.port));
        }
    }
    return pairs;
}

using AllowedChains = std::vector<std::vector<std::vector<int>>>;  // per compute node

// SlimUpdate keeps each partition's phy-isolation where pftree from scratch keeps it (spec 003
// §4.3: installed choices are kept "so long as [this] does not conflict with QoS requirements").
// Keeping installed choices alone can break it: a node displaced from a cut cable goes to the
// least loaded climb, which may be another partition's. Then SlimUpdate runs again with each
// node's main path limited to those pftree gives the nodes of its leaf with its memberships.
// Those nodes' flows then cross only links pftree's flows of the same partitions cross, so no
// link carries partitions that pftree keeps apart; within that, installed choices are kept as
// before. The tables chosen are the ones with fewer violations, the unconstrained on a tie.
void keepIsolation(const FatTreeLayout &layout, const Fabric &fabric, const Tenancy &tenancy, const QString &engine,
                   const std::function<ForwardingTables(const AllowedChains &)> &routeAll, ForwardingTables &tables,
                   QStringList &warnings)
{
    const PartitionMembership membership(fabric, tenancy);
    const bool anyPhy = std::any_of(membership.partitions().begin(), membership.partitions().end(), [](const auto &p) {
        return !p.isDefault && p.policy == IsolationPolicy::Physical && p.members.size() > 1;
    });
    if (!anyPhy)
        return;
    const std::size_t violations = validateRouting(fabric, tenancy, tables).policyViolations;
    if (violations == 0)
        return;
    Result<Routing> isolating = routeFabric(QStringLiteral("pftree"), fabric, tenancy);
    if (!isolating) {
        warnings << QStringLiteral("%1: %2 isolation violations; no pftree routing to follow: %3")
                        .arg(engine)
                        .arg(violations)
                        .arg(isolating.error().message);
        return;
    }
    const std::size_t isolatingViolations = validateRouting(fabric, tenancy, isolating->tables).policyViolations;
    if (isolatingViolations >= violations)
        return;

    // pftree's main path of every compute node, gathered per (leaf, membership class).
    const std::vector<FatTreeLayout::ComputeNode> &cns = layout.computeNodes;
    const std::vector<std::vector<int>> cabling = routing::installedCabling(layout, fabric);
    std::vector<const LinearForwardingTable *> lftOf(layout.switches.size(), nullptr);
    for (std::size_t s = 0; s < layout.switches.size(); ++s)
        if (const SwitchForwardingTable *t = isolating->tables.find(layout.switches[s].guid))
            lftOf[s] = &t->lft;
    // The leaves of each partition's members, full members apart: the main path is read from
    // the walks of traffic the partitions carry, not from a management route that a leaf with
    // no member takes.
    std::map<NodeIndex, int> leafOfSwitch;
    for (std::size_t s = 0; s < layout.switches.size(); ++s)
        leafOfSwitch.emplace(layout.switches[s].node, int(s));
    const std::size_t partitionCount = membership.partitions().size();
    std::vector<std::vector<int>> leavesOf(partitionCount), fullLeavesOf(partitionCount);
    for (std::size_t p = 0; p < partitionCount; ++p) {
        const PartitionMembership::ResolvedPartition &partition = membership.partitions()[p];
        for (std::size_t m = 0; m < partition.members.size(); ++m) {
            const auto leaf = leafOfSwitch.find(membership.endPorts()[std::size_t(partition.members[m])].attachedSwitch);
            if (leaf == leafOfSwitch.end())
                continue;
            leavesOf[p].push_back(leaf->second);
            if (partition.full[m])
                fullLeavesOf[p].push_back(leaf->second);
        }
    }
    std::map<std::pair<int, int>, std::vector<std::vector<int>>> chainsOfClass;
    std::vector<std::pair<int, int>> classOf(cns.size(), {-1, -1});
    std::vector<std::uint8_t> column(layout.switches.size());
    for (std::size_t cn = 0; cn < cns.size(); ++cn) {
        const int endPort = membership.endPortOf(fabric.portByGuid(cns[cn].portGuid));
        if (endPort < 0)
            continue;
        std::vector<int> senders;  // leaves with members that may send to this node
        for (const PartitionMembership::Member &m : membership.memberships(endPort)) {
            if (membership.partitions()[std::size_t(m.partition)].isDefault)
                continue;
            const std::vector<int> &from = m.full ? leavesOf[std::size_t(m.partition)] : fullLeavesOf[std::size_t(m.partition)];
            senders.insert(senders.end(), from.begin(), from.end());
        }
        senders.erase(std::remove(senders.begin(), senders.end(), cns[cn].leaf), senders.end());
        if (senders.empty())
            continue;  // no traffic of a partition crosses a switch link towards it
        std::sort(senders.begin(), senders.end());
        senders.erase(std::unique(senders.begin(), senders.end()), senders.end());
        classOf[cn] = {cns[cn].leaf, membership.endPorts()[std::size_t(endPort)].membershipClass};
        for (std::size_t s = 0; s < layout.switches.size(); ++s)
            column[s] = lftOf[s] ? lftOf[s]->port(cns[cn].lid) : kNoPath;
        std::vector<std::vector<int>> &chains = chainsOfClass[classOf[cn]];
        std::vector<int> chain = routing::installedChain(layout, cabling, cns[cn].leaf, column, &senders);
        if (std::find(chains.begin(), chains.end(), chain) == chains.end())
            chains.push_back(std::move(chain));
    }
    AllowedChains allowed(cns.size());
    for (std::size_t cn = 0; cn < cns.size(); ++cn)
        if (classOf[cn].first >= 0)
            allowed[cn] = chainsOfClass[classOf[cn]];
    ForwardingTables limited = routeAll(allowed);
    const std::size_t limitedViolations = validateRouting(fabric, tenancy, limited).policyViolations;
    if (limitedViolations < violations)
        tables = std::move(limited);
    const std::size_t kept = std::min(limitedViolations, violations);
    if (kept > isolatingViolations)
        warnings << QStringLiteral("%1: %2 isolation violations where pftree from scratch has %3").arg(engine).arg(kept).arg(isolatingViolations);
}

}  // namespace

ReconfigurationCost reconfigurationCost(const Fabric &installedFabric, const ForwardingTables &installed,
                                        const Fabric &fabric, const ForwardingTables &proposed)
{
    ReconfigurationCost cost;

    // ΔE and ΔB: what a subnet manager would write, switch by switch.
    for (const SwitchForwardingTable &next : proposed.switches()) {
        const SwitchForwardingTable *before = installed.find(next.guid);
        if (!before) {
            cost.entryChanges += next.lft.routeCount();
            cost.blockChanges += std::uint64_t(next.lft.blockCount());
            cost.switchesChanged += next.lft.blockCount() > 0;
            continue;
        }
        const int blocks = std::max(next.lft.blockCount(), before->lft.blockCount());
        std::uint64_t changedBlocks = 0;
        for (int b = 0; b < blocks; ++b) {
            if (blockEquals(before->lft, next.lft, b))
                continue;
            ++changedBlocks;
            for (int i = 0; i < kLftBlockSize; ++i) {
                const Lid lid = Lid(b * kLftBlockSize + i);
                cost.entryChanges += before->lft.port(lid) != next.lft.port(lid);
            }
        }
        cost.blockChanges += changedBlocks;
        cost.switchesChanged += changedBlocks > 0;
    }

    cost.pairs = walkPathChanges(installedFabric, installed, fabric, proposed,
                                 [&cost](PortIndex, PortIndex) { ++cost.pathModifications; });
    return cost;
}

std::uint64_t forEachChangedPath(const Fabric &installedFabric, const ForwardingTables &installed, const Fabric &fabric,
                                 const ForwardingTables &proposed,
                                 const std::function<void(PortIndex source, PortIndex destination)> &changed)
{
    return walkPathChanges(installedFabric, installed, fabric, proposed, changed);
}

namespace routing {

FatTreeColumnRouter::FatTreeColumnRouter(const FatTreeLayout &layout, std::size_t columns) : m_layout(layout)
{
    const std::size_t switches = layout.switches.size();
    m_upCables.resize(switches);
    m_downGroups.resize(switches);
    m_linkOfPort.resize(switches);
    m_groupCables.resize(layout.groups.size());
    for (std::size_t g = 0; g < layout.groups.size(); ++g) {
        const FatTreeLayout::Group &group = layout.groups[g];
        for (const FatTreeLayout::Cable &c : group.cables) {
            const int id = int(m_cables.size());
            m_cables.push_back({group.lower, group.upper, c.lowerPort, c.upperPort});
            m_groupCables[g].push_back(id);
            m_upCables[std::size_t(group.lower)].push_back(id);
            auto place = [this](int sw, std::uint8_t port, int link) {
                std::vector<int> &ports = m_linkOfPort[std::size_t(sw)];
                if (ports.size() <= port)
                    ports.resize(std::size_t(port) + 1, -1);
                ports[port] = link;
            };
            place(group.lower, c.lowerPort, 2 * id);
            place(group.upper, c.upperPort, 2 * id + 1);
        }
    }
    // As wftree: children visited by GUID, so the result does not depend on cabling order.
    for (std::size_t s = 0; s < switches; ++s) {
        m_downGroups[s] = layout.switches[s].down;
        std::stable_sort(m_downGroups[s].begin(), m_downGroups[s].end(), [&layout](int a, int b) {
            return layout.switches[std::size_t(layout.groups[std::size_t(a)].lower)].guid
                   < layout.switches[std::size_t(layout.groups[std::size_t(b)].lower)].guid;
        });
    }
    m_lft.assign(switches, std::vector<std::uint8_t>(columns, kNoPath));
    m_hops.assign(switches, kNoPath);
    m_mainPath.assign(std::size_t(layout.leafRank) + 1, -1);
    m_loadDown.assign(m_cables.size(), 0);
    m_loadUp.assign(m_cables.size(), 0);
}

int FatTreeColumnRouter::directedLink(int sw, std::uint8_t port) const
{
    const std::vector<int> &ports = m_linkOfPort[std::size_t(sw)];
    return port < ports.size() ? ports[port] : -1;
}

int FatTreeColumnRouter::neighbour(int sw, std::uint8_t port) const
{
    const int link = directedLink(sw, port);
    if (link < 0)
        return -1;
    const Cable &c = m_cables[std::size_t(link / 2)];
    return link % 2 == 0 ? c.upper : c.lower;
}

void FatTreeColumnRouter::route(std::size_t column, int sw, std::uint8_t ownPort, Load weight, bool counted,
                                const Preference *preference)
{
    std::fill(m_hops.begin(), m_hops.end(), kNoPath);
    std::fill(m_mainPath.begin(), m_mainPath.end(), -1);
    m_lft[std::size_t(sw)][column] = ownPort;
    m_hops[std::size_t(sw)] = ownPort == 0 ? 0 : 1;
    ascend(sw, -1, column, weight, counted, preference);
}

FatTreeColumnRouter::Load FatTreeColumnRouter::minDownLoadBelow(int sw) const
{
    Load least = std::numeric_limits<Load>::max();
    for (int g : m_downGroups[std::size_t(sw)]) {
        Load sum = 0;
        for (int c : m_groupCables[std::size_t(g)])
            sum += m_loadDown[std::size_t(c)];
        least = std::min(least, sum);
    }
    return least == std::numeric_limits<Load>::max() ? 0 : least;
}

int FatTreeColumnRouter::leastLoadedUpCable(const std::vector<int> &ports) const
{
    // wftree's key: least down load on the cable, then the least loaded group below the upper
    // switch, then the upper switch's GUID, then the port.
    int best = -1;
    Load bestBelow = 0;
    for (int p : ports) {
        const Load below = minDownLoadBelow(m_cables[std::size_t(p)].upper);
        if (best < 0) {
            best = p;
            bestBelow = below;
            continue;
        }
        const Cable &a = m_cables[std::size_t(p)];
        const Cable &b = m_cables[std::size_t(best)];
        const Load la = m_loadDown[std::size_t(p)], lb = m_loadDown[std::size_t(best)];
        const Guid ga = m_layout.switches[std::size_t(a.upper)].guid, gb = m_layout.switches[std::size_t(b.upper)].guid;
        const bool better = la != lb ? la < lb
                          : below != bestBelow ? below < bestBelow
                          : ga != gb ? ga < gb
                          : a.lowerPort < b.lowerPort;
        if (better) {
            best = p;
            bestBelow = below;
        }
    }
    return best;
}

std::vector<int> FatTreeColumnRouter::climbCandidates(int sw, const std::vector<int> &path,
                                                      const Preference *preference) const
{
    const std::vector<int> &ports = m_upCables[std::size_t(sw)];
    if (!preference || preference->allowedChains.empty())
        return ports;
    const std::size_t rank = std::size_t(m_layout.switches[std::size_t(sw)].rank);
    std::vector<int> allowed;
    for (const std::vector<int> &chain : preference->allowedChains) {
        if (rank < 1 || rank >= chain.size() || chain[rank] != sw || chain[rank - 1] < 0)
            continue;
        bool continues = true;
        for (std::size_t k = rank + 1; k < chain.size() && k < path.size() && continues; ++k)
            continues = path[k] < 0 || chain[k] == path[k];
        if (continues)
            allowed.push_back(chain[rank - 1]);
    }
    std::vector<int> candidates;
    for (int p : ports)
        if (std::find(allowed.begin(), allowed.end(), m_cables[std::size_t(p)].upper) != allowed.end())
            candidates.push_back(p);
    return candidates.empty() ? ports : candidates;
}

int FatTreeColumnRouter::installedUpCable(int sw, const std::vector<int> &ports, const Preference &preference) const
{
    // The installed main path went from this switch to chain[rank - 1]: that cable (the one whose
    // upper end the installed table points down through, if parallel).
    const int rank = m_layout.switches[std::size_t(sw)].rank;
    if (rank < 1 || std::size_t(rank) >= preference.chain.size() || preference.chain[std::size_t(rank)] != sw)
        return -1;
    const int wanted = preference.chain[std::size_t(rank) - 1];
    if (wanted < 0)
        return -1;
    int kept = -1;
    for (int p : ports) {
        const Cable &c = m_cables[std::size_t(p)];
        if (c.upper != wanted)
            continue;
        if (preference.installed[std::size_t(c.upper)] == c.upperPort)
            return p;
        if (kept < 0 || m_loadDown[std::size_t(p)] < m_loadDown[std::size_t(kept)])
            kept = p;
    }
    return kept;
}

int FatTreeColumnRouter::chooseUpCable(int sw, bool counted, const Preference *preference) const
{
    // No copy of the cable list unless main paths are limited: this runs for every switch of
    // every target's column.
    std::vector<int> limited;
    const bool limits = counted && preference && !preference->allowedChains.empty();
    if (limits)
        limited = climbCandidates(sw, m_mainPath, preference);
    const std::vector<int> &candidates = limits ? limited : m_upCables[std::size_t(sw)];
    const int best = leastLoadedUpCable(candidates);
    if (!preference || best < 0)
        return best;
    // Keep the installed climb when close enough.
    const int kept = installedUpCable(sw, candidates, *preference);
    if (kept < 0)
        return best;
    if (!counted || m_loadDown[std::size_t(kept)] <= m_loadDown[std::size_t(best)] + preference->slack)
        return kept;
    return best;
}

bool FatTreeColumnRouter::keepsInstalledPath(int sw, const Preference &preference) const
{
    std::vector<int> path(m_mainPath.size(), -1);
    for (int at = sw;;) {
        const std::size_t rank = std::size_t(m_layout.switches[std::size_t(at)].rank);
        if (rank < path.size())
            path[rank] = at;
        if (m_upCables[std::size_t(at)].empty() || rank < 1 || rank >= preference.chain.size()
            || preference.chain[rank] != at || preference.chain[rank - 1] < 0)
            return true;  // nothing installed further up
        std::vector<int> limited;
        if (!preference.allowedChains.empty())
            limited = climbCandidates(at, path, &preference);
        const std::vector<int> &candidates = preference.allowedChains.empty() ? m_upCables[std::size_t(at)] : limited;
        const int kept = installedUpCable(at, candidates, preference);
        if (kept < 0)
            return false;  // its installed climb is cut, or not allowed
        const int best = leastLoadedUpCable(candidates);
        if (m_loadDown[std::size_t(kept)] > m_loadDown[std::size_t(best)] + preference.slack)
            return false;
        at = m_cables[std::size_t(kept)].upper;
    }
}

void FatTreeColumnRouter::ascend(int sw, int prev, std::size_t column, Load weight, bool counted,
                                 const Preference *preference)
{
    descend(sw, column, weight, prev, counted, preference);
    if (m_upCables[std::size_t(sw)].empty())
        return;
    const std::uint8_t here = m_hops[std::size_t(sw)];
    if (counted) {
        const std::size_t rank = std::size_t(m_layout.switches[std::size_t(sw)].rank);
        if (rank < m_mainPath.size())
            m_mainPath[rank] = sw;
    }
    const int sel = chooseUpCable(sw, counted, preference);
    const Cable &c = m_cables[std::size_t(sel)];
    if (counted)
        m_loadDown[std::size_t(sel)] += weight;
    if (m_hops[std::size_t(c.upper)] == kNoPath || here + 1 < m_hops[std::size_t(c.upper)]) {
        m_lft[std::size_t(c.upper)][column] = c.upperPort;
        m_hops[std::size_t(c.upper)] = std::uint8_t(here + 1);
        ascend(c.upper, sw, column, weight, counted, preference);
    }
    // Secondary entries, as ftree's non-main paths: the other parents learn a min-hop route
    // without counting, so that switch-originated traffic reaches every target.
    for (int other : m_upCables[std::size_t(sw)]) {
        const Cable &o = m_cables[std::size_t(other)];
        if (m_hops[std::size_t(o.upper)] != kNoPath && here + 1 >= m_hops[std::size_t(o.upper)])
            continue;
        m_lft[std::size_t(o.upper)][column] = o.upperPort;
        m_hops[std::size_t(o.upper)] = std::uint8_t(here + 1);
        ascend(o.upper, sw, column, weight, false, preference);
    }
}

void FatTreeColumnRouter::descend(int sw, std::size_t column, Load weight, int exclude, bool counted,
                                  const Preference *preference)
{
    const std::uint8_t here = m_hops[std::size_t(sw)];
    for (int g : m_downGroups[std::size_t(sw)]) {
        const std::vector<int> &cables = m_groupCables[std::size_t(g)];
        const int child = m_cables[std::size_t(cables.front())].lower;
        if (child == exclude)
            continue;
        if (m_hops[std::size_t(child)] != kNoPath && m_hops[std::size_t(child)] <= here + 1)
            continue;
        int best = cables.front();
        for (int c : cables)
            if (m_loadUp[std::size_t(c)] < m_loadUp[std::size_t(best)])
                best = c;
        if (preference && cables.size() > 1) {
            for (int c : cables) {
                if (preference->installed[std::size_t(child)] != m_cables[std::size_t(c)].lowerPort)
                    continue;
                if (!counted || m_loadUp[std::size_t(c)] <= m_loadUp[std::size_t(best)] + preference->slack)
                    best = c;
                break;
            }
        }
        m_lft[std::size_t(child)][column] = m_cables[std::size_t(best)].lowerPort;
        m_hops[std::size_t(child)] = std::uint8_t(here + 1);
        if (counted)
            m_loadUp[std::size_t(best)] += weight;
        descend(child, column, weight, -1, counted, preference);
    }
}

std::vector<std::vector<int>> installedCabling(const FatTreeLayout &layout, const Fabric &installedFabric)
{
    std::unordered_map<Guid, int> layoutIndex;
    for (std::size_t s = 0; s < layout.switches.size(); ++s)
        layoutIndex.emplace(layout.switches[s].guid, int(s));
    std::vector<std::vector<int>> next(layout.switches.size());
    for (std::size_t s = 0; s < layout.switches.size(); ++s) {
        const NodeIndex n = installedFabric.nodeByGuid(layout.switches[s].guid);
        if (n == kNoIndex)
            continue;
        const Node &node = installedFabric.node(n);
        next[s].assign(std::size_t(node.portCount) + 1, -1);
        for (int number = 1; number <= node.portCount; ++number) {
            const PortIndex p = installedFabric.portOf(n, number);
            if (p == kNoIndex || installedFabric.port(p).remote == kNoIndex)
                continue;
            const auto found = layoutIndex.find(installedFabric.node(installedFabric.port(installedFabric.port(p).remote).node).guid);
            if (found != layoutIndex.end())
                next[s][std::size_t(number)] = found->second;
        }
    }
    return next;
}

std::vector<int> installedChain(const FatTreeLayout &layout, const std::vector<std::vector<int>> &cabling, int leaf,
                                const std::vector<std::uint8_t> &installed, const std::vector<int> *from)
{
    std::vector<int> best(std::size_t(layout.leafRank) + 1, -1);
    if (leaf < 0 || std::size_t(leaf) >= layout.switches.size())
        return best;
    const int ownRank = layout.switches[std::size_t(leaf)].rank;
    if (std::size_t(ownRank) < best.size())
        best[std::size_t(ownRank)] = leaf;
    int bestTop = ownRank;
    std::vector<int> walk;
    for (int start : from ? *from : layout.leaves) {
        if (start == leaf)
            continue;
        walk.clear();
        int at = start;
        bool arrived = false;
        for (std::size_t step = 0; step <= layout.switches.size(); ++step) {
            walk.push_back(at);
            if (at == leaf) {
                arrived = true;
                break;
            }
            const std::uint8_t out = installed[std::size_t(at)];
            if (out == kNoPath)
                break;
            const std::vector<int> &next = cabling[std::size_t(at)];
            at = out < next.size() ? next[out] : -1;
            if (at < 0)
                break;
        }
        if (!arrived)
            continue;
        // The descent: from the highest switch of the walk down to the leaf, one rank a step.
        std::size_t top = 0;
        for (std::size_t i = 1; i < walk.size(); ++i)
            if (layout.switches[std::size_t(walk[i])].rank < layout.switches[std::size_t(walk[top])].rank)
                top = i;
        bool descending = true;
        for (std::size_t i = top + 1; i < walk.size() && descending; ++i)
            descending = layout.switches[std::size_t(walk[i])].rank == layout.switches[std::size_t(walk[i - 1])].rank + 1;
        const int topRank = layout.switches[std::size_t(walk[top])].rank;
        if (!descending || topRank >= bestTop)
            continue;
        bestTop = topRank;
        std::fill(best.begin(), best.end(), -1);
        for (std::size_t i = top; i < walk.size(); ++i)
            best[std::size_t(layout.switches[std::size_t(walk[i])].rank)] = walk[i];
        if (topRank == 0)
            break;
    }
    return best;
}

}  // namespace routing

void routing::finishReconfiguration(Reconfiguration &result, const QString &baselineEngine, const Fabric &installedFabric,
                                    const ForwardingTables &installed, const Fabric &fabric, const Tenancy &tenancy)
{
    result.cost = reconfigurationCost(installedFabric, installed, fabric, result.proposal.tables);
    if (baselineEngine.isEmpty())
        return;
    QElapsedTimer timer;
    timer.start();
    Result<Routing> full = routeFabric(baselineEngine, fabric, tenancy);
    result.fullRerouteNanoseconds = timer.nsecsElapsed();
    if (!full) {
        result.fullRerouteError = full.error().message;
        result.proposal.warnings << QStringLiteral("%1: no full re-route to compare with: %2").arg(result.proposal.engine, result.fullRerouteError);
        return;
    }
    result.hasFullReroute = true;
    result.fullReroute = std::move(full).value();
    result.fullRerouteCost = reconfigurationCost(installedFabric, installed, fabric, result.fullReroute.tables);
}

Result<Reconfiguration> slimUpdate(const Fabric &installedFabric, const ForwardingTables &installed,
                                   const Fabric &fabric, const Tenancy &tenancy, const SlimUpdateOptions &options)
{
    const QString engine = QStringLiteral("slimupdate");
    auto fail = [&engine](const QString &why) { return Error{{}, 0, QStringLiteral("%1: %2").arg(engine, why)}; };
    if (!std::isfinite(options.slack) || options.slack < 0)
        return fail(QStringLiteral("the slack must be a finite weight of 0 or more, not %1").arg(options.slack));
    QElapsedTimer timer;
    timer.start();

    Result<FatTreeLayout> analysed = routing::analyseFatTree(fabric, false, engine);
    if (!analysed)
        return analysed.error();
    const FatTreeLayout &layout = analysed.value();
    const std::vector<FatTreeLayout::ComputeNode> &cns = layout.computeNodes;

    std::unordered_map<Guid, std::size_t> cnByPortGuid;
    for (std::size_t i = 0; i < cns.size(); ++i)
        cnByPortGuid.emplace(cns[i].portGuid, i);
    std::vector<Load> weight(cns.size(), Load(FatTreeColumnRouter::kWeightScale));
    for (const auto &[guid, w] : tenancy.nodeWeights) {
        if (!std::isfinite(w) || w < 0 || w > 1e12)
            return fail(QStringLiteral("the weight of port %1 is %2; weights must be finite, 0 to 1e12").arg(guidText(guid)).arg(w));
        auto found = cnByPortGuid.find(guid);
        if (found != cnByPortGuid.end())
            weight[found->second] = Load(std::llround(w * FatTreeColumnRouter::kWeightScale));
    }

    // The installed out port of every layout switch, per LID.
    std::vector<const LinearForwardingTable *> installedLft(layout.switches.size(), nullptr);
    for (std::size_t s = 0; s < layout.switches.size(); ++s)
        if (const SwitchForwardingTable *t = installed.find(layout.switches[s].guid))
            installedLft[s] = &t->lft;
    const std::vector<std::vector<int>> cabling = routing::installedCabling(layout, installedFabric);

    // Heaviest first, ties by port GUID, as wftree (spec 003 §3.3), so that with nothing
    // installed the result is wftree's.
    std::vector<std::size_t> order(cns.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (weight[a] != weight[b])
            return weight[a] > weight[b];
        return cns[a].portGuid < cns[b].portGuid;
    });

    // One pass of SlimUpdate; `allowed` (per compute node, may be empty) limits main paths.
    auto routeAll = [&](const std::vector<std::vector<std::vector<int>>> &allowed, bool keepersFirst) {
        FatTreeColumnRouter router(layout, std::size_t(layout.maxLid) + 1);
        FatTreeColumnRouter::Preference preference;
        preference.slack = Load(std::llround(options.slack * FatTreeColumnRouter::kWeightScale));
        preference.installed.resize(layout.switches.size());
        auto prefer = [&](Lid lid, int leaf, std::size_t cn) {
            for (std::size_t s = 0; s < layout.switches.size(); ++s)
                preference.installed[s] = installedLft[s] ? installedLft[s]->port(lid) : kNoPath;
            preference.chain = routing::installedChain(layout, cabling, leaf, preference.installed);
            preference.allowedChains = cn < allowed.size() ? allowed[cn] : std::vector<std::vector<int>>{};
            return &preference;
        };
        // keepersFirst: within one weight, nodes that keep their whole installed path go first
        // and the displaced after them. A displaced node routed in its GUID turn takes the least
        // loaded climb, often the installed one of a node not yet routed, which then finds it
        // loaded and takes the next one, and so on along the leaf: about twice the paths the
        // event forces. Nodes of one weight are interchangeable for the loads, so every counted
        // decision is still a least loaded one at τ = 0 in either order.
        std::vector<std::size_t> displaced;
        for (std::size_t i = 0; i < order.size(); ++i) {
            const std::size_t cn = order[i];
            const FatTreeColumnRouter::Preference *p = prefer(cns[cn].lid, cns[cn].leaf, cn);
            if (!keepersFirst || router.keepsInstalledPath(cns[cn].leaf, *p))
                router.route(cns[cn].lid, cns[cn].leaf, cns[cn].leafPort, weight[cn], true, p);
            else
                displaced.push_back(cn);
            if (i + 1 == order.size() || weight[order[i + 1]] != weight[cn]) {
                for (std::size_t d : displaced)
                    router.route(cns[d].lid, cns[d].leaf, cns[d].leafPort, weight[d], true, prefer(cns[d].lid, cns[d].leaf, d));
                displaced.clear();
            }
        }
        // Switch LIDs, uncounted: the installed choice always stands where it is a legal one.
        for (int s = 0; s < int(layout.switches.size()); ++s)
            router.route(layout.switches[std::size_t(s)].lid, s, 0, 0, false,
                         prefer(layout.switches[std::size_t(s)].lid, s, std::size_t(-1)));
        return routing::tablesFromColumns(layout, router.tables());
    };

    // Both orders are sound; the one that keeps more paths is taken, keepers first on a tie.
    // Keepers first is the one that keeps more after a cable failure or a change of weights,
    // but on a tree degraded before the event, where the installed paths are not all ones that
    // wftree's order would give, the plain order sometimes keeps more.
    ForwardingTables tables = routeAll({}, true);
    bool keepersFirst = true;
    if (ForwardingTables plain = routeAll({}, false); !(plain == tables)) {
        const std::uint64_t changed = reconfigurationCost(installedFabric, installed, fabric, tables).pathModifications;
        if (reconfigurationCost(installedFabric, installed, fabric, plain).pathModifications < changed) {
            tables = std::move(plain);
            keepersFirst = false;
        }
    }
    QStringList warnings;
    if (options.keepIsolation)
        keepIsolation(
            layout, fabric, tenancy, engine, [&](const AllowedChains &allowed) { return routeAll(allowed, keepersFirst); },
            tables, warnings);

    Reconfiguration result;
    result.proposal.engine = engine;
    result.proposal.tables = std::move(tables);
    result.proposal.warnings = warnings;
    result.proposalNanoseconds = timer.nsecsElapsed();
    routing::finishReconfiguration(result, options.baselineEngine, installedFabric, installed, fabric, tenancy);
    return result;
}

Result<Reconfiguration> slimUpdate(const Fabric &fabric, const ForwardingTables &installed, const Tenancy &tenancy,
                                   const SlimUpdateOptions &options)
{
    return slimUpdate(fabric, installed, fabric, tenancy, options);
}

}  // namespace weft
