#include "Validation.h"

#include "DestinationPasses.h"

#include <algorithm>
#include <set>

namespace weft {

namespace {

QString nodeText(const Fabric &fabric, NodeIndex n)
{
    const Node &node = fabric.node(n);
    return node.description.isEmpty() ? node.name : node.description;
}

QString endPortText(const Fabric &fabric, const EndPort &e)
{
    return QStringLiteral("%1 (LID %2)").arg(portDisplayName(fabric, e.port)).arg(e.lid);
}

// Channel dependencies seen inside each switch: for (switch, in port, out port) the VLs on which
// a packet arriving by `in` leaves by `out`. Dense per switch: ports are few, pairs repeat a lot.
class DependencyTable
{
public:
    explicit DependencyTable(const Fabric &fabric)
        : m_fabric(fabric), m_offset(offsets(fabric, nullptr))
    {
        std::size_t size = 0;
        offsets(fabric, &size);
        m_lanes.assign(size, 0);
    }
    // Where each switch's entries start, by node; `size`: all entries.
    static std::vector<std::size_t> offsets(const Fabric &fabric, std::size_t *size)
    {
        std::vector<std::size_t> offset(fabric.nodes().size(), 0);
        std::size_t next = 0;
        for (NodeIndex sw : fabric.switches()) {
            offset[std::size_t(sw)] = next;
            const std::size_t ports = std::size_t(fabric.node(sw).portCount) + 1;
            next += ports * ports;
        }
        if (size)
            *size = next;
        return offset;
    }
    // The entry of (sw, in, out) is offsets()[sw] + in * (ports + 1) + out.
    void add(std::size_t entry, std::uint16_t lanes) { m_lanes[entry] |= lanes; }
    void merge(const DependencyTable &other)
    {
        for (std::size_t i = 0; i < m_lanes.size(); ++i)
            m_lanes[i] |= other.m_lanes[i];
    }
    // Every lane some dependency is on.
    std::uint16_t lanesUsed() const
    {
        std::uint16_t used = 0;
        for (std::uint16_t lanes : m_lanes)
            used |= lanes;
        return used;
    }
    std::uint16_t lanes(NodeIndex sw, int in, int out) const
    {
        const std::size_t ports = std::size_t(m_fabric.node(sw).portCount) + 1;
        return m_lanes[m_offset[std::size_t(sw)] + std::size_t(in) * ports + std::size_t(out)];
    }

private:
    const Fabric &m_fabric;
    std::vector<std::size_t> m_offset;
    std::vector<std::uint16_t> m_lanes;
};

// Finds one cycle in the channel dependency graph; empty if there is none. Channels are
// (out port of a directed switch-to-switch link, VL); dependencies never change VL, so each VL
// is a graph of its own.
QStringList findCreditLoop(const Fabric &fabric, const DependencyTable &deps, std::uint64_t *edgeCount)
{
    // Compact ids for the directed switch-to-switch links.
    std::vector<int> channelOf(fabric.ports().size(), -1);
    std::vector<PortIndex> portOfChannel;
    for (NodeIndex sw : fabric.switches()) {
        for (int number = 1; number <= fabric.node(sw).portCount; ++number) {
            const PortIndex p = fabric.portOf(sw, number);
            if (p == kNoIndex || fabric.port(p).remote == kNoIndex)
                continue;
            if (fabric.node(fabric.port(fabric.port(p).remote).node).type != NodeType::Switch)
                continue;
            channelOf[std::size_t(p)] = int(portOfChannel.size());
            portOfChannel.push_back(p);
        }
    }
    const std::size_t channels = portOfChannel.size();
    *edgeCount = 0;
    const std::uint16_t lanesUsed = deps.lanesUsed();
    for (int vl = 0; vl < 16; ++vl) {
        if (!(lanesUsed & (1u << vl)))
            continue;  // no dependency on this lane: a scan would find none
        std::vector<std::vector<int>> next(channels);
        bool any = false;
        for (NodeIndex sw : fabric.switches()) {
            const int ports = fabric.node(sw).portCount;
            for (int in = 1; in <= ports; ++in) {
                const PortIndex inPort = fabric.portOf(sw, in);
                if (inPort == kNoIndex || fabric.port(inPort).remote == kNoIndex)
                    continue;
                const int from = channelOf[std::size_t(fabric.port(inPort).remote)];
                if (from < 0)
                    continue;
                for (int out = 1; out <= ports; ++out) {
                    if (!(deps.lanes(sw, in, out) & (1u << vl)))
                        continue;
                    const int to = channelOf[std::size_t(fabric.portOf(sw, out))];
                    if (to < 0)
                        continue;
                    next[std::size_t(from)].push_back(to);
                    ++*edgeCount;
                    any = true;
                }
            }
        }
        if (!any)
            continue;
        // Iterative depth-first search; a grey successor closes a cycle.
        enum : std::uint8_t { White, Grey, Black };
        std::vector<std::uint8_t> colour(channels, White);
        std::vector<std::pair<int, std::size_t>> stack;
        for (std::size_t root = 0; root < channels; ++root) {
            if (colour[root] != White)
                continue;
            stack.push_back({int(root), 0});
            colour[root] = Grey;
            while (!stack.empty()) {
                auto &[node, edge] = stack.back();
                const std::vector<int> &out = next[std::size_t(node)];
                if (edge == out.size()) {
                    colour[std::size_t(node)] = Black;
                    stack.pop_back();
                    continue;
                }
                const int succ = out[edge++];
                if (colour[std::size_t(succ)] == White) {
                    colour[std::size_t(succ)] = Grey;
                    stack.push_back({succ, 0});
                } else if (colour[std::size_t(succ)] == Grey) {
                    QStringList cycle;
                    bool inCycle = false;
                    for (const auto &frame : stack) {
                        inCycle = inCycle || frame.first == succ;
                        if (inCycle)
                            cycle << QStringLiteral("%1 (VL%2)").arg(directedLinkText(fabric, portOfChannel[std::size_t(frame.first)])).arg(vl);
                    }
                    return cycle;
                }
            }
        }
    }
    return {};
}

}  // namespace

// Sources grouped by the switch they hang off, then by membership class.
struct ValidationPass::Sources
{
    struct ClassCount
    {
        int membershipClass;
        std::uint64_t count;
    };
    std::vector<NodeIndex> attachSwitches;
    std::vector<std::vector<ClassCount>> classesAt;
    std::vector<std::vector<int>> endsAt;
    std::vector<int> detached;  // end ports cabled to another end node
    std::vector<std::uint64_t> serviceAt;  // by attach switch: its end ports on service nodes
    // By a switch's out port to another switch: where the next switch's dependencies of
    // packets that arrive by that cable start (DependencyTable::add(entry)); a port's number.
    std::vector<std::size_t> dependencyRow;
    std::vector<std::uint8_t> number;
};

struct ValidationPass::Shard
{
    explicit Shard(const Fabric &fabric)
        : deps(fabric) {}
    std::uint64_t partitionPairs = 0;
    std::uint64_t unreachablePartitionPairs = 0;
    std::uint64_t unreachableOtherPairs = 0;
    std::uint64_t unreachableServicePairs = 0;
    std::size_t loops = 0;
    DependencyTable deps;
    std::vector<std::uint16_t> lanesOfClass;
    std::vector<std::uint16_t> lanesAt;
    // Destinations with examples to report: bit 0 for problems, bit 1 for management ones.
    std::vector<std::pair<std::size_t, std::uint8_t>> examples;
};

ValidationPass::ValidationPass(const Fabric &fabric, const PartitionMembership &membership, const LaneAssignment &lanes,
                               const ValidationOptions &options)
    : m_fabric(fabric), m_membership(membership), m_lanes(lanes), m_options(options), m_sources(std::make_unique<Sources>())
{
    const std::vector<EndPort> &ends = membership.endPorts();
    Sources &s = *m_sources;
    const std::vector<std::size_t> offset = DependencyTable::offsets(fabric, nullptr);
    s.dependencyRow.assign(fabric.ports().size(), 0);
    s.number.assign(fabric.ports().size(), 0);
    for (std::size_t p = 0; p < fabric.ports().size(); ++p) {
        const Port &port = fabric.port(PortIndex(p));
        s.number[p] = port.number;
        if (port.remote == kNoIndex)
            continue;
        const Port &in = fabric.port(port.remote);
        s.dependencyRow[p] = offset[std::size_t(in.node)] + std::size_t(in.number) * (std::size_t(fabric.node(in.node).portCount) + 1);
    }
    s.classesAt.resize(fabric.nodes().size());
    s.endsAt.resize(fabric.nodes().size());
    s.serviceAt.assign(fabric.nodes().size(), 0);
    for (std::size_t e = 0; e < ends.size(); ++e) {
        const NodeIndex sw = ends[e].attachedSwitch;
        if (sw == kNoIndex) {
            s.detached.push_back(int(e));
            continue;
        }
        if (s.endsAt[std::size_t(sw)].empty())
            s.attachSwitches.push_back(sw);
        s.endsAt[std::size_t(sw)].push_back(int(e));
        if (fabric.node(ends[e].node).role == NodeRole::Service)
            ++s.serviceAt[std::size_t(sw)];
        std::vector<Sources::ClassCount> &counts = s.classesAt[std::size_t(sw)];
        auto it = std::find_if(counts.begin(), counts.end(), [&](const Sources::ClassCount &c) { return c.membershipClass == ends[e].membershipClass; });
        if (it == counts.end())
            counts.push_back({ends[e].membershipClass, 1});
        else
            ++it->count;
    }
}

ValidationPass::~ValidationPass() = default;

void ValidationPass::ShardDeleter::operator()(Shard *shard) const
{
    delete shard;
}

ValidationPass::ShardPointer ValidationPass::shard() const
{
    ShardPointer shard(new Shard(m_fabric));
    shard->lanesOfClass.assign(std::size_t(m_membership.classCount()), 0);
    shard->lanesAt.assign(m_fabric.nodes().size(), 0);
    return shard;
}

void ValidationPass::add(std::size_t d, const RouteTracer &tracer, Shard &shard) const
{
    const Fabric &fabric = m_fabric;
    const std::vector<EndPort> &ends = m_membership.endPorts();
    const Sources &sources = *m_sources;
    const EndPort &destination = ends[d];
    std::vector<std::uint16_t> &lanesOfClass = shard.lanesOfClass;
    std::vector<std::uint16_t> &lanesAt = shard.lanesAt;
    std::uint8_t examples = 0;
    shard.loops += tracer.loops().size();
    if (!tracer.loops().empty())
        examples |= 1;
    for (int c = 0; c < m_membership.classCount(); ++c)
        lanesOfClass[std::size_t(c)] = m_membership.sharedLanes(c, destination.membershipClass, m_lanes);

    const bool toService = fabric.node(destination.node).role == NodeRole::Service;
    for (NodeIndex sw : sources.attachSwitches) {
        const bool arrives = tracer.verdict(sw) == RouteTracer::Verdict::Reaches;
        if (!arrives && toService)
            shard.unreachableServicePairs += sources.serviceAt[std::size_t(sw)] - (sw == destination.attachedSwitch ? 1 : 0);
        std::uint16_t inject = 0;
        for (const Sources::ClassCount &cc : sources.classesAt[std::size_t(sw)]) {
            std::uint64_t n = cc.count;
            if (sw == destination.attachedSwitch && cc.membershipClass == destination.membershipClass)
                --n;
            if (n == 0)
                continue;
            const std::uint16_t classLanes = lanesOfClass[std::size_t(cc.membershipClass)];
            if (classLanes) {
                shard.partitionPairs += n;
                inject |= classLanes;
                if (!arrives)
                    shard.unreachablePartitionPairs += n;
            } else if (!arrives) {
                shard.unreachableOtherPairs += n;
            }
        }
        if (!arrives) {
            for (int e : sources.endsAt[std::size_t(sw)])
                if (std::size_t(e) != d)
                    examples |= lanesOfClass[std::size_t(ends[std::size_t(e)].membershipClass)] != 0 ? 1 : 2;
            continue;
        }
        for (NodeIndex at = sw; at != kNoIndex && (lanesAt[std::size_t(at)] | inject) != lanesAt[std::size_t(at)];
             at = tracer.nextSwitch(at))
            lanesAt[std::size_t(at)] |= inject;
    }
    for (int e : sources.detached) {
        if (std::size_t(e) == d)
            continue;
        const bool talk = lanesOfClass[std::size_t(ends[std::size_t(e)].membershipClass)] != 0;
        shard.partitionPairs += talk ? 1 : 0;
        if (fabric.port(ends[std::size_t(e)].port).remote == destination.port)
            continue;
        (talk ? shard.unreachablePartitionPairs : shard.unreachableOtherPairs) += 1;
        if (toService && fabric.node(ends[std::size_t(e)].node).role == NodeRole::Service)
            ++shard.unreachableServicePairs;
        examples |= talk ? 1 : 2;
    }

    // Dependencies: traffic on u -> v continues v -> w on the same lanes.
    for (NodeIndex u : fabric.switches()) {
        const std::uint16_t through = lanesAt[std::size_t(u)];
        if (!through)
            continue;
        lanesAt[std::size_t(u)] = 0;
        const NodeIndex v = tracer.nextSwitch(u);
        if (v == kNoIndex || tracer.nextSwitch(v) == kNoIndex)
            continue;
        shard.deps.add(sources.dependencyRow[std::size_t(tracer.outPort(u))] + sources.number[std::size_t(tracer.outPort(v))], through);
    }
    if (examples)
        shard.examples.push_back({d, examples});
}

// The examples one destination gives, as one pass through the destinations in order lists them.
void ValidationPass::report(std::size_t d, const RouteTracer &tracer, ValidationResult &result) const
{
    const Fabric &fabric = m_fabric;
    const std::vector<EndPort> &ends = m_membership.endPorts();
    const Sources &sources = *m_sources;
    const EndPort &destination = ends[d];
    const auto maxReported = qsizetype(m_options.maxReported);
    for (const std::vector<NodeIndex> &loop : tracer.loops()) {
        if (result.problems.size() < maxReported) {
            QStringList names;
            for (NodeIndex n : loop)
                names << nodeText(fabric, n);
            names << nodeText(fabric, loop.front());
            result.problems << QStringLiteral("forwarding loop for LID %1 (%2): %3")
                                   .arg(destination.lid)
                                   .arg(portDisplayName(fabric, destination.port), names.join(QStringLiteral(" -> ")));
        }
    }
    const auto talks = [&](int e) {
        return m_membership.sharedLanes(ends[std::size_t(e)].membershipClass, destination.membershipClass, m_lanes) != 0;
    };
    auto reportUnreachable = [&](int source, bool mayTalk, const QString &why) {
        QStringList &list = mayTalk ? result.problems : result.managementProblems;
        if (list.size() < maxReported)
            list << QStringLiteral("%1 cannot reach %2: %3").arg(endPortText(fabric, ends[std::size_t(source)]), endPortText(fabric, destination), why);
    };
    for (NodeIndex sw : sources.attachSwitches) {
        if (tracer.verdict(sw) == RouteTracer::Verdict::Reaches)
            continue;
        for (int e : sources.endsAt[std::size_t(sw)]) {
            if (std::size_t(e) == d)
                continue;
            const bool talk = talks(e);
            if ((talk ? result.problems : result.managementProblems).size() >= maxReported)
                break;
            reportUnreachable(e, talk, tracer.explain(sw, destination.lid));
        }
    }
    for (int e : sources.detached) {
        if (std::size_t(e) == d || fabric.port(ends[std::size_t(e)].port).remote == destination.port)
            continue;
        reportUnreachable(e, talks(e), QStringLiteral("its cable leads to another end node"));
    }
}

ValidationResult ValidationPass::finish(Shards shards, const PartitionFlowCounter &flowCounter,
                                        const ForwardingTables &tables) const
{
    const Fabric &fabric = m_fabric;
    const PartitionMembership &membership = m_membership;
    const LaneAssignment &lanes = m_lanes;
    ValidationResult result;
    result.endPorts = membership.endPorts().size();
    result.switches = fabric.switches().size();
    std::vector<std::pair<std::size_t, std::uint8_t>> examples;
    for (std::size_t t = 0; t < shards.size(); ++t) {
        const Shard &shard = *shards[t];
        result.partitionPairs += shard.partitionPairs;
        result.unreachablePartitionPairs += shard.unreachablePartitionPairs;
        result.unreachableOtherPairs += shard.unreachableOtherPairs;
        result.unreachableServicePairs += shard.unreachableServicePairs;
        result.loops += shard.loops;
        if (t > 0)
            shards.front()->deps.merge(shard.deps);
        examples.insert(examples.end(), shard.examples.begin(), shard.examples.end());
    }
    const DependencyTable &deps = shards.front()->deps;

    // The examples, in destination order, until both lists are full.
    std::sort(examples.begin(), examples.end());
    const auto maxReported = qsizetype(m_options.maxReported);
    if (!examples.empty()) {
        RouteTracer tracer(fabric, tables);
        for (const auto &[d, kinds] : examples) {
            const std::uint8_t open = std::uint8_t((result.problems.size() < maxReported ? 1 : 0)
                                                   | (result.managementProblems.size() < maxReported ? 2 : 0));
            if (!open)
                break;
            if (!(kinds & open))
                continue;
            const EndPort &destination = membership.endPorts()[d];
            tracer.trace(destination.port, destination.lid);
            report(d, tracer, result);
        }
    }

    result.creditLoop = findCreditLoop(fabric, deps, &result.dependencies);
    result.deadlockFree = result.creditLoop.isEmpty();

    std::set<int> lanesInUse;
    for (const auto &partition : membership.partitions())
        lanesInUse.insert(lanes.virtualLane(partition.pkey));
    result.virtualLanes = int(lanesInUse.size());

    // Isolation, per partition.
    std::vector<int> reportOf(membership.partitions().size(), -1);
    for (std::size_t p = 0; p < membership.partitions().size(); ++p) {
        const auto &partition = membership.partitions()[p];
        if (partition.isDefault)
            continue;
        reportOf[p] = int(result.partitions.size());
        PartitionIsolationReport report;
        report.name = partition.name;
        report.pkey = partition.pkey;
        report.policy = partition.policy;
        report.virtualLane = lanes.virtualLane(partition.pkey);
        report.members = partition.members.size();
        result.partitions.push_back(report);
    }
    const auto &perLink = flowCounter.perLink();
    for (std::size_t port = 0; port < perLink.size(); ++port) {
        const auto &onLink = perLink[port];
        for (const auto &[p, count] : onLink) {
            PartitionIsolationReport &report = result.partitions[std::size_t(reportOf[std::size_t(p)])];
            ++report.linksUsed;
            if (onLink.size() < 2)
                continue;
            SharedLinkReport shared;
            shared.from = PortIndex(port);
            shared.link = directedLinkText(fabric, PortIndex(port));
            QStringList sameLane;
            QStringList all;
            for (const auto &[q, qCount] : onLink) {
                if (q == p)
                    continue;
                shared.others.push_back(q);
                all << membership.partitionLabel(q);
                if (lanes.virtualLane(membership.partitions()[std::size_t(q)].pkey) == report.virtualLane)
                    sameLane << membership.partitionLabel(q);
            }
            QString violation;
            if (report.policy == IsolationPolicy::Physical)
                violation = QStringLiteral("phy-isolation: %1 shares %2 with %3").arg(membership.partitionLabel(p), shared.link, all.join(QStringLiteral(", ")));
            else if (report.policy == IsolationPolicy::VirtualLane && !sameLane.isEmpty())
                violation = QStringLiteral("vlane-isolation: %1 shares %2 with %3 on the same VL%4")
                                .arg(membership.partitionLabel(p), shared.link, sameLane.join(QStringLiteral(", ")))
                                .arg(report.virtualLane);
            if (!violation.isEmpty()) {
                ++report.violationCount;
                ++result.policyViolations;
                if (report.violations.size() < maxReported)
                    report.violations << violation;
            }
            report.shared.push_back(std::move(shared));
        }
    }

    result.ok = result.unreachablePartitionPairs == 0 && result.loops == 0 && result.deadlockFree && result.policyViolations == 0;
    return result;
}

ValidationResult validateRouting(const Fabric &fabric, const Tenancy &tenancy, const ForwardingTables &tables,
                                 const LaneAssignment &lanes, const ValidationOptions &options)
{
    const PartitionMembership membership(fabric, tenancy);
    const ValidationPass pass(fabric, membership, lanes, options);
    const std::size_t threads = destinationThreads(options.threads, membership.endPorts().size());
    ValidationPass::Shards shards;
    const auto flows = tracePasses(fabric, membership, tables, threads, std::pair{&pass, &shards});
    return pass.finish(std::move(shards), *flows, tables);
}

}  // namespace weft
