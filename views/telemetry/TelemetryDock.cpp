#include "TelemetryDock.h"

#include "FabricDocument.h"
#include "FabricScene.h"
#include "FabricSession.h"
#include "PrometheusHistory.h"
#include "TelemetryHistory.h"

#include <QComboBox>
#include <QDateTime>
#include <QFileDialog>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include "QCustomPlotInclude.h"

#include <algorithm>

namespace weft {

namespace {

constexpr double kSeriesSeconds = 3600;  // the time series shows the last hour
constexpr double kServerStep = 15;       // a server evaluates it every 15 s: 240 points
const QString kPrometheusServerKey = QStringLiteral("telemetry/prometheusServer");

QString endName(const Fabric &f, PortIndex p)
{
    const Node &node = f.node(f.port(p).node);
    return QStringLiteral("%1 [%2]").arg(node.description.isEmpty() ? node.name : node.description).arg(f.port(p).number);
}

}  // namespace

TelemetryDock::TelemetryDock(QWidget *parent)
    : QWidget(parent)
{
    m_orderBox = new QComboBox(this);
    m_orderBox->setObjectName(QStringLiteral("telemetryOrder"));
    m_orderBox->addItem(tr("Busiest links"), int(Order::Busiest));
    m_orderBox->addItem(tr("Most congested links"), int(Order::MostCongested));
    connect(m_orderBox, &QComboBox::currentIndexChanged, this, [this] { setOrder(Order(m_orderBox->currentData().toInt())); });

    m_table = new QTableWidget(0, 4, this);
    m_table->setObjectName(QStringLiteral("telemetryLinks"));
    m_table->setHorizontalHeaderLabels({tr("Link"), tr("Utilisation"), tr("xmit_wait/s"), tr("Errors")});
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    connect(m_table, &QTableWidget::cellClicked, this, [this](int row, int) {
        if (row >= 0 && std::size_t(row) < m_rows.size())
            selectLink(m_rows[std::size_t(row)].link);
    });

    m_plot = new QCustomPlot(this);
    m_plot->setObjectName(QStringLiteral("telemetryPlot"));
    m_plot->setMinimumHeight(160);
    auto ticker = QSharedPointer<QCPAxisTickerDateTime>::create();
    ticker->setDateTimeFormat(QStringLiteral("hh:mm"));
    m_plot->xAxis->setTicker(ticker);
    m_plot->yAxis->setLabel(tr("Measured utilisation (%)"));
    m_plot->yAxis2->setLabel(tr("Routing model's load"));
    m_plot->legend->setVisible(true);
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    m_plot->legend->setFont(small);
    m_plot->legend->setBrush(QColor(255, 255, 255, 200));
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    m_plotNote = new QLabel(tr("Select a link to see its last hour."), this);
    m_plotNote->setObjectName(QStringLiteral("telemetryPlotNote"));
    m_plotNote->setWordWrap(true);
    m_sourceBox = new QComboBox(this);
    m_sourceBox->setObjectName(QStringLiteral("telemetryHistorySource"));
    m_sourceBox->setToolTip(tr("Where the time series is read from"));
    showSourceChoice();
    connect(m_sourceBox, &QComboBox::activated, this, [this](int index) {
        if (index == 0)
            setPrometheusServer({});
        else
            choosePrometheusServerWithDialog();
    });

    auto *top = new QWidget(this);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    auto *orderRow = new QHBoxLayout;
    orderRow->addWidget(new QLabel(tr("Show:"), top));
    orderRow->addWidget(m_orderBox, 1);
    m_exportButton = new QPushButton(tr("Export…"), top);
    m_exportButton->setObjectName(QStringLiteral("telemetryExport"));
    m_exportButton->setToolTip(tr("Export the telemetry history to CSV"));
    m_exportButton->setEnabled(false);
    connect(m_exportButton, &QPushButton::clicked, this, &TelemetryDock::exportCsvWithDialog);
    orderRow->addWidget(m_exportButton);
    topLayout->addLayout(orderRow);
    topLayout->addWidget(m_table);
    auto *bottom = new QWidget(this);
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    auto *sourceRow = new QHBoxLayout;
    sourceRow->addWidget(new QLabel(tr("History:"), bottom));
    sourceRow->addWidget(m_sourceBox, 1);
    bottomLayout->addLayout(sourceRow);
    bottomLayout->addWidget(m_plotNote);
    bottomLayout->addWidget(m_plot, 1);
    // Side by side in the wide dock below the map: the links' table keeps five rows and more,
    // and the hour's plot its axis, on a laptop's 1366x768 too.
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(top);
    splitter->addWidget(bottom);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);
}

