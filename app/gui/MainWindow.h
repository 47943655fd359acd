#pragma once
// The main window: wiring only. The map in the middle and the docks around it (DeskDocks.h),
// the menus and the map's toolbar (MapToolBar.h). The FabricDocument holds the fabric and the
// tenancy being edited; its session (session/FabricSession.h) holds what the fabric holds,
// the connection, the plans, telemetry and the autopilot; MapOverlays decides what the map
// shows. The window keeps no copy of any of it: it connects the menus to them and the panels to
// each other. It shows one fabric at a time; opening another replaces it only once it has been
// read without error, so a bad file never loses what was on screen.

#include "DeskDocks.h"
#include "Fabric.h"
#include "FabricScene.h"
#include "FabricSummary.h"
#include "ForwardingTables.h"
#include "Tenancy.h"

#include <QMainWindow>

#include <memory>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;

namespace weft {

class CommitRecoveryDialog;
class FabricDocument;
class FabricMenu;
class FileMenu;
namespace remote {
class ServiceConnections;
}
class FabricView;
class MapOverlays;
class MapToolBar;
class NodeFilterProxyModel;
class NodeTableModel;
class TelemetrySampler;

class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // Shows `fabric`; the picture of a big fabric is laid out on a worker thread and appears
    // when sceneReady() is emitted (the tables and the summary are filled at once).
    void showFabric(weft::Fabric fabric, weft::Tenancy tenancy, const QString &title);
    // Reads a topology file and shows it. On failure returns false with "file:line: message"
    // in *error and leaves the current fabric as it was. Shows no dialog.
    bool openTopologyFile(const QString &path, QString *error);
    // The demo fabric; on failure shows the error in a message box.
    void openDemoFabric();
    // The same without a dialog, for callers that report errors themselves.
    bool loadDemoFabric(QString *error);

    // Fabric > Discover without its dialog: reads the live fabric through `caName` (empty: the
    // first adapter) and `caPort` (0: the first active port), which the session keeps for every
    // later access (rediscovery, counters, commits, recovery), on a worker thread, with a
    // progress dialog that can cancel, and shows it with the tables and partitions its switches
    // and ports hold. With `rediscover`, compares instead with the fabric shown: the map and the
    // Fabric Changes dock show what changed and open proposals turn stale, or, when the topology
    // is the same, the tables read become the current ones. discoveryFinished() follows; false
    // if a discovery is already running.
    bool startDiscovery(const QString &caName, int caPort, bool rediscover);
    bool isDiscovering() const;
    // File ▸ Connect to Fabric Service…: the fabric services this desk works through.
    remote::ServiceConnections *serviceConnections() const { return m_services; }
    QAction *discoverAction() const;
    QAction *rediscoverAction() const;
    FabricChangesPanel *fabricChangesPanel() const { return m_docks.changes; }
    // Fabric > Sample Port Counters: the session's sampler of a discovered fabric (disabled, with
    // a tooltip saying why, for any other), its dock, and its interval (default 10 s).
    QAction *telemetryAction() const;
    TelemetrySampler *telemetrySampler() const;
    TelemetryDock *telemetryDock() const { return m_docks.telemetry; }
    QDockWidget *telemetryDockWidget() const { return m_docks.telemetryDock; }
    QDockWidget *fabricChangesDock() const { return m_docks.changesDock; }
    // The Virtual Machines dock (views/vswitch): shown for vSwitch fabrics.
    VmPanel *vmPanel() const { return m_docks.vms; }
    QDockWidget *vmDock() const { return m_docks.vmDock; }

    // False while a big fabric is being laid out; sceneReady() comes when it is drawn.
    bool isSceneReady() const;

    // Reads an LFT dump (ibroute / dump_lfts / OpenSM's) as the fabric's current tables.
    bool openLftDump(const QString &path, QString *error);
    // Binds a project file to the current fabric; GUIDs it lacks are dropped and reported.
    bool openProject(const QString &path, QString *error);
    bool saveProject(const QString &path, QString *error);

    // Which routing colours the picture and answers route highlights (the toolbar's choice).
    using ShownRouting = weft::ShownRouting;
    void setShownRouting(ShownRouting routing);
    ShownRouting shownRouting() const;
    // The toolbar's colour choices, kept in the settings.
    void setLinkColouring(LinkColouring colouring);
    void setHostColouring(HostColouring colouring);

