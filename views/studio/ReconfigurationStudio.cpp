#include "ReconfigurationStudio.h"

#include "DrainPlanner.h"
#include "IntentRouting.h"
#include "Validation.h"

#include "CandidateReview.h"
#include "MapOverlays.h"
#include "FabricDocument.h"
#include "FabricScene.h"
#include "RoutingEngine.h"
#include "FabricSession.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSlider>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>

namespace weft {

namespace {

constexpr int kEbbSamples = 1000;

QString number(double value)
{
    const QLocale locale;
    if (std::abs(value - std::round(value)) < 1e-9 && std::abs(value) < 1e15)
        return locale.toString(qlonglong(std::llround(value)));
    return locale.toString(value, 'f', 2);
}

QString nodeName(const Fabric &fabric, NodeIndex node)
{
    const Node &n = fabric.node(node);
    return n.description.isEmpty() ? n.name : n.description;
}

// A candidate's load per out port of the shown fabric: the what-if fabric's ports are found by
// their node GUID and port number (a failed switch renumbers what follows it).
std::vector<double> loadsOnShownFabric(const Fabric &shown, const Fabric &planned, const Metrics &metrics)
{
    std::vector<double> loads(shown.ports().size(), 0.0);
    const bool same = &shown == &planned;
    for (const LinkLoad &l : metrics.links) {
        if (l.from < 0 || std::size_t(l.from) >= planned.ports().size())
            continue;
        PortIndex port = l.from;
        if (!same) {
            const Port &p = planned.port(l.from);
            const NodeIndex node = shown.nodeByGuid(planned.node(p.node).guid);
            port = node == kNoIndex ? kNoIndex : shown.portOf(node, p.number);
        }
        if (port != kNoIndex && std::size_t(port) < loads.size())
            loads[std::size_t(port)] = l.load;
    }
    return loads;
}

}  // namespace

ReconfigurationStudio::ReconfigurationStudio(FabricDocument *document, QWidget *parent)
    : QWidget(parent), m_document(document)
{
    setObjectName(QStringLiteral("reconfigurationStudioPanel"));

    m_events = new QListWidget(this);
    m_events->setObjectName(QStringLiteral("whatIfEvents"));
    // Five events in view (a laptop's 1366x768 included): the list has a column of its own.
    m_events->setMinimumHeight((fontMetrics().height() + 6) * 5 + 4);
    m_clearEvents = new QPushButton(tr("C&lear"), this);
    m_clearEvents->setObjectName(QStringLiteral("clearEventsButton"));
    m_clearEvents->setToolTip(tr("Forget the what-if events and their marks on the map"));
    auto *eventsBox = new QGroupBox(tr("What if"), this);
    eventsBox->setMaximumWidth(fontMetrics().averageCharWidth() * 40);
    auto *eventsLayout = new QVBoxLayout(eventsBox);
    eventsLayout->addWidget(m_events, 1);
    eventsLayout->addWidget(m_clearEvents, 0, Qt::AlignLeft);

    m_engines = new QListWidget(this);
    m_engines->setObjectName(QStringLiteral("studioEngines"));
    for (const QString &name : routingEngineNames()) {
        auto *item = new QListWidgetItem(name, m_engines);
        item->setData(Qt::UserRole, name);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(name == QLatin1String("ftree") ? Qt::Checked : Qt::Unchecked);
        if (const std::unique_ptr<RoutingEngine> engine = makeRoutingEngine(name))
            item->setToolTip(engine->description());
    }
    m_engines->setMaximumHeight(fontMetrics().height() * 5);
    m_slimUpdate = new QCheckBox(tr("SlimUpdate, τ:"), this);
    m_slimUpdate->setObjectName(QStringLiteral("slimUpdateCheck"));
    m_slimUpdate->setChecked(true);
    m_tau = new QSlider(Qt::Horizontal, this);
    m_tau->setObjectName(QStringLiteral("tauSlider"));
    m_tau->setRange(0, kMaxTau);
    m_tau->setTickPosition(QSlider::TicksBelow);
    m_tau->setToolTip(tr("How far (in weight units) an installed choice may be worse than the best before it moves"));
    m_tauValue = new QLabel(this);
    m_tauValue->setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("00")));
    m_metabase = new QCheckBox(tr("Metabase, policy:"), this);
    m_metabase->setObjectName(QStringLiteral("metabaseCheck"));
    m_metabase->setChecked(true);
    m_policy = new QComboBox(this);
    m_policy->setObjectName(QStringLiteral("metabasePolicy"));
    for (SlotPolicy policy : {SlotPolicy::PortOrder, SlotPolicy::Weighted, SlotPolicy::Sticky, SlotPolicy::MpiOrder, SlotPolicy::Priority})
        m_policy->addItem(slotPolicyName(policy), int(policy));
    m_policy->setCurrentIndex(m_policy->findData(int(SlotPolicy::Sticky)));
    m_policy->setToolTip(tr("mpi-order takes the hosts selected on the map as the ranks, in order; "
                            "priority takes them as the high-priority nodes"));
    m_ebb = new QCheckBox(tr("Effective bisection (%1 samples)").arg(kEbbSamples), this);
    m_ebb->setObjectName(QStringLiteral("studioEbb"));

    auto *picks = new QFormLayout;
    picks->addRow(tr("Full re-route:"), m_engines);
    auto *tauRow = new QHBoxLayout;
    tauRow->addWidget(m_slimUpdate);
    tauRow->addWidget(m_tau, 1);
    tauRow->addWidget(m_tauValue);
    picks->addRow(tauRow);
    auto *policyRow = new QHBoxLayout;
    policyRow->addWidget(m_metabase);
    policyRow->addWidget(m_policy, 1);
    picks->addRow(policyRow);
    picks->addRow(m_ebb);

    m_plan = new QPushButton(tr("&Plan"), this);
    m_plan->setObjectName(QStringLiteral("studioPlanButton"));
    m_plan->setToolTip(tr("Plan every candidate picked for the events and the partitions, policies and weights as edited"));
    m_planEdits = new QPushButton(tr("Plan the Current &Edits"), this);
    m_planEdits->setObjectName(QStringLiteral("planEditsButton"));
    m_planEdits->setToolTip(tr("Forget the what-if events and plan the partition, policy and weight edits alone"));
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setEnabled(false);
    m_bar = new QProgressBar(this);
    m_bar->setVisible(false);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_plan);
    buttons->addWidget(m_planEdits);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_bar, 1);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("studioStatus"));
    m_status->setWordWrap(true);

    m_table = new QTableWidget(0, ColumnCount, this);
    m_table->setObjectName(QStringLiteral("candidateTable"));
    // Short names, each whole in the table beside the studio's other columns; the long name in
    // the header's tooltip.
    m_table->setHorizontalHeaderLabels({tr("Candidate"), tr("Entries"), tr("Blocks"), tr("SMPs"), tr("Paths"),
                                        tr("Max load"), tr("Mean load"), tr("Violations"), tr("Valid"), tr("eBB"),
                                        tr("Time")});
    m_table->horizontalHeaderItem(NameColumn)->setToolTip(tr("Full re-route by an engine, SlimUpdate or metabase"));
    m_table->horizontalHeaderItem(SmpsColumn)->setToolTip(tr("SMPs OpenSM sends to install the candidate"));
    m_table->horizontalHeaderItem(ViolationsColumn)->setToolTip(tr("Isolation violations"));
    m_table->horizontalHeaderItem(EbbColumn)->setToolTip(tr("Effective bisection bandwidth (mean)"));
    m_table->horizontalHeaderItem(EntriesColumn)->setToolTip(tr("Changed LFT entries"));
    m_table->horizontalHeaderItem(BlocksColumn)->setToolTip(tr("Changed 64-entry LFT blocks"));
    m_table->horizontalHeaderItem(PathsColumn)->setToolTip(tr("Source→destination paths that change (double-click for the pairs)"));
    m_table->horizontalHeaderItem(MaxLoadColumn)->setToolTip(tr("Highest link load, installed tables after the event → candidate"));
    m_table->horizontalHeaderItem(MeanLoadColumn)->setToolTip(tr("Mean link load, installed tables after the event → candidate"));
    m_table->horizontalHeaderItem(ValidColumn)->setToolTip(tr("Reachable, loop-free, deadlock-free"));
    m_table->horizontalHeaderItem(TimeColumn)->setToolTip(tr("Time to compute the candidate's routing"));
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);

    m_review = new QPushButton(tr("&Review"), this);
    m_review->setObjectName(QStringLiteral("studioReviewButton"));
    m_review->setToolTip(tr("Make the chosen candidate the proposal and open the Diff Review"));
    m_paths = new QPushButton(tr("Changed &Paths…"), this);
    m_paths->setObjectName(QStringLiteral("changedPathsButton"));
    auto *rowButtons = new QHBoxLayout;
    rowButtons->addWidget(m_review);
    rowButtons->addWidget(m_paths);
    rowButtons->addStretch();

    // Three columns side by side, for the wide dock below the map: the events, what to plan, and
    // the candidates with the verdict above them; each fits the dock's height on a laptop.
    auto *planning = new QWidget(this);
    auto *planningLayout = new QVBoxLayout(planning);
    planningLayout->setContentsMargins(0, 0, 0, 0);
    planningLayout->addLayout(picks);
    planningLayout->addLayout(buttons);
    planningLayout->addStretch();
    auto *results = new QWidget(this);
    auto *resultsLayout = new QVBoxLayout(results);
    resultsLayout->setContentsMargins(0, 0, 0, 0);
    resultsLayout->addWidget(m_status);
    m_smResponse = new QLabel(this);
    m_smResponse->setObjectName(QStringLiteral("smResponse"));
    m_smResponse->setWordWrap(true);
    m_smResponse->setVisible(false);
    resultsLayout->addWidget(m_smResponse);
    resultsLayout->addWidget(m_table, 1);
    resultsLayout->addLayout(rowButtons);
    auto *columns = new QSplitter(Qt::Horizontal, this);
    columns->addWidget(eventsBox);
    columns->addWidget(planning);
    columns->addWidget(results);
    columns->setStretchFactor(0, 0);
    columns->setStretchFactor(1, 0);
    columns->setStretchFactor(2, 1);
    columns->setChildrenCollapsible(false);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(columns, 1);

    m_poll = new QTimer(this);
    m_poll->setInterval(100);
    connect(m_poll, &QTimer::timeout, this, &ReconfigurationStudio::pollProgress);
    connect(m_tau, &QSlider::valueChanged, this, [this](int value) { m_tauValue->setText(QLocale().toString(value)); });
    m_tauValue->setText(QLocale().toString(m_tau->value()));
    connect(m_clearEvents, &QPushButton::clicked, this, &ReconfigurationStudio::clearEvents);
    connect(m_plan, &QPushButton::clicked, this, &ReconfigurationStudio::plan);
    connect(m_planEdits, &QPushButton::clicked, this, &ReconfigurationStudio::planCurrentEdits);
    connect(m_cancel, &QPushButton::clicked, this, &ReconfigurationStudio::cancel);
    connect(m_review, &QPushButton::clicked, this, &ReconfigurationStudio::reviewSelected);
    connect(m_paths, &QPushButton::clicked, this, &ReconfigurationStudio::showChangedPaths);
    connect(m_table, &QTableWidget::cellDoubleClicked, this, [this] { showChangedPaths(); });
    connect(m_table, &QTableWidget::itemSelectionChanged, this, [this] {
        showSelectedLoad();
        updateControls();
    });
    connect(m_document, &FabricDocument::changed, this, &ReconfigurationStudio::documentChanged);
    updateControls();
    showIdleStatus();
}

