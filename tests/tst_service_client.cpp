// The desk's client of a fabric service (app/remote/ServiceClient), against a small HTTPS
// endpoint in this process with self-signed certificates, no lab needed: the server's certificate
// read by a handshake alone, pinned on first use and only then sent a request and the credential, a changed certificate refused loudly
// with nothing sent, errors naming the service, the status and the service's own words, a silent
// service timed out, a client certificate shown, and a remote commit that sends only the plan
// whose figures the desk reviewed. Every call runs on a worker thread, as the session's do.

#include "ServiceClient.h"

#include "HttpListener.h"
#include "ProjectFile.h"
#include "ServiceFormat.h"
#include "ServicePlan.h"
#include "TenantTrees.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QSslKey>
#include <QTemporaryDir>
#include <QtConcurrent>
#include <QtTest>

#include <memory>
#include <vector>

using namespace weft;
using remote::ServiceClient;
using remote::ServiceContact;
using remote::ServiceCredential;

namespace {

const QByteArray kToken = "weft_test-token-of-alice";

bool openssl(const QStringList &args, QByteArray *out = nullptr)
{
    QProcess p;
    p.start(QStringLiteral("openssl"), args);
    const bool ok = p.waitForFinished(60000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    if (out)
        *out = p.readAllStandardOutput();
    return ok;
}

// A blocking client call made on a worker thread while this thread serves the endpoint.
template <typename Call>
auto onWorker(Call call)
{
    auto future = QtConcurrent::run(std::move(call));
    if (!QTest::qWaitFor([&] { return future.isFinished(); }, 60000))
        qFatal("a client call did not end within a minute");
    return future.result();
}

}  // namespace

class TestServiceClient : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<net::HttpListener> m_listener;
    std::vector<net::HttpRequest> m_seen;
    std::vector<std::shared_ptr<net::HttpResponder>> m_unanswered;
    std::function<net::HttpReply(const net::HttpRequest &)> m_answer;
    quint16 m_port = 0;

    QString path(const QString &name) const { return m_dir.filePath(name); }
    QString known() const { return path(QStringLiteral("known_services")); }
    QString address() const { return QStringLiteral("127.0.0.1:%1").arg(m_port); }

    // `openssl x509 -fingerprint -sha256` of a certificate file, as the client writes it.
    static QString opensslFingerprint(const QString &pem)
    {
        QByteArray out;
        if (!openssl({QStringLiteral("x509"), QStringLiteral("-noout"), QStringLiteral("-fingerprint"), QStringLiteral("-sha256"),
                      QStringLiteral("-in"), pem},
                     &out))
            return {};
        return QString::fromLatin1(out.trimmed().mid(out.indexOf('=') + 1)).toLower();
    }

    QSslConfiguration serverTls(const QString &name) const
    {
        QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
        tls.setLocalCertificate(QSslCertificate::fromPath(path(name + QStringLiteral(".pem"))).value(0));
        QFile key(path(name + QStringLiteral(".key")));
        if (key.open(QIODevice::ReadOnly))
            tls.setPrivateKey(QSslKey(key.readAll(), QSsl::Rsa));
        // A client certificate reaches a request only when these CAs verify it: the desk's own.
        tls.setCaCertificates(QSslCertificate::fromPath(path(QStringLiteral("desk.pem"))));
        tls.setPeerVerifyMode(QSslSocket::QueryPeer);
        return tls;
    }

    // The endpoint, with the certificate `name`, on `port` (0: any free one). Every request is
    // kept; m_answer answers it, or nobody does when it is unset.
    bool serve(const QString &name, quint16 port = 0)
    {
        net::HttpLimits limits;
        limits.methods = {"GET", "HEAD", "POST", "PUT"};
        m_listener = std::make_unique<net::HttpListener>(limits);
        m_listener->setTls(serverTls(name));
        m_listener->setHandler([this](const net::HttpRequest &request, std::shared_ptr<net::HttpResponder> out) {
            m_seen.push_back(request);
            if (m_answer)
                out->reply(m_answer(request));
            else
                m_unanswered.push_back(std::move(out));
        });
        QString error;
        if (!m_listener->listen(QHostAddress::LocalHost, port, &error)) {
            qWarning("cannot listen: %s", qPrintable(error));
            return false;
        }
        m_port = m_listener->port();
        return true;
    }

