#include "ServicePlan.h"

#include "IntentRouting.h"
#include "LftDump.h"
#include "PartitionsConf.h"
#include "ProjectFile.h"
#include "TrafficModel.h"
#include "FabricChanges.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace weft {

namespace {

const QString kBody = QStringLiteral("request body");

// "line 3, column 7" of `offset` in `text`.
Error bodyError(const QByteArray &text, qsizetype offset, const QString &message)
{
    const QByteArray before = text.left(offset);
    const int line = int(before.count('\n')) + 1;
    const int column = int(offset - (before.lastIndexOf('\n') + 1)) + 1;
    return Error{kBody, line, QStringLiteral("column %1: %2").arg(column).arg(message)};
}

// A desk's plan of tables: as it reviewed it, made against what this service holds.
Result<CommitPlan> planTables(const Fabric &fabric, const QJsonObject &body, const HeldTables &held)
{
    Result<ForwardingTables> tables = readLftDump(body.value(QStringLiteral("lfts")).toString().toUtf8(), kBody + QStringLiteral(" (lfts)"), &fabric);
    if (!tables)
        return tables.error();
    ProposedRouting routing;
    routing.tables = std::make_shared<const ForwardingTables>(std::move(*tables));
    PlanLabel label;
    label.partitionsFileName = kBody + QStringLiteral(" (partitions)");
    // A desk's partitions.conf that OpenSM would reject is refused here, before it is a plan.
    const QByteArray conf = body.value(QStringLiteral("partitions")).toString().toUtf8();
    if (Result<PartitionsConfResult> read = readPartitionsConf(conf, label.partitionsFileName); !read)
        return read.error();
    if (const QString levels = body.value(QStringLiteral("service_levels")).toString(); !levels.isEmpty()) {
        Result<std::map<std::uint16_t, int>> read = readServiceLevels(levels.toUtf8(), kBody + QStringLiteral(" (service_levels)"));
        if (!read)
            return read.error();
        routing.serviceLevels = std::move(*read);
    }
    std::optional<Tenancy> policies;
    if (body.contains(QStringLiteral("project"))) {
        const QByteArray text = QJsonDocument(body.value(QStringLiteral("project")).toObject()).toJson();
        Result<Project> project = readProject(text, kBody + QStringLiteral(" (project)"));
        if (!project)
            return project.error();
        policies = std::move(project->tenancy);
    }
    label.summary = body.value(QStringLiteral("summary")).toString().left(500);
    label.whatIf = body.value(QStringLiteral("what_if")).toString().left(2000);
    return planFromFiles(&fabric, routing, conf, std::move(policies), label, held);
}

}  // namespace

Result<ServicePlan> makeServicePlan(const QByteArray &body, const Fabric &fabric, const HeldTables &held,
                                    const PartitionsState &inForce, bool pluginMode)
{
    QJsonParseError parseError{};
    const QJsonDocument document = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return bodyError(body, parseError.offset, QStringLiteral("not JSON: %1").arg(parseError.errorString()));
    if (!document.isObject())
        return Error{kBody, 1, QStringLiteral("a plan is a JSON object: a Weft project, or {\"lfts\", \"partitions\", ...}")};
    const QJsonObject object = document.object();
    ServicePlan plan;
    const bool tables = object.contains(QStringLiteral("lfts"));
    plan.origin = tables ? QStringLiteral("tables") : QStringLiteral("project");
    Result<CommitPlan> made = Error{};
    if (tables) {
        if (pluginMode)
            return Error{kBody, 1, QStringLiteral("the target routes with Weft's engine inside OpenSM, which installs a project, "
                                                  "not tables")};
        made = planTables(fabric, object, held);
    } else {
        Result<Project> project = readProject(body, kBody);
        if (!project)
            return project.error();
        // The intent OpenSM's engine reads is the project as Weft read it, written anew: fields
        // it does not know, and whatever else the body carried, do not reach OpenSM's files.
        made = pluginMode ? planIntentCommit(fabric, *project, writeProject(*project), QStringLiteral("intent"), held, &plan.notes)
                          : planProjectCommit(fabric, *project, kBody, held, &plan.notes);
    }
    if (!made)
        return made.error();
    plan.commit = std::move(*made);
    plan.check = checkPlan(fabric, plan.commit);
    plan.review = planCommitChange(fabric, held, inForce, plan.commit);
    plan.madeAt = QDateTime::currentDateTimeUtc();
    return plan;
}

