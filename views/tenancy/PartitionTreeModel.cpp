#include "PartitionTreeModel.h"

#include "HostPorts.h"
#include "PortsMime.h"

#include <QCoreApplication>
#include <QMimeData>

#include <set>

namespace weft {

namespace {
// internalId of a member row: its partition's row + 1; partition rows carry 0.
constexpr quintptr kPartitionRowId = 0;
}  // namespace

QString membershipText(Membership membership)
{
    switch (membership) {
    case Membership::Full: return QCoreApplication::translate("weft::PartitionTreeModel", "full");
    case Membership::Limited: return QCoreApplication::translate("weft::PartitionTreeModel", "limited");
    case Membership::Both: return QCoreApplication::translate("weft::PartitionTreeModel", "both");
    }
    return {};
}

PartitionTreeModel::PartitionTreeModel(FabricDocument *document, QObject *parent)
    : QAbstractItemModel(parent), m_document(document)
{
    // Partitions come and go and member lists change wholesale on undo; a reset keeps this
    // model simple, and the panel restores which partitions were expanded.
    auto resetAll = [this] {
        beginResetModel();
        endResetModel();
    };
    connect(document, &FabricDocument::changed, this, [resetAll](DocumentChanges what) {
        if (what & (DocumentChange::Fabric | DocumentChange::Partitions))
            resetAll();
    });
}

const Partition *PartitionTreeModel::partitionAt(const QModelIndex &index) const
{
    if (!index.isValid() || index.model() != this)
        return nullptr;
    const auto &partitions = m_document->tenancy().partitions;
    const std::size_t row = index.internalId() == kPartitionRowId ? std::size_t(index.row())
                                                                  : std::size_t(index.internalId() - 1);
    return row < partitions.size() ? &partitions[row] : nullptr;
}

bool PartitionTreeModel::isPartitionRow(const QModelIndex &index) const
{
    return partitionAt(index) && index.internalId() == kPartitionRowId;
}

std::optional<std::uint16_t> PartitionTreeModel::pkeyAt(const QModelIndex &index) const
{
    const Partition *p = partitionAt(index);
    if (!p || !p->pkey)
        return std::nullopt;
    return std::uint16_t(*p->pkey & kPKeyMask);
}

std::optional<Guid> PartitionTreeModel::memberGuidAt(const QModelIndex &index) const
{
    const Partition *p = partitionAt(index);
    if (!p || index.internalId() == kPartitionRowId || std::size_t(index.row()) >= p->members.size())
        return std::nullopt;
    const PartitionMember &m = p->members[std::size_t(index.row())];
    if (m.kind != PartitionMember::Kind::PortGuid)
        return std::nullopt;
    return m.guid;
}

QModelIndex PartitionTreeModel::indexOfPartition(std::uint16_t pkey, int column) const
{
    const auto &partitions = m_document->tenancy().partitions;
    for (std::size_t i = 0; i < partitions.size(); ++i)
        if (partitions[i].pkey && (*partitions[i].pkey & kPKeyMask) == (pkey & kPKeyMask))
            return index(int(i), column);
    return {};
}

QModelIndex PartitionTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, kPartitionRowId);
    return createIndex(row, column, quintptr(parent.row()) + 1);
}

QModelIndex PartitionTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == kPartitionRowId)
        return {};
    return createIndex(int(child.internalId() - 1), 0, kPartitionRowId);
}

int PartitionTreeModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return int(m_document->tenancy().partitions.size());
    if (parent.column() != 0 || parent.internalId() != kPartitionRowId)
        return 0;
    const Partition *p = partitionAt(parent);
    return p ? int(p->members.size()) : 0;
}

int PartitionTreeModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QString PartitionTreeModel::memberText(const PartitionMember &member) const
{
    switch (member.kind) {
    case PartitionMember::Kind::PortGuid: return hostPortLabel(m_document->fabric().get(), member.guid);
    case PartitionMember::Kind::All: return tr("All ports (ALL)");
    case PartitionMember::Kind::AllCas: return tr("All hosts (ALL_CAS)");
    case PartitionMember::Kind::AllSwitches: return tr("All switches (ALL_SWITCHES)");
    case PartitionMember::Kind::AllRouters: return tr("All routers (ALL_ROUTERS)");
    case PartitionMember::Kind::Self: return tr("The subnet manager's port (SELF)");
    }
    return {};
}

