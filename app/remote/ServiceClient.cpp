#include "ServiceClient.h"

#include "SafeFile.h"
#include "ServiceFormat.h"
#include "ServicePlan.h"
#include "TextReader.h"
#include "TopologyFile.h"

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

#include <mutex>

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
    qint64 wireBytes = 0;  // the body as it came (compressed), when the service said
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
    : m_credential(std::move(credential)), m_knownServices(knownServices.isEmpty() ? defaultKnownServicesPath() : std::move(knownServices)),
      m_cache(std::make_shared<Cache>())
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
    // Compressed as zlib's format, decoded here (not by Qt, which then hides what came on the
    // wire): the tables and the fabric are a tenth of their size or less.
    request.setRawHeader("Accept-Encoding", "deflate");
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
    result.wireBytes = result.body.size();
    const QByteArray encoding = reply->rawHeader("Content-Encoding").trimmed().toLower();
    if (encoding == "deflate" && !result.body.isEmpty()) {
        // qUncompress wants the size first; a guess it doubles until the whole body fits.
        const quint32 guess = quint32(std::min<qint64>(qint64(result.body.size()) * 8, 0x7fffffff));
        QByteArray framed(4, '\0');
        for (int i = 0; i < 4; ++i)
            framed[i] = char((guess >> (8 * (3 - i))) & 0xff);
        result.body = qUncompress(framed + result.body);
        if (result.body.isEmpty())
            result.networkError = QStringLiteral("the answer's deflate encoding does not decode");
    } else if (!encoding.isEmpty() && encoding != "identity") {
        result.networkError = QStringLiteral("the answer came in an encoding not asked for: %1").arg(QString::fromLatin1(encoding));
    }
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
    const QByteArray bytes = method == "GET" ? QByteArray() : QJsonDocument(body).toJson(QJsonDocument::Compact);
    Result<Raw> answer = send(method, path, bytes, timeoutMs);
    if (!answer)
        return answer.error();
    return QJsonDocument::fromJson(answer->body).object();
}

Result<ServiceClient::Raw> ServiceClient::send(const QByteArray &method, const QString &path, const QByteArray &bytes, int timeoutMs)
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
    if (answer.status < 200 || answer.status > 299) {
        const QJsonObject json = QJsonDocument::fromJson(answer.body).object();
        return Error{{}, 0, QStringLiteral("service %1: %2 %3: %4").arg(hostPort()).arg(answer.status).arg(QString::fromLatin1(method) + QLatin1Char(' ') + path, json.value(QStringLiteral("error")).toString(QString::fromUtf8(answer.body.left(300))))};
    }
    return Raw{answer.body, answer.wireBytes};
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

// What copies of a client share: the fabric and the tables last read, with the service's
// instance and generations, for the next read to ask only for what changed.
struct ServiceClient::Cache
{
    std::mutex mutex;
    QString instance;
    quint64 fabricGeneration = 0;
    std::shared_ptr<const Fabric> fabric;
    quint64 heldGeneration = 0;
    std::shared_ptr<const ForwardingTables> lfts;
    Transfer last;
};

ServiceClient::Transfer ServiceClient::lastTransfer() const
{
    const std::lock_guard<std::mutex> lock(m_cache->mutex);
    return m_cache->last;
}

Result<LiveState> ServiceClient::liveState()
{
    Transfer moved;
    const auto count = [&moved](const Raw &raw) {
        moved.wireBytes += raw.wireBytes;
        moved.bytes += raw.body.size();
    };
    Result<Raw> statusRaw = send("GET", QStringLiteral("status"), QByteArray(), kReadTimeoutMs);
    if (!statusRaw)
        return statusRaw.error();
    count(*statusRaw);
    const QJsonObject status = QJsonDocument::fromJson(statusRaw->body).object();
    const QString instance = status.value(QStringLiteral("instance")).toString();
    const quint64 fabricGeneration = quint64(status.value(QStringLiteral("fabric_generation")).toDouble());
    QString heldInstance;
    quint64 fabricHeld = 0, tablesHeld = 0;
    std::shared_ptr<const Fabric> fabric;
    std::shared_ptr<const ForwardingTables> lfts;
    {
        const std::lock_guard<std::mutex> lock(m_cache->mutex);
        heldInstance = m_cache->instance;
        fabricHeld = m_cache->fabricGeneration;
        tablesHeld = m_cache->heldGeneration;
        fabric = m_cache->fabric;
        lfts = m_cache->lfts;
    }
    const bool sameInstance = !instance.isEmpty() && instance == heldInstance;
    if (!fabric || !sameInstance || fabricHeld != fabricGeneration) {
        Result<Raw> raw = send("GET", QStringLiteral("fabric"), QByteArray(), kFabricTimeoutMs);
        if (!raw)
            return raw.error();
        count(*raw);
        const QJsonObject json = QJsonDocument::fromJson(raw->body).object();
        Result<Fabric> read = readTopology(json.value(QStringLiteral("topology")).toString().toUtf8(), QStringLiteral("the service's fabric (topology)"));
        if (!read)
            return read.error();
        fabric = std::make_shared<const Fabric>(std::move(*read));
        fabricHeld = quint64(json.value(QStringLiteral("fabric_generation")).toDouble());
        moved.fabricRead = true;
        lfts.reset();  // tables are read whole on another fabric
    }
    // The tables: a delta from those held here, when the service still knows their generation.
    const auto tables = [&](bool delta) -> Result<CompactTables> {
        QString path = QStringLiteral("tables?form=compact");
        if (delta)
            path += QStringLiteral("&since=%1&instance=%2").arg(tablesHeld).arg(instance);
        Result<Raw> raw = send("GET", path, QByteArray(), kFabricTimeoutMs);
        if (!raw)
            return raw.error();
        count(*raw);
        return readCompactTables(raw->body, fabric.get());
    };
    const bool askDelta = lfts && sameInstance;
    Result<CompactTables> read = tables(askDelta);
    if (!read)
        return read.error();
    std::shared_ptr<const ForwardingTables> now;
    moved.tablesSwitches = int(read->lfts.size());
    if (askDelta && read->header.contains(QStringLiteral("since"))) {
        Result<ForwardingTables> merged = applyTablesDelta(*lfts, *read, fabric.get());
        if (merged) {
            now = std::make_shared<const ForwardingTables>(std::move(*merged));
            moved.tablesDelta = true;
        } else {
            read = tables(false);  // a delta that does not add up: the whole tables
            if (!read)
                return read.error();
            moved.tablesSwitches = int(read->lfts.size());
        }
    }
    if (!now) {
        ForwardingTables whole = std::move(read->lfts);
        if (tablesDigest(whole) != read->header.value(QStringLiteral("lfts_digest")).toString())
            return Error{QStringLiteral("the service's compact tables"), 0, QStringLiteral("the tables read have another digest than the service gives")};
        now = std::make_shared<const ForwardingTables>(std::move(whole));
    }
    Result<LiveState> state = liveStateFromCompact(fabric, read->header, now);
    if (!state)
        return state.error();
    const std::lock_guard<std::mutex> lock(m_cache->mutex);
    m_cache->instance = read->header.value(QStringLiteral("instance")).toString();
    m_cache->fabricGeneration = fabricHeld;
    m_cache->fabric = fabric;
    m_cache->heldGeneration = quint64(read->header.value(QStringLiteral("held_generation")).toDouble());
    m_cache->lfts = now;
    m_cache->last = moved;
    return state;
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
