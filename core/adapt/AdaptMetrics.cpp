#include "AdaptMetrics.h"

#include "NodeQuery.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace weft::adapt {

namespace {

constexpr double kGbpsPerBytePerSecond = 8.0 / 1e9;

// A quantity of one port in one tick, or none (gap or not read).
using Reading = std::optional<double>;

// "NODE[PORT]": the node text and the port number; port 0 when the text has no "[N]".
bool splitLinkSelector(const QString &text, QString *node, int *port)
{
    const QString t = text.trimmed();
    const qsizetype open = t.lastIndexOf(QLatin1Char('['));
    if (open <= 0 || !t.endsWith(QLatin1Char(']')))
        return false;
    bool ok = false;
    const int number = t.mid(open + 1, t.size() - open - 2).trimmed().toInt(&ok);
    if (!ok || number < 0 || number > 255)
        return false;
    *node = t.left(open).trimmed();
    *port = number;
    return true;
}

}  // namespace

struct MetricStore::Impl
{
    // Per fabric port: the port at the other end of its cable (kNoIndex when none).
    std::vector<PortIndex> facing;
    // Per node: its cabled ports (the ports its traffic passes).
    std::vector<std::vector<PortIndex>> cabledPorts;
    // The directed links: every cabled port as a sender.
    std::vector<PortIndex> directedLinks;

    explicit Impl(const Fabric &fabric)
    {
        const auto &ports = fabric.ports();
        facing.assign(ports.size(), kNoIndex);
        cabledPorts.resize(fabric.nodes().size());
        for (PortIndex p = 0; p < PortIndex(ports.size()); ++p) {
            const Port &port = ports[std::size_t(p)];
            if (!port.present || port.remote == kNoIndex || port.node == kNoIndex)
                continue;
            facing[std::size_t(p)] = port.remote;
            cabledPorts[std::size_t(port.node)].push_back(p);
            directedLinks.push_back(p);
        }
    }
};

namespace {

// The figures a tick keeps per port, in this order.
enum Figure : int { XmitBytes,
                    RcvBytes,
                    XmitWait,
                    Utilisation,
                    Errors,
                    Interval,      // the seconds the rates cover
                    SymbolErrors,  // new SymbolErrorCounter counts (NaN: a gap)
                    LinkDowns,     // new LinkDownedCounter counts (NaN: a gap)
                    Unanswered,    // 1: the port's counters went unanswered this tick or the one before
                    kFigureCount };

double figureOf(const CounterRate &rate)
{
    return rate.ok() ? rate.value : std::numeric_limits<double>::quiet_NaN();
}

double deltaOf(const CounterDelta &d)
{
    return d.ok() ? double(d.delta) : std::numeric_limits<double>::quiet_NaN();
}

double errorSum(const PortRates &rates)
{
    double sum = 0;
    for (const CounterDelta &d : rates.errors)
        if (d.ok())
            sum += double(d.delta);
    return sum;
}

// One tick's figures by port: O(1) per lookup.
struct TickView
{
    const std::int32_t *slotOfPort = nullptr;
    std::size_t portCount = 0;
    const double *figures = nullptr;

    bool measured(PortIndex port) const
    {
        return port >= 0 && std::size_t(port) < portCount && slotOfPort[port] >= 0;
    }
    Reading get(PortIndex port, Figure figure) const
    {
        if (!measured(port))
            return std::nullopt;
        const double v = figures[std::size_t(slotOfPort[port]) * kFigureCount + figure];
        return std::isnan(v) ? std::nullopt : Reading(v);
    }
};

struct Entities
{
    std::vector<NodeIndex> nodes;
    std::vector<PortIndex> senders;  // directed links by sending port
    bool allPorts = false;           // fabric errors: every port with a record
};

}  // namespace

struct MetricStore::PortLayout
{
    std::vector<PortIndex> ports;          // in port order
    std::vector<std::int32_t> slotOfPort;  // per fabric port; -1 when not measured
};

MetricStore::MetricStore(std::shared_ptr<const Fabric> fabric, Tenancy tenancy)
    : m_fabric(std::move(fabric)), m_tenancy(std::move(tenancy)), m_impl(std::make_shared<Impl>(*m_fabric))
{
}

