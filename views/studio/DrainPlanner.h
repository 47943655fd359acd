#pragma once
// The desk's Drain and Undrain (the map's cable and switch menus): the change routed off the GUI
// thread (routing/intent/DrainPlan.h) and made the session's proposal, for the one Diff Review and
// Approve. With Weft's engine inside OpenSM the plan is the intent in force with its drained set
// changed; with OpenSM's file engine, the tables the switches hold repaired around the elements.
// What is drained now (the intent in force's set) is what the map marks.

#include "ProjectFile.h"
#include "WhatIf.h"

#include <QObject>
#include <QString>

#include <optional>

namespace weft {

class FabricDocument;
class FabricSession;

// The intent the commit target's OpenSM reads, when the target routes with Weft's engine inside
// it and the intent can be read; none otherwise.
std::optional<Project> intentInForce(const FabricSession &session);
class FabricView;
class MapOverlays;

class DrainPlanner : public QObject
{
    Q_OBJECT

public:
    explicit DrainPlanner(FabricDocument *document, QObject *parent = nullptr);

    // The elements drained now: the drained set of the intent the commit target's OpenSM reads
    // (plugin mode); none otherwise or when it cannot be read.
    WhatIf drainedNow() const;
    bool isDrained(Guid node, int port) const;  // port 0: the switch
    bool isRunning() const { return m_running; }

    // Plans the drain (or undrain) of `elements`; planned() or failed() follows.
    void plan(const WhatIf &elements, bool drain);
    // The map's Drain and Undrain (FabricView::drainRequested) planned here, and what is drained
    // marked on it whenever the fabric, what it holds or the commit target changes.
    void connectMap(FabricView *view, MapOverlays *overlays);
    void showDrainedOnMap();

Q_SIGNALS:
    void planned(const QString &what);  // the session holds the proposal now
    void failed(const QString &why);

private:
    FabricDocument *m_document;
    MapOverlays *m_overlays = nullptr;
    bool m_running = false;
    quint64 m_generation = 0;
};

}  // namespace weft
