#include "Metrics.h"

#include "DestinationPasses.h"

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

bool carriesTraffic(const Fabric &fabric, const EndPort &end)
{
    return end.node == kNoIndex || fabric.node(end.node).role != NodeRole::Service;
}

std::vector<std::vector<int>> modelSourcesOf(const TrafficModel &model, const Fabric &fabric, const std::vector<EndPort> &ends)
{
    std::vector<int> traffic;  // the patterns' end port i is ends[traffic[i]]
    for (std::size_t e = 0; e < ends.size(); ++e)
        if (carriesTraffic(fabric, ends[e]))
            traffic.push_back(int(e));
    if (traffic.size() == ends.size())
        return explicitFlows(model, ends.size());
    const std::vector<std::vector<int>> among = explicitFlows(model, traffic.size());
    std::vector<std::vector<int>> sourcesOf(ends.size());
    for (std::size_t d = 0; d < among.size(); ++d)
        for (int source : among[d])
            sourcesOf[std::size_t(traffic[d])].push_back(traffic[std::size_t(source)]);
    return sourcesOf;
}

// What every destination's pass reads: the links, and the sources by switch and class.
struct MetricsPass::Sources
{
    struct ClassSlot
    {
        int membershipClass;
        std::uint64_t count;
        std::size_t sums;  // its flows and load in Shard::classFlows and classLoad
    };
    std::vector<int> slotOf;  // by out port, into links
    std::vector<LinkLoad> links;
    std::vector<NodeIndex> attachSwitches;
    std::vector<std::vector<ClassSlot>> classesAt;
    std::size_t classSlots = 0;
    std::vector<std::uint64_t> endsAt;
    std::vector<char> talksToItself;
    std::vector<std::vector<int>> sourcesOf;
    bool allPairs = false;
};

struct MetricsPass::Shard
{
    std::size_t receivers = 0;
    std::uint64_t modelFlows = 0;
    std::uint64_t undeliveredFlows = 0;
    // By out port rather than by link: a hop costs one look-up, and one cache line.
    struct LinkSums
    {
        std::uint64_t routes = 0;
        double weightedRoutes = 0;
        std::uint64_t receiverRoutes = 0;
        std::uint64_t flows = 0;
        double load = 0;
    };
    std::vector<LinkSums> links;
    // Per (switch, class): destinations reached, all of the class's sources there together.
    std::vector<std::uint64_t> classFlows;
    std::vector<double> classLoad;
    std::vector<std::uint64_t> reachCount;  // by node
    std::vector<double> reachWeight;
    std::vector<std::pair<std::size_t, char>> selfReach;  // does the end port's own switch reach it
    std::vector<char> classTalks;
    std::vector<std::size_t> stamp;
    std::vector<std::uint64_t> carried;  // model flows through each switch
};