void MetricStore::setTenancy(Tenancy tenancy)
{
    m_tenancy = std::move(tenancy);
}

void MetricStore::setRetentionSeconds(double seconds)
{
    m_retention = std::max(0.0, seconds);
}

double MetricStore::latestTime() const
{
    return m_ticks.empty() ? 0 : m_ticks.back().time;
}

void MetricStore::addTick(double time, std::vector<TelemetryRecord> records)
{
    if (!m_ticks.empty() && time <= m_ticks.back().time)
        return;
    const PortIndex portCount = PortIndex(m_fabric->ports().size());
    records.erase(std::remove_if(records.begin(), records.end(),
                                 [&](const TelemetryRecord &r) { return r.portIndex < 0 || r.portIndex >= portCount; }),
                  records.end());
    const auto byPort = [](const TelemetryRecord &a, const TelemetryRecord &b) { return a.portIndex < b.portIndex; };
    if (!std::is_sorted(records.begin(), records.end(), byPort))
        std::stable_sort(records.begin(), records.end(), byPort);
    // A port read twice in one tick: its first record counts.
    records.erase(std::unique(records.begin(), records.end(),
                              [](const TelemetryRecord &a, const TelemetryRecord &b) { return a.portIndex == b.portIndex; }),
                  records.end());

    Tick tick;
    tick.time = time;
    const std::shared_ptr<const PortLayout> previous = m_ticks.empty() ? nullptr : m_ticks.back().layout;
    const bool samePorts = previous && previous->ports.size() == records.size()
        && std::equal(records.begin(), records.end(), previous->ports.begin(),
                      [](const TelemetryRecord &r, PortIndex p) { return r.portIndex == p; });
    if (samePorts) {
        tick.layout = previous;
    } else {
        auto layout = std::make_shared<PortLayout>();
        layout->slotOfPort.assign(std::size_t(portCount), -1);
        layout->ports.reserve(records.size());
        for (const TelemetryRecord &r : records) {
            layout->slotOfPort[std::size_t(r.portIndex)] = std::int32_t(layout->ports.size());
            layout->ports.push_back(r.portIndex);
        }
        tick.layout = std::move(layout);
    }
    tick.figures.reserve(records.size() * kFigureCount);
    for (const TelemetryRecord &r : records) {
        tick.figures.push_back(figureOf(r.rates.xmitBytes));
        tick.figures.push_back(figureOf(r.rates.rcvBytes));
        tick.figures.push_back(figureOf(r.rates.xmitWait));
        tick.figures.push_back(figureOf(r.rates.utilisation));
        tick.figures.push_back(errorSum(r.rates));
        tick.figures.push_back(r.seconds);
        tick.figures.push_back(deltaOf(r.rates.errors[std::size_t(PortErrorCounter::SymbolError)]));
        tick.figures.push_back(deltaOf(r.rates.errors[std::size_t(PortErrorCounter::LinkDowned)]));
        tick.figures.push_back(r.rates.xmitBytes.gap == CounterGap::NoAnswer ? 1.0 : 0.0);
    }
    m_ticks.push_back(std::move(tick));
    while (m_ticks.size() > 1 && m_ticks.front().time < time - m_retention)
        m_ticks.pop_front();
}

