#pragma once
// What Weft's service (`weft serve`) and the desks that connect to it say to each other, in one
// place for both sides (docs/service-api.md is the contract): the fabric, the tables it holds,
// a plan made on a desk, a commit's report and a telemetry tick, as JSON.
//
// The fabric and its tables travel in the text formats Weft reads and writes everywhere else
// (ibnetdiscover output, an LFT dump, P_Key table listings, partitions.conf), so a desk reads
// what the service saw through the same parsers, and a script can save a field as a file that
// every other command reads.

#include "Commit.h"
#include "LiveState.h"
#include "Result.h"
#include "TelemetryRecord.h"

#include <QJsonObject>
#include <QString>

#include <vector>

namespace weft {

// `switches`, `hosts` (channel adapters) and `links`: the counts every answer about a fabric gives.
QJsonObject fabricCountsJson(const Fabric &fabric);

// GET fabric: the counts, `fabric_generation`, `topology`.
QJsonObject fabricToJson(const Fabric &fabric, quint64 generation);

// GET tables: `held_generation`, `name`, `lfts`, `pkeys`, `sm_port`, `partitions` (what the
// P_Keys amount to, as partitions.conf). Unknown tables are "" (every switch empty, or the
// P_Keys OpenSM programs).
QJsonObject heldToJson(const Fabric &fabric, const HeldTables &held, const QString &name, quint64 generation,
                       const std::vector<Partition> &partitions);

// The same object as heldToJson with `instance` added, written as compact JSON bytes directly: the
// LFT dump is escaped into the answer a piece at a time, never held as a QString or a QJsonValue
// (at 11,664 hosts the dump is 800 MB, which those would hold two or three times over).
QByteArray heldToJsonBytes(const Fabric &fabric, const HeldTables &held, const QString &name, quint64 generation,
                           const std::vector<Partition> &partitions, const QString &instance);

// The two answers back into what a discovery reads. An error names the field and the problem.
Result<LiveState> liveStateFromJson(const QJsonObject &fabric, const QJsonObject &tables);

// Where in a request body a JSON parse stopped: "line 3, column 7".
QString jsonErrorPlace(const QByteArray &body, qsizetype offset);

// POST plans for a plan a desk made: the plan's tables (`lfts`), its `partitions`, `service_levels`
// (the .sl form), the intent's policies as a `project`, its `summary` and `what_if`; or, for a
// plan that installs an intent (plan.intentFile), that project itself.
QJsonObject planRequestJson(const CommitPlan &plan);

// What `weft commit --json` prints, read back (without the read-back tables, which stay on the
// service). Unknown outcomes read as refused.
CommitReport commitReportFromJson(const QJsonObject &report);

// A telemetry tick: `time`, `interval`, `ports` [{guid, port, lid, seconds, xmit_bytes,
// rcv_bytes, xmit_packets, rcv_packets, xmit_wait, utilisation}], each rate a number, or the name
// of its gap (counterGapName) when there is none to give.
QJsonObject telemetryToJson(const Fabric &fabric, const std::vector<TelemetryRecord> &records, double time, double interval);
// The same tick bound to `fabric` (ports by node GUID and number); ports the fabric lacks are
// an error naming them.
Result<std::vector<TelemetryRecord>> telemetryFromJson(const QJsonObject &tick, const Fabric &fabric);

}  // namespace weft

namespace weft {

// ---- GET tables?form=compact (docs/service-api.md, "Compact tables") ----------------------------
//
// The body: "WEFTTBL1", the length of a JSON header (4 bytes, big-endian), the header (UTF-8
// JSON: `held_generation`, `name`, `instance`, `pkeys`, `sm_port`, `partitions`, `switches`: the
// records that follow, `lfts_switches`: the switches the tables hold in all, `lfts_digest`,
// `removed`: GUIDs of switches gone since `since`, and `since` for a delta), then one record per
// switch: its GUID (8 bytes), its LID (2), the number of entries N (4), all big-endian, and N
// bytes, the out port of LIDs 0..N-1 (255: no route), N the switch's LinearFDBTop + 1.

// A switch's table as the compact form and the delta compare it (its routes, not its storage).
quint64 switchTableDigest(const LinearForwardingTable &lft);
// The tables' digest, "0x" and 16 hex digits: of every switch's GUID and digest, whatever order.
QString tablesDigest(const ForwardingTables &tables);

// The body for `header` and the tables of `tables` at the indices `only` (all when null).
QByteArray writeCompactTables(QJsonObject header, const ForwardingTables &tables, const std::vector<std::size_t> *only = nullptr);

struct CompactTables
{
    QJsonObject header;
    ForwardingTables lfts;  // the records, in the body's order
};
// Reads a compact body; with a fabric, every GUID must be one of its switches and every port one
// it has. Errors name the service's answer, the record and the problem.
Result<CompactTables> readCompactTables(const QByteArray &body, const Fabric *fabric = nullptr);

// `base` (the tables at the delta's `since`) with the delta applied: the delta's switches
// replaced or added, its `removed` taken out. Errors when the result's digest is not the
// header's `lfts_digest` (then the whole tables are to be asked for).
Result<ForwardingTables> applyTablesDelta(const ForwardingTables &base, const CompactTables &delta, const Fabric *fabric);

// What a discovery reads, from the fabric and a compact answer's header and tables.
Result<LiveState> liveStateFromCompact(std::shared_ptr<const Fabric> fabric, const QJsonObject &header,
                                       std::shared_ptr<const ForwardingTables> lfts);

// ---- HTTP compression ---------------------------------------------------------------------------

// `body` compressed for a client whose Accept-Encoding is `acceptEncoding`: gzip when it takes
// gzip, else deflate (the zlib format) when it takes that; `encoding` is then the
// Content-Encoding to send, and empty (the body returned as it is) otherwise or for small bodies.
QByteArray compressForHttp(const QByteArray &body, const QByteArray &acceptEncoding, QByteArray *encoding);
// A gzip member of `data` (RFC 1952).
QByteArray gzipBytes(const QByteArray &data);

}  // namespace weft
