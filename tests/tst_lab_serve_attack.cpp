// `weft serve` on a lab subnet under attack (issue 44), on loopback, bounded in count and time:
// nothing is kept for a client before its credential holds (hundreds of unauthenticated clients
// declaring 64 MiB bodies, or holding back their heads, cost the service no memory and lock no
// admin out), a credential's event streams and connections are bounded and end within 2 s of its
// revocation, plans OpenSM could not install are refused before anything is written, every admin
// act is journalled under its credential's name, a tokens file that does not parse lets nobody in,
// the TLS policy (forward secrecy and AEAD only) and the systemd unit's exposure.
//
// The attackers connect from 127.0.0.2 to 127.0.0.9, so that the per-address limits (and the
// limit on failed authentications) fall on them, as they would on another host; the admin calls
// from 127.0.0.1 with curl.

#include "ServeLab.h"

#include "PartitionsConf.h"
#include "ProjectFile.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QSslSocket>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>
#include <vector>

using namespace weft;

namespace {

// The resident memory of a process, in bytes (VmRSS), or -1.
qint64 residentBytes(qint64 pid)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n'))
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').front().toLongLong() * 1024;
    return -1;
}

// One connection of an attacker (or a stream reader): TLS from `source`, not checking the
// server's certificate (an attacker does not care).
struct RawClient
{
    std::unique_ptr<QSslSocket> socket = std::make_unique<QSslSocket>();
    QByteArray received;
    bool sent = false;

    void open(const QHostAddress &source, quint16 port)
    {
        socket->setPeerVerifyMode(QSslSocket::VerifyNone);
        if (!source.isNull())
            socket->bind(source);
        socket->connectToHostEncrypted(QStringLiteral("127.0.0.1"), port);
    }
    void take() { received += socket->readAll(); }
    bool closed() const { return socket->state() == QAbstractSocket::UnconnectedState; }
};

}  // namespace

class TestLabServeAttack : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<test::ServeLab> m_lab;

    test::HttpAnswer call(const QByteArray &method, const QString &path, const QByteArray &token, const QByteArray &body = {},
                          int timeoutMs = 120000)
    {
        return test::httpsCall(m_lab->cert, m_lab->url() + path, method, token, body, timeoutMs);
    }
    QString serviceLog() const { return QString::fromUtf8(test::readAll(m_dir.filePath(QStringLiteral("serve.log"))).right(4000)); }

    // An admin's GET status with curl, run beside the event loop (the attackers' sockets keep
    // going meanwhile): its status and how long it took, in ms.
    std::pair<int, qint64> adminProbe()
    {
        QProcess curl;
        curl.start(QStringLiteral("curl"), {QStringLiteral("-sS"), QStringLiteral("--cacert"), m_lab->cert, QStringLiteral("-o"), QStringLiteral("/dev/null"),
                                            QStringLiteral("-w"), QStringLiteral("%{http_code}"), QStringLiteral("--max-time"), QStringLiteral("5"),
                                            QStringLiteral("-H"), QStringLiteral("Authorization: Bearer ") + QString::fromLatin1(m_lab->adminToken),
                                            m_lab->url() + QStringLiteral("/api/v1/status")});
        QElapsedTimer took;
        took.start();
        (void)QTest::qWaitFor([&] { return curl.state() == QProcess::NotRunning; }, 8000);
        if (curl.state() != QProcess::NotRunning) {
            curl.kill();
            curl.waitForFinished();
        }
        return {curl.readAllStandardOutput().trimmed().toInt(), took.elapsed()};
    }

    QJsonArray journal() { return call("GET", QStringLiteral("/api/v1/journal"), m_lab->adminToken).json().value(QStringLiteral("entries")).toArray(); }

