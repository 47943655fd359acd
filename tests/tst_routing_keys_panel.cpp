// The Routing Keys panel in the desk: hosts selected on the map, ARK or NRK planned for them,
// figures (LID budget, per phase flows, Δ, slots, DmodK and keyed contention) equal to
// `weft keys --json` on the same topology and placement, and Review making the tables that
// realise the keys (equal to `weft keys --out`) the proposal the Diff Review shows.

#include "FabricGenerator.h"
#include "FabricScene.h"
#include "FabricDocument.h"
#include "GeneratedFabrics.h"
#include "KeyPlan.h"
#include "LftDump.h"
#include "MainWindow.h"
#include "RoutingEngine.h"
#include "SceneReady.h"
#include "RoutingKeysPanel.h"
#include "FabricSession.h"
#include "SafeFile.h"
#include "TopologyFile.h"
#include "WeftRunner.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace weft;

class TestRoutingKeysPanel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void figuresEqualWeftKeys_data()
    {
        QTest::addColumn<QString>("scheme");
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<std::vector<int>>("hosts");  // key-tree host indices, as --placement lists them
        QTest::addRow("ark ring") << QStringLiteral("ark") << QStringLiteral("ring") << std::vector<int>{0, 5, 9, 13};
        QTest::addRow("nrk neighbour") << QStringLiteral("nrk") << QStringLiteral("neighbour") << std::vector<int>{0, 1, 4, 6, 8, 10, 12, 15};
        QTest::addRow("ark recursive doubling") << QStringLiteral("ark") << QStringLiteral("recursive-doubling")
                                                << std::vector<int>{1, 2, 3, 7, 9, 11, 13, 14};
    }

    void figuresEqualWeftKeys()
    {
        QFETCH(QString, scheme);
        QFETCH(QString, pattern);
        QFETCH(std::vector<int>, hosts);
        QVERIFY2(QFileInfo(qEnvironmentVariable("WEFT_BINARY")).isExecutable(), "WEFT_BINARY must name the weft executable");

        // A 4-ary 2-tree whose hosts have LMC 3 (seven key offsets), as a topology file.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        GeneratorOptions o;
        o.arity = 4;
        o.levels = 2;
        o.lmc = 3;
        const QString topology = dir.filePath(QStringLiteral("tree.topo"));
        QVERIFY(writeFileAtomically(topology, writeIbnetdiscover(test::generateOrFail(o).fabric), false).ok());
        Result<Fabric> fabric = readTopologyFile(topology);
        QVERIFY(fabric.ok());
        Result<KeyTreeFabric> tree = inferKeyTree(*fabric);
        QVERIFY(tree.ok());

        // The desk on that fabric, with DmodK (the keys' tables without a key) installed: Weft's
        // engines, like OpenSM's, route no LMC > 0.
        MainWindow window;
        window.showFabric(*fabric, Tenancy{}, QStringLiteral("tree"));
        QVERIFY(test::waitForScene(window));
        Result<ForwardingTables> installed = keyForwardingTables(*fabric, *tree, {});
        QVERIFY2(installed.ok(), installed.ok() ? "" : qPrintable(installed.error().toString()));
        const QString installedPath = dir.filePath(QStringLiteral("installed.lfts"));
        QVERIFY(writeFileAtomically(installedPath, writeLftDump(*installed, &*fabric), false).ok());
        QString error;
        QVERIFY2(window.openLftDump(installedPath, &error), qPrintable(error));

        // The job's hosts selected on the map, taken by the panel.
        std::vector<NodeIndex> nodes;
        QStringList placement;
        for (int h : hosts) {
            nodes.push_back(tree->hosts[std::size_t(h)]);
            placement << QString::number(h);
        }
        window.fabricScene()->setHostsCollapsed(false);  // hosts drawn one by one, as zoomed in
        window.fabricScene()->selectNodes(nodes);
        QCOMPARE(window.fabricScene()->selectedNodes().size(), nodes.size());
        RoutingKeysPanel *panel = window.routingKeysPanel();
        QVERIFY(panel);
        auto *useSelection = panel->findChild<QPushButton *>(QStringLiteral("routingKeysUseSelection"));
        QVERIFY(useSelection);
        useSelection->click();  // the dock is not shown: no geometry for a mouse click
        QCOMPARE(panel->treeHosts(), hosts);
        panel->setScheme(scheme == QLatin1String("nrk") ? KeyScheme::Nrk : KeyScheme::Ark);
        panel->setPattern(*keyPatternFromName(pattern));
        const Status planned = panel->plan();
        QVERIFY2(planned.ok(), planned.ok() ? "" : qPrintable(planned.error().toString()));
        QVERIFY(panel->keyPlan().has_value());

        // `weft keys --json` on the same topology and placement, and its LFT dump.
        const QString keyedPath = dir.filePath(QStringLiteral("keys.lfts"));
        const test::Run run = test::runWeft({QStringLiteral("keys"), QStringLiteral("--json"), QStringLiteral("--topology"), topology,
                                             QStringLiteral("--scheme"), scheme, QStringLiteral("--pattern"), pattern,
                                             QStringLiteral("--placement"), placement.join(QLatin1Char(',')), QStringLiteral("--out"), keyedPath});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject cli = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(keyPlanToJson(*panel->keyPlan()), cli);

        // What the panel shows, figure by figure.
        const QJsonObject budget = cli.value(QStringLiteral("lid_budget")).toObject();
        QVERIFY2(panel->budgetText().contains(QStringLiteral("LMC %1 gives %2 key offsets").arg(budget.value(QStringLiteral("lmc")).toInt()).arg(budget.value(QStringLiteral("offsets")).toInt())),
                 qPrintable(panel->budgetText()));
        QVERIFY(panel->budgetText().contains(QLocale().toString(qlonglong(budget.value(QStringLiteral("lids")).toDouble()))));
        const QJsonArray phases = cli.value(QStringLiteral("phases")).toArray();
        QTableWidget *table = panel->phaseTable();
        QCOMPARE(table->rowCount(), phases.size());
        const QLocale locale;
        for (int row = 0; row < table->rowCount(); ++row) {
            const QJsonObject p = phases.at(row).toObject();
            const auto text = [&](int column) { return table->item(row, column)->text(); };
            QCOMPARE(text(RoutingKeysPanel::PhaseColumn), p.value(QStringLiteral("name")).toString());
            QCOMPARE(text(RoutingKeysPanel::OffsetColumn).toInt(), p.value(QStringLiteral("offset")).toInt());
            QCOMPARE(text(RoutingKeysPanel::FlowsColumn).toInt(), p.value(QStringLiteral("flows")).toInt());
            QCOMPARE(text(RoutingKeysPanel::DeltaColumn).toInt(), p.value(QStringLiteral("delta")).toInt());
            QCOMPARE(text(RoutingKeysPanel::SlotsColumn).toInt(), p.value(QStringLiteral("slots")).toInt());
            const QJsonObject dmodk = p.value(QStringLiteral("dmodk")).toObject();
            const QJsonObject keyed = p.value(QStringLiteral("keyed")).toObject();
            QCOMPARE(text(RoutingKeysPanel::DmodkMaxColumn).toInt(), dmodk.value(QStringLiteral("max")).toInt());
            QCOMPARE(text(RoutingKeysPanel::DmodkMeanColumn), locale.toString(dmodk.value(QStringLiteral("mean")).toDouble(), 'f', 3));
            QCOMPARE(text(RoutingKeysPanel::KeyedMaxColumn).toInt(), keyed.value(QStringLiteral("max")).toInt());
            QCOMPARE(text(RoutingKeysPanel::KeyedMeanColumn), locale.toString(keyed.value(QStringLiteral("mean")).toDouble(), 'f', 3));
            QCOMPARE(text(RoutingKeysPanel::IntraColumn).toInt(), keyed.value(QStringLiteral("max_intra")).toInt());
        }

        // Review: the keyed tables, equal to `weft keys --out`'s, are the proposal.
        QSignalSpy reviewed(panel, &RoutingKeysPanel::reviewed);
        const Status review = panel->review();
        QVERIFY2(review.ok(), review.ok() ? "" : qPrintable(review.error().toString()));
        QCOMPARE(reviewed.count(), 1);
        const std::shared_ptr<const PreviewResult> proposal = window.document()->session()->proposal();
        QVERIFY(proposal && proposal->proposed.tables);
        Result<ForwardingTables> written = readLftDumpFile(keyedPath, &*fabric);
        QVERIFY2(written.ok(), written.ok() ? "" : qPrintable(written.error().toString()));
        QCOMPARE(writeLftDump(*proposal->proposed.tables, &*fabric), writeLftDump(*written, &*fabric));
    }

    void refusesWithoutHostsOrLmc()
    {
        // A fat tree whose hosts have LMC 0: the plan works, Review says which LMC it needs.
        GeneratorOptions o;
        o.arity = 2;
        o.levels = 2;
        const Fabric fabric = test::generateOrFail(o).fabric;
        FabricDocument document;
        document.reset(std::make_shared<const Fabric>(fabric), Tenancy{}, QStringLiteral("tree"));
        Result<Routing> installed = routeFabric(QStringLiteral("ftree"), fabric, Tenancy{});
        QVERIFY(installed.ok());
        document.session()->setCurrentTables(std::make_shared<const ForwardingTables>(installed->tables), QStringLiteral("ftree"));
        RoutingKeysPanel panel(&document);
        const Status none = panel.plan();
        QVERIFY(!none.ok());
        QVERIFY(panel.statusText().contains(QLatin1String("Choose the job's hosts")));

        Result<KeyTreeFabric> tree = inferKeyTree(fabric);
        QVERIFY(tree.ok());
        panel.setHosts(tree->hosts);
        panel.setPattern(KeyPattern::Ring);
        QVERIFY(panel.plan().ok());
        const Status review = panel.review();
        QVERIFY(!review.ok());
        QVERIFY2(review.error().message.contains(QLatin1String("LMC 0")), qPrintable(review.error().message));
        QVERIFY(!document.session()->proposal());
    }
};

QTEST_MAIN(TestRoutingKeysPanel)
#include "tst_routing_keys_panel.moc"
