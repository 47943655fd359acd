#include "NodeFilterProxyModel.h"

#include "NodeTableModel.h"

#include <QRegularExpression>

namespace weft {

namespace {

// Fewer hex digits than this match too many GUIDs by accident ("17" is in most of them).
constexpr int kMinGuidFragment = 4;

} // namespace

NodeFilterProxyModel::NodeFilterProxyModel(QObject *parent) : QSortFilterProxyModel(parent)
{
    setSortRole(NodeTableModel::SortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

void NodeFilterProxyModel::setSearchText(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed == m_text)
        return;
    m_text = trimmed;
    m_hexDigits.clear();
    m_lid.reset();
    m_lidOnly = false;

    static const QRegularExpression lidQuery(QStringLiteral("^lid\\s*[:=]?\\s*(0x[0-9a-f]+|\\d+)$"),
                                             QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression decimal(QStringLiteral("^\\d+$"));
    static const QRegularExpression hexFragment(QStringLiteral("^(0x)?([0-9a-f:]+)$"),
                                                QRegularExpression::CaseInsensitiveOption);
    const auto parseLid = [](const QString &digits) -> std::optional<std::uint32_t> {
        bool ok = false;
        const uint value = digits.startsWith(QLatin1String("0x"), Qt::CaseInsensitive) ? digits.mid(2).toUInt(&ok, 16)
                                                                                       : digits.toUInt(&ok, 10);
        if (!ok || value > 0xffff)
            return std::nullopt;
        return value;
    };

    if (const QRegularExpressionMatch m = lidQuery.match(m_text); m.hasMatch()) {
        m_lid = parseLid(m.captured(1));
        m_lidOnly = true;
    } else {
        if (decimal.match(m_text).hasMatch())
            m_lid = parseLid(m_text);
        if (const QRegularExpressionMatch h = hexFragment.match(m_text); h.hasMatch()) {
            QString digits = h.captured(2).toLower();
            digits.remove(QLatin1Char(':'));
            if (!h.captured(1).isEmpty() || digits.size() >= kMinGuidFragment)
                m_hexDigits = digits;
        }
    }
    invalidateFilter();
}

bool NodeFilterProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (m_text.isEmpty())
        return true;
    const auto *model = qobject_cast<const NodeTableModel *>(sourceModel());
    if (!model || !model->fabric() || sourceParent.isValid())
        return false;
    const NodeIndex n = NodeIndex(sourceRow);
    const Fabric &fabric = *model->fabric();
    const Node &node = fabric.node(n);

    if (m_lid && *m_lid == fabric.nodeLid(n))
        return true;
    if (m_lidOnly)
        return false;
    if (node.description.contains(m_text, Qt::CaseInsensitive) || node.name.contains(m_text, Qt::CaseInsensitive))
        return true;
    if (!m_hexDigits.isEmpty()) {
        const QString guid = QStringLiteral("%1").arg(node.guid, 16, 16, QLatin1Char('0'));
        if (guid.contains(m_hexDigits))
            return true;
        // A port GUID of the node finds the node too: partitions name members by port GUID.
        for (int p = 0; p <= node.portCount; ++p) {
            const Port &port = fabric.port(node.firstPort + p);
            if (port.present && port.guid != node.guid
                && QStringLiteral("%1").arg(port.guid, 16, 16, QLatin1Char('0')).contains(m_hexDigits))
                return true;
        }
    }
    return false;
}

} // namespace weft
