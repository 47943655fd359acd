#include "TenantListModel.h"

#include "HostPorts.h"
#include "PortsMime.h"

#include <QFont>
#include <QLocale>
#include <QMimeData>

#include <set>

namespace weft {

namespace {
constexpr quintptr kGroupRowId = 0;  // host rows carry their group's row + 1

// A job's row: its ID and user, its hosts and P_Key, and what it means that it is a job.
QVariant jobData(const JobTenant &job, int hosts, int column, int role)
{
    const QString user = job.user.isEmpty() ? QString() : TenantListModel::tr(" (%1)").arg(job.user);
    if (role == Qt::DisplayRole) {
        if (column == TenantListModel::NameColumn)
            return TenantListModel::tr("Slurm job %1%2").arg(job.id, user);
        return TenantListModel::tr("%n host(s), %1", nullptr, hosts).arg(pkeyText(job.pkey));
    }
    if (role == Qt::ToolTipRole) {
        QStringList lines;
        lines << TenantListModel::tr("Slurm job %1%2: partition %3, P_Key %4").arg(job.id, user, job.partition, pkeyText(job.pkey));
        if (!job.hosts.isEmpty())
            lines << TenantListModel::tr("Hosts: %1").arg(job.hosts.join(QStringLiteral(", ")));
        if (!job.policy.isEmpty())
            lines << TenantListModel::tr("Isolation: %1").arg(job.policy);
        if (job.started.isValid())
            lines << TenantListModel::tr("Started: %1").arg(QLocale().toString(job.started.toLocalTime(), QLocale::ShortFormat));
        lines << TenantListModel::tr("Its partition follows the job: the fabric service gives it at the job's start and removes it at "
                                     "the job's end. Hosts are not dragged in or out of it here. Select it to see its hosts and the "
                                     "load of its links on the map.");
        return lines.join(QLatin1Char('\n'));
    }
    if (role == Qt::FontRole) {
        QFont font;
        font.setItalic(true);
        return font;
    }
    return {};
}
}

TenantListModel::TenantListModel(FabricDocument *document, QObject *parent)
    : QAbstractItemModel(parent), m_document(document)
{
    // Edits of partitions leave tenants alone; only an opened project replaces them, so the
    // tree (and what the operator expanded in it) is rebuilt only when they really differ.
    connect(document, &FabricDocument::changed, this, [this](DocumentChanges what) {
        if (what & DocumentChange::Fabric) {
            rebuild();
            return;
        }
        if (!(what & DocumentChange::Partitions))
            return;
        const auto &tenants = m_document->tenancy().tenants;
        const std::size_t fixed = tenants.size() + m_jobs.size();
        bool same = fixed + 1 >= m_groups.size() && fixed <= m_groups.size();
        for (std::size_t i = 0; same && i < tenants.size(); ++i)
            same = tenants[i].name == m_groups[i].tenant && tenants[i].members == m_groups[i].hosts;
        if (!same)
            rebuild();
    });
    rebuild();
}

void TenantListModel::rebuild()
{
    beginResetModel();
    m_groups.clear();
    std::set<Guid> inTenant;
    for (const Tenant &t : m_document->tenancy().tenants) {
        m_groups.push_back({t.name, t.members});
        inTenant.insert(t.members.begin(), t.members.end());
    }
    const auto fabric = m_document->fabric();
    for (std::size_t j = 0; j < m_jobs.size(); ++j) {
        Group job;
        job.job = int(j);
        // The ports of the fabric shown: a job's host the picture lacks is not listed.
        for (Guid g : m_jobs[j].ports)
            if (fabric && fabric->portByGuid(g) != kNoIndex)
                job.hosts.push_back(g);
        inTenant.insert(job.hosts.begin(), job.hosts.end());
        m_groups.push_back(std::move(job));
    }
    if (fabric) {
        Group loose;
        for (Guid g : hostPortGuids(*fabric))
            if (!inTenant.count(g))
                loose.hosts.push_back(g);
        if (!loose.hosts.empty())
            m_groups.push_back(std::move(loose));
    }
    endResetModel();
}

const TenantListModel::Group *TenantListModel::groupAt(const QModelIndex &index) const
{
    if (!index.isValid() || index.model() != this)
        return nullptr;
    const std::size_t row = index.internalId() == kGroupRowId ? std::size_t(index.row())
                                                              : std::size_t(index.internalId() - 1);
    return row < m_groups.size() ? &m_groups[row] : nullptr;
}

void TenantListModel::setJobs(std::vector<JobTenant> jobs)
{
    if (jobs == m_jobs)
        return;
    m_jobs = std::move(jobs);
    rebuild();
}

QModelIndex TenantListModel::indexOfJob(const QString &job) const
{
    for (std::size_t i = 0; i < m_groups.size(); ++i)
        if (m_groups[i].job >= 0 && m_jobs[std::size_t(m_groups[i].job)].id == job)
            return index(int(i), 0);
    return {};
}

const JobTenant *TenantListModel::jobAt(const QModelIndex &index) const
{
    const Group *g = groupAt(index);
    return g && g->job >= 0 ? &m_jobs[std::size_t(g->job)] : nullptr;
}

QModelIndex TenantListModel::indexOfTenant(const QString &tenant) const
{
    for (std::size_t i = 0; i < m_groups.size(); ++i)
        if (m_groups[i].job < 0 && m_groups[i].tenant == tenant)
            return index(int(i), 0);
    return {};
}

std::vector<Guid> TenantListModel::portsAt(const QModelIndex &index) const
{
    const Group *g = groupAt(index);
    if (!g)
        return {};
    if (index.internalId() == kGroupRowId)
        return g->hosts;
    if (std::size_t(index.row()) < g->hosts.size())
        return {g->hosts[std::size_t(index.row())]};
    return {};
}

QModelIndex TenantListModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, kGroupRowId);
    return createIndex(row, column, quintptr(parent.row()) + 1);
}

