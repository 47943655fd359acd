#pragma once
// P_Key tables as text: the file `weft discover --pkeys` writes, which `weft info`, `weft diff
// --partitions-from/--partitions-to` and `weft convert --to partitions` read back.
//
//   # P_Key tables: port GUID, port number, node description, index:P_Key (0x8000 = full member)
//   0x0002c90300000011 1 "host-1 HCA-1" 0:0xffff 1:0x8001
//   0x0002c90300000100 0 "leaf-1" 0:0x7fff
//   0x0002c90300000100 3 "leaf-1" 0:0xffff 1:0x8001
//
// One line per port whose table holds at least one P_Key: the port's GUID (a switch's GUID for
// every port of the switch, as its ports share it), the port number (0 is a switch's own port),
// the node's description in quotes (for people: GUID and number name the port; it may hold
// quotes itself, so it ends at the line's last quote), then each non-empty slot as its decimal
// index and the P_Key with its full-member bit (0xffff full, 0x7fff limited). A port the file does
// not list holds nothing. Lines starting with `#` are comments; blank lines are skipped.
//
// Read in two steps, so that a file can be summarised without the fabric it came from:
//  - readPKeyTableListing takes the lines as written, by GUID and port number. Anything else is
//    an error naming the line: a GUID without 0x, a port number above 254, an unquoted
//    description, an index above 65534 (PartitionCap is a 16-bit count) or given twice on a line,
//    a P_Key wider than 16 bits or with no partition in its low 15 bits (0x0000, 0x8000: empty
//    slots are not listed), a line without entries, or a port listed twice.
//  - bindPKeyTables finds each port in a fabric: a GUID the fabric lacks, or a port number its
//    node lacks, is an error naming the line and the GUID. A switch's port other than 0 is a
//    switch port facing a CA, whose table OpenSM packs (PortPKeyTable::packed).
// Nothing half-read is returned.

#include "Fabric.h"
#include "PKeyTables.h"
#include "Result.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <vector>

namespace weft {

// Highest P_Key table index: NodeInfo:PartitionCap counts the entries in 16 bits.
constexpr int kMaxPKeyIndex = 65534;

// One non-empty slot of a port's table.
struct PKeyTableEntry
{
    int index = 0;
    std::uint16_t pkey = 0;  // with the full-member bit

    bool operator==(const PKeyTableEntry &o) const { return index == o.index && pkey == o.pkey; }
};

// One line: a port as the file names it, not yet found in a fabric.
struct ListedPKeyTable
{
    Guid guid = 0;  // the port's GUID; a switch's GUID for any port of the switch
    int portNumber = 0;
    QString description;                  // the node's, control characters made spaces
    std::vector<PKeyTableEntry> entries;  // in index order; at least one
    int line = 0;                         // where the file lists it; 0 when not read from a file

    bool operator==(const ListedPKeyTable &o) const
    {
        return guid == o.guid && portNumber == o.portNumber && description == o.description && entries == o.entries;
    }
};

struct PKeyTableListing
{
    QString fileName;                    // for bindPKeyTables' errors
    std::vector<ListedPKeyTable> ports;  // in file order
};

Result<PKeyTableListing> readPKeyTableListing(const QByteArray &data, const QString &fileName);

// The listing's tables on `fabric`, each a multiple of 32 entries long, cut after its last
// non-empty block (as discovery reads them).
Result<PKeyTables> bindPKeyTables(const PKeyTableListing &listing, const Fabric &fabric);

// Both steps, from a file in memory or on disk.
Result<PKeyTables> readPKeyTableFile(const QByteArray &data, const QString &fileName, const Fabric &fabric);
Result<PKeyTables> readPKeyTableFile(const QString &path, const Fabric &fabric);

// The listing of `tables` on `fabric`: ports whose table holds nothing are left out.
PKeyTableListing listPKeyTables(const PKeyTables &tables, const Fabric &fabric);

QByteArray writePKeyTableListing(const PKeyTableListing &listing);
// writePKeyTableListing(listPKeyTables(tables, fabric)).
QByteArray writePKeyTables(const PKeyTables &tables, const Fabric &fabric);

// Without a fabric, which listed ports are a switch's ports facing a CA (mirrors of the CA's
// table, left out of the partitions), one flag per port of the listing: a port other than 0 whose
// GUID the listing also gives with port 0, as only a switch has a port 0 and every port of a
// switch carries the switch's GUID. Where a switch's port 0 is not listed, its other ports count
// as end ports.
std::vector<bool> listedSwitchPortsFacingCas(const PKeyTableListing &listing);

// The memberships of the listing's ports but the switch ports facing a CA (above), for
// partitionsOf (PKeyTables.h) without a fabric.
PKeyMemberships listedPKeyMemberships(const PKeyTableListing &listing);

}  // namespace weft
