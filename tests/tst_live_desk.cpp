// The desk's live side without a fabric: the partitions a discovery's P_Key tables amount to,
// and what a rediscovery's changes do to the desk (the map marks the cables, the Fabric Changes
// dock lists them and selects on the map, every proposal turns stale and Approve refuses it).
// The same through the real discovery against ibsim: tst_lab_desk.

#include "DiffReview.h"
#include "FabricChanges.h"
#include "FabricChangesPanel.h"
#include "FabricDocument.h"
#include "FabricScene.h"
#include "LiveState.h"
#include "PKeyTables.h"
#include "MainWindow.h"
#include "RoutingPreview.h"
#include "FabricSession.h"
#include "Screenshots.h"
#include "TopologyFile.h"

#include <QAction>
#include <QDockWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTreeWidget>

using namespace weft;

namespace {

QByteArray fixtureText()
{
    QFile file(QFINDTESTDATA("data/topology/ibnetdiscover-2sw4hca.txt"));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read the fixture");
    return file.readAll();
}

Fabric readFabric(const QByteArray &text)
{
    Result<Fabric> fabric = readTopology(text, QStringLiteral("fixture"));
    if (!fabric)
        qFatal("cannot read the fixture: %s", qPrintable(fabric.error().toString()));
    return std::move(fabric).value();
}

// The fixture with the second cable between the two switches (port 5 to port 5) unplugged.
Fabric withoutSwitchCable()
{
    QByteArray text;
    for (const QByteArray &line : fixtureText().split('\n'))
        if (!line.startsWith("[5]"))
            text += line + '\n';
    return readFabric(text);
}

PortIndex hostPort(const Fabric &fabric, Guid nodeGuid)
{
    return fabric.portOf(fabric.nodeByGuid(nodeGuid), 1);
}

}  // namespace

