#pragma once
// A list of end ports, one a line: metabase inputs such as an MPI job's rank order
// (`weft reconfigure --node-order`) or its high-priority nodes (`--priority-nodes`).
//
// Each line names one port: a port GUID ("0x0002c90300001235"), a node GUID or an end node's
// description or node id (its first port). `#` starts a comment; blank lines are skipped. A
// switch, an unknown or ambiguous name, or a port listed twice is an error naming the line.

#include "Fabric.h"
#include "Result.h"

#include <QByteArray>
#include <QString>

#include <vector>

namespace weft {

// Port GUIDs in file order.
Result<std::vector<Guid>> readPortList(const QByteArray &data, const QString &fileName, const Fabric &fabric);
Result<std::vector<Guid>> readPortListFile(const QString &path, const Fabric &fabric);

}  // namespace weft
