// The Health dock (views/live/HealthDock.h) in the desk, offline: a generated fabric checked
// against a cabling list whose one host cable is at another port of its leaf and whose one extra
// switch cable the fabric lacks. Check lists the miswiring and the missing cable as errors, with
// the findings `weft check`'s core gives on the same inputs; the map marks the miswired cable
// orange and the missing one red; choosing a finding selects its nodes; another fabric clears it.

#include "FabricCheck.h"
#include "FabricDesign.h"
#include "FabricScene.h"
#include "GeneratedFabrics.h"
#include "HealthDock.h"
#include "MainWindow.h"
#include "SafeFile.h"
#include "SceneReady.h"

#include <QDockWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

using namespace weft;

namespace {

// The fabric's cables as a cabling list by GUID, with the first host cable moved to the last
// free port of its switch and a cable added between two switches at free ports.
struct DesignCase
{
    QByteArray csv;
    Guid movedSwitch = 0;
    int designPort = 0;  // where the design has the host's cable
    int fabricPort = 0;  // where the fabric has it
    Guid missingA = 0, missingB = 0;
};

DesignCase designWithAMovedCable(const Fabric &fabric)
{
    DesignCase c;
    FabricDesign design = designOfFabric(fabric);
    auto freePort = [&fabric](Guid guid) {
        const NodeIndex node = fabric.nodeByGuid(guid);
        for (int p = fabric.node(node).portCount; p >= 1; --p)
            if (fabric.port(fabric.portOf(node, p)).remote == kNoIndex)
                return p;
        return 0;
    };
    auto isSwitch = [&fabric](Guid guid) { return fabric.node(fabric.nodeByGuid(guid)).type == NodeType::Switch; };
    for (DesignCable &cable : design.cables)
        if (!c.movedSwitch && isSwitch(cable.a.guid) && !isSwitch(cable.b.guid)) {
            c.movedSwitch = cable.a.guid;
            c.fabricPort = cable.a.port;
            c.designPort = cable.a.port = freePort(cable.a.guid);
        }
    std::vector<DesignCable> added;
    for (const DesignCable &cable : design.cables) {
        // Away from the moved cable's switch, whose free port the design now uses.
        if (c.missingA || !isSwitch(cable.a.guid) || !isSwitch(cable.b.guid) || cable.a.guid == c.movedSwitch
            || cable.b.guid == c.movedSwitch || !freePort(cable.a.guid) || !freePort(cable.b.guid))
            continue;
        DesignCable extra = cable;
        extra.a.port = freePort(cable.a.guid);
        extra.b.port = freePort(cable.b.guid);
        c.missingA = cable.a.guid;
        c.missingB = cable.b.guid;
        added.push_back(extra);
    }
    design.cables.insert(design.cables.end(), added.begin(), added.end());
    c.csv = "start device,start port,end device,end port\n";
    for (const DesignCable &cable : design.cables)
        c.csv += QStringLiteral("%1,%2,%3,%4\n").arg(guidText(cable.a.guid)).arg(cable.a.port).arg(guidText(cable.b.guid)).arg(cable.b.port).toUtf8();
    return c;
}

QStringList childTexts(const QTreeWidgetItem *top, int column)
{
    QStringList texts;
    for (int i = 0; i < top->childCount(); ++i)
        texts << top->child(i)->text(column);
    return texts;
}

}  // namespace

