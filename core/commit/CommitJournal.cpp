#include "CommitJournal.h"

#include <fcntl.h>
#include <pwd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "SafeFile.h"
#include "TextReader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>

namespace weft {

bool CommitJournalEntry::unfinished() const
{
    return !isAdapt() && (outcome == QLatin1String(kJournalInProgress) || outcome == QLatin1String(kJournalWritten));
}

QJsonObject CommitJournalEntry::toJson() const
{
    QJsonObject o;
    if (!id.isEmpty())
        o.insert(QStringLiteral("id"), id);
    if (!files.isEmpty()) {
        o.insert(QStringLiteral("files"), QJsonArray::fromStringList(files));
        o.insert(QStringLiteral("backups"), QJsonArray::fromStringList(backups));
        if (!replacedDigests.isEmpty())
            o.insert(QStringLiteral("replaced_sha256"), QJsonArray::fromStringList(replacedDigests));
        if (!writtenDigests.isEmpty())
            o.insert(QStringLiteral("written_sha256"), QJsonArray::fromStringList(writtenDigests));
    }
    o.insert(QStringLiteral("time"), time.toUTC().toString(Qt::ISODateWithMs));
    o.insert(QStringLiteral("user"), user);
    o.insert(QStringLiteral("plan"), planSummary);
    o.insert(QStringLiteral("smps"), double(smps));
    o.insert(QStringLiteral("outcome"), outcome);
    o.insert(QStringLiteral("details"), QJsonArray::fromStringList(details));
    o.insert(QStringLiteral("lfts"), lftsPath);
    o.insert(QStringLiteral("partitions"), partitionsPath);
    if (!subnet.isEmpty())
        o.insert(QStringLiteral("subnet"), subnet);
    if (!sms.isEmpty())
        o.insert(QStringLiteral("sms"), sms);
    // "commit" is written without the field; "adapt" and the service's "admin" acts with it.
    if (kind != QLatin1String("commit")) {
        o.insert(QStringLiteral("kind"), kind);
        if (isAdapt() || !adapt.isEmpty())
            o.insert(QStringLiteral("adapt"), adapt);
    }
    return o;
}

CommitJournalEntry CommitJournalEntry::fromJson(const QJsonObject &o)
{
    CommitJournalEntry e;
    e.time = QDateTime::fromString(o.value(QStringLiteral("time")).toString(), Qt::ISODateWithMs);
    e.user = o.value(QStringLiteral("user")).toString();
    e.planSummary = o.value(QStringLiteral("plan")).toString();
    e.smps = static_cast<long long>(o.value(QStringLiteral("smps")).toDouble());
    e.outcome = o.value(QStringLiteral("outcome")).toString();
    for (const QJsonValue &d : o.value(QStringLiteral("details")).toArray())
        e.details << d.toString();
    e.lftsPath = o.value(QStringLiteral("lfts")).toString();
    e.partitionsPath = o.value(QStringLiteral("partitions")).toString();
    e.id = o.value(QStringLiteral("id")).toString();
    for (const QJsonValue &f : o.value(QStringLiteral("files")).toArray())
        e.files << f.toString();
    for (const QJsonValue &b : o.value(QStringLiteral("backups")).toArray())
        e.backups << b.toString();
    for (const QJsonValue &d : o.value(QStringLiteral("replaced_sha256")).toArray())
        e.replacedDigests << d.toString();
    for (const QJsonValue &d : o.value(QStringLiteral("written_sha256")).toArray())
        e.writtenDigests << d.toString();
    e.subnet = o.value(QStringLiteral("subnet")).toString();
    e.sms = o.value(QStringLiteral("sms")).toArray();
    if (o.contains(QStringLiteral("kind")))
        e.kind = o.value(QStringLiteral("kind")).toString();
    e.adapt = o.value(QStringLiteral("adapt")).toObject();
    return e;
}

QString defaultJournalPath(const QString &besideFile)
{
    // Beside the file itself, however it is spelled (one journal per target, as one lock).
    return QFileInfo(realFilePath(besideFile)).absoluteDir().filePath(QStringLiteral("weft-commits.jsonl"));
}

Status appendJournalEntry(const QString &path, const CommitJournalEntry &entry)
{
    QFile file(path);
    const bool created = !QFileInfo::exists(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Append))
        return Error{path, 0, QStringLiteral("cannot append to the commit journal: %1").arg(file.errorString())};
    // One write of a whole line: an append-mode write of this size is not interleaved with
    // another writer's line.
    QByteArray line = QJsonDocument(entry.toJson()).toJson(QJsonDocument::Compact);
    line += '\n';
    if (file.write(line) != line.size() || !file.flush())
        return Error{path, 0, QStringLiteral("cannot append to the commit journal: %1").arg(file.errorString())};
    // On disk before the commit goes on: a commit's intent must outlive a crash of the machine.
    if (::fsync(file.handle()) != 0)
        return Error{path, 0, QStringLiteral("cannot put the commit journal on disk: %1").arg(QString::fromLocal8Bit(strerror(errno)))};
    if (created) {  // and the new file's name in its directory
        const int dir = ::open(QFile::encodeName(QFileInfo(path).absolutePath()).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dir >= 0) {
            ::fsync(dir);
            ::close(dir);
        }
    }
    return Done{};
}

