#include "LiveDiscovery.h"

#include "LiveFabric.h"

#include <QCoreApplication>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

namespace weft {

namespace {

struct RunResult
{
    std::shared_ptr<const HeldState> held;
    QString error;
    bool cancelled = false;
};

}  // namespace

LiveDiscovery::LiveDiscovery(QObject *parent)
    : QObject(parent) {}

LiveDiscovery::~LiveDiscovery()
{
    if (m_cancel)
        m_cancel->store(true);
}

bool LiveDiscovery::start(const LiveOptions &givenOptions)
{
    if (m_running)
        return false;
    m_running = true;
    m_cancel = std::make_shared<std::atomic_bool>(false);
    const std::shared_ptr<std::atomic_bool> cancel = m_cancel;
    QPointer<LiveDiscovery> self(this);
    // Progress crosses to the GUI thread queued; the worker only reads the cancel flag.
    const auto report = [self](const QString &step, int done, int total) {
        QMetaObject::invokeMethod(
            qApp, [self, step, done, total] {
                if (self && self->m_running)
                    Q_EMIT self->progress(step, done, total);
            },
            Qt::QueuedConnection);
    };
    QtConcurrent::run([givenOptions, cancel, report] {
        RunResult result;
        LiveOptions options = givenOptions;
        const auto step = [&](const QString &name) {
            report(name, 0, 0);
            options.progress = [cancel, report, name](int done, int total) {
                report(name, done, total);
                return !cancel->load();
            };
        };
        const auto stop = [&](const Error &error) {
            result.cancelled = cancel->load();
            result.error = result.cancelled ? QCoreApplication::translate("weft::LiveDiscovery", "Discovery cancelled.") : error.toString();
            return result;
        };
        step(QCoreApplication::translate("weft::LiveDiscovery", "Discovering the fabric"));
        Result<Fabric> fabric = discoverFabric(options);
        if (!fabric || cancel->load())
            return stop(fabric ? Error{} : fabric.error());
        step(QCoreApplication::translate("weft::LiveDiscovery", "Reading the forwarding tables"));
        Result<ForwardingTables> tables = readForwardingTables(*fabric, options);
        if (!tables || cancel->load())
            return stop(tables ? Error{} : tables.error());
        step(QCoreApplication::translate("weft::LiveDiscovery", "Reading the P_Key tables"));
        Result<PKeyTables> pkeys = readPKeyTables(*fabric, options);
        if (!pkeys || cancel->load())
            return stop(pkeys ? Error{} : pkeys.error());
        result.held = std::make_shared<const HeldState>(HeldState{std::move(fabric).value(), std::move(tables).value(), std::move(pkeys).value()});
        return result;
    }).then(this, [this](RunResult result) {
        m_running = false;
        Q_EMIT finished(result.held, result.error, result.cancelled);
    });
    return true;
}

void LiveDiscovery::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

}  // namespace weft
