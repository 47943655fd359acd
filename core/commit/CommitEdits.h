#pragma once
// Changes by someone else to the files a commit replaces, told by the journal's SHA-256 of what
// Weft wrote and kept: a partitions.conf (or intent) edited by hand since the last commit, which a
// new commit would silently undo, and an interrupted commit's files or backups changed before
// its recovery. Copies of the small files, kept by digest beside the journal, let the first be
// shown as a diff.

#include "CommitJournal.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <vector>

namespace weft {

struct CommitTarget;
class CommitStaging;

// A partitions.conf or intent of any SM of the target: the files operators edit by hand.
bool isOperatorFile(const CommitTarget &target, const QString &path);

// The operator's files among those staged that are not what the journal's last commit on this
// target left there (what it wrote, or what it put back on a rollback): one line each, with the
// change as a diff where a copy of what Weft left is kept. Empty: none changed.
QStringList editsSinceWeftWrote(const std::vector<CommitJournalEntry> &journal, const CommitTarget &target,
                                const CommitStaging &staging, const QString &journalPath);

// Copies of the small files written and replaced (not LFT dumps), by digest, beside the
// journal: what editsSinceWeftWrote shows an operator's change against. Returns what could not
// be kept.
QStringList keepJournalCopies(const CommitStaging &staging, const CommitTarget &target, const QString &journalPath,
                              const QByteArray &intentFile, const QByteArray &partitionsConf);

struct InterruptedFilesCheck
{
    bool digestsKnown = true;  // false: an older Weft's journal, the files taken as they are
    QStringList changed;       // each file or backup not as the interrupted commit left it
};
// Each backup holds what the interrupted commit kept, and each file what it wrote (or, if it had
// not finished writing, what it replaced).
InterruptedFilesCheck changedSinceInterrupted(const CommitJournalEntry &interrupted);

}  // namespace weft
