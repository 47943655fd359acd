#pragma once
// One row per partition: name, P_Key and isolation policy, the policy editable. Edits go to
// FabricDocument::setPolicy; the rows follow the document's partitions and policies.

#include "FabricDocument.h"

#include <QAbstractTableModel>

namespace weft {

class PolicyTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { NameColumn, KeyColumn, PolicyColumn, ColumnCount };

    explicit PolicyTableModel(FabricDocument *document, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const final;
    int columnCount(const QModelIndex &parent = {}) const final;
    // The policy column's EditRole is the IsolationPolicy as an int.
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const final;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) final;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const final;
    Qt::ItemFlags flags(const QModelIndex &index) const final;

    static QString policyText(IsolationPolicy policy);  // translated, for the table and its combo

private:
    void documentChanged();
    const Partition *partitionAt(const QModelIndex &index) const;

    FabricDocument *m_document;
    std::vector<std::optional<std::uint16_t>> m_rows;  // P_Keys shown, to tell edits from resets
};

}  // namespace weft
