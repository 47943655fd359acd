#include "BenchRemote.h"

#include "BenchHarness.h"
#include "CliSupport.h"
#include "ServiceClient.h"
#include "TextReader.h"

#include <QElapsedTimer>
#include <QJsonObject>

namespace weft::cli {

namespace {

struct RemoteOpen
{
    double seconds = 0;
    remote::ServiceClient::Transfer moved;
    std::size_t switches = 0;
    std::size_t hosts = 0;
};

Result<RemoteOpen> openThrough(remote::ServiceClient &client)
{
    QElapsedTimer timer;
    timer.start();
    Result<LiveState> state = client.liveState();
    if (!state)
        return state.error();
    RemoteOpen open;
    open.seconds = double(timer.nsecsElapsed()) / 1e9;
    open.moved = client.lastTransfer();
    open.switches = state->fabric->switches().size();
    open.hosts = state->fabric->channelAdapterCount();
    return open;
}

QString megabytes(qint64 bytes)
{
    return QString::number(double(bytes) / 1e6, 'f', 2) + QStringLiteral(" MB");
}

}  // namespace

int benchRemote(const QStringList &args)
{
    Benchmark bench(QStringLiteral("remote"), QStringLiteral("Opens the fabric of a running `weft serve` as a desk does (File > Connect to Fabric Service):\n"
                                                             "its status, the fabric, and the tables in the compact form, compressed; then refreshes it,\n"
                                                             "the tables as a delta from the generation read. Reports the time of each, the bytes on the\n"
                                                             "wire and decoded, and the peak memory of this process."));
    bench.parser().addOption({QStringLiteral("service"), QStringLiteral("The service: HOST:PORT or https://HOST:PORT."), QStringLiteral("ADDRESS")});
    bench.parser().addOption({QStringLiteral("token-file"), QStringLiteral("A file holding the bearer token (a viewer's is enough)."), QStringLiteral("FILE")});
    bench.parser().addOption({QStringLiteral("known-services"), QStringLiteral("The pins file; a service not pinned in it is pinned on first use (default: the desk's, which must pin it already)."), QStringLiteral("FILE")});
    bench.parser().addOption({QStringLiteral("refreshes"), QStringLiteral("Refreshes after the first open (default 1)."), QStringLiteral("N"), QStringLiteral("1")});
    if (const std::optional<int> exitCode = bench.parse(args))
        return *exitCode;
    if (!bench.isSet(QStringLiteral("service")) || !bench.isSet(QStringLiteral("token-file")))
        return bench.fail(QStringLiteral("--service and --token-file are needed"));
    bool ok = false;
    const int refreshes = bench.value(QStringLiteral("refreshes")).toInt(&ok);
    if (!ok || refreshes < 0 || refreshes > 1000)
        return bench.fail(QStringLiteral("--refreshes: not a count from 0 to 1000: \"%1\"").arg(bench.value(QStringLiteral("refreshes"))));
    Result<QByteArray> token = TextReader::readFile(bench.value(QStringLiteral("token-file")));
    if (!token)
        return bench.fail(token.error());
    const QString known = bench.value(QStringLiteral("known-services"));
    remote::ServiceClient client(bench.value(QStringLiteral("service")), remote::ServiceCredential{token->trimmed(), {}, {}}, known);
    Result<remote::ServiceContact> contact = client.contact();
    if (!contact)
        return bench.fail(contact.error());
    if (contact->pin == remote::ServiceContact::Pin::Changed)
        return bench.fail(QStringLiteral("the service's certificate is not the one pinned (%1, pinned %2)").arg(contact->fingerprint, contact->pinned));
    if (contact->pin == remote::ServiceContact::Pin::Unknown) {
        if (known.isEmpty())
            return bench.fail(QStringLiteral("%1 is not pinned: connect to it from the desk first, or give --known-services FILE to pin it here").arg(client.hostPort()));
        if (const Status pinned = client.pin(contact->fingerprint); !pinned)
            return bench.fail(pinned.error());
    }
    resetPeakMemory();
    Result<RemoteOpen> first = openThrough(client);
    if (!first)
        return bench.fail(first.error());
    std::vector<RemoteOpen> later;
    for (int i = 0; i < refreshes; ++i) {
        Result<RemoteOpen> again = openThrough(client);
        if (!again)
            return bench.fail(again.error());
        later.push_back(*again);
    }
    const qint64 peak = peakResidentBytes();
    const auto json = [](const RemoteOpen &o) {
        return QJsonObject{{QStringLiteral("seconds"), o.seconds},
                           {QStringLiteral("wire_bytes"), double(o.moved.wireBytes)},
                           {QStringLiteral("decoded_bytes"), double(o.moved.bytes)},
                           {QStringLiteral("fabric_read"), o.moved.fabricRead},
                           {QStringLiteral("tables_delta"), o.moved.tablesDelta},
                           {QStringLiteral("tables_switches"), o.moved.tablesSwitches}};
    };
    QJsonObject figures{{QStringLiteral("service"), client.hostPort()},
                        {QStringLiteral("switches"), double(first->switches)},
                        {QStringLiteral("hosts"), double(first->hosts)},
                        {QStringLiteral("first_open"), json(*first)},
                        {QStringLiteral("peak_resident_bytes"), double(peak)},
                        {QStringLiteral("target_seconds"), 10.0},
                        {QStringLiteral("target_wire_bytes"), 50e6}};
    if (!later.empty())
        figures.insert(QStringLiteral("last_refresh"), json(later.back()));
    return bench.report(figures, [&](QTextStream &o) {
        const auto line = [&](const char *what, const RemoteOpen &r) {
            o << "  " << what << ": " << QString::number(r.seconds, 'f', 2) << " s, " << megabytes(r.moved.wireBytes) << " on the wire ("
              << megabytes(r.moved.bytes) << " decoded); " << (r.moved.fabricRead ? "fabric read, " : "fabric as held, ")
              << (r.moved.tablesDelta ? QStringLiteral("tables as a delta of %1 switches").arg(r.moved.tablesSwitches)
                                      : QStringLiteral("tables whole (%1 switches)").arg(r.moved.tablesSwitches))
              << "\n";
        };
        o << "remote: " << client.hostPort() << ", " << first->switches << " switches, " << first->hosts << " hosts\n";
        line("first open (status, fabric, tables)", *first);
        if (!later.empty())
            line("refresh", later.back());
        o << "  peak memory of this process: " << megabytes(peak) << "; targets: the first open within 10 s and 50 MB on the wire\n";
    });
}

}  // namespace weft::cli
