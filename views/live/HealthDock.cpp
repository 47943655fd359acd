#include "HealthDock.h"

#include "FabricDesign.h"
#include "FabricDocument.h"
#include "FabricSession.h"
#include "MapOverlays.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPointer>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace weft {

namespace {

constexpr int kGuidsRole = Qt::UserRole;  // QVariantList of the finding's node GUIDs (qulonglong)

// What a check on the worker thread reads: copies and shared snapshots, nothing of the GUI's.
struct CheckInput
{
    std::shared_ptr<const Fabric> fabric;
    std::shared_ptr<const ForwardingTables> lfts;
    std::shared_ptr<const PKeyTables> pkeys;
    QString designFile;
    QString source;
};

Result<FabricCheckReport> runHealthCheck(const CheckInput &in)
{
    std::optional<FabricDesign> design;
    if (!in.designFile.isEmpty()) {
        Result<FabricDesign> read = readDesignFile(in.designFile);
        if (!read)
            return read.error();
        design = std::move(*read);
    }
    return checkHeldFabric(*in.fabric, HeldFabricCheck{in.source, in.lfts.get(), in.pkeys.get(), design ? &*design : nullptr});
}

}  // namespace

HealthDock::HealthDock(FabricDocument *document, QWidget *parent)
    : QWidget(parent), m_document(document)
{
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("healthSummary"));
    m_summary->setWordWrap(true);
    m_designLabel = new QLabel(this);
    m_designLabel->setObjectName(QStringLiteral("healthDesign"));
    m_designLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_design = new QPushButton(tr("Design…"), this);
    m_design->setObjectName(QStringLiteral("healthDesignButton"));
    m_design->setToolTip(tr("The fabric's design to compare with: a topology file (a saved as-built, weft gen's output) or a "
                            "cabling list (CSV)"));
    m_check = new QPushButton(tr("Check"), this);
    m_check->setObjectName(QStringLiteral("healthCheckButton"));
    m_check->setToolTip(tr("Check identities, links, the design, the tables and the P_Keys the fabric holds (live: after a "
                           "rediscovery)"));
    m_tree = new QTreeWidget(this);
    m_tree->setObjectName(QStringLiteral("healthTree"));
    m_tree->setColumnCount(2);
    m_tree->setHeaderLabels({tr("Finding"), tr("What")});
    m_tree->setUniformRowHeights(true);
    m_tree->setRootIsDecorated(true);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_tree->header()->setStretchLastSection(true);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_designLabel, 1);
    buttons->addWidget(m_design);
    buttons->addWidget(m_check);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(buttons);
    layout->addWidget(m_summary);
    layout->addWidget(m_tree, 1);

    connect(m_check, &QPushButton::clicked, this, &HealthDock::check);
    connect(m_design, &QPushButton::clicked, this, &HealthDock::chooseDesign);
    connect(m_tree, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *item) {
        if (!item)
            return;
        std::vector<Guid> nodes;
        for (const QVariant &guid : item->data(0, kGuidsRole).toList())
            nodes.push_back(guid.toULongLong());
        if (!nodes.empty())
            Q_EMIT nodesChosen(nodes);
    });
    connect(m_document, &FabricDocument::changed, this, [this](DocumentChanges what) {
        if (what & DocumentChange::Fabric) {
            ++m_generation;  // a check under way was of the fabric before
            clear(tr("Another fabric: Check to check it."));
        }
    });
    FabricSession *session = m_document->session();
    connect(session, &FabricSession::discoveryFinished, this, [this](bool ok, const QString &error, bool) {
        if (!m_waitingForDiscovery)
            return;
        m_waitingForDiscovery = false;
        if (!ok)
            return finish(tr("The rediscovery failed: %1").arg(error));
        if (!m_document->session()->liveChanges().empty()) {
            clear({});  // the findings shown were of the fabric as it was
            return finish(tr("The fabric changed since it was discovered (Fabric Changes lists how): discover it anew, then "
                             "Check."));
        }
        runCheck(QStringLiteral("live"));
    });
    setDesignFile({});
    clear(tr("Not checked yet."));
}

// The map releases what this dock asked of it when the dock is destroyed (MapOverlays watches
// its owners); the map may be gone already, the window's children going in their order.
HealthDock::~HealthDock() = default;

void HealthDock::setMap(MapOverlays *map)
{
    if (m_map)
        m_map->release(this);
    m_map = map;
    if (m_map && !m_marks.empty())
        m_map->showHealth(this, m_marks);
}

void HealthDock::setDesignFile(const QString &path)
{
    m_designFile = path;
    m_designLabel->setText(path.isEmpty() ? tr("No design") : tr("Design: %1").arg(QFileInfo(path).fileName()));
    m_designLabel->setToolTip(path);
}

