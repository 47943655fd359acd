#include "RoutingPreview.h"

#include "FabricDocument.h"
#include "RoutingEngine.h"
#include "FabricSession.h"
#include "ManagementRoutes.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "QCustomPlotInclude.h"

#include <algorithm>
#include <cmath>

namespace weft {

namespace {

constexpr int kLoadBins = 20;
const QColor kCurrentColour(0x9a, 0xa3, 0xae);
const QColor kProposedColour(0x31, 0x68, 0x8e);

QString yesNo(bool value)
{
    return value ? QCoreApplication::translate("weft::RoutingPreview", "yes") : QCoreApplication::translate("weft::RoutingPreview", "no");
}

}  // namespace

RoutingPreview::RoutingPreview(FabricDocument *document, QWidget *parent) : QWidget(parent), m_document(document)
{
    setObjectName(QStringLiteral("routingPreview"));
    m_engine = new QComboBox(this);
    m_engine->setObjectName(QStringLiteral("engineCombo"));
    for (const QString &name : routingEngineNames()) {
        const std::unique_ptr<RoutingEngine> engine = makeRoutingEngine(name);
        m_engine->addItem(name, name);
        if (engine)
            m_engine->setItemData(m_engine->count() - 1, engine->description(), Qt::ToolTipRole);
    }
    m_pattern = new QComboBox(this);
    m_pattern->setObjectName(QStringLiteral("patternCombo"));
    m_pattern->addItem(tr("Within partitions, all to all"), int(TrafficPattern::PartitionAllToAll));
    m_pattern->addItem(tr("All to all"), int(TrafficPattern::AllToAll));
    m_pattern->addItem(tr("Uniform random"), int(TrafficPattern::UniformRandom));
    m_pattern->addItem(tr("Shift by one"), int(TrafficPattern::Shift));
    m_pattern->addItem(tr("Random bisection"), int(TrafficPattern::RandomBisection));
    m_ebb = new QCheckBox(tr("Effective bisection, samples:"), this);
    m_ebbSamples = new QSpinBox(this);
    m_ebbSamples->setRange(10, 1000000);
    m_ebbSamples->setValue(1000);
    m_ebbSamples->setEnabled(false);
    connect(m_ebb, &QCheckBox::toggled, m_ebbSamples, &QWidget::setEnabled);
    m_run = new QPushButton(tr("&Preview"), this);
    m_run->setObjectName(QStringLiteral("previewButton"));
    m_run->setToolTip(tr("Route the fabric with this engine and compare with the current tables"));
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setEnabled(false);
    m_bar = new QProgressBar(this);
    m_bar->setTextVisible(true);
    m_bar->setVisible(false);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("previewStatus"));
    m_status->setWordWrap(true);

