#pragma once
// Reads what a live fabric holds, off the GUI thread: the topology (discoverFabric), the
// switches' forwarding tables (readForwardingTables) and the ports' P_Key tables
// (readPKeyTables), in that order, for Fabric > Discover and Rediscover. One run at a time;
// finished() comes once per start(), with everything read or with the error of the step that
// failed (or the cancel), never with a part of it.

#include "HeldState.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

namespace weft {

struct LiveOptions;

class LiveDiscovery : public QObject
{
    Q_OBJECT

public:
    explicit LiveDiscovery(QObject *parent = nullptr);
    ~LiveDiscovery() override;

    // Starts a run with `options` (their progress callback is replaced); false while one runs.
    bool start(const LiveOptions &options);
    bool isRunning() const { return m_running; }
    // Asks the run to stop at its next progress report; finished() then says "cancelled".
    void cancel();

Q_SIGNALS:
    // The step under way ("Discovering the fabric", ...) and its progress (total 0: unknown).
    void progress(const QString &step, int done, int total);
    // `held` is null when the run failed or was cancelled; `error` then says why.
    void finished(std::shared_ptr<const weft::HeldState> held, const QString &error, bool cancelled);

private:
    bool m_running = false;
    std::shared_ptr<std::atomic_bool> m_cancel;
};

}  // namespace weft
