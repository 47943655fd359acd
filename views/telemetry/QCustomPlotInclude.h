#pragma once
// qcustomplot.h uses Qt's keywords, which this project turns off (QT_NO_KEYWORDS, QT_NO_FOREACH):
// every view that plots includes it through here.
#define signals Q_SIGNALS
#define slots Q_SLOTS
#define emit Q_EMIT
#define foreach(variable, container) for (variable : container)
#include <qcustomplot.h>
#undef foreach
#undef emit
#undef slots
#undef signals
