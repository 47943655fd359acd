#include "FabricGenerator.h"

#include <QHash>
#include <QRegularExpression>

#include <algorithm>
#include <limits>
#include <random>

namespace weft {

namespace {

constexpr Guid kSwitchGuidBase = 0x0002c90000000000ULL;
constexpr Guid kHostGuidBase = 0x0002c91000000000ULL;
constexpr Guid kHostGuidBlock = 0x400;  // room for a vSwitch and 253 functions of 2 GUIDs each
constexpr std::uint32_t kVendorId = 0x0002c9;
constexpr int kMaxHeight = 16;          // 2^16 hosts already exceed the LID space
constexpr int kMaxPorts = 254;
constexpr int kMaxVfs = kMaxPorts - 2;  // vSwitch port 1 is the up-link, port 2 the PF

std::uint64_t saturatingMul(std::uint64_t a, std::uint64_t b)
{
    if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a)
        return std::numeric_limits<std::uint64_t>::max();
    return a * b;
}

std::uint64_t saturatingAdd(std::uint64_t a, std::uint64_t b)
{
    return b > std::numeric_limits<std::uint64_t>::max() - a ? std::numeric_limits<std::uint64_t>::max() : a + b;
}

Error fail(const QString &message)
{
    return Error{{}, 0, message};
}

QString joinInts(const std::vector<int> &values)
{
    QStringList parts;
    for (int v : values)
        parts << QString::number(v);
    return parts.join(QLatin1Char(','));
}

// Unbiased integer in [0, bound): rejects the 2^64 mod bound lowest draws. Written out because
// std::uniform_int_distribution maps differently in each standard library, and a seed must
// name the same degraded fabric everywhere.
std::uint64_t uniformBelow(std::mt19937_64 &rng, std::uint64_t bound)
{
    const std::uint64_t threshold = (std::uint64_t(0) - bound) % bound;
    for (;;) {
        const std::uint64_t x = rng();
        if (x >= threshold)
            return x % bound;
    }
}

struct PlannedLink
{
    NodeIndex a = kNoIndex;  // the parent end
    int portA = 0;
    NodeIndex b = kNoIndex;
    int portB = 0;
    bool removed = false;
};

// The fabric before it is handed to FabricBuilder: removals are decided on this plan so that
// the builder only ever sees the final cabling.
struct Plan
{
    std::vector<FabricBuilder::NodeSpec> nodes;
    std::vector<int> nodeLevel;
    std::vector<PortIndex> portBase;    // first slot of a node in linkAtPort (slot 0 = port 0)
    std::vector<LinkIndex> linkAtPort;
    std::vector<PlannedLink> links;
    std::vector<NodeIndex> hosts;
    NodeIndex firstEndNode = 0;         // nodes before it are fabric switches

    LinkIndex linkAt(NodeIndex node, int port) const
    {
        return linkAtPort[std::size_t(portBase[std::size_t(node)] + port)];
    }

    NodeIndex addNode(FabricBuilder::NodeSpec spec, int level)
    {
        const auto index = NodeIndex(nodes.size());
        portBase.push_back(PortIndex(linkAtPort.size()));
        linkAtPort.resize(linkAtPort.size() + std::size_t(spec.portCount) + 1, kNoIndex);
        nodes.push_back(std::move(spec));
        nodeLevel.push_back(level);
        return index;
    }

    void addLink(NodeIndex a, int portA, NodeIndex b, int portB)
    {
        const auto index = LinkIndex(links.size());
        links.push_back(PlannedLink{a, portA, b, portB, false});
        linkAtPort[std::size_t(portBase[std::size_t(a)] + portA)] = index;
        linkAtPort[std::size_t(portBase[std::size_t(b)] + portB)] = index;
    }

