#include "CommitEdits.h"

#include "Commit.h"
#include "CommitStaging.h"
#include "FileDigest.h"
#include "SafeFile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>

namespace weft {

bool isOperatorFile(const CommitTarget &target, const QString &path)
{
    if (path == target.partitionsPath || (target.pluginMode() && path == target.intentPath))
        return true;
    return std::any_of(target.standbys.begin(), target.standbys.end(), [&](const CommitTarget::Standby &s) {
        return path == s.partitionsPath || (!s.intentPath.isEmpty() && path == s.intentPath);
    });
}

QStringList editsSinceWeftWrote(const std::vector<CommitJournalEntry> &journal, const CommitTarget &target,
                                const CommitStaging &staging, const QString &journalPath)
{
    const CommitJournalEntry *last = nullptr;
    for (const CommitJournalEntry &e : journal)
        if (!e.isAdapt() && (sameFile(e.lftsPath, target.routingFile()) || (!target.subnet.isEmpty() && e.subnet == target.subnet)) && !e.files.isEmpty()
            && e.writtenDigests.size() == e.files.size() && e.replacedDigests.size() == e.files.size()
            && (e.outcome == QLatin1String("committed") || e.outcome == QLatin1String("rolled-back")))
            last = &e;
    if (!last)
        return {};
    const bool committed = last->outcome == QLatin1String("committed");
    const std::vector<CommitFile> &files = staging.files();
    QStringList edits;
    for (qsizetype i = 0; i < last->files.size(); ++i) {
        const QString &path = last->files[i];
        if (!isOperatorFile(target, path))
            continue;
        const QString left = committed ? last->writtenDigests[i] : last->replacedDigests[i];
        // What it holds now was hashed with the commit's other files (CommitStaging::digestReplaced).
        const auto held = std::find_if(files.begin(), files.end(), [&](const CommitFile &f) { return f.path == path; });
        if (held == files.end() || staging.replacedDigests().value(held - files.begin()) == left)
            continue;
        edits << QStringLiteral("%1 changed since Weft last wrote it (commit %2 of %3 by %4)")
                     .arg(path, last->id, last->time.toString(Qt::ISODate), last->user);
        const QString copy = journalCopyPath(journalPath, left);
        QFile leftFile(copy);
        QFile nowFile(path);
        if (!left.isEmpty() && leftFile.open(QIODevice::ReadOnly) && nowFile.open(QIODevice::ReadOnly)) {
            edits << QStringLiteral("--- %1 (as Weft left it)").arg(path) << QStringLiteral("+++ %1 (now)").arg(path);
            edits << changedLines(leftFile.readAll(), nowFile.readAll());
        }
    }
    return edits;
}

QStringList keepJournalCopies(const CommitStaging &staging, const CommitTarget &target, const QString &journalPath,
                              const QByteArray &intentFile, const QByteArray &partitionsConf)
{
    QStringList failures;
    const std::vector<CommitFile> &files = staging.files();
    for (std::size_t i = 0; i < files.size(); ++i) {
        const CommitFile &f = files[i];
        if (!isOperatorFile(target, f.path))
            continue;
        const bool intent = f.role == CommitFile::Role::Routing;
        const QByteArray written = intent ? intentFile : partitionsConf;
        // (The intent's snapshot keeps no content: what it replaced is its backup now.)
        QByteArray replaced = f.content;
        if (intent && f.existed) {
            QFile backup(backupPath(f.path));
            if (backup.open(QIODevice::ReadOnly))
                replaced = backup.readAll();
        }
        const std::pair<QString, QByteArray> copies[] = {{staging.writtenDigests().value(qsizetype(i)), written},
                                                         {staging.replacedDigests().value(qsizetype(i)), replaced}};
        for (const auto &[digest, content] : copies) {
            if (digest.isEmpty() || QFileInfo::exists(journalCopyPath(journalPath, digest)))
                continue;
            QDir().mkpath(QFileInfo(journalCopyPath(journalPath, digest)).absolutePath());
            if (const Status kept = writeFileAtomically(journalCopyPath(journalPath, digest), content, false); !kept)
                failures << kept.error().toString();
        }
    }
    return failures;
}

InterruptedFilesCheck changedSinceInterrupted(const CommitJournalEntry &e)
{
    InterruptedFilesCheck check;
    const qsizetype n = e.files.size();
    if (e.replacedDigests.size() != n || e.writtenDigests.size() != n) {
        check.digestsKnown = false;
        return check;
    }
    const bool written = e.outcome == QLatin1String(kJournalWritten);
    auto shortDigest = [](const QString &d) { return d.isEmpty() ? QStringLiteral("no file") : d.left(16); };
    for (qsizetype i = 0; i < n; ++i) {
        if (!e.backups[i].isEmpty()) {
            Result<QString> backup = fileSha256(e.backups[i]);
            if (!backup) {
                check.changed << backup.error().toString();
            } else if (*backup != e.replacedDigests[i]) {
                check.changed << QStringLiteral("%1: the backup is not what the commit kept (SHA-256 %2..., the journal says %3...)")
                                     .arg(e.backups[i], shortDigest(*backup), shortDigest(e.replacedDigests[i]));
            }
        }
        Result<QString> now = fileSha256(e.files[i]);
        if (!now) {
            check.changed << now.error().toString();
            continue;
        }
        const QString &wrote = e.writtenDigests[i];
        const bool asWritten = !wrote.isEmpty() && *now == wrote;
        const bool asBefore = *now == e.replacedDigests[i];
        // Not finished writing: a file is the old one, or the new one whole (SafeFile renames
        // only complete files); a new LFT dump's digest is known only once it was written.
        const bool ok = written ? asWritten : (asWritten || asBefore || wrote.isEmpty());
        if (!ok)
            check.changed << QStringLiteral("%1: changed since the interrupted commit (SHA-256 %2... on disk; the commit %3 %4...)")
                                 .arg(e.files[i], shortDigest(*now), written ? QStringLiteral("wrote") : QStringLiteral("replaced"),
                                      shortDigest(written ? wrote : e.replacedDigests[i]));
    }
    return check;
}

}  // namespace weft
