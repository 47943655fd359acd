#pragma once
// weft bench scale: every stage of Weft on one generated fat-tree, each in its own process so
// that its peak resident memory is its own, as a table of time and memory per stage.

#include <QStringList>

namespace weft::cli {

int benchScale(const QStringList &args);

// True when the arguments after `weft bench` ask for the stage that paints widgets, which
// needs a QApplication rather than a QCoreApplication.
bool benchScaleNeedsGui(const QStringList &benchArgs);

}  // namespace weft::cli
