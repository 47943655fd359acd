#pragma once
// Node traffic weights: every host port with its weight, editable in place, filterable by host
// or GUID, and importable from a weights file as one undo step.

#include "FabricDocument.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace weft {

class WeightTableModel;

class WeightTable : public QWidget
{
    Q_OBJECT

public:
    explicit WeightTable(FabricDocument *document, QWidget *parent = nullptr);

    // What the Import button does once a file is chosen; errors also go to the message line.
    Status importWeights(const QString &path);

    QTableView *view() const { return m_view; }
    WeightTableModel *model() const { return m_model; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    QString message() const;

private:
    void chooseAndImport();

    FabricDocument *m_document;
    WeightTableModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QLineEdit *m_filter;
    QTableView *m_view;
    QLabel *m_message;
};

}  // namespace weft
