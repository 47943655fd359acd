#include "NodeQuery.h"

#include <QRegularExpression>

namespace weft {

namespace {

// Fewer hex digits than this match too many GUIDs by accident ("17" is in most of them).
constexpr int kMinGuidFragment = 4;

std::optional<std::uint32_t> parseLid(const QString &digits)
{
    bool ok = false;
    const uint value = digits.startsWith(QLatin1String("0x"), Qt::CaseInsensitive) ? digits.mid(2).toUInt(&ok, 16)
                                                                                   : digits.toUInt(&ok, 10);
    if (!ok || value > 0xffff)
        return std::nullopt;
    return value;
}

}  // namespace

NodeQuery::NodeQuery(const QString &text) : m_text(text.trimmed())
{
    static const QRegularExpression lidQuery(QStringLiteral("^lid\\s*[:=]?\\s*(0x[0-9a-f]+|\\d+)$"),
                                             QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression decimal(QStringLiteral("^\\d+$"));
    static const QRegularExpression hexDigits(QStringLiteral("^(0x)?([0-9a-f:]+)$"), QRegularExpression::CaseInsensitiveOption);

    if (const QRegularExpressionMatch m = lidQuery.match(m_text); m.hasMatch()) {
        m_lid = parseLid(m.captured(1));
        m_lidOnly = true;
        return;
    }
    if (decimal.match(m_text).hasMatch())
        m_lid = parseLid(m_text);
    if (const QRegularExpressionMatch h = hexDigits.match(m_text); h.hasMatch()) {
        QString digits = h.captured(2).toLower();
        digits.remove(QLatin1Char(':'));
        bool ok = false;
        if (const Guid guid = digits.toULongLong(&ok, 16); ok)
            m_guid = guid;
        if (!h.captured(1).isEmpty() || digits.size() >= kMinGuidFragment)
            m_guidFragment = digits;
    }
}

NodeIndex NodeQuery::nodeOfLid(const Fabric &fabric) const
{
    if (!m_lid)
        return kNoIndex;
    const PortIndex port = fabric.portByLid(Lid(*m_lid));
    return port == kNoIndex ? kNoIndex : fabric.port(port).node;
}

bool NodeQuery::matches(const Fabric &fabric, NodeIndex n) const
{
    if (m_text.isEmpty())
        return true;
    if (m_lid && nodeOfLid(fabric) == n)
        return true;
    if (m_lidOnly)
        return false;
    const Node &node = fabric.node(n);
    if (node.description.contains(m_text, Qt::CaseInsensitive) || node.name.contains(m_text, Qt::CaseInsensitive))
        return true;
    if (m_guidFragment.isEmpty())
        return false;
    if (guidDigits(node.guid).contains(m_guidFragment))
        return true;
    // A port GUID of the node finds the node too: partitions name members by port GUID.
    for (int p = 0; p <= node.portCount; ++p) {
        const Port &port = fabric.port(node.firstPort + p);
        if (port.present && port.guid != node.guid && guidDigits(port.guid).contains(m_guidFragment))
            return true;
    }
    return false;
}

NodeIndex NodeQuery::find(const Fabric &fabric) const
{
    if (m_text.isEmpty())
        return kNoIndex;
    if (const NodeIndex n = nodeOfLid(fabric); n != kNoIndex || m_lidOnly)
        return n;
    if (m_guid) {
        if (const NodeIndex n = fabric.nodeByGuid(*m_guid); n != kNoIndex)
            return n;
        if (const PortIndex p = fabric.portByGuid(*m_guid); p != kNoIndex)
            return fabric.port(p).node;
    }
    if (const NodeIndex n = fabric.nodeByName(m_text); n != kNoIndex)
        return n;
    const auto nodes = NodeIndex(fabric.nodes().size());
    for (NodeIndex n = 0; n < nodes; ++n)
        if (fabric.node(n).description.compare(m_text, Qt::CaseInsensitive) == 0)
            return n;
    for (NodeIndex n = 0; n < nodes; ++n)
        if (fabric.node(n).description.contains(m_text, Qt::CaseInsensitive))
            return n;
    for (NodeIndex n = 0; n < nodes; ++n)
        if (matches(fabric, n))
            return n;
    return kNoIndex;
}

}  // namespace weft
