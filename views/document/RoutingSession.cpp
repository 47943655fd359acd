#include "RoutingSession.h"

#include "FabricDocument.h"

#include <QtConcurrent/QtConcurrentRun>

namespace weft {

namespace {

bool sameTraffic(const TrafficModel &a, const TrafficModel &b)
{
    return a.pattern == b.pattern && a.seed == b.seed && a.shift == b.shift;
}

}  // namespace

RoutingSession::RoutingSession(FabricDocument *document) : QObject(document), m_document(document) {}

RoutingSession::~RoutingSession() = default;

void RoutingSession::setCurrentTables(std::shared_ptr<const ForwardingTables> tables, const QString &name)
{
    m_currentTables = std::move(tables);
    m_currentTablesName = m_currentTables ? name : QString();
    measureCurrentTables();
    DocumentChanges what = DocumentChange::CurrentTables;
    if (m_proposal) {
        m_proposal.reset();
        replan();
        what |= DocumentChange::Proposal | DocumentChange::Plan;
    }
    m_document->announce(what);
}

bool RoutingSession::isProposalStale() const
{
    return m_proposal && (m_proposalStale || !m_document->liveChanges().empty());
}

QString RoutingSession::commitRefusal() const
{
    const FabricChanges &changes = m_document->liveChanges();
    if (changes.empty())
        return {};
    QStringList what;
    const auto count = [&what](const QStringList &items, const QString &text) {
        if (!items.isEmpty())
            what << text.arg(items.size());
    };
    count(changes.linksGone, tr("links gone: %1"));
    count(changes.linksNew, tr("new links: %1"));
    count(changes.nodesGone, tr("nodes gone: %1"));
    count(changes.nodesNew, tr("new nodes: %1"));
    count(changes.lidsChanged, tr("LIDs moved: %1"));
    return tr("The fabric changed since it was discovered (%1): this plan is stale. "
              "Discover the fabric again (Fabric > Discover), then preview again.")
        .arg(what.join(QStringLiteral(", ")));
}

void RoutingSession::setProposal(PreviewResult proposal)
{
    m_proposal = std::make_shared<const PreviewResult>(std::move(proposal));
    m_proposalStale = false;
    replan();
    m_document->announce(DocumentChange::Proposal | DocumentChange::Plan);
}

void RoutingSession::clearProposal()
{
    if (!m_proposal)
        return;
    m_proposal.reset();
    replan();
    m_document->announce(DocumentChange::Proposal | DocumentChange::Plan);
}

void RoutingSession::replan()
{
    const std::shared_ptr<const Fabric> fabric = m_document->fabric();
    if (!m_proposal || !m_proposal->proposed.tables || !fabric) {
        m_plan.reset();
        return;
    }
    m_plan = std::make_shared<const ReconfigurationPlan>(planProposal(*fabric, m_currentTables.get(),
                                                                      *m_proposal->proposed.tables, m_baselinePartitions,
                                                                      m_document->tenancy().partitions,
                                                                      m_proposal->proposed.serviceLevels));
}

ReconfigurationPlan planProposal(const Fabric &fabric, const ForwardingTables *current, const ForwardingTables &proposed,
                                 const std::vector<Partition> &currentPartitions,
                                 const std::vector<Partition> &proposedPartitions,
                                 const std::map<std::uint16_t, int> &serviceLevels)
{
    ReconfigurationRequest request;
    request.serviceLevels = serviceLevels;
    request.currentPartitions.partitions = currentPartitions;
    request.proposedPartitions = PartitionsState{proposedPartitions, std::nullopt, {}};
    return planReconfiguration(fabric, current ? *current : ForwardingTables(), proposed, request);
}

void RoutingSession::setTrafficModel(const TrafficModel &model)
{
    if (sameTraffic(model, m_model))
        return;
    m_model = model;
    measureCurrentTables();
}

DocumentChanges RoutingSession::follow(DocumentChanges what)
{
    DocumentChanges followed;
    if (what & DocumentChange::Fabric) {
        m_currentTables.reset();
        m_currentTablesName.clear();
        m_baselinePartitions = m_document->tenancy().partitions;
        measureCurrentTables();
        m_proposal.reset();
        m_proposalStale = false;
        m_plan.reset();
        return DocumentChange::CurrentTables | DocumentChange::Proposal | DocumentChange::Plan;
    }
    if (!(what & kTenancyChanges))
        return followed;
    // Metrics depend on who may talk to whom, on lanes and on weights: every tenancy edit.
    measureCurrentTables();
    // The proposal was routed for the partitions as they were; it stays, marked as such, and
    // the plan carries the partitions as they are now (partitions.conf holds no weights).
    m_proposalStale = m_proposal != nullptr;
    if (m_proposal && (what & (DocumentChange::Partitions | DocumentChange::Policies))) {
        replan();
        followed |= DocumentChange::Plan;
    }
    return followed;
}

void RoutingSession::measureCurrentTables()
{
    ++m_metricsGeneration;
    m_currentMetrics.reset();
    m_measuring = m_currentTables && m_document->fabric();
    if (m_measuring && !m_running)
        startMeasuring();
}

void RoutingSession::startMeasuring()
{
    // A big fabric takes a while to measure: off the GUI thread, one run at a time. Edits made
    // during a run make its result stale; the latest input is measured once it ends, rather
    // than one more run of the same size queued per edit.
    m_running = true;
    const quint64 generation = m_metricsGeneration;
    auto fabric = m_document->fabric();
    auto tables = m_currentTables;
    Tenancy tenancy = m_document->tenancy();
    const TrafficModel model = m_model;
    QtConcurrent::run([fabric, tables, tenancy, model] {
        return std::make_shared<const Metrics>(computeMetrics(*fabric, tenancy, *tables, model));
    }).then(this, [this, generation](std::shared_ptr<const Metrics> metrics) {
        m_running = false;
        if (generation != m_metricsGeneration) {
            if (m_measuring)
                startMeasuring();
            return;
        }
        m_currentMetrics = std::move(metrics);
        m_measuring = false;
        m_document->announce(DocumentChange::CurrentTables);
    });
}

}  // namespace weft
