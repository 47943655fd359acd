#pragma once
// The fabric as a picture: one item per node, cables batched per pair of tiers, racks that
// stand in for a leaf's hosts when zoomed out, and the cables of the selection highlighted.
// The scene keeps Qt's BSP index (the picture is static once built) and a fixed scene rect.

#include "Fabric.h"
#include "FabricLayout.h"

#include <QColor>
#include <QGraphicsScene>

#include <memory>
#include <vector>

namespace weft {

class HighlightItem;
class LinkLayerItem;
class NodeItem;
class RackItem;

class FabricScene : public QGraphicsScene
{
    Q_OBJECT

public:
    explicit FabricScene(QObject *parent = nullptr);
    ~FabricScene() override;

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

    // Selects exactly this node (kNoIndex clears the selection).
    void selectNode(NodeIndex node);
    std::vector<NodeIndex> selectedNodes() const;

    QString toolTipFor(NodeIndex node) const;

    // Hosts are hidden when their racks stand in for them, so that hovering and clicking a
    // collapsed rack reaches the rack, not an invisible host. FabricView calls this on zoom.
    void setHostsCollapsed(bool collapsed);
    bool hostsCollapsed() const { return m_hostsCollapsed; }

    static QColor switchColour(int tier, int topTier);
    static QColor hostColour();
    static QColor routerColour();
    static QColor linkColour();
    static QColor selectionColour();

Q_SIGNALS:
    void nodeSelectionChanged(const std::vector<weft::NodeIndex> &nodes);

protected:
    void helpEvent(QGraphicsSceneHelpEvent *event) override;

private:
    void buildLinkLayers();
    void buildRowBands();
    void updateHighlight();

    std::shared_ptr<const Fabric> m_fabric;
    FabricLayout m_layout;
    std::vector<NodeItem *> m_nodeItems;  // indexed by NodeIndex
    std::vector<RackItem *> m_rackItems;
    std::vector<LinkLayerItem *> m_linkLayers;
    HighlightItem *m_highlight = nullptr;
    bool m_hostsCollapsed = false;
};

} // namespace weft
