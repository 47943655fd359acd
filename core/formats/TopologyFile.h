#pragma once
// Topology files: ibnetdiscover's default output (comments included: LIDs, LMC, descriptions,
// link width and speed) and ibsim net files, which are ibnetdiscover's format with some
// keywords of their own. One reader for both; two writers.

#include "Fabric.h"

#include <QByteArray>
#include <QString>

namespace weft {

// What kind of topology file was read, for `weft info`: the tool that wrote it and the form.
//   ibnetdiscover        ibnetdiscover's default output (or Weft's, written in that form)
//   ibnetdiscover -g     with chassis grouping: "Chassis N (guid ...)", "Non-Chassis Nodes",
//                        "[ext N]" ports; each chassis kept as a node group (Fabric::nodeGroups)
//   ibdiagnet            ibdiagnet's ibnetdiscover-style database: switch ports with a label in
//                        parentheses (the port's number, "[1](1)", or a split port's "(2/1)"),
//                        the system GUID as "switchguid" (the node GUID is then taken from the
//                        node id "S-<GUID>")
//   ibdiagnet .lst       ibdiagnet's link listing (ibdiagnet2.lst, subnet.lst): one cable a line,
//                        "{ SW Ports:24 SystemGUID:... LID:0002 PN:14 } { CA ... } PHY=4x LOG=ACT
//                        SPD=10", every number hexadecimal; links not ACT, INI or ARM are left out
//   ibsim net file       nodes without GUIDs or ibsim's per-port options
struct TopologyFileInfo
{
    QString form;         // one of the names above
    QString toolVersion;  // as a comment in the file gives it ("ibdiagnet 2.1.1"); empty: not said
    int chassis = 0;      // chassis groups read
};

Result<Fabric> readTopology(const QByteArray &data, const QString &fileName, TopologyFileInfo *info = nullptr);
Result<Fabric> readTopologyFile(const QString &path, TopologyFileInfo *info = nullptr);

struct TopologyWriteOptions
{
    QString generatedBy;          // written in the header comment, like ibnetdiscover's date line
    NodeIndex initiatedFrom = kNoIndex;  // the "Initiated from node" line; kNoIndex: first CA
};

// ibnetdiscover's default output, byte for byte in the form the real tool prints (links from
// both ends, LIDs and link properties in the comments). Readable by ibsim as a net file too.
QByteArray writeIbnetdiscover(const Fabric &fabric, const TopologyWriteOptions &options = {});

// An ibsim net file: GUIDs, node descriptions as node ids, and each link stated from both ends.
// Put `smNode` first so that ibsim attaches the SM there.
QByteArray writeIbsimNet(const Fabric &fabric, NodeIndex smNode = kNoIndex);

}  // namespace weft
