#include "WeightTableModel.h"

#include "HostPorts.h"

#include <QFont>

#include <cmath>

namespace weft {

WeightTableModel::WeightTableModel(FabricDocument *document, QObject *parent)
    : QAbstractTableModel(parent), m_document(document)
{
    connect(document, &FabricDocument::changed, this, [this](DocumentChanges what) {
        if (what & DocumentChange::Fabric)
            rebuild();
        else if (what & DocumentChange::Weights && !m_ports.empty())
            Q_EMIT dataChanged(index(0, WeightColumn), index(rowCount() - 1, WeightColumn));
    });
    rebuild();
}

void WeightTableModel::rebuild()
{
    beginResetModel();
    const auto fabric = m_document->fabric();
    m_ports = fabric ? hostPortGuids(*fabric) : std::vector<Guid>{};
    endResetModel();
}

Guid WeightTableModel::portAt(const QModelIndex &index) const
{
    if (!index.isValid() || index.model() != this || std::size_t(index.row()) >= m_ports.size())
        return 0;
    return m_ports[std::size_t(index.row())];
}

QModelIndex WeightTableModel::indexOfPort(Guid port, int column) const
{
    const auto it = std::find(m_ports.begin(), m_ports.end(), port);
    return it == m_ports.end() ? QModelIndex() : index(int(it - m_ports.begin()), column);
}

int WeightTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_ports.size());
}

int WeightTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant WeightTableModel::data(const QModelIndex &index, int role) const
{
    const Guid port = portAt(index);
    if (!port)
        return {};
    const auto &weights = m_document->tenancy().nodeWeights;
    const auto it = weights.find(port);
    const double weight = it == weights.end() ? 1.0 : it->second;
    switch (index.column()) {
    case PortColumn:
        if (role == Qt::DisplayRole)
            return guidText(port);
        if (role == Qt::EditRole)
            return qulonglong(port);
        break;
    case DescriptionColumn:
        if (role == Qt::DisplayRole || role == Qt::EditRole)
            return hostPortLabel(m_document->fabric().get(), port);
        break;
    case WeightColumn:
        if (role == Qt::DisplayRole)
            return QString::number(weight, 'g', 6);
        if (role == Qt::EditRole)
            return weight;
        if (role == Qt::TextAlignmentRole)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        if (role == Qt::FontRole && it != weights.end()) {
            QFont bold;  // a weight the operator set stands out from the default 1
            bold.setBold(true);
            return bold;
        }
        break;
    }
    return {};
}

bool WeightTableModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    const Guid port = portAt(index);
    bool ok = false;
    const double weight = value.toDouble(&ok);
    if (!port || role != Qt::EditRole || index.column() != WeightColumn || !ok || !std::isfinite(weight) || weight <= 0)
        return false;
    m_document->setNodeWeight(port, weight);
    return true;
}

QVariant WeightTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case PortColumn: return tr("Port GUID");
    case DescriptionColumn: return tr("Host");
    case WeightColumn: return tr("Weight");
    }
    return {};
}

Qt::ItemFlags WeightTableModel::flags(const QModelIndex &index) const
{
    if (!portAt(index))
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemNeverHasChildren;
    if (index.column() == WeightColumn)
        f |= Qt::ItemIsEditable;
    return f;
}

}  // namespace weft
