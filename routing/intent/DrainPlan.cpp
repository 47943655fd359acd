#include "DrainPlan.h"

#include "RoutingEvaluation.h"
#include "Validation.h"

#include <algorithm>

namespace weft {

Result<WhatIf> changeDrainedSet(const Fabric &fabric, WhatIf drained, const WhatIf &elements, bool drain)
{
    for (const auto &end : elements.failedLinkPorts) {
        const auto at = std::find_if(drained.failedLinkPorts.begin(), drained.failedLinkPorts.end(),
                                     [&](const std::pair<Guid, int> &d) { return sameCable(fabric, end, d); });
        const bool is = at != drained.failedLinkPorts.end();
        const NodeIndex n = fabric.nodeByGuid(end.first);
        const PortIndex p = n == kNoIndex ? kNoIndex : fabric.portOf(n, end.second);
        const QString name = p == kNoIndex ? QStringLiteral("%1[%2]").arg(guidText(end.first)).arg(end.second) : portDisplayName(fabric, p);
        if (drain && is)
            return Error{{}, 0, QStringLiteral("the cable at %1 is drained already").arg(name)};
        if (!drain && !is)
            return Error{{}, 0, QStringLiteral("the cable at %1 is not drained").arg(name)};
        if (drain)
            drained.failedLinkPorts.push_back(end);
        else
            drained.failedLinkPorts.erase(at);
    }
    for (const Guid guid : elements.failedSwitches) {
        const auto at = std::find(drained.failedSwitches.begin(), drained.failedSwitches.end(), guid);
        const bool is = at != drained.failedSwitches.end();
        const NodeIndex n = fabric.nodeByGuid(guid);
        const QString name = n == kNoIndex ? guidText(guid) : displayName(fabric.node(n));
        if (drain && is)
            return Error{{}, 0, QStringLiteral("switch \"%1\" is drained already").arg(name)};
        if (!drain && !is)
            return Error{{}, 0, QStringLiteral("switch \"%1\" is not drained").arg(name)};
        if (drain)
            drained.failedSwitches.push_back(guid);
        else
            drained.failedSwitches.erase(at);
    }
    return drained;
}

QString drainedElementsText(const Fabric &fabric, const WhatIf &elements)
{
    return elements.describe(fabric).replace(QLatin1String(" fails"), QString());
}

Result<IntentRouting> routeDrainChange(const Fabric &fabric, const Project &intent, const ForwardingTables *held,
                                       const WhatIf &elements, bool pluginMode, bool drain)
{
    Project routing = intent;
    if (routing.routingEngine.isEmpty())
        routing.routingEngine = QStringLiteral("ftree");
    if (pluginMode)
        return routeIntent(fabric, bindProject(routing, fabric).project);
    // An undrain routes the fabric again; what the intent still holds drained stays out.
    if (!drain)
        return routeIntent(fabric, bindProject(routing, fabric).project);
    if (!held)
        return Error{{}, 0, QStringLiteral("the tables the switches hold are not known: nothing to route around the drained elements from")};
    // The tables held as the last run of an unchanged intent: the elements count as lost, and
    // the order's smallest change (the repair, then SlimUpdate) moves only what used them.
    InstalledRouting installed;
    installed.fabric = std::make_shared<const Fabric>(fabric);
    installed.tables = *held;
    installed.intentDigest = QStringLiteral("held");
    return routeIntentAfterChange(fabric, bindProject(withDrained(routing, elements, &fabric), fabric).project, installed.intentDigest,
                                  &installed);
}

QStringList drainProblems(const Fabric &fabric, const Tenancy &tenancy, const IntentRouting &routed)
{
    QStringList problems;
    for (const QString &note : routed.notes)
        if (note.startsWith(QLatin1String("drained elements not routed around")))
            problems << note;
    const ValidationResult v = validateRouting(fabric, tenancy, routed.routing.tables);
    if (v.unreachablePartitionPairs + v.unreachableOtherPairs > 0) {
        problems << QStringLiteral("%1 pair(s) of ports would not reach each other").arg(v.unreachablePartitionPairs + v.unreachableOtherPairs);
        problems << v.problems << v.managementProblems;
    }
    if (v.loops > 0)
        problems << QStringLiteral("%1 forwarding loop(s)").arg(v.loops);
    return problems;
}

Result<DrainPreview> computeDrainPreview(const DrainRequest &request, PreviewProgress *progress)
{
    if (!request.fabric)
        return Error{{}, 0, QStringLiteral("no fabric to route")};
    const Fabric &fabric = *request.fabric;
    if (progress)
        progress->phase = PhaseRouting;
    Result<IntentRouting> routed = routeDrainChange(fabric, request.intent, request.current.get(), request.elements, request.pluginMode,
                                                    request.drain);
    if (!routed)
        return routed.error();
    DrainPreview result;
    result.method = routed->method;
    result.problems = drainProblems(fabric, request.intent.tenancy, *routed);
    EvaluationOptions options;
    options.model = request.model;
    options.progress = [progress](EvaluationStage, int, int) { return !(progress && progress->cancel); };
    options.lanes.serviceLevels = routed->routing.serviceLevels;
    auto tables = std::make_shared<const ForwardingTables>(std::move(routed->routing.tables));
    Result<RoutingEvaluation> after = evaluateRouting(fabric, request.intent.tenancy, *tables, options);
    if (!after)
        return after.error();
    static_cast<RoutingEvaluation &>(result.preview.proposed) = std::move(*after);
    result.preview.proposed.tables = std::move(tables);
    result.preview.proposed.serviceLevels = routed->routing.serviceLevels;
    result.preview.proposed.warnings = routed->notes + result.preview.proposed.warnings;
    if (request.current) {
        options.lanes = {};
        Result<RoutingEvaluation> before = evaluateRouting(fabric, request.intent.tenancy, *request.current, options);
        if (!before)
            return before.error();
        RoutingSnapshot current;
        static_cast<RoutingEvaluation &>(current) = std::move(*before);
        current.tables = request.current;
        result.preview.current = std::move(current);
    }
    if (progress)
        progress->phase = PhaseDone;
    return result;
}

}  // namespace weft
