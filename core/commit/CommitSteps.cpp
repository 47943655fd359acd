#include "CommitSteps.h"

#include <csignal>

namespace weft {

CommitSteps::CommitSteps(CommitReport &report, std::function<void(const QString &)> progress)
    : m_report(report), m_progress(std::move(progress))
{
}

void CommitSteps::step(const QString &text)
{
    m_report.steps << text;
    if (m_progress)
        m_progress(text);
}

void CommitSteps::stepAndWarn(const QString &text)
{
    step(text);
    m_report.warnings << text;
}

void CommitSteps::startClock()
{
    m_clock.start();
    m_lapStart = 0;
}

void CommitSteps::lap(const QString &stage, CommitStageTime::Kind kind)
{
    const qint64 now = m_clock.nsecsElapsed();
    m_report.stageTimes.push_back({stage, double(now - m_lapStart) / 1e9, kind});
    m_lapStart = now;
}

void commitTestStop(const char *stepName)
{
    if (qEnvironmentVariable("WEFT_COMMIT_TEST_PAUSE_AT") == QLatin1String(stepName))
        ::raise(SIGSTOP);
    if (qEnvironmentVariable("WEFT_COMMIT_TEST_STOP_AT") == QLatin1String(stepName))
        ::raise(SIGKILL);
}

}  // namespace weft
