// weft_lft_poke SWITCH LID PORT: sets one forwarding-table entry of one switch with a SubnSet
// SMP, as a second writer on the subnet would, without OpenSM knowing. SWITCH is the switch's
// node GUID (0x...) or its LID. Run as an ibsim client by the lab tests to change a table
// behind Weft's back. Prints "0x<guid> LID <lid>: port <old> -> <new>"; exit 0 when the switch
// accepted the write, 1 on a fabric error, 2 on bad arguments.

#include "LiveFabric.h"

#include <QCoreApplication>
#include <QStringList>

#include <cstdio>

using namespace weft;

namespace {

int usage(const QString &problem)
{
    std::fprintf(stderr, "weft_lft_poke: %s\nusage: weft_lft_poke SWITCH-GUID|SWITCH-LID LID PORT\n", qPrintable(problem));
    return 2;
}

}  // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments().mid(1);
    if (args.size() != 3)
        return usage(QStringLiteral("expected 3 arguments, got %1").arg(args.size()));
    const bool byGuid = args[0].startsWith(QLatin1String("0x"), Qt::CaseInsensitive);
    bool switchOk = false, lidOk = false, portOk = false;
    const quint64 switchKey = byGuid ? args[0].mid(2).toULongLong(&switchOk, 16) : args[0].toULongLong(&switchOk, 10);
    const uint lid = args[1].toUInt(&lidOk, 10);
    const uint port = args[2].toUInt(&portOk, 10);
    if (!switchOk)
        return usage(QStringLiteral("not a switch GUID or LID: \"%1\"").arg(args[0]));
    if (!lidOk || lid == 0 || lid > 0xbfff)
        return usage(QStringLiteral("not a unicast LID: \"%1\"").arg(args[1]));
    if (!portOk || port > 255)
        return usage(QStringLiteral("not a port number: \"%1\"").arg(args[2]));

    const LiveOptions options;
    const Result<Fabric> fabric = discoverFabric(options);
    if (!fabric) {
        std::fprintf(stderr, "weft_lft_poke: %s\n", qPrintable(fabric.error().toString()));
        return 1;
    }
    Guid guid = byGuid ? Guid(switchKey) : 0;
    if (!byGuid)
        for (NodeIndex s : fabric->switches())
            if (fabric->nodeLid(s) == switchKey)
                guid = fabric->node(s).guid;
    if (!guid) {
        std::fprintf(stderr, "weft_lft_poke: no switch has LID %llu\n", static_cast<unsigned long long>(switchKey));
        return 1;
    }
    std::uint8_t previous = kNoRoute;
    const Status written = writeForwardingTableEntry(*fabric, guid, Lid(lid), std::uint8_t(port), options, &previous);
    if (!written) {
        std::fprintf(stderr, "weft_lft_poke: %s\n", qPrintable(written.error().toString()));
        return 1;
    }
    std::printf("0x%016llx LID %u: port %u -> %u\n", static_cast<unsigned long long>(guid), lid, unsigned(previous), port);
    return 0;
}
