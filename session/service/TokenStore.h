#pragma once
// Who may use Weft's service, and as what: the tokens file of `weft serve` (`weft serve token
// add|list|revoke --tokens FILE`). It holds, per credential, a name (journalled with every commit
// it makes), a role and the SHA-256 of the token (the token itself is printed once, when made, and
// kept nowhere), or the SHA-256 fingerprint of a client certificate for sites with a PKI.
//
// Tokens are 32 random bytes from the system's generator, so a plain SHA-256 is enough to keep
// them: there is no password to guess. Comparisons run in constant time. The file is JSON:
//   {"format": "weft-tokens", "tokens": [{"name", "role", "sha256" | "certificate_sha256", "created"}]}
// written atomically, with a backup, readable by its owner only.

#include "Result.h"

#include <QDateTime>
#include <QString>

#include <optional>
#include <vector>

namespace weft {

// Each role may do what the one before it may.
enum class ServiceRole : std::uint8_t { Viewer,
                                        Operator,
                                        Admin };
QString serviceRoleName(ServiceRole role);  // "viewer", "operator", "admin"
std::optional<ServiceRole> serviceRoleFromName(const QString &name);

struct ServiceCredential
{
    QString name;
    ServiceRole role = ServiceRole::Viewer;
    QString tokenSha256;        // of the token's text; empty for a certificate
    QString certificateSha256;  // of the client certificate's DER; empty for a token
    QDateTime created;
};

class TokenStore
{
public:
    // A file that does not exist reads as an empty store; one that cannot be read or parsed is an
    // error naming the file and the problem.
    static Result<TokenStore> read(const QString &path);
    Status write() const;

    const QString &path() const { return m_path; }
    const std::vector<ServiceCredential> &credentials() const { return m_credentials; }

    // A new token for `name`: the token text (shown once), its hash kept. An error when the name
    // is taken or empty.
    Result<QString> addToken(const QString &name, ServiceRole role);
    // A client certificate (PEM or DER bytes) for `name`.
    Status addCertificate(const QString &name, ServiceRole role, const QByteArray &certificate);
    // Removes `name`'s credential; an error when there is none.
    Status revoke(const QString &name);

    // The credential a bearer token or a certificate fingerprint belongs to.
    std::optional<ServiceCredential> byToken(const QByteArray &token) const;
    std::optional<ServiceCredential> byCertificate(const QString &sha256) const;

private:
    QString m_path;
    std::vector<ServiceCredential> m_credentials;
};

}  // namespace weft
