#pragma once
// The commit journal (core/CommitJournal) as a table: one row per attempt, newest first. The
// autopilot's records (kind "adapt") are rows too: their event in the outcome column, their
// rule and summary in the plan column.

#include "CommitJournal.h"

#include <QAbstractTableModel>

#include <vector>

namespace weft {

// An autopilot record's plan column ("Autopilot, rule R: summary") and its details (the
// record's `adapt` object as indented JSON: inputs, candidate figures, decision, outcome).
QString adaptPlanText(const CommitJournalEntry &entry);
QString adaptDetailsText(const CommitJournalEntry &entry);

class CommitJournalModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { TimeColumn, UserColumn, OutcomeColumn, SmpsColumn, PlanColumn, ColumnCount };

    explicit CommitJournalModel(QObject *parent = nullptr);

    // Replaces the rows with `entries` (oldest first, as readJournal returns them).
    void setEntries(std::vector<CommitJournalEntry> entries);
    const CommitJournalEntry &entry(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<CommitJournalEntry> m_entries;  // newest first
};

}  // namespace weft
