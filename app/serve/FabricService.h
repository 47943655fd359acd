#pragma once
// `weft serve`: one session on the live fabric of an SM host, reached over HTTPS by desks and
// scripts (docs/service-api.md). It discovers the fabric and again when it changes, samples its
// port counters into the history, runs the self-adaptive loop, makes plans on request and
// commits them to the subnet's commit target, journalled under the name of the credential that
// asked. A front end: every figure comes from the session and core's stages (ServicePlan,
// ServiceFormat); this class only authenticates, routes requests and relays events.
//
// Whatever clients do, the session's work goes on: requests are answered between turns of the
// event loop, long work (discovery, commits) runs on the session's workers and is answered when
// it ends, and an event stream whose reader falls behind is cut off (HttpListener). Everything
// that reaches the fabric (the API's discoveries and the timer's, counter passes, the loop's and
// the API's commits, recoveries) waits its turn on the session's one FabricLink: a discovery
// asked for during a commit is answered once the commit has ended and the fabric been read.

#include "FabricCheck.h"
#include "FabricSession.h"
#include "HttpListener.h"
#include "JobPartitions.h"
#include "ServicePlan.h"
#include "SlurmTopology.h"
#include "TokenStore.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QHash>
#include <QHostAddress>
#include <QJsonArray>
#include <QObject>
#include <QSslConfiguration>
#include <QTimer>

#include <chrono>
#include <deque>
#include <unordered_map>
#include <map>
#include <memory>
#include <optional>
#include <variant>
#include <vector>

namespace weft::serve {

// Who may read /metrics without a credential.
enum class MetricsAccess : std::uint8_t { Token,
                                          Loopback,
                                          Open };

struct ServiceOptions
{
    QHostAddress address = QHostAddress::LocalHost;
    quint16 port = 0;
    QSslConfiguration tls;  // certificate, key and, for mutual TLS, the client CA
    QString tokensPath;
    QString targetPath;  // the subnet's commit target (SubnetTarget.h)
    QString historyDir;  // empty: the user's data directory
    QString rulesPath;   // empty: no rules
    QString caName;
    int caPort = 0;
    double interval = 10;        // seconds between counter passes
    int rediscoverSeconds = 60;  // 0: only on request and on the loop's events
    MetricsAccess metrics = MetricsAccess::Token;
    int maxConnections = 256;
    qint64 maxBodyBytes = 64 << 20;
    int failedAuthLimit = 10;  // failed authentications per address in a minute before 429
    qint64 viewerMaxBody = 16384;          // a viewer's requests are reads: their bodies at most this
    int maxStreamsPerCredential = 8;       // event streams one credential may hold open (429 beyond)
    int maxConnectionsPerCredential = 0;   // 0: a quarter of maxConnections
    int streamMaxLifeSeconds = 3600;       // an event stream ends then, saying so (the client reconnects)
    int tokensCheckMs = 500;               // how often the tokens file is looked at for a change
    // Slurm's topology kept in step with the fabric (SlurmTopology.h): written atomically after
    // every discovery that changes the fabric, unless only its comments would change; then, with
    // slurmReconfigure, `scontrol reconfigure`. Empty path: none.
    QString slurmTopologyPath;
    SlurmTopologyForm slurmForm = SlurmTopologyForm::Tree;
    QString slurmNamesPath;  // the names map, read at start
    bool slurmReconfigure = false;
    QString scontrol = QStringLiteral("scontrol");  // the program run for it
    // Partitions that follow Slurm's jobs (JobPartitions.h, PUT and DELETE /api/v1/jobs/JOBID):
    // the P_Keys jobs get, and the isolation policy of a job that names none. No pool: none.
    std::optional<JobPKeyPool> jobPool;
    IsolationPolicy jobPolicy = IsolationPolicy::Default;
};

class FabricService : public QObject
{
    Q_OBJECT

public:
    explicit FabricService(ServiceOptions options, QObject *parent = nullptr);
    ~FabricService() override;  // stop(kStopWithin), unless stopped already

