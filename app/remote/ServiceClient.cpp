#include "ServiceClient.h"

#include "SafeFile.h"
#include "ServiceFormat.h"
#include "ServicePlan.h"
#include "TextReader.h"

#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSslConfiguration>
#include <QSslKey>
#include <QStandardPaths>
#include <QTimer>

namespace weft::remote {

namespace {

// The pins on file: host:port -> fingerprint.
std::map<QString, QString> readPins(const QString &path)
{
    std::map<QString, QString> pins;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return pins;
    for (const QByteArray &raw : file.readAll().split('\n')) {
        const QList<QByteArray> words = raw.simplified().split(' ');
        if (words.size() == 2 && !raw.startsWith('#'))
            pins[QString::fromUtf8(words[0])] = QString::fromUtf8(words[1]);
    }
    return pins;
}

struct Exchange
{
    int status = 0;
    QByteArray body;
    QString networkError;
    QSslCertificate peer;
    bool timedOut = false;
};

// The TLS settings of a request: the system's, with the client certificate and its key when the
// credential is one. A file that cannot be read is an error here rather than a handshake without
// a certificate that the service would answer with a puzzling 401.
Result<QSslConfiguration> tlsFor(const ServiceCredential &credential)
{
    QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
    if (credential.certificatePath.isEmpty())
        return tls;
    const QList<QSslCertificate> certificates = QSslCertificate::fromPath(credential.certificatePath);
    if (certificates.isEmpty())
        return Error{credential.certificatePath, 0, QStringLiteral("no PEM certificate could be read from it")};
    QFile keyFile(credential.keyPath.isEmpty() ? credential.certificatePath : credential.keyPath);
    if (!keyFile.open(QIODevice::ReadOnly))
        return Error{keyFile.fileName(), 0, QStringLiteral("the client certificate's key cannot be read: %1").arg(keyFile.errorString())};
    const QByteArray bytes = keyFile.readAll();
    QSslKey key(bytes, QSsl::Rsa);
    if (key.isNull())
        key = QSslKey(bytes, QSsl::Ec);
    if (key.isNull())
        return Error{keyFile.fileName(), 0, QStringLiteral("no unencrypted RSA or EC private key (PEM) in it")};
    tls.setLocalCertificate(certificates.front());
    tls.setPrivateKey(key);
    return tls;
}

}  // namespace

QString certificateFingerprint(const QSslCertificate &certificate)
{
    const QByteArray hex = certificate.digest(QCryptographicHash::Sha256).toHex();
    QStringList pairs;
    for (qsizetype i = 0; i < hex.size(); i += 2)
        pairs << QString::fromLatin1(hex.mid(i, 2));
    return pairs.join(QLatin1Char(':'));
}

ServiceClient::ServiceClient(const QString &address, ServiceCredential credential, QString knownServices)
    : m_credential(std::move(credential)), m_knownServices(knownServices.isEmpty() ? defaultKnownServicesPath() : std::move(knownServices))
{
    m_url = QUrl::fromUserInput(address.contains(QStringLiteral("://")) ? address : QStringLiteral("https://") + address);
    m_url.setScheme(QStringLiteral("https"));
    m_url.setPath({});
}

QString ServiceClient::defaultKnownServicesPath()
{
    const QString env = qEnvironmentVariable("WEFT_KNOWN_SERVICES");
    if (!env.isEmpty())
        return env;
    return QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) + QStringLiteral("/known_services");
}

QString ServiceClient::hostPort() const
{
    return QStringLiteral("%1:%2").arg(m_url.host()).arg(m_url.port(443));
}

// One request, blocking in this thread, sent only to a server whose certificate has the
// fingerprint `pinned` (then it is trusted whoever signed it, self-signed too). With no pin it is
// a probe: the handshake alone, to read the certificate, and nothing sent, not even the request
// line, before the operator has trusted it.
static Exchange exchange(const QUrl &url, const QByteArray &method, const QByteArray &body, const QByteArray &token,
                         const QSslConfiguration &tls, const QString &pinned, int timeoutMs)
{
    QNetworkAccessManager network;
    QNetworkRequest request(url);
    request.setTransferTimeout(timeoutMs);
    request.setSslConfiguration(tls);
    if (!token.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + token);
    if (!body.isNull())
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    QNetworkReply *reply = network.sendCustomRequest(request, method, body);
    Exchange result;
    QObject::connect(reply, &QNetworkReply::sslErrors, reply, [reply, &pinned, &result](const QList<QSslError> &) {
        result.peer = reply->sslConfiguration().peerCertificate();
        // A certificate no CA vouches for (or for another name) goes on only when it is the pinned one.
        if (!pinned.isEmpty() && certificateFingerprint(result.peer) == pinned)
            reply->ignoreSslErrors();
    });
    // Reached once the handshake succeeded, before any data is sent (QNetworkReply::encrypted).
    bool refusedPeer = false;
    QObject::connect(reply, &QNetworkReply::encrypted, reply, [reply, &pinned, &result, &refusedPeer] {
        result.peer = reply->sslConfiguration().peerCertificate();
        if (pinned.isEmpty() || certificateFingerprint(result.peer) != pinned) {
            refusedPeer = true;
            reply->abort();  // a probe; or a certificate a CA vouches for that is still not the one pinned
        }
    });
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    // The transfer timeout counts silence; this one, a little longer, catches a connection that
    // never gets as far as the transfer.
    QTimer::singleShot(timeoutMs + 1000, &loop, [reply] { reply->abort(); });
    if (!reply->isFinished())
        loop.exec();
    result.timedOut = (reply->error() == QNetworkReply::OperationCanceledError || reply->error() == QNetworkReply::TimeoutError) && !refusedPeer;
    result.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (reply->isOpen())
        result.body = reply->readAll();
    if (result.peer.isNull())
        result.peer = reply->sslConfiguration().peerCertificate();
    if (reply->error() != QNetworkReply::NoError && result.status == 0)
        result.networkError = reply->errorString();
    delete reply;
    return result;
}

