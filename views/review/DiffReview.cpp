#include "DiffReview.h"

#include "CommitJournal.h"
#include "CommitJournalDialog.h"
#include "CommitTargetDialog.h"
#include "CommitTargetSettings.h"
#include "FabricDocument.h"
#include "FabricSession.h"
#include "LftDump.h"
#include "QosConfig.h"
#include "SafeFile.h"

#include <QCheckBox>
#include <QDialog>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QFontDatabase>
#include <QApplication>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace weft {

namespace {

const QString kPlanDirKey = QStringLiteral("commit/planDirectory");

QTableWidgetItem *numberItem(long long value)
{
    auto *item = new QTableWidgetItem(QLocale().toString(value));
    item->setData(Qt::UserRole, value);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

}  // namespace

DiffReview::DiffReview(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("diffReview"));
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("diffSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Why Approve is off, beside it (a tooltip hides it): refused in red; nothing to install, or
    // installed already, as plain news.
    m_stale = new QLabel(this);
    m_stale->setObjectName(QStringLiteral("diffStale"));
    m_stale->setWordWrap(true);
    m_stale->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_stale->hide();
    m_switches = new QTableWidget(0, ColumnCount, this);
    m_switches->setObjectName(QStringLiteral("diffSwitches"));
    m_switches->setHorizontalHeaderLabels({tr("Switch"), tr("LID"), tr("Entries changed"), tr("Blocks sent"), tr("SMPs")});
    m_switches->verticalHeader()->hide();
    m_switches->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_switches->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_switches->horizontalHeader()->setSectionResizeMode(SwitchColumn, QHeaderView::Stretch);
    for (int c = LidColumn; c < ColumnCount; ++c)
        m_switches->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    m_switches->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_partitionsDiff = new QPlainTextEdit(this);
    m_partitionsDiff->setObjectName(QStringLiteral("partitionsDiff"));
    m_partitionsDiff->setReadOnly(true);
    m_partitionsDiff->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_partitionsDiff->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_partitionsDiff->setPlaceholderText(tr("partitions.conf does not change."));
    m_report = new QPlainTextEdit(this);
    m_report->setObjectName(QStringLiteral("commitReport"));
    m_report->setReadOnly(true);
    m_report->setPlaceholderText(tr("The commit report appears here after Approve."));
    m_target = new QLabel(this);
    m_target->setWordWrap(true);
    m_target->setObjectName(QStringLiteral("commitTargetLabel"));
    m_policies = new QTableWidget(0, PolicyColumnCount, this);
    m_policies->setObjectName(QStringLiteral("diffPolicies"));
    m_policies->setHorizontalHeaderLabels({tr("Partition"), tr("Policy"), tr("Met"), tr("SL"), tr("VL")});
    m_policies->verticalHeader()->hide();
    m_policies->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_policies->horizontalHeader()->setSectionResizeMode(PartitionColumn, QHeaderView::Stretch);
    for (int c = PolicyColumn; c < PolicyColumnCount; ++c)
        m_policies->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    m_policies->setToolTip(tr("The VL is the one the commit has OpenSM map the SL to (QoS); without QoS OpenSM keeps every partition on SL 0."));
    m_acceptViolations = new QCheckBox(this);
    m_acceptViolations->setObjectName(QStringLiteral("acceptViolations"));
    m_acceptViolations->hide();
    connect(m_acceptViolations, &QCheckBox::toggled, this, &DiffReview::updateApprove);
    m_approve = new QPushButton(tr("&Approve…"), this);
    m_approve->setObjectName(QStringLiteral("approveButton"));
    auto *targetButton = new QPushButton(tr("Commit &Target…"), this);
    connect(m_approve, &QPushButton::clicked, this, &DiffReview::approve);
    connect(targetButton, &QPushButton::clicked, this, &DiffReview::editCommitTarget);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_target, 1);
    buttons->addWidget(targetButton);
    buttons->addWidget(m_acceptViolations);
    buttons->addWidget(m_approve);
    // Side by side, for the wide dock below the map: the switches sent to on the left; the
    // policies, the partitions.conf diff and the commit report on the right.
    // The policies, the partitions.conf diff and the commit report as tabs: each gets the dock's
    // whole height (five rows and more on a laptop's 1366x768), and the report comes to the front
    // when Approve runs.
    auto *right = new QTabWidget(this);
    right->setObjectName(QStringLiteral("diffReviewTabs"));
    right->addTab(m_policies, tr("Policies"));
    right->addTab(m_partitionsDiff, tr("partitions.conf"));
    right->addTab(m_report, tr("Commit Report"));
    m_rightTabs = right;
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_switches);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_summary);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_stale);
    layout->addLayout(buttons);
    updateTargetLabel();
    clear();
}

