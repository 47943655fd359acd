#include "TextReader.h"

#include <QFile>

#include <cstring>

namespace weft {

using text::startsWith;

TextReader::TextReader(QByteArray data, QString fileName, int maxLineLength)
    : m_data(std::move(data)), m_fileName(std::move(fileName)), m_maxLineLength(maxLineLength)
{
    const std::string_view all(m_data.constData(), std::size_t(m_data.size()));
    m_pos = all.size() - text::withoutByteOrderMark(all).size();
    m_hadByteOrderMark = m_pos != 0;
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

std::uint64_t TextReader::number(std::string_view s, int base, const QString &what, std::uint64_t min, std::uint64_t max) const
{
    std::uint64_t value = 0;
    if (!text::parseUInt(s, base, &value)) {
        // Digits that overflow 64 bits are still a number, only out of range.
        std::string_view digits = s;
        const bool hex = (base == 0 || base == 16) && (startsWith(s, "0x") || startsWith(s, "0X"));
        if (hex)
            digits.remove_prefix(2);
        const char *allowed = hex || base == 16 ? "0123456789abcdefABCDEF" : "0123456789";
        if (!digits.empty() && digits.find_first_not_of(allowed) == std::string_view::npos)
            fail(QStringLiteral("%1 %2 is out of range (%3-%4)").arg(what, text::toQString(s)).arg(min).arg(max));
        fail(QStringLiteral("%1 \"%2\" is not a number").arg(what, text::toQString(s)));
    }
    if (value < min || value > max)
        fail(QStringLiteral("%1 %2 is out of range (%3-%4)").arg(what, text::toQString(s)).arg(min).arg(max));
    return value;
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

std::string_view withoutByteOrderMark(std::string_view s)
{
    return startsWith(s, "\xEF\xBB\xBF") ? s.substr(3) : s;
}

QString withoutControlCharacters(QString s)
{
    for (QChar &c : s)
        if (c.category() == QChar::Other_Control)
            c = QLatin1Char(' ');
    return s;
}

}  // namespace text
}  // namespace weft
