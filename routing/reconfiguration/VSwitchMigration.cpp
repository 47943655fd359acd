#include "VSwitchMigration.h"

#include "RouteWalk.h"

#include <QElapsedTimer>

#include <algorithm>
#include <set>

namespace weft {

namespace {

Error fail(const QString &message)
{
    return Error{{}, 0, message};
}

PortIndex vfPort(const Fabric &fabric, const VirtualFunction &vf)
{
    return fabric.node(vf.node).firstPort + 1;
}

// Physical switches (dense indices) a packet for `lid` crosses from switch `start`, in order,
// following the tables; stops at the first node that is not a physical switch or a missing
// entry. A looping path stops once it holds one switch more than the tree has, so that it
// shows the loop (a switch twice) and the turns around it the same way every time.
std::vector<int> tracePath(const Fabric &fabric, const PhysicalTree &tree, const ForwardingTables &tables,
                           const std::vector<int> &tableOf, int start, Lid lid)
{
    // Only the tree's switches are walked through: the tree's own index finds their tables.
    const auto tableOfNode = [&](NodeIndex node) -> const LinearForwardingTable * {
        const int s = tree.denseOf(node);
        const int t = s < 0 ? -1 : tableOf[std::size_t(s)];
        return t < 0 ? nullptr : &tables.at(std::size_t(t)).lft;
    };
    std::vector<int> path{start};
    walkRoute(fabric, tableOfNode, tree.switches[std::size_t(start)].node, lid, [&](const RouteHop &hop) {
        const int next = tree.denseOf(hop.next);
        if (next < 0 || path.size() > tree.switches.size())
            return false;
        path.push_back(next);
        return true;
    });
    return path;
}

std::vector<int> tableIndexOfSwitches(const PhysicalTree &tree, const ForwardingTables &tables)
{
    std::vector<int> tableOf(tree.switches.size(), -1);
    for (std::size_t s = 0; s < tree.switches.size(); ++s)
        tableOf[s] = tables.indexOf(tree.switches[s].guid);
    return tableOf;
}

}  // namespace

QString reconfigurationMethodName(ReconfigurationMethod method)
{
    switch (method) {
    case ReconfigurationMethod::ItRC:
        return QStringLiteral("itrc");
    case ReconfigurationMethod::FTreeMinRC:
        return QStringLiteral("ftreeminrc");
    case ReconfigurationMethod::Full:
        return QStringLiteral("full");
    }
    return {};
}

SkylineMarking markSkyline(const PhysicalTree &tree, int sourceLeaf, int destinationLeaf)
{
    SkylineMarking m;
    m.commonLevel = tree.switches[std::size_t(sourceLeaf)].level;
    m.marked.push_back(sourceLeaf);
    if (sourceLeaf == destinationLeaf)
        return m;
    m.marked.push_back(destinationLeaf);
    std::vector<int> a{sourceLeaf};
    std::vector<int> b{destinationLeaf};
    auto climb = [&tree](const std::vector<int> &from) {
        std::vector<int> up;
        for (int s : from) {
            for (const PhysicalTree::Cable &c : tree.switches[std::size_t(s)].up)
                up.push_back(c.remote);
        }
        std::sort(up.begin(), up.end());
        up.erase(std::unique(up.begin(), up.end()), up.end());
        return up;
    };
    while (true) {
        a = climb(a);
        b = climb(b);
        if (a.empty() || b.empty())
            break;
        --m.commonLevel;
        std::vector<int> level;
        std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(level));
        m.marked.insert(m.marked.end(), level.begin(), level.end());
        if (a == b)  // the wild-carded tuples match: the common ancestors
            break;
    }
    return m;
}

