#pragma once
// LFT dumps: the text form of unicast forwarding tables that OpenSM's `file` routing engine
// loads (`opensm -R file -U <dump>`).
//
// Read: the output of ibroute, dump_fts and dump_lfts (the deprecated wrapper with its warning
// trailer), in every variant those tools print (-a with unrouted entries, -n without
// destination info, LMC "path #" entries, LID ranges), and OpenSM's own opensm-lfts.dump.
// Stricter than OpenSM, which silently skips what it does not understand: anything that is not
// part of those formats, a multicast dump, or a switch or LID given twice is an error naming the
// line. Entries with port 255 (what `-a` prints for LIDs without a route) mean "no route".
//
// Written: complete (every switch) and loadable by OpenSM, with `portguid 0x...` on every entry
// when a fabric says who owns each LID, so that OpenSM can remap entries if LIDs have been
// renumbered since the dump was made; either compact (what OpenSM reads, nothing more) or
// annotated (ibroute's format, for people). Both are read back as above.

#include "Fabric.h"
#include "ForwardingTables.h"
#include "Result.h"
#include "SafeFile.h"

#include <QByteArray>
#include <QString>

#include <functional>

namespace weft {

// With a fabric, also checks the dump against it: every switch GUID must be a switch of the
// fabric and every out port one that the switch has. Switch LIDs and descriptions the dump does
// not give are then taken from the fabric.
Result<ForwardingTables> readLftDump(const QByteArray &data, const QString &fileName,
                                     const Fabric *fabric = nullptr);
// Reads the file a piece at a time (bounded memory beyond the tables); same results and errors.
Result<ForwardingTables> readLftDumpFile(const QString &path, const Fabric *fabric = nullptr);

// What OpenSM's file engine would do with these tables on this fabric that an operator should
// know before loading them: it clears a listed switch's whole LFT before loading its entries, and
// gives switches absent from the file no unicast routes at all. One line per switch: a fabric
// switch the tables do not list, or a listed switch with no entry for some LIDs the fabric
// assigns (their number and the first few). Empty when the tables cover the fabric.
QStringList lftCoverageWarnings(const ForwardingTables &tables, const Fabric &fabric);

// The two forms written. Both keep one "Unicast lids ... guid 0x... (description):" header and a
// "N valid lids dumped" footer per switch.
// - Annotated: ibroute/dump_fts format, for people. Destination info (node type, port GUID,
//   description) comes from the fabric; without one, entries say "unknown node and type" as
//   ibroute does when it cannot ask.
// - Compact: what OpenSM's file engine reads and nothing else: "0x0004 001 portguid 0x..." per
//   entry ("0x0004 001" when no fabric port owns the LID), no column titles.
enum class LftDumpForm { Compact, Annotated };

// The whole dump in memory: for small tables and tests.
QByteArray writeLftDump(const ForwardingTables &tables, const Fabric *fabric = nullptr,
                        LftDumpForm form = LftDumpForm::Annotated);

// Receives the dump a piece (a few MB) at a time; returns false to stop.
using LftDumpSink = std::function<bool(const char *data, std::size_t size)>;

// The same bytes as writeLftDump, handed to `sink` in pieces: memory stays bounded whatever the
// size of the tables. False if the sink refused a piece.
bool writeLftDump(const ForwardingTables &tables, const Fabric *fabric, LftDumpForm form, const LftDumpSink &sink);

// Streams the dump to `path` through SafeFile (atomic, previous content kept as the backup);
// with `sha256`, the digest of the bytes written (FileDigest.h), taken on the way.
Status writeLftDumpFile(const QString &path, const ForwardingTables &tables, const Fabric *fabric,
                        LftDumpForm form, QString *sha256 = nullptr);
// The same, staged (SafeFile.h: stageFile) for a commit that installs several files together.
Result<StagedFile> stageLftDumpFile(const QString &path, const ForwardingTables &tables, const Fabric *fabric, LftDumpForm form,
                                    QString *sha256 = nullptr);

}  // namespace weft
