// libFuzzer target: the project file reader (JSON).
#include "FuzzInput.h"
#include "ProjectFile.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace weft;
    const Result<Project> project = readProject(fuzz::input(data, size), QStringLiteral("fuzz.weft"));
    if (!project)
        return 0;
    const Result<Project> again = readProject(writeProject(*project), QStringLiteral("rewritten.weft"));
    if (!again)
        fuzz::broken("a project Weft read, written back, is refused by Weft's reader");
    if (again->tenancy.partitions.size() != project->tenancy.partitions.size())
        fuzz::broken("a project written and read back has another number of partitions");
    // The content: written again, the project read back is the same document (engine and its
    // options, partitions with policies and members, weights, everything the writer keeps).
    if (writeProject(*again) != writeProject(*project))
        fuzz::broken("a project written and read back writes differently");
    return 0;
}
