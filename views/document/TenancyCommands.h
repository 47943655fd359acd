#pragma once
// One undo command per kind of tenancy edit. Each captures the value it replaces when it is
// made and swaps it back on undo, so redo and undo are the same operation; each announces the
// one kind of change it makes (changes(), the same for redo and undo) through
// FabricDocument::changed and never touches a view.

#include "FabricDocument.h"

#include <QUndoCommand>

#include <map>
#include <optional>

namespace weft {

// Ids for QUndoCommand::mergeWith, in one place so that no two kinds share one.
enum TenancyCommandId {
    Cmd_SetNodeWeight = 1,
};

class TenancyCommand : public QUndoCommand
{
public:
    // What redo and undo change, as announced to the document's listeners.
    DocumentChanges changes() const { return m_changes; }

protected:
    TenancyCommand(FabricDocument *document, DocumentChange changes) : m_document(document), m_changes(changes) {}
    Tenancy &tenancy() const { return m_document->m_tenancy; }
    Partition *partition(std::uint16_t pkey) const;
    void announce() const { m_document->announce(m_changes); }
    FabricDocument *document() const { return m_document; }

private:
    FabricDocument *m_document;
    DocumentChanges m_changes;
};

// The member list of one partition, before and after. Base of the three membership edits, which
// differ only in how the new list is made and in their text.
class ChangeMembersCommand : public TenancyCommand
{
public:
    void undo() override { swap(); }
    void redo() override { swap(); }
    bool changesSomething() const { return m_members != currentMembers(); }

protected:
    ChangeMembersCommand(FabricDocument *document, std::uint16_t pkey, std::vector<PartitionMember> members);
    static std::vector<PartitionMember> withPorts(std::vector<PartitionMember> members, const std::vector<Guid> &ports,
                                                  Membership membership);

private:
    std::vector<PartitionMember> currentMembers() const;
    void swap();
    std::uint16_t m_pkey;
    std::vector<PartitionMember> m_members;  // the list to put in place on the next swap
};

class AssignPortsCommand : public ChangeMembersCommand
{
public:
    AssignPortsCommand(FabricDocument *document, const Partition &partition, const std::vector<Guid> &ports,
                       Membership membership);
};

class RemovePortsCommand : public ChangeMembersCommand
{
public:
    RemovePortsCommand(FabricDocument *document, const Partition &partition, const std::vector<Guid> &ports);
};

class AssignTenantCommand : public ChangeMembersCommand
{
public:
    AssignTenantCommand(FabricDocument *document, const Partition &partition, const Tenant &tenant,
                        Membership membership);
};

class CreatePartitionCommand : public TenancyCommand
{
public:
    CreatePartitionCommand(FabricDocument *document, Partition partition);
    void undo() override;
    void redo() override;

private:
    Partition m_partition;
};

class DeletePartitionCommand : public TenancyCommand
{
public:
    DeletePartitionCommand(FabricDocument *document, std::uint16_t pkey);
    void undo() override;
    void redo() override;

private:
    std::size_t m_position = 0;  // where it stood, so that undo puts it back in its place
    Partition m_partition;
};

class RenamePartitionCommand : public TenancyCommand
{
public:
    RenamePartitionCommand(FabricDocument *document, std::uint16_t pkey, const QString &oldName, const QString &newName);
    void undo() override { swap(); }
    void redo() override { swap(); }

private:
    void swap();
    std::uint16_t m_pkey;
    QString m_name;
};

class SetPolicyCommand : public TenancyCommand
{
public:
    SetPolicyCommand(FabricDocument *document, const Partition &partition, IsolationPolicy policy);
    void undo() override { swap(); }
    void redo() override { swap(); }

private:
    void swap();
    std::uint16_t m_pkey;
    IsolationPolicy m_policy;
};

class SetPolicyModeCommand : public TenancyCommand
{
public:
    SetPolicyModeCommand(FabricDocument *document, PolicyMode mode);
    void undo() override { swap(); }
    void redo() override { swap(); }

private:
    void swap();
    PolicyMode m_mode;
};

// nullopt stands for "no entry" (weight 1).
class SetNodeWeightCommand : public TenancyCommand
{
public:
    SetNodeWeightCommand(FabricDocument *document, Guid port, std::optional<double> weight);
    void undo() override;
    void redo() override;
    int id() const override { return Cmd_SetNodeWeight; }
    bool mergeWith(const QUndoCommand *other) override;

private:
    void apply(std::optional<double> weight);
    void updateText();
    Guid m_port;
    std::optional<double> m_before;
    std::optional<double> m_after;
};

// A whole weights file as one step: the map before and after.
class ImportWeightsCommand : public TenancyCommand
{
public:
    ImportWeightsCommand(FabricDocument *document, std::map<Guid, double> after, int imported, const QString &fileName);
    void undo() override { swap(); }
    void redo() override { swap(); }

private:
    void swap();
    std::map<Guid, double> m_weights;
};

// The what-if events, before and after (FabricDocument::setWhatIf). Not a tenancy edit: it changes
// the session's events, which announces WhatIf, and leaves the document's revision alone (the
// plan made for the events, or for none, is judged stale by the session's own comparison).
class SetWhatIfCommand : public QUndoCommand
{
public:
    SetWhatIfCommand(FabricSession *session, WhatIf events, const QString &text);
    void undo() override { swap(); }
    void redo() override { swap(); }

private:
    void swap();
    FabricSession *m_session;
    WhatIf m_events;  // the events to put in place on the next swap
};

}  // namespace weft
