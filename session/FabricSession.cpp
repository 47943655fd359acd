#include "FabricSession.h"

#include "Autopilot.h"
#include "CommitPlanning.h"
#include "IntentRouting.h"
#include "LiveRead.h"
#include "PKeyIndexMemory.h"
#include "PKeyTables.h"
#include "TelemetryHistory.h"
#include "TelemetrySampler.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QPointer>
#include <QStandardPaths>
#include <QtConcurrent/QtConcurrentRun>

namespace weft {

namespace {

bool sameTraffic(const TrafficModel &a, const TrafficModel &b)
{
    return a.pattern == b.pattern && a.seed == b.seed && a.shift == b.shift;
}

template <class T>
bool samePointee(const std::shared_ptr<const T> &a, const std::shared_ptr<const T> &b)
{
    return a == b || (a && b && *a == *b);
}

bool sameHeld(const HeldTables &a, const HeldTables &b)
{
    return samePointee(a.lfts, b.lfts) && samePointee(a.pkeys, b.pkeys) && a.smPort == b.smPort;
}

// A commit or recovery the link gave back without running it: nothing was written, nothing is
// journalled.
CommitReport reportOf(Result<CommitReport> report)
{
    if (report)
        return std::move(*report);
    CommitReport refused;
    refused.outcome = CommitOutcome::Refused;
    refused.reasons << report.error().toString();
    return refused;
}

QString clockTime()
{
    return QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss"));
}

// P_Key tables read on one snapshot of a fabric, indexed by the ports of another snapshot of
// the same topology (a rediscovery or a commit numbers the ports as it finds them).
std::shared_ptr<const PKeyTables> onFabric(const std::shared_ptr<const PKeyTables> &tables, const Fabric &from, const Fabric &to)
{
    if (!tables || &from == &to)
        return tables;
    std::vector<PortPKeyTable> ports;
    ports.reserve(tables->ports().size());
    for (PortPKeyTable table : tables->ports()) {
        const Port &port = from.port(table.port);
        const NodeIndex node = to.nodeByGuid(from.node(port.node).guid);
        if (node == kNoIndex)
            continue;
        table.port = to.portOf(node, port.number);
        if (table.port == kNoIndex)
            continue;
        ports.push_back(std::move(table));
    }
    return std::make_shared<const PKeyTables>(PKeyTables::fromPorts(std::move(ports)));
}

// One line per kind of difference between what the session held and what was read again.
QStringList describeHeldChanges(const Fabric &fabric, const HeldTables &before, const HeldTables &after)
{
    QStringList lines;
    if (before.lfts && after.lfts) {
        int switches = 0;
        for (NodeIndex sw : fabric.switches()) {
            const Guid guid = fabric.node(sw).guid;
            const SwitchForwardingTable *a = before.lfts->find(guid);
            const SwitchForwardingTable *b = after.lfts->find(guid);
            if ((a == nullptr) != (b == nullptr) || (a && !(a->lft == b->lft)))
                ++switches;
        }
        if (switches)
            lines << QCoreApplication::translate("weft::FabricSession", "the forwarding tables of %n switch(es) changed", nullptr, switches);
    }
    if (before.pkeys && after.pkeys && *before.pkeys != *after.pkeys)
        lines << QCoreApplication::translate("weft::FabricSession", "P_Key tables changed");
    if (before.smPort && after.smPort && before.smPort != after.smPort)
        lines << QCoreApplication::translate("weft::FabricSession", "OpenSM now runs on %1").arg(smPortText(fabric, after.smPort));
    return lines;
}

}  // namespace

FabricSession::FabricSession(QObject *parent)
    : QObject(parent), m_link(std::make_unique<FabricLink>())
{
    m_sampler = new TelemetrySampler(m_link->caller(), this);
    m_autopilot = new Autopilot(this);
}

FabricSession::~FabricSession()
{
    if (m_cancelDiscovery)
        m_cancelDiscovery->store(true);
    // Before the children go: the sampler's thread and the autopilot's tick may be waiting on the
    // link, and stopping it releases them. Nobody is called back from here; a job that does not
    // end in time is left to itself (it holds its own copies of what it reads and writes).
    m_link->stop(kLinkStopOnDestruction, false);
}

void FabricSession::announce(DocumentChanges what)
{
    if (!what)
        return;
    m_autopilot->follow(what);
    Q_EMIT changed(what);
}

// ---- the fabric and the tenancy ----------------------------------------------------------------

DocumentChanges FabricSession::setFabric(std::shared_ptr<const Fabric> fabric, const Tenancy &tenancy, quint64 revision)
{
    m_fabric = std::move(fabric);
    m_tenancy = tenancy;
    m_revision = revision;
    m_baselinePartitions = tenancy.partitions;
    m_liveChanges = {};
    m_heldChanges.clear();
    m_proposal.reset();
    m_origin = {};
    m_made = {};
    m_plan.reset();
    m_committedProposal.clear();
    m_whatIf = {};
    if (m_discoveredState && m_discoveredState->fabric == m_fabric) {
        m_held = m_discoveredState->held;
        m_heldName = tr("held by the switches");
        m_live = true;
    } else {
        m_held = {};
        m_heldName.clear();
        m_live = false;
    }
    m_discoveredState.reset();
    ++m_heldGeneration;
    measureCurrentTables();
    updateSampler();
    const DocumentChanges what = DocumentChange::CurrentTables | DocumentChange::Proposal | DocumentChange::Plan
        | DocumentChange::LiveChanges | DocumentChange::WhatIf | DocumentChange::Session;
    m_autopilot->follow(what | DocumentChange::Fabric);
    return what;
}

DocumentChanges FabricSession::followTenancy(const Tenancy &tenancy, quint64 revision, DocumentChanges what)
{
    m_tenancy = tenancy;
    m_revision = revision;
    if (!(what & kTenancyChanges))
        return {};
    // Metrics depend on who may talk to whom, on lanes and on weights: every tenancy edit.
    measureCurrentTables();
    DocumentChanges followed;
    if (m_proposal && !m_origin.tenancy) {
        // The plan installs the partitions as they are now; the proposal was made for others and
        // is stale (partitions.conf holds no weights, but the routing may have used them).
        replan();
        followed |= DocumentChange::Proposal | DocumentChange::Plan;
    }
    m_autopilot->follow(what | followed);
    return followed;
}

// ---- what the fabric holds ---------------------------------------------------------------------

DocumentChanges FabricSession::adoptHeld(HeldTables held, const QString &name, bool live)
{
    m_heldName = name;
    m_live = live;
    if (sameHeld(held, m_held))
        return DocumentChange::Session;
    m_held = std::move(held);
    ++m_heldGeneration;
    measureCurrentTables();
    replan();
    return DocumentChange::CurrentTables | DocumentChange::Proposal | DocumentChange::Plan;
}

void FabricSession::setCurrentTables(std::shared_ptr<const ForwardingTables> tables, const QString &name)
{
    const QString shownName = tables ? name : QString();
    HeldTables held;
    held.lfts = std::move(tables);
    announce(adoptHeld(std::move(held), shownName, false) | DocumentChange::CurrentTables);
    updateSampler();
}

// ---- metrics -------------------------------------------------------------------------------------

void FabricSession::setTrafficModel(const TrafficModel &model)
{
    if (sameTraffic(model, m_model))
        return;
    m_model = model;
    measureCurrentTables();
}

void FabricSession::measureCurrentTables()
{
    ++m_metricsGeneration;
    m_currentMetrics.reset();
    m_measuring = m_held.lfts && m_fabric;
    if (m_measuring && !m_measureRunning)
        startMeasuring();
}

void FabricSession::startMeasuring()
{
    // A big fabric takes a while to measure: off this thread, one run at a time. Edits made
    // during a run make its result stale; the latest input is measured once it ends, rather
    // than one more run of the same size queued per edit.
    m_measureRunning = true;
    const quint64 generation = m_metricsGeneration;
    auto fabric = m_fabric;
    auto tables = m_held.lfts;
    Tenancy tenancy = m_tenancy;
    const TrafficModel model = m_model;
    QtConcurrent::run([fabric, tables, tenancy, model] {
        return std::make_shared<const Metrics>(computeMetrics(*fabric, tenancy, *tables, model));
    }).then(this, [this, generation](std::shared_ptr<const Metrics> metrics) {
        m_measureRunning = false;
        if (generation != m_metricsGeneration) {
            if (m_measuring)
                startMeasuring();
            return;
        }
        m_currentMetrics = std::move(metrics);
        m_measuring = false;
        announce(DocumentChange::CurrentTables);
    });
}

// ---- the connection and the target ---------------------------------------------------------------

namespace {

LiveOptions liveOptionsOf(const QString &caName, int caPort)
{
    LiveOptions options;
    options.caName = caName;
    options.caPort = caPort;
    return options;
}

}  // namespace

void FabricSession::setAdapter(const QString &caName, int caPort)
{
    if (caName == m_caName && caPort == m_caPort)
        return;
    m_caName = caName;
    m_caPort = caPort;
    updateSampler();
    announce(DocumentChange::Session);
}

QString FabricSession::adapterText() const
{
    if (m_remote && !m_remote->via.isEmpty())
        return m_remote->via;
    const QString name = m_caName.isEmpty() ? tr("the first adapter") : m_caName;
    return m_caPort > 0 ? tr("%1 port %2").arg(name).arg(m_caPort) : name;
}

Result<std::vector<LocalAdapter>> FabricSession::localAdapters()
{
    return listLocalAdapters();
}

void FabricSession::chooseDestination()
{
    // The one place the kind is decided: a connected service takes every commit, else the
    // subnet's SMs when a subnet target is set, else the one OpenSM.
    m_destination = m_remote ? commitDestination(*m_remote) : m_subnet ? commitDestination(*m_subnet) : commitDestination(m_target);
}

void FabricSession::setCommitTarget(const CommitTarget &target)
{
    m_target = target;
    chooseDestination();
    replan();
    announce(DocumentChange::Session | DocumentChange::Plan);
}

void FabricSession::setRemoteTarget(std::optional<RemoteTarget> remote)
{
    m_remote = std::move(remote);
    chooseDestination();
    replan();
    announce(DocumentChange::Session | DocumentChange::Plan);
}

QString FabricSession::journalPath() const
{
    return m_destination ? m_destination->journalPath() : QString();
}

Status FabricSession::setSubnetTarget(const QString &path)
{
    std::optional<SubnetTarget> subnet;
    if (!path.isEmpty()) {
        Result<SubnetTarget> read = readSubnetTargetFile(path);
        if (!read)
            return read.error();
        subnet = std::move(*read);
    }
    setSubnetTarget(std::move(subnet));
    return Done{};
}

void FabricSession::setSubnetTarget(std::optional<SubnetTarget> subnet)
{
    m_subnet = std::move(subnet);
    m_subnetCheck.reset();
    ++m_subnetGeneration;
    chooseDestination();
    replan();
    announce(DocumentChange::Session | DocumentChange::Plan);
}

QString FabricSession::lastMasterName() const
{
    const SubnetManagerStatus *master = m_subnetCheck ? m_subnetCheck->master() : nullptr;
    return master ? master->name : QString();
}

CommitTarget FabricSession::planningTarget() const
{
    return m_destination ? m_destination->planningTarget(lastMasterName()) : m_target;
}

bool FabricSession::targetPluginMode() const
{
    return m_destination && m_destination->installsIntents();
}

QString FabricSession::commitTargetText() const
{
    if (!m_destination)
        return {};
    switch (m_destination->kind()) {
    case CommitDestination::Kind::Service:
        return m_remote->description;
    case CommitDestination::Kind::Subnet: {
        QStringList names;
        for (const SubnetManagerEntry &e : m_subnet->sms)
            names << e.name;
        return tr("subnet %1 (%n SM(s): %2)", nullptr, int(names.size())).arg(m_subnet->subnet, names.join(QStringLiteral(", ")));
    }
    case CommitDestination::Kind::OpenSmIntent:
        return tr("intent %1 and %2").arg(m_target.intentPath, m_target.partitionsPath);
    case CommitDestination::Kind::OpenSmFiles:
        return tr("%1 and %2").arg(m_target.lftsPath, m_target.partitionsPath);
    }
    return {};
}

bool FabricSession::checkSubnetManagers()
{
    if (!m_subnet)
        return false;
    if (m_checkingSubnet) {
        m_checkSubnetAgain = true;
        return true;
    }
    m_checkingSubnet = true;
    m_checkSubnetAgain = false;
    const quint64 generation = m_subnetGeneration;
    // A live fabric just discovered has its SM ports marked: only their SMInfo is read again.
    const std::shared_ptr<const Fabric> discovered = m_live ? m_fabric : nullptr;
    m_link->submit(
        FabricLink::Kind::SubnetCheck, tr("the subnet's SMs"), this,
        [subnet = *m_subnet, access = fabricAccess(), discovered](const FabricLink::Job &) {
            return discovered ? checkSubnet(subnet, *discovered, access) : checkSubnet(subnet, access);
        },
        [this, generation](Result<SubnetCheck> check) {
            m_checkingSubnet = false;
            if (!check)
                return;  // the link stopped: the session is ending
            if (generation == m_subnetGeneration) {
                m_subnetCheck = *check;
                Q_EMIT subnetChecked(*check);
            }
            if (m_checkSubnetAgain || generation != m_subnetGeneration)
                checkSubnetManagers();
        });
    return true;
}

std::function<CommitReport(CommitOptions)> FabricSession::recovery() const
{
    if (!m_destination)
        return [](CommitOptions) {
            CommitReport report;
            report.outcome = CommitOutcome::Refused;
            report.reasons << tr("no commit target is configured (Fabric ▸ Commit Target…)");
            return report;
        };
    // Whoever calls it (the desk's recovery dialog on its worker, the service, a command), the
    // recovery waits its turn on the link like every other piece of MAD work.
    return [link = m_link->caller(), destination = m_destination, access = fabricAccess()](CommitOptions options) {
        return reportOf(link.call(FabricLink::Kind::Recovery, tr("recovery of the unfinished commit"),
                                  // By value: a caller that stops waiting (the link stopping
                                  // with the session) leaves the job to run on its own.
                                  [destination, access, options](const FabricLink::Job &) { return destination->recover(access, options); }));
    };
}

CommitBackend FabricSession::fabricAccess() const
{
    return m_access ? m_access() : liveAccess(liveOptionsOf(m_caName, m_caPort));
}

void FabricSession::setHistoryDirectory(const QString &dir)
{
    m_historyDir = dir;
}

void FabricSession::updateSampler()
{
    const std::shared_ptr<const Fabric> readable = m_live ? m_fabric : nullptr;
    if (m_sampler->fabric() == readable && m_sampler->adapterName() == m_caName && m_sampler->adapterPort() == m_caPort)
        return;
    m_sampler->setFabric(readable, liveOptionsOf(m_caName, m_caPort));
    QString path;
    if (readable) {
        // One history file per fabric, named after it, continued from one session to the next.
        const QString dir = !m_historyDir.isEmpty() ? m_historyDir
                                                    : QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/telemetry");
        if (QDir().mkpath(dir))
            path = dir + QStringLiteral("/%1.sqlite").arg(fabricHistoryId(*readable));
    }
    m_sampler->setHistoryPath(path);
}

// ---- discovery -----------------------------------------------------------------------------------

bool FabricSession::discover(bool rediscover)
{
    if (m_discovering || (rediscover && !m_fabric) || m_link->isStopped())
        return false;
    m_discovering = true;
    m_rediscovering = rediscover;
    m_cancelDiscovery = std::make_shared<std::atomic_bool>(false);
    const std::shared_ptr<std::atomic_bool> cancel = m_cancelDiscovery;
    const LiveOptions options = liveOptionsOf(m_caName, m_caPort);
    const QString conf = planningTarget().partitionsPath;
    QPointer<FabricSession> self(this);
    // Progress crosses to this thread queued; the job only reads its stop flag.
    const LiveReadProgress progress = [self](const QString &step, int done, int total) {
        QMetaObject::invokeMethod(
            self, [self, step, done, total] {
                if (self && self->m_discovering)
                    Q_EMIT self->discoveryProgress(step, done, total);
            },
            Qt::QueuedConnection);
    };
    announce(DocumentChange::Session);
    const std::function<Result<LiveState>()> reader = m_reader;
    // Queued behind a commit, it waits for it (isDiscovering() is true meanwhile) and reads what
    // the commit left. The link's stop flag cancels it as cancelDiscovery() does.
    m_discoveryJob = m_link->submit(
        FabricLink::Kind::Discovery, rediscover ? tr("rediscovery") : tr("discovery"), this,
        [options, conf, progress, reader](const FabricLink::Job &job) {
            return reader ? reader() : readLiveState(options, conf, progress, job.stopFlag());
        },
        [this, cancel](Result<LiveState> state) {
            m_discovering = false;
            m_discoveryJob = 0;
            const bool cancelled = cancel->load();
            if (!state || cancelled) {
                announce(DocumentChange::Session);
                Q_EMIT discoveryFinished(false, cancelled ? tr("Discovery cancelled.") : state.error().toString(), cancelled);
                return;
            }
            if (m_rediscovering) {
                takeRediscovered(*state);
            } else {
                m_discoveredState = std::make_shared<const LiveState>(std::move(*state));
                // The document takes the fabric (setFabric then takes what it holds).
                Q_EMIT discovered(m_discoveredState);
                announce(DocumentChange::Session);
            }
            // Which SM is master, and any the target does not name, may have changed with the fabric.
            checkSubnetManagers();
            Q_EMIT discoveryFinished(true, {}, false);
        });
    return true;
}

void FabricSession::cancelDiscovery()
{
    if (m_cancelDiscovery)
        m_cancelDiscovery->store(true);
    if (m_discoveryJob)
        m_link->cancel(m_discoveryJob);
}

void FabricSession::takeRediscovered(const LiveState &state)
{
    DocumentChanges what = DocumentChange::LiveChanges | DocumentChange::Session;
    m_heldChanges.clear();
    FabricChanges changes = compareFabrics(*m_fabric, *state.fabric);
    if (!changes.empty()) {
        // The fabric shown stays the one every plan was made for, so the map can mark what
        // changed; every plan is stale until the operator discovers it anew.
        m_liveChanges = std::move(changes);
        announce(what | DocumentChange::Proposal);
        return;
    }
    m_liveChanges = {};
    // What was read is what a plan must be made from now, even when it holds what it held: a plan
    // made before the rediscovery is stale (the operator reviewed the fabric as it was then).
    ++m_readGeneration;
    m_readAt = clockTime();
    if (m_proposal)
        what |= DocumentChange::Proposal | DocumentChange::Plan;
    // The same topology: what it holds now is what was just read.
    HeldTables held = state.held;
    held.pkeys = onFabric(held.pkeys, *state.fabric, *m_fabric);
    if (!held.smPort)
        held.smPort = m_held.smPort;  // not found this time: the last one known
    m_heldChanges = describeHeldChanges(*m_fabric, m_held, held);
    what |= adoptHeld(std::move(held), tr("read again at %1").arg(clockTime()), true);
    updateSampler();
    announce(what);
}

Result<LiveState> FabricSession::discoverNow()
{
    Result<LiveState> state = m_link->call(FabricLink::Kind::Discovery, tr("discovery"),
                                           [reader = m_reader, options = liveOptionsOf(m_caName, m_caPort),
                                            conf = planningTarget().partitionsPath](const FabricLink::Job &job) {
                                               return reader ? reader() : readLiveState(options, conf, {}, job.stopFlag());
                                           });
    if (!state)
        return state;
    m_discoveredState = std::make_shared<const LiveState>(*state);
    Tenancy tenancy;
    tenancy.partitions = state->partitions;
    announce(setFabric(state->fabric, tenancy, m_revision));
    return state;
}

// ---- what-if --------------------------------------------------------------------------------------

void FabricSession::setWhatIf(const WhatIf &events)
{
    if (events == m_whatIf)
        return;
    m_whatIf = events;
    DocumentChanges what = DocumentChange::WhatIf;
    if (m_proposal && m_origin.followsWhatIf)
        what |= DocumentChange::Proposal;  // stale now (or again valid, when put back)
    announce(what);
}

// ---- the proposal and its plan -------------------------------------------------------------------

void FabricSession::setProposal(PreviewResult proposal, ProposalOrigin origin)
{
    m_proposal = std::make_shared<const PreviewResult>(std::move(proposal));
    m_origin = std::move(origin);
    m_made.fabric = m_fabric;
    m_made.heldGeneration = m_heldGeneration;
    m_made.revision = m_revision;
    m_made.whatIf = m_origin.followsWhatIf ? m_origin.whatIf : WhatIf();
    m_made.madeAt = QDateTime::currentDateTime();
    m_made.readGeneration = m_readGeneration;
    m_committedProposal.clear();
    replan();
    announce(DocumentChange::Proposal | DocumentChange::Plan);
}

void FabricSession::clearProposal()
{
    if (!m_proposal)
        return;
    m_proposal.reset();
    m_origin = {};
    m_made = {};
    m_committedProposal.clear();
    replan();
    announce(DocumentChange::Proposal | DocumentChange::Plan);
}

QString FabricSession::staleReason() const
{
    if (!m_proposal)
        return {};
    if (m_made.fabric != m_fabric)
        return tr("another fabric is open");
    if (!m_liveChanges.empty()) {
        QStringList what;
        const auto count = [&what](const QStringList &items, const QString &text) {
            if (!items.isEmpty())
                what << text.arg(items.size());
        };
        count(m_liveChanges.linksGone, tr("links gone: %1"));
        count(m_liveChanges.linksNew, tr("new links: %1"));
        count(m_liveChanges.nodesGone, tr("nodes gone: %1"));
        count(m_liveChanges.nodesNew, tr("new nodes: %1"));
        count(m_liveChanges.lidsChanged, tr("LIDs moved: %1"));
        return tr("The fabric changed since it was discovered (%1): this plan is stale. "
                  "Discover the fabric again (Fabric ▸ Rediscover), then preview again.")
            .arg(what.join(QStringLiteral(", ")));
    }
    if (!m_committedProposal.isEmpty())
        return tr("this plan was %1: the fabric holds it now").arg(m_committedProposal);
    if (m_made.heldGeneration != m_heldGeneration)
        return tr("what the fabric holds changed since this plan was made (now: %1): preview or plan again").arg(m_heldName);
    if (m_made.readGeneration != m_readGeneration)
        return tr("the fabric was discovered again at %1 since this plan was made: preview or plan again").arg(m_readAt);
    if (!m_origin.tenancy && m_made.revision != m_revision)
        return tr("the partitions, policies or weights were edited since this plan was made (an edit, undo or redo): "
                  "preview or plan again");
    if (m_origin.followsWhatIf && m_made.whatIf != m_whatIf)
        return tr("the what-if events changed since this plan was made: preview or plan again");
    return {};
}

QString FabricSession::commitRefusal() const
{
    if (!m_plan)
        return tr("there is no plan to commit");
    if (m_committing)
        return tr("a commit is running");
    if (!m_plan->refusal.isEmpty())
        return m_plan->refusal;
    if (const QString stale = staleReason(); !stale.isEmpty())
        return stale;
    if (m_plan->nothingToInstall)
        return tr("nothing to install: the fabric holds this plan's tables and partitions already");
    return {};
}

void FabricSession::replan()
{
    if (!m_proposal || !m_proposal->proposed.tables || !m_fabric) {
        m_plan.reset();
        return;
    }
    auto plan = std::make_shared<SessionPlan>();
    const Tenancy &tenancy = m_origin.tenancy ? *m_origin.tenancy : m_tenancy;
    PlanLabel label;
    label.summary = m_origin.name;
    if (!m_origin.whatIf.isEmpty())
        label.whatIf = m_origin.whatIf.describe(*m_fabric);
    // Weft's engine inside OpenSM routes an intent: the plan is the intent file, and its tables
    // are what that engine computes from it (the preview's engine on this fabric), verified so
    // after the commit. The partitions keep their service levels in partitions.conf too, as the
    // preview made them.
    std::optional<Project> intent;
    bool appliesCandidate = false;  // the intent applies a studio candidate to the held tables
    if (targetPluginMode()) {
        if (!m_origin.intent && m_origin.candidate && m_origin.candidate->kind != CandidateKind::Full) {
            // A studio candidate goes in as the intent in force with the candidate's method applied
            // to the tables the switches hold and the what-if's failures drained: the plugin then
            // computes, from the same tables, the tables the studio planned (routeCandidate).
            // The stamp of the tables it was planned from (what the switches hold, the plan's
            // `against`): the plugin applies the method again when the same intent comes back.
            const Result<Project> inForce = readProjectFile(planningTarget().intentPath);
            const QString heldStamp = m_held.lfts ? heldTablesStamp(*m_fabric, *m_held.lfts) : QString();
            Result<Project> applying = inForce ? intentApplying(*inForce, *m_origin.candidate, m_origin.whatIf, *m_fabric, heldStamp)
                                               : Result<Project>(inForce.error());
            if (applying) {
                intent = std::move(*applying);
                intent->tenancy = tenancy;
                appliesCandidate = true;
                label.summary = m_origin.whatIf.isEmpty()
                    ? tr("%1, installed as the intent in force applying %2 to the tables the switches hold").arg(m_origin.name, m_origin.candidate->name())
                    : tr("%1, installed as the intent in force applying %2 to the tables the switches hold, drained: %3")
                          .arg(m_origin.name, m_origin.candidate->name(), label.whatIf);
                label.whatIf.clear();  // drained, not pre-emptive: the plugin routes around them
            } else {
                plan->refusal = tr("the commit target routes with Weft's engine inside OpenSM; %1 cannot go in as its intent: %2")
                                    .arg(m_origin.name, applying.error().message);
            }
        } else if (m_origin.intent) {
            intent = *m_origin.intent;
            intent->tenancy = tenancy;
            // Elements drained in the intent in force (`weft drain`, the map's Drain) stay drained
            // until undrained: a preview made without them would undrain them unasked.
            const Result<Project> inForce = readProjectFile(planningTarget().intentPath);
            const Result<IntentOptions> inForceOptions = inForce ? intentOptions(*inForce) : Result<IntentOptions>(inForce.error());
            const Result<IntentOptions> ours = intentOptions(*intent);
            if (inForceOptions && !inForceOptions->drained.isEmpty() && ours && ours->drained.isEmpty())
                plan->refusal = tr("the intent in force drains %1, and this preview was routed without that; approving it would "
                                   "undrain them. Undrain them first (the map's Undrain, or weft undrain), then preview again.")
                                    .arg(inForceOptions->drained.describe(*m_fabric));
        } else {
            plan->refusal = tr("the commit target routes with Weft's engine inside OpenSM, which installs an intent (a Routing "
                               "Preview's engine with the partitions); %1 is not one. Commit it to a target with OpenSM's file "
                               "engine, or preview an engine.")
                                .arg(m_origin.name);
        }
    }
    plan->against = m_held;
    plan->fromTheFabric = m_live;
    plan->origin = m_origin.name;
    std::shared_ptr<const ForwardingTables> tables = m_proposal->proposed.tables;
    if (appliesCandidate && !m_origin.whatIf.failedSwitches.empty())  // as the plugin gives a drained switch
        tables = std::make_shared<const ForwardingTables>(withDrainedSwitchTables(*m_fabric, *tables));
    plan->commit = planFromTenancy(m_fabric.get(), {tables, m_proposal->proposed.serviceLevels}, tenancy, label, m_held);
    if (intent)
        plan->commit.intentFile = writeProject(*intent);
    // Its tables come from the held ones: the commit keeps them beside the journal for a recovery.
    plan->commit.keepTablesWithJournal = appliesCandidate;
    const std::optional<PartitionsState> onTarget = m_destination && m_live ? m_destination->partitionsInForce(lastMasterName()) : std::nullopt;
    const PartitionsState inForce = onTarget ? *onTarget : PartitionsState{m_baselinePartitions, std::nullopt, {}};
    // With OpenSM's memory of the P_Key indices it gave (PKeyIndexMemory.h), as the commit reads
    // it: the P_Key blocks the review counts are those the commit sends, after a rediscovery too.
    HeldTables reviewed = m_held;
    if (reviewed.pkeys && m_destination && !planningTarget().partitionsPath.isEmpty())
        if (Result<PKeyTables> kept = withRememberedIndicesOfRunningOpenSm(*m_fabric, *reviewed.pkeys,
                                                                            pkeyIndexMemoryPath(planningTarget().partitionsPath)))
            reviewed.pkeys = std::make_shared<const PKeyTables>(std::move(kept).value());
    plan->review = planCommitChange(*m_fabric, reviewed, inForce, plan->commit);
    if (!m_origin.whatIf.isEmpty() && plan->refusal.isEmpty() && !appliesCandidate) {
        if (targetPluginMode()) {
            // The plugin routes the intent on the fabric as it is, where the events have not
            // happened: what it would install is not what was previewed.
            plan->refusal = tr("this plan was made for a what-if (%1); the commit target routes with Weft's engine inside OpenSM, "
                               "which routes the intent on the fabric as it is and would not avoid what the events take away. "
                               "Clear the what-if events and preview again, or commit it to a target with OpenSM's file engine.")
                                .arg(label.whatIf);
        } else {
            // The commit's own first step, now, so that the review says it before Approve: a plan
            // for events that have not happened goes in only valid on the fabric as it is.
            const PlanCheck check = checkPlan(*m_fabric, plan->commit);
            QStringList reasons = check.reasons;
            if (m_held.lfts)
                if (const QStringList lost = coverageLost(*m_fabric, *m_held.lfts, plan->commit.tables); !lost.isEmpty()) {
                    if (reasons.isEmpty())
                        reasons << tr("the plan was made for a what-if (%1) that has not happened on this fabric; it would be installed "
                                      "only as a pre-emptive plan valid on the fabric as it is, and it is not")
                                       .arg(label.whatIf);
                    reasons << lost;
                }
            if (!reasons.isEmpty())
                plan->refusal = reasons.mid(0, 4).join(QStringLiteral("; "));
        }
    }
    // Nothing the fabric holds would change: nothing to install, nothing sent, nothing journalled.
    const ReconfigurationDiff &diff = plan->review.diff;
    if (m_held.lfts && diff.smps() == 0 && diff.partitionsDiff.isEmpty()) {
        bool sameIntent = true;
        if (intent) {
            QFile inForceIntent(planningTarget().intentPath);
            sameIntent = inForceIntent.open(QIODevice::ReadOnly) && inForceIntent.readAll() == plan->commit.intentFile;
        }
        plan->nothingToInstall = sameIntent;
    }
    m_plan = std::move(plan);
}

// ---- commits -------------------------------------------------------------------------------------

bool FabricSession::commit(bool acceptViolations, QString *refusal)
{
    if (const QString why = commitRefusal(); !why.isEmpty()) {
        if (refusal)
            *refusal = why;
        return false;
    }
    return startCommit(m_plan->commit, acceptViolations, m_plan->origin, true, refusal);
}

bool FabricSession::commitChange(CommitPlan plan, const QString &origin, QString *refusal, bool acceptViolations)
{
    return startCommit(std::move(plan), acceptViolations, origin, false, refusal);
}

bool FabricSession::startCommit(CommitPlan plan, bool acceptViolations, const QString &origin, bool operatorsPlan, QString *refusal)
{
    const auto refuse = [refusal](const QString &why) {
        if (refusal)
            *refusal = why;
        return false;
    };
    if (m_committing)
        return refuse(tr("a commit is running"));
    if (!hasCommitTarget())
        return refuse(tr("no commit target is configured (Fabric ▸ Commit Target…)"));
    if (targetPluginMode() && plan.intentFile.isEmpty())
        return refuse(tr("the commit target routes with Weft's engine inside OpenSM, which installs intents only; %1 is a plan of tables")
                          .arg(origin));
    if (const std::optional<CommitJournalEntry> unfinished = unfinishedCommit())
        return refuse(tr("an unfinished commit is in the journal (%1, started %2): recover it first (Fabric ▸ Recover Unfinished Commit…)")
                          .arg(unfinished->planSummary, unfinished->time.toLocalTime().toString(Qt::ISODate)));
    m_committing = true;
    announce(DocumentChange::Session);
    const std::shared_ptr<const CommitDestination> destination = m_destination;
    const CommitBackend access = fabricAccess();
    CommitOptions options;
    options.acceptViolations = acceptViolations;
    options.journalPath = journalPath();
    options.user = m_commitUser;
    QPointer<FabricSession> self(this);
    options.progress = [self](const QString &line) {
        QMetaObject::invokeMethod(
            self, [self, line] {
                if (self)
                    Q_EMIT self->commitProgress(line);
            },
            Qt::QueuedConnection);
    };
    Q_EMIT commitProgress(tr("Committing %1…").arg(origin.isEmpty() ? tr("the plan") : origin));
    // On the link: a discovery, counter pass or recovery asked meanwhile waits for it.
    runOnLink(
        FabricLink::Kind::Commit, origin.isEmpty() ? tr("the plan") : origin,
        [plan = std::move(plan), destination, access, options] { return destination->commit(plan, access, options); },
        [this, operatorsPlan, destination](const CommitReport &report) {
        m_committing = false;
        adoptCommit(report, operatorsPlan);
        Q_EMIT commitFinished(report);
        // A service's report carries no read-back: what the fabric holds now is read from it.
        if (!destination->readsBack() && !report.fabric)
            discover(true);
        // What the commit found may not be how the subnet stands now (a master that failed over).
        checkSubnetManagers();
        });
    return true;
}

CommitReport FabricSession::commitNow(const CommitPlan &plan, CommitOptions options)
{
    if (options.user.isEmpty())
        options.user = m_commitUser;
    if (!m_destination)
        return recovery()(std::move(options));  // refused: no target
    // By reference, the plan uncopied: this thread waits for the job, and only this thread
    // (the session's destructor) can stop the link under it.
    const CommitReport report = reportOf(m_link->call(FabricLink::Kind::Commit, plan.summary, [&](const FabricLink::Job &) {
        return m_destination->commit(plan, fabricAccess(), options);
    }));
    adoptCommit(report, false);
    return report;
}

CommitReport FabricSession::recoverNow(CommitOptions options)
{
    if (options.user.isEmpty())
        options.user = m_commitUser;
    const CommitReport report = recovery()(std::move(options));
    adoptCommit(report, false);
    return report;
}

void FabricSession::adoptCommit(const CommitReport &report, bool operatorsPlan)
{
    m_lastCommit = report;
    DocumentChanges what = DocumentChange::Session;
    if (report.ok() && operatorsPlan && m_plan) {
        m_committedProposal = tr("committed at %1").arg(clockTime());
        m_baselinePartitions = m_plan->review.plannedPartitions;
    }
    if (report.fabric && report.held.lfts && m_fabric) {
        FabricChanges changes = compareFabrics(*m_fabric, *report.fabric);
        if (changes.empty()) {
            HeldTables held = report.held;
            held.pkeys = onFabric(held.pkeys, *report.fabric, *m_fabric);
            m_heldChanges.clear();
            what |= adoptHeld(std::move(held), tr("read back after the commit at %1").arg(clockTime()), true);
        } else {
            m_liveChanges = std::move(changes);
            what |= DocumentChange::LiveChanges;
        }
    }
    replan();
    announce(what | DocumentChange::Proposal | DocumentChange::Plan);
}

std::optional<CommitJournalEntry> FabricSession::unfinishedCommit() const
{
    return m_destination ? m_destination->unfinished() : std::nullopt;
}

void FabricSession::adoptReadBack(const CommitReport &report)
{
    adoptCommit(report, false);
}

void FabricSession::runOnLink(FabricLink::Kind kind, const QString &name, std::function<CommitReport()> work,
                              std::function<void(CommitReport)> done)
{
    m_link->submit(
        kind, name, this, [work = std::move(work)](const FabricLink::Job &) { return work(); },
        [done = std::move(done)](Result<CommitReport> report) { done(reportOf(std::move(report))); });
}

void FabricSession::recover(CommitOptions options, std::function<void(CommitReport)> done)
{
    if (!m_destination)
        return done(recovery()(std::move(options)));  // refused: no target
    runOnLink(
        FabricLink::Kind::Recovery, tr("recovery of the unfinished commit"),
        [destination = m_destination, access = fabricAccess(), options] { return destination->recover(access, options); },
        [this, done = std::move(done)](const CommitReport &report) {
            adoptCommit(report, false);
            done(report);
        });
}

}  // namespace weft
