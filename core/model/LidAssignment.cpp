#include "LidAssignment.h"

#include "FabricEdit.h"

#include <algorithm>

namespace weft {

namespace {

// The GUID as OpenSM's maps order it (stored in network byte order, compared as a host integer
// on a little-endian machine).
std::uint64_t mapKey(Guid guid)
{
    std::uint64_t key = 0;
    for (int i = 0; i < 8; ++i)
        key |= ((guid >> (8 * i)) & 0xFF) << (8 * (7 - i));
    return key;
}

bool discovered(const Fabric &fabric, PortIndex p)
{
    const Port &port = fabric.port(p);
    if (!port.present)
        return false;
    const Node &node = fabric.node(port.node);
    return node.type == NodeType::Switch ? port.number == 0 : port.remote != kNoIndex;
}

}  // namespace

Result<Fabric> assignLidsAsOpenSm(const Fabric &fabric, const LidAssignmentOptions &options)
{
    if (options.lmc < 0 || options.lmc > 7)
        return Error{{}, 0, QStringLiteral("LMC %1 is out of range (0-7)").arg(options.lmc)};
    PortIndex sm = options.smPort;
    if (sm == kNoIndex) {
        for (NodeIndex n : fabric.endNodes()) {
            const Node &node = fabric.node(n);
            if (node.type != NodeType::ChannelAdapter)
                continue;
            for (int number = 1; number <= node.portCount && sm == kNoIndex; ++number)
                if (fabric.port(node.firstPort + number).remote != kNoIndex)
                    sm = node.firstPort + number;
            if (sm != kNoIndex)
                break;
        }
        if (sm == kNoIndex)
            return Error{{}, 0, QStringLiteral("no CA with a cable to run the SM on: name the SM's port")};
    } else if (sm < 0 || std::size_t(sm) >= fabric.ports().size() || !discovered(fabric, sm)) {
        return Error{{}, 0, QStringLiteral("the SM's port must be a cabled CA or router port or a switch's port 0")};
    }

    std::vector<PortIndex> order;
    for (PortIndex p = 0; p < PortIndex(fabric.ports().size()); ++p)
        if (p != sm && discovered(fabric, p))
            order.push_back(p);
    std::stable_sort(order.begin(), order.end(),
                     [&](PortIndex a, PortIndex b) { return mapKey(fabric.port(a).guid) < mapKey(fabric.port(b).guid); });
    order.insert(order.begin(), sm);

    FabricEdit edit;
    edit.lids.assign(fabric.ports().size(), 0);
    edit.lmcs.assign(fabric.ports().size(), 0);
    const int lmcLids = 1 << options.lmc;
    const int lmcMask = ~(lmcLids - 1);
    int next = 1;  // the bottom of the one free range: LIDs skipped to align are not returned
    for (PortIndex p : order) {
        const bool switchPort0 = fabric.node(fabric.port(p).node).type == NodeType::Switch;
        const int lids = switchPort0 ? 1 : lmcLids;
        int lid = next;
        if (lids > 1 && (lid & lmcMask) != lid)
            lid = (lid + lmcLids) & lmcMask;
        if (lid + lids - 1 > kMaxUnicastLid)
            return Error{{}, 0, QStringLiteral("the fabric needs more than %1 unicast LIDs with LMC %2").arg(kMaxUnicastLid).arg(options.lmc)};
        edit.lids[std::size_t(p)] = Lid(lid);
        edit.lmcs[std::size_t(p)] = std::uint8_t(switchPort0 ? 0 : options.lmc);
        next = lid + lids;
    }
    return editedFabric(fabric, edit);
}

}  // namespace weft
