#include "MetabaseRouting.h"

#include "SwitchGraph.h"

#include <QCryptographicHash>
#include <QElapsedTimer>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>
#include <unordered_map>

namespace weft {

namespace {
constexpr SlotPolicy kSlotPolicies[] = {SlotPolicy::PortOrder, SlotPolicy::Weighted, SlotPolicy::Sticky,
                                        SlotPolicy::MpiOrder, SlotPolicy::Priority};
}

QString slotPolicyName(SlotPolicy policy)
{
    switch (policy) {
    case SlotPolicy::PortOrder: return QStringLiteral("port-order");
    case SlotPolicy::Weighted: return QStringLiteral("weighted");
    case SlotPolicy::Sticky: return QStringLiteral("sticky");
    case SlotPolicy::MpiOrder: return QStringLiteral("mpi-order");
    case SlotPolicy::Priority: return QStringLiteral("priority");
    }
    return {};
}

std::optional<SlotPolicy> slotPolicyFromName(const QString &name)
{
    const QString wanted = name.trimmed().toLower().replace(QLatin1Char('_'), QLatin1Char('-'));
    for (SlotPolicy policy : kSlotPolicies)
        if (slotPolicyName(policy) == wanted)
            return policy;
    return std::nullopt;
}

QString slotPolicyNames()
{
    QStringList names;
    for (SlotPolicy policy : kSlotPolicies)
        names << slotPolicyName(policy);
    return names.join(QStringLiteral(", "));
}

namespace {

using routing::FatTreeColumnRouter;
using routing::FatTreeLayout;
using routing::kNoPath;
using Load = FatTreeColumnRouter::Load;

// An end port as phase 2 sees it: where it hangs and what it is called.
struct Attachment
{
    Guid portGuid = 0;
    Lid lid = 0;
    NodeIndex leafNode = kNoIndex;
    std::uint8_t leafPort = 0;
};

std::vector<Attachment> attachedEndPorts(const Fabric &fabric)
{
    std::vector<Attachment> result;
    for (NodeIndex n : fabric.endNodes()) {
        const Node &node = fabric.node(n);
        for (int number = 1; number <= node.portCount; ++number) {
            const PortIndex p = fabric.portOf(n, number);
            if (p == kNoIndex || !fabric.port(p).present || fabric.port(p).lid == 0 || fabric.port(p).remote == kNoIndex)
                continue;
            const Port &remote = fabric.port(fabric.port(p).remote);
            if (fabric.node(remote.node).type != NodeType::Switch)
                continue;
            result.push_back({fabric.port(p).guid, fabric.port(p).lid, remote.node, remote.number});
        }
    }
    return result;
}

}  // namespace

struct Metabase::Blueprint
{
    std::vector<Guid> switchGuids;             // layout order
    std::unordered_map<Guid, int> switchByGuid;
    std::vector<int> leafOrdinal;              // per switch: position in ftree leaf order, -1
    int slotsPerLeaf = 0;
    int leaves = 0;
    std::vector<std::vector<std::uint8_t>> columns;  // per switch: slots, then one per switch LID
    std::vector<std::vector<int>> slotLinks;         // per slot: down-going links its flows cross
    std::size_t directedLinks = 0;

