#include "SafeFile.h"

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#if defined(Q_OS_UNIX)
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace weft {

QString backupPath(const QString &path)
{
    return path + QStringLiteral(".bak");
}

namespace {

// The backup as a second name for the file about to be replaced: the new content goes to a new
// file renamed over `path`, so the old one lives on, unchanged, as the backup. Costs nothing
// whatever the size (a copy of a 6 GB LFT dump would take longer than writing the new one).
// False where it cannot be done (a symbolic link, a file system without hard links): then copy.
bool linkBackup(const QString &path)
{
#if defined(Q_OS_UNIX)
    const QFileInfo info(path);
    if (info.isSymLink() || !info.isFile())
        return false;
    const QString backup = backupPath(path);
    if (QFileInfo::exists(backup) || QFileInfo(backup).isSymLink()) {
        if (!QFile::remove(backup))
            return false;
    }
    return ::link(QFile::encodeName(path).constData(), QFile::encodeName(backup).constData()) == 0;
#else
    Q_UNUSED(path);
    return false;
#endif
}

// The owner, group and mode of the file being replaced, given to its replacement (`fd`), so that
// OpenSM's files stay as their administrator made them (e.g. 0600 root:root). The owner is kept
// only where the system lets this user give a file away (root, or a group the user is in);
// otherwise the new file is the user's, with the old mode.
struct FileOwnership
{
#if defined(Q_OS_UNIX)
    struct stat status = {};
#endif
    bool known = false;

    static FileOwnership of(const QString &path)
    {
        FileOwnership o;
#if defined(Q_OS_UNIX)
        o.known = ::stat(QFile::encodeName(path).constData(), &o.status) == 0 && S_ISREG(o.status.st_mode);
#else
        Q_UNUSED(path);
#endif
        return o;
    }

    void giveTo(int fd) const
    {
#if defined(Q_OS_UNIX)
        if (!known || fd < 0)
            return;
        // Owner first: a change of owner clears set-id bits, which the mode then restores.
        if (::fchown(fd, status.st_uid, status.st_gid) != 0)
            (void)::fchown(fd, uid_t(-1), status.st_gid);
        (void)::fchmod(fd, status.st_mode & 07777);
#else
        Q_UNUSED(fd);
#endif
    }
};

}  // namespace

Status writeFileAtomically(const QString &path, const QByteArray &data, bool keepBackup)
{
    return writeFileAtomically(path, [&data](QIODevice &file) { return file.write(data) == data.size(); }, keepBackup);
}

Status writeFileAtomically(const QString &path, const std::function<bool(QIODevice &)> &write, bool keepBackup)
{
    // A device, a pipe or a socket (/dev/null, /dev/stdout, a FIFO) is written into, never
    // replaced: renaming a file over it would put a plain file where the device was.
    struct stat existing
    {
    };
    if (::stat(QFile::encodeName(path).constData(), &existing) == 0 && !S_ISREG(existing.st_mode)) {
        if (S_ISDIR(existing.st_mode))
            return Error{path, 0, QStringLiteral("cannot write: it is a directory")};
        QFile device(path);
        if (!device.open(QIODevice::WriteOnly | QIODevice::Unbuffered))
            return Error{path, 0, QStringLiteral("cannot write: %1").arg(device.errorString())};
        if (!write(device) || !device.flush())
            return Error{path, 0, QStringLiteral("cannot write: %1").arg(device.errorString())};
        return Done{};
    }
    const FileOwnership replaced = FileOwnership::of(path);
    if (keepBackup && QFileInfo::exists(path) && !linkBackup(path)) {
        // Copied a piece at a time: the file replaced may be large.
        QFile current(path);
        if (!current.open(QIODevice::ReadOnly))
            return Error{path, 0, QStringLiteral("cannot read it to keep a backup: %1").arg(current.errorString())};
        // Whatever was planted at FILE.bak (a symbolic link to a file elsewhere) is replaced, never
        // written through: QSaveFile would write to the link's target.
        const QFileInfo planted(backupPath(path));
        if ((planted.isSymLink() || (planted.exists() && !planted.isFile())) && !QFile::remove(backupPath(path)))
            return Error{backupPath(path), 0, QStringLiteral("cannot write the backup: something that is not a file is in its place and cannot be removed")};
        QSaveFile backup(backupPath(path));
        if (!backup.open(QIODevice::WriteOnly))
            return Error{backupPath(path), 0, QStringLiteral("cannot write the backup: %1").arg(backup.errorString())};
        replaced.giveTo(backup.handle());
        for (;;) {
            const QByteArray piece = current.read(qint64(4) << 20);
            if (current.error() != QFileDevice::NoError)
                return Error{path, 0, QStringLiteral("cannot read it to keep a backup: %1").arg(current.errorString())};
            if (piece.isEmpty())
                break;
            if (backup.write(piece) != piece.size())
                return Error{backupPath(path), 0, QStringLiteral("cannot write the backup: %1").arg(backup.errorString())};
        }
        if (!backup.commit())
            return Error{backupPath(path), 0, QStringLiteral("cannot write the backup: %1").arg(backup.errorString())};
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return Error{path, 0, QStringLiteral("cannot write: %1").arg(file.errorString())};
    replaced.giveTo(file.handle());
    if (!write(file)) {
        const QString why = file.errorString();
        file.cancelWriting();
        return Error{path, 0, QStringLiteral("cannot write: %1").arg(why)};
    }
    if (!file.commit())
        return Error{path, 0, QStringLiteral("cannot write: %1").arg(file.errorString())};
    return Done{};
}

Status restoreBackup(const QString &path)
{
    const QString backup = backupPath(path);
    const QFileInfo info(backup);
    if (!info.isFile() || info.isSymLink())
        return Error{backup, 0, QStringLiteral("no backup to restore %1 from").arg(path)};
#if defined(Q_OS_UNIX)
    const QByteArray temporary = QFile::encodeName(path + QStringLiteral(".restoring"));
    (void)::unlink(temporary.constData());
    if (::link(QFile::encodeName(backup).constData(), temporary.constData()) == 0) {
        if (::rename(temporary.constData(), QFile::encodeName(path).constData()) == 0)
            return Done{};
        (void)::unlink(temporary.constData());
    }
#endif
    QFile source(backup);
    if (!source.open(QIODevice::ReadOnly))
        return Error{backup, 0, QStringLiteral("cannot read the backup: %1").arg(source.errorString())};
    return writeFileAtomically(
        path,
        [&source](QIODevice &file) {
            for (;;) {
                const QByteArray piece = source.read(qint64(4) << 20);
                if (source.error() != QFileDevice::NoError)
                    return false;
                if (piece.isEmpty())
                    return true;
                if (file.write(piece) != piece.size())
                    return false;
            }
        },
        false);
}

}  // namespace weft
