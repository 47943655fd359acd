#pragma once
// The session's port-counter poller (FabricSession owns one): every interval (10 s by default) it reads every linked port of
// the live fabric with PortCounterReader, turns two passes into rates (telemetryRecords, as
// `weft monitor` does), records them into the fabric's history file when one is set, and hands
// them to the GUI thread. The first pass only primes the counters. Its timer and history are on a
// thread of its own; each pass itself is a job on the session's fabric link, so it never meets a
// discovery or a commit on the wire. A pass the link skips (a commit runs or waits) is said by
// passSkipped(), and the next one spans both intervals.
//
// Only a discovered fabric can be read: the reader addresses its nodes by the LIDs discovery
// found. takeRecords is the one way rates reach the desk, so a test (or another source) can
// feed synthetic ticks through the same path.

#include "Fabric.h"
#include "FabricLink.h"
#include "Result.h"
#include "TelemetryRecord.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <vector>

class QThread;

namespace weft {

struct LiveOptions;
class TelemetrySamplerWorker;

class TelemetrySampler : public QObject
{
    Q_OBJECT

public:
    static constexpr double kDefaultIntervalSeconds = 10;

    // `link`: the session's way to the fabric, for every pass.
    explicit TelemetrySampler(FabricLink::Caller link, QObject *parent = nullptr);
    // A sampler on its own (a test, a synthetic source): a fabric link of its own.
    explicit TelemetrySampler(QObject *parent = nullptr);
    ~TelemetrySampler() override;

    // The live fabric to read and the adapter it was discovered through. Stops a running sampler
    // (its rates belong to the fabric before).
    void setFabric(std::shared_ptr<const Fabric> fabric, const LiveOptions &options);
    std::shared_ptr<const Fabric> fabric() const { return m_fabric; }
    QString adapterName() const;
    int adapterPort() const;
    // The history file ticks are recorded into (one per fabric, see TelemetryHistory); empty:
    // none. Takes effect at the next start.
    void setHistoryPath(const QString &path) { m_historyPath = path; }
    QString historyPath() const { return m_historyPath; }
    void setInterval(double seconds);
    double interval() const { return m_interval; }
    // Clear a port's 32-bit PortCounters once one passes 75 % of its range (PortCounterReader::
    // setClearCounters); off by default. Takes effect at the next start.
    void setClearCounters(bool on) { m_clearCounters = on; }
    bool clearCounters() const { return m_clearCounters; }

    // Where each tick comes from instead of the adapter's port counters: a fabric service's
    // latest tick (a desk connected to `weft serve` opens no MAD port). Called on the sampler's
    // thread once per interval; an error stops the sampler as a failed pass does. Unset: the
    // counters through the adapter. Takes effect at the next start.
    using Source = std::function<Result<std::vector<TelemetryRecord>>(const Fabric &)>;
    void setSource(Source source) { m_source = std::move(source); }
    bool hasSource() const { return static_cast<bool>(m_source); }

    // False (and nothing starts) without a fabric.
    bool start();
    void stop();
    bool isRunning() const { return m_running; }

    // One tick of rates for the fabric set: kept as the latest and announced by sampled().
    // `silentNodes`: nodes whose counters did not answer in the pass (a node gone, or cut off).
    void takeRecords(std::vector<TelemetryRecord> records, std::vector<NodeIndex> silentNodes = {});
    const std::vector<TelemetryRecord> &latest() const { return m_latest; }
    const std::vector<NodeIndex> &latestSilentNodes() const { return m_silent; }
    // Passes the fabric link skipped since the sampler started, and why the last one was
    // ("counter pass skipped: a commit is running (plan p3 by alice)").
    int skippedPasses() const { return m_skippedPasses; }
    QString lastSkipReason() const { return m_lastSkip; }

Q_SIGNALS:
    void sampled();  // latest() holds a new tick
    void failed(const QString &error);
    void passSkipped(const QString &reason);
    void runningChanged(bool running);

private:
    friend class TelemetrySamplerWorker;
    void finishWorker();
    void takeRecordsOf(quint64 generation, std::vector<TelemetryRecord> records, std::vector<NodeIndex> silentNodes);
    void failOf(quint64 generation, const QString &error);
    void skippedOf(quint64 generation, const QString &reason);

    std::unique_ptr<FabricLink> m_ownLink;
    FabricLink::Caller m_link;
    // Raised when the worker is to end: a pass it waits for on the link is given up.
    std::shared_ptr<std::atomic_bool> m_giveUp;
    std::shared_ptr<const Fabric> m_fabric;
    std::unique_ptr<LiveOptions> m_options;  // weft_live's, kept out of this header
    QString m_historyPath;
    double m_interval = kDefaultIntervalSeconds;
    bool m_clearCounters = false;
    bool m_running = false;
    quint64 m_generation = 0;  // ticks of a stopped run are dropped
    QThread *m_thread = nullptr;
    TelemetrySamplerWorker *m_worker = nullptr;
    std::vector<TelemetryRecord> m_latest;
    std::vector<NodeIndex> m_silent;
    Source m_source;
    int m_skippedPasses = 0;
    QString m_lastSkip;
};

}  // namespace weft
