#include "PolicyTableModel.h"

namespace weft {

PolicyTableModel::PolicyTableModel(FabricDocument *document, QObject *parent)
    : QAbstractTableModel(parent), m_document(document)
{
    connect(document, &FabricDocument::changed, this, [this](DocumentChanges what) {
        if (what & (DocumentChange::Fabric | DocumentChange::Partitions | DocumentChange::Policies))
            documentChanged();
    });
    documentChanged();
}

void PolicyTableModel::documentChanged()
{
    std::vector<std::optional<std::uint16_t>> rows;
    for (const Partition &p : m_document->tenancy().partitions)
        rows.push_back(p.pkey);
    // Same partitions: only names or policies changed, and an open combo editor survives.
    if (rows == m_rows) {
        if (!m_rows.empty())
            Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

const Partition *PolicyTableModel::partitionAt(const QModelIndex &index) const
{
    const auto &partitions = m_document->tenancy().partitions;
    if (!index.isValid() || index.model() != this || std::size_t(index.row()) >= partitions.size())
        return nullptr;
    return &partitions[std::size_t(index.row())];
}

int PolicyTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int PolicyTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString PolicyTableModel::policyText(IsolationPolicy policy)
{
    switch (policy) {
    case IsolationPolicy::Default: return tr("None (shared links)");
    case IsolationPolicy::VirtualLane: return tr("Own virtual lanes");
    case IsolationPolicy::Physical: return tr("Own links (physical)");
    }
    return {};
}

QVariant PolicyTableModel::data(const QModelIndex &index, int role) const
{
    const Partition *p = partitionAt(index);
    if (!p)
        return {};
    switch (index.column()) {
    case NameColumn:
        if (role == Qt::DisplayRole)
            return p->name;
        break;
    case KeyColumn:
        if (role == Qt::DisplayRole)
            return p->pkey ? pkeyText(*p->pkey & kPKeyMask) : tr("automatic");
        break;
    case PolicyColumn:
        if (role == Qt::DisplayRole)
            return policyText(p->policy);
        if (role == Qt::EditRole)
            return int(p->policy);
        if (role == Qt::ToolTipRole)
            return policyName(p->policy);
        break;
    }
    return {};
}

bool PolicyTableModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    const Partition *p = partitionAt(index);
    bool ok = false;
    const int policy = value.toInt(&ok);
    if (!p || !p->pkey || role != Qt::EditRole || index.column() != PolicyColumn || !ok
        || policy < int(IsolationPolicy::Default) || policy > int(IsolationPolicy::Physical))
        return false;
    m_document->setPolicy(*p->pkey, IsolationPolicy(policy));
    return true;
}

QVariant PolicyTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Partition");
    case KeyColumn: return tr("P_Key");
    case PolicyColumn: return tr("Isolation");
    }
    return {};
}

Qt::ItemFlags PolicyTableModel::flags(const QModelIndex &index) const
{
    const Partition *p = partitionAt(index);
    if (!p)
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemNeverHasChildren;
    if (index.column() == PolicyColumn && p->pkey)
        f |= Qt::ItemIsEditable;
    return f;
}

}  // namespace weft
