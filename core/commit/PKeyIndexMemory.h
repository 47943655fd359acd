#pragma once
// OpenSM's memory of P_Key indices (PKeyTables.h), kept by Weft between commits. OpenSM
// remembers, for as long as it runs, the index it gave each P_Key on each port, removed P_Keys
// too, and puts a returning P_Key back there; the tables read from the fabric do not show that.
// So after each commit Weft writes what its prediction says OpenSM remembers, for that OpenSM
// process (its pid), in a file beside OpenSM's partitions.conf; the next commit to the same
// process reads it back. Another pid (OpenSM restarted: it starts remembering afresh from what
// the ports hold) or no file: the tables as read, PortPKeyTable::remembered left unset.
//
// The file, JSON: {"opensm_pid": N, "ports": {"0x<port GUID>": {"0x8001": 1, ...}, ...}}.

#include "Fabric.h"
#include "PKeyTables.h"
#include "Result.h"

#include <QString>

namespace weft {

// <partitions.conf>.weft-pkey-indexes
QString pkeyIndexMemoryPath(const QString &partitionsPath);

// `read` with each port's remembered indices from the file at `path`, when it was written for
// OpenSM `pid`; what each port holds now goes on top (OpenSM remembers every entry it placed).
// A file that cannot be read is an error naming it; one for another pid, or none, is no memory.
Result<PKeyTables> withRememberedIndices(const Fabric &fabric, const PKeyTables &read, const QString &path, qint64 pid);

// The same for a reader that knows no OpenSM pid (the desk's review after a rediscovery): the
// memory of the process the file was written for, while that process still runs; none
// otherwise (no file, or OpenSM gone).
Result<PKeyTables> withRememberedIndicesOfRunningOpenSm(const Fabric &fabric, const PKeyTables &read, const QString &path);

// `held` (the tables read after a sweep that installed `predicted`) with what OpenSM remembers
// then: `predicted`'s PortPKeyTable::remembered with the entries `held` shows on top.
PKeyTables rememberedAfter(const PKeyTables &predicted, const PKeyTables &held);

// Writes the remembered indices of `tables` as what OpenSM `pid` remembers (nothing for pid 0).
Status keepRememberedIndices(const Fabric &fabric, const PKeyTables &tables, const QString &path, qint64 pid);

}  // namespace weft
