#pragma once
// Shared plumbing of the headless subcommands: where text goes, how errors are reported, how
// results are written.

#include "Fabric.h"
#include "ForwardingTables.h"
#include "LftDump.h"
#include "LiveFabric.h"
#include "Result.h"
#include "Tenancy.h"
#include "TrafficModel.h"

#include <QCommandLineParser>
#include <QJsonObject>
#include <QString>
#include <QTextStream>

#include <initializer_list>
#include <vector>

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
// An LFT dump, streamed: to stdout for "-" (or an empty path), else to the file through SafeFile
// (atomic, previous content kept as the backup). Never held in memory whole.
Status writeLftDumpOutput(const QString &path, const ForwardingTables &tables, const Fabric *fabric, LftDumpForm form);

void printJson(const QJsonObject &object);

// How a command reaches the live fabric: --ca, --port, --timeout and --retries; `mad` names what
// the timeout applies to in the help ("SMP", "MAD").
void addLiveOptions(QCommandLineParser &parser, const QString &mad);
// Those options into `options`; false (the problem printed, *exitCode = kExitBadInput) when one
// is not valid.
bool readLiveOptions(const QCommandLineParser &parser, const QString &command, LiveOptions *options, int *exitCode);

// What a command reads before it works: the topology (--topology), LFT dumps read against it,
// and the tenancy. Each flag names options the command defines (QCommandLineParser warns
// about asking for others).
struct InputOptions
{
    QStringList tables;       // options naming LFT dumps, read in this order: {"lfts"}, {"from", "to"}
    bool partitions = false;  // --partitions FILE (its warnings go to stderr)
    bool policies = false;    // --policy NAME=POLICY, repeatable
    bool weights = false;     // --weights FILE
    bool strict = false;      // --strict: PolicyMode::Strict
};

struct CommandInputs
{
    Fabric fabric;
    std::vector<ForwardingTables> tables;  // one per InputOptions::tables entry
    Tenancy tenancy;
};

// Reads in the order topology, tables, partitions, policies, weights; fails with the first
// error, for reportBadInput.
Result<CommandInputs> loadInputs(const QCommandLineParser &parser, const InputOptions &options);

// The `--traffic MODEL` option: the default model when it is not given, an error naming the
// text and the known models when it names none. The seed is left as it is.
Result<TrafficModel> trafficOption(const QCommandLineParser &parser);

}  // namespace weft::cli
