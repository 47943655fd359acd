#pragma once
// Small readers the lab tests share: a file's bytes, a client run in words, and the P_Keys in
// the real `smpquery pkeys` output.

#include "SimulatedFabric.h"

#include <QByteArray>
#include <QFile>
#include <QRegularExpression>
#include <QString>

#include <set>

namespace weft::test {

// The whole file, or nothing when it cannot be read.
inline QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// A simulator client's run, for a failure message.
inline QString describe(const Result<SimulatedFabric::ClientResult> &run)
{
    if (!run)
        return run.error().toString();
    return QStringLiteral("exit %1\n%2\n%3").arg(run->exitCode).arg(QString::fromUtf8(run->out), QString::fromUtf8(run->err));
}

// P_Keys (membership bit kept) in a `smpquery pkeys` listing: "   0: 0xffff 0x8001 ..." rows.
inline std::set<int> smpqueryPKeys(const QByteArray &output)
{
    std::set<int> pkeys;
    static const QRegularExpression row(QStringLiteral("^\\s*\\d+:((?:\\s+0x[0-9a-f]{4})+)\\s*$"));
    for (const QByteArray &raw : output.split('\n')) {
        const auto m = row.match(QString::fromUtf8(raw));
        if (!m.hasMatch())
            continue;
        for (const QString &value : m.captured(1).split(QLatin1Char(' '), Qt::SkipEmptyParts))
            if (const int pkey = value.toInt(nullptr, 16); pkey & 0x7fff)
                pkeys.insert(pkey);
    }
    return pkeys;
}

} // namespace weft::test
