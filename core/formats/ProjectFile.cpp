#include "ProjectFile.h"

#include "PartitionsConf.h"

#include "TextReader.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>
#include <set>

namespace weft {

namespace {

QString modeName(PolicyMode mode)
{
    return mode == PolicyMode::Strict ? QStringLiteral("strict") : QStringLiteral("best-effort");
}

QJsonObject flagsToJson(const MulticastFlags &f)
{
    QJsonObject o;
    if (f.rate) o[QStringLiteral("rate")] = *f.rate;
    if (f.mtu) o[QStringLiteral("mtu")] = *f.mtu;
    if (f.sl) o[QStringLiteral("sl")] = *f.sl;
    if (f.scope) o[QStringLiteral("scope")] = *f.scope;
    if (f.qkey) o[QStringLiteral("qkey")] = double(*f.qkey);
    if (f.tclass) o[QStringLiteral("tclass")] = *f.tclass;
    if (f.flowLabel) o[QStringLiteral("flow_label")] = double(*f.flowLabel);
    return o;
}

const char *memberKindName(PartitionMember::Kind kind)
{
    switch (kind) {
    case PartitionMember::Kind::All: return "ALL";
    case PartitionMember::Kind::AllCas: return "ALL_CAS";
    case PartitionMember::Kind::AllSwitches: return "ALL_SWITCHES";
    case PartitionMember::Kind::AllRouters: return "ALL_ROUTERS";
    case PartitionMember::Kind::Self: return "SELF";
    case PartitionMember::Kind::PortGuid: break;
    }
    return "";
}

QString jsonTypeName(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null: return QStringLiteral("null");
    case QJsonValue::Bool: return QStringLiteral("boolean");
    case QJsonValue::Array: return QStringLiteral("array");
    case QJsonValue::Object: return QStringLiteral("object");
    default: break;
    }
    return QStringLiteral("value");
}

// Reading: every value is checked for type and range; the error names the JSON path.
class ProjectReader
{
public:
    explicit ProjectReader(QString fileName) : m_file(std::move(fileName)) {}

    [[noreturn]] void fail(const QString &where, const QString &what) const
    {
        throw InputError{0, QStringLiteral("%1: %2").arg(where, what)};
    }

    QString string(const QJsonObject &o, const char *key, const QString &where, bool required = false) const
    {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined() && !required)
            return {};
        if (!v.isString())
            fail(where + QLatin1Char('.') + QLatin1String(key), QStringLiteral("expected a string"));
        return v.toString();
    }

    std::uint64_t hexNumber(const QJsonValue &v, const QString &where, std::uint64_t max) const
    {
        std::uint64_t n = 0;
        const QByteArray s = v.toString().toLatin1();
        if (!v.isString() || !s.startsWith("0x") || !text::parseUInt(std::string_view(s.constData() + 2, std::size_t(s.size() - 2)), 16, &n) || n > max)
            fail(where, QStringLiteral("expected a hexadecimal number \"0x...\" up to 0x%1").arg(max, 0, 16));
        return n;
    }

