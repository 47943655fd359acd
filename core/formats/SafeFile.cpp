#include "SafeFile.h"

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

namespace weft {

QString backupPath(const QString &path)
{
    return path + QStringLiteral(".bak");
}

Status writeFileAtomically(const QString &path, const QByteArray &data, bool keepBackup)
{
    return writeFileAtomically(path, [&data](QIODevice &file) { return file.write(data) == data.size(); }, keepBackup);
}

Status writeFileAtomically(const QString &path, const std::function<bool(QIODevice &)> &write, bool keepBackup)
{
    if (keepBackup && QFileInfo::exists(path)) {
        // Copied a piece at a time: the file replaced may be large.
        QFile current(path);
        if (!current.open(QIODevice::ReadOnly))
            return Error{path, 0, QStringLiteral("cannot read it to keep a backup: %1").arg(current.errorString())};
        QSaveFile backup(backupPath(path));
        if (!backup.open(QIODevice::WriteOnly))
            return Error{backupPath(path), 0, QStringLiteral("cannot write the backup: %1").arg(backup.errorString())};
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
    if (!write(file)) {
        const QString why = file.errorString();
        file.cancelWriting();
        return Error{path, 0, QStringLiteral("cannot write: %1").arg(why)};
    }
    if (!file.commit())
        return Error{path, 0, QStringLiteral("cannot write: %1").arg(file.errorString())};
    return Done{};
}

}  // namespace weft
