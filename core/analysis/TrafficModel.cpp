#include "TrafficModel.h"

#include "TextReader.h"

#include <cmath>
#include <cstring>
#include <limits>

#include <algorithm>
#include <deque>

namespace weft {

int LaneAssignment::serviceLevel(std::uint16_t pkey) const
{
    const auto it = serviceLevels.find(std::uint16_t(pkey & kPKeyMask));
    return it == serviceLevels.end() ? 0 : it->second;
}

int LaneAssignment::virtualLane(std::uint16_t pkey) const
{
    const int sl = serviceLevel(pkey) & 0xf;
    if (slToVl.size() == 16)
        return slToVl[std::size_t(sl)] & 0xf;
    return sl;
}

QString TrafficModel::toString() const
{
    switch (pattern) {
    case TrafficPattern::PartitionAllToAll: return QStringLiteral("partition-all-to-all");
    case TrafficPattern::AllToAll: return QStringLiteral("all-to-all");
    case TrafficPattern::UniformRandom: return QStringLiteral("uniform-random");
    case TrafficPattern::Shift: return QStringLiteral("shift:%1").arg(shift);
    case TrafficPattern::RandomBisection: return QStringLiteral("bisection");
    }
    return {};
}

std::optional<TrafficModel> parseTrafficModel(const QString &text)
{
    TrafficModel model;
    if (text == QLatin1String("partition-all-to-all"))
        model.pattern = TrafficPattern::PartitionAllToAll;
    else if (text == QLatin1String("all-to-all"))
        model.pattern = TrafficPattern::AllToAll;
    else if (text == QLatin1String("uniform-random"))
        model.pattern = TrafficPattern::UniformRandom;
    else if (text == QLatin1String("bisection"))
        model.pattern = TrafficPattern::RandomBisection;
    else if (text == QLatin1String("shift") || text.startsWith(QLatin1String("shift:"))) {
        model.pattern = TrafficPattern::Shift;
        if (text.size() > 5) {
            bool ok = false;
            model.shift = text.mid(6).toInt(&ok);
            if (!ok || model.shift <= 0)
                return std::nullopt;
        }
    } else {
        return std::nullopt;
    }
    return model;
}

QString trafficModelNames()
{
    return QStringLiteral("partition-all-to-all, all-to-all, uniform-random, shift:K, bisection");
}

std::uint64_t uniformBelow(std::mt19937_64 &rng, std::uint64_t n)
{
    if (n <= 1)
        return 0;
    // Rejection keeps the draw exactly uniform: values past the last whole multiple of n are drawn again.
    const std::uint64_t limit = std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % n;
    for (;;) {
        const std::uint64_t v = rng();
        if (v < limit)
            return v % n;
    }
}

Result<std::map<Guid, double>> readNodeWeights(const QByteArray &data, const QString &fileName, const Fabric &fabric)
{
    TextReader reader(data, fileName);
    std::map<Guid, double> weights;
    std::map<Guid, int> givenOn;
    std::multimap<QString, NodeIndex> byDescription;
    for (NodeIndex n : fabric.endNodes()) {
        byDescription.emplace(fabric.node(n).description, n);
        if (fabric.node(n).name != fabric.node(n).description)
            byDescription.emplace(fabric.node(n).name, n);
    }
    try {
        while (reader.next()) {
            const std::string_view line = text::trimmed(reader.line());
            if (line.empty() || line.front() == '#')
                continue;
            const std::size_t space = line.find_last_of(" \t");
            if (space == std::string_view::npos)
                reader.fail(QStringLiteral("expected \"GUID-or-description weight\", found \"%1\"").arg(text::toQString(line)));
            const QString key = text::toQString(text::trimmed(line.substr(0, space)));
            const QString weightText = text::toQString(line.substr(space + 1));
            bool ok = false;
            const double weight = weightText.toDouble(&ok);
            if (!ok || !std::isfinite(weight) || weight <= 0)
                reader.fail(QStringLiteral("weight \"%1\" is not a positive number").arg(weightText));

            std::vector<PortIndex> ports;
            std::uint64_t guid = 0;
            if (key.startsWith(QLatin1String("0x")) && text::parseUInt(line.substr(0, key.size()), 0, &guid)) {
                const PortIndex port = fabric.portByGuid(guid);
                const NodeIndex node = port != kNoIndex ? fabric.port(port).node : fabric.nodeByGuid(guid);
                if (node == kNoIndex)
                    reader.fail(QStringLiteral("no port or node with GUID %1 in the fabric").arg(key));
                if (fabric.node(node).type == NodeType::Switch)
                    reader.fail(QStringLiteral("%1 is a switch; weights belong to end nodes").arg(key));
                if (port != kNoIndex) {
                    ports.push_back(port);
                } else {
                    for (int number = 1; number <= fabric.node(node).portCount; ++number)
                        ports.push_back(fabric.portOf(node, number));
                }
            } else {
                const auto [first, last] = byDescription.equal_range(key);
                if (first == last) {
                    if (fabric.nodeByName(key) != kNoIndex)
                        reader.fail(QStringLiteral("\"%1\" is a switch; weights belong to end nodes").arg(key));
                    reader.fail(QStringLiteral("no end node described or named \"%1\" in the fabric").arg(key));
                }
                std::vector<NodeIndex> nodes;
                for (auto it = first; it != last; ++it)
                    if (std::find(nodes.begin(), nodes.end(), it->second) == nodes.end())
                        nodes.push_back(it->second);
                if (nodes.size() > 1)
                    reader.fail(QStringLiteral("\"%1\" names %2 nodes; use a GUID").arg(key).arg(nodes.size()));
                for (int number = 1; number <= fabric.node(nodes.front()).portCount; ++number)
                    ports.push_back(fabric.portOf(nodes.front(), number));
            }
            for (PortIndex p : ports) {
                if (p == kNoIndex || !fabric.port(p).present)
                    continue;
                const Guid portGuid = fabric.port(p).guid;
                const auto [it, inserted] = givenOn.emplace(portGuid, reader.lineNumber());
                if (!inserted)
                    reader.fail(QStringLiteral("port %1 already has a weight (line %2)").arg(guidText(portGuid)).arg(it->second));
                weights[portGuid] = weight;
            }
        }
    } catch (const InputError &e) {
        return reader.error(e);
    }
    return weights;
}

Result<std::map<std::uint16_t, int>> readServiceLevels(const QByteArray &data, const QString &fileName)
{
    TextReader reader(data, fileName);
    std::map<std::uint16_t, int> levels;
    try {
        while (reader.next()) {
            const std::string_view line = text::trimmed(reader.line());
            if (line.empty() || line.front() == '#')
                continue;
            const std::size_t space = line.find_first_of(" \t");
            std::uint64_t pkey = 0;
            std::uint64_t sl = 0;
            if (space == std::string_view::npos || !text::startsWith(line, "0x")
                || !text::parseUInt(line.substr(0, space), 0, &pkey) || pkey > 0xffff
                || !text::parseUInt(text::trimmed(line.substr(space + 1)), 10, &sl))
                reader.fail(QStringLiteral("expected \"0xPKEY SL\", found \"%1\"").arg(text::toQString(line)));
            if (sl > 15)
                reader.fail(QStringLiteral("service level %1 is out of range 0..15").arg(sl));
            if (!levels.emplace(std::uint16_t(pkey & kPKeyMask), int(sl)).second)
                reader.fail(QStringLiteral("P_Key %1 given twice").arg(pkeyText(pkey & kPKeyMask)));
        }
    } catch (const InputError &e) {
        return reader.error(e);
    }
    return levels;
}

QByteArray writeServiceLevels(const std::map<std::uint16_t, int> &serviceLevels)
{
    QByteArray text = "# Service level per partition, as Weft's routing assigned it: P_Key SL\n";
    for (const auto &[pkey, sl] : serviceLevels)
        text += QStringLiteral("%1 %2\n").arg(pkeyText(pkey)).arg(sl).toLatin1();
    return text;
}

Status setPartitionPolicy(Tenancy &tenancy, const QString &assignment)
{
    const qsizetype equals = assignment.lastIndexOf(QLatin1Char('='));
    if (equals <= 0)
        return Error{{}, 0, QStringLiteral("policy \"%1\" is not NAME=POLICY").arg(assignment)};
    const QString name = assignment.left(equals);
    const std::optional<IsolationPolicy> policy = policyFromName(assignment.mid(equals + 1));
    if (!policy)
        return Error{{}, 0, QStringLiteral("unknown policy \"%1\" (known: phy-isolation, vlane-isolation, def-isolation)")
                                .arg(assignment.mid(equals + 1))};
    for (Partition &p : tenancy.partitions) {
        if (p.name == name) {
            p.policy = *policy;
            return Done{};
        }
    }
    QStringList names;
    for (const Partition &p : tenancy.partitions)
        names << p.name;
    return Error{{}, 0, names.isEmpty() ? QStringLiteral("no partition named \"%1\": no partitions given").arg(name)
                                        : QStringLiteral("no partition named \"%1\" (known: %2)").arg(name, names.join(QStringLiteral(", ")))};
}

// ---------------------------------------------------------------------------------------------

PartitionMembership::PartitionMembership(const Fabric &fabric, const Tenancy &tenancy)
{
    m_endPortByPort.assign(fabric.ports().size(), -1);
    for (NodeIndex n : fabric.endNodes()) {
        const Node &node = fabric.node(n);
        for (int number = 1; number <= node.portCount; ++number) {
            const PortIndex p = fabric.portOf(n, number);
            if (p == kNoIndex)
                continue;
            const Port &port = fabric.port(p);
            if (!port.present || port.lid == 0 || port.remote == kNoIndex)
                continue;
            EndPort e;
            e.port = p;
            e.node = n;
            e.lid = port.lid;
            const NodeIndex remoteNode = fabric.port(port.remote).node;
            if (fabric.node(remoteNode).type == NodeType::Switch)
                e.attachedSwitch = remoteNode;
            const auto w = tenancy.nodeWeights.find(port.guid);
            if (w != tenancy.nodeWeights.end())
                e.weight = w->second;
            m_endPortByPort[std::size_t(p)] = int(m_endPorts.size());
            m_endPorts.push_back(e);
        }
    }
    // LID order: shift patterns and reports list end ports the way operators number them.
    std::stable_sort(m_endPorts.begin(), m_endPorts.end(), [](const EndPort &a, const EndPort &b) { return a.lid < b.lid; });
    for (std::size_t i = 0; i < m_endPorts.size(); ++i)
        m_endPortByPort[std::size_t(m_endPorts[i].port)] = int(i);

    // Per end port: partition -> full, later member entries overriding earlier ones.
    std::vector<std::map<int, bool>> perPort(m_endPorts.size());
    auto apply = [&](int partition, int endPort, Membership m) {
        perPort[std::size_t(endPort)][partition] = (m != Membership::Limited);
    };
    if (tenancy.partitions.empty()) {
        ResolvedPartition def;
        def.name = QStringLiteral("Default");
        def.pkey = kDefaultPKey;
        def.isDefault = true;
        m_partitions.push_back(def);
        for (std::size_t i = 0; i < m_endPorts.size(); ++i)
            apply(0, int(i), Membership::Full);
    }
    for (const Partition &partition : tenancy.partitions) {
        const int index = int(m_partitions.size());
        ResolvedPartition r;
        r.name = partition.name;
        r.pkey = partition.pkey ? std::uint16_t(*partition.pkey & kPKeyMask) : 0;
        r.isDefault = partition.pkey && r.pkey == kDefaultPKey;
        r.policy = partition.policy;
        m_partitions.push_back(r);
        for (const PartitionMember &member : partition.members) {
            switch (member.kind) {
            case PartitionMember::Kind::PortGuid: {
                const PortIndex p = fabric.portByGuid(member.guid);
                const int e = p == kNoIndex ? -1 : m_endPortByPort[std::size_t(p)];
                if (e >= 0)
                    apply(index, e, member.membership);
                break;
            }
            case PartitionMember::Kind::All:
            case PartitionMember::Kind::AllCas:
            case PartitionMember::Kind::AllRouters:
                for (std::size_t e = 0; e < m_endPorts.size(); ++e) {
                    const NodeType type = fabric.node(m_endPorts[e].node).type;
                    if (member.kind == PartitionMember::Kind::All
                        || (member.kind == PartitionMember::Kind::AllCas && type == NodeType::ChannelAdapter)
                        || (member.kind == PartitionMember::Kind::AllRouters && type == NodeType::Router))
                        apply(index, int(e), member.membership);
                }
                break;
            case PartitionMember::Kind::AllSwitches:
            case PartitionMember::Kind::Self:
                break;  // switch port 0 is no end port; the SM's own port is unknown here
            }
        }
    }

    std::map<std::vector<Member>, int, bool (*)(const std::vector<Member> &, const std::vector<Member> &)> classes(
        [](const std::vector<Member> &a, const std::vector<Member> &b) {
            return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(), [](const Member &x, const Member &y) {
                return x.partition != y.partition ? x.partition < y.partition : x.full < y.full;
            });
        });
    for (std::size_t e = 0; e < m_endPorts.size(); ++e) {
        std::vector<Member> list;
        for (const auto &[partition, full] : perPort[e]) {
            list.push_back({partition, full});
            m_partitions[std::size_t(partition)].members.push_back(int(e));
            m_partitions[std::size_t(partition)].full.push_back(full);
        }
        auto [it, inserted] = classes.emplace(list, int(m_classes.size()));
        if (inserted)
            m_classes.push_back(list);
        m_endPorts[e].membershipClass = it->second;
    }
    if (m_classes.empty())
        m_classes.emplace_back();
}

