#include "WarningSummary.h"

#include <QRegularExpression>

#include <algorithm>

namespace weft {

QString warningKind(const QString &warning)
{
    static const QRegularExpression quoted(QStringLiteral("\"[^\"]*\""));
    static const QRegularExpression number(QStringLiteral("\\b(0x[0-9a-fA-F]+|[0-9]+)\\b"));
    return QString(warning).replace(quoted, QStringLiteral("\"\"")).replace(number, QStringLiteral("#"));
}

std::vector<WarningGroup> groupWarnings(const QStringList &warnings)
{
    std::vector<std::pair<QString, WarningGroup>> kinds;
    for (const QString &w : warnings) {
        const QString kind = warningKind(w);
        auto it = std::find_if(kinds.begin(), kinds.end(), [&](const auto &k) { return k.first == kind; });
        if (it == kinds.end())
            kinds.push_back({kind, WarningGroup{{w}}});
        else
            it->second.warnings << w;
    }
    std::vector<WarningGroup> groups;
    groups.reserve(kinds.size());
    for (auto &[kind, group] : kinds)
        groups.push_back(std::move(group));
    return groups;
}

QStringList summarizeWarnings(const QStringList &warnings, int examples, const QString &moreHint)
{
    QStringList lines;
    for (const WarningGroup &group : groupWarnings(warnings)) {
        if (group.warnings.size() <= examples) {
            lines << group.warnings;
            continue;
        }
        lines << QStringLiteral("%1 alike%2, e.g. %3").arg(group.warnings.size()).arg(moreHint, group.warnings.mid(0, examples).join(QStringLiteral(" | ")));
    }
    return lines;
}

}  // namespace weft
