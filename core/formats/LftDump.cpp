#include "LftDump.h"

#include "FileDigest.h"

#include <algorithm>

#include "SafeFile.h"
#include "TextReader.h"

#include <QFile>

#include <cctype>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string_view>

namespace weft {

namespace {

using std::string_view;

constexpr string_view kUnicastHeader = "Unicast lids";
constexpr string_view kMulticastHeader = "Multicast mlids";
constexpr string_view kGuidMarker = " guid 0x";
constexpr string_view kPortGuidMarker = " portguid 0x";
// The two column-title lines ibroute prints under each switch header.
constexpr string_view kColumnTitle1 = "Lid  Out   Destination";
constexpr string_view kColumnTitle2 = "Port     Info";
// dump_lfts, the deprecated wrapper, appends a warning after dump_fts's output.
constexpr string_view kWrapperWarning = "*** WARNING ***";

bool isSpace(char c)
{
    return c == ' ' || c == '\t';
}

QString hexLid(unsigned lid)
{
    return QStringLiteral("0x%1").arg(lid, 4, 16, QLatin1Char('0'));
}

// Quoted for a message, cut short so that a long line does not drown the message.
QString quoted(string_view s)
{
    constexpr std::size_t kMax = 60;
    QString text = text::toQString(s.substr(0, kMax));
    if (s.size() > kMax)
        text += QStringLiteral("...");
    return QLatin1Char('"') + text + QLatin1Char('"');
}

// The run of characters up to the next blank (or the end).
string_view token(string_view s)
{
    std::size_t n = 0;
    while (n < s.size() && !isSpace(s[n]))
        ++n;
    return s.substr(0, n);
}

string_view skipSpace(string_view s)
{
    while (!s.empty() && isSpace(s.front()))
        s.remove_prefix(1);
    return s;
}

bool endsWith(string_view s, string_view suffix)
{
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// One switch's part of the dump: header, entries, "N lids dumped".
struct Section
{
    std::size_t index = 0;
    Guid guid = 0;
    bool ibrouteStyle = false;  // "[0x..-0x..]": the footer counts the entry lines
    unsigned rangeFirst = 0;
    unsigned rangeLast = 0;
    int entryLines = 0;
    int portCount = -1;  // from the fabric; -1 when no fabric was given
    QString switchName;
    std::vector<bool> seen;  // LIDs listed so far, routed or not
    bool closed = false;
};

class Parser
{
public:
    explicit Parser(const Fabric *fabric) : m_fabric(fabric) {}

    // Parses the lines of `reader`, a part of the dump whose first line is line lineBase + 1 of
    // the file: a file is read a piece at a time, each piece ending at a line's end.
    void feed(TextReader &reader, int lineBase)
    {
        m_reader = &reader;
        m_lineBase = lineBase;
        for (;;) {
            try {
                if (!reader.next())
                    break;
            } catch (InputError &e) {
                e.line += lineBase;
                throw;
            }
            const string_view line = text::trimmed(reader.line());
            if (line.empty() || line.front() == '#')
                continue;
            if (text::startsWith(line, kMulticastHeader))
                fail(QStringLiteral("multicast dump, not a unicast LFT dump"));
            if (text::startsWith(line, kUnicastHeader))
                header(line);
            else if (text::startsWith(line, "0x"))
                entry(line);
            else if (line == kColumnTitle1 || line == kColumnTitle2 || text::startsWith(line, kWrapperWarning))
                continue;
            else if (!footer(line))
                fail(QStringLiteral("unrecognised line %1; expected a \"Unicast lids\" switch header, "
                                    "an entry \"0x<lid> <port>\" or \"<n> lids dumped\"")
                         .arg(quoted(line)));
        }
    }

    // After the last piece: the dump must have ended with a complete switch.
    ForwardingTables finish()
    {
        requireClosed();
        if (m_tables.isEmpty())
            throw InputError{0, QStringLiteral("no unicast LFTs: the file has no \"Unicast lids\" switch header")};
        return std::move(m_tables);
    }

private:
    int lineNumber() const { return m_lineBase + m_reader->lineNumber(); }
    [[noreturn]] void fail(const QString &message) const { throw InputError{lineNumber(), message}; }

    // Every section ends with "N lids dumped"; a missing one means the dump was cut short.
    void requireClosed() const
    {
        if (m_section && !m_section->closed)
            throw InputError{m_headerLines.back(),
                             QStringLiteral("switch %1 has no \"lids dumped\" line after its entries; "
                                            "the dump is truncated")
                                 .arg(guidText(m_section->guid))};
    }

    unsigned parseRangeBound(string_view s, string_view whole) const
    {
        std::uint64_t value = 0;
        if (!text::parseUInt(text::trimmed(s), 0, &value))
            fail(QStringLiteral("bad LID range %1 in switch header").arg(quoted(whole)));
        if (value > kMaxUnicastLid)
            fail(QStringLiteral("LID range %1 goes past the last unicast LID 0xbfff").arg(quoted(whole)));
        return unsigned(value);
    }

    void header(string_view line)
    {
        requireClosed();
        Section section;
        string_view rest = skipSpace(line.substr(kUnicastHeader.size()));

        // "[0x0-0x6]" (ibroute) or "[0-6]" (OpenSM)
        const std::size_t close = rest.find(']');
        if (rest.empty() || rest.front() != '[' || close == string_view::npos)
            fail(QStringLiteral("switch header has no LID range \"[first-last]\""));
        const string_view range = rest.substr(1, close - 1);
        const std::size_t dash = range.find('-');
        if (dash == string_view::npos)
            fail(QStringLiteral("bad LID range %1 in switch header").arg(quoted(range)));
        section.rangeFirst = parseRangeBound(range.substr(0, dash), range);
        section.rangeLast = parseRangeBound(range.substr(dash + 1), range);
        if (section.rangeFirst > section.rangeLast)
            fail(QStringLiteral("LID range %1 is empty: its first LID is past its last").arg(quoted(range)));
        section.ibrouteStyle = text::startsWith(text::trimmed(range), "0x");
        rest = skipSpace(rest.substr(close + 1));

        if (!text::startsWith(rest, "of switch"))
            fail(QStringLiteral("switch header has no \"of switch\" after the LID range"));
        rest.remove_prefix(string_view("of switch").size());
        const std::size_t guidAt = rest.find(kGuidMarker);
        if (guidAt == string_view::npos)
            fail(QStringLiteral("switch header has no switch GUID (\"guid 0x...\"); is it truncated?"));

        // Who ibroute addressed: "Lid 4", "DR path slid 0; dlid 0; 0,3", ... Only a LID is useful.
        Lid switchLid = 0;
        const string_view who = text::trimmed(rest.substr(0, guidAt));
        if (text::startsWith(who, "Lid ")) {
            std::uint64_t lid = 0;
            const string_view lidText = token(skipSpace(who.substr(4)));
            if (!text::parseUInt(lidText, 10, &lid) || lid > kMaxUnicastLid)
                fail(QStringLiteral("bad switch LID %1 in switch header").arg(quoted(lidText)));
            switchLid = Lid(lid);
        }

        rest = rest.substr(guidAt + kGuidMarker.size());
        const string_view guidToken = token(rest);
        std::uint64_t guid = 0;
        if (!text::parseUInt(guidToken, 16, &guid))
            fail(QStringLiteral("bad switch GUID \"0x%1\"").arg(text::toQString(guidToken)));
        if (guid == 0)
            fail(QStringLiteral("switch GUID is 0"));
        rest = text::trimmed(rest.substr(guidToken.size()));

        // "(Switch1):" from ibroute, "('Switch1'):" from OpenSM
        if (rest.empty() || rest.front() != '(' || !endsWith(rest, "):"))
            fail(QStringLiteral("switch header does not end with \"(description):\"; is it truncated?"));
        string_view description = rest.substr(1, rest.size() - 3);
        if (description.size() >= 2 && description.front() == '\'' && description.back() == '\'')
            description = description.substr(1, description.size() - 2);

        section.guid = guid;
        section.switchName = guidText(guid);
        QString descriptionText = text::toQString(description);
        if (m_fabric)
            checkSwitch(section, &switchLid, &descriptionText);

        const int index = m_tables.addSwitch(guid, switchLid, descriptionText);
        if (index < 0)
            fail(QStringLiteral("switch %1 appears twice (first at line %2)")
                     .arg(guidText(guid))
                     .arg(m_headerLines[std::size_t(m_tables.indexOf(guid))]));
        section.index = std::size_t(index);
        section.seen.assign(std::size_t(section.rangeLast) + 1, false);
        m_tables.lft(section.index).reserve(Lid(section.rangeLast));
        m_headerLines.push_back(lineNumber());
        m_section = std::move(section);
    }

    void checkSwitch(Section &section, Lid *switchLid, QString *description) const
    {
        const NodeIndex node = m_fabric->nodeByGuid(section.guid);
        if (node == kNoIndex)
            fail(QStringLiteral("unknown switch GUID %1: the fabric has no such node").arg(guidText(section.guid)));
        const Node &n = m_fabric->node(node);
        if (n.type != NodeType::Switch)
            fail(QStringLiteral("GUID %1 is %2 \"%3\" in the fabric, not a switch")
                     .arg(guidText(section.guid),
                          n.type == NodeType::Router ? QStringLiteral("router") : QStringLiteral("channel adapter"),
                          n.description.isEmpty() ? n.name : n.description));
        section.portCount = n.portCount;
        section.switchName = QStringLiteral("%1 (\"%2\")").arg(guidText(section.guid), n.description.isEmpty() ? n.name : n.description);
        if (*switchLid == 0)
            *switchLid = m_fabric->nodeLid(node);
        if (description->isEmpty())
            *description = n.description;
    }

    void entry(string_view line)
    {
        if (!m_section)
            fail(QStringLiteral("LFT entry before any \"Unicast lids\" switch header"));
        Section &section = *m_section;
        if (section.closed)
            fail(QStringLiteral("LFT entry after the \"lids dumped\" line of switch %1").arg(guidText(section.guid)));

        string_view rest = line.substr(2);
        const string_view lidText = token(rest);
        std::uint64_t lid = 0;
        if (!text::parseUInt(lidText, 16, &lid))
            fail(QStringLiteral("bad LID \"0x%1\"").arg(text::toQString(lidText)));
        if (lid > kMaxUnicastLid)
            fail(QStringLiteral("LID %1 is outside the unicast range 0x0001-0xbfff").arg(hexLid(unsigned(lid))));
        rest = skipSpace(rest.substr(lidText.size()));

        const string_view portText = token(rest);
        if (portText.empty())
            fail(QStringLiteral("entry for LID %1 has no out port").arg(hexLid(unsigned(lid))));
        std::uint64_t port = 0;
        if (!text::parseUInt(portText, 10, &port))
            fail(QStringLiteral("bad out port %1 for LID %2").arg(quoted(portText), hexLid(unsigned(lid))));
        if (port > kNoRoute)
            fail(QStringLiteral("out port %1 for LID %2 is out of range (0-254, or 255 for no route)")
                     .arg(port)
                     .arg(hexLid(unsigned(lid))));
        // Then the destination: ": (...)" (ibroute, the annotated form), nothing, or the compact
        // form's " portguid 0x...".
        const string_view afterPort = rest.substr(portText.size());
        rest = skipSpace(afterPort);
        if (!rest.empty() && rest.front() != ':' && rest.front() != '#' && !text::startsWith(rest, kPortGuidMarker.substr(1)))
            fail(QStringLiteral("unexpected text %1 after the out port of LID %2")
                     .arg(quoted(rest), hexLid(unsigned(lid))));
        checkPortGuid(afterPort, unsigned(lid));

        if (lid < section.rangeFirst || lid > section.rangeLast)
            fail(QStringLiteral("LID %1 is outside the switch header's range %2-%3")
                     .arg(hexLid(unsigned(lid)), hexLid(section.rangeFirst), hexLid(section.rangeLast)));
        if (section.seen[std::size_t(lid)])
            fail(QStringLiteral("LID %1 is listed twice for switch %2").arg(hexLid(unsigned(lid)), guidText(section.guid)));
        section.seen[std::size_t(lid)] = true;
        ++section.entryLines;

        if (port == kNoRoute)
            return;
        if (lid == 0)
            fail(QStringLiteral("LID 0x0000 is reserved and cannot be routed (port %1)").arg(port));
        if (section.portCount >= 0 && port > unsigned(section.portCount))
            fail(QStringLiteral("out port %1 for LID %2 is beyond switch %3, which has %4 ports")
                     .arg(port)
                     .arg(hexLid(unsigned(lid)), section.switchName)
                     .arg(section.portCount));
        m_tables.lft(section.index).setPort(Lid(lid), std::uint8_t(port));
    }

    // OpenSM uses the port GUID to follow renumbered LIDs; a damaged one would silently not.
    // With a fabric, the GUID must be one of its ports: OpenSM installs an entry for the LID its
    // GUID's port has when it loads the file, and a GUID the fabric lacks means the dump was made
    // for another fabric. (A GUID whose port has another LID now is a dump made before LIDs were
    // renumbered: OpenSM follows it, and so may a reader of the switches' own dump.)
    void checkPortGuid(string_view info, unsigned lid) const
    {
        const std::size_t at = info.find(kPortGuidMarker);
        if (at == string_view::npos)
            return;
        string_view hex = info.substr(at + kPortGuidMarker.size());
        std::size_t n = 0;
        while (n < hex.size() && std::isxdigit(static_cast<unsigned char>(hex[n])))
            ++n;
        const bool terminated = n == hex.size() || isSpace(hex[n]) || hex[n] == ':' || hex[n] == ')';
        std::uint64_t guid = 0;
        if (n == 0 || !terminated || !text::parseUInt(hex.substr(0, n), 16, &guid))
            fail(QStringLiteral("bad port GUID \"0x%1\"").arg(text::toQString(token(hex))));
        if (!m_fabric || guid == 0)
            return;
        // Every switch names the same GUID for a LID: it is looked up once per LID.
        if (m_checkedGuidOfLid.empty())
            m_checkedGuidOfLid.assign(std::size_t(kMaxUnicastLid) + 1, 0);
        Guid &checked = m_checkedGuidOfLid[lid <= kMaxUnicastLid ? lid : 0];
        if (checked == guid)
            return;
        if (m_fabric->portByGuid(guid) == kNoIndex)
            fail(QStringLiteral("the entry for LID %1 names port GUID %2, which the fabric does not have")
                     .arg(hexLid(lid), guidText(guid)));
        checked = guid;
    }

    // "6 valid lids dumped" (ibroute), "7 lids dumped" (ibroute -a), "6 lids dumped" (OpenSM).
    bool footer(string_view line)
    {
        const string_view countText = token(line);
        const string_view words = skipSpace(line.substr(countText.size()));
        if (words != "valid lids dumped" && words != "lids dumped")
            return false;
        std::uint64_t count = 0;
        if (!text::parseUInt(countText, 10, &count))
            fail(QStringLiteral("bad count %1 in \"lids dumped\" line").arg(quoted(countText)));
        if (!m_section || m_section->closed)
            fail(QStringLiteral("\"lids dumped\" line without a switch header before it"));
        Section &section = *m_section;
        // ibroute counts the entry lines it printed; OpenSM prints the last LID of its range.
        if (section.ibrouteStyle && count != std::uint64_t(section.entryLines))
            fail(QStringLiteral("switch %1 ends with \"%2 lids dumped\" but has %3 entries; "
                                "the dump is incomplete or was edited")
                     .arg(guidText(section.guid))
                     .arg(count)
                     .arg(section.entryLines));
        if (!section.ibrouteStyle && count != section.rangeLast)
            fail(QStringLiteral("switch %1 ends with \"%2 lids dumped\" but its header gives LIDs up to %3")
                     .arg(guidText(section.guid))
                     .arg(count)
                     .arg(section.rangeLast));
        section.closed = true;
        return true;
    }

    TextReader *m_reader = nullptr;
    int m_lineBase = 0;
    const Fabric *m_fabric;
    ForwardingTables m_tables;
    std::optional<Section> m_section;
    std::vector<int> m_headerLines;  // per switch index
    mutable std::vector<Guid> m_checkedGuidOfLid;  // by LID: a port GUID found in the fabric
};

const char *nodeTypeText(NodeType type)
{
    // As ibroute prints IB_NODE_TYPE_F.
    switch (type) {
    case NodeType::Switch:
        return "Switch";
    case NodeType::Router:
        return "Router";
    case NodeType::ChannelAdapter:
        break;
    }
    return "Channel Adapter";
}

// Per LID, what follows "0x0004 001" on its entry lines, line end included, computed once for all
// switches: " : (Channel Adapter portguid 0x...: 'desc')" annotated, " portguid 0x..." compact.
class DestinationInfo
{
public:
    DestinationInfo(const Fabric *fabric, LftDumpForm form, Lid top) : m_offsets(std::size_t(top) + 2, 0)
    {
        for (std::size_t lid = 0; lid <= top; ++lid) {
            m_offsets[lid] = m_text.size();
            describe(fabric, form, Lid(lid));
        }
        m_offsets[std::size_t(top) + 1] = m_text.size();
    }

    string_view forLid(Lid lid) const
    {
        return string_view(m_text).substr(m_offsets[lid], m_offsets[std::size_t(lid) + 1] - m_offsets[lid]);
    }

private:
    void describe(const Fabric *fabric, LftDumpForm form, Lid lid)
    {
        const PortIndex p = fabric ? fabric->portByLid(lid) : kNoIndex;
        if (p == kNoIndex) {
            m_text += form == LftDumpForm::Annotated ? " : (unknown node and type)\n" : "\n";
            return;
        }
        const Port &port = fabric->port(p);
        const Node &node = fabric->node(port.node);
        char buffer[64];
        std::snprintf(buffer, sizeof buffer, " portguid 0x%016" PRIx64, port.guid ? port.guid : node.guid);
        if (form == LftDumpForm::Compact) {
            m_text += buffer;
            m_text += '\n';
            return;
        }
        m_text += " : (";
        m_text += nodeTypeText(node.type);
        m_text += buffer;
        m_text += ": '";
        m_text += (node.description.isEmpty() ? node.name : node.description).toStdString();
        m_text += "')\n";
    }

    std::string m_text;
    std::vector<std::size_t> m_offsets;  // LID -> where its text starts in m_text
};

// An output buffer written through in pieces: with a sink, handed to it whenever it holds a few
// MB (bounded memory); without, kept whole.
class DumpBuffer
{
public:
    static constexpr qsizetype kChunk = qsizetype(4) << 20;

    DumpBuffer(const LftDumpSink *sink, qsizetype initial) : m_sink(sink) { m_data.resize(sink ? kChunk : initial); }

    // Room for n bytes at the returned pointer; commit() what was used.
    char *reserve(qsizetype n)
    {
        if (m_used + n > m_data.size())
            makeRoom(n);
        return m_data.data() + m_used;
    }
    void commit(qsizetype n) { m_used += n; }
    void append(string_view s)
    {
        std::memcpy(reserve(qsizetype(s.size())), s.data(), s.size());
        commit(qsizetype(s.size()));
    }

    // Hands the rest to the sink; false if the sink refused some piece.
    bool flush()
    {
        if (!m_sink)
            return true;
        if (m_ok && m_used > 0)
            m_ok = (*m_sink)(m_data.constData(), std::size_t(m_used));
        m_used = 0;
        return m_ok;
    }
    bool ok() const { return m_ok; }

    QByteArray take()
    {
        m_data.truncate(m_used);
        return std::move(m_data);
    }

private:
    void makeRoom(qsizetype n)
    {
        if (m_sink)
            flush();
        if (m_used + n > m_data.size())
            m_data.resize(std::max(m_data.size() * 2, m_used + n));
    }

    const LftDumpSink *m_sink;
    QByteArray m_data;
    qsizetype m_used = 0;
    bool m_ok = true;
};

// "0x%04x %03u" for a LID and an out port, without printf.
inline void formatEntryStart(char *out, unsigned lid, unsigned port)
{
    static constexpr char kHex[] = "0123456789abcdef";
    out[0] = '0';
    out[1] = 'x';
    out[2] = kHex[(lid >> 12) & 0xf];
    out[3] = kHex[(lid >> 8) & 0xf];
    out[4] = kHex[(lid >> 4) & 0xf];
    out[5] = kHex[lid & 0xf];
    out[6] = ' ';
    out[7] = char('0' + port / 100);
    out[8] = char('0' + port / 10 % 10);
    out[9] = char('0' + port % 10);
}
constexpr qsizetype kEntryStartLength = 10;

// The dump, in either form, into `out`; false if its sink refused a piece.
bool formatLftDump(const ForwardingTables &tables, const Fabric *fabric, LftDumpForm form, DumpBuffer &out)
{
    Lid top = 0;
    for (const SwitchForwardingTable &sw : tables.switches())
        top = std::max(top, sw.lft.top());
    const DestinationInfo destinations(fabric, form, top);

    char buffer[96];
    for (const SwitchForwardingTable &sw : tables.switches()) {
        const NodeIndex node = fabric ? fabric->nodeByGuid(sw.guid) : kNoIndex;
        Lid lid = sw.lid;
        QString description = sw.description;
        if (node != kNoIndex) {
            if (lid == 0)
                lid = fabric->nodeLid(node);
            if (description.isEmpty())
                description = fabric->node(node).description;
        }
        const Lid switchTop = sw.lft.top();
        std::snprintf(buffer, sizeof buffer, "Unicast lids [0x0-0x%x] of switch", unsigned(switchTop));
        out.append(buffer);
        if (lid != 0) {
            std::snprintf(buffer, sizeof buffer, " Lid %u", unsigned(lid));
            out.append(buffer);
        }
        // With no LID the GUID follows "of switch" directly, still found by " guid 0x".
        std::snprintf(buffer, sizeof buffer, " guid 0x%016" PRIx64 " (", sw.guid);
        out.append(buffer);
        out.append(description.toStdString());
        out.append(form == LftDumpForm::Annotated ? string_view("):\n  Lid  Out   Destination\n       Port     Info \n")
                                                  : string_view("):\n"));

        int written = 0;
        const std::vector<std::uint8_t> &entries = sw.lft.entries();
        for (std::size_t l = 1; l <= switchTop; ++l) {
            if (entries[l] == kNoRoute)
                continue;
            const string_view rest = destinations.forLid(Lid(l));
            char *at = out.reserve(kEntryStartLength + qsizetype(rest.size()));
            formatEntryStart(at, unsigned(l), entries[l]);
            std::memcpy(at + kEntryStartLength, rest.data(), rest.size());
            out.commit(kEntryStartLength + qsizetype(rest.size()));
            ++written;
        }
        std::snprintf(buffer, sizeof buffer, "%d valid lids dumped \n", written);
        out.append(buffer);
        if (!out.ok())
            return false;
    }
    return out.flush();
}

}  // namespace

Result<ForwardingTables> readLftDump(const QByteArray &data, const QString &fileName, const Fabric *fabric)
{
    TextReader reader(data, fileName);
    try {
        Parser parser(fabric);
        parser.feed(reader, 0);
        return parser.finish();
    } catch (const InputError &e) {
        return reader.error(e);
    }
}

Result<ForwardingTables> readLftDumpFile(const QString &path, const Fabric *fabric)
{
    // A piece at a time, each cut at a line's end, so that a dump of any size is read in bounded
    // memory (beyond the tables themselves).
    constexpr qint64 kPiece = qint64(4) << 20;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error{path, 0, QStringLiteral("cannot open: %1").arg(file.errorString())};
    Parser parser(fabric);
    QByteArray carried;  // the start of a line the previous piece cut
    int lineBase = 0;
    try {
        for (;;) {
            QByteArray piece = file.read(kPiece);
            if (file.error() != QFileDevice::NoError)
                return Error{path, 0, QStringLiteral("cannot read: %1").arg(file.errorString())};
            const bool atEnd = piece.isEmpty();
            if (!carried.isEmpty()) {
                piece.prepend(carried);
                carried.clear();
            }
            if (!atEnd) {
                // Keep what follows the last line end for the next piece (unless no line ends
                // here at all: then the reader reports the overlong line).
                const qsizetype lastEnd = piece.lastIndexOf('\n');
                if (lastEnd < 0 && piece.size() <= TextReader::kDefaultMaxLineLength) {
                    carried = std::move(piece);  // a short read in the middle of a line
                    continue;
                }
                if (lastEnd >= 0 && lastEnd + 1 < piece.size()) {
                    carried = piece.mid(lastEnd + 1);
                    piece.truncate(lastEnd + 1);
                }
            }
            if (piece.isEmpty())
                break;
            TextReader reader(std::move(piece), path);
            parser.feed(reader, lineBase);
            lineBase += reader.lineNumber();
            if (atEnd)
                break;
        }
        return parser.finish();
    } catch (const InputError &e) {
        return Error{path, e.line, e.message};
    }
}

QByteArray writeLftDump(const ForwardingTables &tables, const Fabric *fabric, LftDumpForm form)
{
    std::size_t routes = 0;
    for (const SwitchForwardingTable &sw : tables.switches())
        routes += sw.lft.routeCount();
    const std::size_t perEntry = form == LftDumpForm::Annotated ? 80 : 40;
    DumpBuffer out(nullptr, qsizetype(routes * perEntry + tables.size() * 200));
    formatLftDump(tables, fabric, form, out);
    return out.take();
}

bool writeLftDump(const ForwardingTables &tables, const Fabric *fabric, LftDumpForm form, const LftDumpSink &sink)
{
    DumpBuffer out(&sink, 0);
    return formatLftDump(tables, fabric, form, out);
}

namespace {
// The dump streamed into a file (SafeFile's temporary), its SHA-256 taken on the way when asked.
std::function<bool(QIODevice &)> dumpInto(const ForwardingTables &tables, const Fabric *fabric, LftDumpForm form, std::optional<Sha256> &digest)
{
    return [&tables, fabric, form, &digest](QIODevice &file) {
        return writeLftDump(tables, fabric, form, [&](const char *data, std::size_t size) {
            if (digest)
                digest->add(data, size);
            return file.write(data, qint64(size)) == qint64(size);
        });
    };
}
}  // namespace

Status writeLftDumpFile(const QString &path, const ForwardingTables &tables, const Fabric *fabric, LftDumpForm form,
                        QString *sha256)
{
    // (Not stageLftDumpFile: a device or pipe, /dev/stdout, is written into, which staging refuses.)
    std::optional<Sha256> digest;
    if (sha256)
        digest.emplace();
    const Status written = writeFileAtomically(path, dumpInto(tables, fabric, form, digest));
    if (written && sha256)
        *sha256 = digest->hex();
    return written;
}

Result<StagedFile> stageLftDumpFile(const QString &path, const ForwardingTables &tables, const Fabric *fabric, LftDumpForm form,
                                    QString *sha256)
{
    std::optional<Sha256> digest;
    if (sha256)
        digest.emplace();
    Result<StagedFile> staged = stageFile(path, dumpInto(tables, fabric, form, digest));
    if (staged && sha256)
        *sha256 = digest->hex();
    return staged;
}

QStringList lftCoverageWarnings(const ForwardingTables &tables, const Fabric &fabric)
{
    // Every LID the fabric assigns, with its owner's name for the message.
    std::vector<Lid> lids;
    for (const Port &p : fabric.ports())
        if (p.lid != 0)
            for (int l = p.lid; l < p.lid + (1 << p.lmc); ++l)
                lids.push_back(Lid(l));
    std::sort(lids.begin(), lids.end());

    QStringList warnings;
    for (NodeIndex sw : fabric.switches()) {
        const Node &node = fabric.node(sw);
        const QString name = QStringLiteral("switch %1 (\"%2\")").arg(guidText(node.guid))
                                 .arg(node.description.isEmpty() ? node.name : node.description);
        const SwitchForwardingTable *table = tables.find(node.guid);
        if (!table) {
            warnings << QStringLiteral("%1 is not in the tables: OpenSM's file engine would leave it without unicast routes").arg(name);
            continue;
        }
        std::size_t missing = 0;
        QStringList first;
        for (Lid lid : lids) {
            if (table->lft.hasRoute(lid))
                continue;
            if (++missing <= 5)
                first << QString::number(lid);
        }
        if (missing)
            warnings << QStringLiteral("%1 has no entry for %2 of the fabric's %3 LIDs (%4%5): OpenSM installs a switch's "
                                       "table whole, every entry not given left without a route, so they stay unrouted")
                            .arg(name)
                            .arg(missing)
                            .arg(lids.size())
                            .arg(first.join(QStringLiteral(", ")),
                                 missing > 5 ? QStringLiteral(", ...") : QString());
    }
    return warnings;
}

}  // namespace weft
