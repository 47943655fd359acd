#pragma once
// Diff review: what moving the fabric from its current tables and partitions to the proposed
// ones changes (per switch the LFT entries and 64-entry blocks OpenSM would send, the P_Key
// blocks, the SMP count, the partitions.conf diff), and the Approve button. Approving commits
// through core/Commit (validation, atomic writes, SIGHUP, read-back, rollback) when a commit
// target is configured; otherwise it writes the plan files (LFT dump and partitions.conf) for
// the operator to install.

#include "Commit.h"
#include "CommitJournal.h"
#include "DocumentChanges.h"
#include "Fabric.h"
#include "ForwardingTables.h"
#include "ReconfigurationPlan.h"
#include "Tenancy.h"

#include <QWidget>

#include <memory>

class QCheckBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;

namespace weft {

class FabricDocument;

// Where the commit goes: QSettings "commit/..." or, under `weft lab`, the lab's OpenSM files
// (WEFT_LAB_DIR, WEFT_LAB_OPENSM_LOG). Empty lftsPath: none configured.
CommitTarget configuredCommitTarget();
void saveCommitTarget(const CommitTarget &target);

class DiffReview : public QWidget
{
    Q_OBJECT

public:
    enum Column { SwitchColumn, LidColumn, EntriesColumn, BlocksColumn, SmpsColumn, ColumnCount };
    // The policy table: each proposed partition's policy, whether the proposal meets it, and the
    // SL and VL its traffic will use once committed.
    enum PolicyColumn { PartitionColumn,
                        PolicyColumn,
                        MetColumn,
                        SlColumn,
                        VlColumn,
                        PolicyColumnCount };

    explicit DiffReview(QWidget *parent = nullptr);

    // Shows the plan of the document's RoutingSession from now on, following it as it changes.
    void setDocument(FabricDocument *document);
    // The plan to review, made here (planProposal) for a review without a document. `current`
    // may be null (no known tables: every switch starts empty). Without a proposal the review
    // is cleared.
    void setPlan(std::shared_ptr<const Fabric> fabric, std::shared_ptr<const ForwardingTables> current,
                 std::shared_ptr<const ForwardingTables> proposed, const std::vector<Partition> &currentPartitions,
                 const std::vector<Partition> &proposedPartitions);
    void clear();

    bool hasPlan() const { return m_plan != nullptr; }
    const ReconfigurationDiff &diff() const;
    // One row per touched switch; the switch column's Qt::UserRole holds the switch GUID.
    QTableWidget *switchTable() const { return m_switches; }
    QTableWidget *policyTable() const { return m_policies; }
    // Isolation violations of the proposal; in best-effort mode Approve needs them accepted.
    QStringList violations() const { return m_violations; }
    QString summaryText() const;
    QString partitionsDiffText() const;
    QByteArray plannedPartitionsConf() const;

    // Writes the LFT dump and partitions.conf into `directory` atomically (keeping backups).
    bool writePlanFiles(const QString &directory, QString *error);
    bool isCommitting() const { return m_committing; }

public Q_SLOTS:
    // Commits to the configured target, or asks where to write the plan files.
    void approve();
    // The autopilot's commit (auto mode): the plan committed to the configured target by the
    // same path as Approve, without a question. Refuses, saying why in the report and *refusal,
    // without a plan, while a commit runs, for a stale plan, without a configured target, with an
    // unfinished commit on it, or with isolation violations (only an operator accepts those).
    bool commitUnattended(QString *refusal = nullptr);
    void editCommitTarget();

Q_SIGNALS:
    void planWritten(const QString &directory);
    void commitFinished(const weft::CommitReport &report);
    // Approve found an unfinished commit on the target and refused (the report says so).
    void unfinishedCommitFound(const weft::CommitTarget &target, const weft::CommitJournalEntry &entry);

private:
    void showDocumentPlan();
    void showPlan(std::shared_ptr<const Fabric> fabric, std::shared_ptr<const ForwardingTables> current,
                  std::shared_ptr<const ForwardingTables> proposed, std::shared_ptr<const ReconfigurationPlan> plan);
    void showReport(const QString &text);
    void startCommit(const CommitTarget &target, bool acceptViolations);
    void updateTargetLabel();
    void showPolicies();
    void findSmPort();
    void updateApprove();

    FabricDocument *m_document = nullptr;
    // What the plan was made of, shared with whoever made it (the session, or setPlan).
    std::shared_ptr<const Fabric> m_fabric;
    std::shared_ptr<const ForwardingTables> m_current;
    std::shared_ptr<const ForwardingTables> m_proposed;
    std::shared_ptr<const ReconfigurationPlan> m_plan;
    bool m_committing = false;

    QLabel *m_summary = nullptr;
    QLabel *m_target = nullptr;
    QTableWidget *m_switches = nullptr;
    QPlainTextEdit *m_partitionsDiff = nullptr;
    QPlainTextEdit *m_report = nullptr;
    QPushButton *m_approve = nullptr;
    QTableWidget *m_policies = nullptr;
    QCheckBox *m_acceptViolations = nullptr;
    QStringList m_violations;
    std::map<std::uint16_t, int> m_serviceLevels;  // the proposal's, P_Key -> SL (SL 0 left out)
    PolicyMode m_mode = PolicyMode::BestEffort;
    QString m_smPort;  // the master SM's port as found on the fabric, or why not
};

}  // namespace weft
