#include "RuleEngine.h"

#include <QDateTime>
#include <QJsonArray>
#include <QTime>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace weft::adapt {

struct RuleEngine::RuleState
{
    QString key;  // name + canonical text: a rule edited is a new rule
    std::optional<double> heldSince;
    std::optional<double> lastFired;
    std::optional<double> cooldownNotedFor;  // the firing whose cooldown record was written
    std::vector<char> termHolding;           // per metric term (depth-first order), for hysteresis
    int fired = 0, suppressed = 0;
};

QString firingKindName(FiringKind kind)
{
    switch (kind) {
    case FiringKind::Fired: return QStringLiteral("fired");
    case FiringKind::Suppressed: return QStringLiteral("suppressed");
    case FiringKind::Cooldown: return QStringLiteral("cooldown");
    }
    return {};
}

QJsonObject RuleFiring::toJson() const
{
    QJsonArray actionTexts;
    for (const Action &a : actions)
        actionTexts.append(actionToText(a));
    QJsonArray terms;
    for (const TermValue &t : inputs) {
        QJsonObject o;
        o.insert(QStringLiteral("term"), t.text);
        o.insert(QStringLiteral("value"), t.value ? QJsonValue(*t.value) : QJsonValue(QJsonValue::Null));
        o.insert(QStringLiteral("threshold"), t.threshold);
        o.insert(QStringLiteral("holds"), t.holds);
        terms.append(o);
    }
    QJsonObject o;
    o.insert(QStringLiteral("time"), time);
    o.insert(QStringLiteral("rule"), rule);
    o.insert(QStringLiteral("event"), firingKindName(kind));
    o.insert(QStringLiteral("actions"), actionTexts);
    o.insert(QStringLiteral("priority"), priority);
    o.insert(QStringLiteral("mode"), modeName(mode));
    o.insert(QStringLiteral("reason"), reason);
    o.insert(QStringLiteral("held_seconds"), heldSeconds);
    o.insert(QStringLiteral("inputs"), terms);
    if (!sickLinks.empty()) {
        QJsonArray links;
        for (const LinkEvidence &e : sickLinks)
            links.append(e.toJson());
        o.insert(QStringLiteral("sick_links"), links);
    }
    return o;
}

namespace {

QString ruleKey(const Rule &rule)
{
    return rule.name + QLatin1Char('\n') + ruleToText(rule);
}

// reroute, set_weight, set_isolation and drain change routing or what it is made from: two rules
// with such actions conflict.
bool changesRouting(const Rule &rule)
{
    return std::any_of(rule.actions.begin(), rule.actions.end(), [](const Action &a) {
        return a.kind == Action::Kind::Reroute || a.kind == Action::Kind::SetWeight
            || a.kind == Action::Kind::SetIsolation || a.kind == Action::Kind::Drain;
    });
}

bool compare(double v, Comparison c, double threshold)
{
    switch (c) {
    case Comparison::Less: return v < threshold;
    case Comparison::LessEqual: return v <= threshold;
    case Comparison::Greater: return v > threshold;
    case Comparison::GreaterEqual: return v >= threshold;
    case Comparison::Equal: return v == threshold;
    case Comparison::NotEqual: return v != threshold;
    }
    return false;
}

void collectWindows(const Condition &c, double *longest)
{
    if (c.kind == Condition::Kind::MetricCompare)
        *longest = std::max(*longest, double(c.metric.windowSeconds));
    if (c.kind == Condition::Kind::Sick)
        *longest = std::max(*longest, sickThresholds(c.sick).windowSeconds);
    for (const Condition &o : c.operands)
        collectWindows(o, longest);
}

int countMetricTerms(const Condition &c)
{
    int n = c.kind == Condition::Kind::MetricCompare ? 1 : 0;
    for (const Condition &o : c.operands)
        n += countMetricTerms(o);
    return n;
}

bool eventMatches(RuleEvent wanted, RuleEvent seen)
{
    if (wanted == seen)
        return true;
    // topology_change covers every change of the fabric's shape.
    return wanted == RuleEvent::TopologyChange
        && (seen == RuleEvent::LinkDown || seen == RuleEvent::NodeAdded || seen == RuleEvent::NodeRemoved);
}

// One evaluation of a condition tree on one tick. Every term is evaluated (no short cut), so
// that each metric term's hysteresis state follows its value on every tick and the inputs are
// complete.
struct Evaluation
{
    const MetricStore &store;
    const RuleEngineOptions &options;
    const std::map<QString, double> &parameters;
    const std::vector<RuleEvent> &events;
    int minuteOfDay = 0;
    std::vector<char> *holding = nullptr;
    int nextTerm = 0;
    std::vector<TermValue> terms;
    QString problem;
    const LinkMarks *marks = nullptr;
    std::vector<LinkEvidence> sick;

