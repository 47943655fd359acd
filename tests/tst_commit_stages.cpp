// The commit's staging on its own, in a temporary directory: every SM's files staged before any is
// switched in (one that cannot be staged changes nothing), switched in with their backups, a
// standby's files held to what was written, and everything put back on a rollback (a file the
// commit created removed, a standby's checked by its digest). The commit around it is tst_commit's.

#include "CommitStaging.h"
#include "CommitSteps.h"
#include "OpenSmSignal.h"
#include "SafeFile.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace weft;

namespace {

QByteArray contents(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void write(const QString &path, const QByteArray &data)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(data);
}

// A master and one standby, both routing by Weft's engine (intent files).
CommitTarget subnetIn(const QTemporaryDir &dir)
{
    CommitTarget target;
    target.name = QStringLiteral("sm1");
    target.intentPath = dir.filePath(QStringLiteral("sm1.intent"));
    target.partitionsPath = dir.filePath(QStringLiteral("sm1.partitions.conf"));
    CommitTarget::Standby standby;
    standby.name = QStringLiteral("sm2");
    standby.intentPath = dir.filePath(QStringLiteral("sm2.intent"));
    standby.partitionsPath = dir.filePath(QStringLiteral("sm2.partitions.conf"));
    target.standbys.push_back(standby);
    return target;
}

struct Plan
{
    ForwardingTables tables;
    Fabric fabric;
    QByteArray intent = "new intent\n";
    QByteArray partitions = "Default=0x7fff, ipoib : ALL=full;\n";
    SlToVl slToVl{};
    StagedContent content() const { return {tables, fabric, intent, partitions, slToVl}; }
};

}  // namespace

