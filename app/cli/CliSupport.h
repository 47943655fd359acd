#pragma once
// Shared plumbing of the headless subcommands: where text goes, how errors are reported, how
// results are written.

#include "Commit.h"
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
#include <map>
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
    bool roles = false;       // --cn-guids FILE, --io-guids FILE: node roles as OpenSM's files give them
};
// The --cn-guids and --io-guids options (OpenSM's cn_guid_file and io_guid_file) of a command
// that reads a topology: node roles, NodeRoles.h.
void addRoleOptions(QCommandLineParser &parser);
// `fabric` with the roles those options give (unchanged when neither is set); a GUID the fabric
// lacks is a warning on stderr.
Result<Fabric> applyRoleOptions(const QCommandLineParser &parser, Fabric fabric);

struct CommandInputs
{
    Fabric fabric;
    std::vector<ForwardingTables> tables;  // one per InputOptions::tables entry
    Tenancy tenancy;
};

// Reads in the order topology, tables, partitions, policies, weights; fails with the first
// error, for reportBadInput.
Result<CommandInputs> loadInputs(const QCommandLineParser &parser, const InputOptions &options);

// `text` as one word of a POSIX shell command line: as it is when it holds only safe characters,
// otherwise in single quotes (for the commands a command prints for its user to run).
QString shellQuoted(const QString &text);

// The `--traffic MODEL` option: the default model when it is not given, an error naming the
// text and the known models when it names none. The seed is left as it is.
Result<TrafficModel> trafficOption(const QCommandLineParser &parser);

// How a command reaches an OpenSM commit target, the options of `weft commit` that `weft adapt`
// shares: --opensm-lfts, --opensm-partitions, --opensm-pidfile, --opensm-log, --opensm-options,
// --sm-port, --journal, --timeout, --ca, --ca-port, --wait, --accept-violations.
void addCommitTargetOptions(QCommandLineParser &parser);
struct CommitTargetOptions
{
    CommitTarget target;
    CommitOptions options;  // timeout, SM port, journal, lock wait, accept violations
    LiveOptions live;       // adapter and port
    QString timeoutText;    // --timeout as given, for commands printed for the user
};
// Those options; an error naming the option and the text when one is not valid. Required ones
// are the command's to check (requireOptionsOnly).
Result<CommitTargetOptions> readCommitTargetOptions(const QCommandLineParser &parser);
// The exit status of a commit's outcome: 0 committed, 2 refused or stale (nothing written),
// 1 rolled back or rollback failed.
int commitExitCode(CommitOutcome outcome);

// The repeatable `--param NAME=VALUE` option of `weft adapt` (live and replay): the values the
// rules' parameter terms compare, or an error naming the first that is not NAME=NUMBER (a finite
// number).
Result<std::map<QString, double>> ruleParameters(const QCommandLineParser &parser);

// For commands that must clean up before they exit (a lab's simulator, a loop's commit): SIGINT,
// SIGTERM, SIGHUP and SIGPIPE (the terminal, or the reader of the output, gone) only record the
// signal, and the command's loop reads stopSignal() and stops. Interrupted system calls resume.
void catchStopSignals();
int stopSignal();  // the signal received, 0 while none came

}  // namespace weft::cli
