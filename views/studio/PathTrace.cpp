#include "PathTrace.h"

#include "FabricDocument.h"
#include "LftInspector.h"
#include "NodeQuery.h"
#include "FabricSession.h"

#include <QComboBox>
#include <QCompleter>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace weft {

QColor PathTrace::differenceColour()
{
    return QColor(0xff, 0xd5, 0x80);  // as the LFT inspector's changed entries
}

PathTrace::PathTrace(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);

    const auto hostBox = [this](const QString &name) {
        auto *box = new QComboBox(this);
        box->setObjectName(name);
        box->setEditable(true);
        box->setInsertPolicy(QComboBox::NoInsert);
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(18);
        box->completer()->setFilterMode(Qt::MatchContains);
        box->completer()->setCompletionMode(QCompleter::PopupCompletion);
        box->lineEdit()->setPlaceholderText(tr("Host name, GUID or LID"));
        connect(box, &QComboBox::activated, this, &PathTrace::traceFromBoxes);
        connect(box->lineEdit(), &QLineEdit::returnPressed, this, &PathTrace::traceFromBoxes);
        return box;
    };
    auto *controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("From:"), this));
    m_fromBox = hostBox(QStringLiteral("traceFrom"));
    controls->addWidget(m_fromBox, 1);
    controls->addWidget(new QLabel(tr("To:"), this));
    m_toBox = hostBox(QStringLiteral("traceTo"));
    controls->addWidget(m_toBox, 1);
    auto *show = new QPushButton(tr("Show on map"), this);
    show->setObjectName(QStringLiteral("traceShowOnMap"));
    show->setToolTip(tr("Highlight both routes on the map: current solid, proposed dashed"));
    connect(show, &QPushButton::clicked, this, &PathTrace::showOnMap);
    controls->addWidget(show);
    layout->addLayout(controls);
    auto *hint = new QLabel(tr("Or select two hosts on the map."), this);
    hint->setEnabled(false);
    layout->addWidget(hint);

    auto *sides = new QGridLayout;
    const auto hopTable = [this](const QString &name) {
        auto *table = new QTableWidget(0, ColumnCount, this);
        table->setObjectName(name);
        table->setHorizontalHeaderLabels({tr("Hop"), tr("Node"), tr("In port"), tr("Out port"), tr("Leads to"), tr("LID's block")});
        table->verticalHeader()->hide();
        table->setEditTriggers(QAbstractItemView::NoEditTriggers);
        table->setSelectionBehavior(QAbstractItemView::SelectRows);
        table->setWordWrap(false);
        table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
        table->horizontalHeader()->setSectionResizeMode(NodeColumn, QHeaderView::Stretch);
        table->horizontalHeader()->setSectionResizeMode(NextColumn, QHeaderView::Stretch);
        table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
        return table;
    };
    m_currentLabel = new QLabel(this);
    m_currentLabel->setObjectName(QStringLiteral("traceCurrentSummary"));
    m_currentLabel->setWordWrap(true);
    m_proposedLabel = new QLabel(this);
    m_proposedLabel->setObjectName(QStringLiteral("traceProposedSummary"));
    m_proposedLabel->setWordWrap(true);
    m_currentTable = hopTable(QStringLiteral("traceCurrent"));
    m_proposedTable = hopTable(QStringLiteral("traceProposed"));
    sides->addWidget(m_currentLabel, 0, 0);
    sides->addWidget(m_proposedLabel, 0, 1);
    sides->addWidget(m_currentTable, 1, 0);
    sides->addWidget(m_proposedTable, 1, 1);
    sides->setRowStretch(1, 1);
    layout->addLayout(sides, 1);
    retrace();
}

void PathTrace::setDocument(FabricDocument *document)
{
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    m_document = document;
    followComparedTables(document, this, [this](const ComparedTables &t) { setTables(t.fabric, t.current, t.proposed); });
}

void PathTrace::setTables(std::shared_ptr<const Fabric> fabric, std::shared_ptr<const ForwardingTables> current,
                          std::shared_ptr<const ForwardingTables> proposed)
{
    const bool sameFabric = fabric == m_fabric;
    m_fabric = std::move(fabric);
    m_current = std::move(current);
    m_proposed = std::move(proposed);
    if (!sameFabric) {
        m_from = m_to = kNoIndex;
        fillHostBoxes();
    }
    retrace();
}

void PathTrace::fillHostBoxes()
{
    for (QComboBox *box : {m_fromBox, m_toBox}) {
        QSignalBlocker blocker(box);
        box->clear();
        if (!m_fabric)
            continue;
        for (NodeIndex n : m_fabric->endNodes())
            box->addItem(studioNodeName(m_fabric->node(n)), n);
        box->setCurrentIndex(-1);
    }
}

NodeIndex PathTrace::hostIn(QComboBox *box) const
{
    if (!m_fabric)
        return kNoIndex;
    const int index = box->findText(box->currentText());
    if (index >= 0)
        return NodeIndex(box->itemData(index).toInt());
    return NodeQuery(box->currentText()).find(*m_fabric);
}

void PathTrace::traceFromBoxes()
{
    const NodeIndex from = hostIn(m_fromBox);
    const NodeIndex to = hostIn(m_toBox);
    if (from != kNoIndex && to != kNoIndex && trace(from, to))
        showOnMap();
}

