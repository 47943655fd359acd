#include "BenchHarness.h"

#include <QRegularExpression>

#include "CliSupport.h"
#include "Commands.h"

#include <QFile>

#include <algorithm>
#include <random>

namespace weft::cli {

double openSmLogTime(const QString &line)
{
    static const QRegularExpression stamp(QStringLiteral("^\\w+ +\\d+ (\\d\\d):(\\d\\d):(\\d\\d) (\\d{6}) "));
    const auto m = stamp.match(line);
    if (!m.hasMatch())
        return -1;
    return m.captured(1).toInt() * 3600.0 + m.captured(2).toInt() * 60.0 + m.captured(3).toInt() + m.captured(4).toInt() / 1e6;
}

namespace {

// A memory figure of this process from /proc/self/status, in bytes; 0 where unavailable.
qint64 procStatusBytes(const char *field)
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray key = QByteArray(field) + ':';
    for (const QByteArray &line : status.readAll().split('\n'))
        if (line.startsWith(key))
            return line.mid(key.size()).trimmed().split(' ').value(0).toLongLong() * 1024;
    return 0;
}

}  // namespace

double secondsOf(const QElapsedTimer &timer)
{
    return double(timer.nsecsElapsed()) / 1e9;
}

double medianOf(std::vector<double> &values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

// Resets the peak-RSS mark so the next VmHWM reading covers only what follows.
void resetPeakMemory()
{
    QFile clear(QStringLiteral("/proc/self/clear_refs"));
    if (clear.open(QIODevice::WriteOnly))
        clear.write("5");
}

qint64 residentBytes()
{
    return procStatusBytes("VmRSS");
}

qint64 peakResidentBytes()
{
    return procStatusBytes("VmHWM");
}

Tenancy equalTenants(const GeneratedFabric &generated, int partitions, IsolationPolicy policy)
{
    Tenancy tenancy;
    const std::size_t hosts = generated.hosts.size();
    for (int p = 0; p < partitions; ++p) {
        Partition part;
        part.name = QStringLiteral("tenant%1").arg(p + 1);
        part.pkey = std::uint16_t(0x100 + p);
        part.policy = policy;
        part.defaultMembership = Membership::Full;
        for (std::size_t h = hosts * std::size_t(p) / std::size_t(partitions); h < hosts * std::size_t(p + 1) / std::size_t(partitions); ++h) {
            const Node &n = generated.fabric.node(generated.hosts[h]);
            part.members.push_back(PartitionMember{PartitionMember::Kind::PortGuid, generated.fabric.port(n.firstPort + 1).guid, Membership::Full, false});
        }
        tenancy.partitions.push_back(std::move(part));
    }
    return tenancy;
}

Tenancy scatteredTenants(const GeneratedFabric &generated, int partitions, IsolationPolicy policy, std::uint32_t seed)
{
    Tenancy tenancy;
    for (int p = 0; p < partitions; ++p) {
        Partition part;
        part.name = QStringLiteral("tenant%1").arg(p + 1);
        part.pkey = std::uint16_t(0x100 + p);
        part.policy = policy;
        part.defaultMembership = Membership::Full;
        tenancy.partitions.push_back(std::move(part));
    }
    std::mt19937 rng(seed);
    for (NodeIndex host : generated.hosts) {
        const Node &n = generated.fabric.node(host);
        tenancy.partitions[std::size_t(rng() % std::uint32_t(partitions))].members.push_back(
            PartitionMember{PartitionMember::Kind::PortGuid, generated.fabric.port(n.firstPort + 1).guid, Membership::Full, false});
    }
    return tenancy;
}

ForwardingTables perturbedTables(const ForwardingTables &tables, const Fabric &fabric)
{
    ForwardingTables perturbed = tables;
    for (std::size_t i = 0; i < perturbed.size(); ++i) {
        LinearForwardingTable &lft = perturbed.lft(i);
        const int ports = fabric.node(fabric.nodeByGuid(perturbed.at(i).guid)).portCount;
        for (Lid lid = 1; lid <= lft.top(); lid += 7)
            if (lft.hasRoute(lid) && lft.port(lid) != 0)
                lft.setPort(lid, std::uint8_t(lft.port(lid) % ports + 1));
    }
    return perturbed;
}

Benchmark::Benchmark(const QString &name, const QString &description) : m_command(QStringLiteral("bench ") + name)
{
    m_parser.setApplicationDescription(description);
}

// Every benchmark runs on a generated radix fat-tree chosen with --radix and --levels
// (default: the 36-port 3-level tree, 11,664 hosts).
void Benchmark::addTreeOptions(int defaultRadix)
{
    const QString radix = QString::number(defaultRadix);
    m_parser.addOption({QStringLiteral("radix"), QStringLiteral("Switch radix of the generated tree (default %1).").arg(radix), QStringLiteral("R"), radix});
    m_parser.addOption({QStringLiteral("levels"), QStringLiteral("Switch levels of the generated tree (default 3)."), QStringLiteral("N"), QStringLiteral("3")});
}

void Benchmark::addRepeatOption(int defaultRuns, const QString &description)
{
    const QString runs = QString::number(defaultRuns);
    m_parser.addOption({QStringLiteral("repeat"), description.arg(runs), QStringLiteral("N"), runs});
    m_hasRepeat = true;
}

std::optional<int> Benchmark::parse(const QStringList &args)
{
    m_parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON.")});
    int exitCode = kExitOk;
    if (!parseArguments(m_parser, m_command, args, &exitCode))
        return exitCode;
    if (m_hasRepeat) {
        bool ok = false;
        m_repeat = m_parser.value(QStringLiteral("repeat")).toInt(&ok);
        if (!ok || m_repeat < 1)
            return fail(QStringLiteral("--repeat must be a positive number"));
    }
    return std::nullopt;
}

GeneratorOptions Benchmark::treeOptions() const
{
    GeneratorOptions options;
    options.shape = FabricShapeKind::SwitchRadix;
    options.radix = m_parser.value(QStringLiteral("radix")).toInt();
    options.levels = m_parser.value(QStringLiteral("levels")).toInt();
    return options;
}

int Benchmark::fail(const Error &error) const
{
    return reportBadInput(m_command, error);
}

int Benchmark::fail(const QString &message) const
{
    return reportBadInput(m_command, message);
}

int Benchmark::report(const QJsonObject &json, const std::function<void(QTextStream &)> &text) const
{
    if (m_parser.isSet(QStringLiteral("json"))) {
        printJson(json);
        return kExitOk;
    }
    text(out());
    out().flush();
    return kExitOk;
}

}  // namespace weft::cli
