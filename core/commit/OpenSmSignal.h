#pragma once
// The OpenSM a commit talks to, and how it is told to load its files. The process is known by its
// pid and when it started, so that a pid given to another process later is not taken for it;
// when a supervisor restarts OpenSM while the commit runs, the new process (named by the pid
// file) is followed from then on, and the report says so. A reload is a SIGHUP, and with
// OpenSM's log the end of the sweep it starts ("SUBNET UP") is waited for; without the log the
// read-back that follows (CommitVerification.h) has to poll.

#include "Commit.h"

#include <QDateTime>
#include <QDeadlineTimer>
#include <QString>

class QFile;

namespace weft {

class CommitSteps;

class OpenSmSignal
{
public:
    // `backend.isRunning` and `backend.reload` must be set.
    OpenSmSignal(const CommitTarget &target, const CommitBackend &backend, CommitSteps &steps);

    void adopt(qint64 pid);
    qint64 pid() const { return m_pid; }

    // Whether OpenSM runs: the process adopted or, when that one is gone, the one its pid file
    // names now (a supervisor restarted it, on the files as they are), adopted in its place.
    bool runs();

    struct Sweep
    {
        QString failure;          // empty: OpenSM took the SIGHUP (and, with its log, swept)
        QDeadlineTimer deadline;  // the commit's timeout, from the SIGHUP on: the read-back's too
        bool seen = false;        // the sweep's end was read in the log: one read-back decides
    };
    // Sends SIGHUP and, with OpenSM's log, waits for the sweep it starts. `timed`: the commit's
    // own reload, whose sweep is a stage of its timing and a step of the crash tests (a
    // rollback's or a recovery's is neither).
    Sweep reload(int timeoutMs, bool timed);

    // While waiting for the sweep: SIGHUP again after this long without its end, or at once when
    // the log says the sweep ended in errors; OpenSM is asked at most kMaxAsks times a reload.
    static constexpr int kAskAgainMs = 10000;
    static constexpr int kMaxAsks = 4;

private:
    bool sameOpenSm(qint64 pid) const;
    static bool sweptSinceItStarted(QFile &log, qint64 from);

    const CommitTarget &m_target;
    const CommitBackend &m_backend;
    CommitSteps &m_steps;
    qint64 m_pid = 0;
    quint64 m_pidStart = 0;    // its start time (processStartTime), 0 where it cannot be read
    QDateTime m_pidFileStamp;  // when the pid file it came from was last written
    bool m_restarted = false;  // OpenSM was restarted while the commit ran (runs() adopted a new one)
};

}  // namespace weft
