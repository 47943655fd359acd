// weft: no arguments (or a file) starts the GUI; a subcommand runs headless over the same core.

#include "BenchScale.h"
#include "Commands.h"
#include "DemoFabric.h"
#include "MainWindow.h"
#include "Screenshots.h"

#include <QApplication>
#include <QIcon>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QLibraryInfo>
#include <QLocale>
#include <QSettings>
#include <QTextStream>
#include <QTimer>
#include <QTranslator>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>

namespace {

using Command = std::function<int(const QStringList &)>;

const std::map<QString, std::pair<Command, const char *>> &commands()
{
    static const std::map<QString, std::pair<Command, const char *>> table = {
        {QStringLiteral("info"), {weft::cli::info, "summarise a topology, LFT dump, partitions.conf, P_Key tables or project"}},
        {QStringLiteral("gen"), {weft::cli::gen, "generate fat-tree fabrics (ibnetdiscover or ibsim net files)"}},
        {QStringLiteral("convert"), {weft::cli::convert, "convert between the formats Weft reads"}},
        {QStringLiteral("bench"), {weft::cli::bench, "measure Weft's speed and memory on large fabrics"}},
        {QStringLiteral("route"), {weft::cli::route, "route a topology and write the tables as an LFT dump"}},
        {QStringLiteral("metrics"), {weft::cli::metrics, "validate forwarding tables and measure link loads"}},
        {QStringLiteral("discover"), {weft::cli::discover, "discover the live fabric (topology, LFTs, P_Key tables) through the local adapter"}},
        {QStringLiteral("diff"), {weft::cli::diff, "SMPs, LFT blocks and P_Key blocks a routing change costs"}},
        {QStringLiteral("commit"), {weft::cli::commit, "install a plan through OpenSM, verify it by reading back, roll back if it does not hold"}},
        {QStringLiteral("drain"), {weft::cli::drain, "route around a cable or switch for maintenance while it stays up, through the verified commit"}},
        {QStringLiteral("undrain"), {weft::cli::undrain, "bring drained cables or switches back into the routes, through the verified commit"}},
        {QStringLiteral("monitor"), {weft::cli::monitor, "read the live fabric's port counters each interval: rates, congestion, errors"}},
        {QStringLiteral("adapt"), {weft::cli::adapt, "the self-adaptive loop: rules over measured load that plan, preview and commit reconfigurations (live, or --replay of a trace)"}},
        {QStringLiteral("rules"), {weft::cli::rules, "check a file of Weft's rule language (condition -> action rules over measured load)"}},
        {QStringLiteral("check"), {weft::cli::check, "check the fabric's health and compare it with its design: identities, links, tables, port errors, SMs"}},
        {QStringLiteral("target"), {weft::cli::target, "check a subnet's commit target: each SM's state, priority, port and options, and SMs the target does not name"}},
        {QStringLiteral("serve"), {weft::cli::serve, "serve the live fabric's session over HTTPS to desks and scripts (tokens, roles; `serve token` manages them)"}},
        {QStringLiteral("lab"), {weft::cli::lab, "a private ibsim + OpenSM fabric to try discovery and commits on"}},
        {QStringLiteral("keys"), {weft::cli::keys, "plan routing keys (ARK/NRK) for BSP applications on a fat tree"}},
        {QStringLiteral("ebb"), {weft::cli::ebb, "effective bisection bandwidth of forwarding tables (random bisections)"}},
        {QStringLiteral("migrate"), {weft::cli::migrate, "plan a VM live migration on a vSwitch fabric (ItRC, FTreeMinRC, full)"}},
        {QStringLiteral("slurm"), {weft::cli::slurm, "Slurm's view of the fabric: `slurm topology` writes topology.conf (tree, block) or topology.yaml"}},
        {QStringLiteral("reconfigure"), {weft::cli::reconfigure, "plan every reconfiguration candidate (full re-route, SlimUpdate, metabase) for a change, side by side"}},
    };
    return table;
}

// The GUI's own options; --help and --version are answered before any application exists.
QList<QCommandLineOption> guiOptions()
{
    return {
        {QStringLiteral("lang"), QStringLiteral("User interface language (en, nb)."), QStringLiteral("LANG")},
        {QStringLiteral("discover"), QStringLiteral("Start on the live fabric, as Fabric > Discover reads it (first adapter).")},
        {QStringLiteral("screenshot"), QStringLiteral("Save a screenshot of the main window to PNG and exit."), QStringLiteral("PNG")},
        {QStringLiteral("screenshot-view"), QStringLiteral("What the screenshot shows: partitions, load, preview (ftree), small-screen (every dock open at 1366x768), map (the map alone, every dock closed), preview-pftree, vms (a VM migration), lft (the LFT inspector), studio or whatif (a link failure planned in the Reconfiguration Studio), autopilot (the Autopilot dock after a hot-spot rule fired in approve mode), telemetry (measured load and the Telemetry dock's last hour of the busiest cable from a history), subnet-managers (the Subnet Managers dock of a subnet target), health (the Health dock after a check against a design with a moved, a missing and a slower cable), tutorial-discovered, -tenants, -preview-ftree, -preview-pftree, -diff, -approve, -journal (docs/tutorial.md's steps, on `weft lab --gui -- ...`), dock:NAME (one dock in front by its object name, over a previewed pftree routing)."),
         QStringLiteral("VIEW")},
    };
}

void addGuiOptions(QCommandLineParser &parser)
{
    parser.setApplicationDescription(QStringLiteral("Weft, a fabric manager for InfiniBand"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOptions(guiOptions());
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("A topology file to open instead of the demo fabric."));
}

void printUsage(FILE *stream)
{
    QTextStream s(stream);
    s << "Usage: weft [--lang nb|en] [--screenshot PNG] [FILE]   start the GUI (demo fabric if no FILE)\n"
         "       weft COMMAND [options]                         run headless, no display needed\n"
         "       weft help COMMAND                              a command's options\n"
         "       weft --version\n\nCommands:\n";
    qsizetype width = 0;  // the longest command name and a space
    for (const auto &command : commands())
        width = std::max(width, command.first.size() + 1);
    for (const auto &[name, entry] : commands())
        s << "  " << name.leftJustified(width) << entry.second << '\n';
    s << "\nOptions:\n";
    for (const QCommandLineOption &option : guiOptions()) {
        QString name = QStringLiteral("--") + option.names().constFirst();
        if (!option.valueName().isEmpty())
            name += QStringLiteral(" <%1>").arg(option.valueName());
        s << "  " << name.leftJustified(26) << option.description() << '\n';
    }
    s << "  " << QStringLiteral("-h, --help").leftJustified(26) << "This help; 'weft help COMMAND' for a command's.\n";
    s << "  " << QStringLiteral("-v, --version").leftJustified(26) << "Print Weft's version.\n";
    s << "\nRun 'weft COMMAND --help' for a command's options.\n";
}

// What the GUI's command line asks that needs no display: help, the version, or a mistake in it.
std::optional<int> answerWithoutGui(const QStringList &arguments, bool display)
{
    QCommandLineParser parser;
    addGuiOptions(parser);
    // Options the parser does not know may be Qt's own (-platform, -style): QApplication takes those.
    if (!parser.parse(arguments) && (parser.unknownOptionNames().isEmpty() || !display)) {
        QTextStream(stderr) << "weft: " << parser.errorText() << " (see weft --help)" << Qt::endl;
        return weft::cli::kExitBadInput;
    }
    if (parser.isSet(QStringLiteral("help")) || parser.isSet(QStringLiteral("help-all"))) {
        printUsage(stdout);
        return weft::cli::kExitOk;
    }
    if (parser.isSet(QStringLiteral("version"))) {
        QTextStream(stdout) << QCoreApplication::applicationName() << ' ' << QCoreApplication::applicationVersion() << Qt::endl;
        return weft::cli::kExitOk;
    }
    return std::nullopt;
}

// Without a display Qt's window-system plugin aborts the process; say what to do instead.
bool displayAvailable(const QStringList &arguments)
{
#if defined(Q_OS_LINUX)
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")
        || !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") || arguments.contains(QStringLiteral("-platform"));
#else
    Q_UNUSED(arguments);
    return true;
#endif
}

void installTranslations(QApplication &app, const QString &requested)
{
    // The language follows the system locale unless chosen in the settings or on the command line.
    QSettings settings;
    QString language = requested.isEmpty() ? settings.value(QStringLiteral("language")).toString() : requested;
    const QLocale locale = language.isEmpty() ? QLocale::system() : QLocale(language);
    auto *qtTranslator = new QTranslator(&app);
    if (qtTranslator->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"), QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        app.installTranslator(qtTranslator);
    auto *translator = new QTranslator(&app);
    if (translator->load(locale, QStringLiteral("weft"), QStringLiteral("_"), QStringLiteral(":/i18n")))
        app.installTranslator(translator);
}

int runGui(int argc, char **argv)
{
    QApplication app(argc, argv);
    app.setWindowIcon(QIcon(QStringLiteral(":/icons/weft.svg")));
    QCommandLineParser parser;
    addGuiOptions(parser);
    parser.process(app);
    installTranslations(app, parser.value(QStringLiteral("lang")));

    weft::MainWindow window;
    const QStringList files = parser.positionalArguments();
    if (parser.isSet(QStringLiteral("discover"))) {
        // The window first, then the discovery with its progress over it.
        QTimer::singleShot(0, &window, [&window] { window.startDiscovery(QString(), 0, false); });
    } else if (files.isEmpty()) {
        window.openDemoFabric();
    } else {
        QString error;
        if (!window.openTopologyFile(files.constFirst(), &error)) {
            QTextStream(stderr) << "weft: " << error << Qt::endl;
            return weft::cli::kExitBadInput;
        }
    }
    window.show();

    const QString screenshot = parser.value(QStringLiteral("screenshot"));
    // Let layout and the first paints settle before grabbing.
    const auto takeScreenshot = [&] {
        QTimer::singleShot(1500, &app, [&] {
            if (!weft::prepareScreenshot(window, parser.value(QStringLiteral("screenshot-view")))) {
                app.exit(1);
                return;
            }
            const bool saved = weft::saveScreenshot(window, screenshot);
            app.exit(saved ? 0 : 1);
        });
    };
    if (parser.isSet(QStringLiteral("discover"))) {
        // The discovery's error goes to stderr too (`weft lab --gui` runs the GUI so); a
        // screenshot is of the fabric discovered, or none.
        QObject::connect(&window, &weft::MainWindow::discoveryFinished, &app, [&](bool ok, const QString &error) {
            if (!ok)
                QTextStream(stderr) << "weft: discovery failed: " << error << Qt::endl;
            if (screenshot.isEmpty())
                return;
            if (ok)
                takeScreenshot();
            else
                app.exit(1);
        });
    } else if (!screenshot.isEmpty()) {
        takeScreenshot();
    }
    return app.exec();
}

}  // namespace

int main(int argc, char **argv)
{
    QCoreApplication::setOrganizationName(QStringLiteral("Weft"));
    QCoreApplication::setApplicationName(QStringLiteral("weft"));
    QCoreApplication::setApplicationVersion(QStringLiteral(WEFT_VERSION));

    // Only the GUI needs a display: help, the version and every command run on a headless server.
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    if (argc > 1) {
        const QString first = arguments.at(1);
        const QStringList rest = arguments.mid(2);
        if (first == QLatin1String("help")) {
            // `weft help COMMAND` is `weft COMMAND --help`.
            if (rest.isEmpty()) {
                printUsage(stdout);
                return weft::cli::kExitOk;
            }
            const auto it = commands().find(rest.constFirst());
            if (it == commands().end()) {
                QTextStream(stderr) << "weft: \"" << rest.constFirst() << "\" is not a command (see weft --help)" << Qt::endl;
                return weft::cli::kExitBadInput;
            }
            QCoreApplication app(argc, argv);
            return it->second.first({QStringLiteral("--help")});
        }
        auto it = commands().find(first);
        if (it != commands().end() && first == QLatin1String("bench")
            && (rest.value(0) == QLatin1String("scene") || weft::cli::benchScaleNeedsGui(rest))) {
            // The scene benchmark paints widgets: it needs the GUI, offscreen unless told otherwise.
            if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
                qputenv("QT_QPA_PLATFORM", "offscreen");
            QApplication app(argc, argv);
            return it->second.first(QCoreApplication::arguments().mid(2));
        }
        if (it != commands().end()) {
            QCoreApplication app(argc, argv);
            QStringList args = QCoreApplication::arguments().mid(2);
            return it->second.first(args);
        }
        if (!first.startsWith(QLatin1Char('-')) && !QFileInfo::exists(first)) {
            QTextStream(stderr) << "weft: \"" << first << "\" is neither a command nor a file (see weft --help)" << Qt::endl;
            return weft::cli::kExitBadInput;
        }
    }
    const bool display = displayAvailable(arguments);
    if (const std::optional<int> answered = answerWithoutGui(arguments, display))
        return *answered;
    if (!display) {
        QTextStream(stderr) << "weft: the GUI needs a display (DISPLAY or WAYLAND_DISPLAY is not set); the commands run without one"
                               " (see weft --help), or set QT_QPA_PLATFORM=offscreen"
                            << Qt::endl;
        return weft::cli::kExitFailure;
    }
    return runGui(argc, argv);
}
