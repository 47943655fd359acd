#include "Screenshots.h"

#include "FabricScene.h"
#include "MainWindow.h"
#include "RoutingPreview.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDockWidget>
#include <QEventLoop>
#include <QPixmap>
#include <QTimer>

namespace weft {

namespace {

constexpr int kPreviewTimeoutMs = 60000;
constexpr int kSceneTimeoutMs = 120000;
constexpr int kPreviewDockWidth = 560;  // wide enough for the comparison table's three columns

}  // namespace

bool waitForScene(MainWindow &window, int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    while (!window.isSceneReady() && !deadline.hasExpired())
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 50);
    return window.isSceneReady();
}

bool runPreviewAndWait(MainWindow &window, const QString &engine, int timeoutMs)
{
    if (!waitForScene(window, timeoutMs))
        return false;
    RoutingPreview *preview = window.routingPreview();
    preview->setEngine(engine);
    QEventLoop loop;
    bool ok = false;
    bool finished = false;
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    const auto connection = QObject::connect(preview, &RoutingPreview::finished, &loop, [&](bool success) {
        ok = success;
        finished = true;
        loop.quit();
    });
    preview->start();
    // A small fabric can be routed before start() returns (a continuation attached to a finished
    // future runs at once): finished() has then come already, and the loop would wait it out.
    if (!finished)
        loop.exec();
    QObject::disconnect(connection);
    return ok;
}

bool prepareScreenshot(MainWindow &window, const QString &view)
{
    if (view == QLatin1String("partitions")) {
        window.setLinkColouring(LinkColouring::Partition);
        window.setHostColouring(HostColouring::Partition);
        if (!runPreviewAndWait(window, QStringLiteral("ftree"), kPreviewTimeoutMs))
            return false;
        // The finished preview switches plain cables to load; these show partitions.
        window.setLinkColouring(LinkColouring::Partition);
        return true;
    }
    // "preview" routes with ftree, "preview-pftree" with pftree: the same picture, so that the
    // README can show what partition-aware routing buys on the demo's policies.
    const bool pftree = view == QLatin1String("preview-pftree");
    const bool previewDocks = view == QLatin1String("preview") || pftree;
    if (view == QLatin1String("load") || previewDocks) {
        RoutingPreview *preview = window.routingPreview();
        preview->setTrafficPattern(TrafficPattern::UniformRandom);
        preview->setEbbSamples(previewDocks ? 2000 : 0);
        if (!runPreviewAndWait(window, pftree ? QStringLiteral("pftree") : QStringLiteral("ftree"), kPreviewTimeoutMs))
            return false;
        window.setLinkColouring(LinkColouring::Load);
        if (previewDocks) {
            for (QDockWidget *dock : {window.previewDock(), window.diffDock()}) {
                dock->show();
                dock->raise();
            }
            window.resizeDocks({window.previewDock()}, {kPreviewDockWidth}, Qt::Horizontal);
        }
        return true;
    }
    return view.isEmpty();
}

bool saveScreenshot(MainWindow &window, const QString &path)
{
    if (!waitForScene(window, kSceneTimeoutMs))
        return false;
    QCoreApplication::processEvents();
    const QPixmap picture = window.grab();
    return !picture.isNull() && picture.save(path);
}

}  // namespace weft
