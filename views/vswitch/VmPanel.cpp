#include "VmPanel.h"

#include "FabricDocument.h"
#include "FabricScene.h"
#include "FabricSession.h"
#include "VmBadges.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMimeData>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace weft {

namespace {

constexpr int kHypervisorRole = Qt::UserRole;
constexpr int kVfRole = Qt::UserRole + 1;
constexpr int kRunningRole = Qt::UserRole + 2;

// A running VM's row drags like its dot on the map: onto another hypervisor's badge.
class VmTree : public QTreeWidget
{
public:
    VmTree(VmBadgeLayer *badges, QWidget *parent)
        : QTreeWidget(parent), m_badges(badges)
    {
        setDragEnabled(true);
        setDragDropMode(QAbstractItemView::DragOnly);
    }

protected:
    QStringList mimeTypes() const override { return {VmBadgeLayer::kMimeType}; }
    QMimeData *mimeData(const QList<QTreeWidgetItem *> &items) const override
    {
        if (items.isEmpty() || items.front()->data(0, kVfRole).toInt() < 0 || !items.front()->data(0, kRunningRole).toBool())
            return nullptr;  // a hypervisor, or a free VF
        return m_badges->mimeDataFor(items.front()->data(0, kHypervisorRole).toInt(), items.front()->data(0, kVfRole).toInt());
    }

private:
    VmBadgeLayer *m_badges;
};

// Rows of the migration comparison, one column per method.
enum MigrationRow {
    SwitchesTouchedRow,
    SwitchesExaminedRow,
    EntriesRow,
    SmpsRow,
    VSwitchSmpsRow,
    TimeRow,
    OrderRow,
    DriftEntriesRow,
    DriftBlocksRow,
    LoadRow,
    WarningsRow,
    MigrationRowCount
};

}  // namespace