void PathTrace::showOnMap()
{
    if (m_from != kNoIndex && m_to != kNoIndex)
        Q_EMIT traced(m_from, m_to, m_currentPath.outPorts(), m_proposedPath.outPorts());
}

void PathTrace::setSelectedNodes(const std::vector<NodeIndex> &nodes)
{
    // The pair traced already (the map selecting what a trace chose) is left as it is.
    if (nodes.size() == 2 && !(std::minmax(nodes[0], nodes[1]) == std::minmax(m_from, m_to)))
        trace(nodes[0], nodes[1]);
}

bool PathTrace::trace(NodeIndex from, NodeIndex to)
{
    const auto isHost = [this](NodeIndex n) {
        return m_fabric && n >= 0 && std::size_t(n) < m_fabric->nodes().size() && m_fabric->node(n).type != NodeType::Switch;
    };
    if (!isHost(from) || !isHost(to) || from == to)
        return false;
    m_from = from;
    m_to = to;
    for (auto [box, node] : {std::pair{m_fromBox, from}, std::pair{m_toBox, to}}) {
        QSignalBlocker blocker(box);
        box->setCurrentIndex(box->findData(node));
    }
    retrace();
    return true;
}

void PathTrace::retrace()
{
    static const ForwardingTables none;
    m_currentPath = {};
    m_proposedPath = {};
    if (m_fabric && m_from != kNoIndex && m_to != kNoIndex) {
        m_currentPath = traceHostRoute(*m_fabric, m_current ? *m_current : none, m_from, m_to);
        m_proposedPath = traceHostRoute(*m_fabric, m_proposed ? *m_proposed : none, m_from, m_to);
    }
    fillTable(m_currentTable, m_currentPath, m_proposedPath);
    fillTable(m_proposedTable, m_proposedPath, m_currentPath);
    const bool traced = m_fabric && m_from != kNoIndex;
    m_currentLabel->setText(traced ? tr("Current: %1").arg(endText(m_currentPath)) : tr("Current"));
    m_proposedLabel->setText(traced ? tr("Proposed: %1").arg(endText(m_proposedPath)) : tr("Proposed"));
}

std::vector<int> PathTrace::differingHops() const
{
    std::vector<int> hops;
    const std::size_t n = std::max(m_currentPath.hops.size(), m_proposedPath.hops.size());
    for (std::size_t i = 0; i < n; ++i) {
        const bool same = i < m_currentPath.hops.size() && i < m_proposedPath.hops.size()
            && m_currentPath.hops[i].from == m_proposedPath.hops[i].from
            && m_currentPath.hops[i].out == m_proposedPath.hops[i].out;
        if (!same)
            hops.push_back(int(i));
    }
    return hops;
}

void PathTrace::fillTable(QTableWidget *table, const TracedPath &path, const TracedPath &other)
{
    table->setRowCount(int(path.hops.size()));
    if (!m_fabric)
        return;
    const Fabric &f = *m_fabric;
    const auto item = [](const QString &text, bool differs) {
        auto *cell = new QTableWidgetItem(text);
        if (differs)
            cell->setBackground(differenceColour());
        return cell;
    };
    for (std::size_t i = 0; i < path.hops.size(); ++i) {
        const RouteHop &hop = path.hops[i];
        const bool differs = i >= other.hops.size() || other.hops[i].from != hop.from || other.hops[i].out != hop.out;
        const int row = int(i);
        const bool atSwitch = f.node(hop.from).type == NodeType::Switch;
        const QString inPort = i == 0 ? QStringLiteral("-") : QString::number(f.port(path.hops[i - 1].remote).number);
        const Port &remote = f.port(hop.remote);
        table->setItem(row, HopColumn, item(QString::number(i + 1), differs));
        table->setItem(row, NodeColumn, item(studioNodeName(f.node(hop.from)), differs));
        table->setItem(row, InPortColumn, item(inPort, differs));
        table->setItem(row, OutPortColumn, item(QString::number(f.port(hop.out).number), differs));
        table->setItem(row, NextColumn, item(tr("%1 [%2]").arg(studioNodeName(f.node(remote.node))).arg(remote.number), differs));
        // The entry a switch forwards by is in block lid/64 of its table; a host has no table.
        table->setItem(row, BlockColumn, item(atSwitch ? QString::number(path.lid / kLftBlockSize) : QStringLiteral("-"), differs));
    }
}

QString PathTrace::endText(const TracedPath &path) const
{
    if (path.arrived)
        return tr("arrives in %n hop(s)", nullptr, int(path.hops.size()));
    const QString at = path.hops.empty() ? QString() : studioNodeName(m_fabric->node(path.hops.back().next));
    switch (path.end) {
    case RouteEnd::AtEndNode:
        return tr("reaches the wrong node, %1").arg(at);
    case RouteEnd::AtSwitch:
        return tr("ends at switch %1 (its entry is port 0)").arg(at);
    case RouteEnd::NoTable:
        return tr("switch %1 has no table").arg(at);
    case RouteEnd::NoRoute:
        return at.isEmpty() ? tr("no route") : tr("switch %1 has no route to LID %2").arg(at).arg(path.lid);
    case RouteEnd::DeadPort:
        return at.isEmpty() ? tr("the host has no cabled port or no LID") : tr("switch %1 forwards to a port without a cable").arg(at);
    case RouteEnd::Loop:
        return tr("loops");
    case RouteEnd::Stopped:
        break;
    }
    return {};
}

}  // namespace weft
