#include "AdaptLoop.h"

#include "CommitPlanning.h"

#include "CommitJournal.h"
#include "DrainPlan.h"
#include "IntentRouting.h"
#include "PartitionsConf.h"
#include "ReconfigurationPlan.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QtGlobal>

#include <algorithm>
#include <cmath>
#include <optional>

namespace weft::adapt {

namespace {

double now()
{
    return double(QDateTime::currentMSecsSinceEpoch()) / 1000;
}

bool changesRouting(const Action &action)
{
    return action.kind == Action::Kind::Reroute || action.kind == Action::Kind::SetWeight || action.kind == Action::Kind::SetIsolation;
}

bool isTopologyEvent(RuleEvent event)
{
    return event == RuleEvent::TopologyChange || event == RuleEvent::LinkDown || event == RuleEvent::NodeAdded
        || event == RuleEvent::NodeRemoved;
}

QString eventText(RuleEvent event)
{
    Condition c;
    c.kind = Condition::Kind::Event;
    c.event = event;
    return conditionToText(c);  // "event(link_down)"
}

bool isLinkAction(const Action &action, Action::Kind kind)
{
    return action.kind == kind;
}

const Condition *firstSickTerm(const Condition &c)
{
    if (c.kind == Condition::Kind::Sick)
        return &c;
    for (const Condition &o : c.operands)
        if (const Condition *found = firstSickTerm(o))
            return found;
    return nullptr;
}

QJsonArray evidenceJson(const std::vector<LinkEvidence> &evidence)
{
    QJsonArray links;
    for (const LinkEvidence &e : evidence)
        links.append(e.toJson());
    return links;
}

QString evidenceText(const std::vector<LinkEvidence> &evidence)
{
    QStringList texts;
    for (const LinkEvidence &e : evidence)
        texts << e.text();
    return texts.join(QStringLiteral("; "));
}

QString loadText(double load)
{
    return QString::number(load, 'g', 4);
}

}  // namespace

QString mapeStageName(MapeStage stage)
{
    switch (stage) {
    case MapeStage::Monitor: return QStringLiteral("monitor");
    case MapeStage::Analyze: return QStringLiteral("analyze");
    case MapeStage::Plan: return QStringLiteral("plan");
    case MapeStage::Execute: return QStringLiteral("execute");
    case MapeStage::Knowledge: return QStringLiteral("knowledge");
    }
    return {};
}

RuleMode carefulMode(RuleMode a, RuleMode b)
{
    auto rank = [](RuleMode m) { return m == RuleMode::DryRun ? 2 : m == RuleMode::Approve ? 1
                                                                                           : 0; };
    return rank(a) >= rank(b) ? a : b;
}

AdaptLoop::AdaptLoop(AdaptKnowledge knowledge, AdaptLoopOptions options)
    : m_knowledge(std::move(knowledge)),
      m_options(std::move(options)),
      m_store(m_knowledge.fabric, m_knowledge.tenancy),
      m_engine(m_options.engine)
{
    if (!m_knowledge.metabase)
        m_knowledge.metabase = std::make_shared<Metabase>();
    if (m_knowledge.fabric && m_knowledge.installed)
        setStage(MapeStage::Knowledge, now(),
                 QStringLiteral("%1 switches, %2 end nodes, tables of %3 switches installed")
                     .arg(m_knowledge.fabric->switches().size())
                     .arg(m_knowledge.fabric->endNodes().size())
                     .arg(m_knowledge.installed->size()));
}

Status AdaptLoop::loadRules(const QByteArray &text, const QString &fileName)
{
    RuleFile file = parseRules(text, fileName);
    if (!file.ok()) {
        const RuleSyntaxError &e = *file.error;
        record({now(), QStringLiteral("rules-refused"), {}, QStringLiteral("rules refused, the previous %1 stay in force: %2").arg(m_engine.rules().size()).arg(e.toString()), QJsonObject{{QStringLiteral("file"), e.file}, {QStringLiteral("line"), e.line}, {QStringLiteral("column"), e.column}, {QStringLiteral("error"), e.toString()}}});
        return Error{{}, 0, e.toString()};  // "file:line:column: message" as it stands
    }
    QJsonArray rules;
    for (const Rule &rule : file.rules)
        rules.append(ruleToText(rule));
    const std::size_t count = file.rules.size();
    m_engine.setRules(std::move(file.rules));
    record({now(), QStringLiteral("rules-loaded"), {}, QStringLiteral("%1 rules from %2").arg(count).arg(fileName), QJsonObject{{QStringLiteral("file"), fileName}, {QStringLiteral("rules"), rules}}});
    return Done{};
}

void AdaptLoop::setMode(RuleMode mode)
{
    m_options.mode = mode;
}

void AdaptLoop::setPaused(bool paused)
{
    m_paused = paused;
}

void AdaptLoop::noteEvent(RuleEvent event)
{
    m_engine.noteEvent(event);
    const bool topology = isTopologyEvent(event);
    if (topology)
        m_knowledge.topologyChanged = true;
    record({now(), QStringLiteral("event"), {}, topology ? QStringLiteral("%1: the metabase is rebuilt at the next plan").arg(eventText(event)) : eventText(event), QJsonObject{{QStringLiteral("event"), eventText(event)}, {QStringLiteral("topology"), topology}}});
}

std::vector<PendingChange> AdaptLoop::tick(double time, std::vector<TelemetryRecord> records, CandidateProgress *progress)
{
    // Keep what the rules and the learned weights look back over: an EWMA of window D has
    // forgotten all but 5 % of what is older than 3 D.
    double retention = m_engine.longestWindowSeconds();
    for (const Rule &rule : m_engine.rules())
        for (const Action &action : rule.actions)
            if (action.kind == Action::Kind::Reroute) {
                const double window = action.learnedWeightsWindow ? double(*action.learnedWeightsWindow)
                                                                  : m_options.planner.learned.defaultWindowSeconds;
                retention = std::max(retention, 3 * window);
            }
    m_store.setRetentionSeconds(std::max(retention, 60.0));

    const std::size_t ports = records.size();
    m_store.addTick(time, std::move(records));
    setStage(MapeStage::Monitor, time, QStringLiteral("%1 ports, %2 ticks held").arg(ports).arg(m_store.tickCount()));

    const std::vector<RuleFiring> firings = m_engine.evaluate(m_store);
    int holding = 0;
    for (const RuleStatus &status : m_engine.status())
        holding += status.holds ? 1 : 0;
    setStage(MapeStage::Analyze, time,
             QStringLiteral("%1 of %2 rules hold, %3 firings").arg(holding).arg(m_engine.rules().size()).arg(firings.size()));

    std::vector<PendingChange> changes;
    for (const RuleFiring &firing : firings) {
        const QString kind = firingKindName(firing.kind);
        QStringList actions;
        for (const Action &action : firing.actions)
            actions << actionToText(action);
        QString summary = QStringLiteral("%1 %2: %3").arg(firing.rule, kind, actions.join(QStringLiteral(", ")));
        if (!firing.reason.isEmpty())
            summary += QStringLiteral(" (%1)").arg(firing.reason);
        record({firing.time, kind, firing.rule, summary, firing.toJson()});
        if (firing.kind != FiringKind::Fired)
            continue;
        if (m_paused) {
            record({firing.time, QStringLiteral("paused"), firing.rule, QStringLiteral("%1: autonomy paused, nothing planned").arg(firing.rule), {}});
            continue;
        }
        for (const Action &action : firing.actions)
            if (action.kind == Action::Kind::Notify)
                record({firing.time, QStringLiteral("notify"), firing.rule, QStringLiteral("%1: %2").arg(firing.rule, action.text),
                        QJsonObject{{QStringLiteral("text"), action.text}}});
        if (std::any_of(firing.actions.begin(), firing.actions.end(), [](const Action &a) { return isLinkAction(a, Action::Kind::Report); }))
            reportSickLinks(firing);
        for (const Action &action : firing.actions)
            if (action.kind == Action::Kind::Drain)
                planDrain(firing, action, changes);
        if (std::any_of(firing.actions.begin(), firing.actions.end(), changesRouting))
            planAndDecide(firing, changes, progress);
    }
    if (!m_paused)
        planUndrains(time, changes);
    return changes;
}

Status AdaptLoop::loadLinkMarks(const QByteArray &text, const QString &fileName)
{
    Result<LinkMarks> marks = parseLinkMarks(text, fileName);
    if (!marks) {
        record({now(), QStringLiteral("marks-refused"), {}, QStringLiteral("link marks refused, the previous stay in force: %1").arg(marks.error().toString()),
                QJsonObject{{QStringLiteral("file"), fileName}, {QStringLiteral("error"), marks.error().toString()}}});
        return marks.error();
    }
    QJsonArray sick, excluded;
    for (const LinkMark &m : marks->sick)
        sick.append(m.link);
    for (const LinkMark &m : marks->excluded)
        excluded.append(m.link);
    record({now(), QStringLiteral("marks-loaded"), {},
            QStringLiteral("link marks from %1: %2 marked sick, %3 excluded").arg(fileName).arg(sick.size()).arg(excluded.size()),
            QJsonObject{{QStringLiteral("file"), fileName}, {QStringLiteral("sick"), sick}, {QStringLiteral("excluded"), excluded}}});
    m_engine.setLinkMarks(std::move(*marks));
    return Done{};
}

bool AdaptLoop::policyHolds(const std::pair<Guid, int> &end) const
{
    const Fabric &fabric = *m_knowledge.fabric;
    return std::any_of(m_policyDrained.begin(), m_policyDrained.end(), [&](const PolicyDrain &d) { return sameCable(fabric, d.end, end); });
}

void AdaptLoop::reportSickLinks(const RuleFiring &firing)
{
    for (const LinkEvidence &e : firing.sickLinks)
        record({firing.time, QStringLiteral("sick-link"), firing.rule, QStringLiteral("%1: sick %2").arg(firing.rule, e.text()), e.toJson()});
}

void AdaptLoop::planDrain(const RuleFiring &firing, const Action &drain, std::vector<PendingChange> &changes)
{
    const Fabric &fabric = *m_knowledge.fabric;
    std::vector<LinkEvidence> wanted;
    for (const LinkEvidence &e : firing.sickLinks)
        if (!policyHolds(e.end))
            wanted.push_back(e);
    if (wanted.empty())
        return;
    // The cap counts what the policy holds drained already.
    const int cap = drain.maxDrained.value_or(defaultDrainCap(cableCount(fabric)));
    const std::size_t room = std::size_t(std::max(0, cap - int(m_policyDrained.size())));
    if (wanted.size() > room) {
        const std::vector<LinkEvidence> capped(wanted.begin() + std::ptrdiff_t(room), wanted.end());
        wanted.resize(room);
        record({firing.time, QStringLiteral("drain-capped"), firing.rule,
                QStringLiteral("%1: not drained, the policy may hold %2 links drained and holds %3: %4")
                    .arg(firing.rule).arg(cap).arg(m_policyDrained.size()).arg(evidenceText(capped)),
                QJsonObject{{QStringLiteral("cap"), cap},
                            {QStringLiteral("drained"), qint64(m_policyDrained.size())},
                            {QStringLiteral("links"), evidenceJson(capped)}}});
    }
    if (wanted.empty())
        return;
    auto changeOf = [&](std::vector<LinkEvidence> links) {
        LinkChange change;
        change.drain = true;
        for (const LinkEvidence &e : links)
            change.elements.failedLinkPorts.push_back(e.end);
        change.evidence = std::move(links);
        change.what = drainedElementsText(fabric, change.elements);
        return change;
    };
    LinkChange change = changeOf(wanted);
    // Together refused: each alone, those refused reported, the others drained together.
    if (wanted.size() > 1 && !linkChangeProblems(change).isEmpty()) {
        std::vector<LinkEvidence> passing;
        for (const LinkEvidence &e : wanted) {
            const LinkChange alone = changeOf({e});
            if (const QStringList problems = linkChangeProblems(alone); !problems.isEmpty())
                recordRefusal(firing, alone, problems);
            else
                passing.push_back(e);
        }
        if (passing.empty())
            return;
        change = changeOf(std::move(passing));
    }
    RuleMode mode = carefulMode(m_options.mode, firing.mode);
    if (std::any_of(firing.actions.begin(), firing.actions.end(), [](const Action &a) { return a.kind == Action::Kind::RequireApproval; }))
        mode = carefulMode(mode, RuleMode::Approve);
    proposeLinkChange(firing, mode, std::move(change), changes);
}

void AdaptLoop::planUndrains(double time, std::vector<PendingChange> &changes)
{
    if (m_policyDrained.empty() || !m_knowledge.fabric)
        return;
    for (const Rule &rule : m_engine.rules()) {
        const auto undrain = std::find_if(rule.actions.begin(), rule.actions.end(), [](const Action &a) { return a.kind == Action::Kind::Undrain; });
        const Condition *sick = firstSickTerm(rule.condition);
        if (undrain == rule.actions.end() || !sick)
            continue;
        const double clean = undrain->cleanSeconds ? double(*undrain->cleanSeconds) : sickThresholds(sick->sick).windowSeconds;
        LinkChange change;
        change.drain = false;
        for (const PolicyDrain &d : m_policyDrained) {
            if (d.rule != rule.name || d.awaiting || time - d.since < clean)
                continue;
            const std::optional<LinkEvidence> judged = judgeCable(m_store, d.end, sick->sick, clean, m_engine.linkMarks());
            // Clean means measured and found healthy over the whole window.
            if (!judged || judged->sick() || judged->ticks == 0)
                continue;
            change.elements.failedLinkPorts.push_back(d.end);
            change.evidence.push_back(*judged);
        }
        if (change.evidence.empty())
            continue;
        change.what = drainedElementsText(*m_knowledge.fabric, change.elements);
        RuleFiring firing;
        firing.time = time;
        firing.rule = rule.name;
        firing.priority = rule.priority;
        firing.mode = rule.mode;
        firing.actions = rule.actions;
        RuleMode mode = carefulMode(m_options.mode, rule.mode);
        if (std::any_of(rule.actions.begin(), rule.actions.end(), [](const Action &a) { return a.kind == Action::Kind::RequireApproval; }))
            mode = carefulMode(mode, RuleMode::Approve);
        proposeLinkChange(firing, mode, std::move(change), changes);
    }
}

Project AdaptLoop::linkChangeIntent(const LinkChange &change) const
{
    const Fabric &fabric = *m_knowledge.fabric;
    Project intent;
    intent.tenancy = m_knowledge.tenancy;
    if (!change.drain) {
        WhatIf remaining;
        for (const PolicyDrain &d : m_policyDrained)
            if (std::none_of(change.elements.failedLinkPorts.begin(), change.elements.failedLinkPorts.end(),
                             [&](const std::pair<Guid, int> &end) { return sameCable(fabric, d.end, end); }))
                remaining.failedLinkPorts.push_back(d.end);
        intent = withDrained(intent, remaining, &fabric);
    }
    return intent;
}

QStringList AdaptLoop::linkChangeProblems(const LinkChange &change) const
{
    const Project intent = linkChangeIntent(change);
    Result<IntentRouting> routed = routeDrainChange(*m_knowledge.fabric, intent, m_knowledge.installed.get(), change.elements, false, change.drain);
    if (!routed)
        return {routed.error().toString()};
    return drainProblems(*m_knowledge.fabric, intent.tenancy, *routed);
}

void AdaptLoop::recordRefusal(const RuleFiring &firing, const LinkChange &change, const QStringList &problems)
{
    const QString verb = change.drain ? QStringLiteral("drain") : QStringLiteral("undrain");
    setStage(MapeStage::Plan, firing.time, QStringLiteral("%1: %2 refused").arg(firing.rule, verb));
    record({firing.time, verb + QStringLiteral("-refused"), firing.rule,
            QStringLiteral("%1: %2 of %3 refused, nothing written: %4 (evidence: %5)")
                .arg(firing.rule, verb, change.what, problems.join(QStringLiteral("; ")), evidenceText(change.evidence)),
            QJsonObject{{QStringLiteral("action"), verb},
                        {QStringLiteral("what"), change.what},
                        {QStringLiteral("links"), evidenceJson(change.evidence)},
                        {QStringLiteral("problems"), QJsonArray::fromStringList(problems)}}});
}

void AdaptLoop::proposeLinkChange(const RuleFiring &firing, RuleMode mode, LinkChange change, std::vector<PendingChange> &changes)
{
    const Fabric &fabric = *m_knowledge.fabric;
    const double time = firing.time;
    const QString verb = change.drain ? QStringLiteral("drain") : QStringLiteral("undrain");
    // The drain plan of `weft drain` with OpenSM's file engine: a drain repairs the tables the
    // switches hold around the cables; an undrain routes the fabric again, the cables the policy
    // still holds drained left out.
    const Project intent = linkChangeIntent(change);
    QJsonObject details{{QStringLiteral("action"), verb}, {QStringLiteral("what"), change.what}, {QStringLiteral("links"), evidenceJson(change.evidence)}};
    Result<IntentRouting> routed = routeDrainChange(fabric, intent, m_knowledge.installed.get(), change.elements, false, change.drain);
    if (!routed) {
        details.insert(QStringLiteral("error"), routed.error().toString());
        setStage(MapeStage::Plan, time, QStringLiteral("%1: %2 failed").arg(firing.rule, verb));
        record({time, QStringLiteral("plan-failed"), firing.rule,
                QStringLiteral("%1: %2 %3 could not be planned: %4").arg(firing.rule, verb, change.what, routed.error().toString()), details});
        return;
    }
    change.method = routed->method;
    details.insert(QStringLiteral("method"), routed->method);
    if (const QStringList problems = drainProblems(fabric, intent.tenancy, *routed); !problems.isEmpty()) {
        recordRefusal(firing, change, problems);
        return;
    }
    const QString decision = QStringLiteral("%1 %2").arg(verb, change.what);
    setStage(MapeStage::Plan, time, QStringLiteral("%1: %2").arg(firing.rule, decision));
    details.insert(QStringLiteral("mode"), modeName(mode));
    if (mode == RuleMode::DryRun) {
        setStage(MapeStage::Execute, time, QStringLiteral("dry-run: %1 not committed").arg(decision));
        record({time, QStringLiteral("dry-run"), firing.rule,
                QStringLiteral("%1: dry-run, would %2: %3").arg(firing.rule, decision, evidenceText(change.evidence)), details});
        return;
    }
    PendingChange pending;
    pending.id = m_nextId++;
    pending.mode = mode;
    pending.plan.firing = firing;
    pending.plan.tenancy = intent.tenancy;
    pending.plan.decision = decision;
    PlanLabel label;
    label.partitionsFileName = QStringLiteral("partitions.conf (autopilot plan)");
    label.summary = QStringLiteral("autopilot: rule %1, %2").arg(firing.rule, decision);
    HeldTables against;
    against.lfts = m_knowledge.installed;
    auto tables = std::make_shared<const ForwardingTables>(std::move(routed->routing.tables));
    pending.commitPlan = planFromTenancy(&fabric, {tables, routed->routing.serviceLevels}, intent.tenancy, label, against);
    if (mode == RuleMode::Approve) {
        for (PolicyDrain &d : m_policyDrained)
            if (!change.drain
                && std::any_of(change.elements.failedLinkPorts.begin(), change.elements.failedLinkPorts.end(),
                               [&](const std::pair<Guid, int> &end) { return sameCable(fabric, d.end, end); }))
                d.awaiting = true;
        setStage(MapeStage::Execute, time, QStringLiteral("awaiting approval: %1").arg(decision));
        record({time, QStringLiteral("awaiting-approval"), firing.rule,
                QStringLiteral("%1: %2 awaits approval: %3").arg(firing.rule, decision, evidenceText(change.evidence)), details});
    } else {
        setStage(MapeStage::Execute, time, QStringLiteral("committing %1").arg(decision));
    }
    pending.links = std::move(change);
    changes.push_back(std::move(pending));
}

void AdaptLoop::linkChangeExecuted(const PendingChange &change, const CommitReport &report)
{
    const double time = now();
    const QString &rule = change.plan.firing.rule;
    const LinkChange &links = change.links;
    const QString verb = links.drain ? QStringLiteral("drain") : QStringLiteral("undrain");
    const Fabric &fabric = *m_knowledge.fabric;
    if (change.mode == RuleMode::Approve)
        record({time, QStringLiteral("approved"), rule, QStringLiteral("%1: %2 approved").arg(rule, change.plan.decision),
                QJsonObject{{QStringLiteral("change"), double(change.id)}}});
    auto matches = [&](const PolicyDrain &d) {
        return std::any_of(links.elements.failedLinkPorts.begin(), links.elements.failedLinkPorts.end(),
                           [&](const std::pair<Guid, int> &end) { return sameCable(fabric, d.end, end); });
    };
    QJsonObject details{{QStringLiteral("action"), verb},
                        {QStringLiteral("what"), links.what},
                        {QStringLiteral("method"), links.method},
                        {QStringLiteral("links"), evidenceJson(links.evidence)},
                        {QStringLiteral("change"), double(change.id)},
                        {QStringLiteral("commit"), report.toJson()}};
    if (report.ok()) {
        m_knowledge.installed = report.held.lfts ? report.held.lfts : std::make_shared<const ForwardingTables>(change.commitPlan.tables);
        if (links.drain) {
            // The clean window is counted in the ticks' time, from the tick that planned it.
            const double since = m_store.tickCount() ? m_store.latestTime() : time;
            for (std::size_t i = 0; i < links.evidence.size(); ++i)
                m_policyDrained.push_back({links.evidence[i].end, links.evidence[i].name, rule, since, false});
        } else {
            m_policyDrained.erase(std::remove_if(m_policyDrained.begin(), m_policyDrained.end(), matches), m_policyDrained.end());
        }
        details.insert(QStringLiteral("policy_drained"), qint64(m_policyDrained.size()));
        setStage(MapeStage::Execute, time, QStringLiteral("committed %1").arg(change.plan.decision));
        setStage(MapeStage::Knowledge, time, QStringLiteral("installed: %1 (rule %2)").arg(change.plan.decision, rule));
        record({time, links.drain ? QStringLiteral("drained") : QStringLiteral("undrained"), rule,
                QStringLiteral("%1: %2ed %3: %4").arg(rule, verb, links.what, evidenceText(links.evidence)), details});
        return;
    }
    for (PolicyDrain &d : m_policyDrained)
        if (matches(d))
            d.awaiting = false;
    if (report.held.lfts && (!m_knowledge.installed || !(*report.held.lfts == *m_knowledge.installed)))
        m_knowledge.installed = report.held.lfts;
    const QString event = report.outcome == CommitOutcome::Stale ? QStringLiteral("stale") : verb + QStringLiteral("-failed");
    setStage(MapeStage::Execute, time, QStringLiteral("%1: %2").arg(change.plan.decision, commitOutcomeName(report.outcome)));
    record({time, event, rule,
            QStringLiteral("%1: %2 %3: %4").arg(rule, change.plan.decision, commitOutcomeName(report.outcome), report.reasons.join(QStringLiteral("; "))),
            details});
}

void AdaptLoop::planAndDecide(const RuleFiring &firing, std::vector<PendingChange> &changes, CandidateProgress *progress)
{
    // The candidates are routed on the whole fabric: they would put routes back on the links the
    // policy holds drained. None is planned until those are undrained.
    if (!m_policyDrained.empty()) {
        QStringList names;
        for (const PolicyDrain &d : m_policyDrained)
            names << d.name;
        setStage(MapeStage::Plan, firing.time, QStringLiteral("%1: held back by drained links").arg(firing.rule));
        record({firing.time, QStringLiteral("plan-refused"), firing.rule,
                QStringLiteral("%1: not planned: a re-route would use the %2 link(s) the sick-link policy holds drained (%3)")
                    .arg(firing.rule).arg(names.size()).arg(names.join(QStringLiteral(", "))),
                QJsonObject{{QStringLiteral("drained"), QJsonArray::fromStringList(names)}}});
        return;
    }
    Result<PlannedChange> planned = planFiring(firing, m_knowledge, m_store, m_options.planner, progress);
    const double time = firing.time;
    if (!planned) {
        setStage(MapeStage::Plan, time, QStringLiteral("%1: failed").arg(firing.rule));
        record({time, QStringLiteral("plan-failed"), firing.rule,
                QStringLiteral("%1: planning failed: %2").arg(firing.rule, planned.error().toString()),
                QJsonObject{{QStringLiteral("error"), planned.error().toString()}}});
        return;
    }
    PlannedChange &plan = *planned;
    setStage(MapeStage::Plan, time, QStringLiteral("%1: %2").arg(firing.rule, plan.decision));
    if (plan.metabaseInvalidated)
        setStage(MapeStage::Knowledge, time, QStringLiteral("metabase rebuilt: the topology changed"));
    record({time, QStringLiteral("planned"), firing.rule, QStringLiteral("%1: %2").arg(firing.rule, plan.decision), plan.toJson()});
    const CandidateResult *chosen = plan.chosenCandidate();
    if (!chosen) {
        record({time, QStringLiteral("no-improvement"), firing.rule, QStringLiteral("%1: %2, nothing to do").arg(firing.rule, plan.decision),
                QJsonObject{{QStringLiteral("decision"), plan.decision}}});
        return;
    }

    RuleMode mode = carefulMode(m_options.mode, firing.mode);
    if (std::any_of(firing.actions.begin(), firing.actions.end(), [](const Action &a) { return a.kind == Action::Kind::RequireApproval; }))
        mode = carefulMode(mode, RuleMode::Approve);
    const QJsonObject figures{{QStringLiteral("candidate"), chosen->name},
                              {QStringLiteral("mode"), modeName(mode)},
                              {QStringLiteral("max_link_load_before"), chosen->maxLinkLoadBefore},
                              {QStringLiteral("max_link_load_after"), chosen->maxLinkLoadAfter},
                              {QStringLiteral("smps"), double(chosen->smps)},
                              {QStringLiteral("changed_paths"), double(chosen->changedPaths)}};
    const QString what = QStringLiteral("%1 (max link load %2 -> %3, %4 SMPs)")
                             .arg(chosen->name, loadText(chosen->maxLinkLoadBefore), loadText(chosen->maxLinkLoadAfter))
                             .arg(chosen->smps);
    if (mode == RuleMode::DryRun) {
        setStage(MapeStage::Execute, time, QStringLiteral("dry-run: %1 not committed").arg(chosen->name));
        record({time, QStringLiteral("dry-run"), firing.rule, QStringLiteral("%1: dry-run, would commit %2").arg(firing.rule, what), figures});
        return;
    }
    PendingChange change;
    change.id = m_nextId++;
    change.mode = mode;
    change.commitPlan = commitPlanFor(plan);
    change.plan = std::move(plan);
    if (mode == RuleMode::Approve) {
        setStage(MapeStage::Execute, time, QStringLiteral("awaiting approval: %1").arg(chosen->name));
        record({time, QStringLiteral("awaiting-approval"), firing.rule, QStringLiteral("%1: %2 awaits approval").arg(firing.rule, what), figures});
    } else {
        setStage(MapeStage::Execute, time, QStringLiteral("committing %1").arg(chosen->name));
    }
    changes.push_back(std::move(change));
}

CommitPlan AdaptLoop::commitPlanFor(const PlannedChange &plan) const
{
    const CandidateResult *chosen = plan.chosenCandidate();
    if (!chosen || !chosen->tables || !m_knowledge.fabric)
        return {};
    const double score = std::size_t(plan.chosen) < plan.scores.size() ? plan.scores[std::size_t(plan.chosen)] : 0.0;
    PlanLabel label;
    label.partitionsFileName = QStringLiteral("partitions.conf (autopilot plan)");
    label.summary = QStringLiteral("autopilot: rule %1, %2 (score %3)").arg(plan.firing.rule, chosen->name, QString::number(score, 'f', 3));
    // Planned from the installed tables: installed over those only (the commit refuses the change
    // as stale when an operator or OpenSM changed them meanwhile).
    HeldTables against;
    against.lfts = m_knowledge.installed;
    return planFromTenancy(m_knowledge.fabric.get(), {chosen->tables, chosen->serviceLevels}, plan.tenancy, label, against);
}

void AdaptLoop::executed(const PendingChange &change, const CommitReport &report)
{
    if (change.isLinkChange()) {
        linkChangeExecuted(change, report);
        return;
    }
    const double time = now();
    const QString &rule = change.plan.firing.rule;
    const CandidateResult *chosen = change.plan.chosenCandidate();
    const QString name = chosen ? chosen->name : QStringLiteral("(none)");
    if (change.mode == RuleMode::Approve)
        record({time, QStringLiteral("approved"), rule, QStringLiteral("%1: %2 approved").arg(rule, name),
                QJsonObject{{QStringLiteral("change"), double(change.id)}}});
    QJsonObject details{{QStringLiteral("candidate"), name},
                        {QStringLiteral("change"), double(change.id)},
                        {QStringLiteral("commit"), report.toJson()}};
    if (report.ok()) {
        // What was read back is what the switches hold (the plan's tables, as verified).
        if (report.held.lfts)
            m_knowledge.installed = report.held.lfts;
        else if (chosen && chosen->tables)
            m_knowledge.installed = chosen->tables;
        else
            m_knowledge.installed = std::make_shared<const ForwardingTables>(change.commitPlan.tables);
        m_knowledge.tenancy = change.plan.tenancy;
        m_knowledge.currentPartitions = plannedPartitions(change.plan.tenancy.partitions);
        m_store.setTenancy(m_knowledge.tenancy);
        if (chosen) {
            details.insert(QStringLiteral("max_link_load_before"), chosen->maxLinkLoadBefore);
            details.insert(QStringLiteral("max_link_load_after"), chosen->maxLinkLoadAfter);
            details.insert(QStringLiteral("mean_link_load_before"), chosen->meanLinkLoadBefore);
            details.insert(QStringLiteral("mean_link_load_after"), chosen->meanLinkLoadAfter);
            details.insert(QStringLiteral("smps"), double(chosen->smps));
        }
        setStage(MapeStage::Execute, time, QStringLiteral("committed %1").arg(name));
        setStage(MapeStage::Knowledge, time, QStringLiteral("installed %1 (rule %2)").arg(name, rule));
        record({time, QStringLiteral("committed"), rule,
                chosen ? QStringLiteral("%1: committed %2, modelled max link load %3 -> %4, %5 SMPs")
                             .arg(rule, name, loadText(chosen->maxLinkLoadBefore), loadText(chosen->maxLinkLoadAfter))
                             .arg(chosen->smps)
                       : QStringLiteral("%1: committed").arg(rule),
                details});
        return;
    }
    // Refused as stale (the switches held other tables than the loop planned from), rolled back
    // or refused: the knowledge follows what the commit read, so the next plan starts from it.
    if (report.held.lfts && (!m_knowledge.installed || !(*report.held.lfts == *m_knowledge.installed))) {
        m_knowledge.installed = report.held.lfts;
        setStage(MapeStage::Knowledge, time, QStringLiteral("installed tables read back after %1").arg(commitOutcomeName(report.outcome)));
    }
    const QString event = report.outcome == CommitOutcome::Stale ? QStringLiteral("stale") : QStringLiteral("commit-failed");
    setStage(MapeStage::Execute, time, QStringLiteral("%1: %2").arg(name, commitOutcomeName(report.outcome)));
    record({time, event, rule,
            QStringLiteral("%1: %2 %3: %4").arg(rule, name, commitOutcomeName(report.outcome), report.reasons.join(QStringLiteral("; "))),
            details});
}

void AdaptLoop::dismissed(const PendingChange &change, const QString &why)
{
    const double time = now();
    if (change.isLinkChange() && m_knowledge.fabric)
        for (PolicyDrain &d : m_policyDrained)
            for (const auto &end : change.links.elements.failedLinkPorts)
                if (sameCable(*m_knowledge.fabric, d.end, end))
                    d.awaiting = false;
    const CandidateResult *chosen = change.plan.chosenCandidate();
    const QString name = chosen ? chosen->name : QStringLiteral("(none)");
    setStage(MapeStage::Execute, time, QStringLiteral("dismissed %1").arg(name));
    record({time, QStringLiteral("dismissed"), change.plan.firing.rule,
            QStringLiteral("%1: %2 dismissed%3").arg(change.plan.firing.rule, name, why.isEmpty() ? QString() : QStringLiteral(": ") + why),
            QJsonObject{{QStringLiteral("candidate"), name}, {QStringLiteral("change"), double(change.id)}, {QStringLiteral("why"), why}}});
}

void AdaptLoop::setInstalled(std::shared_ptr<const Fabric> fabric, std::shared_ptr<const ForwardingTables> installed)
{
    if (fabric && fabric != m_knowledge.fabric) {
        // Another snapshot: the ticks held name ports of the old one, so the store starts afresh;
        // a different topology makes the metabase's blueprints stale.
        if (!m_knowledge.fabric || topologyFingerprint(*fabric) != topologyFingerprint(*m_knowledge.fabric))
            m_knowledge.topologyChanged = true;
        m_knowledge.fabric = fabric;
        const double retention = m_store.retentionSeconds();
        m_store = MetricStore(fabric, m_knowledge.tenancy);
        m_store.setRetentionSeconds(retention);
    }
    m_knowledge.installed = std::move(installed);
    setStage(MapeStage::Knowledge, now(), QStringLiteral("installed tables replaced"));
}

void AdaptLoop::setTenancy(Tenancy tenancy, std::vector<Partition> currentPartitions)
{
    m_knowledge.tenancy = std::move(tenancy);
    m_knowledge.currentPartitions = std::move(currentPartitions);
    m_store.setTenancy(m_knowledge.tenancy);
    setStage(MapeStage::Knowledge, now(), QStringLiteral("tenancy replaced"));
}

void AdaptLoop::setTrafficModel(TrafficModel model)
{
    m_knowledge.model = std::move(model);
}

void AdaptLoop::setStage(MapeStage stage, double time, QString text)
{
    StageState &state = m_stages[std::size_t(stage)];
    state.time = time;
    state.text = std::move(text);
}

void AdaptLoop::record(AdaptRecord entry)
{
    std::optional<AdaptRecord> failure;
    if (!m_options.journalPath.isEmpty()) {
        CommitJournalEntry journal;
        const qint64 ms = qint64(std::llround(entry.time * 1000));
        journal.id = QStringLiteral("adapt-%1-%2").arg(++m_recordCount).arg(ms);
        journal.time = QDateTime::fromMSecsSinceEpoch(ms).toUTC();
        journal.user = m_options.user.isEmpty() ? currentUserName() : m_options.user;
        journal.planSummary = entry.summary;
        journal.outcome = entry.event;
        journal.kind = QStringLiteral("adapt");
        journal.adapt = entry.details;
        journal.adapt.insert(QStringLiteral("rule"), entry.rule);
        if (entry.details.contains(QStringLiteral("smps")))
            journal.smps = qint64(entry.details.value(QStringLiteral("smps")).toDouble());
        if (const Status written = appendJournalEntry(m_options.journalPath, journal); !written) {
            // The loop goes on: the audit's loss is said in the log (and on stderr), not fatal.
            const QString why = written.error().toString();
            qWarning("autopilot: the journal was not written: %s", qPrintable(why));
            failure = AdaptRecord{entry.time, QStringLiteral("journal-failed"), entry.rule,
                                  QStringLiteral("the journal was not written: %1").arg(why), QJsonObject{{QStringLiteral("error"), why}}};
        }
    }
    for (AdaptRecord *kept : {&entry, failure ? &*failure : nullptr}) {
        if (!kept)
            continue;
        m_log.push_back(std::move(*kept));
        while (m_log.size() > std::max<std::size_t>(m_options.logLimit, 1))
            m_log.pop_front();
        if (m_sink)
            m_sink(m_log.back());
    }
}

// ---- AdaptLock ----

QString adaptLockPath(const CommitTarget &target)
{
    // A subnet target's loop locks the subnet (whichever SM is master); else the OpenSM's file.
    return (target.lockPath.isEmpty() ? target.routingFile() : target.lockPath) + QStringLiteral(".weft-adapt-lock");
}

AdaptLock::AdaptLock(std::unique_ptr<CommitLock> lock)
    : m_lock(std::move(lock)), m_path(m_lock->path()) {}

AdaptLock::~AdaptLock() = default;

Result<std::unique_ptr<AdaptLock>> AdaptLock::acquire(const CommitTarget &target)
{
    const QString path = adaptLockPath(target);
    Result<std::unique_ptr<CommitLock>> lock = CommitLock::acquire(path, 0);
    if (!lock) {
        // CommitLock names the holder in its file; say it as the loop's refusal.
        QFile file(path);
        const QString holder = file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.read(4096)).trimmed() : QString();
        if (holder.isEmpty())
            return lock.error();
        return Error{path, 0, QStringLiteral("another self-adaptive loop acts on this fabric, held by %1; stop it first").arg(holder)};
    }
    return std::unique_ptr<AdaptLock>(new AdaptLock(std::move(*lock)));
}

}  // namespace weft::adapt
