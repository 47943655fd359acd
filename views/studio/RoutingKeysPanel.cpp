#include "RoutingKeysPanel.h"

#include "CandidateReview.h"
#include "FabricDocument.h"
#include "FabricScene.h"
#include "RoutingEvaluation.h"
#include "FabricSession.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace weft {

namespace {

QTableWidgetItem *cell(const QString &text, bool number = true)
{
    auto *item = new QTableWidgetItem(text);
    if (number)
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

}  // namespace

RoutingKeysPanel::RoutingKeysPanel(FabricDocument *document, QWidget *parent)
    : QWidget(parent), m_document(document)
{
    setObjectName(QStringLiteral("routingKeysPanel"));
    m_hostsLabel = new QLabel(tr("No hosts chosen: select the job's hosts on the map."), this);
    m_hostsLabel->setObjectName(QStringLiteral("routingKeysHosts"));
    m_hostsLabel->setWordWrap(true);
    auto *useSelection = new QPushButton(tr("Use Map &Selection"), this);
    useSelection->setObjectName(QStringLiteral("routingKeysUseSelection"));
    connect(useSelection, &QPushButton::clicked, this, &RoutingKeysPanel::useSelection);

    m_scheme = new QComboBox(this);
    m_scheme->setObjectName(QStringLiteral("routingKeysScheme"));
    m_scheme->addItem(tr("ARK (fixed per application)"), int(KeyScheme::Ark));
    m_scheme->addItem(tr("NRK (shifted against the others)"), int(KeyScheme::Nrk));
    m_pattern = new QComboBox(this);
    m_pattern->setObjectName(QStringLiteral("routingKeysPattern"));
    m_pattern->addItem(tr("Nearest neighbour (±x, ±y, ±z)"), int(KeyPattern::Neighbour));
    m_pattern->addItem(tr("Shifts (every r → r + c)"), int(KeyPattern::Shift));
    m_pattern->addItem(tr("Ring (+1)"), int(KeyPattern::Ring));
    m_pattern->addItem(tr("Recursive doubling"), int(KeyPattern::RecursiveDoubling));
    connect(m_scheme, &QComboBox::currentIndexChanged, this, &RoutingKeysPanel::clearPlan);
    connect(m_pattern, &QComboBox::currentIndexChanged, this, &RoutingKeysPanel::clearPlan);

    m_budget = new QLabel(this);
    m_budget->setObjectName(QStringLiteral("routingKeysBudget"));
    m_budget->setWordWrap(true);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("routingKeysStatus"));
    m_status->setWordWrap(true);

    m_phases = new QTableWidget(0, ColumnCount, this);
    m_phases->setObjectName(QStringLiteral("routingKeysPhases"));
    m_phases->setHorizontalHeaderLabels({tr("Phase"), tr("Offset"), tr("Flows"), tr("Δ"), tr("Slots"), tr("DmodK max"),
                                         tr("DmodK mean"), tr("Keyed max"), tr("Keyed mean"), tr("Intra max"), tr("Contention-free")});
    m_phases->verticalHeader()->hide();
    m_phases->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_phases->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_phases->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);

    m_planButton = new QPushButton(tr("&Plan Keys"), this);
    m_planButton->setObjectName(QStringLiteral("routingKeysPlan"));
    connect(m_planButton, &QPushButton::clicked, this, [this] { plan(); });
    m_reviewButton = new QPushButton(tr("&Review"), this);
    m_reviewButton->setObjectName(QStringLiteral("routingKeysReview"));
    m_reviewButton->setToolTip(tr("Make the tables that realise the keys the proposal, in the Diff Review"));
    m_reviewButton->setEnabled(false);
    connect(m_reviewButton, &QPushButton::clicked, this, [this] { review(); });

    auto *hosts = new QHBoxLayout;
    hosts->addWidget(m_hostsLabel, 1);
    hosts->addWidget(useSelection);
    // Scheme, pattern and the buttons on one row: the dock spans the window's width, and at
    // 1366x768 its height is what the table of phases needs for five rows.
    auto *choices = new QHBoxLayout;
    auto *schemeLabel = new QLabel(tr("Scheme:"), this);
    schemeLabel->setBuddy(m_scheme);
    auto *patternLabel = new QLabel(tr("Pattern:"), this);
    patternLabel->setBuddy(m_pattern);
    choices->addWidget(schemeLabel);
    choices->addWidget(m_scheme);
    choices->addSpacing(12);
    choices->addWidget(patternLabel);
    choices->addWidget(m_pattern);
    choices->addSpacing(12);
    choices->addWidget(m_planButton);
    choices->addWidget(m_reviewButton);
    choices->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(hosts);
    layout->addLayout(choices);
    layout->addWidget(m_budget);
    layout->addWidget(m_phases, 1);
    layout->addWidget(m_status);

    if (m_document)
        connect(m_document, &FabricDocument::fabricReset, this, [this] {
            m_tree.reset();
            m_treeHosts.clear();
            m_hostsLabel->setText(tr("No hosts chosen: select the job's hosts on the map."));
            clearPlan();
        });
}

