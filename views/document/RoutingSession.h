#pragma once
// The routing side of the document: the tables the fabric holds now and their name, the
// partitions as the fabric was opened (the "current" side of every diff), what core says about
// the current tables under the tenancy being edited, the proposal of the last routing preview
// and the plan from the current state to it. The FabricDocument owns one and announces its
// changes (CurrentTables, Proposal, Plan) through its one changed() channel, so widgets only
// read from here and keep no copies.

#include "DocumentChanges.h"
#include "Fabric.h"
#include "ForwardingTables.h"
#include "Metrics.h"
#include "ReconfigurationPlan.h"
#include "RoutingProposal.h"
#include "Tenancy.h"
#include "TrafficModel.h"

#include <QObject>
#include <QString>

#include <map>
#include <memory>
#include <vector>

namespace weft {

class FabricDocument;

class RoutingSession : public QObject
{
    Q_OBJECT

public:
    ~RoutingSession() override;

    // The tables the switches hold now; null when none are known (every switch starts empty).
    std::shared_ptr<const ForwardingTables> currentTables() const { return m_currentTables; }
    QString currentTablesName() const { return m_currentTablesName; }
    // Replaces the current tables (an LFT dump read, a commit read back) and drops the
    // proposal, which was compared with the old ones. Their metrics follow on a worker thread,
    // announced as CurrentTables once more.
    void setCurrentTables(std::shared_ptr<const ForwardingTables> tables, const QString &name);

    // The partitions as the fabric was opened, before any edit.
    const std::vector<Partition> &baselinePartitions() const { return m_baselinePartitions; }

    // The current tables measured under the document's tenancy and trafficModel(). Null without
    // tables, and while new ones are computed after an edit: listeners keep what they showed
    // until CurrentTables says these are in.
    std::shared_ptr<const Metrics> currentMetrics() const { return m_currentMetrics; }
    // The traffic the current tables are measured under (the routing preview's choice).
    TrafficModel trafficModel() const { return m_model; }
    void setTrafficModel(const TrafficModel &model);
    // True until the current tables' metrics for the latest tenancy are in.
    bool isMeasuring() const { return m_measuring; }

    // The routing preview's result (the proposed tables and what core says of them, beside the
    // current ones); null when there is none. Setting or clearing it announces Proposal and Plan.
    std::shared_ptr<const PreviewResult> proposal() const { return m_proposal; }
    void setProposal(PreviewResult proposal);
    void clearProposal();
    // The tenancy changed since the proposal was routed (its figures are for other partitions),
    // or a rediscovery found the live fabric changed (FabricDocument::liveChanges).
    bool isProposalStale() const;
    // Why the plan must not be committed (the live fabric is no longer the one it was made
    // for: discover again, then preview again); empty when nothing stands against it.
    QString commitRefusal() const;

    // From the current tables and the baseline partitions to the proposal's tables and the
    // partitions as they are now; null without a proposal. Follows every partition and policy
    // edit (Plan), so that what is approved is what the operator sees.
    std::shared_ptr<const ReconfigurationPlan> plan() const { return m_plan; }

private:
    friend class FabricDocument;  // creates it and tells it what changed before announcing
    explicit RoutingSession(FabricDocument *document);
    // The document changed as `what` says: drop what no longer holds, start what must be
    // recomputed. Returns what that changed here in turn, to be announced with it.
    DocumentChanges follow(DocumentChanges what);
    void measureCurrentTables();
    void startMeasuring();
    void replan();

    FabricDocument *m_document;
    std::shared_ptr<const ForwardingTables> m_currentTables;
    QString m_currentTablesName;
    std::vector<Partition> m_baselinePartitions;
    std::shared_ptr<const Metrics> m_currentMetrics;
    TrafficModel m_model;
    quint64 m_metricsGeneration = 0;  // metrics that finish after newer input are dropped
    bool m_measuring = false;
    bool m_running = false;  // a run on a worker thread, current or not
    std::shared_ptr<const PreviewResult> m_proposal;
    bool m_proposalStale = false;
    std::shared_ptr<const ReconfigurationPlan> m_plan;
};

// The plan the Diff Review shows and a commit installs: from `current` tables (null: every
// switch starts empty) and `currentPartitions` to `proposed` and `proposedPartitions`, whose
// partitions.conf carries the routing's `serviceLevels` as `sl=`.
ReconfigurationPlan planProposal(const Fabric &fabric, const ForwardingTables *current, const ForwardingTables &proposed,
                                 const std::vector<Partition> &currentPartitions,
                                 const std::vector<Partition> &proposedPartitions,
                                 const std::map<std::uint16_t, int> &serviceLevels = {});

}  // namespace weft
