#include "FabricService.h"

#include "Autopilot.h"
#include "CommitJournal.h"
#include "CommitPlanning.h"
#include "PKeyTableFile.h"
#include "PKeyTables.h"
#include "PartitionsConf.h"
#include "PrometheusExposition.h"
#include "RuleLanguage.h"
#include "SafeFile.h"
#include "ServiceFormat.h"
#include "TelemetryHistory.h"
#include "TelemetrySampler.h"
#include "TextReader.h"
#include "WarningSummary.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QFile>
#include <QPointer>
#include <QRandomGenerator>
#include <QProcess>
#include <QSslCertificate>
#include <QSslCipher>
#include <QUrl>
#include <QUrlQuery>

#include <sys/stat.h>

namespace weft::serve {

namespace {

constexpr std::size_t kPlansKept = 32;
constexpr qint64 kFailureWindowMs = 60000;
const QByteArray kJson = "application/json";

net::HttpReply jsonReply(int status, const QJsonObject &body)
{
    return net::HttpReply{status, kJson, QJsonDocument(body).toJson(QJsonDocument::Compact) + '\n', {}};
}

net::HttpReply errorReply(int status, const QString &error, const QString &where = {})
{
    QJsonObject body{{QStringLiteral("error"), error}};
    if (!where.isEmpty())
        body.insert(QStringLiteral("where"), where);
    return jsonReply(status, body);
}

// A JSON object body ({} when empty); otherwise the 400 to answer.
std::optional<QJsonObject> objectBody(const net::HttpRequest &request, net::HttpReply *refusal)
{
    if (request.body.trimmed().isEmpty())
        return QJsonObject{};
    QJsonParseError e{};
    const QJsonDocument document = QJsonDocument::fromJson(request.body, &e);
    if (e.error != QJsonParseError::NoError || !document.isObject()) {
        const QString where = jsonErrorPlace(request.body, e.offset);
        *refusal = errorReply(400, e.error != QJsonParseError::NoError ? QStringLiteral("not JSON: %1").arg(e.errorString()) : QStringLiteral("the body must be a JSON object"),
                              e.error != QJsonParseError::NoError ? where : QString());
        return std::nullopt;
    }
    return document.object();
}

// TLS 1.3, and TLS 1.2 with an ephemeral key exchange and an AEAD cipher: no suite whose
// recorded traffic a stolen key opens later, none with CBC and SHA-1.
QSslConfiguration withForwardSecrecyOnly(QSslConfiguration tls)
{
    tls.setProtocol(QSsl::TlsV1_2OrLater);
    QList<QSslCipher> kept;
    for (const QSslCipher &cipher : QSslConfiguration::supportedCiphers()) {
        const QString name = cipher.name();
        const bool tls13 = name.startsWith(QLatin1String("TLS_"));
        const bool ephemeral = name.startsWith(QLatin1String("ECDHE-")) || name.startsWith(QLatin1String("DHE-"));
        const bool aead = name.contains(QLatin1String("GCM")) || name.contains(QLatin1String("CHACHA20"));
        if (tls13 || (ephemeral && aead))
            kept << cipher;
    }
    tls.setCiphers(kept);
    return tls;
}

QString timeText(const QDateTime &time)
{
    return time.isValid() ? time.toUTC().toString(Qt::ISODate) : QString();
}

// The reply compressed as the request's Accept-Encoding allows (ServiceFormat.h: compressForHttp).
net::HttpReply servedEncoded(const net::HttpRequest &request, net::HttpReply reply)
{
    QByteArray encoding;
    reply.body = compressForHttp(reply.body, request.header("accept-encoding"), &encoding);
    reply.extraHeaders += "Vary: Accept-Encoding\r\n";
    if (!encoding.isEmpty())
        reply.extraHeaders += "Content-Encoding: " + encoding + "\r\n";
    return reply;
}

constexpr std::size_t kTablesAnsweredKept = 16;
constexpr std::size_t kGenerationsKept = 64;

}  // namespace

FabricService::FabricService(ServiceOptions options, QObject *parent)
    : QObject(parent), m_options(std::move(options))
{
    m_clock.start();
    m_instance = QString::number(QRandomGenerator::system()->generate64(), 16);
    net::HttpLimits limits;
    limits.maxHeaderBytes = 16384;
    limits.maxBodyBytes = m_options.maxBodyBytes;
    limits.maxConnections = m_options.maxConnections;
    limits.methods = {"GET", "HEAD", "POST", "PUT", "DELETE"};
    limits.maxConnectionsPerOwner = m_options.maxConnectionsPerCredential;
    m_listener = std::make_unique<net::HttpListener>(limits);
    m_listener->setTls(withForwardSecrecyOnly(m_options.tls));
    m_listener->setAdmission([this](const net::HttpRequest &head, qint64 length) { return admit(head, length); });
    m_listener->setHandler([this](const net::HttpRequest &request, Responder out) { handle(request, std::move(out)); });
    connect(m_listener.get(), &net::HttpListener::problem, this, &FabricService::logLine);

    m_session.setAdapter(m_options.caName, m_options.caPort);
    m_session.setHistoryDirectory(m_options.historyDir);
    connect(&m_session, &FabricSession::discovered, this, &FabricService::onDiscovered);
    connect(&m_session, &FabricSession::discoveryFinished, this, &FabricService::onDiscoveryFinished);
    connect(&m_session, &FabricSession::changed, this, &FabricService::onSessionChanged);
    connect(&m_session, &FabricSession::commitFinished, this, &FabricService::onCommitFinished);
    connect(&m_session, &FabricSession::commitProgress, this, [this](const QString &line) { Q_EMIT logLine(line); });
    connect(&m_session, &FabricSession::subnetChecked, this, [this](const SubnetCheck &check) {
        for (const QString &problem : check.problems)
            Q_EMIT logLine(QStringLiteral("subnet: %1").arg(problem));
    });
    TelemetrySampler *sampler = m_session.sampler();
    connect(sampler, &TelemetrySampler::sampled, this, [this, sampler] {
        const std::vector<TelemetryRecord> &records = sampler->latest();
        double busiest = 0;
        for (const TelemetryRecord &r : records)
            if (r.rates.utilisation.ok())
                busiest = std::max(busiest, r.rates.utilisation.value);
        m_lastTick = records.empty() ? m_lastTick : records.front().time;
        broadcast("tick", QJsonObject{{QStringLiteral("time"), m_lastTick}, {QStringLiteral("ports"), int(records.size())}, {QStringLiteral("silent_nodes"), int(sampler->latestSilentNodes().size())}, {QStringLiteral("max_utilisation"), busiest}});
    });
    connect(sampler, &TelemetrySampler::failed, this, [this](const QString &error) { Q_EMIT logLine(QStringLiteral("telemetry: %1").arg(error)); });
    connect(sampler, &TelemetrySampler::passSkipped, this, [this](const QString &reason) { Q_EMIT logLine(QStringLiteral("telemetry: %1").arg(reason)); });
    // A job past its deadline is not stopped (a commit cut short is worse than a late one), but
    // everything behind it waits: the log and `status` say which.
    connect(&m_session.link(), &FabricLink::overdue, this, [this](FabricLink::Kind kind, const QString &name, double seconds) {
        Q_EMIT logLine(QStringLiteral("the %1 (%2) has run for %3 s, past its deadline; the fabric's other work waits for it")
                           .arg(FabricLink::kindName(kind), name)
                           .arg(seconds, 0, 'f', 0));
    });
    Autopilot *autopilot = m_session.autopilot();
    connect(autopilot, &Autopilot::changed, this, [this, autopilot] {
        const quint64 logged = autopilot->recordsLogged();
        if (logged == m_loopRecordsTold || autopilot->records().empty())
            return;
        m_loopRecordsTold = logged;
        const adapt::AdaptRecord &last = autopilot->records().back();
        broadcast("loop", QJsonObject{{QStringLiteral("records"), double(logged)}, {QStringLiteral("time"), last.time}, {QStringLiteral("event"), last.event}, {QStringLiteral("rule"), last.rule}, {QStringLiteral("summary"), last.summary}});
    });

    m_rediscoverTimer.setInterval(std::max(1, m_options.rediscoverSeconds) * 1000);
    connect(&m_rediscoverTimer, &QTimer::timeout, this, &FabricService::rediscover);
    // Sampling goes on whatever happens to the fabric: a sampler the session stopped (another
    // fabric, another adapter) is started again once there is a live fabric to read.
    m_samplingTimer.setInterval(1000);
    connect(&m_samplingTimer, &QTimer::timeout, this, [this] {
        TelemetrySampler *sampler = m_session.sampler();
        if (!sampler->isRunning() && sampler->fabric() && !m_session.isDiscovering())
            sampler->start();
    });
    // Comments keep idle event streams open through proxies, and find readers that are gone.
    m_keepAliveTimer.setInterval(15000);
    connect(&m_keepAliveTimer, &QTimer::timeout, this, [this] {
        for (const Stream &stream : m_streams)
            stream.out->write(": keep-alive\n\n");
        m_streams.erase(std::remove_if(m_streams.begin(), m_streams.end(), [](const Stream &s) { return !s.out->isOpen(); }), m_streams.end());
    });
    // A revoked credential loses its streams as soon as the file says so, not at a restart.
    m_tokensTimer.setInterval(std::max(50, m_options.tokensCheckMs));
    connect(&m_tokensTimer, &QTimer::timeout, this, [this] {
        reloadTokensIfChanged();
        checkStreams();
    });
}

FabricService::~FabricService()
{
    if (!m_stopped)
        stop(kStopWithin);
}

bool FabricService::stop(std::chrono::milliseconds within)
{
    if (m_stopped)
        return leftRunning().isEmpty();
    m_stopped = true;
    m_rediscoverTimer.stop();
    m_samplingTimer.stop();
    m_keepAliveTimer.stop();
    m_tokensTimer.stop();
    // The link first: a pass the sampler's thread waits for there is dropped with it, so the
    // sampler then ends at once.
    const bool ended = m_session.link().stop(within);
    m_session.sampler()->stop();
    if (!ended)
        Q_EMIT logLine(QStringLiteral("stopping: %1 did not end within %2 s; left to itself")
                           .arg(leftRunning())
                           .arg(double(within.count()) / 1000, 0, 'f', 0));
    return ended;
}

Status FabricService::start()
{
    if (Status set = m_session.setSubnetTarget(m_options.targetPath); !set)
        return set;
    m_tokensStamp = tokensFileStamp();
    Result<TokenStore> tokens = TokenStore::read(m_options.tokensPath);
    if (!tokens)
        return tokens.error();
    m_tokens = std::move(*tokens);
    if (m_tokens.credentials().empty())
        Q_EMIT logLine(QStringLiteral("%1 names no credential: every request will be refused (weft serve token add)").arg(m_options.tokensPath));
    if (!m_options.rulesPath.isEmpty()) {
        Result<QByteArray> text = TextReader::readFile(m_options.rulesPath);
        if (!text)
            return text.error();
        if (Status applied = m_session.autopilot()->applyRules(*text, m_options.rulesPath); !applied)
            return applied;
    }
    QString error;
    if (!m_listener->listen(m_options.address, m_options.port, &error))
        return Error{{}, 0, QStringLiteral("cannot listen on %1:%2: %3").arg(m_options.address.toString()).arg(m_options.port).arg(error)};
    if (!m_options.slurmNamesPath.isEmpty()) {
        Result<SlurmNames> names = readSlurmNamesFile(m_options.slurmNamesPath);
        if (!names)
            return names.error();
        m_slurm.names = std::move(names).value();
    }
    m_session.sampler()->setInterval(m_options.interval);
    if (m_options.rediscoverSeconds > 0)
        m_rediscoverTimer.start();
    m_keepAliveTimer.start();
    m_tokensTimer.start();
    m_samplingTimer.start();
    m_session.discover(false);
    return Done{};
}

quint16 FabricService::port() const
{
    return m_listener->port();
}

// ---- requests ------------------------------------------------------------------------------------

net::HttpAdmission FabricService::admit(const net::HttpRequest &head, qint64 contentLength)
{
    // Nothing before the credential: a request is judged by its head alone, and only one whose
    // credential holds may send a body, within its role's limit.
    net::HttpAdmission admission;
    if (head.path == "/metrics") {
        const bool open = m_options.metrics == MetricsAccess::Open || (m_options.metrics == MetricsAccess::Loopback && head.peer.isLoopback());
        if (open)
            return admission;  // anonymous, and no body
    } else if (!head.path.startsWith("/api/v1/")) {
        admission.refusal = errorReply(404, QStringLiteral("no such path: %1 (the API is under /api/v1/)").arg(QString::fromUtf8(head.path.left(200))));
        return admission;
    }
    std::variant<Caller, net::HttpReply> who = identify(head);
    if (auto *refused = std::get_if<net::HttpReply>(&who)) {
        admission.refusal = std::move(*refused);
        return admission;
    }
    const ServiceCredential &credential = std::get<Caller>(who).credential;
    admission.owner = credential.name;
    admission.maxBodyBytes = credential.role == ServiceRole::Viewer ? std::min(m_options.viewerMaxBody, m_options.maxBodyBytes) : m_options.maxBodyBytes;
    (void)contentLength;  // the listener holds it to maxBodyBytes
    return admission;
}

void FabricService::handle(const net::HttpRequest &request, Responder out)
{
    if (request.path == "/metrics")
        return serveMetrics(request, std::move(out));
    static const QByteArray prefix = "/api/v1/";
    if (!request.path.startsWith(prefix))
        return out->reply(errorReply(404, QStringLiteral("no such path: %1 (the API is under /api/v1/)").arg(QString::fromUtf8(request.path.left(200)))));
    const std::optional<Caller> caller = authenticate(request, out);
    if (!caller)
        return;
    handleApi(request, request.path.mid(prefix.size()), *caller, std::move(out));
}

std::optional<FabricService::Caller> FabricService::authenticate(const net::HttpRequest &request, Responder &out)
{
    std::variant<Caller, net::HttpReply> who = identify(request);
    if (auto *caller = std::get_if<Caller>(&who))
        return *caller;
    out->reply(std::get<net::HttpReply>(who));
    return std::nullopt;
}

std::variant<FabricService::Caller, net::HttpReply> FabricService::identify(const net::HttpRequest &request)
{
    const QString address = request.peer.toString();
    std::deque<qint64> &failures = m_failures[address];
    const qint64 now = m_clock.elapsed();
    while (!failures.empty() && now - failures.front() > kFailureWindowMs)
        failures.pop_front();
    if (int(failures.size()) >= m_options.failedAuthLimit) {
        net::HttpReply reply = errorReply(429, QStringLiteral("too many failed authentications from %1: try again later").arg(address));
        reply.extraHeaders = "Retry-After: " + QByteArray::number((kFailureWindowMs - (now - failures.front())) / 1000 + 1) + "\r\n";
        return reply;
    }
    reloadTokensIfChanged();
    if (!m_tokensProblem.isEmpty()) {
        // Fail closed: while the file does not parse, nobody is let in, not even as before.
        net::HttpReply reply = errorReply(503, QStringLiteral("the service's tokens file does not parse, so no credential is accepted until it is mended: %1").arg(m_tokensProblem));
        reply.extraHeaders = "Retry-After: 10\r\n";
        return reply;
    }
    std::optional<ServiceCredential> credential;
    const QByteArray authorization = request.header("authorization");
    if (authorization.startsWith("Bearer "))
        credential = m_tokens.byToken(authorization.mid(7).trimmed());
    else if (!request.peerCertificate.isNull())
        credential = m_tokens.byCertificate(QString::fromLatin1(request.peerCertificate.digest(QCryptographicHash::Sha256).toHex()));
    if (credential)
        return Caller{*credential};
    failures.push_back(now);
    if (failures.size() == 1 || int(failures.size()) == m_options.failedAuthLimit)
        Q_EMIT logLine(QStringLiteral("refused a request from %1 without a valid credential").arg(address));
    net::HttpReply reply = errorReply(401, authorization.isEmpty() && request.peerCertificate.isNull() ? QStringLiteral("a credential is needed: Authorization: Bearer TOKEN, or a client certificate") : QStringLiteral("the credential is not valid"));
    reply.extraHeaders = "WWW-Authenticate: Bearer realm=\"weft\"\r\n";
    if (m_failures.size() > 10000)  // addresses that stopped trying are forgotten
        m_failures.clear();
    return reply;
}

bool FabricService::allowed(const Caller &caller, ServiceRole needed, Responder &out)
{
    if (caller.credential.role >= needed)
        return true;
    out->reply(errorReply(403, QStringLiteral("%1 is %2; this needs %3").arg(caller.credential.name, serviceRoleName(caller.credential.role), serviceRoleName(needed))));
    return false;
}

QString FabricService::tokensFileStamp() const
{
    // The inode too: `weft serve token` replaces the file by a rename, within the same second.
    struct stat st{};
    if (::stat(QFile::encodeName(m_options.tokensPath).constData(), &st) != 0)
        return QStringLiteral("absent");
    return QStringLiteral("%1:%2:%3.%4").arg(st.st_ino).arg(st.st_size).arg(st.st_mtim.tv_sec).arg(st.st_mtim.tv_nsec);
}

void FabricService::reloadTokensIfChanged()
{
    const QString stamp = tokensFileStamp();
    if (stamp == m_tokensStamp)
        return;
    m_tokensStamp = stamp;
    Result<TokenStore> tokens = TokenStore::read(m_options.tokensPath);
    if (!tokens) {
        // Fail closed (docs/service.md): a file half edited by hand may have lost a revocation.
        const QString problem = tokens.error().toString();
        if (problem != m_tokensProblem)
            journalAdminAct(currentUserName(), QStringLiteral("credentials-unreadable"),
                            QStringLiteral("the tokens file does not parse: no credential is accepted until it does"), {}, problem);
        m_tokensProblem = problem;
        m_tokens = TokenStore{};
        return;
    }
    QStringList before, after;
    for (const ServiceCredential &c : m_tokens.credentials())
        before << QStringLiteral("%1 (%2)").arg(c.name, serviceRoleName(c.role));
    for (const ServiceCredential &c : tokens->credentials())
        after << QStringLiteral("%1 (%2)").arg(c.name, serviceRoleName(c.role));
    const bool wasClosed = !m_tokensProblem.isEmpty();
    m_tokensProblem.clear();
    m_tokens = std::move(*tokens);
    Q_EMIT logLine(QStringLiteral("credentials read again from %1 (%2)").arg(m_options.tokensPath).arg(m_tokens.credentials().size()));
    if (before != after || wasClosed)
        journalAdminAct(currentUserName(), QStringLiteral("credentials"), QStringLiteral("the tokens file changed: %1 credentials").arg(after.size()),
                        before.join(QStringLiteral(", ")), after.join(QStringLiteral(", ")));
}

void FabricService::serveMetrics(const net::HttpRequest &request, Responder out)
{
    if (request.method != "GET" && request.method != "HEAD") {
        net::HttpReply reply = errorReply(405, QStringLiteral("allowed here: GET"));
        reply.extraHeaders = "Allow: GET, HEAD\r\n";
        return out->reply(reply);
    }
    const bool loopback = request.peer.isLoopback();
    const bool open = m_options.metrics == MetricsAccess::Open || (m_options.metrics == MetricsAccess::Loopback && loopback);
    if (!open && !authenticate(request, out))
        return;
    const std::shared_ptr<const Fabric> fabric = m_session.sampler()->fabric();
    QByteArray text = fabric ? prometheusExposition(*fabric, m_session.sampler()->latest()) : QByteArray();
    if (const FabricCheckReport *health = healthReport())
        text += healthExposition(*health);
    out->reply(net::HttpReply{200, "text/plain; version=0.0.4; charset=utf-8", std::move(text), {}});
}

void FabricService::handleApi(const net::HttpRequest &request, const QByteArray &path, const Caller &caller, Responder out)
{
    const QByteArray &method = request.method;
    const bool read = method == "GET" || method == "HEAD";
    const auto wrongMethod = [&out](const char *allow) {
        net::HttpReply reply = errorReply(405, QStringLiteral("allowed here: %1").arg(QLatin1String(allow)));
        reply.extraHeaders = QByteArray("Allow: ") + allow + "\r\n";
        out->reply(reply);
    };
    const std::shared_ptr<const Fabric> fabric = m_session.fabric();
    if (path == "status")
        return read ? out->reply(jsonReply(200, status(&caller))) : wrongMethod("GET");
    if (path == "fabric" || path == "tables") {
        if (!read)
            return wrongMethod("GET");
        if (!fabric)
            return out->reply(undiscoveredReply());
        if (path == "fabric") {
            QJsonObject json = fabricToJson(*fabric, m_fabricGeneration);
            json.insert(QStringLiteral("instance"), m_instance);
            return out->reply(servedEncoded(request, jsonReply(200, json)));
        }
        return serveTables(request, std::move(out));
    }
    if (path == "health") {
        if (!read)
            return wrongMethod("GET");
        const FabricCheckReport *health = healthReport();
        if (!health)
            return out->reply(undiscoveredReply());
        return out->reply(servedEncoded(request, jsonReply(200, checkReportJson(*health))));
    }
    if (path == "telemetry")
        return read ? telemetry(request, std::move(out)) : wrongMethod("GET");
    if (path == "journal")
        return read ? journal(std::move(out)) : wrongMethod("GET");
    if (path == "events")
        return read ? openEvents(caller, std::move(out)) : wrongMethod("GET");
    if (path == "plans" || path.startsWith("plans/"))
        followGenerations();
    if (path == "plans") {
        if (read) {
            QJsonArray plans;
            for (const auto &[number, plan] : m_plans)
                plans.append(servicePlanJson(plan, planState(plan), planRefusal(plan)));
            return out->reply(servedEncoded(request, jsonReply(200, QJsonObject{{QStringLiteral("plans"), plans}})));
        }
        if (method != "POST")
            return wrongMethod("GET, POST");
        if (allowed(caller, ServiceRole::Operator, out))
            postPlan(request, caller, std::move(out));
        return;
    }
    if (path.startsWith("plans/")) {
        QByteArray rest = path.mid(6);
        const bool commit = rest.endsWith("/commit");
        if (commit)
            rest.chop(7);
        if (commit && (method != "POST" || !allowed(caller, ServiceRole::Admin, out)))
            return method != "POST" ? wrongMethod("POST") : void();
        const QString id = QString::fromUtf8(rest);
        const auto it = std::find_if(m_plans.begin(), m_plans.end(), [&](const auto &p) { return p.second.id == id; });
        if (it == m_plans.end()) {
            // The id as sent, escaped, in one pass: a "%2" in it is text, not a place for a number.
            const QString shown = QString::fromLatin1(QUrl::toPercentEncoding(QString::fromUtf8(rest.left(40)), "/"));
            return out->reply(errorReply(404, QStringLiteral("no plan %1 (plans are kept until %2 newer ones are made, and not across restarts)").arg(shown, QString::number(kPlansKept))));
        }
        if (!commit)
            return read ? out->reply(servedEncoded(request, jsonReply(200, servicePlanJson(it->second, planState(it->second), planRefusal(it->second)))))
                        : wrongMethod("GET");
        commitServicePlan(id, request, caller, std::move(out));
        return;
    }
    if (path == "jobs") {
        if (!read)
            return wrongMethod("GET");
        return out->reply(jsonReply(200, jobsInForceJson(partitionsOnTarget(m_session.planningTarget()), m_session.fabric().get(), m_slurm, m_jobsStarted)));
    }
    if (path.startsWith("jobs/")) {
        if (method != "PUT" && method != "DELETE")
            return wrongMethod("PUT, DELETE");
        if (allowed(caller, ServiceRole::Operator, out))
            jobRequest(method, QString::fromUtf8(path.mid(5)), request, caller, std::move(out));
        return;
    }
    if (path == "discover") {
        if (method != "POST")
            return wrongMethod("POST");
        if (!allowed(caller, ServiceRole::Operator, out))
            return;
        if (!m_session.isDiscovering() && !m_session.discover(m_session.fabric() != nullptr))
            return out->reply(errorReply(409, QStringLiteral("a discovery cannot start now")));
        m_waitingForDiscovery.push_back(std::move(out));
        return;
    }
    if (path == "recover") {
        if (method != "POST")
            return wrongMethod("POST");
        if (allowed(caller, ServiceRole::Admin, out))
            recover(request, caller, std::move(out));
        return;
    }
    if (path == "rules") {
        if (read)
            return out->reply(jsonReply(200, QJsonObject{{QStringLiteral("text"), m_session.autopilot()->appliedRulesText()}, {QStringLiteral("rules"), m_session.autopilot()->ruleCount()}, {QStringLiteral("mode"), adapt::modeName(m_session.autopilot()->mode())}}));
        if (method != "PUT")
            return wrongMethod("GET, PUT");
        if (allowed(caller, ServiceRole::Admin, out))
            putRules(request, caller, std::move(out));
        return;
    }
    if (path == "mode") {
        if (method != "PUT")
            return wrongMethod("PUT");
        if (allowed(caller, ServiceRole::Admin, out))
            putMode(request, caller, std::move(out));
        return;
    }
    out->reply(errorReply(404, QStringLiteral("no such path: /api/v1/%1").arg(QString::fromUtf8(path.left(200)))));
}

QJsonObject FabricService::status(const Caller *caller) const
{
    const std::shared_ptr<const Fabric> fabric = m_session.fabric();
    QJsonObject counts;
    if (fabric)
        counts = fabricCountsJson(*fabric);
    const TelemetrySampler *sampler = m_session.sampler();
    const std::optional<CommitJournalEntry> unfinished = m_session.unfinishedCommit();
    QJsonObject o{{QStringLiteral("subnet"), m_session.subnetTarget() ? m_session.subnetTarget()->subnet : QString()},
                  {QStringLiteral("version"), QCoreApplication::applicationVersion()},
                  {QStringLiteral("fabric"), counts},
                  {QStringLiteral("fabric_generation"), double(m_fabricGeneration)},
                  {QStringLiteral("held_generation"), double(m_session.heldGeneration())},
                  {QStringLiteral("instance"), m_instance},
                  {QStringLiteral("discovered_at"), timeText(m_discoveredAt)},
                  {QStringLiteral("discovering"), m_session.isDiscovering()},
                  {QStringLiteral("discovery_error"), m_lastDiscoveryError},
                  {QStringLiteral("committing"), m_session.isCommitting()},
                  {QStringLiteral("link"), linkStatus()},
                  {QStringLiteral("unfinished_commit"), unfinished.has_value()},
                  {QStringLiteral("plugin_mode"), m_session.subnetTarget() && m_session.subnetTarget()->pluginMode()},
                  {QStringLiteral("mode"), adapt::modeName(m_session.autopilot()->mode())},
                  {QStringLiteral("telemetry"),
                   QJsonObject{{QStringLiteral("interval"), sampler->interval()},
                               {QStringLiteral("running"), sampler->isRunning()},
                               {QStringLiteral("last_tick"), m_lastTick},
                               {QStringLiteral("skipped_passes"), sampler->skippedPasses()},
                               {QStringLiteral("last_skip"), sampler->lastSkipReason()}}}};
    if (caller)
        o.insert(QStringLiteral("you"), QJsonObject{{QStringLiteral("name"), caller->credential.name}, {QStringLiteral("role"), serviceRoleName(caller->credential.role)}});
    return o;
}

// 503 while there is no fabric: being discovered (`untilThen` says what to do meanwhile, e.g.
// ": plan once it is"), or the last discovery's error.
net::HttpReply FabricService::undiscoveredReply(const QString &untilThen) const
{
    return errorReply(503, m_lastDiscoveryError.isEmpty() ? QStringLiteral("the fabric is being discovered") + untilThen
                                                          : QStringLiteral("the fabric could not be discovered: %1").arg(m_lastDiscoveryError));
}

// What the fabric link is doing: the job running (kind, name, seconds, past its deadline) and how
// many wait behind it.
QJsonObject FabricService::linkStatus() const
{
    const FabricLink &link = m_session.link();
    QJsonObject o{{QStringLiteral("queued"), link.queuedJobs()}, {QStringLiteral("stopped"), link.isStopped()}};
    if (const std::optional<FabricLink::Running> running = link.running())
        o.insert(QStringLiteral("running"), QJsonObject{{QStringLiteral("kind"), FabricLink::kindName(running->kind)},
                                                         {QStringLiteral("name"), running->name},
                                                         {QStringLiteral("seconds"), running->seconds},
                                                         {QStringLiteral("overdue"), running->overdue}});
    return o;
}

// ---- plans and commits ---------------------------------------------------------------------------

QString FabricService::planState(const ServicePlan &plan) const
{
    if (plan.committed)
        return QStringLiteral("committed");
    if (!plan.check.reasons.isEmpty())
        return QStringLiteral("refused");
    return planRefusal(plan).isEmpty() ? QStringLiteral("open") : QStringLiteral("stale");
}

QString FabricService::planRefusal(const ServicePlan &plan) const
{
    if (plan.committed)
        return QStringLiteral("committed already");
    // What the commit's own check would refuse, refused before anything is written or signalled.
    if (!plan.check.reasons.isEmpty())
        return QStringLiteral("the commit would refuse it: %1").arg(plan.check.reasons.join(QStringLiteral("; ")));
    if (!plan.staleBecause.isEmpty() && plan.checkedFabricGeneration == m_fabricGeneration && plan.checkedHeldGeneration == m_session.heldGeneration())
        return plan.staleBecause;
    if (!m_session.liveChanges().empty())
        return QStringLiteral("the fabric changed since it was discovered (%1): plan again once it is discovered anew")
            .arg(m_session.liveChanges().toText().simplified().left(600));
    // Not yet followed (followGenerations): said as it stands.
    if (plan.fabricGeneration != m_fabricGeneration || plan.heldGeneration != m_session.heldGeneration())
        return QStringLiteral("the plan was made on fabric generation %1 holding generation %2, the service is at %3 and %4: plan again")
            .arg(plan.fabricGeneration)
            .arg(plan.heldGeneration)
            .arg(m_fabricGeneration)
            .arg(m_session.heldGeneration());
    return {};
}

void FabricService::followGenerations()
{
    const std::shared_ptr<const Fabric> fabric = m_session.fabric();
    const quint64 held = m_session.heldGeneration();
    for (auto &[number, plan] : m_plans) {
        if (plan.committed || (plan.fabricGeneration == m_fabricGeneration && plan.heldGeneration == held)
            || (plan.checkedFabricGeneration == m_fabricGeneration && plan.checkedHeldGeneration == held))
            continue;
        plan.checkedFabricGeneration = m_fabricGeneration;
        plan.checkedHeldGeneration = held;
        // What the plan was made from, compared with what the service has now: a discovery that
        // found the same fabric holding the same tables leaves the plan as it was.
        const QString changed = fabric ? planBasisChange(plan, *fabric, m_session.held()) : QStringLiteral("the service has no fabric now");
        if (changed.isEmpty()) {
            plan.fabricGeneration = m_fabricGeneration;
            plan.heldGeneration = held;
            plan.staleBecause.clear();
            continue;
        }
        QStringList when;
        for (const GenerationChange &g : m_generations)
            if (g.fabricGeneration > plan.fabricGeneration || g.heldGeneration > plan.heldGeneration)
                when << QStringLiteral("at %1 fabric generation %2, held generation %3: %4").arg(timeText(g.at)).arg(g.fabricGeneration).arg(g.heldGeneration).arg(g.cause);
        plan.staleBecause = QStringLiteral("what the plan was made from (fabric generation %1, held generation %2) changed: %3%4; plan again")
                                .arg(plan.fabricGeneration)
                                .arg(plan.heldGeneration)
                                .arg(changed, when.isEmpty() ? QString() : QStringLiteral(" (") + when.mid(0, 4).join(QStringLiteral("; ")) + QLatin1Char(')'));
    }
}

QJsonArray FabricService::generationsSince(const ServicePlan &plan) const
{
    QJsonArray changes;
    for (const GenerationChange &g : m_generations)
        if (g.fabricGeneration > plan.fabricGeneration || g.heldGeneration > plan.heldGeneration)
            changes.append(QJsonObject{{QStringLiteral("at"), timeText(g.at)},
                                       {QStringLiteral("fabric_generation"), double(g.fabricGeneration)},
                                       {QStringLiteral("held_generation"), double(g.heldGeneration)},
                                       {QStringLiteral("cause"), g.cause}});
    return changes;
}

void FabricService::serveTables(const net::HttpRequest &request, Responder out)
{
    const std::shared_ptr<const Fabric> fabric = m_session.fabric();
    const QUrlQuery query(QString::fromUtf8(request.query));
    const QString form = query.queryItemValue(QStringLiteral("form"));
    if (!form.isEmpty() && form != QLatin1String("json") && form != QLatin1String("compact"))
        return out->reply(errorReply(400, QStringLiteral("form: \"%1\" is neither json nor compact").arg(form.left(40))));
    const bool compact = form == QLatin1String("compact");
    std::optional<quint64> since;
    if (query.hasQueryItem(QStringLiteral("since"))) {
        bool ok = false;
        since = query.queryItemValue(QStringLiteral("since")).toULongLong(&ok);
        if (!ok)
            return out->reply(errorReply(400, QStringLiteral("since: not a held generation: \"%1\"").arg(query.queryItemValue(QStringLiteral("since")).left(40))));
        if (!compact)
            return out->reply(errorReply(400, QStringLiteral("since: only with form=compact")));
    }
    // The partitions the ports hold, named as the partitions.conf in force names them.
    const HeldTables &held = m_session.held();
    std::vector<Partition> partitions = m_session.baselinePartitions();
    if (held.pkeys) {
        partitions = partitionsHeld(*fabric, *held.pkeys);
        nameAfter(partitions, partitionsOnTarget(m_session.planningTarget()).partitions);
    }
    const quint64 generation = m_session.heldGeneration();
    if (!compact) {
        // Written as bytes: the dump is never a QString or a QJsonValue (ServiceFormat.h).
        return out->reply(servedEncoded(request, net::HttpReply{200, kJson, heldToJsonBytes(*fabric, held, m_session.currentTablesName(), generation, partitions, m_instance), {}}));
    }
    static const ForwardingTables noTables;
    const ForwardingTables &lfts = held.lfts ? *held.lfts : noTables;
    // What this generation's switches are, kept for the deltas asked from it later.
    if (m_tablesAnswered.empty() || m_tablesAnswered.back().heldGeneration != generation) {
        TablesAnswered answered{generation, {}};
        answered.digests.reserve(lfts.size());
        for (const SwitchForwardingTable &s : lfts.switches())
            answered.digests.emplace(s.guid, switchTableDigest(s.lft));
        m_tablesAnswered.push_back(std::move(answered));
        while (m_tablesAnswered.size() > kTablesAnsweredKept)
            m_tablesAnswered.pop_front();
    }
    QJsonObject header{{QStringLiteral("held_generation"), double(generation)},
                       {QStringLiteral("name"), m_session.currentTablesName()},
                       {QStringLiteral("instance"), m_instance},
                       {QStringLiteral("pkeys"), held.pkeys ? QString::fromUtf8(writePKeyTables(*held.pkeys, *fabric)) : QString()},
                       {QStringLiteral("sm_port"), held.smPort ? guidText(held.smPort) : QString()},
                       {QStringLiteral("partitions"), QString::fromUtf8(writePartitionsConf(partitions))}};
    // A delta from a generation this process answered (the instance tells another process's
    // generations apart); else the whole tables, `since` absent.
    const auto base = std::find_if(m_tablesAnswered.begin(), m_tablesAnswered.end(), [&](const TablesAnswered &t) { return since && t.heldGeneration == *since; });
    const bool delta = base != m_tablesAnswered.end() && query.queryItemValue(QStringLiteral("instance")) == m_instance;
    if (!delta)
        return out->reply(servedEncoded(request, net::HttpReply{200, "application/x-weft-tables", writeCompactTables(header, lfts), {}}));
    const TablesAnswered &now = m_tablesAnswered.back();
    std::vector<std::size_t> changed;
    for (std::size_t i = 0; i < lfts.size(); ++i) {
        const auto then = base->digests.find(lfts.at(i).guid);
        if (then == base->digests.end() || then->second != now.digests.at(lfts.at(i).guid))
            changed.push_back(i);
    }
    QJsonArray removed;
    for (const auto &[guid, digest] : base->digests)
        if (!now.digests.count(guid))
            removed.append(guidText(guid));
    header.insert(QStringLiteral("since"), double(*since));
    header.insert(QStringLiteral("removed"), removed);
    out->reply(servedEncoded(request, net::HttpReply{200, "application/x-weft-tables", writeCompactTables(header, lfts, &changed), {}}));
}

void FabricService::postPlan(const net::HttpRequest &request, const Caller &caller, Responder out)
{
    const std::shared_ptr<const Fabric> fabric = m_session.fabric();
    if (!fabric)
        return out->reply(undiscoveredReply(QStringLiteral(": plan once it is")));
    const PartitionsState inForce = partitionsOnTarget(m_session.planningTarget());
    // A body that is not a JSON object is refused as every other body is ("line 3, column 7").
    net::HttpReply refusal;
    if (request.body.trimmed().isEmpty())
        return out->reply(errorReply(400, QStringLiteral("the body must be a Weft project, or a plan of tables (docs/service-api.md)")));
    if (!objectBody(request, &refusal))
        return out->reply(refusal);
    Result<ServicePlan> made = makeServicePlan(request.body, *fabric, m_session.held(), inForce,
                                               m_session.subnetTarget() && m_session.subnetTarget()->pluginMode());
    if (!made) {
        // A part of the body (its lfts, its project) is named with its own line.
        const Error &e = made.error();
        return out->reply(errorReply(400, e.message, e.line > 0 ? QStringLiteral("%1, line %2").arg(e.file).arg(e.line) : e.file));
    }
    ServicePlan plan = std::move(*made);
    const int number = m_nextPlan++;
    plan.id = QStringLiteral("p%1").arg(number);
    plan.by = caller.credential.name;
    plan.fabricGeneration = m_fabricGeneration;
    plan.heldGeneration = m_session.heldGeneration();
    const QJsonObject json = servicePlanJson(plan, planState(plan), planRefusal(plan));
    m_plans.emplace(number, std::move(plan));
    while (m_plans.size() > kPlansKept)
        m_plans.erase(m_plans.begin());
    broadcast("plan", QJsonObject{{QStringLiteral("id"), json.value(QStringLiteral("id"))}, {QStringLiteral("by"), caller.credential.name}, {QStringLiteral("smps"), json.value(QStringLiteral("smps"))}});
    out->reply(jsonReply(201, json));
}

void FabricService::commitServicePlan(const QString &id, const net::HttpRequest &request, const Caller &caller, Responder out)
{
    net::HttpReply refusal;
    const std::optional<QJsonObject> body = objectBody(request, &refusal);
    if (!body)
        return out->reply(refusal);
    auto it = std::find_if(m_plans.begin(), m_plans.end(), [&](const auto &p) { return p.second.id == id; });
    if (const QString why = planRefusal(it->second); !why.isEmpty()) {
        QJsonObject answer{{QStringLiteral("error"), QStringLiteral("plan %1: %2").arg(id, why)}, {QStringLiteral("state"), planState(it->second)}};
        if (const QJsonArray changes = generationsSince(it->second); !changes.isEmpty())
            answer.insert(QStringLiteral("changes"), changes);
        return out->reply(jsonReply(409, answer));
    }
    if (m_session.isCommitting() || m_pendingCommit)
        return out->reply(errorReply(409, QStringLiteral("a commit is running: wait for it, then plan again")));
    m_session.setCommitUser(caller.credential.name);
    QString why;
    const bool accept = body->value(QStringLiteral("accept_violations")).toBool();
    if (!m_session.commitChange(it->second.commit, QStringLiteral("plan %1 by %2").arg(id, caller.credential.name), &why, accept))
        return out->reply(errorReply(409, why));
    Q_EMIT logLine(QStringLiteral("%1 commits plan %2").arg(caller.credential.name, id));
    m_pendingCommit = PendingCommit{std::move(out), id, caller.credential.name, false};
}

void FabricService::recover(const net::HttpRequest &request, const Caller &caller, Responder out)
{
    net::HttpReply refusal;
    const std::optional<QJsonObject> body = objectBody(request, &refusal);
    if (!body)
        return out->reply(refusal);
    if (m_session.isCommitting() || m_pendingCommit)
        return out->reply(errorReply(409, QStringLiteral("a commit is running")));
    if (!m_session.unfinishedCommit())
        return out->reply(errorReply(409, QStringLiteral("no unfinished commit is in the journal")));
    CommitOptions options;
    options.user = caller.credential.name;
    options.recoveredBy = QStringLiteral("the service (%1)").arg(caller.credential.name);
    options.recoverByRollback = body->value(QStringLiteral("rollback")).toBool();
    m_pendingCommit = PendingCommit{std::move(out), {}, caller.credential.name, true};
    // On the link like a commit: never beside a discovery or a pass on the wire.
    m_session.recover(options, [this](const CommitReport &report) { onCommitFinished(report); });
}

void FabricService::onCommitFinished(const CommitReport &report)
{
    const QJsonObject json = report.toJson();
    if (m_pendingCommit) {
        for (auto &[number, plan] : m_plans)
            if (plan.id == m_pendingCommit->planId && report.ok())
                plan.committed = true;
        const QString what = m_pendingCommit->recovery ? QStringLiteral("recovery")
            : !m_pendingCommit->job.isEmpty()           ? m_pendingCommit->job.value(QStringLiteral("summary")).toString()
                                                        : QStringLiteral("commit of plan %1").arg(m_pendingCommit->planId);
        Q_EMIT logLine(QStringLiteral("%1 of %2: %3").arg(what, m_pendingCommit->by, commitOutcomeName(report.outcome)));
        QJsonObject answer = json;
        answer.insert(QStringLiteral("plan"), m_pendingCommit->planId);
        answer.insert(QStringLiteral("by"), m_pendingCommit->by);
        int httpStatus = 200;
        if (!m_pendingCommit->job.isEmpty()) {
            // The job's answer with the commit's outcome (the whole report is in the journal); a
            // job's partition not in force is an error for the prolog, whatever the reason.
            answer = m_pendingCommit->job;
            for (const char *key : {"outcome", "smps", "reasons", "violations"})
                answer.insert(QLatin1String(key), json.value(QLatin1String(key)));
            if (!report.ok()) {
                httpStatus = 502;
                answer.insert(QStringLiteral("error"), QStringLiteral("the commit ended %1").arg(commitOutcomeName(report.outcome)));
            }
        }
        m_pendingCommit->out->reply(jsonReply(httpStatus, answer));
        m_pendingCommit.reset();
    }
    broadcast("commit", QJsonObject{{QStringLiteral("outcome"), commitOutcomeName(report.outcome)}, {QStringLiteral("smps"), json.value(QStringLiteral("smps"))}, {QStringLiteral("held_generation"), double(m_session.heldGeneration())}});
    runJobRequests();
}

// ---- Slurm's jobs ---------------------------------------------------------------------------------

void FabricService::jobRequest(const QByteArray &method, const QString &job, const net::HttpRequest &request, const Caller &caller, Responder out)
{
    if (!m_options.jobPool)
        return out->reply(errorReply(404, QStringLiteral("jobs get no partitions here: the service was started without --job-pkeys")));
    if (!m_session.fabric())
        return out->reply(undiscoveredReply(QStringLiteral(": ask again once it is")));
    if (m_session.subnetTarget() && m_session.subnetTarget()->pluginMode())
        return out->reply(errorReply(409, QStringLiteral("the commit target routes with Weft's engine inside OpenSM: jobs' partitions are not planned for it")));
    net::HttpReply refusal;
    std::optional<QJsonObject> body = QJsonObject();
    if (!request.body.trimmed().isEmpty() && !(body = objectBody(request, &refusal)))
        return out->reply(refusal);
    JobRequest asked;
    asked.start = method == "PUT";
    asked.by = caller.credential.name;
    asked.out = std::move(out);
    if (asked.start) {
        Result<SlurmJob> parsed = slurmJobFromJson(job, *body, m_options.jobPolicy);
        if (!parsed)
            return asked.out->reply(errorReply(400, parsed.error().message, parsed.error().file));
        asked.job = std::move(*parsed);
    } else {
        if (!isSlurmJobId(job))
            return asked.out->reply(errorReply(400, QStringLiteral("a job ID is letters, digits and '_', at most 48")));
        asked.job.id = job;
        asked.job.user = text::withoutControlCharacters(body->value(QStringLiteral("user")).toString().trimmed()).left(64);
    }
    m_jobRequests.push_back(std::move(asked));
    runJobRequests();
}

void FabricService::runJobRequests()
{
    while (!m_jobRequests.empty() && !m_stopped && !m_session.isCommitting() && !m_pendingCommit) {
        JobRequest asked = std::move(m_jobRequests.front());
        m_jobRequests.pop_front();
        const std::shared_ptr<const Fabric> fabric = m_session.fabric();
        if (!fabric) {
            asked.out->reply(errorReply(503, QStringLiteral("the fabric is being discovered: ask again once it is")));
            continue;
        }
        const PartitionsState inForce = partitionsOnTarget(m_session.planningTarget());
        JobPartitionChange change = asked.start ? planJobStart(*fabric, m_session.held(), inForce, asked.job, *m_options.jobPool, m_slurm)
                                                : planJobEnd(*fabric, m_session.held(), inForce, asked.job.id, asked.job.user);
        if (change.refusal != JobPartitionChange::Refusal::None) {
            Q_EMIT logLine(QStringLiteral("job %1 (%2): refused: %3").arg(asked.job.id, asked.start ? QStringLiteral("start") : QStringLiteral("end"), change.why));
            asked.out->reply(errorReply(change.refusal == JobPartitionChange::Refusal::BadRequest ? 400 : 409, change.why));
            continue;
        }
        // Remembered for GET jobs: a repeated prolog keeps the first start's time.
        if (asked.start) {
            JobStartRecord &record = m_jobsStarted[asked.job.id];
            if (!record.started.isValid())
                record.started = QDateTime::currentDateTimeUtc();
            record.user = asked.job.user;
            record.policy = asked.job.policy;
        } else {
            m_jobsStarted.erase(asked.job.id);
        }
        QJsonObject answer{{QStringLiteral("job"), asked.job.id},
                           {QStringLiteral("partition"), jobPartitionName(asked.job.id)},
                           {QStringLiteral("pkey"), change.pkey ? pkeyText(change.pkey) : QString()},
                           {QStringLiteral("ports"), change.ports},
                           {QStringLiteral("changed"), !change.unchanged},
                           {QStringLiteral("summary"), change.summary}};
        if (asked.start)
            answer.insert(QStringLiteral("hosts"), QJsonArray::fromStringList(change.hosts));
        if (change.unchanged) {
            asked.out->reply(jsonReply(200, answer));
            continue;
        }
        m_session.setCommitUser(asked.by);
        QString why;
        if (!m_session.commitChange(change.plan, change.summary, &why)) {
            Q_EMIT logLine(QStringLiteral("job %1: not committed: %2").arg(asked.job.id, why));
            asked.out->reply(errorReply(409, why));
            continue;
        }
        Q_EMIT logLine(QStringLiteral("%1 commits for %2").arg(asked.by, change.summary));
        m_pendingCommit = PendingCommit{std::move(asked.out), QString(), asked.by, false, answer};
    }
}

// ---- reading -------------------------------------------------------------------------------------

void FabricService::telemetry(const net::HttpRequest &request, Responder out)
{
    TelemetrySampler *sampler = m_session.sampler();
    const std::shared_ptr<const Fabric> fabric = sampler->fabric();
    if (!fabric)
        return out->reply(errorReply(503, QStringLiteral("no fabric is sampled yet")));
    const QUrlQuery query(QString::fromUtf8(request.query));
    if (!query.hasQueryItem(QStringLiteral("since"))) {
        const std::vector<TelemetryRecord> &records = sampler->latest();
        return out->reply(jsonReply(200, telemetryToJson(*fabric, records, records.empty() ? 0.0 : records.front().time, sampler->interval())));
    }
    const QString since = query.queryItemValue(QStringLiteral("since"));
    bool number = false;
    double from = since.toDouble(&number);
    if (!number) {
        const QDateTime time = QDateTime::fromString(since, Qt::ISODate);
        if (!time.isValid())
            return out->reply(errorReply(400, QStringLiteral("since: not a time (ISO 8601, or seconds since the epoch): \"%1\"").arg(since.left(40))));
        from = double(time.toMSecsSinceEpoch()) / 1000;
    }
    if (sampler->historyPath().isEmpty())
        return out->reply(errorReply(404, QStringLiteral("no history is kept")));
    // The sampler's worker writes the history; a reader of its own sees what is committed.
    Result<std::unique_ptr<TelemetryHistory>> history = TelemetryHistory::open(sampler->historyPath(), fabricHistoryId(*fabric));
    if (!history)
        return out->reply(errorReply(500, history.error().toString()));
    Result<std::vector<HistoryPoint>> points = (*history)->read(from, 1e12);
    if (!points)
        return out->reply(errorReply(500, points.error().toString()));
    QJsonArray samples;
    auto rate = [](const CounterRate &r) { return r.ok() ? QJsonValue(r.value) : QJsonValue(QJsonValue::Null); };
    for (const HistoryPoint &p : *points)
        samples.append(QJsonObject{{QStringLiteral("time"), p.time},
                                   {QStringLiteral("guid"), guidText(p.guid)},
                                   {QStringLiteral("port"), p.port},
                                   {QStringLiteral("samples"), p.samples},
                                   {QStringLiteral("xmit_bytes"), rate(p.xmitBytes)},
                                   {QStringLiteral("rcv_bytes"), rate(p.rcvBytes)},
                                   {QStringLiteral("xmit_wait"), rate(p.xmitWait)},
                                   {QStringLiteral("utilisation"), rate(p.utilisation)}});
    out->reply(jsonReply(200, QJsonObject{{QStringLiteral("since"), from}, {QStringLiteral("samples"), samples}}));
}

void FabricService::journal(Responder out)
{
    const QString path = m_session.journalPath();
    if (path.isEmpty() || !QFileInfo::exists(path))
        return out->reply(jsonReply(200, QJsonObject{{QStringLiteral("entries"), QJsonArray()}}));
    Result<std::vector<CommitJournalEntry>> entries = readJournal(path);
    if (!entries)
        return out->reply(errorReply(500, entries.error().toString()));
    QJsonArray list;
    for (const CommitJournalEntry &e : *entries)
        list.append(e.toJson());
    out->reply(jsonReply(200, QJsonObject{{QStringLiteral("entries"), list}}));
}

void FabricService::putRules(const net::HttpRequest &request, const Caller &caller, Responder out)
{
    net::HttpReply refusal;
    const std::optional<QJsonObject> body = objectBody(request, &refusal);
    if (!body)
        return out->reply(refusal);
    // As `weft rules check` reads them, before anything changes: an empty or missing text would
    // silently remove every rule, so it is refused (a file of comments alone removes them on purpose).
    const QJsonValue textValue = body->value(QStringLiteral("text"));
    if (!textValue.isString() || textValue.toString().trimmed().isEmpty())
        return out->reply(errorReply(400, QStringLiteral("the body must be {\"text\": RULES}, the rules as `weft rules check` reads them; "
                                                         "an empty text is refused and the rules stay as they are")));
    const QByteArray text = textValue.toString().toUtf8();
    const adapt::RuleFile parsed = adapt::parseRules(text, QStringLiteral("rules"));
    if (!parsed.ok())
        return out->reply(errorReply(400, parsed.error->toString(), QStringLiteral("line %1, column %2").arg(parsed.error->line).arg(parsed.error->column)));
    const QString before = m_session.autopilot()->appliedRulesText();
    if (Status applied = m_session.autopilot()->applyRules(text, QStringLiteral("rules")); !applied)
        return out->reply(errorReply(400, applied.error().message, QStringLiteral("line %1").arg(applied.error().line)));
    journalAdminAct(caller.credential.name, QStringLiteral("rules"), QStringLiteral("rules replaced: %1 rules").arg(parsed.rules.size()), before, QString::fromUtf8(text));
    out->reply(jsonReply(200, QJsonObject{{QStringLiteral("rules"), m_session.autopilot()->ruleCount()}}));
}

void FabricService::putMode(const net::HttpRequest &request, const Caller &caller, Responder out)
{
    net::HttpReply refusal;
    const std::optional<QJsonObject> body = objectBody(request, &refusal);
    if (!body)
        return out->reply(refusal);
    const QString name = body->value(QStringLiteral("mode")).toString();
    const std::optional<adapt::RuleMode> mode = adapt::modeFromName(name);
    if (!mode)
        return out->reply(errorReply(400, QStringLiteral("mode: \"%1\" is none of auto, approve, dry-run").arg(name.left(40))));
    const QString before = adapt::modeName(m_session.autopilot()->mode());
    if (!m_session.autopilot()->setMode(*mode))
        return out->reply(errorReply(409, m_session.autopilot()->lastProblem()));
    journalAdminAct(caller.credential.name, QStringLiteral("mode"), QStringLiteral("the loop's mode set to %1").arg(adapt::modeName(*mode)), before, adapt::modeName(*mode));
    out->reply(jsonReply(200, QJsonObject{{QStringLiteral("mode"), adapt::modeName(*mode)}}));
}

void FabricService::journalAdminAct(const QString &user, const QString &act, const QString &summary, const QString &before, const QString &after)
{
    Q_EMIT logLine(QStringLiteral("%1: %2").arg(user, summary));
    const QString path = m_session.journalPath();
    if (path.isEmpty())
        return;
    CommitJournalEntry entry;
    entry.time = QDateTime::currentDateTimeUtc();
    entry.id = QStringLiteral("admin-%1-%2").arg(act).arg(entry.time.toMSecsSinceEpoch());
    entry.user = user;
    entry.kind = QStringLiteral("admin");
    entry.outcome = act;
    entry.planSummary = summary;
    entry.subnet = m_session.subnetTarget() ? m_session.subnetTarget()->subnet : QString();
    entry.details << QStringLiteral("before: %1").arg(before.left(65536)) << QStringLiteral("after: %1").arg(after.left(65536));
    if (const Status written = appendJournalEntry(path, entry); !written)
        Q_EMIT logLine(QStringLiteral("the journal was not written (%1): %2").arg(summary, written.error().toString()));
}

void FabricService::openEvents(const Caller &caller, Responder out)
{
    const QString &name = caller.credential.name;
    const auto held = std::count_if(m_streams.begin(), m_streams.end(), [&](const Stream &s) { return s.out->isOpen() && s.credential.name == name; });
    if (held >= m_options.maxStreamsPerCredential) {
        net::HttpReply reply = errorReply(429, QStringLiteral("%1 has %2 event streams open, the most one credential may").arg(name).arg(held));
        reply.extraHeaders = "Retry-After: 30\r\n";
        return out->reply(reply);
    }
    if (!out->startStream(200, "text/event-stream", "Cache-Control: no-store\r\n"))
        return;  // HEAD: the head alone
    out->write("retry: 5000\n\n");
    m_streams.push_back(Stream{std::move(out), caller.credential, m_clock.elapsed()});
}

void FabricService::endStream(std::size_t index, const QString &reason)
{
    const Responder out = m_streams[index].out;
    m_streams.erase(m_streams.begin() + std::ptrdiff_t(index));
    out->write("event: end\ndata: " + QJsonDocument(QJsonObject{{QStringLiteral("reason"), reason}}).toJson(QJsonDocument::Compact) + "\n\n");
    out->close();
}

void FabricService::checkStreams()
{
    const qint64 now = m_clock.elapsed();
    for (std::size_t i = m_streams.size(); i-- > 0;) {
        const Stream &stream = m_streams[i];
        if (!stream.out->isOpen()) {
            m_streams.erase(m_streams.begin() + std::ptrdiff_t(i));
            continue;
        }
        const auto now_ = std::find_if(m_tokens.credentials().begin(), m_tokens.credentials().end(),
                                       [&](const ServiceCredential &c) { return c.name == stream.credential.name; });
        const bool gone = now_ == m_tokens.credentials().end() || now_->tokenSha256 != stream.credential.tokenSha256
                          || now_->certificateSha256 != stream.credential.certificateSha256;
        if (!m_tokensProblem.isEmpty())
            endStream(i, QStringLiteral("the tokens file does not parse: no credential holds until it does"));
        else if (gone)
            endStream(i, QStringLiteral("the credential %1 was revoked").arg(stream.credential.name));
        else if (now_->role != stream.credential.role)
            endStream(i, QStringLiteral("the role of %1 changed to %2").arg(stream.credential.name, serviceRoleName(now_->role)));
        else if (now - stream.openedMs > qint64(m_options.streamMaxLifeSeconds) * 1000)
            endStream(i, QStringLiteral("the stream reached its longest life (%1 s): connect again").arg(m_options.streamMaxLifeSeconds));
    }
}

void FabricService::broadcast(const QByteArray &event, const QJsonObject &data)
{
    const QByteArray message = "event: " + event + "\ndata: " + QJsonDocument(data).toJson(QJsonDocument::Compact) + "\n\n";
    for (const Stream &stream : m_streams)
        stream.out->write(message);
    m_streams.erase(std::remove_if(m_streams.begin(), m_streams.end(), [](const Stream &s) { return !s.out->isOpen(); }), m_streams.end());
}

// ---- the fabric ----------------------------------------------------------------------------------

void FabricService::rediscover()
{
    // A commit reads the tables back itself: a rediscovery queued behind it would only read them again.
    if (m_session.isDiscovering() || m_session.isCommitting())
        return;
    m_session.discover(m_session.fabric() != nullptr);
}

void FabricService::onDiscovered(std::shared_ptr<const LiveState> state)
{
    Tenancy tenancy;
    tenancy.partitions = state->partitions;
    // The session tells what setFabric changed to its caller (a desk's document relays it).
    onSessionChanged(m_session.setFabric(state->fabric, tenancy, ++m_revision));
}

void FabricService::onDiscoveryFinished(bool ok, const QString &error, bool cancelled)
{
    Q_UNUSED(cancelled);
    m_lastDiscoveryError = ok ? QString() : error;
    if (ok) {
        m_discoveredAt = QDateTime::currentDateTimeUtc();
        if (!m_session.liveChanges().empty()) {
            // The topology changed: the service takes the fabric as it is now.
            Q_EMIT logLine(QStringLiteral("the fabric changed: discovering it anew"));
            m_nextFabricCause = QStringLiteral("discovered anew, the topology having changed (%1)").arg(m_session.liveChanges().toText().simplified().left(400));
            QTimer::singleShot(0, this, [this] { m_session.discover(false); });
        }
    } else {
        Q_EMIT logLine(QStringLiteral("discovery failed: %1").arg(error));
    }
    const QJsonObject now = status(nullptr);
    for (const Responder &out : std::exchange(m_waitingForDiscovery, {}))
        out->reply(ok ? jsonReply(200, now) : errorReply(502, QStringLiteral("discovery failed: %1").arg(error)));
}

const FabricCheckReport *FabricService::healthReport()
{
    const std::shared_ptr<const Fabric> fabric = m_session.fabric();
    if (!fabric)
        return nullptr;
    if (!m_health || m_healthFabric != fabric || m_healthHeld != m_session.heldGeneration()) {
        const HeldTables &held = m_session.held();
        m_health = checkHeldFabric(*fabric, HeldFabricCheck{QStringLiteral("live"), held.lfts.get(), held.pkeys.get(), nullptr});
        m_healthFabric = fabric;
        m_healthHeld = m_session.heldGeneration();
    }
    return &*m_health;
}

void FabricService::updateSlurmTopology()
{
    if (m_options.slurmTopologyPath.isEmpty() || !m_fabricSeen)
        return;
    const QString path = m_options.slurmTopologyPath;
    const Result<SlurmTopology> topology = slurmTopology(*m_fabricSeen, m_slurm);
    if (!topology) {
        Q_EMIT logLine(QStringLiteral("Slurm topology: %1 left as it is: %2").arg(path, topology.error().toString()));
        return;
    }
    for (const QString &line : summarizeWarnings(topology->warnings, 3, QString()))
        Q_EMIT logLine(QStringLiteral("Slurm topology: %1").arg(line));
    const SlurmTopologyOrigin origin{QStringLiteral("the live fabric, discovered by weft serve through %1")
                                         .arg(m_options.caName.isEmpty() ? QStringLiteral("the first adapter") : m_options.caName),
                                     QDateTime::currentDateTimeUtc(), QCoreApplication::applicationVersion()};
    const QByteArray text = writeSlurmTopology(*topology, m_options.slurmForm, origin);
    // The same switches and hosts as the file holds: left alone, so Slurm has nothing to reread.
    if (QFile existing(path); existing.open(QIODevice::ReadOnly) && slurmTopologyBody(existing.readAll()) == slurmTopologyBody(text))
        return;
    if (const Status written = writeFileAtomically(path, text); !written) {
        Q_EMIT logLine(QStringLiteral("Slurm topology: %1").arg(written.error().toString()));
        return;
    }
    Q_EMIT logLine(QStringLiteral("Slurm topology: %1 written: %2 switches, %3 hosts").arg(path).arg(topology->switches.size()).arg(topology->hosts));
    if (!m_options.slurmReconfigure)
        return;
    auto *scontrol = new QProcess(this);
    scontrol->setProcessChannelMode(QProcess::MergedChannels);
    connect(scontrol, &QProcess::finished, this, [this, scontrol](int code, QProcess::ExitStatus status) {
        const QString said = QString::fromLocal8Bit(scontrol->readAll()).trimmed();
        if (status == QProcess::NormalExit && code == 0)
            Q_EMIT logLine(QStringLiteral("Slurm topology: scontrol reconfigure done"));
        else
            Q_EMIT logLine(QStringLiteral("Slurm topology: scontrol reconfigure failed (exit %1)%2").arg(code).arg(said.isEmpty() ? QString() : QStringLiteral(": ") + said));
        scontrol->deleteLater();
    });
    connect(scontrol, &QProcess::errorOccurred, this, [this, scontrol](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart)
            return;
        Q_EMIT logLine(QStringLiteral("Slurm topology: %1 could not be started: %2").arg(m_options.scontrol, scontrol->errorString()));
        scontrol->deleteLater();
    });
    // Slurm's controller may be slow to answer, never the service: the process is not waited for.
    QTimer::singleShot(60000, scontrol, [scontrol] { scontrol->kill(); });
    scontrol->start(m_options.scontrol, {QStringLiteral("reconfigure")});
}

