#pragma once
// Shows a commit journal: every attempt with its outcome, and the details of the selected one.

#include <QDialog>

class QLabel;
class QPlainTextEdit;
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

}  // namespace weft
