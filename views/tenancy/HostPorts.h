#pragma once
// The ports that tenancy edits are about: every present port of every end node (hosts and
// routers), in fabric order, and how to name one to an operator.

#include "Fabric.h"

#include <QString>

#include <vector>

namespace weft {

std::vector<Guid> hostPortGuids(const Fabric &fabric);

// "node17 HCA-1" for a single-port host, "node17 HCA-1 / 2" for port 2 of a dual-port one; the
// GUID when the fabric does not know it (a project bound to another fabric).
QString hostPortLabel(const Fabric *fabric, Guid port);

}  // namespace weft
