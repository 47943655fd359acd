#include "FluidThroughput.h"

#include "PortTelemetry.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <queue>
#include <unordered_map>

namespace weft {

std::vector<FluidFlow> modelFlows(const Fabric &fabric, const Tenancy &tenancy, const TrafficModel &model)
{
    const PartitionMembership membership(fabric, tenancy);
    const std::vector<EndPort> &ends = membership.endPorts();
    std::vector<FluidFlow> flows;
    if (model.pattern == TrafficPattern::AllToAll || model.pattern == TrafficPattern::PartitionAllToAll) {
        const bool anyPair = model.pattern == TrafficPattern::AllToAll;
        for (std::size_t d = 0; d < ends.size(); ++d) {
            if (!carriesTraffic(fabric, ends[d]))
                continue;  // a service node: routed, but no application's traffic
            for (std::size_t s = 0; s < ends.size(); ++s)
                if (s != d && carriesTraffic(fabric, ends[s]) && (anyPair || membership.mayTalk(ends[s].membershipClass, ends[d].membershipClass)))
                    flows.push_back({ends[s].port, ends[d].port, 1});
        }
        return flows;
    }
    const std::vector<std::vector<int>> sourcesOf = modelSourcesOf(model, fabric, ends);
    for (std::size_t d = 0; d < sourcesOf.size(); ++d)
        for (int s : sourcesOf[d])
            flows.push_back({ends[std::size_t(s)].port, ends[d].port, 1});
    return flows;
}

namespace {

bool isEndPort(const Fabric &fabric, PortIndex p)
{
    if (p < 0 || std::size_t(p) >= fabric.ports().size())
        return false;
    const Port &port = fabric.port(p);
    return port.present && port.remote != kNoIndex && port.lid != 0 && fabric.node(port.node).type != NodeType::Switch;
}

// Bytes/s of every cabled out port: its active rate; an unknown one takes its cable's other end,
// then the rate most cables of the fabric have.
std::vector<double> capacities(const Fabric &fabric, QStringList &warnings)
{
    const std::size_t n = fabric.ports().size();
    std::vector<double> capacity(n, 0);
    std::map<double, std::size_t> seen;
    std::size_t unknown = 0;
    for (std::size_t p = 0; p < n; ++p) {
        const Port &port = fabric.port(PortIndex(p));
        if (!port.present || port.remote == kNoIndex)
            continue;
        double c = linkDataBytesPerSecond(port.width, port.speed);
        if (c <= 0) {
            const Port &other = fabric.port(port.remote);
            c = linkDataBytesPerSecond(other.width, other.speed);
        }
        capacity[p] = c;
        if (c > 0)
            ++seen[c];
        else
            ++unknown;
    }
    if (unknown) {
        double common = 0;
        std::size_t most = 0;
        for (const auto &[rate, count] : seen)
            if (count > most) {
                most = count;
                common = rate;
            }
        const bool none = common <= 0;
        if (none)
            common = 1e9;
        for (std::size_t p = 0; p < n; ++p) {
            const Port &port = fabric.port(PortIndex(p));
            if (port.present && port.remote != kNoIndex && capacity[p] <= 0)
                capacity[p] = common;
        }
        warnings << (none ? QStringLiteral("no link gives its active width and speed: every directed cable taken as 1 GB/s")
                          : QStringLiteral("%1 directed cables without an active width and speed taken as %2 GB/s, the rate most cables have")
                                .arg(unknown).arg(common / 1e9, 0, 'f', 2));
    }
    return capacity;
}

}  // namespace

Result<FluidThroughput> fluidThroughput(const Fabric &fabric, const ForwardingTables &tables, const std::vector<FluidFlow> &flows,
                                        const Tenancy &tenancy, const FluidOptions &options)
{
    QElapsedTimer timer;
    timer.start();
    FluidThroughput result;
    result.flows = flows.size();
    result.rates.assign(flows.size(), 0);
    result.bottleneckOf.assign(flows.size(), kNoIndex);
    result.linkCapacity = capacities(fabric, result.warnings);
    result.linkRate.assign(fabric.ports().size(), 0);

    for (std::size_t f = 0; f < flows.size(); ++f) {
        const FluidFlow &flow = flows[f];
        if (!isEndPort(fabric, flow.source) || !isEndPort(fabric, flow.destination))
            return Error{QString(), 0, QStringLiteral("flow %1: %2 is not a cabled end port with a LID").arg(f).arg(isEndPort(fabric, flow.source) ? QStringLiteral("its destination") : QStringLiteral("its source"))};
        if (flow.source == flow.destination)
            return Error{QString(), 0, QStringLiteral("flow %1 goes from %2 to itself").arg(f).arg(portDisplayName(fabric, flow.source))};
        if (!(flow.weight > 0) || !std::isfinite(flow.weight))
            return Error{QString(), 0, QStringLiteral("flow %1 has weight %2; weights must be positive").arg(f).arg(flow.weight)};
    }

    // Routes, one destination at a time; every hop a directed cable, by a compact link id.
    std::vector<std::size_t> order(flows.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return flows[a].destination < flows[b].destination; });
    std::vector<int> linkOf(fabric.ports().size(), -1);
    std::vector<PortIndex> portOfLink;
    std::vector<std::uint32_t> hopsInOrder;
    std::vector<std::uint32_t> lengthOf(flows.size(), 0);
    std::vector<char> delivered(flows.size(), 0);
    RouteTracer tracer(fabric, tables);
    auto linkId = [&](PortIndex p) {
        int &id = linkOf[std::size_t(p)];
        if (id < 0) {
            id = int(portOfLink.size());
            portOfLink.push_back(p);
        }
        return std::uint32_t(id);
    };
    std::vector<std::uint64_t> offsetInOrder(flows.size(), 0);
    for (std::size_t i = 0; i < order.size();) {
        const PortIndex destination = flows[order[i]].destination;
        tracer.trace(destination, fabric.port(destination).lid);
        for (; i < order.size() && flows[order[i]].destination == destination; ++i) {
            const std::size_t f = order[i];
            const PortIndex source = flows[f].source;
            const PortIndex first = fabric.port(source).remote;
            offsetInOrder[f] = hopsInOrder.size();
            if (first == destination) {
                hopsInOrder.push_back(linkId(source));
            } else {
                const NodeIndex sw = fabric.port(first).node;
                if (fabric.node(sw).type != NodeType::Switch || tracer.verdict(sw) != RouteTracer::Verdict::Reaches)
                    continue;
                hopsInOrder.push_back(linkId(source));
                for (NodeIndex at = sw; at != kNoIndex; at = tracer.nextSwitch(at))
                    hopsInOrder.push_back(linkId(tracer.outPort(at)));
            }
            lengthOf[f] = std::uint32_t(hopsInOrder.size() - offsetInOrder[f]);
            delivered[f] = 1;
            if (hopsInOrder.size() > options.maxHops)
                return Error{QString(), 0, QStringLiteral("the flows' routes add up to more than %1 hops: take a sampled traffic model (uniform-random, shift, bisection)").arg(options.maxHops)};
        }
    }

