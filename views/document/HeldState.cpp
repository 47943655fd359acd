#include "HeldState.h"

#include "Identifiers.h"

#include <map>

namespace weft {

std::vector<Partition> partitionsHeld(const Fabric &fabric, const PKeyTables &pkeys)
{
    // P_Key -> port GUID -> full member; a port listing a P_Key twice is full if either says so.
    std::map<std::uint16_t, std::map<Guid, bool>> members;
    for (const PortPKeyTable &table : pkeys.ports()) {
        if (table.packed || table.port == kNoIndex)
            continue;
        const Guid guid = fabric.port(table.port).guid;
        for (const std::uint16_t entry : table.entries) {
            const std::uint16_t pkey = entry & kPKeyMask;
            if (pkey == 0)
                continue;
            bool &full = members[pkey][guid];
            full = full || (entry & kPKeyFullMember);
        }
    }
    std::vector<Partition> partitions;
    for (const auto &[pkey, ports] : members) {
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

void nameAfter(std::vector<Partition> &held, const std::vector<Partition> &named)
{
    for (Partition &partition : held)
        for (const Partition &source : named)
            if (source.pkey && partition.pkey && (*source.pkey & kPKeyMask) == *partition.pkey && !source.name.isEmpty())
                partition.name = source.name;
}

}  // namespace weft
