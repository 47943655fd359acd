#pragma once
// The drag payload for port GUIDs, shared by every view that drags hosts (tenant list, fabric
// view, partition tree) and every view that accepts them. Plain text so that it can be read in a
// debugger or pasted: one "0x%016x" GUID per line, UTF-8. A whole tenant additionally carries
// its name, so that the drop can be recorded as "assign tenant" rather than as loose hosts.

#include "Fabric.h"

#include <QString>
#include <QStringList>

#include <vector>

class QMimeData;

namespace weft {

inline QString portsMimeType() { return QStringLiteral("application/x-weft-ports"); }
inline QString tenantMimeType() { return QStringLiteral("application/x-weft-tenant"); }

// A new QMimeData (owned by the caller, as QAbstractItemModel::mimeData wants) carrying `ports`
// and, if not empty, the tenant they came from.
QMimeData *makePortsMimeData(const std::vector<Guid> &ports, const QString &tenant = {});

// The GUIDs in `data`, in order, without duplicates; empty if it carries none or is malformed.
std::vector<Guid> portsFromMimeData(const QMimeData *data);
// The tenant name, or an empty string for loose hosts.
QString tenantFromMimeData(const QMimeData *data);

}  // namespace weft
