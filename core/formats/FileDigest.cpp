#include "FileDigest.h"

#include <QFile>

#include <openssl/crypto.h>
#include <openssl/evp.h>

namespace weft {

namespace {

// Digests alive on this thread. OpenSSL keeps state per thread (its error queue, allocated by
// the first digest) that it frees only when the thread ends while OpenSSL is still initialised;
// a pool thread that outlives OpenSSL's exit handler would leak it. So a thread gives its state
// back when its last digest is done.
thread_local int liveDigests = 0;

}  // namespace

struct Sha256::State
{
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    ~State() { EVP_MD_CTX_free(context); }
};

Sha256::Sha256()
    : m_state(std::make_unique<State>())
{
    ++liveDigests;
    EVP_DigestInit_ex(m_state->context, EVP_sha256(), nullptr);
}

Sha256::~Sha256()
{
    m_state.reset();
    if (--liveDigests <= 0) {  // below 0: a digest made on another thread ended here
        liveDigests = 0;
        OPENSSL_thread_stop();
    }
}

void Sha256::add(const char *data, std::size_t size)
{
    EVP_DigestUpdate(m_state->context, data, size);
}

QString Sha256::hex()
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_DigestFinal_ex(m_state->context, digest, &length);
    return QString::fromLatin1(QByteArray(reinterpret_cast<const char *>(digest), int(length)).toHex());
}

QString sha256Hex(const QByteArray &data)
{
    Sha256 digest;
    digest.add(data);
    return digest.hex();
}

Result<QString> fileSha256(const QString &path)
{
    QFile file(path);
    if (!file.exists())
        return QString();
    if (!file.open(QIODevice::ReadOnly))
        return Error{path, 0, QStringLiteral("cannot read it to check its digest: %1").arg(file.errorString())};
    Sha256 digest;
    QByteArray piece(4 << 20, Qt::Uninitialized);
    for (;;) {
        const qint64 n = file.read(piece.data(), piece.size());
        if (n < 0)
            return Error{path, 0, QStringLiteral("cannot read it to check its digest: %1").arg(file.errorString())};
        if (n == 0)
            break;
        digest.add(piece.constData(), std::size_t(n));
    }
    return digest.hex();
}

}  // namespace weft
