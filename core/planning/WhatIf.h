#pragma once
// What-if events: a fabric as it would be after links fail, switches fail or hosts are removed,
// made without touching the real one. The reconfiguration studio and `weft reconfigure` plan
// their candidates on it against the tables the switches hold now.
//
// Elements are named as an operator names them: a node by its node id, description or GUID
// (`NodeQuery`-style lookup, an ambiguous or unknown name is an error), a port as
// `NODE[PORT]` (the link on that port fails; either end of a cable names it).

#include "Fabric.h"
#include "Result.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace weft {

struct WhatIf
{
    std::vector<std::pair<Guid, int>> failedLinkPorts;  // (node GUID, port number) at either end
    std::vector<Guid> failedSwitches;  // node GUIDs
    std::vector<Guid> removedHosts;    // node GUIDs of end nodes (CAs, routers)

    bool isEmpty() const { return failedLinkPorts.empty() && failedSwitches.empty() && removedHosts.empty(); }
    bool operator==(const WhatIf &o) const
    {
        return failedLinkPorts == o.failedLinkPorts && failedSwitches == o.failedSwitches && removedHosts == o.removedHosts;
    }
    bool operator!=(const WhatIf &o) const { return !(*this == o); }
    // "link S1[3]–L1[1] fails; switch \"S2\" fails; host \"n1\" removed": one clause per event, in
    // the order above, node names as the fabric gives them.
    QString describe(const Fabric &fabric) const;
};

// "NODE[PORT]" -> (node GUID, port). Fails naming the text when the node is unknown or
// ambiguous, the port is not a linked port of that node, or the text has no [PORT].
Result<std::pair<Guid, int>> parseLinkEnd(const Fabric &fabric, const QString &text);
// A node by id, description or GUID; `wantSwitch` limits the kind (switch or end node) and the
// error says which was found.
Result<Guid> parseWhatIfNode(const Fabric &fabric, const QString &text, bool wantSwitch);

// The fabric with the events applied: failed links removed (both ports stay, unlinked), failed
// switches removed with every link on them, removed hosts removed with their links. LIDs of the
// remaining ports are kept. Fails when an event names nothing the fabric has.
Result<Fabric> applyWhatIf(const Fabric &fabric, const WhatIf &whatIf);

}  // namespace weft
