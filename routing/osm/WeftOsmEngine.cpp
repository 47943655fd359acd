// Weft's side of libweftosm.so: OpenSM's subnet made a Fabric, routed by the intent
// (routeIntentAfterChange), the tables written into each switch's new_lft, and the partitions'
// service levels answered for PathRecords. Nothing thrown here leaves this file.
#include "WeftOsmEngine.h"

#include "IntentRouting.h"
#include "Parallel.h"
#include "ProjectFile.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QFile>

#include <algorithm>
#include <array>
#include <exception>
#include <mutex>
#include <new>
#include <unordered_map>

#include <sys/stat.h>

using namespace weft;

struct weft_osm_engine
{
    QString intentPath;
    weft_osm_log_fn log = nullptr;
    void *logContext = nullptr;

    // The intent in force: the last one read whole and without error.
    Project intent;
    QString intentDigest = QStringLiteral("default");
    QString lastRefusedDigest;  // an intent refused once is not logged again until it changes
    // The intent file as it was last read (good or refused): device, inode, size and
    // modification time. OpenSM routes at every heavy sweep; an unchanged file is not read and hashed again.
    std::array<long long, 5> intentStamp{};
    std::unique_ptr<InstalledRouting> installed;

    // For path_sl, replaced after each routing run.
    std::mutex serviceLevelsLock;
    std::unordered_map<Lid, std::vector<std::uint16_t>> pkeysByLid;  // P_Keys with an SL of their own
    std::map<std::uint16_t, int> serviceLevels;

    void say(int level, const QString &message) const
    {
        if (log)
            log(logContext, level, message.toUtf8().constData());
    }
};

