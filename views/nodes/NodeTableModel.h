#pragma once
// One row per node of a fabric: type, description, GUID, LID, ports and tier. An adapter over
// an immutable Fabric (it owns nothing but a shared reference), so it costs no copy of the
// fabric and is reset as a whole when another fabric is shown.

#include "Fabric.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace weft {

class NodeTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { TypeColumn, DescriptionColumn, GuidColumn, LidColumn, PortsColumn, TierColumn, ColumnCount };
    enum Roles {
        SortRole = Qt::UserRole,  // numbers as numbers, so that LID 10 sorts after LID 9
        NodeIndexRole,
    };

    explicit NodeTableModel(QObject *parent = nullptr);

    // `tiers` as nodeTiers() gives them, one per node.
    void setFabric(std::shared_ptr<const Fabric> fabric, std::vector<int> tiers);
    void clear();

    const Fabric *fabric() const { return m_fabric.get(); }
    NodeIndex nodeAt(const QModelIndex &index) const;
    QModelIndex indexOf(NodeIndex node, int column = 0) const;

    int rowCount(const QModelIndex &parent = {}) const final;
    int columnCount(const QModelIndex &parent = {}) const final;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const final;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const final;

    QString typeText(NodeType type) const;

private:
    std::shared_ptr<const Fabric> m_fabric;
    std::vector<int> m_tiers;
    std::vector<Lid> m_lids;  // nodeLid() per node, looked up once
};

}  // namespace weft
