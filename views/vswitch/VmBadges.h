#pragma once
// VMs on the map of a vSwitch fabric: under each hypervisor's vSwitch a small badge with one dot
// per VF (filled: a VM runs there; hollow: free), or "running/VFs" when there are too many VFs
// for dots. A VM's dot can be dragged onto another hypervisor's badge: the layer reports the
// drop, the VM panel plans the migration. Badges exist only for virtualised fabrics, so the
// picture of a plain fabric is not touched.

#include "FabricLayout.h"
#include "Virtualisation.h"

#include <QGraphicsItem>
#include <QObject>
#include <QPointer>

#include <vector>

class QGraphicsPathItem;
class QGraphicsScene;
class QMimeData;

namespace weft {

class VmBadgeLayer;

/** The VFs of one hypervisor, drawn under its vSwitch. */
class VmBadgeItem : public QGraphicsItem
{
public:
    enum { Type = QGraphicsItem::UserType + 40 };
    static constexpr int kMaxDots = 6;

    VmBadgeItem(VmBadgeLayer *layer, int hypervisor, const QPointF &topCentre, std::vector<bool> running);
    ~VmBadgeItem() override;

    int hypervisor() const { return m_hypervisor; }
    int runningCount() const;
    int vfCount() const { return int(m_running.size()); }
    bool drawsDots() const { return vfCount() <= kMaxDots; }
    // Centre of VF `vf`'s dot, in scene coordinates (the badge's centre when drawn as a count).
    QPointF vfScenePos(int vf) const;
    int vfAt(const QPointF &itemPos) const;  // -1 if no dot there
    // The planned migration: the VM's dot ringed (source), or the badge framed (destination)
    // with an arrow coming in from `from` (scene coordinates).
    void setMarks(int movingVf, bool destination, const QPointF &from = QPointF());

    int type() const override { return Type; }
    QRectF boundingRect() const override { return m_rect.adjusted(-1, -1, 1, 1); }
    QPainterPath shape() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

protected:
    void mousePressEvent(QGraphicsSceneMouseEvent *event) override;
    void mouseMoveEvent(QGraphicsSceneMouseEvent *event) override;
    void dragEnterEvent(QGraphicsSceneDragDropEvent *event) override;
    void dragLeaveEvent(QGraphicsSceneDragDropEvent *event) override;
    void dropEvent(QGraphicsSceneDragDropEvent *event) override;

private:
    QRectF dotRect(int vf) const;

    QPointer<VmBadgeLayer> m_layer;
    int m_hypervisor;
    std::vector<bool> m_running;
    QRectF m_rect;
    int m_pressedVf = -1;
    bool m_dropTarget = false;
    int m_movingVf = -1;
    bool m_destination = false;
    QGraphicsPathItem *m_arrow = nullptr;  // a child: goes with the badge
};

/** The badges of one fabric, and the one place a dropped VM is read. */
class VmBadgeLayer : public QObject
{
    Q_OBJECT

public:
    static const QString kMimeType;  // "application/x-weft-vm": the VF's node GUID as text

    explicit VmBadgeLayer(QObject *parent = nullptr);
    ~VmBadgeLayer() override;

    // Replaces the badges in `scene` by those of `virt` (of `fabric`, which the scene shows
    // with `layout`: same nodes, LIDs may differ).
    void show(QGraphicsScene *scene, const Fabric &fabric, const VirtualisedFabric &virt, const FabricLayout &layout);
    void clear();
    std::size_t badgeCount() const { return m_badges.size(); }
    VmBadgeItem *badge(int hypervisor) const;  // null if none
    QString toolTip(int hypervisor) const;

    // What a dragged VM carries, and reading it back: the VF's hypervisor and index, false if
    // `mime` names no VF of the fabric shown.
    QMimeData *mimeDataFor(int hypervisor, int vf) const;
    bool vmOf(const QMimeData *mime, int *hypervisor, int *vf) const;
    // A drop of `mime` on `destination`'s badge: emits vmDropped for a VM going elsewhere.
    bool drop(const QMimeData *mime, int destination);
    // Marks a planned migration on the badges (one at a time); a hypervisor of -1 clears it.
    void markMigration(int hypervisor, int vf, int destination);

    static QColor runningColour();
    static QColor plannedColour();

Q_SIGNALS:
    void vmDropped(int hypervisor, int vf, int destination);

private:
    friend class VmBadgeItem;
    void forget(VmBadgeItem *item);

    std::vector<VmBadgeItem *> m_badges;       // by hypervisor; null where none
    std::vector<std::vector<Guid>> m_vfGuids;  // by hypervisor, VF: node GUIDs
    std::vector<QString> m_toolTips;
};

}  // namespace weft
