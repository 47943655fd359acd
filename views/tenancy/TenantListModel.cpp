#include "TenantListModel.h"

#include "HostPorts.h"
#include "PortsMime.h"

#include <QMimeData>

#include <set>

namespace weft {

namespace {
constexpr quintptr kGroupRowId = 0;  // host rows carry their group's row + 1
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
        bool same = tenants.size() + 1 >= m_groups.size() && tenants.size() <= m_groups.size();
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
    if (const auto fabric = m_document->fabric()) {
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

QModelIndex TenantListModel::indexOfTenant(const QString &tenant) const
{
    for (std::size_t i = 0; i < m_groups.size(); ++i)
        if (m_groups[i].tenant == tenant)
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
    if (!portsAt(index).empty())
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
        if (i.column() != NameColumn)
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