int PartitionMembership::endPortOf(PortIndex port) const
{
    return port >= 0 && std::size_t(port) < m_endPortByPort.size() ? m_endPortByPort[std::size_t(port)] : -1;
}

std::uint16_t PartitionMembership::sharedLanes(int sourceClass, int destinationClass, const LaneAssignment &lanes) const
{
    const std::vector<Member> &a = m_classes[std::size_t(sourceClass)];
    const std::vector<Member> &b = m_classes[std::size_t(destinationClass)];
    std::uint16_t mask = 0;
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i].partition < b[j].partition) {
            ++i;
        } else if (b[j].partition < a[i].partition) {
            ++j;
        } else {
            if (a[i].full || b[j].full)
                mask |= std::uint16_t(1u << lanes.virtualLane(m_partitions[std::size_t(a[i].partition)].pkey));
            ++i;
            ++j;
        }
    }
    return mask;
}

bool PartitionMembership::mayTalk(int sourceClass, int destinationClass) const
{
    return sharedLanes(sourceClass, destinationClass, LaneAssignment{}) != 0;
}

QString PartitionMembership::partitionLabel(int partition) const
{
    const ResolvedPartition &p = m_partitions[std::size_t(partition)];
    const QString key = p.pkey ? pkeyText(p.pkey) : QStringLiteral("no P_Key");
    return p.name.isEmpty() ? key : QStringLiteral("%1 (%2)").arg(p.name, key);
}

