#include "PKeyIndexMemory.h"

#include "Identifiers.h"
#include "SafeFile.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

#include <cerrno>
#include <csignal>

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

Result<PKeyTables> withRememberedIndices(const Fabric &fabric, const PKeyTables &read, const QString &path, qint64 pid)
{
    QFile file(path);
    if (pid <= 0 || !file.exists())
        return read;
    if (!file.open(QIODevice::ReadOnly))
        return Error{path, 0, QStringLiteral("cannot read OpenSM's remembered P_Key indices: %1").arg(file.errorString())};
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject())
        return Error{path, 0, QStringLiteral("OpenSM's remembered P_Key indices are not a JSON object: %1").arg(parseError.errorString())};
    const QJsonObject root = doc.object();
    if (root.value(QStringLiteral("opensm_pid")).toInteger(-1) != pid)
        return read;  // written for another OpenSM process: it remembers afresh
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

Result<PKeyTables> withRememberedIndicesOfRunningOpenSm(const Fabric &fabric, const PKeyTables &read, const QString &path)
{
    QFile file(path);
    if (!file.exists() || !file.open(QIODevice::ReadOnly))
        return read;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll());
    const qint64 pid = doc.isObject() ? doc.object().value(QStringLiteral("opensm_pid")).toInteger(-1) : -1;
    // Alive, as the commit judges OpenSM's pid (EPERM: it runs as another user).
    if (pid <= 0 || (::kill(pid_t(pid), 0) != 0 && errno != EPERM))
        return read;
    return withRememberedIndices(fabric, read, path, pid);
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