namespace {

NodeType nodeType(std::uint8_t type)
{
    return type == 2 ? NodeType::Switch : type == 3 ? NodeType::Router
                                                    : NodeType::ChannelAdapter;
}

// The subnet as OpenSM holds it. Nodes are ordered as Weft's discovery orders them (switches
// first, then by GUID), so the same fabric discovered by `weft discover` routes the same.
Result<Fabric> fabricOf(const weft_osm_subnet &subnet)
{
    std::vector<const weft_osm_node *> nodes;
    nodes.reserve(subnet.node_count);
    std::size_t portSlots = 0;
    for (std::uint32_t i = 0; i < subnet.node_count; ++i) {
        nodes.push_back(&subnet.nodes[i]);
        portSlots += std::size_t(subnet.nodes[i].port_count) + 1;
    }
    std::sort(nodes.begin(), nodes.end(), [](const weft_osm_node *a, const weft_osm_node *b) {
        const bool sa = a->type == 2, sb = b->type == 2;
        return sa != sb ? sa : a->guid < b->guid;
    });
    FabricBuilder builder;
    builder.reserve(nodes.size(), portSlots);
    std::unordered_map<Guid, NodeIndex> indexOf;
    indexOf.reserve(nodes.size());
    auto fail = [](const weft_osm_node *n, const QString &m) {
        return Error{{}, 0, QStringLiteral("node %1: %2").arg(guidText(n->guid), m)};
    };
    for (const weft_osm_node *n : nodes) {
        FabricBuilder::NodeSpec spec;
        spec.type = nodeType(n->type);
        spec.guid = n->guid;
        spec.portCount = n->port_count;
        spec.name = liveNodeName(spec.type, n->guid);
        spec.description = QString::fromUtf8(n->description, int(qstrnlen(n->description, sizeof n->description)));
        spec.systemImageGuid = n->system_guid;
        NodeIndex created = kNoIndex;
        if (QString m = builder.addNode(spec, &created); !m.isEmpty())
            return fail(n, m);
        indexOf[n->guid] = created;
        for (int p = 0; p <= n->port_count; ++p) {
            const weft_osm_port &port = n->ports[p];
            if (!port.present)
                continue;
            if (spec.type == NodeType::Switch && p != 0)
                continue;  // a switch's ports share port 0's GUID and LID
            if (spec.type != NodeType::Switch && p == 0)
                continue;
            if (port.guid && port.guid != (spec.type == NodeType::Switch ? n->guid : 0))
                if (QString m = builder.setPortGuid(created, p, port.guid); !m.isEmpty())
                    return fail(n, m);
            if (port.lid)
                if (QString m = builder.setPortLid(created, p, port.lid, port.lmc); !m.isEmpty())
                    return fail(n, m);
        }
        if (spec.type == NodeType::Switch)  // as discovery has it: the management port is up
            if (QString m = builder.setPortState(created, 0, PortState::Active); !m.isEmpty())
                return fail(n, m);
        for (int p = 1; p <= n->port_count; ++p)
            if (n->ports[p].present && n->ports[p].state >= 1 && n->ports[p].state <= 4)
                if (QString m = builder.setPortState(created, p, PortState(n->ports[p].state)); !m.isEmpty())
                    return fail(n, m);
    }
    for (const weft_osm_node *n : nodes) {
        for (int p = 1; p <= n->port_count; ++p) {
            const weft_osm_port &port = n->ports[p];
            // A cable counts when OpenSM knows both ends and neither is down.
            if (!port.present || !port.remote_node || port.state <= 1)
                continue;
            const auto remote = indexOf.find(port.remote_node);
            if (remote == indexOf.end())
                continue;
            if (QString m = builder.connect(indexOf[n->guid], p, remote->second, port.remote_port); !m.isEmpty())
                return fail(n, m);
        }
    }
    return std::move(builder).build();
}

// The tables OpenSM believes the switches hold, on the fabric as it is now.
ForwardingTables heldTables(const weft_osm_subnet &subnet)
{
    ForwardingTables tables;
    std::vector<std::pair<const weft_osm_node *, int>> copies;  // node, its table
    for (std::uint32_t i = 0; i < subnet.node_count; ++i) {
        const weft_osm_node &n = subnet.nodes[i];
        if (n.type != 2 || !n.held_lft)
            continue;
        const int t = tables.addSwitch(n.guid, n.ports[0].lid);
        if (t >= 0)
            copies.emplace_back(&n, t);
    }
    // Each table up to the last LID routed, copied whole (LID 0 is no destination); the
    // switches shared out among the cores, each table written by one.
    forEachOnThreads(copies.size(), [&](std::size_t k) {
        const weft_osm_node &n = *copies[k].first;
        std::uint32_t top = std::min<std::uint32_t>(n.lft_size, std::uint32_t(kMaxUnicastLid) + 1);
        while (top > 1 && n.held_lft[top - 1] == kNoRoute)
            --top;
        if (top <= 1)
            return;
        std::uint8_t *entries = tables.lft(std::size_t(copies[k].second)).entriesToFill(Lid(top - 1));
        std::copy(n.held_lft + 1, n.held_lft + top, entries + 1);
    });
    return tables;
}

void reloadIntent(weft_osm_engine &e)
{
    if (e.intentPath.isEmpty())
        return;
    struct stat info
    {
    };
    std::array<long long, 5> stamp{};
    if (::stat(QFile::encodeName(e.intentPath).constData(), &info) == 0) {
        stamp = {static_cast<long long>(info.st_dev), static_cast<long long>(info.st_ino), static_cast<long long>(info.st_size),
                 static_cast<long long>(info.st_mtim.tv_sec), static_cast<long long>(info.st_mtim.tv_nsec)};
        if (stamp == e.intentStamp)
            return;
    }
    e.intentStamp = stamp;  // all zero when the file is missing: read (and refused) again next time
    QFile file(e.intentPath);
    if (!file.open(QIODevice::ReadOnly)) {
        const QString why = QStringLiteral("missing:") + file.errorString();
        if (why != e.lastRefusedDigest)
            e.say(WEFT_OSM_LOG_ERROR, QStringLiteral("%1: cannot read the intent (%2); keeping the last good one (%3)").arg(e.intentPath, file.errorString(), e.intentDigest));
        e.lastRefusedDigest = why;
        return;
    }
    const QByteArray data = file.readAll();
    const QString digest = QString::fromLatin1(QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex().left(16));
    if (digest == e.intentDigest)
        return;
    Result<Project> project = readProject(data, e.intentPath);
    Result<IntentOptions> options = project ? intentOptions(*project, e.intentPath, data) : Result<IntentOptions>(project.error());
    if (project && options && !project->routingEngine.isEmpty() && !makeRoutingEngine(project->routingEngine))
        options = Error{e.intentPath, 0, QStringLiteral("unknown routing engine \"%1\"").arg(project->routingEngine)};
    if (!project || !options) {
        if (digest != e.lastRefusedDigest)
            e.say(WEFT_OSM_LOG_ERROR, QStringLiteral("%1; keeping the last good intent (%2)").arg((project ? options.error() : project.error()).toString(), e.intentDigest));
        e.lastRefusedDigest = digest;
        return;
    }
    e.intent = std::move(*project);
    e.intentDigest = digest;
    e.lastRefusedDigest.clear();
    e.say(WEFT_OSM_LOG_INFO, QStringLiteral("intent %1 (%2): engine %3, %4 partition(s)").arg(e.intentPath, digest, e.intent.routingEngine.isEmpty() ? QStringLiteral("ftree") : e.intent.routingEngine).arg(e.intent.tenancy.partitions.size()));
}

void rememberServiceLevels(weft_osm_engine &e, const Fabric &fabric, const Tenancy &tenancy,
                           const std::map<std::uint16_t, int> &serviceLevels)
{
    std::unordered_map<Lid, std::vector<std::uint16_t>> byLid;
    for (const Partition &partition : tenancy.partitions) {
        if (!partition.pkey || serviceLevels.count(*partition.pkey & 0x7fff) == 0)
            continue;
        const std::uint16_t pkey = *partition.pkey & 0x7fff;
        for (const PartitionMember &member : partition.members) {
            const PortIndex port = fabric.portByGuid(member.guid);
            if (port == kNoIndex || fabric.port(port).lid == 0)
                continue;
            const Port &p = fabric.port(port);
            for (int k = 0; k < (1 << p.lmc); ++k)
                byLid[Lid(p.lid + k)].push_back(pkey);
        }
    }
    std::lock_guard<std::mutex> lock(e.serviceLevelsLock);
    e.pkeysByLid = std::move(byLid);
    e.serviceLevels = serviceLevels;
}

int route(weft_osm_engine &e, const weft_osm_subnet &subnet)
{
    if (qEnvironmentVariable("WEFT_OSM_TEST_FAIL") == QLatin1String("route")) {
        e.say(WEFT_OSM_LOG_ERROR, QStringLiteral("failing on purpose (WEFT_OSM_TEST_FAIL=route)"));
        return -1;
    }
    if (qEnvironmentVariable("WEFT_OSM_TEST_FAIL") == QLatin1String("throw"))
        throw std::runtime_error("thrown on purpose (WEFT_OSM_TEST_FAIL=throw)");
    QElapsedTimer timer;
    timer.start();
    reloadIntent(e);
    Result<Fabric> built = fabricOf(subnet);
    if (!built) {
        e.say(WEFT_OSM_LOG_ERROR, QStringLiteral("the subnet is not a fabric Weft can route: %1").arg(built.error().toString()));
        return -1;
    }
    auto fabric = std::make_shared<const Fabric>(std::move(*built));
    const BoundProject bound = bindProject(e.intent, *fabric);

    // What the switches hold, as the last run installed it: SlimUpdate keeps what it can of it.
    // (OpenSM's copy when it has one, else the last run's: no copy of the tables made here.)
    std::unique_ptr<InstalledRouting> held;
    if (e.installed) {
        ForwardingTables now = heldTables(subnet);
        if (!now.isEmpty()) {
            held = std::make_unique<InstalledRouting>();
            held->fabric = e.installed->fabric;
            held->serviceLevels = e.installed->serviceLevels;
            held->intentDigest = e.installed->intentDigest;
            held->appliedFrom = e.installed->appliedFrom;
            held->previousIntent = e.installed->previousIntent;
            held->tables = std::move(now);
        }
    }
    Result<IntentRouting> routed = routeIntentAfterChange(*fabric, bound.project, e.intentDigest, held ? held.get() : e.installed.get());
    if (!routed) {
        e.say(WEFT_OSM_LOG_ERROR, routed.error().toString());
        return -1;
    }
    for (const QString &note : routed->notes)
        e.say(WEFT_OSM_LOG_INFO, QStringLiteral("passed over %1").arg(note));
    // Whether the phy-isolated partitions kept links of their own, were proven unable to, or
    // the search could not tell (issue 41).
    if (!routed->routing.isolation.isEmpty())
        e.say(WEFT_OSM_LOG_INFO, routed->routing.isolation);

    // Into OpenSM's new_lft, switch by switch; an entry past a switch's table is a failure.
    const ForwardingTables &tables = routed->routing.tables;
    for (std::uint32_t i = 0; i < subnet.node_count; ++i) {
        const weft_osm_node &n = subnet.nodes[i];
        if (n.type != 2 || !n.new_lft)
            continue;
        const SwitchForwardingTable *table = tables.find(n.guid);
        if (!table) {
            e.say(WEFT_OSM_LOG_ERROR, QStringLiteral("no table for switch %1").arg(guidText(n.guid)));
            return -1;
        }
        const std::vector<std::uint8_t> &entries = table->lft.entries();
        const std::size_t count = std::min<std::size_t>(entries.size(), n.lft_size);
        for (std::size_t lid = count; lid < entries.size(); ++lid)
            if (entries[lid] != kNoRoute) {
                e.say(WEFT_OSM_LOG_ERROR, QStringLiteral("LID %1 is past switch %2's table of %3").arg(lid).arg(guidText(n.guid)).arg(n.lft_size));
                return -1;
            }
        std::copy(entries.begin(), entries.begin() + std::ptrdiff_t(count), n.new_lft);
    }
    // The routing of the intent before this one, as last installed, is kept (one level): a rollback
    // that puts that intent back gets its tables back (routeIntentAfterChange).
    std::shared_ptr<const InstalledRouting> previousIntent;
    if (e.installed && e.installed->intentDigest != e.intentDigest) {
        e.installed->previousIntent.reset();
        previousIntent = std::move(e.installed);
    } else if (e.installed) {
        previousIntent = e.installed->previousIntent;
    }
    e.installed = std::make_unique<InstalledRouting>();
    // Routed around drained elements: the fabric without them is what the next run compares with.
    e.installed->fabric = routed->routedOn ? routed->routedOn : fabric;
    e.installed->tables = std::move(routed->routing.tables);
    e.installed->serviceLevels = routed->routing.serviceLevels;
    e.installed->intentDigest = e.intentDigest;
    e.installed->appliedFrom = routed->appliedFrom;
    e.installed->previousIntent = std::move(previousIntent);
    rememberServiceLevels(e, *fabric, bound.project.tenancy, routed->routing.serviceLevels);
    e.say(WEFT_OSM_LOG_INFO, QStringLiteral("routed %1 switch(es), %2 end port(s) by %3 in %4 ms").arg(fabric->switches().size()).arg(fabric->endNodes().size()).arg(routed->method).arg(timer.elapsed()));
    return 0;
}

}  // namespace