TelemetryDock::~TelemetryDock() = default;

void TelemetryDock::setHistoryPath(const QString &path)
{
    if (path == m_historyPath)
        return;
    m_historyPath = path;
    m_embedded.reset();
    m_history.reset();
    m_exportButton->setEnabled(!path.isEmpty());
    updatePlot();
}

Status TelemetryDock::openHistory()
{
    if (m_history)
        return Done{};
    if (m_historyPath.isEmpty())
        return Error{{}, 0, tr("No telemetry history is recorded for this fabric.")};
    const Fabric *f = m_scene ? m_scene->fabric() : nullptr;
    if (!f)
        return Error{m_historyPath, 0, tr("no fabric is shown")};
    Result<std::unique_ptr<TelemetryHistory>> opened = TelemetryHistory::open(m_historyPath, fabricHistoryId(*f));
    if (!opened)
        return opened.error();
    m_history = std::move(*opened);
    m_embedded = std::make_unique<EmbeddedHistorySource>(*m_history);
    return Done{};
}

void TelemetryDock::setPrometheusSourceFactory(PrometheusSourceFactory factory)
{
    m_prometheusFactory = std::move(factory);
    const QString remembered = QSettings().value(kPrometheusServerKey).toString();
    if (Result<QUrl> server = prometheusServerUrl(remembered); server && m_prometheusFactory)
        setPrometheusServer(*server);
}

void TelemetryDock::setPrometheusServer(const QUrl &server)
{
    QSettings().setValue(kPrometheusServerKey, server.toString());
    m_prometheusServer = server;
    m_prometheus.reset();
    if (!server.isEmpty() && m_prometheusFactory)
        m_prometheus = m_prometheusFactory(server);
    showSourceChoice();
    updatePlot();
}

void TelemetryDock::showSourceChoice()
{
    const QSignalBlocker quiet(m_sourceBox);
    m_sourceBox->clear();
    m_sourceBox->addItem(tr("Embedded history"));
    m_sourceBox->addItem(m_prometheusServer.isEmpty() ? tr("Prometheus server…") : tr("Prometheus at %1").arg(m_prometheusServer.toString()));
    m_sourceBox->setCurrentIndex(m_prometheusServer.isEmpty() ? 0 : 1);
}

void TelemetryDock::choosePrometheusServerWithDialog()
{
    const QString remembered = QSettings().value(kPrometheusServerKey).toString();
    bool ok = false;
    const QString text = QInputDialog::getText(this, tr("Prometheus Server"),
                                               tr("The Prometheus server that scrapes `weft monitor --prometheus` (http://host:9090):"),
                                               QLineEdit::Normal, remembered.isEmpty() ? QStringLiteral("http://localhost:9090") : remembered, &ok);
    if (!ok) {
        showSourceChoice();
        return;
    }
    const Result<QUrl> server = prometheusServerUrl(text);
    if (!server) {
        QMessageBox::warning(this, tr("Prometheus Server"), server.error().toString());
        showSourceChoice();
        return;
    }
    setPrometheusServer(*server);
}

QString TelemetryDock::plotNote() const
{
    return m_plotNote->text();
}

Status TelemetryDock::exportCsv(const QString &path)
{
    if (Status s = openHistory(); !s)
        return s;
    return m_history->exportCsv(path);
}

void TelemetryDock::exportCsvWithDialog()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Telemetry History"), {}, tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    if (Status s = exportCsv(path); !s)
        QMessageBox::warning(this, tr("Export Telemetry History"), s.error().toString());
}

void TelemetryDock::clear()
{
    m_allRows.clear();
    m_selected = kNoIndex;
    sortAndFill();
    updatePlot();
}

