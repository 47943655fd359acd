#pragma once
// weft bench monitor: one full pass of Weft's port-counter reader over a fat-tree in ibsim beside
// a loop of `perfquery -x` over the same ports, and the cost of applying one tick of samples to
// the fabric view (`weft bench scene`'s recolour figure).

#include <QStringList>

namespace weft::cli {

int benchMonitor(const QStringList &args);

}  // namespace weft::cli
