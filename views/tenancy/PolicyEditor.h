#pragma once
// Isolation policies: a table of partitions with a policy each (edited with a combo box), and
// the global switch between strict (routing fails on an unmet policy) and best effort (routing
// goes ahead and warns).

#include "FabricDocument.h"

#include <QWidget>

class QCheckBox;
class QTableView;

namespace weft {

class PolicyTableModel;

class PolicyEditor : public QWidget
{
    Q_OBJECT

public:
    explicit PolicyEditor(FabricDocument *document, QWidget *parent = nullptr);

    QTableView *view() const { return m_view; }
    PolicyTableModel *model() const { return m_model; }
    QCheckBox *strictSwitch() const { return m_strict; }

private:
    void showMode();

    FabricDocument *m_document;
    PolicyTableModel *m_model;
    QTableView *m_view;
    QCheckBox *m_strict;
};

}  // namespace weft
