#pragma once
// Warnings that repeat by kind, summarised: a plan on a 3-level tree can warn once per switch
// about LIDs left unrouted by design, and an operator needs the kind and its count, not 432 lines.

#include <QString>
#include <QStringList>

#include <vector>

namespace weft {

// Warnings of one kind differ only in names, numbers and quoted text.
QString warningKind(const QString &warning);

struct WarningGroup
{
    QStringList warnings;  // in the order given
};

// Groups by kind, in order of each kind's first appearance.
std::vector<WarningGroup> groupWarnings(const QStringList &warnings);

// One line per warning of a kind with at most `examples` members; one line per larger kind:
// "N alike<moreHint>, e.g. A | B | C".
QStringList summarizeWarnings(const QStringList &warnings, int examples, const QString &moreHint);

}  // namespace weft