ReconfigurationStudio::~ReconfigurationStudio()
{
    if (m_progress)
        m_progress->cancel = true;
}

void ReconfigurationStudio::setMap(MapOverlays *map)
{
    m_map = map;
}

// Each event is a step on the document's undo stack; the session holds the events and the studio
// follows them (documentChanged), so an undo or redo shows here and on the map alike.
void ReconfigurationStudio::addFailedLink(Guid node, int port)
{
    WhatIf events = m_whatIf;
    events.failedLinkPorts.emplace_back(node, port);
    WhatIf one;
    one.failedLinkPorts.emplace_back(node, port);
    m_document->setWhatIf(events, tr("What-if: %1").arg(m_document->fabric() ? one.describe(*m_document->fabric()) : QString()));
}

void ReconfigurationStudio::addFailedSwitch(Guid node)
{
    WhatIf events = m_whatIf;
    events.failedSwitches.push_back(node);
    WhatIf one;
    one.failedSwitches.push_back(node);
    m_document->setWhatIf(events, tr("What-if: %1").arg(m_document->fabric() ? one.describe(*m_document->fabric()) : QString()));
}

void ReconfigurationStudio::addRemovedHost(Guid node)
{
    WhatIf events = m_whatIf;
    events.removedHosts.push_back(node);
    WhatIf one;
    one.removedHosts.push_back(node);
    m_document->setWhatIf(events, tr("What-if: %1").arg(m_document->fabric() ? one.describe(*m_document->fabric()) : QString()));
}

