#pragma once
// The operator's document: one fabric snapshot and the tenancy being edited on it. Every edit is
// one QUndoCommand (TenancyCommands.h) that changes this document's Tenancy and announces what
// it changed through changed(); the scene, the item models and the charts only listen, each to
// the kinds of change it shows. Nothing here knows about widgets, so every edit, undo and redo
// runs headless in tests.

#include "DocumentChanges.h"
#include "Fabric.h"
#include "FabricChanges.h"
#include "ProjectFile.h"
#include "Result.h"
#include "Tenancy.h"
#include "WhatIf.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <vector>

class QUndoStack;

namespace weft {

class FabricSession;

class FabricDocument : public QObject
{
    Q_OBJECT

public:
    explicit FabricDocument(QObject *parent = nullptr);
    ~FabricDocument() override;

    // Replaces fabric, tenancy and title at once and clears the undo stack. Announces Fabric
    // with every tenancy kind: listeners re-read everything.
    void reset(std::shared_ptr<const Fabric> fabric, Tenancy tenancy, const QString &title);

    std::shared_ptr<const Fabric> fabric() const;
    const Tenancy &tenancy() const;
    QString title() const;
    QUndoStack *undoStack();
    // What the fabric holds, the connection, the proposal and its plan, telemetry and the
    // autopilot: see FabricSession.h. The document tells it every change with the revision
    // below, and relays its announcements on changed(); a first discovery's fabric and the
    // partitions its ports hold become this document's (reset).
    FabricSession *session() const { return m_session; }
    // Counts every reset, edit, undo and redo: what a plan was made under.
    quint64 revision() const { return m_revision; }

    // The routing engine chosen for this fabric (the preview's), kept in the project.
    QString routingEngine() const { return m_projectExtras.routingEngine; }
    void setRoutingEngine(const QString &engine);

    // Each edit below pushes one command, or nothing when it would change nothing (unknown
    // P_Key, no port that is not already as asked), so that the undo history holds no no-ops.

    // Makes `ports` members of partition `pkey` with `membership`, updating existing members.
    void assignPorts(const std::vector<Guid> &ports, std::uint16_t pkey, Membership membership);
    void removePorts(const std::vector<Guid> &ports, std::uint16_t pkey);
    // `ports` taken out of partition `from` and made members of `to` with `membership`, one undo
    // step (a drag from one partition to another: a move, as a file manager's).
    void movePorts(const std::vector<Guid> &ports, std::uint16_t from, std::uint16_t to, Membership membership);
    // Every host of the tenant, recorded as one "assign tenant" edit.
    void assignTenant(const QString &tenant, std::uint16_t pkey, Membership membership);
    // Errors name what is wrong with the name or P_Key (empty, reserved, already used).
    Status createPartition(const QString &name, std::uint16_t pkey);
    Status renamePartition(std::uint16_t pkey, const QString &name);
    void deletePartition(std::uint16_t pkey);
    void setPolicy(std::uint16_t pkey, IsolationPolicy policy);
    void setPolicyMode(PolicyMode mode);
    // A weight of 1 removes the entry (absent means 1). Consecutive edits of one port merge into
    // one undo step. Weights that are not positive finite numbers are ignored.
    void setNodeWeight(Guid port, double weight);
    // Reads a node weights file (readNodeWeights) and applies all of it as one undo step; the
    // weights of ports the file does not list are kept. Errors carry file and line.
    Status importWeights(const QString &path);
    // The what-if events (a cable or switch failed, a host removed: not applied to the fabric,
    // which the preview and the studio plan with): one undo step per change, so Edit ▸ Undo takes
    // back the last event before any edit made earlier. `text` names the step ("Fail link …").
    // The session holds them and announces WhatIf; a new fabric drops them. Nothing is pushed
    // when they would not change.
    void setWhatIf(const WhatIf &events, const QString &text);

    // The project as it would be saved: the opened project's engine and options, the tenancy
    // as edited.
    Project project() const;
    // Writes the project file atomically, keeping the previous one as .bak; marks the undo stack
    // clean on success.
    Status saveProject(const QString &path) const;
    // Reads a project and binds it to the current fabric: members, tenant hosts and weights whose
    // GUIDs the fabric lacks are dropped and listed in `missingGuids`. Replaces the tenancy and
    // clears the undo stack, as opening a file does.
    Status openProject(const QString &path, QStringList *missingGuids);

Q_SIGNALS:
    // After every reset, edit, undo and redo: what changed.
    void changed(weft::DocumentChanges what);
    // The same news, coarser: fabricReset() for a reset, tenancyChanged() for any other change
    // of the tenancy.
    void fabricReset();
    void tenancyChanged();
    // A project chose a routing engine (openProject).
    void routingEngineChosen(const QString &engine);

private:
    friend class TenancyCommand;  // the only writer of m_tenancy besides reset/openProject
    // Lets the session follow first, then tells every listener at once what changed.
    void announce(DocumentChanges what);
    Error error(const QString &message) const;
    Status checkPartitionName(const QString &name, std::uint16_t exceptPKey) const;

    std::shared_ptr<const Fabric> m_fabric;
    Tenancy m_tenancy;
    QString m_title;
    Project m_projectExtras;  // routing engine and options of the opened project, kept on save
    QUndoStack *m_undoStack;
    FabricSession *m_session;
    quint64 m_revision = 0;
};

// A P_Key as the operator types it: hex with 0x ("0x8012") or decimal ("18"). The full 16-bit
// form is accepted and its membership bit dropped; the message says what is wrong otherwise
// (not a number, wider than 16 bits, 0x0000 which names no partition).
Result<std::uint16_t> parsePKeyText(const QString &text);

}  // namespace weft
