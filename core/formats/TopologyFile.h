#pragma once
// Topology files: ibnetdiscover's default output (comments included: LIDs, LMC, descriptions,
// link width and speed) and ibsim net files, which are ibnetdiscover's format with some
// keywords of their own. One reader for both; two writers.

#include "Fabric.h"

#include <QByteArray>
#include <QString>

namespace weft {

Result<Fabric> readTopology(const QByteArray &data, const QString &fileName);
Result<Fabric> readTopologyFile(const QString &path);

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
