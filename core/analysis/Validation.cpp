#include "Validation.h"

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
    return QStringLiteral("%1 (LID %2)").arg(portText(fabric, e.port)).arg(e.lid);
}

// Channel dependencies seen inside each switch: for (switch, in port, out port) the VLs on which
// a packet arriving by `in` leaves by `out`. Dense per switch: ports are few, pairs repeat a lot.
class DependencyTable
{
public:
    explicit DependencyTable(const Fabric &fabric) : m_fabric(fabric), m_offset(fabric.nodes().size(), 0)
    {
        std::size_t size = 0;
        for (NodeIndex sw : fabric.switches()) {
            m_offset[std::size_t(sw)] = size;
            const std::size_t ports = std::size_t(fabric.node(sw).portCount) + 1;
            size += ports * ports;
        }
        m_lanes.assign(size, 0);
    }
    void add(NodeIndex sw, int in, int out, std::uint16_t lanes)
    {
        const std::size_t ports = std::size_t(m_fabric.node(sw).portCount) + 1;
        m_lanes[m_offset[std::size_t(sw)] + std::size_t(in) * ports + std::size_t(out)] |= lanes;
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
    for (int vl = 0; vl < 16; ++vl) {
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

ValidationResult validateRouting(const Fabric &fabric, const Tenancy &tenancy, const ForwardingTables &tables,
                                 const LaneAssignment &lanes, const ValidationOptions &options)
{
    ValidationResult result;
    const PartitionMembership membership(fabric, tenancy);
    const std::vector<EndPort> &ends = membership.endPorts();
    RouteTracer tracer(fabric, tables);
    PartitionFlowCounter flowCounter(fabric, membership);
    DependencyTable deps(fabric);
    result.endPorts = ends.size();
    result.switches = fabric.switches().size();

    // Sources grouped by the switch they hang off, then by membership class.
    struct ClassCount
    {
        int membershipClass;
        std::uint64_t count;
    };
    std::vector<NodeIndex> attachSwitches;
    std::vector<std::vector<ClassCount>> classesAt(fabric.nodes().size());
    std::vector<std::vector<int>> endsAt(fabric.nodes().size());
    std::vector<int> detached;  // end ports cabled to another end node
    for (std::size_t e = 0; e < ends.size(); ++e) {
        const NodeIndex sw = ends[e].attachedSwitch;
        if (sw == kNoIndex) {
            detached.push_back(int(e));
            continue;
        }
        if (endsAt[std::size_t(sw)].empty())
            attachSwitches.push_back(sw);
        endsAt[std::size_t(sw)].push_back(int(e));
        std::vector<ClassCount> &counts = classesAt[std::size_t(sw)];
        auto it = std::find_if(counts.begin(), counts.end(), [&](const ClassCount &c) { return c.membershipClass == ends[e].membershipClass; });
        if (it == counts.end())
            counts.push_back({ends[e].membershipClass, 1});
        else
            ++it->count;
    }

    std::vector<std::uint16_t> lanesOfClass(std::size_t(membership.classCount()), 0);
    std::vector<std::uint16_t> lanesAt(fabric.nodes().size(), 0);
    const auto maxReported = qsizetype(options.maxReported);

    for (std::size_t d = 0; d < ends.size(); ++d) {
        const EndPort &destination = ends[d];
        tracer.trace(destination.port, destination.lid);
        for (const std::vector<NodeIndex> &loop : tracer.loops()) {
            ++result.loops;
            if (result.problems.size() < maxReported) {
                QStringList names;
                for (NodeIndex n : loop)
                    names << nodeText(fabric, n);
                names << nodeText(fabric, loop.front());
                result.problems << QStringLiteral("forwarding loop for LID %1 (%2): %3")
                                       .arg(destination.lid).arg(portText(fabric, destination.port), names.join(QStringLiteral(" -> ")));
            }
        }
        for (int c = 0; c < membership.classCount(); ++c)
            lanesOfClass[std::size_t(c)] = membership.sharedLanes(c, destination.membershipClass, lanes);

        auto reportUnreachable = [&](int source, bool mayTalk, const QString &why) {
            QStringList &list = mayTalk ? result.problems : result.managementProblems;
            if (list.size() < maxReported)
                list << QStringLiteral("%1 cannot reach %2: %3").arg(endPortText(fabric, ends[std::size_t(source)]),
                                                                    endPortText(fabric, destination), why);
        };

        for (NodeIndex sw : attachSwitches) {
            const bool arrives = tracer.verdict(sw) == RouteTracer::Verdict::Reaches;
            std::uint16_t inject = 0;
            for (const ClassCount &cc : classesAt[std::size_t(sw)]) {
                std::uint64_t n = cc.count;
                if (sw == destination.attachedSwitch && cc.membershipClass == destination.membershipClass)
                    --n;
                if (n == 0)
                    continue;
                const std::uint16_t classLanes = lanesOfClass[std::size_t(cc.membershipClass)];
                if (classLanes) {
                    result.partitionPairs += n;
                    inject |= classLanes;
                    if (!arrives)
                        result.unreachablePartitionPairs += n;
                } else if (!arrives) {
                    result.unreachableOtherPairs += n;
                }
            }
            if (!arrives) {
                for (int e : endsAt[std::size_t(sw)]) {
                    if (std::size_t(e) == d)
                        continue;
                    const bool talk = lanesOfClass[std::size_t(ends[std::size_t(e)].membershipClass)] != 0;
                    if ((talk ? result.problems : result.managementProblems).size() >= maxReported)
                        break;
                    reportUnreachable(e, talk, tracer.explain(sw, destination.lid));
                }
                continue;
            }
            for (NodeIndex at = sw; at != kNoIndex && (lanesAt[std::size_t(at)] | inject) != lanesAt[std::size_t(at)];
                 at = tracer.nextSwitch(at))
                lanesAt[std::size_t(at)] |= inject;
        }
        for (int e : detached) {
            if (std::size_t(e) == d)
                continue;
            const bool talk = lanesOfClass[std::size_t(ends[std::size_t(e)].membershipClass)] != 0;
            result.partitionPairs += talk ? 1 : 0;
            if (fabric.port(ends[std::size_t(e)].port).remote == destination.port)
                continue;
            (talk ? result.unreachablePartitionPairs : result.unreachableOtherPairs) += 1;
            reportUnreachable(e, talk, QStringLiteral("its cable leads to another end node"));
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
            const int in = fabric.port(fabric.port(tracer.outPort(u)).remote).number;
            deps.add(v, in, fabric.port(tracer.outPort(v)).number, through);
        }
        flowCounter.addDestination(int(d), tracer);
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

}  // namespace weft
