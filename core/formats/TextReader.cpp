#include "TextReader.h"

#include <QFile>

#include <cstring>

namespace weft {

TextReader::TextReader(QByteArray data, QString fileName, int maxLineLength)
    : m_data(std::move(data)), m_fileName(std::move(fileName)), m_maxLineLength(maxLineLength)
{
}

Result<QByteArray> TextReader::readFile(const QString &path, qint64 maxBytes)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error{path, 0, QStringLiteral("cannot open: %1").arg(file.errorString())};
    if (file.size() > maxBytes)
        return Error{path, 0, QStringLiteral("file is %1 bytes; at most %2 are read").arg(file.size()).arg(maxBytes)};
    QByteArray data = file.readAll();
    if (file.error() != QFileDevice::NoError)
        return Error{path, 0, QStringLiteral("cannot read: %1").arg(file.errorString())};
    return data;
}

bool TextReader::next()
{
    const std::size_t size = std::size_t(m_data.size());
    if (m_pos >= size)
        return false;
    const char *begin = m_data.constData() + m_pos;
    const void *nl = std::memchr(begin, '\n', size - m_pos);
    std::size_t length = nl ? std::size_t(static_cast<const char *>(nl) - begin) : size - m_pos;
    m_pos += length + (nl ? 1 : 0);
    ++m_lineNumber;
    if (length > 0 && begin[length - 1] == '\r')
        --length;
    m_line = std::string_view(begin, length);
    if (length > std::size_t(m_maxLineLength))
        fail(QStringLiteral("line is %1 characters long; at most %2 are allowed").arg(length).arg(m_maxLineLength));
    if (std::memchr(begin, '\0', length))
        fail(QStringLiteral("line contains a NUL byte; this is not a text file"));
    return true;
}

void TextReader::fail(const QString &message) const
{
    throw InputError{m_lineNumber, message};
}

namespace text {

std::string_view trimmed(std::string_view s)
{
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; };
    while (!s.empty() && space(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && space(s.back()))
        s.remove_suffix(1);
    return s;
}

bool startsWith(std::string_view s, std::string_view prefix)
{
    return s.substr(0, prefix.size()) == prefix;
}

bool parseUInt(std::string_view s, int base, std::uint64_t *out)
{
    if (s.empty())
        return false;
    if (base == 0) {
        if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
            base = 16;
            s.remove_prefix(2);
        } else if (s.size() > 1 && s[0] == '0') {
            base = 8;
            s.remove_prefix(1);
        } else {
            base = 10;
        }
    }
    std::uint64_t value = 0;
    for (char c : s) {
        int digit;
        if (c >= '0' && c <= '9')
            digit = c - '0';
        else if (c >= 'a' && c <= 'z')
            digit = c - 'a' + 10;
        else if (c >= 'A' && c <= 'Z')
            digit = c - 'A' + 10;
        else
            return false;
        if (digit >= base)
            return false;
        if (value > (UINT64_MAX - std::uint64_t(digit)) / std::uint64_t(base))
            return false;
        value = value * std::uint64_t(base) + std::uint64_t(digit);
    }
    *out = value;
    return true;
}

QString toQString(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

}  // namespace text
}  // namespace weft
