#pragma once
// The main window: the fabric picture in the middle, the node table, the summary and the
// partitions in docks around it. Shows one fabric at a time; opening another replaces it only
// once it has been read without error, so a bad file never loses what was on screen.

#include "Fabric.h"
#include "FabricSummary.h"
#include "Tenancy.h"

#include <QMainWindow>

#include <memory>

class QLabel;
class QLineEdit;
class QMenu;
class QTableView;
class QTreeWidget;

namespace weft {

class FabricScene;
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

    const Fabric *fabric() const { return m_fabric.get(); }
    const Tenancy &tenancy() const { return m_tenancy; }
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

    void applyLayout(quint64 generation, std::shared_ptr<const Fabric> fabric, FabricLayout layout);
    void fillSummary();
    void fillPartitions();
    void updateStatus();
    void selectTableRow(NodeIndex node);

    std::shared_ptr<const Fabric> m_fabric;
    Tenancy m_tenancy;
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
    QTreeWidget *m_partitionTree = nullptr;
    QLabel *m_countsLabel = nullptr;
    QLabel *m_zoomLabel = nullptr;
    QMenu *m_viewMenu = nullptr;
    QMenu *m_recentMenu = nullptr;
};

} // namespace weft
