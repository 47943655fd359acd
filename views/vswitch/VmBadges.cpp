#include "VmBadges.h"

#include "Identifiers.h"

#include <QApplication>
#include <QDrag>
#include <QGraphicsPathItem>
#include <QGraphicsScene>
#include <QGraphicsSceneDragDropEvent>
#include <QGraphicsSceneMouseEvent>
#include <QMimeData>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <QWidget>

#include <algorithm>
#include <cmath>

namespace weft {

namespace {

constexpr double kDot = 6;      // diameter, scene units
constexpr double kPitch = 7.5;  // dot to dot
constexpr double kPad = 1.5;
constexpr double kGap = 2;  // between the vSwitch box and the badge
constexpr double kCountWidth = 30;
constexpr double kBadgeZ = 7;  // over cables, racks and highlights

QColor badgeFrameColour()
{
    return QColor(0x3b, 0x2a, 0x5c);
}

}  // namespace

const QString VmBadgeLayer::kMimeType = QStringLiteral("application/x-weft-vm");

QColor VmBadgeLayer::runningColour()
{
    return QColor(0x6a, 0x3d, 0x9a);
}
QColor VmBadgeLayer::plannedColour()
{
    return QColor(0xe8, 0x6a, 0x10);
}

VmBadgeItem::VmBadgeItem(VmBadgeLayer *layer, int hypervisor, const QPointF &topCentre, std::vector<bool> running)
    : m_layer(layer), m_hypervisor(hypervisor), m_running(std::move(running))
{
    const double width = drawsDots() ? std::max(1, vfCount()) * kPitch + 2 * kPad - (kPitch - kDot) : kCountWidth;
    m_rect = QRectF(topCentre.x() - width / 2, topCentre.y() + kGap, width, kDot + 2 * kPad);
    setZValue(kBadgeZ);
    setAcceptDrops(true);
    setAcceptedMouseButtons(Qt::LeftButton);
    setCursor(Qt::OpenHandCursor);
}

VmBadgeItem::~VmBadgeItem()
{
    if (m_layer)
        m_layer->forget(this);
}

int VmBadgeItem::runningCount() const
{
    return int(std::count(m_running.begin(), m_running.end(), true));
}

QRectF VmBadgeItem::dotRect(int vf) const
{
    return QRectF(m_rect.left() + kPad + vf * kPitch, m_rect.top() + kPad, kDot, kDot);
}

QPointF VmBadgeItem::vfScenePos(int vf) const
{
    return mapToScene(drawsDots() ? dotRect(vf).center() : m_rect.center());
}

int VmBadgeItem::vfAt(const QPointF &itemPos) const
{
    if (!drawsDots()) {
        // A count badge drags the first VM.
        const auto first = std::find(m_running.begin(), m_running.end(), true);
        return m_rect.contains(itemPos) && first != m_running.end() ? int(first - m_running.begin()) : -1;
    }
    for (int v = 0; v < vfCount(); ++v) {
        if (dotRect(v).adjusted(-1, -1, 1, 1).contains(itemPos))
            return v;
    }
    return -1;
}

void VmBadgeItem::setMarks(int movingVf, bool destination, const QPointF &from)
{
    m_movingVf = movingVf;
    m_destination = destination;
    delete m_arrow;
    m_arrow = nullptr;
    if (destination) {
        // An arc over the leaves from the VM's dot to this badge, with its head at the badge.
        const QPointF to(m_rect.center().x(), m_rect.bottom() + 1);
        const QPointF start = mapFromScene(from) + QPointF(0, kDot / 2 + kPad);
        const double sag = 24;  // the curve dips half of it: under the badges, over the racks
        const QPointF control((start.x() + to.x()) / 2, std::max(start.y(), to.y()) + sag);
        QPainterPath path(start);
        path.quadTo(control, to);
        const QLineF tail(to, control);
        QLineF wing = tail;
        wing.setLength(5);
        for (double turn : {-28.0, 28.0}) {
            QLineF w = wing;
            w.setAngle(tail.angle() + turn);
            path.moveTo(to);
            path.lineTo(w.p2());
        }
        m_arrow = new QGraphicsPathItem(path, this);
        QPen pen(VmBadgeLayer::plannedColour(), 1.8);
        pen.setCosmetic(true);
        m_arrow->setPen(pen);
    }
    update();
}

QPainterPath VmBadgeItem::shape() const
{
    QPainterPath path;
    path.addRect(m_rect);
    return path;
}

void VmBadgeItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    const double lod = QStyleOptionGraphicsItem::levelOfDetailFromTransform(painter->worldTransform());
    painter->setRenderHint(QPainter::Antialiasing, lod > 0.3);
    const QColor frame = badgeFrameColour();
    const QColor edge = m_dropTarget ? VmBadgeLayer::runningColour() : m_destination ? VmBadgeLayer::plannedColour()
                                                                                     : frame;
    painter->setPen(QPen(edge, m_dropTarget || m_destination ? 1.5 : 0.6));
    painter->setBrush(m_dropTarget ? QColor(0xe9, 0xdf, 0xf5) : QColor(255, 255, 255, 230));
    painter->drawRoundedRect(m_rect, 2.5, 2.5);
    if (!drawsDots()) {
        if (lod < 0.4)
            return;
        QFont font = painter->font();
        font.setPointSizeF(5.5);
        painter->setFont(font);
        painter->setPen(frame);
        painter->drawText(m_rect, Qt::AlignCenter, QStringLiteral("%1/%2").arg(runningCount()).arg(vfCount()));
        return;
    }
    for (int v = 0; v < vfCount(); ++v) {
        const bool running = m_running[std::size_t(v)];
        painter->setPen(QPen(running ? VmBadgeLayer::runningColour() : frame, 0.8));
        painter->setBrush(running ? VmBadgeLayer::runningColour() : QColor(Qt::white));
        painter->drawEllipse(dotRect(v));
    }
    if (m_movingVf >= 0 && m_movingVf < vfCount()) {
        painter->setPen(QPen(VmBadgeLayer::plannedColour(), 1.4));
        painter->setBrush(Qt::NoBrush);
        painter->drawEllipse(dotRect(m_movingVf).adjusted(-1.2, -1.2, 1.2, 1.2));
    }
    Q_UNUSED(option);
}

