#include "FabricCheck.h"

#include <QJsonArray>
#include <QRegularExpression>

#include <algorithm>
#include <unordered_map>

namespace weft {

namespace {

const std::vector<std::pair<QString, QStringList>> &kindsByCheck()
{
    static const std::vector<std::pair<QString, QStringList>> kinds = {
        {QStringLiteral("identities"),
         {QStringLiteral("duplicate-guid"), QStringLiteral("duplicate-lid"), QStringLiteral("duplicate-description"), QStringLiteral("lid-zero")}},
        {QStringLiteral("links"), {QStringLiteral("link-not-active"), QStringLiteral("link-ends-disagree"), QStringLiteral("link-below-supported")}},
        {QStringLiteral("design"),
         {QStringLiteral("missing-cable"), QStringLiteral("miswired-cable"), QStringLiteral("extra-cable"), QStringLiteral("link-below-design")}},
        {QStringLiteral("tables"),
         {QStringLiteral("unreachable-pairs"), QStringLiteral("forwarding-loop"), QStringLiteral("credit-loop"), QStringLiteral("tables-unread")}},
        {QStringLiteral("partitions"), {QStringLiteral("pkey-mismatch")}},
        {QStringLiteral("counters"), {QStringLiteral("port-errors"), QStringLiteral("counters-unanswered"), QStringLiteral("symbol-error-rate")}},
        {QStringLiteral("subnet-managers"),
         {QStringLiteral("sm-none"), QStringLiteral("sm-several-masters"), QStringLiteral("sm-master-priority"), QStringLiteral("sm-unread")}},
    };
    return kinds;
}

FindingPlace placeOf(const Fabric &fabric, PortIndex port)
{
    const Port &p = fabric.port(port);
    const Node &n = fabric.node(p.node);
    return FindingPlace{displayName(n), n.guid, p.number};
}

FindingPlace placeOfNode(const Fabric &fabric, NodeIndex node)
{
    const Node &n = fabric.node(node);
    return FindingPlace{displayName(n), n.guid, -1};
}

QString placeText(const FindingPlace &place)
{
    return place.port < 0 ? place.node : QStringLiteral("%1[%2]").arg(place.node).arg(place.port);
}

QString stateName(PortState state)
{
    switch (state) {
    case PortState::NoChange: return QStringLiteral("unknown");
    case PortState::Down: return QStringLiteral("DOWN");
    case PortState::Init: return QStringLiteral("INIT");
    case PortState::Armed: return QStringLiteral("ARMED");
    case PortState::Active: return QStringLiteral("ACTIVE");
    }
    return {};
}

QString linkText(const Port &p)
{
    const QString type = linkTypeText(p.width, p.speed);
    return type.isEmpty() ? QStringLiteral("unknown") : type;
}

QString cableText(const Fabric &fabric, PortIndex a, PortIndex b)
{
    return portDisplayName(fabric, a) + QStringLiteral(" -- ") + portDisplayName(fabric, b);
}

// A design's end as its text says it: the name it gives, else its GUID.
QString designEndText(const DesignEnd &end)
{
    return QStringLiteral("%1[%2]").arg(end.device.isEmpty() ? guidText(end.guid) : end.device).arg(end.port);
}

QString designCableText(const FabricDesign &design, const DesignCable &cable)
{
    QString text = designEndText(cable.a) + QStringLiteral(" -- ") + designEndText(cable.b);
    if (cable.line > 0)
        text += QStringLiteral(" (%1:%2)").arg(design.file).arg(cable.line);
    return text;
}

// Design devices to fabric nodes: by GUID, by a description only one node has, by node id.
class DesignResolver
{
public:
    explicit DesignResolver(const Fabric &fabric) : m_fabric(fabric)
    {
        for (std::size_t i = 0; i < fabric.nodes().size(); ++i) {
            const QString &d = fabric.nodes()[i].description;
            if (d.isEmpty())
                continue;
            auto [it, inserted] = m_byDescription.emplace(d, NodeIndex(i));
            if (!inserted)
                it->second = kNoIndex;  // ambiguous
        }
    }

    NodeIndex node(const DesignEnd &end) const
    {
        if (end.guid) {
            const NodeIndex n = m_fabric.nodeByGuid(end.guid);
            if (n != kNoIndex || end.device.isEmpty())
                return n;
        }
        if (auto it = m_byDescription.find(end.device); it != m_byDescription.end() && it->second != kNoIndex)
            return it->second;
        return m_fabric.nodeByName(end.device);
    }

