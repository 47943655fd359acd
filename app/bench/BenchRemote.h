#pragma once
// weft bench remote: a desk's opening of a fabric through `weft serve` (docs/service-api.md), as
// the desk's client does it: status, the fabric, the tables compact and compressed; then a
// refresh, the tables as a delta. Time, bytes on the wire and decoded, peak memory.

#include <QStringList>

namespace weft::cli {

int benchRemote(const QStringList &args);

}  // namespace weft::cli
