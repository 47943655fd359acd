#include "PKeyIndexMemory.h"

#include "Commit.h"

#include "Identifiers.h"
#include "SafeFile.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

#include <optional>

namespace weft {

namespace {

QString pkeyMemoryKey(std::uint16_t pkey) { return QStringLiteral("0x%1").arg(pkey, 4, 16, QLatin1Char('0')); }

// What port `table` holds, on top of `memory`: OpenSM remembers every entry it placed where it is.
void overlayHeldEntries(std::map<std::uint16_t, int> &memory, const std::vector<std::uint16_t> &entries)
{
    for (int i = 0; i < int(entries.size()); ++i)
        if (entries[std::size_t(i)] & kPKeyMask)
            memory[entries[std::size_t(i)]] = i;
}

}  // namespace

QString pkeyIndexMemoryPath(const QString &partitionsPath) { return partitionsPath + QStringLiteral(".weft-pkey-indexes"); }

namespace {

// The memory file's JSON object; none when there is no file.
Result<std::optional<QJsonObject>> readMemoryFile(const QString &path)
{
    QFile file(path);
    if (!file.exists())
        return std::optional<QJsonObject>{};
    if (!file.open(QIODevice::ReadOnly))
        return Error{path, 0, QStringLiteral("cannot read OpenSM's remembered P_Key indices: %1").arg(file.errorString())};
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject())
        return Error{path, 0, QStringLiteral("OpenSM's remembered P_Key indices are not a JSON object: %1").arg(parseError.errorString())};
    return std::optional<QJsonObject>{doc.object()};
}

qint64 memoryPid(const QJsonObject &root) { return root.value(QStringLiteral("opensm_pid")).toInteger(-1); }

Result<PKeyTables> withMemory(const Fabric &fabric, const PKeyTables &read, const QString &path, const QJsonObject &root)
{
    const QJsonObject ports = root.value(QStringLiteral("ports")).toObject();
    std::vector<PortPKeyTable> tables = read.ports();
    for (PortPKeyTable &table : tables) {
        if (table.packed || table.port == kNoIndex)
            continue;
        const QJsonValue value = ports.value(guidText(fabric.port(table.port).guid));
        if (!value.isObject())
            continue;
        std::map<std::uint16_t, int> memory;
        const QJsonObject indices = value.toObject();
        for (auto it = indices.begin(); it != indices.end(); ++it) {
            bool ok = false;
            const uint pkey = it.key().toUInt(&ok, 0);
            const int index = it.value().toInt(-1);
            if (!ok || pkey > 0xffff || (pkey & kPKeyMask) == 0 || index < 0)
                return Error{path, 0, QStringLiteral("port %1: bad remembered P_Key index %2: %3")
                                          .arg(guidText(fabric.port(table.port).guid), it.key()).arg(it.value().toVariant().toString())};
            memory[std::uint16_t(pkey)] = index;
        }
        overlayHeldEntries(memory, table.entries);
        table.remembered = std::move(memory);
    }
    return PKeyTables::fromPorts(std::move(tables));
}

}  // namespace

Result<PKeyTables> withRememberedIndices(const Fabric &fabric, const PKeyTables &read, const QString &path, qint64 pid)
{
    if (pid <= 0)
        return read;
    Result<std::optional<QJsonObject>> root = readMemoryFile(path);
    if (!root)
        return root.error();
    if (!*root || memoryPid(**root) != pid)
        return read;  // none, or written for another OpenSM process: it remembers afresh
    return withMemory(fabric, read, path, **root);
}

Result<PKeyTables> withRememberedIndicesOfRunningOpenSm(const Fabric &fabric, const PKeyTables &read, const QString &path)
{
    Result<std::optional<QJsonObject>> root = readMemoryFile(path);
    if (!root || !*root || !processRunning(memoryPid(**root)))
        return read;  // the review goes on without it; the commit names a damaged file
    return withMemory(fabric, read, path, **root);
}

PKeyTables rememberedAfter(const PKeyTables &predicted, const PKeyTables &held)
{
    std::vector<PortPKeyTable> tables = held.ports();
    for (PortPKeyTable &table : tables) {
        const PortPKeyTable *before = predicted.find(table.port);
        if (table.packed || !before || !before->remembered)
            continue;
        std::map<std::uint16_t, int> memory = *before->remembered;
        overlayHeldEntries(memory, table.entries);
        table.remembered = std::move(memory);
    }
    return PKeyTables::fromPorts(std::move(tables));
}

Status keepRememberedIndices(const Fabric &fabric, const PKeyTables &tables, const QString &path, qint64 pid)
{
    if (pid <= 0)
        return Done{};
    QJsonObject ports;
    for (const PortPKeyTable &table : tables.ports()) {
        if (table.packed || table.port == kNoIndex || !table.remembered)
            continue;
        QJsonObject indices;
        for (const auto &[pkey, index] : *table.remembered)
            indices.insert(pkeyMemoryKey(pkey), index);
        ports.insert(guidText(fabric.port(table.port).guid), indices);
    }
    QJsonObject root;
    root.insert(QStringLiteral("opensm_pid"), pid);
    root.insert(QStringLiteral("ports"), ports);
    return writeFileAtomically(path, QJsonDocument(root).toJson(QJsonDocument::Compact) + '\n');
}

}  // namespace weft