    // Links -> flows (the inverse), and each link's capacity and unfrozen weight.
    const std::size_t links = portOfLink.size();
    std::vector<std::uint64_t> linkStart(links + 1, 0);
    for (std::size_t f = 0; f < flows.size(); ++f)
        for (std::uint32_t h = 0; h < lengthOf[f]; ++h)
            ++linkStart[hopsInOrder[offsetInOrder[f] + h] + 1];
    std::partial_sum(linkStart.begin(), linkStart.end(), linkStart.begin());
    std::vector<std::uint32_t> linkFlows(linkStart.back());
    {
        std::vector<std::uint64_t> fill(linkStart.begin(), linkStart.end() - 1);
        for (std::size_t f = 0; f < flows.size(); ++f)
            for (std::uint32_t h = 0; h < lengthOf[f]; ++h)
                linkFlows[fill[hopsInOrder[offsetInOrder[f] + h]]++] = std::uint32_t(f);
    }
    std::vector<double> remaining(links), weightLeft(links, 0);
    std::vector<std::uint64_t> flowsLeft(links, 0);
    for (std::size_t l = 0; l < links; ++l) {
        remaining[l] = result.linkCapacity[std::size_t(portOfLink[l])];
        flowsLeft[l] = linkStart[l + 1] - linkStart[l];
        for (std::uint64_t k = linkStart[l]; k < linkStart[l + 1]; ++k)
            weightLeft[l] += flows[linkFlows[k]].weight;
    }

