#include "NodeFilterProxyModel.h"

#include "NodeTableModel.h"

namespace weft {

NodeFilterProxyModel::NodeFilterProxyModel(QObject *parent) : QSortFilterProxyModel(parent)
{
    setSortRole(NodeTableModel::SortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

void NodeFilterProxyModel::setSearchText(const QString &text)
{
    NodeQuery query(text);
    if (query.text() == m_query.text())
        return;
    m_query = std::move(query);
    invalidateFilter();
}

bool NodeFilterProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (m_query.isEmpty())
        return true;
    const auto *model = qobject_cast<const NodeTableModel *>(sourceModel());
    if (!model || !model->fabric() || sourceParent.isValid())
        return false;
    return m_query.matches(*model->fabric(), NodeIndex(sourceRow));
}

}  // namespace weft