VmPanel::VmPanel(FabricDocument *document, QWidget *parent)
    : QWidget(parent), m_document(document), m_badges(new VmBadgeLayer(this))
{
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("vmStatus"));
    m_status->setWordWrap(true);

    m_tree = new VmTree(m_badges, this);
    m_tree->setObjectName(QStringLiteral("vmTree"));
    m_tree->setColumnCount(4);
    m_tree->setHeaderLabels({tr("Hypervisor / VF"), tr("LID"), tr("State"), tr("Weight")});
    m_tree->setUniformRowHeights(true);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    for (int c = 1; c < 4; ++c)
        m_tree->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    connect(m_tree, &QTreeWidget::itemSelectionChanged, this, &VmPanel::selectionChanged);

    m_schemeCombo = new QComboBox(this);
    m_schemeCombo->setObjectName(QStringLiteral("schemeCombo"));
    m_schemeCombo->addItem(tr("Prepopulated LIDs"), int(LidScheme::Prepopulated));
    m_schemeCombo->addItem(tr("Dynamic LIDs"), int(LidScheme::Dynamic));
    m_schemeCombo->setToolTip(tr("The LID scheme migrations are planned under: prepopulated swaps the VM's LID with the "
                                 "destination VF's, dynamic moves it to a free VF."));
    connect(m_schemeCombo, &QComboBox::activated, this, [this](int index) {
        setScheme(LidScheme(m_schemeCombo->itemData(index).toInt()));
    });
    m_lidSpace = new QTreeWidget(this);
    m_lidSpace->setObjectName(QStringLiteral("lidSpaceTree"));
    m_lidSpace->setColumnCount(2);
    m_lidSpace->setHeaderLabels({tr("LID space"), tr("Value")});
    m_lidSpace->setRootIsDecorated(false);
    m_lidSpace->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_lidSpace->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);

    m_boot = new QPushButton(tr("Boot"), this);
    m_boot->setObjectName(QStringLiteral("bootVmButton"));
    m_shutdown = new QPushButton(tr("Shut Down"), this);
    m_shutdown->setObjectName(QStringLiteral("shutdownVmButton"));
    connect(m_boot, &QPushButton::clicked, this, [this] { lifecycleFromPanel(true); });
    connect(m_shutdown, &QPushButton::clicked, this, [this] { lifecycleFromPanel(false); });
    m_lifecycleLabel = new QLabel(this);
    m_lifecycleLabel->setObjectName(QStringLiteral("lifecycleLabel"));
    m_lifecycleLabel->setWordWrap(true);

    m_destination = new QComboBox(this);
    m_destination->setObjectName(QStringLiteral("destinationCombo"));
    m_plan = new QPushButton(tr("Plan Migration"), this);
    m_plan->setObjectName(QStringLiteral("planMigrationButton"));
    m_plan->setToolTip(tr("Plans the selected VM's migration to the destination with ItRC, FTreeMinRC and a full "
                          "re-route. Dragging a VM's dot onto another hypervisor on the map does the same."));
    connect(m_plan, &QPushButton::clicked, this, &VmPanel::planFromPanel);

    m_table = new QTableWidget(MigrationRowCount, int(std::size(kDeskMigrationMethods)), this);
    m_table->setObjectName(QStringLiteral("migrationTable"));
    m_table->setHorizontalHeaderLabels({tr("ItRC"), tr("FTreeMinRC"), tr("Full re-route")});
    m_table->setVerticalHeaderLabels({tr("Switches touched"), tr("Switches examined"), tr("Entries changed"), tr("SMPs"),
                                      tr("vSwitch SMPs"), tr("Estimated time"), tr("Update order"),
                                      tr("Drift: entries"), tr("Drift: blocks"), tr("Heaviest cable (fresh)"), tr("Warnings")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectColumns);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);

    m_applyMethod = new QComboBox(this);
    m_applyMethod->setObjectName(QStringLiteral("applyMethodCombo"));
    m_applyMethod->addItem(tr("ItRC"), int(ReconfigurationMethod::ItRC));
    m_applyMethod->addItem(tr("FTreeMinRC"), int(ReconfigurationMethod::FTreeMinRC));
    m_applyMethod->addItem(tr("Full re-route"), int(ReconfigurationMethod::Full));
    m_applyMethod->setCurrentIndex(1);
    connect(m_table, &QTableWidget::currentCellChanged, this, [this](int, int column) {
        if (column >= 0)
            m_applyMethod->setCurrentIndex(column);
    });
    m_apply = new QPushButton(tr("Apply"), this);
    m_apply->setObjectName(QStringLiteral("applyMigrationButton"));
    m_apply->setToolTip(tr("Moves the what-if state on to this plan's result; the next migration starts from it. "
                           "The document's fabric and tables stay as they are."));
    connect(m_apply, &QPushButton::clicked, this, &VmPanel::applyFromPanel);
    m_reset = new QPushButton(tr("Reset"), this);
    m_reset->setObjectName(QStringLiteral("resetVmButton"));
    m_reset->setToolTip(tr("Drops the what-if state and starts again from the document's fabric and tables."));
    connect(m_reset, &QPushButton::clicked, this, &VmPanel::resetToDocument);

    auto *top = new QWidget(this);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(m_status);
    topLayout->addWidget(m_tree, 1);
    auto *vmButtons = new QHBoxLayout;
    vmButtons->addWidget(m_boot);
    vmButtons->addWidget(m_shutdown);
    vmButtons->addStretch(1);
    vmButtons->addWidget(m_reset);
    topLayout->addLayout(vmButtons);
    topLayout->addWidget(m_lifecycleLabel);

    auto *lid = new QWidget(this);
    auto *lidLayout = new QVBoxLayout(lid);
    lidLayout->setContentsMargins(0, 0, 0, 0);
    auto *schemeRow = new QHBoxLayout;
    schemeRow->addWidget(new QLabel(tr("LID scheme:"), this));
    schemeRow->addWidget(m_schemeCombo, 1);
    lidLayout->addLayout(schemeRow);
    lidLayout->addWidget(m_lidSpace);

    auto *migration = new QWidget(this);
    auto *migrationLayout = new QVBoxLayout(migration);
    migrationLayout->setContentsMargins(0, 0, 0, 0);
    auto *planRow = new QHBoxLayout;
    planRow->addWidget(new QLabel(tr("Migrate to:"), this));
    planRow->addWidget(m_destination, 1);
    planRow->addWidget(m_plan);
    migrationLayout->addLayout(planRow);
    migrationLayout->addWidget(m_table, 1);
    auto *applyRow = new QHBoxLayout;
    applyRow->addStretch(1);
    applyRow->addWidget(m_applyMethod);
    applyRow->addWidget(m_apply);
    migrationLayout->addLayout(applyRow);

    // Three columns in the wide dock below the map (the VMs, the LID space, the migration), each
    // with its rows and buttons in view on a laptop's 1366x768.
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(top);
    splitter->addWidget(lid);
    splitter->addWidget(migration);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 1);
    splitter->setStretchFactor(2, 2);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(splitter);

    connect(m_badges, &VmBadgeLayer::vmDropped, this, [this](int hypervisor, int vf, int destination) {
        planMigration(hypervisor, vf, destination);
    });
    connect(m_document, &FabricDocument::changed, this, &VmPanel::documentChanged);
    resetToDocument();
}

