#pragma once
// Sorting and searching over NodeTableModel. One search box finds a node by what an operator
// has at hand: part of its description or node id, its GUID (whole or in part, with or without
// "0x"), or its LID ("lid 17" for exactly that LID; a bare number also matches the LID).

#include <QSortFilterProxyModel>

#include <cstdint>
#include <optional>

namespace weft {

class NodeFilterProxyModel : public QSortFilterProxyModel
{
    Q_OBJECT

public:
    explicit NodeFilterProxyModel(QObject *parent = nullptr);

    QString searchText() const { return m_text; }

public Q_SLOTS:
    void setSearchText(const QString &text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QString m_text;                    // trimmed, as typed
    QString m_hexDigits;               // the text as GUID digits, if it can be a GUID fragment
    std::optional<std::uint32_t> m_lid;  // the LID the text names
    bool m_lidOnly = false;            // "lid N": match the LID and nothing else
};

} // namespace weft
