// The Virtual Machines dock (views/vswitch): VM badges on the map of a vSwitch fabric, a VM
// dropped onto another hypervisor planned with ItRC, FTreeMinRC and a full re-route, each plan's
// figures equal to `weft migrate --json` on the same files, Apply moving the what-if state on,
// and boot/shutdown figures equal to the core's.

#include "FabricDocument.h"
#include "FabricGenerator.h"
#include "FabricScene.h"
#include "GeneratedFabrics.h"
#include "LftDump.h"
#include "MainWindow.h"
#include "RoutingEngine.h"
#include "FabricSession.h"
#include "Screenshots.h"
#include "TopologyFile.h"
#include "VmBadges.h"
#include "VmPanel.h"
#include "WeftRunner.h"

#include <QDockWidget>
#include <QFile>
#include <QGraphicsSceneDragDropEvent>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMimeData>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <memory>

using namespace weft;

namespace {

bool writeFile(const QString &path, const QByteArray &data)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(data) == data.size();
}

// A 4-ary 2-tree of hypervisors with 3 VFs each, routed by vswitch-ftree; with `dynamic`, the
// last VF of every hypervisor is shut down first (free VFs: the dynamic LID scheme).
struct DeskFiles
{
    QString topology;
    QString lfts;
};

DeskFiles writeFabric(const QTemporaryDir &dir, bool dynamic)
{
    GeneratorOptions o;
    o.shape = FabricShapeKind::Xgft;
    o.xgft = parseXgft(QStringLiteral("2;4,4;4,1")).value();
    o.hypervisors = true;
    o.vfsPerHypervisor = 3;
    Fabric fabric = test::generateOrFail(o).fabric;
    ForwardingTables tables = routeFabric(QStringLiteral("vswitch-ftree"), fabric, {}).value().tables;
    if (dynamic) {
        for (int h = 0;; ++h) {
            const VirtualisedFabric virt = findHypervisors(fabric).value();
            if (h >= int(virt.hypervisors.size()))
                break;
            Result<VmLifecycle> down = shutdownVm(fabric, virt, tables, h, int(virt.hypervisors[std::size_t(h)].vfs.size()) - 1);
            if (!down)
                qFatal("shutdown: %s", qPrintable(down.error().toString()));
            fabric = std::move(down->fabric);
            tables = std::move(down->tables);
        }
    }
    DeskFiles files{dir.filePath(QStringLiteral("hyp.topo")), dir.filePath(QStringLiteral("hyp.lfts"))};
    if (!writeFile(files.topology, writeIbnetdiscover(fabric)) || !writeFile(files.lfts, writeLftDump(tables, &fabric)))
        qFatal("cannot write the fabric");
    return files;
}

// Opens the files in the window (the tables too, with `tables`) and waits for the map; the
// error, or empty.
QString openDesk(MainWindow &window, const DeskFiles &files, bool tables)
{
    QString error;
    if (!window.openTopologyFile(files.topology, &error) || (tables && !window.openLftDump(files.lfts, &error)))
        return error;
    return waitForScene(window, 30000) ? QString() : QStringLiteral("the map was not drawn");
}

// A window showing a freshly written hypervisor fabric.
struct Desk
{
    QTemporaryDir dir;
    DeskFiles files;
    MainWindow window;
    QString error;  // of opening it; empty if none

    Desk(bool dynamic, bool tables)
        : files(writeFabric(dir, dynamic)), error(openDesk(window, files, tables))
    {
    }
};

QJsonObject migrateJson(const DeskFiles &files, const QString &vm, const QString &to, const QString &method)
{
    const test::Run r = test::runWeft({QStringLiteral("migrate"), QStringLiteral("--json"), QStringLiteral("--drift"),
                                       QStringLiteral("--topology"), files.topology, QStringLiteral("--lfts"), files.lfts,
                                       QStringLiteral("--vm"), vm, QStringLiteral("--to"), to, QStringLiteral("--method"), method});
    if (r.exitCode != 0)
        qWarning("weft migrate: %s", r.err.constData());
    return QJsonDocument::fromJson(r.out).object();
}

