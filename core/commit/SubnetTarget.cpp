#include "SubnetTarget.h"

#include "CommitJournal.h"
#include "SafeFile.h"
#include "TextReader.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

#include <algorithm>
#include <set>

namespace weft {

namespace {

// Where things are in the target file's text, for errors: the offset at which each element of
// the "sms" array opens (the only objects three levels deep), and a field's line within one.
class TargetText
{
public:
    explicit TargetText(const QByteArray &text)
        : m_text(text)
    {
        int depth = 0;
        bool inString = false;
        for (qsizetype i = 0; i < text.size(); ++i) {
            const char c = text[i];
            if (inString) {
                if (c == '\\')
                    ++i;
                else if (c == '"')
                    inString = false;
                continue;
            }
            if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                ++depth;
                if (c == '{' && depth == 3)
                    m_elements.push_back(i);
            } else if (c == '}' || c == ']') {
                --depth;
            }
        }
    }

    int lineOf(qsizetype offset) const { return int(m_text.left(offset).count('\n')) + 1; }

    // The line of element `index` of "sms", or of its `field` when that is found in it.
    int line(int index, const QString &field = {}) const
    {
        if (index < 0 || index >= int(m_elements.size()))
            return 0;
        const qsizetype start = m_elements[std::size_t(index)];
        const qsizetype end = index + 1 < int(m_elements.size()) ? m_elements[std::size_t(index) + 1] : m_text.size();
        if (!field.isEmpty()) {
            const qsizetype at = m_text.indexOf('"' + field.toUtf8() + '"', start);
            if (at >= 0 && at < end)
                return lineOf(at);
        }
        return lineOf(start);
    }

    // The line of a top-level key, else 1.
    int keyLine(const QString &key) const
    {
        const qsizetype at = m_text.indexOf('"' + key.toUtf8() + '"');
        return at >= 0 ? lineOf(at) : 1;
    }

private:
    const QByteArray &m_text;
    std::vector<qsizetype> m_elements;
};

const QStringList &smFields()
{
    static const QStringList fields = {QStringLiteral("name"), QStringLiteral("options"), QStringLiteral("intent"),
                                       QStringLiteral("lfts"), QStringLiteral("partitions"), QStringLiteral("pidfile"),
                                       QStringLiteral("log"), QStringLiteral("port_guid")};
    return fields;
}

QString sideOf(const QString &fileName, const QString &path)
{
    if (path.isEmpty() || QDir::isAbsolutePath(path))
        return path;
    return QDir::cleanPath(QFileInfo(fileName).absolutePath() + QLatin1Char('/') + path);
}

}  // namespace

CommitTarget SubnetManagerEntry::commitTarget() const
{
    CommitTarget t;
    t.lftsPath = lftsPath;
    t.intentPath = intentPath;
    t.partitionsPath = partitionsPath;
    t.pidFile = pidFile;
    t.logPath = logPath;
    t.optionsPath = optionsPath;
    t.name = name;
    return t;
}

const SubnetManagerEntry *SubnetTarget::byName(const QString &name) const
{
    for (const SubnetManagerEntry &e : sms)
        if (e.name == name)
            return &e;
    return nullptr;
}

