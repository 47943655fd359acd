// The scheduling of many GMPs in flight (GmpPipeline), over a transport that answers, loses,
// delays and duplicates as told: every request completes exactly once, with its own answer;
// losses are resent and shrink the window; the limits in all and per destination hold. The real
// transport (libibumad on ibsim) is tested by tst_lab_monitor's adaptive pass.

#include "GmpPipeline.h"

#include <QTest>

#include <chrono>
#include <deque>
#include <map>
#include <thread>

using namespace weft;

namespace {

enum class Fate { Answer,
                  Duplicate,
                  GiveBack,
                  Silent,
                  Late,
                  Refuse };

// Answers each request by echoing its data (so that a mismatched TID shows), as `fate` says
// for the request's job (data bytes 0..3) and attempt.
class ScriptedTransport final : public GmpTransport
{
public:
    std::function<Fate(std::uint32_t job, int attempt)> fate = [](std::uint32_t, int) { return Fate::Answer; };
    int inFlight = 0;  // as seen here: sent, not yet answered or given back
    int peakInFlight = 0;
    std::map<Lid, int> inFlightAt;
    int peakAtOneDestination = 0;
    std::vector<int> inFlightAtSend;  // inFlight just before each send

    bool send(const GmpRequest &request, std::uint32_t tid, int) override
    {
        const std::uint32_t job = jobOf(request);
        const int attempt = ++m_attempts[job];
        inFlightAtSend.push_back(inFlight);
        GmpEvent answer;
        answer.kind = GmpEvent::Kind::Answer;
        answer.tid = tid;
        answer.data = request.data;
        switch (fate(job, attempt)) {
        case Fate::Answer:
            deliver(answer, request.lid);
            break;
        case Fate::Refuse:
            answer.madStatus = 0x0c;  // unsupported attribute
            deliver(answer, request.lid);
            break;
        case Fate::Duplicate:
            deliver(answer, request.lid);
            m_events.push_back({answer, 0, false});
            break;
        case Fate::GiveBack: {
            GmpEvent lost;
            lost.kind = GmpEvent::Kind::Lost;
            lost.tid = tid;
            deliver(lost, request.lid);
            break;
        }
        case Fate::Silent:
            break;
        case Fate::Late:
            m_late.push_back({answer, request.lid, false});  // the loss was taken in by then
            break;
        }
        ++inFlight;
        peakInFlight = std::max(peakInFlight, inFlight);
        peakAtOneDestination = std::max(peakAtOneDestination, ++inFlightAt[request.lid]);
        return true;
    }

    GmpEvent wait(int waitMs) override
    {
        // Answers come in a scrambled order: the last queued first every third time.
        if (!m_events.empty()) {
            Pending next;
            if (++m_waits % 3 == 0) {
                next = m_events.back();
                m_events.pop_back();
            } else {
                next = m_events.front();
                m_events.pop_front();
            }
            if (next.counted) {
                --inFlight;
                --inFlightAt[next.lid];
            }
            return next.event;
        }
        // A late answer comes once its request has been sent again.
        for (auto it = m_late.begin(); it != m_late.end(); ++it) {
            if (m_attempts[jobOf(it->event.data)] >= 2) {
                const Pending late = *it;
                m_late.erase(it);
                return late.event;
            }
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(waitMs));
        return {};
    }

    std::uint32_t nextTid() override { return ++m_tid; }
    std::size_t undelivered() const { return m_events.size() + m_late.size(); }

