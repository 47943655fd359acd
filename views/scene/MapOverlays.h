#pragma once
// The one owner of what the map shows beyond the fabric itself: how cables and hosts are
// coloured (the operator's choice in the toolbar), which routing they show (the tables the
// fabric holds or the proposal), the measured load of the session's telemetry, and what panels
// ask to have drawn over it: a studio candidate's load, the what-if events, eBB bottlenecks, a
// traced path. Panels request and release; none sets the scene's colours itself, so what one
// shows is never overwritten by whichever wrote last.
//
// A request names its owner (the panel); a newer request of the same owner replaces its older
// one, and release() drops all of an owner's requests (a panel's destruction does too). Loads
// requested stand in for the routing model's while they are the newest such request, and the
// cables show them by load; when they are released the cables go back to the routing shown and
// the operator's colouring.

#include "EbbBottlenecks.h"
#include "FabricScene.h"
#include "TelemetryRecord.h"

#include <QObject>

#include <vector>

namespace weft {

class MapOverlays : public QObject
{
    Q_OBJECT

public:
    explicit MapOverlays(FabricScene *scene, QObject *parent = nullptr);
    FabricScene *scene() const { return m_scene; }

    // ---- the operator's choices --------------------------------------------------------------
    // The colouring the operator chose; while a panel's loads are shown the cables show load.
    void setLinkColouring(LinkColouring colouring);
    LinkColouring linkColouring() const { return m_userColouring; }
    void setHostColouring(HostColouring colouring);
    void setShownRouting(ShownRouting routing);
    ShownRouting shownRouting() const { return m_scene->shownRouting(); }

    // ---- the session's measured load -----------------------------------------------------------
    void setMeasuredTelemetry(const std::vector<TelemetryRecord> &records);

    // ---- requests ------------------------------------------------------------------------------
    // Loads per directed port (PortIndex of the fabric shown) instead of the routing model's.
    void showCableLoads(QObject *owner, std::vector<double> loadByPort);
    // What-if events, marked without touching the fabric.
    void showWhatIf(QObject *owner, const std::vector<LinkIndex> &links, const std::vector<NodeIndex> &nodes);
    // Elements drained for maintenance (the intent in force's drained set).
    void showDrained(QObject *owner, const std::vector<LinkIndex> &links, const std::vector<NodeIndex> &nodes);
    void showEbbBottlenecks(QObject *owner, const std::vector<EbbBottleneck> &bottlenecks);
    // The health check's findings: missing, miswired and sick cables.
    void showHealth(QObject *owner, const HealthMarks &marks);
    // Two routes of a traced path (current solid, proposed dashed), until the selection changes.
    void showTracedRoutes(QObject *owner, const std::vector<PortIndex> &current, const std::vector<PortIndex> &proposed);
    // Drops `owner`'s loads (the cables go back to the routing shown).
    void releaseCableLoads(QObject *owner);
    // Drops every request of `owner`.
    void release(QObject *owner);
    // The owner of the loads shown now, if any.
    QObject *cableLoadsOwner() const { return m_loadsOwner; }

Q_SIGNALS:
    // The colouring the cables show changed (the toolbar follows).
    void linkColouringChanged(weft::LinkColouring colouring);

private:
    void applyColouring();
    void watch(QObject *owner);

    FabricScene *m_scene;
    LinkColouring m_userColouring = LinkColouring::Partition;
    // Compared only: an owner's destruction releases its requests first.
    QObject *m_loadsOwner = nullptr;
    QObject *m_whatIfOwner = nullptr;
    QObject *m_ebbOwner = nullptr;
    QObject *m_traceOwner = nullptr;
    QObject *m_healthOwner = nullptr;
    std::vector<QObject *> m_watched;
};

}  // namespace weft