// Drags `mime` over the scene onto `scenePos` and drops it there, as a drag from the map does:
// the scene finds the item that accepts it.
bool dropOnScene(QGraphicsScene *scene, QMimeData *mime, const QPointF &scenePos)
{
    bool accepted = false;
    for (QEvent::Type type : {QEvent::GraphicsSceneDragEnter, QEvent::GraphicsSceneDragMove, QEvent::GraphicsSceneDrop}) {
        QGraphicsSceneDragDropEvent event(type);
        event.setScenePos(scenePos);
        event.setMimeData(mime);
        event.setButtons(Qt::LeftButton);
        event.setPossibleActions(Qt::MoveAction);
        event.setProposedAction(Qt::MoveAction);
        event.setDropAction(Qt::MoveAction);
        QCoreApplication::sendEvent(scene, &event);
        accepted = event.isAccepted();
    }
    return accepted;
}

}  // namespace

class TestVmDesk : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void badgesOnlyOnVirtualisedFabrics();
    void dropPlansLikeWeftMigrate_data();
    void dropPlansLikeWeftMigrate();
    void applyMovesTheWhatIfOn();
    void bootAndShutdownEqualTheCore();
    void screenshotView();
};

void TestVmDesk::badgesOnlyOnVirtualisedFabrics()
{
    Desk desk(false, false);
    QVERIFY2(desk.error.isEmpty(), qPrintable(desk.error));
    MainWindow &window = desk.window;
    VmPanel *panel = window.vmPanel();
    QVERIFY(panel);
    QCOMPARE(panel->objectName(), QStringLiteral("vmPanel"));
    QVERIFY(panel->state());
    QCOMPARE(int(panel->state()->virt.hypervisors.size()), 16);
    QCOMPARE(panel->badges()->badgeCount(), std::size_t(16));
    QVERIFY(!window.vmDock()->isHidden());
    // Without tables nothing can be planned, and the panel says so.
    QVERIFY(!panel->planMigration(0, 0, 5));
    QVERIFY(panel->candidates().empty());
    // Every VF runs a VM (prepopulated); the badge draws a dot per VF, the tooltip the LIDs.
    VmBadgeItem *badge = panel->badges()->badge(3);
    QVERIFY(badge);
    QCOMPARE(badge->vfCount(), 3);
    QCOMPARE(badge->runningCount(), 3);
    const Hypervisor &hyp = panel->state()->virt.hypervisors[3];
    QVERIFY(badge->toolTip().contains(QStringLiteral("LID %1").arg(hyp.vfs[1].lid)));
    QCOMPARE(panel->lidSpaceTree()->topLevelItem(0)->text(1), QStringLiteral("prepopulated"));

    // A plain fat-tree: no badges, no dock.
    window.showFabric(test::generateOrFail(GeneratorOptions{}).fabric, Tenancy(), QStringLiteral("plain"));
    QVERIFY(waitForScene(window, 30000));
    QVERIFY(!panel->state());
    QCOMPARE(panel->badges()->badgeCount(), std::size_t(0));
    QVERIFY(window.vmDock()->isHidden());
}

void TestVmDesk::dropPlansLikeWeftMigrate_data()
{
    QTest::addColumn<bool>("dynamic");
    QTest::addColumn<int>("hypervisor");
    QTest::addColumn<int>("vf");
    QTest::addColumn<int>("destination");
    QTest::addRow("prepopulated, across the spines") << false << 0 << 1 << 13;
    QTest::addRow("prepopulated, same leaf") << false << 4 << 0 << 5;
    QTest::addRow("dynamic, across the spines") << true << 2 << 0 << 9;
    QTest::addRow("dynamic, next pod") << true << 15 << 1 << 10;
}

