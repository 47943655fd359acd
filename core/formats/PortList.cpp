#include "PortList.h"

#include "TextReader.h"

#include <algorithm>
#include <map>

namespace weft {

Result<std::vector<Guid>> readPortList(const QByteArray &data, const QString &fileName, const Fabric &fabric)
{
    TextReader reader(data, fileName);
    std::multimap<QString, NodeIndex> byName;
    for (NodeIndex n : fabric.endNodes()) {
        byName.emplace(fabric.node(n).description, n);
        if (fabric.node(n).name != fabric.node(n).description)
            byName.emplace(fabric.node(n).name, n);
    }
    // An end node's first port that has a LID: the port its traffic leaves from.
    auto firstPort = [&fabric](NodeIndex n) {
        for (int number = 1; number <= fabric.node(n).portCount; ++number) {
            const PortIndex p = fabric.portOf(n, number);
            if (p != kNoIndex && fabric.port(p).present && fabric.port(p).lid != 0)
                return p;
        }
        return fabric.portOf(n, 1);
    };
    std::vector<Guid> ports;
    std::map<Guid, int> listedOn;
    try {
        while (reader.next()) {
            std::string_view line = reader.line();
            if (const std::size_t hash = line.find('#'); hash != std::string_view::npos)
                line = line.substr(0, hash);
            line = text::trimmed(line);
            if (line.empty())
                continue;
            const QString key = text::toQString(line);
            PortIndex port = kNoIndex;
            std::uint64_t guid = 0;
            if (key.startsWith(QLatin1String("0x"), Qt::CaseInsensitive) && text::parseUInt(line, 0, &guid)) {
                port = fabric.portByGuid(guid);
                const NodeIndex node = port != kNoIndex ? fabric.port(port).node : fabric.nodeByGuid(guid);
                if (node == kNoIndex)
                    reader.fail(QStringLiteral("no port or node with GUID %1 in the fabric").arg(key));
                if (fabric.node(node).type == NodeType::Switch)
                    reader.fail(QStringLiteral("%1 is a switch; list end nodes").arg(key));
                if (port == kNoIndex)
                    port = firstPort(node);
            } else {
                const auto [first, last] = byName.equal_range(key);
                if (first == last) {
                    const bool isSwitch = fabric.nodeByName(key) != kNoIndex
                        || std::any_of(fabric.switches().begin(), fabric.switches().end(),
                                       [&](NodeIndex s) { return fabric.node(s).description == key; });
                    if (isSwitch)
                        reader.fail(QStringLiteral("\"%1\" is a switch; list end nodes").arg(key));
                    reader.fail(QStringLiteral("no end node described or named \"%1\" in the fabric").arg(key));
                }
                if (std::next(first) != last && std::next(first)->second != first->second)
                    reader.fail(QStringLiteral("\"%1\" names several nodes; use a port GUID").arg(key));
                port = firstPort(first->second);
            }
            const Guid portGuid = fabric.port(port).guid;
            const auto [it, inserted] = listedOn.emplace(portGuid, reader.lineNumber());
            if (!inserted)
                reader.fail(QStringLiteral("port %1 is listed already (line %2)").arg(guidText(portGuid)).arg(it->second));
            ports.push_back(portGuid);
        }
    } catch (const InputError &e) {
        return reader.error(e);
    }
    return ports;
}

Result<std::vector<Guid>> readPortListFile(const QString &path, const Fabric &fabric)
{
    Result<QByteArray> data = TextReader::readFile(path);
    if (!data)
        return data.error();
    return readPortList(*data, path, fabric);
}

}  // namespace weft
