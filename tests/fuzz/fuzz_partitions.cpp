// libFuzzer target: the partitions.conf reader.
#include "FuzzInput.h"
#include "PartitionsConf.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace weft;
    const Result<PartitionsConfResult> conf = readPartitionsConf(fuzz::input(data, size), QStringLiteral("fuzz.conf"));
    if (!conf)
        return 0;
    const Result<PartitionsConfResult> again = readPartitionsConf(writePartitionsConf(conf->partitions), QStringLiteral("rewritten.conf"));
    if (!again)
        fuzz::broken("a partitions.conf Weft read, written back, is refused by Weft's reader");
    if (again->partitions.size() != conf->partitions.size())
        fuzz::broken("a partitions.conf written and read back has another number of partitions");
    return 0;
}
