#include "FileFormat.h"

#include "IbdiagnetLinkList.h"
#include "TextReader.h"

namespace weft {

namespace {

// A line of a P_Key table file (PKeyTableFile.h): a GUID, a port number, then a quote. A
// partitions.conf may list a GUID at the start of a line, but never a number and a quote after it.
bool isPKeyTableLine(std::string_view line)
{
    auto skip = [&line](std::string_view allowed) {
        std::size_t n = 0;
        while (n < line.size() && allowed.find(line[n]) != std::string_view::npos)
            ++n;
        line.remove_prefix(n);
        return n;
    };
    if (!text::startsWith(line, "0x"))
        return false;
    line.remove_prefix(2);
    return skip("0123456789abcdefABCDEF") > 0 && skip(" \t") > 0 && skip("0123456789") > 0 && skip(" \t") > 0
        && text::startsWith(line, "\"");
}

// A line of OpenSM's options file (the file `opensm -c` writes): an option OpenSM knows, a
// space, its value. A partitions.conf line never starts with one of these words and a space.
bool isOpenSmOptionLine(std::string_view line)
{
    static constexpr const char *kOptions[] = {
        "guid", "m_key", "sm_key", "sa_key", "subnet_prefix", "m_key_protection_level", "m_key_lease_period",
        "sweep_interval", "max_wire_smps", "transaction_timeout", "sm_priority", "lmc", "routing_engine",
        "partition_config_file", "log_file", "log_flags", "qos", "event_plugin_name", "event_plugin_options",
        "lfts_file", "use_ucast_cache", "reassign_lids", "force_heavy_sweep", "cn_guid_file", "io_guid_file",
        "root_guid_file", "no_partition_enforcement", "part_enforce", "sm_inactive", "packet_life_time",
        "max_op_vls", "force_link_speed", "sminfo_polling_timeout", "polling_retry_number", "honor_guid2lid_file",
    };
    const std::size_t space = line.find_first_of(" \t");
    if (space == std::string_view::npos)
        return false;
    const std::string_view key = line.substr(0, space);
    for (const char *option : kOptions)
        if (key == option)
            return line.find('=') == std::string_view::npos && line.find(';') == std::string_view::npos;
    return false;
}

}  // namespace

FileFormat detectFileFormat(const QByteArray &data)
{
    using text::startsWith;
    const std::string_view all = text::withoutByteOrderMark(std::string_view(data.constData(), std::size_t(data.size())));
    const std::string_view start = text::trimmed(all.substr(0, 4096));
    if (isIbdiagnetLinkList(data))
        return FileFormat::Topology;
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
        // The header Weft writes above P_Key tables decides even when no port follows it.
        if (startsWith(line, "# P_Key tables:"))
            return FileFormat::PKeyTables;
        if (line.empty() || line.front() == '#')
            continue;
        if (isPKeyTableLine(line))
            return FileFormat::PKeyTables;
        if (isOpenSmOptionLine(line))
            return FileFormat::OpenSmOptions;
        if (line == "Non-Chassis Nodes" || (startsWith(line, "Chassis ") && line.size() > 8 && line[8] >= '0' && line[8] <= '9'))
            return FileFormat::Topology;
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
    case FileFormat::PKeyTables: return "pkeys";
    case FileFormat::OpenSmOptions: return "opensm-options";
    case FileFormat::Unknown: break;
    }
    return "unknown";
}

}  // namespace weft
