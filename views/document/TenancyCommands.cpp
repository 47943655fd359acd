#include "TenancyCommands.h"

#include "FabricSession.h"

#include <QCoreApplication>

#include <algorithm>
#include <set>

namespace weft {

namespace {

QString partitionLabel(const Partition &partition)
{
    return partition.name.isEmpty() && partition.pkey ? pkeyText(*partition.pkey) : partition.name;
}

QString weightText(std::optional<double> weight)
{
    return QString::number(weight.value_or(1.0), 'g', 6);
}

}  // namespace

Partition *TenancyCommand::partition(std::uint16_t pkey) const
{
    for (Partition &p : tenancy().partitions)
        if (p.pkey && (*p.pkey & kPKeyMask) == (pkey & kPKeyMask))
            return &p;
    return nullptr;
}

ChangeMembersCommand::ChangeMembersCommand(FabricDocument *document, std::uint16_t pkey,
                                           std::vector<PartitionMember> members)
    : TenancyCommand(document, DocumentChange::Partitions), m_pkey(pkey), m_members(std::move(members))
{
}

std::vector<PartitionMember> ChangeMembersCommand::withPorts(std::vector<PartitionMember> members,
                                                             const std::vector<Guid> &ports, Membership membership)
{
    for (Guid g : ports) {
        auto it = std::find_if(members.begin(), members.end(), [g](const PartitionMember &m) {
            return m.kind == PartitionMember::Kind::PortGuid && m.guid == g;
        });
        PartitionMember member;
        member.kind = PartitionMember::Kind::PortGuid;
        member.guid = g;
        member.membership = membership;
        member.explicitMembership = true;  // written as GUID=full, whatever defmember says
        if (it != members.end())
            *it = member;
        else
            members.push_back(member);
    }
    return members;
}

std::vector<PartitionMember> ChangeMembersCommand::currentMembers() const
{
    const Partition *p = partition(m_pkey);
    return p ? p->members : std::vector<PartitionMember>{};
}

void ChangeMembersCommand::swap()
{
    Partition *p = partition(m_pkey);
    if (!p)
        return;
    std::swap(p->members, m_members);
    announce();
}

AssignPortsCommand::AssignPortsCommand(FabricDocument *document, const Partition &partition,
                                       const std::vector<Guid> &ports, Membership membership)
    : ChangeMembersCommand(document, *partition.pkey, withPorts(partition.members, ports, membership))
{
    setText(QCoreApplication::translate("UndoCommands", "Assign %n host(s) to %1", nullptr, int(ports.size()))
                .arg(partitionLabel(partition)));
}

namespace {
std::vector<PartitionMember> withoutPorts(std::vector<PartitionMember> members, const std::vector<Guid> &ports)
{
    const std::set<Guid> removed(ports.begin(), ports.end());
    members.erase(std::remove_if(members.begin(), members.end(),
                                 [&](const PartitionMember &m) {
                                     return m.kind == PartitionMember::Kind::PortGuid && removed.count(m.guid);
                                 }),
                  members.end());
    return members;
}
}  // namespace

RemovePortsCommand::RemovePortsCommand(FabricDocument *document, const Partition &partition,
                                       const std::vector<Guid> &ports)
    : ChangeMembersCommand(document, *partition.pkey, withoutPorts(partition.members, ports))
{
    setText(QCoreApplication::translate("UndoCommands", "Remove %n host(s) from %1", nullptr, int(ports.size()))
                .arg(partitionLabel(partition)));
}

AssignTenantCommand::AssignTenantCommand(FabricDocument *document, const Partition &partition, const Tenant &tenant,
                                         Membership membership)
    : ChangeMembersCommand(document, *partition.pkey, withPorts(partition.members, tenant.members, membership))
{
    setText(QCoreApplication::translate("UndoCommands", "Assign tenant %1 (%n host(s)) to %2", nullptr,
                                        int(tenant.members.size()))
                .arg(tenant.name, partitionLabel(partition)));
}

CreatePartitionCommand::CreatePartitionCommand(FabricDocument *document, Partition partition)
    : TenancyCommand(document, DocumentChange::Partitions), m_partition(std::move(partition))
{
    setText(QCoreApplication::translate("UndoCommands", "Create partition %1 (%2)")
                .arg(m_partition.name, pkeyText(*m_partition.pkey)));
}

void CreatePartitionCommand::redo()
{
    tenancy().partitions.push_back(m_partition);
    announce();
}

void CreatePartitionCommand::undo()
{
    auto &partitions = tenancy().partitions;
    auto it = std::find_if(partitions.begin(), partitions.end(),
                           [&](const Partition &p) { return p.pkey == m_partition.pkey; });
    if (it != partitions.end())
        partitions.erase(it);
    announce();
}

DeletePartitionCommand::DeletePartitionCommand(FabricDocument *document, std::uint16_t pkey)
    : TenancyCommand(document, DocumentChange::Partitions)
{
    const auto &partitions = tenancy().partitions;
    for (std::size_t i = 0; i < partitions.size(); ++i)
        if (partitions[i].pkey && (*partitions[i].pkey & kPKeyMask) == (pkey & kPKeyMask)) {
            m_position = i;
            m_partition = partitions[i];
        }
    setText(QCoreApplication::translate("UndoCommands", "Delete partition %1").arg(partitionLabel(m_partition)));
}

void DeletePartitionCommand::redo()
{
    auto &partitions = tenancy().partitions;
    if (m_position < partitions.size())
        partitions.erase(partitions.begin() + std::ptrdiff_t(m_position));
    announce();
}

void DeletePartitionCommand::undo()
{
    auto &partitions = tenancy().partitions;
    partitions.insert(partitions.begin() + std::ptrdiff_t(std::min(m_position, partitions.size())), m_partition);
    announce();
}

RenamePartitionCommand::RenamePartitionCommand(FabricDocument *document, std::uint16_t pkey, const QString &oldName,
                                               const QString &newName)
    : TenancyCommand(document, DocumentChange::Partitions), m_pkey(pkey), m_name(newName)
{
    setText(QCoreApplication::translate("UndoCommands", "Rename partition %1 to %2").arg(oldName, newName));
}

void RenamePartitionCommand::swap()
{
    if (Partition *p = partition(m_pkey)) {
        std::swap(p->name, m_name);
        announce();
    }
}

namespace {
QString policyLabel(IsolationPolicy policy)
{
    switch (policy) {
    case IsolationPolicy::Physical: return QCoreApplication::translate("UndoCommands", "physical isolation");
    case IsolationPolicy::VirtualLane: return QCoreApplication::translate("UndoCommands", "virtual-lane isolation");
    case IsolationPolicy::Default: return QCoreApplication::translate("UndoCommands", "no isolation");
    }
    return {};
}
}  // namespace

SetPolicyCommand::SetPolicyCommand(FabricDocument *document, const Partition &partition, IsolationPolicy policy)
    : TenancyCommand(document, DocumentChange::Policies), m_pkey(*partition.pkey), m_policy(policy)
{
    setText(QCoreApplication::translate("UndoCommands", "Set %1 to %2").arg(partitionLabel(partition), policyLabel(policy)));
}

void SetPolicyCommand::swap()
{
    if (Partition *p = partition(m_pkey)) {
        std::swap(p->policy, m_policy);
        announce();
    }
}

SetPolicyModeCommand::SetPolicyModeCommand(FabricDocument *document, PolicyMode mode)
    : TenancyCommand(document, DocumentChange::Policies), m_mode(mode)
{
    setText(mode == PolicyMode::Strict
                ? QCoreApplication::translate("UndoCommands", "Make isolation policies strict")
                : QCoreApplication::translate("UndoCommands", "Make isolation policies best-effort"));
}

void SetPolicyModeCommand::swap()
{
    std::swap(tenancy().mode, m_mode);
    announce();
}

SetNodeWeightCommand::SetNodeWeightCommand(FabricDocument *document, Guid port, std::optional<double> weight)
    : TenancyCommand(document, DocumentChange::Weights), m_port(port), m_after(weight)
{
    const auto it = tenancy().nodeWeights.find(port);
    if (it != tenancy().nodeWeights.end())
        m_before = it->second;
    updateText();
}

void SetNodeWeightCommand::updateText()
{
    setText(QCoreApplication::translate("UndoCommands", "Set weight of %1 to %2")
                .arg(guidText(m_port), weightText(m_after)));
}

void SetNodeWeightCommand::apply(std::optional<double> weight)
{
    if (weight)
        tenancy().nodeWeights[m_port] = *weight;
    else
        tenancy().nodeWeights.erase(m_port);
    announce();
}

void SetNodeWeightCommand::redo()
{
    apply(m_after);
}

void SetNodeWeightCommand::undo()
{
    apply(m_before);
}

bool SetNodeWeightCommand::mergeWith(const QUndoCommand *other)
{
    const auto *next = static_cast<const SetNodeWeightCommand *>(other);  // same id, same class
    if (next->m_port != m_port)
        return false;
    m_after = next->m_after;
    updateText();
    // Typing a weight and then its old value back leaves nothing to undo.
    setObsolete(m_after == m_before);
    return true;
}

ImportWeightsCommand::ImportWeightsCommand(FabricDocument *document, std::map<Guid, double> after, int imported,
                                           const QString &fileName)
    : TenancyCommand(document, DocumentChange::Weights), m_weights(std::move(after))
{
    setText(QCoreApplication::translate("UndoCommands", "Import %n weight(s) from %1", nullptr, imported).arg(fileName));
}

void ImportWeightsCommand::swap()
{
    std::swap(tenancy().nodeWeights, m_weights);
    announce();
}

SetWhatIfCommand::SetWhatIfCommand(FabricSession *session, WhatIf events, const QString &text)
    : m_session(session), m_events(std::move(events))
{
    setText(text);
}

void SetWhatIfCommand::swap()
{
    WhatIf previous = m_session->whatIf();
    m_session->setWhatIf(m_events);
    m_events = std::move(previous);
}

}  // namespace weft