private Q_SLOTS:
    void initTestCase()
    {
        if (const QString problem = test::labToolsProblem(); !problem.isEmpty())
            QFAIL(qPrintable(problem));
        QVERIFY(m_dir.isValid());
        Result<std::unique_ptr<test::ServeLab>> lab =
            test::startServeLab(m_dir.path(), qEnvironmentVariable("WEFT_OSM_PLUGIN_DIR", SimulatedFabric::weftOsmPluginDirectory()));
        QVERIFY2(lab, lab ? "" : qPrintable(lab.error().toString()));
        m_lab = std::move(*lab);
    }

    void unauthenticatedClientsCostNoMemoryAndLockNoAdminOut()
    {
        const qint64 pid = m_lab->service->processId();
        // Settled first: the first discovery and a few counter passes are behind it.
        QTest::qWait(3000);
        const qint64 before = residentBytes(pid);
        QVERIFY(before > 0);
        qint64 peak = before;

        // 256 clients declaring 64 MiB bodies, without a credential or with a wrong one, each
        // sending body bytes as fast as it may; and 256 holding back the end of their heads.
        std::vector<RawClient> clients(512);
        for (std::size_t i = 0; i < clients.size(); ++i)
            clients[i].open(QHostAddress(QStringLiteral("127.0.0.%1").arg(2 + i % 8)), m_lab->port);
        const QByteArray chunk(256 * 1024, 'x');
        QElapsedTimer clock;
        clock.start();
        int probes = 0, slowest = 0;
        QStringList failedProbes;
        qint64 nextProbe = 0;
        while (clock.elapsed() < 15000) {
            for (std::size_t i = 0; i < clients.size(); ++i) {
                RawClient &c = clients[i];
                if (!c.socket->isEncrypted())
                    continue;
                c.take();
                const bool declaring = i % 2 == 0;
                if (!c.sent) {
                    c.sent = true;
                    const QByteArray token = i % 4 == 0 ? QByteArray() : "Authorization: Bearer weft_wrong" + QByteArray::number(qulonglong(i)) + "\r\n";
                    c.socket->write(declaring ? "POST /api/v1/plans HTTP/1.1\r\nHost: x\r\n" + token + "Content-Type: application/json\r\nContent-Length: 67108864\r\n\r\n"
                                              : "POST /api/v1/plans HTTP/1.1\r\nHost: x\r\n" + token + "Content-Length: 67108864\r\n");
                }
                if (declaring && c.socket->encryptedBytesToWrite() + c.socket->bytesToWrite() < 1 << 20)
                    c.socket->write(chunk);
            }
            // Those turned away come back, as an attacker's would.
            for (std::size_t i = 0; i < clients.size(); ++i)
                if (clients[i].closed() && clients[i].sent) {
                    clients[i] = RawClient{};
                    clients[i].open(QHostAddress(QStringLiteral("127.0.0.%1").arg(2 + i % 8)), m_lab->port);
                }
            QTest::qWait(20);
            peak = std::max(peak, residentBytes(pid));
            if (clock.elapsed() >= nextProbe) {
                const auto [status, ms] = adminProbe();
                ++probes;
                slowest = std::max<int>(slowest, int(ms));
                if (status != 200 || ms > 2000)
                    failedProbes << QStringLiteral("at %1 ms: status %2 after %3 ms").arg(clock.elapsed()).arg(status).arg(ms);
                nextProbe = clock.elapsed() + 500;
            }
        }
        int unauthorized = 0, otherAnswers = 0;
        for (RawClient &c : clients) {
            c.take();
            unauthorized += c.received.startsWith("HTTP/1.1 401") || c.received.startsWith("HTTP/1.1 429") ? 1 : 0;
            otherAnswers += !c.received.isEmpty() && !c.received.startsWith("HTTP/1.1 401") && !c.received.startsWith("HTTP/1.1 429") ? 1 : 0;
        }
        clients.clear();
        const qint64 grew = peak - before;
        qInfo("resident memory %lld MB before, %lld MB at most under attack (+%lld MB); %d admin probes, slowest %d ms",
              before >> 20, peak >> 20, grew >> 20, probes, slowest);
        QVERIFY2(failedProbes.isEmpty(), qPrintable(failedProbes.join(QLatin1Char('\n')) + QLatin1Char('\n') + serviceLog()));
        QVERIFY(probes >= 10);
        QVERIFY2(grew <= 64ll << 20, qPrintable(QStringLiteral("the service grew by %1 MB").arg(grew >> 20)));
        QCOMPARE(otherAnswers, 0);  // none got anything but a refusal
        Q_UNUSED(unauthorized);
        QVERIFY(m_lab->service->state() == QProcess::Running);
    }

    void viewerBodiesAreBoundedByRole()
    {
        // A viewer reads: a body beyond its role's limit is refused from its head alone.
        const test::HttpAnswer big = call("POST", QStringLiteral("/api/v1/plans"), m_lab->viewerToken, QByteArray(100000, ' '));
        QCOMPARE(big.status, 413);
    }

    void streamsAreBoundedAndEndOnRevocation()
    {
        Result<QByteArray> token = test::addToken(m_lab->tokens, QStringLiteral("vera-viewer"), QStringLiteral("viewer"));
        QVERIFY2(token, token ? "" : qPrintable(token.error().toString()));
        // The service takes the new credential within its check of the file.
        QVERIFY(QTest::qWaitFor([&] { return call("GET", QStringLiteral("/api/v1/status"), *token).status == 200; }, 5000));

        std::vector<RawClient> streams(256);
        for (RawClient &s : streams)
            s.open(QHostAddress::LocalHost, m_lab->port);
        const bool settled = QTest::qWaitFor(
            [&] {
                int answered = 0;
                for (RawClient &s : streams) {
                    if (s.socket->isEncrypted() && !s.sent) {
                        s.sent = true;
                        s.socket->write("GET /api/v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + *token + "\r\n\r\n");
                    }
                    s.take();
                    answered += s.received.startsWith("HTTP/1.1 ") || s.closed() ? 1 : 0;
                }
                return answered == int(streams.size());
            },
            30000);
        QVERIFY2(settled, qPrintable(serviceLog()));
        std::vector<RawClient *> open;
        int refused = 0;
        for (RawClient &s : streams) {
            if (s.received.startsWith("HTTP/1.1 200"))
                open.push_back(&s);
            else if (s.received.startsWith("HTTP/1.1 429"))
                ++refused;
        }
        qInfo("256 event streams asked for by one viewer: %d opened, %d refused with 429", int(open.size()), refused);
        // The rest were refused (429: the credential's streams or connections), or closed unanswered
        // to make room while they had not yet shown a credential.
        QVERIFY(!open.empty());
        QVERIFY2(open.size() <= 8, qPrintable(QString::number(open.size())));
        QVERIFY(refused > 0);

        const auto [status, ms] = adminProbe();
        QCOMPARE(status, 200);
        QVERIFY2(ms <= 2000, qPrintable(QString::number(ms)));

        // Revoked: every stream of the viewer gets its last event and ends within 2 s.
        const test::Run revoked = test::runWeft({QStringLiteral("serve"), QStringLiteral("token"), QStringLiteral("revoke"), QStringLiteral("--tokens"),
                                                 m_lab->tokens, QStringLiteral("--name"), QStringLiteral("vera-viewer")});
        QCOMPARE(revoked.exitCode, 0);
        QElapsedTimer clock;
        clock.start();
        const bool ended = QTest::qWaitFor(
            [&] {
                bool all = true;
                for (RawClient *s : open) {
                    s->take();
                    all = all && s->closed() && s->received.contains("event: end");
                }
                return all;
            },
            5000);
        const qint64 took = clock.elapsed();
        qInfo("the revoked viewer's %d streams ended %lld ms after `weft serve token revoke`", int(open.size()), took);
        QVERIFY2(ended, open.front()->received.right(300).constData());
        QVERIFY2(took <= 2000, qPrintable(QString::number(took)));
        QVERIFY(open.front()->received.contains("revoked"));
        QCOMPARE(call("GET", QStringLiteral("/api/v1/status"), *token).status, 401);
    }

    void headOfEventsHasNoBody()
    {
        RawClient c;
        c.open(QHostAddress::LocalHost, m_lab->port);
        QVERIFY(c.socket->waitForEncrypted(10000));
        c.socket->write("HEAD /api/v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + m_lab->viewerToken + "\r\n\r\n");
        QVERIFY(QTest::qWaitFor(
            [&] {
                c.take();
                return c.closed();
            },
            10000));
        c.take();
        QVERIFY2(c.received.startsWith("HTTP/1.1 200"), c.received.constData());
        QVERIFY2(c.received.endsWith("\r\n\r\n"), c.received.constData());  // the head, nothing after it
    }

    void planIdsAreText()
    {
        const test::HttpAnswer odd = call("GET", QStringLiteral("/api/v1/plans/p1%2%00"), m_lab->viewerToken);
        QCOMPARE(odd.status, 404);
        const QString error = odd.json().value(QStringLiteral("error")).toString();
        QVERIFY2(error.contains(QStringLiteral("32 newer")) && !error.contains(QStringLiteral("%2 newer")), qPrintable(error));
    }

    void plansOpenSmCannotInstallAreRefused_data()
    {
        QTest::addColumn<QString>("extra");
        QTest::addColumn<QString>("reason");
        const Guid host = m_lab->tree.intent.tenancy.partitions.front().members.front().guid;
        QTest::addRow("P_Key 0x0000") << QStringLiteral("zero=0x0000: %1=full;\n").arg(guidText(host)) << QStringLiteral("partition zero has no P_Key");
        QTest::addRow("no P_Key") << QStringLiteral("none: %1=full;\n").arg(guidText(host)) << QStringLiteral("partition none has no P_Key");
        QString many;
        for (int i = 0; i < 70; ++i)
            many += QStringLiteral("t%1=0x%2: %3=full;\n").arg(i).arg(0x100 + i, 4, 16, QLatin1Char('0')).arg(guidText(host));
        QTest::addRow("70 P_Keys on one port") << many << QStringLiteral("more P_Keys than the ports hold");
    }

    void plansOpenSmCannotInstallAreRefused()
    {
        QFETCH(QString, extra);
        QFETCH(QString, reason);
        const QJsonObject tables = call("GET", QStringLiteral("/api/v1/tables"), m_lab->viewerToken).json();
        const QByteArray partitionsBefore = test::readAll(m_lab->sm1.partitions), routingBefore = test::readAll(m_lab->sm1.routing);
        const qsizetype journalBefore = journal().size();
        const QJsonObject body{{QStringLiteral("lfts"), tables.value(QStringLiteral("lfts"))},
                               {QStringLiteral("partitions"), QStringLiteral("Default=0x7fff, ipoib: ALL=full;\n") + extra}};
        const test::HttpAnswer made = call("POST", QStringLiteral("/api/v1/plans"), m_lab->adminToken, QJsonDocument(body).toJson());
        QVERIFY2(made.status == 201, made.body.left(2000).constData());
        const QJsonObject plan = made.json();
        QVERIFY2(plan.value(QStringLiteral("refusal")).toString().contains(reason), made.body.left(2000).constData());
        QCOMPARE(plan.value(QStringLiteral("valid")).toBool(), false);
        QCOMPARE(plan.value(QStringLiteral("state")).toString(), QStringLiteral("refused"));
        const test::HttpAnswer committed = call("POST", QStringLiteral("/api/v1/plans/%1/commit").arg(plan.value(QStringLiteral("id")).toString()),
                                                m_lab->adminToken, R"({"accept_violations": true})");
        QCOMPARE(committed.status, 409);
        QVERIFY2(committed.json().value(QStringLiteral("error")).toString().contains(reason), committed.body.constData());
        // Nothing written, nothing journalled (so nothing signalled).
        QCOMPARE(test::readAll(m_lab->sm1.partitions), partitionsBefore);
        QCOMPARE(test::readAll(m_lab->sm1.routing), routingBefore);
        QCOMPARE(journal().size(), journalBefore);
    }

    void adminActsAreJournalledUnderTheirName()
    {
        const QString before = call("GET", QStringLiteral("/api/v1/rules"), m_lab->viewerToken).json().value(QStringLiteral("text")).toString();
        for (const QByteArray &empty : {QByteArray("{}"), QByteArray(R"({"text": ""})"), QByteArray(R"({"text": 3})")}) {
            const test::HttpAnswer refused = call("PUT", QStringLiteral("/api/v1/rules"), m_lab->adminToken, empty);
            QCOMPARE(refused.status, 400);
        }
        const test::HttpAnswer broken = call("PUT", QStringLiteral("/api/v1/rules"), m_lab->adminToken, R"({"text": "rule x\n  when nonsense"})");
        QCOMPARE(broken.status, 400);
        QCOMPARE(call("GET", QStringLiteral("/api/v1/rules"), m_lab->viewerToken).json().value(QStringLiteral("text")).toString(), before);

        const QString rule = QStringLiteral("rule hot priority 5 cooldown 1h\n  when max(node[all].rx_gbps) > 20 for 20s\n  then reroute(engine=wftree, weights=learned(1m))\n");
        const test::HttpAnswer put = call("PUT", QStringLiteral("/api/v1/rules"), m_lab->adminToken, QJsonDocument(QJsonObject{{QStringLiteral("text"), rule}}).toJson());
        QVERIFY2(put.status == 200, put.body.constData());
        const test::HttpAnswer mode = call("PUT", QStringLiteral("/api/v1/mode"), m_lab->adminToken, R"({"mode": "approve"})");
        QVERIFY2(mode.status == 200, mode.body.constData());
        QCOMPARE(call("PUT", QStringLiteral("/api/v1/mode"), m_lab->adminToken, R"({"mode": "dry-run"})").status, 200);

        QJsonObject rulesAct, modeAct;
        for (const QJsonValue &v : journal()) {
            const QJsonObject e = v.toObject();
            if (e.value(QStringLiteral("kind")).toString() != QLatin1String("admin"))
                continue;
            if (e.value(QStringLiteral("outcome")).toString() == QLatin1String("rules"))
                rulesAct = e;
            if (e.value(QStringLiteral("outcome")).toString() == QLatin1String("mode") && e.value(QStringLiteral("plan")).toString().contains(QStringLiteral("approve")))
                modeAct = e;
        }
        QCOMPARE(rulesAct.value(QStringLiteral("user")).toString(), QStringLiteral("alice-admin"));
        QVERIFY(rulesAct.value(QStringLiteral("details")).toArray().last().toString().contains(QStringLiteral("rule hot")));
        QCOMPARE(modeAct.value(QStringLiteral("user")).toString(), QStringLiteral("alice-admin"));
        QCOMPARE(modeAct.value(QStringLiteral("details")).toArray().first().toString(), QStringLiteral("before: dry-run"));
        QCOMPARE(modeAct.value(QStringLiteral("details")).toArray().last().toString(), QStringLiteral("after: approve"));
    }

    void tlsIsForwardSecretAeadOnly_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<bool>("accepted");
        QTest::addRow("TLS 1.3") << QStringList{QStringLiteral("-tls1_3")} << true;
        QTest::addRow("ECDHE AES-GCM") << QStringList{QStringLiteral("-tls1_2"), QStringLiteral("-cipher"), QStringLiteral("ECDHE-RSA-AES128-GCM-SHA256")} << true;
        QTest::addRow("RSA key exchange, AES-GCM") << QStringList{QStringLiteral("-tls1_2"), QStringLiteral("-cipher"), QStringLiteral("AES256-GCM-SHA384@SECLEVEL=0")} << false;
        QTest::addRow("RSA key exchange, CBC-SHA1") << QStringList{QStringLiteral("-tls1_2"), QStringLiteral("-cipher"), QStringLiteral("AES128-SHA@SECLEVEL=0")} << false;
        QTest::addRow("ECDHE CBC-SHA1") << QStringList{QStringLiteral("-tls1_2"), QStringLiteral("-cipher"), QStringLiteral("ECDHE-RSA-AES128-SHA@SECLEVEL=0")} << false;
        QTest::addRow("TLS 1.1") << QStringList{QStringLiteral("-tls1_1"), QStringLiteral("-cipher"), QStringLiteral("DEFAULT@SECLEVEL=0")} << false;
    }

    void tlsIsForwardSecretAeadOnly()
    {
        QFETCH(QStringList, args);
        QFETCH(bool, accepted);
        QProcess client;
        client.start(QStringLiteral("openssl"), QStringList{QStringLiteral("s_client"), QStringLiteral("-connect"), QStringLiteral("127.0.0.1:%1").arg(m_lab->port),
                                                            QStringLiteral("-servername"), QStringLiteral("localhost")} + args);
        QVERIFY(client.waitForStarted());
        client.closeWriteChannel();
        QVERIFY(client.waitForFinished(20000));
        const QByteArray said = client.readAllStandardOutput() + client.readAllStandardError();
        const bool agreed = said.contains("Cipher is ") && !said.contains("Cipher is (NONE)");
        QVERIFY2(agreed == accepted, said.left(1500).constData());
    }

    void unreadableTokensFileLetsNobodyIn()
    {
        const QByteArray good = test::readAll(m_lab->tokens);
        QVERIFY(writeFileAtomically(m_lab->tokens, good.left(good.size() / 2), false));
        QVERIFY(QTest::qWaitFor([&] { return call("GET", QStringLiteral("/api/v1/status"), m_lab->adminToken).status == 503; }, 5000));
        const test::HttpAnswer closed = call("GET", QStringLiteral("/api/v1/status"), m_lab->adminToken);
        QVERIFY2(closed.json().value(QStringLiteral("error")).toString().contains(QStringLiteral("tokens file")), closed.body.constData());
        QVERIFY(writeFileAtomically(m_lab->tokens, good, false));
        QVERIFY(QTest::qWaitFor([&] { return call("GET", QStringLiteral("/api/v1/status"), m_lab->adminToken).status == 200; }, 5000));
        bool said = false;
        for (const QJsonValue &v : journal())
            said = said || v.toObject().value(QStringLiteral("outcome")).toString() == QLatin1String("credentials-unreadable");
        QVERIFY(said);
    }

    void systemdUnitIsHardened()
    {
        // The source's unit (a configured copy in the build tree may be older).
        const QString unit = QFileInfo(QStringLiteral(__FILE__)).absoluteDir().filePath(QStringLiteral("../packaging/weft-serve.service"));
        QVERIFY(QFileInfo::exists(unit));
        QTemporaryDir dir;
        const QString configured = dir.filePath(QStringLiteral("weft-serve.service"));
        QVERIFY(writeFileAtomically(configured, test::readAll(unit).replace("@WEFT_BINARY@", "/usr/bin/weft"), false));
        QProcess analyze;
        analyze.start(QStringLiteral("systemd-analyze"), {QStringLiteral("security"), QStringLiteral("--offline=yes"), configured});
        QVERIFY(analyze.waitForFinished(60000));
        const QString said = QString::fromUtf8(analyze.readAllStandardOutput() + analyze.readAllStandardError());
        static const QRegularExpression overall(QStringLiteral("Overall exposure level for weft-serve.service: ([0-9.]+)"));
        const QRegularExpressionMatch m = overall.match(said);
        QVERIFY2(m.hasMatch(), qPrintable(said.right(2000)));
        qInfo("systemd-analyze security: %s", qPrintable(m.captured(1)));
        QVERIFY2(m.captured(1).toDouble() <= 4.0, qPrintable(said.right(3000)));
        const QString text = QString::fromUtf8(test::readAll(unit));
        QVERIFY(text.contains(QStringLiteral("\nTimeoutStopSec=")));
        QVERIFY(text.contains(QStringLiteral("\nUser=weft")));
    }

    void cleanupTestCase() { m_lab.reset(); }
};

QTEST_GUILESS_MAIN(TestLabServeAttack)
#include "tst_lab_serve_attack.moc"
