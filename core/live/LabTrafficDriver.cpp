#include "LabTrafficDriver.h"

#include "Metrics.h"
#include "NodeQuery.h"
#include "PortTelemetry.h"
#include "RouteWalk.h"
#include "SimulatedFabric.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace weft {

namespace {

// ibsim reads a console line into 128 bytes.
constexpr int kConsoleLineLimit = 127;

bool isEndPort(const Fabric &fabric, PortIndex p)
{
    const Port &port = fabric.port(p);
    return port.present && port.lid != 0 && port.remote != kNoIndex && fabric.node(port.node).type != NodeType::Switch;
}

// A hot spot: every other end port sends one flow to it, along its route.
void addHotSpotFlows(const Fabric &fabric, const ForwardingTables &tables, PortIndex destination, LabTrafficLoad &load,
                     std::vector<std::uint64_t> &flowsOf)
{
    const TablesByNode tableOf(fabric, tables);
    const Lid lid = fabric.port(destination).lid;
    std::vector<PortIndex> hops;
    for (PortIndex p = 0; p < PortIndex(fabric.ports().size()); ++p) {
        if (p == destination || !isEndPort(fabric, p))
            continue;
        ++load.flows;
        hops.clear();
        PortIndex last = kNoIndex;
        const RouteEnd end = walkRouteFromPort(fabric, tableOf, p, lid, [&](const RouteHop &hop) {
            hops.push_back(hop.out);
            last = hop.remote;
            return true;
        });
        if (end != RouteEnd::AtEndNode || last != destination) {
            ++load.undeliveredFlows;
            continue;
        }
        for (PortIndex out : hops)
            ++flowsOf[std::size_t(out)];
    }
}

QString counterCommand(const Fabric &fabric, PortIndex port, const char *field, std::uint64_t value)
{
    const Port &p = fabric.port(port);
    return QStringLiteral("PerformanceSet \"%1\"[%2] %3=%4")
        .arg(fabric.node(p.node).name)
        .arg(p.number)
        .arg(QLatin1String(field))
        .arg(value);
}

}  // namespace

std::vector<PortIndex> LabWorkload::destinations() const
{
    if (!hotSpots.empty())
        return hotSpots;
    return hotSpot == kNoIndex ? std::vector<PortIndex>{} : std::vector<PortIndex>{hotSpot};
}

QString LabWorkload::toString(const Fabric &fabric) const
{
    if (model)
        return model->toString();
    const std::vector<PortIndex> spots = destinations();
    if (spots.empty())
        return QStringLiteral("hotspot");
    QStringList names;
    for (PortIndex p : spots)
        names << fabric.node(fabric.port(p).node).name;
    return QStringLiteral("hotspot:") + names.join(QLatin1Char(','));
}

QString labWorkloadNames()
{
    return QStringLiteral("hotspot, hotspot:NODE[,NODE...], ") + trafficModelNames();
}

Result<LabWorkload> parseLabWorkload(const QString &text, const Fabric &fabric)
{
    LabWorkload workload;
    const QString trimmed = text.trimmed();
    if (trimmed == QLatin1String("hotspot") || trimmed.startsWith(QLatin1String("hotspot:"))) {
        const QString name = trimmed.mid(int(qstrlen("hotspot:")));
        if (trimmed == QLatin1String("hotspot")) {
            for (PortIndex p = 0; p < PortIndex(fabric.ports().size()); ++p)
                if (isEndPort(fabric, p) && (workload.hotSpot == kNoIndex || fabric.port(p).lid > fabric.port(workload.hotSpot).lid))
                    workload.hotSpot = p;
            if (workload.hotSpot == kNoIndex)
                return Error{{}, 0, QStringLiteral("hotspot: the fabric has no end port with a LID")};
            workload.hotSpots = {workload.hotSpot};
            return workload;
        }
        for (const QString &part : name.split(QLatin1Char(','))) {
            const QString one = part.trimmed();
            const NodeIndex node = NodeQuery(one).find(fabric);
            if (node == kNoIndex)
                return Error{{}, 0, QStringLiteral("hotspot: no node \"%1\" in the fabric").arg(one)};
            PortIndex spot = kNoIndex;
            for (int number = 1; number <= fabric.node(node).portCount && spot == kNoIndex; ++number)
                if (const PortIndex p = fabric.portOf(node, number); p != kNoIndex && isEndPort(fabric, p))
                    spot = p;
            if (spot == kNoIndex)
                return Error{{}, 0, QStringLiteral("hotspot: \"%1\" is not an end node with a LID and a cable").arg(one)};
            if (std::find(workload.hotSpots.begin(), workload.hotSpots.end(), spot) != workload.hotSpots.end())
                return Error{{}, 0, QStringLiteral("hotspot: \"%1\" is named twice").arg(one)};
            workload.hotSpots.push_back(spot);
        }
        workload.hotSpot = workload.hotSpots.front();
        return workload;
    }
    workload.model = parseTrafficModel(trimmed);
    if (!workload.model)
        return Error{{}, 0, QStringLiteral("unknown workload \"%1\" (expected one of: %2)").arg(text, labWorkloadNames())};
    return workload;
}

