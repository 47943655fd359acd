#pragma once
// Tells which of Weft's formats a file is in, from its content (never its name), so that
// `weft info` and the GUI's Open accept any of them.

#include <QByteArray>

namespace weft {

enum class FileFormat { Unknown, Topology, LftDump, PartitionsConf, Project, PKeyTables, OpenSmOptions };

FileFormat detectFileFormat(const QByteArray &data);
// "topology", "lfts", "partitions", "project", "pkeys", "opensm-options"
const char *fileFormatName(FileFormat format);

}  // namespace weft
