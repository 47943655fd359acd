#pragma once
// Who may talk to whom: partitions (P_Keys with full/limited members and OpenSM's flags),
// tenants (named host groups), each partition's isolation policy, the global policy mode and
// node traffic weights. A plain value; the routing engines read it, the GUI edits it through
// undo commands, and partitions.conf and the project file are its two textual forms.

#include "Fabric.h"

#include <QString>

#include <map>
#include <optional>
#include <vector>

namespace weft {

constexpr std::uint16_t kDefaultPKey = 0x7fff;
constexpr std::uint16_t kPKeyMask = 0x7fff;  // the low 15 bits name a partition

enum class Membership : std::uint8_t { Limited, Full, Both };

// Spec 000-pftree.md §2.5: exactly one per partition; priority phy > vlane > def.
enum class IsolationPolicy : std::uint8_t { Default, VirtualLane, Physical };
// Global: strict fails routing on an unmet policy, best-effort routes and warns.
enum class PolicyMode : std::uint8_t { BestEffort, Strict };

// A multicast group's flags in partitions.conf (mgroup_flag), also used for the IPoIB
// broadcast group of a partition marked `ipoib`. Unset means OpenSM's default.
struct MulticastFlags
{
    std::optional<int> rate;       // IBTA rate code, e.g. 3 = 10 Gb/s
    std::optional<int> mtu;        // IBTA MTU code, e.g. 4 = 2048, 5 = 4096
    std::optional<int> sl;
    std::optional<int> scope;
    std::optional<std::uint32_t> qkey;
    std::optional<int> tclass;
    std::optional<std::uint32_t> flowLabel;

    bool operator==(const MulticastFlags &o) const
    {
        return rate == o.rate && mtu == o.mtu && sl == o.sl && scope == o.scope && qkey == o.qkey
               && tclass == o.tclass && flowLabel == o.flowLabel;
    }
};

struct MulticastGroup
{
    QString mgid;  // as written, e.g. "ff12:401b::0707"
    MulticastFlags flags;
};

struct PartitionMember
{
    enum class Kind : std::uint8_t { PortGuid, All, AllCas, AllSwitches, AllRouters, Self };
    Kind kind = Kind::PortGuid;
    Guid guid = 0;                // for Kind::PortGuid
    Membership membership = Membership::Limited;
    bool explicitMembership = false;  // written as GUID=full; otherwise the partition's defmember

    bool operator==(const PartitionMember &o) const
    {
        return kind == o.kind && guid == o.guid && membership == o.membership
               && explicitMembership == o.explicitMembership;
    }
};

struct Partition
{
    QString name;
    std::optional<std::uint16_t> pkey;  // low 15 bits; nullopt = OpenSM autogenerates one
    bool indx0 = false;
    bool ipoib = false;
    MulticastFlags ipoibFlags;         // flags of the IPoIB broadcast group
    Membership defaultMembership = Membership::Limited;  // defmember=
    std::vector<PartitionMember> members;
    std::vector<MulticastGroup> multicastGroups;
    IsolationPolicy policy = IsolationPolicy::Default;  // Weft's; not in partitions.conf

    int sourceLine = 0;  // where the definition began in the file it came from, if any
};

struct Tenant
{
    QString name;
    std::vector<Guid> members;  // port GUIDs of the tenant's hosts
};

struct Tenancy
{
    std::vector<Partition> partitions;
    std::vector<Tenant> tenants;
    PolicyMode mode = PolicyMode::BestEffort;
    std::map<Guid, double> nodeWeights;  // port GUID -> weight; absent means 1

    const Partition *findPartition(std::uint16_t pkey) const
    {
        for (const Partition &p : partitions)
            if (p.pkey && (*p.pkey & kPKeyMask) == (pkey & kPKeyMask))
                return &p;
        return nullptr;
    }
};

QString policyName(IsolationPolicy policy);  // "phy-isolation", "vlane-isolation", "def-isolation"
std::optional<IsolationPolicy> policyFromName(const QString &name);
QString membershipName(Membership m);        // "full", "limited", "both"

}  // namespace weft