MetricsPass::MetricsPass(const Fabric &fabric, const PartitionMembership &membership, const TrafficModel &model)
    : m_fabric(fabric), m_membership(membership), m_model(model), m_sources(std::make_unique<Sources>())
{
    Sources &s = *m_sources;
    const std::vector<EndPort> &ends = membership.endPorts();
    const std::vector<int> level = nodeLevels(fabric);

    // One slot per directed link, by out port.
    s.slotOf.assign(fabric.ports().size(), -1);
    for (std::size_t p = 0; p < fabric.ports().size(); ++p) {
        const Port &port = fabric.port(PortIndex(p));
        if (!port.present || port.remote == kNoIndex)
            continue;
        LinkLoad link;
        link.from = PortIndex(p);
        link.to = port.remote;
        link.fromLevel = level[std::size_t(port.node)];
        link.toLevel = level[std::size_t(fabric.port(port.remote).node)];
        s.slotOf[p] = int(s.links.size());
        s.links.push_back(link);
    }

    // Sources per switch, by membership class: the end ports that carry traffic (a service node
    // is a destination of routes, never of flows). Every switch an end port hangs off counts its
    // routes.
    s.classesAt.resize(fabric.nodes().size());
    std::vector<char> attached(fabric.nodes().size(), 0);
    for (const EndPort &e : ends) {
        if (e.attachedSwitch == kNoIndex)
            continue;
        if (!attached[std::size_t(e.attachedSwitch)]) {
            attached[std::size_t(e.attachedSwitch)] = 1;
            s.attachSwitches.push_back(e.attachedSwitch);
        }
        if (!carriesTraffic(fabric, e))
            continue;
        auto &slots = s.classesAt[std::size_t(e.attachedSwitch)];
        auto it = std::find_if(slots.begin(), slots.end(), [&](const Sources::ClassSlot &c) { return c.membershipClass == e.membershipClass; });
        if (it == slots.end())
            slots.push_back({e.membershipClass, 1, s.classSlots++});
        else
            ++it->count;
    }
    s.endsAt.assign(fabric.nodes().size(), 0);
    for (const EndPort &e : ends)
        if (e.attachedSwitch != kNoIndex)
            ++s.endsAt[std::size_t(e.attachedSwitch)];
    s.talksToItself.assign(std::size_t(membership.classCount()), 0);
    for (int c = 0; c < membership.classCount(); ++c)
        s.talksToItself[std::size_t(c)] = membership.mayTalk(c, c);
    s.sourcesOf = modelSourcesOf(model, fabric, ends);
    s.allPairs = model.pattern == TrafficPattern::AllToAll || model.pattern == TrafficPattern::PartitionAllToAll;
}

MetricsPass::~MetricsPass() = default;

void MetricsPass::ShardDeleter::operator()(Shard *shard) const
{
    delete shard;
}

bool MetricsPass::exactInAnyOrder() const
{
    // The largest sum is a link's load: at most n² flows of the heaviest weight.
    const std::vector<EndPort> &ends = m_membership.endPorts();
    double heaviest = 0;
    for (const EndPort &e : ends)
        heaviest = std::max(heaviest, e.weight);
    for (int bits = 0; bits <= 20; ++bits) {
        const double unit = std::ldexp(1.0, -bits);
        const bool whole = std::all_of(ends.begin(), ends.end(), [&](const EndPort &e) { return std::floor(e.weight / unit) == e.weight / unit; });
        if (whole)
            return heaviest / unit * double(ends.size()) * double(ends.size()) < std::ldexp(1.0, 52);
    }
    return false;
}

MetricsPass::ShardPointer MetricsPass::shard() const
{
    const Sources &s = *m_sources;
    const std::size_t nodes = m_fabric.nodes().size();
    ShardPointer shard(new Shard);
    shard->links.resize(m_fabric.ports().size());
    shard->classFlows.assign(s.classSlots, 0);
    shard->classLoad.assign(s.classSlots, 0);
    shard->reachCount.assign(nodes, 0);
    shard->reachWeight.assign(nodes, 0);
    shard->classTalks.assign(std::size_t(m_membership.classCount()), 1);
    shard->stamp.assign(nodes, std::size_t(-1));
    shard->carried.assign(nodes, 0);
    return shard;
}

