#pragma once
// Line-by-line access to a text file already in memory, shared by every reader so that they
// all report errors the same way (file, 1-based line, message) and all refuse the same
// hazards: binary data and overlong lines. Lines are views into the buffer: no copies.

#include "Result.h"

#include <QByteArray>
#include <QString>

#include <string_view>

namespace weft {

class TextReader
{
public:
    static constexpr int kDefaultMaxLineLength = 4096;

    TextReader(QByteArray data, QString fileName, int maxLineLength = kDefaultMaxLineLength);

    // Reads a whole file; the error names the file when it cannot be read.
    static Result<QByteArray> readFile(const QString &path, qint64 maxBytes = qint64(1) << 31);

    // Advances to the next line (without its line terminator, "\r\n" accepted); false at the end.
    // Throws InputError on an overlong line or a NUL byte.
    bool next();

    std::string_view line() const { return m_line; }
    int lineNumber() const { return m_lineNumber; }
    const QString &fileName() const { return m_fileName; }

    // Throws InputError for the current line.
    [[noreturn]] void fail(const QString &message) const;

    // Parses `s` as an unsigned number (base as text::parseUInt) and checks it in its full
    // width against [min, max] before any caller narrows it; fails naming `what`, the value
    // and the allowed range.
    std::uint64_t number(std::string_view s, int base, const QString &what, std::uint64_t min, std::uint64_t max) const;

    // True when the data began with a UTF-8 byte-order mark, which next() skips.
    bool hadByteOrderMark() const { return m_hadByteOrderMark; }

    // Turns an InputError caught at a reader's boundary into an Error naming this file.
    Error error(const InputError &e) const { return Error{m_fileName, e.line, e.message}; }

private:
    QByteArray m_data;
    QString m_fileName;
    int m_maxLineLength;
    std::size_t m_pos = 0;
    int m_lineNumber = 0;
    std::string_view m_line;
    bool m_hadByteOrderMark = false;
};

// Small parsing helpers over string_view, for readers written against TextReader.
namespace text {
std::string_view trimmed(std::string_view s);
bool startsWith(std::string_view s, std::string_view prefix);
// Parses an unsigned integer in the given base (0 = C rules: 0x hex, leading 0 octal) taking
// the whole of `s`; false if `s` is empty, has other characters or overflows 64 bits.
bool parseUInt(std::string_view s, int base, std::uint64_t *out);
QString toQString(std::string_view s);
// `s` without a leading UTF-8 byte-order mark (editors on some systems add one).
std::string_view withoutByteOrderMark(std::string_view s);
// `s` with every control character (newline, CR, NUL, tab, ...) replaced by a space, as
// ibnetdiscover cleans node descriptions: a string from the fabric that goes into a line-based
// file must not be able to end or split its line.
QString withoutControlCharacters(QString s);
}  // namespace text

}  // namespace weft
