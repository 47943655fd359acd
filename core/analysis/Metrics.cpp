#include "Metrics.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace weft {

namespace {

template <class Value>
Statistics statistics(const std::vector<Value> &values)
{
    Statistics s;
    if (values.empty())
        return s;
    s.max = double(*std::max_element(values.begin(), values.end()));
    s.min = double(*std::min_element(values.begin(), values.end()));
    double sum = 0;
    for (const Value &v : values)
        sum += double(v);
    s.mean = sum / double(values.size());
    double squares = 0;
    for (const Value &v : values)
        squares += (double(v) - s.mean) * (double(v) - s.mean);
    s.stddev = std::sqrt(squares / double(values.size()));
    return s;
}

// Explicit source -> destination pairs of the random and permutation patterns, grouped by
// destination end port.
std::vector<std::vector<int>> explicitFlows(const TrafficModel &model, std::size_t n)
{
    std::vector<std::vector<int>> sourcesOf(n);
    if (n < 2)
        return sourcesOf;
    std::mt19937_64 rng(model.seed);
    switch (model.pattern) {
    case TrafficPattern::UniformRandom:
        for (std::size_t s = 0; s < n; ++s) {
            std::size_t d = std::size_t(uniformBelow(rng, n - 1));
            if (d >= s)
                ++d;
            sourcesOf[d].push_back(int(s));
        }
        break;
    case TrafficPattern::Shift: {
        const std::size_t k = std::size_t(model.shift) % n;
        if (k == 0)
            break;
        for (std::size_t s = 0; s < n; ++s)
            sourcesOf[(s + k) % n].push_back(int(s));
        break;
    }
    case TrafficPattern::RandomBisection: {
        std::vector<int> order(n);
        for (std::size_t i = 0; i < n; ++i)
            order[i] = int(i);
        for (std::size_t i = n - 1; i > 0; --i)
            std::swap(order[i], order[std::size_t(uniformBelow(rng, i + 1))]);
        const std::size_t half = n / 2;
        for (std::size_t i = 0; i < half; ++i) {
            sourcesOf[std::size_t(order[half + i])].push_back(order[i]);
            sourcesOf[std::size_t(order[i])].push_back(order[half + i]);
        }
        break;
    }
    case TrafficPattern::PartitionAllToAll:
    case TrafficPattern::AllToAll: break;
    }
    return sourcesOf;
}

}  // namespace

std::vector<std::vector<int>> modelSourcesOf(const TrafficModel &model, std::size_t endPorts)
{
    return explicitFlows(model, endPorts);
}

