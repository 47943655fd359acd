#pragma once
// The main window: the fabric picture in the middle, the node table, the summary, the
// partitions, the undo history, the routing preview and the diff review in docks around it.
// The FabricDocument is the one source of the tenancy: every edit goes through it (and its undo
// stack), and the scene, the partition tree and the preview listen to its signals. Shows one
// fabric at a time; opening another replaces it only once it has been read without error, so a
// bad file never loses what was on screen.

#include "Fabric.h"
#include "FabricSummary.h"
#include "ForwardingTables.h"
#include "Metrics.h"
#include "Tenancy.h"

#include <QMainWindow>

#include <memory>

class QComboBox;
class QDockWidget;
class QLabel;
class QLineEdit;
class QMenu;
class QTableView;
class QTreeWidget;
class QUndoView;

namespace weft {

class DiffReview;
class FabricDocument;
class FabricScene;
class PartitionPanel;
class PolicyEditor;
class RoutingPreview;
class WeightTable;
class FabricView;
class NodeFilterProxyModel;
class NodeTableModel;
struct FabricLayout;

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

    // Waits for a pending layout, then saves a picture of the window (PNG by the file's suffix).
    bool saveScreenshot(const QString &path);
    // Runs the event loop until the picture of the current fabric is in the scene.
    bool waitForScene(int timeoutMs);
    bool isSceneReady() const { return !m_layoutPending; }

    // Reads an LFT dump (ibroute / dump_lfts / OpenSM's) as the fabric's current tables.
    bool openLftDump(const QString &path, QString *error);
    // Binds a project file to the current fabric; GUIDs it lacks are dropped and reported.
    bool openProject(const QString &path, QString *error);
    bool saveProject(const QString &path, QString *error);

    // Which routing colours the picture and answers route highlights.
    enum class ShownRouting { Current, Proposed };
    void setShownRouting(ShownRouting routing);
    ShownRouting shownRouting() const;
    // Runs the routing preview with `engine` and waits for it (screenshots, tests).
    bool runPreviewAndWait(const QString &engine, int timeoutMs);
    // Sets up the window for one of the README's pictures: "partitions", "load" or "preview".
    bool prepareScreenshot(const QString &view);

    const Fabric *fabric() const { return m_fabric.get(); }
    const Tenancy &tenancy() const;
    FabricDocument *document() const { return m_document; }
    RoutingPreview *routingPreview() const { return m_preview; }
    DiffReview *diffReview() const { return m_diffReview; }
    PartitionPanel *partitionPanel() const { return m_partitionPanel; }
    PolicyEditor *policyEditor() const { return m_policyEditor; }
    WeightTable *weightTable() const { return m_weightTable; }
    const ForwardingTables *currentTables() const { return m_currentTables.get(); }
    const FabricSummary &summary() const { return m_summary; }
    FabricScene *fabricScene() const { return m_scene; }
    FabricView *fabricView() const { return m_view; }
    NodeTableModel *nodeModel() const { return m_nodeModel; }
    NodeFilterProxyModel *nodeProxy() const { return m_nodeProxy; }

Q_SIGNALS:
    void sceneReady();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions();
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

    void applyLayout(quint64 generation, std::shared_ptr<const Fabric> fabric, FabricLayout layout);
    void onFabricReset();
    void onTenancyChanged();
    void onPreviewChanged();
    void refreshSceneRouting();
    void chooseLftDump();
    void chooseProjectToOpen();
    bool chooseProjectToSave();
    void saveCurrentProject();
    void createViewToolBar();
    void fillSummary();
    void updateStatus();
    void selectTableRow(NodeIndex node);

    std::shared_ptr<const Fabric> m_fabric;
    FabricDocument *m_document = nullptr;
    std::vector<Partition> m_openedPartitions;  // as the fabric was opened: the diff's "current"
    std::shared_ptr<const ForwardingTables> m_currentTables;
    QString m_currentTablesName;
    std::shared_ptr<const Metrics> m_currentMetrics;  // of m_currentTables under the tenancy
    quint64 m_metricsGeneration = 0;
    QString m_projectPath;
    FabricSummary m_summary;
    QString m_title;
    quint64 m_layoutGeneration = 0;  // a layout that finishes after a newer fabric is dropped
    bool m_layoutPending = false;
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
    QComboBox *m_linkColouring = nullptr;
    QComboBox *m_hostColouring = nullptr;
    QComboBox *m_shownRouting = nullptr;
    QLineEdit *m_findBox = nullptr;
};

} // namespace weft
