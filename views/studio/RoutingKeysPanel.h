#pragma once
// The Routing Keys panel: ARK or NRK keys (spec 004) for a job on the hosts picked on the map,
// planned as `weft keys` plans them (KeyPlan.h): the LID budget, and per phase its flows, Δ,
// slots and contention under DmodK and under the keys. "Review" makes the tables that realise
// the keys the document's proposal (CandidateReview.h), for the Diff Review and its Approve.
// The fabric must be a full 2- or 3-level fat tree (inferKeyTree) whose hosts have the LMC the
// phases' offsets need for Review; the plan itself needs no LMC.

#include "KeyPlan.h"
#include "RoutingKeys.h"

#include <QWidget>

#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace weft {

class FabricDocument;
class FabricScene;

class RoutingKeysPanel : public QWidget
{
    Q_OBJECT

public:
    enum Column { PhaseColumn,
                  OffsetColumn,
                  FlowsColumn,
                  DeltaColumn,
                  SlotsColumn,
                  DmodkMaxColumn,
                  DmodkMeanColumn,
                  KeyedMaxColumn,
                  KeyedMeanColumn,
                  IntraColumn,
                  ContentionFreeColumn,
                  ColumnCount };

    explicit RoutingKeysPanel(FabricDocument *document, QWidget *parent = nullptr);

    // "Use Map Selection" takes the hosts selected there.
    void setScene(FabricScene *scene);
    // The job's hosts; ranks follow the key tree's host order. Other nodes are ignored.
    void setHosts(const std::vector<NodeIndex> &hosts);
    void setScheme(KeyScheme scheme);
    void setPattern(KeyPattern pattern);

    // Plans the keys for the hosts chosen and shows them; the error is shown too.
    Status plan();
    // Makes the keyed tables the document's proposal.
    Status review();

    const std::optional<KeyPlan> &keyPlan() const { return m_plan; }
    const std::vector<int> &treeHosts() const { return m_treeHosts; }  // the job's key-tree hosts, by rank
    QTableWidget *phaseTable() const { return m_phases; }
    QString budgetText() const;
    QString statusText() const;

Q_SIGNALS:
    void reviewed();

private:
    void useSelection();
    void clearPlan();
    void showStatus(const QString &text, bool error);

    FabricDocument *m_document = nullptr;
    FabricScene *m_scene = nullptr;
    std::vector<int> m_treeHosts;
    std::optional<KeyTreeFabric> m_tree;
    std::optional<KeyPlan> m_plan;
    QLabel *m_hostsLabel = nullptr;
    QComboBox *m_scheme = nullptr;
    QComboBox *m_pattern = nullptr;
    QLabel *m_budget = nullptr;
    QLabel *m_status = nullptr;
    QTableWidget *m_phases = nullptr;
    QPushButton *m_planButton = nullptr;
    QPushButton *m_reviewButton = nullptr;
};

}  // namespace weft
