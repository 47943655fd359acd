#pragma once
// Weft's rule language (spec 003 §5.4, our own grammar): condition → action rules over the
// monitor's metrics, parsed into plain values. Evaluation lives elsewhere; this file only
// reads and prints rules. Errors name file, line and column, as compilers do.

#include "Tenancy.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace weft::adapt {

// One line per enumeration, as in Tenancy.h.
// clang-format off
enum class Aggregate : std::uint8_t { Avg, Max, Min, P95, Sum };
enum class ScopeKind : std::uint8_t { Node, Link, Tenant, Partition, Fabric };
enum class MetricField : std::uint8_t { RxGbps, TxGbps, Util, XmitWaitRate, Errors, Weight };
enum class Comparison : std::uint8_t { Less, LessEqual, Greater, GreaterEqual, Equal, NotEqual };
enum class RuleEvent : std::uint8_t { TopologyChange, LinkDown, NodeAdded, NodeRemoved, VmMigrated, TenantChanged };
enum class RuleMode : std::uint8_t { Auto, Approve, DryRun };
enum class RerouteEngine : std::uint8_t { Ftree, Wftree, Pftree, Wpftree, Vswitch };
enum class RerouteMethod : std::uint8_t { SlimUpdate, Metabase, Full };
// clang-format on

// `all`, or one node (link) by its name or GUID as written in quotes.
struct Selector
{
    bool all = true;
    QString name;
    bool operator==(const Selector &o) const { return all == o.all && name == o.name; }
};

// sick(link[SELECTOR][, OPTION=VALUE]...): the thresholds of a sick link (LinkHealth.h). Unset
// options are the documented defaults (sickDefaults()).
struct SickCriteria
{
    std::optional<std::int64_t> windowSeconds;  // window=D
    std::optional<int> flaps;                   // flaps=N: link-down counts in the window
    std::optional<double> ber;                  // ber=X: symbol errors per bit on the wire
    std::optional<int> symbolErrors;            // symbol_errors=N: where the link's rate is unknown
    std::optional<int> unanswered;              // unanswered=K: ticks unanswered ...
    std::optional<int> passes;                  // passes=N: ... of the latest N
    bool operator==(const SickCriteria &o) const
    {
        return windowSeconds == o.windowSeconds && flaps == o.flaps && ber == o.ber && symbolErrors == o.symbolErrors
            && unanswered == o.unanswered && passes == o.passes;
    }
};

// AGG(SCOPE.FIELD[, window=DURATION]). `target` is the node/link selector; tenant and
// partition scopes name theirs in `target.name`; fabric has none.
struct Metric
{
    Aggregate aggregate = Aggregate::Avg;
    ScopeKind scope = ScopeKind::Fabric;
    Selector target;
    MetricField field = MetricField::Util;
    std::int64_t windowSeconds = 0;  // 0: the latest tick
    bool operator==(const Metric &o) const
    {
        return aggregate == o.aggregate && scope == o.scope && target == o.target && field == o.field && windowSeconds == o.windowSeconds;
    }
};

struct Condition
{
    // clang-format off
    enum class Kind : std::uint8_t { And, Or, Not, MetricCompare, ParamCompare, TimeIn, Event, Sick };
    // clang-format on
    Kind kind = Kind::MetricCompare;
    std::vector<Condition> operands;  // And, Or (two or more), Not (one)
    Metric metric;                    // MetricCompare
    QString param;                    // ParamCompare
    Comparison comparison = Comparison::Less;
    double value = 0;
    int fromMinute = 0, toMinute = 0;  // TimeIn: minutes after midnight; wraps when from > to
    RuleEvent event = RuleEvent::TopologyChange;
    Selector link;          // Sick: the links looked at
    SickCriteria sick;      // Sick
    bool operator==(const Condition &o) const;
};

struct Action
{
    // clang-format off
    enum class Kind : std::uint8_t { Reroute, SetWeight, SetIsolation, Notify, RequireApproval, Report, Drain, Undrain };
    // clang-format on
    Kind kind = Kind::Notify;
    // Reroute: unset options are the loop's defaults.
    RerouteEngine engine = RerouteEngine::Ftree;
    std::optional<std::int64_t> learnedWeightsWindow;  // weights=learned(D); unset: static
    bool weightsGiven = false;                         // weights= written at all
    std::optional<RerouteMethod> method;
    std::optional<double> tau;
    Selector node;      // SetWeight
    double weight = 0;  // SetWeight
    QString partition;  // SetIsolation
    IsolationPolicy policy = IsolationPolicy::Default;
    QString text;  // Notify
    // report(link), drain(link[, max=N]), undrain(link[, clean=D]): the links the rule's sick()
    // terms found. Unset: the defaults (LinkHealth.h).
    std::optional<int> maxDrained;              // Drain: the cap on links the policy holds drained
    std::optional<std::int64_t> cleanSeconds;   // Undrain: how long a drained link must be clean
    bool operator==(const Action &o) const;
};

struct Rule
{
    QString name;
    int line = 0;  // where `rule` stands in the file
    int priority = 0;
    std::int64_t cooldownSeconds = 0;
    RuleMode mode = RuleMode::Approve;
    Condition condition;
    std::int64_t forSeconds = 0;
    std::vector<Action> actions;
    bool operator==(const Rule &o) const;  // ignores `line`
};

struct RuleSyntaxError
{
    QString file;
    int line = 0;
    int column = 0;
    QString message;
    // "file:line:column: message", the form editors jump to.
    QString toString() const;
};

struct RuleFile
{
    std::vector<Rule> rules;
    std::optional<RuleSyntaxError> error;  // the first; `rules` is empty when set
    bool ok() const { return !error; }
};

RuleFile parseRules(const QByteArray &text, const QString &fileName);

// The canonical text of a rule, on one line: parseRules gives the same Rule back.
QString ruleToText(const Rule &rule);
QString actionToText(const Action &action);
QString conditionToText(const Condition &condition);
// 9000 -> "2h30m"; 0 -> "0s".
QString durationToText(std::int64_t seconds);
QString modeName(RuleMode mode);
// "auto", "approve", "dry-run" (the spellings of `mode` in a rule); nullopt for any other text.
std::optional<RuleMode> modeFromName(const QString &name);

}  // namespace weft::adapt