FabricSession *DiffReview::session() const
{
    return m_document ? m_document->session() : nullptr;
}

void DiffReview::setDocument(FabricDocument *document)
{
    if (m_document) {
        disconnect(m_document, nullptr, this, nullptr);
        disconnect(m_document->session(), nullptr, this, nullptr);
    }
    m_document = document;
    if (!m_document)
        return;
    FabricSession *s = m_document->session();
    connect(m_document, &FabricDocument::changed, this, [this](DocumentChanges what) {
        if (what & (DocumentChange::Fabric | DocumentChange::Plan | DocumentChange::Proposal | DocumentChange::LiveChanges
                    | DocumentChange::WhatIf))
            showPlan();
        if (what & DocumentChange::Session) {
            updateTargetLabel();
            updateApprove();
        }
    });
    connect(s, &FabricSession::commitProgress, this, [this](const QString &line) {
        m_report->appendPlainText(line);
        m_rightTabs->setCurrentWidget(m_report);
    });
    connect(s, &FabricSession::commitFinished, this, [this](const CommitReport &report) {
        showReport(report.toText());
        updateApprove();
        Q_EMIT commitFinished(report);
    });
    showPlan();
}

void DiffReview::showPlan()
{
    const FabricSession *s = session();
    m_plan = s ? s->plan() : nullptr;
    if (!m_plan) {
        clear();
        return;
    }
    const ReconfigurationDiff &diff = m_plan->review.diff;
    m_switches->setSortingEnabled(false);
    m_switches->setRowCount(int(diff.switches.size()));
    for (std::size_t i = 0; i < diff.switches.size(); ++i) {
        const SwitchLftChange &c = diff.switches[i];
        const int row = int(i);
        auto *name = new QTableWidgetItem(c.description.isEmpty() ? guidText(c.guid) : c.description);
        name->setToolTip(tr("GUID 0x%1; blocks %2").arg(guidDigits(c.guid)).arg([&c] {
            QStringList blocks;
            for (int b : c.changedBlocks)
                blocks << QString::number(b);
            return blocks.join(QStringLiteral(", "));
        }()));
        name->setData(Qt::UserRole, QVariant::fromValue<qulonglong>(c.guid));  // for the LFT inspector
        m_switches->setItem(row, SwitchColumn, name);
        m_switches->setItem(row, LidColumn, numberItem(c.lid));
        m_switches->setItem(row, EntriesColumn, numberItem(c.changedEntries));
        m_switches->setItem(row, BlocksColumn, numberItem(qlonglong(c.changedBlocks.size())));
        m_switches->setItem(row, SmpsColumn, numberItem(qlonglong(c.changedBlocks.size()) + (c.switchInfoSet ? 1 : 0)));
    }
    m_switches->setSortingEnabled(true);
    m_partitionsDiff->setPlainText(diff.partitionsDiff);
    m_summary->setText(summaryText());
    showPolicies();
}

const ReconfigurationDiff &DiffReview::diff() const
{
    static const ReconfigurationDiff none;
    return m_plan ? m_plan->review.diff : none;
}

QByteArray DiffReview::plannedPartitionsConf() const
{
    return m_plan ? m_plan->review.plannedPartitionsConf : QByteArray();
}

