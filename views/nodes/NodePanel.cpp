#include "NodePanel.h"

#include "FabricDocument.h"
#include "FabricSummary.h"
#include "NodeFilterProxyModel.h"
#include "NodeTableModel.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QTableView>
#include <QVBoxLayout>

namespace weft {

NodePanel::NodePanel(FabricDocument *document, QWidget *parent)
    : QWidget(parent), m_document(document), m_model(new NodeTableModel(this)), m_proxy(new NodeFilterProxyModel(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    m_filter = new QLineEdit(this);
    m_filter->setObjectName(QStringLiteral("nodeFilter"));
    m_filter->setPlaceholderText(tr("Find a node by name, GUID or LID (\"lid 17\")"));
    m_filter->setClearButtonEnabled(true);
    m_proxy->setSourceModel(m_model);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &NodeFilterProxyModel::setSearchText);
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("nodeTable"));
    m_table->setModel(m_proxy);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    // Fixed row heights let the view skip measuring thirteen thousand rows.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    QHeaderView *header = m_table->horizontalHeader();
    header->setSortIndicator(-1, Qt::AscendingOrder);  // discovery order until a column is clicked
    m_table->setSortingEnabled(true);
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setSectionResizeMode(NodeTableModel::DescriptionColumn, QHeaderView::Stretch);
    const int digit = fontMetrics().horizontalAdvance(QLatin1Char('0'));
    header->resizeSection(NodeTableModel::TypeColumn, digit * 9);
    header->resizeSection(NodeTableModel::GuidColumn, digit * 21);
    header->resizeSection(NodeTableModel::LidColumn, digit * 7);
    header->resizeSection(NodeTableModel::PortsColumn, digit * 6);
    header->resizeSection(NodeTableModel::TierColumn, digit * 6);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex &current) {
        if (m_showing || !current.isValid())
            return;
        Q_EMIT nodeChosen(m_model->nodeAt(m_proxy->mapToSource(current)));
    });
    layout->addWidget(m_filter);
    layout->addWidget(m_table);

    connect(m_document, &FabricDocument::changed, this, [this](DocumentChanges what) {
        if (!(what & DocumentChange::Fabric))
            return;
        const std::shared_ptr<const Fabric> fabric = m_document->fabric();
        if (fabric)
            m_model->setFabric(fabric, nodeTiers(*fabric));
        else
            m_model->clear();
    });
}

void NodePanel::showNode(NodeIndex node)
{
    if (m_showing)
        return;
    const QModelIndex index = m_proxy->mapFromSource(m_model->indexOf(node));
    if (!index.isValid())
        return;
    m_showing = true;
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(index);
    m_showing = false;
}

}  // namespace weft
