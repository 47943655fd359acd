#include "CommitJournal.h"

#include <pwd.h>
#include <unistd.h>

#include "TextReader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

namespace weft {

QJsonObject CommitJournalEntry::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("time"), time.toUTC().toString(Qt::ISODateWithMs));
    o.insert(QStringLiteral("user"), user);
    o.insert(QStringLiteral("plan"), planSummary);
    o.insert(QStringLiteral("smps"), double(smps));
    o.insert(QStringLiteral("outcome"), outcome);
    o.insert(QStringLiteral("details"), QJsonArray::fromStringList(details));
    o.insert(QStringLiteral("lfts"), lftsPath);
    o.insert(QStringLiteral("partitions"), partitionsPath);
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
    return e;
}

QString defaultJournalPath(const QString &besideFile)
{
    return QFileInfo(besideFile).absoluteDir().filePath(QStringLiteral("weft-commits.jsonl"));
}

Status appendJournalEntry(const QString &path, const CommitJournalEntry &entry)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Append))
        return Error{path, 0, QStringLiteral("cannot append to the commit journal: %1").arg(file.errorString())};
    // One write of a whole line: an append-mode write of this size is not interleaved with
    // another writer's line.
    QByteArray line = QJsonDocument(entry.toJson()).toJson(QJsonDocument::Compact);
    line += '\n';
    if (file.write(line) != line.size() || !file.flush())
        return Error{path, 0, QStringLiteral("cannot append to the commit journal: %1").arg(file.errorString())};
    return Done{};
}

Result<std::vector<CommitJournalEntry>> readJournal(const QString &path)
{
    std::vector<CommitJournalEntry> entries;
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
            entries.push_back(CommitJournalEntry::fromJson(doc.object()));
        }
    } catch (const InputError &e) {
        return reader.error(e);
    }
    return entries;
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
