#include "LiveCommitBackend.h"

namespace weft {

CommitBackend liveCommitBackend(const LiveOptions &options)
{
    CommitBackend b;
    b.discover = [options] { return discoverFabric(options); };
    b.readTables = [options](const Fabric &f) { return readForwardingTables(f, options); };
    b.readPKeys = [options](const Fabric &f) { return readPKeyTables(f, options); };
    b.readHeldTables = [options](const Fabric &f) -> Result<std::pair<ForwardingTables, PKeyTables>> {
        Result<LiveHeldTables> held = readHeldTables(f, options);
        if (!held)
            return held.error();
        return std::make_pair(std::move(held->lfts), std::move(held->pkeys));
    };
    b.describeTableReads = [] { return takeTableReadSummary(); };
    b.findSmPort = [options](const Fabric &f) { return findMasterSmPort(f, options); };
    b.readSubnetManagers = [options](const Fabric &f) { return readSubnetManagers(f, options); };
    b.readSlToVl = [options](const Fabric &f) { return readSlToVlTables(f, options); };
    b.pathServiceLevel = [options](const Fabric &, Lid source, Lid destination, std::uint16_t pkey) {
        return queryPathServiceLevel(source, destination, pkey, options);
    };
    b.writeTables = [options](const Fabric &f, const ForwardingTables &tables, const ForwardingTables &held,
                              const PKeyTables &pkeys, const PKeyTables &heldPKeys) {
        return writeTables(f, tables, held, pkeys, heldPKeys, options);
    };
    b.isRunning = processRunning;
    b.reload = sendHangup;
    return b;
}

SubnetCheck checkSubnetOnFabric(const SubnetTarget &target, const LiveOptions &options)
{
    return checkSubnet(target, liveCommitBackend(options));
}

}  // namespace weft
