#pragma once
// `weft bench sm`: OpenSM's sweep and a cable repair with Weft's engine inside it, beside OpenSM's
// own engine, on the same fabric in ibsim.
#include <QStringList>

namespace weft::cli {

int benchSm(const QStringList &args);

}  // namespace weft::cli
