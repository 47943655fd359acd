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
};

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

// One request, blocking in this thread. `pinned`: the fingerprint the server's certificate must
// have (then it is trusted whoever signed it); empty: any certificate is read (first contact
// only sends no credential).
static Exchange exchange(const QUrl &url, const QByteArray &method, const QByteArray &body, const ServiceCredential &credential,
                         const QString &pinned, bool sendCredential, int timeoutMs)
{
    QNetworkAccessManager network;
    QNetworkRequest request(url);
    request.setTransferTimeout(timeoutMs);
    QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
    if (sendCredential && !credential.certificatePath.isEmpty()) {
        tls.setLocalCertificate(QSslCertificate::fromPath(credential.certificatePath).value(0));
        QFile key(credential.keyPath);
        if (key.open(QIODevice::ReadOnly)) {
            const QByteArray bytes = key.readAll();
            QSslKey k(bytes, QSsl::Rsa);
            tls.setPrivateKey(k.isNull() ? QSslKey(bytes, QSsl::Ec) : k);
        }
    }
    request.setSslConfiguration(tls);
    if (sendCredential && !credential.token.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + credential.token);
    if (!body.isNull())
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    QNetworkReply *reply = network.sendCustomRequest(request, method, body);
    Exchange result;
    QObject::connect(reply, &QNetworkReply::sslErrors, reply, [reply, &pinned, &result](const QList<QSslError> &) {
        const QSslCertificate peer = reply->sslConfiguration().peerCertificate();
        result.peer = peer;
        // A self-signed service is trusted by its pin alone; without a pin nothing is sent on.
        if (pinned.isEmpty() || certificateFingerprint(peer) == pinned)
            reply->ignoreSslErrors();
    });
    QObject::connect(reply, &QNetworkReply::encrypted, reply, [reply, &pinned, &result] {
        result.peer = reply->sslConfiguration().peerCertificate();
        if (!pinned.isEmpty() && certificateFingerprint(result.peer) != pinned)
            reply->abort();  // a certificate a CA vouches for is still not the one pinned
    });
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(timeoutMs + 1000, &loop, [reply] { reply->abort(); });
    if (!reply->isFinished())
        loop.exec();
    result.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
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
    // First the certificate alone, no credential sent.
    QUrl statusUrl = m_url;
    statusUrl.setPath(QStringLiteral("/api/v1/status"));
    const Exchange first = exchange(statusUrl, "GET", QByteArray(), m_credential, {}, false, 15000);
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
    Result<QJsonObject> status = call("GET", QStringLiteral("status"));
    if (!status)
        return status.error();
    contact.status = std::move(*status);
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
    const Exchange answer = exchange(url, method, bytes, m_credential, pinned->second, true, timeoutMs);
    if (!answer.networkError.isEmpty())
        return Error{{}, 0, QStringLiteral("service %1: %2").arg(hostPort(), answer.networkError)};
    const QJsonObject json = QJsonDocument::fromJson(answer.body).object();
    if (answer.status < 200 || answer.status > 299)
        return Error{{}, 0, QStringLiteral("service %1: %2 %3: %4").arg(hostPort()).arg(answer.status).arg(QString::fromLatin1(method) + QLatin1Char(' ') + path, json.value(QStringLiteral("error")).toString(QString::fromUtf8(answer.body.left(300))))};
    return json;
}

Result<LiveState> ServiceClient::liveState()
{
    Result<QJsonObject> fabric = call("GET", QStringLiteral("fabric"), {}, 300000);
    if (!fabric)
        return fabric.error();
    Result<QJsonObject> tables = call("GET", QStringLiteral("tables"), {}, 300000);
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
        Result<QJsonObject> tick = client.call("GET", QStringLiteral("telemetry"));
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
        Result<QJsonObject> made = client.call("POST", QStringLiteral("plans"), planRequestJson(plan), 300000);
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
        Result<QJsonObject> committed = client.call("POST", QStringLiteral("plans/%1/commit").arg(id),
                                                    QJsonObject{{QStringLiteral("accept_violations"), options.acceptViolations}}, 1800000);
        if (!committed) {
            report.reasons << committed.error().toString();
            return report;
        }
        return commitReportFromJson(*committed);
    };
    target.recover = [client = *this](CommitOptions options) mutable {
        Result<QJsonObject> recovered = client.call("POST", QStringLiteral("recover"),
                                                    QJsonObject{{QStringLiteral("rollback"), options.recoverByRollback}}, 1800000);
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