// ---------------------------------------------------------------------------------------------

RouteTracer::RouteTracer(const Fabric &fabric, const ForwardingTables &tables)
    : m_fabric(fabric), m_slotOf(fabric.nodes().size(), -1)
{
    const std::size_t n = fabric.nodes().size();
    m_verdict.assign(n, Verdict::Unknown);
    m_blame.assign(n, kNoIndex);
    m_outPort.assign(n, kNoIndex);
    m_next.assign(n, kNoIndex);

    const TablesByNode tableOf(fabric, tables);
    m_slots.reserve(fabric.switches().size());
    for (NodeIndex sw : fabric.switches()) {
        m_slotOf[std::size_t(sw)] = std::int32_t(m_slots.size());
        SwitchSlot slot;
        slot.node = sw;
        slot.firstPort = fabric.node(sw).firstPort;
        slot.portCount = fabric.node(sw).portCount;
        slot.lft = tableOf(sw);
        m_slots.push_back(slot);
    }
    for (SwitchSlot &slot : m_slots) {
        slot.firstHop = std::uint32_t(m_hops.size());
        for (int number = 0; number <= slot.portCount; ++number) {
            Hop hop;
            const PortIndex out = fabric.portOf(slot.node, number);
            if (out != kNoIndex && fabric.port(out).remote != kNoIndex) {
                hop.remote = fabric.port(out).remote;
                hop.next = fabric.port(hop.remote).node;
                hop.nextSlot = m_slotOf[std::size_t(hop.next)];
            }
            m_hops.push_back(hop);
            m_steps.push_back(hop.remote == kNoIndex ? kStepDead : hop.nextSlot >= 0 ? hop.nextSlot
                                                                                     : kStepEnd);
        }
    }
    m_single.assign(m_slots.size(), kNoRoute);
}

