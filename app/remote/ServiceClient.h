#pragma once
// A desk's connection to Weft's service (`weft serve`, docs/service-api.md) on an SM host: HTTPS
// with a bearer token or a client certificate, the server's certificate pinned on first use as
// ssh pins a host key (a known-services file of "host:port sha256" lines), and every call
// blocking in the calling thread (its own network access and event loop), so the session's
// workers can discover and commit through it as they do through an adapter.
//
// The desk reaches a remote fabric through the same session interface as a local one:
// liveReader() is the session's reader of the fabric (FabricSession::setLiveReader), remoteTarget()
// its commit target (FabricSession::setRemoteTarget), telemetrySource() its sampler's ticks
// (TelemetrySampler::setSource). None opens a MAD port.

#include "FabricSession.h"
#include "TelemetrySampler.h"

#include <QJsonObject>
#include <QSslCertificate>
#include <QString>
#include <QUrl>

#include <memory>

namespace weft::remote {

struct ServiceCredential
{
    QByteArray token;         // Authorization: Bearer
    QString certificatePath;  // or a client certificate (PEM) with its key
    QString keyPath;          // empty: the key is in the certificate's file
};

// What the first contact with a service found.
struct ServiceContact
{
    enum class Pin : std::uint8_t { Known,
                                    Unknown,
                                    Changed };
    Pin pin = Pin::Unknown;
    QString fingerprint;  // the server certificate's SHA-256, hex, colon-separated
    QString pinned;       // the fingerprint on file (Changed)
    QSslCertificate certificate;
    QJsonObject status;  // GET status (Known only: nothing is read from an unpinned server)
};

class ServiceClient
{
public:
    // `address`: "host:port" or "https://host:port"; `knownServices`: the pins file (empty: the
    // default, WEFT_KNOWN_SERVICES or the user's configuration directory).
    ServiceClient(const QString &address, ServiceCredential credential, QString knownServices = {});

    QUrl url() const { return m_url; }
    QString hostPort() const;  // "sm1:8443"
    static QString defaultKnownServicesPath();

    // Reads the server's certificate by a TLS handshake alone (nothing is sent to a server not yet
    // trusted) and, when it is the one pinned, the status with the credential.
    Result<ServiceContact> contact();
    // Pins `fingerprint` for this host and port (replacing an earlier pin).
    Status pin(const QString &fingerprint);

    // GET, POST or PUT under /api/v1 (`path` without it); the JSON answer of a 2xx status, else an
    // error naming the service, the status and the service's own words. Only to the certificate
    // pinned: another one is refused before anything is sent, and the error says it changed.
    // `timeoutMs`: the longest silence of the service (a commit is silent until it ends).
    Result<QJsonObject> call(const QByteArray &method, const QString &path, const QJsonObject &body = {}, int timeoutMs = 60000);

    // The endpoints the desk uses (docs/service-api.md), each a call() with its own timeout.
    Result<QJsonObject> status();
    Result<QJsonObject> plan(const QJsonObject &body);  // POST plans: the plan with its figures
    Result<QJsonObject> commitPlan(const QString &id, bool acceptViolations);
    Result<QJsonObject> journal();
    Result<QJsonObject> telemetry();  // the latest tick
    Result<QJsonObject> recover(bool rollback);
    Result<QJsonObject> jobs();  // Slurm's jobs with a partition in force
    // The fabric and what it holds, as the service read them: the fabric only when its
    // generation changed since this client (or a copy of it) last read it, the tables in the
    // compact form (GET tables?form=compact), compressed on the wire, and after the first time
    // as a delta from the generation held here (?since=); a delta that does not add up to the
    // service's digest is asked for whole.
    Result<LiveState> liveState();
    // What the last liveState() moved: bytes on the wire (compressed) and after decoding, and
    // whether the tables came as a delta and of how many switches.
    struct Transfer
    {
        qint64 wireBytes = 0;
        qint64 bytes = 0;
        bool fabricRead = false;
        bool tablesDelta = false;
        int tablesSwitches = 0;
    };
    Transfer lastTransfer() const;
    // For the session.
    std::function<Result<LiveState>()> liveReader();
    RemoteTarget remoteTarget(const QString &subnet);
    TelemetrySampler::Source telemetrySource();

    struct Cache;

private:
    struct Raw
    {
        QByteArray body;
        qint64 wireBytes = 0;
    };
    // One request to the pinned service: the body of a 2xx answer as bytes, else the error call()
    // gives.
    Result<Raw> send(const QByteArray &method, const QString &path, const QByteArray &bytes, int timeoutMs);

    QUrl m_url;
    ServiceCredential m_credential;
    QString m_knownServices;
    std::shared_ptr<Cache> m_cache;  // shared by copies: the liveReader's and the target's
};

// "ab:cd:…" of a certificate's SHA-256.
QString certificateFingerprint(const QSslCertificate &certificate);

}  // namespace weft::remote
