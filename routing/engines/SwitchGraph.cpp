#include "SwitchGraph.h"

#include <algorithm>
#include <numeric>

namespace weft::routing {

namespace {

// A cable that carries traffic: both ends known and neither end administratively down.
bool usableLink(const Fabric &fabric, const Port &port)
{
    if (port.remote == kNoIndex || port.state == PortState::Down)
        return false;
    return fabric.port(port.remote).state != PortState::Down;
}

}  // namespace

QString SwitchGraph::endPortsWithoutLidText() const
{
    if (endPortsWithoutLid == 0)
        return {};
    return QStringLiteral("; %1 linked CA/router port(s) have no LID and are left out, the first %2: assign LIDs "
                          "(or discover the running subnet, where the SM has)")
        .arg(endPortsWithoutLid).arg(firstEndPortWithoutLid);
}

Result<SwitchGraph> SwitchGraph::build(const Fabric &fabric)
{
    SwitchGraph g;
    g.switchOfNode.assign(fabric.nodes().size(), -1);
    g.maxLid = fabric.maxLid();
    int slotCount = 0;
    for (NodeIndex n : fabric.switches()) {
        const Node &node = fabric.node(n);
        Switch sw;
        sw.node = n;
        sw.guid = node.guid;
        const PortIndex port0 = fabric.portOf(n, 0);
        sw.portGuid = port0 == kNoIndex ? node.guid : fabric.port(port0).guid;
        sw.lid = fabric.nodeLid(n);
        sw.portCount = node.portCount;
        sw.description = node.description;
        sw.firstSlot = slotCount;
        if (sw.lid == 0)
            return Error{{}, 0, QStringLiteral("switch %1 (%2, the topology's node \"%3\") has no LID; assign LIDs before routing")
                                    .arg(guidText(node.guid), node.description.isEmpty() ? node.name : node.description, node.name)};
        slotCount += node.portCount + 1;
        g.switchOfNode[std::size_t(n)] = int(g.switches.size());
        g.switches.push_back(sw);
    }

    // End ports first, so that switch slots can name them.
    std::vector<int> endPortOfPort(fabric.ports().size(), -1);
    bool anyCompute = false;
    for (NodeIndex n : fabric.endNodes())
        anyCompute = anyCompute || fabric.node(n).role == NodeRole::Compute;
    for (PortIndex p = 0; p < PortIndex(fabric.ports().size()); ++p) {
        const Port &port = fabric.port(p);
        const Node &node = fabric.node(port.node);
        if (!port.present || node.type == NodeType::Switch || !usableLink(fabric, port))
            continue;
        if (port.lid == 0) {
            if (g.endPortsWithoutLid++ == 0)
                g.firstEndPortWithoutLid = QStringLiteral("%1 port %2 (%3)").arg(guidText(node.guid)).arg(port.number)
                                               .arg(node.description.isEmpty() ? node.name : node.description);
            continue;
        }
        EndPort e;
        e.node = port.node;
        e.type = node.type;
        e.nodeGuid = node.guid;
        e.portGuid = port.guid;
        e.number = port.number;
        e.lid = port.lid;
        e.lmc = port.lmc;
        e.compute = !anyCompute || node.role == NodeRole::Compute;
        g.maxLmc = std::max(g.maxLmc, int(port.lmc));
        endPortOfPort[std::size_t(p)] = int(g.endPorts.size());
        g.endPorts.push_back(e);
    }

    g.slots.assign(std::size_t(slotCount), Slot{});
    for (std::size_t s = 0; s < g.switches.size(); ++s) {
        const Switch &sw = g.switches[s];
        for (int number = 1; number <= sw.portCount; ++number) {
            const PortIndex p = fabric.portOf(sw.node, number);
            if (p == kNoIndex)
                continue;
            const Port &port = fabric.port(p);
            if (!port.present || !usableLink(fabric, port))
                continue;
            const Port &far = fabric.port(port.remote);
            Slot &slot = g.slots[std::size_t(sw.firstSlot + number)];
            slot.remotePort = far.number;
            const int farSwitch = g.switchOfNode[std::size_t(far.node)];
            if (farSwitch >= 0) {
                slot.remote = Remote::Switch;
                slot.index = farSwitch;
            } else if (endPortOfPort[std::size_t(port.remote)] >= 0) {
                slot.remote = Remote::EndPort;
                slot.index = endPortOfPort[std::size_t(port.remote)];
            }
        }
    }
    for (std::size_t p = 0; p < fabric.ports().size(); ++p) {
        const int e = endPortOfPort[p];
        if (e < 0)
            continue;
        EndPort &end = g.endPorts[std::size_t(e)];
        const Port &far = fabric.port(fabric.port(PortIndex(p)).remote);
        end.remotePort = far.number;
        const int farSwitch = g.switchOfNode[std::size_t(far.node)];
        if (farSwitch >= 0) {
            end.remote = Remote::Switch;
            end.remoteIndex = farSwitch;
        } else if (endPortOfPort[std::size_t(fabric.port(PortIndex(p)).remote)] >= 0) {
            end.remote = Remote::EndPort;
            end.remoteIndex = endPortOfPort[std::size_t(fabric.port(PortIndex(p)).remote)];
        }
    }
    return g;
}

std::uint64_t openSmMapKey(Guid guid)
{
    std::uint64_t key = 0;
    for (int i = 0; i < 8; ++i)
        key |= ((guid >> (8 * i)) & 0xFF) << (8 * (7 - i));
    return key;
}

std::vector<int> switchesInOpenSmOrder(const SwitchGraph &graph)
{
    std::vector<int> order(graph.switches.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        return openSmMapKey(graph.switches[std::size_t(a)].guid) < openSmMapKey(graph.switches[std::size_t(b)].guid);
    });
    return order;
}

ForwardingTables makeTables(const SwitchGraph &graph, const std::vector<std::vector<std::uint8_t>> &lfts)
{
    ForwardingTables tables;
    tables.reserve(graph.switches.size());
    for (std::size_t s = 0; s < graph.switches.size(); ++s) {
        const SwitchGraph::Switch &sw = graph.switches[s];
        const int i = tables.addSwitch(sw.guid, sw.lid, sw.description);
        LinearForwardingTable &lft = tables.lft(std::size_t(i));
        const std::vector<std::uint8_t> &raw = lfts[s];
        lft.reserve(Lid(raw.empty() ? 0 : raw.size() - 1));
        for (std::size_t lid = 0; lid < raw.size(); ++lid) {
            if (raw[lid] != kNoRoute)
                lft.setPort(Lid(lid), raw[lid]);
        }
    }
    return tables;
}

Status checkRoutable(const SwitchGraph &graph, const QString &engine)
{
    if (graph.switches.empty())
        return Error{{}, 0, QStringLiteral("%1: the fabric has no switches to route").arg(engine)};
    if (graph.maxLmc > 0)
        return Error{{}, 0, QStringLiteral("%1: LMC > 0 is not supported yet (a port has LMC %2)").arg(engine).arg(graph.maxLmc)};
    return Done{};
}

Result<SwitchGraph> buildRoutableGraph(const Fabric &fabric, const QString &engine)
{
    Result<SwitchGraph> graph = SwitchGraph::build(fabric);
    if (!graph)
        return graph.error();
    if (Status usable = checkRoutable(*graph, engine); !usable)
        return usable.error();
    return graph;
}

Error cancelledError(const QString &engine)
{
    return Error{{}, 0, QStringLiteral("%1 routing cancelled").arg(engine)};
}

}  // namespace weft::routing