    // The service's answers: status to a credential, 401 without one, as `weft serve` does.
    static net::HttpReply serviceAnswer(const net::HttpRequest &request)
    {
        if (request.header("authorization") != "Bearer " + kToken && request.peerCertificate.isNull())
            return {401, "application/json", R"({"error": "no valid credential: give a token or a client certificate"})",
                    "WWW-Authenticate: Bearer\r\n"};
        if (request.path == "/api/v1/status")
            return {200, "application/json", R"({"subnet": "lab", "you": {"name": "alice", "role": "admin"}})", {}};
        return {200, "application/json", R"({"entries": []})", {}};
    }

    ServiceClient client(ServiceCredential credential = {kToken, {}, {}}) const
    {
        return ServiceClient(address(), std::move(credential), known());
    }

    int requestsWithCredential() const
    {
        return int(std::count_if(m_seen.begin(), m_seen.end(), [](const net::HttpRequest &r) {
            return !r.header("authorization").isEmpty() || !r.peerCertificate.isNull();
        }));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        // Two certificates for the service (the one trusted and a replacement) and the desk's own.
        for (const char *name : {"first", "second", "desk"}) {
            const QString n = QLatin1String(name);
            QVERIFY(openssl({QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("rsa:2048"),
                             QStringLiteral("-nodes"), QStringLiteral("-subj"),
                             n == QStringLiteral("desk") ? QStringLiteral("/CN=desk") : QStringLiteral("/CN=localhost"),
                             QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-keyout"), path(n + QStringLiteral(".key")),
                             QStringLiteral("-out"), path(n + QStringLiteral(".pem"))}));
        }
    }

    void init()
    {
        m_listener.reset();
        m_seen.clear();
        m_unanswered.clear();
        m_answer = serviceAnswer;
    }

    void addresses_data()
    {
        QTest::addColumn<QString>("address");
        QTest::addColumn<QString>("hostPort");
        QTest::addColumn<QString>("url");
        QTest::addRow("host and port") << QStringLiteral("sm1:8443") << QStringLiteral("sm1:8443") << QStringLiteral("https://sm1:8443");
        QTest::addRow("a URL with a path") << QStringLiteral("https://sm1.example.org:9443/api/v1") << QStringLiteral("sm1.example.org:9443")
                                           << QStringLiteral("https://sm1.example.org:9443");
        QTest::addRow("plain http is made https") << QStringLiteral("http://10.0.0.7:8443") << QStringLiteral("10.0.0.7:8443")
                                                  << QStringLiteral("https://10.0.0.7:8443");
        QTest::addRow("no port") << QStringLiteral("sm1") << QStringLiteral("sm1:443") << QStringLiteral("https://sm1");
    }

    void addresses()
    {
        QFETCH(QString, address);
        QFETCH(QString, hostPort);
        QFETCH(QString, url);
        const ServiceClient c(address, {}, known());
        QCOMPARE(c.hostPort(), hostPort);
        QCOMPARE(c.url().toString(), url);
    }

    void theKnownServicesFileCanBeNamedByTheEnvironment()
    {
        const QByteArray before = qgetenv("WEFT_KNOWN_SERVICES");
        qputenv("WEFT_KNOWN_SERVICES", path(QStringLiteral("elsewhere")).toUtf8());
        QCOMPARE(ServiceClient::defaultKnownServicesPath(), path(QStringLiteral("elsewhere")));
        qunsetenv("WEFT_KNOWN_SERVICES");
        QVERIFY(ServiceClient::defaultKnownServicesPath().endsWith(QStringLiteral("/known_services")));
        if (!before.isEmpty())
            qputenv("WEFT_KNOWN_SERVICES", before);
    }