double LabTrafficLoad::maxSwitchLinkUtilisation(const Fabric &fabric) const
{
    double highest = 0;
    for (const LabLinkTraffic &l : links)
        if (fabric.node(fabric.port(l.from).node).type == NodeType::Switch && fabric.node(fabric.port(l.to).node).type == NodeType::Switch)
            highest = std::max(highest, l.utilisation());
    return highest;
}

LabTrafficLoad computeLabTraffic(const Fabric &fabric, const ForwardingTables &tables, const LabWorkload &workload,
                                 double flowRate)
{
    LabTrafficLoad load;
    load.linkOfPort.assign(fabric.ports().size(), -1);
    for (PortIndex p = 0; p < PortIndex(fabric.ports().size()); ++p) {
        const Port &port = fabric.port(p);
        if (!port.present || port.remote == kNoIndex)
            continue;
        LabLinkTraffic link;
        link.from = p;
        link.to = port.remote;
        link.capacity = linkDataBytesPerSecond(port.width, port.speed);
        load.linkOfPort[std::size_t(p)] = int(load.links.size());
        load.links.push_back(link);
    }

    std::vector<std::uint64_t> flowsOf(fabric.ports().size(), 0);
    if (workload.model) {
        // The traffic models' flows per link, as the metrics count them: one walk for all.
        const Metrics metrics = computeMetrics(fabric, Tenancy{}, tables, *workload.model);
        load.flows = metrics.modelFlows;
        load.undeliveredFlows = metrics.undeliveredFlows;
        for (const LinkLoad &l : metrics.links)
            flowsOf[std::size_t(l.from)] = l.flows;
    } else {
        for (PortIndex destination : workload.destinations())
            addHotSpotFlows(fabric, tables, destination, load, flowsOf);
    }

    if (flowRate <= 0) {
        // The fastest rate that offers no end port's own cable more than it carries.
        double rate = std::numeric_limits<double>::infinity();
        for (const LabLinkTraffic &l : load.links) {
            const std::uint64_t flows = flowsOf[std::size_t(l.from)];
            const bool endLink = fabric.node(fabric.port(l.from).node).type != NodeType::Switch
                || fabric.node(fabric.port(l.to).node).type != NodeType::Switch;
            if (endLink && flows > 0 && l.capacity > 0)
                rate = std::min(rate, l.capacity / double(flows));
        }
        flowRate = std::isfinite(rate) ? rate : 0;
    }
    load.flowRate = flowRate;
    for (LabLinkTraffic &l : load.links) {
        l.flows = flowsOf[std::size_t(l.from)];
        l.offered = double(l.flows) * flowRate;
        l.carried = std::min(l.offered, l.capacity);
    }
    return load;
}