class TestHealthDock : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void checkListsAndMarksAMovedAndAMissingCable()
    {
        // 2-ary 2-tree on 6-port switches: free ports for the moved and the missing cable.
        GeneratorOptions options = test::shapeOptions({FabricShapeKind::KaryNTree, 2, 2, 0}, 0);
        options.switchPorts = 6;
        const Fabric fabric = test::generateOrFail(options).fabric;
        const DesignCase design = designWithAMovedCable(fabric);
        QVERIFY(design.movedSwitch && design.designPort && design.missingA);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("cabling.csv"));
        QVERIFY(writeFileAtomically(path, design.csv, false).ok());

        MainWindow window;
        window.showFabric(fabric, Tenancy{}, QStringLiteral("tree"));
        QVERIFY(test::waitForScene(window));
        HealthDock *health = window.healthDock();
        QVERIFY(health && window.healthDockWidget());
        QCOMPARE(window.healthDockWidget()->widget(), health);
        QVERIFY(!health->report());

        health->setDesignFile(path);
        QSignalSpy checked(health, &HealthDock::checked);
        health->checkButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(checked.count(), 1, 20000);
        QCOMPARE(checked.first().first().toString(), QString());
        QVERIFY(health->report());

        // The findings are core's on the same inputs, listed under Errors.
        Result<FabricDesign> read = readDesignFile(path);
        QVERIFY(read);
        const FabricCheckReport expected = checkHeldFabric(fabric, HeldFabricCheck{QStringLiteral("offline"), nullptr, nullptr, &*read});
        QCOMPARE(health->report()->findings.size(), expected.findings.size());
        QTreeWidget *tree = health->tree();
        QCOMPARE(tree->topLevelItemCount(), 1);
        QCOMPARE(tree->topLevelItem(0)->text(0), QStringLiteral("Errors (2)"));
        QStringList kinds = childTexts(tree->topLevelItem(0), 0);
        kinds.sort();
        QCOMPARE(kinds, (QStringList{QStringLiteral("missing-cable"), QStringLiteral("miswired-cable")}));
        const QString movedName = displayName(fabric.node(fabric.nodeByGuid(design.movedSwitch)));
        const QString messages = childTexts(tree->topLevelItem(0), 1).join(QLatin1Char('\n'));
        QVERIFY2(messages.contains(QStringLiteral("the fabric has %1[%2]").arg(movedName).arg(design.fabricPort)), qPrintable(messages));
        QVERIFY2(health->summaryText().startsWith(QStringLiteral("2 error(s), 0 warning(s)")), qPrintable(health->summaryText()));

        // On the map: the fabric's misplaced cable orange, the missing one red between its switches.
        const NodeIndex movedSwitch = fabric.nodeByGuid(design.movedSwitch);
        const LinkIndex misplaced = fabric.port(fabric.portOf(movedSwitch, design.fabricPort)).link;
        QCOMPARE(health->marks().miswired, std::vector<LinkIndex>{misplaced});
        const NodeIndex a = fabric.nodeByGuid(design.missingA), b = fabric.nodeByGuid(design.missingB);
        QCOMPARE(health->marks().missing.size(), std::size_t(1));
        QVERIFY(health->marks().missing.front() == std::pair(std::min(a, b), std::max(a, b)));
        QCOMPARE(window.fabricScene()->healthMarkCount(), std::size_t(2));

        // Choosing the miswiring selects its switch and host on the map.
        for (int i = 0; i < tree->topLevelItem(0)->childCount(); ++i)
            if (tree->topLevelItem(0)->child(i)->text(0) == QLatin1String("miswired-cable"))
                tree->setCurrentItem(tree->topLevelItem(0)->child(i));
        const std::vector<NodeIndex> selected = window.fabricScene()->selectedNodes();
        QVERIFY(std::find(selected.begin(), selected.end(), movedSwitch) != selected.end());

        // Another fabric: the findings and the marks are gone.
        window.showFabric(fabric, Tenancy{}, QStringLiteral("again"));
        QVERIFY(test::waitForScene(window));
        QVERIFY(!health->report());
        QCOMPARE(health->tree()->topLevelItemCount(), 0);
        QCOMPARE(window.fabricScene()->healthMarkCount(), std::size_t(0));
    }

    // A design that does not parse: the check says where, and nothing is listed.
    void badDesignNamesTheLine()
    {
        const Fabric fabric = test::generateOrFail(test::shapeOptions({FabricShapeKind::KaryNTree, 2, 2, 0}, 0)).fabric;
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.csv"));
        QVERIFY(writeFileAtomically(path, "start device,start port,end device,end port\nleaf,1,spine\n", false).ok());
        MainWindow window;
        window.showFabric(fabric, Tenancy{}, QStringLiteral("tree"));
        QVERIFY(test::waitForScene(window));
        HealthDock *health = window.healthDock();
        health->setDesignFile(path);
        QSignalSpy checked(health, &HealthDock::checked);
        health->check();
        QTRY_COMPARE_WITH_TIMEOUT(checked.count(), 1, 20000);
        const QString error = checked.first().first().toString();
        QVERIFY2(error.contains(QStringLiteral("bad.csv:2")), qPrintable(error));
        QCOMPARE(health->summaryText(), error);
        QVERIFY(!health->report());
    }
};

QTEST_MAIN(TestHealthDock)
#include "tst_health_dock.moc"
