#include "PartitionsConf.h"

#include "TextReader.h"

#include <QSet>

#include <arpa/inet.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

// The reader mirrors the order of decisions in OpenSM 3.3.23's osm_prtn_config.c, because the
// only definition of which files OpenSM accepts is that parser: it works on a mutable copy of
// each line, cutting it with NULs at '#', ';', ',' and ':' exactly where OpenSM does, and keeps
// OpenSM's arithmetic of "characters consumed", which decides where parsing resumes after an
// mgid. The code is Weft's own; comments point out where OpenSM's behaviour is surprising.

namespace weft {

namespace {

constexpr std::uint8_t kRateMin = 2;   // 2.5 Gb/s
constexpr std::uint8_t kRateMax = 22;  // 600 Gb/s, the highest code OpenSM 3.3.23 knows
constexpr std::uint8_t kMtuMin = 1;    // 256
constexpr std::uint8_t kMtuMax = 5;    // 4096
constexpr std::uint8_t kDefaultRate = 3;
constexpr std::uint8_t kDefaultMtu = 4;
constexpr int kPartitionNameMax = 31;  // OpenSM keeps a 32-byte name

// OpenSM's own notion of white space in this file; '\r', '\v' and '\f' are ordinary characters.
bool isConfSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n';
}

std::string stripped(const char *begin, const char *end)
{
    while (begin < end && isConfSpace(*begin))
        ++begin;
    while (end > begin && isConfSpace(end[-1]))
        --end;
    return std::string(begin, end);
}

// `word` is matched the way OpenSM matches keywords: strncmp(word, keyword, strlen(word)),
// that is, any prefix of the keyword, the empty word included.
bool isPrefixOf(const std::string &word, const char *keyword)
{
    return std::strncmp(word.c_str(), keyword, word.size()) == 0;
}

// One `name[=value]` item, split at its first '='. `consumed` is how far OpenSM advances past
// it: its length plus the separator that ended it.
struct Item
{
    std::string name;
    std::optional<std::string> value;
    int consumed = 0;
};

// Cuts the item in the buffer as OpenSM does (NUL for the '=' and for trailing white space of
// both halves), because later reads of leftovers see those NULs.
Item splitItem(char *segment)
{
    Item item;
    const std::size_t length = std::strlen(segment);
    item.consumed = int(length) + 1;
    char *const end = segment + length;
    char *equals = static_cast<char *>(std::memchr(segment, '=', length));
    auto cut = [](char *begin, char *stop) {
        while (begin < stop && isConfSpace(*begin))
            ++begin;
        std::string text = stripped(begin, stop);
        for (char *c = stop - 1; c > begin && isConfSpace(*c); --c)
            *c = '\0';
        return text;
    };
    if (equals)
        *equals = '\0';
    item.name = cut(segment, equals ? equals : end);
    if (equals)
        item.value = cut(equals + 1, end);
    return item;
}

QString q(const std::string &s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

QString inQuotes(const std::string &s)
{
    QString text = q(s);
    text.replace(QLatin1Char('\r'), QLatin1String("\\r"));
    return QLatin1Char('"') + text + QLatin1Char('"');
}

// Q_Keys and flow labels, unpadded as OpenSM's partitions.conf writes them.
QString hexValue(std::uint64_t value)
{
    return QStringLiteral("0x%1").arg(value, 0, 16);
}

bool looksOctal(const std::string &text)
{
    std::size_t i = 0;
    while (i < text.size() && (text[i] == '+' || text[i] == '-' || std::isspace(static_cast<unsigned char>(text[i]))))
        ++i;
    return i + 1 < text.size() && text[i] == '0' && text[i + 1] != 'x' && text[i + 1] != 'X';
}

// strtoul with base 0, as OpenSM calls it; `rest` is what follows the number.
struct ParsedNumber
{
    unsigned long long value = 0;
    bool parsedNothing = true;
    std::string rest;
    bool overflow = false;
};

ParsedNumber parseNumber(const std::string &text)
{
    ParsedNumber n;
    char *end = nullptr;
    errno = 0;
    n.value = std::strtoull(text.c_str(), &end, 0);
    n.overflow = errno == ERANGE;
    n.parsedNothing = end == text.c_str();
    n.rest = end;
    return n;
}

struct Ipv6Bytes
{
    std::uint8_t raw[16] = {};
};

// An IP multicast group: signature 0x401b (IPv4) or 0x601b (IPv6). OpenSM checks its P_Key,
// rate and mtu against its partition's header.
bool isIpGroup(const Ipv6Bytes &gid)
{
    return (gid.raw[2] == 0x40 || gid.raw[2] == 0x60) && gid.raw[3] == 0x1b;
}

const char *const kKeywordNames[] = {"ALL", "ALL_CAS", "ALL_SWITCHES", "ALL_ROUTERS", "SELF"};
const PartitionMember::Kind kKeywordKinds[] = {PartitionMember::Kind::All, PartitionMember::Kind::AllCas,
                                               PartitionMember::Kind::AllSwitches,
                                               PartitionMember::Kind::AllRouters, PartitionMember::Kind::Self};

QString memberText(const PartitionMember &m)
{
    for (int i = 0; i < 5; ++i)
        if (kKeywordKinds[i] == m.kind)
            return QLatin1String(kKeywordNames[i]);
    return guidText(m.guid);
}

class ConfParser
{
public:
    explicit ConfParser(QString fileName) : m_fileName(std::move(fileName)) {}

    void parseLine(std::string_view line, bool hasNewline, int lineNumber);
    PartitionsConfResult finish(int lastLine);

private:
    // What OpenSM keeps while it reads one definition (`header : members ;`).
    struct Definition
    {
        int line = 0;
        int partition = -1;  // index into m_result.partitions once the header is read
        std::uint16_t pkey = 0;  // the P_Key OpenSM uses, autogenerated ones included
        MulticastFlags flags;    // header flags as written
        bool ipoib = false;
        bool indx0 = false;
        Membership defaultMembership = Membership::Limited;
    };

    int parseChunk(char *chunk, bool endsWithSemicolon);
    void parseHeader(char *header);
    void applyPartitionFlag(const Item &item);
    bool applyGroupFlag(const Item &item, MulticastFlags &flags, bool fromComment);
    void createPartition(std::string name, std::optional<std::string> pkeyWritten);
    void addMember(const Item &item);
    int createMulticastGroup(char *flagText, const Item &item, bool endsWithSemicolon);
    std::uint16_t generatePKey();

    [[noreturn]] void fail(const QString &message) const
    {
        if (!m_inLeftovers)
            throw InputError{m_line, message};
        throw InputError{m_line, QStringLiteral("after a ';' OpenSM goes on reading past the end of this line, "
                                                "into leftovers of earlier lines, and finds: %1 (put the ';' "
                                                "right after the last member, not first on a line, and give "
                                                "an mgid that ends a definition a flag)").arg(message)};
    }
    void warn(const QString &message) { warnAt(m_line, message); }
    void warnAt(int line, const QString &message)
    {
        m_result.warnings << QStringLiteral("%1:%2: %3").arg(m_fileName).arg(line).arg(message);
    }
    QString partitionLabel(int index) const;

    QString m_fileName;
    PartitionsConfResult m_result;
    int m_line = 0;
    // OpenSM's line buffer. It is not cleared between lines, and OpenSM sometimes reads past
    // the end of the current line into what earlier lines (as cut up by the parser) left
    // there, so the reader keeps it the same way. Bytes from m_knownEnd on were never written
    // by any line: in OpenSM they are uninitialized stack memory.
    std::vector<char> m_buffer = std::vector<char>(std::size_t(kPartitionsConfMaxLineLength) + 3, '\0');
    const char *m_knownEnd = nullptr;
    const char *m_lineEnd = nullptr;     // the NUL after the line's last character
    const char *m_commentStart = nullptr;  // where '#' was, if the line has one
    bool m_inLeftovers = false;  // parsing bytes past the end of the current line
    std::optional<Definition> m_definition;
    bool m_anyDefinitionRead = false;
    std::optional<IsolationPolicy> m_pendingPolicy;
    std::map<std::uint16_t, int> m_partitionByPKey;  // -1: OpenSM's implicit Default
    std::vector<std::uint16_t> m_pkeyOf;            // P_Key of each model partition
    std::map<std::pair<int, std::pair<int, Guid>>, int> m_memberLine;
    std::uint16_t m_pkeyCounter = 0;
};

QString ConfParser::partitionLabel(int index) const
{
    const Partition &p = m_result.partitions[std::size_t(index)];
    return QStringLiteral("\"%1\" (%2)").arg(p.name, pkeyText(m_pkeyOf[std::size_t(index)]));
}

void ConfParser::parseLine(std::string_view line, bool hasNewline, int lineNumber)
{
    m_line = lineNumber;
    m_inLeftovers = false;
    char *const base = m_buffer.data();
    if (!m_knownEnd)
        m_knownEnd = base + 1;  // OpenSM sets line[0] = '\0' before the first read
    std::memcpy(base, line.data(), line.size());
    std::size_t length = line.size();
    if (hasNewline)
        base[length++] = '\n';
    base[length] = '\0';
    m_lineEnd = base + length;
    m_knownEnd = std::max<const char *>(m_knownEnd, m_lineEnd + 1);
    m_commentStart = nullptr;

    if (char *hash = std::strchr(base, '#')) {
        *hash = '\0';
        m_commentStart = hash;
        // Weft keeps its isolation policy, which OpenSM has no flag for, in a comment line
        // right before the definition it belongs to.
        const std::string comment = stripped(hash + 1, m_lineEnd);
        const std::string tag = "weft: policy=";
        if (comment.compare(0, tag.size(), tag) == 0) {
            const QString name = q(comment.substr(tag.size()));
            m_pendingPolicy = policyFromName(name);
            if (!m_pendingPolicy)
                warn(QStringLiteral("unknown Weft isolation policy \"%1\" in comment; ignored").arg(name));
        }
    }

    char *p = base;
    char *semicolon = nullptr;
    do {
        if (p >= m_knownEnd)
            fail(QStringLiteral("OpenSM reads past the end of this line into uninitialized memory "
                                "(undefined result); put the ';' right after the last member, and "
                                "give an mgid that ends a definition a flag"));
        m_inLeftovers = p > m_lineEnd;
        while (isConfSpace(*p))
            ++p;
        if (*p == '\0')
            break;
        if (!m_definition)
            m_definition = Definition{lineNumber, -1, 0, {}, false, false, Membership::Limited};
        semicolon = std::strchr(p, ';');
        if (semicolon)
            *semicolon = '\0';
        p += parseChunk(p, semicolon != nullptr);
        m_anyDefinitionRead = true;
        if (semicolon)
            m_definition.reset();
    } while (semicolon);
}

int ConfParser::parseChunk(char *chunk, bool endsWithSemicolon)
{
    int consumed = 0;
    char *p = chunk;
    if (*p == '\0') {
        // An empty chunk (';' first on the line): OpenSM steps over the NUL that replaced the
        // ';' and reads on from there.
        ++p;
        consumed = 1;
    }
    if (m_definition->partition < 0) {
        char *colon = std::strchr(p, ':');
        if (!colon) {
            const std::string text = stripped(p, p + std::strlen(p));
            fail(QStringLiteral("no partition definition found: expected \"name[=P_Key][,flags] :\" "
                                "before the members, got %1")
                     .arg(inQuotes(text)));
        }
        *colon = '\0';
        parseHeader(p);
        consumed += int(colon + 1 - p);
        p = colon + 1;
    }

    char *comma = nullptr;
    do {
        comma = std::strchr(p, ',');
        if (comma)
            *comma = '\0';
        const Item item = splitItem(p);
        consumed += item.consumed;
        if (item.name == "mgid") // the group's flags take the rest of the line's chunk
            return consumed + createMulticastGroup(p + item.consumed, item, endsWithSemicolon);
        addMember(item);
        p += item.consumed;
    } while (comma);
    return consumed;
}

void ConfParser::parseHeader(char *header)
{
    std::vector<char *> segments{header};
    for (char *comma = std::strchr(header, ','); comma; comma = std::strchr(comma + 1, ',')) {
        *comma = '\0';
        segments.push_back(comma + 1);
    }
    const Item nameItem = splitItem(segments.front());
    for (std::size_t i = 1; i < segments.size(); ++i)
        applyPartitionFlag(splitItem(segments[i]));
    createPartition(nameItem.name, nameItem.value);
}

void ConfParser::applyPartitionFlag(const Item &item)
{
    Definition &d = *m_definition;
    if (applyGroupFlag(item, d.flags, false))
        return;
    if (isPrefixOf(item.name, "ipoib")) {
        d.ipoib = true;
    } else if (isPrefixOf(item.name, "defmember")) {
        const std::string v = item.value.value_or(std::string());
        if (!item.value || (!isPrefixOf(v, "limited") && !isPrefixOf(v, "both") && !isPrefixOf(v, "full"))) {
            warn(QStringLiteral("defmember needs full, limited or both; OpenSM ignores %1")
                     .arg(inQuotes(item.name + (item.value ? "=" + v : std::string()))));
            return;
        }
        if (v.empty())
            warn(QStringLiteral("\"defmember=\" without a value means full to OpenSM"));
        d.defaultMembership = isPrefixOf(v, "full") ? Membership::Full
                              : isPrefixOf(v, "both") ? Membership::Both
                                                      : Membership::Limited;
        if (d.defaultMembership == Membership::Both)
            warn(QStringLiteral("defmember=both gives limited membership too only when OpenSM runs "
                                "with allow_both_pkeys; otherwise members are full"));
    } else if (item.name == "indx0") {
        d.indx0 = true;
    } else {
        warn(QStringLiteral("unknown partition flag %1; OpenSM ignores it").arg(inQuotes(item.name)));
    }
}

// The mgroup flags, in OpenSM's order of matching: mtu, rate, scope, Q_Key, TClass, sl,
// FlowLabel (so "m" is mtu, "s" is scope and the empty name is mtu). Values OpenSM takes but
// that are not IBTA codes are kept, with a warning; values OpenSM skips are not kept.
bool ConfParser::applyGroupFlag(const Item &item, MulticastFlags &flags, bool fromComment)
{
    const std::string &name = item.name;
    if (name.empty() && !item.value)
        return true;  // an empty entry between commas: OpenSM reads "mtu" without value, a no-op
    const QString shown = inQuotes(name + (item.value ? "=" + *item.value : std::string()));
    if (fromComment)
        warn(QStringLiteral("OpenSM reads the comment after an mgid as its flags: %1").arg(shown));
    if (name.empty())
        warn(QStringLiteral("flag without a name %1: OpenSM reads it as mtu").arg(shown));

    // OpenSM's verify_val: the number is used even when junk follows it.
    auto numeric = [&](const char *flag) -> std::optional<unsigned long long> {
        if (!item.value) {
            warn(QStringLiteral("%1 needs a value; OpenSM skips it").arg(QLatin1String(flag)));
            return std::nullopt;
        }
        const ParsedNumber n = parseNumber(*item.value);
        if (!n.rest.empty())
            warn(QStringLiteral("suspicious value %1 for %2: OpenSM uses %3")
                     .arg(inQuotes(*item.value), QLatin1String(flag))
                     .arg(n.value));
        return n.overflow ? ULLONG_MAX : n.value;
    };
    // OpenSM keeps these flags in 32-bit unsigned fields, so a wider value would be used
    // truncated (mtu=4294967300 as mtu=4): such a value is refused, not narrowed.
    auto fits32 = [&](const char *flag, unsigned long long value, unsigned long long low, unsigned long long high) {
        if (value > 0xffffffffULL)
            fail(QStringLiteral("%1 is out of range (%2 is %3-%4): OpenSM would truncate it to %5")
                     .arg(shown, QLatin1String(flag))
                     .arg(low)
                     .arg(high)
                     .arg(std::uint32_t(value)));
    };
    // sl and FlowLabel: the whole value must be a number within range, else skipped.
    auto strict = [&](const char *flag, unsigned long long max) -> std::optional<std::uint32_t> {
        if (item.value && !item.value->empty()) {
            const ParsedNumber n = parseNumber(*item.value);
            if (!n.overflow)
                fits32(flag, n.value, 0, max);
            const auto v = std::uint32_t(n.value);
            const bool junk = !n.rest.empty() && !std::isspace(static_cast<unsigned char>(n.rest[0]));
            if (v <= max && !junk)
                return v;
        }
        warn(QStringLiteral("%1 needs a value from 0 to %2, got %3; OpenSM skips it")
                 .arg(QLatin1String(flag)).arg(max).arg(shown));
        return std::nullopt;
    };

    if (isPrefixOf(name, "mtu") || isPrefixOf(name, "rate")) {
        const bool isMtu = isPrefixOf(name, "mtu");
        const char *flag = isMtu ? "mtu" : "rate";
        if (const auto v = numeric(flag)) {
            const int low = isMtu ? kMtuMin : kRateMin;
            const int high = isMtu ? kMtuMax : kRateMax;
            fits32(flag, *v, low, high);
            const auto used = std::uint32_t(*v);
            (isMtu ? flags.mtu : flags.rate) = int(used);
            if (used == 0)
                warn(QStringLiteral("%1=0 is not valid; OpenSM logs \"skipped\" but uses 0").arg(QLatin1String(flag)));
            else if (int(used) < low || int(used) > high)
                warn(QStringLiteral("%1=%2 is not an IBTA %1 code (%3..%4); OpenSM uses it anyway")
                         .arg(QLatin1String(flag)).arg(used).arg(low).arg(high));
        }
    } else if (isPrefixOf(name, "scope")) {
        if (const auto v = numeric("scope")) {
            fits32("scope", *v, 1, 0xf);
            const auto scope = std::uint32_t(*v);
            if (scope == 0 || scope > 0xf) {
                warn(QStringLiteral("scope needs a value from 1 to 15, got %1; OpenSM skips it").arg(shown));
            } else {
                if (flags.scope && *flags.scope != int(scope))
                    warn(QStringLiteral("several scopes (%1 and %2): OpenSM creates a group in each, "
                                        "Weft keeps only scope=%2").arg(*flags.scope).arg(scope));
                flags.scope = int(scope);
            }
        }
    } else if (isPrefixOf(name, "Q_Key")) {
        if (const auto v = numeric("Q_Key")) {
            flags.qkey = std::uint32_t(*v);
            if (*v > 0xffffffffULL)
                warn(QStringLiteral("Q_Key %1 is wider than 32 bits; OpenSM uses %2").arg(q(*item.value), hexValue(*flags.qkey)));
            else if (*flags.qkey == 0)
                warn(QStringLiteral("Q_Key=0: OpenSM uses the default Q_Key"));
        }
    } else if (isPrefixOf(name, "TClass")) {
        if (const auto v = numeric("TClass")) {
            flags.tclass = int(std::uint8_t(*v));
            if (*v > 0xff)
                warn(QStringLiteral("TClass %1 is wider than 8 bits; OpenSM uses %2").arg(q(*item.value)).arg(*flags.tclass));
        }
    } else if (isPrefixOf(name, "sl")) {
        if (const auto v = strict("sl", 15))
            flags.sl = int(*v);
    } else if (isPrefixOf(name, "FlowLabel")) {
        if (const auto v = strict("FlowLabel", 0xfffff))
            flags.flowLabel = *v;
    } else {
        return false;
    }
    return true;
}

std::uint16_t ConfParser::generatePKey()
{
    while (m_pkeyCounter < kDefaultPKey - 1) {
        const std::uint16_t candidate = ++m_pkeyCounter;
        if (!m_partitionByPKey.count(candidate))
            return candidate;
    }
    return 0;
}

void ConfParser::createPartition(std::string name, std::optional<std::string> pkeyWritten)
{
    Definition &d = *m_definition;
    // A name that starts with a digit and has no "=P_Key" is the P_Key.
    if (!pkeyWritten && !name.empty() && std::isdigit(static_cast<unsigned char>(name[0]))) {
        pkeyWritten = name;
        name.clear();
    }

    std::uint16_t pkey = 0;
    std::optional<std::uint16_t> writtenPKey;
    if (pkeyWritten) {
        const ParsedNumber n = parseNumber(*pkeyWritten);
        if (n.parsedNothing || !n.rest.empty())
            fail(QStringLiteral("bad partition definition: P_Key %1 is not a number").arg(inQuotes(*pkeyWritten)));
        const auto truncated = std::uint16_t(n.value);
        if (n.overflow || n.value > 0xffff || (*pkeyWritten)[0] == '-' || (*pkeyWritten)[0] == '+')
            warn(QStringLiteral("P_Key %1 does not fit in 16 bits; OpenSM uses %2").arg(q(*pkeyWritten), pkeyText(truncated)));
        else if (looksOctal(*pkeyWritten))
            warn(QStringLiteral("P_Key %1 starts with 0, so OpenSM reads it as octal (%2)").arg(q(*pkeyWritten), pkeyText(truncated)));
        pkey = truncated & kPKeyMask;
        if (pkey != 0)
            writtenPKey = pkey;
    }

    if (name.size() > std::size_t(kPartitionNameMax))
        warn(QStringLiteral("partition name %1 is longer than %2 characters; OpenSM shortens it")
                 .arg(inQuotes(name))
                 .arg(kPartitionNameMax));

    int index = -1;
    if (pkey == 0) {
        // Without a P_Key OpenSM first looks for a partition of the same name, "Default"
        // (which it always creates as 0x7fff) included, and only then generates one.
        if (name == "Default") {
            pkey = kDefaultPKey;
            writtenPKey = pkey;
        }
        for (std::size_t i = 0; pkey == 0 && !name.empty() && i < m_result.partitions.size(); ++i)
            if (m_result.partitions[i].name == q(name)) {
                pkey = m_pkeyOf[i];
                index = int(i);
            }
        if (pkey == 0) {
            if (!(pkey = generatePKey()))
                fail(QStringLiteral("bad partition definition: no free P_Key left to generate"));
            if (pkeyWritten)
                warn(QStringLiteral("P_Key %1 has no partition number (its low 15 bits are 0); OpenSM "
                                    "generates %2").arg(q(*pkeyWritten), pkeyText(pkey)));
        }
    }
    if (index < 0) {
        const auto found = m_partitionByPKey.find(pkey);
        if (found != m_partitionByPKey.end() && found->second >= 0)
            index = found->second;
    }

    const bool existing = index >= 0;
    if (existing) {
        warn(QStringLiteral("P_Key %1 is already defined at line %2 as %3; OpenSM merges this "
                            "definition into it")
                 .arg(pkeyText(pkey)).arg(m_result.partitions[std::size_t(index)].sourceLine)
                 .arg(partitionLabel(index)));
    } else {
        Partition p;
        p.name = q(name);
        p.pkey = writtenPKey;
        p.defaultMembership = d.defaultMembership;
        p.ipoibFlags = d.flags;
        p.sourceLine = d.line;
        m_result.partitions.push_back(p);
        m_pkeyOf.push_back(pkey);
        index = int(m_result.partitions.size()) - 1;
        m_partitionByPKey[pkey] = index;
    }

    Partition &p = m_result.partitions[std::size_t(index)];
    if (existing && !(p.ipoibFlags == d.flags) && !(d.flags == MulticastFlags{}))
        warn(QStringLiteral("flags differ from the first definition of %1; Weft keeps the first")
                 .arg(partitionLabel(index)));
    p.ipoib = p.ipoib || d.ipoib;
    p.indx0 = p.indx0 || d.indx0;
    if (m_pendingPolicy && p.policy == IsolationPolicy::Default)
        p.policy = *m_pendingPolicy;
    m_pendingPolicy.reset();
    d.partition = index;
    d.pkey = pkey;
}

void ConfParser::addMember(const Item &item)
{
    const std::string &name = item.name;
    if (name.empty() || isPrefixOf(name, "NONE"))
        return;
    Definition &d = *m_definition;
    Partition &partition = m_result.partitions[std::size_t(d.partition)];

    PartitionMember member;
    member.membership = d.defaultMembership;
    if (item.value) {
        member.explicitMembership = true;
        const std::string &v = *item.value;
        if (isPrefixOf(v, "full")) {
            member.membership = Membership::Full;
            if (v.empty())
                warn(QStringLiteral("%1= without a value means full to OpenSM").arg(q(name)));
        } else if (isPrefixOf(v, "both")) {
            member.membership = Membership::Both;
        } else {
            member.membership = Membership::Limited;
            if (!isPrefixOf(v, "limited"))
                warn(QStringLiteral("unknown membership %1 for %2; OpenSM assumes limited").arg(inQuotes(v), q(name)));
        }
    }
    if (item.value && member.membership == Membership::Both)
        warn(QStringLiteral("\"both\" for %1 gives limited membership too only when OpenSM runs with "
                            "allow_both_pkeys; otherwise it is full").arg(q(name)));
    if (partition.defaultMembership != d.defaultMembership && !member.explicitMembership)
        member.explicitMembership = true;  // merged from a definition with another defmember

    bool keyword = false;
    for (int i = 0; i < 5 && !keyword; ++i)
        if (isPrefixOf(name, kKeywordNames[i])) {
            member.kind = kKeywordKinds[i];
            keyword = true;
        }
    if (!keyword) {
        const ParsedNumber n = parseNumber(name);
        if (n.parsedNothing || !n.rest.empty() || n.value == 0) {
            QString why;
            if (name.find('\r') != std::string::npos)
                why = QStringLiteral(" (it contains a carriage return: Windows line endings?)");
            else if (looksOctal(name) && !n.rest.empty())
                why = QStringLiteral(" (a leading 0 makes OpenSM read it as octal, which it is not; write 0x...)");
            else if (!n.parsedNothing && n.rest.empty())
                why = QStringLiteral(" (GUID 0 is not valid)");
            else
                why = QStringLiteral(" (neither a number nor one of ALL, ALL_CAS, ALL_SWITCHES, "
                                     "ALL_ROUTERS, SELF, NONE)");
            fail(QStringLiteral("bad port GUID %1%2").arg(inQuotes(name), why));
        }
        member.guid = n.overflow ? ULLONG_MAX : n.value;
        if (n.overflow || name[0] == '-' || name[0] == '+')
            warn(QStringLiteral("port GUID %1 does not fit in 64 bits; OpenSM uses %2").arg(q(name), guidText(member.guid)));
        else if (looksOctal(name))
            warn(QStringLiteral("port GUID %1 starts with 0, so OpenSM reads it as octal (%2)").arg(q(name), guidText(member.guid)));
    }

    const auto key = std::make_pair(d.partition, std::make_pair(int(member.kind), member.guid));
    const auto seen = m_memberLine.find(key);
    if (seen != m_memberLine.end()) {
        warn(QStringLiteral("%1 is already a member of %2 (line %3); OpenSM keeps this later entry")
                 .arg(memberText(member), partitionLabel(d.partition)).arg(seen->second));
        auto &members = partition.members;
        members.erase(std::remove_if(members.begin(), members.end(),
                                     [&](const PartitionMember &m) {
                                         return m.kind == member.kind && m.guid == member.guid;
                                     }),
                      members.end());
    }
    m_memberLine[key] = m_line;
    partition.members.push_back(member);
}

int ConfParser::createMulticastGroup(char *flagText, const Item &item, bool endsWithSemicolon)
{
    if (!item.value)
        fail(QStringLiteral("mgid needs a value (mgid=<multicast GID>); OpenSM would crash here"));
    Definition &d = *m_definition;
    Partition &partition = m_result.partitions[std::size_t(d.partition)];

    Ipv6Bytes gid;
    if (inet_pton(AF_INET6, item.value->c_str(), gid.raw) != 1 || gid.raw[0] != 0xff) {
        warn(QStringLiteral("mgid %1 is not a multicast GID; OpenSM skips the group").arg(inQuotes(*item.value)));
        return 0;  // OpenSM returns before it reads the flags: they are read as what follows
    }

    MulticastGroup group;
    group.mgid = q(*item.value);
    int consumed = 0;
    (void)endsWithSemicolon;
    if (flagText >= m_knownEnd) {
        warn(QStringLiteral("OpenSM reads the flags of mgid %1 from uninitialized memory; end the "
                            "line with '#' or give a flag after the mgid").arg(q(*item.value)));
    } else {
        if (flagText > m_lineEnd && *flagText != '\0')
            warn(QStringLiteral("OpenSM reads the flags of mgid %1 from leftovers of earlier lines; "
                                "end the line with '#' or give a flag after the mgid").arg(q(*item.value)));
        const bool fromComment = m_commentStart && flagText > m_commentStart && flagText <= m_lineEnd;
        char *p = flagText;
        char *comma = nullptr;
        do {
            comma = std::strchr(p, ',');
            if (comma)
                *comma = '\0';
            const Item flag = splitItem(p);
            if (!applyGroupFlag(flag, group.flags, fromComment))
                warn(QStringLiteral("unknown multicast group flag %1; OpenSM ignores it").arg(inQuotes(flag.name)));
            p += flag.consumed;
            consumed += flag.consumed;
        } while (comma);
    }

    // IP groups (signature 0x401b or 0x601b) must carry the partition's P_Key (or 0) and the
    // rate and mtu of the partition's header; otherwise OpenSM logs an error and skips them.
    if (isIpGroup(gid)) {
        const int gidPKey = (gid.raw[4] << 8) | gid.raw[5];
        static const std::uint8_t broadcast[16] = {0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0, 0,
                                                   0,    0,    0,    0,    0xff, 0xff, 0xff, 0xff};
        const bool pkeyOk = std::memcmp(gid.raw, broadcast, 16) == 0 || gidPKey == 0
                            || gidPKey == (d.pkey | 0x8000);
        const int partitionRate = d.flags.rate.value_or(kDefaultRate);
        const int partitionMtu = d.flags.mtu.value_or(kDefaultMtu);
        QString problem;
        if (!pkeyOk)
            problem = QStringLiteral("its P_Key bits %1 are neither 0 nor %2").arg(pkeyText(gidPKey), pkeyText(d.pkey | 0x8000));
        else if (group.flags.rate.value_or(partitionRate) != partitionRate)
            problem = QStringLiteral("its rate differs from the partition's (%1)").arg(partitionRate);
        else if (group.flags.mtu.value_or(partitionMtu) != partitionMtu)
            problem = QStringLiteral("its mtu differs from the partition's (%1)").arg(partitionMtu);
        if (!problem.isEmpty()) {
            warn(QStringLiteral("IP multicast group %1 is skipped by OpenSM: %2").arg(group.mgid, problem));
            return consumed;
        }
    }

    for (const MulticastGroup &other : partition.multicastGroups) {
        Ipv6Bytes otherGid;
        inet_pton(AF_INET6, other.mgid.toUtf8().constData(), otherGid.raw);
        if (std::memcmp(otherGid.raw, gid.raw, 16) == 0) {
            warn(QStringLiteral("mgid %1 is already defined for %2; OpenSM ignores this one")
                     .arg(group.mgid, partitionLabel(d.partition)));
            return consumed;
        }
    }
    partition.multicastGroups.push_back(group);
    return consumed;
}

PartitionsConfResult ConfParser::finish(int lastLine)
{
    if (!m_anyDefinitionRead)
        throw InputError{0, QStringLiteral("no partition definition: OpenSM declares such a file in "
                                           "error and makes every port a full member of 0x7fff")};
    if (m_definition) {
        const QString what = m_definition->partition >= 0 ? partitionLabel(m_definition->partition)
                                                          : QStringLiteral("partition");
        warnAt(lastLine, QStringLiteral("the definition of %1 begun at line %2 has no closing ';' "
                                        "(OpenSM accepts it)")
                             .arg(what).arg(m_definition->line));
    }
    for (const Partition &p : m_result.partitions)
        if (p.members.empty())
            warnAt(p.sourceLine, QStringLiteral("partition \"%1\" has no members; OpenSM drops it").arg(p.name));
    return std::move(m_result);
}

// Longest name the writer puts in a header, in UTF-8 bytes: far beyond the 31 that OpenSM
// keeps (the reader warns about those), and short enough that the header line with all its
// flags stays within the line OpenSM reads in one piece.
constexpr int kWrittenNameMax = 1024;

// Characters that would end or split a partition name in the file (control characters such
// as NUL, which the reader refuses, included), and a length the line can hold.
QString writableName(const QString &name, bool hasPKey)
{
    QString out;
    for (QChar c : name)
        out += (QStringLiteral(",:;#=").contains(c) || c.category() == QChar::Other_Control ? QLatin1Char('_') : c);
    while (out.toUtf8().size() > kWrittenNameMax)
        out.chop(out.size() >= 2 && out.at(out.size() - 1).isLowSurrogate() ? 2 : 1);
    out = out.trimmed();
    if (!hasPKey && !out.isEmpty() && out.front().isDigit())
        out.prepend(QLatin1Char('_'));  // a leading digit would be read as the P_Key
    return out;
}

// A partition written without a P_Key is found again by its name: OpenSM (and Weft's reader)
// merges it into an earlier partition of the same name, "Default" included. Names that only
// differed in characters writableName() replaces would collide, so a suffix keeps them apart.
QString distinctName(const QString &name, const QSet<QString> &taken)
{
    if (name.isEmpty() || !taken.contains(name))
        return name;
    for (int n = 2;; ++n) {
        const QString suffix = QStringLiteral("_%1").arg(n);
        QString base = name;
        while (!base.isEmpty() && (base + suffix).toUtf8().size() > kWrittenNameMax)
            base.chop(base.size() >= 2 && base.at(base.size() - 1).isLowSurrogate() ? 2 : 1);
        const QString candidate = base + suffix;
        if (!taken.contains(candidate))
            return candidate;
    }
}

void appendFlags(QStringList &parts, const MulticastFlags &f)
{
    // rate, mtu and TClass are OpenSM's 32-bit unsigned fields: a value the reader kept past
    // INT_MAX (OpenSM uses it, with a warning) is written as OpenSM reads it, not as a negative int.
    if (f.rate)
        parts << QStringLiteral("rate=%1").arg(std::uint32_t(*f.rate));
    if (f.mtu)
        parts << QStringLiteral("mtu=%1").arg(std::uint32_t(*f.mtu));
    if (f.sl)
        parts << QStringLiteral("sl=%1").arg(*f.sl);
    if (f.scope)
        parts << QStringLiteral("scope=%1").arg(*f.scope);
    if (f.qkey)
        parts << QStringLiteral("Q_Key=%1").arg(hexValue(*f.qkey));
    if (f.tclass)
        parts << QStringLiteral("TClass=%1").arg(std::uint32_t(*f.tclass));
    if (f.flowLabel)
        parts << QStringLiteral("FlowLabel=%1").arg(hexValue(*f.flowLabel));
}

bool isIpGroup(const QString &mgid)
{
    Ipv6Bytes gid;
    return inet_pton(AF_INET6, mgid.toLatin1().constData(), gid.raw) == 1 && isIpGroup(gid);
}

}  // namespace

bool isMulticastGid(const QString &mgid)
{
    Ipv6Bytes gid;
    const QByteArray text = mgid.toLatin1();
    // inet_pton accepts only hex digits, ':' and '.', so a valid GID carries no delimiter.
    return !mgid.isEmpty() && !text.contains('\0')
        && inet_pton(AF_INET6, text.constData(), gid.raw) == 1 && gid.raw[0] == 0xff;
}

Result<PartitionsConfResult> readPartitionsConf(const QByteArray &data, const QString &fileName)
{
    TextReader reader(data, fileName, kPartitionsConfMaxLineLength);
    ConfParser parser(fileName);
    try {
        while (reader.next()) {
            std::string_view line = reader.line();
            const char *const dataEnd = data.constData() + data.size();
            // TextReader drops the '\r' of "\r\n"; OpenSM does not, so it is put back.
            if (line.data() + line.size() < dataEnd && line.data()[line.size()] == '\r')
                line = std::string_view(line.data(), line.size() + 1);
            const bool hasNewline = line.data() + line.size() < dataEnd && line.data()[line.size()] == '\n';
            if (line.size() > std::size_t(kPartitionsConfMaxLineLength))
                reader.fail(QStringLiteral("line is %1 characters long; OpenSM reads at most %2 at a "
                                           "time and would split it")
                                .arg(line.size()).arg(kPartitionsConfMaxLineLength));
            parser.parseLine(line, hasNewline, reader.lineNumber());
        }
        Result<PartitionsConfResult> result = parser.finish(reader.lineNumber());
        if (result.ok() && reader.hadByteOrderMark())
            result->warnings.prepend(QStringLiteral("%1:1: the file starts with a UTF-8 byte-order mark; Weft skips "
                                                    "it, but OpenSM reads it as part of the first word of line 1")
                                         .arg(fileName));
        return result;
    } catch (const InputError &e) {
        return reader.error(e);
    }
}

Result<PartitionsConfResult> readPartitionsConfFile(const QString &path)
{
    Result<QByteArray> data = TextReader::readFile(path);
    if (!data)
        return data.error();
    return readPartitionsConf(*data, path);
}

QByteArray writePartitionsConf(const std::vector<Partition> &given)
{
    QString out = QStringLiteral("# partitions.conf written by Weft for OpenSM (see opensm(8)).\n"
                                 "# One member per line; a bare '#' ends each mgid line so that OpenSM\n"
                                 "# reads nothing after it as flags.\n");
    // OpenSM takes a file without any partition for one in error and makes every port a full
    // member of 0x7fff; so no partitions is written as the rule it applies to a file that
    // names no Default.
    const std::vector<Partition> onlyDefault = given.empty() ? withExplicitDefault({}) : std::vector<Partition>{};
    const std::vector<Partition> &partitions = given.empty() ? onlyDefault : given;
    if (given.empty())
        out += QStringLiteral("# No partition was given: only the Default rule OpenSM applies to a file without one.\n");
    QSet<QString> takenNames{QStringLiteral("Default")};
    for (const Partition &p : partitions) {
        out += QLatin1Char('\n');
        if (p.policy != IsolationPolicy::Default)
            out += QStringLiteral("# weft: policy=%1\n").arg(policyName(p.policy));
        QStringList header;
        // IP groups whose rate or mtu the header does not have go under a later definition of
        // the same partition (below); without a P_Key that definition finds this one by name,
        // and an empty name finds nothing, so such a partition is written under a name.
        const std::pair<int, int> headerRateMtu{p.ipoibFlags.rate.value_or(kDefaultRate), p.ipoibFlags.mtu.value_or(kDefaultMtu)};
        auto ownHeader = [&headerRateMtu](const MulticastGroup &g) {
            const std::pair<int, int> rateMtu{g.flags.rate.value_or(headerRateMtu.first), g.flags.mtu.value_or(headerRateMtu.second)};
            return rateMtu != headerRateMtu && isIpGroup(g.mgid);
        };
        QString title = writableName(p.name, p.pkey.has_value());
        if (!p.pkey && title.isEmpty()
            && std::any_of(p.multicastGroups.begin(), p.multicastGroups.end(),
                           [&](const MulticastGroup &g) { return isMulticastGid(g.mgid) && ownHeader(g); }))
            title = QStringLiteral("unnamed");
        if (!p.pkey)
            title = distinctName(title, takenNames);
        takenNames.insert(title);
        if (p.pkey)
            title += QLatin1Char('=') + pkeyText(*p.pkey & kPKeyMask);
        header << title;
        if (p.ipoib)
            header << QStringLiteral("ipoib");
        if (p.indx0)
            header << QStringLiteral("indx0");
        if (p.defaultMembership != Membership::Limited)
            header << QStringLiteral("defmember=") + membershipName(p.defaultMembership);
        appendFlags(header, p.ipoibFlags);
        out += header.join(QStringLiteral(", ")) + QStringLiteral(" :\n");

        auto groupLine = [](const MulticastGroup &g) {
            QStringList parts{QStringLiteral("mgid=") + g.mgid};
            appendFlags(parts, g.flags);
            return QStringLiteral("    ") + parts.join(QStringLiteral(", ")) + (parts.size() == 1 ? QStringLiteral(" #\n") : QStringLiteral("\n"));
        };
        // IP groups whose rate or mtu the header does not have, per (rate, mtu): OpenSM takes
        // them only under a header that has them, so each set goes under a later definition of
        // the same P_Key with that header (merged into this one); a partition without a P_Key
        // is found again by its name, which is distinct among those written without one.
        std::map<std::pair<int, int>, std::vector<const MulticastGroup *>> ownHeaders;
        for (const MulticastGroup &g : p.multicastGroups) {
            // Only a GID OpenSM takes is written: anything else could carry ',' ':' ';' or a
            // line break into the file and add flags, members or whole partitions.
            if (!isMulticastGid(g.mgid))
                continue;
            if (ownHeader(g)) {
                ownHeaders[{g.flags.rate.value_or(headerRateMtu.first), g.flags.mtu.value_or(headerRateMtu.second)}].push_back(&g);
                continue;
            }
            out += groupLine(g);
        }
        // The ';' goes after the last member on its line: alone on a line it makes OpenSM read
        // past the end of that line. NONE (no port) stands in for an empty list.
        if (p.members.empty())
            out += QStringLiteral("    NONE ;\n");
        for (std::size_t i = 0; i < p.members.size(); ++i) {
            const PartitionMember &m = p.members[i];
            QString entry = memberText(m);
            if (m.explicitMembership || m.membership != p.defaultMembership)
                entry += QLatin1Char('=') + membershipName(m.membership);
            out += QStringLiteral("    ") + entry
                   + (i + 1 < p.members.size() ? QStringLiteral(",\n") : QStringLiteral(" ;\n"));
        }
        for (const auto &[flags, groups] : ownHeaders) {
            QStringList again{title};
            if (p.ipoib)
                again << QStringLiteral("ipoib");
            again << QStringLiteral("rate=%1").arg(flags.first) << QStringLiteral("mtu=%1").arg(flags.second);
            out += QStringLiteral("# weft: more IP groups of %1, under their own rate and mtu\n").arg(title);
            out += again.join(QStringLiteral(", ")) + QStringLiteral(" :\n");
            for (const MulticastGroup *g : groups)
                out += groupLine(*g);
            out += QStringLiteral("    NONE ;\n");
        }
    }
    return out.toUtf8();
}

std::vector<Partition> withExplicitDefault(std::vector<Partition> partitions)
{
    for (const Partition &p : partitions)
        if (p.pkey && (*p.pkey & kPKeyMask) == kDefaultPKey)
            return partitions;
    Partition def;
    def.name = QStringLiteral("Default");
    def.pkey = kDefaultPKey;
    PartitionMember all;
    all.kind = PartitionMember::Kind::All;
    all.membership = Membership::Limited;
    all.explicitMembership = true;
    PartitionMember self;
    self.kind = PartitionMember::Kind::Self;
    self.membership = Membership::Full;
    self.explicitMembership = true;
    def.members = {all, self};
    partitions.insert(partitions.begin(), def);
    return partitions;
}

PartitionMemberCounts countMembers(const Partition &partition)
{
    PartitionMemberCounts counts;
    for (const PartitionMember &m : partition.members) {
        if (m.kind != PartitionMember::Kind::PortGuid) {
            ++counts.keywords;
            continue;
        }
        if (m.membership != Membership::Limited)
            ++counts.full;
        if (m.membership != Membership::Full)
            ++counts.limited;
    }
    return counts;
}

int countMembers(const Partition &partition, Membership membership)
{
    return int(std::count_if(partition.members.begin(), partition.members.end(), [&](const PartitionMember &m) {
        return m.kind == PartitionMember::Kind::PortGuid && m.membership == membership;
    }));
}

}  // namespace weft