void RouteTracer::loadRow(Lid lid)
{
    const int block = int(lid / 64);
    const std::size_t offset = lid % 64;
    const std::size_t count = m_slots.size();
    if (block == m_loadedBlock) {
        m_row = m_block.data() + offset * count;
    } else if (m_inBlocks || block == m_lastBlock || lid == Lid(m_lastLid + 1)) {
        m_block.resize(64 * count);
        const std::size_t first = std::size_t(block) * 64;
        // Eight switches' entries for a LID go in as one word where all eight tables hold the
        // block: an eighth of the stores.
        std::size_t s = 0;
        for (; s + 8 <= count; s += 8) {
            const std::uint8_t *entries[8];
            bool whole = true;
            for (std::size_t k = 0; k < 8 && whole; ++k) {
                const LinearForwardingTable *lft = m_slots[s + k].lft;
                whole = lft && first + 64 <= lft->entries().size();
                entries[k] = whole ? lft->entries().data() + first : nullptr;
            }
            if (!whole)
                break;
            for (std::size_t i = 0; i < 64; ++i) {
                std::uint8_t word[8];
                for (std::size_t k = 0; k < 8; ++k)
                    word[k] = entries[k][i];
                std::memcpy(m_block.data() + i * count + s, word, 8);
            }
        }
        for (; s < count; ++s) {
            const LinearForwardingTable *lft = m_slots[s].lft;
            const std::size_t size = lft ? lft->entries().size() : 0;
            const std::uint8_t *entries = lft ? lft->entries().data() : nullptr;
            if (first + 64 <= size) {
                for (std::size_t i = 0; i < 64; ++i)
                    m_block[i * count + s] = entries[first + i];
            } else {
                for (std::size_t i = 0; i < 64; ++i)
                    m_block[i * count + s] = first + i < size ? entries[first + i] : kNoRoute;
            }
        }
        m_loadedBlock = block;
        m_row = m_block.data() + offset * count;
    } else {
        for (std::size_t s = 0; s < count; ++s)
            m_single[s] = m_slots[s].lft ? m_slots[s].lft->port(lid) : kNoRoute;
        m_row = m_single.data();
    }
    m_lastBlock = block;
    m_lastLid = lid;
}

