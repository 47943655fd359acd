// weft gen: writes a generated fat-tree as an ibnetdiscover or ibsim topology file.

#include "CliSupport.h"
#include "Commands.h"
#include "FabricGenerator.h"
#include "TopologyFile.h"

#include <limits>

namespace weft::cli {

namespace {

const QString kGenCommand = QStringLiteral("gen");

// "--name: "x" is not a whole number from min to max" on failure.
QString parseInt(const QCommandLineParser &parser, const QString &name, int min, int max, int *out)
{
    const QString text = parser.value(name);
    bool ok = false;
    const qlonglong v = text.toLongLong(&ok);
    if (!ok || v < min || v > max)
        return QStringLiteral("--%1: \"%2\" is not a whole number from %3 to %4").arg(name, text).arg(min).arg(max);
    *out = int(v);
    return {};
}

struct Usage
{
    GeneratorOptions options;
    QString format;
    QString output;
};

Result<Usage> readUsage(const QCommandLineParser &parser)
{
    auto bad = [](const QString &message) { return Error{{}, 0, message + QStringLiteral(" (see weft gen --help)")}; };
    Usage u;
    GeneratorOptions &o = u.options;

    const bool kary = parser.isSet(QStringLiteral("kary"));
    const bool xgft = parser.isSet(QStringLiteral("xgft"));
    const bool radix = parser.isSet(QStringLiteral("radix"));
    if (int(kary) + int(xgft) + int(radix) != 1)
        return bad(QStringLiteral("give exactly one of --kary, --xgft and --radix"));
    const bool levelsSet = parser.isSet(QStringLiteral("levels"));
    if (xgft && levelsSet)
        return bad(QStringLiteral("--levels does not apply to --xgft, whose height is its first number"));
    if (!xgft && !levelsSet)
        return bad(QStringLiteral("--%1 needs --levels").arg(kary ? QStringLiteral("kary") : QStringLiteral("radix")));

    if (levelsSet)
        if (QString e = parseInt(parser, QStringLiteral("levels"), 1, 16, &o.levels); !e.isEmpty())
            return bad(e);
    if (kary) {
        o.shape = FabricShapeKind::KaryNTree;
        if (QString e = parseInt(parser, QStringLiteral("kary"), 1, 127, &o.arity); !e.isEmpty())
            return bad(e);
    } else if (radix) {
        o.shape = FabricShapeKind::SwitchRadix;
        // Range checks (even, at most 254) are the generator's, with its clearer messages.
        if (QString e = parseInt(parser, QStringLiteral("radix"), std::numeric_limits<int>::min(),
                                 std::numeric_limits<int>::max(), &o.radix); !e.isEmpty())
            return bad(e);
    } else {
        o.shape = FabricShapeKind::Xgft;
        Result<XgftShape> shape = parseXgft(parser.value(QStringLiteral("xgft")));
        if (!shape)
            return shape.error();
        o.xgft = std::move(shape).value();
    }
    if (parser.isSet(QStringLiteral("switch-ports")))
        if (QString e = parseInt(parser, QStringLiteral("switch-ports"), 1, 254, &o.switchPorts); !e.isEmpty())
            return bad(e);

    o.hypervisors = parser.isSet(QStringLiteral("hypervisors"));
    if (parser.isSet(QStringLiteral("vfs"))) {
        if (!o.hypervisors)
            return bad(QStringLiteral("--vfs needs --hypervisors"));
        if (QString e = parseInt(parser, QStringLiteral("vfs"), 0, 252, &o.vfsPerHypervisor); !e.isEmpty())
            return bad(e);
    }

    if (parser.isSet(QStringLiteral("remove-links")))
        if (QString e = parseInt(parser, QStringLiteral("remove-links"), 0, std::numeric_limits<int>::max(),
                                 &o.removeRandomLinks); !e.isEmpty())
            return bad(e);
    if (parser.isSet(QStringLiteral("seed"))) {
        if (!parser.isSet(QStringLiteral("remove-links")))
            return bad(QStringLiteral("--seed only chooses which links --remove-links removes"));
        bool ok = false;
        o.seed = parser.value(QStringLiteral("seed")).toULongLong(&ok, 0);
        if (!ok)
            return bad(QStringLiteral("--seed: \"%1\" is not a whole number").arg(parser.value(QStringLiteral("seed"))));
    }
    for (const QString &text : parser.values(QStringLiteral("remove-link"))) {
        Result<LinkEndName> end = parseLinkEnd(text);
        if (!end)
            return end.error();
        o.removeLinks.push_back(std::move(end).value());
    }

    o.assignLids = !parser.isSet(QStringLiteral("no-lids"));
    if (parser.isSet(QStringLiteral("lmc")))
        if (QString e = parseInt(parser, QStringLiteral("lmc"), 0, 7, &o.lmc); !e.isEmpty())
            return bad(e);
    if (parser.isSet(QStringLiteral("width")))
        if (QString e = parseInt(parser, QStringLiteral("width"), 1, 12, &o.linkWidth); !e.isEmpty())
            return bad(e);
    if (parser.isSet(QStringLiteral("speed"))) {
        o.linkSpeed = linkSpeedFromName(parser.value(QStringLiteral("speed")).toUpper());
        if (o.linkSpeed == LinkSpeed::Unknown)
            return bad(QStringLiteral("--speed: \"%1\" is not a link speed (SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR, XDR)")
                           .arg(parser.value(QStringLiteral("speed"))));
    }

    u.format = parser.value(QStringLiteral("format"));
    if (u.format != QLatin1String("ibnetdiscover") && u.format != QLatin1String("ibsim"))
        return bad(QStringLiteral("--format must be ibnetdiscover or ibsim, not \"%1\"").arg(u.format));
    u.output = parser.value(QStringLiteral("output"));
    if (!parser.positionalArguments().isEmpty())
        return bad(QStringLiteral("unexpected argument \"%1\"").arg(parser.positionalArguments().constFirst()));
    return u;
}

}  // namespace

int gen(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Generates a fat-tree fabric and writes it as a topology file.\n"
        "Shapes (exactly one):\n"
        "  --kary K --levels N     k-ary n-tree: K^N hosts, N*K^(N-1) switches of 2K ports\n"
        "  --radix R --levels N    folded Clos of R-port switches: 2 levels R*R/2 hosts,\n"
        "                          3 levels R^3/4 hosts (36 ports: 11664 hosts, 1620 switches)\n"
        "  --xgft \"h;m1,..,mh;w1,..,wh\"  XGFT with roots at level 0 and hosts at level h:\n"
        "                          a level-i node has m(i+1) children and w(i) parents; w(h) = 1\n"
        "Switches are described \"L<level> spine|aggr|leaf <n>\", hosts \"host <nnnn>\"; with\n"
        "--hypervisors each host is a vSwitch (port 1 to its leaf) with a PF and VFs behind it.\n"
        "Removed links are listed on stdout (stderr when the fabric goes to stdout)."));
    parser.addOption({QStringLiteral("kary"), QStringLiteral("Arity K of a k-ary n-tree."), QStringLiteral("K")});
    parser.addOption({QStringLiteral("radix"), QStringLiteral("Switch port count R (even)."), QStringLiteral("R")});
    parser.addOption({QStringLiteral("levels"), QStringLiteral("Switch levels of --kary or --radix."), QStringLiteral("N")});
    parser.addOption({QStringLiteral("xgft"), QStringLiteral("XGFT shape, e.g. \"4;2,2,2,2;2,2,2,1\"."), QStringLiteral("SPEC")});
    parser.addOption({QStringLiteral("switch-ports"), QStringLiteral("Ports per switch (default: 2K, R, or what the XGFT needs)."), QStringLiteral("P")});
    parser.addOption({QStringLiteral("hypervisors"), QStringLiteral("Make every host a hypervisor: vSwitch + PF + VFs.")});
    parser.addOption({QStringLiteral("vfs"), QStringLiteral("VFs per hypervisor (default 0)."), QStringLiteral("V")});
    parser.addOption({QStringLiteral("remove-links"), QStringLiteral("Remove N random switch-to-switch links, never splitting the fabric."), QStringLiteral("N")});
    parser.addOption({QStringLiteral("seed"), QStringLiteral("Seed for --remove-links (default 1): the same seed removes the same links."), QStringLiteral("S")});
    parser.addOption({QStringLiteral("remove-link"), QStringLiteral("Remove the link at a port, named by node description or id: \"L1 leaf 3[5]\". Repeatable."), QStringLiteral("NODE[PORT]")});
    parser.addOption({QStringLiteral("no-lids"), QStringLiteral("Leave LIDs to the subnet manager (default: sequential, switches first).")});
    parser.addOption({QStringLiteral("lmc"), QStringLiteral("LMC of host ports (default 0)."), QStringLiteral("LMC")});
    parser.addOption({QStringLiteral("width"), QStringLiteral("Link width in lanes: 1, 2, 4, 8 or 12 (default 4)."), QStringLiteral("LANES")});
    parser.addOption({QStringLiteral("speed"), QStringLiteral("Link speed: SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR, XDR (default QDR)."), QStringLiteral("SPEED")});
    parser.addOption({QStringLiteral("format"), QStringLiteral("Output format: ibnetdiscover or ibsim (default ibnetdiscover)."), QStringLiteral("FORMAT"), QStringLiteral("ibnetdiscover")});
    parser.addOption({{QStringLiteral("o"), QStringLiteral("output")}, QStringLiteral("Output file (written atomically); default stdout."), QStringLiteral("FILE")});
    int exitCode = kExitOk;
    if (!parseArguments(parser, kGenCommand, args, &exitCode))
        return exitCode;

    Result<Usage> usage = readUsage(parser);
    if (!usage)
        return reportBadInput(kGenCommand, usage.error());
    Result<GeneratedFabric> generated = generateFabric(usage->options);
    if (!generated)
        return reportBadInput(kGenCommand, generated.error());
    const GeneratedFabric &g = *generated;

    QByteArray text;
    if (usage->format == QLatin1String("ibsim")) {
        // ibsim attaches its SM to the first node of the file: make that the first host.
        const NodeIndex sm = g.fabric.endNodes().empty() ? kNoIndex : g.fabric.endNodes().front();
        text = writeIbsimNet(g.fabric, sm);
    } else {
        TopologyWriteOptions options;
        options.generatedBy = QStringLiteral("weft gen: ") + g.summary;
        text = writeIbnetdiscover(g.fabric, options);
    }
    if (Status s = writeOutput(usage->output, text); !s)
        return reportBadInput(kGenCommand, s.error());

    const bool toStdout = usage->output.isEmpty() || usage->output == QLatin1String("-");
    QTextStream &report = toStdout ? err() : out();
    report << g.summary << Qt::endl;
    for (const RemovedLink &link : g.removedLinks)
        report << "removed " << link.toString() << Qt::endl;
    for (const QString &warning : g.warnings)
        err() << "warning: " << warning << Qt::endl;
    report.flush();
    return kExitOk;
}

}  // namespace weft::cli