void ReconfigurationStudio::clearEvents()
{
    m_document->setWhatIf(WhatIf(), tr("Clear the what-if events"));
}

void ReconfigurationStudio::eventsChanged()
{
    cancel();
    dropStudy();
    m_events->clear();
    const Fabric *fabric = m_document->fabric().get();
    std::vector<LinkIndex> links;
    std::vector<NodeIndex> nodes;
    if (fabric) {
        // One line per event, as WhatIf::describe words it.
        for (const auto &end : m_whatIf.failedLinkPorts) {
            WhatIf one;
            one.failedLinkPorts.push_back(end);
            m_events->addItem(one.describe(*fabric));
            const NodeIndex n = fabric->nodeByGuid(end.first);
            const PortIndex p = n == kNoIndex ? kNoIndex : fabric->portOf(n, end.second);
            if (p != kNoIndex && fabric->port(p).link != kNoIndex)
                links.push_back(fabric->port(p).link);
        }
        const auto addNodes = [&](const std::vector<Guid> &guids, bool isSwitch) {
            for (Guid guid : guids) {
                WhatIf one;
                (isSwitch ? one.failedSwitches : one.removedHosts).push_back(guid);
                m_events->addItem(one.describe(*fabric));
                if (const NodeIndex n = fabric->nodeByGuid(guid); n != kNoIndex)
                    nodes.push_back(n);
            }
        };
        addNodes(m_whatIf.failedSwitches, true);
        addNodes(m_whatIf.removedHosts, false);
    }
    if (m_map)
        m_map->showWhatIf(this, links, nodes);
    // The session knows the events: a plan made for others is stale.
    m_document->session()->setWhatIf(m_whatIf);
    updateControls();
    showIdleStatus();
    Q_EMIT whatIfChanged();
}