    void aFirstContactShowsTheCertificateAndSendsNoCredential()
    {
        QFile::remove(known());
        QVERIFY(serve(QStringLiteral("first")));
        ServiceClient c = client();
        const Result<ServiceContact> contact = onWorker([&c] { return c.contact(); });
        QVERIFY2(contact, contact ? "" : qPrintable(contact.error().toString()));
        QCOMPARE(contact->pin, ServiceContact::Pin::Unknown);
        QCOMPARE(contact->fingerprint, opensslFingerprint(path(QStringLiteral("first.pem"))));
        QCOMPARE(contact->certificate.subjectInfo(QSslCertificate::CommonName).value(0), QStringLiteral("localhost"));
        QVERIFY(contact->status.isEmpty());
        QVERIFY(m_seen.empty());           // a handshake only: not a byte of HTTP to a stranger
        QVERIFY(!QFile::exists(known()));  // nothing is trusted before the operator says so

        // Before the pin, no call is made at all.
        const qsizetype seen = qsizetype(m_seen.size());
        const Result<QJsonObject> early = onWorker([&c] { return c.call("GET", QStringLiteral("fabric")); });
        QVERIFY(!early);
        QVERIFY2(early.error().message.contains(QStringLiteral("not pinned")), qPrintable(early.error().message));
        QCOMPARE(qsizetype(m_seen.size()), seen);
    }

    void aPinnedServiceGetsTheCredential()
    {
        QFile::remove(known());
        QVERIFY(serve(QStringLiteral("first")));
        ServiceClient c = client();
        const Result<ServiceContact> first = onWorker([&c] { return c.contact(); });
        QVERIFY(first);
        QVERIFY(c.pin(first->fingerprint));
        QFile file(known());
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY2(text.contains((address() + QLatin1Char(' ') + first->fingerprint + QLatin1Char('\n')).toUtf8()), text.constData());

        // Known now, though the certificate is self-signed and names another host: the pin is the trust.
        const Result<ServiceContact> again = onWorker([&c] { return c.contact(); });
        QVERIFY2(again, again ? "" : qPrintable(again.error().toString()));
        QCOMPARE(again->pin, ServiceContact::Pin::Known);
        QCOMPARE(again->status.value(QStringLiteral("subnet")).toString(), QStringLiteral("lab"));
        QCOMPARE(m_seen.back().header("authorization"), "Bearer " + kToken);
        QCOMPARE(m_seen.back().path, QByteArray("/api/v1/status"));
        QVERIFY(m_seen.back().secure);

        // Another client of the same service reads the pin from the file; a query reaches the service.
        ServiceClient other = client();
        const Result<QJsonObject> journal = onWorker([&other] { return other.call("GET", QStringLiteral("telemetry?since=1700000000")); });
        QVERIFY2(journal, journal ? "" : qPrintable(journal.error().toString()));
        QCOMPARE(m_seen.back().path, QByteArray("/api/v1/telemetry"));
        QCOMPARE(m_seen.back().query, QByteArray("since=1700000000"));
    }

