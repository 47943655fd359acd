#pragma once
// The files a commit replaces, every SM's: each kept as it was (content, or the backup SafeFile
// leaves beside it), all staged whole beside their places before any is switched in, so that one
// that cannot be written changes no SM; then switched in, and on a failure put back. What each
// held and holds is known by its SHA-256, for the journal and for checking the files that no
// read-back shows (a standby's). Errors are the commit's refusals, in the report's words.

#include "Commit.h"
#include "QosConfig.h"
#include "SafeFile.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace weft {

// One file of a commit: as it was before, and whose it is.
struct CommitFile
{
    enum class Role : std::uint8_t { Routing,
                                     Partitions,
                                     Options };
    QString path;
    bool existed = false;
    // The previous content; not read for the LFT dump, whose backup (SafeFile's second name for
    // the replaced file) is put back instead: a 6 GB dump is never held in memory.
    QByteArray content;
    bool fromBackup = false;
    bool written = false;  // replaced by this commit: only such a file is restored
    int sm = -1;           // -1 the master, else the index of its standby
    Role role = Role::Routing;
    // No read-back of OpenSM shows this file put back (a standby's): after a rollback its
    // SHA-256 is compared with the one it had.
    bool restoreCheckedByDigest = false;
};

// The file as it is now; without `keepContent` only whether it exists (it is restored from its backup).
Result<CommitFile> snapshotFile(const QString &path, bool keepContent = true);

// "OpenSM", "master NAME" or "standby NAME": `sm` as CommitFile::sm.
QString subnetManagerName(const CommitTarget &target, int sm);

// What the staged files hold.
struct StagedContent
{
    const ForwardingTables &tables;  // as the LFT dump (file mode)
    const Fabric &fabric;            // the LFT dump's switch names
    const QByteArray &intentFile;    // plugin mode
    const QByteArray &partitionsConf;
    const SlToVl &slToVl;  // written into each options file
};

class CommitStaging
{
public:
    explicit CommitStaging(const CommitTarget &target);

    std::vector<CommitFile> &files() { return m_files; }
    const std::vector<CommitFile> &files() const { return m_files; }
    // SHA-256 of each file as it was ("" if none), and as written ("" until known): the
    // journal's digests, that recovery holds the disk to.
    QStringList &replacedDigests() { return m_replacedDigests; }
    const QStringList &replacedDigests() const { return m_replacedDigests; }
    const QStringList &writtenDigests() const { return m_writtenDigests; }
    bool anyWritten() const;

    // The master's routing file and partitions.conf as they are.
    Status keepMasterFiles();
    // The master's OpenSM options file, already read (service levels).
    void keepOptionsFile(CommitFile options);
    // Each standby's routing file, partitions.conf and (`serviceLevels`) options file, as they are.
    Status keepStandbyFiles(bool serviceLevels);
    // A file a recovery puts back, as the journal names it.
    void keepRecoveredFile(CommitFile file);
    Status digestReplaced();

    // Every file written to a temporary file beside its place (SafeFile.h: stageFile), nothing
    // replaced yet; the digests of what each will hold. Error: nothing changed, every staged
    // file removed.
    Result<std::vector<StagedFile>> stage(const StagedContent &content);
    // Each staged file switched in, in order; the first that cannot be stops it (the files
    // switched in so far are marked written, for restore()).
    Status install(std::vector<StagedFile> &staged);

    // The files of standby `sm` hold what was staged for them (SHA-256). `written` receives
    // their paths. Empty when they all do.
    QStringList standbyFilesDiffer(int sm, QStringList *written) const;

    // Each file this commit replaced put back (or removed, when it had created it).
    Status restore() const;
    struct RestoreCheck
    {
        QStringList problems;
        int checked = 0;  // files compared with what they held (restoreCheckedByDigest)
    };
    // After restore(): each file no read-back covers holds what it held before the commit.
    RestoreCheck checkRestored() const;

private:
    const CommitTarget &m_target;
    std::vector<CommitFile> m_files;  // the master's routing file and partitions.conf first
    QStringList m_replacedDigests;
    QStringList m_writtenDigests;
};

}  // namespace weft
