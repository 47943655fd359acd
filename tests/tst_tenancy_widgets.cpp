// The tenancy widgets over a FabricDocument: every model under QAbstractItemModelTester, drops
// of hosts and whole tenants (through the model and through the panel's view), partition edits
// with their error messages, and policy and weight edits made through the widgets' editors.

#include "FabricDocument.h"
#include "PartitionPanel.h"
#include "PartitionTreeModel.h"
#include "PolicyEditor.h"
#include "PolicyTableModel.h"
#include "PortsMime.h"
#include "TenantListModel.h"
#include "TinyFabric.h"
#include "WeightTable.h"
#include "WeightTableModel.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QMimeData>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeView>
#include <QUndoStack>
#include <QtTest>

#include <memory>

using namespace weft;

namespace {

struct Lab : test::FiveHostSwitch
{
    Tenancy tenancy() const
    {
        Tenancy t;
        t.tenants.push_back({QStringLiteral("chemistry"), {port("h1"), port("h2")}});
        t.tenants.push_back({QStringLiteral("physics"), {port("h3")}});
        return t;
    }
};

std::vector<Guid> members(const FabricDocument &doc, std::uint16_t pkey)
{
    std::vector<Guid> guids;
    if (const Partition *p = doc.tenancy().findPartition(pkey))
        for (const PartitionMember &m : p->members)
            guids.push_back(m.guid);
    return guids;
}

// The tenant row, or its first host row, as the tenant tree would drag it.
QModelIndex dragSource(const TenantListModel &model, const QString &what)
{
    const QModelIndex tenant = model.indexOfTenant(QStringLiteral("chemistry"));
    return what == QLatin1String("tenant") ? tenant : model.index(0, 0, tenant);
}

}  // namespace

class TestTenancyWidgets : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void modelsUnderTester();
    void tenantRows();
    void dropOnModel_data();
    void dropOnModel();
    void dropThroughPanel_data();
    void dropThroughPanel();
    void foreignDropRefused();
    void dragBetweenPartitionsMoves_data();
    void dragBetweenPartitionsMoves();
    void createPartition_data();
    void createPartition();
    void renameAndDelete();
    void membershipButtons();
    void policyThroughEditor();
    void weightThroughTable();
    void importErrorShown();
    void screenshots();
};