namespace {

// The value of one node's field in one tick; nullopt when a port it needs was not measured.
// Fields as the header defines them.
Reading nodeReading(const Fabric &fabric, const Tenancy &tenancy, const std::vector<PortIndex> &cabled,
                    const std::vector<PortIndex> &facing, const TickView &tick, NodeIndex node, MetricField field)
{
    if (field == MetricField::Weight) {
        const Node &n = fabric.node(node);
        for (int i = 0; i <= n.portCount; ++i) {
            const PortIndex p = n.firstPort + i;
            if (p < 0 || p >= PortIndex(fabric.ports().size()) || !fabric.port(p).present)
                continue;
            auto it = tenancy.nodeWeights.find(fabric.port(p).guid);
            if (it != tenancy.nodeWeights.end())
                return it->second;
        }
        return 1.0;
    }
    if (cabled.empty())
        return std::nullopt;
    // What a cable carries one way, in Gb/s: the sender's PortXmitData, else the receiver's
    // PortRcvData.
    const auto carried = [&](PortIndex sender, PortIndex receiver) {
        Reading r = tick.get(sender, XmitBytes);
        if (!r)
            r = tick.get(receiver, RcvBytes);
        if (r)
            *r *= kGbpsPerBytePerSecond;
        return r;
    };
    double total = 0;
    for (PortIndex p : cabled) {
        const PortIndex far = facing[std::size_t(p)];
        Reading r;
        switch (field) {
        case MetricField::RxGbps: r = carried(far, p); break;
        case MetricField::TxGbps: r = carried(p, far); break;
        case MetricField::Util: {
            const Reading out = tick.get(p, Utilisation);
            const Reading in = tick.get(far, Utilisation);
            if (out || in)
                r = std::max(out.value_or(0), in.value_or(0));
            break;
        }
        case MetricField::XmitWaitRate: r = tick.get(p, XmitWait); break;
        case MetricField::Errors: r = tick.get(p, Errors); break;
        case MetricField::Weight: break;
        }
        if (!r)
            return std::nullopt;
        total = field == MetricField::Util ? std::max(total, *r) : total + *r;
    }
    return total;
}

Reading linkReading(const TickView &tick, PortIndex sender, MetricField field)
{
    switch (field) {
    case MetricField::RxGbps:
    case MetricField::TxGbps: {
        Reading r = tick.get(sender, XmitBytes);
        if (r)
            *r *= kGbpsPerBytePerSecond;
        return r;
    }
    case MetricField::Util: return tick.get(sender, Utilisation);
    case MetricField::XmitWaitRate: return tick.get(sender, XmitWait);
    case MetricField::Errors: return tick.get(sender, Errors);
    case MetricField::Weight: return std::nullopt;
    }
    return std::nullopt;
}

}  // namespace

namespace {

// The nodes of a tenant or partition (by port GUID, keywords expanded), without repeats.
std::vector<NodeIndex> memberNodes(const Fabric &fabric, const std::vector<Guid> &portGuids)
{
    std::vector<NodeIndex> out;
    for (Guid g : portGuids) {
        PortIndex p = fabric.portByGuid(g);
        NodeIndex n = p != kNoIndex ? fabric.port(p).node : fabric.nodeByGuid(g);
        if (n != kNoIndex)
            out.push_back(n);
    }
    return out;
}

const Tenant *findTenant(const Tenancy &tenancy, const QString &name)
{
    for (const Tenant &t : tenancy.tenants)
        if (t.name == name)
            return &t;
    return nullptr;
}

const Partition *findPartitionNamed(const Tenancy &tenancy, const QString &name)
{
    for (const Partition &p : tenancy.partitions)
        if (p.name == name)
            return &p;
    bool ok = false;
    const uint pkey = name.trimmed().toUInt(&ok, 0);
    return ok && pkey <= 0xffff ? tenancy.findPartition(std::uint16_t(pkey)) : nullptr;
}

}  // namespace

QString MetricStore::selectorError(const Metric &metric) const
{
    const Fabric &fabric = *m_fabric;
    switch (metric.scope) {
    case ScopeKind::Node:
        if (!metric.target.all && NodeQuery(metric.target.name).find(fabric) == kNoIndex)
            return QStringLiteral("no node \"%1\" in the fabric").arg(metric.target.name);
        return {};
    case ScopeKind::Link: {
        if (metric.target.all)
            return {};
        QString node;
        int number = 0;
        if (!splitLinkSelector(metric.target.name, &node, &number))
            return QStringLiteral("link \"%1\" is not NODE[PORT]").arg(metric.target.name);
        const NodeIndex n = NodeQuery(node).find(fabric);
        if (n == kNoIndex)
            return QStringLiteral("no node \"%1\" in the fabric").arg(node);
        const PortIndex p = fabric.portOf(n, number);
        if (p == kNoIndex || fabric.port(p).remote == kNoIndex)
            return QStringLiteral("node \"%1\" has no cable at port %2").arg(node).arg(number);
        return {};
    }
    case ScopeKind::Tenant:
        return findTenant(m_tenancy, metric.target.name) ? QString()
                                                         : QStringLiteral("no tenant \"%1\"").arg(metric.target.name);
    case ScopeKind::Partition:
        return findPartitionNamed(m_tenancy, metric.target.name)
            ? QString()
            : QStringLiteral("no partition \"%1\"").arg(metric.target.name);
    case ScopeKind::Fabric: return {};
    }
    return {};
}

