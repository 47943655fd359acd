#include "MapToolBar.h"

#include "MapOverlays.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QStandardItemModel>

namespace weft {

namespace {

const QString kLinkColouringKey = QStringLiteral("view/linkColouring");
const QString kHostColouringKey = QStringLiteral("view/hostColouring");

}  // namespace

MapToolBar::MapToolBar(MapOverlays *map, QWidget *parent)
    : QToolBar(tr("View"), parent), m_map(map)
{
    setObjectName(QStringLiteral("viewToolBar"));
    setMovable(false);
    m_links = new QComboBox(this);
    m_links->setObjectName(QStringLiteral("linkColouringCombo"));
    m_links->addItem(tr("Plain"), int(LinkColouring::Plain));
    m_links->addItem(tr("By load"), int(LinkColouring::Load));
    m_links->addItem(tr("By measured load"), int(LinkColouring::Measured));
    m_links->addItem(tr("By partition"), int(LinkColouring::Partition));
    m_hosts = new QComboBox(this);
    m_hosts->setObjectName(QStringLiteral("hostColouringCombo"));
    m_hosts->addItem(tr("Plain"), int(HostColouring::Plain));
    m_hosts->addItem(tr("By partition"), int(HostColouring::Partition));
    m_hosts->addItem(tr("By tenant"), int(HostColouring::Tenant));
    m_routing = new QComboBox(this);
    m_routing->setObjectName(QStringLiteral("shownRoutingCombo"));
    m_routing->addItem(tr("Current tables"), int(ShownRouting::Current));
    m_routing->addItem(tr("Proposed (preview)"), int(ShownRouting::Proposed));
    setProposalAvailable(false);
    m_find = new QLineEdit(this);
    m_find->setObjectName(QStringLiteral("findBox"));
    m_find->setPlaceholderText(tr("Find node: name, GUID or LID"));
    m_find->setClearButtonEnabled(true);
    m_find->setMaximumWidth(260);

    addWidget(new QLabel(tr(" Cables: "), this));
    addWidget(m_links);
    addWidget(new QLabel(tr("  Hosts: "), this));
    addWidget(m_hosts);
    addWidget(new QLabel(tr("  Routing: "), this));
    addWidget(m_routing);
    auto *spacer = new QWidget(this);
    spacer->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    addWidget(spacer);
    addWidget(m_find);

    QSettings settings;
    m_links->setCurrentIndex(std::max(0, m_links->findData(settings.value(kLinkColouringKey, int(LinkColouring::Partition)).toInt())));
    m_hosts->setCurrentIndex(std::max(0, m_hosts->findData(settings.value(kHostColouringKey, int(HostColouring::Partition)).toInt())));
    m_map->setLinkColouring(LinkColouring(m_links->currentData().toInt()));
    m_map->setHostColouring(HostColouring(m_hosts->currentData().toInt()));
    connect(m_links, &QComboBox::currentIndexChanged, this, [this] {
        m_map->setLinkColouring(LinkColouring(m_links->currentData().toInt()));
        QSettings().setValue(kLinkColouringKey, m_links->currentData());
    });
    connect(m_hosts, &QComboBox::currentIndexChanged, this, [this] {
        m_map->setHostColouring(HostColouring(m_hosts->currentData().toInt()));
        QSettings().setValue(kHostColouringKey, m_hosts->currentData());
    });
    connect(m_routing, &QComboBox::currentIndexChanged, this, [this] { m_map->setShownRouting(shownRouting()); });
    // The map's colouring may change for other reasons (a panel's loads shown): the box says so.
    connect(m_map, &MapOverlays::linkColouringChanged, this, [this](LinkColouring colouring) {
        const QSignalBlocker quiet(m_links);
        m_links->setCurrentIndex(m_links->findData(int(colouring)));
    });
    connect(m_find, &QLineEdit::returnPressed, this, [this] { Q_EMIT findRequested(m_find->text()); });
}

void MapToolBar::setLinkColouring(LinkColouring colouring)
{
    m_links->setCurrentIndex(m_links->findData(int(colouring)));
    m_map->setLinkColouring(colouring);
    QSettings().setValue(kLinkColouringKey, int(colouring));
}

void MapToolBar::setHostColouring(HostColouring colouring)
{
    m_hosts->setCurrentIndex(m_hosts->findData(int(colouring)));
}

void MapToolBar::setProposalAvailable(bool available)
{
    if (auto *model = qobject_cast<QStandardItemModel *>(m_routing->model()))
        model->item(m_routing->findData(int(ShownRouting::Proposed)))->setEnabled(available);
}

void MapToolBar::setShownRouting(ShownRouting routing)
{
    m_routing->setCurrentIndex(m_routing->findData(int(routing)));
    m_map->setShownRouting(routing);
}

ShownRouting MapToolBar::shownRouting() const
{
    return ShownRouting(m_routing->currentData().toInt());
}

}  // namespace weft
