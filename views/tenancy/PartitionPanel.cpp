#include "PartitionPanel.h"

#include "PartitionTreeModel.h"
#include "TenantListModel.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSplitter>
#include <QTreeView>
#include <QUndoStack>
#include <QVBoxLayout>

#include <map>

namespace weft {

PartitionPanel::PartitionPanel(FabricDocument *document, QWidget *parent)
    : QWidget(parent),
      m_document(document),
      m_partitionModel(new PartitionTreeModel(document, this)),
      m_tenantModel(new TenantListModel(document, this)),
      m_partitionView(new QTreeView(this)),
      m_tenantView(new QTreeView(this)),
      m_dropMembership(new QComboBox(this)),
      m_message(new QLabel(this)),
      m_newButton(new QPushButton(tr("New…"), this)),
      m_renameButton(new QPushButton(tr("Rename…"), this)),
      m_deleteButton(new QPushButton(tr("Delete"), this)),
      m_fullButton(new QPushButton(tr("Full"), this)),
      m_limitedButton(new QPushButton(tr("Limited"), this)),
      m_removeButton(new QPushButton(tr("Remove"), this))
{
    m_partitionView->setObjectName(QStringLiteral("partitionTree"));
    m_partitionView->setModel(m_partitionModel);
    m_partitionView->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_partitionView->setDragDropMode(QAbstractItemView::DragDrop);
    // Between partitions a drag moves (Ctrl: adds); from the map or the tenants it adds.
    m_partitionView->setDefaultDropAction(Qt::MoveAction);
    m_partitionView->setDropIndicatorShown(true);
    m_partitionView->setContextMenuPolicy(Qt::CustomContextMenu);
    m_partitionView->header()->setSectionResizeMode(PartitionTreeModel::NameColumn, QHeaderView::Stretch);
    m_partitionView->header()->setSectionResizeMode(PartitionTreeModel::KeyColumn, QHeaderView::ResizeToContents);
    m_partitionView->header()->setSectionResizeMode(PartitionTreeModel::MembershipColumn, QHeaderView::ResizeToContents);
    m_partitionView->header()->setStretchLastSection(false);

    m_tenantView->setObjectName(QStringLiteral("tenantTree"));
    m_tenantView->setModel(m_tenantModel);
    m_tenantView->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_tenantView->setDragDropMode(QAbstractItemView::DragOnly);
    m_tenantView->setDefaultDropAction(Qt::CopyAction);
    m_tenantView->header()->setSectionResizeMode(TenantListModel::NameColumn, QHeaderView::Stretch);
    m_tenantView->header()->setSectionResizeMode(TenantListModel::DetailColumn, QHeaderView::ResizeToContents);
    m_tenantView->header()->setStretchLastSection(false);

    m_dropMembership->setObjectName(QStringLiteral("dropMembership"));
    m_dropMembership->addItem(tr("as full members"), int(Membership::Full));
    m_dropMembership->addItem(tr("as limited members"), int(Membership::Limited));
    m_dropMembership->setToolTip(tr("How hosts dropped on a partition become its members"));
    connect(m_dropMembership, &QComboBox::currentIndexChanged, this, [this] {
        m_partitionModel->setDropMembership(Membership(m_dropMembership->currentData().toInt()));
    });

    m_message->setObjectName(QStringLiteral("partitionMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_newButton->setToolTip(tr("Create a partition with a name and a P_Key"));
    m_fullButton->setToolTip(tr("Make the selected members full members"));
    m_limitedButton->setToolTip(tr("Make the selected members limited members"));
    m_removeButton->setToolTip(tr("Remove the selected members from their partition"));

    // Partitions' buttons on one row, members' on another: six in a row did not fit the dock's
    // width on a laptop, and the last ones scrolled out of view.
    auto *partitionButtons = new QHBoxLayout;
    for (QPushButton *b : {m_newButton, m_renameButton, m_deleteButton})
        partitionButtons->addWidget(b);
    partitionButtons->addStretch();
    auto *memberButtons = new QHBoxLayout;
    memberButtons->addWidget(new QLabel(tr("Members:"), this));
    for (QPushButton *b : {m_fullButton, m_limitedButton, m_removeButton})
        memberButtons->addWidget(b);
    memberButtons->addStretch();
    auto *buttons = new QVBoxLayout;
    buttons->addLayout(partitionButtons);
    buttons->addLayout(memberButtons);

    auto *dropRow = new QHBoxLayout;
    auto *dropHint = new QLabel(tr("Dropped hosts join"), this);
    dropHint->setToolTip(tr("Drag hosts or tenants onto a partition to add them; a member dragged onto another partition moves "
                            "there (with Ctrl it is added there too)"));
    dropRow->addWidget(dropHint);
    dropRow->addWidget(m_dropMembership, 1);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_partitionView);
    splitter->addWidget(m_tenantView);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(buttons);
    layout->addLayout(dropRow);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_message);

    connect(m_newButton, &QPushButton::clicked, this, &PartitionPanel::newPartitionDialog);
    connect(m_renameButton, &QPushButton::clicked, this, &PartitionPanel::renameDialog);
    connect(m_deleteButton, &QPushButton::clicked, this, &PartitionPanel::deleteSelectedPartitions);
    connect(m_fullButton, &QPushButton::clicked, this, [this] { setSelectedMembership(Membership::Full); });
    connect(m_limitedButton, &QPushButton::clicked, this, [this] { setSelectedMembership(Membership::Limited); });
    connect(m_removeButton, &QPushButton::clicked, this, &PartitionPanel::removeSelectedMembers);
    connect(m_partitionView, &QWidget::customContextMenuRequested, this, &PartitionPanel::showContextMenu);
    connect(m_partitionView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &PartitionPanel::updateActions);

    // A reset collapses the tree; remember the expanded partitions by P_Key, not by row,
    // since rows shift when partitions are created or deleted.
    connect(m_partitionModel, &QAbstractItemModel::modelAboutToBeReset, this, [this] {
        m_expanded.clear();
        for (int row = 0; row < m_partitionModel->rowCount(); ++row) {
            const QModelIndex i = m_partitionModel->index(row, 0);
            if (const auto key = m_partitionModel->pkeyAt(i); key && m_partitionView->isExpanded(i))
                m_expanded.insert(*key);
        }
    });
    connect(m_partitionModel, &QAbstractItemModel::modelReset, this, [this] {
        for (std::uint16_t key : m_expanded)
            m_partitionView->expand(m_partitionModel->indexOfPartition(key));
        updateActions();
    });
    // A job chosen in the tenants: its hosts and links on the map (the window's wiring). A reset
    // (the service's jobs read again) keeps the job chosen while it runs.
    connect(m_tenantView->selectionModel(), &QItemSelectionModel::selectionChanged, this, &PartitionPanel::tenantSelectionChanged);
    connect(m_tenantModel, &QAbstractItemModel::modelReset, this, [this] {
        if (m_chosenJob.isEmpty())
            return;
        const QModelIndex row = m_tenantModel->indexOfJob(m_chosenJob);
        if (row.isValid())
            m_tenantView->selectionModel()->select(row, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        else
            tenantSelectionChanged();
    });
    updateActions();
}

void PartitionPanel::setServiceJobs(const std::vector<JobTenant> &jobs)
{
    m_tenantModel->setJobs(jobs);
}

void PartitionPanel::tenantSelectionChanged()
{
    const QModelIndex current = m_tenantView->selectionModel()->currentIndex();
    QModelIndexList rows = m_tenantView->selectionModel()->selectedRows();
    if (current.isValid() && m_tenantView->selectionModel()->isSelected(current))
        rows.prepend(current.siblingAtColumn(0));
    const JobTenant *job = nullptr;
    for (const QModelIndex &i : rows)
        if ((job = m_tenantModel->jobAt(i)))
            break;
    if (!job) {
        if (m_chosenJob.isEmpty())
            return;
        m_chosenJob.clear();
        Q_EMIT jobChosen({}, {});
        return;
    }
    m_chosenJob = job->id;
    Q_EMIT jobChosen(job->id, job->ports);
}

QString PartitionPanel::message() const
{
    return m_message->text();
}

void PartitionPanel::showStatus(const Status &status)
{
    if (status.ok()) {
        m_message->clear();
        return;
    }
    m_message->setStyleSheet(QStringLiteral("color: #b00020;"));
    m_message->setText(status.error().toString());
}

std::optional<std::uint16_t> PartitionPanel::selectedPartition() const
{
    const QModelIndex current = m_partitionView->currentIndex();
    if (current.isValid() && m_partitionView->selectionModel()->isSelected(current))
        return m_partitionModel->pkeyAt(current);
    const QModelIndexList rows = m_partitionView->selectionModel()->selectedRows();
    return rows.isEmpty() ? std::nullopt : m_partitionModel->pkeyAt(rows.front());
}

void PartitionPanel::updateActions()
{
    bool anyMember = false;
    bool anyPartition = false;
    for (const QModelIndex &i : m_partitionView->selectionModel()->selectedRows()) {
        anyMember = anyMember || m_partitionModel->memberGuidAt(i).has_value();
        anyPartition = anyPartition || (m_partitionModel->isPartitionRow(i) && m_partitionModel->pkeyAt(i));
    }
    m_renameButton->setEnabled(anyPartition);
    m_deleteButton->setEnabled(anyPartition);
    m_fullButton->setEnabled(anyMember);
    m_limitedButton->setEnabled(anyMember);
    m_removeButton->setEnabled(anyMember);
}

Status PartitionPanel::createPartition(const QString &name, const QString &pkeyText)
{
    const Result<std::uint16_t> pkey = parsePKeyText(pkeyText);
    Status status = pkey ? m_document->createPartition(name, *pkey) : Status(pkey.error());
    showStatus(status);
    if (status) {
        const QModelIndex created = m_partitionModel->indexOfPartition(*pkey);
        m_partitionView->setCurrentIndex(created);
    }
    return status;
}

Status PartitionPanel::renameSelectedPartition(const QString &name)
{
    const auto pkey = selectedPartition();
    if (!pkey) {
        const Status none = Error{{}, 0, tr("Select the partition to rename.")};
        showStatus(none);
        return none;
    }
    const Status status = m_document->renamePartition(*pkey, name);
    showStatus(status);
    return status;
}

void PartitionPanel::deleteSelectedPartitions()
{
    std::set<std::uint16_t> keys;
    for (const QModelIndex &i : m_partitionView->selectionModel()->selectedRows())
        if (m_partitionModel->isPartitionRow(i))
            if (const auto key = m_partitionModel->pkeyAt(i))
                keys.insert(*key);
    // Several at once are several undo steps; a macro makes them one.
    if (keys.size() > 1)
        m_document->undoStack()->beginMacro(tr("Delete %n partition(s)", nullptr, int(keys.size())));
    for (std::uint16_t key : keys)
        m_document->deletePartition(key);
    if (keys.size() > 1)
        m_document->undoStack()->endMacro();
    m_message->clear();
}

namespace {
// The selected members, by partition.
std::map<std::uint16_t, std::vector<Guid>> selectedMembers(const QTreeView *view, const PartitionTreeModel *model)
{
    std::map<std::uint16_t, std::vector<Guid>> members;
    for (const QModelIndex &i : view->selectionModel()->selectedRows()) {
        const auto key = model->pkeyAt(i);
        const auto guid = model->memberGuidAt(i);
        if (key && guid)
            members[*key].push_back(*guid);
    }
    return members;
}
}  // namespace

void PartitionPanel::setSelectedMembership(Membership membership)
{
    const auto members = selectedMembers(m_partitionView, m_partitionModel);
    if (members.size() > 1)
        m_document->undoStack()->beginMacro(tr("Change membership in %n partition(s)", nullptr, int(members.size())));
    for (const auto &[key, guids] : members)
        m_document->assignPorts(guids, key, membership);
    if (members.size() > 1)
        m_document->undoStack()->endMacro();
}

void PartitionPanel::removeSelectedMembers()
{
    const auto members = selectedMembers(m_partitionView, m_partitionModel);
    if (members.size() > 1)
        m_document->undoStack()->beginMacro(tr("Remove hosts from %n partition(s)", nullptr, int(members.size())));
    for (const auto &[key, guids] : members)
        m_document->removePorts(guids, key);
    if (members.size() > 1)
        m_document->undoStack()->endMacro();
}

void PartitionPanel::newPartitionDialog()
{
    QDialog dialog(this);
    dialog.setWindowTitle(tr("New Partition"));
    auto *name = new QLineEdit(&dialog);
    auto *pkey = new QLineEdit(&dialog);
    pkey->setPlaceholderText(tr("e.g. 0x0012"));
    auto *error = new QLabel(&dialog);
    error->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    auto *form = new QFormLayout(&dialog);
    form->addRow(tr("Name:"), name);
    form->addRow(tr("P_Key:"), pkey);
    form->addRow(error);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    // The dialog stays open on a bad name or P_Key, showing why, so nothing typed is lost.
    connect(buttons, &QDialogButtonBox::accepted, &dialog, [&] {
        const Status status = createPartition(name->text(), pkey->text());
        if (status)
            dialog.accept();
        else
            error->setText(status.error().toString());
    });
    dialog.exec();
}

void PartitionPanel::renameDialog()
{
    const auto key = selectedPartition();
    const Partition *partition = key ? m_document->tenancy().findPartition(*key) : nullptr;
    if (!partition)
        return;
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Rename Partition"),
                                               tr("New name for partition %1:").arg(pkeyText(*key)),
                                               QLineEdit::Normal, partition->name, &ok);
    if (ok)
        renameSelectedPartition(name);
}

void PartitionPanel::showContextMenu(const QPoint &pos)
{
    updateActions();
    QMenu menu(this);
    menu.addAction(tr("New Partition…"), this, &PartitionPanel::newPartitionDialog);
    QAction *rename = menu.addAction(tr("Rename Partition…"), this, &PartitionPanel::renameDialog);
    QAction *remove = menu.addAction(tr("Delete Partition"), this, &PartitionPanel::deleteSelectedPartitions);
    menu.addSeparator();
    QAction *full = menu.addAction(tr("Make Full Members"), this, [this] { setSelectedMembership(Membership::Full); });
    QAction *limited =
        menu.addAction(tr("Make Limited Members"), this, [this] { setSelectedMembership(Membership::Limited); });
    QAction *removeMembers =
        menu.addAction(tr("Remove from Partition"), this, &PartitionPanel::removeSelectedMembers);
    rename->setEnabled(m_renameButton->isEnabled());
    remove->setEnabled(m_deleteButton->isEnabled());
    full->setEnabled(m_fullButton->isEnabled());
    limited->setEnabled(m_limitedButton->isEnabled());
    removeMembers->setEnabled(m_removeButton->isEnabled());
    menu.exec(m_partitionView->viewport()->mapToGlobal(pos));
}

}  // namespace weft
