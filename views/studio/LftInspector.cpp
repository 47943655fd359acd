#include "LftInspector.h"

#include "FabricDocument.h"
#include "Identifiers.h"
#include "NodeQuery.h"
#include "FabricSession.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QFont>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace weft {

QString studioNodeName(const Node &node)
{
    return node.description.isEmpty() ? node.name : node.description;
}

ComparedTables comparedTables(const FabricDocument &document)
{
    const FabricSession *session = document.session();
    std::shared_ptr<const ForwardingTables> proposed;
    if (const std::shared_ptr<const PreviewResult> proposal = session->proposal())
        proposed = proposal->proposed.tables;
    return {document.fabric(), session->currentTables(), proposed ? proposed : session->currentTables()};
}

void followComparedTables(FabricDocument *document, QObject *receiver, std::function<void(const ComparedTables &)> show)
{
    if (!document)
        return;
    const auto follow = [document, show = std::move(show)](DocumentChanges what) {
        if (what & (DocumentChanges(DocumentChange::Fabric) | DocumentChange::CurrentTables | DocumentChange::Proposal))
            show(comparedTables(*document));
    };
    QObject::connect(document, &FabricDocument::changed, receiver, follow);
    follow(DocumentChange::Fabric);
}

LftTableModel::LftTableModel(QObject *parent)
    : QAbstractTableModel(parent) {}

QColor LftTableModel::changedColour()
{
    return QColor(0xff, 0xd5, 0x80);
}

QColor LftTableModel::sentBlockColour()
{
    return QColor(0xf0, 0x9a, 0x3e);
}

QColor LftTableModel::oddBlockColour()
{
    return QColor(0xee, 0xf1, 0xf5);
}

void LftTableModel::setSwitch(std::shared_ptr<const Fabric> fabric, NodeIndex node, const LinearForwardingTable *current,
                              const LinearForwardingTable *proposed, const SwitchLftChange *change)
{
    beginResetModel();
    m_fabric = std::move(fabric);
    m_node = m_fabric ? node : kNoIndex;
    m_current = current ? *current : LinearForwardingTable();
    m_proposed = proposed ? *proposed : LinearForwardingTable();
    m_changedBlocks = change ? change->changedBlocks : std::vector<int>();
    m_lastLid = m_fabric ? std::max({m_fabric->maxLid(), m_current.top(), m_proposed.top()}) : Lid(0);
    if (m_node == kNoIndex)
        m_lastLid = 0;
    m_blockSent.assign(std::size_t(m_lastLid / kLftBlockSize + 1), 0);
    for (int block : m_changedBlocks)
        if (block >= 0 && std::size_t(block) < m_blockSent.size())
            m_blockSent[std::size_t(block)] = 1;
    for (QString &text : m_neighbours)
        text.clear();
    if (m_node != kNoIndex) {
        const Fabric &f = *m_fabric;
        const Node &sw = f.node(m_node);
        m_neighbours[0] = tr("(this switch)");
        for (int p = 1; p < int(m_neighbours.size()); ++p) {
            const PortIndex port = p <= sw.portCount ? f.portOf(m_node, p) : kNoIndex;
            if (port == kNoIndex || f.port(port).remote == kNoIndex) {
                m_neighbours[std::size_t(p)] = tr("(no cable)");
                continue;
            }
            const Port &remote = f.port(f.port(port).remote);
            m_neighbours[std::size_t(p)] = tr("%1 [%2]").arg(studioNodeName(f.node(remote.node))).arg(remote.number);
        }
    }
    rebuildRows();
    endResetModel();
}

void LftTableModel::clear()
{
    setSwitch(nullptr, kNoIndex, nullptr, nullptr, nullptr);
}

void LftTableModel::setOnlyChangedBlocks(bool only)
{
    if (only == m_onlyChanged)
        return;
    beginResetModel();
    m_onlyChanged = only;
    rebuildRows();
    endResetModel();
}

void LftTableModel::rebuildRows()
{
    m_rows.clear();
    if (!m_onlyChanged)
        return;
    for (int block : m_changedBlocks)
        for (int i = 0; i < kLftBlockSize; ++i) {
            const int lid = block * kLftBlockSize + i;
            if (lid >= 1 && lid <= m_lastLid)
                m_rows.push_back(Lid(lid));
        }
}

bool LftTableModel::isBlockSent(int block) const
{
    return block >= 0 && std::size_t(block) < m_blockSent.size() && m_blockSent[std::size_t(block)];
}

Lid LftTableModel::lidAt(int row) const
{
    return m_onlyChanged ? m_rows[std::size_t(row)] : Lid(row + 1);
}

