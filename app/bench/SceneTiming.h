#pragma once
// One timed build and full repaint of the fabric view, offscreen: what `weft bench scene` repeats
// and `weft bench scale` runs once at scale. Needs a QApplication.

#include "Fabric.h"

#include <QSize>

#include <cstddef>
#include <memory>

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
};

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
    SceneTiming run(QSize size) const;

private:
    struct Inputs;
    std::unique_ptr<Inputs> m_inputs;
    QString m_error;
};

}  // namespace weft::cli
