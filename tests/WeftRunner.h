#pragma once
// Runs the `weft` executable under test (its path comes from WEFT_BINARY, set by CMake) as a
// user would, and keeps its exit code and both output streams.

#include <QByteArray>
#include <QProcess>
#include <QStringList>

namespace weft::test {

struct Run
{
    int exitCode = -1;  // -1: did not finish in time; -2: crashed (never acceptable)
    QByteArray out;
    QByteArray err;
};

inline Run runWeft(const QStringList &args, int timeoutMs = 300000)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::SeparateChannels);
    p.start(qEnvironmentVariable("WEFT_BINARY"), args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    if (p.exitStatus() != QProcess::NormalExit)
        return {-2, p.readAllStandardOutput(), p.readAllStandardError()};
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

} // namespace weft::test