Result<ServiceContact> ServiceClient::contact()
{
    ServiceContact contact;
    const std::map<QString, QString> pins = readPins(m_knownServices);
    const auto pinned = pins.find(hostPort());
    // First the certificate alone: a handshake, nothing sent.
    QUrl statusUrl = m_url;
    statusUrl.setPath(QStringLiteral("/api/v1/status"));
    const Exchange first = exchange(statusUrl, "GET", QByteArray(), QByteArray(), QSslConfiguration::defaultConfiguration(), QString(), 15000);
    if (first.peer.isNull())
        return Error{{}, 0, QStringLiteral("service %1: no TLS connection: %2").arg(hostPort(), first.networkError)};
    contact.certificate = first.peer;
    contact.fingerprint = certificateFingerprint(first.peer);
    if (pinned == pins.end())
        return contact;
    contact.pinned = pinned->second;
    if (pinned->second != contact.fingerprint) {
        contact.pin = ServiceContact::Pin::Changed;
        return contact;
    }
    contact.pin = ServiceContact::Pin::Known;
    Result<QJsonObject> answer = status();
    if (!answer)
        return answer.error();
    contact.status = std::move(*answer);
    return contact;
}

Status ServiceClient::pin(const QString &fingerprint)
{
    std::map<QString, QString> pins = readPins(m_knownServices);
    pins[hostPort()] = fingerprint;
    QByteArray text = "# Weft's pinned fabric services: host:port and the SHA-256 of its certificate\n";
    for (const auto &[where, print] : pins)
        text += where.toUtf8() + ' ' + print.toUtf8() + '\n';
    QDir().mkpath(QFileInfo(m_knownServices).absolutePath());
    return writeFileAtomically(m_knownServices, text);
}

Result<QJsonObject> ServiceClient::call(const QByteArray &method, const QString &path, const QJsonObject &body, int timeoutMs)
{
    const std::map<QString, QString> pins = readPins(m_knownServices);
    const auto pinned = pins.find(hostPort());
    if (pinned == pins.end())
        return Error{{}, 0, QStringLiteral("service %1: its certificate is not pinned (connect to it first)").arg(hostPort())};
    QUrl url = m_url;
    const qsizetype question = path.indexOf(QLatin1Char('?'));
    url.setPath(QStringLiteral("/api/v1/") + (question < 0 ? path : path.left(question)));
    if (question >= 0)
        url.setQuery(path.mid(question + 1));
    const QByteArray bytes = method == "GET" ? QByteArray() : QJsonDocument(body).toJson(QJsonDocument::Compact);
    const Result<QSslConfiguration> tls = tlsFor(m_credential);
    if (!tls)
        return Error{tls.error().file, 0, QStringLiteral("service %1: %2").arg(hostPort(), tls.error().message)};
    const Exchange answer = exchange(url, method, bytes, m_credential.token, *tls, pinned->second, timeoutMs);
    // As ssh says it: another certificate than the one trusted is never talked to, and the
    // operator must hear why rather than see a failed handshake.
    if (!answer.peer.isNull() && certificateFingerprint(answer.peer) != pinned->second)
        return Error{{}, 0, QStringLiteral("service %1: ITS CERTIFICATE HAS CHANGED since it was trusted (trusted %2, shown %3): "
                                           "someone may be in between; nothing was sent. If it was replaced on purpose, remove its line "
                                           "from %4 and connect again")
                                .arg(hostPort(), pinned->second, certificateFingerprint(answer.peer), m_knownServices)};
    if (answer.timedOut)
        return Error{{}, 0, QStringLiteral("service %1: %2 %3: no answer within %4 s").arg(hostPort(), QString::fromLatin1(method), path).arg(timeoutMs / 1000.0)};
    if (!answer.networkError.isEmpty())
        return Error{{}, 0, QStringLiteral("service %1: %2").arg(hostPort(), answer.networkError)};
    const QJsonObject json = QJsonDocument::fromJson(answer.body).object();
    if (answer.status < 200 || answer.status > 299)
        return Error{{}, 0, QStringLiteral("service %1: %2 %3: %4").arg(hostPort()).arg(answer.status).arg(QString::fromLatin1(method) + QLatin1Char(' ') + path, json.value(QStringLiteral("error")).toString(QString::fromUtf8(answer.body.left(300))))};
    return json;
}

