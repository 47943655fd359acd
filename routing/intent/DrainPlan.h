#pragma once
// Drains for maintenance: cables or switches taken out of the routes while they stay up, and
// brought back. One set of functions for `weft drain`/`weft undrain` and the desk's Drain and
// Undrain (the map's cable and switch menus): the drained set changed, the tables the change
// installs, why it is refused, and the desk's review of it.
//
// With Weft's engine inside OpenSM the drained set is the intent's (IntentOptions::drained):
// the plan is the intent with its new set, routed as OpenSM's engine routes it. With OpenSM's file
// engine there is no set: a drain repairs the tables the switches hold around the elements (only
// the entries that used them move), an undrain routes the fabric again by the project's engine.

#include "IntentRouting.h"
#include "RoutingProposal.h"

#include <QString>
#include <QStringList>

#include <memory>

namespace weft {

// `drainedNow` with `elements` added (drain) or taken out (undrain); a cable matches by either
// end. An error names an element drained already (drain) or not drained (undrain).
Result<WhatIf> changeDrainedSet(const Fabric &fabric, WhatIf drainedNow, const WhatIf &elements, bool drain);

// "link A[1]–B[2]; switch \"S\"": the elements as the journal, the review and the report name them.
QString drainedElementsText(const Fabric &fabric, const WhatIf &elements);

// The tables a drain or an undrain installs. Plugin mode: `intent`, holding the new drained set,
// routed as OpenSM's engine routes it (routeIntent). File mode: `held` repaired around `elements`
// (drain), or the fabric routed by `intent`'s engine (undrain), leaving out what `intent` still
// holds drained (the self-adaptive loop's other drains; none for `weft undrain`'s project);
// `intent.tenancy` the partitions.
Result<IntentRouting> routeDrainChange(const Fabric &fabric, const Project &intent, const ForwardingTables *held,
                                       const WhatIf &elements, bool pluginMode, bool drain);

// Why such tables must not go in: pairs of ports they leave unreachable (named, as validation
// names them), loops, or a drained set the routing could not honour. Empty: none.
QStringList drainProblems(const Fabric &fabric, const Tenancy &tenancy, const IntentRouting &routed);

// The desk's review of a drain: the change routed (routeDrainChange) and judged beside the tables
// the switches hold, as a Routing Preview judges its proposal; on any thread.
struct DrainRequest
{
    std::shared_ptr<const Fabric> fabric;
    std::shared_ptr<const ForwardingTables> current;  // what the switches hold; null: unknown
    Project intent;                                   // as for routeDrainChange, its tenancy the plan's
    WhatIf elements;
    bool pluginMode = true;
    bool drain = true;
    TrafficModel model;
};
struct DrainPreview
{
    PreviewResult preview;
    QString method;        // what routed: the engine, "repair", ...
    QStringList problems;  // drainProblems: the review shows them, Approve is refused
};
Result<DrainPreview> computeDrainPreview(const DrainRequest &request, PreviewProgress *progress = nullptr);

}  // namespace weft