    // Reads the target, the tokens and the rules, listens, and starts the first discovery. An
    // error names the file or address and the problem; nothing is left listening then.
    Status start();
    quint16 port() const;
    FabricSession &session() { return m_session; }

    // Ends the service's work within `within`: no more timers or passes, and the fabric link
    // stopped (work queued on it refused, the job running asked to stop). True when nothing was
    // left running; false when a job did not end in time (leftRunning() names it): it is left to
    // itself, and the process should end without waiting for it.
    bool stop(std::chrono::milliseconds within);
    QString leftRunning() const { return m_session.link().leftRunning(); }
    static constexpr std::chrono::milliseconds kStopWithin{8000};

Q_SIGNALS:
    // One line for the log (stderr): discoveries, commits, refused credentials, problems.
    void logLine(const QString &line);

private:
    struct Caller
    {
        ServiceCredential credential;
    };
    using Responder = std::shared_ptr<net::HttpResponder>;

    net::HttpAdmission admit(const net::HttpRequest &head, qint64 contentLength);
    // The caller of a request, or the reply that refuses it (401, 429, 503), failures counted.
    std::variant<Caller, net::HttpReply> identify(const net::HttpRequest &request);
    void handle(const net::HttpRequest &request, Responder out);
    void handleApi(const net::HttpRequest &request, const QByteArray &path, const Caller &caller, Responder out);
    std::optional<Caller> authenticate(const net::HttpRequest &request, Responder &out);
    bool allowed(const Caller &caller, ServiceRole needed, Responder &out);
    void serveMetrics(const net::HttpRequest &request, Responder out);

    QJsonObject status(const Caller *caller) const;
    void postPlan(const net::HttpRequest &request, const Caller &caller, Responder out);
    void commitServicePlan(const QString &id, const net::HttpRequest &request, const Caller &caller, Responder out);
    void recover(const net::HttpRequest &request, const Caller &caller, Responder out);
    void telemetry(const net::HttpRequest &request, Responder out);
    void journal(Responder out);
    void putRules(const net::HttpRequest &request, const Caller &caller, Responder out);
    void putMode(const net::HttpRequest &request, const Caller &caller, Responder out);
    // A job's start (PUT) or end (DELETE): queued, and planned and committed in turn once no
    // commit runs, so that the prologs of jobs starting together each get their partition.
    void jobRequest(const QByteArray &method, const QString &job, const net::HttpRequest &request, const Caller &caller, Responder out);
    void runJobRequests();
    void openEvents(const Caller &caller, Responder out);
    // An act of an admin (or of whoever changed the credentials) in the commit journal, kind
    // "admin", with the old and the new value; said in the log too.
    void journalAdminAct(const QString &user, const QString &act, const QString &summary, const QString &before, const QString &after);
    // Ends the streams whose credential is gone or changed, or that are past their life.
    void checkStreams();
    void endStream(std::size_t index, const QString &reason);

    QString planState(const ServicePlan &plan) const;
    QString planRefusal(const ServicePlan &plan) const;
    // Plans made on an earlier generation of the fabric or of what it holds: carried over to
    // the current ones when nothing they were made from changed (planBasisChange), else marked
    // stale with what changed, which generation and when (m_generations).
    void followGenerations();
    // The generations after the plan's, each with when and why (docs/service-api.md, 409).
    QJsonArray generationsSince(const ServicePlan &plan) const;
    // GET tables: the JSON answer, or ?form=compact (with ?since= a delta).
    void serveTables(const net::HttpRequest &request, Responder out);
    void broadcast(const QByteArray &event, const QJsonObject &data);
    void onDiscovered(std::shared_ptr<const LiveState> state);
    void onDiscoveryFinished(bool ok, const QString &error, bool cancelled);
    void onSessionChanged(DocumentChanges what);
    void onCommitFinished(const CommitReport &report);
    void rediscover();
    // Slurm's topology of the fabric now, written when it differs from the file's (options above).
    void updateSlurmTopology();
    void reloadTokensIfChanged();
    QString tokensFileStamp() const;
    QJsonObject linkStatus() const;
    net::HttpReply undiscoveredReply(const QString &untilThen = {}) const;
    // The health check (FabricCheck.h's checkHeldFabric) of the fabric last discovered with the
    // tables it holds; made again only when either changed. Null before the first discovery.
    const FabricCheckReport *healthReport();

