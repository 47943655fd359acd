#pragma once
// One timed build and full repaint of the fabric view, offscreen: what `weft bench scene` repeats
// and `weft bench scale` runs once at scale. Needs a QApplication.

#include "Fabric.h"

#include <QSize>

#include <cstddef>
#include <memory>
#include <vector>

namespace weft::cli {

struct SceneTiming
{
    double buildSeconds = 0;    // layout (off the GUI thread, as the GUI does), items, load colours
    double repaintSeconds = 0;  // one full repaint at full zoom-out into an image of `size`
    // A new per-port load vector applied to the scene at full zoom-out (one tick of measured
    // samples: cables and bundles recoloured), and whether the picture was aggregated then.
    double recolourSeconds = 0;
    bool aggregated = false;
    std::size_t items = 0;
    // The same two with the overlays on: a selected switch's cables highlighted, what-if marks,
    // eBB bottlenecks, and cables coloured by measured load with congestion rings and error
    // badges; the tick is then a whole measured tick (setMeasuredTelemetry).
    double overlayRepaintSeconds = 0;
    double overlayRecolourSeconds = 0;
    // The zoom sequence (see zoomSequenceLevels), without and with those overlays: each frame is
    // the zoom or pan itself (aggregation switched on the way) and the viewport's repaint.
    std::vector<double> zoomFrameSeconds;
    std::vector<double> overlayZoomFrameSeconds;
};

// A zoom sequence's frames in figures: the 95th percentile is the nearest rank's.
struct FrameFigures
{
    std::size_t frames = 0;
    double medianSeconds = 0;
    double p95Seconds = 0;
    double maxSeconds = 0;
};
FrameFigures frameFigures(std::vector<double> frameSeconds);

// The zoom levels of the sequence, from `fitZoom` (full zoom-out) up: either side of every level
// where the picture changes (zoom:: in FabricItems.h), 1:1, and closer.
std::vector<double> zoomSequenceLevels(double fitZoom);

// Routes `fabric` with ftree and computes the uniform-traffic metrics first (not timed), so that
// cables are coloured by load as an operator looking at the whole fabric would see them.
class SceneBench
{
public:
    explicit SceneBench(std::shared_ptr<const Fabric> fabric);
    ~SceneBench();
    SceneBench(const SceneBench &) = delete;
    SceneBench &operator=(const SceneBench &) = delete;

    // Empty when the fabric could not be routed.
    QString error() const { return m_error; }
    // `zoomSequence`: also time the zoom sequence (without it only the repaints and ticks).
    SceneTiming run(QSize size, bool zoomSequence = true) const;

private:
    struct Inputs;
    std::unique_ptr<Inputs> m_inputs;
    QString m_error;
};

}  // namespace weft::cli