void RouteTracer::trace(PortIndex destination, Lid lid)
{
    m_destination = destination;
    m_destinationNode = m_fabric.port(destination).node;
    m_lid = lid;
    m_destinationOnSwitch = m_slotOf[std::size_t(m_destinationNode)] >= 0;
    m_loops.clear();
    for (NodeIndex sw : m_fabric.switches()) {
        m_verdict[std::size_t(sw)] = Verdict::Unknown;
        m_next[std::size_t(sw)] = kNoIndex;
        m_outPort[std::size_t(sw)] = kNoIndex;
    }
    loadRow(lid);
    for (NodeIndex sw : m_fabric.switches())
        if (m_verdict[std::size_t(sw)] == Verdict::Unknown)
            settle(sw);
}

void RouteTracer::settle(NodeIndex start)
{
    m_path.clear();
    Verdict found = Verdict::Unknown;
    NodeIndex blame = kNoIndex;
    // Takes a switch onto this walk's path; false where the walk meets a switch already settled
    // (it inherits that verdict) or one on its own path (a loop).
    const auto enter = [&](NodeIndex sw) {
        const Verdict known = m_verdict[std::size_t(sw)];
        if (known == Verdict::InProgress) {
            const auto first = std::find(m_path.begin(), m_path.end(), sw);
            m_loops.emplace_back(first, m_path.end());
            found = Verdict::Loop;
            blame = sw;
            return false;
        }
        if (known != Verdict::Unknown) {
            found = known;
            blame = m_blame[std::size_t(sw)];
            return false;
        }
        m_verdict[std::size_t(sw)] = Verdict::InProgress;
        m_path.push_back(sw);
        blame = sw;
        return true;
    };
    // walkRoute's walk (RouteWalk.h) and its ends, on the compact copies.
    if (enter(start)) {
        std::int32_t at = m_slotOf[std::size_t(start)];
        found = Verdict::Loop;  // more hops through switches than there are switches
        for (std::size_t hops = 0; hops <= m_slots.size(); ++hops) {
            const SwitchSlot &slot = m_slots[std::size_t(at)];
            if (!slot.lft) {
                found = Verdict::NoTable;
                break;
            }
            const std::uint8_t number = m_row[std::size_t(at)];
            if (number == kNoRoute) {
                found = Verdict::NoRoute;
                break;
            }
            if (number == 0) {
                found = slot.node == m_destinationNode ? Verdict::Reaches : Verdict::WrongNode;
                break;
            }
            const std::int32_t step = number <= slot.portCount ? m_steps[slot.firstHop + number] : kStepDead;
            if (step == kStepDead) {
                found = Verdict::DeadPort;
                break;
            }
            m_outPort[std::size_t(slot.node)] = slot.firstPort + number;
            if ((step == kStepEnd || m_destinationOnSwitch) && m_hops[slot.firstHop + number].remote == m_destination) {
                found = Verdict::Reaches;
                break;
            }
            if (step == kStepEnd) {
                found = Verdict::WrongNode;
                break;
            }
            const NodeIndex next = m_slots[std::size_t(step)].node;
            m_next[std::size_t(slot.node)] = next;
            if (!enter(next))
                break;  // enter() decided
            at = step;
        }
    }
    for (NodeIndex sw : m_path) {
        m_verdict[std::size_t(sw)] = found;
        m_blame[std::size_t(sw)] = blame;
    }
}

