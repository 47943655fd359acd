#include "TelemetrySampler.h"

#include "LiveFabric.h"
#include "PortCounterReader.h"
#include "TelemetryHistory.h"

#include <QThread>
#include <QTimer>

#include <algorithm>
#include <optional>

namespace weft {

namespace {

// The reader and the fabric it addresses, shared with the pass running on the link (which may
// outlive the worker that asked for it, when the worker stopped waiting).
struct CounterPassReader
{
    std::shared_ptr<const Fabric> fabric;
    // The stop flag of the pass under way, for the reader's progress to cancel it.
    std::atomic<const std::atomic_bool *> stop{nullptr};
    std::unique_ptr<PortCounterReader> reader;
};

}  // namespace

// Lives on the sampler's thread: the previous pass and the history (a Qt SQL connection belongs
// to the thread that made it) never leave it. The reader is used by passes on the fabric link
// alone, one at a time.
class TelemetrySamplerWorker : public QObject
{
public:
    TelemetrySamplerWorker(TelemetrySampler *sampler, quint64 generation, std::shared_ptr<const Fabric> fabric,
                           LiveOptions options, QString historyPath, double interval, bool clearCounters,
                           TelemetrySampler::Source source, FabricLink::Caller link, std::shared_ptr<std::atomic_bool> giveUp)
        : m_sampler(sampler), m_generation(generation), m_fabric(std::move(fabric)), m_options(std::move(options)),
          m_historyPath(std::move(historyPath)), m_interval(interval), m_clearCounters(clearCounters),
          m_source(std::move(source)), m_link(std::move(link)), m_giveUp(std::move(giveUp))
    {
    }

    void begin()
    {
        if (!m_historyPath.isEmpty()) {
            Result<std::unique_ptr<TelemetryHistory>> opened = TelemetryHistory::open(m_historyPath, fabricHistoryId(*m_fabric));
            if (!opened)
                return fail(opened.error().toString());
            m_history = std::move(*opened);
        }
        if (!m_source) {
            m_reader = std::make_shared<CounterPassReader>();
            m_reader->fabric = m_fabric;
            LiveOptions options = m_options;
            options.progress = [reader = m_reader.get()](int, int) {
                const std::atomic_bool *stop = reader->stop.load();
                return !(stop && stop->load());
            };
            m_reader->reader = std::make_unique<PortCounterReader>(*m_fabric, options);
            m_reader->reader->setClearCounters(m_clearCounters);
            readPass();  // primes the counters (a pass skipped: the next one will)
            if (m_failed)
                return;
        }
        auto *timer = new QTimer(this);
        connect(timer, &QTimer::timeout, this, [this] { tick(); });
        timer->start(int(m_interval * 1000));
    }

private:
    void tick()
    {
        if (m_failed)
            return;
        if (m_source)
            return tickFromSource();
        std::optional<PortCounterPass> pass = readPass();
        if (!pass)
            return;
        std::vector<TelemetryRecord> records = telemetryRecords(*m_fabric, m_reader->reader->ports(), m_previous->samples,
                                                                m_previous->readAt, pass->samples, pass->readAt,
                                                                pass->wallTime);
        std::vector<NodeIndex> silent = pass->silentNodes;
        m_previous = std::move(pass);
        deliver(std::move(records), std::move(silent));
    }

    // One pass through the fabric link, kept as the previous one when there was none. Nothing
    // when the link skipped it (said to the sampler), when the sampler stopped waiting, or on an
    // error (the sampler fails).
    std::optional<PortCounterPass> readPass()
    {
        const std::shared_ptr<CounterPassReader> reader = m_reader;
        Result<PortCounterPass> pass = m_link.call(
            FabricLink::Kind::CounterPass, QStringLiteral("port counters"),
            [reader](const FabricLink::Job &job) {
                reader->stop = job.stopFlag();
                Result<PortCounterPass> read = reader->reader->read();
                reader->stop = nullptr;
                return read;
            },
            m_giveUp.get());
        if (!pass) {
            switch (FabricLink::refusalOf(pass.error())) {
            case FabricLink::Refusal::Skipped: skipped(QStringLiteral("counter pass %1").arg(pass.error().toString())); break;
            case FabricLink::Refusal::Cancelled: break;  // this worker is ending
            default: fail(pass.error().toString()); break;
            }
            return std::nullopt;
        }
        if (!m_previous) {
            m_previous = std::move(*pass);
            return std::nullopt;
        }
        return std::move(*pass);
    }

    void skipped(const QString &reason)
    {
        const quint64 generation = m_generation;
        TelemetrySampler *sampler = m_sampler;
        QMetaObject::invokeMethod(
            m_sampler, [sampler, generation, reason] { sampler->skippedOf(generation, reason); }, Qt::QueuedConnection);
    }

    void tickFromSource()
    {
        Result<std::vector<TelemetryRecord>> records = m_source(*m_fabric);
        if (!records)
            return fail(records.error().toString());
        deliver(std::move(*records), {});
    }

