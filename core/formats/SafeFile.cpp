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
    if (keepBackup && QFileInfo::exists(path)) {
        QFile current(path);
        if (!current.open(QIODevice::ReadOnly))
            return Error{path, 0, QStringLiteral("cannot read it to keep a backup: %1").arg(current.errorString())};
        const QByteArray previous = current.readAll();
        QSaveFile backup(backupPath(path));
        if (!backup.open(QIODevice::WriteOnly) || backup.write(previous) != previous.size() || !backup.commit())
            return Error{backupPath(path), 0, QStringLiteral("cannot write the backup: %1").arg(backup.errorString())};
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return Error{path, 0, QStringLiteral("cannot write: %1").arg(file.errorString())};
    if (file.write(data) != data.size()) {
        file.cancelWriting();
        return Error{path, 0, QStringLiteral("cannot write: %1").arg(file.errorString())};
    }
    if (!file.commit())
        return Error{path, 0, QStringLiteral("cannot write: %1").arg(file.errorString())};
    return Done{};
}

}  // namespace weft
