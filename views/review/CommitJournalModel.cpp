#include "CommitJournalModel.h"

#include <QBrush>
#include <QColor>
#include <QJsonDocument>

#include <algorithm>

namespace weft {

QString adaptPlanText(const CommitJournalEntry &entry)
{
    const QString rule = entry.adapt.value(QStringLiteral("rule")).toString();
    return rule.isEmpty() ? CommitJournalModel::tr("Autopilot: %1").arg(entry.planSummary)
                          : CommitJournalModel::tr("Autopilot, rule %1: %2").arg(rule, entry.planSummary);
}

QString adaptDetailsText(const CommitJournalEntry &entry)
{
    return QString::fromUtf8(QJsonDocument(entry.adapt).toJson(QJsonDocument::Indented));
}

CommitJournalModel::CommitJournalModel(QObject *parent) : QAbstractTableModel(parent) {}

void CommitJournalModel::setEntries(std::vector<CommitJournalEntry> entries)
{
    beginResetModel();
    m_entries = std::move(entries);
    std::reverse(m_entries.begin(), m_entries.end());
    endResetModel();
}

const CommitJournalEntry &CommitJournalModel::entry(int row) const
{
    return m_entries[std::size_t(row)];
}

int CommitJournalModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int CommitJournalModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CommitJournalModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const CommitJournalEntry &e = m_entries[std::size_t(index.row())];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case TimeColumn: return e.time.toLocalTime().toString(Qt::ISODate).replace(QLatin1Char('T'), QLatin1Char(' '));
        case UserColumn: return e.user;
        case OutcomeColumn: return e.outcome;
        case SmpsColumn: return e.smps;
        case PlanColumn: return e.isAdapt() ? adaptPlanText(e) : e.planSummary;
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole)
        return e.isAdapt() ? adaptPlanText(e) : e.details.join(QLatin1Char('\n'));
    if (role == Qt::TextAlignmentRole && index.column() == SmpsColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && index.column() == OutcomeColumn) {
        // Green only for a verified commit; everything else wants the operator's eye.
        if (e.outcome == QLatin1String("committed"))
            return QBrush(QColor(0x1b, 0x7f, 0x3b));
        if (e.outcome == QLatin1String("rollback-failed"))
            return QBrush(QColor(0xb0, 0x1c, 0x1c));
        return QBrush(QColor(0x9a, 0x5b, 0x00));
    }
    return {};
}

QVariant CommitJournalModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn: return tr("Time");
    case UserColumn: return tr("User");
    case OutcomeColumn: return tr("Outcome");
    case SmpsColumn: return tr("SMPs");
    case PlanColumn: return tr("Plan");
    default: return {};
    }
}

}  // namespace weft
