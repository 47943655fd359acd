#include "FabricDocument.h"

#include "FabricSession.h"
#include "SafeFile.h"
#include "TenancyCommands.h"
#include "TrafficModel.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QUndoStack>

#include <cmath>

namespace weft {

FabricDocument::FabricDocument(QObject *parent)
    : QObject(parent), m_undoStack(new QUndoStack(this)), m_session(new FabricSession(this))
{
    // The session's own news (what the fabric holds, metrics, the proposal, discoveries and
    // commits) reach the views on the document's one channel.
    connect(m_session, &FabricSession::changed, this, &FabricDocument::changed);
    connect(m_session, &FabricSession::discovered, this, [this](std::shared_ptr<const LiveState> state) {
        Tenancy tenancy;
        tenancy.partitions = state->partitions;
        reset(state->fabric, std::move(tenancy), tr("Live fabric (%1)").arg(m_session->adapterText()));
    });
}

FabricDocument::~FabricDocument() = default;

void FabricDocument::reset(std::shared_ptr<const Fabric> fabric, Tenancy tenancy, const QString &title)
{
    m_undoStack->clear();
    m_fabric = std::move(fabric);
    m_tenancy = std::move(tenancy);
    m_title = title;
    m_projectExtras = {};
    announce(DocumentChange::Fabric | kTenancyChanges | DocumentChange::LiveChanges);
}

void FabricDocument::setRoutingEngine(const QString &engine)
{
    m_projectExtras.routingEngine = engine;
}

void FabricDocument::announce(DocumentChanges what)
{
    ++m_revision;
    if (what & DocumentChange::Fabric)
        what |= m_session->setFabric(m_fabric, m_tenancy, m_revision);
    else
        what |= m_session->followTenancy(m_tenancy, m_revision, what);
    Q_EMIT changed(what);
    if (what & DocumentChange::Fabric)
        Q_EMIT fabricReset();
    else if (what & kTenancyChanges)
        Q_EMIT tenancyChanged();
}

std::shared_ptr<const Fabric> FabricDocument::fabric() const
{
    return m_fabric;
}

const Tenancy &FabricDocument::tenancy() const
{
    return m_tenancy;
}

QString FabricDocument::title() const
{
    return m_title;
}

QUndoStack *FabricDocument::undoStack()
{
    return m_undoStack;
}

Error FabricDocument::error(const QString &message) const
{
    return Error{{}, 0, message};
}

void FabricDocument::setWhatIf(const WhatIf &events, const QString &text)
{
    if (events == m_session->whatIf())
        return;
    m_undoStack->push(new SetWhatIfCommand(m_session, events, text));
}

void FabricDocument::assignPorts(const std::vector<Guid> &ports, std::uint16_t pkey, Membership membership)
{
    const Partition *partition = m_tenancy.findPartition(pkey);
    if (!partition || ports.empty())
        return;
    auto command = std::make_unique<AssignPortsCommand>(this, *partition, ports, membership);
    if (command->changesSomething())
        m_undoStack->push(command.release());
}

void FabricDocument::removePorts(const std::vector<Guid> &ports, std::uint16_t pkey)
{
    const Partition *partition = m_tenancy.findPartition(pkey);
    if (!partition || ports.empty())
        return;
    auto command = std::make_unique<RemovePortsCommand>(this, *partition, ports);
    if (command->changesSomething())
        m_undoStack->push(command.release());
}

void FabricDocument::movePorts(const std::vector<Guid> &ports, std::uint16_t from, std::uint16_t to, Membership membership)
{
    const Partition *source = m_tenancy.findPartition(from);
    const Partition *target = m_tenancy.findPartition(to);
    if (!source || !target || from == to || ports.empty())
        return;
    m_undoStack->beginMacro(tr("Move %n host(s) from %1 to %2", nullptr, int(ports.size())).arg(source->name, target->name));
    assignPorts(ports, to, membership);
    removePorts(ports, from);
    m_undoStack->endMacro();
}

void FabricDocument::assignTenant(const QString &tenant, std::uint16_t pkey, Membership membership)
{
    const Partition *partition = m_tenancy.findPartition(pkey);
    const auto it = std::find_if(m_tenancy.tenants.begin(), m_tenancy.tenants.end(),
                                 [&](const Tenant &t) { return t.name == tenant; });
    if (!partition || it == m_tenancy.tenants.end())
        return;
    auto command = std::make_unique<AssignTenantCommand>(this, *partition, *it, membership);
    if (command->changesSomething())
        m_undoStack->push(command.release());
}

Status FabricDocument::checkPartitionName(const QString &name, std::uint16_t exceptPKey) const
{
    if (name.trimmed().isEmpty())
        return error(tr("A partition needs a name."));
    // partitions.conf ends a name at '=', ',' or ':', and '#' starts a comment; OpenSM would
    // read anything else as part of the name, spaces included, but a space is never meant.
    static const QString forbidden = QStringLiteral("=,:;#");
    for (QChar c : name)
        if (forbidden.contains(c) || c.isSpace())
            return error(tr("The partition name \"%1\" contains \"%2\"; use letters, digits, '-', '_' or '.'.")
                             .arg(name, c.isSpace() ? tr("a space") : QString(c)));
    for (const Partition &p : m_tenancy.partitions) {
        const bool same = p.pkey && (*p.pkey & kPKeyMask) == (exceptPKey & kPKeyMask);
        if (!same && p.name == name)
            return error(tr("A partition named \"%1\" already exists (P_Key %2).")
                             .arg(name, p.pkey ? pkeyText(*p.pkey) : tr("automatic")));
    }
    return Done{};
}

Status FabricDocument::createPartition(const QString &name, std::uint16_t pkey)
{
    const std::uint16_t key = pkey & kPKeyMask;
    if (key == 0)
        return error(tr("P_Key 0x0000 names no partition; use 0x0001 to 0x7fff."));
    if (const Partition *existing = m_tenancy.findPartition(key))
        return error(tr("P_Key %1 is already used by partition \"%2\".").arg(pkeyText(key), existing->name));
    if (Status ok = checkPartitionName(name, 0); !ok)
        return ok;
    Partition partition;
    partition.name = name;
    partition.pkey = key;
    m_undoStack->push(new CreatePartitionCommand(this, std::move(partition)));
    return Done{};
}

Status FabricDocument::renamePartition(std::uint16_t pkey, const QString &name)
{
    const Partition *partition = m_tenancy.findPartition(pkey);
    if (!partition)
        return error(tr("There is no partition with P_Key %1.").arg(pkeyText(pkey & kPKeyMask)));
    if (partition->name == name)
        return Done{};
    if (Status ok = checkPartitionName(name, pkey); !ok)
        return ok;
    m_undoStack->push(new RenamePartitionCommand(this, pkey, partition->name, name));
    return Done{};
}

void FabricDocument::deletePartition(std::uint16_t pkey)
{
    if (m_tenancy.findPartition(pkey))
        m_undoStack->push(new DeletePartitionCommand(this, pkey));
}

void FabricDocument::setPolicy(std::uint16_t pkey, IsolationPolicy policy)
{
    const Partition *partition = m_tenancy.findPartition(pkey);
    if (partition && partition->policy != policy)
        m_undoStack->push(new SetPolicyCommand(this, *partition, policy));
}

void FabricDocument::setPolicyMode(PolicyMode mode)
{
    if (m_tenancy.mode != mode)
        m_undoStack->push(new SetPolicyModeCommand(this, mode));
}

void FabricDocument::setNodeWeight(Guid port, double weight)
{
    if (!std::isfinite(weight) || weight <= 0)
        return;
    const auto it = m_tenancy.nodeWeights.find(port);
    const double current = it == m_tenancy.nodeWeights.end() ? 1.0 : it->second;
    if (weight == current)
        return;
    m_undoStack->push(new SetNodeWeightCommand(this, port, weight == 1.0 ? std::nullopt : std::optional<double>(weight)));
}

Status FabricDocument::importWeights(const QString &path)
{
    if (!m_fabric)
        return Error{path, 0, tr("no fabric is loaded to apply weights to")};
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error{path, 0, tr("cannot read: %1").arg(file.errorString())};
    const Result<std::map<Guid, double>> read = readNodeWeights(file.readAll(), path, *m_fabric);
    if (!read)
        return read.error();
    std::map<Guid, double> weights = m_tenancy.nodeWeights;
    for (const auto &[guid, weight] : *read) {
        if (weight == 1.0)
            weights.erase(guid);
        else
            weights[guid] = weight;
    }
    if (weights != m_tenancy.nodeWeights)
        m_undoStack->push(new ImportWeightsCommand(this, std::move(weights), int(read->size()), QFileInfo(path).fileName()));
    return Done{};
}

Project FabricDocument::project() const
{
    Project project = m_projectExtras;
    project.tenancy = m_tenancy;
    if (project.fabricSource.isEmpty())
        project.fabricSource = m_title;
    return project;
}

Status FabricDocument::saveProject(const QString &path) const
{
    const Status written = writeFileAtomically(path, writeProject(project()));
    if (written)
        m_undoStack->setClean();
    return written;
}

Status FabricDocument::openProject(const QString &path, QStringList *missingGuids)
{
    if (!m_fabric)
        return Error{path, 0, tr("no fabric is loaded to bind the project to")};
    const Result<Project> read = readProjectFile(path);
    if (!read)
        return read.error();
    BoundProject bound = bindProject(*read, *m_fabric);
    if (missingGuids)
        *missingGuids = bound.missing;
    m_undoStack->clear();
    m_projectExtras = bound.project;
    m_tenancy = std::move(bound.project.tenancy);
    m_projectExtras.tenancy = {};
    announce(kTenancyChanges);
    if (!m_projectExtras.routingEngine.isEmpty())
        Q_EMIT routingEngineChosen(m_projectExtras.routingEngine);
    return Done{};
}

Result<std::uint16_t> parsePKeyText(const QString &text)
{
    const QString trimmed = text.trimmed();
    auto fail = [](const QString &message) { return Result<std::uint16_t>(Error{{}, 0, message}); };
    if (trimmed.isEmpty())
        return fail(QCoreApplication::translate("weft::FabricDocument", "Enter a P_Key, such as 0x0012."));
    bool ok = false;
    // Decimal or 0x-hex only: base 0 would read "012" as octal, which nobody typing a key means.
    const bool hex = trimmed.startsWith(QLatin1String("0x"), Qt::CaseInsensitive);
    const qulonglong value = hex ? trimmed.mid(2).toULongLong(&ok, 16) : trimmed.toULongLong(&ok, 10);
    if (!ok)
        return fail(QCoreApplication::translate("weft::FabricDocument",
                                                "\"%1\" is not a P_Key; write it in hex with 0x (0x0012) or in decimal.")
                        .arg(trimmed));
    if (value > 0xffff)
        return fail(QCoreApplication::translate("weft::FabricDocument", "P_Key %1 is wider than 16 bits.").arg(trimmed));
    if ((value & kPKeyMask) == 0)
        return fail(QCoreApplication::translate("weft::FabricDocument",
                                                "P_Key 0x0000 names no partition; use 0x0001 to 0x7fff."));
    return std::uint16_t(value & kPKeyMask);
}

}  // namespace weft
