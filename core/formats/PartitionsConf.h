#pragma once
// OpenSM's partitions.conf, read and written exactly as OpenSM 3.3.23 accepts it.
//
// Why exactness matters: when OpenSM finds the file "in error" it does not stop, it logs one
// line and falls back to "every port is a full member of 0x7fff", which silently removes
// tenant isolation from the whole fabric. So the reader refuses (as an Error naming the line)
// everything that OpenSM would declare in error, and accepts everything OpenSM accepts;
// where OpenSM only logs a warning, or silently does something surprising, the reader accepts
// and adds a warning. The reader follows OpenSM's parser step by step, quirks included:
//
//  - A definition is `header : members ;`. The header (name, `=P_Key`, flags) must lie on one
//    line; the member list may continue over several lines and ends at `;`. Only ' ', '\t' and
//    '\n' count as white space: a carriage return (Windows line ending) is an ordinary
//    character to OpenSM and usually breaks the line.
//  - Flags, membership values and keywords match by prefix (`limi`, `A` for ALL, `ALL_` for
//    ALL_CAS, `S` for SELF, `m` for mtu, `s` for scope, not sl). `defmember=` with an empty
//    value and `GUID=` with an empty value both mean full.
//  - Numbers go through strtoul/strtoull with base 0: a leading 0 means octal, so `012` is 10;
//    P_Keys wider than 16 bits are truncated, and only the low 15 bits name a partition.
//  - A file with no definition at all (empty, or only comments) is in error.
//  - A definition left without `;` at the end of the file is accepted (warning).
//  - Definitions with the same P_Key, or without a P_Key but with the name of an earlier one
//    (including "Default", which OpenSM always creates as 0x7fff), are merged into the first.
//  - Members apply in order, a later entry overriding an earlier one for the same port (ALL
//    then 0x..=full), as in OpenSM; the same GUID or keyword listed twice keeps only the later.
//  - Everything after `mgid=...` up to the `;` is that group's flag list, not members.
//  - OpenSM's line buffer is never cleared, and in two cases it reads past the end of the
//    current line into what earlier lines (cut up by the parser) left there: a `;` with nothing
//    before it on its line (e.g. `;` alone on the last line of a definition), and an mgid that
//    is the last thing before `;` or at the end of a line. The reader keeps the same buffer and
//    reads the same leftovers, so its verdict stays OpenSM's; where OpenSM would read memory no
//    line ever wrote (undefined), the reader refuses the file.
//
// Lines: OpenSM reads with fgets into a 4096-byte buffer (at most 4094 characters per call) and
// treats the rest of a longer line as a new line. Weft refuses any line longer than 4093
// characters (4094 with its newline) rather than misread it.
//
// Writer: standard OpenSM syntax only, `0x` GUIDs, one member per line, `;` right after the
// last member (`NONE ;` for an empty list), mgid groups before the members, each mgid line
// without flags closed with an empty comment so that OpenSM finds nothing after it to read as
// flags. Weft's
// isolation policy is not an OpenSM flag; it is written as a comment. The writer writes the
// partitions it is given and nothing more, so that reading its output gives back the same
// model; the commit path adds the explicit Default rule (mission anchors §10) with
// withExplicitDefault() first.

#include "Result.h"
#include "Tenancy.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <vector>

namespace weft {

struct PartitionsConfResult
{
    std::vector<Partition> partitions;  // in order of first definition; same-P_Key ones merged
    QStringList warnings;                // "file:line: message"
};

// Longest line (without its newline) that OpenSM reads in one piece.
constexpr int kPartitionsConfMaxLineLength = 4093;

Result<PartitionsConfResult> readPartitionsConf(const QByteArray &data, const QString &fileName);
Result<PartitionsConfResult> readPartitionsConfFile(const QString &path);

// With no partition at all, the default partition OpenSM makes (a file without any partition
// is one OpenSM rejects).
QByteArray writePartitionsConf(const std::vector<Partition> &partitions);

// True when `mgid` is a GID in OpenSM's syntax (inet_pton's IPv6 text) whose first byte is
// 0xff, the only groups OpenSM creates. The writer leaves out every other group, and project
// files refuse them, so that no mgid text can inject flags, members or partitions.
bool isMulticastGid(const QString &mgid);

// The partitions plus, when none has P_Key 0x7fff, the rule OpenSM applies implicitly when a
// file has no Default rule (`Default=0x7fff : ALL=limited, SELF=full ;`), written out so that
// what the fabric gets is visible in the file. Put first, as OpenSM creates it first.
std::vector<Partition> withExplicitDefault(std::vector<Partition> partitions);

// Member numbers for summaries such as `weft info`. Port GUIDs are counted by membership;
// a `both` member counts as full and as limited. Keywords (ALL, ALL_CAS, ALL_SWITCHES,
// ALL_ROUTERS, SELF) stand for a set of ports that only the fabric can resolve, so they are
// counted apart, as keywords, whatever their membership.
struct PartitionMemberCounts
{
    int full = 0;      // port GUIDs with full (or both) membership
    int limited = 0;   // port GUIDs with limited (or both) membership
    int keywords = 0;  // ALL-style entries
};
PartitionMemberCounts countMembers(const Partition &partition);

// Port GUID entries whose membership is exactly `membership` (keywords not counted).
int countMembers(const Partition &partition, Membership membership);

}  // namespace weft