QVariant PartitionTreeModel::data(const QModelIndex &index, int role) const
{
    const Partition *p = partitionAt(index);
    if (!p)
        return {};
    if (role == PKeyRole)
        return p->pkey ? QVariant(int(*p->pkey & kPKeyMask)) : QVariant();

    if (index.internalId() == kPartitionRowId) {
        if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
            switch (index.column()) {
            case NameColumn: return p->name;
            case KeyColumn: return p->pkey ? pkeyText(*p->pkey & kPKeyMask) : tr("automatic");
            case MembershipColumn: return tr("%n member(s)", nullptr, int(p->members.size()));
            }
        }
        return {};
    }

    if (std::size_t(index.row()) >= p->members.size())
        return {};
    const PartitionMember &m = p->members[std::size_t(index.row())];
    if (role == GuidRole)
        return m.kind == PartitionMember::Kind::PortGuid ? QVariant(qulonglong(m.guid)) : QVariant();
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
        switch (index.column()) {
        case NameColumn: return memberText(m);
        case KeyColumn: return m.kind == PartitionMember::Kind::PortGuid ? guidText(m.guid) : QString();
        case MembershipColumn:
            return m.explicitMembership ? membershipText(m.membership)
                                        : tr("%1 (partition default)").arg(membershipText(m.membership));
        }
    }
    return {};
}

QVariant PartitionTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Partition / member");
    case KeyColumn: return tr("P_Key / GUID");
    case MembershipColumn: return tr("Membership");
    }
    return {};
}

Qt::ItemFlags PartitionTreeModel::flags(const QModelIndex &index) const
{
    if (!partitionAt(index))
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (pkeyAt(index))
        f |= Qt::ItemIsDropEnabled;
    if (memberGuidAt(index))
        f |= Qt::ItemIsDragEnabled;
    if (index.internalId() != kPartitionRowId)
        f |= Qt::ItemNeverHasChildren;
    return f;
}

QStringList PartitionTreeModel::mimeTypes() const
{
    return {portsMimeType()};
}

namespace {

// The partition members were dragged from, when all come from one: a drop on another partition
// moves them (as a file manager moves files between folders; Ctrl copies, that is adds).
QString sourcePartitionMimeType() { return QStringLiteral("application/x-weft-source-partition"); }

}  // namespace

QMimeData *PartitionTreeModel::mimeData(const QModelIndexList &indexes) const
{
    std::vector<Guid> ports;
    std::set<Guid> seen;
    std::set<std::uint16_t> from;
    for (const QModelIndex &i : indexes)
        if (const auto g = memberGuidAt(i); g && seen.insert(*g).second) {
            ports.push_back(*g);
            if (const auto pkey = pkeyAt(i))
                from.insert(*pkey);
        }
    if (ports.empty())
        return nullptr;
    QMimeData *data = makePortsMimeData(ports);
    if (from.size() == 1)
        data->setData(sourcePartitionMimeType(), QByteArray::number(*from.begin()));
    return data;
}

Qt::DropActions PartitionTreeModel::supportedDropActions() const
{
    return Qt::CopyAction | Qt::MoveAction;
}

Qt::DropActions PartitionTreeModel::supportedDragActions() const
{
    // A member dragged to another partition moves there (Ctrl: is added there too), one undo step.
    return Qt::CopyAction | Qt::MoveAction;
}

bool PartitionTreeModel::canDropMimeData(const QMimeData *data, Qt::DropAction action, int, int,
                                         const QModelIndex &parent) const
{
    if (!data || !data->hasFormat(portsMimeType()) || !(action & (Qt::CopyAction | Qt::MoveAction)))
        return false;
    return pkeyAt(parent).has_value();
}

bool PartitionTreeModel::dropMimeData(const QMimeData *data, Qt::DropAction action, int row, int column,
                                      const QModelIndex &parent)
{
    if (!canDropMimeData(data, action, row, column, parent))
        return false;
    const std::uint16_t pkey = *pkeyAt(parent);
    const QString tenant = tenantFromMimeData(data);
    const auto &tenants = m_document->tenancy().tenants;
    const bool knownTenant = !tenant.isEmpty() && std::any_of(tenants.begin(), tenants.end(), [&](const Tenant &t) {
        return t.name == tenant;
    });
    if (knownTenant) {
        m_document->assignTenant(tenant, pkey, m_dropMembership);
        return true;
    }
    const std::vector<Guid> ports = portsFromMimeData(data);
    if (ports.empty())
        return false;
    bool fromOne = false;
    const uint fromPKey = data->data(sourcePartitionMimeType()).toUInt(&fromOne);
    if (action == Qt::MoveAction && fromOne && fromPKey != pkey) {
        m_document->movePorts(ports, std::uint16_t(fromPKey), pkey, m_dropMembership);
        return true;
    }
    m_document->assignPorts(ports, pkey, m_dropMembership);
    return true;
}

}  // namespace weft
