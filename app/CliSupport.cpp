#include "CliSupport.h"

#include "Commands.h"
#include "SafeFile.h"

#include <QJsonDocument>

#include <cstdio>

namespace weft::cli {

QTextStream &out()
{
    static QTextStream stream(stdout);
    return stream;
}

QTextStream &err()
{
    static QTextStream stream(stderr);
    return stream;
}

int reportBadInput(const QString &command, const Error &error)
{
    return reportBadInput(command, error.toString());
}

int reportBadInput(const QString &command, const QString &message)
{
    out().flush();
    err() << "weft " << command << ": " << message << Qt::endl;
    return kExitBadInput;
}

bool parseArguments(QCommandLineParser &parser, const QString &command, const QStringList &args, int *exitCode)
{
    parser.addHelpOption();
    QStringList full = args;
    full.prepend(QStringLiteral("weft ") + command);
    if (!parser.parse(full)) {
        *exitCode = reportBadInput(command, parser.errorText() + QStringLiteral(" (see weft %1 --help)").arg(command));
        return false;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out() << parser.helpText();
        out().flush();
        *exitCode = kExitOk;
        return false;
    }
    return true;
}

Status writeOutput(const QString &path, const QByteArray &data)
{
    if (path.isEmpty() || path == QLatin1String("-")) {
        out().flush();
        if (std::fwrite(data.constData(), 1, std::size_t(data.size()), stdout) != std::size_t(data.size()))
            return Error{QStringLiteral("stdout"), 0, QStringLiteral("write failed")};
        std::fflush(stdout);
        return Done{};
    }
    return writeFileAtomically(path, data);
}

void printJson(const QJsonObject &object)
{
    out() << QJsonDocument(object).toJson(QJsonDocument::Indented);
    out().flush();
}

} // namespace weft::cli
