#pragma once
// The map's toolbar: how cables and hosts are coloured, which routing the map shows, and the
// find box. It talks to MapOverlays, the one owner of what the map shows, and follows it when
// the colouring changes for another reason (a panel's loads shown). The choices are kept in the
// settings.

#include "FabricScene.h"

#include <QToolBar>

class QComboBox;
class QLineEdit;

namespace weft {

class MapOverlays;

class MapToolBar : public QToolBar
{
    Q_OBJECT

public:
    MapToolBar(MapOverlays *map, QWidget *parent = nullptr);

    void setLinkColouring(LinkColouring colouring);
    void setHostColouring(HostColouring colouring);
    // The proposal may be shown only while there is one.
    void setProposalAvailable(bool available);
    void setShownRouting(ShownRouting routing);
    ShownRouting shownRouting() const;
    QLineEdit *findBox() const { return m_find; }
    MapOverlays *map() const { return m_map; }

Q_SIGNALS:
    // Return pressed in the find box.
    void findRequested(const QString &text);

private:
    MapOverlays *m_map;
    QComboBox *m_links;
    QComboBox *m_hosts;
    QComboBox *m_routing;
    QLineEdit *m_find;
};

}  // namespace weft