    // Progressive filling: the link with the lowest fair share fills first; its flows freeze at
    // that level, and the links they cross lose their rate and weight. A link's share only grows
    // as others fill, so stale heap entries are skipped by comparing with the current share.
    using Entry = std::pair<double, std::uint32_t>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
    auto share = [&](std::size_t l) { return std::max(0.0, remaining[l]) / weightLeft[l]; };
    for (std::size_t l = 0; l < links; ++l)
        if (flowsLeft[l])
            heap.push({share(l), std::uint32_t(l)});
    std::vector<char> frozen(flows.size(), 0);
    std::vector<double> levelOfLink(links, 0);
    std::vector<std::uint64_t> limited(links, 0);
    while (!heap.empty()) {
        const auto [level, l] = heap.top();
        heap.pop();
        if (!flowsLeft[l] || level != share(l))
            continue;
        levelOfLink[l] = level;
        for (std::uint64_t k = linkStart[l]; k < linkStart[l + 1]; ++k) {
            const std::uint32_t f = linkFlows[k];
            if (frozen[f])
                continue;
            frozen[f] = 1;
            const double rate = flows[f].weight * level;
            result.rates[f] = rate;
            result.bottleneckOf[f] = portOfLink[l];
            ++limited[l];
            for (std::uint32_t h = 0; h < lengthOf[f]; ++h) {
                const std::uint32_t m = hopsInOrder[offsetInOrder[f] + h];
                remaining[m] -= rate;
                weightLeft[m] -= flows[f].weight;
                if (--flowsLeft[m] == 0)
                    weightLeft[m] = 0;
                else if (m != l)
                    heap.push({share(m), m});
            }
        }
    }

    // Totals.
    double minRate = 0, sum = 0;
    std::uint64_t counted = 0;
    std::vector<char> sender(fabric.ports().size(), 0);
    std::unordered_map<Guid, std::size_t> tenantOf;
    for (std::size_t t = 0; t < tenancy.tenants.size(); ++t)
        for (Guid g : tenancy.tenants[t].members)
            tenantOf.emplace(g, t);
    result.tenants.resize(tenancy.tenants.size());
    for (std::size_t t = 0; t < tenancy.tenants.size(); ++t)
        result.tenants[t].name = tenancy.tenants[t].name;
    for (std::size_t f = 0; f < flows.size(); ++f) {
        if (!sender[std::size_t(flows[f].source)]) {
            sender[std::size_t(flows[f].source)] = 1;
            result.sendersBytesPerSecond += result.linkCapacity[std::size_t(flows[f].source)];
        }
        if (!delivered[f]) {
            ++result.undelivered;
            continue;
        }
        const double r = result.rates[f];
        minRate = counted ? std::min(minRate, r) : r;
        sum += r;
        ++counted;
        for (std::uint32_t h = 0; h < lengthOf[f]; ++h)
            result.linkRate[std::size_t(portOfLink[hopsInOrder[offsetInOrder[f] + h]])] += r;
        const auto t = tenantOf.find(fabric.port(flows[f].source).guid);
        if (t != tenantOf.end()) {
            ++result.tenants[t->second].flows;
            result.tenants[t->second].bytesPerSecond += r;
        }
    }
    result.totalBytesPerSecond = sum;
    result.minFlowBytesPerSecond = minRate;
    result.meanFlowBytesPerSecond = counted ? sum / double(counted) : 0;
    result.normalized = result.sendersBytesPerSecond > 0 ? std::min(1.0, sum / result.sendersBytesPerSecond) : 0;