void TestVmDesk::dropPlansLikeWeftMigrate()
{
    QFETCH(bool, dynamic);
    QFETCH(int, hypervisor);
    QFETCH(int, vf);
    QFETCH(int, destination);
    QTemporaryDir dir;
    const DeskFiles files = writeFabric(dir, dynamic);
    MainWindow window;
    const QString error = openDesk(window, files, true);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    VmPanel *panel = window.vmPanel();
    QVERIFY(panel->state());
    QCOMPARE(panel->scheme(), dynamic ? LidScheme::Dynamic : LidScheme::Prepopulated);
    QCOMPARE(panel->badges()->badgeCount(), std::size_t(16));

    // The drop: the dragged dot's mime data onto the destination's badge.
    QSignalSpy planned(panel, &VmPanel::candidatesChanged);
    std::unique_ptr<QMimeData> mime(panel->badges()->mimeDataFor(hypervisor, vf));
    QVERIFY(!panel->badges()->drop(mime.get(), hypervisor));  // onto its own hypervisor: nothing
    VmBadgeItem *target = panel->badges()->badge(destination);
    QVERIFY(target);
    QVERIFY(dropOnScene(window.fabricScene(), mime.get(), target->vfScenePos(0)));
    QCOMPARE(planned.count(), 1);
    QCOMPARE(panel->candidates().size(), std::size_t(3));

    const Fabric &fabric = *panel->state()->fabric;
    const Hypervisor &src = panel->state()->virt.hypervisors[std::size_t(hypervisor)];
    const QString vm = fabric.node(src.vfs[std::size_t(vf)].node).description;
    const QString to = panel->state()->virt.hypervisors[std::size_t(destination)].name;
    QTableWidget *table = panel->migrationTable();
    for (int c = 0; c < 3; ++c) {
        const MigrationCandidate &candidate = panel->candidates()[std::size_t(c)];
        const QString method = reconfigurationMethodName(candidate.method);
        QVERIFY2(candidate.plan, qPrintable(method + QStringLiteral(": ") + candidate.error));
        const MigrationPlan &p = *candidate.plan;
        const QJsonObject cli = migrateJson(files, vm, to, method);
        QVERIFY2(!cli.isEmpty(), qPrintable(method));
        QCOMPARE(p.vm, cli.value(QStringLiteral("vm")).toString());
        QCOMPARE(reconfigurationMethodName(p.method), cli.value(QStringLiteral("method")).toString());
        QCOMPARE(lidSchemeName(p.scheme), cli.value(QStringLiteral("scheme")).toString());
        QCOMPARE(p.switchesTouched, cli.value(QStringLiteral("switches_touched")).toInt());
        QCOMPARE(p.entriesChanged, cli.value(QStringLiteral("entries_changed")).toInt());
        QCOMPARE(p.smps, cli.value(QStringLiteral("smps")).toInt());
        QCOMPARE(p.vSwitchSmps, cli.value(QStringLiteral("vswitch_smps")).toInt());
        QStringList order;
        for (const SwitchUpdate &u : p.updates)
            order << u.description;
        QStringList cliOrder;
        for (const QJsonValue &u : cli.value(QStringLiteral("updates")).toArray())
            cliOrder << u.toObject().value(QStringLiteral("switch")).toString();
        QCOMPARE(order, cliOrder);
        QVERIFY(candidate.drift);
        const QJsonObject drift = cli.value(QStringLiteral("drift")).toObject();
        QCOMPARE(double(candidate.drift->entriesDiffering), drift.value(QStringLiteral("entries_differing")).toDouble());
        QCOMPARE(double(candidate.drift->blocksDiffering), drift.value(QStringLiteral("blocks_differing")).toDouble());
        // What the table shows is those figures.
        QCOMPARE(table->item(0, c)->text(), QString::number(p.switchesTouched));
        QCOMPARE(table->item(3, c)->text(), QString::number(p.smps));
        QCOMPARE(table->item(4, c)->text(), QString::number(p.vSwitchSmps));
        QCOMPARE(table->item(6, c)->text(), cliOrder.join(QStringLiteral(", ")));
    }
    // The document is not touched by planning.
    QCOMPARE(window.document()->fabric().get(), panel->state()->fabric.get());
}

void TestVmDesk::applyMovesTheWhatIfOn()
{
    Desk desk(true, true);
    QVERIFY2(desk.error.isEmpty(), qPrintable(desk.error));
    MainWindow &window = desk.window;
    VmPanel *panel = window.vmPanel();
    const std::shared_ptr<const Fabric> documentFabric = window.document()->fabric();
    const Lid x = panel->state()->virt.hypervisors[1].vfs[0].lid;
    QVERIFY(x != 0);
    QVERIFY(panel->planMigration(1, 0, 14));
    QVERIFY(panel->applyCandidate(ReconfigurationMethod::FTreeMinRC));
    QVERIFY(panel->isModified());
    QVERIFY(panel->candidates().empty());
    // The VM runs on hyp0014 now, with its LID; its old VF is free; the document is as it was.
    const VirtualisedFabric &virt = panel->state()->virt;
    QCOMPARE(virt.hypervisors[1].vfs[0].lid, Lid(0));
    int moved = -1;
    for (std::size_t v = 0; v < virt.hypervisors[14].vfs.size(); ++v) {
        if (virt.hypervisors[14].vfs[v].lid == x)
            moved = int(v);
    }
    QVERIFY(moved >= 0);
    QCOMPARE(window.document()->fabric(), documentFabric);
    QCOMPARE(panel->badges()->badge(14)->runningCount(), 3);
    QCOMPARE(panel->badges()->badge(1)->runningCount(), 1);
    // A second migration starts from the first one's result: the VM goes on from hyp0014, its
    // row in the panel dragged onto hyp0006's badge this time. A free VF's row does not drag.
    QAbstractItemModel *rows = panel->hypervisorTree()->model();
    const QModelIndex hyp1 = rows->index(1, 0);
    QVERIFY(!rows->mimeData({rows->index(0, 0, hyp1)}));
    std::unique_ptr<QMimeData> row(rows->mimeData({rows->index(moved, 0, rows->index(14, 0))}));
    QVERIFY(row);
    QVERIFY(dropOnScene(window.fabricScene(), row.get(), panel->badges()->badge(6)->vfScenePos(1)));
    QCOMPARE(panel->candidates().size(), std::size_t(3));
    QCOMPARE(panel->candidates()[1].plan->x, x);
    QCOMPARE(panel->candidates()[1].plan->source, QStringLiteral("hyp0014"));
    // Reset drops the what-if state.
    panel->resetToDocument();
    QVERIFY(!panel->isModified());
    QCOMPARE(panel->state()->virt.hypervisors[1].vfs[0].lid, x);
}

