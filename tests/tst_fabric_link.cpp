// The fabric link (session/FabricLink.h): the session's MAD work one job at a time, in the order
// asked, on a thread of its own; counter passes giving way to commits and saying why; a job past
// its deadline reported; and stop() ending on time while a job stays stuck in the fabric, every
// queued caller told "stopped".

#include "FabricLink.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <condition_variable>
#include <mutex>
#include <numeric>
#include <thread>
#include <vector>

using namespace weft;
using namespace std::chrono_literals;
using Kind = FabricLink::Kind;

namespace {

// A job that blocks until the test opens it (the fabric not answering).
struct Latch
{
    std::mutex mutex;
    std::condition_variable opened;
    bool open = false;
    bool entered = false;

    void wait()
    {
        std::unique_lock<std::mutex> lock(mutex);
        entered = true;
        opened.notify_all();
        opened.wait(lock, [this] { return open; });
    }
    void release()
    {
        std::lock_guard<std::mutex> lock(mutex);
        open = true;
        opened.notify_all();
    }
    bool hasEntered()
    {
        std::lock_guard<std::mutex> lock(mutex);
        return entered;
    }
};

// Which jobs ran when, as the jobs themselves saw it.
struct Record
{
    std::mutex mutex;
    int active = 0;
    int mostActive = 0;
    std::vector<int> started;
    QThread *thread = nullptr;
    bool sameThread = true;

    void enter(int n)
    {
        std::lock_guard<std::mutex> lock(mutex);
        mostActive = std::max(mostActive, ++active);
        started.push_back(n);
        if (!thread)
            thread = QThread::currentThread();
        sameThread = sameThread && thread == QThread::currentThread();
    }
    void leave()
    {
        std::lock_guard<std::mutex> lock(mutex);
        --active;
    }
};

}  // namespace