Result<std::vector<CommitJournalEntry>> readJournal(const QString &path)
{
    std::vector<CommitJournalEntry> entries;
    QHash<QString, std::size_t> byId;  // a commit's first line: where its later lines go
    if (!QFileInfo::exists(path))
        return entries;
    Result<QByteArray> data = TextReader::readFile(path);
    if (!data)
        return data.error();
    // Entries carry long detail lists; allow long lines.
    TextReader reader(*data, path, 1 << 20);
    try {
        while (reader.next()) {
            const std::string_view line = text::trimmed(reader.line());
            if (line.empty())
                continue;
            QJsonParseError parseError;
            const QJsonDocument doc = QJsonDocument::fromJson(QByteArray(line.data(), qsizetype(line.size())), &parseError);
            if (parseError.error != QJsonParseError::NoError)
                reader.fail(QStringLiteral("not a journal entry: %1").arg(parseError.errorString()));
            if (!doc.isObject())
                reader.fail(QStringLiteral("not a journal entry: expected a JSON object"));
            CommitJournalEntry entry = CommitJournalEntry::fromJson(doc.object());
            const auto same = entry.id.isEmpty() ? byId.end() : byId.find(entry.id);
            if (same != byId.end()) {
                entries[*same] = std::move(entry);
            } else {
                if (!entry.id.isEmpty())
                    byId.insert(entry.id, entries.size());
                entries.push_back(std::move(entry));
            }
        }
    } catch (const InputError &e) {
        return reader.error(e);
    }
    return entries;
}

std::optional<CommitJournalEntry> unfinishedCommit(const std::vector<CommitJournalEntry> &entries, const QString &lftsPath,
                                                   const QString &subnet, const QStringList &files)
{
    // By the files' identity, not their spelling: a commit made through a symbolic link is found
    // by the real path, and the other way round.
    for (auto e = entries.rbegin(); e != entries.rend(); ++e) {
        if (!e->unfinished())
            continue;
        if (sameFile(e->lftsPath, lftsPath) || (!subnet.isEmpty() && e->subnet == subnet))
            return *e;
        for (const QString &f : e->files)
            for (const QString &ours : files)
                if (sameFile(f, ours))
                    return *e;
    }
    return std::nullopt;
}

QString currentUserName()
{
    for (const char *name : {"USER", "LOGNAME"}) {
        const QString user = qEnvironmentVariable(name);
        if (!user.isEmpty())
            return user;
    }
    // Services and CI often run without either variable; the account database still knows.
    if (const passwd *entry = getpwuid(getuid()); entry && entry->pw_name && *entry->pw_name)
        return QString::fromLocal8Bit(entry->pw_name);
    return QStringLiteral("unknown");
}

}  // namespace weft
