// `weft serve` on a lab subnet (issue 29): what a credential may do and what it may not, plans
// whose figures are `weft diff`'s, commits the switches then hold (read by dump_lfts and
// smpquery), the journal naming the credential, and a service that keeps sampling whatever its
// clients do: plain HTTP, malformed bodies, hundreds of connections, a reader that never reads.

#include "ServeLab.h"

#include "Commit.h"
#include "LftDump.h"
#include "ProjectFile.h"

#include <QJsonArray>
#include <QSslSocket>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>
#include <vector>

using namespace weft;

namespace {

QByteArray fileBytes(const QString &path)
{
    return test::readAll(path);
}

}  // namespace

class TestLabServe : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<test::ServeLab> m_lab;

    test::HttpAnswer call(const QByteArray &method, const QString &path, const QByteArray &token, const QByteArray &body = {})
    {
        return test::httpsCall(m_lab->cert, m_lab->url() + path, method, token, body);
    }
    QString serviceLog() const { return QString::fromUtf8(fileBytes(m_dir.filePath(QStringLiteral("serve.log"))).right(4000)); }
    double lastTick()
    {
        return call("GET", QStringLiteral("/api/v1/status"), m_lab->viewerToken)
            .json()
            .value(QStringLiteral("telemetry"))
            .toObject()
            .value(QStringLiteral("last_tick"))
            .toDouble();
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
    }

    void withoutACredentialNothing()
    {
        for (const QString &path : {QStringLiteral("/api/v1/fabric"), QStringLiteral("/api/v1/plans"), QStringLiteral("/metrics")}) {
            const test::HttpAnswer none = call("GET", path, {});
            QCOMPARE(none.status, 401);
            QVERIFY2(!none.body.contains("topology"), none.body.constData());
        }
        QCOMPARE(call("GET", QStringLiteral("/api/v1/fabric"), "weft_not-a-token").status, 401);
    }

    void plainHttpGetsNoData()
    {
        QTcpSocket plain;
        plain.connectToHost(QHostAddress::LocalHost, m_lab->port);
        QVERIFY(plain.waitForConnected(5000));
        plain.write("GET /api/v1/fabric HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + m_lab->viewerToken + "\r\n\r\n");
        QByteArray got;
        (void)QTest::qWaitFor([&] {
            got += plain.readAll();
            return plain.state() == QAbstractSocket::UnconnectedState;
        },
                              15000);
        got += plain.readAll();
        QCOMPARE(plain.state(), QAbstractSocket::UnconnectedState);
        QVERIFY2(!got.contains("HTTP/") && !got.contains("switches"), got.toHex().left(200).constData());
    }

    void viewerReadsAndIsRefusedPlansAndCommits()
    {
        const Fabric &fabric = m_lab->tree.generated.fabric;
        const test::HttpAnswer answer = call("GET", QStringLiteral("/api/v1/fabric"), m_lab->viewerToken);
        QCOMPARE(answer.status, 200);
        const QJsonObject read = answer.json();
        QCOMPARE(read.value(QStringLiteral("switches")).toInt(), int(fabric.switches().size()));
        QCOMPARE(read.value(QStringLiteral("hosts")).toInt(), int(fabric.channelAdapterCount()));
        QCOMPARE(read.value(QStringLiteral("links")).toInt(), int(fabric.links().size()));
        QVERIFY(read.value(QStringLiteral("topology")).toString().contains(QStringLiteral("Switch")));
        QCOMPARE(call("GET", QStringLiteral("/api/v1/tables"), m_lab->viewerToken).status, 200);

        const QByteArray project = fileBytes(m_lab->project);
        const test::HttpAnswer plan = call("POST", QStringLiteral("/api/v1/plans"), m_lab->viewerToken, project);
        QCOMPARE(plan.status, 403);
        QVERIFY2(plan.json().value(QStringLiteral("error")).toString().contains(QStringLiteral("operator")), plan.body.constData());
        QCOMPARE(call("POST", QStringLiteral("/api/v1/plans/p1/commit"), m_lab->viewerToken, "{}").status, 403);
        QCOMPARE(call("POST", QStringLiteral("/api/v1/recover"), m_lab->viewerToken, "{}").status, 403);
        QCOMPARE(call("PUT", QStringLiteral("/api/v1/mode"), m_lab->viewerToken, R"({"mode":"auto"})").status, 403);
    }

    // GET health: `weft check --json`'s object for the fabric the service discovered, with the
    // tables and P_Keys it holds (the lab's fabric is built as generated: clean); /metrics counts
    // the findings by severity.
    void healthIsWeftChecksReport()
    {
        const test::HttpAnswer health = call("GET", QStringLiteral("/api/v1/health"), m_lab->viewerToken);
        QCOMPARE(health.status, 200);
        const QJsonObject report = health.json();
        QCOMPARE(report.value(QStringLiteral("source")).toString(), QStringLiteral("live"));
        QCOMPARE(report.value(QStringLiteral("checks")).toVariant().toStringList(),
                 (QStringList{QStringLiteral("identities"), QStringLiteral("links"), QStringLiteral("tables"), QStringLiteral("partitions")}));
        QVERIFY2(report.value(QStringLiteral("clean")).toBool(), health.body.constData());
        QCOMPARE(report.value(QStringLiteral("errors")).toInt(-1), 0);
        QVERIFY(report.value(QStringLiteral("findings")).isArray());
        QCOMPARE(call("POST", QStringLiteral("/api/v1/health"), m_lab->adminToken, "{}").status, 405);
        QCOMPARE(call("GET", QStringLiteral("/api/v1/health"), {}).status, 401);
        const test::HttpAnswer metrics = call("GET", QStringLiteral("/metrics"), m_lab->viewerToken);
        QCOMPARE(metrics.status, 200);
        QVERIFY2(metrics.body.contains("\nweft_health_clean 1\n"), metrics.body.right(600).constData());
        QVERIFY2(metrics.body.contains("\nweft_health_findings_total{severity=\"error\"} 0\n"), metrics.body.right(600).constData());
    }

    void malformedBodyIs400AndChangesNothing()
    {
        const int plansBefore = call("GET", QStringLiteral("/api/v1/plans"), m_lab->viewerToken).json().value(QStringLiteral("plans")).toArray().size();
        const test::HttpAnswer bad = call("POST", QStringLiteral("/api/v1/plans"), m_lab->adminToken, "{\n  \"format\": \"weft-project\",\n  oops\n}");
        QCOMPARE(bad.status, 400);
        QVERIFY2(bad.json().value(QStringLiteral("where")).toString().contains(QStringLiteral("line 3")), bad.body.constData());
        const test::HttpAnswer notProject = call("POST", QStringLiteral("/api/v1/plans"), m_lab->adminToken, R"({"format": "something-else"})");
        QCOMPARE(notProject.status, 400);
        QCOMPARE(call("POST", QStringLiteral("/api/v1/plans/p1/commit"), m_lab->adminToken, "[1,").status, 404);  // no such plan yet
        QCOMPARE(call("GET", QStringLiteral("/api/v1/plans"), m_lab->viewerToken).json().value(QStringLiteral("plans")).toArray().size(), plansBefore);
    }

    void adminPlansAsWeftDiffCountsAndCommits()
    {
        const QString dir = m_dir.path();
        // What the fabric holds now, as the service says, in files `weft diff` reads.
        const QJsonObject fabricJson = call("GET", QStringLiteral("/api/v1/fabric"), m_lab->viewerToken).json();
        const QJsonObject tables = call("GET", QStringLiteral("/api/v1/tables"), m_lab->viewerToken).json();
        const QString topology = dir + QStringLiteral("/served.topo"), held = dir + QStringLiteral("/held.lfts"),
                      heldPKeys = dir + QStringLiteral("/held.pkeys"), planned = dir + QStringLiteral("/planned.lfts"),
                      plannedConf = dir + QStringLiteral("/planned.conf");
        for (auto [path, text] : {std::pair{topology, fabricJson.value(QStringLiteral("topology")).toString()},
                                  std::pair{held, tables.value(QStringLiteral("lfts")).toString()},
                                  std::pair{heldPKeys, tables.value(QStringLiteral("pkeys")).toString()}})
            QVERIFY(writeFileAtomically(path, text.toUtf8(), false));

        // A second project (no tenants) planned first: committing the first makes it stale.
        Project plain = m_lab->tree.intent;
        plain.tenancy.partitions.clear();
        const test::HttpAnswer other = call("POST", QStringLiteral("/api/v1/plans"), m_lab->adminToken, writeProject(plain));
        QCOMPARE(other.status, 201);

        const test::HttpAnswer made = call("POST", QStringLiteral("/api/v1/plans"), m_lab->adminToken, fileBytes(m_lab->project));
        QVERIFY2(made.status == 201, made.body.left(2000).constData());
        const QJsonObject plan = made.json();
        QVERIFY(plan.value(QStringLiteral("valid")).toBool());
        QCOMPARE(plan.value(QStringLiteral("state")).toString(), QStringLiteral("open"));
        QVERIFY(plan.value(QStringLiteral("smps")).toDouble() > 0);
        QCOMPARE(plan.value(QStringLiteral("partitions")).toArray().size(), m_lab->tree.intent.tenancy.partitions.size() + 1);  // + Default

        // The same change counted by `weft diff` from files: the project's tables as `weft route`
        // computes them, the partitions.conf the plan installs.
        const test::Run routed = test::runWeft({QStringLiteral("route"), QStringLiteral("--project"), m_lab->project, QStringLiteral("--topology"),
                                                topology, QStringLiteral("--out"), planned});
        QVERIFY2(routed.exitCode == 0, routed.err.constData());
        QVERIFY(writeFileAtomically(plannedConf, plan.value(QStringLiteral("partitions_conf")).toString().toUtf8(), false));
        const test::Run diff = test::runWeft({QStringLiteral("diff"), QStringLiteral("--topology"), topology, QStringLiteral("--from"), held,
                                              QStringLiteral("--to"), planned, QStringLiteral("--partitions-from"), heldPKeys,
                                              QStringLiteral("--partitions-to"), plannedConf, QStringLiteral("--sm-port"),
                                              tables.value(QStringLiteral("sm_port")).toString(), QStringLiteral("--json")});
        QVERIFY2(diff.exitCode == 0, diff.err.constData());
        const QJsonObject counted = QJsonDocument::fromJson(diff.out).object();
        QCOMPARE(plan.value(QStringLiteral("changed_entries")).toDouble(), counted.value(QStringLiteral("changed_entries")).toDouble());
        QCOMPARE(plan.value(QStringLiteral("changed_blocks")).toDouble(), counted.value(QStringLiteral("changed_blocks")).toDouble());
        QCOMPARE(plan.value(QStringLiteral("pkey_blocks")).toInt(), counted.value(QStringLiteral("pkey_block_sets")).toInt());
        QCOMPARE(plan.value(QStringLiteral("smps")).toDouble(), counted.value(QStringLiteral("smps")).toDouble());

        // The commit, through the master and into the standby's files.
        const QString id = plan.value(QStringLiteral("id")).toString();
        const test::HttpAnswer committed = call("POST", QStringLiteral("/api/v1/plans/%1/commit").arg(id), m_lab->adminToken, R"({"accept_violations": true})");
        QVERIFY2(committed.status == 200, qPrintable(QString::fromUtf8(committed.body.left(3000)) + serviceLog()));
        QVERIFY2(committed.json().value(QStringLiteral("outcome")).toString() == QLatin1String("committed"), committed.body.left(3000).constData());
        QCOMPARE(call("GET", QStringLiteral("/api/v1/plans/%1").arg(id), m_lab->viewerToken).json().value(QStringLiteral("state")).toString(),
                 QStringLiteral("committed"));

        // The switches hold the plan (dump_lfts) and a member host its partition (smpquery).
        Result<Fabric> live = test::discoverWithIbnetdiscover(*m_lab->sim, dir + QStringLiteral("/after.topo"));
        QVERIFY2(live, live ? "" : qPrintable(live.error().toString()));
        Result<ForwardingTables> installed = test::installedTables(*m_lab->sim, *live);
        QVERIFY2(installed, installed ? "" : qPrintable(installed.error().toString()));
        Result<ForwardingTables> expected = readLftDumpFile(planned, &*live);
        QVERIFY(expected);
        const QStringList differences = compareReadBack(*live, *expected, *installed, PKeyTables{}, PKeyTables{});
        QVERIFY2(differences.isEmpty(), qPrintable(differences.join(QLatin1Char('\n'))));
        const Partition &tenant = m_lab->tree.intent.tenancy.partitions.front();
        const Guid member = tenant.members.front().guid;
        const PortIndex memberPort = live->portByGuid(member);
        QVERIFY(memberPort != kNoIndex);
        const NodeIndex host = live->port(memberPort).node;
        const auto pkeys = m_lab->sim->runClient(QStringLiteral("smpquery"), {QStringLiteral("pkeys"), QString::number(live->nodeLid(host)), QStringLiteral("1")});
        QVERIFY2(pkeys && pkeys->exitCode == 0, qPrintable(test::describe(pkeys)));
        QVERIFY2(test::smpqueryPKeys(pkeys->out).count(*tenant.pkey | 0x8000), pkeys->out.constData());

        // The plan made before the commit is stale now.
        const QString otherId = other.json().value(QStringLiteral("id")).toString();
        const test::HttpAnswer late = call("POST", QStringLiteral("/api/v1/plans/%1/commit").arg(otherId), m_lab->adminToken, "{}");
        QCOMPARE(late.status, 409);

        // Planned again: nothing left to send.
        const test::HttpAnswer again = call("POST", QStringLiteral("/api/v1/plans"), m_lab->adminToken, fileBytes(m_lab->project));
        QCOMPARE(again.status, 201);
        QCOMPARE(again.json().value(QStringLiteral("smps")).toDouble(), 0.0);
        QCOMPARE(again.json().value(QStringLiteral("changed_entries")).toDouble(), 0.0);

        // The journal names the credential that committed.
        const QJsonArray entries = call("GET", QStringLiteral("/api/v1/journal"), m_lab->viewerToken).json().value(QStringLiteral("entries")).toArray();
        QVERIFY(!entries.isEmpty());
        const QJsonObject last = entries.last().toObject();
        QCOMPARE(last.value(QStringLiteral("user")).toString(), QStringLiteral("alice-admin"));
        QCOMPARE(last.value(QStringLiteral("outcome")).toString(), QStringLiteral("committed"));
    }

    void ticksGoOnWhateverClientsDo()
    {
        // The service samples every second; it must keep doing so while 200 connections stay
        // open without a word, an event stream's reader never reads, and a client sends its
        // headers a byte at a time.
        QVERIFY2(QTest::qWaitFor([&] { return lastTick() > 0; }, 30000), qPrintable(serviceLog()));
        const double before = lastTick();
        std::vector<std::unique_ptr<QTcpSocket>> idle;
        for (int i = 0; i < 200; ++i) {
            idle.push_back(std::make_unique<QTcpSocket>());
            idle.back()->connectToHost(QHostAddress::LocalHost, m_lab->port);
        }
        QSslSocket stream;
        stream.setPeerVerifyMode(QSslSocket::VerifyNone);
        stream.setReadBufferSize(1);
        stream.connectToHostEncrypted(QStringLiteral("127.0.0.1"), m_lab->port);
        QVERIFY(stream.waitForEncrypted(10000));
        stream.write("GET /api/v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + m_lab->viewerToken + "\r\n\r\n");
        QSslSocket dribble;
        dribble.setPeerVerifyMode(QSslSocket::VerifyNone);
        dribble.connectToHostEncrypted(QStringLiteral("127.0.0.1"), m_lab->port);
        QVERIFY(dribble.waitForEncrypted(10000));
        QTest::qWait(5000);
        for (const char c : QByteArray("GET /api/v1/status HTTP/1.1\r\n")) {
            dribble.write(&c, 1);
            QTest::qWait(50);
        }
        // Meanwhile a client with a credential is still answered, and the ticks went on.
        const double during = lastTick();
        QVERIFY2(during >= before + 3, qPrintable(QStringLiteral("last tick %1 s, before the flood %2 s\n").arg(during, 0, 'f', 1).arg(before, 0, 'f', 1) + serviceLog()));
        QCOMPARE(call("GET", QStringLiteral("/api/v1/fabric"), m_lab->viewerToken).status, 200);
        idle.clear();
    }

    void eventsTellTicks()
    {
        QSslSocket stream;
        stream.setPeerVerifyMode(QSslSocket::VerifyNone);
        stream.connectToHostEncrypted(QStringLiteral("127.0.0.1"), m_lab->port);
        QVERIFY(stream.waitForEncrypted(10000));
        stream.write("GET /api/v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + m_lab->viewerToken + "\r\n\r\n");
        QByteArray got;
        (void)QTest::qWaitFor([&] {
            got += stream.readAll();
            return got.count("event: tick") >= 2;
        },
                              15000);
        QVERIFY2(got.startsWith("HTTP/1.1 200"), got.left(300).constData());
        QVERIFY2(got.contains("text/event-stream"), got.left(300).constData());
        QVERIFY2(got.count("event: tick") >= 2, got.left(600).constData());
    }

    void historyAndMetrics()
    {
        // The ticks went into the history, read back with ?since=; /metrics serves the latest.
        const test::HttpAnswer history = call("GET", QStringLiteral("/api/v1/telemetry?since=0"), m_lab->viewerToken);
        QCOMPARE(history.status, 200);
        const QJsonArray samples = history.json().value(QStringLiteral("samples")).toArray();
        QVERIFY2(!samples.isEmpty(), history.body.left(500).constData());
        QVERIFY(samples.first().toObject().value(QStringLiteral("guid")).toString().startsWith(QStringLiteral("0x")));
        const test::HttpAnswer latest = call("GET", QStringLiteral("/api/v1/telemetry"), m_lab->viewerToken);
        QCOMPARE(latest.status, 200);
        // Every cable's ports are read: at least one record per cable.
        QVERIFY(latest.json().value(QStringLiteral("ports")).toArray().size() >= qsizetype(m_lab->tree.generated.fabric.links().size()));
        QCOMPARE(call("GET", QStringLiteral("/api/v1/telemetry?since=yesterday"), m_lab->viewerToken).status, 400);
        const test::HttpAnswer metrics = call("GET", QStringLiteral("/metrics"), m_lab->viewerToken);
        QCOMPARE(metrics.status, 200);
        QVERIFY2(metrics.body.contains("weft_"), metrics.body.left(300).constData());
    }

    // Last: it locks this address out for a minute.
    void failedAuthenticationsAreRateLimited()
    {
        // Ten failures from one address in a minute (the earlier tests' count too), then 429.
        int refused = 0;
        test::HttpAnswer limited;
        for (int i = 0; i < 11 && limited.status != 429; ++i) {
            limited = call("GET", QStringLiteral("/api/v1/status"), "weft_guess" + QByteArray::number(i));
            refused += limited.status == 401 ? 1 : 0;
        }
        QCOMPARE(limited.status, 429);
        QVERIFY2(refused >= 1 && refused <= 10, qPrintable(QString::number(refused)));
        QVERIFY2(limited.body.contains("too many failed"), limited.body.constData());
        // From this address, for now, even a valid credential waits.
        QCOMPARE(call("GET", QStringLiteral("/api/v1/status"), m_lab->viewerToken).status, 429);
        // The service went on sampling meanwhile.
        QVERIFY(m_lab->service->state() == QProcess::Running);
    }

    void cleanupTestCase() { m_lab.reset(); }
};

QTEST_GUILESS_MAIN(TestLabServe)
#include "tst_lab_serve.moc"
