// The LFT inspector marks exactly the blocks the diff sends and exactly the entries that change,
// switch by switch; Trace path walks the same hops as RouteWalk, through the LFT entries.

#include "DiffReview.h"
#include "FabricDocument.h"
#include "FabricScene.h"
#include "FabricView.h"
#include "MainWindow.h"
#include "Screenshots.h"
#include "GeneratedFabrics.h"
#include "LftInspector.h"
#include "PathTrace.h"
#include "ReconfigurationDiff.h"
#include "RouteWalk.h"
#include "RoutingEngine.h"
#include "FabricSession.h"

#include <QAbstractItemModelTester>
#include <QDockWidget>
#include <QMenu>
#include <QStandardPaths>
#include <QTableWidget>
#include <QtTest>

using namespace weft;

namespace {

Fabric makeFabric()
{
    // 64 hosts and 48 switches: LIDs up to 112, so two blocks.
    return test::generate({FabricShapeKind::KaryNTree, 4, 3}).fabric;
}

ForwardingTables route(const Fabric &fabric, const QString &engine)
{
    Result<Routing> routing = routeFabric(engine, fabric, Tenancy{});
    if (!routing)
        qFatal("%s: %s", qPrintable(engine), qPrintable(routing.error().toString()));
    return std::move(routing)->tables;
}

// The proposed tables: `current` with a few entries moved to another port on three switches,
// on both sides of the block 0/1 boundary (LIDs 63 and 64) and at the last LID.
ForwardingTables handEdited(const Fabric &fabric, const ForwardingTables &current, std::vector<Guid> *edited)
{
    ForwardingTables proposed = current;
    int done = 0;
    for (std::size_t i = 0; i < proposed.size() && done < 3; ++i) {
        const NodeIndex node = fabric.nodeByGuid(proposed.at(i).guid);
        if (i % 7 != 0)
            continue;
        const int ports = fabric.node(node).portCount;
        for (Lid lid : {Lid(63), Lid(64), fabric.maxLid()}) {
            const std::uint8_t port = proposed.at(i).lft.port(lid);
            proposed.lft(i).setPort(lid, std::uint8_t(port % ports + 1));  // another port, never the same
        }
        edited->push_back(proposed.at(i).guid);
        ++done;
    }
    return proposed;
}

std::vector<Lid> changedLids(const Fabric &fabric, const ForwardingTables &a, const ForwardingTables &b, Guid guid)
{
    static const LinearForwardingTable empty;
    const SwitchForwardingTable *x = a.find(guid);
    const SwitchForwardingTable *y = b.find(guid);
    std::vector<Lid> lids;
    for (int lid = 1; lid <= fabric.maxLid(); ++lid)
        if ((x ? x->lft : empty).port(Lid(lid)) != (y ? y->lft : empty).port(Lid(lid)))
            lids.push_back(Lid(lid));
    return lids;
}

const SwitchLftChange *changeOf(const ReconfigurationDiff &diff, Guid guid)
{
    for (const SwitchLftChange &c : diff.switches)
        if (c.guid == guid)
            return &c;
    return nullptr;
}

// What the table draws for every row agrees with the marks the inspector reports.
void compareRendering(const LftInspector &inspector, const std::vector<int> &blocks, const std::vector<Lid> &lids)
{
    const LftTableModel *model = inspector.model();
    std::vector<int> sentRows;
    std::vector<Lid> changedRows;
    for (int row = 0; row < model->rowCount(); ++row) {
        const Lid lid = Lid(model->data(model->index(row, LftTableModel::LidColumn), LftTableModel::LidRole).toInt());
        const QVariant background = model->data(model->index(row, LftTableModel::ProposedPortColumn), Qt::BackgroundRole);
        const bool changed = background.value<QColor>() == LftTableModel::changedColour();
        QCOMPARE(model->data(model->index(row, 0), LftTableModel::ChangedRole).toBool(), changed);
        if (changed)
            changedRows.push_back(lid);
        const QVariant blockColour = model->data(model->index(row, LftTableModel::BlockColumn), Qt::BackgroundRole);
        if (blockColour.value<QColor>() == LftTableModel::sentBlockColour()
            && (sentRows.empty() || sentRows.back() != lid / kLftBlockSize))
            sentRows.push_back(lid / kLftBlockSize);
    }
    QCOMPARE(sentRows, blocks);
    QCOMPARE(changedRows, lids);
}

}  // namespace