VmPanel::~VmPanel() = default;

void VmPanel::setScene(FabricScene *scene)
{
    if (m_scene)
        disconnect(m_scene, nullptr, this, nullptr);
    m_scene = scene;
    if (m_scene)
        connect(m_scene, &FabricScene::fabricShown, this, &VmPanel::showBadges);
    showBadges();
}

void VmPanel::documentChanged(DocumentChanges what)
{
    if (what & (DocumentChange::Fabric | DocumentChange::CurrentTables)) {
        if (m_document->fabric() != m_baseFabric || m_document->session()->currentTables() != m_baseTables)
            resetToDocument();
    }
}

void VmPanel::resetToDocument()
{
    std::shared_ptr<const Fabric> fabric = m_document->fabric();
    const std::shared_ptr<const ForwardingTables> tables = m_document->session()->currentTables();
    m_baseFabric = fabric;
    m_baseTables = tables;
    std::optional<VmFabricState> state;
    if (fabric) {
        Result<VmFabricState> analysed = analyseVmFabric(fabric, tables ? *tables : ForwardingTables());
        if (analysed)
            state = std::move(*analysed);
    }
    if (state)
        m_scheme = state->virt.scheme;
    setState(std::move(state), false);
}

void VmPanel::setState(std::optional<VmFabricState> state, bool modified)
{
    m_state = std::move(state);
    m_modified = m_state && modified;
    m_candidates.clear();
    m_schemeCombo->setCurrentIndex(m_schemeCombo->findData(int(m_scheme)));
    fillTree();
    fillLidSpace();
    fillDestinations();
    fillCandidates();
    showBadges();
    Q_EMIT stateChanged();
    Q_EMIT candidatesChanged();
}

void VmPanel::showBadges()
{
    // Only over the picture of the fabric the what-if state started from: its nodes are the
    // same, its LIDs may have moved on.
    const bool shown = m_scene && m_state && !m_scene->isLayoutPending() && m_scene->fabric()
        && m_scene->fabric() == m_document->fabric().get();
    if (shown)
        m_badges->show(m_scene, *m_state->fabric, m_state->virt, m_scene->layout());
    else
        m_badges->clear();
}

void VmPanel::fillTree()
{
    m_tree->clear();
    const bool virtualised = m_state.has_value();
    const bool tables = virtualised && !m_state->tables.switches().empty();
    if (!m_document->fabric())
        m_status->setText(tr("No fabric."));
    else if (!virtualised)
        m_status->setText(tr("This fabric has no hypervisors (vSwitches with VFs behind them)."));
    else if (!tables)
        m_status->setText(tr("%n hypervisor(s), %1 VMs running. Open the current tables (File ▸ Open LFT Dump) to plan "
                             "migrations, boots and shutdowns.",
                             nullptr, int(m_state->virt.hypervisors.size()))
                              .arg(m_state->virt.runningVms()));
    else
        m_status->setText(tr("%n hypervisor(s), %1 VMs running%2.", nullptr, int(m_state->virt.hypervisors.size()))
                              .arg(m_state->virt.runningVms())
                              .arg(m_modified ? tr(" (what-if: migrations, boots or shutdowns applied here only)") : QString()));
    for (QWidget *w : std::initializer_list<QWidget *>{m_boot, m_shutdown, m_plan, m_destination, m_schemeCombo})
        w->setEnabled(tables);
    m_reset->setEnabled(m_modified);
    if (!virtualised)
        return;
    const Fabric &f = *m_state->fabric;
    const QLocale locale;
    // Every vSwitch weighs 1, as in the registry's vswitch-ftree: its VMs share it (T-WFT-4).
    const std::map<Guid, double> weights = vmWeights(f, m_state->virt);
    for (std::size_t h = 0; h < m_state->virt.hypervisors.size(); ++h) {
        const Hypervisor &hyp = m_state->virt.hypervisors[h];
        auto *item = new QTreeWidgetItem(m_tree, {hyp.name, QString::number(hyp.pfLid), tr("%1 of %2 VFs in use").arg(hyp.runningVms()).arg(hyp.vfs.size()), locale.toString(1.0)});
        item->setToolTip(3, tr("vSwitch weight, shared equally by its running VMs"));
        item->setData(0, kHypervisorRole, int(h));
        item->setData(0, kVfRole, -1);
        item->setToolTip(1, tr("PF LID (vSwitch LID %1)").arg(hyp.vSwitchLid));
        for (std::size_t v = 0; v < hyp.vfs.size(); ++v) {
            const VirtualFunction &vf = hyp.vfs[v];
            const PortIndex port = f.portOf(vf.node, 1);
            const auto weight = port == kNoIndex ? weights.end() : weights.find(f.port(port).guid);
            auto *child = new QTreeWidgetItem(item, {f.node(vf.node).description, vf.lid ? QString::number(vf.lid) : tr("none"), vf.lid ? tr("running") : tr("free"), weight != weights.end() ? locale.toString(weight->second, 'g', 3) : QString()});
            child->setData(0, kHypervisorRole, int(h));
            child->setData(0, kVfRole, int(v));
            child->setData(0, kRunningRole, vf.lid != 0);
        }
    }
}

