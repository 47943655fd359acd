#pragma once
// Every file Weft writes goes through here: written whole to a temporary file beside it (each
// step's error checked, the data synced to disk) and only then renamed over the target, the
// directory synced after, so a crash or a full disk never leaves half a file, and whatever it
// replaces is kept beside it as a backup.

#include "Result.h"

#include <QByteArray>
#include <QString>

#include <functional>

class QIODevice;

namespace weft {

// The backup of `path`: "<path>.bak"; older generations "<path>.bak.1", "<path>.bak.2", ...
QString backupPath(const QString &path, int generation = 0);

// How many backup generations a write keeps (1: the .bak alone; default 3). Each write that
// keeps a backup first renames the generations one up (.bak to .bak.1, ...), the oldest
// dropped: renames only, nothing copied.
void setBackupGenerations(int generations);
int backupGenerations();

// `path` as the file it is, not as it is spelled: symbolic links (to the file, or to a directory
// on its way) resolved, absolute. For a file that does not exist yet, its directory resolved.
// What locks and journals key on, so that two spellings of one file find the same.
QString realFilePath(const QString &path);

// Whether two paths name one file: the same directory (device and inode, whatever symbolic links
// or bind mounts lead to it) and the same name in it. Files are replaced by rename, which gives
// them a new inode, so the directory's identity and the name are what stays.
bool sameFile(const QString &a, const QString &b);

// Writes `data` to `path` atomically. If `path` exists its previous content is first saved
// as backupPath(path) (replacing an older backup; a symbolic link planted there is replaced, not
// followed), and the new file gets the replaced one's mode and, where permitted, its owner and
// group. On failure nothing at `path` changes (nor its backup), and the error names the file and
// the cause ("No space left on device").
Status writeFileAtomically(const QString &path, const QByteArray &data, bool keepBackup = true);

// The same, for content written piece by piece (in bounded memory): `write` gets the temporary
// file and returns false on failure, leaving `path` unchanged.
Status writeFileAtomically(const QString &path, const std::function<bool(QIODevice &)> &write, bool keepBackup = true);

// The first half of writeFileAtomically, for writes that must all succeed or none happen (one
// plan to several subnet managers' files): the content written whole to a temporary file beside
// `path`, flushed and synced, nothing at `path` touched. install() then keeps the backup and
// renames it into place; a StagedFile dropped without install() removes its temporary file.
class StagedFile
{
public:
    StagedFile(StagedFile &&other) noexcept;
    StagedFile &operator=(StagedFile &&other) noexcept;
    StagedFile(const StagedFile &) = delete;
    StagedFile &operator=(const StagedFile &) = delete;
    ~StagedFile();

    const QString &path() const { return m_path; }
    // Backup (as writeFileAtomically keeps it), rename, directory synced. Once only.
    Status install(bool keepBackup = true);

private:
    friend Result<StagedFile> stageFile(const QString &path, const std::function<bool(QIODevice &)> &write);
    StagedFile() = default;
    QString m_path;    // as given
    QString m_target;  // the file it names (through a symbolic link)
    QByteArray m_temporary;
    bool m_ownerKnown = false;
    unsigned m_uid = 0, m_gid = 0, m_mode = 0;  // of the file it replaces
};

// Errors as writeFileAtomically's. Only regular files (or none yet) are staged: a device or FIFO
// cannot be replaced in one step, and is refused.
Result<StagedFile> stageFile(const QString &path, const std::function<bool(QIODevice &)> &write);
Result<StagedFile> stageFile(const QString &path, const QByteArray &data);

// Puts the backup of `path` (backupPath) back in its place, atomically, and keeps the backup:
// the undo of a writeFileAtomically that kept one. A second name for the backup is renamed over
// `path`, so nothing is read or copied whatever the size; where that cannot be done the backup is
// copied a piece at a time. Fails when there is no backup.
Status restoreBackup(const QString &path);

}  // namespace weft