QJsonObject servicePlanJson(const ServicePlan &plan, const QString &state, const QString &refusal)
{
    const ReconfigurationDiff &diff = plan.review.diff;
    QJsonArray partitions;
    for (const Partition &p : plan.check.partitions) {
        const QString prefix = QStringLiteral("partition %1 (").arg(p.name);
        int violations = 0;
        for (const QString &line : plan.check.violations)
            violations += line.startsWith(prefix) ? 1 : 0;
        partitions.append(QJsonObject{{QStringLiteral("name"), p.name},
                                      {QStringLiteral("pkey"), p.pkey ? pkeyText(*p.pkey) : QString()},
                                      {QStringLiteral("policy"), policyName(p.policy)},
                                      {QStringLiteral("met"), violations == 0},
                                      {QStringLiteral("violations"), violations}});
    }
    return QJsonObject{{QStringLiteral("id"), plan.id},
                       {QStringLiteral("made_at"), plan.madeAt.toString(Qt::ISODate)},
                       {QStringLiteral("state"), state},
                       {QStringLiteral("origin"), plan.origin},
                       {QStringLiteral("by"), plan.by},
                       {QStringLiteral("summary"), plan.commit.summary},
                       {QStringLiteral("fabric_generation"), double(plan.fabricGeneration)},
                       {QStringLiteral("held_generation"), double(plan.heldGeneration)},
                       {QStringLiteral("changed_entries"), double(diff.changedEntries)},
                       {QStringLiteral("changed_blocks"), double(diff.changedBlocks)},
                       {QStringLiteral("switches_touched"), diff.switchesTouched()},
                       {QStringLiteral("switch_info_sets"), diff.switchInfoSets},
                       {QStringLiteral("pkey_blocks"), int(diff.pkeyBlocks.size())},
                       {QStringLiteral("smps"), double(diff.smps())},
                       {QStringLiteral("valid"), plan.check.reasons.isEmpty()},
                       {QStringLiteral("problems"), QJsonArray::fromStringList(plan.check.reasons)},
                       {QStringLiteral("violations"), QJsonArray::fromStringList(plan.check.violations)},
                       {QStringLiteral("warnings"), QJsonArray::fromStringList(plan.check.warnings + plan.notes)},
                       {QStringLiteral("partitions"), partitions},
                       {QStringLiteral("refusal"), refusal},
                       {QStringLiteral("partitions_conf"), QString::fromUtf8(plan.commit.partitionsConf)},
                       {QStringLiteral("diff"), diffToJson(diff)}};
}

