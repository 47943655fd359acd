#pragma once
// The changes a rediscovery found (FabricDocument::liveChanges), listed by kind: links gone,
// new links, nodes gone or new, LIDs moved. Choosing a row selects its nodes on the map.

#include "Fabric.h"

#include <QWidget>

#include <vector>

class QLabel;
class QTreeWidget;

namespace weft {

class FabricDocument;

class FabricChangesPanel : public QWidget
{
    Q_OBJECT

public:
    explicit FabricChangesPanel(FabricDocument *document, QWidget *parent = nullptr);

    QTreeWidget *tree() const { return m_tree; }
    // Rows listed, over all kinds.
    int changeCount() const;

Q_SIGNALS:
    // The node GUIDs of the row chosen that the document's fabric has.
    void nodesChosen(const std::vector<weft::Guid> &nodes);

private:
    void fill();

    FabricDocument *m_document;
    QLabel *m_summary;
    QTreeWidget *m_tree;
};

}  // namespace weft
