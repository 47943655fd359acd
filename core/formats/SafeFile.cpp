#include "SafeFile.h"

#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QSaveFile>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <utility>
#include <vector>

#if defined(Q_OS_UNIX)
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace weft {

QString backupPath(const QString &path, int generation)
{
    return generation == 0 ? path + QStringLiteral(".bak") : path + QStringLiteral(".bak.%1").arg(generation);
}

namespace {
std::atomic<int> g_backupGenerations{3};
}

void setBackupGenerations(int generations)
{
    g_backupGenerations = std::max(1, generations);
}

int backupGenerations()
{
    return g_backupGenerations;
}

QString realFilePath(const QString &path)
{
    const QFileInfo info(path);
    const QString real = info.canonicalFilePath();
    if (!real.isEmpty())
        return real;
    const QString directory = QFileInfo(info.absolutePath()).canonicalFilePath();
    return directory.isEmpty() ? info.absoluteFilePath() : directory + QLatin1Char('/') + info.fileName();
}

bool sameFile(const QString &a, const QString &b)
{
    if (a.isEmpty() || b.isEmpty())
        return a == b;
    const QFileInfo fa(realFilePath(a)), fb(realFilePath(b));
    if (fa.fileName() != fb.fileName())
        return false;
#if defined(Q_OS_UNIX)
    struct stat da
    {
    }, db{};
    if (::stat(QFile::encodeName(fa.absolutePath()).constData(), &da) == 0 && ::stat(QFile::encodeName(fb.absolutePath()).constData(), &db) == 0)
        return da.st_dev == db.st_dev && da.st_ino == db.st_ino;
#endif
    return fa.absoluteFilePath() == fb.absoluteFilePath();
}

namespace {

// The backup as a second name for the file about to be replaced: the new content goes to a new
// file renamed over `path`, so the old one lives on, unchanged, as the backup. Costs nothing
// whatever the size (a copy of a 6 GB LFT dump would take longer than writing the new one).
// False where it cannot be done (a symbolic link, a file system without hard links): then copy.
// Older backups one generation up (.bak.2 to .bak.3, ..., .bak to .bak.1), the oldest beyond
// the count dropped, before a new backup is made: renames only.
void rotateBackups(const QString &path)
{
    const int generations = backupGenerations();
    for (int g = generations - 1; g >= 1; --g) {
        const QByteArray from = QFile::encodeName(backupPath(path, g - 1));
        if (QFileInfo::exists(backupPath(path, g - 1)) && !QFileInfo(backupPath(path, g - 1)).isSymLink())
            (void)::rename(from.constData(), QFile::encodeName(backupPath(path, g)).constData());
    }
}

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

// The backup of `path` as a copy (where no second name can be made), a piece at a time: the file
// replaced may be large.
Status copyBackup(const QString &path, const FileOwnership &replaced)
{
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
    return Done{};
}

#if defined(Q_OS_UNIX)
// A file descriptor as a QIODevice for the writers, buffered (1 MB), keeping the first error's
// errno: QFile reports a full disk found at its flush as "Unknown error", or not at all.
class DescriptorWriter : public QIODevice
{
public:
    explicit DescriptorWriter(int fd)
        : m_fd(fd) { open(QIODevice::WriteOnly | QIODevice::Unbuffered); }
    ~DescriptorWriter() override = default;

    // Writes what is buffered; false (and error()) when the system refused.
    bool drain()
    {
        const bool ok = writeAll(m_buffer.data(), m_buffer.size());
        m_buffer.clear();
        return ok;
    }
    int error() const { return m_error; }

protected:
    qint64 readData(char *, qint64) override { return -1; }
    qint64 writeData(const char *data, qint64 size) override
    {
        if (m_error != 0)
            return -1;
        const std::size_t n = std::size_t(size);
        if (m_buffer.size() + n > kBuffer && !drain())
            return failed();
        if (n >= kBuffer) {  // large pieces go straight through
            if (!writeAll(data, n))
                return failed();
        } else {
            m_buffer.insert(m_buffer.end(), data, data + n);
        }
        return size;
    }

private:
    bool writeAll(const char *data, std::size_t size)
    {
        std::size_t done = 0;
        while (done < size && m_error == 0) {
            const ssize_t n = ::write(m_fd, data + done, size - done);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                m_error = n < 0 ? errno : ENOSPC;
            else
                done += std::size_t(n);
        }
        return m_error == 0;
    }
    qint64 failed()
    {
        setErrorString(qt_error_string(m_error));
        return -1;
    }

    static constexpr std::size_t kBuffer = std::size_t(1) << 20;
    int m_fd;
    int m_error = 0;
    std::vector<char> m_buffer;
};

// A new file beside `target` (same directory, so the rename is atomic), created exclusively with
// the usual mode (0666 less the umask); -1 and errno set on failure.
int createTemporary(const QString &target, QByteArray *name)
{
    const QFileInfo info(target);
    for (int attempt = 0; attempt < 100; ++attempt) {
        *name = QFile::encodeName(info.absolutePath() + QStringLiteral("/.") + info.fileName()
                                  + QStringLiteral(".weft-%1").arg(QRandomGenerator::global()->generate(), 8, 16, QLatin1Char('0')));
        const int fd = ::open(name->constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}
#endif

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
#if defined(Q_OS_UNIX)
    Result<StagedFile> staged = stageFile(path, write);
    if (!staged)
        return staged.error();
    return staged->install(keepBackup);
#else
    const FileOwnership replaced = FileOwnership::of(path);
    if (keepBackup && QFileInfo::exists(path))
        if (Status kept = copyBackup(path, replaced); !kept)
            return kept;
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return Error{path, 0, QStringLiteral("cannot write: %1").arg(file.errorString())};
    if (!write(file)) {
        const QString why = file.errorString();
        file.cancelWriting();
        return Error{path, 0, QStringLiteral("cannot write: %1").arg(why)};
    }
    if (!file.commit())
        return Error{path, 0, QStringLiteral("cannot write: %1").arg(file.errorString())};
    return Done{};
#endif
}

StagedFile::StagedFile(StagedFile &&other) noexcept
    : m_path(std::move(other.m_path)), m_target(std::move(other.m_target)), m_temporary(std::exchange(other.m_temporary, {})),
      m_ownerKnown(other.m_ownerKnown), m_uid(other.m_uid), m_gid(other.m_gid), m_mode(other.m_mode)
{
}

StagedFile &StagedFile::operator=(StagedFile &&other) noexcept
{
    if (this != &other) {
        if (!m_temporary.isEmpty())
            (void)::unlink(m_temporary.constData());
        m_path = std::move(other.m_path);
        m_target = std::move(other.m_target);
        m_temporary = std::exchange(other.m_temporary, {});
        m_ownerKnown = other.m_ownerKnown;
        m_uid = other.m_uid;
        m_gid = other.m_gid;
        m_mode = other.m_mode;
    }
    return *this;
}

StagedFile::~StagedFile()
{
#if defined(Q_OS_UNIX)
    if (!m_temporary.isEmpty())
        (void)::unlink(m_temporary.constData());
#endif
}

Result<StagedFile> stageFile(const QString &path, const QByteArray &data)
{
    return stageFile(path, [&data](QIODevice &file) { return file.write(data) == data.size(); });
}

Result<StagedFile> stageFile(const QString &path, const std::function<bool(QIODevice &)> &write)
{
#if defined(Q_OS_UNIX)
    struct stat existing
    {
    };
    if (::stat(QFile::encodeName(path).constData(), &existing) == 0 && !S_ISREG(existing.st_mode))
        return Error{path, 0, QStringLiteral("cannot write: not a regular file")};
    StagedFile staged;
    staged.m_path = path;
    // A symbolic link stays one: the file it names is replaced.
    staged.m_target = path;
    const QFileInfo asGiven(path);
    if (asGiven.isSymLink())
        staged.m_target = asGiven.exists() ? asGiven.canonicalFilePath() : asGiven.symLinkTarget();
    const FileOwnership replaced = FileOwnership::of(staged.m_target);
    staged.m_ownerKnown = replaced.known;
    staged.m_uid = replaced.status.st_uid;
    staged.m_gid = replaced.status.st_gid;
    staged.m_mode = replaced.status.st_mode;
    // The new content first, whole: written, flushed, on disk and closed, each step's error
    // checked (a full disk often shows only at the flush or the sync), before anything that is
    // there now is touched.
    QByteArray temporary;
    const int fd = createTemporary(staged.m_target, &temporary);
    if (fd < 0)
        return Error{path, 0, QStringLiteral("cannot write: %1").arg(qt_error_string(errno))};
    auto fail = [&](const QString &why) {
        (void)::unlink(temporary.constData());
        return Error{path, 0, QStringLiteral("cannot write: %1").arg(why)};
    };
    replaced.giveTo(fd);
    {
        DescriptorWriter file(fd);
        const bool written = write(file);
        if (!file.drain() || !written) {
            ::close(fd);
            return fail(file.error() != 0 ? qt_error_string(file.error()) : QStringLiteral("the content could not be produced"));
        }
    }
    if (::fsync(fd) != 0) {
        const QString why = qt_error_string(errno);
        ::close(fd);
        return fail(why);
    }
    if (::close(fd) != 0)
        return fail(qt_error_string(errno));
    staged.m_temporary = temporary;
    return staged;
#else
    Q_UNUSED(write);
    return Error{path, 0, QStringLiteral("cannot stage a file on this system")};
#endif
}

Status StagedFile::install(bool keepBackup)
{
#if defined(Q_OS_UNIX)
    if (m_temporary.isEmpty())
        return Error{m_path, 0, QStringLiteral("cannot write: nothing staged (installed already?)")};
    FileOwnership replaced;
    replaced.known = m_ownerKnown;
    replaced.status.st_uid = m_uid;
    replaced.status.st_gid = m_gid;
    replaced.status.st_mode = m_mode;
    const QByteArray temporary = std::exchange(m_temporary, {});
    // (The backup beside the name given: through a symbolic link, a copy of the file it names.)
    if (keepBackup && QFileInfo::exists(m_path))
        rotateBackups(m_path);
    if (keepBackup && QFileInfo::exists(m_path) && !linkBackup(m_path)) {
        if (Status kept = copyBackup(m_path, replaced); !kept) {
            (void)::unlink(temporary.constData());
            return kept;
        }
    }
    if (::rename(temporary.constData(), QFile::encodeName(m_target).constData()) != 0) {
        const QString why = qt_error_string(errno);
        (void)::unlink(temporary.constData());
        return Error{m_path, 0, QStringLiteral("cannot write: %1").arg(why)};
    }
    const int directory = ::open(QFile::encodeName(QFileInfo(m_target).absolutePath()).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (directory >= 0) {
        const bool synced = ::fsync(directory) == 0 || errno == EINVAL;  // EINVAL: not supported there
        const int error = errno;
        ::close(directory);
        if (!synced)
            return Error{m_path, 0, QStringLiteral("written, but its directory could not be synced to disk: %1").arg(qt_error_string(error))};
    }
    return Done{};
#else
    Q_UNUSED(keepBackup);
    return Error{m_path, 0, QStringLiteral("cannot stage a file on this system")};
#endif
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