QModelIndex TenantListModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == kGroupRowId)
        return {};
    return createIndex(int(child.internalId() - 1), 0, kGroupRowId);
}

int TenantListModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return int(m_groups.size());
    if (parent.column() != 0 || parent.internalId() != kGroupRowId)
        return 0;
    const Group *g = groupAt(parent);
    return g ? int(g->hosts.size()) : 0;
}

int TenantListModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant TenantListModel::data(const QModelIndex &index, int role) const
{
    const Group *g = groupAt(index);
    if (!g)
        return {};
    if (g->job >= 0 && role == JobRole)
        return m_jobs[std::size_t(g->job)].id;
    if (g->job >= 0 && index.internalId() == kGroupRowId)
        return jobData(m_jobs[std::size_t(g->job)], int(g->hosts.size()), index.column(), role);
    if (g->job >= 0 && role == Qt::ToolTipRole && index.column() == NameColumn)
        return tr("%1, a host of Slurm job %2: the job's partition follows the job")
            .arg(hostPortLabel(m_document->fabric().get(), g->hosts[std::size_t(index.row())]), m_jobs[std::size_t(g->job)].id);
    if (index.internalId() == kGroupRowId) {
        if (role == TenantRole)
            return g->tenant.isEmpty() ? QVariant() : QVariant(g->tenant);
        if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
            if (index.column() == NameColumn)
                return g->tenant.isEmpty() ? tr("Hosts without a tenant") : g->tenant;
            return tr("%n host(s)", nullptr, int(g->hosts.size()));
        }
        return {};
    }
    if (std::size_t(index.row()) >= g->hosts.size())
        return {};
    const Guid guid = g->hosts[std::size_t(index.row())];
    if (role == GuidRole)
        return qulonglong(guid);
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole)
        return index.column() == NameColumn ? hostPortLabel(m_document->fabric().get(), guid) : guidText(guid);
    return {};
}

QVariant TenantListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == NameColumn ? tr("Tenant / host") : section == DetailColumn ? tr("Hosts / GUID") : QVariant();
}

Qt::ItemFlags TenantListModel::flags(const QModelIndex &index) const
{
    const Group *g = groupAt(index);
    if (!g)
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    // A job's hosts are its partition's by the job, never by a drag.
    if (g->job < 0 && !portsAt(index).empty())
        f |= Qt::ItemIsDragEnabled;
    if (index.internalId() != kGroupRowId)
        f |= Qt::ItemNeverHasChildren;
    return f;
}

QStringList TenantListModel::mimeTypes() const
{
    return {portsMimeType(), tenantMimeType()};
}

QMimeData *TenantListModel::mimeData(const QModelIndexList &indexes) const
{
    std::vector<Guid> ports;
    std::set<Guid> seen;
    std::set<QString> tenants;
    bool looseHosts = false;
    for (const QModelIndex &i : indexes) {
        if (i.column() != NameColumn || jobAt(i))
            continue;
        if (i.internalId() == kGroupRowId && !groupAt(i)->tenant.isEmpty())
            tenants.insert(groupAt(i)->tenant);
        else
            looseHosts = true;
        for (Guid g : portsAt(i))
            if (seen.insert(g).second)
                ports.push_back(g);
    }
    if (ports.empty())
        return nullptr;
    // Only a drag of exactly one whole tenant is an "assign tenant"; any mix is loose hosts.
    const QString tenant = tenants.size() == 1 && !looseHosts ? *tenants.begin() : QString();
    return makePortsMimeData(ports, tenant);
}

Qt::DropActions TenantListModel::supportedDragActions() const
{
    return Qt::CopyAction;
}

}  // namespace weft