QStringList ReconfigurationStudio::engines() const
{
    QStringList names;
    for (int i = 0; i < m_engines->count(); ++i)
        if (m_engines->item(i)->checkState() == Qt::Checked)
            names << m_engines->item(i)->data(Qt::UserRole).toString();
    return names;
}

void ReconfigurationStudio::setEngines(const QStringList &engines)
{
    for (int i = 0; i < m_engines->count(); ++i) {
        QListWidgetItem *item = m_engines->item(i);
        item->setCheckState(engines.contains(item->data(Qt::UserRole).toString()) ? Qt::Checked : Qt::Unchecked);
    }
}

int ReconfigurationStudio::tau() const
{
    return m_tau->value();
}

void ReconfigurationStudio::setTau(int tau)
{
    m_slimUpdate->setChecked(true);
    m_tau->setValue(tau);
}

SlotPolicy ReconfigurationStudio::metabasePolicy() const
{
    return SlotPolicy(m_policy->currentData().toInt());
}

void ReconfigurationStudio::setMetabasePolicy(SlotPolicy policy)
{
    m_metabase->setChecked(true);
    m_policy->setCurrentIndex(m_policy->findData(int(policy)));
}

void ReconfigurationStudio::setEbb(bool on)
{
    m_ebb->setChecked(on);
}

std::vector<CandidateSpec> ReconfigurationStudio::candidateSpecs() const
{
    std::vector<CandidateSpec> specs;
    for (const QString &engine : engines()) {
        CandidateSpec spec;
        spec.kind = CandidateKind::Full;
        spec.engine = engine;
        specs.push_back(spec);
    }
    if (m_slimUpdate->isChecked()) {
        CandidateSpec spec;
        spec.kind = CandidateKind::SlimUpdate;
        spec.tau = tau();
        specs.push_back(spec);
    }
    if (m_metabase->isChecked()) {
        CandidateSpec spec;
        spec.kind = CandidateKind::Metabase;
        spec.policy = metabasePolicy();
        specs.push_back(spec);
    }
    return specs;
}

bool ReconfigurationStudio::canPlan() const
{
    return m_document->fabric() && m_document->session()->currentTables() && !m_progress;
}

QString ReconfigurationStudio::statusText() const
{
    return m_status->text();
}

