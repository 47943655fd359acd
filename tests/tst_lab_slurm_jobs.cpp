// Partitions that follow Slurm's jobs (issue 47): `weft serve --job-pkeys` on a lab subnet, and
// the packaged controller prolog and epilog run as slurmctld runs them, with the environment
// Slurm documents (SLURM_JOB_ID, SLURM_JOB_NODELIST, SLURM_JOB_USER) and their configuration
// file. Two jobs on disjoint hosts get two partitions, P_Keys of the pool; `smpquery pkeys` shows
// each job's P_Key on its hosts and on no other; a repeated prolog changes nothing and answers
// the same P_Key; the epilog takes both away from the ports; the journal names both jobs and
// their users. A prolog the service cannot serve fails (on_failure=hold) or lets the job run
// (on_failure=run), saying which.

#include "LabTools.h"
#include "ServeLab.h"
#include "TenantTrees.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <map>
#include <set>

using namespace weft;

namespace {

struct ScriptRun
{
    int exitCode = -1;
    QByteArray err;
};

}  // namespace

class TestLabSlurmJobs : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<test::ServeLab> m_lab;
    QString m_prolog, m_epilog, m_conf;
    std::map<QString, QString> m_hostOf;  // Slurm name -> node description, as the names map says
    std::map<QString, int> m_pkeyOf;      // job -> P_Key, from the prologs' answers

    QString serviceLog() const { return QString::fromUtf8(test::readAll(m_dir.filePath(QStringLiteral("serve.log"))).right(4000)); }

    // The script as slurmctld runs it: no arguments, the job in the environment.
    std::unique_ptr<QProcess> startScript(const QString &script, const QString &job, const QString &nodes, const QString &user, const QString &conf = {})
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("WEFT_SLURM_CONF"), conf.isEmpty() ? m_conf : conf);
        env.insert(QStringLiteral("SLURM_JOB_ID"), job);
        env.insert(QStringLiteral("SLURM_JOB_NODELIST"), nodes);
        env.insert(QStringLiteral("SLURM_JOB_USER"), user);
        env.insert(QStringLiteral("SLURM_SCRIPT_CONTEXT"), script == m_prolog ? QStringLiteral("prolog_slurmctld") : QStringLiteral("epilog_slurmctld"));
        auto p = std::make_unique<QProcess>();
        p->setProcessEnvironment(env);
        p->start(script, {});
        return p;
    }
    static ScriptRun finish(QProcess &p)
    {
        if (!p.waitForFinished(90000)) {
            p.kill();
            p.waitForFinished();
            return {};
        }
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2, p.readAllStandardError()};
    }
    ScriptRun runScript(const QString &script, const QString &job, const QString &nodes, const QString &user, const QString &conf = {})
    {
        return finish(*startScript(script, job, nodes, user, conf));
    }

    // Each host's job P_Keys (0x2000-0x2fff, membership bit dropped) by `smpquery pkeys`, by Slurm name.
    std::map<QString, std::set<int>> jobPKeysOnHosts()
    {
        std::map<QString, std::set<int>> held;
        Result<Fabric> live = test::discoverWithIbnetdiscover(*m_lab->sim, m_dir.filePath(QStringLiteral("live.topo")));
        if (!live) {
            qWarning("%s", qPrintable(live.error().toString()));
            return held;
        }
        std::map<QString, NodeIndex> byDescription;
        for (NodeIndex n : live->endNodes())
            byDescription[live->node(n).description] = n;
        for (const auto &[name, description] : m_hostOf) {
            const auto it = byDescription.find(description);
            if (it == byDescription.end()) {
                qWarning("no CA described \"%s\" in the lab", qPrintable(description));
                continue;
            }
            const auto pkeys = m_lab->sim->runClient(QStringLiteral("smpquery"), {QStringLiteral("pkeys"), QString::number(live->nodeLid(it->second)), QStringLiteral("1")});
            if (!pkeys || pkeys->exitCode != 0) {
                qWarning("smpquery pkeys for %s: %s", qPrintable(name), qPrintable(test::describe(pkeys)));
                continue;
            }
            std::set<int> &mine = held[name];
            for (int pkey : test::smpqueryPKeys(pkeys->out))
                if ((pkey & 0x7fff) >= 0x2000 && (pkey & 0x7fff) <= 0x2fff)
                    mine.insert(pkey & 0x7fff);
        }
        return held;
    }

    static int pkeyFromLog(const QByteArray &err)
    {
        const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("\"pkey\":\"(0x[0-9a-f]{4})\"")).match(QString::fromUtf8(err));
        return m.hasMatch() ? m.captured(1).toInt(nullptr, 16) : -1;
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (const QString problem = test::labToolsProblem(); !problem.isEmpty())
            QFAIL(qPrintable(problem));
        QVERIFY(m_dir.isValid());
        const QString script = QFINDTESTDATA("../packaging/slurm/weft-slurmctld-job");
        QVERIFY2(!script.isEmpty(), "packaging/slurm/weft-slurmctld-job not found");
        // Installed under the two names slurm.conf gives, as packaging/CMakeLists.txt installs it.
        m_prolog = m_dir.filePath(QStringLiteral("weft-prolog-slurmctld"));
        m_epilog = m_dir.filePath(QStringLiteral("weft-epilog-slurmctld"));
        QVERIFY(QFile::link(QFileInfo(script).absoluteFilePath(), m_prolog));
        QVERIFY(QFile::link(QFileInfo(script).absoluteFilePath(), m_epilog));

        // The lab's hosts named node01, node02, ... by their descriptions in a names map (the
        // generator describes them "host 0001", which names no host): the same tree ServeLab makes.
        const test::Tree tree = test::makeTree(FabricShapeKind::KaryNTree, 4, 2);
        QByteArray map = "# the lab's hosts\n";
        int number = 0;
        for (NodeIndex h : tree.generated.hosts) {
            const QString name = QStringLiteral("node%1").arg(++number, 2, 10, QLatin1Char('0'));
            const QString description = tree.generated.fabric.node(h).description;
            m_hostOf[name] = description;
            map += QStringLiteral("\"%1\" %2\n").arg(description, name).toUtf8();
        }
        QVERIFY2(number >= 6, "the lab has too few hosts for two jobs beside the SM hosts");
        const QString mapPath = m_dir.filePath(QStringLiteral("names.map"));
        QVERIFY(writeFileAtomically(mapPath, map, false));

        Result<std::unique_ptr<test::ServeLab>> lab = test::startServeLab(
            m_dir.path(), test::osmPluginDirectory(),
            {QStringLiteral("--job-pkeys"), QStringLiteral("0x2000-0x2fff"), QStringLiteral("--slurm-names"), mapPath});
        QVERIFY2(lab, lab ? "" : qPrintable(lab.error().toString()));
        m_lab = std::move(*lab);

        // slurmctld's credential: an operator, its token alone in a file.
        Result<QByteArray> token = test::addToken(m_lab->tokens, QStringLiteral("slurmctld"), QStringLiteral("operator"));
        QVERIFY2(token, token ? "" : qPrintable(token.error().toString()));
        const QString tokenFile = m_dir.filePath(QStringLiteral("slurm.token"));
        QVERIFY(writeFileAtomically(tokenFile, *token + '\n', false));
        m_conf = m_dir.filePath(QStringLiteral("slurm.conf"));
        QVERIFY(writeFileAtomically(m_conf, QStringLiteral("# the lab's service\nurl=%1\ntoken_file=%2\nca_cert=%3\ntimeout=60\non_failure=hold\n").arg(m_lab->url(), tokenFile, m_lab->cert).toUtf8(),
                                    false));
        // The tokens file is read again when it changes: the new credential is accepted soon.
        QVERIFY(QTest::qWaitFor([&] { return test::httpsCall(m_lab->cert, m_lab->url() + QStringLiteral("/api/v1/jobs"), "GET", *token).status == 200; }, 10000));
    }

    void twoJobsTwoPartitions()
    {
        // Hosts 2-3 and 4-5: neither the master's (node01) nor the standby's (the last). Both
        // prologs at once, as slurmctld runs them for jobs starting together: each waits its turn.
        const std::unique_ptr<QProcess> firstRun = startScript(m_prolog, QStringLiteral("1001"), QStringLiteral("node[02-03]"), QStringLiteral("alice"));
        const std::unique_ptr<QProcess> secondRun = startScript(m_prolog, QStringLiteral("1002"), QStringLiteral("node04,node05"), QStringLiteral("bob"));
        const ScriptRun first = finish(*firstRun);
        const ScriptRun second = finish(*secondRun);
        QVERIFY2(first.exitCode == 0, qPrintable(QString::fromUtf8(first.err) + serviceLog()));
        QVERIFY2(second.exitCode == 0, qPrintable(QString::fromUtf8(second.err) + serviceLog()));
        qInfo("%s%s", first.err.trimmed().constData(), second.err.trimmed().constData());
        m_pkeyOf[QStringLiteral("1001")] = pkeyFromLog(first.err);
        m_pkeyOf[QStringLiteral("1002")] = pkeyFromLog(second.err);
        // The pool's first two, one each, in whichever order the requests came.
        QCOMPARE((std::set<int>{m_pkeyOf[QStringLiteral("1001")], m_pkeyOf[QStringLiteral("1002")]}), (std::set<int>{0x2000, 0x2001}));

        // Each job's P_Key on its hosts, and on no other host.
        const std::map<QString, std::set<int>> held = jobPKeysOnHosts();
        QCOMPARE(held.size(), m_hostOf.size());
        for (const auto &[host, pkeys] : held) {
            std::set<int> expected;
            if (host == QLatin1String("node02") || host == QLatin1String("node03"))
                expected = {m_pkeyOf[QStringLiteral("1001")]};
            else if (host == QLatin1String("node04") || host == QLatin1String("node05"))
                expected = {m_pkeyOf[QStringLiteral("1002")]};
            QVERIFY2(pkeys == expected, qPrintable(QStringLiteral("%1 holds %2 job P_Keys").arg(host).arg(pkeys.size())));
        }

        // The service lists both jobs.
        const QJsonArray jobs = test::httpsCall(m_lab->cert, m_lab->url() + QStringLiteral("/api/v1/jobs"), "GET", m_lab->viewerToken)
                                    .json()
                                    .value(QStringLiteral("jobs"))
                                    .toArray();
        QCOMPARE(jobs.size(), 2);
    }

    void repeatedPrologChangesNothing()
    {
        const QByteArray journalBefore = test::httpsCall(m_lab->cert, m_lab->url() + QStringLiteral("/api/v1/journal"), "GET", m_lab->viewerToken).body;
        const ScriptRun again = runScript(m_prolog, QStringLiteral("1001"), QStringLiteral("node[02-03]"), QStringLiteral("alice"));
        QVERIFY2(again.exitCode == 0, qPrintable(QString::fromUtf8(again.err) + serviceLog()));
        QCOMPARE(pkeyFromLog(again.err), m_pkeyOf[QStringLiteral("1001")]);
        QVERIFY2(again.err.contains("\"changed\":false"), again.err.constData());
        const QByteArray journalAfter = test::httpsCall(m_lab->cert, m_lab->url() + QStringLiteral("/api/v1/journal"), "GET", m_lab->viewerToken).body;
        QCOMPARE(journalAfter, journalBefore);  // no commit
    }

    void failurePolicy()
    {
        // A host the fabric lacks: the service refuses; hold fails the prolog, run lets it pass.
        const ScriptRun held = runScript(m_prolog, QStringLiteral("1003"), QStringLiteral("node99"), QStringLiteral("carol"));
        QCOMPARE(held.exitCode, 1);
        QVERIFY2(held.err.contains("on_failure=hold") && held.err.contains("node99"), held.err.constData());
        const QString runConf = m_dir.filePath(QStringLiteral("slurm-run.conf"));
        QVERIFY(writeFileAtomically(runConf, test::readAll(m_conf).replace("on_failure=hold", "on_failure=run"), false));
        const ScriptRun ran = runScript(m_prolog, QStringLiteral("1003"), QStringLiteral("node99"), QStringLiteral("carol"), runConf);
        QCOMPARE(ran.exitCode, 0);
        QVERIFY2(ran.err.contains("on_failure=run"), ran.err.constData());
        // No service where the configuration says: within the time limit, the same.
        const QString deadConf = m_dir.filePath(QStringLiteral("slurm-dead.conf"));
        QVERIFY(writeFileAtomically(deadConf, test::readAll(m_conf).replace(m_lab->url().toUtf8(), "https://127.0.0.1:9").replace("timeout=60", "timeout=3"), false));
        const ScriptRun dead = runScript(m_prolog, QStringLiteral("1004"), QStringLiteral("node06"), QStringLiteral("carol"), deadConf);
        QCOMPARE(dead.exitCode, 1);
        QVERIFY2(dead.err.contains("did not answer"), dead.err.constData());
    }

    void epilogRemovesThem()
    {
        for (const auto &[job, user] : {std::pair{"1001", "alice"}, std::pair{"1002", "bob"}}) {
            const ScriptRun end = runScript(m_epilog, QLatin1String(job), QString(), QLatin1String(user));
            QVERIFY2(end.exitCode == 0, qPrintable(QString::fromUtf8(end.err) + serviceLog()));
        }
        const std::map<QString, std::set<int>> held = jobPKeysOnHosts();
        QCOMPARE(held.size(), m_hostOf.size());
        for (const auto &[host, pkeys] : held)
            QVERIFY2(pkeys.empty(), qPrintable(QStringLiteral("%1 still holds a job's P_Key").arg(host)));
        // An epilog of a job without a partition: nothing to do, and no failure.
        const ScriptRun none = runScript(m_epilog, QStringLiteral("1001"), QString(), QStringLiteral("alice"));
        QVERIFY2(none.exitCode == 0, none.err.constData());

        // The journal names both jobs, their users and the credential that asked.
        const QByteArray journal = test::httpsCall(m_lab->cert, m_lab->url() + QStringLiteral("/api/v1/journal"), "GET", m_lab->viewerToken).body;
        for (const char *said : {"Slurm job 1001 of user alice starts", "Slurm job 1002 of user bob starts",
                                 "Slurm job 1001 of user alice ends", "Slurm job 1002 of user bob ends", "slurmctld"})
            QVERIFY2(journal.contains(said), qPrintable(QStringLiteral("the journal lacks \"%1\"").arg(QLatin1String(said))));
    }
};

QTEST_GUILESS_MAIN(TestLabSlurmJobs)
#include "tst_lab_slurm_jobs.moc"
