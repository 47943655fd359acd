#pragma once
// The desk's docks: every panel around the map, made, named and placed. Placement is chosen to
// fit a 1366x768 screen with every dock open: the right area holds two groups of tabs (the
// fabric's summary with the undo history and the tenancy editors; partitions with the previews
// and the live panels), the bottom area one (the node table, the Diff Review, the studio whose
// candidates need the full width, and the inspectors). Panels taller than their share scroll.

#include <QString>

class QDockWidget;
class QMainWindow;
class QUndoView;
class QWidget;

namespace weft {

class AutopilotDock;
class DiffReview;
class FabricChangesPanel;
class FabricDocument;
class HealthDock;
class LftInspector;
class MapOverlays;
class NodePanel;
class OpenSmPanel;
class PartitionPanel;
class PathTrace;
class PolicyEditor;
class ReconfigurationStudio;
class RoutingKeysPanel;
class RoutingPreview;
class SubnetManagersPanel;
class SummaryPanel;
class TelemetryDock;
class VmPanel;
class WeightTable;

struct DeskDocks
{
    NodePanel *nodes = nullptr;
    QDockWidget *nodesDock = nullptr;
    SummaryPanel *summary = nullptr;
    QDockWidget *summaryDock = nullptr;
    PartitionPanel *partitions = nullptr;
    QDockWidget *partitionsDock = nullptr;
    PolicyEditor *policies = nullptr;
    QDockWidget *policyDock = nullptr;
    WeightTable *weights = nullptr;
    QDockWidget *weightDock = nullptr;
    QUndoView *history = nullptr;
    QDockWidget *historyDock = nullptr;
    RoutingPreview *preview = nullptr;
    QDockWidget *previewDock = nullptr;
    DiffReview *diffReview = nullptr;
    QDockWidget *diffDock = nullptr;
    FabricChangesPanel *changes = nullptr;
    QDockWidget *changesDock = nullptr;
    LftInspector *lftInspector = nullptr;
    QDockWidget *lftInspectorDock = nullptr;
    PathTrace *pathTrace = nullptr;
    QDockWidget *pathTraceDock = nullptr;
    TelemetryDock *telemetry = nullptr;
    QDockWidget *telemetryDock = nullptr;
    VmPanel *vms = nullptr;
    QDockWidget *vmDock = nullptr;
    ReconfigurationStudio *studio = nullptr;
    QDockWidget *studioDock = nullptr;
    OpenSmPanel *openSm = nullptr;
    QDockWidget *openSmDock = nullptr;
    SubnetManagersPanel *subnetManagers = nullptr;
    QDockWidget *subnetManagersDock = nullptr;
    RoutingKeysPanel *routingKeys = nullptr;
    QDockWidget *routingKeysDock = nullptr;
    AutopilotDock *autopilot = nullptr;
    QDockWidget *autopilotDock = nullptr;
    HealthDock *health = nullptr;
    QDockWidget *healthDock = nullptr;

    // Shows `dock` (tabbed with others) and brings its tab to the front.
    static void raise(QDockWidget *dock);
};

// Makes every panel for `document` and places it on `window`; the panels that draw on the map
// ask `map`.
DeskDocks createDeskDocks(QMainWindow *window, FabricDocument *document, MapOverlays *map);

}  // namespace weft