Result<MigrationPlan> planMigration(const Fabric &fabric, const VirtualisedFabric &virt, const PhysicalTree &tree,
                                    const ForwardingTables &tables, const MigrationRequest &request)
{
    QElapsedTimer timer;
    timer.start();
    const auto hyps = int(virt.hypervisors.size());
    if (request.hypervisor < 0 || request.hypervisor >= hyps || request.destination < 0 || request.destination >= hyps)
        return fail(QStringLiteral("migration: no such hypervisor"));
    const Hypervisor &src = virt.hypervisors[std::size_t(request.hypervisor)];
    const Hypervisor &dst = virt.hypervisors[std::size_t(request.destination)];
    if (request.vf < 0 || request.vf >= int(src.vfs.size()))
        return fail(QStringLiteral("migration: hypervisor %1 has no VF %2").arg(src.name).arg(request.vf + 1));
    const VirtualFunction &vmVf = src.vfs[std::size_t(request.vf)];
    const QString vmName = fabric.node(vmVf.node).description;
    if (vmVf.lid == 0)
        return fail(QStringLiteral("%1 runs no VM (its VF has no LID)").arg(vmName));

    MigrationPlan plan;
    plan.method = request.method;
    plan.scheme = request.scheme;
    plan.order = request.order;
    plan.hypervisor = request.hypervisor;
    plan.vf = request.vf;
    plan.destination = request.destination;
    plan.vm = vmName;
    plan.source = src.name;
    plan.target = dst.name;
    plan.x = vmVf.lid;
    plan.pfDestination = dst.pfLid;
    plan.blockX = lftBlockOf(plan.x);

    // The destination VF.
    int dv = request.destinationVf;
    if (dv >= int(dst.vfs.size()))
        return fail(QStringLiteral("hypervisor %1 has no VF%2").arg(dst.name).arg(dv + 1));
    if (dv < 0) {
        for (int v = 0; v < int(dst.vfs.size()) && dv < 0; ++v) {
            const VirtualFunction &f = dst.vfs[std::size_t(v)];
            const bool same = request.destination == request.hypervisor && v == request.vf;
            if (same)
                continue;
            if (request.scheme == LidScheme::Dynamic ? f.lid == 0 : (f.lid != 0 && lftBlockOf(f.lid) == plan.blockX))
                dv = v;
        }
        if (dv < 0 && request.scheme == LidScheme::Prepopulated) {
            for (int v = 0; v < int(dst.vfs.size()) && dv < 0; ++v) {
                if (!(request.destination == request.hypervisor && v == request.vf) && dst.vfs[std::size_t(v)].lid != 0)
                    dv = v;
            }
        }
        if (dv < 0)
            return fail(QStringLiteral("hypervisor %1 has no free VF%2").arg(dst.name,
                        request.scheme == LidScheme::Dynamic ? QStringLiteral(" (every VF has a LID)") : QString()));
        if (request.scheme == LidScheme::Prepopulated)
            plan.warnings << QStringLiteral("destination VF %1 chosen and assumed free").arg(fabric.node(dst.vfs[std::size_t(dv)].node).description);
    }
    const VirtualFunction &dstVf = dst.vfs[std::size_t(dv)];
    if (request.destination == request.hypervisor && dv == request.vf)
        return fail(QStringLiteral("%1 is already where it is asked to go").arg(vmName));
    plan.destinationVf = dv;
    if (request.scheme == LidScheme::Dynamic) {
        if (dstVf.lid != 0)
            return fail(QStringLiteral("%1 is not free: it has LID %2").arg(fabric.node(dstVf.node).description).arg(dstVf.lid));
        plan.lidChanges = {{vfPort(fabric, vmVf), 0}, {vfPort(fabric, dstVf), plan.x}};
    } else {
        if (dstVf.lid == 0)
            return fail(QStringLiteral("%1 has no prepopulated LID").arg(fabric.node(dstVf.node).description));
        plan.y = dstVf.lid;
        plan.blockY = lftBlockOf(plan.y);
        plan.mPrime = plan.blockX == plan.blockY ? 1 : 2;
        plan.lidChanges = {{vfPort(fabric, vmVf), plan.y}, {vfPort(fabric, dstVf), plan.x}};
    }

    const int srcLeaf = tree.denseOf(src.leaf);
    const int dstLeaf = tree.denseOf(dst.leaf);
    const std::vector<int> tableOf = tableIndexOfSwitches(tree, tables);
    for (std::size_t s = 0; s < tree.switches.size(); ++s) {
        if (tableOf[s] < 0)
            return fail(QStringLiteral("the tables have no LFT for switch %1").arg(fabric.node(tree.switches[s].node).description));
    }

    if (request.method == ReconfigurationMethod::Full) {
        Result<Fabric> moved = fabricWithLids(fabric, plan.lidChanges);
        if (!moved)
            return moved.error();
        Result<VirtualisedFabric> movedVirt = findHypervisors(*moved);
        if (!movedVirt)
            return movedVirt.error();
        VSwitchRoutingOptions options;
        options.vSwitchTables = tables.size() > tree.switches.size();
        Result<VSwitchRouting> routed = routeVSwitchFatTree(*moved, *movedVirt, tree, options);
        if (!routed)
            return routed.error();
        plan.fullTables = std::move(routed->routing.tables);
        for (const SwitchForwardingTable &t : plan.fullTables.switches()) {
            const SwitchForwardingTable *old = tables.find(t.guid);
            const LinearForwardingTable empty;
            const LinearForwardingTable &before = old ? old->lft : empty;
            const int blocks = std::max(before.blockCount(), t.lft.blockCount());
            SwitchUpdate u;
            u.node = fabric.nodeByGuid(t.guid);
            u.guid = t.guid;
            u.description = t.description;
            u.vSwitch = tree.denseOf(u.node) < 0;
            u.level = u.vSwitch ? -1 : tree.switches[std::size_t(tree.denseOf(u.node))].level;
            u.oldX = before.port(plan.x);
            u.newX = t.lft.port(plan.x);
            for (int b = 0; b < blocks; ++b) {
                if (!blockEquals(before, t.lft, b))
                    u.blocks.push_back(b);
            }
            if (u.blocks.empty())
                continue;
            int entries = 0;
            const int top = blocks * kLftBlockSize;
            for (int lid = 0; lid < top; ++lid)
                entries += before.port(Lid(lid)) != t.lft.port(Lid(lid));
            if (u.vSwitch) {
                plan.vSwitchSmps += int(u.blocks.size());
            } else {
                ++plan.switchesTouched;
                plan.entriesChanged += entries;
                plan.smps += int(u.blocks.size());
            }
            plan.updates.push_back(std::move(u));
        }
        plan.candidateSwitches = int(tree.switches.size());
        plan.planningSeconds = double(timer.nsecsElapsed()) / 1e9;
        return plan;
    }

    // Candidates: the skyline or every physical switch.
    std::vector<int> candidates;
    if (request.method == ReconfigurationMethod::FTreeMinRC) {
        if (!tree.regular)
            return fail(QStringLiteral("FTreeMinRC needs a regular fat-tree (%1); use ItRC").arg(tree.irregularity));
        QElapsedTimer marking;
        marking.start();
        SkylineMarking m = markSkyline(tree, srcLeaf, dstLeaf);
        plan.markingSeconds = double(marking.nsecsElapsed()) / 1e9;
        plan.commonLevel = m.commonLevel;
        candidates = std::move(m.marked);
        for (int s : candidates)
            plan.marked.push_back(tree.switches[std::size_t(s)].node);
    } else {
        candidates.resize(tree.switches.size());
        for (std::size_t s = 0; s < candidates.size(); ++s)
            candidates[s] = int(s);
    }
    plan.candidateSwitches = int(candidates.size());

    // Active routes: PF to PF both ways, from the leaves.
    std::vector<char> active(tree.switches.size(), 0);
    std::vector<char> isCandidate(tree.switches.size(), 0);
    for (int s : candidates)
        isCandidate[std::size_t(s)] = 1;
    for (int s : tracePath(fabric, tree, tables, tableOf, srcLeaf, dst.pfLid))
        active[std::size_t(s)] = isCandidate[std::size_t(s)];
    for (int s : tracePath(fabric, tree, tables, tableOf, dstLeaf, src.pfLid))
        active[std::size_t(s)] = active[std::size_t(s)] || isCandidate[std::size_t(s)];
    for (std::size_t s = 0; s < active.size(); ++s) {
        if (active[s])
            plan.activeRoute.push_back(tree.switches[s].node);
    }

    // The LID whose old route leads to the destination hypervisor: the new route for x.
    const Lid newRoute = request.scheme == LidScheme::Dynamic ? dst.pfLid : plan.y;
    for (int s : candidates) {
        const LinearForwardingTable &lft = tables.at(std::size_t(tableOf[std::size_t(s)])).lft;
        SwitchUpdate u;
        u.oldX = lft.port(plan.x);
        u.newX = lft.port(newRoute);
        if (request.scheme == LidScheme::Prepopulated) {
            u.oldY = lft.port(plan.y);
            u.newY = u.oldX;
        }
        if (u.oldX == u.newX)
            continue;  // no-op: nothing to send (E11)
        const PhysicalTree::Switch &sw = tree.switches[std::size_t(s)];
        u.node = sw.node;
        u.guid = sw.guid;
        u.description = fabric.node(sw.node).description;
        u.level = sw.level;
        u.activeRoute = active[std::size_t(s)];
        u.distance = int(tracePath(fabric, tree, tables, tableOf, s, newRoute).size()) - 1;
        u.blocks.push_back(plan.blockX);
        if (plan.mPrime == 2)
            u.blocks.push_back(plan.blockY);
        ++plan.switchesTouched;
        plan.entriesChanged += request.scheme == LidScheme::Prepopulated ? 2 : 1;
        plan.smps += int(u.blocks.size());
        plan.updates.push_back(std::move(u));
    }
    std::stable_sort(plan.updates.begin(), plan.updates.end(), [&](const SwitchUpdate &a, const SwitchUpdate &b) {
        if (request.order == UpdateOrder::ActiveRouteFirst && a.activeRoute != b.activeRoute)
            return a.activeRoute;
        if (a.distance != b.distance)
            return a.distance < b.distance;
        if (a.activeRoute != b.activeRoute)
            return a.activeRoute;
        return a.node < b.node;
    });

    // The vSwitches' own tables, when the tables hold them.
    auto vSwitchUpdate = [&](const Hypervisor &h, std::uint8_t newX, std::uint8_t newY) {
        const SwitchForwardingTable *t = tables.find(h.vSwitchGuid);
        if (!t)
            return;
        SwitchUpdate u;
        u.node = h.vSwitch;
        u.guid = h.vSwitchGuid;
        u.description = fabric.node(h.vSwitch).description;
        u.vSwitch = true;
        u.oldX = t->lft.port(plan.x);
        u.newX = newX;
        if (request.scheme == LidScheme::Prepopulated) {
            u.oldY = t->lft.port(plan.y);
            u.newY = newY;
        }
        if (u.oldX == u.newX && u.oldY == u.newY)
            return;
        u.blocks.push_back(plan.blockX);
        if (plan.mPrime == 2)
            u.blocks.push_back(plan.blockY);
        plan.vSwitchSmps += int(u.blocks.size());
        plan.updates.push_back(std::move(u));
    };
    if (request.hypervisor == request.destination) {
        vSwitchUpdate(dst, dstVf.vSwitchPort, vmVf.vSwitchPort);
    } else {
        vSwitchUpdate(src, src.upPort, vmVf.vSwitchPort);
        vSwitchUpdate(dst, dstVf.vSwitchPort, dst.upPort);
    }
    plan.planningSeconds = double(timer.nsecsElapsed()) / 1e9;
    return plan;
}