int LftTableModel::rowOfLid(Lid lid) const
{
    if (lid < 1 || lid > m_lastLid)
        return -1;
    if (!m_onlyChanged)
        return lid - 1;
    const auto it = std::lower_bound(m_rows.begin(), m_rows.end(), lid);
    return it != m_rows.end() && *it == lid ? int(it - m_rows.begin()) : -1;
}

int LftTableModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() || m_node == kNoIndex)
        return 0;
    return m_onlyChanged ? int(m_rows.size()) : int(m_lastLid);
}

int LftTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString LftTableModel::portText(std::uint8_t port) const
{
    return port == kNoRoute ? tr("none") : QString::number(port);
}

QString LftTableModel::neighbourText(std::uint8_t port) const
{
    return port == kNoRoute ? QString() : m_neighbours[port];
}

QString LftTableModel::destinationText(Lid lid) const
{
    const PortIndex port = m_fabric->portByLid(lid);
    if (port == kNoIndex)
        return tr("(no port has this LID)");
    const Port &p = m_fabric->port(port);
    const Node &node = m_fabric->node(p.node);
    if (node.type == NodeType::Switch)
        return studioNodeName(node);
    return tr("%1 [%2]").arg(studioNodeName(node)).arg(p.number);
}

QVariant LftTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Lid lid = lidAt(index.row());
    const int block = lid / kLftBlockSize;
    const bool changed = isChanged(lid);
    const int column = index.column();
    switch (role) {
    case LidRole:
        return int(lid);
    case ChangedRole:
        return changed;
    case BlockSentRole:
        return isBlockSent(block);
    case Qt::DisplayRole:
        switch (column) {
        case BlockColumn:
            return isBlockSent(block) ? tr("%1 (sent)").arg(block) : QString::number(block);
        case LidColumn:
            return int(lid);
        case DestinationColumn:
            return destinationText(lid);
        case CurrentPortColumn:
            return portText(m_current.port(lid));
        case CurrentNeighbourColumn:
            return neighbourText(m_current.port(lid));
        case ProposedPortColumn:
            return portText(m_proposed.port(lid));
        case ProposedNeighbourColumn:
            return neighbourText(m_proposed.port(lid));
        default:
            return {};
        }
    case Qt::BackgroundRole:
        if (column == BlockColumn && isBlockSent(block))
            return sentBlockColour();
        if (changed && column >= CurrentPortColumn)
            return changedColour();
        if (block % 2 == 1)
            return oddBlockColour();
        return {};
    case Qt::FontRole:
        if ((changed && column >= CurrentPortColumn) || (column == BlockColumn && lid % kLftBlockSize == 0)) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::TextAlignmentRole:
        if (column == LidColumn || column == CurrentPortColumn || column == ProposedPortColumn)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ToolTipRole:
        if (column == BlockColumn)
            return isBlockSent(block) ? tr("Block %1 (LIDs %2-%3) differs: the subnet manager sends it")
                                            .arg(block)
                                            .arg(block * kLftBlockSize)
                                            .arg(block * kLftBlockSize + kLftBlockSize - 1)
                                      : tr("Block %1 (LIDs %2-%3) is the same on both sides")
                                            .arg(block)
                                            .arg(block * kLftBlockSize)
                                            .arg(block * kLftBlockSize + kLftBlockSize - 1);
        if (changed)
            return tr("LID %1: port %2 now, port %3 proposed").arg(lid).arg(portText(m_current.port(lid)), portText(m_proposed.port(lid)));
        return {};
    default:
        return {};
    }
}

QVariant LftTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case BlockColumn:
        return tr("Block");
    case LidColumn:
        return tr("LID");
    case DestinationColumn:
        return tr("Destination");
    case CurrentPortColumn:
        return tr("Current port");
    case CurrentNeighbourColumn:
        return tr("Current neighbour");
    case ProposedPortColumn:
        return tr("Proposed port");
    case ProposedNeighbourColumn:
        return tr("Proposed neighbour");
    default:
        return {};
    }
}

