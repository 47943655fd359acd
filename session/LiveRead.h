#pragma once
// Reading a live fabric for the session and the commands that use it: one blocking call per
// task, each opening and closing its own MAD ports (core/live). Internal to weft_session and the
// command line; the desk's views reach the fabric only through FabricSession.

#include "Commit.h"
#include "LiveFabric.h"
#include "LiveState.h"
#include "Result.h"

#include <QString>

#include <atomic>
#include <functional>

namespace weft {

// Progress of a read: the step under way ("Discovering the fabric", ...) and its progress (total
// 0: unknown). Called on the reading thread.
using LiveReadProgress = std::function<void(const QString &step, int done, int total)>;

// The topology, then every LFT, then every P_Key table, then the master SM's port (a port that
// cannot be found is said in smPortProblem, not an error). `partitionsConf` (may be empty) names
// the partitions. Stops with "cancelled" when `cancel` is set.
Result<LiveState> readLiveState(const LiveOptions &options, const QString &partitionsConf, const LiveReadProgress &progress = {},
                                const std::atomic_bool *cancel = nullptr);

// The fabric access of a commit and a recovery (liveCommitBackend) through `options`' adapter.
CommitBackend liveAccess(const LiveOptions &options);

}  // namespace weft
