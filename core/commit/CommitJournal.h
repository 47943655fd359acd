#pragma once
// The record of every commit Weft attempted on a fabric: when, by whom, what the plan was, what
// it cost on the wire and how it ended. One JSON object per line, only ever appended to, so
// that a crash mid-write loses at most the line being written and every earlier entry stays
// readable by `jq`, `grep` and the GUI alike.

#include "Result.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace weft {

// A commit that writes OpenSM's files journals three times under one id: its intent before
// writing ("in-progress": the plan, the files and their backups), "written" once every file is
// in place, and its outcome. Each line is on disk (fsync) before the commit goes on, so a Weft
// killed in between leaves an entry without an outcome: an unfinished commit.
inline constexpr const char *kJournalInProgress = "in-progress";
inline constexpr const char *kJournalWritten = "written";

struct CommitJournalEntry
{
    QString id;            // one commit's entries share it (readJournal merges them); may be empty
    QDateTime time;        // UTC
    QString user;
    QString planSummary;   // one line: plan files, switches, partitions
    long long smps = 0;    // predicted by the diff
    QString outcome;       // commitOutcomeName(): "committed", "refused", "stale", ...
    QStringList details;   // reasons, mismatches, what the rollback found
    QString lftsPath;      // the OpenSM files the commit targeted
    QString partitionsPath;
    // The files the commit writes (OpenSM's -U, -P and, with service levels, -F) and, for each,
    // the backup holding what it replaced ("" where there was no file: rollback removes it).
    QStringList files;
    QStringList backups;
    // SHA-256 (FileDigest.h) of each file as it was before the commit (its backup's content; ""
    // where there was none) and as the commit writes it ("" where not known yet: the LFT dump's
    // is known once written). `weft commit --recover` holds the disk to them.
    QStringList replacedDigests;
    QStringList writtenDigests;
    // "commit" (the default, written without the field), "admin": an act of `weft serve`'s
    // admin (rules, mode, credentials, recovery; outcome names it, details hold the old and the
    // new value, user the credential), or "adapt": a record of the
    // self-adaptive loop (core/adapt/AdaptLoop.h), its details in `adapt`; outcome holds its event
    // ("fired", "suppressed", "committed", ...). Adapt entries never count as unfinished commits.
    // A commit to a subnet target (SubnetTarget.h): the subnet's name, and each SM's part:
    // {"name", "role": "master" or "standby", "files": [...], "outcome": ...}. Unfinished
    // commits of a subnet are found by its name, whichever SM is master by then.
    QString subnet;
    QJsonArray sms;
    QString kind = QStringLiteral("commit");
    QJsonObject adapt;

    bool isAdapt() const { return kind == QLatin1String("adapt"); }

    bool unfinished() const;  // intent (or files written) without an outcome
    QJsonObject toJson() const;
    static CommitJournalEntry fromJson(const QJsonObject &object);
};

// "weft-commits.jsonl" beside the given OpenSM file.
QString defaultJournalPath(const QString &besideFile);

// Appends one line and puts it on disk (fsync) before returning; creates the file (not its
// directory) if needed.
Status appendJournalEntry(const QString &path, const CommitJournalEntry &entry);

// All entries, oldest first, one per commit: the lines of one id merged into the latest (in the
// place of the first). A missing file is an empty journal; a line that is not a JSON object is
// an error naming that line.
Result<std::vector<CommitJournalEntry>> readJournal(const QString &path);

// The last unfinished commit on the target whose -U file (or intent) is `lftsPath`, if any; with
// `subnet`, also one to that subnet's target, or one that wrote any of `files` (an SM of the
// subnet committed to on its own).
std::optional<CommitJournalEntry> unfinishedCommit(const std::vector<CommitJournalEntry> &entries, const QString &lftsPath,
                                                   const QString &subnet = {}, const QStringList &files = {});

// The user running Weft: $USER, $LOGNAME, else the account database; "unknown" if none says.
QString currentUserName();

}  // namespace weft
