#pragma once
// Tenants and their hosts, the source of drags onto partitions: tenants at the top, hosts below,
// and last the hosts that belong to no tenant. Dragging a tenant carries its name as well as
// its ports, so the drop is recorded as "assign tenant"; dragging hosts carries their ports.
//
// Slurm's jobs on a connected service's fabric (setJobs) come after the tenants, each a tenant
// of the hosts its partition holds, marked as a job and read-only: its partition follows the job
// (the service gives it at the job's start and takes it at its end), so neither the job nor its
// hosts are dragged from here.

#include "FabricDocument.h"
#include "JobTenants.h"

#include <QAbstractItemModel>

#include <optional>
#include <vector>

namespace weft {

class TenantListModel : public QAbstractItemModel
{
    Q_OBJECT

public:
    enum Column { NameColumn, DetailColumn, ColumnCount };
    enum Roles {
        GuidRole = Qt::UserRole,  // a host's port GUID (qulonglong)
        TenantRole,               // a tenant's name, on tenant rows
        JobRole,                  // a Slurm job's ID, on its row and its hosts' rows
    };

    explicit TenantListModel(FabricDocument *document, QObject *parent = nullptr);

    // Index of the tenant row named `tenant`, or of the row of hosts without a tenant for an
    // empty name.
    QModelIndex indexOfTenant(const QString &tenant) const;
    std::vector<Guid> portsAt(const QModelIndex &index) const;  // a group's hosts, or one host

    void setJobs(std::vector<JobTenant> jobs);
    const std::vector<JobTenant> &jobs() const { return m_jobs; }
    QModelIndex indexOfJob(const QString &job) const;
    const JobTenant *jobAt(const QModelIndex &index) const;  // a job's row or one of its hosts'

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const final;
    QModelIndex parent(const QModelIndex &child) const final;
    int rowCount(const QModelIndex &parent = {}) const final;
    int columnCount(const QModelIndex &parent = {}) const final;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const final;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const final;
    Qt::ItemFlags flags(const QModelIndex &index) const final;

    QStringList mimeTypes() const final;
    QMimeData *mimeData(const QModelIndexList &indexes) const final;
    Qt::DropActions supportedDragActions() const final;

private:
    struct Group
    {
        QString tenant;  // empty for the hosts without a tenant
        std::vector<Guid> hosts;
        int job = -1;  // into m_jobs, for a job's group
    };
    void rebuild();
    const Group *groupAt(const QModelIndex &index) const;

    FabricDocument *m_document;
    std::vector<Group> m_groups;
    std::vector<JobTenant> m_jobs;
};

}  // namespace weft
