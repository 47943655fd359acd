#pragma once
// `weft bench commit`: one verified commit on a lab of the given size (`weft lab --fabric
// radix:R:L --no-gui`, a whole process), timed by stage, and beside it, on the same running lab,
// the standard tools reading the same tables as whole processes (`dump_lfts`, and `smpquery
// pkeys` per port) against `weft discover --lfts --pkeys`: the ratios come from one run.
#include "Result.h"

#include <QString>
#include <QStringList>

namespace weft::cli {

int benchCommit(const QStringList &args);

}  // namespace weft::cli
