#include "DeskDocks.h"

#include "AutopilotDock.h"
#include "DiffReview.h"
#include "FabricChangesPanel.h"
#include "FabricDocument.h"
#include "FabricSession.h"
#include "HealthDock.h"
#include "LftInspector.h"
#include "MapOverlays.h"
#include "NodePanel.h"
#include "OpenSmPanel.h"
#include "PartitionPanel.h"
#include "PathTrace.h"
#include "PolicyEditor.h"
#include "PrometheusHistorySource.h"
#include "ReconfigurationStudio.h"
#include "RoutingKeysPanel.h"
#include "RoutingPreview.h"
#include "SubnetManagersPanel.h"
#include "SummaryPanel.h"
#include "TelemetryDock.h"
#include "VmPanel.h"
#include "WeightTable.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QScrollArea>
#include <QUndoStack>
#include <QUndoView>

namespace weft {

namespace {

// What a scrolling dock holds: its panel, given the whole viewport and never less than the
// panel's minimum. Without it the scroll area held a panel with word-wrapped labels at their
// preferred height for the width (QScrollArea asks a height-for-width layout for that), so that
// at 1366x768 a panel that fits at its minimum scrolled its buttons below the edge.
class DockContent : public QWidget
{
public:
    explicit DockContent(QWidget *panel)
        : m_panel(panel)
    {
        panel->setParent(this);
        setObjectName(panel->objectName() + QStringLiteral("Content"));
    }
    QSize sizeHint() const override { return m_panel->sizeHint(); }
    QSize minimumSizeHint() const override { return m_panel->minimumSizeHint(); }

protected:
    void resizeEvent(QResizeEvent *) override { m_panel->setGeometry(rect()); }
    bool event(QEvent *e) override
    {
        if (e->type() == QEvent::LayoutRequest)
            updateGeometry();
        return QWidget::event(e);
    }

private:
    QWidget *m_panel;
};

// A panel whose content is taller (or wider) than its share of a small screen scrolls inside
// its dock instead of making the window larger than the screen.
QWidget *scrolling(QWidget *content)
{
    auto *area = new QScrollArea;
    area->setObjectName(content->objectName() + QStringLiteral("Scroll"));
    area->setWidget(new DockContent(content));
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    return area;
}

QDockWidget *addDock(QMainWindow *window, Qt::DockWidgetArea area, QWidget *content, const QString &title,
                     const QString &objectName, bool scroll)
{
    auto *dock = new QDockWidget(title, window);
    dock->setObjectName(objectName);
    dock->setWidget(scroll ? scrolling(content) : content);
    window->addDockWidget(area, dock);
    return dock;
}

}  // namespace

void DeskDocks::raise(QDockWidget *dock)
{
    dock->show();
    dock->raise();
}

DeskDocks createDeskDocks(QMainWindow *window, FabricDocument *document, MapOverlays *map)
{
    window->setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks | QMainWindow::AllowNestedDocks);
    // The right column's seven tabs along its edge, each title whole (below it they were cut to
    // two letters in 440 px).
    window->setTabPosition(Qt::RightDockWidgetArea, QTabWidget::East);
    DeskDocks d;
    const auto right = Qt::RightDockWidgetArea;
    const auto bottom = Qt::BottomDockWidgetArea;

    // Right, top group: what the fabric is, and the tenancy's editors.
    d.summary = new SummaryPanel(document, window);
    d.summaryDock = addDock(window, right, d.summary, QMainWindow::tr("Summary"), QStringLiteral("summaryDock"), false);
    d.history = new QUndoView(document->undoStack(), window);
    d.history->setObjectName(QStringLiteral("undoView"));
    d.history->setEmptyLabel(QMainWindow::tr("Fabric as opened"));
    d.historyDock = addDock(window, right, d.history, QMainWindow::tr("History"), QStringLiteral("historyDock"), false);
    d.policies = new PolicyEditor(document, window);
    d.policyDock = addDock(window, right, d.policies, QMainWindow::tr("Policies"), QStringLiteral("policyDock"), true);
    d.weights = new WeightTable(document, window);
    d.weightDock = addDock(window, right, d.weights, QMainWindow::tr("Node Weights"), QStringLiteral("weightDock"), true);
    for (QDockWidget *dock : {d.historyDock, d.policyDock, d.weightDock})
        window->tabifyDockWidget(d.summaryDock, dock);

    // Right, bottom group: partitions first (the first thing to decide on a fabric), then the
    // preview of a routing for them and the autopilot that plans by itself.
    d.partitions = new PartitionPanel(document, window);
    d.partitions->setObjectName(QStringLiteral("partitionPanel"));
    d.partitionsDock = addDock(window, right, d.partitions, QMainWindow::tr("Partitions"), QStringLiteral("partitionsDock"), true);
    d.preview = new RoutingPreview(document, window);
    d.previewDock = addDock(window, right, d.preview, QMainWindow::tr("Routing Preview"), QStringLiteral("previewDock"), true);
    d.autopilot = new AutopilotDock(document, window);
    d.autopilotDock = addDock(window, right, d.autopilot, QMainWindow::tr("Autopilot"), QStringLiteral("autopilotDock"), true);
    // On a laptop's 1366x768 one group on the right, each tab the column's whole height: two
    // groups stacked left each too little for its tables (the preview's measures, the policies,
    // the tenants with their buttons).
    for (QDockWidget *dock : {d.previewDock, d.autopilotDock, d.summaryDock, d.historyDock, d.policyDock, d.weightDock})
        window->tabifyDockWidget(d.partitionsDock, dock);