    ServiceOptions m_options;
    FabricSession m_session;
    std::unique_ptr<net::HttpListener> m_listener;
    TokenStore m_tokens;
    QString m_tokensStamp;    // the tokens file's inode, size and time when last read
    QString m_tokensProblem;  // the tokens file does not parse: no credential is accepted (fail closed)
    QTimer m_tokensTimer;
    quint64 m_revision = 0;
    quint64 m_fabricGeneration = 0;
    std::shared_ptr<const Fabric> m_fabricSeen;
    quint64 m_heldSeen = 0;
    quint64 m_loopRecordsTold = 0;
    QDateTime m_discoveredAt;
    QString m_lastDiscoveryError;
    SlurmTopologyOptions m_slurm;  // the names map read at start, the roles left out
    std::optional<FabricCheckReport> m_health;  // of m_healthFabric as it held m_healthHeld
    std::shared_ptr<const Fabric> m_healthFabric;
    quint64 m_healthHeld = 0;

    std::map<int, ServicePlan> m_plans;  // by number, the last kPlansKept
    // Each change of the fabric generation or of what it holds: when, the two generations after
    // it, and why (the last 64), for the plans it makes stale.
    struct GenerationChange
    {
        QDateTime at;
        quint64 fabricGeneration = 0;
        quint64 heldGeneration = 0;
        QString cause;
    };
    std::deque<GenerationChange> m_generations;
    QString m_nextFabricCause;  // why the discovery under way was asked for
    // GET tables?since=: the per-switch digests of the tables answered at the last few held
    // generations (ServiceFormat.h: switchTableDigest), and this process's instance.
    struct TablesAnswered
    {
        quint64 heldGeneration = 0;
        std::unordered_map<Guid, quint64> digests;
    };
    std::deque<TablesAnswered> m_tablesAnswered;
    QString m_instance;
    int m_nextPlan = 1;

    // The commit under way: who asked, for which plan, and where the answer goes.
    struct PendingCommit
    {
        Responder out;
        QString planId;
        QString by;
        bool recovery = false;
        QJsonObject job;  // a job's start or end: its answer (JobPartitions.h), the report added
    };
    std::optional<PendingCommit> m_pendingCommit;
    std::vector<Responder> m_waitingForDiscovery;
    struct JobRequest
    {
        bool start = true;  // PUT; else DELETE
        SlurmJob job;
        QString by;
        Responder out;
    };
    std::deque<JobRequest> m_jobRequests;  // in the order asked
    std::map<QString, JobStartRecord> m_jobsStarted;  // by job ID: who started it, when, how isolated
    struct Stream
    {
        Responder out;
        ServiceCredential credential;  // as it was when the stream opened
        qint64 openedMs = 0;           // m_clock's
    };
    std::vector<Stream> m_streams;
    QTimer m_streamsTimer;
    QTimer m_rediscoverTimer;
    QTimer m_keepAliveTimer;
    QTimer m_samplingTimer;
    double m_lastTick = 0;  // the newest tick's time, seconds since the epoch
    bool m_stopped = false;
    // Failed authentications per address: their times (ms since m_clock started), the last minute.
    QHash<QString, std::deque<qint64>> m_failures;
    QElapsedTimer m_clock;
};

}  // namespace weft::serve
