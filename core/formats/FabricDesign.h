#pragma once
// A fabric's design: the cables it should have, end by end, for `weft check --design`. Read from
// a topology file (any form readTopology reads: a saved as-built, `weft gen`'s output) or from a
// cabling list, the CSV a cabling plan is kept in:
//
//   start device,start port,end device,end port,link type
//   leaf-1,17,spine-3,1,4xEDR
//   0x0002c90300a1b2c4,1,leaf-1,1,
//
// Devices are named by node description (or node id) or by node GUID (0x and hex digits, or 16
// hex digits); the link type is optional: a width ("4x"), a speed ("EDR") or both ("4xEDR",
// "4X EDR"). A first line whose ports are not numbers is a header; `#` starts a comment line.
// Fields may be double-quoted (a description with a comma). Errors name the file and line.

#include "Fabric.h"
#include "Result.h"

#include <QByteArray>
#include <QString>

#include <vector>

namespace weft {

struct DesignEnd
{
    Guid guid = 0;   // the node GUID when the design gives one
    QString device;  // description or node id as the design gives it (may be empty with a GUID)
    int port = 0;
};

struct DesignCable
{
    DesignEnd a;
    DesignEnd b;
    int width = 0;                         // lanes; 0: the design does not say
    LinkSpeed speed = LinkSpeed::Unknown;  // Unknown: the design does not say
    int line = 0;                          // of a cabling list; 0 for a topology file
};

struct FabricDesign
{
    QString file;
    std::vector<DesignCable> cables;
};

// Every cable of `fabric`, each end by its node's GUID and display name, with the link's width
// and speed where the fabric knows them.
FabricDesign designOfFabric(const Fabric &fabric, const QString &file = {});

Result<FabricDesign> readCablingList(const QByteArray &data, const QString &fileName);

// A cabling list (a .csv name, or text that is not a topology and has commas) or a topology file.
Result<FabricDesign> readDesignFile(const QString &path);

// "4xEDR" for what a cable's design says; empty when it says nothing.
QString linkTypeText(int width, LinkSpeed speed);

}  // namespace weft