QString RouteTracer::explain(NodeIndex sw, Lid lid) const
{
    const NodeIndex at = m_blame[std::size_t(sw)] == kNoIndex ? sw : m_blame[std::size_t(sw)];
    const QString name = m_fabric.node(at).description.isEmpty() ? m_fabric.node(at).name : m_fabric.node(at).description;
    const LinearForwardingTable *lft = m_slotOf[std::size_t(at)] < 0 ? nullptr : m_slots[std::size_t(m_slotOf[std::size_t(at)])].lft;
    const int out = lft ? lft->port(lid) : -1;
    switch (m_verdict[std::size_t(sw)]) {
    case Verdict::NoTable: return QStringLiteral("%1 has no forwarding table").arg(name);
    case Verdict::NoRoute: return QStringLiteral("%1 has no route to LID %2").arg(name).arg(lid);
    case Verdict::DeadPort: return QStringLiteral("%1 sends LID %2 out of port %3, which has no cable").arg(name).arg(lid).arg(out);
    case Verdict::WrongNode: return QStringLiteral("%1 delivers LID %2 by port %3 to a node that does not own it").arg(name).arg(lid).arg(out);
    case Verdict::Loop: return QStringLiteral("packets for LID %1 loop through %2").arg(lid).arg(name);
    case Verdict::Reaches: return QStringLiteral("%1 reaches LID %2").arg(name).arg(lid);
    case Verdict::Unknown:
    case Verdict::InProgress: break;
    }
    return QStringLiteral("%1: LID %2 not traced").arg(name).arg(lid);
}

// ---------------------------------------------------------------------------------------------

QString directedLinkText(const Fabric &fabric, PortIndex from)
{
    const PortIndex to = fabric.port(from).remote;
    return to == kNoIndex ? portDisplayName(fabric, from) : QStringLiteral("%1 -> %2").arg(portDisplayName(fabric, from), portDisplayName(fabric, to));
}

