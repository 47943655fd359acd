#include "CommitJournalDialog.h"

#include "CommitDestination.h"
#include "CommitJournalModel.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QApplication>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace weft {

CommitJournalDialog::CommitJournalDialog(QWidget *parent)
    : QDialog(parent), m_model(new CommitJournalModel(this)), m_path(new QLabel(this)), m_table(new QTableView(this)),
      m_details(new QPlainTextEdit(this))
{
    setWindowTitle(tr("Commit Journal"));
    resize(900, 520);
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_details->setReadOnly(true);
    m_details->setPlaceholderText(tr("Select a commit to see its details."));
    m_path->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_table);
    splitter->addWidget(m_details);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_path);
    layout->addWidget(splitter);
    layout->addWidget(buttons);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &CommitJournalDialog::showDetails);
}

bool CommitJournalDialog::load(const QString &path, QString *error)
{
    Result<std::vector<CommitJournalEntry>> entries = readJournal(path);
    if (!entries) {
        if (error)
            *error = entries.error().toString();
        return false;
    }
    m_model->setEntries(std::move(entries).value());
    m_path->setText(tr("%1 · commits: %2").arg(path).arg(m_model->rowCount()));
    m_table->resizeColumnsToContents();
    if (m_model->rowCount() > 0)
        m_table->selectRow(0);
    return true;
}

void CommitJournalDialog::showDetails()
{
    const QModelIndex current = m_table->currentIndex();
    if (!current.isValid()) {
        m_details->clear();
        return;
    }
    const CommitJournalEntry &e = m_model->entry(current.row());
    if (e.isAdapt()) {
        m_details->setPlainText(tr("%1\nEvent: %2\n\n%3").arg(adaptPlanText(e), e.outcome, adaptDetailsText(e)));
        return;
    }
    QStringList lines;
    lines << tr("Plan: %1").arg(e.planSummary) << tr("OpenSM files: %1, %2").arg(e.lftsPath, e.partitionsPath);
    lines << QString() << e.details;
    m_details->setPlainText(lines.join(QLatin1Char('\n')));
}

std::optional<CommitJournalEntry> unfinishedCommitOn(const CommitTarget &target)
{
    const std::shared_ptr<const CommitDestination> destination = commitDestination(target);
    return destination ? destination->unfinished() : std::nullopt;
}

QString unfinishedCommitText(const CommitJournalEntry &entry)
{
    const QString state = entry.outcome == QLatin1String(kJournalWritten)
        ? CommitRecoveryDialog::tr("its files were written and never verified")
        : CommitRecoveryDialog::tr("it stopped while writing its files");
    return CommitRecoveryDialog::tr("A commit of %1 was started %2 by %3 and never finished: %4.")
        .arg(entry.planSummary, QLocale().toString(entry.time.toLocalTime(), QLocale::ShortFormat), entry.user, state);
}

CommitRecoveryDialog::CommitRecoveryDialog(const CommitTarget &target, const CommitJournalEntry &entry, BackendFactory backend,
                                           QWidget *parent)
    : CommitRecoveryDialog(
        tr("%1 and %2").arg(target.routingFile(), target.partitionsPath), entry,
        [destination = commitDestination(target), backend](CommitOptions options) {
            return destination->recover(backend(), std::move(options));
        },
        parent)
{
}

CommitRecoveryDialog::CommitRecoveryDialog(const QString &files, const CommitJournalEntry &entry, Recovery recovery, QWidget *parent)
    : QDialog(parent), m_recovery(std::move(recovery)), m_progress(new QPlainTextEdit(this)), m_buttons(new QDialogButtonBox(this))
{
    setWindowTitle(tr("Unfinished Commit"));
    resize(640, 360);
    auto *message = new QLabel(unfinishedCommitText(entry) + QStringLiteral("\n\n")
                                   + tr("OpenSM's files: %1. Until it is recovered, Approve is refused.\n\n"
                                        "Verify: OpenSM reloads the files the commit wrote and Weft reads the fabric back; if it "
                                        "holds that plan the commit is finished, else the backups go back and are verified.\n"
                                        "Roll back: the backups go back at once and are verified.")
                                         .arg(files),
                               this);
    message->setObjectName(QStringLiteral("unfinishedCommitMessage"));
    message->setWordWrap(true);
    message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_progress->setObjectName(QStringLiteral("recoveryProgress"));
    m_progress->setReadOnly(true);
    m_progress->setPlaceholderText(tr("The recovery's steps appear here."));
    m_recover = m_buttons->addButton(tr("&Verify the Fabric (Roll Back If It Does Not Hold)"), QDialogButtonBox::ActionRole);
    m_recover->setObjectName(QStringLiteral("recoverButton"));
    m_rollback = m_buttons->addButton(tr("&Roll Back to the Backups"), QDialogButtonBox::ActionRole);
    m_rollback->setObjectName(QStringLiteral("rollbackButton"));
    QPushButton *later = m_buttons->addButton(tr("&Leave It for Now"), QDialogButtonBox::RejectRole);
    later->setObjectName(QStringLiteral("laterButton"));
    connect(m_recover, &QPushButton::clicked, this, &CommitRecoveryDialog::recover);
    connect(m_rollback, &QPushButton::clicked, this, &CommitRecoveryDialog::rollBack);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(message);
    layout->addWidget(m_progress);
    layout->addWidget(m_buttons);
}

QString CommitRecoveryDialog::progressText() const
{
    return m_progress->toPlainText();
}

void CommitRecoveryDialog::recover()
{
    run(false);
}

void CommitRecoveryDialog::rollBack()
{
    run(true);
}

void CommitRecoveryDialog::run(bool byRollback)
{
    if (m_running)
        return;
    m_running = true;
    m_recover->setEnabled(false);
    m_rollback->setEnabled(false);
    m_progress->setPlainText(byRollback ? tr("Rolling back…") : tr("Recovering…"));
    QPointer<CommitRecoveryDialog> self(this);
    QtConcurrent::run([recovery = m_recovery, self, byRollback] {
        CommitOptions options;
        options.recoverByRollback = byRollback;
        options.recoveredBy = QStringLiteral("the desk");
        options.progress = [self](const QString &line) {
            QMetaObject::invokeMethod(
                qApp, [self, line] {
                    if (self && self->m_running)
                        self->m_progress->appendPlainText(line);
                },
                Qt::QueuedConnection);
        };
        return recovery(options);
    }).then(this, [this](const CommitReport &report) {
        m_running = false;
        m_progress->setPlainText(report.toText());
        // Refused: nothing was done, the commit is still unfinished and may be tried again.
        m_recover->setEnabled(report.outcome == CommitOutcome::Refused);
        m_rollback->setEnabled(report.outcome == CommitOutcome::Refused);
        if (auto *later = findChild<QPushButton *>(QStringLiteral("laterButton")))
            later->setText(tr("&Close"));
        Q_EMIT recovered(report);
    });
}

}  // namespace weft
