#pragma once
// Shows a commit journal: every attempt with its outcome, and the details of the selected one.

#include "Commit.h"
#include "CommitJournal.h"

#include <QDialog>

#include <functional>
#include <optional>

class QDialogButtonBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableView;

namespace weft {

class CommitJournalModel;

class CommitJournalDialog : public QDialog
{
    Q_OBJECT

public:
    explicit CommitJournalDialog(QWidget *parent = nullptr);

    // Reads the journal at `path`; on error shows nothing new and returns the error text.
    bool load(const QString &path, QString *error);
    CommitJournalModel *model() const { return m_model; }

private:
    void showDetails();

    CommitJournalModel *m_model;
    QLabel *m_path;
    QTableView *m_table;
    QPlainTextEdit *m_details;
};

// The commit on `target` that a Weft did not live to finish (its journal, beside OpenSM's -U file,
// has intent without outcome), if any. A journal that cannot be read counts as none.
std::optional<CommitJournalEntry> unfinishedCommitOn(const CommitTarget &target);

// "commit of <plan> started <time> by <user>, <files written or not>": what the operator is told.
QString unfinishedCommitText(const CommitJournalEntry &entry);

// Offers to bring an unfinished commit to a verified state (recoverCommit: its plan verified on
// the fabric, else its backups restored and verified) or to leave it for now. The recovery runs
// off the GUI thread, its steps shown as they come; the journal records its outcome.
class CommitRecoveryDialog : public QDialog
{
    Q_OBJECT

public:
    using BackendFactory = std::function<CommitBackend()>;
    // `backend` is called on the worker thread: the session's fabric access (the adapter chosen).
    CommitRecoveryDialog(const CommitTarget &target, const CommitJournalEntry &entry, BackendFactory backend,
                         QWidget *parent = nullptr);
    // The recovery given whole (the session's, FabricSession::recovery: one OpenSM's or a subnet's),
    // called on the worker thread; `files` says what it restores, in the operator's words.
    using Recovery = std::function<CommitReport(CommitOptions)>;
    CommitRecoveryDialog(const QString &files, const CommitJournalEntry &entry, Recovery recovery, QWidget *parent = nullptr);

    QPushButton *recoverButton() const { return m_recover; }
    QPushButton *rollbackButton() const { return m_rollback; }
    QString progressText() const;
    bool running() const { return m_running; }

public Q_SLOTS:
    void recover();   // verify the interrupted plan; roll back if the fabric does not hold it
    void rollBack();  // restore the backups and verify them


Q_SIGNALS:
    void recovered(const weft::CommitReport &report);

private:
    void run(bool byRollback);

    Recovery m_recovery;
    bool m_running = false;
    QPlainTextEdit *m_progress;
    QPushButton *m_recover;
    QPushButton *m_rollback;
    QDialogButtonBox *m_buttons;
};

}  // namespace weft