    // The design's place with what the fabric knows of it.
    FindingPlace place(const DesignEnd &end, NodeIndex node) const
    {
        if (node == kNoIndex)
            return FindingPlace{end.device.isEmpty() ? guidText(end.guid) : end.device, end.guid, end.port};
        return FindingPlace{displayName(m_fabric.node(node)), m_fabric.node(node).guid, end.port};
    }

private:
    const Fabric &m_fabric;
    std::unordered_map<QString, NodeIndex, QStringHash> m_byDescription;
};

QString joinPlaces(const std::vector<FindingPlace> &places)
{
    QStringList parts;
    for (const FindingPlace &p : places)
        parts << placeText(p);
    return parts.join(QStringLiteral(", "));
}

QByteArray csvField(const QString &text)
{
    QString t = text;
    if (t.contains(QLatin1Char(',')) || t.contains(QLatin1Char('"')) || t.contains(QLatin1Char('\n')))
        t = QLatin1Char('"') + t.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
    return t.toUtf8();
}

}  // namespace

QString checkSeverityName(CheckSeverity severity)
{
    return severity == CheckSeverity::Error ? QStringLiteral("error") : QStringLiteral("warning");
}

void FabricCheckReport::add(const QString &check, std::vector<CheckFinding> found)
{
    checks << check;
    for (CheckFinding &f : found)
        findings.push_back(std::move(f));
}

std::size_t FabricCheckReport::count(CheckSeverity severity) const
{
    return std::size_t(std::count_if(findings.begin(), findings.end(), [&](const CheckFinding &f) { return f.severity == severity; }));
}

QStringList checkKinds(const QString &check)
{
    for (const auto &[name, kinds] : kindsByCheck())
        if (name == check)
            return kinds;
    return {};
}

std::vector<CheckFinding> identityFindings(const Fabric &fabric)
{
    std::vector<CheckFinding> found;
    std::map<QString, std::vector<NodeIndex>> byDescription;
    for (std::size_t i = 0; i < fabric.nodes().size(); ++i)
        if (!fabric.nodes()[i].description.isEmpty())
            byDescription[fabric.nodes()[i].description].push_back(NodeIndex(i));
    for (const auto &[description, nodes] : byDescription) {
        if (nodes.size() < 2)
            continue;
        CheckFinding f{CheckSeverity::Warning, QStringLiteral("duplicate-description"), {}, {}};
        QStringList guids;
        for (NodeIndex n : nodes) {
            f.places.push_back(placeOfNode(fabric, n));
            guids << guidText(fabric.node(n).guid);
        }
        f.message = QStringLiteral("%1 nodes are described \"%2\" (%3)").arg(nodes.size()).arg(description, guids.join(QStringLiteral(", ")));
        found.push_back(std::move(f));
    }

    if (fabric.maxLid() == 0) {
        found.push_back({CheckSeverity::Warning, QStringLiteral("lid-zero"), {},
                         QStringLiteral("no port has a LID: a design no subnet manager has swept yet")});
        return found;
    }
    for (std::size_t i = 0; i < fabric.ports().size(); ++i) {
        const Port &p = fabric.ports()[i];
        if (!p.present || p.lid != 0)
            continue;
        const bool isSwitch = fabric.node(p.node).type == NodeType::Switch;
        if (isSwitch ? p.number != 0 : p.link == kNoIndex)
            continue;
        found.push_back({CheckSeverity::Error, QStringLiteral("lid-zero"), {placeOf(fabric, PortIndex(i))},
                         QStringLiteral("%1 has LID 0: no subnet manager gave it a LID").arg(portDisplayName(fabric, PortIndex(i)))});
    }
    return found;
}

std::optional<CheckFinding> identityFindingOf(const Error &readError)
{
    // FabricBuilder's words, as the readers and discovery pass them on (discovery after the node
    // it was adding).
    static const QRegularExpression guid(QStringLiteral("duplicate (node|port) GUID |port GUID \\S+ of .* is the node GUID of "));
    static const QRegularExpression lid(QStringLiteral("LID \\d+ is used twice"));
    if (guid.match(readError.message).hasMatch())
        return CheckFinding{CheckSeverity::Error, QStringLiteral("duplicate-guid"), {}, readError.toString()};
    if (lid.match(readError.message).hasMatch())
        return CheckFinding{CheckSeverity::Error, QStringLiteral("duplicate-lid"), {}, readError.toString()};
    return std::nullopt;
}

std::vector<CheckFinding> linkFindings(const Fabric &fabric)
{
    std::vector<CheckFinding> found;
    for (const Link &link : fabric.links()) {
        const Port &a = fabric.port(link.a);
        const Port &b = fabric.port(link.b);
        const std::vector<FindingPlace> places{placeOf(fabric, link.a), placeOf(fabric, link.b)};
        QStringList notActive;
        for (PortIndex end : {link.a, link.b}) {
            const PortState state = fabric.port(end).state;
            if (state != PortState::NoChange && state != PortState::Active)
                notActive << QStringLiteral("%1 is %2").arg(portDisplayName(fabric, end), stateName(state));
        }
        if (!notActive.isEmpty())
            found.push_back({CheckSeverity::Error, QStringLiteral("link-not-active"), places,
                             QStringLiteral("%1 is not ACTIVE: %2").arg(cableText(fabric, link.a, link.b), notActive.join(QStringLiteral(", ")))});
        const bool widthsDiffer = a.width && b.width && a.width != b.width;
        const bool speedsDiffer = a.speed != LinkSpeed::Unknown && b.speed != LinkSpeed::Unknown && a.speed != b.speed;
        if (widthsDiffer || speedsDiffer)
            found.push_back({CheckSeverity::Warning, QStringLiteral("link-ends-disagree"), places,
                             QStringLiteral("%1: the ends disagree: %2 at %3, %4 at %5")
                                 .arg(cableText(fabric, link.a, link.b), linkText(a), portDisplayName(fabric, link.a), linkText(b),
                                      portDisplayName(fabric, link.b))});
        // Both ends' capabilities, where discovery read them: the link runs at the narrower of
        // its two active widths and the slower of its speeds.
        const int supportedWidth = a.supportedWidth && b.supportedWidth ? std::min(a.supportedWidth, b.supportedWidth) : 0;
        const LinkSpeed supportedSpeed = a.supportedSpeed != LinkSpeed::Unknown && b.supportedSpeed != LinkSpeed::Unknown
            ? std::min(a.supportedSpeed, b.supportedSpeed)
            : LinkSpeed::Unknown;
        const int width = a.width && b.width ? std::min(a.width, b.width) : 0;
        const LinkSpeed speed = a.speed != LinkSpeed::Unknown && b.speed != LinkSpeed::Unknown ? std::min(a.speed, b.speed) : LinkSpeed::Unknown;
        const bool narrower = supportedWidth && width && width < supportedWidth;
        const bool slower = supportedSpeed != LinkSpeed::Unknown && speed != LinkSpeed::Unknown && speed < supportedSpeed;
        if (narrower || slower)
            found.push_back({CheckSeverity::Warning, QStringLiteral("link-below-supported"), places,
                             QStringLiteral("%1 runs at %2; both ends support %3")
                                 .arg(cableText(fabric, link.a, link.b), linkTypeText(width, speed),
                                      linkTypeText(narrower ? supportedWidth : width, slower ? supportedSpeed : speed))});
    }
    return found;
}

namespace {

// P_Key (low 15 bits) -> full member, as one port's table holds them.
std::map<std::uint16_t, bool> pkeysHeld(const PortPKeyTable &table)
{
    std::map<std::uint16_t, bool> held;
    for (std::uint16_t entry : table.entries) {
        const std::uint16_t key = entry & 0x7fff;
        if (key == 0)
            continue;  // an empty slot (0x0000 and the invalid 0x8000)
        held[key] = held[key] || (entry & kPKeyFullMember);
    }
    return held;
}

QString pkeyListText(const std::vector<std::uint16_t> &keys)
{
    QStringList parts;
    for (std::uint16_t k : keys)
        parts << pkeyText(k);
    return parts.join(QStringLiteral(", "));
}

}  // namespace

std::vector<CheckFinding> pkeyFindings(const Fabric &fabric, const PKeyTables &pkeys)
{
    std::vector<CheckFinding> found;
    for (const Link &link : fabric.links()) {
        PortIndex switchPort = kNoIndex, caPort = kNoIndex;
        for (auto [here, there] : {std::pair{link.a, link.b}, std::pair{link.b, link.a}})
            if (fabric.node(fabric.port(here).node).type == NodeType::Switch
                && fabric.node(fabric.port(there).node).type != NodeType::Switch) {
                switchPort = here;
                caPort = there;
            }
        if (switchPort == kNoIndex)
            continue;
        const PortPKeyTable *atSwitch = pkeys.find(switchPort);
        const PortPKeyTable *atCa = pkeys.find(caPort);  // none: holds nothing (a table file lists no empty table)
        if (!atSwitch)
            continue;
        const std::map<std::uint16_t, bool> switchKeys = pkeysHeld(*atSwitch);
        const bool enforces = atSwitch->capacity > 0 || (atSwitch->capacity == 0 && !switchKeys.empty());
        if (!enforces)
            continue;
        const std::map<std::uint16_t, bool> caKeys = atCa ? pkeysHeld(*atCa) : std::map<std::uint16_t, bool>{};
        std::vector<std::uint16_t> dropped, admitted, membership;
        for (const auto &[key, full] : caKeys) {
            const auto it = switchKeys.find(key);
            if (it == switchKeys.end())
                dropped.push_back(key);
            else if (it->second != full)
                membership.push_back(key);
        }
        for (const auto &[key, full] : switchKeys)
            if (!caKeys.count(key))
                admitted.push_back(key);
        if (dropped.empty() && admitted.empty() && membership.empty())
            continue;
        QStringList what;
        if (!dropped.empty())
            what << QStringLiteral("the switch port lacks %1 that %2 holds (its traffic there is dropped)")
                        .arg(pkeyListText(dropped), portDisplayName(fabric, caPort));
        if (!admitted.empty())
            what << QStringLiteral("the switch port admits %1 that %2 does not hold").arg(pkeyListText(admitted), portDisplayName(fabric, caPort));
        if (!membership.empty())
            what << QStringLiteral("full and limited membership differ for %1").arg(pkeyListText(membership));
        found.push_back({dropped.empty() ? CheckSeverity::Warning : CheckSeverity::Error, QStringLiteral("pkey-mismatch"),
                         {placeOf(fabric, switchPort), placeOf(fabric, caPort)},
                         QStringLiteral("%1: the P_Key tables disagree: %2").arg(cableText(fabric, switchPort, caPort), what.join(QStringLiteral("; ")))});
    }
    return found;
}

std::vector<CheckFinding> designFindings(const Fabric &fabric, const FabricDesign &design)
{
    std::vector<CheckFinding> found;
    const DesignResolver resolver(fabric);
    std::vector<bool> explained(fabric.links().size(), false);
    struct Resolved
    {
        NodeIndex a = kNoIndex, b = kNoIndex;
        PortIndex pa = kNoIndex, pb = kNoIndex;
    };
    std::vector<Resolved> resolved(design.cables.size());
    std::vector<bool> matched(design.cables.size(), false);

    // First every cable where the design puts it, so that a miswiring is judged against cables
    // the design does not explain elsewhere.
    for (std::size_t i = 0; i < design.cables.size(); ++i) {
        const DesignCable &c = design.cables[i];
        Resolved &r = resolved[i];
        r.a = resolver.node(c.a);
        r.b = resolver.node(c.b);
        r.pa = r.a == kNoIndex ? kNoIndex : fabric.portOf(r.a, c.a.port);
        r.pb = r.b == kNoIndex ? kNoIndex : fabric.portOf(r.b, c.b.port);
        if (r.pa == kNoIndex || r.pb == kNoIndex || fabric.port(r.pa).remote != r.pb || explained[std::size_t(fabric.port(r.pa).link)])
            continue;
        matched[i] = true;
        const LinkIndex link = fabric.port(r.pa).link;
        explained[std::size_t(link)] = true;
        const Port &a = fabric.port(r.pa);
        const Port &b = fabric.port(r.pb);
        const int width = a.width && b.width ? std::min(a.width, b.width) : std::max(a.width, b.width);
        LinkSpeed speed = std::max(a.speed, b.speed);
        if (a.speed != LinkSpeed::Unknown && b.speed != LinkSpeed::Unknown)
            speed = std::min(a.speed, b.speed);
        const bool narrower = c.width && width && width < c.width;
        const bool slower = c.speed != LinkSpeed::Unknown && speed != LinkSpeed::Unknown && speed < c.speed;
        if (narrower || slower)
            found.push_back({CheckSeverity::Warning, QStringLiteral("link-below-design"),
                             {placeOf(fabric, r.pa), placeOf(fabric, r.pb)},
                             QStringLiteral("%1 runs at %2; the design has %3%4")
                                 .arg(cableText(fabric, r.pa, r.pb), linkTypeText(width, speed), linkTypeText(c.width, c.speed),
                                      c.line > 0 ? QStringLiteral(" (%1:%2)").arg(design.file).arg(c.line) : QString())});
    }

    // The fabric's cable that explains a design cable not found where the design puts it: one
    // joining its two nodes at other ports, else one at either of its ports.
    auto unexplainedAt = [&](PortIndex port) -> LinkIndex {
        if (port == kNoIndex || fabric.port(port).link == kNoIndex || explained[std::size_t(fabric.port(port).link)])
            return kNoIndex;
        return fabric.port(port).link;
    };
    for (std::size_t i = 0; i < design.cables.size(); ++i) {
        if (matched[i])
            continue;
        const DesignCable &c = design.cables[i];
        const Resolved &r = resolved[i];
        const QString wanted = designCableText(design, c);
        if (r.a == kNoIndex || r.b == kNoIndex || r.pa == kNoIndex || r.pb == kNoIndex) {
            QStringList why;
            for (const auto &[end, node, port] : {std::tuple{&c.a, r.a, r.pa}, std::tuple{&c.b, r.b, r.pb}}) {
                if (node == kNoIndex)
                    why << QStringLiteral("%1 is not in the fabric").arg(end->device.isEmpty() ? guidText(end->guid) : end->device);
                else if (port == kNoIndex)
                    why << QStringLiteral("%1 has no port %2").arg(displayName(fabric.node(node))).arg(end->port);
            }
            found.push_back({CheckSeverity::Error, QStringLiteral("missing-cable"), {resolver.place(c.a, r.a), resolver.place(c.b, r.b)},
                             QStringLiteral("%1 is missing: %2").arg(wanted, why.join(QStringLiteral("; ")))});
            continue;
        }
        LinkIndex culprit = kNoIndex;
        const Node &nodeA = fabric.node(r.a);
        for (int p = 1; p <= nodeA.portCount && culprit == kNoIndex; ++p) {
            const PortIndex port = fabric.portOf(r.a, p);
            const LinkIndex link = unexplainedAt(port);
            if (link != kNoIndex && fabric.port(fabric.port(port).remote).node == r.b)
                culprit = link;
        }
        if (culprit == kNoIndex)
            culprit = unexplainedAt(r.pa);
        if (culprit == kNoIndex)
            culprit = unexplainedAt(r.pb);
        if (culprit == kNoIndex) {
            found.push_back({CheckSeverity::Error, QStringLiteral("missing-cable"), {placeOf(fabric, r.pa), placeOf(fabric, r.pb)},
                             QStringLiteral("%1 is missing: both ports are without this cable").arg(wanted)});
            continue;
        }
        explained[std::size_t(culprit)] = true;
        const Link &link = fabric.links()[std::size_t(culprit)];
        found.push_back({CheckSeverity::Error, QStringLiteral("miswired-cable"),
                         {placeOf(fabric, r.pa), placeOf(fabric, r.pb), placeOf(fabric, link.a), placeOf(fabric, link.b)},
                         QStringLiteral("%1 is miswired: the fabric has %2").arg(wanted, cableText(fabric, link.a, link.b))});
    }

    // A design of the switches' cables alone (a common cabling list) says nothing of the hosts'.
    bool designHasEndNodes = false;
    for (const Resolved &r : resolved)
        for (NodeIndex n : {r.a, r.b})
            designHasEndNodes = designHasEndNodes || (n != kNoIndex && fabric.node(n).type != NodeType::Switch);
    for (std::size_t l = 0; l < fabric.links().size(); ++l) {
        if (explained[l])
            continue;
        const Link &link = fabric.links()[l];
        const bool toEndNode = fabric.node(fabric.port(link.a).node).type != NodeType::Switch
            || fabric.node(fabric.port(link.b).node).type != NodeType::Switch;
        if (toEndNode && !designHasEndNodes)
            continue;
        found.push_back({CheckSeverity::Warning, QStringLiteral("extra-cable"), {placeOf(fabric, link.a), placeOf(fabric, link.b)},
                         QStringLiteral("%1 is not in the design").arg(cableText(fabric, link.a, link.b))});
    }
    return found;
}

std::vector<CheckFinding> tableFindings(const DeliveryCheck &delivery)
{
    std::vector<CheckFinding> found;
    auto examples = [](const QStringList &list) {
        return list.isEmpty() ? QString() : QStringLiteral(", e.g. ") + list.join(QStringLiteral("; "));
    };
    if (delivery.unreachablePairs)
        found.push_back({CheckSeverity::Error, QStringLiteral("unreachable-pairs"), {},
                         QStringLiteral("%1 of %2 ordered pairs of end ports are unreachable through the tables the switches hold%3")
                             .arg(delivery.unreachablePairs).arg(delivery.pairs).arg(examples(delivery.unreachableExamples))});
    if (delivery.loops)
        found.push_back({CheckSeverity::Error, QStringLiteral("forwarding-loop"), {},
                         QStringLiteral("%1 forwarding loops in the tables the switches hold%2").arg(delivery.loops).arg(examples(delivery.loopExamples))});
    if (delivery.creditLoop)
        found.push_back({CheckSeverity::Error, QStringLiteral("credit-loop"), {},
                         QStringLiteral("the tables the switches hold can deadlock: a credit loop through %1")
                             .arg(delivery.creditLoopChannels.join(QStringLiteral(" -> ")))});
    return found;
}

std::vector<CheckFinding> counterFindings(const Fabric &fabric, const std::vector<PortIndex> &ports,
                                          const std::vector<PortCounterSample> &before,
                                          const std::vector<PortCounterSample> *after, double seconds,
                                          const ErrorThresholds &thresholds)
{
    std::vector<CheckFinding> found;
    std::vector<FindingPlace> silent;
    const QString during = after ? QStringLiteral(" in %1 s").arg(seconds, 0, 'g', 3) : QString();
    for (std::size_t i = 0; i < ports.size() && i < before.size(); ++i) {
        const PortCounterSample &first = before[i];
        const PortCounterSample *second = after && i < after->size() ? &(*after)[i] : nullptr;
        if (!first.answered || (after && (!second || !second->answered))) {
            silent.push_back(placeOf(fabric, ports[i]));
            continue;
        }
        QStringList over;
        for (int c = 0; c < kPortErrorCounterCount; ++c) {
            const auto counter = PortErrorCounter(c);
            const int bits = portErrorCounterBits(counter);
            std::uint64_t count = first.errors[std::size_t(c)];
            QString note;
            if (second) {
                const CounterDelta delta = counterDelta(first.errors[std::size_t(c)], second->errors[std::size_t(c)], bits);
                // Cleared in between: what it counted since; stuck at its maximum: at least that.
                count = delta.ok() ? delta.delta : second->errors[std::size_t(c)];
                if (!delta.ok())
                    note = QStringLiteral(" (%1)").arg(counterGapName(delta.gap));
            } else if (count >= counterMaximum(bits)) {
                note = QStringLiteral(" (saturated)");
            }
            const std::uint64_t limit = thresholds.errors[std::size_t(c)];
            if (count > limit)
                over << QStringLiteral("%1 %2 > %3%4").arg(errorThresholdName(counter)).arg(count).arg(limit).arg(note);
        }
        if (thresholds.xmitWait && first.hasXmitWait) {
            std::uint64_t wait = first.xmitWait;
            if (second) {
                const CounterDelta delta = counterDelta(first.xmitWait, second->xmitWait, 32);
                wait = delta.ok() ? delta.delta : second->xmitWait;
            }
            if (wait > *thresholds.xmitWait)
                over << QStringLiteral("PortXmitWait %1 > %2").arg(wait).arg(*thresholds.xmitWait);
        }
        if (!over.isEmpty()) {
            std::vector<FindingPlace> places{placeOf(fabric, ports[i])};
            const Port &p = fabric.port(ports[i]);
            if (p.remote != kNoIndex)
                places.push_back(placeOf(fabric, p.remote));
            found.push_back({CheckSeverity::Error, QStringLiteral("port-errors"), places,
                             QStringLiteral("%1%2: %3").arg(portDisplayName(fabric, ports[i]), during, over.join(QStringLiteral(", ")))});
        }
    }
    if (!silent.empty()) {
        CheckFinding f{CheckSeverity::Warning, QStringLiteral("counters-unanswered"), silent, {}};
        std::vector<FindingPlace> shown(silent.begin(), silent.begin() + std::ptrdiff_t(std::min<std::size_t>(silent.size(), 5)));
        f.message = QStringLiteral("%1 ports did not answer for their counters: %2%3")
                        .arg(silent.size())
                        .arg(joinPlaces(shown), silent.size() > shown.size() ? QStringLiteral(", ...") : QString());
        found.push_back(std::move(f));
    }
    return found;
}

double symbolErrorRate(std::uint64_t symbolErrors, int width, LinkSpeed speed, double seconds)
{
    const double bits = linkSignalledBits(width, speed, seconds);
    return bits > 0 ? double(symbolErrors) / bits : 0.0;
}

std::vector<CheckFinding> symbolErrorRateFindings(const Fabric &fabric, const std::vector<PortIndex> &ports,
                                                  const std::vector<PortCounterSample> &before,
                                                  const std::vector<PortCounterSample> &after, double seconds, double maxRate)
{
    std::vector<CheckFinding> found;
    if (seconds <= 0)
        return found;
    const std::size_t symbol = std::size_t(PortErrorCounter::SymbolError);
    const int bits = portErrorCounterBits(PortErrorCounter::SymbolError);
    for (std::size_t i = 0; i < ports.size() && i < before.size() && i < after.size(); ++i) {
        if (!before[i].answered || !after[i].answered)
            continue;
        const Port &p = fabric.port(ports[i]);
        if (!p.width || p.speed == LinkSpeed::Unknown)
            continue;
        const CounterDelta delta = counterDelta(before[i].errors[symbol], after[i].errors[symbol], bits);
        const std::uint64_t errors = delta.ok() ? delta.delta : after[i].errors[symbol];
        const double rate = symbolErrorRate(errors, p.width, p.speed, seconds);
        if (rate <= maxRate)
            continue;
        std::vector<FindingPlace> places{placeOf(fabric, ports[i])};
        if (p.remote != kNoIndex)
            places.push_back(placeOf(fabric, p.remote));
        found.push_back({CheckSeverity::Warning, QStringLiteral("symbol-error-rate"), places,
                         QStringLiteral("%1: symbol error rate %2%3 > %4 (%5 symbol errors in %6 s at %7)")
                             .arg(portDisplayName(fabric, ports[i]), delta.ok() ? QString() : QStringLiteral("at least "))
                             .arg(rate, 0, 'e', 2)
                             .arg(maxRate, 0, 'e', 1)
                             .arg(errors)
                             .arg(seconds, 0, 'g', 3)
                             .arg(linkTypeText(p.width, p.speed))});
    }
    return found;
}

std::vector<CheckFinding> subnetManagerFindings(const std::vector<SubnetManagerSeen> &managers)
{
    std::vector<CheckFinding> found;
    auto place = [](const SubnetManagerSeen &m) { return FindingPlace{m.node, m.portGuid, -1}; };
    auto name = [](const SubnetManagerSeen &m) {
        return QStringLiteral("%1 (port %2, LID %3, priority %4)").arg(m.node, guidText(m.portGuid)).arg(m.lid).arg(m.priority);
    };
    std::vector<const SubnetManagerSeen *> masters;
    for (const SubnetManagerSeen &m : managers)
        if (m.answered && m.state == 3)
            masters.push_back(&m);
    if (masters.empty()) {
        found.push_back({CheckSeverity::Error, QStringLiteral("sm-none"), {},
                         managers.empty() ? QStringLiteral("no subnet manager: no port says IsSM")
                                          : QStringLiteral("no subnet manager is master (%1 SM ports, none in MASTER state)").arg(managers.size())});
        return found;
    }
    if (masters.size() > 1) {
        CheckFinding f{CheckSeverity::Error, QStringLiteral("sm-several-masters"), {}, {}};
        QStringList names;
        for (const SubnetManagerSeen *m : masters) {
            f.places.push_back(place(*m));
            names << name(*m);
        }
        f.message = QStringLiteral("%1 subnet managers are master: %2").arg(masters.size()).arg(names.join(QStringLiteral(", ")));
        found.push_back(std::move(f));
        return found;
    }
    const SubnetManagerSeen &master = *masters.front();
    for (const SubnetManagerSeen &m : managers)
        if (&m != &master && m.answered && m.priority > master.priority)
            found.push_back({CheckSeverity::Warning, QStringLiteral("sm-master-priority"), {place(master), place(m)},
                             QStringLiteral("the master %1 has a lower priority than %2").arg(name(master), name(m))});
    return found;
}

FabricCheckReport checkHeldFabric(const Fabric &fabric, const HeldFabricCheck &held)
{
    FabricCheckReport report;
    report.source = held.source;
    report.design = held.design ? held.design->file : QString();
    report.add(QStringLiteral("identities"), identityFindings(fabric));
    report.add(QStringLiteral("links"), linkFindings(fabric));
    if (held.design)
        report.add(QStringLiteral("design"), designFindings(fabric, *held.design));
    if (held.lfts)
        report.add(QStringLiteral("tables"), tableFindings(checkDelivery(fabric, Tenancy{}, *held.lfts)));
    if (held.pkeys)
        report.add(QStringLiteral("partitions"), pkeyFindings(fabric, *held.pkeys));
    return report;
}

std::vector<FindingCount> countFindings(const FabricCheckReport &report)
{
    std::vector<FindingCount> counts;
    for (CheckSeverity severity : {CheckSeverity::Error, CheckSeverity::Warning})
        for (const auto &[check, kinds] : kindsByCheck())
            for (const QString &kind : kinds) {
                const auto n = std::size_t(std::count_if(report.findings.begin(), report.findings.end(), [&](const CheckFinding &f) {
                    return f.severity == severity && f.kind == kind;
                }));
                if (n)
                    counts.push_back({severity, kind, n});
            }
    return counts;
}

HealthMarks healthMarksOf(const Fabric &fabric, const FabricCheckReport &report)
{
    static const QStringList sickKinds{QStringLiteral("link-not-active"), QStringLiteral("link-ends-disagree"),
                                       QStringLiteral("link-below-supported"), QStringLiteral("link-below-design"),
                                       QStringLiteral("port-errors"), QStringLiteral("symbol-error-rate")};
    HealthMarks marks;
    auto nodeOf = [&](const FindingPlace &place) { return place.guid ? fabric.nodeByGuid(place.guid) : kNoIndex; };
    auto linkOf = [&](const FindingPlace &place) {
        const NodeIndex node = nodeOf(place);
        const PortIndex port = node == kNoIndex || place.port < 0 ? kNoIndex : fabric.portOf(node, place.port);
        return port == kNoIndex ? kNoIndex : fabric.port(port).link;
    };
    auto addOnce = [](auto &list, auto value) {
        if (std::find(list.begin(), list.end(), value) == list.end())
            list.push_back(value);
    };
    for (const CheckFinding &f : report.findings) {
        if (f.kind == QLatin1String("missing-cable") && f.places.size() >= 2) {
            const NodeIndex a = nodeOf(f.places[0]), b = nodeOf(f.places[1]);
            if (a != kNoIndex && b != kNoIndex)
                addOnce(marks.missing, std::pair{std::min(a, b), std::max(a, b)});
            else if (a != kNoIndex || b != kNoIndex)
                addOnce(marks.missingAt, a != kNoIndex ? a : b);
        } else if (f.kind == QLatin1String("miswired-cable") && f.places.size() >= 4) {
            if (const LinkIndex link = linkOf(f.places[2]); link != kNoIndex)
                addOnce(marks.miswired, link);
        } else if (sickKinds.contains(f.kind) && !f.places.empty()) {
            if (const LinkIndex link = linkOf(f.places[0]); link != kNoIndex)
                addOnce(marks.sick, link);
        }
    }
    return marks;
}

QByteArray healthExposition(const FabricCheckReport &report)
{
    QByteArray text;
    text += "# HELP weft_health_clean Whether the fabric's health check found nothing (1) or findings (0).\n"
            "# TYPE weft_health_clean gauge\n";
    text += "weft_health_clean " + QByteArray(report.findings.empty() ? "1" : "0") + '\n';
    text += "# HELP weft_health_findings_total Findings of the fabric's health check, by severity.\n"
            "# TYPE weft_health_findings_total gauge\n";
    for (CheckSeverity severity : {CheckSeverity::Error, CheckSeverity::Warning})
        text += "weft_health_findings_total{severity=\"" + checkSeverityName(severity).toUtf8() + "\"} "
            + QByteArray::number(qulonglong(report.count(severity))) + '\n';
    const std::vector<FindingCount> counts = countFindings(report);
    if (!counts.empty()) {
        text += "# HELP weft_health_findings Findings of the fabric's health check, by severity and kind.\n"
                "# TYPE weft_health_findings gauge\n";
        for (const FindingCount &c : counts)
            text += "weft_health_findings{severity=\"" + checkSeverityName(c.severity).toUtf8() + "\",kind=\"" + c.kind.toUtf8() + "\"} "
                + QByteArray::number(qulonglong(c.count)) + '\n';
    }
    return text;
}

QString checkReportText(const FabricCheckReport &report)
{
    QString text;
    text += QStringLiteral("checked %1 (%2)").arg(report.source, report.checks.join(QStringLiteral(", ")));
    if (!report.design.isEmpty())
        text += QStringLiteral(" against %1").arg(report.design);
    text += QLatin1Char('\n');
    for (CheckSeverity severity : {CheckSeverity::Error, CheckSeverity::Warning}) {
        const std::size_t n = report.count(severity);
        if (!n)
            continue;
        text += QStringLiteral("%1 (%2):\n").arg(severity == CheckSeverity::Error ? QStringLiteral("errors") : QStringLiteral("warnings")).arg(n);
        for (const CheckFinding &f : report.findings)
            if (f.severity == severity)
                text += QStringLiteral("  %1: %2\n").arg(f.kind, f.message);
    }
    if (report.findings.empty())
        text += QStringLiteral("clean: no findings\n");
    else
    {
        const std::size_t errors = report.count(CheckSeverity::Error), warnings = report.count(CheckSeverity::Warning);
        text += QStringLiteral("%1 %2, %3 %4\n")
                    .arg(errors)
                    .arg(errors == 1 ? QStringLiteral("error") : QStringLiteral("errors"))
                    .arg(warnings)
                    .arg(warnings == 1 ? QStringLiteral("warning") : QStringLiteral("warnings"));
    }
    return text;
}

QJsonObject checkReportJson(const FabricCheckReport &report)
{
    QJsonArray findings;
    for (CheckSeverity severity : {CheckSeverity::Error, CheckSeverity::Warning})
        for (const CheckFinding &f : report.findings) {
            if (f.severity != severity)
                continue;
            QJsonArray places;
            for (const FindingPlace &p : f.places) {
                QJsonObject o{{QStringLiteral("node"), p.node}, {QStringLiteral("guid"), p.guid ? guidText(p.guid) : QString()}};
                if (p.port >= 0)
                    o.insert(QStringLiteral("port"), p.port);
                places.append(o);
            }
            findings.append(QJsonObject{{QStringLiteral("severity"), checkSeverityName(f.severity)},
                                        {QStringLiteral("kind"), f.kind},
                                        {QStringLiteral("message"), f.message},
                                        {QStringLiteral("places"), places}});
        }
    return QJsonObject{{QStringLiteral("clean"), report.findings.empty()},
                       {QStringLiteral("source"), report.source},
                       {QStringLiteral("design"), report.design},
                       {QStringLiteral("window_seconds"), report.window},
                       {QStringLiteral("checks"), QJsonArray::fromStringList(report.checks)},
                       {QStringLiteral("errors"), double(report.count(CheckSeverity::Error))},
                       {QStringLiteral("warnings"), double(report.count(CheckSeverity::Warning))},
                       {QStringLiteral("findings"), findings}};
}

std::map<QString, QByteArray> checkReportCsv(const FabricCheckReport &report)
{
    std::map<QString, QByteArray> files;
    for (const QString &check : report.checks)
        for (const QString &kind : checkKinds(check))
            files[kind + QStringLiteral(".csv")] = "severity,node,guid,port,peer_node,peer_guid,peer_port,message\n";
    for (const CheckFinding &f : report.findings) {
        QByteArray &csv = files[f.kind + QStringLiteral(".csv")];
        if (csv.isEmpty())
            csv = "severity,node,guid,port,peer_node,peer_guid,peer_port,message\n";
        QByteArray row = csvField(checkSeverityName(f.severity));
        for (std::size_t i = 0; i < 2; ++i) {
            const FindingPlace *p = i < f.places.size() ? &f.places[i] : nullptr;
            row += ',' + (p ? csvField(p->node) : QByteArray()) + ',' + (p && p->guid ? csvField(guidText(p->guid)) : QByteArray()) + ','
                + (p && p->port >= 0 ? QByteArray::number(p->port) : QByteArray());
        }
        row += ',' + csvField(f.message) + '\n';
        csv += row;
    }
    return files;
}

}  // namespace weft