int ReconfigurationStudio::selectedCandidate() const
{
    const QList<QTableWidgetItem *> items = m_table->selectedItems();
    return items.isEmpty() ? -1 : items.front()->row();
}

void ReconfigurationStudio::selectCandidate(int row)
{
    if (row < 0 || row >= m_table->rowCount())
        m_table->clearSelection();
    else
        m_table->selectRow(row);
}

void ReconfigurationStudio::updateControls()
{
    const bool tables = m_document->fabric() && m_document->session()->currentTables();
    m_plan->setEnabled(tables && !m_progress);
    m_planEdits->setEnabled(tables && !m_progress);
    m_cancel->setEnabled(m_progress != nullptr);
    m_clearEvents->setEnabled(!m_whatIf.isEmpty());
    const int row = selectedCandidate();
    const bool usable = m_study && row >= 0 && std::size_t(row) < m_study->candidates.size()
        && m_study->candidates[std::size_t(row)].tables;
    m_review->setEnabled(usable);
    m_paths->setEnabled(usable);
}

void ReconfigurationStudio::showIdleStatus()
{
    if (m_progress)
        return;
    if (!m_document->fabric())
        m_status->setText(tr("Open a fabric to plan its reconfiguration."));
    else if (!m_document->session()->currentTables())
        m_status->setText(tr("The installed tables are not known (File ▸ Open LFT Dump… loads them): "
                             "there is nothing to plan a reconfiguration from."));
    else if (m_study)
        return;
    else if (m_whatIf.isEmpty())
        m_status->setText(tr("Right-click a cable, a switch or a host on the map for a what-if event, "
                             "or plan the current partition, policy and weight edits."));
    else
        m_status->setText(tr("Press Plan to plan the candidates for: %1").arg(m_whatIf.describe(*m_document->fabric())));
}

void ReconfigurationStudio::documentChanged(DocumentChanges what)
{
    const FabricSession *session = m_document->session();
    if (what & DocumentChange::Fabric) {
        // Events name elements of the old fabric: they go with it.
        m_whatIf = WhatIf();
        eventsChanged();
        return;
    }
    if ((what & DocumentChange::WhatIf) && session->whatIf() != m_whatIf) {
        // An event added or cleared here, or an undo or redo of one.
        m_whatIf = session->whatIf();
        eventsChanged();
    }
    if (what & DocumentChange::CurrentTables) {
        if (m_progress && m_runInstalled != session->currentTables())
            cancel();
        if (m_study && m_studyInstalled != session->currentTables())
            dropStudy();
        updateControls();
        showIdleStatus();
    }
    if ((what & kTenancyChanges) && m_study)
        m_status->setText(tr("The partitions, policies or weights changed since this plan: plan again to see their effect."));
}

void ReconfigurationStudio::dropStudy()
{
    const bool had = m_study != nullptr;
    m_study.reset();
    m_studyInstalled.reset();
    m_table->setRowCount(0);
    if (had && m_map)
        m_map->releaseCableLoads(this);
    updateControls();
}

void ReconfigurationStudio::planCurrentEdits()
{
    if (!m_whatIf.isEmpty())
        clearEvents();
    plan();
}

