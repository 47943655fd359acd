#pragma once
// The Summary dock: what the document's fabric holds in the figures an operator asks for first
// (FabricSummary): switches, hosts, routers, cables between switches and to hosts, switch tiers,
// the LID range. Follows the document's fabric.

#include "FabricSummary.h"

#include <QTreeWidget>

namespace weft {

class FabricDocument;

class SummaryPanel : public QTreeWidget
{
    Q_OBJECT

public:
    // Rows carry a key that does not depend on the language in Qt::UserRole of column 0.
    static constexpr int kKeyRole = Qt::UserRole;

    explicit SummaryPanel(FabricDocument *document, QWidget *parent = nullptr);
    const FabricSummary &summary() const { return m_summary; }

private:
    void fill();

    FabricDocument *m_document;
    FabricSummary m_summary;
};

}  // namespace weft
