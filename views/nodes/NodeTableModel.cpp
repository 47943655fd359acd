#include "NodeTableModel.h"

namespace weft {

NodeTableModel::NodeTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void NodeTableModel::setFabric(std::shared_ptr<const Fabric> fabric, std::vector<int> tiers)
{
    beginResetModel();
    m_fabric = std::move(fabric);
    m_tiers = std::move(tiers);
    m_lids.clear();
    if (m_fabric) {
        m_tiers.resize(m_fabric->nodes().size(), -1);
        m_lids.reserve(m_fabric->nodes().size());
        for (std::size_t n = 0; n < m_fabric->nodes().size(); ++n)
            m_lids.push_back(m_fabric->nodeLid(NodeIndex(n)));
    }
    endResetModel();
}

void NodeTableModel::clear()
{
    setFabric(nullptr, {});
}

NodeIndex NodeTableModel::nodeAt(const QModelIndex &index) const
{
    if (!index.isValid() || index.model() != this || !m_fabric || index.row() >= rowCount())
        return kNoIndex;
    return NodeIndex(index.row());
}

QModelIndex NodeTableModel::indexOf(NodeIndex node, int column) const
{
    if (node < 0 || node >= rowCount() || column < 0 || column >= ColumnCount)
        return {};
    return index(int(node), column);
}

int NodeTableModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() || !m_fabric)
        return 0;
    return int(m_fabric->nodes().size());
}

int NodeTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString NodeTableModel::typeText(NodeType type) const
{
    switch (type) {
    case NodeType::Switch:
        return tr("Switch");
    case NodeType::ChannelAdapter:
        return tr("Host");
    case NodeType::Router:
        return tr("Router");
    }
    return {};
}

QVariant NodeTableModel::data(const QModelIndex &index, int role) const
{
    const NodeIndex n = nodeAt(index);
    if (n == kNoIndex)
        return {};
    const Node &node = m_fabric->node(n);
    const Lid lid = m_lids[std::size_t(n)];
    const int tier = m_tiers[std::size_t(n)];

    if (role == NodeIndexRole)
        return int(n);
    if (role == Qt::TextAlignmentRole) {
        const bool numeric = index.column() == LidColumn || index.column() == PortsColumn || index.column() == TierColumn;
        return int((numeric ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
    }
    if (role == SortRole) {
        switch (Column(index.column())) {
        case TypeColumn:
            return int(node.type);
        case DescriptionColumn:
            return node.description.isEmpty() ? node.name : node.description;
        case GuidColumn:
            return qulonglong(node.guid);
        case LidColumn:
            return int(lid);
        case PortsColumn:
            return int(node.portCount);
        case TierColumn:
            return tier;
        case ColumnCount:
            break;
        }
        return {};
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (Column(index.column())) {
    case TypeColumn:
        return typeText(node.type);
    case DescriptionColumn:
        return node.description.isEmpty() ? node.name : node.description;
    case GuidColumn:
        return guidText(node.guid);
    case LidColumn:
        return lid ? QVariant(int(lid)) : QVariant(QString());
    case PortsColumn:
        return int(node.portCount);
    case TierColumn:
        return tier >= 0 ? QVariant(tier) : QVariant(tr("none"));
    case ColumnCount:
        break;
    }
    return {};
}

QVariant NodeTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (Column(section)) {
    case TypeColumn:
        return tr("Type");
    case DescriptionColumn:
        return tr("Description");
    case GuidColumn:
        return tr("GUID");
    case LidColumn:
        return tr("LID");
    case PortsColumn:
        return tr("Ports");
    case TierColumn:
        return tr("Tier");
    case ColumnCount:
        break;
    }
    return {};
}

}  // namespace weft
