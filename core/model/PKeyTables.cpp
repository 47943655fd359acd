#include "PKeyTables.h"

#include "Identifiers.h"

#include <algorithm>
#include <deque>
#include <limits>
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

// One port's table as OpenSM's P_Key manager builds it in a sweep, and what it remembers after.
struct PKeyIndexAssignment
{
    std::vector<std::uint16_t> table;
    std::map<std::uint16_t, int> remembered;
};

// OpenSM's per-port memory of indices: P_Key (membership bit included) -> index, and the
// highest index it has handed out (-1: none). That highest index only grows when a P_Key is
// placed beyond it and only falls when the entry holding it is forgotten.
struct PKeyIndexMemory
{
    std::map<std::uint16_t, int> indexOf;
    int last = -1;

    void recomputeLast()
    {
        last = -1;
        for (const auto &[key, i] : indexOf)
            last = std::max(last, i);
    }
    // OpenSM forgets one P_Key at `index`: the first in its map's order (keys in network byte
    // order, as openSmPartitionOrder reads them).
    void forgetIndex(int index)
    {
        auto chosen = indexOf.end();
        for (auto it = indexOf.begin(); it != indexOf.end(); ++it)
            if (it->second == index && (chosen == indexOf.end() || openSmPartitionOrder(it->first) < openSmPartitionOrder(chosen->first)))
                chosen = it;
        if (chosen == indexOf.end())
            return;
        indexOf.erase(chosen);
        if (index == last)
            recomputeLast();
    }
    void remember(std::uint16_t pkey, int index)
    {
        if (index > last)
            last = index;
        indexOf[pkey] = index;
    }
};

// `pending`: the port's P_Keys in OpenSM's processing order; `current`: what the port holds
// (index -> P_Key); `memory`: what OpenSM remembers for the port, or null when not known (then
// taken to be what the port holds; nothing for a port only the simulator has set, 0xffff at
// index 0, which OpenSM did not give). `capacity`: the port's PartitionCap, 0 when not known.
PKeyIndexAssignment assignPKeyIndices(const std::vector<std::uint16_t> &pending, const std::vector<std::uint16_t> &current,
                                      const std::map<std::uint16_t, int> *memory, int capacity)
{
    // Where the port holds each P_Key now (by its low 15 bits; the first entry wins).
    std::unordered_map<std::uint16_t, int> heldAt;
    for (int i = 0; i < int(current.size()); ++i)
        if (baseOf(current[std::size_t(i)]) != 0)
            heldAt.emplace(baseOf(current[std::size_t(i)]), i);

    PKeyIndexMemory remembered;
    if (memory) {
        remembered.indexOf = *memory;
    } else {
        const bool fresh = current.empty() || (current[0] == 0xffff
            && std::all_of(current.begin() + 1, current.end(), [](std::uint16_t k) { return k == 0; }));
        if (!fresh)
            for (int i = 0; i < int(current.size()); ++i)
                if (baseOf(current[std::size_t(i)]) != 0)
                    remembered.indexOf.emplace(current[std::size_t(i)], i);
    }
    remembered.recomputeLast();

    // First pass: a P_Key the port holds is "updated" in place (queued first), any other "new"
    // (queued after, in order). Index 0 is the default P_Key's: another P_Key found there becomes
    // new and its index is forgotten, and so does the default P_Key found anywhere else.
    struct Pending
    {
        std::uint16_t pkey;
        bool isNew;
        int index;
    };
    std::deque<Pending> queue;
    for (std::uint16_t pkey : pending) {
        Pending p{pkey, true, -1};
        if (const auto found = heldAt.find(baseOf(pkey)); found != heldAt.end()) {
            p.isNew = false;
            p.index = found->second;
            if (p.index == 0 && baseOf(pkey) != kDefaultBase) {
                p.isNew = true;
                remembered.forgetIndex(0);
            } else if (p.index != 0 && baseOf(pkey) == kDefaultBase) {
                p.isNew = true;
                remembered.forgetIndex(p.index);
            }
        }
        if (p.isNew)
            queue.push_back(p);
        else
            queue.push_front(p);
    }

    const int maxEntries = capacity > 0 ? capacity : std::numeric_limits<int>::max();
    const int searchEnd = capacity > 0 ? (capacity + kPKeyBlockSize - 1) / kPKeyBlockSize * kPKeyBlockSize : std::numeric_limits<int>::max();
    std::vector<std::uint16_t> table;  // rebuilt from empty blocks: what is not placed is 0
    auto place = [&](int index, std::uint16_t pkey) {
        if (int(table.size()) <= index)
            table.resize(std::size_t((index / kPKeyBlockSize + 1) * kPKeyBlockSize), 0);
        table[std::size_t(index)] = pkey;
    };
    auto freeAt = [&](int index) { return index >= int(table.size()) || baseOf(table[std::size_t(index)]) == 0; };

    // Second pass, in queue order.
    while (!queue.empty()) {
        const Pending p = queue.front();
        queue.pop_front();
        int index = p.index;
        bool fromMemory = false;
        if (p.isNew) {
            const auto known = remembered.indexOf.find(p.pkey);
            if (known != remembered.indexOf.end()) {
                // A P_Key it gave an index before goes back there; never to index 0, which is
                // forgotten and the P_Key queued again.
                if (known->second == 0) {
                    remembered.forgetIndex(0);
                    queue.push_back(p);
                    continue;
                }
                index = known->second;
                fromMemory = true;
            } else {
                // The default P_Key at 0; any other after the highest index handed out.
                index = baseOf(p.pkey) == kDefaultBase ? 0 : remembered.last >= 0 ? remembered.last + 1 : 1;
                if (index >= maxEntries) {
                    // Past the port's capacity: the first empty index from 1, forgetting what
                    // OpenSM remembered there. The default P_Key is not placed then.
                    if (baseOf(p.pkey) == kDefaultBase)
                        continue;
                    int free = 1;
                    while (free < searchEnd && !freeAt(free))
                        ++free;
                    if (free >= searchEnd || free >= maxEntries)
                        continue;
                    index = free;
                    remembered.forgetIndex(index);
                }
            }
        }
        place(index, p.pkey);
        if (!fromMemory)
            remembered.remember(p.pkey, index);
    }
    if (table.empty())
        table.assign(kPKeyBlockSize, 0);
    return {std::move(table), std::move(remembered.indexOf)};
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
        PKeyIndexAssignment assigned = assignPKeyIndices(it != pending.end() ? it->second : none, was ? was->entries : none,
                                                         was && was->remembered ? &*was->remembered : nullptr,
                                                         was ? was->capacity : 0);
        table.entries = std::move(assigned.table);
        table.remembered = std::move(assigned.remembered);
        table.capacity = was ? was->capacity : 0;
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
