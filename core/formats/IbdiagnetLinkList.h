#pragma once
// ibdiagnet's link listing (ibdiagnet2.lst; OpenSM's older subnet.lst has the same lines): one
// cable a line, both ends in braces, every number hexadecimal:
//   { CA Ports:02 SystemGUID:... NodeGUID:... PortGUID:... VenID:000002C9 DevID:1003 Rev:000000B0
//     {node description} LID:0005 PN:01 } { SW Ports:24 ... LID:0002 PN:14 } PHY=4x LOG=ACT SPD=10
// (on one line). A switch's LID is its port 0's. Links in a state other than ACT, INI or ARM are
// left out (their nodes are kept), as ibdm reads the file. SPD is the lane rate in Gb/s
// (2.5 SDR, 5 DDR, 10 QDR, 14 FDR, 25 EDR, 50 HDR, 100 NDR, 200 XDR; FDR10 by name).

#include "Fabric.h"
#include "TopologyFile.h"

#include <QByteArray>
#include <QString>

namespace weft {

// True when the first meaningful line is such a link line.
bool isIbdiagnetLinkList(const QByteArray &data);
Result<Fabric> readIbdiagnetLinkList(const QByteArray &data, const QString &fileName, TopologyFileInfo *info = nullptr);

}  // namespace weft