void VmPanel::fillLidSpace()
{
    m_lidSpace->clear();
    if (!m_state)
        return;
    const VirtualisedFabric &virt = m_state->virt;
    const QLocale locale;
    const auto switches = std::int64_t(virt.physicalSwitches.size());
    const auto hypervisors = std::int64_t(virt.hypervisors.size());
    std::int64_t vfs = 0;
    for (const Hypervisor &h : virt.hypervisors)
        vfs = std::max<std::int64_t>(vfs, std::int64_t(h.vfs.size()));
    const std::int64_t running = virt.runningVms();
    const std::int64_t prepopulated = lidsNeeded(LidScheme::Prepopulated, LidModel::Weft, switches, hypervisors, vfs, running);
    const std::int64_t dynamic = lidsNeeded(LidScheme::Dynamic, LidModel::Weft, switches, hypervisors, vfs, running);
    const std::int64_t chosen = m_scheme == LidScheme::Prepopulated ? prepopulated : dynamic;
    const Lid maxLid = m_state->fabric->maxLid();
    const auto add = [this](const QString &name, const QString &value, const QString &tip = QString()) {
        auto *item = new QTreeWidgetItem(m_lidSpace, {name, value});
        item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
        if (!tip.isEmpty())
            item->setToolTip(0, tip);
    };
    const auto n = [&locale](std::int64_t v) { return locale.toString(qlonglong(v)); };
    add(tr("Scheme of the fabric"), lidSchemeName(virt.scheme));
    add(tr("Physical switches / hypervisors / VFs each"), QStringLiteral("%1 / %2 / %3").arg(n(switches), n(hypervisors), n(vfs)));
    add(tr("VMs running"), n(running));
    add(tr("Highest LID (blocks per switch)"), QStringLiteral("%1 (%2)").arg(n(maxLid)).arg(lftBlocksInUse(maxLid)),
        tr("B = floor(maxLID / 64) + 1: the LFT blocks a full push sends to every switch."));
    add(tr("LIDs needed, prepopulated"), n(prepopulated), tr("S + H(2 + V): every VF has a LID, running or not."));
    add(tr("LIDs needed, dynamic"), n(dynamic), tr("S + 2H + running VMs: only running VMs have LIDs."));
    add(tr("Headroom (%1)").arg(lidSchemeName(m_scheme)), n(kUnicastLidCount - chosen),
        tr("Unicast LIDs (49,151) left under the chosen scheme."));
    if (m_scheme == LidScheme::Prepopulated) {
        add(tr("Most hypervisors at %1 VFs").arg(vfs), n(maxHypervisors(LidModel::Weft, switches, vfs)));
        add(tr("Most VFs per hypervisor"), n(maxVfsPerHypervisor(LidModel::Weft, switches, hypervisors)));
    } else {
        add(tr("Most VMs running at once"), n(maxRunningVms(LidModel::Weft, switches, hypervisors)));
    }
}

void VmPanel::fillDestinations()
{
    m_destination->clear();
    if (!m_state)
        return;
    for (std::size_t h = 0; h < m_state->virt.hypervisors.size(); ++h) {
        const Hypervisor &hyp = m_state->virt.hypervisors[h];
        m_destination->addItem(tr("%1 (%2 free VFs)").arg(hyp.name).arg(hyp.freeVfs()), int(h));
    }
}

