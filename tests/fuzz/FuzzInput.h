#pragma once
// What every fuzz target shares: the input as a QByteArray (no copy), and the check that what a
// reader accepted, Weft writes in a form its own reader accepts again, with the same content.

#include <QByteArray>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace weft::fuzz {

inline QByteArray input(const std::uint8_t *data, std::size_t size)
{
    return QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size));
}

// A property broken: say which, and stop the fuzzer (it saves the input that did it).
[[noreturn]] inline void broken(const char *what)
{
    std::fprintf(stderr, "fuzz: %s\n", what);
    std::abort();
}

}  // namespace weft::fuzz