Result<ReconfiguredFabric> applyMigration(const Fabric &fabric, const ForwardingTables &tables, const MigrationPlan &plan)
{
    Result<Fabric> moved = fabricWithLids(fabric, plan.lidChanges);
    if (!moved)
        return moved.error();
    ReconfiguredFabric out{std::move(*moved), {}};
    if (plan.method == ReconfigurationMethod::Full) {
        out.tables = plan.fullTables;
        return out;
    }
    out.tables = tables;
    for (const SwitchUpdate &u : plan.updates) {
        const int i = out.tables.indexOf(u.guid);
        if (i < 0)
            return fail(QStringLiteral("the tables have no LFT for switch %1").arg(u.description));
        LinearForwardingTable &lft = out.tables.lft(std::size_t(i));
        lft.setPort(plan.x, u.newX);
        if (plan.scheme == LidScheme::Prepopulated)
            lft.setPort(plan.y, u.newY);
    }
    return out;
}

TransientReport checkTransientStates(const Fabric &newFabric, const PhysicalTree &tree, const ForwardingTables &tables,
                                     const MigrationPlan &plan)
{
    TransientReport report;
    ForwardingTables state = tables;
    const std::vector<int> tableOf = tableIndexOfSwitches(tree, state);
    auto examine = [&]() {
        ++report.states;
        bool loop = false;
        bool turn = false;
        for (int s = 0; s < int(tree.switches.size()) && !(loop && turn); ++s) {
            const std::vector<int> path = tracePath(newFabric, tree, state, tableOf, s, plan.x);
            std::vector<int> sorted = path;
            std::sort(sorted.begin(), sorted.end());
            loop |= std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end();
            bool wentDown = false;
            for (std::size_t i = 1; i < path.size(); ++i) {
                const int from = tree.switches[std::size_t(path[i - 1])].level;
                const int to = tree.switches[std::size_t(path[i])].level;
                if (to > from)
                    wentDown = true;
                else if (to < from && wentDown)
                    turn = true;
            }
        }
        report.statesWithLoop += loop;
        report.statesWithDownUpTurn += turn;
    };
    examine();
    for (const SwitchUpdate &u : plan.updates) {
        if (u.vSwitch)
            continue;
        LinearForwardingTable &lft = state.lft(std::size_t(state.indexOf(u.guid)));
        lft.setPort(plan.x, u.newX);
        if (plan.scheme == LidScheme::Prepopulated)
            lft.setPort(plan.y, u.newY);
        examine();
    }
    return report;
}

