#pragma once
// Diff review: the session's plan as Approve would install it. Per switch the LFT entries and
// 64-entry blocks OpenSM would send, the P_Key blocks, the SMP count, the partitions.conf diff,
// each partition's policy with the SL and VL its traffic will use, and the Approve button.
//
// Nothing here makes a plan: the session builds it (FabricSession::plan, the one commit-plan
// builder in core/commit) from what the fabric holds, and counts it as the commit will. When the
// plan is stale (an edit, undo or redo, a commit, a rediscovery, a what-if changed since it was
// made) the review shows it re-planned with the reason, and Approve refuses. Approving commits
// through the session (validation, atomic writes, SIGHUP, read-back, rollback) when a commit
// target is configured; otherwise it writes the plan files (LFT dump and partitions.conf) for the
// operator to install.

#include "Commit.h"
#include "CommitJournal.h"
#include "DocumentChanges.h"
#include "ReconfigurationPlan.h"
#include "Tenancy.h"

#include <QWidget>

#include <memory>

class QCheckBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;
class QTableWidget;

namespace weft {

class FabricDocument;
class FabricSession;
struct SessionPlan;

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

    // Shows the plan of the document's session from now on, following it as it changes.
    void setDocument(FabricDocument *document);
    void clear();

    bool hasPlan() const { return m_plan != nullptr; }
    const ReconfigurationDiff &diff() const;
    // One row per touched switch; the switch column's Qt::UserRole holds the switch GUID.
    QTableWidget *switchTable() const { return m_switches; }
    QTableWidget *policyTable() const { return m_policies; }
    // Isolation violations of the proposal; in best-effort mode Approve needs them accepted.
    QStringList violations() const { return m_violations; }
    // "3 switches change: 12 LFT entries in 5 blocks, 2 P_Key blocks; OpenSM sends 8 SMPs." and
    // what the figures rest on; then why the plan is stale, if it is.
    QString summaryText() const;
    QString partitionsDiffText() const;
    QByteArray plannedPartitionsConf() const;
    // Why Approve would refuse now (empty: it would ask and commit).
    QString approveRefusal() const;
    bool isApproveEnabled() const;

    // Writes the LFT dump and partitions.conf into `directory` atomically (keeping backups).
    bool writePlanFiles(const QString &directory, QString *error);
    bool isCommitting() const;

public Q_SLOTS:
    // Commits to the configured target, or asks where to write the plan files.
    void approve();
    void editCommitTarget();

Q_SIGNALS:
    void planWritten(const QString &directory);
    void commitFinished(const weft::CommitReport &report);
    // Approve found an unfinished commit on the target and refused (the report says so).
    void unfinishedCommitFound(const weft::CommitTarget &target, const weft::CommitJournalEntry &entry);

private:
    FabricSession *session() const;
    void showPlan();
    void showReport(const QString &text);
    void updateTargetLabel();
    void showPolicies();
    void updateApprove();

    FabricDocument *m_document = nullptr;
    std::shared_ptr<const SessionPlan> m_plan;  // the session's, as shown

    QLabel *m_summary = nullptr;
    QLabel *m_stale = nullptr;
    QLabel *m_target = nullptr;
    QTableWidget *m_switches = nullptr;
    QPlainTextEdit *m_partitionsDiff = nullptr;
    QPlainTextEdit *m_report = nullptr;
    QTabWidget *m_rightTabs = nullptr;
    QPushButton *m_approve = nullptr;
    QTableWidget *m_policies = nullptr;
    QCheckBox *m_acceptViolations = nullptr;
    QStringList m_violations;
    PolicyMode m_mode = PolicyMode::BestEffort;
};

}  // namespace weft
