#include "WeightTable.h"

#include "WeightTableModel.h"

#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

namespace weft {

namespace {

// Weights are positive; the default spin box (0 to 99.99, two decimals) would allow 0 and
// cut off measured weights.
class WeightDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QWidget *createEditor(QWidget *parent, const QStyleOptionViewItem &, const QModelIndex &) const override
    {
        auto *spin = new QDoubleSpinBox(parent);
        spin->setDecimals(3);
        spin->setRange(0.001, 1e6);
        spin->setFrame(false);
        return spin;
    }
    void setEditorData(QWidget *editor, const QModelIndex &index) const override
    {
        static_cast<QDoubleSpinBox *>(editor)->setValue(index.data(Qt::EditRole).toDouble());
    }
    void setModelData(QWidget *editor, QAbstractItemModel *model, const QModelIndex &index) const override
    {
        auto *spin = static_cast<QDoubleSpinBox *>(editor);
        spin->interpretText();
        model->setData(index, spin->value(), Qt::EditRole);
    }
};

}  // namespace

WeightTable::WeightTable(FabricDocument *document, QWidget *parent)
    : QWidget(parent),
      m_document(document),
      m_model(new WeightTableModel(document, this)),
      m_proxy(new QSortFilterProxyModel(this)),
      m_filter(new QLineEdit(this)),
      m_view(new QTableView(this)),
      m_message(new QLabel(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(Qt::EditRole);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);

    m_filter->setObjectName(QStringLiteral("weightFilter"));
    m_filter->setPlaceholderText(tr("Filter by host or GUID"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);

    auto *import = new QPushButton(tr("Import…"), this);
    import->setObjectName(QStringLiteral("importWeights"));
    import->setToolTip(tr("Read weights from a file of \"GUID-or-description weight\" lines"));
    connect(import, &QPushButton::clicked, this, &WeightTable::chooseAndImport);

    m_view->setObjectName(QStringLiteral("weightTable"));
    m_view->setModel(m_proxy);
    m_view->setItemDelegateForColumn(WeightTableModel::WeightColumn, new WeightDelegate(m_view));
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(-1, Qt::AscendingOrder);  // fabric order until the operator sorts
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed
                            | QAbstractItemView::AnyKeyPressed);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(WeightTableModel::PortColumn, QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setSectionResizeMode(WeightTableModel::DescriptionColumn, QHeaderView::Stretch);
    m_view->horizontalHeader()->setSectionResizeMode(WeightTableModel::WeightColumn, QHeaderView::ResizeToContents);

    m_message->setObjectName(QStringLiteral("weightMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setStyleSheet(QStringLiteral("color: #b00020;"));

    auto *top = new QHBoxLayout;
    top->addWidget(m_filter, 1);
    top->addWidget(import);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_message);
}

QString WeightTable::message() const
{
    return m_message->text();
}

Status WeightTable::importWeights(const QString &path)
{
    const Status status = m_document->importWeights(path);
    if (status)
        m_message->clear();
    else
        m_message->setText(status.error().toString());
    return status;
}

void WeightTable::chooseAndImport()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Import Node Weights"), QString(),
                                                      tr("Weight files (*.txt *.weights);;All files (*)"));
    if (!path.isEmpty())
        importWeights(path);
}

}  // namespace weft
