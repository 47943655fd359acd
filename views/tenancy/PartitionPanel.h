#pragma once
// The partition editor: partitions and their members above, tenants and hosts below. Hosts or
// whole tenants dragged onto a partition (from here or from the fabric view) become members;
// buttons and the context menu create, rename and delete partitions, set membership and remove
// members. Every change goes through FabricDocument, and problems (a bad P_Key, a name already
// used) are shown in the panel's message line rather than in a modal box.

#include "FabricDocument.h"
#include "JobTenants.h"

#include <QWidget>

#include <set>

class QComboBox;
class QLabel;
class QPushButton;
class QTreeView;

namespace weft {

class PartitionTreeModel;
class TenantListModel;

class PartitionPanel : public QWidget
{
    Q_OBJECT

public:
    explicit PartitionPanel(FabricDocument *document, QWidget *parent = nullptr);

    // The edits behind the buttons, callable without their dialogs. Errors are also shown in
    // the message line.
    Status createPartition(const QString &name, const QString &pkeyText);
    Status renameSelectedPartition(const QString &name);
    void deleteSelectedPartitions();
    void setSelectedMembership(Membership membership);
    void removeSelectedMembers();

    QTreeView *partitionView() const { return m_partitionView; }
    QTreeView *tenantView() const { return m_tenantView; }
    PartitionTreeModel *partitionModel() const { return m_partitionModel; }
    TenantListModel *tenantModel() const { return m_tenantModel; }
    QString message() const;

    // Slurm's jobs on the service's fabric, shown as tenants (TenantListModel::setJobs).
    void setServiceJobs(const std::vector<weft::JobTenant> &jobs);
    QString chosenJob() const { return m_chosenJob; }

Q_SIGNALS:
    // A job's row selected in the tenants (its member ports), or none any more (an empty ID).
    void jobChosen(const QString &job, const std::vector<weft::Guid> &ports);

private:
    void tenantSelectionChanged();

    void newPartitionDialog();
    void renameDialog();
    void showContextMenu(const QPoint &pos);
    void showStatus(const Status &status);
    void updateActions();
    std::optional<std::uint16_t> selectedPartition() const;

    FabricDocument *m_document;
    PartitionTreeModel *m_partitionModel;
    TenantListModel *m_tenantModel;
    QTreeView *m_partitionView;
    QTreeView *m_tenantView;
    QComboBox *m_dropMembership;
    QLabel *m_message;
    QPushButton *m_newButton;
    QPushButton *m_renameButton;
    QPushButton *m_deleteButton;
    QPushButton *m_fullButton;
    QPushButton *m_limitedButton;
    QPushButton *m_removeButton;
    std::set<std::uint16_t> m_expanded;  // kept across model resets
    QString m_chosenJob;
};

}  // namespace weft
