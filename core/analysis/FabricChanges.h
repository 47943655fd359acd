#pragma once
// What changed between two snapshots of one fabric (two discoveries, or the fabric a plan was
// made for and the one found at commit time), matched by GUID.

#include "Fabric.h"

#include <QString>
#include <QStringList>

namespace weft {

// A node is "GUID "desc"",
// a link "GUID[port] - GUID[port]" (lower GUID first), a LID change "GUID[port] LID a -> b".
struct FabricChanges
{
    QStringList nodesGone;
    QStringList nodesNew;
    QStringList linksGone;
    QStringList linksNew;
    QStringList lidsChanged;

    bool empty() const;
    // One line per change ("link gone: ..."), or "no changes".
    QString toText() const;
};

FabricChanges compareFabrics(const Fabric &before, const Fabric &after);

}  // namespace weft
