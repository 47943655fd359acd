#pragma once
// The fabric as a picture: one item per node, cables batched per colour, racks that stand in
// for a leaf's hosts when zoomed out, and the cables of the selection highlighted (or, for two
// hosts, their route both ways through the forwarding tables).
// The scene keeps Qt's BSP index (the picture is static once built) and a fixed scene rect.
//
// Colour means something: cables by load under the routing shown (a perceptual ramp, light for
// idle, dark for the busiest) or by the partitions whose traffic crosses them; hosts by their
// partition or tenant. Recolouring regroups the cable batches; the nodes stay.
//
// Given a FabricDocument, the scene follows it by the kind of change: a new fabric is laid out
// and built anew; partitions recolour the hosts (and the cables, when they show partitions);
// the metrics of the routing shown recolour the cables. Weights and policies change nothing
// drawn until the metrics computed under them come in, so an edit never rebuilds the picture.

#include "DocumentChanges.h"
#include "EbbBottlenecks.h"
#include "Fabric.h"
#include "FabricCheck.h"
#include "FabricLayout.h"
#include "ForwardingTables.h"
#include "Metrics.h"
#include "SwitchGroups.h"
#include "Tenancy.h"
#include "TelemetryRecord.h"

#include <QColor>
#include <QGraphicsScene>

class QGraphicsPathItem;

#include <array>
#include <map>
#include <unordered_map>

#include <memory>
#include <optional>
#include <vector>

namespace weft {

class BundleItem;
class FabricDocument;
class GroupItem;
class HighlightItem;
class LinkLayerItem;
class MarksItem;
class NodeItem;
class RackItem;
class RowBandItem;

// Load: the routing model's; Measured: the port counters' utilisation (setMeasuredTelemetry).
enum class LinkColouring : std::uint8_t { Plain,
                                          Load,
                                          Partition,
                                          Measured };
enum class HostColouring : std::uint8_t { Plain, Partition, Tenant };
// Which routing colours the cables and answers route highlights: the tables the fabric holds
// now, or the routing preview's proposal.
enum class ShownRouting : std::uint8_t { Current, Proposed };

class FabricScene : public QGraphicsScene
{
    Q_OBJECT

public:
    struct Swatch  // one legend line for what the colours of the current mode mean
    {
        QColor colour;
        QString text;
        bool line = false;  // a cable, not a box
        double width = 0;   // for wide cables
    };

    explicit FabricScene(QObject *parent = nullptr);
    ~FabricScene() override;

    // Follows `document` from now on (see the top of this file) and shows what it holds.
    void setDocument(FabricDocument *document);
    // The routing to show of the document's; the proposal only while there is one.
    void setShownRouting(ShownRouting routing);
    ShownRouting shownRouting() const { return m_shownRouting; }
    // A big fabric is laid out on a worker thread; fabricShown() says when it is in the scene.
    bool isLayoutPending() const { return m_layoutPending; }

    // How often the picture was made anew (items for every node and cable) and how often the
    // cable batches were regrouped (a recolour): edits that should do neither are tested by them.
    std::size_t sceneBuilds() const { return m_sceneBuilds; }
    std::size_t linkLayerRebuilds() const { return m_linkLayerRebuilds; }

    // Replaces the picture. Call on the GUI thread with a layout computed for `fabric`
    // (computeFabricLayout may run anywhere).
    void setFabric(std::shared_ptr<const Fabric> fabric, FabricLayout layout);
    void clearFabric();

    const Fabric *fabric() const { return m_fabric.get(); }
    const FabricLayout &layout() const { return m_layout; }

    NodeItem *nodeItem(NodeIndex node) const;
    std::size_t nodeItemCount() const { return m_nodeItems.size(); }
    std::size_t rackCount() const { return m_rackItems.size(); }
    std::size_t linkLayerCount() const { return m_linkLayers.size(); }
    std::size_t linkLinesDrawn() const;  // cables drawn as lines, over all layers
    std::size_t highlightedCableCount() const;
    // The document's live changes as drawn (FabricDocument::liveChanges): cables a rediscovery
    // found gone, dashed red where they were, and new cables between known nodes, highlighted.
    std::size_t cablesMarkedGone() const { return m_cablesMarkedGone; }
    std::size_t cablesMarkedNew() const { return m_cablesMarkedNew; }
    static QColor goneCableColour();
    static QColor newCableColour();

