#pragma once
// The Nodes dock: a filter line ("lid 17", a name, a GUID) over the table of every node of the
// document's fabric. Follows the document's fabric; a row made current asks the map to focus
// on its node (nodeChosen), and the map's selection makes its node's row current (showNode).

#include "Fabric.h"

#include <QWidget>

class QLineEdit;
class QTableView;

namespace weft {

class FabricDocument;
class NodeFilterProxyModel;
class NodeTableModel;

class NodePanel : public QWidget
{
    Q_OBJECT

public:
    explicit NodePanel(FabricDocument *document, QWidget *parent = nullptr);

    NodeTableModel *model() const { return m_model; }
    NodeFilterProxyModel *proxy() const { return m_proxy; }
    QTableView *table() const { return m_table; }

    // Makes `node`'s row current without asking the map to focus on it again.
    void showNode(NodeIndex node);

Q_SIGNALS:
    // The operator made a node's row current.
    void nodeChosen(weft::NodeIndex node);

private:
    FabricDocument *m_document;
    NodeTableModel *m_model;
    NodeFilterProxyModel *m_proxy;
    QLineEdit *m_filter;
    QTableView *m_table;
    bool m_showing = false;  // showNode's own row change: not the operator's choice
};

}  // namespace weft
