// weft info [--json] FILE: what a file is and what it holds.

#include "CliSupport.h"
#include "Commands.h"
#include "FabricSummary.h"
#include "FileFormat.h"
#include "LftDump.h"
#include "NodeRoles.h"
#include "OpenSmState.h"
#include "PKeyTableFile.h"
#include "PartitionsConf.h"
#include "ProjectFile.h"
#include "TextReader.h"
#include "TopologyFile.h"
#include "WarningSummary.h"

#include <QJsonArray>
#include <QRegularExpression>

#include <algorithm>

namespace weft::cli {

namespace {

// Warnings go to standard error, so that standard output holds only the summary. Unless
// `verbose`, a kind that repeats is summarised in one line: its count and a few examples.
void printWarnings(const QStringList &warnings, bool verbose)
{
    const QStringList lines = verbose ? warnings : summarizeWarnings(warnings, 3, QStringLiteral(" (weft info --verbose lists them all)"));
    for (const QString &line : lines)
        err() << "warning: " << line << '\n';
    err().flush();
}

QString pkeyOrAuto(const std::optional<std::uint16_t> &pkey)
{
    return pkey ? pkeyText(*pkey) : QStringLiteral("auto");
}

// A few end nodes of each role other than compute, with why they have it.
QStringList roleExamples(const Fabric &fabric, NodeRole role, int count)
{
    QStringList examples;
    for (NodeIndex n : fabric.endNodes()) {
        if (fabric.node(n).role != role)
            continue;
        if (examples.size() == count)
            break;
        // Named by where it hangs: Aggregation Nodes all carry the same description.
        QString name = displayName(fabric.node(n));
        const Node &node = fabric.node(n);
        for (int p = 1; p <= node.portCount; ++p) {
            const PortIndex remote = fabric.port(node.firstPort + p).remote;
            if (remote != kNoIndex) {
                name += QStringLiteral(" on ") + portDisplayName(fabric, remote);
                break;
            }
        }
        const QString why = nodeRoleReason(fabric, n);
        examples << (why.isEmpty() ? name : QStringLiteral("%1 (%2)").arg(name, why));
    }
    return examples;
}

int infoTopology(const QString &path, const QByteArray &data, bool json, const QCommandLineParser &parser)
{
    TopologyFileInfo fileInfo;
    Result<Fabric> read = readTopology(data, path, &fileInfo);
    if (!read)
        return reportBadInput(QStringLiteral("info"), read.error());
    Result<Fabric> fabric = applyRoleOptions(parser, std::move(read).value());
    if (!fabric)
        return reportBadInput(QStringLiteral("info"), fabric.error());
    const FabricSummary s = summarize(*fabric);
    QJsonArray groups;
    for (const NodeGroup &g : fabric->nodeGroups())
        groups.append(QJsonObject{{QStringLiteral("name"), g.name},
                                  {QStringLiteral("guid"), g.guid ? QJsonValue(guidText(g.guid)) : QJsonValue(QJsonValue::Null)},
                                  {QStringLiteral("nodes"), double(g.nodes.size())}});
    QJsonArray perTier;
    QStringList perTierText;
    for (std::size_t n : s.switchesPerTier) {
        perTier.append(double(n));
        perTierText << QString::number(n);
    }
    if (json) {
        printJson(QJsonObject{
            {QStringLiteral("file"), path},
            {QStringLiteral("format"), QStringLiteral("topology")},
            {QStringLiteral("form"), fileInfo.form},
            {QStringLiteral("tool_version"), fileInfo.toolVersion.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(fileInfo.toolVersion)},
            {QStringLiteral("node_groups"), groups},
            {QStringLiteral("compute_nodes"), double(s.computeNodes)},
            {QStringLiteral("service_nodes"), double(s.serviceNodes)},
            {QStringLiteral("io_nodes"), double(s.ioNodes)},
            {QStringLiteral("switches"), double(s.switches)},
            {QStringLiteral("hosts"), double(s.channelAdapters)},
            {QStringLiteral("routers"), double(s.routers)},
            {QStringLiteral("links"), double(s.links)},
            {QStringLiteral("switch_links"), double(s.switchLinks)},
            {QStringLiteral("host_links"), double(s.endNodeLinks)},
            {QStringLiteral("levels"), s.tiers},
            {QStringLiteral("switches_per_level"), perTier},
            {QStringLiteral("isolated_switches"), double(s.isolatedSwitches)},
            {QStringLiteral("lid_min"), s.minLid},
            {QStringLiteral("lid_max"), s.maxLid},
            {QStringLiteral("lids_assigned"), double(s.lidsAssigned)},
        });
        return kExitOk;
    }
    out() << "file: " << path << '\n'
          << "format: topology\n"
          << "form: " << fileInfo.form << '\n';
    if (!fileInfo.toolVersion.isEmpty())
        out() << "tool: " << fileInfo.toolVersion << '\n';
    if (!fabric->nodeGroups().empty()) {
        QStringList names;
        for (const NodeGroup &g : fabric->nodeGroups())
            names << QStringLiteral("%1 (%2 nodes)").arg(g.name).arg(g.nodes.size());
        out() << "node groups: " << fabric->nodeGroups().size() << " (" << names.join(QStringLiteral(", ")) << ")\n";
    }
    out() << "switches: " << s.switches << '\n'
          << "hosts: " << s.channelAdapters << '\n'
          << "roles: compute " << s.computeNodes << ", service " << s.serviceNodes << ", I/O " << s.ioNodes << '\n';
    for (NodeRole role : {NodeRole::Service, NodeRole::IO}) {
        const QStringList examples = roleExamples(*fabric, role, 3);
        if (!examples.isEmpty())
            out() << "  " << nodeRoleName(role) << ", e.g.: " << examples.join(QStringLiteral("; ")) << '\n';
    }
    out()
          << "routers: " << s.routers << '\n'
          << "links: " << s.links << " (switch-switch " << s.switchLinks << ", to end nodes " << s.endNodeLinks << ")\n"
          << "levels: " << s.tiers << " (switches per level from the leaves up: " << perTierText.join(QStringLiteral(", "))
          << (s.serviceNodes + s.ioNodes ? QStringLiteral("; leaves are the switches with compute nodes") : QString()) << ")\n";
    if (s.isolatedSwitches)
        out() << "isolated switches: " << s.isolatedSwitches << " (no path to any end node)\n";
    if (s.lidsAssigned)
        out() << "LIDs: " << s.minLid << "-" << s.maxLid << " (" << s.lidsAssigned << " ports with a LID)\n";
    else
        out() << "LIDs: none assigned\n";
    out().flush();
    return kExitOk;
}

int infoLfts(const QString &path, const QByteArray &data, bool json, bool verbose, const Fabric *fabric)
{
    Result<ForwardingTables> tables = readLftDump(data, path, fabric);
    if (!tables)
        return reportBadInput(QStringLiteral("info"), tables.error());
    std::size_t entries = 0;
    std::size_t blocks = 0;
    Lid top = 0;
    for (const SwitchForwardingTable &t : tables->switches()) {
        entries += t.lft.routeCount();
        blocks += std::size_t(t.lft.blockCount());
        top = std::max(top, t.lft.top());
    }
    const QStringList coverage = fabric ? lftCoverageWarnings(*tables, *fabric) : QStringList();
    if (json) {
        printJson(QJsonObject{
            {QStringLiteral("file"), path},
            {QStringLiteral("format"), QStringLiteral("lfts")},
            {QStringLiteral("switches"), double(tables->size())},
            {QStringLiteral("entries"), double(entries)},
            {QStringLiteral("blocks"), double(blocks)},
            {QStringLiteral("top_lid"), top},
            {QStringLiteral("coverage_warnings"), QJsonArray::fromStringList(coverage)},
        });
        return kExitOk;
    }
    out() << "file: " << path << '\n'
          << "format: LFT dump\n"
          << "switches: " << tables->size() << '\n'
          << "entries: " << entries << '\n'
          << "blocks: " << blocks << " (64-entry blocks in use, summed over switches)\n"
          << "highest LID routed: " << top << '\n';
    // A check that passed says so: silence would leave the operator wondering whether it ran.
    if (fabric)
        out() << "checked against the topology: " << (coverage.isEmpty() ? QStringLiteral("every switch of the fabric listed, every LID it assigns routed")
                                                                         : QStringLiteral("%1 warning(s), on stderr").arg(coverage.size()))
              << '\n';
    out().flush();
    printWarnings(coverage, verbose);
    return kExitOk;
}

int infoPartitions(const QString &path, const QByteArray &data, bool json, bool verbose)
{
    Result<PartitionsConfResult> conf = readPartitionsConf(data, path);
    if (!conf)
        return reportBadInput(QStringLiteral("info"), conf.error());
    if (json) {
        QJsonArray partitions;
        for (const Partition &p : conf->partitions) {
            const PartitionMemberCounts c = countMembers(p);
            partitions.append(QJsonObject{
                {QStringLiteral("name"), p.name},
                {QStringLiteral("pkey"), pkeyOrAuto(p.pkey)},
                {QStringLiteral("full"), c.full},
                {QStringLiteral("limited"), c.limited},
                {QStringLiteral("keywords"), c.keywords},
                {QStringLiteral("ipoib"), p.ipoib},
                {QStringLiteral("indx0"), p.indx0},
                {QStringLiteral("defmember"), membershipName(p.defaultMembership)},
                {QStringLiteral("line"), p.sourceLine},
            });
        }
        printJson(QJsonObject{
            {QStringLiteral("file"), path},
            {QStringLiteral("format"), QStringLiteral("partitions")},
            {QStringLiteral("partitions"), partitions},
            {QStringLiteral("warnings"), QJsonArray::fromStringList(conf->warnings)},
        });
        return kExitOk;
    }
    out() << "file: " << path << '\n' << "format: partitions.conf\n" << "partitions: " << conf->partitions.size() << '\n';
    for (const Partition &p : conf->partitions) {
        const PartitionMemberCounts c = countMembers(p);
        out() << "  " << (p.name.isEmpty() ? QStringLiteral("(unnamed)") : p.name) << "  pkey " << pkeyOrAuto(p.pkey)
              << "  full " << c.full << "  limited " << c.limited;
        if (c.keywords)
            out() << "  keywords " << c.keywords;
        out() << '\n';
    }
    out().flush();
    printWarnings(conf->warnings, verbose);
    return kExitOk;
}

int infoProject(const QString &path, const QByteArray &data, bool json, const Fabric *fabric)
{
    Result<Project> project = readProject(data, path);
    if (!project)
        return reportBadInput(QStringLiteral("info"), project.error());
    // Against a fabric, the project keeps what the fabric has and names what it lacks.
    QStringList missing;
    if (fabric) {
        BoundProject bound = bindProject(*project, *fabric);
        missing = bound.missing;
        project = std::move(bound.project);
    }
    const Tenancy &t = project->tenancy;
    if (json) {
        QJsonArray partitions;
        for (const Partition &p : t.partitions)
            partitions.append(QJsonObject{{QStringLiteral("name"), p.name}, {QStringLiteral("pkey"), pkeyOrAuto(p.pkey)},
                                          {QStringLiteral("policy"), policyName(p.policy)},
                                          {QStringLiteral("members"), double(p.members.size())}});
        printJson(QJsonObject{
            {QStringLiteral("file"), path},
            {QStringLiteral("format"), QStringLiteral("project")},
            {QStringLiteral("partitions"), partitions},
            {QStringLiteral("tenants"), double(t.tenants.size())},
            {QStringLiteral("weights"), double(t.nodeWeights.size())},
            {QStringLiteral("policy_mode"), t.mode == PolicyMode::Strict ? QStringLiteral("strict") : QStringLiteral("best-effort")},
            {QStringLiteral("routing_engine"), project->routingEngine},
            {QStringLiteral("missing_guids"), QJsonArray::fromStringList(missing)},
        });
        return kExitOk;
    }
    out() << "file: " << path << '\n' << "format: Weft project\n"
          << "policy mode: " << (t.mode == PolicyMode::Strict ? "strict" : "best-effort") << '\n'
          << "routing engine: " << (project->routingEngine.isEmpty() ? QStringLiteral("(not chosen)") : project->routingEngine) << '\n'
          << "partitions: " << t.partitions.size() << '\n';
    for (const Partition &p : t.partitions)
        out() << "  " << p.name << "  pkey " << pkeyOrAuto(p.pkey) << "  " << policyName(p.policy) << "  members " << p.members.size() << '\n';
    out() << "tenants: " << t.tenants.size() << '\n' << "node weights: " << t.nodeWeights.size() << '\n';
    if (fabric)
        out() << "GUIDs the fabric lacks: " << missing.size() << '\n';
    for (const QString &m : missing)
        out() << "  " << m << '\n';
    out().flush();
    return kExitOk;
}

// Without a fabric the file is summarised from its GUIDs alone, switch ports told apart by their
// port 0 line (listedSwitchPortsFacingCas); with one, every port is found in it first.
int infoPKeys(const QString &path, const QByteArray &data, bool json, const Fabric *fabric, const QString &topologyPath)
{
    Result<PKeyTableListing> listing = readPKeyTableListing(data, path);
    if (!listing)
        return reportBadInput(QStringLiteral("info"), listing.error());
    PKeyMemberships memberships;
    int endPorts = 0;
    int switchPorts0 = 0;
    int switchPortsFacingCas = 0;
    if (fabric) {
        Result<PKeyTables> tables = bindPKeyTables(*listing, *fabric);
        if (!tables)
            return reportBadInput(QStringLiteral("info"), tables.error());
        memberships = heldPKeyMemberships(*fabric, *tables);
        for (const PortPKeyTable &t : tables->ports()) {
            const Port &port = fabric->port(t.port);
            if (fabric->node(port.node).type != NodeType::Switch)
                ++endPorts;
            else if (port.number == 0)
                ++switchPorts0;
            else
                ++switchPortsFacingCas;
        }
    } else {
        memberships = listedPKeyMemberships(*listing);
        const std::vector<bool> facingCas = listedSwitchPortsFacingCas(*listing);
        for (std::size_t i = 0; i < listing->ports.size(); ++i) {
            if (facingCas[i])
                ++switchPortsFacingCas;
            else if (listing->ports[i].portNumber == 0)
                ++switchPorts0;
            else
                ++endPorts;
        }
    }
    const std::vector<Partition> partitions = partitionsOf(memberships);
    auto fullMembers = [](const std::map<Guid, bool> &ports) {
        return int(std::count_if(ports.begin(), ports.end(), [](const auto &port) { return port.second; }));
    };

    if (json) {
        QJsonArray pkeys;
        for (const auto &[pkey, ports] : memberships)
            pkeys.append(QJsonObject{{QStringLiteral("pkey"), pkeyText(pkey)},
                                     {QStringLiteral("full"), fullMembers(ports)},
                                     {QStringLiteral("limited"), int(ports.size()) - fullMembers(ports)}});
        QJsonArray held;
        for (const Partition &p : partitions) {
            const PartitionMemberCounts c = countMembers(p);
            held.append(QJsonObject{{QStringLiteral("name"), p.name}, {QStringLiteral("pkey"), pkeyOrAuto(p.pkey)}, {QStringLiteral("full"), c.full}, {QStringLiteral("limited"), c.limited}});
        }
        printJson(QJsonObject{
            {QStringLiteral("file"), path},
            {QStringLiteral("format"), QStringLiteral("pkeys")},
            {QStringLiteral("topology"), fabric ? QJsonValue(topologyPath) : QJsonValue(QJsonValue::Null)},
            {QStringLiteral("ports"), double(listing->ports.size())},
            {QStringLiteral("end_ports"), endPorts},
            {QStringLiteral("switch_ports_0"), switchPorts0},
            {QStringLiteral("switch_ports_facing_cas"), switchPortsFacingCas},
            {QStringLiteral("pkeys"), pkeys},
            {QStringLiteral("partitions"), held},
        });
        return kExitOk;
    }
    out() << "file: " << path << '\n'
          << "format: P_Key tables\n";
    if (fabric)
        out() << "topology: " << topologyPath << " (every port found in it)\n";
    else
        out() << "topology: none (a GUID listed with port 0 is taken as a switch's; --topology checks every port)\n";
    out() << "ports: " << listing->ports.size() << " (" << endPorts << " CA or router ports, " << switchPorts0
          << " switch management ports (port 0), " << switchPortsFacingCas << " switch ports facing a CA, mirroring its table)\n"
          << "P_Keys: " << memberships.size() << " (members among the CA, router and switch management ports)\n";
    for (const auto &[pkey, ports] : memberships)
        out() << "  " << pkeyText(pkey) << "  full " << fullMembers(ports) << "  limited " << int(ports.size()) - fullMembers(ports) << '\n';
    const bool defaultLeftOut = memberships.count(kDefaultPKey)
        && std::none_of(partitions.begin(), partitions.end(), [](const Partition &p) { return p.pkey == kDefaultPKey; });
    out() << "partitions: " << partitions.size();
    if (defaultLeftOut)
        out() << " (OpenSM's own Default left out: no port but the SM's is its full member)";
    out() << '\n';
    for (const Partition &p : partitions) {
        const PartitionMemberCounts c = countMembers(p);
        out() << "  " << p.name << "  pkey " << pkeyOrAuto(p.pkey) << "  full " << c.full << "  limited " << c.limited << '\n';
    }
    out().flush();
    return kExitOk;
}

// OpenSM's options file (`opensm -c FILE` writes one): what it routes with, what it loads, and
// what in it would defeat a commit, as `weft target check` judges a target's OpenSM.
int infoOpenSmOptions(const QString &path, const QByteArray &data, bool json)
{
    Result<OpenSmOptions> read = readOpenSmOptions(data, path);
    if (!read)
        return reportBadInput(QStringLiteral("info"), read.error());
    const OpenSmOptions &o = *read;
    // The lines as written, for options OpenSmOptions does not keep (QoS tables, GUID files).
    QMap<QString, QString> raw;
    for (const QByteArray &lineBytes : data.split('\n')) {
        QString line = QString::fromUtf8(lineBytes);
        if (const int hash = line.indexOf(QLatin1Char('#')); hash >= 0)
            line.truncate(hash);
        line = line.trimmed();
        const int space = line.indexOf(QRegularExpression(QStringLiteral("\\s")));
        if (space > 0)
            raw[line.left(space)] = line.mid(space + 1).trimmed().remove(QLatin1Char('"'));
    }
    auto given = [&](const QString &key) {
        const QString v = raw.value(key);
        return v == QLatin1String("(null)") ? QString() : v;
    };
    OpenSmState state;
    state.options = o;
    state.optionsFileRead = true;
    CommitTarget target;  // the files this OpenSM reads: a commit would write those
    target.lftsPath = o.lftsFile;
    target.partitionsPath = o.partitionConfigFile;
    target.optionsPath = path;
    if (o.eventPluginName.split(QLatin1Char(' '), Qt::SkipEmptyParts).contains(QLatin1String("weftosm")))
        target.intentPath = o.eventPluginOptions;
    const QStringList defeats = commitWarnings(state, target, false);
    const QStringList plugins = o.eventPluginName.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    QStringList qosLines;
    for (auto it = raw.cbegin(); it != raw.cend(); ++it)
        if (it.key().startsWith(QLatin1String("qos_")) && !given(it.key()).isEmpty())
            qosLines << it.key() + QLatin1Char(' ') + it.value();
    const QString engines = o.routingEngines.isEmpty() ? QStringLiteral("minhop (default)") : o.routingEngines.join(QLatin1Char(','));
    if (json) {
        printJson(QJsonObject{
            {QStringLiteral("file"), path},
            {QStringLiteral("format"), QStringLiteral("opensm-options")},
            {QStringLiteral("routing_engines"), QJsonArray::fromStringList(o.routingEngines)},
            {QStringLiteral("no_fallback"), o.noFallback},
            {QStringLiteral("event_plugins"), QJsonArray::fromStringList(plugins)},
            {QStringLiteral("event_plugin_options"), o.eventPluginOptions},
            {QStringLiteral("qos"), o.qos},
            {QStringLiteral("qos_options"), QJsonArray::fromStringList(qosLines)},
            {QStringLiteral("lmc"), o.lmc},
            {QStringLiteral("partition_config_file"), o.partitionConfigFile},
            {QStringLiteral("lfts_file"), o.lftsFile},
            {QStringLiteral("cn_guid_file"), given(QStringLiteral("cn_guid_file"))},
            {QStringLiteral("io_guid_file"), given(QStringLiteral("io_guid_file"))},
            {QStringLiteral("root_guid_file"), given(QStringLiteral("root_guid_file"))},
            {QStringLiteral("commit_warnings"), QJsonArray::fromStringList(defeats)},
            {QStringLiteral("notes"), QJsonArray::fromStringList(o.notes)},
        });
        return kExitOk;
    }
    out() << "file: " << path << '\n'
          << "format: OpenSM options\n"
          << "routing engines: " << engines << (o.noFallback ? " (no_fallback)" : "") << '\n'
          << "event plugins: " << (plugins.isEmpty() ? QStringLiteral("none") : plugins.join(QStringLiteral(", "))) << '\n';
    if (!o.eventPluginOptions.isEmpty())
        out() << "event plugin options: " << o.eventPluginOptions << '\n';
    out() << "QoS: " << (o.qos ? "on" : "off") << '\n';
    if (o.qos)
        for (const QString &line : qosLines)
            out() << "  " << line << '\n';
    out() << "LMC: " << o.lmc << '\n'
          << "partitions file: " << o.partitionConfigFile << '\n'
          << "LFT file: " << (o.lftsFile.isEmpty() ? QStringLiteral("none") : o.lftsFile) << '\n';
    for (const char *key : {"cn_guid_file", "io_guid_file", "root_guid_file"})
        if (!given(QLatin1String(key)).isEmpty())
            out() << key << ": " << given(QLatin1String(key)) << '\n';
    out() << "would defeat or distort a commit: " << (defeats.isEmpty() ? QStringLiteral("nothing") : QString::number(defeats.size())) << '\n';
    for (const QString &d : defeats)
        out() << "  " << d << '\n';
    out().flush();
    printWarnings(o.notes, false);
    return kExitOk;
}

}  // namespace

int info(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Tells what kind of file FILE is (topology: ibnetdiscover with or without -g, ibdiagnet's database or\n"
        "link listing, ibsim net file; LFT dump, partitions.conf, P_Key tables, OpenSM options or Weft project)\n"
        "and summarises it. A topology's end nodes are counted by role (compute, service, I/O) and its levels\n"
        "found from the compute nodes. An OpenSM options file: routing engines, event plugins, QoS, the\n"
        "partition and LFT files, and what would defeat a commit. P_Key tables (weft discover --pkeys): the ports listed, each P_Key with its full and\n"
        "limited members, and the partitions they amount to (weft convert --to partitions writes them)."));
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON instead of text.")});
    parser.addOption({QStringLiteral("verbose"), QStringLiteral("List every warning; without it, warnings of one kind that repeat are summarised in one line.")});
    parser.addOption({QStringLiteral("topology"), QStringLiteral("Check FILE against this topology: an LFT dump's switches and ports, a project's GUIDs, the ports of\n"
                                                                 "P_Key tables (without it, a GUID they list with port 0 is taken as a switch's)."),
                      QStringLiteral("TOPOLOGY")});
    addRoleOptions(parser);
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("The file to inspect."));
    int exitCode = kExitOk;
    if (!parseArguments(parser, QStringLiteral("info"), args, &exitCode))
        return exitCode;
    if (parser.positionalArguments().size() != 1)
        return reportBadInput(QStringLiteral("info"), QStringLiteral("expected exactly one FILE (see weft info --help)"));
    const QString path = parser.positionalArguments().constFirst();
    Result<QByteArray> data = TextReader::readFile(path);
    if (!data)
        return reportBadInput(QStringLiteral("info"), data.error());
    const bool json = parser.isSet(QStringLiteral("json"));
    const bool verbose = parser.isSet(QStringLiteral("verbose"));
    std::optional<Fabric> fabric;
    if (parser.isSet(QStringLiteral("topology"))) {
        Result<Fabric> f = readTopologyFile(parser.value(QStringLiteral("topology")));
        if (!f)
            return reportBadInput(QStringLiteral("info"), f.error());
        fabric = std::move(f).value();
    }
    const Fabric *against = fabric ? &*fabric : nullptr;
    switch (detectFileFormat(*data)) {
    case FileFormat::Topology: return infoTopology(path, *data, json, parser);
    case FileFormat::OpenSmOptions: return infoOpenSmOptions(path, *data, json);
    case FileFormat::LftDump: return infoLfts(path, *data, json, verbose, against);
    case FileFormat::PartitionsConf: return infoPartitions(path, *data, json, verbose);
    case FileFormat::Project: return infoProject(path, *data, json, against);
    case FileFormat::PKeyTables: return infoPKeys(path, *data, json, against, parser.value(QStringLiteral("topology")));
    case FileFormat::Unknown: break;
    }
    return reportBadInput(QStringLiteral("info"), Error{path, 0, QStringLiteral("cannot tell what this file is: not a topology, LFT dump, partitions.conf, P_Key tables, OpenSM options or Weft project")});
}

}  // namespace weft::cli
