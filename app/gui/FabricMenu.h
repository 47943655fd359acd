#pragma once
// The desk's Fabric menu: discovery through the adapter the operator chooses (kept by the
// session for every later access), rediscovery, the port counters, the routing preview and the
// review, Approve and the commit target, the commit journal and the recovery of an unfinished
// commit. It drives the session and shows its progress; it computes nothing.

#include <QObject>
#include <QString>

class QAction;
class QMainWindow;
class QProgressDialog;

namespace weft {

class CommitRecoveryDialog;
class FabricDocument;
class FileMenu;
class MapToolBar;
struct DeskDocks;

class FabricMenu : public QObject
{
    Q_OBJECT

public:
    FabricMenu(QMainWindow *window, FabricDocument *document, const DeskDocks &docks, MapToolBar *toolBar, FileMenu *files);

    QAction *discoverAction() const { return m_discover; }
    QAction *rediscoverAction() const { return m_rediscover; }
    QAction *telemetryAction() const { return m_telemetry; }

    // See MainWindow::startDiscovery.
    bool startDiscovery(const QString &caName, int caPort, bool rediscover);
    bool isDiscovering() const;
    CommitRecoveryDialog *offerCommitRecovery();
    // The actions that depend on what the session has (a live fabric, a discovery running).
    void updateActions();

Q_SIGNALS:
    void statusMessage(const QString &text, int timeoutMs);
    void discoveryFinished(bool ok, const QString &error);

private:
    void chooseAdapterAndDiscover();
    void discoveryDone(bool ok, const QString &error, bool cancelled);
    void setTelemetryRunning(bool run);
    void showCommitJournal();

    QMainWindow *m_window;
    FabricDocument *m_document;
    const DeskDocks &m_docks;
    MapToolBar *m_toolBar;
    FileMenu *m_files;
    QProgressDialog *m_progress = nullptr;
    bool m_rediscovering = false;  // what the running discovery is for
    QAction *m_discover = nullptr;
    QAction *m_rediscover = nullptr;
    QAction *m_telemetry = nullptr;
};

}  // namespace weft
