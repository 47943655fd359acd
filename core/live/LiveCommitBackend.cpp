#include "LiveCommitBackend.h"

namespace weft {

CommitBackend liveCommitBackend(const LiveOptions &options)
{
    CommitBackend b;
    b.discover = [options] { return discoverFabric(options); };
    b.readTables = [options](const Fabric &f) { return readForwardingTables(f, options); };
    b.readPKeys = [options](const Fabric &f) { return readPKeyTables(f, options); };
    b.isRunning = processRunning;
    b.reload = sendHangup;
    return b;
}

}  // namespace weft
