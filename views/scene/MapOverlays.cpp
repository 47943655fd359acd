#include "MapOverlays.h"

#include <algorithm>

namespace weft {

MapOverlays::MapOverlays(FabricScene *scene, QObject *parent)
    : QObject(parent), m_scene(scene)
{
    m_userColouring = m_scene->linkColouring();
    // A new fabric starts without anyone's marks (their indices were the old fabric's).
    connect(m_scene, &FabricScene::fabricShown, this, [this] {
        m_loadsOwner = nullptr;
        m_whatIfOwner = nullptr;
        m_ebbOwner = nullptr;
        m_traceOwner = nullptr;
        m_healthOwner = nullptr;
        applyColouring();
    });
}

void MapOverlays::watch(QObject *owner)
{
    if (std::find(m_watched.begin(), m_watched.end(), owner) != m_watched.end())
        return;
    m_watched.push_back(owner);
    connect(owner, &QObject::destroyed, this, [this, owner] {
        m_watched.erase(std::remove(m_watched.begin(), m_watched.end(), owner), m_watched.end());
        release(owner);
    });
}

void MapOverlays::applyColouring()
{
    const LinkColouring shown = m_loadsOwner && m_userColouring != LinkColouring::Measured ? LinkColouring::Load : m_userColouring;
    if (shown == m_scene->linkColouring())
        return;
    m_scene->setLinkColouring(shown);
    Q_EMIT linkColouringChanged(shown);
}

void MapOverlays::setLinkColouring(LinkColouring colouring)
{
    // The operator chose another view of the cables: a panel's loads give way to it.
    if (m_loadsOwner && colouring != LinkColouring::Load) {
        m_loadsOwner = nullptr;
        m_scene->clearLoadOverlay();
    }
    m_userColouring = colouring;
    applyColouring();
}

void MapOverlays::setHostColouring(HostColouring colouring)
{
    m_scene->setHostColouring(colouring);
}

void MapOverlays::setShownRouting(ShownRouting routing)
{
    m_scene->setShownRouting(routing);
}

void MapOverlays::setMeasuredTelemetry(const std::vector<TelemetryRecord> &records)
{
    m_scene->setMeasuredTelemetry(records);
}

void MapOverlays::showCableLoads(QObject *owner, std::vector<double> loadByPort)
{
    watch(owner);
    m_loadsOwner = owner;
    m_scene->setLoadOverlay(std::move(loadByPort));
    applyColouring();
}

void MapOverlays::showWhatIf(QObject *owner, const std::vector<LinkIndex> &links, const std::vector<NodeIndex> &nodes)
{
    watch(owner);
    m_whatIfOwner = links.empty() && nodes.empty() ? nullptr : owner;
    m_scene->setWhatIfMarks(links, nodes);
}

void MapOverlays::showDrained(QObject *owner, const std::vector<LinkIndex> &links, const std::vector<NodeIndex> &nodes)
{
    watch(owner);
    m_scene->setDrainedMarks(links, nodes);
}

void MapOverlays::showEbbBottlenecks(QObject *owner, const std::vector<EbbBottleneck> &bottlenecks)
{
    watch(owner);
    m_ebbOwner = bottlenecks.empty() ? nullptr : owner;
    m_scene->setEbbBottlenecks(bottlenecks);
}

void MapOverlays::showHealth(QObject *owner, const HealthMarks &marks)
{
    watch(owner);
    m_healthOwner = marks.empty() ? nullptr : owner;
    m_scene->setHealthMarks(marks);
}

void MapOverlays::showTracedRoutes(QObject *owner, const std::vector<PortIndex> &current, const std::vector<PortIndex> &proposed)
{
    watch(owner);
    m_traceOwner = owner;
    m_scene->showTracedRoutes(current, proposed);
}

void MapOverlays::releaseCableLoads(QObject *owner)
{
    if (!owner || m_loadsOwner != owner)
        return;
    m_loadsOwner = nullptr;
    m_scene->clearLoadOverlay();
    applyColouring();
}

void MapOverlays::release(QObject *owner)
{
    if (!owner)
        return;
    releaseCableLoads(owner);
    if (m_whatIfOwner == owner) {
        m_whatIfOwner = nullptr;
        m_scene->setWhatIfMarks({}, {});
    }
    if (m_ebbOwner == owner) {
        m_ebbOwner = nullptr;
        m_scene->setEbbBottlenecks({});
    }
    if (m_healthOwner == owner) {
        m_healthOwner = nullptr;
        m_scene->setHealthMarks({});
    }
    if (m_traceOwner == owner)
        m_traceOwner = nullptr;  // the next selection change puts the usual highlight back
}

}  // namespace weft