    // A JSON number is a double: it is checked whole and in range before it is narrowed, so
    // 1e300, -1, 2.5 or the string "0x1234" are refused rather than read as something else.
    std::optional<std::uint32_t> optNumber(const QJsonObject &o, const char *key, const QString &where, std::uint32_t max) const
    {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined())
            return std::nullopt;
        const double d = v.toDouble();
        if (!v.isDouble() || !(d >= 0.0 && d <= double(max)) || d != std::floor(d)) {
            const QString shown = v.isDouble() ? QString::number(d, 'g', 17)
                : v.isString()                 ? QStringLiteral("the string \"%1\"").arg(v.toString())
                                               : QStringLiteral("a JSON %1").arg(jsonTypeName(v));
            fail(where + QLatin1Char('.') + QLatin1String(key),
                 QStringLiteral("%1 is out of range: expected a whole number from 0 to %2").arg(shown).arg(max));
        }
        return std::uint32_t(d);
    }

    std::optional<int> optInt(const QJsonObject &o, const char *key, const QString &where, int max) const
    {
        if (const auto n = optNumber(o, key, where, std::uint32_t(max)))
            return int(*n);
        return std::nullopt;
    }

    bool boolean(const QJsonObject &o, const char *key, const QString &where) const
    {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined())
            return false;
        if (!v.isBool())
            fail(where + QLatin1Char('.') + QLatin1String(key), QStringLiteral("expected true or false"));
        return v.toBool();
    }

    MulticastFlags flags(const QJsonObject &o, const QString &where) const
    {
        MulticastFlags f;
        f.rate = optInt(o, "rate", where, 255);
        f.mtu = optInt(o, "mtu", where, 255);
        f.sl = optInt(o, "sl", where, 15);
        f.scope = optInt(o, "scope", where, 15);
        f.qkey = optNumber(o, "qkey", where, 0xffffffffU);
        f.tclass = optInt(o, "tclass", where, 255);
        f.flowLabel = optNumber(o, "flow_label", where, 0xfffffU);
        return f;
    }

    Membership membership(const QString &name, const QString &where) const
    {
        for (auto m : {Membership::Full, Membership::Limited, Membership::Both})
            if (name == membershipName(m))
                return m;
        fail(where, QStringLiteral("membership \"%1\" is not full, limited or both").arg(name));
    }

    Project read(const QJsonObject &root) const
    {
        if (root.value(QStringLiteral("format")).toString() != QLatin1String("weft-project"))
            fail(QStringLiteral("format"), QStringLiteral("not a Weft project file"));
        const int version = root.value(QStringLiteral("version")).toInt(-1);
        if (version < 1)
            fail(QStringLiteral("version"), QStringLiteral("missing or invalid format version"));
        if (version > kProjectFormatVersion)
            fail(QStringLiteral("version"), QStringLiteral("written by a newer Weft (format version %1; this Weft reads up to %2)")
                                               .arg(version).arg(kProjectFormatVersion));
        Project p;
        p.fabricSource = string(root, "fabric_source", QStringLiteral("project"));
        const QString mode = string(root, "policy_mode", QStringLiteral("project"));
        if (mode == QLatin1String("strict"))
            p.tenancy.mode = PolicyMode::Strict;
        else if (mode.isEmpty() || mode == QLatin1String("best-effort"))
            p.tenancy.mode = PolicyMode::BestEffort;
        else
            fail(QStringLiteral("policy_mode"), QStringLiteral("\"%1\" is not strict or best-effort").arg(mode));

        const QJsonObject routing = root.value(QStringLiteral("routing")).toObject();
        p.routingEngine = string(routing, "engine", QStringLiteral("routing"));
        p.routingOptions = routing.value(QStringLiteral("options")).toObject();

        std::set<std::uint16_t> pkeys;
        const QJsonArray partitions = root.value(QStringLiteral("partitions")).toArray();
        for (int i = 0; i < partitions.size(); ++i) {
            const QString where = QStringLiteral("partitions[%1]").arg(i);
            const QJsonObject o = partitions.at(i).toObject();
            Partition part;
            part.name = string(o, "name", where);
            if (o.contains(QStringLiteral("pkey"))) {
                part.pkey = std::uint16_t(hexNumber(o.value(QStringLiteral("pkey")), where + QStringLiteral(".pkey"), 0x7fff));
                if (!pkeys.insert(*part.pkey).second)
                    fail(where + QStringLiteral(".pkey"), QStringLiteral("P_Key %1 is used by another partition").arg(pkeyText(*part.pkey)));
            }
            part.indx0 = boolean(o, "indx0", where);
            part.ipoib = boolean(o, "ipoib", where);
            part.ipoibFlags = flags(o.value(QStringLiteral("ipoib_flags")).toObject(), where + QStringLiteral(".ipoib_flags"));
            const QString defmember = string(o, "defmember", where);
            part.defaultMembership = defmember.isEmpty() ? Membership::Limited : membership(defmember, where + QStringLiteral(".defmember"));
            const QString policy = string(o, "policy", where);
            if (!policy.isEmpty()) {
                const auto parsed = policyFromName(policy);
                if (!parsed)
                    fail(where + QStringLiteral(".policy"), QStringLiteral("\"%1\" is not phy-isolation, vlane-isolation or def-isolation").arg(policy));
                part.policy = *parsed;
            }
            const QJsonArray members = o.value(QStringLiteral("members")).toArray();
            for (int m = 0; m < members.size(); ++m) {
                const QString mw = QStringLiteral("%1.members[%2]").arg(where).arg(m);
                const QJsonObject mo = members.at(m).toObject();
                PartitionMember member;
                const QString keyword = string(mo, "keyword", mw);
                if (keyword.isEmpty()) {
                    member.guid = hexNumber(mo.value(QStringLiteral("guid")), mw + QStringLiteral(".guid"), UINT64_MAX);
                } else {
                    bool known = false;
                    for (auto k : {PartitionMember::Kind::All, PartitionMember::Kind::AllCas, PartitionMember::Kind::AllSwitches,
                                   PartitionMember::Kind::AllRouters, PartitionMember::Kind::Self})
                        if (keyword == QLatin1String(memberKindName(k))) {
                            member.kind = k;
                            known = true;
                        }
                    if (!known)
                        fail(mw + QStringLiteral(".keyword"), QStringLiteral("unknown keyword \"%1\"").arg(keyword));
                }
                const QString ms = string(mo, "membership", mw);
                member.explicitMembership = !ms.isEmpty();
                member.membership = ms.isEmpty() ? part.defaultMembership : membership(ms, mw + QStringLiteral(".membership"));
                part.members.push_back(member);
            }
            const QJsonArray groups = o.value(QStringLiteral("multicast_groups")).toArray();
            for (int g = 0; g < groups.size(); ++g) {
                const QJsonObject go = groups.at(g).toObject();
                const QString gw = QStringLiteral("%1.multicast_groups[%2]").arg(where).arg(g);
                const QString mgid = string(go, "mgid", gw, true);
                if (!isMulticastGid(mgid))
                    fail(gw + QStringLiteral(".mgid"), QStringLiteral("\"%1\" is not a multicast GID (IPv6 notation, first byte "
                                                                      "0xff, e.g. ff12:401b::1)")
                                                           .arg(text::withoutControlCharacters(mgid)));
                part.multicastGroups.push_back(MulticastGroup{mgid, flags(go, gw)});
            }
            p.tenancy.partitions.push_back(std::move(part));
        }

        const QJsonArray tenants = root.value(QStringLiteral("tenants")).toArray();
        for (int i = 0; i < tenants.size(); ++i) {
            const QString where = QStringLiteral("tenants[%1]").arg(i);
            const QJsonObject o = tenants.at(i).toObject();
            Tenant t;
            t.name = string(o, "name", where, true);
            const QJsonArray members = o.value(QStringLiteral("members")).toArray();
            for (int m = 0; m < members.size(); ++m)
                t.members.push_back(hexNumber(members.at(m), QStringLiteral("%1.members[%2]").arg(where).arg(m), UINT64_MAX));
            p.tenancy.tenants.push_back(std::move(t));
        }

        const QJsonArray weights = root.value(QStringLiteral("weights")).toArray();
        for (int i = 0; i < weights.size(); ++i) {
            const QString where = QStringLiteral("weights[%1]").arg(i);
            const QJsonObject o = weights.at(i).toObject();
            const Guid g = hexNumber(o.value(QStringLiteral("guid")), where + QStringLiteral(".guid"), UINT64_MAX);
            const QJsonValue w = o.value(QStringLiteral("weight"));
            if (!w.isDouble() || !(w.toDouble() > 0.0) || !std::isfinite(w.toDouble()))
                fail(where + QStringLiteral(".weight"), QStringLiteral("expected a positive number"));
            p.tenancy.nodeWeights[g] = w.toDouble();
        }

        const QJsonArray roles = root.value(QStringLiteral("node_roles")).toArray();
        for (int i = 0; i < roles.size(); ++i) {
            const QString where = QStringLiteral("node_roles[%1]").arg(i);
            const QJsonObject o = roles.at(i).toObject();
            const Guid g = hexNumber(o.value(QStringLiteral("guid")), where + QStringLiteral(".guid"), UINT64_MAX);
            const QString name = string(o, "role", where, true);
            const std::optional<NodeRole> role = nodeRoleFromName(name);
            if (!role)
                fail(where + QStringLiteral(".role"), QStringLiteral("role \"%1\" is not compute, service or io").arg(name));
            p.nodeRoles[g] = *role;
        }
        return p;
    }