    void deliver(std::vector<TelemetryRecord> records, std::vector<NodeIndex> silent)
    {
        if (m_history)
            if (Status s = m_history->record(records); !s)
                return fail(s.error().toString());
        const quint64 generation = m_generation;
        TelemetrySampler *sampler = m_sampler;
        QMetaObject::invokeMethod(
            m_sampler,
            [sampler, generation, records = std::move(records), silent = std::move(silent)]() mutable {
                sampler->takeRecordsOf(generation, std::move(records), std::move(silent));
            },
            Qt::QueuedConnection);
    }

    void fail(const QString &error)
    {
        m_failed = true;
        const quint64 generation = m_generation;
        TelemetrySampler *sampler = m_sampler;
        QMetaObject::invokeMethod(
            m_sampler, [sampler, generation, error] { sampler->failOf(generation, error); }, Qt::QueuedConnection);
    }

    TelemetrySampler *m_sampler;
    quint64 m_generation;
    std::shared_ptr<const Fabric> m_fabric;
    LiveOptions m_options;
    QString m_historyPath;
    double m_interval;
    bool m_clearCounters;
    TelemetrySampler::Source m_source;
    FabricLink::Caller m_link;
    std::shared_ptr<std::atomic_bool> m_giveUp;
    bool m_failed = false;
    std::unique_ptr<TelemetryHistory> m_history;
    std::shared_ptr<CounterPassReader> m_reader;
    std::optional<PortCounterPass> m_previous;
};

TelemetrySampler::TelemetrySampler(FabricLink::Caller link, QObject *parent)
    : QObject(parent), m_link(std::move(link)), m_options(std::make_unique<LiveOptions>()) {}

TelemetrySampler::TelemetrySampler(QObject *parent)
    : QObject(parent), m_ownLink(std::make_unique<FabricLink>()), m_link(m_ownLink->caller()), m_options(std::make_unique<LiveOptions>()) {}

TelemetrySampler::~TelemetrySampler()
{
    // Its own link first, so that a pass the worker waits for there lets it go.
    if (m_ownLink)
        m_ownLink->stop(FabricLink::kStopOnDestruction, false);
    finishWorker();
}

void TelemetrySampler::setFabric(std::shared_ptr<const Fabric> fabric, const LiveOptions &options)
{
    stop();
    m_fabric = std::move(fabric);
    m_options = std::make_unique<LiveOptions>(options);
    m_options->progress = {};
    m_latest.clear();
    m_silent.clear();
}

void TelemetrySampler::setInterval(double seconds)
{
    m_interval = std::clamp(seconds, 0.1, 86400.0);
}

bool TelemetrySampler::start()
{
    if (!m_fabric)
        return false;
    if (m_running)
        return true;
    m_running = true;
    ++m_generation;
    m_skippedPasses = 0;
    m_lastSkip.clear();
    m_giveUp = std::make_shared<std::atomic_bool>(false);
    m_thread = new QThread(this);
    m_thread->setObjectName(QStringLiteral("weft-telemetry"));
    m_worker = new TelemetrySamplerWorker(this, m_generation, m_fabric, *m_options, m_historyPath, m_interval,
                                          m_clearCounters, m_source, m_link, m_giveUp);
    m_worker->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread->start();
    TelemetrySamplerWorker *worker = m_worker;
    QMetaObject::invokeMethod(
        m_worker, [worker] { worker->begin(); }, Qt::QueuedConnection);
    Q_EMIT runningChanged(true);
    return true;
}

void TelemetrySampler::stop()
{
    if (!m_running)
        return;
    m_running = false;
    ++m_generation;
    finishWorker();
    Q_EMIT runningChanged(false);
}

void TelemetrySampler::finishWorker()
{
    if (!m_thread)
        return;
    // A pass the worker waits for on the link (behind a commit, say) is given up; a pass the
    // link runs for it meanwhile ends on its own. The worker is deleted on its own thread.
    if (m_giveUp)
        m_giveUp->store(true);
    m_thread->quit();
    m_thread->wait();
    delete m_thread;
    m_thread = nullptr;
    m_worker = nullptr;
}

QString TelemetrySampler::adapterName() const
{
    return m_options->caName;
}

int TelemetrySampler::adapterPort() const
{
    return m_options->caPort;
}

void TelemetrySampler::takeRecords(std::vector<TelemetryRecord> records, std::vector<NodeIndex> silentNodes)
{
    m_latest = std::move(records);
    m_silent = std::move(silentNodes);
    Q_EMIT sampled();
}

void TelemetrySampler::takeRecordsOf(quint64 generation, std::vector<TelemetryRecord> records, std::vector<NodeIndex> silentNodes)
{
    if (generation == m_generation && m_running)
        takeRecords(std::move(records), std::move(silentNodes));
}

void TelemetrySampler::skippedOf(quint64 generation, const QString &reason)
{
    if (generation != m_generation || !m_running)
        return;
    ++m_skippedPasses;
    m_lastSkip = reason;
    Q_EMIT passSkipped(reason);
}

void TelemetrySampler::failOf(quint64 generation, const QString &error)
{
    if (generation != m_generation || !m_running)
        return;
    stop();
    Q_EMIT failed(error);
}

}  // namespace weft
