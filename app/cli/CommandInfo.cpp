// weft info [--json] FILE: what a file is and what it holds.

#include "CliSupport.h"
#include "Commands.h"
#include "FabricSummary.h"
#include "FileFormat.h"
#include "LftDump.h"
#include "PKeyTableFile.h"
#include "PartitionsConf.h"
#include "ProjectFile.h"
#include "TextReader.h"
#include "TopologyFile.h"
#include "WarningSummary.h"

#include <QJsonArray>

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

int infoTopology(const QString &path, const QByteArray &data, bool json)
{
    Result<Fabric> fabric = readTopology(data, path);
    if (!fabric)
        return reportBadInput(QStringLiteral("info"), fabric.error());
    const FabricSummary s = summarize(*fabric);
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
          << "switches: " << s.switches << '\n'
          << "hosts: " << s.channelAdapters << '\n'
          << "routers: " << s.routers << '\n'
          << "links: " << s.links << " (switch-switch " << s.switchLinks << ", to end nodes " << s.endNodeLinks << ")\n"
          << "levels: " << s.tiers << " (switches per level from the leaves up: " << perTierText.join(QStringLiteral(", ")) << ")\n";
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

}  // namespace

int info(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Tells what kind of file FILE is (topology, LFT dump, partitions.conf, P_Key tables or Weft project) and\n"
        "summarises it. P_Key tables (weft discover --pkeys): the ports listed, each P_Key with its full and\n"
        "limited members, and the partitions they amount to (weft convert --to partitions writes them)."));
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print JSON instead of text.")});
    parser.addOption({QStringLiteral("verbose"), QStringLiteral("List every warning; without it, warnings of one kind that repeat are summarised in one line.")});
    parser.addOption({QStringLiteral("topology"), QStringLiteral("Check FILE against this topology: an LFT dump's switches and ports, a project's GUIDs, the ports of\n"
                                                                 "P_Key tables (without it, a GUID they list with port 0 is taken as a switch's)."),
                      QStringLiteral("TOPOLOGY")});
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
    case FileFormat::Topology: return infoTopology(path, *data, json);
    case FileFormat::LftDump: return infoLfts(path, *data, json, verbose, against);
    case FileFormat::PartitionsConf: return infoPartitions(path, *data, json, verbose);
    case FileFormat::Project: return infoProject(path, *data, json, against);
    case FileFormat::PKeyTables: return infoPKeys(path, *data, json, against, parser.value(QStringLiteral("topology")));
    case FileFormat::Unknown: break;
    }
    return reportBadInput(QStringLiteral("info"), Error{path, 0, QStringLiteral("cannot tell what this file is: not a topology, LFT dump, partitions.conf, P_Key tables or Weft project")});
}

}  // namespace weft::cli