Result<SubnetTarget> readSubnetTarget(const QByteArray &text, const QString &fileName)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(text, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return Error{fileName, int(text.left(parseError.offset).count('\n')) + 1, QStringLiteral("not JSON: %1").arg(parseError.errorString())};
    if (!document.isObject())
        return Error{fileName, 1, QStringLiteral("a commit target is a JSON object: {\"subnet\": NAME, \"sms\": [...]}")};
    const TargetText where(text);
    const QJsonObject root = document.object();
    for (auto key = root.begin(); key != root.end(); ++key)
        if (key.key() != QLatin1String("subnet") && key.key() != QLatin1String("sms"))
            return Error{fileName, where.keyLine(key.key()), QStringLiteral("unknown field \"%1\" (a commit target has \"subnet\" and \"sms\")").arg(key.key())};
    SubnetTarget target;
    target.fileName = fileName;
    target.subnet = root.value(QStringLiteral("subnet")).toString();
    if (target.subnet.trimmed().isEmpty())
        return Error{fileName, where.keyLine(QStringLiteral("subnet")), QStringLiteral("\"subnet\" must name the subnet (a non-empty string)")};
    const QJsonValue smsValue = root.value(QStringLiteral("sms"));
    if (!smsValue.isArray() || smsValue.toArray().isEmpty())
        return Error{fileName, where.keyLine(QStringLiteral("sms")), QStringLiteral("\"sms\" must list the subnet's subnet managers (a non-empty array)")};
    const QJsonArray sms = smsValue.toArray();
    std::set<QString> names;
    std::map<QString, QString> files;  // real path -> "sm NAME's FIELD"
    for (int i = 0; i < int(sms.size()); ++i) {
        if (!sms[i].isObject())
            return Error{fileName, where.line(i), QStringLiteral("sms[%1] is not an object").arg(i)};
        const QJsonObject o = sms[i].toObject();
        for (auto key = o.begin(); key != o.end(); ++key)
            if (!smFields().contains(key.key()))
                return Error{fileName, where.line(i, key.key()),
                             QStringLiteral("sms[%1]: unknown field \"%2\" (known: %3)").arg(i).arg(key.key(), smFields().join(QStringLiteral(", ")))};
        for (auto key = o.begin(); key != o.end(); ++key)
            if (key.key() != QLatin1String("port_guid") && !key.value().isString())
                return Error{fileName, where.line(i, key.key()), QStringLiteral("sms[%1]: \"%2\" must be a string").arg(i).arg(key.key())};
        SubnetManagerEntry e;
        e.name = o.value(QStringLiteral("name")).toString().trimmed();
        if (e.name.isEmpty())
            return Error{fileName, where.line(i), QStringLiteral("sms[%1]: \"name\" is missing").arg(i)};
        if (!names.insert(e.name).second)
            return Error{fileName, where.line(i, QStringLiteral("name")), QStringLiteral("sms[%1]: a second SM named \"%2\"").arg(i).arg(e.name)};
        const QString smText = QStringLiteral("SM \"%1\"").arg(e.name);
        e.optionsPath = sideOf(fileName, o.value(QStringLiteral("options")).toString());
        e.intentPath = sideOf(fileName, o.value(QStringLiteral("intent")).toString());
        e.lftsPath = sideOf(fileName, o.value(QStringLiteral("lfts")).toString());
        e.partitionsPath = sideOf(fileName, o.value(QStringLiteral("partitions")).toString());
        e.pidFile = sideOf(fileName, o.value(QStringLiteral("pidfile")).toString());
        e.logPath = sideOf(fileName, o.value(QStringLiteral("log")).toString());
        if (e.intentPath.isEmpty() == e.lftsPath.isEmpty())
            return Error{fileName, where.line(i),
                         QStringLiteral("%1 needs exactly one of \"intent\" (Weft's engine inside OpenSM) and \"lfts\" (OpenSM's file engine, -U)").arg(smText)};
        for (const char *required : {"partitions", "pidfile"})
            if (o.value(QLatin1String(required)).toString().isEmpty())
                return Error{fileName, where.line(i), QStringLiteral("%1: \"%2\" is missing").arg(smText, QLatin1String(required))};
        if (o.contains(QStringLiteral("port_guid"))) {
            const QJsonValue g = o.value(QStringLiteral("port_guid"));
            bool ok = g.isString();
            e.portGuid = ok ? g.toString().toULongLong(&ok, 0) : 0;
            if (!ok || e.portGuid == 0)
                return Error{fileName, where.line(i, QStringLiteral("port_guid")),
                             QStringLiteral("%1: \"port_guid\" must be a port GUID as a string, e.g. \"0x0002c90300a1b2c3\"").arg(smText)};
        }
        if (!target.sms.empty() && e.pluginMode() != target.sms.front().pluginMode())
            return Error{fileName, where.line(i),
                         QStringLiteral("%1 routes by %2 and SM \"%3\" by %4: every SM of a subnet must route the same way, or a failover "
                                        "changes the routing")
                             .arg(smText, e.pluginMode() ? QStringLiteral("an intent") : QStringLiteral("an LFT file"), target.sms.front().name,
                                  target.sms.front().pluginMode() ? QStringLiteral("an intent") : QStringLiteral("an LFT file"))};
        const std::pair<const char *, QString> written[] = {{e.pluginMode() ? "intent" : "lfts", e.routingFile()},
                                                            {"partitions", e.partitionsPath},
                                                            {"options", e.optionsPath}};
        for (const auto &[field, path] : written) {
            if (path.isEmpty())
                continue;
            const QString what = QStringLiteral("%1's %2").arg(smText, QLatin1String(field));
            const auto [it, fresh] = files.emplace(realFilePath(path), what);
            if (!fresh)
                return Error{fileName, where.line(i, QLatin1String(field)),
                             QStringLiteral("%1 is %2 too (%3): each SM needs files of its own").arg(what, it->second, path)};
        }
        target.sms.push_back(std::move(e));
    }
    return target;
}