    bool holds(const Condition &c)
    {
        switch (c.kind) {
        case Condition::Kind::And: {
            bool all = true;
            for (const Condition &o : c.operands)
                all = holds(o) && all;
            return all;
        }
        case Condition::Kind::Or: {
            bool any = false;
            for (const Condition &o : c.operands)
                any = holds(o) || any;
            return any;
        }
        case Condition::Kind::Not: return !c.operands.empty() && !holds(c.operands.front());
        case Condition::Kind::MetricCompare: return metricHolds(c);
        case Condition::Kind::ParamCompare: {
            TermValue t{conditionToText(c), std::nullopt, c.value, false};
            auto it = parameters.find(c.param);
            if (it == parameters.end()) {
                note(QStringLiteral("parameter %1 is not set").arg(c.param));
            } else {
                t.value = it->second;
                t.holds = compare(it->second, c.comparison, c.value);
            }
            terms.push_back(t);
            return t.holds;
        }
        case Condition::Kind::TimeIn:
            if (c.fromMinute <= c.toMinute)
                return c.fromMinute <= minuteOfDay && minuteOfDay < c.toMinute;
            return minuteOfDay >= c.fromMinute || minuteOfDay < c.toMinute;
        case Condition::Kind::Event:
            return std::any_of(events.begin(), events.end(), [&](RuleEvent e) { return eventMatches(c.event, e); });
        case Condition::Kind::Sick: return sickHolds(c);
        }
        return false;
    }

    bool metricHolds(const Condition &c)
    {
        const int index = nextTerm++;
        char &wasHolding = (*holding)[std::size_t(index)];
        TermValue t{conditionToText(c), store.value(c.metric), c.value, false};
        const QString selectorProblem = store.selectorError(c.metric);
        if (!selectorProblem.isEmpty())
            note(selectorProblem);
        if (t.value) {
            const double v = *t.value;
            const double margin = std::max(options.hysteresisFraction * std::abs(c.value), options.hysteresisAbsolute);
            double threshold = c.value;
            if (wasHolding) {
                // Holding: it stops only once the value is back past the threshold by the margin.
                switch (c.comparison) {
                case Comparison::Greater:
                case Comparison::GreaterEqual: threshold = c.value - margin; break;
                case Comparison::Less:
                case Comparison::LessEqual: threshold = c.value + margin; break;
                case Comparison::Equal:
                case Comparison::NotEqual: break;
                }
                const Comparison strict = c.comparison == Comparison::GreaterEqual ? Comparison::Greater
                    : c.comparison == Comparison::LessEqual                        ? Comparison::Less
                                                                                   : c.comparison;
                t.holds = compare(v, margin > 0 ? strict : c.comparison, threshold);
            } else {
                t.holds = compare(v, c.comparison, threshold);
            }
        }
        wasHolding = t.holds;
        terms.push_back(t);
        return t.holds;
    }

    bool sickHolds(const Condition &c)
    {
        QStringList problems;
        const std::vector<LinkEvidence> found = sickLinks(store, c.link, c.sick, marks ? *marks : LinkMarks{}, &problems);
        for (const QString &p : problems)
            note(p);
        for (const LinkEvidence &e : found)
            if (std::none_of(sick.begin(), sick.end(), [&](const LinkEvidence &s) { return s.port == e.port; }))
                sick.push_back(e);
        terms.push_back(TermValue{conditionToText(c), double(found.size()), 0, !found.empty()});
        return !found.empty();
    }

    void note(const QString &message)
    {
        if (problem.isEmpty())
            problem = message;
        else if (!problem.contains(message))
            problem += QStringLiteral("; ") + message;
    }
};

}  // namespace

RuleEngine::RuleEngine(RuleEngineOptions options)
    : m_options(std::move(options)) {}

void RuleEngine::setRules(std::vector<Rule> rules)
{
    std::vector<std::shared_ptr<RuleState>> states;
    states.reserve(rules.size());
    for (const Rule &rule : rules) {
        const QString key = ruleKey(rule);
        std::shared_ptr<RuleState> kept;
        for (auto &old : m_states)
            if (old && old->key == key) {
                kept = old;
                old.reset();  // a state goes to one rule only
                break;
            }
        if (!kept) {
            kept = std::make_shared<RuleState>();
            kept->key = key;
        }
        kept->termHolding.resize(std::size_t(countMetricTerms(rule.condition)), 0);
        states.push_back(std::move(kept));
    }
    m_rules = std::move(rules);
    m_states = std::move(states);
    m_status.assign(m_rules.size(), RuleStatus{});
    for (std::size_t i = 0; i < m_rules.size(); ++i) {
        m_status[i].rule = m_rules[i].name;
        m_status[i].priority = m_rules[i].priority;
        m_status[i].forSeconds = double(m_rules[i].forSeconds);
        m_status[i].lastFired = m_states[i]->lastFired;
        m_status[i].fired = m_states[i]->fired;
        m_status[i].suppressed = m_states[i]->suppressed;
    }
}