    auto *form = new QFormLayout;
    form->addRow(tr("Engine:"), m_engine);
    form->addRow(tr("Traffic:"), m_pattern);
    auto *ebbRow = new QHBoxLayout;
    ebbRow->addWidget(m_ebb);
    ebbRow->addWidget(m_ebbSamples);
    ebbRow->addStretch();
    form->addRow(ebbRow);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_bar, 1);

    m_table = new QTableWidget(RowCount, ColumnCount, this);
    m_table->setObjectName(QStringLiteral("comparisonTable"));
    m_table->setHorizontalHeaderLabels({tr("Measure"), tr("Current"), tr("Proposed")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->horizontalHeader()->setSectionResizeMode(MeasureColumn, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(CurrentColumn, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(ProposedColumn, QHeaderView::ResizeToContents);
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    // Every measure in view at once: the comparison is the point of the panel.
    m_table->setMinimumHeight((fontMetrics().height() + 6) * (RowCount + 1) + 6);
    m_warnings = new QPlainTextEdit(this);
    m_warnings->setObjectName(QStringLiteral("previewWarnings"));
    m_warnings->setReadOnly(true);
    m_warnings->setPlaceholderText(tr("Warnings and problems of both routings appear here."));

    const auto makePlot = [this](const QString &xLabel, const QString &yLabel) {
        auto *plot = new QCustomPlot(this);
        plot->setMinimumHeight(170);
        plot->xAxis->setLabel(xLabel);
        plot->yAxis->setLabel(yLabel);
        plot->legend->setVisible(true);
        plot->legend->setFont(font());
        plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
        plot->setBackground(palette().base());
        return plot;
    };
    m_loadPlot = makePlot(tr("Load per switch-to-switch link"), tr("Links"));
    m_loadPlot->setObjectName(QStringLiteral("loadHistogram"));
    m_ebbPlot = makePlot(tr("Effective bisection bandwidth (fraction)"), tr("Samples"));
    m_ebbPlot->setObjectName(QStringLiteral("ebbHistogram"));
    m_ebbPlot->setVisible(false);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_table);
    splitter->addWidget(m_loadPlot);
    splitter->addWidget(m_ebbPlot);
    splitter->addWidget(m_warnings);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 3);
    splitter->setStretchFactor(2, 2);
    splitter->setStretchFactor(3, 1);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(m_status);
    layout->addWidget(splitter, 1);

    m_poll = new QTimer(this);
    m_poll->setInterval(100);
    connect(m_poll, &QTimer::timeout, this, &RoutingPreview::pollProgress);
    connect(m_run, &QPushButton::clicked, this, &RoutingPreview::start);
    connect(m_cancel, &QPushButton::clicked, this, &RoutingPreview::cancel);
    // The current tables are measured under the traffic chosen here, so that both sides of the
    // comparison and the picture's load colours agree.
    connect(m_pattern, &QComboBox::currentIndexChanged, this,
            [this] { m_document->session()->setTrafficModel(trafficModel()); });
    m_document->session()->setTrafficModel(trafficModel());
    connect(m_document, &FabricDocument::changed, this, &RoutingPreview::documentChanged);
    // The engine is part of the project: chosen here, kept on save, chosen again on open.
    connect(m_engine, &QComboBox::currentIndexChanged, this, [this] { m_document->setRoutingEngine(engine()); });
    connect(m_document, &FabricDocument::routingEngineChosen, this, &RoutingPreview::setEngine);
    m_document->setRoutingEngine(engine());
    if (result())
        showResult();
    else
        clearResult();
}

RoutingPreview::~RoutingPreview()
{
    // A worker still running reads only its own copies; tell it to stop early.
    if (m_progress)
        m_progress->cancel = true;
}

QString RoutingPreview::formatNumber(double value)
{
    const QLocale locale;
    if (std::abs(value - std::round(value)) < 1e-9 && std::abs(value) < 1e15)
        return locale.toString(qlonglong(std::llround(value)));
    return locale.toString(value, 'f', 2);
}

const PreviewResult *RoutingPreview::result() const
{
    return m_document->session()->proposal().get();
}

void RoutingPreview::documentChanged(DocumentChanges what)
{
    const FabricSession *session = m_document->session();
    // A run that routes another fabric, or compares with tables no longer current, is dropped.
    if (m_progress && (what & (DocumentChange::Fabric | DocumentChange::CurrentTables | DocumentChange::WhatIf))
        && (m_runFabric != m_document->fabric() || m_runCurrent != session->currentTables() || m_runWhatIf != session->whatIf()))
        cancel();
    if (what & (DocumentChange::Fabric | DocumentChange::Proposal)) {
        if (result())
            showResult();
        else
            clearResult();
    } else if ((what & DocumentChange::CurrentTables) && !result() && !m_progress) {
        showIdleStatus();
    } else if ((what & (DocumentChange::CurrentTables | DocumentChange::Session)) && result()) {
        showHeader();  // the current side's name and time, as the session says them now
    }
    if ((what & (kTenancyChanges | DocumentChange::LiveChanges | DocumentChange::CurrentTables | DocumentChange::WhatIf | DocumentChange::Proposal))
        && result())
        if (const QString stale = session->staleReason(); !stale.isEmpty())
            m_status->setText(tr("This proposal no longer holds: %1.").arg(stale));
}

QString RoutingPreview::engine() const
{
    return m_engine->currentData().toString();
}

void RoutingPreview::setEngine(const QString &engine)
{
    const int index = m_engine->findData(engine);
    if (index >= 0)
        m_engine->setCurrentIndex(index);
}

TrafficModel RoutingPreview::trafficModel() const
{
    TrafficModel model;
    model.pattern = TrafficPattern(m_pattern->currentData().toInt());
    return model;
}

void RoutingPreview::setTrafficPattern(TrafficPattern pattern)
{
    const int index = m_pattern->findData(int(pattern));
    if (index >= 0)
        m_pattern->setCurrentIndex(index);
}

void RoutingPreview::setEbbSamples(int samples)
{
    m_ebb->setChecked(samples > 0);
    if (samples > 0)
        m_ebbSamples->setValue(samples);
}

QString RoutingPreview::statusText() const
{
    return m_status->text();
}

void RoutingPreview::start()
{
    if (!m_document->fabric() || m_progress)
        return;
    const FabricSession *session = m_document->session();
    PreviewRequest request;
    request.fabric = m_document->fabric();
    // What-if events are part of what the plan is made from: the fabric is routed with them.
    const WhatIf whatIf = session->whatIf();
    QString whatIfText;
    if (!whatIf.isEmpty()) {
        Result<Fabric> after = applyWhatIf(*request.fabric, whatIf);
        if (!after) {
            m_status->setText(tr("Cannot apply the what-if events: %1").arg(after.error().toString()));
            return;
        }
        whatIfText = whatIf.describe(*request.fabric);
        request.fabric = std::make_shared<const Fabric>(std::move(after).value());
    }
    request.tenancy = m_document->tenancy();
    request.current = session->currentTables();
    if (!whatIf.isEmpty() && request.current)
        request.adjustProposed = [fabric = request.fabric, current = request.current](ForwardingTables &tables, QStringList &warnings) {
            if (const std::size_t added = routeLostManagementLids(*fabric, tables, *current))
                warnings << tr("%n switch entries the current tables route and the engine left without a route after the what-if "
                               "events (management traffic only) were routed again", nullptr, int(added));
        };
    request.currentName = session->currentTablesName();
    request.engine = engine();
    request.model = trafficModel();
    request.ebbSamples = m_ebb->isChecked() ? m_ebbSamples->value() : 0;

    auto progress = std::make_shared<PreviewProgress>();
    m_progress = progress;
    m_runFabric = m_document->fabric();
    m_runCurrent = request.current;
    m_runEngine = request.engine;
    m_runWhatIf = whatIf;
    m_runWhatIfText = whatIfText;
    const quint64 generation = ++m_generation;
    m_run->setEnabled(false);
    m_cancel->setEnabled(true);
    m_bar->setVisible(true);
    m_bar->setRange(0, 0);
    m_status->setText(whatIfText.isEmpty() ? tr("Routing with %1…").arg(request.engine)
                                           : tr("Routing with %1, what-if: %2…").arg(request.engine, whatIfText));
    m_poll->start();
    // The worker gets value copies (the fabric is shared and immutable) and never touches widgets.
    QtConcurrent::run([request, progress, whatIf = !whatIfText.isEmpty()] {
        auto outcome = std::make_shared<Result<PreviewResult>>(computePreview(request, progress.get()));
        if (*outcome) {
            (*outcome)->proposed.label = whatIf ? tr("Proposed: %1 (what-if)").arg(request.engine) : tr("Proposed: %1").arg(request.engine);
            if ((*outcome)->current)
                (*outcome)->current->label = whatIf ? tr("Current under the what-if") : tr("Current: %1").arg(request.currentName);
        }
        return outcome;
    })
        .then(this, [this, generation](std::shared_ptr<Result<PreviewResult>> outcome) {
            if (generation == m_generation)
                finish(outcome);
        });
}

void RoutingPreview::cancel()
{
    if (!m_progress)
        return;
    m_progress->cancel = true;
    // Drop the run now; its result, when it comes, belongs to no one.
    ++m_generation;
    endRun();
    m_status->setText(tr("Preview cancelled."));
    Q_EMIT finished(false);
}

// The run is over, finished or dropped: what it held goes, and the controls are for a new one.
void RoutingPreview::endRun()
{
    m_progress.reset();
    m_runFabric.reset();
    m_runCurrent.reset();
    m_runWhatIf = {};
    m_poll->stop();
    m_run->setEnabled(true);
    m_cancel->setEnabled(false);
    m_bar->setVisible(false);
}

void RoutingPreview::pollProgress()
{
    if (!m_progress)
        return;
    const int done = m_progress->done;
    const int total = m_progress->total;
    static const char *const phases[] = {QT_TR_NOOP("Routing"), QT_TR_NOOP("Validating"), QT_TR_NOOP("Measuring load"),
                                         QT_TR_NOOP("Sampling bisections"), QT_TR_NOOP("Done")};
    const int phase = std::clamp(m_progress->phase.load(), 0, int(PhaseDone));
    if (total > 1) {
        m_bar->setRange(0, total);
        m_bar->setValue(done);
    } else {
        m_bar->setRange(0, 0);
    }
    m_bar->setFormat(tr(phases[phase]) + QStringLiteral(" %p %"));
    m_status->setText(tr("%1…").arg(tr(phases[phase])));
}

void RoutingPreview::finish(const std::shared_ptr<Result<PreviewResult>> &outcome)
{
    const WhatIf whatIf = m_runWhatIf;
    const QString whatIfText = m_runWhatIfText;
    endRun();
    if (!*outcome) {
        m_document->session()->clearProposal();
        clearResult();
        m_status->setText(tr("The preview failed: %1").arg(outcome->error().message));
        Q_EMIT finished(false);
        return;
    }
    // Shown when the session announces it, like a proposal from anywhere else.
    ProposalOrigin origin;
    origin.name = whatIfText.isEmpty() ? tr("Routing Preview: %1").arg(m_runEngine)
                                       : tr("Routing Preview: %1 for the what-if: %2").arg(m_runEngine, whatIfText);
    origin.whatIf = whatIf;
    origin.followsWhatIf = true;  // stale when the events change, whether it was made with some or none
    origin.intent = m_document->project();  // its tenancy is the plan's, set by the session
    origin.intent->tenancy = {};
    origin.intent->routingEngine = m_runEngine;
    m_document->session()->setProposal(std::move(*outcome).value(), std::move(origin));
    Q_EMIT finished(true);
}

void RoutingPreview::clearResult()
{
    for (int r = 0; r < RowCount; ++r)
        for (int c = 0; c < ColumnCount; ++c)
            m_table->setItem(r, c, new QTableWidgetItem);
    m_table->setHorizontalHeaderLabels({tr("Measure"), tr("Current"), tr("Proposed")});
    m_warnings->clear();
    m_loadPlot->clearPlottables();
    m_loadPlot->replot();
    m_ebbPlot->clearPlottables();
    m_ebbPlot->setVisible(false);
    showIdleStatus();
}

void RoutingPreview::showIdleStatus()
{
    const FabricSession *session = m_document->session();
    if (!m_document->fabric())
        m_status->setText(tr("Open a fabric to preview its routing."));
    else if (session->currentTables())
        m_status->setText(tr("Current tables: %1. Pick an engine and press Preview.").arg(session->currentTablesName()));
    else
        m_status->setText(tr("No current tables are known (File ▸ Open LFT Dump… loads them). Pick an engine and press Preview."));
}

void RoutingPreview::setRow(Row row, const QString &measure, const QString &current, const QString &proposed, int better)
{
    m_table->item(row, MeasureColumn)->setText(measure);
    m_table->item(row, MeasureColumn)->setToolTip(measure);  // the whole name where the column cuts it
    m_table->item(row, CurrentColumn)->setText(current);
    m_table->item(row, ProposedColumn)->setText(proposed);
    m_table->item(row, CurrentColumn)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_table->item(row, ProposedColumn)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    // Green where the proposal is better, red where it is worse: the eye goes to what changed.
    const QColor good(0xd9, 0xf0, 0xd3);
    const QColor bad(0xf9, 0xd6, 0xd5);
    m_table->item(row, ProposedColumn)->setBackground(better > 0 ? QBrush(good) : better < 0 ? QBrush(bad) : QBrush());
}

void RoutingPreview::showResult()
{
    const PreviewResult &r = *result();
    const RoutingSnapshot *before = r.current ? &*r.current : nullptr;
    const RoutingSnapshot &after = r.proposed;
    showHeader();
    const QString none = tr("—");
    // `lowerIsBetter`: how the proposal compares; 0 when there is nothing to compare with.
    const auto row = [&](Row which, const QString &measure, const std::function<double(const RoutingSnapshot &)> &value,
                         bool lowerIsBetter = true) {
        const double a = before ? value(*before) : 0;
        const double b = value(after);
        int better = 0;
        if (before && std::abs(a - b) > 1e-9)
            better = (b < a) == lowerIsBetter ? 1 : -1;
        setRow(which, measure, before ? formatNumber(a) : none, formatNumber(b), better);
    };
    const auto verdict = [](const RoutingSnapshot &s) {
        return s.validation.ok ? tr("passes") : tr("fails");
    };
    setRow(ValidationRow, tr("Validation"), before ? verdict(*before) : none, verdict(after),
           before && before->validation.ok != after.validation.ok ? (after.validation.ok ? 1 : -1) : 0);
    m_table->item(ValidationRow, ProposedColumn)->setForeground(after.validation.ok ? QColor(0x1e, 0x7b, 0x34) : QColor(0xb0, 0x1c, 0x1c));
    row(UnreachableRow, tr("Partition pairs not delivered"), [](const RoutingSnapshot &s) { return double(s.validation.unreachablePartitionPairs); });
    row(LoopsRow, tr("Forwarding loops"), [](const RoutingSnapshot &s) { return double(s.validation.loops); });
    setRow(DeadlockRow, tr("Free of credit loops"), before ? yesNo(before->validation.deadlockFree) : none,
           yesNo(after.validation.deadlockFree),
           before && before->validation.deadlockFree != after.validation.deadlockFree ? (after.validation.deadlockFree ? 1 : -1) : 0);
    row(PolicyRow, tr("Isolation policy violations"), [](const RoutingSnapshot &s) { return double(s.validation.policyViolations); });
    row(MaxLoadRow, tr("Highest link load"), [](const RoutingSnapshot &s) { return s.metrics->allLoad.max; });
    row(MeanLoadRow, tr("Mean link load"), [](const RoutingSnapshot &s) { return s.metrics->allLoad.mean; });
    row(StddevLoadRow, tr("Spread of link load (σ)"), [](const RoutingSnapshot &s) { return s.metrics->allLoad.stddev; });
    row(MaxRoutesRow, tr("Most routes on one link"), [](const RoutingSnapshot &s) { return s.metrics->allRoutes.max; });
    row(SharedLinksRow, tr("Links shared by partitions"), [](const RoutingSnapshot &s) { return double(s.metrics->sharedLinks); });
    row(InterferenceRow, tr("Inter-partition interference"), [](const RoutingSnapshot &s) { return double(s.metrics->interference); });
    row(UndeliveredRow, tr("Flows not delivered"), [](const RoutingSnapshot &s) { return double(s.metrics->undeliveredFlows); });
    const auto throughputText = [](const RoutingSnapshot &s) {
        return s.throughput ? tr("%1 % (slowest flow %2 GB/s)").arg(QLocale().toString(100.0 * s.throughput->normalized, 'f', 1),
                                                                QLocale().toString(s.throughput->minFlowBytesPerSecond / 1e9, 'f', 3))
                            : tr("not rated");
    };
    const bool throughputBoth = after.throughput && before && before->throughput;
    setRow(ThroughputRow, tr("Throughput (fluid max-min)"), before ? throughputText(*before) : none, throughputText(after),
           throughputBoth && std::abs(after.throughput->normalized - before->throughput->normalized) > 1e-9
               ? (after.throughput->normalized > before->throughput->normalized ? 1 : -1)
               : 0);
    m_table->item(ThroughputRow, MeasureColumn)
        ->setToolTip(tr("Every flow of the traffic model as a steady stream along its route, all sharing each cable max-min fairly: "
                        "their total as a share of what the senders' own links carry, and the slowest flow"));
    const auto ebbText = [](const RoutingSnapshot &s) {
        return s.ebb ? QLocale().toString(s.ebb->mean, 'f', 3) : tr("not computed");
    };
    const bool ebbBoth = after.ebb && before && before->ebb;
    setRow(EbbRow, tr("Effective bisection bandwidth (mean)"), before ? ebbText(*before) : none, ebbText(after),
           ebbBoth && std::abs(after.ebb->mean - before->ebb->mean) > 1e-9 ? (after.ebb->mean > before->ebb->mean ? 1 : -1) : 0);
    for (int r = 0; r < RowCount; ++r)
        m_table->item(r, MeasureColumn)->setData(Qt::UserRole, r);

    QStringList lines;
    const auto report = [&lines](const RoutingSnapshot &s) {
        lines << s.label;
        const QStringList all = s.warnings + s.validation.problems + s.validation.creditLoop;
        if (all.isEmpty())
            lines << tr("  no warnings");
        for (const QString &w : all)
            lines << QStringLiteral("  ") + w;
        for (const PartitionIsolationReport &p : s.validation.partitions)
            for (const QString &v : p.violations)
                lines << QStringLiteral("  ") + tr("%1: %2").arg(p.name, v);
    };
    if (before)
        report(*before);
    report(after);
    m_warnings->setPlainText(lines.join(QLatin1Char('\n')));
    plotLoads();
    plotEbb();
    const FabricSession *session = m_document->session();
    const WhatIf &whatIf = session->proposalOrigin().whatIf;
    const QString fabricText = whatIf.isEmpty() || !m_document->fabric()
        ? tr("the fabric")
        : tr("the fabric with the what-if (%1)").arg(whatIf.describe(*m_document->fabric()));
    QString status = after.validation.ok ? tr("%1 routes %2 and passes validation.").arg(engine(), fabricText)
                                         : tr("%1 routes %2, but validation fails: see the problems below.").arg(engine(), fabricText);
    if (!whatIf.isEmpty())
        status += QLatin1Char(' ') + tr("Approve installs it only as a pre-emptive plan, valid on the fabric as it is.");
    m_status->setText(status);
}

// One "Current" on the desk: the session's, named and timed as the review names it. Tables the
// switches no longer hold (a commit or a rediscovery since) are said to be the old ones.
void RoutingPreview::showHeader()
{
    const PreviewResult *r = result();
    if (!r)
        return;
    const FabricSession *holder = m_document->session();
    const RoutingSnapshot *before = r->current ? &*r->current : nullptr;
    QString currentLabel = tr("Current: none");
    if (before && before->tables == holder->currentTables())
        currentLabel = holder->proposalOrigin().whatIf.isEmpty() ? tr("Current: %1").arg(holder->currentTablesName())
                                                                 : tr("Current: %1, under the what-if").arg(holder->currentTablesName());
    else if (before)
        currentLabel = tr("Current when previewed (now: %1)").arg(holder->currentTablesName());
    m_table->setHorizontalHeaderLabels({tr("Measure"), currentLabel, r->proposed.label});
    m_table->horizontalHeaderItem(CurrentColumn)->setToolTip(currentLabel);
    m_table->horizontalHeaderItem(ProposedColumn)->setToolTip(r->proposed.label);
}

void RoutingPreview::plotLoads()
{
    m_loadPlot->clearPlottables();
    const PreviewResult &r = *result();
    const RoutingSnapshot *sides[] = {r.current ? &*r.current : nullptr, &r.proposed};
    double maxLoad = 0;
    for (const RoutingSnapshot *s : sides)
        if (s)
            maxLoad = std::max(maxLoad, s->metrics->allLoad.max);
    const double width = maxLoad > 0 ? maxLoad / kLoadBins : 1.0;
    double highest = 0;
    for (int side = 0; side < 2; ++side) {
        const RoutingSnapshot *s = sides[side];
        if (!s)
            continue;
        QVector<double> keys(kLoadBins), counts(kLoadBins, 0);
        for (int i = 0; i < kLoadBins; ++i)
            keys[i] = (i + 0.25 + 0.5 * side) * width;
        for (const LinkLoad &l : s->metrics->links) {
            if (l.fromLevel < 1 || l.toLevel < 1)
                continue;  // switch-to-switch links only, as the load statistics count them
            const int bin = std::min(kLoadBins - 1, int(l.load / width));
            counts[bin] += 1;
        }
        for (double c : counts)
            highest = std::max(highest, c);
        auto *bars = new QCPBars(m_loadPlot->xAxis, m_loadPlot->yAxis);
        bars->setName(side == 0 ? tr("Current") : tr("Proposed"));
        bars->setWidth(width * 0.45);
        const QColor colour = side == 0 ? kCurrentColour : kProposedColour;
        bars->setPen(QPen(colour.darker(120)));
        bars->setBrush(colour);
        bars->setData(keys, counts, true);
    }
    m_loadPlot->xAxis->setRange(0, width * kLoadBins);
    m_loadPlot->yAxis->setRange(0, std::max(1.0, highest * 1.1));
    m_loadPlot->replot();
}

void RoutingPreview::plotEbb()
{
    m_ebbPlot->clearPlottables();
    const PreviewResult &r = *result();
    const RoutingSnapshot *sides[] = {r.current ? &*r.current : nullptr, &r.proposed};
    bool any = false;
    double highest = 0;
    for (int side = 0; side < 2; ++side) {
        const RoutingSnapshot *s = sides[side];
        if (!s || !s->ebb || s->ebb->histogram.empty())
            continue;
        any = true;
        const int bins = int(s->ebb->histogram.size());
        const double width = 1.0 / bins;
        QVector<double> keys(bins), counts(bins);
        for (int i = 0; i < bins; ++i) {
            keys[i] = (i + 0.25 + 0.5 * side) * width;
            counts[i] = s->ebb->histogram[std::size_t(i)];
            highest = std::max(highest, counts[i]);
        }
        auto *bars = new QCPBars(m_ebbPlot->xAxis, m_ebbPlot->yAxis);
        bars->setName(side == 0 ? tr("Current") : tr("Proposed"));
        bars->setWidth(width * 0.45);
        const QColor colour = side == 0 ? kCurrentColour : kProposedColour;
        bars->setPen(QPen(colour.darker(120)));
        bars->setBrush(colour);
        bars->setData(keys, counts, true);
    }
    m_ebbPlot->setVisible(any);
    m_ebbPlot->xAxis->setRange(0, 1);
    m_ebbPlot->yAxis->setRange(0, std::max(1.0, highest * 1.1));
    m_ebbPlot->replot();
}

}  // namespace weft
