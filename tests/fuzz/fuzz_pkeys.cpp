// libFuzzer target: the P_Key table file reader (weft discover --pkeys), in both of its steps:
// the listing alone, and the listing bound to a small fabric (the 2-switch, 4-host fabric of
// tests/data/topology/ibnetdiscover-2sw4hca.txt, whose P_Key files in tests/data/pkeys seed the
// corpus). Each, where the reader accepts it, written and read back to the same content.
#include "FuzzInput.h"
#include "PKeyTableFile.h"
#include "TopologyFile.h"

namespace {

const weft::Fabric &fabric()
{
    static const weft::Fabric built = [] {
        const QByteArray topology =
            "switchguid=0x200001(200001)\n"
            "Switch\t8 \"S-0000000000200001\"\t\t# \"Switch2\" base port 0 lid 3 lmc 0\n"
            "[1]\t\"H-0000000000100003\"[1](100004)\n"
            "[2]\t\"H-0000000000100009\"[1](10000a)\n"
            "[3]\t\"S-0000000000200000\"[3]\n"
            "[5]\t\"S-0000000000200000\"[5]\n"
            "\n"
            "switchguid=0x200000(200000)\n"
            "Switch\t8 \"S-0000000000200000\"\t\t# \"Switch1\" base port 0 lid 1 lmc 0\n"
            "[1]\t\"H-0000000000100000\"[1](100001)\n"
            "[2]\t\"H-0000000000100006\"[1](100007)\n"
            "[3]\t\"S-0000000000200001\"[3]\n"
            "[5]\t\"S-0000000000200001\"[5]\n"
            "\n"
            "caguid=0x100009\n"
            "Ca\t2 \"H-0000000000100009\"\t\t# \"Hca4\"\n"
            "[1](10000a)\t\"S-0000000000200001\"[2]\t\t# lid 6 lmc 0 \"Switch2\" lid 3 4xSDR\n"
            "\n"
            "caguid=0x100003\n"
            "Ca\t2 \"H-0000000000100003\"\t\t# \"Hca2\"\n"
            "[1](100004)\t\"S-0000000000200001\"[1]\t\t# lid 4 lmc 0 \"Switch2\" lid 3 4xSDR\n"
            "\n"
            "caguid=0x100006\n"
            "Ca\t2 \"H-0000000000100006\"\t\t# \"Hca3\"\n"
            "[1](100007)\t\"S-0000000000200000\"[2]\t\t# lid 5 lmc 0 \"Switch1\" lid 1 4xSDR\n"
            "\n"
            "caguid=0x100000\n"
            "Ca\t2 \"H-0000000000100000\"\t\t# \"Hca1\"\n"
            "[1](100001)\t\"S-0000000000200000\"[1]\t\t# lid 2 lmc 0 \"Switch1\" lid 1 4xSDR\n";
        weft::Result<weft::Fabric> read = weft::readTopology(topology, QStringLiteral("fuzz.topo"));
        if (!read)
            weft::fuzz::broken("the fuzz target's own topology is refused");
        return std::move(read).value();
    }();
    return built;
}

bool sameTables(const weft::PKeyTables &a, const weft::PKeyTables &b)
{
    if (a.ports().size() != b.ports().size())
        return false;
    for (std::size_t i = 0; i < a.ports().size(); ++i) {
        const weft::PortPKeyTable &x = a.ports()[i];
        const weft::PortPKeyTable &y = b.ports()[i];
        if (x.port != y.port || x.packed != y.packed || x.entries != y.entries)
            return false;
    }
    return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace weft;
    const Result<PKeyTableListing> listing = readPKeyTableListing(fuzz::input(data, size), QStringLiteral("fuzz.pkeys"));
    if (!listing)
        return 0;
    const Result<PKeyTableListing> again = readPKeyTableListing(writePKeyTableListing(*listing), QStringLiteral("rewritten.pkeys"));
    if (!again)
        fuzz::broken("a P_Key table file Weft read, written back, is refused by Weft's reader");
    if (again->ports != listing->ports)
        fuzz::broken("a P_Key table file written and read back lists other ports or entries");

    const Result<PKeyTables> tables = bindPKeyTables(*listing, fabric());
    if (!tables)
        return 0;
    const Result<PKeyTables> rebound = readPKeyTableFile(writePKeyTables(*tables, fabric()), QStringLiteral("rewritten.pkeys"), fabric());
    if (!rebound)
        fuzz::broken("P_Key tables bound to a fabric, written back, are refused by Weft's reader");
    if (!sameTables(*tables, *rebound))
        fuzz::broken("P_Key tables written and read back against the same fabric differ");
    // What a summary and a diff ask of them must not trip over anything the reader accepted.
    (void)partitionsHeld(fabric(), *tables);
    (void)partitionsOf(listedPKeyMemberships(*listing));
    return 0;
}
