#include "IbdiagnetLinkList.h"

#include "TextReader.h"

#include <unordered_map>

namespace weft {

namespace {

using text::startsWith;
using text::trimmed;

struct End
{
    NodeType type = NodeType::ChannelAdapter;
    int ports = 0;
    Guid systemGuid = 0;
    Guid nodeGuid = 0;
    Guid portGuid = 0;
    std::uint32_t vendorId = 0;
    std::uint32_t deviceId = 0;
    QString description;
    Lid lid = 0;
    int port = 0;
};

class LinkListParser
{
public:
    explicit LinkListParser(TextReader &in)
        : m_in(in) {}

    Fabric parse();

private:
    std::string_view word(std::string_view &s) const
    {
        s = trimmed(s);
        const std::size_t end = std::min(s.find_first_of(" \t"), s.size());
        const std::string_view w = s.substr(0, end);
        s.remove_prefix(end);
        return w;
    }
    std::uint64_t field(std::string_view &s, std::string_view key, const char *what, std::uint64_t max) const
    {
        const std::string_view w = word(s);
        if (!startsWith(w, key))
            m_in.fail(QStringLiteral("expected %1 where the line has \"%2\"").arg(text::toQString(key), text::toQString(w)));
        return m_in.number(w.substr(key.size()), 16, QLatin1String(what), 0, max);
    }
    End end(std::string_view &s) const;
    NodeIndex node(const End &e, bool linkUp);

