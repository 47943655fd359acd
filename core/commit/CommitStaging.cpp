#include "CommitStaging.h"

#include "FileDigest.h"
#include "LftDump.h"

#include <QFile>
#include <QFileInfo>

#include <algorithm>

namespace weft {

Result<CommitFile> snapshotFile(const QString &path, bool keepContent)
{
    CommitFile s;
    s.path = path;
    s.existed = QFileInfo::exists(path);
    s.fromBackup = !keepContent;
    if (s.existed && keepContent) {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return Error{path, 0, QStringLiteral("cannot read: %1").arg(f.errorString())};
        s.content = f.readAll();
    }
    return s;
}

QString subnetManagerName(const CommitTarget &target, int sm)
{
    if (sm >= 0)
        return QStringLiteral("standby %1").arg(target.standbys[std::size_t(sm)].name);
    return target.name.isEmpty() ? QStringLiteral("OpenSM") : QStringLiteral("master %1").arg(target.name);
}

namespace {

Status restoreFile(const CommitFile &s)
{
    if (!s.written)
        return Done{};
    if (!s.existed) {
        if (QFileInfo::exists(s.path) && !QFile::remove(s.path))
            return Error{s.path, 0, QStringLiteral("cannot remove the file written by the failed commit")};
        return Done{};
    }
    // The backup beside it already holds this content; keep it.
    return s.fromBackup ? restoreBackup(s.path) : writeFileAtomically(s.path, s.content, false);
}

Error refusal(const QString &message)
{
    return Error{{}, 0, message};
}

}  // namespace

CommitStaging::CommitStaging(const CommitTarget &target)
    : m_target(target)
{
}

bool CommitStaging::anyWritten() const
{
    return std::any_of(m_files.begin(), m_files.end(), [](const CommitFile &f) { return f.written; });
}

Status CommitStaging::keepMasterFiles()
{
    Result<CommitFile> routing = snapshotFile(m_target.routingFile(), false);
    Result<CommitFile> partitions = snapshotFile(m_target.partitionsPath);
    if (!routing || !partitions)
        return refusal((routing ? partitions.error() : routing.error()).toString());
    partitions->role = CommitFile::Role::Partitions;
    m_files = {*routing, *partitions};
    return Done{};
}

void CommitStaging::keepOptionsFile(CommitFile options)
{
    options.role = CommitFile::Role::Options;
    m_files.push_back(std::move(options));
}

Status CommitStaging::keepStandbyFiles(bool serviceLevels)
{
    for (std::size_t k = 0; k < m_target.standbys.size(); ++k) {
        const CommitTarget::Standby &sb = m_target.standbys[k];
        if (sb.intentPath.isEmpty() == m_target.pluginMode())
            return refusal(QStringLiteral("standby %1 routes %2 and the master %3: one plan cannot be both").arg(sb.name, sb.intentPath.isEmpty() ? QStringLiteral("by OpenSM's file engine") : QStringLiteral("by Weft's engine"), m_target.pluginMode() ? QStringLiteral("by Weft's engine") : QStringLiteral("by OpenSM's file engine")));
        if (serviceLevels && sb.optionsPath.isEmpty())
            return refusal(QStringLiteral("the plan gives partitions their own service levels: standby %1's options file is needed").arg(sb.name));
        std::vector<std::pair<QString, CommitFile::Role>> files{{sb.routingFile(), CommitFile::Role::Routing}, {sb.partitionsPath, CommitFile::Role::Partitions}};
        if (serviceLevels)
            files.emplace_back(sb.optionsPath, CommitFile::Role::Options);
        for (const auto &[path, role] : files) {
            Result<CommitFile> f = snapshotFile(path, role != CommitFile::Role::Routing);
            if (!f)
                return refusal(QStringLiteral("standby %1: %2").arg(sb.name, f.error().toString()));
            f->sm = int(k);
            f->role = role;
            f->restoreCheckedByDigest = true;
            m_files.push_back(std::move(*f));
        }
    }
    return Done{};
}

void CommitStaging::keepRecoveredFile(CommitFile file)
{
    m_files.push_back(std::move(file));
}

Status CommitStaging::digestReplaced()
{
    m_replacedDigests.clear();
    for (const CommitFile &f : m_files) {
        Result<QString> digest = f.existed ? fileSha256(f.path) : Result<QString>(QString());
        if (!digest)
            return refusal(digest.error().toString());
        m_replacedDigests << *digest;
    }
    return Done{};
}

Result<std::vector<StagedFile>> CommitStaging::stage(const StagedContent &content)
{
    std::vector<StagedFile> staged;
    m_writtenDigests = QStringList(qsizetype(m_files.size()), QString());
    for (std::size_t i = 0; i < m_files.size(); ++i) {
        const QString &path = m_files[i].path;
        QString &digest = m_writtenDigests[qsizetype(i)];
        Result<StagedFile> file = Error{path, 0, QString()};
        switch (m_files[i].role) {
        case CommitFile::Role::Routing:
            // Only OpenSM reads the tables file: the compact form, streamed (never whole in memory).
            if (m_target.pluginMode()) {
                digest = sha256Hex(content.intentFile);
                file = stageFile(path, content.intentFile);
            } else {
                file = stageLftDumpFile(path, content.tables, &content.fabric, LftDumpForm::Compact, &digest);
            }
            break;
        case CommitFile::Role::Partitions:
            digest = sha256Hex(content.partitionsConf);
            file = stageFile(path, content.partitionsConf);
            break;
        case CommitFile::Role::Options: {
            const QByteArray options = withQosOptions(m_files[i].content, content.slToVl);
            digest = sha256Hex(options);
            file = stageFile(path, options);
            break;
        }
        }
        if (!file)
            return refusal(QStringLiteral("%1's files cannot be written, so no SM was changed: %2").arg(subnetManagerName(m_target, m_files[i].sm), file.error().toString()));
        staged.push_back(std::move(*file));
    }
    return staged;
}

Status CommitStaging::install(std::vector<StagedFile> &staged)
{
    for (std::size_t i = 0; i < staged.size(); ++i) {
        if (const Status installed = staged[i].install(); !installed)
            return installed;
        m_files[i].written = true;
    }
    return Done{};
}

QStringList CommitStaging::standbyFilesDiffer(int sm, QStringList *written) const
{
    QStringList problems;
    for (std::size_t i = 0; i < m_files.size(); ++i) {
        if (m_files[i].sm != sm)
            continue;
        *written << m_files[i].path;
        const Result<QString> now = fileSha256(m_files[i].path);
        if (!now)
            problems << now.error().toString();
        else if (*now != m_writtenDigests.value(qsizetype(i)))
            problems << QStringLiteral("%1 does not hold what was written (SHA-256 %2...)").arg(m_files[i].path, now->left(16));
    }
    return problems;
}

Status CommitStaging::restore() const
{
    for (const CommitFile &f : m_files)
        if (const Status restored = restoreFile(f); !restored)
            return restored;
    return Done{};
}

CommitStaging::RestoreCheck CommitStaging::checkRestored() const
{
    RestoreCheck check;
    if (m_replacedDigests.size() != qsizetype(m_files.size()))
        return check;
    for (std::size_t i = 0; i < m_files.size(); ++i) {
        const CommitFile &f = m_files[i];
        if (!f.written || !f.restoreCheckedByDigest)
            continue;
        ++check.checked;
        const QString &was = m_replacedDigests[qsizetype(i)];
        if (was.isEmpty()) {
            if (QFileInfo::exists(f.path))
                check.problems << QStringLiteral("%1 was not there before the commit and is still there").arg(f.path);
            continue;
        }
        const Result<QString> now = fileSha256(f.path);
        if (!now)
            check.problems << now.error().toString();
        else if (*now != was)
            check.problems << QStringLiteral("%1 does not hold what it held before the commit").arg(f.path);
    }
    return check;
}

}  // namespace weft
