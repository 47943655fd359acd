#include "RouteWalk.h"

namespace weft {

TablesByNode::TablesByNode(const Fabric &fabric, const ForwardingTables &tables) : m_tables(fabric.nodes().size(), nullptr)
{
    for (NodeIndex sw : fabric.switches()) {
        const SwitchForwardingTable *t = tables.find(fabric.node(sw).guid);
        m_tables[std::size_t(sw)] = t ? &t->lft : nullptr;
    }
}

}  // namespace weft
