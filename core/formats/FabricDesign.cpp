#include "FabricDesign.h"

#include "FileFormat.h"
#include "TextReader.h"
#include "TopologyFile.h"

#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>
#include <map>

namespace weft {

namespace {

// The fields of one CSV line; a field may be double-quoted, "" inside quotes is a quote.
QStringList csvFields(const QString &line, const TextReader &in)
{
    QStringList fields;
    QString field;
    bool quoted = false;
    bool wasQuoted = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line.at(i);
        if (quoted) {
            if (c == QLatin1Char('"')) {
                if (i + 1 < line.size() && line.at(i + 1) == QLatin1Char('"')) {
                    field += c;
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                field += c;
            }
        } else if (c == QLatin1Char('"') && field.trimmed().isEmpty()) {
            quoted = wasQuoted = true;
            field.clear();
        } else if (c == QLatin1Char(',')) {
            fields << (wasQuoted ? field : field.trimmed());
            field.clear();
            wasQuoted = false;
        } else {
            field += c;
        }
    }
    if (quoted)
        in.fail(QStringLiteral("a quoted field is not closed"));
    fields << (wasQuoted ? field : field.trimmed());
    return fields;
}

bool looksLikeGuid(const QString &text, Guid *guid)
{
    static const QRegularExpression hex(QStringLiteral("^(0x[0-9a-fA-F]{1,16}|[0-9a-fA-F]{16})$"));
    if (!hex.match(text).hasMatch())
        return false;
    bool ok = false;
    *guid = text.startsWith(QLatin1String("0x"), Qt::CaseInsensitive) ? text.mid(2).toULongLong(&ok, 16) : text.toULongLong(&ok, 16);
    return ok && *guid != 0;
}

DesignEnd endOf(const QString &device, const QString &port, const char *which, const TextReader &in)
{
    if (device.isEmpty())
        in.fail(QStringLiteral("the %1 device is empty").arg(QLatin1String(which)));
    DesignEnd end;
    if (!looksLikeGuid(device, &end.guid))
        end.device = device;
    bool ok = false;
    end.port = port.toInt(&ok);
    if (!ok || end.port < 1 || end.port > 254)
        in.fail(QStringLiteral("%1 port \"%2\" of \"%3\" is not a port number (1-254)").arg(QLatin1String(which), port, device));
    return end;
}

// "4xEDR", "4X EDR", "EDR", "4x", "EDR 4x": a width, a speed or both.
void readLinkType(const QString &text, DesignCable *cable, const TextReader &in)
{
    static const QRegularExpression part(QStringLiteral("^(\\d+)[xX]"));
    QString rest = text.simplified().remove(QLatin1Char(' '));
    if (rest.isEmpty())
        return;
    auto takeWidth = [&] {
        const QRegularExpressionMatch m = part.match(rest);
        if (!m.hasMatch())
            return;
        cable->width = m.captured(1).toInt();
        rest = rest.mid(m.capturedLength());
    };
    takeWidth();
    if (!rest.isEmpty()) {
        // A speed, possibly followed by the width ("EDR4x").
        static const QRegularExpression speedThenWidth(QStringLiteral("^([A-Za-z]+\\d*?)(\\d+[xX])?$"));
        const QRegularExpressionMatch m = speedThenWidth.match(rest);
        const LinkSpeed speed = m.hasMatch() ? linkSpeedFromName(m.captured(1).toUpper()) : LinkSpeed::Unknown;
        if (speed == LinkSpeed::Unknown)
            in.fail(QStringLiteral("link type \"%1\" is not a width and speed such as 4xEDR").arg(text));
        cable->speed = speed;
        if (!m.captured(2).isEmpty()) {
            if (cable->width)
                in.fail(QStringLiteral("link type \"%1\" gives the width twice").arg(text));
            cable->width = m.captured(2).chopped(1).toInt();
        }
    }
    if (cable->width && cable->width != 1 && cable->width != 2 && cable->width != 4 && cable->width != 8 && cable->width != 12)
        in.fail(QStringLiteral("link type \"%1\": a link is 1x, 2x, 4x, 8x or 12x wide").arg(text));
}

QString endKey(const DesignEnd &end)
{
    return (end.guid ? QStringLiteral("g") + QString::number(end.guid, 16) : QStringLiteral("d") + end.device) + QLatin1Char('[')
        + QString::number(end.port) + QLatin1Char(']');
}

QString endText(const DesignEnd &end)
{
    return QStringLiteral("%1[%2]").arg(end.device.isEmpty() ? guidText(end.guid) : end.device).arg(end.port);
}

}  // namespace

QString linkTypeText(int width, LinkSpeed speed)
{
    QString text;
    if (width)
        text += QString::number(width) + QLatin1Char('x');
    if (speed != LinkSpeed::Unknown)
        text += linkSpeedName(speed);
    return text;
}

FabricDesign designOfFabric(const Fabric &fabric, const QString &file)
{
    FabricDesign design;
    design.file = file;
    design.cables.reserve(fabric.links().size());
    auto endOfPort = [&](const Port &p) {
        const Node &n = fabric.node(p.node);
        return DesignEnd{n.guid, displayName(n), p.number};
    };
    for (const Link &link : fabric.links()) {
        const Port &a = fabric.port(link.a);
        const Port &b = fabric.port(link.b);
        DesignCable cable{endOfPort(a), endOfPort(b), 0, LinkSpeed::Unknown, 0};
        // What both ends agree on; an end that does not say leaves it to the other.
        cable.width = a.width && b.width ? std::min(a.width, b.width) : std::max(a.width, b.width);
        cable.speed = std::max(a.speed, b.speed);
        if (a.speed != LinkSpeed::Unknown && b.speed != LinkSpeed::Unknown)
            cable.speed = std::min(a.speed, b.speed);
        design.cables.push_back(cable);
    }
    return design;
}

Result<FabricDesign> readCablingList(const QByteArray &data, const QString &fileName)
{
    TextReader in(data, fileName);
    FabricDesign design;
    design.file = fileName;
    std::map<QString, int> portLine;  // an end already cabled, and the line that said so
    bool first = true;
    try {
        while (in.next()) {
            const QString line = text::toQString(text::trimmed(in.line()));
            if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
                continue;
            const QStringList fields = csvFields(line, in);
            const bool header = first && fields.size() >= 4 && !fields.at(1).isEmpty() && !fields.at(1).at(0).isDigit()
                && !fields.at(3).isEmpty() && !fields.at(3).at(0).isDigit();
            first = false;
            if (header)
                continue;
            if (fields.size() < 4 || fields.size() > 5)
                in.fail(QStringLiteral("%1 fields; a cable is: start device, start port, end device, end port[, link type]")
                            .arg(fields.size()));
            DesignCable cable;
            cable.line = in.lineNumber();
            cable.a = endOf(fields.at(0), fields.at(1), "start", in);
            cable.b = endOf(fields.at(2), fields.at(3), "end", in);
            if (fields.size() == 5)
                readLinkType(fields.at(4), &cable, in);
            for (const DesignEnd *end : {&cable.a, &cable.b}) {
                const auto [it, inserted] = portLine.emplace(endKey(*end), in.lineNumber());
                if (!inserted)
                    in.fail(QStringLiteral("%1 is cabled twice (line %2 cables it too)").arg(endText(*end)).arg(it->second));
            }
            design.cables.push_back(std::move(cable));
        }
    } catch (const InputError &e) {
        return in.error(e);
    }
    if (design.cables.empty())
        return Error{fileName, 0, QStringLiteral("the cabling list names no cable")};
    return design;
}

Result<FabricDesign> readDesignFile(const QString &path)
{
    Result<QByteArray> data = TextReader::readFile(path);
    if (!data)
        return data.error();
    const bool csvName = QFileInfo(path).suffix().compare(QLatin1String("csv"), Qt::CaseInsensitive) == 0;
    if (csvName || (detectFileFormat(*data) != FileFormat::Topology && data->contains(',')))
        return readCablingList(*data, path);
    Result<Fabric> fabric = readTopology(*data, path);
    if (!fabric)
        return fabric.error();
    return designOfFabric(*fabric, path);
}

}  // namespace weft