QString HealthDock::summaryText() const
{
    return m_summary->text();
}

void HealthDock::chooseDesign()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Fabric Design"), QFileInfo(m_designFile).path(),
                                                      tr("Designs (*.topo *.txt *.csv *.net);;All files (*)"));
    if (!path.isEmpty())
        setDesignFile(path);
}

void HealthDock::check()
{
    if (m_checking)
        return;
    FabricSession *session = m_document->session();
    if (!m_document->fabric())
        return finish(tr("No fabric to check."));
    m_checking = true;
    m_check->setEnabled(false);
    if (session->isLive()) {
        // Through the session's one link to the fabric, after whatever it is doing.
        m_summary->setText(tr("Rediscovering the fabric…"));
        m_waitingForDiscovery = true;
        if (!session->discover(true)) {
            m_waitingForDiscovery = false;
            finish(tr("A discovery runs already: Check again when it ends."));
        }
        return;
    }
    runCheck(QStringLiteral("offline"));
}

void HealthDock::runCheck(const QString &source)
{
    FabricSession *session = m_document->session();
    CheckInput input{m_document->fabric(), session->held().lfts, session->held().pkeys, m_designFile, source};
    if (!input.fabric)
        return finish(tr("No fabric to check."));
    m_summary->setText(tr("Checking…"));
    const quint64 generation = m_generation;
    auto *watcher = new QFutureWatcher<std::shared_ptr<Result<FabricCheckReport>>>(this);
    connect(watcher, &QFutureWatcher<std::shared_ptr<Result<FabricCheckReport>>>::finished, this, [this, watcher, generation] {
        const std::shared_ptr<Result<FabricCheckReport>> result = watcher->result();
        watcher->deleteLater();
        if (generation != m_generation)
            return finish(tr("Another fabric: Check to check it."));
        if (!*result)
            return finish(result->error().toString());
        show(**result);
        finish({});
    });
    watcher->setFuture(QtConcurrent::run([input] { return std::make_shared<Result<FabricCheckReport>>(runHealthCheck(input)); }));
}

void HealthDock::finish(const QString &error)
{
    m_checking = false;
    m_check->setEnabled(true);
    if (!error.isEmpty())
        m_summary->setText(error);
    Q_EMIT checked(error);
}

void HealthDock::clear(const QString &summary)
{
    m_report.reset();
    m_marks = {};
    m_tree->clear();
    m_summary->setText(summary);
    if (m_map)
        m_map->release(this);
}

void HealthDock::show(const FabricCheckReport &report)
{
    m_tree->clear();
    m_report = report;
    const std::shared_ptr<const Fabric> fabric = m_document->fabric();
    const std::size_t errors = report.count(CheckSeverity::Error), warnings = report.count(CheckSeverity::Warning);
    if (report.findings.empty())
        m_summary->setText(tr("Clean: no findings (%1).").arg(report.checks.join(QStringLiteral(", "))));
    else
        m_summary->setText(tr("%n error(s)", nullptr, int(errors)) + QStringLiteral(", ") + tr("%n warning(s)", nullptr, int(warnings))
                           + QStringLiteral(" (%1)").arg(report.checks.join(QStringLiteral(", "))));
    for (CheckSeverity severity : {CheckSeverity::Error, CheckSeverity::Warning}) {
        const std::size_t n = report.count(severity);
        if (!n)
            continue;
        auto *top = new QTreeWidgetItem(m_tree, {severity == CheckSeverity::Error ? tr("Errors (%1)").arg(n) : tr("Warnings (%1)").arg(n)});
        top->setForeground(0, severity == CheckSeverity::Error ? QColor(0xc0, 0x10, 0x10) : QColor(0xb0, 0x60, 0x00));
        QFont bold = top->font(0);
        bold.setBold(true);
        top->setFont(0, bold);
        for (const CheckFinding &f : report.findings) {
            if (f.severity != severity)
                continue;
            auto *item = new QTreeWidgetItem(top, {f.kind, f.message});
            item->setToolTip(1, f.message);
            QVariantList guids;
            for (const FindingPlace &p : f.places)
                if (p.guid && fabric && fabric->nodeByGuid(p.guid) != kNoIndex && !guids.contains(QVariant::fromValue(qulonglong(p.guid))))
                    guids << QVariant::fromValue(qulonglong(p.guid));
            item->setData(0, kGuidsRole, guids);
        }
        top->setExpanded(true);
    }
    m_marks = fabric ? healthMarksOf(*fabric, report) : HealthMarks{};
    if (m_map)
        m_map->showHealth(this, m_marks);
}

}  // namespace weft