void DiffReview::clear()
{
    m_plan.reset();
    m_switches->setRowCount(0);
    m_partitionsDiff->clear();
    m_summary->setText(tr("Run a routing preview (or review a studio candidate) to see what it would change."));
    m_stale->hide();
    showPolicies();
}

void DiffReview::showPolicies()
{
    m_violations.clear();
    m_policies->setRowCount(0);
    const FabricSession *s = session();
    const std::shared_ptr<const PreviewResult> proposal = s && m_plan ? s->proposal() : nullptr;
    m_mode = m_plan && m_plan->commit.intent ? m_plan->commit.intent->mode : PolicyMode::BestEffort;
    if (proposal) {
        // The routing's SLs, as the planned partitions.conf carries them; the commit maps them to
        // VLs as planSlToVl does.
        const std::vector<PartitionIsolationReport> &reports = proposal->proposed.validation.partitions;
        std::map<std::uint16_t, int> levels;
        for (const auto &[pkey, sl] : m_plan->commit.serviceLevels)
            if (sl != 0)
                levels[std::uint16_t(pkey & kPKeyMask)] = sl;
        const Result<SlToVl> table = planSlToVl(levels);
        m_policies->setRowCount(int(reports.size()));
        for (std::size_t i = 0; i < reports.size(); ++i) {
            const PartitionIsolationReport &r = reports[i];
            const int row = int(i);
            const int vl = table ? (*table)[std::size_t(r.virtualLane)] : r.virtualLane;
            m_policies->setItem(row, PartitionColumn, new QTableWidgetItem(QStringLiteral("%1 (%2)").arg(r.name, pkeyText(r.pkey))));
            m_policies->setItem(row, PolicyColumn, new QTableWidgetItem(policyName(r.policy)));
            auto *met = new QTableWidgetItem(r.satisfied() ? tr("yes") : tr("no: %n violation(s)", nullptr, int(r.violationCount)));
            if (!r.satisfied())
                met->setToolTip(r.violations.join(QLatin1Char('\n')));
            m_policies->setItem(row, MetColumn, met);
            m_policies->setItem(row, SlColumn, numberItem(r.virtualLane));
            m_policies->setItem(row, VlColumn, numberItem(vl));
            for (const QString &v : r.violations)
                m_violations << QStringLiteral("partition %1 (%2): %3").arg(r.name, policyName(r.policy), v);
        }
    }
    m_acceptViolations->setChecked(false);
    m_acceptViolations->setVisible(!m_violations.isEmpty());
    m_acceptViolations->setEnabled(m_mode == PolicyMode::BestEffort);
    m_acceptViolations->setText(m_mode == PolicyMode::Strict
                                    ? tr("Strict mode: %n isolation violation(s) block the commit", nullptr, int(m_violations.size()))
                                    : tr("Accept %n isolation violation(s)", nullptr, int(m_violations.size())));
    m_acceptViolations->setToolTip(m_violations.join(QLatin1Char('\n')));
    updateApprove();
}

QString DiffReview::approveRefusal() const
{
    const FabricSession *s = session();
    if (!m_plan || !s)
        return tr("there is no plan to approve");
    if (const QString refusal = s->commitRefusal(); !refusal.isEmpty())
        return refusal;
    if (!m_violations.isEmpty() && m_mode == PolicyMode::Strict)
        return tr("strict mode: %n isolation violation(s) block the commit", nullptr, int(m_violations.size()));
    if (!m_violations.isEmpty() && !m_acceptViolations->isChecked())
        return tr("accept the %n isolation violation(s) first", nullptr, int(m_violations.size()));
    return {};
}

bool DiffReview::isApproveEnabled() const
{
    return m_approve->isEnabled();
}

bool DiffReview::isCommitting() const
{
    const FabricSession *s = session();
    return s && s->isCommitting();
}

