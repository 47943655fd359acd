#pragma once
// What changed between two snapshots of one fabric (two discoveries, or the fabric a plan was
// made for and the one found at commit time), matched by GUID.

#include "Fabric.h"

#include <QString>
#include <QStringList>

#include <vector>

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
    // The same changes by GUID, in the order of the lists above, for views that mark them:
    // each link's ends (lower GUID first) and the node of each node or LID entry.
    struct LinkEnds
    {
        Guid nodeA = 0;
        int portA = 0;
        Guid nodeB = 0;
        int portB = 0;
    };
    std::vector<LinkEnds> linksGoneEnds;
    std::vector<LinkEnds> linksNewEnds;
    std::vector<Guid> nodesGoneGuids;
    std::vector<Guid> nodesNewGuids;
    std::vector<Guid> lidsChangedGuids;

    bool empty() const;
    // One line per change ("link gone: ..."), or "no changes".
    QString toText() const;
};

FabricChanges compareFabrics(const Fabric &before, const Fabric &after);

}  // namespace weft
