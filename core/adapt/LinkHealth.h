#pragma once
// Sick links (the unhealthy-links policy): the rule language's sick(link[...]) condition judged
// cable by cable over the metric store's window, with the counters that decided it; the marks an
// operator keeps (links marked sick by hand, links the policy never drains); and the cap on how
// many links the policy may hold drained. Pure: the loop (routing/adapt/AdaptLoop.h) drains and
// undrains through the drain plan and the verified commit.
//
// A cable is judged by both its ends over the window (default 5m) of ticks held; it is sick when
//   flapping      its ends' LinkDownedCounter rose by at least `flaps` (default 3) in the window
//                 (the counter counts every fall of the link to down);
//   bit errors    its ends' new SymbolErrorCounter counts, divided by the bits the link signalled
//                 meanwhile (active width x the lane's signalling rate x the seconds measured),
//                 exceed `ber` (default 1e-12, the raw bit error rate the IBA allows a link);
//                 where the width or speed is not known, at least `symbol_errors` (default 10,
//                 infiniband-diags' threshold for SymbolErrorCounter) new counts in the window;
//   unresponsive  one end's counters went unanswered (or were not read) in at least `unanswered`
//                 (default 3) of the latest `passes` (default 5) ticks; a tick's rates need two
//                 readings, so one silent pass leaves two ticks unanswered;
//   marked        the operator marked it sick (a `sick NODE[PORT]` line of the marks file).
// A cable marked `exclude` is never judged (nor drained, nor reported). Nothing measured is
// nothing sick: a cable with no tick in the window is judged on its marks alone.

#include "AdaptMetrics.h"
#include "Fabric.h"
#include "RuleLanguage.h"
#include "Result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace weft::adapt {

// The defaults of sick()'s options, as the header above documents them.
struct SickThresholds
{
    double windowSeconds = 300;
    int flaps = 3;
    double ber = 1e-12;
    int symbolErrors = 10;
    int unanswered = 3;
    int passes = 5;
};
// The rule's options over the defaults.
SickThresholds sickThresholds(const SickCriteria &criteria);

// One cable as judged: the counters that decided, and why it is sick (empty: healthy).
struct LinkEvidence
{
    PortIndex port = kNoIndex;  // the end with the lower port index
    PortIndex peer = kNoIndex;
    std::pair<Guid, int> end;   // `port` as (node GUID, port number): how drains name it
    QString name;               // "S1[3]–L1[1]"
    double windowSeconds = 0;
    int ticks = 0;              // ticks in the window
    std::uint64_t linkDowns = 0;
    std::uint64_t symbolErrors = 0;
    double seconds = 0;                 // the time the symbol errors were counted over
    std::optional<double> ber;          // symbol errors per bit signalled, where the rate is known
    int unansweredPasses = 0, passes = 0;  // the worse end's
    bool marked = false;
    QStringList reasons;  // "flapping", "bit errors", "unresponsive", "marked", with the figures

    bool sick() const { return !reasons.isEmpty(); }
    // {link, reasons, window_seconds, ticks, link_downs, symbol_errors, seconds, ber (null when
    //  the rate is unknown), unanswered, passes, marked}
    QJsonObject toJson() const;
    // "S1[3]–L1[1]: bit errors (12 symbol errors in 4 s, BER 7.5e-11 > 1e-12)"
    QString text() const;
};

// The operator's marks on links: one per line, `sick NODE[PORT]` or `exclude NODE[PORT]` (either
// end of the cable), `#` comments. Read again by `weft adapt` when the file changes.
struct LinkMark
{
    QString link;  // as written
    int line = 0;
};
struct LinkMarks
{
    QString fileName;
    std::vector<LinkMark> sick, excluded;
};
// Errors name the file and line.
Result<LinkMarks> parseLinkMarks(const QByteArray &text, const QString &fileName);

// The cables `links` names (link[all]: every cable; link["NODE[PORT]"]: the one at that port),
// less the excluded ones, judged over the store's ticks. `problems` gets a selector or mark that
// names nothing in the store's fabric.
std::vector<LinkEvidence> judgeLinks(const MetricStore &store, const Selector &links, const SickCriteria &criteria,
                                     const LinkMarks &marks, QStringList *problems = nullptr);
// judgeLinks' sick ones.
std::vector<LinkEvidence> sickLinks(const MetricStore &store, const Selector &links, const SickCriteria &criteria,
                                    const LinkMarks &marks, QStringList *problems = nullptr);
// One cable (by either end) judged over `windowSeconds` instead of the criteria's window: whether
// it was clean for an undrain. Nullopt when the fabric lacks the cable.
std::optional<LinkEvidence> judgeCable(const MetricStore &store, const std::pair<Guid, int> &end, const SickCriteria &criteria,
                                       double windowSeconds, const LinkMarks &marks);

// The most links the policy may hold drained when drain() gives no max=: the larger of 10 and
// 0.5 % of the fabric's cables (rounded up).
int defaultDrainCap(std::size_t cables);
std::size_t cableCount(const Fabric &fabric);

}  // namespace weft::adapt