void ReconfigurationStudio::plan()
{
    if (m_progress)
        cancel();
    const std::shared_ptr<const Fabric> fabric = m_document->fabric();
    const FabricSession *session = m_document->session();
    if (!fabric || !session->currentTables()) {
        showIdleStatus();
        return;
    }
    const std::vector<CandidateSpec> specs = candidateSpecs();
    if (specs.empty()) {
        m_status->setText(tr("Pick at least one candidate: an engine, SlimUpdate or metabase."));
        return;
    }
    CandidateInput input;
    input.installedFabric = fabric;
    input.installed = session->currentTables();
    if (m_whatIf.isEmpty()) {
        input.fabric = fabric;
        input.event = tr("the current edits");
    } else {
        Result<Fabric> after = applyWhatIf(*fabric, m_whatIf);
        if (!after) {
            m_status->setText(tr("Cannot apply the events: %1").arg(after.error().toString()));
            return;
        }
        input.fabric = std::make_shared<const Fabric>(std::move(after).value());
        input.event = m_whatIf.describe(*fabric);
    }
    input.tenancy = m_document->tenancy();
    input.currentPartitions = session->baselinePartitions();
    input.model = session->trafficModel();
    input.ebbSamples = m_ebb->isChecked() ? kEbbSamples : 0;
    if (m_map) {
        // The hosts selected on the map: the ranks in order (mpi-order), the priority nodes.
        input.nodeOrder = m_map->scene()->selectedPortGuids();
        input.priorityNodes = input.nodeOrder;
    }

    dropStudy();
    auto progress = std::make_shared<CandidateProgress>();
    m_progress = progress;
    m_runFabric = fabric;
    m_runInstalled = input.installed;
    const quint64 generation = ++m_generation;
    m_bar->setVisible(true);
    m_bar->setRange(0, int(specs.size()));
    m_bar->setValue(0);
    m_status->setText(tr("Planning %n candidate(s) for %1…", nullptr, int(specs.size())).arg(input.event));
    updateControls();
    m_poll->start();
    predictSmResponse(fabric);
    // The worker reads its own copies (fabrics and tables are shared and immutable).
    QtConcurrent::run([input, specs, progress] {
        return std::make_shared<Result<CandidateStudy>>(planCandidates(input, specs, progress.get()));
    }).then(this, [this, generation](std::shared_ptr<Result<CandidateStudy>> outcome) {
        if (generation == m_generation)
            finish(outcome);
    });
}

void ReconfigurationStudio::cancel()
{
    if (!m_progress)
        return;
    m_progress->cancel = true;
    ++m_generation;
    endRun();
    m_status->setText(tr("Planning cancelled."));
    Q_EMIT finished(false);
}

void ReconfigurationStudio::endRun()
{
    m_progress.reset();
    m_runFabric.reset();
    m_runInstalled.reset();
    m_poll->stop();
    m_bar->setVisible(false);
    updateControls();
}

void ReconfigurationStudio::pollProgress()
{
    if (!m_progress)
        return;
    m_bar->setRange(0, std::max(1, m_progress->total.load()));
    m_bar->setValue(m_progress->done);
}

void ReconfigurationStudio::finish(const std::shared_ptr<Result<CandidateStudy>> &outcome)
{
    const std::shared_ptr<const ForwardingTables> installed = m_runInstalled;
    endRun();
    if (!*outcome) {
        m_status->setText(tr("Planning failed: %1").arg(outcome->error().toString()));
        Q_EMIT finished(false);
        return;
    }
    m_study = std::make_shared<const CandidateStudy>(std::move(*outcome).value());
    m_studyInstalled = installed;
    fillTable();
    int valid = 0;
    for (const CandidateResult &c : m_study->candidates)
        valid += c.valid() ? 1 : 0;
    m_status->setText(tr("%1: %2 of %n candidate(s) valid. Choose one to see its load on the map, then Review.", nullptr,
                         int(m_study->candidates.size()))
                          .arg(m_study->event)
                          .arg(valid));
    Q_EMIT finished(true);
    if (m_table->rowCount() > 0)
        selectCandidate(0);
}

