#pragma once
// The "Virtual Machines" dock of a vSwitch fabric (spec 001 §7.2, §7.5): hypervisors with their
// VFs and VMs, the LID scheme and the LID-space figures, boot and shutdown of a VM, and a VM's
// migration planned by ItRC, FTreeMinRC and a full vswitch-ftree re-route side by side (switches
// touched, entries, SMPs, the safe update order, the routing drift afterwards).
//
// Everything happens on a what-if copy (VmWhatIf.h) made from the document's fabric and current
// tables: Apply, Boot and Shut down move that copy on, so a second migration starts from the
// first one's result, and the document is never changed. The map's VM badges (VmBadges.h) show
// the copy; a VM dropped onto another hypervisor there plans its migration here.

#include "DocumentChanges.h"
#include "VmWhatIf.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QPushButton;
class QTableWidget;
class QTreeWidget;

namespace weft {

class FabricDocument;
class FabricScene;
class VmBadgeLayer;

class VmPanel : public QWidget
{
    Q_OBJECT

public:
    explicit VmPanel(FabricDocument *document, QWidget *parent = nullptr);
    ~VmPanel() override;

    // The map whose hypervisors get VM badges (and whose drops plan migrations).
    void setScene(FabricScene *scene);
    VmBadgeLayer *badges() const { return m_badges; }

    // The what-if state; null when the document's fabric is not virtualised.
    const VmFabricState *state() const { return m_state ? &*m_state : nullptr; }
    bool isModified() const { return m_modified; }  // the copy differs from the document
    // Starts again from the document's fabric and current tables.
    void resetToDocument();

    // The scheme migrations are planned under; the fabric's own (VirtualisedFabric::scheme)
    // after each reset.
    void setScheme(LidScheme scheme);
    LidScheme scheme() const { return m_scheme; }

    // Plans the migration of VF `vf` of `hypervisor` to `destination` with every method, the
    // current scheme and the safe order (what a drop on the map does). False, with the reason
    // in the panel, when nothing could be planned (no tables, no such VM).
    bool planMigration(int hypervisor, int vf, int destination);
    const std::vector<MigrationCandidate> &candidates() const { return m_candidates; }
    // Moves the what-if state on to the candidate of `method`; the plans are then spent.
    bool applyCandidate(ReconfigurationMethod method);

    // Boots / shuts down a VM on the what-if state; the figures stay in lastLifecycle().
    Status bootVm(int hypervisor, int vf);
    Status shutdownVm(int hypervisor, int vf);
    const std::optional<VmLifecycle> &lastLifecycle() const { return m_lifecycle; }

    QTreeWidget *hypervisorTree() const { return m_tree; }
    QTableWidget *migrationTable() const { return m_table; }
    QTreeWidget *lidSpaceTree() const { return m_lidSpace; }

Q_SIGNALS:
    // The what-if state changed (a new document fabric, Apply, Boot, Shut down, Reset).
    void stateChanged();
    // Migrations were planned (or cleared).
    void candidatesChanged();

private:
    void documentChanged(DocumentChanges what);
    void setState(std::optional<VmFabricState> state, bool modified);
    void fillTree();
    void fillLidSpace();
    void fillDestinations();
    void fillCandidates();
    void showBadges();
    void selectionChanged();
    bool selectedVf(int *hypervisor, int *vf) const;
    void planFromPanel();
    void applyFromPanel();
    void lifecycleFromPanel(bool boot);
    Status takeLifecycle(Result<VmLifecycle> lifecycle, bool boot);

    FabricDocument *m_document = nullptr;
    FabricScene *m_scene = nullptr;
    VmBadgeLayer *m_badges = nullptr;
    std::optional<VmFabricState> m_state;
    // What m_state started from: a new document fabric or new current tables start it again; the
    // same tables re-announced (their metrics came in) do not.
    std::shared_ptr<const Fabric> m_baseFabric;
    std::shared_ptr<const ForwardingTables> m_baseTables;
    bool m_modified = false;
    LidScheme m_scheme = LidScheme::Prepopulated;
    std::vector<MigrationCandidate> m_candidates;
    std::optional<VmLifecycle> m_lifecycle;

    QLabel *m_status = nullptr;
    QTreeWidget *m_tree = nullptr;
    QComboBox *m_schemeCombo = nullptr;
    QTreeWidget *m_lidSpace = nullptr;
    QPushButton *m_boot = nullptr;
    QPushButton *m_shutdown = nullptr;
    QLabel *m_lifecycleLabel = nullptr;
    QComboBox *m_destination = nullptr;
    QPushButton *m_plan = nullptr;
    QTableWidget *m_table = nullptr;
    QComboBox *m_applyMethod = nullptr;
    QPushButton *m_apply = nullptr;
    QPushButton *m_reset = nullptr;
};

}  // namespace weft
