#include "IntentRouting.h"

#include "SlimUpdate.h"
#include "TrafficModel.h"
#include "Validation.h"

#include <QJsonValue>

#include <set>
#include <tuple>

namespace weft {

namespace {

// Above this many end ports the full pair-by-pair validation costs more than OpenSM's sweep may
// take; a fat-tree engine's tables on a whole tree are trusted there, and a degraded tree is
// checked by the walk of every switch to every LID (checkWalks).
constexpr std::size_t kFullValidationLimit = 4096;

const QString kOnTopologyChange = QStringLiteral("on_topology_change");
const QString kSlack = QStringLiteral("slack");

bool isFatTreeEngine(const QString &engine)
{
    return engine == QLatin1String("ftree") || engine == QLatin1String("pftree") || engine == QLatin1String("pftree-wt")
        || engine == QLatin1String("wftree");
}

// Every switch reaches every LID of the fabric by its tables, without a loop: one walk per
// destination, each switch visited once (a switch whose next hop is known is not walked again).
QString checkWalks(const Fabric &fabric, const ForwardingTables &tables)
{
    const std::vector<NodeIndex> &switches = fabric.switches();
    std::vector<int> tableOf(fabric.nodes().size(), -1);
    for (std::size_t i = 0; i < switches.size(); ++i) {
        const int t = tables.indexOf(fabric.node(switches[i]).guid);
        if (t < 0)
            return QStringLiteral("switch %1 has no table").arg(guidText(fabric.node(switches[i]).guid));
        tableOf[std::size_t(switches[i])] = t;
    }
    // 0 unknown, 1 on the current walk, 2 reaches the destination.
    std::vector<std::uint8_t> state(fabric.nodes().size());
    std::vector<NodeIndex> walk;
    std::vector<Lid> destinations;
    for (const Port &port : fabric.ports())
        if (port.present && port.lid != 0 && (port.number != 0 || fabric.node(port.node).type == NodeType::Switch))
            for (int k = 0; k < (1 << port.lmc); ++k)
                destinations.push_back(Lid(port.lid + k));
    for (const Lid lid : destinations) {
        const PortIndex target = fabric.portByLid(lid);
        if (target == kNoIndex)
            continue;
        const NodeIndex targetNode = fabric.port(target).node;
        std::fill(state.begin(), state.end(), std::uint8_t(0));
        for (const NodeIndex start : switches) {
            walk.clear();
            NodeIndex at = start;
            bool ok = false;
            while (true) {
                if (state[std::size_t(at)] == 2) {
                    ok = true;
                    break;
                }
                if (state[std::size_t(at)] == 1)
                    return QStringLiteral("a forwarding loop towards LID %1 through %2").arg(lid).arg(fabric.node(at).name);
                state[std::size_t(at)] = 1;
                walk.push_back(at);
                if (at == targetNode) {
                    ok = true;
                    break;
                }
                const std::uint8_t out = tables.at(std::size_t(tableOf[std::size_t(at)])).lft.port(lid);
                if (out == kNoRoute)
                    break;
                if (out == 0) {
                    ok = at == targetNode;
                    break;
                }
                const PortIndex outPort = fabric.portOf(at, out);
                if (outPort == kNoIndex || fabric.port(outPort).remote == kNoIndex)
                    break;
                const PortIndex remote = fabric.port(outPort).remote;
                const NodeIndex next = fabric.port(remote).node;
                if (next == targetNode) {
                    ok = true;
                    break;
                }
                if (fabric.node(next).type != NodeType::Switch)
                    break;
                at = next;
            }
            if (!ok)
                return QStringLiteral("LID %1 is not reached from switch %2").arg(lid).arg(fabric.node(start).name);
            for (const NodeIndex n : walk)
                state[std::size_t(n)] = 2;
        }
    }
    return {};
}

struct Judgement
{
    bool valid = false;
    std::size_t violations = 0;
    QString why;
};

Judgement judge(const Fabric &fabric, const Tenancy &tenancy, const Routing &routing)
{
    Judgement j;
    if (fabric.endNodes().size() > kFullValidationLimit) {
        j.why = checkWalks(fabric, routing.tables);
        j.valid = j.why.isEmpty();
        return j;
    }
    LaneAssignment lanes;
    lanes.serviceLevels = routing.serviceLevels;
    ValidationOptions options;
    options.maxReported = 1;
    const ValidationResult v = validateRouting(fabric, tenancy, routing.tables, lanes, options);
    j.violations = v.policyViolations;
    if (v.unreachablePartitionPairs + v.unreachableOtherPairs > 0)
        j.why = QStringLiteral("%1 pairs of ports are not routed to each other")
                    .arg(v.unreachablePartitionPairs + v.unreachableOtherPairs);
    else if (v.loops > 0)
        j.why = QStringLiteral("%1 forwarding loops").arg(v.loops);
    else if (!v.deadlockFree)
        j.why = QStringLiteral("a credit loop: %1").arg(v.creditLoop.join(QStringLiteral(" -> ")));
    else if (!v.managementProblems.isEmpty())
        j.why = v.managementProblems.first();
    j.valid = j.why.isEmpty();
    return j;
}

using LinkKey = std::tuple<Guid, int, Guid, int>;

std::set<LinkKey> linkKeys(const Fabric &fabric)
{
    std::set<LinkKey> keys;
    for (const Link &link : fabric.links()) {
        const Port &a = fabric.port(link.a);
        const Port &b = fabric.port(link.b);
        LinkKey k{fabric.node(a.node).guid, a.number, fabric.node(b.node).guid, b.number};
        if (std::make_pair(std::get<0>(k), std::get<1>(k)) > std::make_pair(std::get<2>(k), std::get<3>(k)))
            k = LinkKey{std::get<2>(k), std::get<3>(k), std::get<0>(k), std::get<1>(k)};
        keys.insert(k);
    }
    return keys;
}

std::set<std::pair<Guid, Lid>> nodeKeys(const Fabric &fabric)
{
    std::set<std::pair<Guid, Lid>> keys;
    for (NodeIndex n = 0; n < NodeIndex(fabric.nodes().size()); ++n)
        keys.insert({fabric.node(n).guid, fabric.nodeLid(n)});
    return keys;
}

template <typename Set>
std::pair<int, int> difference(const Set &before, const Set &after)
{
    int lost = 0;
    int gained = 0;
    for (const auto &k : before)
        lost += after.count(k) == 0 ? 1 : 0;
    for (const auto &k : after)
        gained += before.count(k) == 0 ? 1 : 0;
    return {lost, gained};
}

}  // namespace

Result<IntentOptions> intentOptions(const Project &project, const QString &fileName)
{
    IntentOptions options;
    const QJsonValue mode = project.routingOptions.value(kOnTopologyChange);
    if (!mode.isUndefined()) {
        if (mode.toString() == QLatin1String("slimupdate"))
            options.onTopologyChange = TopologyChangeMode::SlimUpdate;
        else if (mode.toString() == QLatin1String("full"))
            options.onTopologyChange = TopologyChangeMode::FullReroute;
        else
            return Error{fileName, 0,
                         QStringLiteral("routing option %1 must be \"slimupdate\" or \"full\"").arg(kOnTopologyChange)};
    }
    const QJsonValue slack = project.routingOptions.value(kSlack);
    if (!slack.isUndefined()) {
        if (!slack.isDouble() || !(slack.toDouble() >= 0) || slack.toDouble() > 1e6)
            return Error{fileName, 0, QStringLiteral("routing option %1 must be a number from 0").arg(kSlack)};
        options.slack = slack.toDouble();
    }
    return options;
}

TopologyDelta topologyDelta(const Fabric &before, const Fabric &after)
{
    TopologyDelta d;
    std::tie(d.linksLost, d.linksGained) = difference(linkKeys(before), linkKeys(after));
    std::tie(d.nodesLost, d.nodesGained) = difference(nodeKeys(before), nodeKeys(after));
    return d;
}

Result<IntentRouting> routeIntent(const Fabric &fabric, const Project &intent, const RoutingOptions &options)
{
    const QString engine = intent.routingEngine.isEmpty() ? QStringLiteral("ftree") : intent.routingEngine;
    if (!makeRoutingEngine(engine))
        return Error{{}, 0, QStringLiteral("unknown routing engine \"%1\" (%2)").arg(engine, routingEngineNames().join(QStringLiteral(", ")))};
    QStringList order{engine};
    if (isFatTreeEngine(engine) && engine != QLatin1String("pftree"))
        order << QStringLiteral("pftree");
    if (engine != QLatin1String("updn"))
        order << QStringLiteral("updn");

    IntentRouting result;
    for (const QString &name : order) {
        Result<Routing> routed = routeFabric(name, fabric, intent.tenancy, options);
        if (!routed) {
            result.notes << QStringLiteral("%1: %2").arg(name, routed.error().message);
            if (routed.error().message.contains(QLatin1String("cancelled")))
                return routed.error();
            continue;
        }
        const Judgement j = judge(fabric, intent.tenancy, *routed);
        if (!j.valid) {
            result.notes << QStringLiteral("%1: %2").arg(name, j.why);
            continue;
        }
        result.routing = std::move(*routed);
        result.method = name;
        return result;
    }
    return Error{{}, 0, QStringLiteral("no engine routes this fabric: %1").arg(result.notes.join(QStringLiteral("; ")))};
}

Result<IntentRouting> routeIntentAfterChange(const Fabric &fabric, const Project &intent, const QString &intentDigest,
                                             const InstalledRouting *installed, const RoutingOptions &options)
{
    const Result<IntentOptions> settings = intentOptions(intent);
    if (!settings)
        return settings.error();
    QStringList notes;
    if (installed && installed->fabric && installed->intentDigest == intentDigest) {
        const TopologyDelta delta = topologyDelta(*installed->fabric, fabric);
        if (delta.same()) {
            IntentRouting kept;
            kept.routing.engine = QStringLiteral("kept");
            kept.routing.tables = installed->tables;
            kept.routing.serviceLevels = installed->serviceLevels;
            kept.method = QStringLiteral("kept");
            return kept;
        }
        const bool onlyLost = delta.linksGained == 0 && delta.nodesGained == 0;
        if (onlyLost && settings->onTopologyChange == TopologyChangeMode::SlimUpdate) {
            SlimUpdateOptions slim;
            slim.slack = settings->slack;
            slim.baselineEngine.clear();
            Result<Reconfiguration> r = slimUpdate(*installed->fabric, installed->tables, fabric, intent.tenancy, slim);
            if (r && r->proposal.serviceLevels.empty())
                r->proposal.serviceLevels = installed->serviceLevels;  // the partitions keep their lanes
            if (!r) {
                notes << QStringLiteral("slimupdate: %1").arg(r.error().message);
            } else {
                const Judgement j = judge(fabric, intent.tenancy, r->proposal);
                bool keep = j.valid;
                if (!j.valid)
                    notes << QStringLiteral("slimupdate: %1").arg(j.why);
                // Isolation is the operator's decision: SlimUpdate keeps it or gives way to a full
                // re-route that keeps more of it.
                if (keep && j.violations > 0) {
                    Result<IntentRouting> full = routeIntent(fabric, intent, options);
                    if (full) {
                        const Judgement f = judge(fabric, intent.tenancy, full->routing);
                        if (f.violations < j.violations) {
                            full->notes.prepend(QStringLiteral("slimupdate: %1 isolation violations where %2 keeps %3")
                                                    .arg(j.violations)
                                                    .arg(full->method)
                                                    .arg(f.violations));
                            return full;
                        }
                    }
                }
                if (keep) {
                    IntentRouting slimmed;
                    slimmed.routing = std::move(r->proposal);
                    slimmed.routing.engine = QStringLiteral("slimupdate");
                    slimmed.method = QStringLiteral("slimupdate");
                    return slimmed;
                }
            }
        }
    }
    Result<IntentRouting> full = routeIntent(fabric, intent, options);
    if (full)
        full->notes = notes + full->notes;
    return full;
}

}  // namespace weft
