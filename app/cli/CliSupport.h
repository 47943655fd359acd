#pragma once
// Shared plumbing of the headless subcommands: where text goes, how errors are reported, how
// results are written.

#include "Fabric.h"
#include "Result.h"
#include "Tenancy.h"

#include <QCommandLineParser>
#include <QJsonObject>
#include <QString>
#include <QTextStream>

#include <initializer_list>

namespace weft::cli {

QTextStream &out();
QTextStream &err();

// Prints "weft <command>: <error>" on stderr and returns kExitBadInput.
int reportBadInput(const QString &command, const Error &error);
int reportBadInput(const QString &command, const QString &message);

// Parses `args` (without the program name) for `command`; on --help prints the help and sets
// *exitCode to 0; on a usage error prints it and sets *exitCode to kExitBadInput. Returns false
// in both cases, true when the command should run.
bool parseArguments(QCommandLineParser &parser, const QString &command, const QStringList &args, int *exitCode);

// For commands that take options only: false (with *exitCode set to kExitBadInput and the
// message printed) when a positional argument is given or one of `required` is missing.
bool requireOptionsOnly(const QCommandLineParser &parser, const QString &command, std::initializer_list<const char *> required,
                        int *exitCode);

// Writes `data` to `path` atomically (with a backup of what it replaces), or to stdout when
// `path` is empty or "-".
Status writeOutput(const QString &path, const QByteArray &data);

void printJson(const QJsonObject &object);

// Partitions (--partitions), policies (--policy NAME=POLICY), weights (--weights) and, when the
// command has it, --strict: the tenancy given on the command line of `route` and `metrics`.
Result<Tenancy> tenancyFromArguments(const QCommandLineParser &parser, const Fabric &fabric, bool hasStrictOption);

} // namespace weft::cli
