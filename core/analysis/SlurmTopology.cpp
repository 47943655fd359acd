#include "SlurmTopology.h"

#include "FabricSummary.h"

#include <QRegularExpression>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <tuple>

namespace weft {

namespace {

// Names in the order an operator reads them: a trailing number by its value ("leaf-2" before
// "leaf-10"), the rest as text.
struct SlurmNameLess
{
    // (the text before a trailing number, whether there is one, its value, the whole name),
    // compared in turn: a strict order, whatever the names.
    static std::tuple<QStringView, bool, qulonglong, QStringView> key(const QString &name)
    {
        qsizetype i = name.size();
        while (i > 0 && name.at(i - 1).isDigit())
            --i;
        if (i == 0 || i == name.size() || name.size() - i > 18)
            return {QStringView(name), false, 0, QStringView(name)};
        return {QStringView(name).left(i), true, QStringView(name).mid(i).toULongLong(), QStringView(name)};
    }
    bool operator()(const QString &a, const QString &b) const { return key(a) < key(b); }
};

// More CAs than one host carries: a description's first word shared this widely names no host.
constexpr int kMaxAdaptersPerHost = 16;

QString hostNameFromDescription(const QString &description, QString *why)
{
    static const QRegularExpression space(QStringLiteral("\\s+"));
    const QString word = description.trimmed().section(space, 0, 0);
    static const QRegularExpression factory(QStringLiteral("^MT\\d+$"));
    static const QRegularExpression number(QStringLiteral("^\\d+$"));
    if (word.isEmpty())
        *why = QStringLiteral("it has no node description");
    else if (factory.match(word).hasMatch())
        *why = QStringLiteral("its description is the adapter's own, naming no host");
    else if (number.match(description.trimmed().section(space, 1)).hasMatch())
        // "host 0007": a name with a space in it, not a host and its device as rdma-ndd writes them.
        *why = QStringLiteral("its description \"%1\" is a word and a number, not a host name and a device").arg(description.trimmed());
    else if (!isSlurmName(word))
        *why = QStringLiteral("\"%1\" cannot be a Slurm node name").arg(word);
    else
        return word;
    return {};
}

// A switch's name from its description, when usable: a managed switch's "MF0;<host>:<model>"
// gives <host>; runs of characters Slurm names do not take become '-'.
QString switchNameFromDescription(const QString &description)
{
    static const QRegularExpression managed(QStringLiteral("^MF0;([^:]+):"));
    QString text = description.trimmed();
    if (const QRegularExpressionMatch m = managed.match(text); m.hasMatch())
        text = m.captured(1);
    static const QRegularExpression others(QStringLiteral("[^A-Za-z0-9._-]+"));
    text.replace(others, QStringLiteral("-"));
    while (text.startsWith(QLatin1Char('-')))
        text.remove(0, 1);
    while (text.endsWith(QLatin1Char('-')))
        text.chop(1);
    return isSlurmName(text) ? text : QString();
}

// The names map's entry for a node: its GUID, one of its port GUIDs, or its description.
const SlurmNameEntry *slurmMappedName(const SlurmNames &names, const Fabric &fabric, NodeIndex n)
{
    const Node &node = fabric.node(n);
    if (const auto it = names.byGuid.find(node.guid); it != names.byGuid.end())
        return &it->second;
    for (int p = 0; p <= node.portCount; ++p) {
        const Port &port = fabric.port(node.firstPort + p);
        if (!port.present)
            continue;
        if (const auto it = names.byGuid.find(port.guid); it != names.byGuid.end())
            return &it->second;
    }
    if (const auto it = names.byDescription.find(node.description.trimmed()); it != names.byDescription.end())
        return &it->second;
    return nullptr;
}

QString slurmNodeText(const Fabric &fabric, NodeIndex n)
{
    const Node &node = fabric.node(n);
    return node.description.isEmpty() ? guidText(node.guid) : QStringLiteral("\"%1\" (%2)").arg(node.description, guidText(node.guid));
}

// The switches cabled to `n`, each once.
std::vector<NodeIndex> slurmSwitchNeighbours(const Fabric &fabric, NodeIndex n)
{
    std::vector<NodeIndex> peers;
    const Node &node = fabric.node(n);
    for (int p = 1; p <= node.portCount; ++p) {
        const Port &port = fabric.port(node.firstPort + p);
        if (port.remote == kNoIndex)
            continue;
        const NodeIndex peer = fabric.port(port.remote).node;
        if (fabric.node(peer).type == NodeType::Switch && std::find(peers.begin(), peers.end(), peer) == peers.end())
            peers.push_back(peer);
    }
    return peers;
}

// Each CA named by its host (the map's name, else the first word of its description), by host
// name; CAs left out by role are counted, CAs that name no host warned of, in `topology`.
struct SlurmAdapter
{
    NodeIndex node = kNoIndex;
    bool mapped = false;
};
std::map<QString, std::vector<SlurmAdapter>> slurmAdapters(const Fabric &fabric, const SlurmTopologyOptions &options, SlurmTopology *topology)
{
    const SlurmNames &map = options.names;
    std::map<QString, std::vector<SlurmAdapter>> adaptersOf;
    for (NodeIndex n : fabric.endNodes()) {
        const Node &node = fabric.node(n);
        if (node.type != NodeType::ChannelAdapter)
            continue;
        if (options.excluded.count(node.role)) {
            ++topology->excludedEndNodes;
            continue;
        }
        if (const SlurmNameEntry *entry = slurmMappedName(map, fabric, n)) {
            adaptersOf[entry->name].push_back({n, true});
            continue;
        }
        QString why;
        const QString name = hostNameFromDescription(node.description, &why);
        if (name.isEmpty()) {
            topology->warnings << QStringLiteral("CA %1 left out: %2; name its host in a names map").arg(slurmNodeText(fabric, n), why);
            continue;
        }
        adaptersOf[name].push_back({n, false});
    }
    return adaptersOf;
}

}  // namespace

std::map<QString, std::vector<NodeIndex>> slurmHostAdapters(const Fabric &fabric, const SlurmTopologyOptions &options)
{
    SlurmTopology ignored;
    std::map<QString, std::vector<NodeIndex>> hosts;
    for (const auto &[host, adapters] : slurmAdapters(fabric, options, &ignored))
        for (const SlurmAdapter &a : adapters)
            hosts[host].push_back(a.node);
    return hosts;
}

Result<SlurmTopology> slurmTopology(const Fabric &fabric, const SlurmTopologyOptions &options)
{
    SlurmTopology topology;
    const std::vector<int> tiers = nodeTiers(fabric);
    const SlurmNames &map = options.names;
    const auto mapError = [&map](const SlurmNameEntry &entry, const QString &message) {
        return Error{map.fileName, entry.line, message};
    };

    // Switch names: the map's, else a description unique among the switches, else the GUID.
    std::map<NodeIndex, QString> switchName;
    std::map<QString, int> fromDescription;
    for (NodeIndex s : fabric.switches())
        if (const QString name = switchNameFromDescription(fabric.node(s).description); !name.isEmpty())
            ++fromDescription[name];
    std::map<QString, NodeIndex> switchByName;
    std::map<QString, const SlurmNameEntry *> mappedSwitch;
    for (NodeIndex s : fabric.switches()) {
        if (const SlurmNameEntry *entry = slurmMappedName(map, fabric, s)) {
            if (const auto other = mappedSwitch.find(entry->name); other != mappedSwitch.end())
                return mapError(*entry, QStringLiteral("the switch name \"%1\" is given to a switch already (line %2)").arg(entry->name).arg(other->second->line));
            mappedSwitch.emplace(entry->name, entry);
            switchName[s] = entry->name;
        }
    }
    for (NodeIndex s : fabric.switches()) {
        if (switchName.count(s))
            continue;
        const QString derived = switchNameFromDescription(fabric.node(s).description);
        const bool usable = !derived.isEmpty() && fromDescription[derived] == 1 && !mappedSwitch.count(derived);
        switchName[s] = usable ? derived : QStringLiteral("sw-") + guidDigits(fabric.node(s).guid);
    }
    for (const auto &[s, name] : switchName)
        switchByName.emplace(name, s);

    // Hosts: each CA named, then placed on its leaves.
    const std::map<QString, std::vector<SlurmAdapter>> adaptersOf = slurmAdapters(fabric, options, &topology);
    std::map<NodeIndex, QStringList> hostsOf;  // by leaf
    for (const auto &[host, adapters] : adaptersOf) {
        const auto described = std::count_if(adapters.begin(), adapters.end(), [](const SlurmAdapter &a) { return !a.mapped; });
        if (described > kMaxAdaptersPerHost) {
            QStringList examples;
            for (const SlurmAdapter &a : adapters)
                if (!a.mapped && examples.size() < 3)
                    examples << QStringLiteral("\"%1\"").arg(fabric.node(a.node).description);
            return Error{{}, 0, QStringLiteral("%1 CAs' descriptions begin with \"%2\" (%3, ...): more than one host has, so the "
                                               "descriptions do not name hosts; name them in a names map")
                                    .arg(described)
                                    .arg(host, examples.join(QStringLiteral(", ")))};
        }
        std::map<QString, NodeIndex, SlurmNameLess> leaves;  // by name: the first is the host's
        QStringList above;
        for (const SlurmAdapter &a : adapters) {
            for (NodeIndex s : slurmSwitchNeighbours(fabric, a.node)) {
                if (tiers[std::size_t(s)] == 1)
                    leaves.emplace(switchName[s], s);
                else
                    above << switchName[s];
            }
        }
        if (leaves.empty()) {
            topology.warnings << (above.isEmpty()
                                      ? QStringLiteral("host %1 left out: no cable to a switch").arg(host)
                                      : QStringLiteral("host %1 left out: cabled to %2 only, above the leaves (topology/tree takes "
                                                       "nodes on leaf switches)")
                                            .arg(host, above.join(QStringLiteral(", "))));
            continue;
        }
        if (leaves.size() > 1) {
            QStringList names;
            for (const auto &leaf : leaves)
                names << leaf.first;
            topology.warnings << QStringLiteral("host %1 is cabled to leaves %2: listed once, under %3")
                                     .arg(host, names.join(QStringLiteral(", ")), names.constFirst());
        }
        hostsOf[leaves.begin()->second] << host;
        ++topology.hosts;
    }
    if (topology.hosts == 0)
        return Error{{}, 0, topology.warnings.isEmpty() ? QStringLiteral("no host to list: every end node is left out by role") : QStringLiteral("no host to list: %1 CAs name no host (%2); name them in a names map").arg(topology.warnings.size()).arg(topology.warnings.constFirst())};

    // Switches kept: leaves with hosts, then each level's switches with a kept child.
    int top = 1;
    for (NodeIndex s : fabric.switches())
        top = std::max(top, tiers[std::size_t(s)]);
    std::map<NodeIndex, QStringList> childrenOf;
    std::vector<bool> kept(fabric.nodes().size(), false);
    for (const auto &[leaf, hosts] : hostsOf)
        kept[std::size_t(leaf)] = true;
    for (int level = 2; level <= top; ++level) {
        for (NodeIndex s : fabric.switches()) {
            if (tiers[std::size_t(s)] != level)
                continue;
            QStringList children;
            for (NodeIndex peer : slurmSwitchNeighbours(fabric, s))
                if (tiers[std::size_t(peer)] == level - 1 && kept[std::size_t(peer)])
                    children << switchName[peer];
            if (children.isEmpty())
                continue;
            std::sort(children.begin(), children.end(), SlurmNameLess());
            childrenOf[s] = children;
            kept[std::size_t(s)] = true;
        }
    }

    // The tree's order: from its roots by name, each switch's children by name, depth first, so
    // that the leaves of one pod are neighbours (the block plugin joins neighbouring blocks).
    std::map<QString, NodeIndex, SlurmNameLess> roots;
    for (NodeIndex s : fabric.switches()) {
        if (!kept[std::size_t(s)])
            continue;
        bool hasParent = false;
        for (NodeIndex peer : slurmSwitchNeighbours(fabric, s))
            hasParent = hasParent || (kept[std::size_t(peer)] && tiers[std::size_t(peer)] == tiers[std::size_t(s)] + 1);
        if (!hasParent)
            roots.emplace(switchName[s], s);
    }
    std::map<NodeIndex, int> position;
    const std::function<void(NodeIndex)> visit = [&](NodeIndex s) {
        if (position.count(s))
            return;
        position.emplace(s, int(position.size()));
        if (const auto it = childrenOf.find(s); it != childrenOf.end())
            for (const QString &child : it->second)
                visit(switchByName[child]);
    };
    for (const auto &root : roots)
        visit(root.second);

    for (const auto &[s, at] : position) {
        SlurmSwitch sw;
        sw.name = switchName[s];
        sw.node = s;
        sw.level = tiers[std::size_t(s)];
        if (const auto it = hostsOf.find(s); it != hostsOf.end()) {
            sw.hosts = it->second;
            sw.hosts.sort();
        }
        if (const auto it = childrenOf.find(s); it != childrenOf.end())
            sw.children = it->second;
        topology.switches.push_back(std::move(sw));
    }
    std::sort(topology.switches.begin(), topology.switches.end(), [&position](const SlurmSwitch &a, const SlurmSwitch &b) {
        return a.level != b.level ? a.level < b.level : position.at(a.node) < position.at(b.node);
    });

    // Map lines that named nothing here: the map may cover hosts this fabric lacks now.
    std::set<const SlurmNameEntry *> used;
    for (NodeIndex n = 0; n < NodeIndex(fabric.nodes().size()); ++n)
        if (const SlurmNameEntry *entry = slurmMappedName(map, fabric, n))
            used.insert(entry);
    for (const auto &[guid, entry] : map.byGuid)
        if (!used.count(&entry))
            topology.warnings << QStringLiteral("%1:%2: no node or port %3 in the fabric").arg(map.fileName).arg(entry.line).arg(guidText(guid));
    for (const auto &[description, entry] : map.byDescription)
        if (!used.count(&entry))
            topology.warnings << QStringLiteral("%1:%2: no node described \"%3\" in the fabric").arg(map.fileName).arg(entry.line).arg(description);
    return topology;
}

}  // namespace weft