    void aChangedCertificateIsRefusedLoudly()
    {
        // Trusted with the first certificate...
        QFile::remove(known());
        QVERIFY(serve(QStringLiteral("first")));
        const quint16 port = m_port;
        ServiceClient c = client();
        const Result<ServiceContact> first = onWorker([&c] { return c.contact(); });
        QVERIFY(first && c.pin(first->fingerprint));
        // ...the same address now shows another.
        m_listener.reset();
        m_seen.clear();
        QVERIFY(serve(QStringLiteral("second"), port));
        const QString second = opensslFingerprint(path(QStringLiteral("second.pem")));
        const Result<ServiceContact> contact = onWorker([&c] { return c.contact(); });
        QVERIFY2(contact, contact ? "" : qPrintable(contact.error().toString()));
        QCOMPARE(contact->pin, ServiceContact::Pin::Changed);
        QCOMPARE(contact->pinned, first->fingerprint);
        QCOMPARE(contact->fingerprint, second);
        QVERIFY(contact->status.isEmpty());
        QVERIFY(m_seen.empty());

        // A call is not even sent, and the error says why as ssh does.
        const qsizetype seen = qsizetype(m_seen.size());
        const Result<QJsonObject> refused = onWorker([&c] { return c.call("POST", QStringLiteral("plans"), QJsonObject{{QStringLiteral("lfts"), QString()}}); });
        QVERIFY(!refused);
        const QString message = refused.error().message;
        QVERIFY2(message.contains(QStringLiteral("CERTIFICATE HAS CHANGED")) && message.contains(first->fingerprint) && message.contains(second)
                     && message.contains(address()) && message.contains(known()),
                 qPrintable(message));
        QCOMPARE(qsizetype(m_seen.size()), seen);
        QCOMPARE(requestsWithCredential(), 0);
    }

    void aCertificateThatVerifiesIsStillHeldToThePin()
    {
        // The service's certificate is one the system's CAs vouch for, for the name connected to:
        // no TLS error at all, and still nothing goes to it unless it is the one pinned.
        const QSslConfiguration systemDefault = QSslConfiguration::defaultConfiguration();
        QSslConfiguration trusting = systemDefault;
        trusting.setCaCertificates(QSslCertificate::fromPath(path(QStringLiteral("first.pem")))
                                   + QSslCertificate::fromPath(path(QStringLiteral("second.pem"))));
        QSslConfiguration::setDefaultConfiguration(trusting);
        const auto restore = qScopeGuard([&] { QSslConfiguration::setDefaultConfiguration(systemDefault); });
        QFile::remove(known());
        QVERIFY(serve(QStringLiteral("second")));
        ServiceClient c(QStringLiteral("localhost:%1").arg(m_port), ServiceCredential{kToken, {}, {}}, known());
        QVERIFY(c.pin(opensslFingerprint(path(QStringLiteral("first.pem")))));
        const Result<ServiceContact> contact = onWorker([&c] { return c.contact(); });
        QVERIFY2(contact, contact ? "" : qPrintable(contact.error().toString()));
        QCOMPARE(contact->pin, ServiceContact::Pin::Changed);
        const Result<QJsonObject> refused = onWorker([&c] { return c.call("GET", QStringLiteral("journal")); });
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.contains(QStringLiteral("CERTIFICATE HAS CHANGED")), qPrintable(refused.error().message));
        QVERIFY(m_seen.empty());

