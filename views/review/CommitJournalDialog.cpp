#include "CommitJournalDialog.h"

#include "CommitJournalModel.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

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
    QStringList lines;
    lines << tr("Plan: %1").arg(e.planSummary) << tr("OpenSM files: %1, %2").arg(e.lftsPath, e.partitionsPath);
    lines << QString() << e.details;
    m_details->setPlainText(lines.join(QLatin1Char('\n')));
}

}  // namespace weft
