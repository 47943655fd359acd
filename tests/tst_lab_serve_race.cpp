// `weft serve` on a lab subnet (ServeLab.h) with a discovery and a commit asked for at the same
// moment, twenty times. MAD work that overlapped once wedged the service (a commit `committing`
// for good, a discovery that never ended) or crashed it, and SIGTERM then hung. Here every
// request is answered, each within a minute (the second waits for the first on the session's one
// fabric link); a commit is refused only as stale, and only when the discovery ahead of it
// changed what the service holds; afterwards the switches hold what the journal's last commit
// says (dump_lfts, an independent reader); and SIGTERM, sent while a commit is stuck (both
// OpenSMs frozen) and a discovery waits behind it, ends the service within 10 s.

#include "ServeLab.h"

#include "Commit.h"
#include "LftDump.h"
#include "PartitionsConf.h"
#include "RoutingEngine.h"
#include "TopologyFile.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

using namespace weft;

namespace {

constexpr int kRounds = 20;
constexpr int kAnswerWithinMs = 60000;
constexpr qint64 kStopWithinMs = 10000;

// A thread joined however the test function ends (a failed QVERIFY returns early).
struct JoinedThread
{
    std::thread thread;
    template <class F>
    explicit JoinedThread(F f) : thread(std::move(f)) {}
    ~JoinedThread()
    {
        if (thread.joinable())
            thread.join();
    }
};

struct Request
{
    QByteArray method;
    QString url;
    QByteArray token, body;
};

// Both requests leave together: each on a thread of its own, released by one signal.
std::pair<test::HttpAnswer, test::HttpAnswer> together(const QString &cert, const Request &a, const Request &b)
{
    std::mutex mutex;
    std::condition_variable go;
    int ready = 0;
    bool started = false;
    const auto send = [&](const Request &r, test::HttpAnswer *answer) {
        {
            std::unique_lock<std::mutex> lock(mutex);
            ++ready;
            go.notify_all();
            go.wait(lock, [&] { return started; });
        }
        *answer = test::httpsCall(cert, r.url, r.method, r.token, r.body, kAnswerWithinMs);
    };
    test::HttpAnswer first, second;
    std::thread one(send, a, &first), two(send, b, &second);
    {
        std::unique_lock<std::mutex> lock(mutex);
        go.wait(lock, [&] { return ready == 2; });
        started = true;
    }
    go.notify_all();
    one.join();
    two.join();
    return {first, second};
}

}  // namespace