std::optional<double> MetricStore::value(const Metric &metric) const
{
    if (m_ticks.empty() || !selectorError(metric).isEmpty())
        return std::nullopt;
    const Fabric &fabric = *m_fabric;

    // Which entities the metric covers, and whether they are nodes or directed links.
    Entities entities;
    bool linkScope = false;
    switch (metric.scope) {
    case ScopeKind::Node:
        if (metric.target.all)
            entities.nodes = fabric.endNodes();
        else
            entities.nodes.push_back(NodeQuery(metric.target.name).find(fabric));
        break;
    case ScopeKind::Link:
        linkScope = true;
        if (metric.target.all) {
            entities.senders = m_impl->directedLinks;
        } else {
            QString node;
            int number = 0;
            splitLinkSelector(metric.target.name, &node, &number);
            const PortIndex p = fabric.portOf(NodeQuery(node).find(fabric), number);
            entities.senders = {p, fabric.port(p).remote};
        }
        break;
    case ScopeKind::Tenant:
        entities.nodes = memberNodes(fabric, findTenant(m_tenancy, metric.target.name)->members);
        break;
    case ScopeKind::Partition: {
        const Partition *partition = findPartitionNamed(m_tenancy, metric.target.name);
        std::vector<Guid> guids;
        for (const PartitionMember &m : partition->members) {
            if (m.kind == PartitionMember::Kind::PortGuid) {
                guids.push_back(m.guid);
                continue;
            }
            const auto &pool = m.kind == PartitionMember::Kind::AllSwitches ? fabric.switches() : fabric.endNodes();
            for (NodeIndex n : pool) {
                const NodeType type = fabric.node(n).type;
                if ((m.kind == PartitionMember::Kind::AllCas && type != NodeType::ChannelAdapter)
                    || (m.kind == PartitionMember::Kind::AllRouters && type != NodeType::Router)
                    || m.kind == PartitionMember::Kind::Self)
                    continue;
                entities.nodes.push_back(n);
            }
        }
        const std::vector<NodeIndex> byGuid = memberNodes(fabric, guids);
        entities.nodes.insert(entities.nodes.end(), byGuid.begin(), byGuid.end());
        break;
    }
    case ScopeKind::Fabric:
        if (metric.field == MetricField::Util || metric.field == MetricField::XmitWaitRate) {
            linkScope = true;
            entities.senders = m_impl->directedLinks;
        } else if (metric.field == MetricField::Errors) {
            linkScope = true;
            entities.allPorts = true;
        } else {
            entities.nodes = fabric.endNodes();
        }
        break;
    }
    std::sort(entities.nodes.begin(), entities.nodes.end());
    entities.nodes.erase(std::unique(entities.nodes.begin(), entities.nodes.end()), entities.nodes.end());

    // The ticks the metric looks at: the latest, or those within its window of the latest.
    const double latest = m_ticks.back().time;
    auto first = m_ticks.end() - 1;
    if (metric.windowSeconds > 0)
        while (first != m_ticks.begin() && (first - 1)->time >= latest - double(metric.windowSeconds))
            --first;

    auto view = [](const Tick &t) {
        return TickView{t.layout->slotOfPort.data(), t.layout->slotOfPort.size(), t.figures.data()};
    };
    // Streamed: only p95 keeps the samples.
    const bool keep = metric.aggregate == Aggregate::P95;
    std::vector<double> samples;
    std::size_t count = 0;
    double total = 0, lowest = std::numeric_limits<double>::infinity(), highest = -lowest;
    int ticksMeasured = 0;
    for (auto tick = first; tick != m_ticks.end(); ++tick) {
        const std::size_t countBefore = count;
        auto add = [&](double v) {
            ++count;
            total += v;
            lowest = std::min(lowest, v);
            highest = std::max(highest, v);
            if (keep)
                samples.push_back(v);
        };
        const TickView ticks = view(*tick);
        if (entities.allPorts) {
            for (std::size_t slot = 0; slot < tick->layout->ports.size(); ++slot)
                add(tick->figures[slot * kFigureCount + Errors]);
        } else if (linkScope) {
            for (PortIndex p : entities.senders)
                if (Reading r = linkReading(ticks, p, metric.field))
                    add(*r);
        } else {
            for (NodeIndex n : entities.nodes)
                if (Reading r = nodeReading(fabric, m_tenancy, m_impl->cabledPorts[std::size_t(n)], m_impl->facing,
                                            ticks, n, metric.field))
                    add(*r);
        }
        if (count > countBefore)
            ++ticksMeasured;
    }
    if (count == 0)
        return std::nullopt;

    switch (metric.aggregate) {
    case Aggregate::Avg: return total / double(count);
    case Aggregate::Max: return highest;
    case Aggregate::Min: return lowest;
    case Aggregate::P95: {
        // Nearest rank: the smallest value with at least 95 % of the samples at or below it.
        const std::size_t rank = std::size_t(std::ceil(0.95 * double(samples.size())));
        const std::size_t index = std::max<std::size_t>(rank, 1) - 1;
        std::nth_element(samples.begin(), samples.begin() + std::ptrdiff_t(index), samples.end());
        return samples[index];
    }
    // The mean over the measured ticks of each tick's sum: the sum of everything over their number.
    case Aggregate::Sum: return total / double(ticksMeasured);
    }
    return std::nullopt;
}