    static std::uint32_t jobOf(const std::array<std::uint8_t, 192> &data)
    {
        return std::uint32_t(data[0]) | std::uint32_t(data[1]) << 8 | std::uint32_t(data[2]) << 16;
    }
    static std::uint32_t jobOf(const GmpRequest &request) { return jobOf(request.data); }

private:
    struct Pending
    {
        GmpEvent event;
        Lid lid = 0;
        bool counted = true;
    };
    void deliver(const GmpEvent &event, Lid lid) { m_events.push_back({event, lid, true}); }
    std::deque<Pending> m_events;
    std::deque<Pending> m_late;
    std::map<std::uint32_t, int> m_attempts;
    std::uint32_t m_tid = 1000;
    int m_waits = 0;
};

GmpRequest requestFor(std::uint32_t job, Lid lid)
{
    GmpRequest request;
    request.lid = lid;
    request.attribute = 0x12;
    request.method = 1;
    request.data[0] = std::uint8_t(job);
    request.data[1] = std::uint8_t(job >> 8);
    request.data[2] = std::uint8_t(job >> 16);
    return request;
}

struct Outcome
{
    std::vector<int> answers;   // per job: how often answered
    std::vector<int> failures;  // per job: how often failed
    std::vector<int> refusals;  // per job: answers with a MAD status
    bool finished = false;
};

// `jobs` requests over `destinations` (job j to destination j % destinations, LID 1 + that).
Outcome runJobs(ScriptedTransport &transport, GmpPipeline &pipeline, std::uint32_t jobs, int destinations)
{
    Outcome outcome;
    outcome.answers.assign(jobs, 0);
    outcome.failures.assign(jobs, 0);
    outcome.refusals.assign(jobs, 0);
    pipeline.onAnswer([&](std::uint64_t tag, const GmpEvent &answer) {
        // The answer is the one to this request: the transport echoes the request's data.
        if (ScriptedTransport::jobOf(answer.data) != tag)
            QFAIL(qPrintable(QStringLiteral("job %1 got the answer of job %2").arg(tag).arg(ScriptedTransport::jobOf(answer.data))));
        ++outcome.answers[tag];
        if (answer.madStatus != 0)
            ++outcome.refusals[tag];
    });
    pipeline.onFailure([&](std::uint64_t tag) { ++outcome.failures[tag]; });
    for (std::uint32_t j = 0; j < jobs; ++j)
        pipeline.submit(int(j % std::uint32_t(destinations)), requestFor(j, Lid(1 + j % std::uint32_t(destinations))), j);
    outcome.finished = pipeline.run();
    Q_UNUSED(transport);
    return outcome;
}

GmpPipelineOptions quickOptions(int maxInFlight = 64)
{
    GmpPipelineOptions options;
    options.maxInFlight = maxInFlight;
    options.initialWindow = 4;
    options.perDestination = 4;
    options.timeoutMs = 5;
    options.retries = 3;
    return options;
}

}  // namespace