        // Pinned, it is talked to.
        QVERIFY(c.pin(contact->fingerprint));
        const Result<ServiceContact> known = onWorker([&c] { return c.contact(); });
        QVERIFY2(known, known ? "" : qPrintable(known.error().toString()));
        QCOMPARE(known->pin, ServiceContact::Pin::Known);
        QCOMPARE(m_seen.size(), std::size_t(1));
        QCOMPARE(m_seen.back().header("authorization"), "Bearer " + kToken);
    }

    void errorsSayTheServiceTheStatusAndItsWords_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("said");
        QTest::addRow("401 no credential") << 401 << QByteArray(R"({"error": "no valid credential: give a token or a client certificate"})")
                                           << QStringLiteral("no valid credential: give a token or a client certificate");
        QTest::addRow("403 role too low") << 403 << QByteArray(R"({"error": "POST plans needs the operator role; victor is a viewer"})")
                                          << QStringLiteral("POST plans needs the operator role; victor is a viewer");
        QTest::addRow("409 stale plan") << 409 << QByteArray(R"({"error": "plan p3 was made before commit 7"})")
                                        << QStringLiteral("plan p3 was made before commit 7");
        QTest::addRow("500 not JSON") << 500 << QByteArray("the service fell over") << QStringLiteral("the service fell over");
    }

    void errorsSayTheServiceTheStatusAndItsWords()
    {
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        QFETCH(QString, said);
        QFile::remove(known());
        QVERIFY(serve(QStringLiteral("first")));
        ServiceClient c = client();
        const Result<ServiceContact> first = onWorker([&c] { return c.contact(); });
        QVERIFY(first && c.pin(first->fingerprint));
        m_answer = [status, body](const net::HttpRequest &) { return net::HttpReply{status, "application/json", body, {}}; };
        const Result<QJsonObject> answer = onWorker([&c] { return c.call("POST", QStringLiteral("plans"), QJsonObject{{QStringLiteral("format"), QStringLiteral("weft-project")}}); });
        QVERIFY(!answer);
        const QString message = answer.error().message;
        QVERIFY2(message.contains(address()) && message.contains(QString::number(status)) && message.contains(said)
                     && message.contains(QStringLiteral("POST plans")),
                 qPrintable(message));
        // The status call on connecting surfaces the same way.
        const Result<ServiceContact> contact = onWorker([&c] { return c.contact(); });
        QVERIFY(!contact);
        QVERIFY2(contact.error().message.contains(said), qPrintable(contact.error().message));
    }

    void aSilentServiceTimesOut()
    {
        QFile::remove(known());
        QVERIFY(serve(QStringLiteral("first")));
        ServiceClient c = client();
        const Result<ServiceContact> first = onWorker([&c] { return c.contact(); });
        QVERIFY(first && c.pin(first->fingerprint));
        m_answer = nullptr;  // nobody answers
        QElapsedTimer clock;
        clock.start();
        const Result<QJsonObject> answer = onWorker([&c] { return c.call("GET", QStringLiteral("status"), {}, 800); });
        QVERIFY(!answer);
        QVERIFY2(answer.error().message.contains(address()) && answer.error().message.contains(QStringLiteral("no answer within")),
                 qPrintable(answer.error().message));
        QVERIFY2(clock.elapsed() < 10000, qPrintable(QString::number(clock.elapsed())));
        QVERIFY(!m_unanswered.empty());
    }

    void aClientCertificateIsTheCredential()
    {
        QFile::remove(known());
        QVERIFY(serve(QStringLiteral("first")));
        ServiceClient c = client(ServiceCredential{{}, path(QStringLiteral("desk.pem")), path(QStringLiteral("desk.key"))});
        const Result<ServiceContact> first = onWorker([&c] { return c.contact(); });
        QVERIFY(first);
        QVERIFY(m_seen.empty());  // neither the certificate nor a request for a service not yet trusted
        QVERIFY(c.pin(first->fingerprint));
        const Result<ServiceContact> again = onWorker([&c] { return c.contact(); });
        QVERIFY2(again, again ? "" : qPrintable(again.error().toString()));
        QCOMPARE(again->pin, ServiceContact::Pin::Known);
        QCOMPARE(m_seen.back().peerCertificate, QSslCertificate::fromPath(path(QStringLiteral("desk.pem"))).value(0));
        QVERIFY(m_seen.back().header("authorization").isEmpty());

        // A certificate or key that cannot be read is named, and nothing is sent.
        const qsizetype seen = qsizetype(m_seen.size());
        ServiceClient missing = client(ServiceCredential{{}, path(QStringLiteral("nowhere.pem")), path(QStringLiteral("desk.key"))});
        const Result<QJsonObject> noCertificate = onWorker([&missing] { return missing.call("GET", QStringLiteral("status")); });
        QVERIFY(!noCertificate);
        QVERIFY2(noCertificate.error().file.endsWith(QStringLiteral("nowhere.pem")), qPrintable(noCertificate.error().toString()));
        ServiceClient keyless = client(ServiceCredential{{}, path(QStringLiteral("desk.pem")), path(QStringLiteral("first.pem"))});
        const Result<QJsonObject> noKey = onWorker([&keyless] { return keyless.call("GET", QStringLiteral("status")); });
        QVERIFY(!noKey);
        QVERIFY2(noKey.error().file.endsWith(QStringLiteral("first.pem")) && noKey.error().message.contains(QStringLiteral("private key")),
                 qPrintable(noKey.error().toString()));
        QCOMPARE(qsizetype(m_seen.size()), seen);
    }

    void aRemoteCommitSendsOnlyThePlanReviewed_data()
    {
        QTest::addColumn<int>("smpsOff");
        QTest::addRow("the service counts as the desk did") << 0;
        QTest::addRow("the service counts otherwise") << 3;
    }

    void aRemoteCommitSendsOnlyThePlanReviewed()
    {
        QFETCH(int, smpsOff);
        // The desk's plan: a project routed on a small tree, counted against what it held.
        const test::Tree tree = test::makeTree(FabricShapeKind::KaryNTree, 4, 2);
        Result<ServicePlan> made = makeServicePlan(writeProject(tree.intent), tree.generated.fabric, HeldTables{}, PartitionsState{}, false);
        QVERIFY2(made, made ? "" : qPrintable(made.error().toString()));
        made->id = QStringLiteral("p1");
        QVERIFY(made->commit.madeFor);
        const long long smps = made->review.diff.smps();
        QVERIFY(smps > 0);

        QFile::remove(known());
        QVERIFY(serve(QStringLiteral("first")));
        ServiceClient c = client();
        const Result<ServiceContact> first = onWorker([&c] { return c.contact(); });
        QVERIFY(first && c.pin(first->fingerprint));
        m_seen.clear();
        CommitReport committed;
        committed.outcome = CommitOutcome::Committed;
        committed.diff = made->review.diff;
        m_answer = [&](const net::HttpRequest &request) -> net::HttpReply {
            if (request.method == "POST" && request.path == "/api/v1/plans") {
                QJsonObject plan = servicePlanJson(*made, QStringLiteral("open"), {});
                plan.insert(QStringLiteral("smps"), double(smps + smpsOff));
                return {201, "application/json", QJsonDocument(plan).toJson(), {}};
            }
            if (request.method == "POST" && request.path == "/api/v1/plans/p1/commit")
                return {200, "application/json", QJsonDocument(committed.toJson()).toJson(), {}};
            return {404, "application/json", R"({"error": "no such path"})", {}};
        };
        const RemoteTarget target = c.remoteTarget(QStringLiteral("lab"));
        QVERIFY(target.description.contains(QStringLiteral("subnet lab")) && target.description.contains(address()));
        QStringList progress;
        CommitOptions options;
        options.progress = [&progress](const QString &text) { progress << text; };
        const CommitReport report = onWorker([&] { return target.commit(made->commit, options); });

        QVERIFY(!m_seen.empty());
        QCOMPARE(m_seen.front().path, QByteArray("/api/v1/plans"));
        QCOMPARE(QJsonDocument::fromJson(m_seen.front().body).object(), planRequestJson(made->commit));
        if (smpsOff == 0) {
            QVERIFY2(report.ok(), qPrintable(report.toText()));
            QCOMPARE(report.diff.smps(), smps);
            QCOMPARE(m_seen.size(), std::size_t(2));
            QCOMPARE(m_seen.back().path, QByteArray("/api/v1/plans/p1/commit"));
            QCOMPARE(QJsonDocument::fromJson(m_seen.back().body).object().value(QStringLiteral("accept_violations")).toBool(true), false);
        } else {
            // Nothing committed: the service would install something else than was reviewed.
            QCOMPARE(report.outcome, CommitOutcome::Stale);
            QCOMPARE(m_seen.size(), std::size_t(1));
            const QString why = report.reasons.join(QLatin1Char('\n'));
            QVERIFY2(why.contains(QString::number(smps)) && why.contains(QString::number(smps + smpsOff)), qPrintable(why));
        }
    }
};

QTEST_MAIN(TestServiceClient)
#include "tst_service_client.moc"