    RemovedLink describe(LinkIndex link, NodeIndex firstEnd) const
    {
        const PlannedLink &l = links[std::size_t(link)];
        const bool aFirst = l.a == firstEnd;
        const NodeIndex x = aFirst ? l.a : l.b;
        const NodeIndex y = aFirst ? l.b : l.a;
        return RemovedLink{nodes[std::size_t(x)].description, aFirst ? l.portA : l.portB,
                           nodes[std::size_t(y)].description, aFirst ? l.portB : l.portA};
    }
};

// Breadth-first search over links still in place, from `from`, stopping early at `target`.
// Returns whether target was reached; `seen` marks every node visited with `stamp`.
bool reachable(const Plan &plan, NodeIndex from, NodeIndex target, std::vector<std::uint32_t> &seen,
               std::uint32_t stamp, std::vector<NodeIndex> &queue)
{
    queue.clear();
    queue.push_back(from);
    seen[std::size_t(from)] = stamp;
    for (std::size_t head = 0; head < queue.size(); ++head) {
        const NodeIndex n = queue[head];
        if (n == target)
            return true;
        const int ports = plan.nodes[std::size_t(n)].portCount;
        for (int p = 1; p <= ports; ++p) {
            const LinkIndex li = plan.linkAt(n, p);
            if (li == kNoIndex || plan.links[std::size_t(li)].removed)
                continue;
            const PlannedLink &l = plan.links[std::size_t(li)];
            const NodeIndex other = l.a == n ? l.b : l.a;
            if (seen[std::size_t(other)] != stamp) {
                seen[std::size_t(other)] = stamp;
                queue.push_back(other);
            }
        }
    }
    return false;
}

QString switchRole(int level, int height)
{
    if (level == height - 1)
        return QStringLiteral("leaf");
    if (level == 0)
        return QStringLiteral("spine");
    return QStringLiteral("aggr");
}

QString nodeId(NodeType type, Guid guid)
{
    return (type == NodeType::Switch ? QStringLiteral("S-") : QStringLiteral("H-"))
        + guidDigits(guid);
}

struct ResolvedShape
{
    XgftShape xgft;
    int switchPorts = 0;
    QString name;
};

Result<ResolvedShape> resolveShape(const GeneratorOptions &o)
{
    ResolvedShape r;
    switch (o.shape) {
    case FabricShapeKind::KaryNTree:
        if (o.arity < 1 || o.arity > kMaxPorts / 2)
            return fail(QStringLiteral("k-ary n-tree arity %1 is out of range: switches have 2k ports, so k is 1 to %2")
                            .arg(o.arity).arg(kMaxPorts / 2));
        if (o.levels < 1 || o.levels > kMaxHeight)
            return fail(QStringLiteral("k-ary n-tree with %1 levels: levels must be 1 to %2").arg(o.levels).arg(kMaxHeight));
        r.xgft = karyNTreeShape(o.arity, o.levels);
        r.switchPorts = 2 * o.arity;
        r.name = QStringLiteral("%1-ary %2-tree").arg(o.arity).arg(o.levels);
        break;
    case FabricShapeKind::SwitchRadix:
        if (o.radix <= 0)
            return fail(QStringLiteral("switch radix %1: a switch needs at least 2 ports").arg(o.radix));
        if (o.radix % 2 != 0)
            return fail(QStringLiteral("switch radix %1 is odd: a fat-tree splits ports evenly between up and down").arg(o.radix));
        if (o.radix > kMaxPorts)
            return fail(QStringLiteral("switch radix %1 is more than %2 ports").arg(o.radix).arg(kMaxPorts));
        if (o.levels < 1 || o.levels > kMaxHeight)
            return fail(QStringLiteral("fat-tree with %1 levels: levels must be 1 to %2").arg(o.levels).arg(kMaxHeight));
        r.xgft = switchRadixShape(o.radix, o.levels);
        r.switchPorts = o.radix;
        r.name = QStringLiteral("%1-port %2-level fat-tree").arg(o.radix).arg(o.levels);
        break;
    case FabricShapeKind::Xgft:
        r.xgft = o.xgft;
        if (r.xgft.height < 1 || r.xgft.height > kMaxHeight)
            return fail(QStringLiteral("XGFT height %1: it must be 1 to %2").arg(r.xgft.height).arg(kMaxHeight));
        if (int(r.xgft.children.size()) != r.xgft.height || int(r.xgft.parents.size()) != r.xgft.height)
            return fail(QStringLiteral("XGFT of height %1 needs %1 child counts and %1 parent counts, not %2 and %3")
                            .arg(r.xgft.height).arg(r.xgft.children.size()).arg(r.xgft.parents.size()));
        for (int j = 0; j < r.xgft.height; ++j) {
            if (r.xgft.children[std::size_t(j)] < 1 || r.xgft.children[std::size_t(j)] > kMaxPorts)
                return fail(QStringLiteral("XGFT m%1 = %2: child counts must be 1 to %3")
                                .arg(j + 1).arg(r.xgft.children[std::size_t(j)]).arg(kMaxPorts));
            if (r.xgft.parents[std::size_t(j)] < 1 || r.xgft.parents[std::size_t(j)] > kMaxPorts)
                return fail(QStringLiteral("XGFT w%1 = %2: parent counts must be 1 to %3")
                                .arg(j + 1).arg(r.xgft.parents[std::size_t(j)]).arg(kMaxPorts));
        }
        if (r.xgft.parents.back() != 1)
            return fail(QStringLiteral("XGFT w%1 = %2: hosts have one port, so w%1 must be 1")
                            .arg(r.xgft.height).arg(r.xgft.parents.back()));
        for (int l = 0; l < r.xgft.height; ++l)
            r.switchPorts = std::max(r.switchPorts, r.xgft.portsUsedAtLevel(l));
        r.name = r.xgft.toString();
        break;
    }
    if (o.switchPorts != 0) {
        int needed = 0;
        for (int l = 0; l < r.xgft.height; ++l)
            needed = std::max(needed, r.xgft.portsUsedAtLevel(l));
        if (o.switchPorts < needed)
            return fail(QStringLiteral("%1 switch ports are too few: %2 needs %3").arg(o.switchPorts).arg(r.name).arg(needed));
        r.switchPorts = o.switchPorts;
    }
    if (r.switchPorts > kMaxPorts)
        return fail(QStringLiteral("%1 needs switches of %2 ports; a switch has at most %3")
                        .arg(r.name).arg(r.switchPorts).arg(kMaxPorts));
    return r;
}

QString checkOtherOptions(const GeneratorOptions &o)
{
    if (!o.hypervisors && o.vfsPerHypervisor != 0)
        return QStringLiteral("%1 VFs per hypervisor asked for, but hosts are not hypervisors").arg(o.vfsPerHypervisor);
    if (o.vfsPerHypervisor < 0 || o.vfsPerHypervisor > kMaxVfs)
        return QStringLiteral("%1 VFs per hypervisor: a vSwitch has room for 0 to %2").arg(o.vfsPerHypervisor).arg(kMaxVfs);
    if (o.removeRandomLinks < 0)
        return QStringLiteral("cannot remove %1 links").arg(o.removeRandomLinks);
    if (o.firstLid < 1 || o.firstLid > kMaxUnicastLid)
        return QStringLiteral("first LID %1 is not a unicast LID (1-%2)").arg(o.firstLid).arg(kMaxUnicastLid);
    if (o.lmc < 0 || o.lmc > 7)
        return QStringLiteral("LMC %1 is out of range (0-7)").arg(o.lmc);
    const int w = o.linkWidth;
    if (w != 1 && w != 2 && w != 4 && w != 8 && w != 12)
        return QStringLiteral("link width %1x: widths are 1x, 2x, 4x, 8x and 12x").arg(w);
    if (o.linkSpeed == LinkSpeed::Unknown)
        return QStringLiteral("no link speed given");
    return {};
}

// Lays out switches level by level and cables each level to the one below, following the
// tuple rule of spec 001 §1.7 Def. 1: parent and child agree on every digit but digit l+1.
void planTree(Plan &plan, const XgftShape &x, int switchPorts, const GeneratorOptions &o)
{
    const int h = x.height;
    std::vector<NodeIndex> levelStart(std::size_t(h) + 1);
    std::uint64_t totalSwitches = x.switchCount();
    const std::uint64_t hostCount = x.hostCount();
    const int endNodesPerHost = o.hypervisors ? 2 + o.vfsPerHypervisor : 1;
    plan.nodes.reserve(std::size_t(totalSwitches + hostCount * std::uint64_t(endNodesPerHost)));

    Guid switchGuid = kSwitchGuidBase;
    for (int l = 0; l < h; ++l) {
        levelStart[std::size_t(l)] = NodeIndex(plan.nodes.size());
        const auto count = NodeIndex(x.nodesAtLevel(l));
        const QString role = switchRole(l, h);
        for (NodeIndex i = 0; i < count; ++i) {
            FabricBuilder::NodeSpec spec;
            spec.type = NodeType::Switch;
            spec.guid = switchGuid++;
            spec.portCount = switchPorts;
            spec.name = nodeId(NodeType::Switch, spec.guid);
            spec.description = QStringLiteral("L%1 %2 %3").arg(l).arg(role).arg(i);
            spec.vendorId = kVendorId;
            plan.addNode(std::move(spec), l);
        }
    }

    plan.firstEndNode = NodeIndex(plan.nodes.size());
    levelStart[std::size_t(h)] = plan.firstEndNode;
    const int digits = std::max(4, int(QString::number(hostCount > 0 ? hostCount - 1 : 0).size()));
    // With hypervisors each host is several nodes; the host-level index is then the vSwitch.
    plan.hosts.reserve(std::size_t(hostCount));
    for (std::uint64_t i = 0; i < hostCount; ++i) {
        const Guid block = kHostGuidBase + kHostGuidBlock * i;
        const QString number = QString::number(i).rightJustified(digits, QLatin1Char('0'));
        if (!o.hypervisors) {
            FabricBuilder::NodeSpec spec;
            spec.type = NodeType::ChannelAdapter;
            spec.guid = block;
            spec.portCount = 1;
            spec.name = nodeId(NodeType::ChannelAdapter, spec.guid);
            spec.description = QStringLiteral("host ") + number;
            spec.vendorId = kVendorId;
            plan.hosts.push_back(plan.addNode(std::move(spec), h));
            continue;
        }
        const QString hyp = QStringLiteral("hyp") + number;
        FabricBuilder::NodeSpec vswitch;
        vswitch.type = NodeType::Switch;
        vswitch.guid = block;
        vswitch.portCount = 2 + o.vfsPerHypervisor;
        vswitch.name = nodeId(NodeType::Switch, block);
        vswitch.description = hyp + QStringLiteral(" vSwitch");
        vswitch.systemImageGuid = block;  // one physical HCA: vSwitch, PF and VFs share it
        vswitch.vendorId = kVendorId;
        const NodeIndex vs = plan.addNode(std::move(vswitch), h);
        plan.hosts.push_back(vs);
        for (int f = 0; f <= o.vfsPerHypervisor; ++f) {
            FabricBuilder::NodeSpec fn;
            fn.type = NodeType::ChannelAdapter;
            fn.guid = block + 2 + 2 * Guid(f);
            fn.portCount = 1;
            fn.name = nodeId(NodeType::ChannelAdapter, fn.guid);
            fn.description = hyp + (f == 0 ? QStringLiteral(" PF") : QStringLiteral(" VF%1").arg(f));
            fn.systemImageGuid = block;
            fn.vendorId = kVendorId;
            const NodeIndex fnode = plan.addNode(std::move(fn), h + 1);
            plan.addLink(vs, 2 + f, fnode, 1);
        }
    }

    // Cabling. Digits of a level-l node: digit j (1-based) counts to m_j for j <= l, w_j beyond.
    std::vector<int> digit(std::size_t(h) + 1);
    auto radixAt = [&](int level, int j) {
        return j <= level ? x.children[std::size_t(j - 1)] : x.parents[std::size_t(j - 1)];
    };
    for (int l = 0; l < h; ++l) {
        const auto count = std::uint64_t(x.nodesAtLevel(l));
        const int childCount = x.children[std::size_t(l)];               // m_{l+1}
        const int childDownPorts = l + 1 < h ? x.children[std::size_t(l + 1)] : 0;  // m_{l+2}
        for (std::uint64_t i = 0; i < count; ++i) {
            std::uint64_t rest = i;
            for (int j = h; j >= 1; --j) {
                const auto r = std::uint64_t(radixAt(l, j));
                digit[std::size_t(j)] = int(rest % r);
                rest /= r;
            }
            const NodeIndex parent = levelStart[std::size_t(l)] + NodeIndex(i);
            const int parentSlot = digit[std::size_t(l + 1)];  // which of the child's parents this is
            for (int c = 0; c < childCount; ++c) {
                digit[std::size_t(l + 1)] = c;
                std::uint64_t childIndex = 0;
                for (int j = 1; j <= h; ++j)
                    childIndex = childIndex * std::uint64_t(radixAt(l + 1, j)) + std::uint64_t(digit[std::size_t(j)]);
                const NodeIndex child = l + 1 < h ? levelStart[std::size_t(l + 1)] + NodeIndex(childIndex)
                                                  : plan.hosts[std::size_t(childIndex)];
                plan.addLink(parent, c + 1, child, childDownPorts + parentSlot + 1);
            }
            digit[std::size_t(l + 1)] = parentSlot;
        }
    }
}

QString removeNamedLinks(Plan &plan, const std::vector<LinkEndName> &names, std::vector<RemovedLink> &removed)
{
    QHash<QString, NodeIndex> byName;
    QHash<QString, NodeIndex> byDescription;
    byName.reserve(qsizetype(plan.nodes.size()));
    byDescription.reserve(qsizetype(plan.nodes.size()));
    for (std::size_t i = 0; i < plan.nodes.size(); ++i) {
        byName.insert(plan.nodes[i].name, NodeIndex(i));
        byDescription.insert(plan.nodes[i].description, NodeIndex(i));
    }
    for (const LinkEndName &end : names) {
        NodeIndex node = byName.value(end.node, kNoIndex);
        if (node == kNoIndex)
            node = byDescription.value(end.node, kNoIndex);
        if (node == kNoIndex)
            return QStringLiteral("cannot remove link at \"%1\"[%2]: no node has that id or description")
                .arg(end.node).arg(end.port);
        const int ports = plan.nodes[std::size_t(node)].portCount;
        if (end.port < 1 || end.port > ports)
            return QStringLiteral("cannot remove link at \"%1\"[%2]: it has ports 1-%3").arg(end.node).arg(end.port).arg(ports);
        const LinkIndex li = plan.linkAt(node, end.port);
        if (li == kNoIndex)
            return QStringLiteral("cannot remove link at \"%1\"[%2]: that port has no cable").arg(end.node).arg(end.port);
        if (plan.links[std::size_t(li)].removed)
            return QStringLiteral("cannot remove link at \"%1\"[%2]: it is already removed").arg(end.node).arg(end.port);
        plan.links[std::size_t(li)].removed = true;
        removed.push_back(plan.describe(li, node));
    }
    return {};
}

QString removeRandomLinks(Plan &plan, int count, std::uint64_t seed, std::vector<RemovedLink> &removed)
{
    if (count == 0)
        return {};
    std::vector<LinkIndex> candidates;
    for (std::size_t i = 0; i < plan.links.size(); ++i) {
        const PlannedLink &l = plan.links[i];
        if (!l.removed && l.a < plan.firstEndNode && l.b < plan.firstEndNode)
            candidates.push_back(LinkIndex(i));
    }
    std::mt19937_64 rng(seed);
    for (std::size_t i = candidates.size(); i > 1; --i)
        std::swap(candidates[i - 1], candidates[std::size_t(uniformBelow(rng, i))]);

    // A link may go if its ends stay connected without it. Removals only ever add bridges, so
    // one pass over the shuffled candidates removes as many as the fabric can lose.
    std::vector<std::uint32_t> seen(plan.nodes.size(), 0);
    std::vector<NodeIndex> queue;
    std::uint32_t stamp = 0;
    int done = 0;
    for (LinkIndex li : candidates) {
        if (done == count)
            break;
        PlannedLink &l = plan.links[std::size_t(li)];
        l.removed = true;
        // Searching from the child end finds a cut-off leaf's small side quickly.
        if (reachable(plan, l.b, l.a, seen, ++stamp, queue)) {
            removed.push_back(plan.describe(li, l.a));
            ++done;
        } else {
            l.removed = false;
        }
    }
    if (done < count)
        return QStringLiteral("cannot remove %1 random links without splitting the fabric: at most %2 can go")
            .arg(count).arg(done);
    return {};
}

// Hosts outside the component that holds most hosts, for the warning after named removals.
QStringList cutOffHosts(const Plan &plan)
{
    std::vector<std::uint32_t> seen(plan.nodes.size(), 0);
    std::vector<NodeIndex> queue;
    std::vector<std::uint32_t> componentOfHost(plan.hosts.size(), 0);
    std::vector<std::size_t> hostsInComponent(1, 0);
    std::uint32_t stamp = 0;
    for (std::size_t i = 0; i < plan.hosts.size(); ++i) {
        const NodeIndex host = plan.hosts[i];
        if (seen[std::size_t(host)] == 0) {
            reachable(plan, host, kNoIndex, seen, ++stamp, queue);
            hostsInComponent.push_back(0);
        }
        componentOfHost[i] = seen[std::size_t(host)];
        ++hostsInComponent[componentOfHost[i]];
    }
    const auto biggest = std::uint32_t(std::max_element(hostsInComponent.begin(), hostsInComponent.end())
                                       - hostsInComponent.begin());
    QStringList cut;
    for (std::size_t i = 0; i < plan.hosts.size(); ++i)
        if (componentOfHost[i] != biggest)
            cut << plan.nodes[std::size_t(plan.hosts[i])].description;
    return cut;
}

Result<Fabric> buildFabric(const Plan &plan, const GeneratorOptions &o)
{
    FabricBuilder builder;
    builder.reserve(plan.nodes.size(), plan.linkAtPort.size());
    auto check = [](const QString &e) { return e.isEmpty(); };
    for (const auto &spec : plan.nodes)
        if (QString e = builder.addNode(spec); !check(e))
            return fail(e);
    for (const PlannedLink &l : plan.links) {
        if (l.removed)
            continue;
        if (QString e = builder.connect(l.a, l.portA, l.b, l.portB); !check(e))
            return fail(e);
    }
    for (std::size_t n = 0; n < plan.nodes.size(); ++n) {
        for (int p = 1; p <= plan.nodes[n].portCount; ++p) {
            const LinkIndex li = plan.linkAt(NodeIndex(n), p);
            const bool linked = li != kNoIndex && !plan.links[std::size_t(li)].removed;
            if (linked)
                builder.setPortLink(NodeIndex(n), p, o.linkWidth, o.linkSpeed);
            builder.setPortState(NodeIndex(n), p, linked ? PortState::Active : PortState::Down);
        }
    }
    if (o.assignLids) {
        int next = o.firstLid;
        const int block = 1 << o.lmc;
        for (std::size_t n = 0; n < plan.nodes.size(); ++n) {
            const bool isSwitch = plan.nodes[n].type == NodeType::Switch;
            if (!isSwitch)
                next = (next + block - 1) / block * block;  // an LMC range starts aligned
            const int span = isSwitch ? 1 : block;
            if (next + span - 1 > kMaxUnicastLid)
                return fail(QStringLiteral("the fabric needs more LIDs than the %1 unicast LIDs from %2 (LMC %3)")
                                .arg(kMaxUnicastLid - o.firstLid + 1).arg(o.firstLid).arg(o.lmc));
            if (QString e = builder.setPortLid(NodeIndex(n), isSwitch ? 0 : 1, Lid(next), isSwitch ? 0 : o.lmc); !check(e))
                return fail(e);
            next += span;
        }
    }
    return std::move(builder).build();
}

}  // namespace