void FabricService::onSessionChanged(DocumentChanges what)
{
    Q_UNUSED(what);
    const quint64 fabricBefore = m_fabricGeneration;
    const quint64 heldBefore = m_heldSeen;
    if (m_session.fabric() != m_fabricSeen) {
        m_fabricSeen = m_session.fabric();
        ++m_fabricGeneration;
        if (m_fabricSeen) {
            Q_EMIT logLine(QStringLiteral("fabric: %1 switches, %2 hosts, %3 links")
                               .arg(m_fabricSeen->switches().size())
                               .arg(m_fabricSeen->channelAdapterCount())
                               .arg(m_fabricSeen->links().size()));
            QJsonObject event = fabricCountsJson(*m_fabricSeen);
            event.insert(QStringLiteral("fabric_generation"), double(m_fabricGeneration));
            broadcast("fabric", event);
            updateSlurmTopology();
        }
    }
    if (m_session.heldGeneration() != m_heldSeen) {
        m_heldSeen = m_session.heldGeneration();
        broadcast("tables", QJsonObject{{QStringLiteral("held_generation"), double(m_heldSeen)}, {QStringLiteral("name"), m_session.currentTablesName()}});
    }
    if (m_fabricGeneration == fabricBefore && m_heldSeen == heldBefore)
        return;
    // Why, as far as the service knows: a commit it runs, a discovery and what it read.
    QStringList why;
    if (m_fabricGeneration != fabricBefore)
    {
        const QString cause = std::exchange(m_nextFabricCause, QString());
        why << (!cause.isEmpty() ? cause : fabricBefore == 0 ? QStringLiteral("the first discovery") : QStringLiteral("the fabric was discovered again"));
    }
    if (m_heldSeen != heldBefore) {
        QString held = QStringLiteral("what the fabric holds: %1").arg(m_session.currentTablesName());
        if (m_pendingCommit && !m_pendingCommit->planId.isEmpty())
            held += QStringLiteral(" (the commit of plan %1 by %2)").arg(m_pendingCommit->planId, m_pendingCommit->by);
        else if (m_pendingCommit)
            held += QStringLiteral(" (a commit or recovery by %1)").arg(m_pendingCommit->by);
        if (const QStringList changes = m_session.heldChanges(); !changes.isEmpty())
            held += QStringLiteral(": ") + changes.mid(0, 3).join(QStringLiteral("; "));
        why << held;
    }
    m_generations.push_back(GenerationChange{QDateTime::currentDateTimeUtc(), m_fabricGeneration, m_heldSeen, why.join(QStringLiteral("; "))});
    while (m_generations.size() > kGenerationsKept)
        m_generations.pop_front();
}

}  // namespace weft::serve