    int slot(int leafSwitch, int j) const { return leafOrdinal[std::size_t(leafSwitch)] * slotsPerLeaf + j; }
    std::size_t switchColumn(int sw) const { return std::size_t(leaves) * std::size_t(slotsPerLeaf) + std::size_t(sw); }
};

QByteArray topologyFingerprint(const Fabric &fabric)
{
    std::vector<Guid> switches;
    std::vector<std::tuple<Guid, int, Guid, int>> cables;
    std::map<Guid, int> endPortsOf;
    for (NodeIndex s : fabric.switches())
        switches.push_back(fabric.node(s).guid);
    for (const Link &link : fabric.links()) {
        const Port &a = fabric.port(link.a);
        const Port &b = fabric.port(link.b);
        if (fabric.node(a.node).type != NodeType::Switch || fabric.node(b.node).type != NodeType::Switch)
            continue;
        auto ea = std::make_tuple(fabric.node(a.node).guid, int(a.number));
        auto eb = std::make_tuple(fabric.node(b.node).guid, int(b.number));
        if (eb < ea)
            std::swap(ea, eb);
        cables.emplace_back(std::get<0>(ea), std::get<1>(ea), std::get<0>(eb), std::get<1>(eb));
    }
    for (const Attachment &a : attachedEndPorts(fabric))
        ++endPortsOf[fabric.node(a.leafNode).guid];
    std::sort(switches.begin(), switches.end());
    std::sort(cables.begin(), cables.end());
    int most = 0;
    for (const auto &[guid, count] : endPortsOf)
        most = std::max(most, count);

    QCryptographicHash hash(QCryptographicHash::Sha256);
    auto add = [&hash](std::uint64_t v) {
        char bytes[8];
        for (int i = 0; i < 8; ++i)
            bytes[i] = char((v >> (8 * i)) & 0xff);
        hash.addData(QByteArrayView(bytes, 8));
    };
    add(switches.size());
    for (Guid g : switches)
        add(g);
    add(cables.size());
    for (const auto &[ga, pa, gb, pb] : cables) {
        add(ga);
        add(std::uint64_t(pa));
        add(gb);
        add(std::uint64_t(pb));
    }
    add(endPortsOf.size());
    for (const auto &[guid, count] : endPortsOf)
        add(guid);
    add(std::uint64_t(most));
    return hash.result().toHex();
}

Metabase::Metabase() = default;
Metabase::~Metabase() = default;
Metabase::Metabase(Metabase &&) noexcept = default;
Metabase &Metabase::operator=(Metabase &&) noexcept = default;

std::size_t Metabase::size() const
{
    return m_blueprints.size();
}

void Metabase::clear()
{
    m_blueprints.clear();
}

namespace {

// PHASE1_PATHS: every slot of every leaf routed as a unit-weight dummy destination.
Result<std::shared_ptr<const Metabase::Blueprint>> calculatePaths(const Fabric &fabric, const QString &engine)
{
    Result<FatTreeLayout> analysed = routing::analyseFatTree(fabric, false, engine);
    if (!analysed)
        return analysed.error();
    const FatTreeLayout &layout = analysed.value();
    auto blueprint = std::make_shared<Metabase::Blueprint>();
    Metabase::Blueprint &bp = *blueprint;
    const std::size_t switches = layout.switches.size();
    for (std::size_t s = 0; s < switches; ++s) {
        bp.switchGuids.push_back(layout.switches[s].guid);
        bp.switchByGuid.emplace(layout.switches[s].guid, int(s));
    }
    bp.leafOrdinal.assign(switches, -1);
    for (int leaf : layout.leaves) {
        bp.leafOrdinal[std::size_t(leaf)] = bp.leaves++;
        bp.slotsPerLeaf = std::max(bp.slotsPerLeaf, int(layout.computeNodesOfSwitch[std::size_t(leaf)].size()));
    }
    const std::size_t slots = std::size_t(bp.leaves) * std::size_t(bp.slotsPerLeaf);
    FatTreeColumnRouter router(layout, slots + switches);
    const Load unit = Load(FatTreeColumnRouter::kWeightScale);
    for (int leaf : layout.leaves)
        for (int j = 0; j < bp.slotsPerLeaf; ++j)
            router.route(std::size_t(bp.slot(leaf, j)), leaf, 1, unit, true);  // port filled in phase 2
    for (int s = 0; s < int(switches); ++s)
        router.route(bp.switchColumn(s), s, 0, 0, false);
    bp.columns = router.tables();
    bp.directedLinks = router.cables().size() * 2;

    // Per slot, the down-going links that flows from every other leaf cross on their way to it:
    // wFTree balances down load (Wdown); up-links are shared by the slots of every leaf.
    bp.slotLinks.resize(slots);
    for (int leaf : layout.leaves) {
        for (int j = 0; j < bp.slotsPerLeaf; ++j) {
            const std::size_t column = std::size_t(bp.slot(leaf, j));
            std::vector<int> &links = bp.slotLinks[column];
            for (int from : layout.leaves) {
                int at = from;
                for (std::size_t step = 0; at != leaf && step <= switches; ++step) {
                    const std::uint8_t out = router.port(at, column);
                    const int link = out == kNoPath ? -1 : router.directedLink(at, out);
                    if (link < 0)
                        break;
                    if (link % 2 == 1)  // down-going: the load wFTree balances
                        links.push_back(link);
                    at = router.neighbour(at, out);
                }
            }
            std::sort(links.begin(), links.end());
            links.erase(std::unique(links.begin(), links.end()), links.end());
        }
    }
    return std::shared_ptr<const Metabase::Blueprint>(std::move(blueprint));
}

}  // namespace

Result<MetabaseRun> Metabase::reroute(const Fabric &installedFabric, const ForwardingTables &installed,
                                      const Fabric &fabric, const Tenancy &tenancy, const MetabaseOptions &options)
{
    const QString engine = QStringLiteral("metabase");
    auto fail = [&engine](const QString &why) { return Error{{}, 0, QStringLiteral("%1: %2").arg(engine, why)}; };
    if (!std::isfinite(options.slack) || options.slack < 0)
        return fail(QStringLiteral("the slack must be a finite weight of 0 or more, not %1").arg(options.slack));

    MetabaseRun run;
    QElapsedTimer timer;
    timer.start();
    run.fingerprint = topologyFingerprint(fabric);
    std::shared_ptr<const Blueprint> blueprint;
    auto found = m_blueprints.find(run.fingerprint);
    std::int64_t calcStart = timer.nsecsElapsed();
    if (found != m_blueprints.end()) {
        blueprint = found->second;
        run.hit = true;
    } else {
        Result<std::shared_ptr<const Blueprint>> calculated = calculatePaths(fabric, engine);
        if (!calculated)
            return calculated.error();
        blueprint = calculated.value();
        m_blueprints.emplace(run.fingerprint, blueprint);
        run.calculationNanoseconds = timer.nsecsElapsed() - calcStart;
    }
    const Blueprint &bp = *blueprint;
    run.slotsPerLeaf = bp.slotsPerLeaf;
    run.leaves = bp.leaves;
    const std::int64_t assignStart = timer.nsecsElapsed();

    // The end ports of the fabric as it is now, on their leaves.
    struct Target
    {
        Attachment at;
        int leaf = -1;  // blueprint switch index
        Load weight = 0;
        int slot = -1;
    };
    std::vector<Target> targets;
    for (const Attachment &a : attachedEndPorts(fabric)) {
        auto sw = bp.switchByGuid.find(fabric.node(a.leafNode).guid);
        if (sw == bp.switchByGuid.end() || bp.leafOrdinal[std::size_t(sw->second)] < 0)
            return fail(QStringLiteral("end port %1 hangs off a switch the metabase does not know as a leaf").arg(guidText(a.portGuid)));
        targets.push_back({a, sw->second, Load(FatTreeColumnRouter::kWeightScale), -1});
    }
    std::unordered_map<Guid, std::size_t> targetByGuid;
    for (std::size_t i = 0; i < targets.size(); ++i)
        targetByGuid.emplace(targets[i].at.portGuid, i);
    for (const auto &[guid, w] : tenancy.nodeWeights) {
        if (!std::isfinite(w) || w < 0 || w > 1e12)
            return fail(QStringLiteral("the weight of port %1 is %2; weights must be finite, 0 to 1e12").arg(guidText(guid)).arg(w));
        auto t = targetByGuid.find(guid);
        if (t != targetByGuid.end())
            targets[t->second].weight = Load(std::llround(w * FatTreeColumnRouter::kWeightScale));
    }

    // The ports MpiOrder and Priority list, as targets: each an end port on a leaf, once.
    auto listedTargets = [&](const std::vector<Guid> &guids, const QString &list) -> Result<std::vector<std::size_t>> {
        const QString policy = slotPolicyName(options.policy);
        if (guids.empty())
            return fail(QStringLiteral("%1: %2 is empty").arg(policy, list));
        std::vector<std::size_t> result;
        std::vector<char> seen(targets.size(), 0);
        for (Guid guid : guids) {
            auto t = targetByGuid.find(guid);
            if (t == targetByGuid.end()) {
                // An end node's GUID names its one cabled port.
                const NodeIndex node = fabric.nodeByGuid(guid);
                if (node != kNoIndex && fabric.node(node).type == NodeType::Switch)
                    return fail(QStringLiteral("%1: %2 in %3 is a switch, not an end port").arg(policy, guidText(guid), list));
                int cabled = 0;
                if (node != kNoIndex) {
                    for (int number = 1; number <= fabric.node(node).portCount; ++number) {
                        const PortIndex p = fabric.portOf(node, number);
                        auto found = p == kNoIndex ? targetByGuid.end() : targetByGuid.find(fabric.port(p).guid);
                        if (found != targetByGuid.end()) {
                            t = found;
                            ++cabled;
                        }
                    }
                }
                if (cabled > 1)
                    return fail(QStringLiteral("%1: node %2 in %3 has %4 cabled ports; give the port GUID")
                                    .arg(policy, guidText(guid), list)
                                    .arg(cabled));
                if (cabled == 0)
                    return fail(QStringLiteral("%1: %2 in %3 is not an end port cabled to a leaf of this fabric")
                                    .arg(policy, guidText(guid), list));
            }
            if (seen[t->second])
                return fail(QStringLiteral("%1: port %2 is in %3 twice").arg(policy, guidText(targets[t->second].at.portGuid), list));
            seen[t->second] = 1;
            result.push_back(t->second);
        }
        return result;
    };

    const std::size_t slots = std::size_t(bp.leaves) * std::size_t(bp.slotsPerLeaf);
    std::vector<char> taken(slots, 0);
    // PORT_ORDER's slots: a port takes the index of its rank among its leaf's end ports. Over
    // leaves in ftree index order this is ftree's CA order, the positions MpiOrder hands out.
    std::vector<std::size_t> caOrder(targets.size());
    std::vector<int> portOrderIndex(targets.size(), 0);
    {
        std::iota(caOrder.begin(), caOrder.end(), 0);
        auto ordinal = [&](std::size_t i) { return bp.leafOrdinal[std::size_t(targets[i].leaf)]; };
        std::stable_sort(caOrder.begin(), caOrder.end(), [&](std::size_t a, std::size_t b) {
            return std::make_tuple(ordinal(a), targets[a].at.leafPort) < std::make_tuple(ordinal(b), targets[b].at.leafPort);
        });
        std::vector<int> next(bp.switchGuids.size(), 0);
        for (std::size_t i : caOrder)
            portOrderIndex[i] = next[std::size_t(targets[i].leaf)]++;
    }
    if (options.policy == SlotPolicy::PortOrder) {
        for (std::size_t i = 0; i < targets.size(); ++i)
            targets[i].slot = bp.slot(targets[i].leaf, portOrderIndex[i]);
    } else {
        std::vector<const LinearForwardingTable *> installedLft(bp.switchGuids.size(), nullptr);
        for (std::size_t s = 0; s < bp.switchGuids.size(); ++s)
            if (const SwitchForwardingTable *t = installed.find(bp.switchGuids[s]))
                installedLft[s] = &t->lft;
        // How many switches (the leaf aside) route a target the way a slot's column does.
        auto agreement = [&](const Target &t, int slot) {
            int same = 0;
            for (std::size_t s = 0; s < bp.switchGuids.size(); ++s)
                if (int(s) != t.leaf && installedLft[s] && bp.columns[s][std::size_t(slot)] != kNoPath
                    && installedLft[s]->port(t.at.lid) == bp.columns[s][std::size_t(slot)])
                    ++same;
            return same;
        };
        std::vector<Load> linkLoad(bp.directedLinks, 0);
        auto slotLoad = [&](int slot) {
            Load most = 0;
            for (int l : bp.slotLinks[std::size_t(slot)])
                most = std::max(most, linkLoad[std::size_t(l)]);
            return most;
        };
        auto place = [&](Target &t, int slot) {
            t.slot = slot;
            taken[std::size_t(slot)] = 1;
            for (int l : bp.slotLinks[std::size_t(slot)])
                linkLoad[std::size_t(l)] += t.weight;
        };
        const Load slack = Load(std::llround(options.slack * FatTreeColumnRouter::kWeightScale));
        // WEIGHTED's choice, or STICKY's when `sticky`.
        auto placeWeighted = [&](Target &t, bool sticky) {
            int best = -1, bestAgree = -1, previous = -1, previousAgree = 0;
            Load bestLoad = 0;
            for (int j = 0; j < bp.slotsPerLeaf; ++j) {
                const int slot = bp.slot(t.leaf, j);
                const int agree = sticky ? agreement(t, slot) : 0;
                if (sticky && agree > previousAgree) {
                    previousAgree = agree;
                    previous = slot;
                }
                if (taken[std::size_t(slot)])
                    continue;
                const Load load = slotLoad(slot);
                if (best < 0 || load < bestLoad || (load == bestLoad && agree > bestAgree)) {
                    best = slot;
                    bestLoad = load;
                    bestAgree = agree;
                }
            }
            int chosen = best;
            if (previous >= 0 && !taken[std::size_t(previous)] && slotLoad(previous) <= bestLoad + slack)
                chosen = previous;
            place(t, chosen);
        };
        auto heaviestFirst = [&](std::vector<std::size_t> &order) {
            std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
                if (targets[a].weight != targets[b].weight)
                    return targets[a].weight > targets[b].weight;
                return targets[a].at.portGuid < targets[b].at.portGuid;
            });
        };

