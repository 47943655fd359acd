#include "FabricChangesPanel.h"

#include "FabricDocument.h"
#include "FabricSession.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace weft {

namespace {

constexpr int kGuidsRole = Qt::UserRole;  // QVariantList of the row's node GUIDs (qulonglong)

}  // namespace

FabricChangesPanel::FabricChangesPanel(FabricDocument *document, QWidget *parent)
    : QWidget(parent), m_document(document)
{
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("fabricChangesSummary"));
    m_summary->setWordWrap(true);
    m_tree = new QTreeWidget(this);
    m_tree->setObjectName(QStringLiteral("fabricChangesTree"));
    m_tree->setHeaderHidden(true);
    m_tree->setUniformRowHeights(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_summary);
    layout->addWidget(m_tree);
    connect(m_tree, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *item) {
        if (!item)
            return;
        std::vector<Guid> nodes;
        for (const QVariant &guid : item->data(0, kGuidsRole).toList())
            nodes.push_back(guid.toULongLong());
        if (!nodes.empty())
            Q_EMIT nodesChosen(nodes);
    });
    connect(m_document, &FabricDocument::changed, this, [this](DocumentChanges what) {
        if (what & DocumentChange::LiveChanges)
            fill();
    });
    fill();
}

int FabricChangesPanel::changeCount() const
{
    int rows = 0;
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i)
        rows += m_tree->topLevelItem(i)->childCount();
    return rows;
}

void FabricChangesPanel::fill()
{
    m_tree->clear();
    const FabricChanges &changes = m_document->session()->liveChanges();
    const std::shared_ptr<const Fabric> fabric = m_document->fabric();
    const auto known = [&fabric](Guid guid) { return fabric && fabric->nodeByGuid(guid) != kNoIndex; };
    const auto section = [&](const QString &title, const QStringList &rows, auto guidsOf) {
        if (rows.isEmpty())
            return;
        auto *top = new QTreeWidgetItem(m_tree, {title.arg(rows.size())});
        for (int i = 0; i < rows.size(); ++i) {
            auto *item = new QTreeWidgetItem(top, {rows.at(i)});
            QVariantList guids;
            for (Guid guid : guidsOf(std::size_t(i)))
                if (known(guid))
                    guids << QVariant::fromValue(qulonglong(guid));
            item->setData(0, kGuidsRole, guids);
        }
    };
    const auto linkEnds = [](const std::vector<FabricChanges::LinkEnds> &ends) {
        return [&ends](std::size_t i) { return std::vector<Guid>{ends[i].nodeA, ends[i].nodeB}; };
    };
    const auto nodes = [](const std::vector<Guid> &guids) {
        return [&guids](std::size_t i) { return std::vector<Guid>{guids[i]}; };
    };
    section(tr("Links gone (%1)"), changes.linksGone, linkEnds(changes.linksGoneEnds));
    section(tr("New links (%1)"), changes.linksNew, linkEnds(changes.linksNewEnds));
    section(tr("Nodes gone (%1)"), changes.nodesGone, nodes(changes.nodesGoneGuids));
    section(tr("New nodes (%1)"), changes.nodesNew, nodes(changes.nodesNewGuids));
    section(tr("LIDs moved (%1)"), changes.lidsChanged, nodes(changes.lidsChangedGuids));
    m_tree->expandAll();
    m_summary->setText(changes.empty() ? tr("Fabric > Rediscover lists here what changed in the live fabric since it was discovered.")
                                       : tr("The live fabric changed since it was discovered; the map marks the cables. "
                                            "Open proposals are stale: discover again to plan on the fabric as it is."));
}

}  // namespace weft