class TestGmpPipeline : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyRequestOnceWithinTheLimits_data()
    {
        QTest::addColumn<int>("maxInFlight");
        QTest::addColumn<int>("destinations");
        QTest::addRow("64 in flight, 50 destinations") << 64 << 50;
        QTest::addRow("one at a time") << 1 << 7;
        QTest::addRow("one destination") << 64 << 1;
        QTest::addRow("more than the window of destinations") << 16 << 400;
    }
    void everyRequestOnceWithinTheLimits()
    {
        QFETCH(int, maxInFlight);
        QFETCH(int, destinations);
        ScriptedTransport transport;
        GmpPipeline pipeline(transport, quickOptions(maxInFlight), destinations);
        const Outcome outcome = runJobs(transport, pipeline, 2000, destinations);
        QVERIFY(outcome.finished);
        for (std::uint32_t j = 0; j < 2000; ++j) {
            QCOMPARE(outcome.answers[j], 1);
            QCOMPARE(outcome.failures[j], 0);
        }
        QCOMPARE(pipeline.stats().sent, std::size_t(2000));
        QCOMPARE(pipeline.stats().answered, std::size_t(2000));
        QCOMPARE(pipeline.stats().timeouts, std::size_t(0));
        QVERIFY(transport.peakInFlight <= maxInFlight);
        QCOMPARE(pipeline.stats().peakInFlight, transport.peakInFlight);
        QVERIFY(transport.peakAtOneDestination <= 4);
        // Without losses the window opens to the ceiling (or as far as the destinations allow).
        QCOMPARE(transport.peakInFlight, std::min(maxInFlight, 4 * destinations));
    }

    void aLossHalvesTheWindowAndIsResent()
    {
        ScriptedTransport transport;
        // The 600th request is given back once (all others answered): the window is at its
        // ceiling by then, and must be at most half of it for the sends after the loss came in.
        std::uint32_t lossJob = 0;
        int sends = 0;
        transport.fate = [&](std::uint32_t job, int attempt) {
            if (++sends == 600 && attempt == 1) {
                lossJob = job;
                return Fate::GiveBack;
            }
            return Fate::Answer;
        };
        GmpPipeline pipeline(transport, quickOptions(64), 100);
        const Outcome outcome = runJobs(transport, pipeline, 3000, 100);
        QVERIFY(outcome.finished);
        QCOMPARE(outcome.answers[lossJob], 1);
        QCOMPARE(std::count(outcome.answers.begin(), outcome.answers.end(), 1), 3000);
        QCOMPARE(pipeline.stats().timeouts, std::size_t(1));
        QCOMPARE(pipeline.stats().resent, std::size_t(1));
        QCOMPARE(pipeline.stats().sent, std::size_t(3001));
        QCOMPARE(transport.peakInFlight, 64);
        // Right after the loss was taken in (within the window's worth of sends that follow),
        // the in-flight count drops to half the ceiling; then it grows again, one per window.
        int lowestAfter = 64;
        for (std::size_t i = 600; i < 700 && i < transport.inFlightAtSend.size(); ++i)
            lowestAfter = std::min(lowestAfter, transport.inFlightAtSend[i]);
        QVERIFY2(lowestAfter <= 32, qPrintable(QString::number(lowestAfter)));
    }

    // With overdueAfterMs, requests lost on the way stop holding the window once overdue: the
    // others go on past the window's ceiling (never past 16 ceilings), and the lost ones are
    // still resent at their deadline, each job answered once. Without it, the ceiling holds.
    void overdueRequestsDoNotHoldTheWindow_data()
    {
        QTest::addColumn<int>("overdueAfterMs");
        QTest::addRow("off") << 0;
        QTest::addRow("after 1 ms") << 1;
    }
    void overdueRequestsDoNotHoldTheWindow()
    {
        QFETCH(int, overdueAfterMs);
        ScriptedTransport transport;
        transport.fate = [](std::uint32_t job, int attempt) { return job % 500 == 3 && attempt == 1 ? Fate::Silent : Fate::Answer; };
        GmpPipelineOptions options = quickOptions(8);
        options.timeoutMs = 100;
        options.overdueAfterMs = overdueAfterMs;
        GmpPipeline pipeline(transport, options, 200);
        const Outcome outcome = runJobs(transport, pipeline, 20000, 200);
        QVERIFY(outcome.finished);
        QCOMPARE(std::count(outcome.answers.begin(), outcome.answers.end(), 1), 20000);
        QCOMPARE(pipeline.stats().timeouts, std::size_t(40));
        QCOMPARE(pipeline.stats().resent, std::size_t(40));
        QCOMPARE(pipeline.stats().failed, std::size_t(0));
        // (The transport cannot count here: silent requests never leave its count.)
        const int peak = pipeline.stats().peakInFlight;
        QVERIFY(peak <= 16 * 8);
        if (overdueAfterMs == 0)
            QVERIFY(peak <= 8);
        else
            QVERIFY2(peak > 8, qPrintable(QString::number(peak)));
    }

    void silenceRunsIntoTheDeadlineAndIsResent()
    {
        ScriptedTransport transport;
        transport.fate = [](std::uint32_t job, int attempt) { return job % 50 == 7 && attempt <= 2 ? Fate::Silent : Fate::Answer; };
        GmpPipeline pipeline(transport, quickOptions(), 20);
        const Outcome outcome = runJobs(transport, pipeline, 500, 20);
        QVERIFY(outcome.finished);
        QCOMPARE(std::count(outcome.answers.begin(), outcome.answers.end(), 1), 500);
        QCOMPARE(pipeline.stats().timeouts, std::size_t(20));  // 10 jobs, twice each
        QCOMPARE(pipeline.stats().resent, std::size_t(20));
        QCOMPARE(pipeline.stats().failed, std::size_t(0));
    }

    void lateAndDuplicatedAnswersCountOnce()
    {
        ScriptedTransport transport;
        transport.fate = [](std::uint32_t job, int attempt) {
            if (job % 40 == 3 && attempt == 1)
                return Fate::Late;  // answered after it was sent again: two answers
            if (job % 40 == 9)
                return Fate::Duplicate;
            return Fate::Answer;
        };
        GmpPipeline pipeline(transport, quickOptions(), 10);
        const Outcome outcome = runJobs(transport, pipeline, 400, 10);
        QVERIFY(outcome.finished);
        QCOMPARE(std::count(outcome.answers.begin(), outcome.answers.end(), 1), 400);
        // 10 late and 10 duplicated answers, those that came before the run ended dropped.
        QCOMPARE(pipeline.stats().strayAnswers + transport.undelivered(), std::size_t(20));
        QVERIFY(pipeline.stats().strayAnswers >= 10);
        QCOMPARE(pipeline.stats().resent, std::size_t(10));
        QCOMPARE(pipeline.stats().answered, std::size_t(400));
    }

    void exhaustedRetriesFailOnce()
    {
        ScriptedTransport transport;
        // Destination 3 (LID 4) never answers: lost three times, then silent.
        transport.fate = [](std::uint32_t job, int attempt) {
            if (job % 8 != 3)
                return Fate::Answer;
            return attempt % 2 ? Fate::GiveBack : Fate::Silent;
        };
        GmpPipeline pipeline(transport, quickOptions(), 8);
        Outcome outcome;
        int dropped = 0;
        outcome.answers.assign(160, 0);
        outcome.failures.assign(160, 0);
        pipeline.onAnswer([&](std::uint64_t tag, const GmpEvent &) { ++outcome.answers[tag]; });
        // As the port-counter reader does: the first request that fails takes its destination's
        // queue with it.
        pipeline.onFailure([&](std::uint64_t tag) {
            ++outcome.failures[tag];
            dropped += int(pipeline.dropQueued(int(tag % 8)));
        });
        for (std::uint32_t j = 0; j < 160; ++j)
            pipeline.submit(int(j % 8), requestFor(j, Lid(1 + j % 8)), j);
        QVERIFY(pipeline.run());
        int failed = 0;
        for (std::uint32_t j = 0; j < 160; ++j) {
            if (j % 8 == 3) {
                QCOMPARE(outcome.answers[j], 0);
                failed += outcome.failures[j];
                QVERIFY(outcome.failures[j] <= 1);
            } else {
                QCOMPARE(outcome.answers[j], 1);
                QCOMPARE(outcome.failures[j], 0);
            }
        }
        // Those in flight when the first failed fail too; the rest were dropped unsent.
        QVERIFY(failed >= 1 && failed <= 4);
        QCOMPARE(failed + dropped, 20);
        QCOMPARE(pipeline.stats().failed, std::size_t(failed));
        QVERIFY(pipeline.stats().sent >= std::size_t(140 + 4 * failed));  // a failed one was sent 1 + 3 times
    }

    void aRefusalIsAnAnswer()
    {
        ScriptedTransport transport;
        transport.fate = [](std::uint32_t job, int) { return job == 5 ? Fate::Refuse : Fate::Answer; };
        GmpPipeline pipeline(transport, quickOptions(), 4);
        const Outcome outcome = runJobs(transport, pipeline, 40, 4);
        QCOMPARE(outcome.answers[5], 1);
        QCOMPARE(outcome.refusals[5], 1);
        QCOMPARE(pipeline.stats().resent, std::size_t(0));
    }

    void stopsWhenAsked()
    {
        ScriptedTransport transport;
        transport.fate = [](std::uint32_t, int) { return Fate::Silent; };
        GmpPipeline pipeline(transport, quickOptions(), 2);
        for (std::uint32_t j = 0; j < 10; ++j)
            pipeline.submit(int(j % 2), requestFor(j, 1), j);
        int asked = 0;
        QVERIFY(!pipeline.run([&] { return ++asked < 3; }));
        QCOMPARE(asked, 3);
    }
};

QTEST_GUILESS_MAIN(TestGmpPipeline)
#include "tst_gmp_pipeline.moc"
