#include "OpenSmSignal.h"

#include "CommitSteps.h"

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QThread>

#include <algorithm>

namespace weft {

OpenSmSignal::OpenSmSignal(const CommitTarget &target, const CommitBackend &backend, CommitSteps &steps)
    : m_target(target), m_backend(backend), m_steps(steps)
{
}

void OpenSmSignal::adopt(qint64 pid)
{
    m_pid = pid;
    m_pidStart = processStartTime(pid);
    m_pidFileStamp = QFileInfo(m_target.pidFile).lastModified();
}

bool OpenSmSignal::sameOpenSm(qint64 pid) const
{
    return m_backend.isRunning(pid) && (m_pidStart == 0 || processStartTime(pid) == m_pidStart);
}

bool OpenSmSignal::runs()
{
    if (sameOpenSm(m_pid))
        return true;
    const Result<qint64> now = readPidFile(m_target.pidFile);
    if (!now || !m_backend.isRunning(*now))
        return false;
    // The same number in a pid file nobody rewrote is another process given OpenSM's pid.
    if (*now == m_pid && QFileInfo(m_target.pidFile).lastModified() == m_pidFileStamp)
        return false;
    const QString restarted = *now == m_pid
        ? QStringLiteral("OpenSM was restarted while the commit ran: a new process with pid %1 (from %2) runs").arg(*now).arg(m_target.pidFile)
        : QStringLiteral("OpenSM was restarted while the commit ran: pid %1 is gone, pid %2 (from %3) runs")
              .arg(m_pid)
              .arg(*now)
              .arg(m_target.pidFile);
    m_steps.stepAndWarn(restarted);
    adopt(*now);
    m_restarted = true;
    return true;
}

OpenSmSignal::Sweep OpenSmSignal::reload(int timeoutMs, bool timed)
{
    Sweep sweep;
    sweep.seen = !m_target.logPath.isEmpty();
    qint64 logOffset = m_target.logPath.isEmpty() ? 0 : QFileInfo(m_target.logPath).size();
    // The log's first bytes: a restarted OpenSM that starts its log afresh is told by them
    // changing, even once the new log has grown past where the old one was.
    QByteArray logHead;
    if (QFile log(m_target.logPath); !m_target.logPath.isEmpty() && log.open(QIODevice::ReadOnly))
        logHead = log.read(4096);
    if (!runs()) {
        sweep.failure = QStringLiteral("OpenSM (pid %1) is no longer running").arg(m_pid);
        return sweep;
    }
    // An OpenSM restarted before the SIGHUP sweeps for it like any other; one restarted
    // after it is waited for by its own first sweep.
    const bool restartedBefore = m_restarted;
    const Status hup = m_backend.reload(m_pid);
    if (!hup) {
        sweep.failure = hup.error().toString();
        return sweep;
    }
    m_steps.step(QStringLiteral("sent SIGHUP to OpenSM (pid %1); waiting for its sweep").arg(m_pid));
    if (timed)
        commitTestStop("after-sighup");
    sweep.deadline = QDeadlineTimer(timeoutMs);
    if (!sweep.seen)
        return sweep;
    // A SIGHUP only asks for a heavy sweep. One that met OpenSM as its first sweeps and the
    // standby's trap settled was seen to start none (the log silent for minutes after it), and a
    // sweep can end in errors (a MAD lost) without loading anything: then OpenSM is asked again,
    // each time the log shows the errors or a while passes without the sweep's end.
    QDeadlineTimer nextAsk(kAskAgainMs);
    int asked = 1;
    while (true) {
        if (!runs()) {
            sweep.failure = QStringLiteral("OpenSM (pid %1) stopped during its sweep").arg(m_pid);
            return sweep;
        }
        QFile log(m_target.logPath);
        // A restarted OpenSM may have started its log afresh: then it is read from its start.
        if (log.open(QIODevice::ReadOnly) && logOffset > 0 && (log.size() < logOffset || log.read(logHead.size()) != logHead))
            logOffset = 0;
        if (log.isOpen()
            && (m_restarted && !restartedBefore ? sweptSinceItStarted(log, logOffset)
                                                : (log.seek(logOffset) && log.readAll().contains("SUBNET UP"))))
            break;
        if (sweep.deadline.hasExpired()) {
            sweep.failure = QStringLiteral("OpenSM did not finish its sweep within %1 s (asked %2 time(s))").arg(timeoutMs / 1000.0).arg(asked);
            return sweep;
        }
        const bool failedSweep = log.isOpen() && log.seek(logOffset) && log.readAll().contains("ERRORS DURING INITIALIZATION");
        if ((failedSweep || nextAsk.hasExpired()) && asked < kMaxAsks) {
            // Past what was read: the next sweep's end is looked for after this point.
            logOffset = log.isOpen() ? log.size() : logOffset;
            const Status again = m_backend.reload(m_pid);
            if (!again) {
                sweep.failure = again.error().toString();
                return sweep;
            }
            ++asked;
            m_steps.step(failedSweep ? QStringLiteral("OpenSM's sweep ended in errors; sent SIGHUP again (pid %1)").arg(m_pid)
                                     : QStringLiteral("OpenSM has not swept %1 s after the SIGHUP; sent it again (pid %2)")
                                           .arg(kAskAgainMs / 1000)
                                           .arg(m_pid));
            nextAsk = QDeadlineTimer(kAskAgainMs);
        }
        QThread::msleep(100);
    }
    m_steps.step(QStringLiteral("OpenSM finished its sweep"));
    if (timed)
        m_steps.lap(QStringLiteral("OpenSM load and sweep"), CommitStageTime::Kind::OpenSm);
    return sweep;
}

// A restarted OpenSM loads the files as they are when it starts: its first sweep is the one
// to wait for, found after the last line with which an OpenSM starts its log ("OpenSM 3.3.23")
// written since `from` (where the log was at the SIGHUP; 0 when the new one erased it). The
// old OpenSM's start and sweeps before `from` do not count: a loaded machine may adopt the
// new process before it has written a line.
bool OpenSmSignal::sweptSinceItStarted(QFile &log, qint64 from)
{
    const qint64 window = qint64(16) << 20;
    if (!log.seek(std::max(from, log.size() - window)))
        return false;
    const QByteArray text = log.readAll();
    static const QRegularExpression start(QStringLiteral("-> OpenSM \\d"));
    qsizetype lastStart = -1;
    for (auto it = start.globalMatch(QString::fromLatin1(text)); it.hasNext();)
        lastStart = it.next().capturedStart();
    return lastStart >= 0 && text.indexOf("SUBNET UP", lastStart) >= 0;
}

}  // namespace weft