    // Bottom, the full width: the node table, the review and the studio (whose candidates need
    // the width), what the live fabric tells, the inspectors and the planners beside them.
    d.nodes = new NodePanel(document, window);
    d.nodesDock = addDock(window, bottom, d.nodes, QMainWindow::tr("Nodes"), QStringLiteral("nodesDock"), false);
    d.diffReview = new DiffReview(window);
    d.diffReview->setDocument(document);
    d.diffDock = addDock(window, bottom, d.diffReview, QMainWindow::tr("Diff Review"), QStringLiteral("diffDock"), false);
    d.studio = new ReconfigurationStudio(document, window);
    d.studio->setMap(map);
    d.studioDock = addDock(window, bottom, d.studio, QMainWindow::tr("Reconfiguration Studio"), QStringLiteral("reconfigurationStudio"), true);
    d.telemetry = new TelemetryDock(window);
    d.telemetry->setScene(map->scene());
    d.telemetry->setDocument(document);
    d.telemetry->setPrometheusSourceFactory([](const QUrl &server) -> std::unique_ptr<HistorySource> {
        return std::make_unique<remote::PrometheusHistorySource>(server);
    });
    d.telemetryDock = addDock(window, bottom, d.telemetry, QMainWindow::tr("Telemetry"), QStringLiteral("telemetryDock"), true);
    d.changes = new FabricChangesPanel(document, window);
    d.changesDock = addDock(window, bottom, d.changes, QMainWindow::tr("Fabric Changes"), QStringLiteral("fabricChangesDock"), false);
    d.lftInspector = new LftInspector(window);
    d.lftInspector->setObjectName(QStringLiteral("lftInspectorPanel"));
    d.lftInspector->setDocument(document);
    d.lftInspectorDock = addDock(window, bottom, d.lftInspector, QMainWindow::tr("LFT Inspector"), QStringLiteral("lftInspector"), true);
    d.pathTrace = new PathTrace(window);
    d.pathTrace->setObjectName(QStringLiteral("pathTrace"));
    d.pathTrace->setDocument(document);
    d.pathTraceDock = addDock(window, bottom, d.pathTrace, QMainWindow::tr("Trace Path"), QStringLiteral("pathTraceDock"), true);
    d.vms = new VmPanel(document, window);
    d.vms->setObjectName(QStringLiteral("vmPanel"));
    d.vms->setScene(map->scene());
    d.vmDock = addDock(window, bottom, d.vms, QMainWindow::tr("Virtual Machines"), QStringLiteral("vmDock"), true);
    d.routingKeys = new RoutingKeysPanel(document, window);
    d.routingKeys->setScene(map->scene());
    d.routingKeysDock = addDock(window, bottom, d.routingKeys, QMainWindow::tr("Routing Keys"), QStringLiteral("routingKeysDock"), true);
    d.openSm = new OpenSmPanel(window);
    d.openSm->setSession(document->session());
    d.openSmDock = addDock(window, bottom, d.openSm, QMainWindow::tr("OpenSM"), QStringLiteral("openSmPanel"), false);
    d.subnetManagers = new SubnetManagersPanel(window);
    d.subnetManagers->setSession(document->session());
    d.subnetManagersDock = addDock(window, bottom, d.subnetManagers, QMainWindow::tr("Subnet Managers"), QStringLiteral("subnetManagersDock"), false);
    d.health = new HealthDock(document, window);
    d.health->setMap(map);
    d.healthDock = addDock(window, bottom, d.health, QMainWindow::tr("Health"), QStringLiteral("healthDock"), false);
    // View ▸ Health (and shown by a check from elsewhere): at 1366x768 the bottom group's tabs
    // fill its width already. Hidden before it joins the group, which then keeps its place.
    d.healthDock->hide();
    for (QDockWidget *dock : {d.diffDock, d.studioDock, d.telemetryDock, d.changesDock, d.lftInspectorDock, d.pathTraceDock, d.vmDock,
                              d.routingKeysDock, d.openSmDock, d.subnetManagersDock, d.healthDock})
        window->tabifyDockWidget(d.nodesDock, dock);

    // Shown when there is something to show.
    d.telemetryDock->hide();
    d.routingKeysDock->hide();
    d.autopilotDock->hide();
    d.vmDock->setVisible(d.vms->state() != nullptr);
    d.summaryDock->raise();
    d.partitionsDock->raise();
    d.nodesDock->raise();
    window->resizeDocks({d.partitionsDock}, {440}, Qt::Horizontal);
    // Five rows of every table below the map, with its controls, and the map keeps the rest.
    window->resizeDocks({d.nodesDock}, {280}, Qt::Vertical);
    return d;
}

}  // namespace weft
