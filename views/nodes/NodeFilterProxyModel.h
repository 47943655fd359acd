#pragma once
// Sorting and searching over NodeTableModel. The search box keeps the nodes that NodeQuery
// matches: part of a description or node id, a GUID (whole or in part, with or without "0x"),
// or a LID ("lid 17" for exactly that LID; a bare number also matches the LID).

#include "NodeQuery.h"

#include <QSortFilterProxyModel>

namespace weft {

class NodeFilterProxyModel : public QSortFilterProxyModel
{
    Q_OBJECT

public:
    explicit NodeFilterProxyModel(QObject *parent = nullptr);

    QString searchText() const { return m_query.text(); }

public Q_SLOTS:
    void setSearchText(const QString &text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    NodeQuery m_query;
};

}  // namespace weft
