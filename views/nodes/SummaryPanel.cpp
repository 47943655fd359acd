#include "SummaryPanel.h"

#include "FabricDocument.h"

#include <QHeaderView>
#include <QLocale>

namespace weft {

namespace {

QTreeWidgetItem *addSummaryRow(QTreeWidget *tree, QTreeWidgetItem *parent, const QString &key, const QString &label,
                               const QString &value)
{
    auto *item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(tree);
    item->setText(0, label);
    item->setText(1, value);
    item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
    item->setData(0, SummaryPanel::kKeyRole, key);
    return item;
}

}  // namespace

SummaryPanel::SummaryPanel(FabricDocument *document, QWidget *parent)
    : QTreeWidget(parent), m_document(document)
{
    setObjectName(QStringLiteral("summaryTree"));
    setColumnCount(2);
    setHeaderLabels({tr("Fabric"), tr("Count")});
    setRootIsDecorated(true);
    setUniformRowHeights(true);
    header()->setStretchLastSection(false);
    header()->setSectionResizeMode(0, QHeaderView::Stretch);
    header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    connect(m_document, &FabricDocument::changed, this, [this](DocumentChanges what) {
        if (what & DocumentChange::Fabric)
            fill();
    });
}

void SummaryPanel::fill()
{
    m_summary = m_document->fabric() ? summarize(*m_document->fabric()) : FabricSummary{};

    const QLocale locale;
    const auto number = [&locale](std::size_t n) { return locale.toString(qulonglong(n)); };
    const FabricSummary &s = m_summary;
    this->clear();
    addSummaryRow(this, nullptr, QStringLiteral("switches"), tr("Switches"), number(s.switches));
    addSummaryRow(this, nullptr, QStringLiteral("hosts"), tr("Hosts (channel adapters)"), number(s.channelAdapters));
    if (s.routers > 0)
        addSummaryRow(this, nullptr, QStringLiteral("routers"), tr("Routers"), number(s.routers));
    QTreeWidgetItem *cables = addSummaryRow(this, nullptr, QStringLiteral("cables"), tr("Cables"), number(s.links));
    addSummaryRow(this, cables, QStringLiteral("switchCables"), tr("Between switches"), number(s.switchLinks));
    addSummaryRow(this, cables, QStringLiteral("endNodeCables"), tr("To hosts and routers"), number(s.endNodeLinks));
    QTreeWidgetItem *tiers = addSummaryRow(this, nullptr, QStringLiteral("tiers"), tr("Switch tiers"), number(std::size_t(s.tiers)));
    for (int t = s.tiers; t >= 1; --t) {
        QString name;
        if (t == 1)
            name = tr("Tier 1 (leaves)");
        else if (t == s.tiers)
            name = tr("Tier %1 (roots)").arg(t);
        else
            name = tr("Tier %1").arg(t);
        addSummaryRow(this, tiers, QStringLiteral("tier%1").arg(t), name, number(s.switchesPerTier[std::size_t(t - 1)]));
    }
    if (s.isolatedSwitches > 0)
        addSummaryRow(this, nullptr, QStringLiteral("isolated"), tr("Switches with no path to a host"), number(s.isolatedSwitches));
    const QString lids = s.lidsAssigned == 0 ? tr("none assigned")
                                             : tr("%1–%2").arg(s.minLid).arg(s.maxLid);
    QTreeWidgetItem *lidRow = addSummaryRow(this, nullptr, QStringLiteral("lidRange"), tr("LID range"), lids);
    addSummaryRow(this, lidRow, QStringLiteral("lidsAssigned"), tr("LIDs assigned"), number(s.lidsAssigned));
    this->expandAll();
}


}  // namespace weft
