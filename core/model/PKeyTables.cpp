#include "PKeyTables.h"

#include "Identifiers.h"

#include <algorithm>
#include <deque>
#include <map>
#include <unordered_map>

namespace weft {

namespace {

constexpr std::uint16_t kDefaultBase = 0x7fff;

std::uint16_t baseOf(std::uint16_t pkey) { return pkey & kPKeyMask; }

// OpenSM keeps its partitions in a qmap keyed by the P_Key in network byte order, read as a
// host integer: on a little-endian host the low byte sorts first. That order decides which new
// P_Key gets the next free index.
std::uint16_t openSmPartitionOrder(std::uint16_t base) { return std::uint16_t((base << 8) | (base >> 8)); }

// Ports OpenSM keeps in its port table and that partitions name: endpoint ports with a link,
// and switch port 0.
bool isEndpointPort(const Fabric &fabric, const Port &port)
{
    if (!port.present)
        return false;
    const Node &node = fabric.node(port.node);
    if (node.type == NodeType::Switch)
        return port.number == 0;
    return port.remote != kNoIndex;
}

void resolveMember(const Fabric &fabric, const PartitionMember &member, const PKeyTableOptions &options,
                   const std::vector<PortIndex> &endpoints, std::vector<PortIndex> *out)
{
    auto typeOf = [&](PortIndex p) { return fabric.node(fabric.port(p).node).type; };
    switch (member.kind) {
    case PartitionMember::Kind::PortGuid: {
        const PortIndex p = fabric.portByGuid(member.guid);
        if (p != kNoIndex && isEndpointPort(fabric, fabric.port(p)))
            out->push_back(p);
        return;
    }
    case PartitionMember::Kind::Self: {
        const PortIndex p = options.smPortGuid ? fabric.portByGuid(options.smPortGuid) : kNoIndex;
        if (p != kNoIndex)
            out->push_back(p);
        return;
    }
    case PartitionMember::Kind::All:
        *out = endpoints;
        return;
    case PartitionMember::Kind::AllCas:
    case PartitionMember::Kind::AllSwitches:
    case PartitionMember::Kind::AllRouters: {
        const NodeType wanted = member.kind == PartitionMember::Kind::AllCas ? NodeType::ChannelAdapter
                                : member.kind == PartitionMember::Kind::AllSwitches ? NodeType::Switch
                                                                                   : NodeType::Router;
        for (PortIndex p : endpoints)
            if (typeOf(p) == wanted)
                out->push_back(p);
        return;
    }
    }
}

// One port's table as osm_pkey_mgr.c builds it: `pending` in OpenSM's processing order,
// `current` what the port holds (index -> P_Key), `accumulated` the indices OpenSM remembers.
std::vector<std::uint16_t> assignIndices(const std::vector<std::uint16_t> &pending,
                                         const std::vector<std::uint16_t> &current)
{
    std::unordered_map<std::uint16_t, int> indexOfBase;  // OpenSM's `keys`
    std::map<std::uint16_t, int> accumulated;             // OpenSM's `accum_pkeys`
    int lastIndex = -1;
    for (int i = 0; i < int(current.size()); ++i) {
        const std::uint16_t pkey = current[std::size_t(i)];
        if (baseOf(pkey) == 0)
            continue;
        indexOfBase.emplace(baseOf(pkey), i);
        accumulated.emplace(pkey, i);
        lastIndex = std::max(lastIndex, i);
    }
    // Ports that OpenSM has not configured yet hold only what the simulator starts them with
    // (0xffff at index 0), which it does not remember as assigned.
    const bool fresh = current.empty() || (current[0] == 0xffff
        && std::all_of(current.begin() + 1, current.end(), [](std::uint16_t k) { return k == 0; }));
    if (fresh) {
        accumulated.clear();
        lastIndex = -1;
    }
    auto forgetIndex = [&](int index) {
        for (auto it = accumulated.begin(); it != accumulated.end(); ++it)
            if (it->second == index) {
                accumulated.erase(it);
                break;
            }
        if (index == lastIndex) {
            lastIndex = -1;
            for (const auto &[key, i] : accumulated)
                lastIndex = std::max(lastIndex, i);
        }
    };

    struct Pending { std::uint16_t pkey; bool isNew; int index; };
    std::deque<Pending> queue;
    std::vector<Pending> updated;
    for (std::uint16_t pkey : pending) {
        Pending p{pkey, true, -1};
        const auto found = indexOfBase.find(baseOf(pkey));
        if (found != indexOfBase.end()) {
            p.isNew = false;
            p.index = found->second;
            // Index 0 belongs to the default P_Key: anything else there moves, and the default
            // moves there.
            if ((p.index == 0 && baseOf(pkey) != kDefaultBase) || (p.index != 0 && baseOf(pkey) == kDefaultBase)) {
                p.isNew = true;
                forgetIndex(p.index);
            }
        }
        if (p.isNew)
            queue.push_back(p);
        else
            updated.push_back(p);
    }
    for (auto it = updated.rbegin(); it != updated.rend(); ++it)
        queue.push_front(*it);

    std::vector<std::uint16_t> table;
    auto place = [&](int index, std::uint16_t pkey) {
        if (int(table.size()) <= index)
            table.resize(std::size_t((index / kPKeyBlockSize + 1) * kPKeyBlockSize), 0);
        table[std::size_t(index)] = pkey;
    };
    while (!queue.empty()) {
        Pending p = queue.front();
        queue.pop_front();
        int index = p.index;
        bool remembered = false;
        if (p.isNew) {
            const auto acc = accumulated.find(p.pkey);
            if (acc != accumulated.end()) {
                if (acc->second == 0) {
                    forgetIndex(0);
                    queue.push_back(p);
                    continue;
                }
                index = acc->second;
                remembered = true;
            } else if (baseOf(p.pkey) == kDefaultBase) {
                index = 0;
            } else {
                index = lastIndex >= 0 ? lastIndex + 1 : 1;
            }
        }
        place(index, p.pkey);
        if (!remembered && accumulated.emplace(p.pkey, index).second)
            lastIndex = std::max(lastIndex, index);
    }
    if (table.empty())
        table.assign(kPKeyBlockSize, 0);
    return table;
}

std::vector<std::uint16_t> packed(const std::vector<std::uint16_t> &table)
{
    std::vector<std::uint16_t> out;
    for (std::uint16_t pkey : table)
        if (baseOf(pkey) != 0)
            out.push_back(pkey);
    const std::size_t blocks = std::max<std::size_t>(1, (out.size() + kPKeyBlockSize - 1) / kPKeyBlockSize);
    out.resize(blocks * kPKeyBlockSize, 0);
    return out;
}

}  // namespace

const PortPKeyTable *PKeyTables::find(PortIndex port) const
{
    const auto it = std::lower_bound(m_ports.begin(), m_ports.end(), port,
                                     [](const PortPKeyTable &t, PortIndex p) { return t.port < p; });
    return it != m_ports.end() && it->port == port ? &*it : nullptr;
}

PKeyTables computePKeyTables(const Fabric &fabric, const std::vector<Partition> &partitions,
                             const PKeyTableOptions &options, const PKeyTables *current)
{
    std::vector<PortIndex> endpoints;
    for (PortIndex p = 0; p < PortIndex(fabric.ports().size()); ++p)
        if (isEndpointPort(fabric, fabric.port(p)))
            endpoints.push_back(p);

    // base P_Key -> port -> full member; Default first, as OpenSM makes it before the file.
    std::map<std::uint16_t, std::map<PortIndex, bool>> members;
    {
        auto &defaults = members[kDefaultBase];
        for (PortIndex p : endpoints)
            defaults[p] = false;
        const PortIndex sm = options.smPortGuid ? fabric.portByGuid(options.smPortGuid) : kNoIndex;
        if (sm != kNoIndex)
            defaults[sm] = true;
    }
    for (const Partition &partition : partitions) {
        if (!partition.pkey)
            continue;
        auto &ports = members[baseOf(*partition.pkey)];
        for (const PartitionMember &member : partition.members) {
            std::vector<PortIndex> resolved;
            resolveMember(fabric, member, options, endpoints, &resolved);
            const Membership m = member.explicitMembership ? member.membership : partition.defaultMembership;
            for (PortIndex p : resolved)
                ports[p] = m != Membership::Limited;
        }
    }

    std::vector<std::uint16_t> order;
    for (const auto &[base, ports] : members)
        if (!ports.empty())
            order.push_back(base);
    std::sort(order.begin(), order.end(), [](std::uint16_t a, std::uint16_t b) {
        return openSmPartitionOrder(a) < openSmPartitionOrder(b);
    });
    // Per port, its P_Keys in the order OpenSM queues them: partition by partition, the limited
    // members' pass before the full members'.
    std::unordered_map<PortIndex, std::vector<std::uint16_t>> pending;
    for (std::uint16_t base : order)
        for (bool full : {false, true})
            for (const auto &[port, isFull] : members[base])
                if (isFull == full)
                    pending[port].push_back(full ? std::uint16_t(base | kPKeyFullMember) : base);

    PKeyTables result;
    static const std::vector<std::uint16_t> none;
    for (PortIndex p : endpoints) {
        const PortPKeyTable *was = current ? current->find(p) : nullptr;
        const auto it = pending.find(p);
        PortPKeyTable table;
        table.port = p;
        table.entries = assignIndices(it != pending.end() ? it->second : none, was ? was->entries : none);
        const Port &port = fabric.port(p);
        if (options.enforceOnSwitchPorts && fabric.node(port.node).type != NodeType::Switch && port.remote != kNoIndex
            && fabric.node(fabric.port(port.remote).node).type == NodeType::Switch) {
            PortPKeyTable peer;
            peer.port = port.remote;
            peer.entries = packed(table.entries);
            peer.packed = true;
            result.m_ports.push_back(std::move(peer));
        }
        result.m_ports.push_back(std::move(table));
    }
    std::sort(result.m_ports.begin(), result.m_ports.end(),
              [](const PortPKeyTable &a, const PortPKeyTable &b) { return a.port < b.port; });
    return result;
}

void addPKeyMemberships(PKeyMemberships &memberships, Guid port, const std::vector<std::uint16_t> &entries)
{
    for (const std::uint16_t entry : entries) {
        const std::uint16_t pkey = baseOf(entry);
        if (pkey == 0)
            continue;
        bool &full = memberships[pkey][port];
        full = full || (entry & kPKeyFullMember);
    }
}

PKeyMemberships heldPKeyMemberships(const Fabric &fabric, const PKeyTables &pkeys)
{
    PKeyMemberships memberships;
    for (const PortPKeyTable &table : pkeys.ports())
        if (!table.packed && table.port != kNoIndex)
            addPKeyMemberships(memberships, fabric.port(table.port).guid, table.entries);
    return memberships;
}

std::vector<Partition> partitionsOf(const PKeyMemberships &memberships)
{
    std::vector<Partition> partitions;
    for (const auto &[pkey, ports] : memberships) {
        if (pkey == kDefaultPKey) {
            int fullMembers = 0;
            for (const auto &[guid, full] : ports)
                fullMembers += full ? 1 : 0;
            if (fullMembers <= 1)
                continue;
        }
        Partition partition;
        partition.pkey = pkey;
        partition.name = pkey == kDefaultPKey ? QStringLiteral("Default") : QStringLiteral("pkey-%1").arg(pkeyText(pkey));
        for (const auto &[guid, full] : ports) {
            PartitionMember member;
            member.guid = guid;
            member.membership = full ? Membership::Full : Membership::Limited;
            member.explicitMembership = true;
            partition.members.push_back(member);
        }
        partitions.push_back(std::move(partition));
    }
    return partitions;
}

std::vector<Partition> partitionsHeld(const Fabric &fabric, const PKeyTables &pkeys)
{
    return partitionsOf(heldPKeyMemberships(fabric, pkeys));
}

void nameAfter(std::vector<Partition> &held, const std::vector<Partition> &named)
{
    for (Partition &partition : held)
        for (const Partition &source : named)
            if (source.pkey && partition.pkey && (*source.pkey & kPKeyMask) == *partition.pkey && !source.name.isEmpty())
                partition.name = source.name;
}

}  // namespace weft
