#pragma once
// The commit's access to a real fabric: discovery and table read-back through libibnetdisc and
// libibmad (LiveFabric.h), OpenSM reached by its pid. core/commit stays free of rdma-core so that
// the procedure is tested without a fabric.

#include "Commit.h"
#include "LiveFabric.h"
#include "SubnetTarget.h"

namespace weft {

CommitBackend liveCommitBackend(const LiveOptions &options);

// A subnet target judged on the live fabric (SubnetTarget.h: checkSubnetTarget): discovered from
// the local port, and SMInfo read at every SM port. When the fabric cannot be read, the check
// says so and judges the SMs by their files alone.
SubnetCheck checkSubnetOnFabric(const SubnetTarget &target, const LiveOptions &options);

}  // namespace weft
