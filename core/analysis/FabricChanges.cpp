#include "FabricChanges.h"

#include <algorithm>
#include <map>
#include <utility>

namespace weft {

bool FabricChanges::empty() const
{
    return nodesGone.isEmpty() && nodesNew.isEmpty() && linksGone.isEmpty() && linksNew.isEmpty() && lidsChanged.isEmpty();
}

QString FabricChanges::toText() const
{
    if (empty())
        return QStringLiteral("no changes\n");
    QString text;
    auto section = [&](const QStringList &items, const char *label) {
        for (const QString &item : items)
            text += QLatin1String(label) + QStringLiteral(": ") + item + QLatin1Char('\n');
    };
    section(nodesGone, "node gone");
    section(nodesNew, "node new");
    section(linksGone, "link gone");
    section(linksNew, "link new");
    section(lidsChanged, "LID changed");
    return text;
}

namespace {

using PortKey = std::pair<Guid, int>;  // node GUID, port number
using LinkKey = std::pair<PortKey, PortKey>;

std::map<LinkKey, QString> linksOf(const Fabric &fabric)
{
    std::map<LinkKey, QString> links;
    for (const Link &link : fabric.links()) {
        const Port &a = fabric.port(link.a);
        const Port &b = fabric.port(link.b);
        PortKey ka{fabric.node(a.node).guid, a.number};
        PortKey kb{fabric.node(b.node).guid, b.number};
        const bool swap = kb < ka;
        if (swap)
            std::swap(ka, kb);
        const Node &na = fabric.node(swap ? b.node : a.node);
        const Node &nb = fabric.node(swap ? a.node : b.node);
        links[{ka, kb}] = QStringLiteral("%1[%2] \"%3\" - %4[%5] \"%6\"")
                              .arg(guidText(ka.first)).arg(ka.second).arg(na.description)
                              .arg(guidText(kb.first)).arg(kb.second).arg(nb.description);
    }
    return links;
}

QString nodeText(const Node &n)
{
    return QStringLiteral("%1 \"%2\"").arg(guidText(n.guid)).arg(n.description);
}

}  // namespace

FabricChanges compareFabrics(const Fabric &before, const Fabric &after)
{
    FabricChanges changes;
    for (const Node &n : before.nodes())
        if (after.nodeByGuid(n.guid) == kNoIndex) {
            changes.nodesGone << nodeText(n);
            changes.nodesGoneGuids.push_back(n.guid);
        }
    for (const Node &n : after.nodes())
        if (before.nodeByGuid(n.guid) == kNoIndex) {
            changes.nodesNew << nodeText(n);
            changes.nodesNewGuids.push_back(n.guid);
        }

    const std::map<LinkKey, QString> oldLinks = linksOf(before);
    const std::map<LinkKey, QString> newLinks = linksOf(after);
    const auto ends = [](const LinkKey &key) {
        return FabricChanges::LinkEnds{key.first.first, key.first.second, key.second.first, key.second.second};
    };
    for (const auto &[key, text] : oldLinks)
        if (!newLinks.count(key)) {
            changes.linksGone << text;
            changes.linksGoneEnds.push_back(ends(key));
        }
    for (const auto &[key, text] : newLinks)
        if (!oldLinks.count(key)) {
            changes.linksNew << text;
            changes.linksNewEnds.push_back(ends(key));
        }

    for (const Node &n : before.nodes()) {
        const NodeIndex other = after.nodeByGuid(n.guid);
        if (other == kNoIndex)
            continue;
        const Node &m = after.node(other);
        for (int p = 0; p <= std::min<int>(n.portCount, m.portCount); ++p) {
            const Port &a = before.port(n.firstPort + p);
            const Port &b = after.port(m.firstPort + p);
            if (!a.present || !b.present || (a.lid == b.lid && a.lmc == b.lmc))
                continue;
            if (a.lid == 0 && b.lid == 0)
                continue;
            changes.lidsChanged << QStringLiteral("%1[%2] \"%3\" LID %4 -> %5")
                                       .arg(guidText(n.guid)).arg(p).arg(n.description).arg(a.lid).arg(b.lid);
            changes.lidsChangedGuids.push_back(n.guid);
        }
    }
    return changes;
}

}  // namespace weft
