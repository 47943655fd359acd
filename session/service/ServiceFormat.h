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