Metrics computeMetrics(const Fabric &fabric, const Tenancy &tenancy, const ForwardingTables &tables, const TrafficModel &model)
{
    Metrics metrics;
    metrics.model = model;
    const PartitionMembership membership(fabric, tenancy);
    const std::vector<EndPort> &ends = membership.endPorts();
    RouteTracer tracer(fabric, tables);
    PartitionFlowCounter flowCounter(fabric, membership);
    const std::vector<int> level = nodeLevels(fabric);
    metrics.endPorts = ends.size();

    // One slot per directed link, by out port.
    std::vector<int> slotOf(fabric.ports().size(), -1);
    for (std::size_t p = 0; p < fabric.ports().size(); ++p) {
        const Port &port = fabric.port(PortIndex(p));
        if (!port.present || port.remote == kNoIndex)
            continue;
        LinkLoad link;
        link.from = PortIndex(p);
        link.to = port.remote;
        link.fromLevel = level[std::size_t(port.node)];
        link.toLevel = level[std::size_t(fabric.port(port.remote).node)];
        slotOf[p] = int(metrics.links.size());
        metrics.links.push_back(link);
    }
    std::vector<std::uint64_t> receiverRoutes(metrics.links.size(), 0);

    // Sources per switch, by membership class; accumulators for the sources' own cables.
    struct ClassSlot
    {
        int membershipClass;
        std::uint64_t count;
        std::uint64_t flows = 0;  // destinations reached, all of this class's sources together
        double load = 0;
    };
    std::vector<NodeIndex> attachSwitches;
    std::vector<std::vector<ClassSlot>> classesAt(fabric.nodes().size());
    std::vector<std::uint64_t> reachCount(fabric.nodes().size(), 0);
    std::vector<double> reachWeight(fabric.nodes().size(), 0);
    for (const EndPort &e : ends) {
        if (e.attachedSwitch == kNoIndex)
            continue;
        auto &slots = classesAt[std::size_t(e.attachedSwitch)];
        if (slots.empty())
            attachSwitches.push_back(e.attachedSwitch);
        auto it = std::find_if(slots.begin(), slots.end(), [&](const ClassSlot &c) { return c.membershipClass == e.membershipClass; });
        if (it == slots.end())
            slots.push_back({e.membershipClass, 1});
        else
            ++it->count;
    }
    std::vector<std::uint64_t> endsAt(fabric.nodes().size(), 0);
    for (const EndPort &e : ends)
        if (e.attachedSwitch != kNoIndex)
            ++endsAt[std::size_t(e.attachedSwitch)];
    std::vector<char> selfReach(ends.size(), 0);  // does the end port's own switch reach it
    std::vector<char> talksToItself(std::size_t(membership.classCount()), 0);
    for (int c = 0; c < membership.classCount(); ++c)
        talksToItself[std::size_t(c)] = membership.mayTalk(c, c);

    const std::vector<std::vector<int>> sourcesOf = explicitFlows(model, ends.size());
    const bool allPairs = model.pattern == TrafficPattern::AllToAll || model.pattern == TrafficPattern::PartitionAllToAll;
    std::vector<char> classTalks(std::size_t(membership.classCount()), 1);
    std::vector<std::size_t> stamp(fabric.nodes().size(), std::size_t(-1));
    std::vector<std::uint64_t> carried(fabric.nodes().size(), 0);  // model flows through each switch

    for (std::size_t d = 0; d < ends.size(); ++d) {
        const EndPort &destination = ends[d];
        const bool receiver = destination.weight > 1;
        metrics.contention.receivers += receiver ? 1 : 0;
        tracer.trace(destination.port, destination.lid);
        if (destination.attachedSwitch != kNoIndex)
            selfReach[d] = tracer.verdict(destination.attachedSwitch) == RouteTracer::Verdict::Reaches;
        if (model.pattern == TrafficPattern::PartitionAllToAll)
            for (int c = 0; c < membership.classCount(); ++c)
                classTalks[std::size_t(c)] = membership.mayTalk(c, destination.membershipClass);

        for (NodeIndex sw : attachSwitches) {
            if (tracer.verdict(sw) != RouteTracer::Verdict::Reaches) {
                if (allPairs)
                    for (const ClassSlot &slot : classesAt[std::size_t(sw)])
                        if (classTalks[std::size_t(slot.membershipClass)])
                            metrics.undeliveredFlows += slot.count - (sw == destination.attachedSwitch && slot.membershipClass == destination.membershipClass ? 1 : 0);
                continue;
            }
            // The destination's routes: every switch its sources' packets pass, once.
            std::uint64_t sources = 0;
            for (ClassSlot &slot : classesAt[std::size_t(sw)]) {
                std::uint64_t n = slot.count;
                if (sw == destination.attachedSwitch && slot.membershipClass == destination.membershipClass)
                    --n;
                if (allPairs && n && classTalks[std::size_t(slot.membershipClass)]) {
                    sources += n;
                    slot.flows += 1;
                    slot.load += destination.weight;
                }
            }
            reachCount[std::size_t(sw)] += 1;
            reachWeight[std::size_t(sw)] += destination.weight;
            const bool onlyTheDestination = sw == destination.attachedSwitch && endsAt[std::size_t(sw)] == 1;
            for (NodeIndex at = sw; at != kNoIndex && !onlyTheDestination; at = tracer.nextSwitch(at)) {
                if (stamp[std::size_t(at)] == d)
                    break;
                stamp[std::size_t(at)] = d;
                LinkLoad &link = metrics.links[std::size_t(slotOf[std::size_t(tracer.outPort(at))])];
                ++link.routes;
                link.weightedRoutes += destination.weight;
                if (receiver)
                    ++receiverRoutes[std::size_t(slotOf[std::size_t(tracer.outPort(at))])];
            }
            carried[std::size_t(sw)] += sources;
        }
        if (allPairs) {
            // Flows accumulate down the tree: walk each source switch's share to the destination.
            for (NodeIndex sw : attachSwitches) {
                const std::uint64_t n = carried[std::size_t(sw)];
                if (!n)
                    continue;
                carried[std::size_t(sw)] = 0;
                metrics.modelFlows += n;
                for (NodeIndex at = sw; at != kNoIndex; at = tracer.nextSwitch(at)) {
                    LinkLoad &link = metrics.links[std::size_t(slotOf[std::size_t(tracer.outPort(at))])];
                    link.flows += n;
                    link.load += double(n) * destination.weight;
                }
            }
        } else {
            for (int s : sourcesOf[d]) {
                ++metrics.modelFlows;
                const EndPort &source = ends[std::size_t(s)];
                const NodeIndex sw = source.attachedSwitch;
                if (sw == kNoIndex || tracer.verdict(sw) != RouteTracer::Verdict::Reaches) {
                    const bool direct = fabric.port(source.port).remote == destination.port;
                    if (!direct)
                        ++metrics.undeliveredFlows;
                    if (direct) {
                        LinkLoad &link = metrics.links[std::size_t(slotOf[std::size_t(source.port)])];
                        ++link.flows;
                        link.load += destination.weight;
                    }
                    continue;
                }
                LinkLoad &own = metrics.links[std::size_t(slotOf[std::size_t(source.port)])];
                ++own.flows;
                own.load += destination.weight;
                for (NodeIndex at = sw; at != kNoIndex; at = tracer.nextSwitch(at)) {
                    LinkLoad &link = metrics.links[std::size_t(slotOf[std::size_t(tracer.outPort(at))])];
                    ++link.flows;
                    link.load += destination.weight;
                }
            }
        }
        flowCounter.addDestination(int(d), tracer);
    }
    if (allPairs)
        metrics.modelFlows += metrics.undeliveredFlows;

    // The sources' own cables: routes to every destination their switch reaches but themselves;
    // model flows to every such destination they may talk to.
    for (std::size_t s = 0; s < ends.size(); ++s) {
        const EndPort &source = ends[s];
        if (source.attachedSwitch == kNoIndex)
            continue;
        LinkLoad &own = metrics.links[std::size_t(slotOf[std::size_t(source.port)])];
        own.routes = reachCount[std::size_t(source.attachedSwitch)] - (selfReach[s] ? 1 : 0);
        own.weightedRoutes = reachWeight[std::size_t(source.attachedSwitch)] - (selfReach[s] ? source.weight : 0);
        if (!allPairs)
            continue;
        for (const ClassSlot &slot : classesAt[std::size_t(source.attachedSwitch)]) {
            if (slot.membershipClass != source.membershipClass)
                continue;
            // slot.flows counted one flow per destination for every source of the slot but the
            // destination itself; take back the one it counted when this source was the destination.
            const bool countedItself = selfReach[s] && slot.count > 1
                && (model.pattern == TrafficPattern::AllToAll || talksToItself[std::size_t(slot.membershipClass)]);
            own.flows = slot.flows - (countedItself ? 1 : 0);
            own.load = slot.load - (countedItself ? source.weight : 0);
        }
    }

    // Balance per tier, and over all switch-to-switch links.
    std::map<std::pair<int, int>, std::vector<std::size_t>> byTier;
    std::vector<std::uint64_t> switchRoutes;
    std::vector<double> switchLoad;
    for (std::size_t i = 0; i < metrics.links.size(); ++i) {
        const LinkLoad &link = metrics.links[i];
        byTier[{link.fromLevel, link.toLevel}].push_back(i);
        if (link.fromLevel > 0 && link.toLevel > 0) {
            switchRoutes.push_back(link.routes);
            switchLoad.push_back(link.load);
        }
    }
    for (const auto &[tier, members] : byTier) {
        TierBalance balance;
        balance.fromLevel = tier.first;
        balance.toLevel = tier.second;
        const char *direction = tier.second > tier.first ? "up" : tier.second < tier.first ? "down" : "across";
        balance.name = QStringLiteral("%1->%2 %3").arg(tier.first).arg(tier.second).arg(QLatin1String(direction));
        balance.links = members.size();
        std::vector<std::uint64_t> routes, flows;
        std::vector<double> weighted, load;
        for (std::size_t i : members) {
            routes.push_back(metrics.links[i].routes);
            weighted.push_back(metrics.links[i].weightedRoutes);
            flows.push_back(metrics.links[i].flows);
            load.push_back(metrics.links[i].load);
        }
        balance.routes = statistics(routes);
        balance.weightedRoutes = statistics(weighted);
        balance.flows = statistics(flows);
        balance.load = statistics(load);
        metrics.tiers.push_back(balance);
    }
    metrics.allRoutes = statistics(switchRoutes);
    metrics.allLoad = statistics(switchLoad);

    // Sharing and interference (§4.3, §4.4), contention towards receivers (§4.5).
    std::vector<int> reportOf(membership.partitions().size(), -1);
    for (std::size_t p = 0; p < membership.partitions().size(); ++p) {
        const auto &partition = membership.partitions()[p];
        if (partition.isDefault)
            continue;
        reportOf[p] = int(metrics.partitions.size());
        metrics.partitions.push_back({partition.name, partition.pkey, partition.policy, partition.members.size(), 0, 0, 0});
    }
    const auto &perLink = flowCounter.perLink();
    for (std::size_t port = 0; port < perLink.size(); ++port) {
        const auto &onLink = perLink[port];
        if (onLink.empty())
            continue;
        LinkLoad &link = metrics.links[std::size_t(slotOf[port])];
        const bool shared = onLink.size() >= 2;
        for (std::size_t i = 0; i < onLink.size(); ++i) {
            PartitionSharing &sharing = metrics.partitions[std::size_t(reportOf[std::size_t(onLink[i].first)])];
            link.partitions.push_back(reportOf[std::size_t(onLink[i].first)]);
            ++sharing.linksUsed;
            sharing.flows += onLink[i].second;
            if (!shared)
                continue;
            ++sharing.sharedLinks;
            metrics.interference += onLink[i].second;
            for (std::size_t j = i + 1; j < onLink.size(); ++j)
                metrics.interferencePairwise += onLink[i].second * onLink[j].second;
        }
        if (shared) {
            ++metrics.sharedLinks;
            if (link.toLevel > link.fromLevel)
                ++metrics.sharedLinksUp;
            else if (link.toLevel < link.fromLevel)
                ++metrics.sharedLinksDown;
        }
    }
    for (std::size_t i = 0; i < metrics.links.size(); ++i) {
        const LinkLoad &link = metrics.links[i];
        if (link.fromLevel <= 0 || link.toLevel <= 0 || receiverRoutes[i] == 0)
            continue;
        const std::uint64_t excess = receiverRoutes[i] - 1;
        if (link.toLevel < link.fromLevel) {
            metrics.contention.totalDown += excess;
            metrics.contention.contendedDown += excess > 0 ? 1 : 0;
        } else if (link.toLevel > link.fromLevel) {
            metrics.contention.totalUp += excess;
            metrics.contention.contendedUp += excess > 0 ? 1 : 0;
        }
    }
    return metrics;
}

}  // namespace weft
