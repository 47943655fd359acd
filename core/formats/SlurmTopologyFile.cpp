#include "SlurmTopologyFile.h"

#include "TextReader.h"

#include <QRegularExpression>

#include <algorithm>
#include <map>
#include <set>

namespace weft {

namespace {

bool isSlurmGuidKey(const QString &key, Guid *guid)
{
    static const QRegularExpression form(QStringLiteral("^(?:0[xX][0-9a-fA-F]{1,16}|[0-9a-fA-F]{16})$"));
    if (!form.match(key).hasMatch())
        return false;
    bool ok = false;
    const QString digits = key.startsWith(QLatin1String("0x"), Qt::CaseInsensitive) ? key.mid(2) : key;
    *guid = digits.toULongLong(&ok, 16);
    return ok && *guid != 0;
}

// A name with its trailing number split off: "node" and "07" for "node07"; no number when the
// name has no digits at its end, or nothing before them.
struct NumberedHostName
{
    QString prefix;
    QString digits;
};

NumberedHostName splitHostNumber(const QString &name)
{
    qsizetype start = name.size();
    while (start > 0 && name.at(start - 1).isDigit())
        --start;
    if (start == 0 || start == name.size() || name.size() - start > 18)
        return {name, {}};
    return {name.left(start), name.mid(start)};
}

// The digits of `value` padded to `width` (0: not padded), as a host list range prints them.
QString paddedHostNumber(std::uint64_t value, int width)
{
    return QString::number(value).rightJustified(width, QLatin1Char('0'));
}

QString hostRangesText(std::vector<std::pair<std::uint64_t, QString>> numbers)
{
    std::sort(numbers.begin(), numbers.end(), [](const auto &a, const auto &b) {
        return a.first != b.first ? a.first < b.first : a.second < b.second;
    });
    numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
    QStringList ranges;
    std::size_t i = 0;
    while (i < numbers.size()) {
        const auto &[first, text] = numbers[i];
        // A leading zero fixes the width; a number written without one is not padded.
        const int width = text.size() > 1 && text.startsWith(QLatin1Char('0')) ? int(text.size()) : 0;
        std::uint64_t last = first;
        std::size_t j = i + 1;
        while (j < numbers.size() && numbers[j].first == last + 1 && paddedHostNumber(numbers[j].first, width) == numbers[j].second
               && (width == 0 || numbers[j].second.size() == width)) {
            last = numbers[j].first;
            ++j;
        }
        ranges << (last == first ? text : text + QLatin1Char('-') + paddedHostNumber(last, width));
        i = j;
    }
    return ranges.join(QLatin1Char(','));
}

// The first word of a CA's description as its host's name, or why it gives none.
QString slurmYamlScalar(const QString &text)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z][A-Za-z0-9._\\[\\],-]*$"));
    static const QStringList special = {QStringLiteral("true"), QStringLiteral("false"), QStringLiteral("yes"), QStringLiteral("no"),
                                        QStringLiteral("on"), QStringLiteral("off"), QStringLiteral("null"), QStringLiteral("y"),
                                        QStringLiteral("n")};
    if (plain.match(text).hasMatch() && !special.contains(text, Qt::CaseInsensitive))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1Char('\\'), QStringLiteral("\\\\")).replace(QLatin1Char('"'), QStringLiteral("\\\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

}  // namespace

std::optional<SlurmTopologyForm> slurmTopologyFormFromName(const QString &name)
{
    if (name == QLatin1String("tree"))
        return SlurmTopologyForm::Tree;
    if (name == QLatin1String("block"))
        return SlurmTopologyForm::Block;
    if (name == QLatin1String("yaml"))
        return SlurmTopologyForm::Yaml;
    return std::nullopt;
}

bool isSlurmName(const QString &name)
{
    static const QRegularExpression form(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"));
    return form.match(name).hasMatch();
}

Result<SlurmNames> readSlurmNames(const QByteArray &data, const QString &fileName)
{
    TextReader reader(data, fileName);
    SlurmNames names;
    names.fileName = fileName;
    try {
        while (reader.next()) {
            QString line = text::toQString(reader.line()).trimmed();
            // A comment starts at a '#' outside the quotes of a description.
            bool quoted = false;
            for (qsizetype i = 0; i < line.size(); ++i) {
                if (line.at(i) == QLatin1Char('"'))
                    quoted = !quoted;
                else if (line.at(i) == QLatin1Char('#') && !quoted) {
                    line.truncate(i);
                    break;
                }
            }
            line = line.trimmed();
            if (line.isEmpty())
                continue;
            const qsizetype space = line.lastIndexOf(QRegularExpression(QStringLiteral("\\s")));
            if (space < 0)
                reader.fail(QStringLiteral("expected a GUID or node description, then the name: \"%1\"").arg(line));
            const QString name = line.mid(space + 1);
            QString key = line.left(space).trimmed();
            if (key.startsWith(QLatin1Char('"'))) {
                if (key.size() < 2 || !key.endsWith(QLatin1Char('"')))
                    reader.fail(QStringLiteral("the description %1 lacks its closing quote").arg(key));
                key = key.mid(1, key.size() - 2);
            } else if (key.contains(QLatin1Char('"'))) {
                reader.fail(QStringLiteral("a quote inside the description %1: quote the whole description").arg(key));
            }
            if (key.isEmpty())
                reader.fail(QStringLiteral("empty description before the name \"%1\"").arg(name));
            if (!isSlurmName(name))
                reader.fail(QStringLiteral("\"%1\" cannot be a Slurm name (a letter or digit, then letters, digits, '-', '_' or '.'; "
                                           "at most 64 characters)")
                                .arg(name));
            const SlurmNameEntry entry{name, reader.lineNumber()};
            Guid guid = 0;
            int earlier = 0;
            if (isSlurmGuidKey(key, &guid)) {
                if (const auto [it, inserted] = names.byGuid.emplace(guid, entry); !inserted)
                    earlier = it->second.line;
            } else if (const auto [it, inserted] = names.byDescription.emplace(key, entry); !inserted) {
                earlier = it->second.line;
            }
            if (earlier)
                reader.fail(QStringLiteral("%1 is named already (line %2)").arg(key).arg(earlier));
        }
    } catch (const InputError &e) {
        return reader.error(e);
    }
    return names;
}

Result<SlurmNames> readSlurmNamesFile(const QString &path)
{
    Result<QByteArray> data = TextReader::readFile(path);
    if (!data)
        return data.error();
    return readSlurmNames(*data, path);
}

QString compressHostList(const QStringList &names)
{
    // Keyed by prefix (or by the whole name, for names without a number): Slurm's order.
    std::map<QString, std::vector<std::pair<std::uint64_t, QString>>> numbered;
    std::set<QString> plain;
    for (const QString &name : names) {
        const NumberedHostName split = splitHostNumber(name);
        if (split.digits.isEmpty())
            plain.insert(name);
        else
            numbered[split.prefix].emplace_back(split.digits.toULongLong(), split.digits);
    }
    std::map<QString, QString> parts;
    for (const QString &name : plain)
        parts.emplace(name, name);
    for (auto &[prefix, numbers] : numbered) {
        const QString ranges = hostRangesText(std::move(numbers));
        const bool single = !ranges.contains(QLatin1Char(',')) && !ranges.contains(QLatin1Char('-'));
        const QString text = single ? prefix + ranges : prefix + QLatin1Char('[') + ranges + QLatin1Char(']');
        // A plain name equal to a prefix ("node" beside "node[1-2]") keeps its own entry.
        parts.emplace(prefix + QChar(0x1), text);
    }
    QStringList joined;
    for (const auto &part : parts)
        joined << part.second;
    return joined.join(QLatin1Char(','));
}

Result<QStringList> expandHostList(const QString &list, const QString &what)
{
    const auto fail = [&](const QString &message) {
        return Error{what, 0, QStringLiteral("the host list \"%1\": %2").arg(list.left(200), message)};
    };
    // Top-level items: commas inside brackets separate ranges, not names.
    QStringList items;
    {
        QString item;
        int depth = 0;
        for (const QChar c : list) {
            if (c == QLatin1Char('['))
                ++depth;
            else if (c == QLatin1Char(']') && --depth < 0)
                return fail(QStringLiteral("a ']' without its '['"));
            if (c == QLatin1Char(',') && depth == 0) {
                items << item;
                item.clear();
            } else if (depth > 1) {
                return fail(QStringLiteral("a '[' inside brackets"));
            } else {
                item += c;
            }
        }
        if (depth != 0)
            return fail(QStringLiteral("a '[' without its ']'"));
        items << item;
    }
    QStringList names;
    std::set<QString> seen;
    for (const QString &raw : items) {
        const QString item = raw.trimmed();
        if (item.isEmpty()) {
            if (items.size() == 1 && raw.isEmpty())
                break;  // an empty list names no host
            return fail(QStringLiteral("an empty name between commas"));
        }
        // Each bracket multiplies what went before by its numbers.
        QStringList partial{QString()};
        qsizetype at = 0;
        while (at < item.size()) {
            const qsizetype open = item.indexOf(QLatin1Char('['), at);
            const QString text = item.mid(at, open < 0 ? -1 : open - at);
            for (QString &p : partial)
                p += text;
            if (open < 0)
                break;
            const qsizetype close = item.indexOf(QLatin1Char(']'), open);
            const QString ranges = item.mid(open + 1, close - open - 1);
            if (ranges.trimmed().isEmpty())
                return fail(QStringLiteral("an empty bracket in \"%1\"").arg(item));
            QStringList numbers;
            for (const QString &range : ranges.split(QLatin1Char(','))) {
                static const QRegularExpression form(QStringLiteral("^(\\d{1,18})(?:-(\\d{1,18}))?$"));
                const QRegularExpressionMatch m = form.match(range.trimmed());
                if (!m.hasMatch())
                    return fail(QStringLiteral("\"%1\" in \"%2\" is neither a number nor a range of numbers (\"01-04\")").arg(range, item));
                const qulonglong first = m.captured(1).toULongLong();
                const qulonglong last = m.hasCaptured(2) ? m.captured(2).toULongLong() : first;
                if (last < first)
                    return fail(QStringLiteral("the range \"%1\" in \"%2\" runs down").arg(range, item));
                if (last - first >= qulonglong(kMaxExpandedHosts) || numbers.size() + qsizetype(last - first) >= kMaxExpandedHosts)
                    return fail(QStringLiteral("more than %1 names").arg(kMaxExpandedHosts));
                const int width = int(m.captured(1).size());
                for (qulonglong n = first; n <= last; ++n)
                    numbers << QStringLiteral("%1").arg(n, width, 10, QLatin1Char('0'));
            }
            if (partial.size() * numbers.size() > kMaxExpandedHosts)
                return fail(QStringLiteral("more than %1 names").arg(kMaxExpandedHosts));
            QStringList next;
            for (const QString &p : partial)
                for (const QString &n : numbers)
                    next << p + n;
            partial = std::move(next);
            at = close + 1;
        }
        for (const QString &name : partial) {
            if (!isSlurmName(name))
                return fail(QStringLiteral("\"%1\" cannot be a Slurm node name").arg(name));
            if (seen.insert(name).second)
                names << name;
            if (names.size() > kMaxExpandedHosts)
                return fail(QStringLiteral("more than %1 names").arg(kMaxExpandedHosts));
        }
    }
    return names;
}

QByteArray writeSlurmTopology(const SlurmTopology &topology, SlurmTopologyForm form, const SlurmTopologyOrigin &origin)
{
    std::size_t leaves = 0;
    for (const SlurmSwitch &s : topology.switches)
        leaves += s.level == 1;
    const char *what = form == SlurmTopologyForm::Tree ? "topology.conf for Slurm's topology/tree plugin"
        : form == SlurmTopologyForm::Block             ? "topology.conf for Slurm's topology/block plugin"
                                                       : "topology.yaml for Slurm 25.05 and later (topology/tree)";
    QString text;
    text += QStringLiteral("# %1, written by weft %2\n").arg(QLatin1String(what), origin.version);
    text += QStringLiteral("# made from %1 on %2\n")
                .arg(text::withoutControlCharacters(origin.source), origin.made.toUTC().toString(Qt::ISODate));
    text += QStringLiteral("# %1 leaf switches, %2 above them, %3 hosts")
                .arg(leaves)
                .arg(topology.switches.size() - leaves)
                .arg(topology.hosts);
    if (topology.excludedEndNodes)
        text += QStringLiteral(" (%1 end nodes left out by role)").arg(topology.excludedEndNodes);
    text += QLatin1Char('\n');

    switch (form) {
    case SlurmTopologyForm::Tree:
        for (const SlurmSwitch &s : topology.switches)
            text += s.level == 1 ? QStringLiteral("SwitchName=%1 Nodes=%2\n").arg(s.name, compressHostList(s.hosts))
                                 : QStringLiteral("SwitchName=%1 Switches=%2\n").arg(s.name, compressHostList(s.children));
        break;
    case SlurmTopologyForm::Block: {
        int smallest = 0;
        for (const SlurmSwitch &s : topology.switches) {
            if (s.level != 1)
                continue;
            text += QStringLiteral("BlockName=%1 Nodes=%2\n").arg(s.name, compressHostList(s.hosts));
            smallest = smallest == 0 ? int(s.hosts.size()) : std::min(smallest, int(s.hosts.size()));
        }
        QStringList sizes;
        for (std::size_t blocks = 1; blocks <= leaves; blocks *= 2)
            sizes << QString::number(std::size_t(smallest) * blocks);
        text += QStringLiteral("BlockSizes=%1\n").arg(sizes.join(QLatin1Char(',')));
        break;
    }
    case SlurmTopologyForm::Yaml:
        text += QStringLiteral("- topology: default\n  cluster_default: true\n  tree:\n    switches:\n");
        for (const SlurmSwitch &s : topology.switches) {
            text += QStringLiteral("      - switch: %1\n").arg(slurmYamlScalar(s.name));
            text += s.level == 1 ? QStringLiteral("        nodes: %1\n").arg(slurmYamlScalar(compressHostList(s.hosts)))
                                 : QStringLiteral("        children: %1\n").arg(slurmYamlScalar(compressHostList(s.children)));
        }
        break;
    }
    return text.toUtf8();
}

QByteArray slurmTopologyBody(const QByteArray &text)
{
    qsizetype at = 0;
    while (at < text.size() && text.at(at) == '#') {
        const qsizetype end = text.indexOf('\n', at);
        at = end < 0 ? text.size() : end + 1;
    }
    return text.mid(at);
}

}  // namespace weft