void VmPanel::setScheme(LidScheme scheme)
{
    if (scheme == m_scheme)
        return;
    m_scheme = scheme;
    m_schemeCombo->setCurrentIndex(m_schemeCombo->findData(int(m_scheme)));
    m_candidates.clear();
    m_badges->markMigration(-1, -1, -1);
    fillLidSpace();
    fillCandidates();
    Q_EMIT candidatesChanged();
}

bool VmPanel::selectedVf(int *hypervisor, int *vf) const
{
    const QList<QTreeWidgetItem *> selected = m_tree->selectedItems();
    if (selected.isEmpty())
        return false;
    *hypervisor = selected.front()->data(0, kHypervisorRole).toInt();
    *vf = selected.front()->data(0, kVfRole).toInt();
    return *vf >= 0;
}

void VmPanel::selectionChanged()
{
    int h = -1, vf = -1;
    const bool isVf = selectedVf(&h, &vf);
    const bool tables = m_state && !m_state->tables.switches().empty();
    const bool running = isVf && m_state->virt.hypervisors[std::size_t(h)].vfs[std::size_t(vf)].lid != 0;
    m_boot->setEnabled(tables && isVf && !running);
    m_shutdown->setEnabled(tables && running);
    m_plan->setEnabled(tables && running);
}

bool VmPanel::planMigration(int hypervisor, int vf, int destination)
{
    m_candidates.clear();
    if (!m_state || m_state->tables.switches().empty()) {
        m_lifecycleLabel->setText(tr("Open the current tables to plan a migration."));
        fillCandidates();
        Q_EMIT candidatesChanged();
        return false;
    }
    MigrationRequest request;
    request.hypervisor = hypervisor;
    request.vf = vf;
    request.destination = destination;
    request.scheme = m_scheme;
    request.order = UpdateOrder::Safe;
    m_candidates = compareMigrationMethods(*m_state, request);
    m_badges->markMigration(hypervisor, vf, destination);
    m_destination->setCurrentIndex(m_destination->findData(destination));
    for (int h : {hypervisor, destination}) {
        if (QTreeWidgetItem *item = m_tree->topLevelItem(h))
            item->setExpanded(true);
    }
    if (QTreeWidgetItem *item = m_tree->topLevelItem(hypervisor); item && item->child(vf))
        m_tree->scrollToItem(item->child(vf));
    fillCandidates();
    Q_EMIT candidatesChanged();
    return std::any_of(m_candidates.begin(), m_candidates.end(), [](const MigrationCandidate &c) { return c.plan.has_value(); });
}

void VmPanel::fillCandidates()
{
    m_table->clearContents();
    const QLocale locale;
    QString title;
    for (std::size_t c = 0; c < m_candidates.size() && c < std::size(kDeskMigrationMethods); ++c) {
        const MigrationCandidate &candidate = m_candidates[c];
        const auto set = [this, c](int row, const QString &text, const QString &tip = QString()) {
            auto *item = new QTableWidgetItem(text);
            item->setTextAlignment(row == OrderRow || row == WarningsRow ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter);
            item->setToolTip(tip.isEmpty() ? text : tip);
            m_table->setItem(row, int(c), item);
        };
        if (!candidate.plan) {
            set(SwitchesTouchedRow, tr("cannot plan"), candidate.error);
            set(WarningsRow, candidate.error);
            continue;
        }
        const MigrationPlan &p = *candidate.plan;
        title = tr("%1 from %2 to %3").arg(p.vm, p.source, p.target);
        set(SwitchesTouchedRow, locale.toString(p.switchesTouched));
        set(SwitchesExaminedRow, locale.toString(p.candidateSwitches));
        set(EntriesRow, locale.toString(p.entriesChanged));
        set(SmpsRow, locale.toString(p.smps));
        set(VSwitchSmpsRow, locale.toString(p.vSwitchSmps));
        set(TimeRow, tr("%1 ms").arg(locale.toString(p.estimatedSeconds() * 1000, 'f', 2)));
        QStringList order;
        QStringList orderLines;
        for (const SwitchUpdate &u : p.updates) {
            order << u.description;
            orderLines << tr("%1%2: x %3 → %4").arg(u.description, u.vSwitch ? tr(" [vSwitch]") : QString()).arg(u.oldX == kNoRoute ? QStringLiteral("-") : QString::number(u.oldX)).arg(u.newX == kNoRoute ? QStringLiteral("-") : QString::number(u.newX));
        }
        set(OrderRow, order.join(QStringLiteral(", ")), orderLines.join(QLatin1Char('\n')));
        if (candidate.drift) {
            const RoutingDrift &d = *candidate.drift;
            set(DriftEntriesRow, locale.toString(qlonglong(d.entriesDiffering)),
                tr("%1 of %2 entries on %3 switches differ from a fresh vswitch-ftree routing")
                    .arg(locale.toString(qlonglong(d.entriesDiffering)), locale.toString(qlonglong(d.entriesCompared)))
                    .arg(d.switchesDiffering));
            set(DriftBlocksRow, locale.toString(qlonglong(d.blocksDiffering)));
            set(LoadRow, QStringLiteral("%1 (%2)").arg(locale.toString(d.maxCableLoad, 'f', 2), locale.toString(d.maxCableLoadFresh, 'f', 2)));
        }
        set(WarningsRow, p.warnings.isEmpty() ? tr("none") : p.warnings.join(QStringLiteral("; ")), p.warnings.join(QLatin1Char('\n')));
    }
    m_table->setToolTip(title);
    m_apply->setEnabled(std::any_of(m_candidates.begin(), m_candidates.end(), [](const MigrationCandidate &c) { return c.after.has_value(); }));
    m_applyMethod->setEnabled(m_apply->isEnabled());
    if (!title.isEmpty())
        m_lifecycleLabel->setText(tr("Planned: %1.").arg(title));
}

