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
    return 0;
}
