// weft: no arguments (or a file) starts the GUI; a subcommand runs headless over the same core.

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

#include <cstdio>
#include <functional>
#include <map>

namespace {

using Command = std::function<int(const QStringList &)>;

const std::map<QString, std::pair<Command, const char *>> &commands()
{
    static const std::map<QString, std::pair<Command, const char *>> table = {
        {QStringLiteral("info"), {weft::cli::info, "summarise a topology, LFT dump, partitions.conf or project"}},
        {QStringLiteral("gen"), {weft::cli::gen, "generate fat-tree fabrics (ibnetdiscover or ibsim net files)"}},
        {QStringLiteral("convert"), {weft::cli::convert, "convert between the formats Weft reads"}},
        {QStringLiteral("bench"), {weft::cli::bench, "measure Weft's speed and memory on large fabrics"}},
        {QStringLiteral("route"), {weft::cli::route, "route a topology and write the tables as an LFT dump"}},
        {QStringLiteral("metrics"), {weft::cli::metrics, "validate forwarding tables and measure link loads"}},
        {QStringLiteral("discover"), {weft::cli::discover, "discover the live fabric (topology, LFTs, P_Key tables) through the local adapter"}},
        {QStringLiteral("diff"), {weft::cli::diff, "SMPs, LFT blocks and P_Key blocks a routing change costs"}},
        {QStringLiteral("commit"), {weft::cli::commit, "install a plan through OpenSM, verify it by reading back, roll back if it does not hold"}},
        {QStringLiteral("lab"), {weft::cli::lab, "a private ibsim + OpenSM fabric to try discovery and commits on"}},
        {QStringLiteral("keys"), {weft::cli::keys, "plan routing keys (ARK/NRK) for BSP applications on a fat tree"}},
        {QStringLiteral("ebb"), {weft::cli::ebb, "effective bisection bandwidth of forwarding tables (random bisections)"}},
        {QStringLiteral("migrate"), {weft::cli::migrate, "plan a VM live migration on a vSwitch fabric (ItRC, FTreeMinRC, full)"}},
    };
    return table;
}

void printUsage(FILE *stream)
{
    QTextStream s(stream);
    s << "Usage: weft [--lang nb|en] [--screenshot PNG] [FILE]   start the GUI (demo fabric if no FILE)\n"
         "       weft COMMAND [options]                         run headless\n\nCommands:\n";
    for (const auto &[name, entry] : commands())
        s << "  " << name.leftJustified(9) << entry.second << '\n';
    s << "\nRun 'weft COMMAND --help' for a command's options.\n";
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
    parser.setApplicationDescription(QStringLiteral("Weft, a fabric manager for InfiniBand"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOption({QStringLiteral("lang"), QStringLiteral("User interface language (en, nb)."), QStringLiteral("LANG")});
    parser.addOption({QStringLiteral("screenshot"), QStringLiteral("Save a screenshot of the main window to PNG and exit."), QStringLiteral("PNG")});
    parser.addOption({QStringLiteral("screenshot-view"), QStringLiteral("What the screenshot shows: partitions, load, preview (ftree) or preview-pftree."), QStringLiteral("VIEW")});
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("A topology file to open instead of the demo fabric."));
    parser.process(app);
    installTranslations(app, parser.value(QStringLiteral("lang")));

    weft::MainWindow window;
    const QStringList files = parser.positionalArguments();
    if (files.isEmpty()) {
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
    if (!screenshot.isEmpty()) {
        // Let layout and the first paints settle before grabbing.
        QTimer::singleShot(1500, &app, [&] {
            if (!weft::prepareScreenshot(window, parser.value(QStringLiteral("screenshot-view")))) {
                app.exit(1);
                return;
            }
            const bool saved = weft::saveScreenshot(window, screenshot);
            app.exit(saved ? 0 : 1);
        });
    }
    return app.exec();
}

}  // namespace

int main(int argc, char **argv)
{
    QCoreApplication::setOrganizationName(QStringLiteral("Weft"));
    QCoreApplication::setApplicationName(QStringLiteral("weft"));
    QCoreApplication::setApplicationVersion(QStringLiteral(WEFT_VERSION));

    if (argc > 1) {
        const QString first = QString::fromLocal8Bit(argv[1]);
        if (first == QLatin1String("help") || first == QLatin1String("--help") || first == QLatin1String("-h")) {
            printUsage(stdout);
            return weft::cli::kExitOk;
        }
        auto it = commands().find(first);
        if (it != commands().end() && first == QLatin1String("bench") && argc > 2 && qstrcmp(argv[2], "scene") == 0) {
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
    return runGui(argc, argv);
}
