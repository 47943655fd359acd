#pragma once
// Directed routes worked out on a Fabric from the port Weft runs on, as libibmad addresses SMPs
// (ib_portid_t). Internal to weft_live: LiveFabric.cpp and SmpReader.cpp address SMPs with it.

#include "Fabric.h"

#include <infiniband/mad.h>

#include <cstdint>
#include <deque>
#include <vector>

namespace weft {

constexpr int kMaxDirectedHops = 63;  // IB_SUBNET_PATH_HOPS_MAX

// Directed routes from the local port to every switch and to every endpoint port that hangs
// off a switch, worked out on the fabric. A directed SMP is forwarded only by switches, so the
// search goes on from switches alone.
class DirectedRoutes
{
public:
    DirectedRoutes(const Fabric &fabric, Guid localNodeGuid, int localPort) : m_fabric(fabric)
    {
        const NodeIndex local = fabric.nodeByGuid(localNodeGuid);
        if (local == kNoIndex)
            return;
        m_local = local;
        m_nodePaths.assign(fabric.nodes().size(), {});
        m_reached.assign(fabric.nodes().size(), false);
        m_reached[std::size_t(local)] = true;
        std::deque<NodeIndex> queue;
        auto visitFrom = [&](NodeIndex from, int portNumber) {
            const PortIndex p = fabric.portOf(from, portNumber);
            if (p == kNoIndex || fabric.port(p).remote == kNoIndex)
                return;
            const NodeIndex next = fabric.port(fabric.port(p).remote).node;
            if (m_reached[std::size_t(next)])
                return;
            std::vector<std::uint8_t> path = m_nodePaths[std::size_t(from)];
            if (int(path.size()) >= kMaxDirectedHops)
                return;
            path.push_back(std::uint8_t(portNumber));
            m_reached[std::size_t(next)] = true;
            m_nodePaths[std::size_t(next)] = std::move(path);
            if (fabric.node(next).type == NodeType::Switch)
                queue.push_back(next);
        };
        if (fabric.node(local).type == NodeType::Switch) {
            queue.push_back(local);
        } else {
            visitFrom(local, localPort);
        }
        while (!queue.empty()) {
            const NodeIndex s = queue.front();
            queue.pop_front();
            for (int p = 1; p <= fabric.node(s).portCount; ++p)
                visitFrom(s, p);
        }
    }

    // The address of a node (for a switch, all its tables) or of one endpoint port (the SMP
    // must enter the node through that port); by LID when no directed route reaches it.
    bool addressOfNode(NodeIndex node, ib_portid_t *id) const
    {
        if (!m_reached.empty() && m_reached[std::size_t(node)])
            return directed(m_nodePaths[std::size_t(node)], id);
        return byLid(m_fabric.nodeLid(node), id);
    }

    bool addressOfPort(PortIndex portIndex, ib_portid_t *id) const
    {
        const Port &port = m_fabric.port(portIndex);
        const Node &node = m_fabric.node(port.node);
        if (node.type == NodeType::Switch || m_reached.empty())
            return addressOfNode(port.node, id);
        if (port.node == m_local && m_nodePaths[std::size_t(m_local)].empty() && port.number == m_localPort)
            return directed({}, id);
        if (port.remote != kNoIndex) {
            const Port &peer = m_fabric.port(port.remote);
            if (m_fabric.node(peer.node).type == NodeType::Switch && m_reached[std::size_t(peer.node)]) {
                std::vector<std::uint8_t> path = m_nodePaths[std::size_t(peer.node)];
                if (int(path.size()) < kMaxDirectedHops) {
                    path.push_back(peer.number);
                    return directed(path, id);
                }
            }
        }
        return byLid(port.lid, id);
    }

    void setLocalPort(int number) { m_localPort = number; }

private:
    static bool directed(const std::vector<std::uint8_t> &path, ib_portid_t *id)
    {
        *id = ib_portid_t{};
        id->drpath.cnt = int(path.size());
        for (std::size_t i = 0; i < path.size(); ++i)
            id->drpath.p[i + 1] = path[i];
        return true;
    }

    static bool byLid(Lid lid, ib_portid_t *id)
    {
        if (lid == 0)
            return false;
        *id = ib_portid_t{};
        ib_portid_set(id, lid, 0, 0);
        return true;
    }

    const Fabric &m_fabric;
    NodeIndex m_local = kNoIndex;
    int m_localPort = 0;
    std::vector<std::vector<std::uint8_t>> m_nodePaths;
    std::vector<bool> m_reached;
};

}  // namespace weft
