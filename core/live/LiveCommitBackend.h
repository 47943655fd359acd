#pragma once
// The commit's access to a real fabric: discovery and table read-back through libibnetdisc and
// libibmad (LiveFabric.h), OpenSM reached by its pid. core/commit stays free of rdma-core so that
// the procedure is tested without a fabric.

#include "Commit.h"
#include "LiveFabric.h"

namespace weft {

CommitBackend liveCommitBackend(const LiveOptions &options);

}  // namespace weft
