#pragma once
// OpenSM's own account of the LIDs it assigned: opensm-subnet.lst in its dump directory, one
// line per link with each end as "{ ... PortGUID:<hex> ... LID:<hex> PN:<hex> }". An
// independent oracle for what discovery should report.

#include "Fabric.h"

#include <QFile>
#include <QRegularExpression>
#include <QString>

#include <map>

namespace weft::test {

inline std::map<Guid, Lid> openSmLids(const QString &subnetList)
{
    std::map<Guid, Lid> lids;
    QFile f(subnetList);
    if (!f.open(QIODevice::ReadOnly))
        return lids;
    static const QRegularExpression end(QStringLiteral("PortGUID:([0-9a-fA-F]{16}).*?LID:([0-9a-fA-F]{4})"));
    const QString text = QString::fromLatin1(f.readAll());
    for (auto it = end.globalMatch(text); it.hasNext();) {
        const auto m = it.next();
        lids[m.captured(1).toULongLong(nullptr, 16)] = Lid(m.captured(2).toUInt(nullptr, 16));
    }
    return lids;
}

} // namespace weft::test