LftInspector::LftInspector(QWidget *parent)
    : QWidget(parent), m_model(new LftTableModel(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);

    auto *controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Switch:"), this));
    m_switchBox = new QComboBox(this);
    m_switchBox->setObjectName(QStringLiteral("lftSwitch"));
    m_switchBox->setEditable(true);
    m_switchBox->setInsertPolicy(QComboBox::NoInsert);
    m_switchBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_switchBox->setMinimumContentsLength(24);
    m_switchBox->completer()->setFilterMode(Qt::MatchContains);
    m_switchBox->completer()->setCompletionMode(QCompleter::PopupCompletion);
    m_switchBox->lineEdit()->setPlaceholderText(tr("Switch name, GUID or LID"));
    m_switchBox->setToolTip(tr("Switches whose tables change are listed first, in bold"));
    controls->addWidget(m_switchBox, 1);
    m_onlyChanged = new QCheckBox(tr("Only changed blocks"), this);
    m_onlyChanged->setObjectName(QStringLiteral("lftOnlyChanged"));
    controls->addWidget(m_onlyChanged);
    controls->addWidget(new QLabel(tr("Go to LID:"), this));
    m_lidBox = new QLineEdit(this);
    m_lidBox->setObjectName(QStringLiteral("lftJumpLid"));
    m_lidBox->setPlaceholderText(tr("LID"));
    m_lidBox->setMaximumWidth(fontMetrics().horizontalAdvance(QLatin1Char('0')) * 10);
    controls->addWidget(m_lidBox);
    layout->addLayout(controls);

    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("lftSummary"));
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);

    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("lftTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    // Fixed row heights: the view never measures 49,152 rows.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
    QHeaderView *header = m_table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    const int digit = fontMetrics().horizontalAdvance(QLatin1Char('0'));
    header->resizeSection(LftTableModel::BlockColumn, digit * 12);
    header->resizeSection(LftTableModel::LidColumn, digit * 7);
    header->resizeSection(LftTableModel::CurrentPortColumn, digit * 13);
    header->resizeSection(LftTableModel::ProposedPortColumn, digit * 13);
    // The names share what is left (Stretch measures no row, unlike ResizeToContents).
    for (int column : {LftTableModel::DestinationColumn, LftTableModel::CurrentNeighbourColumn, LftTableModel::ProposedNeighbourColumn})
        header->setSectionResizeMode(column, QHeaderView::Stretch);
    layout->addWidget(m_table, 1);

    connect(m_switchBox, &QComboBox::activated, this, &LftInspector::showSwitchFromBox);
    connect(m_switchBox->lineEdit(), &QLineEdit::returnPressed, this, &LftInspector::findSwitch);
    connect(m_onlyChanged, &QCheckBox::toggled, this, [this](bool only) {
        m_model->setOnlyChangedBlocks(only);
        m_summary->setText(summaryText());
    });
    connect(m_lidBox, &QLineEdit::returnPressed, this, &LftInspector::jumpToTypedLid);
    m_summary->setText(summaryText());
}

void LftInspector::setDocument(FabricDocument *document)
{
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    m_document = document;
    followComparedTables(document, this, [this](const ComparedTables &t) { setTables(t.fabric, t.current, t.proposed); });
}

void LftInspector::setTables(std::shared_ptr<const Fabric> fabric, std::shared_ptr<const ForwardingTables> current,
                             std::shared_ptr<const ForwardingTables> proposed)
{
    const Guid shown = m_fabric && currentSwitch() != kNoIndex ? m_fabric->node(currentSwitch()).guid : Guid(0);
    m_fabric = std::move(fabric);
    m_current = std::move(current);
    m_proposed = std::move(proposed);
    m_diff = {};
    m_changeOf.clear();
    if (m_fabric) {
        static const ForwardingTables none;
        m_diff = diffForwardingTables(m_current ? *m_current : none, m_proposed ? *m_proposed : none, m_fabric.get());
        for (std::size_t i = 0; i < m_diff.switches.size(); ++i)
            m_changeOf.emplace(m_diff.switches[i].guid, i);
    }
    fillSwitchBox();
    // The same switch as before if the fabric still has it, else the first that changes.
    NodeIndex node = m_fabric && shown ? m_fabric->nodeByGuid(shown) : kNoIndex;
    if (node == kNoIndex && m_fabric && !m_diff.switches.empty())
        node = m_fabric->nodeByGuid(m_diff.switches.front().guid);
    if (node == kNoIndex && m_fabric && !m_fabric->switches().empty())
        node = m_fabric->switches().front();
    if (!showSwitch(node)) {
        m_model->clear();
        m_summary->setText(summaryText());
    }
}

void LftInspector::fillSwitchBox()
{
    QSignalBlocker blocker(m_switchBox);
    m_switchBox->clear();
    if (!m_fabric)
        return;
    std::vector<NodeIndex> switches = m_fabric->switches();
    const auto changed = [this](NodeIndex n) { return m_changeOf.count(m_fabric->node(n).guid) > 0; };
    std::stable_sort(switches.begin(), switches.end(), [&](NodeIndex a, NodeIndex b) { return changed(a) > changed(b); });
    QFont bold = m_switchBox->font();
    bold.setBold(true);
    for (NodeIndex n : switches) {
        m_switchBox->addItem(studioNodeName(m_fabric->node(n)), n);
        if (changed(n))
            m_switchBox->setItemData(m_switchBox->count() - 1, bold, Qt::FontRole);
    }
}