std::uint64_t XgftShape::nodesAtLevel(int level) const
{
    if (level < 0 || level > height || int(children.size()) < height || int(parents.size()) < height)
        return 0;
    std::uint64_t n = 1;
    for (int j = 1; j <= height; ++j)
        n = saturatingMul(n, std::uint64_t(std::max(0, j <= level ? children[std::size_t(j - 1)] : parents[std::size_t(j - 1)])));
    return n;
}

std::uint64_t XgftShape::switchCount() const
{
    std::uint64_t total = 0;
    for (int l = 0; l < height; ++l)
        total = saturatingAdd(total, nodesAtLevel(l));
    return total;
}

int XgftShape::portsUsedAtLevel(int level) const
{
    if (level < 0 || level >= height)
        return 0;
    return children[std::size_t(level)] + (level > 0 ? parents[std::size_t(level - 1)] : 0);
}

QString XgftShape::toString() const
{
    return QStringLiteral("XGFT(%1; %2; %3)").arg(height).arg(joinInts(children), joinInts(parents));
}

Result<XgftShape> parseXgft(const QString &text)
{
    QString body = text.trimmed();
    if (body.startsWith(QLatin1String("XGFT"), Qt::CaseInsensitive)) {
        body = body.mid(4).trimmed();
        if (!body.startsWith(QLatin1Char('(')) || !body.endsWith(QLatin1Char(')')))
            return fail(QStringLiteral("XGFT \"%1\": expected XGFT(h; m1,..,mh; w1,..,wh)").arg(text));
        body = body.mid(1, body.size() - 2);
    }
    const QStringList parts = body.split(QLatin1Char(';'));
    if (parts.size() != 3)
        return fail(QStringLiteral("XGFT \"%1\": expected three parts \"h;m1,..,mh;w1,..,wh\"").arg(text));
    auto number = [](const QString &s, int *out) {
        bool ok = false;
        *out = s.trimmed().toInt(&ok);
        return ok;
    };
    XgftShape shape;
    if (!number(parts[0], &shape.height) || shape.height < 1)
        return fail(QStringLiteral("XGFT \"%1\": height \"%2\" is not a positive number").arg(text, parts[0].trimmed()));
    auto list = [&](const QString &part, const char *what, std::vector<int> &out) -> QString {
        for (const QString &item : part.split(QLatin1Char(','))) {
            int v = 0;
            if (!number(item, &v) || v < 1)
                return QStringLiteral("XGFT \"%1\": %2 count \"%3\" is not a positive number")
                    .arg(text, QLatin1String(what), item.trimmed());
            out.push_back(v);
        }
        if (int(out.size()) != shape.height)
            return QStringLiteral("XGFT \"%1\": height %2 needs %2 %3 counts, found %4")
                .arg(text).arg(shape.height).arg(QLatin1String(what)).arg(out.size());
        return {};
    };
    if (QString e = list(parts[1], "child", shape.children); !e.isEmpty())
        return fail(e);
    if (QString e = list(parts[2], "parent", shape.parents); !e.isEmpty())
        return fail(e);
    return shape;
}

