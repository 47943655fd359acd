#pragma once
// The P_Key tables OpenSM 3.3.23 programs into the ports of a fabric from a partitions.conf,
// index by index, so that a diff can say which 32-entry PKeyTable blocks it would send.
//
// OpenSM's rules (osm_prtn.c, osm_pkey_mgr.c), as modelled here:
//  - The Default partition 0x7fff always exists with every port a limited member and the SM's
//    own port a full member; a Default rule in the file adds to that. Members apply in order, a
//    later entry overriding an earlier one for the same port; `both` counts as full (OpenSM
//    without allow_both_pkeys). Partitions left with no member are dropped.
//  - Endpoint ports (CA and router ports, switch port 0) get a table. Entries keep their index
//    across sweeps (keep_pkey_indexes, OpenSM's default): a P_Key already in the port's table
//    stays where it is (its membership bit may change), 0x7fff goes to index 0, and a removed
//    P_Key's index is written 0 (the table is rebuilt from empty blocks each sweep).
//  - OpenSM also remembers, per port and for as long as it runs, every P_Key (membership bit
//    included: 0x0001 and 0x8001 are two) at the index it last gave it, removed ones too. A P_Key
//    the port does not hold goes back to the index OpenSM remembers for it; one it never gave
//    goes after the highest remembered index (so a removed P_Key's index is not reused while
//    there is room). Only when that runs past the port's capacity is the first empty index from
//    1 taken. This memory is PortPKeyTable::remembered: what computePKeyTables predicts carries
//    it on; a table read from the fabric does not have it (a commit keeps it between commits,
//    core/commit/PKeyIndexMemory.h), and without it OpenSM is taken to remember what the
//    port holds (what it knows after it starts on a configured fabric).
//  - With partition enforcement on (part_enforce, default both), the switch port facing a CA
//    gets the CA's table packed: its valid entries in index order, no holes.
//  - A block is sent when it differs from what the port holds; a switch port is sent only the
//    blocks its packed table fills.
// Not modelled: indx0 placement, allow_both_pkeys. A table longer than its port's PartitionCap
// (as read from the fabric) is refused by checkPlan (core/commit/Commit.h) before a commit.

#include "Fabric.h"
#include "Tenancy.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace weft {

// Entries per PKeyTable attribute block (one SMP each).
constexpr int kPKeyBlockSize = 32;
constexpr std::uint16_t kPKeyFullMember = 0x8000;

struct PKeyTableOptions
{
    Guid smPortGuid = 0;           // the port OpenSM runs on (SELF, full member of Default); 0 unknown
    bool enforceOnSwitchPorts = true;  // part_enforce other than off
};

struct PortPKeyTable
{
    PortIndex port = kNoIndex;
    // P_Key (with the full-member bit) at each index; 0 is an empty slot. A multiple of 32 long.
    std::vector<std::uint16_t> entries;
    bool packed = false;  // a switch port facing a CA: OpenSM sends only the blocks it fills
    // Entries the port can hold (NodeInfo:PartitionCap, a switch's external port
    // SwitchInfo:PartitionEnforcementCap) when read from the fabric; 0: not known. Not compared.
    int capacity = 0;
    // OpenSM's memory of this port's P_Key indices after the sweep (P_Key with the membership bit
    // -> index; see above), when known: set by computePKeyTables. Not compared.
    std::optional<std::map<std::uint16_t, int>> remembered;

    int blockCount() const { return int(entries.size()) / kPKeyBlockSize; }
    bool operator==(const PortPKeyTable &o) const { return port == o.port && entries == o.entries && packed == o.packed; }
};

class PKeyTables
{
public:
    // Sorted by port index.
    const std::vector<PortPKeyTable> &ports() const { return m_ports; }
    const PortPKeyTable *find(PortIndex port) const;

    // Tables that come from elsewhere than computePKeyTables (read from a live fabric).
    static PKeyTables fromPorts(std::vector<PortPKeyTable> ports)
    {
        std::sort(ports.begin(), ports.end(), [](const PortPKeyTable &a, const PortPKeyTable &b) { return a.port < b.port; });
        PKeyTables tables;
        tables.m_ports = std::move(ports);
        return tables;
    }

    bool operator==(const PKeyTables &o) const { return m_ports == o.m_ports; }
    bool operator!=(const PKeyTables &o) const { return !(*this == o); }

private:
    friend PKeyTables computePKeyTables(const Fabric &, const std::vector<Partition> &,
                                        const PKeyTableOptions &, const PKeyTables *);
    std::vector<PortPKeyTable> m_ports;
};

// The tables OpenSM programs for `partitions`: from a freshly started fabric when `current` is
// null, else moving on from the tables the ports hold now (indices kept, see above) and, where
// `current` has it, OpenSM's memory of indices (PortPKeyTable::remembered).
PKeyTables computePKeyTables(const Fabric &fabric, const std::vector<Partition> &partitions,
                             const PKeyTableOptions &options, const PKeyTables *current = nullptr);

// The other way: the partitions that tables the ports hold amount to (a live fabric's, or a P_Key
// table file's). The tables carry no partition names, so each partition is named by its P_Key.
//
// Who holds each P_Key: P_Key (low 15 bits) -> port GUID -> full member. Only the tables of the
// ports a partitions.conf names count (CA and router ports, switch port 0): a switch port facing a
// CA only mirrors the CA's table. A port that lists a P_Key twice is full if either entry says so.
using PKeyMemberships = std::map<std::uint16_t, std::map<Guid, bool>>;

// Adds one port's table (by the port's GUID) to `memberships`.
void addPKeyMemberships(PKeyMemberships &memberships, Guid port, const std::vector<std::uint16_t> &entries);

// The memberships of every table but the packed ones (a switch port facing a CA).
PKeyMemberships heldPKeyMemberships(const Fabric &fabric, const PKeyTables &pkeys);

// One partition per P_Key, each port a member as its table says (full-member bit set: full, else
// limited), in P_Key order. OpenSM's own Default partition is left out unless ports other than one
// (the SM's) are its full members, as OpenSM adds it whatever partitions.conf says (see above).
std::vector<Partition> partitionsOf(const PKeyMemberships &memberships);

// partitionsOf(heldPKeyMemberships(fabric, pkeys)).
std::vector<Partition> partitionsHeld(const Fabric &fabric, const PKeyTables &pkeys);

// Gives the partitions of `held` the names that `named` (the partitions.conf OpenSM was given)
// has for their P_Keys; the others keep theirs.
void nameAfter(std::vector<Partition> &held, const std::vector<Partition> &named);

}  // namespace weft
