#pragma once
// The desk's commit target as the operator last chose it, kept in the settings ("commit/..."),
// or the lab's when Weft runs under `weft lab --gui`: the session takes it at start and whenever
// the operator changes it (Fabric ▸ Commit Target…).

#include "Commit.h"

#include <QString>

namespace weft {

// Where the commit goes: QSettings "commit/..." or, under `weft lab`, the lab's OpenSM files
// (WEFT_LAB_DIR, WEFT_LAB_OPENSM_LOG). Empty lftsPath: none configured. The desk gives it to the
// session at start and whenever the operator changes it.
CommitTarget configuredCommitTarget();
void saveCommitTarget(const CommitTarget &target);
// The subnet target file (every OpenSM of a subnet: SubnetTarget.h) kept beside it in the
// settings, or under `weft lab --standby` the lab's (WEFT_LAB_SUBNET_TARGET) when the operator
// chose no target; empty: none. While one is set, the session commits through it.
QString configuredSubnetTargetPath();
void saveSubnetTargetPath(const QString &path);

}  // namespace weft
