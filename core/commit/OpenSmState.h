#pragma once
// The OpenSM a commit goes to, as Weft can see it: its options (its options file, -F, and the
// command line it was started with), whether it runs, what its log says, and which of its
// options would defeat or distort a file-based commit (Commit.h).
//
// What OpenSM 3.3.23 does (read in its source):
//  - The options file (osm_subnet.c osm_subn_parse_conf_file) is read line by line: everything
//    from a `#` on is a comment, the first word is the option, the rest of the line (spaces and
//    one pair of quotes trimmed) its value; an unknown option is logged and skipped. A boolean
//    is TRUE only when the value is exactly "TRUE"; any other text is FALSE. A number is taken
//    as strtoul does (0x hex, leading 0 octal); a bad one is logged and ignored. A path "(null)"
//    means none. main.c reads the file first (-F, default /etc/opensm/opensm.conf) and then
//    lets the command line override it.
//  - SIGHUP sets force_heavy_sweep and sweeps at once (main.c), whatever sweep_interval says:
//    sweep_interval 0 only stops the periodic sweeps ("SUBNET UP (sweep disabled)"), so a commit
//    still reaches the switches.
//  - With use_ucast_cache the heavy sweep keeps the cached tables when the topology has not
//    changed (osm_state_mgr.c: routing runs only `if (!cache_valid || ...)`), so the LFT file is
//    not read again and a commit's tables never reach the switches.
//  - The routing engines are tried in order (-R a,b,...), the first that succeeds wins, then
//    minhop unless no_fallback (osm_ucast_mgr.c osm_ucast_mgr_process). Only the `file` engine
//    loads the LFT file (-U / lfts_file).
//  - The ftree engine refuses LMC > 0 and falls back (osm_ucast_ftree.c).
//  - use_ucast_cache, lmc, routing_engine, partition_config_file and lfts_file cannot change at
//    runtime (osm_subnet.c opt_tbl can_update 0): a SIGHUP does not fix them, a restart does.

#include "Commit.h"
#include "Result.h"

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

namespace weft {

// The options of OpenSM a commit depends on, with OpenSM 3.3.23's defaults.
struct OpenSmOptions
{
    QStringList routingEngines;                                                   // routing_engine / -R, in order; empty: minhop (the default)
    int lmc = 0;                                                                  // lmc / -l
    int smPriority = 0;                                                           // sm_priority / -p
    quint64 portGuid = 0;                                                         // guid / -g: the port it binds to; 0 the first active
    quint32 sweepIntervalS = 10;                                                  // sweep_interval / -s; 0: no periodic sweeps
    bool useUcastCache = false;                                                   // use_ucast_cache / -A
    bool reassignLids = false;                                                    // reassign_lids / -r
    bool forceHeavySweep = false;                                                 // force_heavy_sweep
    bool honorGuid2Lid = false;                                                   // honor_guid2lid_file / -x
    bool qos = false;                                                             // qos / -Q
    bool noPartitionEnforcement = false;                                          // no_partition_enforcement / -N
    QString partEnforce = QStringLiteral("both");                                 // part_enforce / -Z: both, in, out, off
    bool smInactive = false;                                                      // sm_inactive / -I
    bool noFallback = false;                                                      // routing_engine chain ends in "no_fallback"
    QString partitionConfigFile = QStringLiteral("/etc/opensm/partitions.conf");  // -P
    QString guidRoutingOrderFile;                                                 // -X
    QString lftsFile;                                                             // lfts_file / -U
    QString eventPluginName;                                                      // event_plugin_name (options file only)
    QString eventPluginOptions;                                                   // event_plugin_options: Weft's intent
    QString rootGuidFile;                                                         // -a
    QString cnGuidFile;                                                           // -u
    QString logFile = QStringLiteral("/var/log/opensm.log");                      // log_file / -f
    QString configFile;                                                           // the options file read (-F), empty if none

    // Where each option read got its value: "opensm.conf:12" or "command line".
    QMap<QString, QString> origin;
    // Lines OpenSM would skip or read otherwise than they look: "file:line: ...".
    QStringList notes;

    QString originOf(const QString &option) const { return origin.value(option, QStringLiteral("default")); }
};

// An options file read onto `base` (OpenSM's defaults unless given). Errors name file and line:
// an option Weft reads without a value, a number that is not one or out of OpenSM's range
// (lmc 0..7, sm_priority 0..15), a boolean neither TRUE nor FALSE. Unknown options are notes.
Result<OpenSmOptions> readOpenSmOptions(const QByteArray &text, const QString &fileName, OpenSmOptions base = {});
Result<OpenSmOptions> readOpenSmOptionsFile(const QString &path, OpenSmOptions base = {});

// OpenSM's command line (without the program name) applied onto `base`, as main.c does after
// reading the options file; `-F FILE` is noted in configFile but not read here. Short, long and
// single-dash long forms (getopt_long_only), "--opt=value" too. Errors for a missing or bad value.
Result<OpenSmOptions> applyOpenSmCommandLine(const QStringList &arguments, OpenSmOptions base);

// Everything Weft sees of the target's OpenSM.
struct OpenSmState
{
    OpenSmOptions options;
    bool optionsFileRead = false;  // options.configFile was found and read
    qint64 pid = 0;                // from the target's pid file; 0 unknown
    bool running = false;
    QStringList commandLine;  // /proc/PID/cmdline without the program; empty unreadable
    QString logPath;          // the target's log, else the command line's -f
    QString smState;          // last "Entering X state" in the log (MASTER, STANDBY, ...)
    int subnetUpCount = 0;    // "SUBNET UP" lines in the log: sweeps finished
    quint64 boundPortGuid = 0;  // the port the log last says it bound to (osm_vendor_bind); 0 unknown
    QStringList problems;     // what could not be read, one line each (not errors)
};

// The target's OpenSM: its pid (pid file), its command line (/proc/PID/cmdline, where readable),
// its options file (`optionsFile` if given, else the command line's -F, else the target's
// optionsPath, else /etc/opensm/opensm.conf when it exists) with the command line on top, and
// its log. A broken options file is the error; everything else missing is a problem listed.
Result<OpenSmState> readOpenSmState(const CommitTarget &target, const QString &optionsFile = {});

// Each option that would defeat or distort a file-based commit to `target`, with its reason and
// where it was set; empty when none does. Without `roleChecks`, an OpenSM that is not running or
// not master is not warned about (a standby's files are committed all the same).
QStringList commitWarnings(const OpenSmState &state, const CommitTarget &target, bool roleChecks = true);

}  // namespace weft