class TestCommitStages : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // A sweep that ends in errors is asked for again: OpenSM's log says "ERRORS DURING
    // INITIALIZATION" after the first SIGHUP, "SUBNET UP" after the second.
    void sweepInErrorsIsAskedAgain()
    {
        QTemporaryDir dir;
        CommitTarget target;
        target.logPath = dir.filePath(QStringLiteral("opensm.log"));
        write(target.logPath, "-> SUBNET UP\n");  // an earlier sweep: not this one
        int hangups = 0;
        CommitBackend backend;
        backend.isRunning = [](qint64) { return true; };
        backend.reload = [&](qint64) {
            QFile log(target.logPath);
            if (!log.open(QIODevice::Append))
                return Status(Error{target.logPath, 0, QStringLiteral("cannot append")});
            log.write(++hangups == 1 ? "-> ERRORS DURING INITIALIZATION\n" : "-> SUBNET UP\n");
            return Status(Done{});
        };
        CommitReport report;
        QStringList said;
        CommitSteps steps(report, [&](const QString &line) { said << line; });
        OpenSmSignal signal(target, backend, steps);
        signal.adopt(QCoreApplication::applicationPid());
        const OpenSmSignal::Sweep sweep = signal.reload(20000, false);
        QVERIFY2(sweep.failure.isEmpty(), qPrintable(sweep.failure));
        QCOMPARE(hangups, 2);
        QVERIFY2(said.join(QLatin1Char('\n')).contains(QLatin1String("sweep ended in errors; sent SIGHUP again")), qPrintable(said.join(QLatin1Char('\n'))));
    }

    // OpenSM that never sweeps is asked a bounded number of times, then the wait fails.
    void silentOpenSmIsAskedABoundedNumberOfTimes()
    {
        QTemporaryDir dir;
        CommitTarget target;
        target.logPath = dir.filePath(QStringLiteral("opensm.log"));
        write(target.logPath, "");
        int hangups = 0;
        CommitBackend backend;
        backend.isRunning = [](qint64) { return true; };
        backend.reload = [&](qint64) {
            QFile log(target.logPath);
            if (log.open(QIODevice::Append))
                log.write("-> ERRORS DURING INITIALIZATION\n");
            ++hangups;
            return Status(Done{});
        };
        CommitReport report;
        CommitSteps steps(report, {});
        OpenSmSignal signal(target, backend, steps);
        signal.adopt(QCoreApplication::applicationPid());
        const OpenSmSignal::Sweep sweep = signal.reload(3000, false);
        QVERIFY(!sweep.failure.isEmpty());
        QCOMPARE(hangups, OpenSmSignal::kMaxAsks);
        QVERIFY2(sweep.failure.contains(QStringLiteral("asked %1 time(s)").arg(OpenSmSignal::kMaxAsks)), qPrintable(sweep.failure));
    }

    void installedThenRestored()
    {
        QTemporaryDir dir;
        const CommitTarget target = subnetIn(dir);
        write(target.intentPath, "old intent 1\n");
        write(target.partitionsPath, "old partitions 1\n");
        write(target.standbys[0].intentPath, "old intent 2\n");
        // The standby's partitions.conf is new: the rollback removes it.

        CommitStaging staging(target);
        QVERIFY(staging.keepMasterFiles().ok());
        QVERIFY(staging.keepStandbyFiles(false).ok());
        QCOMPARE(staging.files().size(), std::size_t(4));
        QVERIFY(staging.digestReplaced().ok());
        QVERIFY(staging.replacedDigests().at(3).isEmpty());

        const Plan plan;
        Result<std::vector<StagedFile>> staged = staging.stage(plan.content());
        QVERIFY2(staged.ok(), qPrintable(staged ? QString() : staged.error().toString()));
        QCOMPARE(contents(target.intentPath), QByteArray("old intent 1\n"));  // staged, not switched in
        QVERIFY(staging.install(*staged).ok());
        QVERIFY(staging.anyWritten());
        QCOMPARE(contents(target.intentPath), plan.intent);
        QCOMPARE(contents(target.standbys[0].partitionsPath), plan.partitions);
        QCOMPARE(contents(backupPath(target.partitionsPath)), QByteArray("old partitions 1\n"));

        QStringList written;
        QCOMPARE(staging.standbyFilesDiffer(0, &written), QStringList());
        QCOMPARE(written, QStringList({target.standbys[0].intentPath, target.standbys[0].partitionsPath}));

        QVERIFY(staging.restore().ok());
        QCOMPARE(contents(target.intentPath), QByteArray("old intent 1\n"));
        QCOMPARE(contents(target.partitionsPath), QByteArray("old partitions 1\n"));
        QCOMPARE(contents(target.standbys[0].intentPath), QByteArray("old intent 2\n"));
        QVERIFY(!QFile::exists(target.standbys[0].partitionsPath));
        const CommitStaging::RestoreCheck check = staging.checkRestored();
        QCOMPARE(check.checked, 2);  // the standby's: OpenSM's read-back shows the master's
        QCOMPARE(check.problems, QStringList());
    }

    void standbyChangedAfterWriting()
    {
        QTemporaryDir dir;
        const CommitTarget target = subnetIn(dir);
        CommitStaging staging(target);
        QVERIFY(staging.keepMasterFiles().ok());
        QVERIFY(staging.keepStandbyFiles(false).ok());
        QVERIFY(staging.digestReplaced().ok());
        const Plan plan;
        Result<std::vector<StagedFile>> staged = staging.stage(plan.content());
        QVERIFY(staged.ok());
        QVERIFY(staging.install(*staged).ok());

        write(target.standbys[0].partitionsPath, "someone else's\n");
        QStringList written;
        const QStringList problems = staging.standbyFilesDiffer(0, &written);
        QCOMPARE(problems.size(), 1);
        QVERIFY2(problems[0].startsWith(target.standbys[0].partitionsPath + QStringLiteral(" does not hold what was written")), qPrintable(problems[0]));
    }

    void oneFileUnstageableChangesNothing()
    {
        QTemporaryDir dir;
        const CommitTarget target = subnetIn(dir);
        write(target.intentPath, "old intent 1\n");
        write(target.partitionsPath, "old partitions 1\n");
        // Not a regular file: it cannot be replaced in one step, so it is not staged.
        QVERIFY(QDir().mkpath(target.standbys[0].intentPath));
        CommitStaging staging(target);
        QVERIFY(staging.keepMasterFiles().ok());
        QVERIFY(staging.keepStandbyFiles(false).ok());

        const Plan plan;
        const Result<std::vector<StagedFile>> staged = staging.stage(plan.content());
        QVERIFY(!staged.ok());
        QVERIFY2(staged.error().toString().startsWith(QStringLiteral("standby sm2's files cannot be written, so no SM was changed: ")),
                 qPrintable(staged.error().toString()));
        QVERIFY(!staging.anyWritten());
        QCOMPARE(contents(target.intentPath), QByteArray("old intent 1\n"));
        // The files staged before it are gone with it: only what was there, and the directory.
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
                 QStringList({QStringLiteral("sm1.intent"), QStringLiteral("sm1.partitions.conf"), QStringLiteral("sm2.intent")}));
    }
};

QTEST_GUILESS_MAIN(TestCommitStages)
#include "tst_commit_stages.moc"
