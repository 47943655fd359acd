#pragma once
// SHA-256 digests of the files a commit writes and replaces, as the journal records them: lower-
// case hex, the form `sha256sum` prints. Computed by OpenSSL (with the CPU's SHA extensions where
// it has them: a 6 GB LFT dump in a few seconds).

#include "Result.h"

#include <QByteArray>
#include <QString>

#include <cstddef>
#include <memory>

namespace weft {

class Sha256
{
public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256 &) = delete;
    Sha256 &operator=(const Sha256 &) = delete;

    void add(const char *data, std::size_t size);
    void add(const QByteArray &data) { add(data.constData(), std::size_t(data.size())); }
    // The digest in hex; the object is spent after it.
    QString hex();

private:
    struct State;
    std::unique_ptr<State> m_state;
};

QString sha256Hex(const QByteArray &data);

// The digest of the file at `path`, read a piece at a time; an empty string when there is no
// file; an error naming the file when it cannot be read.
Result<QString> fileSha256(const QString &path);

}  // namespace weft
