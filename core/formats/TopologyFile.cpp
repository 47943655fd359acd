#include "TopologyFile.h"

#include "IbdiagnetLinkList.h"
#include "TextReader.h"

#include <QDateTime>
#include <QRegularExpression>

#include <cstring>
#include <unordered_map>
#include <unordered_set>

namespace weft {

namespace {

using text::trimmed;
using text::startsWith;

struct PendingLink
{
    NodeIndex node;
    int port;
    QString remoteName;
    int remotePort;
    Guid remotePortGuid;  // 0 when the line does not give it
    int line;
};

// Attributes stated on the lines before a node header (vendid=, switchguid=, ...).
struct NodePreamble
{
    std::uint32_t vendorId = 0;
    std::uint32_t deviceId = 0;
    Guid systemImageGuid = 0;
    Guid guid = 0;
    Guid port0Guid = 0;
    bool hasGuid = false;
};

// A port label in parentheses, as ibdiagnet writes after a switch port, rather than a port
// GUID: the port's own number ("[39](39)") or a split port's "N/M" ("[3](2/1)").
bool isPortLabel(std::string_view s, int port)
{
    if (s.empty() || s.size() > 8)
        return false;
    for (char c : s)
        if (!(c >= '0' && c <= '9') && c != '/')
            return false;
    std::uint64_t n = 0;
    return s.find('/') != std::string_view::npos || (text::parseUInt(s, 10, &n) && n == std::uint64_t(port));
}

bool isRule(std::string_view line)
{
    for (char c : line)
        if (c != '-' && c != '=' && c != ' ' && c != '\t')
            return false;
    return line.size() >= 3;
}

// "ibdiagnet 2.1.1", "IBDIAGNET v2.2.0" or "ibnetdiscover version 1.6" in a comment.
QString toolVersionIn(std::string_view comment)
{
    const QString text = text::toQString(comment);
    static const QRegularExpression version(QStringLiteral("\\b(ibdiagnet2?|ibnetdiscover|ibdiag|ibsim)\\b[^0-9\\n]{0,24}?v?([0-9]+(?:\\.[0-9]+)+[0-9A-Za-z.\\-]*)"),
                                            QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch m = version.match(text);
    return m.hasMatch() ? m.captured(1).toLower() + QLatin1Char(' ') + m.captured(2) : QString();
}

class TopologyParser
{
public:
    explicit TopologyParser(TextReader &reader) : m_in(reader) {}

    Fabric parse();
    TopologyFileInfo info() const
    {
        TopologyFileInfo i;
        i.form = m_ibdiagnet ? QStringLiteral("ibdiagnet") : m_grouped ? QStringLiteral("ibnetdiscover -g")
                 : m_ibsim   ? QStringLiteral("ibsim net file")
                             : QStringLiteral("ibnetdiscover");
        i.toolVersion = m_toolVersion;
        i.chassis = m_chassisCount;
        return i;
    }

private:
    void parseKeyword(std::string_view key, std::string_view value);
    void parseNodeHeader(std::string_view line, NodeType type, std::size_t typeLength);
    void parsePortLine(std::string_view line);
    std::uint64_t number(std::string_view s, int base, const char *what, std::uint64_t min = 0,
                         std::uint64_t max = UINT64_MAX) const
    {
        return m_in.number(s, base, QLatin1String(what), min, max);
    }
    Guid guid(std::string_view s) const;
    void check(const QString &error) const
    {
        if (!error.isEmpty())
            m_in.fail(error);
    }
    // Parses "lid N" (and optionally "lmc M") at the start of `s`; advances `s` past them.
    bool lidAndLmc(std::string_view &s, int *lid, int *lmc) const;
    void linkProperties(std::string_view comment, int port);
    // Gives the current node's port its LID range, refusing here, on this line, a range that
    // leaves the unicast range or overlaps one given before (naming both ports and lines).
    void setLid(int port, int lid, int lmc);

    struct LidOwner
    {
        NodeIndex node;
        int port;
        int line;
    };
    std::vector<LidOwner> m_lidOwners;
    std::vector<int> m_ownerOfLid;  // by LID: index into m_lidOwners, or -1

    TextReader &m_in;
    FabricBuilder m_builder;
    NodePreamble m_preamble;
    NodeIndex m_current = kNoIndex;
    std::vector<PendingLink> m_links;
    std::vector<int> m_nodeLines;                            // by node: the line of its header
    std::unordered_map<std::uint32_t, int> m_portGuidLines;  // node << 8 | port: the line giving its GUID
    void setPortGuid(NodeIndex node, int port, Guid guid, int line)
    {
        if (QString e = m_builder.setPortGuid(node, port, guid); !e.isEmpty())
            throw InputError{line, e};
        m_portGuidLines[std::uint32_t(node) << 8 | std::uint32_t(port)] = line;
    }
    // ibsim's GUID counters per node type (switch, CA, router) for nodes stated without one.
    Guid m_nextGuid[3] = {0x200000, 0x100000, 0x300000};

    // The form of the file, for TopologyFileInfo.
    bool m_grouped = false;
    bool m_ibdiagnet = false;
    bool m_ibsim = false;
    QString m_toolVersion;
    int m_chassisCount = 0;
    QString m_chassis;  // the chassis group nodes now read belong to; empty: none
    Guid m_chassisGuid = 0;
    void parseChassisHeader(std::string_view line);
    // Skips a "(...)" label of port `port` at the start of `rest`; true if there was one.
    bool skipPortLabel(std::string_view &rest, int port);
};

void TopologyParser::parseChassisHeader(std::string_view line)
{
    // "Chassis 1 (guid 0x2c90200412345)", as ibnetdiscover -g prints a chassis.
    std::string_view rest = trimmed(line.substr(8));
    const std::size_t end = std::min(rest.find_first_of(" \t("), rest.size());
    const auto number = this->number(rest.substr(0, end), 10, "chassis number", 1, 255);
    rest = trimmed(rest.substr(end));
    Guid chassisGuid = 0;
    if (!rest.empty()) {
        if (!startsWith(rest, "(guid ") || rest.back() != ')')
            m_in.fail(QStringLiteral("cannot read the chassis header: expected \"Chassis N\" or \"Chassis N (guid 0x...)\""));
        chassisGuid = guid(trimmed(rest.substr(6, rest.size() - 7)));
    }
    m_grouped = true;
    m_chassis = QStringLiteral("Chassis %1").arg(number);
    m_chassisGuid = chassisGuid;
    ++m_chassisCount;
}

bool TopologyParser::skipPortLabel(std::string_view &rest, int port)
{
    if (!startsWith(rest, "("))
        return false;
    const std::size_t close = rest.find(')');
    if (close == std::string_view::npos || !isPortLabel(rest.substr(1, close - 1), port))
        return false;
    rest.remove_prefix(close + 1);
    m_ibdiagnet = true;
    return true;
}

Guid TopologyParser::guid(std::string_view s) const
{
    if (startsWith(s, "0x") || startsWith(s, "0X"))
        s.remove_prefix(2);
    std::uint64_t v = 0;
    if (s.size() > 16 || !text::parseUInt(s, 16, &v))
        m_in.fail(QStringLiteral("\"%1\" is not a 64-bit hexadecimal GUID").arg(text::toQString(s)));
    if (v == 0)
        m_in.fail(QStringLiteral("GUID 0 is not a valid GUID"));
    return v;
}

void TopologyParser::parseKeyword(std::string_view key, std::string_view value)
{
    if (key == "vendid") {
        m_preamble.vendorId = std::uint32_t(number(value, 0, "vendid", 0, 0xffffff));
    } else if (key == "devid") {
        m_preamble.deviceId = std::uint32_t(number(value, 0, "devid", 0, 0xffff));
    } else if (key == "sysimgguid") {
        m_preamble.systemImageGuid = guid(value);
    } else if (key == "switchguid" || key == "caguid" || key == "rtguid" || key == "hcaguids") {
        // "switchguid=0x2c90200400a2c(2c90200400a2c)": the node GUID, then port 0's GUID.
        std::string_view node = value;
        std::string_view port0;
        if (auto open = value.find('('); open != std::string_view::npos) {
            auto close = value.find(')', open);
            if (close == std::string_view::npos)
                m_in.fail(QStringLiteral("unclosed \"(\" in %1").arg(text::toQString(key)));
            node = value.substr(0, open);
            port0 = value.substr(open + 1, close - open - 1);
        }
        m_preamble.guid = guid(trimmed(node));
        m_preamble.port0Guid = port0.empty() ? 0 : guid(trimmed(port0));
        m_preamble.hasGuid = true;
    } else {
        m_in.fail(QStringLiteral("unknown keyword \"%1\"").arg(text::toQString(key)));
    }
}

bool TopologyParser::lidAndLmc(std::string_view &s, int *lid, int *lmc) const
{
    s = trimmed(s);
    if (!startsWith(s, "lid "))
        return false;
    s.remove_prefix(4);
    std::size_t end = s.find(' ');
    *lid = int(number(s.substr(0, end), 0, "LID", 0, 0xffff));
    s = end == std::string_view::npos ? std::string_view() : s.substr(end + 1);
    s = trimmed(s);
    if (lmc && startsWith(s, "lmc ")) {
        s.remove_prefix(4);
        end = s.find(' ');
        *lmc = int(number(s.substr(0, end), 0, "LMC", 0, 7));
        s = end == std::string_view::npos ? std::string_view() : s.substr(end + 1);
    }
    return true;
}

void TopologyParser::parseNodeHeader(std::string_view line, NodeType type, std::size_t typeLength)
{
    // Switch	24 "S-0002c90200400a2c"		# "desc" base port 0 lid 6 lmc 0
    std::string_view rest = trimmed(line.substr(typeLength));
    const std::size_t numberEnd = rest.find_first_of(" \t\"");
    const auto ports = number(rest.substr(0, numberEnd), 10, "port count");
    if (ports < 1 || ports > 254)
        m_in.fail(QStringLiteral("a node has 1 to 254 ports, not %1").arg(ports));
    rest = trimmed(numberEnd == std::string_view::npos ? std::string_view() : rest.substr(numberEnd));
    if (rest.empty() || rest.front() != '"')
        m_in.fail(QStringLiteral("node header without a quoted node id"));
    const std::size_t close = rest.find('"', 1);
    if (close == std::string_view::npos)
        m_in.fail(QStringLiteral("unterminated node id"));
    FabricBuilder::NodeSpec spec;
    spec.type = type;
    spec.portCount = int(ports);
    spec.name = text::toQString(rest.substr(1, close - 1));
    if (spec.name.isEmpty())
        m_in.fail(QStringLiteral("empty node id"));
    rest = trimmed(rest.substr(close + 1));

    int lid = 0;
    int lmc = 0;
    if (!rest.empty()) {
        if (rest.front() != '#')
            m_in.fail(QStringLiteral("unexpected text after the node id: \"%1\"").arg(text::toQString(rest)));
        rest = trimmed(rest.substr(1));
        if (!rest.empty() && rest.front() == '"') {
            // The description is quoted; it may itself contain quotes (and the markers), so take
            // the last quote before a switch's last "base|enhanced port 0" tail (or the end).
            std::size_t tail = rest.size();
            if (type == NodeType::Switch) {
                for (const char *marker : {" base port 0", " enhanced port 0"})
                    if (auto at = rest.rfind(marker); at != std::string_view::npos && (tail == rest.size() || at > tail))
                        tail = at;
            }
            const std::size_t end = rest.rfind('"', tail);
            if (end == 0 || end == std::string_view::npos)
                m_in.fail(QStringLiteral("unterminated node description"));
            // Cleaned as ibnetdiscover cleans it, so that no file written from the model
            // (P_Key tables, journal) carries a carriage return or tab from it.
            spec.description = text::withoutControlCharacters(text::toQString(rest.substr(1, end - 1)));
            rest = trimmed(rest.substr(end + 1));
        }
        if (startsWith(rest, "enhanced port 0") || startsWith(rest, "base port 0")) {
            spec.enhancedPort0 = rest[0] == 'e';
            rest.remove_prefix(rest.find("port 0") + 6);
            if (!lidAndLmc(rest, &lid, &lmc))
                m_in.fail(QStringLiteral("expected \"lid N lmc M\" after \"port 0\""));
        }
        if (!trimmed(rest).empty() && !startsWith(trimmed(rest), "(scp)"))
            m_in.fail(QStringLiteral("cannot read the node comment at \"%1\"").arg(text::toQString(rest)));
    }
    if (spec.description.isEmpty())
        spec.description = spec.name;  // ibsim uses the node id as NodeDescription

    if (m_preamble.hasGuid && type == NodeType::Switch) {
        // ibdiagnet's database gives the system GUID as "switchguid" (it equals sysimgguid, or
        // another switch of the same system has it already); the node id then carries the
        // switch's own GUID, which is the one the fabric knows it by (a director's switches
        // share one system GUID).
        std::uint64_t fromName = 0;
        const QByteArray name = spec.name.toLatin1();
        if (name.size() == 18 && name.startsWith("S-") && text::parseUInt(std::string_view(name.constData() + 2, 16), 16, &fromName)
            && fromName != 0 && fromName != m_preamble.guid && m_builder.nodeByGuid(fromName) == kNoIndex
            && (m_preamble.systemImageGuid == m_preamble.guid || m_builder.nodeByGuid(m_preamble.guid) != kNoIndex)) {
            if (!m_preamble.systemImageGuid)
                m_preamble.systemImageGuid = m_preamble.guid;
            m_preamble.guid = fromName;
            m_preamble.port0Guid = 0;
            m_ibdiagnet = true;
        }
    }
    if (!m_preamble.hasGuid) {
        m_ibsim = true;
        // ibnetdiscover ids carry the GUID ("S-0002c90200400a2c"); plain ibsim net files give
        // none, and ibsim numbers such nodes itself, which is mirrored here so that a net file
        // read by Weft has the GUIDs the simulator will report.
        std::uint64_t fromName = 0;
        const QByteArray name = spec.name.toLatin1();
        if (name.size() == 18 && name[1] == '-' && text::parseUInt(std::string_view(name.constData() + 2, 16), 16, &fromName)
            && fromName != 0) {
            m_preamble.guid = fromName;
        } else {
            m_preamble.guid = m_nextGuid[int(type)];
        }
    }
    m_nextGuid[int(type)] = m_preamble.guid + (type == NodeType::Switch ? 1 : Guid(ports) + 1);
    spec.guid = m_preamble.guid;
    spec.vendorId = m_preamble.vendorId;
    spec.deviceId = m_preamble.deviceId;
    spec.systemImageGuid = m_preamble.systemImageGuid;
    check(m_builder.addNode(spec, &m_current));
    m_nodeLines.push_back(m_in.lineNumber());
    if (!m_chassis.isEmpty())
        m_builder.addToGroup(m_chassis, m_chassisGuid, m_current);
    if (type == NodeType::Switch) {
        if (m_preamble.port0Guid && m_preamble.port0Guid != spec.guid)
            setPortGuid(m_current, 0, m_preamble.port0Guid, m_in.lineNumber());
        setLid(0, lid, lmc);
        check(m_builder.setPortState(m_current, 0, PortState::Active));
    }
    m_preamble = NodePreamble{};
}

void TopologyParser::setLid(int port, int lid, int lmc)
{
    check(m_builder.setPortLid(m_current, port, Lid(lid), lmc));
    if (lid == 0)
        return;
    const QString &name = m_builder.node(m_current).name;
    const int top = lid + (1 << lmc) - 1;
    if (top > kMaxUnicastLid)
        m_in.fail(QStringLiteral("LID range %1-%2 of \"%3\" port %4 leaves the unicast range (1-%5)")
                      .arg(lid)
                      .arg(top)
                      .arg(name)
                      .arg(port)
                      .arg(kMaxUnicastLid));
    if (m_ownerOfLid.empty())
        m_ownerOfLid.assign(std::size_t(kMaxUnicastLid) + 1, -1);
    for (int l = lid; l <= top; ++l) {
        const int owner = m_ownerOfLid[std::size_t(l)];
        if (owner < 0)
            continue;
        const LidOwner &o = m_lidOwners[std::size_t(owner)];
        if (o.node == m_current && o.port == port)
            continue;  // the same port stated again
        m_in.fail(QStringLiteral("LID %1 is used twice: by \"%2\" port %3 (line %4) and by \"%5\" port %6")
                      .arg(l)
                      .arg(m_builder.node(o.node).name)
                      .arg(o.port)
                      .arg(o.line)
                      .arg(name)
                      .arg(port));
    }
    m_lidOwners.push_back(LidOwner{m_current, port, m_in.lineNumber()});
    for (int l = lid; l <= top; ++l)
        m_ownerOfLid[std::size_t(l)] = int(m_lidOwners.size()) - 1;
}

void TopologyParser::linkProperties(std::string_view comment, int port)
{
    // The tail "lid N 4xQDR": the peer's LID, then width and speed.
    const std::size_t at = comment.rfind(" lid ");
    std::string_view s = at == std::string_view::npos ? comment : comment.substr(at);
    int peerLid = 0;
    if (!lidAndLmc(s, &peerLid, nullptr))
        return;
    s = trimmed(s);
    if (startsWith(s, "??"))
        return;  // ibnetdiscover's mark for a width it could not name
    const std::size_t x = s.find('x');
    const std::size_t end = s.find(' ');
    if (x == std::string_view::npos || (end != std::string_view::npos && x > end))
        m_in.fail(QStringLiteral("cannot read the link width and speed \"%1\"").arg(text::toQString(s)));
    const auto width = number(s.substr(0, x), 10, "link width");
    if (width != 1 && width != 2 && width != 4 && width != 8 && width != 12)
        m_in.fail(QStringLiteral("link width %1x is not 1x, 2x, 4x, 8x or 12x").arg(width));
    const QString speedName = text::toQString(s.substr(x + 1, end == std::string_view::npos ? std::string_view::npos : end - x - 1));
    const LinkSpeed speed = linkSpeedFromName(speedName);
    if (speed == LinkSpeed::Unknown && speedName != QLatin1String("???"))
        m_in.fail(QStringLiteral("unknown link speed \"%1\"").arg(speedName));
    check(m_builder.setPortLink(m_current, port, int(width), speed));
}

void TopologyParser::parsePortLine(std::string_view line)
{
    if (m_current == kNoIndex)
        m_in.fail(QStringLiteral("port line before any node header"));
    const Node &node = m_builder.node(m_current);

    // [1](8f10403961355) 	"S-0008f10400410015"[6]		# lid 16 lmc 1 "desc" lid 3 4xSDR
    std::size_t close = line.find(']');
    if (close == std::string_view::npos)
        m_in.fail(QStringLiteral("unterminated \"[\" in port line"));
    const auto port = int(number(line.substr(1, close - 1), 10, "port number", 0, 254));
    if (port < 1 || port > node.portCount)
        m_in.fail(QStringLiteral("\"%1\" has no port %2 (it has ports 1-%3)").arg(node.name).arg(port).arg(node.portCount));
    std::string_view rest = line.substr(close + 1);
    if (startsWith(rest, "[ext ")) {  // grouped output; the external number is only a label
        if (auto e = rest.find(']'); e != std::string_view::npos)
            rest.remove_prefix(e + 1);
    }
    if (node.type == NodeType::Switch)
        skipPortLabel(rest, port);
    if (startsWith(rest, "(")) {
        close = rest.find(')');
        if (close == std::string_view::npos)
            m_in.fail(QStringLiteral("unterminated \"(\" after the port number"));
        if (node.type == NodeType::Switch)
            m_in.fail(QStringLiteral("a switch port line does not carry a port GUID"));
        setPortGuid(m_current, port, guid(rest.substr(1, close - 1)), m_in.lineNumber());
        rest.remove_prefix(close + 1);
    }
    rest = trimmed(rest);
    if (rest.empty() || rest.front() != '"')
        m_in.fail(QStringLiteral("port %1: expected the quoted id of the node it is cabled to").arg(port));
    close = rest.find('"', 1);
    if (close == std::string_view::npos)
        m_in.fail(QStringLiteral("unterminated remote node id"));
    PendingLink link{m_current, port, text::toQString(rest.substr(1, close - 1)), 0, 0, m_in.lineNumber()};
    rest = rest.substr(close + 1);
    if (!startsWith(rest, "["))
        m_in.fail(QStringLiteral("port %1: expected [port] after the remote node id").arg(port));
    close = rest.find(']');
    if (close == std::string_view::npos)
        m_in.fail(QStringLiteral("unterminated \"[\" after the remote node id"));
    link.remotePort = int(number(rest.substr(1, close - 1), 10, "remote port number", 1, 254));
    rest = trimmed(rest.substr(close + 1));
    if (startsWith(rest, "[ext ")) {
        if (auto e = rest.find(']'); e != std::string_view::npos)
            rest = trimmed(rest.substr(e + 1));
    }
    if (skipPortLabel(rest, link.remotePort))
        rest = trimmed(rest);
    if (startsWith(rest, "(")) {
        close = rest.find(')');
        if (close == std::string_view::npos)
            m_in.fail(QStringLiteral("unterminated \"(\" after the remote port"));
        link.remotePortGuid = guid(rest.substr(1, close - 1));
        rest = trimmed(rest.substr(close + 1));
    }
    check(m_builder.setPortState(m_current, port, PortState::Active));
    // ibsim's per-port options ("w=12", "s=4", "e=1") may follow the remote port.
    while (!rest.empty() && rest.front() != '#') {
        const std::size_t end = std::min(rest.find_first_of(" \t"), rest.size());
        const std::string_view option = rest.substr(0, end);
        m_ibsim = true;
        if (option.size() < 3 || option[1] != '=' || std::string_view("wse").find(option[0]) == std::string_view::npos)
            m_in.fail(QStringLiteral("unexpected text \"%1\"").arg(text::toQString(option)));
        const auto value = number(option.substr(2), 0, "port option");
        if (option[0] == 'w' && value != 1 && value != 2 && value != 4 && value != 8 && value != 12)
            m_in.fail(QStringLiteral("link width %1 is not 1, 2, 4, 8 or 12").arg(value));
        if (option[0] == 'w')
            check(m_builder.setPortLink(m_current, port, int(value), m_builder.port(m_current, port).speed));
        rest = trimmed(rest.substr(end));
    }
    if (!rest.empty()) {
        if (rest.front() != '#')
            m_in.fail(QStringLiteral("unexpected text \"%1\"").arg(text::toQString(rest)));
        std::string_view comment = trimmed(rest.substr(1));
        if (node.type != NodeType::Switch) {
            int lid = 0;
            int lmc = 0;
            std::string_view own = comment;
            if (lidAndLmc(own, &lid, &lmc))
                setLid(port, lid, lmc);
        }
        linkProperties(comment, port);
    }
    m_links.push_back(std::move(link));
}

Fabric TopologyParser::parse()
{
    while (m_in.next()) {
        const std::string_view line = trimmed(m_in.line());
        if (!line.empty() && line.front() == '#' && m_toolVersion.isEmpty() && m_in.lineNumber() <= 64)
            m_toolVersion = toolVersionIn(line);
        if (line.empty() || line.front() == '#')
            continue;
        if (line.front() == '[') {
            parsePortLine(line);
            continue;
        }
        struct Header { const char *word; NodeType type; };
        static constexpr Header kHeaders[] = {
            {"Switch", NodeType::Switch}, {"Hca", NodeType::ChannelAdapter},
            {"Ca", NodeType::ChannelAdapter}, {"Rt", NodeType::Router},
        };
        bool header = false;
        for (const Header &h : kHeaders) {
            const std::size_t n = std::strlen(h.word);
            if (startsWith(line, h.word) && line.size() > n && (line[n] == ' ' || line[n] == '\t')) {
                parseNodeHeader(line, h.type, n);
                header = true;
                break;
            }
        }
        if (header)
            continue;
        // ibnetdiscover -g: chassis headers open a group, "Non-Chassis Nodes" closes it; a
        // Xsigo chassis's "Hostname:" line and rules of dashes carry nothing the model keeps.
        if (startsWith(line, "Chassis ")) {
            parseChassisHeader(line);
            continue;
        }
        if (line == "Non-Chassis Nodes") {
            m_grouped = true;
            m_chassis.clear();
            m_chassisGuid = 0;
            continue;
        }
        if (startsWith(line, "Hostname: ") || isRule(line))
            continue;
        const std::size_t eq = line.find('=');
        if (eq == std::string_view::npos) {
            const std::size_t word = line.find_first_of(" \t");
            m_in.fail(QStringLiteral("unknown keyword \"%1\"").arg(text::toQString(line.substr(0, word))));
        }
        std::string_view value = trimmed(line.substr(eq + 1));
        if (auto hash = value.find('#'); hash != std::string_view::npos)
            value = trimmed(value.substr(0, hash));
        parseKeyword(trimmed(line.substr(0, eq)), value);
    }
    if (m_preamble.hasGuid)
        m_in.fail(QStringLiteral("file ends after a GUID line without its node header (truncated?)"));

    // A loopback cable (two ports of one node joined) exists in real fabrics and OpenSM routes
    // around it, but in a file it is far more often a mistyped id: it is taken only as
    // ibnetdiscover prints one, stated from both of its ends.
    std::unordered_set<std::uint64_t> loopbackEnds;
    auto loopbackKey = [](NodeIndex node, int from, int to) { return std::uint64_t(node) << 16 | std::uint64_t(from) << 8 | std::uint64_t(to); };
    for (const PendingLink &link : m_links)
        if (m_builder.node(link.node).name == link.remoteName)
            loopbackEnds.insert(loopbackKey(link.node, link.port, link.remotePort));
    for (const PendingLink &link : m_links) {
        const NodeIndex remote = m_builder.nodeByName(link.remoteName);
        if (remote == kNoIndex)
            throw InputError{link.line, QStringLiteral("port %1 is cabled to \"%2\", which the file does not define")
                                            .arg(link.port).arg(link.remoteName)};
        if (link.remotePort > m_builder.node(remote).portCount)
            throw InputError{link.line, QStringLiteral("port %1 is cabled to port %2 of \"%3\", which has %4 ports")
                                            .arg(link.port).arg(link.remotePort).arg(link.remoteName)
                                            .arg(m_builder.node(remote).portCount)};
        if (remote == link.node && link.remotePort != link.port && !loopbackEnds.count(loopbackKey(remote, link.remotePort, link.port)))
            throw InputError{link.line, QStringLiteral("port %1 is cabled to port %2 of its own node \"%3\", and port %2 is not stated "
                                                       "cabled back: a loopback cable is taken only from both of its ends")
                                            .arg(link.port)
                                            .arg(link.remotePort)
                                            .arg(link.remoteName)};
        if (QString e = m_builder.connect(link.node, link.port, remote, link.remotePort); !e.isEmpty())
            throw InputError{link.line, e};
        // The GUID the CA's own record gave (if any) is the one a duplicate is blamed on.
        if (link.remotePortGuid && m_builder.node(remote).type != NodeType::Switch) {
            if (QString e = m_builder.setPortGuid(remote, link.remotePort, link.remotePortGuid); !e.isEmpty())
                throw InputError{link.line, e};
            m_portGuidLines.emplace(std::uint32_t(remote) << 8 | std::uint32_t(link.remotePort), link.line);
        }
    }
    FabricBuilder::Culprit culprit;
    Result<Fabric> built = std::move(m_builder).build(&culprit);
    if (!built) {
        // Point at the line that gave the port its GUID or LID, else at its node's header.
        int line = 0;
        if (culprit.node != kNoIndex) {
            const auto given = m_portGuidLines.find(std::uint32_t(culprit.node) << 8 | std::uint32_t(culprit.port));
            line = given != m_portGuidLines.end() ? given->second : m_nodeLines[std::size_t(culprit.node)];
        }
        throw InputError{line, built.error().message};
    }
    return std::move(built).value();
}

}  // namespace

Result<Fabric> readTopology(const QByteArray &data, const QString &fileName, TopologyFileInfo *info)
{
    if (isIbdiagnetLinkList(data))
        return readIbdiagnetLinkList(data, fileName, info);
    TextReader reader(data, fileName);
    try {
        TopologyParser parser(reader);
        Fabric fabric = parser.parse();
        if (fabric.nodes().empty())
            return Error{fileName, 0, QStringLiteral("no nodes: this is not a topology file")};
        if (info)
            *info = parser.info();
        return fabric;
    } catch (const InputError &e) {
        return reader.error(e);
    }
}

Result<Fabric> readTopologyFile(const QString &path, TopologyFileInfo *info)
{
    Result<QByteArray> data = TextReader::readFile(path);
    if (!data)
        return data.error();
    return readTopology(*data, path, info);
}

namespace {

QByteArray hex(Guid g)
{
    return QByteArray::number(qulonglong(g), 16);
}

QByteArray nodeId(const Node &n)
{
    const char prefix = n.type == NodeType::Switch ? 'S' : n.type == NodeType::Router ? 'R' : 'H';
    return '"' + QByteArray(1, prefix) + '-' + guidDigits(n.guid).toLatin1() + '"';
}

QByteArray linkText(const Port &p)
{
    if (p.width == 0)
        return QByteArrayLiteral("???");
    return QByteArray::number(p.width) + 'x' + linkSpeedName(p.speed).toLatin1();
}

// The LID ibnetdiscover shows for the far end of a link: a switch's port-0 LID, else the port's.
Lid shownLid(const Fabric &f, const Port &p)
{
    const Node &n = f.node(p.node);
    return n.type == NodeType::Switch ? f.port(n.firstPort).lid : p.lid;
}

// A description as it can stand between quotes on one line: the reader takes the text up to
// the last quote, so quotes inside are fine, but a line break would split the line.
QByteArray descriptionText(const Node &n)
{
    return text::withoutControlCharacters(n.description).toUtf8();
}

// An ibsim node id is read up to the next quote; a name that could not be read back is
// replaced by the GUID-based id.
bool isWritableNodeId(const QString &name)
{
    return !name.isEmpty() && !name.contains(QLatin1Char('"')) && text::withoutControlCharacters(name) == name;
}

void writeIds(QByteArray &out, const Node &n)
{
    out += "\nvendid=0x" + QByteArray::number(n.vendorId, 16) + '\n';
    out += "devid=0x" + QByteArray::number(n.deviceId, 16) + '\n';
    if (n.systemImageGuid)
        out += "sysimgguid=0x" + hex(n.systemImageGuid) + '\n';
}

// Writes in ibnetdiscover's form; ids are "S-<guid>" (ibnetdiscover) or the node's name (ibsim).
void writeNodes(QByteArray &out, const Fabric &f, bool ibnetdiscoverIds, const std::vector<NodeIndex> &order)
{
    auto id = [&](const Node &n) {
        return ibnetdiscoverIds || !isWritableNodeId(n.name) ? nodeId(n) : '"' + n.name.toUtf8() + '"';
    };
    for (NodeIndex ni : order) {
        const Node &n = f.node(ni);
        writeIds(out, n);
        if (n.type == NodeType::Switch) {
            const Port &p0 = f.port(n.firstPort);
            out += "switchguid=0x" + hex(n.guid) + '(' + hex(p0.guid) + ")\n";
            out += "Switch\t" + QByteArray::number(n.portCount) + ' ' + id(n) + "\t\t# \"" + descriptionText(n)
                + "\" " + (n.enhancedPort0 ? "enhanced" : "base") + " port 0 lid " + QByteArray::number(p0.lid)
                + " lmc " + QByteArray::number(p0.lmc) + '\n';
            for (int i = 1; i <= n.portCount; ++i) {
                const Port &p = f.port(n.firstPort + i);
                if (p.remote == kNoIndex)
                    continue;
                const Port &r = f.port(p.remote);
                const Node &rn = f.node(r.node);
                out += '[' + QByteArray::number(i) + "]\t" + id(rn) + '[' + QByteArray::number(r.number) + ']';
                if (rn.type != NodeType::Switch)
                    out += '(' + hex(r.guid) + ") ";
                out += "\t\t# \"" + descriptionText(rn) + "\" lid " + QByteArray::number(shownLid(f, r)) + ' '
                    + linkText(p) + '\n';
            }
        } else {
            out += (n.type == NodeType::Router ? "rtguid=0x" : "caguid=0x") + hex(n.guid) + '\n';
            out += (n.type == NodeType::Router ? "Rt\t" : "Ca\t") + QByteArray::number(n.portCount) + ' ' + id(n)
                + "\t\t# \"" + descriptionText(n) + "\"\n";
            for (int i = 1; i <= n.portCount; ++i) {
                const Port &p = f.port(n.firstPort + i);
                if (p.remote == kNoIndex)
                    continue;
                const Port &r = f.port(p.remote);
                const Node &rn = f.node(r.node);
                out += '[' + QByteArray::number(i) + "](" + hex(p.guid) + ") \t" + id(rn) + '['
                       + QByteArray::number(r.number) + ']';
                if (rn.type != NodeType::Switch)
                    out += " (" + hex(r.guid) + ") ";
                out += "\t\t# lid " + QByteArray::number(p.lid) + " lmc " + QByteArray::number(p.lmc) + " \""
                    + descriptionText(rn) + "\" lid " + QByteArray::number(shownLid(f, r)) + ' ' + linkText(p)
                    + '\n';
            }
        }
    }
}

}  // namespace

QByteArray writeIbnetdiscover(const Fabric &fabric, const TopologyWriteOptions &options)
{
    QByteArray out;
    out.reserve(qsizetype(fabric.ports().size()) * 90);
    NodeIndex from = options.initiatedFrom;
    if (from == kNoIndex)
        from = fabric.endNodes().empty() ? (fabric.nodes().empty() ? kNoIndex : 0) : fabric.endNodes().front();
    out += "#\n# Topology file: generated ";
    out += options.generatedBy.isEmpty() ? QByteArrayLiteral("by weft") : options.generatedBy.toUtf8();
    out += "\n#\n";
    if (from != kNoIndex) {
        const Node &n = fabric.node(from);
        const Guid portGuid = fabric.port(n.type == NodeType::Switch ? n.firstPort : n.firstPort + 1).guid;
        out += "# Initiated from node " + guidDigits(n.guid).toLatin1() + " port " + guidDigits(portGuid).toLatin1() + '\n';
    }
    std::vector<NodeIndex> order = fabric.switches();
    order.insert(order.end(), fabric.endNodes().begin(), fabric.endNodes().end());
    writeNodes(out, fabric, true, order);
    return out;
}

QByteArray writeIbsimNet(const Fabric &fabric, NodeIndex smNode)
{
    QByteArray out = "# ibsim net file written by weft\n"
                     "# The first node is where ibsim attaches the subnet manager.\n";
    std::vector<NodeIndex> order;
    order.reserve(fabric.nodes().size());
    if (smNode != kNoIndex)
        order.push_back(smNode);
    for (NodeIndex i = 0; i < NodeIndex(fabric.nodes().size()); ++i)
        if (i != smNode)
            order.push_back(i);
    writeNodes(out, fabric, false, order);
    return out;
}

}  // namespace weft
