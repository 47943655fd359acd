#pragma once
// Is the fabric healthy and built as designed? The checks behind `weft check`, each a plain
// function from what was read (a Fabric, its design, the tables it holds, two readings of its
// port counters, the SMs' SMInfo) to findings: a severity, a kind, the nodes and ports by name
// and GUID, and a message an operator can act on. The front end reads; these judge.
//
// Kinds, by check:
//   identities       duplicate-guid, duplicate-lid (a Fabric cannot hold them: the readers and
//                    discovery refuse them, and identityFindingOf turns that refusal into the
//                    finding), duplicate-description, lid-zero
//   links            link-not-active, link-ends-disagree (width or speed differ at the two ends),
//                    link-below-supported (narrower or slower than both ends support)
//   design           missing-cable, miswired-cable (at another port or peer), extra-cable,
//                    link-below-design (narrower or slower than the design says)
//   tables           unreachable-pairs, forwarding-loop, credit-loop, tables-unread
//   partitions       pkey-mismatch (a switch port that enforces partitions and the CA behind it
//                    hold different P_Keys or memberships)
//   counters         port-errors (over the thresholds), counters-unanswered, symbol-error-rate
//   subnet-managers  sm-none, sm-several-masters, sm-master-priority, sm-unread

#include "DeliveryCheck.h"
#include "ErrorThresholds.h"
#include "Fabric.h"
#include "FabricDesign.h"
#include "ForwardingTables.h"
#include "PKeyTables.h"
#include "PortTelemetry.h"
#include "Result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <map>
#include <optional>
#include <vector>

namespace weft {

enum class CheckSeverity : std::uint8_t { Error, Warning };
QString checkSeverityName(CheckSeverity severity);  // "error", "warning"

// A node, or one of its ports, as a finding names it.
struct FindingPlace
{
    QString node;   // display name (description, else node id), or the design's name for it
    Guid guid = 0;  // node GUID; 0 when not known (a design device the fabric lacks)
    int port = -1;  // -1: the node as a whole
};

struct CheckFinding
{
    CheckSeverity severity = CheckSeverity::Error;
    QString kind;
    std::vector<FindingPlace> places;  // for a cable: its two ends first
    QString message;
};

// The checks run, in order, and what they found.
struct FabricCheckReport
{
    QString source;       // "live" or the topology file
    QString design;       // the design file, if any
    double window = 0;    // seconds between the two counter readings; 0: one reading
    QStringList checks;   // names of the checks run ("identities", "links", ...)
    std::vector<CheckFinding> findings;

