// docs/tutorial.md, held to what it says. The tutorial's GUI steps, run as its screenshots are
// taken (`weft lab --gui -- --screenshot ... --screenshot-view tutorial-journal`: two tenants made
// and phy-isolated, ftree and pftree previewed, Approve clicked and answered, the journal
// opened), commit to the lab's OpenSM with the figures the tutorial quotes. The environment that
// `weft lab` prints lets the standard tools (smpquery, saquery, ibroute) reach the lab.

#include "CommitJournal.h"
#include "WeftRunner.h"

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace weft;

namespace {

QString weftBinary()
{
    return qEnvironmentVariable("WEFT_BINARY");
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// `weft lab` with the GUI offscreen and a settings directory of its own (no saved window state
// or commit target of the person running it); `guiArgs` go after `--`.
void startLab(QProcess &lab, const QString &dir, const QString &config, const QStringList &guiArgs)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), config);
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    lab.setProcessEnvironment(env);
    QStringList args = {QStringLiteral("lab"), QStringLiteral("--gui"), QStringLiteral("--dir"), dir};
    if (!guiArgs.isEmpty())
        args << QStringLiteral("--") << guiArgs;
    lab.start(weftBinary(), args);
}

}  // namespace

class TestLabTutorial : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void tutorialStepsCommitInTheLab()
    {
        QTemporaryDir dir;
        QTemporaryDir config;
        const QString picture = dir.filePath(QStringLiteral("tutorial-journal.png"));
        QProcess lab;
        startLab(lab, dir.path(), config.path(),
                 {QStringLiteral("--lang"), QStringLiteral("en"), QStringLiteral("--screenshot"), picture, QStringLiteral("--screenshot-view"),
                  QStringLiteral("tutorial-journal")});
        QVERIFY(lab.waitForFinished(600000));
        const QByteArray out = lab.readAllStandardOutput();
        const QByteArray err = lab.readAllStandardError();
        QVERIFY2(lab.exitStatus() == QProcess::NormalExit && lab.exitCode() == 0, (out + err).constData());
        QVERIFY2(QFileInfo(picture).size() > 0, "no picture of the journal");

        // Step 7 and 8: one commit, verified, with the tutorial's figures.
        Result<std::vector<CommitJournalEntry>> journal = readJournal(dir.filePath(QStringLiteral("weft-commits.jsonl")));
        QVERIFY2(journal.ok(), journal ? "" : qPrintable(journal.error().toString()));
        QCOMPARE(int(journal->size()), 1);
        const CommitJournalEntry &commit = journal->front();
        QCOMPARE(commit.outcome, QStringLiteral("committed"));
        QCOMPARE(commit.smps, 36LL);
        QVERIFY2(commit.planSummary.contains(QStringLiteral("8 switch tables; partitions: Default (0x7fff), chem (0x0010), astro (0x0020)")),
                 qPrintable(commit.planSummary));
        // Step 6: what OpenSM now reads.
        const QByteArray conf = readAll(dir.filePath(QStringLiteral("partitions.conf")));
        for (const char *line : {"chem=0x0010, sl=0 :", "astro=0x0020, sl=0 :", "# weft: policy=phy-isolation"})
            QVERIFY2(conf.contains(line), conf.constData());
        QVERIFY2(!conf.contains("tenant-red") && !conf.contains("tenant-blue"), conf.constData());
        // Every host a full member of one tenant: ten of chem, six of astro.
        static const QRegularExpression member(QStringLiteral("0x[0-9a-f]{16}=full"));
        int members = 0;
        for (auto it = member.globalMatch(QString::fromUtf8(conf)); it.hasNext(); it.next())
            ++members;
        QCOMPARE(members, 16);
    }

    void labTellsTheEnvironmentOfTheStandardTools()
    {
        // Arguments after -- are for the GUI, which --no-gui does not start.
        const test::Run refused = test::runWeft({QStringLiteral("lab"), QStringLiteral("--no-gui"), QStringLiteral("--"), QStringLiteral("--lang")});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains("arguments after -- go to the GUI"), refused.err.constData());

        // The GUI (offscreen, idle) keeps the lab up while the tools run as step 9 runs them.
        QTemporaryDir dir, config;
        QProcess lab;
        startLab(lab, dir.path(), config.path(), {});
        QVERIFY(lab.waitForStarted());
        static const QRegularExpression line(QStringLiteral("standard tools as clients of the lab \\(while it runs\\): (env .*) TOOL \\[ARGS\\]\\n"));
        QByteArray out;
        const QRegularExpressionMatch match = test::waitForOutput(lab, line, &out);
        QVERIFY2(match.hasMatch(), out.constData());
        const QString prefix = match.captured(1);
        for (const char *name : {"LD_PRELOAD=", "IBSIM_SOCKNAME=", "SIM_HOST="})
            QVERIFY2(prefix.contains(QLatin1String(name)), qPrintable(prefix));

        // As a user's shell runs the printed line with a tool after it.
        const auto tool = [&](const QString &command) {
            QProcess shell;
            shell.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), prefix + QLatin1Char(' ') + command});
            shell.waitForFinished(120000);
            return shell.readAllStandardOutput() + shell.readAllStandardError();
        };
        // The lab's demo tenants: host 0001 (LID 10) and host 0003 (LID 12) are tenant-blue's.
        const QByteArray pkeys = tool(QStringLiteral("smpquery pkeys 10"));
        QVERIFY2(pkeys.contains("0x8002") && pkeys.contains("0x7fff"), pkeys.constData());
        const QByteArray path = tool(QStringLiteral("saquery --src-to-dst 10:12"));
        QVERIFY2(path.contains("PathRecord dump") && path.contains("0x8002"), path.constData());
        const QByteArray lft = tool(QStringLiteral("ibroute 7"));
        QVERIFY2(lft.contains("(L1 leaf 2)") && lft.contains("'host 0009'"), lft.constData());

        QCOMPARE(::kill(pid_t(lab.processId()), SIGTERM), 0);
        QVERIFY(lab.waitForFinished(60000));
        QCOMPARE(lab.exitCode(), 128 + SIGTERM);
    }
};

QTEST_GUILESS_MAIN(TestLabTutorial)
#include "tst_lab_tutorial.moc"