        if (options.policy == SlotPolicy::MpiOrder) {
            Result<std::vector<std::size_t>> job = listedTargets(options.nodeOrder, QStringLiteral("the node order"));
            if (!job)
                return job.error();
            // Position r of the job in ftree's CA order, and the slot index PORT_ORDER gives it.
            std::vector<char> inJob(targets.size(), 0);
            for (std::size_t i : *job)
                inJob[i] = 1;
            std::vector<int> positionIndex;
            for (std::size_t i : caOrder)
                if (inJob[i])
                    positionIndex.push_back(portOrderIndex[i]);
            int displaced = 0;
            for (std::size_t rank = 0; rank < job->size(); ++rank) {
                Target &t = targets[(*job)[rank]];
                const int wanted = bp.slot(t.leaf, positionIndex[rank]);
                if (!taken[std::size_t(wanted)]) {
                    place(t, wanted);
                } else {
                    placeWeighted(t, false);
                    ++displaced;
                }
            }
            if (displaced > 0)
                run.reconfiguration.proposal.warnings
                    << QStringLiteral("%1: mpi-order: %2 of %3 ranks could not take the slot of their position in ftree's CA "
                                      "order (another rank on their leaf took it): the rank order does not group ports by "
                                      "leaf as the CA order does, so the shift pattern may block")
                           .arg(engine)
                           .arg(displaced)
                           .arg(job->size());
        } else if (options.policy == SlotPolicy::Priority) {
            Result<std::vector<std::size_t>> high = listedTargets(options.priorityNodes, QStringLiteral("the priority ports"));
            if (!high)
                return high.error();
            heaviestFirst(*high);
            // Per directed link, the priority targets whose slot crosses it.
            std::vector<std::vector<std::size_t>> priorityOn(bp.directedLinks);
            std::vector<std::size_t> stamp(targets.size(), 0);
            std::size_t round = 0;
            auto sharing = [&](int slot) {
                ++round;
                int others = 0;
                for (int l : bp.slotLinks[std::size_t(slot)])
                    for (std::size_t other : priorityOn[std::size_t(l)])
                        if (stamp[other] != round) {
                            stamp[other] = round;
                            ++others;
                        }
                return others;
            };
            for (std::size_t i : *high) {
                Target &t = targets[i];
                int best = -1, bestShared = 0;
                Load bestLoad = 0;
                for (int j = 0; j < bp.slotsPerLeaf; ++j) {
                    const int slot = bp.slot(t.leaf, j);
                    if (taken[std::size_t(slot)])
                        continue;
                    const int shared = sharing(slot);
                    const Load load = slotLoad(slot);
                    if (best < 0 || std::tie(shared, load) < std::tie(bestShared, bestLoad)) {
                        best = slot;
                        bestShared = shared;
                        bestLoad = load;
                    }
                }
                place(t, best);
                for (int l : bp.slotLinks[std::size_t(best)])
                    priorityOn[std::size_t(l)].push_back(i);
            }
        }
        std::vector<std::size_t> order;
        for (std::size_t i = 0; i < targets.size(); ++i)
            if (targets[i].slot < 0)
                order.push_back(i);
        heaviestFirst(order);
        const bool sticky = options.policy == SlotPolicy::Sticky || options.policy == SlotPolicy::MpiOrder;
        for (std::size_t i : order)
            placeWeighted(targets[i], sticky);
    }

    ForwardingTables tables;
    tables.reserve(bp.switchGuids.size());
    std::vector<Lid> switchLid(bp.switchGuids.size(), 0);
    for (std::size_t s = 0; s < bp.switchGuids.size(); ++s) {
        const NodeIndex node = fabric.nodeByGuid(bp.switchGuids[s]);
        switchLid[s] = fabric.nodeLid(node);
        tables.addSwitch(bp.switchGuids[s], switchLid[s], fabric.node(node).description);
    }
    for (std::size_t s = 0; s < bp.switchGuids.size(); ++s) {
        LinearForwardingTable &lft = tables.lft(s);
        lft.reserve(fabric.maxLid());
        const std::vector<std::uint8_t> &column = bp.columns[s];
        for (const Target &t : targets) {
            const std::uint8_t out = int(s) == t.leaf ? t.at.leafPort : column[std::size_t(t.slot)];
            if (out != kNoPath)
                lft.setPort(t.at.lid, out);
        }
        for (std::size_t other = 0; other < bp.switchGuids.size(); ++other) {
            const std::uint8_t out = column[bp.switchColumn(int(other))];
            if (out != kNoPath && switchLid[other] != 0)
                lft.setPort(switchLid[other], out);
        }
    }
    Reconfiguration &result = run.reconfiguration;
    result.proposal.engine = engine;
    result.proposal.tables = std::move(tables);
    run.assignmentNanoseconds = timer.nsecsElapsed() - assignStart;
    result.proposalNanoseconds = timer.nsecsElapsed();
    routing::finishReconfiguration(result, options.baselineEngine, installedFabric, installed, fabric, tenancy);
    return run;
}

Result<MetabaseRun> Metabase::reroute(const Fabric &fabric, const ForwardingTables &installed, const Tenancy &tenancy,
                                      const MetabaseOptions &options)
{
    return reroute(fabric, installed, fabric, tenancy, options);
}

}  // namespace weft
