#pragma once
// The README's pictures, made from a running window: set the window up for one view, wait for
// the picture of a big fabric and for a routing preview, and save what the window shows. Each
// wait runs the event loop until its event came, so this is for `weft --screenshot` and tests,
// never for code that reacts to the operator.

#include "Fabric.h"
#include "TelemetryRecord.h"

#include <QString>

#include <set>
#include <vector>

namespace weft {

class MainWindow;

// Runs the event loop until the picture of the window's fabric is in the scene; false if it is
// not after `timeoutMs`.
bool waitForScene(MainWindow &window, int timeoutMs);

// Runs the routing preview with `engine` and waits for it; false if it failed or timed out.
bool runPreviewAndWait(MainWindow &window, const QString &engine, int timeoutMs);

// Sets the window up for one of the README's pictures: "partitions" (hosts and cables by
// partition), "load" (cables by load under a preview) or "preview" (the same with the preview's
// and the diff's docks in front), "vms" (a generated hypervisor fabric with a VM migration
// planned in the Virtual Machines dock), "lft" (the LFT inspector on a switch whose table a
// preview changes, the demo's switches holding ftree tables), "studio" and "whatif" (a link
// failure on the demo planned in the Reconfiguration Studio: the dock wide, or the map),
// "autopilot" (the Autopilot dock after a hot-spot rule fired in approve mode on synthetic ticks,
// its change waiting in the Diff Review), "tutorial-..." (docs/tutorial.md's steps on the fabric
// of `weft lab --gui`, up to the one named: discovered, tenants, preview-ftree, preview-pftree,
// diff, approve, journal), "subnet-managers" (the Subnet Managers dock after a check of the
// subnet target's SMs, at 1366x768), "health" (the Health dock after a check of the fabric
// against a design with a moved, a missing and a slower cable, marked on the map, at
// 1366x768). An empty view leaves the window as it is; an unknown
// one is false.
bool prepareScreenshot(MainWindow &window, const QString &view);

// A hot spot as the "autopilot" picture (and tst_autopilot) feeds it: the first leaf's hosts at
// its ports 1 and 3, which ftree sends down from the same spine (spec 003 T-WFT-1).
std::set<NodeIndex> hotSpotHosts(const Fabric &fabric);
// A synthetic tick of measured rates at `time`: every cabled port sends `idleBytes` a second,
// the switch ports facing `hotHosts` send `hotBytes` (what those hosts receive).
std::vector<TelemetryRecord> syntheticTick(const Fabric &fabric, double time, const std::set<NodeIndex> &hotHosts,
                                           double hotBytes, double idleBytes);

// Waits for a pending layout, then saves a picture of the window (format by the file's suffix).
bool saveScreenshot(MainWindow &window, const QString &path);

}  // namespace weft