class TestFabricLink : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void orderKeptOneAtATime()
    {
        FabricLink link;
        Record record;
        std::vector<int> delivered;
        bool deliveredHere = true;
        const Kind kinds[] = {Kind::Discovery, Kind::TableRead, Kind::SubnetCheck, Kind::Commit};
        constexpr int kJobs = 24;
        for (int n = 0; n < kJobs; ++n)
            link.submit(
                kinds[n % 4], QStringLiteral("job %1").arg(n), this,
                [&record, n](const FabricLink::Job &) {
                    record.enter(n);
                    std::this_thread::sleep_for(std::chrono::milliseconds(2 + (n * 7) % 11));
                    record.leave();
                    return n;
                },
                [&](Result<int> r) {
                    deliveredHere = deliveredHere && QThread::currentThread() == thread();
                    delivered.push_back(r ? *r : -1);
                });
        QTRY_COMPARE_WITH_TIMEOUT(int(delivered.size()), kJobs, 10000);
        QCOMPARE(record.mostActive, 1);
        QVERIFY(record.sameThread);
        QVERIFY(record.thread != thread());
        QVERIFY(deliveredHere);
        std::vector<int> asked(kJobs);
        std::iota(asked.begin(), asked.end(), 0);
        QCOMPARE(record.started, asked);
        QCOMPARE(delivered, asked);  // and the results came back in that order
        QVERIFY(link.isIdle());
    }

    void noOverlapBetweenThreadsAndTheOwner()
    {
        // Jobs asked for from other threads (the sampler's, the autopilot's tick) and from the
        // owner at once still run one at a time.
        FabricLink link;
        Record record;
        const auto work = [&record](int n) {
            return [&record, n](const FabricLink::Job &) {
                record.enter(n);
                std::this_thread::sleep_for(3ms);
                record.leave();
                return n;
            };
        };
        std::vector<std::thread> threads;
        std::atomic_int answered{0};
        const FabricLink::Caller caller = link.caller();
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&, t] {
                for (int i = 0; i < 10; ++i)
                    if (caller.call(Kind::TableRead, QStringLiteral("read"), work(t * 100 + i)))
                        ++answered;
            });
        int owned = 0;
        for (int i = 0; i < 10; ++i)
            link.submit(Kind::Discovery, QStringLiteral("discovery"), this, work(1000 + i), [&owned](Result<int> r) { owned += r ? 1 : 0; });
        for (std::thread &t : threads)
            t.join();
        QTRY_COMPARE(owned, 10);
        QCOMPARE(answered.load(), 40);
        QCOMPARE(record.mostActive, 1);
    }

    void counterPassSkippedWhileACommitRunsOrWaits()
    {
        FabricLink link;
        Latch discovery, commit;
        bool discovered = false, committed = false;
        link.submit(Kind::Discovery, QStringLiteral("rediscovery"), this, [&discovery](const FabricLink::Job &) { discovery.wait(); return true; },
                    [&discovered](Result<bool>) { discovered = true; });
        QTRY_VERIFY(discovery.hasEntered());
        // A pass asked for behind the discovery only: it runs.
        QVERIFY(link.skipReason(Kind::CounterPass).isEmpty());
        std::optional<Result<int>> passBeforeCommit;
        link.submit(Kind::CounterPass, QStringLiteral("pass 1"), this, [](const FabricLink::Job &) { return 1; },
                    [&passBeforeCommit](Result<int> r) { passBeforeCommit = r; });
        link.submit(Kind::Commit, QStringLiteral("plan p7 by alice"), this, [&commit](const FabricLink::Job &) { commit.wait(); return true; },
                    [&committed](Result<bool>) { committed = true; });
        // Now a commit waits: a pass asked for now is refused at once, saying so.
        const QString waiting = link.skipReason(Kind::CounterPass);
        QVERIFY2(waiting.contains(QStringLiteral("commit is waiting (plan p7 by alice)")), qPrintable(waiting));
        std::optional<Result<int>> passWhileWaiting;
        link.submit(Kind::CounterPass, QStringLiteral("pass 2"), this, [](const FabricLink::Job &) { return 2; },
                    [&passWhileWaiting](Result<int> r) { passWhileWaiting = r; });
        QVERIFY(!passWhileWaiting);  // never from inside submit
        QTRY_VERIFY(passWhileWaiting.has_value());
        QVERIFY(!*passWhileWaiting);
        QCOMPARE(FabricLink::refusalOf(passWhileWaiting->error()), FabricLink::Refusal::Skipped);
        QCOMPARE(passWhileWaiting->error().toString(), QStringLiteral("skipped: a commit is waiting (plan p7 by alice)"));

        discovery.release();
        QTRY_VERIFY(commit.hasEntered());
        QTRY_VERIFY(discovered);
        // The pass queued before the commit gave way to it when its turn came.
        QTRY_VERIFY(passBeforeCommit.has_value());
        QVERIFY(!*passBeforeCommit);
        QCOMPARE(FabricLink::refusalOf(passBeforeCommit->error()), FabricLink::Refusal::Skipped);
        // While the commit runs.
        QCOMPARE(link.skipReason(Kind::CounterPass), QStringLiteral("a commit is running (plan p7 by alice)"));
        const FabricLink::Caller caller = link.caller();
        Result<int> fromSampler = caller.call(Kind::CounterPass, QStringLiteral("pass 3"), [](const FabricLink::Job &) { return 3; });
        QVERIFY(!fromSampler);
        QCOMPARE(fromSampler.error().toString(), QStringLiteral("skipped: a commit is running (plan p7 by alice)"));
        // Other kinds are not skipped: they wait.
        QVERIFY(link.skipReason(Kind::Discovery).isEmpty());
        commit.release();
        QTRY_VERIFY(committed);
        Result<int> after = caller.call(Kind::CounterPass, QStringLiteral("pass 4"), [](const FabricLink::Job &) { return 4; });
        QVERIFY(after);
        QCOMPARE(*after, 4);
    }

    void deadlineOverrunReported()
    {
        FabricLink link;
        QSignalSpy overdue(&link, &FabricLink::overdue);
        bool sawOverdue = false;
        bool done = false;
        link.submit(
            Kind::Commit, QStringLiteral("plan p1"), this,
            [&sawOverdue](const FabricLink::Job &job) {
                std::this_thread::sleep_for(700ms);
                sawOverdue = job.overdue();
                return 0;
            },
            [&done](Result<int>) { done = true; }, 150ms);
        link.submit(Kind::Discovery, QStringLiteral("quick"), this, [](const FabricLink::Job &) { return 0; }, [](Result<int>) {}, 5s);
        QTRY_COMPARE_WITH_TIMEOUT(overdue.count(), 1, 3000);
        QCOMPARE(overdue.at(0).at(0).value<FabricLink::Kind>(), Kind::Commit);
        QCOMPARE(overdue.at(0).at(1).toString(), QStringLiteral("plan p1"));
        QVERIFY(overdue.at(0).at(2).toDouble() >= 0.14);
        const std::optional<FabricLink::Running> running = link.running();
        QVERIFY(running && running->overdue && running->kind == Kind::Commit);
        QTRY_VERIFY(done);
        QVERIFY(sawOverdue);
        QTRY_VERIFY(link.isIdle());
        QTest::qWait(100);
        QCOMPARE(overdue.count(), 1);  // once, and not for the job within its deadline
    }

    void stopReturnsWithinItsDeadlineWhileAJobBlocks()
    {
        auto link = std::make_unique<FabricLink>();
        auto stuck = std::make_shared<Latch>();
        std::atomic_bool stopAsked{false};
        link->submit(
            Kind::Commit, QStringLiteral("plan p3 by alice"), this,
            [stuck, &stopAsked](const FabricLink::Job &job) {
                stuck->wait();  // ignores its stop flag: the fabric does not answer
                stopAsked = job.stopRequested();
                return 0;
            },
            [](Result<int>) {});
        QTRY_VERIFY(stuck->hasEntered());
        std::vector<Result<int>> told;
        for (int n = 0; n < 3; ++n)
            link->submit(Kind::Discovery, QStringLiteral("discovery %1").arg(n), this, [](const FabricLink::Job &) { return 1; },
                         [&told](Result<int> r) { told.push_back(r); });
        // A thread waiting for its job is released too.
        std::optional<Result<int>> waited;
        std::thread waiter([&waited, caller = link->caller()] {
            waited = caller.call(Kind::TableRead, QStringLiteral("read"), [](const FabricLink::Job &) { return 1; });
        });
        QTRY_COMPARE(link->queuedJobs(), 4);

        QElapsedTimer clock;
        clock.start();
        QVERIFY(!link->stop(400ms));
        QVERIFY2(clock.elapsed() < 1000, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(link->leftRunning(), QStringLiteral("commit: plan p3 by alice"));
        // The callers of queued jobs were told, at once, on this thread.
        QCOMPARE(int(told.size()), 3);
        for (const Result<int> &r : told) {
            QVERIFY(!r);
            QCOMPARE(FabricLink::refusalOf(r.error()), FabricLink::Refusal::Stopped);
            QVERIFY2(r.error().toString().startsWith(QStringLiteral("stopped: the fabric link stopped before the discovery ran")),
                     qPrintable(r.error().toString()));
        }
        waiter.join();
        QVERIFY(waited && !*waited);
        QCOMPARE(FabricLink::refusalOf(waited->error()), FabricLink::Refusal::Stopped);

        // New work is refused, through the event loop.
        std::optional<Result<int>> late;
        link->submit(Kind::Discovery, QStringLiteral("late"), this, [](const FabricLink::Job &) { return 1; }, [&late](Result<int> r) { late = r; });
        QVERIFY(!late);
        QTRY_VERIFY(late.has_value());
        QCOMPARE(late->error().toString(), QStringLiteral("stopped: the fabric link is stopped: no discovery runs now"));

        // The link goes while its job is still stuck: neither waits for the other.
        clock.restart();
        link.reset();
        QVERIFY(clock.elapsed() < 1000);
        stuck->release();
        QTRY_VERIFY(stopAsked.load());
    }

    void stopEndsAJobThatListens()
    {
        FabricLink link;
        bool told = false;
        link.submit(
            Kind::Discovery, QStringLiteral("discovery"), this,
            [](const FabricLink::Job &job) {
                while (!job.stopRequested())
                    std::this_thread::sleep_for(5ms);
                return Result<int>(Error{{}, 0, QStringLiteral("cancelled")});
            },
            [&told](Result<int>) { told = true; });
        QTRY_VERIFY(!link.isIdle() && link.queuedJobs() == 0);
        QElapsedTimer clock;
        clock.start();
        QVERIFY(link.stop(5s));
        QVERIFY(clock.elapsed() < 1000);
        QVERIFY(link.leftRunning().isEmpty());
        QTRY_VERIFY(told);  // its own answer, delivered as usual
    }

    void cancelDropsAQueuedJob()
    {
        FabricLink link;
        Latch first;
        link.submit(Kind::Commit, QStringLiteral("c"), this, [&first](const FabricLink::Job &) { first.wait(); return 0; }, [](Result<int>) {});
        std::optional<Result<int>> cancelled;
        bool ran = false;
        const FabricLink::JobId id = link.submit(Kind::Discovery, QStringLiteral("d"), this, [&ran](const FabricLink::Job &) { ran = true; return 0; },
                                                 [&cancelled](Result<int> r) { cancelled = r; });
        QVERIFY(link.cancel(id));
        QVERIFY(!link.cancel(id));
        QTRY_VERIFY(cancelled.has_value());
        QCOMPARE(FabricLink::refusalOf(cancelled->error()), FabricLink::Refusal::Cancelled);
        first.release();
        QTRY_VERIFY(link.isIdle());
        QVERIFY(!ran);
    }

    void resultDroppedWhenTheCallerIsGone()
    {
        FabricLink link;
        auto context = std::make_unique<QObject>();
        Latch gate;
        bool called = false;
        link.submit(Kind::Discovery, QStringLiteral("d"), context.get(), [&gate](const FabricLink::Job &) { gate.wait(); return 0; },
                    [&called](Result<int>) { called = true; });
        QTRY_VERIFY(gate.hasEntered());
        context.reset();
        gate.release();
        QTRY_VERIFY(link.isIdle());
        QTest::qWait(50);
        QVERIFY(!called);
    }

    void aThrowingJobIsAnError()
    {
        FabricLink link;
        std::optional<Result<int>> got;
        link.submit(
            Kind::TableRead, QStringLiteral("t"), this,
            [](const FabricLink::Job &) -> int { throw std::runtime_error("umad went away"); }, [&got](Result<int> r) { got = r; });
        QTRY_VERIFY(got.has_value());
        QCOMPARE(got->error().toString(), QStringLiteral("failed: umad went away"));
        // The link goes on.
        QCOMPARE(*link.call(Kind::TableRead, QStringLiteral("t"), [](const FabricLink::Job &) { return 5; }), 5);
    }
};

QTEST_GUILESS_MAIN(TestFabricLink)
#include "tst_fabric_link.moc"
