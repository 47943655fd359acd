#pragma once
// What `weft lab --bench-tools FILE` runs once its commit loop is done, while the lab still runs
// (`weft bench commit` starts that lab and reads the file): `weft discover --json -o --lfts
// --pkeys`, `dump_lfts`, and `smpquery pkeys` over an even sample of `smpquerySample` of the
// P_Key ports Weft reads (0: all of them; the time extrapolated to all), each as a client of the
// lab and a whole process; the figures go to `jsonPath` as JSON.
#include "Result.h"

#include <QString>

namespace weft {
class SimulatedFabric;
}

namespace weft::cli {

Status runBenchTools(const SimulatedFabric &sim, const QString &dir, const QString &jsonPath, int smpquerySample);

}  // namespace weft::cli
