// weft serve: the session on the live fabric, served over HTTPS (FabricService); and
// `weft serve token add|list|revoke`, the credentials it accepts (TokenStore).

#include "CliSupport.h"
#include "Commands.h"

#include "Autopilot.h"
#include "FabricService.h"
#include "RuleLanguage.h"
#include "TokenStore.h"

#include <QCoreApplication>
#include <QFile>
#include <QSslCertificate>
#include <QSslKey>
#include <QTimer>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include <unistd.h>

namespace weft::cli {

namespace {

// A service asked to stop has ended this long after the signal, whatever it was doing: systemd
// and operators give it 10 s.
constexpr std::chrono::milliseconds kStopDeadline{9500};

int token(const QStringList &args)
{
    const QString command = QStringLiteral("serve token");
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "The credentials `weft serve` accepts, in its tokens file:\n"
        "  weft serve token add --tokens FILE --name NAME --role viewer|operator|admin [--client-cert PEM]\n"
        "  weft serve token list --tokens FILE\n"
        "  weft serve token revoke --tokens FILE --name NAME\n"
        "`add` prints a new random token once (only its SHA-256 is kept), or with --client-cert registers that\n"
        "certificate's fingerprint for mutual TLS. A viewer reads; an operator also plans; an admin also commits,\n"
        "recovers and changes rules and mode. A running service reads the file again when it changes."));
    parser.addPositionalArgument(QStringLiteral("action"), QStringLiteral("add, list or revoke"));
    parser.addOption({QStringLiteral("tokens"), QStringLiteral("The tokens file."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("name"), QStringLiteral("Whose credential (journalled with every commit it makes)."), QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("role"), QStringLiteral("viewer, operator or admin."), QStringLiteral("ROLE")});
    parser.addOption({QStringLiteral("client-cert"), QStringLiteral("A client certificate (PEM) instead of a token."), QStringLiteral("PEM")});
    int exitCode = kExitOk;
    if (!parseArguments(parser, command, args, &exitCode))
        return exitCode;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1)
        return reportBadInput(command, QStringLiteral("say add, list or revoke"));
    if (!parser.isSet(QStringLiteral("tokens")))
        return reportBadInput(command, QStringLiteral("--tokens is required"));
    Result<TokenStore> store = TokenStore::read(parser.value(QStringLiteral("tokens")));
    if (!store)
        return reportBadInput(command, store.error());
    const QString action = positional.front();
    const QString name = parser.value(QStringLiteral("name"));
    if (action == QLatin1String("list")) {
        for (const ServiceCredential &c : store->credentials())
            out() << c.name << '\t' << serviceRoleName(c.role) << '\t' << (c.tokenSha256.isEmpty() ? QStringLiteral("certificate") : QStringLiteral("token"))
                  << '\t' << c.created.toString(Qt::ISODate) << Qt::endl;
        return kExitOk;
    }
    if (name.isEmpty())
        return reportBadInput(command, QStringLiteral("--name is required"));
    if (action == QLatin1String("revoke")) {
        if (Status revoked = store->revoke(name); !revoked)
            return reportBadInput(command, revoked.error());
    } else if (action == QLatin1String("add")) {
        const std::optional<ServiceRole> role = serviceRoleFromName(parser.value(QStringLiteral("role")));
        if (!role)
            return reportBadInput(command, QStringLiteral("--role: \"%1\" is none of viewer, operator, admin").arg(parser.value(QStringLiteral("role"))));
        if (parser.isSet(QStringLiteral("client-cert"))) {
            QFile file(parser.value(QStringLiteral("client-cert")));
            if (!file.open(QIODevice::ReadOnly))
                return reportBadInput(command, QStringLiteral("%1: %2").arg(file.fileName(), file.errorString()));
            if (Status added = store->addCertificate(name, *role, file.read(1 << 20)); !added)
                return reportBadInput(command, QStringLiteral("%1: %2").arg(file.fileName(), added.error().message));
        } else {
            Result<QString> made = store->addToken(name, *role);
            if (!made)
                return reportBadInput(command, made.error());
            if (Status written = store->write(); !written) {
                err() << "weft serve token: " << written.error().toString() << Qt::endl;
                return kExitFailure;
            }
            out() << *made << Qt::endl;  // the only time it is shown
            return kExitOk;
        }
    } else {
        return reportBadInput(command, QStringLiteral("\"%1\" is none of add, list, revoke").arg(action));
    }
    if (Status written = store->write(); !written) {
        err() << "weft serve token: " << written.error().toString() << Qt::endl;
        return kExitFailure;
    }
    return kExitOk;
}

}  // namespace