    // What-if events (the reconfiguration studio's), drawn without touching the document's
    // fabric: failed cables dashed and crossed, failed switches and removed hosts greyed and
    // crossed. Empty lists clear them.
    void setWhatIfMarks(const std::vector<LinkIndex> &links, const std::vector<NodeIndex> &nodes);
    std::size_t whatIfMarkCount() const { return m_whatIfMarkCount; }
    static QColor whatIfColour();
    // Elements drained for maintenance (up, with no route on them): cables dotted, switches
    // outlined, in the drained colour. Empty lists clear them.
    void setDrainedMarks(const std::vector<LinkIndex> &links, const std::vector<NodeIndex> &nodes);
    std::size_t drainedMarkCount() const { return m_drainedMarkCount; }
    static QColor drainedColour();
    // The health check's findings (FabricCheck.h's healthMarksOf): design cables missing dashed
    // red where they should run and the nodes of those whose other end is gone outlined red,
    // miswired cables orange, sick cables (errors, not active, below design) purple. Empty clears.
    void setHealthMarks(const HealthMarks &marks);
    std::size_t healthMarkCount() const { return m_healthMarkCount; }
    static QColor missingCableColour();
    static QColor miswiredCableColour();
    static QColor sickCableColour();
    // eBB bottlenecks (EbbBottlenecks.h): each channel's cable drawn thick in the bottleneck
    // colour, labelled near its sending end with the share of the sampled streams it limits (and
    // a tooltip saying so), over everything else. Empty clears them.
    void setEbbBottlenecks(const std::vector<EbbBottleneck> &bottlenecks);
    const std::vector<EbbBottleneck> &ebbBottlenecks() const { return m_ebbBottlenecks; }
    QStringList ebbBottleneckLabels() const;  // the labels drawn, in the order given
    static QColor ebbBottleneckColour();
    // Back to the loads of the routing shown (or measured) after setCableLoads showed others.
    void showRoutingLoads();
    // Loads that stand in for the routing model's until cleared (a studio candidate's): unlike
    // setCableLoads they survive new metrics of the routing shown. Under LinkColouring::Measured
    // the measured loads still show. MapOverlays sets them; nothing else should.
    void setLoadOverlay(std::vector<double> loadByPort);
    void clearLoadOverlay();
    bool hasLoadOverlay() const { return m_hasLoadOverlay; }
    // The cable nearest `scenePos` within `reach` scene units, drawn as a line of its own;
    // kNoIndex if none.
    LinkIndex cableAt(const QPointF &scenePos, double reach) const;
    // The middle of a cable as it runs between its ends' rows (where its what-if cross goes).
    QPointF cableCentre(LinkIndex link) const;

    // Selects exactly this node (kNoIndex clears the selection).
    void selectNode(NodeIndex node);
    std::vector<NodeIndex> selectedNodes() const;

    QString toolTipFor(NodeIndex node) const;
    // The cable nearest `scenePos` within `reach` scene units, described; empty if none.
    QString cableToolTipAt(const QPointF &scenePos, double reach) const;