class TestLiveDesk : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("WeftTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_live_desk"));
        QSettings().clear();
        qunsetenv("WEFT_LAB_DIR");
    }

    void partitionsHeldFollowTheTables()
    {
        const Fabric fabric = readFabric(fixtureText());
        const PortIndex hca1 = hostPort(fabric, 0x100000);
        const PortIndex hca2 = hostPort(fabric, 0x100003);
        const PortIndex hca3 = hostPort(fabric, 0x100006);
        const PortIndex switchFacingHca1 = fabric.port(hca1).remote;
        QVERIFY(hca1 != kNoIndex && hca2 != kNoIndex && hca3 != kNoIndex && switchFacingHca1 != kNoIndex);
        std::vector<std::uint16_t> block(kPKeyBlockSize, 0);
        const auto table = [&block](PortIndex port, std::vector<std::uint16_t> entries, bool packed = false) {
            std::vector<std::uint16_t> all = block;
            std::copy(entries.begin(), entries.end(), all.begin());
            return PortPKeyTable{port, all, packed};
        };
        // HCA1 is the SM's port (full Default); P_Key 1 full on HCA1, limited on HCA2; the
        // switch port facing HCA1 mirrors it (and says 0x0005 too: it must be ignored).
        PKeyTables pkeys = PKeyTables::fromPorts({table(hca1, {0xffff, 0x8001}), table(hca2, {0x7fff, 0x0001}),
                                                  table(hca3, {0x7fff}), table(switchFacingHca1, {0xffff, 0x8001, 0x8005}, true)});
        std::vector<Partition> held = partitionsHeld(fabric, pkeys);
        QCOMPARE(held.size(), std::size_t(1));  // Default as OpenSM adds it on its own is left out
        QCOMPARE(*held[0].pkey, std::uint16_t(0x0001));
        QCOMPARE(held[0].name, QStringLiteral("pkey-0x0001"));
        QCOMPARE(held[0].members.size(), std::size_t(2));
        std::map<Guid, Membership> members;
        for (const PartitionMember &m : held[0].members)
            members[m.guid] = m.membership;
        QCOMPARE(members.at(fabric.port(hca1).guid), Membership::Full);
        QCOMPARE(members.at(fabric.port(hca2).guid), Membership::Limited);

        // Named as the partitions.conf OpenSM was given names them.
        Partition named;
        named.name = QStringLiteral("tenant-red");
        named.pkey = 0x0001;
        nameAfter(held, {named});
        QCOMPARE(held[0].name, QStringLiteral("tenant-red"));

        // Default with full members beyond the SM's port is the operator's: kept.
        pkeys = PKeyTables::fromPorts({table(hca1, {0xffff}), table(hca2, {0xffff}), table(hca3, {0x7fff})});
        held = partitionsHeld(fabric, pkeys);
        QCOMPARE(held.size(), std::size_t(1));
        QCOMPARE(*held[0].pkey, kDefaultPKey);
        QCOMPARE(held[0].members.size(), std::size_t(3));
    }

    void changesNameTheirEnds()
    {
        const FabricChanges changes = compareFabrics(readFabric(fixtureText()), withoutSwitchCable());
        QCOMPARE(changes.linksGone.size(), 1);
        QCOMPARE(changes.linksGoneEnds.size(), std::size_t(1));
        const FabricChanges::LinkEnds &gone = changes.linksGoneEnds.front();
        QCOMPARE(gone.nodeA, Guid(0x200000));
        QCOMPARE(gone.portA, 5);
        QCOMPARE(gone.nodeB, Guid(0x200001));
        QCOMPARE(gone.portB, 5);
        QVERIFY(changes.linksNewEnds.empty() && changes.nodesGoneGuids.empty() && changes.lidsChangedGuids.empty());
        // And the other way round: a new cable.
        const FabricChanges back = compareFabrics(withoutSwitchCable(), readFabric(fixtureText()));
        QCOMPARE(back.linksNewEnds.size(), std::size_t(1));
        QCOMPARE(back.linksNewEnds.front().portB, 5);
    }

    void rediscoveredChangesAreMarkedListedAndMakeTheProposalStale()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.showFabric(readFabric(fixtureText()), Tenancy{}, QStringLiteral("fixture"));
        QVERIFY(waitForScene(window, 30000));
        QVERIFY(runPreviewAndWait(window, QStringLiteral("minhop"), 60000));
        FabricDocument *document = window.document();
        QVERIFY(document->session()->proposal());
        QVERIFY(!document->session()->isProposalStale());
        QVERIFY(document->session()->commitRefusal().isEmpty());
        auto *approve = window.diffReview()->findChild<QPushButton *>(QStringLiteral("approveButton"));
        QVERIFY(approve && approve->isEnabled());

        // What the session does with a rediscovery's result.
        LiveState rediscovered;
        rediscovered.fabric = std::make_shared<const Fabric>(withoutSwitchCable());
        document->session()->takeRediscovered(rediscovered);
        FabricScene *scene = window.fabricScene();
        QCOMPARE(scene->cablesMarkedGone(), std::size_t(1));
        QCOMPARE(scene->cablesMarkedNew(), std::size_t(0));
        QVERIFY(document->session()->isProposalStale());
        const QString refusal = document->session()->commitRefusal();
        QVERIFY2(refusal.contains(QLatin1String("links gone: 1")), qPrintable(refusal));
        QVERIFY(!approve->isEnabled());
        QVERIFY2(window.routingPreview()->statusText().contains(refusal), qPrintable(window.routingPreview()->statusText()));
        window.diffReview()->approve();  // as the menu's Approve… would
        auto *report = window.diffReview()->findChild<QPlainTextEdit *>(QStringLiteral("commitReport"));
        QVERIFY(report);
        QVERIFY2(report->toPlainText().startsWith(QLatin1String("Approve refused: The fabric changed")), qPrintable(report->toPlainText()));

        // The list: one link gone; choosing it selects both switches on the map.
        FabricChangesPanel *panel = window.fabricChangesPanel();
        QCOMPARE(panel->changeCount(), 1);
        QTreeWidgetItem *row = panel->tree()->topLevelItem(0)->child(0);
        QVERIFY(row->text(0).contains(QLatin1String("0x0000000000200000[5]")));
        panel->tree()->setCurrentItem(row);
        std::vector<NodeIndex> selected = scene->selectedNodes();
        std::sort(selected.begin(), selected.end());
        const Fabric &fabric = *window.fabric();
        std::vector<NodeIndex> expected{fabric.nodeByGuid(0x200000), fabric.nodeByGuid(0x200001)};
        std::sort(expected.begin(), expected.end());
        QCOMPARE(selected, expected);

        // A new discovery replaces the fabric: no marks, nothing stale.
        window.showFabric(withoutSwitchCable(), Tenancy{}, QStringLiteral("rediscovered"));
        QVERIFY(waitForScene(window, 30000));
        QVERIFY(document->session()->liveChanges().empty());
        QCOMPARE(scene->cablesMarkedGone(), std::size_t(0));
        QCOMPARE(panel->changeCount(), 0);
        QVERIFY(!document->session()->proposal());
        QVERIFY(document->session()->staleReason().isEmpty());
    }

    void discoveryWithoutAnAdapterChangesNothing()
    {
        // No ibsim here: the discovery fails, says why, and the fabric shown stays.
        MainWindow window;
        window.showFabric(readFabric(fixtureText()), Tenancy{}, QStringLiteral("fixture"));
        QVERIFY(waitForScene(window, 30000));
        const std::shared_ptr<const Fabric> before = window.document()->fabric();
        QSignalSpy finished(&window, &MainWindow::discoveryFinished);
        QVERIFY(window.startDiscovery(QStringLiteral("no-such-adapter"), 0, false));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        const QString error = finished.at(0).at(1).toString();
        QVERIFY2(error.contains(QLatin1String("adapter")) || error.contains(QLatin1String("umad")), qPrintable(error));
        QCOMPARE(window.document()->fabric(), before);
        QVERIFY(window.discoverAction()->isEnabled());
        QVERIFY(window.rediscoverAction()->isEnabled());
    }
};

QTEST_MAIN(TestLiveDesk)
#include "tst_live_desk.moc"