    std::vector<std::uint32_t> byLimit;
    for (std::size_t l = 0; l < links; ++l)
        if (limited[l])
            byLimit.push_back(std::uint32_t(l));
    std::sort(byLimit.begin(), byLimit.end(), [&](std::uint32_t a, std::uint32_t b) {
        return limited[a] != limited[b] ? limited[a] > limited[b] : portOfLink[a] < portOfLink[b];
    });
    for (std::size_t i = 0; i < byLimit.size() && i < 20; ++i) {
        const std::uint32_t l = byLimit[i];
        const PortIndex from = portOfLink[l];
        result.bottleneckLinks.push_back({from, fabric.port(from).remote, result.linkCapacity[std::size_t(from)], limited[l],
                                          counted ? double(limited[l]) / double(counted) : 0, levelOfLink[l]});
    }
    result.seconds = double(timer.nsecsElapsed()) / 1e9;
    return result;
}

QJsonObject fluidThroughputToJson(const Fabric &fabric, const FluidThroughput &result)
{
    QJsonArray bottlenecks;
    for (const FluidBottleneck &b : result.bottleneckLinks)
        bottlenecks.append(QJsonObject{{QStringLiteral("from"), portDisplayName(fabric, b.from)},
                                       {QStringLiteral("to"), portDisplayName(fabric, b.to)},
                                       {QStringLiteral("capacity_bytes_per_s"), b.capacity},
                                       {QStringLiteral("flows"), double(b.flows)},
                                       {QStringLiteral("share"), b.share},
                                       {QStringLiteral("rate_bytes_per_s"), b.rate}});
    QJsonArray tenants;
    for (const FluidGroupThroughput &t : result.tenants)
        tenants.append(QJsonObject{{QStringLiteral("name"), t.name}, {QStringLiteral("flows"), double(t.flows)},
                                   {QStringLiteral("bytes_per_s"), t.bytesPerSecond}});
    return {{QStringLiteral("flows"), double(result.flows)},
            {QStringLiteral("undelivered_flows"), double(result.undelivered)},
            {QStringLiteral("total_bytes_per_s"), result.totalBytesPerSecond},
            {QStringLiteral("senders_bytes_per_s"), result.sendersBytesPerSecond},
            {QStringLiteral("normalized"), result.normalized},
            {QStringLiteral("min_flow_bytes_per_s"), result.minFlowBytesPerSecond},
            {QStringLiteral("mean_flow_bytes_per_s"), result.meanFlowBytesPerSecond},
            {QStringLiteral("bottleneck_links"), bottlenecks},
            {QStringLiteral("tenants"), tenants},
            {QStringLiteral("warnings"), QJsonArray::fromStringList(result.warnings)},
            {QStringLiteral("seconds"), result.seconds}};
}

QString fluidThroughputToText(const Fabric &fabric, const FluidThroughput &result)
{
    auto gbs = [](double bytes) { return QStringLiteral("%1 GB/s").arg(bytes / 1e9, 0, 'f', 3); };
    QStringList lines;
    lines << QStringLiteral("throughput (fluid max-min): %1 flows, %2 undelivered; total %3 of the senders' %4 (normalized %5)")
                 .arg(result.flows).arg(result.undelivered).arg(gbs(result.totalBytesPerSecond), gbs(result.sendersBytesPerSecond))
                 .arg(result.normalized, 0, 'f', 4);
    lines << QStringLiteral("  per flow: min %1, mean %2").arg(gbs(result.minFlowBytesPerSecond), gbs(result.meanFlowBytesPerSecond));
    for (const FluidGroupThroughput &t : result.tenants)
        lines << QStringLiteral("  tenant %1: %2 flows, %3").arg(t.name).arg(t.flows).arg(gbs(t.bytesPerSecond));
    if (!result.bottleneckLinks.empty())
        lines << QStringLiteral("  bottleneck links (flows they limit):");
    for (std::size_t i = 0; i < result.bottleneckLinks.size() && i < 5; ++i) {
        const FluidBottleneck &b = result.bottleneckLinks[i];
        lines << QStringLiteral("    %1: %2 flows (%3 %) at %4 each")
                     .arg(directedLinkText(fabric, b.from)).arg(b.flows).arg(100.0 * b.share, 0, 'f', 1).arg(gbs(b.rate));
    }
    for (const QString &w : result.warnings)
        lines << QStringLiteral("  warning: %1").arg(w);
    return lines.join(QLatin1Char('\n'));
}

}  // namespace weft