namespace {

Lid lowestFreeLid(const Fabric &fabric)
{
    std::vector<char> used(std::size_t(kMaxUnicastLid) + 1, 0);
    for (const Port &p : fabric.ports()) {
        if (p.lid == 0)
            continue;
        for (int k = 0; k < (1 << p.lmc) && p.lid + k <= kMaxUnicastLid; ++k)
            used[std::size_t(p.lid + k)] = 1;
    }
    for (std::size_t lid = 1; lid < used.size(); ++lid) {
        if (!used[lid])
            return Lid(lid);
    }
    return 0;
}

Result<VmLifecycle> changeVm(const Fabric &fabric, const VirtualisedFabric &virt, const ForwardingTables &tables,
                             int hypervisor, int vf, Lid lid, bool boot)
{
    if (hypervisor < 0 || hypervisor >= int(virt.hypervisors.size()))
        return fail(QStringLiteral("no such hypervisor"));
    const Hypervisor &h = virt.hypervisors[std::size_t(hypervisor)];
    if (vf < 0 || vf >= int(h.vfs.size()))
        return fail(QStringLiteral("hypervisor %1 has no VF%2").arg(h.name).arg(vf + 1));
    const VirtualFunction &f = h.vfs[std::size_t(vf)];
    const QString name = fabric.node(f.node).description;
    VmLifecycle out;
    if (boot && f.lid != 0) {
        // Prepopulated: the LID and its routes exist already.
        out.lid = f.lid;
        out.block = lftBlockOf(f.lid);
        out.fabric = fabric;
        out.tables = tables;
        return out;
    }
    if (!boot && f.lid == 0)
        return fail(QStringLiteral("%1 runs no VM (its VF has no LID)").arg(name));
    if (boot) {
        out.lid = lid ? lid : lowestFreeLid(fabric);
        if (out.lid == 0 || out.lid > kMaxUnicastLid)
            return fail(QStringLiteral("no free unicast LID left for %1").arg(name));
        if (fabric.portByLid(out.lid) != kNoIndex)
            return fail(QStringLiteral("LID %1 is in use").arg(out.lid));
    } else {
        out.lid = f.lid;
    }
    out.block = lftBlockOf(out.lid);
    Result<Fabric> changed = fabricWithLids(fabric, {{vfPort(fabric, f), boot ? out.lid : Lid(0)}});
    if (!changed)
        return changed.error();
    out.fabric = std::move(*changed);
    out.tables = tables;
    for (std::size_t i = 0; i < out.tables.size(); ++i) {
        LinearForwardingTable &lft = out.tables.lft(i);
        const NodeIndex node = fabric.nodeByGuid(out.tables.at(i).guid);
        const int owner = node >= 0 ? virt.hypervisorOfNode[std::size_t(node)] : -1;
        const bool vSwitch = owner >= 0;
        std::uint8_t port = kNoRoute;
        if (boot) {
            if (owner == hypervisor)
                port = f.vSwitchPort;
            else if (vSwitch)
                port = virt.hypervisors[std::size_t(owner)].upPort;
            else
                port = lft.port(h.pfLid);
        }
        if (lft.port(out.lid) == port)
            continue;
        out.raisesTop |= boot && out.lid > lft.top();
        lft.setPort(out.lid, port);
        if (vSwitch) {
            ++out.vSwitchSmps;
        } else {
            ++out.switchesTouched;
            ++out.smps;
        }
    }
    return out;
}

}  // namespace