void TestVmDesk::bootAndShutdownEqualTheCore()
{
    Desk desk(true, true);
    QVERIFY2(desk.error.isEmpty(), qPrintable(desk.error));
    MainWindow &window = desk.window;
    VmPanel *panel = window.vmPanel();

    // Shut down hyp0007 VF1.
    VmFabricState before = *panel->state();
    Result<VmLifecycle> down = shutdownVm(*before.fabric, before.virt, before.tables, 7, 0);
    QVERIFY(down);
    QVERIFY(panel->shutdownVm(7, 0));
    QVERIFY(panel->lastLifecycle());
    QCOMPARE(panel->lastLifecycle()->lid, down->lid);
    QCOMPARE(panel->lastLifecycle()->switchesTouched, down->switchesTouched);
    QCOMPARE(panel->lastLifecycle()->smps, down->smps);
    QCOMPARE(panel->lastLifecycle()->vSwitchSmps, down->vSwitchSmps);
    QVERIFY(down->smps > 0);
    QCOMPARE(panel->state()->virt.hypervisors[7].vfs[0].lid, Lid(0));
    QCOMPARE(panel->badges()->badge(7)->runningCount(), 1);

    // Boot hyp0003 VF3 (free since the fabric was written).
    before = *panel->state();
    Result<VmLifecycle> up = bootVm(*before.fabric, before.virt, before.tables, 3, 2);
    QVERIFY(up);
    QVERIFY(panel->bootVm(3, 2));
    QCOMPARE(panel->lastLifecycle()->lid, up->lid);
    QCOMPARE(panel->lastLifecycle()->switchesTouched, up->switchesTouched);
    QCOMPARE(panel->lastLifecycle()->smps, up->smps);
    QCOMPARE(panel->lastLifecycle()->vSwitchSmps, up->vSwitchSmps);
    QCOMPARE(panel->state()->virt.hypervisors[3].vfs[2].lid, up->lid);
    QCOMPARE(panel->badges()->badge(3)->runningCount(), 3);
    // Booting a VF that has its LID already (prepopulated) sends nothing; shutting down a free
    // VF is an error and changes nothing.
    const Lid lid = panel->state()->virt.hypervisors[3].vfs[2].lid;
    QVERIFY(panel->bootVm(3, 2));
    QCOMPARE(panel->lastLifecycle()->lid, lid);
    QCOMPARE(panel->lastLifecycle()->smps, 0);
    const int running = int(panel->state()->virt.runningVms());
    QVERIFY(!panel->shutdownVm(7, 0));
    QCOMPARE(int(panel->state()->virt.runningVms()), running);
    QCOMPARE(panel->lastLifecycle()->lid, lid);
}

void TestVmDesk::screenshotView()
{
    MainWindow window;
    QVERIFY(prepareScreenshot(window, QStringLiteral("vms")));
    VmPanel *panel = window.vmPanel();
    QVERIFY(panel->state());
    QCOMPARE(panel->candidates().size(), std::size_t(3));
    for (const MigrationCandidate &c : panel->candidates())
        QVERIFY2(c.plan, qPrintable(c.error));
    QVERIFY(!window.vmDock()->isHidden());
}

QTEST_MAIN(TestVmDesk)
#include "tst_vm_desk.moc"