std::vector<double> MetricStore::smoothedReceiveRates(double windowSeconds) const
{
    const Fabric &fabric = *m_fabric;
    const auto &endNodes = fabric.endNodes();
    std::vector<double> smoothed(endNodes.size(), 0.0);
    std::vector<double> lastTime(endNodes.size(), std::numeric_limits<double>::quiet_NaN());
    auto view = [](const Tick &t) {
        return TickView{t.layout->slotOfPort.data(), t.layout->slotOfPort.size(), t.figures.data()};
    };
    for (const Tick &tick : m_ticks) {
        const TickView ticks = view(tick);
        for (std::size_t i = 0; i < endNodes.size(); ++i) {
            const NodeIndex n = endNodes[i];
            const Reading gbps = nodeReading(fabric, m_tenancy, m_impl->cabledPorts[std::size_t(n)], m_impl->facing,
                                             ticks, n, MetricField::RxGbps);
            if (!gbps)
                continue;
            const double rate = *gbps / kGbpsPerBytePerSecond;
            if (std::isnan(lastTime[i])) {
                smoothed[i] = rate;
            } else {
                const double dt = tick.time - lastTime[i];
                const double a = windowSeconds > 0 ? 1.0 - std::exp(-dt / windowSeconds) : 1.0;
                smoothed[i] = a * rate + (1.0 - a) * smoothed[i];
            }
            lastTime[i] = tick.time;
        }
    }
    return smoothed;
}

}  // namespace weft::adapt

namespace weft::adapt {

PortHealthWindow MetricStore::portHealth(PortIndex port, double windowSeconds, int passes) const
{
    PortHealthWindow health;
    if (m_ticks.empty() || port < 0)
        return health;
    const double latest = m_ticks.back().time;
    int back = 0;
    for (auto tick = m_ticks.rbegin(); tick != m_ticks.rend(); ++tick, ++back) {
        const bool inWindow = tick->time >= latest - windowSeconds;
        const bool inPasses = back < passes;
        if (!inWindow && !inPasses)
            break;
        const TickView view{tick->layout->slotOfPort.data(), tick->layout->slotOfPort.size(), tick->figures.data()};
        // A tick without a record of the port (a tick of another snapshot's ports) tells nothing.
        if (const Reading unanswered = view.get(port, Unanswered); inPasses && unanswered) {
            ++health.passes;
            health.unansweredPasses += *unanswered > 0 ? 1 : 0;
        }
        if (!inWindow)
            continue;
        ++health.ticks;
        const Reading symbols = view.get(port, SymbolErrors);
        const Reading downs = view.get(port, LinkDowns);
        if (symbols) {
            ++health.measuredTicks;
            health.symbolErrors += std::uint64_t(*symbols);
            health.seconds += view.get(port, Interval).value_or(0);
        }
        if (downs)
            health.linkDowns += std::uint64_t(*downs);
    }
    return health;
}

}  // namespace weft::adapt