Result<VmLifecycle> bootVm(const Fabric &fabric, const VirtualisedFabric &virt, const ForwardingTables &tables,
                           int hypervisor, int vf, Lid lid)
{
    return changeVm(fabric, virt, tables, hypervisor, vf, lid, true);
}

Result<VmLifecycle> shutdownVm(const Fabric &fabric, const VirtualisedFabric &virt, const ForwardingTables &tables,
                               int hypervisor, int vf)
{
    return changeVm(fabric, virt, tables, hypervisor, vf, 0, false);
}

Result<RoutingDrift> routingDrift(const Fabric &fabric, const ForwardingTables &tables)
{
    Result<VirtualisedFabric> virt = findHypervisors(fabric);
    if (!virt)
        return virt.error();
    Result<PhysicalTree> tree = buildPhysicalTree(fabric, *virt);
    if (!tree)
        return tree.error();
    VSwitchRoutingOptions options;
    options.vSwitchTables = false;
    Result<VSwitchRouting> fresh = routeVSwitchFatTree(fabric, *virt, *tree, options);
    if (!fresh)
        return fresh.error();
    RoutingDrift drift;
    const std::vector<int> tableOf = tableIndexOfSwitches(*tree, tables);
    const std::vector<int> freshOf = tableIndexOfSwitches(*tree, fresh->routing.tables);
    const int lids = int(fabric.maxLid()) + 1;
    for (std::size_t s = 0; s < tree->switches.size(); ++s) {
        if (tableOf[s] < 0)
            return fail(QStringLiteral("the tables have no LFT for switch %1").arg(fabric.node(tree->switches[s].node).description));
        const LinearForwardingTable &now = tables.at(std::size_t(tableOf[s])).lft;
        const LinearForwardingTable &ideal = fresh->routing.tables.at(std::size_t(freshOf[s])).lft;
        bool differs = false;
        for (int lid = 1; lid < lids; ++lid) {
            ++drift.entriesCompared;
            if (now.port(Lid(lid)) != ideal.port(Lid(lid))) {
                ++drift.entriesDiffering;
                differs = true;
            }
        }
        drift.switchesDiffering += differs;
        for (int b = 0; b <= (lids - 1) / kLftBlockSize; ++b)
            drift.blocksDiffering += !blockEquals(now, ideal, b);
    }
    // Replay: every leaf sends to every VM; the VM's weight lands on each cable crossed.
    auto maxLoad = [&](const ForwardingTables &t, const std::vector<int> &of) {
        std::vector<double> load(std::size_t(tree->cableCount) * 2, 0.0);
        for (const Hypervisor &h : virt->hypervisors) {
            const int vms = h.runningVms();
            for (const VirtualFunction &vf : h.vfs) {
                if (vf.lid == 0)
                    continue;
                for (int leaf : tree->leaves) {
                    const std::vector<int> path = tracePath(fabric, *tree, t, of, leaf, vf.lid);
                    for (std::size_t i = 1; i < path.size(); ++i) {
                        const PhysicalTree::Switch &a = tree->switches[std::size_t(path[i - 1])];
                        for (const std::vector<PhysicalTree::Cable> *list : {&a.up, &a.down}) {
                            for (const PhysicalTree::Cable &c : *list) {
                                if (c.remote == path[i]) {
                                    load[std::size_t(c.id) * 2 + (list == &a.up ? 0 : 1)] += 1.0 / vms;
                                    break;
                                }
                            }
                        }
                    }
                }
            }
        }
        return load.empty() ? 0.0 : *std::max_element(load.begin(), load.end());
    };
    drift.maxCableLoad = maxLoad(tables, tableOf);
    drift.maxCableLoadFresh = maxLoad(fresh->routing.tables, freshOf);
    return drift;
}

