// libFuzzer target: the topology reader (ibnetdiscover output and ibsim net files).
#include "FuzzInput.h"
#include "TopologyFile.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace weft;
    const Result<Fabric> fabric = readTopology(fuzz::input(data, size), QStringLiteral("fuzz.topo"));
    if (!fabric)
        return 0;
    const Result<Fabric> again = readTopology(writeIbnetdiscover(*fabric), QStringLiteral("rewritten.topo"));
    if (!again)
        fuzz::broken("a topology Weft read, written as ibnetdiscover, is refused by Weft's reader");
    if (again->nodes().size() != fabric->nodes().size() || again->links().size() != fabric->links().size())
        fuzz::broken("a topology written and read back lost nodes or links");
    // The content, not only the counts: every node (GUID, type, ports, LIDs) and every cable's
    // two ends (GUID and port) survive the round trip. (Names and descriptions are compared as
    // written: an ibsim net file's node ids become descriptions in ibnetdiscover's form.)
    for (const Node &node : fabric->nodes()) {
        const NodeIndex there = again->nodeByGuid(node.guid);
        if (there == kNoIndex)
            fuzz::broken("a topology written and read back lost a node's GUID");
        const Node &other = again->node(there);
        if (other.type != node.type || other.portCount != node.portCount)
            fuzz::broken("a topology written and read back changed a node's type or number of ports");
        const NodeIndex here = fabric->nodeByGuid(node.guid);
        for (int p = 0; p <= node.portCount; ++p) {
            const Port &a = fabric->port(fabric->portOf(here, p));
            const Port &b = again->port(again->portOf(there, p));
            if (a.lid != b.lid || a.lmc != b.lmc)
                fuzz::broken("a topology written and read back changed a port's LID");
            const bool cabledA = a.remote != kNoIndex, cabledB = b.remote != kNoIndex;
            if (cabledA != cabledB)
                fuzz::broken("a topology written and read back lost or gained a cable");
            if (cabledA) {
                const Port &ra = fabric->port(a.remote);
                const Port &rb = again->port(b.remote);
                if (fabric->node(ra.node).guid != again->node(rb.node).guid || ra.number != rb.number)
                    fuzz::broken("a topology written and read back joins a cable to another port");
            }
        }
    }
    if (writeIbnetdiscover(*again) != writeIbnetdiscover(*fabric))
        fuzz::broken("a topology written, read back and written again reads differently");
    return 0;
}
