#include "PortsMime.h"

#include <QMimeData>

#include <set>

namespace weft {

QMimeData *makePortsMimeData(const std::vector<Guid> &ports, const QString &tenant)
{
    QStringList lines;
    lines.reserve(int(ports.size()));
    for (Guid g : ports)
        lines << guidText(g);
    auto *data = new QMimeData;
    data->setData(portsMimeType(), lines.join(QLatin1Char('\n')).toUtf8());
    if (!tenant.isEmpty())
        data->setData(tenantMimeType(), tenant.toUtf8());
    return data;
}

std::vector<Guid> portsFromMimeData(const QMimeData *data)
{
    if (!data || !data->hasFormat(portsMimeType()))
        return {};
    const QString text = QString::fromUtf8(data->data(portsMimeType()));
    std::vector<Guid> ports;
    std::set<Guid> seen;
    for (const QString &line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        bool ok = false;
        const Guid g = line.trimmed().toULongLong(&ok, 0);
        if (!ok)
            return {};  // a payload we did not write: take nothing rather than part of it
        if (seen.insert(g).second)
            ports.push_back(g);
    }
    return ports;
}

QString tenantFromMimeData(const QMimeData *data)
{
    if (!data || !data->hasFormat(tenantMimeType()))
        return {};
    return QString::fromUtf8(data->data(tenantMimeType()));
}

}  // namespace weft