void VmBadgeItem::mousePressEvent(QGraphicsSceneMouseEvent *event)
{
    m_pressedVf = vfAt(event->pos());
    if (m_pressedVf < 0 || !m_running[std::size_t(m_pressedVf)]) {
        m_pressedVf = -1;
        event->ignore();  // the vSwitch or the cables under it take the click
        return;
    }
    setCursor(Qt::ClosedHandCursor);
    event->accept();
}

void VmBadgeItem::mouseMoveEvent(QGraphicsSceneMouseEvent *event)
{
    if (m_pressedVf < 0 || !m_layer || !event->widget())
        return;
    if ((event->screenPos() - event->buttonDownScreenPos(Qt::LeftButton)).manhattanLength() < QApplication::startDragDistance())
        return;
    auto *drag = new QDrag(event->widget());
    drag->setMimeData(m_layer->mimeDataFor(m_hypervisor, m_pressedVf));
    m_pressedVf = -1;
    drag->exec(Qt::MoveAction);
    setCursor(Qt::OpenHandCursor);
}

void VmBadgeItem::dragEnterEvent(QGraphicsSceneDragDropEvent *event)
{
    int h = -1, vf = -1;
    const bool accept = m_layer && m_layer->vmOf(event->mimeData(), &h, &vf) && h != m_hypervisor;
    event->setAccepted(accept);
    if (accept) {
        m_dropTarget = true;
        update();
    }
}

void VmBadgeItem::dragLeaveEvent(QGraphicsSceneDragDropEvent *)
{
    m_dropTarget = false;
    update();
}

void VmBadgeItem::dropEvent(QGraphicsSceneDragDropEvent *event)
{
    m_dropTarget = false;
    update();
    event->setAccepted(m_layer && m_layer->drop(event->mimeData(), m_hypervisor));
}

VmBadgeLayer::VmBadgeLayer(QObject *parent)
    : QObject(parent)
{
}

VmBadgeLayer::~VmBadgeLayer()
{
    clear();
}

void VmBadgeLayer::forget(VmBadgeItem *item)
{
    for (VmBadgeItem *&b : m_badges) {
        if (b == item)
            b = nullptr;
    }
}

void VmBadgeLayer::clear()
{
    std::vector<VmBadgeItem *> badges;
    badges.swap(m_badges);
    for (VmBadgeItem *b : badges)
        delete b;  // removes itself from its scene
    m_vfGuids.clear();
    m_toolTips.clear();
}

