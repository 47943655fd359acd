#pragma once
// The record of every commit Weft attempted on a fabric: when, by whom, what the plan was, what
// it cost on the wire and how it ended. One JSON object per line, only ever appended to, so
// that a crash mid-write loses at most the line being written and every earlier entry stays
// readable by `jq`, `grep` and the GUI alike.

#include "Result.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <vector>

namespace weft {

struct CommitJournalEntry
{
    QDateTime time;        // UTC
    QString user;
    QString planSummary;   // one line: plan files, switches, partitions
    long long smps = 0;    // predicted by the diff
    QString outcome;       // commitOutcomeName(): "committed", "refused", "stale", ...
    QStringList details;   // reasons, mismatches, what the rollback found
    QString lftsPath;      // the OpenSM files the commit targeted
    QString partitionsPath;

    QJsonObject toJson() const;
    static CommitJournalEntry fromJson(const QJsonObject &object);
};

// "weft-commits.jsonl" beside the given OpenSM file.
QString defaultJournalPath(const QString &besideFile);

// Appends one line; creates the file (not its directory) if needed.
Status appendJournalEntry(const QString &path, const CommitJournalEntry &entry);

// All entries, oldest first. A missing file is an empty journal; a line that is not a JSON
// object is an error naming that line.
Result<std::vector<CommitJournalEntry>> readJournal(const QString &path);

// The user running Weft: $USER, $LOGNAME, else the account database; "unknown" if none says.
QString currentUserName();

}  // namespace weft
