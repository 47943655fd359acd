#include "WhatIf.h"

#include "FabricEdit.h"
#include "NodeQuery.h"

#include <QRegularExpression>

namespace weft {

namespace {

Error whatIfError(const QString &message)
{
    return Error{{}, 0, message};
}

QString kindText(NodeType type)
{
    return type == NodeType::Switch ? QStringLiteral("a switch") : QStringLiteral("an end node");
}

// The node `text` names, exactly or as the one node that matches it; an error when none or
// several do. Unlike NodeQuery::find, which goes to the first of many, a what-if must not pick
// one of several switches by accident.
Result<NodeIndex> findNode(const Fabric &fabric, const QString &typed)
{
    const QString text = typed.trimmed();
    if (text.isEmpty())
        return whatIfError(QStringLiteral("no node named"));
    if (const NodeIndex n = fabric.nodeByName(text); n != kNoIndex)
        return n;
    const auto nodes = NodeIndex(fabric.nodes().size());
    std::vector<NodeIndex> found;
    for (NodeIndex n = 0; n < nodes; ++n)
        if (fabric.node(n).description.compare(text, Qt::CaseInsensitive) == 0)
            found.push_back(n);
    if (found.empty()) {
        // A whole node or port GUID, or a LID ("lid 17", "17"), names one node.
        static const QRegularExpression guidForm(QStringLiteral("^(0x)?([0-9a-f:]{4,})$"), QRegularExpression::CaseInsensitiveOption);
        static const QRegularExpression lidForm(QStringLiteral("^(lid\\s*[:=]?\\s*)?(0x[0-9a-f]+|\\d+)$"), QRegularExpression::CaseInsensitiveOption);
        if (const QRegularExpressionMatch g = guidForm.match(text); g.hasMatch()) {
            bool ok = false;
            const Guid guid = g.captured(2).remove(QLatin1Char(':')).toULongLong(&ok, 16);
            if (ok && fabric.nodeByGuid(guid) != kNoIndex)
                return fabric.nodeByGuid(guid);
            if (const PortIndex p = ok ? fabric.portByGuid(guid) : kNoIndex; p != kNoIndex)
                return fabric.port(p).node;
        }
        if (const QRegularExpressionMatch l = lidForm.match(text); l.hasMatch()) {
            bool ok = false;
            const uint lid = l.captured(2).toUInt(&ok, 0);
            if (const PortIndex p = ok && lid > 0 && lid <= kMaxUnicastLid ? fabric.portByLid(Lid(lid)) : kNoIndex; p != kNoIndex)
                return fabric.port(p).node;
        }
        const NodeQuery query(text);
        for (NodeIndex n = 0; n < nodes; ++n)
            if (query.matches(fabric, n))
                found.push_back(n);
    }
    if (found.empty())
        return whatIfError(QStringLiteral("\"%1\": no such node").arg(text));
    if (found.size() > 1) {
        QStringList names;
        for (std::size_t i = 0; i < found.size() && i < 3; ++i)
            names << displayName(fabric.node(found[i]));
        return whatIfError(QStringLiteral("\"%1\" is ambiguous: %2 nodes match (%3%4)")
                               .arg(text)
                               .arg(found.size())
                               .arg(names.join(QStringLiteral(", ")), found.size() > 3 ? QStringLiteral(", …") : QString()));
    }
    return found.front();
}

}  // namespace

Result<std::pair<Guid, int>> parseLinkEnd(const Fabric &fabric, const QString &text)
{
    static const QRegularExpression form(QStringLiteral("^\\s*(.*\\S)\\s*\\[\\s*(\\d+)\\s*\\]\\s*$"));
    const QRegularExpressionMatch m = form.match(text);
    if (!m.hasMatch())
        return whatIfError(QStringLiteral("\"%1\": not a link end; name it NODE[PORT], e.g. \"S1[3]\"").arg(text));
    Result<NodeIndex> node = findNode(fabric, m.captured(1));
    if (!node)
        return whatIfError(QStringLiteral("link \"%1\": %2").arg(text, node.error().message));
    const Node &n = fabric.node(*node);
    bool ok = false;
    const int number = m.captured(2).toInt(&ok);
    if (!ok || number < 1 || number > n.portCount)
        return whatIfError(QStringLiteral("link \"%1\": %2 has ports 1 to %3, not %4")
                               .arg(text, displayName(n))
                               .arg(n.portCount)
                               .arg(m.captured(2)));
    const PortIndex p = fabric.portOf(*node, number);
    if (p == kNoIndex || !fabric.port(p).present || fabric.port(p).remote == kNoIndex)
        return whatIfError(QStringLiteral("link \"%1\": port %2 of %3 is not cabled").arg(text).arg(number).arg(displayName(n)));
    return std::pair<Guid, int>{n.guid, number};
}

Result<Guid> parseWhatIfNode(const Fabric &fabric, const QString &text, bool wantSwitch)
{
    Result<NodeIndex> node = findNode(fabric, text);
    if (!node)
        return node.error();
    const Node &n = fabric.node(*node);
    if ((n.type == NodeType::Switch) != wantSwitch)
        return whatIfError(QStringLiteral("\"%1\" is %2 (%3), not %4")
                               .arg(text.trimmed(), kindText(n.type), displayName(n),
                                    kindText(wantSwitch ? NodeType::Switch : NodeType::ChannelAdapter)));
    return n.guid;
}

QString WhatIf::describe(const Fabric &fabric) const
{
    QStringList clauses;
    for (const auto &[guid, number] : failedLinkPorts) {
        const NodeIndex n = fabric.nodeByGuid(guid);
        const PortIndex p = n == kNoIndex ? kNoIndex : fabric.portOf(n, number);
        if (p == kNoIndex) {
            clauses << QStringLiteral("link %1[%2] fails").arg(guidText(guid)).arg(number);
            continue;
        }
        const PortIndex remote = fabric.port(p).remote;
        clauses << (remote == kNoIndex ? QStringLiteral("link %1 fails").arg(portDisplayName(fabric, p))
                                       : QStringLiteral("link %1–%2 fails").arg(portDisplayName(fabric, p), portDisplayName(fabric, remote)));
    }
    auto nodeName = [&fabric](Guid guid) {
        const NodeIndex n = fabric.nodeByGuid(guid);
        return n == kNoIndex ? guidText(guid) : displayName(fabric.node(n));
    };
    for (Guid guid : failedSwitches)
        clauses << QStringLiteral("switch \"%1\" fails").arg(nodeName(guid));
    for (Guid guid : removedHosts)
        clauses << QStringLiteral("host \"%1\" removed").arg(nodeName(guid));
    return clauses.join(QStringLiteral("; "));
}

Result<Fabric> applyWhatIf(const Fabric &fabric, const WhatIf &whatIf)
{
    std::vector<bool> removedNode(fabric.nodes().size(), false);
    std::vector<bool> failedPort(fabric.ports().size(), false);
    for (const auto &[guid, number] : whatIf.failedLinkPorts) {
        const NodeIndex n = fabric.nodeByGuid(guid);
        if (n == kNoIndex)
            return whatIfError(QStringLiteral("failed link: the fabric has no node %1").arg(guidText(guid)));
        const PortIndex p = fabric.portOf(n, number);
        if (number < 1 || p == kNoIndex || fabric.port(p).remote == kNoIndex)
            return whatIfError(QStringLiteral("failed link: port %1 of %2 is not cabled").arg(number).arg(displayName(fabric.node(n))));
        failedPort[std::size_t(p)] = true;
        failedPort[std::size_t(fabric.port(p).remote)] = true;
    }
    auto removeNode = [&](Guid guid, bool wantSwitch) -> Status {
        const NodeIndex n = fabric.nodeByGuid(guid);
        const char *what = wantSwitch ? "failed switch" : "removed host";
        if (n == kNoIndex)
            return whatIfError(QStringLiteral("%1: the fabric has no node %2").arg(QLatin1String(what), guidText(guid)));
        if ((fabric.node(n).type == NodeType::Switch) != wantSwitch)
            return whatIfError(QStringLiteral("%1: %2 is %3").arg(QLatin1String(what), displayName(fabric.node(n)), kindText(fabric.node(n).type)));
        removedNode[std::size_t(n)] = true;
        return Done{};
    };
    for (Guid guid : whatIf.failedSwitches)
        if (Status s = removeNode(guid, true); !s)
            return s.error();
    for (Guid guid : whatIf.removedHosts)
        if (Status s = removeNode(guid, false); !s)
            return s.error();

    FabricEdit edit;
    edit.removedNodes = std::move(removedNode);
    edit.cutPorts = std::move(failedPort);
    return editedFabric(fabric, edit);
}

}  // namespace weft
