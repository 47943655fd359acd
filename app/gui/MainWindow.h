#pragma once
// The main window: the fabric picture in the middle, the node table, the summary, the
// partitions, the undo history, the routing preview and the diff review in docks around it.
// The FabricDocument is the one source of the fabric, the tenancy and the routing state (its
// RoutingSession): every edit goes through it (and its undo stack), and the scene, the panels,
// the preview and the diff review each listen to the kinds of change they show. The window
// keeps no copy of any of it; it wires the docks, the menus and the view choices. Shows one
// fabric at a time; opening another replaces it only once it has been read without error, so a
// bad file never loses what was on screen.

#include "DocumentChanges.h"
#include "Fabric.h"
#include "FabricScene.h"
#include "FabricSummary.h"
#include "ForwardingTables.h"
#include "Tenancy.h"

#include <QMainWindow>

#include <memory>

class QAction;
class QComboBox;
class QDockWidget;
class QProgressDialog;
class QLabel;
class QLineEdit;
class QMenu;
class QTableView;
class QTreeWidget;
class QUndoView;

namespace weft {

class AutopilotDock;
class CommitRecoveryDialog;
class DiffReview;
class FabricChangesPanel;
class LiveDiscovery;
struct HeldState;
class TelemetryDock;
class VmPanel;
class TelemetrySampler;
class FabricDocument;
class PartitionPanel;
class PolicyEditor;
class OpenSmPanel;
class RoutingKeysPanel;
class RoutingPreview;
class ReconfigurationStudio;
class WeightTable;
class LftInspector;
class PathTrace;
class FabricView;
class NodeFilterProxyModel;
class NodeTableModel;

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
    // first adapter) and `caPort` (0: the first active port) on a worker thread, with a progress
    // dialog that can cancel, and shows it with the tables and partitions its switches and ports
    // hold. With `rediscover`, compares instead with the fabric shown (FabricChanges): the map
    // and the Fabric Changes dock show what changed and open proposals turn stale.
    // discoveryFinished() follows; false if a discovery is already running.
    bool startDiscovery(const QString &caName, int caPort, bool rediscover);
    bool isDiscovering() const;
    QAction *discoverAction() const { return m_discoverAction; }
    QAction *rediscoverAction() const { return m_rediscoverAction; }
    FabricChangesPanel *fabricChangesPanel() const { return m_changesPanel; }
    // Fabric > Sample Port Counters: the telemetry sampler of a discovered fabric (disabled, with
    // a tooltip saying why, for any other), its dock, and its interval (default 10 s).
    QAction *telemetryAction() const { return m_telemetryAction; }
    TelemetrySampler *telemetrySampler() const { return m_sampler; }
    TelemetryDock *telemetryDock() const { return m_telemetryDock; }
    QDockWidget *telemetryDockWidget() const { return m_telemetryDockWidget; }
    QDockWidget *fabricChangesDock() const { return m_changesDock; }
    // The Virtual Machines dock (views/vswitch): shown for vSwitch fabrics.
    VmPanel *vmPanel() const { return m_vmPanel; }
    QDockWidget *vmDock() const { return m_vmDock; }

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
    RoutingPreview *routingPreview() const { return m_preview; }
    DiffReview *diffReview() const { return m_diffReview; }
    // Offers to recover the configured commit target's unfinished commit (CommitRecoveryDialog,
    // shown without blocking), if its journal has one; null if not. Checked at start.
    CommitRecoveryDialog *offerCommitRecovery();
    PartitionPanel *partitionPanel() const { return m_partitionPanel; }
    PolicyEditor *policyEditor() const { return m_policyEditor; }
    WeightTable *weightTable() const { return m_weightTable; }
    QDockWidget *previewDock() const { return m_previewDock; }
    QDockWidget *diffDock() const { return m_diffDock; }
    // The LFT Inspector and Trace Path docks (views/studio): one switch's table, current beside
    // proposed; a host-to-host route hop by hop on both.
    LftInspector *lftInspector() const { return m_lftInspector; }
    QDockWidget *lftInspectorDock() const { return m_lftInspectorDock; }
    PathTrace *pathTrace() const { return m_pathTrace; }
    QDockWidget *pathTraceDock() const { return m_pathTraceDock; }
    // The OpenSM dock (views/studio): the commit target's OpenSM and its warnings.
    OpenSmPanel *openSmPanel() const { return m_openSmPanel; }
    QDockWidget *openSmDock() const { return m_openSmDock; }
    QAction *ebbBottlenecksAction() const { return m_ebbBottlenecksAction; }
    RoutingKeysPanel *routingKeysPanel() const { return m_routingKeysPanel; }
    QDockWidget *routingKeysDock() const { return m_routingKeysDock; }
    // The Autopilot dock (views/adapt): the self-adaptive loop's rules, state and firing log.
    AutopilotDock *autopilot() const { return m_autopilot; }
    QDockWidget *autopilotDock() const { return m_autopilotDock; }
    ReconfigurationStudio *reconfigurationStudio() const { return m_studio; }
    QDockWidget *studioDock() const { return m_studioDock; }
    const ForwardingTables *currentTables() const;
    const FabricSummary &summary() const { return m_summary; }
    FabricScene *fabricScene() const { return m_scene; }
    FabricView *fabricView() const { return m_view; }
    NodeTableModel *nodeModel() const { return m_nodeModel; }
    NodeFilterProxyModel *nodeProxy() const { return m_nodeProxy; }

Q_SIGNALS:
    void sceneReady();
    // A discovery started by startDiscovery() or the menu ended: `error` is empty when its
    // result is shown (or, for a cancel, says so).
    void discoveryFinished(bool ok, const QString &error);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions();
    // View ▸ Show eBB Bottlenecks: the proposal's eBB bottlenecks on the map (EbbBottlenecks.h).
    void showEbbBottlenecks();
    void createDocks();
    void readSettings();
    void writeSettings() const;