QString vmDistributionName(VmDistribution distribution)
{
    return distribution == VmDistribution::Uniform ? QStringLiteral("uniform") : QStringLiteral("random");
}

QString migrationPatternName(MigrationPattern pattern)
{
    switch (pattern) {
    case MigrationPattern::Random:
        return QStringLiteral("random");
    case MigrationPattern::Consolidate:
        return QStringLiteral("consolidate");
    case MigrationPattern::Grouping:
        return QStringLiteral("grouping");
    case MigrationPattern::ToUniform:
        return QStringLiteral("to-uniform");
    }
    return {};
}

QString SimulationConfiguration::name() const
{
    return QStringLiteral("%1%, %2 start, %3").arg(populationPercent).arg(vmDistributionName(initial), migrationPatternName(pattern));
}

std::vector<SimulationConfiguration> simulationConfigurations(std::int64_t hypervisors, int vfsPerHypervisor)
{
    std::vector<SimulationConfiguration> out;
    if (hypervisors <= 0 || vfsPerHypervisor <= 0)
        return out;
    for (int percent : {25, 50, 75}) {
        for (VmDistribution initial : {VmDistribution::Uniform, VmDistribution::Random}) {
            for (MigrationPattern pattern : {MigrationPattern::Random, MigrationPattern::Consolidate, MigrationPattern::Grouping,
                                             MigrationPattern::ToUniform}) {
                // A uniform start is already uniform.
                if (pattern == MigrationPattern::ToUniform && initial == VmDistribution::Uniform)
                    continue;
                SimulationConfiguration c;
                c.initial = initial;
                c.pattern = pattern;
                c.populationPercent = percent;
                c.hypervisors = hypervisors;
                c.vfsPerHypervisor = vfsPerHypervisor;
                c.vms = hypervisors * vfsPerHypervisor * percent / 100;
                c.randomMigrations = pattern == MigrationPattern::Random ? 2 * hypervisors : 0;
                out.push_back(c);
            }
        }
    }
    return out;
}

}  // namespace weft