XgftShape karyNTreeShape(int k, int levels)
{
    XgftShape s;
    s.height = levels;
    s.children.assign(std::size_t(std::max(0, levels)), k);
    s.parents.assign(std::size_t(std::max(0, levels)), k);
    if (levels > 0)
        s.parents.back() = 1;
    return s;
}

XgftShape switchRadixShape(int radix, int levels)
{
    XgftShape s;
    s.height = levels;
    s.children.assign(std::size_t(std::max(0, levels)), radix / 2);
    s.parents.assign(std::size_t(std::max(0, levels)), radix / 2);
    if (levels > 0) {
        s.children.front() = radix;  // roots have no up-links, so all their ports go down
        s.parents.back() = 1;
    }
    return s;
}

Result<LinkEndName> parseLinkEnd(const QString &text)
{
    static const QRegularExpression form(QStringLiteral("^(.+)\\[(\\d{1,3})\\]$"));
    const QRegularExpressionMatch m = form.match(text.trimmed());
    if (!m.hasMatch())
        return fail(QStringLiteral("link \"%1\": expected NODE[PORT], e.g. \"L1 leaf 3[5]\"").arg(text));
    return LinkEndName{m.captured(1).trimmed(), m.captured(2).toInt()};
}

QString RemovedLink::toString() const
{
    return QStringLiteral("%1[%2] -- %3[%4]").arg(nodeA).arg(portA).arg(nodeB).arg(portB);
}