void ReconfigurationStudio::fillTable()
{
    const CandidateStudy &study = *m_study;
    m_table->setRowCount(int(study.candidates.size()));
    const QString arrow = QStringLiteral(" → ");
    for (int row = 0; row < int(study.candidates.size()); ++row) {
        const CandidateResult &c = study.candidates[std::size_t(row)];
        const auto set = [&](int column, const QString &text, Qt::Alignment align = Qt::AlignRight | Qt::AlignVCenter) {
            auto *item = new QTableWidgetItem(text);
            item->setTextAlignment(align);
            m_table->setItem(row, column, item);
            return item;
        };
        QTableWidgetItem *name = set(NameColumn, c.name, Qt::AlignLeft | Qt::AlignVCenter);
        name->setData(Qt::UserRole, row);
        if (!c.error.isEmpty()) {
            name->setToolTip(c.error);
            QTableWidgetItem *error = set(EntriesColumn, c.error, Qt::AlignLeft | Qt::AlignVCenter);
            error->setForeground(QColor(0xb0, 0x1c, 0x1c));
            error->setToolTip(c.error);
            m_table->setSpan(row, EntriesColumn, 1, ColumnCount - EntriesColumn);
            continue;
        }
        set(EntriesColumn, number(double(c.changedEntries)));
        set(BlocksColumn, number(double(c.changedBlocks)));
        set(SmpsColumn, number(double(c.smps)));
        set(PathsColumn, number(double(c.changedPaths)))
            ->setToolTip(tr("%1 of %2 pairs compared").arg(number(double(c.changedPaths)), number(double(c.pairsCompared))));
        QTableWidgetItem *maxLoad = set(MaxLoadColumn, number(c.maxLinkLoadBefore) + arrow + number(c.maxLinkLoadAfter));
        if (std::abs(c.maxLinkLoadAfter - c.maxLinkLoadBefore) > 1e-9)
            maxLoad->setBackground(c.maxLinkLoadAfter < c.maxLinkLoadBefore ? QColor(0xd9, 0xf0, 0xd3) : QColor(0xf9, 0xd6, 0xd5));
        set(MeanLoadColumn, number(c.meanLinkLoadBefore) + arrow + number(c.meanLinkLoadAfter));
        set(ViolationsColumn, number(c.isolationViolations));
        const auto mark = [](bool ok) { return ok ? QStringLiteral("✓") : QStringLiteral("✗"); };
        QTableWidgetItem *valid = set(ValidColumn, mark(c.valid()), Qt::AlignCenter);
        valid->setForeground(c.valid() ? QColor(0x1e, 0x7b, 0x34) : QColor(0xb0, 0x1c, 0x1c));
        valid->setToolTip(tr("Reachable: %1\nLoop-free: %2\nDeadlock-free: %3")
                              .arg(mark(c.reachable), mark(c.loopFree), mark(c.deadlockFree)));
        set(EbbColumn, c.evaluation.ebb ? QLocale().toString(c.evaluation.ebb->mean, 'f', 3) : tr("—"));
        set(TimeColumn, c.computeSeconds < 1 ? tr("%1 ms").arg(QLocale().toString(c.computeSeconds * 1000, 'f', 1)) : tr("%1 s").arg(QLocale().toString(c.computeSeconds, 'f', 2)));
        if (!c.warnings.isEmpty())
            name->setToolTip(c.warnings.join(QLatin1Char('\n')));
    }
}

void ReconfigurationStudio::showSelectedLoad()
{
    if (!m_map || !m_study)
        return;
    const int row = selectedCandidate();
    const std::shared_ptr<const Fabric> shown = m_document->fabric();
    const CandidateResult *c = row >= 0 && std::size_t(row) < m_study->candidates.size() ? &m_study->candidates[std::size_t(row)] : nullptr;
    if (!c || !shown || !c->evaluation.metrics) {
        m_map->releaseCableLoads(this);
        return;
    }
    m_map->showCableLoads(this, loadsOnShownFabric(*shown, *m_study->fabric, *c->evaluation.metrics));
}

bool ReconfigurationStudio::reviewSelected()
{
    const int row = selectedCandidate();
    if (!m_study || row < 0 || std::size_t(row) >= m_study->candidates.size()) {
        m_status->setText(tr("Choose a candidate to review."));
        return false;
    }
    const CandidateResult &candidate = m_study->candidates[std::size_t(row)];
    ProposalOrigin origin;
    origin.name = tr("Studio: %1 for %2").arg(candidate.name, m_study->event);
    // Planned for these events: pre-emptive only, and stale once they change.
    origin.whatIf = m_whatIf;
    origin.followsWhatIf = true;
    // With Weft's engine inside OpenSM, the session installs it as an intent that applies the
    // candidate's method to the held tables, the events' failures drained.
    origin.candidate = candidate.spec;
    const Status outcome = reviewCandidate(m_document, *m_study, candidate, std::move(origin));
    if (!outcome) {
        m_status->setText(outcome.error().toString());
        return false;
    }
    m_status->setText(tr("%1 is the proposal now: review it in the Diff Review, then Approve.")
                          .arg(m_study->candidates[std::size_t(row)].name));
    Q_EMIT reviewed();
    return true;
}

ChangedPairs ReconfigurationStudio::changedPairsOf(int row, std::size_t limit) const
{
    if (!m_study || !m_studyInstalled || row < 0 || std::size_t(row) >= m_study->candidates.size())
        return {};
    const CandidateResult &c = m_study->candidates[std::size_t(row)];
    const std::shared_ptr<const Fabric> installedFabric = m_document->fabric();
    if (!c.tables || !installedFabric)
        return {};
    return changedPairs(*installedFabric, *m_studyInstalled, *m_study->fabric, *c.tables, limit);
}

