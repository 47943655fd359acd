#include "OpenSmState.h"

#include "TextReader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>

#include <functional>

namespace weft {

namespace {

// Every option OpenSM 3.3.23 reads from its options file (osm_subnet.c opt_tbl): a line whose
// first word is none of these is skipped by OpenSM, usually a misspelling worth a note.
const char kOpenSmOptionNames[] =
    "guid m_key sm_key sa_key subnet_prefix m_key_lease_period m_key_protection_level m_key_lookup "
    "sweep_interval max_wire_smps max_wire_smps2 max_smps_timeout console console_port "
    "transaction_timeout transaction_retries long_transaction_timeout max_msg_fifo_timeout sm_priority "
    "lmc lmc_esp0 max_op_vls force_link_speed force_link_speed_ext force_link_width fdr10 reassign_lids "
    "ignore_other_sm single_thread disable_multicast subnet_timeout packet_life_time vl_stall_count "
    "leaf_vl_stall_count head_of_queue_lifetime leaf_head_of_queue_lifetime local_phy_errors_threshold "
    "overrun_errors_threshold use_mfttop sminfo_polling_timeout polling_retry_number force_heavy_sweep "
    "port_prof_ignore_file hop_weights_file dimn_ports_file port_search_ordering_file "
    "port_profile_switch_nodes sweep_on_trap routing_engine avoid_throttled_links connect_roots "
    "use_ucast_cache log_file log_max_size log_flags force_log_flush accum_log_file "
    "partition_config_file no_partition_enforcement part_enforce allow_both_pkeys keep_pkey_indexes "
    "sm_assigned_guid qos qos_policy_file suppress_sl2vl_mad_status_errors dump_files_dir "
    "lid_matrix_dump_file lfts_file root_guid_file cn_guid_file io_guid_file port_shifting scatter_ports "
    "max_reverse_hops ids_guid_file guid_routing_order_file guid_routing_order_no_scatter sa_db_file "
    "sa_db_dump torus_config do_mesh_analysis exit_on_fatal honor_guid2lid_file daemon sm_inactive "
    "babbling_port_policy drop_event_subscriptions ipoib_mcgroup_creation_validation "
    "mcgroup_join_validation use_original_extended_sa_rates_only use_optimized_slvl "
    "fsync_high_avail_files perfmgr perfmgr_redir perfmgr_sweep_time_s perfmgr_max_outstanding_queries "
    "event_plugin_name event_plugin_options "
    "perfmgr_ignore_cas event_db_dump_file perfmgr_rm_nodes perfmgr_log_errors perfmgr_query_cpi "
    "perfmgr_xmit_wait_log perfmgr_xmit_wait_threshold "
    "node_name_map_name qos_max_vls qos_high_limit qos_vlarb_high qos_vlarb_low qos_sl2vl qos_ca_max_vls "
    "qos_ca_high_limit qos_ca_vlarb_high qos_ca_vlarb_low qos_ca_sl2vl qos_sw0_max_vls "
    "qos_sw0_high_limit qos_sw0_vlarb_high qos_sw0_vlarb_low qos_sw0_sl2vl qos_swe_max_vls "
    "qos_swe_high_limit qos_swe_vlarb_high qos_swe_vlarb_low qos_swe_sl2vl qos_rtr_max_vls "
    "qos_rtr_high_limit qos_rtr_vlarb_high qos_rtr_vlarb_low qos_rtr_sl2vl congestion_control cc_key "
    "cc_max_outstanding_mads cc_sw_cong_setting_control_map cc_sw_cong_setting_victim_mask "
    "cc_sw_cong_setting_credit_mask cc_sw_cong_setting_threshold cc_sw_cong_setting_packet_size "
    "cc_sw_cong_setting_credit_starvation_threshold cc_sw_cong_setting_credit_starvation_return_delay "
    "cc_sw_cong_setting_marking_rate cc_ca_cong_setting_port_control cc_ca_cong_setting_control_map "
    "cc_ca_cong_setting_ccti_timer cc_ca_cong_setting_ccti_increase cc_ca_cong_setting_trigger_threshold "
    "cc_ca_cong_setting_ccti_min cc_cct enable_quirks no_clients_rereg prefix_routes_file "
    "consolidate_ipv6_snm_req lash_start_vl sm_sl nue_max_num_vls nue_include_switches log_prefix "
    "per_module_logging_file quasi_ftree_indexing";

const QSet<QString> &knownOptionNames()
{
    static const QSet<QString> names = [] {
        const QStringList list = QString::fromLatin1(kOpenSmOptionNames).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        return QSet<QString>(list.begin(), list.end());
    }();
    return names;
}

// How one option Weft reads is set, from the file or the command line. Each setter throws an
// InputError (line 0 on the command line) naming the option and the problem.
struct OptionSetter
{
    QString name;            // as in the options file
    QString shortFlag;       // "-R"; empty when the command line has none
    QString longFlag;        // "routing_engine" (without dashes); empty when none
    bool takesValue = true;  // command-line flags without a value set a boolean TRUE
    std::function<void(OpenSmOptions &, const QString &name, const QString &value, int line)> set;
};

[[noreturn]] void fail(int line, const QString &message)
{
    throw InputError{line, message};
}

quint64 numberValue(const QString &option, const QString &value, quint64 max, int line)
{
    std::uint64_t n = 0;
    const QByteArray latin = value.toLatin1();
    if (!text::parseUInt(std::string_view(latin.constData(), std::size_t(latin.size())), 0, &n))
        fail(line, QStringLiteral("%1: \"%2\" is not a number").arg(option, value));
    if (n > max)
        fail(line, QStringLiteral("%1: %2 is out of OpenSM's range 0..%3").arg(option, value).arg(max));
    return n;
}

bool booleanValue(const QString &option, const QString &value, int line)
{
    // OpenSM takes exactly "TRUE" as true and anything else as false, so "true" or "yes" would be
    // read as FALSE: refused, since it rarely says what was meant.
    if (value == QLatin1String("TRUE"))
        return true;
    if (value == QLatin1String("FALSE"))
        return false;
    fail(line, QStringLiteral("%1: \"%2\" is neither TRUE nor FALSE (OpenSM would read it as FALSE)").arg(option, value));
}

QString pathValue(const QString &value)
{
    return value == QLatin1String("(null)") ? QString() : value;
}

const std::vector<OptionSetter> &optionSetters()
{
    using O = OpenSmOptions;
    auto boolean = [](bool O::*member) {
        // On the command line a boolean flag has no value and means TRUE.
        return [member](O &o, const QString &name, const QString &v, int line) {
            o.*member = v.isNull() ? true : booleanValue(name, v, line);
        };
    };
    auto path = [](QString O::*member) { return [member](O &o, const QString &, const QString &v, int) { o.*member = pathValue(v); }; };
    static const std::vector<OptionSetter> setters = {
        {QStringLiteral("routing_engine"), QStringLiteral("-R"), QStringLiteral("routing_engine"), true,
         [](O &o, const QString &, const QString &v, int) {
             o.routingEngines.clear();
             o.noFallback = false;
             static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
             for (const QString &name : pathValue(v).split(separators, Qt::SkipEmptyParts)) {
                 if (name == QLatin1String("no_fallback"))
                     o.noFallback = true;
                 else
                     o.routingEngines << (name == QLatin1String("null") ? QStringLiteral("minhop") : name);
             }
         }},
        {QStringLiteral("lmc"), QStringLiteral("-l"), QStringLiteral("lmc"), true,
         [](O &o, const QString &, const QString &v, int line) { o.lmc = int(numberValue(QStringLiteral("lmc"), v, 7, line)); }},
        {QStringLiteral("guid"), QStringLiteral("-g"), QStringLiteral("guid"), true,
         [](O &o, const QString &, const QString &v, int line) { o.portGuid = numberValue(QStringLiteral("guid"), v, ~quint64(0), line); }},
        {QStringLiteral("sm_priority"), QStringLiteral("-p"), QStringLiteral("priority"), true,
         [](O &o, const QString &, const QString &v, int line) { o.smPriority = int(numberValue(QStringLiteral("sm_priority"), v, 15, line)); }},
        {QStringLiteral("sweep_interval"), QStringLiteral("-s"), QStringLiteral("sweep"), true,
         [](O &o, const QString &, const QString &v, int line) {
             o.sweepIntervalS = quint32(numberValue(QStringLiteral("sweep_interval"), v, 0xffffffffu, line));
         }},
        {QStringLiteral("use_ucast_cache"), QStringLiteral("-A"), QStringLiteral("ucast_cache"), false, boolean(&O::useUcastCache)},
        {QStringLiteral("reassign_lids"), QStringLiteral("-r"), QStringLiteral("reassign_lids"), false, boolean(&O::reassignLids)},
        {QStringLiteral("force_heavy_sweep"), {}, {}, false, boolean(&O::forceHeavySweep)},
        {QStringLiteral("honor_guid2lid_file"), QStringLiteral("-x"), QStringLiteral("honor_guid2lid"), false, boolean(&O::honorGuid2Lid)},
        {QStringLiteral("qos"), QStringLiteral("-Q"), QStringLiteral("qos"), false, boolean(&O::qos)},
        {QStringLiteral("no_partition_enforcement"), QStringLiteral("-N"), QStringLiteral("no_part_enforce"), false,
         boolean(&O::noPartitionEnforcement)},
        {QStringLiteral("part_enforce"), QStringLiteral("-Z"), QStringLiteral("part_enforce"), true,
         [](O &o, const QString &, const QString &v, int line) {
             static const QStringList allowed = {QStringLiteral("both"), QStringLiteral("in"), QStringLiteral("out"), QStringLiteral("off")};
             if (!allowed.contains(v))
                 fail(line, QStringLiteral("part_enforce: \"%1\" is none of both, in, out, off").arg(v));
             o.partEnforce = v;
         }},
        {QStringLiteral("sm_inactive"), QStringLiteral("-I"), QStringLiteral("inactive"), false, boolean(&O::smInactive)},
        {QStringLiteral("partition_config_file"), QStringLiteral("-P"), QStringLiteral("Pconfig"), true, path(&O::partitionConfigFile)},
        {QStringLiteral("guid_routing_order_file"), QStringLiteral("-X"), QStringLiteral("guid_routing_order_file"), true,
         path(&O::guidRoutingOrderFile)},
        {QStringLiteral("lfts_file"), QStringLiteral("-U"), QStringLiteral("lfts_file"), true, path(&O::lftsFile)},
        {QStringLiteral("event_plugin_name"), QString(), QString(), true, path(&O::eventPluginName)},
        {QStringLiteral("event_plugin_options"), QString(), QString(), true, path(&O::eventPluginOptions)},
        {QStringLiteral("root_guid_file"), QStringLiteral("-a"), QStringLiteral("root_guid_file"), true, path(&O::rootGuidFile)},
        {QStringLiteral("cn_guid_file"), QStringLiteral("-u"), QStringLiteral("cn_guid_file"), true, path(&O::cnGuidFile)},
        {QStringLiteral("log_file"), QStringLiteral("-f"), QStringLiteral("log_file"), true, path(&O::logFile)},
        // Read by main.c before everything else; only noted here.
        {QStringLiteral("(config)"), QStringLiteral("-F"), QStringLiteral("config"), true,
         [](O &o, const QString &, const QString &v, int) { o.configFile = v; }},
    };
    return setters;
}

}  // namespace

Result<OpenSmOptions> readOpenSmOptions(const QByteArray &data, const QString &fileName, OpenSmOptions base)
{
    TextReader reader(data, fileName);
    const QString shortName = QFileInfo(fileName).fileName();
    try {
        while (reader.next()) {
            QString line = text::toQString(reader.line());
            if (const qsizetype hash = line.indexOf(QLatin1Char('#')); hash >= 0)
                line.truncate(hash);
            line = line.trimmed();
            if (line.isEmpty())
                continue;
            static const QRegularExpression firstWord(QStringLiteral("^(\\S+)\\s*(.*)$"));
            const QRegularExpressionMatch m = firstWord.match(line);
            const QString option = m.captured(1);
            QString value = m.captured(2).trimmed();
            if (value.size() >= 2
                && ((value.startsWith(QLatin1Char('"')) && value.endsWith(QLatin1Char('"')))
                    || (value.startsWith(QLatin1Char('\'')) && value.endsWith(QLatin1Char('\'')))))
                value = value.mid(1, value.size() - 2);
            const QString place = QStringLiteral("%1:%2").arg(shortName).arg(reader.lineNumber());
            if (!knownOptionNames().contains(option)) {
                base.notes << QStringLiteral("%1:%2: OpenSM knows no option \"%3\" and skips the line")
                                  .arg(fileName)
                                  .arg(reader.lineNumber())
                                  .arg(option);
                continue;
            }
            for (const OptionSetter &setter : optionSetters()) {
                if (setter.name != option)
                    continue;
                if (value.isEmpty())
                    reader.fail(QStringLiteral("%1 has no value").arg(option));
                setter.set(base, option, value, reader.lineNumber());
                base.origin[option] = place;
            }
        }
    } catch (const InputError &e) {
        return reader.error(e);
    }
    base.configFile = fileName;
    return base;
}

Result<OpenSmOptions> readOpenSmOptionsFile(const QString &path, OpenSmOptions base)
{
    Result<QByteArray> data = TextReader::readFile(path, qint64(16) << 20);
    if (!data)
        return data.error();
    return readOpenSmOptions(*data, path, std::move(base));
}

Result<OpenSmOptions> applyOpenSmCommandLine(const QStringList &arguments, OpenSmOptions base)
{
    const QString origin = QStringLiteral("command line");
    for (qsizetype i = 0; i < arguments.size(); ++i) {
        const QString &arg = arguments[i];
        if (!arg.startsWith(QLatin1Char('-')) || arg.size() < 2)
            continue;  // an operand, or the value of a flag Weft does not read
        QString flag = arg;
        QString inlineValue;
        bool hasInlineValue = false;
        if (const qsizetype eq = flag.indexOf(QLatin1Char('=')); eq > 0) {
            inlineValue = flag.mid(eq + 1);
            flag.truncate(eq);
            hasInlineValue = true;
        }
        const QString bare = flag.startsWith(QLatin1String("--")) ? flag.mid(2) : flag.mid(1);
        // getopt_long_only: "-routing_engine" and "--routing_engine" are the long option, "-R"
        // the short one, "-Rfile" the short one with its value attached.
        const OptionSetter *match = nullptr;
        for (const OptionSetter &setter : optionSetters())
            if ((!setter.longFlag.isEmpty() && bare == setter.longFlag) || (!setter.shortFlag.isEmpty() && flag == setter.shortFlag))
                match = &setter;
        if (!match && !hasInlineValue && !flag.startsWith(QLatin1String("--")) && flag.size() > 2)
            for (const OptionSetter &setter : optionSetters())
                if (setter.takesValue && !setter.shortFlag.isEmpty() && flag.startsWith(setter.shortFlag)) {
                    match = &setter;
                    inlineValue = flag.mid(2);
                    hasInlineValue = true;
                    break;
                }
        if (!match) {
            // A flag Weft does not read; OpenSM takes no operands, so a word after it that is
            // not a flag is its value.
            if (!hasInlineValue && i + 1 < arguments.size() && !arguments[i + 1].startsWith(QLatin1Char('-')))
                ++i;
            continue;
        }
        QString value;
        if (match->takesValue) {
            if (hasInlineValue) {
                value = inlineValue;
            } else {
                if (i + 1 >= arguments.size())
                    return Error{origin, 0, QStringLiteral("%1 has no value").arg(flag)};
                value = arguments[++i];
            }
        }
        try {
            match->set(base, flag, value, 0);
        } catch (const InputError &e) {
            return Error{origin, 0, e.message};
        }
        if (match->name != QLatin1String("(config)"))
            base.origin[match->name] = origin;
    }
    return base;
}

namespace {

// The options file named on a command line (-F), without applying anything else.
QString configFileOf(const QStringList &commandLine)
{
    OpenSmOptions none;
    none.configFile.clear();
    Result<OpenSmOptions> parsed = applyOpenSmCommandLine(commandLine, none);
    return parsed ? parsed->configFile : QString();
}

std::optional<QStringList> processCommandLine(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/cmdline").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return std::nullopt;
    QStringList words;
    for (const QByteArray &word : f.readAll().split('\0'))
        words << QString::fromLocal8Bit(word);
    while (!words.isEmpty() && words.last().isEmpty())
        words.removeLast();
    if (!words.isEmpty())
        words.removeFirst();  // the program
    return words;
}

}  // namespace

Result<OpenSmState> readOpenSmState(const CommitTarget &target, const QString &optionsFile)
{
    OpenSmState state;
    if (!target.pidFile.isEmpty()) {
        if (Result<qint64> pid = readPidFile(target.pidFile)) {
            state.pid = *pid;
            state.running = processRunning(state.pid);
            if (!state.running)
                state.problems << QStringLiteral("OpenSM (pid %1 from %2) is not running").arg(state.pid).arg(target.pidFile);
        } else {
            state.problems << QStringLiteral("OpenSM's pid file: %1").arg(pid.error().toString());
        }
    }
    if (state.running) {
        if (std::optional<QStringList> words = processCommandLine(state.pid))
            state.commandLine = *words;
        else
            state.problems << QStringLiteral("OpenSM's command line (/proc/%1/cmdline) cannot be read").arg(state.pid);
    }

    QString config = optionsFile;
    if (config.isEmpty())
        config = configFileOf(state.commandLine);
    if (config.isEmpty())
        config = target.optionsPath;
    if (config.isEmpty() && QFileInfo::exists(QStringLiteral("/etc/opensm/opensm.conf")))
        config = QStringLiteral("/etc/opensm/opensm.conf");
    OpenSmOptions options;
    if (!config.isEmpty()) {
        if (!QFileInfo::exists(config)) {
            state.problems << QStringLiteral("%1: no such options file").arg(config);
            options.configFile = config;
        } else {
            Result<OpenSmOptions> read = readOpenSmOptionsFile(config, options);
            if (!read)
                return read.error();
            options = std::move(*read);
            state.optionsFileRead = true;
        }
    } else {
        state.problems << QStringLiteral("no options file found (OpenSM's -F)");
    }
    if (!state.commandLine.isEmpty()) {
        Result<OpenSmOptions> applied = applyOpenSmCommandLine(state.commandLine, options);
        if (!applied)
            return applied.error();
        applied->configFile = options.configFile;  // the one read here, even if -F named another
        options = std::move(*applied);
    }
    state.options = std::move(options);

    state.logPath = !target.logPath.isEmpty()                       ? target.logPath
        : state.options.origin.contains(QStringLiteral("log_file")) ? state.options.logFile
                                                                    : QString();
    if (!state.logPath.isEmpty()) {
        QFile log(state.logPath);
        if (log.open(QIODevice::ReadOnly)) {
            // The log can be large: its last 4 MiB tell the current state.
            if (log.size() > (qint64(4) << 20))
                log.seek(log.size() - (qint64(4) << 20));
            static const QRegularExpression entering(QStringLiteral("Entering (\\S+) state"));
            for (const QByteArray &raw : log.readAll().split('\n')) {
                if (raw.contains("SUBNET UP"))
                    ++state.subnetUpCount;
                // "osm_vendor_bind: Mgmt class 0x81 binding to port GUID 0x2c91000003c01"
                if (const qsizetype at = raw.indexOf("binding to port GUID "); at >= 0) {
                    bool ok = false;
                    const quint64 guid = raw.mid(at + 21).trimmed().toULongLong(&ok, 0);
                    if (ok)
                        state.boundPortGuid = guid;
                }
                if (raw.contains("Entering ")) {
                    const QRegularExpressionMatch m = entering.match(QString::fromUtf8(raw));
                    if (m.hasMatch())
                        state.smState = m.captured(1);
                }
            }
        } else {
            state.problems << QStringLiteral("%1: cannot read OpenSM's log: %2").arg(state.logPath, log.errorString());
        }
    }
    return state;
}

QStringList commitWarnings(const OpenSmState &state, const CommitTarget &target, bool roleChecks)
{
    const OpenSmOptions &o = state.options;
    QStringList warnings;
    auto from = [&](const QString &option) { return o.originOf(option); };
    auto samePath = [](const QString &a, const QString &b) {
        return QDir::cleanPath(QFileInfo(a).absoluteFilePath()) == QDir::cleanPath(QFileInfo(b).absoluteFilePath());
    };

    if (o.useUcastCache)
        warnings << QStringLiteral("use_ucast_cache is on (%1): while the topology does not change OpenSM keeps its cached "
                                   "routing and never reads the LFT file again, so a commit's tables would not reach the "
                                   "switches (restart OpenSM without it: it cannot change at runtime)")
                        .arg(from(QStringLiteral("use_ucast_cache")));
    const QString engines = o.routingEngines.join(QLatin1Char(','));
    if (target.pluginMode()) {
        // Weft's engine inside OpenSM: the plugin loaded, its engine first, reading the intent the
        // commit writes.
        if (!o.eventPluginName.split(QLatin1Char(' '), Qt::SkipEmptyParts).contains(QLatin1String("weftosm")))
            warnings << QStringLiteral("event_plugin_name is \"%1\" (%2): OpenSM does not load Weft's engine (libweftosm.so), so "
                                       "the intent the commit writes routes nothing; it needs `event_plugin_name weftosm`")
                            .arg(o.eventPluginName, from(QStringLiteral("event_plugin_name")));
        if (o.routingEngines.isEmpty() || o.routingEngines.first() != QLatin1String("weft"))
            warnings << QStringLiteral("routing_engine is %1 (%2): OpenSM does not route with Weft's engine first; it needs "
                                       "`routing_engine weft` (or a chain that starts with it, such as weft,updn)")
                            .arg(engines.isEmpty() ? QStringLiteral("minhop") : engines, from(QStringLiteral("routing_engine")));
        if (!samePath(o.eventPluginOptions, target.intentPath))
            warnings << QStringLiteral("Weft's engine reads its intent from \"%1\" (%2), but the commit writes %3")
                            .arg(o.eventPluginOptions, from(QStringLiteral("event_plugin_options")), target.intentPath);
    } else if (o.routingEngines.isEmpty() || o.routingEngines.first() != QLatin1String("file")) {
        if (o.routingEngines.contains(QLatin1String("file")))
            warnings << QStringLiteral("routing_engine is %1 (%2): OpenSM routes with %3 and reads the LFT file only if that "
                                       "fails; `file` must come first")
                            .arg(engines, from(QStringLiteral("routing_engine")), o.routingEngines.first());
        else if (o.routingEngines.isEmpty())
            warnings << QStringLiteral("no routing_engine is set: OpenSM computes its own routes with minhop and never reads "
                                       "the LFT file; a commit needs `-R file`");
        else
            warnings << QStringLiteral("routing_engine is %1 (%2): OpenSM computes its own routes and never reads the LFT "
                                       "file; a commit needs `-R file`")
                            .arg(engines, from(QStringLiteral("routing_engine")));
    } else if (!o.noFallback) {
        // Not a defeat: the read-back notices it; but the operator should know where a bad file leads.
        warnings << QStringLiteral("routing_engine is %1 (%2) without no_fallback: if OpenSM cannot load the LFT file it "
                                   "routes with %3 instead (the commit's read-back would then fail and roll back)")
                        .arg(engines, from(QStringLiteral("routing_engine")),
                             o.routingEngines.size() > 1 ? o.routingEngines.at(1) : QStringLiteral("minhop"));
    }
    if (o.lmc > 0 && o.routingEngines.contains(QLatin1String("ftree")))
        warnings << QStringLiteral("lmc is %1 (%2) with ftree in the routing engines: OpenSM's ftree refuses LMC > 0 and "
                                   "falls back to the next engine or minhop")
                        .arg(o.lmc)
                        .arg(from(QStringLiteral("lmc")));
    if (!target.lftsPath.isEmpty() && !o.lftsFile.isEmpty() && !samePath(o.lftsFile, target.lftsPath))
        warnings << QStringLiteral("OpenSM reads its LFT file from %1 (%2), but the commit writes %3")
                        .arg(o.lftsFile, from(QStringLiteral("lfts_file")), target.lftsPath);
    if (!target.lftsPath.isEmpty() && o.lftsFile.isEmpty() && o.routingEngines.contains(QLatin1String("file")))
        warnings << QStringLiteral("routing_engine names file but no LFT file is given (-U / lfts_file): OpenSM has nothing to load");
    if (!target.partitionsPath.isEmpty() && !samePath(o.partitionConfigFile, target.partitionsPath))
        warnings << QStringLiteral("OpenSM reads partitions from %1 (%2), but the commit writes %3")
                        .arg(o.partitionConfigFile, from(QStringLiteral("partition_config_file")), target.partitionsPath);
    if (o.noPartitionEnforcement)
        warnings << QStringLiteral("no_partition_enforcement is on (%1): switches do not filter P_Keys, so partitions "
                                   "isolate nothing at the switch ports")
                        .arg(from(QStringLiteral("no_partition_enforcement")));
    else if (o.partEnforce != QLatin1String("both"))
        warnings << QStringLiteral("part_enforce is %1 (%2): switches filter P_Keys %3, not both ways")
                        .arg(o.partEnforce, from(QStringLiteral("part_enforce")),
                             o.partEnforce == QLatin1String("off") ? QStringLiteral("in neither direction")
                                                                   : QStringLiteral("only %1bound").arg(o.partEnforce));
    if (o.reassignLids)
        warnings << QStringLiteral("reassign_lids is on (%1): OpenSM may give ports new LIDs, and the plan's tables are "
                                   "by the LIDs read when it was made")
                        .arg(from(QStringLiteral("reassign_lids")));
    if (o.smInactive)
        warnings << QStringLiteral("sm_inactive is on (%1): this OpenSM does not act as subnet manager and programs nothing")
                        .arg(from(QStringLiteral("sm_inactive")));
    if (!target.optionsPath.isEmpty() && !o.configFile.isEmpty() && !samePath(o.configFile, target.optionsPath))
        warnings << QStringLiteral("OpenSM reads its options from %1, but the commit edits the QoS lines of %2")
                        .arg(o.configFile, target.optionsPath);
    if (roleChecks && !state.smState.isEmpty() && state.smState != QLatin1String("MASTER"))
        warnings << QStringLiteral("OpenSM's log says it entered %1 state last: only the master SM programs the switches")
                        .arg(state.smState);
    if (roleChecks && !target.pidFile.isEmpty() && !state.running)
        warnings << QStringLiteral("OpenSM is not running (pid file %1): a commit would be refused").arg(target.pidFile);
    return warnings;
}

}  // namespace weft