Result<GeneratedFabric> generateFabric(const GeneratorOptions &options)
{
    Result<ResolvedShape> shape = resolveShape(options);
    if (!shape)
        return shape.error();
    if (QString e = checkOtherOptions(options); !e.isEmpty())
        return fail(e);

    // Count LIDs before allocating anything, so an absurd shape fails fast instead of
    // exhausting memory.
    const XgftShape &x = shape->xgft;
    const std::uint64_t hosts = x.hostCount();
    const std::uint64_t lidsPerHost = options.hypervisors ? std::uint64_t(2 + options.vfsPerHypervisor) : 1;
    const std::uint64_t lids = saturatingAdd(x.switchCount(), saturatingMul(hosts, lidsPerHost));
    if (lids > kMaxUnicastLid)
        return fail(QStringLiteral("%1 needs %2 LIDs (switches%3 and end ports); a subnet has %4 unicast LIDs")
                        .arg(shape->name)
                        .arg(lids == std::numeric_limits<std::uint64_t>::max() ? QStringLiteral("too many")
                                                                               : QString::number(lids))
                        .arg(options.hypervisors ? QStringLiteral(", vSwitches") : QString())
                        .arg(kMaxUnicastLid));

    Plan plan;
    planTree(plan, x, shape->switchPorts, options);

    std::vector<RemovedLink> removed;
    if (QString e = removeNamedLinks(plan, options.removeLinks, removed); !e.isEmpty())
        return fail(e);
    QStringList warnings;
    if (!options.removeLinks.empty()) {
        const QStringList cut = cutOffHosts(plan);
        if (!cut.isEmpty()) {
            QStringList shown = cut.mid(0, 5);
            if (cut.size() > shown.size())
                shown << QStringLiteral("...");
            warnings << QStringLiteral("%1 hosts are cut off from the rest of the fabric: %2")
                            .arg(cut.size()).arg(shown.join(QStringLiteral(", ")));
        }
    }
    if (QString e = removeRandomLinks(plan, options.removeRandomLinks, options.seed, removed); !e.isEmpty())
        return fail(e);

    Result<Fabric> fabric = buildFabric(plan, options);
    if (!fabric)
        return fabric.error();

    GeneratedFabric out{std::move(fabric).value(), x, {}, {}, std::move(plan.nodeLevel), std::move(plan.hosts),
                        std::move(removed), std::move(warnings)};
    for (int l = 0; l < x.height; ++l)
        out.switchesPerLevel.push_back(int(x.nodesAtLevel(l)));
    QString summary = shape->name;
    if (options.shape != FabricShapeKind::Xgft)
        summary += QStringLiteral(" = ") + x.toString();
    summary += QStringLiteral(": %1 switches, %2 %3, %4 links")
                   .arg(x.switchCount())
                   .arg(hosts)
                   .arg(options.hypervisors ? QStringLiteral("hypervisors with %1 VFs each").arg(options.vfsPerHypervisor)
                                            : QStringLiteral("hosts"))
                   .arg(out.fabric.links().size());
    if (!out.removedLinks.empty())
        summary += QStringLiteral(" (%1 removed)").arg(out.removedLinks.size());
    out.summary = summary;
    return out;
}

}  // namespace weft
