#include "FabricMenu.h"

#include "CommitJournalDialog.h"
#include "DeskDocks.h"
#include "DiffReview.h"
#include "DiscoveryDialog.h"
#include "FabricChangesPanel.h"
#include "FabricDocument.h"
#include "FabricSession.h"
#include "FileMenu.h"
#include "MapOverlays.h"
#include "MapToolBar.h"
#include "RoutingPreview.h"
#include "TelemetryDock.h"
#include "TelemetrySampler.h"

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressDialog>
#include <QSettings>

#include <functional>

namespace weft {

FabricMenu::FabricMenu(QMainWindow *window, FabricDocument *document, const DeskDocks &docks, MapToolBar *toolBar, FileMenu *files)
    : QObject(window), m_window(window), m_document(document), m_docks(docks), m_toolBar(toolBar), m_files(files)
{
    FabricSession *session = m_document->session();
    TelemetrySampler *sampler = session->sampler();
    QMenu *menu = window->menuBar()->addMenu(tr("F&abric"));
    m_discover = menu->addAction(tr("&Discover…"), this, &FabricMenu::chooseAdapterAndDiscover);
    m_discover->setObjectName(QStringLiteral("discoverAction"));
    m_discover->setStatusTip(tr("Read the live fabric through a local adapter: topology, forwarding tables and P_Key tables"));
    m_rediscover = menu->addAction(tr("R&ediscover"), this, [this, session] {
        startDiscovery(session->adapterName(), session->adapterPort(), true);
    });
    m_rediscover->setObjectName(QStringLiteral("rediscoverAction"));
    m_rediscover->setStatusTip(tr("Discover again: what changed since, or the tables the switches hold now"));
    m_rediscover->setEnabled(false);
    m_telemetry = menu->addAction(tr("&Sample Port Counters"));
    m_telemetry->setObjectName(QStringLiteral("telemetryAction"));
    m_telemetry->setCheckable(true);
    connect(m_telemetry, &QAction::triggered, this, &FabricMenu::setTelemetryRunning);
    connect(sampler, &TelemetrySampler::runningChanged, m_telemetry, &QAction::setChecked);
    // A setting changed while the sampler runs takes effect at once: it starts again with it.
    const auto restartWith = [sampler](const std::function<void()> &change) {
        const bool running = sampler->isRunning();
        sampler->stop();
        change();
        if (running)
            sampler->start();
    };
    QAction *interval = menu->addAction(tr("Port Counter &Interval…"), this, [this, sampler, restartWith] {
        bool ok = false;
        const double seconds = QInputDialog::getDouble(m_window, tr("Port Counter Interval"), tr("Seconds between readings:"),
                                                       sampler->interval(), 0.5, 86400, 1, &ok);
        if (ok)
            restartWith([sampler, seconds] { sampler->setInterval(seconds); });
    });
    interval->setObjectName(QStringLiteral("telemetryIntervalAction"));
    QAction *clearCounters = menu->addAction(tr("&Clear Counters Past 75 %"));
    clearCounters->setObjectName(QStringLiteral("telemetryClearCountersAction"));
    clearCounters->setCheckable(true);
    clearCounters->setStatusTip(tr("Clear a port's 32-bit port counters once one passes 75 % of its range, as OpenSM's perfmgr does"));
    connect(clearCounters, &QAction::toggled, this, [sampler, restartWith](bool on) { restartWith([sampler, on] { sampler->setClearCounters(on); }); });
    updateActions();
    menu->addSeparator();
    QAction *preview = menu->addAction(tr("&Preview Routing"), this, [this] {
        DeskDocks::raise(m_docks.previewDock);
        m_docks.preview->start();
    });
    preview->setShortcut(QKeySequence(Qt::Key_F5));
    QAction *review = menu->addAction(tr("&Review Changes"), this, [this] { DeskDocks::raise(m_docks.diffDock); });
    review->setShortcut(QKeySequence(Qt::Key_F6));
    menu->addAction(tr("&Approve…"), m_docks.diffReview, &DiffReview::approve)->setObjectName(QStringLiteral("approveAction"));
    menu->addAction(tr("Commit &Target…"), m_docks.diffReview, &DiffReview::editCommitTarget);
    menu->addSeparator();
    menu->addAction(tr("Commit &Journal…"), this, &FabricMenu::showCommitJournal);
    menu->addAction(tr("&Recover Unfinished Commit…"), this, [this] {
        if (!offerCommitRecovery())
            Q_EMIT statusMessage(tr("No unfinished commit on the commit target."), 8000);
    });
    connect(session, &FabricSession::discoveryProgress, this, [this](const QString &step, int done, int total) {
        if (!m_progress)
            return;
        m_progress->setLabelText(step + QStringLiteral("…"));
        m_progress->setRange(0, total);
        m_progress->setValue(total > 0 ? done : 0);
    });
    connect(session, &FabricSession::discoveryFinished, this, &FabricMenu::discoveryDone);
    connect(m_document, &FabricDocument::changed, this, [this](DocumentChanges what) {
        if (what & (DocumentChanges(DocumentChange::Fabric) | DocumentChange::Session))
            updateActions();
    });
}

CommitRecoveryDialog *FabricMenu::offerCommitRecovery()
{
    if (auto *open = m_window->findChild<CommitRecoveryDialog *>(); open && open->isVisible()) {
        open->raise();
        return open;
    }
    FabricSession *session = m_document->session();
    const std::optional<CommitJournalEntry> unfinished = session->unfinishedCommit();
    if (!unfinished)
        return nullptr;
    // The session's recovery, through the adapter it reaches the fabric by, as every commit; of a
    // subnet, through the SM that is master now.
    const CommitTarget &target = session->commitTarget();
    const QString files = session->subnetTarget() ? tr("the files of every SM of %1").arg(session->commitTargetText())
                                                  : tr("%1 and %2").arg(target.routingFile(), target.partitionsPath);
    auto *dialog = new CommitRecoveryDialog(files, *unfinished, session->recovery(), m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &CommitRecoveryDialog::recovered, this, [this, session](const CommitReport &report) {
        session->adoptReadBack(report);
        Q_EMIT statusMessage(tr("Recovery: %1").arg(commitOutcomeName(report.outcome)), 15000);
    });
    dialog->show();
    return dialog;
}

// The target's journal holds its commits and the autopilot's records; without a target, the
// last one opened, else the operator picks one.
void FabricMenu::showCommitJournal()
{
    QSettings settings;
    QString path = m_document->session()->journalPath();
    if (path.isEmpty())
        path = settings.value(QStringLiteral("journal/path")).toString();
    if (path.isEmpty() || !QFileInfo::exists(path)) {
        path = QFileDialog::getOpenFileName(m_window, tr("Open Commit Journal"), path, tr("Commit journals (*.jsonl);;All files (*)"));
        if (path.isEmpty())
            return;
    }
    auto *dialog = new CommitJournalDialog(m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QString error;
    if (!dialog->load(path, &error)) {
        delete dialog;
        QMessageBox::warning(m_window, tr("Commit Journal"), tr("Cannot read the commit journal:\n%1").arg(error));
        return;
    }
    settings.setValue(QStringLiteral("journal/path"), path);
    dialog->show();
    offerCommitRecovery();
}

// ---- discovery and telemetry --------------------------------------------------------------------

void FabricMenu::chooseAdapterAndDiscover()
{
    if (isDiscovering() || !m_files->maySetEditsAside(tr("Discovering replaces the fabric shown.")))
        return;
    auto *dialog = new DiscoveryDialog(m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { startDiscovery(dialog->adapterName(), dialog->adapterPort(), false); });
    dialog->open();
}

bool FabricMenu::isDiscovering() const
{
    return m_document->session()->isDiscovering();
}

bool FabricMenu::startDiscovery(const QString &caName, int caPort, bool rediscover)
{
    FabricSession *session = m_document->session();
    if (isDiscovering() || (rediscover && !m_document->fabric()))
        return false;
    session->setAdapter(caName, caPort);
    m_rediscovering = rediscover;
    m_progress = new QProgressDialog(rediscover ? tr("Discovering the fabric again…") : tr("Discovering the fabric…"),
                                              tr("Cancel"), 0, 0, m_window);
    m_progress->setObjectName(QStringLiteral("discoveryProgress"));
    m_progress->setWindowTitle(tr("Discover"));
    m_progress->setAttribute(Qt::WA_DeleteOnClose);
    m_progress->setAutoClose(false);
    m_progress->setAutoReset(false);
    m_progress->setMinimumDuration(0);
    connect(m_progress, &QProgressDialog::canceled, session, &FabricSession::cancelDiscovery);
    m_progress->open();
    if (!session->discover(rediscover)) {
        m_progress->close();
        m_progress = nullptr;
        return false;
    }
    return true;
}

void FabricMenu::discoveryDone(bool ok, const QString &error, bool cancelled)
{
    if (m_progress) {
        m_progress->disconnect(m_document->session());
        m_progress->close();
        m_progress = nullptr;
    }
    const FabricSession *session = m_document->session();
    if (!ok) {
        // Nothing read is kept: the fabric shown stays as it was.
        if (cancelled) {
            Q_EMIT statusMessage(error, 8000);
        } else {
            auto *box = new QMessageBox(QMessageBox::Warning, tr("Cannot Discover the Fabric"),
                                        tr("The fabric could not be read. What is shown is unchanged."), QMessageBox::Ok, m_window);
            box->setObjectName(QStringLiteral("discoveryErrorBox"));
            box->setInformativeText(error);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        }
    } else if (m_rediscovering) {
        const int changes = m_docks.changes->changeCount();
        if (changes > 0)
            DeskDocks::raise(m_docks.changesDock);
        const QStringList held = session->heldChanges();
        Q_EMIT statusMessage(changes > 0 ? tr("Rediscovered: the fabric changed (%n change(s)); open proposals are stale", nullptr, changes)
                                 : held.isEmpty() ? tr("Rediscovered: the topology and the tables are as they were%1")
                                                            .arg(session->proposal() ? tr("; the open proposal is stale: preview or plan again") : QString())
                                                  : tr("Rediscovered: the topology is as it was; %1").arg(held.join(QStringLiteral("; "))),
                                 15000);
    } else {
        m_toolBar->setShownRouting(ShownRouting::Current);
        Q_EMIT statusMessage(tr("Discovered %n node(s) through %1; the tables and partitions are those the fabric holds", nullptr,
                                    m_document->fabric() ? int(m_document->fabric()->nodes().size()) : 0)
                                     .arg(session->adapterText()),
                                 15000);
    }
    Q_EMIT discoveryFinished(ok, error);
}

void FabricMenu::updateActions()
{
    m_rediscover->setEnabled(m_document->fabric() && !isDiscovering());
    m_discover->setEnabled(!isDiscovering());
    const bool live = m_document->session()->sampler()->fabric() != nullptr;
    if (!live && m_toolBar->map()->scene()->hasMeasuredTelemetry()) {
        // Another fabric is shown: its ports are not the ones read.
        m_toolBar->map()->setMeasuredTelemetry({});
        m_docks.telemetry->clear();
        m_docks.telemetry->setHistoryPath({});
    }
    m_telemetry->setEnabled(live);
    m_telemetry->setToolTip(live ? tr("Read every linked port's counters every %1 s and show the rates on the map and in the Telemetry dock")
                                       .arg(m_document->session()->sampler()->interval())
                                 : tr("Port counters can only be read from a live fabric: use Fabric ▸ Discover first"));
    m_telemetry->setStatusTip(m_telemetry->toolTip());
}

void FabricMenu::setTelemetryRunning(bool run)
{
    TelemetrySampler *sampler = m_document->session()->sampler();
    if (!run) {
        sampler->stop();
        return;
    }
    if (!sampler->start()) {
        m_telemetry->setChecked(false);
        return;
    }
    m_docks.telemetry->setHistoryPath(sampler->historyPath());
    DeskDocks::raise(m_docks.telemetryDock);
    m_toolBar->setLinkColouring(LinkColouring::Measured);
    Q_EMIT statusMessage(tr("Reading port counters every %1 s: the first reading primes the counters, the first rates "
                                "follow one interval later")
                                 .arg(sampler->interval()),
                             10000);
}

}  // namespace weft
