#pragma once
// Trace path: the route from one host to another, hop by hop, through the current tables and
// through the proposed (or a studio candidate's) side by side: at each hop the node, the port the
// packet came in by, the port it leaves by, what is on the far end, and the 64-entry block of the
// destination LID that the switch's entry is in. Hops where the two routes part are highlighted.
// The walk is RouteWalk's, the one the validation and the map's route highlight take.

#include "Fabric.h"
#include "ForwardingTables.h"
#include "HostRoute.h"

#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QTableWidget;

namespace weft {

class FabricDocument;

// A trace is core's route between two hosts (HostRoute.h).
using TracedPath = HostRoute;

class PathTrace : public QWidget
{
    Q_OBJECT

public:
    enum Column { HopColumn,
                  NodeColumn,
                  InPortColumn,
                  OutPortColumn,
                  NextColumn,
                  BlockColumn,
                  ColumnCount };

    explicit PathTrace(QWidget *parent = nullptr);

    // Follows the document's fabric, current tables and proposal from now on.
    void setDocument(FabricDocument *document);
    // Traces through these tables instead (a studio candidate beside the installed ones), until
    // the document's tables or proposal change. Either may be null (no routes).
    void setTables(std::shared_ptr<const Fabric> fabric, std::shared_ptr<const ForwardingTables> current,
                   std::shared_ptr<const ForwardingTables> proposed);

    // Traces from `from` to `to` (hosts of the fabric shown); false, tracing nothing, otherwise.
    bool trace(NodeIndex from, NodeIndex to);
    // The map's selection: two hosts are traced, anything else leaves the trace as it is.
    void setSelectedNodes(const std::vector<NodeIndex> &nodes);
    // Asks the map to highlight both routes of the trace (traced()); a trace chosen in the
    // host boxes asks by itself.
    void showOnMap();

    NodeIndex source() const { return m_from; }
    NodeIndex destination() const { return m_to; }
    const TracedPath &currentPath() const { return m_currentPath; }
    const TracedPath &proposedPath() const { return m_proposedPath; }
    // Hop rows highlighted as different on each side.
    std::vector<int> differingHops() const;
    QTableWidget *currentTable() const { return m_currentTable; }
    QTableWidget *proposedTable() const { return m_proposedTable; }

    static QColor differenceColour();

Q_SIGNALS:
    // Both routes of the trace, as out ports (host port first), for the map to highlight.
    void traced(weft::NodeIndex from, weft::NodeIndex to, const std::vector<weft::PortIndex> &currentPorts,
                const std::vector<weft::PortIndex> &proposedPorts);

private:
    void fillHostBoxes();
    void traceFromBoxes();
    NodeIndex hostIn(QComboBox *box) const;
    void retrace();
    void fillTable(QTableWidget *table, const TracedPath &path, const TracedPath &other);
    QString endText(const TracedPath &path) const;

    FabricDocument *m_document = nullptr;
    std::shared_ptr<const Fabric> m_fabric;
    std::shared_ptr<const ForwardingTables> m_current;
    std::shared_ptr<const ForwardingTables> m_proposed;
    NodeIndex m_from = kNoIndex;
    NodeIndex m_to = kNoIndex;
    TracedPath m_currentPath;
    TracedPath m_proposedPath;

    QComboBox *m_fromBox = nullptr;
    QComboBox *m_toBox = nullptr;
    QLabel *m_currentLabel = nullptr;
    QLabel *m_proposedLabel = nullptr;
    QTableWidget *m_currentTable = nullptr;
    QTableWidget *m_proposedTable = nullptr;
};

}  // namespace weft