void TelemetryDock::showRecords(const std::vector<TelemetryRecord> &records)
{
    m_allRows.clear();
    const Fabric *f = m_scene ? m_scene->fabric() : nullptr;
    if (f) {
        std::vector<const TelemetryRecord *> byPort(f->ports().size(), nullptr);
        for (const TelemetryRecord &r : records)
            if (r.portIndex >= 0 && std::size_t(r.portIndex) < byPort.size())
                byPort[std::size_t(r.portIndex)] = &r;
        for (std::size_t l = 0; l < f->links().size(); ++l) {
            const Link &link = f->links()[l];
            LinkRow row;
            row.link = LinkIndex(l);
            bool measured = false;
            for (PortIndex p : {link.a, link.b}) {
                const TelemetryRecord *r = byPort[std::size_t(p)];
                if (!r)
                    continue;
                measured = true;
                if (r->rates.utilisation.ok())
                    row.utilisation = std::max(row.utilisation, r->rates.utilisation.value);
                if (r->rates.xmitWait.ok())
                    row.xmitWait = std::max(row.xmitWait, r->rates.xmitWait.value);
                for (const CounterDelta &d : r->rates.errors)
                    if (d.ok())
                        row.errors += d.delta;
            }
            if (measured)
                m_allRows.push_back(row);
        }
    }
    sortAndFill();
    // A server evaluates the series once a step: a tick sooner than that after the last read of
    // the same link would fetch the same points again (two GETs a tick for nothing), and one
    // while a read is out would only pile up behind it.
    const double now = double(QDateTime::currentMSecsSinceEpoch()) / 1000;
    if (m_prometheus && m_selected != kNoIndex && m_selected == m_plottedLink
        && (m_pendingReads > 0 || now - m_plotNow < kServerStep)) {
        ++m_serverReadsSpared;
        return;
    }
    updatePlot();
}

void TelemetryDock::setOrder(Order order)
{
    m_order = order;
    if (const int index = m_orderBox->findData(int(order)); index != m_orderBox->currentIndex())
        m_orderBox->setCurrentIndex(index);
    sortAndFill();
}

void TelemetryDock::sortAndFill()
{
    m_rows = m_allRows;
    // Ties keep the fabric's link order, so the table does not shuffle between equal ticks.
    const auto busier = [](const LinkRow &a, const LinkRow &b) { return a.utilisation > b.utilisation; };
    const auto congested = [](const LinkRow &a, const LinkRow &b) {
        return a.xmitWait != b.xmitWait ? a.xmitWait > b.xmitWait : a.errors > b.errors;
    };
    if (m_order == Order::Busiest)
        std::stable_sort(m_rows.begin(), m_rows.end(), busier);
    else
        std::stable_sort(m_rows.begin(), m_rows.end(), congested);
    if (m_rows.size() > std::size_t(kRowsShown))
        m_rows.resize(std::size_t(kRowsShown));

    const Fabric *f = m_scene ? m_scene->fabric() : nullptr;
    const QLocale locale;
    m_table->setRowCount(f ? int(m_rows.size()) : 0);
    if (!f)
        return;
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        const LinkRow &row = m_rows[i];
        const Link &link = f->links()[std::size_t(row.link)];
        const auto set = [&](int column, const QString &text) {
            auto *item = new QTableWidgetItem(text);
            if (column > 0)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(int(i), column, item);
        };
        set(0, QStringLiteral("%1 ↔ %2").arg(endName(*f, link.a), endName(*f, link.b)));
        set(1, row.utilisation >= 0 ? locale.toString(row.utilisation * 100, 'f', 1) + QStringLiteral(" %") : tr("n/a"));
        set(2, row.xmitWait >= 0 ? locale.toString(row.xmitWait, 'f', 0) : tr("n/a"));
        set(3, locale.toString(qulonglong(row.errors)));
        if (row.link == m_selected)
            m_table->selectRow(int(i));
    }
}

void TelemetryDock::selectLink(LinkIndex link)
{
    const Fabric *f = m_scene ? m_scene->fabric() : nullptr;
    if (!f || link < 0 || std::size_t(link) >= f->links().size())
        return;
    m_selected = link;
    const Link &l = f->links()[std::size_t(link)];
    m_scene->selectNodes({f->port(l.a).node, f->port(l.b).node});
    updatePlot();
    Q_EMIT linkSelected(link);
}

int TelemetryDock::seriesCount() const
{
    return m_plot->graphCount();
}

std::vector<QPointF> TelemetryDock::seriesPoints(int series) const
{
    std::vector<QPointF> points;
    if (series < 0 || series >= m_plot->graphCount())
        return points;
    for (const QCPGraphData &d : *m_plot->graph(series)->data())
        points.emplace_back(d.key, d.value);
    return points;
}

