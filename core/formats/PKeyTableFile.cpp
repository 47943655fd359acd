#include "PKeyTableFile.h"

#include "TextReader.h"

#include <algorithm>
#include <map>
#include <set>

namespace weft {

namespace {

using text::startsWith;

// A line holding every index a port can have (" 65534:0xffff" each) and a long description.
constexpr int kMaxLineLength = (kMaxPKeyIndex + 1) * 13 + 4096;

bool isBlank(char c)
{
    return c == ' ' || c == '\t';
}

// The next blank-separated word of `rest`, which moves past it.
std::string_view nextWord(std::string_view &rest)
{
    std::size_t start = 0;
    while (start < rest.size() && isBlank(rest[start]))
        ++start;
    std::size_t end = start;
    while (end < rest.size() && !isBlank(rest[end]))
        ++end;
    const std::string_view word = rest.substr(start, end - start);
    rest.remove_prefix(end);
    return word;
}

bool hasHexPrefix(std::string_view s)
{
    return startsWith(s, "0x") || startsWith(s, "0X");
}

ListedPKeyTable readLine(const TextReader &reader, std::string_view rest)
{
    ListedPKeyTable port;
    port.line = reader.lineNumber();
    const std::string_view guid = nextWord(rest);
    if (!hasHexPrefix(guid))
        reader.fail(QStringLiteral("expected a port GUID (0x and hex digits), not \"%1\"").arg(text::toQString(guid)));
    port.guid = reader.number(guid, 0, QStringLiteral("port GUID"), 1, UINT64_MAX);
    const std::string_view number = nextWord(rest);
    if (number.empty())
        reader.fail(QStringLiteral("expected a port number after the GUID"));
    port.portNumber = int(reader.number(number, 10, QStringLiteral("port number"), 0, 254));

    // The description runs to the line's last quote: it may hold quotes, the entries never do.
    while (!rest.empty() && isBlank(rest.front()))
        rest.remove_prefix(1);
    const std::size_t close = rest.rfind('"');
    if (rest.empty() || rest.front() != '"' || close == 0)
        reader.fail(QStringLiteral("expected the node description in quotes after the port number"));
    port.description = text::withoutControlCharacters(text::toQString(rest.substr(1, close - 1)));
    rest.remove_prefix(close + 1);
    if (!rest.empty() && !isBlank(rest.front()))
        reader.fail(QStringLiteral("expected a space after the node description"));

    std::set<int> indices;
    for (std::string_view word = nextWord(rest); !word.empty(); word = nextWord(rest)) {
        const std::size_t colon = word.find(':');
        if (colon == std::string_view::npos || !hasHexPrefix(word.substr(colon + 1)))
            reader.fail(QStringLiteral("expected INDEX:0xPKEY, not \"%1\"").arg(text::toQString(word)));
        PKeyTableEntry entry;
        entry.index = int(reader.number(word.substr(0, colon), 10, QStringLiteral("P_Key index"), 0, kMaxPKeyIndex));
        entry.pkey = std::uint16_t(reader.number(word.substr(colon + 1), 0, QStringLiteral("P_Key"), 0, 0xffff));
        if (!(entry.pkey & kPKeyMask))
            reader.fail(QStringLiteral("P_Key %1 at index %2 names no partition (its low 15 bits are 0); empty slots are not listed")
                            .arg(pkeyText(entry.pkey))
                            .arg(entry.index));
        if (!indices.insert(entry.index).second)
            reader.fail(QStringLiteral("index %1 is given twice").arg(entry.index));
        port.entries.push_back(entry);
    }
    if (port.entries.empty())
        reader.fail(QStringLiteral("port %1 %2 lists no P_Key; a port whose table is empty is not listed")
                        .arg(guidText(port.guid))
                        .arg(port.portNumber));
    std::sort(port.entries.begin(), port.entries.end(), [](const PKeyTableEntry &a, const PKeyTableEntry &b) { return a.index < b.index; });
    return port;
}

}  // namespace

Result<PKeyTableListing> readPKeyTableListing(const QByteArray &data, const QString &fileName)
{
    TextReader reader(data, fileName, kMaxLineLength);
    PKeyTableListing listing;
    listing.fileName = fileName;
    std::map<std::pair<Guid, int>, int> listedOn;
    try {
        while (reader.next()) {
            const std::string_view line = text::trimmed(reader.line());
            if (line.empty() || line.front() == '#')
                continue;
            ListedPKeyTable port = readLine(reader, line);
            const auto [it, inserted] = listedOn.emplace(std::make_pair(port.guid, port.portNumber), port.line);
            if (!inserted)
                reader.fail(QStringLiteral("port %1 %2 is listed already (line %3)").arg(guidText(port.guid)).arg(port.portNumber).arg(it->second));
            listing.ports.push_back(std::move(port));
        }
    } catch (const InputError &e) {
        return reader.error(e);
    }
    return listing;
}

Result<PKeyTables> bindPKeyTables(const PKeyTableListing &listing, const Fabric &fabric)
{
    std::vector<PortPKeyTable> tables;
    tables.reserve(listing.ports.size());
    std::map<PortIndex, int> boundOn;
    for (const ListedPKeyTable &listed : listing.ports) {
        const auto fail = [&](const QString &message) { return Error{listing.fileName, listed.line, message}; };
        const PortIndex byGuid = fabric.portByGuid(listed.guid);
        const NodeIndex node = byGuid != kNoIndex ? fabric.port(byGuid).node : fabric.nodeByGuid(listed.guid);
        if (node == kNoIndex)
            return fail(QStringLiteral("no port or node with GUID %1 in the fabric").arg(guidText(listed.guid)));
        const Node &n = fabric.node(node);
        PortIndex port = byGuid;
        if (n.type == NodeType::Switch || byGuid == kNoIndex) {
            // A switch's GUID names all its ports, and a CA's node GUID all of the CA's.
            port = fabric.portOf(node, listed.portNumber);
            if (port == kNoIndex || !fabric.port(port).present)
                return fail(QStringLiteral("\"%1\" (%2) has no port %3").arg(n.description, guidText(listed.guid)).arg(listed.portNumber));
        } else if (fabric.port(byGuid).number != listed.portNumber) {
            return fail(QStringLiteral("port GUID %1 is port %2 of \"%3\", not port %4")
                            .arg(guidText(listed.guid))
                            .arg(fabric.port(byGuid).number)
                            .arg(n.description)
                            .arg(listed.portNumber));
        }
        if (const auto [it, inserted] = boundOn.emplace(port, listed.line); !inserted)
            return fail(QStringLiteral("port %1 of \"%2\" is listed already (line %3)").arg(listed.portNumber).arg(n.description).arg(it->second));

        PortPKeyTable table;
        table.port = port;
        table.packed = n.type == NodeType::Switch && listed.portNumber != 0;
        const int last = listed.entries.back().index;  // entries are in index order
        table.entries.assign(std::size_t((last / kPKeyBlockSize + 1) * kPKeyBlockSize), 0);
        for (const PKeyTableEntry &entry : listed.entries)
            table.entries[std::size_t(entry.index)] = entry.pkey;
        tables.push_back(std::move(table));
    }
    return PKeyTables::fromPorts(std::move(tables));
}

Result<PKeyTables> readPKeyTableFile(const QByteArray &data, const QString &fileName, const Fabric &fabric)
{
    Result<PKeyTableListing> listing = readPKeyTableListing(data, fileName);
    if (!listing)
        return listing.error();
    return bindPKeyTables(*listing, fabric);
}

Result<PKeyTables> readPKeyTableFile(const QString &path, const Fabric &fabric)
{
    Result<QByteArray> data = TextReader::readFile(path);
    if (!data)
        return data.error();
    return readPKeyTableFile(*data, path, fabric);
}

PKeyTableListing listPKeyTables(const PKeyTables &tables, const Fabric &fabric)
{
    PKeyTableListing listing;
    for (const PortPKeyTable &t : tables.ports()) {
        const Port &port = fabric.port(t.port);
        const Node &node = fabric.node(port.node);
        ListedPKeyTable listed;
        listed.guid = port.guid ? port.guid : node.guid;
        listed.portNumber = port.number;
        listed.description = node.description;
        for (std::size_t i = 0; i < t.entries.size(); ++i)
            if (t.entries[i] & kPKeyMask)
                listed.entries.push_back({int(i), t.entries[i]});
        if (!listed.entries.empty())
            listing.ports.push_back(std::move(listed));
    }
    return listing;
}

QByteArray writePKeyTableListing(const PKeyTableListing &listing)
{
    QByteArray out = "# P_Key tables: port GUID, port number, node description, index:P_Key (0x8000 = full member)\n";
    for (const ListedPKeyTable &port : listing.ports) {
        // Cleaned as topology files clean it: a description must not end or split its line.
        out += guidText(port.guid).toLatin1() + ' ' + QByteArray::number(port.portNumber) + " \""
            + text::withoutControlCharacters(port.description).toUtf8() + '"';
        for (const PKeyTableEntry &entry : port.entries)
            out += ' ' + QByteArray::number(entry.index) + ':' + pkeyText(entry.pkey).toLatin1();
        out += '\n';
    }
    return out;
}

QByteArray writePKeyTables(const PKeyTables &tables, const Fabric &fabric)
{
    return writePKeyTableListing(listPKeyTables(tables, fabric));
}

std::vector<bool> listedSwitchPortsFacingCas(const PKeyTableListing &listing)
{
    std::set<Guid> switches;
    for (const ListedPKeyTable &port : listing.ports)
        if (port.portNumber == 0)
            switches.insert(port.guid);
    std::vector<bool> facingCas;
    facingCas.reserve(listing.ports.size());
    for (const ListedPKeyTable &port : listing.ports)
        facingCas.push_back(port.portNumber != 0 && switches.count(port.guid));
    return facingCas;
}

PKeyMemberships listedPKeyMemberships(const PKeyTableListing &listing)
{
    const std::vector<bool> facingCas = listedSwitchPortsFacingCas(listing);
    PKeyMemberships memberships;
    for (std::size_t i = 0; i < listing.ports.size(); ++i) {
        if (facingCas[i])
            continue;
        std::vector<std::uint16_t> pkeys;
        for (const PKeyTableEntry &entry : listing.ports[i].entries)
            pkeys.push_back(entry.pkey);
        addPKeyMemberships(memberships, listing.ports[i].guid, pkeys);
    }
    return memberships;
}

}  // namespace weft
