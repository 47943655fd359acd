#include "TokenStore.h"

#include "FileDigest.h"
#include "SafeFile.h"
#include "TextReader.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>

#include <sys/stat.h>

namespace weft {

namespace {

const QString kFormat = QStringLiteral("weft-tokens");

// Equal texts in time that does not depend on where they differ.
bool sameSecret(const QByteArray &a, const QByteArray &b)
{
    if (a.size() != b.size())
        return false;
    unsigned char difference = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        difference |= static_cast<unsigned char>(a[i] ^ b[i]);
    return difference == 0;
}

// A certificate's DER bytes: the first PEM CERTIFICATE block, or the bytes as they are.
QByteArray certificateDer(const QByteArray &bytes)
{
    const QByteArray begin = "-----BEGIN CERTIFICATE-----";
    const qsizetype from = bytes.indexOf(begin);
    if (from < 0)
        return bytes;
    const qsizetype to = bytes.indexOf("-----END CERTIFICATE-----", from);
    if (to < 0)
        return {};
    return QByteArray::fromBase64(bytes.mid(from + begin.size(), to - from - begin.size()).simplified().replace(' ', ""));
}

}  // namespace

QString serviceRoleName(ServiceRole role)
{
    switch (role) {
    case ServiceRole::Viewer: return QStringLiteral("viewer");
    case ServiceRole::Operator: return QStringLiteral("operator");
    case ServiceRole::Admin: return QStringLiteral("admin");
    }
    return {};
}

std::optional<ServiceRole> serviceRoleFromName(const QString &name)
{
    for (ServiceRole role : {ServiceRole::Viewer, ServiceRole::Operator, ServiceRole::Admin})
        if (serviceRoleName(role) == name)
            return role;
    return std::nullopt;
}

Result<TokenStore> TokenStore::read(const QString &path)
{
    TokenStore store;
    store.m_path = path;
    if (!QFileInfo::exists(path))
        return store;
    Result<QByteArray> bytes = TextReader::readFile(path, 16 << 20);
    if (!bytes)
        return bytes.error();
    QJsonParseError parseError{};
    const QJsonDocument document = QJsonDocument::fromJson(*bytes, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        const int line = int(bytes->left(parseError.offset).count('\n')) + 1;
        return Error{path, line, QStringLiteral("not a tokens file: %1").arg(parseError.errorString())};
    }
    const QJsonObject root = document.object();
    if (root.value(QStringLiteral("format")).toString() != kFormat)
        return Error{path, 1, QStringLiteral("not a tokens file: \"format\" is not \"%1\"").arg(kFormat)};
    const QJsonArray tokens = root.value(QStringLiteral("tokens")).toArray();
    for (qsizetype i = 0; i < tokens.size(); ++i) {
        const QJsonObject t = tokens[i].toObject();
        ServiceCredential c;
        c.name = t.value(QStringLiteral("name")).toString();
        const std::optional<ServiceRole> role = serviceRoleFromName(t.value(QStringLiteral("role")).toString());
        c.tokenSha256 = t.value(QStringLiteral("sha256")).toString();
        c.certificateSha256 = t.value(QStringLiteral("certificate_sha256")).toString();
        c.created = QDateTime::fromString(t.value(QStringLiteral("created")).toString(), Qt::ISODate);
        if (c.name.isEmpty() || !role || (c.tokenSha256.size() != 64 && c.certificateSha256.size() != 64))
            return Error{path, 0, QStringLiteral("tokens[%1]: needs a name, a role (viewer, operator, admin) and a sha256 or "
                                                 "certificate_sha256 of 64 hex digits")
                                      .arg(i)};
        c.role = *role;
        store.m_credentials.push_back(std::move(c));
    }
    return store;
}

Status TokenStore::write() const
{
    QJsonArray tokens;
    for (const ServiceCredential &c : m_credentials) {
        QJsonObject t{{QStringLiteral("name"), c.name},
                      {QStringLiteral("role"), serviceRoleName(c.role)},
                      {QStringLiteral("created"), c.created.toUTC().toString(Qt::ISODate)}};
        if (!c.tokenSha256.isEmpty())
            t.insert(QStringLiteral("sha256"), c.tokenSha256);
        if (!c.certificateSha256.isEmpty())
            t.insert(QStringLiteral("certificate_sha256"), c.certificateSha256);
        tokens.append(t);
    }
    const QByteArray bytes = QJsonDocument(QJsonObject{{QStringLiteral("format"), kFormat}, {QStringLiteral("tokens"), tokens}})
                                 .toJson(QJsonDocument::Indented);
    // Hashes only, but still nobody else's business: made readable by its owner alone.
    const mode_t before = umask(077);
    const Status written = writeFileAtomically(m_path, bytes);
    umask(before);
    if (!written)
        return written;
    QFile::setPermissions(m_path, QFile::ReadOwner | QFile::WriteOwner);
    return Done{};
}

Result<QString> TokenStore::addToken(const QString &name, ServiceRole role)
{
    if (name.trimmed().isEmpty())
        return Error{m_path, 0, QStringLiteral("a credential needs a name")};
    for (const ServiceCredential &c : m_credentials)
        if (c.name == name)
            return Error{m_path, 0, QStringLiteral("\"%1\" has a credential already (revoke it first)").arg(name)};
    QByteArray secret(32, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(secret.data()), secret.size() / 4);
    const QString token = QStringLiteral("weft_") + QString::fromLatin1(secret.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
    m_credentials.push_back(ServiceCredential{name, role, sha256Hex(token.toLatin1()), {}, QDateTime::currentDateTimeUtc()});
    return token;
}

Status TokenStore::addCertificate(const QString &name, ServiceRole role, const QByteArray &certificate)
{
    if (name.trimmed().isEmpty())
        return Error{m_path, 0, QStringLiteral("a credential needs a name")};
    for (const ServiceCredential &c : m_credentials)
        if (c.name == name)
            return Error{m_path, 0, QStringLiteral("\"%1\" has a credential already (revoke it first)").arg(name)};
    const QByteArray der = certificateDer(certificate);
    if (der.isEmpty() || der.front() != 0x30)
        return Error{{}, 0, QStringLiteral("not a certificate (PEM or DER)")};
    m_credentials.push_back(ServiceCredential{name, role, {}, sha256Hex(der), QDateTime::currentDateTimeUtc()});
    return Done{};
}

Status TokenStore::revoke(const QString &name)
{
    const auto it = std::find_if(m_credentials.begin(), m_credentials.end(), [&](const ServiceCredential &c) { return c.name == name; });
    if (it == m_credentials.end())
        return Error{m_path, 0, QStringLiteral("no credential is named \"%1\"").arg(name)};
    m_credentials.erase(it);
    return Done{};
}

std::optional<ServiceCredential> TokenStore::byToken(const QByteArray &token) const
{
    const QByteArray hash = sha256Hex(token).toLatin1();
    std::optional<ServiceCredential> found;
    for (const ServiceCredential &c : m_credentials)  // every entry compared: no early exit to time
        if (!c.tokenSha256.isEmpty() && sameSecret(c.tokenSha256.toLatin1(), hash))
            found = c;
    return found;
}

std::optional<ServiceCredential> TokenStore::byCertificate(const QString &sha256) const
{
    for (const ServiceCredential &c : m_credentials)
        if (!c.certificateSha256.isEmpty() && c.certificateSha256.compare(sha256, Qt::CaseInsensitive) == 0)
            return c;
    return std::nullopt;
}

}  // namespace weft