    TextReader &m_in;
    FabricBuilder m_builder;
    std::unordered_map<Guid, NodeIndex> m_nodes;
    std::unordered_map<Guid, int> m_nodeLines;
};

End LinkListParser::end(std::string_view &s) const
{
    s = trimmed(s);
    if (!startsWith(s, "{"))
        m_in.fail(QStringLiteral("expected \"{\" opening a port of the link"));
    s.remove_prefix(1);
    End e;
    const std::string_view type = word(s);
    if (type == "SW")
        e.type = NodeType::Switch;
    else if (type == "CA")
        e.type = NodeType::ChannelAdapter;
    else if (type == "RT")
        e.type = NodeType::Router;
    else
        m_in.fail(QStringLiteral("unknown node type \"%1\" (SW, CA or RT)").arg(text::toQString(type)));
    e.ports = int(field(s, "Ports:", "port count", 254));
    if (e.ports < 1)
        m_in.fail(QStringLiteral("a node has 1 to 254 ports, not 0"));
    e.systemGuid = field(s, "SystemGUID:", "system GUID", UINT64_MAX);
    e.nodeGuid = field(s, "NodeGUID:", "node GUID", UINT64_MAX);
    e.portGuid = field(s, "PortGUID:", "port GUID", UINT64_MAX);
    if (e.nodeGuid == 0 || e.portGuid == 0)
        m_in.fail(QStringLiteral("GUID 0 is not a valid GUID"));
    e.vendorId = std::uint32_t(field(s, "VenID:", "vendor ID", 0xffffffff) & 0xffffff);
    {
        // Old files wrote the 16-bit device ID with four zeros after it.
        std::string_view w = word(s);
        if (!startsWith(w, "DevID:"))
            m_in.fail(QStringLiteral("expected DevID: where the line has \"%1\"").arg(text::toQString(w)));
        w.remove_prefix(6);
        if (w.size() == 8)
            w = w.substr(0, 4);
        e.deviceId = std::uint32_t(m_in.number(w, 16, QStringLiteral("device ID"), 0, 0xffff));
    }
    field(s, "Rev:", "revision", UINT64_MAX);
    s = trimmed(s);
    if (startsWith(s, "{")) {
        const std::size_t close = s.find('}');
        if (close == std::string_view::npos)
            m_in.fail(QStringLiteral("unterminated node description"));
        e.description = text::withoutControlCharacters(text::toQString(trimmed(s.substr(1, close - 1))));
        s.remove_prefix(close + 1);
    }
    e.lid = Lid(field(s, "LID:", "LID", kMaxUnicastLid));
    e.port = int(field(s, "PN:", "port number", 254));
    if (e.port < 1 || e.port > e.ports)
        m_in.fail(QStringLiteral("port %1 of node %2, which has ports 1-%3").arg(e.port).arg(guidText(e.nodeGuid)).arg(e.ports));
    s = trimmed(s);
    if (!startsWith(s, "}"))
        m_in.fail(QStringLiteral("expected \"}\" closing the port of node %1").arg(guidText(e.nodeGuid)));
    s.remove_prefix(1);
    return e;
}

// A CA's port takes the port GUID and LID the line gives only where its link is up: a port on a
// DWN line has no LID of its own (ibdiagnet writes 0 or what the port held before), and no
// topology written from this fabric could state either for a port without a cable.
NodeIndex LinkListParser::node(const End &e, bool linkUp)
{
    auto found = m_nodes.find(e.nodeGuid);
    NodeIndex n;
    if (found != m_nodes.end()) {
        n = found->second;
        const Node &known = m_builder.node(n);
        if (known.type != e.type || known.portCount != e.ports)
            m_in.fail(QStringLiteral("node %1 is a %2 of %3 ports on line %4 and a %5 of %6 ports here")
                          .arg(guidText(e.nodeGuid), nodeTypeName(known.type))
                          .arg(known.portCount)
                          .arg(m_nodeLines[e.nodeGuid])
                          .arg(nodeTypeName(e.type))
                          .arg(e.ports));
    } else {
        FabricBuilder::NodeSpec spec;
        spec.type = e.type;
        spec.guid = e.nodeGuid;
        spec.portCount = e.ports;
        spec.name = liveNodeName(e.type, e.nodeGuid);
        spec.description = e.description.isEmpty() ? spec.name : e.description;
        spec.systemImageGuid = e.systemGuid;
        spec.vendorId = e.vendorId;
        spec.deviceId = e.deviceId;
        if (QString err = m_builder.addNode(spec, &n); !err.isEmpty())
            m_in.fail(err);
        m_nodes.emplace(e.nodeGuid, n);
        m_nodeLines.emplace(e.nodeGuid, m_in.lineNumber());
        if (e.type == NodeType::Switch) {
            if (e.portGuid != e.nodeGuid)
                if (QString err = m_builder.setPortGuid(n, 0, e.portGuid); !err.isEmpty())
                    m_in.fail(err);
            if (QString err = m_builder.setPortLid(n, 0, e.lid, 0); !err.isEmpty())
                m_in.fail(err);
            m_builder.setPortState(n, 0, PortState::Active);
        }
    }
    if (e.type != NodeType::Switch && linkUp) {
        const Port &p = m_builder.port(n, e.port);
        if (p.guid != e.portGuid)
            if (QString err = m_builder.setPortGuid(n, e.port, e.portGuid); !err.isEmpty())
                m_in.fail(err);
        if (QString err = m_builder.setPortLid(n, e.port, e.lid, 0); !err.isEmpty())
            m_in.fail(err);
    }
    return n;
}

LinkSpeed speedOf(std::string_view s)
{
    struct Rate
    {
        const char *text;
        LinkSpeed speed;
    };
    static constexpr Rate kRates[] = {{"2.5", LinkSpeed::SDR}, {"5", LinkSpeed::DDR}, {"10", LinkSpeed::QDR}, {"14", LinkSpeed::FDR}, {"25", LinkSpeed::EDR}, {"50", LinkSpeed::HDR}, {"100", LinkSpeed::NDR}, {"200", LinkSpeed::XDR}, {"FDR10", LinkSpeed::FDR10}};
    for (const Rate &r : kRates)
        if (s == r.text)
            return r.speed;
    return linkSpeedFromName(text::toQString(s));
}

Fabric LinkListParser::parse()
{
    while (m_in.next()) {
        std::string_view line = trimmed(m_in.line());
        if (line.empty() || line.front() == '#')
            continue;
        const End a = end(line);
        const End b = end(line);
        int width = 0;
        LinkSpeed speed = LinkSpeed::Unknown;
        bool active = true;
        for (std::string_view w = word(line); !w.empty(); w = word(line)) {
            if (startsWith(w, "PHY=")) {
                const std::string_view v = w.substr(4);
                if (v.empty() || v.back() != 'x')
                    m_in.fail(QStringLiteral("cannot read the link width \"%1\"").arg(text::toQString(v)));
                width = int(m_in.number(v.substr(0, v.size() - 1), 10, QStringLiteral("link width"), 1, 12));
                if (width != 1 && width != 2 && width != 4 && width != 8 && width != 12)
                    m_in.fail(QStringLiteral("link width %1x is not 1x, 2x, 4x, 8x or 12x").arg(width));
            } else if (startsWith(w, "LOG=")) {
                const std::string_view v = w.substr(4);
                active = startsWith(v, "ACT") || startsWith(v, "INI") || startsWith(v, "ARM");
            } else if (startsWith(w, "SPD=")) {
                speed = speedOf(w.substr(4));
                if (speed == LinkSpeed::Unknown && w.substr(4) != "?")
                    m_in.fail(QStringLiteral("unknown link speed \"%1\"").arg(text::toQString(w.substr(4))));
            } else {
                m_in.fail(QStringLiteral("unexpected text \"%1\" after the link's ports").arg(text::toQString(w)));
            }
        }
        const NodeIndex na = node(a, active);
        const NodeIndex nb = node(b, active);
        if (!active)
            continue;
        if (na == nb && a.port == b.port)
            m_in.fail(QStringLiteral("port %1 of node %2 is cabled to itself").arg(a.port).arg(guidText(a.nodeGuid)));
        if (QString err = m_builder.connect(na, a.port, nb, b.port); !err.isEmpty())
            m_in.fail(err);
        for (const auto &[n, port] : {std::pair{na, a.port}, std::pair{nb, b.port}}) {
            m_builder.setPortState(n, port, PortState::Active);
            if (width)
                m_builder.setPortLink(n, port, width, speed);
        }
    }
    FabricBuilder::Culprit culprit;
    Result<Fabric> built = std::move(m_builder).build(&culprit);
    if (!built) {
        int line = 0;
        if (culprit.node != kNoIndex)
            for (const auto &[guid, n] : m_nodes)
                if (n == culprit.node)
                    line = m_nodeLines[guid];
        throw InputError{line, built.error().message};
    }
    return std::move(built).value();
}

}  // namespace

bool isIbdiagnetLinkList(const QByteArray &data)
{
    const std::string_view all = text::withoutByteOrderMark(std::string_view(data.constData(), std::size_t(data.size())));
    std::size_t pos = 0;
    for (int lines = 0; pos < all.size() && lines < 200; ++lines) {
        std::size_t end = all.find('\n', pos);
        if (end == std::string_view::npos)
            end = all.size();
        const std::string_view line = trimmed(all.substr(pos, end - pos));
        pos = end + 1;
        if (line.empty() || line.front() == '#')
            continue;
        return startsWith(line, "{") && line.find("Ports:") != std::string_view::npos && line.find("NodeGUID:") != std::string_view::npos;
    }
    return false;
}

Result<Fabric> readIbdiagnetLinkList(const QByteArray &data, const QString &fileName, TopologyFileInfo *info)
{
    TextReader reader(data, fileName);
    try {
        LinkListParser parser(reader);
        Fabric fabric = parser.parse();
        if (fabric.nodes().empty())
            return Error{fileName, 0, QStringLiteral("no links: this is not an ibdiagnet link listing")};
        if (info) {
            *info = TopologyFileInfo{};
            info->form = QStringLiteral("ibdiagnet .lst");
        }
        return fabric;
    } catch (const InputError &e) {
        return reader.error(e);
    }
}

}  // namespace weft