    const Fabric *fabric() const;
    const Tenancy &tenancy() const;
    FabricDocument *document() const { return m_document; }
    MapOverlays *mapOverlays() const { return m_map; }
    RoutingPreview *routingPreview() const { return m_docks.preview; }
    DiffReview *diffReview() const { return m_docks.diffReview; }
    // Offers to recover the session's commit target's unfinished commit (CommitRecoveryDialog,
    // shown without blocking), if its journal has one; null if not. Checked at start.
    CommitRecoveryDialog *offerCommitRecovery();
    PartitionPanel *partitionPanel() const { return m_docks.partitions; }
    PolicyEditor *policyEditor() const { return m_docks.policies; }
    WeightTable *weightTable() const { return m_docks.weights; }
    QDockWidget *previewDock() const { return m_docks.previewDock; }
    QDockWidget *diffDock() const { return m_docks.diffDock; }
    LftInspector *lftInspector() const { return m_docks.lftInspector; }
    QDockWidget *lftInspectorDock() const { return m_docks.lftInspectorDock; }
    PathTrace *pathTrace() const { return m_docks.pathTrace; }
    QDockWidget *pathTraceDock() const { return m_docks.pathTraceDock; }
    OpenSmPanel *openSmPanel() const { return m_docks.openSm; }
    QDockWidget *openSmDock() const { return m_docks.openSmDock; }
    // The Subnet Managers dock: the subnet target's SMs as the fabric tells them; raised when it
    // warns (an SM the target does not name, two masters or none).
    SubnetManagersPanel *subnetManagersPanel() const { return m_docks.subnetManagers; }
    QDockWidget *subnetManagersDock() const { return m_docks.subnetManagersDock; }
    // The Health dock: the fabric checked (views/live/HealthDock.h), its findings on the map.
    HealthDock *healthDock() const { return m_docks.health; }
    QDockWidget *healthDockWidget() const { return m_docks.healthDock; }
    QAction *ebbBottlenecksAction() const { return m_ebbBottlenecksAction; }
    RoutingKeysPanel *routingKeysPanel() const { return m_docks.routingKeys; }
    QDockWidget *routingKeysDock() const { return m_docks.routingKeysDock; }
    AutopilotDock *autopilot() const { return m_docks.autopilot; }
    QDockWidget *autopilotDock() const { return m_docks.autopilotDock; }
    ReconfigurationStudio *reconfigurationStudio() const { return m_docks.studio; }
    QDockWidget *studioDock() const { return m_docks.studioDock; }
    const DeskDocks &docks() const { return m_docks; }
    const ForwardingTables *currentTables() const;
    const FabricSummary &summary() const;
    FabricScene *fabricScene() const { return m_scene; }
    FabricView *fabricView() const { return m_view; }
    NodeTableModel *nodeModel() const;
    NodeFilterProxyModel *nodeProxy() const;

Q_SIGNALS:
    void sceneReady();
    // A discovery started by startDiscovery() or the menu ended: `error` is empty when its
    // result is shown (or, for a cancel, says so).
    void discoveryFinished(bool ok, const QString &error);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions();
    void wirePanels();
    void wireSession();
    void showEbbBottlenecks();
    void readSettings();
    void writeSettings() const;
    void showAbout();
    void createLanguageMenu(QMenu *menu);
    void documentChanged(DocumentChanges what);
    void sceneShown();
    void updateStatus();

    FabricDocument *m_document = nullptr;
    FabricScene *m_scene = nullptr;
    FabricView *m_view = nullptr;
    MapOverlays *m_map = nullptr;
    MapToolBar *m_toolBar = nullptr;
    DeskDocks m_docks;
    FileMenu *m_files = nullptr;
    FabricMenu *m_fabricMenu = nullptr;
    remote::ServiceConnections *m_services = nullptr;
    bool m_syncingSelection = false;  // table and scene select each other: stop the echo

    QLabel *m_countsLabel = nullptr;
    QLabel *m_zoomLabel = nullptr;
    // "Laying out the fabric…" while shown: the picture being ready takes only this message
    // away, not one given since (Fabric ▸ Discover's, which comes before the layout ends).
    QString m_layoutMessage;
    QMenu *m_viewMenu = nullptr;
    QAction *m_ebbBottlenecksAction = nullptr;
};

}  // namespace weft