std::vector<int> nodeLevels(const Fabric &fabric)
{
    std::vector<int> level(fabric.nodes().size(), -1);
    std::deque<NodeIndex> queue;
    for (NodeIndex n : fabric.endNodes())
        level[std::size_t(n)] = 0;
    for (NodeIndex n : fabric.computeNodes())  // service and I/O nodes make no leaf
        queue.push_back(n);
    while (!queue.empty()) {
        const NodeIndex n = queue.front();
        queue.pop_front();
        const Node &node = fabric.node(n);
        for (int number = 1; number <= node.portCount; ++number) {
            const PortIndex p = fabric.portOf(n, number);
            if (p == kNoIndex || fabric.port(p).remote == kNoIndex)
                continue;
            const NodeIndex next = fabric.port(fabric.port(p).remote).node;
            if (level[std::size_t(next)] < 0 && fabric.node(next).type == NodeType::Switch) {
                level[std::size_t(next)] = level[std::size_t(n)] + 1;
                queue.push_back(next);
            }
        }
    }
    return level;
}

// ---------------------------------------------------------------------------------------------

PartitionFlowCounter::PartitionFlowCounter(const Fabric &fabric, const PartitionMembership &membership)
    : m_membership(membership), m_groups(membership.partitions().size()), m_perLink(fabric.ports().size())
{
    std::vector<int> groupOf(fabric.nodes().size(), -1);
    for (std::size_t p = 0; p < membership.partitions().size(); ++p) {
        const PartitionMembership::ResolvedPartition &partition = membership.partitions()[p];
        if (partition.isDefault)
            continue;
        std::vector<Group> &groups = m_groups[p];
        for (std::size_t i = 0; i < partition.members.size(); ++i) {
            const NodeIndex sw = membership.endPorts()[std::size_t(partition.members[i])].attachedSwitch;
            if (sw == kNoIndex)
                continue;
            int &g = groupOf[std::size_t(sw)];
            if (g < 0 || std::size_t(g) >= groups.size() || groups[std::size_t(g)].attachedSwitch != sw) {
                g = int(groups.size());
                groups.push_back({sw, 0, 0});
            }
            ++groups[std::size_t(g)].members;
            if (partition.full[i])
                ++groups[std::size_t(g)].fullMembers;
        }
    }
}

void PartitionFlowCounter::addDestination(int destinationEndPort, const RouteTracer &tracer)
{
    const EndPort &destination = m_membership.endPorts()[std::size_t(destinationEndPort)];
    for (const PartitionMembership::Member &m : m_membership.memberships(destinationEndPort)) {
        if (m_membership.partitions()[std::size_t(m.partition)].isDefault)
            continue;
        for (const Group &g : m_groups[std::size_t(m.partition)]) {
            // A limited destination hears only full members; the destination never talks to itself.
            std::uint64_t sources = m.full ? g.members : g.fullMembers;
            if (g.attachedSwitch == destination.attachedSwitch && m.full)
                --sources;
            if (sources == 0)
                continue;
            for (NodeIndex at = g.attachedSwitch; at != kNoIndex && tracer.verdict(at) == RouteTracer::Verdict::Reaches;
                 at = tracer.nextSwitch(at)) {
                if (tracer.nextSwitch(at) == kNoIndex)
                    break;  // the last hop leads to the destination's own cable
                auto &counts = m_perLink[std::size_t(tracer.outPort(at))];
                auto it = std::lower_bound(counts.begin(), counts.end(), std::make_pair(m.partition, std::uint64_t(0)),
                                           [](const auto &a, const auto &b) { return a.first < b.first; });
                if (it == counts.end() || it->first != m.partition)
                    it = counts.insert(it, {m.partition, 0});
                it->second += sources;
            }
        }
    }
}

void PartitionFlowCounter::merge(const PartitionFlowCounter &other)
{
    for (std::size_t port = 0; port < m_perLink.size(); ++port) {
        const auto &theirs = other.m_perLink[port];
        if (theirs.empty())
            continue;
        auto &counts = m_perLink[port];
        std::vector<std::pair<int, std::uint64_t>> merged;
        merged.reserve(counts.size() + theirs.size());
        std::size_t i = 0;
        std::size_t j = 0;
        while (i < counts.size() || j < theirs.size()) {
            if (j == theirs.size() || (i < counts.size() && counts[i].first < theirs[j].first))
                merged.push_back(counts[i++]);
            else if (i == counts.size() || theirs[j].first < counts[i].first)
                merged.push_back(theirs[j++]);
            else {
                merged.push_back({counts[i].first, counts[i].second + theirs[j].second});
                ++i;
                ++j;
            }
        }
        counts = std::move(merged);
    }
}

}  // namespace weft