bool VmPanel::applyCandidate(ReconfigurationMethod method)
{
    const auto found = std::find_if(m_candidates.begin(), m_candidates.end(),
                                    [method](const MigrationCandidate &c) { return c.method == method; });
    if (found == m_candidates.end() || !found->after)
        return false;
    Result<VmFabricState> next = stateAfter(*found);
    if (!next) {
        m_lifecycleLabel->setText(next.error().message);
        return false;
    }
    const QString done = tr("Applied %1: %2 moved to %3.").arg(reconfigurationMethodName(method), found->plan->vm, found->plan->target);
    setState(std::move(*next), true);
    m_lifecycleLabel->setText(done);
    return true;
}

void VmPanel::planFromPanel()
{
    int h = -1, vf = -1;
    if (!selectedVf(&h, &vf) || m_destination->currentIndex() < 0)
        return;
    planMigration(h, vf, m_destination->currentData().toInt());
}

void VmPanel::applyFromPanel()
{
    applyCandidate(ReconfigurationMethod(m_applyMethod->currentData().toInt()));
}

void VmPanel::lifecycleFromPanel(bool boot)
{
    int h = -1, vf = -1;
    if (!selectedVf(&h, &vf))
        return;
    boot ? bootVm(h, vf) : shutdownVm(h, vf);
}

Status VmPanel::bootVm(int hypervisor, int vf)
{
    if (!m_state)
        return Error{{}, 0, tr("no vSwitch fabric")};
    return takeLifecycle(weft::bootVm(*m_state->fabric, m_state->virt, m_state->tables, hypervisor, vf), true);
}

Status VmPanel::shutdownVm(int hypervisor, int vf)
{
    if (!m_state)
        return Error{{}, 0, tr("no vSwitch fabric")};
    return takeLifecycle(weft::shutdownVm(*m_state->fabric, m_state->virt, m_state->tables, hypervisor, vf), false);
}

Status VmPanel::takeLifecycle(Result<VmLifecycle> lifecycle, bool boot)
{
    if (!lifecycle) {
        m_lifecycleLabel->setText(lifecycle.error().message);
        return lifecycle.error();
    }
    Result<VmFabricState> next = stateAfter(*lifecycle);
    if (!next) {
        m_lifecycleLabel->setText(next.error().message);
        return next.error();
    }
    const VmLifecycle &l = *lifecycle;
    QString text = (boot ? tr("Booted with LID %1 (block %2): %3 switches touched, %4 SMPs, %5 vSwitch SMPs.")
                         : tr("Shut down, LID %1 (block %2) released: %3 switches touched, %4 SMPs, %5 vSwitch SMPs."))
                       .arg(l.lid)
                       .arg(l.block)
                       .arg(l.switchesTouched)
                       .arg(l.smps)
                       .arg(l.vSwitchSmps);
    if (l.raisesTop)
        text += QLatin1Char(' ') + tr("The LID is above some switch's LinearFDBTop: one more SMP there.");
    m_lifecycle = std::move(*lifecycle);
    setState(std::move(*next), true);
    m_lifecycleLabel->setText(text);
    return Done{};
}

}  // namespace weft