void DiffReview::updateApprove()
{
    const FabricSession *s = session();
    const QString refusal = approveRefusal();
    const bool news = s && m_plan && (s->isProposalCommitted() || (m_plan->nothingToInstall && refusal == s->commitRefusal()));
    if (news && s->isProposalCommitted())
        m_stale->setText(tr("Installed: %1.").arg(s->staleReason()));
    else if (news)
        m_stale->setText(tr("Nothing to install: the fabric holds this plan's tables and partitions already; Approve sends nothing."));
    else
        m_stale->setText(tr("Approve refused: %1").arg(refusal));
    m_stale->setStyleSheet(news ? QString() : QStringLiteral("color: #b01c1c;"));
    m_stale->setVisible(m_plan && !refusal.isEmpty());
    m_approve->setEnabled(refusal.isEmpty());
    m_approve->setToolTip(refusal.isEmpty() ? tr("Install this plan: OpenSM reloads its files, Weft reads every table back and rolls back on a mismatch")
                                            : refusal);
}

QString DiffReview::summaryText() const
{
    if (!m_plan)
        return {};
    const ReconfigurationDiff &diff = m_plan->review.diff;
    const QLocale locale;
    QString text = tr("%n switch(es) change", nullptr, diff.switchesTouched()) + QStringLiteral(": ")
                   + tr("%1 LFT entries in %2 blocks, %3 P_Key blocks; OpenSM sends %4 SMPs.")
                         .arg(locale.toString(diff.changedEntries), locale.toString(diff.changedBlocks),
                              locale.toString(qulonglong(diff.pkeyBlocks.size())), locale.toString(diff.smps()));
    const FabricSession *s = session();
    const HeldTables &against = m_plan->against;
    if (!against.lfts) {
        text += QLatin1Char(' ') + tr("No current tables are known: every switch is counted as starting empty.");
    } else if (m_plan->fromTheFabric) {
        text += QLatin1Char(' ') + tr("Counted against the tables and P_Key tables %1.").arg(s ? s->currentTablesName() : QString());
        if (s && s->fabric())
            text += QLatin1Char(' ') + (against.smPort ? tr("OpenSM runs on %1.").arg(smPortText(*s->fabric(), against.smPort))
                                                       : tr("OpenSM's port was not found: the P_Key figures assume no port is SELF."));
    } else {
        text += QLatin1Char(' ') + tr("Counted against %1; the P_Key tables are assumed to be those OpenSM programs for the partitions as opened.")
                                       .arg(s ? s->currentTablesName() : QString());
    }
    if (!m_plan->commit.intentFile.isEmpty() && !m_plan->commit.summary.isEmpty())
        text += QLatin1Char('\n') + tr("Weft's engine inside OpenSM installs it from its intent: %1.").arg(m_plan->commit.summary);
    if (!m_plan->commit.whatIf.isEmpty())
        text += QLatin1Char('\n') + tr("Made for a what-if (%1): Approve installs it only as a pre-emptive plan, valid on the fabric as it is.").arg(m_plan->commit.whatIf);
    for (const QString &w : diff.warnings)
        text += QLatin1Char('\n') + w;
    return text;
}

QString DiffReview::partitionsDiffText() const
{
    return m_partitionsDiff->toPlainText();
}

void DiffReview::updateTargetLabel()
{
    const FabricSession *s = session();
    const CommitTarget target = s ? s->commitTarget() : configuredCommitTarget();
    const QString through = s ? s->adapterText() : tr("the first adapter");
    if (s && s->remoteTarget())
        m_target->setText(tr("Commit target: %1").arg(s->commitTargetText()));
    else if (s && s->subnetTarget())
        m_target->setText(tr("Commit target: %1, through %2").arg(s->commitTargetText(), through));
    else if (target.routingFile().isEmpty())
        m_target->setText(tr("No commit target: Approve writes the plan files."));
    else if (target.pluginMode())
        m_target->setText(tr("Commit target: Weft's engine inside OpenSM, intent %1 and %2, through %3")
                              .arg(QDir::toNativeSeparators(target.intentPath), QDir::toNativeSeparators(target.partitionsPath), through));
    else
        m_target->setText(tr("Commit target: %1 and %2, through %3")
                              .arg(QDir::toNativeSeparators(target.lftsPath), QDir::toNativeSeparators(target.partitionsPath), through));
}