    // Who is in which partition and tenant: host colours and partition hues.
    void setTenancy(const Tenancy &tenancy);
    // The routing the picture shows: tables for route highlights, metrics for cable colours.
    // Either may be null (no routing known).
    void setRouting(std::shared_ptr<const ForwardingTables> tables, std::shared_ptr<const Metrics> metrics);
    // The load the cables (and bundles) are coloured by, per directed port: index PortIndex, the
    // load leaving by that port. setRouting sets the routing model's; a measured source sets
    // its own here. Recolours, nothing else: the cost of one tick of samples.
    void setCableLoads(std::vector<double> loadByPort);
    // One tick of measured rates (a telemetry sampler's): under LinkColouring::Measured the
    // cables take their transmit utilisation as load (through the same input as setCableLoads,
    // so bundles follow), ports whose PortXmitWait rises get a congestion mark at their cable
    // end, ports with error deltas an error badge; cable tooltips give rates and error deltas.
    void setMeasuredTelemetry(const std::vector<TelemetryRecord> &records);
    bool hasMeasuredTelemetry() const { return !m_measuredByPort.empty(); }
    std::size_t congestionMarkCount() const { return m_congestionMarkCount; }
    std::size_t errorBadgeCount() const { return m_errorBadgeCount; }
    static QColor congestionColour();
    static QColor errorBadgeColour();
    const ForwardingTables *tables() const { return m_tables.get(); }
    const Metrics *metrics() const { return m_metrics.get(); }
    void setLinkColouring(LinkColouring colouring);
    void setHostColouring(HostColouring colouring);
    LinkColouring linkColouring() const { return m_linkColouring; }
    HostColouring hostColouring() const { return m_hostColouring; }
    double maxCableLoad() const { return m_maxLoad; }
    std::vector<Swatch> colourSwatches() const;  // for the current modes; load: see loadColour
    QColor cableColour(LinkIndex link) const;    // as drawn now

    // The out ports a packet from `from` to `to` leaves by, host port first, following the
    // tables; empty without tables. *complete says whether it arrived.
    std::vector<PortIndex> routePorts(NodeIndex from, NodeIndex to, bool *complete = nullptr) const;
    std::size_t routeHopsShown() const;  // hops highlighted there and back; 0 if no route shown
    // Trace path's two routes, one way, in the route highlight: through the current tables
    // (solid) and through the proposed ones (dashed), each as out ports from the source host's
    // on. The next selection change puts the usual highlight back.
    void showTracedRoutes(const std::vector<PortIndex> &current, const std::vector<PortIndex> &proposed);
    // Whether the route highlight shows a trace (current and proposed) rather than there and back.
    bool tracedRoutesShown() const { return m_tracedRoutesShown; }

    // A node by name, description, GUID (with or without 0x) or LID ("lid 17" or a number that
    // is no GUID); kNoIndex if none. Exact matches first, then the first description containing it.
    NodeIndex findNode(const QString &text) const;
    // Port GUIDs of the selected hosts (cabled ports), for dragging them onto a partition.
    std::vector<Guid> selectedPortGuids() const;
    void selectNodes(const std::vector<NodeIndex> &nodes);

    // Collapsed (FabricView calls this on zoom), the hosts not selected are hidden: their racks
    // stand in for them, so hovering and clicking a rack reaches the rack, and a frame visits no
    // host. A host selected by any means is shown.
    void setHostsCollapsed(bool collapsed);
    bool hostsCollapsed() const { return m_hostsCollapsed; }
    // Adds the hosts whose boxes meet `area` to the selection, hidden or not: a rubber band
    // over collapsed racks selects their hosts as it would zoomed in.
    void selectHostsIn(const QPainterPath &area);

    static QColor switchColour(int tier, int topTier);
    static QColor hostColour();
    static QColor routerColour();
    static QColor serviceColour();  // a service node drawn beside its switch (SHArP's Aggregation Node)
    static QColor linkColour();
    static QColor selectionColour();
    static QColor returnRouteColour();
    static QColor loadColour(double fraction);  // 0..1 on the ramp
    static QColor hottestLoadColour();          // what the busiest cables and bundles are drawn in
    static QColor idleCableColour();
    static QColor partitionColour(int index);   // distinct hues, cycling
    static QColor sharedCableColour();
    static QColor oneEachWayCableColour();  // partitions on a cable, one each way: not shared
    static QColor severalPartitionsColour();

