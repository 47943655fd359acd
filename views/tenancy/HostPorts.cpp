#include "HostPorts.h"

namespace weft {

std::vector<Guid> hostPortGuids(const Fabric &fabric)
{
    std::vector<Guid> ports;
    for (NodeIndex n : fabric.endNodes()) {
        const Node &node = fabric.node(n);
        for (int number = 1; number <= node.portCount; ++number) {
            const PortIndex p = fabric.portOf(n, number);
            if (p != kNoIndex && fabric.port(p).present)
                ports.push_back(fabric.port(p).guid);
        }
    }
    return ports;
}

QString hostPortLabel(const Fabric *fabric, Guid port)
{
    const PortIndex p = fabric ? fabric->portByGuid(port) : kNoIndex;
    if (p == kNoIndex)
        return guidText(port);
    const Node &node = fabric->node(fabric->port(p).node);
    const QString name = node.description.isEmpty() ? node.name : node.description;
    if (node.portCount > 1 && node.type != NodeType::Switch)
        return QStringLiteral("%1 / %2").arg(name).arg(fabric->port(p).number);
    return name;
}

}  // namespace weft