    void chooseTopologyFile();
    void openRecentFile(const QString &path);
    void showOpenError(const QString &path, const QString &error);
    void addRecentFile(const QString &path);
    void updateRecentFilesMenu();
    void showAbout();
    void showCommitJournal();
    void createLanguageMenu(QMenu *menu);

    void documentChanged(DocumentChanges what);
    void sceneShown();
    void chooseLftDump();
    void chooseProjectToOpen();
    bool chooseProjectToSave();
    void saveCurrentProject();
    void createViewToolBar();
    void fillSummary();
    void updateStatus();
    void selectTableRow(NodeIndex node);
    void chooseAdapterAndDiscover();
    void discoveryDone(std::shared_ptr<const HeldState> held, const QString &error, bool cancelled);
    void updateTelemetryAction();
    void setTelemetryRunning(bool run);

    FabricDocument *m_document = nullptr;
    QString m_projectPath;
    FabricSummary m_summary;  // what the summary dock and the status bar show of the fabric
    bool m_syncingSelection = false;  // table and scene select each other: stop the echo

    FabricScene *m_scene = nullptr;
    FabricView *m_view = nullptr;
    NodeTableModel *m_nodeModel = nullptr;
    NodeFilterProxyModel *m_nodeProxy = nullptr;
    QTableView *m_nodeTable = nullptr;
    QLineEdit *m_nodeFilter = nullptr;
    QTreeWidget *m_summaryTree = nullptr;
    PartitionPanel *m_partitionPanel = nullptr;
    PolicyEditor *m_policyEditor = nullptr;
    WeightTable *m_weightTable = nullptr;
    QLabel *m_countsLabel = nullptr;
    QLabel *m_zoomLabel = nullptr;
    QMenu *m_viewMenu = nullptr;
    QMenu *m_recentMenu = nullptr;
    RoutingPreview *m_preview = nullptr;
    DiffReview *m_diffReview = nullptr;
    QUndoView *m_undoView = nullptr;
    QDockWidget *m_previewDock = nullptr;
    QDockWidget *m_diffDock = nullptr;
    LftInspector *m_lftInspector = nullptr;
    QDockWidget *m_lftInspectorDock = nullptr;
    PathTrace *m_pathTrace = nullptr;
    QDockWidget *m_pathTraceDock = nullptr;
    QComboBox *m_linkColouring = nullptr;
    QComboBox *m_hostColouring = nullptr;
    QComboBox *m_shownRouting = nullptr;
    QLineEdit *m_findBox = nullptr;

    LiveDiscovery *m_discovery = nullptr;
    QProgressDialog *m_discoveryProgress = nullptr;
    bool m_rediscovering = false;  // what the running discovery is for
    QString m_liveCa;              // the adapter and port the fabric shown was discovered through
    int m_livePort = 0;
    QAction *m_discoverAction = nullptr;
    QAction *m_rediscoverAction = nullptr;
    VmPanel *m_vmPanel = nullptr;
    QDockWidget *m_vmDock = nullptr;
    FabricChangesPanel *m_changesPanel = nullptr;
    QDockWidget *m_changesDock = nullptr;
    std::shared_ptr<const Fabric> m_liveFabric;  // the fabric last discovered (telemetry reads only it)
    TelemetrySampler *m_sampler = nullptr;
    TelemetryDock *m_telemetryDock = nullptr;
    QDockWidget *m_telemetryDockWidget = nullptr;
    QAction *m_telemetryAction = nullptr;
    OpenSmPanel *m_openSmPanel = nullptr;
    QAction *m_ebbBottlenecksAction = nullptr;
    RoutingKeysPanel *m_routingKeysPanel = nullptr;
    QDockWidget *m_routingKeysDock = nullptr;
    QDockWidget *m_openSmDock = nullptr;
    ReconfigurationStudio *m_studio = nullptr;
    QDockWidget *m_studioDock = nullptr;
    AutopilotDock *m_autopilot = nullptr;
    QDockWidget *m_autopilotDock = nullptr;
};

}  // namespace weft