void MetricsPass::add(std::size_t d, const RouteTracer &tracer, Shard &shard) const
{
    const Sources &s = *m_sources;
    const Fabric &fabric = m_fabric;
    const PartitionMembership &membership = m_membership;
    const std::vector<EndPort> &ends = membership.endPorts();
    const TrafficModel &model = m_model;
    const bool allPairs = s.allPairs;
    std::vector<char> &classTalks = shard.classTalks;
    std::vector<std::size_t> &stamp = shard.stamp;
    std::vector<std::uint64_t> &carried = shard.carried;

    const EndPort &destination = ends[d];
    const bool receiver = destination.weight > 1;
    const bool toTraffic = carriesTraffic(fabric, destination);  // else routes only, no flows
    shard.receivers += receiver ? 1 : 0;
    if (destination.attachedSwitch != kNoIndex)
        shard.selfReach.push_back({d, tracer.verdict(destination.attachedSwitch) == RouteTracer::Verdict::Reaches});
    if (model.pattern == TrafficPattern::PartitionAllToAll)
        for (int c = 0; c < membership.classCount(); ++c)
            classTalks[std::size_t(c)] = membership.mayTalk(c, destination.membershipClass);

    for (NodeIndex sw : s.attachSwitches) {
        if (tracer.verdict(sw) != RouteTracer::Verdict::Reaches) {
            if (allPairs && toTraffic)
                for (const Sources::ClassSlot &slot : s.classesAt[std::size_t(sw)])
                    if (classTalks[std::size_t(slot.membershipClass)])
                        shard.undeliveredFlows += slot.count - (sw == destination.attachedSwitch && slot.membershipClass == destination.membershipClass ? 1 : 0);
            continue;
        }
        // The destination's routes: every switch its sources' packets pass, once.
        std::uint64_t sources = 0;
        for (const Sources::ClassSlot &slot : s.classesAt[std::size_t(sw)]) {
            std::uint64_t n = slot.count;
            if (sw == destination.attachedSwitch && slot.membershipClass == destination.membershipClass)
                --n;
            if (allPairs && toTraffic && n && classTalks[std::size_t(slot.membershipClass)]) {
                sources += n;
                shard.classFlows[slot.sums] += 1;
                shard.classLoad[slot.sums] += destination.weight;
            }
        }
        shard.reachCount[std::size_t(sw)] += 1;
        shard.reachWeight[std::size_t(sw)] += destination.weight;
        const bool onlyTheDestination = sw == destination.attachedSwitch && s.endsAt[std::size_t(sw)] == 1;
        for (NodeIndex at = sw; at != kNoIndex && !onlyTheDestination; at = tracer.nextSwitch(at)) {
            if (stamp[std::size_t(at)] == d)
                break;
            stamp[std::size_t(at)] = d;
            Shard::LinkSums &link = shard.links[std::size_t(tracer.outPort(at))];
            ++link.routes;
            link.weightedRoutes += destination.weight;
            if (receiver)
                ++link.receiverRoutes;
        }
        carried[std::size_t(sw)] += sources;
    }
    if (allPairs) {
        // Flows accumulate down the tree: walk each source switch's share to the destination.
        for (NodeIndex sw : s.attachSwitches) {
            const std::uint64_t n = carried[std::size_t(sw)];
            if (!n)
                continue;
            carried[std::size_t(sw)] = 0;
            shard.modelFlows += n;
            for (NodeIndex at = sw; at != kNoIndex; at = tracer.nextSwitch(at)) {
                Shard::LinkSums &link = shard.links[std::size_t(tracer.outPort(at))];
                link.flows += n;
                link.load += double(n) * destination.weight;
            }
        }
    } else {
        for (int source : s.sourcesOf[d]) {
            ++shard.modelFlows;
            const EndPort &from = ends[std::size_t(source)];
            const NodeIndex sw = from.attachedSwitch;
            if (sw == kNoIndex || tracer.verdict(sw) != RouteTracer::Verdict::Reaches) {
                const bool direct = fabric.port(from.port).remote == destination.port;
                if (!direct)
                    ++shard.undeliveredFlows;
                if (direct) {
                    Shard::LinkSums &link = shard.links[std::size_t(from.port)];
                    ++link.flows;
                    link.load += destination.weight;
                }
                continue;
            }
            Shard::LinkSums &own = shard.links[std::size_t(from.port)];
            ++own.flows;
            own.load += destination.weight;
            for (NodeIndex at = sw; at != kNoIndex; at = tracer.nextSwitch(at)) {
                Shard::LinkSums &link = shard.links[std::size_t(tracer.outPort(at))];
                ++link.flows;
                link.load += destination.weight;
            }
        }
    }
}