void VmBadgeLayer::show(QGraphicsScene *scene, const Fabric &fabric, const VirtualisedFabric &virt, const FabricLayout &layout)
{
    clear();
    if (!scene || layout.positions.size() != fabric.nodes().size())
        return;
    m_badges.assign(virt.hypervisors.size(), nullptr);
    m_vfGuids.resize(virt.hypervisors.size());
    m_toolTips.resize(virt.hypervisors.size());
    for (std::size_t h = 0; h < virt.hypervisors.size(); ++h) {
        const Hypervisor &hyp = virt.hypervisors[h];
        std::vector<bool> running;
        QStringList lines;
        for (const VirtualFunction &vf : hyp.vfs) {
            running.push_back(vf.lid != 0);
            m_vfGuids[h].push_back(fabric.node(vf.node).guid);
            lines << (vf.lid ? tr("VF%1: VM, LID %2").arg(vf.number).arg(vf.lid) : tr("VF%1: free").arg(vf.number));
        }
        m_toolTips[h] = tr("<b>%1</b>: %n VM(s) on %2 VF(s)", nullptr, hyp.runningVms()).arg(hyp.name.toHtmlEscaped()).arg(hyp.vfs.size())
            + QStringLiteral("<br>") + tr("PF LID %1, vSwitch LID %2").arg(hyp.pfLid).arg(hyp.vSwitchLid)
            + QStringLiteral("<br>") + lines.join(QStringLiteral("<br>")) + QStringLiteral("<br><i>")
            + tr("Drag a VM onto another hypervisor to plan its migration.") + QStringLiteral("</i>");
        const QRectF box = layout.nodeRect(fabric, hyp.vSwitch);
        auto *item = new VmBadgeItem(this, int(h), QPointF(box.center().x(), box.bottom()), std::move(running));
        item->setToolTip(m_toolTips[h]);
        scene->addItem(item);
        m_badges[h] = item;
    }
}

VmBadgeItem *VmBadgeLayer::badge(int hypervisor) const
{
    return hypervisor >= 0 && std::size_t(hypervisor) < m_badges.size() ? m_badges[std::size_t(hypervisor)] : nullptr;
}

QString VmBadgeLayer::toolTip(int hypervisor) const
{
    return hypervisor >= 0 && std::size_t(hypervisor) < m_toolTips.size() ? m_toolTips[std::size_t(hypervisor)] : QString();
}

QMimeData *VmBadgeLayer::mimeDataFor(int hypervisor, int vf) const
{
    auto *mime = new QMimeData;
    if (hypervisor >= 0 && std::size_t(hypervisor) < m_vfGuids.size() && vf >= 0 && std::size_t(vf) < m_vfGuids[std::size_t(hypervisor)].size())
        mime->setData(kMimeType, guidText(m_vfGuids[std::size_t(hypervisor)][std::size_t(vf)]).toLatin1());
    return mime;
}

bool VmBadgeLayer::vmOf(const QMimeData *mime, int *hypervisor, int *vf) const
{
    if (!mime || !mime->hasFormat(kMimeType))
        return false;
    const QString text = QString::fromLatin1(mime->data(kMimeType));
    for (std::size_t h = 0; h < m_vfGuids.size(); ++h) {
        for (std::size_t v = 0; v < m_vfGuids[h].size(); ++v) {
            if (guidText(m_vfGuids[h][v]) == text) {
                *hypervisor = int(h);
                *vf = int(v);
                return true;
            }
        }
    }
    return false;
}

void VmBadgeLayer::markMigration(int hypervisor, int vf, int destination)
{
    for (std::size_t h = 0; h < m_badges.size(); ++h) {
        if (m_badges[h])
            m_badges[h]->setMarks(int(h) == hypervisor ? vf : -1, hypervisor >= 0 && int(h) == destination,
                                  badge(hypervisor) ? badge(hypervisor)->vfScenePos(vf) : QPointF());
    }
}

bool VmBadgeLayer::drop(const QMimeData *mime, int destination)
{
    int h = -1, vf = -1;
    if (!vmOf(mime, &h, &vf) || h == destination || destination < 0 || std::size_t(destination) >= m_badges.size())
        return false;
    Q_EMIT vmDropped(h, vf, destination);
    return true;
}

}  // namespace weft