class TestLabServeRace : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<test::ServeLab> m_lab;
    // The fabric as the service discovered it: the tables planned are in its LIDs.
    std::unique_ptr<Fabric> m_served;
    QByteArray m_partitions;  // the partitions.conf in force, planned unchanged every round

    test::HttpAnswer call(const QByteArray &method, const QString &path, const QByteArray &token, const QByteArray &body = {})
    {
        return test::httpsCall(m_lab->cert, m_lab->url() + path, method, token, body, kAnswerWithinMs);
    }
    QString serviceLog() const { return QString::fromUtf8(test::readAll(m_dir.filePath(QStringLiteral("serve.log"))).right(4000)); }

    QByteArray tablesOf(const QString &engine)
    {
        Result<Routing> routed = routeFabric(engine, *m_served, Tenancy{});
        if (!routed)
            qFatal("%s", qPrintable(routed.error().toString()));
        return writeLftDump(routed->tables, m_served.get(), LftDumpForm::Compact);
    }

    QByteArray planBody(const QByteArray &lfts, const QString &summary) const
    {
        return QJsonDocument(QJsonObject{{QStringLiteral("lfts"), QString::fromUtf8(lfts)},
                                         {QStringLiteral("partitions"), QString::fromUtf8(m_partitions)},
                                         {QStringLiteral("summary"), summary}})
            .toJson(QJsonDocument::Compact);
    }

    // What the switches hold, read by dump_lfts, against the tables of `dump`: the differences.
    QStringList switchesAgainst(const QByteArray &dump)
    {
        Result<Fabric> live = test::discoverWithIbnetdiscover(*m_lab->sim, m_dir.filePath(QStringLiteral("after.topo")));
        if (!live)
            return {live.error().toString()};
        Result<ForwardingTables> installed = test::installedTables(*m_lab->sim, *live);
        if (!installed)
            return {installed.error().toString()};
        Result<ForwardingTables> expected = readLftDump(dump, QStringLiteral("planned"), &*live);
        if (!expected)
            return {expected.error().toString()};
        return compareReadBack(*live, *expected, *installed, PKeyTables{}, PKeyTables{});
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (const QString problem = test::labToolsProblem(); !problem.isEmpty())
            QFAIL(qPrintable(problem));
        QVERIFY(m_dir.isValid());
        Result<std::unique_ptr<test::ServeLab>> lab = test::startServeLab(m_dir.path(), test::osmPluginDirectory());
        QVERIFY2(lab, lab ? "" : qPrintable(lab.error().toString()));
        m_lab = std::move(*lab);
        const test::HttpAnswer fabric = call("GET", QStringLiteral("/api/v1/fabric"), m_lab->viewerToken);
        QCOMPARE(fabric.status, 200);
        Result<Fabric> served = readTopology(fabric.json().value(QStringLiteral("topology")).toString().toUtf8(), QStringLiteral("served"));
        QVERIFY2(served, served ? "" : qPrintable(served.error().toString()));
        m_served = std::make_unique<Fabric>(std::move(*served));
        m_partitions = test::readAll(m_lab->sm1.partitions);
        QVERIFY(!m_partitions.isEmpty());
    }

    void discoveryAndCommitAtOnce()
    {
        // Two table sets, in pairs (minhop twice, ftree twice, ...): the first of each pair
        // changes the tables, the second commits what is there already.
        const QByteArray tables[] = {tablesOf(QStringLiteral("minhop")), tablesOf(QStringLiteral("ftree"))};
        const QString engines[] = {QStringLiteral("minhop"), QStringLiteral("ftree")};
        QByteArray lastCommitted;  // the dump of the last commit answered "committed"
        QString lastSummary;
        int committed = 0, stale = 0, changing = 0;
        for (int round = 0; round < kRounds; ++round) {
            const int set = (round / 2) % 2;
            const QString summary = QStringLiteral("race round %1 (%2)").arg(round).arg(engines[set]);
            const test::HttpAnswer made = call("POST", QStringLiteral("/api/v1/plans"), m_lab->adminToken, planBody(tables[set], summary));
            QVERIFY2(made.status == 201, qPrintable(QString::fromUtf8(made.body.left(2000)) + serviceLog()));
            const QJsonObject plan = made.json();
            const QString id = plan.value(QStringLiteral("id")).toString();
            changing += plan.value(QStringLiteral("changed_entries")).toDouble() > 0 ? 1 : 0;

            const Request discover{"POST", m_lab->url() + QStringLiteral("/api/v1/discover"), m_lab->adminToken, "{}"};
            const Request commit{"POST", m_lab->url() + QStringLiteral("/api/v1/plans/%1/commit").arg(id), m_lab->adminToken, "{}"};
            QElapsedTimer clock;
            clock.start();
            // Which leaves first alternates, so that each waits for the other in turn.
            auto [first, second] = round % 2 ? together(m_lab->cert, commit, discover) : together(m_lab->cert, discover, commit);
            const test::HttpAnswer discovered = round % 2 ? second : first, commitAnswer = round % 2 ? first : second;
            const QString where = QStringLiteral("round %1 (%2 ms): discover %3 %4, commit %5 %6\n")
                                      .arg(round)
                                      .arg(clock.elapsed())
                                      .arg(discovered.status)
                                      .arg(QString::fromUtf8(discovered.body.left(300)))
                                      .arg(commitAnswer.status)
                                      .arg(QString::fromUtf8(commitAnswer.body.left(600)))
                + serviceLog();
            // Answered, both: no hang, no crash.
            QVERIFY2(m_lab->service->state() == QProcess::Running, qPrintable(where));
            QVERIFY2(discovered.status == 200, qPrintable(where));
            const QJsonObject status = call("GET", QStringLiteral("/api/v1/status"), m_lab->viewerToken).json();
            QVERIFY2(!status.value(QStringLiteral("committing")).toBool(), qPrintable(where));
            QVERIFY2(!status.value(QStringLiteral("discovering")).toBool(), qPrintable(where));
            if (commitAnswer.status == 200) {
                // The commit ran, before the discovery or after it: it installed the plan.
                QVERIFY2(commitAnswer.json().value(QStringLiteral("outcome")).toString() == QLatin1String("committed"), qPrintable(where));
                QCOMPARE(commitAnswer.json().value(QStringLiteral("plan")).toString(), id);
                lastCommitted = tables[set];
                lastSummary = summary;
                ++committed;
            } else {
                // Refused before writing, and only because the discovery that got in first
                // changed what the service holds (the plan's generations are no longer its own).
                QVERIFY2(commitAnswer.status == 409, qPrintable(where));
                const QString error = commitAnswer.json().value(QStringLiteral("error")).toString();
                QVERIFY2(error.contains(QStringLiteral("the fabric was discovered again since the plan was made"))
                             || error.contains(QStringLiteral("what the fabric holds changed since the plan was made")),
                         qPrintable(where));
                const QJsonObject planNow = call("GET", QStringLiteral("/api/v1/plans/%1").arg(id), m_lab->viewerToken).json();
                QCOMPARE(planNow.value(QStringLiteral("state")).toString(), QStringLiteral("stale"));
                QVERIFY2(planNow.value(QStringLiteral("held_generation")).toDouble() != status.value(QStringLiteral("held_generation")).toDouble()
                             || planNow.value(QStringLiteral("fabric_generation")).toDouble() != status.value(QStringLiteral("fabric_generation")).toDouble(),
                         qPrintable(where));
                ++stale;
            }
        }
        qInfo("%d rounds: %d commits, %d refused as stale, %d plans changing the tables", kRounds, committed, stale, changing);
        QVERIFY(committed > 0);
        QVERIFY(changing > 0);

        // The journal's last commit is the last one answered, finished (committed or rolled back).
        const QJsonArray entries = call("GET", QStringLiteral("/api/v1/journal"), m_lab->viewerToken).json().value(QStringLiteral("entries")).toArray();
        QJsonObject last;
        for (const QJsonValue &e : entries)
            if (e.toObject().value(QStringLiteral("kind")).toString(QStringLiteral("commit")) == QLatin1String("commit"))
                last = e.toObject();
        QVERIFY2(!last.isEmpty(), qPrintable(serviceLog()));
        const QString outcome = last.value(QStringLiteral("outcome")).toString();
        QVERIFY2(outcome == QLatin1String("committed") || outcome == QLatin1String("rolled-back"), QJsonDocument(last).toJson().constData());
        // The plan's summary, then what the commit adds ("; 8 switch tables; partitions: ...").
        QVERIFY2(last.value(QStringLiteral("plan")).toString().startsWith(lastSummary + QLatin1Char(';')), QJsonDocument(last).toJson().constData());
        QCOMPARE(outcome, QStringLiteral("committed"));  // every commit answered 200 said so
        // The switches hold it, as dump_lfts reads them; and the service says so too.
        const QStringList differences = switchesAgainst(lastCommitted);
        QVERIFY2(differences.isEmpty(), qPrintable(differences.join(QLatin1Char('\n'))));
        const test::HttpAnswer held = call("GET", QStringLiteral("/api/v1/tables"), m_lab->viewerToken);
        QCOMPARE(held.status, 200);
        const QStringList heldDifferences = switchesAgainst(held.json().value(QStringLiteral("lfts")).toString().toUtf8());
        QVERIFY2(heldDifferences.isEmpty(), qPrintable(heldDifferences.join(QLatin1Char('\n'))));
    }

    void sigtermEndsTheServiceWhileACommitIsStuck()
    {
        // The simulator and both OpenSMs frozen once the commit has started: it waits for answers
        // that do not come, and the discovery asked for meanwhile waits behind it. SIGTERM must
        // wait for neither.
        const test::HttpAnswer made = call("POST", QStringLiteral("/api/v1/plans"), m_lab->adminToken,
                                           planBody(tablesOf(QStringLiteral("updn")), QStringLiteral("race: the last one")));
        QVERIFY2(made.status == 201, made.body.left(2000).constData());
        const QString id = made.json().value(QStringLiteral("id")).toString();
        const pid_t frozen[] = {pid_t(m_lab->sim->ibsimPid()), pid_t(m_lab->sim->openSmPid()), pid_t(m_lab->sim->standbyPid())};
        struct Thaw
        {
            const pid_t *pids;
            ~Thaw()
            {
                for (int i = 0; i < 3; ++i)
                    ::kill(pids[i], SIGCONT);
            }
        } thaw{frozen};
        test::HttpAnswer discovered, committed;
        JoinedThread commit([&] { committed = call("POST", QStringLiteral("/api/v1/plans/%1/commit").arg(id), m_lab->adminToken, "{}"); });
        QVERIFY(QTest::qWaitFor([&] { return test::readAll(m_dir.filePath(QStringLiteral("serve.log"))).contains("Committing plan " + id.toUtf8()); }, 20000));
        for (pid_t pid : frozen)
            QCOMPARE(::kill(pid, SIGSTOP), 0);
        JoinedThread discover([&] { discovered = call("POST", QStringLiteral("/api/v1/discover"), m_lab->adminToken, "{}"); });
        // The discovery waits on the link behind the commit, and says it is discovering.
        QJsonObject status;
        QVERIFY2(QTest::qWaitFor([&] {
                     status = call("GET", QStringLiteral("/api/v1/status"), m_lab->viewerToken).json();
                     return status.value(QStringLiteral("discovering")).toBool();
                 },
                                 10000),
                 QJsonDocument(status).toJson().constData());
        QTest::qWait(1000);
        status = call("GET", QStringLiteral("/api/v1/status"), m_lab->viewerToken).json();
        const QJsonObject link = status.value(QStringLiteral("link")).toObject();
        const bool stuck = status.value(QStringLiteral("committing")).toBool();
        qInfo("before SIGTERM: %s", QJsonDocument(link).toJson(QJsonDocument::Compact).constData());
        if (stuck) {
            QCOMPARE(link.value(QStringLiteral("running")).toObject().value(QStringLiteral("kind")).toString(), QStringLiteral("commit"));
            QCOMPARE(link.value(QStringLiteral("queued")).toInt(), 1);
        }

        QElapsedTimer clock;
        clock.start();
        ::kill(pid_t(m_lab->service->processId()), SIGTERM);
        const bool ended = m_lab->service->waitForFinished(int(kStopWithinMs + 5000));
        const qint64 took = clock.elapsed();
        discover.thread.join();
        commit.thread.join();
        qInfo("SIGTERM ended weft serve in %lld ms (the commit %s; discover answered %d, commit %d)", took,
              stuck ? "stuck" : "already over", discovered.status, committed.status);
        QVERIFY2(ended && took <= kStopWithinMs, qPrintable(QStringLiteral("%1 ms\n").arg(took) + serviceLog()));
        QVERIFY2(serviceLog().contains(QStringLiteral("stopped (signal 15)")), qPrintable(serviceLog()));
        if (stuck)  // and it says what it left behind
            QVERIFY2(serviceLog().contains(QStringLiteral("left unfinished: commit: plan %1").arg(id)), qPrintable(serviceLog()));
    }

    void cleanupTestCase() { m_lab.reset(); }
};

QTEST_GUILESS_MAIN(TestLabServeRace)
#include "tst_lab_serve_race.moc"