class TestLftInspector : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void marksExactlyTheDiff_data()
    {
        QTest::addColumn<QString>("change");
        QTest::addRow("minhop to ftree") << QStringLiteral("ftree");
        QTest::addRow("hand-edited entries across a block boundary") << QStringLiteral("edited");
    }

    void marksExactlyTheDiff()
    {
        QFETCH(QString, change);
        const auto fabric = std::make_shared<const Fabric>(makeFabric());
        QVERIFY(fabric->maxLid() > kLftBlockSize);
        const auto current = std::make_shared<const ForwardingTables>(route(*fabric, QStringLiteral("minhop")));
        std::vector<Guid> edited;
        const auto proposed = std::make_shared<const ForwardingTables>(
            change == QLatin1String("edited") ? handEdited(*fabric, *current, &edited) : route(*fabric, change));
        const ReconfigurationDiff diff = diffForwardingTables(*current, *proposed, fabric.get());
        QVERIFY(!diff.switches.empty());
        if (!edited.empty()) {
            // Known in advance: the edited switches and blocks 0 and 1, nothing else.
            QCOMPARE(diff.switches.size(), edited.size());
            for (const SwitchLftChange &c : diff.switches)
                QCOMPARE(c.changedBlocks, (std::vector<int>{0, 1}));
        }

        LftInspector inspector;
        QAbstractItemModelTester tester(inspector.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        inspector.setTables(fabric, current, proposed);
        int switchesWithChanges = 0;
        for (NodeIndex node : fabric->switches()) {
            const Guid guid = fabric->node(node).guid;
            QVERIFY(inspector.showSwitch(node));
            QCOMPARE(inspector.currentSwitch(), node);
            const SwitchLftChange *c = changeOf(diff, guid);
            const std::vector<int> blocks = c ? c->changedBlocks : std::vector<int>();
            const std::vector<Lid> lids = changedLids(*fabric, *current, *proposed, guid);
            QCOMPARE(inspector.highlightedBlocks(), blocks);
            QCOMPARE(inspector.highlightedLids(), lids);
            QCOMPARE(int(lids.size()), c ? c->changedEntries : 0);
            compareRendering(inspector, blocks, lids);
            if (QTest::currentTestFailed())
                return;
            switchesWithChanges += c != nullptr;
        }
        QCOMPARE(switchesWithChanges, int(diff.switches.size()));
        if (!edited.empty()) {
            QVERIFY(inspector.showSwitch(edited.front()));
            QCOMPARE(inspector.highlightedLids(), (std::vector<Lid>{63, 64, fabric->maxLid()}));
        }
    }

    void filterAndJump()
    {
        const auto fabric = std::make_shared<const Fabric>(makeFabric());
        const auto current = std::make_shared<const ForwardingTables>(route(*fabric, QStringLiteral("minhop")));
        std::vector<Guid> edited;
        const auto proposed = std::make_shared<const ForwardingTables>(handEdited(*fabric, *current, &edited));
        LftInspector inspector;
        QAbstractItemModelTester tester(inspector.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        inspector.setTables(fabric, current, proposed);
        QVERIFY(inspector.showSwitch(edited.front()));
        QCOMPARE(inspector.model()->rowCount(), int(fabric->maxLid()));
        // Blocks 0 and 1: LIDs 1..63 and 64..maxLid.
        inspector.setOnlyChangedBlocks(true);
        QCOMPARE(inspector.model()->rowCount(), int(fabric->maxLid()));
        // A switch without changes shows nothing under the filter.
        NodeIndex unchanged = kNoIndex;
        for (NodeIndex n : fabric->switches())
            if (std::find(edited.begin(), edited.end(), fabric->node(n).guid) == edited.end())
                unchanged = n;
        QVERIFY(inspector.showSwitch(unchanged));
        QCOMPARE(inspector.model()->rowCount(), 0);
        QVERIFY(inspector.highlightedBlocks().empty());
        // Jumping to a LID the filter hides turns it off.
        QVERIFY(inspector.jumpToLid(5));
        QVERIFY(!inspector.model()->onlyChangedBlocks());
        QCOMPARE(inspector.tableView()->currentIndex().row(), 4);
        QVERIFY(!inspector.jumpToLid(Lid(fabric->maxLid() + 1)));
        // The neighbour of a port is named: the first hop of a LID's route.
        const Lid lid = 5;
        const SwitchForwardingTable *table = current->find(fabric->node(unchanged).guid);
        const std::uint8_t port = table->lft.port(lid);
        QVERIFY(port != kNoRoute && port != 0);
        const Port &remote = fabric->port(fabric->port(fabric->portOf(unchanged, port)).remote);
        const QString neighbour = inspector.model()->data(inspector.model()->index(lid - 1, LftTableModel::CurrentNeighbourColumn)).toString();
        QCOMPARE(neighbour, QStringLiteral("%1 [%2]").arg(studioNodeName(fabric->node(remote.node))).arg(remote.number));
    }

    // Following the document: the proposal's blocks are the plan's (what the Diff Review shows).
    void followsTheDocument()
    {
        const auto fabric = std::make_shared<const Fabric>(makeFabric());
        FabricDocument document;
        document.reset(fabric, {}, QStringLiteral("test"));
        LftInspector inspector;
        inspector.setDocument(&document);
        const auto current = std::make_shared<const ForwardingTables>(route(*fabric, QStringLiteral("minhop")));
        document.session()->setCurrentTables(current, QStringLiteral("minhop.lfts"));
        QVERIFY(inspector.highlightedBlocks().empty());
        PreviewResult proposal;
        proposal.proposed.tables = std::make_shared<const ForwardingTables>(route(*fabric, QStringLiteral("ftree")));
        document.session()->setProposal(proposal);
        QVERIFY(document.session()->plan());
        const ReconfigurationDiff &planned = document.session()->plan()->review.diff;
        QVERIFY(!planned.switches.empty());
        for (const SwitchLftChange &c : planned.switches) {
            QVERIFY(inspector.showSwitch(c.guid));
            QCOMPARE(inspector.highlightedBlocks(), c.changedBlocks);
            QCOMPARE(qsizetype(inspector.highlightedLids().size()), qsizetype(c.changedEntries));
        }
        document.session()->clearProposal();
        QVERIFY(inspector.highlightedBlocks().empty());
    }

    void traceFollowsTheTables()
    {
        const auto fabric = std::make_shared<const Fabric>(makeFabric());
        const auto current = std::make_shared<const ForwardingTables>(route(*fabric, QStringLiteral("minhop")));
        const auto proposed = std::make_shared<const ForwardingTables>(route(*fabric, QStringLiteral("ftree")));
        PathTrace trace;
        trace.setTables(fabric, current, proposed);
        QSignalSpy traced(&trace, &PathTrace::traced);
        const std::vector<NodeIndex> &hosts = fabric->endNodes();
        int differing = 0;
        for (int a = 0; a < int(hosts.size()); a += 5)
            for (int b = int(hosts.size()) - 1; b > a; b -= 7) {
                QVERIFY(trace.trace(hosts[std::size_t(a)], hosts[std::size_t(b)]));
                const Lid lid = fabric->nodeLid(hosts[std::size_t(b)]);
                for (const auto &[tables, path, table] :
                     {std::tuple{current, &trace.currentPath(), trace.currentTable()},
                      std::tuple{proposed, &trace.proposedPath(), trace.proposedTable()}}) {
                    // RouteWalk's own hops, from the host's port.
                    std::vector<RouteHop> walked;
                    walkRouteFromPort(*fabric, TablesByNode(*fabric, *tables), fabric->portOf(hosts[std::size_t(a)], 1), lid,
                                      [&](const RouteHop &hop) {
                                          walked.push_back(hop);
                                          return hop.next != hosts[std::size_t(b)];
                                      });
                    QVERIFY(path->arrived);
                    QCOMPARE(path->hops.size(), walked.size());
                    QCOMPARE(table->rowCount(), int(walked.size()));
                    for (std::size_t i = 0; i < walked.size(); ++i) {
                        QCOMPARE(path->hops[i].from, walked[i].from);
                        QCOMPARE(path->hops[i].out, walked[i].out);
                        const int outNumber = fabric->port(walked[i].out).number;
                        QCOMPARE(table->item(int(i), PathTrace::OutPortColumn)->text(), QString::number(outNumber));
                        if (i > 0) {  // a switch: the out port is its LFT entry, in block lid/64
                            const SwitchForwardingTable *sw = tables->find(fabric->node(walked[i].from).guid);
                            QCOMPARE(int(sw->lft.port(lid)), outNumber);
                            QCOMPARE(table->item(int(i), PathTrace::BlockColumn)->text(), QString::number(lid / kLftBlockSize));
                            QCOMPARE(table->item(int(i), PathTrace::InPortColumn)->text(),
                                     QString::number(fabric->port(walked[i - 1].remote).number));
                        }
                    }
                }
                // The highlighted hops are exactly those where the routes part.
                const std::vector<int> hops = trace.differingHops();
                for (int i = 0; i < trace.currentTable()->rowCount(); ++i) {
                    const bool marked = trace.currentTable()->item(i, PathTrace::NodeColumn)->background().color()
                        == PathTrace::differenceColour();
                    QCOMPARE(marked, std::find(hops.begin(), hops.end(), i) != hops.end());
                }
                differing += !hops.empty();
                if (QTest::currentTestFailed())
                    return;
            }
        QVERIFY(differing > 0);       // minhop and ftree part somewhere
        QCOMPARE(traced.count(), 0);  // tracing alone does not touch the map
        trace.showOnMap();
        QCOMPARE(traced.count(), 1);
        QCOMPARE(traced.last().at(2).value<std::vector<PortIndex>>(), trace.currentPath().outPorts());
        QCOMPARE(traced.last().at(3).value<std::vector<PortIndex>>(), trace.proposedPath().outPorts());
    }

    void traceShowsABrokenRoute()
    {
        // The proposed tables lose the destination's entry at the first switch: the walk stops there.
        const auto fabric = std::make_shared<const Fabric>(makeFabric());
        const ForwardingTables tables = route(*fabric, QStringLiteral("ftree"));
        const NodeIndex from = fabric->endNodes().front();
        const NodeIndex to = fabric->endNodes().back();
        const Lid lid = fabric->nodeLid(to);
        ForwardingTables broken = tables;
        const NodeIndex leaf = fabric->port(fabric->port(fabric->portOf(from, 1)).remote).node;
        broken.lft(std::size_t(broken.indexOf(fabric->node(leaf).guid))).clear(lid);
        PathTrace trace;
        trace.setTables(fabric, std::make_shared<const ForwardingTables>(tables), std::make_shared<const ForwardingTables>(broken));
        QVERIFY(trace.trace(from, to));
        QVERIFY(trace.currentPath().arrived);
        QVERIFY(!trace.proposedPath().arrived);
        QCOMPARE(trace.proposedPath().end, RouteEnd::NoRoute);
        QCOMPARE(trace.proposedPath().hops.size(), std::size_t(1));
        QCOMPARE(trace.differingHops().front(), 1);
        QVERIFY(!trace.trace(from, leaf));  // a switch is no host
    }

    // The desk: a Diff Review row's double-click and the map's "Inspect LFT" open the switch;
    // two hosts selected on the map are traced, and "Show on map" highlights both routes.
    void deskOpensTheInspectorAndTraces()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("weft-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_lft_inspector"));
        QStandardPaths::setTestModeEnabled(true);
        MainWindow window;
        QString error;
        QVERIFY2(window.loadDemoFabric(&error), qPrintable(error));
        QVERIFY(waitForScene(window, 60000));
        QVERIFY(runPreviewAndWait(window, QStringLiteral("ftree"), 60000));
        window.resize(1400, 900);
        window.fabricView()->fitToWindow();
        const Fabric &fabric = *window.fabric();
        LftInspector *inspector = window.lftInspector();
        QVERIFY(inspector && window.lftInspectorDock());
        QCOMPARE(window.lftInspectorDock()->objectName(), QStringLiteral("lftInspector"));

        QTableWidget *switches = window.diffReview()->switchTable();
        QVERIFY(switches->rowCount() > 1);
        for (int row : {switches->rowCount() - 1, 0}) {
            const Guid guid = switches->item(row, DiffReview::SwitchColumn)->data(Qt::UserRole).toULongLong();
            Q_EMIT switches->cellDoubleClicked(row, DiffReview::SwitchColumn);
            QCOMPARE(inspector->currentSwitch(), fabric.nodeByGuid(guid));
            QVERIFY(window.lftInspectorDock()->isVisibleTo(&window));
            const ReconfigurationDiff &diff = window.diffReview()->diff();
            const auto c = std::find_if(diff.switches.begin(), diff.switches.end(), [&](const SwitchLftChange &s) { return s.guid == guid; });
            QVERIFY(c != diff.switches.end());
            QCOMPARE(inspector->highlightedBlocks(), c->changedBlocks);
            QCOMPARE(qsizetype(inspector->highlightedLids().size()), qsizetype(c->changedEntries));
        }

        const NodeIndex sw = fabric.switches().back();
        window.fabricView()->focusNode(sw);
        const QPoint at = window.fabricView()->mapFromScene(window.fabricScene()->layout().nodeRect(fabric, sw).center());
        std::unique_ptr<QMenu> menu(window.fabricView()->whatIfMenuAt(at, nullptr));
        QVERIFY(menu);
        auto *inspect = menu->findChild<QAction *>(QStringLiteral("inspectLftAction"));
        QVERIFY(inspect);
        inspect->trigger();
        QCOMPARE(inspector->currentSwitch(), sw);

        const NodeIndex a = fabric.endNodes().front();
        const NodeIndex b = fabric.endNodes().back();
        window.fabricScene()->selectNodes({a, b});
        PathTrace *trace = window.pathTrace();
        QCOMPARE(std::minmax(trace->source(), trace->destination()), std::minmax(a, b));
        // The demo's switches hold no tables yet: only the proposal routes.
        QCOMPARE(trace->currentPath().arrived, bool(window.document()->session()->currentTables()));
        QVERIFY(trace->proposedPath().arrived);
        QVERIFY(!trace->differingHops().empty());
        trace->showOnMap();
        QCOMPARE(window.fabricScene()->highlightedCableCount(), trace->currentPath().hops.size());
        QCOMPARE(window.fabricScene()->routeHopsShown(), trace->currentPath().hops.size() + trace->proposedPath().hops.size());
        // The legend names the trace's two lines until the selection changes.
        QVERIFY(window.fabricScene()->tracedRoutesShown());
        window.fabricScene()->selectNodes({a});
        QVERIFY(!window.fabricScene()->tracedRoutesShown());
    }
};

QTEST_MAIN(TestLftInspector)
#include "tst_lft_inspector.moc"
