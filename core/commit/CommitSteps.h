#pragma once
// What every stage of a commit reports through: one line per step, in the commit's report and to
// the front end as it happens, and the time each stage took (CommitReport::stageTimes). Internal
// to the commit (Commit.cpp and its stages); front ends read the report.

#include "Commit.h"

#include <QElapsedTimer>
#include <QString>

#include <functional>

namespace weft {

class CommitSteps
{
public:
    CommitSteps(CommitReport &report, std::function<void(const QString &)> progress);

    void step(const QString &text);
    // A step that the report keeps among its warnings as well, in the same words.
    void stepAndWarn(const QString &text);

    // Stages are timed from here; each lap closes the stage that ran since the last one.
    void startClock();
    void lap(const QString &stage, CommitStageTime::Kind kind);

private:
    CommitReport &m_report;
    std::function<void(const QString &)> m_progress;
    QElapsedTimer m_clock;
    qint64 m_lapStart = 0;
};

// For the tests of crash safety only: WEFT_COMMIT_TEST_STOP_AT=STEP kills this process at that
// step (SIGKILL: no handler, no cleanup), WEFT_COMMIT_TEST_PAUSE_AT=STEP stops it (SIGSTOP) until
// it is continued or killed. Steps: after-write, after-sighup, during-verify.
void commitTestStop(const char *stepName);

}  // namespace weft