// A discovery, a plan or a commit keeps the service busy, silent, for as long as it takes on a
// large fabric; a commit includes OpenSM's sweeps and may wait for another commit's lock.
constexpr int kReadTimeoutMs = 60000;
constexpr int kFabricTimeoutMs = 300000;
constexpr int kCommitTimeoutMs = 1800000;

Result<QJsonObject> ServiceClient::status()
{
    return call("GET", QStringLiteral("status"), {}, kReadTimeoutMs);
}

Result<QJsonObject> ServiceClient::plan(const QJsonObject &body)
{
    return call("POST", QStringLiteral("plans"), body, kFabricTimeoutMs);
}

Result<QJsonObject> ServiceClient::commitPlan(const QString &id, bool acceptViolations)
{
    return call("POST", QStringLiteral("plans/%1/commit").arg(id), QJsonObject{{QStringLiteral("accept_violations"), acceptViolations}},
                kCommitTimeoutMs);
}

Result<QJsonObject> ServiceClient::journal()
{
    return call("GET", QStringLiteral("journal"), {}, kReadTimeoutMs);
}

Result<QJsonObject> ServiceClient::telemetry()
{
    return call("GET", QStringLiteral("telemetry"), {}, kReadTimeoutMs);
}

Result<QJsonObject> ServiceClient::recover(bool rollback)
{
    return call("POST", QStringLiteral("recover"), QJsonObject{{QStringLiteral("rollback"), rollback}}, kCommitTimeoutMs);
}

Result<QJsonObject> ServiceClient::jobs()
{
    return call("GET", QStringLiteral("jobs"), {}, kReadTimeoutMs);
}

Result<LiveState> ServiceClient::liveState()
{
    Result<QJsonObject> fabric = call("GET", QStringLiteral("fabric"), {}, kFabricTimeoutMs);
    if (!fabric)
        return fabric.error();
    Result<QJsonObject> tables = call("GET", QStringLiteral("tables"), {}, kFabricTimeoutMs);
    if (!tables)
        return tables.error();
    return liveStateFromJson(*fabric, *tables);
}

std::function<Result<LiveState>()> ServiceClient::liveReader()
{
    return [client = *this]() mutable { return client.liveState(); };
}

TelemetrySampler::Source ServiceClient::telemetrySource()
{
    return [client = *this](const Fabric &fabric) mutable -> Result<std::vector<TelemetryRecord>> {
        Result<QJsonObject> tick = client.telemetry();
        if (!tick)
            return tick.error();
        return telemetryFromJson(*tick, fabric);
    };
}

RemoteTarget ServiceClient::remoteTarget(const QString &subnet)
{
    RemoteTarget target;
    target.via = QStringLiteral("the fabric service at %1").arg(hostPort());
    target.description = subnet.isEmpty() ? QStringLiteral("the fabric service at %1").arg(hostPort())
                                          : QStringLiteral("subnet %1 through the fabric service at %2").arg(subnet, hostPort());
    target.commit = [client = *this](const CommitPlan &plan, const CommitOptions &options) mutable {
        CommitReport report;
        report.outcome = CommitOutcome::Refused;
        if (options.progress)
            options.progress(QStringLiteral("Sending the plan to %1…").arg(client.hostPort()));
        Result<QJsonObject> made = client.plan(planRequestJson(plan));
        if (!made) {
            report.reasons << made.error().toString();
            return report;
        }
        if (const QString why = servicePlanDisagreement(plan, *made); !why.isEmpty()) {
            report.outcome = CommitOutcome::Stale;
            report.reasons << why;
            return report;
        }
        const QString id = made->value(QStringLiteral("id")).toString();
        if (options.progress)
            options.progress(QStringLiteral("The service counts the plan as reviewed (%1 SMPs): committing plan %2…")
                                 .arg(made->value(QStringLiteral("smps")).toDouble())
                                 .arg(id));
        Result<QJsonObject> committed = client.commitPlan(id, options.acceptViolations);
        if (!committed) {
            report.reasons << committed.error().toString();
            return report;
        }
        return commitReportFromJson(*committed);
    };
    target.recover = [client = *this](CommitOptions options) mutable {
        Result<QJsonObject> recovered = client.recover(options.recoverByRollback);
        if (!recovered) {
            CommitReport report;
            report.reasons << recovered.error().toString();
            return report;
        }
        return commitReportFromJson(*recovered);
    };
    return target;
}

}  // namespace weft::remote