    void add(const QString &check, std::vector<CheckFinding> found);
    std::size_t count(CheckSeverity severity) const;
    // 0 clean, 1 any finding.
    int exitCode() const { return findings.empty() ? 0 : 1; }
};

// The kinds a check can report, in the order of the list above.
QStringList checkKinds(const QString &check);

// Duplicate descriptions; LIDs zero on CA and router ports with a cable and on switch port 0
// (one finding when the fabric has no LID at all: a design not yet swept by an SM).
std::vector<CheckFinding> identityFindings(const Fabric &fabric);
// A read refused for a duplicate node or port GUID or a LID used twice, as that finding; nullopt
// for any other error (bad input).
std::optional<CheckFinding> identityFindingOf(const Error &readError);

// Links whose ends are known and not ACTIVE; ends whose active width or speed differ; links
// narrower or slower than the widest and fastest both ends support (where discovery read what
// they support: live only).
std::vector<CheckFinding> linkFindings(const Fabric &fabric);

// The fabric against its design. Design devices are found by GUID, then by description, then by
// node id. A design cable found at its ports matches; one whose device is absent, or whose ports
// and peers hold no unexplained cable, is missing; one whose nodes are joined at other ports, or
// whose port holds a cable the design does not have, is miswired (and that cable is not also
// extra); fabric cables the design does not explain are extra (a design that names no end node,
// the switches' cables alone, leaves the cables to end nodes unjudged). Matched cables narrower or
// slower than the design says are below it.
std::vector<CheckFinding> designFindings(const Fabric &fabric, const FabricDesign &design);

// The P_Key tables the ports hold, across every switch-to-CA (or router) link where the switch
// enforces partitions: OpenSM (part_enforce) gives such a switch port the CA's table packed, so
// the two should hold the same P_Keys with the same membership. The switch port enforces when its
// table was read with a capacity (SwitchInfo:PartitionEnforcementCap above 0), or, capacity not
// known (a P_Key table file), when it holds any entry. A P_Key the CA holds and the switch port
// lacks drops the CA's traffic in that partition at the switch: an error; one the switch port
// admits that the CA lacks, or a membership (full or limited) that differs: a warning. Links
// whose switch port's table is not held are not judged; a CA port without a table holds nothing.
std::vector<CheckFinding> pkeyFindings(const Fabric &fabric, const PKeyTables &pkeys);

// Unreachable pairs, forwarding loops and a credit loop of the tables the fabric holds.
std::vector<CheckFinding> tableFindings(const DeliveryCheck &delivery);

// Error counters over `thresholds`: with `after`, what each port counted between the readings
// (`seconds` apart); without, the counters as they stand (as ibqueryerrors judges them). `ports`,
// `before` and `after` are parallel; ports that did not answer are one counters-unanswered finding.
std::vector<CheckFinding> counterFindings(const Fabric &fabric, const std::vector<PortIndex> &ports,
                                          const std::vector<PortCounterSample> &before,
                                          const std::vector<PortCounterSample> *after, double seconds,
                                          const ErrorThresholds &thresholds);

// Symbol errors as a bit error rate, per port, between two readings `seconds` apart:
//   rate = ΔSymbolErrorCounter / (active width × lane signalling rate (linkSpeedGbps) × 1e9 × seconds)
// that is, each symbol error counted as one bit in error among the bits the port's lanes carried
// on the wire (encoding overhead included), an estimate of the raw (pre-FEC) rate. Over
// `maxRate` (default 1e-12, the IBA's bound for a link) is a warning. Only where the counters
// allow: two readings (seconds > 0), the port's width and speed known, both readings answered.
// A counter stuck at its maximum (16 bits) gives a lower bound, said in the message. The smallest
// rate a window can show is one error in its bits: a short window reports any symbol error.
constexpr double kDefaultSymbolErrorRate = 1e-12;
double symbolErrorRate(std::uint64_t symbolErrors, int width, LinkSpeed speed, double seconds);  // 0 if not known
std::vector<CheckFinding> symbolErrorRateFindings(const Fabric &fabric, const std::vector<PortIndex> &ports,
                                                  const std::vector<PortCounterSample> &before,
                                                  const std::vector<PortCounterSample> &after, double seconds,
                                                  double maxRate = kDefaultSymbolErrorRate);

// One subnet manager as SMInfo tells of it.
struct SubnetManagerSeen
{
    Guid portGuid = 0;
    Lid lid = 0;
    int priority = 0;
    int state = 0;  // 0 not active, 1 discovering, 2 standby, 3 master
    bool answered = false;
    QString node;
};
// No master, several masters, a master whose priority is below another SM's.
std::vector<CheckFinding> subnetManagerFindings(const std::vector<SubnetManagerSeen> &managers);

// The checks that need no MAD of their own, on what a front end holds: identities and links,
// the design when given, the forwarding tables and the P_Key tables when held (null: that check
// is not run). What `weft check --topology`, the service's /api/v1/health and the desk's Health
// dock run on the fabric they hold.
struct HeldFabricCheck
{
    QString source;                          // "live", "offline" or the topology file
    const ForwardingTables *lfts = nullptr;  // the tables the switches hold
    const PKeyTables *pkeys = nullptr;       // the P_Key tables the ports hold
    const FabricDesign *design = nullptr;
};
FabricCheckReport checkHeldFabric(const Fabric &fabric, const HeldFabricCheck &held);

// Findings counted by severity and kind, in kind order: what /metrics exports.
struct FindingCount
{
    CheckSeverity severity;
    QString kind;
    std::size_t count = 0;
};
std::vector<FindingCount> countFindings(const FabricCheckReport &report);

// The findings as the map marks them, in the fabric they were found in: design cables missing
// between two nodes the fabric has (drawn where they should run), nodes whose design cable
// cannot be drawn (its other end is not in the fabric), the fabric's cables a miswiring put
// elsewhere, and sick cables (not ACTIVE, below their design or what both ends support, ends that
// disagree, port errors, a high symbol error rate). Places the fabric lacks are left out.
struct HealthMarks
{
    std::vector<std::pair<NodeIndex, NodeIndex>> missing;
    std::vector<NodeIndex> missingAt;
    std::vector<LinkIndex> miswired;
    std::vector<LinkIndex> sick;

    bool empty() const { return missing.empty() && missingAt.empty() && miswired.empty() && sick.empty(); }
};
HealthMarks healthMarksOf(const Fabric &fabric, const FabricCheckReport &report);

// The counts of countFindings as Prometheus text: weft_health_findings{severity,kind} for each
// kind found, and weft_health_findings_total{severity} for both severities (0 included), with
// weft_health_clean 1 or 0.
QByteArray healthExposition(const FabricCheckReport &report);

// The report grouped by severity, then a summary line.
QString checkReportText(const FabricCheckReport &report);
// {"clean", "source", "design", "window_seconds", "checks", "errors", "warnings",
//  "findings": [{"severity", "kind", "message", "places": [{"node", "guid", "port"}]}]}.
QJsonObject checkReportJson(const FabricCheckReport &report);
// One CSV per kind of every check run ("<kind>.csv", a header alone when nothing was found):
// severity,node,guid,port,peer_node,peer_guid,peer_port,message (the first two places).
std::map<QString, QByteArray> checkReportCsv(const FabricCheckReport &report);

}  // namespace weft