    // Zoomed out, a big fabric is drawn by groups of switches (pods, or bands of one tier; see
    // SwitchGroups.h), each one block, and the cables between two groups as one bundle, coloured
    // as one cable would be by the worst of its cables (load) or by the partitions they carry.
    // FabricView aggregates below zoom::kAggregateBelow; fabrics with fewer than
    // kAggregateMinCables switch cables are always drawn whole. Cables within a group are
    // hidden until it is expanded; expanding a group shows its switches and all its cables,
    // expanding a bundle its cables and the switches at both ends.
    static constexpr std::size_t kAggregateMinCables = 1000;
    struct Bundle
    {
        int upper = -1;  // group drawn above (or left of) the other
        int lower = -1;
        std::vector<LinkIndex> links;
        QLineF line;
        double worstLoad = 0;  // of the busier direction of each cable
        double meanLoad = 0;
    };
    void setAggregated(bool aggregated);  // going back to aggregated folds every group again
    bool canAggregate() const { return m_canAggregate; }
    bool isAggregated() const { return m_aggregated && m_canAggregate; }
    const SwitchGroups &switchGroups() const { return m_groups; }
    QString groupName(int group) const;
    const std::vector<Bundle> &bundles() const { return m_bundles; }
    QColor bundleColour(int bundle) const;
    bool isBundleShown(int bundle) const;                       // drawn as its one line now
    int hottestBundle() const { return m_hottestBundle; }       // -1 without load
    int bundleAt(const QPointF &scenePos, double reach) const;  // -1 if none shown there
    int groupAt(const QPointF &scenePos) const;                 // -1 if no block shown there
    void expandGroup(int group);
    void expandBundle(int bundle);
    bool isGroupExpanded(int group) const;
    bool isBundleExpanded(int bundle) const;
    bool areGroupSwitchesShown(int group) const;  // expanded, or at the end of an expanded bundle
    bool isCableDrawn(LinkIndex link) const;      // as a line of its own (or in a rack's trunk)
    QString bundleToolTip(int bundle) const;
    QString groupToolTip(int group) const;

Q_SIGNALS:
    void nodeSelectionChanged(const std::vector<weft::NodeIndex> &nodes);
    // The document's fabric is in the scene, laid out and coloured.
    void fabricShown();
    // Colours or the routing shown changed: the legend drawn over the scene is out of date.
    void coloursChanged();

protected:
    void helpEvent(QGraphicsSceneHelpEvent *event) override;

private:
    struct Cable  // what one batched line stands for
    {
        QLineF line;
        bool curved = false;
        QPointF control;  // of the arc, when curved
        std::vector<LinkIndex> links;  // one, or all host cables of a rack's trunk
    };
    void documentChanged(DocumentChanges what);
    void layOutDocumentFabric();
    void applyLayout(quint64 generation, std::shared_ptr<const Fabric> fabric, FabricLayout layout);
    void showDocumentRouting();
    void updateRoutedPartitions();
    void buildCables();
    void rebuildLinkLayers();
    void buildRowBands();
    void updateHighlight();
    void showCollapsedHosts();
    void updateNodeColours();
    void updatePartitionIndex();
    void markLiveChanges();
    QLineF cableLineBetween(NodeIndex a, NodeIndex b) const;  // as a cable between their rows runs
    int colourKey(const std::vector<LinkIndex> &links) const;  // see rebuildLinkLayers
    QColor keyColour(int key) const;
    double keyWidth(int key) const;
    void takeCableLoads(std::vector<double> loadByPort);
    void takeShownLoads();  // the model's or the measured loads, as the colouring asks
    void markMeasuredPorts();
    QString measuredCableText(const Link &link) const;
    void buildGroups();
    void showAggregation();  // which of blocks, bundles, switches and bands are visible
    void buildAggregateItems();
    void recolourBundles();
    bool linkDrawnAlone(LinkIndex link) const;
    void revealSwitches(const std::vector<NodeIndex> &nodes);
    double linkLoad(LinkIndex link) const;         // busier direction; 0 without metrics
    std::vector<int> linkPartitions(LinkIndex link) const;  // hue indices
    // One direction of the cable carries two partitions or more (as Metrics counts shared links).
    bool linkShared(LinkIndex link) const;
    bool hasOneEachWayCable() const;
    std::vector<int> hostPartitions(NodeIndex host) const;  // hue indices
    int hostTenant(NodeIndex host) const;
    QString partitionLabel(int hue) const;