QString planBasisChange(const ServicePlan &plan, const Fabric &fabric, const HeldTables &held)
{
    if (!plan.commit.madeFor)
        return QStringLiteral("the plan names no fabric it was made for");
    const Fabric &before = *plan.commit.madeFor;
    if (const FabricChanges changes = compareFabrics(before, fabric); !changes.empty())
        return QStringLiteral("the fabric changed: %1").arg(changes.toText().simplified().left(600));
    const HeldTables expected = plan.commit.expectedHeld.value_or(HeldTables{});
    QStringList differences;
    // LFTs, switch by switch: a table known on one side only counts as changed.
    if (bool(expected.lfts) != bool(held.lfts)) {
        differences << (held.lfts ? QStringLiteral("the switches' LFTs were read since, not known when the plan was made")
                                  : QStringLiteral("the switches' LFTs are no longer known"));
    } else if (expected.lfts && held.lfts && expected.lfts != held.lfts) {
        QStringList switches;
        int changed = 0;
        for (const SwitchForwardingTable &now : held.lfts->switches()) {
            const SwitchForwardingTable *then = expected.lfts->find(now.guid);
            if (then && then->lft == now.lft)
                continue;
            ++changed;
            if (switches.size() < 3)
                switches << QStringLiteral("%1 (%2)").arg(guidText(now.guid), now.description.isEmpty() ? QStringLiteral("?") : now.description);
        }
        for (const SwitchForwardingTable &then : expected.lfts->switches())
            if (!held.lfts->contains(then.guid)) {
                ++changed;
                if (switches.size() < 3)
                    switches << QStringLiteral("%1 (its LFT no longer read)").arg(guidText(then.guid));
            }
        if (changed > 0)
            differences << QStringLiteral("the LFTs of %1 switch(es) changed, e.g. %2").arg(changed).arg(switches.join(QStringLiteral(", ")));
    }
    // P_Key tables, by node GUID and port number: the two fabrics may number their ports apart.
    if (bool(expected.pkeys) != bool(held.pkeys)) {
        differences << (held.pkeys ? QStringLiteral("the ports' P_Key tables were read since, not known when the plan was made")
                                   : QStringLiteral("the ports' P_Key tables are no longer known"));
    } else if (expected.pkeys && held.pkeys && expected.pkeys != held.pkeys) {
        std::map<std::pair<Guid, int>, const PortPKeyTable *> then;
        for (const PortPKeyTable &t : expected.pkeys->ports()) {
            const Port &port = before.port(t.port);
            then[{before.node(port.node).guid, int(port.number)}] = &t;
        }
        int changed = 0;
        QStringList ports;
        for (const PortPKeyTable &t : held.pkeys->ports()) {
            const Port &port = fabric.port(t.port);
            const auto it = then.find({fabric.node(port.node).guid, int(port.number)});
            const bool same = it != then.end() && it->second->entries == t.entries && it->second->packed == t.packed;
            if (it != then.end())
                then.erase(it);
            if (same)
                continue;
            ++changed;
            if (ports.size() < 3)
                ports << portDisplayName(fabric, t.port);
        }
        changed += int(then.size());
        if (changed > 0)
            differences << QStringLiteral("the P_Key tables of %1 port(s) changed%2").arg(changed).arg(ports.isEmpty() ? QString() : QStringLiteral(", e.g. ") + ports.join(QStringLiteral(", ")));
    }
    if (expected.smPort != held.smPort)
        differences << QStringLiteral("the master SM's port is %1, was %2 when the plan was made")
                           .arg(held.smPort ? guidText(held.smPort) : QStringLiteral("not known"), expected.smPort ? guidText(expected.smPort) : QStringLiteral("not known"));
    return differences.join(QStringLiteral("; "));
}

QString servicePlanDisagreement(const CommitPlan &plan, const QJsonObject &servicePlan)
{
    if (!plan.madeFor)
        return QStringLiteral("the plan names no fabric, so the service's count of it cannot be checked");
    const ReconfigurationDiff ours = planCommitChange(*plan.madeFor, plan.expectedHeld.value_or(HeldTables{}), PartitionsState{}, plan).diff;
    QStringList differences;
    const auto compare = [&](const char *key, long long mine) {
        const auto theirs = static_cast<long long>(servicePlan.value(QLatin1String(key)).toDouble(-1));
        if (theirs != mine)
            differences << QStringLiteral("%1 %2 here, %3 on the service").arg(QLatin1String(key)).arg(mine).arg(theirs);
    };
    compare("changed_entries", ours.changedEntries);
    compare("changed_blocks", ours.changedBlocks);
    compare("smps", ours.smps());
    if (differences.isEmpty())
        return {};
    return QStringLiteral("the service counts the plan otherwise (%1): the fabric holds something else than this desk was shown; "
                          "discover again and review the plan anew")
        .arg(differences.join(QStringLiteral(", ")));
}

}  // namespace weft