private:
    QString m_file;
};

int lineOfOffset(const QByteArray &data, int offset)
{
    return int(data.left(offset).count('\n')) + 1;
}

}  // namespace

QByteArray writeProject(const Project &project)
{
    QJsonObject root;
    root[QStringLiteral("format")] = QStringLiteral("weft-project");
    root[QStringLiteral("version")] = kProjectFormatVersion;
    if (!project.fabricSource.isEmpty())
        root[QStringLiteral("fabric_source")] = project.fabricSource;
    root[QStringLiteral("policy_mode")] = modeName(project.tenancy.mode);
    QJsonObject routing;
    if (!project.routingEngine.isEmpty())
        routing[QStringLiteral("engine")] = project.routingEngine;
    if (!project.routingOptions.isEmpty())
        routing[QStringLiteral("options")] = project.routingOptions;
    root[QStringLiteral("routing")] = routing;

    QJsonArray partitions;
    for (const Partition &p : project.tenancy.partitions) {
        QJsonObject o;
        o[QStringLiteral("name")] = p.name;
        if (p.pkey)
            o[QStringLiteral("pkey")] = pkeyText(*p.pkey);
        if (p.indx0)
            o[QStringLiteral("indx0")] = true;
        if (p.ipoib)
            o[QStringLiteral("ipoib")] = true;
        if (const QJsonObject f = flagsToJson(p.ipoibFlags); !f.isEmpty())
            o[QStringLiteral("ipoib_flags")] = f;
        o[QStringLiteral("defmember")] = membershipName(p.defaultMembership);
        o[QStringLiteral("policy")] = policyName(p.policy);
        QJsonArray members;
        for (const PartitionMember &m : p.members) {
            QJsonObject mo;
            if (m.kind == PartitionMember::Kind::PortGuid)
                mo[QStringLiteral("guid")] = guidText(m.guid);
            else
                mo[QStringLiteral("keyword")] = QLatin1String(memberKindName(m.kind));
            if (m.explicitMembership)
                mo[QStringLiteral("membership")] = membershipName(m.membership);
            members.append(mo);
        }
        o[QStringLiteral("members")] = members;
        if (!p.multicastGroups.empty()) {
            QJsonArray groups;
            for (const MulticastGroup &g : p.multicastGroups) {
                QJsonObject go = flagsToJson(g.flags);
                go[QStringLiteral("mgid")] = g.mgid;
                groups.append(go);
            }
            o[QStringLiteral("multicast_groups")] = groups;
        }
        partitions.append(o);
    }
    root[QStringLiteral("partitions")] = partitions;

    QJsonArray tenants;
    for (const Tenant &t : project.tenancy.tenants) {
        QJsonArray members;
        for (Guid g : t.members)
            members.append(guidText(g));
        tenants.append(QJsonObject{{QStringLiteral("name"), t.name}, {QStringLiteral("members"), members}});
    }
    root[QStringLiteral("tenants")] = tenants;

    QJsonArray weights;
    for (const auto &[guid, weight] : project.tenancy.nodeWeights)
        weights.append(QJsonObject{{QStringLiteral("guid"), guidText(guid)}, {QStringLiteral("weight"), weight}});
    root[QStringLiteral("weights")] = weights;
    if (!project.nodeRoles.empty()) {
        QJsonArray roles;
        for (const auto &[guid, role] : project.nodeRoles)
            roles.append(QJsonObject{{QStringLiteral("guid"), guidText(guid)}, {QStringLiteral("role"), nodeRoleName(role)}});
        root[QStringLiteral("node_roles")] = roles;
    }
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

Result<Project> readProject(const QByteArray &data, const QString &fileName)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(data, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return Error{fileName, lineOfOffset(data, parseError.offset), QStringLiteral("invalid JSON: %1").arg(parseError.errorString())};
    if (!doc.isObject())
        return Error{fileName, 1, QStringLiteral("a project file is a JSON object")};
    try {
        return ProjectReader(fileName).read(doc.object());
    } catch (const InputError &e) {
        return Error{fileName, e.line, e.message};
    }
}

Result<Project> readProjectFile(const QString &path)
{
    Result<QByteArray> data = TextReader::readFile(path, qint64(256) << 20);
    if (!data)
        return data.error();
    return readProject(*data, path);
}

BoundProject bindProject(const Project &project, const Fabric &fabric)
{
    BoundProject bound{project, {}};
    std::set<Guid> reported;
    auto known = [&](Guid g, const QString &usedBy) {
        if (fabric.portByGuid(g) != kNoIndex)
            return true;
        if (reported.insert(g).second)
            bound.missing << QStringLiteral("%1 (%2)").arg(guidText(g), usedBy);
        return false;
    };
    for (Partition &p : bound.project.tenancy.partitions) {
        const QString usedBy = QStringLiteral("partition \"%1\"").arg(p.name);
        p.members.erase(std::remove_if(p.members.begin(), p.members.end(),
                                       [&](const PartitionMember &m) {
                                           return m.kind == PartitionMember::Kind::PortGuid && !known(m.guid, usedBy);
                                       }),
                        p.members.end());
    }
    for (Tenant &t : bound.project.tenancy.tenants) {
        const QString usedBy = QStringLiteral("tenant \"%1\"").arg(t.name);
        t.members.erase(std::remove_if(t.members.begin(), t.members.end(), [&](Guid g) { return !known(g, usedBy); }),
                        t.members.end());
    }
    for (auto it = bound.project.tenancy.nodeWeights.begin(); it != bound.project.tenancy.nodeWeights.end();) {
        if (known(it->first, QStringLiteral("node weight")))
            ++it;
        else
            it = bound.project.tenancy.nodeWeights.erase(it);
    }
    return bound;
}

}  // namespace weft