    std::shared_ptr<const Fabric> m_fabric;
    FabricLayout m_layout;
    std::vector<NodeItem *> m_nodeItems;  // indexed by NodeIndex
    std::vector<RackItem *> m_rackItems;
    std::vector<LinkLayerItem *> m_linkLayers;
    std::vector<RowBandItem *> m_switchBands;  // the switch rows' bands (not the racks')
    SwitchGroups m_groups;
    std::vector<QRectF> m_groupRects;       // indexed by group
    std::vector<GroupItem *> m_groupItems;  // indexed by group, once aggregated
    std::vector<char> m_groupExpanded;
    std::vector<char> m_groupOpen;  // its switches shown: the end of an expanded bundle
    std::vector<Bundle> m_bundles;
    std::vector<char> m_bundleExpanded;
    std::vector<int> m_bundleOfLink;          // per LinkIndex; -1 within a group or to a host
    std::vector<BundleItem *> m_bundleItems;  // indexed by bundle, once aggregated
    int m_hottestBundle = -1;
    bool m_canAggregate = false;
    bool m_aggregated = false;
    HighlightItem *m_highlight = nullptr;
    HighlightItem *m_returnHighlight = nullptr;
    bool m_tracedRoutesShown = false;
    HighlightItem *m_goneMarks = nullptr;
    HighlightItem *m_newMarks = nullptr;
    std::size_t m_cablesMarkedGone = 0;
    std::size_t m_cablesMarkedNew = 0;
    HighlightItem *m_whatIfMarks = nullptr;
    QGraphicsPathItem *m_whatIfShades = nullptr;
    std::size_t m_whatIfMarkCount = 0;
    HighlightItem *m_drainedMarks = nullptr;  // parent of the switches' outlines
    std::size_t m_drainedMarkCount = 0;
    HighlightItem *m_healthMarks = nullptr;  // missing cables; parent of the other health marks
    std::size_t m_healthMarkCount = 0;
    QGraphicsPathItem *m_ebbMarks = nullptr;  // parent of one line and one label per bottleneck
    std::vector<EbbBottleneck> m_ebbBottlenecks;
    bool m_hostsCollapsed = false;

    std::vector<Cable> m_cables;
    Tenancy m_tenancy;
    std::vector<std::uint16_t> m_huePKeys;            // hue index -> P_Key (default excluded)
    std::map<Guid, std::vector<int>> m_portPartitions;  // port GUID -> hue indices
    std::map<Guid, int> m_portTenant;
    std::shared_ptr<const ForwardingTables> m_tables;
    std::shared_ptr<const Metrics> m_metrics;
    std::vector<double> m_loadByPort;                 // out port -> load, from m_metrics
    std::vector<std::vector<int>> m_partitionsByPort; // out port -> hue indices, from m_metrics
    double m_maxLoad = 0;
    std::vector<double> m_modelLoadByPort;     // from m_metrics
    std::vector<double> m_measuredLoadByPort;  // transmit utilisation, from setMeasuredTelemetry
    std::vector<double> m_overlayLoadByPort;   // setLoadOverlay's
    bool m_hasLoadOverlay = false;
    // What the map keeps of a port's measured rates: the figures its tooltip and marks show,
    // not the whole PortRates, so that a tick of every port copies a few MB rather than 70.
    struct MeasuredPort
    {
        CounterRate xmitBytes;
        CounterRate utilisation;
        CounterRate xmitWait;
        bool measured = false;
        bool erred = false;  // new errors: its deltas are in m_measuredErrors
    };
    std::vector<MeasuredPort> m_measuredByPort;
    std::unordered_map<PortIndex, std::array<CounterDelta, kPortErrorCounterCount>> m_measuredErrors;
    MarksItem *m_congestionMarks = nullptr;
    MarksItem *m_errorBadges = nullptr;
    std::size_t m_congestionMarkCount = 0;
    std::size_t m_errorBadgeCount = 0;
    LinkColouring m_linkColouring = LinkColouring::Plain;
    HostColouring m_hostColouring = HostColouring::Partition;

    FabricDocument *m_document = nullptr;
    ShownRouting m_shownRouting = ShownRouting::Current;
    quint64 m_layoutGeneration = 0;  // a layout that finishes after a newer fabric is dropped
    bool m_layoutPending = false;
    std::size_t m_sceneBuilds = 0;
    std::size_t m_linkLayerRebuilds = 0;
};

}  // namespace weft
