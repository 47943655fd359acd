#include "Virtualisation.h"

#include "FabricEdit.h"

#include <algorithm>

namespace weft {

namespace {

std::int64_t lidsPerHypervisorBase(LidModel model)
{
    return model == LidModel::Spec ? 1 : 2;  // PF (and vSwitch) LIDs besides the VFs
}

bool parseGuid(const QString &text, Guid *guid)
{
    if (!text.startsWith(QLatin1String("0x"), Qt::CaseInsensitive))
        return false;
    bool ok = false;
    *guid = text.mid(2).toULongLong(&ok, 16);
    return ok;
}

}  // namespace

QString lidSchemeName(LidScheme scheme)
{
    return scheme == LidScheme::Prepopulated ? QStringLiteral("prepopulated") : QStringLiteral("dynamic");
}

std::int64_t lidsNeeded(LidScheme scheme, LidModel model, std::int64_t switches, std::int64_t hypervisors,
                        std::int64_t vfsPerHypervisor, std::int64_t runningVms)
{
    const std::int64_t base = lidsPerHypervisorBase(model);
    if (scheme == LidScheme::Prepopulated)
        return switches + hypervisors * (base + vfsPerHypervisor);
    return switches + hypervisors * base + runningVms;
}

std::int64_t maxVfsPerHypervisor(LidModel model, std::int64_t switches, std::int64_t hypervisors)
{
    if (hypervisors <= 0)
        return -1;
    const std::int64_t room = kUnicastLidCount - switches;
    return room / hypervisors - lidsPerHypervisorBase(model) >= 0 ? room / hypervisors - lidsPerHypervisorBase(model) : -1;
}

std::int64_t maxHypervisors(LidModel model, std::int64_t switches, std::int64_t vfsPerHypervisor)
{
    const std::int64_t room = kUnicastLidCount - switches;
    return room < 0 ? 0 : room / (lidsPerHypervisorBase(model) + vfsPerHypervisor);
}

std::int64_t maxRunningVms(LidModel model, std::int64_t switches, std::int64_t hypervisors)
{
    return kUnicastLidCount - switches - hypervisors * lidsPerHypervisorBase(model);
}

ReconfigurationCostRow reconfigurationCost(std::int64_t nodes, std::int64_t switches)
{
    ReconfigurationCostRow row;
    row.nodes = nodes;
    row.switches = switches;
    row.lids = nodes + switches;
    row.blocksPerSwitch = lftBlocksInUse(int(row.lids));
    row.fullSmps = switches * row.blocksPerSwitch;
    row.maxSwapCopySmps = 2 * switches;
    return row;
}

int Hypervisor::runningVms() const
{
    return int(std::count_if(vfs.begin(), vfs.end(), [](const VirtualFunction &vf) { return vf.lid != 0; }));
}

int VirtualisedFabric::findHypervisor(const QString &text) const
{
    Guid guid = 0;
    const bool byGuid = parseGuid(text, &guid);
    for (std::size_t h = 0; h < hypervisors.size(); ++h) {
        if (byGuid ? hypervisors[h].vSwitchGuid == guid : hypervisors[h].name == text)
            return int(h);
    }
    return -1;
}

bool VirtualisedFabric::findVf(const Fabric &fabric, const QString &text, int *hypervisor, int *vf) const
{
    Guid guid = 0;
    const bool byGuid = parseGuid(text, &guid);
    for (std::size_t h = 0; h < hypervisors.size(); ++h) {
        for (std::size_t v = 0; v < hypervisors[h].vfs.size(); ++v) {
            const Node &node = fabric.node(hypervisors[h].vfs[v].node);
            const bool match = byGuid ? (node.guid == guid || fabric.port(node.firstPort + 1).guid == guid)
                                      : node.description == text;
            if (match) {
                *hypervisor = int(h);
                *vf = int(v);
                return true;
            }
        }
    }
    return false;
}

std::map<Guid, double> vmWeights(const Fabric &fabric, const VirtualisedFabric &virt,
                                 const std::map<Guid, double> &hypervisorWeights)
{
    std::map<Guid, double> result;
    for (const Hypervisor &h : virt.hypervisors) {
        const int vms = h.runningVms();
        if (vms == 0)
            continue;
        const auto given = hypervisorWeights.find(h.vSwitchGuid);
        const double weight = given == hypervisorWeights.end() ? 1.0 : given->second;
        for (const VirtualFunction &vf : h.vfs) {
            const PortIndex port = fabric.portOf(vf.node, 1);
            if (vf.lid != 0 && port != kNoIndex)
                result[fabric.port(port).guid] = weight / vms;
        }
    }
    return result;
}

std::int64_t VirtualisedFabric::runningVms() const
{
    std::int64_t n = 0;
    for (const Hypervisor &h : hypervisors)
        n += h.runningVms();
    return n;
}

Result<VirtualisedFabric> findHypervisors(const Fabric &fabric)
{
    VirtualisedFabric result;
    result.hypervisorOfNode.assign(fabric.nodes().size(), -1);
    std::vector<char> isVSwitch(fabric.nodes().size(), 0);
    std::vector<Hypervisor> found;
    for (NodeIndex s : fabric.switches()) {
        const Node &node = fabric.node(s);
        int switchLinks = 0;
        int caLinks = 0;
        Hypervisor h;
        for (int p = 1; p <= node.portCount; ++p) {
            const Port &port = fabric.port(node.firstPort + p);
            if (port.remote == kNoIndex)
                continue;
            const Port &remote = fabric.port(port.remote);
            if (fabric.node(remote.node).type == NodeType::Switch) {
                ++switchLinks;
                h.upPort = std::uint8_t(p);
                h.leaf = remote.node;
                h.leafPort = remote.number;
            } else if (fabric.node(remote.node).type == NodeType::ChannelAdapter) {
                ++caLinks;
                if (h.pf == kNoIndex) {
                    h.pf = remote.node;
                    h.pfPort = std::uint8_t(p);
                    h.pfLid = remote.lid;
                } else {
                    VirtualFunction vf;
                    vf.node = remote.node;
                    vf.vSwitchPort = std::uint8_t(p);
                    vf.number = int(h.vfs.size()) + 1;
                    vf.lid = remote.lid;
                    h.vfs.push_back(vf);
                }
            }
        }
        if (switchLinks != 1 || caLinks == 0)
            continue;
        h.vSwitch = s;
        h.vSwitchGuid = node.guid;
        h.vSwitchLid = fabric.nodeLid(s);
        const QString suffix = QStringLiteral(" vSwitch");
        h.name = node.description.endsWith(suffix) ? node.description.chopped(suffix.size()) : node.name;
        if (h.pfLid == 0)
            return Error{{}, 0, QStringLiteral("hypervisor %1: its PF has no LID").arg(h.name)};
        isVSwitch[std::size_t(s)] = 1;
        found.push_back(std::move(h));
    }
    if (found.empty())
        return Error{{}, 0, QStringLiteral("the fabric has no hypervisors (switches with a single link to another switch "
                                           "and CAs behind it)")};
    // Leaf by leaf, then leaf port: the order the routing visits them in.
    std::stable_sort(found.begin(), found.end(), [](const Hypervisor &a, const Hypervisor &b) {
        return a.leaf != b.leaf ? a.leaf < b.leaf : a.leafPort < b.leafPort;
    });
    for (const Hypervisor &h : found) {
        if (isVSwitch[std::size_t(h.leaf)])
            return Error{{}, 0, QStringLiteral("hypervisor %1 is cabled to another vSwitch").arg(h.name)};
    }
    for (std::size_t i = 0; i < found.size(); ++i) {
        const Hypervisor &h = found[i];
        result.hypervisorOfNode[std::size_t(h.vSwitch)] = int(i);
        result.hypervisorOfNode[std::size_t(h.pf)] = int(i);
        for (const VirtualFunction &vf : h.vfs) {
            result.hypervisorOfNode[std::size_t(vf.node)] = int(i);
            if (vf.lid == 0)
                result.scheme = LidScheme::Dynamic;
        }
    }
    for (NodeIndex s : fabric.switches()) {
        if (!isVSwitch[std::size_t(s)])
            result.physicalSwitches.push_back(s);
    }
    result.hypervisors = std::move(found);
    return result;
}

Result<Fabric> fabricWithLids(const Fabric &fabric, const std::vector<LidChange> &changes)
{
    std::vector<Lid> lids(fabric.ports().size());
    for (std::size_t p = 0; p < lids.size(); ++p)
        lids[p] = fabric.ports()[p].lid;
    for (const LidChange &c : changes) {
        if (c.port < 0 || std::size_t(c.port) >= lids.size())
            return Error{{}, 0, QStringLiteral("LID change for a port the fabric does not have")};
        lids[std::size_t(c.port)] = c.lid;
    }
    FabricEdit edit;
    edit.lids = std::move(lids);
    return editedFabric(fabric, edit);
}

}  // namespace weft