bool DiffReview::writePlanFiles(const QString &directory, QString *error)
{
    if (!m_plan) {
        if (error)
            *error = tr("there is no plan to write");
        return false;
    }
    const FabricSession *s = session();
    const QDir dir(directory);
    const Status lfts = writeLftDumpFile(dir.filePath(QStringLiteral("plan.lfts")), m_plan->commit.tables, s ? s->fabric().get() : nullptr,
                                         LftDumpForm::Annotated);
    const Status partitions = lfts ? writeFileAtomically(dir.filePath(QStringLiteral("partitions.conf")), m_plan->review.plannedPartitionsConf) : lfts;
    if (!lfts || !partitions) {
        if (error)
            *error = (!lfts ? lfts : partitions).error().toString();
        return false;
    }
    showReport(tr("Plan written to %1: plan.lfts (load with opensm -R file -U) and partitions.conf.").arg(QDir::toNativeSeparators(directory)));
    Q_EMIT planWritten(directory);
    return true;
}

void DiffReview::showReport(const QString &text)
{
    m_report->setPlainText(text);
    m_rightTabs->setCurrentWidget(m_report);
}

void DiffReview::approve()
{
    FabricSession *s = session();
    if (!m_plan || !s || s->isCommitting())
        return;
    // A plan that no longer holds (stale, committed already) is never installed: said, not asked.
    if (const QString refusal = approveRefusal(); !refusal.isEmpty()) {
        showReport(tr("Approve refused: %1").arg(refusal));
        return;
    }
    const CommitTarget target = s->commitTarget();
    if (!s->hasCommitTarget()) {
        QSettings settings;
        const QString directory = QFileDialog::getExistingDirectory(this, tr("Write the Plan Files To"), settings.value(kPlanDirKey).toString());
        if (directory.isEmpty())
            return;
        settings.setValue(kPlanDirKey, directory);
        QString error;
        if (!writePlanFiles(directory, &error))
            QMessageBox::warning(this, tr("Cannot Write the Plan"), error);
        return;
    }
    // As `weft commit` does: no new commit while one that Weft did not live to finish is unrecovered.
    if (const std::optional<CommitJournalEntry> unfinished = s->unfinishedCommit()) {
        showReport(tr("Approve refused: %1\nRecover it first (Fabric > Recover Unfinished Commit…).").arg(unfinishedCommitText(*unfinished)));
        Q_EMIT unfinishedCommitFound(target, *unfinished);
        return;
    }
    const QString question = s->subnetTarget()
        ? tr("Install this plan on every SM of %1 now?\n\n%2\n\nThe SM that is master reloads its files, every other SM gets the same "
             "files; Weft reads the tables back and rolls every SM back on a mismatch.")
              .arg(s->commitTargetText(), summaryText())
        : tr("Install this plan on the fabric now?\n\n%1\n\nOpenSM reloads %2 and %3; Weft reads the tables back and rolls back on a mismatch.")
              .arg(summaryText(), target.routingFile(), target.partitionsPath);
    const bool accepted = !m_violations.isEmpty() && m_acceptViolations->isChecked();
    const QString acceptedText = accepted ? QStringLiteral("\n\n") + tr("You accept %n isolation violation(s):", nullptr, int(m_violations.size()))
            + QLatin1Char('\n') + m_violations.mid(0, 10).join(QLatin1Char('\n'))
                                          : QString();
    if (QMessageBox::question(this, tr("Approve the Plan"), question + acceptedText) != QMessageBox::Yes)
        return;
    m_report->clear();
    QString refusal;
    if (!s->commit(accepted, &refusal))
        showReport(tr("Approve refused: %1").arg(refusal));
    updateApprove();
}

void DiffReview::editCommitTarget()
{
    CommitTargetDialog dialog(session(), this);
    if (dialog.exec() == QDialog::Accepted)
        updateTargetLabel();
}

}  // namespace weft
