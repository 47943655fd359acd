#pragma once
// The colours the desk gives meaning to, one definition each, so that the review, the journal,
// the OpenSM and SM panels and the target dialog show a problem in the same red.

#include <QColor>

namespace weft {

inline const QColor kProblemColour(0xb0, 0x1c, 0x1c);  // a refusal, a mismatch, a warning

}  // namespace weft