LabTrafficDriver::LabTrafficDriver(Fabric fabric, const ForwardingTables &tables, LabWorkload workload, double flowRate)
    : m_fabric(std::move(fabric)), m_workload(std::move(workload)), m_requestedRate(flowRate)
{
    const std::size_t ports = m_fabric.ports().size();
    m_counters.assign(ports, {});
    m_xmitOwed.assign(ports, 0);
    m_rcvOwed.assign(ports, 0);
    m_waitOwed.assign(ports, 0);
    m_sent.assign(ports, {});
    setTables(tables);
}

void LabTrafficDriver::setTables(const ForwardingTables &tables)
{
    m_load = computeLabTraffic(m_fabric, tables, m_workload, m_requestedRate);
}

QStringList LabTrafficDriver::advance(double seconds)
{
    seconds = std::max(0.0, seconds);
    for (const LabLinkTraffic &l : m_load.links) {
        // The bytes sent leave by `from` and arrive at `to`; whole 4-octet units are counted
        // and the remainder carried to the next tick, so totals never drift from the rate.
        const double bytes = l.carried * seconds;
        LabPortCounters &sender = m_counters[std::size_t(l.from)];
        LabPortCounters &receiver = m_counters[std::size_t(l.to)];
        double &xmitOwed = m_xmitOwed[std::size_t(l.from)];
        double &rcvOwed = m_rcvOwed[std::size_t(l.to)];
        xmitOwed += bytes;
        rcvOwed += bytes;
        const auto xmitUnits = std::uint64_t(xmitOwed / 4);
        const auto rcvUnits = std::uint64_t(rcvOwed / 4);
        xmitOwed -= double(xmitUnits) * 4;
        rcvOwed -= double(rcvUnits) * 4;
        sender.xmitData += xmitUnits;
        receiver.rcvData += rcvUnits;
        sender.xmitPackets = sender.xmitData * 4 / kLabPacketBytes;
        receiver.rcvPackets = receiver.rcvData * 4 / kLabPacketBytes;

        double &waitOwed = m_waitOwed[std::size_t(l.from)];
        waitOwed += l.waitFraction() * seconds * kXmitWaitTicksPerSecond;
        const auto waitTicks = std::uint64_t(waitOwed);
        waitOwed -= double(waitTicks);
        sender.xmitWait += waitTicks;
    }
    QStringList commands;
    for (const LabLinkTraffic &l : m_load.links) {
        Sent &sent = m_sent[std::size_t(l.from)];
        appendCommands(l.from, sent.valid ? &sent : nullptr, commands);
        sent.valid = true;
        sent.values = m_counters[std::size_t(l.from)];
    }
    return commands;
}

QStringList LabTrafficDriver::allCommands() const
{
    QStringList commands;
    for (const LabLinkTraffic &l : m_load.links)
        appendCommands(l.from, nullptr, commands);
    return commands;
}

void LabTrafficDriver::appendCommands(PortIndex port, const Sent *previous, QStringList &commands) const
{
    const LabPortCounters &now = m_counters[std::size_t(port)];
    const auto add = [&](const char *field, std::uint64_t value, std::uint64_t before) {
        if (!previous || value != before)
            commands << counterCommand(m_fabric, port, field, value);
    };
    const LabPortCounters none;
    const LabPortCounters &was = previous ? previous->values : none;
    add("PortCountersExtended.PortXmitData", now.xmitData, was.xmitData);
    add("PortCountersExtended.PortRcvData", now.rcvData, was.rcvData);
    add("PortCountersExtended.PortXmitPkts", now.xmitPackets, was.xmitPackets);
    add("PortCountersExtended.PortRcvPkts", now.rcvPackets, was.rcvPackets);
    constexpr std::uint64_t kWaitMax = std::numeric_limits<std::uint32_t>::max();
    add("PortCounters.PortXmitWait", std::min(now.xmitWait, kWaitMax), std::min(was.xmitWait, kWaitMax));
}

Status LabTrafficDriver::tick(SimulatedFabric &sim, double seconds)
{
    const QStringList commands = advance(seconds);
    for (const QString &c : commands)
        if (c.size() > kConsoleLineLimit)
            return Error{{}, 0, QStringLiteral("the console command \"%1\" is longer than ibsim reads").arg(c)};
    return sim.simulatorCommands(commands);
}

}  // namespace weft
