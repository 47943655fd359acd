#pragma once
// Evaluating rules on every monitor tick (the Analyze stage, spec 003 §5.4): which rules fire,
// which are held back by their cooldown, which lose to a rule of higher priority. Pure: the
// engine only decides; planning and committing are the loop's (AdaptLoop.h). The same engine
// runs live (weft adapt, the desk's Autopilot) and on a recorded trace (weft adapt --replay),
// so that a rule behaves the same in both.
//
// Semantics, written down because operators' rules depend on them:
// - Rules are evaluated in priority order (higher first; equal priorities in file order).
// - A condition holds on a tick when it is true on that tick. A rule fires when its condition
//   has held on every tick from some tick t0 on, and the latest tick is at least `for` seconds
//   after t0 (`for` 0: on the first tick it holds). After firing, t0 starts again at that tick:
//   holding on, it fires again only after another whole `for` window and its cooldown.
// - Cooldown: a rule that fired does not fire again until `cooldown` seconds have passed. When it
//   would have fired inside its cooldown, a `cooldown` record says so, once per cooldown period.
// - Hysteresis: a metric comparison that holds keeps holding until its value crosses back past
//   the threshold by the hysteresis margin (max(hysteresisFraction x |threshold|,
//   hysteresisAbsolute)): `x > 0.8` starts to hold above 0.8 and stops at or below 0.8 - margin.
//   Equal and not-equal comparisons have none; `>=` and `<=` holding stop past the margin as `>`
//   and `<` do. A value exactly at the threshold of `<` does not hold (`avg(...) < 40` does not
//   fire while the value stays at or above 40). Every term is evaluated on every tick (no
//   short cut through `and`/`or`), so each term's hysteresis follows its value.
// - Conflicts: actions that change routing or the knowledge it is made from (reroute,
//   set_weight, set_isolation, drain) conflict with each other. When a rule with such actions fires, a
//   lower-priority rule with such actions firing on the same tick, or while the winner's cooldown
//   runs, is `suppressed` (its `for` window starts again: a rule with `for` 0 gets a record on
//   every such tick); notify-only rules never conflict. Equal priorities: file order decides.
// - A metric with no value (nothing measured) makes its comparison false; an `event(E)` term is
//   true on the first tick after the event was noted (`topology_change` also on link_down,
//   node_added and node_removed); `time in A..B` holds from A up to but not including B, in
//   RuleEngineOptions::timeZone (local unless set; `weft adapt --utc` sets UTC), wrapping past
//   midnight when A > B; a parameter missing from the engine's parameters makes its comparison
//   false (and the rule's status says so).
// - `sick(link[...])` holds when at least one cable it names is sick (LinkHealth.h, no
//   hysteresis: its window is its memory); the firing carries every sick cable with its evidence,
//   for the rule's report(link), drain(link) and undrain(link).
// - A record's inputs are the rule's metric and parameter terms on that tick.

#include "AdaptMetrics.h"
#include "LinkHealth.h"
#include "RuleLanguage.h"

#include <QJsonObject>
#include <QString>
#include <QTimeZone>

#include <map>
#include <optional>
#include <vector>

namespace weft::adapt {

// clang-format off
enum class FiringKind : std::uint8_t { Fired, Suppressed, Cooldown };
// clang-format on
QString firingKindName(FiringKind kind);  // "fired", "suppressed", "cooldown"

// One metric term as evaluated on a tick: its canonical text, its value (if measured) and
// whether the comparison holds after hysteresis.
struct TermValue
{
    QString text;  // "avg(node[all].rx_gbps, window=5m) < 40"
    std::optional<double> value;
    double threshold = 0;
    bool holds = false;
};

struct RuleFiring
{
    double time = 0;  // the tick's time, seconds since the epoch
    QString rule;
    FiringKind kind = FiringKind::Fired;
    int priority = 0;
    RuleMode mode = RuleMode::Approve;
    std::vector<Action> actions;
    QString reason;  // suppressed: "by RULE (priority N)"; cooldown: "cooldown ends in 42s"
    std::vector<TermValue> inputs;  // the rule's metric terms on that tick
    double heldSeconds = 0;         // how long the condition had held
    std::vector<LinkEvidence> sickLinks;  // the cables the rule's sick() terms found, each once

    // {time, rule, event, actions: [text...], priority, mode, reason, held_seconds,
    //  inputs: [{term, value (null when unmeasured), threshold, holds}],
    //  sick_links: [LinkEvidence::toJson] when the rule has a sick() term}
    QJsonObject toJson() const;
};

// What the desk shows per rule after each tick.
struct RuleStatus
{
    QString rule;
    int priority = 0;
    bool holds = false;       // the condition on the latest tick
    double heldSeconds = 0;   // since t0; 0 when it does not hold
    double forSeconds = 0;
    double cooldownLeft = 0;  // seconds; 0 when not cooling down
    std::optional<double> lastFired;
    int fired = 0, suppressed = 0;
    std::vector<TermValue> terms;
    QString problem;  // a selector naming nothing here, a missing parameter; empty when none
};

struct RuleEngineOptions
{
    double hysteresisFraction = 0.05;
    double hysteresisAbsolute = 0;
    QTimeZone timeZone = QTimeZone::systemTimeZone();  // for `time in`
};

class RuleEngine
{
public:
    explicit RuleEngine(RuleEngineOptions options = {});

    // New rules. A rule whose name and text are unchanged keeps its state (held since, last
    // fired, hysteresis); others start afresh.
    void setRules(std::vector<Rule> rules);
    const std::vector<Rule> &rules() const { return m_rules; }

    // Values for `param CMP value` terms (e.g. set by `weft adapt --param NAME=VALUE`).
    void setParameter(const QString &name, double value);
    const std::map<QString, double> &parameters() const { return m_parameters; }

    // The operator's link marks (sick and excluded links) the sick() terms read.
    void setLinkMarks(LinkMarks marks) { m_marks = std::move(marks); }
    const LinkMarks &linkMarks() const { return m_marks; }

    // An event seen since the last tick (link down, node added, ...): event(E) terms hold on
    // the next tick.
    void noteEvent(RuleEvent event);

    // Evaluates every rule against the store's latest tick (at store.latestTime()); returns the
    // firings, suppressions and cooldown records of this tick, in priority order. Evaluating the
    // same tick twice returns nothing the second time (pending events wait for the next tick).
    std::vector<RuleFiring> evaluate(const MetricStore &store);

    const std::vector<RuleStatus> &status() const { return m_status; }
    // The longest window (metric windows, `for`) the rules need, for MetricStore retention.
    double longestWindowSeconds() const;

private:
    struct RuleState;
    RuleEngineOptions m_options;
    std::vector<Rule> m_rules;
    std::vector<std::shared_ptr<RuleState>> m_states;  // parallel to m_rules
    std::vector<RuleStatus> m_status;
    std::map<QString, double> m_parameters;
    std::vector<RuleEvent> m_pendingEvents;
    LinkMarks m_marks;
    std::optional<double> m_lastTick;  // the tick evaluated last: evaluating it again does nothing
};

}  // namespace weft::adapt