void ReconfigurationStudio::showChangedPaths()
{
    const int row = selectedCandidate();
    if (!m_study || row < 0)
        return;
    const ChangedPairs pairs = changedPairsOf(row);
    const Fabric &fabric = *m_study->fabric;
    auto *dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("changedPathsDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Changed Paths: %1").arg(m_study->candidates[std::size_t(row)].name));
    auto *label = new QLabel(pairs.total > pairs.pairs.size()
                                 ? tr("First %1 of %2 changed source → destination paths")
                                       .arg(number(double(pairs.pairs.size())), number(double(pairs.total)))
                                 : tr("%1 changed source → destination paths").arg(number(double(pairs.total))),
                             dialog);
    auto *table = new QTableWidget(int(pairs.pairs.size()), 2, dialog);
    table->setObjectName(QStringLiteral("changedPathsTable"));
    table->setHorizontalHeaderLabels({tr("Source"), tr("Destination")});
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    const auto portText = [&fabric](PortIndex p) {
        return QStringLiteral("%1 [%2]").arg(nodeName(fabric, fabric.port(p).node)).arg(int(fabric.port(p).number));
    };
    for (int i = 0; i < int(pairs.pairs.size()); ++i) {
        table->setItem(i, 0, new QTableWidgetItem(portText(pairs.pairs[std::size_t(i)].first)));
        table->setItem(i, 1, new QTableWidgetItem(portText(pairs.pairs[std::size_t(i)].second)));
    }
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(label);
    layout->addWidget(table, 1);
    layout->addWidget(buttons);
    dialog->resize(520, 480);
    dialog->show();
}

void ReconfigurationStudio::predictSmResponse(const std::shared_ptr<const Fabric> &fabric)
{
    const quint64 generation = ++m_smResponseGeneration;
    m_smResponse->clear();
    m_smResponse->setVisible(false);
    const FabricSession *session = m_document->session();
    const std::optional<Project> intent = intentInForce(*session);
    const std::shared_ptr<const ForwardingTables> held = session->currentTables();
    // Only failures: a removed host is not something the SM responds to by routing.
    if (!intent || !held || m_whatIf.isEmpty() || !m_whatIf.removedHosts.empty())
        return;
    const WhatIf events = m_whatIf;
    m_smResponse->setText(tr("What Weft's engine inside OpenSM will do on its own when this happens: computing…"));
    m_smResponse->setVisible(true);
    QtConcurrent::run([fabric, held, intent, events] {
        Result<IntentRouting> predicted = predictIntentResponse(*fabric, *held, *intent, events);
        if (!predicted)
            return tr("What Weft's engine inside OpenSM will do on its own when this happens: it cannot route it (%1); "
                      "OpenSM falls back to the next engine of its routing_engine chain.")
                .arg(predicted.error().message);
        Result<Fabric> after = applyWhatIf(*fabric, events);
        std::size_t changed = 0, switches = 0;
        for (const SwitchForwardingTable &sw : predicted->routing.tables.switches()) {
            const SwitchForwardingTable *before = held->find(sw.guid);
            std::size_t here = 0;
            const Lid top = std::max(sw.lft.top(), before ? before->lft.top() : Lid(0));
            for (Lid lid = 1; lid <= top; ++lid)
                here += (before ? before->lft.port(lid) : kNoRoute) != sw.lft.port(lid) ? 1 : 0;
            changed += here;
            switches += here > 0 ? 1 : 0;
        }
        QString reach;
        if (after) {
            const ValidationResult v = validateRouting(*after, intent->tenancy, predicted->routing.tables);
            reach = v.unreachablePartitionPairs + v.unreachableOtherPairs == 0
                ? tr("every pair of ports still reaches the other")
                : tr("%n pair(s) of ports would not reach each other", nullptr, int(v.unreachablePartitionPairs + v.unreachableOtherPairs));
        }
        return tr("What Weft's engine inside OpenSM will do on its own when this happens: %1, %n entry(ies) changed on %2 switch(es); %3.",
                  nullptr, int(changed))
            .arg(predicted->method)
            .arg(switches)
            .arg(reach);
    }).then(this, [this, generation](const QString &text) {
        if (generation != m_smResponseGeneration)
            return;
        m_smResponse->setText(text);
        m_smResponse->setVisible(true);
    });
}

}  // namespace weft
