// libFuzzer target: the LFT dump reader (ibroute, dump_lfts, OpenSM's file engine form).
#include "FuzzInput.h"
#include "LftDump.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace weft;
    const Result<ForwardingTables> tables = readLftDump(fuzz::input(data, size), QStringLiteral("fuzz.lfts"));
    if (!tables)
        return 0;
    for (const LftDumpForm form : {LftDumpForm::Compact, LftDumpForm::Annotated}) {
        const Result<ForwardingTables> again = readLftDump(writeLftDump(*tables, nullptr, form), QStringLiteral("rewritten.lfts"));
        if (!again)
            fuzz::broken("an LFT dump Weft read, written back, is refused by Weft's reader");
        if (!(*again == *tables))
            fuzz::broken("an LFT dump written and read back routes differently");
    }
    return 0;
}
