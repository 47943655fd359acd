#include "PolicyEditor.h"

#include "PolicyTableModel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

namespace weft {

namespace {

// A combo box of the three policies over the policy column's EditRole.
class PolicyDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QWidget *createEditor(QWidget *parent, const QStyleOptionViewItem &, const QModelIndex &) const override
    {
        auto *combo = new QComboBox(parent);
        for (auto policy : {IsolationPolicy::Default, IsolationPolicy::VirtualLane, IsolationPolicy::Physical})
            combo->addItem(PolicyTableModel::policyText(policy), int(policy));
        // Choosing is the edit: commit at once instead of waiting for focus to leave.
        connect(combo, &QComboBox::activated, this, [this, combo] {
            Q_EMIT const_cast<PolicyDelegate *>(this)->commitData(combo);
        });
        return combo;
    }
    void setEditorData(QWidget *editor, const QModelIndex &index) const override
    {
        auto *combo = static_cast<QComboBox *>(editor);
        combo->setCurrentIndex(combo->findData(index.data(Qt::EditRole).toInt()));
    }
    void setModelData(QWidget *editor, QAbstractItemModel *model, const QModelIndex &index) const override
    {
        model->setData(index, static_cast<QComboBox *>(editor)->currentData(), Qt::EditRole);
    }
};

}  // namespace

PolicyEditor::PolicyEditor(FabricDocument *document, QWidget *parent)
    : QWidget(parent),
      m_document(document),
      m_model(new PolicyTableModel(document, this)),
      m_view(new QTableView(this)),
      m_strict(new QCheckBox(tr("Strict: refuse to route when a partition's isolation cannot be met"), this))
{
    m_view->setObjectName(QStringLiteral("policyTable"));
    m_view->setModel(m_model);
    m_view->setItemDelegateForColumn(PolicyTableModel::PolicyColumn, new PolicyDelegate(m_view));
    m_view->setEditTriggers(QAbstractItemView::AllEditTriggers);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(PolicyTableModel::NameColumn, QHeaderView::Stretch);
    m_view->horizontalHeader()->setSectionResizeMode(PolicyTableModel::KeyColumn, QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setSectionResizeMode(PolicyTableModel::PolicyColumn, QHeaderView::ResizeToContents);

    m_strict->setObjectName(QStringLiteral("strictMode"));
    m_strict->setToolTip(tr("Unchecked (best effort): routing goes ahead and warns about each unmet policy"));
    connect(m_strict, &QCheckBox::toggled, this, [this](bool strict) {
        m_document->setPolicyMode(strict ? PolicyMode::Strict : PolicyMode::BestEffort);
    });

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_strict);

    connect(document, &FabricDocument::changed, this, [this](DocumentChanges what) {
        if (what & (DocumentChange::Fabric | DocumentChange::Policies))
            showMode();
    });
    showMode();
}

void PolicyEditor::showMode()
{
    // Showing the document's state is not an edit.
    const QSignalBlocker blocker(m_strict);
    m_strict->setChecked(m_document->tenancy().mode == PolicyMode::Strict);
}

}  // namespace weft