int serve(const QStringList &args)
{
    if (args.value(0) == QLatin1String("token"))
        return token(args.mid(1));
    const QString command = QStringLiteral("serve");
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Runs Weft's session on the live fabric of this host and serves it over HTTPS to desks (File > Connect to\n"
        "Fabric Service...) and scripts: discovery (again when the fabric changes), telemetry with its history, the\n"
        "self-adaptive loop, plans and commits to the subnet's commit target (--target, see `weft target check`).\n"
        "Every request needs a credential from --tokens (`weft serve token add`): Authorization: Bearer TOKEN, or a\n"
        "client certificate signed by --client-ca. A plain HTTP connection gets no data.\n"
        "The API (JSON under /api/v1: status, fabric, tables, telemetry, plans, plans/ID/commit, discover, recover,\n"
        "journal, rules, mode, events) and /metrics are described in the man page.\n"
        "  weft serve token add|list|revoke ...    manage the credentials (weft serve token --help)"));
    parser.addOption({QStringLiteral("listen"), QStringLiteral("Address and port to listen on (port 0: any free one, printed)."), QStringLiteral("ADDR:PORT")});
    parser.addOption({QStringLiteral("tls-cert"), QStringLiteral("The server's certificate (PEM; a chain may follow it)."), QStringLiteral("PEM")});
    parser.addOption({QStringLiteral("tls-key"), QStringLiteral("The certificate's private key (PEM, unencrypted)."), QStringLiteral("PEM")});
    parser.addOption({QStringLiteral("tokens"), QStringLiteral("The tokens file (weft serve token add)."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("target"), QStringLiteral("The subnet's commit target (JSON naming each OpenSM and its files)."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("history"), QStringLiteral("Directory of the telemetry history (one SQLite file per fabric; default: the user's data directory, /var/lib/weft/history as root)."), QStringLiteral("DIR")});
    parser.addOption({QStringLiteral("rules"), QStringLiteral("Rules of the self-adaptive loop (weft rules check)."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("mode"), QStringLiteral("The loop's mode: auto, approve or dry-run (the default: firings are logged, nothing is committed)."), QStringLiteral("MODE")});
    parser.addOption({QStringLiteral("client-ca"), QStringLiteral("Accept client certificates signed by these CAs (PEM) as credentials (mutual TLS)."), QStringLiteral("PEM")});
    parser.addOption({QStringLiteral("interval"), QStringLiteral("Seconds between port counter passes (default 10)."), QStringLiteral("SECONDS"), QStringLiteral("10")});
    parser.addOption({QStringLiteral("rediscover"), QStringLiteral("Seconds between rediscoveries (default 60; 0: only on request and the loop's events)."), QStringLiteral("SECONDS"), QStringLiteral("60")});
    parser.addOption({QStringLiteral("metrics"), QStringLiteral("Who may read /metrics: token (the default), loopback (no credential from this host), open."), QStringLiteral("WHO"), QStringLiteral("token")});
    parser.addOption({QStringLiteral("max-connections"), QStringLiteral("Connections served at once (default 256)."), QStringLiteral("N"), QStringLiteral("256")});
    parser.addOption({QStringLiteral("max-body"), QStringLiteral("Largest request body in bytes (default 67108864)."), QStringLiteral("BYTES"), QStringLiteral("67108864")});
    parser.addOption({QStringLiteral("ca"), QStringLiteral("The adapter to reach the fabric through (default: the first)."), QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("ca-port"), QStringLiteral("Its port (default: the first active)."), QStringLiteral("N")});
    parser.addOption({QStringLiteral("slurm-topology"), QStringLiteral(
        "Keep Slurm's topology file in step with the fabric: written atomically after every discovery that changes\n"
        "the fabric (as `weft slurm topology` writes it), left alone when only its comments would change."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("slurm-format"), QStringLiteral("Its form: tree (the default), block or yaml."), QStringLiteral("FORM"), QStringLiteral("tree")});
    parser.addOption({QStringLiteral("slurm-names"), QStringLiteral("The names map of its hosts and switches (weft slurm topology --names)."), QStringLiteral("MAP")});
    parser.addOption({QStringLiteral("slurm-reconfigure"), QStringLiteral("Run `scontrol reconfigure` after each time the file is written.")});
    parser.addOption({QStringLiteral("job-pkeys"), QStringLiteral(
        "Give Slurm's jobs partitions (PUT and DELETE /api/v1/jobs/JOBID, called by the packaged prolog and epilog):\n"
        "each job the lowest free P_Key of FIRST-LAST, as 0x2000-0x2fff."), QStringLiteral("FIRST-LAST")});
    parser.addOption({QStringLiteral("job-policy"), QStringLiteral("The isolation policy of a job that names none: def-isolation (the default),\n"
        "vlane-isolation or phy-isolation."), QStringLiteral("POLICY"), QStringLiteral("def-isolation")});
    int exitCode = kExitOk;
    if (!parseArguments(parser, command, args, &exitCode))
        return exitCode;
    if (!requireOptionsOnly(parser, command, {"listen", "tls-cert", "tls-key", "tokens", "target"}, &exitCode))
        return exitCode;

    serve::ServiceOptions options;
    const QString listen = parser.value(QStringLiteral("listen"));
    const qsizetype colon = listen.lastIndexOf(QLatin1Char(':'));
    bool portOk = false;
    const uint port = colon < 0 ? 0 : listen.mid(colon + 1).toUInt(&portOk);
    QString host = colon < 0 ? QString() : listen.left(colon);
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        host = host.mid(1, host.size() - 2);
    if (!portOk || port > 65535 || !options.address.setAddress(host))
        return reportBadInput(command, QStringLiteral("--listen: not ADDRESS:PORT: \"%1\"").arg(listen));
    options.port = quint16(port);

    const QList<QSslCertificate> chain = QSslCertificate::fromPath(parser.value(QStringLiteral("tls-cert")), QSsl::Pem);
    if (chain.isEmpty())
        return reportBadInput(command, QStringLiteral("%1: no PEM certificate in it").arg(parser.value(QStringLiteral("tls-cert"))));
    QFile keyFile(parser.value(QStringLiteral("tls-key")));
    if (!keyFile.open(QIODevice::ReadOnly))
        return reportBadInput(command, QStringLiteral("%1: %2").arg(keyFile.fileName(), keyFile.errorString()));
    const QByteArray keyBytes = keyFile.readAll();
    QSslKey key(keyBytes, QSsl::Rsa, QSsl::Pem);
    if (key.isNull())
        key = QSslKey(keyBytes, QSsl::Ec, QSsl::Pem);
    if (key.isNull())
        return reportBadInput(command, QStringLiteral("%1: not an unencrypted RSA or EC private key in PEM").arg(keyFile.fileName()));
    QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
    tls.setLocalCertificate(chain.front());
    tls.setLocalCertificateChain(chain);
    tls.setPrivateKey(key);
    tls.setProtocol(QSsl::TlsV1_2OrLater);
    if (parser.isSet(QStringLiteral("client-ca"))) {
        const QList<QSslCertificate> authorities = QSslCertificate::fromPath(parser.value(QStringLiteral("client-ca")), QSsl::Pem);
        if (authorities.isEmpty())
            return reportBadInput(command, QStringLiteral("%1: no PEM certificate in it").arg(parser.value(QStringLiteral("client-ca"))));
        tls.setCaCertificates(authorities);
        // A client without a certificate may still bring a token.
        tls.setPeerVerifyMode(QSslSocket::QueryPeer);
    } else {
        tls.setPeerVerifyMode(QSslSocket::VerifyNone);
    }
    options.tls = tls;
    options.tokensPath = parser.value(QStringLiteral("tokens"));
    options.targetPath = parser.value(QStringLiteral("target"));
    options.historyDir = parser.value(QStringLiteral("history"));
    // A service started by systemd runs as root without a home: its history goes where the
    // package's unit keeps state.
    if (options.historyDir.isEmpty() && geteuid() == 0)
        options.historyDir = QStringLiteral("/var/lib/weft/history");
    options.rulesPath = parser.value(QStringLiteral("rules"));
    options.caName = parser.value(QStringLiteral("ca"));
    options.caPort = parser.value(QStringLiteral("ca-port")).toInt();
    bool ok = false;
    options.interval = parser.value(QStringLiteral("interval")).toDouble(&ok);
    if (!ok || options.interval < 0.1 || options.interval > 86400)
        return reportBadInput(command, QStringLiteral("--interval: not seconds from 0.1 to 86400: \"%1\"").arg(parser.value(QStringLiteral("interval"))));
    options.rediscoverSeconds = parser.value(QStringLiteral("rediscover")).toInt(&ok);
    if (!ok || options.rediscoverSeconds < 0)
        return reportBadInput(command, QStringLiteral("--rediscover: not a number of seconds: \"%1\"").arg(parser.value(QStringLiteral("rediscover"))));
    const QString metrics = parser.value(QStringLiteral("metrics"));
    if (metrics == QLatin1String("token"))
        options.metrics = serve::MetricsAccess::Token;
    else if (metrics == QLatin1String("loopback"))
        options.metrics = serve::MetricsAccess::Loopback;
    else if (metrics == QLatin1String("open"))
        options.metrics = serve::MetricsAccess::Open;
    else
        return reportBadInput(command, QStringLiteral("--metrics: \"%1\" is none of token, loopback, open").arg(metrics));
    options.maxConnections = parser.value(QStringLiteral("max-connections")).toInt(&ok);
    if (!ok || options.maxConnections < 4)
        return reportBadInput(command, QStringLiteral("--max-connections: at least 4"));
    options.maxBodyBytes = parser.value(QStringLiteral("max-body")).toLongLong(&ok);
    if (!ok || options.maxBodyBytes < 1024)
        return reportBadInput(command, QStringLiteral("--max-body: at least 1024 bytes"));

    options.slurmTopologyPath = parser.value(QStringLiteral("slurm-topology"));
    options.slurmNamesPath = parser.value(QStringLiteral("slurm-names"));
    options.slurmReconfigure = parser.isSet(QStringLiteral("slurm-reconfigure"));
    const std::optional<SlurmTopologyForm> slurmForm = slurmTopologyFormFromName(parser.value(QStringLiteral("slurm-format")));
    if (!slurmForm)
        return reportBadInput(command, QStringLiteral("--slurm-format: \"%1\" is none of tree, block, yaml").arg(parser.value(QStringLiteral("slurm-format"))));
    options.slurmForm = *slurmForm;
    if (parser.isSet(QStringLiteral("job-pkeys"))) {
        Result<JobPKeyPool> pool = parseJobPKeyPool(parser.value(QStringLiteral("job-pkeys")), QStringLiteral("--job-pkeys"));
        if (!pool)
            return reportBadInput(command, pool.error().toString());
        options.jobPool = *pool;
    }
    const std::optional<IsolationPolicy> jobPolicy = policyFromName(parser.value(QStringLiteral("job-policy")));
    if (!jobPolicy)
        return reportBadInput(command, QStringLiteral("--job-policy: \"%1\" is none of def-isolation, vlane-isolation, phy-isolation").arg(parser.value(QStringLiteral("job-policy"))));
    if (parser.isSet(QStringLiteral("job-policy")) && !options.jobPool)
        return reportBadInput(command, QStringLiteral("--job-policy needs --job-pkeys"));
    options.jobPolicy = *jobPolicy;
    if (options.slurmTopologyPath.isEmpty()) {
        // The names map names the hosts of jobs too.
        if (parser.isSet(QStringLiteral("slurm-names")) && !options.jobPool)
            return reportBadInput(command, QStringLiteral("--slurm-names needs --slurm-topology or --job-pkeys"));
        for (const char *needs : {"slurm-reconfigure"})
            if (parser.isSet(QLatin1String(needs)))
                return reportBadInput(command, QStringLiteral("--%1 needs --slurm-topology").arg(QLatin1String(needs)));
    }

    serve::FabricService service(options);
    QObject::connect(&service, &serve::FabricService::logLine, [](const QString &line) {
        err() << "weft serve: " << line << Qt::endl;
    });
    if (Status started = service.start(); !started)
        return reportBadInput(command, started.error());
    if (parser.isSet(QStringLiteral("mode"))) {
        const std::optional<adapt::RuleMode> mode = adapt::modeFromName(parser.value(QStringLiteral("mode")));
        if (!mode)
            return reportBadInput(command, QStringLiteral("--mode: \"%1\" is none of auto, approve, dry-run").arg(parser.value(QStringLiteral("mode"))));
        if (!service.session().autopilot()->setMode(*mode))
            return reportBadInput(command, QStringLiteral("--mode: %1").arg(service.session().autopilot()->lastProblem()));
    }
    const QString shownHost = options.address.protocol() == QAbstractSocket::IPv6Protocol ? QStringLiteral("[%1]").arg(options.address.toString())
                                                                                          : options.address.toString();
    out() << "weft serve: listening on https://" << shownHost << ':' << service.port() << Qt::endl;

    catchStopSignals();
    // The bound a stop keeps whatever hangs: from the signal, kStopWithin for the link, then
    // until kStopDeadline for the rest (the sampler, the handlers' threads, the destructors). A
    // thread of its own watches, as the main thread may be the one caught; past the deadline it
    // says so and ends the process as systemd would, without the teardown that hangs.
    std::thread([] {
        while (!stopSignal())
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        std::this_thread::sleep_for(kStopDeadline);
        std::fprintf(stderr, "weft serve: the stop took longer than %.1f s: ended without waiting for the rest\n",
                     std::chrono::duration<double>(kStopDeadline).count());
        std::fflush(nullptr);
        std::_Exit(kExitOk);
    }).detach();
    // A service stops on SIGTERM or SIGINT only: a reader of its output gone (SIGPIPE) or a
    // terminal hung up (SIGHUP) must not end it with a clean exit that systemd will not restart.
    std::signal(SIGPIPE, SIG_IGN);
    std::signal(SIGHUP, SIG_IGN);
    QTimer stopWatch;
    QObject::connect(&stopWatch, &QTimer::timeout, [] {
        if (stopSignal())
            QCoreApplication::quit();
    });
    stopWatch.start(200);
    QCoreApplication::exec();
    // Within the 10 s systemd and operators give a service to stop, whatever the fabric is doing:
    // a discovery or commit stuck in it is left behind, not waited for.
    const bool ended = service.stop(serve::FabricService::kStopWithin);
    err() << "weft serve: stopped (signal " << stopSignal() << ")" << Qt::endl;
    if (!ended) {
        err() << "weft serve: left unfinished: " << service.leftRunning()
              << " (an unfinished commit is in the journal: POST recover, or weft commit --recover, once the service is back)" << Qt::endl;
        // Its thread is still inside the fabric's libraries: exit without running the destructors
        // and static teardown it could be caught in.
        std::fflush(nullptr);
        std::_Exit(kExitOk);
    }
    return kExitOk;
}

}  // namespace weft::cli
