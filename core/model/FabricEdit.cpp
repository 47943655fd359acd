#include "FabricEdit.h"

namespace weft {

Result<Fabric> editedFabric(const Fabric &fabric, const FabricEdit &edit)
{
    auto removed = [&edit](NodeIndex n) { return !edit.removedNodes.empty() && edit.removedNodes[std::size_t(n)]; };
    auto cut = [&edit](PortIndex p) { return !edit.cutPorts.empty() && edit.cutPorts[std::size_t(p)]; };
    auto lidOf = [&](PortIndex p) { return edit.lids.empty() ? fabric.port(p).lid : edit.lids[std::size_t(p)]; };
    auto lmcOf = [&](PortIndex p) { return edit.lmcs.empty() ? int(fabric.port(p).lmc) : int(edit.lmcs[std::size_t(p)]); };
    if ((!edit.removedNodes.empty() && edit.removedNodes.size() != fabric.nodes().size())
        || (!edit.cutPorts.empty() && edit.cutPorts.size() != fabric.ports().size())
        || (!edit.lids.empty() && edit.lids.size() != fabric.ports().size())
        || (!edit.lmcs.empty() && edit.lmcs.size() != fabric.ports().size())
        || (!edit.roles.empty() && edit.roles.size() != fabric.nodes().size()))
        return Error{{}, 0, QStringLiteral("a fabric edit for another fabric")};

    FabricBuilder builder;
    builder.reserve(fabric.nodes().size(), fabric.ports().size());
    std::vector<NodeIndex> created(fabric.nodes().size(), kNoIndex);
    auto check = [](const QString &problem) { return problem.isEmpty() ? Status{Done{}} : Status{Error{{}, 0, problem}}; };
    for (NodeIndex n = 0; n < NodeIndex(fabric.nodes().size()); ++n) {
        if (removed(n))
            continue;
        const Node &node = fabric.node(n);
        FabricBuilder::NodeSpec spec;
        spec.type = node.type;
        spec.guid = node.guid;
        spec.portCount = node.portCount;
        spec.name = node.name;
        spec.description = node.description;
        spec.systemImageGuid = node.systemImageGuid;
        spec.vendorId = node.vendorId;
        spec.deviceId = node.deviceId;
        spec.enhancedPort0 = node.enhancedPort0;
        spec.role = edit.roles.empty() ? node.role : edit.roles[std::size_t(n)];
        if (Status s = check(builder.addNode(spec, &created[std::size_t(n)])); !s)
            return s.error();
        for (int number = 0; number <= node.portCount; ++number) {
            const PortIndex pi = node.firstPort + number;
            const Port &port = fabric.port(pi);
            if (!port.present)
                continue;
            const NodeIndex at = created[std::size_t(n)];
            const bool down = cut(pi) || (port.remote != kNoIndex && removed(fabric.port(port.remote).node));
            Status s = check(builder.setPortGuid(at, number, port.guid));
            if (s && lidOf(pi) != 0)
                s = check(builder.setPortLid(at, number, lidOf(pi), lmcOf(pi)));
            if (s && number > 0 && port.width != 0 && !down)
                s = check(builder.setPortLink(at, number, port.width, port.speed));
            if (s && number > 0 && (port.supportedWidth != 0 || port.supportedSpeed != LinkSpeed::Unknown))
                s = check(builder.setPortSupported(at, number, port.supportedWidth, port.supportedSpeed));
            if (s)
                s = check(builder.setPortState(at, number, down ? PortState::Down : port.state));
            if (!s)
                return s.error();
        }
    }
    for (const Link &l : fabric.links()) {
        const Port &a = fabric.port(l.a);
        const Port &b = fabric.port(l.b);
        if (cut(l.a) || cut(l.b) || removed(a.node) || removed(b.node))
            continue;
        if (Status s = check(builder.connect(created[std::size_t(a.node)], a.number, created[std::size_t(b.node)], b.number)); !s)
            return s.error();
    }
    for (const NodeGroup &g : fabric.nodeGroups())
        for (NodeIndex n : g.nodes)
            if (!removed(n))
                builder.addToGroup(g.name, g.guid, created[std::size_t(n)]);
    return std::move(builder).build();
}

}  // namespace weft