void RuleEngine::setParameter(const QString &name, double value)
{
    m_parameters[name] = value;
}

void RuleEngine::noteEvent(RuleEvent event)
{
    m_pendingEvents.push_back(event);
}

double RuleEngine::longestWindowSeconds() const
{
    double longest = 0;
    for (const Rule &rule : m_rules) {
        longest = std::max(longest, double(rule.forSeconds));
        collectWindows(rule.condition, &longest);
        for (const Action &a : rule.actions)
            if (a.learnedWeightsWindow)
                longest = std::max(longest, double(*a.learnedWeightsWindow));
            else if (a.cleanSeconds)
                longest = std::max(longest, double(*a.cleanSeconds));
    }
    return longest;
}

std::vector<RuleFiring> RuleEngine::evaluate(const MetricStore &store)
{
    std::vector<RuleFiring> out;
    if (store.tickCount() == 0)
        return out;
    const double now = store.latestTime();
    if (m_lastTick == now)
        return out;
    m_lastTick = now;
    const std::vector<RuleEvent> events = std::move(m_pendingEvents);
    m_pendingEvents.clear();
    const QTime local = QDateTime::fromMSecsSinceEpoch(qint64(std::floor(now * 1000)), m_options.timeZone).time();
    const int minuteOfDay = local.hour() * 60 + local.minute();

    // Priority order: higher first, equal priorities in file order.
    std::vector<std::size_t> order(m_rules.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return m_rules[a].priority > m_rules[b].priority; });

    // Rules with routing actions that fired this tick or are cooling down, in priority order:
    // they suppress the conflicting rules after them.
    std::vector<std::size_t> winners;
    for (std::size_t i : order) {
        const Rule &rule = m_rules[i];
        RuleState &state = *m_states[i];
        RuleStatus &status = m_status[i];

        Evaluation e{store, m_options, m_parameters, events, minuteOfDay, &state.termHolding, 0, {}, {}, &m_marks, {}};
        const bool holds = e.holds(rule.condition);
        if (!holds)
            state.heldSince.reset();
        else if (!state.heldSince)
            state.heldSince = now;
        const double held = state.heldSince ? now - *state.heldSince : 0;
        const double cooldownLeft =
            state.lastFired ? std::max(0.0, *state.lastFired + double(rule.cooldownSeconds) - now) : 0.0;
        const bool routing = changesRouting(rule);

        auto record = [&](FiringKind kind, QString reason) {
            RuleFiring f;
            f.time = now;
            f.rule = rule.name;
            f.kind = kind;
            f.priority = rule.priority;
            f.mode = rule.mode;
            f.actions = rule.actions;
            f.reason = std::move(reason);
            f.inputs = e.terms;
            f.heldSeconds = held;
            f.sickLinks = e.sick;
            out.push_back(std::move(f));
        };

        if (holds && held >= double(rule.forSeconds)) {
            const auto winner = routing ? winners.begin() : winners.end();
            if (cooldownLeft > 0) {
                if (state.cooldownNotedFor != state.lastFired) {
                    state.cooldownNotedFor = state.lastFired;
                    record(FiringKind::Cooldown,
                           QStringLiteral("cooldown ends in %1").arg(durationToText(std::int64_t(std::ceil(cooldownLeft)))));
                }
            } else if (winner != winners.end()) {
                const Rule &w = m_rules[*winner];
                record(FiringKind::Suppressed, QStringLiteral("by %1 (priority %2)").arg(w.name).arg(w.priority));
                ++state.suppressed;
                state.heldSince = now;  // its `for` window starts again
            } else {
                record(FiringKind::Fired, {});
                ++state.fired;
                state.lastFired = now;
                state.heldSince = now;
            }
        }

        const double left = state.lastFired ? std::max(0.0, *state.lastFired + double(rule.cooldownSeconds) - now) : 0.0;
        if (routing && state.lastFired && (*state.lastFired == now || left > 0))
            winners.push_back(i);

        status.rule = rule.name;
        status.priority = rule.priority;
        status.holds = holds;
        status.heldSeconds = state.heldSince && holds ? now - *state.heldSince : 0;
        status.forSeconds = double(rule.forSeconds);
        status.cooldownLeft = left;
        status.lastFired = state.lastFired;
        status.fired = state.fired;
        status.suppressed = state.suppressed;
        status.terms = e.terms;
        status.problem = e.problem;
    }
    return out;
}

}  // namespace weft::adapt
