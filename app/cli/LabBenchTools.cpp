// The standard tools beside Weft on a running lab, for `weft bench commit` (LabBenchTools.h).

#include "LabBenchTools.h"

#include "CliSupport.h"

#include "Fabric.h"
#include "LftDump.h"
#include "SafeFile.h"
#include "SimulatedFabric.h"
#include "TopologyFile.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>

namespace weft::cli {

namespace {

double seconds(const QElapsedTimer &timer)
{
    return double(timer.nsecsElapsed()) / 1e9;
}

// The ports whose P_Key tables Weft reads (readPKeyTables): switch port 0, CA and router ports
// with a link, and switch ports facing a CA or router; as `smpquery pkeys` addresses them.
struct PKeyPort
{
    Lid lid = 0;
    int port = 0;  // on a switch: the port number; 0 for a CA's own port
};

std::vector<PKeyPort> pkeyPorts(const Fabric &fabric)
{
    std::vector<PKeyPort> ports;
    for (const Port &port : fabric.ports()) {
        if (!port.present)
            continue;
        const bool onSwitch = fabric.node(port.node).type == NodeType::Switch;
        bool wanted = onSwitch && port.number == 0;
        if (!wanted && port.remote != kNoIndex)
            wanted = !onSwitch || fabric.node(fabric.port(port.remote).node).type != NodeType::Switch;
        if (!wanted)
            continue;
        if (onSwitch)
            ports.push_back({fabric.nodeLid(port.node), port.number});
        else if (port.lid)
            ports.push_back({port.lid, 0});
    }
    return ports;
}

}  // namespace

Status runBenchTools(const SimulatedFabric &sim, const QString &dir, const QString &jsonPath, int smpquerySample)
{
    auto fail = [](const QString &message) { return Error{{}, 0, message}; };
    const QString topology = dir + QStringLiteral("/bench.topo");
    const QString lfts = dir + QStringLiteral("/bench.lfts");
    const QString pkeys = dir + QStringLiteral("/bench.pkeys");
    QElapsedTimer timer;

    timer.start();
    const auto ours = sim.runClient(QCoreApplication::applicationFilePath(),
                                    {QStringLiteral("discover"), QStringLiteral("--json"), QStringLiteral("-o"), topology,
                                     QStringLiteral("--lfts"), lfts, QStringLiteral("--pkeys"), pkeys},
                                    3600 * 1000);
    const double weftSeconds = seconds(timer);
    if (!ours || ours->exitCode != 0)
        return fail(QStringLiteral("weft discover --lfts --pkeys failed: ") + (ours ? QString::fromUtf8(ours->err) : ours.error().toString()));
    const QJsonObject figures = QJsonDocument::fromJson(ours->out).object();
    Result<Fabric> fabric = readTopologyFile(topology);
    if (!fabric)
        return fabric.error();

    timer.restart();
    const auto dump = sim.runClient(QStringLiteral("dump_lfts"), {}, 3600 * 1000);
    const double dumpSeconds = seconds(timer);
    if (!dump || dump->exitCode != 0)
        return fail(QStringLiteral("dump_lfts failed: ") + (dump ? QString::fromUtf8(dump->err) : dump.error().toString()));
    // Equal work: both read the same tables, and hold the same.
    Result<ForwardingTables> theirs = readLftDump(dump->out, QStringLiteral("dump_lfts"), &*fabric);
    if (!theirs)
        return theirs.error();
    Result<ForwardingTables> weftTables = readLftDumpFile(lfts, &*fabric);
    if (!weftTables)
        return weftTables.error();
    const bool lftsAgree = *theirs == *weftTables;

    const std::vector<PKeyPort> ports = pkeyPorts(*fabric);
    const std::size_t sample = smpquerySample <= 0 ? ports.size() : std::min(ports.size(), std::size_t(smpquerySample));
    double smpquerySeconds = 0;
    for (std::size_t i = 0; i < sample; ++i) {
        const PKeyPort &p = ports[i * ports.size() / sample];
        QStringList args{QStringLiteral("pkeys"), QString::number(p.lid)};
        if (p.port)
            args << QString::number(p.port);
        timer.restart();
        const auto run = sim.runClient(QStringLiteral("smpquery"), args);
        smpquerySeconds += seconds(timer);
        if (!run || run->exitCode != 0)
            return fail(QStringLiteral("smpquery %1 failed: %2").arg(args.join(QLatin1Char(' ')), run ? QString::fromUtf8(run->err) : run.error().toString()));
    }
    const double smpqueryAll = sample ? smpquerySeconds * double(ports.size()) / double(sample) : 0;

    const QJsonObject result{{QStringLiteral("weft_discover_tables_seconds"), weftSeconds},
                             {QStringLiteral("weft_lft_seconds"), figures.value(QStringLiteral("lft_seconds"))},
                             {QStringLiteral("weft_pkey_seconds"), figures.value(QStringLiteral("pkey_seconds"))},
                             {QStringLiteral("weft_discovery_seconds"), figures.value(QStringLiteral("discovery_seconds"))},
                             {QStringLiteral("dump_lfts_seconds"), dumpSeconds},
                             {QStringLiteral("lfts_agree"), lftsAgree},
                             {QStringLiteral("pkey_ports"), double(ports.size())},
                             {QStringLiteral("smpquery_sample"), double(sample)},
                             {QStringLiteral("smpquery_sample_seconds"), smpquerySeconds},
                             {QStringLiteral("smpquery_seconds"), smpqueryAll}};
    return writeFileAtomically(jsonPath, QJsonDocument(result).toJson(), false);
}

}  // namespace weft::cli