extern "C" {

weft_osm_engine *weft_osm_create(const char *options, weft_osm_log_fn log, void *logContext)
{
    try {
        auto e = std::make_unique<weft_osm_engine>();
        e->log = log;
        e->logContext = logContext;
        e->intentPath = QString::fromUtf8(options ? options : "").trimmed();
        e->intent.routingEngine = QStringLiteral("ftree");  // until an intent is read: OpenSM's own
        if (e->intentPath.isEmpty())
            e->say(WEFT_OSM_LOG_INFO, QStringLiteral("no intent given (event_plugin_options): routing by ftree"));
        else
            reloadIntent(*e);
        return e.release();
    } catch (const std::exception &ex) {
        if (log)
            log(logContext, WEFT_OSM_LOG_ERROR, ex.what());
    } catch (...) {
    }
    return nullptr;
}

int weft_osm_route(weft_osm_engine *engine, const weft_osm_subnet *subnet)
{
    if (!engine || !subnet)
        return -1;
    try {
        return route(*engine, *subnet);
    } catch (const std::bad_alloc &) {
        engine->say(WEFT_OSM_LOG_ERROR, QStringLiteral("out of memory while routing; OpenSM falls back"));
    } catch (const std::exception &ex) {
        engine->say(WEFT_OSM_LOG_ERROR, QStringLiteral("routing failed (%1); OpenSM falls back").arg(QString::fromUtf8(ex.what())));
    } catch (...) {
        engine->say(WEFT_OSM_LOG_ERROR, QStringLiteral("routing failed; OpenSM falls back"));
    }
    return -1;
}

std::uint8_t weft_osm_path_sl(weft_osm_engine *engine, std::uint8_t hint, std::uint16_t slid, std::uint16_t dlid)
{
    if (!engine || hint != 0)
        return hint;  // an SL OpenSM already chose (the partition's sl=, a QoS level) stands
    try {
        std::lock_guard<std::mutex> lock(engine->serviceLevelsLock);
        const auto s = engine->pkeysByLid.find(slid);
        const auto d = engine->pkeysByLid.find(dlid);
        if (s == engine->pkeysByLid.end() || d == engine->pkeysByLid.end())
            return hint;
        int chosen = -1;
        for (const std::uint16_t pkey : s->second) {
            if (std::find(d->second.begin(), d->second.end(), pkey) == d->second.end())
                continue;
            const int sl = engine->serviceLevels.at(pkey);
            if (chosen >= 0 && chosen != sl)
                return hint;  // two shared partitions on different lanes: OpenSM's choice
            chosen = sl;
        }
        return chosen >= 0 && chosen < 16 ? std::uint8_t(chosen) : hint;
    } catch (...) {
        return hint;
    }
}

void weft_osm_destroy(weft_osm_engine *engine)
{
    delete engine;
}

}  // extern "C"
