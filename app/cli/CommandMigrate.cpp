// weft migrate: plans the live migration of one VM on a vSwitch fabric (spec 001 §3, §7.5)
// and writes the tables after it. Planning and reconfiguration live in routing/; this prints.

#include "CliSupport.h"
#include "Commands.h"
#include "LftDump.h"
#include "VSwitchMigration.h"

#include <QJsonArray>

namespace weft::cli {

namespace {

const QString kMigrateCommand = QStringLiteral("migrate");

QString portText(std::uint8_t port)
{
    return port == kNoRoute ? QStringLiteral("-") : QString::number(port);
}

}  // namespace

int migrate(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Plans the live migration of a VM on a vSwitch (SR-IOV) fat-tree and prints the switches to\n"
        "update, the entries and LFT blocks that change, the SMPs and a safe update order.\n\n"
        "A VM is named by its VF: the node description (\"hyp0003 VF2\") or the VF's node or port GUID.\n"
        "--to names a hypervisor by its name, the vSwitch description without \" vSwitch\" (\"hyp0007\"),\n"
        "or by the vSwitch GUID; \"hyp0007 VF3\" names the destination VF as well.\n\n"
        "Methods: itrc (every switch whose entry differs), ftreeminrc (only the skyline of the sub-trees\n"
        "between the two leaves; regular fat-trees only), full (re-route with vswitch-ftree).\n"
        "LID scheme: dynamic when some VF has no LID (the VM's LID moves to a free VF; entries copied\n"
        "from the destination PF), else prepopulated (the VM swaps LIDs with the destination VF, which\n"
        "is assumed free unless named). SMPs count physical switches; vSwitch table updates are listed\n"
        "apart."));
    parser.addOption({QStringLiteral("topology"), QStringLiteral("Topology: ibnetdiscover output or ibsim net file."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("lfts"), QStringLiteral("The installed forwarding tables (LFT dump)."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("vm"), QStringLiteral("The VM: its VF's description or GUID."), QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("to"), QStringLiteral("Destination hypervisor (name or vSwitch GUID), optionally with a VF."), QStringLiteral("HYPERVISOR")});
    parser.addOption({QStringLiteral("method"), QStringLiteral("itrc, ftreeminrc or full."), QStringLiteral("METHOD")});
    parser.addOption({QStringLiteral("order"), QStringLiteral("Update order: safe (default; by distance to the destination) or active-first (the paper's)."), QStringLiteral("ORDER"), QStringLiteral("safe")});
    parser.addOption({QStringLiteral("drift"), QStringLiteral("Also compare the result with a full vswitch-ftree re-route.")});
    parser.addOption({QStringLiteral("out"), QStringLiteral("Write the LFT dump after the migration ('-' for stdout)."), QStringLiteral("LFTS")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON.")});
    int exitCode = kExitOk;
    if (!parseArguments(parser, kMigrateCommand, args, &exitCode))
        return exitCode;
    if (!requireOptionsOnly(parser, kMigrateCommand, {"topology", "lfts", "vm", "to", "method"}, &exitCode))
        return exitCode;
    MigrationRequest request;
    const QString method = parser.value(QStringLiteral("method"));
    if (method == QLatin1String("itrc"))
        request.method = ReconfigurationMethod::ItRC;
    else if (method == QLatin1String("ftreeminrc"))
        request.method = ReconfigurationMethod::FTreeMinRC;
    else if (method == QLatin1String("full"))
        request.method = ReconfigurationMethod::Full;
    else
        return reportBadInput(kMigrateCommand, QStringLiteral("unknown method \"%1\" (known: itrc, ftreeminrc, full)").arg(method));
    const QString order = parser.value(QStringLiteral("order"));
    if (order != QLatin1String("safe") && order != QLatin1String("active-first"))
        return reportBadInput(kMigrateCommand, QStringLiteral("unknown order \"%1\" (known: safe, active-first)").arg(order));
    request.order = order == QLatin1String("safe") ? UpdateOrder::Safe : UpdateOrder::ActiveRouteFirst;

    InputOptions wanted;
    wanted.tables = {QStringLiteral("lfts")};
    Result<CommandInputs> inputs = loadInputs(parser, wanted);
    if (!inputs)
        return reportBadInput(kMigrateCommand, inputs.error());
    const Fabric &fabric = inputs->fabric;
    const ForwardingTables &tables = inputs->tables.front();
    Result<VirtualisedFabric> virt = findHypervisors(fabric);
    if (!virt)
        return reportBadInput(kMigrateCommand, virt.error());
    Result<PhysicalTree> tree = buildPhysicalTree(fabric, *virt);
    if (!tree)
        return reportBadInput(kMigrateCommand, tree.error());
    request.scheme = virt->scheme;

    const QString vm = parser.value(QStringLiteral("vm"));
    if (!virt->findVf(fabric, vm, &request.hypervisor, &request.vf))
        return reportBadInput(kMigrateCommand, QStringLiteral("no VF \"%1\" (name a VM by its VF description, e.g. \"hyp0003 VF2\", or GUID)").arg(vm));
    const QString to = parser.value(QStringLiteral("to"));
    request.destination = virt->findHypervisor(to);
    if (request.destination < 0) {
        int h = -1;
        if (virt->findVf(fabric, to, &h, &request.destinationVf))
            request.destination = h;
    }
    if (request.destination < 0)
        return reportBadInput(kMigrateCommand, QStringLiteral("no hypervisor \"%1\" (name it \"hyp0007\", \"hyp0007 VF3\" or by vSwitch GUID)").arg(to));

    Result<MigrationPlan> plan = planMigration(fabric, *virt, *tree, tables, request);
    if (!plan)
        return reportBadInput(kMigrateCommand, plan.error());
    Result<ReconfiguredFabric> after = applyMigration(fabric, tables, *plan);
    if (!after)
        return reportBadInput(kMigrateCommand, after.error());
    std::optional<RoutingDrift> drift;
    if (parser.isSet(QStringLiteral("drift"))) {
        Result<RoutingDrift> d = routingDrift(after->fabric, after->tables);
        if (!d)
            return reportBadInput(kMigrateCommand, d.error());
        drift = *d;
    }
    if (parser.isSet(QStringLiteral("out"))) {
        if (Status written = writeLftDumpOutput(parser.value(QStringLiteral("out")), after->tables, &after->fabric, LftDumpForm::Annotated); !written)
            return reportBadInput(kMigrateCommand, written.error());
    }

    const MigrationPlan &p = *plan;
    if (parser.isSet(QStringLiteral("json"))) {
        QJsonArray updates;
        for (const SwitchUpdate &u : p.updates) {
            QJsonArray blocks;
            for (int b : u.blocks)
                blocks.append(b);
            QJsonObject o{{QStringLiteral("switch"), u.description}, {QStringLiteral("guid"), guidText(u.guid)},
                          {QStringLiteral("vswitch"), u.vSwitch}, {QStringLiteral("level"), u.level},
                          {QStringLiteral("active_route"), u.activeRoute}, {QStringLiteral("distance"), u.distance},
                          {QStringLiteral("x_old"), u.oldX}, {QStringLiteral("x_new"), u.newX}, {QStringLiteral("blocks"), blocks}};
            if (p.scheme == LidScheme::Prepopulated) {
                o.insert(QStringLiteral("y_old"), u.oldY);
                o.insert(QStringLiteral("y_new"), u.newY);
            }
            updates.append(o);
        }
        QJsonObject o{{QStringLiteral("vm"), p.vm}, {QStringLiteral("from"), p.source}, {QStringLiteral("to"), p.target},
                      {QStringLiteral("method"), reconfigurationMethodName(p.method)}, {QStringLiteral("scheme"), lidSchemeName(p.scheme)},
                      {QStringLiteral("lid"), p.x}, {QStringLiteral("swap_lid"), p.y}, {QStringLiteral("pf_destination"), p.pfDestination},
                      {QStringLiteral("m_prime"), p.mPrime}, {QStringLiteral("common_level"), p.commonLevel},
                      {QStringLiteral("marked"), int(p.marked.size())}, {QStringLiteral("candidates"), p.candidateSwitches},
                      {QStringLiteral("switches_touched"), p.switchesTouched}, {QStringLiteral("entries_changed"), p.entriesChanged},
                      {QStringLiteral("smps"), p.smps}, {QStringLiteral("vswitch_smps"), p.vSwitchSmps},
                      {QStringLiteral("estimated_seconds"), p.estimatedSeconds()}, {QStringLiteral("planning_seconds"), p.planningSeconds},
                      {QStringLiteral("updates"), updates}, {QStringLiteral("warnings"), QJsonArray::fromStringList(p.warnings)}};
        if (drift) {
            o.insert(QStringLiteral("drift"), QJsonObject{{QStringLiteral("entries_differing"), double(drift->entriesDiffering)},
                                                          {QStringLiteral("switches_differing"), drift->switchesDiffering},
                                                          {QStringLiteral("blocks_differing"), double(drift->blocksDiffering)},
                                                          {QStringLiteral("max_cable_load"), drift->maxCableLoad},
                                                          {QStringLiteral("max_cable_load_fresh"), drift->maxCableLoadFresh}});
        }
        printJson(o);
        return kExitOk;
    }
    out() << "migrate " << p.vm << " from " << p.source << " to " << p.target << " (" << reconfigurationMethodName(p.method)
          << ", " << lidSchemeName(p.scheme) << " LIDs)\n";
    out() << "  LID " << p.x << " (block " << p.blockX << ")";
    if (p.scheme == LidScheme::Prepopulated)
        out() << " swaps with LID " << p.y << " (block " << p.blockY << "), m' = " << p.mPrime;
    else
        out() << " copies PF LID " << p.pfDestination;
    out() << "\n";
    if (p.method == ReconfigurationMethod::FTreeMinRC)
        out() << "  common ancestors at level " << p.commonLevel << "; " << p.marked.size() << " switches marked, "
              << p.activeRoute.size() << " on active routes\n";
    out() << "  " << p.switchesTouched << " of " << p.candidateSwitches << " switches changed, " << p.entriesChanged
          << " entries, " << p.smps << " SMPs (~" << QString::number(p.estimatedSeconds() * 1000, 'f', 2) << " ms); "
          << p.vSwitchSmps << " vSwitch table updates\n";
    out() << "  update order (" << order << "):\n";
    for (const SwitchUpdate &u : p.updates) {
        out() << "    " << u.description << (u.vSwitch ? QStringLiteral(" [vSwitch]") : QString())
              << (u.activeRoute ? QStringLiteral(" [active]") : QString()) << ": x " << portText(u.oldX) << " -> " << portText(u.newX);
        if (p.scheme == LidScheme::Prepopulated)
            out() << ", y " << portText(u.oldY) << " -> " << portText(u.newY);
        out() << "\n";
    }
    if (drift)
        out() << "  drift from a full re-route: " << drift->entriesDiffering << " entries on " << drift->switchesDiffering
              << " switches (" << drift->blocksDiffering << " blocks); heaviest cable " << QString::number(drift->maxCableLoad, 'f', 2)
              << " vs " << QString::number(drift->maxCableLoadFresh, 'f', 2) << " re-routed\n";
    for (const QString &w : p.warnings)
        out() << "  warning: " << w << "\n";
    out().flush();
    return kExitOk;
}

}  // namespace weft::cli
