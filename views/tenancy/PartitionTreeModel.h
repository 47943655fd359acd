#pragma once
// Partitions and their members as a tree over a FabricDocument (it owns no tenancy of its own):
// partitions at the top, their members below. Dropping port GUIDs (PortsMime.h) on a partition
// or one of its members assigns them to that partition through the document, so the drop is
// one undoable edit; the model then hears of it like every other view, through the document's
// changed().

#include "FabricDocument.h"

#include <QAbstractItemModel>

#include <optional>

namespace weft {

class PartitionTreeModel : public QAbstractItemModel
{
    Q_OBJECT

public:
    enum Column { NameColumn, KeyColumn, MembershipColumn, ColumnCount };
    enum Roles {
        PKeyRole = Qt::UserRole,  // the partition's P_Key, on partition and member rows alike
        GuidRole,                 // a member's port GUID (qulonglong); none on partition rows
    };

    explicit PartitionTreeModel(FabricDocument *document, QObject *parent = nullptr);

    // How dropped hosts become members.
    void setDropMembership(Membership membership) { m_dropMembership = membership; }
    Membership dropMembership() const { return m_dropMembership; }

    // The partition a row belongs to (itself for a partition row); nullopt for partitions
    // without a P_Key, which OpenSM numbers itself and edits cannot name.
    std::optional<std::uint16_t> pkeyAt(const QModelIndex &index) const;
    bool isPartitionRow(const QModelIndex &index) const;
    std::optional<Guid> memberGuidAt(const QModelIndex &index) const;
    QModelIndex indexOfPartition(std::uint16_t pkey, int column = 0) const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const final;
    QModelIndex parent(const QModelIndex &child) const final;
    int rowCount(const QModelIndex &parent = {}) const final;
    int columnCount(const QModelIndex &parent = {}) const final;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const final;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const final;
    Qt::ItemFlags flags(const QModelIndex &index) const final;

    QStringList mimeTypes() const final;
    QMimeData *mimeData(const QModelIndexList &indexes) const final;
    Qt::DropActions supportedDropActions() const final;
    Qt::DropActions supportedDragActions() const final;
    bool canDropMimeData(const QMimeData *data, Qt::DropAction action, int row, int column,
                         const QModelIndex &parent) const final;
    bool dropMimeData(const QMimeData *data, Qt::DropAction action, int row, int column,
                      const QModelIndex &parent) final;

private:
    const Partition *partitionAt(const QModelIndex &index) const;
    QString memberText(const PartitionMember &member) const;

    FabricDocument *m_document;
    Membership m_dropMembership = Membership::Full;
};

QString membershipText(Membership membership);  // translated "full", "limited", "both"

}  // namespace weft