void RoutingKeysPanel::setScene(FabricScene *scene)
{
    m_scene = scene;
}

void RoutingKeysPanel::useSelection()
{
    if (m_scene)
        setHosts(m_scene->selectedNodes());
}

void RoutingKeysPanel::setScheme(KeyScheme scheme)
{
    m_scheme->setCurrentIndex(m_scheme->findData(int(scheme)));
}

void RoutingKeysPanel::setPattern(KeyPattern pattern)
{
    m_pattern->setCurrentIndex(m_pattern->findData(int(pattern)));
}

void RoutingKeysPanel::setHosts(const std::vector<NodeIndex> &hosts)
{
    clearPlan();
    m_treeHosts.clear();
    const std::shared_ptr<const Fabric> fabric = m_document ? m_document->fabric() : nullptr;
    if (!fabric) {
        showStatus(tr("No fabric is open."), true);
        return;
    }
    if (!m_tree) {
        Result<KeyTreeFabric> tree = inferKeyTree(*fabric);
        if (!tree) {
            showStatus(tr("Routing keys need a full 2- or 3-level fat tree: %1").arg(tree.error().message), true);
            return;
        }
        m_tree = std::move(*tree);
    }
    for (std::size_t h = 0; h < m_tree->hosts.size(); ++h)
        if (std::find(hosts.begin(), hosts.end(), m_tree->hosts[h]) != hosts.end())
            m_treeHosts.push_back(int(h));
    if (m_treeHosts.empty()) {
        m_hostsLabel->setText(tr("No hosts chosen: select the job's hosts on the map."));
        return;
    }
    QStringList names;
    for (int h : m_treeHosts)
        names << fabric->node(m_tree->hosts[std::size_t(h)]).name;
    m_hostsLabel->setText(tr("%n host(s), one rank each: %1", "", int(m_treeHosts.size())).arg(names.join(QStringLiteral(", "))));
}

void RoutingKeysPanel::clearPlan()
{
    m_plan.reset();
    m_phases->setRowCount(0);
    m_budget->clear();
    m_status->clear();
    m_reviewButton->setEnabled(false);
}

void RoutingKeysPanel::showStatus(const QString &text, bool error)
{
    m_status->setText(text);
    m_status->setStyleSheet(error ? QStringLiteral("color: #b01c1c;") : QString());
}

QString RoutingKeysPanel::budgetText() const
{
    return m_budget->text();
}

QString RoutingKeysPanel::statusText() const
{
    return m_status->text();
}