bool LftInspector::showSwitch(NodeIndex node)
{
    if (!m_fabric || node < 0 || std::size_t(node) >= m_fabric->nodes().size()
        || m_fabric->node(node).type != NodeType::Switch)
        return false;
    const Guid guid = m_fabric->node(node).guid;
    const SwitchForwardingTable *current = m_current ? m_current->find(guid) : nullptr;
    const SwitchForwardingTable *proposed = m_proposed ? m_proposed->find(guid) : nullptr;
    const auto change = m_changeOf.find(guid);
    m_model->setSwitch(m_fabric, node, current ? &current->lft : nullptr, proposed ? &proposed->lft : nullptr,
                       change == m_changeOf.end() ? nullptr : &m_diff.switches[change->second]);
    {
        QSignalBlocker blocker(m_switchBox);
        m_switchBox->setCurrentIndex(m_switchBox->findData(node));
    }
    m_summary->setText(summaryText());
    // The first changed entry in view, if any.
    if (!m_model->changedBlocks().empty()) {
        const std::vector<Lid> lids = highlightedLids();
        if (!lids.empty())
            m_table->scrollTo(m_model->index(std::max(0, m_model->rowOfLid(lids.front())), 0), QAbstractItemView::PositionAtTop);
    } else {
        m_table->scrollToTop();
    }
    return true;
}

bool LftInspector::showSwitch(Guid guid)
{
    return m_fabric && showSwitch(m_fabric->nodeByGuid(guid));
}

void LftInspector::showSwitchFromBox()
{
    const QVariant node = m_switchBox->currentData();
    if (node.isValid() && m_switchBox->currentText() == m_switchBox->itemText(m_switchBox->currentIndex()))
        showSwitch(NodeIndex(node.toInt()));
    else
        findSwitch();
}

void LftInspector::findSwitch()
{
    if (!m_fabric)
        return;
    const NodeQuery query(m_switchBox->currentText());
    const NodeIndex node = query.find(*m_fabric);
    if (!showSwitch(node))
        m_summary->setText(tr("No switch matches \"%1\".").arg(query.text()));
}

bool LftInspector::jumpToLid(Lid lid)
{
    if (m_model->switchNode() == kNoIndex)
        return false;
    if (m_model->rowOfLid(lid) < 0 && m_model->onlyChangedBlocks())
        setOnlyChangedBlocks(false);
    const int row = m_model->rowOfLid(lid);
    if (row < 0)
        return false;
    const QModelIndex index = m_model->index(row, LftTableModel::LidColumn);
    m_table->scrollTo(index, QAbstractItemView::PositionAtCenter);
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    return true;
}

void LftInspector::jumpToTypedLid()
{
    bool ok = false;
    const QString text = m_lidBox->text().trimmed();
    const uint lid = text.toUInt(&ok, 0);
    if (!ok || lid > 0xFFFF || !jumpToLid(Lid(lid)))
        m_summary->setText(tr("LID %1 is not in this table.").arg(text));
}

void LftInspector::setOnlyChangedBlocks(bool only)
{
    m_onlyChanged->setChecked(only);  // the checkbox tells the model
}

std::vector<int> LftInspector::highlightedBlocks() const
{
    // What the model marks, block by block over the whole table (whatever the filter).
    std::vector<int> blocks;
    for (int block = 0; block < m_model->blockCount(); ++block)
        if (m_model->isBlockSent(block))
            blocks.push_back(block);
    return blocks;
}

std::vector<Lid> LftInspector::highlightedLids() const
{
    std::vector<Lid> lids;
    if (m_model->switchNode() == kNoIndex)
        return lids;
    for (int lid = 1; lid <= m_model->lastLid(); ++lid)
        if (m_model->isChanged(Lid(lid)))
            lids.push_back(Lid(lid));
    return lids;
}

QString LftInspector::summaryText() const
{
    const NodeIndex node = m_model->switchNode();
    if (!m_fabric || node == kNoIndex)
        return tr("Open a fabric to inspect its switches' forwarding tables.");
    const Node &sw = m_fabric->node(node);
    const auto change = m_changeOf.find(sw.guid);
    const QString name = tr("%1 (GUID %2, LID %3)").arg(studioNodeName(sw), guidText(sw.guid)).arg(m_fabric->nodeLid(node));
    if (change == m_changeOf.end())
        return tr("%1: the proposed table is the same as the current one.").arg(name);
    const SwitchLftChange &c = m_diff.switches[change->second];
    QStringList blocks;
    for (int b : c.changedBlocks)
        blocks << QString::number(b);
    return tr("%1: %n entries change; OpenSM sends %2 LFT block(s) of 64 entries (block number %3).", nullptr, c.changedEntries)
        .arg(name)
        .arg(c.changedBlocks.size())
        .arg(blocks.join(QStringLiteral(", ")));
}

}  // namespace weft
