// libFuzzer target: the partitions.conf reader.
#include "FuzzInput.h"
#include "PartitionsConf.h"

#include <map>

namespace {

using namespace weft;

// A partition's multicast groups by GID text: the writer may move IP groups under a later
// definition of their own, so their order is not content, their flags are.
std::map<QString, MulticastFlags> groupsOf(const Partition &p)
{
    std::map<QString, MulticastFlags> groups;
    for (const MulticastGroup &g : p.multicastGroups)
        groups.emplace(g.mgid, g.flags);
    return groups;
}

bool sameGroups(const std::map<QString, MulticastFlags> &a, const std::map<QString, MulticastFlags> &b)
{
    if (a.size() != b.size())
        return false;
    for (auto i = a.begin(), j = b.begin(); i != a.end(); ++i, ++j)
        if (i->first != j->first || !(i->second == j->second))
            return false;
    return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const Result<PartitionsConfResult> conf = readPartitionsConf(fuzz::input(data, size), QStringLiteral("fuzz.conf"));
    if (!conf)
        return 0;
    const QByteArray written = writePartitionsConf(conf->partitions);
    const Result<PartitionsConfResult> again = readPartitionsConf(written, QStringLiteral("rewritten.conf"));
    if (!again)
        fuzz::broken("a partitions.conf Weft read, written back, is refused by Weft's reader");
    // An empty list is written as the Default rule OpenSM applies to it (the reader refuses a
    // file without a partition, so this cannot happen here; kept as the writer's contract).
    if (again->partitions.size() != conf->partitions.size())
        fuzz::broken("a partitions.conf written and read back has another number of partitions");
    // The content, partition by partition: P_Key (or none), flags, default membership, every
    // member with its membership in order, every multicast group with its flags, the isolation
    // policy. Names are compared as written: characters OpenSM would read as syntax are replaced.
    for (std::size_t i = 0; i < conf->partitions.size(); ++i) {
        const Partition &a = conf->partitions[i];
        const Partition &b = again->partitions[i];
        if (a.pkey != b.pkey)
            fuzz::broken("a partitions.conf written and read back changed a P_Key");
        if (a.ipoib != b.ipoib || a.indx0 != b.indx0 || !(a.ipoibFlags == b.ipoibFlags)
            || a.defaultMembership != b.defaultMembership || a.policy != b.policy)
            fuzz::broken("a partitions.conf written and read back changed a partition's flags or policy");
        if (a.members != b.members)
            fuzz::broken("a partitions.conf written and read back changed a partition's members");
        if (!sameGroups(groupsOf(a), groupsOf(b)))
            fuzz::broken("a partitions.conf written and read back lost, gained or changed a multicast group");
    }
    if (writePartitionsConf(again->partitions) != written)
        fuzz::broken("a partitions.conf written, read back and written again reads differently");
    return 0;
}