Metrics MetricsPass::finish(Shards shards, const PartitionFlowCounter &flowCounter) const
{
    const Sources &s = *m_sources;
    const PartitionMembership &membership = m_membership;
    const std::vector<EndPort> &ends = membership.endPorts();
    const TrafficModel &model = m_model;
    const bool allPairs = s.allPairs;
    const std::vector<int> &slotOf = s.slotOf;
    Metrics metrics;
    metrics.model = model;
    metrics.endPorts = ends.size();
    metrics.links = s.links;

    Shard &sum = *shards.front();
    for (std::size_t t = 1; t < shards.size(); ++t) {
        const Shard &shard = *shards[t];
        sum.receivers += shard.receivers;
        sum.modelFlows += shard.modelFlows;
        sum.undeliveredFlows += shard.undeliveredFlows;
        for (std::size_t p = 0; p < sum.links.size(); ++p) {
            sum.links[p].routes += shard.links[p].routes;
            sum.links[p].weightedRoutes += shard.links[p].weightedRoutes;
            sum.links[p].receiverRoutes += shard.links[p].receiverRoutes;
            sum.links[p].flows += shard.links[p].flows;
            sum.links[p].load += shard.links[p].load;
        }
        for (std::size_t i = 0; i < s.classSlots; ++i) {
            sum.classFlows[i] += shard.classFlows[i];
            sum.classLoad[i] += shard.classLoad[i];
        }
        for (std::size_t n = 0; n < sum.reachCount.size(); ++n) {
            sum.reachCount[n] += shard.reachCount[n];
            sum.reachWeight[n] += shard.reachWeight[n];
        }
        sum.selfReach.insert(sum.selfReach.end(), shard.selfReach.begin(), shard.selfReach.end());
    }
    std::vector<std::uint64_t> receiverRoutes(metrics.links.size(), 0);
    for (std::size_t i = 0; i < metrics.links.size(); ++i) {
        LinkLoad &link = metrics.links[i];
        const Shard::LinkSums &sums = sum.links[std::size_t(link.from)];
        link.routes = sums.routes;
        link.weightedRoutes = sums.weightedRoutes;
        link.flows = sums.flows;
        link.load = sums.load;
        receiverRoutes[i] = sums.receiverRoutes;
    }
    std::vector<char> selfReach(ends.size(), 0);
    for (const auto &[d, reaches] : sum.selfReach)
        selfReach[d] = reaches;
    metrics.contention.receivers = sum.receivers;
    metrics.modelFlows = sum.modelFlows;
    metrics.undeliveredFlows = sum.undeliveredFlows;
    if (allPairs)
        metrics.modelFlows += metrics.undeliveredFlows;

    // The sources' own cables: routes to every destination their switch reaches but themselves;
    // model flows to every such destination they may talk to.
    for (std::size_t e = 0; e < ends.size(); ++e) {
        const EndPort &source = ends[e];
        if (source.attachedSwitch == kNoIndex)
            continue;
        LinkLoad &own = metrics.links[std::size_t(slotOf[std::size_t(source.port)])];
        own.routes = sum.reachCount[std::size_t(source.attachedSwitch)] - (selfReach[e] ? 1 : 0);
        own.weightedRoutes = sum.reachWeight[std::size_t(source.attachedSwitch)] - (selfReach[e] ? source.weight : 0);
        if (!allPairs || !carriesTraffic(m_fabric, source))
            continue;
        for (const Sources::ClassSlot &slot : s.classesAt[std::size_t(source.attachedSwitch)]) {
            if (slot.membershipClass != source.membershipClass)
                continue;
            // The slot counted one flow per destination for every source of the slot but the
            // destination itself; take back the one it counted when this source was the destination.
            const bool countedItself = selfReach[e] && slot.count > 1
                && (model.pattern == TrafficPattern::AllToAll || s.talksToItself[std::size_t(slot.membershipClass)]);
            own.flows = sum.classFlows[slot.sums] - (countedItself ? 1 : 0);
            own.load = sum.classLoad[slot.sums] - (countedItself ? source.weight : 0);
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

Metrics computeMetrics(const Fabric &fabric, const Tenancy &tenancy, const ForwardingTables &tables, const TrafficModel &model,
                       int threads)
{
    const PartitionMembership membership(fabric, tenancy);
    const MetricsPass pass(fabric, membership, model);
    const std::size_t count = pass.exactInAnyOrder() ? destinationThreads(threads, membership.endPorts().size()) : 1;
    MetricsPass::Shards shards;
    const auto flows = tracePasses(fabric, membership, tables, count, std::pair{&pass, &shards});
    return pass.finish(std::move(shards), *flows);
}

}  // namespace weft