Status RoutingKeysPanel::plan()
{
    clearPlan();
    if (!m_tree || m_treeHosts.empty()) {
        const Error error{{}, 0, tr("Choose the job's hosts on the map first (Use Map Selection).")};
        showStatus(error.message, true);
        return error;
    }
    KeyPlanRequest request;
    request.placement = {m_treeHosts};
    request.pattern = KeyPattern(m_pattern->currentData().toInt());
    request.scheme = KeyScheme(m_scheme->currentData().toInt());
    Result<KeyPlan> planned = planKeys(m_tree->shape, int(m_document->fabric()->switches().size()), request);
    if (!planned) {
        showStatus(planned.error().message, true);
        return planned.error();
    }
    m_plan = std::move(*planned);
    const KeyPlan &p = *m_plan;
    const QLocale locale;
    m_budget->setText(tr("%1, %2 on %3: LMC %4 gives %5 key offsets for %6 phases%7; %8 of %9 LIDs, %10. Largest LMC that fits: %11.")
                          .arg(p.shape.toString(), p.schemeText, p.patternText)
                          .arg(p.lmc)
                          .arg(p.budget.offsets)
                          .arg(p.phases.size())
                          .arg(p.phasesFit ? QString() : tr(" (too few: offsets must be reprogrammed between phases)"))
                          .arg(locale.toString(qlonglong(p.budget.lids)), locale.toString(qlonglong(kUnicastLids)))
                          .arg(p.budget.fits ? tr("fits") : tr("does not fit"))
                          .arg(p.maxLmc));
    m_phases->setRowCount(int(p.schedule.phases.size()));
    for (int row = 0; row < int(p.schedule.phases.size()); ++row) {
        const PhaseKeys &r = p.schedule.phases[std::size_t(row)];
        m_phases->setItem(row, PhaseColumn, cell(r.phase.name, false));
        m_phases->setItem(row, OffsetColumn, cell(QString::number(r.offset)));
        m_phases->setItem(row, FlowsColumn, cell(QString::number(r.flows)));
        m_phases->setItem(row, DeltaColumn, cell(QString::number(r.delta)));
        m_phases->setItem(row, SlotsColumn, cell(QString::number(r.slots)));
        m_phases->setItem(row, DmodkMaxColumn, cell(QString::number(r.dmodk.max)));
        m_phases->setItem(row, DmodkMeanColumn, cell(locale.toString(r.dmodk.mean, 'f', 3)));
        m_phases->setItem(row, KeyedMaxColumn, cell(QString::number(r.keyed.max)));
        m_phases->setItem(row, KeyedMeanColumn, cell(locale.toString(r.keyed.mean, 'f', 3)));
        m_phases->setItem(row, IntraColumn, cell(QString::number(r.keyed.maxIntra)));
        m_phases->setItem(row, ContentionFreeColumn, cell(r.contentionFree ? tr("yes") : tr("no"), false));
        if (!r.warnings.isEmpty())
            m_phases->item(row, PhaseColumn)->setToolTip(r.warnings.join(QLatin1Char('\n')));
    }
    showStatus(tr("Planned. Review makes the keyed tables the proposal."), false);
    m_reviewButton->setEnabled(true);
    return Done{};
}

Status RoutingKeysPanel::review()
{
    const auto refuse = [this](const QString &message) {
        showStatus(message, true);
        return Status(Error{{}, 0, message});
    };
    if (!m_plan || !m_tree)
        return refuse(tr("Plan the keys first."));
    const std::shared_ptr<const Fabric> fabric = m_document ? m_document->fabric() : nullptr;
    const std::shared_ptr<const ForwardingTables> installed = m_document ? m_document->session()->currentTables() : nullptr;
    if (!fabric)
        return refuse(tr("No fabric is open."));
    if (!installed)
        return refuse(tr("The installed tables are not known: a candidate has nothing to be compared with."));
    Result<ForwardingTables> tables = keyPlanTables(*fabric, *m_tree, *m_plan);
    if (!tables)
        return refuse(tables.error().message);
    const Tenancy &tenancy = m_document->tenancy();
    Result<RoutingEvaluation> before = evaluateRouting(*fabric, tenancy, *installed);
    if (!before)
        return refuse(before.error().message);
    Result<RoutingEvaluation> after = evaluateRouting(*fabric, tenancy, *tables);
    if (!after)
        return refuse(after.error().message);

    CandidateStudy study;
    study.fabric = fabric;
    study.event = tr("routing keys for %n host(s)", "", int(m_treeHosts.size()));
    study.installedEvaluation = std::move(*before);
    CandidateResult candidate;
    candidate.name = QStringLiteral("keys:%1").arg(m_plan->request.scheme == KeyScheme::Nrk ? QStringLiteral("nrk") : QStringLiteral("ark"));
    candidate.tables = std::make_shared<const ForwardingTables>(std::move(*tables));
    candidate.evaluation = std::move(*after);
    candidate.reachable = candidate.evaluation.validation.unreachablePartitionPairs == 0;
    candidate.loopFree = candidate.evaluation.validation.loops == 0;
    candidate.deadlockFree = candidate.evaluation.validation.deadlockFree;
    for (const PhaseKeys &r : m_plan->schedule.phases)
        for (const QString &w : r.warnings)
            candidate.warnings << QStringLiteral("%1: %2").arg(r.phase.name, w);
    ProposalOrigin origin;
    origin.name = tr("Routing keys: %1").arg(candidate.name);
    if (const Status reviewed = reviewCandidate(m_document, study, candidate, std::move(origin)); !reviewed)
        return refuse(reviewed.error().message);
    showStatus(tr("The keyed tables are the proposal: see the Diff Review."), false);
    Q_EMIT reviewed();
    return Done{};
}

}  // namespace weft
