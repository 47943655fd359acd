#pragma once
// One row per host port: GUID, description and traffic weight (absent = 1), the weight
// editable. Rows follow the fabric (reset when it changes); weights follow weight changes as
// dataChanged on one column, so a fabric of 50,000 ports is not rebuilt on each edit.

#include "FabricDocument.h"

#include <QAbstractTableModel>

namespace weft {

class WeightTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { PortColumn, DescriptionColumn, WeightColumn, ColumnCount };

    explicit WeightTableModel(FabricDocument *document, QObject *parent = nullptr);

    Guid portAt(const QModelIndex &index) const;  // 0 for an invalid index
    QModelIndex indexOfPort(Guid port, int column = 0) const;

    int rowCount(const QModelIndex &parent = {}) const final;
    int columnCount(const QModelIndex &parent = {}) const final;
    // EditRole gives sortable values: the GUID as a number, the weight as a double.
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const final;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) final;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const final;
    Qt::ItemFlags flags(const QModelIndex &index) const final;

private:
    void rebuild();

    FabricDocument *m_document;
    std::vector<Guid> m_ports;
};

}  // namespace weft
