#include "DrainPlanner.h"

#include "CommitDestination.h"
#include "DrainPlan.h"
#include "FabricDocument.h"
#include "FabricSession.h"
#include "FabricView.h"
#include "MapOverlays.h"
#include "ProjectFile.h"

#include <QtConcurrent/QtConcurrentRun>

namespace weft {

std::optional<Project> intentInForce(const FabricSession &session)
{
    if (!session.destination() || !session.destination()->installsIntents())
        return std::nullopt;
    const QString path = session.planningTarget().intentPath;
    if (path.isEmpty())
        return std::nullopt;
    Result<Project> project = readProjectFile(path);
    if (!project)
        return std::nullopt;
    return std::move(*project);
}

DrainPlanner::DrainPlanner(FabricDocument *document, QObject *parent)
    : QObject(parent), m_document(document)
{
}

WhatIf DrainPlanner::drainedNow() const
{
    const std::optional<Project> intent = intentInForce(*m_document->session());
    if (!intent)
        return {};
    const Result<IntentOptions> options = intentOptions(*intent);
    return options ? options->drained : WhatIf{};
}

bool DrainPlanner::isDrained(Guid node, int port) const
{
    const WhatIf drained = drainedNow();
    if (port == 0)
        return std::find(drained.failedSwitches.begin(), drained.failedSwitches.end(), node) != drained.failedSwitches.end();
    const std::shared_ptr<const Fabric> fabric = m_document->fabric();
    if (!fabric)
        return false;
    for (const auto &end : drained.failedLinkPorts)
        if (sameCable(*fabric, {node, port}, end))
            return true;
    return false;
}

void DrainPlanner::plan(const WhatIf &elements, bool drain)
{
    FabricSession *session = m_document->session();
    const std::shared_ptr<const Fabric> fabric = m_document->fabric();
    if (!fabric) {
        Q_EMIT failed(tr("there is no fabric to drain"));
        return;
    }
    const std::optional<Project> inForce = intentInForce(*session);
    DrainRequest request;
    request.fabric = fabric;
    request.current = session->currentTables();
    request.elements = elements;
    request.drain = drain;
    request.model = session->trafficModel();
    request.pluginMode = inForce.has_value();
    if (inForce) {
        const Result<IntentOptions> options = intentOptions(*inForce);
        Result<WhatIf> drained = changeDrainedSet(*fabric, options ? options->drained : WhatIf{}, elements, drain);
        if (!drained) {
            Q_EMIT failed(drained.error().message);
            return;
        }
        request.intent = withDrained(*inForce, *drained, fabric.get());
    } else {
        if (!request.current) {
            Q_EMIT failed(tr("the tables the switches hold are not known: discover the fabric first"));
            return;
        }
        request.intent = m_document->project();
        request.intent.tenancy = m_document->tenancy();
    }
    const QString what = drainedElementsText(*fabric, elements);
    const QString name = drain ? tr("Drain: %1").arg(what) : tr("Undrain: %1").arg(what);
    m_running = true;
    const quint64 generation = ++m_generation;
    QtConcurrent::run([request] { return std::make_shared<Result<DrainPreview>>(computeDrainPreview(request)); })
        .then(this, [this, generation, request, name, what](std::shared_ptr<Result<DrainPreview>> outcome) {
            if (generation != m_generation)
                return;
            m_running = false;
            if (!*outcome) {
                Q_EMIT failed(outcome->error().message);
                return;
            }
            DrainPreview &drained = **outcome;
            if (!drained.problems.isEmpty()) {
                Q_EMIT failed(tr("%1 is refused: %2").arg(name, drained.problems.mid(0, 6).join(QStringLiteral("; "))));
                return;
            }
            drained.preview.proposed.label = tr("Proposed: %1").arg(name);
            if (drained.preview.current)
                drained.preview.current->label = tr("Current");
            ProposalOrigin origin;
            origin.name = name;
            origin.tenancy = request.intent.tenancy;
            if (request.pluginMode)
                origin.intent = request.intent;
            m_document->session()->setProposal(std::move(drained.preview), std::move(origin));
            Q_EMIT planned(what);
        });
}

void DrainPlanner::connectMap(FabricView *view, MapOverlays *overlays)
{
    m_overlays = overlays;
    view->setDrainedTest([this](Guid node, int port) { return isDrained(node, port); });
    connect(view, &FabricView::drainRequested, this, [this](Guid node, int port, bool drain) {
        WhatIf elements;
        if (port == 0)
            elements.failedSwitches.push_back(node);
        else
            elements.failedLinkPorts.emplace_back(node, port);
        plan(elements, drain);
    });
    connect(m_document, &FabricDocument::changed, this, [this](DocumentChanges what) {
        if (what & (DocumentChanges(DocumentChange::Fabric) | DocumentChange::CurrentTables | DocumentChange::Session))
            showDrainedOnMap();
    });
    showDrainedOnMap();
}

void DrainPlanner::showDrainedOnMap()
{
    if (!m_overlays)
        return;
    std::vector<LinkIndex> links;
    std::vector<NodeIndex> nodes;
    const std::shared_ptr<const Fabric> fabric = m_document->fabric();
    if (fabric) {
        const WhatIf drained = drainedNow();
        for (const auto &[guid, number] : drained.failedLinkPorts) {
            const NodeIndex n = fabric->nodeByGuid(guid);
            const PortIndex p = n == kNoIndex ? kNoIndex : fabric->portOf(n, number);
            if (p != kNoIndex && fabric->port(p).link != kNoIndex)
                links.push_back(fabric->port(p).link);
        }
        for (const Guid guid : drained.failedSwitches)
            if (const NodeIndex n = fabric->nodeByGuid(guid); n != kNoIndex)
                nodes.push_back(n);
    }
    m_overlays->showDrained(this, links, nodes);
}

}  // namespace weft