void TestTenancyWidgets::modelsUnderTester()
{
    FabricDocument doc;
    PartitionTreeModel partitions(&doc);
    TenantListModel tenants(&doc);
    PolicyTableModel policies(&doc);
    WeightTableModel weights(&doc);
    QAbstractItemModelTester t1(&partitions, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t2(&tenants, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t3(&policies, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t4(&weights, QAbstractItemModelTester::FailureReportingMode::QtTest);

    Lab lab;
    doc.reset(lab.fabric, lab.tenancy(), QStringLiteral("lab"));
    QVERIFY(doc.createPartition(QStringLiteral("chem"), 0x10).ok());
    QVERIFY(doc.createPartition(QStringLiteral("phys"), 0x20).ok());
    doc.assignTenant(QStringLiteral("chemistry"), 0x10, Membership::Full);
    doc.setPolicy(0x20, IsolationPolicy::Physical);
    doc.setNodeWeight(lab.port("h4"), 3);
    doc.deletePartition(0x10);
    while (doc.undoStack()->canUndo())
        doc.undoStack()->undo();
    while (doc.undoStack()->canRedo())
        doc.undoStack()->redo();

    QCOMPARE(partitions.rowCount(), 1);
    QCOMPARE(policies.rowCount(), 1);
    QCOMPARE(weights.rowCount(), 5);
    QCOMPARE(weights.data(weights.indexOfPort(lab.port("h4"), WeightTableModel::WeightColumn), Qt::EditRole).toDouble(), 3.0);
    QCOMPARE(policies.data(policies.index(0, PolicyTableModel::PolicyColumn), Qt::EditRole).toInt(),
             int(IsolationPolicy::Physical));
}

void TestTenancyWidgets::tenantRows()
{
    Lab lab;
    FabricDocument doc;
    doc.reset(lab.fabric, lab.tenancy(), QStringLiteral("lab"));
    TenantListModel model(&doc);
    QCOMPARE(model.rowCount(), 3);  // two tenants and the hosts without one
    const QModelIndex loose = model.indexOfTenant(QString());
    QVERIFY(loose.isValid());
    QCOMPARE(model.portsAt(loose), (std::vector<Guid>{lab.port("h4"), lab.port("h5")}));
    QCOMPARE(model.data(model.index(1, 0, model.indexOfTenant(QStringLiteral("chemistry")))).toString(),
             QStringLiteral("h2"));
    QCOMPARE(model.data(model.indexOfTenant(QStringLiteral("chemistry")), TenantListModel::TenantRole).toString(),
             QStringLiteral("chemistry"));
}

void TestTenancyWidgets::dropOnModel_data()
{
    QTest::addColumn<QString>("what");
    QTest::addColumn<int>("expectedCount");
    QTest::addColumn<QString>("undoText");
    QTest::addRow("one host") << QStringLiteral("host") << 1 << QStringLiteral("Assign 1 host(s) to chem");
    QTest::addRow("whole tenant") << QStringLiteral("tenant") << 2
                                  << QStringLiteral("Assign tenant chemistry (2 host(s)) to chem");
}

void TestTenancyWidgets::dropOnModel()
{
    QFETCH(QString, what);
    QFETCH(int, expectedCount);
    QFETCH(QString, undoText);

    Lab lab;
    FabricDocument doc;
    doc.reset(lab.fabric, lab.tenancy(), QStringLiteral("lab"));
    QVERIFY(doc.createPartition(QStringLiteral("chem"), 0x10).ok());
    TenantListModel tenants(&doc);
    PartitionTreeModel partitions(&doc);
    partitions.setDropMembership(Membership::Limited);

    std::unique_ptr<QMimeData> mime(tenants.mimeData({dragSource(tenants, what)}));
    QVERIFY(mime);
    QCOMPARE(tenantFromMimeData(mime.get()).isEmpty(), what != QLatin1String("tenant"));
    const QModelIndex target = partitions.indexOfPartition(0x10);
    QVERIFY(partitions.canDropMimeData(mime.get(), Qt::CopyAction, -1, -1, target));
    QVERIFY(partitions.dropMimeData(mime.get(), Qt::CopyAction, -1, -1, target));

    QCOMPARE(int(members(doc, 0x10).size()), expectedCount);
    QCOMPARE(doc.tenancy().findPartition(0x10)->members.front().membership, Membership::Limited);
    QCOMPARE(doc.undoStack()->text(doc.undoStack()->index() - 1), undoText);
    QCOMPARE(partitions.rowCount(partitions.indexOfPartition(0x10)), expectedCount);
    doc.undoStack()->undo();
    QVERIFY(members(doc, 0x10).empty());
    QCOMPARE(partitions.rowCount(partitions.indexOfPartition(0x10)), 0);
    doc.undoStack()->redo();
    QCOMPARE(int(members(doc, 0x10).size()), expectedCount);
}

void TestTenancyWidgets::dropThroughPanel_data()
{
    QTest::addColumn<QString>("what");
    QTest::addColumn<int>("expectedCount");
    QTest::addRow("one host") << QStringLiteral("host") << 1;
    QTest::addRow("whole tenant") << QStringLiteral("tenant") << 2;
}

void TestTenancyWidgets::dropThroughPanel()
{
    QFETCH(QString, what);
    QFETCH(int, expectedCount);

    Lab lab;
    FabricDocument doc;
    doc.reset(lab.fabric, lab.tenancy(), QStringLiteral("lab"));
    PartitionPanel panel(&doc);
    panel.resize(500, 500);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QVERIFY(panel.createPartition(QStringLiteral("chem"), QStringLiteral("0x10")).ok());
    QVERIFY(panel.createPartition(QStringLiteral("phys"), QStringLiteral("0x20")).ok());

    // What the tenant tree would put on the drag, released over the row of "phys".
    std::unique_ptr<QMimeData> mime(panel.tenantModel()->mimeData({dragSource(*panel.tenantModel(), what)}));
    QTreeView *view = panel.partitionView();
    const QRect row = view->visualRect(panel.partitionModel()->indexOfPartition(0x20));
    QVERIFY(!row.isEmpty());
    const QPoint at = row.center();
    QDragEnterEvent enter(at, Qt::CopyAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(view->viewport(), &enter);
    QDragMoveEvent move(at, Qt::CopyAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(view->viewport(), &move);
    QVERIFY(move.isAccepted());
    QDropEvent drop(at, Qt::CopyAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(view->viewport(), &drop);

    QCOMPARE(int(members(doc, 0x20).size()), expectedCount);
    QVERIFY(members(doc, 0x10).empty());
    QCOMPARE(doc.tenancy().findPartition(0x20)->members.front().membership, Membership::Full);
    doc.undoStack()->undo();
    QVERIFY(members(doc, 0x20).empty());
    doc.undoStack()->redo();
    QCOMPARE(int(members(doc, 0x20).size()), expectedCount);
    QCOMPARE(panel.partitionModel()->rowCount(panel.partitionModel()->indexOfPartition(0x20)), expectedCount);
}

void TestTenancyWidgets::dragBetweenPartitionsMoves_data()
{
    QTest::addColumn<bool>("ctrl");
    QTest::addRow("a drag moves") << false;
    QTest::addRow("a drag with Ctrl adds") << true;
}

// Members dragged from one partition onto another move there, as a file manager moves files
// between folders, in one undo step; with Ctrl (a copy) they are added and stay where they were.
void TestTenancyWidgets::dragBetweenPartitionsMoves()
{
    QFETCH(bool, ctrl);
    Lab lab;
    FabricDocument doc;
    doc.reset(lab.fabric, lab.tenancy(), QStringLiteral("lab"));
    QVERIFY(doc.createPartition(QStringLiteral("red"), 0x10).ok());
    QVERIFY(doc.createPartition(QStringLiteral("blue"), 0x20).ok());
    doc.assignPorts({lab.port("h1"), lab.port("h2")}, 0x10, Membership::Full);
    PartitionTreeModel partitions(&doc);
    QVERIFY(partitions.supportedDragActions() & Qt::MoveAction);
    const QModelIndex red = partitions.indexOfPartition(0x10);
    QCOMPARE(partitions.rowCount(red), 2);
    std::unique_ptr<QMimeData> mime(partitions.mimeData({partitions.index(0, 0, red)}));
    QVERIFY(mime);
    const int steps = doc.undoStack()->count();
    const Qt::DropAction action = ctrl ? Qt::CopyAction : Qt::MoveAction;
    QVERIFY(partitions.dropMimeData(mime.get(), action, -1, -1, partitions.indexOfPartition(0x20)));
    QCOMPARE(members(doc, 0x20).size(), std::size_t(1));
    QCOMPARE(members(doc, 0x10).size(), std::size_t(ctrl ? 2 : 1));
    QCOMPARE(doc.undoStack()->count(), steps + 1);
    if (!ctrl)
        QVERIFY2(doc.undoStack()->undoText().startsWith(QLatin1String("Move 1 host")), qPrintable(doc.undoStack()->undoText()));
    doc.undoStack()->undo();
    QCOMPARE(members(doc, 0x10).size(), std::size_t(2));
    QVERIFY(members(doc, 0x20).empty());
}

void TestTenancyWidgets::foreignDropRefused()
{
    Lab lab;
    FabricDocument doc;
    doc.reset(lab.fabric, lab.tenancy(), QStringLiteral("lab"));
    QVERIFY(doc.createPartition(QStringLiteral("chem"), 0x10).ok());
    PartitionTreeModel partitions(&doc);
    QMimeData text;
    text.setText(QStringLiteral("0x1011"));
    QVERIFY(!partitions.canDropMimeData(&text, Qt::CopyAction, -1, -1, partitions.indexOfPartition(0x10)));
    QMimeData garbled;
    garbled.setData(portsMimeType(), "0x1011\nnot-a-guid");
    QVERIFY(!partitions.dropMimeData(&garbled, Qt::CopyAction, -1, -1, partitions.indexOfPartition(0x10)));
    std::unique_ptr<QMimeData> good(makePortsMimeData({lab.port("h1")}));
    QVERIFY(!partitions.canDropMimeData(good.get(), Qt::CopyAction, 0, 0, QModelIndex()));  // between partitions
    QCOMPARE(doc.undoStack()->count(), 1);
}

void TestTenancyWidgets::createPartition_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("pkey");
    QTest::addColumn<QString>("message");  // part of the panel's message; empty = created

    QTest::addRow("good") << QStringLiteral("bio") << QStringLiteral("0x0030") << QString();
    QTest::addRow("P_Key not a number") << QStringLiteral("bio") << QStringLiteral("zz")
                                        << QStringLiteral("\"zz\" is not a P_Key");
    QTest::addRow("P_Key zero") << QStringLiteral("bio") << QStringLiteral("0") << QStringLiteral("names no partition");
    QTest::addRow("P_Key taken") << QStringLiteral("bio") << QStringLiteral("0x10")
                                 << QStringLiteral("already used by partition \"chem\"");
    QTest::addRow("P_Key too wide") << QStringLiteral("bio") << QStringLiteral("0x12345")
                                    << QStringLiteral("wider than 16 bits");
}

void TestTenancyWidgets::createPartition()
{
    QFETCH(QString, name);
    QFETCH(QString, pkey);
    QFETCH(QString, message);

    Lab lab;
    FabricDocument doc;
    doc.reset(lab.fabric, lab.tenancy(), QStringLiteral("lab"));
    PartitionPanel panel(&doc);
    QVERIFY(panel.createPartition(QStringLiteral("chem"), QStringLiteral("0x10")).ok());
    const Status created = panel.createPartition(name, pkey);
    QCOMPARE(created.ok(), message.isEmpty());
    if (message.isEmpty()) {
        QVERIFY(panel.message().isEmpty());
        QCOMPARE(panel.partitionModel()->rowCount(), 2);
    } else {
        QVERIFY2(panel.message().contains(message), qPrintable(panel.message()));
        QCOMPARE(panel.partitionModel()->rowCount(), 1);
    }
}

void TestTenancyWidgets::renameAndDelete()
{
    Lab lab;
    FabricDocument doc;
    doc.reset(lab.fabric, lab.tenancy(), QStringLiteral("lab"));
    PartitionPanel panel(&doc);
    QVERIFY(panel.createPartition(QStringLiteral("chem"), QStringLiteral("0x10")).ok());
    QVERIFY(panel.createPartition(QStringLiteral("phys"), QStringLiteral("0x20")).ok());

    panel.partitionView()->setCurrentIndex(panel.partitionModel()->indexOfPartition(0x10));
    QVERIFY(!panel.renameSelectedPartition(QStringLiteral("phys")).ok());
    QVERIFY2(panel.message().contains(QStringLiteral("already exists")), qPrintable(panel.message()));
    QVERIFY(panel.renameSelectedPartition(QStringLiteral("chemistry")).ok());
    QVERIFY(panel.message().isEmpty());
    QCOMPARE(panel.partitionModel()->data(panel.partitionModel()->indexOfPartition(0x10)).toString(),
             QStringLiteral("chemistry"));

    panel.partitionView()->setCurrentIndex(panel.partitionModel()->indexOfPartition(0x10));
    panel.deleteSelectedPartitions();
    QVERIFY(!doc.tenancy().findPartition(0x10));
    QCOMPARE(panel.partitionModel()->rowCount(), 1);
    doc.undoStack()->undo();
    QCOMPARE(panel.partitionModel()->rowCount(), 2);
    QCOMPARE(doc.tenancy().findPartition(0x10)->name, QStringLiteral("chemistry"));
}

void TestTenancyWidgets::membershipButtons()
{
    Lab lab;
    FabricDocument doc;
    doc.reset(lab.fabric, lab.tenancy(), QStringLiteral("lab"));
    PartitionPanel panel(&doc);
    QVERIFY(panel.createPartition(QStringLiteral("chem"), QStringLiteral("0x10")).ok());
    doc.assignTenant(QStringLiteral("chemistry"), 0x10, Membership::Full);
    QTreeView *view = panel.partitionView();
    const QModelIndex partition = panel.partitionModel()->indexOfPartition(0x10);
    view->expand(partition);
    view->selectionModel()->select(panel.partitionModel()->index(1, 0, partition),
                                   QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    panel.setSelectedMembership(Membership::Limited);
    QCOMPARE(doc.tenancy().findPartition(0x10)->members[1].membership, Membership::Limited);
    QCOMPARE(doc.tenancy().findPartition(0x10)->members[0].membership, Membership::Full);
    QVERIFY(view->isExpanded(panel.partitionModel()->indexOfPartition(0x10)));  // kept over the reset

    view->selectionModel()->select(panel.partitionModel()->index(0, 0, panel.partitionModel()->indexOfPartition(0x10)),
                                   QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    panel.removeSelectedMembers();
    QCOMPARE(members(doc, 0x10), std::vector<Guid>{lab.port("h2")});
    doc.undoStack()->undo();
    QCOMPARE(members(doc, 0x10).size(), std::size_t(2));
}

void TestTenancyWidgets::policyThroughEditor()
{
    Lab lab;
    FabricDocument doc;
    doc.reset(lab.fabric, lab.tenancy(), QStringLiteral("lab"));
    QVERIFY(doc.createPartition(QStringLiteral("chem"), 0x10).ok());
    PolicyEditor editor(&doc);
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));

    const QModelIndex cell = editor.model()->index(0, PolicyTableModel::PolicyColumn);
    QAbstractItemDelegate *delegate = editor.view()->itemDelegateForIndex(cell);
    std::unique_ptr<QWidget> widget(delegate->createEditor(editor.view()->viewport(), {}, cell));
    auto *combo = qobject_cast<QComboBox *>(widget.get());
    QVERIFY(combo);
    delegate->setEditorData(combo, cell);
    QCOMPARE(combo->currentData().toInt(), int(IsolationPolicy::Default));
    combo->setCurrentIndex(combo->findData(int(IsolationPolicy::VirtualLane)));
    delegate->setModelData(combo, editor.model(), cell);
    QCOMPARE(doc.tenancy().findPartition(0x10)->policy, IsolationPolicy::VirtualLane);
    QCOMPARE(cell.data().toString(), PolicyTableModel::policyText(IsolationPolicy::VirtualLane));

    QVERIFY(!editor.strictSwitch()->isChecked());
    editor.strictSwitch()->click();
    QCOMPARE(doc.tenancy().mode, PolicyMode::Strict);
    doc.undoStack()->undo();
    QVERIFY(!editor.strictSwitch()->isChecked());  // the switch follows the document
    QCOMPARE(doc.tenancy().mode, PolicyMode::BestEffort);
    QCOMPARE(doc.undoStack()->index(), 2);  // showing the undone mode pushed nothing
    doc.undoStack()->undo();
    QCOMPARE(cell.data(Qt::EditRole).toInt(), int(IsolationPolicy::Default));
}

void TestTenancyWidgets::weightThroughTable()
{
    Lab lab;
    FabricDocument doc;
    doc.reset(lab.fabric, lab.tenancy(), QStringLiteral("lab"));
    WeightTable table(&doc);
    table.show();
    QVERIFY(QTest::qWaitForWindowExposed(&table));
    QCOMPARE(table.proxy()->rowCount(), 5);

    table.proxy()->setFilterFixedString(QStringLiteral("h3"));
    QCOMPARE(table.proxy()->rowCount(), 1);
    const QModelIndex cell = table.proxy()->index(0, WeightTableModel::WeightColumn);
    QCOMPARE(cell.data(Qt::EditRole).toDouble(), 1.0);
    QAbstractItemDelegate *delegate = table.view()->itemDelegateForIndex(cell);
    std::unique_ptr<QWidget> widget(delegate->createEditor(table.view()->viewport(), {}, cell));
    auto *spin = qobject_cast<QDoubleSpinBox *>(widget.get());
    QVERIFY(spin);
    spin->setValue(2.5);
    delegate->setModelData(spin, table.proxy(), cell);
    QCOMPARE(doc.tenancy().nodeWeights.at(lab.port("h3")), 2.5);
    QCOMPARE(cell.data().toString(), QStringLiteral("2.5"));

    QVERIFY(table.proxy()->setData(cell, 4.0));  // a second edit of the same port merges
    QCOMPARE(doc.undoStack()->count(), 1);
    QVERIFY(!table.proxy()->setData(cell, 0.0));  // not a weight
    doc.undoStack()->undo();
    QVERIFY(doc.tenancy().nodeWeights.empty());
    QCOMPARE(cell.data(Qt::EditRole).toDouble(), 1.0);
}

void TestTenancyWidgets::importErrorShown()
{
    Lab lab;
    FabricDocument doc;
    doc.reset(lab.fabric, lab.tenancy(), QStringLiteral("lab"));
    WeightTable table(&doc);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("w.txt"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("h1 2\nh9 3\n");
    file.close();
    QVERIFY(!table.importWeights(path).ok());
    QVERIFY2(table.message().startsWith(path + QStringLiteral(":2: ")), qPrintable(table.message()));
    QVERIFY(table.message().contains(QStringLiteral("h9")));

    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write("h1 2\nh5 3\n");
    file.close();
    QVERIFY(table.importWeights(path).ok());
    QVERIFY(table.message().isEmpty());
    const QModelIndex h5 = table.model()->indexOfPort(lab.port("h5"), WeightTableModel::WeightColumn);
    QCOMPARE(h5.data(Qt::EditRole).toDouble(), 3.0);
}

// Grabs of the three widgets with content, for review; saved when WEFT_SCREENSHOT_DIR is set.
void TestTenancyWidgets::screenshots()
{
    Lab lab;
    FabricDocument doc;
    doc.reset(lab.fabric, lab.tenancy(), QStringLiteral("lab"));
    PartitionPanel panel(&doc);
    QVERIFY(panel.createPartition(QStringLiteral("chemistry"), QStringLiteral("0x0010")).ok());
    QVERIFY(panel.createPartition(QStringLiteral("physics"), QStringLiteral("0x0020")).ok());
    doc.assignTenant(QStringLiteral("chemistry"), 0x10, Membership::Full);
    doc.assignPorts({lab.port("h3"), lab.port("h5")}, 0x20, Membership::Limited);
    doc.setPolicy(0x20, IsolationPolicy::Physical);
    doc.setNodeWeight(lab.port("h2"), 2.5);
    panel.partitionView()->expandAll();
    panel.tenantView()->expandAll();
    QVERIFY(!panel.createPartition(QStringLiteral("bio"), QStringLiteral("0x10")).ok());
    PolicyEditor policies(&doc);
    WeightTable weights(&doc);

    const QString dir = qEnvironmentVariable("WEFT_SCREENSHOT_DIR");
    const std::pair<QWidget *, const char *> shots[] = {
        {&panel, "partition-panel.png"}, {&policies, "policy-editor.png"}, {&weights, "weight-table.png"}};
    for (const auto &[widget, file] : shots) {
        widget->resize(560, 480);
        widget->show();
        QVERIFY(QTest::qWaitForWindowExposed(widget));
        const QPixmap shot = widget->grab();
        QCOMPARE(shot.size(), widget->size());
        if (!dir.isEmpty())
            QVERIFY(shot.save(dir + QLatin1Char('/') + QLatin1String(file)));
    }
}

QTEST_MAIN(TestTenancyWidgets)
#include "tst_tenancy_widgets.moc"