Result<SubnetTarget> readSubnetTargetFile(const QString &path)
{
    Result<QByteArray> text = TextReader::readFile(path);
    if (!text)
        return text.error();
    return readSubnetTarget(*text, path);
}

QByteArray writeSubnetTarget(const SubnetTarget &target)
{
    QJsonArray sms;
    for (const SubnetManagerEntry &e : target.sms) {
        QJsonObject o;
        o.insert(QStringLiteral("name"), e.name);
        if (!e.optionsPath.isEmpty())
            o.insert(QStringLiteral("options"), e.optionsPath);
        o.insert(e.pluginMode() ? QStringLiteral("intent") : QStringLiteral("lfts"), e.routingFile());
        o.insert(QStringLiteral("partitions"), e.partitionsPath);
        o.insert(QStringLiteral("pidfile"), e.pidFile);
        if (!e.logPath.isEmpty())
            o.insert(QStringLiteral("log"), e.logPath);
        if (e.portGuid)
            o.insert(QStringLiteral("port_guid"), guidText(e.portGuid));
        sms.append(o);
    }
    QJsonObject root{{QStringLiteral("subnet"), target.subnet}, {QStringLiteral("sms"), sms}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

QString smStateName(int state)
{
    switch (state) {
    case 0: return QStringLiteral("not active");
    case 1: return QStringLiteral("discovering");
    case 2: return QStringLiteral("standby");
    case 3: return QStringLiteral("master");
    }
    return QStringLiteral("state %1").arg(state);
}

const SubnetManagerStatus *SubnetCheck::master() const
{
    const SubnetManagerStatus *found = nullptr;
    for (const SubnetManagerStatus &s : sms) {
        if (s.state != QLatin1String("master"))
            continue;
        if (found)
            return nullptr;
        found = &s;
    }
    const bool unknownMaster = std::any_of(unknown.begin(), unknown.end(), [](const SubnetManagerInfo &i) { return i.answered && i.state == 3; });
    return unknownMaster ? nullptr : found;
}

bool SubnetCheck::ok() const
{
    return problems.isEmpty() && std::all_of(sms.begin(), sms.end(), [](const SubnetManagerStatus &s) { return s.problems.isEmpty(); });
}

QString SubnetCheck::toText() const
{
    QStringList lines;
    lines << QStringLiteral("subnet %1: %2 subnet managers in the target").arg(subnet).arg(sms.size());
    for (const SubnetManagerStatus &s : sms) {
        QStringList facts;
        facts << s.state;
        facts << (s.priority >= 0 ? QStringLiteral("priority %1").arg(s.priority) : QStringLiteral("priority unknown"));
        facts << (s.portGuid ? QStringLiteral("port GUID %1 (from its %2)").arg(guidText(s.portGuid), s.portGuidFrom) : QStringLiteral("port GUID unknown"));
        if (s.lid)
            facts << QStringLiteral("LID %1").arg(s.lid);
        facts << (s.running ? QStringLiteral("pid %1").arg(s.pid) : QStringLiteral("not running"));
        facts << QStringLiteral("engine %1").arg(s.engine.isEmpty() ? QStringLiteral("minhop (the default)") : s.engine);
        lines << QStringLiteral("%1: %2").arg(s.name, facts.join(QStringLiteral(", ")));
        for (const QString &p : s.problems)
            lines << QStringLiteral("  ! %1").arg(p);
    }
    for (const SubnetManagerInfo &u : unknown)
        lines << QStringLiteral("not in the target: %1 on port GUID %2 (LID %3, \"%4\"), priority %5")
                     .arg(u.answered ? smStateName(u.state) : QStringLiteral("an SM that does not answer SMInfo"), guidText(u.portGuid))
                     .arg(u.lid)
                     .arg(u.nodeDescription)
                     .arg(u.priority);
    for (const QString &p : problems)
        lines << QStringLiteral("! %1").arg(p);
    lines << (ok() ? QStringLiteral("ok: a commit reaches every SM of the subnet") : QStringLiteral("problems: see the lines marked !"));
    return lines.join(QLatin1Char('\n'));
}

QJsonObject SubnetCheck::toJson() const
{
    QJsonArray smArray;
    for (const SubnetManagerStatus &s : sms) {
        QJsonObject o{{QStringLiteral("name"), s.name},
                      {QStringLiteral("state"), s.state},
                      {QStringLiteral("running"), s.running},
                      {QStringLiteral("engine"), s.engine},
                      {QStringLiteral("problems"), QJsonArray::fromStringList(s.problems)}};
        o.insert(QStringLiteral("priority"), s.priority >= 0 ? QJsonValue(s.priority) : QJsonValue());
        o.insert(QStringLiteral("port_guid"), s.portGuid ? QJsonValue(guidText(s.portGuid)) : QJsonValue());
        o.insert(QStringLiteral("port_guid_from"), s.portGuidFrom);
        o.insert(QStringLiteral("lid"), s.lid ? QJsonValue(int(s.lid)) : QJsonValue());
        o.insert(QStringLiteral("pid"), s.pid ? QJsonValue(double(s.pid)) : QJsonValue());
        smArray.append(o);
    }
    QJsonArray unknownArray;
    for (const SubnetManagerInfo &u : unknown)
        unknownArray.append(QJsonObject{{QStringLiteral("port_guid"), guidText(u.portGuid)},
                                        {QStringLiteral("lid"), int(u.lid)},
                                        {QStringLiteral("state"), u.answered ? smStateName(u.state) : QStringLiteral("no answer")},
                                        {QStringLiteral("priority"), u.priority},
                                        {QStringLiteral("node"), u.nodeDescription}});
    return QJsonObject{{QStringLiteral("subnet"), subnet},
                       {QStringLiteral("sms"), smArray},
                       {QStringLiteral("unknown_sms"), unknownArray},
                       {QStringLiteral("problems"), QJsonArray::fromStringList(problems)},
                       {QStringLiteral("ok"), ok()}};
}

SubnetCheck checkSubnetTarget(const SubnetTarget &target, const std::vector<SubnetManagerInfo> &seen, const QString &fabricError)
{
    SubnetCheck check;
    check.subnet = target.subnet;
    std::set<Guid> named;
    for (const SubnetManagerEntry &e : target.sms) {
        SubnetManagerStatus status;
        status.name = e.name;
        status.state = QStringLiteral("unknown");
        const CommitTarget files = e.commitTarget();
        Result<OpenSmState> state = readOpenSmState(files, e.optionsPath);
        if (!state) {
            status.problems << state.error().toString();
        } else {
            status.pid = state->pid;
            status.running = state->running;
            status.engine = state->options.routingEngines.join(QLatin1Char(','));
            status.priority = state->options.smPriority;
            status.problems << commitWarnings(*state, files, false);
            if (e.portGuid) {
                status.portGuid = e.portGuid;
                status.portGuidFrom = QStringLiteral("target entry");
            } else if (state->options.portGuid) {
                status.portGuid = state->options.portGuid;
                status.portGuidFrom = QStringLiteral("options (guid)");
            } else if (state->boundPortGuid) {
                status.portGuid = state->boundPortGuid;
                status.portGuidFrom = QStringLiteral("log");
            }
        }
        if (!status.running)
            status.state = QStringLiteral("not running");
        const auto info = std::find_if(seen.begin(), seen.end(), [&](const SubnetManagerInfo &i) { return status.portGuid && i.portGuid == status.portGuid; });
        if (info != seen.end()) {
            named.insert(info->portGuid);
            status.lid = info->lid;
            if (info->answered) {
                status.priority = info->priority;
                if (status.running)
                    status.state = smStateName(info->state);
                else if (info->state == 3 || info->state == 2)
                    status.problems << QStringLiteral("its port answers SMInfo as %1, but its pid file (%2) names no running OpenSM: "
                                                      "is the pid file the one this OpenSM writes?")
                                           .arg(smStateName(info->state), e.pidFile);
            } else if (status.running) {
                status.problems << QStringLiteral("its port (LID %1) does not answer SMInfo").arg(info->lid);
            }
        } else if (status.running && fabricError.isEmpty()) {
            status.problems << (status.portGuid ? QStringLiteral("no SM answers on its port %1: is this OpenSM attached to the subnet?").arg(guidText(status.portGuid))
                                                : QStringLiteral("its port is not known: give \"port_guid\" in the target, or `guid` in its options"));
        }
        check.sms.push_back(std::move(status));
    }
    if (!fabricError.isEmpty())
        check.problems << QStringLiteral("the subnet managers' SMInfo could not be read: %1").arg(fabricError);
    int masters = 0;
    for (const SubnetManagerInfo &i : seen) {
        if (i.answered && i.state == 3)
            ++masters;
        if (named.count(i.portGuid))
            continue;
        check.unknown.push_back(i);
        check.problems << QStringLiteral("an SM the target does not name runs on port GUID %1 (LID %2, \"%3\"): %4, priority %5; a "
                                         "rogue or forgotten SM that can take over with its own partitions and routing")
                              .arg(guidText(i.portGuid))
                              .arg(i.lid)
                              .arg(i.nodeDescription, i.answered ? smStateName(i.state) : QStringLiteral("not answering SMInfo"))
                              .arg(i.priority);
    }
    if (masters > 1)
        check.problems << QStringLiteral("%1 SMs say they are master: the subnet has two masters").arg(masters);
    else if (masters == 0 && fabricError.isEmpty())
        check.problems << QStringLiteral("no SM on the subnet says it is master");
    return check;
}

Result<CommitTarget> subnetCommitTarget(const SubnetTarget &target, const SubnetCheck &check)
{
    const SubnetManagerStatus *master = check.master();
    if (!master) {
        QStringList why = check.problems;
        if (why.isEmpty())
            why << QStringLiteral("no SM of the target is master");
        return Error{target.fileName, 0, QStringLiteral("cannot tell which SM of subnet %1 to commit through: %2").arg(target.subnet, why.join(QStringLiteral("; ")))};
    }
    const SubnetManagerEntry *entry = target.byName(master->name);
    CommitTarget t = entry->commitTarget();
    t.subnet = target.subnet;
    t.lockPath = target.fileName + QStringLiteral(".weft-lock");
    for (const SubnetManagerEntry &e : target.sms) {
        if (&e == entry)
            continue;
        CommitTarget::Standby s;
        s.name = e.name;
        s.lftsPath = e.lftsPath;
        s.intentPath = e.intentPath;
        s.partitionsPath = e.partitionsPath;
        s.optionsPath = e.optionsPath;
        t.standbys.push_back(std::move(s));
    }
    return t;
}

QString subnetJournalPath(const SubnetTarget &target)
{
    return defaultJournalPath(target.fileName);
}

SubnetCheck checkSubnet(const SubnetTarget &target, const Fabric &fabric, const CommitBackend &backend)
{
    if (!backend.readSubnetManagers)
        return checkSubnetTarget(target, {}, QStringLiteral("the fabric access cannot read SMInfo"));
    Result<std::vector<SubnetManagerInfo>> seen = backend.readSubnetManagers(fabric);
    if (!seen)
        return checkSubnetTarget(target, {}, seen.error().toString());
    return checkSubnetTarget(target, *seen);
}

SubnetCheck checkSubnet(const SubnetTarget &target, const CommitBackend &backend, std::optional<Fabric> *discovered)
{
    if (!backend.discover)
        return checkSubnetTarget(target, {}, QStringLiteral("no access to the fabric"));
    Result<Fabric> fabric = backend.discover();
    if (!fabric)
        return checkSubnetTarget(target, {}, fabric.error().toString());
    SubnetCheck check = checkSubnet(target, *fabric, backend);
    if (discovered)
        *discovered = std::move(*fabric);
    return check;
}

namespace {

// The subnet's commit target as it is now, and what the check found said on the way; a refused
// report when it cannot be told. `backend` then hands the commit the fabric the check discovered
// (moments ago), so that it is not discovered twice.
std::optional<CommitReport> resolveSubnet(const SubnetTarget &target, CommitBackend &backend, CommitOptions &options,
                                          CommitTarget *resolved, SubnetCheck *checkOut, QStringList *warnings)
{
    std::optional<Fabric> discovered;
    const SubnetCheck check = checkSubnet(target, backend, &discovered);
    if (discovered)
        backend.discover = [fabric = std::make_shared<const Fabric>(std::move(*discovered))]() -> Result<Fabric> { return *fabric; };
    if (checkOut)
        *checkOut = check;
    Result<CommitTarget> through = subnetCommitTarget(target, check);
    if (!through) {
        CommitReport refused;
        refused.outcome = CommitOutcome::Refused;
        refused.reasons << through.error().message;
        return refused;
    }
    *resolved = std::move(*through);
    if (options.journalPath.isEmpty())
        options.journalPath = subnetJournalPath(target);
    for (const SubnetManagerStatus &s : check.sms)
        for (const QString &problem : s.problems)
            *warnings << QStringLiteral("SM %1: %2").arg(s.name, problem);
    *warnings << check.problems;
    QString line = QStringLiteral("subnet %1: master %2").arg(target.subnet, resolved->name);
    for (const CommitTarget::Standby &s : resolved->standbys)
        line += QStringLiteral(", standby %1").arg(s.name);
    if (options.progress) {
        options.progress(line);
        for (const QString &w : *warnings)
            options.progress(QStringLiteral("warning: %1").arg(w));
    }
    return std::nullopt;
}

}  // namespace

CommitReport commitToSubnet(const CommitPlan &plan, const SubnetTarget &target, const CommitBackend &backend, CommitOptions options,
                            SubnetCheck *check)
{
    CommitTarget resolved;
    QStringList warnings;
    CommitBackend access = backend;
    if (std::optional<CommitReport> refused = resolveSubnet(target, access, options, &resolved, check, &warnings))
        return *refused;
    CommitReport report = commitPlan(plan, resolved, access, options);
    report.warnings = warnings + report.warnings;
    return report;
}

CommitReport recoverSubnetCommit(const SubnetTarget &target, const CommitBackend &backend, CommitOptions options)
{
    CommitTarget resolved;
    QStringList warnings;
    CommitBackend access = backend;
    if (std::optional<CommitReport> refused = resolveSubnet(target, access, options, &resolved, nullptr, &warnings))
        return *refused;
    CommitReport report = recoverCommit(resolved, access, options);
    report.warnings = warnings + report.warnings;
    return report;
}

}  // namespace weft
