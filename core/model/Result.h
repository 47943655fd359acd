#pragma once
// Errors a user can cause (bad files, unknown GUIDs, impossible requests) are values, not
// crashes: every reader returns Result<T>, and front ends print Error::toString().

#include <QString>

#include <optional>
#include <utility>
#include <variant>

namespace weft {

struct Error
{
    QString file;  // empty when the input did not come from a file
    int line = 0;  // 1-based; 0 when the error is not tied to a line
    QString message;

    // "file:line: message", the form compilers use, so editors can jump to it.
    QString toString() const
    {
        QString where = file;
        if (line > 0)
            where += (where.isEmpty() ? QStringLiteral("line %1").arg(line)
                                      : QStringLiteral(":%1").arg(line));
        return where.isEmpty() ? message : where + QStringLiteral(": ") + message;
    }
};

// Thrown inside a reader and caught at its public boundary, which turns it into Result.
// Never escapes core/.
struct InputError
{
    int line = 0;
    QString message;
};

template <class T>
class Result
{
public:
    Result(T value) : m_state(std::move(value)) {}
    Result(Error error) : m_state(std::move(error)) {}

    bool ok() const { return std::holds_alternative<T>(m_state); }
    explicit operator bool() const { return ok(); }

    T &value() & { return std::get<T>(m_state); }
    const T &value() const & { return std::get<T>(m_state); }
    T &&value() && { return std::get<T>(std::move(m_state)); }
    T *operator->() { return &value(); }
    const T *operator->() const { return &value(); }
    T &operator*() { return value(); }
    const T &operator*() const { return value(); }

    const Error &error() const { return std::get<Error>(m_state); }

private:
    std::variant<T, Error> m_state;
};

// For operations that produce nothing but can fail.
struct Done
{
};
using Status = Result<Done>;

}  // namespace weft