void TelemetryDock::updatePlot()
{
    const quint64 generation = ++m_plotGeneration;  // an answer to an earlier read is dropped
    m_pendingReads = 0;
    m_plottedLink = kNoIndex;
    m_plot->clearGraphs();
    m_plot->yAxis2->setVisible(false);
    m_plot->setVisible(false);  // until there is a series to show
    const Fabric *f = m_scene ? m_scene->fabric() : nullptr;
    if (!f || m_selected == kNoIndex || std::size_t(m_selected) >= f->links().size()) {
        m_plotNote->setText(tr("Select a link to see its last hour."));
        m_plot->replot();
        Q_EMIT plotUpdated();
        return;
    }
    HistorySource *source = m_prometheus.get();
    if (!m_prometheusServer.isEmpty() && !source) {
        m_plotNote->setText(tr("This desk cannot read a Prometheus server."));
        m_plot->replot();
        Q_EMIT plotUpdated();
        return;
    }
    if (!source) {
        if (Status opened = openHistory(); !opened) {
            m_plotNote->setText(opened.error().toString());
            m_plot->replot();
            Q_EMIT plotUpdated();
            return;
        }
        source = m_embedded.get();
    }
    const Link &link = f->links()[std::size_t(m_selected)];
    m_plotNow = double(QDateTime::currentMSecsSinceEpoch()) / 1000;
    m_plottedLink = m_selected;
    m_sourceName = source->name();
    m_pendingReads = 2;
    int direction = 0;
    for (PortIndex from : {link.a, link.b}) {
        m_answers[direction].reset();
        const HistoryQuery query{f->node(f->port(from).node).guid, f->port(from).number, m_plotNow - kSeriesSeconds, m_plotNow, kServerStep};
        // The embedded history answers at once; a server later, unless the plot moved on.
        source->read(query, this, [this, generation, direction](Result<std::vector<HistoryPoint>> points) {
            if (generation != m_plotGeneration)
                return;
            m_answers[direction] = std::move(points);
            if (--m_pendingReads == 0)
                drawSeries();
        });
        ++direction;
    }
    if (m_pendingReads > 0) {
        m_plotNote->setText(tr("Reading the last hour from %1…").arg(m_sourceName));
        m_plot->replot();
    }
}

void TelemetryDock::drawSeries()
{
    const Fabric *f = m_scene ? m_scene->fabric() : nullptr;
    if (!f || m_selected == kNoIndex || std::size_t(m_selected) >= f->links().size())
        return;
    const Link &link = f->links()[std::size_t(m_selected)];
    const double now = m_plotNow;
    const std::shared_ptr<const Metrics> metrics = m_document ? m_document->session()->currentMetrics() : nullptr;
    const QColor colours[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e)};
    int series = 0;
    QStringList problems;
    double newest = now - kSeriesSeconds;
    int direction = 0;
    for (const auto &[from, to] : {std::pair{link.a, link.b}, std::pair{link.b, link.a}}) {
        const Result<std::vector<HistoryPoint>> &points = *m_answers[direction++];
        if (!points) {
            problems << points.error().toString();
            continue;
        }
        QVector<double> times;
        QVector<double> values;
        for (const HistoryPoint &p : *points) {
            if (!p.utilisation.ok())
                continue;
            times << p.time;
            values << p.utilisation.value * 100;
            newest = std::max(newest, p.time);
        }
        QCPGraph *graph = m_plot->addGraph();
        graph->setName(tr("Measured %1 → %2").arg(endName(*f, from), endName(*f, to)));
        graph->setPen(QPen(colours[series], 2));
        graph->setData(times, values, true);
        if (metrics) {
            const auto it = std::find_if(metrics->links.begin(), metrics->links.end(), [from = from](const LinkLoad &l) { return l.from == from; });
            if (it != metrics->links.end()) {
                QCPGraph *model = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis2);
                model->setName(tr("Model %1 → %2").arg(endName(*f, from), endName(*f, to)));
                QPen pen(colours[series], 1.5, Qt::DashLine);
                model->setPen(pen);
                model->setData({now - kSeriesSeconds, now}, {it->load, it->load}, true);
                m_plot->yAxis2->setVisible(true);
            }
        }
        ++series;
    }
    m_plot->setVisible(series > 0);
    if (!problems.isEmpty())
        m_plotNote->setText(problems.join(QLatin1Char('\n')));
    else if (series > 0)
        m_plotNote->setText(tr("Last hour of %1 ↔ %2 from %3 (solid: measured; dashed: the routing model's load of the tables held now)")
                                .arg(endName(*f, link.a), endName(*f, link.b), m_prometheus ? m_sourceName : tr("the embedded history")));
    m_plot->xAxis->setRange(now - kSeriesSeconds, std::max(now, newest));
    m_plot->yAxis->rescale();
    m_plot->yAxis->setRangeLower(0);
    if (m_plot->yAxis->range().upper <= 0)
        m_plot->yAxis->setRangeUpper(1);
    if (m_plot->yAxis2->visible()) {
        m_plot->yAxis2->rescale();
        m_plot->yAxis2->setRangeLower(0);
        m_plot->yAxis2->setRangeUpper(std::max(1.0, m_plot->yAxis2->range().upper * 1.1));
    }
    m_plot->replot();
    Q_EMIT plotUpdated();
}

}  // namespace weft
