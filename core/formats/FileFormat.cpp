#include "FileFormat.h"

#include "TextReader.h"

namespace weft {

FileFormat detectFileFormat(const QByteArray &data)
{
    using text::startsWith;
    const std::string_view all = text::withoutByteOrderMark(std::string_view(data.constData(), std::size_t(data.size())));
    const std::string_view start = text::trimmed(all.substr(0, 4096));
    if (!start.empty() && start.front() == '{')
        return all.find("\"weft-project\"") != std::string_view::npos ? FileFormat::Project : FileFormat::Unknown;

    // The first meaningful line decides; comments and blank lines are skipped. A partitions.conf
    // is recognised by the ':' and ';' of its definitions once nothing else matched.
    bool sawDefinitionPunctuation = false;
    std::size_t pos = 0;
    int lines = 0;
    while (pos < all.size() && lines < 2000) {
        std::size_t end = all.find('\n', pos);
        if (end == std::string_view::npos)
            end = all.size();
        std::string_view line = text::trimmed(all.substr(pos, end - pos));
        pos = end + 1;
        ++lines;
        if (line.empty() || line.front() == '#')
            continue;
        if (startsWith(line, "Unicast lids") || startsWith(line, "Multicast mlids"))
            return FileFormat::LftDump;
        for (const char *word : {"Switch", "Ca", "Hca", "Rt"}) {
            const std::string_view w(word);
            if (startsWith(line, w) && line.size() > w.size() && (line[w.size()] == ' ' || line[w.size()] == '\t')
                && line.find('"') != std::string_view::npos)
                return FileFormat::Topology;
        }
        for (const char *key : {"switchguid=", "caguid=", "hcaguids=", "rtguid=", "vendid=", "devid=", "sysimgguid="})
            if (startsWith(line, key))
                return FileFormat::Topology;
        if (line.find(':') != std::string_view::npos || line.find(';') != std::string_view::npos)
            sawDefinitionPunctuation = true;
    }
    return sawDefinitionPunctuation ? FileFormat::PartitionsConf : FileFormat::Unknown;
}

const char *fileFormatName(FileFormat format)
{
    switch (format) {
    case FileFormat::Topology: return "topology";
    case FileFormat::LftDump: return "lfts";
    case FileFormat::PartitionsConf: return "partitions";
    case FileFormat::Project: return "project";
    case FileFormat::Unknown: break;
    }
    return "unknown";
}

}  // namespace weft
